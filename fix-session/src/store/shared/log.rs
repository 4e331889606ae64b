//! The log itself: segment files, the append, the sync thread, recovery.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::thread::JoinHandle;

use super::format;
use super::recover;
pub(super) use super::recover::Recovered;
use super::shadow::{self, SHADOW_SIZE, Shadow};
use super::tail::{self, Aligned, Piece};
use crate::store::{IoOperation, OnDurable, StoreError, lock};

/// A position in the log: the segment's number above bit 40, the offset in
/// it below. Positions grow with every append, across segments.
pub(super) type Pos = u64;
const OFFSET_BITS: u32 = 40;

pub(super) fn pos(segment: u64, offset: u64) -> Pos {
    (segment << OFFSET_BITS) | offset
}

pub(super) fn split(pos: Pos) -> (u64, u64) {
    (pos >> OFFSET_BITS, pos & ((1 << OFFSET_BITS) - 1))
}

/// How a [`SharedLog`](super::SharedLog) is opened.
///
/// ```
/// use fix_session::store::SharedLogOptions;
/// assert_eq!(SharedLogOptions::new().segment_size_bytes(), 16 << 20);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedLogOptions {
    segment_size: u64,
}

impl SharedLogOptions {
    /// The defaults: segments of 16 MiB.
    pub const fn new() -> Self {
        SharedLogOptions {
            segment_size: 16 << 20,
        }
    }

    /// The size of each segment file, written with zeros when it is made
    /// (so that a sync writes data, never the file system's metadata); at
    /// least 64 KiB. A batch larger than a segment gets a segment of its own
    /// size.
    ///
    /// ```
    /// use fix_session::store::SharedLogOptions;
    /// assert_eq!(SharedLogOptions::new().segment_size(1).segment_size_bytes(), 64 << 10);
    /// ```
    pub const fn segment_size(self, bytes: u64) -> Self {
        let bytes = if bytes < 64 << 10 { 64 << 10 } else { bytes };
        let bytes = if bytes > 1 << 39 { 1 << 39 } else { bytes };
        SharedLogOptions {
            segment_size: bytes,
        }
    }

    /// The size of each segment file.
    pub const fn segment_size_bytes(&self) -> u64 {
        self.segment_size
    }
}

impl Default for SharedLogOptions {
    fn default() -> Self {
        Self::new()
    }
}

/// What the log knows of one session.
#[derive(Debug)]
pub(super) struct SessionSlot {
    pub(super) number: u32,
    /// Where the session's last Reset is: no earlier segment is needed for it.
    pub(super) base: Pos,
    /// A store has it open.
    pub(super) open: bool,
    /// What recovery found, until a store takes it.
    pub(super) recovered: Option<Recovered>,
}

/// The appending side, behind one mutex.
pub(super) struct Writer {
    /// Every segment still on disk, by number.
    pub(super) segments: BTreeMap<u64, Arc<File>>,
    /// The segment appended to, its size, and where its written part ends.
    current: u64,
    current_size: u64,
    offset: u64,
    /// A segment made ahead of need by the helper thread.
    next: Option<JoinHandle<Result<(u64, File), StoreError>>>,
    pub(super) sessions: HashMap<String, SessionSlot>,
    next_number: u32,
    /// The current segment's bytes no sync has taken, from the block
    /// boundary before them: `tail.end()` is `offset`.
    tail: Piece,
    /// Earlier segments' pieces no sync has taken yet (a batch that ran
    /// into a new segment leaves the old one's end to write).
    sealed: Vec<Piece>,
    /// The range of the log the sync thread is writing: a reader of it
    /// waits for `landed` (it is in neither the pieces nor the file).
    flying: Option<(Pos, Pos)>,
    /// Buffers of written pieces, for the next ones.
    spare: Vec<Aligned>,
    /// Every append copied where a killed process leaves it.
    shadow: Shadow,
    /// Bytes appended since the sync thread last took the pieces.
    untaken: u64,
}

impl Writer {
    /// A buffer for a new piece: a spare one, or a new one.
    fn buffer(&mut self) -> Aligned {
        self.spare
            .pop()
            .unwrap_or_else(|| Aligned::with_capacity(tail::BLOCK))
    }
}

/// A store's job, as the sync thread sees it: the position it waits for
/// and the waker of the task awaiting it.
#[derive(Default)]
pub(super) struct Waiting {
    pub(super) at: AtomicU64,
    waker: Mutex<Option<Waker>>,
    /// In the sync thread's list.
    registered: AtomicBool,
    /// What the sync thread runs once the position given with it is durable.
    after: Mutex<Option<(Pos, Arc<dyn OnDurable>)>>,
}

impl std::fmt::Debug for Waiting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Waiting")
            .field("at", &self.at)
            .field("registered", &self.registered)
            .finish_non_exhaustive()
    }
}

/// What was appended and no one waits for (a step that only received) is
/// written to its segment at once, and synced at most this long after,
/// unless a sync asked for meanwhile covered it.
pub const UNASKED_SYNC_AFTER: std::time::Duration = std::time::Duration::from_millis(10);

/// At most this many [`OnDurable`] hooks run after one sync, before the
/// next sync may start; the tasks of the others are woken as usual. A sync
/// covering many sessions then does not wait for each one's socket.
pub const MAX_HOOKS_A_SYNC: usize = 16;

impl Waiting {
    /// Sets (or with `None` takes back) the hook for the job waiting now.
    pub(super) fn set_after(&self, hook: Option<Arc<dyn OnDurable>>) {
        let at = self.at.load(Ordering::Acquire);
        *lock_or_recover(&self.after) = hook.map(|h| (at, h));
    }

    /// Runs the hook if the position it was given with is durable by
    /// `durable`: taken under its lock, so it runs once.
    fn run_after(&self, durable: Pos) -> bool {
        let hook = {
            let mut after = lock_or_recover(&self.after);
            match &*after {
                Some((at, _)) if *at <= durable => after.take().map(|(_, h)| h),
                _ => None,
            }
        };
        hook.map(|h| h.on_durable()).is_some()
    }

    fn set_waker(&self, waker: &Waker) {
        let mut slot = lock_or_recover(&self.waker);
        if !slot.as_ref().is_some_and(|w| w.will_wake(waker)) {
            *slot = Some(waker.clone());
        }
    }

    fn wake(&self) {
        if let Some(w) = lock_or_recover(&self.waker).take() {
            w.wake();
        }
    }
}

/// What the sync thread and the waiters share.
struct SyncState {
    /// Everything before this position is appended (in memory or in the
    /// segments).
    written: Pos,
    /// Everything before this position the sync thread has taken to write
    /// (written, or being written, to the segments).
    handed: Pos,
    /// The furthest position someone waits to see durable: the thread syncs
    /// only for a waiter (a session with nothing to send writes its records
    /// out without asking; the next sync covers them).
    requested: Pos,
    /// Appends the shadow cannot hold much longer (or at all) wait to be
    /// written: the thread writes them without waiting for a sync.
    write_asked: bool,
    /// A sync failed: nothing more becomes durable.
    failed: Option<String>,
    /// Tasks waiting for a position.
    waiting: Vec<Arc<Waiting>>,
    stop: bool,
    syncs: u64,
}

pub(super) struct Inner {
    pub(super) dir: PathBuf,
    options: SharedLogOptions,
    pub(super) writer: Mutex<Writer>,
    sync: Mutex<SyncState>,
    /// Wakes the sync thread.
    work: Condvar,
    /// Wakes blocked waiters after a sync.
    done: Condvar,
    /// Wakes readers of what was flying (with `writer`'s lock).
    landed: Condvar,
    durable: AtomicU64,
    /// A write or a sync failed: the log takes nothing more.
    poisoned: AtomicBool,
    _lock: File,
}

/// The log's handle: the sync thread stops when the last one is dropped.
pub(super) struct Log {
    pub(super) inner: Arc<Inner>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for Log {
    fn drop(&mut self) {
        lock_or_recover(&self.inner.sync).stop = true;
        self.inner.work.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// A poisoned mutex here only means another thread panicked while holding
/// it; the data is counters and lists that stay consistent at every await.
pub(super) fn lock_or_recover<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn io_err(op: IoOperation, path: &Path, source: io::Error) -> StoreError {
    StoreError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

pub(super) fn segment_path(dir: &Path, number: u64) -> PathBuf {
    dir.join(format!("{number:016}.seg"))
}

/// Makes segment `number` of `size` bytes: the header, zeros to the end,
/// synced, renamed into place, the directory synced.
pub(super) fn make_segment(dir: &Path, number: u64, size: u64) -> Result<(u64, File), StoreError> {
    let header = segment_header(number);
    let path = segment_path(dir, number);
    let tmp = path.with_extension("tmp");
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&tmp)
        .map_err(|e| io_err(IoOperation::Open, &tmp, e))?;
    write_zeros(&mut file, size).map_err(|e| io_err(IoOperation::Allocate, &tmp, e))?;
    write_at(&file, &header, 0).map_err(|e| io_err(IoOperation::Write, &tmp, e))?;
    file.sync_all()
        .map_err(|e| io_err(IoOperation::Sync, &tmp, e))?;
    std::fs::rename(&tmp, &path).map_err(|e| io_err(IoOperation::Rename, &path, e))?;
    lock::sync_dir(dir)?;
    Ok((number, file))
}

/// Writes into the segments what the shadow of a killed process holds past
/// the log's last record (`found` is the log as recovery left it), and
/// syncs it: the next recovery replays it as any record. Returns whether
/// there was any.
fn keep_what_the_shadow_holds(
    dir: &Path,
    found: &recover::Found,
    segment_size: u64,
) -> Result<bool, StoreError> {
    let Some(from) = found.records_end else {
        return Ok(false);
    };
    let run = shadow::run_from(dir, from)?;
    let mut touched: Vec<(u64, Arc<File>)> = Vec::new();
    for (at, bytes) in &run {
        let (number, offset) = split(*at);
        let end = offset + bytes.len() as u64;
        let file = match touched.iter().find(|(n, _)| *n == number) {
            Some((_, f)) => f.clone(),
            None => match found.segments.get(&number) {
                Some(f) => f.clone(),
                None => Arc::new(make_segment(dir, number, segment_size.max(end))?.1),
            },
        };
        let path = segment_path(dir, number);
        let len = file
            .metadata()
            .map_err(|e| io_err(IoOperation::Read, &path, e))?
            .len();
        if end > len {
            // Not where this log's appends went: the run ends here.
            break;
        }
        write_at(&file, bytes, offset).map_err(|e| io_err(IoOperation::Write, &path, e))?;
        if !touched.iter().any(|(n, _)| *n == number) {
            touched.push((number, file));
        }
    }
    for (number, file) in &touched {
        file.sync_data()
            .map_err(|e| io_err(IoOperation::Sync, &segment_path(dir, *number), e))?;
    }
    Ok(!touched.is_empty())
}

/// The first bytes of segment `number`.
fn segment_header(number: u64) -> [u8; format::HEADER as usize] {
    let mut header = [0u8; format::HEADER as usize];
    header[..8].copy_from_slice(&format::MAGIC);
    header[8..].copy_from_slice(&number.to_le_bytes());
    header
}

/// Zeros written out (not a hole, not an unwritten extent): a later write
/// into them changes no metadata, so its sync is the data's alone.
fn write_zeros(file: &mut File, size: u64) -> io::Result<()> {
    use std::io::Write;
    let zeros = vec![0u8; 1 << 20];
    let mut left = size;
    while left > 0 {
        let n = left.min(zeros.len() as u64) as usize;
        file.write_all(&zeros[..n])?;
        left -= n as u64;
    }
    Ok(())
}

#[cfg(unix)]
pub(super) fn write_at(file: &File, bytes: &[u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
}

#[cfg(unix)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
pub(super) fn write_at(file: &File, mut bytes: &[u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !bytes.is_empty() {
        let n = file.seek_write(bytes, offset)?;
        bytes = &bytes[n..];
        offset += n as u64;
    }
    Ok(())
}

#[cfg(windows)]
pub(super) fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    use std::os::windows::fs::FileExt;
    while !buf.is_empty() {
        let n = file.seek_read(buf, offset)?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
        offset += n as u64;
    }
    Ok(())
}

impl Log {
    /// Opens (or creates) the log in `dir`: takes its lock, recovers every
    /// session from its segments, and starts the sync thread.
    pub(super) fn open(dir: &Path, options: SharedLogOptions) -> Result<Log, StoreError> {
        std::fs::create_dir_all(dir).map_err(|e| io_err(IoOperation::CreateDir, dir, e))?;
        let lock = lock::acquire(dir, &dir.join("shared-log.lock"))?;
        let mut found = recover::recover(dir, true)?;
        if keep_what_the_shadow_holds(dir, &found, options.segment_size)? {
            found = recover::recover(dir, true)?;
        }
        let (segments, current, current_size, offset) = match found.end {
            Some((number, size, offset)) => (found.segments, number, size, offset),
            None => {
                let (number, file) = make_segment(dir, 1, options.segment_size)?;
                let mut segments = BTreeMap::new();
                segments.insert(number, Arc::new(file));
                (segments, 1, options.segment_size, format::HEADER)
            }
        };
        let next_number = found.max_number.checked_add(1).ok_or(StoreError::Corrupt {
            path: dir.to_path_buf(),
            offset: 0,
            reason: "no session number left",
        })?;
        let written = pos(current, offset);
        let shadow = Shadow::begin(dir, written)?;
        let tail = {
            let start = tail::round_down(offset);
            let mut buf = Aligned::with_capacity(tail::BLOCK);
            let mut first = vec![0u8; (offset - start) as usize];
            if let Some(file) = segments.get(&current) {
                let path = segment_path(dir, current);
                read_at(file, &mut first, start)
                    .map_err(|e| io_err(IoOperation::Read, &path, e))?;
            }
            buf.extend(&first);
            Piece {
                segment: current,
                start,
                fresh: offset,
                buf,
            }
        };
        let inner = Arc::new(Inner {
            dir: dir.to_path_buf(),
            options,
            writer: Mutex::new(Writer {
                segments,
                current,
                current_size,
                offset,
                next: None,
                sessions: found.sessions,
                next_number,
                tail,
                sealed: Vec::new(),
                flying: None,
                spare: Vec::new(),
                shadow,
                untaken: 0,
            }),
            sync: Mutex::new(SyncState {
                written,
                requested: written,
                handed: written,
                write_asked: false,
                failed: None,
                waiting: Vec::new(),
                stop: false,
                syncs: 0,
            }),
            work: Condvar::new(),
            done: Condvar::new(),
            landed: Condvar::new(),
            durable: AtomicU64::new(written),
            poisoned: AtomicBool::new(false),
            _lock: lock,
        });
        let for_thread = inner.clone();
        let thread = std::thread::Builder::new()
            .name("fix-shared-log-sync".into())
            .spawn(move || sync_loop(&for_thread))
            .map_err(|e| io_err(IoOperation::Open, dir, e))?;
        Ok(Log {
            inner,
            thread: Some(thread),
        })
    }
}

impl Inner {
    /// Appends `batch` (whole records) at the log's end, in memory, and
    /// returns where it begins; the sync thread writes and syncs it.
    pub(super) fn append(&self, batch: &[u8]) -> Result<Pos, StoreError> {
        let mut w = lock_or_recover(&self.writer);
        if self.poisoned.load(Ordering::Acquire) {
            return Err(self.poisoned_error());
        }
        let len = batch.len() as u64;
        if w.offset + len > w.current_size {
            self.roll(&mut w, len)?;
        }
        let (number, offset) = (w.current, w.offset);
        w.tail.buf.extend(batch);
        w.offset += len;
        let end = pos(number, w.offset);
        // A process killed from here on keeps the batch in the shadow; the
        // sync thread writes it with the next sync, or at once when the
        // shadow could lose it.
        let copied = w.shadow.copy(pos(number, offset), batch);
        w.untaken += len;
        let write_now = !copied || w.untaken > SHADOW_SIZE as u64 / 4;
        self.prepare_next(&mut w);
        let mut s = lock_or_recover(&self.sync);
        // The first bytes since the last sync start the thread's
        // UNASKED_SYNC_AFTER; bytes the shadow could lose are written now.
        let first = s.written <= self.durable();
        let ask_write = write_now && !s.write_asked;
        s.write_asked |= write_now;
        if first || ask_write {
            self.work.notify_one();
        }
        s.written = end;
        drop(s);
        drop(w);
        Ok(pos(number, offset))
    }

    /// Copies `out.len()` bytes of the log at `at`: from the pieces not yet
    /// written, or from the segment (after the sync thread's write of them,
    /// if it is writing them now).
    pub(super) fn read(&self, at: Pos, out: &mut [u8]) -> Result<(), ReadFailure> {
        let (segment, offset) = split(at);
        let mut w = lock_or_recover(&self.writer);
        loop {
            if w.tail.read(segment, offset, out)
                || w.sealed.iter().any(|p| p.read(segment, offset, out))
            {
                return Ok(());
            }
            match w.flying {
                Some((from, to)) if at < to && at + out.len() as u64 > from => {
                    w = self.landed.wait(w).unwrap_or_else(|e| e.into_inner());
                }
                _ => break,
            }
        }
        let file = w.segments.get(&segment).cloned().ok_or(ReadFailure::Gone)?;
        drop(w);
        read_at(&file, out, offset).map_err(ReadFailure::Io)
    }

    /// Takes every piece with bytes no sync has written into `taken` (oldest
    /// first) and the files of their segments into `files`; returns the
    /// log's end, which they reach. Marks them flying.
    fn take_pieces(&self, taken: &mut Vec<Piece>, files: &mut Vec<(u64, Arc<File>)>) -> Pos {
        let mut w = lock_or_recover(&self.writer);
        w.untaken = 0;
        taken.append(&mut w.sealed);
        if w.tail.has_fresh() {
            let buf = w.buffer();
            let next = w.tail.successor(buf);
            taken.push(std::mem::replace(&mut w.tail, next));
        }
        for piece in taken.iter() {
            if !files.iter().any(|(n, _)| *n == piece.segment)
                && let Some(file) = w.segments.get(&piece.segment)
            {
                files.push((piece.segment, file.clone()));
            }
        }
        let end = pos(w.current, w.offset);
        w.flying = taken.first().map(|p| (pos(p.segment, p.start), end));
        end
    }

    /// The pieces are written: their buffers go back for the next ones and
    /// their readers read the segments.
    fn landed(&self, taken: &mut Vec<Piece>) {
        let mut w = lock_or_recover(&self.writer);
        w.flying = None;
        for mut piece in taken.drain(..) {
            if w.spare.len() < 2 {
                piece.buf.clear();
                w.spare.push(piece.buf);
            }
        }
        drop(w);
        self.landed.notify_all();
    }

    fn poisoned_error(&self) -> StoreError {
        StoreError::Poisoned {
            path: self.dir.clone(),
        }
    }

    /// Moves the log to a new segment with room for `len` bytes; the end of
    /// the segment left waits for the next sync.
    fn roll(&self, w: &mut Writer, len: u64) -> Result<(), StoreError> {
        let number = w.current + 1;
        let size = self.options.segment_size.max(len + format::HEADER);
        let made = match w.next.take() {
            Some(job) if size == self.options.segment_size => job
                .join()
                .unwrap_or_else(|_| make_segment(&self.dir, number, size))?,
            other => {
                if let Some(job) = other {
                    let _ = job.join();
                }
                make_segment(&self.dir, number, size)?
            }
        };
        w.segments.insert(made.0, Arc::new(made.1));
        let mut buf = w.buffer();
        buf.extend(&segment_header(made.0));
        let old = std::mem::replace(
            &mut w.tail,
            Piece {
                segment: made.0,
                start: 0,
                fresh: format::HEADER,
                buf,
            },
        );
        if old.has_fresh() {
            w.sealed.push(old);
        } else if w.spare.len() < 2 {
            let mut buf = old.buf;
            buf.clear();
            w.spare.push(buf);
        }
        w.current = made.0;
        w.current_size = size;
        w.offset = format::HEADER;
        self.free_unneeded(w);
        Ok(())
    }

    /// Past half the segment, the next one is made on a thread of its own,
    /// so that no sender waits for its zeros.
    fn prepare_next(&self, w: &mut Writer) {
        if w.next.is_some() || w.offset < w.current_size / 2 {
            return;
        }
        let dir = self.dir.clone();
        let (number, size) = (w.current + 1, self.options.segment_size);
        w.next = std::thread::Builder::new()
            .name("fix-shared-log-segment".into())
            .spawn(move || make_segment(&dir, number, size))
            .ok();
    }

    /// Removes the segments that no session needs: those before every
    /// session's last Reset that is durable.
    fn free_unneeded(&self, w: &mut Writer) {
        let durable = self.durable.load(Ordering::Acquire);
        let keep_from = w
            .sessions
            .values()
            .map(|s| split(s.base.min(durable)).0)
            .min()
            .unwrap_or(split(durable).0)
            .min(split(durable).0);
        let old: Vec<u64> = w.segments.range(..keep_from).map(|(n, _)| *n).collect();
        for number in old {
            if std::fs::remove_file(segment_path(&self.dir, number)).is_ok() {
                w.segments.remove(&number);
            }
        }
    }

    /// Registers session `name` (new: a number for it), returning its slot's
    /// number and what recovery found for it.
    pub(super) fn take_session(&self, name: &str) -> Result<(u32, Option<Recovered>), StoreError> {
        let mut w = lock_or_recover(&self.writer);
        if let Some(slot) = w.sessions.get_mut(name) {
            if slot.open {
                return Err(StoreError::Locked {
                    dir: self.dir.clone(),
                    lock_file: self.dir.join("shared-log.lock"),
                });
            }
            // A session known to the log always has a state to go on
            // from, unless its last store failed: starting it afresh would
            // reuse its numbers.
            let Some(recovered) = slot.recovered.take() else {
                return Err(self.poisoned_error());
            };
            slot.open = true;
            return Ok((slot.number, Some(recovered)));
        }
        let number = w.next_number;
        w.next_number = number.checked_add(1).ok_or(StoreError::InvalidSessionId {
            id: name.to_owned(),
            reason: "the shared log has no session number left",
        })?;
        w.sessions.insert(
            name.to_owned(),
            SessionSlot {
                number,
                base: Pos::MAX,
                open: true,
                recovered: None,
            },
        );
        Ok((number, None))
    }

    /// The session's last Reset is at `base`.
    pub(super) fn set_base(&self, name: &str, base: Pos) {
        if let Some(slot) = lock_or_recover(&self.writer).sessions.get_mut(name) {
            slot.base = base;
        }
    }

    /// The store of session `name` is closed (`removed`: and deleted).
    /// `kept`: the state it left, every record of it written to the log,
    /// for the next store of the session to go on from; `None` when its
    /// last records could not be written (that store failed).
    pub(super) fn release(&self, name: &str, removed: bool, kept: Option<Recovered>) {
        let mut w = lock_or_recover(&self.writer);
        if removed {
            w.sessions.remove(name);
        } else if let Some(slot) = w.sessions.get_mut(name) {
            slot.open = false;
            slot.recovered = kept;
        }
    }

    pub(super) fn durable(&self) -> Pos {
        self.durable.load(Ordering::Acquire)
    }

    fn request_locked(&self, s: &mut SyncState, at: Pos) {
        if at > s.requested {
            s.requested = at;
            self.work.notify_one();
        }
    }

    /// Blocks until everything before `at` is durable.
    pub(super) fn wait_durable(&self, at: Pos) -> io::Result<()> {
        let mut s = lock_or_recover(&self.sync);
        self.request_locked(&mut s, at);
        loop {
            if let Some(why) = &s.failed {
                return Err(io::Error::other(why.clone()));
            }
            if self.durable() >= at {
                return Ok(());
            }
            s = self.done.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Asks for everything before `waiting.at` to be durable, and for
    /// `waiting`'s waker to be woken then (once a job: a task's job is
    /// registered when it begins, not at each poll).
    pub(super) fn request_wake(&self, waiting: &Arc<Waiting>) {
        let mut s = lock_or_recover(&self.sync);
        self.request_locked(&mut s, waiting.at.load(Ordering::Acquire));
        if !waiting.registered.swap(true, Ordering::AcqRel) {
            s.waiting.push(waiting.clone());
        }
    }

    /// Polls for everything before `waiting.at` to be durable: O(1), the
    /// waker kept in `waiting`'s own slot (a task polls its job at every
    /// wake, whatever woke it).
    pub(super) fn poll_durable(
        &self,
        waiting: &Waiting,
        cx: &mut Context<'_>,
    ) -> Poll<io::Result<()>> {
        let at = waiting.at.load(Ordering::Acquire);
        if self.durable() >= at {
            return Poll::Ready(Ok(()));
        }
        waiting.set_waker(cx.waker());
        // The sync may have ended between the check and the waker's slot.
        if self.durable() >= at {
            return Poll::Ready(Ok(()));
        }
        if self.poisoned.load(Ordering::Acquire)
            && let Some(why) = &lock_or_recover(&self.sync).failed
        {
            return Poll::Ready(Err(io::Error::other(why.clone())));
        }
        Poll::Pending
    }

    /// A failed sync of the log, as its stores report it.
    pub(super) fn sync_error(&self, source: io::Error) -> StoreError {
        StoreError::Io {
            op: IoOperation::Sync,
            path: self.dir.clone(),
            source,
        }
    }

    /// Syncs made since the log was opened.
    pub(super) fn syncs(&self) -> u64 {
        lock_or_recover(&self.sync).syncs
    }
}

/// Why [`Inner::read`] found nothing.
pub(super) enum ReadFailure {
    /// The segment of the position is removed.
    Gone,
    Io(io::Error),
}

/// The sync thread: waits for a request, writes every piece appended since
/// its last sync (all that is appended, requested or not: a sync costs the
/// same whatever it covers) with one direct write each and syncs their
/// segments with one data sync each (usually one), publishes the durable
/// position and wakes whoever waits for it. Everything appended while a
/// sync runs is the next sync's: one sync covers every session and sender
/// that wrote meanwhile.
fn sync_loop(inner: &Inner) {
    let mut taken: Vec<Piece> = Vec::new();
    let mut files: Vec<(u64, Arc<File>)> = Vec::new();
    let mut current: Option<tail::Writer> = None;
    let mut woken: Vec<Arc<Waiting>> = Vec::new();
    loop {
        let Some(pass) = next_pass(inner) else {
            return;
        };
        let target = inner.take_pieces(&mut taken, &mut files);
        lock_or_recover(&inner.sync).handed = target;
        let mut result = write_pieces(inner, &taken, &files, &mut current);
        inner.landed(&mut taken);
        if pass == Pass::Write && result.is_ok() {
            // Written, not synced: `files` stay, for the next sync.
            continue;
        }
        if result.is_ok() {
            result = files.iter().try_for_each(|(_, f)| f.sync_data());
        }
        files.clear();
        let synced = result.is_ok();
        let mut s = lock_or_recover(&inner.sync);
        match result {
            Ok(()) => {
                inner.durable.store(target, Ordering::Release);
                s.syncs += 1;
                let mut i = 0;
                while i < s.waiting.len() {
                    if s.waiting[i].at.load(Ordering::Acquire) <= target {
                        // Off the list under the lock, so that a job begun
                        // from now on registers afresh.
                        s.waiting[i].registered.store(false, Ordering::Release);
                        woken.push(s.waiting.swap_remove(i));
                    } else {
                        i += 1;
                    }
                }
            }
            Err(e) => {
                // The kernel may have dropped the pages it could not write,
                // or a piece is half written: nothing after the last good
                // sync is known to be on disk.
                inner.poisoned.store(true, Ordering::Release);
                s.failed = Some(format!("write or sync of the shared log failed: {e}"));
                for w in &s.waiting {
                    w.registered.store(false, Ordering::Release);
                }
                woken.append(&mut s.waiting);
            }
        }
        drop(s);
        inner.done.notify_all();
        let durable = inner.durable();
        let mut hooks = 0;
        for w in woken.drain(..) {
            if hooks < MAX_HOOKS_A_SYNC && synced && w.run_after(durable) {
                hooks += 1;
            }
            w.wake();
        }
    }
}

/// What the sync thread does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pass {
    /// Writes what was appended: no one waits for it to be durable.
    Write,
    /// Writes what was appended and syncs every segment written since the
    /// last sync.
    Sync,
}

/// Waits for work: a sync asked for (or due: what was written and no one
/// asked for, `UNASKED_SYNC_AFTER` later), or appended bytes to write.
/// `None`: stopping with everything synced, or failed.
fn next_pass(inner: &Inner) -> Option<Pass> {
    let mut s = lock_or_recover(&inner.sync);
    loop {
        if s.failed.is_some() {
            return None;
        }
        if s.stop || s.requested > inner.durable() {
            // Stopping, what was appended is synced once more: a clean
            // stop leaves nothing in memory.
            return (s.written > inner.durable()).then_some(Pass::Sync);
        }
        if std::mem::take(&mut s.write_asked) && s.written > s.handed {
            return Some(Pass::Write);
        }
        if s.written <= inner.durable() {
            s = inner.work.wait(s).unwrap_or_else(|e| e.into_inner());
            continue;
        }
        // Written, and no one waits for it (a step that only received):
        // synced anyway after a while.
        let (g, waited) = inner
            .work
            .wait_timeout(s, UNASKED_SYNC_AFTER)
            .unwrap_or_else(|e| e.into_inner());
        s = g;
        if waited.timed_out() && s.written > inner.durable() {
            return Some(Pass::Sync);
        }
    }
}

/// Writes `taken` to their segments (the files of which are in `files`;
/// the writer of the newest segment is kept in `current`).
fn write_pieces(
    inner: &Inner,
    taken: &[Piece],
    files: &[(u64, Arc<File>)],
    current: &mut Option<tail::Writer>,
) -> io::Result<()> {
    let mut i = 0;
    while i < taken.len() {
        let segment = taken[i].segment;
        if current.as_ref().is_none_or(|w| w.segment != segment) {
            let file = files
                .iter()
                .find(|(n, _)| *n == segment)
                .map(|(_, f)| f.clone())
                .ok_or_else(|| io::Error::other(format!("segment {segment} is gone")))?;
            *current = Some(tail::Writer::open(
                segment,
                &segment_path(&inner.dir, segment),
                file,
            ));
        }
        let Some(writer) = current.as_mut() else {
            unreachable!("opened above");
        };
        while i < taken.len() && taken[i].segment == segment {
            writer.write(&taken[i])?;
            i += 1;
        }
    }
    Ok(())
}
