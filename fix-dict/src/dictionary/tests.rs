//! Unit tests of resolution and validation: each bad dictionary asserts the
//! exact diagnostic and its position.

use super::*;
use crate::diagnostic::{Definition, ValueProblem};

/// Standard fields for the small dictionaries below, one per line from
/// line 2 of the `<fields>` block.
const FIELDS: &str = "\
<field number='11' name='ClOrdID' type='STRING'/>
<field number='54' name='Side' type='CHAR'><value enum='1' description='BUY'/><value enum='2' description='SELL'/></field>
<field number='55' name='Symbol' type='STRING'/>
<field number='448' name='PartyID' type='STRING'/>
<field number='452' name='PartyRole' type='INT'/>
<field number='453' name='NoPartyIDs' type='NUMINGROUP'/>
<field number='802' name='NoPartySubIDs' type='NUMINGROUP'/>
<field number='523' name='PartySubID' type='STRING'/>
<field number='95' name='RawDataLength' type='LENGTH'/>
<field number='96' name='RawData' type='DATA'/>
<field number='58' name='Text' type='STRING'/>";

/// A dictionary whose first line is `<fix>`, then `body` (starting on line
/// 2), then `<fields>` with [`FIELDS`] and `extra_fields`.
fn dict(body: &str, extra_fields: &str) -> String {
    format!(
        "<fix type='FIX' major='4' minor='4'>\n{body}\n<fields>\n{FIELDS}\n{extra_fields}\n</fields>\n</fix>\n"
    )
}

fn resolved(text: &str) -> Resolved {
    let doc = crate::xml::parse("t.xml", text).unwrap_or_else(|d| panic!("{d}"));
    resolve(&doc)
}

/// `(severity, line, column, element, name, kind)` of every diagnostic.
type Brief = (Severity, u32, u32, String, Option<String>, DiagnosticKind);

fn briefs(text: &str) -> Vec<Brief> {
    resolved(text)
        .diagnostics
        .into_iter()
        .map(|d| {
            (
                d.severity,
                d.pos.line,
                d.pos.column,
                d.element,
                d.name,
                d.kind,
            )
        })
        .collect()
}

fn brief(
    sev: Severity,
    line: u32,
    col: u32,
    element: &str,
    name: &str,
    kind: DiagnosticKind,
) -> Brief {
    let name = (!name.is_empty()).then(|| name.to_owned());
    (sev, line, col, element.to_owned(), name, kind)
}

/// Like [`brief`], for an element whose name attribute is present but empty.
fn brief_some(
    sev: Severity,
    line: u32,
    col: u32,
    element: &str,
    name: &str,
    kind: DiagnosticKind,
) -> Brief {
    (
        sev,
        line,
        col,
        element.to_owned(),
        Some(name.to_owned()),
        kind,
    )
}

use Severity::{Error, Warning};

fn ok(text: &str) -> Dictionary {
    Dictionary::from_xml("t.xml", text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn clean_dictionary_has_no_diagnostics() {
    let text = dict(
        "<messages>\n<message name='NewOrderSingle' msgtype='D' msgcat='app'>\
         <field name='ClOrdID' required='Y'/><field name='Side' required='Y'/></message>\n</messages>",
        "",
    );
    assert_eq!(briefs(&text), []);
    let d = ok(&text);
    assert_eq!(d.fields().len(), 11);
    assert!(d.warnings().is_empty());
}

#[test]
fn undefined_references() {
    let text = dict(
        "<messages>\n\
         <message name='M' msgtype='M' msgcat='app'>\n\
         \x20 <field name='Nope' required='Y'/>\n\
         \x20 <component name='Missing' required='N'/>\n\
         \x20 <group name='NoThings' required='N'><field name='Side' required='Y'/><field name='Gone'/></group>\n\
         </message>\n</messages>",
        "",
    );
    assert_eq!(
        briefs(&text),
        [
            brief(
                Error,
                4,
                3,
                "field",
                "Nope",
                DiagnosticKind::UndefinedField("Nope".into())
            ),
            brief(
                Error,
                5,
                3,
                "component",
                "Missing",
                DiagnosticKind::UndefinedComponent("Missing".into())
            ),
            brief(
                Error,
                6,
                3,
                "group",
                "NoThings",
                DiagnosticKind::UndefinedField("NoThings".into())
            ),
            brief(
                Error,
                6,
                72,
                "field",
                "Gone",
                DiagnosticKind::UndefinedField("Gone".into())
            ),
        ]
    );
    let err = Dictionary::from_xml("t.xml", &text).unwrap_err();
    assert_eq!(
        err.0[0].to_string(),
        "t.xml:4:3: error: <field name=\"Nope\">: field `Nope` is not defined in <fields>"
    );
}

#[test]
fn duplicate_definitions() {
    let text = dict(
        "<messages>\n\
         <message name='A' msgtype='A' msgcat='admin'/>\n\
         <message name='A' msgtype='B' msgcat='admin'/>\n\
         <message name='C' msgtype='A' msgcat='admin'/>\n\
         </messages>\n\
         <components>\n\
         <component name='P'/>\n\
         <component name='P'/>\n\
         </components>",
        "<field number='55' name='Symbol2' type='STRING'/>\n\
         <field number='56' name='Symbol' type='STRING'/>\n\
         <field number='11' name='ClOrdID' type='STRING'/>",
    );
    // <fields> starts at line 11; FIELDS takes lines 12-22.
    let field = |line| Pos::new(line, 1);
    assert_eq!(
        briefs(&text),
        [
            brief(
                Error,
                4,
                1,
                "message",
                "A",
                DiagnosticKind::DuplicateName {
                    what: Definition::Message,
                    first: Pos::new(3, 1)
                }
            ),
            brief(
                Error,
                5,
                1,
                "message",
                "C",
                DiagnosticKind::DuplicateMsgType {
                    msg_type: "A".into(),
                    first: Pos::new(3, 1)
                }
            ),
            brief(
                Error,
                9,
                1,
                "component",
                "P",
                DiagnosticKind::DuplicateName {
                    what: Definition::Component,
                    first: Pos::new(8, 1)
                }
            ),
            brief(
                Error,
                23,
                1,
                "field",
                "Symbol2",
                DiagnosticKind::DuplicateTag {
                    tag: 55,
                    first: field(14)
                }
            ),
            brief(
                Error,
                24,
                1,
                "field",
                "Symbol",
                DiagnosticKind::DuplicateName {
                    what: Definition::Field,
                    first: field(14)
                }
            ),
            brief(
                Error,
                25,
                1,
                "field",
                "ClOrdID",
                DiagnosticKind::DuplicateName {
                    what: Definition::Field,
                    first: field(12)
                }
            ),
            brief(
                Error,
                25,
                1,
                "field",
                "ClOrdID",
                DiagnosticKind::DuplicateTag {
                    tag: 11,
                    first: field(12)
                }
            ),
        ]
    );
    // The first definitions win.
    let r = resolved(&text);
    assert_eq!(r.dictionary.field(55).unwrap().name, "Symbol");
    assert_eq!(r.dictionary.message(b"A").unwrap().name, "A");
    assert!(r.dictionary.message(b"B").is_none());
    assert_eq!(r.dictionary.components().len(), 1);
}

#[test]
fn group_counter_must_be_numingroup() {
    let text = dict(
        "<header>\n\
         <group name='Symbol' required='N'><field name='Text'/></group>\n\
         <group name='PartyRole' required='N'><field name='Text'/></group>\n\
         </header>",
        "",
    );
    assert_eq!(
        briefs(&text),
        [
            brief(
                Error,
                3,
                1,
                "group",
                "Symbol",
                DiagnosticKind::CounterNotNumInGroup {
                    found: FieldType::String
                }
            ),
            // INT counters are how FIX 4.0-4.3 dictionaries spell NUMINGROUP.
            brief(
                Warning,
                4,
                1,
                "group",
                "PartyRole",
                DiagnosticKind::CounterNotNumInGroup {
                    found: FieldType::Int
                }
            ),
        ]
    );
    assert_eq!(
        resolved(&text).diagnostics[0].to_string(),
        "t.xml:3:1: error: <group name=\"Symbol\">: group counter has type STRING, expected NUMINGROUP"
    );
}

#[test]
fn cyclic_components_are_reported_and_do_not_hang() {
    let text = dict(
        "<messages>\n<message name='M' msgtype='M' msgcat='app'><component name='A' required='Y'/></message>\n</messages>\n\
         <components>\n\
         <component name='A'><field name='Text'/><component name='B'/></component>\n\
         <component name='B'><group name='NoPartyIDs'><field name='PartyID'/><component name='A'/></group></component>\n\
         <component name='Self'><component name='Self'/></component>\n\
         </components>",
        "",
    );
    assert_eq!(
        briefs(&text),
        [
            brief(
                Error,
                7,
                69,
                "component",
                "A",
                DiagnosticKind::CyclicComponent(vec!["A".into(), "B".into(), "A".into()])
            ),
            brief(
                Error,
                8,
                24,
                "component",
                "Self",
                DiagnosticKind::CyclicComponent(vec!["Self".into(), "Self".into()])
            ),
        ]
    );
    let r = resolved(&text);
    let m = r.dictionary.message(b"M").unwrap();
    assert_eq!(m.layout().tags().collect::<Vec<_>>(), [58, 453]);
    assert_eq!(
        m.layout()
            .group(453)
            .unwrap()
            .entry
            .tags()
            .collect::<Vec<_>>(),
        [448]
    );
    assert_eq!(
        r.diagnostics[0].kind.to_string(),
        "components include each other: A -> B -> A"
    );
}

#[test]
fn enum_values_must_fit_the_type() {
    let text = dict(
        "",
        "<field number='1000' name='C' type='CHAR'>\n\
         <value enum='AB' description='TWO'/>\n\
         <value enum='A' description='ONE'/>\n\
         <value enum='A' description='AGAIN'/>\n\
         </field>\n\
         <field number='1001' name='I' type='INT'><value enum='X' description='X'/><value enum='-1' description='M'/></field>\n\
         <field number='1002' name='B' type='BOOLEAN'><value enum='T' description='T'/><value enum='Y' description='Y'/></field>\n\
         <field number='1003' name='F' type='PRICE'><value enum='1.5.' description='F'/></field>\n\
         <field number='1004' name='S' type='STRING'><value enum='' description='E'/></field>\n\
         <field number='1005' name='MC' type='MULTIPLECHARVALUE'><value enum='ab' description='E'/></field>",
    );
    // <fields> on line 3, FIELDS on 4-14, extras from 15.
    assert_eq!(
        briefs(&text),
        [
            brief(
                Error,
                16,
                1,
                "value",
                "AB",
                DiagnosticKind::BadEnumValue {
                    value: "AB".into(),
                    ty: FieldType::Char,
                    problem: ValueProblem::NotOneChar
                }
            ),
            brief(
                Error,
                18,
                1,
                "value",
                "A",
                DiagnosticKind::DuplicateEnumValue {
                    value: "A".into(),
                    first: Pos::new(17, 1)
                }
            ),
            brief(
                Error,
                20,
                42,
                "value",
                "X",
                DiagnosticKind::BadEnumValue {
                    value: "X".into(),
                    ty: FieldType::Int,
                    problem: ValueProblem::NotInteger
                }
            ),
            brief(
                Error,
                21,
                46,
                "value",
                "T",
                DiagnosticKind::BadEnumValue {
                    value: "T".into(),
                    ty: FieldType::Boolean,
                    problem: ValueProblem::NotBoolean
                }
            ),
            brief(
                Error,
                22,
                44,
                "value",
                "1.5.",
                DiagnosticKind::BadEnumValue {
                    value: "1.5.".into(),
                    ty: FieldType::Price,
                    problem: ValueProblem::NotDecimal
                }
            ),
            brief_some(
                Error,
                23,
                45,
                "value",
                "",
                DiagnosticKind::BadEnumValue {
                    value: "".into(),
                    ty: FieldType::String,
                    problem: ValueProblem::Empty
                }
            ),
            brief(
                Error,
                24,
                57,
                "value",
                "ab",
                DiagnosticKind::BadEnumValue {
                    value: "ab".into(),
                    ty: FieldType::MultipleCharValue,
                    problem: ValueProblem::NotOneChar
                }
            ),
        ]
    );
    let r = resolved(&text);
    assert_eq!(
        r.diagnostics[0].to_string(),
        "t.xml:16:1: error: <value enum=\"AB\">: enum value `AB` is not a single character (field type CHAR)"
    );
    // The good values are kept.
    let c = r.dictionary.field(1000).unwrap();
    assert_eq!(
        c.values
            .iter()
            .map(|v| v.description.as_str())
            .collect::<Vec<_>>(),
        ["ONE"]
    );
    assert_eq!(r.dictionary.value_allowed(1001, b"-1"), Some(true));
}

#[test]
fn attribute_values_are_checked() {
    let text = "<fix type='FIXX' major='4' minor='x' servicepack='0'>\n\
        <header><field name='A' required='yes'/></header>\n\
        <messages><message name='M' msgtype='M' msgcat='session'/>\n\
        <message name='N' msgtype='N N' msgcat='app'/></messages>\n\
        <fields><field number='0' name='Z' type='INT'/><field number='1' name='A' type='WIDGET'/>\n\
        <field number='+2' name='P' type='INT'/></fields>\n\
        </fix>";
    assert_eq!(
        briefs(text),
        [
            brief(
                Error,
                1,
                1,
                "fix",
                "",
                DiagnosticKind::InvalidVersion {
                    attribute: "type",
                    value: "FIXX".into()
                }
            ),
            brief(
                Error,
                1,
                1,
                "fix",
                "",
                DiagnosticKind::InvalidVersion {
                    attribute: "minor",
                    value: "x".into()
                }
            ),
            brief(
                Error,
                2,
                9,
                "field",
                "A",
                DiagnosticKind::InvalidRequired("yes".into())
            ),
            brief(
                Error,
                3,
                11,
                "message",
                "M",
                DiagnosticKind::InvalidMsgCat("session".into())
            ),
            brief(
                Error,
                4,
                1,
                "message",
                "N",
                DiagnosticKind::InvalidMsgType("N N".into())
            ),
            brief(
                Error,
                5,
                9,
                "field",
                "Z",
                DiagnosticKind::InvalidTagNumber("0".into())
            ),
            brief(
                Error,
                5,
                48,
                "field",
                "A",
                DiagnosticKind::UnknownFieldType("WIDGET".into())
            ),
            brief(
                Error,
                6,
                1,
                "field",
                "P",
                DiagnosticKind::InvalidTagNumber("+2".into())
            ),
        ]
    );
}

#[test]
fn broken_definitions_do_not_cascade() {
    // Field `Z` has a bad number: references to it are not reported again.
    let text = "<fix type='FIX' major='4' minor='4'>\n\
        <header><field name='Z' required='Y'/><group name='Z'><field name='Z'/></group></header>\n\
        <fields><field number='x' name='Z' type='INT'/></fields></fix>";
    assert_eq!(
        briefs(text),
        [brief(
            Error,
            3,
            9,
            "field",
            "Z",
            DiagnosticKind::InvalidTagNumber("x".into())
        )]
    );
}

#[test]
fn empty_group_and_duplicate_member() {
    let text = dict(
        "<messages>\n<message name='M' msgtype='M' msgcat='app'>\n\
         <field name='Text'/>\n\
         <group name='NoPartyIDs'><component name='Empty'/></group>\n\
         <component name='T'/>\n\
         </message>\n</messages>\n\
         <components><component name='Empty'/><component name='T'><field name='Text'/></component></components>",
        "",
    );
    assert_eq!(
        briefs(&text),
        [
            brief(
                Error,
                5,
                1,
                "group",
                "NoPartyIDs",
                DiagnosticKind::EmptyGroup
            ),
            brief(
                Warning,
                9,
                58,
                "field",
                "Text",
                DiagnosticKind::DuplicateMember {
                    tag: 58,
                    first: Pos::new(4, 1)
                }
            ),
        ]
    );
    let r = resolved(&text);
    let layout = r.dictionary.message(b"M").unwrap().layout();
    assert_eq!(layout.tags().collect::<Vec<_>>(), [58]);
    assert!(layout.group(453).is_none());
}

#[test]
fn every_problem_is_reported_at_once() {
    let text = dict(
        "<messages>\n<message name='M' msgtype='M' msgcat='app'>\
         <field name='A'/><field name='B'/><component name='C'/><group name='D'><field name='E'/></group>\
         </message>\n</messages>",
        "<field number='2000' name='X' type='CHAR'><value enum='XY' description='Q'/></field>",
    );
    let err = Dictionary::from_xml("t.xml", &text).unwrap_err();
    assert_eq!(err.errors().count(), 6, "{err}");
    assert_eq!(err.to_string().lines().count(), 6);
}

#[test]
fn layouts_nest_groups_and_expand_components() {
    let text = dict(
        "<header><field name='ClOrdID' required='Y'/></header>\n\
         <trailer><field name='Text' required='N'/></trailer>\n\
         <messages>\n\
         <message name='M' msgtype='XY' msgcat='app'>\
         <component name='Instrument' required='N'/>\
         <field name='Side' required='Y'/>\
         <component name='Parties' required='Y'/>\
         </message>\n\
         </messages>\n\
         <components>\n\
         <component name='Instrument'><field name='Symbol' required='Y'/></component>\n\
         <component name='Parties'><group name='NoPartyIDs' required='Y'>\
         <component name='PartyIdent' required='Y'/>\
         <field name='PartyRole' required='Y'/>\
         <group name='NoPartySubIDs' required='N'><field name='PartySubID' required='Y'/>\
         <component name='Raw' required='N'/></group>\
         </group></component>\n\
         <component name='PartyIdent'><field name='PartyID' required='Y'/></component>\n\
         <component name='Raw'><field name='RawDataLength' required='Y'/><field name='RawData' required='Y'/></component>\n\
         </components>",
        "",
    );
    let d = ok(&text);
    assert!(d.is_header_tag(11) && !d.is_header_tag(54));
    assert!(d.is_trailer_tag(58));
    let m = d.message(b"XY").unwrap();
    assert_eq!(d.message_by_name("M").unwrap().msg_type, "XY");
    let body = m.layout();
    assert_eq!(body.tags().collect::<Vec<_>>(), [55, 54, 453]);
    // Symbol is required inside an optional component: not required here.
    assert_eq!(body.required_tags().collect::<Vec<_>>(), [54, 453]);
    assert!(!body.contains(448) && !body.contains(523));
    let parties = body.group(453).unwrap();
    assert_eq!(
        (parties.counter, parties.delimiter, parties.required),
        (453, 448, true)
    );
    assert_eq!(parties.entry.tags().collect::<Vec<_>>(), [448, 452, 802]);
    assert_eq!(
        parties.entry.required_tags().collect::<Vec<_>>(),
        [448, 452]
    );
    assert!(body.group(54).is_none() && parties.entry.group(448).is_none());
    let subs = parties.entry.group(802).unwrap();
    assert_eq!((subs.delimiter, subs.required), (523, false));
    assert_eq!(subs.entry.tags().collect::<Vec<_>>(), [523, 95, 96]);
    assert_eq!(subs.entry.required_tags().collect::<Vec<_>>(), [523]);
    assert_eq!(
        subs.entry.get(96),
        Some(&LayoutField {
            tag: 96,
            required: false,
            group: None
        })
    );

    // The tree keeps components as references.
    let (parties_index, parties_component) = d.component_by_name("Parties").unwrap();
    assert!(
        matches!(m.members[2], Member::Component { component, required: true, .. } if component == parties_index)
    );
    assert_eq!(parties_component.layout().tags().collect::<Vec<_>>(), [453]);
    let Member::Group(g) = &parties_component.members[0] else {
        panic!("group expected")
    };
    assert_eq!((g.counter, g.members.len()), (453, 3));
}

#[test]
fn deep_nesting() {
    // Ten levels of groups, each counter NoLn with member Fn.
    let mut fields = String::new();
    let mut body = String::new();
    for i in 0..10 {
        fields.push_str(&format!(
            "<field number='{}' name='No{i}' type='NUMINGROUP'/><field number='{}' name='F{i}' type='INT'/>\n",
            3000 + i,
            4000 + i
        ));
        body.push_str(&format!(
            "<group name='No{i}' required='N'><field name='F{i}' required='Y'/>"
        ));
    }
    body.push_str(&"</group>".repeat(10));
    let text = dict(
        &format!(
            "<messages><message name='M' msgtype='M' msgcat='app'>{body}</message></messages>"
        ),
        &fields,
    );
    let d = ok(&text);
    let mut layout = d.message(b"M").unwrap().layout();
    for i in 0..10 {
        let g = layout.group(3000 + i).unwrap();
        assert_eq!(g.delimiter, 4000 + i);
        layout = &g.entry;
    }
    assert_eq!(layout.tags().collect::<Vec<_>>(), [4009]);
}

#[test]
fn data_pairs_by_layout_and_by_name() {
    let text = dict(
        "<messages><message name='M' msgtype='M' msgcat='app'>\n\
         <field name='SigLen'/><field name='Signature'/>\n\
         <field name='Blob'/>\n\
         <field name='OddLen'/><field name='Odd'/>\n\
         </message></messages>",
        "<field number='93' name='SigLen' type='LENGTH'/>\n\
         <field number='89' name='Signature' type='DATA'/>\n\
         <field number='3000' name='Blob' type='DATA'/>\n\
         <field number='3001' name='OddLen' type='LENGTH'/>\n\
         <field number='3002' name='Odd' type='XMLDATA'/>\n\
         <field number='3003' name='OddLength' type='LENGTH'/>",
    );
    // <fields> on line 7, FIELDS on 8-18, extras from 19.
    assert_eq!(
        briefs(&text),
        [brief(
            Warning,
            21,
            1,
            "field",
            "Blob",
            DiagnosticKind::UnpairedDataField
        ),]
    );
    let d = ok(&text);
    assert_eq!(
        d.data_pairs(),
        [
            DataFieldPair {
                length: 93,
                data: 89
            },
            DataFieldPair {
                length: 95,
                data: 96
            },
            DataFieldPair {
                length: 3001,
                data: 3002
            },
        ]
    );
    assert_eq!(d.data_tag_for_length(93), Some(89));
    assert_eq!(d.length_tag_for_data(89), Some(93));
    assert_eq!(d.length_tag_for_data(3000), None);
    assert_eq!(d.warnings().len(), 1);
}

#[test]
fn conflicting_data_pair_prefers_the_layout() {
    let text = dict(
        "<header><field name='OtherLen'/><field name='RawData'/></header>",
        "<field number='3001' name='OtherLen' type='LENGTH'/>",
    );
    assert_eq!(
        briefs(&text),
        [brief(
            Warning,
            13,
            1,
            "field",
            "RawData",
            DiagnosticKind::ConflictingDataPair {
                by_layout: 3001,
                by_name: 95
            }
        )]
    );
    let d = ok(&text);
    assert_eq!(d.length_tag_for_data(96), Some(3001));
}

#[test]
fn lookups() {
    let text = dict(
        "<messages><message name='Logon' msgtype='A' msgcat='admin'/><message name='News' msgtype='B'/></messages>",
        "<field number='18' name='ExecInst' type='MULTIPLEVALUESTRING'><value enum='1' description='NOT_HELD'/><value enum='G' description='AON'/></field>",
    );
    let d = ok(&text);
    assert_eq!(
        d.version(),
        Version {
            protocol: Protocol::Fix,
            major: 4,
            minor: 4,
            servicepack: 0
        }
    );
    assert_eq!(d.message(b"A").unwrap().category, Category::Admin);
    assert_eq!(d.message(b"B").unwrap().category, Category::App);
    assert!(d.message(b"C").is_none());
    assert_eq!(d.field_type(453), Some(FieldType::NumInGroup));
    assert_eq!(d.field_type(1), None);
    assert!(d.is_defined(55) && !d.is_defined(56));
    assert_eq!(d.value_allowed(54, b"1"), Some(true));
    assert_eq!(d.value_allowed(54, b"3"), Some(false));
    assert_eq!(d.value_allowed(55, b"anything"), Some(true));
    assert_eq!(d.value_allowed(18, b"G 1"), Some(true));
    assert_eq!(d.value_allowed(18, b"G  1"), Some(false));
    assert_eq!(d.value_allowed(18, b""), Some(false));
    assert_eq!(d.value_allowed(1, b"x"), None);
    assert!(d.fields().windows(2).all(|w| w[0].tag < w[1].tag));
    assert_eq!(d.field_by_name("NoPartyIDs").unwrap().tag, 453);
}

#[test]
fn dictionary_is_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync + 'static>() {}
    assert_send_sync::<Dictionary>();
    assert_send_sync::<crate::Diagnostics>();
}

#[test]
fn component_chains_are_bounded() {
    // C0 includes C1 includes ... C199: deeper than MAX_COMPONENT_DEPTH.
    let n = 200;
    let mut comps = String::from("<components>\n");
    for i in 0..n {
        if i + 1 < n {
            comps.push_str(&format!(
                "<component name='C{i}'><component name='C{}'/></component>\n",
                i + 1
            ));
        } else {
            comps.push_str(&format!(
                "<component name='C{i}'><field name='Text'/></component>\n"
            ));
        }
    }
    comps.push_str("</components>");
    let text = dict(
        &format!("<header><component name='C0'/></header>\n{comps}"),
        "",
    );
    let r = resolved(&text);
    let too_deep: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::TooDeep(MAX_COMPONENT_DEPTH))
        .collect();
    // Reached from the header: C0..C127 are on the stack when C127 (line
    // 4 + 127) references C128. Component layouts reach it too; identical
    // diagnostics are merged.
    assert!(!too_deep.is_empty());
    assert_eq!(too_deep[0].pos, Pos::new(131, 24));
    assert_eq!(too_deep[0].name.as_deref(), Some("C128"));
    assert!(r.dictionary.header().layout().is_empty());
}
