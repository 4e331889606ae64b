//! The engine on loopback with the real clock: an acceptor engine and an
//! initiator engine in one runtime.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use crate::common::*;
use fix_engine::config::{Schedule, TimeOfDay};
use fix_engine::{Engine, EngineOptions, FileDictionaries, SendError};
use fix_session::{SessionId, State};
use fix_test_support::temp_dir::TestDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

const WAIT: u64 = 10;

fn ids(acceptor: &str, initiator: &str) -> (SessionId, SessionId) {
    (
        SessionId::new("FIX.4.4", acceptor, initiator),
        SessionId::new("FIX.4.4", initiator, acceptor),
    )
}

#[tokio::test]
async fn an_acceptor_and_an_initiator_log_on_and_exchange_messages_both_ways() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C1");
    let acc = start([acceptor("EXEC", "C1", 0)], &tx, true).await;
    let port = port_of(&acc);
    let ini = start([initiator("C1", "EXEC", port)], &tx, false).await;
    let client = ini.session(&i_id).unwrap();
    let server = acc.session(&a_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), server.wait_for(State::LoggedOn))
        .await
        .unwrap();

    client.send(b"D", &order("O1")).unwrap();
    server.send(b"D", &order("S1")).unwrap();
    let mut seen = Vec::new();
    while seen.len() < 3 {
        if let (
            id,
            Event::App {
                cl_ord_id,
                seq,
                poss_dup,
                ..
            },
        ) = next(&mut rx, WAIT).await
        {
            assert!(!poss_dup);
            seen.push((id, cl_ord_id, seq));
        }
    }
    seen.sort_by(|a, b| a.1.cmp(&b.1));
    // The acceptor got O1 (after the Logon: 2); the initiator S1 and the
    // answer R-O1 (2 and 3, in either order).
    assert_eq!(seen[0], (a_id.clone(), "O1".into(), 2));
    assert_eq!((&seen[1].0, seen[1].1.as_str()), (&i_id, "R-O1"));
    assert_eq!((&seen[2].0, seen[2].1.as_str()), (&i_id, "S1"));
    assert_eq!(seen[1].2 + seen[2].2, 5);

    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn unknown_comp_ids_are_refused_before_any_state_is_made() {
    let dir = TestDir::new("unknown");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "C1", 0).file_store_path(&dir)], &tx, true).await;
    let port = port_of(&acc);
    // The files in the store directory, and the sessions its stores hold.
    let files = || {
        let mut names: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        (names, fix_session::store::sessions(&dir).unwrap())
    };
    let before = files();
    assert_eq!(before.0, ["shared-log"]);
    assert_eq!(before.1, ["FIX.4.4-EXEC-C1"]);

    // A stranger's Logon: the connection is closed without an answer.
    let (_, stranger) = ids("EXEC", "STRANGER");
    let ini = start([initiator("STRANGER", "EXEC", port)], &tx, false).await;
    let mut raw = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    raw.write_all(&logon("NOBODY", "EXEC")).await.unwrap();
    let mut buf = [0u8; 256];
    let n = tokio::time::timeout(Duration::from_secs(WAIT), raw.read(&mut buf))
        .await
        .unwrap()
        .unwrap();
    assert_eq!(n, 0, "closed without an answer");

    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(ini.session(&stranger).unwrap().state(), State::Disconnected);
    assert!(rx.try_recv().is_err(), "no session heard of anything");
    assert_eq!(files(), before);
    assert!(
        acc.session(&SessionId::new("FIX.4.4", "EXEC", "STRANGER"))
            .is_none()
    );
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// A Logon from `sender` to `target`, sent now.
#[tokio::test]
async fn the_initiator_reconnects_after_a_drop_and_the_sequence_continues() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C2");
    let acc = start([acceptor("EXEC", "C2", 0)], &tx, true).await;
    let port = port_of(&acc);
    let ini = start([initiator("C2", "EXEC", port)], &tx, false).await;
    let client = ini.session(&i_id).unwrap();
    expect(&mut rx, &i_id, &Event::Logon, WAIT).await;
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();

    // The acceptor answers DROP (stored as its number 2) and drops the
    // connection before writing the answer.
    client.send(b"D", &order("DROP")).unwrap();
    expect(&mut rx, &i_id, &Event::Logout, WAIT).await;
    // ReconnectInterval (1 s) later: a Logon numbered 3 from the acceptor, a
    // ResendRequest for 2, the answer resent as a possible duplicate.
    expect(&mut rx, &i_id, &Event::Logon, WAIT).await;
    let resent = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "R-DROP".into(),
        poss_dup: true,
    };
    expect(&mut rx, &i_id, &resent, WAIT).await;
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    // Our numbers went on too: Logon 1, DROP 2, Logon 3, ResendRequest 4,
    // this order 5.
    client.send(b"D", &order("AGAIN")).unwrap();
    let again = Event::App {
        msg_type: b"D".to_vec(),
        seq: 5,
        cl_ord_id: "AGAIN".into(),
        poss_dup: false,
    };
    expect(&mut rx, &a_id, &again, WAIT).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// A message `send` accepted is sent, though the connection ends before the
/// session takes it: it waits in the queue for the next connection's Logon.
#[tokio::test]
async fn messages_queued_when_the_connection_ends_go_after_the_next_logon() {
    // The test's socket: the raw peer's, then the acceptor engine's, so
    // the port stays the initiator's counterparty's throughout.
    let (held, port) = held_listener();
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C12");
    // First a peer that reads the Logon, never answers it, and hangs up.
    let raw = tokio_listener(&held);
    let ini = start([initiator("C12", "EXEC", port)], &tx, false).await;
    let client = ini.session(&i_id).unwrap();
    let (mut peer, _) = raw.accept().await.unwrap();
    let mut buf = [0u8; 512];
    assert_ne!(peer.read(&mut buf).await.unwrap(), 0, "the Logon");
    tokio::time::timeout(
        Duration::from_secs(WAIT),
        client.wait_for(State::AwaitingLogon),
    )
    .await
    .unwrap();
    // Accepted while the Logon is unanswered: queued, not yet the session's.
    for n in 0..3 {
        client.send(b"D", &order(&format!("Q{n}"))).unwrap();
    }
    drop(peer);
    drop(raw);
    tokio::time::timeout(
        Duration::from_secs(WAIT),
        client.wait_for(State::Disconnected),
    )
    .await
    .unwrap();
    assert_eq!(
        client.send(b"D", &order("LATE")),
        Err(SendError::NotConnected)
    );
    // Then the real acceptor: the initiator reconnects, logs on (Logon 2 after
    // the unanswered Logon 1: a gap the acceptor fills by asking) and sends
    // the three orders, once each.
    let acc = Engine::start_with(
        settings([acceptor("EXEC", "C12", port)]),
        &fix44::DICTIONARY,
        on(&held),
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let mut got = Vec::new();
    while got.len() < 3 {
        if let (id, Event::App { cl_ord_id, .. }) = next(&mut rx, WAIT).await {
            assert_eq!(id, a_id);
            got.push(cl_ord_id);
        }
    }
    assert_eq!(got, ["Q0", "Q1", "Q2"]);
    tokio::time::sleep(Duration::from_millis(300)).await;
    while let Ok((id, event)) = rx.try_recv() {
        assert!(!matches!(event, Event::App { .. }), "{id}: {event:?}");
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_full_outgoing_queue_is_reported_to_the_sender() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let (_, i_id) = ids("EXEC", "C3");
    let acc = start([acceptor("EXEC", "C3", 0)], &tx, false).await;
    let port = port_of(&acc);
    let mut options = EngineOptions::default();
    options.queue_capacity = 1024;
    let ini = Engine::start_with(
        settings([initiator("C3", "EXEC", port)]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let client = ini.session(&i_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    // Without yielding, the connection task takes nothing: 1024 bytes hold
    // eleven 80-byte records (a 21-byte header, MsgType, body).
    let body = order("O1");
    let record = 21 + 1 + body.len();
    let mut sent = 0;
    let err = loop {
        match client.send(b"D", &body) {
            Ok(()) => sent += 1,
            Err(e) => break e,
        }
    };
    assert_eq!((err, sent), (SendError::Full, 1024 / record));
    // Once the task has run, there is room again.
    tokio::time::sleep(Duration::from_millis(50)).await;
    client.send(b"D", &body).unwrap();
    assert_eq!(
        client.send(b"D", &vec![b'x'; 2000]),
        Err(SendError::TooLarge)
    );
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_peer_that_does_not_read_fills_the_queue_and_the_engine_stays_bounded() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let mut options = EngineOptions::default();
    options.queue_capacity = 64 << 10;
    options.output_high_water = 256 << 10;
    let acc = Engine::start_with(
        settings([acceptor("EXEC", "SLOW", 0)]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let server = acc
        .session(&SessionId::new("FIX.4.4", "EXEC", "SLOW"))
        .unwrap();
    // A raw counterparty: logs on, then never reads.
    let mut raw = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    raw.write_all(&logon("SLOW", "EXEC")).await.unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), server.wait_for(State::LoggedOn))
        .await
        .unwrap();
    let body = order("FLOOD");
    let mut sent = 0u64;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(WAIT);
    loop {
        match server.send(b"D", &body) {
            Ok(()) => sent += 1,
            Err(SendError::Full) => break,
            Err(e) => panic!("{e}"),
        }
        if sent.is_multiple_of(64) {
            tokio::task::yield_now().await;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never full: {sent} sent"
        );
    }
    // Bounded by the socket's buffers, the high-water mark and the queue: a
    // few MiB at most of 130-byte messages, not everything sent.
    assert!(sent < 200_000, "{sent}");
    assert_eq!(server.state(), State::LoggedOn);
    drop(raw);
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_backed_up_session_sends_its_queue_as_soon_as_the_peer_reads_again() {
    const N: usize = 100_000;
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = Engine::start_with(
        settings([acceptor("EXEC", "LATE", 0)]),
        &fix44::DICTIONARY,
        EngineOptions::default(),
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let server = acc
        .session(&SessionId::new("FIX.4.4", "EXEC", "LATE"))
        .unwrap();
    let mut raw = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    raw.write_all(&logon("LATE", "EXEC")).await.unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), server.wait_for(State::LoggedOn))
        .await
        .unwrap();
    // The peer reads nothing for half a second, then everything: with the
    // heartbeat at 30 s, only the queue's own progress can deliver it in time.
    let reader = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let (mut all, mut buf, mut orders) = (Vec::new(), vec![0u8; 64 << 10], 0);
        while orders < N {
            let n = raw.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed");
            // The MsgTypes that end in the new bytes.
            let from = all.len().saturating_sub(5);
            all.extend_from_slice(&buf[..n]);
            orders += all[from..]
                .windows(6)
                .filter(|w| w == b"\x0135=D\x01")
                .count();
        }
    });
    let body = order("LATE");
    let send_all = async {
        let mut full = 0;
        for _ in 0..N {
            while let Err(e) = server.send(b"D", &body) {
                assert_eq!(e, SendError::Full);
                full += 1;
                tokio::task::yield_now().await;
            }
        }
        reader.await.unwrap();
        full
    };
    let full = tokio::time::timeout(Duration::from_secs(WAIT), send_all)
        .await
        .expect("the queue stalled");
    assert!(full > 0, "the queue never filled");
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_graceful_shutdown_sends_logout_and_both_sides_see_it() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C4");
    let acc = start([acceptor("EXEC", "C4", 0)], &tx, false).await;
    let port = port_of(&acc);
    let ini = start([initiator("C4", "EXEC", port)], &tx, false).await;
    let client = ini.session(&i_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    let started = std::time::Instant::now();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
    // Answered well before LogoutTimeout (2 s) or the shutdown's 5 s.
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    let mut expected = vec![
        (i_id.clone(), Event::LogoutReceived),
        (i_id.clone(), Event::Logout),
        (a_id.clone(), Event::LogoutReceived),
        (a_id.clone(), Event::Logout),
    ];
    while !expected.is_empty() {
        let got = next(&mut rx, WAIT).await;
        expected.retain(|e| e != &got);
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn an_acceptor_template_takes_a_new_comp_id_pair_that_matches_it() {
    let dir = TestDir::new("template");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let template = acceptor("EXEC", "*", 0)
        .acceptor_template(true)
        .file_store_path(&dir);
    let acc = start([template], &tx, true).await;
    let port = port_of(&acc);
    let (a_id, i_id) = ids("EXEC", "NEWCOMER");
    assert!(acc.session(&a_id).is_none());
    let ini = start([initiator("NEWCOMER", "EXEC", port)], &tx, false).await;
    expect(&mut rx, &a_id, &Event::Logon, WAIT).await;
    expect(&mut rx, &i_id, &Event::Logon, WAIT).await;
    let made = acc.session(&a_id).expect("made from the template");
    assert_eq!(made.state(), State::LoggedOn);
    assert!(
        fix_session::store::sessions(&dir)
            .unwrap()
            .contains(&"FIX.4.4-EXEC-NEWCOMER".to_owned())
    );
    ini.session(&i_id)
        .unwrap()
        .send(b"D", &order("T1"))
        .unwrap();
    let answer = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "R-T1".into(),
        poss_dup: false,
    };
    expect(&mut rx, &i_id, &answer, WAIT).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// The UTC time of day `offset` seconds from now (wrapping at midnight).
fn time_of_day(offset: i64) -> TimeOfDay {
    let now = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64;
    let s = (now + offset).rem_euclid(86_400) as u32;
    TimeOfDay::new(s / 3600, s / 60 % 60, s % 60).unwrap()
}

#[tokio::test]
async fn sessions_run_only_inside_their_schedule() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    // Never active while the test runs: one second, twelve hours away.
    let closed = Schedule::daily(time_of_day(12 * 3600), time_of_day(12 * 3600 + 1));
    // Active now, and for four seconds more.
    let ending = Schedule::daily(time_of_day(-60), time_of_day(4));
    let acc = Engine::start(
        settings([
            acceptor("EXEC", "NEVER", 0).schedule(closed),
            acceptor("EXEC", "ENDING", 0).schedule(ending),
            acceptor("EXEC", "ALWAYS", 0),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let ini = Engine::start(
        settings([
            initiator("NEVER", "EXEC", port),
            initiator("ENDING", "EXEC", port),
            initiator("ALWAYS", "EXEC", port),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let id = |s: &str| SessionId::new("FIX.4.4", s, "EXEC");
    let mut logons = Vec::new();
    let mut ended = false;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(9);
    while let Ok(Some((who, event))) = tokio::time::timeout_at(deadline, rx.recv()).await {
        match event {
            Event::Logon => logons.push(who),
            // The acceptor ends ENDING's session at its EndTime, with a Logout.
            Event::LogoutReceived if who == id("ENDING") => ended = true,
            _ => {}
        }
    }
    assert!(ended, "ENDING's session was not ended");
    assert!(!logons.contains(&id("NEVER")), "{logons:?}");
    assert!(logons.contains(&id("ALWAYS")), "{logons:?}");
    // ENDING logged on once: after its EndTime its reconnections are refused.
    assert_eq!(
        logons.iter().filter(|&w| w == &id("ENDING")).count(),
        1,
        "{logons:?}"
    );
    assert_eq!(
        ini.session(&id("ENDING")).unwrap().state(),
        State::Disconnected
    );
    assert_eq!(ini.session(&id("ALWAYS")).unwrap().state(), State::LoggedOn);
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_store_from_an_earlier_period_starts_the_session_afresh() {
    let dir = TestDir::new("period");
    // The initiator's store was created yesterday and has sent 9 messages.
    {
        use fix_session::MessageStore;
        let log = fix_session::store::SharedLog::open(
            dir.join(fix_session::store::SHARED_LOG_DIR),
            fix_session::store::SharedLogOptions::new(),
        )
        .unwrap();
        let mut store = log
            .open_store("FIX.4.4-C5-EXEC", SystemTime::now())
            .unwrap();
        store
            .reset(SystemTime::now() - Duration::from_secs(86_400))
            .unwrap();
        store.set_next_sender_seq(10).unwrap();
        store.set_next_target_seq(10).unwrap();
    }
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C5");
    let acc = start([acceptor("EXEC", "C5", 0)], &tx, false).await;
    let port = port_of(&acc);
    // Today's period began a minute ago.
    let today = Schedule::daily(time_of_day(-60), time_of_day(3600));
    let ini = Engine::start(
        settings([initiator("C5", "EXEC", port)
            .schedule(today)
            .file_store_path(&dir)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let client = ini.session(&i_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    client.send(b"D", &order("FRESH")).unwrap();
    // Logon 1, this order 2: numbered afresh, as the acceptor (new) expects.
    let fresh = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "FRESH".into(),
        poss_dup: false,
    };
    expect(&mut rx, &a_id, &fresh, WAIT).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn sessions_validate_against_the_dictionary_files_their_settings_name() {
    let fix44_xml = concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C6");
    let with_file = acceptor("EXEC", "C6", 0).data_dictionary(fix44_xml);

    // The one-schema source refuses a session that names a file.
    let err = Engine::start(
        settings([with_file.clone()]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .ends_with("FIX44.xml: the engine was given one schema for every session: start it with FileDictionaries to read dictionary files"),
        "{err}"
    );
    // A file that is not there.
    let missing = acceptor("EXEC", "C7", 0).data_dictionary("/nonexistent/FIX44.xml");
    let err = Engine::start(
        settings([missing]),
        FileDictionaries::new(),
        recorders(&tx, false),
    )
    .await
    .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("session FIX.4.4:EXEC->C7: /nonexistent/FIX44.xml: "),
        "{err}"
    );

    let acc = Engine::start(
        settings([with_file]),
        FileDictionaries::new(),
        recorders(&tx, true),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let ini = start([initiator("C6", "EXEC", port)], &tx, false).await;
    let client = ini.session(&i_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    client.send(b"D", &order("F1")).unwrap();
    let answer = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "R-F1".into(),
        poss_dup: false,
    };
    expect(&mut rx, &i_id, &answer, WAIT).await;
    // An order without its Side fails the file's NewOrderSingle: rejected,
    // never handed to the application.
    client
        .send(
            b"D",
            b"11=BAD\x0121=1\x0155=X\x0160=20260921-14:13:20\x0140=1\x01",
        )
        .unwrap();
    client.send(b"D", &order("F2")).unwrap();
    let after = Event::App {
        msg_type: b"D".to_vec(),
        seq: 4,
        cl_ord_id: "F2".into(),
        poss_dup: false,
    };
    loop {
        match next(&mut rx, WAIT).await {
            (id, Event::App { cl_ord_id, .. }) if id == a_id && cl_ord_id == "BAD" => {
                panic!("an invalid order reached the application")
            }
            (id, e) if id == a_id && e == after => break,
            _ => {}
        }
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// CPU time this thread has used, in clock ticks (Linux).
fn thread_cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // The fields after the command name, which is in parentheses.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[tokio::test]
async fn a_resend_to_a_peer_that_stopped_reading_pauses_without_spinning_and_resumes() {
    const N: usize = 60_000;
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "SPIN", 0)], &tx, false).await;
    let port = port_of(&acc);
    let server = acc
        .session(&SessionId::new("FIX.4.4", "EXEC", "SPIN"))
        .unwrap();
    // A small receive window, so that the socket holds little of the resend.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let raw = socket.connect(([127, 0, 0, 1], port).into()).await.unwrap();
    let (mut read, mut write) = raw.into_split();
    write.write_all(&logon("SPIN", "EXEC")).await.unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), server.wait_for(State::LoggedOn))
        .await
        .unwrap();
    // N orders (about 4 MiB), all read.
    let reader = tokio::spawn(async move {
        let (mut buf, mut orders, mut tail) = (vec![0u8; 64 << 10], 0, Vec::new());
        while orders < N {
            let n = read.read(&mut buf).await.unwrap();
            assert!(n > 0, "closed");
            tail.extend_from_slice(&buf[..n]);
            orders += tail.windows(6).filter(|w| w == b"\x0135=D\x01").count();
            tail.drain(..tail.len().saturating_sub(5));
        }
        read
    });
    let body = order("SPIN");
    for _ in 0..N {
        while server.send(b"D", &body).is_err() {
            tokio::task::yield_now().await;
        }
    }
    let read = tokio::time::timeout(Duration::from_secs(30), reader)
        .await
        .unwrap()
        .unwrap();
    // Asked for all of them again, and reading nothing more: the resend fills
    // the socket, then the session waits for room.
    let now = fix_session::time::format_timestamp(SystemTime::now());
    let now = std::str::from_utf8(&now).unwrap();
    let resend = fix_test_support::naive::build(
        format!("35=2\x0134=2\x0149=SPIN\x0152={now}\x0156=EXEC\x017=1\x0116=0\x01").as_bytes(),
    );
    write.write_all(&resend).await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = thread_cpu_ticks();
    tokio::time::sleep(Duration::from_secs(1)).await;
    let used = thread_cpu_ticks() - before;
    // Clock ticks are usually 100 a second: a task spinning on the paused
    // resend would use about 100.
    assert!(used < 30, "{used} ticks in one second");
    assert_eq!(server.state(), State::LoggedOn);
    // Reading again, the peer gets every order resent.
    let mut read = read;
    let (mut buf, mut resent, mut tail) = (vec![0u8; 64 << 10], 0, Vec::new());
    while resent < N {
        let n = tokio::time::timeout(Duration::from_secs(WAIT), read.read(&mut buf))
            .await
            .expect("the resend stalled")
            .unwrap();
        assert!(n > 0, "closed");
        tail.extend_from_slice(&buf[..n]);
        resent += tail.windows(5).filter(|w| w == b"\x0143=Y").count();
        tail.drain(..tail.len().saturating_sub(4));
    }
    drop((read, write));
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// Sends a greeting through its handle from `on_logon`.
struct Greeter {
    handle: fix_engine::SessionHandle,
}

impl fix_session::Application for Greeter {
    fn on_logon(&mut self, _id: &SessionId) {
        self.handle.send(b"D", &order("HELLO")).unwrap();
    }
}

#[tokio::test]
async fn a_handle_sends_from_inside_a_callback_and_waits_for_the_logon() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (_, i_id) = ids("EXEC", "C8");
    let acc = Engine::start(
        settings([acceptor("EXEC", "C8", 0)]),
        &fix44::DICTIONARY,
        |_: &SessionId, handle| Greeter { handle },
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let ini = start([initiator("C8", "EXEC", port)], &tx, false).await;
    let hello = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "HELLO".into(),
        poss_dup: false,
    };
    expect(&mut rx, &i_id, &hello, WAIT).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// Counts the orders it receives.
struct Count(Arc<std::sync::atomic::AtomicUsize>);

impl fix_session::Application for Count {
    fn from_app(
        &mut self,
        _msg: &fix_core::Message<'_>,
        _out: &mut fix_session::Outbox,
    ) -> Result<(), fix_session::AppReject> {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }
}

#[test]
fn two_backed_up_engines_keep_reading_each_other() {
    // The initiator floods; the acceptor answers every order. Both outputs
    // pass their marks: each must go on reading, or both wait for ever once
    // both sockets are full (an optimised build fills them within a second;
    // this debug build's slower engines may not). The engines run on threads
    // of their own, as two processes would.
    const N: usize = 150_000;
    let mut options = EngineOptions::default();
    options.queue_capacity = 16 << 10;
    // Backed up whenever anything is left unwritten.
    options.output_high_water = 1;
    let runtime = || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    };
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    // The acceptor's thread says the port its engine bound.
    let (port_tx, port_rx) = std::sync::mpsc::channel();
    let acceptor_options = options.clone();
    let acceptor_thread = std::thread::spawn(move || {
        runtime().block_on(async move {
            let (tx, _rx) = mpsc::unbounded_channel();
            let acc = Engine::start_with(
                settings([acceptor("EXEC", "C9", 0)]),
                &fix44::DICTIONARY,
                acceptor_options,
                recorders(&tx, true),
            )
            .await
            .unwrap();
            port_tx.send(port_of(&acc)).unwrap();
            let _ = stop_rx.await;
            acc.shutdown(Duration::from_secs(5)).await.unwrap();
        })
    });
    let port = port_rx.recv().unwrap();
    runtime().block_on(async move {
        let answers = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let counted = answers.clone();
        let ini = Engine::start_with(
            settings([initiator("C9", "EXEC", port)]),
            &fix44::DICTIONARY,
            options,
            move |_: &SessionId, _| Count(counted.clone()),
        )
        .await
        .unwrap();
        let client = ini
            .session(&SessionId::new("FIX.4.4", "C9", "EXEC"))
            .unwrap();
        tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
            .await
            .unwrap();
        let body = order("FLOOD");
        let exchange = async {
            for _ in 0..N {
                while let Err(e) = client.send(b"D", &body) {
                    assert_eq!(e, SendError::Full);
                    tokio::task::yield_now().await;
                }
            }
            while answers.load(std::sync::atomic::Ordering::Relaxed) < N {
                tokio::time::sleep(Duration::from_millis(10)).await;
            }
        };
        tokio::time::timeout(Duration::from_secs(30), exchange)
            .await
            .expect("the engines stopped reading each other");
        assert_eq!(client.state(), State::LoggedOn);
        ini.shutdown(Duration::from_secs(5)).await.unwrap();
    });
    stop_tx.send(()).unwrap();
    acceptor_thread.join().unwrap();
}

#[tokio::test]
async fn a_dropped_engine_stops_listening() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "C10", 0)], &tx, false).await;
    let port = port_of(&acc);
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_ok()
    );
    drop(acc);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        tokio::net::TcpStream::connect(("127.0.0.1", port))
            .await
            .is_err()
    );
}

/// ValidateFieldsHaveValues=Y (the default): a field without a value is the
/// validator's Reject, reason 4, of a parsed message, so it is reverse-routed
/// as QuickFIX's is (the parser lets the empty value through to it).
#[tokio::test]
async fn an_empty_value_is_rejected_with_reason_4_and_the_reject_reverse_routed() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "E1", 0)], &tx, false).await;
    let mut raw = tokio::net::TcpStream::connect(acc.local_addrs()[0])
        .await
        .unwrap();
    raw.write_all(&logon("E1", "EXEC")).await.unwrap();
    let now = fix_session::time::format_timestamp(SystemTime::now());
    let now = std::str::from_utf8(&now).unwrap();
    let order = format!(
        "35=D\x0134=2\x0149=E1\x0152={now}\x0156=EXEC\x01128=DESK\x01129=\x01{}",
        String::from_utf8(order("O1")).unwrap()
    );
    raw.write_all(&fix_test_support::naive::build(order.as_bytes()))
        .await
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    let reject = loop {
        let n = tokio::time::timeout(Duration::from_secs(WAIT), raw.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        assert_ne!(n, 0, "closed: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
        let text = String::from_utf8_lossy(&got).into_owned();
        if let Some(at) = text.find("\x0135=3\x01")
            && let Some(end) = text[at..].find("\x0110=")
        {
            break text[at..=at + end].to_owned();
        }
    };
    for field in [
        "\x01115=DESK\x01",
        "\x01371=129\x01",
        "\x01373=4\x01",
        "\x0145=2\x01",
    ] {
        assert!(reject.contains(field), "{field:?} not in {reject:?}");
    }
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// SocketAcceptPort=0: the system picks a free port, which the engine tells,
/// and two sessions on port 0 share that one listener.
#[tokio::test]
async fn an_acceptor_on_port_0_listens_where_local_addrs_says() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "Z1", 0), acceptor("EXEC", "Z2", 0)],
        &tx,
        false,
    )
    .await;
    let [addr] = acc.local_addrs() else {
        panic!("{:?}", acc.local_addrs());
    };
    assert_ne!(addr.port(), 0);
    let mut initiators = Vec::new();
    for target in ["Z1", "Z2"] {
        let ini = start([initiator(target, "EXEC", addr.port())], &tx, false).await;
        let (a_id, _) = ids("EXEC", target);
        expect(&mut rx, &a_id, &Event::Logon, WAIT).await;
        initiators.push(ini);
    }
    for ini in initiators {
        ini.shutdown(Duration::from_secs(5)).await.unwrap();
    }
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// On the paused clock: the heartbeats come in virtual time, not slept.
#[tokio::test(start_paused = true)]
async fn idle_sessions_keep_each_other_alive_with_heartbeats() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C11");
    let acc = start([acceptor("EXEC", "C11", 0)], &tx, false).await;
    let port = port_of(&acc);
    let ini = start([initiator("C11", "EXEC", port).heart_bt_int(1)], &tx, false).await;
    // HeartBtInt=1: each side sends a Heartbeat after a second without sending.
    let mut heard = (0, 0);
    let deadline = tokio::time::Instant::now() + Duration::from_millis(3500);
    while let Ok(Some((who, event))) = tokio::time::timeout_at(deadline, rx.recv()).await {
        match event {
            Event::Heartbeat if who == a_id => heard.0 += 1,
            Event::Heartbeat if who == i_id => heard.1 += 1,
            Event::Logout => panic!("{who} logged out"),
            _ => {}
        }
    }
    assert!(heard.0 >= 2 && heard.1 >= 2, "{heard:?}");
    assert_eq!(ini.session(&i_id).unwrap().state(), State::LoggedOn);
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// A session with FileLogPath logs every message both ways, whole and in
/// order, in QuickFIX's files: the two sides' logs hold the same messages in
/// the same order (each sent by one is received by the other), and their
/// events are QuickFIX's.
#[tokio::test]
async fn sessions_log_every_message_both_ways_and_their_events() {
    let (acc_dir, ini_dir) = (TestDir::new("log-acceptor"), TestDir::new("log-initiator"));
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (_, i_id) = ids("EXEC", "C7");
    let acc = start(
        [acceptor("EXEC", "C7", 0).file_log_path(&acc_dir)],
        &tx,
        true,
    )
    .await;
    let port = port_of(&acc);
    let ini = start(
        [initiator("C7", "EXEC", port).file_log_path(&ini_dir)],
        &tx,
        false,
    )
    .await;
    let client = ini.session(&i_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    // One order at a time: each answer is in before the next order leaves.
    for n in 1..=3u64 {
        client.send(b"D", &order(&format!("O{n}"))).unwrap();
        let answer = Event::App {
            msg_type: b"D".to_vec(),
            seq: n + 1,
            cl_ord_id: format!("R-O{n}"),
            poss_dup: false,
        };
        expect(&mut rx, &i_id, &answer, WAIT).await;
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();

    let ini_log = log_messages(&ini_dir.join("FIX.4.4-C7-EXEC.messages.current.log"));
    let acc_log = log_messages(&acc_dir.join("FIX.4.4-EXEC-C7.messages.current.log"));
    let summary: Vec<(String, String, u64)> = ini_log
        .iter()
        .map(|m| {
            let parser = fix_core::Parser::new();
            let frame = parser.frame(m).unwrap().complete().unwrap();
            assert_eq!(frame.len(), m.len(), "one whole message a line");
            let mut fields = vec![fix_core::Field::new(0, 0, 0); 64];
            let msg = parser.index(frame, &mut fields).unwrap();
            let text = |tag| String::from_utf8(msg.get(tag).unwrap().to_vec()).unwrap();
            (text(49), text(35), text(34).parse().unwrap())
        })
        .collect();
    let expected: Vec<(String, String, u64)> = [
        ("C7", "A", 1),
        ("EXEC", "A", 1),
        ("C7", "D", 2),
        ("EXEC", "D", 2),
        ("C7", "D", 3),
        ("EXEC", "D", 3),
        ("C7", "D", 4),
        ("EXEC", "D", 4),
        ("C7", "5", 5),
        ("EXEC", "5", 5),
    ]
    .iter()
    .map(|&(s, t, n)| (s.to_owned(), t.to_owned(), n))
    .collect();
    assert_eq!(summary, expected);
    assert_eq!(acc_log, ini_log, "the same bytes, in the same order");

    let ini_events = log_events(&ini_dir.join("FIX.4.4-C7-EXEC.event.current.log"));
    assert_eq!(
        ini_events,
        [
            "Created session".to_owned(),
            format!("Connected to 127.0.0.1:{port}"),
            "Initiated logon request".to_owned(),
            "Received logon response".to_owned(),
            "Initiated logout request".to_owned(),
            "Received logout response".to_owned(),
            "Disconnecting".to_owned(),
        ]
    );
    let acc_events = log_events(&acc_dir.join("FIX.4.4-EXEC-C7.event.current.log"));
    assert_eq!(acc_events.len(), 7, "{acc_events:?}");
    assert_eq!(acc_events[0], "Created session");
    assert!(acc_events[1].starts_with("Accepted connection from 127.0.0.1:"));
    assert_eq!(
        acc_events[2..],
        [
            "Received logon request",
            "Responding to logon request",
            "Received logout request",
            "Sending logout response",
            "Disconnecting",
        ]
    );
}

/// A log that cannot be opened stops the engine at start, naming the session.
#[tokio::test]
async fn a_log_that_cannot_be_opened_is_an_error_at_start() {
    let dir = TestDir::new("log-not-a-dir");
    let file = dir.join("a-file");
    std::fs::write(&file, b"").unwrap();
    let (tx, _rx) = mpsc::unbounded_channel();
    let logged = acceptor("EXEC", "C1", 0).file_log_path(&file);
    let Err(err) =
        Engine::start(settings([logged]), &fix44::DICTIONARY, recorders(&tx, true)).await
    else {
        panic!("a log path that is a file is refused");
    };
    assert!(
        matches!(err.kind(), fix_engine::EngineErrorKind::Log { .. }),
        "{err}"
    );
    assert!(
        err.to_string()
            .starts_with("session FIX.4.4:EXEC->C1: log: cannot create directory"),
        "{err}"
    );
}

/// After a dropped connection the initiator waits ReconnectInterval before it
/// connects again, every time; after refused connections it keeps trying
/// until the counterparty listens. On the paused clock: the pauses pass in
/// virtual time, and each is measured on it.
#[tokio::test(start_paused = true)]
async fn the_initiator_waits_reconnect_interval_between_attempts() {
    const INTERVAL: Duration = Duration::from_millis(300);
    // Nothing listens yet: the first attempts are refused (the port is
    // bound, so no other socket takes it before the test listens).
    let (socket, port) = refusing_port();
    let (tx, _rx) = mpsc::unbounded_channel();
    let log = TestDir::new("reconnect-log");
    let ini = Engine::start(
        settings([initiator("C8", "EXEC", port)
            .reconnect_interval(INTERVAL)
            .file_log_path(&log)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    tokio::time::sleep(INTERVAL * 2).await;
    // A counterparty that takes each connection and drops it at once.
    let listener = socket.listen(1024).unwrap();
    let mut accepted = Vec::new();
    for _ in 0..4 {
        let (stream, _) = tokio::time::timeout(Duration::from_secs(WAIT), listener.accept())
            .await
            .expect("the initiator connects again")
            .unwrap();
        accepted.push(tokio::time::Instant::now());
        drop(stream);
    }
    for pair in accepted.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap >= INTERVAL, "reconnected after {gap:?}");
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    // Each refusal is in the session's event log, and each drop.
    let events = log_events(&log.join("FIX.4.4-C8-EXEC.event.current.log"));
    let refused = format!("Connection to 127.0.0.1:{port} failed: ");
    assert!(events.iter().any(|e| e.starts_with(&refused)), "{events:?}");
    // Closed, or reset when the Logon was in before the close: either way
    // a drop.
    let dropped = events
        .iter()
        .filter(|e| e.starts_with("Disconnecting: "))
        .count();
    assert!(dropped >= 3, "{events:?}");
}

/// A Recorder that panics, once, on an order `BOOM`: an application's bug.
struct PanicsOnce {
    recorder: Recorder,
    armed: Arc<std::sync::atomic::AtomicBool>,
}

impl fix_session::Application for PanicsOnce {
    fn on_logon(&mut self, id: &SessionId) {
        self.recorder.on_logon(id);
    }
    fn from_app(
        &mut self,
        msg: &fix_core::Message<'_>,
        out: &mut fix_session::Outbox,
    ) -> Result<(), fix_session::AppReject> {
        if msg.get(11) == Some(b"BOOM")
            && self.armed.swap(false, std::sync::atomic::Ordering::SeqCst)
        {
            panic!("the application's own bug");
        }
        self.recorder.from_app(msg, out)
    }
}

#[tokio::test]
async fn an_application_that_panics_ends_the_connection_and_gets_the_message_again() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C10");
    let armed = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let make = recorders(&tx, true);
    let acc = Engine::start(
        settings([acceptor("EXEC", "C10", 0)]),
        &fix44::DICTIONARY,
        move |id: &SessionId, handle| PanicsOnce {
            recorder: make(id, handle),
            armed: armed.clone(),
        },
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let ini = start([initiator("C10", "EXEC", port)], &tx, false).await;
    let client = ini.session(&i_id).unwrap();
    expect(&mut rx, &a_id, &Event::Logon, WAIT).await;
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();

    client.send(b"D", &order("BOOM")).unwrap();
    // The connection ended with the panic; the session did not: the next
    // Logon is its, and the order it never took comes again, resent.
    expect(&mut rx, &i_id, &Event::Logout, WAIT).await;
    expect(&mut rx, &a_id, &Event::Logon, WAIT).await;
    let resent = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "BOOM".into(),
        poss_dup: true,
    };
    expect(&mut rx, &a_id, &resent, WAIT).await;
    // The acceptor's Logon 1, its Logon 2 and ResendRequest 3, the answer 4.
    let answer = Event::App {
        msg_type: b"D".to_vec(),
        seq: 4,
        cl_ord_id: "R-BOOM".into(),
        poss_dup: false,
    };
    expect(&mut rx, &i_id, &answer, WAIT).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_refused_logon_sends_the_next_attempt_to_the_backup_host() {
    // The primary takes the connection and refuses the Logon (a Logout, then
    // it closes), as a venue's gateway that is up but not serving does.
    let primary = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let primary_port = primary.local_addr().unwrap().port();
    let refused = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let count = refused.clone();
    tokio::spawn(async move {
        while let Ok((mut tcp, _)) = primary.accept().await {
            let mut buf = [0u8; 4096];
            let _ = tcp.read(&mut buf).await;
            let now = fix_session::time::format_timestamp(SystemTime::now());
            let now = std::str::from_utf8(&now).unwrap();
            let logout = fix_test_support::naive::build(
                format!("35=5\x0134=1\x0149=EXEC\x0152={now}\x0156=C9\x0158=not serving\x01")
                    .as_bytes(),
            );
            let _ = tcp.write_all(&logout).await;
            count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (a_id, i_id) = ids("EXEC", "C9");
    let acc = start([acceptor("EXEC", "C9", 0)], &tx, false).await;
    let backup_port = port_of(&acc);
    let ini = start(
        [initiator("C9", "EXEC", primary_port).socket_connect("127.0.0.1", backup_port)],
        &tx,
        false,
    )
    .await;
    expect(&mut rx, &a_id, &Event::Logon, WAIT).await;
    expect(&mut rx, &i_id, &Event::Logon, WAIT).await;
    assert_eq!(
        refused.load(std::sync::atomic::Ordering::SeqCst),
        1,
        "one refusal, then the backup"
    );
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// A counterparty that logs on (HeartBtInt=30) and then says nothing: the
/// engine sends a Heartbeat after 30 s of its own silence, a TestRequest
/// after 36 s of the counterparty's, and at 72 s a Logout
/// (SendLogoutBeforeDisconnectFromTimeout=Y) before it closes the
/// connection. On the paused clock: QuickFIX's intervals in virtual time,
/// each message's time measured on it.
#[tokio::test(start_paused = true)]
async fn a_silent_counterparty_is_tested_then_logged_out_on_the_engine_s_timers() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C12", 0).set("SendLogoutBeforeDisconnectFromTimeout", "Y")],
        &tx,
        false,
    )
    .await;
    let mut raw = tokio::net::TcpStream::connect(("127.0.0.1", port_of(&acc)))
        .await
        .unwrap();
    raw.write_all(&logon("C12", "EXEC")).await.unwrap();
    let began = tokio::time::Instant::now();
    let (mut got, mut buf) = (Vec::new(), Vec::new());
    loop {
        let mut chunk = [0u8; 1024];
        let n = tokio::time::timeout(Duration::from_secs(300), raw.read(&mut chunk))
            .await
            .expect("the engine closes the connection")
            .unwrap();
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
        let at = began.elapsed().as_secs();
        while let Some(end) = frame_len(&buf) {
            let msg: Vec<u8> = buf.drain(..end).collect();
            got.push((field(&msg, 35), field(&msg, 58), at));
        }
    }
    let closed = began.elapsed().as_secs();
    let kinds: Vec<&str> = got.iter().map(|(t, _, _)| t.as_str()).collect();
    assert_eq!(kinds, ["A", "0", "1", "5"], "{got:?}");
    assert_eq!(got[1].2, 30, "the Heartbeat after 30 s");
    assert_eq!(got[2].2, 36, "the TestRequest after 1.2 intervals");
    assert_eq!(
        got[3],
        ("5".into(), "Timed out waiting for heartbeat".into(), 72)
    );
    assert_eq!(closed, 72);
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// The length of the whole message `buf` starts with, once its CheckSum
/// (`<SOH>10=nnn<SOH>`) is in.
fn frame_len(buf: &[u8]) -> Option<usize> {
    buf.windows(4)
        .position(|w| w == b"\x0110=")
        .map(|at| at + 8)
        .filter(|&end| end <= buf.len())
}

/// The value of `tag` in a raw message, empty when absent.
fn field(msg: &[u8], tag: u32) -> String {
    let key = format!("\x01{tag}=");
    let text = String::from_utf8_lossy(msg);
    text.find(&key)
        .map(|at| {
            let rest = &text[at + key.len()..];
            rest[..rest.find('\x01').unwrap_or(rest.len())].to_owned()
        })
        .unwrap_or_default()
}
