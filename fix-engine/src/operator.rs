//! Live administration: what an operator asks of a running session
//! ([`OperatorCommand`]), what it answers ([`SessionStatus`]) and why it could
//! not ([`OperatorError`]). Every command goes through the session, under its
//! cell's lock: applied by its connection task's next step while a
//! connection runs it, or at once while none does (see `driver.rs`), and each
//! is an event in the session's log.

use fix_session::{SessionError, SessionId, State};

use crate::EngineError;
use crate::log::LogError;

/// What an operator asks of a session, through
/// [`SessionHandle::operate`](crate::SessionHandle::operate),
/// [`Engine::operate`](crate::Engine::operate) or the admin socket.
///
/// ```
/// use fix_engine::OperatorCommand;
/// let set = OperatorCommand::SetNext { sender: Some(120), target: None };
/// assert_eq!(set.to_string(), "set-next sender 120");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum OperatorCommand {
    /// Sets the next sender and target sequence numbers in the store (`None`
    /// leaves one as it is). On a logged-on session the next message goes
    /// with the new sender number: a counterparty that finds a gap asks for
    /// it and gets a gap fill; one that finds a lower number than it expects
    /// logs out. Refused for the sender number while a resend is served.
    SetNext {
        /// The next MsgSeqNum we send.
        sender: Option<u64>,
        /// The next MsgSeqNum we expect.
        target: Option<u64>,
    },
    /// Resets the sequence numbers to 1 and drops the stored messages: at
    /// once when disconnected; a logged-on session logs out first ("Session
    /// reset") and resets when the Logout is answered or the connection ends.
    Reset,
    /// Logs out (after what the handles queued); an initiator connects again
    /// after its ReconnectInterval ([`Hold`](Self::Hold) it to keep it down).
    Logout,
    /// Closes the connection at once, without a Logout.
    Disconnect,
    /// Refuses the session's Logons (an acceptor closes the connection) and
    /// keeps an initiator from connecting, until [`Release`](Self::Release).
    /// A connection running now is left running.
    Hold,
    /// Undoes [`Hold`](Self::Hold).
    Release,
}

impl std::fmt::Display for OperatorCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OperatorCommand::SetNext { sender, target } => {
                f.write_str("set-next")?;
                if let Some(n) = sender {
                    write!(f, " sender {n}")?;
                }
                if let Some(n) = target {
                    write!(f, " target {n}")?;
                }
                Ok(())
            }
            OperatorCommand::Reset => f.write_str("reset"),
            OperatorCommand::Logout => f.write_str("logout"),
            OperatorCommand::Disconnect => f.write_str("disconnect"),
            OperatorCommand::Hold => f.write_str("hold"),
            OperatorCommand::Release => f.write_str("release"),
        }
    }
}

/// A session as an operator sees it, read under its lock.
///
/// ```
/// use fix_engine::SessionStatus;
/// use fix_session::{SessionId, State};
/// let s = SessionStatus {
///     id: SessionId::new("FIX.4.4", "A", "B"),
///     state: State::LoggedOn,
///     connected: true,
///     held: false,
///     next_sender_seq: 12,
///     next_target_seq: 7,
/// };
/// assert_eq!(s.to_string(), "FIX.4.4-A-B state=LoggedOn connected=yes held=no next-sender=12 next-target=7");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionStatus {
    /// The session.
    pub id: SessionId,
    /// Where the session is.
    pub state: State,
    /// Whether a connection runs it now (logging on or out included).
    pub connected: bool,
    /// Whether it is held ([`OperatorCommand::Hold`]).
    pub held: bool,
    /// The next MsgSeqNum it sends, as its store has it.
    pub next_sender_seq: u64,
    /// The next MsgSeqNum it expects, as its store has it.
    pub next_target_seq: u64,
}

impl std::fmt::Display for SessionStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let yes = |b: bool| if b { "yes" } else { "no" };
        write!(
            f,
            "{} state={:?} connected={} held={} next-sender={} next-target={}",
            self.id.store_name(),
            self.state,
            yes(self.connected),
            yes(self.held),
            self.next_sender_seq,
            self.next_target_seq
        )
    }
}

/// Why an operator's command was not done.
///
/// ```
/// let e = fix_engine::OperatorError::NoSuchSession("FIX.4.4-A-C".into());
/// assert_eq!(e.to_string(), "no session FIX.4.4-A-C");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum OperatorError {
    /// No session of the engine has this ID.
    NoSuchSession(String),
    /// [`Engine::add_session`](crate::Engine::add_session): the engine has
    /// a session of this ID already.
    Exists(SessionId),
    /// [`Engine::add_session`](crate::Engine::add_session): the listener on
    /// the acceptor session's port was made with other socket settings than
    /// the session's.
    ListenerDiffers {
        /// The session.
        id: SessionId,
        /// Its `SocketAcceptPort`.
        port: u16,
        /// The first key in which the session differs from the listener.
        setting: &'static str,
    },
    /// Logout or disconnect of a session no connection runs.
    NotConnected(SessionId),
    /// The session refused (a resend being served) or its store failed; for
    /// a store error, nothing changed.
    Session {
        /// The session.
        id: SessionId,
        /// What it said (boxed: errors are rare, and a small `Result`
        /// keeps every call cheap).
        error: Box<SessionError>,
    },
    /// The session's log could not be written (at its removal).
    Log {
        /// The session.
        id: SessionId,
        /// What the log said.
        error: Box<LogError>,
    },
    /// [`Engine::add_session`](crate::Engine::add_session): the session
    /// could not be made (its store, log, dictionary, TLS files).
    Engine(EngineError),
    /// The engine stopped (or is stopping) before the command was done.
    Stopped,
}

impl std::fmt::Display for OperatorError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OperatorError::NoSuchSession(id) => write!(f, "no session {id}"),
            OperatorError::Exists(id) => write!(f, "session {} exists already", id.store_name()),
            OperatorError::ListenerDiffers { id, port, setting } => write!(
                f,
                "session {}: the engine's listener on port {port} has another {setting}",
                id.store_name()
            ),
            OperatorError::NotConnected(id) => {
                write!(f, "session {} is not connected", id.store_name())
            }
            OperatorError::Session { id, error } => {
                write!(f, "session {}: {error}", id.store_name())
            }
            OperatorError::Log { id, error } => {
                write!(f, "session {}: log: {error}", id.store_name())
            }
            OperatorError::Engine(e) => e.fmt(f),
            OperatorError::Stopped => f.write_str("the engine stopped"),
        }
    }
}

impl std::error::Error for OperatorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OperatorError::Session { error, .. } => Some(&**error),
            OperatorError::Log { error, .. } => Some(&**error),
            OperatorError::Engine(e) => Some(e),
            _ => None,
        }
    }
}

/// What an [`OperatorCommand`] waits on: its reply, when someone waits.
pub(crate) type Reply = tokio::sync::oneshot::Sender<Result<SessionStatus, OperatorError>>;

/// A command queued for the session's connection task.
#[derive(Debug)]
pub(crate) struct Request {
    pub(crate) command: OperatorCommand,
    pub(crate) reply: Reply,
}

/// The line an operator's command writes to the session's log.
pub(crate) fn event_text(command: OperatorCommand, next: (u64, u64), reset_now: bool) -> String {
    match command {
        OperatorCommand::SetNext { .. } => format!(
            "Sequence numbers set by an operator: next sender {}, next target {}",
            next.0, next.1
        ),
        OperatorCommand::Reset if reset_now => "Sequence numbers reset by an operator".to_owned(),
        OperatorCommand::Reset => "Reset requested by an operator: the store is reset when the \
            Logout is answered or the connection ends"
            .to_owned(),
        OperatorCommand::Logout => "Logout requested by an operator".to_owned(),
        OperatorCommand::Disconnect => "Disconnect requested by an operator".to_owned(),
        OperatorCommand::Hold => "Held by an operator: Logons refused until released".to_owned(),
        OperatorCommand::Release => "Released by an operator: Logons accepted".to_owned(),
    }
}
