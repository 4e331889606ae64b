//! The outgoing throttle ([`SessionConfig::max_app_messages_per_sec`]): at
//! most `N` application messages in any second, on the monotonic clock.
//!
//! A sliding window, not a token bucket: a bucket of `N` tokens refilled at
//! `N` a second lets `2N - 1` messages through in some second (a full bucket
//! spent, then a second's refill), which is what a venue's "N messages per
//! second" forbids. The window keeps the send times of the newest `N`
//! application messages: another may go once the oldest of them is a second
//! old. So `N` go at once (the burst is the rate), and over a long run exactly
//! `N` a second.
//!
//! Memory: the times of at most `N` messages, and none older than a second
//! when the next is recorded, so a session holds the times of the messages it
//! sent in the last second, at most; the buffer grows to that once and is
//! reused (nothing is allocated per message in the steady state).
//!
//! [`SessionConfig::max_app_messages_per_sec`]: crate::SessionConfig::max_app_messages_per_sec

use std::collections::VecDeque;
use std::num::NonZeroU32;
use std::time::Duration;

/// The window's length.
const SECOND: Duration = Duration::from_secs(1);

/// When the newest application messages were sent.
#[derive(Debug)]
pub(super) struct Throttle {
    /// At most this many in any second.
    limit: usize,
    /// The send times (monotonic) of the newest messages, oldest first: at
    /// most `limit` of them. Only the `limit`-th newest decides anything.
    sent: VecDeque<Duration>,
}

impl Throttle {
    /// The throttle of `limit` messages a second.
    pub(super) fn new(limit: NonZeroU32) -> Throttle {
        Throttle {
            limit: usize::try_from(limit.get()).unwrap_or(usize::MAX),
            sent: VecDeque::new(),
        }
    }

    /// How many application messages may go at `now`: the limit less those
    /// sent within the second before it.
    pub(super) fn allowance(&self, now: Duration) -> usize {
        let expired = self
            .sent
            .partition_point(|&at| now.saturating_sub(at) >= SECOND);
        self.limit.saturating_sub(self.sent.len() - expired)
    }

    /// From when the next application message may go: a second after the
    /// `limit`-th newest was sent; `None` while fewer were sent (one may go
    /// at any time). It may be in the past: one may go now.
    pub(super) fn next_at(&self) -> Option<Duration> {
        let oldest = self.sent.len().checked_sub(self.limit)?;
        self.sent[oldest].checked_add(SECOND)
    }

    /// An application message went at `now` (counted even when over the
    /// limit: an answer from a callback, which cannot be held, delays the
    /// next sends instead).
    pub(super) fn record(&mut self, now: Duration) {
        while self.sent.len() >= self.limit
            || self
                .sent
                .front()
                .is_some_and(|&at| now.saturating_sub(at) >= SECOND)
        {
            self.sent.pop_front();
        }
        // The monotonic clock never goes back; were a caller's to, the
        // times stay in order.
        let at = self.sent.back().map_or(now, |&last| now.max(last));
        self.sent.push_back(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn at_most_the_limit_in_any_second() {
        let mut t = Throttle::new(NonZeroU32::new(3).unwrap());
        assert_eq!((t.allowance(ms(0)), t.next_at()), (3, None));
        t.record(ms(0));
        t.record(ms(100));
        assert_eq!((t.allowance(ms(100)), t.next_at()), (1, None));
        t.record(ms(500));
        assert_eq!(t.allowance(ms(500)), 0);
        assert_eq!(t.allowance(ms(999)), 0);
        assert_eq!(t.next_at(), Some(ms(1000)));
        // The first leaves the window a second after it went.
        assert_eq!(t.allowance(ms(1000)), 1);
        assert_eq!(t.allowance(ms(1100)), 2);
        assert_eq!(t.allowance(ms(1500)), 3);
        t.record(ms(1000));
        assert_eq!((t.allowance(ms(1000)), t.next_at()), (0, Some(ms(1100))));
    }

    #[test]
    fn sends_over_the_limit_delay_the_next() {
        let mut t = Throttle::new(NonZeroU32::new(2).unwrap());
        for at in [0, 10, 20, 30] {
            t.record(ms(at));
        }
        // Four in the window: none may go until the second newest is a second old.
        assert_eq!(t.allowance(ms(500)), 0);
        assert_eq!(t.next_at(), Some(ms(1020)));
        assert_eq!(t.allowance(ms(1020)), 1);
        assert_eq!(t.sent.len(), 2, "only the newest `limit` are kept");
        // Old times are dropped as new ones come.
        t.record(ms(5000));
        assert_eq!(t.sent.len(), 1);
        assert_eq!(t.allowance(ms(5000)), 1);
    }
}
