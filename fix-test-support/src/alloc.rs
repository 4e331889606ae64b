//! A counting global allocator: how many allocations (and bytes) a closure makes
//! on the calling thread.
//!
//! A test binary installs it once and asks per closure:
//!
//! ```
//! use fix_test_support::alloc::{Counting, allocations_during};
//!
//! #[global_allocator]
//! static GLOBAL: Counting = Counting;
//!
//! assert_eq!(allocations_during(|| { let _ = 1 + 1; }), 0);
//! assert_eq!(allocations_during(|| drop(vec![1u8; 10])), 1);
//! ```
//!
//! Counters are per thread: the other tests of a binary run on other threads and
//! do not disturb the count. A count is taken only inside [`count`] (or
//! [`allocations_during`]), so the allocator costs one thread-local read elsewhere.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// The counting allocator: forwards every call to [`System`], counting
/// allocations and reallocations made on a thread inside [`count`].
///
/// ```
/// #[global_allocator]
/// static GLOBAL: fix_test_support::alloc::Counting = fix_test_support::alloc::Counting;
/// ```
#[derive(Debug)]
pub struct Counting;

/// What [`count`] saw: allocations (reallocations included) and the bytes they
/// asked for.
///
/// ```
/// let c = fix_test_support::alloc::Counts::default();
/// assert_eq!((c.allocations, c.bytes), (0, 0));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Calls to `alloc`, `alloc_zeroed` and `realloc`.
    pub allocations: u64,
    /// The sizes those calls asked for.
    pub bytes: u64,
}

thread_local! {
    // Const-initialised and without destructors: touching them never allocates.
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    static COUNTS: Cell<Counts> = const { Cell::new(Counts { allocations: 0, bytes: 0 }) };
}

/// Adds one allocation of `bytes` to this thread's count, if it is counting: what
/// [`Counting`] does on every allocation, for allocators it does not see (a C++
/// library's `operator new`, say).
///
/// ```
/// use fix_test_support::alloc::{count, record};
/// let ((), c) = count(|| record(24));
/// assert_eq!((c.allocations, c.bytes), (1, 24));
/// ```
#[inline]
pub fn record(bytes: usize) {
    // `try_with`: the thread-locals may be gone while a thread shuts down.
    let _ = TRACKING.try_with(|t| {
        if t.get() {
            let _ = COUNTS.try_with(|c| {
                let mut n = c.get();
                n.allocations += 1;
                n.bytes += bytes as u64;
                c.set(n);
            });
        }
    });
}

/// Runs `f`, counting the allocations it makes on this thread.
///
/// ```
/// let (v, c) = fix_test_support::alloc::count(|| vec![0u8; 3]);
/// assert_eq!(v.len(), 3);
/// # let _ = c;
/// ```
pub fn count<R>(f: impl FnOnce() -> R) -> (R, Counts) {
    let outer = TRACKING.with(|t| t.replace(true));
    let before = COUNTS.with(Cell::get);
    let r = f();
    let after = COUNTS.with(Cell::get);
    TRACKING.with(|t| t.set(outer));
    let counts = Counts {
        allocations: after.allocations - before.allocations,
        bytes: after.bytes - before.bytes,
    };
    (r, counts)
}

/// How many allocations `f` makes on this thread.
///
/// ```
/// assert_eq!(fix_test_support::alloc::allocations_during(|| ()), 0);
/// ```
pub fn allocations_during(f: impl FnOnce()) -> usize {
    count(f).1.allocations as usize
}

// SAFETY: every call is forwarded unchanged to `System`, which upholds the
// `GlobalAlloc` contract; the counting touches only const-initialised
// thread-locals without destructors, which neither allocate nor re-enter us.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: the caller's contract for `alloc` is the one `System::alloc` needs.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System` through this allocator.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        record(new_size);
        // SAFETY: forwarded with the caller's guarantees for `realloc`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}
