//! A fenced [`MessageStore`](fix_session::MessageStore) over PostgreSQL.
//!
//! [`PostgresStore`] keeps a session's numbers and sent messages in two tables
//! of its own (`fix_sessions`, `fix_messages`, created and migrated on open).
//! Writes are buffered and committed in batches, one statement and one commit
//! per batch (group commit through `begin_sync`/`end_sync`). Every batch is
//! conditional on the session's lease: an owner and an epoch that a takeover
//! bumps, so an engine that lost its lease changes nothing ([`StoreError::Fenced`]).
//!
//! ```no_run
//! use fix_session::MessageStore;
//! use fix_store_postgres::{PgConfig, PostgresStore};
//! use std::time::{Duration, SystemTime};
//!
//! let config = PgConfig::new("host=/var/run/postgresql user=fix dbname=fix", "engine-a")
//!     .lease(Duration::from_secs(10));
//! let mut store = PostgresStore::open(&config, "FIX.4.4-A-B", SystemTime::now())?;
//! store.store(store.next_sender_seq(), b"8=FIX.4.4\x01...")?;
//! store.sync()?; // one commit
//! # Ok::<(), fix_session::StoreError>(())
//! ```
//!
//! [`StoreError::Fenced`]: fix_session::StoreError::Fenced

mod batch;
mod config;
mod layout;
mod schema;
mod seq;
mod sessions;
mod sql;
mod store;
mod worker;

pub use config::{LeaseBudget, PgConfig};
pub use sessions::{SessionSummary, list_sessions};
pub use store::{Fenced, PostgresStore};
