//! One session's store over the engine's shared log.

use std::fs::File;
use std::io;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use std::time::SystemTime;

use super::format::{self, MESSAGE};
use super::log::{Inner, Log, Pos, ReadFailure, Recovered, Waiting, read_at, segment_path, split};
use crate::store::{
    Chunk, ChunkLimit, Durable, Entry, IoOperation, MessageStore, OnDurable, State, StoreError,
    SyncDone, SyncJob, check_seq, visit_chunk,
};

/// Marks an index entry whose record is still in the store's pending batch:
/// the offset below it is in that batch, not in the log.
const PENDING: u64 = 1 << 63;

/// A session's [`MessageStore`] in an engine's [`SharedLog`](super::SharedLog):
/// its records go into the log with every other session's, and one sync of
/// the log makes all of them durable.
///
/// Records are kept in the store until its next
/// [`begin_sync`](MessageStore::begin_sync) (or [`sync`](MessageStore::sync)),
/// which writes them to the log in one write; the job it hands out is done
/// when the log's sync thread has synced past them.
pub struct SharedStore {
    /// The log, kept open (its sync thread running) while a store needs it.
    _handle: Arc<Log>,
    log: Arc<Inner>,
    name: String,
    number: u32,
    state: State,
    /// Records taken and not yet written to the log.
    pending: Vec<u8>,
    /// Where a Reset in `pending` is, to tell the log the session's new base.
    pending_reset: Option<usize>,
    /// The log position after this store's last written record.
    written: Pos,
    /// Everything of this store before this position is durable.
    synced: Pos,
    answering: Option<u64>,
    /// Answers opened and not closed: where their Answering record is in
    /// `pending` (None once written to the log), and the sender number
    /// before them.
    open_answer: Option<(Option<usize>, u64)>,
    in_flight: Option<(u64, Pos)>,
    jobs: u64,
    /// The job's target, reused for every job (no allocation a sync).
    waiter: Arc<Waiter>,
    read_buf: Vec<u8>,
    poisoned: bool,
    removed: bool,
}

/// What a job waits for: the log durable past a position.
struct Waiter {
    _handle: Arc<Log>,
    log: Arc<Inner>,
    waiting: Arc<Waiting>,
}

impl Durable for Waiter {
    fn make_durable(&self) -> Result<(), StoreError> {
        self.log
            .wait_durable(self.waiting.at.load(Ordering::Acquire))
            .map_err(|source| self.log.sync_error(source))
    }

    fn awaitable(&self) -> bool {
        true
    }

    fn poll_durable(&self, cx: &mut Context<'_>) -> Poll<Result<(), StoreError>> {
        self.log
            .poll_durable(&self.waiting, cx)
            .map_err(|source| self.log.sync_error(source))
    }

    fn on_durable(&self, hook: Option<Arc<dyn OnDurable>>) -> bool {
        self.waiting.set_after(hook);
        true
    }
}

impl std::fmt::Debug for SharedStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SharedStore")
            .field("name", &self.name)
            .field("number", &self.number)
            .field("next_sender", &self.state.next_sender)
            .field("next_target", &self.state.next_target)
            .finish()
    }
}

impl SharedStore {
    /// The store of session `name`, recovered or new (then its first record,
    /// a Reset naming it, is made durable before this returns).
    pub(super) fn open(handle: Arc<Log>, name: &str, now: SystemTime) -> Result<Self, StoreError> {
        let log = handle.inner.clone();
        if name.is_empty() || name.len() > format::MAX_NAME {
            return Err(StoreError::InvalidSessionId {
                id: name.to_owned(),
                reason: "a shared log's session name is 1 to 1024 bytes",
            });
        }
        let (number, recovered) = log.take_session(name)?;
        let durable = log.durable();
        let fresh = recovered.is_none();
        let state = match recovered {
            Some(r) => r.state,
            None => State::new(now, 0),
        };
        let mut store = SharedStore {
            waiter: Arc::new(Waiter {
                _handle: handle.clone(),
                log: log.clone(),
                waiting: Arc::new(Waiting::default()),
            }),
            _handle: handle,
            log,
            name: name.to_owned(),
            number,
            state,
            pending: Vec::with_capacity(4 << 10),
            pending_reset: None,
            written: durable,
            synced: durable,
            answering: None,
            open_answer: None,
            in_flight: None,
            jobs: 0,
            read_buf: Vec::new(),
            poisoned: false,
            removed: false,
        };
        if fresh && let Err(e) = store.reset(now) {
            // Never named durably: the log forgets it, and the store's drop
            // writes nothing more.
            store.log.release(name, true, None);
            store.removed = true;
            return Err(e);
        }
        Ok(store)
    }

    /// The session's name in the log.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Removes the session from the log: a Removed record, made durable; its
    /// records are no longer needed and its name may be opened afresh.
    pub(super) fn remove(mut self) -> Result<(), StoreError> {
        self.push(format::REMOVED, &[], &[]);
        self.sync()?;
        self.removed = true;
        Ok(())
    }

    fn push(&mut self, kind: u8, fixed: &[u8], body: &[u8]) {
        format::append(&mut self.pending, kind, self.number, fixed, body);
    }

    fn check_open(&self) -> Result<(), StoreError> {
        if self.poisoned {
            return Err(StoreError::Poisoned {
                path: self.log.dir.clone(),
            });
        }
        Ok(())
    }

    /// Writes the pending records to the log, and points the index entries
    /// that were in them at the log.
    fn flush(&mut self) -> Result<(), StoreError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let start = match self.log.append(&self.pending) {
            Ok(start) => start,
            Err(e) => {
                self.poisoned = true;
                return Err(e);
            }
        };
        for entry in self.state.index.iter_mut().rev() {
            if entry.offset & PENDING == 0 {
                break;
            }
            entry.offset = start + (entry.offset & !PENDING);
        }
        if let Some(at) = self.pending_reset.take() {
            self.log.set_base(&self.name, start + at as u64);
        }
        if let Some((in_pending, _)) = &mut self.open_answer {
            *in_pending = None;
        }
        self.written = start + self.pending.len() as u64;
        self.pending.clear();
        Ok(())
    }

    fn take_back_answer(&mut self) {
        self.answering = None;
        if let Some((in_pending, next_sender)) = self.open_answer.take() {
            match in_pending {
                Some(at) => {
                    // Never written: the records go as if never taken.
                    self.pending.truncate(at);
                }
                None => {
                    // Written already: a SeqSet closes them in the log.
                    let fixed = format::seq_set(next_sender, self.state.next_target);
                    self.push(format::SEQ_SET, &fixed, &[]);
                }
            }
            self.state.set_sender(next_sender);
        }
    }

    fn close_answer(&mut self) {
        self.answering = None;
        self.open_answer = None;
    }

    /// The stored message of `entry`, read from the pending batch or the log
    /// and checked against its CRC.
    fn read_entry<'a>(
        pending: &'a [u8],
        read_buf: &'a mut Vec<u8>,
        log: &Inner,
        number: u32,
        entry: &Entry,
    ) -> Result<&'a [u8], StoreError> {
        if entry.offset & PENDING != 0 {
            let from = (entry.offset & !PENDING) as usize;
            let size = format::size(8 + entry.len as usize);
            let bytes = pending.get(from..from + size).unwrap_or_default();
            return check_message(bytes, entry, number).map_err(|reason| StoreError::Corrupt {
                path: log.dir.clone(),
                offset: from as u64,
                reason,
            });
        }
        let (seg, offset) = split(entry.offset);
        let path = segment_path(&log.dir, seg);
        read_buf.resize(format::size(8 + entry.len as usize), 0);
        log.read(entry.offset, read_buf).map_err(|e| match e {
            ReadFailure::Gone => StoreError::Corrupt {
                path: path.clone(),
                offset,
                reason: "the segment of a stored message is gone",
            },
            ReadFailure::Io(source) => StoreError::Io {
                op: IoOperation::Read,
                path: path.clone(),
                source,
            },
        })?;
        check_message(read_buf, entry, number).map_err(|reason| StoreError::Corrupt {
            path,
            offset,
            reason,
        })
    }
}

/// Why a stored message could not be read back.
pub(super) enum ReadError {
    Io(io::Error),
    Bad(&'static str),
}

/// Reads the Message record `entry` points at (a log position) from its
/// segment `file` into `buf`, and checks it is that message of session `number`.
pub(super) fn read_message<'a>(
    file: &File,
    entry: &Entry,
    number: u32,
    buf: &'a mut Vec<u8>,
) -> Result<&'a [u8], ReadError> {
    let (_, offset) = split(entry.offset);
    buf.resize(format::size(8 + entry.len as usize), 0);
    read_at(file, buf, offset).map_err(ReadError::Io)?;
    check_message(buf, entry, number).map_err(ReadError::Bad)
}

/// The message in record bytes `bytes`, if they are the Message record of
/// `entry` in session `number`, CRC intact.
fn check_message<'a>(
    bytes: &'a [u8],
    entry: &Entry,
    number: u32,
) -> Result<&'a [u8], &'static str> {
    let (rec, _) = format::frame(bytes).map_err(|_| "a stored message's record is damaged")?;
    let seq = rec
        .payload
        .get(..8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    if rec.kind != MESSAGE || rec.session != number || seq != Some(entry.seq) {
        return Err("the index points at another record");
    }
    Ok(&rec.payload[8..])
}

impl Drop for SharedStore {
    fn drop(&mut self) {
        // Written, not synced: what a process that stops keeps in the page
        // cache, as a file store's mapped records are (never acknowledged, so
        // a crash may lose them; a clean stop does not).
        let written = !self.removed && !self.poisoned && self.flush().is_ok();
        let kept = written.then(|| Recovered {
            state: std::mem::replace(&mut self.state, State::new(SystemTime::UNIX_EPOCH, 0)),
            counts: Default::default(),
        });
        self.log.release(&self.name, self.removed, kept);
    }
}

impl MessageStore for SharedStore {
    fn next_sender_seq(&self) -> u64 {
        self.state.next_sender
    }

    fn next_target_seq(&self) -> u64 {
        self.state.next_target
    }

    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        self.check_open()?;
        self.close_answer();
        self.push(
            format::SEQ_SET,
            &format::seq_set(seq, self.state.next_target),
            &[],
        );
        self.state.set_sender(seq);
        Ok(())
    }

    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        self.check_open()?;
        self.close_answer();
        self.push(
            format::SEQ_SET,
            &format::seq_set(self.state.next_sender, seq),
            &[],
        );
        self.state.next_target = seq;
        Ok(())
    }

    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        self.check_open()?;
        self.state.check_store(seq, message.len())?;
        if let Some(received) = self.answering.take() {
            let at = self.pending.len();
            self.push(format::ANSWERING, &received.to_le_bytes(), &[]);
            self.open_answer = Some((Some(at), self.state.next_sender));
        }
        let at = self.pending.len() as u64;
        self.push(MESSAGE, &seq.to_le_bytes(), message);
        self.state.stored(Entry {
            seq,
            offset: PENDING | at,
            len: message.len() as u32,
        });
        Ok(())
    }

    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        self.check_open()?;
        self.state.check_advance(received)?;
        self.push(format::TARGET_ADVANCED, &(received + 1).to_le_bytes(), &[]);
        self.state.next_target = received + 1;
        self.close_answer();
        Ok(())
    }

    fn begin_answer(&mut self, received: u64) {
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
        let SharedStore {
            log,
            number,
            state,
            pending,
            read_buf,
            ..
        } = self;
        visit_chunk(state.range(from, to), limit, |entry| {
            let body = Self::read_entry(pending, read_buf, log, *number, entry)?;
            visit(entry.seq, body);
            Ok(())
        })
    }

    fn reset(&mut self, now: SystemTime) -> Result<(), StoreError> {
        // A reset starts afresh: an earlier failure of this store is behind it,
        // unless the log itself failed (its next append says so).
        self.poisoned = false;
        self.close_answer();
        self.pending_reset = Some(self.pending.len());
        let name = self.name.clone();
        self.push(format::RESET, &format::reset_fixed(now), name.as_bytes());
        self.state.reset(now);
        // Durable at once, as a new file store's log is: the numbers a
        // counterparty is told next must survive a crash.
        self.sync()
    }

    fn creation_time(&self) -> SystemTime {
        self.state.created
    }

    fn sync(&mut self) -> Result<(), StoreError> {
        self.check_open()?;
        self.flush()?;
        let target = self.written;
        self.log.wait_durable(target).map_err(|source| {
            self.poisoned = true;
            StoreError::Io {
                op: IoOperation::Sync,
                path: self.log.dir.clone(),
                source,
            }
        })?;
        self.synced = self.synced.max(target);
        self.in_flight = None;
        Ok(())
    }

    fn pending_sync(&self) -> bool {
        !self.pending.is_empty() || self.written > self.synced
    }

    fn begin_sync(&mut self) -> Result<Option<SyncJob>, StoreError> {
        self.check_open()?;
        if self.in_flight.is_some() {
            return Ok(None);
        }
        self.flush()?;
        if self.written <= self.synced {
            return Ok(None);
        }
        if self.log.durable() >= self.written {
            // Another session's sync covered this one's records already.
            self.synced = self.written;
            return Ok(None);
        }
        self.jobs += 1;
        self.in_flight = Some((self.jobs, self.written));
        self.waiter
            .waiting
            .at
            .store(self.written, Ordering::Release);
        self.log.request_wake(&self.waiter.waiting);
        Ok(Some(SyncJob::new(self.jobs, self.waiter.clone())))
    }

    fn end_sync(&mut self, done: SyncDone) -> Result<(), StoreError> {
        let Some((_, target)) = self.in_flight.take_if(|(id, _)| *id == done.id()) else {
            return Ok(());
        };
        if let Err(e) = done.into_result() {
            self.poisoned = true;
            return Err(e);
        }
        self.synced = self.synced.max(target);
        Ok(())
    }

    fn sync_in_flight(&self) -> bool {
        self.in_flight.is_some()
    }

    fn write_out(&mut self) -> Result<(), StoreError> {
        self.check_open()?;
        self.flush()
    }
}
