//! Ours beside fefix 0.7, rustyfix 0.7 and rust_decimal on the same corpus messages,
//! in one run: decode + validate, decode + 5 reads, encode, decimal write. Every case
//! is checked against the others of its group before anything is timed (see
//! `fix_benches::peers`). With `--features quickfix` (cmake and a C++ compiler), the
//! decode + validate groups also time QuickFIX C++.
//!
//! `cargo bench -p fix-benches --features peers --bench peers -- --warm-up-time 1 --measurement-time 3`
//! (or `cargo xtask bench-report [--quickfix]`, which also counts allocations and
//! writes `benches/RESULTS.md`).

use criterion::{Criterion, criterion_group, criterion_main};
use fix_benches::peers::cases;

fn peers(c: &mut Criterion) {
    let mut all = cases();
    let mut groups: Vec<&'static str> = all.iter().map(|c| c.group).collect();
    groups.dedup();
    for name in groups {
        let mut group = c.benchmark_group(name);
        for case in all.iter_mut().filter(|c| c.group == name) {
            group.bench_function(case.lib, |b| b.iter(|| case.run()));
        }
        group.finish();
    }
}

criterion_group!(benches, peers);
criterion_main!(benches);
