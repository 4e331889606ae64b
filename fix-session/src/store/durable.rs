//! A sync that runs away from the session: [`SyncJob`], started by
//! [`MessageStore::begin_sync`](super::MessageStore::begin_sync) and finished
//! by [`MessageStore::end_sync`](super::MessageStore::end_sync).
//!
//! A sync waits for the disk (or a database) for a long time next to what a
//! message costs: a thread that waited for it could not read, answer or store
//! meanwhile. Split in three, the sync's wait runs on a thread that may block
//! while the session goes on taking records, which the next sync covers.

use std::fmt;
use std::fs::File;
use std::future::Future;
use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use super::{IoOperation, StoreError};

/// What a [`SyncJob`] makes durable: everything written to it before the job
/// began (later writes may be covered too).
///
/// ```
/// use fix_session::store::Durable;
/// struct Nothing;
/// impl Durable for Nothing {
///     fn make_durable(&self) -> Result<(), fix_session::StoreError> { Ok(()) }
/// }
/// assert!(Nothing.make_durable().is_ok());
/// ```
pub trait Durable: Send + Sync {
    /// Blocks until what was written before the job began is durable; a
    /// failure says what the store was doing and to what, as the store's
    /// other errors do (a fenced database store says it was fenced).
    fn make_durable(&self) -> Result<(), StoreError>;

    /// Whether another thread makes this target durable, so that a task can
    /// wait for it with [`poll_durable`](Self::poll_durable) instead of a
    /// thread blocking in [`make_durable`](Self::make_durable). `false` by
    /// default.
    fn awaitable(&self) -> bool {
        false
    }

    /// Polls for what [`make_durable`](Self::make_durable) waits for,
    /// registering `cx`'s waker when it is not there yet. Called only when
    /// [`awaitable`](Self::awaitable); the default says it is done, which a
    /// target that is not awaitable never hears.
    fn poll_durable(&self, cx: &mut Context<'_>) -> Poll<Result<(), StoreError>> {
        let _ = cx;
        Poll::Ready(Ok(()))
    }

    /// Has the thread that makes this target durable call `hook` the moment
    /// the job waited for is durable, before the task waiting is woken
    /// (`None` takes a hook back); whether the target does. A target of
    /// [`awaitable`](Self::awaitable) jobs may; the default does not.
    fn on_durable(&self, hook: Option<Arc<dyn OnDurable>>) -> bool {
        let _ = hook;
        false
    }
}

/// Work done on the thread that syncs, the moment a job's records are
/// durable and before the task awaiting it hears so: an engine writes the
/// bytes the sync held back to the socket here, saving the task's wake-up
/// on the way from the disk to the wire.
///
/// Called at most once a [`SyncWait::on_durable`], never when the sync
/// failed; it must not block (the next sync waits for it).
///
/// ```
/// use fix_session::store::OnDurable;
/// struct Note;
/// impl OnDurable for Note {
///     fn on_durable(&self) {}
/// }
/// Note.on_durable();
/// ```
pub trait OnDurable: Send + Sync {
    /// The job's records are durable.
    fn on_durable(&self);
}

/// A byte range of the log file, written through the store's shared mapping.
///
/// The job maps the range afresh and msyncs it: the store's own mapping may
/// move (it grows with `mremap`) while the job runs, and a file's pages are
/// one page cache whatever mapping wrote them, so the fresh mapping's
/// `msync(MS_SYNC)` writes them back (on Linux, a data sync of that range
/// of the file, with its length when it grew). Not `fdatasync`: it would
/// also write back the zeros the log's growth put ahead of its end, which
/// the records overwrite moments later; every byte would reach the disk
/// twice.
pub(crate) struct FileRange {
    pub(crate) file: Arc<File>,
    /// The log's path, for the error.
    pub(crate) path: Arc<Path>,
    pub(crate) from: u64,
    pub(crate) to: u64,
}

impl FileRange {
    fn sync(&self) -> io::Result<()> {
        let len = usize::try_from(self.to - self.from)
            .map_err(|_| io::Error::other("a sync range longer than the address space"))?;
        if len == 0 {
            // Only the length changed: a data sync writes it.
            return self.file.sync_data();
        }
        let map = memmap2::MmapOptions::new()
            .offset(self.from)
            .len(len)
            .map_raw(&*self.file)?;
        map.flush()
    }
}

impl Durable for FileRange {
    fn make_durable(&self) -> Result<(), StoreError> {
        self.sync().map_err(|source| StoreError::Io {
            op: IoOperation::Sync,
            path: self.path.to_path_buf(),
            source,
        })
    }
}

/// A sync begun and not yet ended: run it ([`SyncJob::run`]) on any thread
/// that may block, then hand what it returns to
/// [`MessageStore::end_sync`](super::MessageStore::end_sync) (or
/// [`Session::end_sync`](crate::Session::end_sync)).
///
/// ```
/// use std::sync::Arc;
/// use fix_session::store::{Durable, SyncJob};
/// struct Nothing;
/// impl Durable for Nothing {
///     fn make_durable(&self) -> Result<(), fix_session::StoreError> { Ok(()) }
/// }
/// let done = SyncJob::new(7, Arc::new(Nothing)).run();
/// assert_eq!(done.id(), 7);
/// assert!(done.result().is_ok());
/// ```
#[must_use = "a sync begun must be run and ended, or what it covers never leaves"]
pub struct SyncJob {
    id: u64,
    target: Arc<dyn Durable>,
}

impl SyncJob {
    /// A job numbered `id` (the store's own count, so that it knows which of
    /// its syncs ended) over `target`.
    pub fn new(id: u64, target: Arc<dyn Durable>) -> Self {
        SyncJob { id, target }
    }

    /// Waits for the disk: call it where blocking is allowed.
    pub fn run(self) -> SyncDone {
        SyncDone {
            id: self.id,
            result: self.target.make_durable(),
        }
    }

    /// The job's number.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The job as a future, when its target is made durable by a thread of
    /// its own (an engine's shared log): a task awaits it without blocking
    /// its thread and without a thread of its own. Else the job back, to
    /// [`run`](Self::run) where blocking is allowed.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use fix_session::store::{Durable, SyncJob};
    /// struct Nothing;
    /// impl Durable for Nothing {
    ///     fn make_durable(&self) -> Result<(), fix_session::StoreError> { Ok(()) }
    /// }
    /// assert!(SyncJob::new(1, Arc::new(Nothing)).into_wait().is_err());
    /// ```
    pub fn into_wait(self) -> Result<SyncWait, SyncJob> {
        if self.target.awaitable() {
            Ok(SyncWait { job: self })
        } else {
            Err(self)
        }
    }
}

/// A [`SyncJob`] waited for as a future ([`SyncJob::into_wait`]).
#[must_use = "a sync begun must be waited for and ended"]
pub struct SyncWait {
    job: SyncJob,
}

impl SyncWait {
    /// The job's number.
    pub fn id(&self) -> u64 {
        self.job.id
    }

    /// Has the store's sync thread call `hook` once, the moment this job's
    /// records are durable and before this future is woken; whether it will
    /// (a sync that fails never calls it; nor does one that had ended
    /// already, or a job dropped first). The hook is taken back when this
    /// future is dropped.
    pub fn on_durable(&self, hook: Arc<dyn OnDurable>) -> bool {
        self.job.target.on_durable(Some(hook))
    }
}

impl Drop for SyncWait {
    fn drop(&mut self) {
        self.job.target.on_durable(None);
    }
}

impl Future for SyncWait {
    type Output = SyncDone;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<SyncDone> {
        let job = &self.get_mut().job;
        job.target
            .poll_durable(cx)
            .map(|result| SyncDone { id: job.id, result })
    }
}

impl fmt::Debug for SyncWait {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncWait")
            .field("id", &self.job.id)
            .finish()
    }
}

impl fmt::Debug for SyncJob {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SyncJob").field("id", &self.id).finish()
    }
}

/// A [`SyncJob`] that has run: its number and how it went.
#[derive(Debug)]
pub struct SyncDone {
    id: u64,
    result: Result<(), StoreError>,
}

impl SyncDone {
    /// What a job that could not run (its thread was lost) is ended with: a
    /// failure, so that nothing it covered is taken for durable.
    ///
    /// ```
    /// let done = fix_session::store::SyncDone::failed(3, "its task panicked");
    /// assert!(done.result().is_err());
    /// ```
    pub fn failed(id: u64, why: impl fmt::Display) -> Self {
        SyncDone {
            id,
            result: Err(StoreError::SyncLost {
                why: why.to_string(),
            }),
        }
    }

    /// The job's number.
    pub fn id(&self) -> u64 {
        self.id
    }

    /// How the job went.
    pub fn result(&self) -> &Result<(), StoreError> {
        &self.result
    }

    /// How the job went, taken: for a store's
    /// [`end_sync`](super::MessageStore::end_sync), which hands a failure on
    /// as it is.
    ///
    /// ```
    /// let done = fix_session::store::SyncDone::failed(3, "lost");
    /// assert!(matches!(done.into_result(), Err(fix_session::StoreError::SyncLost { .. })));
    /// ```
    pub fn into_result(self) -> Result<(), StoreError> {
        self.result
    }
}
