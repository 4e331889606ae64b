//! Read the entries of a MarketDataIncrementalRefresh (NoMDEntries, 268) both ways:
//! build one, parse it back, then print each entry through the entry views (slots
//! filled per entry, then getters in any order) and through the group's streaming
//! walk (every field once, in wire order, as a variant of a generated enum; no
//! slot table).
//!
//! `cargo run -p fix44 --example market_data`

use fix44::Message;
use fix44::components::{
    HeaderBuilder, HeaderRequired, MdIncGrpBuilder, MdIncGrpNoMdEntries,
    MdIncGrpNoMdEntriesBuilder, MdIncGrpNoMdEntriesField, MdIncGrpNoMdEntriesRequired,
    MdIncGrpRequired,
};
use fix44::core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix44::core::{Fields, Parser};
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
    println!("entry views:");
    for entry in md.md_inc_grp().no_md_entries() {
        println!(
            "  {:?} {:?} {} x {}",
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

    // The same entries streamed: `walk` finds NoMDEntries in the parsed message
    // without building the view (`md.md_inc_grp().no_md_entries().walk()` streams
    // from a view). Values parse when asked (`get`, with the getters' errors); an
    // entry starts at its delimiter, MDUpdateAction; a nested group (Instrument's
    // NoSecurityAltID, say) would come as one variant holding its own walk.
    println!("streaming walk:");
    let mut line = String::new();
    for field in MarketDataIncrementalRefresh::walk::<MdIncGrpNoMdEntries>(msg) {
        use MdIncGrpNoMdEntriesField as F;
        if field.starts_entry() && !line.is_empty() {
            println!("  {line}");
            line.clear();
        }
        match field {
            F::MdUpdateAction(action) => line += &format!("{:?}", action.get()?),
            F::MdEntryType(kind) => line += &format!(" {:?}", kind.get()?),
            F::MdEntryPx(px) => line += &format!(" {}", px.get()?),
            F::MdEntrySize(size) => line += &format!(" x {}", size.get()?),
            other => line += &format!(" (tag {})", other.tag()),
        }
    }
    println!("  {line}");
    Ok(())
}
