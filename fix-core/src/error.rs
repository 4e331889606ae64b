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
    /// BodyLength's value is empty or not all digits.
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
            | Error::BodyLengthMismatch { .. } => Some(9),
            Error::MsgTypeMissing { .. } => Some(35),
            Error::InvalidCheckSum { .. } | Error::CheckSumMismatch { .. } => Some(10),
            Error::MissingEquals { tag, .. }
            | Error::EmptyValue { tag, .. }
            | Error::InvalidDataLength { tag, .. }
            | Error::DataLengthOutOfBounds { tag, .. } => Some(tag),
            Error::Garbage { .. }
            | Error::InvalidTag { .. }
            | Error::TagZero { .. }
            | Error::TagOverflow { .. }
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
            | Error::EmptyValue { offset, .. }
            | Error::InvalidDataLength { offset, .. }
            | Error::DataLengthOutOfBounds { offset, .. } => Some(offset),
            Error::Garbage { .. } | Error::MessageTooLarge { .. } | Error::TooManyFields { .. } => {
                None
            }
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
                write!(f, "BodyLength (9) is not a number, at byte {offset}")
            }
            Error::MessageTooLarge { size, max } => {
                write!(f, "message of {size} bytes exceeds the maximum of {max}")
            }
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
            Error::TooManyFields { capacity } => {
                write!(f, "more than {capacity} fields")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}
