//! Build and encode a NewOrderSingle with the typed builder: the required fields
//! up front, the rest by name; header fields go out as QuickFIX sends them.
//!
//! `cargo run -p fix44 --example new_order_single`

use fix44::components::{HeaderBuilder, HeaderRequired, InstrumentBuilder, OrderQtyDataBuilder};
use fix44::core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix44::enums::{OrdType, Side, TimeInForce};
use fix44::messages::{NewOrderSingle, NewOrderSingleBuilder, NewOrderSingleRequired};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let now = UtcTimestamp::parse(b"20261130-14:03:27.456")?;
    let order = NewOrderSingleBuilder {
        account: Some(FixStr::parse(b"ACC-7781")?),
        instrument: Some(InstrumentBuilder {
            symbol: Some(FixStr::parse(b"MSFT")?),
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(Decimal::parse(b"2500")?),
            ..Default::default()
        }),
        price: Some(Decimal::parse(b"412.33")?),
        time_in_force: Some(TimeInForce::Day),
        ..NewOrderSingle::builder(NewOrderSingleRequired {
            cl_ord_id: FixStr::parse(b"CL-1")?,
            side: Side::Sell,
            transact_time: now,
            ord_type: OrdType::Limit,
        })
    };
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: FixStr::parse(b"CLIENT")?,
        target_comp_id: FixStr::parse(b"BROKER")?,
        msg_seq_num: SeqNum(3391),
        sending_time: now,
    });
    let mut buf = [0u8; 512];
    let bytes = order.encode(&header, &mut buf)?; // no allocation: BodyLength and CheckSum filled in
    println!("{}", String::from_utf8_lossy(bytes).replace('\x01', "|"));
    Ok(())
}
