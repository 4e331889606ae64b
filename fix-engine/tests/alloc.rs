//! The engine's read and write path allocates nothing per message in the
//! steady state: an initiator and an acceptor on loopback, in one
//! current-thread runtime (so the counting allocator, which counts per thread,
//! sees every task), exchanging round trips after a warm-up, with memory
//! stores, and again with both sides writing their message logs (FileLogPath).
//! The applications allocate nothing themselves: the counts are the engine's.

mod common;

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::{acceptor, free_port, initiator, log_messages, order, settings, temp_dir};
use fix_core::Message;
use fix_engine::{Engine, EngineOptions, SessionHandle};
use fix_session::{AppReject, Application, Outbox, SessionId, State};
use fix_test_support::alloc::{Counting, count};
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

async fn round_trips(client: &SessionHandle, wake: &Notify, body: &[u8], n: u64) {
    for _ in 0..n {
        client.send(b"D", body).unwrap();
        wake.notified().await;
    }
}

#[test]
fn round_trips_through_the_engine_allocate_nothing_per_message() {
    round_trips_allocate_nothing(None);
}

#[test]
fn round_trips_allocate_nothing_while_both_sides_write_their_logs() {
    let dir = temp_dir("alloc-log");
    round_trips_allocate_nothing(Some(dir.clone()));
    // Every message of the test is in both logs: 2 Logons, 4 orders a round
    // trip, 2 Logouts.
    let lines = 2 * 2 + 4 * (2_000 + 10_000) + 2 * 2;
    let a = log_messages(&dir.join("acceptor/FIX.4.4-EXEC-C1.messages.current.log"));
    let i = log_messages(&dir.join("initiator/FIX.4.4-C1-EXEC.messages.current.log"));
    assert_eq!(a.len() + i.len(), lines);
    assert_eq!(a, i);
}

fn round_trips_allocate_nothing(log_dir: Option<PathBuf>) {
    const WARM_UP: u64 = 2_000;
    const N: u64 = 10_000;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let port = free_port();
    let mut options = EngineOptions::default();
    // Room for every message of the test: storing never grows the stores.
    options.memory_store_capacity = (4 * (WARM_UP + N) as usize, 64 << 20);
    let received = Arc::new(AtomicU64::new(0));
    let wake = Arc::new(Notify::new());
    let body = order("ORDER-1");
    let (acc, ini, client) = rt.block_on(async {
        let echo_body = body.clone();
        let (mut acc_settings, mut ini_settings) =
            (acceptor("EXEC", "C1", port), initiator("C1", "EXEC", port));
        if let Some(dir) = &log_dir {
            acc_settings = acc_settings.file_log_path(dir.join("acceptor"));
            ini_settings = ini_settings.file_log_path(dir.join("initiator"));
        }
        let acc = Engine::start_with(
            settings([acc_settings]),
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
            settings([ini_settings]),
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
    rt.block_on(round_trips(&client, &wake, &body, WARM_UP));
    let ((), counts) = count(|| rt.block_on(round_trips(&client, &wake, &body, N)));
    assert_eq!(received.load(Ordering::Relaxed), WARM_UP + N);
    println!(
        "{N} round trips (two messages each), logs {}: {} allocations, {} bytes",
        if log_dir.is_some() { "on" } else { "off" },
        counts.allocations,
        counts.bytes
    );
    assert_eq!(counts.allocations, 0, "{counts:?}");
    rt.block_on(async {
        ini.shutdown(Duration::from_secs(5)).await.unwrap();
        acc.shutdown(Duration::from_secs(5)).await.unwrap();
    });
}
