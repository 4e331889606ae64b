//! Reads and resolves the nine QuickFIX reference dictionaries from
//! `../shared/reference/quickfix/spec/` (relative to the workspace root; they
//! are read-only fixtures and are never copied into this repository).

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use fix_dict::DiagnosticKind;
use fix_dict::{Category, DataFieldPair, Dictionary, FieldType, Layout, Protocol};

fn spec_dir() -> PathBuf {
    fix_test_support::files::quickfix_dir().join("spec")
}

/// Each dictionary is read once per test binary (FIX50SP2 is 1.4 MB and the
/// tests run unoptimised).
fn load(name: &str) -> &'static Dictionary {
    static LOADED: [OnceLock<Dictionary>; 9] = [const { OnceLock::new() }; 9];
    let index = DICTIONARIES
        .iter()
        .position(|d| d.0 == name)
        .unwrap_or_else(|| panic!("{name} is not a reference dictionary"));
    LOADED[index].get_or_init(|| {
        let path = spec_dir().join(format!("{name}.xml"));
        Dictionary::from_path(&path).unwrap_or_else(|e| panic!("{name}:\n{e}"))
    })
}

/// `(file, messages, allowed warnings)`: the genuine quirks of the reference
/// dictionaries, reported as warnings.
const DICTIONARIES: &[(&str, usize, &[&str])] = &[
    // FIX 4.0-4.3 predate NUMINGROUP: group counters are typed INT.
    ("FIX40", 27, &["CounterNotNumInGroup"]),
    ("FIX41", 28, &["CounterNotNumInGroup"]),
    ("FIX42", 46, &["CounterNotNumInGroup"]),
    // FIX43: NoClearingInstructions is INT; a message lists OwnershipType
    // twice.
    ("FIX43", 68, &["CounterNotNumInGroup", "DuplicateMember"]),
    ("FIX44", 93, &[]),
    // FIX50: LegOptionRatio/LegPrice appear both in a leg group and in a
    // component the group includes.
    ("FIX50", 93, &["DuplicateMember"]),
    ("FIX50SP1", 105, &[]),
    ("FIX50SP2", 156, &[]),
    ("FIXT11", 8, &[]),
];

fn kind_name(kind: &DiagnosticKind) -> &'static str {
    match kind {
        DiagnosticKind::CounterNotNumInGroup {
            found: FieldType::Int,
        } => "CounterNotNumInGroup",
        DiagnosticKind::DuplicateMember { .. } => "DuplicateMember",
        _ => "other",
    }
}

/// Structural invariants of a layout, recursively.
fn check_layout(dict: &Dictionary, layout: &Layout, context: &str) {
    let mut seen = HashSet::new();
    for f in layout.fields() {
        assert!(dict.is_defined(f.tag), "{context}: tag {} undefined", f.tag);
        assert!(seen.insert(f.tag), "{context}: tag {} twice", f.tag);
        assert!(layout.contains(f.tag));
        assert_eq!(layout.group(f.tag).is_some(), f.group.is_some());
    }
    for g in layout.groups() {
        assert_eq!(layout.group(g.counter), Some(g));
        assert_eq!(g.entry.fields().first().map(|f| f.tag), Some(g.delimiter));
        let ty = dict.field_type(g.counter);
        assert!(
            matches!(ty, Some(FieldType::NumInGroup | FieldType::Int)),
            "{context}: counter {} is {ty:?}",
            g.counter
        );
        check_layout(dict, &g.entry, context);
    }
}

#[test]
fn all_reference_dictionaries_resolve() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    for &(name, messages, allowed) in DICTIONARIES {
        let dict = load(name);
        assert_eq!(dict.messages().len(), messages, "{name}");
        for w in dict.warnings() {
            assert!(
                allowed.contains(&kind_name(&w.kind)),
                "{name}: unexpected warning {w}"
            );
        }
        for &kind in allowed {
            assert!(
                dict.warnings().iter().any(|w| kind_name(&w.kind) == kind),
                "{name}: expected a {kind} warning"
            );
        }
        check_layout(dict, dict.header().layout(), name);
        check_layout(dict, dict.trailer().layout(), name);
        for m in dict.messages() {
            check_layout(dict, m.layout(), &format!("{name} {}", m.name));
            assert_eq!(
                dict.message(m.msg_type.as_bytes()).map(|x| &x.name),
                Some(&m.name)
            );
        }
        for f in dict.fields() {
            assert_eq!(dict.field_by_name(&f.name).map(|x| x.tag), Some(f.tag));
            for v in &f.values {
                assert!(
                    f.accepts(v.value.as_bytes()),
                    "{name} {} {}",
                    f.name,
                    v.value
                );
            }
        }
        for p in dict.data_pairs() {
            assert_eq!(dict.field_type(p.length), Some(FieldType::Length));
            assert!(dict.field_type(p.data).is_some_and(FieldType::is_data));
        }
    }
}

#[test]
fn fix44_facts() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let d = load("FIX44");
    assert_eq!(d.version().to_string(), "FIX.4.4");
    assert_eq!(d.messages().len(), 93);
    assert_eq!(d.fields().len(), 912);

    let symbol = d.field(55).unwrap();
    assert_eq!(
        (symbol.name.as_str(), symbol.ty),
        ("Symbol", FieldType::String)
    );
    let side = d.field_by_name("Side").unwrap();
    assert_eq!(side.tag, 54);
    assert_eq!(side.value(b"1").unwrap().description, "BUY");
    assert_eq!(d.value_allowed(54, b"2"), Some(true));
    assert_eq!(d.value_allowed(54, b"Z"), Some(false));

    let er = d.message(b"8").unwrap();
    assert_eq!(
        (er.name.as_str(), er.category),
        ("ExecutionReport", Category::App)
    );
    let body = er.layout();
    for tag in [37, 17, 150, 39, 54, 151, 14, 6] {
        assert!(body.is_required(tag), "ExecutionReport requires {tag}");
    }
    assert!(body.contains(55) && body.contains(11) && !body.contains(35));
    let parties = body.group(453).expect("NoPartyIDs");
    assert_eq!(parties.delimiter, 448);
    assert_eq!(
        parties.entry.tags().collect::<Vec<_>>(),
        [448, 447, 452, 802]
    );
    let subs = parties.entry.group(802).expect("NoPartySubIDs");
    assert_eq!(
        (subs.delimiter, subs.entry.tags().collect::<Vec<_>>()),
        (523, vec![523, 803])
    );

    assert_eq!(d.message(b"A").unwrap().category, Category::Admin);
    assert_eq!(d.message(b"0").unwrap().name, "Heartbeat");

    for tag in [8, 9, 35, 49, 56, 34, 52] {
        assert!(d.header().layout().is_required(tag), "header {tag}");
    }
    assert!(d.is_header_tag(627) && d.header().layout().group(627).is_some());
    assert!(d.is_trailer_tag(10) && d.is_trailer_tag(93) && d.is_trailer_tag(89));
    assert!(!d.is_header_tag(55));

    let expected: Vec<DataFieldPair> = [
        (90, 91),
        (93, 89),
        (95, 96),
        (212, 213),
        (348, 349),
        (350, 351),
        (352, 353),
        (354, 355),
        (356, 357),
        (358, 359),
        (360, 361),
        (362, 363),
        (364, 365),
        (445, 446),
        (618, 619),
        (621, 622),
    ]
    .map(|(length, data)| DataFieldPair { length, data })
    .to_vec();
    assert_eq!(d.data_pairs(), expected);
    assert_eq!(d.length_tag_for_data(89), Some(93));
}

#[test]
fn fix50sp2_and_fixt11_facts() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let d = load("FIX50SP2");
    assert_eq!(d.version().to_string(), "FIX.5.0SP2");
    assert!(d.header().layout().is_empty() && d.trailer().layout().is_empty());
    let er = d.message(b"8").unwrap();
    assert_eq!(er.layout().group(453).map(|g| g.delimiter), Some(448));
    assert_eq!(d.field(1128).map(|f| f.name.as_str()), Some("ApplVerID"));

    let t = load("FIXT11");
    assert_eq!(t.version().protocol, Protocol::Fixt);
    assert_eq!(t.version().to_string(), "FIXT.1.1");
    assert!(t.is_header_tag(1128) && t.is_header_tag(35));
    assert_eq!(t.message(b"A").unwrap().category, Category::Admin);
    assert!(t.message(b"A").unwrap().layout().is_required(1137));
}

#[test]
fn old_dictionaries_report_int_counters_with_positions() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let d = load("FIX42");
    let w = &d.warnings()[0];
    assert!(w.file.ends_with("FIX42.xml"));
    assert_eq!((w.pos.line, w.pos.column), (90, 4));
    assert_eq!(w.element, "group");
    assert_eq!(w.name.as_deref(), Some("NoIOIQualifiers"));
    let er = d.message(b"8").unwrap();
    assert!(er.layout().group(382).is_some(), "NoContraBrokers");
}

/// Every listed value of every field of every reference dictionary is found at its
/// own position by `value_position` (one-byte sets, packed values and long ones
/// alike), and values that are not listed are not found.
#[test]
fn listed_values_are_found_at_their_positions() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    for &(name, _, _) in DICTIONARIES {
        let d = load(name);
        for (position, f) in d.fields().iter().enumerate() {
            assert_eq!(d.field_position(f.tag), Some(position), "{name} {}", f.tag);
            for (i, v) in f.values.iter().enumerate() {
                let bytes = v.value.as_bytes();
                assert_eq!(
                    d.value_position(position, bytes),
                    Some(i),
                    "{name} {} {}",
                    f.tag,
                    v.value
                );
                assert_eq!(d.value_allowed(f.tag, bytes), Some(true));
                let mut unlisted = bytes.to_vec();
                unlisted.push(b'~');
                assert_eq!(
                    d.value_position(position, &unlisted),
                    None,
                    "{name} {}",
                    f.tag
                );
            }
            if f.values.is_empty() {
                assert_eq!(d.value_position(position, b"1"), None);
            } else {
                assert_eq!(d.value_position(position, b"~"), None, "{name} {}", f.tag);
            }
        }
    }
}

/// The BeginString each reference dictionary's messages carry: its own version
/// for FIX 4.x, FIXT.1.1 for the transport and for every FIX 5.0 application
/// dictionary that rides on it.
#[test]
fn every_dictionary_knows_its_begin_string() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    use fix_core::validate::Schema;
    let expected = [
        ("FIX40", "FIX.4.0"),
        ("FIX41", "FIX.4.1"),
        ("FIX42", "FIX.4.2"),
        ("FIX43", "FIX.4.3"),
        ("FIX44", "FIX.4.4"),
        ("FIX50", "FIXT.1.1"),
        ("FIX50SP1", "FIXT.1.1"),
        ("FIX50SP2", "FIXT.1.1"),
        ("FIXT11", "FIXT.1.1"),
    ];
    assert_eq!(expected.len(), DICTIONARIES.len());
    for (name, begin_string) in expected {
        let d = load(name);
        assert_eq!(d.version().begin_string(), begin_string, "{name}");
        assert_eq!(
            d.begin_string(),
            Some(begin_string.as_bytes()),
            "{name}: the validator's BeginString"
        );
    }
}

/// Messages on the FIXT.1.1 transport pass the BeginString check of both
/// dictionaries a FIX 5.0 session uses (FIXT11 for the session, FIX50SP2 for
/// the application); a FIX 4.4 message passes neither.
#[test]
fn fixt_sessions_check_the_transport_s_begin_string() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    use fix_core::validate::{Invalid, Validator};
    use fix_core::{Fields, Parser};
    use fix_test_support::naive::{build_with, soh};
    let heartbeat = soh("35=0|34=2|49=A|52=20261130-14:03:27.000|56=B|");
    let transport = load("FIXT11");
    let application = load("FIX50SP2");
    let mut fields = Fields::<32>::new();
    let fixt = build_with("FIXT.1.1", &heartbeat);
    let msg = Parser::new()
        .parse(&fixt, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(Validator::new().validate(transport, &msg), Ok(()));
    // FIX50SP2 alone has no header or Heartbeat: it rejects the message, but as
    // its own, not as another version's.
    let app = Validator::new().validate(application, &msg);
    assert!(app.unwrap_err().reject().is_some(), "{app:?}");
    let fix44 = build_with("FIX.4.4", &heartbeat);
    let msg = Parser::new()
        .parse(&fix44, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    for dict in [transport, application] {
        assert_eq!(
            Validator::new().validate(dict, &msg),
            Err(Invalid::IncorrectBeginString {
                begin_string: fix_core::validate::Echo::new(b"FIX.4.4"),
                msg_type: fix_core::validate::Echo::new(b"0")
            })
        );
    }
}

/// FIX50SP2 over FIXT11 as one dictionary (what the fix50sp2 crate is generated
/// from): the transport's header, trailer and session-level messages, the
/// application's messages; a field both define is the transport's in the header
/// and the application's elsewhere, as a FIXT.1.1 session validates.
#[test]
fn fix50sp2_over_fixt11_is_one_dictionary_of_both() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    use fix_core::validate::Validator;
    use fix_core::{Fields, Parser};
    use fix_test_support::naive::{build_with, soh};
    let dict = Dictionary::from_fixt_paths(
        spec_dir().join("FIXT11.xml"),
        spec_dir().join("FIX50SP2.xml"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(dict.version().to_string(), "FIX.5.0SP2");
    assert_eq!(dict.version().appl_ver_id(), Some("9"));
    let (transport, application) = (load("FIXT11"), load("FIX50SP2"));
    assert_eq!(
        dict.messages().len(),
        transport.messages().len() + application.messages().len()
    );
    assert_eq!(dict.message(b"A").unwrap().category, Category::Admin);
    assert_eq!(dict.message(b"D").unwrap().category, Category::App);
    assert_eq!(
        dict.header().layout().tags().collect::<Vec<_>>(),
        transport.header().layout().tags().collect::<Vec<_>>()
    );
    // ApplVerID (1128) is a header field: FIXT11's values (0-9), not FIX50SP2's
    // (0-10); XmlData (213) FIXT11's DATA, not FIX50SP2's XMLDATA.
    assert!(dict.value_allowed(1128, b"9").unwrap());
    assert!(!dict.value_allowed(1128, b"10").unwrap());
    assert_eq!(dict.field_type(213), transport.field_type(213));
    // SessionStatus (1409) is not: FIX50SP2's values (0-10).
    assert!(dict.value_allowed(1409, b"10").unwrap());
    // Every field of either is defined.
    for f in transport.fields().iter().chain(application.fields()) {
        assert!(dict.is_defined(f.tag), "{} ({})", f.name, f.tag);
    }
    // A Logon and a NewOrderSingle of a FIXT.1.1 session both validate.
    let mut fields = Fields::<64>::new();
    for body in [
        "35=A|34=1|49=A|52=20261130-14:03:27.000|56=B|98=0|108=30|1137=9|",
        "35=D|34=2|49=A|52=20261130-14:03:27.000|56=B|1128=9|11=O1|55=X|54=1|60=20261130-14:03:27.000|40=1|",
    ] {
        let bytes = build_with("FIXT.1.1", &soh(body));
        let msg = Parser::new()
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        assert_eq!(Validator::new().validate(&dict, &msg), Ok(()), "{body}");
    }
}
