//! The validator against a small dictionary written out as static tables: nested
//! groups, every switch, and QuickFIX's precedence among problems.

use crate::common;

use crate::common::soh;
use fix_core::validate::{
    Echo, Group, Invalid, Layout, Member, Reject, Schema, SessionRejectReason as R, ShapeCache,
    Validator, ValueFormat,
};
use fix_core::{DataFieldPair, DataFields, Fields, Parser};

/// A member: `(tag, required, group)`, where a group is `(delimiter, entry)`.
type Def = (u32, bool, Option<(u32, &'static Level)>);

/// One level of members.
struct Level(&'static [Def]);

impl Layout for Level {
    fn member(&self, tag: u32) -> Option<Member<'_, Self>> {
        let index = self.0.iter().position(|m| m.0 == tag)?;
        let (_, _, group) = self.0[index];
        Some(Member {
            index,
            group: group.map(|(delimiter, entry)| Group { delimiter, entry }),
            info: None,
            values: None,
        })
    }

    fn len(&self) -> usize {
        self.0.len()
    }

    fn for_each_required(&self, f: &mut dyn FnMut(u32, usize) -> bool) {
        for (i, m) in self.0.iter().enumerate() {
            if m.1 && !f(m.0, i) {
                return;
            }
        }
    }
}

static HOPS: Level = Level(&[(628, false, None), (629, false, None)]);
static HEADER: Level = Level(&[
    (8, true, None),
    (9, true, None),
    (35, true, None),
    (34, true, None),
    (49, true, None),
    (52, true, None),
    (56, true, None),
    (627, false, Some((628, &HOPS))),
]);
static TRAILER: Level = Level(&[(93, false, None), (89, false, None), (10, true, None)]);
static SUB_IDS: Level = Level(&[(523, true, None), (803, true, None)]);
static PARTIES: Level = Level(&[
    (448, true, None),
    (447, false, None),
    (452, true, None),
    (802, false, Some((523, &SUB_IDS))),
]);
static ORDER: Level = Level(&[
    (11, true, None),
    (453, false, Some((448, &PARTIES))),
    (54, true, None),
    (38, false, None),
    (55, false, None),
    (18, false, None),
    (95, false, None),
    (96, false, None),
]);
static HEARTBEAT: Level = Level(&[(112, false, None)]);

struct Dict;

impl Schema for Dict {
    type Layout = Level;

    fn begin_string(&self) -> Option<&[u8]> {
        Some(b"FIX.4.4")
    }

    fn field_format(&self, tag: u32) -> Option<ValueFormat> {
        Some(match tag {
            8 | 11 | 49 | 56 | 55 | 112 | 448 | 523 | 628 | 89 | 58 | 10 => ValueFormat::String,
            9 | 34 | 453 | 802 | 627 | 93 | 95 => ValueFormat::UInt,
            96 => ValueFormat::Data,
            35 | 54 | 447 => ValueFormat::Char,
            52 | 629 => ValueFormat::UtcTimestamp,
            38 => ValueFormat::Decimal,
            452 | 803 => ValueFormat::Int,
            18 => ValueFormat::MultipleCharValue,
            _ => return None,
        })
    }

    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        match tag {
            54 => matches!(value, b"1" | b"2"),
            18 => value
                .split(|&b| b == b' ')
                .all(|v| matches!(v, b"1" | b"2" | b"G")),
            _ => true,
        }
    }

    fn header_layout(&self) -> &Level {
        &HEADER
    }

    fn trailer_layout(&self) -> &Level {
        &TRAILER
    }

    fn body_layout(&self, msg_type: &[u8]) -> Option<&Level> {
        match msg_type {
            b"D" => Some(&ORDER),
            b"0" => Some(&HEARTBEAT),
            _ => None,
        }
    }
}

const HEAD: &str = "34=2|49=A|52=20261130-14:03:27|56=B|";

/// Validates a message of type `msg_type` whose header is [`HEAD`] and whose body is
/// `body`, both with `|` for SOH; returns (reason, tag) of the reject.
fn check(validator: Validator, msg_type: &str, body: &str) -> Option<(R, Option<i64>)> {
    check_raw(validator, &format!("35={msg_type}|{HEAD}{body}"))
}

fn check_raw(validator: Validator, after_body_length: &str) -> Option<(R, Option<i64>)> {
    let bytes = common::build(&soh(after_body_length));
    let mut fields = Fields::<64>::new();
    let parser = Parser::new().with_empty_values(true);
    let msg = parser
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    validator
        .validate(&Dict, &msg)
        .err()
        .map(|e| *e.reject().expect("a Reject"))
        .map(|r: Reject| (r.reason, r.ref_tag))
}

fn v() -> Validator {
    Validator::new()
}

#[test]
fn a_valid_order_with_nested_groups_passes() {
    let body = "11=X|453=2|448=P1|447=D|452=1|802=2|523=S1|803=4|523=S2|803=5|448=P2|452=3|54=1|38=10.5|18=1 G|";
    assert_eq!(check(v(), "D", body), None);
    assert_eq!(check(v(), "0", ""), None);
    // A header group.
    let with_hops = "35=0|34=2|49=A|52=20261130-14:03:27|56=B|627=1|628=H|629=20261130-14:03:27|";
    assert_eq!(check_raw(v(), with_hops), None);
}

#[test]
fn group_counts_must_match_their_entries() {
    let body = "11=X|453=3|448=P1|452=1|448=P2|452=3|54=1|";
    assert_eq!(
        check(v(), "D", body),
        Some((R::IncorrectNumInGroupCount, Some(453)))
    );
    let nested = "11=X|453=1|448=P1|452=1|802=3|523=S1|803=4|54=1|";
    assert_eq!(
        check(v(), "D", nested),
        Some((R::IncorrectNumInGroupCount, Some(802)))
    );
    let zero = "11=X|453=0|54=1|";
    assert_eq!(check(v(), "D", zero), None);
}

#[test]
fn a_group_entry_must_start_with_its_delimiter() {
    let body = "11=X|453=1|452=1|448=P1|54=1|";
    assert_eq!(
        check(v(), "D", body),
        Some((R::RepeatingGroupFieldsOutOfOrder, Some(452)))
    );
    let nested = "11=X|453=1|448=P1|452=1|802=1|803=4|523=S|54=1|";
    assert_eq!(
        check(v(), "D", nested),
        Some((R::RepeatingGroupFieldsOutOfOrder, Some(803)))
    );
}

#[test]
fn required_tags_are_checked_at_every_level_top_level_first() {
    assert_eq!(
        check(v(), "D", "54=1|"),
        Some((R::RequiredTagMissing, Some(11)))
    );
    let entry_lacks_452 = "11=X|453=1|448=P1|54=1|";
    assert_eq!(
        check(v(), "D", entry_lacks_452),
        Some((R::RequiredTagMissing, Some(452)))
    );
    // Both missing: the message's own required tag is reported first.
    assert_eq!(
        check(v(), "D", "453=1|448=P1|54=1|"),
        Some((R::RequiredTagMissing, Some(11)))
    );
    // The header's before the body's.
    let no_56 = "35=D|34=2|49=A|52=20261130-14:03:27|54=1|";
    assert_eq!(
        check_raw(v(), no_56),
        Some((R::RequiredTagMissing, Some(56)))
    );
}

#[test]
fn field_problems_in_wire_order() {
    assert_eq!(
        check(v(), "D", "11=X|54=3|"),
        Some((R::ValueIncorrect, Some(54)))
    );
    assert_eq!(
        check(v(), "D", "11=X|54=1|18=1 Z|"),
        Some((R::ValueIncorrect, Some(18)))
    );
    assert_eq!(
        check(v(), "D", "11=X|54=1|38=1e5|"),
        Some((R::IncorrectDataFormat, Some(38)))
    );
    assert_eq!(
        check(v(), "D", "11=X|54=1|54=2|"),
        Some((R::TagAppearsMoreThanOnce, Some(54)))
    );
    assert_eq!(
        check(v(), "D", "11=X|54=1|112=T|"),
        Some((R::TagNotDefinedForMessageType, Some(112)))
    );
    assert_eq!(
        check(v(), "D", "11=X|54=1|4999=T|"),
        Some((R::InvalidTagNumber, Some(4999)))
    );
    assert_eq!(
        check(v(), "D", "11=|54=1|"),
        Some((R::TagSpecifiedWithoutValue, Some(11)))
    );
    // The first in wire order wins.
    assert_eq!(
        check(v(), "D", "11=X|38=bad|54=3|"),
        Some((R::IncorrectDataFormat, Some(38)))
    );
    // A problem in the header comes before one in the body.
    let header_and_body = "35=D|34=x|49=A|52=20261130-14:03:27|56=B|11=X|54=3|";
    assert_eq!(
        check_raw(v(), header_and_body),
        Some((R::IncorrectDataFormat, Some(34)))
    );
}

#[test]
fn sections_must_keep_their_order() {
    let late_header = "35=D|34=2|49=A|52=20261130-14:03:27|11=X|56=B|54=1|";
    assert_eq!(
        check_raw(v(), late_header),
        Some((R::TagSpecifiedOutOfRequiredOrder, Some(56)))
    );
    let early_trailer = "35=0|34=2|49=A|52=20261130-14:03:27|56=B|93=3|112=T|";
    assert_eq!(
        check_raw(v(), early_trailer),
        Some((R::TagSpecifiedOutOfRequiredOrder, Some(112)))
    );
    let unknown = "35=Q|34=2|49=A|52=20261130-14:03:27|56=B|";
    assert_eq!(check_raw(v(), unknown), Some((R::InvalidMsgType, None)));
}

#[test]
fn every_switch_does_what_quickfix_s_setting_does() {
    let late_header = "35=D|34=2|49=A|52=20261130-14:03:27|11=X|56=B|54=1|";
    let unordered = v().validate_fields_out_of_order(false);
    assert_eq!(check_raw(unordered, late_header), None);

    let empty = "11=|54=1|";
    assert_eq!(
        check(v().validate_fields_have_values(false), "D", empty),
        None
    );

    let user = "11=X|54=1|5001=anything|";
    assert_eq!(
        check(v(), "D", user),
        Some((R::InvalidTagNumber, Some(5001)))
    );
    assert_eq!(
        check(v().validate_user_defined_fields(false), "D", user),
        None
    );
    // Letting unknown fields through covers tags below 5000 only.
    let lenient = v().allow_unknown_msg_fields(true);
    assert_eq!(check(lenient, "D", "11=X|54=1|112=T|4999=x|"), None);
    assert_eq!(
        check(lenient, "D", user),
        Some((R::InvalidTagNumber, Some(5001)))
    );
}

#[test]
fn reject_texts_and_codes() {
    // SessionRejectReason (373): each code, its variant and the Text (58) QuickFIX
    // sends with it, written out here from the FIX specification's table.
    let table = [
        (0, R::InvalidTagNumber, "Invalid tag number"),
        (1, R::RequiredTagMissing, "Required tag missing"),
        (
            2,
            R::TagNotDefinedForMessageType,
            "Tag not defined for this message type",
        ),
        (3, R::UndefinedTag, "Undefined Tag"),
        (
            4,
            R::TagSpecifiedWithoutValue,
            "Tag specified without a value",
        ),
        (
            5,
            R::ValueIncorrect,
            "Value is incorrect (out of range) for this tag",
        ),
        (6, R::IncorrectDataFormat, "Incorrect data format for value"),
        (7, R::DecryptionProblem, "Decryption problem"),
        (8, R::SignatureProblem, "Signature problem"),
        (9, R::CompIdProblem, "CompID problem"),
        (
            10,
            R::SendingTimeAccuracyProblem,
            "SendingTime accuracy problem",
        ),
        (11, R::InvalidMsgType, "Invalid MsgType"),
        (12, R::XmlValidationError, "XML Validation error"),
        (13, R::TagAppearsMoreThanOnce, "Tag appears more than once"),
        (
            14,
            R::TagSpecifiedOutOfRequiredOrder,
            "Tag specified out of required order",
        ),
        (
            15,
            R::RepeatingGroupFieldsOutOfOrder,
            "Out of order repeating group members",
        ),
        (
            16,
            R::IncorrectNumInGroupCount,
            "Incorrect NumInGroup count for repeating group",
        ),
        (17, R::NonDataValueIncludesFieldDelimiter, "Embedded SOH"),
        (99, R::Other, "Other"),
    ];
    for (code, reason, text) in table {
        assert_eq!(R::from_code(code), Some(reason), "{code}");
        assert_eq!(reason.code(), code, "{reason:?}");
        assert_eq!(reason.text(), text, "{reason:?}");
    }
    for code in [18, 19, 98, 100, u32::MAX] {
        assert_eq!(R::from_code(code), None, "{code}");
    }
}

/// [`Dict`] without a BeginString: [`Schema::begin_string`]'s default.
struct Unversioned;

impl Schema for Unversioned {
    type Layout = Level;

    fn field_format(&self, tag: u32) -> Option<ValueFormat> {
        Dict.field_format(tag)
    }

    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        Dict.value_allowed(tag, value)
    }

    fn header_layout(&self) -> &Level {
        Dict.header_layout()
    }

    fn trailer_layout(&self) -> &Level {
        Dict.trailer_layout()
    }

    fn body_layout(&self, msg_type: &[u8]) -> Option<&Level> {
        Dict.body_layout(msg_type)
    }
}

/// `after_body_length` (`|` for SOH) framed with BeginString `begin`, parsed with
/// `pairs` as the data field pairs, and validated plainly and through a cache
/// (which must agree); the bytes are kept by the caller.
fn verdict_of<'a, S: Schema>(
    dict: &S,
    validator: Validator,
    bytes: &'a [u8],
    pairs: &[DataFieldPair],
    fields: &'a mut [fix_core::Field],
) -> Result<(), Invalid> {
    let msg = Parser::new()
        .with_data_fields(DataFields::new(pairs))
        .parse(bytes, fields)
        .unwrap()
        .complete()
        .unwrap();
    let plain = validator.validate(dict, &msg);
    let mut cache = ShapeCache::<4, 64>::new();
    assert_eq!(validator.validate_cached(dict, &msg, &mut cache), plain);
    assert_eq!(validator.validate_cached(dict, &msg, &mut cache), plain);
    plain
}

#[test]
fn a_begin_string_other_than_the_dictionary_s_is_not_a_reject() {
    let heartbeat = "35=0|34=2|49=A|52=20261130-14:03:27|56=B|";
    let fix42 = common::build_with("FIX.4.2", &soh(heartbeat));
    let mut fields = Fields::<64>::new();
    let got = verdict_of(&Dict, v(), &fix42, &[], &mut fields);
    assert_eq!(
        got,
        Err(Invalid::IncorrectBeginString {
            begin_string: Echo::new(b"FIX.4.2"),
            msg_type: Echo::new(b"0")
        })
    );
    let wrong = got.unwrap_err();
    assert_eq!(
        (wrong.reject(), wrong.text()),
        (None, "Incorrect BeginString")
    );
    // The same message with the dictionary's BeginString passes.
    let fix44 = common::build_with("FIX.4.4", &soh(heartbeat));
    assert_eq!(verdict_of(&Dict, v(), &fix44, &[], &mut fields), Ok(()));
    // It comes before every other problem, whatever the switches say: this
    // message has an unknown MsgType, a late header field and a bad value.
    let everything_wrong = "35=Q|34=x|49=A|52=20261130-14:03:27|11=X|56=B|";
    let bytes = common::build_with("FIXT.1.1", &soh(everything_wrong));
    let lenient = v()
        .validate_fields_out_of_order(false)
        .validate_fields_have_values(false)
        .validate_user_defined_fields(false)
        .allow_unknown_msg_fields(true);
    for validator in [v(), lenient] {
        assert_eq!(
            verdict_of(&Dict, validator, &bytes, &[], &mut fields),
            Err(Invalid::IncorrectBeginString {
                begin_string: Echo::new(b"FIXT.1.1"),
                msg_type: Echo::new(b"Q")
            })
        );
    }
    // A shape remembered under the right BeginString does not let the wrong one by.
    let mut cache = ShapeCache::<4, 64>::new();
    let parse = |bytes: &[u8], f: &mut dyn FnMut(&fix_core::Message<'_>)| {
        let mut fields = Fields::<64>::new();
        let msg = Parser::new().parse(bytes, &mut fields).unwrap();
        f(&msg.complete().unwrap());
    };
    parse(&fix44, &mut |m| {
        assert_eq!(v().validate_cached(&Dict, m, &mut cache), Ok(()));
    });
    assert_eq!(cache.len(), 1);
    parse(&fix42, &mut |m| {
        let got = v().validate_cached(&Dict, m, &mut cache);
        assert!(
            matches!(got, Err(Invalid::IncorrectBeginString { .. })),
            "{got:?}"
        );
    });
    // A dictionary that does not say (the trait's default) checks nothing.
    assert_eq!(
        verdict_of(&Unversioned, v(), &fix42, &[], &mut fields),
        Ok(())
    );
}

#[test]
fn group_entry_members_follow_the_dictionary_order() {
    let out_of_order = |body: &str, tag| {
        assert_eq!(
            check(v(), "D", body),
            Some((R::RepeatingGroupFieldsOutOfOrder, Some(tag))),
            "{body}"
        );
        // Off, only the entry's order was wrong.
        assert_eq!(
            check(v().validate_fields_out_of_order(false), "D", body),
            None,
            "{body}"
        );
    };
    // PARTIES is 448, 447, 452, 802: 447 after 452.
    out_of_order("11=X|453=1|448=P1|452=1|447=D|54=1|", 447);
    // In a later entry.
    out_of_order(
        "11=X|453=2|448=P1|447=D|452=1|448=P2|452=3|447=D|54=1|",
        447,
    );
    // After a nested group, a member that comes before its counter.
    out_of_order("11=X|453=1|448=P1|802=1|523=S|803=4|452=1|54=1|", 452);
    // In order, with members left out, it passes.
    assert_eq!(
        check(v(), "D", "11=X|453=2|448=P1|452=1|448=P2|447=D|452=3|54=1|"),
        None
    );
    // A member twice in one entry is a repeated tag, as at any level.
    assert_eq!(
        check(v(), "D", "11=X|453=1|448=P1|452=1|452=2|54=1|"),
        Some((R::TagAppearsMoreThanOnce, Some(452)))
    );
    // The entry's order is a structure problem: it comes before a bad value.
    assert_eq!(
        check(v(), "D", "11=X|453=1|448=P1|452=1|447=D|54=3|"),
        Some((R::RepeatingGroupFieldsOutOfOrder, Some(447)))
    );
    // An entry that does not start with its delimiter is reason 15 either way.
    assert_eq!(
        check(
            v().validate_fields_out_of_order(false),
            "D",
            "11=X|453=1|452=1|448=P1|54=1|"
        ),
        Some((R::RepeatingGroupFieldsOutOfOrder, Some(452)))
    );
}

#[test]
fn a_value_holding_soh_must_be_data() {
    let fix44 = fix_core::FIX44_DATA_FIELDS;
    let run = |body: &str, pairs: &[DataFieldPair], validator: Validator| {
        let bytes = common::build(&soh(&format!("35=D|{HEAD}{body}")));
        let mut fields = Fields::<64>::new();
        verdict_of(&Dict, validator, &bytes, pairs, &mut fields)
            .map_err(|e| *e.reject().expect("a Reject"))
            .map_err(|r| (r.reason, r.ref_tag))
    };
    // RawData (96) is DATA: its SOH is fine.
    assert_eq!(run("11=X|54=1|95=3|96=a|b|", fix44, v()), Ok(()));
    // Signature (89) is a STRING in this dictionary, read by its length (93)
    // since the parser was given FIX 4.4's pairs.
    let signature = "11=X|54=1|93=3|89=a|b|";
    let embedded = Err((R::NonDataValueIncludesFieldDelimiter, Some(89)));
    assert_eq!(run(signature, fix44, v()), embedded);
    // Read by length but without a SOH, it is only a string.
    assert_eq!(run("11=X|54=1|93=3|89=abc|", fix44, v()), Ok(()));
    // A decimal holding SOH is reason 17, not a bad format (6).
    let qty = [DataFieldPair {
        length: 95,
        data: 38,
    }];
    assert_eq!(
        run("11=X|54=1|95=4|38=1|.5|", &qty, v()),
        Err((R::NonDataValueIncludesFieldDelimiter, Some(38)))
    );
    // It comes first, as QuickFIX finds it while parsing: before a field out of
    // its section (56 in the body) and a bad value (54=3), under every switch.
    let all_wrong = "35=D|34=2|49=A|52=20261130-14:03:27|11=X|56=B|54=3|93=3|89=a|b|";
    let bytes = common::build(&soh(all_wrong));
    let lenient = v()
        .validate_fields_out_of_order(false)
        .validate_user_defined_fields(false)
        .allow_unknown_msg_fields(true);
    for validator in [v(), lenient] {
        let mut fields = Fields::<64>::new();
        let got = verdict_of(&Dict, validator, &bytes, fix44, &mut fields);
        assert_eq!(
            got.map_err(|e| e.reject().map(|r| (r.reason, r.ref_tag))),
            Err(Some((R::NonDataValueIncludesFieldDelimiter, Some(89))))
        );
    }
    // A shape remembered without the SOH does not let it by.
    let mut cache = ShapeCache::<4, 64>::new();
    for (body, expected) in [("93=3|89=abc|", Ok(())), ("93=3|89=a|b|", embedded)] {
        let bytes = common::build(&soh(&format!("35=D|{HEAD}11=X|54=1|{body}")));
        let mut fields = Fields::<64>::new();
        let msg = Parser::new()
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let got = v()
            .validate_cached(&Dict, &msg, &mut cache)
            .map_err(|e| *e.reject().expect("a Reject"))
            .map_err(|r| (r.reason, r.ref_tag));
        assert_eq!(got, expected, "{body}");
    }
    // A tag the dictionary does not define gets the definition checks instead.
    let undefined = [DataFieldPair {
        length: 95,
        data: 4998,
    }];
    let body = "11=X|54=1|95=3|4998=a|b|";
    assert_eq!(
        run(body, &undefined, v()),
        Err((R::InvalidTagNumber, Some(4998)))
    );
    assert_eq!(
        run(body, &undefined, v().allow_unknown_msg_fields(true)),
        Ok(())
    );
}

/// A message that does not parse still gets the Reject a session sends, and every
/// one that concerns a tag names it: SOH inside a value is reason 17 against that
/// value's tag, and a tag number too long for RefTagID's INT is still reported.
#[test]
fn parse_error_rejects_name_their_tag() {
    let reject = |body: &str| {
        let msg = common::build(&soh(body));
        let err = Parser::new()
            .parse(&msg, &mut Fields::<16>::new())
            .expect_err(body);
        let r = Reject::from_parse_error(&err, &msg).unwrap_or_else(|| panic!("{body}: {err}"));
        assert_eq!(r.ref_msg_type, b"0", "{body}");
        (r.reason, r.ref_tag)
    };
    assert_eq!(
        reject("35=0|58=a|b c|"),
        (R::NonDataValueIncludesFieldDelimiter, Some(58))
    );
    assert_eq!(
        reject("35=0|1234567890123456789=x|"),
        (R::InvalidTagNumber, Some(1_234_567_890_123_456_789))
    );
    assert_eq!(
        reject("35=0|99999999999999999999=x|"),
        (R::InvalidTagNumber, Some(i64::MAX))
    );
    assert_eq!(
        reject("35=0|-99999999999999999999=x|"),
        (R::InvalidTagNumber, Some(i64::MIN))
    );
    assert_eq!(reject("35=0|-7=x|"), (R::InvalidTagNumber, Some(-7)));
}

/// The verdict owns what it reports: it outlives the buffer and the fields, and
/// `?` takes it into a `Box<dyn Error>`.
#[test]
fn a_reject_outlives_the_message_it_rejects() {
    fn verdict(after_body_length: &str) -> Result<(), Box<dyn std::error::Error>> {
        let bytes = common::build(&soh(after_body_length));
        let mut fields = Fields::<64>::new();
        let msg = Parser::new()
            .parse(&bytes, &mut fields)?
            .complete()
            .ok_or("incomplete")?;
        Validator::new().validate(&Dict, &msg)?;
        Ok(())
    }
    let err = verdict("35=D|34=2|49=A|52=20261130-14:03:27|56=B|11=X|54=1|38=x|").unwrap_err();
    let invalid = err.downcast_ref::<Invalid>().expect("an Invalid");
    let reject = invalid.reject().expect("a Reject");
    assert_eq!(reject.ref_msg_type, b"D");
    assert_eq!(
        err.to_string(),
        "Incorrect data format for value (373=6, 371=38, 372=D)"
    );

    // A MsgType longer than a reject keeps: its first bytes, marked as cut.
    let long = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let err = verdict(&format!("35={long}|34=2|49=A|52=20261130-14:03:27|56=B|")).unwrap_err();
    let reject = *err.downcast_ref::<Invalid>().unwrap().reject().unwrap();
    assert_eq!(reject.reason, R::InvalidMsgType);
    assert!(reject.ref_msg_type.is_cut());
    assert_ne!(reject.ref_msg_type, long.as_bytes());
    assert_eq!(
        reject.ref_msg_type.as_bytes(),
        &long.as_bytes()[..Echo::CAPACITY]
    );
    assert!(err.to_string().ends_with("372=ABCDEFGHIJKLMN…)"), "{err}");
}
