//! The session round trip of the `session` bench, timed in interleaved batches:
//! the floor, the memory store as it grows, the memory store with its capacity
//! reserved and the file store (sync left to the OS), one batch of each in turn,
//! the best batch of each reported with its ratio to the floor. On a machine
//! whose speed drifts, those ratios hold steadier than benchmarks run one after
//! the other.
//!
//! ```text
//! cargo run --profile bench -p fix-benches --example session_probe [round trips per batch] [batches]
//! valgrind --tool=callgrind target/release/examples/session_probe 2000 1 --only memory
//! ```
//!
//! `--only <floor|memory|reserved|file>` runs that one alone (for instruction
//! counts: the difference between two runs of different sizes, over the
//! difference in round trips, is the count per round trip).

use std::hint::black_box;
use std::time::Instant;

use fix_benches::session::{Floor, Pair, logged_on, round};
use fix_session::{FileOptions, FileStore, MemoryStore, MessageStore, SyncPolicy};

const CASES: [&str; 4] = ["floor", "memory", "reserved", "file"];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u64 = args
        .first()
        .map_or(20_000, |a| a.parse().expect("round trips per batch"));
    let batches: usize = args.get(1).map_or(30, |a| a.parse().expect("batches"));
    let only = args
        .iter()
        .position(|a| a == "--only")
        .map(|i| args[i + 1].as_str());
    let dir = std::env::temp_dir().join(format!("fix-session-probe-{}", std::process::id()));
    let mut floor = Floor::new();
    let mut wire = Vec::with_capacity(4096);
    let mut best = [f64::MAX; 4];
    for batch in 0..batches {
        for (i, case) in CASES.iter().enumerate() {
            if only.is_some_and(|o| o != *case) {
                continue;
            }
            let sub = dir.join(batch.to_string());
            let per_round = match *case {
                "floor" => {
                    let start = Instant::now();
                    for _ in 0..n {
                        black_box(floor.run());
                    }
                    start.elapsed().as_secs_f64() / n as f64
                }
                "memory" => timed(
                    logged_on((MemoryStore::new(), MemoryStore::new())),
                    n,
                    &mut wire,
                ),
                "reserved" => {
                    let reserved = || MemoryStore::with_capacity(n as usize + 16, n as usize * 512);
                    timed(logged_on((reserved(), reserved())), n, &mut wire)
                }
                _ => {
                    let options = FileOptions::new().sync(SyncPolicy::Os);
                    let pair = logged_on((
                        FileStore::open_with(&sub, "FIX.4.4-CLIENT-BROKER", options).unwrap(),
                        FileStore::open_with(&sub, "FIX.4.4-BROKER-CLIENT", options).unwrap(),
                    ));
                    let t = timed(pair, n, &mut wire);
                    let _ = std::fs::remove_dir_all(&sub);
                    t
                }
            };
            best[i] = best[i].min(per_round);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    for (case, t) in CASES.iter().zip(best) {
        if t < f64::MAX {
            let ratio = if *case != "floor" && best[0] < f64::MAX {
                format!(" ({:+.0}% over the floor)", (t / best[0] - 1.0) * 100.0)
            } else {
                String::new()
            };
            println!("{case:>8}: {:.0} ns per round trip{ratio}", t * 1e9);
        }
    }
}

/// Time per round trip of `n` round trips through `pair`.
fn timed<S: MessageStore>(mut pair: Pair<S>, n: u64, wire: &mut Vec<u8>) -> f64 {
    let start = Instant::now();
    for _ in 0..n {
        round(&mut pair, wire, true);
    }
    start.elapsed().as_secs_f64() / n as f64
}
