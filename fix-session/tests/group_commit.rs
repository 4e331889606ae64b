//! Group commit: under `SyncPolicy::Batch` a session stores messages without a
//! sync and hands their bytes out only after one `Session::sync` covers them.
//! A recording store over a real `FileStore` logs every store and sync, and
//! the test's "socket" logs every write with the numbers it carried: no number
//! may be written before a sync that followed its store. The same check run on
//! a store that lies about its pending records (the sync removed) must fail,
//! so the check can fail.

mod common;

use std::cell::RefCell;
use std::rc::Rc;
use std::time::SystemTime;

use common::{Recorder, TempDir, configs, get, split, t0};
use fix_session::{
    Chunk, ChunkLimit, FileOptions, FileStore, MemoryStore, MessageStore, Session, StoreError,
    SyncPolicy,
};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Step {
    Stored(u64),
    Synced,
    Written(Vec<u64>),
}

type Trail = Rc<RefCell<Vec<Step>>>;

/// A `FileStore` whose stores and syncs are written down; `lie` makes it say
/// nothing is pending, as if the session's sync were taken out.
struct Recording {
    inner: FileStore,
    trail: Trail,
    lie: bool,
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
        !self.lie && self.inner.pending_sync()
    }
}

type Fix44 = common::Fix44;

/// Takes what the acceptor hands out (syncing first when it holds messages
/// back, as the engine does once a step) and writes it down as one write.
fn write_out(acc: &mut Session<Recording, Fix44>, trail: &Trail) -> Vec<u8> {
    if acc.needs_sync() {
        acc.sync().unwrap();
    }
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

/// The numbers written before a sync that followed their store, if any.
fn written_before_durable(trail: &[Step]) -> Vec<u64> {
    let mut unsynced = std::collections::HashSet::new();
    let mut early = Vec::new();
    for step in trail {
        match step {
            Step::Stored(seq) => {
                unsynced.insert(*seq);
            }
            Step::Synced => unsynced.clear(),
            Step::Written(seqs) => early.extend(seqs.iter().filter(|s| unsynced.contains(s))),
        }
    }
    early
}

/// An acceptor over a recording batch store answers `orders` orders sent in
/// bursts of `burst`; returns the trail and how many syncs the store made.
fn run(lie: bool, orders: usize, burst: usize) -> (Vec<Step>, u64, usize) {
    let dir = TempDir::new(if lie { "group-lie" } else { "group" });
    let trail: Trail = Rc::default();
    let store = Recording {
        inner: FileStore::open_with(
            dir.path(),
            "FIX.4.4-BROKER-CLIENT",
            FileOptions::new().sync(SyncPolicy::Batch),
        )
        .unwrap(),
        trail: trail.clone(),
        lie,
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
        let answers = write_out(&mut acc, &trail);
        init.handle_bytes(now, &answers, &mut ia).unwrap();
    }
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
