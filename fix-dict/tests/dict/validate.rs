//! The run-time dictionary's answers where QuickFIX's acceptance scripts say
//! little: a group entry's members out of the dictionary's order, and a value
//! holding SOH in a field the dictionary does not type DATA.

use fix_core::validate::{SessionRejectReason as R, Validator};
use fix_core::{Fields, Parser};
use fix_dict::Dictionary;
use fix_test_support::naive::{build, soh};

fn fix44() -> Dictionary {
    Dictionary::from_path(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml")).unwrap()
}

const ORDER: &str = "35=D|34=2|49=A|52=20261130-14:03:27|56=B|11=X|21=1|55=IBM|54=1|\
                     60=20261130-14:03:27|40=1|";

/// (reason, RefTagID) of `body` (`|` for SOH) against `dict`, parsed with
/// `parser`; `None` when it passes.
fn verdict(
    dict: &Dictionary,
    parser: Parser<'_>,
    v: Validator,
    body: &str,
) -> Option<(R, Option<i64>)> {
    let bytes = build(&soh(body));
    let mut fields = Fields::<64>::new();
    let msg = parser
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    v.validate(dict, &msg)
        .err()
        .map(|e| *e.reject().expect("a Reject"))
        .map(|r| (r.reason, r.ref_tag))
}

#[test]
fn parties_follow_the_dictionary_order() {
    let dict = fix44();
    let v = Validator::new();
    let parser = Parser::new();
    assert_eq!(verdict(&dict, parser, v, ORDER), None);
    let in_order = format!("{ORDER}453=2|448=P1|447=D|452=1|448=P2|452=3|");
    assert_eq!(verdict(&dict, parser, v, &in_order), None);
    // NoPartyIDs' entry is PartyID (448), PartyIDSource (447), PartyRole (452).
    let swapped = format!("{ORDER}453=2|448=P1|447=D|452=1|448=P2|452=3|447=D|");
    assert_eq!(
        verdict(&dict, parser, v, &swapped),
        Some((R::RepeatingGroupFieldsOutOfOrder, Some(447)))
    );
    let unordered = v.validate_fields_out_of_order(false);
    assert_eq!(verdict(&dict, parser, unordered, &swapped), None);
}

/// A venue's dictionary that types EncodedText (355) STRING: a parser left with
/// FIX 4.4's data field pairs reads it by EncodedTextLen (354), SOH and all, and
/// the validator rejects the SOH the dictionary does not allow.
#[test]
fn a_value_holding_soh_is_rejected_unless_the_dictionary_says_data() {
    let venue = Dictionary::from_xml(
        "venue.xml",
        "<fix type='FIX' major='4' minor='4'>\
         <header><field name='BeginString' required='Y'/><field name='BodyLength' required='Y'/>\
         <field name='MsgType' required='Y'/></header>\
         <trailer><field name='CheckSum' required='Y'/></trailer>\
         <messages><message name='News' msgtype='B' msgcat='app'>\
         <field name='Headline' required='Y'/><field name='EncodedTextLen' required='N'/>\
         <field name='EncodedText' required='N'/></message></messages>\
         <fields><field number='8' name='BeginString' type='STRING'/>\
         <field number='9' name='BodyLength' type='LENGTH'/>\
         <field number='35' name='MsgType' type='STRING'/>\
         <field number='10' name='CheckSum' type='STRING'/>\
         <field number='148' name='Headline' type='STRING'/>\
         <field number='354' name='EncodedTextLen' type='LENGTH'/>\
         <field number='355' name='EncodedText' type='STRING'/></fields></fix>",
    )
    .unwrap();
    let v = Validator::new();
    let news = |text: &str| format!("35=B|148=H|354={}|355={text}|", text.len());
    assert_eq!(verdict(&venue, Parser::new(), v, &news("plain")), None);
    assert_eq!(
        verdict(&venue, Parser::new(), v, &news("two|lines")),
        Some((R::NonDataValueIncludesFieldDelimiter, Some(355)))
    );
    // FIX 4.4 types it DATA (in a LinesOfText entry): the same bytes pass.
    let fix44 = fix44();
    let news = "35=B|34=2|49=A|52=20261130-14:03:27|56=B|148=H|33=1|58=x|354=9|355=two|lines|";
    assert_eq!(verdict(&fix44, Parser::new(), v, news), None);
}
