//! Hostile peers over TCP against a running acceptor (issue 24): absurd
//! numbers in a Logon, connections that never log on, a message that never
//! ends, a gap with a flood behind it, and Logons naming ever new CompIDs
//! against an acceptor template. Each is driven past its bound while a real
//! counterparty trades on the same engine; nothing may panic (the panic hook
//! counts), the process's memory stays within a stated bound, and the real
//! counterparty is answered after every attack.

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, SystemTime};

use common::{Event, acceptor, expect, initiator, order, port_of, recorders, settings};
use fix_engine::{Engine, EngineOptions};
use fix_session::SessionId;
use fix_test_support::temp_dir::TestDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio::sync::mpsc;

static PANICS: AtomicUsize = AtomicUsize::new(0);

/// Resident memory of this process, in KiB.
fn vm_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

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

/// Reads what the engine sends until it closes the connection (or `secs`
/// pass); returns it and whether it closed.
async fn read_to_close(tcp: &mut TcpStream, secs: u64) -> (Vec<u8>, bool) {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        match tokio::time::timeout_at(deadline, tcp.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (got, true),
            Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
            Err(_) => return (got, false),
        }
    }
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

/// A template session logged on as `sender`.
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

#[tokio::test]
async fn hostile_peers_are_bounded_and_a_real_counterparty_is_served_throughout() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        PANICS.fetch_add(1, Ordering::SeqCst);
        previous(info);
    }));

    let dir = TestDir::new("hostile");
    let stores = dir.join("store");
    let logs = dir.join("log");
    let (tx, rx) = mpsc::unbounded_channel();
    let mut options = EngineOptions::default();
    options.max_pending_connections = 32;
    options.max_template_sessions = 16;
    let acc = Engine::start_with(
        settings([
            acceptor("EXEC", "CLIENT1", 0),
            acceptor("EXEC", "*", 0)
                .acceptor_template(true)
                .file_store_path(&stores)
                .file_log_path(&logs),
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
    real.round_trip("the start").await;
    let rss_start = vm_rss_kib();
    let mut rss_peak = rss_start;

    // 1. Absurd numbers in a Logon: refused with a Logout naming HeartBtInt;
    // the template's session is removed with its files.
    for hb in ["9000000000000000000", "-30", "86401"] {
        let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let body = format!("98=0\x01108={hb}\x01");
        tcp.write_all(&message("ATTACK-HB", "A", 1, &body))
            .await
            .unwrap();
        let (answer, closed) = read_to_close(&mut tcp, 10).await;
        let text = String::from_utf8_lossy(&answer);
        assert!(closed, "HeartBtInt {hb}: the connection ends");
        assert!(
            text.contains("35=5") && text.contains("HeartBtInt"),
            "{hb}: {text}"
        );
    }
    real.round_trip("absurd HeartBtInts").await;

    // 2. Connections that never log on: past max_pending_connections the
    // longest waiting are closed; the real counterparty still trades.
    let mut idle = Vec::new();
    for _ in 0..100 {
        idle.push(TcpStream::connect(("127.0.0.1", port)).await.unwrap());
    }
    real.round_trip("100 idle connections").await;
    let mut closed = 0;
    for tcp in &mut idle {
        let mut b = [0u8; 1];
        if let Ok(Ok(0)) = tokio::time::timeout(Duration::from_millis(50), tcp.read(&mut b)).await {
            closed += 1;
        }
    }
    assert!(
        closed >= 100 - 32,
        "{closed} of 100 idle connections closed"
    );
    drop(idle);
    rss_peak = rss_peak.max(vm_rss_kib());

    // 3. A message whose BodyLength is wrong and no CheckSum ever follows:
    // 32 MiB of it; the session keeps at most the parser's maximum size.
    let mut tcp = logged_on(port, "ATTACK-LEN").await;
    tcp.write_all(b"8=FIX.4.4\x019=20\x0135=D\x0134=2\x01")
        .await
        .unwrap();
    let noise = vec![b'x'; 1 << 20];
    for _ in 0..32 {
        tcp.write_all(&noise).await.unwrap();
    }
    real.round_trip("a message that never ends").await;
    rss_peak = rss_peak.max(vm_rss_kib());
    drop(tcp);

    // 4. A gap with a flood behind it: number 2 never comes, 3.. do, 48 MiB
    // of them; the queue keeps at most SessionConfig::max_queued_bytes.
    let mut tcp = logged_on(port, "ATTACK-GAP").await;
    let pad = "x".repeat(4000);
    let mut batch = Vec::new();
    let mut seq = 3;
    for _ in 0..48 {
        batch.clear();
        while batch.len() < 1 << 20 {
            batch.extend(message(
                "ATTACK-GAP",
                "D",
                seq,
                &format!("11=G{seq}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x0158={pad}\x01"),
            ));
            seq += 1;
        }
        tcp.write_all(&batch).await.unwrap();
    }
    real.round_trip("a gap flood").await;
    rss_peak = rss_peak.max(vm_rss_kib());
    drop(tcp);

    // 5. Logons naming ever new CompIDs, refused (SendingTime an hour off):
    // nothing stays behind, in the engine or on the disk.
    for i in 0..200 {
        let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
        let sender = format!("GHOST{i}");
        let skewed = sending_time(-3600);
        let logon = fix_test_support::naive::build(
            format!("35=A\x0134=1\x0149={sender}\x0152={skewed}\x0156=EXEC\x0198=0\x01108=30\x01")
                .as_bytes(),
        );
        tcp.write_all(&logon).await.unwrap();
        let (_, closed) = read_to_close(&mut tcp, 10).await;
        assert!(closed, "{sender} refused");
    }
    real.round_trip("200 refused Logons").await;
    // The removal follows the connection's end: give the last one a moment.
    tokio::time::sleep(Duration::from_millis(200)).await;
    for i in 0..200 {
        let id = SessionId::new("FIX.4.4", "EXEC", &format!("GHOST{i}"));
        assert!(acc.session(&id).is_none(), "{id} removed");
    }
    let left: Vec<String> = std::fs::read_dir(&stores)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("GHOST") || n.contains("ATTACK-HB"))
        .collect();
    assert!(left.is_empty(), "files left behind: {left:?}");
    let left_logs = std::fs::read_dir(&logs)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .contains("GHOST")
        })
        .count();
    assert_eq!(left_logs, 0, "no log files left behind");

    // 6. Valid Logons past max_template_sessions: refused. ATTACK-LEN and
    // ATTACK-GAP logged on and count; 14 more fit.
    let mut kept = Vec::new();
    for i in 0..14 {
        kept.push(logged_on(port, &format!("MANY{i}")).await);
    }
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    tcp.write_all(&message("MANY-TOO-MANY", "A", 1, "98=0\x01108=30\x01"))
        .await
        .unwrap();
    let (answer, closed) = read_to_close(&mut tcp, 10).await;
    assert!(
        closed && answer.is_empty(),
        "refused before any session is made"
    );
    real.round_trip("the template's limit").await;
    drop(kept);

    rss_peak = rss_peak.max(vm_rss_kib());
    let growth_mib = rss_peak.saturating_sub(rss_start) / 1024;
    println!(
        "hostile: VmRSS {} MiB at the start, {} MiB at the peak (+{growth_mib} MiB) after 32 MiB of unending message and 48 MiB of gap flood",
        rss_start / 1024,
        rss_peak / 1024
    );
    // The bounds: 16 MiB of queue (max_queued_bytes), 64 KiB of partial
    // message, the engine's buffers; the attacks sent 80 MiB.
    assert!(growth_mib < 64, "memory grew by {growth_mib} MiB");
    assert_eq!(PANICS.load(Ordering::SeqCst), 0, "something panicked");

    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}
