//! The connection driver, one task per connection, shared by acceptor and
//! initiator: read into the session (which frames with fix-core), write what it
//! hands back, hand it what the handles queued, and sleep until its deadline
//! or the end of the schedule's period, whichever wakes first.
//!
//! The session and the connection's stream sit in a [`SessionCell`], locked by
//! the task for each step and released while it waits, so that
//! [`SessionHandle::send_now`](crate::SessionHandle::send_now) can take the
//! session from the sender's thread and write to the socket itself, as
//! QuickFIX's `sendToTarget` does: one thread wake-up fewer on the way out.

use std::any::Any;
use std::io;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, TryLockError};
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use fix_core::validate::Schema;
use fix_session::store::{ReadDone, ReadJob, ReadRange, SyncDone, SyncJob, SyncWait};

use crate::wake_hub::Via;
use fix_session::{
    Application, Event, MessageStore, Session, SessionError, State, StoreError, Time,
};
use tokio::io::{Interest, Ready};
use tokio::task::JoinHandle;
use tokio::time::Instant;

use crate::clock;
use crate::config::Schedule;
use crate::handle::{Batch, Command, Commands, DirectSend, Gate, Shared};
use crate::journal::Journal;
use crate::log::LogError;
use crate::metrics::SessionMetrics;
use crate::operator::{self, OperatorCommand, OperatorError, Request, SessionStatus};
use crate::synced_write::SyncedWrite;
use crate::transport::Stream;

/// The store of an engine's session: a file or memory store, as its settings say.
pub(crate) type Store = Box<dyn MessageStore + Send>;

/// A session and what its connections reuse, shared by its connection task and
/// the threads that [`send_now`](crate::SessionHandle::send_now) on it.
pub(crate) struct SessionCell<D: Schema>(Mutex<Slot<D>>);

/// What a [`SessionCell`] holds.
pub(crate) struct Slot<D: Schema> {
    pub(crate) session: Session<Store, D>,
    pub(crate) app: Box<dyn Application + Send>,
    /// The session's log, which every connection writes.
    pub(crate) journal: Journal,
    /// The session's metrics, which every connection updates.
    metrics: SessionMetrics,
    read_buf: Box<[u8]>,
    /// What the task took from the handles' queue (swapped with it) and the
    /// session's throttle has not let go yet.
    spare: Batch,
    /// Tracked sends the session has taken, (ticket, MsgSeqNum), told their
    /// number once the sync that covers them is done.
    taken: Vec<(u64, u64)>,
    /// The tracked sends the sync in flight covers, told when it ends.
    sync_taken: Vec<(u64, u64)>,
    /// Who has the session: nobody, a connection task, or a connection task
    /// with its stream (which direct senders write to).
    connection: Connection,
}

/// Who has a session: one owner at a time.
enum Connection {
    /// No connection task: one may claim the session, and the engine writes
    /// its events (a failed attempt) to the log.
    Idle,
    /// A connection task owns the session but has no stream in the slot: it
    /// is logging the connection's start, or it has closed the stream and
    /// the engine is writing why before it releases the session.
    Claimed,
    /// A connection task runs the session over this stream.
    Live(Live),
}

/// What [`SessionCell::sync_and_flush`] could not make durable.
pub(crate) enum Unflushed {
    /// The store's sync failed (the log was left as it was).
    Store(StoreError),
    /// The log's flush failed.
    Log(LogError),
}

/// What [`SessionCell::claim`] found.
pub(crate) enum Claim {
    /// The session is the caller's: it releases it when its connection ends.
    Claimed,
    /// Another connection task has the session.
    Busy,
    /// The caller's check said no: the session stays idle.
    Declined,
}

/// A running connection, as a direct sender needs it.
struct Live {
    stream: Stream,
    limits: Limits,
    /// Why a direct sender found the connection broken (its socket, the
    /// store, the log): the task ends the connection with it when it wakes.
    failure: Option<End>,
    /// The sync a direct sender began and left to the task to wait for (a
    /// store whose sync runs elsewhere: a database commit, say): the sender
    /// never waits for it, and its bytes leave when it ends.
    handed: Option<SyncJob>,
}

impl<D: Schema> SessionCell<D> {
    pub(crate) fn new(
        session: Session<Store, D>,
        app: Box<dyn Application + Send>,
        journal: Journal,
        shared: &Shared,
        read_buffer: usize,
    ) -> Self {
        let metrics = SessionMetrics::new(session.id());
        SessionCell(Mutex::new(Slot {
            session,
            app,
            journal,
            metrics,
            read_buf: vec![0; read_buffer].into_boxed_slice(),
            spare: Batch::new(shared),
            taken: Vec::new(),
            sync_taken: Vec::new(),
            connection: Connection::Idle,
        }))
    }

    fn lock(&self) -> MutexGuard<'_, Slot<D>> {
        // A panic while it was held (in the application, say) leaves the
        // session as a failed step would: the connection ends, the store's
        // records are whole. The engine goes on with its other sessions.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Claims the session for a connection task, unless another has it:
    /// `go` runs first, under the lock, and may decline.
    pub(crate) fn claim(&self, go: impl FnOnce() -> bool) -> Claim {
        let mut slot = self.lock();
        if !matches!(slot.connection, Connection::Idle) {
            return Claim::Busy;
        }
        if !go() {
            return Claim::Declined;
        }
        slot.connection = Connection::Claimed;
        Claim::Claimed
    }

    /// Gives back a session [`claim`](Self::claim)ed: no connection task has
    /// it any more. `why`, when given, is written to its log first (why its
    /// connection ended), under the same lock.
    pub(crate) fn release(&self, shared: &Shared, why: Option<&str>) -> Result<(), LogError> {
        let mut slot = self.lock();
        let logged = match why {
            Some(text) => slot.journal.event(SystemTime::now(), text),
            None => Ok(()),
        };
        slot.connection = Connection::Idle;
        // Operators' commands the task did not get to: done now, the
        // session idle (a logout or disconnect asked for is done already).
        for request in shared.take_operator_commands() {
            let answer = match request.command {
                OperatorCommand::Logout | OperatorCommand::Disconnect => Ok(slot.status(shared)),
                command => slot.operate_idle(shared, command),
            };
            let _ = request.reply.send(answer);
        }
        logged
    }

    /// Answers every operator's command still waiting with `why` (the
    /// engine stopped, its tasks aborted).
    pub(crate) fn refuse_operator_commands(shared: &Shared) {
        for request in shared.take_operator_commands() {
            let _ = request.reply.send(Err(OperatorError::Stopped));
        }
    }

    /// Whether no connection task has the session.
    pub(crate) fn is_idle(&self) -> bool {
        matches!(self.lock().connection, Connection::Idle)
    }

    /// Writes `text` to the session's log, unless a connection task has the
    /// session (its own events are its to write).
    pub(crate) fn event_if_idle(&self, text: &str) -> Result<(), LogError> {
        let mut slot = self.lock();
        match slot.connection {
            Connection::Idle => slot.journal.event(SystemTime::now(), text),
            Connection::Claimed | Connection::Live(_) => Ok(()),
        }
    }

    /// Writes the start of a claimed session's connection to its log.
    pub(crate) fn log_connected(&self, text: &str) -> Result<(), LogError> {
        self.lock().journal.event(SystemTime::now(), text)
    }

    /// Reads the session's store again where another engine may have
    /// written it, taking it for this engine (a PostgreSQL store's lease, a
    /// standby file store's lock); an error when another engine holds it.
    /// A no-op for a store only this engine writes.
    pub(crate) fn refresh_store(&self) -> Result<(), StoreError> {
        self.lock().session.store_mut().refresh()
    }

    /// Syncs the session's store, then flushes its log (at shutdown, the
    /// connection tasks ended or aborted between two steps).
    pub(crate) fn sync_and_flush(&self) -> Result<(), Unflushed> {
        let mut slot = self.lock();
        slot.session.store_mut().sync().map_err(Unflushed::Store)?;
        slot.journal.flush().map_err(Unflushed::Log)
    }

    /// The slot, unless someone holds it now.
    fn try_lock(&self) -> Option<MutexGuard<'_, Slot<D>>> {
        match self.0.try_lock() {
            Ok(g) => Some(g),
            Err(TryLockError::Poisoned(p)) => Some(p.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    }
}

impl<D: Schema + Send> DirectSend for SessionCell<D> {
    fn send_now(&self, shared: &Shared, msg_type: &[u8], body: &[u8]) -> bool {
        // The connection task is at work, or another sender is: the message
        // goes through the queue, which the task takes next.
        let Some(mut guard) = self.try_lock() else {
            return false;
        };
        let Slot {
            session,
            app,
            journal,
            metrics,
            spare,
            taken,
            sync_taken,
            connection,
            ..
        } = &mut *guard;
        let Connection::Live(live) = connection else {
            return false;
        };
        // A sync in flight: the message joins the task's next batch. The
        // throttle holding messages back, or letting none go now: it queues
        // behind them.
        if live.failure.is_some()
            || shared.has_commands()
            || session.sync_in_flight()
            || session.state() != State::LoggedOn
            || !room_for_sends(session, live.limits)
            || !spare.is_empty()
            || session
                .next_send_at()
                .is_some_and(|at| at.mono > clock::mono())
        {
            return false;
        }
        let direct = Direct {
            session,
            app: &mut **app,
            journal,
            metrics,
            spare,
            taken,
            sync_taken,
            live,
            shared,
        };
        direct.send(msg_type, body)
    }

    fn operate(&self, shared: &Shared, request: Request) -> Option<Request> {
        let Some(mut slot) = self.try_lock() else {
            return Some(request);
        };
        if !matches!(slot.connection, Connection::Idle) {
            // The task does it at its next step, or the engine when the
            // task releases the session (under this lock too).
            shared.command(Command::Operator(request));
            return None;
        }
        let answer = match request.command {
            OperatorCommand::Logout | OperatorCommand::Disconnect => {
                Err(OperatorError::NotConnected(shared.id.clone()))
            }
            command => slot.operate_idle(shared, command),
        };
        let _ = request.reply.send(answer);
        None
    }

    fn status(&self, shared: &Shared) -> Option<SessionStatus> {
        self.try_lock().map(|slot| slot.status(shared))
    }
}

impl<D: Schema> Slot<D> {
    /// The session's status, for an operator.
    fn status(&self, shared: &Shared) -> SessionStatus {
        let connected = !matches!(self.connection, Connection::Idle);
        status_of(&self.session, shared, connected)
    }

    /// An operator's command on a session no connection runs: done here,
    /// the store synced before the answer.
    fn operate_idle(
        &mut self,
        shared: &Shared,
        command: OperatorCommand,
    ) -> Result<SessionStatus, OperatorError> {
        let now = clock::now();
        apply_operator_command(
            &mut self.session,
            &mut *self.app,
            &mut self.journal,
            shared,
            command,
            now,
        )?;
        self.session
            .sync()
            .map_err(|error| OperatorError::Session {
                id: shared.id.clone(),
                error: Box::new(error),
            })?;
        // The metrics' numbers follow the store's.
        let Slot {
            session,
            journal,
            metrics,
            ..
        } = self;
        if let Err(error) = forward_events(session, journal, metrics, shared, now.wall) {
            tracing::error!(%error, "the log could not be written");
        }
        Ok(self.status(shared))
    }
}

/// Does an operator's command in the session, writing its event to the log;
/// what it leaves the connection to do (a Logout, a disconnect). Logout and
/// disconnect reach here only while a connection runs.
fn apply_operator_command<D: Schema>(
    session: &mut Session<Store, D>,
    app: &mut dyn Application,
    journal: &mut Journal,
    shared: &Shared,
    command: OperatorCommand,
    now: Time,
) -> Result<Option<Command>, OperatorError> {
    let failed = |error| OperatorError::Session {
        id: shared.id.clone(),
        error: Box::new(error),
    };
    let mut leaves = None;
    let mut reset_now = false;
    match command {
        OperatorCommand::SetNext { sender, target } => {
            session
                .set_next_seq_nums(now, sender, target)
                .map_err(failed)?;
        }
        OperatorCommand::Reset => {
            let state = session.state();
            reset_now = session.reset(now, app).map_err(failed)?;
            // Not logged on yet: the connection ends, and the store is reset
            // as it does.
            if state == State::AwaitingLogon {
                leaves = Some(Command::Disconnect { by_app: false });
            }
        }
        OperatorCommand::Logout => leaves = Some(Command::Logout { by_app: false }),
        OperatorCommand::Disconnect => leaves = Some(Command::Disconnect { by_app: false }),
        OperatorCommand::Hold => shared.set_gate(Gate::Held),
        OperatorCommand::Release => shared.set_gate(Gate::Open),
    }
    let next = (
        session.store().next_sender_seq(),
        session.store().next_target_seq(),
    );
    let text = operator::event_text(command, next, reset_now);
    tracing::info!(session = %shared.id, "{text}");
    if let Err(error) = journal.event(now.wall, &text) {
        // Done all the same: the log's failure is the connection's to meet.
        tracing::error!(%error, "the log could not be written");
    }
    Ok(leaves)
}

/// A session's status as an operator sees it (`connected`: a connection
/// task has it), the one place it is made.
fn status_of<D: Schema>(
    session: &Session<Store, D>,
    shared: &Shared,
    connected: bool,
) -> SessionStatus {
    SessionStatus {
        id: shared.id.clone(),
        state: session.state(),
        connected,
        held: shared.gate() == Gate::Held,
        next_sender_seq: session.store().next_sender_seq(),
        next_target_seq: session.store().next_target_seq(),
    }
}

/// A message sent from the sender's thread, the slot held: what it needs.
struct Direct<'a, D: Schema> {
    session: &'a mut Session<Store, D>,
    app: &'a mut dyn Application,
    journal: &'a mut Journal,
    metrics: &'a mut SessionMetrics,
    spare: &'a mut Batch,
    taken: &'a mut Vec<(u64, u64)>,
    sync_taken: &'a mut Vec<(u64, u64)>,
    live: &'a mut Live,
    shared: &'a Shared,
}

impl<D: Schema> Direct<'_, D> {
    /// Sends what others queued, then this message, syncs once and writes;
    /// whether the message was taken (else the caller queues it).
    fn send(mut self, msg_type: &[u8], body: &[u8]) -> bool {
        let now = clock::now();
        let flush_armed = self.journal.flush_due().is_some();
        let took = match self.take(now, msg_type, body) {
            Ok(took) => took,
            Err(e) => {
                // Not sent: queued by the caller, for the next connection.
                self.fail(e);
                return false;
            }
        };
        if let Err(e) = self.begin_durable() {
            self.fail(e);
            return took;
        }
        let failure = match forward_events(
            self.session,
            self.journal,
            self.metrics,
            self.shared,
            now.wall,
        ) {
            Err(e) => Some(End::Log(e)),
            Ok(()) => write(&mut self.live.stream, self.session)
                .err()
                .map(End::Io),
        };
        self.leave_to_task(failure, flush_armed);
        took
    }

    /// Hands the session what others queued, then this message: one
    /// sender's messages keep their order. What the throttle holds back of
    /// theirs, or this message if it is over the limit, is the task's
    /// (`false`: the caller queues it).
    fn take(&mut self, now: Time, msg_type: &[u8], body: &[u8]) -> Result<bool, SessionError> {
        let (old, _) = send_queued(
            self.session,
            self.app,
            self.shared,
            self.spare,
            self.taken,
            self.live.limits,
            now,
        )?;
        report_too_old(self.journal, old, now);
        if !self.spare.is_empty() {
            return Ok(false);
        }
        match self.session.send_prechecked(now, msg_type, body, self.app) {
            Ok(_) => Ok(true),
            Err(SessionError::Throttled) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Durable before it leaves: one sync (group commit) for what others
    /// queued and this message, made here when the store syncs in place; a
    /// sync that runs elsewhere (a database's commit) is the task's to wait
    /// for, and the sender goes on.
    fn begin_durable(&mut self) -> Result<(), SessionError> {
        match self.session.begin_sync()? {
            Some(job) => {
                // No sync was in flight (the caller checked), so the task
                // has told every send of the last one.
                debug_assert!(self.sync_taken.is_empty());
                std::mem::swap(self.taken, self.sync_taken);
                self.live.handed = Some(job);
            }
            None => settle(self.shared, self.taken, None),
        }
        Ok(())
    }

    /// The session failed: its tracked sends are told, and the task ends
    /// the connection when it wakes.
    fn fail(&mut self, e: SessionError) {
        settle(self.shared, self.taken, Some(&e));
        self.live.failure = Some(End::Failed(e));
        self.shared.wake.notify_one();
    }

    /// Wakes the task for what this left it: a sync to wait for, a write
    /// the socket did not take, the log's flush, queued messages, the end
    /// of a broken connection.
    fn leave_to_task(&mut self, failure: Option<End>, flush_armed: bool) {
        if failure.is_some()
            || self.live.handed.is_some()
            || !self.session.output().is_empty()
            || self.live.stream.has_unsent()
            || (!flush_armed && self.journal.flush_due().is_some())
            || !self.spare.is_empty()
        {
            self.live.failure = failure;
            self.shared.wake.notify_one();
        }
    }
}

/// Limits of one connection.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// Above this many bytes of unwritten output, the task stops taking queued
    /// messages: a slow peer holds what the handles add near this bound, and
    /// the senders see a full queue. Reading goes on: a peer waiting for us to
    /// read before it reads would otherwise wait for ever.
    pub(crate) output_high_water: usize,
    /// Above this many, the task stops reading too: what the application
    /// answers from its callbacks is bounded as well.
    pub(crate) max_output: usize,
    /// How long a connection that is closing keeps writing what is left.
    pub(crate) linger: Duration,
    /// The store's sync interval (`SyncPolicy::Interval`): the task syncs it
    /// this often.
    pub(crate) sync_every: Option<Duration>,
    /// How long a queued message may wait before it is dropped unsent.
    pub(crate) max_queued_age: Option<Duration>,
    /// What the end of a connection does with what is still queued.
    pub(crate) queued_while_down: crate::QueuedWhileDown,
}

/// Why a connection ended (for the engine's events).
#[derive(Debug)]
pub(crate) enum End {
    /// The session asked for it (Logout exchanged, a timeout, a refusal).
    Session,
    /// The counterparty closed the connection.
    PeerClosed,
    /// [`crate::SessionHandle::disconnect`].
    Disconnected,
    /// The socket failed.
    Io(io::Error),
    /// The session failed (its store).
    Failed(SessionError),
    /// The session's log could not be written: the connection ends rather
    /// than trade without the log its settings ask for.
    Log(LogError),
    /// The application panicked in a callback: the connection ends, the
    /// session stays (the message it was given is not counted as received,
    /// so the counterparty sends it again), and the engine goes on.
    Panicked(Box<dyn Any + Send>),
}

impl End {
    /// A panic's message, when it has one.
    pub(crate) fn panic_message(payload: &(dyn Any + Send)) -> &str {
        payload
            .downcast_ref::<&str>()
            .copied()
            .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("a panic without a message")
    }
}

/// Polls a connection's future, turning a panic in it (an application
/// callback's) into `Err`, so that the session is put back in order after.
struct CatchUnwind<'a, F>(Pin<&'a mut F>);

impl<F: Future> Future for CatchUnwind<'_, F> {
    type Output = Result<F::Output, Box<dyn Any + Send>>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let inner = &mut self.get_mut().0;
        // Unwind safety: what the future shares (the session cell) is behind
        // a mutex whose poisoning is ignored on purpose (see
        // `SessionCell::lock`); the future itself is not polled again.
        match std::panic::catch_unwind(AssertUnwindSafe(|| inner.as_mut().poll(cx))) {
            Ok(Poll::Pending) => Poll::Pending,
            Ok(Poll::Ready(out)) => Poll::Ready(Ok(out)),
            Err(payload) => Poll::Ready(Err(payload)),
        }
    }
}

/// Runs one connection of `cell`'s session over `stream` until it ends; the
/// session is `connected` here and `disconnected` before returning. `initial`
/// holds bytes already read (an acceptor's first message). The caller has
/// [`claim`](SessionCell::claim)ed the session, and releases it after;
/// commands given before the call are the caller's to have cleared.
pub(crate) async fn run<D: Schema>(
    stream: Stream,
    cell: &SessionCell<D>,
    shared: &Shared,
    schedule: &Schedule,
    limits: Limits,
    initial: &[u8],
) -> End {
    let tcp = stream.tcp().clone();
    let synced_write = SyncedWrite::of(&stream);
    let started = {
        let mut slot = cell.lock();
        debug_assert!(matches!(slot.connection, Connection::Claimed));
        slot.connection = Connection::Live(Live {
            stream,
            limits,
            failure: None,
            handed: None,
        });
        let slot = &mut *slot;
        let now = clock::now();
        std::panic::catch_unwind(AssertUnwindSafe(|| {
            start(slot, shared, schedule, now, initial)
        }))
        .map_err(End::Panicked)
        .and_then(|started| started)
    };
    let end = match started {
        Ok(()) => {
            let driven = std::pin::pin!(drive(&tcp, synced_write, cell, shared, schedule, limits));
            CatchUnwind(driven).await.unwrap_or_else(End::Panicked)
        }
        Err(end) => end,
    };
    finish(&mut cell.lock(), shared, limits);
    end
}

/// The connection ended: its stream closed, the session told (and its last
/// events forwarded), what the handles queued kept or dropped as the
/// options say.
fn finish<D: Schema>(slot: &mut Slot<D>, shared: &Shared, limits: Limits) {
    if let Connection::Live(live) = &mut slot.connection
        && let Some(job) = live.handed.take()
    {
        // A direct sender's sync the task never took (it ended first).
        let ended = slot.session.end_sync(job.run());
        settle(shared, &mut slot.sync_taken, ended.as_ref().err());
    }
    if slot.session.sync_in_flight() {
        // The task ended (a panic) with its sync's outcome unread: a sync
        // here covers what it did, so the tracked sends learn the truth.
        let synced = slot.session.sync();
        settle(shared, &mut slot.sync_taken, synced.as_ref().err());
    }
    if let Connection::Live(mut live) = std::mem::replace(&mut slot.connection, Connection::Claimed)
    {
        live.stream.close();
    }
    if let Err(e) = slot.session.disconnected(clock::now(), &mut *slot.app) {
        tracing::error!(error = %e, "the store failed as the connection ended");
    }
    // What the session did last (a step that failed left its events), and
    // its end: the handles see it disconnected.
    let now = SystemTime::now();
    let forwarded = forward_events(
        &mut slot.session,
        &mut slot.journal,
        &mut slot.metrics,
        shared,
        now,
    );
    if let Err(error) = forwarded {
        tracing::error!(%error, "the log could not be written");
    }
    // What the handles queued and the session did not take (what the
    // throttle held back first) waits for the next connection's Logon
    // (`send` accepted it), or is dropped.
    slot.spare.requeue(shared);
    match limits.queued_while_down {
        crate::QueuedWhileDown::Wait => {
            let queued = shared.queued();
            if queued > 0 {
                tracing::info!(queued, "queued messages wait for the next Logon");
            }
        }
        crate::QueuedWhileDown::Drop => {
            let dropped = shared.drop_queued(&crate::NotSent::Disconnected);
            if dropped > 0 {
                let text = format!("Dropped {dropped} queued messages: the connection ended");
                tracing::warn!(dropped, "queued messages dropped: the connection ended");
                if let Err(error) = slot.journal.event(now, &text) {
                    tracing::error!(%error, "the log could not be written");
                }
            }
        }
    }
}

/// Resets the store at a new schedule period (as QuickFIX does), then tells the
/// session it is connected and gives it what was read already.
fn start<D: Schema>(
    slot: &mut Slot<D>,
    shared: &Shared,
    schedule: &Schedule,
    now: Time,
    initial: &[u8],
) -> Result<(), End> {
    let Slot {
        session,
        app,
        journal,
        metrics,
        ..
    } = slot;
    // RefreshOnLogon (a standby store; a no-op for others): the store as
    // another engine left it decides whether a new period began.
    session
        .store_mut()
        .refresh()
        .map_err(|e| End::Failed(e.into()))?;
    if !schedule.same_period(session.store().creation_time(), now.wall) {
        // Reset when the Logon is verified (an acceptor) or sent (an
        // initiator): a Logon that is refused erases nothing.
        tracing::info!("a new session period: sequence numbers reset at the Logon");
        session.reset_on_next_logon();
    }
    session.connected(now, &mut **app).map_err(End::Failed)?;
    // Connected: handles may queue from here on (from `on_logon`, which the
    // first message calls).
    forward_events(session, journal, metrics, shared, now.wall).map_err(End::Log)?;
    if !initial.is_empty() {
        session
            .handle_bytes(now, initial, &mut **app)
            .map_err(End::Failed)?;
        forward_events(session, journal, metrics, shared, now.wall).map_err(End::Log)?;
    }
    Ok(())
}

/// What woke the task.
enum Woke {
    /// The socket is ready as asked (or the wait failed).
    Socket(io::Result<Ready>),
    /// A handle: a message queued, a command given, a direct sender's note.
    Handle,
    /// The deadline armed.
    Timer,
    /// The sync in flight ended.
    Synced(SyncDone),
    /// The read of stored messages in flight ended.
    Read(ReadDone),
}

/// What a step leaves the task to wait for.
struct Wait {
    /// What to wait on the socket for, if anything (nothing while output is
    /// full and held back for the sync in flight).
    interest: Option<Interest>,
    wake_at: Option<Instant>,
}

/// The task's own state across steps.
struct Progress {
    /// The end of the schedule's period: a Logout then, as QuickFIX sends one.
    period_end: Option<SystemTime>,
    period_over: bool,
    closing: Option<Instant>,
    /// When the store's interval sync is due next.
    sync_due: Option<Instant>,
    /// The sync in flight.
    syncing: Option<Syncing>,
    /// When the sync in flight began.
    sync_began: Option<Instant>,
    /// The read of stored messages in flight (a resend's, from a store
    /// that reads off the session's thread).
    reading: Option<Reading>,
    /// The connection's unsent output as the engine's budget counts it.
    output: OutputCharge,
    /// The sync thread's writer of the connection's synced bytes (plain TCP).
    synced_write: Option<Arc<SyncedWrite>>,
    /// The waker the sync thread wakes this task with: through the
    /// runtime's hub, one cross-thread wake a sync for all its connections.
    via: Arc<Via>,
}

/// A connection's unsent output, charged to the engine's memory budget (the
/// session's shared budget) as it grows and given back as it goes, and
/// when the connection ends.
struct OutputCharge {
    budget: Option<fix_session::MemoryBudget>,
    charged: usize,
}

impl OutputCharge {
    /// The output is `unsent` bytes now.
    fn update(&mut self, unsent: usize) {
        let Some(budget) = &self.budget else { return };
        if unsent > self.charged {
            budget.take(unsent - self.charged);
        } else {
            budget.give_back(self.charged - unsent);
        }
        self.charged = unsent;
    }

    /// Whether the engine's sessions hold more than the budget.
    fn over(&self) -> bool {
        self.budget
            .as_ref()
            .is_some_and(fix_session::MemoryBudget::over)
    }
}

impl Drop for OutputCharge {
    fn drop(&mut self) {
        self.update(0);
    }
}

async fn drive<D: Schema>(
    tcp: &tokio::net::TcpStream,
    synced_write: Option<Arc<SyncedWrite>>,
    cell: &SessionCell<D>,
    shared: &Shared,
    schedule: &Schedule,
    limits: Limits,
) -> End {
    let mut progress = Progress {
        period_end: schedule.period_at(SystemTime::now()).map(|p| p.end),
        period_over: false,
        closing: None,
        sync_due: None,
        syncing: None,
        sync_began: None,
        reading: None,
        output: OutputCharge {
            budget: cell.lock().session.config().shared_budget.clone(),
            charged: 0,
        },
        synced_write,
        via: Via::new(),
    };
    let sleep = tokio::time::sleep_until(Instant::now());
    tokio::pin!(sleep);
    let mut woke = Woke::Handle;
    loop {
        // The lock is held for the step only, never across the wait. A
        // sender in the session holds it for one message: the task yields
        // meanwhile rather than block its runtime's thread (and the other
        // sessions on it) on the lock.
        let stepped = loop {
            if let Some(mut slot) = cell.try_lock() {
                break step(&mut slot, shared, limits, &mut progress, woke);
            }
            tokio::task::yield_now().await;
        };
        let wait = match stepped {
            Ok(w) => w,
            Err(end) => return end_sync_in_flight(cell, shared, &mut progress, end).await,
        };
        if let Some(at) = wait.wake_at {
            sleep.as_mut().reset(at);
        }
        let interest = wait.interest.unwrap_or(Interest::READABLE);
        woke = tokio::select! {
            ready = tcp.ready(interest), if wait.interest.is_some() => Woke::Socket(ready),
            () = shared.wake.notified() => Woke::Handle,
            () = &mut sleep, if wait.wake_at.is_some() => Woke::Timer,
            done = sync_ended(&mut progress.syncing, &progress.via), if progress.syncing.is_some() => {
                progress.syncing = None;
                Woke::Synced(done)
            }
            done = read_ended(&mut progress.reading), if progress.reading.is_some() => {
                progress.reading = None;
                Woke::Read(done)
            }
        };
    }
}

/// A sync in flight: awaited where the store's own thread makes it durable
/// (the shared log), else run on a blocking thread.
enum Syncing {
    Awaited(SyncWait),
    /// The job's number and the blocking task running it.
    Blocking(u64, JoinHandle<SyncDone>),
}

/// What the sync in flight returned (a failure if its thread was lost).
async fn sync_ended(syncing: &mut Option<Syncing>, via: &Arc<Via>) -> SyncDone {
    match syncing {
        Some(Syncing::Awaited(wait)) => std::future::poll_fn(|cx| via.poll(wait, cx)).await,
        Some(Syncing::Blocking(id, job)) => job.await.unwrap_or_else(|e| SyncDone::failed(*id, e)),
        None => std::future::pending().await,
    }
}

/// A read of stored messages in flight: the job's part, run on a blocking
/// thread, so that a remote store's round trips hold neither the runtime's
/// thread nor the other sessions on it.
struct Reading {
    range: ReadRange,
    task: JoinHandle<ReadDone>,
}

/// Runs a read job the session handed out on a blocking thread.
fn start_read(job: ReadJob) -> Reading {
    Reading {
        range: job.range(),
        task: tokio::task::spawn_blocking(move || job.run()),
    }
}

/// What the read in flight returned (a failure if its thread was lost).
async fn read_ended(reading: &mut Option<Reading>) -> ReadDone {
    match reading {
        Some(r) => (&mut r.task)
            .await
            .unwrap_or_else(|e| ReadDone::failed(r.range, e)),
        None => std::future::pending().await,
    }
}

/// The connection ends: a sync in flight is waited for first, so that the
/// tracked sends it covers are told how it went.
async fn end_sync_in_flight<D: Schema>(
    cell: &SessionCell<D>,
    shared: &Shared,
    progress: &mut Progress,
    end: End,
) -> End {
    if progress.syncing.is_some() {
        let done = sync_ended(&mut progress.syncing, &progress.via).await;
        progress.syncing = None;
        let mut slot = cell.lock();
        let Slot {
            session,
            sync_taken,
            ..
        } = &mut *slot;
        let ended = session.end_sync(done);
        if ended.is_ok() {
            take_synced_write(session, progress);
        }
        settle(shared, sync_taken, ended.as_ref().err());
    }
    end
}

/// Starts the group commit of what this step stored (all a read brought and
/// every answer, the queued sends, the incoming numbers), unless one is in
/// flight: its job waits for the disk on a blocking thread while the task
/// goes on; its bytes leave when it ends. A store durable at once (or one
/// that synced here) hands its bytes out now, and its tracked sends are told.
fn begin_sync<D: Schema>(
    session: &mut Session<Store, D>,
    shared: &Shared,
    taken: &mut Vec<(u64, u64)>,
    sync_taken: &mut Vec<(u64, u64)>,
    progress: &mut Progress,
    stream: &Stream,
) -> Result<(), SessionError> {
    if progress.syncing.is_some() {
        return Ok(());
    }
    match session.begin_sync()? {
        Some(job) => {
            std::mem::swap(taken, sync_taken);
            progress.syncing = Some(start_sync(job));
            hand_to_sync_thread(session, progress, stream);
        }
        None => settle(shared, taken, None),
    }
    Ok(())
}

fn start_sync(job: SyncJob) -> Syncing {
    match job.into_wait() {
        Ok(wait) => Syncing::Awaited(wait),
        Err(job) => Syncing::Blocking(job.id(), tokio::task::spawn_blocking(move || job.run())),
    }
}

/// Has the sync thread write the bytes the sync just begun holds back, the
/// moment they are durable, when nothing else of the connection's is
/// waiting to go before them (see [`crate::synced_write`]).
fn hand_to_sync_thread<D: Schema>(
    session: &Session<Store, D>,
    progress: &Progress,
    stream: &Stream,
) {
    let (Some(writer), Some(Syncing::Awaited(wait))) = (&progress.synced_write, &progress.syncing)
    else {
        return;
    };
    if session.output().is_empty() && !stream.has_unsent() && writer.arm(session.syncing_output()) {
        wait.on_durable(writer.clone());
    }
}

/// The sync ended: what the sync thread wrote of its bytes is written.
fn take_synced_write<D: Schema>(session: &mut Session<Store, D>, progress: &Progress) {
    if let Some(writer) = &progress.synced_write {
        session.consume_output(writer.settle());
    }
}

/// Handles what woke the task, then does what the session and the handles
/// ask, until all that is left is to wait.
fn step<D: Schema>(
    slot: &mut Slot<D>,
    shared: &Shared,
    limits: Limits,
    progress: &mut Progress,
    mut woke: Woke,
) -> Result<Wait, End> {
    let mut step = Step::of(slot, shared, limits, progress)?;
    loop {
        step.handle(woke)?;
        let now = clock::now();
        let took = step.take_commands(now)?;
        step.make_durable()?;
        forward_events(step.session, step.journal, step.metrics, shared, now.wall)
            .map_err(End::Log)?;
        step.write()?;
        // The senders wake the task only when the queue was empty: left
        // untaken, it is taken as soon as there is room, not at the next wake.
        if !took && room_for_sends(step.session, limits) {
            woke = Woke::Handle;
            continue;
        }
        step.end_if_closed()?;
        // Decrypted bytes already waiting are read now: the socket will not
        // say so.
        if step.reads() && step.stream.decrypted_waiting().map_err(End::Io)? {
            woke = Woke::Socket(Ok(Ready::READABLE));
            continue;
        }
        step.start_read();
        return Ok(step.next_wait(now));
    }
}

/// What one step of a connection works with: the slot's parts, borrowed
/// apart, and the task's own state.
struct Step<'a, D: Schema> {
    session: &'a mut Session<Store, D>,
    app: &'a mut dyn Application,
    journal: &'a mut Journal,
    metrics: &'a mut SessionMetrics,
    /// When this step's first read was made, for the read-to-reply time.
    read_at: Option<Instant>,
    read_buf: &'a mut [u8],
    spare: &'a mut Batch,
    taken: &'a mut Vec<(u64, u64)>,
    sync_taken: &'a mut Vec<(u64, u64)>,
    stream: &'a mut Stream,
    shared: &'a Shared,
    limits: Limits,
    progress: &'a mut Progress,
}

impl<'a, D: Schema> Step<'a, D> {
    /// The step of a live slot, unless a direct sender found its connection
    /// broken (then why it ends).
    fn of(
        slot: &'a mut Slot<D>,
        shared: &'a Shared,
        limits: Limits,
        progress: &'a mut Progress,
    ) -> Result<Self, End> {
        let Slot {
            session,
            app,
            journal,
            metrics,
            read_buf,
            spare,
            taken,
            sync_taken,
            connection,
        } = slot;
        let Connection::Live(live) = connection else {
            unreachable!("a running connection's slot holds its stream");
        };
        // First the sync a direct sender left: even a connection that ends
        // now waits for it, so that its tracked sends are told.
        if let Some(job) = live.handed.take() {
            debug_assert!(progress.syncing.is_none());
            progress.syncing = Some(start_sync(job));
            progress.sync_began = Some(Instant::now());
            hand_to_sync_thread(session, progress, &live.stream);
        }
        if let Some(end) = live.failure.take() {
            return Err(end);
        }
        Ok(Step {
            session,
            app: &mut **app,
            journal,
            metrics,
            read_at: None,
            read_buf,
            spare,
            taken,
            sync_taken,
            stream: &mut live.stream,
            shared,
            limits,
            progress,
        })
    }

    /// Handles what woke the task: reads what the socket has, the session's
    /// timers, the end of the sync in flight.
    fn handle(&mut self, woke: Woke) -> Result<(), End> {
        match woke {
            Woke::Socket(ready) => {
                if ready.map_err(End::Io)?.is_readable() {
                    self.read_at.get_or_insert_with(Instant::now);
                    read_batch(
                        self.stream,
                        self.session,
                        self.read_buf,
                        self.app,
                        self.limits,
                    )?;
                }
            }
            Woke::Handle => {}
            Woke::Timer => {
                self.session
                    .handle_timeout(clock::now(), self.app)
                    .map_err(End::Failed)?;
                self.journal.flush_if_due().map_err(End::Log)?;
            }
            Woke::Read(done) => {
                self.session
                    .end_read(clock::now(), done, self.app)
                    .map_err(End::Failed)?;
            }
            Woke::Synced(done) => {
                if let Some(began) = self.progress.sync_began.take() {
                    self.metrics.synced(began.elapsed().as_secs_f64());
                }
                let ended = self.session.end_sync(done);
                if ended.is_ok() {
                    take_synced_write(self.session, self.progress);
                }
                settle(self.shared, self.sync_taken, ended.as_ref().err());
                ended.map_err(End::Failed)?;
            }
        }
        Ok(())
    }

    /// Starts the read of stored messages the session's resend waits for,
    /// unless one is in flight.
    fn start_read(&mut self) {
        if self.progress.reading.is_none()
            && let Some(job) = self.session.take_read_job()
        {
            self.progress.reading = Some(start_read(job));
        }
    }

    /// Does what the handles asked (disconnect, log out) or the schedule
    /// says (its period ended: a Logout), and hands the session what they
    /// queued while there is room. Returns whether the queue was taken.
    fn take_commands(&mut self, now: Time) -> Result<bool, End> {
        let mut commands = self.shared.take_commands();
        if commands.by_app {
            self.log_app_command(now, &commands)?;
        }
        self.do_operator_commands(now, &mut commands);
        if commands.disconnect {
            return Err(End::Disconnected);
        }
        let progress = &mut *self.progress;
        let period_ended =
            !progress.period_over && progress.period_end.is_some_and(|end| now.wall > end);
        let logout = commands.logout || period_ended;
        if logout && !commands.logout {
            progress.period_over = true;
            tracing::info!("the session period ended");
        }
        let state = self.session.state();
        let (took, sent) = match state {
            State::AwaitingLogon | State::Disconnected if logout => return Err(End::Session),
            State::LogoutSent if logout => (false, Ok(())),
            _ if !logout && !room_for_sends(self.session, self.limits) => (false, Ok(())),
            // Before the Logon is exchanged the queue waits: the step comes
            // back here once a read has logged the session on.
            State::LoggedOn => (true, self.send_queued(now)),
            _ => (true, Ok(())),
        };
        let sent = sent.and_then(|()| {
            if logout && state == State::LoggedOn {
                self.session.logout(now, None, self.app)
            } else {
                Ok(())
            }
        });
        if let Err(e) = sent {
            settle(self.shared, self.taken, Some(&e));
            return Err(End::Failed(e));
        }
        Ok(took)
    }

    /// Writes the application's Logout or disconnect (asked through a
    /// handle) to the session's log, before what it does.
    fn log_app_command(&mut self, now: Time, commands: &Commands) -> Result<(), End> {
        let text = if commands.disconnect {
            "Disconnect requested by the application"
        } else {
            "Logout requested by the application"
        };
        tracing::info!(session = %self.shared.id, "{text}");
        self.journal.event(now.wall, text).map_err(End::Log)
    }

    /// Writes what the session released; the first write after a read
    /// times the read-to-reply.
    fn write(&mut self) -> Result<(), End> {
        let pending = !self.session.output().is_empty();
        write(self.stream, self.session).map_err(End::Io)?;
        if pending && let Some(read_at) = self.read_at.take() {
            self.metrics.replied(read_at.elapsed().as_secs_f64());
        }
        Ok(())
    }

    /// Does the operators' commands taken, in order, answering each; what
    /// they leave the connection to do (a Logout, a disconnect) joins
    /// `commands`.
    fn do_operator_commands(&mut self, now: Time, commands: &mut Commands) {
        for request in std::mem::take(&mut commands.operator) {
            let done = apply_operator_command(
                self.session,
                self.app,
                self.journal,
                self.shared,
                request.command,
                now,
            );
            let answer = done.map(|leaves| {
                if let Some(command) = leaves {
                    commands.add(command);
                }
                status_of(self.session, self.shared, true)
            });
            let _ = request.reply.send(answer);
        }
    }

    /// Hands the session what the handles queued, reporting those too old.
    fn send_queued(&mut self, now: Time) -> Result<(), SessionError> {
        let (too_old, depth) = send_queued(
            self.session,
            self.app,
            self.shared,
            self.spare,
            self.taken,
            self.limits,
            now,
        )?;
        report_too_old(self.journal, too_old, now);
        self.metrics.queue_taken(depth);
        Ok(())
    }

    /// Group commit: one sync for everything stored since the last, before
    /// any of it is written (tracked sends are told when it ends); and the
    /// interval sync of `SyncPolicy::Interval`, writes or not.
    fn make_durable(&mut self) -> Result<(), End> {
        let idle = self.progress.syncing.is_none();
        let needed = idle && self.session.needs_sync();
        let started = Instant::now();
        let begun = begin_sync(
            self.session,
            self.shared,
            self.taken,
            self.sync_taken,
            self.progress,
            self.stream,
        );
        if self.progress.syncing.is_some() {
            if idle {
                self.progress.sync_began = Some(started);
            }
        } else if needed && begun.is_ok() {
            // Synced in place (a small batch): timed here.
            self.metrics.synced(started.elapsed().as_secs_f64());
        }
        if let Err(e) = begun {
            settle(self.shared, self.taken, Some(&e));
            return Err(End::Failed(e));
        }
        let Some(every) = self.limits.sync_every else {
            return Ok(());
        };
        let at = Instant::now();
        match self.progress.sync_due {
            Some(due) if at < due => {}
            Some(_) => {
                self.session
                    .store_mut()
                    .sync()
                    .map_err(|e| End::Failed(e.into()))?;
                self.progress.sync_due = Some(at + every);
            }
            None => self.progress.sync_due = Some(at + every),
        }
        Ok(())
    }

    /// A session that wants its connection closed ends it once everything
    /// it wrote is out and durable, or its linger is over.
    fn end_if_closed(&mut self) -> Result<(), End> {
        if !self.session.wants_disconnect() {
            return Ok(());
        }
        let written = self.session.output().is_empty() && !self.stream.has_unsent();
        if written && !self.session.sync_in_flight() {
            return Err(End::Session);
        }
        let linger = *self
            .progress
            .closing
            .get_or_insert_with(|| Instant::now() + self.limits.linger);
        if Instant::now() >= linger {
            return Err(End::Session);
        }
        Ok(())
    }

    /// Whether the task reads: not while the output is full or the session
    /// closes.
    /// Whether the connection reads: not while its output passes
    /// `max_output`, nor while it has output waiting and the engine's
    /// sessions hold more than their budget (the peers that take their
    /// output go on).
    fn reads(&self) -> bool {
        let unsent = self.session.unsent_len();
        unsent < self.limits.max_output
            && !(unsent > 0 && self.progress.output.over())
            && !self.session.wants_disconnect()
    }

    /// What to wait for: the socket (reading, and writing while something
    /// released waits to be written), a handle, the sync in flight, or the
    /// next deadline.
    fn next_wait(&mut self, now: Time) -> Wait {
        self.progress.output.update(self.session.unsent_len());
        let read = self.reads();
        let write = !self.session.output().is_empty() || self.stream.has_unsent();
        let interest = match (read, write) {
            (true, true) => Some(Interest::READABLE.add(Interest::WRITABLE)),
            (true, false) => Some(Interest::READABLE),
            (false, false) if self.progress.syncing.is_some() => None,
            (false, _) => Some(Interest::WRITABLE),
        };
        // The session's deadlines are on the monotonic clock; the schedule's
        // end is on the wall clock (`end` is in the period: it is over a
        // moment after).
        let progress = &*self.progress;
        let session_due = self.session.poll_timeout().map(clock::instant_of);
        // Messages the throttle holds back go when it lets the next one:
        // the step takes them then (while it takes the queue at all: else
        // what stops it wakes the task).
        let throttle_due = (!self.spare.is_empty()
            && self.session.state() == State::LoggedOn
            && room_for_sends(self.session, self.limits))
        .then(|| self.session.next_send_at())
        .flatten()
        .map(clock::instant_of);
        let period_due = progress
            .period_end
            .filter(|_| !progress.period_over)
            .map(|end| instant_at(end + Duration::from_millis(1), now.wall));
        let wake_at = [
            session_due,
            throttle_due,
            period_due,
            progress.closing,
            self.journal.flush_due(),
            progress.sync_due,
        ]
        .into_iter()
        .flatten()
        .min();
        Wait { interest, wake_at }
    }
}

/// Whether the task takes what the handles queued: while what waits on the
/// peer (written out or held behind a resend) is below the high water, and
/// everything unsent below the output's bound. Bytes held for the sync in
/// flight wait on the disk, not the peer: under group commit the next batch
/// gathers while the last one syncs, up to `max_output`.
fn room_for_sends<D: Schema>(session: &Session<Store, D>, limits: Limits) -> bool {
    let unsent = session.unsent_len();
    unsent - session.unsynced_len() < limits.output_high_water && unsent < limits.max_output
}

/// The most reads one step makes before its sync and write: under load a
/// step takes what is waiting (up to this many full buffers), so one sync
/// covers more messages; a read that does not fill the buffer ends the batch.
const MAX_READS_A_STEP: usize = 16;

/// Reads what the socket has into the session, a buffer at a time, while the
/// buffer comes back full (more is likely waiting) and the output has room.
fn read_batch<D: Schema>(
    stream: &mut Stream,
    session: &mut Session<Store, D>,
    read_buf: &mut [u8],
    app: &mut dyn Application,
    limits: Limits,
) -> Result<(), End> {
    for _ in 0..MAX_READS_A_STEP {
        if session.unsent_len() >= limits.max_output || session.wants_disconnect() {
            return Ok(());
        }
        match stream.try_read(read_buf) {
            Ok(0) => return Err(End::PeerClosed),
            Ok(n) => {
                session
                    .handle_bytes(clock::now(), &read_buf[..n], app)
                    .map_err(End::Failed)?;
                if n < read_buf.len() {
                    return Ok(());
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(()),
            Err(e) => return Err(End::Io(e)),
        }
    }
    Ok(())
}

/// Hands on what the session did since the last call, in order: every
/// event to the session's log, its state to the handles, what an operator
/// should hear of to tracing. All are taken even when the log fails (the
/// first failure is returned): the handles' state never lags the session's.
fn forward_events<D: Schema>(
    session: &mut Session<Store, D>,
    journal: &mut Journal,
    metrics: &mut SessionMetrics,
    shared: &Shared,
    now: SystemTime,
) -> Result<(), LogError> {
    let mut logged = Ok(());
    while let Some(event) = session.poll_event() {
        metrics.event(&event);
        match &event {
            Event::State(state) => {
                shared.set_state(*state);
                tracing::info!(?state, "session state");
            }
            e if e.is_warning() => tracing::warn!(event = %e, "session event"),
            _ => {}
        }
        if logged.is_ok() {
            logged = journal.record(session, &event, now);
        }
    }
    let store = session.store();
    let numbers = (store.next_sender_seq(), store.next_target_seq());
    metrics.numbers(session.message_counts(), numbers.0, numbers.1);
    logged
}

/// Hands the logged-on session the messages the handles queued, in order,
/// while its throttle lets them go: first those it held back before, then
/// (once they are all gone) what was queued since. The tracked ones' tickets
/// and numbers go into `taken`. A message older than `max_queued_age` is
/// dropped instead. Returns how many were, and how many waited (held back
/// and queued). What the throttle holds back stays in `batch` for the next
/// step.
fn send_queued<D: Schema>(
    session: &mut Session<Store, D>,
    app: &mut dyn Application,
    shared: &Shared,
    batch: &mut Batch,
    taken: &mut Vec<(u64, u64)>,
    limits: Limits,
    now: Time,
) -> Result<(usize, usize), SessionError> {
    let mut too_old = 0;
    let mut depth = 0;
    // Held back before: those, then the queue once more.
    let passes = if batch.is_empty() { 1 } else { 2 };
    for _ in 0..passes {
        batch.refill(shared);
        depth += batch.len();
        while let Some(r) = batch.first() {
            let size = r.size();
            let ticket = r.ticket;
            if limits
                .max_queued_age
                .is_some_and(|max| now.mono.saturating_sub(r.queued_at) > max)
            {
                too_old += 1;
                if ticket != 0 {
                    shared.settle(ticket, Err(crate::NotSent::TooOld));
                }
                batch.advance(size);
                continue;
            }
            match session.send_prechecked(now, r.msg_type, r.body, app) {
                Ok(seq) => {
                    if ticket != 0 {
                        taken.push((ticket, seq));
                    }
                    batch.advance(size);
                }
                // Over the limit: it and those after it wait for the next.
                Err(SessionError::Throttled) => return Ok((too_old, depth)),
                Err(e) => {
                    // Not sent, and neither are the ones after it: queued again.
                    batch.requeue(shared);
                    return Err(e);
                }
            }
        }
    }
    Ok((too_old, depth))
}

/// Writes an event for messages dropped as too old (a log that fails is
/// reported through tracing: the messages are gone either way).
fn report_too_old(journal: &mut Journal, dropped: usize, now: Time) {
    if dropped == 0 {
        return;
    }
    tracing::warn!(
        dropped,
        "queued messages dropped unsent: older than max_queued_age"
    );
    let text =
        format!("Dropped {dropped} queued messages unsent: older than the queue's age limit");
    if let Err(error) = journal.event(now.wall, &text) {
        tracing::error!(%error, "the log could not be written");
    }
}

/// Tells the tracked sends in `taken` their outcome: their MsgSeqNum once the
/// sync covering them is done (`failed` is `None`), else the store's failure.
fn settle(shared: &Shared, taken: &mut Vec<(u64, u64)>, failed: Option<&SessionError>) {
    for (ticket, seq) in taken.drain(..) {
        let outcome = match failed {
            None => Ok(seq),
            Some(e) => Err(crate::handle::NotSent::StoreFailed(e.to_string())),
        };
        shared.settle(ticket, outcome);
    }
}

/// Writes as much of the session's output (and of TLS records waiting) as the
/// socket takes now.
fn write<D: Schema>(stream: &mut Stream, session: &mut Session<Store, D>) -> io::Result<()> {
    while !session.output().is_empty() {
        match stream.try_write(session.output()) {
            Ok(n) => session.consume_output(n),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(e) => return Err(e),
        }
    }
    stream.flush()
}

/// The tokio instant of wall-clock time `at`, read against `now`.
fn instant_at(at: SystemTime, now: SystemTime) -> Instant {
    let base = Instant::now();
    match at.duration_since(now) {
        Ok(ahead) => base + ahead,
        Err(_) => base,
    }
}
