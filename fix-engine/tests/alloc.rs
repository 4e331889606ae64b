//! The engine's read and write path allocates nothing per message in the
//! steady state: an initiator and an acceptor on loopback, in one
//! current-thread runtime (so the counting allocator, which counts per thread,
//! sees every task), exchanging round trips after a warm-up, with memory
//! stores, again with both sides writing their message logs (FileLogPath), and
//! over TLS; sent through the queue and, with `send_now`, from the sender's
//! own call. The applications allocate nothing themselves: the counts are the
//! engine's, and over TLS rustls's own per-record buffers, counted and bounded.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::{acceptor, initiator, log_messages, order, port_of, settings};
use fix_core::Message;
use fix_engine::{Engine, EngineOptions, SessionHandle};
use fix_session::{AppReject, Application, Outbox, SessionId, State};
use fix_test_support::alloc::{Counting, count};
use fix_test_support::temp_dir::TestDir;
use tokio::sync::Notify;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Answers every order with the same order, from a body made once.
struct Echo {
    body: Vec<u8>,
}

impl Application for Echo {
    fn from_app(&mut self, _msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        out.send_body(b"D", &self.body);
        Ok(())
    }
}

/// Counts answers and wakes the sender.
struct Counter {
    received: Arc<AtomicU64>,
    wake: Arc<Notify>,
}

impl Application for Counter {
    fn from_app(&mut self, _msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        self.received.fetch_add(1, Ordering::Relaxed);
        self.wake.notify_one();
        Ok(())
    }
}

/// How the test's orders are sent.
#[derive(Clone, Copy)]
enum Send {
    /// `SessionHandle::send`: queued for the connection task.
    Queued,
    /// `SessionHandle::send_now`: written from the sender's call (the
    /// connection task waits meanwhile, so the session is free).
    Now,
}

async fn round_trips(client: &SessionHandle, how: Send, wake: &Notify, body: &[u8], n: u64) {
    for _ in 0..n {
        match how {
            Send::Queued => client.send(b"D", body),
            Send::Now => client.send_now(b"D", body),
        }
        .unwrap();
        wake.notified().await;
    }
}

/// Round trips between an acceptor made from these settings (on port 0) and
/// an initiator made for the port it bound,
/// after a warm-up: what the `N` round trips allocated.
fn steady_state(
    acceptor: fix_engine::config::SessionBuilder,
    initiator: impl FnOnce(u16) -> fix_engine::config::SessionBuilder,
    how: Send,
) -> fix_test_support::alloc::Counts {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut options = EngineOptions::default();
    // Room for every message of the test: storing never grows the stores.
    options.memory_store_capacity = (4 * (WARM_UP + N) as usize, 64 << 20);
    let received = Arc::new(AtomicU64::new(0));
    let wake = Arc::new(Notify::new());
    let body = order("ORDER-1");
    let (acc, ini, client) = rt.block_on(async {
        let echo_body = body.clone();
        let acc = Engine::start_with(
            settings([acceptor]),
            &fix44::DICTIONARY,
            options.clone(),
            move |_, _| Echo {
                body: echo_body.clone(),
            },
        )
        .await
        .unwrap();
        let (r, w) = (received.clone(), wake.clone());
        let ini = Engine::start_with(
            settings([initiator(port_of(&acc))]),
            &fix44::DICTIONARY,
            options,
            move |_, _| Counter {
                received: r.clone(),
                wake: w.clone(),
            },
        )
        .await
        .unwrap();
        let client = ini
            .session(&SessionId::new("FIX.4.4", "C1", "EXEC"))
            .unwrap();
        tokio::time::timeout(Duration::from_secs(10), client.wait_for(State::LoggedOn))
            .await
            .unwrap();
        (acc, ini, client)
    });
    rt.block_on(round_trips(&client, how, &wake, &body, WARM_UP));
    let ((), counts) = count(|| rt.block_on(round_trips(&client, how, &wake, &body, N)));
    assert_eq!(received.load(Ordering::Relaxed), WARM_UP + N);
    rt.block_on(async {
        ini.shutdown(Duration::from_secs(5)).await.unwrap();
        acc.shutdown(Duration::from_secs(5)).await.unwrap();
    });
    counts
}

const WARM_UP: u64 = 2_000;
const N: u64 = 10_000;

#[test]
fn round_trips_through_the_engine_allocate_nothing_per_message() {
    for (how, name) in [(Send::Queued, "send"), (Send::Now, "send_now")] {
        let counts = steady_state(
            acceptor("EXEC", "C1", 0),
            |port| initiator("C1", "EXEC", port),
            how,
        );
        println!(
            "{N} round trips (two messages each), {name}: {} allocations, {} bytes",
            counts.allocations, counts.bytes
        );
        assert_eq!(counts.allocations, 0, "{name}: {counts:?}");
    }
}

#[test]
fn round_trips_allocate_nothing_while_both_sides_write_their_logs() {
    for (how, name) in [(Send::Queued, "send"), (Send::Now, "send_now")] {
        let dir = TestDir::new(&format!("alloc-log-{name}"));
        let counts = steady_state(
            acceptor("EXEC", "C1", 0).file_log_path(dir.join("acceptor")),
            |port| initiator("C1", "EXEC", port).file_log_path(dir.join("initiator")),
            how,
        );
        println!(
            "{N} round trips (two messages each), logs on, {name}: {} allocations, {} bytes",
            counts.allocations, counts.bytes
        );
        assert_eq!(counts.allocations, 0, "{name}: {counts:?}");
        // Every message of the test is in both logs: 2 Logons, 4 orders a
        // round trip, 2 Logouts.
        let lines = 2 * 2 + 4 * (WARM_UP + N) as usize + 2 * 2;
        let a = log_messages(&dir.join("acceptor/FIX.4.4-EXEC-C1.messages.current.log"));
        let i = log_messages(&dir.join("initiator/FIX.4.4-C1-EXEC.messages.current.log"));
        assert_eq!(a.len() + i.len(), lines, "{name}");
        assert_eq!(a, i, "{name}");
    }
}

#[test]
fn round_trips_with_durable_file_stores_allocate_nothing_per_message() {
    // FileStoreSync=Y, group commit: each round trip's order and answer are
    // a batch of their own, synced in place (a small batch), and their
    // bytes leave only after it.
    for (how, name) in [(Send::Queued, "send"), (Send::Now, "send_now")] {
        let dir = TestDir::new(&format!("alloc-durable-{name}"));
        let counts = steady_state(
            acceptor("EXEC", "C1", 0).file_store_path(dir.join("acceptor")),
            |port| initiator("C1", "EXEC", port).file_store_path(dir.join("initiator")),
            how,
        );
        println!(
            "{N} round trips (two messages each), durable file stores, {name}: {} allocations, {} bytes",
            counts.allocations, counts.bytes
        );
        // The one thing that grows is each file store's index of stored
        // messages (24 bytes a message, a Vec that doubles): from about 2,000
        // to 12,000 messages a side, three doublings each (4,096, 8,192 and
        // 16,384 entries). Nothing a message, nothing a sync.
        assert!(counts.allocations <= 6, "{name}: {counts:?}");
        assert!(
            counts.bytes <= 2 * (4096 + 8192 + 16384) * 24,
            "{name}: {counts:?}"
        );
    }
}

/// Over TLS, rustls allocates per record: a buffer for each record it seals
/// and for each it opens. Measured, and bounded so that more is a failure:
/// the engine's own path adds nothing.
#[cfg(feature = "tls")]
#[test]
fn round_trips_over_tls_allocate_only_rustls_records() {
    let dir = TestDir::new("alloc-tls");
    let ca = common::certs::Ca::new(&dir, "ca");
    let server = ca.server("server");
    for (how, name) in [(Send::Queued, "send"), (Send::Now, "send_now")] {
        let counts = steady_state(
            acceptor("EXEC", "C1", 0)
                .socket_use_ssl(true)
                .certificate(&server.cert)
                .private_key(&server.key),
            |port| {
                initiator("C1", "EXEC", port)
                    .socket_use_ssl(true)
                    .ca_file(&ca.cert)
            },
            how,
        );
        let per_message = counts.allocations as f64 / (2 * N) as f64;
        println!(
            "{N} round trips over TLS (two messages each), {name}: {} allocations ({per_message:.2} a message), {} bytes",
            counts.allocations, counts.bytes
        );
        // Each message is one record, sealed by one side and opened by the
        // other (measured: 2.00 a message); a little room for a buffer of
        // rustls's growing once, none for an allocation per message of the
        // engine's.
        assert!(counts.allocations <= 4 * N + 16, "{name}: {counts:?}");
    }
}
