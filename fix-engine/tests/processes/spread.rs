//! Sessions spread over several engines sharing one PostgreSQL database
//! (issue 28): three engines, each configured with the same four acceptor
//! sessions and `PostgreSQLStoreMaxSessions=2`, serve the four between them,
//! none holding more than two; the initiators' failover endpoints find the
//! engine that holds their session. When one engine stops, its sessions move
//! to the engine with room, numbers continuing.
//!
//! The server is started per test (initdb into a temporary
//! directory); without PostgreSQL installed the test skips with one line,
//! under `CI=true` it fails.
#![cfg(feature = "postgres")]

use std::collections::HashMap;
use std::time::Duration;

use crate::common;
use crate::common::{Event, acceptor, initiator, next, order, port_of, recorders, settings};
use fix_engine::{Engine, EngineOptions};
use fix_session::{SessionId, State};
use fix_test_support::pg::PgServer;
use tokio::sync::mpsc;

const SESSIONS: [&str; 4] = ["C1", "C2", "C3", "C4"];
const MAX_PER_ENGINE: u64 = 2;

/// An engine with the four acceptor sessions on `port`, named `node`.
async fn engine(
    pg: &PgServer,
    node: &str,
    port: u16,
    tx: &mpsc::UnboundedSender<(SessionId, Event)>,
) -> Engine<&'static fix_core::typed::Tables> {
    let sessions = SESSIONS.map(|c| {
        acceptor("EXEC", c, port)
            .postgres_store(pg.connection_string())
            .postgres_store_lease(Duration::from_secs(2))
            .postgres_store_node(node)
            .postgres_store_max_sessions(MAX_PER_ENGINE)
    });
    Engine::start_with(
        settings(sessions),
        &fix44::DICTIONARY,
        EngineOptions::default(),
        recorders(tx, true),
    )
    .await
    .unwrap()
}

/// Each lease holder's number of sessions, from the table.
fn holders(pg: &PgServer) -> HashMap<String, usize> {
    let out = pg
        .psql("SELECT owner, count(*) FROM fix_sessions WHERE lease_expiry > now() GROUP BY owner")
        .unwrap();
    out.lines()
        .filter_map(|l| l.split_once('|'))
        .map(|(owner, n)| (owner.trim().to_owned(), n.trim().parse().unwrap()))
        .collect()
}

/// Sends an order on every initiator session and waits for each answer.
async fn trade(
    engine: &Engine<&'static fix_core::typed::Tables>,
    rx: &mut mpsc::UnboundedReceiver<(SessionId, Event)>,
    round: usize,
) {
    for c in SESSIONS {
        let id = SessionId::new("FIX.4.4", c, "EXEC");
        let handle = engine.session(&id).unwrap();
        tokio::time::timeout(Duration::from_secs(20), handle.wait_for(State::LoggedOn))
            .await
            .unwrap_or_else(|_| panic!("{c} logged on"));
        handle.send(b"D", &order(&format!("{c}-{round}"))).unwrap();
    }
    let mut answered = 0;
    while answered < SESSIONS.len() {
        if let (id, Event::App { cl_ord_id, .. }) = next(rx, 20).await
            && cl_ord_id.starts_with("R-")
            && id.sender_comp_id.starts_with('C')
        {
            assert_eq!(cl_ord_id, format!("R-{}-{round}", id.sender_comp_id));
            answered += 1;
        }
    }
}

#[tokio::test]
async fn sessions_spread_over_engines_and_move_when_one_stops() {
    let Some(pg) = PgServer::start_or_skip("spread") else {
        return;
    };
    let (tx, mut rx) = mpsc::unbounded_channel();
    let e1 = engine(&pg, "e1", 0, &tx).await;
    let e2 = engine(&pg, "e2", 0, &tx).await;
    let e3 = engine(&pg, "e3", 0, &tx).await;
    let ports = [port_of(&e1), port_of(&e2), port_of(&e3)];

    // Each initiator tries the three engines in turn: one that does not
    // hold its session refuses the Logon.
    let initiators = SESSIONS.map(|c| {
        initiator(c, "EXEC", ports[0])
            .socket_connect("127.0.0.1", ports[1])
            .socket_connect("127.0.0.1", ports[2])
            .heart_bt_int(1)
            .logon_timeout(Duration::from_secs(2))
            .reconnect_interval(Duration::from_millis(300))
    });
    let ini = common::start(initiators, &tx, false).await;
    trade(&ini, &mut rx, 1).await;
    let before = holders(&pg);
    assert_eq!(before.values().sum::<usize>(), SESSIONS.len(), "{before:?}");
    assert!(
        before.values().all(|&n| n <= MAX_PER_ENGINE as usize),
        "{before:?}"
    );
    let (busiest, _) = before.iter().max_by_key(|(_, n)| **n).unwrap();
    let busiest = busiest.clone();

    // The busiest engine stops: its sessions go to the one with room.
    let (stopped, rest) = match busiest.as_str() {
        "e1" => (e1, [e2, e3]),
        "e2" => (e2, [e1, e3]),
        _ => (e3, [e1, e2]),
    };
    stopped.shutdown(Duration::from_secs(2)).await.unwrap();
    trade(&ini, &mut rx, 2).await;
    let after = holders(&pg);
    assert!(!after.contains_key(&busiest), "{after:?}");
    assert_eq!(after.values().sum::<usize>(), SESSIONS.len(), "{after:?}");
    assert!(
        after.values().all(|&n| n <= MAX_PER_ENGINE as usize),
        "{after:?}"
    );
    println!("sessions by engine: before {before:?}, after {busiest} stopped {after:?}");
    ini.shutdown(Duration::from_secs(2)).await.unwrap();
    for e in rest {
        e.shutdown(Duration::from_secs(2)).await.unwrap();
    }
}
