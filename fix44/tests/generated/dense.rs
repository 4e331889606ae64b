//! Validation's fast path over the generated tables (`Schema::dense`, one load of
//! a field's slot and one of its checks) answers exactly as the full walk does:
//! every message below, and every damaged copy of it (a field dropped, repeated,
//! emptied, given a bad value, moved, or a foreign tag put in), validates the same
//! with fix44's tables as with the same tables behind a schema that has no dense
//! tables (so the walk alone decides), under each of the validator's settings.

use fix_core::validate::{Layout, Schema, Validator, ValueFormat};
use fix_core::{Fields, Parser};
use fix_test_support::naive::build;

/// fix44's tables without their dense tables: the validator walks every message.
struct WalkOnly;

impl Schema for WalkOnly {
    type Layout = fix_core::typed::Level;

    fn begin_string(&self) -> Option<&[u8]> {
        fix44::DICTIONARY.begin_string()
    }
    fn field_format(&self, tag: u32) -> Option<ValueFormat> {
        fix44::DICTIONARY.field_format(tag)
    }
    fn field_info(&self, tag: u32) -> Option<fix_core::validate::FieldInfo> {
        fix44::DICTIONARY.field_info(tag)
    }
    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        fix44::DICTIONARY.value_allowed(tag, value)
    }
    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        fix44::DICTIONARY.byte_set(tag)
    }
    fn header_layout(&self) -> &Self::Layout {
        fix44::DICTIONARY.header_layout()
    }
    fn trailer_layout(&self) -> &Self::Layout {
        fix44::DICTIONARY.trailer_layout()
    }
    fn body_layout(&self, msg_type: &[u8]) -> Option<&Self::Layout> {
        fix44::DICTIONARY.body_layout(msg_type)
    }
}

/// Messages that pass, of several types, with and without groups.
const BODIES: &[&str] = &[
    "35=8|34=1207|49=BROKER|52=20261130-14:03:27.123456|56=CLIENT|37=OID-7781234|11=CL-2026-000451|17=EXEC-99812377|150=F|39=1|55=AAPL|48=US0378331005|22=4|207=XNAS|54=1|38=5000|40=2|44=187.2500|59=0|32=1200|31=187.2450|151=3800|14=1200|6=187.2450|60=20261130-14:03:27.123|1=ACC-7781|15=USD|30=XNAS|851=1|58=Partial fill|",
    "35=D|34=7|49=CLIENT|52=20261130-14:03:27.456|56=BROKER|11=CL-1|21=1|55=IBM|54=2|60=20261130-14:03:27.456|38=100|40=2|44=12.5|59=0|18=1 G|",
    "35=0|34=2|49=A|52=20261130-14:03:27|56=B|",
    "35=0|34=2|49=A|52=20261130-14:03:27|56=B|112=TEST|",
    "35=1|34=3|49=A|52=20261130-14:03:27|56=B|112=T1|",
    "35=D|34=7|49=CLIENT|52=20261130-14:03:27.456|56=BROKER|11=CL-1|453=2|448=P1|447=D|452=1|448=P2|447=D|452=3|55=IBM|54=1|60=20261130-14:03:27.456|40=1|",
    "35=A|34=1|49=A|52=20261130-14:03:27|56=B|98=0|108=30|141=Y|",
    "35=5|34=9|49=A|52=20261130-14:03:27|56=B|58=bye|",
    // Groups: a required one (the corpus refresh's, three entries), one of a
    // snapshot, two in one message, one in the header, entries with and without
    // their optional members, and a nested group (the walk's).
    "35=X|34=88123|49=VENUE|52=20261130-14:03:27.123456|56=CLIENT|262=MDREQ-17|268=3|279=2|269=0|55=EUR/USD|270=1.08005|271=1000000|290=1|279=0|269=1|55=EUR/USD|270=1.08015|271=1250000|290=2|279=0|269=0|55=EUR/USD|270=1.08025|271=1500000|290=3|",
    "35=X|34=5|49=VENUE|52=20261130-14:03:27|56=CLIENT|268=2|279=0|270=1.5|279=1|",
    "35=W|34=6|49=VENUE|52=20261130-14:03:27|56=CLIENT|262=R1|55=EUR/USD|268=2|269=0|270=1.1|271=100|269=1|270=1.2|271=200|",
    "35=V|34=7|49=CLIENT|52=20261130-14:03:27|56=VENUE|262=R1|263=1|264=0|267=2|269=0|269=1|146=2|55=EUR/USD|55=GBP/USD|",
    "35=0|34=2|49=A|52=20261130-14:03:27|56=B|627=2|628=H1|629=20261130-14:03:27|630=7|628=H2|",
    "35=8|34=8|49=BROKER|52=20261130-14:03:27|56=CLIENT|37=O1|11=C1|453=1|448=P1|447=D|452=1|17=E1|150=0|39=0|55=IBM|54=1|151=100|14=0|6=0|",
    "35=8|34=8|49=BROKER|52=20261130-14:03:27|56=CLIENT|37=O1|11=C1|453=1|448=P1|447=D|452=1|802=1|523=S|803=1|17=E1|150=0|39=0|55=IBM|54=1|151=100|14=0|6=0|",
    // Entries that require members besides their delimiter (ListSeqNo, Side).
    "35=E|34=9|49=CLIENT|52=20261130-14:03:27|56=BROKER|66=L1|394=1|68=2|73=2|11=C1|67=1|55=IBM|54=1|40=1|11=C2|67=2|55=MSFT|54=2|",
];

/// The tag and value of each field of a body written with `|`.
fn fields_of(body: &str) -> Vec<(u32, Vec<u8>)> {
    body.split('|')
        .filter(|f| !f.is_empty())
        .map(|f| {
            let (tag, value) = f.split_once('=').unwrap();
            (tag.parse().unwrap(), value.as_bytes().to_vec())
        })
        .collect()
}

fn encode(fields: &[(u32, Vec<u8>)]) -> Vec<u8> {
    let mut body = Vec::new();
    for (tag, value) in fields {
        body.extend_from_slice(format!("{tag}=").as_bytes());
        body.extend_from_slice(value);
        body.push(0x01);
    }
    build(&body)
}

/// Damaged copies of a body: each field (after MsgType) dropped, repeated,
/// emptied, given other values, moved to the end or swapped with the next; and
/// foreign tags put in at each place.
fn damaged(fields: &[(u32, Vec<u8>)]) -> Vec<Vec<(u32, Vec<u8>)>> {
    let mut out = vec![fields.to_vec()];
    for i in 1..fields.len() {
        let mut f = fields.to_vec();
        f.remove(i);
        out.push(f);
        let mut f = fields.to_vec();
        f.insert(i, fields[i].clone());
        out.push(f);
        for value in [
            &b""[..],
            b"X",
            b"-1",
            b"1.5",
            b"ZZZ",
            b"20261130-14:03:27",
            b"Y",
            // Counts: none, one more or fewer, a leading zero.
            b"0",
            b"2",
            b"3",
            b"02",
        ] {
            let mut f = fields.to_vec();
            f[i].1 = value.to_vec();
            out.push(f);
        }
        let mut f = fields.to_vec();
        let moved = f.remove(i);
        f.push(moved);
        out.push(f);
        if i + 1 < fields.len() {
            let mut f = fields.to_vec();
            f.swap(i, i + 1);
            out.push(f);
        }
        for foreign in [
            (9999, "1"),
            (5000, "x"),
            (4999, "x"),
            (93, "3"),
            (115, "X"),
            (8, "FIX.4.4"),
            (453, "0"),
            (268, "1"),
            // Members of a group's entries, and delimiters: an entry longer
            // than the first one, an extra or a split entry, a member outside
            // its group.
            (271, "5"),
            (290, "4"),
            (279, "0"),
            (269, "1"),
            (448, "P3"),
            (628, "H3"),
        ] {
            let mut f = fields.to_vec();
            f.insert(i, (foreign.0, foreign.1.as_bytes().to_vec()));
            out.push(f);
        }
    }
    for msg_type in ["ZZ", "8", "D", "AE", "0"] {
        let mut f = fields.to_vec();
        f[0].1 = msg_type.as_bytes().to_vec();
        out.push(f);
    }
    out
}

fn validators() -> [Validator; 5] {
    [
        Validator::new(),
        Validator::new().validate_fields_out_of_order(false),
        Validator::new().validate_fields_have_values(false),
        Validator::new().validate_user_defined_fields(false),
        Validator::new().allow_unknown_msg_fields(true),
    ]
}

/// Both ways answer alike for `bytes`, under every setting; returns whether the
/// message passed the default validator.
fn same_answer(bytes: &[u8]) -> Option<bool> {
    let parser = Parser::new()
        .with_data_fields(fix44::DATA_FIELDS)
        .with_empty_values(true);
    let mut fields = Fields::<256>::new();
    let msg = parser.parse(bytes, &mut fields).ok()?.complete()?;
    for validator in validators() {
        assert_eq!(
            validator.validate(&fix44::DICTIONARY, &msg),
            validator.validate(&WalkOnly, &msg),
            "{validator:?} on {}",
            bytes.escape_ascii()
        );
    }
    Some(Validator::new().validate(&fix44::DICTIONARY, &msg).is_ok())
}

#[test]
fn the_fast_path_answers_as_the_walk() {
    let mut checked = 0;
    for body in BODIES {
        let fields = fields_of(body);
        assert_eq!(same_answer(&encode(&fields)), Some(true), "{body}");
        for f in damaged(&fields) {
            checked += usize::from(same_answer(&encode(&f)).is_some());
        }
    }
    assert!(checked > 1000, "{checked} messages checked");
}

/// fix44's tables, dense ones included, counting the walk's lookups of a
/// field's checks (the fast path reads the `checks` table instead): none means the
/// fast path decided alone.
struct Counting(std::cell::Cell<usize>);

impl Schema for Counting {
    type Layout = fix_core::typed::Level;

    fn begin_string(&self) -> Option<&[u8]> {
        fix44::DICTIONARY.begin_string()
    }
    fn field_format(&self, tag: u32) -> Option<ValueFormat> {
        self.0.set(self.0.get() + 1);
        fix44::DICTIONARY.field_format(tag)
    }
    fn field_info(&self, tag: u32) -> Option<fix_core::validate::FieldInfo> {
        self.0.set(self.0.get() + 1);
        fix44::DICTIONARY.field_info(tag)
    }
    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        fix44::DICTIONARY.value_allowed(tag, value)
    }
    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        fix44::DICTIONARY.byte_set(tag)
    }
    fn value_ok(&self, tag: u32, bytes: &[u8], range: std::ops::Range<usize>) -> bool {
        fix44::DICTIONARY.value_ok(tag, bytes, range)
    }
    fn dense(&self, msg_type: &[u8]) -> Option<fix_core::validate::Dense<'_>> {
        fix44::DICTIONARY.dense(msg_type)
    }
    fn header_layout(&self) -> &Self::Layout {
        fix44::DICTIONARY.header_layout()
    }
    fn trailer_layout(&self) -> &Self::Layout {
        fix44::DICTIONARY.trailer_layout()
    }
    fn body_layout(&self, msg_type: &[u8]) -> Option<&Self::Layout> {
        fix44::DICTIONARY.body_layout(msg_type)
    }
}

/// The messages above pass by the fast path alone, groups included (their
/// entries checked against the group's layout, or as the first entry's shape),
/// except the one whose group holds a group, which the walk decides.
#[test]
fn the_fast_path_passes_groups_alone() {
    let parser = Parser::new().with_data_fields(fix44::DATA_FIELDS);
    for body in BODIES {
        let bytes = encode(&fields_of(body));
        let mut fields = Fields::<256>::new();
        let msg = parser
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let counting = Counting(std::cell::Cell::new(0));
        assert_eq!(Validator::new().validate(&counting, &msg), Ok(()), "{body}");
        let nested = body.contains("|802=");
        assert_eq!(counting.0.get() == 0, !nested, "{body}");
    }
}

#[test]
fn corpus_messages_answer_as_the_walk() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    for (stem, bytes) in fix_test_support::files::corpus() {
        assert!(same_answer(&bytes).is_some(), "{stem}");
    }
}

/// Every message of fix44 whose view can be filled by tag has a dense table, and
/// its slot sets name the view's required slots and group counters.
#[test]
fn dense_tables_match_the_views() {
    for def in fix44::MESSAGES {
        let Some(dense) = fix44::DICTIONARY.dense(def.msg_type) else {
            panic!("{} has no dense table", def.name);
        };
        assert_eq!(dense.slot_of.is_empty(), def.slot_of.is_empty());
        assert_eq!(dense.body, fix44::HEADER.len());
        assert_eq!(dense.trailer + fix44::TRAILER.len(), def.view.len());
        assert!(dense.sets.msg_type_ok(), "{}", def.name);
        assert!(dense.sets.covers(), "{}", def.name);
        for slot in 0..def.view.len() {
            let bit = |set: &[u64; 8]| set[slot / 64] >> (slot % 64) & 1 == 1;
            let tag = def.view.tags[slot];
            let required = def.view.required.contains(&(slot as u16));
            assert_eq!(bit(&dense.sets.required), required, "{} {tag}", def.name);
            let group = def.view.groups.iter().any(|&(s, _)| usize::from(s) == slot);
            assert_eq!(bit(&dense.sets.groups), group, "{} {tag}", def.name);
        }
        // The header's and trailer's required members are the view's first and
        // last, as the walk checks them against the dictionary's own levels.
        let mut header_required = Vec::new();
        fix44::DICTIONARY
            .header_layout()
            .for_each_required(&mut |t, _| {
                header_required.push(t);
                true
            });
        let view_required: Vec<u32> = def
            .view
            .required_tags()
            .filter(|&t| fix44::HEADER.contains(t))
            .collect();
        assert_eq!(view_required, header_required, "{}", def.name);
    }
}

/// The generated `checks` table answers each field's value checks as the
/// dictionary's field entries do (the default `Schema::value_ok`): for every
/// field, its listed values, values joined by spaces, and values of other types.
#[test]
fn checks_table_answers_as_the_fields() {
    let others: &[&[u8]] = &[
        b"X",
        b"1",
        b"0",
        b"Y",
        b"N",
        b"-1",
        b"1.5",
        b"ABC",
        b"US",
        b"USD",
        b"XNAS",
        b"20261130-14:03:27",
        b"20261130",
        b"14:03:27",
        b"202611",
        b"1 2",
        b"A B",
        b"AE",
        b"8",
        b"D",
        b"ZZ",
        b"\x7f",
        b"a b c",
    ];
    for f in fix44::FIELDS {
        let joined = f
            .values
            .iter()
            .take(3)
            .copied()
            .collect::<Vec<_>>()
            .join(&b' ');
        let values = f
            .values
            .iter()
            .copied()
            .chain(others.iter().copied())
            .chain([&joined[..]]);
        for value in values.filter(|v| !v.is_empty()) {
            let bytes = [b"99=", value, b"\x01"].concat();
            let range = 3..3 + value.len();
            assert_eq!(
                fix44::DICTIONARY.value_ok(f.tag, &bytes, range.clone()),
                WalkOnly.value_ok(f.tag, &bytes, range),
                "{} {}",
                f.name,
                value.escape_ascii()
            );
        }
    }
}
