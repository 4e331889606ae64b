//! The run-time dictionary's answers where QuickFIX's acceptance scripts say
//! little: a group entry's members out of the dictionary's order.

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
