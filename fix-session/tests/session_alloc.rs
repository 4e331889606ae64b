//! A logged-on session's steady state allocates nothing: receive, validate,
//! deliver, answer, stamp, store in memory and hand out, counted with a counting
//! allocator over a thousand NewOrderSingle -> ExecutionReport round trips.

use std::time::{Duration, UNIX_EPOCH};

use fix_core::Message;
use fix_session::{
    AppReject, Application, MemoryStore, Outbox, Role, Session, SessionConfig, SessionId, State,
};
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
    const ROUND_TRIPS: usize = 1000;
    let now = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    let store = || MemoryStore::with_capacity(2 * ROUND_TRIPS + 16, (2 * ROUND_TRIPS + 16) * 512);
    let ic = SessionConfig::new(
        SessionId::new("FIX.4.4", "CLIENT", "BROKER"),
        Role::Initiator,
    );
    let ac = SessionConfig::new(
        SessionId::new("FIX.4.4", "BROKER", "CLIENT"),
        Role::Acceptor,
    );
    let mut init = Session::new(ic, store(), &fix44::DICTIONARY);
    let mut acc = Session::new(ac, store(), &fix44::DICTIONARY);
    let (mut client, mut broker) = (Client, Broker);
    let mut wire = Vec::with_capacity(1 << 16);
    acc.connected(now, &mut broker).unwrap();
    init.connected(now, &mut client).unwrap();
    let mut exchange = |init: &mut Session<_, _>, acc: &mut Session<_, _>, wire: &mut Vec<u8>| {
        wire.clear();
        wire.extend_from_slice(init.output());
        init.consume_output(wire.len());
        acc.handle_bytes(now, wire, &mut broker).unwrap();
        wire.clear();
        wire.extend_from_slice(acc.output());
        acc.consume_output(wire.len());
        init.handle_bytes(now, wire, &mut client).unwrap();
    };
    exchange(&mut init, &mut acc, &mut wire);
    assert_eq!(
        (init.state(), acc.state()),
        (State::LoggedOn, State::LoggedOn)
    );
    let order = b"11=ORD1\x0121=1\x0138=100\x0140=1\x0154=1\x0155=X\x0160=20260921-14:13:20\x01";
    // One round trip first, so every buffer has grown to its working size.
    init.send(now, b"D", order, &mut Client).unwrap();
    exchange(&mut init, &mut acc, &mut wire);
    let n = allocations_during(|| {
        for _ in 0..ROUND_TRIPS {
            init.send(now, b"D", order, &mut Client).unwrap();
            exchange(&mut init, &mut acc, &mut wire);
        }
    });
    assert_eq!(n, 0, "allocations in {ROUND_TRIPS} round trips");
    use fix_session::MessageStore;
    assert_eq!(
        acc.store().next_target_seq(),
        ROUND_TRIPS as u64 + 3,
        "every order arrived"
    );
    assert_eq!(
        init.store().next_target_seq(),
        ROUND_TRIPS as u64 + 3,
        "every report arrived"
    );
}
