//! Typed messages end to end over a back-to-back pair of FIX 4.4 sessions: a
//! generated builder sent through an `Outbox` as it is (with the header fields
//! the application sets), a generated `Handler` as the application through
//! `fix44::Cracker`, and QuickFIX's answer to a message type it does not handle.

use crate::common;

use crate::common::{Pair, Recorder, configs, get};
use fix_core::EncodeError;
use fix_core::typed::{AppHeader, MessageBody};
use fix_core::value::{Decimal, FixStr, UtcTimestamp};
use fix_session::{AppReject, MemoryStore, Outbox};
use fix44::components::{HeaderBuilder, InstrumentBuilder, OrderQtyDataBuilder};
use fix44::enums::{ExecType, OrdStatus, OrdType, Side};
use fix44::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired, NewOrderSingle,
    NewOrderSingleBuilder, NewOrderSingleRequired,
};

fn text(s: &str) -> FixStr<'_> {
    FixStr::parse(s.as_bytes()).unwrap()
}

/// Answers each NewOrderSingle with an ExecutionReport delivered to the desk
/// the order came on behalf of; `bad` leaves a required field unset instead.
#[derive(Default)]
struct Executor {
    orders: usize,
    bad: bool,
}

impl fix44::Handler<Outbox, AppReject> for Executor {
    fn on_new_order_single(
        &mut self,
        order: &NewOrderSingle<'_>,
        out: &mut Outbox,
    ) -> Result<(), AppReject> {
        let reject = |e: fix_core::typed::FieldError| AppReject::Business {
            reason: 0,
            ref_tag: None,
            text: e.to_string(),
        };
        self.orders += 1;
        let qty = order.order_qty_data().order_qty().map_err(reject)?;
        let report = ExecutionReportBuilder {
            cl_ord_id: Some(order.cl_ord_id().map_err(reject)?),
            order_qty_data: Some(OrderQtyDataBuilder {
                order_qty: qty,
                ..Default::default()
            }),
            ..ExecutionReport::builder(ExecutionReportRequired {
                order_id: text("O-1"),
                exec_id: text("E-1"),
                exec_type: ExecType::New,
                ord_status: OrdStatus::New,
                side: order.side().map_err(reject)?,
                leaves_qty: qty.unwrap_or(Decimal::ZERO),
                cum_qty: Decimal::ZERO,
                avg_px: Decimal::ZERO,
            })
        };
        let report = ExecutionReportBuilder {
            exec_id: if self.bad { None } else { report.exec_id },
            ..report
        };
        let desk = order.header().on_behalf_of_comp_id().map_err(reject)?;
        let header = HeaderBuilder {
            deliver_to_comp_id: desk,
            ..Default::default()
        };
        out.send(&header.with_body(&report))
            .map_err(|e| AppReject::Business {
                reason: 0,
                ref_tag: None,
                text: e.to_string(),
            })
    }
}

/// A NewOrderSingle on behalf of `DESK`, as the body a session sends.
fn order(cl_ord_id: &str) -> Vec<u8> {
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
        on_behalf_of_comp_id: Some(text("DESK")),
        ..Default::default()
    };
    encode(&header.with_body(&order))
}

/// `msg`'s fields as a session is given them.
fn encode<M: MessageBody>(msg: &M) -> Vec<u8> {
    let mut buf = [0u8; 512];
    let mut enc = fix_core::Encoder::fields(&mut buf);
    msg.write_body(&mut enc).unwrap();
    enc.finish().unwrap().to_vec()
}

fn pair(executor: Executor) -> Pair<Recorder, fix44::Cracker<Executor>> {
    let (ic, ac) = configs();
    let mut p = Pair::with(
        ic,
        ac,
        MemoryStore::new(),
        MemoryStore::new(),
        Recorder::default(),
        fix44::Cracker(executor),
    );
    p.connect();
    p
}

#[test]
fn a_handler_answers_an_order_with_a_typed_report_and_its_routing() {
    let mut p = pair(Executor::default());
    p.init.send(p.now, b"D", &order("ORD1"), &mut p.ia).unwrap();
    let (sent, answers) = p.pump();
    assert_eq!(get(&sent[0], 115).as_deref(), Some("DESK"));
    assert_eq!(p.aa.0.orders, 1);
    assert_eq!(answers.len(), 1);
    let report = &answers[0];
    assert_eq!(get(report, 35).as_deref(), Some("8"));
    assert_eq!(get(report, 11).as_deref(), Some("ORD1"));
    assert_eq!(get(report, 38).as_deref(), Some("100"));
    assert_eq!(get(report, 128).as_deref(), Some("DESK"));
    // The session's own header fields, once each, before the application's.
    let fields = common::fields(report);
    let at = |tag| fields.iter().position(|(t, _)| *t == tag).unwrap();
    assert_eq!(fields.iter().filter(|(t, _)| *t == 49).count(), 1);
    assert!(at(56) < at(128) && at(128) < at(37));
    assert_eq!(p.ia.received, [(b"8".to_vec(), b"ORD1".to_vec())]);
}

#[test]
fn a_message_type_the_handler_does_not_take_is_a_business_reject_3() {
    let mut p = pair(Executor::default());
    // News: in the dictionary, not handled by the executor.
    let news = b"148=Hello\x0133=1\x0158=world\x01";
    p.init.send(p.now, b"B", news, &mut p.ia).unwrap();
    let (_, answers) = p.pump();
    assert_eq!(answers.len(), 1);
    assert_eq!(get(&answers[0], 35).as_deref(), Some("j"));
    assert_eq!(get(&answers[0], 380).as_deref(), Some("3"));
    assert_eq!(get(&answers[0], 372).as_deref(), Some("B"));
    assert_eq!(p.aa.0.orders, 0);
}

#[test]
fn a_report_missing_a_required_field_is_refused_not_sent() {
    let mut p = pair(Executor {
        bad: true,
        ..Executor::default()
    });
    p.init.send(p.now, b"D", &order("ORD2"), &mut p.ia).unwrap();
    let (_, answers) = p.pump();
    // The handler's refusal (ExecID unset) becomes the reject, nothing else goes.
    assert_eq!(answers.len(), 1);
    assert_eq!(get(&answers[0], 35).as_deref(), Some("j"));
    assert!(get(&answers[0], 58).unwrap().contains("17"));
}

#[test]
fn the_outbox_keeps_nothing_of_a_message_it_refused() {
    let mut out = Outbox::default();
    let report = ExecutionReportBuilder {
        exec_id: None,
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: text("O-1"),
            exec_id: text("E-1"),
            exec_type: ExecType::New,
            ord_status: OrdStatus::New,
            side: Side::Buy,
            leaves_qty: Decimal::ZERO,
            cum_qty: Decimal::ZERO,
            avg_px: Decimal::ZERO,
        })
    };
    assert_eq!(
        out.send(&report),
        Err(EncodeError::MissingRequired { tag: 17 })
    );
    assert!(out.is_empty());
    // A report larger than the first room the outbox gives is encoded whole.
    let long = "x".repeat(2000);
    let report = ExecutionReportBuilder {
        exec_id: Some(text("E-1")),
        text: Some(text(&long)),
        ..report
    };
    out.send(&report).unwrap();
    out.send_body(b"0", b"112=T\x01");
    assert_eq!(out.len(), 2);
}
