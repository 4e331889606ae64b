//! QuickFIX C++ in the scale lane, through the `quickfix` crate, as the race
//! drives it (`examples/race/quickfix_cpp.rs`): one `SocketAcceptor` holding N
//! sessions on one port, one `SocketInitiator` holding their N counterparts
//! (single-threaded kind: one thread each), file stores, the crate's
//! `NullLogger`, validation against `spec/FIX44.xml`.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use quickfix::dictionary_item::{
    ConnectionType, DataDictionary, EndTime, FileStorePath, HeartBtInt, ReconnectInterval,
    SocketAcceptPort, SocketConnectHost, SocketConnectPort, SocketNodelay, StartTime,
    UseDataDictionary,
};
use quickfix::{
    Acceptor, Application, ApplicationCallback, ConnectionHandler, Dictionary, FieldMap,
    FileMessageStoreFactory, FixSocketServerKind, Initiator, LogFactory, Message, MsgFromAppError,
    NullLogger, QuickFixError, SessionId, SessionSettings, send_to_target,
};

use crate::load::{Client, ORDER_FIELDS, REPORT_FIELDS, Tracker};

fn qf(what: &str) -> impl Fn(QuickFixError) -> String + '_ {
    move |e| format!("QuickFIX: {what}: {e:?}")
}

/// A message of `msg_type` with ClOrdID `cl_ord_id` and then `fields`.
fn message(msg_type: &str, cl_ord_id: &str, fields: &[(u32, &str)]) -> Result<Message, String> {
    let mut msg = Message::new();
    msg.with_header_mut(|h| h.set_field(35, msg_type))
        .map_err(qf("MsgType"))?;
    msg.set_field(11, cl_ord_id).map_err(qf("ClOrdID"))?;
    for (tag, value) in fields {
        msg.set_field(*tag as i32, *value).map_err(qf("field"))?;
    }
    Ok(msg)
}

/// Both sides' callbacks: the acceptor answers orders, the initiator records
/// reports and counts its sessions' logons.
struct Callbacks {
    tracker: Option<Arc<Tracker>>,
    logged_on: AtomicUsize,
    /// Answers that could not be built or sent.
    errors: AtomicU64,
}

impl Callbacks {
    fn new(tracker: Option<Arc<Tracker>>) -> Callbacks {
        Callbacks {
            tracker,
            logged_on: AtomicUsize::new(0),
            errors: AtomicU64::new(0),
        }
    }
}

impl ApplicationCallback for Callbacks {
    fn on_logon(&self, _session: &SessionId) {
        self.logged_on.fetch_add(1, Ordering::AcqRel);
    }

    fn on_msg_from_app(&self, msg: &Message, session: &SessionId) -> Result<(), MsgFromAppError> {
        let msg_type = msg.with_header(|h| h.get_field(35));
        let cl_ord_id = msg.get_field(11).unwrap_or_default();
        match (&self.tracker, msg_type.as_deref()) {
            (Some(t), Some("8")) => t.record(cl_ord_id.as_bytes()),
            (None, Some("D")) => {
                let sent = message("8", &cl_ord_id, &REPORT_FIELDS)
                    .and_then(|r| send_to_target(r, session).map_err(qf("send")));
                if sent.is_err() {
                    self.errors.fetch_add(1, Ordering::Relaxed);
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// Sends orders with `Session::sendToTarget` on session `k` of the initiator.
struct QuickFixClient {
    sessions: Vec<SessionId>,
}

impl Client for QuickFixClient {
    fn send(&mut self, session: usize, index: u64) -> Result<(), String> {
        let order = message("D", &index.to_string(), &ORDER_FIELDS)?;
        send_to_target(order, &self.sessions[session]).map_err(qf("send order"))
    }
}

/// One side's settings: the defaults (role, store in `store`, TCP_NODELAY,
/// validation), then each of `ids` non-stop, to or on `port`.
fn settings(
    ids: &[SessionId],
    initiator: bool,
    port: u16,
    store: &Path,
) -> Result<SessionSettings, String> {
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml");
    let store = store.to_str().ok_or("the store's path is not UTF-8")?;
    let kind = if initiator {
        ConnectionType::Initiator
    } else {
        ConnectionType::Acceptor
    };
    let mut settings = SessionSettings::new();
    let defaults = Dictionary::try_from_items(&[
        &kind,
        &FileStorePath(store),
        &SocketNodelay(true),
        &UseDataDictionary(true),
        &DataDictionary(spec),
    ])
    .map_err(qf("settings"))?;
    settings.set(None, defaults).map_err(qf("settings"))?;
    for id in ids {
        let session = if initiator {
            Dictionary::try_from_items(&[
                &StartTime("00:00:00"),
                &EndTime("00:00:00"),
                &HeartBtInt(30),
                &ReconnectInterval(1),
                &SocketConnectHost("127.0.0.1"),
                &SocketConnectPort(port),
            ])
        } else {
            Dictionary::try_from_items(&[
                &StartTime("00:00:00"),
                &EndTime("00:00:00"),
                &SocketAcceptPort(port),
            ])
        };
        settings
            .set(Some(id), session.map_err(qf("session settings"))?)
            .map_err(qf("session settings"))?;
    }
    Ok(settings)
}

/// `n` session IDs, acceptor side (`EXECk`→`Ck`) or initiator side.
fn ids(n: usize, initiator: bool) -> Result<Vec<SessionId>, String> {
    (0..n)
        .map(|k| {
            let (exec, client) = (format!("EXEC{k}"), format!("C{k}"));
            let (sender, target) = if initiator {
                (client, exec)
            } else {
                (exec, client)
            };
            SessionId::try_new("FIX.4.4", &sender, &target, "").map_err(qf("session id"))
        })
        .collect()
}

/// Starts QuickFIX's pair with `n` sessions and file stores in `root`,
/// answers recorded in `tracker`, and runs `lane` with its client once every
/// session logged on; stops the pair after.
pub(crate) fn with_client(
    root: &Path,
    n: usize,
    tracker: &Arc<Tracker>,
    lane: &mut dyn FnMut(&mut dyn Client) -> Result<(), String>,
) -> Result<(), String> {
    let port = fix_benches::free_port()?;
    let i_ids = ids(n, true)?;
    let a_settings = settings(
        &ids(n, false)?,
        false,
        port,
        &crate::fresh_dir(root, "qf-a")?,
    )?;
    let i_settings = settings(&i_ids, true, port, &crate::fresh_dir(root, "qf-i")?)?;

    let logger = NullLogger;
    let a_log = LogFactory::try_new(&logger).map_err(qf("log"))?;
    let i_log = LogFactory::try_new(&logger).map_err(qf("log"))?;
    let a_store = FileMessageStoreFactory::try_new(&a_settings).map_err(qf("store"))?;
    let i_store = FileMessageStoreFactory::try_new(&i_settings).map_err(qf("store"))?;
    let a_callbacks = Callbacks::new(None);
    let i_callbacks = Callbacks::new(Some(tracker.clone()));
    let a_app = Application::try_new(&a_callbacks).map_err(qf("application"))?;
    let i_app = Application::try_new(&i_callbacks).map_err(qf("application"))?;
    let single = FixSocketServerKind::SingleThreaded;
    let mut acceptor =
        Acceptor::try_new(&a_settings, &a_app, &a_store, &a_log, single).map_err(qf("acceptor"))?;
    let mut initiator = Initiator::try_new(&i_settings, &i_app, &i_store, &i_log, single)
        .map_err(qf("initiator"))?;
    acceptor.start().map_err(qf("start acceptor"))?;
    initiator.start().map_err(qf("start initiator"))?;
    let limit = Duration::from_secs(30) + Duration::from_millis(30) * n as u32;
    let deadline = Instant::now() + limit;
    let mut ran = Ok(());
    loop {
        let on = i_callbacks.logged_on.load(Ordering::Acquire);
        if on >= n {
            break;
        }
        if Instant::now() > deadline {
            ran = Err(format!(
                "QuickFIX: {on} of {n} sessions logged on after {limit:?}"
            ));
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    if ran.is_ok() {
        ran = lane(&mut QuickFixClient { sessions: i_ids });
    }
    initiator.stop().map_err(qf("stop initiator"))?;
    acceptor.stop().map_err(qf("stop acceptor"))?;
    match a_callbacks.errors.load(Ordering::Relaxed) {
        0 => ran,
        errors => Err(format!(
            "QuickFIX: the acceptor failed to answer {errors} orders"
        )),
    }
}
