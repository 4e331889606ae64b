//! Walk the entries of a MarketDataIncrementalRefresh (NoMDEntries, 268) through
//! the typed group iterator: build one, parse it back, print each entry.
//!
//! `cargo run -p fix44 --example market_data`

use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Fields, Parser};
use fix44::Message;
use fix44::components::{HeaderBuilder, MdIncGrpBuilder, MdIncGrpNoMdEntriesBuilder};
use fix44::enums::{MdEntryType, MdUpdateAction};
use fix44::messages::{MarketDataIncrementalRefresh, MarketDataIncrementalRefreshBuilder};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let entries: Vec<MdIncGrpNoMdEntriesBuilder<'_>> = (0..10)
        .map(|i| MdIncGrpNoMdEntriesBuilder {
            md_entry_type: Some(if i % 2 == 0 {
                MdEntryType::Bid
            } else {
                MdEntryType::Offer
            }),
            md_entry_px: Some(Decimal::new(108_005 + 10 * i, 5).unwrap()),
            md_entry_size: Some(Decimal::new(1_000_000 + 250_000 * i, 0).unwrap()),
            ..MdIncGrpNoMdEntriesBuilder::new(MdUpdateAction::New)
        })
        .collect();
    let refresh = MarketDataIncrementalRefreshBuilder {
        md_req_id: Some(FixStr::parse(b"MDREQ-17")?),
        md_inc_grp: Some(MdIncGrpBuilder {
            no_md_entries: &entries,
        }),
        ..MarketDataIncrementalRefresh::builder()
    };
    let now = UtcTimestamp::parse(b"20261130-14:03:27.123456")?;
    let header = HeaderBuilder::new(
        FixStr::parse(b"VENUE")?,
        FixStr::parse(b"CLIENT")?,
        SeqNum(88123),
        now,
    );
    let mut buf = [0u8; 2048];
    let bytes = refresh.encode(&header, &mut buf)?;

    let mut fields = Fields::<128>::new();
    let msg = Parser::new()
        .parse(bytes, &mut fields)?
        .complete()
        .ok_or("incomplete")?;
    let Message::MarketDataIncrementalRefresh(md) = Message::new(msg) else {
        return Err("not a MarketDataIncrementalRefresh".into());
    };
    for entry in md.md_inc_grp().no_md_entries() {
        println!(
            "{:?} {:?} {} x {}",
            entry.md_update_action()?,
            entry.md_entry_type()?,
            entry
                .md_entry_px()?
                .map(|p| p.to_string())
                .unwrap_or_default(),
            entry
                .md_entry_size()?
                .map(|s| s.to_string())
                .unwrap_or_default(),
        );
    }
    Ok(())
}
