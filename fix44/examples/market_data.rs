//! Walk the entries of a MarketDataIncrementalRefresh (NoMDEntries, 268) through
//! the typed group iterator: build one, parse it back, print each entry.
//!
//! `cargo run -p fix44 --example market_data`

use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Fields, Parser};
use fix44::Message;
use fix44::components::{
    HeaderBuilder, HeaderRequired, MdIncGrpBuilder, MdIncGrpNoMdEntriesBuilder,
    MdIncGrpNoMdEntriesRequired, MdIncGrpRequired,
};
use fix44::enums::{MdEntryType, MdUpdateAction};
use fix44::messages::{
    MarketDataIncrementalRefresh, MarketDataIncrementalRefreshBuilder,
    MarketDataIncrementalRefreshRequired,
};

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
            ..MdIncGrpNoMdEntriesBuilder::new(MdIncGrpNoMdEntriesRequired {
                md_update_action: MdUpdateAction::New,
            })
        })
        .collect();
    let refresh = MarketDataIncrementalRefreshBuilder {
        md_req_id: Some(FixStr::parse(b"MDREQ-17")?),
        ..MarketDataIncrementalRefresh::builder(MarketDataIncrementalRefreshRequired {
            md_inc_grp: MdIncGrpBuilder::new(MdIncGrpRequired {
                no_md_entries: &entries,
            }),
        })
    };
    let now = UtcTimestamp::parse(b"20261130-14:03:27.123456")?;
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: FixStr::parse(b"VENUE")?,
        target_comp_id: FixStr::parse(b"CLIENT")?,
        msg_seq_num: SeqNum(88123),
        sending_time: now,
    });
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
