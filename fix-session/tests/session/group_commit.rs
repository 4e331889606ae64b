//! Group commit: under `SyncPolicy::Batch` a session stores messages without a
//! sync and hands their bytes out only after one `Session::sync` covers them.
//! A recording store over a real `FileStore` logs every store and sync, and
//! the test's "socket" logs every write with the numbers it carried: no number
//! may be written before a sync that followed its store. The same check run on
//! a store that lies about its pending records (the sync removed) must fail,
//! so the check can fail. The same again with the sync split in three
//! (`begin_sync`, the job on another thread, `end_sync`), overlapped with the
//! next burst as the engine overlaps it with its next reads.

use crate::common;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::SystemTime;

use crate::common::{Recorder, configs, get, split, t0};
use fix_session::store::{SyncDone, SyncJob};
use fix_session::{
    Chunk, ChunkLimit, FileOptions, FileStore, MemoryStore, MessageStore, Session, StoreError,
    SyncPolicy,
};
use fix_test_support::temp_dir::TestDir;

#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Stored(u64),
    Synced,
    /// A sync job began (its number): it covers what was stored before.
    Began(u64),
    /// That job ended, successfully.
    Ended(u64),
    Written(Vec<u64>),
}

type Trail = Rc<RefCell<Vec<Step>>>;

/// A `FileStore` whose stores and syncs are written down; `lie` makes it say
/// nothing is pending, as if the session's sync were taken out;
/// `forget_job`, nothing pending while a job runs (as a store that counts
/// only what it buffered since the job took the rest), which the session
/// must not take for durable.
struct Recording {
    inner: FileStore,
    trail: Trail,
    lie: bool,
    forget_job: bool,
}

impl MessageStore for Recording {
    fn next_sender_seq(&self) -> u64 {
        self.inner.next_sender_seq()
    }
    fn next_target_seq(&self) -> u64 {
        self.inner.next_target_seq()
    }
    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        self.inner.set_next_sender_seq(seq)
    }
    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        self.inner.set_next_target_seq(seq)
    }
    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        self.inner.store(seq, message)?;
        self.trail.borrow_mut().push(Step::Stored(seq));
        Ok(())
    }
    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        self.inner.advance_target_seq(received)
    }
    fn begin_answer(&mut self, received: u64) {
        self.inner.begin_answer(received)
    }
    fn abandon_answer(&mut self) {
        self.inner.abandon_answer()
    }
    fn read_stored(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        self.inner.read_stored(from, to, limit, visit)
    }
    fn reset(&mut self, now: SystemTime) -> Result<(), StoreError> {
        self.inner.reset(now)
    }
    fn creation_time(&self) -> SystemTime {
        self.inner.creation_time()
    }
    fn sync(&mut self) -> Result<(), StoreError> {
        self.inner.sync()?;
        self.trail.borrow_mut().push(Step::Synced);
        Ok(())
    }
    fn pending_sync(&self) -> bool {
        !self.lie && self.inner.pending_sync() && !(self.forget_job && self.inner.sync_in_flight())
    }
    fn begin_sync(&mut self) -> Result<Option<SyncJob>, StoreError> {
        let job = self.inner.begin_sync()?;
        if let Some(job) = &job {
            self.trail.borrow_mut().push(Step::Began(job.id()));
        }
        Ok(job)
    }
    fn end_sync(&mut self, done: SyncDone) -> Result<(), StoreError> {
        let id = done.id();
        self.inner.end_sync(done)?;
        self.trail.borrow_mut().push(Step::Ended(id));
        Ok(())
    }
    fn sync_in_flight(&self) -> bool {
        self.inner.sync_in_flight()
    }
}

type Fix44 = common::Fix44;

/// Takes what the acceptor hands out (syncing first when it holds messages
/// back, as the engine does once a step) and writes it down as one write.
fn write_out(acc: &mut Session<Recording, Fix44>, trail: &Trail) -> Vec<u8> {
    if acc.needs_sync() {
        acc.sync().unwrap();
    }
    write_released(acc, trail)
}

/// How an acceptor's step makes its answers durable.
#[derive(Clone, Copy, PartialEq)]
enum Sync {
    /// `Session::sync` before writing, as a step without overlap.
    InStep,
    /// The sync split in three and overlapped: the job begun after a burst's
    /// answers runs on another thread while the next burst is handled, and
    /// ends before that step writes.
    Overlapped,
}

/// Ends the sync job in flight, if any (it ran on another thread).
fn end_job(
    acc: &mut Session<Recording, Fix44>,
    job: &mut Option<std::thread::JoinHandle<SyncDone>>,
) {
    if let Some(job) = job.take() {
        acc.end_sync(job.join().unwrap()).unwrap();
    }
}

/// Writes down what the acceptor hands out now as one write.
fn write_released(acc: &mut Session<Recording, Fix44>, trail: &Trail) -> Vec<u8> {
    let out = acc.output().to_vec();
    acc.consume_output(out.len());
    if !out.is_empty() {
        let seqs = split(&out)
            .iter()
            .map(|m| get(m, 34).unwrap().parse().unwrap())
            .collect();
        trail.borrow_mut().push(Step::Written(seqs));
    }
    out
}

/// The numbers written before a sync begun after their store had ended, if any.
fn written_before_durable(trail: &[Step]) -> Vec<u64> {
    let mut unsynced = std::collections::HashSet::new();
    let mut covered = std::collections::HashMap::new();
    let mut early = Vec::new();
    for step in trail {
        match step {
            Step::Stored(seq) => {
                unsynced.insert(*seq);
            }
            Step::Synced => unsynced.clear(),
            Step::Began(id) => {
                covered.insert(*id, unsynced.clone());
            }
            Step::Ended(id) => {
                for seq in covered.remove(id).unwrap_or_default() {
                    unsynced.remove(&seq);
                }
            }
            Step::Written(seqs) => early.extend(seqs.iter().filter(|s| unsynced.contains(s))),
        }
    }
    early
}

/// An acceptor over a recording batch store answers `orders` orders sent in
/// bursts of `burst`; returns the trail and how many syncs the store made.
fn run(lie: bool, orders: usize, burst: usize) -> (Vec<Step>, u64, usize) {
    run_with(lie, orders, burst, Sync::InStep)
}

fn run_with(lie: bool, orders: usize, burst: usize, sync: Sync) -> (Vec<Step>, u64, usize) {
    run_store(lie, false, orders, burst, sync)
}

fn run_store(
    lie: bool,
    forget_job: bool,
    orders: usize,
    burst: usize,
    sync: Sync,
) -> (Vec<Step>, u64, usize) {
    let dir = TestDir::new(if lie { "group-lie" } else { "group" });
    let trail: Trail = Rc::default();
    let store = Recording {
        inner: FileStore::open_with(
            dir.path(),
            "FIX.4.4-BROKER-CLIENT",
            FileOptions::new()
                .sync(SyncPolicy::Batch)
                .inline_sync_below(0),
        )
        .unwrap(),
        trail: trail.clone(),
        lie,
        forget_job,
    };
    let (ic, ac) = configs();
    let mut init = Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY);
    let mut acc = Session::new(ac, store, &fix44::DICTIONARY);
    let (mut ia, mut aa) = (Recorder::default(), Recorder::echo());
    let now = t0();
    acc.connected(now, &mut aa).unwrap();
    init.connected(now, &mut ia).unwrap();
    let logon = init.output().to_vec();
    init.consume_output(logon.len());
    acc.handle_bytes(now, &logon, &mut aa).unwrap();
    let answer = write_out(&mut acc, &trail);
    init.handle_bytes(now, &answer, &mut ia).unwrap();
    let mut sent = 0;
    let mut job = None;
    while sent < orders {
        for _ in 0..burst.min(orders - sent) {
            let body =
                format!("11=O{sent}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
            init.send(now, b"D", body.as_bytes(), &mut ia).unwrap();
            sent += 1;
        }
        let wire = init.output().to_vec();
        init.consume_output(wire.len());
        // One read brings the whole burst: one step of the engine.
        acc.handle_bytes(now, &wire, &mut aa).unwrap();
        let answers = match sync {
            Sync::InStep => write_out(&mut acc, &trail),
            Sync::Overlapped => {
                // The answers to the burst before, durable now, leave; this
                // burst's answers wait for the job begun here.
                end_job(&mut acc, &mut job);
                let out = write_released(&mut acc, &trail);
                job = acc
                    .begin_sync()
                    .unwrap()
                    .map(|j| std::thread::spawn(move || j.run()));
                out
            }
        };
        init.handle_bytes(now, &answers, &mut ia).unwrap();
    }
    end_job(&mut acc, &mut job);
    let answers = write_released(&mut acc, &trail);
    init.handle_bytes(now, &answers, &mut ia).unwrap();
    let syncs = acc.store().inner.syncs();
    let answered = ia.received.len();
    let trail = trail.borrow().clone();
    (trail, syncs, answered)
}

#[test]
fn no_byte_leaves_before_the_sync_that_covers_its_message() {
    let (trail, syncs, answered) = run(false, 1000, 100);
    assert_eq!(answered, 1000, "every order answered");
    assert_eq!(written_before_durable(&trail), Vec::<u64>::new());
    // One sync a burst (and the Logon's): 11 for 1001 messages.
    assert_eq!(syncs, 11);
    let per_message = syncs as f64 / 1001.0;
    assert!(per_message <= 0.1, "{per_message} syncs a message");
}

#[test]
fn a_single_order_still_pays_one_sync() {
    let (trail, syncs, answered) = run(false, 5, 1);
    assert_eq!(answered, 5);
    assert_eq!(written_before_durable(&trail), Vec::<u64>::new());
    assert_eq!(syncs, 6, "the Logon's and one an order");
}

#[test]
fn without_the_sync_the_check_fails() {
    // The store says nothing is pending: the session hands bytes out as soon
    // as they are stored, before any sync, and the check must see it.
    let (trail, _, answered) = run(true, 100, 10);
    assert_eq!(answered, 100);
    let early = written_before_durable(&trail);
    assert!(
        early.len() >= 100,
        "the check must catch every answer written before its sync: {early:?}"
    );
}

#[test]
fn overlapped_syncs_hand_out_only_what_an_ended_job_covered() {
    let (trail, syncs, answered) = run_with(false, 1000, 100, Sync::Overlapped);
    assert_eq!(answered, 1000, "every order answered");
    assert_eq!(written_before_durable(&trail), Vec::<u64>::new());
    // One job a burst: 10 (the Logon's answer synced in the step).
    assert_eq!(syncs, 11);
    // Each burst's answers left one step later, after the job begun for them.
    let writes: Vec<usize> = trail
        .iter()
        .filter_map(|s| match s {
            Step::Written(seqs) => Some(seqs.len()),
            _ => None,
        })
        .collect();
    assert_eq!(
        writes,
        [1, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100]
    );
    let began = trail.iter().filter(|s| matches!(s, Step::Began(_))).count();
    let ended = trail.iter().filter(|s| matches!(s, Step::Ended(_))).count();
    assert_eq!((began, ended), (10, 10));
}

#[test]
fn overlapped_without_the_sync_the_check_fails() {
    let (trail, _, answered) = run_with(true, 100, 10, Sync::Overlapped);
    assert_eq!(answered, 100);
    let early = written_before_durable(&trail);
    assert!(
        early.len() >= 100,
        "every answer written before its sync: {early:?}"
    );
}

#[test]
fn a_session_that_only_receives_does_not_sync_at_every_read() {
    // Orders in, nothing out (the application answers none): the incoming
    // numbers wait for the sync of the next message that leaves.
    let dir = TestDir::new("group-receive-only");
    let store = FileStore::open_with(
        dir.path(),
        "FIX.4.4-BROKER-CLIENT",
        FileOptions::new()
            .sync(SyncPolicy::Batch)
            .inline_sync_below(0),
    )
    .unwrap();
    let (ic, ac) = configs();
    let mut init = Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY);
    let mut acc = Session::new(ac, store, &fix44::DICTIONARY);
    let (mut ia, mut aa) = (Recorder::default(), Recorder::default());
    let now = t0();
    acc.connected(now, &mut aa).unwrap();
    init.connected(now, &mut ia).unwrap();
    let logon = init.output().to_vec();
    init.consume_output(logon.len());
    acc.handle_bytes(now, &logon, &mut aa).unwrap();
    // The Logon's answer is held: a job for it.
    let job = acc.begin_sync().unwrap().expect("the Logon answer waits");
    acc.end_sync(job.run()).unwrap();
    let answer = acc.output().to_vec();
    acc.consume_output(answer.len());
    init.handle_bytes(now, &answer, &mut ia).unwrap();
    for i in 0..10 {
        let body = format!("11=O{i}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
        init.send(now, b"D", body.as_bytes(), &mut ia).unwrap();
        let wire = init.output().to_vec();
        init.consume_output(wire.len());
        acc.handle_bytes(now, &wire, &mut aa).unwrap();
        assert!(acc.store().pending_sync(), "the incoming number is written");
        assert!(
            acc.begin_sync().unwrap().is_none(),
            "and waits: nothing leaves"
        );
    }
    assert_eq!(acc.store().syncs(), 1);
    assert_eq!(aa.received.len(), 10);
}

/// A store that says nothing is pending while its job runs (the PostgreSQL
/// store did, its buffer emptied into the job): the session still holds the
/// job's bytes until it ends, as it asks the store whether a job is in
/// flight too. (Without that, the engine's restart test answered an order
/// twice: a batch lost with the database's crash had left already.)
#[test]
fn a_job_in_flight_holds_its_bytes_whatever_the_store_says_pending() {
    let (trail, _, answered) = run_store(false, true, 1000, 100, Sync::Overlapped);
    assert_eq!(answered, 1000, "every order answered");
    assert_eq!(written_before_durable(&trail), Vec::<u64>::new());
}
