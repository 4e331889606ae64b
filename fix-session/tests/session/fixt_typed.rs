//! Typed messages over a back-to-back pair of FIXT.1.1 sessions of FIX.5.0SP2:
//! an application message dispatched by its ApplVerID (1128), or else the
//! DefaultApplVerID of the counterparty's Logon, to the generated crate of that
//! version (fix50sp2, generated from QuickFIX's FIXT11.xml and FIX50SP2.xml)
//! through `ByApplVerId`, answered with a typed builder; a version with no crate
//! is refused as QuickFIX's cracker refuses a type it does not handle.

use crate::common::{Pair, Recorder, get};
use fix_core::typed::{AppHeader, MessageBody};
use fix_core::value::{Decimal, FixStr, UtcTimestamp};
use fix_session::{AppReject, ByApplVerId, MemoryStore, Outbox, Role, SessionConfig, SessionId};
use fix50sp2::components::{HeaderBuilder, InstrumentBuilder, OrderQtyDataBuilder};
use fix50sp2::enums::{ApplVerId, ExecType, OrdStatus, OrdType, Side};
use fix50sp2::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired, NewOrderSingle,
    NewOrderSingleBuilder, NewOrderSingleRequired,
};

fn text(s: &str) -> FixStr<'_> {
    FixStr::parse(s.as_bytes()).unwrap()
}

/// Answers each FIX.5.0SP2 NewOrderSingle with an ExecutionReport.
#[derive(Default)]
struct Executor {
    orders: Vec<String>,
}

impl fix50sp2::Handler<Outbox, AppReject> for Executor {
    fn on_new_order_single(
        &mut self,
        order: &NewOrderSingle<'_>,
        out: &mut Outbox,
    ) -> Result<(), AppReject> {
        let reject = |e: &dyn std::fmt::Display| AppReject::Business {
            reason: 0,
            ref_tag: None,
            text: e.to_string(),
        };
        let cl_ord_id = order.cl_ord_id().map_err(|e| reject(&e))?;
        self.orders
            .push(String::from_utf8_lossy(cl_ord_id.as_bytes()).into_owned());
        let qty = order.order_qty_data().order_qty().map_err(|e| reject(&e))?;
        let report = ExecutionReportBuilder {
            cl_ord_id: Some(cl_ord_id),
            instrument: Some(InstrumentBuilder {
                symbol: order.instrument().symbol().map_err(|e| reject(&e))?,
                ..Default::default()
            }),
            ..ExecutionReport::builder(ExecutionReportRequired {
                order_id: text("O-1"),
                exec_id: text("E-1"),
                exec_type: ExecType::New,
                ord_status: OrdStatus::New,
                side: order.side().map_err(|e| reject(&e))?,
                leaves_qty: qty.unwrap_or(Decimal::ZERO),
                cum_qty: Decimal::ZERO,
            })
        };
        out.send(&report).map_err(|e| reject(&e))
    }
}

/// A FIX.5.0SP2 NewOrderSingle, as the body a session sends, with ApplVerID
/// (1128) in its header when `appl_ver_id` is given.
fn order(cl_ord_id: &str, appl_ver_id: Option<ApplVerId<'_>>) -> Vec<u8> {
    let order = NewOrderSingleBuilder {
        price: Some(Decimal::parse(b"25.5").unwrap()),
        instrument: Some(InstrumentBuilder {
            symbol: Some(text("MSFT")),
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(Decimal::parse(b"100").unwrap()),
            ..Default::default()
        }),
        ..NewOrderSingle::builder(NewOrderSingleRequired {
            cl_ord_id: text(cl_ord_id),
            side: Side::Buy,
            transact_time: UtcTimestamp::parse(b"20260921-14:13:20").unwrap(),
            ord_type: OrdType::Limit,
        })
    };
    let header = HeaderBuilder {
        appl_ver_id,
        ..Default::default()
    };
    let msg = header.with_body(&order);
    let mut buf = [0u8; 512];
    let mut enc = fix_core::Encoder::fields(&mut buf);
    msg.write_body(&mut enc).unwrap();
    enc.finish().unwrap().to_vec()
}

type Acceptor = ByApplVerId<fix50sp2::Cracker<Executor>>;

/// A FIXT.1.1 pair over fix50sp2's tables, logged on: the initiator's
/// DefaultApplVerID is FIX.5.0SP2 (9), the acceptor's own setting `acceptor_default`,
/// which the initiator's Logon overrides for what the initiator sends.
fn pair(acceptor_default: &str) -> Pair<Recorder, Acceptor> {
    let mut ic = SessionConfig::new(
        SessionId::new("FIXT.1.1", "CLIENT", "BROKER"),
        Role::Initiator,
    );
    ic.default_appl_ver_id = Some("FIX.5.0SP2".into());
    let mut ac = SessionConfig::new(
        SessionId::new("FIXT.1.1", "BROKER", "CLIENT"),
        Role::Acceptor,
    );
    ac.default_appl_ver_id = Some(acceptor_default.into());
    let mut p = Pair::with_dict(
        &fix50sp2::DICTIONARY,
        ic,
        ac,
        MemoryStore::new(),
        MemoryStore::new(),
        Recorder::default(),
        ByApplVerId::new(fix50sp2::Cracker(Executor::default())),
    );
    p.connect();
    p
}

fn executor(p: &Pair<Recorder, Acceptor>) -> &Executor {
    &p.aa.crack.0
}

#[test]
fn an_order_of_appl_ver_id_9_reaches_the_fix50sp2_handler_and_is_answered_typed() {
    let mut p = pair("FIX.5.0SP2");
    let body = order("ORD1", Some(ApplVerId::Fix50Sp2));
    p.init.send(p.now, b"D", &body, &mut p.ia).unwrap();
    let (sent, answers) = p.pump();
    assert_eq!(get(&sent[0], 1128).as_deref(), Some("9"));
    assert_eq!(executor(&p).orders, ["ORD1"]);
    assert_eq!(answers.len(), 1, "{answers:?}");
    let report = &answers[0];
    assert_eq!(get(report, 8).as_deref(), Some("FIXT.1.1"));
    assert_eq!(get(report, 35).as_deref(), Some("8"));
    assert_eq!(get(report, 11).as_deref(), Some("ORD1"));
    assert_eq!(get(report, 55).as_deref(), Some("MSFT"));
    assert_eq!(get(report, 151).as_deref(), Some("100"));
    assert_eq!(p.ia.received, [(b"8".to_vec(), b"ORD1".to_vec())]);
}

#[test]
fn an_order_without_appl_ver_id_goes_by_the_default_appl_ver_id_of_the_logon() {
    // The acceptor's own setting is FIX.5.0 (7), for which it has no crate;
    // the initiator's Logon says FIX.5.0SP2 (9), which is what its messages
    // without ApplVerID are.
    let mut p = pair("FIX.5.0");
    let body = order("ORD2", None);
    p.init.send(p.now, b"D", &body, &mut p.ia).unwrap();
    let (sent, answers) = p.pump();
    assert_eq!(get(&sent[0], 1128), None);
    assert_eq!(executor(&p).orders, ["ORD2"]);
    assert_eq!(answers.len(), 1, "{answers:?}");
    assert_eq!(get(&answers[0], 35).as_deref(), Some("8"));
    assert_eq!(get(&answers[0], 11).as_deref(), Some("ORD2"));
}

#[test]
fn an_order_of_a_version_with_no_crate_is_a_business_reject_3() {
    let mut p = pair("FIX.5.0SP2");
    // FIX.5.0 (7): valid for the session, but no generated crate is given for it.
    let body = order("ORD3", Some(ApplVerId::Fix50));
    p.init.send(p.now, b"D", &body, &mut p.ia).unwrap();
    let (_, answers) = p.pump();
    assert!(executor(&p).orders.is_empty());
    assert_eq!(answers.len(), 1, "{answers:?}");
    let reject = &answers[0];
    // QuickFIX's answer when the cracker of the message's version does not
    // handle it (UnsupportedMessageType), naming its DefaultApplVerID.
    assert_eq!(get(reject, 35).as_deref(), Some("j"));
    assert_eq!(get(reject, 380).as_deref(), Some("3"));
    assert_eq!(get(reject, 372).as_deref(), Some("D"));
    assert_eq!(get(reject, 45).as_deref(), Some("2"));
    assert_eq!(get(reject, 58).as_deref(), Some("Unsupported Message Type"));
    assert_eq!(get(reject, 1137).as_deref(), Some("9"));
}
