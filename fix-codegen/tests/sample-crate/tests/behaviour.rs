//! Build with the generated builders, parse with `fix_core::Parser`, read back
//! through the generated views: fields, enums (listed and unlisted values),
//! components, nested groups, components inside groups, data fields, the header.

use fix_core::typed::FieldError;
use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Fields, Parser};
use fix_sample::Message;
use fix_sample::components::{
    HeaderBuilder, HeaderNoHopsBuilder, HeaderNoHopsRequired, HeaderRequired, InstrumentBuilder,
    InstrumentNoSecurityAltIdBuilder, InstrumentNoSecurityAltIdRequired, InstrumentRequired,
    OrderQtyDataBuilder, PartiesBuilder, PartiesNoPartyIdsBuilder, PartiesNoPartyIdsRequired,
    PtysSubGrpBuilder, PtysSubGrpNoPartySubIdsBuilder, PtysSubGrpNoPartySubIdsRequired,
};
use fix_sample::enums::{
    ExecInst, ExecType, MdEntryType, MdUpdateAction, OrdStatus, OrdType, PartyRole, SecurityType,
    Side, TimeInForce,
};
use fix_sample::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportNoContraBrokersBuilder,
    ExecutionReportNoContraBrokersRequired, ExecutionReportRequired,
    MarketDataIncrementalRefreshBuilder, MarketDataIncrementalRefreshNoMdEntriesBuilder,
    MarketDataIncrementalRefreshNoMdEntriesRequired, NewOrderSingle, NewOrderSingleBuilder,
    NewOrderSingleRequired,
};

fn s(v: &str) -> FixStr<'_> {
    FixStr::parse(v.as_bytes()).unwrap()
}

fn d(v: &str) -> Decimal {
    Decimal::parse(v.as_bytes()).unwrap()
}

fn now() -> UtcTimestamp {
    UtcTimestamp::parse(b"20261130-12:30:45.123").unwrap()
}

fn header() -> HeaderBuilder<'static> {
    HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("CLIENT"),
        target_comp_id: s("VENUE"),
        msg_seq_num: SeqNum(7),
        sending_time: now(),
    })
}

fn parser() -> Parser<'static> {
    Parser::new().with_data_fields(fix_sample::DATA_FIELDS)
}

#[test]
fn new_order_single_round_trip() {
    let parties = [
        PartiesNoPartyIdsBuilder {
            party_role: Some(PartyRole::OrderOriginationTrader),
            ..PartiesNoPartyIdsBuilder::new(PartiesNoPartyIdsRequired {
                party_id: s("TRADER1"),
            })
        },
        PartiesNoPartyIdsBuilder {
            party_role: Some(PartyRole::Other(b"77")),
            ..PartiesNoPartyIdsBuilder::new(PartiesNoPartyIdsRequired {
                party_id: s("FIRM"),
            })
        },
    ];
    let order = NewOrderSingleBuilder {
        account: Some(s("ACC")),
        parties: Some(PartiesBuilder {
            no_party_ids: &parties,
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(d("100")),
            ..Default::default()
        }),
        price: Some(d("187.25")),
        time_in_force: Some(TimeInForce::Other(b'Z')),
        exec_inst: Some(fix_core::value::MultipleCharValue::parse(b"1 G").unwrap()),
        ..NewOrderSingle::builder(NewOrderSingleRequired {
            cl_ord_id: s("ORD-1"),
            instrument: InstrumentBuilder {
                security_type: Some(SecurityType::CommonStock),
                ..InstrumentBuilder::new(InstrumentRequired { symbol: s("AAPL") })
            },
            side: Side::Buy,
            transact_time: now(),
            ord_type: OrdType::Limit,
        })
    };
    let mut buf = [0u8; 512];
    let bytes = order.encode(&header(), &mut buf).unwrap();
    let text = String::from_utf8_lossy(bytes).replace('\x01', "|");
    assert!(
        text.starts_with("8=FIX.4.4|9="),
        "header starts with 8 and 9: {text}"
    );
    assert!(
        text.contains("|35=D|34=7|49=CLIENT|52=20261130-12:30:45.123|56=VENUE|11=ORD-1|"),
        "35, then header fields by tag, then body: {text}"
    );

    let mut fields = Fields::<64>::new();
    let msg = parser()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let Message::NewOrderSingle(nos) = Message::new(msg) else {
        panic!("dispatch on MsgType")
    };
    assert_eq!(nos.cl_ord_id().unwrap(), s("ORD-1"));
    assert_eq!(nos.side(), Ok(Side::Buy));
    assert_eq!(nos.ord_type(), Ok(OrdType::Limit));
    assert_eq!(nos.price().unwrap(), Some(d("187.25")));
    assert_eq!(nos.time_in_force(), Ok(Some(TimeInForce::Other(b'Z'))));
    assert_eq!(nos.text(), Ok(None));
    let exec_inst = nos.exec_inst().unwrap().unwrap();
    let listed: Vec<ExecInst> = exec_inst
        .iter()
        .map(|c| ExecInst::from_bytes(&[c.get()]).unwrap())
        .collect();
    assert_eq!(listed, [ExecInst::NotHeld, ExecInst::AllOrNone]);
    assert_eq!(nos.instrument().symbol().unwrap(), s("AAPL"));
    assert_eq!(
        nos.instrument().security_type(),
        Ok(Some(SecurityType::CommonStock))
    );
    assert_eq!(nos.order_qty_data().order_qty(), Ok(Some(d("100"))));
    assert_eq!(nos.header().sender_comp_id().unwrap(), s("CLIENT"));
    assert_eq!(nos.header().msg_seq_num(), Ok(SeqNum(7)));
    assert_eq!(nos.header().poss_dup_flag(), Ok(None));
    assert_eq!(nos.trailer().check_sum().unwrap().as_bytes().len(), 3);

    let roles: Vec<(FixStr<'_>, Option<PartyRole<'_>>)> = nos
        .parties()
        .no_party_ids()
        .map(|p| (p.party_id().unwrap().unwrap(), p.party_role().unwrap()))
        .collect();
    assert_eq!(
        roles,
        [
            (s("TRADER1"), Some(PartyRole::OrderOriginationTrader)),
            (s("FIRM"), Some(PartyRole::Other(b"77"))),
        ]
    );
}

#[test]
fn execution_report_groups_data_and_header_group() {
    let sub = [PtysSubGrpNoPartySubIdsBuilder {
        party_sub_id_type: Some(12),
        ..PtysSubGrpNoPartySubIdsBuilder::new(PtysSubGrpNoPartySubIdsRequired {
            party_sub_id: s("DESK-7"),
        })
    }];
    let parties = [PartiesNoPartyIdsBuilder {
        party_role: Some(PartyRole::ExecutingFirm),
        ptys_sub_grp: Some(PtysSubGrpBuilder {
            no_party_sub_ids: &sub,
        }),
        ..PartiesNoPartyIdsBuilder::new(PartiesNoPartyIdsRequired {
            party_id: s("BROKER"),
        })
    }];
    let alt = [
        InstrumentNoSecurityAltIdBuilder {
            security_alt_id_source: Some(s("4")),
            ..InstrumentNoSecurityAltIdBuilder::new(InstrumentNoSecurityAltIdRequired {
                security_alt_id: s("US0378331005"),
            })
        },
        InstrumentNoSecurityAltIdBuilder::new(InstrumentNoSecurityAltIdRequired {
            security_alt_id: s("AAPL.OQ"),
        }),
    ];
    let contra = [
        ExecutionReportNoContraBrokersBuilder {
            contra_trader: Some(s("T1")),
            ..ExecutionReportNoContraBrokersBuilder::new(ExecutionReportNoContraBrokersRequired {
                contra_broker: s("CB1"),
            })
        },
        ExecutionReportNoContraBrokersBuilder::new(ExecutionReportNoContraBrokersRequired {
            contra_broker: s("CB2"),
        }),
    ];
    let hops = [HeaderNoHopsBuilder {
        hop_ref_id: Some(SeqNum(3)),
        ..HeaderNoHopsBuilder::new(HeaderNoHopsRequired {
            hop_comp_id: s("HUB"),
        })
    }];
    let er = ExecutionReportBuilder {
        cl_ord_id: Some(s("ORD-1")),
        parties: Some(PartiesBuilder {
            no_party_ids: &parties,
        }),
        last_qty: Some(d("40")),
        last_px: Some(d("101.5")),
        no_contra_brokers: &contra,
        encoded_text: Some(b"bin\x01ary"),
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: s("O-9"),
            instrument: InstrumentBuilder {
                no_security_alt_id: &alt,
                ..InstrumentBuilder::new(InstrumentRequired { symbol: s("AAPL") })
            },
            exec_id: s("E-1"),
            exec_type: ExecType::Trade,
            ord_status: OrdStatus::PartiallyFilled,
            side: Side::Sell,
            leaves_qty: d("60"),
            cum_qty: d("40"),
            avg_px: d("101.5"),
        })
    };
    let header = HeaderBuilder {
        poss_dup_flag: Some(true),
        no_hops: &hops,
        ..header()
    };
    let mut buf = [0u8; 1024];
    let bytes = er.encode(&header, &mut buf).unwrap();

    let mut fields = Fields::<96>::new();
    let msg = parser()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let er = ExecutionReport::new(msg);
    assert_eq!(er.order_id().unwrap(), s("O-9"));
    assert_eq!(er.exec_type(), Ok(ExecType::Trade));
    assert_eq!(er.ord_status(), Ok(OrdStatus::PartiallyFilled));
    assert_eq!(er.last_px(), Ok(Some(d("101.5"))));
    assert_eq!(er.cum_qty(), Ok(d("40")));
    assert_eq!(er.encoded_text(), Some(&b"bin\x01ary"[..]));
    assert_eq!(er.header().poss_dup_flag(), Ok(Some(true)));
    let hop: Vec<_> = er
        .header()
        .no_hops()
        .map(|h| (h.hop_comp_id().unwrap().unwrap(), h.hop_ref_id().unwrap()))
        .collect();
    assert_eq!(hop, [(s("HUB"), Some(SeqNum(3)))]);

    let party = er.parties().no_party_ids().next().unwrap();
    assert_eq!(party.party_id().unwrap(), Some(s("BROKER")));
    let subs: Vec<_> = party
        .ptys_sub_grp()
        .no_party_sub_ids()
        .map(|x| {
            (
                x.party_sub_id().unwrap().unwrap(),
                x.party_sub_id_type().unwrap(),
            )
        })
        .collect();
    assert_eq!(subs, [(s("DESK-7"), Some(12))]);

    let alts: Vec<_> = er
        .instrument()
        .no_security_alt_id()
        .map(|a| a.security_alt_id().unwrap().unwrap())
        .collect();
    assert_eq!(alts, [s("US0378331005"), s("AAPL.OQ")]);
    let brokers: Vec<_> = er
        .no_contra_brokers()
        .map(|c| (c.contra_broker().unwrap(), c.contra_trader().unwrap()))
        .collect();
    assert_eq!(
        brokers,
        [(Some(s("CB1")), Some(s("T1"))), (Some(s("CB2")), None)]
    );
}

#[test]
fn market_data_nested_groups_and_components_in_entries() {
    type Entry<'b> = MarketDataIncrementalRefreshNoMdEntriesBuilder<'b>;
    let parties = [PartiesNoPartyIdsBuilder::new(PartiesNoPartyIdsRequired {
        party_id: s("MM1"),
    })];
    let entries = [
        Entry {
            md_entry_type: Some(MdEntryType::Bid),
            instrument: Some(InstrumentBuilder::new(InstrumentRequired {
                symbol: s("EURUSD"),
            })),
            md_entry_px: Some(d("1.0831")),
            md_entry_size: Some(d("1000000")),
            parties: Some(PartiesBuilder {
                no_party_ids: &parties,
            }),
            ..Entry::new(MarketDataIncrementalRefreshNoMdEntriesRequired {
                md_update_action: MdUpdateAction::New,
            })
        },
        Entry {
            md_entry_id: Some(s("X1")),
            ..Entry::new(MarketDataIncrementalRefreshNoMdEntriesRequired {
                md_update_action: MdUpdateAction::Delete,
            })
        },
        Entry {
            md_entry_type: Some(MdEntryType::Other(b'Q')),
            md_entry_px: Some(d("1.0833")),
            ..Entry::new(MarketDataIncrementalRefreshNoMdEntriesRequired {
                md_update_action: MdUpdateAction::Change,
            })
        },
    ];
    let md = MarketDataIncrementalRefreshBuilder {
        md_req_id: Some(s("R1")),
        no_md_entries: &entries,
    };
    let mut buf = [0u8; 1024];
    let bytes = md.encode(&header(), &mut buf).unwrap();
    let mut fields = Fields::<96>::new();
    let msg = parser()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let Message::MarketDataIncrementalRefresh(md) = Message::new(msg) else {
        panic!("dispatch")
    };
    let got: Vec<_> = md
        .no_md_entries()
        .map(|e| {
            (
                e.md_update_action().unwrap(),
                e.md_entry_type().unwrap(),
                e.instrument().symbol().ok(),
                e.md_entry_px().unwrap(),
                e.parties().no_party_ids().count(),
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            (
                MdUpdateAction::New,
                Some(MdEntryType::Bid),
                Some(s("EURUSD")),
                Some(d("1.0831")),
                1
            ),
            (MdUpdateAction::Delete, None, None, None, 0),
            (
                MdUpdateAction::Change,
                Some(MdEntryType::Other(b'Q')),
                None,
                Some(d("1.0833")),
                0
            ),
        ]
    );
    assert_eq!(md.md_req_id().unwrap(), Some(s("R1")));
}

#[test]
fn typed_errors_for_missing_and_invalid_values() {
    // Hand-written: OrdType missing, Price malformed, Side unlisted.
    let body = "35=D\x0149=A\x0156=B\x0134=1\x0152=20261130-12:00:00\x0111=X\x0155=S\x0154=9\x0160=20261130-12:00:00\x0144=1.2.3\x01";
    let head = format!("8=FIX.4.4\x019={}\x01", body.len());
    let sum = (head.bytes().chain(body.bytes()).map(u32::from).sum::<u32>() % 256) as u8;
    let bytes = format!("{head}{body}10={sum:03}\x01");
    let mut fields = Fields::<32>::new();
    let msg = parser()
        .parse(bytes.as_bytes(), &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let nos = NewOrderSingle::new(msg);
    assert_eq!(nos.ord_type(), Err(FieldError::Missing { tag: 40 }));
    assert!(matches!(
        nos.price(),
        Err(FieldError::Invalid { tag: 44, .. })
    ));
    assert_eq!(nos.side(), Ok(Side::Other(b'9')));
    assert_eq!(nos.side().unwrap().as_bytes(), b"9");
    assert_eq!(nos.parties().no_party_ids().count(), 0);
    assert!(matches!(
        PartyRole::from_bytes(b"x1"),
        Err(fix_core::typed::EnumError::NotInteger)
    ));
}

#[test]
fn tables_for_validation() {
    let dict = &fix_sample::DICTIONARY;
    assert_eq!(dict.begin_string, b"FIX.4.4");
    let nos = dict.message(b"D").unwrap();
    assert_eq!(nos.name, "NewOrderSingle");
    assert!(nos.body.is_required(11) && nos.body.is_required(55));
    assert!(!nos.body.is_required(448));
    assert!(nos.body.contains(453) && !nos.body.contains(448));
    let parties = nos.body.group(453).unwrap();
    assert_eq!((parties.counter, parties.delimiter), (453, 448));
    assert!(parties.entry.contains(802));
    let sub = parties.entry.group(802).unwrap();
    assert_eq!(sub.entry.tags, [523, 803]);
    assert_eq!(dict.data_fields.data_tag(354), Some(355));
    assert!(dict.field(54).unwrap().accepts(b"5"));
    assert!(!dict.field(54).unwrap().accepts(b"4"));
    assert!(dict.header.contains(49) && dict.trailer.contains(10));
    let mut types: Vec<&[u8]> = dict.messages.iter().map(|m| m.msg_type).collect();
    let sorted = {
        let mut t = types.clone();
        t.sort();
        t
    };
    assert_eq!(types, sorted);
    types.dedup();
    assert_eq!(types.len(), 5);
}

#[test]
fn buffer_too_small_is_an_error() {
    let order = NewOrderSingle::builder(NewOrderSingleRequired {
        cl_ord_id: s("ORD-1"),
        instrument: InstrumentBuilder::new(InstrumentRequired { symbol: s("AAPL") }),
        side: Side::Buy,
        transact_time: now(),
        ord_type: OrdType::Market,
    });
    let mut buf = [0u8; 40];
    assert!(matches!(
        order.encode(&header(), &mut buf),
        Err(fix_core::EncodeError::BufferTooSmall { .. })
    ));
}

/// A component that is optional where it is used but set must hold its own
/// required fields (the sample's Instrument requires Symbol), in an entry as in a
/// message; and a required component of a message must be set.
#[test]
fn a_set_component_without_its_required_field_is_refused() {
    use fix_core::EncodeError;
    let mut buf = [0u8; 512];
    let entries = [MarketDataIncrementalRefreshNoMdEntriesBuilder {
        instrument: Some(InstrumentBuilder {
            security_type: Some(SecurityType::CommonStock),
            ..Default::default()
        }),
        ..MarketDataIncrementalRefreshNoMdEntriesBuilder::new(
            MarketDataIncrementalRefreshNoMdEntriesRequired {
                md_update_action: MdUpdateAction::New,
            },
        )
    }];
    let md = MarketDataIncrementalRefreshBuilder {
        md_req_id: None,
        no_md_entries: &entries,
    };
    assert_eq!(
        md.encode(&header(), &mut buf),
        Err(EncodeError::MissingRequired { tag: 55 })
    );
    let order = NewOrderSingle::builder(NewOrderSingleRequired {
        cl_ord_id: s("ORD-1"),
        instrument: InstrumentBuilder::new(InstrumentRequired { symbol: s("AAPL") }),
        side: Side::Buy,
        transact_time: now(),
        ord_type: OrdType::Market,
    });
    let unset = NewOrderSingleBuilder {
        instrument: None,
        ..order
    };
    assert_eq!(
        unset.encode(&header(), &mut buf),
        Err(EncodeError::MissingRequired { tag: 55 })
    );
    let bytes = order.encode(&header(), &mut buf).unwrap();
    let mut fields = Fields::<64>::new();
    let msg = parser()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(
        fix_core::validate::Validator::new().validate(&fix_sample::DICTIONARY, &msg),
        Ok(())
    );
}
