//! The engine's shared log: one append-only log for every session of an
//! engine, so that one sync makes what all of them stored durable.
//!
//! A [`FileStore`](crate::FileStore) has a log and a sync of its own: with
//! many sessions, the syncs a second grow with the sessions while the disk
//! gives a fixed number of them, whatever each covers. In the shared log
//! each session's [`SharedStore`] keeps the records of a step and writes
//! them to the log in one write at its
//! [`begin_sync`](crate::MessageStore::begin_sync); one thread of the log
//! syncs whatever was written meanwhile (a data sync of the segment, its
//! space written with zeros beforehand so the sync carries no metadata) and
//! wakes every store and sender it covered. The sync never runs on the
//! caller's thread; a task awaits it ([`SyncJob::into_wait`](crate::store::SyncJob::into_wait))
//! and a thread blocks for it ([`sync`](crate::MessageStore::sync)).
//!
//! Each session keeps its numbers and an index of its messages in memory,
//! rebuilt from the segments on open; a resend reads its messages from the
//! segments. Segments before every session's last reset are removed.
//!
//! ```
//! use fix_session::MessageStore;
//! use fix_session::store::{SharedLog, SharedLogOptions};
//! # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-shared");
//! let log = SharedLog::open(&dir, SharedLogOptions::new())?;
//! let now = std::time::SystemTime::now();
//! let mut a = log.open_store("FIX.4.4-A-B", now)?;
//! let mut b = log.open_store("FIX.4.4-A-C", now)?;
//! a.store(1, b"35=D")?;
//! b.store(1, b"35=8")?;
//! a.sync()?; // one sync covers b's record too
//! b.sync()?;
//! drop((a, b, log));
//! let log = SharedLog::open(&dir, SharedLogOptions::new())?;
//! assert_eq!(log.open_store("FIX.4.4-A-C", now)?.next_sender_seq(), 2);
//! # drop(log);
//! # Ok::<(), fix_session::StoreError>(())
//! ```

mod format;
mod log;
mod recover;
mod shadow;
mod store;
mod tail;

use std::path::Path;
use std::sync::Arc;
use std::time::SystemTime;

pub use log::{MAX_HOOKS_A_SYNC, SharedLogOptions, UNASKED_SYNC_AFTER};
pub use shadow::SHADOW_SIZE;

/// The shared log's directory in a store directory (`FileStorePath`), where
/// an engine keeps it and the tools look for it.
pub const SHARED_LOG_DIR: &str = "shared-log";
pub use store::SharedStore;

use crate::store::StoreError;

/// An engine's shared log in a directory: open it once, then a
/// [`SharedStore`] per session with [`open_store`](Self::open_store).
/// Clones share the log; its sync thread stops when the last clone and the
/// last store are dropped.
#[derive(Clone)]
pub struct SharedLog {
    log: Arc<log::Log>,
}

impl std::fmt::Debug for SharedLog {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedLog")
            .field("dir", &self.log.inner.dir)
            .finish()
    }
}

impl SharedLog {
    /// Opens the log in `dir` (created if missing), taking its lock
    /// ([`StoreError::Locked`] while another process has it open) and
    /// recovering every session in it: a torn end of a batch that was never
    /// synced is cut; damage with records after it is
    /// [`StoreError::Corrupt`].
    pub fn open(dir: impl AsRef<Path>, options: SharedLogOptions) -> Result<Self, StoreError> {
        Ok(SharedLog {
            log: Arc::new(log::Log::open(dir.as_ref(), options)?),
        })
    }

    /// The store of session `name`: as the log left it, or new (created
    /// `now`, its first record durable before this returns).
    /// [`StoreError::Locked`] while another store of this log has it open.
    pub fn open_store(&self, name: &str, now: SystemTime) -> Result<SharedStore, StoreError> {
        SharedStore::open(self.log.clone(), name, now)
    }

    /// Deletes session `name`'s store: the next [`open_store`](Self::open_store)
    /// starts it afresh. Nothing to do for a name the log does not have.
    pub fn remove(&self, name: &str) -> Result<(), StoreError> {
        if !self.contains(name) {
            return Ok(());
        }
        self.open_store(name, SystemTime::now())?.remove()
    }

    /// Whether the log has a store for session `name`.
    pub fn contains(&self, name: &str) -> bool {
        log::lock_or_recover(&self.log.inner.writer)
            .sessions
            .contains_key(name)
    }

    /// The sessions the log has a store for, sorted.
    pub fn sessions(&self) -> Vec<String> {
        let mut names: Vec<String> = log::lock_or_recover(&self.log.inner.writer)
            .sessions
            .keys()
            .cloned()
            .collect();
        names.sort();
        names
    }

    /// Syncs of the log since it was opened: one covers every session that
    /// wrote since the last.
    pub fn syncs(&self) -> u64 {
        self.log.inner.syncs()
    }

    /// The directory the log is in.
    pub fn dir(&self) -> &Path {
        &self.log.inner.dir
    }

    /// A handle that does not keep the log open, for a registry of open
    /// logs: [`WeakSharedLog::upgrade`] gives the log back while a clone or
    /// a store of it lives.
    pub fn downgrade(&self) -> WeakSharedLog {
        WeakSharedLog {
            log: Arc::downgrade(&self.log),
        }
    }
}

/// A [`SharedLog`] that is not kept open by this handle.
#[derive(Clone, Debug)]
pub struct WeakSharedLog {
    log: std::sync::Weak<log::Log>,
}

impl WeakSharedLog {
    /// The log, if it is still open.
    pub fn upgrade(&self) -> Option<SharedLog> {
        self.log.upgrade().map(|log| SharedLog { log })
    }
}

/// A session of a shared log read without its lock and without changing a
/// byte, for an operator's tool ([`StoreLog`](crate::store::StoreLog)).
#[derive(Debug)]
pub(crate) struct SharedView {
    pub(crate) dir: std::path::PathBuf,
    pub(crate) state: crate::store::State,
    pub(crate) counts: crate::store::RecordCounts,
    number: u32,
    segments: std::collections::BTreeMap<u64, Arc<std::fs::File>>,
    /// Where the log's records end, as a position, and where a torn end was
    /// found (with its bytes).
    pub(crate) end: u64,
    pub(crate) torn: Option<(u64, u64)>,
    pub(crate) file_len: u64,
}

impl SharedView {
    /// Session `name` of the shared log in `dir`, if the log has it.
    pub(crate) fn open(dir: &Path, name: &str) -> Result<Option<SharedView>, StoreError> {
        let mut found = recover::recover(dir, false)?;
        let Some(slot) = found.sessions.remove(name) else {
            return Ok(None);
        };
        let Some(recovered) = slot.recovered else {
            return Ok(None);
        };
        let file_len = found
            .segments
            .values()
            .filter_map(|f| f.metadata().ok())
            .map(|m| m.len())
            .sum();
        Ok(Some(SharedView {
            dir: dir.to_path_buf(),
            state: recovered.state,
            counts: recovered.counts,
            number: slot.number,
            end: found.end.map_or(0, |(n, _, at)| log::pos(n, at)),
            torn: found.torn,
            segments: found.segments,
            file_len,
        }))
    }

    /// The sessions of the shared log in `dir`, sorted.
    pub(crate) fn sessions(dir: &Path) -> Result<Vec<String>, StoreError> {
        let mut names: Vec<String> = recover::recover(dir, false)?.sessions.into_keys().collect();
        names.sort();
        Ok(names)
    }

    /// Visits every stored message, each read from its segment and checked.
    pub(crate) fn read_messages(
        &self,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<(), StoreError> {
        let mut buf = Vec::new();
        for entry in &self.state.index {
            let (segment, offset) = log::split(entry.offset);
            let path = log::segment_path(&self.dir, segment);
            let corrupt = |reason| StoreError::Corrupt {
                path: path.clone(),
                offset,
                reason,
            };
            let file = self
                .segments
                .get(&segment)
                .ok_or_else(|| corrupt("the segment of a stored message is gone"))?;
            let body =
                store::read_message(file, entry, self.number, &mut buf).map_err(|e| match e {
                    store::ReadError::Io(source) => StoreError::Io {
                        op: crate::store::IoOperation::Read,
                        path: path.clone(),
                        source,
                    },
                    store::ReadError::Bad(reason) => corrupt(reason),
                })?;
            visit(entry.seq, body);
        }
        Ok(())
    }
}
