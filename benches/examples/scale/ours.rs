//! Our engine in the scale lane: one acceptor `Engine` holding N sessions on
//! one port, one initiator `Engine` holding their N counterparts, on a
//! current-thread runtime each or both on one multi-thread runtime.

use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fix_core::Message;
use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_engine::{Engine, SendError, SessionHandle};
use fix_session::{AppReject, Application, Outbox, SessionId, State, SyncPolicy};
use tokio::runtime::Handle;
use tokio::sync::oneshot;

use crate::load::{BACKOFF, Client, ORDER_FIELDS, REPORT_FIELDS, STALL, Tracker};
use crate::{Runtime, StoreSync};

/// The acceptor: answers each NewOrderSingle with an ExecutionReport.
struct Executor {
    body: Vec<u8>,
}

impl Application for Executor {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        if msg.msg_type() == b"D" {
            crate::load::body(
                &mut self.body,
                msg.get(11).unwrap_or_default(),
                &REPORT_FIELDS,
            );
            out.send_body(b"8", &self.body);
        }
        Ok(())
    }
}

/// The initiator: records each ExecutionReport's arrival.
struct Recorder(Arc<Tracker>);

impl Application for Recorder {
    fn from_app(&mut self, msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        if msg.msg_type() == b"8" {
            self.0.record(msg.get(11).unwrap_or_default());
        }
        Ok(())
    }
}

/// An engine on a thread of ours, stopped (its sessions logging out) when told.
struct Running {
    stop: oneshot::Sender<()>,
    thread: JoinHandle<Result<(), String>>,
}

impl Running {
    fn stop(self) -> Result<(), String> {
        let _ = self.stop.send(());
        self.thread
            .join()
            .map_err(|_| "an engine thread panicked".to_owned())?
    }
}

/// Starts an engine with `settings` from a thread of its own: on `shared`
/// (its tasks on that runtime's workers) or else on a current-thread runtime
/// of the thread's; returns the handles of sessions `ids`.
fn spawn<A, F>(
    name: &str,
    settings: Settings,
    ids: Vec<SessionId>,
    shared: Option<Handle>,
    apps: F,
) -> Result<(Vec<SessionHandle>, Running), String>
where
    A: Application + Send + 'static,
    F: Fn(&SessionId, SessionHandle) -> A + Send + Sync + 'static,
{
    let (handles_tx, handles_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = oneshot::channel::<()>();
    let run = async move {
        let options = fix_engine::EngineOptions::default();
        let engine = match Engine::start_with(settings, &fix44::DICTIONARY, options, apps).await {
            Ok(e) => e,
            Err(e) => {
                let _ = handles_tx.send(Err(e.to_string()));
                return Ok(());
            }
        };
        let handles: Result<Vec<_>, String> = ids
            .iter()
            .map(|id| engine.session(id).ok_or(format!("no session {id}")))
            .collect();
        let _ = handles_tx.send(handles);
        let _ = stopped.await;
        engine
            .shutdown(Duration::from_secs(5))
            .await
            .map(|_| ())
            .map_err(|e| e.to_string())
    };
    let thread = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || match shared {
            Some(runtime) => runtime.block_on(run),
            None => tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| format!("tokio runtime: {e}"))?
                .block_on(run),
        })
        .map_err(|e| format!("thread: {e}"))?;
    let handles = handles_rx
        .recv()
        .map_err(|_| format!("the {name} thread ended before starting its engine"))??;
    Ok((handles, Running { stop, thread }))
}

/// Session `k`'s ID on the acceptor; the initiator's is its mirror.
fn acceptor_id(k: usize) -> SessionId {
    SessionId::new("FIX.4.4", &format!("EXEC{k}"), &format!("C{k}"))
}

fn initiator_id(k: usize) -> SessionId {
    SessionId::new("FIX.4.4", &format!("C{k}"), &format!("EXEC{k}"))
}

/// The file store of `dir`: durable with the engine's default
/// (`FileStoreSync=Y`, whatever store that is now), or synced by the system.
fn with_store(b: SessionBuilder, dir: &Path, sync: StoreSync) -> SessionBuilder {
    let b = b.file_store_path(dir);
    match sync {
        StoreSync::Durable => b,
        StoreSync::Os => b.file_store_sync(SyncPolicy::Os),
    }
}

/// The acceptor's and the initiator's engines, their N sessions logged on.
pub(crate) struct Pair {
    pub(crate) handles: Vec<SessionHandle>,
    acceptor: Running,
    initiator: Running,
    /// The runtime both engines share, if they do.
    shared: Option<tokio::runtime::Runtime>,
}

impl Pair {
    /// Starts both engines with `n` sessions each, stores in `root`, and
    /// waits (boundedly) until every initiator session has logged on.
    pub(crate) fn start(
        n: usize,
        runtime: Runtime,
        sync: StoreSync,
        root: &Path,
        tracker: Arc<Tracker>,
    ) -> Result<Pair, String> {
        let shared = match runtime {
            Runtime::Current => None,
            Runtime::Multi => Some(
                tokio::runtime::Builder::new_multi_thread()
                    .worker_threads(2)
                    .enable_all()
                    .build()
                    .map_err(|e| format!("tokio runtime: {e}"))?,
            ),
        };
        let handle = shared.as_ref().map(|r| r.handle().clone());
        let port = fix_benches::free_port()?;
        let (a_dir, i_dir) = (
            crate::fresh_dir(root, "acceptor")?,
            crate::fresh_dir(root, "initiator")?,
        );
        let mut acceptors = Vec::with_capacity(n);
        for k in 0..n {
            let a = SessionBuilder::acceptor(acceptor_id(k))
                .socket_accept_address("127.0.0.1")
                .socket_accept_port(port)
                .schedule(Schedule::non_stop());
            acceptors.push(
                with_store(a, &a_dir, sync)
                    .build()
                    .map_err(|e| e.to_string())?,
            );
        }
        let a = Settings::new(acceptors).map_err(|e| e.to_string())?;
        let (_, acceptor) = spawn("ours-acceptor", a, Vec::new(), handle.clone(), |_, _| {
            Executor { body: Vec::new() }
        })?;

        let mut initiators = Vec::with_capacity(n);
        for k in 0..n {
            let i = SessionBuilder::initiator(initiator_id(k))
                .heart_bt_int(30)
                .socket_connect("127.0.0.1", port)
                .reconnect_interval(Duration::from_secs(1))
                .schedule(Schedule::non_stop());
            initiators.push(
                with_store(i, &i_dir, sync)
                    .build()
                    .map_err(|e| e.to_string())?,
            );
        }
        let i = Settings::new(initiators).map_err(|e| e.to_string())?;
        let ids = (0..n).map(initiator_id).collect();
        let (handles, initiator) = spawn("ours-initiator", i, ids, handle, move |_, _| {
            Recorder(tracker.clone())
        })?;
        let pair = Pair {
            handles,
            acceptor,
            initiator,
            shared,
        };
        match pair.wait_logged_on() {
            Ok(()) => Ok(pair),
            Err(e) => {
                let _ = pair.stop();
                Err(e)
            }
        }
    }

    /// Waits until every initiator session is logged on: 30 s and 30 ms a
    /// session at most (the acceptor takes a bounded number of pending
    /// connections at once; the rest reconnect).
    fn wait_logged_on(&self) -> Result<(), String> {
        let limit = Duration::from_secs(30) + Duration::from_millis(30) * self.handles.len() as u32;
        let deadline = Instant::now() + limit;
        loop {
            let on = self
                .handles
                .iter()
                .filter(|h| h.state() == State::LoggedOn)
                .count();
            if on == self.handles.len() {
                return Ok(());
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "ours: {on} of {} sessions logged on after {limit:?}",
                    self.handles.len()
                ));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Stops the initiator, then the acceptor, then their shared runtime.
    pub(crate) fn stop(self) -> Result<(), String> {
        let initiator = self.initiator.stop();
        let acceptor = self.acceptor.stop();
        if let Some(runtime) = self.shared {
            runtime.shutdown_timeout(Duration::from_secs(5));
        }
        initiator.and(acceptor)
    }
}

/// Sends orders with `SessionHandle::send` from the caller's thread (the
/// pacer), the connection task taking the queue when its runtime runs it.
pub(crate) struct OursClient {
    handles: Vec<SessionHandle>,
    id: Vec<u8>,
    body: Vec<u8>,
}

impl OursClient {
    pub(crate) fn new(pair: &Pair) -> OursClient {
        OursClient {
            handles: pair.handles.clone(),
            id: Vec::new(),
            body: Vec::new(),
        }
    }
}

impl Client for OursClient {
    fn send(&mut self, session: usize, index: u64) -> Result<(), String> {
        use std::io::Write as _;
        self.id.clear();
        let _ = write!(self.id, "{index}");
        crate::load::body(&mut self.body, &self.id, &ORDER_FIELDS);
        let handle = &self.handles[session];
        let since = Instant::now();
        loop {
            match handle.send(b"D", &self.body) {
                Ok(()) => return Ok(()),
                Err(SendError::Full) if since.elapsed() < STALL => std::thread::sleep(BACKOFF),
                Err(e) => return Err(format!("ours: order {index} on session {session}: {e}")),
            }
        }
    }
}
