//! Two sessions wired back to back in memory, one sending NewOrderSingles and the
//! other answering each with an ExecutionReport (`fix_benches::session`): one
//! round trip per iteration, with the memory store (as it grows with its messages,
//! and with its capacity taken up front by `MemoryStore::with_capacity`, which
//! keeps page faults of fresh memory off the measured path) and with the file
//! store (sync left to the OS). The floor in the same group is the bare work on
//! the same two messages: parse + validate each (against the generated FIX 4.4
//! tables) and encode each (header, body, BodyLength, CheckSum), so the ratio is
//! the session's own overhead.
//!
//! `cargo bench -p fix-benches --bench session`; for ratios steadier on a busy
//! machine, `cargo run --profile bench -p fix-benches --example session_probe`.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use fix_benches::session::{BATCH, Floor, logged_on, round};
use fix_session::{FileOptions, FileStore, MemoryStore, MessageStore, SyncPolicy};

fn timed<S: MessageStore>(iters: u64, mut stores: impl FnMut() -> (S, S)) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    let mut wire = Vec::with_capacity(4096);
    while left > 0 {
        let n = left.min(BATCH);
        let mut pair = logged_on(stores());
        let start = Instant::now();
        for _ in 0..n {
            round(&mut pair, &mut wire, true);
        }
        total += start.elapsed();
        left -= n;
    }
    total
}

fn session(c: &mut Criterion) {
    let dir = std::env::temp_dir().join(format!("fix-bench-session-{}", std::process::id()));
    let mut opened = 0u32;
    let mut file_stores = || {
        // The last batch's stores are closed by now: removing them drops their
        // pages from the page cache unwritten, so that a run does not pile up
        // gigabytes of dirty pages for the kernel to throttle. What is measured is
        // the store's own cost, not this machine's disk bandwidth.
        let _ = std::fs::remove_dir_all(dir.join(opened.to_string()));
        opened += 1;
        let sub = dir.join(opened.to_string());
        let options = FileOptions::new().sync(SyncPolicy::Os);
        (
            FileStore::open_with(&sub, "FIX.4.4-CLIENT-BROKER", options).unwrap(),
            FileStore::open_with(&sub, "FIX.4.4-BROKER-CLIENT", options).unwrap(),
        )
    };
    // A batch's messages, with room to spare (the order is ~170 bytes on the
    // wire, the report ~210), for the store whose capacity is taken up front.
    let reserved = || MemoryStore::with_capacity(BATCH as usize + 16, BATCH as usize * 512);

    let mut group = c.benchmark_group("session round trip");
    group.bench_function("memory store", |b| {
        b.iter_custom(|iters| timed(iters, || (MemoryStore::new(), MemoryStore::new())))
    });
    group.bench_function("memory store, capacity reserved", |b| {
        b.iter_custom(|iters| timed(iters, || (reserved(), reserved())))
    });
    group.bench_function("file store, sync left to the OS", |b| {
        b.iter_custom(|iters| timed(iters, &mut file_stores))
    });
    let mut floor = Floor::new();
    group.bench_function("floor: parse + validate + encode both messages", |b| {
        b.iter(|| floor.run())
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, session);
criterion_main!(benches);
