//! The engine race (issue 15): our engine and, with the `quickfix` feature, QuickFIX
//! C++ run the same test in this process, over 127.0.0.1, each phase one engine
//! after the other.
//!
//! An initiator sends NewOrderSingles (ClOrdID = the order's index); the acceptor
//! answers each with an ExecutionReport carrying the same ClOrdID, by which the
//! initiator matches it. File stores on both sides, synced by the system (no fsync
//! or msync per message), no message log, every message validated against FIX 4.4.
//!
//! ```sh
//! cargo run --profile bench -p fix-benches --example race
//! cargo run --profile bench -p fix-benches --features quickfix --example race -- 100000 5000 5
//! ```
//!
//! Arguments: pipelined orders (default 100000), offered rate per second (5000),
//! seconds at that rate (5). Phases per engine:
//!
//! 1. warm-up: [`WARMUP`] orders, pipelined, not reported;
//! 2. pipelined: the orders sent as fast as the engine takes them, at most
//!    [`WINDOW`] unanswered, by each engine's natural sender ([`Client::pipelined`]);
//!    round trips per second from the first send to the last report;
//! 3. latency: orders offered at the fixed rate, order `k` due at `start + k / rate`,
//!    in rounds of one second that the engines take in turn (both engines are up
//!    throughout, so a burst of load from elsewhere falls on both alike);
//!    sent from this thread for both engines; its latency is its report's
//!    arrival minus its due time (corrected for
//!    coordinated omission: an order sent late because the sender was held up
//!    counts the wait), in an HDR histogram.
//!
//! Then, ours only, one-way: [`ONE_WAY`] orders into one session with memory
//! stores, counted by the acceptor (what `fix-engine`'s loopback example measures).
//!
//! `FIX_RACE_PG_PARAMS` adds connection parameters to the PostgreSQL lane's
//! stores, for diagnosis (`options='-c synchronous_commit=off'`: the lane
//! without its commits' WAL flushes, which makes it not durable).
//!
//! Prints tab-separated lines `subject<TAB>key<TAB>value` for `cargo xtask
//! bench-report`: subject `run` for the conditions, else the engine's name.

mod ours;
#[cfg(feature = "quickfix")]
mod quickfix_cpp;

use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use tokio::sync::Notify;

/// Orders each engine runs before anything is timed.
const WARMUP: u64 = 5_000;
/// Unanswered orders at most in the pipelined phase: the bound on what either
/// side's buffers hold (QuickFIX's send queue is unbounded).
const WINDOW: u64 = 10_000;
/// Orders of the one-way phase.
const ONE_WAY: u64 = 1_000_000;
/// A sending thread's pause while its window is full.
const BACKOFF: Duration = Duration::from_micros(20);
/// Syncs timed to measure this machine's sync time, after the race.
const SYNC_PROBES: usize = 500;
/// How long a phase may wait for its last report.
const PHASE_TIMEOUT: Duration = Duration::from_secs(120);

/// The NewOrderSingle's fields after ClOrdID (11), the same for both engines.
pub(crate) const ORDER_FIELDS: [(u32, &str); 6] = [
    (21, "1"),
    (55, "EUR/USD"),
    (54, "1"),
    (60, "20260921-14:13:20"),
    (38, "100"),
    (40, "1"),
];

/// The ExecutionReport's fields after ClOrdID (11), copied from the order: QuickFIX's
/// side answers with these; ours with the same values through fix44's builder.
#[cfg(feature = "quickfix")]
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
    out.clear();
    out.extend_from_slice(b"11=");
    out.extend_from_slice(cl_ord_id);
    out.push(0x01);
    for (tag, value) in fields {
        push_number(out, u64::from(*tag));
        out.push(b'=');
        out.extend_from_slice(value.as_bytes());
        out.push(0x01);
    }
}

/// Appends the decimal digits of `n`.
pub(crate) fn push_number(out: &mut Vec<u8>, n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}

/// When each order's answer arrived, by order index (the ClOrdID), written by the
/// engine's callback on whatever thread the engine calls it.
pub(crate) struct Tracker {
    epoch: Instant,
    /// Nanoseconds since `epoch`, plus one (0: not arrived).
    arrived: Box<[AtomicU64]>,
    received: AtomicU64,
    /// Woken at each answer, for a sender waiting for room in its window.
    pub(crate) answered: Notify,
    duplicates: AtomicU64,
    unknown: AtomicU64,
}

impl Tracker {
    pub(crate) fn new(orders: u64) -> Tracker {
        Tracker {
            epoch: Instant::now(),
            arrived: (0..orders).map(|_| AtomicU64::new(0)).collect(),
            received: AtomicU64::new(0),
            answered: Notify::new(),
            duplicates: AtomicU64::new(0),
            unknown: AtomicU64::new(0),
        }
    }

    fn now_ns(&self) -> u64 {
        self.epoch.elapsed().as_nanos() as u64
    }

    /// An answer to order `cl_ord_id` arrived now.
    pub(crate) fn record(&self, cl_ord_id: &[u8]) {
        let at = self.now_ns() + 1;
        let slot = std::str::from_utf8(cl_ord_id)
            .ok()
            .and_then(|s| s.parse::<usize>().ok())
            .and_then(|i| self.arrived.get(i));
        match slot {
            Some(slot) => {
                if slot.swap(at, Ordering::Relaxed) != 0 {
                    self.duplicates.fetch_add(1, Ordering::Relaxed);
                }
            }
            None => {
                self.unknown.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.received.fetch_add(1, Ordering::Release);
        self.answered.notify_one();
    }

    pub(crate) fn received(&self) -> u64 {
        self.received.load(Ordering::Acquire)
    }

    /// Waits until `n` answers have arrived.
    fn wait_for(&self, n: u64) -> Result<(), String> {
        let deadline = Instant::now() + PHASE_TIMEOUT;
        while self.received() < n {
            if Instant::now() > deadline {
                return Err(format!(
                    "{} of {n} answers after {PHASE_TIMEOUT:?}",
                    self.received()
                ));
            }
            std::thread::sleep(Duration::from_micros(100));
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
    fn check(&self) -> Result<(), String> {
        let (d, u) = (
            self.duplicates.load(Ordering::Relaxed),
            self.unknown.load(Ordering::Relaxed),
        );
        if d + u > 0 {
            return Err(format!(
                "{d} orders answered twice, {u} answers to no order"
            ));
        }
        Ok(())
    }
}

/// How each engine's initiator sends order `index` (ClOrdID = the index),
/// waiting while its queue is full.
pub(crate) trait Client {
    fn send(&mut self, index: u64) -> Result<(), String>;

    /// Sends the orders of `range` as fast as the engine takes them, at most
    /// `window` unanswered (every earlier order answered already). By default
    /// from this thread, pausing while the window is full; an engine whose
    /// natural sender is a task on its own runtime sends from there.
    fn pipelined(
        &mut self,
        t: &Arc<Tracker>,
        range: Range<u64>,
        window: Option<u64>,
    ) -> Result<(), String> {
        for i in range {
            while window.is_some_and(|w| i - t.received() >= w) {
                std::thread::sleep(BACKOFF);
            }
            self.send(i)?;
        }
        Ok(())
    }
}

/// What the race asks of each engine.
#[derive(Clone, Copy)]
struct Plan {
    pipelined: u64,
    rate: u64,
    seconds: u64,
}

impl Plan {
    fn latency_orders(&self) -> u64 {
        self.rate * self.seconds
    }

    /// Every order index one engine's run uses.
    fn orders(&self) -> u64 {
        WARMUP + self.pipelined + self.latency_orders()
    }
}

/// One engine's figures.
pub(crate) struct Figures {
    round_trips_per_s: f64,
    pipelined_seconds: f64,
    /// Arrival of the report minus the order's due time, ns.
    latency: Histogram<u64>,
    /// The sender's lateness: when it sent an order minus its due time, ns.
    pacer: Histogram<u64>,
    /// Arrival of the report minus when the order was sent, ns: not corrected
    /// for coordinated omission, shown to tell the engine's part from the sender's.
    from_send: Histogram<u64>,
}

fn histogram() -> Histogram<u64> {
    // 1 ns to 10 minutes at 3 significant digits.
    Histogram::new_with_bounds(1, 600_000_000_000, 3).expect("valid bounds")
}

/// Sends `range` as fast as the client takes them, at most [`WINDOW`] unanswered,
/// and returns the time from the first send to the last answer.
fn pipelined(client: &mut dyn Client, t: &Arc<Tracker>, range: Range<u64>) -> Result<f64, String> {
    let start = t.now_ns();
    client.pipelined(t, range.clone(), Some(WINDOW))?;
    t.wait_for(range.end)?;
    let mut last = 0;
    for i in range {
        last = last.max(t.arrival(i)?);
    }
    Ok((last - start) as f64 / 1e9)
}

/// One engine in the race: its sender, its answers, what it measured so far.
pub(crate) struct Lane<'a> {
    pub(crate) name: &'static str,
    pub(crate) client: &'a mut dyn Client,
    pub(crate) tracker: Arc<Tracker>,
}

/// Runs the warm-up and the pipelined phase of each lane in turn, then the
/// latency phase in rounds of one second, each lane's round after the other's:
/// the machine's load over those seconds falls on every lane alike.
fn race(lanes: &mut [Lane<'_>], plan: Plan) -> Result<Vec<Figures>, String> {
    let mut seconds = Vec::new();
    for lane in lanes.iter_mut() {
        pipelined(lane.client, &lane.tracker, 0..WARMUP)?;
        let range = WARMUP..WARMUP + plan.pipelined;
        seconds.push(pipelined(lane.client, &lane.tracker, range)?);
    }
    let base = WARMUP + plan.pipelined;
    let period_ns = 1e9 / plan.rate as f64;
    // Per lane: the sender's lateness, and (order, due, sent) of every order.
    let mut pacers: Vec<Histogram<u64>> = lanes.iter().map(|_| histogram()).collect();
    let mut offered: Vec<Vec<(u64, u64, u64)>> = lanes
        .iter()
        .map(|_| Vec::with_capacity(plan.latency_orders() as usize))
        .collect();
    for round in 0..plan.seconds {
        for (l, lane) in lanes.iter_mut().enumerate() {
            let t = &lane.tracker;
            let start = t.now_ns() + 1_000_000;
            for k in 0..plan.rate {
                let due = start + (k as f64 * period_ns) as u64;
                let now = t.now_ns();
                if due > now {
                    std::thread::sleep(Duration::from_nanos(due - now));
                }
                let now = t.now_ns();
                pacers[l].saturating_record(now.saturating_sub(due).max(1));
                let i = base + round * plan.rate + k;
                offered[l].push((i, due, now));
                lane.client.send(i)?;
            }
            // The round ends with its answers, so that the next lane's round
            // does not share the machine with this one's tail.
            t.wait_for(base + (round + 1) * plan.rate)?;
        }
    }
    let mut figures = Vec::new();
    for (((lane, pacer), offered), pipelined_seconds) in
        lanes.iter().zip(pacers).zip(offered).zip(seconds)
    {
        let t = &lane.tracker;
        let mut latency = histogram();
        let mut from_send = histogram();
        for (i, due, sent) in offered {
            let at = t.arrival(i)?;
            latency.saturating_record(at.saturating_sub(due).max(1));
            from_send.saturating_record(at.saturating_sub(sent).max(1));
        }
        t.check()?;
        figures.push(Figures {
            round_trips_per_s: plan.pipelined as f64 / pipelined_seconds,
            pipelined_seconds,
            latency,
            pacer,
            from_send,
        });
    }
    Ok(figures)
}

/// Races `lanes` and prints each one's figures.
fn report(lanes: &mut [Lane<'_>], plan: Plan) -> Result<(), String> {
    let figures = race(lanes, plan)?;
    for (lane, f) in lanes.iter().zip(&figures) {
        print_figures(lane.name, f);
    }
    Ok(())
}

fn print_figures(engine: &str, f: &Figures) {
    let us = |ns: u64| ns as f64 / 1000.0;
    let rows = [
        ("pipelined_round_trips_per_s", f.round_trips_per_s),
        ("pipelined_seconds", f.pipelined_seconds),
        ("latency_p50_us", us(f.latency.value_at_quantile(0.50))),
        ("latency_p99_us", us(f.latency.value_at_quantile(0.99))),
        ("latency_p99.9_us", us(f.latency.value_at_quantile(0.999))),
        ("latency_max_us", us(f.latency.max())),
        ("latency_mean_us", f.latency.mean() / 1000.0),
        ("pacer_p50_us", us(f.pacer.value_at_quantile(0.50))),
        ("pacer_p99_us", us(f.pacer.value_at_quantile(0.99))),
        ("pacer_max_us", us(f.pacer.max())),
        ("from_send_p50_us", us(f.from_send.value_at_quantile(0.50))),
        ("from_send_p99_us", us(f.from_send.value_at_quantile(0.99))),
        (
            "from_send_p99.9_us",
            us(f.from_send.value_at_quantile(0.999)),
        ),
    ];
    for (key, value) in rows {
        println!("{engine}\t{key}\t{value:.1}");
    }
}

/// A fresh, empty directory for a store.
fn store_dir(root: &Path, name: &str) -> Result<PathBuf, String> {
    let dir = root.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}

/// Asks the kernel for the shortest sleep overshoot on the main thread, the
/// sender's (`/proc/self/timerslack_ns` is the main thread's): the default 50 µs
/// timer slack would make every paced order late by about that much, for both
/// engines alike.
fn tighten_timer_slack() -> String {
    match std::fs::write("/proc/self/timerslack_ns", "1") {
        Ok(()) => "1 ns".to_owned(),
        Err(e) => format!("the default (could not set it: {e})"),
    }
}

/// The machine's CPU time so far, from `/proc/stat`: (stolen by the hypervisor,
/// all), in clock ticks.
fn cpu_ticks() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let ticks: Vec<u64> = stat
        .lines()
        .next()?
        .strip_prefix("cpu ")?
        .split_whitespace()
        .map(|v| v.parse().ok())
        .collect::<Option<_>>()?;
    // user nice system idle iowait irq softirq steal guest guest_nice: the
    // guest times are inside user and nice already.
    Some((*ticks.get(7)?, ticks.iter().take(8).sum()))
}

fn arg(n: usize, default: u64) -> Result<u64, String> {
    match std::env::args().nth(n) {
        None => Ok(default),
        Some(a) => match a.parse() {
            Ok(v) if v > 0 => Ok(v),
            _ => Err(format!("argument {n}: `{a}` is not a positive number")),
        },
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("race: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let plan = Plan {
        pipelined: arg(1, 100_000)?,
        rate: arg(2, 5_000)?,
        seconds: arg(3, 5)?,
    };
    let slack = tighten_timer_slack();
    let root = std::env::temp_dir().join(format!("fix-race-{}", std::process::id()));
    // A private PostgreSQL server (initdb into a temporary directory, a Unix
    // socket) for the PostgreSQL lane; without one the lane is left out.
    let postgres = match fix_test_support::pg::PgServer::start("race") {
        Ok(pg) => Some(pg),
        Err(why) => {
            println!("run	postgres	not in this run: {why}");
            None
        }
    };
    let conditions = [
        "both engines in one process over 127.0.0.1, up together, their phases one after the other (the latency phase in alternating rounds), TCP_NODELAY on; each side's engine on a thread of its own (ours: a current-thread tokio runtime each; QuickFIX: SocketAcceptor and SocketInitiator, single-threaded kind)".to_owned(),
        "who sends: paced orders from a third thread for both engines, each writing to the socket from that thread (ours: SessionHandle::send_now; QuickFIX: Session::sendToTarget); pipelined orders, for ours from a task on the initiator's runtime (SessionHandle::send, whose queue the connection task takes whole; yielding while it is full), for QuickFIX from that third thread (sendToTarget)".to_owned(),
        "an initiator sends NewOrderSingles (ClOrdID = the order's index, 6 more fields), the acceptor answers each with an ExecutionReport (ClOrdID copied, 10 more fields), matched to its order by ClOrdID".to_owned(),
        format!("file store on both sides, synced by the system, never per message (ours: FileStoreSync=N, SyncPolicy::Os; QuickFIX's FileStore writes and fflushes each message, no fsync), in fresh directories under {}", std::env::temp_dir().display()),
        format!("{}: the same engine with its default store, FileStoreSync=Y: every message durable before its bytes leave, by group commit (the engine's shared log: one direct write and one fdatasync cover what all its connections stored since the last, overlapped with their next reads); both sides", ours::NAME_DURABLE),
        format!("{}: the same engine with its PostgreSQL store on both sides (a local server on a Unix socket, fsync and synchronous_commit on): every message committed before its bytes leave, one statement and one commit a batch, fenced by a lease", ours::NAME_POSTGRES),
        format!("sync time: the median of {SYNC_PROBES} syncs of our file store (a 200-byte message stored, then synced), measured after the race on the same disk"),
        "no message log (QuickFIX: a log factory whose callbacks do nothing, the crate's NullLogger)".to_owned(),
        "every message validated against FIX 4.4 on both sides (ours: fix44's generated tables; QuickFIX: UseDataDictionary=Y with spec/FIX44.xml, the file fix44 is generated from)".to_owned(),
        format!("warm-up: {WARMUP} orders pipelined, not reported"),
        format!("pipelined: {} orders sent as fast as the engine takes them, at most {WINDOW} unanswered; round trips/s from the first send to the last report", plan.pipelined),
        format!("latency: {} orders offered at {} per second for {} s, in rounds of 1 s taken by the engines in turn (each round waits for its answers); latency = report arrival − the order's due time (start + k / rate), so coordinated omission is corrected; HDR histogram, 3 significant digits", plan.latency_orders(), plan.rate, plan.seconds),
        format!("the sender paces with thread::sleep, timer slack {slack}; its own lateness (send − due) is the pacer row, part of every latency; \"from send\" is report arrival − actual send, not corrected, to tell the engine's part from the sender's"),
        format!("one-way (ours only): {ONE_WAY} NewOrderSingles into one session, memory stores, counted by the acceptor's application"),
    ];
    for c in &conditions {
        println!("run\tnote\t{c}");
    }
    println!("run\tpipelined_orders\t{}", plan.pipelined);
    println!("run\twindow\t{WINDOW}");
    println!("run\trate_per_s\t{}", plan.rate);
    println!("run\tlatency_orders\t{}", plan.latency_orders());

    let ticks = cpu_ticks();
    let result = (|| {
        let ours_tracker = Arc::new(Tracker::new(plan.orders()));
        let durable_tracker = Arc::new(Tracker::new(plan.orders()));
        let pg_tracker = Arc::new(Tracker::new(plan.orders()));
        ours::with_client(&root, ours::Store::Os, &ours_tracker, &mut |ours| {
            ours::with_client(
                &root,
                ours::Store::Durable,
                &durable_tracker,
                &mut |durable| {
                    with_postgres(postgres.as_ref(), &root, &pg_tracker, &mut |pg| {
                        let mut lanes = vec![
                            Lane {
                                name: ours::NAME,
                                client: &mut *ours,
                                tracker: ours_tracker.clone(),
                            },
                            Lane {
                                name: ours::NAME_DURABLE,
                                client: &mut *durable,
                                tracker: durable_tracker.clone(),
                            },
                        ];
                        if let Some(pg) = pg {
                            lanes.push(Lane {
                                name: ours::NAME_POSTGRES,
                                client: pg,
                                tracker: pg_tracker.clone(),
                            });
                        }
                        with_quickfix(&root, plan, lanes)
                    })
                },
            )
        })?;
        if let Some(pg) = &postgres {
            report_commits(pg)?;
        }
        let sync = ours::sync_p50_us(&root, SYNC_PROBES)?;
        println!("run\tsync_p50_us\t{sync:.1}");
        let one_way = ours::one_way(ONE_WAY)?;
        println!("{}\tone_way_messages_per_s\t{one_way:.1}", ours::NAME);
        Ok(())
    })();
    // A virtual machine's vCPUs wait for the host: time stolen shows as stalls
    // of milliseconds, in the tail of every latency.
    if let (Some((s0, t0)), Some((s1, t1))) = (ticks, cpu_ticks()) {
        let share = (s1 - s0) as f64 * 100.0 / (t1 - t0).max(1) as f64;
        println!(
            "run\tnote\tCPU time stolen by the hypervisor during the run: {share:.1}% (/proc/stat)"
        );
    }
    let _ = std::fs::remove_dir_all(&root);
    result
}

/// What runs with a lane's client, when the lane exists.
type WithLane<'r> = dyn FnMut(Option<&mut dyn Client>) -> Result<(), String> + 'r;

/// Runs `race` with our pair on PostgreSQL, when there is a server, else
/// with `None`.
fn with_postgres(
    pg: Option<&fix_test_support::pg::PgServer>,
    root: &Path,
    tracker: &Arc<Tracker>,
    race: &mut WithLane<'_>,
) -> Result<(), String> {
    match pg {
        Some(pg) => {
            // For diagnosis only, never in a report: connection parameters
            // added to the lane's (`options='-c synchronous_commit=off'`
            // tells what the lane costs apart from its commits' flushes).
            let extra = std::env::var("FIX_RACE_PG_PARAMS").unwrap_or_default();
            if !extra.is_empty() {
                println!("run\tnote\tdiagnosis: the PostgreSQL lane's stores connect with {extra}");
            }
            let connection = format!("{} {extra}", pg.connection_string());
            ours::with_client(
                root,
                ours::Store::Postgres(&connection),
                tracker,
                &mut |c| race(Some(c)),
            )
        }
        None => race(None),
    }
}

/// Reports `lanes`, with QuickFIX C++'s beside them when the `quickfix`
/// feature is on.
fn with_quickfix(root: &Path, plan: Plan, mut lanes: Vec<Lane<'_>>) -> Result<(), String> {
    #[cfg(feature = "quickfix")]
    {
        let qf_tracker = Arc::new(Tracker::new(plan.orders()));
        quickfix_cpp::with_client(root, &qf_tracker, &mut |qf| {
            let mut all: Vec<Lane<'_>> = lanes
                .iter_mut()
                .map(|l| Lane {
                    name: l.name,
                    client: &mut *l.client,
                    tracker: l.tracker.clone(),
                })
                .collect();
            all.push(Lane {
                name: quickfix_cpp::NAME,
                client: qf,
                tracker: qf_tracker.clone(),
            });
            report(&mut all, plan)
        })?;
        println!("run\tquickfix\tin this run");
    }
    #[cfg(not(feature = "quickfix"))]
    {
        let _ = root;
        report(&mut lanes, plan)?;
        println!("run\tquickfix\tnot in this run (the `quickfix` feature is off)");
    }
    Ok(())
}

/// The PostgreSQL lane's commits per message stored: the server's
/// committed transactions over the messages both sides stored.
fn report_commits(pg: &fix_test_support::pg::PgServer) -> Result<(), String> {
    let number = |sql: &str| -> Result<f64, String> {
        let out = pg.psql(sql)?;
        out.trim()
            .parse()
            .map_err(|e| format!("psql said {out:?}: {e}"))
    };
    let commits =
        number("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")?;
    let messages =
        number("SELECT count(*) FROM fix_batches b, fix_batch_messages(b.bytes, b.valid_below)")?;
    println!(
        "{}\tcommits_per_message\t{:.4}",
        ours::NAME_POSTGRES,
        commits / messages.max(1.0)
    );
    Ok(())
}
