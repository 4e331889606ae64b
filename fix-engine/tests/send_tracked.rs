//! Sends the caller can trust: `SessionHandle::send_tracked` resolves to the
//! MsgSeqNum a message went with once it is durable (with the file store's
//! group commit, after the sync that covers it), or to why it never will be;
//! `Engine::shutdown` counts what it dropped.

mod common;

use std::time::Duration;

use common::*;
use fix_engine::{Engine, NotSent};
use fix_session::{SessionId, State};
use tokio::sync::mpsc;

const WAIT: u64 = 10;

#[tokio::test]
async fn a_tracked_send_resolves_to_the_number_it_went_with_once_durable() {
    let port = free_port();
    let dir = temp_dir("tracked");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "T1", port)], &tx, false).await;
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
    std::fs::remove_dir_all(&dir).unwrap();
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
