//! The session's timers, in the manner of quinn-proto's `TimerTable`: each
//! timer's due time is computed here and nowhere else, from the connection's
//! [`Clock`](super::Clock), on the monotonic clock ([`Time::mono`]);
//! [`Session::handle_timeout`] acts on the ones due and
//! [`Session::poll_timeout`] reports the earliest, both reading this table.
//!
//! [`Time::mono`]: crate::time::Time::mono
//! [`Session::handle_timeout`]: super::Session::handle_timeout
//! [`Session::poll_timeout`]: super::Session::poll_timeout

use std::time::Duration;

use super::{Connection, State};

/// Silence, in tenths of HeartBtInt, after which the counterparty is sent a
/// TestRequest (1.2 intervals), and again after each unanswered one.
const TEST_REQUEST_TENTHS: u32 = 12;

/// Silence, in tenths of HeartBtInt, after which the connection ends (2.4
/// intervals: the second TestRequest is never sent).
const SILENCE_TENTHS: u32 = 24;

/// What a connection waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Timer {
    /// LogonTimeout, or LogoutTimeout: the Logon, or the answer to our
    /// Logout, has not come; the connection ends.
    Deadline,
    /// Nothing heard for 2.4 HeartBtInt: the connection ends.
    Silence,
    /// Nothing heard for 1.2 HeartBtInt (1.2 more after each TestRequest): a
    /// TestRequest.
    TestRequest,
    /// Nothing sent for one HeartBtInt, and no TestRequest unanswered: a
    /// Heartbeat.
    Heartbeat,
}

impl Timer {
    /// Every timer, in the order their work is done when several are due:
    /// those that end the connection first, and one message at most.
    const ALL: [Timer; 4] = [
        Timer::Deadline,
        Timer::Silence,
        Timer::TestRequest,
        Timer::Heartbeat,
    ];
}

impl Connection {
    /// When `timer` is due, on the monotonic clock; `None` when it is not
    /// running. The heartbeat timers run once logged on with a HeartBtInt.
    /// HeartBtInt is bounded (`MAX_HEART_BT_INT`) and so is the number of
    /// TestRequests, but a caller's clock may be anywhere: a sum past the
    /// end of time is no deadline.
    pub(super) fn due(&self, timer: Timer) -> Option<Duration> {
        let c = &self.clock;
        let hb = c.heartbeat;
        if timer != Timer::Deadline && (self.state != State::LoggedOn || hb.is_zero()) {
            return None;
        }
        let after = |from: Duration, tenths: u32| {
            hb.checked_mul(tenths)
                .map(|d| d / 10)
                .and_then(|d| from.checked_add(d))
        };
        match timer {
            Timer::Deadline => c.deadline,
            Timer::Silence => after(c.last_received, SILENCE_TENTHS),
            Timer::TestRequest => after(
                c.last_received,
                TEST_REQUEST_TENTHS.saturating_mul(c.test_requests + 1),
            ),
            Timer::Heartbeat if c.test_requests == 0 => c.last_sent.checked_add(hb),
            Timer::Heartbeat => None,
        }
    }

    /// The first timer (in [`Timer::ALL`]'s order) due by `mono`.
    pub(super) fn expired(&self, mono: Duration) -> Option<Timer> {
        Timer::ALL
            .into_iter()
            .find(|&t| self.due(t).is_some_and(|due| mono >= due))
    }

    /// The earliest time any timer is due.
    pub(super) fn next_due(&self) -> Option<Duration> {
        Timer::ALL.into_iter().filter_map(|t| self.due(t)).min()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(n: u64) -> Duration {
        Duration::from_secs(n)
    }

    #[test]
    fn heartbeat_timers_run_once_logged_on_at_1_and_1_2_and_2_4_intervals() {
        let mut c = Connection::new(State::AwaitingLogon, secs(100), Some(secs(110)));
        c.clock.heartbeat = secs(30);
        // Before the Logon only its deadline runs.
        assert_eq!(c.due(Timer::Heartbeat), None);
        assert_eq!(c.next_due(), Some(secs(110)));
        assert_eq!(c.expired(secs(110)), Some(Timer::Deadline));
        c.state = State::LoggedOn;
        c.clock.deadline = None;
        assert_eq!(c.due(Timer::Heartbeat), Some(secs(130)));
        assert_eq!(c.due(Timer::TestRequest), Some(secs(136)));
        assert_eq!(c.due(Timer::Silence), Some(secs(172)));
        assert_eq!(c.next_due(), Some(secs(130)));
        assert_eq!(c.expired(secs(129)), None);
        assert_eq!(c.expired(secs(135)), Some(Timer::Heartbeat));
        assert_eq!(c.expired(secs(136)), Some(Timer::TestRequest));
        // A TestRequest out: no Heartbeat; the next one 1.2 intervals on.
        c.clock.test_requests = 1;
        assert_eq!(c.due(Timer::Heartbeat), None);
        assert_eq!(c.due(Timer::TestRequest), Some(secs(172)));
        assert_eq!(c.expired(secs(172)), Some(Timer::Silence));
        // A sum past the end of time is no deadline.
        c.clock.last_received = Duration::MAX;
        c.clock.last_sent = Duration::MAX;
        assert_eq!(c.next_due(), None);
    }
}
