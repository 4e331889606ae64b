//! Message stores: a session's sequence numbers, its sent messages and its creation
//! time, kept so that a restart resumes the session and a resend request can be
//! answered.
//!
//! [`MessageStore`] is the interface a session drives; [`MemoryStore`] and
//! [`FileStore`] implement it. The rules both follow:
//!
//! - Sequence numbers start at 1. Storing message N requires N to be the next sender
//!   sequence number and makes it N + 1, in one step (one record, for the file
//!   store): a message is never stored without its number being taken, nor a number
//!   taken without its message.
//! - Advancing the next target sequence number names the number received, which must
//!   be the expected one; setting either number explicitly is the way to jump. Setting
//!   the sender number below messages already stored drops those messages, since
//!   their numbers will be used again.
//! - Stored messages are read back in chunks bounded in count and bytes
//!   ([`ChunkLimit`]), so answering a resend request to infinity never holds the
//!   whole range in memory.
//! - Every failure is a [`StoreError`]; nothing panics, whatever the files hold.
//!
//! ```
//! use fix_session::{ChunkLimit, MemoryStore, MessageStore};
//!
//! let mut store = MemoryStore::new();
//! for seq in 1..=10 {
//!     store.store(seq, format!("message {seq}").as_bytes())?;
//! }
//! // A resend request for 3..=8, answered four messages at a time.
//! let (mut from, mut seen) = (3, Vec::new());
//! loop {
//!     let chunk = store.read_stored(from, 8, ChunkLimit::new(4, 1 << 16), &mut |seq, _| seen.push(seq))?;
//!     match chunk.resume_at {
//!         Some(next) => from = next,
//!         None => break,
//!     }
//! }
//! assert_eq!(seen, [3, 4, 5, 6, 7, 8]);
//! # Ok::<(), fix_session::StoreError>(())
//! ```

#[cfg(feature = "testing")]
pub mod conformance;
mod durable;
mod error;
mod file;
mod inspect;
mod lock;
mod memory;
mod read;
mod record;
mod recover;
mod shared;

use std::time::SystemTime;

pub use durable::{Durable, OnDurable, SyncDone, SyncJob, SyncWait};
pub use error::{Direction, IoOperation, StoreError};
pub use file::{FileOptions, FileStore, SyncPolicy, TornTail};
pub use inspect::{RecordCounts, StoreLog, file_sessions, sessions};
pub use memory::MemoryStore;
pub use read::{Fetched, ReadDone, ReadJob, ReadRange};
pub use shared::{
    MAX_HOOKS_A_SYNC, SHADOW_SIZE, SHARED_LOG_DIR, SharedLog, SharedLogOptions, SharedStore,
    UNASKED_SYNC_AFTER, WeakSharedLog,
};

/// The longest message a store takes, in bytes (64 MiB): a bound on every buffer
/// the stores keep, and on what the file store believes of a record's length field.
///
/// ```
/// use fix_session::{MAX_MESSAGE_LEN, MemoryStore, MessageStore, StoreError};
/// let mut store = MemoryStore::new();
/// let huge = vec![b'x'; MAX_MESSAGE_LEN + 1];
/// assert!(matches!(store.store(1, &huge), Err(StoreError::MessageTooLarge { .. })));
/// ```
pub const MAX_MESSAGE_LEN: usize = 64 << 20;

/// Where a session keeps its sequence numbers and the messages it sent.
///
/// The methods take `&mut self` for every change and return as soon as the store
/// has taken it (for [`FileStore`], durable before return under the default
/// [`SyncPolicy::EveryRecord`]). A session stores a message before its bytes leave:
/// store, then send.
///
/// The trait is object safe, so a session can hold a `Box<dyn MessageStore>`.
///
/// ```
/// use fix_session::{MemoryStore, MessageStore};
///
/// fn send_next(store: &mut dyn MessageStore, body: &[u8]) -> Result<u64, fix_session::StoreError> {
///     let seq = store.next_sender_seq();
///     store.store(seq, body)?;
///     Ok(seq) // now the bytes may be written to the socket
/// }
///
/// let mut store = MemoryStore::new();
/// assert_eq!(send_next(&mut store, b"first")?, 1);
/// assert_eq!(send_next(&mut store, b"second")?, 2);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub trait MessageStore {
    /// The sequence number the next outgoing message carries (MsgSeqNum, 34).
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// assert_eq!(MemoryStore::new().next_sender_seq(), 1);
    /// ```
    fn next_sender_seq(&self) -> u64;

    /// The sequence number expected on the next incoming message.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// assert_eq!(MemoryStore::new().next_target_seq(), 1);
    /// ```
    fn next_target_seq(&self) -> u64;

    /// Sets the next sender sequence number (a SequenceReset the session sends, or an
    /// operator's correction). Stored messages numbered `seq` or above are dropped:
    /// their numbers will be used again.
    ///
    /// Fails with [`StoreError::InvalidSeqNum`] for 0.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// store.set_next_sender_seq(100)?;
    /// store.store(100, b"after the jump")?;
    /// assert_eq!(store.next_sender_seq(), 101);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError>;

    /// Sets the next target sequence number (a SequenceReset received, a gap filled).
    ///
    /// Fails with [`StoreError::InvalidSeqNum`] for 0.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// store.set_next_target_seq(42)?;
    /// assert_eq!(store.next_target_seq(), 42);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError>;

    /// Stores outgoing message `seq` and makes the next sender sequence number
    /// `seq + 1`, in one step.
    ///
    /// `seq` must be [`next_sender_seq`](Self::next_sender_seq)
    /// ([`StoreError::OutOfSequence`] otherwise): the number the session wrote into the
    /// message is checked against the one the store hands out. Fails with
    /// [`StoreError::MessageTooLarge`] past [`MAX_MESSAGE_LEN`] and
    /// [`StoreError::SeqNumExhausted`] at `u64::MAX`. On any error nothing changed.
    ///
    /// ```
    /// use fix_session::{Direction, MemoryStore, MessageStore, StoreError};
    /// let mut store = MemoryStore::new();
    /// store.store(1, b"one")?;
    /// let err = store.store(1, b"one again").unwrap_err();
    /// assert!(matches!(err, StoreError::OutOfSequence { direction: Direction::Outgoing, expected: 2, got: 1 }));
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError>;

    /// Records that incoming message `received` was processed: the next target
    /// sequence number becomes `received + 1`.
    ///
    /// `received` must be [`next_target_seq`](Self::next_target_seq)
    /// ([`StoreError::OutOfSequence`] otherwise); a gap or a duplicate is the session's
    /// to handle, with [`set_next_target_seq`](Self::set_next_target_seq) when it decides
    /// to jump.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// store.advance_target_seq(1)?;
    /// assert_eq!(store.next_target_seq(), 2);
    /// assert!(store.advance_target_seq(5).is_err());
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError>;

    /// The messages stored from now until [`advance_target_seq`]`(received)`
    /// answer incoming message `received`, and are kept only together with
    /// that advance: after a crash between the two, or when a write between
    /// them fails, none of them is kept and the next sender number is back
    /// where it was. A session hands an answer's bytes out only after the
    /// advance, so none of them was sent; the message is taken again when the
    /// counterparty resends it, and answered once.
    ///
    /// The default keeps each message as it is stored (at least once:
    /// answers stored before a crash are sent again, PossDup, on request);
    /// [`FileStore`] keeps them together. Costs nothing when no message is
    /// stored before the advance.
    ///
    /// [`advance_target_seq`]: Self::advance_target_seq
    ///
    /// ```
    /// use fix_session::{FileStore, MessageStore};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-answer");
    /// let mut store = FileStore::open(&dir, "FIX.4.4-A-B")?;
    /// store.begin_answer(1);
    /// store.store(1, b"an answer to incoming message 1")?;
    /// drop(store); // a crash before the advance
    /// let store = FileStore::open(&dir, "FIX.4.4-A-B")?;
    /// assert_eq!((store.next_sender_seq(), store.next_target_seq()), (1, 1));
    /// # drop(store);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn begin_answer(&mut self, received: u64) {
        let _ = received;
    }

    /// The answers begun by [`begin_answer`](Self::begin_answer) are given
    /// up (the session failed before the advance): the messages stored since
    /// are dropped and the next sender number is back where it was, as after a
    /// crash. A store that failed a write between the two has done this
    /// already.
    ///
    /// ```
    /// use fix_session::{FileStore, MessageStore};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-abandon");
    /// let mut store = FileStore::open(&dir, "FIX.4.4-A-B")?;
    /// store.begin_answer(1);
    /// store.store(1, b"an answer never sent")?;
    /// store.abandon_answer();
    /// assert_eq!(store.next_sender_seq(), 1);
    /// # drop(store);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn abandon_answer(&mut self) {}

    /// Visits the stored outgoing messages numbered `from..=to`, in order, at most
    /// `limit` of them, and says where to continue.
    ///
    /// Numbers in the range with no stored message (never stored, or skipped by a
    /// jump) are not visited; the session gap-fills them. `to` may be `u64::MAX` (a
    /// resend request's EndSeqNo 0). [`Chunk::resume_at`] is the next stored number in
    /// the range when the limit stopped the visit, `None` when the range is done. On an
    /// error the visitor may have seen some messages of the chunk.
    ///
    /// ```
    /// use fix_session::{ChunkLimit, MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// for seq in 1..=5 {
    ///     store.store(seq, b"35=D")?;
    /// }
    /// let mut seen = Vec::new();
    /// let chunk = store.read_stored(2, 4, ChunkLimit::new(2, 1024), &mut |seq, _| seen.push(seq))?;
    /// assert_eq!((seen, chunk.messages, chunk.resume_at), (vec![2, 3], 2, Some(4)));
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn read_stored(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError>;

    /// Begins what [`read_stored`](Self::read_stored) does for `from..=to`
    /// as a job to run off the caller's thread: a store whose reads wait on
    /// a network (a database) returns one, so that a resend's round trips
    /// block a thread made for waiting, not the runtime thread the session
    /// runs on. The default, `None`, says the store reads at once: call
    /// `read_stored`. The job's [`ReadDone`] goes to
    /// [`end_read`](Self::end_read); a job whose end is never asked for
    /// (the connection ended) leaves nothing behind.
    ///
    /// ```
    /// use fix_session::{ChunkLimit, MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// assert!(store.begin_read(1, 10, ChunkLimit::default())?.is_none()); // reads at once
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn begin_read(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
    ) -> Result<Option<ReadJob>, StoreError> {
        let _ = (from, to, limit);
        Ok(None)
    }

    /// Ends a read [`begin_read`](Self::begin_read) began, with what its job
    /// returned: visits, in order, what `read_stored` would have visited of
    /// the job's range (what the job fetched, then what the store holds that
    /// the job could not see) and says where to continue, as `read_stored`
    /// does. [`Chunk::resume_at`] may name a number the visit has not
    /// reached yet when the store's contents moved on while the job ran:
    /// the caller reads again from there. The default reads again at once.
    ///
    /// ```
    /// use fix_session::store::{ReadJob, ReadRange};
    /// use fix_session::{ChunkLimit, MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// store.store(1, b"35=D")?;
    /// let done = ReadJob::new(ReadRange { id: 1, from: 1, to: 5 }, || Ok(Box::new(()))).run();
    /// let mut seen = Vec::new();
    /// let chunk = store.end_read(done, ChunkLimit::default(), &mut |seq, _| seen.push(seq))?;
    /// assert_eq!((seen, chunk.resume_at), (vec![1], None));
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn end_read(
        &mut self,
        done: ReadDone,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        let range = done.range();
        done.into_result()?;
        self.read_stored(range.from, range.to, limit, visit)
    }

    /// Starts the session afresh: both sequence numbers back to 1, every message
    /// dropped, and `now` the new creation time.
    ///
    /// `now` is the session's clock (the one it stamps SendingTime from), so a
    /// simulated clock gives a simulated creation time.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// use std::time::{Duration, SystemTime};
    /// let mut store = MemoryStore::new();
    /// store.store(1, b"old")?;
    /// let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    /// store.reset(now)?;
    /// assert_eq!((store.next_sender_seq(), store.creation_time()), (1, now));
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn reset(&mut self, now: SystemTime) -> Result<(), StoreError>;

    /// When the session was created: the store's opening on an empty directory, or the
    /// last [`reset`](Self::reset).
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let store = MemoryStore::new();
    /// assert!(store.creation_time() <= std::time::SystemTime::now());
    /// ```
    fn creation_time(&self) -> SystemTime;

    /// Makes everything taken so far durable (for [`FileStore`], an fdatasync of the
    /// log if anything was written since the last one). A session calls it on its
    /// timer under [`SyncPolicy::Interval`], and before a clean shutdown.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// MemoryStore::new().sync()?; // nothing to do in memory
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn sync(&mut self) -> Result<(), StoreError>;

    /// Whether records taken since the last [`sync`](Self::sync) are not yet
    /// durable though the store promises they will be before their messages
    /// leave ([`SyncPolicy::Batch`], group commit): a session then holds the
    /// bytes of those messages back until it syncs. `false` (the default) for a
    /// store durable at once (memory, [`SyncPolicy::EveryRecord`]) or one that
    /// leaves durability to the operating system.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// store.store(1, b"x")?;
    /// assert!(!store.pending_sync());
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn pending_sync(&self) -> bool {
        false
    }

    /// Starts a [`sync`](Self::sync) whose wait runs elsewhere: the store
    /// marks what it has taken so far and hands back a [`SyncJob`] to run on
    /// a thread that may block; [`end_sync`](Self::end_sync) with what the
    /// job returns makes those records durable in the store's eyes. Records
    /// taken meanwhile wait for the next sync. `None` when there is nothing
    /// to wait for: nothing pending, a job already running (one at a time),
    /// or a store that made the records durable here. The default syncs here.
    ///
    /// A transport overlaps the wait with its next reads this way, and a
    /// store that syncs slowly or remotely does not block the thread its
    /// session shares with others.
    ///
    /// ```
    /// use fix_session::{FileOptions, FileStore, MessageStore, SyncPolicy};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-begin-sync");
    /// let mut store = FileStore::open_with(&dir, "FIX.4.4-A-B", FileOptions::new().sync(SyncPolicy::Batch).inline_sync_below(0))?;
    /// store.store(1, b"one")?;
    /// let job = store.begin_sync()?.expect("a record waits");
    /// store.store(2, b"two")?; // taken while the job runs: the next sync's
    /// let done = std::thread::spawn(move || job.run()).join().unwrap();
    /// store.end_sync(done)?;
    /// assert!(store.pending_sync()); // record 2 still waits
    /// # drop(store);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn begin_sync(&mut self) -> Result<Option<SyncJob>, StoreError> {
        self.sync().map(|()| None)
    }

    /// Ends a sync [`begin_sync`](Self::begin_sync) started, with what its
    /// job returned: its records are durable, or, when it failed, the store
    /// takes no more records (a failed sync may have lost them) and says why.
    /// A job of an earlier log (a reset came between) ends without effect.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// assert!(store.begin_sync()?.is_none()); // durable at once
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn end_sync(&mut self, done: SyncDone) -> Result<(), StoreError> {
        done.into_result()
    }

    /// Hands the records taken so far to the operating system without
    /// waiting for the disk: what a process that is killed must not lose
    /// (a power loss may). A store that writes each record as it takes it
    /// (the default) has nothing to do; the
    /// [`SharedStore`] keeps a step's records until its sync, and writes
    /// them here for a session that has nothing to send (its incoming
    /// numbers, say, wait for the sync of its next message).
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// MemoryStore::new().write_out()?;
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn write_out(&mut self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Whether a job [`begin_sync`](Self::begin_sync) handed out has not
    /// ended yet.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// assert!(!MemoryStore::new().sync_in_flight());
    /// ```
    fn sync_in_flight(&self) -> bool {
        false
    }

    /// Reads the store's state again from where it keeps it, for QuickFIX's
    /// `RefreshOnLogon`: another process may have used the session since
    /// (a hot standby taking over from a primary that stopped). The session
    /// calls it before it handles or sends a Logon when
    /// [`SessionConfig::refresh_on_logon`](crate::SessionConfig::refresh_on_logon)
    /// is on. The default does nothing, which is right for a store nobody
    /// else writes (memory); [`FileStore`] opened as a standby takes its
    /// lock and reads its log again.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let mut store = MemoryStore::new();
    /// store.store(1, b"x")?;
    /// store.refresh()?;
    /// assert_eq!(store.next_sender_seq(), 2);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn refresh(&mut self) -> Result<(), StoreError> {
        Ok(())
    }

    /// Why this store may not write because another engine holds the
    /// session (a hot standby), or `None` when it may. The session asks it
    /// of a Logon, before it would write: a standby answers the Logon
    /// itself (see [`MessageStore::take_as_standby`]). The default, `None`,
    /// is right for every store that is not a standby.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// assert!(MemoryStore::new().standby().is_none());
    /// ```
    fn standby(&self) -> Option<StoreError> {
        None
    }

    /// A standby's one write: takes sender number `seq` for `message` (the
    /// standby's Logout to a counterparty that logged on to it), only if
    /// `seq` is the session's next sender number as the engine holding the
    /// session stored it. That engine's next write of the number then fails
    /// ([`StoreError::NumberTaken`]) instead of sending it a second time,
    /// and a resend gap-fills it (a Logout is never resent). `Ok(false)`:
    /// not taken (the number moved on, or this store cannot take one, as
    /// the default).
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// assert!(!MemoryStore::new().take_as_standby(1, b"35=5")?);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    fn take_as_standby(&mut self, seq: u64, message: &[u8]) -> Result<bool, StoreError> {
        let _ = (seq, message);
        Ok(false)
    }
}

/// A store behind a box is a store, so a session can be generic over `S:
/// MessageStore` and still be handed a `Box<dyn MessageStore>`.
///
/// ```
/// use fix_session::{MemoryStore, MessageStore};
/// let mut store: Box<dyn MessageStore> = Box::new(MemoryStore::new());
/// store.store(1, b"boxed")?;
/// assert_eq!(store.next_sender_seq(), 2);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
impl<S: MessageStore + ?Sized> MessageStore for Box<S> {
    fn next_sender_seq(&self) -> u64 {
        (**self).next_sender_seq()
    }
    fn next_target_seq(&self) -> u64 {
        (**self).next_target_seq()
    }
    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        (**self).set_next_sender_seq(seq)
    }
    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        (**self).set_next_target_seq(seq)
    }
    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        (**self).store(seq, message)
    }
    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        (**self).advance_target_seq(received)
    }
    fn begin_answer(&mut self, received: u64) {
        (**self).begin_answer(received)
    }
    fn abandon_answer(&mut self) {
        (**self).abandon_answer()
    }
    fn read_stored(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        (**self).read_stored(from, to, limit, visit)
    }
    fn begin_read(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
    ) -> Result<Option<ReadJob>, StoreError> {
        (**self).begin_read(from, to, limit)
    }
    fn end_read(
        &mut self,
        done: ReadDone,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        (**self).end_read(done, limit, visit)
    }
    fn reset(&mut self, now: SystemTime) -> Result<(), StoreError> {
        (**self).reset(now)
    }
    fn creation_time(&self) -> SystemTime {
        (**self).creation_time()
    }
    fn sync(&mut self) -> Result<(), StoreError> {
        (**self).sync()
    }
    fn pending_sync(&self) -> bool {
        (**self).pending_sync()
    }
    fn refresh(&mut self) -> Result<(), StoreError> {
        (**self).refresh()
    }
    fn standby(&self) -> Option<StoreError> {
        (**self).standby()
    }
    fn take_as_standby(&mut self, seq: u64, message: &[u8]) -> Result<bool, StoreError> {
        (**self).take_as_standby(seq, message)
    }
    fn begin_sync(&mut self) -> Result<Option<SyncJob>, StoreError> {
        (**self).begin_sync()
    }
    fn end_sync(&mut self, done: SyncDone) -> Result<(), StoreError> {
        (**self).end_sync(done)
    }
    fn sync_in_flight(&self) -> bool {
        (**self).sync_in_flight()
    }
    fn write_out(&mut self) -> Result<(), StoreError> {
        (**self).write_out()
    }
}

/// How much one [`MessageStore::read_stored`] call visits: at most `max_messages`
/// messages and `max_bytes` bytes of them, except that the first message of a chunk
/// is always visited, however long, so every call makes progress.
///
/// ```
/// use fix_session::ChunkLimit;
/// let limit = ChunkLimit::new(100, 64 * 1024);
/// assert_eq!((limit.max_messages(), limit.max_bytes()), (100, 65536));
/// assert_eq!(ChunkLimit::new(0, 0).max_messages(), 1); // at least one message
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChunkLimit {
    max_messages: usize,
    max_bytes: usize,
}

impl ChunkLimit {
    /// A limit of `max_messages` (at least 1) messages and `max_bytes` bytes.
    ///
    /// ```
    /// let limit = fix_session::ChunkLimit::new(16, 4096);
    /// assert_eq!(limit.max_messages(), 16);
    /// ```
    pub const fn new(max_messages: usize, max_bytes: usize) -> Self {
        ChunkLimit {
            max_messages: if max_messages == 0 { 1 } else { max_messages },
            max_bytes,
        }
    }

    /// The most messages one call visits.
    ///
    /// ```
    /// assert_eq!(fix_session::ChunkLimit::default().max_messages(), 64);
    /// ```
    pub const fn max_messages(&self) -> usize {
        self.max_messages
    }

    /// The most message bytes one call visits (past the chunk's first message).
    ///
    /// ```
    /// assert_eq!(fix_session::ChunkLimit::default().max_bytes(), 64 * 1024);
    /// ```
    pub const fn max_bytes(&self) -> usize {
        self.max_bytes
    }
}

/// 64 messages or 64 KiB: a chunk that fits a socket's send buffer.
///
/// ```
/// assert_eq!(fix_session::ChunkLimit::default(), fix_session::ChunkLimit::new(64, 65536));
/// ```
impl Default for ChunkLimit {
    fn default() -> Self {
        ChunkLimit::new(64, 64 * 1024)
    }
}

/// What one [`MessageStore::read_stored`] call visited, and where to continue.
///
/// ```
/// use fix_session::{ChunkLimit, MemoryStore, MessageStore};
/// let mut store = MemoryStore::new();
/// store.store(1, b"abc")?;
/// let chunk = store.read_stored(1, 10, ChunkLimit::default(), &mut |_, _| {})?;
/// assert_eq!((chunk.messages, chunk.bytes, chunk.resume_at), (1, 3, None));
/// # Ok::<(), fix_session::StoreError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// Messages visited.
    pub messages: usize,
    /// Their bytes, added up.
    pub bytes: usize,
    /// The first stored number of the range not visited, when the limit stopped the
    /// visit; `None` when the range is done.
    pub resume_at: Option<u64>,
}

/// Where a stored message lives: the memory store's arena offset, or the file
/// store's record offset in its log; `len` is the message's length.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    seq: u64,
    offset: u64,
    len: u32,
}

/// Whether a store whose next sender number is `next_sender` may store
/// message `seq` of `len` bytes: the rule of every [`MessageStore::store`]
/// (the next number, never past `u64::MAX - 1`, at most
/// [`MAX_MESSAGE_LEN`] bytes), for a store kept outside this crate too.
///
/// ```
/// use fix_session::store::{check_store, StoreError};
/// assert!(check_store(5, 5, 200).is_ok());
/// assert!(matches!(check_store(5, 6, 200), Err(StoreError::OutOfSequence { expected: 5, got: 6, .. })));
/// assert!(matches!(check_store(u64::MAX, u64::MAX, 1), Err(StoreError::SeqNumExhausted)));
/// ```
pub fn check_store(next_sender: u64, seq: u64, len: usize) -> Result<(), StoreError> {
    if seq != next_sender {
        return Err(StoreError::OutOfSequence {
            direction: Direction::Outgoing,
            expected: next_sender,
            got: seq,
        });
    }
    if seq == u64::MAX {
        return Err(StoreError::SeqNumExhausted);
    }
    if len > MAX_MESSAGE_LEN {
        return Err(StoreError::MessageTooLarge {
            len,
            max: MAX_MESSAGE_LEN,
        });
    }
    Ok(())
}

/// Whether a store whose next target number is `next_target` may advance
/// past incoming message `received`: the rule of every
/// [`MessageStore::advance_target_seq`].
///
/// ```
/// use fix_session::store::{check_advance, StoreError};
/// assert!(check_advance(7, 7).is_ok());
/// assert!(matches!(check_advance(7, 9), Err(StoreError::OutOfSequence { expected: 7, got: 9, .. })));
/// ```
pub fn check_advance(next_target: u64, received: u64) -> Result<(), StoreError> {
    if received != next_target {
        return Err(StoreError::OutOfSequence {
            direction: Direction::Incoming,
            expected: next_target,
            got: received,
        });
    }
    if received == u64::MAX {
        return Err(StoreError::SeqNumExhausted);
    }
    Ok(())
}

/// The state both stores keep in memory, and the one place the sequence rules live:
/// the numbers, the creation time, and the index of stored messages by number
/// (strictly increasing, since a message is stored only under the next number and a
/// lower sender number drops what is above it).
#[derive(Debug)]
struct State {
    next_sender: u64,
    next_target: u64,
    created: SystemTime,
    index: Vec<Entry>,
}

impl State {
    fn new(created: SystemTime, messages: usize) -> Self {
        State {
            next_sender: 1,
            next_target: 1,
            created,
            index: Vec::with_capacity(messages),
        }
    }

    /// Whether message `seq` of `len` bytes may be stored now.
    fn check_store(&self, seq: u64, len: usize) -> Result<(), StoreError> {
        check_store(self.next_sender, seq, len)
    }

    /// Takes a message that passed `check_store`.
    fn stored(&mut self, entry: Entry) {
        self.next_sender = entry.seq + 1;
        self.index.push(entry);
    }

    /// Whether incoming message `received` is the expected one.
    fn check_advance(&self, received: u64) -> Result<(), StoreError> {
        check_advance(self.next_target, received)
    }

    /// Sets the sender number; returns the first dropped message's entry, if any (the
    /// memory store truncates its arena there).
    fn set_sender(&mut self, seq: u64) -> Option<Entry> {
        self.next_sender = seq;
        let keep = self.index.partition_point(|e| e.seq < seq);
        let first_dropped = self.index.get(keep).copied();
        self.index.truncate(keep);
        first_dropped
    }

    fn reset(&mut self, created: SystemTime) {
        self.next_sender = 1;
        self.next_target = 1;
        self.created = created;
        self.index.clear();
    }

    /// The stored messages numbered `from..=to`.
    fn range(&self, from: u64, to: u64) -> &[Entry] {
        let lo = self.index.partition_point(|e| e.seq < from);
        let hi = self.index.partition_point(|e| e.seq <= to);
        self.index.get(lo..hi).unwrap_or(&[])
    }
}

/// A sequence number a caller sets must be a FIX one (1 and up).
fn check_seq(seq: u64) -> Result<(), StoreError> {
    if seq == 0 {
        return Err(StoreError::InvalidSeqNum { seq });
    }
    Ok(())
}

/// Visits `entries` within `limit`, reading each through `read`: the chunking both
/// stores share.
fn visit_chunk(
    entries: &[Entry],
    limit: ChunkLimit,
    mut read: impl FnMut(&Entry) -> Result<(), StoreError>,
) -> Result<Chunk, StoreError> {
    let mut chunk = Chunk {
        messages: 0,
        bytes: 0,
        resume_at: None,
    };
    for entry in entries {
        let len = entry.len as usize;
        let full = chunk.messages == limit.max_messages
            || (chunk.messages > 0 && chunk.bytes.saturating_add(len) > limit.max_bytes);
        if full {
            chunk.resume_at = Some(entry.seq);
            break;
        }
        read(entry)?;
        chunk.messages += 1;
        chunk.bytes += len;
    }
    Ok(chunk)
}
