//! Each message answered once across a crash or a store error: a session over
//! a real `FileStore`, and over a store of the engine's shared log, stops
//! between storing its answer and recording the message as received, and the
//! counterparty (a second session) must still get exactly one answer once the
//! session is back.

use crate::common;

use std::time::SystemTime;

use crate::common::{Recorder, configs, t0};
use fix_session::store::{SharedLog, SharedLogOptions};
use fix_session::{Chunk, ChunkLimit, FileStore, MemoryStore, MessageStore, Session, StoreError};
use fix_test_support::temp_dir::TestDir;

/// Which durable store the acceptor has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A `FileStore`, a log of its own.
    File,
    /// A session's store in a `SharedLog` beside another session's.
    Shared,
}

/// The acceptor's store in `dir`, as a restarted process opens it.
fn open_store(kind: Kind, dir: &std::path::Path) -> Box<dyn MessageStore> {
    match kind {
        Kind::File => Box::new(FileStore::open(dir, ID).unwrap()),
        Kind::Shared => {
            let log = SharedLog::open(dir, SharedLogOptions::new()).unwrap();
            // Another session writes into the same log.
            let mut other = log.open_store("FIX.4.4-BROKER-OTHER", t0()).unwrap();
            let seq = other.next_sender_seq();
            other.store(seq, b"35=0\x01").unwrap();
            other.sync().unwrap();
            Box::new(log.open_store(ID, t0()).unwrap())
        }
    }
}

const ID: &str = "FIX.4.4-BROKER-CLIENT";

/// What the wrapped store does at the advance of the message under test.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fault {
    /// The process dies there: nothing more reaches the disk.
    Crash,
    /// The write fails there: the store reports an error and goes on.
    Error,
}

/// A `FileStore` that fails at the advance of incoming message `at`, or at
/// its `at_op`-th write (counted from 1; 0 for none).
struct Faulty {
    inner: Box<dyn MessageStore>,
    at: u64,
    at_op: usize,
    ops: usize,
    fault: Fault,
    dead: bool,
}

impl Faulty {
    fn new(inner: Box<dyn MessageStore>, at: u64, at_op: usize, fault: Fault) -> Faulty {
        Faulty {
            inner,
            at,
            at_op,
            ops: 0,
            fault,
            dead: false,
        }
    }

    /// Counts a write; whether it fails (and the store with it, on a crash).
    fn fails(&mut self) -> bool {
        self.ops += 1;
        if self.dead || self.ops == self.at_op {
            self.dead |= self.fault == Fault::Crash;
            return true;
        }
        false
    }

    fn failure() -> StoreError {
        StoreError::Io {
            op: fix_session::IoOperation::Write,
            path: "faulty".into(),
            source: std::io::Error::other("injected"),
        }
    }
}

impl MessageStore for Faulty {
    fn next_sender_seq(&self) -> u64 {
        self.inner.next_sender_seq()
    }
    fn next_target_seq(&self) -> u64 {
        self.inner.next_target_seq()
    }
    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        if self.fails() {
            return Err(Faulty::failure());
        }
        self.inner.set_next_sender_seq(seq)
    }
    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        if self.fails() {
            return Err(Faulty::failure());
        }
        self.inner.set_next_target_seq(seq)
    }
    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        if self.fails() {
            return Err(Faulty::failure());
        }
        self.inner.store(seq, message)
    }
    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        if self.fails() {
            return Err(Faulty::failure());
        }
        if received == self.at {
            self.dead = self.fault == Fault::Crash;
            self.at = 0;
            return Err(Faulty::failure());
        }
        self.inner.advance_target_seq(received)
    }
    fn begin_answer(&mut self, received: u64) {
        self.inner.begin_answer(received)
    }
    fn abandon_answer(&mut self) {
        // A dead process writes nothing more.
        if !self.dead {
            self.inner.abandon_answer()
        }
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
        self.inner.sync()
    }
    fn pending_sync(&self) -> bool {
        self.inner.pending_sync()
    }
}

type Fix44 = common::Fix44;

/// Moves bytes both ways until neither side writes; an acceptor error ends
/// the exchange (as the engine ends the connection) and is returned.
fn pump<S: MessageStore>(
    init: &mut Session<MemoryStore, Fix44>,
    ia: &mut dyn fix_session::Application,
    acc: &mut Session<S, Fix44>,
    aa: &mut Recorder,
    now: SystemTime,
) -> Result<(), fix_session::SessionError> {
    for _ in 0..50 {
        let a = init.output().to_vec();
        init.consume_output(a.len());
        // Durable before it leaves, as the engine syncs after each step.
        acc.sync()?;
        let b = acc.output().to_vec();
        acc.consume_output(b.len());
        if a.is_empty() && b.is_empty() {
            break;
        }
        acc.handle_bytes(now, &a, aa)?;
        init.handle_bytes(now, &b, ia).unwrap();
    }
    Ok(())
}

fn order() -> &'static [u8] {
    b"11=ONCE\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01"
}

/// The run: log on, one order whose answer's advance fails, then (after a
/// restart from the disk, or on the same store) log on again; returns how
/// many answers to the order the counterparty got.
fn answers_to_one_order(fault: Fault, kind: Kind) -> usize {
    let dir = TestDir::new(&format!(
        "answers-{}-{kind:?}",
        match fault {
            Fault::Crash => "crash",
            Fault::Error => "error",
        }
    ));
    let (ic, ac) = configs();
    let mut init = Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY);
    let mut ia = Recorder::default();
    let mut aa = Recorder::echo();
    let now = t0();
    let store = Faulty::new(open_store(kind, dir.path()), 2, 0, fault);
    let mut acc = Session::new(ac.clone(), store, &fix44::DICTIONARY);
    acc.connected(now, &mut aa).unwrap();
    init.connected(now, &mut ia).unwrap();
    pump(&mut init, &mut ia, &mut acc, &mut aa, now).unwrap();
    init.send(now, b"D", order(), &mut ia).unwrap();
    let failed = pump(&mut init, &mut ia, &mut acc, &mut aa, now);
    assert!(failed.is_err(), "the advance of the order failed");
    assert!(
        acc.output().is_empty(),
        "no answer leaves a session whose store failed: {:?}",
        String::from_utf8_lossy(acc.output())
    );
    assert_eq!(aa.received.len(), 1, "the application took the order once");
    init.disconnected(now, &mut ia).unwrap();
    let mut acc = match fault {
        Fault::Crash => {
            // The process is gone; a new one opens the store from the disk.
            drop(acc);
            let store = open_store(kind, dir.path());
            let mut acc = Session::new(ac, store, &fix44::DICTIONARY);
            acc.connected(now, &mut aa).unwrap();
            Box::new(acc) as Box<dyn Runner>
        }
        Fault::Error => {
            // The connection ends; the session and its store go on.
            acc.disconnected(now, &mut aa).unwrap();
            acc.connected(now, &mut aa).unwrap();
            Box::new(acc)
        }
    };
    init.connected(now, &mut ia).unwrap();
    acc.pump(&mut init, &mut ia, &mut aa, now);
    assert_eq!(aa.received.len(), 2, "the order, resent, was taken again");
    // Every answer the counterparty's application got for the order.
    ia.received
        .iter()
        .filter(|(t, id)| t == b"D" && id == b"ONCE")
        .count()
}

/// The acceptor after the fault, whatever its store's type.
trait Runner {
    fn pump(
        &mut self,
        init: &mut Session<MemoryStore, Fix44>,
        ia: &mut Recorder,
        aa: &mut Recorder,
        now: SystemTime,
    );
}

impl<S: MessageStore> Runner for Session<S, Fix44> {
    fn pump(
        &mut self,
        init: &mut Session<MemoryStore, Fix44>,
        ia: &mut Recorder,
        aa: &mut Recorder,
        now: SystemTime,
    ) {
        pump(init, ia, self, aa, now).unwrap();
    }
}

#[test]
fn an_order_is_answered_once_across_a_crash_between_its_answer_and_its_advance() {
    assert_eq!(answers_to_one_order(Fault::Crash, Kind::File), 1);
    assert_eq!(answers_to_one_order(Fault::Crash, Kind::Shared), 1);
}

#[test]
fn an_order_is_answered_once_after_a_store_error_between_its_answer_and_its_advance() {
    assert_eq!(answers_to_one_order(Fault::Error, Kind::File), 1);
    assert_eq!(answers_to_one_order(Fault::Error, Kind::Shared), 1);
}

/// What the counterparty's application got: (ClOrdID, PossDupFlag) of each
/// application message.
#[derive(Default)]
struct Answers(Vec<(String, bool)>);

impl fix_session::Application for Answers {
    fn from_app(
        &mut self,
        msg: &fix_core::Message<'_>,
        _: &mut fix_session::Outbox,
    ) -> Result<(), fix_session::AppReject> {
        let id = String::from_utf8_lossy(msg.get(11).unwrap_or_default()).into_owned();
        self.0.push((id, msg.get(43) == Some(b"Y")));
        Ok(())
    }
}

/// The acceptor under test: the session over the failing store, or, after a
/// crash, the one the restarted process opens from the disk.
enum Acceptor {
    Faulty(Session<Faulty, Fix44>),
    Reopened(Session<Box<dyn MessageStore>, Fix44>),
}

impl Acceptor {
    fn exchange(
        &mut self,
        init: &mut Session<MemoryStore, Fix44>,
        ia: &mut Answers,
        aa: &mut Recorder,
        now: SystemTime,
    ) -> bool {
        match self {
            Acceptor::Faulty(s) => pump(init, ia, s, aa, now).is_ok(),
            Acceptor::Reopened(s) => pump(init, ia, s, aa, now).is_ok(),
        }
    }

    /// The connection ends and comes back: on the same store after an error,
    /// on the store reopened from the disk after a crash.
    fn reconnect(
        self,
        fault: Fault,
        kind: Kind,
        dir: &std::path::Path,
        aa: &mut Recorder,
        now: SystemTime,
    ) -> Acceptor {
        let mut next = match (self, fault) {
            (Acceptor::Faulty(s), Fault::Crash) => {
                let config = s.id().clone();
                // The dead process's store closes with it.
                drop(s);
                let (_, ac) = configs();
                assert_eq!(ac.id, config);
                let store = open_store(kind, dir);
                Acceptor::Reopened(Session::new(ac, store, &fix44::DICTIONARY))
            }
            (other, _) => other,
        };
        match &mut next {
            Acceptor::Faulty(s) => {
                s.disconnected(now, aa).unwrap();
                s.connected(now, aa).unwrap();
            }
            Acceptor::Reopened(s) => {
                if s.state() != fix_session::State::Disconnected {
                    s.disconnected(now, aa).unwrap();
                }
                s.connected(now, aa).unwrap();
            }
        }
        next
    }
}

/// Three orders through an acceptor whose store fails at its `at_op`-th
/// write; after the failure the connection ends and comes back (on the same
/// store for an error, on the store reopened from the disk for a crash).
/// Returns the counterparty's answers.
fn three_orders_failing_at(at_op: usize, fault: Fault, kind: Kind) -> Vec<(String, bool)> {
    let dir = TestDir::new(&format!(
        "answers-sweep-{at_op}-{}-{kind:?}",
        fault == Fault::Crash
    ));
    let (ic, ac) = configs();
    let mut init = Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY);
    let mut ia = Answers::default();
    let mut aa = Recorder::echo();
    let now = t0();
    let store = Faulty::new(open_store(kind, dir.path()), 0, at_op, fault);
    let mut session = Session::new(ac, store, &fix44::DICTIONARY);
    session.connected(now, &mut aa).unwrap();
    let mut acc = Acceptor::Faulty(session);
    init.connected(now, &mut ia).unwrap();
    let mut ok = acc.exchange(&mut init, &mut ia, &mut aa, now);
    for n in 0..=3 {
        if !ok {
            init.disconnected(now, &mut ia).unwrap();
            acc = acc.reconnect(fault, kind, dir.path(), &mut aa, now);
            init.connected(now, &mut ia).unwrap();
            ok = acc.exchange(&mut init, &mut ia, &mut aa, now);
            assert!(ok, "op {at_op}: one failure only");
        }
        assert_eq!(init.state(), fix_session::State::LoggedOn, "op {at_op}");
        if n == 3 {
            break;
        }
        let body = format!("11=O{n}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
        init.send(now, b"D", body.as_bytes(), &mut ia).unwrap();
        ok = acc.exchange(&mut init, &mut ia, &mut aa, now);
    }
    ia.0
}

#[test]
fn a_store_failing_at_any_write_loses_no_answer_and_answers_each_order_once() {
    for (fault, kind) in [
        (Fault::Error, Kind::File),
        (Fault::Crash, Kind::File),
        (Fault::Error, Kind::Shared),
        (Fault::Crash, Kind::Shared),
    ] {
        for at_op in 1..=12 {
            let answers = three_orders_failing_at(at_op, fault, kind);
            for n in 0..3 {
                let id = format!("O{n}");
                let plain = answers.iter().filter(|(a, dup)| a == &id && !dup).count();
                let all = answers.iter().filter(|(a, _)| a == &id).count();
                let case = if fault == Fault::Crash {
                    format!("crash ({kind:?})")
                } else {
                    format!("error ({kind:?})")
                };
                assert!(
                    all >= 1,
                    "{case} at write {at_op}: {id} never answered: {answers:?}"
                );
                assert!(
                    plain <= 1,
                    "{case} at write {at_op}: {id} answered twice: {answers:?}"
                );
                // Stronger than QuickFIX's promise: not even a PossDup copy,
                // since no answer outlives a message not recorded as received.
                assert_eq!(all, 1, "{case} at write {at_op}: {id}: {answers:?}");
            }
        }
    }
}
