//! Dates and times: UTCTIMESTAMP, UTCTIMEONLY, UTCDATEONLY, LOCALMKTDATE, MONTHYEAR,
//! TZTIMESTAMP and TZTIMEONLY.
//!
//! Calendar rules: months 1–12, days within the month (leap years by the Gregorian rule,
//! year 0000–9999), hours 0–23, minutes 0–59, seconds 0–60 (FIX allows a leap second;
//! second 60 is accepted at any minute since FIX does not carry the leap second table).
//!
//! Fractions of a second have 3, 6 or 9 digits (milli, micro, nano, [`Precision`]); other
//! digit counts (including FIX 5.0's 12-digit picoseconds) are [`TimeError::Fraction`].
//! Writing at a coarser precision than the value holds truncates, never rounds (rounding
//! could carry into the next day).

use core::fmt;

use super::digits::{POW10_U64, digits8, pairs_ascii, put2, two, write_u64_fixed_back};
use super::{BufferTooSmall, FieldValue};

/// Why a byte string is not a valid FIX date or time, or a value is out of range.
///
/// ```
/// use fix_core::value::{TimeError, UtcDateOnly};
/// assert_eq!(UtcDateOnly::parse(b"20261330"), Err(TimeError::Month));
/// assert_eq!(UtcDateOnly::parse(b"20260230"), Err(TimeError::Day));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum TimeError {
    /// The value is empty.
    Empty,
    /// The value's length matches none of the type's formats.
    WrongLength,
    /// A byte that does not belong at this offset (a non-digit, a missing `-`, `:`, `.`).
    InvalidByte {
        /// Offset of the offending byte in the value.
        offset: usize,
    },
    /// Month outside 1–12.
    Month,
    /// Day outside the month (e.g. 30 February, or 29 February of a common year).
    Day,
    /// Hour outside 0–23.
    Hour,
    /// Minute outside 0–59.
    Minute,
    /// Second outside 0–60.
    Second,
    /// Fraction of a second with other than 3, 6 or 9 digits, or nanoseconds ≥ 10^9.
    Fraction,
    /// MONTHYEAR week outside `w1`–`w5`.
    Week,
    /// Time zone offset beyond ±14:00 or with minutes ≥ 60.
    Offset,
    /// Year outside 0–9999 (from a conversion).
    Year,
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Empty => "empty date/time value",
            Self::WrongLength => "date/time value has the wrong length",
            Self::InvalidByte { offset } => {
                return write!(f, "invalid byte in date/time at offset {offset}");
            }
            Self::Month => "month out of range 1-12",
            Self::Day => "day out of range for the month",
            Self::Hour => "hour out of range 0-23",
            Self::Minute => "minute out of range 0-59",
            Self::Second => "second out of range 0-60",
            Self::Fraction => "fraction of second must have 3, 6 or 9 digits",
            Self::Week => "week out of range w1-w5",
            Self::Offset => "time zone offset out of range",
            Self::Year => "year out of range 0-9999",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for TimeError {}

/// How many digits of a second a time carries.
///
/// ```
/// use fix_core::value::Precision;
/// assert_eq!(Precision::Micros.digits(), 6);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Precision {
    /// `HH:MM:SS`
    Seconds,
    /// `HH:MM:SS.sss`
    #[default]
    Millis,
    /// `HH:MM:SS.ssssss`
    Micros,
    /// `HH:MM:SS.sssssssss`
    Nanos,
}

impl Precision {
    /// Number of fraction digits: 0, 3, 6 or 9.
    ///
    /// ```
    /// assert_eq!(fix_core::value::Precision::Seconds.digits(), 0);
    /// ```
    pub const fn digits(self) -> usize {
        match self {
            Precision::Seconds => 0,
            Precision::Millis => 3,
            Precision::Micros => 6,
            Precision::Nanos => 9,
        }
    }

    /// The precision for a fraction of `digits` digits (0, 3, 6, 9).
    ///
    /// ```
    /// use fix_core::value::Precision;
    /// assert_eq!(Precision::from_digits(9), Some(Precision::Nanos));
    /// assert_eq!(Precision::from_digits(4), None);
    /// ```
    pub const fn from_digits(digits: usize) -> Option<Precision> {
        match digits {
            0 => Some(Precision::Seconds),
            3 => Some(Precision::Millis),
            6 => Some(Precision::Micros),
            9 => Some(Precision::Nanos),
            _ => None,
        }
    }

    /// Nanoseconds per unit of this precision.
    const fn unit(self) -> u32 {
        POW10_U64[9 - self.digits()] as u32
    }

    /// The coarsest precision that holds `nanos` exactly.
    #[cfg(any(feature = "chrono", feature = "time"))]
    const fn exact_for(nanos: u32) -> Precision {
        if nanos.is_multiple_of(1_000_000_000) {
            Precision::Seconds
        } else if nanos.is_multiple_of(1_000_000) {
            Precision::Millis
        } else if nanos.is_multiple_of(1_000) {
            Precision::Micros
        } else {
            Precision::Nanos
        }
    }
}

const fn is_leap(year: u16) -> bool {
    (year.is_multiple_of(4) && !year.is_multiple_of(100)) || year.is_multiple_of(400)
}

pub(crate) const fn days_in_month(year: u16, month: u8) -> u8 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Two digits at `b[i..]`, or the offset (from `base`) of the first bad byte.
#[inline]
fn d2(b: &[u8], i: usize, base: usize) -> Result<u8, TimeError> {
    match two(b, i) {
        Some(v) => Ok(v),
        None => {
            let off = if b.get(i).is_some_and(u8::is_ascii_digit) {
                i + 1
            } else {
                i
            };
            Err(TimeError::InvalidByte { offset: base + off })
        }
    }
}

#[inline]
fn expect(b: &[u8], i: usize, c: u8, base: usize) -> Result<(), TimeError> {
    if b.get(i) == Some(&c) {
        Ok(())
    } else {
        Err(TimeError::InvalidByte { offset: base + i })
    }
}

#[inline]
fn check_output(out: &mut [u8], len: usize) -> Result<&mut [u8], BufferTooSmall> {
    out.get_mut(..len).ok_or(BufferTooSmall { needed: len })
}

/// Parses `YYYYMMDD` at `b[..8]` (b may be longer).
fn parse_ymd(b: &[u8], base: usize) -> Result<(u16, u8, u8), TimeError> {
    let y = d2(b, 0, base)? as u16 * 100 + d2(b, 2, base)? as u16;
    let m = d2(b, 4, base)?;
    let d = d2(b, 6, base)?;
    check_ymd(y, m, d)?;
    Ok((y, m, d))
}

const fn check_ymd(y: u16, m: u8, d: u8) -> Result<(), TimeError> {
    if y > 9999 {
        return Err(TimeError::Year);
    }
    if m < 1 || m > 12 {
        return Err(TimeError::Month);
    }
    if d < 1 || d > days_in_month(y, m) {
        return Err(TimeError::Day);
    }
    Ok(())
}

fn write_ymd(out: &mut [u8], y: u16, m: u8, d: u8) {
    put2(out, 0, (y / 100) as u32);
    put2(out, 2, (y % 100) as u32);
    put2(out, 4, m as u32);
    put2(out, 6, d as u32);
}

/// A time of day with an optional fraction; shared by the UTC and TZ types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
struct Clock {
    hour: u8,
    minute: u8,
    second: u8,
    nanos: u32,
}

impl Clock {
    const fn new(hour: u8, minute: u8, second: u8, nanos: u32) -> Result<Clock, TimeError> {
        if hour > 23 {
            return Err(TimeError::Hour);
        }
        if minute > 59 {
            return Err(TimeError::Minute);
        }
        if second > 60 {
            return Err(TimeError::Second);
        }
        if nanos >= 1_000_000_000 {
            return Err(TimeError::Fraction);
        }
        Ok(Clock {
            hour,
            minute,
            second,
            nanos,
        })
    }

    /// Parses `HH:MM` and, if `seconds`, `:SS[.fff]` from the start of `b`; returns the
    /// clock, the precision (None: no seconds) and the number of bytes used.
    fn parse(
        b: &[u8],
        base: usize,
        seconds_required: bool,
    ) -> Result<(Clock, Option<Precision>, usize), TimeError> {
        let hour = d2(b, 0, base)?;
        expect(b, 2, b':', base)?;
        let minute = d2(b, 3, base)?;
        if b.get(5) != Some(&b':') {
            if seconds_required {
                return Err(if b.len() <= 5 {
                    TimeError::WrongLength
                } else {
                    TimeError::InvalidByte { offset: base + 5 }
                });
            }
            return Ok((Clock::new(hour, minute, 0, 0)?, None, 5));
        }
        let second = d2(b, 6, base)?;
        let mut used = 8;
        let mut nanos = 0u32;
        let mut precision = Precision::Seconds;
        if b.get(8) == Some(&b'.') {
            let mut n = 0usize;
            let mut v = 0u32;
            while let Some(&c) = b.get(9 + n) {
                let d = c.wrapping_sub(b'0');
                if d >= 10 {
                    break;
                }
                if n == 9 {
                    return Err(TimeError::Fraction);
                }
                v = v * 10 + d as u32;
                n += 1;
            }
            precision = match Precision::from_digits(n) {
                Some(p) if n > 0 => p,
                _ => return Err(TimeError::Fraction),
            };
            nanos = v * precision.unit();
            used = 9 + n;
        }
        Ok((
            Clock::new(hour, minute, second, nanos)?,
            Some(precision),
            used,
        ))
    }

    /// `HH:MM:SS[.f]` length at `precision`.
    const fn len(precision: Precision) -> usize {
        let d = precision.digits();
        8 + if d > 0 { 1 + d } else { 0 }
    }

    /// Writes `HH:MM:SS[.f]` at `out[..Clock::len(precision)]` (truncating the fraction).
    fn write(&self, precision: Precision, out: &mut [u8]) {
        put2(out, 0, self.hour as u32);
        out[2] = b':';
        put2(out, 3, self.minute as u32);
        out[5] = b':';
        put2(out, 6, self.second as u32);
        let d = precision.digits();
        if d > 0 {
            out[8] = b'.';
            let v = self.nanos / precision.unit();
            write_u64_fixed_back(out, 9 + d, v as u64, d);
        }
    }
}

macro_rules! display_via_write {
    ($name:ident, $max:expr) => {
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut buf = [0u8; $max];
                let n = self.write(&mut buf).map_err(|_| fmt::Error)?;
                f.write_str(core::str::from_utf8(&buf[..n]).map_err(|_| fmt::Error)?)
            }
        }

        impl<'a> FieldValue<'a> for $name {
            const SOH_FREE: bool = true;

            type Error = TimeError;

            fn parse_fix(bytes: &'a [u8]) -> Result<Self, TimeError> {
                $name::parse(bytes)
            }

            fn write_fix(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
                self.write(out)
            }
        }
    };
}

macro_rules! date_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name {
            year: u16,
            month: u8,
            day: u8,
        }

        impl $name {
            /// A checked calendar date (year 0–9999).
            ///
            /// ```
            #[doc = concat!("use fix_core::value::{", stringify!($name), ", TimeError};")]
            #[doc = concat!("assert!(", stringify!($name), "::new(2024, 2, 29).is_ok());")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::new(2026, 2, 29), Err(TimeError::Day));")]
            /// ```
            pub const fn new(year: u16, month: u8, day: u8) -> Result<Self, TimeError> {
                match check_ymd(year, month, day) {
                    Ok(()) => Ok($name { year, month, day }),
                    Err(e) => Err(e),
                }
            }

            /// The year.
            ///
            /// ```
            #[doc = concat!("assert_eq!(fix_core::value::", stringify!($name), "::parse(b\"20261130\").unwrap().year(), 2026);")]
            /// ```
            pub const fn year(&self) -> u16 {
                self.year
            }

            /// The month, 1–12.
            ///
            /// ```
            #[doc = concat!("assert_eq!(fix_core::value::", stringify!($name), "::parse(b\"20261130\").unwrap().month(), 11);")]
            /// ```
            pub const fn month(&self) -> u8 {
                self.month
            }

            /// The day of the month, from 1.
            ///
            /// ```
            #[doc = concat!("assert_eq!(fix_core::value::", stringify!($name), "::parse(b\"20261130\").unwrap().day(), 30);")]
            /// ```
            pub const fn day(&self) -> u8 {
                self.day
            }

            /// Parses `YYYYMMDD`.
            ///
            /// ```
            #[doc = concat!("use fix_core::value::{", stringify!($name), ", TimeError};")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::parse(b\"2026113\"), Err(TimeError::WrongLength));")]
            /// ```
            pub fn parse(bytes: &[u8]) -> Result<Self, TimeError> {
                match bytes.len() {
                    0 => Err(TimeError::Empty),
                    8 => {
                        let (year, month, day) = parse_ymd(bytes, 0)?;
                        Ok($name { year, month, day })
                    }
                    _ => Err(TimeError::WrongLength),
                }
            }

            /// Writes `YYYYMMDD`; returns 8.
            ///
            /// ```
            #[doc = concat!("let d = fix_core::value::", stringify!($name), "::new(2026, 1, 2).unwrap();")]
            /// let mut buf = [0u8; 8];
            /// assert_eq!(d.write(&mut buf), Ok(8));
            /// assert_eq!(&buf, b"20260102");
            /// ```
            pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
                let out = check_output(out, 8)?;
                write_ymd(out, self.year, self.month, self.day);
                Ok(8)
            }
        }

        display_via_write!($name, 8);
    };
}

date_type!(
    /// UTCDATEONLY: a date in UTC, `YYYYMMDD`.
    ///
    /// ```
    /// use fix_core::value::UtcDateOnly;
    /// let d = UtcDateOnly::parse(b"20261130").unwrap();
    /// assert_eq!((d.year(), d.month(), d.day()), (2026, 11, 30));
    /// ```
    UtcDateOnly
);
date_type!(
    /// LOCALMKTDATE: a date in the market's local time zone, `YYYYMMDD` (TradeDate(75),
    /// SettlDate(64), ...).
    ///
    /// ```
    /// use fix_core::value::LocalMktDate;
    /// assert_eq!(LocalMktDate::parse(b"20240229").unwrap().day(), 29);
    /// ```
    LocalMktDate
);

/// UTCTIMEONLY: a time of day in UTC, `HH:MM:SS` with an optional 3, 6 or 9 digit
/// fraction.
///
/// The value remembers the precision it was parsed or built with and writes at that
/// precision by default. `nanos` is always a whole number of precision units.
///
/// ```
/// use fix_core::value::{Precision, UtcTimeOnly};
/// let t = UtcTimeOnly::parse(b"14:03:27.123456").unwrap();
/// assert_eq!(t.precision(), Precision::Micros);
/// assert_eq!(t.nanos(), 123_456_000);
/// let mut buf = [0u8; 18];
/// let n = t.write_with(Precision::Millis, &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"14:03:27.123");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcTimeOnly {
    clock: Clock,
    precision: Precision,
}

impl UtcTimeOnly {
    /// The longest output: `HH:MM:SS.sssssssss`.
    ///
    /// ```
    /// assert_eq!(fix_core::value::UtcTimeOnly::MAX_LEN, 18);
    /// ```
    pub const MAX_LEN: usize = 18;

    /// A checked time; `nanos` is truncated to `precision`.
    ///
    /// ```
    /// use fix_core::value::{Precision, TimeError, UtcTimeOnly};
    /// let t = UtcTimeOnly::new(23, 59, 60, 999_999_999, Precision::Millis).unwrap();
    /// assert_eq!(t.nanos(), 999_000_000);
    /// assert_eq!(UtcTimeOnly::new(24, 0, 0, 0, Precision::Seconds), Err(TimeError::Hour));
    /// ```
    pub const fn new(
        hour: u8,
        minute: u8,
        second: u8,
        nanos: u32,
        precision: Precision,
    ) -> Result<Self, TimeError> {
        match Clock::new(hour, minute, second, nanos) {
            Ok(mut clock) => {
                clock.nanos -= clock.nanos % precision.unit();
                Ok(UtcTimeOnly { clock, precision })
            }
            Err(e) => Err(e),
        }
    }

    /// Hour, 0–23.
    ///
    /// ```
    /// assert_eq!(fix_core::value::UtcTimeOnly::parse(b"14:03:27").unwrap().hour(), 14);
    /// ```
    pub const fn hour(&self) -> u8 {
        self.clock.hour
    }

    /// Minute, 0–59.
    ///
    /// ```
    /// assert_eq!(fix_core::value::UtcTimeOnly::parse(b"14:03:27").unwrap().minute(), 3);
    /// ```
    pub const fn minute(&self) -> u8 {
        self.clock.minute
    }

    /// Second, 0–60 (60 is a leap second).
    ///
    /// ```
    /// assert_eq!(fix_core::value::UtcTimeOnly::parse(b"23:59:60").unwrap().second(), 60);
    /// ```
    pub const fn second(&self) -> u8 {
        self.clock.second
    }

    /// Nanoseconds within the second.
    ///
    /// ```
    /// assert_eq!(fix_core::value::UtcTimeOnly::parse(b"14:03:27.5").map(|t| t.nanos()).ok(), None);
    /// assert_eq!(fix_core::value::UtcTimeOnly::parse(b"14:03:27.500").unwrap().nanos(), 500_000_000);
    /// ```
    pub const fn nanos(&self) -> u32 {
        self.clock.nanos
    }

    /// The precision the value was parsed or built with.
    ///
    /// ```
    /// use fix_core::value::{Precision, UtcTimeOnly};
    /// assert_eq!(UtcTimeOnly::parse(b"14:03:27").unwrap().precision(), Precision::Seconds);
    /// ```
    pub const fn precision(&self) -> Precision {
        self.precision
    }

    /// The same time at another precision (truncating when coarser).
    ///
    /// ```
    /// use fix_core::value::{Precision, UtcTimeOnly};
    /// let t = UtcTimeOnly::parse(b"14:03:27.123456789").unwrap();
    /// assert_eq!(t.with_precision(Precision::Millis).nanos(), 123_000_000);
    /// ```
    pub const fn with_precision(&self, precision: Precision) -> Self {
        let mut clock = self.clock;
        clock.nanos -= clock.nanos % precision.unit();
        UtcTimeOnly { clock, precision }
    }

    /// Parses `HH:MM:SS`, `HH:MM:SS.sss`, `HH:MM:SS.ssssss` or `HH:MM:SS.sssssssss`.
    ///
    /// ```
    /// use fix_core::value::{TimeError, UtcTimeOnly};
    /// assert_eq!(UtcTimeOnly::parse(b"24:00:00"), Err(TimeError::Hour));
    /// assert_eq!(UtcTimeOnly::parse(b"12:60:00"), Err(TimeError::Minute));
    /// assert_eq!(UtcTimeOnly::parse(b"12:00:61"), Err(TimeError::Second));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Self, TimeError> {
        if bytes.is_empty() {
            return Err(TimeError::Empty);
        }
        let (clock, precision, used) = parse_clock_exact(bytes, 0)?;
        debug_assert_eq!(used, bytes.len());
        Ok(UtcTimeOnly { clock, precision })
    }

    /// Writes at the value's own precision; returns the number of bytes written.
    ///
    /// ```
    /// let t = fix_core::value::UtcTimeOnly::parse(b"14:03:27.123").unwrap();
    /// let mut buf = [0u8; 18];
    /// let n = t.write(&mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"14:03:27.123");
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write_with(self.precision, out)
    }

    /// Writes at `precision`: truncating when coarser than the value, zero-padding when
    /// finer.
    ///
    /// ```
    /// use fix_core::value::{Precision, UtcTimeOnly};
    /// let t = UtcTimeOnly::parse(b"14:03:27.123").unwrap();
    /// let mut buf = [0u8; 18];
    /// let n = t.write_with(Precision::Nanos, &mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"14:03:27.123000000");
    /// ```
    pub fn write_with(
        &self,
        precision: Precision,
        out: &mut [u8],
    ) -> Result<usize, BufferTooSmall> {
        let len = Clock::len(precision);
        let out = check_output(out, len)?;
        self.clock.write(precision, out);
        Ok(len)
    }
}

display_via_write!(UtcTimeOnly, 18);

/// Parses a whole UTC clock value `HH:MM:SS[.f]` that must end the input.
fn parse_clock_exact(b: &[u8], base: usize) -> Result<(Clock, Precision, usize), TimeError> {
    if !matches!(b.len(), 8 | 12 | 15 | 18) {
        return Err(TimeError::WrongLength);
    }
    let (clock, precision, used) = Clock::parse(b, base, true)?;
    if used != b.len() {
        return Err(TimeError::InvalidByte {
            offset: base + used,
        });
    }
    // `seconds_required` guarantees a precision.
    Ok((clock, precision.unwrap_or(Precision::Seconds), used))
}

/// UTCTIMESTAMP: `YYYYMMDD-HH:MM:SS` with an optional 3, 6 or 9 digit fraction, in UTC.
///
/// Parses every precision, remembers the one it saw, and writes at that precision or the
/// one asked for ([`UtcTimestamp::write_with`]).
///
/// ```
/// use fix_core::value::{Precision, UtcTimestamp};
/// let ts = UtcTimestamp::parse(b"20261130-14:03:27.123456").unwrap();
/// assert_eq!(ts.precision(), Precision::Micros);
/// let mut buf = [0u8; UtcTimestamp::MAX_LEN];
/// let n = ts.write_with(Precision::Millis, &mut buf).unwrap();
/// assert_eq!(&buf[..n], b"20261130-14:03:27.123");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcTimestamp {
    date: UtcDateOnly,
    time: UtcTimeOnly,
}

impl UtcTimestamp {
    /// The longest output: `YYYYMMDD-HH:MM:SS.sssssssss`.
    ///
    /// ```
    /// assert_eq!(fix_core::value::UtcTimestamp::MAX_LEN, 27);
    /// ```
    pub const MAX_LEN: usize = 27;

    /// A timestamp from its date and time.
    ///
    /// ```
    /// use fix_core::value::{Precision, UtcDateOnly, UtcTimeOnly, UtcTimestamp};
    /// let ts = UtcTimestamp::new(
    ///     UtcDateOnly::new(2026, 11, 30).unwrap(),
    ///     UtcTimeOnly::new(14, 3, 27, 123_000_000, Precision::Millis).unwrap(),
    /// );
    /// assert_eq!(ts.to_string(), "20261130-14:03:27.123");
    /// ```
    pub const fn new(date: UtcDateOnly, time: UtcTimeOnly) -> Self {
        UtcTimestamp { date, time }
    }

    /// The UTC timestamp of `t` at `precision` (finer digits are cut, not
    /// rounded, as a clock reads); `None` before 1970 or after 9999.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use fix_core::value::{Precision, UtcTimestamp};
    /// let t = UNIX_EPOCH + Duration::new(1_790_000_000, 123_456_789);
    /// let ts = UtcTimestamp::from_system_time(t, Precision::Millis).unwrap();
    /// assert_eq!(ts.to_string(), "20260921-14:13:20.123");
    /// ```
    #[cfg(feature = "std")]
    pub fn from_system_time(t: std::time::SystemTime, precision: Precision) -> Option<Self> {
        let since = t.duration_since(std::time::UNIX_EPOCH).ok()?;
        let secs = since.as_secs();
        let (year, month, day) = civil_from_days(secs / 86_400);
        let date = UtcDateOnly::new(u16::try_from(year).ok()?, month, day).ok()?;
        let rem = secs % 86_400;
        let (hour, minute, second) = ((rem / 3600) as u8, (rem / 60 % 60) as u8, (rem % 60) as u8);
        let time = UtcTimeOnly::new(hour, minute, second, since.subsec_nanos(), precision).ok()?;
        Some(UtcTimestamp { date, time })
    }

    /// The system clock's time now, to the millisecond (SendingTime's usual
    /// precision).
    ///
    /// ```
    /// let now = fix_core::value::UtcTimestamp::now();
    /// assert!(now.date().year() >= 2026);
    /// ```
    #[cfg(feature = "std")]
    pub fn now() -> Self {
        // Every clock reading from 1970 to 9999 has a timestamp; a clock set
        // outside that range reads as the epoch.
        const EPOCH: UtcTimestamp = match (
            UtcDateOnly::new(1970, 1, 1),
            UtcTimeOnly::new(0, 0, 0, 0, Precision::Millis),
        ) {
            (Ok(date), Ok(time)) => UtcTimestamp::new(date, time),
            // Evaluated at compile time: a wrong constant fails the build.
            _ => panic!("1970-01-01 00:00:00.000 is a timestamp"),
        };
        Self::from_system_time(std::time::SystemTime::now(), Precision::Millis).unwrap_or(EPOCH)
    }

    /// The date part.
    ///
    /// ```
    /// let ts = fix_core::value::UtcTimestamp::parse(b"20261130-14:03:27").unwrap();
    /// assert_eq!(ts.date().month(), 11);
    /// ```
    pub const fn date(&self) -> UtcDateOnly {
        self.date
    }

    /// The time part.
    ///
    /// ```
    /// let ts = fix_core::value::UtcTimestamp::parse(b"20261130-14:03:27").unwrap();
    /// assert_eq!(ts.time().hour(), 14);
    /// ```
    pub const fn time(&self) -> UtcTimeOnly {
        self.time
    }

    /// The precision the value was parsed or built with.
    ///
    /// ```
    /// use fix_core::value::{Precision, UtcTimestamp};
    /// let ts = UtcTimestamp::parse(b"20261130-14:03:27.123456789").unwrap();
    /// assert_eq!(ts.precision(), Precision::Nanos);
    /// ```
    pub const fn precision(&self) -> Precision {
        self.time.precision
    }

    /// Parses `YYYYMMDD-HH:MM:SS[.sss|.ssssss|.sssssssss]`.
    ///
    /// ```
    /// use fix_core::value::{TimeError, UtcTimestamp};
    /// assert!(UtcTimestamp::parse(b"20161231-23:59:60").is_ok());
    /// assert_eq!(UtcTimestamp::parse(b"20261130-14:03:27.12"), Err(TimeError::WrongLength));
    /// assert_eq!(UtcTimestamp::parse(b"20261130 14:03:27"), Err(TimeError::InvalidByte { offset: 8 }));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Self, TimeError> {
        if bytes.is_empty() {
            return Err(TimeError::Empty);
        }
        if !matches!(bytes.len(), 17 | 21 | 24 | 27) {
            return Err(TimeError::WrongLength);
        }
        let (year, month, day) = parse_ymd(bytes, 0)?;
        expect(bytes, 8, b'-', 0)?;
        let (clock, precision, _) = parse_clock_exact(&bytes[9..], 9)?;
        Ok(UtcTimestamp {
            date: UtcDateOnly { year, month, day },
            time: UtcTimeOnly { clock, precision },
        })
    }

    /// Writes at the value's own precision; returns the number of bytes written.
    ///
    /// ```
    /// let ts = fix_core::value::UtcTimestamp::parse(b"20261130-14:03:27.123").unwrap();
    /// let mut buf = [0u8; 27];
    /// assert_eq!(ts.write(&mut buf), Ok(21));
    /// ```
    #[inline]
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        self.write_with(self.time.precision, out)
    }

    /// Writes at `precision`: truncating when coarser than the value, zero-padding when
    /// finer.
    ///
    /// ```
    /// use fix_core::value::{Precision, UtcTimestamp};
    /// let ts = UtcTimestamp::parse(b"20261130-14:03:27.999999").unwrap();
    /// let mut buf = [0u8; 27];
    /// let n = ts.write_with(Precision::Seconds, &mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"20261130-14:03:27");
    /// ```
    #[inline]
    pub fn write_with(
        &self,
        precision: Precision,
        out: &mut [u8],
    ) -> Result<usize, BufferTooSmall> {
        let len = 9 + Clock::len(precision);
        let out = check_output(out, len)?;
        // `YYYYMMDD-HH:MM:SS.fffffffff` from whole words stored straight into `out`
        // (`len` is 17, 21, 24 or 27): the fraction first, then the rest over it.
        let clock = &self.time.clock;
        let digits = precision.digits();
        if digits > 0 {
            // Constant divisors: a multiply each, not a division by `unit()`.
            let v = match precision {
                Precision::Seconds => 0,
                Precision::Millis => clock.nanos / 1_000_000,
                Precision::Micros => clock.nanos / 1_000,
                Precision::Nanos => clock.nanos,
            };
            // The low 8 digits end where the fraction ends (`len`); for 3 and 6 digits
            // their leading zeros fall on bytes the clock and point overwrite below.
            out[len - 8..].copy_from_slice(&digits8(v % 100_000_000));
            if digits == 9 {
                out[18] = b'0' + (v / 100_000_000) as u8;
            }
        }
        let date = &self.date;
        // Every field is below 100 (the year is split), as the constructors check.
        let ymd = pairs_ascii(
            u64::from(date.year / 100)
                | u64::from(date.year % 100) << 16
                | u64::from(date.month) << 32
                | u64::from(date.day) << 48,
        );
        let hm_s = pairs_ascii(
            u64::from(clock.hour) | u64::from(clock.minute) << 16 | u64::from(clock.second) << 32,
        );
        // `HHMMSS00` to `HH:MM:SS`.
        let hms = (hm_s & 0xFFFF)
            | (hm_s & 0xFFFF_0000) << 8
            | (hm_s & 0xFFFF_0000_0000) << 16
            | (b':' as u64) << 16
            | (b':' as u64) << 40;
        out[..8].copy_from_slice(&ymd.to_le_bytes());
        out[8] = b'-';
        out[9..17].copy_from_slice(&hms.to_le_bytes());
        if digits > 0 {
            out[17] = b'.';
        }
        Ok(len)
    }
}

display_via_write!(UtcTimestamp, 27);

/// The day or week detail of a [`MonthYear`].
///
/// ```
/// use fix_core::value::{MonthYear, MonthYearDetail};
/// assert_eq!(MonthYear::parse(b"202612w2").unwrap().detail(), MonthYearDetail::Week(2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MonthYearDetail {
    /// `YYYYMM`
    None,
    /// `YYYYMMDD`, a day of the month.
    Day(u8),
    /// `YYYYMMwN`, week 1–5 of the month.
    Week(u8),
}

/// MONTHYEAR: `YYYYMM`, `YYYYMMDD` or `YYYYMMwN` (MaturityMonthYear(200), ...).
///
/// ```
/// use fix_core::value::{MonthYear, MonthYearDetail, TimeError};
/// let my = MonthYear::parse(b"20261218").unwrap();
/// assert_eq!((my.year(), my.month(), my.detail()), (2026, 12, MonthYearDetail::Day(18)));
/// assert_eq!(MonthYear::parse(b"202612w6"), Err(TimeError::Week));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MonthYear {
    year: u16,
    month: u8,
    detail: MonthYearDetail,
}

impl MonthYear {
    /// A checked month-year: the day must exist in the month, the week be 1–5.
    ///
    /// ```
    /// use fix_core::value::{MonthYear, MonthYearDetail, TimeError};
    /// assert!(MonthYear::new(2026, 12, MonthYearDetail::None).is_ok());
    /// assert_eq!(MonthYear::new(2026, 2, MonthYearDetail::Day(30)), Err(TimeError::Day));
    /// ```
    pub const fn new(year: u16, month: u8, detail: MonthYearDetail) -> Result<Self, TimeError> {
        let checked = match detail {
            MonthYearDetail::None => check_ymd(year, month, 1),
            MonthYearDetail::Day(d) => check_ymd(year, month, d),
            MonthYearDetail::Week(w) => match check_ymd(year, month, 1) {
                Ok(()) if w >= 1 && w <= 5 => Ok(()),
                Ok(()) => Err(TimeError::Week),
                Err(e) => Err(e),
            },
        };
        match checked {
            Ok(()) => Ok(MonthYear {
                year,
                month,
                detail,
            }),
            Err(e) => Err(e),
        }
    }

    /// The year.
    ///
    /// ```
    /// assert_eq!(fix_core::value::MonthYear::parse(b"202612").unwrap().year(), 2026);
    /// ```
    pub const fn year(&self) -> u16 {
        self.year
    }

    /// The month, 1–12.
    ///
    /// ```
    /// assert_eq!(fix_core::value::MonthYear::parse(b"202612").unwrap().month(), 12);
    /// ```
    pub const fn month(&self) -> u8 {
        self.month
    }

    /// The day or week, if any.
    ///
    /// ```
    /// use fix_core::value::{MonthYear, MonthYearDetail};
    /// assert_eq!(MonthYear::parse(b"202612").unwrap().detail(), MonthYearDetail::None);
    /// ```
    pub const fn detail(&self) -> MonthYearDetail {
        self.detail
    }

    /// Parses `YYYYMM`, `YYYYMMDD` or `YYYYMMwN`.
    ///
    /// ```
    /// use fix_core::value::{MonthYear, TimeError};
    /// assert_eq!(MonthYear::parse(b"202613"), Err(TimeError::Month));
    /// assert_eq!(MonthYear::parse(b"2026121"), Err(TimeError::WrongLength));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Self, TimeError> {
        let detail = match bytes.len() {
            0 => return Err(TimeError::Empty),
            6 => MonthYearDetail::None,
            8 if bytes[6] == b'w' => {
                let w = bytes[7].wrapping_sub(b'0');
                if w >= 10 {
                    return Err(TimeError::InvalidByte { offset: 7 });
                }
                MonthYearDetail::Week(w)
            }
            8 => MonthYearDetail::Day(d2(bytes, 6, 0)?),
            _ => return Err(TimeError::WrongLength),
        };
        let year = d2(bytes, 0, 0)? as u16 * 100 + d2(bytes, 2, 0)? as u16;
        let month = d2(bytes, 4, 0)?;
        MonthYear::new(year, month, detail)
    }

    /// Writes `YYYYMM`, `YYYYMMDD` or `YYYYMMwN`; returns the number of bytes written.
    ///
    /// ```
    /// let my = fix_core::value::MonthYear::parse(b"202612w3").unwrap();
    /// let mut buf = [0u8; 8];
    /// assert_eq!(my.write(&mut buf), Ok(8));
    /// assert_eq!(&buf, b"202612w3");
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        let len = if self.detail == MonthYearDetail::None {
            6
        } else {
            8
        };
        let out = check_output(out, len)?;
        put2(out, 0, (self.year / 100) as u32);
        put2(out, 2, (self.year % 100) as u32);
        put2(out, 4, self.month as u32);
        match self.detail {
            MonthYearDetail::None => {}
            MonthYearDetail::Day(d) => put2(out, 6, d as u32),
            MonthYearDetail::Week(w) => {
                out[6] = b'w';
                out[7] = b'0' + w;
            }
        }
        Ok(len)
    }
}

display_via_write!(MonthYear, 8);

/// The time zone of a [`TzTimeOnly`] or [`TzTimestamp`]: `Z`, or an offset from UTC.
///
/// An offset is written `±hh` when it is a whole number of hours and `±hh:mm` otherwise,
/// so `+05:00` reads back as `+05` (the same offset).
///
/// ```
/// use fix_core::value::TzOffset;
/// assert_eq!(TzOffset::from_minutes(330).unwrap().minutes(), 330);
/// assert_eq!(TzOffset::Utc.minutes(), 0);
/// assert!(TzOffset::from_minutes(15 * 60).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TzOffset {
    /// `Z`
    Utc,
    /// `±hh[:mm]`, minutes east of UTC (negative west), at most 14 hours either way.
    Minutes(i16),
}

impl TzOffset {
    /// An explicit offset; `None` beyond ±14:00.
    ///
    /// ```
    /// assert!(fix_core::value::TzOffset::from_minutes(-5 * 60).is_some());
    /// ```
    pub const fn from_minutes(minutes: i16) -> Option<TzOffset> {
        if minutes >= -14 * 60 && minutes <= 14 * 60 {
            Some(TzOffset::Minutes(minutes))
        } else {
            None
        }
    }

    /// Minutes east of UTC (0 for `Z`).
    ///
    /// ```
    /// assert_eq!(fix_core::value::TzOffset::Minutes(-300).minutes(), -300);
    /// ```
    pub const fn minutes(self) -> i16 {
        match self {
            TzOffset::Utc => 0,
            TzOffset::Minutes(m) => m,
        }
    }

    fn parse(b: &[u8], base: usize) -> Result<TzOffset, TimeError> {
        match b {
            [] => Err(TimeError::WrongLength),
            [b'Z'] => Ok(TzOffset::Utc),
            [s @ (b'+' | b'-'), rest @ ..] => {
                let (h, m) = match rest.len() {
                    2 => (d2(rest, 0, base + 1)?, 0),
                    5 => {
                        expect(rest, 2, b':', base + 1)?;
                        (d2(rest, 0, base + 1)?, d2(rest, 3, base + 1)?)
                    }
                    _ => return Err(TimeError::WrongLength),
                };
                if m > 59 {
                    return Err(TimeError::Offset);
                }
                let mins = h as i16 * 60 + m as i16;
                TzOffset::from_minutes(if *s == b'-' { -mins } else { mins })
                    .ok_or(TimeError::Offset)
            }
            _ => Err(TimeError::InvalidByte { offset: base }),
        }
    }

    const fn len(self) -> usize {
        match self {
            TzOffset::Utc => 1,
            TzOffset::Minutes(m) if m % 60 == 0 => 3,
            TzOffset::Minutes(_) => 6,
        }
    }

    fn write(self, out: &mut [u8]) {
        match self {
            TzOffset::Utc => out[0] = b'Z',
            TzOffset::Minutes(m) => {
                out[0] = if m < 0 { b'-' } else { b'+' };
                let a = m.unsigned_abs() as u32;
                put2(out, 1, a / 60);
                if !a.is_multiple_of(60) {
                    out[3] = b':';
                    put2(out, 4, a % 60);
                }
            }
        }
    }
}

/// TZTIMEONLY: `HH:MM[:SS[.sss|.ssssss|.sssssssss]]` followed by `Z` or `±hh[:mm]`.
///
/// ```
/// use fix_core::value::{TzOffset, TzTimeOnly};
/// let t = TzTimeOnly::parse(b"13:09+05:30").unwrap();
/// assert_eq!((t.hour(), t.minute(), t.offset()), (13, 9, TzOffset::Minutes(330)));
/// assert_eq!(t.precision(), None);
/// let mut buf = [0u8; TzTimeOnly::MAX_LEN];
/// let n = t.write(&mut buf).unwrap();
/// assert_eq!(&buf[..n], b"13:09+05:30");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TzTimeOnly {
    clock: Clock,
    precision: Option<Precision>,
    offset: TzOffset,
}

impl TzTimeOnly {
    /// The longest output: `HH:MM:SS.sssssssss+hh:mm`.
    ///
    /// ```
    /// assert_eq!(fix_core::value::TzTimeOnly::MAX_LEN, 24);
    /// ```
    pub const MAX_LEN: usize = 24;

    /// A checked time; `precision` `None` means no seconds (they must be 0), otherwise
    /// `nanos` is truncated to the precision.
    ///
    /// ```
    /// use fix_core::value::{Precision, TzOffset, TzTimeOnly};
    /// let t = TzTimeOnly::new(7, 39, 0, 0, None, TzOffset::Utc).unwrap();
    /// assert_eq!(t.to_string(), "07:39Z");
    /// let t = TzTimeOnly::new(7, 39, 5, 0, Some(Precision::Seconds), TzOffset::Minutes(-300));
    /// assert_eq!(t.unwrap().to_string(), "07:39:05-05");
    /// ```
    pub const fn new(
        hour: u8,
        minute: u8,
        second: u8,
        nanos: u32,
        precision: Option<Precision>,
        offset: TzOffset,
    ) -> Result<Self, TimeError> {
        if let TzOffset::Minutes(m) = offset
            && TzOffset::from_minutes(m).is_none()
        {
            return Err(TimeError::Offset);
        }
        match Clock::new(hour, minute, second, nanos) {
            Ok(mut clock) => {
                match precision {
                    Some(p) => clock.nanos -= clock.nanos % p.unit(),
                    None => {
                        clock.second = 0;
                        clock.nanos = 0;
                    }
                }
                Ok(TzTimeOnly {
                    clock,
                    precision,
                    offset,
                })
            }
            Err(e) => Err(e),
        }
    }

    /// Hour, 0–23, local to the offset.
    ///
    /// ```
    /// assert_eq!(fix_core::value::TzTimeOnly::parse(b"02:39-05").unwrap().hour(), 2);
    /// ```
    pub const fn hour(&self) -> u8 {
        self.clock.hour
    }

    /// Minute, 0–59.
    ///
    /// ```
    /// assert_eq!(fix_core::value::TzTimeOnly::parse(b"02:39-05").unwrap().minute(), 39);
    /// ```
    pub const fn minute(&self) -> u8 {
        self.clock.minute
    }

    /// Second, 0–60 (0 when the value has no seconds).
    ///
    /// ```
    /// assert_eq!(fix_core::value::TzTimeOnly::parse(b"02:39:12Z").unwrap().second(), 12);
    /// ```
    pub const fn second(&self) -> u8 {
        self.clock.second
    }

    /// Nanoseconds within the second.
    ///
    /// ```
    /// assert_eq!(fix_core::value::TzTimeOnly::parse(b"02:39:12.001Z").unwrap().nanos(), 1_000_000);
    /// ```
    pub const fn nanos(&self) -> u32 {
        self.clock.nanos
    }

    /// `None` without seconds (`HH:MM`), else the precision of the seconds.
    ///
    /// ```
    /// use fix_core::value::{Precision, TzTimeOnly};
    /// assert_eq!(TzTimeOnly::parse(b"02:39:12Z").unwrap().precision(), Some(Precision::Seconds));
    /// ```
    pub const fn precision(&self) -> Option<Precision> {
        self.precision
    }

    /// The time zone.
    ///
    /// ```
    /// use fix_core::value::{TzOffset, TzTimeOnly};
    /// assert_eq!(TzTimeOnly::parse(b"15:39+08").unwrap().offset(), TzOffset::Minutes(480));
    /// ```
    pub const fn offset(&self) -> TzOffset {
        self.offset
    }

    /// Parses `HH:MM[:SS[.f]]` + `Z` | `±hh` | `±hh:mm`; the zone is required.
    ///
    /// ```
    /// use fix_core::value::{TimeError, TzTimeOnly};
    /// assert!(TzTimeOnly::parse(b"07:39Z").is_ok());
    /// assert_eq!(TzTimeOnly::parse(b"07:39"), Err(TimeError::WrongLength));
    /// assert_eq!(TzTimeOnly::parse(b"07:39+15"), Err(TimeError::Offset));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Self, TimeError> {
        Self::parse_at(bytes, 0)
    }

    fn parse_at(bytes: &[u8], base: usize) -> Result<Self, TimeError> {
        if bytes.is_empty() {
            return Err(TimeError::Empty);
        }
        if bytes.len() < 6 {
            return Err(TimeError::WrongLength);
        }
        let (clock, precision, used) = Clock::parse(bytes, base, false)?;
        let offset = TzOffset::parse(&bytes[used..], base + used)?;
        Ok(TzTimeOnly {
            clock,
            precision,
            offset,
        })
    }

    fn len(&self) -> usize {
        match self.precision {
            None => 5,
            Some(p) => Clock::len(p),
        }
    }

    fn write_unchecked(&self, out: &mut [u8]) {
        let n = match self.precision {
            None => {
                put2(out, 0, self.clock.hour as u32);
                out[2] = b':';
                put2(out, 3, self.clock.minute as u32);
                5
            }
            Some(p) => {
                self.clock.write(p, out);
                Clock::len(p)
            }
        };
        self.offset.write(&mut out[n..]);
    }

    /// Writes the value as parsed (an offset of whole hours as `±hh`); returns the number
    /// of bytes written.
    ///
    /// ```
    /// let t = fix_core::value::TzTimeOnly::parse(b"02:39:00.250-05:00").unwrap();
    /// let mut buf = [0u8; 24];
    /// let n = t.write(&mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"02:39:00.250-05");
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        let len = self.len() + self.offset.len();
        let out = check_output(out, len)?;
        self.write_unchecked(out);
        Ok(len)
    }
}

display_via_write!(TzTimeOnly, 24);

/// TZTIMESTAMP: `YYYYMMDD-HH:MM[:SS[.f]]` followed by `Z` or `±hh[:mm]`; the date and
/// time are local to the offset.
///
/// ```
/// use fix_core::value::{TzOffset, TzTimestamp};
/// let ts = TzTimestamp::parse(b"20060901-02:39-05").unwrap();
/// assert_eq!(ts.date().day(), 1);
/// assert_eq!(ts.time().offset(), TzOffset::Minutes(-300));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TzTimestamp {
    date: UtcDateOnly,
    time: TzTimeOnly,
}

impl TzTimestamp {
    /// The longest output: `YYYYMMDD-HH:MM:SS.sssssssss+hh:mm`.
    ///
    /// ```
    /// assert_eq!(fix_core::value::TzTimestamp::MAX_LEN, 33);
    /// ```
    pub const MAX_LEN: usize = 33;

    /// A timestamp from a calendar date (in the offset's zone) and a zoned time.
    ///
    /// ```
    /// use fix_core::value::{TzOffset, TzTimeOnly, TzTimestamp, UtcDateOnly};
    /// let ts = TzTimestamp::new(
    ///     UtcDateOnly::new(2006, 9, 1).unwrap(),
    ///     TzTimeOnly::new(7, 39, 0, 0, None, TzOffset::Utc).unwrap(),
    /// );
    /// assert_eq!(ts.to_string(), "20060901-07:39Z");
    /// ```
    pub const fn new(date: UtcDateOnly, time: TzTimeOnly) -> Self {
        TzTimestamp { date, time }
    }

    /// The date part (local to the offset).
    ///
    /// ```
    /// let ts = fix_core::value::TzTimestamp::parse(b"20060901-07:39Z").unwrap();
    /// assert_eq!(ts.date().year(), 2006);
    /// ```
    pub const fn date(&self) -> UtcDateOnly {
        self.date
    }

    /// The time and zone part.
    ///
    /// ```
    /// let ts = fix_core::value::TzTimestamp::parse(b"20060901-07:39Z").unwrap();
    /// assert_eq!(ts.time().minute(), 39);
    /// ```
    pub const fn time(&self) -> TzTimeOnly {
        self.time
    }

    /// Parses `YYYYMMDD-` followed by a [`TzTimeOnly`].
    ///
    /// ```
    /// use fix_core::value::{TimeError, TzTimestamp};
    /// assert!(TzTimestamp::parse(b"20060901-13:09:30.123+05:30").is_ok());
    /// assert_eq!(TzTimestamp::parse(b"20060931-13:09Z"), Err(TimeError::Day));
    /// ```
    pub fn parse(bytes: &[u8]) -> Result<Self, TimeError> {
        if bytes.is_empty() {
            return Err(TimeError::Empty);
        }
        if bytes.len() < 15 {
            return Err(TimeError::WrongLength);
        }
        let (year, month, day) = parse_ymd(bytes, 0)?;
        expect(bytes, 8, b'-', 0)?;
        let time = TzTimeOnly::parse_at(&bytes[9..], 9)?;
        Ok(TzTimestamp {
            date: UtcDateOnly { year, month, day },
            time,
        })
    }

    /// Writes the value as parsed; returns the number of bytes written.
    ///
    /// ```
    /// let ts = fix_core::value::TzTimestamp::parse(b"20060901-15:39+08").unwrap();
    /// let mut buf = [0u8; 33];
    /// let n = ts.write(&mut buf).unwrap();
    /// assert_eq!(&buf[..n], b"20060901-15:39+08");
    /// ```
    pub fn write(&self, out: &mut [u8]) -> Result<usize, BufferTooSmall> {
        let len = 9 + self.time.len() + self.time.offset.len();
        let out = check_output(out, len)?;
        write_ymd(out, self.date.year, self.date.month, self.date.day);
        out[8] = b'-';
        self.time.write_unchecked(&mut out[9..]);
        Ok(len)
    }
}

display_via_write!(TzTimestamp, 33);

#[cfg(feature = "chrono")]
mod chrono_conv {
    //! Conversions with `chrono` (feature `chrono`). chrono represents a leap second as
    //! second 59 with nanoseconds ≥ 10^9; FIX writes it as second 60. Both directions map
    //! one onto the other.

    use super::{Clock, Precision, TimeError, TzTimestamp, UtcDateOnly, UtcTimeOnly, UtcTimestamp};
    use chrono::{Datelike, Timelike};

    fn naive_date(year: u16, month: u8, day: u8) -> chrono::NaiveDate {
        // Every checked FIX date (0000-01-01 ..= 9999-12-31) is a valid chrono date.
        chrono::NaiveDate::from_ymd_opt(year as i32, month as u32, day as u32)
            .unwrap_or(chrono::NaiveDate::MIN)
    }

    fn naive_time(c: &Clock) -> chrono::NaiveTime {
        let (sec, nanos) = if c.second == 60 {
            (59, c.nanos + 1_000_000_000)
        } else {
            (c.second, c.nanos)
        };
        // Every checked clock maps to a valid chrono time.
        chrono::NaiveTime::from_hms_nano_opt(c.hour as u32, c.minute as u32, sec as u32, nanos)
            .unwrap_or(chrono::NaiveTime::MIN)
    }

    fn from_naive_time(t: chrono::NaiveTime) -> UtcTimeOnly {
        let (sec, nanos) = if t.nanosecond() >= 1_000_000_000 {
            (60, t.nanosecond() - 1_000_000_000)
        } else {
            (t.second() as u8, t.nanosecond())
        };
        let clock = Clock {
            hour: t.hour() as u8,
            minute: t.minute() as u8,
            second: sec,
            nanos,
        };
        UtcTimeOnly {
            clock,
            precision: Precision::exact_for(nanos),
        }
    }

    fn from_naive_date(d: chrono::NaiveDate) -> Result<UtcDateOnly, TimeError> {
        if !(0..=9999).contains(&d.year()) {
            return Err(TimeError::Year);
        }
        Ok(UtcDateOnly {
            year: d.year() as u16,
            month: d.month() as u8,
            day: d.day() as u8,
        })
    }

    impl From<UtcDateOnly> for chrono::NaiveDate {
        fn from(d: UtcDateOnly) -> Self {
            naive_date(d.year, d.month, d.day)
        }
    }

    impl TryFrom<chrono::NaiveDate> for UtcDateOnly {
        type Error = TimeError;

        /// Fails with [`TimeError::Year`] outside years 0–9999.
        fn try_from(d: chrono::NaiveDate) -> Result<Self, TimeError> {
            from_naive_date(d)
        }
    }

    impl From<UtcTimeOnly> for chrono::NaiveTime {
        fn from(t: UtcTimeOnly) -> Self {
            naive_time(&t.clock)
        }
    }

    impl From<chrono::NaiveTime> for UtcTimeOnly {
        /// The precision is the coarsest that holds the nanoseconds exactly.
        fn from(t: chrono::NaiveTime) -> Self {
            from_naive_time(t)
        }
    }

    impl From<UtcTimestamp> for chrono::NaiveDateTime {
        fn from(ts: UtcTimestamp) -> Self {
            chrono::NaiveDateTime::new(ts.date.into(), ts.time.into())
        }
    }

    impl From<UtcTimestamp> for chrono::DateTime<chrono::Utc> {
        fn from(ts: UtcTimestamp) -> Self {
            chrono::NaiveDateTime::from(ts).and_utc()
        }
    }

    impl TryFrom<chrono::NaiveDateTime> for UtcTimestamp {
        type Error = TimeError;

        /// Fails with [`TimeError::Year`] outside years 0–9999; the precision is the
        /// coarsest that holds the nanoseconds exactly.
        fn try_from(dt: chrono::NaiveDateTime) -> Result<Self, TimeError> {
            Ok(UtcTimestamp {
                date: from_naive_date(dt.date())?,
                time: from_naive_time(dt.time()),
            })
        }
    }

    impl TryFrom<chrono::DateTime<chrono::Utc>> for UtcTimestamp {
        type Error = TimeError;

        /// See the `NaiveDateTime` conversion.
        fn try_from(dt: chrono::DateTime<chrono::Utc>) -> Result<Self, TimeError> {
            UtcTimestamp::try_from(dt.naive_utc())
        }
    }

    impl TryFrom<TzTimestamp> for chrono::DateTime<chrono::FixedOffset> {
        type Error = TimeError;

        /// The instant with its offset. Fails only for a local time that does not map to
        /// a single instant, which a fixed offset never produces.
        fn try_from(ts: TzTimestamp) -> Result<Self, TimeError> {
            let off = chrono::FixedOffset::east_opt(ts.time.offset.minutes() as i32 * 60)
                .ok_or(TimeError::Offset)?;
            let local = chrono::NaiveDateTime::new(ts.date.into(), naive_time(&ts.time.clock));
            local
                .and_local_timezone(off)
                .single()
                .ok_or(TimeError::Offset)
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::*;

        #[test]
        fn chrono_round_trips() {
            let ts = UtcTimestamp::parse(b"20161231-23:59:60.500").unwrap();
            let dt = chrono::NaiveDateTime::from(ts);
            assert_eq!(dt.nanosecond(), 1_500_000_000);
            assert_eq!(UtcTimestamp::try_from(dt), Ok(ts));
            let ts = UtcTimestamp::parse(b"20261130-14:03:27.123456").unwrap();
            let utc: chrono::DateTime<chrono::Utc> = ts.into();
            assert_eq!(utc.timestamp_subsec_micros(), 123_456);
            assert_eq!(UtcTimestamp::try_from(utc), Ok(ts));
            let tz = TzTimestamp::parse(b"20060901-02:39-05").unwrap();
            let fixed = chrono::DateTime::<chrono::FixedOffset>::try_from(tz).unwrap();
            assert_eq!(fixed.naive_utc().hour(), 7);
            let far = chrono::NaiveDate::from_ymd_opt(10000, 1, 1).unwrap();
            assert_eq!(UtcDateOnly::try_from(far), Err(TimeError::Year));
        }

        use chrono::Timelike;
    }
}

#[cfg(feature = "time")]
mod time_conv {
    //! Conversions with the `time` crate (feature `time`). `time` has no leap seconds, so
    //! a FIX second 60 does not convert ([`TimeError::Second`]); a FIX date always
    //! converts (years 0–9999 are inside `time`'s default range) but the conversion is
    //! fallible like the others.

    use super::{Clock, Precision, TimeError, TzTimestamp, UtcDateOnly, UtcTimeOnly, UtcTimestamp};

    fn to_date(d: UtcDateOnly) -> Result<time::Date, TimeError> {
        let month = time::Month::try_from(d.month).map_err(|_| TimeError::Month)?;
        time::Date::from_calendar_date(d.year as i32, month, d.day).map_err(|_| TimeError::Day)
    }

    fn from_date(d: time::Date) -> Result<UtcDateOnly, TimeError> {
        let (year, month, day) = d.to_calendar_date();
        if !(0..=9999).contains(&year) {
            return Err(TimeError::Year);
        }
        Ok(UtcDateOnly {
            year: year as u16,
            month: month as u8,
            day,
        })
    }

    fn to_time(c: &Clock) -> Result<time::Time, TimeError> {
        time::Time::from_hms_nano(c.hour, c.minute, c.second, c.nanos)
            .map_err(|_| TimeError::Second)
    }

    fn from_time(t: time::Time) -> UtcTimeOnly {
        let (hour, minute, second, nanos) = t.as_hms_nano();
        UtcTimeOnly {
            clock: Clock {
                hour,
                minute,
                second,
                nanos,
            },
            precision: Precision::exact_for(nanos),
        }
    }

    impl TryFrom<UtcDateOnly> for time::Date {
        type Error = TimeError;

        fn try_from(d: UtcDateOnly) -> Result<Self, TimeError> {
            to_date(d)
        }
    }

    impl TryFrom<time::Date> for UtcDateOnly {
        type Error = TimeError;

        /// Fails with [`TimeError::Year`] outside years 0–9999.
        fn try_from(d: time::Date) -> Result<Self, TimeError> {
            from_date(d)
        }
    }

    impl TryFrom<UtcTimeOnly> for time::Time {
        type Error = TimeError;

        /// Fails with [`TimeError::Second`] for a leap second.
        fn try_from(t: UtcTimeOnly) -> Result<Self, TimeError> {
            to_time(&t.clock)
        }
    }

    impl From<time::Time> for UtcTimeOnly {
        /// The precision is the coarsest that holds the nanoseconds exactly.
        fn from(t: time::Time) -> Self {
            from_time(t)
        }
    }

    impl TryFrom<UtcTimestamp> for time::PlainDateTime {
        type Error = TimeError;

        /// Fails with [`TimeError::Second`] for a leap second.
        fn try_from(ts: UtcTimestamp) -> Result<Self, TimeError> {
            Ok(time::PlainDateTime::new(
                to_date(ts.date)?,
                to_time(&ts.time.clock)?,
            ))
        }
    }

    impl TryFrom<UtcTimestamp> for time::UtcDateTime {
        type Error = TimeError;

        /// Fails with [`TimeError::Second`] for a leap second.
        fn try_from(ts: UtcTimestamp) -> Result<Self, TimeError> {
            Ok(time::UtcDateTime::new(
                to_date(ts.date)?,
                to_time(&ts.time.clock)?,
            ))
        }
    }

    impl TryFrom<time::PlainDateTime> for UtcTimestamp {
        type Error = TimeError;

        /// Fails with [`TimeError::Year`] outside years 0–9999.
        fn try_from(dt: time::PlainDateTime) -> Result<Self, TimeError> {
            Ok(UtcTimestamp {
                date: from_date(dt.date())?,
                time: from_time(dt.time()),
            })
        }
    }

    impl TryFrom<time::UtcDateTime> for UtcTimestamp {
        type Error = TimeError;

        /// Fails with [`TimeError::Year`] outside years 0–9999.
        fn try_from(dt: time::UtcDateTime) -> Result<Self, TimeError> {
            Ok(UtcTimestamp {
                date: from_date(dt.date())?,
                time: from_time(dt.time()),
            })
        }
    }

    impl TryFrom<TzTimestamp> for time::OffsetDateTime {
        type Error = TimeError;

        /// The local date and time with their offset. Fails with [`TimeError::Second`] for
        /// a leap second.
        fn try_from(ts: TzTimestamp) -> Result<Self, TimeError> {
            let offset = time::UtcOffset::from_whole_seconds(ts.time.offset.minutes() as i32 * 60)
                .map_err(|_| TimeError::Offset)?;
            let local = time::PlainDateTime::new(to_date(ts.date)?, to_time(&ts.time.clock)?);
            Ok(local.assume_offset(offset))
        }
    }

    #[cfg(test)]
    mod tests {
        use super::super::*;

        #[test]
        fn time_round_trips() {
            let ts = UtcTimestamp::parse(b"20261130-14:03:27.123456").unwrap();
            let dt = time::UtcDateTime::try_from(ts).unwrap();
            assert_eq!(dt.microsecond(), 123_456);
            assert_eq!(UtcTimestamp::try_from(dt), Ok(ts));
            let plain = time::PlainDateTime::try_from(ts).unwrap();
            assert_eq!(UtcTimestamp::try_from(plain), Ok(ts));
            let leap = UtcTimestamp::parse(b"20161231-23:59:60").unwrap();
            assert_eq!(time::UtcDateTime::try_from(leap), Err(TimeError::Second));
            let tz = TzTimestamp::parse(b"20060901-02:39-05").unwrap();
            let odt = time::OffsetDateTime::try_from(tz).unwrap();
            assert_eq!(odt.to_offset(time::UtcOffset::UTC).hour(), 7);
            let d = UtcDateOnly::parse(b"20240229").unwrap();
            assert_eq!(
                UtcDateOnly::try_from(time::Date::try_from(d).unwrap()),
                Ok(d)
            );
            let far = time::Date::from_calendar_date(-1, time::Month::January, 1).unwrap();
            assert_eq!(UtcDateOnly::try_from(far), Err(TimeError::Year));
        }
    }
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (Howard
/// Hinnant's `civil_from_days`).
#[cfg(feature = "std")]
fn civil_from_days(days: u64) -> (u64, u8, u8) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u8;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u8;
    (yoe + era * 400 + u64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar() {
        assert!(UtcDateOnly::parse(b"20000229").is_ok());
        assert_eq!(UtcDateOnly::parse(b"19000229"), Err(TimeError::Day));
        assert_eq!(UtcDateOnly::parse(b"20260001"), Err(TimeError::Month));
        assert_eq!(UtcDateOnly::parse(b"20260100"), Err(TimeError::Day));
        assert_eq!(
            UtcDateOnly::parse(b"2026O101"),
            Err(TimeError::InvalidByte { offset: 4 })
        );
        assert_eq!(
            UtcDateOnly::parse(b"202601x1"),
            Err(TimeError::InvalidByte { offset: 6 })
        );
        assert_eq!(
            UtcDateOnly::parse(b"2026011x"),
            Err(TimeError::InvalidByte { offset: 7 })
        );
        assert_eq!(
            UtcTimestamp::parse(b"20261130-14:03:27.1234567"),
            Err(TimeError::WrongLength)
        );
        assert_eq!(
            UtcTimestamp::parse(b"20261130-14:03:27.12a"),
            Err(TimeError::Fraction)
        );
        assert_eq!(
            UtcTimestamp::parse(b"20261130-14:03:27,123"),
            Err(TimeError::InvalidByte { offset: 17 })
        );
        assert_eq!(
            TzTimeOnly::parse(b"07:39:00.1234567890Z"),
            Err(TimeError::Fraction)
        );
        assert_eq!(TzTimeOnly::parse(b"07:39+05:60"), Err(TimeError::Offset));
        assert_eq!(
            TzTimeOnly::parse(b"07:39+0530"),
            Err(TimeError::WrongLength)
        );
        assert_eq!(
            TzTimeOnly::parse(b"07:39X"),
            Err(TimeError::InvalidByte { offset: 5 })
        );
        assert_eq!(MonthYear::parse(b"202602w0"), Err(TimeError::Week));
        assert_eq!(MonthYear::parse(b"20260230"), Err(TimeError::Day));
    }

    #[test]
    fn writes() {
        let ts = UtcTimestamp::parse(b"20261130-14:03:27.000123456").unwrap();
        let mut b = [0u8; 40];
        for (p, s) in [
            (Precision::Seconds, &b"20261130-14:03:27"[..]),
            (Precision::Millis, b"20261130-14:03:27.000"),
            (Precision::Micros, b"20261130-14:03:27.000123"),
            (Precision::Nanos, b"20261130-14:03:27.000123456"),
        ] {
            let n = ts.write_with(p, &mut b).unwrap();
            assert_eq!(&b[..n], s);
        }
        assert_eq!(ts.write(&mut b[..26]), Err(BufferTooSmall { needed: 27 }));
    }
}
