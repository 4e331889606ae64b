//! FIXT.1.1 through the engine, over loopback: two engines on fix50sp2's
//! tables (FIX 5.0 SP2 over FIXT 1.1, DefaultApplVerID 9); the initiator sends
//! a typed NewOrderSingle with `SessionHandle::send_message`, the acceptor's
//! application receives it typed through `ByApplVerId` and fix50sp2's
//! generated dispatch and answers with a typed ExecutionReport builder; an
//! order naming an ApplVerID with no crate gets QuickFIX's
//! BusinessMessageReject (UnsupportedMessageType), DefaultApplVerID (1137) in
//! its body as QuickFIX writes it, which the receiving engine takes without a
//! session Reject (before, it answered one: "Tag not defined for this message
//! type", 371=1137).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use fix_core::Message;
use fix_core::typed::AppHeader;
use fix_core::value::{Decimal, FixStr, UtcTimestamp};
use fix_engine::Engine;
use fix_engine::config::{Schedule, SessionBuilder};
use fix_session::{AppReject, Application, ByApplVerId, Outbox, SessionId, State};
use fix50sp2::components::{HeaderBuilder, InstrumentBuilder, OrderQtyDataBuilder};
use fix50sp2::enums::{ApplVerId, ExecType, OrdStatus, OrdType, Side};
use fix50sp2::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired, NewOrderSingle,
    NewOrderSingleBuilder, NewOrderSingleRequired,
};
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(10);

fn text(s: &str) -> FixStr<'_> {
    FixStr::parse(s.as_bytes()).unwrap()
}

/// The acceptor's handler: records each order's ClOrdID, answers it typed.
struct Executor {
    orders: Arc<Mutex<Vec<String>>>,
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
            .lock()
            .unwrap()
            .push(String::from_utf8_lossy(cl_ord_id.as_bytes()).into_owned());
        let qty = order.order_qty_data().order_qty().map_err(|e| reject(&e))?;
        let report = ExecutionReportBuilder {
            cl_ord_id: Some(cl_ord_id),
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

/// The initiator's application: every application message, as (MsgType,
/// ClOrdID or RefSeqNum, BusinessRejectReason), handed to the test.
struct Client(mpsc::UnboundedSender<(String, String, String)>);

impl Application for Client {
    fn from_app(&mut self, msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        let field = |tag| {
            msg.get(tag)
                .map(|v| String::from_utf8_lossy(v).into_owned())
                .unwrap_or_default()
        };
        let _ = self.0.send((field(35), field(11), field(380)));
        Ok(())
    }
    fn from_admin(&mut self, msg: &Message<'_>) -> Result<(), fix_session::Refusal> {
        let field = |tag| {
            msg.get(tag)
                .map(|v| String::from_utf8_lossy(v).into_owned())
                .unwrap_or_default()
        };
        if field(35) == "3" {
            let _ = self.0.send((field(35), field(58), field(373)));
        }
        Ok(())
    }
}

fn order(cl_ord_id: &str) -> NewOrderSingleBuilder<'_> {
    NewOrderSingleBuilder {
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
    }
}

#[tokio::test]
async fn a_typed_fix50sp2_order_goes_through_two_engines_and_is_answered_typed() {
    let orders = Arc::new(Mutex::new(Vec::new()));
    let acc_id = SessionId::new("FIXT.1.1", "BROKER", "CLIENT");
    let ini_id = SessionId::new("FIXT.1.1", "CLIENT", "BROKER");
    let acceptor = SessionBuilder::acceptor(acc_id.clone())
        .socket_accept_address("127.0.0.1")
        .socket_accept_port(0)
        .default_appl_ver_id("9")
        .schedule(Schedule::non_stop());
    let seen = orders.clone();
    let acc = Engine::start(settings([acceptor]), &fix50sp2::DICTIONARY, move |_, _| {
        ByApplVerId::new(fix50sp2::Cracker(Executor {
            orders: seen.clone(),
        }))
    })
    .await
    .unwrap();
    let initiator = SessionBuilder::initiator(ini_id.clone())
        .socket_connect("127.0.0.1", port_of(&acc))
        .heart_bt_int(30)
        .reconnect_interval(Duration::from_secs(1))
        .default_appl_ver_id("FIX.5.0SP2")
        .schedule(Schedule::non_stop());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let ini = Engine::start(settings([initiator]), &fix50sp2::DICTIONARY, move |_, _| {
        Client(tx.clone())
    })
    .await
    .unwrap();
    let handle = ini.session(&ini_id).unwrap();
    tokio::time::timeout(WAIT, handle.wait_for(State::LoggedOn))
        .await
        .unwrap();

    // By the session's DefaultApplVerID (no 1128 on the order).
    handle.send_message(&order("ORD1")).unwrap();
    let got = tokio::time::timeout(WAIT, rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got, ("8".into(), "ORD1".into(), String::new()));
    // Named in the header: ApplVerID 9, FIX.5.0SP2's crate.
    let header = HeaderBuilder {
        appl_ver_id: Some(ApplVerId::Fix50Sp2),
        ..Default::default()
    };
    handle
        .send_message(&header.with_body(&order("ORD2")))
        .unwrap();
    let got = tokio::time::timeout(WAIT, rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(got, ("8".into(), "ORD2".into(), String::new()));
    // ApplVerID 7 (FIX.5.0): no crate for it on the acceptor.
    let header = HeaderBuilder {
        appl_ver_id: Some(ApplVerId::Fix50),
        ..Default::default()
    };
    handle
        .send_message(&header.with_body(&order("ORD3")))
        .unwrap();
    let got = tokio::time::timeout(WAIT, rx.recv())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (got.0.as_str(), got.2.as_str()),
        ("j", "3"),
        "a BusinessMessageReject, UnsupportedMessageType: {got:?}"
    );
    assert_eq!(*orders.lock().unwrap(), ["ORD1", "ORD2"]);
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// The port the engine's one listener took (it binds port 0).
fn port_of<D: fix_core::validate::Schema + Send + Sync + 'static>(engine: &Engine<D>) -> u16 {
    let [addr] = engine.local_addrs() else {
        panic!("not one listener: {:?}", engine.local_addrs());
    };
    addr.port()
}

/// Settings of the sessions `sessions` build.
fn settings(sessions: impl IntoIterator<Item = SessionBuilder>) -> fix_engine::config::Settings {
    let built: Vec<_> = sessions.into_iter().map(|b| b.build().unwrap()).collect();
    fix_engine::config::Settings::new(built).unwrap()
}
