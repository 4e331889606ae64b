//! `MaxMessagesPerSecond` over a real socket: an initiator engine throttled
//! to a few application messages a second, its counterparty a raw socket
//! that notes when each message arrives. What the handles queue beyond the
//! limit waits in order; a full queue is `SendError::Full`; a TestRequest is
//! answered at once however many messages wait.

use std::time::Duration;

use crate::common::*;
use fix_engine::{Engine, EngineOptions, SendError, SessionHandle};
use fix_session::{SessionId, State};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tokio::net::tcp::OwnedWriteHalf;
use tokio::sync::mpsc;
use tokio::time::Instant;

/// The counterparty: an acceptor written by hand over a socket.
struct Peer {
    /// Every message received, with when.
    rx: mpsc::UnboundedReceiver<(Instant, Vec<u8>)>,
    write: OwnedWriteHalf,
    next_seq: u64,
}

impl Peer {
    /// Accepts the engine's connection, reads its Logon and answers it.
    async fn accept(listener: TcpListener) -> Peer {
        let (stream, _) = listener.accept().await.unwrap();
        let (mut read, write) = stream.into_split();
        let (tx, rx) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            let mut buf = Vec::new();
            let mut chunk = vec![0u8; 64 << 10];
            loop {
                let n = match read.read(&mut chunk).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) => n,
                };
                let at = Instant::now();
                buf.extend_from_slice(&chunk[..n]);
                while let Some(end) = message_end(&buf) {
                    let msg: Vec<u8> = buf.drain(..end).collect();
                    if tx.send((at, msg)).is_err() {
                        return;
                    }
                }
            }
        });
        let mut peer = Peer {
            rx,
            write,
            next_seq: 1,
        };
        let (_, logon) = peer.next().await;
        assert_eq!(field(&logon, 35).as_deref(), Some("A"));
        peer.send("A", "98=0\x01108=30\x01").await;
        peer
    }

    /// Sends a message of `msg_type` with `body`, numbered in turn.
    async fn send(&mut self, msg_type: &str, body: &str) {
        let now = fix_session::time::format_timestamp(std::time::SystemTime::now());
        let now = std::str::from_utf8(&now).unwrap();
        let msg = fix_test_support::naive::build(
            format!(
                "35={msg_type}\x0134={}\x0149=EXEC\x0152={now}\x0156=CLIENT\x01{body}",
                self.next_seq
            )
            .as_bytes(),
        );
        self.next_seq += 1;
        self.write.write_all(&msg).await.unwrap();
    }

    /// The next message received, within 10 s.
    async fn next(&mut self) -> (Instant, Vec<u8>) {
        tokio::time::timeout(Duration::from_secs(10), self.rx.recv())
            .await
            .expect("a message in time")
            .expect("the connection open")
    }

    /// The next `n` new orders (PossDupFlag unset), with when they came;
    /// other messages are skipped.
    async fn orders(&mut self, n: usize) -> Vec<(Instant, String)> {
        let mut got = Vec::new();
        while got.len() < n {
            let (at, m) = self.next().await;
            if field(&m, 35).as_deref() == Some("D") && field(&m, 43).is_none() {
                got.push((at, field(&m, 11).unwrap()));
            }
        }
        got
    }
}

/// Where the first whole message in `buf` ends.
fn message_end(buf: &[u8]) -> Option<usize> {
    buf.windows(8)
        .position(|w| w[..4] == *b"\x0110=" && w[4..7].iter().all(u8::is_ascii_digit) && w[7] == 1)
        .map(|i| i + 8)
}

/// The value of `tag` in `msg`.
fn field(msg: &[u8], tag: u32) -> Option<String> {
    let key = format!("\x01{tag}=");
    let at = msg.windows(key.len()).position(|w| w == key.as_bytes())? + key.len();
    let end = msg[at..].iter().position(|&b| b == 1)? + at;
    Some(String::from_utf8_lossy(&msg[at..end]).into_owned())
}

/// Sends orders numbered from `from + 1` until the queue is full; returns
/// how many it took.
fn send_until_full(handle: &SessionHandle, from: usize) -> usize {
    let mut n = 0;
    loop {
        match handle.send(b"D", &order(&format!("ORD{}", from + n + 1))) {
            Ok(()) => n += 1,
            Err(SendError::Full) => return n,
            Err(e) => panic!("{e}"),
        }
    }
}

/// An initiator engine CLIENT->EXEC throttled to `rate` a second, connected
/// and logged on to a raw peer.
async fn throttled(
    rate: u32,
    options: EngineOptions,
) -> (
    Engine<&'static fix_core::typed::Tables>,
    SessionHandle,
    Peer,
) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (tx, _rx) = mpsc::unbounded_channel();
    let session = initiator("CLIENT", "EXEC", port).max_messages_per_second(rate);
    let engine = Engine::start_with(
        settings([session]),
        &fix44::DICTIONARY,
        options,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let handle = engine
        .session(&SessionId::new("FIX.4.4", "CLIENT", "EXEC"))
        .unwrap();
    let peer = Peer::accept(listener).await;
    tokio::time::timeout(Duration::from_secs(5), handle.wait_for(State::LoggedOn))
        .await
        .expect("logged on");
    (engine, handle, peer)
}

#[tokio::test]
async fn twenty_a_second_reach_the_peer_twenty_a_second() {
    let (engine, handle, mut peer) = throttled(20, EngineOptions::default()).await;
    for k in 1..=100 {
        handle.send(b"D", &order(&format!("ORD{k}"))).unwrap();
    }
    // Two seconds' worth and one message more: the 41st comes a second after
    // the 21st.
    let got = peer.orders(41).await;
    let ids: Vec<&str> = got.iter().map(|(_, id)| id.as_str()).collect();
    let expected: Vec<String> = (1..=41).map(|k| format!("ORD{k}")).collect();
    assert_eq!(ids, expected, "in order, once each");
    let start = got[0].0;
    let per_second: Vec<usize> = (0..2)
        .map(|s| {
            let second = Duration::from_secs(s)..Duration::from_secs(s + 1);
            got.iter()
                .filter(|(at, _)| second.contains(&(*at - start)))
                .count()
        })
        .collect();
    println!(
        "throttled at 20/s: received per second {per_second:?}; 21st at {:?}, 41st at {:?}",
        got[20].0 - start,
        got[40].0 - start
    );
    for (s, &n) in per_second.iter().enumerate() {
        assert!((19..=21).contains(&n), "second {s}: {n}");
    }
    // At most 20 in any second (less what the socket's delivery may blur).
    for w in got.windows(21) {
        assert!(
            w[20].0 - w[0].0 >= Duration::from_millis(950),
            "{} and {} within {:?}",
            w[0].1,
            w[20].1,
            w[20].0 - w[0].0
        );
    }
    engine.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_full_queue_while_throttled_is_full_and_admin_messages_pass() {
    // Room for ten orders in the handles' queue.
    let record = 21 + 1 + order("ORD10").len();
    let mut options = EngineOptions::default();
    options.queue_capacity = 10 * record;
    let (engine, handle, mut peer) = throttled(5, options).await;
    let first = send_until_full(&handle, 0);
    // The connection task takes the queue, sends five and holds five back;
    // the senders have an empty queue again, and fill it.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let second = send_until_full(&handle, first);
    let accepted = first + second;
    assert_eq!(
        handle.send(b"D", &order("LATE")),
        Err(SendError::Full),
        "still full while throttled"
    );
    println!("queue of 10 at 5/s: {first} accepted, then {second} more, then Full");
    assert_eq!(first, 10);
    assert!(second >= 5, "{second}");
    // A TestRequest is answered at once, however many orders wait.
    let asked = Instant::now();
    peer.send("1", "112=PING\x01").await;
    let mut got = Vec::new();
    let answered = loop {
        let (at, m) = peer.next().await;
        match field(&m, 35).as_deref() {
            Some("0") if field(&m, 112).as_deref() == Some("PING") => break at,
            Some("D") => got.push((at, field(&m, 11).unwrap())),
            _ => {}
        }
    };
    println!("TestRequest answered in {:?}", answered - asked);
    assert!(answered - asked < Duration::from_millis(500));
    // Every order accepted arrives, in order, five a second.
    got.extend(peer.orders(accepted - got.len()).await);
    let ids: Vec<&str> = got.iter().map(|(_, id)| id.as_str()).collect();
    let expected: Vec<String> = (1..=accepted).map(|k| format!("ORD{k}")).collect();
    assert_eq!(ids, expected);
    for w in got.windows(6) {
        assert!(w[5].0 - w[0].0 >= Duration::from_millis(950));
    }
    // Room again once the throttle let them go.
    handle.send(b"D", &order("AFTER")).unwrap();
    engine.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn send_now_goes_direct_within_the_limit_and_queues_past_it_in_order() {
    let (engine, handle, mut peer) = throttled(5, EngineOptions::default()).await;
    // The connection task is idle: the first five go from this thread,
    // the rest queue behind them (none may go now) and follow in order.
    for k in 1..=12 {
        handle.send_now(b"D", &order(&format!("ORD{k}"))).unwrap();
    }
    let got = peer.orders(12).await;
    let ids: Vec<&str> = got.iter().map(|(_, id)| id.as_str()).collect();
    let expected: Vec<String> = (1..=12).map(|k| format!("ORD{k}")).collect();
    assert_eq!(ids, expected);
    let start = got[0].0;
    println!(
        "send_now at 5/s: 6th at {:?}, 11th at {:?}",
        got[5].0 - start,
        got[10].0 - start
    );
    for w in got.windows(6) {
        assert!(w[5].0 - w[0].0 >= Duration::from_millis(950));
    }
    engine.shutdown(Duration::from_secs(5)).await.unwrap();
}
