//! Heap allocations per operation of every case in `fix_benches::peers`, counted
//! with a counting global allocator. Prints one tab-separated line per case:
//! `group`, `lib`, allocations per operation, bytes allocated per operation, and what
//! the case includes.
//!
//! `cargo run --release -p fix-benches --features peers --example allocs [iterations]`
//!
//! Each case has already run a few times (the checks in `cases()`), so buffers a
//! library keeps between messages are warm: this counts the steady state.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

struct Counting;

static ALLOCS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counters have no effect on the memory handed out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(layout.size() as u64, Relaxed);
        // SAFETY: the caller's contract for `alloc` is the one `System::alloc` needs.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through `alloc`/`realloc` above.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Relaxed);
        BYTES.fetch_add(new_size as u64, Relaxed);
        // SAFETY: forwarded with the caller's guarantees for `realloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map_or(1000, |s| s.parse().expect("iterations is a number"));
    let mut cases = fix_benches::peers::cases();
    println!("# group\tlib\tallocations per op\tbytes per op\tnote ({n} iterations)");
    for case in &mut cases {
        let (a0, b0) = (ALLOCS.load(Relaxed), BYTES.load(Relaxed));
        let mut check = 0u64;
        for _ in 0..n {
            check = check.wrapping_add(std::hint::black_box(case.run()));
        }
        let (a, b) = (ALLOCS.load(Relaxed) - a0, BYTES.load(Relaxed) - b0);
        std::hint::black_box(check);
        println!(
            "{}\t{}\t{}\t{}\t{}",
            case.group,
            case.lib,
            a as f64 / n as f64,
            b as f64 / n as f64,
            case.note
        );
    }
}
