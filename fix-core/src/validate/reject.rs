//! What a validation failure reports: FIX's SessionRejectReason (373), RefTagID (371)
//! and RefMsgType (372), with the text QuickFIX sends.

use core::fmt;

use crate::Error;

/// SessionRejectReason (373): why a message was rejected at the session level.
///
/// `text()` is the Text (58) QuickFIX sends for each reason, so that a counterparty's
/// tooling sees the wording it expects.
///
/// ```
/// use fix_core::validate::SessionRejectReason;
/// let r = SessionRejectReason::RequiredTagMissing;
/// assert_eq!((r.code(), r.text()), (1, "Required tag missing"));
/// assert_eq!(SessionRejectReason::from_code(16), Some(SessionRejectReason::IncorrectNumInGroupCount));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum SessionRejectReason {
    /// 0: the tag is not defined in the dictionary.
    InvalidTagNumber,
    /// 1: a required tag is missing.
    RequiredTagMissing,
    /// 2: the tag is defined, but not for this message type.
    TagNotDefinedForMessageType,
    /// 3: undefined tag (FIX 4.2's name for 0).
    UndefinedTag,
    /// 4: a tag without a value.
    TagSpecifiedWithoutValue,
    /// 5: the value is not one the field allows.
    ValueIncorrect,
    /// 6: the value does not have the field's data format.
    IncorrectDataFormat,
    /// 7: decryption problem.
    DecryptionProblem,
    /// 8: signature problem.
    SignatureProblem,
    /// 9: CompID problem.
    CompIdProblem,
    /// 10: SendingTime accuracy problem.
    SendingTimeAccuracyProblem,
    /// 11: the MsgType is not defined.
    InvalidMsgType,
    /// 12: XML validation error.
    XmlValidationError,
    /// 13: a tag appears more than once.
    TagAppearsMoreThanOnce,
    /// 14: a header, body or trailer tag outside its section.
    TagSpecifiedOutOfRequiredOrder,
    /// 15: a repeating group entry does not start with its delimiter.
    RepeatingGroupFieldsOutOfOrder,
    /// 16: NumInGroup differs from the number of entries.
    IncorrectNumInGroupCount,
    /// 17: a value other than a data field's holds SOH: a field the parser read
    /// by its LENGTH field (so its value may hold SOH) that the dictionary does
    /// not type DATA, or a value cut short by a SOH (the parse error
    /// [`Reject::from_parse_error`] turns into this reason).
    NonDataValueIncludesFieldDelimiter,
    /// 99: other.
    Other,
}

impl SessionRejectReason {
    /// The code carried in SessionRejectReason (373).
    pub const fn code(self) -> u32 {
        use SessionRejectReason::*;
        match self {
            InvalidTagNumber => 0,
            RequiredTagMissing => 1,
            TagNotDefinedForMessageType => 2,
            UndefinedTag => 3,
            TagSpecifiedWithoutValue => 4,
            ValueIncorrect => 5,
            IncorrectDataFormat => 6,
            DecryptionProblem => 7,
            SignatureProblem => 8,
            CompIdProblem => 9,
            SendingTimeAccuracyProblem => 10,
            InvalidMsgType => 11,
            XmlValidationError => 12,
            TagAppearsMoreThanOnce => 13,
            TagSpecifiedOutOfRequiredOrder => 14,
            RepeatingGroupFieldsOutOfOrder => 15,
            IncorrectNumInGroupCount => 16,
            NonDataValueIncludesFieldDelimiter => 17,
            Other => 99,
        }
    }

    /// The reason with this code, if FIX defines one.
    pub const fn from_code(code: u32) -> Option<Self> {
        use SessionRejectReason::*;
        Some(match code {
            0 => InvalidTagNumber,
            1 => RequiredTagMissing,
            2 => TagNotDefinedForMessageType,
            3 => UndefinedTag,
            4 => TagSpecifiedWithoutValue,
            5 => ValueIncorrect,
            6 => IncorrectDataFormat,
            7 => DecryptionProblem,
            8 => SignatureProblem,
            9 => CompIdProblem,
            10 => SendingTimeAccuracyProblem,
            11 => InvalidMsgType,
            12 => XmlValidationError,
            13 => TagAppearsMoreThanOnce,
            14 => TagSpecifiedOutOfRequiredOrder,
            15 => RepeatingGroupFieldsOutOfOrder,
            16 => IncorrectNumInGroupCount,
            17 => NonDataValueIncludesFieldDelimiter,
            99 => Other,
            _ => return None,
        })
    }

    /// The Text (58) QuickFIX's acceptance scripts expect with this reason.
    pub const fn text(self) -> &'static str {
        use SessionRejectReason::*;
        match self {
            InvalidTagNumber => "Invalid tag number",
            RequiredTagMissing => "Required tag missing",
            TagNotDefinedForMessageType => "Tag not defined for this message type",
            UndefinedTag => "Undefined Tag",
            TagSpecifiedWithoutValue => "Tag specified without a value",
            ValueIncorrect => "Value is incorrect (out of range) for this tag",
            IncorrectDataFormat => "Incorrect data format for value",
            DecryptionProblem => "Decryption problem",
            SignatureProblem => "Signature problem",
            CompIdProblem => "CompID problem",
            SendingTimeAccuracyProblem => "SendingTime accuracy problem",
            InvalidMsgType => "Invalid MsgType",
            XmlValidationError => "XML Validation error",
            TagAppearsMoreThanOnce => "Tag appears more than once",
            TagSpecifiedOutOfRequiredOrder => "Tag specified out of required order",
            RepeatingGroupFieldsOutOfOrder => "Out of order repeating group members",
            IncorrectNumInGroupCount => "Incorrect NumInGroup count for repeating group",
            NonDataValueIncludesFieldDelimiter => "Embedded SOH",
            Other => "Other",
        }
    }
}

/// The reason's text and code, as a log line would put it.
///
/// ```
/// use fix_core::validate::SessionRejectReason;
/// assert_eq!(SessionRejectReason::RequiredTagMissing.to_string(), "Required tag missing (373=1)");
/// ```
impl fmt::Display for SessionRejectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (373={})", self.text(), self.code())
    }
}

/// A short value a reject copies out of the message it rejects (its MsgType, its
/// BeginString), so that the reject outlives the message's buffer.
///
/// It holds [`Echo::CAPACITY`] bytes, more than any MsgType or BeginString a
/// dictionary defines. A longer value (which no dictionary can accept, so the
/// message is rejected for it) keeps its first bytes and says so:
/// [`Echo::is_cut`] is true and `Display` ends it with `…`. A session that
/// still holds the message echoes the message's own bytes.
///
/// ```
/// use fix_core::validate::Echo;
/// let d = Echo::new(b"D");
/// assert_eq!((d.as_bytes(), d.is_cut()), (&b"D"[..], false));
/// let long = Echo::new(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ");
/// assert!(long.is_cut());
/// assert_eq!(long.to_string(), "ABCDEFGHIJKLMN…");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Echo {
    bytes: [u8; Echo::CAPACITY],
    len: u8,
    cut: bool,
}

impl Echo {
    /// How many bytes an `Echo` keeps.
    pub const CAPACITY: usize = 14;

    /// A copy of `value`, cut to [`Echo::CAPACITY`] bytes if longer.
    ///
    /// ```
    /// assert!(fix_core::validate::Echo::new(b"").as_bytes().is_empty());
    /// ```
    pub fn new(value: &[u8]) -> Echo {
        let len = value.len().min(Echo::CAPACITY);
        let mut bytes = [0; Echo::CAPACITY];
        bytes[..len].copy_from_slice(&value[..len]);
        Echo {
            bytes,
            // CAPACITY is below 256, so this does not wrap.
            len: len as u8,
            cut: value.len() > Echo::CAPACITY,
        }
    }

    /// The bytes kept: the whole value, unless [`Echo::is_cut`].
    ///
    /// ```
    /// assert_eq!(fix_core::validate::Echo::new(b"8").as_bytes(), b"8");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// Whether the value was longer than [`Echo::CAPACITY`], so that only its
    /// first bytes are kept.
    ///
    /// ```
    /// assert!(!fix_core::validate::Echo::new(b"FIXT.1.1").is_cut());
    /// ```
    pub fn is_cut(&self) -> bool {
        self.cut
    }

    /// Whether nothing is kept (the message had no MsgType, say).
    ///
    /// ```
    /// assert!(fix_core::validate::Echo::new(b"").is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl PartialEq<[u8]> for Echo {
    fn eq(&self, other: &[u8]) -> bool {
        !self.cut && self.as_bytes() == other
    }
}

impl PartialEq<&[u8]> for Echo {
    fn eq(&self, other: &&[u8]) -> bool {
        *self == **other
    }
}

impl<const N: usize> PartialEq<&[u8; N]> for Echo {
    fn eq(&self, other: &&[u8; N]) -> bool {
        *self == other[..]
    }
}

impl fmt::Display for Echo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for &b in self.as_bytes() {
            write!(f, "{}", b as char)?;
        }
        if self.cut {
            f.write_str("…")?;
        }
        Ok(())
    }
}

/// Shown as the text it holds: `Echo("D")`.
impl fmt::Debug for Echo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Echo(\"{self}\")")
    }
}

/// A validation failure: everything a session needs for its Reject (35=3). It owns
/// what it reports, so it outlives the message and `?` carries it into any error
/// type (`Box<dyn Error>` included).
///
/// `ref_tag` is an `i64` because a message can carry tags that are not valid tag
/// numbers (`-1=x`), and a Reject echoes them as they were.
///
/// ```
/// use fix_core::validate::{Echo, Reject, SessionRejectReason};
/// let r = Reject { reason: SessionRejectReason::IncorrectDataFormat, ref_tag: Some(38), ref_msg_type: Echo::new(b"D") };
/// assert_eq!(r.to_string(), "Incorrect data format for value (373=6, 371=38, 372=D)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Reject {
    /// SessionRejectReason (373).
    pub reason: SessionRejectReason,
    /// RefTagID (371), when the problem is about one tag.
    pub ref_tag: Option<i64>,
    /// RefMsgType (372): the rejected message's MsgType (empty when unknown).
    pub ref_msg_type: Echo,
}

impl Reject {
    /// The Text (58) for this reject.
    pub fn text(&self) -> &'static str {
        self.reason.text()
    }

    /// The reject a session sends for a message that did not parse: `bytes` is the
    /// input the parser was given, `error` what it said. Framing errors (garbled
    /// messages, bad CheckSum or BodyLength) are not rejected in FIX, only logged and
    /// dropped: they give `None`.
    ///
    /// A field with no `=` right after a SOH means the previous value held that
    /// SOH: that is reason 17 against the previous tag, as QuickFIX reports it.
    ///
    /// ```
    /// use fix_core::validate::{Reject, SessionRejectReason};
    /// use fix_core::{Fields, Parser};
    /// let msg = b"8=FIX.4.4\x019=16\x0135=0\x01-1=HI\x0158=x\x0110=037\x01";
    /// let err = Parser::new().parse(msg, &mut Fields::<16>::new()).unwrap_err();
    /// let reject = Reject::from_parse_error(&err, msg).unwrap();
    /// assert_eq!(reject.reason, SessionRejectReason::InvalidTagNumber);
    /// assert_eq!(reject.ref_tag, Some(-1));
    /// assert_eq!(reject.ref_msg_type.as_bytes(), b"0");
    /// ```
    pub fn from_parse_error(error: &Error, bytes: &[u8]) -> Option<Reject> {
        let msg_type = Echo::new(msg_type_of(bytes));
        let reject = |reason, ref_tag| {
            Some(Reject {
                reason,
                ref_tag,
                ref_msg_type: msg_type,
            })
        };
        match *error {
            Error::EmptyValue { tag, .. } => reject(
                SessionRejectReason::TagSpecifiedWithoutValue,
                Some(i64::from(tag)),
            ),
            Error::InvalidDataLength { tag, .. } => reject(
                SessionRejectReason::IncorrectDataFormat,
                Some(i64::from(tag)),
            ),
            Error::DataLengthOutOfBounds { tag, .. } => reject(
                SessionRejectReason::IncorrectDataFormat,
                Some(i64::from(tag)),
            ),
            Error::TagZero { .. } => reject(SessionRejectReason::InvalidTagNumber, Some(0)),
            Error::EmbeddedSoh { tag, .. } => reject(
                SessionRejectReason::NonDataValueIncludesFieldDelimiter,
                Some(i64::from(tag)),
            ),
            Error::TagOverflow { offset } | Error::InvalidTag { offset } => {
                let field_start = field_start(bytes, offset);
                let field = bytes.get(field_start..).unwrap_or_default();
                let end = field
                    .iter()
                    .position(|&b| b == b'=' || b == crate::SOH)
                    .unwrap_or(field.len());
                if field.get(end) != Some(&b'=') {
                    return embedded_soh(bytes, field_start, msg_type);
                }
                let tag = parse_signed(&field[..end]);
                reject(SessionRejectReason::InvalidTagNumber, tag)
            }
            Error::MissingEquals { offset, .. } => {
                embedded_soh(bytes, field_start(bytes, offset), msg_type)
            }
            _ => None,
        }
    }
}

impl fmt::Display for Reject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (373={}", self.text(), self.reason.code())?;
        if let Some(tag) = self.ref_tag {
            write!(f, ", 371={tag}")?;
        }
        write!(f, ", 372={})", self.ref_msg_type)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Reject {}

/// Why a message did not validate: a Reject (35=3) to send, or a BeginString (8)
/// that is not the dictionary's.
///
/// A wrong BeginString is not a Reject: the message is for another FIX version
/// (QuickFIX's `UnsupportedVersion`), so a session answers with a Logout whose
/// Text (58) is [`Invalid::text`] and disconnects (QuickFIX's acceptance case
/// `2i_BeginStringValueUnexpected`). It has a variant of its own so that no
/// caller mistakes it for a SessionRejectReason; FIX defines none for it.
///
/// Like [`Reject`], it owns what it reports.
///
/// ```
/// use fix_core::validate::{Echo, Invalid, Reject, SessionRejectReason};
/// let wrong = Invalid::IncorrectBeginString { begin_string: Echo::new(b"FIX.4.1"), msg_type: Echo::new(b"1") };
/// assert_eq!((wrong.text(), wrong.reject()), ("Incorrect BeginString", None));
/// assert_eq!(wrong.to_string(), "Incorrect BeginString (8=FIX.4.1, 35=1)");
///
/// let reject = Reject { reason: SessionRejectReason::RequiredTagMissing, ref_tag: Some(11), ref_msg_type: Echo::new(b"D") };
/// let invalid = Invalid::from(reject);
/// assert_eq!(invalid.reject(), Some(&reject));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Invalid {
    /// A session-level Reject (35=3) with this SessionRejectReason, RefTagID and
    /// RefMsgType.
    Reject(Reject),
    /// BeginString (8) is not the one the dictionary's messages carry
    /// ([`Schema::begin_string`](super::Schema::begin_string)): the session sends
    /// a Logout (Text "Incorrect BeginString") and disconnects, rejecting
    /// nothing.
    IncorrectBeginString {
        /// The message's BeginString, as received.
        begin_string: Echo,
        /// The message's MsgType (35).
        msg_type: Echo,
    },
}

impl Invalid {
    /// The Reject to send, or `None` when the answer is not a Reject.
    ///
    /// ```
    /// use fix_core::validate::{Echo, Invalid};
    /// let wrong = Invalid::IncorrectBeginString { begin_string: Echo::new(b"FIX.4.1"), msg_type: Echo::new(b"1") };
    /// assert!(wrong.reject().is_none());
    /// ```
    pub fn reject(&self) -> Option<&Reject> {
        match self {
            Invalid::Reject(reject) => Some(reject),
            Invalid::IncorrectBeginString { .. } => None,
        }
    }

    /// The Text (58) QuickFIX sends with the answer: the Reject's, or the
    /// Logout's `Incorrect BeginString`.
    ///
    /// ```
    /// use fix_core::validate::{Echo, Invalid, Reject, SessionRejectReason};
    /// let reject = Reject { reason: SessionRejectReason::InvalidMsgType, ref_tag: None, ref_msg_type: Echo::new(b"Z") };
    /// assert_eq!(Invalid::Reject(reject).text(), "Invalid MsgType");
    /// ```
    pub fn text(&self) -> &'static str {
        match self {
            Invalid::Reject(reject) => reject.text(),
            Invalid::IncorrectBeginString { .. } => "Incorrect BeginString",
        }
    }
}

impl From<Reject> for Invalid {
    fn from(reject: Reject) -> Self {
        Invalid::Reject(reject)
    }
}

impl fmt::Display for Invalid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Invalid::Reject(reject) => reject.fmt(f),
            Invalid::IncorrectBeginString {
                begin_string,
                msg_type,
            } => write!(f, "{} (8={begin_string}, 35={msg_type})", self.text()),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Invalid {}

/// Offset of the field holding byte `offset`: just after the SOH before it.
fn field_start(bytes: &[u8], offset: usize) -> usize {
    let before = bytes.get(..offset).unwrap_or(bytes);
    before
        .iter()
        .rposition(|&b| b == crate::SOH)
        .map_or(0, |p| p + 1)
}

/// Reason 17 against the field before the one starting at `field_start`.
fn embedded_soh(bytes: &[u8], field_start: usize, msg_type: Echo) -> Option<Reject> {
    let previous = self::field_start(bytes, field_start.checked_sub(1)?);
    let field = &bytes[previous..field_start];
    let eq = field.iter().position(|&b| b == b'=')?;
    Some(Reject {
        reason: SessionRejectReason::NonDataValueIncludesFieldDelimiter,
        ref_tag: parse_signed(&field[..eq]),
        ref_msg_type: msg_type,
    })
}

/// A tag as written, sign included, if it is a number. RefTagID (371) is an INT,
/// so a tag beyond `i64` (twenty digits and more) is reported as `i64::MAX` (or
/// `i64::MIN`): still a RefTagID that no dictionary defines, rather than none.
fn parse_signed(digits: &[u8]) -> Option<i64> {
    let (negative, digits) = match digits {
        [b'-', rest @ ..] => (true, rest),
        _ => (false, digits),
    };
    if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits.iter().fold(0i64, |n, &d| {
        let d = i64::from(d - b'0');
        if negative {
            n.saturating_mul(10).saturating_sub(d)
        } else {
            n.saturating_mul(10).saturating_add(d)
        }
    });
    Some(n)
}

/// MsgType of a message that may not parse: the value of the third field.
fn msg_type_of(bytes: &[u8]) -> &[u8] {
    let mut fields = bytes.split(|&b| b == crate::SOH);
    match (fields.next(), fields.next(), fields.next()) {
        (Some(_), Some(_), Some(third)) => third.strip_prefix(b"35=").unwrap_or_default(),
        _ => &[],
    }
}
