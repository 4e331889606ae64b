//! No-alloc, zero-copy FIX tag=value core.
//!
//! [`Parser::frame`] finds one complete message at the start of a byte stream and
//! checks its BeginString, BodyLength, MsgType and CheckSum; [`Parser::parse`] also
//! records the span of every field in caller-owned, fixed-capacity storage
//! (a [`Fields`], or any `&mut [Field]`), reading length-prefixed data fields ([`DataFields`]) by length so
//! that SOH inside them is data. Nothing here allocates.
//!
//! ```
//! use fix_core::{Fields, Parser, Status};
//!
//! let bytes = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01";
//! let mut fields = Fields::<64>::new();
//! match Parser::new().parse(bytes, &mut fields)? {
//!     Status::Complete(msg) => {
//!         assert_eq!(msg.msg_type(), b"0");
//!         assert_eq!(msg.bytes().len(), bytes.len()); // bytes consumed
//!     }
//!     Status::Partial { needed } => unreachable!("read {needed:?} more bytes"),
//! }
//! # Ok::<(), fix_core::Error>(())
//! ```
#![no_std]
#![deny(missing_docs)]

#[cfg(feature = "std")]
extern crate std;

mod data;
mod encode;
mod error;
mod frame;
mod message;
mod parser;
mod scan;
pub mod validate;
pub mod value;

pub use data::{DataFieldPair, DataFields, FIX44_DATA_FIELDS};
#[cfg(feature = "std")]
pub use encode::encode_to_vec;
pub use encode::{EncodeError, Encoder};
pub use error::Error;
pub use frame::{Frame, MAX_BEGIN_STRING, Status, resync};
pub use message::{Field, Fields, Message};
pub use parser::{DEFAULT_MAX_MESSAGE_SIZE, Parser};
pub use scan::{SOH, checksum};
