//! The scale lane of the engine race (issue 35): our engine with N sessions
//! between one acceptor `Engine` and one initiator `Engine` (all N on one
//! acceptor port), and, with the `quickfix` feature, QuickFIX C++ with N
//! sessions beside it.
//!
//! ```sh
//! cargo run --profile bench -p fix-benches --example scale
//! cargo run --profile bench -p fix-benches --example scale -- --sessions 1,10 --rates 2000 --seconds 1
//! ```
//!
//! Options (defaults in brackets): `--sessions` [1,10,100,1000], `--rates`
//! total orders a second [2000,20000], `--seconds` per rate [5],
//! `--runtime current|multi|both` [both], `--pipelined` orders [50000],
//! `--window` unanswered orders in the pipelined phase [10000].
//!
//! Each configuration (N × runtime × store, and QuickFIX per N) runs in a
//! child process of its own, so that its resident memory, CPU time and sync
//! count are its own, and a stuck one is ended without ending the lane:
//!
//! 1. both engines start with N sessions each and log on; resident memory
//!    after they are idle, minus before, over N, is `rss_kib_per_session`;
//! 2. warm-up: orders pipelined, at least two a session, not reported;
//! 3. pipelined: orders as fast as the engines take them, round-robin over
//!    the sessions, at most `--window` unanswered; round trips a second;
//! 4. paced, per rate: order `k` due at `start + k / rate` on session
//!    `k mod N`, sent with `SessionHandle::send` from the child's main
//!    thread; latency = report arrival − due time (corrected for
//!    coordinated omission), HDR histogram.
//!
//! Beside each phase: CPU time (getrusage, the whole process: both engines
//! and the sender) per order, and syncs a second, counted by a `metrics`
//! recorder of ours from the engine's `fix_store_sync_seconds` histogram.
//! The disk's own sync time (`sync_us`) is measured first, in the same
//! directory.
//!
//! Prints tab-separated `subject<TAB>key<TAB>value` lines for `cargo xtask
//! bench-report --scale-only`: subject `run` for the conditions, else
//! `engine/N/runtime/store`.

mod load;
mod measure;
mod ours;
#[cfg(feature = "quickfix")]
mod quickfix_cpp;

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use load::{Client, Orders, Tracker};

/// Syncs timed for the disk's sync time.
const SYNC_PROBES: usize = 200;
/// The quantiles printed for the percentile plot, as percentages.
const PLOT_QUANTILES: [f64; 10] = [
    50.0, 75.0, 90.0, 95.0, 99.0, 99.5, 99.9, 99.95, 99.99, 100.0,
];

/// Where the engines' tasks run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runtime {
    /// Each engine on a current-thread runtime of its own thread.
    Current,
    /// Both engines on one multi-thread runtime of 2 workers.
    Multi,
}

impl Runtime {
    fn name(self) -> &'static str {
        match self {
            Runtime::Current => "current-thread",
            Runtime::Multi => "multi-thread-2",
        }
    }
}

/// The file stores' sync setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StoreSync {
    /// `FileStoreSync=Y`, the default: durable before a message leaves.
    Durable,
    /// `FileStoreSync=N`: synced by the system.
    Os,
}

impl StoreSync {
    fn name(self) -> &'static str {
        match self {
            StoreSync::Durable => "FileStoreSync=Y",
            StoreSync::Os => "FileStoreSync=N",
        }
    }
}

/// What the lane runs, from the command line.
#[derive(Debug, Clone)]
struct Plan {
    sessions: Vec<usize>,
    rates: Vec<u64>,
    seconds: u64,
    runtimes: Vec<Runtime>,
    pipelined: u64,
    window: u64,
}

impl Plan {
    /// Warm-up orders for `n` sessions: two a session, 2000 at least.
    fn warmup(n: usize) -> u64 {
        (2 * n as u64).max(2000)
    }

    /// Every order index one configuration uses.
    fn orders(&self, n: usize) -> u64 {
        Plan::warmup(n) + self.pipelined + self.rates.iter().sum::<u64>() * self.seconds
    }

    /// The arguments that give a child this plan.
    fn args(&self) -> Vec<String> {
        let list = |v: &[String]| v.join(",");
        vec![
            "--rates".into(),
            list(&self.rates.iter().map(u64::to_string).collect::<Vec<_>>()),
            "--seconds".into(),
            self.seconds.to_string(),
            "--pipelined".into(),
            self.pipelined.to_string(),
            "--window".into(),
            self.window.to_string(),
        ]
    }

    /// The longest a child may take: its phases three times over, a minute
    /// for starting and stopping, and a tenth of a second a session.
    fn child_limit(&self, n: usize) -> Duration {
        let phases = self.rates.len() as u64 * self.seconds + 10;
        Duration::from_secs(60 + 3 * phases + n as u64 / 10)
    }
}

/// One configuration, run in a child process.
#[derive(Debug, Clone, Copy)]
enum Child {
    Ours(usize, Runtime, StoreSync),
    #[cfg_attr(not(feature = "quickfix"), allow(dead_code))]
    QuickFix(usize),
}

impl Child {
    /// The subject of its output lines: `engine/N/runtime/store`.
    fn subject(self) -> String {
        match self {
            Child::Ours(n, r, s) => format!("ours/{n}/{}/{}", r.name(), s.name()),
            Child::QuickFix(n) => format!("QuickFIX C++/{n}/threads/FileStore"),
        }
    }

    fn args(self) -> Vec<String> {
        match self {
            Child::Ours(n, r, s) => vec![
                "ours".into(),
                n.to_string(),
                r.name().into(),
                s.name().into(),
            ],
            Child::QuickFix(n) => vec!["quickfix".into(), n.to_string()],
        }
    }

    fn parse(v: &[String]) -> Result<Child, String> {
        let n = |s: &String| s.parse().map_err(|_| format!("`{s}` is not a number"));
        match v {
            [e, count, r, s] if e == "ours" => {
                let r = [Runtime::Current, Runtime::Multi]
                    .into_iter()
                    .find(|x| x.name() == r)
                    .ok_or(format!("no runtime `{r}`"))?;
                let s = [StoreSync::Durable, StoreSync::Os]
                    .into_iter()
                    .find(|x| x.name() == s)
                    .ok_or(format!("no store `{s}`"))?;
                Ok(Child::Ours(n(count)?, r, s))
            }
            [e, count] if e == "quickfix" => Ok(Child::QuickFix(n(count)?)),
            _ => Err(format!("--child {v:?}: not a configuration")),
        }
    }
}

fn main() {
    if let Err(e) = run() {
        eprintln!("scale: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (plan, child, root) = parse_args(&args)?;
    match (child, root) {
        (Some(child), Some(root)) => run_child(&plan, child, &root),
        (None, None) => run_lane(&plan),
        _ => Err("--child and --root go together".into()),
    }
}

/// Reads the options; `--child` and `--root` are the lane's own, for its
/// child processes.
fn parse_args(args: &[String]) -> Result<(Plan, Option<Child>, Option<PathBuf>), String> {
    let mut plan = Plan {
        sessions: vec![1, 10, 100, 1000],
        rates: vec![2000, 20_000],
        seconds: 5,
        runtimes: vec![Runtime::Current, Runtime::Multi],
        pipelined: 50_000,
        window: 10_000,
    };
    let (mut child, mut root) = (None, None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        if flag == "--child" {
            let rest: Vec<String> = it.by_ref().take_while(|a| *a != "--end").cloned().collect();
            child = Some(Child::parse(&rest)?);
            continue;
        }
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--sessions" => plan.sessions = positive_list(flag, value)?,
            "--rates" => plan.rates = positive_list(flag, value)?,
            "--seconds" => plan.seconds = positive(flag, value)?,
            "--pipelined" => plan.pipelined = positive(flag, value)?,
            "--window" => plan.window = positive(flag, value)?,
            "--runtime" => {
                plan.runtimes = match value.as_str() {
                    "current" => vec![Runtime::Current],
                    "multi" => vec![Runtime::Multi],
                    "both" => vec![Runtime::Current, Runtime::Multi],
                    _ => return Err(format!("--runtime {value}: current, multi or both")),
                }
            }
            "--root" => root = Some(PathBuf::from(value)),
            _ => return Err(format!("unknown option `{flag}`")),
        }
    }
    Ok((plan, child, root))
}

fn positive<T: std::str::FromStr + PartialOrd + Default>(flag: &str, v: &str) -> Result<T, String> {
    match v.parse::<T>() {
        Ok(n) if n > T::default() => Ok(n),
        _ => Err(format!("{flag} {v}: not a positive number")),
    }
}

fn positive_list<T: std::str::FromStr + PartialOrd + Default>(
    flag: &str,
    v: &str,
) -> Result<Vec<T>, String> {
    v.split(',').map(|x| positive(flag, x.trim())).collect()
}

/// The parent: states the conditions, times the disk's sync, runs every
/// configuration in a child and passes its lines on.
fn run_lane(plan: &Plan) -> Result<(), String> {
    let root = std::env::temp_dir().join(format!("fix-scale-{}", std::process::id()));
    fresh_dir(&root.clone(), "")?;
    for note in notes(plan) {
        println!("run\tnote\t{note}");
    }
    println!("run\trates\t{}", join(&plan.rates));
    println!("run\tseconds\t{}", plan.seconds);
    let sync = measure::sync_us(&root, SYNC_PROBES);
    match &sync {
        Ok(us) => println!("run\tsync_us\t{us:.1}"),
        Err(e) => println!("run\tsync_us\tn/a ({e})"),
    }
    let mut failed = 0;
    for child in children(plan) {
        if let Err(e) = run_one(plan, child, &root) {
            failed += 1;
            eprintln!("scale: {}: {e}", child.subject());
            println!("run\tfailed\t{}: {e}", child.subject());
        }
    }
    #[cfg(feature = "quickfix")]
    println!("run\tquickfix\tin this run");
    #[cfg(not(feature = "quickfix"))]
    println!("run\tquickfix\tnot in this run (the `quickfix` feature is off)");
    let _ = std::fs::remove_dir_all(&root);
    match failed {
        0 => Ok(()),
        n => Err(format!(
            "{n} configurations failed (see the `run failed` lines)"
        )),
    }
}

/// Every configuration of the plan, in the order they run.
fn children(plan: &Plan) -> Vec<Child> {
    let mut out = Vec::new();
    for &n in &plan.sessions {
        for &r in &plan.runtimes {
            out.push(Child::Ours(n, r, StoreSync::Durable));
            out.push(Child::Ours(n, r, StoreSync::Os));
        }
        if cfg!(feature = "quickfix") {
            out.push(Child::QuickFix(n));
        }
    }
    out
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter().map(T::to_string).collect::<Vec<_>>().join(",")
}

/// The conditions, as the section states them.
fn notes(plan: &Plan) -> Vec<String> {
    let slack = "the pacer sleeps until each order's due time with timer slack 1 ns (if the kernel allows); its own lateness is part of every latency";
    vec![
        "our engine: one acceptor Engine holding N sessions on one port, one initiator Engine holding their N counterparts, over 127.0.0.1, distinct SenderCompID/TargetCompID a session, every message validated against FIX 4.4, no message log".to_owned(),
        "runtimes: current-thread = each engine on a current-thread tokio runtime of its own thread; multi-thread-2 = both engines on one multi-thread runtime of 2 workers".to_owned(),
        format!("stores: file stores in fresh directories under {} (one directory a side, shared by its sessions); FileStoreSync=Y is the engine's default durable store as it is on this commit, FileStoreSync=N leaves syncing to the system", std::env::temp_dir().display()),
        "each configuration in a child process of its own; orders round-robin over the sessions, sent with SessionHandle::send from the child's main thread; the acceptor answers each NewOrderSingle with an ExecutionReport".to_owned(),
        format!("warm-up: max(2 N, 2000) orders pipelined, not reported; pipelined: {} orders, at most {} unanswered, round trips/s from the first send to the last report", plan.pipelined, plan.window),
        format!("paced: {} orders/s in total for {} s each; latency = report arrival − the order's due time (coordinated omission corrected), HDR histogram, 3 significant digits; {slack}", join(&plan.rates), plan.seconds),
        "syncs/s: records into the engine's fix_store_sync_seconds histogram (one a group commit's durable step, both sides), counted by a metrics recorder of the harness, over the phase's wall time".to_owned(),
        "CPU µs/order: getrusage(RUSAGE_SELF) user + system of the child over the phase (both engines and the sender) ÷ orders, each order one NewOrderSingle and one ExecutionReport".to_owned(),
        "RSS KiB/session: VmRSS after the N sessions a side logged on and idled 0.5 s, minus before the engines started, ÷ N (one acceptor and one initiator session each; at small N mostly the engines' fixed cost: runtimes, buffers, the dictionary)".to_owned(),
        format!("sync_us: the disk's sync time, the lower of two medians of {SYNC_PROBES} fdatasync's each, after a 200-byte write to a file in the lane's temp directory: appended (the sync also commits the file's length), and over zeros written and synced beforehand (the data alone, as in the shared log's segments); measured at the start of the run"),
    ]
}

/// Runs one configuration in a child process and prints its lines; ends the
/// child if it outlives its limit.
fn run_one(plan: &Plan, child: Child, root: &Path) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    let dir = fresh_dir(root, &child.args().join("-"))?;
    let mut process = Command::new(exe)
        .args(plan.args())
        .arg("--child")
        .args(child.args())
        .arg("--end")
        .arg("--root")
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("child: {e}"))?;
    let mut stdout = process.stdout.take().ok_or("child: no stdout")?;
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let limit = plan.child_limit(child_sessions(child));
    let deadline = Instant::now() + limit;
    let status = loop {
        if let Some(status) = process.try_wait().map_err(|e| format!("child: {e}"))? {
            break Some(status);
        }
        if Instant::now() > deadline {
            let _ = process.kill();
            let _ = process.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let out = reader.join().unwrap_or_default();
    print!("{out}");
    let _ = std::fs::remove_dir_all(&dir);
    match status {
        Some(s) if s.success() => Ok(()),
        Some(s) => Err(format!("the child process ended with {s}")),
        None => Err(format!(
            "the child process ran past {limit:?} and was ended"
        )),
    }
}

fn child_sessions(child: Child) -> usize {
    match child {
        Child::Ours(n, ..) | Child::QuickFix(n) => n,
    }
}

/// A child: one configuration, its figures printed under its subject.
fn run_child(plan: &Plan, child: Child, root: &Path) -> Result<(), String> {
    measure::tighten_timer_slack();
    measure::raise_file_limit();
    let counted = measure::count_syncs();
    let subject = child.subject();
    let n = child_sessions(child);
    let tracker = Arc::new(Tracker::new(plan.orders(n)));
    let before = measure::rss_kib()?;
    let started = Instant::now();
    match child {
        Child::Ours(n, runtime, sync) => {
            let pair = ours::Pair::start(n, runtime, sync, root, tracker.clone())?;
            let logon = started.elapsed().as_secs_f64();
            let mut client = ours::OursClient::new(&pair);
            let ran = measure_all(plan, &mut client, tracker, n, before, logon, &subject);
            let stopped = pair.stop();
            ran.and(stopped)?;
        }
        #[cfg(feature = "quickfix")]
        Child::QuickFix(n) => {
            quickfix_cpp::with_client(root, n, &tracker.clone(), &mut |client| {
                let logon = started.elapsed().as_secs_f64();
                measure_all(plan, client, tracker.clone(), n, before, logon, &subject)
            })?;
        }
        #[cfg(not(feature = "quickfix"))]
        Child::QuickFix(_) => return Err("the `quickfix` feature is off".into()),
    }
    if let Err(why) = counted {
        println!("run\tnote\t{subject}: syncs not counted: {why}");
    }
    Ok(())
}

/// Runs the phases with the sessions logged on and prints every figure.
fn measure_all(
    plan: &Plan,
    client: &mut dyn Client,
    tracker: Arc<Tracker>,
    n: usize,
    rss_before: u64,
    logon_seconds: f64,
    subject: &str,
) -> Result<(), String> {
    let line = |key: &str, value: String| println!("{subject}\t{key}\t{value}");
    line("logon_seconds", format!("{logon_seconds:.3}"));
    // Idle for a moment, so that the memory is what logged-on sessions hold.
    std::thread::sleep(Duration::from_millis(500));
    let rss = measure::rss_kib()?.saturating_sub(rss_before);
    line(
        "rss_kib_per_session",
        format!("{:.1}", rss as f64 / n as f64),
    );

    let mut orders = Orders::new(tracker.clone(), n);
    load::pipelined(client, &mut orders, Plan::warmup(n), plan.window, "warm-up")?;
    let (rts, cost) = load::pipelined(
        client,
        &mut orders,
        plan.pipelined,
        plan.window,
        "pipelined",
    )?;
    line("pipelined_round_trips_per_s", format!("{rts:.1}"));
    print_cost(subject, "pipelined", &cost);
    for &rate in &plan.rates {
        let (paced, cost) = load::paced(client, &mut orders, rate, plan.seconds)?;
        print_paced(subject, rate, &paced);
        print_cost(subject, &format!("rate{rate}"), &cost);
    }
    tracker.check()
}

fn print_cost(subject: &str, phase: &str, cost: &load::Cost) {
    let syncs = cost
        .syncs_per_s
        .map_or("n/a".to_owned(), |s| format!("{s:.1}"));
    println!("{subject}\t{phase}_syncs_per_s\t{syncs}");
    println!(
        "{subject}\t{phase}_cpu_us_per_order\t{:.2}",
        cost.cpu_us_per_order
    );
    println!("{subject}\t{phase}_seconds\t{:.3}", cost.seconds);
}

fn print_paced(subject: &str, rate: u64, p: &load::Paced) {
    let us = |ns: u64| ns as f64 / 1000.0;
    let h = &p.latency;
    let rows = [
        ("p50_us", us(h.value_at_quantile(0.50))),
        ("p99_us", us(h.value_at_quantile(0.99))),
        ("p99.9_us", us(h.value_at_quantile(0.999))),
        ("max_us", us(h.max())),
        ("pacer_p99_us", us(p.pacer.value_at_quantile(0.99))),
    ];
    for (key, value) in rows {
        println!("{subject}\trate{rate}_{key}\t{value:.1}");
    }
    for q in PLOT_QUANTILES {
        let v = us(h.value_at_quantile(q / 100.0));
        println!("{subject}\trate{rate}_q{q}_us\t{v:.1}");
    }
}

/// A fresh, empty directory `name` under `root` (`root` itself for "").
pub(crate) fn fresh_dir(root: &Path, name: &str) -> Result<PathBuf, String> {
    let dir = if name.is_empty() {
        root.to_path_buf()
    } else {
        root.join(name)
    };
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(dir)
}
