//! The engine's shared log: one sync for many sessions, what it recovers
//! after a crash (torn ends, answers never closed, damage), segments freed
//! after resets. Processes killed with SIGKILL: `shared_log_killed.rs`.

use std::fs::OpenOptions;
use std::io::Write;
use std::time::{Duration, Instant, SystemTime};

use crate::common::{message, read_all};
use fix_session::store::{SharedLog, SharedLogOptions};
use fix_session::{ChunkLimit, MessageStore, StoreError};
use fix_test_support::temp_dir::TestDir;

/// Sessions writing beside each other, a thread each.
const WRITERS: u64 = 4;

fn small() -> SharedLogOptions {
    SharedLogOptions::new().segment_size(64 << 10)
}

fn name(i: u64) -> String {
    format!("FIX.4.4-W{i}-EXEC")
}

fn segments(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "seg"))
        .collect();
    out.sort();
    out
}

#[test]
fn one_sync_covers_every_session_that_wrote_meanwhile() {
    let dir = TestDir::new("shared-one-sync");
    let log = SharedLog::open(dir.path(), SharedLogOptions::new()).unwrap();
    let now = SystemTime::now();
    let mut stores: Vec<_> = (0..100)
        .map(|i| log.open_store(&name(i), now).unwrap())
        .collect();
    let before = log.syncs();
    // Each session stores a message and begins its sync; then each waits.
    let jobs: Vec<_> = stores
        .iter_mut()
        .map(|s| {
            s.store(1, b"35=D\x01").unwrap();
            s.begin_sync().unwrap()
        })
        .collect();
    for (store, job) in stores.iter_mut().zip(jobs) {
        if let Some(job) = job {
            store.end_sync(job.run()).unwrap();
        }
        assert!(!store.pending_sync());
    }
    let syncs = log.syncs() - before;
    // 100 sessions, a sync of the disk each would be 100: the log's thread
    // syncs what was written while it synced, a few times (each begin asks
    // for a sync at once, so a test thread descheduled on a busy machine
    // sees a few more).
    assert!(syncs <= 25, "{syncs} syncs for 100 sessions");
    println!("100 sessions durable with {syncs} syncs");
}

#[test]
fn answers_never_closed_are_taken_back_and_abandoned_ones_stay_out() {
    let dir = TestDir::new("shared-answers");
    let now = SystemTime::now();
    {
        let log = SharedLog::open(dir.path(), small()).unwrap();
        let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
        let mut b = log.open_store("FIX.4.4-B-X", now).unwrap();
        // A: answers written to the log, then abandoned; then stored afresh.
        a.begin_answer(1);
        a.store(1, b"abandoned").unwrap();
        a.sync().unwrap();
        a.abandon_answer();
        assert_eq!(a.next_sender_seq(), 1);
        a.store(1, b"kept").unwrap();
        a.sync().unwrap();
        // B: answers written and durable, the process dies before the advance.
        b.begin_answer(1);
        b.store(1, b"never sent").unwrap();
        b.sync().unwrap();
    }
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    let all = read_all(&mut a, 1, u64::MAX, ChunkLimit::default());
    assert_eq!(all, [(1, b"kept".to_vec())]);
    let b = log.open_store("FIX.4.4-B-X", now).unwrap();
    assert_eq!((b.next_sender_seq(), b.next_target_seq()), (1, 1));
}

#[test]
fn a_torn_end_is_cut_and_damage_with_records_after_it_is_refused() {
    let dir = TestDir::new("shared-torn");
    let now = SystemTime::now();
    {
        let log = SharedLog::open(dir.path(), small()).unwrap();
        let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
        for seq in 1..=5 {
            a.store(seq, &message(seq, 0)).unwrap();
        }
        a.sync().unwrap();
    }
    let seg = segments(dir.path()).pop().unwrap();
    let bytes = std::fs::read(&seg).unwrap();
    let end = bytes.iter().rposition(|&b| b != 0).unwrap() + 1;
    // A batch cut short: a record's length and half of it.
    let mut f = OpenOptions::new().write(true).open(&seg).unwrap();
    std::io::Seek::seek(&mut f, std::io::SeekFrom::Start(end as u64)).unwrap();
    f.write_all(&[60, 0, 0, 0, 1, 1, 0, 0, 0, 9, 9]).unwrap();
    drop(f);
    {
        let log = SharedLog::open(dir.path(), small()).unwrap();
        let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
        assert_eq!(a.next_sender_seq(), 6);
        a.store(6, &message(6, 1)).unwrap();
        a.sync().unwrap();
    }
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    assert_eq!(
        read_all(&mut a, 1, u64::MAX, ChunkLimit::default()).len(),
        6
    );
    drop((a, log));
    // A flipped byte in the middle, records after it: refused, not cut.
    let mut bytes = std::fs::read(&seg).unwrap();
    bytes[40] ^= 0xff;
    std::fs::write(&seg, &bytes).unwrap();
    let err = SharedLog::open(dir.path(), small()).unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }), "{err:?}");
}

#[test]
fn segments_before_every_sessions_last_reset_are_removed() {
    let dir = TestDir::new("shared-segments");
    let now = SystemTime::now();
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    let mut b = log.open_store("FIX.4.4-B-X", now).unwrap();
    let body = vec![b'x'; 1000];
    for seq in 1..=300 {
        a.store(seq, &body).unwrap();
        b.store(seq, &body).unwrap();
        a.sync().unwrap();
        b.sync().unwrap();
    }
    let many = segments(dir.path()).len();
    assert!(many >= 8, "{many} segments for 600 KB");
    // Resends read across segments.
    assert_eq!(
        read_all(&mut a, 1, u64::MAX, ChunkLimit::new(1000, usize::MAX)).len(),
        300
    );
    a.reset(now).unwrap();
    // B has not reset: every segment since its first record stays.
    for seq in 1..=70 {
        a.store(seq, &body).unwrap();
        a.sync().unwrap();
    }
    assert!(segments(dir.path()).len() >= many);
    b.reset(now).unwrap();
    for seq in 71..=140 {
        a.store(seq, &body).unwrap();
        a.sync().unwrap();
    }
    let left = segments(dir.path()).len();
    assert!(left <= 4, "{left} segments left of {many}");
    assert_eq!(
        read_all(&mut a, 1, u64::MAX, ChunkLimit::new(1000, usize::MAX)).len(),
        140
    );
    drop((a, b, log));
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    assert_eq!(
        read_all(&mut a, 1, u64::MAX, ChunkLimit::new(1000, usize::MAX)).len(),
        140
    );
    assert_eq!(
        log.open_store("FIX.4.4-B-X", now)
            .unwrap()
            .next_sender_seq(),
        1
    );
}

/// The log's end lives in memory until its sync thread writes it (directly,
/// past the page cache): a message must read back whole whether its bytes
/// wait in memory, are being written, or are in a segment, across segment
/// ends, with other sessions writing and syncing beside it.
#[test]
fn messages_read_back_whole_while_their_writes_wait_fly_or_land() {
    let dir = TestDir::new("shared-read-back");
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let now = SystemTime::now();
    let threads: Vec<_> = (0..WRITERS)
        .map(|i| {
            let mut store = log.open_store(&name(i), now).unwrap();
            std::thread::spawn(move || {
                for seq in 1..=1500u64 {
                    store.store(seq, &message(seq, i)).unwrap();
                    if seq % 5 == 0 {
                        store.sync().unwrap();
                    } else {
                        // Appended, not waited for: the sync thread may be
                        // writing it as it is read.
                        store.write_out().unwrap();
                    }
                    let from = seq.saturating_sub(3).max(1);
                    let got = read_all(&mut store, from, seq, ChunkLimit::default());
                    let want: Vec<_> = (from..=seq).map(|q| (q, message(q, i))).collect();
                    assert_eq!(got, want, "session {i} at {seq}");
                }
                store.sync().unwrap();
                read_all(&mut store, 1, u64::MAX, ChunkLimit::default())
            })
        })
        .collect();
    for (i, t) in threads.into_iter().enumerate() {
        let all = t.join().unwrap();
        assert_eq!(all.len(), 1500);
        assert!(all.iter().all(|(q, m)| *m == message(*q, i as u64)));
    }
    assert!(segments(dir.path()).len() > 4, "the run crossed segments");
    drop(log);
    // And from the segments alone, once the log is opened again.
    let log = SharedLog::open(dir.path(), small()).unwrap();
    for i in 0..WRITERS {
        let mut store = log.open_store(&name(i), now).unwrap();
        let all = read_all(&mut store, 1, u64::MAX, ChunkLimit::default());
        assert_eq!(all.len(), 1500);
        assert!(all.iter().all(|(q, m)| *m == message(*q, i)));
    }
}

/// A step that only received asks for no sync: its records are written and
/// synced within `UNASKED_SYNC_AFTER`, and the tools reading a running
/// engine's log see them then (a process killed before keeps them in the
/// log's shadow: `shared_log_killed.rs`).
#[test]
fn records_no_one_waits_for_are_synced_soon_and_the_tools_see_them() {
    use fix_session::store::{SHARED_LOG_DIR, StoreLog, UNASKED_SYNC_AFTER};
    let dir = TestDir::new("shared-unasked");
    let log = SharedLog::open(dir.path().join(SHARED_LOG_DIR), SharedLogOptions::new()).unwrap();
    let mut store = log.open_store(&name(0), SystemTime::now()).unwrap();
    store.store(1, &message(1, 0)).unwrap();
    store.sync().unwrap();
    let before = log.syncs();
    store.advance_target_seq(1).unwrap();
    store.advance_target_seq(2).unwrap();
    store.write_out().unwrap();
    let asked = Instant::now();
    let seen = loop {
        let tool = StoreLog::open(dir.path(), &name(0)).unwrap();
        if tool.next_target_seq() == 3 || asked.elapsed() > Duration::from_secs(10) {
            break tool.next_target_seq();
        }
        std::thread::sleep(UNASKED_SYNC_AFTER / 2);
    };
    assert_eq!(seen, 3, "the tool reads the received numbers");
    // Written at once, synced within UNASKED_SYNC_AFTER: one sync no one
    // asked for.
    while log.syncs() == before && asked.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(UNASKED_SYNC_AFTER / 2);
    }
    std::thread::sleep(UNASKED_SYNC_AFTER * 3);
    assert_eq!(log.syncs() - before, 1, "one sync no one asked for");
}

#[test]
fn a_store_closed_and_opened_again_goes_on_where_it_was() {
    let dir = TestDir::new("shared-reopen");
    let now = SystemTime::now();
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let _other = log.open_store("FIX.4.4-B-X", now).unwrap();
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    for seq in 1..=5 {
        a.store(seq, &message(seq, 0)).unwrap();
    }
    a.advance_target_seq(1).unwrap();
    drop(a);
    // The log stays open (another session has it): the session is not new.
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    assert_eq!((a.next_sender_seq(), a.next_target_seq()), (6, 2));
    assert_eq!(
        read_all(&mut a, 1, u64::MAX, ChunkLimit::default()).len(),
        5
    );
}

#[test]
fn a_removed_session_frees_its_segments_and_the_log_still_opens() {
    let dir = TestDir::new("shared-remove-segments");
    let now = SystemTime::now();
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let body = vec![b'x'; 1000];
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    for seq in 1..=200 {
        a.store(seq, &body).unwrap();
        a.sync().unwrap();
    }
    drop(a);
    log.remove("FIX.4.4-A-X").unwrap();
    // B's records roll the log on: A's first segments go, its later
    // records and its Removed stay.
    let mut b = log.open_store("FIX.4.4-B-X", now).unwrap();
    for seq in 1..=200 {
        b.store(seq, &body).unwrap();
        b.sync().unwrap();
    }
    drop((b, log));
    let log = SharedLog::open(dir.path(), small()).unwrap();
    assert_eq!(log.sessions(), ["FIX.4.4-B-X"]);
    assert_eq!(
        log.open_store("FIX.4.4-B-X", now)
            .unwrap()
            .next_sender_seq(),
        201
    );
}

#[test]
fn a_removed_session_starts_afresh_and_a_second_open_is_refused() {
    let dir = TestDir::new("shared-remove");
    let now = SystemTime::now();
    let log = SharedLog::open(dir.path(), small()).unwrap();
    let mut a = log.open_store("FIX.4.4-A-X", now).unwrap();
    a.store(1, b"one").unwrap();
    a.sync().unwrap();
    let err = log.open_store("FIX.4.4-A-X", now).unwrap_err();
    assert!(matches!(err, StoreError::Locked { .. }), "{err:?}");
    drop(a);
    log.remove("FIX.4.4-A-X").unwrap();
    assert!(!log.contains("FIX.4.4-A-X"));
    drop(log);
    let log = SharedLog::open(dir.path(), small()).unwrap();
    assert_eq!(
        log.open_store("FIX.4.4-A-X", now)
            .unwrap()
            .next_sender_seq(),
        1
    );
    // Another process's lock: a second open of the directory is refused.
    let err = SharedLog::open(dir.path(), small()).unwrap_err();
    assert!(matches!(err, StoreError::Locked { .. }), "{err:?}");
}

/// Wakes the test's thread.
struct Unpark(std::thread::Thread);

impl std::task::Wake for Unpark {
    fn wake(self: std::sync::Arc<Self>) {
        self.0.unpark();
    }
}

#[test]
fn tasks_awaiting_their_syncs_are_woken_once_each_sync_covers_them() {
    use std::future::Future;
    use std::task::{Context, Poll};
    let dir = TestDir::new("shared-await");
    let log = SharedLog::open(dir.path(), SharedLogOptions::new()).unwrap();
    let now = SystemTime::now();
    let mut stores: Vec<_> = (0..50)
        .map(|i| log.open_store(&name(i), now).unwrap())
        .collect();
    let waker = std::task::Waker::from(std::sync::Arc::new(Unpark(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    let started = Instant::now();
    for round in 1..=20u64 {
        let mut waits: Vec<_> = stores
            .iter_mut()
            .map(|s| {
                s.store(round, b"35=D\x01").unwrap();
                let job = s.begin_sync().unwrap().expect("a record waits");
                Some(job.into_wait().expect("the shared log's jobs are awaited"))
            })
            .collect();
        let deadline = Instant::now() + Duration::from_secs(10);
        while waits.iter().any(Option::is_some) {
            for (store, slot) in stores.iter_mut().zip(waits.iter_mut()) {
                // Polled at every wake, as a task's select polls it.
                if let Some(wait) = slot
                    && let Poll::Ready(done) = std::pin::Pin::new(wait).poll(&mut cx)
                {
                    store.end_sync(done).unwrap();
                    *slot = None;
                }
            }
            if waits.iter().all(Option::is_none) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "round {round}: a wait was never woken"
            );
            // Only a wake brings the thread back before the deadline.
            std::thread::park_timeout(deadline - Instant::now());
        }
        assert!(stores.iter().all(|s| !s.pending_sync()));
    }
    println!("20 rounds of 50 sessions in {:?}", started.elapsed());
}

/// Counts its calls, and what the log had synced and which thread ran it.
struct Hook {
    log: SharedLog,
    calls: std::sync::Mutex<Vec<(u64, std::thread::ThreadId)>>,
}

impl fix_session::store::OnDurable for Hook {
    fn on_durable(&self) {
        let seen = (self.log.syncs(), std::thread::current().id());
        self.calls.lock().unwrap().push(seen);
    }
}

/// Awaits `wait` on this thread, as a task would.
fn await_sync(wait: fix_session::store::SyncWait) -> fix_session::store::SyncDone {
    use std::future::Future;
    let waker = std::task::Waker::from(std::sync::Arc::new(Unpark(std::thread::current())));
    let mut cx = std::task::Context::from_waker(&waker);
    let mut wait = std::pin::pin!(wait);
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let std::task::Poll::Ready(done) = wait.as_mut().poll(&mut cx) {
            return done;
        }
        assert!(Instant::now() < deadline, "a wait was never woken");
        std::thread::park_timeout(deadline - Instant::now());
    }
}

#[test]
fn a_hook_runs_once_on_the_sync_thread_after_its_records_are_durable() {
    let dir = TestDir::new("shared-hook");
    let log = SharedLog::open(dir.path(), SharedLogOptions::new()).unwrap();
    let mut store = log.open_store(&name(1), SystemTime::now()).unwrap();
    let hook = std::sync::Arc::new(Hook {
        log: log.clone(),
        calls: std::sync::Mutex::new(Vec::new()),
    });
    let calls = |h: &Hook| h.calls.lock().unwrap().clone();

    let before = log.syncs();
    store.store(1, b"35=D\x01").unwrap();
    let wait = store.begin_sync().unwrap().unwrap().into_wait().unwrap();
    assert!(wait.on_durable(hook.clone()));
    store.end_sync(await_sync(wait)).unwrap();
    let ran = calls(&hook);
    assert_eq!(ran.len(), 1, "the hook runs once: {ran:?}");
    assert!(ran[0].0 > before, "it ran before the sync ended: {ran:?}");
    assert_ne!(ran[0].1, std::thread::current().id());

    // Later syncs, without a hook of their own, do not run it again.
    for seq in 2..5 {
        store.store(seq, b"35=D\x01").unwrap();
        let wait = store.begin_sync().unwrap().unwrap().into_wait().unwrap();
        store.end_sync(await_sync(wait)).unwrap();
    }
    assert_eq!(calls(&hook).len(), 1);
}
