//! Crash tests: a writer in a child process (this test binary, re-executed with the
//! role in an environment variable) stores messages under `SyncPolicy::EveryRecord`
//! and prints each number only after `store` returned; the parent kills it with
//! SIGKILL at random points, reopens the store and checks that nothing confirmed was
//! lost, reused or duplicated.
//!
//! `FIX_SESSION_CRASH_SEED=<n>` replays a run's kill delays.

mod common;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{message, read_all};
use fix_session::{
    ChunkLimit, FileOptions, FileStore, IoOperation, MessageStore, StoreError, SyncPolicy,
};
use fix_test_support::temp_dir::TestDir;

const ID: &str = "FIX.4.4-CRASH-TEST";
const ROLE: &str = "FIX_SESSION_CRASH_ROLE";
const DIR: &str = "FIX_SESSION_CRASH_DIR";
const RUN: &str = "FIX_SESSION_CRASH_RUN";

/// The child's side: does nothing in an ordinary test run.
#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    if role == "full-disk" {
        return full_disk_child();
    }
    assert_eq!(role, "writer");
    let dir = std::env::var(DIR).unwrap();
    let run: u64 = std::env::var(RUN).unwrap().parse().unwrap();
    let options = FileOptions::new().sync(SyncPolicy::EveryRecord);
    let mut store = FileStore::open_with(&dir, ID, options).unwrap();
    // Written straight to the process's stdout (not the test harness's capture),
    // one write per line, after the call it reports returned.
    let mut out = std::io::stdout().lock();
    writeln!(out, "open").unwrap();
    out.flush().unwrap();
    // Bounded, in case no one kills it.
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        let seq = store.next_sender_seq();
        store.store(seq, &message(seq, run)).unwrap();
        writeln!(out, "stored {seq}").unwrap();
        out.flush().unwrap();
        if seq.is_multiple_of(3) {
            let received = store.next_target_seq();
            store.advance_target_seq(received).unwrap();
            writeln!(out, "target {}", received + 1).unwrap();
            out.flush().unwrap();
        }
    }
}

fn spawn_writer(dir: &TestDir, run: u64) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1", "-q"])
        .env(ROLE, "writer")
        .env(DIR, dir.path())
        .env(RUN, run.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap()
}

#[test]
fn writers_killed_at_random_lose_nothing_they_confirmed() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let seed = match std::env::var("FIX_SESSION_CRASH_SEED") {
        Ok(s) => s.parse().unwrap(),
        Err(_) => fastrand::u64(..),
    };
    println!("FIX_SESSION_CRASH_SEED={seed}");
    let mut rng = fastrand::Rng::with_seed(seed);
    let dir = TestDir::new("crash");
    let started = Instant::now();

    // What the writers confirmed: message number → the run that stored it.
    let mut confirmed = std::collections::BTreeMap::<u64, u64>::new();
    let mut max_target = 1;
    // What the last reopen found, which must stay (it was synced).
    let mut seen: Vec<(u64, Vec<u8>)> = Vec::new();
    let (mut killed_mid_burst, mut torn) = (0, 0);
    for run in 0..100 {
        let mut child = spawn_writer(&dir, run);
        let mut stdout = child.stdout.take().unwrap();
        let reader = std::thread::spawn(move || {
            let mut text = String::new();
            stdout.read_to_string(&mut text).unwrap();
            text
        });
        // Up to 60 ms: some kills land while the child starts or recovers the log,
        // most in the middle of its burst of stores.
        std::thread::sleep(Duration::from_micros(rng.u64(0..60_000)));
        child.kill().unwrap();
        child.wait().unwrap();
        let text = reader.join().unwrap();

        // Only whole lines: a line cut by the kill was never confirmed.
        let whole = &text[..text.rfind('\n').map_or(0, |i| i + 1)];
        let mut stored_this_run = 0;
        for line in whole.lines() {
            if let Some(n) = line.strip_prefix("stored ") {
                let seq: u64 = n.parse().unwrap();
                if let Some(earlier) = confirmed.insert(seq, run) {
                    panic!("run {run} was handed number {seq}, confirmed by run {earlier}");
                }
                stored_this_run += 1;
            } else if let Some(n) = line.strip_prefix("target ") {
                max_target = max_target.max(n.parse().unwrap());
            }
        }
        if stored_this_run > 0 {
            killed_mid_burst += 1;
        }

        let mut store = FileStore::open(dir.path(), ID).unwrap();
        torn += usize::from(store.torn_tail().is_some());
        let all = read_all(&mut store, 1, u64::MAX, ChunkLimit::new(64, 64 * 1024));
        // Numbers 1, 2, 3, … each once: the writer never skips one.
        for (i, (seq, _)) in all.iter().enumerate() {
            assert_eq!(*seq, i as u64 + 1, "run {run}: numbers not contiguous");
        }
        assert_eq!(store.next_sender_seq(), all.len() as u64 + 1);
        // Every confirmed message is there byte for byte, written by the run that
        // confirmed it.
        for (&seq, &by) in &confirmed {
            let found = all.get(seq as usize - 1).map(|(_, m)| m);
            assert!(
                found == Some(&message(seq, by)),
                "run {run}: message {seq} confirmed by run {by} is missing or different"
            );
        }
        let last_confirmed = confirmed.keys().next_back().copied().unwrap_or(0);
        assert!(store.next_sender_seq() > last_confirmed);
        assert!(
            store.next_target_seq() >= max_target,
            "run {run}: target went back"
        );
        // What an earlier reopen found stays, unchanged.
        assert!(
            all.len() >= seen.len() && all[..seen.len()] == seen[..],
            "run {run}"
        );
        seen = all;
    }
    let elapsed = started.elapsed();
    println!(
        "{} messages, {killed_mid_burst} of 100 writers killed after confirming some, \
         {torn} torn tails, {elapsed:?}",
        seen.len()
    );
    // The test tested something: most kills hit a burst.
    assert!(killed_mid_burst >= 50, "{killed_mid_burst}");
    assert!(seen.len() >= 500, "{}", seen.len());
}

#[test]
fn the_lock_holds_across_processes_and_dies_with_its_holder() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let dir = TestDir::new("crash-lock");
    let mut child = spawn_writer(&dir, 0);
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    // Wait until the child holds the store (past the test harness's own lines).
    assert!(lines.any(|l| l.unwrap() == "open"));
    let err = FileStore::open(dir.path(), ID).unwrap_err();
    assert!(matches!(err, StoreError::Locked { .. }), "{err:?}");
    child.kill().unwrap();
    child.wait().unwrap();
    // SIGKILL ran no destructor; the system released the lock with the process.
    let store = FileStore::open(dir.path(), ID).unwrap();
    assert!(store.next_sender_seq() >= 1);
}

/// The child's side of the full-disk test: run with a file size limit, it fills the
/// log until growing it fails.
fn full_disk_child() {
    let dir = std::env::var(DIR).unwrap();
    let mut store = FileStore::open(&dir, ID).unwrap();
    let mut seq = 1;
    let err = loop {
        match store.store(seq, &message(seq, 0)) {
            Ok(()) => seq += 1,
            Err(e) => break e,
        }
    };
    assert!(
        matches!(
            err,
            StoreError::Io {
                op: IoOperation::Allocate,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(seq > 10, "the limit allowed only {seq} messages");
    // Nothing changed: the number was not taken, no part of the record written.
    assert_eq!(store.next_sender_seq(), seq);
    let err = store.store(seq, &message(seq, 0)).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Io {
                op: IoOperation::Allocate,
                ..
            }
        ),
        "{err:?}"
    );
    // Smaller records may still fit in the space left: advance the target number
    // until one does not.
    let err = loop {
        let received = store.next_target_seq();
        if let Err(e) = store.advance_target_seq(received) {
            assert_eq!(store.next_target_seq(), received);
            break e;
        }
    };
    assert!(
        matches!(
            err,
            StoreError::Io {
                op: IoOperation::Allocate,
                ..
            }
        ),
        "{err:?}"
    );
    let target = store.next_target_seq();
    // What was stored is still read back.
    let all = read_all(&mut store, 1, u64::MAX, ChunkLimit::default());
    assert_eq!(all.len() as u64, seq - 1);
    drop(store);
    let mut store = FileStore::open(&dir, ID).unwrap();
    assert_eq!(
        store.torn_tail(),
        None,
        "a failed write left part of a record"
    );
    assert_eq!(
        (store.next_sender_seq(), store.next_target_seq()),
        (seq, target)
    );
    // A reset writes a small new log, which fits: the store works again.
    store.reset(std::time::SystemTime::now()).unwrap();
    store.store(1, b"after the reset").unwrap();
    let mut out = std::io::stdout().lock();
    writeln!(out, "full at {seq}").unwrap();
}

#[test]
fn a_full_disk_fails_the_write_and_leaves_the_store_sound() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let dir = TestDir::new("crash-full");
    // The shell ignores SIGXFSZ (ignored signals stay ignored across exec) and limits
    // the size of files the child writes to 256 blocks of 512 bytes (two of the
    // log's first growth steps): past it, allocating fails with EFBIG, as on a
    // full disk.
    let output = Command::new("sh")
        .args(["-c", "trap '' XFSZ; ulimit -f 256; exec \"$0\" \"$@\""])
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1", "-q"])
        .env(ROLE, "full-disk")
        .env(DIR, dir.path())
        .stderr(Stdio::inherit())
        .output()
        .unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert!(output.status.success(), "{stdout}");
    assert!(stdout.contains("full at "), "{stdout}");
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.torn_tail(), None);
    assert_eq!(
        read_all(&mut store, 1, u64::MAX, ChunkLimit::default()),
        [(1, b"after the reset".to_vec())]
    );
}
