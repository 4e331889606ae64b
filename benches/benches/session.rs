//! Two sessions wired back to back in memory, one sending NewOrderSingles and the
//! other answering each with an ExecutionReport: one round trip per iteration,
//! with the memory store and with the file store (sync left to the OS). The floor
//! in the same group is the bare work on the same two messages: parse + validate
//! each (against the generated FIX 4.4 tables) and encode each (header, body,
//! BodyLength, CheckSum), so the ratio is the session's own overhead.
//!
//! `cargo bench -p fix-benches --bench session`

use std::hint::black_box;
use std::time::{Duration, Instant, UNIX_EPOCH};

use criterion::{Criterion, criterion_group, criterion_main};
use fix_core::validate::Validator;
use fix_core::{Encoder, Fields, Message, Parser};
use fix_session::{
    AppReject, Application, FileOptions, FileStore, MemoryStore, MessageStore, Outbox, Role,
    Session, SessionConfig, SessionId, State, SyncPolicy,
};

const ORDER: &[u8] =
    b"11=ORD1\x0121=1\x0138=100\x0140=2\x0144=10.5\x0154=1\x0155=X\x0160=20260921-14:13:20\x01";
const REPORT: [(u32, &[u8]); 10] = [
    (6, b"0"),
    (11, b"ORD1"),
    (14, b"0"),
    (17, b"E1"),
    (37, b"O1"),
    (39, b"0"),
    (54, b"1"),
    (55, b"X"),
    (150, b"0"),
    (151, b"100"),
];
/// Round trips between fresh sessions, so stores stay small.
const BATCH: u64 = 20_000;

struct Broker;
impl Application for Broker {
    fn from_app(&mut self, _msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        out.send_fields(b"8", REPORT);
        Ok(())
    }
}
struct Client;
impl Application for Client {}

type Pair<S> = (
    Session<S, &'static fix_core::typed::Tables>,
    Session<S, &'static fix_core::typed::Tables>,
);

fn logged_on<S: MessageStore>(stores: (S, S)) -> Pair<S> {
    let now = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    let ic = SessionConfig::new(
        SessionId::new("FIX.4.4", "CLIENT", "BROKER"),
        Role::Initiator,
    );
    let ac = SessionConfig::new(
        SessionId::new("FIX.4.4", "BROKER", "CLIENT"),
        Role::Acceptor,
    );
    let mut init = Session::new(ic, stores.0, &fix44::DICTIONARY);
    let mut acc = Session::new(ac, stores.1, &fix44::DICTIONARY);
    acc.connected(now, &mut Broker).unwrap();
    init.connected(now, &mut Client).unwrap();
    let mut wire = Vec::new();
    round(&mut init, &mut acc, &mut wire, false);
    assert_eq!(
        (init.state(), acc.state()),
        (State::LoggedOn, State::LoggedOn)
    );
    (init, acc)
}

/// One exchange: the initiator (optionally) sends an order, bytes go across and
/// back.
fn round<S: MessageStore>(
    init: &mut Session<S, &'static fix_core::typed::Tables>,
    acc: &mut Session<S, &'static fix_core::typed::Tables>,
    wire: &mut Vec<u8>,
    order: bool,
) {
    let now = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    if order {
        init.send(now, b"D", ORDER, &mut Client).unwrap();
    }
    wire.clear();
    wire.extend_from_slice(init.output());
    init.consume_output(wire.len());
    acc.handle_bytes(now, wire, &mut Broker).unwrap();
    wire.clear();
    wire.extend_from_slice(acc.output());
    acc.consume_output(wire.len());
    init.handle_bytes(now, wire, &mut Client).unwrap();
}

fn timed<S: MessageStore>(iters: u64, mut stores: impl FnMut() -> (S, S)) -> Duration {
    let mut total = Duration::ZERO;
    let mut left = iters;
    let mut wire = Vec::with_capacity(4096);
    while left > 0 {
        let n = left.min(BATCH);
        let (mut init, mut acc) = logged_on(stores());
        let start = Instant::now();
        for _ in 0..n {
            round(&mut init, &mut acc, &mut wire, true);
        }
        total += start.elapsed();
        left -= n;
    }
    total
}

fn session(c: &mut Criterion) {
    // The two messages as the sessions put them on the wire, for the floor.
    let (mut init, mut acc) = logged_on((MemoryStore::new(), MemoryStore::new()));
    let now = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    init.send(now, b"D", ORDER, &mut Client).unwrap();
    let order_wire = init.output().to_vec();
    init.consume_output(order_wire.len());
    acc.handle_bytes(now, &order_wire, &mut Broker).unwrap();
    let report_wire = acc.output().to_vec();
    acc.consume_output(report_wire.len());
    init.handle_bytes(now, &report_wire, &mut Client).unwrap();
    assert_eq!(acc.store().next_target_seq(), 3, "the order was accepted");
    assert_eq!(init.store().next_target_seq(), 3, "the report was accepted");
    let order_fields: Vec<(u32, &[u8])> = ORDER
        .split(|&b| b == 1)
        .filter(|f| !f.is_empty())
        .map(|f| {
            let eq = f.iter().position(|&b| b == b'=').unwrap();
            (
                std::str::from_utf8(&f[..eq]).unwrap().parse().unwrap(),
                &f[eq + 1..],
            )
        })
        .collect();
    let header = |sender: &'static [u8], target: &'static [u8]| -> [(u32, &'static [u8]); 4] {
        [
            (34, b"2"),
            (49, sender),
            (52, b"20260921-14:13:20.000"),
            (56, target),
        ]
    };

    let dir = std::env::temp_dir().join(format!("fix-bench-session-{}", std::process::id()));
    let mut opened = 0u32;
    let mut file_stores = || {
        // The last batch's stores are closed by now: removing them drops their
        // pages from the page cache unwritten, so that a run does not pile up
        // gigabytes of dirty pages for the kernel to throttle. What is measured is
        // the store's own cost, not this machine's disk bandwidth.
        let _ = std::fs::remove_dir_all(dir.join(opened.to_string()));
        opened += 1;
        let sub = dir.join(opened.to_string());
        let options = FileOptions::new().sync(SyncPolicy::Os);
        (
            FileStore::open_with(&sub, "FIX.4.4-CLIENT-BROKER", options).unwrap(),
            FileStore::open_with(&sub, "FIX.4.4-BROKER-CLIENT", options).unwrap(),
        )
    };

    let parser = Parser::new();
    let validator = Validator::new();
    let mut fields = Fields::<64>::new();
    let mut buf = [0u8; 512];
    let mut group = c.benchmark_group("session round trip");
    group.bench_function("memory store", |b| {
        b.iter_custom(|iters| timed(iters, || (MemoryStore::new(), MemoryStore::new())))
    });
    group.bench_function("file store, sync left to the OS", |b| {
        b.iter_custom(|iters| timed(iters, &mut file_stores))
    });
    group.bench_function("floor: parse + validate + encode both messages", |b| {
        b.iter(|| {
            let mut len = 0;
            for wire in [&order_wire, &report_wire] {
                let msg = parser
                    .parse(black_box(wire), &mut fields)
                    .unwrap()
                    .complete()
                    .unwrap();
                validator.validate(&fix44::DICTIONARY, &msg).unwrap();
                len += msg.fields().len();
            }
            let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"D");
            for (tag, value) in header(b"CLIENT", b"BROKER")
                .into_iter()
                .chain(order_fields.iter().copied())
            {
                enc.raw(tag, value).unwrap();
            }
            len += enc.finish().unwrap().len();
            let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"8");
            for (tag, value) in header(b"BROKER", b"CLIENT").into_iter().chain(REPORT) {
                enc.raw(tag, value).unwrap();
            }
            len + enc.finish().unwrap().len()
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, session);
criterion_main!(benches);
