//! QuickFIX C++ in the decode + validate groups, through the `quickfix` crate (0.2),
//! behind the `quickfix` feature: the crate builds QuickFIX from source with cmake.
//!
//! What the crate exposes decides what is timed. `DataDictionary::try_build_message`
//! is QuickFIX's `Message(text, dictionary, validate = true)`: every field is parsed
//! into the message's field maps, the dictionary places repeating groups and sizes
//! data fields (RawData), the first three tags must be 8, 9, 35, and BodyLength and
//! CheckSum are checked. The crate does not expose `DataDictionary::validate` (what a
//! QuickFIX session runs on a received message: required fields, formats, enumerated
//! values, tags defined for the message), so none of that is timed. The closest of
//! ours is therefore `"ours, parse only"`, not `"ours"`; the note of the case says so.
//!
//! The dictionary QuickFIX loads is ours, `spec/FIX44.xml` (QuickFIX's own XML
//! format), so both libraries read the same definitions.

use super::{Case, all_fields, body_only, corpus};
use fix_core::typed::{self, Level};
use quickfix::{DataDictionary, FieldMap, Group, Message};
use std::hint::black_box;
use std::path::PathBuf;
use std::rc::Rc;

/// The lib name of the QuickFIX case in every group it joins.
pub(super) const LIB: &str = "QuickFIX C++";

/// QuickFIX's `DataDictionary`, loaded from the repository's `spec/FIX44.xml`.
pub(super) fn dictionary() -> Rc<DataDictionary> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec/FIX44.xml");
    let dict = DataDictionary::try_from_path(&path)
        .unwrap_or_else(|e| panic!("QuickFIX: {}: {e:?}", path.display()));
    Rc::new(dict)
}

/// Adds the QuickFIX case of one decode + validate group, after checking that
/// QuickFIX read every value of the corpus message `stem` as ours does.
pub(super) fn decode_case(
    out: &mut Vec<Case>,
    group: &'static str,
    stem: &str,
    dict: &Rc<DataDictionary>,
) {
    let bytes = corpus(stem);
    // The crate takes `&str` (and copies it into a CString, timed with the rest):
    // the corpus is ASCII, RawData's SOH bytes included, and has no NUL.
    let text: Rc<str> = std::str::from_utf8(&bytes)
        .unwrap_or_else(|e| panic!("{stem}: {e}"))
        .into();
    let msg = dict
        .try_build_message(&text)
        .unwrap_or_else(|e| panic!("QuickFIX {stem}: {e:?}"));
    check(stem, &bytes, &msg);
    // The note says QuickFIX checks the CheckSum here: one off must be rejected.
    // The text ends `10=NNN<SOH>`; change the last digit.
    let last = text.len() - 2;
    let wrong = match text.as_bytes()[last] {
        b'9' => '0',
        d => char::from(d + 1),
    };
    let corrupt = format!("{}{wrong}\x01", &text[..last]);
    assert!(
        dict.try_build_message(&corrupt).is_err(),
        "QuickFIX {stem}: accepted a wrong CheckSum"
    );

    let d = dict.clone();
    out.push(Case::new(
        group,
        LIB,
        "quickfix 0.2 DataDictionary::try_build_message: the &str copied into a CString and then a \
         std::string, QuickFIX's Message(text, spec/FIX44.xml dictionary, validate = true): every field parsed into the message's \
         field maps, groups and RawData placed by the dictionary, the first tags 8, 9, 35 and BodyLength \
         and CheckSum checked; then the Message freed. The crate does not expose DataDictionary::validate, \
         so no required-field, format or value checks: compare with \"ours, parse only\"",
        move || {
            let msg = d.try_build_message(black_box(&text)).unwrap();
            black_box(&msg);
            text.len() as u64
        },
    ));
}

/// A field of the message as ours reads it, with group entries nested under their
/// counter by fix44's tables (generated from the same `spec/FIX44.xml`).
#[derive(Debug)]
enum Node {
    /// A field: tag and value.
    Field(u32, Vec<u8>),
    /// The entries of the group whose counter (a `Field` just before) is this tag.
    Group(u32, Vec<Vec<Node>>),
}

/// Nests `fields[*i..]` at `level` until a field that does not belong to it, or (in
/// a group entry) the entry's delimiter again.
fn nest(
    fields: &[(u32, Vec<u8>)],
    i: &mut usize,
    level: &Level,
    delimiter: Option<u32>,
) -> Vec<Node> {
    let mut nodes = Vec::new();
    while let Some((tag, value)) = fields.get(*i) {
        let next_entry = !nodes.is_empty() && Some(*tag) == delimiter;
        if next_entry || (delimiter.is_some() && !level.contains(*tag)) {
            break;
        }
        *i += 1;
        nodes.push(Node::Field(*tag, value.clone()));
        if let Some(g) = level.group(*tag) {
            nodes.push(Node::Group(*tag, entries(fields, i, g)));
        }
    }
    nodes
}

/// The entries of group `g`, each starting with its delimiter.
fn entries(fields: &[(u32, Vec<u8>)], i: &mut usize, g: &typed::Group) -> Vec<Vec<Node>> {
    let mut out = Vec::new();
    while fields.get(*i).is_some_and(|(t, _)| *t == g.delimiter) {
        out.push(nest(fields, i, &g.entry, Some(g.delimiter)));
    }
    out
}

/// The lookups the check needs from a QuickFIX field map (message section or group).
trait Lookup {
    fn value(&self, tag: u32) -> Option<String>;
    fn entry(&self, index: usize, counter: u32) -> Option<Group>;
}

impl<T: FieldMap> Lookup for T {
    fn value(&self, tag: u32) -> Option<String> {
        self.get_field(tag as i32)
    }

    fn entry(&self, index: usize, counter: u32) -> Option<Group> {
        // QuickFIX numbers group entries from 1.
        self.clone_group(index as i32 + 1, counter as i32)
    }
}

/// Asserts that QuickFIX's `map` holds `nodes`: every value, and every group with
/// exactly its entries.
fn check_nodes(stem: &str, map: &dyn Lookup, nodes: &[Node]) {
    for node in nodes {
        match node {
            Node::Field(tag, value) => assert_eq!(
                map.value(*tag),
                Some(String::from_utf8_lossy(value).into_owned()),
                "QuickFIX {stem}: tag {tag}"
            ),
            Node::Group(counter, entries) => {
                for (k, entry) in entries.iter().enumerate() {
                    let g = map.entry(k, *counter).unwrap_or_else(|| {
                        panic!("QuickFIX {stem}: no entry {k} of group {counter}")
                    });
                    check_nodes(stem, &g, entry);
                }
                assert!(
                    map.entry(entries.len(), *counter).is_none(),
                    "QuickFIX {stem}: group {counter} has more than {} entries",
                    entries.len()
                );
            }
        }
    }
}

/// Checks QuickFIX's reading of `bytes` against ours: every field in the section
/// fix44 puts it in (header, body, trailer), group entries through QuickFIX's group
/// API, and QuickFIX's own serialization of the message holding the same fields.
fn check(stem: &str, bytes: &[u8], msg: &Message) {
    let all = all_fields(bytes);
    let msg_type = all
        .iter()
        .find(|(t, _)| *t == 35)
        .map(|(_, v)| v.as_slice());
    let def = msg_type
        .and_then(|mt| fix44::DICTIONARY.message(mt))
        .unwrap_or_else(|| panic!("{stem}: MsgType not in fix44"));
    let list = body_only(all);
    let mut i = 0;
    let nodes = nest(&list, &mut i, &def.view, None);
    assert_eq!(i, list.len(), "{stem}: nested every field");

    // Header and trailer fields by fix44's tables, the rest in the body.
    let (header, trailer) = (fix44::DICTIONARY.header, fix44::DICTIONARY.trailer);
    let mut sections: [Vec<Node>; 3] = Default::default();
    let mut last = 1;
    for node in nodes {
        let s = match &node {
            Node::Field(t, _) if header.contains(*t) => 0,
            Node::Field(t, _) if trailer.contains(*t) => 2,
            Node::Field(..) => 1,
            // A group's entries go where its counter went.
            Node::Group(..) => last,
        };
        last = s;
        sections[s].push(node);
    }
    msg.with_header(|h| check_nodes(stem, h, &sections[0]));
    check_nodes(stem, msg, &sections[1]);
    msg.with_trailer(|t| check_nodes(stem, t, &sections[2]));

    // Nothing more: QuickFIX writes the message back (in its own field order) with
    // the same fields, BodyLength and CheckSum. Its buffer ends with a NUL.
    let mut written = msg.to_fix_raw_bytes().unwrap();
    assert_eq!(written.pop(), Some(0), "QuickFIX {stem}: NUL-terminated");
    let sorted = |b: &[u8]| {
        let mut all = all_fields(b);
        all.sort();
        all
    };
    assert_eq!(
        sorted(&written),
        sorted(bytes),
        "QuickFIX {stem}: written back"
    );
}
