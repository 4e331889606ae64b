//! A bound on what many sessions hold together: [`MemoryBudget`].

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Bytes that the sessions sharing it may hold at once, together, of what
/// their peers make them hold (messages queued above a gap, and, for an
/// engine, output a peer does not read). Each session's own bound
/// ([`SessionConfig::max_queued_bytes`](crate::SessionConfig::max_queued_bytes))
/// still holds; this one keeps a thousand sessions from holding a thousand
/// times it. Clones share the budget.
///
/// ```
/// use fix_session::MemoryBudget;
/// let budget = MemoryBudget::new(1000);
/// assert!(budget.try_take(600));
/// assert!(!budget.clone().try_take(600)); // 1,200 would pass the limit
/// budget.give_back(600);
/// assert_eq!(budget.held(), 0);
/// ```
#[derive(Clone)]
pub struct MemoryBudget {
    inner: Arc<Inner>,
}

struct Inner {
    limit: usize,
    held: AtomicUsize,
}

impl MemoryBudget {
    /// A budget of `limit` bytes.
    pub fn new(limit: usize) -> Self {
        MemoryBudget {
            inner: Arc::new(Inner {
                limit,
                held: AtomicUsize::new(0),
            }),
        }
    }

    /// Takes `n` bytes, unless that would pass the limit (then nothing).
    pub fn try_take(&self, n: usize) -> bool {
        self.inner
            .held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                held.checked_add(n).filter(|&h| h <= self.inner.limit)
            })
            .is_ok()
    }

    /// Takes `n` bytes whatever the limit: for what is held already (output
    /// made), so that [`over`](Self::over) tells the holders to stop making more.
    pub fn take(&self, n: usize) {
        self.inner.held.fetch_add(n, Ordering::AcqRel);
    }

    /// Whether more than the limit is held.
    pub fn over(&self) -> bool {
        self.held() > self.inner.limit
    }

    /// Gives back `n` bytes taken before.
    pub fn give_back(&self, n: usize) {
        let _ = self
            .inner
            .held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |held| {
                Some(held.saturating_sub(n))
            });
    }

    /// Bytes held now, by every session sharing the budget.
    pub fn held(&self) -> usize {
        self.inner.held.load(Ordering::Acquire)
    }

    /// The limit.
    pub fn limit(&self) -> usize {
        self.inner.limit
    }
}

impl fmt::Debug for MemoryBudget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MemoryBudget")
            .field("limit", &self.inner.limit)
            .field("held", &self.held())
            .finish()
    }
}
