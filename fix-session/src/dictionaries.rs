//! What a session validates against: one dictionary for FIX.4.x, or for FIXT.1.1
//! a transport dictionary (FIXT11: header, trailer, session-level messages) with
//! application dictionaries chosen by ApplVerID (1128) or DefaultApplVerID.

use fix_core::validate::{FieldInfo, Layout, Schema, ValueFormat};

/// The dictionaries of one session: a transport dictionary for the header, the
/// trailer and the session-level (admin) messages, and application dictionaries
/// by ApplVerID value (its enum code: `"7"` is FIX.5.0, `"8"` FIX.5.0SP1, `"9"`
/// FIX.5.0SP2).
///
/// With no application dictionary (FIX.4.x, [`Dictionaries::single`]) every
/// message validates against the transport one. Otherwise an application message
/// validates against an [`AppSchema`] over the transport dictionary and the
/// application dictionary its ApplVerID (1128), or else the session's
/// DefaultApplVerID, names; an admin message against the transport dictionary
/// alone.
///
/// ```
/// use fix_session::Dictionaries;
///
/// // FIX.4.4: one dictionary serves both.
/// let d = Dictionaries::single(&fix44::DICTIONARY);
/// assert!(d.app(b"9").is_none());
///
/// // FIXT.1.1 (the FIX.4.4 tables stand in for FIXT11 and FIX50SP2 here).
/// let d = Dictionaries::new(&fix44::DICTIONARY).with_app("FIX.5.0SP2", &fix44::DICTIONARY);
/// assert!(d.app(b"9").is_some());
/// ```
#[derive(Debug, Clone)]
pub struct Dictionaries<D> {
    transport: D,
    /// (ApplVerID code, dictionary).
    apps: Vec<(String, D)>,
}

impl<D> Dictionaries<D> {
    /// A transport dictionary with no application dictionary yet.
    ///
    /// ```
    /// let d = fix_session::Dictionaries::new(&fix44::DICTIONARY);
    /// assert!(d.app(b"7").is_none());
    /// ```
    pub fn new(transport: D) -> Self {
        Dictionaries {
            transport,
            apps: Vec::new(),
        }
    }

    /// One dictionary for everything (FIX.4.x).
    ///
    /// ```
    /// let d = fix_session::Dictionaries::single(&fix44::DICTIONARY);
    /// assert!(std::ptr::eq(*d.transport(), &fix44::DICTIONARY));
    /// ```
    pub fn single(dict: D) -> Self {
        Self::new(dict)
    }

    /// Adds (or replaces) the application dictionary of ApplVerID `appl_ver_id`,
    /// given as its code (`"9"`) or its name (`"FIX.5.0SP2"`, see
    /// [`appl_ver_id_code`]).
    ///
    /// ```
    /// let d = fix_session::Dictionaries::new(&fix44::DICTIONARY).with_app("8", &fix44::DICTIONARY);
    /// assert!(d.app(b"8").is_some() && d.app(b"9").is_none());
    /// ```
    pub fn with_app(mut self, appl_ver_id: &str, dict: D) -> Self {
        let code = appl_ver_id_code(appl_ver_id);
        self.apps.retain(|(c, _)| c != code);
        self.apps.push((code.to_owned(), dict));
        self
    }

    /// The transport dictionary.
    ///
    /// ```
    /// let d = fix_session::Dictionaries::single(&fix44::DICTIONARY);
    /// assert!(std::ptr::eq(*d.transport(), &fix44::DICTIONARY));
    /// ```
    pub fn transport(&self) -> &D {
        &self.transport
    }

    /// The application dictionary of ApplVerID code `appl_ver_id` (`b"9"`).
    ///
    /// ```
    /// let d = fix_session::Dictionaries::new(&fix44::DICTIONARY).with_app("9", &fix44::DICTIONARY);
    /// assert!(d.app(b"9").is_some());
    /// ```
    pub fn app(&self, appl_ver_id: &[u8]) -> Option<&D> {
        self.apps
            .iter()
            .find(|(c, _)| c.as_bytes() == appl_ver_id)
            .map(|(_, d)| d)
    }

    /// Whether application messages have dictionaries of their own (FIXT.1.1).
    ///
    /// ```
    /// assert!(!fix_session::Dictionaries::single(&fix44::DICTIONARY).has_apps());
    /// ```
    pub fn has_apps(&self) -> bool {
        !self.apps.is_empty()
    }
}

impl<D> From<D> for Dictionaries<D> {
    /// [`Dictionaries::single`].
    ///
    /// ```
    /// let d: fix_session::Dictionaries<_> = (&fix44::DICTIONARY).into();
    /// assert!(!d.has_apps());
    /// ```
    fn from(dict: D) -> Self {
        Self::single(dict)
    }
}

/// ApplVerID's enum code for a version name (`"FIX.5.0SP2"` → `"9"`); anything
/// else (a code already) as given.
///
/// ```
/// use fix_session::appl_ver_id_code;
/// assert_eq!(appl_ver_id_code("FIX.5.0SP2"), "9");
/// assert_eq!(appl_ver_id_code("FIX.5.0"), "7");
/// assert_eq!(appl_ver_id_code("8"), "8");
/// ```
pub fn appl_ver_id_code(appl_ver_id: &str) -> &str {
    match appl_ver_id {
        "FIX.2.7" => "0",
        "FIX.3.0" => "1",
        "FIX.4.0" => "2",
        "FIX.4.1" => "3",
        "FIX.4.2" => "4",
        "FIX.4.3" => "5",
        "FIX.4.4" => "6",
        "FIX.5.0" => "7",
        "FIX.5.0SP1" => "8",
        "FIX.5.0SP2" => "9",
        other => other,
    }
}

/// The schema of an application message on FIXT.1.1, as QuickFIX validates one:
/// the header and trailer layouts from the transport dictionary, the body layout
/// from the application dictionary; a header or trailer field is defined by the
/// transport dictionary, any other by the application dictionary (then the
/// transport one, for a field only it defines).
///
/// It borrows both and allocates nothing.
///
/// ```
/// use fix_core::validate::{Schema, Validator};
/// use fix_session::AppSchema;
///
/// let schema = AppSchema::new(&fix44::DICTIONARY, &fix44::DICTIONARY);
/// assert!(schema.body_layout(b"D").is_some());
/// let mut fields = [fix_core::Field::new(0, 0, 0); 16];
/// let bytes = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01";
/// let fix_core::Status::Complete(msg) = fix_core::Parser::new().parse(bytes, &mut fields)? else {
///     unreachable!()
/// };
/// // No SenderCompID, TargetCompID, MsgSeqNum or SendingTime: the header is wrong.
/// assert!(Validator::new().validate(&schema, &msg).is_err());
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Debug)]
pub struct AppSchema<'d, D: Schema> {
    transport: &'d D,
    app: &'d D,
}

impl<D: Schema> Clone for AppSchema<'_, D> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<D: Schema> Copy for AppSchema<'_, D> {}

impl<'d, D: Schema> AppSchema<'d, D> {
    /// The schema of application messages over `transport` and `app`.
    ///
    /// ```
    /// use fix_core::validate::Schema;
    /// let s = fix_session::AppSchema::new(&fix44::DICTIONARY, &fix44::DICTIONARY);
    /// assert!(s.field_format(35).is_some());
    /// ```
    pub fn new(transport: &'d D, app: &'d D) -> Self {
        AppSchema { transport, app }
    }

    /// The dictionary defining field `tag`.
    fn field_dict(&self, tag: u32) -> &'d D {
        let t = self.transport;
        if t.header_layout().member(tag).is_some() || t.trailer_layout().member(tag).is_some() {
            return t;
        }
        if self.app.field_info(tag).is_some() {
            self.app
        } else {
            t
        }
    }
}

impl<D: Schema> Schema for AppSchema<'_, D> {
    type Layout = D::Layout;

    /// The transport's: an application message rides on its BeginString.
    fn begin_string(&self) -> Option<&[u8]> {
        self.transport.begin_string()
    }

    fn field_format(&self, tag: u32) -> Option<ValueFormat> {
        self.field_dict(tag).field_format(tag)
    }

    fn field_info(&self, tag: u32) -> Option<FieldInfo> {
        self.field_dict(tag).field_info(tag)
    }

    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        self.field_dict(tag).value_allowed(tag, value)
    }

    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        self.field_dict(tag).byte_set(tag)
    }

    fn header_layout(&self) -> &Self::Layout {
        self.transport.header_layout()
    }

    fn trailer_layout(&self) -> &Self::Layout {
        self.transport.trailer_layout()
    }

    fn body_layout(&self, msg_type: &[u8]) -> Option<&Self::Layout> {
        self.app.body_layout(msg_type)
    }
}
