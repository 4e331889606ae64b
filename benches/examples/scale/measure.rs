//! What the lane reads from the process and the machine: CPU time, resident
//! memory, the engine's syncs (through its metrics), the disk's sync time.

use std::path::Path;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use metrics::{
    Counter, Gauge, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder, SharedString, Unit,
};

/// The engine's histogram of its store's durable steps (fix-engine's
/// `metrics` module): one record a sync, whatever store makes it.
const SYNC_METRIC: &str = "fix_store_sync_seconds";

/// Counts records into [`SYNC_METRIC`], of every session.
#[derive(Debug, Default)]
struct SyncCount(AtomicU64);

impl HistogramFn for SyncCount {
    fn record(&self, _seconds: f64) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

/// A recorder that keeps only the sync count and drops every other metric:
/// the engine's updates stay as cheap as with no recorder but this one.
#[derive(Debug)]
struct SyncRecorder(Arc<SyncCount>);

impl Recorder for SyncRecorder {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}

    fn register_counter(&self, _: &Key, _: &Metadata<'_>) -> Counter {
        Counter::noop()
    }

    fn register_gauge(&self, _: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::noop()
    }

    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        if key.name() == SYNC_METRIC {
            Histogram::from_arc(self.0.clone())
        } else {
            Histogram::noop()
        }
    }
}

static SYNCS: OnceLock<Arc<SyncCount>> = OnceLock::new();

/// Installs the sync-counting recorder; must run before any engine starts
/// (a session registers its metrics when it is made). Says why not if it
/// could not.
pub(crate) fn count_syncs() -> Result<(), String> {
    let count = Arc::new(SyncCount::default());
    metrics::set_global_recorder(SyncRecorder(count.clone()))
        .map_err(|_| "another metrics recorder is installed".to_owned())?;
    let _ = SYNCS.set(count);
    Ok(())
}

/// The process's counters at one instant.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Usage {
    pub(crate) wall: Instant,
    /// User plus system CPU time of every thread, µs.
    pub(crate) cpu_us: u64,
    /// Syncs the engines reported so far (`None`: not counted).
    pub(crate) syncs: Option<u64>,
}

impl Usage {
    pub(crate) fn now() -> Usage {
        Usage {
            wall: Instant::now(),
            cpu_us: cpu_us(),
            // The disk's syncs: those of the engines' shared logs (one
            // covers every session that wrote meanwhile), else the durable
            // steps the engines timed (a log of its own each, one sync a step).
            syncs: match fix_engine::shared_log_syncs() {
                0 => SYNCS.get().map(|c| c.0.load(Ordering::Relaxed)),
                n => Some(n),
            },
        }
    }
}

/// This process's user + system CPU time, µs (getrusage, all threads).
fn cpu_us() -> u64 {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a whole `rusage` to a valid pointer, and
    // RUSAGE_SELF cannot fail.
    let usage = unsafe {
        libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr());
        usage.assume_init()
    };
    let us = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    us(usage.ru_utime) + us(usage.ru_stime)
}

/// This process's resident memory now (`VmRSS` of `/proc/self/status`), KiB.
pub(crate) fn rss_kib() -> Result<u64, String> {
    let status = std::fs::read_to_string("/proc/self/status")
        .map_err(|e| format!("/proc/self/status: {e}"))?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .ok_or_else(|| "/proc/self/status has no VmRSS".to_owned())
}

/// Raises the soft limit on open files to the hard one: a thousand sessions
/// on each side hold a socket and store files each.
pub(crate) fn raise_file_limit() {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: both calls take a pointer to a valid `rlimit`.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}

/// Asks the kernel for the shortest sleep overshoot on the calling (main)
/// thread, the pacer: the default 50 µs timer slack would make every paced
/// order late by about that much.
pub(crate) fn tighten_timer_slack() -> String {
    match std::fs::write("/proc/self/timerslack_ns", "1") {
        Ok(()) => "1 ns".to_owned(),
        Err(e) => format!("the default (could not set it: {e})"),
    }
}

/// The disk's sync time: the faster of two plain ways to make 200 bytes
/// durable, `n` times each, each `fdatasync` timed; the lower median, µs.
/// Appended to a file (the sync also commits the file's new length), and
/// written over zeros written and synced beforehand (the data alone, as the
/// shared log's segments are). Plain file calls, not the engine's store, so
/// the figure is the disk's whatever the store does.
pub(crate) fn sync_us(dir: &Path, n: usize) -> Result<f64, String> {
    let appended = probe(dir, n, false)?;
    let overwritten = probe(dir, n, true)?;
    Ok(appended.min(overwritten))
}

fn probe(dir: &Path, n: usize, over_zeros: bool) -> Result<f64, String> {
    use std::os::unix::fs::FileExt;
    let path = dir.join("sync-probe");
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(true)
        .read(true)
        .write(true)
        .open(&path)
        .map_err(err)?;
    let record = [b'x'; 200];
    if over_zeros {
        file.write_all_at(&vec![0u8; 200 * n], 0).map_err(err)?;
        file.sync_all().map_err(err)?;
    }
    let mut times = Vec::with_capacity(n);
    for i in 0..n {
        file.write_all_at(&record, (200 * i) as u64).map_err(err)?;
        let start = Instant::now();
        file.sync_data().map_err(err)?;
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    let _ = std::fs::remove_file(&path);
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}
