//! The FIX engine: acceptors and initiators that run [`fix_session`] sessions over
//! TCP. What is here so far is its configuration, [`config`]: QuickFIX-style
//! settings files (or the same settings from code), checked and turned into
//! fix-session's [`SessionConfig`](fix_session::SessionConfig) plus the engine's
//! own settings (schedule, sockets, TLS files, store, log and dictionary paths).
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

pub mod config;
pub mod log;
