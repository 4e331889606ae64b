//! The resolved, validated dictionary and its run-time lookups.

mod enum_values;
mod lookup;
mod resolve;
mod schema;

use std::collections::HashMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

pub use enum_values::check_enum_value;
pub use fix_core::{DataFieldPair, FieldType, UnknownFieldType};
pub use resolve::{MAX_COMPONENT_DEPTH, Resolved, resolve};

use crate::diagnostic::{Diagnostic, DiagnosticKind, Diagnostics, Pos, Severity};
use fix_core::validate::FieldInfo;
use lookup::{Bucket, MsgTypeIndex, TagIndex, TagTable, ValueCheck};

/// Whether a dictionary describes a FIX session+application protocol
/// (`FIX`) or the FIXT transport (`FIXT`).
///
/// ```
/// use fix_dict::Protocol;
/// assert_eq!(Protocol::Fixt.to_string(), "FIXT");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protocol {
    /// `type="FIX"`.
    Fix,
    /// `type="FIXT"`.
    Fixt,
}

impl fmt::Display for Protocol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Protocol::Fix => "FIX",
            Protocol::Fixt => "FIXT",
        })
    }
}

/// The `<fix type major minor servicepack>` of a dictionary. `Display` gives
/// the conventional name: `FIX.4.4`, `FIX.5.0SP2`, `FIXT.1.1`.
///
/// ```
/// use fix_dict::{Protocol, Version};
/// let v = Version { protocol: Protocol::Fix, major: 5, minor: 0, servicepack: 2 };
/// assert_eq!(v.to_string(), "FIX.5.0SP2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Version {
    /// FIX or FIXT.
    pub protocol: Protocol,
    /// `major`.
    pub major: u8,
    /// `minor`.
    pub minor: u8,
    /// `servicepack` (0 when absent).
    pub servicepack: u8,
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.protocol, self.major, self.minor)?;
        if self.servicepack != 0 {
            write!(f, "SP{}", self.servicepack)?;
        }
        Ok(())
    }
}

impl Version {
    /// The BeginString (8) of this version's messages: `FIX.4.4` for FIX 4.4,
    /// `FIXT.1.1` for the FIXT 1.1 transport, and also `FIXT.1.1` for FIX 5.0
    /// and later, whose application messages ride on the FIXT 1.1 transport
    /// (service packs never show in BeginString).
    ///
    /// ```
    /// use fix_dict::{Protocol, Version};
    /// let v = |protocol, major, minor, servicepack| Version { protocol, major, minor, servicepack };
    /// assert_eq!(v(Protocol::Fix, 4, 4, 0).begin_string(), "FIX.4.4");
    /// assert_eq!(v(Protocol::Fix, 5, 0, 2).begin_string(), "FIXT.1.1");
    /// assert_eq!(v(Protocol::Fixt, 1, 1, 0).begin_string(), "FIXT.1.1");
    /// ```
    pub fn begin_string(&self) -> String {
        match self.protocol {
            Protocol::Fix if self.major >= 5 => "FIXT.1.1".to_owned(),
            protocol => format!("{protocol}.{}.{}", self.major, self.minor),
        }
    }

    /// This version's ApplVerID (1128) code, by which a FIXT.1.1 session tells
    /// which application version a message is (`"9"` for FIX.5.0SP2); `None`
    /// for the FIXT transport and for versions ApplVerID does not list.
    ///
    /// ```
    /// use fix_dict::{Protocol, Version};
    /// let v = |protocol, major, minor, servicepack| Version { protocol, major, minor, servicepack };
    /// assert_eq!(v(Protocol::Fix, 5, 0, 2).appl_ver_id(), Some("9"));
    /// assert_eq!(v(Protocol::Fix, 4, 4, 0).appl_ver_id(), Some("6"));
    /// assert_eq!(v(Protocol::Fixt, 1, 1, 0).appl_ver_id(), None);
    /// ```
    pub fn appl_ver_id(&self) -> Option<&'static str> {
        if self.protocol != Protocol::Fix {
            return None;
        }
        Some(match (self.major, self.minor, self.servicepack) {
            (2, 7, 0) => "0",
            (3, 0, 0) => "1",
            (4, 0, 0) => "2",
            (4, 1, 0) => "3",
            (4, 2, 0) => "4",
            (4, 3, 0) => "5",
            (4, 4, 0) => "6",
            (5, 0, 0) => "7",
            (5, 0, 1) => "8",
            (5, 0, 2) => "9",
            _ => return None,
        })
    }
}

/// A message's `msgcat`.
///
/// ```
/// use fix_dict::Category;
/// assert_eq!(Category::Admin.to_string(), "admin");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Category {
    /// Session-level (`admin`).
    Admin,
    /// Application-level (`app`; also assumed when `msgcat` is absent).
    App,
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Category::Admin => "admin",
            Category::App => "app",
        })
    }
}

/// One `<value enum= description=/>` of an enumerated field.
///
/// ```
/// # use fix_dict::EnumValue;
/// # use fix_dict::Pos;
/// let v = EnumValue { value: "1".into(), description: "BUY".into(), pos: Pos::NONE };
/// assert_eq!(v.value, "1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumValue {
    /// The wire value.
    pub value: String,
    /// The `description` (empty when absent).
    pub description: String,
    /// Position of the `<value>`.
    pub pos: Pos,
}

/// A field definition.
///
/// ```
/// # let dict = fix_dict::Dictionary::from_xml("f.xml",
/// #   "<fix type='FIX' major='4' minor='4'><fields><field number='18' name='ExecInst' type='MULTIPLEVALUESTRING'>\
/// #    <value enum='1' description='NOT_HELD'/><value enum='G' description='ALL_OR_NONE'/></field></fields></fix>").unwrap();
/// let exec_inst = dict.field(18).unwrap();
/// assert_eq!(exec_inst.value(b"G").unwrap().description, "ALL_OR_NONE");
/// assert!(exec_inst.accepts(b"1 G"));  // a multi-value field takes a space-separated list
/// assert!(!exec_inst.accepts(b"1 X"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// Tag number.
    pub tag: u32,
    /// Name.
    pub name: String,
    /// Type.
    pub ty: FieldType,
    /// Enumerated values, sorted by wire value (empty when not enumerated).
    pub values: Vec<EnumValue>,
    /// Position of the definition.
    pub pos: Pos,
}

impl Field {
    /// Whether the dictionary lists values for this field.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml",
    /// #   "<fix type='FIX' major='4' minor='4'><fields><field number='58' name='Text' type='STRING'/></fields></fix>").unwrap();
    /// assert!(!dict.field(58).unwrap().is_enumerated());
    /// ```
    pub fn is_enumerated(&self) -> bool {
        !self.values.is_empty()
    }

    /// The listed value `v` (`O(log n)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml",
    /// #   "<fix type='FIX' major='4' minor='4'><fields><field number='54' name='Side' type='CHAR'>\
    /// #    <value enum='1' description='BUY'/></field></fields></fix>").unwrap();
    /// assert_eq!(dict.field(54).unwrap().value(b"1").map(|v| v.description.as_str()), Some("BUY"));
    /// ```
    pub fn value(&self, v: &[u8]) -> Option<&EnumValue> {
        self.values
            .binary_search_by(|x| x.value.as_bytes().cmp(v))
            .ok()
            .and_then(|i| self.values.get(i))
    }

    /// Whether `v` is a valid wire value as far as the enumeration goes:
    /// always true for a field that is not enumerated; for multi-value types
    /// every space-separated element must be listed.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml",
    /// #   "<fix type='FIX' major='4' minor='4'><fields><field number='54' name='Side' type='CHAR'>\
    /// #    <value enum='1' description='BUY'/></field></fields></fix>").unwrap();
    /// let side = dict.field(54).unwrap();
    /// assert!(side.accepts(b"1") && !side.accepts(b"2"));
    /// ```
    pub fn accepts(&self, v: &[u8]) -> bool {
        !self.is_enumerated()
            || fix_core::validate::value_listed(self.ty.is_multiple(), v, |x| {
                self.value(x).is_some()
            })
    }
}

/// One member of a message, component, group, header or trailer, as written
/// (references resolved, components not expanded).
///
/// ```
/// # use fix_dict::Member;
/// # use fix_dict::Pos;
/// let m = Member::Field { tag: 55, required: true, pos: Pos::NONE };
/// assert!(m.required());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Member {
    /// A field.
    Field {
        /// Its tag.
        tag: u32,
        /// `required="Y"`.
        required: bool,
        /// Position of the reference.
        pos: Pos,
    },
    /// A component, by index into [`Dictionary::components`].
    Component {
        /// Index into [`Dictionary::components`].
        component: usize,
        /// `required="Y"`.
        required: bool,
        /// Position of the reference.
        pos: Pos,
    },
    /// A repeating group.
    Group(GroupDecl),
}

impl Member {
    /// Whether the member is `required="Y"` where it is written.
    ///
    /// ```
    /// # use fix_dict::Member;
    /// # use fix_dict::Pos;
    /// assert!(!Member::Component { component: 0, required: false, pos: Pos::NONE }.required());
    /// ```
    pub fn required(&self) -> bool {
        match self {
            Member::Field { required, .. } | Member::Component { required, .. } => *required,
            Member::Group(g) => g.required,
        }
    }
}

/// A repeating group as written.
///
/// ```
/// # use fix_dict::{GroupDecl, Member};
/// # use fix_dict::Pos;
/// let g = GroupDecl { id: 0, counter: 453, required: false, members: vec![
///     Member::Field { tag: 448, required: false, pos: Pos::NONE }], pos: Pos::NONE };
/// assert_eq!(g.counter, 453);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupDecl {
    /// The group's number, unique in its dictionary and the same on every
    /// reading of the same file (groups are numbered as they are resolved).
    pub id: usize,
    /// The NUMINGROUP counter tag (the group's name).
    pub counter: u32,
    /// `required="Y"`.
    pub required: bool,
    /// Members of one entry.
    pub members: Vec<Member>,
    /// Position of the `<group>`.
    pub pos: Pos,
}

/// A field of a [`Layout`].
///
/// ```
/// # use fix_dict::LayoutField;
/// let f = LayoutField { tag: 453, required: false, group: Some(0) };
/// assert!(f.group.is_some());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutField {
    /// The tag.
    pub tag: u32,
    /// Required at this level: `required="Y"` here and on every enclosing
    /// component reference (a field required inside an optional component
    /// is not required by the message).
    pub required: bool,
    /// For a group counter, the index of its layout in [`Layout::groups`].
    pub group: Option<usize>,
}

/// One level of a message, header, trailer, component or group entry with
/// components expanded: the tags allowed at this level in dictionary order,
/// and the nested groups (whose members are not tags of this level).
///
/// ```
/// # let dict = fix_dict::Dictionary::from_xml("f.xml",
/// #   "<fix type='FIX' major='4' minor='4'><header><field name='A' required='Y'/><field name='B' required='N'/></header>\
/// #    <fields><field number='1' name='A' type='INT'/><field number='2' name='B' type='INT'/></fields></fix>").unwrap();
/// let header = dict.header().layout();
/// assert_eq!(header.tags().collect::<Vec<_>>(), [1, 2]);
/// assert!(header.is_required(1) && !header.is_required(2) && !header.is_required(3));
/// assert_eq!(header.len(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    fields: Vec<LayoutField>,
    /// `tag -> index into fields`.
    index: TagTable,
    /// `(tag, index into fields)` of the required fields, in dictionary order.
    required: Vec<(u32, u32)>,
    /// The required fields' indexes as a bit set, when all are below 256.
    required_bits: Option<[u64; 4]>,
    /// Single-byte value sets of enumerated fields, for validation.
    byte_sets: Vec<[u64; 4]>,
    groups: Vec<GroupLayout>,
}

impl Layout {
    fn new(fields: Vec<LayoutField>, groups: Vec<GroupLayout>) -> Layout {
        let index = TagTable::new(&fields);
        let required = fields
            .iter()
            .enumerate()
            .filter(|(_, f)| f.required)
            .map(|(i, f)| (f.tag, u32::try_from(i).unwrap_or(u32::MAX)))
            .collect::<Vec<_>>();
        let mut bits = [0u64; 4];
        let required_bits = required
            .iter()
            .all(|&(_, i)| {
                let word = bits.get_mut(i as usize / 64);
                word.map(|w| *w |= 1 << (i % 64)).is_some()
            })
            .then_some(bits);
        Layout {
            fields,
            index,
            required,
            required_bits,
            byte_sets: Vec::new(),
            groups,
        }
    }

    /// Records each member's [`FieldInfo`] (and single-byte values) in the tag table, here and in every nested group, so validation finds it with the
    /// member.
    fn annotate(&mut self, info: &impl Fn(u32) -> Option<(FieldInfo, Option<[u64; 4]>)>) {
        for bucket in &mut self.index.slots {
            if let Some((info, byte_set)) = info(bucket.tag) {
                bucket.info = Some(info);
                if let Some(set) = byte_set
                    && let Ok(n) = u16::try_from(self.byte_sets.len() + 1)
                {
                    self.byte_sets.push(set);
                    bucket.set = n;
                }
            }
        }
        for group in &mut self.groups {
            group.entry.annotate(info);
        }
    }

    /// The member `tag` as its tag table holds it.
    #[inline]
    pub(crate) fn bucket(&self, tag: u32) -> Option<&Bucket> {
        self.index.bucket(tag)
    }

    /// The single-byte values of a bucket's field, if it has them.
    #[inline]
    pub(crate) fn byte_set(&self, bucket: &Bucket) -> Option<&[u64; 4]> {
        self.byte_sets.get(usize::from(bucket.set).checked_sub(1)?)
    }

    /// The group layout of the group counter at `position`.
    pub(crate) fn group_at(&self, position: usize) -> Option<&GroupLayout> {
        self.groups.get(self.fields.get(position)?.group?)
    }

    /// The fields of this level in dictionary order.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml",
    /// #   "<fix type='FIX' major='4' minor='4'><trailer><field name='A' required='Y'/></trailer>\
    /// #    <fields><field number='10' name='A' type='STRING'/></fields></fix>").unwrap();
    /// assert_eq!(dict.trailer().layout().fields()[0].tag, 10);
    /// ```
    pub fn fields(&self) -> &[LayoutField] {
        &self.fields
    }

    /// The tags of this level in dictionary order.
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert_eq!(l.tags().count(), 0);
    /// ```
    pub fn tags(&self) -> impl ExactSizeIterator<Item = u32> + '_ {
        self.fields.iter().map(|f| f.tag)
    }

    /// The required tags of this level in dictionary order.
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert_eq!(l.required_tags().count(), 0);
    /// ```
    pub fn required_tags(&self) -> impl Iterator<Item = u32> + '_ {
        self.fields.iter().filter(|f| f.required).map(|f| f.tag)
    }

    /// Number of tags at this level.
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert_eq!(l.len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// Whether this level has no tags.
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert!(l.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The field `tag` of this level (`O(log n)`).
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert!(l.get(55).is_none());
    /// ```
    pub fn get(&self, tag: u32) -> Option<&LayoutField> {
        self.fields.get(self.index.get(tag)?)
    }

    /// Whether `tag` is allowed at this level (`O(log n)`).
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert!(!l.contains(55));
    /// ```
    pub fn contains(&self, tag: u32) -> bool {
        self.get(tag).is_some()
    }

    /// Whether `tag` is required at this level.
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert!(!l.is_required(55));
    /// ```
    pub fn is_required(&self, tag: u32) -> bool {
        self.get(tag).is_some_and(|f| f.required)
    }

    /// The group whose counter is `tag` at this level, if `tag` is one.
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert!(l.group(453).is_none());
    /// ```
    pub fn group(&self, tag: u32) -> Option<&GroupLayout> {
        self.groups.get(self.get(tag)?.group?)
    }

    /// The groups of this level in dictionary order.
    ///
    /// ```
    /// # let l = fix_dict::Layout::default();
    /// assert!(l.groups().is_empty());
    /// ```
    pub fn groups(&self) -> &[GroupLayout] {
        &self.groups
    }
}

/// The flattened layout of a repeating group.
///
/// ```
/// # use fix_dict::{GroupLayout, Layout};
/// let g = GroupLayout { counter: 453, delimiter: 448, required: false, entry: Layout::default() };
/// assert_eq!(g.delimiter, 448);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GroupLayout {
    /// The NUMINGROUP counter tag.
    pub counter: u32,
    /// The first tag of every entry.
    pub delimiter: u32,
    /// Whether the group is required at the enclosing level.
    pub required: bool,
    /// One entry's layout (never empty: empty groups are reported and left
    /// out).
    pub entry: Layout,
}

/// `<header>` or `<trailer>`.
///
/// ```
/// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='5' minor='0'><header/></fix>").unwrap();
/// assert!(dict.header().members.is_empty() && dict.header().layout().is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Section {
    /// Members as written.
    pub members: Vec<Member>,
    /// Position of the element (`Pos::NONE` when absent).
    pub pos: Pos,
    layout: Layout,
}

impl Section {
    /// The flattened layout.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='5' minor='0'/>").unwrap();
    /// assert!(dict.trailer().layout().is_empty());
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

/// A component definition.
///
/// ```
/// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'>\
/// #   <components><component name='Instrument'><field name='Symbol' required='Y'/></component></components>\
/// #   <fields><field number='55' name='Symbol' type='STRING'/></fields></fix>").unwrap();
/// let (index, instrument) = dict.component_by_name("Instrument").unwrap();
/// assert_eq!(dict.components()[index].name, "Instrument");
/// assert!(instrument.layout().is_required(55));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Name.
    pub name: String,
    /// Members as written.
    pub members: Vec<Member>,
    /// Position of the definition.
    pub pos: Pos,
    layout: Layout,
}

impl Component {
    /// The flattened layout (as if the component were required).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'>\
    /// #   <components><component name='C'/></components></fix>").unwrap();
    /// assert!(dict.components()[0].layout().is_empty());
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

/// A message definition.
///
/// ```
/// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><messages>\
/// #   <message name='Heartbeat' msgtype='0' msgcat='admin'/></messages></fix>").unwrap();
/// let hb = dict.message(b"0").unwrap();
/// assert_eq!((hb.name.as_str(), hb.category), ("Heartbeat", fix_dict::Category::Admin));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Name.
    pub name: String,
    /// MsgType (tag 35) value.
    pub msg_type: String,
    /// admin or app.
    pub category: Category,
    /// Body members as written.
    pub members: Vec<Member>,
    /// Position of the definition.
    pub pos: Pos,
    layout: Layout,
}

impl Message {
    /// The flattened body layout (header and trailer not included).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><messages>\
    /// #   <message name='Heartbeat' msgtype='0' msgcat='admin'/></messages></fix>").unwrap();
    /// assert!(dict.message(b"0").unwrap().layout().is_empty());
    /// ```
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
}

/// A resolved dictionary: fields, components, messages, header and trailer
/// with their flattened layouts, and the length/data pairs. See the
/// [crate docs](crate) for a fuller example.
///
/// ```
/// use fix_dict::Dictionary;
/// let dict = Dictionary::from_xml("logon.xml", "<fix type='FIX' major='4' minor='2'>\
///     <messages><message name='Logon' msgtype='A' msgcat='admin'>\
///     <field name='HeartBtInt' required='Y'/></message></messages>\
///     <fields><field number='108' name='HeartBtInt' type='INT'/></fields></fix>").unwrap();
/// let logon = dict.message(b"A").unwrap();
/// assert!(logon.layout().is_required(108));
/// assert_eq!(dict.field(108).unwrap().name, "HeartBtInt");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Dictionary {
    file: Arc<str>,
    version: Option<Version>,
    /// [`Version::begin_string`], empty when the version is invalid.
    begin_string: Box<[u8]>,
    /// Sorted by tag.
    fields: Vec<Field>,
    /// `fields` by tag in O(1), and each field's validation format.
    by_tag: TagIndex,
    field_names: HashMap<String, usize>,
    components: Vec<Component>,
    component_names: HashMap<String, usize>,
    messages: Vec<Message>,
    message_types: MsgTypeIndex,
    message_names: HashMap<String, usize>,
    header: Section,
    trailer: Section,
    /// Sorted by length tag.
    data_pairs: Vec<DataFieldPair>,
    /// Sorted by data tag.
    data_by_data: Vec<DataFieldPair>,
    warnings: Vec<Diagnostic>,
}

impl Dictionary {
    /// Reads and resolves a dictionary. Fails with every diagnostic (errors
    /// and warnings) if the XML is malformed or any diagnostic is an error;
    /// otherwise the warnings are kept in [`Dictionary::warnings`]. `file`
    /// only names the text in diagnostics.
    ///
    /// ```
    /// use fix_dict::Dictionary;
    /// use fix_dict::DiagnosticKind;
    /// let err = Dictionary::from_xml("d.xml", "<fix type='FIX' major='4' minor='4'>\n<header>\n  <field name='Nope' required='Y'/>\n</header></fix>").unwrap_err();
    /// let d = &err.0[0];
    /// assert_eq!((d.pos.line, d.pos.column), (3, 3));
    /// assert_eq!(d.kind, DiagnosticKind::UndefinedField("Nope".into()));
    /// ```
    pub fn from_xml(file: &str, text: &str) -> Result<Dictionary, Diagnostics> {
        let doc = crate::xml::parse(file, text)?;
        resolve(&doc).into_result()
    }

    /// Reads the file at `path` and resolves it like [`from_xml`](Self::from_xml);
    /// diagnostics name the file by `path` as given.
    ///
    /// ```
    /// use fix_dict::Dictionary;
    /// let err = Dictionary::from_path("does/not/exist.xml").unwrap_err();
    /// assert!(matches!(err.0[0].kind, fix_dict::DiagnosticKind::Io(_)));
    /// ```
    pub fn from_path(path: impl AsRef<Path>) -> Result<Dictionary, Diagnostics> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| Diagnostic {
            severity: Severity::Error,
            file: file.as_str().into(),
            pos: Pos::NONE,
            element: "document".into(),
            name: None,
            kind: DiagnosticKind::Io(e.to_string()),
        })?;
        Dictionary::from_xml(&file, &text)
    }

    /// The application dictionary at `app` (FIX 5.0 or later) over the
    /// transport dictionary at `transport` (FIXT11) as one dictionary: the
    /// messages of a FIXT.1.1 session of that application version, session-level
    /// and application (see [`Document::over_transport`](crate::xml::Document::over_transport)
    /// for which file defines what). What a crate generated for FIX.5.0SP2 over
    /// FIXT.1.1 is generated from.
    ///
    /// ```
    /// use fix_dict::Dictionary;
    /// let err = Dictionary::from_fixt_paths("no/FIXT11.xml", "no/FIX50SP2.xml").unwrap_err();
    /// assert!(matches!(err.0[0].kind, fix_dict::DiagnosticKind::Io(_)));
    /// ```
    pub fn from_fixt_paths(
        transport: impl AsRef<Path>,
        app: impl AsRef<Path>,
    ) -> Result<Dictionary, Diagnostics> {
        let read = |path: &Path| -> Result<crate::xml::Document, Diagnostics> {
            let file = path.display().to_string();
            let text = std::fs::read_to_string(path).map_err(|e| Diagnostic {
                severity: Severity::Error,
                file: file.as_str().into(),
                pos: Pos::NONE,
                element: "document".into(),
                name: None,
                kind: DiagnosticKind::Io(e.to_string()),
            })?;
            Ok(crate::xml::parse(&file, &text)?)
        };
        let transport = read(transport.as_ref())?;
        let app = read(app.as_ref())?;
        resolve(&app.over_transport(transport)).into_result()
    }

    /// The file name given when reading.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert_eq!(dict.file(), "f.xml");
    /// ```
    pub fn file(&self) -> &str {
        &self.file
    }

    /// The `<fix>` version. (A dictionary from [`resolve`] with an invalid
    /// version falls back to FIX 0.0.)
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIXT' major='1' minor='1' servicepack='0'/>").unwrap();
    /// assert_eq!(dict.version().to_string(), "FIXT.1.1");
    /// ```
    pub fn version(&self) -> Version {
        self.version.unwrap_or(Version {
            protocol: Protocol::Fix,
            major: 0,
            minor: 0,
            servicepack: 0,
        })
    }

    /// Warnings found while resolving (dictionary quirks that do not stop
    /// code generation).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(dict.warnings().is_empty());
    /// ```
    pub fn warnings(&self) -> &[Diagnostic] {
        &self.warnings
    }

    /// All fields, sorted by tag.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='2' name='B' type='INT'/><field number='1' name='A' type='INT'/></fields></fix>").unwrap();
    /// assert_eq!(dict.fields().iter().map(|f| f.tag).collect::<Vec<_>>(), [1, 2]);
    /// ```
    pub fn fields(&self) -> &[Field] {
        &self.fields
    }

    /// The field with tag `tag` (`O(log n)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='55' name='Symbol' type='STRING'/></fields></fix>").unwrap();
    /// assert_eq!(dict.field(55).unwrap().name, "Symbol");
    /// assert!(dict.field(56).is_none());
    /// ```
    pub fn field(&self, tag: u32) -> Option<&Field> {
        self.fields.get(self.by_tag.position(tag, &self.fields)?)
    }

    /// Whether tag `tag` is defined.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(!dict.is_defined(55));
    /// ```
    pub fn is_defined(&self, tag: u32) -> bool {
        self.field(tag).is_some()
    }

    /// The type of field `tag`.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='55' name='Symbol' type='STRING'/></fields></fix>").unwrap();
    /// assert_eq!(dict.field_type(55), Some(fix_dict::FieldType::String));
    /// ```
    pub fn field_type(&self, tag: u32) -> Option<FieldType> {
        self.field(tag).map(|f| f.ty)
    }

    /// The field named `name` (`O(1)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='55' name='Symbol' type='STRING'/></fields></fix>").unwrap();
    /// assert_eq!(dict.field_by_name("Symbol").unwrap().tag, 55);
    /// ```
    pub fn field_by_name(&self, name: &str) -> Option<&Field> {
        self.fields.get(*self.field_names.get(name)?)
    }

    /// Whether `value` is valid for field `tag` as far as its enumeration
    /// goes ([`Field::accepts`]); `None` if the tag is not defined.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='54' name='Side' type='CHAR'><value enum='1' description='BUY'/></field></fields></fix>").unwrap();
    /// assert_eq!(dict.value_allowed(54, b"1"), Some(true));
    /// assert_eq!(dict.value_allowed(9999, b"1"), None);
    /// ```
    #[inline]
    pub fn value_allowed(&self, tag: u32, value: &[u8]) -> Option<bool> {
        let position = self.by_tag.position(tag, &self.fields)?;
        let (_, check) = self.by_tag.checks.get(position)?;
        Some(check.allows(self.fields.get(position)?, value))
    }

    /// The position of field `tag` in [`fields`](Self::fields), in `O(1)` (a dense
    /// table for tags below 65536): what a tool keeps its own per-field data by.
    ///
    /// ```
    /// let dict = fix_dict::Dictionary::from_xml("d.xml", r#"<fix type="FIX" major="4" minor="4">
    ///   <fields><field number="11" name="ClOrdID" type="STRING"/>
    ///   <field number="54" name="Side" type="CHAR"/></fields></fix>"#).unwrap();
    /// assert_eq!(dict.field_position(54), Some(1));
    /// assert_eq!(dict.field_position(55), None);
    /// ```
    #[inline(always)]
    pub fn field_position(&self, tag: u32) -> Option<usize> {
        self.by_tag.position(tag, &self.fields)
    }

    /// The table behind [`field_position`](Self::field_position) for tags below
    /// 65536: entry `tag` is the field's position, `u32::MAX` when the dictionary
    /// does not define it (tags past the table's end are not defined either, or are
    /// 65536 and up). For a tool that keeps its own data by field position and
    /// looks up every field of every message: one load per lookup.
    ///
    /// ```
    /// let dict = fix_dict::Dictionary::from_xml("d.xml", r#"<fix type="FIX" major="4" minor="4">
    ///   <fields><field number="54" name="Side" type="CHAR"/></fields></fix>"#).unwrap();
    /// assert_eq!(dict.positions_by_tag().get(54), Some(&0));
    /// assert_eq!(dict.positions_by_tag().get(53), Some(&u32::MAX));
    /// ```
    pub fn positions_by_tag(&self) -> &[u32] {
        self.by_tag.dense()
    }

    /// For the field at `position` when every listed value is one byte (and it
    /// is enumerated): each byte's position among the listed values plus one, 0
    /// when the byte is not listed. The table behind
    /// [`value_position`](Self::value_position) for such fields.
    ///
    /// ```
    /// let dict = fix_dict::Dictionary::from_xml("d.xml", r#"<fix type="FIX" major="4" minor="4">
    ///   <fields><field number="54" name="Side" type="CHAR">
    ///     <value enum="1" description="BUY"/><value enum="2" description="SELL"/>
    ///   </field></fields></fix>"#).unwrap();
    /// let positions = dict.byte_positions(0).unwrap();
    /// assert_eq!((positions[usize::from(b'2')], positions[usize::from(b'3')]), (2, 0));
    /// ```
    pub fn byte_positions(&self, position: usize) -> Option<&[u8; 256]> {
        match self.by_tag.checks.get(position)? {
            (_, ValueCheck::Byte { positions, .. }) => Some(positions),
            _ => None,
        }
    }

    /// The position of `value` among the listed values of the field at
    /// `position` ([`field_position`](Self::field_position)), as one value (not
    /// a multiple-value list): a bit count for one-byte values, a search over
    /// integers for values of up to seven bytes, a binary search beyond.
    ///
    /// ```
    /// let dict = fix_dict::Dictionary::from_xml("d.xml", r#"<fix type="FIX" major="4" minor="4">
    ///   <fields><field number="54" name="Side" type="CHAR">
    ///     <value enum="1" description="BUY"/><value enum="2" description="SELL"/>
    ///   </field></fields></fix>"#).unwrap();
    /// let side = dict.field_position(54).unwrap();
    /// let sell = dict.value_position(side, b"2").unwrap();
    /// assert_eq!(dict.fields()[side].values[sell].description, "SELL");
    /// assert_eq!(dict.value_position(side, b"3"), None);
    /// ```
    #[inline(always)]
    pub fn value_position(&self, position: usize, value: &[u8]) -> Option<usize> {
        let (_, check) = self.by_tag.checks.get(position)?;
        check.position(|| self.fields.get(position), value)
    }

    /// Puts each field's validation facts into every layout's tag table.
    fn annotate_layouts(&mut self) {
        let by_tag = std::mem::take(&mut self.by_tag);
        let info = |tag| {
            let position = by_tag.position(tag, &self.fields)?;
            let (format, check) = by_tag.checks.get(position)?;
            let info = FieldInfo {
                format: *format,
                enumerated: !matches!(check, ValueCheck::Any),
            };
            let byte_set = match check {
                ValueCheck::Byte {
                    set,
                    multiple: false,
                    ..
                } => Some(*set),
                _ => None,
            };
            Some((info, byte_set))
        };
        self.header.layout.annotate(&info);
        self.trailer.layout.annotate(&info);
        for m in &mut self.messages {
            m.layout.annotate(&info);
        }
        for c in &mut self.components {
            c.layout.annotate(&info);
        }
        self.by_tag = by_tag;
    }

    /// The data format validation checks for field `tag` (O(1)).
    fn format(&self, tag: u32) -> Option<fix_core::validate::ValueFormat> {
        self.field_info(tag).map(|info| info.format)
    }

    /// The single-byte values of field `tag` as a bit set, when it has only such
    /// values and is not a multiple-value type.
    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        let position = self.by_tag.position(tag, &self.fields)?;
        match self.by_tag.checks.get(position)? {
            (
                _,
                ValueCheck::Byte {
                    set,
                    multiple: false,
                    ..
                },
            ) => Some(*set),
            _ => None,
        }
    }

    /// What validation checks of field `tag` (O(1)).
    fn field_info(&self, tag: u32) -> Option<fix_core::validate::FieldInfo> {
        let position = self.by_tag.position(tag, &self.fields)?;
        let (format, check) = self.by_tag.checks.get(position)?;
        Some(fix_core::validate::FieldInfo {
            format: *format,
            enumerated: !matches!(check, ValueCheck::Any),
        })
    }

    /// All components in dictionary order; [`Member::Component`] indexes
    /// this slice.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(dict.components().is_empty());
    /// ```
    pub fn components(&self) -> &[Component] {
        &self.components
    }

    /// The component named `name` and its index (`O(1)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(dict.component_by_name("Instrument").is_none());
    /// ```
    pub fn component_by_name(&self, name: &str) -> Option<(usize, &Component)> {
        let i = *self.component_names.get(name)?;
        Some((i, self.components.get(i)?))
    }

    /// All messages in dictionary order.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(dict.messages().is_empty());
    /// ```
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// The message with MsgType `msg_type` (`O(1)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><messages>\
    /// #   <message name='Logon' msgtype='A' msgcat='admin'/></messages></fix>").unwrap();
    /// assert_eq!(dict.message(b"A").unwrap().name, "Logon");
    /// ```
    pub fn message(&self, msg_type: &[u8]) -> Option<&Message> {
        self.messages.get(self.message_types.get(msg_type)?)
    }

    /// The message named `name` (`O(1)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><messages>\
    /// #   <message name='Logon' msgtype='A' msgcat='admin'/></messages></fix>").unwrap();
    /// assert_eq!(dict.message_by_name("Logon").unwrap().msg_type, "A");
    /// ```
    pub fn message_by_name(&self, name: &str) -> Option<&Message> {
        self.messages.get(*self.message_names.get(name)?)
    }

    /// `<header>` (empty when absent, as in FIX 5.0 application
    /// dictionaries whose header lives in FIXT11).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(dict.header().layout().is_empty());
    /// ```
    pub fn header(&self) -> &Section {
        &self.header
    }

    /// `<trailer>` (empty when absent).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
    /// assert!(dict.trailer().members.is_empty());
    /// ```
    pub fn trailer(&self) -> &Section {
        &self.trailer
    }

    /// Whether `tag` is a top-level header field (`O(log n)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'>\
    /// #  <header><field name='MsgType' required='Y'/></header><fields><field number='35' name='MsgType' type='STRING'/></fields></fix>").unwrap();
    /// assert!(dict.is_header_tag(35) && !dict.is_trailer_tag(35));
    /// ```
    pub fn is_header_tag(&self, tag: u32) -> bool {
        self.header.layout.contains(tag)
    }

    /// Whether `tag` is a top-level trailer field (`O(log n)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'>\
    /// #  <trailer><field name='CheckSum' required='Y'/></trailer><fields><field number='10' name='CheckSum' type='STRING'/></fields></fix>").unwrap();
    /// assert!(dict.is_trailer_tag(10));
    /// ```
    pub fn is_trailer_tag(&self, tag: u32) -> bool {
        self.trailer.layout.contains(tag)
    }

    /// The length/data field pairs, sorted by length tag.
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='95' name='RawDataLength' type='LENGTH'/><field number='96' name='RawData' type='DATA'/></fields></fix>").unwrap();
    /// assert_eq!(dict.data_pairs(), [fix_dict::DataFieldPair { length: 95, data: 96 }]);
    /// ```
    pub fn data_pairs(&self) -> &[DataFieldPair] {
        &self.data_pairs
    }

    /// The data tag whose length `length_tag` carries (`O(log n)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='95' name='RawDataLength' type='LENGTH'/><field number='96' name='RawData' type='DATA'/></fields></fix>").unwrap();
    /// assert_eq!(dict.data_tag_for_length(95), Some(96));
    /// ```
    pub fn data_tag_for_length(&self, length_tag: u32) -> Option<u32> {
        let i = self
            .data_pairs
            .binary_search_by_key(&length_tag, |p| p.length)
            .ok()?;
        self.data_pairs.get(i).map(|p| p.data)
    }

    /// The length tag of data field `data_tag` (`O(log n)`).
    ///
    /// ```
    /// # let dict = fix_dict::Dictionary::from_xml("f.xml", "<fix type='FIX' major='4' minor='4'><fields>\
    /// #   <field number='95' name='RawDataLength' type='LENGTH'/><field number='96' name='RawData' type='DATA'/></fields></fix>").unwrap();
    /// assert_eq!(dict.length_tag_for_data(96), Some(95));
    /// ```
    pub fn length_tag_for_data(&self, data_tag: u32) -> Option<u32> {
        let i = self
            .data_by_data
            .binary_search_by_key(&data_tag, |p| p.data)
            .ok()?;
        self.data_by_data.get(i).map(|p| p.length)
    }
}

#[cfg(test)]
mod tests;
