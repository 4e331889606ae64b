//! The errors of typed getters ([`FieldError`]) and of generated enums' decoding
//! ([`EnumError`]).

use core::fmt;

/// Why a typed getter could not return a value.
///
/// ```
/// use fix_core::typed::FieldError;
/// let e = FieldError::Missing { tag: 11 };
/// assert_eq!(e.tag(), 11);
/// assert_eq!(e.to_string(), "required field 11 is missing");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldError {
    /// A required field is absent.
    Missing {
        /// The field's tag.
        tag: u32,
    },
    /// The value does not parse as the field's type.
    Invalid {
        /// The field's tag.
        tag: u32,
        /// Offset of the value in the message.
        offset: usize,
    },
}

impl FieldError {
    /// The tag the error is about.
    ///
    /// ```
    /// # use fix_core::typed::FieldError;
    /// assert_eq!(FieldError::Invalid { tag: 44, offset: 30 }.tag(), 44);
    /// ```
    pub const fn tag(&self) -> u32 {
        match *self {
            FieldError::Missing { tag } | FieldError::Invalid { tag, .. } => tag,
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FieldError::Missing { tag } => write!(f, "required field {tag} is missing"),
            FieldError::Invalid { tag, offset } => {
                write!(f, "field {tag} has an invalid value at byte {offset}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FieldError {}

/// Why wire bytes are not a value of a generated enum.
///
/// ```
/// use fix_core::typed::{EnumError, parse_char};
/// assert_eq!(parse_char(b"12"), Err(EnumError::WrongLength));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EnumError {
    /// The value is empty.
    Empty,
    /// A CHAR value that is not exactly one byte.
    WrongLength,
    /// An unlisted value of an integer field that is not an integer.
    NotInteger,
    /// A byte not allowed in a value (SOH, or a control or space byte in a CHAR).
    InvalidByte,
}

impl fmt::Display for EnumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EnumError::Empty => "empty value",
            EnumError::WrongLength => "a CHAR value must be one byte",
            EnumError::NotInteger => "not an integer",
            EnumError::InvalidByte => "invalid byte in value",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EnumError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Decimal;
    use core::mem::size_of;

    /// Every optional typed getter returns this type, so its size is paid on every
    /// read: a wide error would make each price or quantity read move more bytes.
    #[test]
    fn a_getter_s_result_stays_small() {
        let size = size_of::<Result<Option<Decimal>, FieldError>>();
        assert!(
            size <= 32,
            "{size} bytes (FieldError: {})",
            size_of::<FieldError>()
        );
    }
}
