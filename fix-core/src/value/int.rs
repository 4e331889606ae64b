//! Integers: INT (`i64`), SEQNUM, NUMINGROUP, LENGTH and TAGNUM.
//!
//! Sign and zero rules, following the FIX data type definitions:
//!
//! | type | sign | leading zeros | zero |
//! |---|---|---|---|
//! | INT | optional `-` (no `+`) | allowed (`"00023"` = 23) | allowed, also `-0` |
//! | SEQNUM | none | allowed | allowed (EndSeqNo(16)=0 means "infinity") |
//! | NUMINGROUP | none | allowed | allowed (an empty group is seen in practice) |
//! | LENGTH | none | allowed | allowed |
//! | TAGNUM | none | **rejected** | **rejected** (tags start at 1) |
//!
//! The spec says INT "may contain leading zeros"; SEQNUM, NUMINGROUP and LENGTH are INT
//! subtypes, so they inherit that. TAGNUM "may not contain leading zeros" and must be
//! positive. A leading `+` is never valid.

use core::fmt;

use super::digits::{count_u64, digits_word, store_word, write_u64_back};
use super::{BufferTooSmall, FieldValue};

/// Why a byte string is not a valid FIX integer of the requested kind.
///
/// ```
/// use fix_core::value::{parse_int, IntError};
///
/// assert_eq!(parse_int(b"9223372036854775808"), Err(IntError::Overflow));
/// assert_eq!(parse_int(b"12a"), Err(IntError::InvalidByte { offset: 2 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IntError {
    /// The value is empty.
    Empty,
    /// A `-` with no digits after it.
    NoDigits,
    /// A byte that is not a digit (or a leading `-` where allowed), at this offset.
    InvalidByte {
        /// Offset of the offending byte in the value.
        offset: usize,
    },
    /// A `-` on a type that must not be negative (SEQNUM, NUMINGROUP, LENGTH, TAGNUM).
    Negative,
    /// The value does not fit the target type.
    Overflow,
    /// A leading zero where the type forbids it (TAGNUM).
    LeadingZero,
    /// Zero where the type must be positive (TAGNUM).
    Zero,
}

impl fmt::Display for IntError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty integer value"),
            Self::NoDigits => f.write_str("integer value has no digits"),
            Self::InvalidByte { offset } => write!(f, "invalid byte in integer at offset {offset}"),
            Self::Negative => f.write_str("negative value where the type is non-negative"),
            Self::Overflow => f.write_str("integer out of range"),
            Self::LeadingZero => f.write_str("leading zero not allowed"),
            Self::Zero => f.write_str("zero not allowed, the value must be positive"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for IntError {}

/// Accumulates unsigned digits from `b[start..]` into a u64, with overflow detection.
#[inline]
fn digits_u64(b: &[u8], start: usize) -> Result<u64, IntError> {
    let digits = &b[start..];
    let mut v: u64 = 0;
    if digits.len() <= 19 {
        // 19 digits are below 10^19 < 2^64: no overflow possible.
        for (i, &c) in digits.iter().enumerate() {
            let d = c.wrapping_sub(b'0');
            if d >= 10 {
                return Err(IntError::InvalidByte { offset: start + i });
            }
            v = v * 10 + d as u64;
        }
    } else {
        for (i, &c) in digits.iter().enumerate() {
            let d = c.wrapping_sub(b'0');
            if d >= 10 {
                return Err(IntError::InvalidByte { offset: start + i });
            }
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(d as u64))
                .ok_or(IntError::Overflow)?;
        }
    }
    Ok(v)
}

/// Parses an INT: optional `-`, then digits; leading zeros allowed, `+` rejected.
///
/// ```
/// use fix_core::value::{parse_int, IntError};
///
/// assert_eq!(parse_int(b"-00042"), Ok(-42));
/// assert_eq!(parse_int(b"-9223372036854775808"), Ok(i64::MIN));
/// assert_eq!(parse_int(b"+1"), Err(IntError::InvalidByte { offset: 0 }));
/// assert_eq!(parse_int(b"-"), Err(IntError::NoDigits));
/// ```
pub fn parse_int(bytes: &[u8]) -> Result<i64, IntError> {
    match bytes.first() {
        None => Err(IntError::Empty),
        Some(b'-') => {
            if bytes.len() == 1 {
                return Err(IntError::NoDigits);
            }
            let m = digits_u64(bytes, 1)?;
            if m > i64::MIN.unsigned_abs() {
                return Err(IntError::Overflow);
            }
            Ok((m as i64).wrapping_neg())
        }
        Some(_) => {
            let m = digits_u64(bytes, 0)?;
            i64::try_from(m).map_err(|_| IntError::Overflow)
        }
    }
}

/// Parses a non-negative integer: digits only; leading zeros allowed; a `-` is
/// [`IntError::Negative`].
///
/// ```
/// use fix_core::value::{parse_uint, IntError};
///
/// assert_eq!(parse_uint(b"18446744073709551615"), Ok(u64::MAX));
/// assert_eq!(parse_uint(b"18446744073709551616"), Err(IntError::Overflow));
/// assert_eq!(parse_uint(b"-1"), Err(IntError::Negative));
/// ```
pub fn parse_uint(bytes: &[u8]) -> Result<u64, IntError> {
    match bytes.first() {
        None => Err(IntError::Empty),
        Some(b'-') => Err(IntError::Negative),
        Some(_) => digits_u64(bytes, 0),
    }
}

/// Writes an INT without allocation; returns the number of bytes written.
///
/// ```
/// use fix_core::value::write_int;
/// let mut buf = [0u8; 20];
/// let n = write_int(i64::MIN, &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"-9223372036854775808");
/// ```
#[inline]
pub fn write_int(v: i64, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    let neg = v < 0;
    let m = v.unsigned_abs();
    if m < 10_000_000 {
        // At most 7 digits and a sign: one word.
        let (word, digits) = digits_word(m as u32);
        let (word, len) = if neg {
            ((word << 8) | b'-' as u64, digits + 1)
        } else {
            (word, digits)
        };
        let Some(out) = out.get_mut(..len) else {
            return Err(BufferTooSmall { needed: len });
        };
        store_word(out, word);
        return Ok(len);
    }
    let len = neg as usize + count_u64(m);
    let Some(out) = out.get_mut(..len) else {
        return Err(BufferTooSmall { needed: len });
    };
    write_u64_back(out, len, m);
    if neg {
        out[0] = b'-';
    }
    Ok(len)
}

/// Writes a non-negative integer without allocation; returns the number of bytes written.
///
/// ```
/// use fix_core::value::write_uint;
/// let mut buf = [0u8; 20];
/// let n = write_uint(1207, &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"1207");
/// ```
#[inline]
pub fn write_uint(v: u64, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    if v < 100_000_000 {
        // At most 8 digits: one word.
        let (word, len) = digits_word(v as u32);
        let Some(out) = out.get_mut(..len) else {
            return Err(BufferTooSmall { needed: len });
        };
        store_word(out, word);
        return Ok(len);
    }
    let len = count_u64(v);
    let Some(out) = out.get_mut(..len) else {
        return Err(BufferTooSmall { needed: len });
    };
    write_u64_back(out, len, v);
    Ok(len)
}

impl<'a> FieldValue<'a> for i64 {
    const SOH_FREE: bool = true;

    type Error = IntError;

    /// INT, see [`parse_int`].
    fn parse_fix(bytes: &'a [u8]) -> Result<Self, IntError> {
        parse_int(bytes)
    }

    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_int(*self, out)
    }
}

macro_rules! uint_newtype {
    ($(#[$doc:meta])* $name:ident($inner:ty), $example:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub $inner);

        impl $name {
            /// Parses digits only (leading zeros allowed, no sign); see the module table.
            ///
            /// ```
            #[doc = concat!("use fix_core::value::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::parse(b\"", $example, "\").unwrap().0.to_string(), \"", $example, "\");")]
            #[doc = concat!("assert!(", stringify!($name), "::parse(b\"-1\").is_err());")]
            /// ```
            pub fn parse(bytes: &[u8]) -> Result<Self, IntError> {
                let v = parse_uint(bytes)?;
                <$inner>::try_from(v).map($name).map_err(|_| IntError::Overflow)
            }

            /// Writes the decimal digits; returns the number of bytes written.
            ///
            /// ```
            #[doc = concat!("use fix_core::value::", stringify!($name), ";")]
            /// let mut buf = [0u8; 20];
            #[doc = concat!("let n = ", stringify!($name), "(", $example, ").write(&mut buf).unwrap();")]
            #[doc = concat!("assert_eq!(&buf[..n], b\"", $example, "\");")]
            /// ```
            #[inline]
            pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
                write_uint(self.0 as u64, out)
            }
        }

        impl<'a> FieldValue<'a> for $name {
            const SOH_FREE: bool = true;

            type Error = IntError;

            fn parse_fix(bytes: &'a [u8]) -> Result<Self, IntError> {
                $name::parse(bytes)
            }

            fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
                self.write(out)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

uint_newtype!(
    /// SEQNUM: a message sequence number (MsgSeqNum(34), BeginSeqNo(7), ...), up to
    /// `u64::MAX`. Zero is accepted (EndSeqNo(16)=0 means "infinity").
    SeqNum(u64),
    "1207"
);
uint_newtype!(
    /// NUMINGROUP: the number of entries of a repeating group, up to `u32::MAX`.
    NumInGroup(u32),
    "10"
);
uint_newtype!(
    /// LENGTH: a byte count (BodyLength(9), RawDataLength(95), ...), up to `u32::MAX`.
    Length(u32),
    "316"
);

/// TAGNUM: a field's tag number (RefTagID(371), ...): positive, no leading zeros.
///
/// ```
/// use fix_core::value::{IntError, TagNum};
///
/// assert_eq!(TagNum::parse(b"35").unwrap().get(), 35);
/// assert_eq!(TagNum::parse(b"035"), Err(IntError::LeadingZero));
/// assert_eq!(TagNum::parse(b"0"), Err(IntError::Zero));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TagNum(core::num::NonZeroU32);

impl TagNum {
    /// A tag number; `None` for zero.
    ///
    /// ```
    /// use fix_core::value::TagNum;
    /// assert_eq!(TagNum::new(44).map(TagNum::get), Some(44));
    /// assert!(TagNum::new(0).is_none());
    /// ```
    pub const fn new(tag: u32) -> Option<Self> {
        match core::num::NonZeroU32::new(tag) {
            Some(t) => Some(TagNum(t)),
            None => None,
        }
    }

    /// The tag number.
    ///
    /// ```
    /// assert_eq!(fix_core::value::TagNum::new(8).unwrap().get(), 8);
    /// ```
    pub const fn get(self) -> u32 {
        self.0.get()
    }

    /// Parses a tag number: digits only, no leading zero, not zero, at most `u32::MAX`.
    ///
    /// ```
    /// use fix_core::value::{IntError, TagNum};
    /// assert_eq!(TagNum::parse(b"4294967296"), Err(IntError::Overflow));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Self, IntError> {
        if bytes.first() == Some(&b'0') {
            return Err(if bytes.len() == 1 {
                IntError::Zero
            } else {
                IntError::LeadingZero
            });
        }
        let v = parse_uint(bytes)?;
        let v = u32::try_from(v).map_err(|_| IntError::Overflow)?;
        TagNum::new(v).ok_or(IntError::Zero)
    }

    /// Writes the tag number; returns the number of bytes written.
    ///
    /// ```
    /// use fix_core::value::TagNum;
    /// let mut buf = [0u8; 10];
    /// let n = TagNum::new(207).unwrap().write(&mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"207");
    /// ```
    #[inline]
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_uint(self.get() as u64, out)
    }
}

impl<'a> FieldValue<'a> for TagNum {
    const SOH_FREE: bool = true;

    type Error = IntError;

    fn parse_fix(bytes: &'a [u8]) -> Result<Self, IntError> {
        TagNum::parse(bytes)
    }

    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write(out)
    }
}

impl fmt::Display for TagNum {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edges() {
        assert_eq!(parse_int(b"9223372036854775807"), Ok(i64::MAX));
        assert_eq!(parse_int(b"-9223372036854775809"), Err(IntError::Overflow));
        assert_eq!(parse_int(b"00000000000000000000000001"), Ok(1));
        assert_eq!(parse_int(b"-0"), Ok(0));
        assert_eq!(parse_int(b"99999999999999999999"), Err(IntError::Overflow));
        assert_eq!(parse_uint(b""), Err(IntError::Empty));
        assert_eq!(parse_uint(b"1 "), Err(IntError::InvalidByte { offset: 1 }));
        assert_eq!(NumInGroup::parse(b"4294967296"), Err(IntError::Overflow));
        assert_eq!(SeqNum::parse(b"0"), Ok(SeqNum(0)));
        let mut b = [0u8; 20];
        for v in [0i64, 9, 10, 99, 100, -1, -10, i64::MAX, i64::MIN] {
            let n = write_int(v, &mut b).unwrap();
            assert_eq!(core::str::from_utf8(&b[..n]).unwrap().parse::<i64>(), Ok(v));
        }
        assert_eq!(
            write_int(-10, &mut b[..2]),
            Err(BufferTooSmall { needed: 3 })
        );
    }
}
