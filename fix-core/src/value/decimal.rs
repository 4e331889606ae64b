//! [`Decimal`]: exact fixed point for PRICE, QTY, AMT, PRICEOFFSET, PERCENTAGE and FLOAT.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::ops::Neg;
use core::str::FromStr;

use super::digits::{
    POW10_U64, POW10_U128, ascii16, copy_small, count_u64, count_u128, digits_word, digits8,
    div_pow10_round, div_pow10_round_u32, store_word, write_u64_back, write_u64_fixed_back,
    write_u128_back, write_u128_fixed_back,
};
use super::{BufferTooSmall, FieldValue};

/// An exact decimal number `mantissa × 10^-scale`, as FIX float-like fields carry it.
///
/// The range is the one of `rust_decimal`: a mantissa of at most 96 bits
/// (`|mantissa| ≤ 2^96 − 1`, 28 significant digits and some) and a scale from 0 to 28,
/// so conversions with `rust_decimal::Decimal` (feature `rust_decimal`) are exact both
/// ways. It takes 16 bytes, like `rust_decimal::Decimal`, and so does `Option<Decimal>`.
///
/// Equality, ordering and hashing are by numeric value: `1.50 == 1.5`, and the two
/// hash the same. The scale is still kept as it appeared on the wire: writing a
/// `Decimal` gives back the digits it was parsed from (`187.2500` stays `187.2500`).
/// Compare [`Decimal::mantissa`] and [`Decimal::scale`] to compare the representation.
///
/// There is no negative zero: `-0.00` parses to zero at scale 2 and writes as `0.00`.
///
/// ```
/// use fix_core::value::Decimal;
///
/// let px = Decimal::parse(b"187.2500").unwrap();
/// assert_eq!((px.mantissa(), px.scale()), (1_872_500, 4));
/// let mut buf = [0u8; 32];
/// let n = px.write(&mut buf).unwrap();
/// assert_eq!(&buf[..n], b"187.2500");
/// assert_eq!(px, Decimal::parse(b"187.25").unwrap());
/// assert_eq!(format!("{px:?}"), "Decimal(187.2500)");
/// ```
#[derive(Clone, Copy, Default)]
pub struct Decimal {
    /// The low 64 bits of the magnitude.
    lo: u64,
    /// The high 32 bits of the magnitude.
    hi: u32,
    /// Digits after the point, 0..=28.
    scale: u8,
    /// The sign; never set for zero. A `bool` gives `Option<Decimal>` its niche.
    neg: bool,
}

/// Why a byte string is not a valid FIX decimal, or a decimal is out of range.
///
/// ```
/// use fix_core::value::{Decimal, DecimalError};
///
/// assert_eq!(Decimal::parse(b"1e5"), Err(DecimalError::Exponent { offset: 1 }));
/// assert_eq!(Decimal::parse(b"-"), Err(DecimalError::NoDigits));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DecimalError {
    /// The value is empty.
    Empty,
    /// There is no digit: a lone `-`, `.` or `-.`.
    NoDigits,
    /// An exponent (`e`/`E`), which FIX does not allow, at this byte offset.
    Exponent {
        /// Offset of the `e` or `E` in the value.
        offset: usize,
    },
    /// A byte that is not a digit, a leading `-` or a single `.`, at this offset.
    InvalidByte {
        /// Offset of the offending byte in the value.
        offset: usize,
    },
    /// The mantissa does not fit 96 bits (more than about 28 significant digits).
    Overflow,
    /// More than [`Decimal::MAX_SCALE`] digits after the point.
    ScaleTooLarge,
}

impl fmt::Display for DecimalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("empty decimal value"),
            Self::NoDigits => f.write_str("decimal value has no digits"),
            Self::Exponent { offset } => {
                write!(
                    f,
                    "exponent notation is not allowed in FIX decimals (offset {offset})"
                )
            }
            Self::InvalidByte { offset } => write!(f, "invalid byte in decimal at offset {offset}"),
            Self::Overflow => f.write_str("decimal mantissa out of range (more than 96 bits)"),
            Self::ScaleTooLarge => f.write_str("decimal has more than 28 digits after the point"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for DecimalError {}

const MAX_MANTISSA_U128: u128 = (1u128 << 96) - 1;

impl Decimal {
    /// The largest scale (digits after the point): 28.
    ///
    /// ```
    /// assert_eq!(fix_core::value::Decimal::MAX_SCALE, 28);
    /// ```
    pub const MAX_SCALE: u8 = 28;

    /// The largest mantissa magnitude: 2^96 − 1.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// assert!(Decimal::from_parts(Decimal::MAX_MANTISSA + 1, 0).is_err());
    /// ```
    pub const MAX_MANTISSA: i128 = MAX_MANTISSA_U128 as i128;

    /// Zero at scale 0.
    ///
    /// ```
    /// assert!(fix_core::value::Decimal::ZERO.is_zero());
    /// ```
    pub const ZERO: Decimal = Decimal {
        lo: 0,
        hi: 0,
        scale: 0,
        neg: false,
    };

    /// The longest output of [`Decimal::write`]: sign, 29 digits, point (a value at its own
    /// scale never needs more than 31 bytes).
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let mut buf = [0u8; Decimal::MAX_WRITE_LEN];
    /// let min = Decimal::from_parts(-Decimal::MAX_MANTISSA, 28).unwrap();
    /// assert!(min.write(&mut buf).is_ok());
    /// ```
    pub const MAX_WRITE_LEN: usize = 32;

    /// The value from its parts; `mag ≤ 2^96 − 1` and `scale ≤ 28` are the caller's to
    /// ensure. A zero magnitude is never negative.
    #[inline(always)]
    const fn from_raw(neg: bool, mag: u128, scale: u8) -> Decimal {
        debug_assert!(mag <= MAX_MANTISSA_U128 && scale <= Self::MAX_SCALE);
        Decimal {
            lo: mag as u64,
            hi: (mag >> 64) as u32,
            scale,
            neg: neg && mag != 0,
        }
    }

    /// The magnitude `|mantissa|`.
    #[inline(always)]
    const fn mag(&self) -> u128 {
        (self.hi as u128) << 64 | self.lo as u128
    }

    /// `mantissa × 10^-scale` from an `i64` mantissa; fails only if `scale > 28`.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = Decimal::new(-1_243_456, 4).unwrap();
    /// assert_eq!(d.to_string(), "-124.3456");
    /// ```
    pub const fn new(mantissa: i64, scale: u8) -> Result<Self, DecimalError> {
        if scale > Self::MAX_SCALE {
            Err(DecimalError::ScaleTooLarge)
        } else {
            Ok(Self::from_raw(
                mantissa < 0,
                mantissa.unsigned_abs() as u128,
                scale,
            ))
        }
    }

    /// `mantissa × 10^-scale`; fails if `|mantissa| > 2^96 − 1` or `scale > 28`.
    ///
    /// ```
    /// use fix_core::value::{Decimal, DecimalError};
    /// assert!(Decimal::from_parts(i64::MIN as i128, 18).is_ok());
    /// assert_eq!(Decimal::from_parts(1, 29), Err(DecimalError::ScaleTooLarge));
    /// ```
    pub const fn from_parts(mantissa: i128, scale: u8) -> Result<Self, DecimalError> {
        if scale > Self::MAX_SCALE {
            Err(DecimalError::ScaleTooLarge)
        } else if mantissa.unsigned_abs() > MAX_MANTISSA_U128 {
            Err(DecimalError::Overflow)
        } else {
            Ok(Self::from_raw(mantissa < 0, mantissa.unsigned_abs(), scale))
        }
    }

    /// The mantissa: the value times 10^scale.
    ///
    /// ```
    /// assert_eq!(fix_core::value::Decimal::parse(b"-1.50").unwrap().mantissa(), -150);
    /// ```
    #[inline]
    pub const fn mantissa(&self) -> i128 {
        let m = self.mag() as i128;
        if self.neg { -m } else { m }
    }

    /// The number of digits after the point.
    ///
    /// ```
    /// assert_eq!(fix_core::value::Decimal::parse(b"1.50").unwrap().scale(), 2);
    /// ```
    #[inline]
    pub const fn scale(&self) -> u8 {
        self.scale
    }

    /// True for zero at any scale.
    ///
    /// ```
    /// assert!(fix_core::value::Decimal::parse(b"-0.000").unwrap().is_zero());
    /// ```
    #[inline]
    pub const fn is_zero(&self) -> bool {
        self.lo == 0 && self.hi == 0
    }

    /// True if the value is below zero (never for zero).
    ///
    /// ```
    /// assert!(fix_core::value::Decimal::parse(b"-0.01").unwrap().is_negative());
    /// assert!(!fix_core::value::Decimal::parse(b"-0.00").unwrap().is_negative());
    /// ```
    #[inline]
    pub const fn is_negative(&self) -> bool {
        self.neg
    }

    /// The absolute value, at the same scale (always in range: the range is symmetric).
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = Decimal::parse(b"-1.50").unwrap().abs();
    /// assert_eq!((d.mantissa(), d.scale()), (150, 2));
    /// ```
    #[inline]
    pub const fn abs(&self) -> Decimal {
        Decimal {
            neg: false,
            ..*self
        }
    }

    /// Parses a FIX float value: an optional leading `-`, digits, and at most one `.`.
    ///
    /// Leading zeros and a trailing point are allowed (`"00023.0"`, `"23."`, `".5"`), as the
    /// FIX specification allows them; the scale is the number of digits after the point.
    /// A leading `+`, exponents, spaces and empty values are errors, and so is a value
    /// beyond the range (never rounded): [`DecimalError::Overflow`] past 96 bits of
    /// mantissa, [`DecimalError::ScaleTooLarge`] past 28 digits after the point.
    ///
    /// ```
    /// use fix_core::value::{Decimal, DecimalError};
    ///
    /// assert_eq!(Decimal::parse(b"00023.230").unwrap(), Decimal::new(23230, 3).unwrap());
    /// assert_eq!(Decimal::parse(b""), Err(DecimalError::Empty));
    /// assert_eq!(Decimal::parse(b"+1"), Err(DecimalError::InvalidByte { offset: 0 }));
    /// assert_eq!(Decimal::parse(b"1.2.3"), Err(DecimalError::InvalidByte { offset: 3 }));
    /// // 22 digits, 18 of them after the point: a crypto venue's quantity.
    /// let q = Decimal::parse(b"1234.567890123456789012").unwrap();
    /// assert_eq!(q.scale(), 18);
    /// assert_eq!(
    ///     Decimal::parse(b"79228162514264337593543950336"),
    ///     Err(DecimalError::Overflow)
    /// );
    /// ```
    #[inline]
    pub fn parse(bytes: &[u8]) -> Result<Self, DecimalError> {
        match Self::parse_short(bytes) {
            Some(d) => Ok(d),
            None => Self::parse_long(bytes),
        }
    }

    /// The common case of [`Decimal::parse`] without a loop: an optional `-`, then
    /// up to eight bytes of digits with at most one `.` and at least one digit, all
    /// converted in one 64-bit word. `None` for anything else (the general parser
    /// then decides, and names the error). Always inlined: a typed getter's caller
    /// then keeps the result in registers instead of receiving it through memory.
    #[inline(always)]
    fn parse_short(bytes: &[u8]) -> Option<Self> {
        let (neg, digits) = match bytes.split_first() {
            Some((b'-', rest)) => (true, rest),
            _ => (false, bytes),
        };
        Self::from_word(super::load_padded(digits)?, digits.len(), neg)
    }

    /// [`Decimal::parse_short`] of the `n` (1 to 8) bytes after the sign, right-aligned
    /// behind `0`s in `word` (as [`load_padded`](super::load_padded) puts them).
    #[inline(always)]
    fn from_word(mut word: u64, n: usize, neg: bool) -> Option<Self> {
        let dots = super::bytes_equal(word, b'.');
        let mut scale = 0;
        if dots != 0 {
            // The first `.` (there must be no second): drop it, moving the characters
            // before it one place right, and put a `0` in front.
            let k = dots.trailing_zeros() / 8;
            if n == 1 || dots & (dots - 1) != 0 {
                return None;
            }
            let below = (1u64 << (8 * k)) - 1;
            let above = !((below << 8) | 0xff);
            word = ((word & below) << 8) | (word & above) | u64::from(b'0');
            scale = 7 - k as u8;
        }
        // Each byte's digit value, and one test that all eight are digits: the
        // lowest byte that is not has its high bit set in `v` (below `0`) or in
        // `v + 0x76` (above `9`), whatever the borrows and carries above it do.
        let v = word.wrapping_sub(0x3030_3030_3030_3030);
        if (v | v.wrapping_add(0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080 != 0 {
            return None;
        }
        // Eight digits to a number in three multiply steps (pairs, quads, all).
        let v = (v * 10 + (v >> 8)) & 0x00FF_00FF_00FF_00FF;
        let v = (v * 100 + (v >> 16)) & 0x0000_FFFF_0000_FFFF;
        // The last step in 32 bits (the value is below 10^8): the same low half,
        // and no mask to apply.
        let v = ((v as u32).wrapping_mul(10_000)).wrapping_add((v >> 32) as u32);
        Some(Decimal {
            lo: u64::from(v),
            hi: 0,
            scale,
            neg: neg & (v != 0),
        })
    }

    /// [`Decimal::parse_short`] of the value `buf[start..end]` of a parsed message,
    /// a `-` included, when it is at most eight bytes and `buf` holds eight from
    /// `start`: one load, the bytes after the value shifted off the top, a `-`
    /// turned into a leading `0`. `None` for the general parser to decide.
    #[inline(always)]
    fn from_message(buf: &[u8], start: usize, end: usize) -> Option<Self> {
        const ZEROS: u64 = 0x3030_3030_3030_3030;
        let word = u64::from_le_bytes(*buf.get(start..)?.first_chunk::<8>()?);
        let len = end.wrapping_sub(start);
        let neg = word as u8 == b'-';
        let digits = len.wrapping_sub(usize::from(neg));
        // One to eight bytes in all, at least one after the sign.
        if digits.wrapping_sub(1) >= 8 - usize::from(neg) {
            return None;
        }
        let sign = u64::from(neg) * u64::from(b'-' ^ b'0');
        let pad = 8 * (8 - len as u32);
        let word = ((word ^ sign) << pad) | (ZEROS & ((1u64 << pad) - 1));
        Self::from_word(word, digits, neg)
    }

    /// The commonest values of a parsed message's fields in fewer steps than
    /// [`Decimal::from_message`]: `buf[start..end]` of one to eight bytes, digits
    /// with at most one `.` (a price, a quantity) and no sign, when `buf` holds
    /// eight bytes from `start`. One load; each byte turned into its digit value by
    /// one `xor` with `'0'`, which leaves a digit 0 to 9 and any other byte above
    /// 9, so one test checks all eight; the value's bytes shifted to the top of the
    /// word, below them the zeros the shift brings in: leading zero digits, with
    /// no padding to build. `None` for anything else, which
    /// [`Decimal::parse_in_general`] decides.
    #[inline(always)]
    fn from_message_unsigned(buf: &[u8], start: usize, end: usize) -> Option<Self> {
        const ZEROS: u64 = 0x3030_3030_3030_3030;
        let len = end.wrapping_sub(start);
        if len.wrapping_sub(1) >= 8 {
            return None;
        }
        // `start + 8` cannot wrap for a field's offset (a `u32`): one comparison.
        let word = buf.get(start..start.wrapping_add(8))?;
        let word = u64::from_le_bytes(word.try_into().ok()?);
        let mut d = (word ^ ZEROS) << (64 - 8 * len as u32);
        let mut scale = 0;
        if !digit_values(d) {
            // The first `.` (the lowest byte; `'.' ^ '0'` is 0x1e) dropped: the
            // bytes below it move one place up, a zero digit comes in at the
            // bottom. A lone `.` has no digit: the general parser's error.
            let dots = super::bytes_equal(d, b'.' ^ b'0');
            if dots == 0 || len == 1 {
                return None;
            }
            let at = dots.trailing_zeros() & !7;
            let below = (1u64 << at) - 1;
            d = ((d & below) << 8) | (d & ((!0u64 << at) << 8));
            // A second `.`, a `-` or any other byte is still above 9.
            if !digit_values(d) {
                return None;
            }
            scale = 7 - (at / 8) as u8;
        }
        // Eight digits (the lowest byte the most significant) to a number in three
        // multiply steps: pairs, quads, all.
        let v = (d * 10 + (d >> 8)) & 0x00FF_00FF_00FF_00FF;
        let v = (v * 100 + (v >> 16)) & 0x0000_FFFF_0000_FFFF;
        let v = ((v as u32).wrapping_mul(10_000)).wrapping_add((v >> 32) as u32);
        Some(Decimal {
            lo: u64::from(v),
            hi: 0,
            scale,
            neg: false,
        })
    }

    /// [`FieldValue::parse_in`] for what [`Decimal::from_message_unsigned`] leaves:
    /// a sign, more than eight bytes, a value at the end of `buf`; `None` for an
    /// error, which [`Decimal::parse_in_error`] names. Out of line, so that a typed
    /// getter's inlined fast path stays short, and an `Option` (two registers),
    /// not a `Result` (returned through memory), so that the getter's two paths
    /// meet in registers.
    #[inline(never)]
    fn parse_in_general(buf: &[u8], start: usize, end: usize) -> Option<Self> {
        match Self::from_message(buf, start, end) {
            Some(d) => Some(d),
            None => Decimal::parse(buf.get(start..end).unwrap_or_default()).ok(),
        }
    }

    /// The error of a value [`Decimal::parse_in_general`] refuses.
    #[cold]
    #[inline(never)]
    fn parse_in_error(buf: &[u8], start: usize, end: usize) -> DecimalError {
        match Decimal::parse(buf.get(start..end).unwrap_or_default()) {
            Err(e) => e,
            // Not reached: the two parse alike.
            Ok(_) => DecimalError::NoDigits,
        }
    }

    /// [`Decimal::parse`] for any input. Kept out of line so that the short path
    /// inlined into typed getters stays small.
    #[inline(never)]
    fn parse_long(bytes: &[u8]) -> Result<Self, DecimalError> {
        let (neg, start) = match bytes.first() {
            None => return Err(DecimalError::Empty),
            Some(b'-') => (true, 1),
            Some(_) => (false, 0),
        };
        let mut mag: u64 = 0;
        let mut scale: usize = 0; // at most bytes.len(): cannot overflow
        let mut point = false;
        let mut any_digit = false;
        let mut i = start;
        // Fast path: the mantissa stays below 10^18, so `mag * 10 + d` cannot overflow u64.
        while i < bytes.len() {
            let b = bytes[i];
            let d = b.wrapping_sub(b'0');
            if d < 10 {
                if mag >= POW10_U64[18] {
                    break;
                }
                mag = mag * 10 + d as u64;
                any_digit = true;
                scale += point as usize;
            } else if b == b'.' && !point {
                point = true;
            } else {
                return Err(byte_error(b, i));
            }
            i += 1;
        }
        let mut wide = mag as u128;
        // Wide path: checked against the 96-bit limit on every digit.
        while i < bytes.len() {
            let b = bytes[i];
            let d = b.wrapping_sub(b'0');
            if d < 10 {
                wide = wide * 10 + d as u128; // wide <= 2^96 - 1, so this cannot overflow u128
                if wide > MAX_MANTISSA_U128 {
                    return Err(DecimalError::Overflow);
                }
                scale += point as usize;
            } else if b == b'.' && !point {
                point = true;
            } else {
                return Err(byte_error(b, i));
            }
            i += 1;
        }
        if !any_digit {
            return Err(DecimalError::NoDigits);
        }
        if scale > Self::MAX_SCALE as usize {
            return Err(DecimalError::ScaleTooLarge);
        }
        Ok(Self::from_raw(neg, wide, scale as u8))
    }

    /// Writes the value at its own scale (as many digits after the point as it was parsed
    /// or built with); returns the number of bytes written.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let mut buf = [0u8; 32];
    /// let n = Decimal::new(-5, 3).unwrap().write(&mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"-0.005");
    /// ```
    #[inline]
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        if let Some(done) = self.write_short(out) {
            return done;
        }
        self.write_general(self.scale, out)
    }

    /// Writes the value with exactly `dp` digits after the point (none, and no point, for
    /// `dp == 0`), rounding half away from zero when `dp` is below the value's scale and
    /// padding with zeros when it is above. A value that rounds to zero is written without
    /// a sign (`0.00`, never `-0.00`).
    ///
    /// The output is byte for byte what `rust_decimal` prints for
    /// `format!("{:.dp$}", d.round_dp_with_strategy(dp, MidpointAwayFromZero))`.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = Decimal::parse(b"-124.3456").unwrap();
    /// let mut buf = [0u8; 32];
    /// let n = d.write_scaled(2, &mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"-124.35");
    /// let n = d.write_scaled(8, &mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"-124.34560000");
    /// let n = Decimal::parse(b"-0.004").unwrap().write_scaled(2, &mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"0.00");
    /// ```
    #[inline]
    pub fn write_scaled(&self, dp: u8, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        if dp == self.scale
            && let Some(done) = self.write_short(out)
        {
            return done;
        }
        self.write_general(dp, out)
    }

    /// The hottest shapes at the value's own scale (no rounding, no padding): a whole
    /// quantity or a price with a mantissa below 10^7; `None` for the others.
    #[inline(always)]
    fn write_short(&self, out: &mut [u8]) -> Option<Result<usize, BufferTooSmall>> {
        if self.hi != 0 || self.lo >= 10_000_000 {
            return None;
        }
        // Branching on the sign first compiles each arm with the sign known: a
        // positive value pays nothing for it.
        if self.neg {
            write_short_mag(true, self.lo as u32, self.scale, out)
        } else {
            write_short_mag(false, self.lo as u32, self.scale, out)
        }
    }

    /// [`Decimal::write_scaled`] for every value and scale.
    #[inline]
    fn write_general(&self, dp: u8, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        let neg = self.neg;
        if self.hi != 0 {
            return write_u128(neg, self.mag(), self.scale, dp, out);
        }
        let mag = self.lo;
        if mag <= u32::MAX as u64 {
            // The hot shape: a price or quantity with a short mantissa.
            let mag = mag as u32;
            let (q, frac) = if dp >= self.scale {
                (mag, self.scale)
            } else {
                (div_pow10_round_u32(mag, self.scale - dp), dp)
            };
            let pad = dp - frac;
            if q < 10_000_000 && frac <= 6 && pad <= 15 {
                return write_small(neg && q != 0, q, frac as usize, pad as usize, dp > 0, out);
            }
        }
        write_u64(neg, mag, self.scale, dp, out)
    }

    /// Rounds half away from zero to at most `dp` digits after the point; a value whose
    /// scale is already `dp` or less is returned unchanged (as `rust_decimal`'s
    /// `round_dp_with_strategy(dp, MidpointAwayFromZero)` does). A value that rounds to
    /// zero is zero (never negative).
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = Decimal::parse(b"2.345").unwrap().round_dp(2);
    /// assert_eq!((d.mantissa(), d.scale()), (235, 2));
    /// assert_eq!(d.round_dp(5).scale(), 2);
    /// assert!(!Decimal::parse(b"-0.004").unwrap().round_dp(2).is_negative());
    /// ```
    pub fn round_dp(&self, dp: u8) -> Decimal {
        if dp >= self.scale {
            return *self;
        }
        let shift = self.scale - dp;
        // Rounding never grows past the original magnitude's digit count: stays in range.
        let q = if self.hi == 0 {
            div_pow10_round(self.lo, shift) as u128
        } else {
            round_u128(self.mag(), shift)
        };
        Self::from_raw(self.neg, q, dp)
    }

    /// Changes the scale to exactly `dp`: rounds half away from zero when lowering it,
    /// appends zeros when raising it. Fails if `dp > 28` or the mantissa would overflow.
    ///
    /// ```
    /// use fix_core::value::{Decimal, DecimalError};
    /// let d = Decimal::parse(b"1.5").unwrap();
    /// assert_eq!(d.rescale(3).unwrap().to_string(), "1.500");
    /// assert_eq!(d.rescale(0).unwrap().to_string(), "2");
    /// let big = Decimal::parse(b"79228162514264337593543950335").unwrap();
    /// assert_eq!(big.rescale(1), Err(DecimalError::Overflow));
    /// ```
    pub fn rescale(&self, dp: u8) -> Result<Decimal, DecimalError> {
        if dp > Self::MAX_SCALE {
            return Err(DecimalError::ScaleTooLarge);
        }
        if dp <= self.scale {
            return Ok(self.round_dp(dp));
        }
        let p = POW10_U128[(dp - self.scale) as usize];
        match self.mag().checked_mul(p) {
            Some(m) if m <= MAX_MANTISSA_U128 => Ok(Self::from_raw(self.neg, m, dp)),
            _ => Err(DecimalError::Overflow),
        }
    }

    /// Removes trailing zeros after the point, giving the smallest scale that represents
    /// the same number; zero becomes `0` at scale 0.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = Decimal::parse(b"187.2500").unwrap().normalize();
    /// assert_eq!((d.mantissa(), d.scale()), (18725, 2));
    /// ```
    pub fn normalize(&self) -> Decimal {
        if self.is_zero() {
            return Decimal::ZERO;
        }
        let mut m = self.mag();
        let mut s = self.scale;
        while s > 0 && m > u64::MAX as u128 && m.is_multiple_of(10) {
            m /= 10;
            s -= 1;
        }
        if m <= u64::MAX as u128 {
            let mut m64 = m as u64;
            while s > 0 && m64.is_multiple_of(10) {
                m64 /= 10;
                s -= 1;
            }
            m = m64 as u128;
        }
        Self::from_raw(self.neg, m, s)
    }

    /// The sum, exact, or `None` if it does not fit the range.
    ///
    /// The result has the larger of the two scales (as `rust_decimal` gives it) when
    /// it fits 96 bits there; otherwise the largest smaller scale at which the sum is
    /// exact and fits (trailing zeros dropped). `None` when no scale holds it exactly:
    /// this never rounds (where `rust_decimal` would round the result to fit).
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = |s: &str| s.parse::<Decimal>().unwrap();
    /// assert_eq!(d("1.25").checked_add(d("-0.005")).unwrap().to_string(), "1.245");
    /// let max = d("79228162514264337593543950335");
    /// assert_eq!(max.checked_add(d("1")), None);
    /// assert_eq!(max.checked_add(d("0.0000000000000000000000000001")), None);
    /// ```
    #[inline]
    pub fn checked_add(self, rhs: Decimal) -> Option<Decimal> {
        if self.scale == rhs.scale && self.hi == 0 && rhs.hi == 0 {
            // Two 64-bit magnitudes at one scale: the sum is below 2^65, always in range.
            let (neg, m) = add_signed(self.neg, self.lo as u128, rhs.neg, rhs.lo as u128);
            return Some(Self::from_raw(neg, m, self.scale));
        }
        add_general(self, rhs)
    }

    /// The difference, exact, or `None` if it does not fit the range; the same rules as
    /// [`Decimal::checked_add`].
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = |s: &str| s.parse::<Decimal>().unwrap();
    /// assert_eq!(d("1.25").checked_sub(d("1.30")).unwrap().to_string(), "-0.05");
    /// let min = d("-79228162514264337593543950335");
    /// assert_eq!(min.checked_sub(d("1")), None);
    /// ```
    #[inline]
    pub fn checked_sub(self, rhs: Decimal) -> Option<Decimal> {
        self.checked_add(-rhs)
    }

    /// The product, exact, or `None` if it does not fit the range.
    ///
    /// The result has the sum of the two scales (as `rust_decimal` gives it) when that is
    /// at most 28 and the product fits 96 bits there; otherwise the largest smaller scale
    /// at which the product is exact and fits (trailing zeros dropped). A product whose
    /// exact value needs more than 28 digits after the point, or more than 96 bits, is
    /// `None`: this never rounds (where `rust_decimal` would round the result to fit).
    /// Round an operand first ([`Decimal::round_dp`]) to get a rounded product.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = |s: &str| s.parse::<Decimal>().unwrap();
    /// assert_eq!(d("187.25").checked_mul(d("-200")).unwrap().to_string(), "-37450.00");
    /// // Scale 15 + 15 = 30, reduced exactly to 28.
    /// let p = d("0.000000000000100").checked_mul(d("0.000000000000001")).unwrap();
    /// assert_eq!((p.mantissa(), p.scale()), (1, 28));
    /// // 10^-29 is not representable: no rounding to zero.
    /// assert_eq!(d("0.00000000000001").checked_mul(d("0.000000000000001")), None);
    /// assert_eq!(d("79228162514264337593543950335").checked_mul(d("2")), None);
    /// ```
    #[inline]
    pub fn checked_mul(self, rhs: Decimal) -> Option<Decimal> {
        let neg = self.neg != rhs.neg;
        let scale = self.scale + rhs.scale; // at most 56
        if self.hi == 0 && rhs.hi == 0 {
            let m = self.lo as u128 * rhs.lo as u128;
            if m <= MAX_MANTISSA_U128 && scale <= Self::MAX_SCALE {
                return Some(Self::from_raw(neg, m, scale));
            }
        }
        fit(neg, Wide::mul(self.mag(), rhs.mag()), scale)
    }

    /// Converts to the nearest `f64`, **losing precision**: `f64` has 53 bits of mantissa
    /// and cannot hold most decimal fractions exactly. Use only for display or analytics,
    /// never to compute prices that go back on the wire.
    ///
    /// The result is correctly rounded when the mantissa is below 2^53 and the scale at
    /// most 22; otherwise it may be off by one unit in the last place.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// assert_eq!(Decimal::parse(b"-124.3456").unwrap().to_f64_lossy(), -124.3456);
    /// ```
    pub fn to_f64_lossy(&self) -> f64 {
        const P: [f64; 29] = {
            let mut t = [1.0f64; 29];
            let mut i = 1;
            while i < 29 {
                t[i] = t[i - 1] * 10.0;
                i += 1;
            }
            t
        };
        let m = if self.hi == 0 {
            self.lo as f64
        } else {
            self.mag() as f64
        };
        let v = m / P[self.scale as usize];
        if self.neg { -v } else { v }
    }
}

/// [`Decimal::write_short`] for a magnitude below 10^7.
#[inline(always)]
fn write_short_mag(
    neg: bool,
    mag: u32,
    scale: u8,
    out: &mut [u8],
) -> Option<Result<usize, BufferTooSmall>> {
    if scale == 0 {
        // A whole quantity: at most 7 digits and a sign, one word.
        let (digits, n) = digits_word(mag);
        let (word, len) = if neg {
            (digits << 8 | b'-' as u64, n + 1)
        } else {
            (digits, n)
        };
        let Some(out) = out.get_mut(..len) else {
            return Some(Err(BufferTooSmall { needed: len }));
        };
        store_word(out, word);
        return Some(Ok(len));
    }
    if scale <= 6 {
        // A price.
        return Some(write_small(neg, mag, scale as usize, 0, true, out));
    }
    None
}

/// `±a + ±b` as sign and magnitude (a zero result may come out negative: the
/// constructor clears that). The caller keeps `a + b` within `u128`.
#[inline(always)]
fn add_signed(a_neg: bool, a: u128, b_neg: bool, b: u128) -> (bool, u128) {
    if a_neg == b_neg {
        (a_neg, a + b)
    } else if a >= b {
        (a_neg, a - b)
    } else {
        (b_neg, b - a)
    }
}

/// [`Decimal::checked_add`] for different scales or magnitudes beyond 64 bits: aligned
/// in `u128` while that suffices, else in 192 bits, where nothing overflows.
#[inline(never)]
fn add_general(a: Decimal, b: Decimal) -> Option<Decimal> {
    let scale = a.scale.max(b.scale);
    let pa = POW10_U128[(scale - a.scale) as usize];
    let pb = POW10_U128[(scale - b.scale) as usize];
    if let (Some(x), Some(y)) = (a.mag().checked_mul(pa), b.mag().checked_mul(pb))
        && x <= MAX_MANTISSA_U128
        && y <= MAX_MANTISSA_U128
    {
        // Both below 2^96: the sum cannot overflow u128.
        let (neg, m) = add_signed(a.neg, x, b.neg, y);
        return fit(neg, Wide::from(m), scale);
    }
    // Each aligned magnitude is below 2^96 · 10^28 < 2^190: the sum fits 192 bits.
    let x = Wide::mul(a.mag(), pa);
    let y = Wide::mul(b.mag(), pb);
    let (neg, m) = if a.neg == b.neg {
        (a.neg, x.add(y))
    } else if x >= y {
        (a.neg, x.sub(y))
    } else {
        (b.neg, y.sub(x))
    };
    fit(neg, m, scale)
}

/// The exact value `±m × 10^-scale` as a `Decimal` at the largest scale not above `scale`
/// where it fits, dropping trailing zeros only; `None` if none does.
fn fit(neg: bool, mut m: Wide, mut scale: u8) -> Option<Decimal> {
    while m.hi != 0 || m.lo > MAX_MANTISSA_U128 || scale > Decimal::MAX_SCALE {
        if scale == 0 {
            return None;
        }
        let (q, r) = m.div_rem10();
        if r != 0 {
            return None;
        }
        m = q;
        scale -= 1;
    }
    Some(Decimal::from_raw(neg, m.lo, scale))
}

/// A 192-bit unsigned integer, `hi · 2^128 + lo`: room for the product of two 96-bit
/// magnitudes, and for a magnitude aligned to any other's scale.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Wide {
    // Field order: `hi` first, so the derived ordering is numeric.
    hi: u64,
    lo: u128,
}

impl From<u128> for Wide {
    fn from(lo: u128) -> Self {
        Wide { hi: 0, lo }
    }
}

impl Wide {
    /// `a · b` for `a, b < 2^96`.
    fn mul(a: u128, b: u128) -> Wide {
        debug_assert!(a <= MAX_MANTISSA_U128 && b <= MAX_MANTISSA_U128);
        let (a0, a1) = (a as u64 as u128, a >> 64);
        let (b0, b1) = (b as u64 as u128, b >> 64);
        // a1, b1 < 2^32: the cross products are below 2^96, their sum below 2^97.
        let cross = a0 * b1 + a1 * b0;
        let (low, carry) = (a0 * b0).overflowing_add((cross as u64 as u128) << 64);
        let high = (cross >> 64) + a1 * b1 + carry as u128;
        Wide {
            hi: high as u64,
            lo: low,
        }
    }

    /// `self + o`; the caller keeps the sum below 2^192.
    fn add(self, o: Wide) -> Wide {
        let (lo, carry) = self.lo.overflowing_add(o.lo);
        Wide {
            hi: self.hi + o.hi + carry as u64,
            lo,
        }
    }

    /// `self - o` for `self >= o`.
    fn sub(self, o: Wide) -> Wide {
        let (lo, borrow) = self.lo.overflowing_sub(o.lo);
        Wide {
            hi: self.hi - o.hi - borrow as u64,
            lo,
        }
    }

    /// `(self / 10, self % 10)`, one 64-bit limb at a time from the top.
    fn div_rem10(self) -> (Wide, u8) {
        let limbs = [self.hi, (self.lo >> 64) as u64, self.lo as u64];
        let mut q = [0u64; 3];
        let mut r = 0u128;
        for (qi, &limb) in q.iter_mut().zip(&limbs) {
            let cur = (r << 64) | limb as u128;
            *qi = (cur / 10) as u64;
            r = cur % 10;
        }
        (
            Wide {
                hi: q[0],
                lo: (q[1] as u128) << 64 | q[2] as u128,
            },
            r as u8,
        )
    }
}

impl Neg for Decimal {
    type Output = Decimal;

    /// The opposite value, at the same scale (always in range; zero stays zero).
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = -Decimal::parse(b"1.50").unwrap();
    /// assert_eq!(d.to_string(), "-1.50");
    /// assert!(!(-Decimal::ZERO).is_negative());
    /// ```
    #[inline]
    fn neg(self) -> Decimal {
        Decimal {
            neg: !self.neg && !self.is_zero(),
            ..self
        }
    }
}

impl PartialEq for Decimal {
    /// Numeric equality: `1.50 == 1.5`.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = |s: &str| s.parse::<Decimal>().unwrap();
    /// assert_eq!(d("1.50"), d("1.5"));
    /// assert_eq!(d("-0.00"), Decimal::ZERO);
    /// // The representation is still there to compare.
    /// assert_ne!(d("1.50").scale(), d("1.5").scale());
    /// ```
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        if self.scale == other.scale {
            // Zero is never negative: one representation per value at a given scale.
            self.lo == other.lo && self.hi == other.hi && self.neg == other.neg
        } else {
            self.cmp(other) == Ordering::Equal
        }
    }
}

impl Eq for Decimal {}

impl Ord for Decimal {
    /// Numeric order, whatever the scales.
    ///
    /// ```
    /// use fix_core::value::Decimal;
    /// let d = |s: &str| s.parse::<Decimal>().unwrap();
    /// assert!(d("-1.5") < d("-1.49") && d("-1.49") < d("0") && d("0") < d("0.0001"));
    /// assert_eq!(d("1.50").cmp(&d("1.5")), core::cmp::Ordering::Equal);
    /// ```
    fn cmp(&self, other: &Self) -> Ordering {
        match (self.neg, other.neg) {
            (false, true) => return Ordering::Greater,
            (true, false) => return Ordering::Less,
            _ => {}
        }
        let (a, b) = (self.mag(), other.mag());
        let mags = match self.scale.cmp(&other.scale) {
            Ordering::Equal => a.cmp(&b),
            // Aligned past u128, a magnitude exceeds every 96-bit one.
            Ordering::Less => {
                match a.checked_mul(POW10_U128[(other.scale - self.scale) as usize]) {
                    Some(a) => a.cmp(&b),
                    None => Ordering::Greater,
                }
            }
            Ordering::Greater => {
                match b.checked_mul(POW10_U128[(self.scale - other.scale) as usize]) {
                    Some(b) => a.cmp(&b),
                    None => Ordering::Less,
                }
            }
        };
        if self.neg { mags.reverse() } else { mags }
    }
}

impl PartialOrd for Decimal {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Hash for Decimal {
    /// Hashes the normalized value, so that equal values (`1.50`, `1.5`) hash the same.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use fix_core::value::Decimal;
    /// let set: HashSet<Decimal> = ["1.50", "1.5", "1.500"].iter().map(|s| s.parse().unwrap()).collect();
    /// assert_eq!(set.len(), 1);
    /// ```
    fn hash<H: Hasher>(&self, state: &mut H) {
        let n = self.normalize();
        (n.lo, n.hi, n.scale, n.neg).hash(state);
    }
}

impl fmt::Debug for Decimal {
    /// `Decimal(151.25)`: the wire digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Decimal({self})")
    }
}

#[cold]
/// Whether every byte of `d` is at most 9 (a digit's value after `xor` with
/// `'0'`). A byte at or above 0x80 has its high bit set in `d`; when none has,
/// adding 0x76 to each byte carries into no other and sets the high bit of
/// exactly the bytes above 9.
#[inline(always)]
const fn digit_values(d: u64) -> bool {
    (d | d.wrapping_add(0x7676_7676_7676_7676)) & 0x8080_8080_8080_8080 == 0
}

fn byte_error(b: u8, offset: usize) -> DecimalError {
    if b == b'e' || b == b'E' {
        DecimalError::Exponent { offset }
    } else {
        DecimalError::InvalidByte { offset }
    }
}

/// `mag / 10^shift` rounded half away from zero, for `shift` in 1..=38.
fn round_u128(mag: u128, shift: u8) -> u128 {
    let p = POW10_U128[shift as usize];
    let q = mag / p;
    let r = mag % p;
    // p is even, so "r >= p / 2" is "the remainder is at least half a unit".
    if r >= p / 2 { q + 1 } else { q }
}

/// Output length for `q` with `frac` of its digits after the point, padded to `dp` digits.
#[inline]
fn out_len(neg: bool, digits: usize, frac: usize, dp: u8) -> usize {
    let int_digits = if digits > frac { digits - frac } else { 1 };
    neg as usize + int_digits + if dp > 0 { 1 + dp as usize } else { 0 }
}

/// For `frac` digits after the point (0..=6) in an 8-digit little-endian block: the mask
/// of the fraction bytes (the last `frac`) and the point at the byte before them.
const POINT: [(u64, u64); 7] = {
    let mut t = [(0u64, 0u64); 7];
    let mut f = 0;
    while f < 7 {
        let mask = if f == 0 { 0 } else { u64::MAX << (8 * (8 - f)) };
        t[f] = (mask, (b'.' as u64) << (8 * (7 - f)));
        f += 1;
    }
    t
};

/// The hot path: the rounded magnitude `q < 10^7` (so at most 7 digits are shown, as
/// `frac <= 6`), with at most 15 zeros of padding. `neg` is false for zero.
#[inline(always)]
fn write_small(
    neg: bool,
    q: u32,
    frac: usize,
    pad: usize,
    point: bool,
    out: &mut [u8],
) -> Result<usize, BufferTooSmall> {
    let d = u64::from_le_bytes(digits8(q));
    // Leading zero digits are the low zero bytes of `d - '0'` (all 8 for q == 0).
    let digits = 8 - ((d ^ 0x3030_3030_3030_3030).trailing_zeros() / 8) as usize;
    // All digits of q, and at least one before the point: at most 7.
    let shown = digits.max(frac + 1);
    let (block, text_len) = if point {
        // The int digits move one byte down (dropping a leading zero), the point goes
        // between them and the `frac` low digits.
        let (frac_mask, dot) = POINT[frac];
        (((d & !frac_mask) >> 8) | (d & frac_mask) | dot, shown + 1)
    } else {
        (d, shown)
    };
    // The head (sign and text) then `pad` zeros.
    let head = neg as usize + text_len;
    let len = head + pad;
    let Some(out) = out.get_mut(..len) else {
        return Err(BufferTooSmall { needed: len });
    };
    const ZEROS: u64 = u64::from_le_bytes(*b"00000000");
    // Overlapping fixed-size stores straight into `out`, none past `len`; where two
    // overlap, the later one writes the right bytes.
    if head >= 8 {
        // len >= head >= 8. Padding first (at most 15 bytes: two stores), then the head.
        if pad > 0 {
            out[len - 8..len].copy_from_slice(&ZEROS.to_le_bytes());
            if pad > 8 {
                out[head..head + 8].copy_from_slice(&ZEROS.to_le_bytes());
            }
        }
        out[head - 8..head].copy_from_slice(&block.to_le_bytes());
        if neg {
            out[0] = b'-';
        }
        return Ok(len);
    }
    // The first 8 output bytes in one register: the head shifted to the front, then zeros
    // (which are padding wherever they fall inside `len`).
    let mut first = (block >> (8 * (8 - head))) | (ZEROS << (8 * head));
    if neg {
        first = (first & !0xFF) | b'-' as u64;
    }
    let bytes = first.to_le_bytes();
    if len >= 8 {
        // Padding beyond the first 8 bytes: [8, len), at most 16 bytes.
        if len > 8 {
            out[len - 8..len].copy_from_slice(&ZEROS.to_le_bytes());
            if len > 16 {
                out[8..16].copy_from_slice(&ZEROS.to_le_bytes());
            }
        }
        out[..8].copy_from_slice(&bytes);
    } else if len >= 4 {
        // Two overlapping 4-byte stores, both taken from the register.
        out[..4].copy_from_slice(&bytes[..4]);
        let tail = (first >> (8 * (len - 4))) as u32;
        out[len - 4..len].copy_from_slice(&tail.to_le_bytes());
    } else {
        // 1 to 3 bytes ("0", "-1", "0.5"): first, middle and last cover them all.
        out[0] = bytes[0];
        out[len / 2] = bytes[len / 2];
        out[len - 1] = bytes[len - 1];
    }
    Ok(len)
}

/// The `u64` path: the magnitude fits a `u64` (every mantissa whose value fits an `i64`,
/// including `i64::MIN`). Kept out of line so the hot path stays small.
#[inline(never)]
fn write_u64(
    neg: bool,
    mag: u64,
    scale: u8,
    dp: u8,
    out: &mut [u8],
) -> Result<usize, BufferTooSmall> {
    // q: the rounded magnitude; frac: how many of its low digits go after the point.
    let (q, frac) = if dp >= scale {
        (mag, scale)
    } else {
        (div_pow10_round(mag, scale - dp), dp)
    };
    let neg = neg && q != 0;
    let frac = frac as usize;
    let pad = (dp as usize) - frac;
    // Digits shown: all of q, and at least one before the point.
    let shown = count_u64(q).max(frac + 1);
    let len = neg as usize + shown + (dp > 0) as usize + pad;
    let Some(out) = out.get_mut(..len) else {
        return Err(BufferTooSmall { needed: len });
    };
    if shown <= 15 && pad <= 32 {
        // All digits fit one 16-byte block: insert the point with shifts, place the block
        // so it ends where the digits end, and let the pre-filled zeros be the padding.
        let x = u128::from_le_bytes(ascii16(q));
        let (block, text_len) = if dp > 0 {
            // frac <= 14 here, so the shifts stay below 128 bits. The int digits move one
            // byte down (dropping a leading zero: shown <= 15), the point goes between.
            let frac_mask = if frac == 0 {
                0
            } else {
                u128::MAX << (8 * (16 - frac))
            };
            let point = (b'.' as u128) << (8 * (15 - frac));
            (((x & !frac_mask) >> 8) | (x & frac_mask) | point, shown + 1)
        } else {
            (x, shown)
        };
        let mut tmp = [b'0'; 80];
        let at = neg as usize + text_len;
        tmp[at..at + 16].copy_from_slice(&block.to_le_bytes());
        if neg {
            tmp[16] = b'-';
        }
        copy_small(out, &tmp[16..16 + len]);
        return Ok(len);
    }
    let mut end = len - pad;
    out[end..].fill(b'0');
    let int = if dp > 0 {
        let int = write_u64_fixed_back(out, end, q, frac);
        end -= frac + 1;
        out[end] = b'.';
        int
    } else {
        q
    };
    write_u64_back(out, end, int);
    if neg {
        out[0] = b'-';
    }
    Ok(len)
}

/// The exact wide path for mantissas beyond 64 bits.
#[cold]
#[inline(never)]
fn write_u128(
    neg: bool,
    mag: u128,
    scale: u8,
    dp: u8,
    out: &mut [u8],
) -> Result<usize, BufferTooSmall> {
    let (q, frac) = if dp >= scale {
        (mag, scale)
    } else {
        (round_u128(mag, scale - dp), dp)
    };
    let neg = neg && q != 0;
    let len = out_len(neg, count_u128(q), frac as usize, dp);
    let Some(out) = out.get_mut(..len) else {
        return Err(BufferTooSmall { needed: len });
    };
    let pad = (dp - frac) as usize;
    let mut end = len - pad;
    out[end..].fill(b'0');
    let int = if dp > 0 {
        let int = write_u128_fixed_back(out, end, q, frac as usize);
        end -= frac as usize + 1;
        out[end] = b'.';
        int
    } else {
        q
    };
    write_u128_back(out, end, int);
    if neg {
        out[0] = b'-';
    }
    Ok(len)
}

impl fmt::Display for Decimal {
    /// Prints at the value's own scale, or with `{:.N}` at scale `N` rounding half away from
    /// zero (unlike `f64`, which rounds half to even).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 64];
        let (dp, pad) = match f.precision() {
            None => (self.scale, 0),
            Some(p) if p <= self.scale as usize => (p as u8, 0),
            Some(p) => (self.scale, p - self.scale as usize),
        };
        // At most 1 + 29 + 1 + 28 bytes: always fits.
        let n = self.write_scaled(dp, &mut buf).map_err(|_| fmt::Error)?;
        // The writer only emits ASCII.
        let s = core::str::from_utf8(&buf[..n]).map_err(|_| fmt::Error)?;
        if pad == 0 {
            let (nonneg, digits) = match s.strip_prefix('-') {
                Some(d) => (false, d),
                None => (true, s),
            };
            return f.pad_integral(nonneg, "", digits);
        }
        f.write_str(s)?;
        if dp == 0 {
            f.write_str(".")?;
        }
        for _ in 0..pad {
            f.write_str("0")?;
        }
        Ok(())
    }
}

impl FromStr for Decimal {
    type Err = DecimalError;

    /// Same as [`Decimal::parse`] on the string's bytes.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Decimal::parse(s.as_bytes())
    }
}

impl From<i64> for Decimal {
    /// An integer at scale 0.
    fn from(v: i64) -> Self {
        Decimal::from_raw(v < 0, v.unsigned_abs() as u128, 0)
    }
}

impl<'a> FieldValue<'a> for Decimal {
    const SOH_FREE: bool = true;

    type Error = DecimalError;

    #[inline]
    fn parse_fix(bytes: &'a [u8]) -> Result<Self, DecimalError> {
        Decimal::parse(bytes)
    }

    /// One 8-byte load from the value's first byte when the message holds eight
    /// bytes from there (a body value always does: the CheckSum field follows),
    /// instead of [`load_padded`](super::load_padded)'s two; an unsigned value of up
    /// to eight bytes is converted inline, anything else out of line.
    #[inline(always)]
    fn parse_in(
        buf: &'a [u8],
        value: core::ops::Range<usize>,
        _soh_free: bool,
    ) -> Result<Self, DecimalError> {
        let (start, end) = (value.start, value.end);
        match Self::from_message_unsigned(buf, start, end) {
            Some(d) => Ok(d),
            None => match Self::parse_in_general(buf, start, end) {
                Some(d) => Ok(d),
                None => Err(Self::parse_in_error(buf, start, end)),
            },
        }
    }

    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write(out)
    }
}

#[cfg(feature = "rust_decimal")]
mod rust_decimal_conv {
    use super::Decimal;

    impl From<Decimal> for rust_decimal::Decimal {
        /// Exact: both types have a 96-bit magnitude, a sign and scales 0..=28.
        fn from(d: Decimal) -> Self {
            rust_decimal::Decimal::from_parts(
                d.lo as u32,
                (d.lo >> 32) as u32,
                d.hi,
                d.neg,
                d.scale as u32,
            )
        }
    }

    impl From<rust_decimal::Decimal> for Decimal {
        /// Exact: both types have a 96-bit magnitude, a sign and scales 0..=28. A negative
        /// zero becomes zero.
        fn from(d: rust_decimal::Decimal) -> Self {
            let m = d.mantissa();
            Decimal::from_raw(m < 0, m.unsigned_abs(), d.scale() as u8)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixteen_bytes_with_a_niche() {
        assert_eq!(core::mem::size_of::<Decimal>(), 16);
        assert_eq!(core::mem::size_of::<Option<Decimal>>(), 16);
    }

    #[test]
    fn wide_arithmetic() {
        let max = MAX_MANTISSA_U128;
        let p = Wide::mul(max, max);
        // (2^96 - 1)^2 = 2^192 - 2^97 + 1.
        assert_eq!(p.hi, u64::MAX);
        assert_eq!(p.lo, 1u128.wrapping_sub(1 << 97));
        assert_eq!(Wide::mul(1 << 64, 1 << 64), Wide { hi: 1, lo: 0 });
        assert_eq!(Wide::mul(1 << 95, 3), Wide::from(3 << 95));
        assert_eq!(
            Wide::mul(1 << 95, (1 << 40) + 1),
            Wide {
                hi: 128,
                lo: 1 << 95
            }
        );
        let m = u64::MAX as u128;
        assert_eq!(Wide::mul(m, m), Wide::from(m * m));
        assert_eq!(Wide::mul(max, 1), Wide::from(max));
        // 6277101735386680763835789423049210091073826769276946612225 / 10.
        let (q, r) = p.div_rem10();
        assert_eq!(q.hi, 1_844_674_407_370_955_161);
        assert_eq!(q.lo, 204_169_420_136_717_445_575_171_896_940_352_136_806);
        assert_eq!(r, 5);
        assert_eq!(Wide::from(123).div_rem10(), (Wide::from(12), 3));
        let one = Wide::from(1);
        assert_eq!(Wide { hi: 1, lo: 0 }.sub(one), Wide::from(u128::MAX));
        assert_eq!(Wide::from(u128::MAX).add(one), Wide { hi: 1, lo: 0 });
        assert!(Wide { hi: 1, lo: 0 } > Wide::from(u128::MAX));
    }
}
