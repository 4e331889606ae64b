//! Character and string types: CHAR, BOOLEAN, MULTIPLEVALUESTRING, MULTIPLECHARVALUE,
//! COUNTRY, CURRENCY, EXCHANGE and STRING.

use core::fmt;

use super::{BufferTooSmall, FieldValue, write_bytes};

/// Why a byte string is not a valid value of a character or string type.
///
/// ```
/// use fix_core::value::{Char, TextError};
/// assert_eq!(Char::parse(b"AB"), Err(TextError::WrongLength { expected: 1 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TextError {
    /// The value is empty.
    Empty,
    /// The value has the wrong number of bytes; `expected` is the (maximum) length.
    WrongLength {
        /// The required length (the maximum for [`Exchange`]).
        expected: usize,
    },
    /// A byte not allowed for this type, at this offset.
    InvalidByte {
        /// Offset of the offending byte in the value.
        offset: usize,
    },
    /// A BOOLEAN other than `Y` or `N`.
    NotBoolean,
    /// An empty element in a space-separated list (two spaces in a row, or a leading or
    /// trailing space), at this offset.
    EmptyElement {
        /// Offset of the space that ends the empty element.
        offset: usize,
    },
}

impl fmt::Display for TextError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty value"),
            Self::WrongLength { expected } => write!(f, "wrong value length, expected {expected}"),
            Self::InvalidByte { offset } => write!(f, "invalid byte at offset {offset}"),
            Self::NotBoolean => f.write_str("boolean must be 'Y' or 'N'"),
            Self::EmptyElement { offset } => {
                write!(
                    f,
                    "empty element in space-separated list at offset {offset}"
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TextError {}

/// True for the bytes a CHAR may hold: printable ASCII other than space (0x21..=0x7E).
#[inline]
fn is_char_byte(b: u8) -> bool {
    (0x21..=0x7e).contains(&b)
}

/// CHAR: one printable ASCII character other than space (`0x21..=0x7E`); case sensitive.
///
/// ```
/// use fix_core::value::Char;
/// let side = Char::parse(b"1").unwrap();
/// assert_eq!(side.get(), b'1');
/// let mut buf = [0u8; 1];
/// assert_eq!(side.write(&mut buf), Ok(1));
/// assert_eq!(&buf, b"1");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Char(u8);

impl Char {
    /// A CHAR from a byte; `None` unless `0x21..=0x7E`.
    ///
    /// ```
    /// use fix_core::value::Char;
    /// assert!(Char::new(b'F').is_some());
    /// assert!(Char::new(0x01).is_none());
    /// ```
    pub const fn new(b: u8) -> Option<Char> {
        if b >= 0x21 && b <= 0x7e {
            Some(Char(b))
        } else {
            None
        }
    }

    /// The byte.
    ///
    /// ```
    /// assert_eq!(fix_core::value::Char::new(b'F').unwrap().get(), b'F');
    /// ```
    pub const fn get(self) -> u8 {
        self.0
    }

    /// Parses exactly one allowed byte.
    ///
    /// ```
    /// use fix_core::value::{Char, TextError};
    /// assert_eq!(Char::parse(b" "), Err(TextError::InvalidByte { offset: 0 }));
    /// assert_eq!(Char::parse(b""), Err(TextError::Empty));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Char, TextError> {
        match bytes {
            [] => Err(TextError::Empty),
            [b] => Char::new(*b).ok_or(TextError::InvalidByte { offset: 0 }),
            _ => Err(TextError::WrongLength { expected: 1 }),
        }
    }

    /// Writes the byte; returns 1.
    ///
    /// ```
    /// let mut buf = [0u8; 4];
    /// assert_eq!(fix_core::value::Char::new(b'2').unwrap().write(&mut buf), Ok(1));
    /// ```
    #[inline]
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_bytes(&[self.0], out)
    }
}

impl<'a> FieldValue<'a> for Char {
    const SOH_FREE: bool = true;

    type Error = TextError;

    fn parse_fix(bytes: &'a [u8]) -> Result<Self, TextError> {
        Char::parse(bytes)
    }

    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write(out)
    }
}

impl fmt::Display for Char {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&(self.0 as char), f)
    }
}

impl<'a> FieldValue<'a> for bool {
    const SOH_FREE: bool = true;

    type Error = TextError;

    /// BOOLEAN: exactly `Y` (true) or `N` (false); lower case and other spellings are
    /// rejected.
    ///
    /// ```
    /// use fix_core::value::FieldValue;
    /// assert_eq!(bool::parse_fix(b"Y"), Ok(true));
    /// assert!(bool::parse_fix(b"y").is_err());
    /// ```
    fn parse_fix(bytes: &'a [u8]) -> Result<Self, TextError> {
        match bytes {
            b"Y" => Ok(true),
            b"N" => Ok(false),
            [] => Err(TextError::Empty),
            _ => Err(TextError::NotBoolean),
        }
    }

    /// Writes `Y` or `N`.
    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_bytes(if *self { b"Y" } else { b"N" }, out)
    }
}

/// Checks a space-separated list: non-empty, no empty element, every element byte allowed
/// by `ok`.
fn check_list(bytes: &[u8], ok: impl Fn(u8) -> bool) -> Result<(), TextError> {
    if bytes.is_empty() {
        return Err(TextError::Empty);
    }
    let mut prev_space = true; // a leading space is an empty element
    for (i, &b) in bytes.iter().enumerate() {
        if b == b' ' {
            if prev_space {
                return Err(TextError::EmptyElement { offset: i });
            }
            prev_space = true;
        } else if ok(b) {
            prev_space = false;
        } else {
            return Err(TextError::InvalidByte { offset: i });
        }
    }
    if prev_space {
        return Err(TextError::EmptyElement {
            offset: bytes.len() - 1,
        });
    }
    Ok(())
}

/// MULTIPLEVALUESTRING: space-separated values (e.g. ExecInst(18) `"1 6 E"`), borrowed from
/// the input.
///
/// Each element is one or more bytes from `0x21..=0x7E`; two spaces in a row, a leading
/// or a trailing space are [`TextError::EmptyElement`].
///
/// ```
/// use fix_core::value::MultipleValueString;
/// let v = MultipleValueString::parse(b"1 6 AB").unwrap();
/// let items: Vec<&[u8]> = v.iter().collect();
/// assert_eq!(items, [&b"1"[..], b"6", b"AB"]);
/// assert!(v.contains(b"AB"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MultipleValueString<'a>(&'a [u8]);

impl<'a> MultipleValueString<'a> {
    /// Validates and borrows the list.
    ///
    /// ```
    /// use fix_core::value::{MultipleValueString, TextError};
    /// assert_eq!(MultipleValueString::parse(b"A  B"), Err(TextError::EmptyElement { offset: 2 }));
    /// ```
    pub fn parse(bytes: &'a [u8]) -> Result<Self, TextError> {
        check_list(bytes, is_char_byte)?;
        Ok(MultipleValueString(bytes))
    }

    /// The raw bytes, spaces included.
    ///
    /// ```
    /// use fix_core::value::MultipleValueString;
    /// assert_eq!(MultipleValueString::parse(b"A B").unwrap().as_bytes(), b"A B");
    /// ```
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// Iterates over the elements, without copying.
    ///
    /// ```
    /// use fix_core::value::MultipleValueString;
    /// assert_eq!(MultipleValueString::parse(b"X Y").unwrap().iter().count(), 2);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        self.0.split(|&b| b == b' ')
    }

    /// True if one of the elements equals `item`.
    ///
    /// ```
    /// use fix_core::value::MultipleValueString;
    /// assert!(!MultipleValueString::parse(b"AB C").unwrap().contains(b"A"));
    /// ```
    pub fn contains(&self, item: &[u8]) -> bool {
        self.iter().any(|e| e == item)
    }

    /// Writes the list as it was parsed.
    ///
    /// ```
    /// use fix_core::value::MultipleValueString;
    /// let mut buf = [0u8; 8];
    /// assert_eq!(MultipleValueString::parse(b"1 6").unwrap().write(&mut buf), Ok(3));
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_bytes(self.0, out)
    }
}

impl<'a> FieldValue<'a> for MultipleValueString<'a> {
    const SOH_FREE: bool = true;

    type Error = TextError;

    fn parse_fix(bytes: &'a [u8]) -> Result<Self, TextError> {
        MultipleValueString::parse(bytes)
    }

    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write(out)
    }
}

/// MULTIPLECHARVALUE: space-separated single characters (e.g. `"2 A F"`), borrowed from
/// the input.
///
/// ```
/// use fix_core::value::{Char, MultipleCharValue};
/// let v = MultipleCharValue::parse(b"2 A F").unwrap();
/// let chars: Vec<u8> = v.iter().map(Char::get).collect();
/// assert_eq!(chars, b"2AF");
/// assert!(MultipleCharValue::parse(b"2 AB").is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MultipleCharValue<'a>(&'a [u8]);

impl<'a> MultipleCharValue<'a> {
    /// Validates and borrows the list: characters from `0x21..=0x7E` separated by single
    /// spaces.
    ///
    /// ```
    /// use fix_core::value::{MultipleCharValue, TextError};
    /// assert_eq!(MultipleCharValue::parse(b"AB"), Err(TextError::InvalidByte { offset: 1 }));
    /// ```
    pub fn parse(bytes: &'a [u8]) -> Result<Self, TextError> {
        check_list(bytes, is_char_byte)?;
        // Single characters: every odd offset must be a space.
        for (i, &b) in bytes.iter().enumerate() {
            if (i % 2 == 1) != (b == b' ') {
                return Err(TextError::InvalidByte { offset: i });
            }
        }
        Ok(MultipleCharValue(bytes))
    }

    /// The raw bytes, spaces included.
    ///
    /// ```
    /// use fix_core::value::MultipleCharValue;
    /// assert_eq!(MultipleCharValue::parse(b"A B").unwrap().as_bytes(), b"A B");
    /// ```
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// Iterates over the characters.
    ///
    /// ```
    /// use fix_core::value::MultipleCharValue;
    /// assert_eq!(MultipleCharValue::parse(b"A B C").unwrap().iter().count(), 3);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = Char> + 'a {
        self.0.iter().step_by(2).map(|&b| Char(b))
    }

    /// True if one of the characters is `c`.
    ///
    /// ```
    /// use fix_core::value::MultipleCharValue;
    /// assert!(MultipleCharValue::parse(b"A B").unwrap().contains(b'B'));
    /// ```
    pub fn contains(&self, c: u8) -> bool {
        self.iter().any(|e| e.0 == c)
    }

    /// Writes the list as it was parsed.
    ///
    /// ```
    /// use fix_core::value::MultipleCharValue;
    /// let mut buf = [0u8; 8];
    /// assert_eq!(MultipleCharValue::parse(b"1 6").unwrap().write(&mut buf), Ok(3));
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_bytes(self.0, out)
    }
}

impl<'a> FieldValue<'a> for MultipleCharValue<'a> {
    const SOH_FREE: bool = true;

    type Error = TextError;

    fn parse_fix(bytes: &'a [u8]) -> Result<Self, TextError> {
        MultipleCharValue::parse(bytes)
    }

    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write(out)
    }
}

macro_rules! code_type {
    (
        $(#[$doc:meta])* $name:ident, min $min:literal, max $max:literal,
        $allowed:expr, $good:literal, $bad:literal
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name {
            bytes: [u8; $max],
            len: u8,
        }

        impl $name {
            /// Parses and copies the code (no borrow is kept).
            ///
            /// ```
            #[doc = concat!("use fix_core::value::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::parse(b\"", $good, "\").unwrap().as_str(), \"", $good, "\");")]
            #[doc = concat!("assert!(", stringify!($name), "::parse(b\"", $bad, "\").is_err());")]
            /// ```
            pub fn parse(bytes: &[u8]) -> Result<Self, TextError> {
                if bytes.is_empty() {
                    return Err(TextError::Empty);
                }
                if bytes.len() < $min || bytes.len() > $max {
                    return Err(TextError::WrongLength { expected: $max });
                }
                let allowed: fn(u8) -> bool = $allowed;
                let mut out = [0u8; $max];
                for (i, &b) in bytes.iter().enumerate() {
                    if !allowed(b) {
                        return Err(TextError::InvalidByte { offset: i });
                    }
                    out[i] = b;
                }
                Ok($name { bytes: out, len: bytes.len() as u8 })
            }

            /// The code's bytes.
            ///
            /// ```
            #[doc = concat!("use fix_core::value::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::parse(b\"", $good, "\").unwrap().as_bytes(), b\"", $good, "\");")]
            /// ```
            pub fn as_bytes(&self) -> &[u8] {
                &self.bytes[..self.len as usize]
            }

            /// The code as a string (always ASCII).
            ///
            /// ```
            #[doc = concat!("use fix_core::value::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::parse(b\"", $good, "\").unwrap().as_str(), \"", $good, "\");")]
            /// ```
            pub fn as_str(&self) -> &str {
                // Only ASCII bytes pass `parse`, so this never fails.
                core::str::from_utf8(self.as_bytes()).unwrap_or("")
            }

            /// Writes the code; returns the number of bytes written.
            ///
            /// ```
            #[doc = concat!("use fix_core::value::", stringify!($name), ";")]
            /// let mut buf = [0u8; 8];
            #[doc = concat!("let n = ", stringify!($name), "::parse(b\"", $good, "\").unwrap().write(&mut buf).unwrap();")]
            #[doc = concat!("assert_eq!(&buf[..n], b\"", $good, "\");")]
            /// ```
            pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
                write_bytes(self.as_bytes(), out)
            }
        }

        impl<'a> FieldValue<'a> for $name {
            const SOH_FREE: bool = true;

            type Error = TextError;

            fn parse_fix(bytes: &'a [u8]) -> Result<Self, TextError> {
                $name::parse(bytes)
            }

            fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
                self.write(out)
            }
        }

        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.as_str()).finish()
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(self.as_str())
            }
        }
    };
}

code_type!(
    /// COUNTRY: an ISO 3166-1 alpha-2 code, exactly two upper-case letters (`US`).
    Country, min 2, max 2, |b| b.is_ascii_uppercase(), "US", "us"
);
code_type!(
    /// CURRENCY: an ISO 4217 code, exactly three upper-case letters (`USD`).
    Currency, min 3, max 3, |b| b.is_ascii_uppercase(), "USD", "US"
);
code_type!(
    /// EXCHANGE: an ISO 10383 Market Identifier Code (`XNAS`), 1 to 4 upper-case letters
    /// or digits (FIX 4.2 and older used one-letter codes such as `N`).
    Exchange, min 1, max 4, |b| b.is_ascii_uppercase() || b.is_ascii_digit(), "XNAS", "XNASD"
);

/// STRING: free-format bytes, borrowed from the input; any byte but SOH (0x01).
///
/// FIX strings are usually ASCII but nothing forces them to be UTF-8, so the bytes are the
/// value and [`FixStr::as_str`] is the checked view.
///
/// ```
/// use fix_core::value::FixStr;
/// let s = FixStr::parse(b"Partial fill").unwrap();
/// assert_eq!(s.as_str(), Some("Partial fill"));
/// assert_eq!(FixStr::parse(b"\xff").unwrap().as_str(), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct FixStr<'a>(&'a [u8]);

impl<'a> FixStr<'a> {
    /// Borrows a non-empty value without SOH.
    ///
    /// ```
    /// use fix_core::value::{FixStr, TextError};
    /// assert_eq!(FixStr::parse(b"a\x01b"), Err(TextError::InvalidByte { offset: 1 }));
    /// ```
    pub fn parse(bytes: &'a [u8]) -> Result<Self, TextError> {
        if bytes.is_empty() {
            return Err(TextError::Empty);
        }
        // Word-at-a-time: a value read through a typed view is usually a short id,
        // where a byte loop costs more than the rest of the read.
        if !crate::scan::contains_soh(bytes) {
            return Ok(FixStr(bytes));
        }
        let offset = bytes.iter().position(|&b| b == 0x01).unwrap_or_default();
        Err(TextError::InvalidByte { offset })
    }

    /// The bytes.
    ///
    /// ```
    /// assert_eq!(fix_core::value::FixStr::parse(b"CLIENT").unwrap().as_bytes(), b"CLIENT");
    /// ```
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The value as `&str` if it is valid UTF-8.
    ///
    /// ```
    /// assert_eq!(fix_core::value::FixStr::parse("é".as_bytes()).unwrap().as_str(), Some("é"));
    /// ```
    pub fn as_str(&self) -> Option<&'a str> {
        core::str::from_utf8(self.0).ok()
    }

    /// Writes the bytes; returns the number of bytes written.
    ///
    /// ```
    /// let mut buf = [0u8; 8];
    /// assert_eq!(fix_core::value::FixStr::parse(b"AAPL").unwrap().write(&mut buf), Ok(4));
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        write_bytes(self.0, out)
    }
}

impl<'a> FieldValue<'a> for FixStr<'a> {
    const SOH_FREE: bool = true;

    type Error = TextError;

    fn parse_fix(bytes: &'a [u8]) -> Result<Self, TextError> {
        FixStr::parse(bytes)
    }

    /// Without the SOH scan when the parser has ruled SOH out (`soh_free`).
    #[inline(always)]
    fn parse_in(
        buf: &'a [u8],
        value: core::ops::Range<usize>,
        soh_free: bool,
    ) -> Result<Self, TextError> {
        // One bound check and one length test on the common path; anything
        // else is what `parse` says of it (an empty value, one out of `buf`, a
        // SOH).
        match buf.get(value) {
            Some(bytes) if soh_free && !bytes.is_empty() => Ok(FixStr(bytes)),
            bytes => FixStr::parse(bytes.unwrap_or_default()),
        }
    }

    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write(out)
    }
}
