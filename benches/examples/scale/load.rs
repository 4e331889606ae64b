//! The load the lane offers, the same for every engine: orders spread
//! round-robin over the sessions, paced at a fixed total rate or pipelined
//! under a window, and the answers' arrival times by order.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;

use crate::measure::Usage;

/// A sending thread's pause while a queue or the window is full.
pub(crate) const BACKOFF: Duration = Duration::from_micros(20);
/// How long a phase may go without an answer before it fails: long enough
/// for a stall of the disk, short enough that a stuck run ends.
pub(crate) const STALL: Duration = Duration::from_secs(30);

/// The NewOrderSingle's fields after ClOrdID (11), the same for every engine.
pub(crate) const ORDER_FIELDS: [(u32, &str); 6] = [
    (21, "1"),
    (55, "EUR/USD"),
    (54, "1"),
    (60, "20260921-14:13:20"),
    (38, "100"),
    (40, "1"),
];

/// The ExecutionReport's fields after ClOrdID (11), copied from the order.
pub(crate) const REPORT_FIELDS: [(u32, &str); 10] = [
    (37, "1"),
    (17, "1"),
    (150, "0"),
    (39, "0"),
    (55, "EUR/USD"),
    (54, "1"),
    (38, "100"),
    (151, "100"),
    (14, "0"),
    (6, "0"),
];

/// Writes `11=<cl_ord_id><SOH>` and then `fields` into `out` (cleared first).
pub(crate) fn body(out: &mut Vec<u8>, cl_ord_id: &[u8], fields: &[(u32, &str)]) {
    use std::io::Write as _;
    out.clear();
    out.extend_from_slice(b"11=");
    out.extend_from_slice(cl_ord_id);
    out.push(0x01);
    for (tag, value) in fields {
        let _ = write!(out, "{tag}={value}\x01");
    }
}

/// How an engine's initiator sends order `index` (ClOrdID = the index) on
/// one of its sessions, waiting (boundedly) while that session's queue is full.
pub(crate) trait Client {
    fn send(&mut self, session: usize, index: u64) -> Result<(), String>;
}

/// When each order's answer arrived, by order index (the ClOrdID), written
/// by the engine's callbacks on whatever thread the engine calls them.
#[derive(Debug)]
pub(crate) struct Tracker {
    epoch: Instant,
    /// Nanoseconds since `epoch`, plus one (0: not arrived).
    arrived: Box<[AtomicU64]>,
    received: AtomicU64,
    /// Answers twice to one order, or to no order sent.
    strays: AtomicU64,
}

impl Tracker {
    pub(crate) fn new(orders: u64) -> Tracker {
        Tracker {
            epoch: Instant::now(),
            arrived: (0..orders).map(|_| AtomicU64::new(0)).collect(),
            received: AtomicU64::new(0),
            strays: AtomicU64::new(0),
        }
    }

    pub(crate) fn now_ns(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// An answer to order `cl_ord_id` arrived now.
    pub(crate) fn record(&self, cl_ord_id: &[u8]) {
        let at = self.now_ns() + 1;
        let slot = std::str::from_utf8(cl_ord_id)
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .and_then(|i| self.arrived.get(i));
        if slot.is_none_or(|s| s.swap(at, Ordering::Relaxed) != 0) {
            self.strays.fetch_add(1, Ordering::Relaxed);
        }
        self.received.fetch_add(1, Ordering::Release);
    }

    pub(crate) fn received(&self) -> u64 {
        self.received.load(Ordering::Acquire)
    }

    /// Waits until `n` answers have arrived; fails, naming how many did,
    /// once none has come for [`STALL`].
    fn wait_for(&self, n: u64, phase: &str) -> Result<(), String> {
        let mut last = (self.received(), Instant::now());
        while self.received() < n {
            std::thread::sleep(Duration::from_micros(100));
            let now = self.received();
            if now != last.0 {
                last = (now, Instant::now());
            } else if last.1.elapsed() > STALL {
                return Err(format!(
                    "{phase}: stuck at {now} of {n} answers (none for {STALL:?})"
                ));
            }
        }
        Ok(())
    }

    /// When order `i`'s answer arrived (ns since the epoch).
    fn arrival(&self, i: u64) -> Result<u64, String> {
        match self.arrived[i as usize].load(Ordering::Relaxed) {
            0 => Err(format!("order {i} was never answered")),
            at => Ok(at - 1),
        }
    }

    /// No answer came twice, none named an order not sent.
    pub(crate) fn check(&self) -> Result<(), String> {
        match self.strays.load(Ordering::Relaxed) {
            0 => Ok(()),
            n => Err(format!("{n} answers twice to an order or to none")),
        }
    }
}

/// Order indices handed out phase by phase, from one tracker's range.
#[derive(Debug)]
pub(crate) struct Orders {
    pub(crate) tracker: std::sync::Arc<Tracker>,
    next: u64,
    sessions: usize,
}

impl Orders {
    pub(crate) fn new(tracker: std::sync::Arc<Tracker>, sessions: usize) -> Orders {
        Orders {
            tracker,
            next: 0,
            sessions,
        }
    }

    /// The session of the `k`th order of a phase: round-robin.
    fn session(&self, k: u64) -> usize {
        (k % self.sessions as u64) as usize
    }

    /// The next `n` indices.
    fn take(&mut self, n: u64) -> std::ops::Range<u64> {
        let r = self.next..self.next + n;
        self.next += n;
        r
    }
}

/// What a timed phase cost the process, beside its own figures.
#[derive(Debug)]
pub(crate) struct Cost {
    pub(crate) seconds: f64,
    pub(crate) cpu_us_per_order: f64,
    pub(crate) syncs_per_s: Option<f64>,
}

/// Measures what running `phase` costs: CPU time over its orders, syncs over
/// its wall time.
fn costed<T>(orders: u64, phase: impl FnOnce() -> Result<T, String>) -> Result<(T, Cost), String> {
    let before = Usage::now();
    let out = phase()?;
    let after = Usage::now();
    let seconds = after.wall.duration_since(before.wall).as_secs_f64();
    let syncs = after.syncs.zip(before.syncs).map(|(a, b)| a - b);
    Ok((
        out,
        Cost {
            seconds,
            cpu_us_per_order: (after.cpu_us - before.cpu_us) as f64 / orders.max(1) as f64,
            syncs_per_s: syncs.map(|s| s as f64 / seconds),
        },
    ))
}

/// Sends `n` orders as fast as the client takes them, at most `window`
/// unanswered, and returns round trips per second (first send to last answer).
pub(crate) fn pipelined(
    client: &mut dyn Client,
    orders: &mut Orders,
    n: u64,
    window: u64,
    phase: &str,
) -> Result<(f64, Cost), String> {
    let range = orders.take(n);
    let t = orders.tracker.clone();
    costed(n, || {
        let start = t.now_ns();
        for (k, i) in range.clone().enumerate() {
            let mut waited = Instant::now();
            let mut seen = t.received();
            while i - seen >= window {
                std::thread::sleep(BACKOFF);
                let now = t.received();
                if now != seen {
                    (seen, waited) = (now, Instant::now());
                } else if waited.elapsed() > STALL {
                    return Err(format!(
                        "{phase}: stuck at {seen} of {} answers, the window full",
                        range.end
                    ));
                }
            }
            client.send(orders.session(k as u64), i)?;
        }
        t.wait_for(range.end, phase)?;
        let mut last = 0;
        for i in range.clone() {
            last = last.max(t.arrival(i)?);
        }
        Ok(n as f64 / ((last - start) as f64 / 1e9))
    })
}

/// The latencies of one paced phase.
#[derive(Debug)]
pub(crate) struct Paced {
    /// Arrival of the report minus the order's due time, ns.
    pub(crate) latency: Histogram<u64>,
    /// The sender's lateness: when it sent an order minus its due time, ns.
    pub(crate) pacer: Histogram<u64>,
}

pub(crate) fn histogram() -> Histogram<u64> {
    // 1 ns to 10 minutes at 3 significant digits.
    Histogram::new_with_bounds(1, 600_000_000_000, 3).expect("valid bounds")
}

/// Offers `rate` orders a second for `seconds`, order `k` due at
/// `start + k / rate` on session `k mod N`, sent from this thread; latency is
/// each report's arrival minus its order's due time, so a send held up
/// (by the sender or a full queue) counts its wait.
pub(crate) fn paced(
    client: &mut dyn Client,
    orders: &mut Orders,
    rate: u64,
    seconds: u64,
) -> Result<(Paced, Cost), String> {
    let n = rate * seconds;
    let range = orders.take(n);
    let t = orders.tracker.clone();
    let phase = format!("paced at {rate}/s");
    costed(n, || {
        let mut pacer = histogram();
        let mut due_at = Vec::with_capacity(n as usize);
        let start = t.now_ns() + 1_000_000;
        let period_ns = 1e9 / rate as f64;
        for (k, i) in range.clone().enumerate() {
            let due = start + (k as f64 * period_ns) as u64;
            let now = t.now_ns();
            if due > now {
                std::thread::sleep(Duration::from_nanos(due - now));
            }
            pacer.saturating_record(t.now_ns().saturating_sub(due).max(1));
            due_at.push(due);
            client.send(orders.session(k as u64), i)?;
        }
        t.wait_for(range.end, &phase)?;
        let mut latency = histogram();
        for (i, due) in range.zip(due_at) {
            latency.saturating_record(t.arrival(i)?.saturating_sub(due).max(1));
        }
        Ok(Paced { latency, pacer })
    })
}
