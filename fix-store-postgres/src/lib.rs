//! A fenced [`MessageStore`](fix_session::MessageStore) over PostgreSQL.
//!
//! [`PostgresStore`] keeps a session's numbers and sent messages in tables of
//! its own (`fix_sessions`, `fix_batches`, created and migrated on open).
//! Writes are buffered and committed in batches, one statement and one commit
//! per batch (group commit through `begin_sync`/`end_sync`). Every batch is
//! conditional on the session's lease: an owner and an epoch that a takeover
//! bumps, so an engine that lost its lease changes nothing ([`StoreError::Fenced`]).
//!
//! # A batch is one row
//!
//! A batch's messages go into one `fix_batches` row (a batch larger than
//! 64 KiB into a few): the session, its generation, the first and last
//! numbers, and the messages laid out one after the other, each as its
//! number (8 bytes), its length (4 bytes, both big-endian) and its bytes. A
//! commit then writes one row and one index entry, not one per message, and
//! is one round trip: the batch statement (the lease-checked update of the
//! numbers, whose `RETURNING` feeds a plain `INSERT` of the rows) is prepared
//! once per connection. A sender number set below stored messages deletes
//! the batches from it on and marks the one it falls in (`valid_below`:
//! reads skip its messages from there), in the same transaction. Reads fetch
//! a few rows at a time and pick the messages in range. In SQL,
//! `fix_batch_messages(bytes, valid_below)` lists a row's messages:
//!
//! ```sql
//! SELECT m.seq, m.message FROM fix_batches b, fix_batch_messages(b.bytes, b.valid_below) m
//! WHERE b.session_key = 'FIX.4.4-A-B' ORDER BY b.first_seq, m.seq;
//! ```
//!
//! # A lost connection is a lost lease
//!
//! The lease lives on the connection that took it: renewals (every third of
//! the lease) and batches use that connection only. When the server ends it,
//! or it fails, the lease is lost at once: writes fail ([`StoreError::Fenced`],
//! or [`StoreError::Database`] for a batch the loss interrupted), as they do
//! when the local deadline passes without a renewal. Only opening and a take
//! (by [`refresh`](fix_session::MessageStore::refresh)) connect anew, and a
//! take always starts a new epoch, once the old lease has lapsed: after a lost
//! connection (a server restart, an engine cut off), `refresh` takes the
//! session again when nobody took it meanwhile, and the store is a standby
//! until then, or for good when another engine took it. An engine cut off from
//! the database thus loses the session within one lease, and a standby may
//! take it then.
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
//! # Before starting
//!
//! [`probe`] logs in and reads the tables' schema version and the lease
//! table without writing (what `fixcfg check --connect` reports). Every
//! database error displays the server's own message and what the store was
//! doing: `database store: could not open the session: role "fix" does not exist`.
//!
//! [`StoreError::Fenced`]: fix_session::StoreError::Fenced
//! [`StoreError::Database`]: fix_session::StoreError::Database

mod batch;
mod config;
mod error;
mod layout;
mod probe;
mod read;
mod schema;
mod seq;
mod sessions;
mod sql;
mod store;
mod worker;

pub use config::{LeaseBudget, PgConfig};
pub use probe::{Probe, probe};
pub use sessions::{SessionSummary, list_sessions};
pub use store::PostgresStore;
