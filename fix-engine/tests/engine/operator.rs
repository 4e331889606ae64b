//! Live administration over real TCP, two engines (an acceptor and an
//! initiator): sequence numbers set on live sessions are what the
//! counterparty sees after a reconnection (and what the store holds); a held
//! acceptor refuses Logons until released, a held initiator does not
//! connect; sessions added and removed at run time; the admin socket.
#![cfg(unix)]

use std::path::Path;
use std::time::Duration;

use crate::common;
use crate::common::{acceptor, initiator, log_events, port_of, settings};
use fix_core::Message;
use fix_engine::{Engine, EngineOptions, OperatorCommand, OperatorError, SessionHandle};
use fix_session::store::StoreLog;
use fix_session::{AppReject, Application, Outbox, Refusal, SessionId, State};
use fix_test_support::temp_dir::TestDir;
use tokio::sync::mpsc;

type Seen = mpsc::UnboundedReceiver<(Vec<u8>, u64)>;

/// Reports the MsgType and MsgSeqNum of every message its session receives.
struct Numbers(mpsc::UnboundedSender<(Vec<u8>, u64)>);

impl Numbers {
    fn report(&self, msg: &Message<'_>) {
        let seq = std::str::from_utf8(msg.get(34).unwrap_or_default())
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let _ = self.0.send((msg.msg_type().to_vec(), seq));
    }
}

impl Application for Numbers {
    fn from_admin(&mut self, msg: &Message<'_>) -> Result<(), Refusal> {
        self.report(msg);
        Ok(())
    }
    fn from_app(&mut self, msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        self.report(msg);
        Ok(())
    }
}

type TestEngine = Engine<&'static fix_core::typed::Tables>;

async fn start(
    session: fix_engine::config::SessionBuilder,
    options: EngineOptions,
) -> (TestEngine, Seen) {
    let (tx, rx) = mpsc::unbounded_channel();
    let engine = Engine::start_with(
        settings([session]),
        &fix44::DICTIONARY,
        options,
        move |_, _| Numbers(tx.clone()),
    )
    .await
    .unwrap();
    (engine, rx)
}

/// The next message of type `msg_type` received, within 10 seconds: its
/// MsgSeqNum.
async fn next_of(seen: &mut Seen, msg_type: &[u8]) -> u64 {
    let wanted = async {
        loop {
            let (t, seq) = seen.recv().await.expect("the engine is running");
            if t == msg_type {
                return seq;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(10), wanted)
        .await
        .unwrap_or_else(|_| panic!("no {} in time", String::from_utf8_lossy(msg_type)))
}

async fn logged_on(handle: &SessionHandle) {
    tokio::time::timeout(Duration::from_secs(10), handle.wait_for(State::LoggedOn))
        .await
        .expect("logged on in time");
}

fn drain(seen: &mut Seen) {
    while seen.try_recv().is_ok() {}
}

fn events(dir: &Path, id: &SessionId) -> Vec<String> {
    log_events(&dir.join(format!("{}.event.current.log", id.store_name())))
}

fn order(id: &str) -> Vec<u8> {
    common::order(id)
}

/// An acceptor EXEC→CLIENT (file store and log under `dir`) and an
/// initiator CLIENT→EXEC (file store), each its own engine, logged on.
struct Pair {
    a: TestEngine,
    a_seen: Seen,
    i: TestEngine,
    i_seen: Seen,
    ah: SessionHandle,
    ih: SessionHandle,
    a_id: SessionId,
}

impl Pair {
    async fn logged_on(dir: &Path) -> Pair {
        let (a_id, i_id) = (
            SessionId::new("FIX.4.4", "EXEC", "CLIENT"),
            SessionId::new("FIX.4.4", "CLIENT", "EXEC"),
        );
        let (a, a_seen) = start(
            acceptor("EXEC", "CLIENT", 0)
                .file_store_path(dir.join("acceptor"))
                .file_log_path(dir.join("log")),
            EngineOptions::default(),
        )
        .await;
        let port = port_of(&a);
        let (i, i_seen) = start(
            initiator("CLIENT", "EXEC", port).file_store_path(dir.join("initiator")),
            EngineOptions::default(),
        )
        .await;
        let (ah, ih) = (a.session(&a_id).unwrap(), i.session(&i_id).unwrap());
        logged_on(&ah).await;
        logged_on(&ih).await;
        Pair {
            a,
            a_seen,
            i,
            i_seen,
            ah,
            ih,
            a_id,
        }
    }
}

#[tokio::test]
async fn numbers_set_on_live_sessions_are_what_the_counterparty_sees_after_a_reconnection() {
    let dir = TestDir::new("admin-set-next");
    let Pair {
        a,
        mut a_seen,
        i,
        mut i_seen,
        ah,
        ih,
        a_id,
    } = Pair::logged_on(&dir).await;
    ah.send(b"D", &order("BEFORE")).unwrap();
    assert_eq!(next_of(&mut i_seen, b"D").await, 2);

    // Both sides, live: the acceptor sends from 100 and expects 50, the
    // initiator the other way round.
    let st = a
        .set_next_seq_nums(&a_id, Some(100), Some(50))
        .await
        .unwrap();
    assert_eq!(
        (
            st.state,
            st.connected,
            st.next_sender_seq,
            st.next_target_seq
        ),
        (State::LoggedOn, true, 100, 50)
    );
    let st = ih.set_next_seq_nums(Some(50), Some(100)).await.unwrap();
    assert_eq!((st.next_sender_seq, st.next_target_seq), (50, 100));
    drain(&mut a_seen);
    drain(&mut i_seen);

    // The acceptor drops the connection; the initiator connects again.
    let st = ah.operate(OperatorCommand::Disconnect).await.unwrap();
    assert!(st.connected, "answered by the connection's own step");
    assert_eq!(
        next_of(&mut a_seen, b"A").await,
        50,
        "the initiator's Logon"
    );
    assert_eq!(
        next_of(&mut i_seen, b"A").await,
        100,
        "the acceptor's answer"
    );
    logged_on(&ih).await;
    ah.send(b"D", &order("AFTER")).unwrap();
    ih.send(b"D", &order("AFTER")).unwrap();
    assert_eq!(next_of(&mut i_seen, b"D").await, 101);
    assert_eq!(next_of(&mut a_seen, b"D").await, 51);

    // The store says so (as `fixstore list` reads it: no lock taken).
    let wait_for_store = async {
        loop {
            let log = StoreLog::open(dir.join("acceptor"), &a_id.store_name()).unwrap();
            if (log.next_sender_seq(), log.next_target_seq()) == (102, 52) {
                return log;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    let log = tokio::time::timeout(Duration::from_secs(5), wait_for_store)
        .await
        .expect("the store holds the numbers");
    assert!(log.records().seq_sets >= 1);
    let st = a.status(&a_id).await.unwrap();
    assert_eq!((st.next_sender_seq, st.next_target_seq), (102, 52));

    // Each command is an event in the session's log.
    let ev = events(&dir.join("log"), &a_id);
    for line in [
        "Sequence numbers set by an operator: next sender 100, next target 50",
        "Disconnect requested by an operator",
    ] {
        assert!(ev.iter().any(|e| e == line), "{line:?} not in {ev:#?}");
    }

    // A zero is refused and changes nothing.
    let e = ah.set_next_seq_nums(Some(0), Some(7)).await.unwrap_err();
    assert!(matches!(e, OperatorError::Session { .. }), "{e}");
    assert_eq!(ah.status().await.unwrap().next_target_seq, 52);

    i.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
    let log = StoreLog::open(dir.join("acceptor"), &a_id.store_name()).unwrap();
    assert_eq!(log.next_sender_seq(), 103, "the Logout answered");
}

#[tokio::test]
async fn numbers_set_and_a_reset_while_disconnected_are_done_at_once() {
    let dir = TestDir::new("admin-idle");
    let id = SessionId::new("FIX.4.4", "EXEC", "CLIENT");
    let (a, _seen) = start(
        acceptor("EXEC", "CLIENT", 0)
            .file_store_path(dir.join("store"))
            .file_log_path(dir.join("log")),
        EngineOptions::default(),
    )
    .await;
    let st = a.set_next_seq_nums(&id, Some(7), None).await.unwrap();
    assert_eq!(
        (
            st.state,
            st.connected,
            st.next_sender_seq,
            st.next_target_seq
        ),
        (State::Disconnected, false, 7, 1)
    );
    let log = StoreLog::open(dir.join("store"), &id.store_name()).unwrap();
    assert_eq!((log.next_sender_seq(), log.next_target_seq()), (7, 1));
    let st = a.operate(&id, OperatorCommand::Reset).await.unwrap();
    assert_eq!((st.next_sender_seq, st.next_target_seq), (1, 1));
    let e = a.operate(&id, OperatorCommand::Logout).await.unwrap_err();
    assert!(matches!(e, OperatorError::NotConnected(_)), "{e}");
    let e = a
        .operate(
            &SessionId::new("FIX.4.4", "EXEC", "NOBODY"),
            OperatorCommand::Reset,
        )
        .await
        .unwrap_err();
    assert_eq!(e.to_string(), "no session FIX.4.4-EXEC-NOBODY");
    let ev = events(&dir.join("log"), &id);
    assert!(
        ev.iter()
            .any(|e| e == "Sequence numbers reset by an operator"),
        "{ev:#?}"
    );
    a.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_reset_of_a_live_session_logs_out_first_then_both_sides_start_at_one() {
    let dir = TestDir::new("admin-reset");
    let Pair {
        a,
        mut a_seen,
        i,
        mut i_seen,
        ah,
        ih,
        a_id,
    } = Pair::logged_on(&dir).await;
    for n in 0..3 {
        ah.send(b"D", &order(&format!("A{n}"))).unwrap();
    }
    assert_eq!(next_of(&mut i_seen, b"D").await, 2);

    // Held, so that the initiator does not come back before it is reset too.
    ah.hold().await.unwrap();
    let st = ah.reset().await.unwrap();
    assert_eq!(st.state, State::LogoutSent, "{st}");
    assert_eq!(
        next_of(&mut i_seen, b"5").await,
        5,
        "the Logout, numbered before the reset"
    );
    tokio::time::timeout(Duration::from_secs(5), ah.wait_for(State::Disconnected))
        .await
        .unwrap();
    let st = ah.status().await.unwrap();
    assert_eq!((st.next_sender_seq, st.next_target_seq), (1, 1), "{st}");
    let log = StoreLog::open(dir.join("acceptor"), &a_id.store_name()).unwrap();
    assert_eq!((log.next_sender_seq(), log.next_target_seq()), (1, 1));
    assert_eq!(log.stored(), 0);
    let ev = events(&dir.join("log"), &a_id);
    let asked = "Reset requested by an operator: the store is reset when the Logout is answered or the connection ends";
    assert!(ev.iter().any(|e| e == asked), "{ev:#?}");

    // The initiator, down now, is reset at once; released, both start at 1.
    // (Should it be trying a connection this moment, the reset waits for
    // that connection's end, which the held acceptor brings at once.)
    ih.reset().await.unwrap();
    let reset = async {
        loop {
            let st = ih.status().await.unwrap();
            if (st.next_sender_seq, st.next_target_seq) == (1, 1) {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), reset)
        .await
        .expect("the initiator reset");
    drain(&mut a_seen);
    drain(&mut i_seen);
    ah.release().await.unwrap();
    assert_eq!(next_of(&mut a_seen, b"A").await, 1);
    assert_eq!(next_of(&mut i_seen, b"A").await, 1);
    i.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_held_acceptor_refuses_logons_and_a_held_initiator_does_not_connect() {
    let dir = TestDir::new("admin-hold");
    let (a_id, i_id) = (
        SessionId::new("FIX.4.4", "EXEC", "CLIENT"),
        SessionId::new("FIX.4.4", "CLIENT", "EXEC"),
    );
    let (a, mut a_seen) = start(
        acceptor("EXEC", "CLIENT", 0).file_log_path(dir.join("a")),
        EngineOptions::default(),
    )
    .await;
    let port = port_of(&a);
    let (i, _i_seen) = start(
        initiator("CLIENT", "EXEC", port).file_log_path(dir.join("i")),
        EngineOptions::default(),
    )
    .await;
    let (ah, ih) = (a.session(&a_id).unwrap(), i.session(&i_id).unwrap());
    logged_on(&ah).await;
    logged_on(&ih).await;

    // Held: the connection running now goes on; the next Logons are refused.
    let st = ah.hold().await.unwrap();
    assert!(
        st.held && st.connected && st.state == State::LoggedOn,
        "{st}"
    );
    ah.operate(OperatorCommand::Disconnect).await.unwrap();
    drain(&mut a_seen);
    // The initiator tries every second (ReconnectInterval=1).
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_ne!(ih.state(), State::LoggedOn);
    let st = ah.status().await.unwrap();
    assert_eq!(
        (st.state, st.connected, st.held),
        (State::Disconnected, false, true)
    );
    assert!(a_seen.try_recv().is_err(), "no Logon reached the session");
    let refused = events(&dir.join("a"), &a_id)
        .iter()
        .filter(|e| *e == "Refused a Logon: the session is held by an operator")
        .count();
    assert!(refused >= 1, "{refused} refusals");

    let st = ah.release().await.unwrap();
    assert!(!st.held);
    logged_on(&ah).await;
    logged_on(&ih).await;

    // A held initiator does not connect at all.
    ih.hold().await.unwrap();
    ih.operate(OperatorCommand::Logout).await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), ah.wait_for(State::Disconnected))
        .await
        .unwrap();
    drain(&mut a_seen);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert!(a_seen.try_recv().is_err(), "the held initiator connected");
    assert_eq!(ih.state(), State::Disconnected);
    ih.release().await.unwrap();
    logged_on(&ah).await;
    let ev = events(&dir.join("i"), &i_id);
    for line in [
        "Held by an operator: Logons refused until released",
        "Logout requested by an operator",
        "Not connecting: held by an operator",
        "Released by an operator: Logons accepted",
    ] {
        assert!(ev.iter().any(|e| e == line), "{line:?} not in {ev:#?}");
    }
    i.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// The application's own Logout and disconnect (through its handle) are
/// events in the session's log, before what they do.
#[tokio::test]
async fn the_applications_logout_and_disconnect_are_in_the_log() {
    let dir = TestDir::new("admin-app");
    let i_id = SessionId::new("FIX.4.4", "CLIENT", "EXEC");
    let (a, _a_seen) = start(acceptor("EXEC", "CLIENT", 0), EngineOptions::default()).await;
    let port = port_of(&a);
    let (i, _i_seen) = start(
        initiator("CLIENT", "EXEC", port).file_log_path(dir.join("i")),
        EngineOptions::default(),
    )
    .await;
    let ih = i.session(&i_id).unwrap();
    logged_on(&ih).await;
    ih.logout();
    tokio::time::timeout(Duration::from_secs(5), ih.wait_for(State::Disconnected))
        .await
        .expect("logged out");
    // The initiator connects again after its ReconnectInterval.
    logged_on(&ih).await;
    ih.disconnect();
    tokio::time::timeout(Duration::from_secs(5), ih.wait_for(State::Disconnected))
        .await
        .expect("disconnected");
    let ev = events(&dir.join("i"), &i_id);
    let at = |line: &str| {
        ev.iter()
            .position(|e| e == line)
            .unwrap_or_else(|| panic!("{line:?} not in {ev:#?}"))
    };
    assert_eq!(
        at("Logout requested by the application") + 1,
        at("Initiated logout request")
    );
    let disconnect = at("Disconnect requested by the application");
    assert_eq!(ev[disconnect + 1], "Disconnecting", "{ev:#?}");
    i.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn sessions_are_added_and_removed_at_run_time() {
    let dir = TestDir::new("admin-add");
    // A port the test holds, not 0: the sessions added below name it.
    let (held, port) = common::held_listener();
    let (a, _a_seen) = start(acceptor("EXEC", "CLIENT", port), common::on(&held)).await;
    let (i, _i_seen) = start(initiator("CLIENT", "EXEC", port), EngineOptions::default()).await;
    let a2 = SessionId::new("FIX.4.4", "EXEC", "CLIENT2");
    let i2 = SessionId::new("FIX.4.4", "CLIENT2", "EXEC");
    let acceptor2 = a
        .add_session(
            acceptor("EXEC", "CLIENT2", port)
                .file_store_path(dir.join("acceptor"))
                .build()
                .unwrap(),
        )
        .await
        .unwrap();
    let initiator2 = i
        .add_session(
            initiator("CLIENT2", "EXEC", port)
                .file_store_path(dir.join("initiator"))
                // A log of its own, opened below to see it let go while
                // the engine runs on (the shared log stays the engine's).
                .file_store_shared(false)
                .build()
                .unwrap(),
        )
        .await
        .unwrap();
    logged_on(&acceptor2).await;
    logged_on(&initiator2).await;
    assert_eq!(
        a.sessions(),
        [SessionId::new("FIX.4.4", "EXEC", "CLIENT"), a2.clone()]
    );
    let again = a
        .add_session(acceptor("EXEC", "CLIENT2", port).build().unwrap())
        .await
        .unwrap_err();
    assert!(matches!(again, OperatorError::Exists(_)), "{again}");
    let differs = a
        .add_session(
            acceptor("EXEC", "CLIENT3", port)
                .socket_accept_address("127.0.0.2")
                .build()
                .unwrap(),
        )
        .await
        .unwrap_err();
    assert_eq!(
        differs.to_string(),
        format!(
            "session FIX.4.4-EXEC-CLIENT3: the engine's listener on port {port} has another SocketAcceptAddress"
        )
    );

    // Removed: logged out, its handles refused, its store closed.
    i.remove_session(&i2, Duration::from_secs(5)).await.unwrap();
    let gone = initiator2.status().await.unwrap_err();
    assert!(matches!(gone, OperatorError::NoSuchSession(_)), "{gone}");
    assert_eq!(i.sessions(), [SessionId::new("FIX.4.4", "CLIENT", "EXEC")]);
    tokio::time::timeout(
        Duration::from_secs(5),
        acceptor2.wait_for(State::Disconnected),
    )
    .await
    .expect("the acceptor's side logged out");
    let reopened = async {
        loop {
            match fix_session::FileStore::open(dir.join("initiator"), &i2.store_name()) {
                Ok(store) => return store,
                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            }
        }
    };
    let store = tokio::time::timeout(Duration::from_secs(5), reopened)
        .await
        .expect("the removed session's store is closed");
    drop(store);
    // It stays away: no reconnection.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(acceptor2.state(), State::Disconnected);
    a.remove_session(&a2, Duration::from_secs(5)).await.unwrap();
    i.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// An operator's connection to the admin socket.
struct Socket {
    write: tokio::net::unix::OwnedWriteHalf,
    lines: tokio::io::Lines<tokio::io::BufReader<tokio::net::unix::OwnedReadHalf>>,
}

impl Socket {
    /// Writes `command` and reads its answer.
    async fn ask(&mut self, command: &str) -> String {
        use tokio::io::AsyncWriteExt;
        self.write
            .write_all(format!("{command}\n").as_bytes())
            .await
            .unwrap();
        tokio::time::timeout(Duration::from_secs(5), self.lines.next_line())
            .await
            .expect("an answer in time")
            .unwrap()
            .expect("a line")
    }
}

/// Whether a TCP connection to `addr` is refused (nothing listens there).
async fn refused(addr: std::net::SocketAddr) -> bool {
    matches!(
        tokio::net::TcpStream::connect(addr).await,
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionRefused
    )
}

#[tokio::test]
async fn an_acceptor_added_on_a_new_port_gets_a_listener_closed_with_its_last_session() {
    // The settings' listener on a port the test holds, not 0: port 0 is
    // left for a session added at run time.
    let (held, port) = common::held_listener();
    let (a, _a_seen) = start(acceptor("EXEC", "CLIENT", port), common::on(&held)).await;
    // Port 0: no listener of the settings is on it; the system picks one.
    let (id3, id4) = (
        SessionId::new("FIX.4.4", "EXEC", "CLIENT3"),
        SessionId::new("FIX.4.4", "EXEC", "CLIENT4"),
    );
    let h3 = a
        .add_session(acceptor("EXEC", "CLIENT3", 0).build().unwrap())
        .await
        .unwrap();
    let addr = a.local_addr(&id3).await.expect("a listener bound for it");
    assert_ne!(addr.port(), port);
    assert_eq!(a.local_addrs().len(), 1, "the settings' listeners only");
    // A second session on that port shares the new listener; one that wants
    // the socket made otherwise is refused.
    a.add_session(acceptor("EXEC", "CLIENT4", 0).build().unwrap())
        .await
        .unwrap();
    assert_eq!(a.local_addr(&id4).await, Some(addr));
    let differs = a
        .add_session(
            acceptor("EXEC", "CLIENT5", 0)
                .socket_reuse_address(false)
                .build()
                .unwrap(),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(
            differs,
            OperatorError::ListenerDiffers {
                port: 0,
                setting: "SocketReuseAddress",
                ..
            }
        ),
        "{differs}"
    );
    // A counterparty logs on through it; not through the settings' port.
    let (i, _i_seen) = start(
        initiator("CLIENT3", "EXEC", addr.port()),
        EngineOptions::default(),
    )
    .await;
    logged_on(&h3).await;
    let wrong_port = tokio::net::TcpStream::connect(("127.0.0.1", port)).await;
    assert!(wrong_port.is_ok(), "the settings' listener stays");

    // The listener stays while a session is on it, and closes with the last.
    a.remove_session(&id3, Duration::from_secs(5))
        .await
        .unwrap();
    assert!(!refused(addr).await, "CLIENT4 is still on {addr}");
    a.remove_session(&id4, Duration::from_secs(5))
        .await
        .unwrap();
    let closed = async {
        while !refused(addr).await {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(5), closed)
        .await
        .expect("the listener added for them closed");
    assert!(!refused(std::net::SocketAddr::from(([127, 0, 0, 1], port))).await);
    i.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_removed_template_session_makes_room_for_another() {
    let mut options = EngineOptions::default();
    options.max_template_sessions = 1;
    let (a, _a_seen) = start(acceptor("EXEC", "*", 0).acceptor_template(true), options).await;
    let port = port_of(&a);
    let (i1, _) = start(initiator("ONE", "EXEC", port), EngineOptions::default()).await;
    let one = SessionId::new("FIX.4.4", "EXEC", "ONE");
    let made = async {
        loop {
            if let Some(h) = a.session(&one) {
                return h;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let h1 = tokio::time::timeout(Duration::from_secs(10), made)
        .await
        .expect("made from the template");
    logged_on(&h1).await;
    i1.shutdown(Duration::from_secs(5)).await.unwrap();
    // Full: a second CompID is refused while ONE is in the engine.
    let (i2, _) = start(initiator("TWO", "EXEC", port), EngineOptions::default()).await;
    let two_id = SessionId::new("FIX.4.4", "TWO", "EXEC");
    let two = i2.session(&two_id).unwrap();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(two.state(), State::Disconnected, "refused past the limit");
    assert!(
        a.session(&SessionId::new("FIX.4.4", "EXEC", "TWO"))
            .is_none()
    );
    // Removed, ONE no longer counts: TWO's next attempt is taken.
    a.remove_session(&one, Duration::from_secs(5))
        .await
        .unwrap();
    logged_on(&two).await;
    assert_eq!(a.sessions(), [SessionId::new("FIX.4.4", "EXEC", "TWO")]);
    i2.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn the_admin_socket_answers_a_line_for_each_command() {
    use tokio::io::{AsyncBufReadExt, BufReader};

    let dir = TestDir::new("admin-socket");
    let path = dir.join("admin.sock");
    let mut options = EngineOptions::default();
    options.admin_socket = Some(path.clone());
    let (a, _a_seen) = start(acceptor("EXEC", "CLIENT", 0), options).await;
    let port = port_of(&a);
    let (i, _i_seen) = start(initiator("CLIENT", "EXEC", port), EngineOptions::default()).await;
    let ah = a
        .session(&SessionId::new("FIX.4.4", "EXEC", "CLIENT"))
        .unwrap();
    logged_on(&ah).await;
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o600);

    let stream = tokio::net::UnixStream::connect(&path).await.unwrap();
    let (read, write) = stream.into_split();
    let mut socket = Socket {
        write,
        lines: BufReader::new(read).lines(),
    };
    assert_eq!(socket.ask("sessions").await, "FIX.4.4-EXEC-CLIENT");
    let status = socket.ask("status FIX.4.4-EXEC-CLIENT").await;
    assert!(
        status.starts_with("FIX.4.4-EXEC-CLIENT state=LoggedOn connected=yes held=no next-sender="),
        "{status}"
    );
    assert_eq!(
        socket
            .ask("set-next FIX.4.4-EXEC-CLIENT sender 20 target 30")
            .await,
        "ok FIX.4.4-EXEC-CLIENT state=LoggedOn connected=yes held=no next-sender=20 next-target=30"
    );
    assert_eq!(
        socket.ask("status FIX.4.4:EXEC->CLIENT").await,
        "FIX.4.4-EXEC-CLIENT state=LoggedOn connected=yes held=no next-sender=20 next-target=30"
    );
    assert_eq!(socket.ask("status NOPE").await, "error: no session NOPE");
    assert!(
        socket
            .ask("frobnicate")
            .await
            .starts_with("error: unknown command \"frobnicate\"")
    );
    assert!(
        socket
            .ask("set-next FIX.4.4-EXEC-CLIENT sender 0")
            .await
            .starts_with("error: ")
    );
    assert_eq!(socket.ask("hold").await, "error: hold needs a session ID");
    let held = socket.ask("hold FIX.4.4-EXEC-CLIENT").await;
    assert!(
        held.starts_with("ok ") && held.contains("held=yes"),
        "{held}"
    );
    let released = socket.ask("release FIX.4.4-EXEC-CLIENT").await;
    assert!(released.contains("held=no"), "{released}");

    // Sessions added from a settings file, and removed.
    let file = dir.join("more.cfg");
    std::fs::write(
        &file,
        "[DEFAULT]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\n\
         SocketAcceptAddress=127.0.0.1\nSocketAcceptPort=0\nNonStopSession=Y\n\
         [SESSION]\nTargetCompID=CLIENT8\n[SESSION]\nTargetCompID=CLIENT9\n",
    )
    .unwrap();
    assert_eq!(
        socket.ask(&format!("add {}", file.display())).await,
        "ok added FIX.4.4-EXEC-CLIENT8 FIX.4.4-EXEC-CLIENT9"
    );
    assert_eq!(
        socket.ask("sessions").await,
        "FIX.4.4-EXEC-CLIENT FIX.4.4-EXEC-CLIENT8 FIX.4.4-EXEC-CLIENT9"
    );
    let again = socket.ask(&format!("add {}", file.display())).await;
    assert_eq!(again, "error: session FIX.4.4-EXEC-CLIENT8 exists already");
    assert_eq!(
        socket.ask("remove FIX.4.4-EXEC-CLIENT8").await,
        "ok removed FIX.4.4-EXEC-CLIENT8"
    );
    assert_eq!(
        socket.ask("remove FIX.4.4-EXEC-CLIENT8").await,
        "error: no session FIX.4.4-EXEC-CLIENT8"
    );
    assert!(
        socket
            .ask("add /nonexistent/x.cfg")
            .await
            .starts_with("error: ")
    );
    assert_eq!(
        socket.ask("add").await,
        "error: add needs the path of a settings file"
    );
    assert_eq!(
        socket.ask("sessions").await,
        "FIX.4.4-EXEC-CLIENT FIX.4.4-EXEC-CLIENT9"
    );

    i.shutdown(Duration::from_secs(5)).await.unwrap();
    a.shutdown(Duration::from_secs(5)).await.unwrap();
    assert!(!path.exists(), "the socket is removed at shutdown");
}
