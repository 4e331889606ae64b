//! Typed FIX field values: parse from wire bytes, write into caller-owned buffers.
//!
//! Every type here follows the same contract:
//!
//! - **Parsing** takes the raw value bytes of one field (what sits between `=` and SOH) and
//!   returns the typed value or a small `Copy` error enum saying what was wrong. Parsing is
//!   strict by default (the FIX 4.4 / 5.0 data type rules), never allocates and never panics,
//!   whatever the input.
//! - **Writing** goes into a caller's `&mut [u8]` and returns the number of bytes written, or
//!   [`BufferTooSmall`] carrying the size that would have been needed. Nothing is written
//!   past the returned length; on error the buffer content is unspecified.
//! - Zero-copy types ([`FixStr`], [`MultipleValueString`], [`MultipleCharValue`]) borrow
//!   from the input.
//!
//! The [`FieldValue`] trait gathers the two operations so the encoder and the typed
//! accessors can be generic over the value type.
//!
//! Cargo features: `std` (default) implements `std::error::Error` for the error types;
//! `rust_decimal` adds exact `From` conversions between [`Decimal`] and
//! `rust_decimal::Decimal`; `chrono` and `time` add conversions of the date/time types
//! (only `chrono` represents a leap second). `f64` is reachable only through
//! [`Decimal::to_f64_lossy`].
//!
//! | FIX type | Rust type |
//! |---|---|
//! | PRICE, QTY, AMT, PRICEOFFSET, PERCENTAGE, FLOAT | [`Decimal`] |
//! | INT | `i64` (via [`parse_int`] / [`write_int`]) |
//! | SEQNUM, NUMINGROUP, LENGTH, TAGNUM | [`SeqNum`], [`NumInGroup`], [`Length`], [`TagNum`] |
//! | UTCTIMESTAMP, UTCTIMEONLY, UTCDATEONLY, LOCALMKTDATE | [`UtcTimestamp`], [`UtcTimeOnly`], [`UtcDateOnly`], [`LocalMktDate`] |
//! | MONTHYEAR, TZTIMESTAMP, TZTIMEONLY | [`MonthYear`], [`TzTimestamp`], [`TzTimeOnly`] |
//! | CHAR, BOOLEAN | [`Char`], `bool` |
//! | MULTIPLEVALUESTRING, MULTIPLECHARVALUE | [`MultipleValueString`], [`MultipleCharValue`] |
//! | COUNTRY, CURRENCY, EXCHANGE | [`Country`], [`Currency`], [`Exchange`] |
//! | STRING | [`FixStr`] |
//!
//! ```
//! use fix_core::value::{Decimal, FieldValue};
//!
//! let px = Decimal::parse(b"-124.3456")?;
//! let mut buf = [0u8; 32];
//! let n = px.write_scaled(2, &mut buf).unwrap();
//! assert_eq!(&buf[..n], b"-124.35");
//! # Ok::<(), fix_core::value::DecimalError>(())
//! ```

use core::fmt;

mod decimal;
pub(crate) mod digits;
mod int;
mod text;
mod time;
pub(crate) use digits::{all_digits, bytes_equal, load_padded};
pub(crate) use time::days_in_month;

pub use decimal::{Decimal, DecimalError};
pub use digits::parse_digits;
pub use int::{
    IntError, Length, NumInGroup, SeqNum, TagNum, parse_int, parse_uint, write_int, write_uint,
};
pub use text::{
    Char, Country, Currency, Exchange, FixStr, MultipleCharValue, MultipleValueString, TextError,
};
pub use time::{
    LocalMktDate, MonthYear, MonthYearDetail, Precision, TimeError, TzOffset, TzTimeOnly,
    TzTimestamp, UtcDateOnly, UtcTimeOnly, UtcTimestamp,
};

/// The output buffer given to a `write` function is too small.
///
/// `needed` is the total number of bytes the value needs; retry with a buffer at least that
/// long.
///
/// ```
/// use fix_core::value::{BufferTooSmall, Decimal};
///
/// let px = Decimal::parse(b"187.2500").unwrap();
/// let mut small = [0u8; 4];
/// assert_eq!(px.write(&mut small), Err(BufferTooSmall { needed: 8 }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BufferTooSmall {
    /// The number of bytes the value needs.
    pub needed: usize,
}

impl fmt::Display for BufferTooSmall {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "output buffer too small: {} bytes needed", self.needed)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for BufferTooSmall {}

/// A typed FIX field value: parsed from the raw bytes of one field value, written back into
/// a caller's buffer.
///
/// The lifetime `'a` lets zero-copy types borrow from the input buffer.
///
/// ```
/// use fix_core::value::{FieldValue, SeqNum};
///
/// let seq = SeqNum::parse_fix(b"1207").unwrap();
/// let mut buf = [0u8; 20];
/// let n = seq.write_fix(&mut buf).unwrap();
/// assert_eq!(&buf[..n], b"1207");
/// ```
pub trait FieldValue<'a>: Sized {
    /// What can go wrong while parsing this type.
    type Error: Copy + fmt::Debug + fmt::Display;

    /// Parses the raw value bytes of one field (without tag, `=` or SOH).
    fn parse_fix(bytes: &'a [u8]) -> Result<Self, Self::Error>;

    /// Parses the value `buf[value]` of a field of a parsed message `buf`, with the
    /// same answer as [`FieldValue::parse_fix`] on those bytes. Typed views read
    /// through it: a type may load whole words across the value's end (the bytes
    /// after it are the message's, never part of the value), and with
    /// `soh_free` (the parser split the message at every SOH, reading no value by
    /// a LENGTH field) skip looking for a SOH that cannot be there.
    ///
    /// A `soh_free` that is not true gives a value holding SOH, which its type
    /// would otherwise refuse (never undefined behaviour).
    ///
    /// ```
    /// use fix_core::value::{Decimal, FieldValue};
    /// let msg = b"44=187.245\x0110=000\x01";
    /// assert_eq!(Decimal::parse_in(msg, 3..10, true), Decimal::parse_fix(b"187.245"));
    /// ```
    #[inline(always)]
    fn parse_in(
        buf: &'a [u8],
        value: core::ops::Range<usize>,
        soh_free: bool,
    ) -> Result<Self, Self::Error> {
        let _ = soh_free;
        Self::parse_fix(buf.get(value).unwrap_or_default())
    }

    /// Writes the FIX representation into `out`, returning the number of bytes written.
    fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall>;

    /// True when no value of the type can write SOH (0x01), as each of fix-core's value
    /// types guarantees by construction (their parsers and constructors refuse it). The
    /// [`Encoder`](crate::Encoder) then skips scanning what was written for SOH.
    ///
    /// The default, `false`, is the safe choice for other types: setting it on a type
    /// that does write SOH gives a message whose fields a receiver splits wrongly (never
    /// undefined behaviour); debug builds still scan and panic.
    ///
    /// ```
    /// use fix_core::value::{Decimal, FieldValue, FixStr};
    /// assert!(<Decimal as FieldValue>::SOH_FREE);
    /// assert!(<FixStr<'_> as FieldValue>::SOH_FREE);
    /// ```
    const SOH_FREE: bool = false;
}

/// Copies `src` into the start of `out`, or reports the size needed.
#[inline]
fn write_bytes(src: &[u8], out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    match out.get_mut(..src.len()) {
        Some(dst) => {
            dst.copy_from_slice(src);
            Ok(src.len())
        }
        None => Err(BufferTooSmall { needed: src.len() }),
    }
}
