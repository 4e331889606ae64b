//! Compares the project's own `spec/FIX44.xml` with the QuickFIX reference
//! `../shared/reference/quickfix/spec/FIX44.xml` (relative to the workspace
//! root; a read-only fixture, never copied into this repository) and lists
//! every difference: field tags, names, types and enumerated values; the
//! header, trailer, messages and components member by member (order, kind,
//! required flags), recursing into repeating groups.
//!
//! Enum value *descriptions* are not part of the FIX standard's fixed facts
//! (QuickFIX derives its own wording); they are listed separately, for
//! information, and do not fail the test.
//!
//! Run: `cargo test -p fix-dict --test dict spec_fix44 -- --nocapture`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;

use fix_dict::{Dictionary, Member};

fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn ours_path() -> PathBuf {
    workspace_root().join("spec/FIX44.xml")
}

fn reference_path() -> PathBuf {
    fix_test_support::files::quickfix_dir().join("spec/FIX44.xml")
}

fn load(path: &PathBuf) -> Dictionary {
    Dictionary::from_path(path).unwrap_or_else(|e| panic!("{}:\n{e}", path.display()))
}

/// Differences, grouped by kind (`BTreeMap` keeps the report ordered).
#[derive(Default)]
struct Report {
    kinds: BTreeMap<&'static str, Vec<String>>,
}

impl Report {
    fn add(&mut self, kind: &'static str, line: String) {
        self.kinds.entry(kind).or_default().push(line);
    }

    fn count(&self) -> usize {
        self.kinds.values().map(Vec::len).sum()
    }

    fn render(&self) -> String {
        let mut s = String::new();
        for (kind, lines) in &self.kinds {
            let _ = writeln!(s, "== {kind}: {} ==", lines.len());
            for l in lines {
                let _ = writeln!(s, "  {l}");
            }
        }
        s
    }
}

/// One member as written, names resolved: `(kind, name, required, children)`.
#[derive(Clone, PartialEq, Eq)]
struct Node {
    kind: &'static str,
    name: String,
    required: bool,
    children: Vec<Node>,
}

impl Node {
    fn label(&self) -> String {
        format!(
            "{} {}{}",
            self.kind,
            self.name,
            if self.required { " (required)" } else { "" }
        )
    }
}

fn nodes(dict: &Dictionary, members: &[Member]) -> Vec<Node> {
    members
        .iter()
        .map(|m| match m {
            Member::Field { tag, required, .. } => Node {
                kind: "field",
                name: field_name(dict, *tag),
                required: *required,
                children: Vec::new(),
            },
            Member::Component {
                component,
                required,
                ..
            } => Node {
                kind: "component",
                name: dict.components()[*component].name.clone(),
                required: *required,
                children: Vec::new(),
            },
            Member::Group(g) => Node {
                kind: "group",
                name: field_name(dict, g.counter),
                required: g.required,
                children: nodes(dict, &g.members),
            },
        })
        .collect()
}

fn field_name(dict: &Dictionary, tag: u32) -> String {
    dict.field(tag)
        .map_or_else(|| format!("#{tag}"), |f| f.name.clone())
}

/// Compares two member lists at `path`, recursing into groups present in
/// both.
fn diff_members(report: &mut Report, path: &str, ours: &[Node], reference: &[Node]) {
    let key = |n: &Node| (n.kind, n.name.clone());
    let our_keys: Vec<_> = ours.iter().map(key).collect();
    let ref_keys: Vec<_> = reference.iter().map(key).collect();
    let our_set: BTreeSet<_> = our_keys.iter().cloned().collect();
    let ref_set: BTreeSet<_> = ref_keys.iter().cloned().collect();

    for (i, n) in reference.iter().enumerate() {
        if !our_set.contains(&key(n)) {
            let after = i.checked_sub(1).map_or("at the start".to_string(), |j| {
                format!("after {}", reference[j].name)
            });
            report.add(
                "layout: member missing from ours",
                format!("{path}: {} ({after})", n.label()),
            );
        }
    }
    for n in ours {
        if !ref_set.contains(&key(n)) {
            report.add(
                "layout: member not in reference",
                format!("{path}: {}", n.label()),
            );
        }
    }
    // Order of the members both have: every member outside a longest
    // common subsequence of the two orders is reported as moved, with the
    // member it follows in the reference.
    let common_ours: Vec<_> = our_keys.iter().filter(|k| ref_set.contains(k)).collect();
    let common_ref: Vec<_> = ref_keys.iter().filter(|k| our_set.contains(k)).collect();
    if common_ours != common_ref {
        let in_lcs = lcs_mask(&common_ref, &common_ours);
        for (i, k) in common_ref.iter().enumerate() {
            if !in_lcs[i] {
                let after = i.checked_sub(1).map_or("at the start".to_string(), |j| {
                    format!("after {}", common_ref[j].1)
                });
                report.add(
                    "layout: member order",
                    format!(
                        "{path}: {} {} is out of place (reference: {after})",
                        k.0, k.1
                    ),
                );
            }
        }
    }
    for r in reference {
        if let Some(o) = ours.iter().find(|o| key(o) == key(r)) {
            if o.required != r.required {
                report.add(
                    "layout: required flag",
                    format!(
                        "{path}: {} {}: ours {}, reference {}",
                        r.kind,
                        r.name,
                        yn(o.required),
                        yn(r.required)
                    ),
                );
            }
            if r.kind == "group" {
                diff_members(
                    report,
                    &format!("{path}/{}", r.name),
                    &o.children,
                    &r.children,
                );
            }
        }
    }
}

/// Which elements of `a` belong to one longest common subsequence of `a`
/// and `b`.
fn lcs_mask<T: PartialEq>(a: &[T], b: &[T]) -> Vec<bool> {
    let (n, m) = (a.len(), b.len());
    let mut len = vec![vec![0usize; m + 1]; n + 1];
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[i][j] = if a[i] == b[j] {
                len[i + 1][j + 1] + 1
            } else {
                len[i + 1][j].max(len[i][j + 1])
            };
        }
    }
    let mut mask = vec![false; n];
    let (mut i, mut j) = (0, 0);
    while i < n && j < m {
        if a[i] == b[j] {
            mask[i] = true;
            i += 1;
            j += 1;
        } else if len[i + 1][j] >= len[i][j + 1] {
            i += 1;
        } else {
            j += 1;
        }
    }
    mask
}

fn yn(b: bool) -> &'static str {
    if b { "Y" } else { "N" }
}

fn compare(ours: &Dictionary, reference: &Dictionary) -> (Report, Report) {
    let mut report = Report::default();
    let mut notes = Report::default();

    // Fields.
    let our_tags: BTreeSet<u32> = ours.fields().iter().map(|f| f.tag).collect();
    for rf in reference.fields() {
        let Some(of) = ours.field(rf.tag) else {
            report.add(
                "fields: missing from ours",
                format!("{} {} {}", rf.tag, rf.name, rf.ty.as_str()),
            );
            continue;
        };
        if of.name != rf.name {
            report.add(
                "fields: name",
                format!("{}: ours {}, reference {}", rf.tag, of.name, rf.name),
            );
        }
        if of.ty != rf.ty {
            report.add(
                "fields: type",
                format!(
                    "{} {}: ours {}, reference {}",
                    rf.tag,
                    rf.name,
                    of.ty.as_str(),
                    rf.ty.as_str()
                ),
            );
        }
        for rv in &rf.values {
            match of.value(rv.value.as_bytes()) {
                None => report.add(
                    "enums: value missing from ours",
                    format!("{} {}: {}", rf.tag, rf.name, rv.value),
                ),
                Some(ov) if ov.description != rv.description => notes.add(
                    "enum descriptions (informational)",
                    format!(
                        "{} {} = {}: ours {}, reference {}",
                        rf.tag, rf.name, rv.value, ov.description, rv.description
                    ),
                ),
                Some(_) => {}
            }
        }
        for ov in &of.values {
            if rf.value(ov.value.as_bytes()).is_none() {
                report.add(
                    "enums: value not in reference",
                    format!("{} {}: {}", rf.tag, rf.name, ov.value),
                );
            }
        }
    }
    for tag in our_tags {
        if !reference.is_defined(tag) {
            let f = ours.field(tag).expect("listed");
            report.add(
                "fields: not in reference",
                format!("{} {} {}", f.tag, f.name, f.ty.as_str()),
            );
        }
    }

    // Header and trailer.
    diff_members(
        &mut report,
        "header",
        &nodes(ours, &ours.header().members),
        &nodes(reference, &reference.header().members),
    );
    diff_members(
        &mut report,
        "trailer",
        &nodes(ours, &ours.trailer().members),
        &nodes(reference, &reference.trailer().members),
    );

    // Components, by name.
    for rc in reference.components() {
        let Some((_, oc)) = ours.component_by_name(&rc.name) else {
            report.add("components: missing from ours", rc.name.clone());
            continue;
        };
        diff_members(
            &mut report,
            &format!("component {}", rc.name),
            &nodes(ours, &oc.members),
            &nodes(reference, &rc.members),
        );
    }
    for oc in ours.components() {
        if reference.component_by_name(&oc.name).is_none() {
            report.add("components: not in reference", oc.name.clone());
        }
    }

    // Messages, by MsgType.
    for rm in reference.messages() {
        let Some(om) = ours.message(rm.msg_type.as_bytes()) else {
            report.add(
                "messages: missing from ours",
                format!("{} ({})", rm.name, rm.msg_type),
            );
            continue;
        };
        if om.name != rm.name {
            report.add(
                "messages: name",
                format!("{}: ours {}, reference {}", rm.msg_type, om.name, rm.name),
            );
        }
        if om.category != rm.category {
            report.add(
                "messages: category",
                format!(
                    "{} ({}): ours {}, reference {}",
                    rm.name, rm.msg_type, om.category, rm.category
                ),
            );
        }
        diff_members(
            &mut report,
            &format!("message {} ({})", rm.name, rm.msg_type),
            &nodes(ours, &om.members),
            &nodes(reference, &rm.members),
        );
    }
    for om in ours.messages() {
        if reference.message(om.msg_type.as_bytes()).is_none() {
            report.add(
                "messages: not in reference",
                format!("{} ({})", om.name, om.msg_type),
            );
        }
    }
    (report, notes)
}

#[test]
fn our_fix44_loads_without_diagnostics() {
    let path = ours_path();
    let text = std::fs::read_to_string(&path).expect("spec/FIX44.xml is readable");
    let doc = fix_dict::xml::parse("spec/FIX44.xml", &text).expect("well-formed XML");
    let resolved = fix_dict::resolve(&doc);
    let errors: Vec<_> = resolved
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .collect();
    assert!(errors.is_empty(), "error diagnostics: {errors:#?}");
    let dict = load(&path);
    assert!(
        dict.warnings().is_empty(),
        "warnings: {:#?}",
        dict.warnings()
    );
    assert_eq!(dict.messages().len(), 93);
    let v = dict.version();
    assert_eq!((v.major, v.minor), (4, 4));
}

#[test]
fn our_fix44_matches_reference() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let ours = load(&ours_path());
    let reference = load(&reference_path());
    // The comparison is not vacuous: both sides are the full dictionary.
    assert!(reference.fields().len() > 900 && reference.messages().len() == 93);

    let (report, notes) = compare(&ours, &reference);
    if notes.count() > 0 {
        println!("{}", notes.render());
    }
    println!(
        "ours: {} fields, {} messages, {} components; {} differences",
        ours.fields().len(),
        ours.messages().len(),
        ours.components().len(),
        report.count()
    );
    assert!(
        report.count() == 0,
        "spec/FIX44.xml differs from the QuickFIX reference in {} places:\n{}",
        report.count(),
        report.render()
    );
}

/// The comparison itself finds planted differences of every kind.
#[test]
fn comparison_detects_differences() {
    let a = Dictionary::from_xml(
        "a.xml",
        r#"<fix type="FIX" major="4" minor="4">
  <header><field name="BeginString" required="Y"/></header>
  <trailer><field name="CheckSum" required="Y"/></trailer>
  <messages>
    <message name="Heartbeat" msgtype="0" msgcat="admin">
      <field name="TestReqID" required="N"/>
      <component name="C" required="N"/>
    </message>
  </messages>
  <components>
    <component name="C"><group name="NoX" required="N"><field name="A" required="N"/><field name="B" required="N"/></group></component>
  </components>
  <fields>
    <field number="8" name="BeginString" type="STRING"/>
    <field number="10" name="CheckSum" type="STRING"/>
    <field number="112" name="TestReqID" type="STRING"/>
    <field number="54" name="Side" type="CHAR"><value enum="1" description="BUY"/></field>
    <field number="5000" name="NoX" type="NUMINGROUP"/>
    <field number="5001" name="A" type="STRING"/>
    <field number="5002" name="B" type="STRING"/>
  </fields>
</fix>"#,
    )
    .unwrap();
    let b = Dictionary::from_xml(
        "b.xml",
        r#"<fix type="FIX" major="4" minor="4">
  <header><field name="BeginString" required="Y"/></header>
  <trailer><field name="CheckSum" required="Y"/></trailer>
  <messages>
    <message name="Heartbeat" msgtype="0" msgcat="admin">
      <field name="TestReqID" required="Y"/>
      <component name="C" required="N"/>
    </message>
    <message name="TestRequest" msgtype="1" msgcat="admin">
      <field name="TestReqID" required="Y"/>
    </message>
  </messages>
  <components>
    <component name="C"><group name="NoX" required="N"><field name="B" required="N"/><field name="A" required="N"/></group></component>
  </components>
  <fields>
    <field number="8" name="BeginString" type="STRING"/>
    <field number="10" name="CheckSum" type="STRING"/>
    <field number="112" name="TestReqID" type="INT"/>
    <field number="54" name="Side" type="CHAR"><value enum="2" description="SELL"/></field>
    <field number="5000" name="NoX" type="NUMINGROUP"/>
    <field number="5001" name="A" type="STRING"/>
    <field number="5002" name="B" type="STRING"/>
    <field number="5003" name="Z" type="STRING"/>
  </fields>
</fix>"#,
    )
    .unwrap();
    let (report, _) = compare(&a, &b);
    let kinds: Vec<_> = report.kinds.keys().copied().collect();
    assert_eq!(
        kinds,
        [
            "enums: value missing from ours",
            "enums: value not in reference",
            "fields: missing from ours",
            "fields: type",
            "layout: member order",
            "layout: required flag",
            "messages: missing from ours",
        ],
        "{}",
        report.render()
    );
    let (same, _) = compare(&a, &a);
    assert_eq!(same.count(), 0);
}
