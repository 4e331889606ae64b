//! A venue's own crate over a pair of sessions: acmex, generated from
//! `spec/ACMEX.xml` as `cargo xtask new-crate` makes a venue's crate (FIX 4.4
//! with custom fields, the custom message AcmeRiskLimitUpdate (U1) and a custom
//! OrdType value). Both sides validate against acmex's tables; the acceptor's
//! handler takes the custom message and a NewOrderSingle with the custom
//! OrdType through `acmex::Cracker`, and answers with a typed builder.

use crate::common::{Pair, Recorder, configs, get};
use acmex::components::{InstrumentBuilder, OrderQtyDataBuilder};
use acmex::enums::{OrdType, Side};
use acmex::messages::{
    AcmeRiskLimitUpdate, AcmeRiskLimitUpdateBuilder, AcmeRiskLimitUpdateRequired, NewOrderSingle,
    NewOrderSingleBuilder, NewOrderSingleRequired,
};
use fix_core::typed::MessageBody;
use fix_core::value::{Decimal, FixStr, UtcTimestamp};
use fix_session::{AppReject, MemoryStore, Outbox};

fn text(s: &str) -> FixStr<'_> {
    FixStr::parse(s.as_bytes()).unwrap()
}

fn reject(e: &dyn std::fmt::Display) -> AppReject {
    AppReject::Business {
        reason: 0,
        ref_tag: None,
        text: e.to_string(),
    }
}

/// Takes risk limit updates (answered with the same update, its Text saying
/// it is in force) and pegged orders.
#[derive(Default)]
struct Venue {
    limits: Vec<(String, Decimal)>,
    pegged: Vec<String>,
}

impl acmex::Handler<Outbox, AppReject> for Venue {
    fn on_acme_risk_limit_update(
        &mut self,
        update: &AcmeRiskLimitUpdate<'_>,
        out: &mut Outbox,
    ) -> Result<(), AppReject> {
        let account = update.account().map_err(|e| reject(&e))?;
        let limit = update.acme_risk_limit().map_err(|e| reject(&e))?;
        self.limits.push((
            String::from_utf8_lossy(account.as_bytes()).into_owned(),
            limit,
        ));
        let answer = AcmeRiskLimitUpdateBuilder {
            text: Some(text("in force")),
            ..AcmeRiskLimitUpdate::builder(AcmeRiskLimitUpdateRequired {
                acme_risk_limit_req_id: update.acme_risk_limit_req_id().map_err(|e| reject(&e))?,
                account,
                acme_risk_limit: limit,
            })
        };
        out.send(&answer).map_err(|e| reject(&e))
    }

    fn on_new_order_single(
        &mut self,
        order: &NewOrderSingle<'_>,
        _out: &mut Outbox,
    ) -> Result<(), AppReject> {
        if order.ord_type().map_err(|e| reject(&e))? == OrdType::AcmeMidpointPeg {
            let id = order.cl_ord_id().map_err(|e| reject(&e))?;
            self.pegged
                .push(String::from_utf8_lossy(id.as_bytes()).into_owned());
        }
        Ok(())
    }
}

fn encode<M: MessageBody>(msg: &M) -> Vec<u8> {
    let mut buf = [0u8; 512];
    let mut enc = fix_core::Encoder::fields(&mut buf);
    msg.write_body(&mut enc).unwrap();
    enc.finish().unwrap().to_vec()
}

fn pair() -> Pair<Recorder, acmex::Cracker<Venue>> {
    let (ic, ac) = configs();
    let mut p = Pair::with_dict(
        &acmex::DICTIONARY,
        ic,
        ac,
        MemoryStore::new(),
        MemoryStore::new(),
        Recorder::default(),
        acmex::Cracker(Venue::default()),
    );
    p.connect();
    p
}

#[test]
fn the_venue_s_own_message_is_sent_typed_dispatched_and_answered_typed() {
    let mut p = pair();
    let update = AcmeRiskLimitUpdate::builder(AcmeRiskLimitUpdateRequired {
        acme_risk_limit_req_id: text("RL-1"),
        account: text("ACC-7"),
        acme_risk_limit: Decimal::parse(b"250000").unwrap(),
    });
    p.init
        .send(p.now, b"U1", &encode(&update), &mut p.ia)
        .unwrap();
    let (sent, answers) = p.pump();
    assert_eq!(get(&sent[0], 35).as_deref(), Some("U1"));
    assert_eq!(get(&sent[0], 5007).as_deref(), Some("250000"));
    assert_eq!(
        p.aa.0.limits,
        [("ACC-7".to_owned(), Decimal::parse(b"250000").unwrap())]
    );
    assert_eq!(answers.len(), 1, "{answers:?}");
    let answer = &answers[0];
    assert_eq!(get(answer, 35).as_deref(), Some("U1"));
    assert_eq!(get(answer, 5008).as_deref(), Some("RL-1"));
    assert_eq!(get(answer, 58).as_deref(), Some("in force"));
    // The initiator validated the answer against acmex's tables too.
    assert_eq!(p.ia.received, [(b"U1".to_vec(), b"".to_vec())]);
}

#[test]
fn an_order_with_the_venue_s_own_ord_type_is_taken() {
    let mut p = pair();
    let order = NewOrderSingle::builder(NewOrderSingleRequired {
        cl_ord_id: text("PEG-1"),
        side: Side::Buy,
        transact_time: UtcTimestamp::parse(b"20260921-14:13:20").unwrap(),
        ord_type: OrdType::AcmeMidpointPeg,
    });
    let order = NewOrderSingleBuilder {
        instrument: Some(InstrumentBuilder {
            symbol: Some(text("MSFT")),
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(Decimal::parse(b"100").unwrap()),
            ..Default::default()
        }),
        ..order
    };
    p.init
        .send(p.now, b"D", &encode(&order), &mut p.ia)
        .unwrap();
    let (sent, answers) = p.pump();
    assert_eq!(get(&sent[0], 40).as_deref(), Some("Z"));
    assert_eq!(p.aa.0.pegged, ["PEG-1"]);
    assert!(answers.is_empty(), "{answers:?}");
}
