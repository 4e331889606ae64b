//! The session round trip the `session` bench and the `session_probe` example time:
//! two sessions wired back to back in memory, the initiator sending a
//! NewOrderSingle and the acceptor answering it with an ExecutionReport, and the
//! floor beside it, the bare parse + validate + encode of the same two messages.
//!
//! ```
//! use fix_benches::session::{Floor, logged_on, round};
//! use fix_session::{MemoryStore, MessageStore};
//! let mut pair = logged_on((MemoryStore::new(), MemoryStore::new()));
//! let mut wire = Vec::new();
//! round(&mut pair, &mut wire, true);
//! assert_eq!(pair.0.store().next_target_seq(), 3); // the Logon answer, the report
//! assert!(Floor::new().run() > 0);
//! ```

use std::hint::black_box;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_core::validate::Validator;
use fix_core::{Encoder, Fields, Message, Parser};
use fix_session::{
    AppReject, Application, MemoryStore, MessageStore, Outbox, Role, Session, SessionConfig,
    SessionId, State,
};

/// The order's body, as the initiator sends it.
pub const ORDER: &[u8] =
    b"11=ORD1\x0121=1\x0138=100\x0140=2\x0144=10.5\x0154=1\x0155=X\x0160=20260921-14:13:20\x01";

/// The report's body, as the acceptor answers.
pub const REPORT: [(u32, &[u8]); 10] = [
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
pub const BATCH: u64 = 20_000;

/// The acceptor's application: every application message is answered with
/// [`REPORT`].
#[derive(Debug)]
pub struct Broker;

impl Application for Broker {
    fn from_app(&mut self, _msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        out.send_fields(b"8", REPORT);
        Ok(())
    }
}

/// The initiator's application: takes everything, answers nothing.
#[derive(Debug)]
pub struct Client;

impl Application for Client {}

/// The initiator and the acceptor.
pub type Pair<S> = (
    Session<S, &'static fix_core::typed::Tables>,
    Session<S, &'static fix_core::typed::Tables>,
);

/// The one clock reading of every round trip.
pub fn now() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_790_000_000)
}

/// An initiator (CLIENT) and an acceptor (BROKER) on FIX 4.4, logged on.
pub fn logged_on<S: MessageStore>(stores: (S, S)) -> Pair<S> {
    let ic = SessionConfig::new(
        SessionId::new("FIX.4.4", "CLIENT", "BROKER"),
        Role::Initiator,
    );
    let ac = SessionConfig::new(
        SessionId::new("FIX.4.4", "BROKER", "CLIENT"),
        Role::Acceptor,
    );
    let mut pair = (
        Session::new(ic, stores.0, &fix44::DICTIONARY),
        Session::new(ac, stores.1, &fix44::DICTIONARY),
    );
    pair.1.connected(now(), &mut Broker).unwrap();
    pair.0.connected(now(), &mut Client).unwrap();
    round(&mut pair, &mut Vec::new(), false);
    assert_eq!(
        (pair.0.state(), pair.1.state()),
        (State::LoggedOn, State::LoggedOn)
    );
    pair
}

/// One exchange: the initiator (when `order`) sends an order, bytes go across and
/// back through `wire`.
pub fn round<S: MessageStore>(pair: &mut Pair<S>, wire: &mut Vec<u8>, order: bool) {
    let (init, acc) = pair;
    if order {
        init.send(now(), b"D", ORDER, &mut Client).unwrap();
    }
    wire.clear();
    wire.extend_from_slice(init.output());
    init.consume_output(wire.len());
    acc.handle_bytes(now(), wire, &mut Broker).unwrap();
    wire.clear();
    wire.extend_from_slice(acc.output());
    acc.consume_output(wire.len());
    init.handle_bytes(now(), wire, &mut Client).unwrap();
}

/// The floor: the two messages as the sessions put them on the wire, parsed and
/// validated, and encoded from their fields.
#[derive(Debug)]
pub struct Floor {
    order_wire: Vec<u8>,
    report_wire: Vec<u8>,
    order_fields: Vec<(u32, &'static [u8])>,
    parser: Parser<'static>,
    validator: Validator,
    fields: Fields<64>,
    buf: [u8; 512],
}

impl Floor {
    /// The floor of the round trip [`round`] makes.
    pub fn new() -> Floor {
        let mut pair = logged_on((MemoryStore::new(), MemoryStore::new()));
        pair.0.send(now(), b"D", ORDER, &mut Client).unwrap();
        let order_wire = pair.0.output().to_vec();
        pair.0.consume_output(order_wire.len());
        pair.1
            .handle_bytes(now(), &order_wire, &mut Broker)
            .unwrap();
        let report_wire = pair.1.output().to_vec();
        pair.1.consume_output(report_wire.len());
        pair.0
            .handle_bytes(now(), &report_wire, &mut Client)
            .unwrap();
        assert_eq!(
            pair.1.store().next_target_seq(),
            3,
            "the order was accepted"
        );
        assert_eq!(
            pair.0.store().next_target_seq(),
            3,
            "the report was accepted"
        );
        let order_fields = ORDER
            .split(|&b| b == 1)
            .filter(|f| !f.is_empty())
            .map(|f| {
                let eq = f.iter().position(|&b| b == b'=').unwrap();
                let tag = std::str::from_utf8(&f[..eq]).unwrap().parse().unwrap();
                (tag, &f[eq + 1..])
            })
            .collect();
        Floor {
            order_wire,
            report_wire,
            order_fields,
            parser: Parser::new(),
            validator: Validator::new(),
            fields: Fields::new(),
            buf: [0; 512],
        }
    }

    /// Parses and validates both messages and encodes both; returns a length to
    /// keep the work from being optimised away.
    pub fn run(&mut self) -> usize {
        let header = |sender: &'static [u8], target: &'static [u8]| -> [(u32, &'static [u8]); 4] {
            [
                (34, b"2"),
                (49, sender),
                (52, b"20260921-14:13:20.000"),
                (56, target),
            ]
        };
        let mut len = 0;
        for wire in [&self.order_wire, &self.report_wire] {
            let msg = self
                .parser
                .parse(black_box(wire), &mut self.fields)
                .unwrap()
                .complete()
                .unwrap();
            self.validator.validate(&fix44::DICTIONARY, &msg).unwrap();
            len += msg.fields().len();
        }
        let mut enc = Encoder::new(&mut self.buf, b"FIX.4.4", b"D");
        for (tag, value) in header(b"CLIENT", b"BROKER")
            .into_iter()
            .chain(self.order_fields.iter().copied())
        {
            enc.raw(tag, value).unwrap();
        }
        len += enc.finish().unwrap().len();
        let mut enc = Encoder::new(&mut self.buf, b"FIX.4.4", b"8");
        for (tag, value) in header(b"BROKER", b"CLIENT").into_iter().chain(REPORT) {
            enc.raw(tag, value).unwrap();
        }
        len + enc.finish().unwrap().len()
    }
}

impl Default for Floor {
    fn default() -> Self {
        Floor::new()
    }
}
