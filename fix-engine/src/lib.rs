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
//! use fix_core::Message;
//! use fix_engine::{Engine, config::Settings};
//! use fix_session::{AppReject, Application, Outbox, SessionId, State};
//!
//! /// Answers every order with an acknowledgement.
//! struct Executor;
//! impl Application for Executor {
//!     fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
//!         if msg.msg_type() == b"D" {
//!             out.send_body(b"8", b"37=1\x0117=1\x01150=0\x0139=0\x0155=X\x0154=1\x01151=0\x0114=0\x016=0\x01");
//!         }
//!         Ok(())
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
//!     let engine = Engine::start(settings, &fix44::DICTIONARY, |_id, _handle| Executor).await?;
//!     let client = engine.session(&SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1")).unwrap();
//!     client.wait_for(State::LoggedOn).await;
//!     client.send(b"B", b"148=market opens\x01")?; // a News
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

mod admin;
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
mod tls;
mod transport;

pub use admin::{AdminCommand, AdminError, SessionStatus};
pub use dictionary::{DictionarySource, FileDictionaries, FileDictionary};
pub use engine::{
    Engine, EngineError, EngineErrorKind, EngineOptions, QueuedWhileDown, Shutdown,
    shared_log_syncs,
};
pub use handle::{NotSent, SendError, Sent, SessionHandle};
pub use tls::TlsFileError;
