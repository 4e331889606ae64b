//! The venue workflow: ACMEX's dictionary (`spec/ACMEX.xml`, FIX 4.4 plus custom
//! fields, a custom message, extra enum values and a fee group) became this crate
//! with `cargo xtask new-crate spec/ACMEX.xml`. Send a NewOrderSingle carrying the
//! custom AcmeStrategyTag (5001) and a venue-only OrdType; read an ExecutionReport
//! carrying the custom NoAcmeFees (5003) group.
//!
//! `cargo run -p acmex --example venue`

use acmex::Message;
use acmex::components::{HeaderBuilder, HeaderRequired, InstrumentBuilder};
use acmex::core::validate::Validator;
use acmex::core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use acmex::core::{Fields, Parser};
use acmex::enums::{AcmeFeeType, AcmeLiquidityFlag, ExecType, OrdStatus, OrdType, Side};
use acmex::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportNoAcmeFeesBuilder,
    ExecutionReportNoAcmeFeesRequired, ExecutionReportRequired, NewOrderSingle,
    NewOrderSingleBuilder, NewOrderSingleRequired,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let now = UtcTimestamp::parse(b"20261130-14:03:27.123")?;
    let s = |v: &'static str| FixStr::parse(v.as_bytes());

    // Out: an order with a custom field and a venue-only order type.
    let order = NewOrderSingleBuilder {
        acme_strategy_tag: Some(s("VWAP-3")?),
        instrument: Some(InstrumentBuilder {
            symbol: Some(s("ACME")?),
            ..Default::default()
        }),
        ..NewOrderSingle::builder(NewOrderSingleRequired {
            cl_ord_id: s("CL-9")?,
            side: Side::Buy,
            transact_time: now,
            ord_type: OrdType::AcmeMidpointPeg,
        })
    };
    let mut buf = [0u8; 1024];
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("CLIENT")?,
        target_comp_id: s("ACMEX")?,
        msg_seq_num: SeqNum(12),
        sending_time: now,
    });
    let out = order.encode(&header, &mut buf)?;
    println!(
        "sent:     {}",
        String::from_utf8_lossy(out).replace('\x01', "|")
    );

    // In: a fill with the venue's fee group.
    let fee = |acme_fee_type, amt: &[u8]| {
        Decimal::parse(amt).map(|acme_fee_amt| {
            ExecutionReportNoAcmeFeesBuilder::new(ExecutionReportNoAcmeFeesRequired {
                acme_fee_type,
                acme_fee_amt,
            })
        })
    };
    let fees = [
        fee(AcmeFeeType::Exchange, b"0.35")?,
        fee(AcmeFeeType::Regulatory, b"0.02")?,
    ];
    let fill = ExecutionReportBuilder {
        cl_ord_id: Some(s("CL-9")?),
        acme_liquidity_flag: Some(AcmeLiquidityFlag::AddedLiquidity),
        no_acme_fees: &fees,
        instrument: Some(InstrumentBuilder {
            symbol: Some(s("ACME")?),
            ..Default::default()
        }),
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: s("O-1")?,
            exec_id: s("E-1")?,
            exec_type: ExecType::Trade,
            ord_status: OrdStatus::Filled,
            side: Side::Buy,
            leaves_qty: Decimal::parse(b"0")?,
            cum_qty: Decimal::parse(b"100")?,
            avg_px: Decimal::parse(b"12.5")?,
        })
    };
    let mut in_buf = [0u8; 1024];
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("ACMEX")?,
        target_comp_id: s("CLIENT")?,
        msg_seq_num: SeqNum(40),
        sending_time: now,
    });
    let wire = fill.encode(&header, &mut in_buf)?;
    println!(
        "received: {}",
        String::from_utf8_lossy(wire).replace('\x01', "|")
    );

    let mut fields = Fields::<128>::new();
    let msg = Parser::new()
        .with_data_fields(acmex::DATA_FIELDS)
        .parse(wire, &mut fields)?;
    let msg = msg.complete().ok_or("incomplete")?;
    // The venue's dictionary knows its fields; plain FIX 4.4 would reject them.
    Validator::new()
        .validate(&acmex::DICTIONARY, &msg)
        .map_err(|reject| reject.to_string())?;
    if let Err(reject) = Validator::new().validate(&fix44::DICTIONARY, &msg) {
        println!("as plain FIX 4.4: {reject}");
    }
    let Message::ExecutionReport(er) = Message::new(msg) else {
        return Err("not an ExecutionReport".into());
    };
    println!("liquidity: {:?}", er.acme_liquidity_flag()?);
    for fee in er.no_acme_fees() {
        println!("fee: {:?} {}", fee.acme_fee_type()?, fee.acme_fee_amt()?);
    }
    Ok(())
}
