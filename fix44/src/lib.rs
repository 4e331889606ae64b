//! Typed FIX 4.4 messages, generated from `spec/FIX44.xml` by `cargo xtask regen`.
//!
//! Everything below the crate root comes from `src/generated/` (never edit it:
//! change `spec/FIX44.xml` or `fix-codegen` and run `cargo xtask regen`):
//! `messages` (read views, tables, builders), `components`, `enums`, `fields`
//! (tag constants), the [`Message`] enum and the validation tables
//! ([`DICTIONARY`]).
//!
//! # Example
//!
//! Read whatever arrives through the [`Message`] enum (it dispatches on MsgType),
//! validate it, and answer a NewOrderSingle with an ExecutionReport. The main
//! message types carry examples of their own
//! ([`NewOrderSingle`](messages::NewOrderSingle),
//! [`ExecutionReport`](messages::ExecutionReport),
//! [`MarketDataIncrementalRefresh`](messages::MarketDataIncrementalRefresh)).
//!
//! ```
//! use fix44::Message;
//! use fix44::components::{HeaderBuilder, HeaderRequired};
//! use fix44::enums::{ExecType, OrdStatus};
//! use fix44::messages::{ExecutionReport, ExecutionReportRequired};
//! use fix44::core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
//! use fix44::core::{Fields, Parser, validate::Validator};
//!
//! let received = b"8=FIX.4.4\x019=123\x0135=D\x0134=7\x0149=CLIENT\x0152=20261201-09:30:00.000\x01\
//!     56=VENUE\x0111=ORD-1\x0155=ACME\x0154=1\x0160=20261201-09:30:00.000\x0138=300\x0140=2\x0144=101.25\x01\
//!     10=091\x01";
//! let mut fields = Fields::<64>::new();
//! let msg = Parser::new().parse(received, &mut fields)?.complete().ok_or("incomplete")?;
//! Validator::new().validate(&fix44::DICTIONARY, &msg)?; // a Reject (35=3) to send otherwise
//!
//! let mut out = [0u8; 512];
//! if let Message::NewOrderSingle(order) = Message::new(msg) {
//!     let qty = order.order_qty_data().order_qty()?.ok_or("no OrderQty")?;
//!     let report = ExecutionReport::builder(ExecutionReportRequired {
//!         order_id: FixStr::parse(b"V-1")?,
//!         exec_id: FixStr::parse(b"V-1-0")?,
//!         exec_type: ExecType::New,
//!         ord_status: OrdStatus::New,
//!         side: order.side()?,
//!         leaves_qty: qty,
//!         cum_qty: Decimal::ZERO,
//!         avg_px: Decimal::ZERO,
//!     });
//!     let header = HeaderBuilder::new(HeaderRequired {
//!         sender_comp_id: FixStr::parse(b"VENUE")?,
//!         target_comp_id: FixStr::parse(b"CLIENT")?,
//!         msg_seq_num: SeqNum(3),
//!         sending_time: UtcTimestamp::parse(b"20261201-09:30:00.002")?,
//!     });
//!     let bytes = report.encode(&header, &mut out)?;
//!     assert!(bytes.starts_with(b"8=FIX.4.4\x01"));
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! fix44 is all a user's `Cargo.toml` needs: fix-core's values, parser and
//! validator are reached through [`core`], as above.

/// fix-core, re-exported: the values the typed messages take and return
/// (`core::value::{FixStr, Decimal, UtcTimestamp, …}`), the parser and the
/// validator, with no second dependency to add and keep at the same version.
pub use fix_core as core;

#[rustfmt::skip]
mod generated;

pub use generated::*;

/// README's Rust snippets, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
