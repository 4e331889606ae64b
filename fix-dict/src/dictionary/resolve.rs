//! Building a [`Dictionary`] from a raw [`Document`]: name resolution,
//! validation, flattening and data-pair detection.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::{
    Category, Component, DataFieldPair, Dictionary, EnumValue, Field, FieldType, GroupLayout,
    Layout, LayoutField, Member, Message, Protocol, Section, Version,
};
use crate::diagnostic::{Definition, Diagnostic, DiagnosticKind, Diagnostics, Pos, Severity};
use crate::dictionary::GroupDecl;
use crate::dictionary::enum_values::check_enum_value;
use crate::xml::{Document, MemberElement};

/// The result of [`resolve`]: a best-effort dictionary (definitions with
/// errors are left out) and every diagnostic, sorted by position.
///
/// ```
/// use fix_dict::{resolve, xml};
/// let doc = xml::parse("r.xml", "<fix type='FIX' major='4' minor='4'><fields>\
///     <field number='1' name='A' type='INT'/><field number='1' name='B' type='INT'/></fields></fix>").unwrap();
/// let resolved = resolve(&doc);
/// assert!(resolved.has_errors());
/// assert_eq!(resolved.dictionary.fields().len(), 1);
/// ```
#[derive(Clone, Debug)]
pub struct Resolved {
    /// The dictionary, usable even when there are errors (the faulty
    /// definitions are skipped).
    pub dictionary: Dictionary,
    /// Every problem found, errors and warnings, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
}

impl Resolved {
    /// Whether any diagnostic is an error.
    ///
    /// ```
    /// # let doc = fix_dict::xml::parse("r.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(!fix_dict::resolve(&doc).has_errors());
    /// ```
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The dictionary (with its warnings attached) if there is no error,
    /// otherwise every diagnostic.
    ///
    /// ```
    /// # let doc = fix_dict::xml::parse("r.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// let dict = fix_dict::resolve(&doc).into_result().unwrap();
    /// assert_eq!(dict.version().to_string(), "FIX.4.4");
    /// ```
    pub fn into_result(self) -> Result<Dictionary, Diagnostics> {
        if self.has_errors() {
            Err(Diagnostics(self.diagnostics))
        } else {
            let mut dictionary = self.dictionary;
            dictionary.warnings = self.diagnostics;
            Ok(dictionary)
        }
    }
}

/// Resolves and validates `doc`, reporting every problem.
///
/// ```
/// use fix_dict::{resolve, xml, DiagnosticKind};
/// let doc = xml::parse("r.xml", "<fix type='FIX' major='4' minor='4'><messages>\
///     <message name='M' msgtype='Z' msgcat='app'><field name='A' required='Y'/><field name='B' required='Y'/></message>\
///     </messages></fix>").unwrap();
/// let r = resolve(&doc);
/// let kinds: Vec<_> = r.diagnostics.iter().map(|d| d.kind.clone()).collect();
/// assert_eq!(kinds, [DiagnosticKind::UndefinedField("A".into()), DiagnosticKind::UndefinedField("B".into())]);
/// ```
pub fn resolve(doc: &Document) -> Resolved {
    let mut r = Resolver {
        file: doc.file.clone(),
        diags: Vec::new(),
        fields: Vec::new(),
        field_names: HashMap::new(),
        field_tags: HashMap::new(),
        broken_fields: HashSet::new(),
        component_names: HashMap::new(),
        groups: 0,
    };
    let version = r.version(doc);
    r.fields(doc);
    let mut components = r.components(doc);
    r.check_cycles(&components);
    let (messages, message_types, message_names) = r.messages(doc);
    let mut header = Section::default();
    let mut trailer = Section::default();
    for (section, def) in [(&mut header, &doc.header), (&mut trailer, &doc.trailer)] {
        if let Some(def) = def {
            section.pos = def.pos;
            section.members = r.members(&def.members);
        }
    }

    // Flattened layouts.
    header.layout = r.layout(&header.members, &components);
    trailer.layout = r.layout(&trailer.members, &components);
    let mut messages = messages;
    for m in &mut messages {
        m.layout = r.layout(&m.members, &components);
    }
    let layouts: Vec<Layout> = components
        .iter()
        .map(|c| r.layout(&c.members, &components))
        .collect();
    for (c, layout) in components.iter_mut().zip(layouts) {
        c.layout = layout;
    }

    let data_pairs = r.data_pairs(&header, &trailer, &messages, &components);
    let mut data_by_data = data_pairs.clone();
    data_by_data.sort_by_key(|p| p.data);

    // Fields sorted by tag; names index the sorted vector.
    let mut fields = std::mem::take(&mut r.fields);
    fields.sort_by_key(|f| f.tag);
    let field_names = fields
        .iter()
        .enumerate()
        .map(|(i, f)| (f.name.clone(), i))
        .collect();
    let component_names = components
        .iter()
        .enumerate()
        .map(|(i, c)| (c.name.clone(), i))
        .collect();

    // Identical diagnostics arise when a component is expanded in several
    // places; keep the first of each.
    let mut seen = HashSet::new();
    let mut diagnostics: Vec<Diagnostic> = std::mem::take(&mut r.diags)
        .into_iter()
        .filter(|d| seen.insert(d.clone()))
        .collect();
    diagnostics.sort_by_key(|d| d.pos);

    let mut dictionary = Dictionary {
        file: doc.file.clone(),
        version,
        begin_string: version.map_or_else(Box::default, |v| v.begin_string().into_bytes().into()),
        by_tag: super::lookup::TagIndex::new(&fields),
        fields,
        field_names,
        components,
        component_names,
        messages,
        message_types: super::lookup::MsgTypeIndex::new(message_types),
        message_names,
        header,
        trailer,
        data_pairs,
        data_by_data,
        warnings: Vec::new(),
    };
    dictionary.annotate_layouts();
    Resolved {
        dictionary,
        diagnostics,
    }
}

struct Resolver {
    file: Arc<str>,
    diags: Vec<Diagnostic>,
    /// Definition order until the end of `resolve`.
    fields: Vec<Field>,
    field_names: HashMap<String, usize>,
    field_tags: HashMap<u32, usize>,
    /// Fields whose definition had an error; references to them are not
    /// reported again as undefined.
    broken_fields: HashSet<String>,
    component_names: HashMap<String, usize>,
    /// Groups resolved so far: the next group's [`GroupDecl::id`].
    groups: usize,
}

impl Resolver {
    fn report(
        &mut self,
        severity: Severity,
        pos: Pos,
        element: &str,
        name: Option<&str>,
        kind: DiagnosticKind,
    ) {
        self.diags.push(Diagnostic {
            severity,
            file: self.file.clone(),
            pos,
            element: element.to_owned(),
            name: name.map(str::to_owned),
            kind,
        });
    }

    fn error(&mut self, pos: Pos, element: &str, name: Option<&str>, kind: DiagnosticKind) {
        self.report(Severity::Error, pos, element, name, kind);
    }

    fn field_name(&self, tag: u32) -> Option<&str> {
        let i = *self.field_tags.get(&tag)?;
        self.fields.get(i).map(|f| f.name.as_str())
    }

    fn field_ty(&self, tag: u32) -> Option<FieldType> {
        let i = *self.field_tags.get(&tag)?;
        self.fields.get(i).map(|f| f.ty)
    }

    fn version(&mut self, doc: &Document) -> Option<Version> {
        let protocol = match doc.fix_type.as_str() {
            "FIX" => Some(Protocol::Fix),
            "FIXT" => Some(Protocol::Fixt),
            other => {
                let kind = DiagnosticKind::InvalidVersion {
                    attribute: "type",
                    value: other.to_owned(),
                };
                self.error(doc.pos, "fix", None, kind);
                None
            }
        };
        let mut number = |attribute: &'static str, value: Option<&str>| -> Option<u8> {
            let Some(value) = value else { return Some(0) };
            match parse_digits(value).and_then(|n| u8::try_from(n).ok()) {
                Some(n) => Some(n),
                None => {
                    let kind = DiagnosticKind::InvalidVersion {
                        attribute,
                        value: value.to_owned(),
                    };
                    self.error(doc.pos, "fix", None, kind);
                    None
                }
            }
        };
        let major = number("major", Some(&doc.major));
        let minor = number("minor", Some(&doc.minor));
        let servicepack = number("servicepack", doc.servicepack.as_deref());
        Some(Version {
            protocol: protocol?,
            major: major?,
            minor: minor?,
            servicepack: servicepack?,
        })
    }

    fn fields(&mut self, doc: &Document) {
        for def in &doc.fields {
            let name = Some(def.name.as_str());
            let mut ok = true;
            let tag = parse_digits(&def.number).filter(|&n| n > 0);
            if tag.is_none() {
                let kind = DiagnosticKind::InvalidTagNumber(def.number.clone());
                self.error(def.pos, "field", name, kind);
                ok = false;
            }
            let ty = match def.ty.parse::<FieldType>() {
                Ok(ty) => ty,
                Err(_) => {
                    let kind = DiagnosticKind::UnknownFieldType(def.ty.clone());
                    self.error(def.pos, "field", name, kind);
                    FieldType::String
                }
            };
            let duplicate_name = self.field_names.get(&def.name).copied();
            if let Some(first) = duplicate_name {
                let first = self.fields.get(first).map_or(Pos::NONE, |f| f.pos);
                let kind = DiagnosticKind::DuplicateName {
                    what: Definition::Field,
                    first,
                };
                self.error(def.pos, "field", name, kind);
                ok = false;
            }
            if let Some(tag) = tag
                && let Some(&first) = self.field_tags.get(&tag)
            {
                let first = self.fields.get(first).map_or(Pos::NONE, |f| f.pos);
                self.error(
                    def.pos,
                    "field",
                    name,
                    DiagnosticKind::DuplicateTag { tag, first },
                );
                ok = false;
            }
            let Some(tag) = tag.filter(|_| ok) else {
                if duplicate_name.is_none() {
                    self.broken_fields.insert(def.name.clone());
                }
                continue;
            };
            // Values: checked against the type, duplicates dropped.
            let mut values: Vec<EnumValue> = Vec::with_capacity(def.values.len());
            let mut firsts: HashMap<&str, Pos> = HashMap::new();
            for v in &def.values {
                let vname = Some(v.value.as_str());
                if let Some(&first) = firsts.get(v.value.as_str()) {
                    let kind = DiagnosticKind::DuplicateEnumValue {
                        value: v.value.clone(),
                        first,
                    };
                    self.error(v.pos, "value", vname, kind);
                    continue;
                }
                firsts.insert(&v.value, v.pos);
                if let Err(problem) = check_enum_value(ty, &v.value) {
                    let kind = DiagnosticKind::BadEnumValue {
                        value: v.value.clone(),
                        ty,
                        problem,
                    };
                    self.error(v.pos, "value", vname, kind);
                    continue;
                }
                values.push(EnumValue {
                    value: v.value.clone(),
                    description: v.description.clone().unwrap_or_default(),
                    pos: v.pos,
                });
            }
            values.sort_by(|a, b| a.value.as_bytes().cmp(b.value.as_bytes()));
            let index = self.fields.len();
            self.field_names.insert(def.name.clone(), index);
            self.field_tags.insert(tag, index);
            self.fields.push(Field {
                tag,
                name: def.name.clone(),
                ty,
                values,
                pos: def.pos,
            });
        }
    }

    fn components(&mut self, doc: &Document) -> Vec<Component> {
        // Names first, so components may reference ones defined later.
        let mut defs = Vec::new();
        for def in &doc.components {
            if let Some(&first) = self.component_names.get(&def.name) {
                let first = doc.components.get(first).map_or(Pos::NONE, |c| c.pos);
                let kind = DiagnosticKind::DuplicateName {
                    what: Definition::Component,
                    first,
                };
                self.error(def.pos, "component", Some(&def.name), kind);
                continue;
            }
            self.component_names.insert(def.name.clone(), defs.len());
            defs.push(def);
        }
        defs.into_iter()
            .map(|def| Component {
                name: def.name.clone(),
                members: self.members(&def.members),
                pos: def.pos,
                layout: Layout::default(),
            })
            .collect()
    }

    fn required(&mut self, value: Option<&str>, pos: Pos, element: &str, name: &str) -> bool {
        match value {
            None | Some("N") => false,
            Some("Y") => true,
            Some(other) => {
                let kind = DiagnosticKind::InvalidRequired(other.to_owned());
                self.error(pos, element, Some(name), kind);
                false
            }
        }
    }

    fn members(&mut self, defs: &[MemberElement]) -> Vec<Member> {
        let mut out = Vec::with_capacity(defs.len());
        for def in defs {
            match def {
                MemberElement::Field(r) => {
                    let required = self.required(r.required.as_deref(), r.pos, "field", &r.name);
                    match self.field_names.get(&r.name) {
                        Some(&i) => {
                            if let Some(f) = self.fields.get(i) {
                                out.push(Member::Field {
                                    tag: f.tag,
                                    required,
                                    pos: r.pos,
                                });
                            }
                        }
                        None if self.broken_fields.contains(&r.name) => {}
                        None => {
                            let kind = DiagnosticKind::UndefinedField(r.name.clone());
                            self.error(r.pos, "field", Some(&r.name), kind);
                        }
                    }
                }
                MemberElement::Component(r) => {
                    let required =
                        self.required(r.required.as_deref(), r.pos, "component", &r.name);
                    match self.component_names.get(&r.name) {
                        Some(&component) => out.push(Member::Component {
                            component,
                            required,
                            pos: r.pos,
                        }),
                        None => {
                            let kind = DiagnosticKind::UndefinedComponent(r.name.clone());
                            self.error(r.pos, "component", Some(&r.name), kind);
                        }
                    }
                }
                MemberElement::Group(g) => {
                    let required = self.required(g.required.as_deref(), g.pos, "group", &g.name);
                    let counter = match self.field_names.get(&g.name) {
                        Some(&i) => self.fields.get(i).map(|f| (f.tag, f.ty)),
                        None if self.broken_fields.contains(&g.name) => None,
                        None => {
                            let kind = DiagnosticKind::UndefinedField(g.name.clone());
                            self.error(g.pos, "group", Some(&g.name), kind);
                            None
                        }
                    };
                    if let Some((_, ty)) = counter
                        && ty != FieldType::NumInGroup
                    {
                        // FIX 4.0-4.3 predate the NUMINGROUP type: their
                        // reference dictionaries type counters as INT. An
                        // integer counter still works, so that is a warning.
                        let severity = if ty == FieldType::Int {
                            Severity::Warning
                        } else {
                            Severity::Error
                        };
                        let kind = DiagnosticKind::CounterNotNumInGroup { found: ty };
                        self.report(severity, g.pos, "group", Some(&g.name), kind);
                    }
                    // Members are resolved (and checked) even when the counter is bad.
                    let members = self.members(&g.members);
                    if let Some((counter, _)) = counter {
                        let id = self.groups;
                        self.groups += 1;
                        out.push(Member::Group(GroupDecl {
                            id,
                            counter,
                            required,
                            members,
                            pos: g.pos,
                        }));
                    }
                }
            }
        }
        out
    }

    /// Reports each cycle of component references once, at the reference
    /// that closes it.
    fn check_cycles(&mut self, components: &[Component]) {
        fn refs(members: &[Member], out: &mut Vec<(usize, Pos)>) {
            for m in members {
                match m {
                    Member::Field { .. } => {}
                    Member::Component { component, pos, .. } => out.push((*component, *pos)),
                    Member::Group(g) => refs(&g.members, out),
                }
            }
        }
        let edges: Vec<Vec<(usize, Pos)>> = components
            .iter()
            .map(|c| {
                let mut out = Vec::new();
                refs(&c.members, &mut out);
                out
            })
            .collect();
        // Iterative depth-first search: 0 = new, 1 = on the stack, 2 = done.
        let mut state = vec![0u8; components.len()];
        for start in 0..components.len() {
            if state[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            state[start] = 1;
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                let Some(&(to, pos)) = edges.get(node).and_then(|e| e.get(*next)) else {
                    state[node] = 2;
                    stack.pop();
                    continue;
                };
                *next += 1;
                match state.get(to) {
                    Some(0) => {
                        state[to] = 1;
                        stack.push((to, 0));
                    }
                    Some(1) => {
                        let from = stack.iter().position(|&(n, _)| n == to).unwrap_or(0);
                        let mut chain: Vec<String> = stack[from..]
                            .iter()
                            .filter_map(|&(n, _)| components.get(n).map(|c| c.name.clone()))
                            .collect();
                        let name = components.get(to).map(|c| c.name.clone());
                        chain.extend(name.clone());
                        let kind = DiagnosticKind::CyclicComponent(chain);
                        self.error(pos, "component", name.as_deref(), kind);
                    }
                    _ => {}
                }
            }
        }
    }

    #[allow(clippy::type_complexity)]
    fn messages(
        &mut self,
        doc: &Document,
    ) -> (
        Vec<Message>,
        HashMap<Box<[u8]>, usize>,
        HashMap<String, usize>,
    ) {
        let mut messages = Vec::new();
        let mut types: HashMap<Box<[u8]>, usize> = HashMap::new();
        let mut names: HashMap<String, usize> = HashMap::new();
        for def in &doc.messages {
            let name = Some(def.name.as_str());
            let category = match def.msg_cat.as_deref() {
                Some("admin") => Category::Admin,
                None | Some("app") => Category::App,
                Some(other) => {
                    let kind = DiagnosticKind::InvalidMsgCat(other.to_owned());
                    self.error(def.pos, "message", name, kind);
                    Category::App
                }
            };
            let members = self.members(&def.members);
            let mut duplicate = false;
            if let Some(&first) = names.get(&def.name) {
                let first = messages.get(first).map_or(Pos::NONE, |m: &Message| m.pos);
                let kind = DiagnosticKind::DuplicateName {
                    what: Definition::Message,
                    first,
                };
                self.error(def.pos, "message", name, kind);
                duplicate = true;
            }
            if let Some(&first) = types.get(def.msg_type.as_bytes()) {
                let first = messages.get(first).map_or(Pos::NONE, |m: &Message| m.pos);
                let kind = DiagnosticKind::DuplicateMsgType {
                    msg_type: def.msg_type.clone(),
                    first,
                };
                self.error(def.pos, "message", name, kind);
                duplicate = true;
            }
            if def.msg_type.is_empty() || def.msg_type.bytes().any(|b| !(0x21..0x7f).contains(&b)) {
                let kind = DiagnosticKind::InvalidMsgType(def.msg_type.clone());
                self.error(def.pos, "message", name, kind);
                duplicate = true;
            }
            if duplicate {
                continue;
            }
            names.insert(def.name.clone(), messages.len());
            types.insert(def.msg_type.as_bytes().into(), messages.len());
            messages.push(Message {
                name: def.name.clone(),
                msg_type: def.msg_type.clone(),
                category,
                members,
                pos: def.pos,
                layout: Layout::default(),
            });
        }
        (messages, types, names)
    }

    fn layout(&mut self, members: &[Member], components: &[Component]) -> Layout {
        let mut stack = Vec::new();
        self.flatten_level(members, components, &mut stack)
    }

    fn flatten_level(
        &mut self,
        members: &[Member],
        components: &[Component],
        stack: &mut Vec<usize>,
    ) -> Layout {
        let mut level = Level::default();
        self.flatten_into(members, true, components, stack, &mut level);
        Layout::new(level.fields, level.groups)
    }

    fn flatten_into(
        &mut self,
        members: &[Member],
        context_required: bool,
        components: &[Component],
        stack: &mut Vec<usize>,
        level: &mut Level,
    ) {
        for m in members {
            match m {
                Member::Field { tag, required, pos } => {
                    if self.duplicate(level, *tag, *pos, "field") {
                        continue;
                    }
                    level.seen.insert(*tag, *pos);
                    level.fields.push(LayoutField {
                        tag: *tag,
                        required: *required && context_required,
                        group: None,
                    });
                }
                Member::Component {
                    component,
                    required,
                    pos,
                } => {
                    // A cycle: already reported by `check_cycles`.
                    if stack.contains(component) {
                        continue;
                    }
                    let Some(c) = components.get(*component) else {
                        continue;
                    };
                    // Bounds the recursion on pathological input.
                    if stack.len() >= MAX_COMPONENT_DEPTH {
                        let kind = DiagnosticKind::TooDeep(MAX_COMPONENT_DEPTH);
                        self.error(*pos, "component", Some(&c.name), kind);
                        continue;
                    }
                    stack.push(*component);
                    self.flatten_into(
                        &c.members,
                        context_required && *required,
                        components,
                        stack,
                        level,
                    );
                    stack.pop();
                }
                Member::Group(g) => {
                    if self.duplicate(level, g.counter, g.pos, "group") {
                        continue;
                    }
                    let entry = self.flatten_level(&g.members, components, stack);
                    let Some(delimiter) = entry.fields.first().map(|f| f.tag) else {
                        let name = self.field_name(g.counter).map(str::to_owned);
                        self.error(g.pos, "group", name.as_deref(), DiagnosticKind::EmptyGroup);
                        continue;
                    };
                    level.seen.insert(g.counter, g.pos);
                    level.fields.push(LayoutField {
                        tag: g.counter,
                        required: g.required && context_required,
                        group: Some(level.groups.len()),
                    });
                    level.groups.push(GroupLayout {
                        counter: g.counter,
                        delimiter,
                        required: g.required && context_required,
                        entry,
                    });
                }
            }
        }
    }

    fn duplicate(&mut self, level: &Level, tag: u32, pos: Pos, element: &str) -> bool {
        let Some(&first) = level.seen.get(&tag) else {
            return false;
        };
        // A warning: the reference FIX43 and FIX50 dictionaries repeat
        // fields (through components); the layout keeps the first
        // occurrence, which is what QuickFIX does.
        let name = self.field_name(tag).map(str::to_owned);
        let kind = DiagnosticKind::DuplicateMember { tag, first };
        self.report(Severity::Warning, pos, element, name.as_deref(), kind);
        true
    }

    fn data_pairs(
        &mut self,
        header: &Section,
        trailer: &Section,
        messages: &[Message],
        components: &[Component],
    ) -> Vec<DataFieldPair> {
        // By layout: a LENGTH field immediately followed by a data field.
        let mut by_layout: HashMap<u32, u32> = HashMap::new();
        let mut lists: Vec<&[Member]> = vec![&header.members, &trailer.members];
        lists.extend(messages.iter().map(|m| m.members.as_slice()));
        lists.extend(components.iter().map(|c| c.members.as_slice()));
        while let Some(list) = lists.pop() {
            for m in list {
                if let Member::Group(g) = m {
                    lists.push(&g.members);
                }
            }
            for pair in list.windows(2) {
                if let [
                    Member::Field { tag: len, .. },
                    Member::Field { tag: data, .. },
                ] = pair
                    && self.field_ty(*len) == Some(FieldType::Length)
                    && self.field_ty(*data).is_some_and(FieldType::is_data)
                {
                    by_layout.entry(*data).or_insert(*len);
                }
            }
        }
        // By name, and the verdict per data field in tag order.
        let mut data_fields: Vec<(u32, String, Pos)> = self
            .fields
            .iter()
            .filter(|f| f.ty.is_data())
            .map(|f| (f.tag, f.name.clone(), f.pos))
            .collect();
        data_fields.sort_by_key(|f| f.0);
        let mut pairs = Vec::new();
        for (data, name, pos) in data_fields {
            let by_name = ["Len", "Length"].iter().find_map(|suffix| {
                let i = *self.field_names.get(&format!("{name}{suffix}"))?;
                let f = self.fields.get(i)?;
                (f.ty == FieldType::Length).then_some(f.tag)
            });
            let length = match (by_layout.get(&data).copied(), by_name) {
                (Some(by_layout), Some(by_name)) if by_layout != by_name => {
                    let kind = DiagnosticKind::ConflictingDataPair { by_layout, by_name };
                    self.report(Severity::Warning, pos, "field", Some(&name), kind);
                    by_layout
                }
                (Some(length), _) | (None, Some(length)) => length,
                (None, None) => {
                    let kind = DiagnosticKind::UnpairedDataField;
                    self.report(Severity::Warning, pos, "field", Some(&name), kind);
                    continue;
                }
            };
            pairs.push(DataFieldPair { length, data });
        }
        pairs.sort();
        pairs
    }
}

#[derive(Default)]
struct Level {
    fields: Vec<LayoutField>,
    groups: Vec<GroupLayout>,
    seen: HashMap<u32, Pos, BuildTagHasher>,
}

/// Multiplicative hashing for `u32` tags: layouts insert ~400k tags for
/// FIX50SP2, and SipHash's DoS resistance buys nothing for dictionary input.
#[derive(Clone, Copy, Default)]
struct BuildTagHasher;

impl std::hash::BuildHasher for BuildTagHasher {
    type Hasher = TagHasher;
    fn build_hasher(&self) -> TagHasher {
        TagHasher(0)
    }
}

struct TagHasher(u64);

impl std::hash::Hasher for TagHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(n)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// How deeply components may include each other (FIX50SP2 needs fewer than
/// ten levels).
pub const MAX_COMPONENT_DEPTH: usize = 128;

/// Digits only (no sign, no spaces), as `u32`.
fn parse_digits(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}
