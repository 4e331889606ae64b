//! Positioned, typed diagnostics shared by the [`xml`](crate::xml) reader and
//! the [`resolve`](crate::resolve) step.
//!
//! Every problem found in a dictionary is a [`Diagnostic`]: the file, the
//! 1-based line and column of the element's `<`, the element (and its `name`
//! attribute when it has one), a [`Severity`] and a [`DiagnosticKind`] saying
//! what is wrong. `Display` renders the usual compiler form:
//!
//! ```
//! use fix_dict::Dictionary;
//!
//! let xml = "<fix type='FIX' major='4' minor='4'>\n<fields>\n  <field number='x' name='A' type='INT'/>\n</fields>\n</fix>";
//! let err = Dictionary::from_xml("tiny.xml", xml).unwrap_err();
//! assert_eq!(
//!     err.to_string(),
//!     "tiny.xml:3:3: error: <field name=\"A\">: tag number `x` is not a positive integer\n"
//! );
//! ```

use std::fmt;
use std::sync::Arc;

use crate::dictionary::FieldType;

/// A 1-based line and column in a dictionary file (the column counts
/// characters, not bytes). `Pos::NONE` (line 0) marks a problem with the file
/// as a whole, such as an I/O error.
///
/// ```
/// use fix_dict::Pos;
/// assert_eq!(Pos::new(3, 7).to_string(), "3:7");
/// assert!(Pos::NONE < Pos::new(1, 1));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Pos {
    /// 1-based line; 0 when the position is unknown.
    pub line: u32,
    /// 1-based column in characters; 0 when the position is unknown.
    pub column: u32,
}

impl Pos {
    /// No position: the diagnostic is about the whole file.
    ///
    /// ```
    /// # use fix_dict::Pos;
    /// assert_eq!(Pos::NONE, Pos::default());
    /// ```
    pub const NONE: Pos = Pos { line: 0, column: 0 };

    /// A position from a 1-based line and column.
    ///
    /// ```
    /// # use fix_dict::Pos;
    /// let p = Pos::new(2, 5);
    /// assert_eq!((p.line, p.column), (2, 5));
    /// ```
    pub const fn new(line: u32, column: u32) -> Pos {
        Pos { line, column }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// How bad a [`Diagnostic`] is.
///
/// Errors make [`Dictionary::from_xml`](crate::dictionary::Dictionary::from_xml)
/// fail; warnings are kept on the dictionary
/// ([`Dictionary::warnings`](crate::dictionary::Dictionary::warnings)).
///
/// ```
/// use fix_dict::Severity;
/// assert!(Severity::Warning < Severity::Error);
/// assert_eq!(Severity::Error.to_string(), "error");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// A quirk worth knowing about; the dictionary is still usable.
    Warning,
    /// The dictionary is wrong.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// What kind of definition a duplicate name belongs to.
///
/// ```
/// use fix_dict::diagnostic::Definition;
/// assert_eq!(Definition::Component.to_string(), "component");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Definition {
    /// A `<fields><field>` definition.
    Field,
    /// A `<components><component>` definition.
    Component,
    /// A `<messages><message>` definition.
    Message,
}

impl fmt::Display for Definition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Definition::Field => "field",
            Definition::Component => "component",
            Definition::Message => "message",
        })
    }
}

/// Why an enumerated value does not fit its field's type.
///
/// ```
/// use fix_dict::diagnostic::ValueProblem;
/// assert_eq!(ValueProblem::NotOneChar.to_string(), "is not a single character");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ValueProblem {
    /// The value is empty.
    Empty,
    /// A `CHAR` or `MULTIPLECHARVALUE` value that is not exactly one character.
    NotOneChar,
    /// An integer-typed value that is not an integer.
    NotInteger,
    /// A decimal-typed value that is not a decimal number.
    NotDecimal,
    /// A `BOOLEAN` value other than `Y` or `N`.
    NotBoolean,
    /// A value containing a control character, a space (multi-value types),
    /// or a non-ASCII character.
    BadCharacter,
}

impl fmt::Display for ValueProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueProblem::Empty => "is empty",
            ValueProblem::NotOneChar => "is not a single character",
            ValueProblem::NotInteger => "is not an integer",
            ValueProblem::NotDecimal => "is not a decimal number",
            ValueProblem::NotBoolean => "is not Y or N",
            ValueProblem::BadCharacter => "contains a character the type does not allow",
        })
    }
}

/// What is wrong. The first group comes from the [`xml`](crate::xml) reader
/// (and is fatal: reading stops), the rest from the
/// [`resolve`](crate::resolve) step (which reports every problem it finds).
///
/// ```
/// use fix_dict::DiagnosticKind;
/// let k = DiagnosticKind::UndefinedField("Foo".into());
/// assert_eq!(k.to_string(), "field `Foo` is not defined in <fields>");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DiagnosticKind {
    // ---- reader (fatal) ----
    /// The file could not be read.
    Io(String),
    /// The text is not well-formed XML (the message comes from quick-xml).
    Syntax(String),
    /// The element is not allowed inside its parent.
    UnexpectedElement {
        /// The enclosing element (`document` at top level).
        parent: String,
    },
    /// Non-whitespace text or CDATA where only elements are allowed.
    UnexpectedText,
    /// A required attribute is missing.
    MissingAttribute(&'static str),
    /// The element was never closed before the end of the input.
    UnclosedElement,
    /// A section (`<header>`, `<messages>`, ...) appears twice.
    DuplicateSection,
    /// The document has no `<fix>` root element.
    MissingRoot,
    /// Elements are nested deeper than the reader allows
    /// ([`xml::MAX_DEPTH`](crate::xml::MAX_DEPTH)), or components include
    /// each other deeper than
    /// [`MAX_COMPONENT_DEPTH`](crate::MAX_COMPONENT_DEPTH).
    TooDeep(usize),

    // ---- model ----
    /// A `type`/`major`/`minor`/`servicepack` attribute of `<fix>` is invalid.
    InvalidVersion {
        /// The attribute.
        attribute: &'static str,
        /// Its value.
        value: String,
    },
    /// A field's `number` is not a positive integer.
    InvalidTagNumber(String),
    /// A field's `type` is not a FIX type this crate knows.
    UnknownFieldType(String),
    /// A `required` attribute other than `Y` or `N`.
    InvalidRequired(String),
    /// A `msgcat` other than `admin` or `app`.
    InvalidMsgCat(String),
    /// A `msgtype` that is empty or has spaces, control or non-ASCII
    /// characters.
    InvalidMsgType(String),
    /// Two fields share a tag number.
    DuplicateTag {
        /// The tag.
        tag: u32,
        /// Where the first definition is.
        first: Pos,
    },
    /// Two definitions of the same kind share a name.
    DuplicateName {
        /// Field, component or message.
        what: Definition,
        /// Where the first definition is.
        first: Pos,
    },
    /// Two messages share a `msgtype`.
    DuplicateMsgType {
        /// The MsgType.
        msg_type: String,
        /// Where the first message is.
        first: Pos,
    },
    /// A field reference names no defined field.
    UndefinedField(String),
    /// A component reference names no defined component.
    UndefinedComponent(String),
    /// A group's name is a field whose type is not `NUMINGROUP`. A warning
    /// when the type is `INT`: the FIX 4.0–4.3 reference dictionaries predate
    /// NUMINGROUP and type their counters INT, which works the same.
    CounterNotNumInGroup {
        /// The counter field's actual type.
        found: FieldType,
    },
    /// A group with no member fields (so no delimiter).
    EmptyGroup,
    /// Components include each other; the chain starts and ends at the same
    /// component.
    CyclicComponent(Vec<String>),
    /// An enumerated value does not fit the field's type.
    BadEnumValue {
        /// The value.
        value: String,
        /// The field's type.
        ty: FieldType,
        /// Why it does not fit.
        problem: ValueProblem,
    },
    /// The same enumerated value is listed twice for one field.
    DuplicateEnumValue {
        /// The value.
        value: String,
        /// Where the first one is.
        first: Pos,
    },
    /// The same tag appears twice at one level of a message, component,
    /// group, header or trailer (components expanded). A warning: the FIX43
    /// and FIX50 reference dictionaries do this; the layout keeps the first
    /// occurrence, as QuickFIX does.
    DuplicateMember {
        /// The tag.
        tag: u32,
        /// Where the first reference is.
        first: Pos,
    },
    /// A `DATA`/`XMLDATA` field with no `LENGTH` field paired to it, neither
    /// by layout nor by name (a warning: the field is still usable, but a
    /// parser cannot frame it).
    UnpairedDataField,
    /// The layout and the naming convention pair a data field with different
    /// length fields (a warning; the layout wins).
    ConflictingDataPair {
        /// Length tag found by the layout.
        by_layout: u32,
        /// Length tag found by the name.
        by_name: u32,
    },
}

impl fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use DiagnosticKind::*;
        match self {
            Io(e) => write!(f, "cannot read the file: {e}"),
            Syntax(e) => write!(f, "malformed XML: {e}"),
            UnexpectedElement { parent } => write!(f, "element not allowed inside <{parent}>"),
            UnexpectedText => f.write_str("text content is not allowed here"),
            MissingAttribute(a) => write!(f, "missing attribute `{a}`"),
            UnclosedElement => f.write_str("element is not closed before the end of the file"),
            DuplicateSection => f.write_str("section appears more than once"),
            MissingRoot => f.write_str("no <fix> root element"),
            TooDeep(n) => write!(f, "nested deeper than {n} levels"),
            InvalidVersion { attribute, value } => {
                write!(f, "invalid `{attribute}` attribute `{value}`")
            }
            InvalidTagNumber(n) => write!(f, "tag number `{n}` is not a positive integer"),
            UnknownFieldType(t) => write!(f, "unknown field type `{t}`"),
            InvalidRequired(r) => write!(f, "`required` must be Y or N, found `{r}`"),
            InvalidMsgCat(c) => write!(f, "`msgcat` must be admin or app, found `{c}`"),
            InvalidMsgType(t) => write!(f, "invalid msgtype `{t}`"),
            DuplicateTag { tag, first } => {
                write!(f, "tag {tag} is already defined at {first}")
            }
            DuplicateName { what, first } => {
                write!(f, "a {what} of this name is already defined at {first}")
            }
            DuplicateMsgType { msg_type, first } => {
                write!(f, "msgtype `{msg_type}` is already used at {first}")
            }
            UndefinedField(n) => write!(f, "field `{n}` is not defined in <fields>"),
            UndefinedComponent(n) => {
                write!(f, "component `{n}` is not defined in <components>")
            }
            CounterNotNumInGroup { found } => {
                write!(f, "group counter has type {found}, expected NUMINGROUP")
            }
            EmptyGroup => f.write_str("group has no member fields"),
            CyclicComponent(chain) => {
                write!(f, "components include each other: {}", chain.join(" -> "))
            }
            BadEnumValue { value, ty, problem } => {
                write!(f, "enum value `{value}` {problem} (field type {ty})")
            }
            DuplicateEnumValue { value, first } => {
                write!(f, "enum value `{value}` is already listed at {first}")
            }
            DuplicateMember { tag, first } => {
                write!(f, "tag {tag} already appears at this level at {first}")
            }
            UnpairedDataField => f.write_str("data field has no LENGTH field paired with it"),
            ConflictingDataPair { by_layout, by_name } => write!(
                f,
                "layout pairs this data field with length tag {by_layout}, its name with {by_name}"
            ),
        }
    }
}

/// One problem in a dictionary, with its place.
///
/// ```
/// use fix_dict::{Diagnostic, DiagnosticKind, Pos, Severity};
/// let d = Diagnostic {
///     severity: Severity::Error,
///     file: "x.xml".into(),
///     pos: Pos::new(4, 2),
///     element: "group".into(),
///     name: Some("NoHops".into()),
///     kind: DiagnosticKind::EmptyGroup,
/// };
/// assert_eq!(d.to_string(), "x.xml:4:2: error: <group name=\"NoHops\">: group has no member fields");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// The dictionary file name as given to the reader.
    pub file: Arc<str>,
    /// Where the element starts.
    pub pos: Pos,
    /// The element's tag name (`field`, `group`, ...; `document` for the file).
    pub element: String,
    /// The element's `name` attribute (or, for `<value>`, its `enum`).
    pub name: Option<String>,
    /// What is wrong.
    pub kind: DiagnosticKind,
}

impl Diagnostic {
    /// Whether this is an error (as opposed to a warning).
    ///
    /// ```
    /// # use fix_dict::{Diagnostic, DiagnosticKind, Pos, Severity};
    /// # let d = Diagnostic { severity: Severity::Warning, file: "x".into(), pos: Pos::NONE,
    /// #     element: "field".into(), name: None, kind: DiagnosticKind::UnpairedDataField };
    /// assert!(!d.is_error());
    /// ```
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if self.pos != Pos::NONE {
            write!(f, ":{}", self.pos)?;
        }
        write!(f, ": {}: <{}", self.severity, self.element)?;
        if let Some(name) = &self.name {
            let attr = if self.element == "value" {
                "enum"
            } else {
                "name"
            };
            write!(f, " {attr}=\"{name}\"")?;
        }
        write!(f, ">: {}", self.kind)
    }
}

impl std::error::Error for Diagnostic {}

/// Every diagnostic of a failed load, errors and warnings, in file order.
/// `Display` prints one per line.
///
/// ```
/// use fix_dict::Dictionary;
/// let xml = "<fix type='FIX' major='4' minor='2'><messages>\
///            <message name='A' msgtype='A' msgcat='admin'><field name='X' required='Y'/>\
///            <component name='C' required='N'/></message></messages></fix>";
/// let err = Dictionary::from_xml("t.xml", xml).unwrap_err();
/// assert_eq!(err.errors().count(), 2);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The error-severity diagnostics.
    ///
    /// ```
    /// # use fix_dict::Diagnostics;
    /// assert_eq!(Diagnostics::default().errors().count(), 0);
    /// ```
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }

    /// The warning-severity diagnostics.
    ///
    /// ```
    /// # use fix_dict::Diagnostics;
    /// assert_eq!(Diagnostics::default().warnings().count(), 0);
    /// ```
    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| !d.is_error())
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for d in &self.0 {
            writeln!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}
