//! [`SessionHandle`]: how any task sends on a session. Messages go into a
//! bounded byte queue shared with the session's connection task, allocated once
//! when the session is made; a full queue is an error for the sender, never
//! growth. The lock around it is held for a copy, never across an await or a
//! call into the application, so a sender cannot deadlock with the session.
//! [`SessionHandle::send_now`] sends from the caller's thread instead when the
//! session is free at that moment, and queues when it is not: it never waits
//! for the session either.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};

use fix_core::typed::MessageBody;
use fix_session::{SessionId, State};
use tokio::sync::{Notify, watch};

use crate::operator::{OperatorCommand, OperatorError, Request, SessionStatus};

/// What a handle, an operator or the engine asks of the connection task.
#[derive(Debug)]
pub(crate) enum Command {
    /// A Logout; `by_app`: asked through a [`SessionHandle`] (said so in
    /// the session's log).
    Logout { by_app: bool },
    /// The connection ends at once.
    Disconnect { by_app: bool },
    /// An operator's command, answered once done.
    Operator(Request),
}

/// The commands waiting for the connection task, kept with the queued
/// messages in the inbox.
#[derive(Debug, Default)]
pub(crate) struct Commands {
    pub(crate) logout: bool,
    pub(crate) disconnect: bool,
    /// The Logout or disconnect was asked through a [`SessionHandle`].
    pub(crate) by_app: bool,
    /// Operators' commands, oldest first.
    pub(crate) operator: Vec<Request>,
}

impl Commands {
    pub(crate) fn add(&mut self, command: Command) {
        match command {
            Command::Logout { by_app } => {
                self.logout = true;
                self.by_app |= by_app;
            }
            Command::Disconnect { by_app } => {
                self.disconnect = true;
                self.by_app |= by_app;
            }
            Command::Operator(request) => self.operator.push(request),
        }
    }

    fn is_empty(&self) -> bool {
        !self.logout && !self.disconnect && self.operator.is_empty()
    }
}

/// What the handles hand the connection task, under one lock: the queued
/// messages' records and the commands.
#[derive(Debug, Default)]
struct Inbox {
    queue: Vec<u8>,
    commands: Commands,
}

/// Whether a session takes connections: an operator's hold, or its removal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Gate {
    Open,
    Held,
    Removed,
}

/// A queued message's record: MsgType length (one byte), body length (four
/// bytes, little-endian), the ticket of a tracked send (eight bytes,
/// little-endian; 0 for none), when it was queued (eight bytes: nanoseconds
/// on the engine's monotonic clock), MsgType, body.
const RECORD_HEADER: usize = 21;

/// One queued message, as [`records`] reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record<'a> {
    /// The tracked send's ticket; 0 for none.
    pub(crate) ticket: u64,
    /// When it was queued, on the engine's monotonic clock.
    pub(crate) queued_at: std::time::Duration,
    pub(crate) msg_type: &'a [u8],
    pub(crate) body: &'a [u8],
}

impl Record<'_> {
    /// The record's length in the queue.
    pub(crate) fn size(&self) -> usize {
        RECORD_HEADER + self.msg_type.len() + self.body.len()
    }
}

/// What the connection task took from the handles' queue (the whole queue,
/// swapped with an empty buffer of its capacity) and has not handed to the
/// session yet: the records from `from` on, which the session's throttle
/// ([`SessionConfig::max_app_messages_per_sec`](fix_session::SessionConfig::max_app_messages_per_sec))
/// held back. They go before anything queued since; the task takes the
/// queue again only once they are all handed over, so that holding some
/// back costs nothing per message (no copy of the rest back into the queue).
/// While it holds them the senders have a queue of their own to fill: at
/// most twice the queue's capacity waits before a sender sees
/// [`SendError::Full`].
#[derive(Debug)]
pub(crate) struct Batch {
    bytes: Vec<u8>,
    from: usize,
    /// How many records from `from` on.
    waiting: usize,
}

impl Batch {
    /// An empty batch, of the queue's capacity.
    pub(crate) fn new(shared: &Shared) -> Batch {
        Batch {
            bytes: shared.spare_buffer(),
            from: 0,
            waiting: 0,
        }
    }

    /// Whether every record taken has been handed over.
    pub(crate) fn is_empty(&self) -> bool {
        self.from >= self.bytes.len()
    }

    /// How many records wait to be handed over.
    pub(crate) fn len(&self) -> usize {
        self.waiting
    }

    /// Takes what the handles queued, once every record taken before has
    /// been handed over (else nothing).
    pub(crate) fn refill(&mut self, shared: &Shared) {
        if self.is_empty() {
            self.bytes.clear();
            self.from = 0;
            shared.take_queued(&mut self.bytes);
            self.waiting = records(&self.bytes).count();
        }
    }

    /// The next record to hand over.
    pub(crate) fn first(&self) -> Option<Record<'_>> {
        records(&self.bytes[self.from.min(self.bytes.len())..]).next()
    }

    /// The first record was handed over (or dropped): `size` bytes.
    pub(crate) fn advance(&mut self, size: usize) {
        self.from += size;
        self.waiting = self.waiting.saturating_sub(1);
        if self.is_empty() {
            self.bytes.clear();
            self.from = 0;
            self.waiting = 0;
        }
    }

    /// Puts the records not handed over back at the front of the queue:
    /// the connection ended, or the session failed, before it had them.
    pub(crate) fn requeue(&mut self, shared: &Shared) {
        if !self.is_empty() {
            shared.requeue(&self.bytes[self.from..]);
        }
        self.bytes.clear();
        self.from = 0;
        self.waiting = 0;
    }
}

/// Why [`SessionHandle::send`] did not queue a message.
///
/// ```
/// assert_eq!(fix_engine::SendError::Full.to_string(), "the session's outgoing queue is full");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SendError {
    /// The outgoing queue has no room for the message now: the connection is
    /// behind (a slow peer) or the sender is faster than the socket. Try later.
    Full,
    /// The session has no connection, or is logging out.
    NotConnected,
    /// The message is larger than the whole queue, or its MsgType longer than
    /// 255 bytes: it can never be queued.
    TooLarge,
    /// The MsgType is empty or holds SOH, or the body is not `tag=value<SOH>`
    /// fields the session's parser would read as they are
    /// ([`fix_session::check_outgoing`]; offsets from the body's start):
    /// the counterparty could not read it.
    Malformed(fix_core::Error),
    /// A typed message could not be encoded: a required field is unset
    /// ([`EncodeError::MissingRequired`](fix_core::EncodeError::MissingRequired)),
    /// or a value is one FIX cannot carry.
    Encode(fix_core::EncodeError),
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SendError::Full => "the session's outgoing queue is full",
            SendError::NotConnected => "the session is not connected",
            SendError::TooLarge => "the message can never fit the session's outgoing queue",
            SendError::Malformed(e) => return write!(f, "the message is not FIX fields: {e}"),
            SendError::Encode(e) => return write!(f, "the message cannot be encoded: {e}"),
        })
    }
}

impl std::error::Error for SendError {}

/// Why a message [`SessionHandle::send_tracked`] queued was never made durable
/// and sent.
///
/// ```
/// let e = fix_engine::NotSent::EngineStopped;
/// assert_eq!(e.to_string(), "the engine stopped with the message still queued");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum NotSent {
    /// The engine shut down (or the session was dropped) while the message
    /// was still queued: it was never stored, and never will be.
    EngineStopped,
    /// The store failed to make the message durable (its sync failed): the
    /// connection ended; the message has its number and may have reached
    /// the disk, but nothing was promised.
    StoreFailed(String),
    /// It waited in the queue longer than
    /// [`EngineOptions::max_queued_age`](crate::EngineOptions::max_queued_age)
    /// (the session was down, or behind) and was dropped unsent.
    TooOld,
    /// Its connection ended before it was taken, and
    /// [`EngineOptions::queued_while_down`](crate::EngineOptions::queued_while_down)
    /// drops what is queued then.
    Disconnected,
}

impl std::fmt::Display for NotSent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotSent::EngineStopped => {
                f.write_str("the engine stopped with the message still queued")
            }
            NotSent::StoreFailed(e) => write!(f, "the store did not make the message durable: {e}"),
            NotSent::TooOld => {
                f.write_str("the message waited in the queue too long and was dropped")
            }
            NotSent::Disconnected => {
                f.write_str("the connection ended with the message still queued: dropped")
            }
        }
    }
}

impl std::error::Error for NotSent {}

/// What [`SessionHandle::send_tracked`] gives: a future that resolves, once
/// the message is stored durably (the sync that covers it done, before its
/// bytes are written), to the MsgSeqNum it went with, or to why it never
/// will be. An order-management system marks an order "sent" on `Ok`.
///
/// ```no_run
/// # async fn f(handle: fix_engine::SessionHandle) -> Result<(), Box<dyn std::error::Error>> {
/// let sent = handle.send_tracked(b"D", b"11=ORD1\x0154=1\x01")?;
/// let seq = sent.await?; // durable, with this MsgSeqNum
/// println!("ORD1 went as {seq}");
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct Sent(tokio::sync::oneshot::Receiver<Result<u64, NotSent>>);

impl std::future::Future for Sent {
    type Output = Result<u64, NotSent>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        std::pin::Pin::new(&mut self.0)
            .poll(cx)
            .map(|r| r.unwrap_or(Err(NotSent::EngineStopped)))
    }
}

/// The tracked sends waiting for their outcome, by ticket.
#[derive(Default)]
struct Tickets {
    last: u64,
    waiting: std::collections::HashMap<u64, tokio::sync::oneshot::Sender<Result<u64, NotSent>>>,
}

/// The session's side of [`SessionHandle::send_now`], whatever its dictionary.
pub(crate) trait DirectSend: Send + Sync {
    /// Hands the session the message and writes it to the socket, from the
    /// caller's thread, if the session is logged on and no one else holds it
    /// now; `false` (the message not taken) otherwise.
    fn send_now(&self, shared: &Shared, msg_type: &[u8], body: &[u8]) -> bool;

    /// Does an operator's command, unless someone holds the session now
    /// (then the request comes back, for the caller to try again): at once
    /// while no connection runs the session, else queued for its task
    /// ([`Shared::push_admin`]), which answers it.
    fn operate(&self, shared: &Shared, request: Request) -> Option<Request>;

    /// The session's status, unless someone holds it now.
    fn status(&self, shared: &Shared) -> Option<SessionStatus>;
}

/// What a session's handles and its connection task share.
pub(crate) struct Shared {
    pub(crate) id: SessionId,
    /// The queued messages and the commands, for the connection task.
    inbox: Mutex<Inbox>,
    capacity: usize,
    /// Wakes the connection task: a message queued, a command given.
    pub(crate) wake: Notify,
    /// The session's [`State`] as a byte, read by every send.
    state: AtomicU8,
    /// Wakes the tasks waiting for the state to change.
    state_changed: Notify,
    /// How the session frames messages: what every send's body is checked
    /// against before it is queued.
    parser: fix_core::Parser<'static>,
    /// The session itself, for [`SessionHandle::send_now`]; set once, when
    /// the session is made. Weak: a handle kept (by the application, which
    /// the session holds, say) must neither keep the session and its store
    /// open after the engine is gone nor make a cycle.
    direct: OnceLock<Weak<dyn DirectSend>>,
    /// How many times the session has logged on.
    logons: AtomicU64,
    /// The peer's TLS certificate on the current connection.
    peer_certificate: Mutex<Option<Arc<[u8]>>>,
    /// Tracked sends waiting for their outcome.
    tickets: Mutex<Tickets>,
    /// Held, removed, or open.
    gate: watch::Sender<Gate>,
    /// The session's application keys, for [`SessionHandle::application_keys`].
    application_keys: BTreeMap<String, String>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("id", &self.id)
            .field("capacity", &self.capacity)
            .field("state", &self.state())
            .finish_non_exhaustive()
    }
}

impl Shared {
    /// A session's shared part, its queue holding `capacity` bytes of records.
    pub(crate) fn new(
        id: SessionId,
        capacity: usize,
        parser: fix_core::Parser<'static>,
        application_keys: BTreeMap<String, String>,
    ) -> Arc<Shared> {
        Arc::new(Shared {
            id,
            parser,
            inbox: Mutex::new(Inbox {
                queue: Vec::with_capacity(capacity),
                commands: Commands::default(),
            }),
            capacity,
            wake: Notify::new(),
            state: AtomicU8::new(state_byte(State::Disconnected)),
            state_changed: Notify::new(),
            direct: OnceLock::new(),
            logons: AtomicU64::new(0),
            peer_certificate: Mutex::new(None),
            tickets: Mutex::new(Tickets::default()),
            gate: watch::Sender::new(Gate::Open),
            application_keys,
        })
    }

    /// The operators' commands waiting, oldest first, taken from the inbox
    /// (the Logout and disconnect asked stay for the connection task).
    pub(crate) fn take_operator_commands(&self) -> Vec<Request> {
        std::mem::take(&mut self.inbox().commands.operator)
    }

    /// Whether the session takes connections, is held or removed.
    pub(crate) fn gate(&self) -> Gate {
        *self.gate.borrow()
    }

    pub(crate) fn set_gate(&self, gate: Gate) {
        self.gate.send_replace(gate);
    }

    /// Waits until the gate is no longer `gate`.
    pub(crate) async fn gate_changed(&self, gate: Gate) {
        let mut rx = self.gate.subscribe();
        // The sender lives in `self`: never closed.
        let _ = rx.wait_for(|g| *g != gate).await;
    }

    /// Gives [`SessionHandle::send_now`] the session, once it is made.
    pub(crate) fn set_direct(&self, direct: Weak<dyn DirectSend>) {
        // Set once per session, by the engine that made it.
        let _ = self.direct.set(direct);
    }

    /// A buffer the connection task swaps with the queue: as large, so that
    /// the swap never leaves the senders a smaller one.
    pub(crate) fn spare_buffer(&self) -> Vec<u8> {
        Vec::with_capacity(self.capacity)
    }

    fn inbox(&self) -> MutexGuard<'_, Inbox> {
        // Every holder leaves the bytes and the commands whole: a panic
        // elsewhere while holding it cannot have broken them.
        self.inbox.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes every queued record into `spare` (empty, of the queue's capacity),
    /// leaving the senders `spare`'s allocation.
    pub(crate) fn take_queued(&self, spare: &mut Vec<u8>) {
        debug_assert!(spare.is_empty());
        std::mem::swap(&mut self.inbox().queue, spare);
    }

    /// Puts `rest`, records taken by [`take_queued`](Self::take_queued) and
    /// not handed to the session, back at the front of the queue, ahead of
    /// what was queued since: the session failed (or the connection ended)
    /// before it had them, and a message `send` accepted is never dropped.
    /// The queue may pass its capacity by them, refusing sends until it
    /// drains.
    pub(crate) fn requeue(&self, rest: &[u8]) {
        if !rest.is_empty() {
            self.inbox().queue.splice(0..0, rest.iter().copied());
        }
    }

    /// The number of messages queued and not yet taken.
    pub(crate) fn queued(&self) -> usize {
        records(&self.inbox().queue).count()
    }

    fn tickets(&self) -> MutexGuard<'_, Tickets> {
        self.tickets.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Tells a tracked send its outcome.
    pub(crate) fn settle(&self, ticket: u64, outcome: Result<u64, NotSent>) {
        if let Some(tx) = self.tickets().waiting.remove(&ticket) {
            // The sender may have stopped waiting: nothing to tell then.
            let _ = tx.send(outcome);
        }
    }

    /// Drops every message still queued, telling tracked sends `why`;
    /// returns how many were dropped.
    pub(crate) fn drop_queued(&self, why: &NotSent) -> usize {
        let mut queued = std::mem::take(&mut self.inbox().queue);
        let mut dropped = 0;
        for r in records(&queued) {
            dropped += 1;
            if r.ticket != 0 {
                self.settle(r.ticket, Err(why.clone()));
            }
        }
        // The senders keep the queue's allocation.
        queued.clear();
        let q = &mut self.inbox().queue;
        if q.is_empty() && q.capacity() < queued.capacity() {
            *q = queued;
        }
        dropped
    }

    /// Gives the connection task `command` and wakes it (an operator's
    /// while the caller holds the session's cell, which a task has).
    pub(crate) fn command(&self, command: Command) {
        self.inbox().commands.add(command);
        self.wake.notify_one();
    }

    /// Whether a command waits for the connection task.
    pub(crate) fn has_commands(&self) -> bool {
        !self.inbox().commands.is_empty()
    }

    pub(crate) fn take_commands(&self) -> Commands {
        std::mem::take(&mut self.inbox().commands)
    }

    /// Forgets a Logout or disconnect asked while no connection ran (stale
    /// for the next one); operators' commands stay, each to be answered.
    pub(crate) fn clear_stale_commands(&self) {
        let mut inbox = self.inbox();
        let operator = std::mem::take(&mut inbox.commands.operator);
        inbox.commands = Commands {
            operator,
            ..Commands::default()
        };
    }

    /// Publishes the session's state, when it changed.
    pub(crate) fn set_state(&self, state: State) {
        let byte = state_byte(state);
        let was = self.state.swap(byte, Ordering::AcqRel);
        if state == State::LoggedOn && was != byte {
            self.logons.fetch_add(1, Ordering::AcqRel);
        }
        if was != byte {
            self.state_changed.notify_waiters();
        }
    }

    /// Records the peer's certificate (DER) of the connection starting.
    pub(crate) fn set_peer_certificate(&self, der: Option<Vec<u8>>) {
        let der = der.map(Arc::from);
        *self
            .peer_certificate
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = der;
    }

    /// How many times the session has logged on.
    pub(crate) fn logons(&self) -> u64 {
        self.logons.load(Ordering::Acquire)
    }

    fn state(&self) -> State {
        match self.state.load(Ordering::Acquire) {
            1 => State::AwaitingLogon,
            2 => State::LoggedOn,
            3 => State::LogoutSent,
            _ => State::Disconnected,
        }
    }
}

fn state_byte(state: State) -> u8 {
    match state {
        State::Disconnected => 0,
        State::AwaitingLogon => 1,
        State::LoggedOn => 2,
        State::LogoutSent => 3,
    }
}

/// How large a typed message [`SessionHandle::send_message_now`] encodes on the
/// caller's stack; a larger one goes through the queue.
const DIRECT_ROOM: usize = 4096;

/// What [`SessionHandle::send_message`] leaves room for in the queue before it
/// knows a message's size: most messages fit, a larger one is encoded again
/// into the room it asked for.
const SEND_ROOM: usize = 512;

/// Appends a record's head: MsgType length, body length, ticket, when queued.
fn push_record_head(q: &mut Vec<u8>, mt_len: u8, body_len: u32, ticket: u64) {
    q.push(mt_len);
    q.extend_from_slice(&body_len.to_le_bytes());
    q.extend_from_slice(&ticket.to_le_bytes());
    let queued_at = crate::clock::mono().as_nanos() as u64;
    q.extend_from_slice(&queued_at.to_le_bytes());
}

/// Encodes `msg`'s fields into the queue `q` from `at` on (`q` is `at` long),
/// within `capacity`; returns their length, `q` then longer (the caller
/// truncates). The room is zeroed as it is handed to the encoder, a few
/// hundred bytes (a larger message is encoded again into the room it asks
/// for), not the whole queue: the lock is held for about a copy.
fn encode_in_queue<M: MessageBody + ?Sized>(
    q: &mut Vec<u8>,
    at: usize,
    capacity: usize,
    msg: &M,
) -> Result<usize, SendError> {
    let encode = |q: &mut Vec<u8>, room: usize| {
        q.resize(at + room, 0);
        let mut enc = fix_core::Encoder::fields(&mut q[at..]);
        msg.write_body(&mut enc)?;
        enc.finish().map(<[u8]>::len)
    };
    let room = (capacity - at).min(SEND_ROOM);
    match encode(q, room) {
        Err(fix_core::EncodeError::BufferTooSmall { needed }) if at + needed <= capacity => {
            encode(q, needed).map_err(SendError::Encode)
        }
        Err(fix_core::EncodeError::BufferTooSmall { needed }) => {
            // Too large for the queue even empty, or for what is left of it.
            let record = RECORD_HEADER + M::MSG_TYPE.len() + needed;
            if record > capacity || u32::try_from(needed).is_err() {
                Err(SendError::TooLarge)
            } else {
                Err(SendError::Full)
            }
        }
        other => other.map_err(SendError::Encode),
    }
}

/// The records in `bytes`, in order.
pub(crate) fn records(mut bytes: &[u8]) -> impl Iterator<Item = Record<'_>> {
    std::iter::from_fn(move || {
        let (head, rest) = bytes.split_first_chunk::<RECORD_HEADER>()?;
        let mt = usize::from(head[0]);
        let body = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&head[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let (msg_type, rest) = rest.split_at(mt);
        let (body, rest) = rest.split_at(body);
        bytes = rest;
        Some(Record {
            ticket: word(5),
            queued_at: std::time::Duration::from_nanos(word(13)),
            msg_type,
            body,
        })
    })
}

/// A session's handle: cheap to clone, usable from any task, a timer or an
/// [`Application`](fix_session::Application) callback.
///
/// [`send`](Self::send) copies the message into the session's bounded queue
/// (no allocation) and wakes its connection task, which hands it to the session
/// (header, sequence number, store, then the socket) in the order queued. It
/// never waits: a full queue is [`SendError::Full`].
///
/// ```no_run
/// # async fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) -> Result<(), Box<dyn std::error::Error>> {
/// use fix_session::{SessionId, State};
/// let handle = engine.session(&SessionId::new("FIX.4.4", "CLIENT1", "EXECUTOR")).unwrap();
/// handle.wait_for(State::LoggedOn).await;
/// handle.send(b"D", b"11=ORD1\x0155=EUR/USD\x0154=1\x0160=20240101-00:00:00\x0140=1\x01")?;
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct SessionHandle {
    shared: Arc<Shared>,
}

impl SessionHandle {
    pub(crate) fn new(shared: Arc<Shared>) -> SessionHandle {
        SessionHandle { shared }
    }

    /// The session's ID.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) {
    /// println!("{}", handle.id());
    /// # }
    /// ```
    pub fn id(&self) -> &SessionId {
        &self.shared.id
    }

    /// Where the session is now.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) {
    /// if handle.state() == fix_session::State::LoggedOn { /* send */ }
    /// # }
    /// ```
    pub fn state(&self) -> State {
        self.shared.state()
    }

    /// Waits until the session is in `state` (at once if it is).
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) {
    /// handle.wait_for(fix_session::State::LoggedOn).await;
    /// # }
    /// ```
    pub async fn wait_for(&self, state: State) {
        loop {
            // Waiting before the state is read: a change in between wakes it.
            let changed = self.shared.state_changed.notified();
            let mut changed = std::pin::pin!(changed);
            changed.as_mut().enable();
            if self.shared.state() == state {
                return;
            }
            changed.await;
        }
    }

    /// Queues an application message of `msg_type` whose body fields are `body`
    /// (`tag=value<SOH>`, e.g. from a typed builder); the session writes the
    /// header and trailer. The connection task takes the queue while the
    /// session is logged on: a message queued while the Logon is exchanged
    /// (from [`Application::on_logon`](fix_session::Application::on_logon), say)
    /// goes once it is. `Ok` means the message will be sent: one still queued
    /// when the connection ends stays queued, and goes after the next Logon
    /// (with the sequence numbers of then; the session never sent it). A
    /// message the counterparty could not read as FIX fields is refused here,
    /// before it is queued ([`SendError::Malformed`]).
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) {
    /// match handle.send(b"D", b"11=ORD1\x0154=1\x01") {
    ///     Ok(()) => {}
    ///     Err(fix_engine::SendError::Full) => { /* the peer is slow: retry later */ }
    ///     Err(e) => eprintln!("{e}"),
    /// }
    /// // No SOH after the last value: refused, never numbered.
    /// assert!(matches!(handle.send(b"D", b"11=ORD2"), Err(fix_engine::SendError::Malformed(_))));
    /// # }
    /// ```
    pub fn send(&self, msg_type: &[u8], body: &[u8]) -> Result<(), SendError> {
        self.enqueue(msg_type, body, 0)
    }

    /// Queues like [`send`](Self::send), and tells when the message is
    /// durable and with which MsgSeqNum: the [`Sent`] future resolves after
    /// the store's sync that covers the message (group commit; at once for a
    /// memory store), before its bytes are written, or to [`NotSent`] if that
    /// never happens (the engine stopped with it queued, the store failed). A
    /// message still queued when a connection ends waits for the next Logon,
    /// as with `send`. Costs one small allocation a message (the future's
    /// channel), which `send` does not.
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) {
    /// match handle.send_tracked(b"D", b"11=ORD1\x0154=1\x01") {
    ///     Ok(sent) => match sent.await {
    ///         Ok(seq) => println!("durable as MsgSeqNum {seq}"),
    ///         Err(e) => eprintln!("never sent: {e}"),
    ///     },
    ///     Err(e) => eprintln!("not queued: {e}"),
    /// }
    /// # }
    /// ```
    pub fn send_tracked(&self, msg_type: &[u8], body: &[u8]) -> Result<Sent, SendError> {
        self.tracked(|ticket| self.enqueue(msg_type, body, ticket))
    }

    /// Queues a typed message as [`send`](Self::send) queues bytes: a
    /// generated builder (`&report`), or one behind the header fields the
    /// application sets (`&header.with_body(&order)`), its fields encoded
    /// straight into the session's queue under the queue's lock (no
    /// allocation, no message built and parsed again). A required field left
    /// unset is [`SendError::Encode`], and nothing is queued.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle, order: fix44::messages::NewOrderSingleBuilder<'_>) {
    /// match handle.send_message(&order) {
    ///     Ok(()) => {}
    ///     Err(fix_engine::SendError::Full) => { /* the peer is slow: retry later */ }
    ///     Err(e) => eprintln!("{e}"),
    /// }
    /// # }
    /// ```
    pub fn send_message<M: MessageBody + ?Sized>(&self, msg: &M) -> Result<(), SendError> {
        self.enqueue_message(msg, 0)
    }

    /// [`send_tracked`](Self::send_tracked) for a typed message, encoded as
    /// [`send_message`](Self::send_message) encodes it.
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle, order: fix44::messages::NewOrderSingleBuilder<'_>) -> Result<(), Box<dyn std::error::Error>> {
    /// let seq = handle.send_message_tracked(&order)?.await?;
    /// println!("durable as MsgSeqNum {seq}");
    /// # Ok(()) }
    /// ```
    pub fn send_message_tracked<M: MessageBody + ?Sized>(
        &self,
        msg: &M,
    ) -> Result<Sent, SendError> {
        self.tracked(|ticket| self.enqueue_message(msg, ticket))
    }

    /// Registers a tracked send's ticket, queues with `enqueue`, and forgets
    /// the ticket again when that fails.
    fn tracked(
        &self,
        enqueue: impl FnOnce(u64) -> Result<(), SendError>,
    ) -> Result<Sent, SendError> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let ticket = {
            let mut tickets = self.shared.tickets();
            tickets.last += 1;
            let ticket = tickets.last;
            tickets.waiting.insert(ticket, tx);
            ticket
        };
        match enqueue(ticket) {
            Ok(()) => Ok(Sent(rx)),
            Err(e) => {
                self.shared.tickets().waiting.remove(&ticket);
                Err(e)
            }
        }
    }

    /// Copies a record into the queue and wakes the task when it was empty.
    fn enqueue(&self, msg_type: &[u8], body: &[u8], ticket: u64) -> Result<(), SendError> {
        let (len, mt_len) = self.record_len(msg_type, body)?;
        self.connected()?;
        let was_empty = {
            let mut inbox = self.shared.inbox();
            let q = &mut inbox.queue;
            if q.len() + len > self.shared.capacity {
                return Err(SendError::Full);
            }
            let was_empty = q.is_empty();
            // `record_len` refused a body past u32::MAX.
            push_record_head(q, mt_len, body.len() as u32, ticket);
            q.extend_from_slice(msg_type);
            q.extend_from_slice(body);
            was_empty
        };
        self.woken(was_empty);
        Ok(())
    }

    /// Encodes a typed message's record into the queue (its body length
    /// written once the body is), checks it as `enqueue` checks bytes, and
    /// wakes the task when the queue was empty.
    fn enqueue_message<M: MessageBody + ?Sized>(
        &self,
        msg: &M,
        ticket: u64,
    ) -> Result<(), SendError> {
        let msg_type = M::MSG_TYPE;
        let mt_len = u8::try_from(msg_type.len()).map_err(|_| SendError::TooLarge)?;
        self.connected()?;
        let capacity = self.shared.capacity;
        let was_empty = {
            let mut inbox = self.shared.inbox();
            let q = &mut inbox.queue;
            let start = q.len();
            let body_at = start + RECORD_HEADER + msg_type.len();
            if body_at > capacity {
                // Even an empty body would not fit: ever, or now.
                let never = RECORD_HEADER + msg_type.len() > capacity;
                return Err(if never {
                    SendError::TooLarge
                } else {
                    SendError::Full
                });
            }
            push_record_head(q, mt_len, 0, ticket);
            q.extend_from_slice(msg_type);
            let encoded = encode_in_queue(q, body_at, capacity, msg)
                .and_then(|n| self.checked(msg_type, &q[body_at..body_at + n]).map(|()| n))
                // A queue configured past 4 GiB could hold a body its
                // record's length field cannot say: refused, never wrapped.
                .and_then(|n| {
                    u32::try_from(n)
                        .map(|len| (n, len))
                        .map_err(|_| SendError::TooLarge)
                });
            match encoded {
                Ok((n, len)) => {
                    q.truncate(body_at + n);
                    q[start + 1..start + 5].copy_from_slice(&len.to_le_bytes());
                }
                Err(e) => {
                    q.truncate(start);
                    return Err(e);
                }
            }
            start == 0
        };
        self.woken(was_empty);
        Ok(())
    }

    /// [`SendError::NotConnected`] unless the session takes sends now.
    fn connected(&self) -> Result<(), SendError> {
        match self.shared.state() {
            State::AwaitingLogon | State::LoggedOn => Ok(()),
            _ => Err(SendError::NotConnected),
        }
    }

    /// Wakes the task for a record queued into an empty queue: the task takes
    /// the whole queue when woken, one wake-up per batch.
    fn woken(&self, was_empty: bool) {
        if was_empty {
            self.shared.wake.notify_one();
        }
    }

    /// The session's check of a body it is given ([`fix_session::check_outgoing`]).
    fn checked(&self, msg_type: &[u8], body: &[u8]) -> Result<(), SendError> {
        fix_session::check_outgoing(&self.shared.parser, msg_type, body)
            .map_err(SendError::Malformed)
    }

    /// Sends like [`send`](Self::send), but from the calling thread when it
    /// can, as QuickFIX's `sendToTarget` does: if the session is logged on and
    /// free this moment, it is given the message here (header, sequence
    /// number, store) and its bytes are written to the socket before this
    /// returns, with no wake-up of the connection task on the way. When the
    /// session is busy (its task reading, another sender in it, a callback of
    /// its own calling this), the message is queued as `send` queues it, and
    /// the errors are `send`'s. It never waits for the session.
    ///
    /// For a latency-critical message from a thread of your own; a burst is
    /// cheaper through `send`, whose queue the task takes whole, with one write
    /// for many messages.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) -> Result<(), fix_engine::SendError> {
    /// handle.send_now(b"D", b"11=ORD1\x0155=EUR/USD\x0154=1\x0160=20240101-00:00:00\x0140=1\x01")?;
    /// # Ok(()) }
    /// ```
    pub fn send_now(&self, msg_type: &[u8], body: &[u8]) -> Result<(), SendError> {
        self.send_now_or(msg_type, body, || self.send(msg_type, body))
    }

    /// [`send_now`](Self::send_now) for a typed message: encoded into a buffer
    /// on the caller's stack (no allocation), which the session takes when it
    /// is free this moment; otherwise queued as
    /// [`send_message`](Self::send_message) queues it (so is a message larger
    /// than that buffer, 4 KiB).
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle, order: fix44::messages::NewOrderSingleBuilder<'_>) -> Result<(), fix_engine::SendError> {
    /// handle.send_message_now(&order)?;
    /// # Ok(()) }
    /// ```
    pub fn send_message_now<M: MessageBody + ?Sized>(&self, msg: &M) -> Result<(), SendError> {
        let mut buf = [0u8; DIRECT_ROOM];
        let mut enc = fix_core::Encoder::fields(&mut buf);
        msg.write_body(&mut enc).map_err(SendError::Encode)?;
        match enc.finish() {
            Ok(body) => self.send_now_or(M::MSG_TYPE, body, || self.send_message(msg)),
            Err(fix_core::EncodeError::BufferTooSmall { .. }) => self.send_message(msg),
            Err(e) => Err(SendError::Encode(e)),
        }
    }

    /// Gives the session the message from this thread if it is free, else
    /// `queue`s it.
    fn send_now_or(
        &self,
        msg_type: &[u8],
        body: &[u8],
        queue: impl FnOnce() -> Result<(), SendError>,
    ) -> Result<(), SendError> {
        if let Some(direct) = self.shared.direct.get().and_then(Weak::upgrade)
            && self.record_len(msg_type, body).is_ok()
            && direct.send_now(&self.shared, msg_type, body)
        {
            return Ok(());
        }
        queue()
    }

    /// The length of the message's queue record and its MsgType's, or
    /// [`SendError::TooLarge`] for a message the queue can never hold (which
    /// `send_now` refuses too, for one answer whichever way it would go).
    fn record_len(&self, msg_type: &[u8], body: &[u8]) -> Result<(usize, u8), SendError> {
        // The record's length fields are a byte and four: a longer MsgType or
        // body is refused, whatever the queue's capacity.
        let (Ok(mt_len), Ok(_)) = (u8::try_from(msg_type.len()), u32::try_from(body.len())) else {
            return Err(SendError::TooLarge);
        };
        let len = RECORD_HEADER + msg_type.len() + body.len();
        if len > self.shared.capacity {
            return Err(SendError::TooLarge);
        }
        // Refused here, to the caller (the session takes what the queue
        // holds as checked: Session::send_prechecked).
        fix_session::check_outgoing(&self.shared.parser, msg_type, body)
            .map_err(SendError::Malformed)?;
        Ok((len, mt_len))
    }

    /// The certificate (DER) the counterparty presented on the session's
    /// current or last TLS connection (its own, the first of its chain), for
    /// an application that checks more than the engine does; `None` over
    /// plain TCP or without a client certificate.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) {
    /// if let Some(der) = handle.peer_certificate() {
    ///     println!("the counterparty's certificate: {} bytes", der.len());
    /// }
    /// # }
    /// ```
    pub fn peer_certificate(&self) -> Option<Arc<[u8]>> {
        self.shared
            .peer_certificate
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The session's application keys: the keys of its settings that no
    /// QuickFIX implementation documents and the engine does not read, with
    /// their values (see
    /// [`SessionSettings::application_keys`](crate::config::SessionSettings::application_keys)),
    /// for the application to read as QuickFIX's reads the session's
    /// `Dictionary`; a session made from an acceptor template has its
    /// template's.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) {
    /// let logon_type = handle.application_keys().get("LogonType").copied();
    /// # }
    /// ```
    pub fn application_keys(&self) -> BTreeMap<&str, &str> {
        self.shared
            .application_keys
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }

    /// Starts a Logout (the session ends when it is answered, or after
    /// LogoutTimeout); a session that is connected but not logged on is
    /// disconnected. Messages queued before it are sent first.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) {
    /// handle.logout();
    /// # }
    /// ```
    pub fn logout(&self) {
        self.shared.command(Command::Logout { by_app: true });
    }

    /// Closes the session's connection at once, without a Logout: what the
    /// session has not yet written to the socket is not sent (it is stored,
    /// and resent when the counterparty asks), and what is queued waits for
    /// the next Logon. An initiator connects again after its ReconnectInterval.
    ///
    /// ```no_run
    /// # fn f(handle: fix_engine::SessionHandle) {
    /// handle.disconnect();
    /// # }
    /// ```
    pub fn disconnect(&self) {
        self.shared.command(Command::Disconnect { by_app: true });
    }

    /// Does an operator's command on the session (see [`OperatorCommand`])
    /// and answers with its status after it: through the session, under its
    /// lock — at once while no connection runs it, else in its connection
    /// task's next step — with an event in its log. Never call it from the
    /// session's own callbacks and wait: the step that would do it is the one
    /// running them.
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) -> Result<(), fix_engine::OperatorError> {
    /// use fix_engine::OperatorCommand;
    /// let status = handle.operate(OperatorCommand::SetNext { sender: Some(120), target: Some(87) }).await?;
    /// assert_eq!(status.next_sender_seq, 120);
    /// # Ok(()) }
    /// ```
    pub async fn operate(&self, command: OperatorCommand) -> Result<SessionStatus, OperatorError> {
        self.removed()?;
        self.admin_unchecked(command).await
    }

    /// [`operate`](Self::operate), on a session being removed too.
    pub(crate) async fn admin_unchecked(
        &self,
        command: OperatorCommand,
    ) -> Result<SessionStatus, OperatorError> {
        let cell = self.cell()?;
        let (reply, answer) = tokio::sync::oneshot::channel();
        let mut request = Request { command, reply };
        // As the connection task does: a step or a direct sender holds the
        // session for a moment; this task yields rather than block its thread.
        while let Some(back) = cell.operate(&self.shared, request) {
            request = back;
            tokio::task::yield_now().await;
        }
        drop(cell);
        answer.await.unwrap_or(Err(OperatorError::Stopped))
    }

    /// The session's status (state, connection, hold, sequence numbers),
    /// read under its lock.
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) -> Result<(), fix_engine::OperatorError> {
    /// println!("{}", handle.status().await?);
    /// # Ok(()) }
    /// ```
    pub async fn status(&self) -> Result<SessionStatus, OperatorError> {
        self.removed()?;
        let cell = self.cell()?;
        loop {
            if let Some(status) = cell.status(&self.shared) {
                return Ok(status);
            }
            tokio::task::yield_now().await;
        }
    }

    /// [`operate`](Self::operate) with [`OperatorCommand::SetNext`].
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) -> Result<(), fix_engine::OperatorError> {
    /// handle.set_next_seq_nums(Some(120), Some(87)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn set_next_seq_nums(
        &self,
        sender: Option<u64>,
        target: Option<u64>,
    ) -> Result<SessionStatus, OperatorError> {
        self.operate(OperatorCommand::SetNext { sender, target })
            .await
    }

    /// [`operate`](Self::operate) with [`OperatorCommand::Reset`].
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) -> Result<(), fix_engine::OperatorError> {
    /// handle.reset().await?;
    /// # Ok(()) }
    /// ```
    pub async fn reset(&self) -> Result<SessionStatus, OperatorError> {
        self.operate(OperatorCommand::Reset).await
    }

    /// [`operate`](Self::operate) with [`OperatorCommand::Hold`].
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) -> Result<(), fix_engine::OperatorError> {
    /// handle.hold().await?;
    /// # Ok(()) }
    /// ```
    pub async fn hold(&self) -> Result<SessionStatus, OperatorError> {
        self.operate(OperatorCommand::Hold).await
    }

    /// [`operate`](Self::operate) with [`OperatorCommand::Release`].
    ///
    /// ```no_run
    /// # async fn f(handle: fix_engine::SessionHandle) -> Result<(), fix_engine::OperatorError> {
    /// handle.release().await?;
    /// # Ok(()) }
    /// ```
    pub async fn release(&self) -> Result<SessionStatus, OperatorError> {
        self.operate(OperatorCommand::Release).await
    }

    /// An error for a session removed from its engine.
    fn removed(&self) -> Result<(), OperatorError> {
        match self.shared.gate() {
            Gate::Removed => Err(OperatorError::NoSuchSession(self.shared.id.store_name())),
            Gate::Open | Gate::Held => Ok(()),
        }
    }

    /// The session's cell, while the engine has it.
    fn cell(&self) -> Result<Arc<dyn DirectSend>, OperatorError> {
        self.shared
            .direct
            .get()
            .and_then(Weak::upgrade)
            .ok_or(OperatorError::Stopped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logged_on(capacity: usize) -> SessionHandle {
        let shared = Shared::new(
            SessionId::new("FIX.4.4", "A", "B"),
            capacity,
            fix_core::Parser::new(),
            BTreeMap::new(),
        );
        shared.set_state(State::LoggedOn);
        SessionHandle::new(shared)
    }

    #[test]
    fn records_come_back_in_order_and_a_full_queue_refuses() {
        let h = logged_on(2 * (RECORD_HEADER + 1 + 5));
        h.send(b"D", b"11=1\x01").unwrap();
        h.send(b"8", b"11=2\x01").unwrap();
        assert_eq!(h.send(b"D", b"11=3\x01"), Err(SendError::Full));
        let mut spare = h.shared.spare_buffer();
        h.shared.take_queued(&mut spare);
        let got: Vec<_> = records(&spare).map(|r| (r.msg_type, r.body)).collect();
        assert_eq!(got, [(&b"D"[..], &b"11=1\x01"[..]), (b"8", b"11=2\x01")]);
        // The senders have the spare buffer now, empty.
        h.send(b"D", b"11=3\x01").unwrap();
        assert_eq!(h.shared.queued(), 1);
        // The session took the first of the two and failed: the second goes
        // back ahead of the one queued since.
        let first = records(&spare).next().unwrap().size();
        h.shared.requeue(&spare[first..]);
        spare.clear();
        h.shared.take_queued(&mut spare);
        let got: Vec<_> = records(&spare).map(|r| (r.msg_type, r.body)).collect();
        assert_eq!(got, [(&b"8"[..], &b"11=2\x01"[..]), (b"D", b"11=3\x01")]);
        // All handed: nothing goes back.
        h.shared.requeue(&spare[spare.len()..]);
        assert_eq!(h.shared.queued(), 0);
    }

    /// A Heartbeat builder answering TestReqID `id`.
    fn heartbeat(id: &str) -> fix44::messages::HeartbeatBuilder<'_> {
        fix44::messages::HeartbeatBuilder {
            test_req_id: Some(fix_core::value::FixStr::parse(id.as_bytes()).unwrap()),
        }
    }

    #[test]
    fn a_typed_message_is_encoded_into_the_queue_or_refused_whole() {
        use fix_core::typed::AppHeader;
        let h = logged_on(3 * (RECORD_HEADER + 1 + 16));
        let header = fix44::components::HeaderBuilder {
            on_behalf_of_comp_id: Some(fix_core::value::FixStr::parse(b"DESK").unwrap()),
            ..Default::default()
        };
        h.send_message(&header.with_body(&heartbeat("T1"))).unwrap();
        let long = "x".repeat(1000);
        // Larger than the first room given, smaller than the rest of the queue.
        let big = logged_on(4096);
        big.send_message(&heartbeat(&long)).unwrap();
        assert_eq!(big.shared.queued(), 1);
        // Larger than the whole queue: never; larger than what is left: not now.
        assert_eq!(h.send_message(&heartbeat(&long)), Err(SendError::TooLarge));
        h.send_message(&heartbeat("T2")).unwrap();
        assert_eq!(
            h.send_message(&heartbeat(&"T3".repeat(20))),
            Err(SendError::Full)
        );
        // A required field unset: refused, nothing left behind.
        let order = fix44::messages::NewOrderSingleBuilder::default();
        let missing = fix_core::EncodeError::MissingRequired { tag: 11 };
        assert_eq!(h.send_message(&order), Err(SendError::Encode(missing)));
        let mut spare = h.shared.spare_buffer();
        h.shared.take_queued(&mut spare);
        let got: Vec<_> = records(&spare).map(|r| (r.msg_type, r.body)).collect();
        assert_eq!(
            got,
            [
                (&b"0"[..], &b"115=DESK\x01112=T1\x01"[..]),
                (b"0", b"112=T2\x01")
            ]
        );
    }

    #[test]
    fn a_batch_held_back_goes_before_what_was_queued_since() {
        let h = logged_on(2 * (RECORD_HEADER + 1 + 5));
        h.send(b"D", b"11=1\x01").unwrap();
        h.send(b"D", b"11=2\x01").unwrap();
        let mut batch = Batch::new(&h.shared);
        batch.refill(&h.shared);
        let first = batch.first().unwrap();
        assert_eq!(first.body, b"11=1\x01");
        let size = first.size();
        batch.advance(size);
        // The throttle holds the second back; the senders fill the queue
        // anew, and the batch is not refilled over what it holds.
        h.send(b"D", b"11=3\x01").unwrap();
        batch.refill(&h.shared);
        assert_eq!(batch.first().unwrap().body, b"11=2\x01");
        // The connection ends: the second goes back ahead of the third.
        batch.requeue(&h.shared);
        assert!(batch.is_empty());
        batch.refill(&h.shared);
        let mut bodies = Vec::new();
        while let Some(r) = batch.first() {
            bodies.push(r.body.to_vec());
            let size = r.size();
            batch.advance(size);
        }
        assert_eq!(bodies, [b"11=2\x01".to_vec(), b"11=3\x01".to_vec()]);
    }

    #[test]
    fn a_message_larger_than_the_queue_or_off_line_is_refused() {
        let h = logged_on(32);
        assert_eq!(h.send(b"D", &[b'x'; 32]), Err(SendError::TooLarge));
        assert_eq!(h.send(&[b'D'; 256], b""), Err(SendError::TooLarge));
        h.shared.set_state(State::Disconnected);
        assert_eq!(h.send(b"D", b"1=1\x01"), Err(SendError::NotConnected));
        h.shared.set_state(State::AwaitingLogon);
        assert_eq!(h.send(b"D", b"1=1\x01"), Ok(()));
    }

    #[test]
    fn a_message_that_is_not_fix_fields_is_refused_before_it_is_queued() {
        let h = logged_on(1024);
        let malformed = |e| Err(SendError::Malformed(e));
        use fix_core::Error;
        assert_eq!(
            h.send(b"D", b"\x14"),
            malformed(Error::Unterminated { offset: 0 })
        );
        assert_eq!(
            h.send(b"D", b"11=1"),
            malformed(Error::Unterminated { offset: 0 })
        );
        assert_eq!(
            h.send(b"D", b"11=1\x01x\x01"),
            malformed(Error::InvalidTag { offset: 5 })
        );
        assert_eq!(
            h.send(b"", b"11=1\x01"),
            malformed(Error::EmptyValue { tag: 35, offset: 0 })
        );
        assert_eq!(
            h.send_now(b"D\x01", b"11=1\x01"),
            malformed(Error::EmbeddedSoh { tag: 35, offset: 1 })
        );
        assert!(h.send_tracked(b"D", b"11=1").is_err());
        assert_eq!(h.shared.queued(), 0, "nothing queued");
        assert_eq!(
            h.send(b"D", b"11=1").unwrap_err().to_string(),
            "the message is not FIX fields: the field at byte 0 has no SOH after its value"
        );
        assert_eq!(h.send(b"D", b"11=1\x01"), Ok(()));
    }
}
