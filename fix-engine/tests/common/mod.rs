//! What the engine's tests share: ports an engine bound or the test holds, settings for an acceptor and an
//! initiator on loopback, and an application that reports what it sees.

#![allow(dead_code, unreachable_pub)]

pub mod certs;

use std::time::Duration;

use fix_core::Message;
use fix_engine::SessionHandle;
use fix_engine::config::{Schedule, SessionBuilder, SessionSettings};
use fix_session::{AppReject, Application, Outbox, Refusal, SessionId};
use tokio::sync::mpsc;

/// The port of `engine`'s one listener: a test starts its acceptor on port
/// 0 and points the initiator here, so no port is picked, dropped and bound
/// again (another socket could take it between).
pub fn port_of<D: fix_core::validate::Schema + Send + Sync + 'static>(
    engine: &fix_engine::Engine<D>,
) -> u16 {
    let [addr] = engine.local_addrs() else {
        panic!("not one listener: {:?}", engine.local_addrs());
    };
    addr.port()
}

/// A loopback port bound and not listening, kept by the socket returned:
/// connections to it are refused until the test calls `listen` on it, and
/// no other socket can take it meanwhile.
pub fn refusing_port() -> (tokio::net::TcpSocket, u16) {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(([127, 0, 0, 1], 0).into()).unwrap();
    let port = socket.local_addr().unwrap().port();
    (socket, port)
}

/// A loopback listener of the test's own, to hand to every engine it
/// starts ([`EngineOptions::listeners`](fix_engine::EngineOptions::listeners)):
/// the port stays the test's across engine restarts.
pub fn held_listener() -> (std::sync::Arc<std::net::TcpListener>, u16) {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = socket.local_addr().unwrap().port();
    (std::sync::Arc::new(socket), port)
}

/// A tokio listener on a duplicate of the test's `held` socket: dropped, it
/// leaves the socket listening.
pub fn tokio_listener(held: &std::net::TcpListener) -> tokio::net::TcpListener {
    let own = held.try_clone().unwrap();
    own.set_nonblocking(true).unwrap();
    tokio::net::TcpListener::from_std(own).unwrap()
}

/// Options that serve the settings' port `held` on the test's socket.
pub fn on(held: &std::sync::Arc<std::net::TcpListener>) -> fix_engine::EngineOptions {
    let mut options = fix_engine::EngineOptions::default();
    options.listeners.push(held.clone());
    options
}

/// Session `id`'s store in the engine store directory `dir` once its engine
/// has let it go: in the directory's shared log (`FileStoreShared=Y`, the
/// default) when it is there, else a log of its own. `Locked` while an
/// engine still has it.
pub fn open_session_store(
    dir: &std::path::Path,
    id: &SessionId,
) -> Result<Box<dyn fix_session::MessageStore>, fix_session::StoreError> {
    use fix_session::store::{SHARED_LOG_DIR, SharedLog, SharedLogOptions};
    let shared = dir.join(SHARED_LOG_DIR);
    if shared.is_dir() {
        let log = SharedLog::open(&shared, SharedLogOptions::new())?;
        if log.contains(&id.store_name()) {
            return Ok(Box::new(
                log.open_store(&id.store_name(), std::time::SystemTime::now())?,
            ));
        }
    }
    Ok(Box::new(fix_session::FileStore::open(
        dir,
        &id.store_name(),
    )?))
}

pub fn acceptor(sender: &str, target: &str, port: u16) -> SessionBuilder {
    SessionBuilder::acceptor(SessionId::new("FIX.4.4", sender, target))
        .socket_accept_address("127.0.0.1")
        .socket_accept_port(port)
        .schedule(Schedule::non_stop())
}

pub fn initiator(sender: &str, target: &str, port: u16) -> SessionBuilder {
    SessionBuilder::initiator(SessionId::new("FIX.4.4", sender, target))
        .heart_bt_int(30)
        .socket_connect("127.0.0.1", port)
        .reconnect_interval(Duration::from_secs(1))
        .schedule(Schedule::non_stop())
}

pub fn settings(
    sessions: impl IntoIterator<Item = SessionBuilder>,
) -> fix_engine::config::Settings {
    let built: Vec<SessionSettings> = sessions.into_iter().map(|b| b.build().unwrap()).collect();
    fix_engine::config::Settings::new(built).unwrap()
}

/// The messages of a QuickFIX message log, one a line, without their
/// timestamps.
pub fn log_messages(path: &std::path::Path) -> Vec<Vec<u8>> {
    let text = std::fs::read(path).unwrap();
    text.split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|line| strip_stamp(line).to_vec())
        .collect()
}

/// The texts of a QuickFIX event log's lines.
pub fn log_events(path: &std::path::Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| String::from_utf8(strip_stamp(l.as_bytes()).to_vec()).unwrap())
        .collect()
}

/// A log line without its `YYYYMMDD-HH:MM:SS.sss : ` prefix (checked).
fn strip_stamp(line: &[u8]) -> &[u8] {
    let (stamp, rest) = line.split_at(24);
    assert!(
        stamp[8] == b'-' && stamp[11] == b':' && stamp[17] == b'.' && &stamp[21..] == b" : ",
        "{}",
        String::from_utf8_lossy(line)
    );
    rest
}

/// A NewOrderSingle's body with ClOrdID `id`.
pub fn order(id: &str) -> Vec<u8> {
    format!("11={id}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01").into_bytes()
}

/// A Logon from `sender` to `target`, sequence number 1, as a raw client sends it.
pub fn logon(sender: &str, target: &str) -> Vec<u8> {
    let now = fix_session::time::format_timestamp(std::time::SystemTime::now());
    let now = std::str::from_utf8(&now).unwrap();
    fix_test_support::naive::build(
        format!("35=A\x0134=1\x0149={sender}\x0152={now}\x0156={target}\x0198=0\x01108=30\x01")
            .as_bytes(),
    )
}

/// What a [`Recorder`] saw, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    Logon,
    Logout,
    /// A Logout message received.
    LogoutReceived,
    /// A Heartbeat received.
    Heartbeat,
    /// An application message: MsgType, MsgSeqNum, ClOrdID, PossDupFlag.
    App {
        msg_type: Vec<u8>,
        seq: u64,
        cl_ord_id: String,
        poss_dup: bool,
    },
}

/// Reports every event of its session on a channel; answers an order `X`
/// with an order `R-X` when `echo` is on, and an order `DROP` by
/// answering, then disconnecting at once.
pub struct Recorder {
    pub events: mpsc::UnboundedSender<(SessionId, Event)>,
    pub id: SessionId,
    pub handle: SessionHandle,
    pub echo: bool,
}

impl Application for Recorder {
    fn on_logon(&mut self, _id: &SessionId) {
        let _ = self.events.send((self.id.clone(), Event::Logon));
    }
    fn on_logout(&mut self, _id: &SessionId) {
        let _ = self.events.send((self.id.clone(), Event::Logout));
    }
    fn from_admin(&mut self, msg: &Message<'_>) -> Result<(), Refusal> {
        let event = match msg.msg_type() {
            b"5" => Event::LogoutReceived,
            b"0" => Event::Heartbeat,
            _ => return Ok(()),
        };
        let _ = self.events.send((self.id.clone(), event));
        Ok(())
    }
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        let text = |tag| String::from_utf8_lossy(msg.get(tag).unwrap_or_default()).into_owned();
        let cl_ord_id = text(11);
        let event = Event::App {
            msg_type: msg.msg_type().to_vec(),
            seq: text(34).parse().unwrap(),
            cl_ord_id: cl_ord_id.clone(),
            poss_dup: msg.get(43) == Some(b"Y"),
        };
        let _ = self.events.send((self.id.clone(), event));
        if self.echo {
            out.send_body(b"D", &order(&format!("R-{cl_ord_id}")));
            if cl_ord_id == "DROP" {
                self.handle.disconnect();
            }
        }
        Ok(())
    }
}

/// An application factory for [`Recorder`]s reporting on `tx`.
pub fn recorders(
    tx: &mpsc::UnboundedSender<(SessionId, Event)>,
    echo: bool,
) -> impl Fn(&SessionId, SessionHandle) -> Recorder + Send + Sync + 'static {
    let tx = tx.clone();
    move |id, handle| Recorder {
        events: tx.clone(),
        id: id.clone(),
        handle,
        echo,
    }
}

/// An engine of the sessions `sessions` make, validating against FIX 4.4,
/// each session's application a [`Recorder`] reporting on `tx`.
pub async fn start(
    sessions: impl IntoIterator<Item = SessionBuilder>,
    tx: &mpsc::UnboundedSender<(SessionId, Event)>,
    echo: bool,
) -> fix_engine::Engine<&'static fix_core::typed::Tables> {
    fix_engine::Engine::start(settings(sessions), &fix44::DICTIONARY, recorders(tx, echo))
        .await
        .unwrap()
}

/// The next event, within `secs` seconds.
pub async fn next(
    rx: &mut mpsc::UnboundedReceiver<(SessionId, Event)>,
    secs: u64,
) -> (SessionId, Event) {
    tokio::time::timeout(Duration::from_secs(secs), rx.recv())
        .await
        .expect("no event in time")
        .expect("channel closed")
}

/// Waits for `event` of session `id`, skipping others; panics after `secs`.
pub async fn expect(
    rx: &mut mpsc::UnboundedReceiver<(SessionId, Event)>,
    id: &SessionId,
    event: &Event,
    secs: u64,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        match tokio::time::timeout_at(deadline, rx.recv()).await {
            Ok(Some((got_id, got))) if &got_id == id && &got == event => return,
            Ok(Some(_)) => {}
            _ => panic!("{id}: no {event:?} in {secs} s"),
        }
    }
}

/// A TCP relay the test holds in front of an engine that restarts on a new
/// port each time (a child process binding port 0): passes each connection
/// made to its port on to 127.0.0.1:`to`, closing it at once while `to` is 0.
#[derive(Clone, Default)]
pub struct Relay {
    pub to: std::sync::Arc<std::sync::atomic::AtomicU16>,
}

impl Relay {
    /// Listens on a port the system chooses, for as long as the runtime runs.
    pub async fn start(&self) -> u16 {
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0))
            .await
            .unwrap();
        let port = listener.local_addr().unwrap().port();
        let to = self.to.clone();
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let port = to.load(std::sync::atomic::Ordering::SeqCst);
                if port == 0 {
                    continue; // dropped: closed at once, as a refusal
                }
                tokio::spawn(async move {
                    if let Ok(mut server) =
                        tokio::net::TcpStream::connect(("127.0.0.1", port)).await
                    {
                        let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                    }
                });
            }
        });
        port
    }
}
