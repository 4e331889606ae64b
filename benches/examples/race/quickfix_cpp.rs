//! QuickFIX C++ in the race, through the `quickfix` crate: a `SocketAcceptor` and
//! a `SocketInitiator` (single-threaded kind: one thread each, started by the
//! engine), file stores, the crate's `NullLogger` as the log.
//!
//! Messages are built field by field with the crate's `set_field` (a `CString`
//! per value, then QuickFIX's `Message::setField`), as a QuickFIX application
//! builds them, and sent with `Session::sendToTarget`.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
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

use crate::{Client, ORDER_FIELDS, REPORT_FIELDS, Tracker};

/// QuickFIX's name in the output.
pub(crate) const NAME: &str = "QuickFIX C++";

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
/// reports. Called on the engines' threads.
struct Callbacks {
    tracker: Option<Arc<Tracker>>,
    logged_on: AtomicBool,
    /// Answers that could not be built or sent.
    errors: AtomicU64,
}

impl Callbacks {
    fn new(tracker: Option<Arc<Tracker>>) -> Callbacks {
        Callbacks {
            tracker,
            logged_on: AtomicBool::new(false),
            errors: AtomicU64::new(0),
        }
    }
}

impl ApplicationCallback for Callbacks {
    fn on_logon(&self, _session: &SessionId) {
        self.logged_on.store(true, Ordering::Release);
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

/// Sends orders with `Session::sendToTarget` (QuickFIX queues what the socket
/// does not take at once, without bound: the race's window bounds it).
struct QuickFixClient {
    session: SessionId,
}

impl Client for QuickFixClient {
    fn send(&mut self, index: u64) -> Result<(), String> {
        let order = message("D", &index.to_string(), &ORDER_FIELDS)?;
        send_to_target(order, &self.session).map_err(qf("send order"))
    }
}

/// The settings of one side: FIX.4.4, non-stop, TCP_NODELAY (ours' default),
/// the store in `store`, validation against the repository's `spec/FIX44.xml`.
fn settings(
    id: &SessionId,
    initiator: bool,
    port: u16,
    store: &Path,
) -> Result<SessionSettings, String> {
    let spec = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml");
    let store = store.to_str().ok_or("the store's path is not UTF-8")?;
    let mut settings = SessionSettings::new();
    let kind = if initiator {
        ConnectionType::Initiator
    } else {
        ConnectionType::Acceptor
    };
    settings
        .set(
            None,
            Dictionary::try_from_items(&[
                &kind,
                &FileStorePath(store),
                &SocketNodelay(true),
                &UseDataDictionary(true),
                &DataDictionary(spec),
            ])
            .map_err(qf("settings"))?,
        )
        .map_err(qf("settings"))?;
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
    Ok(settings)
}

/// Starts QuickFIX's pair with file stores in `root`, answers recorded in
/// `tracker`, and runs `race` with its client; stops the pair after.
pub(crate) fn with_client(
    root: &Path,
    tracker: &Arc<Tracker>,
    race: &mut dyn FnMut(&mut dyn Client) -> Result<(), String>,
) -> Result<(), String> {
    let port = fix_benches::free_port()?;
    let a_id = SessionId::try_new("FIX.4.4", "EXEC", "C1", "").map_err(qf("session id"))?;
    let i_id = SessionId::try_new("FIX.4.4", "C1", "EXEC", "").map_err(qf("session id"))?;
    let a_settings = settings(&a_id, false, port, &crate::store_dir(root, "qf-acceptor")?)?;
    let i_settings = settings(&i_id, true, port, &crate::store_dir(root, "qf-initiator")?)?;

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
    let deadline = Instant::now() + Duration::from_secs(10);
    while !i_callbacks.logged_on.load(Ordering::Acquire) {
        if Instant::now() > deadline {
            return Err("QuickFIX: the initiator did not log on in 10 s".into());
        }
        std::thread::sleep(Duration::from_millis(1));
    }

    let mut client = QuickFixClient { session: i_id };
    let raced = race(&mut client);
    initiator.stop().map_err(qf("stop initiator"))?;
    acceptor.stop().map_err(qf("stop acceptor"))?;
    let errors = a_callbacks.errors.load(Ordering::Relaxed);
    if errors > 0 {
        return Err(format!(
            "QuickFIX: the acceptor failed to answer {errors} orders"
        ));
    }
    raced
}
