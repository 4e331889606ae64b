//! [`Engine`]: the sessions of a [`Settings`], each with its store,
//! application and handle; a listener per acceptor port and a task per
//! initiator, all running connections through the one driver.

use std::collections::HashMap;
use std::io;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use fix_core::Parser;
use fix_core::validate::Schema;
use fix_session::{
    Application, FileStore, MemoryStore, Role, Session, SessionId, StoreError, SyncPolicy,
};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;
use tracing::Instrument;

use crate::config::{SessionSettings, Settings, Transport};
use crate::dictionary::DictionarySource;
use crate::driver::{self, End, Limits, SessionCell, Store};
use crate::handle::{LOGOUT, SessionHandle, Shared};
use crate::journal::Journal;
use crate::log::{FileLog, Log, LogError};
use crate::transport::Stream;

/// An acceptor port's TLS configuration, `None` for plain TCP.
#[cfg(feature = "tls")]
type ServerTls = Option<Arc<rustls::ServerConfig>>;
#[cfg(not(feature = "tls"))]
type ServerTls = Option<NoTls>;

/// An initiator's TLS configuration and server names, `None` for plain TCP.
#[cfg(feature = "tls")]
type ClientTls = Option<crate::tls::Client>;
#[cfg(not(feature = "tls"))]
type ClientTls = Option<NoTls>;

/// Without the `tls` feature, no TLS configuration exists: always `None`.
#[cfg(not(feature = "tls"))]
#[derive(Clone, Debug)]
enum NoTls {}

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
    /// Bytes of the outgoing queue [`SessionHandle::send`] writes into (each
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
    /// The [`MemoryStore`] capacity (messages, bytes) of a session without
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
        }
    }
}

/// Why the engine did not start, or did not stop cleanly: an
/// [`EngineErrorKind`], boxed (errors are rare; a small `Result` keeps every
/// call that returns one cheap).
///
/// ```
/// use fix_engine::{EngineError, EngineErrorKind, TlsFileError};
/// let e = EngineError::from(EngineErrorKind::TlsFile {
///     id: fix_session::SessionId::new("FIX.4.4", "A", "B"),
///     setting: "ServerCertificateFile",
///     path: "server.crt".into(),
///     error: TlsFileError::NoCertificate,
/// });
/// assert_eq!(e.to_string(), "session FIX.4.4:A->B: ServerCertificateFile server.crt: holds no certificate (a PEM CERTIFICATE section)");
/// assert!(matches!(e.kind(), EngineErrorKind::TlsFile { .. }));
/// ```
#[derive(Debug)]
pub struct EngineError(Box<EngineErrorKind>);

impl EngineError {
    /// What went wrong.
    ///
    /// ```
    /// # use fix_engine::{EngineError, EngineErrorKind};
    /// let e = EngineError::from(EngineErrorKind::Unsupported { id: fix_session::SessionId::new("FIX.4.4", "A", "B"), setting: "SocketUseSSL" });
    /// assert!(matches!(e.kind(), EngineErrorKind::Unsupported { setting: "SocketUseSSL", .. }));
    /// ```
    pub fn kind(&self) -> &EngineErrorKind {
        &self.0
    }
}

impl From<EngineErrorKind> for EngineError {
    fn from(kind: EngineErrorKind) -> Self {
        EngineError(Box::new(kind))
    }
}

/// What an [`EngineError`] is.
///
/// ```
/// let k = fix_engine::EngineErrorKind::Unsupported { id: fix_session::SessionId::new("FIX.4.4", "A", "B"), setting: "SocketUseSSL" };
/// assert!(matches!(k, fix_engine::EngineErrorKind::Unsupported { .. }));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum EngineErrorKind {
    /// A listening socket could not be bound.
    Bind {
        /// The address and port.
        address: String,
        /// What the system said.
        error: io::Error,
    },
    /// A session's store could not be opened, or synced at shutdown.
    Store {
        /// The session.
        id: SessionId,
        /// What the store said.
        error: StoreError,
    },
    /// A session's dictionary could not be had: a file that does not read or
    /// resolve, or files the engine's [`DictionarySource`] does not read.
    Dictionary {
        /// The session.
        id: SessionId,
        /// The file (empty when the session names none).
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A session's log (`FileLogPath`) could not be opened, or flushed at
    /// shutdown.
    Log {
        /// The session.
        id: SessionId,
        /// What the log said.
        error: LogError,
    },
    /// A setting the engine does not implement: `SocketUseSSL` in a build
    /// without the `tls` feature.
    Unsupported {
        /// The session.
        id: SessionId,
        /// The setting's name.
        setting: &'static str,
    },
    /// A TLS file a session names (its certificate, key or certificate
    /// authorities) could not be used.
    TlsFile {
        /// The session (for an acceptor port, the port's first).
        id: SessionId,
        /// The setting naming the file: `ServerCertificateFile`,
        /// `ServerCertificateKeyFile`, `ClientCertificateFile`,
        /// `ClientCertificateKeyFile` or `CertificationAuthoritiesFile`.
        setting: &'static str,
        /// The file (empty when the setting is not given).
        path: PathBuf,
        /// What is wrong with it.
        error: TlsFileError,
    },
    /// A name an initiator would check the acceptor's certificate against
    /// (`SNIHostName`, else `SocketConnectHost`) is neither a DNS name nor an
    /// IP address.
    TlsServerName {
        /// The session.
        id: SessionId,
        /// The setting the name comes from (`SNIHostName`, `SocketConnectHost`,
        /// `SocketConnectHost1`, …).
        setting: String,
        /// The name.
        name: String,
    },
}

/// What is wrong with a TLS file ([`EngineErrorKind::TlsFile`]).
///
/// ```
/// use fix_engine::TlsFileError;
/// assert_eq!(TlsFileError::NoPrivateKey.to_string(), "holds no private key (a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY section)");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum TlsFileError {
    /// The setting is not given, where it is needed (settings made by hand).
    NotGiven,
    /// The file could not be read.
    Read(io::Error),
    /// The file is not well-formed PEM.
    Pem(String),
    /// The file holds no certificate.
    NoCertificate,
    /// The file holds no private key.
    NoPrivateKey,
    /// The file's private key is encrypted (with a passphrase), which the
    /// engine does not read.
    EncryptedKey,
    /// The private key is not the certificate's.
    KeyMismatch,
    /// The TLS library refused what the file holds (a key of a kind it does
    /// not take, a certificate that does not parse): what it said.
    Rejected(String),
}

impl std::fmt::Display for TlsFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TlsFileError::NotGiven => f.write_str("is not given"),
            TlsFileError::Read(e) => write!(f, "cannot be read: {e}"),
            TlsFileError::Pem(e) => write!(f, "is not well-formed PEM: {e}"),
            TlsFileError::NoCertificate => {
                f.write_str("holds no certificate (a PEM CERTIFICATE section)")
            }
            TlsFileError::NoPrivateKey => f.write_str(
                "holds no private key (a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY section)",
            ),
            TlsFileError::EncryptedKey => f.write_str(
                "holds an encrypted private key, which is not read: give the key decrypted (openssl pkey -in key.pem -out plain.pem)",
            ),
            TlsFileError::KeyMismatch => {
                f.write_str("the private key does not match the certificate")
            }
            TlsFileError::Rejected(e) => write!(f, "cannot be used: {e}"),
        }
    }
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind() {
            EngineErrorKind::Bind { address, error } => {
                write!(f, "cannot listen on {address}: {error}")
            }
            EngineErrorKind::Store { id, error } => write!(f, "session {id}: {error}"),
            EngineErrorKind::Log { id, error } => write!(f, "session {id}: log: {error}"),
            EngineErrorKind::Dictionary { id, path, message } if path.as_os_str().is_empty() => {
                write!(f, "session {id}: {message}")
            }
            EngineErrorKind::Dictionary { id, path, message } => {
                write!(f, "session {id}: {}: {message}", path.display())
            }
            EngineErrorKind::Unsupported { id, setting } if *setting == "SocketUseSSL" => {
                write!(
                    f,
                    "session {id}: SocketUseSSL=Y needs fix-engine's `tls` feature, which this build leaves out"
                )
            }
            EngineErrorKind::TlsFile {
                id,
                setting,
                path,
                error,
            } if path.as_os_str().is_empty() => write!(f, "session {id}: {setting} {error}"),
            EngineErrorKind::TlsFile {
                id,
                setting,
                path,
                error,
            } => write!(f, "session {id}: {setting} {}: {error}", path.display()),
            EngineErrorKind::TlsServerName { id, setting, name } => write!(
                f,
                "session {id}: {setting} {name:?} is neither a DNS name nor an IP address, which the acceptor's certificate is checked against"
            ),
            EngineErrorKind::Unsupported { id, setting } => {
                write!(
                    f,
                    "session {id}: {setting} is not supported by the engine yet"
                )
            }
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.kind() {
            EngineErrorKind::Bind { error, .. } => Some(error),
            EngineErrorKind::Store { error, .. } => Some(error),
            EngineErrorKind::TlsFile {
                error: TlsFileError::Read(error),
                ..
            } => Some(error),
            EngineErrorKind::Log { error, .. } => Some(error),
            EngineErrorKind::Dictionary { .. }
            | EngineErrorKind::Unsupported { .. }
            | EngineErrorKind::TlsFile { .. }
            | EngineErrorKind::TlsServerName { .. } => None,
        }
    }
}

type AppFactory = dyn Fn(&SessionId, SessionHandle) -> Box<dyn Application + Send> + Send + Sync;

/// One session of the engine.
struct Entry<D: Schema> {
    settings: SessionSettings,
    shared: Arc<Shared>,
    /// The session, with the connection that runs it (if one does).
    cell: Arc<SessionCell<D>>,
}

impl<D: Schema> Entry<D> {
    /// Writes an event to the session's log while no connection runs it (a
    /// failed connection attempt); a log that fails is reported, the attempt
    /// goes on being retried.
    fn event(&self, text: &str) {
        let mut slot = self.cell.lock();
        if !slot.running
            && let Err(error) = slot.journal.event(SystemTime::now(), text)
        {
            tracing::error!(%error, "the log could not be written");
        }
    }
}

struct Inner<D: Schema> {
    settings: Settings,
    dicts: Box<dyn DictionarySource<D> + Send + Sync>,
    options: EngineOptions,
    apps: Box<AppFactory>,
    sessions: Mutex<HashMap<SessionId, Arc<Entry<D>>>>,
    /// How many of `sessions` acceptor templates made.
    template_sessions: AtomicUsize,
    /// Accepted connections waiting for their first message.
    pending: Pending,
    shutdown: watch::Sender<bool>,
    tasks: Mutex<JoinSet<()>>,
}

/// The accepted connections waiting for their first message, oldest first,
/// each with the signal that closes it.
#[derive(Default)]
struct Pending {
    waiting: Mutex<Waiting>,
}

/// The connections [`Pending`] holds, numbered as they came.
#[derive(Default)]
struct Waiting {
    last: u64,
    queue: std::collections::VecDeque<(u64, Arc<tokio::sync::Notify>)>,
}

impl Pending {
    /// Registers a new connection; past `max`, the oldest is told to close.
    fn enter(&self, max: usize) -> (u64, Arc<tokio::sync::Notify>) {
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        waiting.last += 1;
        let id = waiting.last;
        let close = Arc::new(tokio::sync::Notify::new());
        waiting.queue.push_back((id, close.clone()));
        while waiting.queue.len() > max.max(1) {
            if let Some((_, oldest)) = waiting.queue.pop_front() {
                tracing::warn!(
                    max_pending_connections = max,
                    "too many connections waiting for a Logon: the longest waiting is closed"
                );
                oldest.notify_one();
            }
        }
        (id, close)
    }

    /// The connection `id` has its first message, or is gone.
    fn leave(&self, id: u64) {
        let mut waiting = self.waiting.lock().unwrap_or_else(PoisonError::into_inner);
        waiting.queue.retain(|(n, _)| *n != id);
    }
}

/// The FIX engine: acceptors and initiators running the sessions of a
/// [`Settings`] on the current tokio runtime.
///
/// Each session has its store (a [`FileStore`] in `FileStorePath`, else a
/// [`MemoryStore`]), an [`Application`] made for it by the factory given to
/// [`start`](Self::start) and called on the session's connection task (it
/// must not block: hand slow work to another task), and a [`SessionHandle`]
/// for sending from anywhere. Acceptor sessions sharing a port share one
/// listener and are told apart by the CompIDs of the connection's first
/// message, a Logon: one no session or acceptor template takes is closed
/// before anything is made for it. Initiators connect, log on, and connect
/// again `ReconnectInterval` after a drop or a round of failed attempts (see
/// [`InitiatorTransport`](crate::config::InitiatorTransport) for why a fixed
/// interval, as QuickFIX has it). Sessions run only inside their
/// schedule; a new period starts them with sequence numbers at 1.
///
/// Sessions validate against what the [`DictionarySource`] given to
/// [`start`](Self::start) gives them: one schema for all (a generated crate's
/// tables), or the files their settings name ([`FileDictionaries`](crate::FileDictionaries)).
/// TLS (`SocketUseSSL=Y`, the default `tls` feature) runs over rustls with
/// the settings' PEM files ([`Tls`](crate::config::Tls)), read when the engine
/// starts; the handshake is done before a session sees the connection, and a
/// failed one is a refused connection (an initiator tries again
/// `ReconnectInterval` later).
/// A session with `FileLogPath` writes QuickFIX's message and event logs
/// ([`FileLog`]): every message both ways, whole and in order, and the
/// session's events; lines reach the file within a second, at every event,
/// and at the end of each connection. A log that cannot be written ends the
/// connection (the messages are in the store: a resend brings them back).
/// Dropping the engine without [`shutdown`](Self::shutdown)
/// aborts its tasks: no Logout is sent.
///
/// ```no_run
/// use fix_engine::{Engine, config::Settings};
/// use fix_session::Application;
///
/// struct App;
/// impl Application for App {}
///
/// #[tokio::main(flavor = "current_thread")]
/// async fn main() -> Result<(), Box<dyn std::error::Error>> {
///     // Every session validates against fix44's tables (so the file names
///     // no DataDictionary; `FileDictionaries` reads the files a file names).
///     let settings = Settings::from_path("executor.cfg")?;
///     let engine = Engine::start(settings, &fix44::DICTIONARY, |_id, _handle| App).await?;
///     tokio::time::sleep(std::time::Duration::from_secs(8 * 3600)).await; // a trading day
///     engine.shutdown(std::time::Duration::from_secs(5)).await?;
///     Ok(())
/// }
/// ```
pub struct Engine<D: Schema> {
    inner: Arc<Inner<D>>,
    local_addrs: Vec<SocketAddr>,
}

/// Dropped without [`shutdown`](Engine::shutdown), the engine stops at once:
/// its listeners, initiators and connections are aborted, with no Logout.
impl<D: Schema> Drop for Engine<D> {
    fn drop(&mut self) {
        self.inner.shutdown.send_replace(true);
        // The tasks hold the engine's state: aborted, they let it go.
        self.inner
            .tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .abort_all();
    }
}

impl<D: Schema> std::fmt::Debug for Engine<D> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("local_addrs", &self.local_addrs)
            .finish_non_exhaustive()
    }
}

impl<D: Schema + Send + Sync + 'static> Engine<D> {
    /// Starts the sessions of `settings`, validating against what `dicts`
    /// gives each (`&fix44::DICTIONARY` for all, or [`FileDictionaries`](crate::FileDictionaries)),
    /// with the default [`EngineOptions`]; `apps` makes each session's
    /// application (given the session's ID and handle).
    ///
    /// ```no_run
    /// # async fn f(settings: fix_engine::config::Settings) -> Result<(), fix_engine::EngineError> {
    /// struct App;
    /// impl fix_session::Application for App {}
    /// let engine = fix_engine::Engine::start(settings, &fix44::DICTIONARY, |_, _| App).await?;
    /// # Ok(()) }
    /// ```
    pub async fn start<S, A, F>(
        settings: Settings,
        dicts: S,
        apps: F,
    ) -> Result<Engine<D>, EngineError>
    where
        S: DictionarySource<D> + Send + Sync + 'static,
        A: Application + Send + 'static,
        F: Fn(&SessionId, SessionHandle) -> A + Send + Sync + 'static,
    {
        Engine::start_with(settings, dicts, EngineOptions::default(), apps).await
    }

    /// [`start`](Self::start) with `options`. Opens every configured
    /// session's store and binds every listener before it returns.
    ///
    /// ```no_run
    /// # async fn f(settings: fix_engine::config::Settings) -> Result<(), fix_engine::EngineError> {
    /// # struct App; impl fix_session::Application for App {}
    /// let mut options = fix_engine::EngineOptions::default();
    /// options.memory_store_capacity = (100_000, 64 << 20);
    /// let engine = fix_engine::Engine::start_with(settings, &fix44::DICTIONARY, options, |_, _| App).await?;
    /// # Ok(()) }
    /// ```
    pub async fn start_with<S, A, F>(
        settings: Settings,
        dicts: S,
        options: EngineOptions,
        apps: F,
    ) -> Result<Engine<D>, EngineError>
    where
        S: DictionarySource<D> + Send + Sync + 'static,
        A: Application + Send + 'static,
        F: Fn(&SessionId, SessionHandle) -> A + Send + Sync + 'static,
    {
        for s in settings
            .sessions()
            .iter()
            .chain(settings.templates().iter().map(|t| t.settings()))
        {
            supported(s)?;
        }
        // What the settings file had that the engine passes over or does not
        // apply, told where the engine's events go (the list is
        // `Settings::warnings`).
        for w in settings.warnings() {
            tracing::warn!(warning = %w, "settings");
        }
        // Every TLS file is read before a socket is bound.
        let mut server_tls = Vec::new();
        for l in settings.listeners() {
            server_tls.push(server_tls_of(&l)?);
        }
        let mut client_tls = HashMap::new();
        for s in settings.sessions() {
            client_tls.insert(s.session.id.clone(), client_tls_of(s)?);
        }
        let mut listeners = Vec::new();
        let mut local_addrs = Vec::new();
        for (l, tls) in settings.listeners().into_iter().zip(server_tls) {
            let host = l.address.as_deref().unwrap_or("0.0.0.0");
            let listener = crate::net::bind(host, l.port, l.reuse_address, &l.socket)
                .await
                .map_err(|error| {
                    EngineError::from(EngineErrorKind::Bind {
                        address: format!("{host}:{}", l.port),
                        error,
                    })
                })?;
            if let Ok(a) = listener.local_addr() {
                local_addrs.push(a);
            }
            listeners.push((listener, l.port, tls));
        }
        let apps: Box<AppFactory> = Box::new(move |id, handle| Box::new(apps(id, handle)));
        let inner = Arc::new(Inner {
            dicts: Box::new(dicts),
            options,
            apps,
            sessions: Mutex::new(HashMap::new()),
            template_sessions: AtomicUsize::new(0),
            pending: Pending::default(),
            shutdown: watch::Sender::new(false),
            tasks: Mutex::new(JoinSet::new()),
            settings,
        });
        let mut initiators = Vec::new();
        for s in inner.settings.sessions() {
            let entry = inner.make_entry(s.clone())?;
            if matches!(s.transport, Transport::Initiator(_)) {
                let tls = client_tls.remove(&s.session.id).flatten();
                initiators.push((entry.clone(), tls));
            }
            inner.lock_sessions().insert(s.session.id.clone(), entry);
        }
        for (listener, port, tls) in listeners {
            let task = listen(inner.clone(), listener, port, tls);
            inner.spawn(task.instrument(tracing::info_span!("fix_acceptor", port)));
        }
        for (entry, tls) in initiators {
            let span = tracing::info_span!("fix_initiator", session = %entry.shared.id);
            inner.spawn(initiate(inner.clone(), entry, tls).instrument(span));
        }
        Ok(Engine { inner, local_addrs })
    }

    /// The handle of session `id` (a configured one, or one an acceptor
    /// template made).
    ///
    /// ```no_run
    /// # fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) {
    /// let handle = engine.session(&fix_session::SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1"));
    /// # }
    /// ```
    pub fn session(&self, id: &SessionId) -> Option<SessionHandle> {
        let sessions = self.inner.lock_sessions();
        sessions
            .get(id)
            .map(|e| SessionHandle::new(e.shared.clone()))
    }

    /// The addresses the listeners are bound to, in the order of
    /// [`Settings::listeners`]: the port the system picked for a
    /// `SocketAcceptPort` of 0.
    ///
    /// ```no_run
    /// # fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) {
    /// for addr in engine.local_addrs() { println!("listening on {addr}"); }
    /// # }
    /// ```
    pub fn local_addrs(&self) -> &[SocketAddr] {
        &self.local_addrs
    }

    /// Stops: no new connections; a Logout to every logged-on session (others
    /// are disconnected), after what its handles queued; waits up to `timeout`
    /// for the answers (each session also gives up after its LogoutTimeout),
    /// closes what is left, syncs every store and flushes every log. The first
    /// store or log that fails is the error. Messages still queued (a session
    /// that was not connected) are never sent: they are dropped with a warning,
    /// counted in the [`Shutdown`] returned, and their tracked sends told
    /// ([`NotSent::EngineStopped`](crate::NotSent::EngineStopped)).
    ///
    /// ```no_run
    /// # async fn f(engine: fix_engine::Engine<&'static fix_core::typed::Tables>) -> Result<(), fix_engine::EngineError> {
    /// let stopped = engine.shutdown(std::time::Duration::from_secs(5)).await?;
    /// if stopped.dropped > 0 {
    ///     eprintln!("{} queued messages were never sent", stopped.dropped);
    /// }
    /// # Ok(()) }
    /// ```
    pub async fn shutdown(self, timeout: Duration) -> Result<Shutdown, EngineError> {
        let inner = &self.inner;
        inner.shutdown.send_replace(true);
        let entries: Vec<Arc<Entry<D>>> = inner.lock_sessions().values().cloned().collect();
        for e in &entries {
            e.shared.command(LOGOUT);
        }
        let mut tasks = std::mem::take(&mut *inner.lock_tasks());
        let all_done = async { while tasks.join_next().await.is_some() {} };
        if tokio::time::timeout(timeout, all_done).await.is_err() {
            tracing::warn!("shutdown timed out: closing the connections left");
            tasks.abort_all();
            while tasks.join_next().await.is_some() {}
        }
        let mut result = Ok(());
        let mut dropped = 0;
        for e in &entries {
            let queued = e.shared.drop_queued(&crate::NotSent::EngineStopped);
            if queued > 0 {
                tracing::warn!(session = %e.shared.id, queued, "queued messages were never sent: the engine stopped");
                e.event(&format!(
                    "Dropped {queued} queued messages never sent: the engine stopped"
                ));
            }
            dropped += queued;
            // Every connection task has ended (or was aborted, leaving its
            // session as it was between two steps): the stores are synced.
            let mut slot = e.cell.lock();
            let id = e.shared.id.clone();
            let failed = match slot.session.store_mut().sync() {
                Err(error) => Some(EngineErrorKind::Store { id, error }),
                Ok(()) => slot
                    .journal
                    .flush()
                    .err()
                    .map(|error| EngineErrorKind::Log { id, error }),
            };
            if let Some(kind) = failed
                && result.is_ok()
            {
                result = Err(EngineError::from(kind));
            }
        }
        result.map(|()| Shutdown { dropped })
    }
}

/// What [`Engine::shutdown`] left undone.
///
/// ```
/// let stopped = fix_engine::Shutdown { dropped: 0 };
/// assert_eq!(stopped.dropped, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Shutdown {
    /// Messages still queued on the handles, never sent, dropped.
    pub dropped: usize,
}

/// Refuses the settings the engine does not implement, rather than ignoring them.
fn supported(s: &SessionSettings) -> Result<(), EngineError> {
    let unsupported = |setting| {
        Err(EngineError::from(EngineErrorKind::Unsupported {
            id: s.session.id.clone(),
            setting,
        }))
    };
    if cfg!(not(feature = "tls")) && s.tls.is_some() {
        return unsupported("SocketUseSSL");
    }
    Ok(())
}

/// The TLS configuration of listener `l`, its files read.
#[cfg(feature = "tls")]
fn server_tls_of(l: &crate::config::Listener) -> Result<ServerTls, EngineError> {
    let Some(tls) = &l.tls else {
        return Ok(None);
    };
    // A listener has a session or a template: errors are told under the first.
    let id = l.sessions.first().or(l.templates.first());
    let id = id.cloned().unwrap_or_else(|| SessionId::new("", "", ""));
    crate::tls::server(&id, tls).map(Some)
}

/// The TLS configuration of initiator session `s`, its files read; `None` for
/// plain TCP or an acceptor.
#[cfg(feature = "tls")]
fn client_tls_of(s: &SessionSettings) -> Result<ClientTls, EngineError> {
    match (&s.tls, &s.transport) {
        (Some(tls), Transport::Initiator(i)) => {
            crate::tls::client(&s.session.id, tls, &i.endpoints).map(Some)
        }
        _ => Ok(None),
    }
}

/// Without the `tls` feature, `supported` has refused TLS already.
#[cfg(not(feature = "tls"))]
fn server_tls_of(_: &crate::config::Listener) -> Result<ServerTls, EngineError> {
    Ok(None)
}

#[cfg(not(feature = "tls"))]
fn client_tls_of(_: &SessionSettings) -> Result<ClientTls, EngineError> {
    Ok(None)
}

impl<D: Schema + Send + Sync + 'static> Inner<D> {
    fn lock_sessions(&self) -> MutexGuard<'_, HashMap<SessionId, Arc<Entry<D>>>> {
        // Insertions and lookups only: never left broken.
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn lock_tasks(&self) -> MutexGuard<'_, JoinSet<()>> {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) {
        let mut tasks = self.lock_tasks();
        // Reaps finished connections, so the set does not grow with them.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(task);
    }

    fn limits(&self) -> Limits {
        Limits {
            output_high_water: self.options.output_high_water,
            max_output: self.options.max_output,
            linger: self.options.linger,
            sync_every: None,
            max_queued_age: self.options.max_queued_age,
            queued_while_down: self.options.queued_while_down,
        }
    }

    /// A session with its store opened and its application made.
    fn make_entry(&self, settings: SessionSettings) -> Result<Arc<Entry<D>>, EngineError> {
        let id = settings.session.id.clone();
        let dicts = self.dicts.dictionaries(&settings)?;
        // FileStoreSync=Y: durable before sent, by group commit (one sync a
        // step of the connection, for everything the step stored).
        let options = match settings.store_options.sync_policy() {
            SyncPolicy::EveryRecord => settings.store_options.sync(SyncPolicy::Batch),
            _ => settings.store_options,
        };
        let store: Store = match &settings.store_path {
            Some(dir) => Box::new(
                FileStore::open_with(dir, &id.store_name(), options).map_err(|error| {
                    EngineError::from(EngineErrorKind::Store {
                        id: id.clone(),
                        error,
                    })
                })?,
            ),
            None => {
                let (messages, bytes) = self.options.memory_store_capacity;
                Box::new(MemoryStore::with_capacity(messages, bytes))
            }
        };
        let log = match &settings.log_path {
            Some(dir) => {
                let log_error = |error| {
                    EngineError::from(EngineErrorKind::Log {
                        id: id.clone(),
                        error,
                    })
                };
                let mut log =
                    FileLog::open_with(dir, &id, settings.log_options).map_err(log_error)?;
                log.on_event("Created session", SystemTime::now())
                    .map_err(log_error)?;
                Some(log)
            }
            None => None,
        };
        let journal = Journal::new(log)
            .with_heartbeats(settings.log_heartbeats)
            .with_screen(
                settings
                    .screen_log
                    .map(|options| crate::log::ScreenLog::stdout(&id, options)),
            );
        let shared = Shared::new(id.clone(), self.options.queue_capacity);
        let app = crate::logon_tags::LogonTags::wrap(
            (self.apps)(&id, SessionHandle::new(shared.clone())),
            &settings.logon_fields,
        );
        let mut config = settings.session.clone();
        // The log formats the session's events: the session tells of every
        // message when there is a log to write them to.
        config.message_events = journal.logs_messages();
        let session = Session::with_dictionaries(config, store, dicts);
        let cell = Arc::new(SessionCell::new(
            session,
            app,
            journal,
            &shared,
            self.options.read_buffer,
        ));
        let direct: std::sync::Weak<SessionCell<D>> = Arc::downgrade(&cell);
        shared.set_direct(direct);
        Ok(Arc::new(Entry {
            settings,
            shared,
            cell,
        }))
    }

    /// The acceptor session `id` on `port`: a configured one, or one made from
    /// the first template on the port that matches (`true` beside it: made
    /// now); `None` for neither.
    fn acceptor_entry(&self, id: &SessionId, port: u16) -> Option<(Arc<Entry<D>>, bool)> {
        let on_port =
            |s: &SessionSettings| matches!(&s.transport, Transport::Acceptor(a) if a.port == port);
        let mut sessions = self.lock_sessions();
        if let Some(e) = sessions.get(id) {
            return on_port(&e.settings).then(|| (e.clone(), false));
        }
        let template = self
            .settings
            .templates()
            .iter()
            .find(|t| t.matches(id) && on_port(t.settings()))?;
        let max = self.options.max_template_sessions;
        if self.template_sessions.load(Ordering::Acquire) >= max {
            tracing::warn!(
                session = %id,
                max_template_sessions = max,
                "refused: acceptor templates have made as many sessions as allowed"
            );
            return None;
        }
        let settings = template.session_for(id)?;
        match self.make_entry(settings) {
            Ok(e) => {
                tracing::info!(session = %id, "a session made from an acceptor template");
                sessions.insert(id.clone(), e.clone());
                self.template_sessions.fetch_add(1, Ordering::AcqRel);
                Some((e, true))
            }
            Err(error) => {
                tracing::error!(%error, "a template's session could not be made");
                None
            }
        }
    }

    /// Removes a session a template made for a connection whose Logon was
    /// refused: the entry, and the store and log files made for it, so that
    /// Logons naming ever new CompIDs leave nothing behind.
    fn forget_template_session(&self, entry: Arc<Entry<D>>) {
        let id = entry.shared.id.clone();
        {
            let mut sessions = self.lock_sessions();
            match sessions.get(&id) {
                Some(e) if Arc::ptr_eq(e, &entry) && !e.cell.lock().running => {
                    sessions.remove(&id);
                }
                _ => return,
            }
        }
        self.template_sessions.fetch_sub(1, Ordering::AcqRel);
        let settings = entry.settings.clone();
        // The store closes with the session.
        drop(entry);
        if let Some(dir) = &settings.store_path
            && let Err(error) = FileStore::remove(dir, &id.store_name())
        {
            tracing::warn!(session = %id, %error, "the refused session's store could not be removed");
        }
        if let Some(dir) = &settings.log_path
            && let Err(error) = FileLog::remove(dir, &id)
        {
            tracing::warn!(session = %id, %error, "the refused session's log could not be removed");
        }
        tracing::info!(session = %id, "a template's session removed: its first Logon was refused");
    }

    /// Runs one connection of `entry`'s session, if no other runs it, and
    /// puts the session back; whether the session logged on in it.
    async fn connection(&self, entry: &Entry<D>, stream: Stream, initial: &[u8]) -> bool {
        let logons = entry.shared.logons();
        self.run_connection(entry, stream, initial).await;
        entry.shared.logons() != logons
    }

    async fn run_connection(&self, entry: &Entry<D>, stream: Stream, initial: &[u8]) {
        {
            let mut slot = entry.cell.lock();
            if slot.running {
                tracing::warn!(session = %entry.shared.id, "refused: the session is connected already");
                return;
            }
            // A command given while no connection ran is stale. Shutdown raises
            // its flag before it commands a Logout: cleared first, then the flag
            // read, a shutdown's Logout is never lost.
            entry.shared.take_commands();
            if *self.shutdown.borrow() {
                return;
            }
            slot.running = true;
        }
        let role = entry.settings.session.role;
        let peer = match stream.tcp().peer_addr() {
            Ok(a) => a.to_string(),
            Err(e) => format!("an unknown address ({e})"),
        };
        let span = tracing::info_span!(
            "fix_connection",
            session = %entry.shared.id,
            %peer,
            role = ?role,
        );
        let text = match role {
            Role::Initiator => format!("Connected to {peer}"),
            Role::Acceptor => format!("Accepted connection from {peer}"),
        };
        span.in_scope(|| tracing::info!("{}", text));
        entry.shared.set_peer_certificate(stream.peer_certificate());
        let logged = entry.cell.lock().journal.event(SystemTime::now(), &text);
        if let Err(error) = logged {
            span.in_scope(|| tracing::error!(%error, "the log could not be written"));
            entry.cell.lock().running = false;
            return;
        }
        if let Err(e) = stream.tcp().set_nodelay(entry.settings.tcp_nodelay) {
            span.in_scope(|| tracing::warn!(error = %e, "SocketNodelay could not be set"));
        }
        // SocketKeepAlive=N turns it off; otherwise the engine's timings.
        if entry.settings.socket.keepalive != Some(false)
            && let Some(idle) = self.options.tcp_keepalive
            && let Err(e) = crate::transport::set_keepalive(stream.tcp(), idle)
        {
            span.in_scope(|| tracing::warn!(error = %e, "TCP keepalive could not be set"));
        }
        let sync_every = match entry.settings.store_options.sync_policy() {
            SyncPolicy::Interval(every) if entry.settings.store_path.is_some() => Some(every),
            _ => None,
        };
        // The session's QueuedMessageMaxAge and QueuedWhileDown, where
        // given, over the engine's: counterparties differ in how stale an
        // order may go out.
        let engine = self.limits();
        let limits = Limits {
            sync_every,
            max_queued_age: entry
                .settings
                .max_queued_age
                .unwrap_or(engine.max_queued_age),
            queued_while_down: entry
                .settings
                .queued_while_down
                .unwrap_or(engine.queued_while_down),
            ..engine
        };
        let end = driver::run(
            stream,
            &entry.cell,
            &entry.shared,
            &entry.settings.schedule,
            limits,
            initial,
        )
        .instrument(span.clone())
        .await;
        let _entered = span.enter();
        let reason = match &end {
            End::Io(e) => {
                tracing::warn!(error = %e, "the connection failed");
                format!("Disconnecting: the connection failed: {e}")
            }
            End::Failed(e) => {
                tracing::error!(error = %e, "the session failed");
                format!("Disconnecting: the session failed: {e}")
            }
            End::Log(e) => {
                tracing::error!(error = %e, "the log could not be written");
                format!("Disconnecting: the log could not be written: {e}")
            }
            End::Panicked(payload) => {
                let message = End::panic_message(&**payload);
                tracing::error!(panic = message, "the application panicked");
                format!("Disconnecting: the application panicked: {message}")
            }
            End::PeerClosed => {
                tracing::info!("the counterparty closed the connection");
                "Disconnecting: the counterparty closed the connection".to_owned()
            }
            End::Session | End::Disconnected => {
                tracing::info!("disconnected");
                "Disconnecting".to_owned()
            }
        };
        let mut slot = entry.cell.lock();
        if let Err(error) = slot.journal.event(SystemTime::now(), &reason) {
            tracing::error!(%error, "the log could not be written");
        }
        slot.running = false;
    }
}

/// An acceptor port's listener: a task per connection, until shutdown.
async fn listen<D: Schema + Send + Sync + 'static>(
    inner: Arc<Inner<D>>,
    listener: TcpListener,
    port: u16,
    tls: ServerTls,
) {
    let mut shutdown = inner.shutdown.subscribe();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let span = tracing::info_span!("fix_accept", %peer);
                    inner.spawn(accept(inner.clone(), stream, port, tls.clone()).instrument(span));
                }
                Err(e) => {
                    // Out of file descriptors, say: pause rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            () = stopped(&mut shutdown) => return,
        }
    }
}

/// A new connection on an acceptor port: its TLS handshake done (on a TLS
/// port), its first message names the session; an unknown one, or one outside
/// its schedule, is closed having touched nothing.
async fn accept<D: Schema + Send + Sync + 'static>(
    inner: Arc<Inner<D>>,
    tcp: TcpStream,
    port: u16,
    tls: ServerTls,
) {
    let mut shutdown = inner.shutdown.subscribe();
    let (pending, close) = inner.pending.enter(inner.options.max_pending_connections);
    // The handshake and the first message share the first message's time.
    let first = async {
        let peer = tcp.peer_addr().ok();
        let mut stream = open(tcp, tls).await.map_err(|e| {
            tracing::warn!(error = %e, "refused: the TLS handshake failed");
        })?;
        let Some((initial, id)) = first_logon(&mut stream).await else {
            tracing::warn!("refused: no Logon");
            return Err(());
        };
        // Before a session is made for it (from a template).
        if !crate::net::allowed(&inner.settings, &id, port, peer).await {
            tracing::warn!(session = %id, ?peer, "refused: the address is not in AllowedRemoteAddresses");
            return Err(());
        }
        Ok((stream, initial, id))
    };
    let first = tokio::select! {
        first = tokio::time::timeout(inner.options.first_message_timeout, first) => first,
        () = close.notified() => {
            tracing::warn!("closed: waited longest among too many connections without a Logon");
            return;
        }
        () = stopped(&mut shutdown) => {
            inner.pending.leave(pending);
            return;
        }
    };
    inner.pending.leave(pending);
    let (stream, initial, id) = match first {
        Ok(Ok(first)) => first,
        Ok(Err(())) => return,
        Err(_) => {
            tracing::warn!("refused: no Logon in time");
            return;
        }
    };
    let Some((entry, made)) = inner.acceptor_entry(&id, port) else {
        tracing::warn!(session = %id, "refused: no such session");
        return;
    };
    if !entry.settings.schedule.is_active(SystemTime::now()) {
        tracing::warn!(session = %id, "refused: outside the session's schedule");
        if made {
            inner.forget_template_session(entry);
        }
        return;
    }
    if !certificate_allowed(&entry.settings, &stream, &id) {
        tracing::warn!(session = %id, "refused: the client certificate names none of ClientCertificateNames");
        entry.event(
            "Refused a connection: its client certificate names none of ClientCertificateNames",
        );
        if made {
            inner.forget_template_session(entry);
        }
        return;
    }
    let logged_on = inner.connection(&entry, stream, &initial).await;
    if made && !logged_on {
        inner.forget_template_session(entry);
    }
}

/// Whether the connection's client certificate may log on as the session
/// `settings` describe: any, unless `ClientCertificateNames` binds it.
#[cfg(feature = "tls")]
fn certificate_allowed(settings: &SessionSettings, stream: &Stream, id: &SessionId) -> bool {
    let Some(tls) = settings.tls.as_ref().filter(|t| !t.client_names.is_empty()) else {
        return true;
    };
    stream.peer_certificate().is_some_and(|der| {
        crate::tls::certificate_names(&der, &tls.client_names, &id.target_comp_id)
    })
}

#[cfg(not(feature = "tls"))]
fn certificate_allowed(_: &SessionSettings, _: &Stream, _: &SessionId) -> bool {
    true
}

/// An accepted connection's stream: TLS's server side on a TLS port.
async fn open(tcp: TcpStream, tls: ServerTls) -> io::Result<Stream> {
    match tls {
        None => Ok(Stream::plain(tcp)),
        #[cfg(feature = "tls")]
        Some(config) => Stream::accept(tcp, config).await,
        #[cfg(not(feature = "tls"))]
        Some(never) => match never {},
    }
}

/// Reads until the first message is complete; its bytes (and any after them)
/// and the session it is for, seen from our side, when it is a Logon.
async fn first_logon(stream: &mut Stream) -> Option<(Vec<u8>, SessionId)> {
    const MAX_FIRST: usize = 64 << 10;
    let parser = Parser::new();
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        match parser.frame(&buf) {
            Ok(fix_core::Status::Complete(frame)) => {
                let id = logon_id(frame.bytes())?;
                return Some((buf, id));
            }
            Ok(fix_core::Status::Partial { .. }) if buf.len() < MAX_FIRST => {}
            _ => return None,
        }
        stream.ready(tokio::io::Interest::READABLE).await.ok()?;
        match stream.try_read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return None,
        }
    }
}

/// The session a Logon is for, seen from our side: its TargetCompID is our
/// SenderCompID.
fn logon_id(msg: &[u8]) -> Option<SessionId> {
    let (mut begin, mut msg_type, mut sender, mut target) = (None, None, None, None);
    for field in msg.split(|&b| b == fix_core::SOH) {
        let Some(eq) = field.iter().position(|&b| b == b'=') else {
            continue;
        };
        let value = std::str::from_utf8(&field[eq + 1..]).ok();
        match &field[..eq] {
            b"8" => begin = value,
            b"35" => msg_type = value,
            b"49" => sender = value,
            b"56" => target = value,
            _ => {}
        }
        // The CompIDs are in the header: the body (a Logon's RawData, which
        // may hold SOH) is never read.
        if sender.is_some() && target.is_some() {
            break;
        }
    }
    if msg_type != Some("A") {
        return None;
    }
    Some(SessionId::new(begin?, target?, sender?))
}

/// An initiator session: connect (inside the schedule), run the connection,
/// wait ReconnectInterval, again, until shutdown. The wait follows every
/// round, failed or not: counted from the drop rather than from the last
/// attempt, a counterparty that refuses a second Logon while it still holds
/// the first connection gets the whole interval to let that one go.
async fn initiate<D: Schema + Send + Sync + 'static>(
    inner: Arc<Inner<D>>,
    entry: Arc<Entry<D>>,
    tls: ClientTls,
) {
    let Transport::Initiator(transport) = &entry.settings.transport else {
        return;
    };
    let mut shutdown = inner.shutdown.subscribe();
    let schedule = &entry.settings.schedule;
    // The endpoint the next round tries first.
    let mut next = 0;
    loop {
        if *shutdown.borrow() {
            return;
        }
        let now = SystemTime::now();
        if !schedule.is_active(now) {
            let wait = schedule
                .next_start(now)
                .and_then(|t| t.duration_since(now).ok())
                .unwrap_or(Duration::from_secs(3600));
            tracing::info!(
                in_seconds = wait.as_secs(),
                "outside the schedule: waiting for its start"
            );
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                () = stopped(&mut shutdown) => return,
            }
            continue;
        }
        let count = transport.endpoints.len();
        for n in (0..count).map(|i| (next + i) % count) {
            let endpoint = &transport.endpoints[n];
            let address = (endpoint.host.as_str(), endpoint.port);
            // The TLS handshake is part of connecting, within its time.
            let connect = async {
                let tcp = crate::net::connect(address, &entry.settings.socket)
                    .await
                    .map_err(|e| ("Connection to", e))?;
                secure(tcp, &tls, n)
                    .await
                    .map_err(|e| ("TLS handshake with", e))
            };
            let limit = entry.settings.connect_timeout;
            let connect =
                tokio::time::timeout(limit.unwrap_or(inner.options.connect_timeout), connect);
            let connected = tokio::select! {
                connected = connect => connected,
                () = stopped(&mut shutdown) => return,
            };
            match connected {
                Ok(Ok(stream)) => {
                    // As QuickFIX: a connection whose Logon was refused (or
                    // never answered) sends the next attempt to the next
                    // host; one that logged on, to the first again.
                    let logged_on = inner.connection(&entry, stream, &[]).await;
                    next = if logged_on { 0 } else { (n + 1) % count };
                    break;
                }
                Ok(Err((what, e))) => {
                    // `what` names the step: "Connection to", "TLS handshake with".
                    tracing::warn!(%endpoint, error = %e, "{what} the endpoint failed");
                    entry.event(&format!("{what} {endpoint} failed: {e}"));
                }
                Err(_) => {
                    tracing::warn!(%endpoint, "connection timed out");
                    entry.event(&format!("Connection to {endpoint} timed out"));
                }
            }
        }
        tokio::select! {
            () = tokio::time::sleep(transport.reconnect_interval) => {}
            () = stopped(&mut shutdown) => return,
        }
    }
}

/// An initiator's stream to endpoint `n`: TLS's client side, checking the
/// endpoint's server name, when the session has TLS.
#[cfg_attr(not(feature = "tls"), allow(unused_variables))]
async fn secure(tcp: TcpStream, tls: &ClientTls, n: usize) -> io::Result<Stream> {
    match tls {
        None => Ok(Stream::plain(tcp)),
        #[cfg(feature = "tls")]
        Some(tls) => {
            // One name per endpoint, made from the same list.
            let name = tls
                .names
                .get(n)
                .cloned()
                .ok_or_else(|| io::Error::other("no server name for this endpoint"))?;
            Stream::connect(tcp, tls.config.clone(), name).await
        }
        #[cfg(not(feature = "tls"))]
        Some(never) => match *never {},
    }
}

/// Resolves once the engine is shutting down.
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is dropped here, not held across a select.
    let _ = shutdown.wait_for(|stop| *stop).await;
}
