//! The engine's memory budget against a thousand peers at once
//! (`EngineOptions::max_held_bytes`), not in `tests/hostile.rs`'s binary: its
//! thousand sessions would show in hostile's resident-memory bound.

use std::time::{Duration, SystemTime};

use crate::common::{Event, acceptor, expect, initiator, order, port_of, recorders, settings};
use fix_engine::{Engine, EngineOptions};
use fix_session::SessionId;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// SendingTime `offset_secs` from now.
fn sending_time(offset_secs: i64) -> String {
    let now = SystemTime::now();
    let t = if offset_secs >= 0 {
        now + Duration::from_secs(offset_secs as u64)
    } else {
        now - Duration::from_secs(offset_secs.unsigned_abs())
    };
    String::from_utf8(fix_session::time::format_timestamp(t).to_vec()).unwrap()
}

/// A message from `sender` to EXEC numbered `seq`, with `body` after the header.
fn message(sender: &str, msg_type: &str, seq: u64, body: &str) -> Vec<u8> {
    let now = sending_time(0);
    fix_test_support::naive::build(
        format!("35={msg_type}\x0134={seq}\x0149={sender}\x0152={now}\x0156=EXEC\x01{body}")
            .as_bytes(),
    )
}

/// Reads until `want` has been seen (or `secs` pass).
async fn read_until(tcp: &mut TcpStream, want: &[u8], secs: u64) -> Vec<u8> {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    while !got.windows(want.len()).any(|w| w == want) {
        match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) | Err(_) => break,
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
        }
    }
    got
}

async fn logged_on(port: u16, sender: &str) -> TcpStream {
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    tcp.write_all(&message(sender, "A", 1, "98=0\x01108=30\x01"))
        .await
        .unwrap();
    let answer = read_until(&mut tcp, b"\x0135=A\x01", 5).await;
    assert!(
        answer.windows(6).any(|w| w == b"\x0135=A\x01"),
        "{sender} logged on: {}",
        String::from_utf8_lossy(&answer)
    );
    tcp
}

struct Real {
    rx: mpsc::UnboundedReceiver<(SessionId, Event)>,
    handle: fix_engine::SessionHandle,
    id: SessionId,
    n: u32,
}

impl Real {
    /// One order from the real counterparty, answered within 10 s.
    async fn round_trip(&mut self, after: &str) {
        self.n += 1;
        let id = format!("REAL{}", self.n);
        self.handle.send(b"D", &order(&id)).unwrap();
        let want = format!("R-{id}");
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        loop {
            match tokio::time::timeout_at(deadline, self.rx.recv()).await {
                Ok(Some((got, Event::App { cl_ord_id, .. })))
                    if got == self.id && cl_ord_id == want =>
                {
                    return;
                }
                Ok(Some(_)) => {}
                _ => panic!("the real counterparty was not answered after {after}"),
            }
        }
    }
}

/// A thousand peers each open a gap and flood behind it: each session alone
/// may queue 16 MiB above its gap, the engine's sessions together hold no
/// more than `EngineOptions::max_held_bytes`; the sessions past it say so
/// (`BudgetFull`), and a real counterparty is served throughout.
#[tokio::test]
async fn a_thousand_gap_floods_are_held_to_the_engines_budget() {
    const PEERS: usize = 1000;
    const BUDGET: usize = 8 << 20;
    let (tx, rx) = mpsc::unbounded_channel();
    let mut options = EngineOptions::default();
    options.max_held_bytes = BUDGET;
    options.max_template_sessions = PEERS + 1;
    options.max_pending_connections = PEERS + 1;
    let acc = Engine::start_with(
        settings([
            acceptor("EXEC", "CLIENT1", 0),
            acceptor("EXEC", "*", 0).acceptor_template(true),
        ]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, true),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let ini = Engine::start(
        settings([initiator("CLIENT1", "EXEC", port)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let real_id = SessionId::new("FIX.4.4", "CLIENT1", "EXEC");
    let mut real = Real {
        rx,
        handle: ini.session(&real_id).unwrap(),
        id: real_id.clone(),
        n: 0,
    };
    expect(&mut real.rx, &real_id, &Event::Logon, 10).await;
    // 256 KiB behind a gap from each peer: 256 MiB in all.
    let pad = "x".repeat(4000);
    let mut peers = Vec::with_capacity(PEERS);
    let mut most = 0;
    for p in 0..PEERS {
        let sender = format!("FLOOD{p}");
        let mut tcp = logged_on(port, &sender).await;
        let mut batch = Vec::new();
        let mut seq = 3;
        while batch.len() < 256 << 10 {
            batch.extend(message(
                &sender,
                "D",
                seq,
                &format!("11=G{seq}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x0158={pad}\x01"),
            ));
            seq += 1;
        }
        tcp.write_all(&batch).await.unwrap();
        peers.push(tcp);
        most = most.max(acc.held_bytes());
        assert!(
            acc.held_bytes() <= BUDGET,
            "{} bytes held",
            acc.held_bytes()
        );
    }
    // The engine is still answering; what it holds is still bounded.
    real.round_trip("a thousand gap floods").await;
    most = most.max(acc.held_bytes());
    assert!(
        acc.held_bytes() <= BUDGET,
        "{} bytes held",
        acc.held_bytes()
    );
    assert!(
        most > BUDGET / 2,
        "the floods reached the budget: at most {most} bytes held"
    );
    drop(peers);
    println!("{PEERS} gap floods of 256 KiB: at most {most} bytes held, budget {BUDGET}");
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}
