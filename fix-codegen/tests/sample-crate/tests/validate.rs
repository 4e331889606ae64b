//! The generated tables are a validation dictionary, and answer like the run-time
//! dictionary loaded from the same XML.

use fix_core::validate::{Echo, Invalid, SessionRejectReason as R, Validator};
use fix_core::{Fields, Parser};
use fix_dict::Dictionary;

fn frame(body: &str) -> Vec<u8> {
    frame_with("FIX.4.4", body)
}

fn frame_with(begin: &str, body: &str) -> Vec<u8> {
    let head = format!("8={begin}\x019={}\x01", body.len());
    let sum = head.bytes().chain(body.bytes()).map(u32::from).sum::<u32>() % 256;
    format!("{head}{body}10={sum:03}\x01").into_bytes()
}

/// A message's expected reject: reason and RefTagID, or `None` when it passes.
type Verdict = Option<(R, Option<i64>)>;

const HEAD: &str = "49=A\x0156=B\x0134=1\x0152=20261130-12:00:00\x01";

#[test]
fn generated_and_runtime_dictionaries_agree() {
    let runtime =
        Dictionary::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../dicts/sample.xml")).unwrap();
    // Each message with the reject QuickFIX gives it (reason and RefTagID), or none.
    let cases: [(String, Verdict); 11] = [
        // valid
        (
            format!("35=D\x01{HEAD}11=X\x0155=S\x0154=1\x0160=20261130-12:00:00\x0140=2\x01"),
            None,
        ),
        // required tag missing (40)
        (
            format!("35=D\x01{HEAD}11=X\x0155=S\x0154=1\x0160=20261130-12:00:00\x01"),
            Some((R::RequiredTagMissing, Some(40))),
        ),
        // value out of range (54=9)
        (
            format!("35=D\x01{HEAD}11=X\x0155=S\x0154=9\x0160=20261130-12:00:00\x0140=2\x01"),
            Some((R::ValueIncorrect, Some(54))),
        ),
        // bad data format (44)
        (
            format!(
                "35=D\x01{HEAD}11=X\x0155=S\x0154=1\x0160=20261130-12:00:00\x0140=2\x0144=x\x01"
            ),
            Some((R::IncorrectDataFormat, Some(44))),
        ),
        // tag not defined for this message (112)
        (
            format!(
                "35=D\x01{HEAD}11=X\x0155=S\x0154=1\x0160=20261130-12:00:00\x0140=2\x01112=T\x01"
            ),
            Some((R::TagNotDefinedForMessageType, Some(112))),
        ),
        // undefined tag, below the user-defined range
        (
            format!("35=0\x01{HEAD}4999=1\x01"),
            Some((R::InvalidTagNumber, Some(4999))),
        ),
        // invalid MsgType
        (format!("35=ZZ\x01{HEAD}"), Some((R::InvalidMsgType, None))),
        // a group of two entries, with groups nested in them: valid
        (
            format!(
                "35=X\x01{HEAD}268=2\x01279=0\x01269=0\x01267=1\x01276=A\x01279=1\x01453=1\x01448=P\x01802=1\x01523=S\x01"
            ),
            None,
        ),
        // an entry's members out of the dictionary's order (270 before 269)
        (
            format!("35=X\x01{HEAD}268=1\x01279=0\x01270=1.5\x01269=0\x01"),
            Some((R::RepeatingGroupFieldsOutOfOrder, Some(269))),
        ),
        // a group count above its entries
        (
            format!("35=X\x01{HEAD}268=3\x01279=0\x01279=1\x01"),
            Some((R::IncorrectNumInGroupCount, Some(268))),
        ),
        // header field in the body
        (
            format!("35=0\x01{HEAD}112=T\x0149=A\x01"),
            Some((R::TagSpecifiedOutOfRequiredOrder, Some(49))),
        ),
    ];
    let parser = Parser::new().with_data_fields(fix_sample::DATA_FIELDS);
    let validator = Validator::new();
    let mut fields = Fields::<64>::new();
    for (body, expected) in &cases {
        let bytes = frame(body);
        let msg = parser
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let generated = validator.validate(&fix_sample::DICTIONARY, &msg);
        let loaded = validator.validate(&runtime, &msg);
        assert_eq!(generated, loaded, "{}", body.replace('\x01', "|"));
        assert_eq!(
            generated.err().map(|e| {
                let r = e.reject().expect("a Reject");
                (r.reason, r.ref_tag)
            }),
            *expected,
            "{}",
            body.replace('\x01', "|")
        );
    }
    let ok = frame(&cases[0].0);
    let msg = parser.parse(&ok, &mut fields).unwrap().complete().unwrap();
    assert!(validator.validate(&fix_sample::DICTIONARY, &msg).is_ok());
    // Both know their BeginString, and neither rejects another: it is not theirs.
    let fix42 = frame_with("FIX.4.2", &cases[0].0);
    let msg = parser
        .parse(&fix42, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let wrong = Err(Invalid::IncorrectBeginString {
        begin_string: Echo::new(b"FIX.4.2"),
        msg_type: Echo::new(b"D"),
    });
    assert_eq!(validator.validate(&fix_sample::DICTIONARY, &msg), wrong);
    assert_eq!(validator.validate(&runtime, &msg), wrong);
}
