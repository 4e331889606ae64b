//! The file store: one append-only, checksummed log per session.
//!
//! Everything the store knows is a record of the log, appended with one copy into
//! the mapped log: a
//! stored message (its number and bytes, which also takes the next sender number),
//! a target advance, a sequence set, and the reset every log starts with. Opening
//! replays the log, so the sequence numbers come from the same records as the
//! messages and no file is ever rewritten in place. Memory holds the index (number,
//! offset and length of each stored message); message bytes are read back through
//! the mapping for a resend. The format and the crash rules are in ARCHITECTURE.md.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};

#[cfg(target_os = "linux")]
use memmap2::RemapOptions;
use memmap2::{MmapMut, MmapOptions};

use super::inspect::RecordCounts;
use super::record;
use super::recover::{Recovered, recover};
use super::{
    Chunk, ChunkLimit, Entry, IoOperation, MessageStore, State, StoreError, SyncDone, SyncJob,
    check_seq, durable, lock, visit_chunk,
};

/// When the file store makes its records durable (msync of the mapped log).
///
/// A process crash loses nothing under any policy: a record is in the kernel's page
/// cache (the log is mapped shared) once the call that wrote it returns. What the policies differ in is a
/// power loss or a kernel crash, which loses the records not yet synced. A lost
/// outgoing record means its sequence number is handed out again after the restart,
/// with other contents than the counterparty already received (a lost target
/// advance only makes the session ask for messages it had, as a resend).
///
/// ```
/// use fix_session::{FileOptions, SyncPolicy};
/// use std::time::Duration;
/// let options = FileOptions::new().sync(SyncPolicy::Interval(Duration::from_millis(50)));
/// assert_eq!(options.sync_policy(), SyncPolicy::Interval(Duration::from_millis(50)));
/// assert_eq!(FileOptions::default().sync_policy(), SyncPolicy::EveryRecord);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SyncPolicy {
    /// Every record is synced before the call that wrote it returns: a message is
    /// durable before the session hands it out. Risks nothing the disk does not (a
    /// disk that acknowledges flushes it has not made); costs one msync per
    /// record, from tens of microseconds on NVMe to milliseconds on other disks.
    EveryRecord,
    /// Group commit: records are written without a sync, and one
    /// [`MessageStore::sync`] makes every record since the last one durable.
    /// The store reports records waiting ([`MessageStore::pending_sync`]), and
    /// a session holds back the bytes of the messages they hold until its
    /// [`Session::sync`](crate::Session::sync): a message is still durable
    /// before it leaves, as under [`EveryRecord`](Self::EveryRecord), and one
    /// sync covers everything a batch (all a read brought, every answer)
    /// stored. Under load the batch grows by itself and the sync's cost per
    /// message falls. What the engine uses for `FileStoreSync=Y`.
    Batch,
    /// A write syncs the log when this much time has passed since the last sync (the
    /// clock is read on every write). Risks, on a power loss, the records of the last
    /// interval, and everything since the last sync when no write came after it: the
    /// session calls [`MessageStore::sync`] on its timer to bound that. Costs at most
    /// one msync per interval.
    Interval(Duration),
    /// The store never syncs records on its own; the operating system writes them
    /// back when it likes (on Linux, dirty pages are usually older than 30 s before
    /// they are written). Risks, on a power loss, everything since the last explicit
    /// [`MessageStore::sync`]. Costs nothing.
    ///
    /// Under this policy and under [`Interval`](Self::Interval), a power loss can
    /// also leave a later page of the log on the disk without an earlier one; the
    /// store then refuses to open ([`StoreError::Corrupt`], damage in the middle)
    /// rather than guess which numbers were handed out.
    Os,
}

/// How a [`FileStore`] is opened.
///
/// ```
/// use fix_session::{FileOptions, SyncPolicy};
/// let options = FileOptions::new().sync(SyncPolicy::Os);
/// assert_eq!(options.sync_policy(), SyncPolicy::Os);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileOptions {
    sync: SyncPolicy,
    preallocate: u64,
    standby: bool,
    inline_sync_below: u64,
}

/// [`FileOptions::inline_sync_below`]'s default.
const DEFAULT_INLINE_SYNC_BELOW: u64 = 16 * 1024;

impl FileOptions {
    /// The defaults: [`SyncPolicy::EveryRecord`].
    ///
    /// ```
    /// use fix_session::{FileOptions, SyncPolicy};
    /// assert_eq!(FileOptions::new().sync_policy(), SyncPolicy::EveryRecord);
    /// ```
    pub const fn new() -> Self {
        FileOptions {
            sync: SyncPolicy::EveryRecord,
            preallocate: 0,
            standby: false,
            inline_sync_below: DEFAULT_INLINE_SYNC_BELOW,
        }
    }

    /// When records are made durable.
    ///
    /// ```
    /// use fix_session::{FileOptions, SyncPolicy};
    /// use std::time::Duration;
    /// let options = FileOptions::new().sync(SyncPolicy::Interval(Duration::from_millis(10)));
    /// # let _ = options;
    /// ```
    pub const fn sync(self, policy: SyncPolicy) -> Self {
        FileOptions {
            sync: policy,
            ..self
        }
    }

    /// Space for the log to take up front, when the store is opened and after each
    /// reset: the file is written out with zeros to this length (a day's messages,
    /// say), so that storing takes no growth step, and the pages are in the page
    /// cache, until then. The default, 0, lets the log grow as records come.
    ///
    /// ```
    /// use fix_session::FileOptions;
    /// let options = FileOptions::new().preallocate(64 << 20);
    /// assert_eq!(options.preallocated(), 64 << 20);
    /// ```
    pub const fn preallocate(self, bytes: u64) -> Self {
        FileOptions {
            preallocate: bytes,
            ..self
        }
    }

    /// Below how many unsynced bytes [`begin_sync`](MessageStore::begin_sync)
    /// syncs on the caller's thread instead of handing out a job: a small
    /// batch's msync (a few pages, one disk flush) costs less than the two
    /// thread hand-offs a job adds (about 260 µs on a paced order's round
    /// trip on our machines, against a sync of about 150 µs), and there is
    /// nothing to overlap it with. Above it the job overlaps the sync with
    /// what comes next. 0: always a job. The default is 16 KiB, about a
    /// hundred messages.
    ///
    /// ```
    /// use fix_session::FileOptions;
    /// assert_eq!(FileOptions::new().inline_sync_below(0).inline_sync_limit(), 0);
    /// assert_eq!(FileOptions::new().inline_sync_limit(), 16 * 1024);
    /// ```
    pub const fn inline_sync_below(self, bytes: u64) -> Self {
        FileOptions {
            inline_sync_below: bytes,
            ..self
        }
    }

    /// Below how many unsynced bytes a sync is made on the caller's thread.
    ///
    /// ```
    /// assert_eq!(fix_session::FileOptions::default().inline_sync_limit(), 16 * 1024);
    /// ```
    pub const fn inline_sync_limit(&self) -> u64 {
        self.inline_sync_below
    }

    /// The space the log takes up front.
    ///
    /// ```
    /// assert_eq!(fix_session::FileOptions::new().preallocated(), 0);
    /// ```
    pub const fn preallocated(&self) -> u64 {
        self.preallocate
    }

    /// A standby store (QuickFIX's hot failover with `RefreshOnLogon`): opened
    /// without taking the store's lock when another store holds it (the
    /// primary engine's), and reading the log as it is then, repairing
    /// nothing (a torn end may be the primary's record in the making). It
    /// writes nothing ([`StoreError::Standby`]) until its
    /// [`refresh`](MessageStore::refresh) takes the lock, once the primary
    /// has let it go, and reads the log again, a reset's new log included:
    /// from then on it is the session's store as any other. Opened when no
    /// other store holds the lock, it opens (creating or repairing the log)
    /// as usual and then lets the lock go.
    ///
    /// ```
    /// use fix_session::FileOptions;
    /// assert!(FileOptions::new().standby(true).is_standby());
    /// assert!(!FileOptions::new().is_standby());
    /// ```
    pub const fn standby(self, on: bool) -> Self {
        FileOptions {
            standby: on,
            ..self
        }
    }

    /// Whether the store is opened as a standby.
    ///
    /// ```
    /// assert!(!fix_session::FileOptions::default().is_standby());
    /// ```
    pub const fn is_standby(&self) -> bool {
        self.standby
    }

    /// The sync policy set.
    ///
    /// ```
    /// use fix_session::{FileOptions, SyncPolicy};
    /// assert_eq!(FileOptions::new().sync(SyncPolicy::Os).sync_policy(), SyncPolicy::Os);
    /// ```
    pub const fn sync_policy(&self) -> SyncPolicy {
        self.sync
    }
}

/// The same as [`FileOptions::new`].
///
/// ```
/// assert_eq!(fix_session::FileOptions::default(), fix_session::FileOptions::new());
/// ```
impl Default for FileOptions {
    fn default() -> Self {
        FileOptions::new()
    }
}

/// The torn end of an interrupted write, dropped when the store was opened: the log
/// was cut to `offset`, the end of its last good record.
///
/// ```
/// let tail = fix_session::TornTail { offset: 4096, len: 17 };
/// assert_eq!(tail.offset + tail.len, 4113); // the file's length before the cut
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TornTail {
    /// Where the dropped bytes started.
    pub offset: u64,
    /// How many bytes were dropped.
    pub len: u64,
}

/// A [`MessageStore`] in an append-only log file, the durable store.
///
/// [`open`](Self::open) takes a directory and a session id (such as
/// `FIX.4.4-SENDER-TARGET`, with a qualifier if the session has one) and keeps two
/// files there: `<id>.log`, the log, and `<id>.lock`, held locked while the store is
/// open so that a second store of the same session fails with
/// [`StoreError::Locked`]. Characters of the id other than ASCII letters, digits,
/// `-` and `.` (and a leading `.`) are written `_XX`, the byte in hex, so that
/// different ids name different files.
///
/// A [`reset`](MessageStore::reset) writes a new log beside the old one, syncs it and
/// renames it into place, so the log does not grow across resets and a crash leaves
/// one or the other, whole.
///
/// Dropping the store does not sync it: call [`sync`](MessageStore::sync) first under
/// [`SyncPolicy::Interval`] or [`SyncPolicy::Os`].
///
/// ```
/// use fix_session::{FileStore, MessageStore};
/// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-filestore");
/// let mut store = FileStore::open(&dir, "FIX.4.4-CLIENT-VENUE")?;
/// store.store(1, b"8=FIX.4.4\x01...")?; // durable when this returns
/// store.advance_target_seq(1)?;
/// drop(store);
///
/// let store = FileStore::open(&dir, "FIX.4.4-CLIENT-VENUE")?;
/// assert_eq!((store.next_sender_seq(), store.next_target_seq()), (2, 2));
/// # drop(store);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub struct FileStore {
    dir: PathBuf,
    log_path: Arc<Path>,
    tmp_path: PathBuf,
    /// Held for its lock, released when the store is dropped; `None` for a
    /// standby store not refreshed yet, which writes nothing.
    lock: Option<File>,
    lock_path: PathBuf,
    /// Shared with a [`SyncJob`] running elsewhere.
    log: Arc<File>,
    /// The log mapped from its start to `capacity`: records are written into it
    /// and read back from it, so storing a message makes no system call.
    map: MmapMut,
    /// The file's length: its space is allocated up to here, zeros past `end`.
    capacity: u64,
    state: State,
    /// The end of the last good record, where the next one is written.
    end: u64,
    /// Everything before this offset is on the disk.
    synced: u64,
    /// The file grew since the last sync: its new length must reach the disk too.
    grown: bool,
    options: FileOptions,
    last_sync: Instant,
    /// A sync failed: the store takes no more records until a reset.
    poisoned: bool,
    /// Syncs made (msyncs of records, with the file's length when it grew).
    syncs: u64,
    torn: Option<TornTail>,
    /// `begin_answer` was called: the next message stored opens the answers
    /// to this incoming number with an Answering record.
    answering: Option<u64>,
    /// Answers written and not yet closed by their target advance: where they
    /// began and the sender number before them, to take them back on an error.
    open_answer: Option<(u64, u64)>,
    /// The sync [`begin_sync`](MessageStore::begin_sync) handed out and that
    /// has not ended.
    in_flight: Option<InFlight>,
    /// The number of the last sync job handed out.
    jobs: u64,
}

/// Where a store's files are.
struct Paths {
    dir: PathBuf,
    log: PathBuf,
    tmp: PathBuf,
    lock: PathBuf,
}

/// A sync job running elsewhere: its number and the end of the log when it
/// began, up to which it makes the log durable.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    id: u64,
    target: u64,
}

/// The log's length is a multiple of this: the space a new log starts with, and
/// the smallest step it grows by.
const MIN_GROWTH: u64 = 64 * 1024;
/// The largest step: the log doubles up to this, then grows by it. Each step
/// writes its zeros and maps its pages while a record waits: a bigger step would
/// be a longer pause.
const MAX_GROWTH: u64 = 1 << 20;

impl FileStore {
    /// Opens the store of `session_id` in `dir` with the default options
    /// ([`SyncPolicy::EveryRecord`]), creating the directory and an empty store
    /// (created now) if there is none.
    ///
    /// ```
    /// use fix_session::{FileStore, MessageStore};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-open");
    /// let store = FileStore::open(&dir, "FIX.4.4-SENDER-TARGET")?;
    /// assert_eq!(store.log_path(), dir.join("FIX.4.4-SENDER-TARGET.log"));
    /// # drop(store);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn open(dir: impl AsRef<Path>, session_id: &str) -> Result<FileStore, StoreError> {
        FileStore::open_with(dir, session_id, FileOptions::new())
    }

    /// Opens the store of `session_id` in `dir` with `options`.
    ///
    /// The log is replayed: a torn last record is dropped and the file cut to the
    /// last good record ([`torn_tail`](Self::torn_tail) says so); a damaged record
    /// followed by valid ones is [`StoreError::Corrupt`], with the file and the
    /// record's offset.
    ///
    /// ```
    /// use fix_session::{FileOptions, FileStore, MessageStore, SyncPolicy};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-open-with");
    /// let options = FileOptions::new().sync(SyncPolicy::Os);
    /// let mut store = FileStore::open_with(&dir, "FIX.4.4-SENDER-TARGET-Q1", options)?;
    /// store.store(1, b"...")?;
    /// store.sync()?; // durable now
    /// # drop(store);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn open_with(
        dir: impl AsRef<Path>,
        session_id: &str,
        options: FileOptions,
    ) -> Result<FileStore, StoreError> {
        let dir = dir.as_ref();
        let stem = file_stem(session_id)?;
        ensure_dir(dir)?;
        let lock_path = dir.join(format!("{stem}.lock"));
        if !options.standby {
            let lock = lock::acquire(dir, &lock_path)?;
            return FileStore::open_locked(dir, &stem, options, lock);
        }
        match lock::acquire(dir, &lock_path) {
            Ok(lock) => {
                // No other store has it: opened (made, repaired) as usual,
                // then the lock is let go for the primary to take.
                let mut store = FileStore::open_locked(dir, &stem, options, lock)?;
                store.lock = None;
                Ok(store)
            }
            Err(StoreError::Locked { .. }) => FileStore::open_unlocked(dir, &stem, options),
            Err(e) => Err(e),
        }
    }

    /// Opens the log of `stem` in `dir` holding `lock`: a new log when there
    /// is none, a torn end cut, space reserved.
    fn open_locked(
        dir: &Path,
        stem: &str,
        options: FileOptions,
        lock: File,
    ) -> Result<FileStore, StoreError> {
        let lock_path = dir.join(format!("{stem}.lock"));
        let log_path = dir.join(format!("{stem}.log"));
        let tmp_path = dir.join(format!("{stem}.log.tmp"));
        // A new log that never made it into place (a crash while creating or
        // resetting): the old log, or none, is the store.
        match fs::remove_file(&tmp_path) {
            Err(e) if e.kind() != io::ErrorKind::NotFound => {
                return Err(io_error(IoOperation::Remove, &tmp_path, e));
            }
            _ => {}
        }
        let (log, recovered, capacity) =
            match OpenOptions::new().read(true).write(true).open(&log_path) {
                Ok(log) => {
                    let recovered = recover(&log, &log_path)?;
                    let mut capacity = recovered.file_len;
                    if recovered.torn.is_some() {
                        // Cut with the torn bytes goes the space allocated after
                        // them: the log grows again from the last good record.
                        log.set_len(recovered.end)
                            .map_err(|e| io_error(IoOperation::Truncate, &log_path, e))?;
                        log.sync_data()
                            .map_err(|e| io_error(IoOperation::Sync, &log_path, e))?;
                        capacity = recovered.end;
                    }
                    (log, recovered, capacity)
                }
                Err(e) if e.kind() == io::ErrorKind::NotFound => {
                    let created = SystemTime::now();
                    let contents = record::new_log(created);
                    let log = write_new_log(&tmp_path, &contents)?;
                    rename_into_place(&tmp_path, &log_path)?;
                    lock::sync_dir(dir)?;
                    let recovered = Recovered {
                        state: State::new(created, 0),
                        end: contents.len() as u64,
                        file_len: contents.len() as u64,
                        torn: None,
                        records: RecordCounts {
                            resets: 1,
                            ..RecordCounts::default()
                        },
                    };
                    (log, recovered, contents.len() as u64)
                }
                Err(e) => return Err(io_error(IoOperation::Open, &log_path, e)),
            };
        let paths = Paths {
            dir: dir.to_path_buf(),
            log: log_path,
            tmp: tmp_path,
            lock: lock_path,
        };
        let mut store = FileStore::assemble(paths, Some(lock), log, recovered, capacity, options)?;
        store.reserve_ahead()?;
        Ok(store)
    }

    /// The store over `log`, opened and recovered (to `capacity`), mapped.
    fn assemble(
        paths: Paths,
        lock: Option<File>,
        log: File,
        recovered: Recovered,
        capacity: u64,
        options: FileOptions,
    ) -> Result<FileStore, StoreError> {
        let map = map_log(&log, &paths.log, capacity)?;
        Ok(FileStore {
            dir: paths.dir,
            log_path: paths.log.into(),
            tmp_path: paths.tmp,
            lock,
            lock_path: paths.lock,
            log: Arc::new(log),
            map,
            capacity,
            state: recovered.state,
            end: recovered.end,
            synced: recovered.end,
            grown: false,
            options,
            last_sync: Instant::now(),
            poisoned: false,
            syncs: 0,
            torn: recovered.torn,
            answering: None,
            open_answer: None,
            in_flight: None,
            jobs: 0,
        })
    }

    /// Opens the log of `stem` in `dir` while another store holds its lock:
    /// read as it is, nothing written, cut or reserved (the other store may
    /// be writing its end), so that the state is what the other store had
    /// synced or written when it was read.
    fn open_unlocked(
        dir: &Path,
        stem: &str,
        options: FileOptions,
    ) -> Result<FileStore, StoreError> {
        let log_path = dir.join(format!("{stem}.log"));
        let log = OpenOptions::new()
            .read(true)
            .write(true)
            .open(&log_path)
            .map_err(|e| io_error(IoOperation::Open, &log_path, e))?;
        let recovered = recover(&log, &log_path)?;
        let capacity = recovered.file_len;
        let paths = Paths {
            dir: dir.to_path_buf(),
            log: log_path,
            tmp: dir.join(format!("{stem}.log.tmp")),
            lock: dir.join(format!("{stem}.lock")),
        };
        FileStore::assemble(paths, None, log, recovered, capacity, options)
    }

    /// Whether the store holds its lock (and so may write): always, but for
    /// a standby store not refreshed yet.
    ///
    /// ```
    /// use fix_session::{FileOptions, FileStore};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-holds");
    /// let primary = FileStore::open(&dir, "FIX.4.4-A-B")?;
    /// let standby = FileStore::open_with(&dir, "FIX.4.4-A-B", FileOptions::new().standby(true))?;
    /// assert!(primary.holds_lock() && !standby.holds_lock());
    /// # drop((primary, standby));
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn holds_lock(&self) -> bool {
        self.lock.is_some()
    }

    /// A write needs the lock.
    fn check_writable(&self) -> Result<(), StoreError> {
        match self.lock {
            Some(_) => Ok(()),
            None => Err(StoreError::Standby {
                lock_file: self.lock_path.clone(),
            }),
        }
    }

    /// Removes the store of `session_id` in `dir` (its log and lock files),
    /// as for a session that never began: an acceptor template's session whose
    /// first Logon was refused. Fails with [`StoreError::Locked`] while the
    /// store is open; a store that does not exist is removed already.
    ///
    /// ```
    /// use fix_session::{FileStore, MessageStore, StoreError};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-remove");
    /// let store = FileStore::open(&dir, "FIX.4.4-A-B")?;
    /// assert!(matches!(FileStore::remove(&dir, "FIX.4.4-A-B"), Err(StoreError::Locked { .. })));
    /// drop(store);
    /// FileStore::remove(&dir, "FIX.4.4-A-B")?;
    /// assert_eq!(fix_session::store::sessions(&dir)?, Vec::<String>::new());
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn remove(dir: impl AsRef<Path>, session_id: &str) -> Result<(), StoreError> {
        let dir = dir.as_ref();
        let stem = file_stem(session_id)?;
        let lock_path = dir.join(format!("{stem}.lock"));
        if !dir.join(format!("{stem}.log")).exists() && !lock_path.exists() {
            return Ok(());
        }
        // Held while the files go: no store of the session is open, and none
        // opens meanwhile.
        let _lock = lock::acquire(dir, &lock_path)?;
        for suffix in ["log", "log.tmp", "lock"] {
            let path = dir.join(format!("{stem}.{suffix}"));
            match fs::remove_file(&path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(io_error(IoOperation::Remove, &path, e));
                }
                _ => {}
            }
        }
        lock::sync_dir(dir)
    }

    /// How many syncs the store has made since it was opened: one a record
    /// under [`SyncPolicy::EveryRecord`], one a batch under
    /// [`SyncPolicy::Batch`].
    ///
    /// ```
    /// use fix_session::{FileOptions, FileStore, MessageStore, SyncPolicy};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-syncs");
    /// let mut store = FileStore::open_with(&dir, "FIX.4.4-A-B", FileOptions::new().sync(SyncPolicy::Batch))?;
    /// store.store(1, b"one")?;
    /// store.store(2, b"two")?;
    /// assert!(store.pending_sync());
    /// store.sync()?;
    /// assert_eq!((store.syncs(), store.pending_sync()), (1, false));
    /// # drop(store);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn syncs(&self) -> u64 {
        self.syncs
    }

    /// The log file.
    ///
    /// ```
    /// use fix_session::FileStore;
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-path");
    /// let store = FileStore::open(&dir, "FIX.4.4-A/B-C")?;
    /// assert_eq!(store.log_path(), dir.join("FIX.4.4-A_2FB-C.log"));
    /// # drop(store);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn log_path(&self) -> &Path {
        &self.log_path
    }

    /// The torn end dropped when the store was opened, if there was one (for the
    /// engine to log: the records in it were never confirmed to anyone under
    /// [`SyncPolicy::EveryRecord`]).
    ///
    /// ```
    /// use fix_session::FileStore;
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-torn");
    /// assert_eq!(FileStore::open(&dir, "FIX.4.4-A-B")?.torn_tail(), None);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn torn_tail(&self) -> Option<TornTail> {
        self.torn
    }

    /// Makes room for `more` bytes after `end`. The file grows by zeros written
    /// through the file, not by a hole: the disk space is taken now, so a full disk
    /// is an error here rather than a SIGBUS when a mapped page is written back.
    /// Growth doubles the log up to [`MAX_GROWTH`] a step: rare, and each step
    /// short.
    fn reserve(&mut self, more: u64) -> Result<(), StoreError> {
        let needed = self.end + more;
        if needed <= self.capacity {
            return Ok(());
        }
        let step = self.capacity.clamp(MIN_GROWTH, MAX_GROWTH);
        let base = self.capacity - self.capacity % MIN_GROWTH;
        let new_capacity = needed.max(base + step).next_multiple_of(MIN_GROWTH);
        zero_fill(&self.log, self.capacity, new_capacity)
            .map_err(|e| io_error(IoOperation::Allocate, &self.log_path, e))?;
        grow_map(&mut self.map, &self.log, new_capacity)
            .map_err(|e| io_error(IoOperation::Map, &self.log_path, e))?;
        self.capacity = new_capacity;
        self.grown = true;
        Ok(())
    }

    /// Room for the next record, and the space the options preallocate.
    fn reserve_ahead(&mut self) -> Result<(), StoreError> {
        let ahead = self.options.preallocate.saturating_sub(self.end);
        self.reserve(ahead.max(1))
    }

    /// Appends a record of `kind` to the log; returns where it starts.
    fn append(&mut self, kind: u8, fixed: &[u8], body: &[u8]) -> Result<u64, StoreError> {
        self.check_writable()?;
        if self.poisoned {
            return Err(StoreError::Poisoned {
                path: self.log_path.to_path_buf(),
            });
        }
        let size = record::size(fixed.len(), body.len());
        self.reserve(size as u64)?;
        let offset = self.end;
        // `reserve` made `capacity` at least `end + size`, and the map is
        // `capacity` long; both fit usize, since the map does.
        let start = offset as usize;
        record::write(&mut self.map[start..start + size], kind, fixed, body);
        self.end += size as u64;
        Ok(offset)
    }

    /// Syncs as the policy says, after a record was written.
    fn after_write(&mut self) -> Result<(), StoreError> {
        match self.options.sync {
            SyncPolicy::EveryRecord => self.sync_log(),
            SyncPolicy::Interval(every) if self.last_sync.elapsed() >= every => self.sync_log(),
            SyncPolicy::Interval(_) | SyncPolicy::Os | SyncPolicy::Batch => Ok(()),
        }
    }

    /// Opens the answers `begin_answer` announced, before their first message.
    fn open_answer(&mut self) -> Result<(), StoreError> {
        if let Some(received) = self.answering.take() {
            let offset = self.append(record::ANSWERING, &received.to_le_bytes(), &[])?;
            self.open_answer = Some((offset, self.state.next_sender));
        }
        Ok(())
    }

    /// A write failed while answers were open: they are taken back (their
    /// bytes zeroed, the sender number back where it was), so that the message
    /// they answer, not recorded as received, is answered afresh, once.
    fn take_back_answer(&mut self) {
        self.answering = None;
        if let Some((offset, next_sender)) = self.open_answer.take() {
            let (from, to) = (offset as usize, self.end as usize);
            self.map[from..to].fill(0);
            self.end = offset;
            self.synced = self.synced.min(offset);
            // A job running now may have missed the bytes written here next.
            if let Some(job) = &mut self.in_flight {
                job.target = job.target.min(offset);
            }
            self.state.set_sender(next_sender);
        }
    }

    /// Answers end, counted, with what closes them (a target advance, a
    /// number set, a reset).
    fn close_answer(&mut self) {
        self.answering = None;
        self.open_answer = None;
    }

    fn sync_log(&mut self) -> Result<(), StoreError> {
        if self.synced == self.end && !self.grown && self.in_flight.is_none() {
            return Ok(());
        }
        // msync of the pages written since the last sync, then the file's length
        // if it grew: the records are readable after a power loss only with both.
        let from = self.synced as usize;
        let written = self.end as usize - from;
        let synced = match written {
            0 => Ok(()),
            _ => self.map.flush_range(from, written),
        }
        // A job running now took the growth over: its length is not known
        // durable until then, so it is synced here too.
        .and_then(|()| match self.grown || self.in_flight.is_some() {
            true => self.log.sync_data(),
            false => Ok(()),
        });
        if let Err(e) = synced {
            // After a failed sync the kernel may have dropped the dirty pages and
            // marked them clean, so a retry can succeed without writing them: the
            // only safe answer is to stop taking records.
            self.poisoned = true;
            return Err(io_error(IoOperation::Sync, &self.log_path, e));
        }
        self.synced = self.end;
        self.grown = false;
        self.last_sync = Instant::now();
        self.syncs += 1;
        Ok(())
    }
}

/// Maps `log` from its start to `len`, for reading and writing.
#[allow(unsafe_code)]
fn map_log(log: &File, path: &Path, len: u64) -> Result<MmapMut, StoreError> {
    let len = usize::try_from(len).map_err(|_| {
        io_error(
            IoOperation::Map,
            path,
            io::Error::new(
                io::ErrorKind::OutOfMemory,
                "log longer than the address space",
            ),
        )
    })?;
    // SAFETY: the map is as long as the file, whose space is allocated, and the
    // file never gets shorter while it is mapped (it is cut only when opened,
    // before mapping; a reset maps a new file). No other store changes it: the
    // lock taken on open excludes every other FileStore of the session, in this
    // process or another. A program that cuts or rewrites the log outside that
    // lock breaks the store's contract, as it would with plain writes, and may get
    // this process a SIGBUS.
    unsafe { MmapOptions::new().len(len).map_mut(log) }
        .map_err(|e| io_error(IoOperation::Map, path, e))
}

/// Writes zeros into `log` from `from` up to `to`.
fn zero_fill(log: &File, from: u64, to: u64) -> io::Result<()> {
    static ZEROS: [u8; MIN_GROWTH as usize] = [0; MIN_GROWTH as usize];
    let mut at = from;
    while at < to {
        let n = (to - at).min(MIN_GROWTH) as usize;
        write_all_at(log, &ZEROS[..n], at)?;
        at += n as u64;
    }
    Ok(())
}

#[cfg(unix)]
fn write_all_at(log: &File, bytes: &[u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(log, bytes, at)
}

#[cfg(windows)]
fn write_all_at(log: &File, mut bytes: &[u8], mut at: u64) -> io::Result<()> {
    while !bytes.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(log, bytes, at)?;
        bytes = &bytes[n..];
        at += n as u64;
    }
    Ok(())
}

/// Makes `map` cover `log` up to `len`, which is its new length.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn grow_map(map: &mut MmapMut, _log: &File, len: u64) -> io::Result<()> {
    let len = usize::try_from(len).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    // SAFETY: nothing borrows the map across this call (the store holds it by
    // `&mut`), so moving it is sound; the file is `len` long (zero_fill wrote it),
    // and the rest of map_log's argument holds for the longer map. mremap keeps
    // the pages already mapped, where a new map would fault them in again.
    unsafe { map.remap(len, RemapOptions::new().may_move(true)) }
}

/// Makes `map` cover `log` up to `len`, which is its new length.
#[cfg(not(target_os = "linux"))]
fn grow_map(map: &mut MmapMut, log: &File, len: u64) -> io::Result<()> {
    *map = map_log(log, Path::new(""), len).map_err(|e| match e {
        StoreError::Io { source, .. } => source,
        other => io::Error::other(other.to_string()),
    })?;
    Ok(())
}

impl fmt::Debug for FileStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FileStore")
            .field("log_path", &self.log_path)
            .field("next_sender", &self.state.next_sender)
            .field("next_target", &self.state.next_target)
            .field("messages", &self.state.index.len())
            .field("end", &self.end)
            .field("capacity", &self.capacity)
            .field("options", &self.options)
            .field("poisoned", &self.poisoned)
            .finish_non_exhaustive()
    }
}

impl MessageStore for FileStore {
    fn next_sender_seq(&self) -> u64 {
        self.state.next_sender
    }

    fn next_target_seq(&self) -> u64 {
        self.state.next_target
    }

    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        let fixed = record::seq_set(seq, self.state.next_target);
        self.append(record::SEQ_SET, &fixed, &[])?;
        self.close_answer();
        self.state.set_sender(seq);
        self.after_write()
    }

    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        let fixed = record::seq_set(self.state.next_sender, seq);
        self.append(record::SEQ_SET, &fixed, &[])?;
        self.close_answer();
        self.state.next_target = seq;
        self.after_write()
    }

    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        self.state.check_store(seq, message.len())?;
        let stored = self.open_answer().and_then(|()| {
            let offset = self.append(record::MESSAGE, &seq.to_le_bytes(), message)?;
            self.state.stored(Entry {
                seq,
                offset,
                // `check_store` bounds the length by MAX_MESSAGE_LEN, well within u32.
                len: message.len() as u32,
            });
            self.after_write()
        });
        stored.inspect_err(|_| self.take_back_answer())
    }

    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        self.state.check_advance(received)?;
        let fixed = (received + 1).to_le_bytes();
        let advanced = self
            .append(record::TARGET_ADVANCED, &fixed, &[])
            .and_then(|_| self.after_write());
        match advanced {
            Ok(()) => {
                self.state.next_target = received + 1;
                self.close_answer();
                Ok(())
            }
            Err(e) => {
                self.take_back_answer();
                Err(e)
            }
        }
    }

    fn begin_answer(&mut self, received: u64) {
        // Answers still open were never closed by their advance (the call
        // that made them did not finish): their message was not recorded as
        // received, so they go.
        self.take_back_answer();
        self.answering = Some(received);
    }

    fn abandon_answer(&mut self) {
        self.take_back_answer();
    }

    fn read_stored(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        let FileStore {
            state,
            map,
            log_path,
            ..
        } = self;
        visit_chunk(state.range(from, to), limit, |entry| {
            let start = entry.offset as usize;
            let size = record::size(8, entry.len as usize);
            // The record was checked when it was written or replayed; checking it
            // again catches what the disk did to it since, instead of resending it.
            let body = map
                .get(start..start + size)
                .and_then(|rec| verify_message(rec, entry))
                .ok_or_else(|| StoreError::Corrupt {
                    path: log_path.to_path_buf(),
                    offset: entry.offset,
                    reason: "stored message changed on disk since it was written",
                })?;
            visit(entry.seq, body);
            Ok(())
        })
    }

    fn reset(&mut self, now: SystemTime) -> Result<(), StoreError> {
        self.check_writable()?;
        let contents = record::new_log(now);
        let log = write_new_log(&self.tmp_path, &contents)?;
        let len = contents.len() as u64;
        let map = map_log(&log, &self.tmp_path, len)?;
        rename_into_place(&self.tmp_path, &self.log_path)?;
        // The new log is in place: it is the store's from here on, whatever happens.
        self.log = Arc::new(log);
        self.map = map;
        // A job running now syncs the old log: it ends without effect.
        self.in_flight = None;
        self.capacity = len;
        self.end = len;
        self.synced = len;
        self.grown = false;
        self.state.reset(now);
        self.close_answer();
        self.last_sync = Instant::now();
        // The new log was synced before the rename: an earlier failed sync no longer
        // matters, unless the rename itself does not stay.
        self.poisoned = false;
        lock::sync_dir(&self.dir).inspect_err(|_| self.poisoned = true)?;
        self.reserve_ahead()
    }

    fn creation_time(&self) -> SystemTime {
        self.state.created
    }

    fn sync(&mut self) -> Result<(), StoreError> {
        if self.poisoned {
            return Err(StoreError::Poisoned {
                path: self.log_path.to_path_buf(),
            });
        }
        self.sync_log()?;
        // Everything is durable: a job in flight has nothing left to do, and
        // its end, if it comes, is of no job (a caller that lost it is free).
        self.in_flight = None;
        Ok(())
    }

    fn pending_sync(&self) -> bool {
        self.options.sync == SyncPolicy::Batch && (self.synced < self.end || self.grown)
    }

    /// A store that holds its lock has the log as it is on disk (no other
    /// store can have written it): nothing to do. A standby store takes the
    /// lock ([`StoreError::Locked`] while another store holds it) and opens
    /// the log again by its path, as a store opens (a torn end cut, a new
    /// log renamed into place by the other store's reset read): it is then
    /// a store like any other.
    fn refresh(&mut self) -> Result<(), StoreError> {
        if self.lock.is_some() {
            return Ok(());
        }
        let lock = lock::acquire(&self.dir, &self.lock_path)?;
        let stem = self
            .log_path
            .file_stem()
            .and_then(|s| s.to_str())
            .map(str::to_owned)
            .unwrap_or_default();
        // As an open: a reset the other store left unfinished is dropped.
        let fresh = FileStore::open_locked(&self.dir, &stem, self.options, lock)?;
        *self = fresh;
        Ok(())
    }

    fn begin_sync(&mut self) -> Result<Option<SyncJob>, StoreError> {
        if self.poisoned {
            return Err(StoreError::Poisoned {
                path: self.log_path.to_path_buf(),
            });
        }
        if self.in_flight.is_some() || (self.synced == self.end && !self.grown) {
            return Ok(None);
        }
        if !cfg!(target_os = "linux") || self.end - self.synced < self.options.inline_sync_below {
            // A small batch, or a system where fsync is not known to cover
            // the mapping's pages: msync here, on the caller's thread.
            return self.sync_log().map(|()| None);
        }
        self.jobs += 1;
        self.in_flight = Some(InFlight {
            id: self.jobs,
            target: self.end,
        });
        // The job's data sync writes the new length as well.
        self.grown = false;
        // The file is shared with the job: a reset that replaces it while the
        // job runs leaves the job syncing the old one, harmlessly.
        let range = durable::FileRange {
            file: self.log.clone(),
            path: self.log_path.clone(),
            from: self.synced,
            to: self.end,
        };
        Ok(Some(SyncJob::new(self.jobs, Arc::new(range))))
    }

    fn end_sync(&mut self, done: SyncDone) -> Result<(), StoreError> {
        let Some(job) = self.in_flight.take_if(|job| job.id == done.id()) else {
            // A job of a log a reset replaced.
            return Ok(());
        };
        if let Err(e) = done.into_result() {
            // As for a failed msync: the pages may be lost and marked clean.
            self.poisoned = true;
            return Err(e);
        }
        self.synced = self.synced.max(job.target.min(self.end));
        self.last_sync = Instant::now();
        self.syncs += 1;
        Ok(())
    }

    fn sync_in_flight(&self) -> bool {
        self.in_flight.is_some()
    }
}

/// The message of the Message record `rec`, if the record is the one `entry`
/// indexes and its CRC still matches.
pub(super) fn verify_message<'b>(rec: &'b [u8], entry: &Entry) -> Option<&'b [u8]> {
    let (framed, crc) = rec.split_last_chunk::<4>()?;
    let (head, body) = framed.split_first_chunk::<13>()?;
    let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let seq = u64::from_le_bytes(*head[5..].first_chunk::<8>()?);
    let intact = len == 9 + entry.len
        && body.len() == entry.len as usize
        && head[4] == record::MESSAGE
        && seq == entry.seq
        && crc32fast::hash(framed) == u32::from_le_bytes(*crc);
    intact.then_some(body)
}

/// Writes a new log's `contents` to `tmp` and syncs it; removes `tmp` on failure.
fn write_new_log(tmp: &Path, contents: &[u8]) -> Result<File, StoreError> {
    let write = || -> Result<File, StoreError> {
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(tmp)
            .map_err(|e| io_error(IoOperation::Open, tmp, e))?;
        file.write_all(contents)
            .map_err(|e| io_error(IoOperation::Write, tmp, e))?;
        // Synced whole before it is renamed into place: the log in place is never a
        // partly written new one.
        file.sync_all()
            .map_err(|e| io_error(IoOperation::Sync, tmp, e))?;
        Ok(file)
    };
    write().inspect_err(|_| {
        let _ = fs::remove_file(tmp);
    })
}

fn rename_into_place(tmp: &Path, log: &Path) -> Result<(), StoreError> {
    fs::rename(tmp, log).map_err(|e| {
        let _ = fs::remove_file(tmp);
        io_error(IoOperation::Rename, tmp, e)
    })
}

/// Creates `dir` if it is missing, and syncs its parent so that it stays.
fn ensure_dir(dir: &Path) -> Result<(), StoreError> {
    if dir.is_dir() {
        return Ok(());
    }
    fs::create_dir_all(dir).map_err(|e| io_error(IoOperation::CreateDir, dir, e))?;
    match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => lock::sync_dir(parent),
        _ => Ok(()),
    }
}

/// The longest file name most file systems take.
const MAX_FILE_NAME: usize = 255;

/// The file name stem of `session_id`: ASCII letters, digits, `-` and `.` kept
/// (but a leading `.`), every other byte written `_XX`, so that the mapping is
/// one to one and no id names a path outside the directory.
pub(super) fn file_stem(session_id: &str) -> Result<String, StoreError> {
    let invalid = |reason| StoreError::InvalidSessionId {
        id: session_id.to_owned(),
        reason,
    };
    if session_id.is_empty() {
        return Err(invalid("it is empty"));
    }
    let mut stem = String::with_capacity(session_id.len());
    for (i, b) in session_id.bytes().enumerate() {
        let keep = b.is_ascii_alphanumeric() || b == b'-' || (b == b'.' && i > 0);
        if keep {
            stem.push(char::from(b));
        } else {
            stem.push_str(&format!("_{b:02X}"));
        }
    }
    if stem.len() + ".log.tmp".len() > MAX_FILE_NAME {
        return Err(invalid("its file name would be longer than 255 bytes"));
    }
    Ok(stem)
}

pub(super) fn io_error(op: IoOperation, path: &Path, source: io::Error) -> StoreError {
    StoreError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_ids_map_one_to_one_onto_plain_file_names() {
        assert_eq!(
            file_stem("FIX.4.4-SENDER-TARGET").unwrap(),
            "FIX.4.4-SENDER-TARGET"
        );
        assert_eq!(file_stem("FIX.4.4-A/B-C").unwrap(), "FIX.4.4-A_2FB-C");
        assert_eq!(file_stem("FIX.4.4-A_2FB-C").unwrap(), "FIX.4.4-A_5F2FB-C");
        assert_eq!(file_stem("..").unwrap(), "_2E.");
        assert_eq!(file_stem("a b\\c").unwrap(), "a_20b_5Cc");
        assert_eq!(file_stem("é").unwrap(), "_C3_A9");
        assert!(matches!(
            file_stem(""),
            Err(StoreError::InvalidSessionId {
                reason: "it is empty",
                ..
            })
        ));
        assert!(file_stem(&"x".repeat(247)).is_ok());
        assert!(matches!(
            file_stem(&"x".repeat(248)),
            Err(StoreError::InvalidSessionId { .. })
        ));
    }
}
