//! The error type shared by framing and parsing.

use core::fmt;

/// Why bytes could not be framed or parsed as a FIX message.
///
/// Small and `Copy`: it carries the byte offset (from the start of the message, or of
/// the input for [`Error::Garbage`]) and the tag where they apply, so a session can
/// answer with a precise reject without keeping the bytes around.
///
/// ```
/// use fix_core::{Error, Parser};
///
/// let err = Parser::new().frame(b"35=0\x01").unwrap_err();
/// assert_eq!(err, Error::Garbage { skip: 5 });
/// assert_eq!(err.to_string(), "5 bytes before the next `8=FIX`");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Error {
    /// The input does not start with `8=`. Discarding `skip` bytes reaches the next
    /// `8=FIX` (or the start of a partial one at the end of the input): that is how
    /// a session resynchronises after noise on the line.
    Garbage {
        /// Bytes to discard before the next possible message start.
        skip: usize,
    },
    /// BeginString (8) does not start with `FIX`, is empty, or is longer than
    /// [`MAX_BEGIN_STRING`](crate::MAX_BEGIN_STRING) bytes.
    InvalidBeginString {
        /// Offset of the BeginString value.
        offset: usize,
    },
    /// The second field is not BodyLength (9).
    BodyLengthMissing {
        /// Offset where `9=` was expected.
        offset: usize,
    },
    /// BodyLength's value is empty, not all digits, or longer than 20 digits.
    InvalidBodyLength {
        /// Offset of the BodyLength value.
        offset: usize,
    },
    /// BodyLength says the message is larger than the configured maximum
    /// ([`Parser::max_message_size`](crate::Parser::max_message_size)).
    MessageTooLarge {
        /// The BodyLength value as far as it has arrived (saturated at `usize::MAX`),
        /// or the whole message size it implies.
        size: usize,
        /// The configured maximum.
        max: usize,
    },
    /// BodyLength's value is a number of up to 20 digits too large for any size
    /// (above `usize::MAX`), e.g. `9=99999999999999999999`: reported as written,
    /// since no byte count could say it.
    ///
    /// ```
    /// use fix_core::{Error, Parser};
    /// let err = Parser::new().frame(b"8=FIX.4.4\x019=99999999999999999999\x01").unwrap_err();
    /// assert!(matches!(err, Error::BodyLengthOverflow { declared } if declared.as_bytes() == b"99999999999999999999"));
    /// assert_eq!(err.to_string(), "BodyLength (9) is 99999999999999999999, more than any message can hold");
    /// ```
    BodyLengthOverflow {
        /// BodyLength's digits, as far as they have arrived.
        declared: Digits,
    },
    /// The third field is not a non-empty MsgType (35).
    MsgTypeMissing {
        /// Offset where `35=` was expected.
        offset: usize,
    },
    /// The trailer `10=` is not where BodyLength says the body ends.
    BodyLengthMismatch {
        /// Offset where BodyLength puts the trailer.
        offset: usize,
    },
    /// The CheckSum value is not exactly three digits followed by SOH.
    InvalidCheckSum {
        /// Offset of the CheckSum value.
        offset: usize,
    },
    /// CheckSum (10) differs from the sum of the message's bytes modulo 256.
    CheckSumMismatch {
        /// Offset of the CheckSum value.
        offset: usize,
        /// The value the message carries.
        declared: u16,
        /// The value computed from the bytes.
        computed: u8,
    },
    /// A tag is empty, has a leading zero, or holds a byte that is not a digit.
    InvalidTag {
        /// Offset of the offending byte.
        offset: usize,
    },
    /// Tag 0, which FIX does not define.
    TagZero {
        /// Offset of the tag.
        offset: usize,
    },
    /// A SOH inside the value of a field that is not read by its length: what
    /// follows the SOH holds no `=` before the next one, so it is the rest of the
    /// value, not a field (SessionRejectReason 17 in a Reject).
    ///
    /// ```
    /// use fix_core::{Error, Fields, Parser};
    /// let msg = b"8=FIX.4.4\x019=14\x0135=0\x0158=a\x01b c\x0110=197\x01";
    /// let err = Parser::new().parse(msg, &mut Fields::<8>::new()).unwrap_err();
    /// assert_eq!(err, Error::EmbeddedSoh { tag: 58, offset: 24 });
    /// assert_eq!(err.to_string(), "the value of tag 58 holds SOH, at byte 24");
    /// ```
    EmbeddedSoh {
        /// The tag whose value holds the SOH.
        tag: u32,
        /// Offset of that SOH.
        offset: usize,
    },
    /// A tag larger than `u32::MAX`.
    TagOverflow {
        /// Offset of the tag.
        offset: usize,
    },
    /// A tag is followed by SOH before any `=`.
    MissingEquals {
        /// The tag without `=`.
        tag: u32,
        /// Offset of the SOH found instead of `=`.
        offset: usize,
    },
    /// A field has an empty value (FIX's "tag specified without a value").
    EmptyValue {
        /// The field's tag.
        tag: u32,
        /// Offset where the value should start.
        offset: usize,
    },
    /// The length field that announces a data field is not a non-negative integer.
    InvalidDataLength {
        /// The length field's tag.
        tag: u32,
        /// Offset of its value.
        offset: usize,
    },
    /// A data field's announced length runs past the body, or is not followed by SOH.
    DataLengthOutOfBounds {
        /// The data field's tag.
        tag: u32,
        /// Offset of the data value.
        offset: usize,
    },
    /// Fields that do not end with SOH: the last value would run into what
    /// follows ([`Parser::check_fields`](crate::Parser::check_fields)).
    Unterminated {
        /// Offset where the unterminated field starts.
        offset: usize,
    },
    /// The message has more fields than the caller's storage holds.
    TooManyFields {
        /// The storage's capacity.
        capacity: usize,
    },
}

impl Error {
    /// The tag the error is about, when there is one.
    ///
    /// ```
    /// use fix_core::Error;
    /// assert_eq!(Error::EmptyValue { tag: 58, offset: 40 }.tag(), Some(58));
    /// assert_eq!(Error::BodyLengthMissing { offset: 10 }.tag(), Some(9));
    /// ```
    pub const fn tag(&self) -> Option<u32> {
        match *self {
            Error::InvalidBeginString { .. } => Some(8),
            Error::BodyLengthMissing { .. }
            | Error::InvalidBodyLength { .. }
            | Error::MessageTooLarge { .. }
            | Error::BodyLengthOverflow { .. }
            | Error::BodyLengthMismatch { .. } => Some(9),
            Error::MsgTypeMissing { .. } => Some(35),
            Error::InvalidCheckSum { .. } | Error::CheckSumMismatch { .. } => Some(10),
            Error::MissingEquals { tag, .. }
            | Error::EmbeddedSoh { tag, .. }
            | Error::EmptyValue { tag, .. }
            | Error::InvalidDataLength { tag, .. }
            | Error::DataLengthOutOfBounds { tag, .. } => Some(tag),
            Error::Garbage { .. }
            | Error::InvalidTag { .. }
            | Error::TagZero { .. }
            | Error::TagOverflow { .. }
            | Error::Unterminated { .. }
            | Error::TooManyFields { .. } => None,
        }
    }

    /// The byte offset the error points at, when there is one.
    ///
    /// ```
    /// use fix_core::Error;
    /// assert_eq!(Error::TagZero { offset: 21 }.offset(), Some(21));
    /// assert_eq!(Error::TooManyFields { capacity: 8 }.offset(), None);
    /// ```
    pub const fn offset(&self) -> Option<usize> {
        match *self {
            Error::InvalidBeginString { offset }
            | Error::BodyLengthMissing { offset }
            | Error::InvalidBodyLength { offset }
            | Error::MsgTypeMissing { offset }
            | Error::BodyLengthMismatch { offset }
            | Error::InvalidCheckSum { offset }
            | Error::CheckSumMismatch { offset, .. }
            | Error::InvalidTag { offset }
            | Error::TagZero { offset }
            | Error::TagOverflow { offset }
            | Error::MissingEquals { offset, .. }
            | Error::EmbeddedSoh { offset, .. }
            | Error::EmptyValue { offset, .. }
            | Error::InvalidDataLength { offset, .. }
            | Error::DataLengthOutOfBounds { offset, .. }
            | Error::Unterminated { offset } => Some(offset),
            Error::Garbage { .. }
            | Error::MessageTooLarge { .. }
            | Error::BodyLengthOverflow { .. }
            | Error::TooManyFields { .. } => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Error::Garbage { skip } => write!(f, "{skip} bytes before the next `8=FIX`"),
            Error::InvalidBeginString { offset } => {
                write!(f, "invalid BeginString (8) at byte {offset}")
            }
            Error::BodyLengthMissing { offset } => {
                write!(
                    f,
                    "BodyLength (9) expected as the second field, at byte {offset}"
                )
            }
            Error::InvalidBodyLength { offset } => {
                write!(
                    f,
                    "BodyLength (9) is not a number of 1 to 20 digits, at byte {offset}"
                )
            }
            Error::MessageTooLarge { size, max } => {
                write!(f, "message of {size} bytes exceeds the maximum of {max}")
            }
            Error::BodyLengthOverflow { declared } => write!(
                f,
                "BodyLength (9) is {declared}, more than any message can hold"
            ),
            Error::MsgTypeMissing { offset } => {
                write!(
                    f,
                    "MsgType (35) expected as the third field, at byte {offset}"
                )
            }
            Error::BodyLengthMismatch { offset } => write!(
                f,
                "BodyLength (9) does not match: no CheckSum (10) at byte {offset}"
            ),
            Error::InvalidCheckSum { offset } => {
                write!(f, "CheckSum (10) is not three digits, at byte {offset}")
            }
            Error::CheckSumMismatch {
                declared, computed, ..
            } => write!(
                f,
                "CheckSum (10) is {declared:03} but the bytes sum to {computed:03}"
            ),
            Error::InvalidTag { offset } => write!(f, "invalid tag at byte {offset}"),
            Error::TagZero { offset } => write!(f, "tag 0 at byte {offset}"),
            Error::TagOverflow { offset } => write!(f, "tag too large at byte {offset}"),
            Error::MissingEquals { tag, offset } => {
                write!(f, "tag {tag} has no `=`, at byte {offset}")
            }
            Error::EmbeddedSoh { tag, offset } => {
                write!(f, "the value of tag {tag} holds SOH, at byte {offset}")
            }
            Error::EmptyValue { tag, offset } => {
                write!(f, "tag {tag} has an empty value, at byte {offset}")
            }
            Error::InvalidDataLength { tag, offset } => {
                write!(f, "length field {tag} is not a number, at byte {offset}")
            }
            Error::DataLengthOutOfBounds { tag, offset } => write!(
                f,
                "data field {tag} does not fit its announced length in the body, at byte {offset}"
            ),
            Error::Unterminated { offset } => {
                write!(f, "the field at byte {offset} has no SOH after its value")
            }
            Error::TooManyFields { capacity } => {
                write!(f, "more than {capacity} fields")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

/// Up to 20 ASCII digits, kept as a message wrote them: the BodyLength of
/// [`Error::BodyLengthOverflow`], which no integer type of the error could hold
/// without making every `Result` of the parser wider.
///
/// ```
/// use fix_core::{Error, Parser};
/// let Err(Error::BodyLengthOverflow { declared }) =
///     Parser::new().frame(b"8=FIX.4.4\x019=18446744073709551616\x01")
/// else {
///     panic!()
/// };
/// assert_eq!(declared.as_str(), "18446744073709551616");
/// assert_eq!(format!("{declared:?}"), "Digits(18446744073709551616)");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Digits {
    bytes: [u8; Digits::CAPACITY],
    len: u8,
}

impl Digits {
    /// The most digits kept.
    pub const CAPACITY: usize = 20;

    /// The first [`Digits::CAPACITY`] bytes of `digits`, which must all be ASCII
    /// digits (others are kept as `?`, so the text stays a number's shape).
    pub(crate) fn new(digits: &[u8]) -> Self {
        let mut bytes = [0u8; Digits::CAPACITY];
        let len = digits.len().min(Digits::CAPACITY);
        for (out, &d) in bytes.iter_mut().zip(&digits[..len]) {
            *out = if d.is_ascii_digit() { d } else { b'?' };
        }
        Digits {
            bytes,
            len: len as u8,
        }
    }

    /// The digits.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len)]
    }

    /// The digits as text.
    pub fn as_str(&self) -> &str {
        // Only ASCII digits and `?` are ever stored.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

impl fmt::Display for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Digits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Digits({})", self.as_str())
    }
}
