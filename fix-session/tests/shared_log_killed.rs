//! The engine's shared log in child processes killed with SIGKILL at random:
//! writers lose nothing they were told was durable, and a session that only
//! receives keeps every number it wrote out (the log's shadow).
//!
//! A test binary of its own: a child is forked holding copies of every file
//! descriptor of this process until it execs, a log's lock among them, so a
//! test here reopening a log beside a spawn could find it locked; here only
//! the killing tests open logs, one at a time.
//!
//! `FIX_SESSION_SHARED_CRASH_SEED=<n>` replays a run's kill delays.

mod common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use common::{message, read_all};
use fix_session::store::{SharedLog, SharedLogOptions};
use fix_session::{ChunkLimit, MessageStore};
use fix_test_support::temp_dir::TestDir;

const ROLE: &str = "FIX_SESSION_SHARED_ROLE";
const DIR: &str = "FIX_SESSION_SHARED_DIR";
const RUN: &str = "FIX_SESSION_SHARED_RUN";
/// Sessions the crash test's writers share the log with, a thread each.
const WRITERS: u64 = 4;

fn small() -> SharedLogOptions {
    SharedLogOptions::new().segment_size(64 << 10)
}

fn name(i: u64) -> String {
    format!("FIX.4.4-W{i}-EXEC")
}

/// The child's side: does nothing in an ordinary test run. `WRITERS` threads
/// each store into a session of their own, syncing each message, and print
/// `stored <writer> <seq>` after the sync returned.
#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    if role == "receiver" {
        return receiver();
    }
    let dir = std::env::var(DIR).unwrap();
    let run: u64 = std::env::var(RUN).unwrap().parse().unwrap();
    let log = SharedLog::open(&dir, small()).unwrap();
    let out = std::sync::Arc::new(std::sync::Mutex::new(std::io::stdout()));
    let threads: Vec<_> = (0..WRITERS)
        .map(|w| {
            let mut store = log.open_store(&name(w), SystemTime::now()).unwrap();
            let out = out.clone();
            std::thread::spawn(move || {
                let deadline = Instant::now() + Duration::from_secs(10);
                while Instant::now() < deadline {
                    let seq = store.next_sender_seq();
                    store.store(seq, &message(seq, run * 10 + w)).unwrap();
                    if seq.is_multiple_of(3) {
                        let received = store.next_target_seq();
                        store.advance_target_seq(received).unwrap();
                    }
                    store.sync().unwrap();
                    let mut o = out.lock().unwrap();
                    writeln!(o, "stored {w} {seq}").unwrap();
                    o.flush().unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
}

/// Held by each test while it spawns children and opens logs: a child
/// forked by one holds the other's lock until it execs.
static SPAWNING: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Runs this test binary's `child` as `role` and kills it with SIGKILL:
/// `early`, at a random moment of its first 20 ms (while it starts, on a
/// busy machine); else at a random moment of the 40 ms after its first line
/// starting with `first` (so that it is killed mid-burst however slowly it
/// started). Returns its output.
fn run_killed(
    role: &str,
    env: &[(&str, std::ffi::OsString)],
    first: &'static str,
    early: bool,
    rng: &mut fastrand::Rng,
) -> String {
    use std::io::BufRead;
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1", "-q"])
        .env(ROLE, role)
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (started, running) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let mut lines = std::io::BufReader::new(stdout);
        let mut line = String::new();
        while lines.read_line(&mut line).unwrap_or(0) > 0 {
            if line.starts_with(first) {
                let _ = started.send(());
            }
            text.push_str(&line);
            line.clear();
        }
        // A torn last line (the kill came mid-write) is left out.
        text.truncate(text.rfind('\n').map_or(0, |i| i + 1));
        text
    });
    if early {
        std::thread::sleep(Duration::from_micros(rng.u64(0..20_000)));
    } else {
        running
            .recv_timeout(Duration::from_secs(60))
            .expect("the child printed its first line");
        std::thread::sleep(Duration::from_micros(rng.u64(0..40_000)));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    reader.join().unwrap()
}

/// A session that only receives: each message's number written out to the
/// log and never synced (no step of it sends), then said on stdout; every
/// tenth step also stores a message, so that appends roll segments.
fn receiver() {
    let dir = std::env::var(DIR).unwrap();
    let log = SharedLog::open(&dir, small()).unwrap();
    let mut store = log.open_store(&name(0), SystemTime::now()).unwrap();
    let mut out = std::io::stdout();
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let received = store.next_target_seq();
        store.advance_target_seq(received).unwrap();
        if received.is_multiple_of(10) {
            let seq = store.next_sender_seq();
            store.store(seq, &message(seq, received)).unwrap();
        }
        store.write_out().unwrap();
        writeln!(out, "received {received}").unwrap();
        out.flush().unwrap();
        // A counterparty's pace, and a log a few segments long.
        std::thread::sleep(Duration::from_micros(20));
    }
}

/// A process killed keeps what it received: a step that only receives asks
/// for no sync, and its records wait in the log's memory for the next one;
/// the shadow keeps them through the kill, and the next opening writes them
/// into the segments. (Before it, the records reached the segment only once
/// the sync thread wrote them, a window a kill hit in most runs here.)
#[test]
fn a_receiver_killed_at_random_keeps_every_number_it_wrote_out() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let seed = match std::env::var("FIX_SESSION_SHARED_CRASH_SEED") {
        Ok(s) => s.parse().unwrap(),
        Err(_) => fastrand::u64(..),
    };
    println!("FIX_SESSION_SHARED_CRASH_SEED={seed}");
    let _spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = fastrand::Rng::with_seed(seed);
    let dir = TestDir::new("shared-receiver-killed");
    let mut killed_after_some = 0;
    for run in 0..20 {
        // A run in four kills the child while it starts (opening the log,
        // writing the last run's shadow into it); the rest once it runs.
        let early = run % 4 == 0;
        let text = run_killed(
            "receiver",
            &[(DIR, dir.path().into())],
            "received ",
            early,
            &mut rng,
        );
        let last = text
            .lines()
            .filter_map(|l| l.strip_prefix("received ")?.parse::<u64>().ok())
            .max();
        let Some(last) = last else {
            continue;
        };
        killed_after_some += 1;
        let log = SharedLog::open(dir.path(), small()).unwrap();
        let mut store = log.open_store(&name(0), SystemTime::now()).unwrap();
        assert!(
            store.next_target_seq() > last,
            "run {run}: the receiver wrote out {last} before it was killed; reopened, it expects {}",
            store.next_target_seq()
        );
        let all = read_all(
            &mut store,
            1,
            u64::MAX,
            ChunkLimit::new(100_000, usize::MAX),
        );
        for (i, (seq, _)) in all.iter().enumerate() {
            assert_eq!(*seq, i as u64 + 1, "run {run}: numbers not contiguous");
        }
    }
    assert!(killed_after_some >= 10, "{killed_after_some}");
}

#[test]
fn writers_killed_at_random_lose_nothing_the_log_confirmed() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let seed = match std::env::var("FIX_SESSION_SHARED_CRASH_SEED") {
        Ok(s) => s.parse().unwrap(),
        Err(_) => fastrand::u64(..),
    };
    println!("FIX_SESSION_SHARED_CRASH_SEED={seed}");
    let _spawning = SPAWNING.lock().unwrap_or_else(|e| e.into_inner());
    let mut rng = fastrand::Rng::with_seed(seed);
    let dir = TestDir::new("shared-crash");
    // (writer, seq) -> the run that confirmed it.
    let mut confirmed = std::collections::BTreeMap::<(u64, u64), u64>::new();
    let mut killed_mid_burst = 0;
    for run in 0..40 {
        let early = run % 4 == 0;
        let env = [(DIR, dir.path().into()), (RUN, run.to_string().into())];
        let text = run_killed("writer", &env, "stored ", early, &mut rng);
        let mut this_run = 0;
        for line in text.lines() {
            let Some(rest) = line.strip_prefix("stored ") else {
                continue;
            };
            let (w, seq) = rest.split_once(' ').unwrap();
            let key = (w.parse().unwrap(), seq.parse().unwrap());
            if let Some(earlier) = confirmed.insert(key, run) {
                panic!("run {run} was handed {key:?}, confirmed by run {earlier}");
            }
            this_run += 1;
        }
        killed_mid_burst += usize::from(this_run > 0);
        let log = SharedLog::open(dir.path(), small()).unwrap();
        for w in 0..WRITERS {
            if !log.contains(&name(w)) {
                continue;
            }
            let mut store = log.open_store(&name(w), SystemTime::now()).unwrap();
            let all = read_all(&mut store, 1, u64::MAX, ChunkLimit::new(10_000, usize::MAX));
            for (i, (seq, _)) in all.iter().enumerate() {
                assert_eq!(
                    *seq,
                    i as u64 + 1,
                    "run {run}, writer {w}: numbers not contiguous"
                );
            }
            for (&(cw, seq), &by) in confirmed.range((w, 0)..(w + 1, 0)) {
                let found = all.get(seq as usize - 1).map(|(_, m)| m);
                assert!(
                    found == Some(&message(seq, by * 10 + cw)),
                    "run {run}: writer {cw}'s message {seq}, confirmed by run {by}, is missing or different"
                );
            }
            let last = confirmed
                .range((w, 0)..(w + 1, 0))
                .next_back()
                .map_or(0, |(k, _)| k.1);
            assert!(store.next_sender_seq() > last);
        }
    }
    println!(
        "{} messages confirmed, {killed_mid_burst} of 40 runs killed after confirming some",
        confirmed.len()
    );
    assert!(killed_mid_burst >= 20, "{killed_mid_burst}");
}
