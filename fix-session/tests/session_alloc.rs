//! A logged-on session's steady state allocates nothing: receive, validate,
//! deliver, answer, stamp, store in memory and hand out, counted with a counting
//! allocator over a thousand NewOrderSingle -> ExecutionReport round trips.

mod common;

use common::Pair;
use fix_core::Message;
use fix_session::{AppReject, Application, MemoryStore, Outbox, State};
use fix_test_support::alloc::{Counting, allocations_during};

#[global_allocator]
static GLOBAL: Counting = Counting;

struct Broker;
impl Application for Broker {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        let id = msg.get(11).unwrap_or_default();
        out.send_fields(
            b"8",
            [
                (6, &b"0"[..]),
                (11, id),
                (14, b"0"),
                (17, b"E1"),
                (37, b"O1"),
                (39, b"0"),
                (54, b"1"),
                (55, b"X"),
                (150, b"0"),
                (151, b"100"),
            ],
        );
        Ok(())
    }
}
struct Client;
impl Application for Client {}

#[test]
fn round_trips_through_logged_on_sessions_allocate_nothing() {
    let (ic, ac) = common::configs();
    round_trips(ic, ac, std::time::Duration::ZERO);
}

/// Nanosecond SendingTime written afresh for every message (the clock moves
/// between them, so the cached text never serves twice), SubIDs in every
/// header: still nothing allocated.
#[test]
fn nanosecond_timestamps_and_sub_ids_allocate_nothing_either() {
    let (mut ic, mut ac) = common::configs();
    for c in [&mut ic, &mut ac] {
        c.timestamp_precision = fix_core::value::Precision::Nanos;
        c.sub_ids.sender_sub_id = Some("DESK1".into());
        c.sub_ids.target_location_id = Some("NYC".into());
    }
    round_trips(ic, ac, std::time::Duration::from_nanos(1_001));
}

fn round_trips(
    ic: fix_session::SessionConfig,
    ac: fix_session::SessionConfig,
    step: std::time::Duration,
) {
    const ROUND_TRIPS: usize = 1000;
    let store = || MemoryStore::with_capacity(2 * ROUND_TRIPS + 16, (2 * ROUND_TRIPS + 16) * 512);
    let mut p = Pair::with(ic, ac, store(), store(), Client, Broker);
    p.acc.connected(p.now, &mut p.aa).unwrap();
    p.init.connected(p.now, &mut p.ia).unwrap();
    p.exchange();
    assert_eq!(
        (p.init.state(), p.acc.state()),
        (State::LoggedOn, State::LoggedOn)
    );
    let order = b"11=ORD1\x0121=1\x0138=100\x0140=1\x0154=1\x0155=X\x0160=20260921-14:13:20\x01";
    // One round trip first, so every buffer has grown to its working size.
    p.init.send(p.now, b"D", order, &mut Client).unwrap();
    p.exchange();
    let n = allocations_during(|| {
        for _ in 0..ROUND_TRIPS {
            p.now += step;
            p.init.send(p.now, b"D", order, &mut Client).unwrap();
            p.exchange();
        }
    });
    assert_eq!(n, 0, "allocations in {ROUND_TRIPS} round trips");
    use fix_session::MessageStore;
    assert_eq!(
        p.acc.store().next_target_seq(),
        ROUND_TRIPS as u64 + 3,
        "every order arrived"
    );
    assert_eq!(
        p.init.store().next_target_seq(),
        ROUND_TRIPS as u64 + 3,
        "every report arrived"
    );
}
