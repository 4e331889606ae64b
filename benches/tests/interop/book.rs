//! What one side's application saw, written from the engines' threads and waited
//! on by the test's: orders and reports by ClOrdID, Logons, Logouts, Rejects.

use std::collections::HashMap;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// One ExecutionReport as the application was handed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// Its MsgSeqNum (34).
    pub(crate) seq: u64,
    /// PossDupFlag (43) = Y: a resent copy.
    pub(crate) poss_dup: bool,
}

/// A moment of the session, for the stall figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// With the orders sent and not yet answered at that moment.
    Logon {
        outstanding: u64,
    },
    Logout,
    /// A report; `resent`: PossDupFlag=Y.
    Report {
        resent: bool,
    },
}

/// Everything a side's application was handed.
#[derive(Default)]
pub(crate) struct Seen {
    /// NewOrderSingles, by ClOrdID: how many times each was handed over.
    pub(crate) orders: HashMap<String, u32>,
    /// ExecutionReports, by ClOrdID, in arrival order.
    pub(crate) reports: HashMap<String, Vec<Report>>,
    /// ExecutionReports that were not resent (PossDupFlag not Y) since the
    /// last Logon.
    pub(crate) new_since_logon: u64,
    /// Session-level Rejects (35=3) and BusinessMessageRejects (35=j), as text.
    pub(crate) rejects: Vec<String>,
    /// What the application failed to do (an answer it could not send).
    pub(crate) errors: Vec<String>,
    pub(crate) logons: u32,
    pub(crate) logouts: u32,
    /// Logouts from a standby of ours naming why (the session is active on
    /// another engine).
    pub(crate) standby_logouts: u32,
    /// Orders this side's sender has handed its engine.
    pub(crate) sent: u64,
    /// Logons, Logouts and reports in the order they came, with when.
    pub(crate) timeline: Vec<(Instant, Mark)>,
    /// When each ClOrdID's first report came.
    pub(crate) first_report: HashMap<String, Instant>,
}

impl Seen {
    /// Distinct ClOrdIDs answered.
    pub(crate) fn answered(&self) -> u64 {
        self.reports.len() as u64
    }

    /// Whether every one of `ids` has a report.
    pub(crate) fn answered_all<'a>(&self, mut ids: impl Iterator<Item = &'a String>) -> bool {
        ids.all(|id| self.reports.contains_key(id))
    }

    fn summary(&self) -> String {
        format!(
            "{} orders handed over, {} ClOrdIDs answered, {} sent, {} Logons, {} Logouts, \
             rejects {:?}, errors {:?}",
            self.orders.len(),
            self.reports.len(),
            self.sent,
            self.logons,
            self.logouts,
            self.rejects,
            self.errors
        )
    }
}

/// One side's [`Seen`], behind a lock, with a condition variable for waiters.
pub(crate) struct Book {
    name: &'static str,
    seen: Mutex<Seen>,
    changed: Condvar,
}

impl Book {
    pub(crate) fn new(name: &'static str) -> Book {
        Book {
            name,
            seen: Mutex::new(Seen::default()),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Seen> {
        // A panicking test thread leaves the counts as they were: still true.
        self.seen.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn update(&self, f: impl FnOnce(&mut Seen)) {
        f(&mut self.lock());
        self.changed.notify_all();
    }

    pub(crate) fn order(&self, cl_ord_id: &str) {
        self.update(|s| *s.orders.entry(cl_ord_id.to_owned()).or_default() += 1);
    }

    pub(crate) fn report(&self, cl_ord_id: &str, report: Report) {
        let now = Instant::now();
        self.update(|s| {
            s.reports
                .entry(cl_ord_id.to_owned())
                .or_default()
                .push(report);
            s.new_since_logon += u64::from(!report.poss_dup);
            s.first_report.entry(cl_ord_id.to_owned()).or_insert(now);
            s.timeline.push((
                now,
                Mark::Report {
                    resent: report.poss_dup,
                },
            ));
        });
    }

    pub(crate) fn reject(&self, text: String) {
        self.update(|s| s.rejects.push(text));
    }

    pub(crate) fn error(&self, text: String) {
        self.update(|s| s.errors.push(text));
    }

    pub(crate) fn logon(&self) {
        let now = Instant::now();
        self.update(|s| {
            s.logons += 1;
            s.new_since_logon = 0;
            let outstanding = s.sent.saturating_sub(s.answered());
            s.timeline.push((now, Mark::Logon { outstanding }));
        });
    }

    pub(crate) fn logout(&self) {
        let now = Instant::now();
        self.update(|s| {
            s.logouts += 1;
            s.timeline.push((now, Mark::Logout));
        });
    }

    pub(crate) fn standby_logout(&self) {
        self.update(|s| s.standby_logouts += 1);
    }

    pub(crate) fn sent(&self) {
        self.update(|s| s.sent += 1);
    }

    /// Reads the counts.
    pub(crate) fn with<R>(&self, f: impl FnOnce(&Seen) -> R) -> R {
        f(&self.lock())
    }

    /// Waits until `done` holds, at most `timeout`; the error names `what`,
    /// this side and its counts.
    pub(crate) fn wait(
        &self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&Seen) -> bool,
    ) -> Result<(), String> {
        let deadline = Instant::now() + timeout;
        let mut seen = self.lock();
        while !done(&seen) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(format!(
                    "{}: {what}: not within {timeout:?} ({})",
                    self.name,
                    seen.summary()
                ));
            }
            seen = self
                .changed
                .wait_timeout(seen, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        Ok(())
    }
}
