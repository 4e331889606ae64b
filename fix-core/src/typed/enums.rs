//! The run-time helpers of generated enums: CHAR decoding tables, checks of
//! unlisted values, writing wire bytes back.

use super::errors::EnumError;
use crate::value::BufferTooSmall;

/// A table from byte to `1 + ` the index of that byte in `values` (0 for bytes not
/// listed): the `O(1)` decoder of single-byte (CHAR) enums. A byte no CHAR value
/// can be (outside printable ASCII, or a space) is left out, so that a byte the
/// table lists is a valid value ([`decode_char`] checks nothing else of it).
///
/// ```
/// use fix_core::typed::byte_table;
/// const T: [u8; 256] = byte_table(b"12 ");
/// assert_eq!((T[b'1' as usize], T[b'2' as usize], T[b'3' as usize]), (1, 2, 0));
/// assert_eq!(T[b' ' as usize], 0);
/// ```
pub const fn byte_table(values: &[u8]) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < values.len() && i < 255 {
        if is_char(values[i]) {
            table[values[i] as usize] = (i + 1) as u8;
        }
        i += 1;
    }
    table
}

/// Whether `b` can be a CHAR value: printable ASCII other than space.
const fn is_char(b: u8) -> bool {
    b >= 0x21 && b <= 0x7e
}

/// The single byte of a CHAR value (printable ASCII other than space).
///
/// ```
/// use fix_core::typed::{EnumError, parse_char};
/// assert_eq!(parse_char(b"1"), Ok(b'1'));
/// assert_eq!(parse_char(b""), Err(EnumError::Empty));
/// assert_eq!(parse_char(b"\x01"), Err(EnumError::InvalidByte));
/// ```
pub fn parse_char(bytes: &[u8]) -> Result<u8, EnumError> {
    match bytes {
        [] => Err(EnumError::Empty),
        [b] if is_char(*b) => Ok(*b),
        [_] => Err(EnumError::InvalidByte),
        _ => Err(EnumError::WrongLength),
    }
}

/// Decodes a CHAR enum through its [`byte_table`]: the listed variant, or `other`.
/// A listed byte is decided by one load (the table lists only valid bytes); any
/// other value is checked by [`parse_char`].
///
/// ```
/// use fix_core::typed::{byte_table, decode_char};
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Side { Buy, Sell, Other(u8) }
/// const TABLE: [u8; 256] = byte_table(b"12");
/// const VARIANTS: [Side; 2] = [Side::Buy, Side::Sell];
/// assert_eq!(decode_char(b"2", &TABLE, &VARIANTS, Side::Other), Ok(Side::Sell));
/// assert_eq!(decode_char(b"7", &TABLE, &VARIANTS, Side::Other), Ok(Side::Other(b'7')));
/// ```
#[inline]
pub fn decode_char<T: Copy>(
    bytes: &[u8],
    table: &[u8; 256],
    variants: &[T],
    other: fn(u8) -> T,
) -> Result<T, EnumError> {
    if let [b] = bytes
        && let Some(&v) = usize::from(table[usize::from(*b)])
            .checked_sub(1)
            .and_then(|i| variants.get(i))
    {
        return Ok(v);
    }
    parse_char(bytes).map(other)
}

/// Checks an unlisted value of an enumerated field: non-empty, no SOH, and for
/// integer types an optional `-` and digits.
///
/// ```
/// use fix_core::typed::{EnumError, check_other};
/// assert_eq!(check_other(b"17", true), Ok(b"17".as_slice()));
/// assert_eq!(check_other(b"1x", true), Err(EnumError::NotInteger));
/// assert_eq!(check_other(b"XY", false), Ok(b"XY".as_slice()));
/// ```
pub fn check_other(bytes: &[u8], integer: bool) -> Result<&[u8], EnumError> {
    if bytes.is_empty() {
        return Err(EnumError::Empty);
    }
    if integer {
        let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return Err(EnumError::NotInteger);
        }
    } else if bytes.contains(&crate::SOH) {
        return Err(EnumError::InvalidByte);
    }
    Ok(bytes)
}

static ALL_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// The one-byte slice holding `b`, with a `'static` lifetime (how a CHAR enum's
/// unlisted value is written back).
///
/// ```
/// assert_eq!(fix_core::typed::byte_str(b'Z'), b"Z");
/// ```
pub fn byte_str(b: u8) -> &'static [u8] {
    let i = usize::from(b);
    &ALL_BYTES[i..i + 1]
}

/// Copies `value` to the start of `out` (an enum's `write_fix`).
///
/// ```
/// let mut buf = [0u8; 2];
/// assert_eq!(fix_core::typed::write_bytes(b"AB", &mut buf), Ok(2));
/// ```
pub fn write_bytes(value: &[u8], out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    match out.get_mut(..value.len()) {
        Some(dst) => {
            dst.copy_from_slice(value);
            Ok(value.len())
        }
        None => Err(BufferTooSmall {
            needed: value.len(),
        }),
    }
}
