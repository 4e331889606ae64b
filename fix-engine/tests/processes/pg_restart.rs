//! The PostgreSQL server restarted under load (issue 28): an acceptor engine
//! whose store is PostgreSQL answers a burst of orders while the server is
//! restarted with `pg_ctl restart -m immediate` (a crash: what was not
//! committed is gone). No order the acceptor acknowledged may be lost: the
//! connection ends with the batch the crash failed, the session takes its
//! lease again once the server is back, and the initiator's resend brings
//! what was not acknowledged; every order is answered exactly once.
//!
//! The server is started per test (initdb into a temporary
//! directory); without PostgreSQL installed the test skips with one line,
//! under `CI=true` it fails.
#![cfg(feature = "postgres")]

use std::collections::{BTreeSet, HashMap};
use std::time::{Duration, Instant};

use crate::common::{Event, acceptor, initiator, next, order, port_of, start};
use fix_engine::SendError;
use fix_session::{SessionId, State};
use fix_test_support::pg::PgServer;
use tokio::sync::mpsc;

const ORDERS: usize = 400;

#[tokio::test]
async fn orders_survive_an_immediate_restart_of_the_database() {
    let Some(pg) = PgServer::start_or_skip("pg-restart") else {
        return;
    };
    let pg = std::sync::Arc::new(pg);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C1", 0)
            .postgres_store(pg.connection_string())
            .postgres_store_lease(Duration::from_secs(2))
            .postgres_store_node("acceptor")],
        &tx,
        true,
    )
    .await;
    let port = port_of(&acc);
    let ini = start(
        [initiator("C1", "EXEC", port)
            .heart_bt_int(1)
            .reconnect_interval(Duration::from_millis(300))],
        &tx,
        false,
    )
    .await;
    let id = SessionId::new("FIX.4.4", "C1", "EXEC");
    let handle = ini.session(&id).unwrap();
    tokio::time::timeout(Duration::from_secs(20), handle.wait_for(State::LoggedOn))
        .await
        .expect("logged on");

    // The burst, a few orders a millisecond, and the restart in the middle
    // of it, from another thread while the engines go on.
    // Each order's answers, by the acceptor's MsgSeqNum: one answer is one
    // number, whether it came at once or by a resend (PossDupFlag=Y, when
    // the connection ended while it was on its way).
    let mut answers: HashMap<String, BTreeSet<u64>> = HashMap::new();
    let mut logons = 0;
    let mut resent = 0;
    let mut restart = None;
    let started = Instant::now();
    for i in 0..ORDERS {
        // While the connection is down (the acceptor ended it with the
        // batch the crash failed) the order waits for the next Logon.
        while let Err(e) = handle.send(b"D", &order(&format!("O{i}"))) {
            assert!(matches!(e, SendError::NotConnected), "{e:?}");
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "never reconnected"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        if i == ORDERS / 4 {
            let pg = pg.clone();
            restart = Some(std::thread::spawn(move || pg.restart_immediate()));
        }
        tokio::time::sleep(Duration::from_millis(2)).await;
        while let Ok((got, event)) = rx.try_recv() {
            match event {
                Event::Logon if got == id => logons += 1,
                Event::App {
                    cl_ord_id,
                    seq,
                    poss_dup,
                    ..
                } if got == id => {
                    if let Some(order) = cl_ord_id.strip_prefix("R-") {
                        answers.entry(order.to_owned()).or_default().insert(seq);
                        resent += usize::from(poss_dup);
                    }
                }
                _ => {}
            }
        }
    }
    restart.unwrap().join().unwrap().unwrap();
    while answers.len() < ORDERS {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{} of {ORDERS} orders answered",
            answers.len()
        );
        match next(&mut rx, 60).await {
            (got, Event::Logon) if got == id => logons += 1,
            (
                got,
                Event::App {
                    cl_ord_id,
                    seq,
                    poss_dup,
                    ..
                },
            ) if got == id => {
                if let Some(order) = cl_ord_id.strip_prefix("R-") {
                    answers.entry(order.to_owned()).or_default().insert(seq);
                    resent += usize::from(poss_dup);
                }
            }
            _ => {}
        }
    }
    for i in 0..ORDERS {
        assert_eq!(
            answers.get(&format!("O{i}")).map(BTreeSet::len),
            Some(1),
            "O{i} answered once: {:?}",
            answers.get(&format!("O{i}"))
        );
    }
    println!(
        "database restarted mid-burst: {ORDERS} orders answered once each ({resent} answers came by a resend) in {:.1} s, {logons} Logons after the first",
        started.elapsed().as_secs_f64()
    );
    ini.shutdown(Duration::from_secs(2)).await.unwrap();
    acc.shutdown(Duration::from_secs(2)).await.unwrap();
}

/// `send_now` on a session whose store is PostgreSQL leaves the commit to
/// the connection task (issue 38): with the server frozen (SIGSTOP), the
/// call returns at once, and the order stays unsent, as it is not durable;
/// once the server is thawed, its batch commits, it leaves and is answered
/// once. Before, the caller's thread waited for the commit while holding
/// the session, so a paced sender fell behind by a commit an order.
#[tokio::test]
async fn send_now_does_not_wait_for_the_database() {
    let Some(pg) = PgServer::start_or_skip("pg-send-now") else {
        return;
    };
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "C1", 0)], &tx, true).await;
    let port = port_of(&acc);
    let ini = start(
        [initiator("C1", "EXEC", port)
            .postgres_store(pg.connection_string())
            .postgres_store_lease(Duration::from_secs(30))
            .postgres_store_node("initiator")],
        &tx,
        false,
    )
    .await;
    let id = SessionId::new("FIX.4.4", "C1", "EXEC");
    let acceptor_id = SessionId::new("FIX.4.4", "EXEC", "C1");
    let handle = ini.session(&id).unwrap();
    tokio::time::timeout(Duration::from_secs(20), handle.wait_for(State::LoggedOn))
        .await
        .expect("logged on");
    // One order through first: the Logon's batches are committed and the
    // session is idle when the server stops.
    handle.send_now(b"D", &order("FIRST")).unwrap();
    loop {
        if let (got, Event::App { cl_ord_id, .. }) = next(&mut rx, 20).await
            && got == id
            && cl_ord_id == "R-FIRST"
        {
            break;
        }
    }

    pg.freeze().unwrap();
    let sender = handle.clone();
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        let _ = done_tx.send(sender.send_now(b"D", &order("FROZEN")));
    });
    let returned =
        tokio::task::spawn_blocking(move || done_rx.recv_timeout(Duration::from_secs(3)))
            .await
            .unwrap();
    // While the commit cannot end, nothing of the order may reach the peer.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut early = Vec::new();
    while let Ok((got, event)) = rx.try_recv() {
        if let Event::App { cl_ord_id, .. } = event {
            early.push((got, cl_ord_id));
        }
    }
    // Thawed before any assertion, so that a failure does not leave the
    // server stopped (its drop would wait for it).
    pg.thaw().unwrap();
    let returned = returned.expect("send_now returned while the database was frozen");
    returned.expect("send_now took the order");
    assert!(early.is_empty(), "sent before its commit: {early:?}");
    thread.join().unwrap();

    let mut seen = 0;
    loop {
        match next(&mut rx, 20).await {
            (got, Event::App { cl_ord_id, .. }) if got == acceptor_id && cl_ord_id == "FROZEN" => {
                seen += 1
            }
            (got, Event::App { cl_ord_id, .. }) if got == id && cl_ord_id == "R-FROZEN" => break,
            _ => {}
        }
    }
    assert_eq!(seen, 1, "the order reached the acceptor once");
    ini.shutdown(Duration::from_secs(2)).await.unwrap();
    acc.shutdown(Duration::from_secs(2)).await.unwrap();
}
