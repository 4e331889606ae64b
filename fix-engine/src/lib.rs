//! The FIX engine: acceptors and initiators that run [`fix_session`] sessions over
//! TCP on tokio. Every session rule lives in fix-session; the engine owns the
//! sockets, the clock, the files and the configuration ([`config`]:
//! QuickFIX-style settings files, or the same settings from code).
//!
//! One task per connection owns its [`Session`](fix_session::Session): it reads
//! into the session, writes what the session hands back, and sleeps until the
//! session's deadline, a [`SessionHandle`]'s message or the socket wakes it.
//! Handles are cheap clones that copy messages into a bounded queue, without
//! allocating; a full queue is [`SendError::Full`], never growth.
//!
//! ```no_run
//! use fix_core::value::{Decimal, FixStr};
//! use fix_engine::{Engine, config::Settings};
//! use fix_session::{AppReject, Outbox, SessionId, State};
//! use fix44::enums::{ExecType, OrdStatus, TradSesStatus};
//! use fix44::messages::{ExecutionReport, ExecutionReportRequired, NewOrderSingle};
//! use fix44::messages::{TradingSessionStatus, TradingSessionStatusRequired};
//!
//! /// Answers every order with an acknowledgement; any other message type with
//! /// QuickFIX's BusinessMessageReject (UnsupportedMessageType).
//! struct Executor;
//! impl fix44::Handler<Outbox, AppReject> for Executor {
//!     fn on_new_order_single(&mut self, order: &NewOrderSingle<'_>, out: &mut Outbox) -> Result<(), AppReject> {
//!         let bad = |e: &dyn std::fmt::Display| AppReject::Business { reason: 0, ref_tag: None, text: e.to_string() };
//!         let ack = ExecutionReport::builder(ExecutionReportRequired {
//!             order_id: FixStr::parse(b"1").map_err(|e| bad(&e))?,
//!             exec_id: FixStr::parse(b"1").map_err(|e| bad(&e))?,
//!             exec_type: ExecType::New,
//!             ord_status: OrdStatus::New,
//!             side: order.side().map_err(|e| bad(&e))?,
//!             leaves_qty: Decimal::ZERO,
//!             cum_qty: Decimal::ZERO,
//!             avg_px: Decimal::ZERO,
//!         });
//!         out.send(&ack).map_err(|e| bad(&e)) // encoded straight into the session's outbox
//!     }
//! }
//!
//! #[tokio::main(flavor = "current_thread")]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     let settings = Settings::parse("executor.cfg", "
//! [SESSION]
//! ConnectionType=acceptor
//! BeginString=FIX.4.4
//! SenderCompID=EXECUTOR
//! TargetCompID=CLIENT1
//! SocketAcceptPort=5001
//! StartTime=00:00:00
//! EndTime=00:00:00
//! FileStorePath=store
//! ")?;
//!     // fix44::Cracker makes the handler the session's Application.
//!     let engine = Engine::start(settings, &fix44::DICTIONARY, |_id, _handle| fix44::Cracker(Executor)).await?;
//!     let client = engine.session(&SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1")).unwrap();
//!     client.wait_for(State::LoggedOn).await;
//!     let open = TradingSessionStatus::builder(TradingSessionStatusRequired {
//!         trading_session_id: FixStr::parse(b"DAY")?,
//!         trad_ses_status: TradSesStatus::Open,
//!     });
//!     client.send_message(&open)?; // a typed builder, encoded into the session's queue
//!     engine.shutdown(std::time::Duration::from_secs(5)).await?;
//!     Ok(())
//! }
//! ```
//!
//! ## TLS
//!
//! With the `tls` feature (on by default; rustls, with ring for its crypto), a
//! session with `SocketUseSSL=Y` runs over TLS, configured with QuickFIX's
//! keys and PEM files, all read when the engine starts:
//!
//! - an acceptor: `ServerCertificateFile` (its chain) and
//!   `ServerCertificateKeyFile` (without it, the key is read from the
//!   certificate's file); `CertificateVerifyLevel=1` requires a client
//!   certificate, `2` verifies one when given (QuickFIX/J's `NeedClientAuth=Y`
//!   is `1`), both against `CertificationAuthoritiesFile`;
//! - an initiator: `CertificationAuthoritiesFile` (required: the authorities
//!   the acceptor's certificate is checked against), the server name checked
//!   and sent as SNI (`SNIHostName`, QuickFIX/J's key, else
//!   `SocketConnectHost`), and `ClientCertificateFile`/`ClientCertificateKeyFile`
//!   for mutual TLS.
//!
//! ```
//! use fix_engine::config::Settings;
//!
//! let settings = Settings::parse("tls.cfg", "
//! [SESSION]
//! ConnectionType=initiator
//! BeginString=FIX.4.4
//! SenderCompID=CLIENT1
//! TargetCompID=EXECUTOR
//! HeartBtInt=30
//! SocketConnectHost=fix.example.com
//! SocketConnectPort=5001
//! NonStopSession=Y
//! SocketUseSSL=Y
//! CertificationAuthoritiesFile=/etc/ssl/certs/ca-certificates.crt
//! ClientCertificateFile=client1.crt
//! ClientCertificateKeyFile=client1.key
//! ")?;
//! assert!(settings.sessions()[0].tls.is_some());
//! # Ok::<(), fix_engine::config::ConfigError>(())
//! ```
//!
//! Built without the feature, the engine refuses `SocketUseSSL=Y` at start
//! ([`EngineErrorKind::Unsupported`]) rather than run in the clear.
//!
//! The settings themselves:
//!
//! ```
//! use fix_engine::config::Settings;
//!
//! let settings = Settings::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/executor.cfg"))?;
//! assert!(settings.sessions().len() >= 1);
//! # Ok::<(), fix_engine::config::ConfigError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

mod clock;
pub mod config;
mod dictionary;
mod driver;
mod engine;
mod handle;
mod journal;
pub mod log;
mod logon_tags;
mod metrics;
mod net;
mod operator;
mod synced_write;
mod tls;
mod transport;
mod wake_hub;

pub use dictionary::{DictionarySource, FileDictionaries, FileDictionary};
pub use engine::{
    Engine, EngineError, EngineErrorKind, EngineOptions, QueuedWhileDown, Shutdown,
    shared_log_syncs,
};
pub use handle::{NotSent, SendError, Sent, SessionHandle};
pub use operator::{OperatorCommand, OperatorError, SessionStatus};
pub use tls::TlsFileError;
