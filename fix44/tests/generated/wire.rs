//! The generated FIX 4.4 crate on the wire: what its builders write, byte for byte,
//! against messages written out by hand (BodyLength and CheckSum computed by the
//! naive builder, not by the encoder); what its views read from the shared corpus,
//! against values written out by hand; and what its tables reject.

use fix_core::validate::{Invalid, SessionRejectReason as R, Validator};
use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Fields, Parser};
use fix_test_support::files::corpus_message;
use fix_test_support::naive::{build, build_with, soh};
use fix44::Message;
use fix44::components::{
    HeaderBuilder, HeaderRequired, InstrumentBuilder, MdIncGrpBuilder, MdIncGrpNoMdEntriesBuilder,
    MdIncGrpNoMdEntriesRequired, MdIncGrpRequired, OrderQtyDataBuilder,
};
use fix44::enums::{ExecType, MdEntryType, MdUpdateAction, OrdStatus, OrdType, Side, TimeInForce};
use fix44::messages::{
    MarketDataIncrementalRefresh, MarketDataIncrementalRefreshBuilder,
    MarketDataIncrementalRefreshRequired, NewOrderSingle, NewOrderSingleBuilder,
    NewOrderSingleRequired,
};

fn s(v: &'static str) -> FixStr<'static> {
    FixStr::parse(v.as_bytes()).unwrap()
}

fn time(v: &str) -> UtcTimestamp {
    UtcTimestamp::parse(v.as_bytes()).unwrap()
}

/// The NewOrderSingle of the `new_order_single` example.
#[test]
fn new_order_single_is_written_as_expected() {
    let now = time("20261130-14:03:27.456");
    let order = NewOrderSingleBuilder {
        account: Some(s("ACC-7781")),
        instrument: Some(InstrumentBuilder {
            symbol: Some(s("MSFT")),
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(Decimal::parse(b"2500").unwrap()),
            ..Default::default()
        }),
        price: Some(Decimal::parse(b"412.33").unwrap()),
        time_in_force: Some(TimeInForce::Day),
        ..NewOrderSingle::builder(NewOrderSingleRequired {
            cl_ord_id: s("CL-1"),
            side: Side::Sell,
            transact_time: now,
            ord_type: OrdType::Limit,
        })
    };
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("CLIENT"),
        target_comp_id: s("BROKER"),
        msg_seq_num: SeqNum(3391),
        sending_time: now,
    });
    let mut buf = [0u8; 512];
    let bytes = order.encode(&header, &mut buf).unwrap();
    // Header fields in ascending tag order, then the body in dictionary order.
    let expected = build(&soh(
        "35=D|34=3391|49=CLIENT|52=20261130-14:03:27.456|56=BROKER|\
         11=CL-1|1=ACC-7781|55=MSFT|54=2|60=20261130-14:03:27.456|38=2500|40=2|44=412.33|59=0|",
    ));
    assert_eq!(
        bytes.escape_ascii().to_string(),
        expected.escape_ascii().to_string()
    );
    // The figures printed by the example, worked out by hand once.
    assert!(bytes.starts_with(b"8=FIX.4.4\x019=143\x01"));
    assert!(bytes.ends_with(b"\x0110=127\x01"));
}

/// A MarketDataIncrementalRefresh of two entries, as the `market_data` example
/// builds them, and read back through the typed group iterator.
#[test]
fn market_data_entries_are_written_and_read_back() {
    let entries = [
        MdIncGrpNoMdEntriesBuilder {
            md_entry_type: Some(MdEntryType::Bid),
            md_entry_px: Some(Decimal::new(108_005, 5).unwrap()),
            md_entry_size: Some(Decimal::new(1_000_000, 0).unwrap()),
            ..MdIncGrpNoMdEntriesBuilder::new(MdIncGrpNoMdEntriesRequired {
                md_update_action: MdUpdateAction::New,
            })
        },
        MdIncGrpNoMdEntriesBuilder {
            md_entry_type: Some(MdEntryType::Offer),
            md_entry_px: Some(Decimal::new(108_015, 5).unwrap()),
            md_entry_size: Some(Decimal::new(1_250_000, 0).unwrap()),
            ..MdIncGrpNoMdEntriesBuilder::new(MdIncGrpNoMdEntriesRequired {
                md_update_action: MdUpdateAction::Delete,
            })
        },
    ];
    let refresh = MarketDataIncrementalRefreshBuilder {
        md_req_id: Some(s("MDREQ-17")),
        ..MarketDataIncrementalRefresh::builder(MarketDataIncrementalRefreshRequired {
            md_inc_grp: MdIncGrpBuilder::new(MdIncGrpRequired {
                no_md_entries: &entries,
            }),
        })
    };
    let now = time("20261130-14:03:27.123456");
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("VENUE"),
        target_comp_id: s("CLIENT"),
        msg_seq_num: SeqNum(88123),
        sending_time: now,
    });
    let mut buf = [0u8; 1024];
    let bytes = refresh.encode(&header, &mut buf).unwrap();
    let expected = build(&soh(
        "35=X|34=88123|49=VENUE|52=20261130-14:03:27.123456|56=CLIENT|262=MDREQ-17|268=2|\
         279=0|269=0|270=1.08005|271=1000000|279=2|269=1|270=1.08015|271=1250000|",
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
    assert_eq!(Validator::new().validate(&fix44::DICTIONARY, &msg), Ok(()));
    let Message::MarketDataIncrementalRefresh(md) = Message::new(msg) else {
        panic!("not a MarketDataIncrementalRefresh");
    };
    let read: Vec<_> = md
        .md_inc_grp()
        .no_md_entries()
        .map(|e| {
            (
                e.md_update_action().unwrap(),
                e.md_entry_type().unwrap(),
                e.md_entry_px().unwrap().map(|p| p.to_string()),
            )
        })
        .collect();
    assert_eq!(
        read,
        [
            (
                MdUpdateAction::New,
                Some(MdEntryType::Bid),
                Some("1.08005".to_string())
            ),
            (
                MdUpdateAction::Delete,
                Some(MdEntryType::Offer),
                Some("1.08015".to_string())
            ),
        ]
    );
}

/// The corpus ExecutionReport, read through the typed view: every value written
/// out by hand from the message's text.
#[test]
fn the_corpus_execution_report_reads_as_written() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let bytes = corpus_message("execution_report");
    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let Message::ExecutionReport(er) = Message::new(msg) else {
        panic!("not an ExecutionReport");
    };
    let text = |v: FixStr<'_>| v.as_str().unwrap_or_default().to_string();
    let dec = |v: Decimal| v.to_string();
    assert_eq!(text(er.order_id().unwrap()), "OID-7781234");
    assert_eq!(
        er.cl_ord_id().unwrap().map(text).as_deref(),
        Some("CL-2026-000451")
    );
    assert_eq!(text(er.exec_id().unwrap()), "EXEC-99812377");
    assert_eq!(er.exec_type().unwrap(), ExecType::Trade);
    assert_eq!(er.ord_status().unwrap(), OrdStatus::PartiallyFilled);
    assert_eq!(er.side().unwrap(), Side::Buy);
    assert_eq!(
        er.instrument().symbol().unwrap().map(text).as_deref(),
        Some("AAPL")
    );
    assert_eq!(
        er.instrument().security_id().unwrap().map(text).as_deref(),
        Some("US0378331005")
    );
    assert_eq!(er.last_qty().unwrap().map(dec).as_deref(), Some("1200"));
    assert_eq!(er.last_px().unwrap().map(dec).as_deref(), Some("187.2450"));
    assert_eq!(dec(er.leaves_qty().unwrap()), "3800");
    assert_eq!(dec(er.cum_qty().unwrap()), "1200");
    assert_eq!(dec(er.avg_px().unwrap()), "187.2450");
    assert_eq!(er.price().unwrap().map(dec).as_deref(), Some("187.2500"));
    assert_eq!(
        er.text().unwrap().map(text).as_deref(),
        Some("Partial fill")
    );
    assert_eq!(er.header().msg_seq_num().unwrap(), SeqNum(1207));
}

/// The corpus refresh's streaming walk, straight from the message and from the
/// view, hands over every field of the group in wire order, and each value reads
/// as the entry views' getters read it.
#[test]
fn the_corpus_refresh_walks_as_its_views_read() {
    use fix44::components::{MdIncGrpNoMdEntries, MdIncGrpNoMdEntriesField as F};
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let bytes = corpus_message("md_incremental_refresh");
    let mut fields = Fields::<128>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let md = MarketDataIncrementalRefresh::new(msg);
    let direct: Vec<_> = MarketDataIncrementalRefresh::walk::<MdIncGrpNoMdEntries>(msg).collect();
    let through_view: Vec<_> = md.md_inc_grp().no_md_entries().walk().collect();
    let tags = |walk: &[F<'_>]| walk.iter().map(F::tag).collect::<Vec<_>>();
    assert_eq!(tags(&direct), tags(&through_view));
    // Every field after NoMDEntries (268) up to the trailer, in order.
    let counter = msg.fields().iter().position(|f| f.tag() == 268).unwrap();
    let group: Vec<u32> = msg.fields()[counter + 1..msg.fields().len() - 1]
        .iter()
        .map(|f| f.tag())
        .collect();
    assert_eq!(tags(&direct), group);

    let mut entries = md.md_inc_grp().no_md_entries();
    let mut view = None;
    let mut checked = 0;
    for field in direct {
        if field.starts_entry() {
            view = entries.next();
        }
        let e = view.as_ref().expect("an entry view per entry");
        match field {
            F::MdUpdateAction(v) => assert_eq!(v.get(), e.md_update_action()),
            F::MdEntryType(v) => assert_eq!(v.get().map(Some), e.md_entry_type()),
            F::Symbol(v) => assert_eq!(v.get().map(Some), e.instrument().symbol()),
            F::MdEntryPx(v) => assert_eq!(v.get().map(Some), e.md_entry_px()),
            F::MdEntrySize(v) => assert_eq!(v.get().map(Some), e.md_entry_size()),
            F::MdEntryPositionNo(v) => assert_eq!(v.get().map(Some), e.md_entry_position_no()),
            other => panic!("{other:?} is not in the corpus refresh"),
        }
        checked += 1;
    }
    assert!(entries.next().is_none());
    assert_eq!(checked, 60);
}

/// A nested group inside an entry (Instrument's NoSecurityAltID) comes as one
/// variant holding its own walk; the entry goes on after it; a bad value is the
/// getter's error.
#[test]
fn a_nested_group_is_walked_in_place() {
    use fix44::components::{
        MdIncGrpNoMdEntries, MdIncGrpNoMdEntriesField as F, SecAltIdGrpNoSecurityAltIdField as A,
    };
    let bytes = build(&soh(
        "35=X|268=2|279=0|55=EUR/USD|454=2|455=A1|456=4|455=A2|270=1.5|279=1|270=x|",
    ));
    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let mut seen = Vec::new();
    for field in MarketDataIncrementalRefresh::walk::<MdIncGrpNoMdEntries>(msg) {
        match field {
            F::NoSecurityAltId(alt) => {
                for a in alt {
                    match a {
                        A::SecurityAltId(v) => seen.push(format!(
                            "alt {}",
                            v.get().unwrap().as_bytes().escape_ascii()
                        )),
                        A::SecurityAltIdSource(v) => {
                            seen.push(format!("src {}", v.raw().escape_ascii()))
                        }
                    }
                }
            }
            F::MdEntryPx(v) => seen.push(format!("px {:?}", v.get())),
            other => seen.push(format!("{}", other.tag())),
        }
    }
    let md = MarketDataIncrementalRefresh::new(msg);
    let second = md.md_inc_grp().no_md_entries().nth(1).unwrap();
    let offset = second.md_entry_px().unwrap_err();
    assert_eq!(
        seen,
        [
            "279".to_string(),
            "55".into(),
            "alt A1".into(),
            "src 4".into(),
            "alt A2".into(),
            format!("px {:?}", Ok::<_, ()>(Decimal::parse(b"1.5").unwrap())),
            "279".into(),
            format!("px {:?}", Err::<Decimal, _>(offset)),
        ]
    );
}

/// Every corpus message passes against the generated tables; broken copies of the
/// ExecutionReport get the reject QuickFIX gives them.
#[test]
fn the_tables_pass_the_corpus_and_reject_broken_messages() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let v = Validator::new();
    let mut fields = Fields::<256>::new();
    let parser = Parser::new().with_data_fields(fix44::DATA_FIELDS);
    for (stem, bytes) in fix_test_support::files::corpus() {
        let msg = parser
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        assert_eq!(v.validate(&fix44::DICTIONARY, &msg), Ok(()), "{stem}");
    }
    let er = "35=8|34=1207|49=BROKER|52=20261130-14:03:27.123456|56=CLIENT|37=OID-7781234|\
              17=EXEC-99812377|150=F|39=1|55=AAPL|54=1|151=3800|14=1200|6=187.2450|";
    let cases = [
        (er.to_string(), None),
        (
            er.replace("54=1|", "54=Z|"),
            Some((R::ValueIncorrect, Some(54))),
        ),
        (
            er.replace("151=3800|", ""),
            Some((R::RequiredTagMissing, Some(151))),
        ),
        (
            er.replace("6=187.2450|", "6=abc|"),
            Some((R::IncorrectDataFormat, Some(6))),
        ),
        // Beyond 96 bits of mantissa: refused, never rounded; 28 digits are fine.
        (
            er.replace("6=187.2450|", "6=79228162514264337593543950336|"),
            Some((R::IncorrectDataFormat, Some(6))),
        ),
        (
            er.replace("6=187.2450|", "6=187.245012345678901234567890|"),
            None,
        ),
        (
            format!("{er}112=T|"),
            Some((R::TagNotDefinedForMessageType, Some(112))),
        ),
        (
            format!("{er}4999=1|"),
            Some((R::InvalidTagNumber, Some(4999))),
        ),
        (
            er.replace("35=8|", "35=ZZ|"),
            Some((R::InvalidMsgType, None)),
        ),
        // Parties' entry is 448, 447, 452, ...: 447 after 452 is out of order.
        (
            format!("{er}453=1|448=P|452=1|447=D|"),
            Some((R::RepeatingGroupFieldsOutOfOrder, Some(447))),
        ),
    ];
    for (body, expected) in cases {
        let bytes = build(&soh(&body));
        let msg = parser
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let got = v
            .validate(&fix44::DICTIONARY, &msg)
            .err()
            .map(|e| *e.reject().expect("a Reject"))
            .map(|r| (r.reason, r.ref_tag));
        assert_eq!(got, expected, "{body}");
    }
    // A FIX 4.2 message is not FIX 4.4's to reject.
    let bytes = build_with("FIX.4.2", &soh(er));
    let msg = parser
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(
        v.validate(&fix44::DICTIONARY, &msg),
        Err(Invalid::IncorrectBeginString {
            begin_string: fix_core::validate::Echo::new(b"FIX.4.2"),
            msg_type: fix_core::validate::Echo::new(b"8")
        })
    );
}

/// A price beyond 96 bits of mantissa is a typed error naming the tag (never a rounded
/// value), and its bytes stay readable; a crypto venue's 22-digit quantity with 18
/// decimals reads exactly and writes back as it came.
#[test]
fn decimals_beyond_the_range_are_typed_errors_with_readable_bytes() {
    let bytes = build(&soh(
        "35=D|34=2|49=CLIENT|52=20261130-14:03:27.456|56=BROKER|\
         11=CL-1|55=BTC-USD|54=1|60=20261130-14:03:27.456|38=1234.567890123456789012|40=2|\
         44=79228162514264337593543950336|",
    ));
    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let Message::NewOrderSingle(nos) = Message::new(msg) else {
        panic!("not a NewOrderSingle");
    };
    let err = nos.price().unwrap_err();
    assert!(
        matches!(err, fix_core::typed::FieldError::Invalid { tag: 44, .. }),
        "{err:?}"
    );
    assert_eq!(err.tag(), 44);
    assert_eq!(
        Decimal::parse(b"79228162514264337593543950336"),
        Err(fix_core::value::DecimalError::Overflow)
    );
    assert_eq!(
        nos.message().get(44),
        Some(&b"79228162514264337593543950336"[..])
    );
    let qty = nos.order_qty_data().order_qty().unwrap().unwrap();
    assert_eq!(
        (qty.mantissa(), qty.scale()),
        (1_234_567_890_123_456_789_012, 18)
    );
    assert_eq!(qty.to_string(), "1234.567890123456789012");
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
