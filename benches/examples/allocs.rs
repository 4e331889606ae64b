//! Heap allocations per operation of every case in `fix_benches::peers`, counted
//! with the workspace's counting global allocator (`fix_test_support::alloc`, which
//! counts the main thread, where every case runs). Prints one tab-separated line per case:
//! `group`, `lib`, allocations per operation, bytes allocated per operation, and what
//! the case includes.
//!
//! `cargo run --profile bench -p fix-benches --features peers --example allocs [iterations]`
//! (`--features quickfix` adds QuickFIX C++).
//!
//! Each case has already run a few times (the checks in `cases()`), so buffers a
//! library keeps between messages are warm: this counts the steady state.
//!
//! With the `quickfix` feature, C++ allocations count too: QuickFIX allocates through
//! C++'s `operator new`, which never reaches Rust's global allocator, so this program
//! replaces the global `operator new` (as C++ lets a program do) with one that counts
//! into the same totals.

use fix_test_support::alloc::{Counting, count};

#[global_allocator]
static GLOBAL: Counting = Counting;

/// C++'s global `operator new`, replaced to count QuickFIX's allocations.
///
/// Only `operator new(std::size_t)` is replaced: libstdc++'s `operator new[]` and
/// nothrow forms call it, and its `operator delete` calls `free`, which matches the
/// `malloc` below. Aligned `new` (over-aligned types, which QuickFIX does not use)
/// goes uncounted.
#[cfg(feature = "quickfix")]
mod cpp_new {
    use core::ffi::c_void;
    use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

    /// C++ allocations alone, so `main` can tell that the replacement is linked in.
    pub(crate) static CPP_ALLOCS: AtomicU64 = AtomicU64::new(0);

    unsafe extern "C" {
        fn malloc(size: usize) -> *mut c_void;
    }

    /// `operator new(std::size_t)` (Itanium C++ ABI name `_Znwm`).
    // SAFETY: no other item of the program defines `_Znwm`; the one in libstdc++ is
    // replaceable by definition, so the linker takes this one for the whole program.
    #[unsafe(no_mangle)]
    #[allow(non_snake_case)] // the C++ ABI's name
    extern "C" fn _Znwm(size: usize) -> *mut c_void {
        fix_test_support::alloc::record(size);
        CPP_ALLOCS.fetch_add(1, Relaxed);
        // SAFETY: `malloc` accepts any size; `new` of 0 bytes must still return a
        // unique pointer, hence at least 1.
        let p = unsafe { malloc(size.max(1)) };
        if p.is_null() {
            // C++ would throw `std::bad_alloc`, which cannot cross this function.
            std::process::abort();
        }
        p
    }
}

fn main() {
    let n: u64 = std::env::args()
        .nth(1)
        .map_or(1000, |s| s.parse().expect("iterations is a number"));
    let mut cases = fix_benches::peers::cases();
    #[cfg(feature = "quickfix")]
    assert!(
        cpp_new::CPP_ALLOCS.load(std::sync::atomic::Ordering::Relaxed) > 0,
        "QuickFIX loaded its dictionary without one counted `operator new`: the replacement is not linked in"
    );
    println!("# group\tlib\tallocations per op\tbytes per op\tnote ({n} iterations)");
    for case in &mut cases {
        let (check, counts) = count(|| {
            let mut check = 0u64;
            for _ in 0..n {
                check = check.wrapping_add(std::hint::black_box(case.run()));
            }
            check
        });
        let (a, b) = (counts.allocations, counts.bytes);
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
