//! The connection driver, one task per connection, shared by acceptor and
//! initiator: read into the session (which frames with fix-core), write what it
//! hands back, hand it what the handles queued, and sleep until its deadline
//! or the end of the schedule's period, whichever wakes first.

use std::io;
use std::time::{Duration, SystemTime};

use fix_core::validate::Schema;
use fix_session::{Application, MessageStore, Session, SessionError, State};
use tokio::io::Interest;
use tokio::time::Instant;

use crate::config::Schedule;
use crate::handle::{self, DISCONNECT, LOGOUT, Shared};
use crate::journal::{FeedError, Journal};
use crate::log::LogError;
use crate::transport::Stream;

/// The store of an engine's session: a file or memory store, as its settings say.
pub(crate) type Store = Box<dyn MessageStore + Send>;

/// A session and what its connections reuse, kept while no connection runs.
pub(crate) struct Parked<D: Schema> {
    pub(crate) session: Session<Store, D>,
    pub(crate) app: Box<dyn Application + Send>,
    /// The session's log, which every connection writes.
    pub(crate) journal: Journal,
    read_buf: Box<[u8]>,
    /// Swapped with the handles' queue when the task takes what they queued.
    spare: Vec<u8>,
}

impl<D: Schema> Parked<D> {
    pub(crate) fn new(
        session: Session<Store, D>,
        app: Box<dyn Application + Send>,
        journal: Journal,
        shared: &Shared,
        read_buffer: usize,
    ) -> Self {
        Parked {
            session,
            app,
            journal,
            read_buf: vec![0; read_buffer].into_boxed_slice(),
            spare: shared.spare_buffer(),
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
}

impl From<FeedError> for End {
    fn from(e: FeedError) -> End {
        match e {
            FeedError::Session(e) => End::Failed(e),
            FeedError::Log(e) => End::Log(e),
        }
    }
}

/// Runs one connection of `parked`'s session over `stream` until it ends; the
/// session is `connected` here and `disconnected` before returning. `initial`
/// holds bytes already read (an acceptor's first message). Commands given
/// before the call are the caller's to have cleared.
pub(crate) async fn run<D: Schema>(
    mut stream: Stream,
    parked: &mut Parked<D>,
    shared: &Shared,
    schedule: &Schedule,
    limits: Limits,
    initial: &[u8],
) -> End {
    let now = SystemTime::now();
    let end = match start(parked, shared, schedule, now, initial) {
        Ok(()) => {
            shared.set_state(parked.session.state());
            drive(&mut stream, parked, shared, schedule, limits).await
        }
        Err(e) => e.into(),
    };
    stream.close();
    if let Err(e) = parked
        .session
        .disconnected(SystemTime::now(), &mut *parked.app)
    {
        tracing::error!(error = %e, "the store failed as the connection ended");
    }
    shared.set_state(State::Disconnected);
    // What the handles queued and the session did not take waits for the
    // next connection's Logon: `send` accepted it.
    let queued = shared.queued();
    if queued > 0 {
        tracing::info!(queued, "queued messages wait for the next Logon");
    }
    end
}

/// Resets the store at a new schedule period (as QuickFIX does), then tells the
/// session it is connected and gives it what was read already.
fn start<D: Schema>(
    parked: &mut Parked<D>,
    shared: &Shared,
    schedule: &Schedule,
    now: SystemTime,
    initial: &[u8],
) -> Result<(), FeedError> {
    let Parked {
        session,
        app,
        journal,
        ..
    } = parked;
    if !schedule.same_period(session.store().creation_time(), now) {
        tracing::info!("a new session period: sequence numbers reset");
        session
            .store_mut()
            .reset(now)
            .map_err(|e| FeedError::Session(e.into()))?;
    }
    session
        .connected(now, &mut **app)
        .map_err(FeedError::Session)?;
    // Connected: handles may queue from here on (from `on_logon`, which the
    // first message calls).
    shared.set_state(session.state());
    if !initial.is_empty() {
        journal.feed(session, now, initial, &mut **app)?;
    }
    Ok(())
}

async fn drive<D: Schema>(
    stream: &mut Stream,
    parked: &mut Parked<D>,
    shared: &Shared,
    schedule: &Schedule,
    limits: Limits,
) -> End {
    let Parked {
        session,
        app,
        journal,
        read_buf,
        spare,
    } = parked;
    let app = &mut **app;
    // The end of the schedule's period: a Logout then, as QuickFIX sends one.
    let period_end = schedule.period_at(SystemTime::now()).map(|p| p.end);
    let mut period_over = false;
    let mut closing: Option<Instant> = None;
    let mut logged_on = false;
    let sleep = tokio::time::sleep_until(Instant::now());
    tokio::pin!(sleep);
    loop {
        let now = SystemTime::now();
        let commands = shared.take_commands();
        if commands & DISCONNECT != 0 {
            return End::Disconnected;
        }
        let mut result = Ok(());
        let mut took = true;
        if commands & LOGOUT != 0 || (!period_over && period_end.is_some_and(|end| now > end)) {
            if commands & LOGOUT == 0 {
                period_over = true;
                tracing::info!("the session period ended");
            }
            result = match session.state() {
                State::LoggedOn => send_queued(session, app, shared, spare, now)
                    .and_then(|()| session.logout(now, None, app)),
                State::LogoutSent => {
                    took = false;
                    Ok(())
                }
                State::AwaitingLogon | State::Disconnected => return End::Session,
            };
        } else if session.output().len() < limits.output_high_water {
            // Before the Logon is exchanged the queue waits: the loop comes
            // back here once a read has logged the session on.
            if session.state() == State::LoggedOn {
                result = send_queued(session, app, shared, spare, now);
            }
        } else {
            took = false;
        }
        if let Err(e) = result {
            return End::Failed(e);
        }
        if let Err(e) = journal.outgoing(session, now) {
            return End::Log(e);
        }
        if let Err(e) = write(stream, session) {
            return End::Io(e);
        }
        journal.written(session);
        // The senders wake the task only when the queue was empty: left
        // untaken, it is taken as soon as there is room, not at the next wake.
        if !took && session.output().len() < limits.output_high_water {
            continue;
        }
        let state = session.state();
        shared.set_state(state);
        if state == State::LoggedOn && !logged_on {
            logged_on = true;
            tracing::info!("logged on");
        } else if state != State::LoggedOn && logged_on {
            logged_on = false;
            tracing::info!(?state, "logged out");
        }
        if session.wants_disconnect() {
            if session.output().is_empty() && !stream.has_unsent() {
                return End::Session;
            }
            let linger = *closing.get_or_insert_with(|| Instant::now() + limits.linger);
            if Instant::now() >= linger {
                return End::Session;
            }
        }

        // Wait for the socket, a handle, or the next deadline.
        let full = session.output().len() >= limits.max_output;
        let mut interest = if full || session.wants_disconnect() {
            Interest::WRITABLE
        } else {
            Interest::READABLE
        };
        if !session.output().is_empty() || stream.has_unsent() {
            interest = interest.add(Interest::WRITABLE);
        }
        let mut deadline = session.poll_timeout();
        if !period_over && let Some(end) = period_end {
            // `end` is in the period: it is over a moment after.
            let over = end + Duration::from_millis(1);
            deadline = Some(deadline.map_or(over, |d| d.min(over)));
        }
        let wake_at = match (deadline, closing) {
            (Some(d), Some(c)) => Some(instant_at(d, now).min(c)),
            (Some(d), None) => Some(instant_at(d, now)),
            (None, c) => c,
        };
        let wake_at = match (wake_at, journal.flush_due()) {
            (Some(w), Some(f)) => Some(w.min(f)),
            (w, f) => w.or(f),
        };
        if let Some(at) = wake_at {
            sleep.as_mut().reset(at);
        }
        tokio::select! {
            ready = stream.ready(interest) => {
                let ready = match ready {
                    Ok(r) => r,
                    Err(e) => return End::Io(e),
                };
                if ready.is_readable() && !full && !session.wants_disconnect() {
                    match stream.try_read(read_buf) {
                        Ok(0) => return End::PeerClosed,
                        Ok(n) => {
                            if let Err(e) = journal.feed(session, SystemTime::now(), &read_buf[..n], app) {
                                return e.into();
                            }
                        }
                        Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                        Err(e) => return End::Io(e),
                    }
                }
            }
            () = shared.wake.notified() => {}
            () = &mut sleep, if wake_at.is_some() => {
                if let Err(e) = session.handle_timeout(SystemTime::now(), app) {
                    return End::Failed(e);
                }
                if let Err(e) = journal.flush_if_due() {
                    return End::Log(e);
                }
            }
        }
    }
}

/// Hands the logged-on session every message the handles queued.
fn send_queued<D: Schema>(
    session: &mut Session<Store, D>,
    app: &mut dyn Application,
    shared: &Shared,
    spare: &mut Vec<u8>,
    now: SystemTime,
) -> Result<(), SessionError> {
    shared.take_queued(spare);
    let mut result = Ok(());
    for (handed, (msg_type, body)) in handle::records(spare).enumerate() {
        if let Err(e) = session.send(now, msg_type, body, app) {
            // Not sent, and neither are the ones after it: queued again.
            shared.requeue(spare, handed);
            result = Err(e);
            break;
        }
    }
    spare.clear();
    result
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
