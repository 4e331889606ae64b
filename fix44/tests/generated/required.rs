//! Builders refuse a message whose required field is unset, on the wire: each way
//! that used to encode a broken message (a `Default` builder, a required field set
//! back to `None`, a required component or group entry that is set but lacks its
//! required field, an entry without the field that starts it), with the typed
//! error naming the tag; and for every message of the dictionary, its `Default`
//! builder is refused with the message's first required tag, or, when it has none,
//! encodes a message the validator accepts. A builder given its required fields
//! writes a message that parses and validates with no reject.

use fix_core::validate::Validator;
use fix_core::value::{Decimal, FixStr, LocalMktDate, SeqNum, UtcTimestamp};
use fix_core::{EncodeError, Fields, Parser};
use fix44::components::{
    HeaderBuilder, HeaderRequired, InstrmtMdReqGrpBuilder, InstrmtMdReqGrpNoRelatedSymBuilder,
    InstrmtMdReqGrpNoRelatedSymRequired, InstrmtMdReqGrpRequired, InstrumentBuilder,
    MdIncGrpBuilder, MdIncGrpNoMdEntriesBuilder, MdIncGrpNoMdEntriesRequired, MdIncGrpRequired,
    MdReqGrpBuilder, MdReqGrpNoMdEntryTypesBuilder, MdReqGrpNoMdEntryTypesRequired,
    MdReqGrpRequired, TrdCapRptSideGrpBuilder, TrdCapRptSideGrpNoSidesBuilder,
    TrdCapRptSideGrpNoSidesRequired, TrdCapRptSideGrpRequired,
};
use fix44::enums::{MdEntryType, MdUpdateAction, OrdType, Side, SubscriptionRequestType};
use fix44::messages::*;

fn s(v: &'static str) -> FixStr<'static> {
    FixStr::parse(v.as_bytes()).unwrap()
}

fn now() -> UtcTimestamp {
    UtcTimestamp::parse(b"20261130-14:03:27.456").unwrap()
}

fn header() -> HeaderBuilder<'static> {
    HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("CLIENT"),
        target_comp_id: s("BROKER"),
        msg_seq_num: SeqNum(7),
        sending_time: now(),
    })
}

fn order() -> NewOrderSingleBuilder<'static> {
    NewOrderSingle::builder(NewOrderSingleRequired {
        cl_ord_id: s("CL-1"),
        side: Side::Buy,
        transact_time: now(),
        ord_type: OrdType::Market,
    })
}

/// Parses `bytes` and validates them against FIX 4.4's tables.
fn assert_valid(bytes: &[u8]) {
    let mut fields = Fields::<128>::new();
    let msg = Parser::new()
        .with_data_fields(fix44::DATA_FIELDS)
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(
        Validator::new().validate(&fix44::DICTIONARY, &msg),
        Ok(()),
        "{}",
        bytes.escape_ascii()
    );
}

fn missing(tag: u32) -> Result<&'static [u8], EncodeError> {
    Err(EncodeError::MissingRequired { tag })
}

#[test]
fn a_default_new_order_single_is_refused_at_cl_ord_id() {
    let mut buf = [0u8; 512];
    assert_eq!(
        NewOrderSingleBuilder::default().encode(&header(), &mut buf),
        missing(11)
    );
}

#[test]
fn a_required_field_set_back_to_none_is_refused() {
    let mut buf = [0u8; 512];
    let cases = [
        (
            NewOrderSingleBuilder {
                side: None,
                ..order()
            },
            54,
        ),
        (
            NewOrderSingleBuilder {
                transact_time: None,
                ..order()
            },
            60,
        ),
        (
            NewOrderSingleBuilder {
                ord_type: None,
                ..order()
            },
            40,
        ),
    ];
    for (b, tag) in cases {
        assert_eq!(b.encode(&header(), &mut buf), missing(tag));
    }
}

#[test]
fn the_header_refuses_its_required_fields_in_write_order() {
    let mut buf = [0u8; 512];
    // The header writes by ascending tag, so MsgSeqNum (34) comes first.
    assert_eq!(
        order().encode(&HeaderBuilder::default(), &mut buf),
        missing(34)
    );
    let cases = [
        (
            HeaderBuilder {
                sender_comp_id: None,
                ..header()
            },
            49,
        ),
        (
            HeaderBuilder {
                sending_time: None,
                ..header()
            },
            52,
        ),
        (
            HeaderBuilder {
                target_comp_id: None,
                ..header()
            },
            56,
        ),
    ];
    for (h, tag) in cases {
        assert_eq!(order().encode(&h, &mut buf), missing(tag));
    }
}

#[test]
fn a_builder_given_its_required_fields_round_trips_through_the_validator() {
    let mut buf = [0u8; 512];
    let bytes = order().encode(&header(), &mut buf).unwrap();
    assert_valid(bytes);
    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let nos = NewOrderSingle::new(msg);
    assert_eq!(nos.cl_ord_id(), Ok(s("CL-1")));
    assert_eq!(nos.side(), Ok(Side::Buy));
    assert_eq!(nos.ord_type(), Ok(OrdType::Market));
}

#[test]
fn a_required_component_is_refused_at_its_first_required_tag() {
    let entries = [MdIncGrpNoMdEntriesBuilder::new(
        MdIncGrpNoMdEntriesRequired {
            md_update_action: MdUpdateAction::New,
        },
    )];
    let refresh = MarketDataIncrementalRefresh::builder(MarketDataIncrementalRefreshRequired {
        md_inc_grp: MdIncGrpBuilder::new(MdIncGrpRequired {
            no_md_entries: &entries,
        }),
    });
    let mut buf = [0u8; 512];
    assert_valid(refresh.encode(&header(), &mut buf).unwrap());
    // Set, but its required group has no entries; or not set at all.
    let empty = MarketDataIncrementalRefreshBuilder {
        md_inc_grp: Some(MdIncGrpBuilder::default()),
        ..refresh
    };
    assert_eq!(empty.encode(&header(), &mut buf), missing(268));
    let unset = MarketDataIncrementalRefreshBuilder {
        md_inc_grp: None,
        ..refresh
    };
    assert_eq!(unset.encode(&header(), &mut buf), missing(268));
}

#[test]
fn a_group_entry_is_refused_without_its_delimiter_or_a_required_field() {
    let mut buf = [0u8; 1024];
    // The delimiter, MDUpdateAction (279), is what starts an entry on the wire.
    let entries = [MdIncGrpNoMdEntriesBuilder {
        md_update_action: None,
        md_entry_type: Some(MdEntryType::Bid),
        ..Default::default()
    }];
    let refresh = MarketDataIncrementalRefresh::builder(MarketDataIncrementalRefreshRequired {
        md_inc_grp: MdIncGrpBuilder::new(MdIncGrpRequired {
            no_md_entries: &entries,
        }),
    });
    assert_eq!(refresh.encode(&header(), &mut buf), missing(279));

    // OrderID (37) is required in a TradeCaptureReport side, after its Side.
    let side = |order_id| TrdCapRptSideGrpNoSidesBuilder {
        order_id,
        ..TrdCapRptSideGrpNoSidesBuilder::new(TrdCapRptSideGrpNoSidesRequired {
            side: Side::Buy,
            order_id: s("O-1"),
        })
    };
    let report = |sides| {
        TradeCaptureReport::builder(TradeCaptureReportRequired {
            trade_report_id: s("TR-1"),
            previously_reported: false,
            last_qty: Decimal::parse(b"100").unwrap(),
            last_px: Decimal::parse(b"12.5").unwrap(),
            trade_date: LocalMktDate::parse(b"20261130").unwrap(),
            transact_time: now(),
            trd_cap_rpt_side_grp: TrdCapRptSideGrpBuilder::new(TrdCapRptSideGrpRequired {
                no_sides: sides,
            }),
        })
    };
    let good = [side(Some(s("O-1")))];
    let mut out = [0u8; 1024];
    let bytes = report(&good).encode(&header(), &mut out).unwrap();
    assert_valid(bytes);
    let bad = [side(Some(s("O-1"))), side(None)];
    assert_eq!(report(&bad).encode(&header(), &mut buf), missing(37));
}

#[test]
fn an_entry_that_starts_with_a_component_needs_that_components_first_field() {
    let types = [MdReqGrpNoMdEntryTypesBuilder::new(
        MdReqGrpNoMdEntryTypesRequired {
            md_entry_type: MdEntryType::Bid,
        },
    )];
    let request = |instrument| {
        let symbols = [InstrmtMdReqGrpNoRelatedSymBuilder::new(
            InstrmtMdReqGrpNoRelatedSymRequired { instrument },
        )];
        let mut buf = [0u8; 512];
        MarketDataRequest::builder(MarketDataRequestRequired {
            md_req_id: s("MD-1"),
            subscription_request_type: SubscriptionRequestType::Snapshot,
            market_depth: 1,
            md_req_grp: MdReqGrpBuilder::new(MdReqGrpRequired {
                no_md_entry_types: &types,
            }),
            instrmt_md_req_grp: InstrmtMdReqGrpBuilder::new(InstrmtMdReqGrpRequired {
                no_related_sym: &symbols,
            }),
        })
        .encode(&header(), &mut buf)
        .map(<[u8]>::to_vec)
    };
    let with_symbol = InstrumentBuilder {
        symbol: Some(s("MSFT")),
        ..Default::default()
    };
    assert_valid(&request(with_symbol).unwrap());
    // Symbol (55) starts a NoRelatedSym entry: without it the entry has no start.
    let without = InstrumentBuilder {
        security_id: Some(s("US5949181045")),
        ..Default::default()
    };
    assert_eq!(
        request(without),
        Err(EncodeError::MissingRequired { tag: 55 })
    );
}

/// `(MessageDef, what its Default builder's encode returned)` for each message named.
macro_rules! default_encodes {
    ($($view:ident $builder:ident),* $(,)?) => {{
        let mut out: Vec<(&'static fix_core::typed::MessageDef, Result<Vec<u8>, EncodeError>)> = Vec::new();
        let mut buf = [0u8; 1024];
        $(
            out.push((
                $view::DEF,
                $builder::default().encode(&header(), &mut buf).map(<[u8]>::to_vec),
            ));
        )*
        out
    }};
}

#[test]
fn every_default_builder_is_refused_at_its_messages_first_required_tag() {
    let results = default_encodes!(
        Heartbeat HeartbeatBuilder,
        TestRequest TestRequestBuilder,
        ResendRequest ResendRequestBuilder,
        Reject RejectBuilder,
        SequenceReset SequenceResetBuilder,
        Logout LogoutBuilder,
        Ioi IoiBuilder,
        Advertisement AdvertisementBuilder,
        ExecutionReport ExecutionReportBuilder,
        OrderCancelReject OrderCancelRejectBuilder,
        Logon LogonBuilder,
        News NewsBuilder,
        Email EmailBuilder,
        NewOrderSingle NewOrderSingleBuilder,
        NewOrderList NewOrderListBuilder,
        OrderCancelRequest OrderCancelRequestBuilder,
        OrderCancelReplaceRequest OrderCancelReplaceRequestBuilder,
        OrderStatusRequest OrderStatusRequestBuilder,
        AllocationInstruction AllocationInstructionBuilder,
        ListCancelRequest ListCancelRequestBuilder,
        ListExecute ListExecuteBuilder,
        ListStatusRequest ListStatusRequestBuilder,
        ListStatus ListStatusBuilder,
        AllocationInstructionAck AllocationInstructionAckBuilder,
        DontKnowTrade DontKnowTradeBuilder,
        QuoteRequest QuoteRequestBuilder,
        Quote QuoteBuilder,
        SettlementInstructions SettlementInstructionsBuilder,
        MarketDataRequest MarketDataRequestBuilder,
        MarketDataSnapshotFullRefresh MarketDataSnapshotFullRefreshBuilder,
        MarketDataIncrementalRefresh MarketDataIncrementalRefreshBuilder,
        MarketDataRequestReject MarketDataRequestRejectBuilder,
        QuoteCancel QuoteCancelBuilder,
        QuoteStatusRequest QuoteStatusRequestBuilder,
        MassQuoteAcknowledgement MassQuoteAcknowledgementBuilder,
        SecurityDefinitionRequest SecurityDefinitionRequestBuilder,
        SecurityDefinition SecurityDefinitionBuilder,
        SecurityStatusRequest SecurityStatusRequestBuilder,
        SecurityStatus SecurityStatusBuilder,
        TradingSessionStatusRequest TradingSessionStatusRequestBuilder,
        TradingSessionStatus TradingSessionStatusBuilder,
        MassQuote MassQuoteBuilder,
        BusinessMessageReject BusinessMessageRejectBuilder,
        BidRequest BidRequestBuilder,
        BidResponse BidResponseBuilder,
        ListStrikePrice ListStrikePriceBuilder,
        XmLnonFix XmLnonFixBuilder,
        RegistrationInstructions RegistrationInstructionsBuilder,
        RegistrationInstructionsResponse RegistrationInstructionsResponseBuilder,
        OrderMassCancelRequest OrderMassCancelRequestBuilder,
        OrderMassCancelReport OrderMassCancelReportBuilder,
        NewOrderCross NewOrderCrossBuilder,
        CrossOrderCancelReplaceRequest CrossOrderCancelReplaceRequestBuilder,
        CrossOrderCancelRequest CrossOrderCancelRequestBuilder,
        SecurityTypeRequest SecurityTypeRequestBuilder,
        SecurityTypes SecurityTypesBuilder,
        SecurityListRequest SecurityListRequestBuilder,
        SecurityList SecurityListBuilder,
        DerivativeSecurityListRequest DerivativeSecurityListRequestBuilder,
        DerivativeSecurityList DerivativeSecurityListBuilder,
        NewOrderMultileg NewOrderMultilegBuilder,
        MultilegOrderCancelReplace MultilegOrderCancelReplaceBuilder,
        TradeCaptureReportRequest TradeCaptureReportRequestBuilder,
        TradeCaptureReport TradeCaptureReportBuilder,
        OrderMassStatusRequest OrderMassStatusRequestBuilder,
        QuoteRequestReject QuoteRequestRejectBuilder,
        RfqRequest RfqRequestBuilder,
        QuoteStatusReport QuoteStatusReportBuilder,
        QuoteResponse QuoteResponseBuilder,
        Confirmation ConfirmationBuilder,
        PositionMaintenanceRequest PositionMaintenanceRequestBuilder,
        PositionMaintenanceReport PositionMaintenanceReportBuilder,
        RequestForPositions RequestForPositionsBuilder,
        RequestForPositionsAck RequestForPositionsAckBuilder,
        PositionReport PositionReportBuilder,
        TradeCaptureReportRequestAck TradeCaptureReportRequestAckBuilder,
        TradeCaptureReportAck TradeCaptureReportAckBuilder,
        AllocationReport AllocationReportBuilder,
        AllocationReportAck AllocationReportAckBuilder,
        ConfirmationAck ConfirmationAckBuilder,
        SettlementInstructionRequest SettlementInstructionRequestBuilder,
        AssignmentReport AssignmentReportBuilder,
        CollateralRequest CollateralRequestBuilder,
        CollateralAssignment CollateralAssignmentBuilder,
        CollateralResponse CollateralResponseBuilder,
        CollateralReport CollateralReportBuilder,
        CollateralInquiry CollateralInquiryBuilder,
        NetworkCounterpartySystemStatusRequest NetworkCounterpartySystemStatusRequestBuilder,
        NetworkCounterpartySystemStatusResponse NetworkCounterpartySystemStatusResponseBuilder,
        UserRequest UserRequestBuilder,
        UserResponse UserResponseBuilder,
        CollateralInquiryAck CollateralInquiryAckBuilder,
        ConfirmationRequest ConfirmationRequestBuilder
    );
    let mut covered: Vec<&[u8]> = results.iter().map(|(d, _)| d.msg_type).collect();
    let mut all: Vec<&[u8]> = fix44::MESSAGES.iter().map(|d| d.msg_type).collect();
    covered.sort();
    all.sort();
    assert_eq!(covered, all, "the list above names every message");
    let mut refused = 0;
    for (def, got) in results {
        // The tables' first required body slot, which the builder writes first among them.
        match def.body.required.first() {
            Some(&slot) => {
                let tag = def.body.tags[usize::from(slot)];
                assert_eq!(
                    got,
                    Err(EncodeError::MissingRequired { tag }),
                    "{}",
                    def.name
                );
                refused += 1;
            }
            None => assert_valid(&got.unwrap_or_else(|e| panic!("{}: {e}", def.name))),
        }
    }
    assert!(
        refused > 80,
        "most FIX 4.4 messages have a required field: {refused}"
    );
}
