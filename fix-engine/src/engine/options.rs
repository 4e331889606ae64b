//! [`EngineOptions`]: what the engine allocates up front per session and
//! the limits its connections keep, with [`QueuedWhileDown`].

use std::time::Duration;

/// How the engine sizes what it allocates up front, per session.
///
/// ```
/// let mut options = fix_engine::EngineOptions::default();
/// options.queue_capacity = 4 << 20;
/// assert_eq!(options.output_high_water, 1 << 20);
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct EngineOptions {
    /// Bytes of the outgoing queue [`SessionHandle::send`](crate::SessionHandle::send) writes into (each
    /// message takes its MsgType and body and 5 bytes); past it, sends are
    /// [`SendError::Full`](crate::SendError::Full). Default 1 MiB.
    pub queue_capacity: usize,
    /// Bytes of output waiting for the peer (ready, not yet taken by the
    /// socket) above which a connection stops taking queued messages until
    /// the peer catches up. Bytes held back for the store's sync in flight
    /// (group commit) wait on the disk instead and count against
    /// `max_output` only, so that the next batch gathers while one syncs.
    /// Default 1 MiB.
    pub output_high_water: usize,
    /// Bytes of output not yet taken by the socket above which a connection
    /// stops reading too, until the peer catches up: a bound on what the
    /// application's answers from its callbacks can pile up. Default 16 MiB.
    pub max_output: usize,
    /// The read buffer of a connection. Default 64 KiB.
    pub read_buffer: usize,
    /// The [`MemoryStore`](fix_session::MemoryStore) capacity (messages, bytes) of a session without
    /// `FileStorePath`, allocated up front: within it, storing never
    /// allocates. Default (0, 0): it grows as messages come.
    pub memory_store_capacity: (usize, usize),
    /// How long an initiator waits for a connection to be made. Default 10 s.
    pub connect_timeout: Duration,
    /// How long an acceptor waits for a new connection's first message (the
    /// Logon that names its session). Default 10 s, QuickFIX's LogonTimeout.
    pub first_message_timeout: Duration,
    /// How long a closing connection keeps writing its last bytes (a Logout's
    /// answer) to a peer that does not read. Default 2 s.
    pub linger: Duration,
    /// The most accepted connections waiting for their first message (the
    /// Logon that names their session), across the engine's ports. A new
    /// connection past it closes the one that has waited longest (a real
    /// counterparty sends its Logon at once; one that holds a connection idle
    /// is the likelier attacker), with a warning. Default 256.
    pub max_pending_connections: usize,
    /// The most sessions acceptor templates make. A Logon that would make
    /// one more is refused, with a warning; a template's session whose first
    /// Logon is refused is removed again, with its store and log files.
    /// Default 1024.
    pub max_template_sessions: usize,
    /// TCP keepalive on every connection: the idle time before the first
    /// probe (then one every third of it; three unanswered and the kernel
    /// drops the connection), so that a counterparty gone without a FIN is
    /// found with heartbeats off too. `None` leaves the system's setting.
    /// Default 30 s.
    pub tcp_keepalive: Option<Duration>,
    /// How long a message may wait in a session's queue (the session down or
    /// behind) before it is dropped unsent, with an event in the session's
    /// log and [`NotSent::TooOld`](crate::NotSent::TooOld) for a tracked
    /// send: an order must not go out long after its sender stopped
    /// expecting it. `None`: no limit. Default 120 s. A session's
    /// `QueuedMessageMaxAge` setting
    /// ([`SessionSettings::max_queued_age`](crate::config::SessionSettings::max_queued_age))
    /// wins over it.
    pub max_queued_age: Option<Duration>,
    /// What happens to messages still queued when a connection ends: they
    /// wait for the next Logon ([`QueuedWhileDown::Wait`], the default), or
    /// are dropped with an event ([`QueuedWhileDown::Drop`]). A session's
    /// `QueuedWhileDown` setting
    /// ([`SessionSettings::queued_while_down`](crate::config::SessionSettings::queued_while_down))
    /// wins over it.
    pub queued_while_down: QueuedWhileDown,
    /// A Unix socket the engine answers operators' commands on, one line
    /// each (`sessions`, `status ID`, `set-next ID sender N target M`,
    /// `reset ID`, `logout ID`, `disconnect ID`, `hold ID`, `release ID`; see
    /// docs/operations.md). Made with mode 0600 when the engine starts (a stale
    /// socket file left there is replaced), removed at shutdown. The
    /// settings' `[DEFAULT]` key `AdminSocket` gives it when this is `None`.
    /// Unix only; default `None`: no socket.
    pub admin_socket: Option<std::path::PathBuf>,
    /// Bytes every session of the engine may hold together of what peers
    /// make them hold: messages queued above a gap
    /// ([`SessionConfig::shared_budget`](fix_session::SessionConfig::shared_budget);
    /// past it a message is not queued, an `BudgetFull` event, and the
    /// resend brings it again) and output a peer does not take (past it, a
    /// connection with output waiting stops reading until its peer takes
    /// some). Each session's own bounds (16 MiB queued, `max_output`) still
    /// hold: this keeps a thousand sessions from holding a thousand times
    /// them. Default 1 GiB.
    pub max_held_bytes: usize,
    /// Listening sockets bound already, by the caller or a parent process.
    /// An acceptor port of the settings (`SocketAcceptPort`, not 0) that one
    /// of them is bound to is served on it, not bound again: a test can bind
    /// port 0 once, write the port it got into settings and restart engines
    /// on it without a window in which the port is free for another socket
    /// (connections made between two engines wait in its backlog). The
    /// engine listens on a duplicate of each (`try_clone`), so the caller's
    /// stays open; the socket keeps the options it was made with (the
    /// settings' `SocketReuseAddress` and buffers are not applied). One no
    /// acceptor port names is an error at start. Default: none.
    ///
    /// ```no_run
    /// # async fn f() -> Result<(), Box<dyn std::error::Error>> {
    /// use std::sync::Arc;
    /// use fix_engine::config::{Schedule, SessionBuilder, Settings};
    /// let socket = Arc::new(std::net::TcpListener::bind("127.0.0.1:0")?);
    /// let port = socket.local_addr()?.port();
    /// let venue = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_address("127.0.0.1")
    ///     .socket_accept_port(port)
    ///     .schedule(Schedule::non_stop())
    ///     .build()?;
    /// let mut options = fix_engine::EngineOptions::default();
    /// options.listeners.push(socket.clone());
    /// struct App;
    /// impl fix_session::Application for App {}
    /// let settings = Settings::new([venue])?;
    /// let engine = fix_engine::Engine::start_with(settings.clone(), &fix44::DICTIONARY, options.clone(), |_, _| App).await?;
    /// engine.shutdown(std::time::Duration::from_secs(5)).await?;
    /// // The same port again: `socket` kept it.
    /// let engine = fix_engine::Engine::start_with(settings, &fix44::DICTIONARY, options, |_, _| App).await?;
    /// # Ok(()) }
    /// ```
    pub listeners: Vec<std::sync::Arc<std::net::TcpListener>>,
}

/// What [`EngineOptions::queued_while_down`] does with the messages still
/// queued when a connection ends.
///
/// ```
/// assert_eq!(fix_engine::QueuedWhileDown::default(), fix_engine::QueuedWhileDown::Wait);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QueuedWhileDown {
    /// They go after the next Logon, within `max_queued_age`.
    #[default]
    Wait,
    /// They are dropped, counted in an event, tracked senders told
    /// ([`NotSent::Disconnected`](crate::NotSent::Disconnected)).
    Drop,
}

impl Default for EngineOptions {
    fn default() -> Self {
        EngineOptions {
            queue_capacity: 1 << 20,
            output_high_water: 1 << 20,
            max_output: 16 << 20,
            read_buffer: 64 << 10,
            memory_store_capacity: (0, 0),
            connect_timeout: Duration::from_secs(10),
            first_message_timeout: Duration::from_secs(10),
            linger: Duration::from_secs(2),
            max_pending_connections: 256,
            max_template_sessions: 1024,
            tcp_keepalive: Some(Duration::from_secs(30)),
            max_queued_age: Some(Duration::from_secs(120)),
            queued_while_down: QueuedWhileDown::Wait,
            admin_socket: None,
            max_held_bytes: 1 << 30,
            listeners: Vec::new(),
        }
    }
}
