//! Typed reads (views and streaming walks) and builds allocate nothing: counted
//! with a counting allocator.

use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Fields, Parser};
use fix_sample::Message;
use fix_sample::components::{
    HeaderBuilder, HeaderRequired, InstrumentBuilder, InstrumentRequired, PartiesBuilder,
    PartiesNoPartyIds, PartiesNoPartyIdsBuilder, PartiesNoPartyIdsRequired,
};
use fix_sample::enums::{MdUpdateAction, OrdType, PartyRole, Side};
use fix_sample::messages::{
    MarketDataIncrementalRefresh, MarketDataIncrementalRefreshBuilder,
    MarketDataIncrementalRefreshNoMdEntries as Entry,
    MarketDataIncrementalRefreshNoMdEntriesBuilder,
    MarketDataIncrementalRefreshNoMdEntriesField as EntryField,
    MarketDataIncrementalRefreshNoMdEntriesRequired, NewOrderSingle, NewOrderSingleBuilder,
    NewOrderSingleRequired,
};

use fix_test_support::alloc::{Counting, allocations_during};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn build_parse_and_typed_read_allocate_nothing() {
    let sym = FixStr::parse(b"AAPL").unwrap();
    let px = Decimal::parse(b"187.25").unwrap();
    let now = UtcTimestamp::parse(b"20261130-12:30:45").unwrap();
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: FixStr::parse(b"A").unwrap(),
        target_comp_id: FixStr::parse(b"B").unwrap(),
        msg_seq_num: SeqNum(1),
        sending_time: now,
    });
    let parser = Parser::new().with_data_fields(fix_sample::DATA_FIELDS);
    let mut buf = [0u8; 1024];
    let mut fields = Fields::<128>::new();
    let mut seen = 0usize;
    let n = allocations_during(|| {
        for _ in 0..100 {
            let parties = [
                PartiesNoPartyIdsBuilder {
                    party_role: Some(PartyRole::ClientId),
                    ..PartiesNoPartyIdsBuilder::new(PartiesNoPartyIdsRequired { party_id: sym })
                },
                PartiesNoPartyIdsBuilder::new(PartiesNoPartyIdsRequired { party_id: sym }),
            ];
            let order = NewOrderSingleBuilder {
                parties: Some(PartiesBuilder {
                    no_party_ids: &parties,
                }),
                price: Some(px),
                ..NewOrderSingle::builder(NewOrderSingleRequired {
                    cl_ord_id: sym,
                    instrument: InstrumentBuilder::new(InstrumentRequired { symbol: sym }),
                    side: Side::Buy,
                    transact_time: now,
                    ord_type: OrdType::Limit,
                })
            };
            let bytes = order.encode(&header, &mut buf).unwrap();
            let msg = parser
                .parse(bytes, &mut fields)
                .unwrap()
                .complete()
                .unwrap();
            if let Message::NewOrderSingle(nos) = Message::new(msg) {
                seen += usize::from(nos.side() == Ok(Side::Buy));
                seen += usize::from(nos.price() == Ok(Some(px)));
                seen += nos.parties().no_party_ids().count();
                seen += NewOrderSingle::walk::<PartiesNoPartyIds>(msg).count();
                seen += usize::from(nos.instrument().symbol().is_ok());
            }

            let entries = [
                MarketDataIncrementalRefreshNoMdEntriesBuilder::new(
                    MarketDataIncrementalRefreshNoMdEntriesRequired {
                        md_update_action: MdUpdateAction::New,
                    },
                ),
                MarketDataIncrementalRefreshNoMdEntriesBuilder {
                    instrument: Some(InstrumentBuilder::new(InstrumentRequired { symbol: sym })),
                    md_entry_px: Some(px),
                    ..MarketDataIncrementalRefreshNoMdEntriesBuilder::new(
                        MarketDataIncrementalRefreshNoMdEntriesRequired {
                            md_update_action: MdUpdateAction::Change,
                        },
                    )
                },
            ];
            let md = MarketDataIncrementalRefreshBuilder {
                md_req_id: None,
                no_md_entries: &entries,
            };
            let bytes = md.encode(&header, &mut buf).unwrap();
            let msg = parser
                .parse(bytes, &mut fields)
                .unwrap()
                .complete()
                .unwrap();
            if let Message::MarketDataIncrementalRefresh(md) = Message::new(msg) {
                for e in md.no_md_entries() {
                    seen += usize::from(e.md_update_action().is_ok());
                    seen += usize::from(e.instrument().symbol().is_ok());
                }
            }
            // The streaming walk, straight from the message and from the view.
            for field in MarketDataIncrementalRefresh::walk::<Entry>(msg) {
                seen += match field {
                    EntryField::MdUpdateAction(v) => usize::from(v.get().is_ok()),
                    EntryField::MdEntryPx(v) => usize::from(v.get() == Ok(px)),
                    _ => 0,
                };
            }
            let md = MarketDataIncrementalRefresh::new(msg);
            seen += md
                .no_md_entries()
                .walk()
                .filter(|f| f.starts_entry())
                .count();
        }
    });
    assert_eq!(n, 0, "allocations on the typed paths");
    assert_eq!(seen, 100 * (1 + 1 + 2 + 1 + 2 + 1 + 3 + 2 + 1 + 2));
}
