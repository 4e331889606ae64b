//! Sends the caller can trust: `SessionHandle::send_tracked` resolves to the
//! MsgSeqNum a message went with once it is durable (with the file store's
//! group commit, after the sync that covers it), or to why it never will be;
//! `Engine::shutdown` counts what it dropped.

use std::time::Duration;

use crate::common::*;
use fix_engine::{Engine, NotSent};
use fix_session::{SessionId, State};
use fix_test_support::temp_dir::TestDir;
use tokio::sync::mpsc;

const WAIT: u64 = 10;

#[tokio::test]
async fn a_tracked_send_resolves_to_the_number_it_went_with_once_durable() {
    let dir = TestDir::new("tracked");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "T1", 0)], &tx, false).await;
    let port = port_of(&acc);
    // The initiator's file store, FileStoreSync=Y (the default): group commit.
    let ini = start(
        [initiator("T1", "EXEC", port).file_store_path(&dir)],
        &tx,
        false,
    )
    .await;
    let (a_id, i_id) = (
        SessionId::new("FIX.4.4", "EXEC", "T1"),
        SessionId::new("FIX.4.4", "T1", "EXEC"),
    );
    let handle = ini.session(&i_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), handle.wait_for(State::LoggedOn))
        .await
        .unwrap();
    let mut seqs = Vec::new();
    for n in 0..20 {
        let sent = handle.send_tracked(b"D", &order(&format!("T{n}"))).unwrap();
        seqs.push(
            tokio::time::timeout(Duration::from_secs(WAIT), sent)
                .await
                .unwrap()
                .unwrap(),
        );
    }
    // Logon 1, then the orders 2..=21, each told its own number.
    assert_eq!(seqs, (2..=21).collect::<Vec<u64>>());
    // The acceptor got each under the number its sender was told.
    for (n, seq) in seqs.iter().enumerate() {
        let got = Event::App {
            msg_type: b"D".to_vec(),
            seq: *seq,
            cl_ord_id: format!("T{n}"),
            poss_dup: false,
        };
        expect(&mut rx, &a_id, &got, WAIT).await;
    }
    // And each was in the store under that number when it was told.
    let log = fix_session::store::StoreLog::open(&dir, "FIX.4.4-T1-EXEC").unwrap();
    assert!(log.next_sender_seq() >= 22);
    let stopped = ini.shutdown(Duration::from_secs(5)).await.unwrap();
    assert_eq!(stopped.dropped, 0);
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn messages_still_queued_at_shutdown_are_counted_and_their_senders_told() {
    // A counterparty that takes the connection and never answers the Logon:
    // the session waits for it, with the messages queued behind it.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let holder = tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((tcp, _)) = silent.accept().await {
            held.push(tcp);
        }
    });
    let (tx, _rx) = mpsc::unbounded_channel();
    let ini = Engine::start(
        settings([initiator("T2", "EXEC", port)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let handle = ini
        .session(&SessionId::new("FIX.4.4", "T2", "EXEC"))
        .unwrap();
    tokio::time::timeout(
        Duration::from_secs(WAIT),
        handle.wait_for(State::AwaitingLogon),
    )
    .await
    .unwrap();
    let tracked: Vec<_> = (0..3)
        .map(|n| handle.send_tracked(b"D", &order(&format!("Q{n}"))).unwrap())
        .collect();
    handle.send(b"D", &order("UNTRACKED")).unwrap();
    let stopped = ini.shutdown(Duration::from_secs(2)).await.unwrap();
    assert_eq!(stopped.dropped, 4);
    for sent in tracked {
        assert_eq!(sent.await, Err(NotSent::EngineStopped));
    }
    holder.abort();
}

/// A proxy to `target` that holds what the client sends for `delay` before
/// passing it on: a Logon answered late.
async fn slow_proxy(target: u16, delay: Duration) -> u16 {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            tokio::spawn(async move {
                tokio::time::sleep(delay).await;
                if let Ok(mut outbound) =
                    tokio::net::TcpStream::connect(("127.0.0.1", target)).await
                {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    port
}

#[tokio::test]
async fn a_message_queued_longer_than_the_age_limit_is_dropped_and_its_sender_told() {
    let dir = TestDir::new("tracked-age");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "T3", 0)], &tx, false).await;
    let port = port_of(&acc);
    // The Logon is answered after 600 ms; messages may wait 200 ms.
    let proxy = slow_proxy(port, Duration::from_millis(600)).await;
    let mut options = fix_engine::EngineOptions::default();
    options.max_queued_age = Some(Duration::from_millis(200));
    let ini = Engine::start_with(
        settings([initiator("T3", "EXEC", proxy).file_log_path(&dir)]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let handle = ini
        .session(&SessionId::new("FIX.4.4", "T3", "EXEC"))
        .unwrap();
    tokio::time::timeout(
        Duration::from_secs(WAIT),
        handle.wait_for(State::AwaitingLogon),
    )
    .await
    .unwrap();
    let stale = handle.send_tracked(b"D", &order("STALE")).unwrap();
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(WAIT), stale)
            .await
            .unwrap(),
        Err(NotSent::TooOld)
    );
    // Once logged on, a fresh one goes.
    tokio::time::timeout(Duration::from_secs(WAIT), handle.wait_for(State::LoggedOn))
        .await
        .unwrap();
    let fresh = handle.send_tracked(b"D", &order("FRESH")).unwrap();
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(WAIT), fresh)
            .await
            .unwrap(),
        Ok(2)
    );
    let a_id = SessionId::new("FIX.4.4", "EXEC", "T3");
    let fresh = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "FRESH".into(),
        poss_dup: false,
    };
    expect(&mut rx, &a_id, &fresh, WAIT).await;
    let events = log_events(&dir.join("FIX.4.4-T3-EXEC.event.current.log"));
    assert!(
        events
            .iter()
            .any(|e| e.contains("Dropped 1 queued messages unsent")),
        "{events:?}"
    );
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn with_queued_while_down_drop_a_lost_connection_drops_what_is_queued() {
    // A counterparty that takes the connection, never answers, then closes it.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let (close_tx, close_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        if let Ok((tcp, _)) = silent.accept().await {
            let _ = close_rx.await;
            drop(tcp);
        }
    });
    let (tx, _rx) = mpsc::unbounded_channel();
    let mut options = fix_engine::EngineOptions::default();
    options.queued_while_down = fix_engine::QueuedWhileDown::Drop;
    let ini = Engine::start_with(
        settings([initiator("T4", "EXEC", port)]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let handle = ini
        .session(&SessionId::new("FIX.4.4", "T4", "EXEC"))
        .unwrap();
    tokio::time::timeout(
        Duration::from_secs(WAIT),
        handle.wait_for(State::AwaitingLogon),
    )
    .await
    .unwrap();
    let queued = handle.send_tracked(b"D", &order("LOST")).unwrap();
    close_tx.send(()).unwrap();
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(WAIT), queued)
            .await
            .unwrap(),
        Err(NotSent::Disconnected)
    );
    let stopped = ini.shutdown(Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        stopped.dropped, 0,
        "dropped when the connection ended already"
    );
}

#[tokio::test]
async fn a_sessions_queued_while_down_drop_wins_over_the_engines_wait() {
    // As above, but the engine keeps what is queued (the default) and the
    // session's own QueuedWhileDown=DROP says otherwise.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let (close_tx, close_rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(async move {
        if let Ok((tcp, _)) = silent.accept().await {
            let _ = close_rx.await;
            drop(tcp);
        }
    });
    let (tx, _rx) = mpsc::unbounded_channel();
    let options = fix_engine::EngineOptions::default();
    assert_eq!(options.queued_while_down, fix_engine::QueuedWhileDown::Wait);
    let ini = Engine::start_with(
        settings([
            initiator("T5", "EXEC", port).queued_while_down(fix_engine::QueuedWhileDown::Drop)
        ]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let handle = ini
        .session(&SessionId::new("FIX.4.4", "T5", "EXEC"))
        .unwrap();
    tokio::time::timeout(
        Duration::from_secs(WAIT),
        handle.wait_for(State::AwaitingLogon),
    )
    .await
    .unwrap();
    let queued = handle.send_tracked(b"D", &order("LOST")).unwrap();
    close_tx.send(()).unwrap();
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(WAIT), queued)
            .await
            .unwrap(),
        Err(NotSent::Disconnected)
    );
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_sessions_queued_message_max_age_0_lifts_the_engines_limit() {
    // The Logon is answered after 600 ms; the engine lets messages wait
    // 200 ms, but the session has no limit: what it queued goes.
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "T6", 0)], &tx, false).await;
    let port = port_of(&acc);
    let proxy = slow_proxy(port, Duration::from_millis(600)).await;
    let mut options = fix_engine::EngineOptions::default();
    options.max_queued_age = Some(Duration::from_millis(200));
    let ini = Engine::start_with(
        settings([initiator("T6", "EXEC", proxy).queued_message_max_age(Duration::ZERO)]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let handle = ini
        .session(&SessionId::new("FIX.4.4", "T6", "EXEC"))
        .unwrap();
    tokio::time::timeout(
        Duration::from_secs(WAIT),
        handle.wait_for(State::AwaitingLogon),
    )
    .await
    .unwrap();
    let old = handle.send_tracked(b"D", &order("OLD")).unwrap();
    assert_eq!(
        tokio::time::timeout(Duration::from_secs(WAIT), old)
            .await
            .unwrap(),
        Ok(2)
    );
    let old = Event::App {
        msg_type: b"D".to_vec(),
        seq: 2,
        cl_ord_id: "OLD".into(),
        poss_dup: false,
    };
    expect(
        &mut rx,
        &SessionId::new("FIX.4.4", "EXEC", "T6"),
        &old,
        WAIT,
    )
    .await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}
