//! The generated ACMEX crate on the wire: its custom field, venue-only enum value
//! and fee group written byte for byte as expected (BodyLength and CheckSum by the
//! naive builder), read back, and validated by ACMEX's tables where plain FIX 4.4's
//! reject them: the claim docs/parsing.md makes (Your venue's dictionary).

use acmex::Message;
use acmex::components::{HeaderBuilder, HeaderRequired, InstrumentBuilder};
use acmex::enums::{AcmeFeeType, AcmeLiquidityFlag, ExecType, OrdStatus, OrdType, Side};
use acmex::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportNoAcmeFeesBuilder,
    ExecutionReportNoAcmeFeesRequired, ExecutionReportRequired, NewOrderSingle,
    NewOrderSingleBuilder, NewOrderSingleRequired,
};
use fix_core::validate::{SessionRejectReason as R, Validator};
use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Fields, Parser};
use fix_test_support::naive::{build, soh};

fn s(v: &'static str) -> FixStr<'static> {
    FixStr::parse(v.as_bytes()).unwrap()
}

fn now() -> UtcTimestamp {
    UtcTimestamp::parse(b"20261130-14:03:27.123").unwrap()
}

#[test]
fn an_order_carries_the_custom_field_and_order_type() {
    let order = NewOrderSingleBuilder {
        acme_strategy_tag: Some(s("VWAP-3")),
        instrument: Some(InstrumentBuilder {
            symbol: Some(s("ACME")),
            ..Default::default()
        }),
        ..NewOrderSingle::builder(NewOrderSingleRequired {
            cl_ord_id: s("CL-9"),
            side: Side::Buy,
            transact_time: now(),
            ord_type: OrdType::AcmeMidpointPeg,
        })
    };
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("CLIENT"),
        target_comp_id: s("ACMEX"),
        msg_seq_num: SeqNum(12),
        sending_time: now(),
    });
    let mut buf = [0u8; 1024];
    let bytes = order.encode(&header, &mut buf).unwrap();
    let expected = build(&soh(
        "35=D|34=12|49=CLIENT|52=20261130-14:03:27.123|56=ACMEX|\
         11=CL-9|55=ACME|54=1|60=20261130-14:03:27.123|40=Z|5001=VWAP-3|",
    ));
    assert_eq!(
        bytes.escape_ascii().to_string(),
        expected.escape_ascii().to_string()
    );

    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(Validator::new().validate(&acmex::DICTIONARY, &msg), Ok(()));
    let plain = Validator::new().validate(&fix44::DICTIONARY, &msg);
    assert_eq!(
        plain
            .err()
            .map(|e| *e.reject().expect("a Reject"))
            .map(|r| (r.reason, r.ref_tag)),
        Some((R::ValueIncorrect, Some(40))),
        "OrdType Z is ACMEX's own"
    );
}

#[test]
fn a_fill_carries_the_fee_group_and_only_acmex_accepts_it() {
    let fees = [
        ExecutionReportNoAcmeFeesBuilder::new(ExecutionReportNoAcmeFeesRequired {
            acme_fee_type: AcmeFeeType::Exchange,
            acme_fee_amt: Decimal::parse(b"0.35").unwrap(),
        }),
        ExecutionReportNoAcmeFeesBuilder::new(ExecutionReportNoAcmeFeesRequired {
            acme_fee_type: AcmeFeeType::Regulatory,
            acme_fee_amt: Decimal::parse(b"0.02").unwrap(),
        }),
    ];
    let fill = ExecutionReportBuilder {
        cl_ord_id: Some(s("CL-9")),
        acme_liquidity_flag: Some(AcmeLiquidityFlag::AddedLiquidity),
        no_acme_fees: &fees,
        instrument: Some(InstrumentBuilder {
            symbol: Some(s("ACME")),
            ..Default::default()
        }),
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: s("O-1"),
            exec_id: s("E-1"),
            exec_type: ExecType::Trade,
            ord_status: OrdStatus::Filled,
            side: Side::Buy,
            leaves_qty: Decimal::parse(b"0").unwrap(),
            cum_qty: Decimal::parse(b"100").unwrap(),
            avg_px: Decimal::parse(b"12.5").unwrap(),
        })
    };
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("ACMEX"),
        target_comp_id: s("CLIENT"),
        msg_seq_num: SeqNum(40),
        sending_time: now(),
    });
    let mut buf = [0u8; 1024];
    let bytes = fill.encode(&header, &mut buf).unwrap();
    let expected = build(&soh(
        "35=8|34=40|49=ACMEX|52=20261130-14:03:27.123|56=CLIENT|37=O-1|11=CL-9|17=E-1|150=F|\
         39=2|55=ACME|54=1|151=0|14=100|6=12.5|5002=A|5003=2|5004=E|5005=0.35|5004=R|5005=0.02|",
    ));
    assert_eq!(
        bytes.escape_ascii().to_string(),
        expected.escape_ascii().to_string()
    );

    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .with_data_fields(acmex::DATA_FIELDS)
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(Validator::new().validate(&acmex::DICTIONARY, &msg), Ok(()));
    let plain = Validator::new().validate(&fix44::DICTIONARY, &msg);
    assert_eq!(
        plain
            .err()
            .map(|e| *e.reject().expect("a Reject"))
            .map(|r| (r.reason, r.ref_tag)),
        Some((R::InvalidTagNumber, Some(5002))),
        "AcmeLiquidityFlag (5002) is not FIX 4.4's"
    );
    let Message::ExecutionReport(er) = Message::new(msg) else {
        panic!("not an ExecutionReport");
    };
    assert_eq!(
        er.acme_liquidity_flag().unwrap(),
        Some(AcmeLiquidityFlag::AddedLiquidity)
    );
    let read: Vec<_> = er
        .no_acme_fees()
        .map(|f| {
            (
                f.acme_fee_type().unwrap(),
                f.acme_fee_amt().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            (AcmeFeeType::Exchange, "0.35".to_string()),
            (AcmeFeeType::Regulatory, "0.02".to_string())
        ]
    );
}

/// A crate that depends on this one alone gets fix-core's `std` (its errors are
/// `std::error::Error`s, so `?` takes them into a `Box<dyn Error>`).
#[test]
fn std_is_a_default_feature() {
    const { assert!(cfg!(feature = "std")) };
    fn boxed() -> Result<(), Box<dyn std::error::Error>> {
        Err(fix_core::Error::BodyLengthMissing { offset: 0 })?
    }
    assert!(boxed().is_err());
}
