//! [`Engine`]: the sessions of a [`Settings`], each with its store,
//! application and handle; a listener per acceptor port and a task per
//! initiator, all running connections through the one driver.
//!
//! This module holds the engine itself (its sessions, their connections'
//! start and end, shutdown); `accept` and `initiate` are the two ways a
//! connection comes, `options` and `error` the engine's public
//! configuration and errors.

mod accept;
#[cfg(unix)]
mod admin_socket;
mod error;
mod initiate;
mod listeners;
mod options;
mod store;

pub use store::shared_log_syncs;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use fix_core::validate::Schema;
use fix_session::{Application, FileStore, MemoryStore, Role, Session, SessionId, SyncPolicy};
use tokio::sync::watch;
use tokio::task::{AbortHandle, JoinSet};
use tracing::Instrument;

use self::accept::{listen, server_tls_of};
pub use self::error::{EngineError, EngineErrorKind};
use self::initiate::{client_tls_of, initiate};
pub use self::options::{EngineOptions, QueuedWhileDown};
use crate::config::{SessionSettings, Settings, Transport};
use crate::dictionary::DictionarySource;
use crate::driver::{self, Claim, End, Limits, SessionCell, Store, Unflushed};
use crate::handle::{Command, Gate, SessionHandle, Shared};
use crate::journal::Journal;
use crate::log::{FileLog, Log};
use crate::operator::{OperatorCommand, OperatorError, SessionStatus};
use crate::transport::Stream;

/// What every connection's event log (and the start) says of a session whose
/// peer's certificate is not checked (`SSLValidateCertificates=N`,
/// `SocketInsecureSkipVerify=Y`).
pub(crate) const UNCHECKED_CERTIFICATES: &str = "; TLS without certificate checks (SSLValidateCertificates=N or SocketInsecureSkipVerify=Y): anyone can pose as the peer";

/// Without the `tls` feature, no TLS configuration exists: always `None`.
#[cfg(not(feature = "tls"))]
#[derive(Clone, Debug)]
enum NoTls {}

/// An initiator session, with the TLS its task connects with.
type Initiator<D> = (Arc<Entry<D>>, initiate::ClientTls);

type AppFactory = dyn Fn(&SessionId, SessionHandle) -> Box<dyn Application + Send> + Send + Sync;

/// One session of the engine.
struct Entry<D: Schema> {
    settings: SessionSettings,
    shared: Arc<Shared>,
    /// The session, with the connection that runs it (if one does).
    cell: Arc<SessionCell<D>>,
    /// Made by an acceptor template (counted against
    /// `max_template_sessions` while it is in the engine).
    from_template: bool,
}

impl<D: Schema> Entry<D> {
    /// Writes an event to the session's log while no connection runs it (a
    /// failed connection attempt); a log that fails is reported, the attempt
    /// goes on being retried.
    fn event(&self, text: &str) {
        if let Err(error) = self.cell.event_if_idle(text) {
            tracing::error!(%error, "the log could not be written");
        }
    }
}

struct Inner<D: Schema> {
    /// What the sessions hold together of what peers make them hold
    /// (`EngineOptions::max_held_bytes`).
    held: fix_session::MemoryBudget,
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
    /// What the sessions' database stores share (the lease budget).
    stores: store::Stores,
    /// The listening sockets: where an acceptor session added at run time
    /// is reached, on a listener already there or on one bound for it.
    listeners: listeners::Listeners,
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
        let sessions = self
            .inner
            .sessions
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for e in sessions.values() {
            SessionCell::<D>::refuse_operator_commands(&e.shared);
        }
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
        check_settings(&settings)?;
        // Every TLS file is read before a socket is bound.
        let mut server_tls = Vec::new();
        for l in settings.listeners() {
            server_tls.push(server_tls_of(&l)?);
        }
        let mut client_tls = HashMap::new();
        for s in settings.sessions() {
            client_tls.insert(s.session.id.clone(), client_tls_of(s)?);
        }
        #[cfg(unix)]
        let admin = bind_admin_socket(&options, &settings)?;
        let configured = settings.listeners();
        listeners::check_given(&options.listeners, &configured)?;
        let mut bound = Vec::new();
        for (l, tls) in configured.into_iter().zip(server_tls) {
            let (listener, local) = listeners::bind(&l, &options.listeners).await?;
            bound.push((listener, local, l, tls));
        }
        let local_addrs = bound.iter().map(|(_, local, _, _)| *local).collect();
        let listening = bound
            .iter()
            .map(|(_, local, l, _)| listeners::Listening {
                config: l.clone(),
                local: *local,
                added: None,
            })
            .collect();
        let apps: Box<AppFactory> = Box::new(move |id, handle| Box::new(apps(id, handle)));
        let inner = Arc::new(Inner {
            held: fix_session::MemoryBudget::new(options.max_held_bytes),
            dicts: Box::new(dicts),
            options,
            apps,
            sessions: Mutex::new(HashMap::new()),
            template_sessions: AtomicUsize::new(0),
            pending: Pending::default(),
            shutdown: watch::Sender::new(false),
            tasks: Mutex::new(JoinSet::new()),
            stores: store::Stores::default(),
            listeners: listeners::Listeners::new(listening),
            settings,
        });
        let initiators = inner.open_sessions(client_tls)?;
        for (listener, _, l, tls) in bound {
            let port = l.port;
            let task = listen(inner.clone(), listener, port, tls);
            inner.spawn(task.instrument(tracing::info_span!("fix_acceptor", port)));
        }
        for (entry, tls) in initiators {
            let span = tracing::info_span!("fix_initiator", session = %entry.shared.id);
            inner.spawn(initiate(inner.clone(), entry, tls).instrument(span));
        }
        #[cfg(unix)]
        if let Some((listener, path)) = admin {
            let span = tracing::info_span!("fix_admin", path = %path.display());
            inner.spawn(admin_socket::serve(inner.clone(), listener, path).instrument(span));
        }
        Ok(Engine { inner, local_addrs })
    }

    /// The IDs of the engine's sessions (configured, made from a template,
    /// added at run time), in order.
    ///
    /// ```no_run
    /// # fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) {
    /// for id in engine.sessions() { println!("{id}"); }
    /// # }
    /// ```
    pub fn sessions(&self) -> Vec<SessionId> {
        self.inner.session_ids()
    }

    /// What the engine's sessions hold now, together, of what peers make
    /// them hold: messages queued above gaps and output peers have not taken
    /// (bounded by `EngineOptions::max_held_bytes`).
    ///
    /// ```no_run
    /// # fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) {
    /// println!("{} bytes held for peers", engine.held_bytes());
    /// # }
    /// ```
    pub fn held_bytes(&self) -> usize {
        self.inner.held.held()
    }

    /// The disk syncs made by the shared logs this engine's sessions store
    /// into (`FileStoreShared=Y`), since each was opened: one covers every
    /// session (of this engine or another in the process) that wrote to the
    /// log meanwhile, so this counts the disk's work, not the sessions'.
    ///
    /// ```no_run
    /// # fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) {
    /// println!("{} syncs", engine.shared_log_syncs());
    /// # }
    /// ```
    pub fn shared_log_syncs(&self) -> u64 {
        self.inner.stores.shared_log_syncs()
    }

    /// Does an operator's command on session `id` (see
    /// [`SessionHandle::operate`]): through the session, with an event in its
    /// log; its status after.
    ///
    /// ```no_run
    /// # async fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) -> Result<(), fix_engine::OperatorError> {
    /// use fix_engine::OperatorCommand;
    /// let id = fix_session::SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1");
    /// engine.operate(&id, OperatorCommand::Hold).await?;
    /// engine.operate(&id, OperatorCommand::Logout).await?;
    /// # Ok(()) }
    /// ```
    pub async fn operate(
        &self,
        id: &SessionId,
        command: OperatorCommand,
    ) -> Result<SessionStatus, OperatorError> {
        self.inner.handle(id)?.operate(command).await
    }

    /// Session `id`'s status (see [`SessionHandle::status`]).
    ///
    /// ```no_run
    /// # async fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) -> Result<(), fix_engine::OperatorError> {
    /// let id = fix_session::SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1");
    /// println!("{}", engine.status(&id).await?);
    /// # Ok(()) }
    /// ```
    pub async fn status(&self, id: &SessionId) -> Result<SessionStatus, OperatorError> {
        self.inner.handle(id)?.status().await
    }

    /// Sets session `id`'s next sender and target sequence numbers
    /// ([`OperatorCommand::SetNext`]).
    ///
    /// ```no_run
    /// # async fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) -> Result<(), fix_engine::OperatorError> {
    /// let id = fix_session::SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1");
    /// engine.set_next_seq_nums(&id, Some(120), Some(87)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn set_next_seq_nums(
        &self,
        id: &SessionId,
        sender: Option<u64>,
        target: Option<u64>,
    ) -> Result<SessionStatus, OperatorError> {
        self.operate(id, OperatorCommand::SetNext { sender, target })
            .await
    }

    /// Adds a session while the engine runs: its store and log opened, its
    /// application made, an initiator's task started. An acceptor's is
    /// reached through the engine's listener on its port, which must have
    /// the session's socket settings (address, TLS files, buffers:
    /// [`OperatorError::ListenerDiffers`] otherwise); on a port with no listener
    /// one is bound for it ([`local_addr`](Self::local_addr) says where),
    /// and closed again when the last session on it is removed. A listener
    /// is known by the port its sessions name: a session on port 0 joins
    /// the one port-0 listener, not one named by the port it was bound to. An event in
    /// its log says it was added.
    ///
    /// ```no_run
    /// # async fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) -> Result<(), Box<dyn std::error::Error>> {
    /// use fix_engine::config::{Schedule, SessionBuilder};
    /// let settings = SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "CLIENT2", "EXECUTOR"))
    ///     .heart_bt_int(30)
    ///     .socket_connect("127.0.0.1", 5001)
    ///     .schedule(Schedule::non_stop())
    ///     .build()?;
    /// let handle = engine.add_session(settings).await?;
    /// handle.wait_for(fix_session::State::LoggedOn).await;
    /// # Ok(()) }
    /// ```
    pub async fn add_session(
        &self,
        settings: SessionSettings,
    ) -> Result<SessionHandle, OperatorError> {
        add_session(&self.inner, settings).await
    }

    /// Removes session `id` while the engine runs: no new connection for it
    /// from now on, a Logout if one runs (waited for up to `timeout`, then
    /// the connection closed), its store synced and closed (its files are
    /// kept), its log's last event written. Its handles answer
    /// [`OperatorError::NoSuchSession`] from then on, and their sends
    /// [`SendError::NotConnected`](crate::SendError::NotConnected).
    ///
    /// ```no_run
    /// # async fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) -> Result<(), fix_engine::OperatorError> {
    /// let id = fix_session::SessionId::new("FIX.4.4", "CLIENT2", "EXECUTOR");
    /// engine.remove_session(&id, std::time::Duration::from_secs(5)).await?;
    /// # Ok(()) }
    /// ```
    pub async fn remove_session(
        &self,
        id: &SessionId,
        timeout: Duration,
    ) -> Result<(), OperatorError> {
        self.inner.remove_session(id, timeout).await
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

    /// The address acceptor session `id` is reached at: that of the
    /// listener on its port (one of [`local_addrs`](Self::local_addrs), or
    /// one bound when the session was added at run time); `None` for an
    /// initiator or an unknown session.
    ///
    /// ```no_run
    /// # async fn f(engine: &fix_engine::Engine<&'static fix_core::typed::Tables>) {
    /// let id = fix_session::SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1");
    /// if let Some(addr) = engine.local_addr(&id).await { println!("{id} on {addr}"); }
    /// # }
    /// ```
    pub async fn local_addr(&self, id: &SessionId) -> Option<SocketAddr> {
        let port = {
            let sessions = self.inner.lock_sessions();
            match &sessions.get(id)?.settings.transport {
                Transport::Acceptor(a) => a.port,
                Transport::Initiator(_) => return None,
            }
        };
        self.inner.listeners.local_addr(port).await
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
            e.shared.command(Command::Logout { by_app: false });
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
            SessionCell::<D>::refuse_operator_commands(&e.shared);
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
            let id = e.shared.id.clone();
            let failed = match e.cell.sync_and_flush() {
                Ok(()) => None,
                Err(Unflushed::Store(error)) => Some(EngineErrorKind::Store { id, error }),
                Err(Unflushed::Log(error)) => Some(EngineErrorKind::Log { id, error }),
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

/// The session's journal: its file log in `FileLogPath` (opened, with the
/// event that it was created), its screen log, or neither.
fn open_journal(settings: &SessionSettings) -> Result<Journal, EngineError> {
    let id = &settings.session.id;
    let log = match &settings.log_path {
        Some(dir) => {
            let log_error = |error| {
                EngineError::from(EngineErrorKind::Log {
                    id: id.clone(),
                    error,
                })
            };
            let mut log = FileLog::open_with(dir, id, settings.log_options).map_err(log_error)?;
            log.on_event("Created session", SystemTime::now())
                .map_err(log_error)?;
            Some(log)
        }
        None => None,
    };
    Ok(Journal::new(log)
        .with_heartbeats(settings.log_heartbeats)
        .with_screen(
            settings
                .screen_log
                .map(|options| crate::log::ScreenLog::stdout(id, options)),
        ))
}

/// A map of borrowed keys and values, owned.
fn owned(
    keys: std::collections::BTreeMap<&str, &str>,
) -> std::collections::BTreeMap<String, String> {
    keys.into_iter()
        .map(|(k, v)| (k.to_owned(), v.to_owned()))
        .collect()
}

/// Refuses settings this build cannot run (TLS or PostgreSQL without their
/// features), and tells what the settings file had that the engine passes
/// over or does not apply (`Settings::warnings`) where its events go.
fn check_settings(settings: &Settings) -> Result<(), EngineError> {
    for s in settings
        .sessions()
        .iter()
        .chain(settings.templates().iter().map(|t| t.settings()))
    {
        supported(s)?;
    }
    for w in settings.warnings() {
        tracing::warn!(warning = %w, "settings");
    }
    Ok(())
}

/// The admin socket the options or `AdminSocket` name, bound; `None` when
/// neither does.
#[cfg(unix)]
fn bind_admin_socket(
    options: &EngineOptions,
    settings: &Settings,
) -> Result<Option<(tokio::net::UnixListener, std::path::PathBuf)>, EngineError> {
    let path = options.admin_socket.clone().or_else(|| {
        settings
            .default_value("AdminSocket")
            .filter(|p| !p.is_empty())
            .map(std::path::PathBuf::from)
    });
    let Some(path) = path else {
        return Ok(None);
    };
    admin_socket::bind(&path).map(Some).map_err(|error| {
        EngineError::from(EngineErrorKind::Bind {
            address: path.display().to_string(),
            error,
        })
    })
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
    if cfg!(not(feature = "postgres")) && s.postgres_store.is_some() {
        return unsupported("PostgreSQLStore");
    }
    Ok(())
}

impl<D: Schema + Send + Sync + 'static> Inner<D> {
    /// Opens every configured session (its store, log and application) and
    /// puts it in the map; returns the initiators, with their TLS, for their
    /// tasks.
    fn open_sessions(
        &self,
        mut client_tls: HashMap<SessionId, initiate::ClientTls>,
    ) -> Result<Vec<Initiator<D>>, EngineError> {
        let mut initiators = Vec::new();
        for s in self.settings.sessions() {
            let entry = self.make_entry(s.clone(), false)?;
            if matches!(s.transport, Transport::Initiator(_)) {
                let tls = client_tls.remove(&s.session.id).flatten();
                initiators.push((entry.clone(), tls));
            }
            self.lock_sessions().insert(s.session.id.clone(), entry);
        }
        Ok(initiators)
    }

    fn lock_sessions(&self) -> MutexGuard<'_, HashMap<SessionId, Arc<Entry<D>>>> {
        // Insertions and lookups only: never left broken.
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The sessions' IDs, in order.
    fn session_ids(&self) -> Vec<SessionId> {
        let mut ids: Vec<SessionId> = self.lock_sessions().keys().cloned().collect();
        ids.sort_by_key(SessionId::store_name);
        ids
    }

    /// The handle of session `id`.
    fn handle(&self, id: &SessionId) -> Result<SessionHandle, OperatorError> {
        self.lock_sessions()
            .get(id)
            .map(|e| SessionHandle::new(e.shared.clone()))
            .ok_or_else(|| OperatorError::NoSuchSession(id.store_name()))
    }

    /// The session an operator names: as its store is named
    /// (`FIX.4.4-SENDER-TARGET`) or as it is shown (`FIX.4.4:SENDER->TARGET`).
    fn find(&self, name: &str) -> Option<SessionId> {
        self.lock_sessions()
            .keys()
            .find(|id| id.store_name() == name || id.to_string() == name)
            .cloned()
    }

    /// Removes session `id` (see [`Engine::remove_session`]).
    async fn remove_session(&self, id: &SessionId, timeout: Duration) -> Result<(), OperatorError> {
        let entry = self
            .lock_sessions()
            .remove(id)
            .ok_or_else(|| OperatorError::NoSuchSession(id.store_name()))?;
        if entry.from_template {
            // Room for another of the templates' sessions.
            self.template_sessions.fetch_sub(1, Ordering::AcqRel);
        }
        if let Transport::Acceptor(a) = &entry.settings.transport {
            self.listeners
                .close_if_unused(a.port, |port| self.port_in_use(port))
                .await;
        }
        // No connection from now on: the acceptor finds no entry, the
        // initiator's task ends at its next turn, a claim is declined.
        entry.shared.set_gate(Gate::Removed);
        let handle = SessionHandle::new(entry.shared.clone());
        if !entry.cell.is_idle() {
            match handle.admin_unchecked(OperatorCommand::Logout).await {
                Ok(_) | Err(OperatorError::NotConnected(_)) => {}
                Err(e) => return Err(e),
            }
            let down =
                tokio::time::timeout(timeout, handle.wait_for(fix_session::State::Disconnected));
            if down.await.is_err() {
                entry.shared.command(Command::Disconnect { by_app: false });
            }
            // The task releases the session a moment after its end.
            let idle = async {
                while !entry.cell.is_idle() {
                    tokio::time::sleep(Duration::from_millis(5)).await;
                }
            };
            if tokio::time::timeout(timeout + Duration::from_secs(1), idle)
                .await
                .is_err()
            {
                tracing::warn!(session = %id, "removed while its connection still ends");
            }
        }
        entry.event("Removed at run time");
        let failed = match entry.cell.sync_and_flush() {
            Ok(()) => Ok(()),
            Err(Unflushed::Store(error)) => Err(OperatorError::Session {
                id: id.clone(),
                error: Box::new(error.into()),
            }),
            Err(Unflushed::Log(error)) => Err(OperatorError::Log {
                id: id.clone(),
                error: Box::new(error),
            }),
        };
        let queued = entry.shared.drop_queued(&crate::NotSent::EngineStopped);
        if queued > 0 {
            tracing::warn!(session = %id, queued, "queued messages were never sent: the session was removed");
        }
        tracing::info!(session = %id, "session removed");
        failed
    }

    fn lock_tasks(&self) -> MutexGuard<'_, JoinSet<()>> {
        self.tasks.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn spawn(&self, task: impl Future<Output = ()> + Send + 'static) -> AbortHandle {
        let mut tasks = self.lock_tasks();
        // Reaps finished connections, so the set does not grow with them.
        while tasks.try_join_next().is_some() {}
        tasks.spawn(task)
    }

    /// Whether a session of the engine is an acceptor on configured `port`.
    fn port_in_use(&self, port: u16) -> bool {
        self.lock_sessions()
            .values()
            .any(|e| matches!(&e.settings.transport, Transport::Acceptor(a) if a.port == port))
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

    /// The session's store: PostgreSQL with its keys, the engine's shared
    /// log in `FileStorePath` (`FileStoreSync=Y`, `FileStoreShared=Y`), a file store in
    /// `FileStorePath`, else memory.
    fn open_store(&self, settings: &SessionSettings) -> Result<Store, EngineError> {
        let id = &settings.session.id;
        // FileStoreSync=Y: durable before sent, by group commit (one sync a
        // step of the connection, for everything the step stored).
        let options = match settings.store_options.sync_policy() {
            SyncPolicy::EveryRecord => settings.store_options.sync(SyncPolicy::Batch),
            _ => settings.store_options,
        };
        let store_error = |error| {
            EngineError::from(EngineErrorKind::Store {
                id: id.clone(),
                error,
            })
        };
        Ok(match (&settings.postgres_store, &settings.store_path) {
            (Some(pg), _) => self.stores.open_postgres(pg, id).map_err(store_error)?,
            (None, Some(dir)) if uses_shared_log(settings) => {
                let standby = settings.store_options.is_standby();
                self.stores
                    .open_shared(dir, id, standby)
                    .map_err(store_error)?
            }
            (None, Some(dir)) => {
                Box::new(FileStore::open_with(dir, &id.store_name(), options).map_err(store_error)?)
            }
            (None, None) => {
                let (messages, bytes) = self.options.memory_store_capacity;
                Box::new(MemoryStore::with_capacity(messages, bytes))
            }
        })
    }

    /// A session with its store opened and its application made.
    fn make_entry(
        &self,
        settings: SessionSettings,
        from_template: bool,
    ) -> Result<Arc<Entry<D>>, EngineError> {
        let id = settings.session.id.clone();
        let dicts = self.dicts.dictionaries(&settings)?;
        let store = self.open_store(&settings)?;
        let journal = open_journal(&settings)?;
        let shared = Shared::new(
            id.clone(),
            self.options.queue_capacity,
            settings.session.parser,
            owned(settings.application_keys()),
        );
        let app = crate::logon_tags::LogonTags::wrap(
            (self.apps)(&id, SessionHandle::new(shared.clone())),
            &settings.logon_fields,
        );
        let mut config = settings.session.clone();
        // The log formats the session's events: the session tells of every
        // message when there is a log to write them to.
        config.message_events = journal.logs_messages();
        config.shared_budget = Some(self.held.clone());
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
            from_template,
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
        match self.make_entry(settings, true) {
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
                Some(e) if Arc::ptr_eq(e, &entry) && e.cell.is_idle() => {
                    sessions.remove(&id);
                }
                _ => return,
            }
        }
        self.template_sessions.fetch_sub(1, Ordering::AcqRel);
        let settings = entry.settings.clone();
        // The store closes with the session.
        drop(entry);
        let removed = match &settings.store_path {
            Some(dir) if uses_shared_log(&settings) => self.stores.remove_shared(dir, &id),
            Some(dir) => FileStore::remove(dir, &id.store_name()),
            None => Ok(()),
        };
        if let Err(error) = removed {
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
        if !self.claim(entry) {
            return;
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
        let mut text = match role {
            Role::Initiator => format!("Connected to {peer}"),
            Role::Acceptor => format!("Accepted connection from {peer}"),
        };
        if entry
            .settings
            .tls
            .as_ref()
            .is_some_and(|t| !t.verify_certificates)
        {
            text.push_str(UNCHECKED_CERTIFICATES);
        }
        span.in_scope(|| tracing::info!("{}", text));
        entry.shared.set_peer_certificate(stream.peer_certificate());
        if let Err(error) = entry.cell.log_connected(&text) {
            span.in_scope(|| tracing::error!(%error, "the log could not be written"));
            // Nothing more can be written to that log.
            let _ = entry.cell.release(&entry.shared, None);
            return;
        }
        span.in_scope(|| self.set_socket_options(entry, &stream));
        let end = driver::run(
            stream,
            &entry.cell,
            &entry.shared,
            &entry.settings.schedule,
            self.limits_of(entry),
            initial,
        )
        .instrument(span.clone())
        .await;
        let _entered = span.enter();
        let reason = end_reason(&end);
        if let Err(error) = entry.cell.release(&entry.shared, Some(&reason)) {
            tracing::error!(%error, "the log could not be written");
        }
    }

    /// Claims `entry`'s session for a connection: whether none runs it, it
    /// is open (not held, not removed) and the engine is not stopping.
    fn claim(&self, entry: &Entry<D>) -> bool {
        let claim = entry.cell.claim(|| {
            // A command given while no connection ran is stale. Shutdown raises
            // its flag before it commands a Logout: cleared first, then the flag
            // read, a shutdown's Logout is never lost.
            entry.shared.clear_stale_commands();
            // Held or removed meanwhile: no connection.
            !*self.shutdown.borrow() && entry.shared.gate() == Gate::Open
        });
        match claim {
            Claim::Claimed => true,
            Claim::Busy => {
                tracing::warn!(session = %entry.shared.id, "refused: the session is connected already");
                false
            }
            Claim::Declined => false,
        }
    }

    /// SocketNodelay and TCP keep-alive, as the session's settings say (a
    /// failure is a warning: the connection runs without them).
    fn set_socket_options(&self, entry: &Entry<D>, stream: &Stream) {
        if let Err(e) = stream.tcp().set_nodelay(entry.settings.tcp_nodelay) {
            tracing::warn!(error = %e, "SocketNodelay could not be set");
        }
        // SocketKeepAlive=N turns it off; otherwise the engine's timings.
        if entry.settings.socket.keepalive != Some(false)
            && let Some(idle) = self.options.tcp_keepalive
            && let Err(e) = crate::transport::set_keepalive(stream.tcp(), idle)
        {
            tracing::warn!(error = %e, "TCP keepalive could not be set");
        }
    }

    /// The engine's limits, with the session's own where it gives them.
    fn limits_of(&self, entry: &Entry<D>) -> Limits {
        let sync_every = match entry.settings.store_options.sync_policy() {
            SyncPolicy::Interval(every) if entry.settings.store_path.is_some() => Some(every),
            _ => None,
        };
        // The session's QueuedMessageMaxAge and QueuedWhileDown, where
        // given, over the engine's: counterparties differ in how stale an
        // order may go out.
        let engine = self.limits();
        Limits {
            sync_every,
            max_queued_age: entry.settings.max_queued_age.or(engine.max_queued_age),
            queued_while_down: entry
                .settings
                .queued_while_down
                .unwrap_or(engine.queued_while_down),
            ..engine
        }
    }
}

/// The log's last event of a connection that ended so (told to tracing too).
fn end_reason(end: &End) -> String {
    match end {
        End::Io(e) => {
            tracing::warn!(error = %e, "the connection failed");
            format!("Disconnecting: the connection failed: {e}")
        }
        End::Failed(fix_session::SessionError::Store(
            e @ (fix_session::StoreError::Standby { .. }
            | fix_session::StoreError::LeaseStandby { .. }),
        )) => {
            // Not a failure: another engine holds the session (hot
            // standby); the counterparty is to try that one.
            tracing::info!(reason = %e, "a standby: the connection refused");
            format!("Disconnecting: a standby, the Logon not taken: {e}")
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
    }
}

/// Adds a session to a running engine (see [`Engine::add_session`]).
async fn add_session<D: Schema + Send + Sync + 'static>(
    inner: &Arc<Inner<D>>,
    settings: SessionSettings,
) -> Result<SessionHandle, OperatorError> {
    if *inner.shutdown.borrow() {
        return Err(OperatorError::Stopped);
    }
    let id = settings.session.id.clone();
    supported(&settings).map_err(OperatorError::Engine)?;
    if inner.lock_sessions().contains_key(&id) {
        return Err(OperatorError::Exists(id));
    }
    let Some(wanted) = settings.listener() else {
        let tls = client_tls_of(&settings).map_err(OperatorError::Engine)?;
        let entry = insert_added(inner, settings)?;
        let span = tracing::info_span!("fix_initiator", session = %id);
        inner.spawn(initiate(inner.clone(), entry.clone(), tls).instrument(span));
        return Ok(SessionHandle::new(entry.shared.clone()));
    };
    // Held from the bind to the listener's entry in the list: a second
    // session on the same new port finds it there.
    let mut listening = inner.listeners.lock().await;
    let place = listeners::place(&listening, &id, &wanted, &inner.options.listeners).await?;
    let tls = match place {
        listeners::Place::New(..) => server_tls_of(&wanted).map_err(OperatorError::Engine)?,
        listeners::Place::Shared => None,
    };
    // A new listener closes (dropped) if the session cannot be made.
    let entry = insert_added(inner, settings)?;
    if let listeners::Place::New(listener, local) = place {
        let port = wanted.port;
        let task = listen(inner.clone(), listener, port, tls);
        let task = inner.spawn(task.instrument(tracing::info_span!("fix_acceptor", port)));
        tracing::info!(session = %id, port, address = %local, "a listener bound for a session added at run time");
        listening.push(listeners::Listening {
            config: wanted,
            local,
            added: Some(task),
        });
    }
    Ok(SessionHandle::new(entry.shared.clone()))
}

/// Makes the session of `settings` and puts it in the engine's map, with an
/// event in its log.
fn insert_added<D: Schema + Send + Sync + 'static>(
    inner: &Arc<Inner<D>>,
    settings: SessionSettings,
) -> Result<Arc<Entry<D>>, OperatorError> {
    let id = settings.session.id.clone();
    let entry = inner
        .make_entry(settings, false)
        .map_err(OperatorError::Engine)?;
    {
        let mut sessions = inner.lock_sessions();
        if sessions.contains_key(&id) {
            return Err(OperatorError::Exists(id));
        }
        sessions.insert(id.clone(), entry.clone());
    }
    entry.event("Added at run time");
    tracing::info!(session = %id, "session added");
    Ok(entry)
}

/// Resolves once the engine is shutting down.
async fn stopped(shutdown: &mut watch::Receiver<bool>) {
    // The guard `wait_for` returns is dropped here, not held across a select.
    let _ = shutdown.wait_for(|stop| *stop).await;
}

/// Whether a session's store is in the engine's shared log: a file store
/// durable before sending (`FileStoreSync=Y`) and shared
/// (`FileStoreShared=Y`); a `RefreshOnLogon` standby's takes the session
/// over in the log at a Logon.
fn uses_shared_log(settings: &SessionSettings) -> bool {
    settings.store_shared
        && settings.store_path.is_some()
        && settings.postgres_store.is_none()
        && matches!(
            settings.store_options.sync_policy(),
            SyncPolicy::EveryRecord | SyncPolicy::Batch
        )
}
