//! QuickFIX C++ 1.16's side, through the `quickfix` crate: a
//! `ThreadedSocketInitiator` or `ThreadedSocketAcceptor` (a thread per
//! connection), its `FileStore`, every message validated against the repository's `spec/FIX44.xml`,
//! and a log of every message and event in a file of the test's directory.
//! Its application answers each NewOrderSingle with an ExecutionReport and
//! records what it is handed in a [`Book`].

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use quickfix::dictionary_item::{
    ConnectionType, DataDictionary, EndTime, FileStorePath, HeartBtInt, ReconnectInterval,
    SocketAcceptPort, SocketConnectHost, SocketConnectPort, SocketNodelay, StartTime,
    UseDataDictionary,
};
use quickfix::{
    Acceptor, Application, ApplicationCallback, ConnectionHandler, Dictionary, FieldMap,
    FileMessageStoreFactory, FixSocketServerKind, Initiator, LogCallback, LogFactory, Message,
    MsgFromAdminError, MsgFromAppError, QuickFixError, SessionContainer, SessionId,
    SessionSettings, send_to_target,
};

use crate::book::{Book, Report};

fn qf(what: &str) -> impl Fn(QuickFixError) -> String + '_ {
    move |e| format!("QuickFIX: {what}: {e:?}")
}

/// A QuickFIX session ID: FIX.4.4, `sender` to `target`.
pub(crate) fn session_id(sender: &str, target: &str) -> Result<SessionId, String> {
    SessionId::try_new("FIX.4.4", sender, target, "").map_err(qf("session id"))
}

/// A message of `msg_type` with `fields`, as a QuickFIX application builds one.
fn message(msg_type: &str, fields: &[(u32, String)]) -> Result<Message, String> {
    let mut msg = Message::new();
    msg.with_header_mut(|h| h.set_field(35, msg_type))
        .map_err(qf("MsgType"))?;
    for (tag, value) in fields {
        msg.set_field(*tag as i32, value.as_str())
            .map_err(qf("field"))?;
    }
    Ok(msg)
}

/// Sends order `cl_ord_id` on `session` (`Session::sendToTarget`, which stores it
/// and sends it if logged on; one stored while not is resent when asked).
pub(crate) fn send_order(session: &SessionId, cl_ord_id: &str) -> Result<(), String> {
    let order = message("D", &crate::order_fields(cl_ord_id))?;
    send_to_target(order, session).map_err(qf("send order"))
}

/// The application, called on QuickFIX's thread.
struct Callbacks {
    book: Arc<Book>,
}

impl ApplicationCallback for Callbacks {
    fn on_logon(&self, _session: &SessionId) {
        self.book.logon();
    }

    fn on_logout(&self, _session: &SessionId) {
        self.book.logout();
    }

    fn on_msg_from_admin(&self, msg: &Message, _: &SessionId) -> Result<(), MsgFromAdminError> {
        match msg.with_header(|h| h.get_field(35)).as_deref() {
            Some("3") => {
                let text = msg.get_field(58).unwrap_or_default();
                self.book.reject(format!("Reject: {text}"));
            }
            Some("5")
                if msg
                    .get_field(58)
                    .is_some_and(|t| t.starts_with("Session is active on another engine")) =>
            {
                self.book.standby_logout();
            }
            _ => {}
        }
        Ok(())
    }

    fn on_msg_from_app(&self, msg: &Message, session: &SessionId) -> Result<(), MsgFromAppError> {
        let cl_ord_id = msg.get_field(11).unwrap_or_default();
        match msg.with_header(|h| h.get_field(35)).as_deref() {
            Some("D") => {
                self.book.order(&cl_ord_id);
                let sent = message("8", &crate::report_fields(&cl_ord_id))
                    .and_then(|r| send_to_target(r, session).map_err(qf("send report")));
                if let Err(e) = sent {
                    self.book.error(format!("answering {cl_ord_id}: {e}"));
                }
            }
            Some("8") => {
                let (seq, poss_dup) = msg.with_header(|h| (h.get_field(34), h.get_field(43)));
                let seq = seq.and_then(|s| s.parse().ok()).unwrap_or(0);
                let poss_dup = poss_dup.as_deref() == Some("Y");
                self.book.report(&cl_ord_id, Report { seq, poss_dup });
            }
            Some("j") => {
                let text = msg.get_field(58).unwrap_or_default();
                self.book.reject(format!("BusinessMessageReject: {text}"));
            }
            _ => {}
        }
        Ok(())
    }
}

/// QuickFIX's log: every message in and out and every event, a line each with
/// the milliseconds since the side started, to read after a failure. Counts
/// the orders QuickFIX resends (PossDupFlag=Y).
pub(crate) struct FileLog {
    epoch: Instant,
    file: Mutex<BufWriter<File>>,
    resent_orders: AtomicU64,
}

impl FileLog {
    fn create(path: &Path) -> Result<FileLog, String> {
        let file = File::create(path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(FileLog {
            epoch: Instant::now(),
            file: Mutex::new(BufWriter::new(file)),
            resent_orders: AtomicU64::new(0),
        })
    }

    fn line(&self, kind: &str, text: &str) {
        let ms = self.epoch.elapsed().as_secs_f64() * 1e3;
        let text = text.replace('\x01', "|");
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        // A log line lost to a full disk is no failure of the engines.
        let _ = writeln!(file, "{ms:.3} {kind} {text}");
    }

    /// Orders QuickFIX has resent (PossDupFlag=Y) so far.
    pub(crate) fn resent_orders(&self) -> u64 {
        self.resent_orders.load(Ordering::Relaxed)
    }

    fn flush(&self) {
        let mut file = self.file.lock().unwrap_or_else(PoisonError::into_inner);
        let _ = file.flush();
    }
}

impl LogCallback for FileLog {
    fn on_incoming(&self, _session: Option<&SessionId>, msg: &str) {
        self.line("in", msg);
    }

    fn on_outgoing(&self, _session: Option<&SessionId>, msg: &str) {
        if msg.contains("\x0135=D\x01") && msg.contains("\x0143=Y\x01") {
            self.resent_orders.fetch_add(1, Ordering::Relaxed);
        }
        self.line("out", msg);
    }

    fn on_event(&self, _session: Option<&SessionId>, msg: &str) {
        self.line("event", msg);
    }
}

/// QuickFIX's side of a test, running: its session, to log out and on.
pub(crate) struct Running<'a> {
    container: &'a dyn SessionContainer,
    pub(crate) id: &'a SessionId,
    pub(crate) log: &'a FileLog,
}

impl Running<'_> {
    /// `Session::logout`: a Logout, and the session disabled (no reconnection)
    /// until [`logon`](Self::logon).
    pub(crate) fn logout(&self) -> Result<(), String> {
        let mut session = self
            .container
            .session(self.id.clone())
            .map_err(qf("session"))?;
        session.logout().map_err(qf("logout"))
    }

    /// `Session::logon`: the session enabled again (an initiator connects).
    pub(crate) fn logon(&self) -> Result<(), String> {
        let mut session = self
            .container
            .session(self.id.clone())
            .map_err(qf("session"))?;
        session.logon().map_err(qf("logon"))
    }

    pub(crate) fn send_order(&self, cl_ord_id: &str) -> Result<(), String> {
        send_order(self.id, cl_ord_id)
    }
}

/// Which end QuickFIX is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Role {
    Initiator,
    Acceptor,
}

/// The settings of QuickFIX's side: session `id` non-stop (an initiator
/// connecting to 127.0.0.1:`port` with HeartBtInt=30 and ReconnectInterval=1,
/// an acceptor listening on `port`), TCP_NODELAY, the file store in `dir`,
/// validation against `spec/FIX44.xml`.
fn settings(
    id: &SessionId,
    role: Role,
    port: u16,
    dir: &Path,
    extra: &[(&str, &str)],
) -> Result<SessionSettings, String> {
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml");
    let store = dir.join("store");
    let store = store.to_str().ok_or("the store's path is not UTF-8")?;
    let kind = match role {
        Role::Initiator => ConnectionType::Initiator,
        Role::Acceptor => ConnectionType::Acceptor,
    };
    let mut settings = SessionSettings::new();
    let default = Dictionary::try_from_items(&[
        &kind,
        &FileStorePath(store),
        &SocketNodelay(true),
        &UseDataDictionary(true),
        &DataDictionary(spec),
    ]);
    settings
        .set(None, default.map_err(qf("settings"))?)
        .map_err(qf("settings"))?;
    let mut session = match role {
        Role::Initiator => Dictionary::try_from_items(&[
            &StartTime("00:00:00"),
            &EndTime("00:00:00"),
            &HeartBtInt(30),
            &ReconnectInterval(1),
            &SocketConnectHost("127.0.0.1"),
            &SocketConnectPort(port),
        ]),
        Role::Acceptor => Dictionary::try_from_items(&[
            &StartTime("00:00:00"),
            &EndTime("00:00:00"),
            &SocketAcceptPort(port),
        ]),
    }
    .map_err(qf("session settings"))?;
    for (key, value) in extra {
        session.set(key, *value).map_err(qf("session settings"))?;
    }
    settings
        .set(Some(id), session)
        .map_err(qf("session settings"))?;
    Ok(settings)
}

/// Starts QuickFIX as `role` with session `id` (see [`settings`]), its store and
/// log (`quickfix.log`) in `dir`, its application recording in `book`; runs
/// `body` with it, then stops it.
pub(crate) fn run<R>(
    role: Role,
    id: &SessionId,
    port: u16,
    dir: &Path,
    book: &Arc<Book>,
    body: impl FnOnce(&Running<'_>) -> Result<R, String>,
) -> Result<R, String> {
    run_with(role, id, port, &[], dir, book, body)
}

/// [`run`], with `extra` session settings (raw keys and values, e.g. a second
/// endpoint's `SocketConnectPort1`).
pub(crate) fn run_with<R>(
    role: Role,
    id: &SessionId,
    port: u16,
    extra: &[(&str, &str)],
    dir: &Path,
    book: &Arc<Book>,
    body: impl FnOnce(&Running<'_>) -> Result<R, String>,
) -> Result<R, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let settings = settings(id, role, port, dir, extra)?;
    let log = FileLog::create(&dir.join("quickfix.log"))?;
    let log_factory = LogFactory::try_new(&log).map_err(qf("log"))?;
    let store = FileMessageStoreFactory::try_new(&settings).map_err(qf("store"))?;
    let callbacks = Callbacks { book: book.clone() };
    let app = Application::try_new(&callbacks).map_err(qf("application"))?;
    // The threaded kind: 1.16's single-threaded `SocketInitiator` never connects
    // again after a connection its session closed itself (after a Logout either
    // side started): `SocketConnector::onError` skips `onDisconnect` for a
    // socket the session dropped already, so the initiator keeps the stale
    // connection and "Initiated logon request" goes nowhere (seen here; the fix
    // is quickfix/quickfix pull request 739, not in 1.16).
    let kind = FixSocketServerKind::MultiThreaded;
    let result = match role {
        Role::Initiator => {
            let engine = Initiator::try_new(&settings, &app, &store, &log_factory, kind)
                .map_err(qf("initiator"))?;
            drive(engine, id, &log, body)
        }
        Role::Acceptor => {
            let engine = Acceptor::try_new(&settings, &app, &store, &log_factory, kind)
                .map_err(qf("acceptor"))?;
            drive(engine, id, &log, body)
        }
    };
    log.flush();
    result
}

fn drive<H: ConnectionHandler + SessionContainer, R>(
    mut engine: H,
    id: &SessionId,
    log: &FileLog,
    body: impl FnOnce(&Running<'_>) -> Result<R, String>,
) -> Result<R, String> {
    engine.start().map_err(qf("start"))?;
    let result = body(&Running {
        container: &engine,
        id,
        log,
    });
    let stopped = engine.stop().map_err(qf("stop"));
    let result = result?;
    stopped?;
    Ok(result)
}
