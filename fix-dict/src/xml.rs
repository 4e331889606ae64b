//! Reader of QuickFIX XML data dictionaries into a raw [`Document`] tree.
//!
//! The reader checks that the XML is well-formed and has the dictionary's
//! shape — which element may appear where, and that required attributes are
//! present — and keeps every element's position. It does not interpret
//! attribute values (tag numbers, types, `required`, `msgcat`, enum values):
//! [`resolve`](crate::resolve) does that, so it can report every such problem
//! at once. A reader error is fatal and comes back as one [`Diagnostic`]
//! naming the file, line, column and element.
//!
//! Accepted shape (unknown attributes are ignored; comments, the XML
//! declaration and processing instructions are skipped):
//!
//! ```text
//! <fix type= major= minor= [servicepack=]>
//!   <header> members </header>     <trailer> members </trailer>
//!   <messages> <message name= msgtype= [msgcat=]> members </message>* </messages>
//!   <components> <component name=> members </component>* </components>
//!   <fields> <field number= name= type=> <value enum= [description=]/>* </field>* </fields>
//! </fix>
//! members: <field name= [required=]/> | <component name= [required=]/>
//!        | <group name= [required=]> members </group>
//! ```
//!
//! ```
//! use fix_dict::xml::{self, MemberElement};
//!
//! let doc = xml::parse("tiny.xml", r#"<fix type="FIX" major="4" minor="4">
//!   <messages>
//!     <message name="Heartbeat" msgtype="0" msgcat="admin">
//!       <field name="TestReqID" required="N"/>
//!     </message>
//!   </messages>
//! </fix>"#).unwrap();
//! let hb = &doc.messages[0];
//! assert_eq!((hb.name.as_str(), hb.msg_type.as_str()), ("Heartbeat", "0"));
//! assert_eq!(hb.pos.line, 3);
//! assert!(matches!(&hb.members[0], MemberElement::Field(f) if f.name == "TestReqID"));
//!
//! let err = xml::parse("bad.xml", "<fix type='FIX' major='4' minor='4'>\n  <header><field/></header></fix>").unwrap_err();
//! assert_eq!(err.to_string(), "bad.xml:2:11: error: <field>: missing attribute `name`");
//! ```

use std::sync::Arc;

use quick_xml::Reader;
use quick_xml::XmlVersion;
use quick_xml::events::{BytesStart, Event};

use crate::diagnostic::{Diagnostic, DiagnosticKind, Pos, Severity};

/// How deep elements may nest before the reader gives up (groups nest; no
/// real dictionary comes near this).
///
/// ```
/// use fix_dict::xml::{parse, MAX_DEPTH};
/// let deep = format!("<fix type='FIX' major='4' minor='4'><header>{}", "<group name='G'>".repeat(MAX_DEPTH));
/// assert_eq!(parse("d.xml", &deep).unwrap_err().kind, fix_dict::DiagnosticKind::TooDeep(MAX_DEPTH));
/// ```
pub const MAX_DEPTH: usize = 128;

/// A whole dictionary file as written, with positions.
///
/// ```
/// let doc = fix_dict::xml::parse("f.xml", "<fix type='FIXT' major='1' minor='1' servicepack='0'/>").unwrap();
/// assert_eq!((doc.fix_type.as_str(), doc.servicepack.as_deref()), ("FIXT", Some("0")));
/// assert!(doc.header.is_none() && doc.fields.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    /// The file name given to [`parse`].
    pub file: Arc<str>,
    /// Position of `<fix>`.
    pub pos: Pos,
    /// `type`: `FIX` or `FIXT`.
    pub fix_type: String,
    /// `major`.
    pub major: String,
    /// `minor`.
    pub minor: String,
    /// `servicepack`, if present.
    pub servicepack: Option<String>,
    /// `<header>`, if present.
    pub header: Option<SectionElement>,
    /// `<trailer>`, if present.
    pub trailer: Option<SectionElement>,
    /// `<messages>` children in file order.
    pub messages: Vec<MessageElement>,
    /// `<components>` children in file order.
    pub components: Vec<ComponentElement>,
    /// `<fields>` children in file order.
    pub fields: Vec<FieldElement>,
}

impl Document {
    /// The application dictionary `self` (FIX 5.0 and later, whose `<header>`
    /// and `<trailer>` are empty) over the transport dictionary `transport`
    /// (FIXT11) as one document, what a FIXT.1.1 session exchanges: `self`'s
    /// version (so `FIX.5.0SP2`, BeginString `FIXT.1.1`), `transport`'s header,
    /// trailer and session-level messages, then `self`'s messages (one whose
    /// MsgType `transport` defines is left out); `transport`'s components, then
    /// `self`'s of other names. A field both define is `transport`'s when it is
    /// in `transport`'s header or trailer (BeginString, MsgType, ApplVerID:
    /// the session's own values) and `self`'s otherwise, as a session validates
    /// an application message (fix-session's `AppSchema`). Elements keep their
    /// positions; the merged document is named `transport+self`.
    ///
    /// ```
    /// let t = fix_dict::xml::parse("T.xml", "<fix type='FIXT' major='1' minor='1'>\
    ///     <header><field name='MsgType' required='Y'/></header>\
    ///     <messages><message name='Heartbeat' msgtype='0' msgcat='admin'/></messages>\
    ///     <fields><field number='35' name='MsgType' type='STRING'/></fields></fix>").unwrap();
    /// let a = fix_dict::xml::parse("A.xml", "<fix type='FIX' major='5' minor='0' servicepack='2'><header/><trailer/>\
    ///     <messages><message name='News' msgtype='B' msgcat='app'><field name='Headline' required='Y'/></message></messages>\
    ///     <fields><field number='35' name='MsgType' type='STRING'><value enum='0' description='HEARTBEAT'/></field>\
    ///     <field number='148' name='Headline' type='STRING'/></fields></fix>").unwrap();
    /// let doc = a.over_transport(t);
    /// assert_eq!(&*doc.file, "T.xml+A.xml");
    /// assert_eq!(doc.messages.iter().map(|m| m.msg_type.as_str()).collect::<Vec<_>>(), ["0", "B"]);
    /// // MsgType is a header field: the transport's definition, without the values.
    /// assert!(doc.fields.iter().find(|f| f.number == "35").unwrap().values.is_empty());
    /// let dict = fix_dict::resolve(&doc).into_result().unwrap();
    /// assert_eq!(dict.version().to_string(), "FIX.5.0SP2");
    /// assert!(dict.header().layout().contains(35));
    /// ```
    pub fn over_transport(self, transport: Document) -> Document {
        use std::collections::HashSet;
        fn names<'a>(
            members: &'a [MemberElement],
            components: &'a [ComponentElement],
            out: &mut HashSet<&'a str>,
            depth: usize,
        ) {
            for m in members {
                match m {
                    MemberElement::Field(r) => {
                        out.insert(&r.name);
                    }
                    MemberElement::Group(g) => {
                        out.insert(&g.name);
                        names(&g.members, components, out, depth + 1);
                    }
                    MemberElement::Component(r) => {
                        if depth < MAX_DEPTH
                            && let Some(c) = components.iter().find(|c| c.name == r.name)
                        {
                            names(&c.members, components, out, depth + 1);
                        }
                    }
                }
            }
        }
        let mut session_fields = HashSet::new();
        for section in [&transport.header, &transport.trailer]
            .into_iter()
            .flatten()
        {
            names(
                &section.members,
                &transport.components,
                &mut session_fields,
                0,
            );
        }
        let session_fields: HashSet<String> =
            session_fields.into_iter().map(str::to_owned).collect();
        let transport_types: HashSet<&str> = transport
            .messages
            .iter()
            .map(|m| m.msg_type.as_str())
            .collect();
        let transport_components: HashSet<&str> = transport
            .components
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        let app_fields: HashSet<&str> = self.fields.iter().map(|f| f.number.as_str()).collect();
        let transport_numbers: HashSet<&str> = transport
            .fields
            .iter()
            .filter(|f| session_fields.contains(&f.name))
            .map(|f| f.number.as_str())
            .collect();
        let messages = transport
            .messages
            .iter()
            .cloned()
            .chain(
                self.messages
                    .iter()
                    .filter(|m| !transport_types.contains(m.msg_type.as_str()))
                    .cloned(),
            )
            .collect();
        let components = transport
            .components
            .iter()
            .cloned()
            .chain(
                self.components
                    .iter()
                    .filter(|c| !transport_components.contains(c.name.as_str()))
                    .cloned(),
            )
            .collect();
        let fields = transport
            .fields
            .iter()
            .filter(|f| {
                transport_numbers.contains(f.number.as_str())
                    || !app_fields.contains(f.number.as_str())
            })
            .cloned()
            .chain(
                self.fields
                    .iter()
                    .filter(|f| !transport_numbers.contains(f.number.as_str()))
                    .cloned(),
            )
            .collect();
        Document {
            file: format!("{}+{}", transport.file, self.file).into(),
            pos: self.pos,
            fix_type: self.fix_type,
            major: self.major,
            minor: self.minor,
            servicepack: self.servicepack,
            header: transport.header,
            trailer: transport.trailer,
            messages,
            components,
            fields,
        }
    }
}

/// `<header>` or `<trailer>`.
///
/// ```
/// let doc = fix_dict::xml::parse("f.xml",
///     "<fix type='FIX' major='4' minor='4'><trailer><field name='CheckSum' required='Y'/></trailer></fix>").unwrap();
/// assert_eq!(doc.trailer.unwrap().members.len(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SectionElement {
    /// Position of the section element.
    pub pos: Pos,
    /// Its members in order.
    pub members: Vec<MemberElement>,
}

/// One member of a message, component, group, header or trailer.
///
/// ```
/// use fix_dict::xml::MemberElement;
/// let doc = fix_dict::xml::parse("f.xml", "<fix type='FIX' major='4' minor='4'><components>\
///     <component name='Parties'><group name='NoPartyIDs' required='N'><field name='PartyID' required='N'/></group></component>\
///     </components></fix>").unwrap();
/// let MemberElement::Group(g) = &doc.components[0].members[0] else { panic!() };
/// assert_eq!((g.name.as_str(), g.required.as_deref(), g.members.len()), ("NoPartyIDs", Some("N"), 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemberElement {
    /// `<field name= required=/>`.
    Field(RefElement),
    /// `<component name= required=/>`.
    Component(RefElement),
    /// `<group name= required=> ... </group>`.
    Group(GroupElement),
}

impl MemberElement {
    /// The referenced name.
    ///
    /// ```
    /// # use fix_dict::xml::{MemberElement, RefElement};
    /// # use fix_dict::Pos;
    /// let m = MemberElement::Field(RefElement { name: "Symbol".into(), required: None, pos: Pos::NONE });
    /// assert_eq!(m.name(), "Symbol");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            MemberElement::Field(r) | MemberElement::Component(r) => &r.name,
            MemberElement::Group(g) => &g.name,
        }
    }

    /// The member's position.
    ///
    /// ```
    /// # use fix_dict::xml::{MemberElement, RefElement};
    /// # use fix_dict::Pos;
    /// let m = MemberElement::Component(RefElement { name: "C".into(), required: None, pos: Pos::new(1, 2) });
    /// assert_eq!(m.pos(), Pos::new(1, 2));
    /// ```
    pub fn pos(&self) -> Pos {
        match self {
            MemberElement::Field(r) | MemberElement::Component(r) => r.pos,
            MemberElement::Group(g) => g.pos,
        }
    }
}

/// A reference to a field or component by name.
///
/// ```
/// # use fix_dict::xml::RefElement;
/// # use fix_dict::Pos;
/// let r = RefElement { name: "Side".into(), required: Some("Y".into()), pos: Pos::new(9, 3) };
/// assert_eq!(r.required.as_deref(), Some("Y"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefElement {
    /// `name`.
    pub name: String,
    /// `required`, as written (QuickFIX treats a missing one as `N`).
    pub required: Option<String>,
    /// Position of the element.
    pub pos: Pos,
}

/// A repeating group: its name is its NUMINGROUP counter field.
///
/// ```
/// # use fix_dict::xml::GroupElement;
/// # use fix_dict::Pos;
/// let g = GroupElement { name: "NoHops".into(), required: None, members: vec![], pos: Pos::NONE };
/// assert!(g.members.is_empty());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupElement {
    /// `name` (the counter field).
    pub name: String,
    /// `required`, as written.
    pub required: Option<String>,
    /// The members of one entry, in order.
    pub members: Vec<MemberElement>,
    /// Position of the element.
    pub pos: Pos,
}

/// A `<message>` definition.
///
/// ```
/// let doc = fix_dict::xml::parse("f.xml", "<fix type='FIX' major='4' minor='4'><messages>\
///     <message name='Logon' msgtype='A' msgcat='admin'/></messages></fix>").unwrap();
/// assert_eq!(doc.messages[0].msg_cat.as_deref(), Some("admin"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageElement {
    /// `name`.
    pub name: String,
    /// `msgtype`.
    pub msg_type: String,
    /// `msgcat`, as written.
    pub msg_cat: Option<String>,
    /// The body members in order.
    pub members: Vec<MemberElement>,
    /// Position of the element.
    pub pos: Pos,
}

/// A `<component>` definition.
///
/// ```
/// let doc = fix_dict::xml::parse("f.xml", "<fix type='FIX' major='4' minor='4'><components>\
///     <component name='Instrument'><field name='Symbol' required='Y'/></component></components></fix>").unwrap();
/// assert_eq!(doc.components[0].name, "Instrument");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ComponentElement {
    /// `name`.
    pub name: String,
    /// The members in order.
    pub members: Vec<MemberElement>,
    /// Position of the element.
    pub pos: Pos,
}

/// A `<fields><field>` definition.
///
/// ```
/// let doc = fix_dict::xml::parse("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
///     <field number='54' name='Side' type='CHAR'><value enum='1' description='BUY'/></field></fields></fix>").unwrap();
/// let side = &doc.fields[0];
/// assert_eq!((side.number.as_str(), side.ty.as_str(), side.values[0].value.as_str()), ("54", "CHAR", "1"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldElement {
    /// `number`, as written.
    pub number: String,
    /// `name`.
    pub name: String,
    /// `type`, as written.
    pub ty: String,
    /// The `<value>` children in order.
    pub values: Vec<ValueElement>,
    /// Position of the element.
    pub pos: Pos,
}

/// A `<value enum= description=/>`.
///
/// ```
/// # use fix_dict::xml::ValueElement;
/// # use fix_dict::Pos;
/// let v = ValueElement { value: "2".into(), description: Some("LIMIT".into()), pos: Pos::NONE };
/// assert_eq!(v.description.as_deref(), Some("LIMIT"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValueElement {
    /// `enum`: the wire value.
    pub value: String,
    /// `description`.
    pub description: Option<String>,
    /// Position of the element.
    pub pos: Pos,
}

/// Reads a dictionary from `text`; `file` is only used in diagnostics (pass
/// the file name, not an absolute path, to keep messages reproducible).
///
/// ```
/// let err = fix_dict::xml::parse("x.xml", "<fix type='FIX' major='4' minor='4'>\n<header>\n</fix>").unwrap_err();
/// assert_eq!(err.pos, fix_dict::Pos::new(3, 1));
/// assert!(matches!(err.kind, fix_dict::DiagnosticKind::Syntax(_)));
/// ```
pub fn parse(file: &str, text: &str) -> Result<Document, Diagnostic> {
    // quick-xml skips a byte-order mark without counting it in its offsets;
    // strip it here so offsets and our line/column table agree.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut p = Parser::new(file, text);
    p.document()
}

/// An element start with its position and attributes.
struct Elem {
    name: String,
    pos: Pos,
    attrs: Vec<(String, String)>,
    /// `<x/>`: no children and no end event.
    empty: bool,
}

impl Elem {
    fn get(&self, key: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

enum Ev {
    Start(Elem),
    End,
    Eof,
}

/// Incremental byte offset → line/column conversion (offsets mostly grow).
struct Lines {
    offset: usize,
    line: u32,
    line_start: usize,
}

impl Lines {
    const START: Lines = Lines {
        offset: 0,
        line: 1,
        line_start: 0,
    };

    fn pos(&mut self, text: &[u8], offset: usize) -> Pos {
        let offset = offset.min(text.len());
        if offset < self.offset {
            *self = Lines::START;
        }
        let from = self.offset;
        for (i, &b) in text.get(from..offset).unwrap_or(&[]).iter().enumerate() {
            if b == b'\n' {
                self.line = self.line.saturating_add(1);
                self.line_start = from + i + 1;
            }
        }
        self.offset = offset;
        let chars = text
            .get(self.line_start..offset)
            .unwrap_or(&[])
            .iter()
            .filter(|&&b| b & 0xC0 != 0x80)
            .count();
        Pos::new(self.line, u32::try_from(chars + 1).unwrap_or(u32::MAX))
    }
}

struct Parser<'a> {
    reader: Reader<&'a [u8]>,
    text: &'a [u8],
    file: Arc<str>,
    lines: Lines,
    /// Open elements (name, position), innermost last.
    stack: Vec<(String, Pos)>,
}

fn offset(o: u64) -> usize {
    usize::try_from(o).unwrap_or(usize::MAX)
}

impl<'a> Parser<'a> {
    fn new(file: &str, text: &'a str) -> Self {
        let mut reader = Reader::from_str(text);
        let config = reader.config_mut();
        config.check_end_names = true;
        config.expand_empty_elements = false;
        config.trim_text(false);
        Parser {
            reader,
            text: text.as_bytes(),
            file: file.into(),
            lines: Lines::START,
            stack: Vec::new(),
        }
    }

    fn diag(
        &self,
        pos: Pos,
        element: &str,
        name: Option<&str>,
        kind: DiagnosticKind,
    ) -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            file: self.file.clone(),
            pos,
            element: element.to_owned(),
            name: name.map(str::to_owned),
            kind,
        }
    }

    fn elem_diag(&self, e: &Elem, kind: DiagnosticKind) -> Diagnostic {
        self.diag(e.pos, &e.name, e.get("name"), kind)
    }

    /// The innermost open element, for errors found by quick-xml.
    fn context(&self) -> &str {
        self.stack.last().map_or("document", |(n, _)| n.as_str())
    }

    fn next(&mut self) -> Result<Ev, Diagnostic> {
        loop {
            let start = offset(self.reader.buffer_position());
            let event = match self.reader.read_event() {
                Ok(ev) => ev,
                Err(e) => {
                    let at = offset(self.reader.error_position());
                    let pos = self.lines.pos(self.text, at);
                    let ctx = self.context().to_owned();
                    return Err(self.diag(pos, &ctx, None, DiagnosticKind::Syntax(e.to_string())));
                }
            };
            let pos = self.lines.pos(self.text, start);
            match event {
                Event::Start(e) => return self.elem(&e, pos, false).map(Ev::Start),
                Event::Empty(e) => return self.elem(&e, pos, true).map(Ev::Start),
                Event::End(_) => {
                    self.stack.pop();
                    return Ok(Ev::End);
                }
                Event::Eof => {
                    if let Some((name, pos)) = self.stack.last() {
                        return Err(self.diag(*pos, name, None, DiagnosticKind::UnclosedElement));
                    }
                    return Ok(Ev::Eof);
                }
                Event::Text(t) if t.bytes().all(|b| b.is_ascii_whitespace()) => {}
                Event::Text(_) | Event::CData(_) | Event::GeneralRef(_) => {
                    let ctx = self.context().to_owned();
                    return Err(self.diag(pos, &ctx, None, DiagnosticKind::UnexpectedText));
                }
                Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
            }
        }
    }

    fn elem(&mut self, e: &BytesStart<'_>, pos: Pos, empty: bool) -> Result<Elem, Diagnostic> {
        let name = e.name().as_ref().to_owned();
        let mut attrs = Vec::new();
        for a in e.attributes() {
            let a = a.map_err(|err| {
                self.diag(pos, &name, None, DiagnosticKind::Syntax(err.to_string()))
            })?;
            let value = a.normalized_value(XmlVersion::Implicit1_0).map_err(|err| {
                self.diag(pos, &name, None, DiagnosticKind::Syntax(err.to_string()))
            })?;
            let key = a.key.as_ref().to_owned();
            attrs.push((key, value.into_owned()));
        }
        if !empty {
            if self.stack.len() >= MAX_DEPTH {
                return Err(self.diag(pos, &name, None, DiagnosticKind::TooDeep(MAX_DEPTH)));
            }
            self.stack.push((name.clone(), pos));
        }
        Ok(Elem {
            name,
            pos,
            attrs,
            empty,
        })
    }

    fn required(&self, e: &Elem, key: &'static str) -> Result<String, Diagnostic> {
        e.get(key)
            .map(str::to_owned)
            .ok_or_else(|| self.elem_diag(e, DiagnosticKind::MissingAttribute(key)))
    }

    fn unexpected(&self, child: &Elem, parent: &str) -> Diagnostic {
        self.elem_diag(
            child,
            DiagnosticKind::UnexpectedElement {
                parent: parent.to_owned(),
            },
        )
    }

    /// Reads the children of `parent` (already started), calling `f` on each
    /// child element; `f` must consume the child's content.
    fn children(
        &mut self,
        parent: &Elem,
        mut f: impl FnMut(&mut Self, Elem) -> Result<(), Diagnostic>,
    ) -> Result<(), Diagnostic> {
        if parent.empty {
            return Ok(());
        }
        loop {
            match self.next()? {
                Ev::Start(child) => f(self, child)?,
                Ev::End => return Ok(()),
                // Unreachable: `next` reports unclosed elements at EOF.
                Ev::Eof => {
                    return Err(self.elem_diag(parent, DiagnosticKind::UnclosedElement));
                }
            }
        }
    }

    /// Consumes an element that must have no children.
    fn leaf(&mut self, e: &Elem) -> Result<(), Diagnostic> {
        let parent = e.name.clone();
        self.children(e, |p, child| Err(p.unexpected(&child, &parent)))
    }

    fn document(&mut self) -> Result<Document, Diagnostic> {
        let root = match self.next()? {
            Ev::Start(e) if e.name == "fix" => e,
            Ev::Start(e) => return Err(self.unexpected(&e, "document")),
            Ev::End | Ev::Eof => {
                let pos = self.lines.pos(self.text, self.text.len());
                return Err(self.diag(pos, "document", None, DiagnosticKind::MissingRoot));
            }
        };
        let mut doc = Document {
            file: self.file.clone(),
            pos: root.pos,
            fix_type: self.required(&root, "type")?,
            major: self.required(&root, "major")?,
            minor: self.required(&root, "minor")?,
            servicepack: root.get("servicepack").map(str::to_owned),
            ..Document::default()
        };
        let mut seen: Vec<&'static str> = Vec::new();
        self.children(&root, |p, child| {
            let section = match child.name.as_str() {
                "header" => "header",
                "trailer" => "trailer",
                "messages" => "messages",
                "components" => "components",
                "fields" => "fields",
                _ => return Err(p.unexpected(&child, "fix")),
            };
            if seen.contains(&section) {
                return Err(p.elem_diag(&child, DiagnosticKind::DuplicateSection));
            }
            seen.push(section);
            match section {
                "header" => {
                    doc.header = Some(SectionElement {
                        pos: child.pos,
                        members: p.members(&child)?,
                    });
                }
                "trailer" => {
                    doc.trailer = Some(SectionElement {
                        pos: child.pos,
                        members: p.members(&child)?,
                    });
                }
                "messages" => p.children(&child, |p, m| {
                    if m.name != "message" {
                        return Err(p.unexpected(&m, "messages"));
                    }
                    let def = MessageElement {
                        name: p.required(&m, "name")?,
                        msg_type: p.required(&m, "msgtype")?,
                        msg_cat: m.get("msgcat").map(str::to_owned),
                        members: p.members(&m)?,
                        pos: m.pos,
                    };
                    doc.messages.push(def);
                    Ok(())
                })?,
                "components" => p.children(&child, |p, c| {
                    if c.name != "component" {
                        return Err(p.unexpected(&c, "components"));
                    }
                    let def = ComponentElement {
                        name: p.required(&c, "name")?,
                        members: p.members(&c)?,
                        pos: c.pos,
                    };
                    doc.components.push(def);
                    Ok(())
                })?,
                _ => p.children(&child, |p, f| {
                    if f.name != "field" {
                        return Err(p.unexpected(&f, "fields"));
                    }
                    let def = p.field_def(&f)?;
                    doc.fields.push(def);
                    Ok(())
                })?,
            }
            Ok(())
        })?;
        // Only whitespace, comments and the like may follow the root.
        match self.next()? {
            Ev::Eof => Ok(doc),
            Ev::Start(e) => Err(self.unexpected(&e, "document")),
            Ev::End => {
                let pos = self
                    .lines
                    .pos(self.text, offset(self.reader.buffer_position()));
                Err(self.diag(pos, "document", None, DiagnosticKind::UnexpectedText))
            }
        }
    }

    fn field_def(&mut self, f: &Elem) -> Result<FieldElement, Diagnostic> {
        let mut def = FieldElement {
            number: self.required(f, "number")?,
            name: self.required(f, "name")?,
            ty: self.required(f, "type")?,
            values: Vec::new(),
            pos: f.pos,
        };
        self.children(f, |p, v| {
            if v.name != "value" {
                return Err(p.unexpected(&v, "field"));
            }
            let value = ValueElement {
                value: p.required(&v, "enum")?,
                description: v.get("description").map(str::to_owned),
                pos: v.pos,
            };
            p.leaf(&v)?;
            def.values.push(value);
            Ok(())
        })?;
        Ok(def)
    }

    fn members(&mut self, parent: &Elem) -> Result<Vec<MemberElement>, Diagnostic> {
        let mut out = Vec::new();
        let parent_name = parent.name.clone();
        self.children(parent, |p, m| {
            let member = match m.name.as_str() {
                "field" | "component" => {
                    let r = RefElement {
                        name: p.required(&m, "name")?,
                        required: m.get("required").map(str::to_owned),
                        pos: m.pos,
                    };
                    p.leaf(&m)?;
                    if m.name == "field" {
                        MemberElement::Field(r)
                    } else {
                        MemberElement::Component(r)
                    }
                }
                "group" => MemberElement::Group(GroupElement {
                    name: p.required(&m, "name")?,
                    required: m.get("required").map(str::to_owned),
                    members: p.members(&m)?,
                    pos: m.pos,
                }),
                _ => return Err(p.unexpected(&m, &parent_name)),
            };
            out.push(member);
            Ok(())
        })?;
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> Diagnostic {
        parse("t.xml", text).unwrap_err()
    }

    const ROOT: &str = "<fix type='FIX' major='4' minor='4'>";

    #[test]
    fn reads_every_section_with_positions() {
        let text = "<?xml version='1.0'?>\n<!-- c -->\n<fix type='FIX' major='4' minor='4' servicepack='0'>\n \
            <header><field name='BeginString' required='Y'/></header>\n \
            <trailer><field name='CheckSum' required='Y' /></trailer>\n \
            <messages><message name='News' msgtype='B' msgcat='app'>\n  \
            <group name='NoLinesOfText' required='Y'><field name='Text' required='Y'/>\
            <group name='NoX'><component name='C'/></group></group>\n \
            </message></messages>\n \
            <components><component name='C'><field name='Text'></field></component></components>\n \
            <fields><field number='58' name='Text' type='STRING'/>\n  \
            <field number='54' name='Side' type='CHAR'><value enum='1' description='BUY'/><value enum='2'></value></field>\n \
            </fields>\n</fix>\n";
        let doc = parse("t.xml", text).unwrap();
        assert_eq!(doc.pos, Pos::new(3, 1));
        assert_eq!(doc.servicepack.as_deref(), Some("0"));
        let header = doc.header.as_ref().unwrap();
        assert_eq!(header.pos, Pos::new(4, 2));
        assert_eq!(header.members[0].pos(), Pos::new(4, 10));
        assert_eq!(doc.trailer.as_ref().unwrap().members[0].name(), "CheckSum");
        let news = &doc.messages[0];
        assert_eq!(news.pos, Pos::new(6, 12));
        let MemberElement::Group(g) = &news.members[0] else {
            panic!("group expected")
        };
        assert_eq!(g.pos, Pos::new(7, 3));
        assert_eq!(g.required.as_deref(), Some("Y"));
        let MemberElement::Group(inner) = &g.members[1] else {
            panic!("nested group expected")
        };
        assert_eq!(inner.required, None);
        assert!(matches!(&inner.members[0], MemberElement::Component(c) if c.name == "C"));
        assert_eq!(doc.components[0].members.len(), 1);
        assert_eq!(doc.fields.len(), 2);
        let side = &doc.fields[1];
        assert_eq!(side.pos, Pos::new(11, 3));
        assert_eq!(side.values.len(), 2);
        assert_eq!(side.values[1].description, None);
        assert_eq!(side.values[0].pos, Pos::new(11, 46));
    }

    #[test]
    fn entities_in_attributes_are_unescaped() {
        let doc = parse(
            "t.xml",
            "<fix type='FIX' major='4' minor='4'><fields><field number='1' name='A&amp;B' type='STRING'/></fields></fix>",
        )
        .unwrap();
        assert_eq!(doc.fields[0].name, "A&B");
    }

    #[test]
    fn mismatched_end_tag() {
        let d = err("<fix type='FIX' major='4' minor='4'>\n<header>\n  </trailer>\n</fix>");
        assert_eq!(d.pos, Pos::new(3, 3));
        assert_eq!(d.element, "header");
        assert_eq!(
            d.kind,
            DiagnosticKind::Syntax(
                "ill-formed document: expected `</header>`, but `</trailer>` was found".into()
            )
        );
    }

    #[test]
    fn unclosed_element_points_at_its_start() {
        let d = err(
            "<fix type='FIX' major='4' minor='4'>\n <messages>\n  <message name='A' msgtype='A'>\n </messages>",
        );
        // quick-xml sees </messages> closing <message>
        assert_eq!(d.pos, Pos::new(4, 2));
        assert!(matches!(d.kind, DiagnosticKind::Syntax(_)));
        let d = err("<fix type='FIX' major='4' minor='4'>\n <messages>\n");
        assert_eq!(d.pos, Pos::new(2, 2));
        assert_eq!(d.element, "messages");
        assert_eq!(d.kind, DiagnosticKind::UnclosedElement);
    }

    #[test]
    fn missing_attribute_names_element_and_attribute() {
        let d = err(&format!(
            "{ROOT}\n<fields>\n   <field number='1' type='INT'/></fields></fix>"
        ));
        assert_eq!(d.pos, Pos::new(3, 4));
        assert_eq!(d.element, "field");
        assert_eq!(d.kind, DiagnosticKind::MissingAttribute("name"));
        let d = err(&format!(
            "{ROOT}<messages><message name='X' msgcat='app'/></messages></fix>"
        ));
        assert_eq!(d.name.as_deref(), Some("X"));
        assert_eq!(d.kind, DiagnosticKind::MissingAttribute("msgtype"));
        assert_eq!(
            d.to_string(),
            "t.xml:1:47: error: <message name=\"X\">: missing attribute `msgtype`"
        );
        let d = err("<fix major='4' minor='4'/>");
        assert_eq!(
            (d.pos, d.kind),
            (Pos::new(1, 1), DiagnosticKind::MissingAttribute("type"))
        );
        let d = err(&format!(
            "{ROOT}<fields><field number='1' name='A' type='INT'><value description='X'/></field></fields></fix>"
        ));
        assert_eq!(d.element, "value");
        assert_eq!(d.kind, DiagnosticKind::MissingAttribute("enum"));
    }

    #[test]
    fn unexpected_elements() {
        let d = err(&format!("{ROOT}\n<header><value enum='1'/></header></fix>"));
        assert_eq!((d.pos, d.element.as_str()), (Pos::new(2, 9), "value"));
        assert_eq!(
            d.kind,
            DiagnosticKind::UnexpectedElement {
                parent: "header".into()
            }
        );
        let d = err(&format!("{ROOT}<bogus/></fix>"));
        assert_eq!(
            d.kind,
            DiagnosticKind::UnexpectedElement {
                parent: "fix".into()
            }
        );
        let d = err("<dictionary/>");
        assert_eq!(
            (d.element.as_str(), d.kind),
            (
                "dictionary",
                DiagnosticKind::UnexpectedElement {
                    parent: "document".into()
                }
            )
        );
        let d = err(&format!(
            "{ROOT}<header><field name='A'><field name='B'/></field></header></fix>"
        ));
        assert_eq!(d.name.as_deref(), Some("B"));
        assert_eq!(
            d.kind,
            DiagnosticKind::UnexpectedElement {
                parent: "field".into()
            }
        );
        let d = err(&format!(
            "{ROOT}</fix><fix type='FIX' major='4' minor='4'/>"
        ));
        assert_eq!(d.pos, Pos::new(1, 43));
        assert_eq!(d.element, "fix");
    }

    #[test]
    fn duplicate_section() {
        let d = err(&format!("{ROOT}<header/>\n  <header/></fix>"));
        assert_eq!(
            (d.pos, d.element.as_str(), d.kind),
            (Pos::new(2, 3), "header", DiagnosticKind::DuplicateSection)
        );
    }

    #[test]
    fn text_is_rejected() {
        let d = err(&format!("{ROOT}\n<header>oops</header></fix>"));
        assert_eq!(
            (d.pos, d.element.as_str(), d.kind),
            (Pos::new(2, 9), "header", DiagnosticKind::UnexpectedText)
        );
    }

    #[test]
    fn empty_or_rootless_input() {
        for text in ["", "  \n", "<!-- only a comment -->"] {
            let d = err(text);
            assert_eq!(d.kind, DiagnosticKind::MissingRoot, "{text:?}");
            assert_eq!(d.element, "document");
        }
    }

    #[test]
    fn bad_syntax_has_position() {
        let d = err(&format!(
            "{ROOT}\n<header>\n  <field name='A' required='Y'\n</header></fix>"
        ));
        // quick-xml reads `<field ... \n</header>` as one malformed tag.
        assert_eq!(
            d.to_string(),
            "t.xml:3:3: error: <field>: malformed XML: position 36: attribute key must be directly followed by `=` or space"
        );
        let d = err(&format!(
            "{ROOT}\n<header>\n  <field name='A' required='Y'/>\n</header></fix"
        ));
        assert_eq!((d.pos, d.element.as_str()), (Pos::new(4, 10), "fix"));
        assert!(matches!(d.kind, DiagnosticKind::Syntax(_)), "{d}");
        let d = err(&format!(
            "{ROOT}<header><field name='A' name='B'/></header></fix>"
        ));
        assert!(matches!(d.kind, DiagnosticKind::Syntax(_)), "{d}");
        assert_eq!(d.element, "field");
    }

    #[test]
    fn byte_order_mark_and_crlf() {
        let d = err(
            "\u{feff}<?xml version='1.0' encoding='UTF-8'?>\r\n<fix type='FIX' major='4' minor='4'>\r\n<header>\r\n  <field/></header></fix>",
        );
        assert_eq!((d.pos, d.element.as_str()), (Pos::new(4, 3), "field"));
    }

    #[test]
    fn columns_count_characters() {
        let d = err(
            "<fix type='FIX' major='4' minor='4'><fields>\n<!--é--><field number='1' type='INT'/></fields></fix>",
        );
        assert_eq!(d.pos, Pos::new(2, 9));
    }

    #[test]
    fn nesting_is_limited() {
        let mut text = String::from(ROOT);
        text.push_str("<header>");
        for _ in 0..MAX_DEPTH {
            text.push_str("<group name='G'>");
        }
        let d = err(&text);
        assert_eq!(d.kind, DiagnosticKind::TooDeep(MAX_DEPTH));
    }
}
