//! The sans-IO session: [`Session`] is fed received bytes and the time, and hands
//! back bytes to write (each one already taken by the store), the next deadline
//! and whether to disconnect. It owns no socket, thread or clock.

mod event;
mod incoming;
mod outgoing;
mod throttle;
mod timer;

pub use event::{
    DisconnectReason, Event, MAX_PENDING_EVENTS, MAX_TRANSCRIPT_BYTES, MessageCounts, MessageEvent,
};

use std::collections::BTreeMap;
use std::ops::Range;
use std::time::{Duration, SystemTime};

use fix_core::validate::Schema;
use fix_core::value::parse_digits;
use fix_core::{Field, Message, Parser, Status};

use crate::app::{Application, Outbox};
use crate::dictionaries::{Dictionaries, appl_ver_id_code};
use crate::store::{MessageStore, StoreError};
use crate::time::Time;
use crate::{SessionConfig, SessionId};
use throttle::Throttle;
use timer::Timer;

/// The most fields one received message may hold.
pub const MAX_FIELDS: usize = 1024;

/// The largest HeartBtInt (108) a Logon may ask for, in seconds (one day). A
/// Logon asking for more, or for a negative or unreadable interval, is refused
/// with a Logout before anything changes: the interval is multiplied into the
/// session's deadlines, and a peer's number is bounded before arithmetic.
pub const MAX_HEART_BT_INT: u64 = 86_400;

/// The largest sequence number a peer's message may carry or ask for
/// (MsgSeqNum, NewSeqNo, BeginSeqNo, EndSeqNo): 19 digits, so that every sum
/// the session makes with one stays within `u64`.
pub const MAX_SEQ_NUM: u64 = 9_999_999_999_999_999_999;

/// Where a session is in its life.
///
/// ```
/// assert_ne!(fix_session::State::LoggedOn, fix_session::State::Disconnected);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No connection.
    Disconnected,
    /// Connected; the Logon has not been exchanged yet (an initiator has sent
    /// its own).
    AwaitingLogon,
    /// Logon exchanged: messages flow.
    LoggedOn,
    /// Our Logout is sent; waiting for the answer.
    LogoutSent,
}

/// What went wrong in a session input: the store failed (the session stops
/// sending: nothing unstored leaves) or an outgoing message could not be built.
///
/// ```
/// let e = fix_session::SessionError::NotLoggedOn;
/// assert_eq!(e.to_string(), "the session is not logged on");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum SessionError {
    /// The store refused a write or a read.
    Store(StoreError),
    /// An application message sent while not logged on.
    NotLoggedOn,
    /// A connection came up while the session still has one (not yet
    /// [`Session::disconnected`]): a second connection for a session is refused,
    /// and the first keeps its state.
    AlreadyConnected,
    /// An application message over
    /// [`SessionConfig::max_app_messages_per_sec`]: nothing was sent or
    /// changed; send it from [`Session::next_send_at`] on.
    Throttled,
    /// The next sender number was to be set while a resend is being served
    /// (its messages, and those held behind it, already have their numbers):
    /// try again when it is done.
    ResendInProgress,
    /// A message to send that a counterparty could not read as FIX fields:
    /// an empty MsgType or one holding SOH, or a body (the caller's fields,
    /// or those an application added in `to_admin`) that is not
    /// `tag=value<SOH>` fields (see [`check_outgoing`]). Nothing was sent,
    /// stored or numbered.
    Malformed(fix_core::Error),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Store(e) => write!(f, "message store: {e}"),
            SessionError::NotLoggedOn => f.write_str("the session is not logged on"),
            SessionError::AlreadyConnected => {
                f.write_str("the session is connected already: a second connection is refused")
            }
            SessionError::Throttled => f.write_str(
                "the session's limit of application messages a second is reached: send it later",
            ),
            SessionError::ResendInProgress => f.write_str(
                "a resend is being served: the next sender number cannot be set until it is done",
            ),
            SessionError::Malformed(e) => write!(f, "the message to send is not FIX fields: {e}"),
        }
    }
}

impl std::error::Error for SessionError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SessionError::Store(e) => Some(e),
            SessionError::Malformed(e) => Some(e),
            SessionError::NotLoggedOn
            | SessionError::AlreadyConnected
            | SessionError::Throttled
            | SessionError::ResendInProgress => None,
        }
    }
}

impl From<StoreError> for SessionError {
    fn from(e: StoreError) -> Self {
        SessionError::Store(e)
    }
}

/// Timers and counters of the connection in progress, on the monotonic clock
/// ([`Time::mono`]): a step of the wall clock moves none of them. What is due
/// when is told by the timer table ([`Timer`]) alone.
#[derive(Clone, Copy, Debug)]
struct Clock {
    /// HeartBtInt in force (zero: no heartbeats).
    heartbeat: Duration,
    last_sent: Duration,
    last_received: Duration,
    /// TestRequests sent since the counterparty was last heard.
    test_requests: u32,
    /// When the Logon (or the answer to our Logout) must have come.
    deadline: Option<Duration>,
}

/// What belongs to one connection: made afresh in one assignment when a
/// connection comes up ([`Session::connected`]) and when it ends
/// ([`Session::disconnected`]), so that no field of one connection outlives
/// it by being left out of a list of resets.
///
/// The connection's buffers (`input`, `output`, `held`, the queue) are not in
/// it: they stay in [`Session`] and are cleared, not replaced, so that they
/// keep their capacity from one connection to the next and the steady state
/// allocates nothing, which a struct replaced whole would not allow.
#[derive(Debug)]
struct Connection {
    state: State,
    /// The connection is to be closed ([`Session::wants_disconnect`]).
    disconnect: bool,
    clock: Clock,
    /// How much of `output` is durable and handed out, under a store that
    /// syncs by batch ([`MessageStore::pending_sync`]); the rest waits for
    /// [`Session::sync`].
    released: usize,
    /// How much of `output` the sync in flight ([`Session::begin_sync`])
    /// covers: released when it ends.
    syncing_to: usize,
    /// The range our last ResendRequest asked for, until it is filled.
    resend_requested: Option<(u64, u64)>,
    serving: Option<Serving>,
    /// The read of stored messages the resend waits for, when the store
    /// reads off the session's thread ([`MessageStore::begin_read`]): its
    /// job, until [`Session::take_read_job`] takes it, and which read it is.
    read_job: Option<crate::store::ReadJob>,
    reading: Option<crate::store::ReadRange>,
    /// The number of the first message in `held`.
    held_from: Option<u64>,
    /// The counterparty's DefaultApplVerID (1137) from its Logon, as a code: the
    /// ApplVerID of its application messages without 1128 on this connection,
    /// in place of [`SessionConfig::default_appl_ver_id`].
    target_default_appl_ver_id: Option<String>,
    /// A Logon with ResetSeqNumFlag=Y was received (our answer carries it too).
    reset_received: bool,
    /// We sent a Logout (its answer ends the session).
    logout_sent: bool,
    /// The counterparty sent a Logout (ours answers it).
    logout_received: bool,
}

impl Connection {
    /// A connection in `state` from monotonic reading `mono` on: nothing sent
    /// or heard yet, no heartbeats, the Logon (or nothing) due by `deadline`.
    fn new(state: State, mono: Duration, deadline: Option<Duration>) -> Self {
        Connection {
            state,
            disconnect: false,
            clock: Clock {
                heartbeat: Duration::ZERO,
                last_sent: mono,
                last_received: mono,
                test_requests: 0,
                deadline,
            },
            released: 0,
            syncing_to: 0,
            resend_requested: None,
            serving: None,
            read_job: None,
            reading: None,
            held_from: None,
            target_default_appl_ver_id: None,
            reset_received: false,
            logout_sent: false,
            logout_received: false,
        }
    }
}

/// The messages received ahead of a gap, kept until the gap is filled. Pushing,
/// taking and dropping are logarithmic in the number queued, so a gap of a
/// million messages is no slower per message than one of ten.
#[derive(Debug, Default)]
struct Queue {
    /// The queued messages back to back, some of them taken already.
    bytes: Vec<u8>,
    /// MsgSeqNum → where the message lies in `bytes`.
    entries: BTreeMap<u64, Range<usize>>,
    /// How many bytes of `bytes` belong to queued messages.
    live: usize,
    /// The budget `live` is taken from as well, when sessions share one.
    budget: Option<crate::MemoryBudget>,
}

/// Why a message was not queued.
#[derive(Debug, PartialEq, Eq)]
enum NotQueued {
    /// The session's own bound.
    Full,
    /// The bound the session shares with others.
    Budget,
}

/// A session dropped with messages queued gives their bytes back to the
/// budget it shares.
impl Drop for Queue {
    fn drop(&mut self) {
        self.release(self.live);
    }
}

impl Queue {
    /// Queues `msg`, unless a message with its number is queued already;
    /// not when `limit` bytes, or the shared budget, would be passed.
    fn push(&mut self, seq: u64, msg: &[u8], limit: usize) -> Result<(), NotQueued> {
        if self.entries.contains_key(&seq) {
            return Ok(());
        }
        if self.live.saturating_add(msg.len()) > limit {
            return Err(NotQueued::Full);
        }
        if let Some(budget) = &self.budget
            && !budget.try_take(msg.len())
        {
            return Err(NotQueued::Budget);
        }
        let start = self.bytes.len();
        self.bytes.extend_from_slice(msg);
        self.entries.insert(seq, start..self.bytes.len());
        self.live += msg.len();
        Ok(())
    }

    /// `n` bytes of queued messages are gone.
    fn release(&mut self, n: usize) {
        self.live -= n;
        if let Some(budget) = &self.budget {
            budget.give_back(n);
        }
    }

    /// Moves the message numbered `seq` into `out`, if queued.
    fn take(&mut self, seq: u64, out: &mut Vec<u8>) -> bool {
        let Some(range) = self.entries.remove(&seq) else {
            return false;
        };
        out.clear();
        out.extend_from_slice(&self.bytes[range.clone()]);
        self.release(range.len());
        self.reclaim();
        true
    }

    /// Drops the messages numbered below `seq`.
    fn drop_below(&mut self, seq: u64) {
        let kept = self.entries.split_off(&seq);
        let dropped = std::mem::replace(&mut self.entries, kept);
        self.release(dropped.values().map(Range::len).sum::<usize>());
        self.reclaim();
    }

    /// The lowest number queued above `seq`.
    fn above(&self, seq: u64) -> Option<u64> {
        self.entries
            .range(seq.saturating_add(1)..)
            .next()
            .map(|(&s, _)| s)
    }

    /// The highest number queued (0 for none).
    fn high(&self) -> u64 {
        self.entries.last_key_value().map_or(0, |(&seq, _)| seq)
    }

    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn clear(&mut self) {
        self.bytes.clear();
        self.entries.clear();
        self.release(self.live);
    }

    /// Gives back the bytes of taken messages once they are most of `bytes`.
    fn reclaim(&mut self) {
        if self.entries.is_empty() {
            self.clear();
        } else if self.bytes.len() > 64 * 1024 && self.live < self.bytes.len() / 2 {
            let mut bytes = Vec::with_capacity(self.live);
            for range in self.entries.values_mut() {
                let start = bytes.len();
                bytes.extend_from_slice(&self.bytes[range.clone()]);
                *range = start..bytes.len();
            }
            self.bytes = bytes;
        }
    }
}

/// The last SendingTime written: calls with the same `now` reuse it without
/// reading the time again, calls within the same unit of the precision (the
/// same millisecond, by default) without formatting it again. The text is a
/// fixed buffer of the longest length and a length: no allocation at any
/// precision.
#[derive(Clone, Copy, Debug)]
struct TimestampCache {
    /// The clock reading `text` was made for.
    at: Option<SystemTime>,
    /// That reading in whole seconds and units of the precision.
    shown: Option<(u64, u32)>,
    text: crate::time::Timestamp,
}

/// A resend we are serving: the next number to look at and the last one asked.
#[derive(Clone, Copy, Debug)]
struct Serving {
    next: u64,
    end: u64,
    /// The first number of a run to gap-fill, not yet sent.
    gap_from: Option<u64>,
}

/// One FIX session, sans-IO.
///
/// Inputs: [`Session::connected`], [`Session::handle_bytes`],
/// [`Session::handle_timeout`], [`Session::send`], [`Session::disconnected`].
/// Outputs: [`Session::output`] (bytes to write, each message already taken by
/// the store) with [`Session::consume_output`], [`Session::poll_timeout`] and
/// [`Session::wants_disconnect`].
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
///
/// struct App;
/// impl Application for App {}
///
/// let now = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
/// let config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
/// let mut s = Session::new(config, MemoryStore::new(), &fix44::DICTIONARY);
/// s.connected(now, &mut App)?;
/// let logon = b"8=FIX.4.4\x019=57\x0135=A\x0134=1\x0149=TW\x0152=20231114-22:13:20\x0156=ISLD\x0198=0\x01108=30\x0110=003\x01";
/// s.handle_bytes(now, logon, &mut App)?;
/// assert_eq!(s.state(), fix_session::State::LoggedOn);
/// assert!(s.output().starts_with(b"8=FIX.4.4\x019=61\x0135=A\x0134=1\x0149=ISLD\x0152=20231114-22:13:20.000\x0156=TW\x01"));
/// # Ok::<(), fix_session::SessionError>(())
/// ```
pub struct Session<S: MessageStore, D: Schema> {
    config: SessionConfig,
    store: S,
    dicts: Dictionaries<D>,
    conn: Connection,
    /// Bytes received and not yet handled.
    input: Vec<u8>,
    /// Bytes to write; every message in it has been stored.
    output: Vec<u8>,
    fields: Box<[Field]>,
    /// The body fields of an outgoing message being built.
    current_body: Vec<u8>,
    /// The last SendingTime written, for the clock reading and the unit of
    /// the precision it was made for.
    timestamp_cache: TimestampCache,
    /// Routing header fields (115/116/144, 128/129/145) of a Reject, reversed
    /// from the message it answers; empty otherwise.
    route: Vec<u8>,
    /// Fields of a queued message being handled (while the message that filled
    /// the gap still holds `fields`).
    queue_fields: Box<[Field]>,
    /// `Application::on_create` was called.
    created: bool,
    /// Queued messages are being handled: a nested `next_queued` leaves them to
    /// the loop already running.
    draining: bool,
    /// Fields of a stored message being resent.
    resend_fields: Box<[Field]>,
    outbox: Outbox,
    queue: Queue,
    resend_chunk: Vec<u8>,
    resend_index: Vec<(u64, usize)>,
    /// Messages stored while a resend is being served: they leave after the
    /// resend's last message, so the counterparty sees numbers in order.
    held: Vec<u8>,
    /// Each message in `held`: its number, where it ends in `held`, and its
    /// kind, for its [`Event::Sent`] when it leaves.
    held_index: Vec<(u64, usize, event::Kind)>,
    /// A new session period began: the store is reset when the next Logon is
    /// accepted (an acceptor) or sent (an initiator), not before.
    reset_pending: bool,
    events: event::Events,
    /// The messages received and sent so far.
    counts: MessageCounts,
    /// ResetOnError: an error was met; the store is reset when our Logout is
    /// answered or the connection ends.
    reset_after_error: bool,
    /// The last time given to any input, for deadlines due "now".
    now: Time,
    /// [`SessionConfig::max_app_messages_per_sec`]'s window: when the
    /// newest application messages went. It outlives connections: a
    /// reconnection does not start the count afresh.
    throttle: Option<Throttle>,
}

impl<S: MessageStore, D: Schema> std::fmt::Debug for Session<S, D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("id", &self.config.id)
            .field("state", &self.conn.state)
            .field("next_sender_seq", &self.store.next_sender_seq())
            .field("next_target_seq", &self.store.next_target_seq())
            .finish_non_exhaustive()
    }
}

impl<S: MessageStore, D: Schema> Session<S, D> {
    /// A disconnected session over `store`, validating against `dict`.
    ///
    /// ```
    /// use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// let config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator);
    /// let s = Session::new(config, MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.state(), fix_session::State::Disconnected);
    /// ```
    pub fn new(config: SessionConfig, store: S, dict: D) -> Self {
        Self::with_dictionaries(config, store, Dictionaries::single(dict))
    }

    /// A disconnected session over `store`, validating session-level messages
    /// against the transport dictionary of `dicts` and application messages
    /// against the application dictionary their ApplVerID (1128), or else the
    /// DefaultApplVerID (1137) of the counterparty's Logon, or else
    /// [`SessionConfig::default_appl_ver_id`], names (see [`Dictionaries`]). A
    /// FIXT.1.1 Logon whose DefaultApplVerID is not an ApplVerID, or names one
    /// `dicts` has no dictionary for, is refused with a Logout naming it.
    /// A DefaultApplVerID given by name (`"FIX.5.0SP2"`) is kept as its code
    /// (`"9"`), as it is sent.
    ///
    /// ```
    /// use fix_session::{Dictionaries, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// let mut config = SessionConfig::new(SessionId::new("FIXT.1.1", "A", "B"), Role::Initiator);
    /// config.default_appl_ver_id = Some("FIX.5.0SP2".into());
    /// // The FIX.4.4 tables stand in for FIXT11 and FIX50SP2.
    /// let dicts = Dictionaries::new(&fix44::DICTIONARY).with_app("9", &fix44::DICTIONARY);
    /// let s = Session::with_dictionaries(config, MemoryStore::new(), dicts);
    /// assert_eq!(s.state(), fix_session::State::Disconnected);
    /// ```
    pub fn with_dictionaries(mut config: SessionConfig, store: S, dicts: Dictionaries<D>) -> Self {
        if let Some(v) = &mut config.default_appl_ver_id {
            let code = appl_ver_id_code(v);
            if code != v {
                *v = code.to_owned();
            }
        }
        let epoch = SystemTime::UNIX_EPOCH;
        let config_precision = config.timestamp_precision;
        let throttle = config.max_app_messages_per_sec.map(Throttle::new);
        let budget_of_queue = config.shared_budget.clone();
        Session {
            config,
            store,
            dicts,
            conn: Connection::new(State::Disconnected, Duration::ZERO, None),
            input: Vec::with_capacity(64 * 1024),
            output: Vec::with_capacity(64 * 1024),
            fields: vec![Field::new(0, 0, 0); MAX_FIELDS].into_boxed_slice(),
            timestamp_cache: TimestampCache {
                at: None,
                shown: None,
                text: crate::time::Timestamp::new(epoch, config_precision),
            },
            current_body: Vec::with_capacity(4096),
            route: Vec::with_capacity(256),
            resend_fields: vec![Field::new(0, 0, 0); MAX_FIELDS].into_boxed_slice(),
            queue_fields: vec![Field::new(0, 0, 0); MAX_FIELDS].into_boxed_slice(),
            draining: false,
            created: false,
            outbox: Outbox::default(),
            queue: Queue {
                bytes: Vec::new(),
                entries: BTreeMap::new(),
                live: 0,
                budget: budget_of_queue,
            },
            resend_chunk: Vec::new(),
            resend_index: Vec::new(),
            held: Vec::new(),
            held_index: Vec::new(),
            reset_pending: false,
            events: event::Events::default(),
            counts: MessageCounts::default(),
            reset_after_error: false,
            now: Time::from(epoch),
            throttle,
        }
    }

    /// The session's identity.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.id().target_comp_id, "B");
    /// ```
    pub fn id(&self) -> &SessionId {
        &self.config.id
    }

    /// The configuration the session was made with.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.config().heart_bt_int, 30);
    /// ```
    pub fn config(&self) -> &SessionConfig {
        &self.config
    }

    /// Where the session is.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.state(), fix_session::State::Disconnected);
    /// ```
    pub fn state(&self) -> State {
        self.conn.state
    }

    /// The store (its sequence numbers, for one).
    ///
    /// ```
    /// # use fix_session::{MemoryStore, MessageStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.store().next_sender_seq(), 1);
    /// ```
    pub fn store(&self) -> &S {
        &self.store
    }

    /// The store, to change between connections: a transport resets it when a
    /// new session period begins, or syncs it before it stops. Changing the
    /// sequence numbers while connected is the caller's responsibility.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{MemoryStore, MessageStore, Role, Session, SessionConfig, SessionId};
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.store_mut().reset(UNIX_EPOCH)?;
    /// assert_eq!(s.store().creation_time(), UNIX_EPOCH);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn store_mut(&mut self) -> &mut S {
        &mut self.store
    }

    /// The store, given back (to read what was sent, or to hand it to the next
    /// session of the same ID).
    ///
    /// ```
    /// # use fix_session::{MemoryStore, MessageStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.into_store().next_target_seq(), 1);
    /// ```
    pub fn into_store(self) -> S {
        self.store
    }

    /// Bytes to write to the connection, oldest first. Every message in them has
    /// been taken by the store: this is the only way bytes leave a session.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert!(s.output().is_empty());
    /// ```
    pub fn output(&self) -> &[u8] {
        &self.output[..self.released_len()]
    }

    /// How much of the output is handed out: all of it under a store durable
    /// at once, the synced part under one that syncs by batch.
    fn released_len(&self) -> usize {
        // A sync in flight covers records that are not durable yet, whatever
        // the store says of those it took since.
        if self.store.pending_sync() || self.store.sync_in_flight() {
            self.conn.released
        } else {
            self.output.len()
        }
    }

    /// Whether messages are held back until [`Session::sync`]: the store
    /// syncs by batch ([`SyncPolicy::Batch`](crate::SyncPolicy::Batch)) and has
    /// taken messages since its last sync. A transport syncs once for all it
    /// handed the session (every message a read brought, every answer, every
    /// send) and then writes [`Session::output`].
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert!(!s.needs_sync()); // a memory store is durable at once
    /// ```
    pub fn needs_sync(&self) -> bool {
        self.store.pending_sync() && self.conn.released < self.output.len()
    }

    /// Makes durable, with one [`MessageStore::sync`], everything the session
    /// stored since the last sync (messages, the incoming numbers with them),
    /// and hands the held messages' bytes out through [`Session::output`]. A
    /// failed sync is an error and nothing more leaves.
    ///
    /// ```
    /// use std::time::UNIX_EPOCH;
    /// use fix_session::{Application, FileOptions, FileStore, Role, Session, SessionConfig, SessionId, SyncPolicy};
    /// # struct App; impl Application for App {}
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-sync");
    /// let store = FileStore::open_with(&dir, "FIX.4.4-A-B", FileOptions::new().sync(SyncPolicy::Batch))?;
    /// let config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator);
    /// let mut s = Session::new(config, store, &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?; // the Logon is stored, not yet synced
    /// assert!(s.output().is_empty() && s.needs_sync());
    /// s.sync()?;
    /// assert!(s.output().windows(5).any(|w| w == b"35=A"));
    /// # drop(s);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn sync(&mut self) -> Result<(), SessionError> {
        if self.store.pending_sync() || self.store.sync_in_flight() {
            self.store.sync()?;
        }
        self.conn.released = self.output.len();
        Ok(())
    }

    /// [`Session::sync`] in three parts, for a transport that waits for the
    /// disk elsewhere: this starts it and hands back the store's
    /// [`SyncJob`](crate::store::SyncJob) to run on a thread that may block;
    /// [`Session::end_sync`] with what the job returns hands out the bytes it
    /// covered. Meanwhile the session goes on (reads, answers, sends): what
    /// it stores waits for the next sync. `None` when nothing is to wait for:
    /// nothing held back (all is handed out now; records without a message
    /// to send, such as incoming numbers, wait for the next sync), a sync in
    /// flight already, or a store that synced here.
    ///
    /// ```
    /// use std::time::UNIX_EPOCH;
    /// use fix_session::{Application, FileOptions, FileStore, Role, Session, SessionConfig, SessionId, SyncPolicy};
    /// # struct App; impl Application for App {}
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-begin-sync-s");
    /// let store = FileStore::open_with(&dir, "FIX.4.4-A-B", FileOptions::new().sync(SyncPolicy::Batch).inline_sync_below(0))?;
    /// let config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator);
    /// let mut s = Session::new(config, store, &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?;
    /// if let Some(job) = s.begin_sync()? {
    ///     let done = std::thread::spawn(move || job.run()).join().unwrap();
    ///     assert!(s.output().is_empty()); // not durable yet
    ///     s.end_sync(done)?;
    /// }
    /// assert!(s.output().windows(4).any(|w| w == b"35=A"));
    /// # drop(s);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_sync(&mut self) -> Result<Option<crate::store::SyncJob>, SessionError> {
        if self.store.sync_in_flight() {
            return Ok(None);
        }
        if !self.store.pending_sync() {
            self.conn.released = self.output.len();
            return Ok(None);
        }
        if self.conn.released == self.output.len() {
            // Nothing held back: the records waiting (incoming numbers, say)
            // ride in the sync of the next message that leaves, as a session
            // that only receives would otherwise sync at every read. They
            // are written out, though, so that a killed process keeps them.
            self.store.write_out()?;
            return Ok(None);
        }
        let mark = self.output.len();
        match self.store.begin_sync()? {
            Some(job) => {
                self.conn.syncing_to = mark;
                Ok(Some(job))
            }
            None => {
                self.conn.released = mark;
                Ok(None)
            }
        }
    }

    /// Ends the sync [`Session::begin_sync`] started, with what its job
    /// returned: the bytes it covered are handed out through
    /// [`Session::output`]; a failed sync is an error and nothing more
    /// leaves. See [`Session::begin_sync`].
    pub fn end_sync(&mut self, done: crate::store::SyncDone) -> Result<(), SessionError> {
        let covered = std::mem::take(&mut self.conn.syncing_to);
        self.store.end_sync(done)?;
        self.conn.released = self.conn.released.max(covered.min(self.output.len()));
        Ok(())
    }

    /// The read of stored messages a resend waits for, when the store reads
    /// off the session's thread ([`MessageStore::begin_read`]): run it
    /// where blocking is allowed and give what it returned to
    /// [`Session::end_read`]. Each job is handed out once; `None` when
    /// there is none to run. The resend goes on only once the read ends.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert!(s.take_read_job().is_none()); // the memory store reads at once
    /// ```
    pub fn take_read_job(&mut self) -> Option<crate::store::ReadJob> {
        self.conn.read_job.take()
    }

    /// Ends a read [`Session::take_read_job`] handed out: resends what it
    /// brought, then goes on with the resend (its next read, or what was
    /// held behind it). A read of an earlier connection, or of a resend a
    /// newer ResendRequest replaced, is dropped.
    ///
    /// ```
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # use fix_session::store::{ReadJob, ReadRange};
    /// # struct App;
    /// # impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// let stale = ReadJob::new(ReadRange { id: 9, from: 1, to: 5 }, || Ok(Box::new(()))).run();
    /// s.end_read(std::time::UNIX_EPOCH, stale, &mut App)?; // no read of this session's: dropped
    /// assert!(s.output().is_empty());
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn end_read(
        &mut self,
        now: impl Into<Time>,
        done: crate::store::ReadDone,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let Some(now) = self.enter_live(now, app) else {
            return Ok(());
        };
        self.serve_read_done(now, done, app)?;
        self.pump(now, app)
    }

    /// The bytes the sync in flight holds back: handed out through
    /// [`Session::output`] when it ends, after what is there now. Empty
    /// when no sync is in flight. A transport that writes them itself the
    /// moment they are durable (from the thread that synced) marks them
    /// written with [`Session::consume_output`] once the sync has ended.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert!(s.syncing_output().is_empty());
    /// ```
    pub fn syncing_output(&self) -> &[u8] {
        if !self.store.sync_in_flight() {
            return &[];
        }
        let end = self.conn.syncing_to.min(self.output.len());
        &self.output[self.conn.released.min(end)..end]
    }

    /// Whether a sync [`Session::begin_sync`] started has not ended.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert!(!s.sync_in_flight());
    /// ```
    pub fn sync_in_flight(&self) -> bool {
        self.store.sync_in_flight()
    }

    /// Marks the first `n` bytes of [`Session::output`] as written.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.consume_output(0);
    /// ```
    pub fn consume_output(&mut self, n: usize) {
        let n = n.min(self.released_len());
        self.output.drain(..n);
        self.conn.released = self.conn.released.saturating_sub(n);
        self.conn.syncing_to = self.conn.syncing_to.saturating_sub(n);
    }

    /// Whether the session wants its connection closed (after writing
    /// [`Session::output`]).
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert!(!s.wants_disconnect());
    /// ```
    pub fn wants_disconnect(&self) -> bool {
        self.conn.disconnect
    }

    /// Bytes the session has made and not handed out yet: [`Session::output`]
    /// and the messages held back behind a resend in progress. A transport
    /// bounds its reading and its senders by this, not by the output alone.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.unsent_len(), 0);
    /// ```
    pub fn unsent_len(&self) -> usize {
        self.output.len() + self.held.len()
    }

    /// Bytes of [`Session::unsent_len`] held back for the sync that will
    /// make their messages durable (group commit): they wait on the disk,
    /// not on the counterparty.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.unsynced_len(), 0); // a memory store is durable at once
    /// ```
    pub fn unsynced_len(&self) -> usize {
        self.output.len() - self.released_len()
    }

    /// Received bytes the session holds: the start of a message not complete
    /// yet (at most the parser's maximum message size) and the messages queued
    /// ahead of a gap (at most [`SessionConfig::max_queued_bytes`]).
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.received_len(), 0);
    /// ```
    pub fn received_len(&self) -> usize {
        self.input.len() + self.queue.live
    }

    /// The next event the session has for its operator (a bound it enforced,
    /// a Logon it refused), oldest first. At most [`MAX_PENDING_EVENTS`] wait;
    /// older ones are dropped and counted ([`Session::dropped_events`]).
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.poll_event(), None);
    /// ```
    pub fn poll_event(&mut self) -> Option<Event> {
        self.events.pop()
    }

    /// How many events were dropped unpolled, [`MAX_PENDING_EVENTS`] being
    /// passed.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.dropped_events(), 0);
    /// ```
    pub fn dropped_events(&self) -> u64 {
        self.events.dropped()
    }

    /// The messages this session has framed from its input and sent so far,
    /// admin and application apart.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?; // sends the Logon
    /// assert_eq!(s.message_counts().sent_admin, 1);
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn message_counts(&self) -> MessageCounts {
        self.counts
    }

    /// The bytes of a message event ([`Event::Received`], [`Event::Sent`]):
    /// whole, as framed or sent, until the session's next input (after which
    /// `None`).
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, Event, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator);
    /// config.message_events = true;
    /// let mut s = Session::new(config, MemoryStore::new(), &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?;
    /// let sent = std::iter::from_fn(|| s.poll_event()).find_map(|e| match e {
    ///     Event::Sent(m) => Some(m),
    ///     _ => None,
    /// });
    /// let logon = s.message_bytes(&sent.unwrap()).unwrap();
    /// assert!(logon.windows(5).any(|w| w == b"35=A\x01"));
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn message_bytes(&self, message: &MessageEvent) -> Option<&[u8]> {
        self.events.bytes(message)
    }

    /// The session's state becomes `to`: an [`Event::State`] when it changes.
    fn set_state(&mut self, to: State) {
        if self.conn.state != to {
            self.conn.state = to;
            self.events.push(Event::State(to));
        }
    }

    /// The connection is to end, for `why` (the first reason given is the
    /// one told).
    fn want_disconnect(&mut self, why: DisconnectReason) {
        if !self.conn.disconnect {
            self.conn.disconnect = true;
            self.events.push(Event::DisconnectWanted(why));
        }
    }

    /// Starts the session afresh (both numbers back to 1, the stored messages
    /// dropped) at the next Logon: when an acceptor has verified the
    /// counterparty's, or when an initiator sends its own. A transport calls it
    /// when a new schedule period begins, so that a Logon that is then refused
    /// (a wrong SendingTime or CompID) has erased nothing.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, MessageStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// let config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator);
    /// let mut store = MemoryStore::new();
    /// store.set_next_sender_seq(50)?;
    /// let mut s = Session::new(config, store, &fix44::DICTIONARY);
    /// s.reset_on_next_logon();
    /// s.connected(UNIX_EPOCH, &mut App)?; // the initiator's Logon goes out as number 1
    /// assert_eq!(s.store().next_sender_seq(), 2);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn reset_on_next_logon(&mut self) {
        self.reset_pending = true;
    }

    /// How many application messages [`Session::send`] takes at `now` under
    /// [`SessionConfig::max_app_messages_per_sec`]: the limit less those sent
    /// in the second before `now`; `usize::MAX` without a limit. (The
    /// session's state is not asked: a session not logged on takes none.)
    /// A transport hands over this many of the messages it holds, and keeps
    /// the rest, in order, until [`Session::next_send_at`].
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator);
    /// config.max_app_messages_per_sec = NonZeroU32::new(10);
    /// let s = Session::new(config, MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.send_allowance(std::time::UNIX_EPOCH), 10);
    /// ```
    pub fn send_allowance(&self, now: impl Into<Time>) -> usize {
        let now = now.into();
        self.throttle
            .as_ref()
            .map_or(usize::MAX, |t| t.allowance(now.mono))
    }

    /// From when [`Session::send`] takes the next application message under
    /// [`SessionConfig::max_app_messages_per_sec`]: a second after the
    /// oldest of the last `N` sent (its [`Time::mono`] is what counts; the
    /// wall reading is told from the last input's). `None` when nothing
    /// holds one back (no limit, or fewer than `N` sent in the last
    /// second); a time in the past means now. A transport holding messages
    /// back wakes then; [`Session::poll_timeout`] does not include it, as
    /// [`Session::handle_timeout`] has nothing to do then.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.next_send_at(), None); // no limit
    /// ```
    pub fn next_send_at(&self) -> Option<Time> {
        let due = self.throttle.as_ref()?.next_at()?;
        Some(self.at_mono(due))
    }

    /// An operator sets the next sender and target sequence numbers (`None`
    /// leaves one as it is), in any state, as QuickFIX's
    /// `setNextSenderMsgSeqNum`/`setNextTargetMsgSeqNum` do: the store takes
    /// them (a lower sender number drops the stored messages from it on), and
    /// a logged-on session's next message goes with the new sender number. A
    /// counterparty that sees a higher number than it expects asks for the
    /// gap and is sent a gap fill for numbers never stored; a lower one makes
    /// it log out (MsgSeqNum too low). Messages received ahead of a gap that
    /// the new target number passes are dropped. Refused with
    /// [`SessionError::ResendInProgress`] for the sender number while a
    /// resend is being served; a number of 0 is the store's
    /// [`StoreError::InvalidSeqNum`](crate::StoreError::InvalidSeqNum), and
    /// then nothing changed.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, MessageStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.set_next_seq_nums(UNIX_EPOCH, Some(100), Some(42))?;
    /// assert_eq!((s.store().next_sender_seq(), s.store().next_target_seq()), (100, 42));
    /// assert!(s.set_next_seq_nums(UNIX_EPOCH, Some(0), Some(7)).is_err());
    /// assert_eq!(s.store().next_target_seq(), 42); // nothing changed
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn set_next_seq_nums(
        &mut self,
        now: impl Into<Time>,
        sender: Option<u64>,
        target: Option<u64>,
    ) -> Result<(), SessionError> {
        self.enter(now);
        if sender == Some(0) || target == Some(0) {
            return Err(StoreError::InvalidSeqNum { seq: 0 }.into());
        }
        if sender.is_some() && (self.conn.serving.is_some() || !self.held.is_empty()) {
            return Err(SessionError::ResendInProgress);
        }
        if let Some(seq) = sender {
            self.store.set_next_sender_seq(seq)?;
        }
        if let Some(seq) = target {
            self.store.set_next_target_seq(seq)?;
            self.queue.drop_below(seq);
            if let Some((_, end)) = self.conn.resend_requested
                && end != 0
                && end < seq
            {
                self.conn.resend_requested = None;
            }
        }
        Ok(())
    }

    /// An operator resets the session: a disconnected one's store is reset
    /// now (sequence numbers 1, stored messages gone, a new creation time);
    /// a logged-on one sends a Logout ("Session reset") and resets when it
    /// is answered or the connection ends, as ResetOnError does; one logging
    /// on or out resets when its connection ends (the caller closes it).
    /// Returns whether the store was reset now.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, MessageStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.set_next_seq_nums(UNIX_EPOCH, Some(100), Some(42))?;
    /// assert!(s.reset(UNIX_EPOCH, &mut App)?); // not connected: at once
    /// assert_eq!((s.store().next_sender_seq(), s.store().next_target_seq()), (1, 1));
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn reset(
        &mut self,
        now: impl Into<Time>,
        app: &mut dyn Application,
    ) -> Result<bool, SessionError> {
        self.created(app);
        let now = self.enter(now);
        match self.conn.state {
            State::Disconnected => {
                self.store.reset(now)?;
                Ok(true)
            }
            State::LoggedOn => {
                self.reset_after_error = true;
                self.begin_logout(now, Some(b"Session reset"), app)?;
                Ok(false)
            }
            State::AwaitingLogon | State::LogoutSent => {
                self.reset_after_error = true;
                Ok(false)
            }
        }
    }

    /// The earliest time [`Session::handle_timeout`] has work: a heartbeat, a
    /// TestRequest, a Logon or Logout timeout, or the rest of a resend. The
    /// deadline is its [`Time::mono`]; its [`Time::wall`] is what the wall
    /// clock reads then if it does not step meanwhile.
    ///
    /// ```
    /// # use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # let s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert_eq!(s.poll_timeout(), None);
    /// ```
    pub fn poll_timeout(&self) -> Option<Time> {
        self.poll_deadline().map(|due| self.at_mono(due))
    }

    /// The earliest deadline, on the monotonic clock.
    fn poll_deadline(&self) -> Option<Duration> {
        if self.conn.state == State::Disconnected || self.conn.disconnect {
            return None;
        }
        // A resend goes on at once, unless it waits for a read.
        if self.conn.serving.is_some() && self.conn.reading.is_none() {
            return Some(self.now.mono);
        }
        self.conn.next_due()
    }

    /// The time at monotonic reading `mono`, its wall-clock reading told from
    /// the last input's (the wall clock may step before then; the deadline
    /// is the monotonic one).
    fn at_mono(&self, mono: Duration) -> Time {
        let now = self.now;
        let wall = if mono >= now.mono {
            now.wall.checked_add(mono - now.mono)
        } else {
            now.wall.checked_sub(now.mono - mono)
        };
        Time::new(wall.unwrap_or(now.wall), mono)
    }

    /// A connection is up: an initiator sends its Logon; an acceptor starts
    /// waiting for one (LogonTimeout).
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// let config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator);
    /// let mut s = Session::new(config, MemoryStore::new(), &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?;
    /// assert!(s.output().windows(5).any(|w| w == b"35=A\x01"));
    /// // A second connection before the first is `disconnected` is refused.
    /// assert!(matches!(s.connected(UNIX_EPOCH, &mut App), Err(fix_session::SessionError::AlreadyConnected)));
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn connected(
        &mut self,
        now: impl Into<Time>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.created(app);
        let now = self.enter(now);
        if self.conn.state != State::Disconnected {
            return Err(SessionError::AlreadyConnected);
        }
        self.restore_scratch();
        let mono = self.now.mono;
        let logon_due = mono.checked_add(self.config.logon_timeout);
        self.conn = Connection::new(State::AwaitingLogon, mono, logon_due);
        self.clear_buffers();
        self.events.push(Event::State(State::AwaitingLogon));
        if self.config.role == crate::Role::Initiator {
            if self.config.refresh_on_logon {
                // QuickFIX's generateLogon: the state as the store has it
                // now, before the Logon takes its number.
                self.store.refresh()?;
            }
            if self.config.reset_on_logon
                || self.config.send_reset_seq_num_flag
                || self.reset_pending
            {
                self.store.reset(now)?;
                self.reset_pending = false;
            }
            self.conn.clock.heartbeat = Duration::from_secs(u64::from(self.config.heart_bt_int));
            let reset = self.config.reset_on_logon || self.config.send_reset_seq_num_flag;
            self.send_logon(now, reset, app)?;
        }
        Ok(())
    }

    /// The connection dropped (or was closed after [`Session::wants_disconnect`]).
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?;
    /// s.disconnected(UNIX_EPOCH, &mut App)?;
    /// assert_eq!(s.state(), fix_session::State::Disconnected);
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn disconnected(
        &mut self,
        now: impl Into<Time>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.created(app);
        let now = self.enter(now);
        let was = self.conn.state;
        self.conn = Connection::new(State::Disconnected, self.now.mono, None);
        self.clear_buffers();
        if was != State::Disconnected {
            self.events.push(Event::State(State::Disconnected));
        }
        if matches!(was, State::LoggedOn | State::LogoutSent) {
            app.on_logout(&self.config.id);
        }
        if self.config.reset_on_disconnect || self.reset_after_error {
            self.reset_after_error = false;
            self.store.reset(now)?;
        }
        Ok(())
    }

    /// Bytes arrived: every complete message in them (with what came before) is
    /// handled; a partial one waits for the rest.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?;
    /// s.handle_bytes(UNIX_EPOCH, b"8=FIX.4.4\x019=", &mut App)?; // the rest comes later
    /// assert!(s.output().is_empty());
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn handle_bytes(
        &mut self,
        now: impl Into<Time>,
        bytes: &[u8],
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let Some(now) = self.enter_live(now, app) else {
            return Ok(());
        };
        // What a call brings is handled where it lies; only the part of a message
        // it ends with waits in `input` for the next call.
        let result = if self.input.is_empty() {
            let (used, result) = self.handle_frames(now, bytes, app);
            self.input.extend_from_slice(&bytes[used..]);
            result
        } else {
            let mut input = std::mem::take(&mut self.input);
            input.extend_from_slice(bytes);
            let (used, result) = self.handle_frames(now, &input, app);
            input.drain(..used);
            self.input = input;
            result
        };
        result?;
        self.pump(now, app)
    }

    /// Empties the connection's buffers, keeping their capacity (see
    /// [`Connection`]).
    fn clear_buffers(&mut self) {
        self.input.clear();
        self.output.clear();
        self.queue.clear();
        self.held.clear();
        self.held_index.clear();
    }

    /// An input at `now`: the session's time from here on; returns its wall
    /// clock reading, which stamps what the input sends.
    fn enter(&mut self, now: impl Into<Time>) -> SystemTime {
        self.events.next_input();
        self.now = now.into();
        self.now.wall
    }

    /// Makes again the scratch space a call takes while it runs and puts back
    /// when it returns: a call that never returned (the application panicked
    /// in a callback, and the caller caught the panic) left it taken.
    fn restore_scratch(&mut self) {
        for fields in [
            &mut self.fields,
            &mut self.resend_fields,
            &mut self.queue_fields,
        ] {
            if fields.is_empty() {
                *fields = vec![Field::new(0, 0, 0); MAX_FIELDS].into_boxed_slice();
            }
        }
        self.draining = false;
    }

    /// Time passed: heartbeats, TestRequests, timeouts and paced resends that are
    /// due by `now` happen.
    ///
    /// ```
    /// # use std::time::{Duration, UNIX_EPOCH};
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.connected(UNIX_EPOCH, &mut App)?;
    /// s.handle_timeout(UNIX_EPOCH + Duration::from_secs(11), &mut App)?; // no Logon in 10 s
    /// assert!(s.wants_disconnect());
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn handle_timeout(
        &mut self,
        now: impl Into<Time>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let Some(now) = self.enter_live(now, app) else {
            return Ok(());
        };
        match self.conn.expired(self.now.mono) {
            Some(Timer::Deadline) => {
                self.want_disconnect(if self.conn.state == State::AwaitingLogon {
                    DisconnectReason::LogonTimeout
                } else {
                    DisconnectReason::LogoutTimeout
                });
                return Ok(());
            }
            Some(Timer::Silence) => {
                if self.config.send_logout_before_timeout_disconnect
                    && self.conn.state == State::LoggedOn
                {
                    self.send_logout(now, Some(b"Timed out waiting for heartbeat"), app)?;
                }
                self.want_disconnect(DisconnectReason::HeartbeatTimeout);
                return Ok(());
            }
            Some(Timer::TestRequest) => {
                self.send_admin(now, b"1", &[(112, b"TEST")], app)?;
                self.events
                    .push(Event::TestRequestSent { id: "TEST".into() });
                self.conn.clock.test_requests += 1;
            }
            Some(Timer::Heartbeat) => self.send_admin(now, b"0", &[], app)?,
            None => {}
        }
        self.pump(now, app)
    }

    /// Sends an application message of `msg_type` whose body fields are `body`
    /// (encoded `tag=value<SOH>`, e.g. by a typed builder); the session writes the
    /// header (MsgSeqNum, CompIDs, SendingTime) and trailer, stores the message,
    /// and only then puts its bytes in [`Session::output`]. Returns its MsgSeqNum.
    ///
    /// Under [`SessionConfig::max_app_messages_per_sec`] an application
    /// message over the limit is refused with [`SessionError::Throttled`],
    /// and nothing changes: the caller keeps it, and sends it from
    /// [`Session::next_send_at`] on. A `msg_type` of an admin message is
    /// never held back.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// assert!(s.send(UNIX_EPOCH, b"D", b"11=1\x01", &mut App).is_err()); // not logged on
    /// ```
    ///
    /// The message is checked first ([`check_outgoing`] with the session's
    /// parser): one a counterparty could not read is refused with
    /// [`SessionError::Malformed`], and nothing changes.
    pub fn send(
        &mut self,
        now: impl Into<Time>,
        msg_type: &[u8],
        body: &[u8],
        app: &mut dyn Application,
    ) -> Result<u64, SessionError> {
        check_outgoing(&self.config.parser, msg_type, body).map_err(SessionError::Malformed)?;
        self.send_prechecked(now, msg_type, body, app)
    }

    /// [`send`](Self::send) for a transport that checked the message with
    /// [`check_outgoing`] and this session's parser ([`SessionConfig::parser`])
    /// when it took it from its caller (the engine's queue does, so that its
    /// caller hears of a malformed message at once): not checked again. A
    /// message that was not checked so would be stored and sent as it is.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// let (msg_type, body) = (&b"D"[..], &b"11=1\x01"[..]);
    /// fix_session::check_outgoing(&s.config().parser, msg_type, body).unwrap();
    /// assert!(s.send_prechecked(UNIX_EPOCH, msg_type, body, &mut App).is_err()); // not logged on
    /// ```
    pub fn send_prechecked(
        &mut self,
        now: impl Into<Time>,
        msg_type: &[u8],
        body: &[u8],
        app: &mut dyn Application,
    ) -> Result<u64, SessionError> {
        self.created(app);
        let now = self.enter(now);
        if self.conn.state != State::LoggedOn {
            return Err(SessionError::NotLoggedOn);
        }
        if !is_admin(msg_type)
            && self
                .throttle
                .as_ref()
                .is_some_and(|t| t.allowance(self.now.mono) == 0)
        {
            return Err(SessionError::Throttled);
        }
        self.send_message(now, msg_type, body, false)
    }

    /// Starts a Logout with `text`; the answer (or LogoutTimeout) ends the
    /// session.
    ///
    /// ```
    /// # use std::time::UNIX_EPOCH;
    /// # use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId};
    /// # struct App; impl Application for App {}
    /// # let mut s = Session::new(SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Initiator), MemoryStore::new(), &fix44::DICTIONARY);
    /// s.logout(UNIX_EPOCH, None, &mut App)?; // not logged on: nothing to do
    /// assert!(s.output().is_empty());
    /// # Ok::<(), fix_session::SessionError>(())
    /// ```
    pub fn logout(
        &mut self,
        now: impl Into<Time>,
        text: Option<&str>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.created(app);
        let now = self.enter(now);
        // A Logout sent already (the answer to the peer's, the connection
        // closing after it) is the last message: a second would take a
        // number the peer never sees.
        if self.conn.state != State::LoggedOn || self.conn.logout_sent || self.conn.disconnect {
            return Ok(());
        }
        self.begin_logout(now, text.map(str::as_bytes), app)
    }

    /// Handles the messages at the start of `buf`; returns how many bytes were
    /// used (the messages handled, and garbled bytes dropped), and the first error.
    fn handle_frames(
        &mut self,
        now: SystemTime,
        buf: &[u8],
        app: &mut dyn Application,
    ) -> (usize, Result<(), SessionError>) {
        let parser = self.config.parser;
        let mut start = 0;
        while start < buf.len() && !self.conn.disconnect && self.conn.state != State::Disconnected {
            match parser.frame(&buf[start..]) {
                Ok(Status::Complete(frame)) => {
                    start += frame.len();
                    let result = self.handle_frame(now, &parser, frame, app);
                    if result.is_err() {
                        return (start, result);
                    }
                }
                Ok(Status::Partial { .. }) => {
                    if !self.drop_oversized(buf, &mut start) {
                        break;
                    }
                }
                Err(error @ fix_core::Error::BodyLengthMismatch { offset }) => {
                    // As QuickFIX reads it: the message runs to the first
                    // CheckSum at or after where BodyLength ends it (taking in
                    // the start of the next message when too long), and is
                    // dropped whole.
                    match checksum_end(&buf[start..], offset) {
                        Some(end) => {
                            start += end;
                            self.events.push(Event::Garbled { bytes: end, error });
                        }
                        None if self.drop_oversized(buf, &mut start) => {}
                        None => break,
                    }
                }
                Err(error) => {
                    // Garbled: dropped without consuming a sequence number, up to
                    // the next BeginString.
                    let bytes = 1 + fix_core::resync(&buf[start + 1..]);
                    start += bytes;
                    self.events.push(Event::Garbled { bytes, error });
                }
            }
        }
        (start, Ok(()))
    }

    /// Indexes, records and handles one framed message; marks a store failure when logged on.
    fn handle_frame(
        &mut self,
        now: SystemTime,
        parser: &Parser<'_>,
        frame: fix_core::Frame<'_>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let mut fields = std::mem::take(&mut self.fields);
        let logged_on = self.conn.state == State::LoggedOn;
        let result = match parser.index(frame, &mut fields) {
            Ok(msg) => {
                self.record_received(seq_num(&msg), &frame);
                self.handle_parsed(now, &msg, app)
            }
            Err(e) => {
                self.record_received(incoming::seq_text(frame.bytes()), &frame);
                self.handle_unparsed(now, &frame, &e, app)
            }
        };
        self.fields = fields;
        if logged_on && let Err(SessionError::Store(_)) = &result {
            self.store_failed(frame.msg_type());
        }
        result
    }

    /// The store failed while a received message of `msg_type` was handled on
    /// a logged-on session: under ResetOnError the store is reset when the
    /// connection ends (which the error ends anyway), under DisconnectOnError
    /// nothing more is done. An admin message's failure is left alone, as
    /// QuickFIX/J leaves it.
    fn store_failed(&mut self, msg_type: &[u8]) {
        if self.config.on_error == crate::OnError::Reject || is_admin(msg_type) {
            return;
        }
        self.want_disconnect(DisconnectReason::OnError);
        let reason = "the store failed".to_owned();
        if self.config.on_error == crate::OnError::Reset {
            self.reset_after_error = true;
            self.events.push(Event::ResetOnError { reason });
        } else {
            self.events.push(Event::DisconnectOnError { reason });
        }
    }

    /// A framed message, as received, for its [`Event::Received`].
    fn record_received(&mut self, seq: Option<u64>, frame: &fix_core::Frame<'_>) {
        let kind = event::Kind::of(frame.msg_type());
        self.counts.received(kind);
        if self.config.message_events {
            self.events.message(false, seq, kind, frame.bytes());
        }
    }

    /// A message that has not completed within the parser's maximum size never
    /// will: it is dropped up to the next BeginString, so a peer cannot make
    /// the session keep (and scan again at every read) input without end.
    /// Returns whether it dropped anything.
    fn drop_oversized(&mut self, buf: &[u8], start: &mut usize) -> bool {
        let limit = self.config.parser.max_message_size();
        let waiting = buf.len() - *start;
        if waiting <= limit {
            return false;
        }
        let skip = 1 + fix_core::resync(&buf[*start + 1..]);
        *start += skip;
        self.events.push(Event::InputDropped { bytes: skip, limit });
        true
    }

    /// Handles one framed message, indexing it into `fields`.
    fn handle_indexed(
        &mut self,
        now: SystemTime,
        bytes: &[u8],
        fields: &mut [Field],
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let parser = self.config.parser;
        match parser.frame(bytes) {
            Ok(Status::Complete(frame)) => match parser.index(frame, fields) {
                Ok(msg) => self.handle_parsed(now, &msg, app),
                Err(e) => self.handle_unparsed(now, &frame, &e, app),
            },
            _ => Ok(()),
        }
    }

    /// The start of an input to a live connection: the application hears of
    /// the session first, then the clocks are read; `None` when there is no
    /// connection to give the input to (none, or one being closed).
    fn enter_live(
        &mut self,
        now: impl Into<Time>,
        app: &mut dyn Application,
    ) -> Option<SystemTime> {
        self.created(app);
        let now = self.enter(now);
        (self.conn.state != State::Disconnected && !self.conn.disconnect).then_some(now)
    }

    /// Tells the application the session exists, before anything else it hears
    /// of it: the first input that brings the application.
    fn created(&mut self, app: &mut dyn Application) {
        if !self.created {
            self.created = true;
            app.on_create(&self.config.id);
        }
    }

    /// Serves a pending resend while the output is short, and sends what the
    /// application queued.
    fn pump(&mut self, now: SystemTime, app: &mut dyn Application) -> Result<(), SessionError> {
        const OUTPUT_HIGH_WATER: usize = 256 * 1024;
        while self.conn.serving.is_some()
            && self.conn.reading.is_none()
            && self.output.len() < OUTPUT_HIGH_WATER
            && !self.conn.disconnect
        {
            self.serve_chunk(now, app)?;
        }
        if self.conn.disconnect && self.conn.serving.is_some() {
            // The connection ends before the resend does: what was held
            // behind it (the Logout, say) still goes.
            self.release_held();
        }
        Ok(())
    }

    /// Sends what the application queued in its last call.
    fn flush_outbox(&mut self, now: SystemTime) -> Result<(), SessionError> {
        if self.outbox.is_empty() {
            return Ok(());
        }
        let outbox = std::mem::take(&mut self.outbox);
        let mut result = Ok(());
        for (msg_type, body, poss_resend) in outbox.messages() {
            let checked = check_outgoing(&self.config.parser, msg_type, body)
                .map_err(SessionError::Malformed);
            match checked.and_then(|()| self.send_message(now, msg_type, body, poss_resend)) {
                Ok(_) => {}
                // The application's mistake, told as an event: failing the
                // input would end the connection, and the same input would
                // meet the same answer on the next.
                Err(SessionError::Malformed(error)) => self.events.push(Event::AnswerDropped {
                    msg_type: String::from_utf8_lossy(msg_type).into_owned(),
                    error,
                }),
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.outbox = outbox;
        self.outbox.clear();
        result.map(|_| ())
    }
}

/// Whether a message of `msg_type` with `body` may be sent as it is: a
/// MsgType that is not empty and holds no SOH, and a body that `parser`
/// reads as `tag=value<SOH>` fields ([`Parser::check_fields`]: offsets from
/// the body's start). [`Session::send`] checks every message so; a
/// transport that queues messages for the session checks them with the
/// session's parser ([`SessionConfig::parser`]) before it accepts them.
///
/// ```
/// use fix_core::{Error, Parser};
/// let p = Parser::new();
/// assert!(fix_session::check_outgoing(&p, b"D", b"11=A\x0154=1\x01").is_ok());
/// assert_eq!(fix_session::check_outgoing(&p, b"D", b"\x14"), Err(Error::Unterminated { offset: 0 }));
/// assert_eq!(fix_session::check_outgoing(&p, b"", b""), Err(Error::EmptyValue { tag: 35, offset: 0 }));
/// ```
pub fn check_outgoing(
    parser: &Parser<'_>,
    msg_type: &[u8],
    body: &[u8],
) -> Result<(), fix_core::Error> {
    if msg_type.is_empty() {
        return Err(fix_core::Error::EmptyValue { tag: 35, offset: 0 });
    }
    if let Some(offset) = msg_type.iter().position(|&b| b == fix_core::SOH) {
        return Err(fix_core::Error::EmbeddedSoh { tag: 35, offset });
    }
    parser.check_fields(body)
}

/// Whether `tag` belongs to the standard header or trailer (the fields the
/// session writes itself).
///
/// ```
/// assert!(fix_session::is_header_or_trailer(52));
/// assert!(!fix_session::is_header_or_trailer(11));
/// ```
pub fn is_header_or_trailer(tag: u32) -> bool {
    matches!(
        tag,
        8 | 9
            | 10
            | 34
            | 35
            | 43
            | 49
            | 50
            | 52
            | 56
            | 57
            | 89
            | 90
            | 91
            | 93
            | 97
            | 115
            | 116
            | 122
            | 128
            | 129
            | 142
            | 143
            | 144
            | 145
            | 212
            | 213
            | 347
            | 369
            | 627
            | 628
            | 629
            | 630
            | 1128
            | 1129
            | 1156
    )
}

/// The end of the first `<SOH>10=NNN<SOH>` in `buf` whose SOH is at or after
/// `body_end - 1`, if it has arrived.
fn checksum_end(buf: &[u8], body_end: usize) -> Option<usize> {
    let from = body_end.saturating_sub(1).min(buf.len());
    buf[from..]
        .windows(8)
        .position(|w| w[..4] == *b"\x0110=" && w[4..7].iter().all(u8::is_ascii_digit) && w[7] == 1)
        .map(|i| from + i + 8)
}

/// A message's MsgSeqNum, if it has a valid one: one to 19 digits, no sign
/// (so at most [`MAX_SEQ_NUM`]), read by fix-core's one digit parser.
fn seq_num(msg: &Message<'_>) -> Option<u64> {
    parse_digits(msg.get(34)?, 19)
}

/// Whether `msg_type` is a session-level (admin) message.
fn is_admin(msg_type: &[u8]) -> bool {
    matches!(msg_type, b"0" | b"1" | b"2" | b"3" | b"4" | b"5" | b"A")
}

#[cfg(test)]
mod tests {
    use super::Queue;

    fn msg(seq: u64, len: usize) -> Vec<u8> {
        let mut m = seq.to_string().into_bytes();
        m.resize(len, b'.');
        m
    }

    #[test]
    fn the_queue_gives_back_each_message_once_in_any_order() {
        let mut q = Queue::default();
        for seq in [5, 3, 9, 4] {
            assert!(q.push(seq, &msg(seq, 10), usize::MAX).is_ok());
        }
        assert!(q.push(3, b"a duplicate is ignored", usize::MAX).is_ok());
        assert_eq!(q.high(), 9);
        let mut out = Vec::new();
        assert!(!q.take(6, &mut out));
        assert!(q.take(4, &mut out) && out == msg(4, 10));
        assert!(q.take(3, &mut out) && out == msg(3, 10));
        assert!(!q.take(3, &mut out));
        q.drop_below(9);
        assert!(!q.take(5, &mut out));
        assert!(q.take(9, &mut out) && out == msg(9, 10));
        assert!(q.is_empty() && q.bytes.is_empty() && q.live == 0);
    }

    #[test]
    fn taken_messages_bytes_are_reclaimed_while_others_stay_queued() {
        let mut q = Queue::default();
        // 4000 messages of 100 bytes; three of every four taken, in order.
        for seq in 1..=4000 {
            assert!(q.push(seq, &msg(seq, 100), usize::MAX).is_ok());
        }
        let mut out = Vec::new();
        for seq in (1..=4000).filter(|s| s % 4 != 0) {
            assert!(q.take(seq, &mut out));
        }
        assert_eq!(q.live, 1000 * 100);
        assert!(q.bytes.len() <= 2 * q.live, "{}", q.bytes.len());
        for seq in (4..=4000).step_by(4) {
            assert!(q.take(seq, &mut out), "{seq}");
            assert_eq!(out, msg(seq, 100));
        }
        assert!(q.is_empty() && q.bytes.is_empty());
    }
}
