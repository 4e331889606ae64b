//! Wall-clock time as FIX writes it: `SystemTime` to and from `UTCTIMESTAMP`
//! text, on fix-core's calendar (no calendar crate).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_core::value::Precision;

/// The time a session input happens, read from two clocks: the wall clock,
/// which stamps SendingTime and checks the counterparty's, and a monotonic
/// clock, which every deadline runs on (heartbeats, TestRequests, the Logon
/// and Logout timeouts), so that a step of the wall clock (NTP, an operator)
/// neither drops every session at once nor holds their heartbeats back.
///
/// `mono` is the time since any origin of the caller's choosing that never
/// goes back (the engine's: its start, read from `Instant`). A `SystemTime`
/// converts into a `Time` whose two clocks move together (`mono` is the time
/// since the Unix epoch): what a simulated clock in a test wants.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use fix_session::Time;
/// let wall = UNIX_EPOCH + Duration::from_secs(1_700_000_000);
/// let t = Time::from(wall);
/// assert_eq!((t.wall, t.mono), (wall, Duration::from_secs(1_700_000_000)));
/// // The wall clock stepped an hour ahead; the monotonic one did not.
/// let stepped = Time::new(wall + Duration::from_secs(3600), t.mono + Duration::from_secs(1));
/// assert_eq!(stepped.mono - t.mono, Duration::from_secs(1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Time {
    /// The wall clock.
    pub wall: SystemTime,
    /// The monotonic clock: time since the caller's fixed origin.
    pub mono: Duration,
}

impl Time {
    /// A time read from both clocks.
    ///
    /// ```
    /// use std::time::{Duration, SystemTime};
    /// let t = fix_session::Time::new(SystemTime::UNIX_EPOCH, Duration::from_secs(5));
    /// assert_eq!(t.mono.as_secs(), 5);
    /// ```
    pub const fn new(wall: SystemTime, mono: Duration) -> Time {
        Time { wall, mono }
    }

    /// The time `d` after this one on both clocks, if it can be told.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let t = fix_session::Time::from(UNIX_EPOCH);
    /// assert_eq!(t.checked_add(Duration::from_secs(1)).unwrap().mono, Duration::from_secs(1));
    /// ```
    pub fn checked_add(self, d: Duration) -> Option<Time> {
        Some(Time {
            wall: self.wall.checked_add(d)?,
            mono: self.mono.checked_add(d)?,
        })
    }
}

impl From<SystemTime> for Time {
    fn from(wall: SystemTime) -> Time {
        Time {
            wall,
            mono: wall.duration_since(UNIX_EPOCH).unwrap_or_default(),
        }
    }
}

/// `YYYYMMDD-HH:MM:SS.sss`: the length of a SendingTime with milliseconds.
pub const TIMESTAMP_LEN: usize = 21;

/// `YYYYMMDD-HH:MM:SS.sssssssss`: the length of the longest timestamp a session
/// writes (nanoseconds).
pub const TIMESTAMP_MAX_LEN: usize = 27;

/// A `UTCTIMESTAMP` as text, on the stack: a buffer of the longest length and
/// how much of it is used, so that a session can keep one for every precision
/// without allocating.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// use fix_core::value::Precision;
/// let t = UNIX_EPOCH + Duration::new(1_700_000_000, 123_456_789);
/// let ts = fix_session::time::Timestamp::new(t, Precision::Micros);
/// assert_eq!(ts.as_bytes(), b"20231114-22:13:20.123456");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Timestamp {
    text: [u8; TIMESTAMP_MAX_LEN],
    len: u8,
}

impl Timestamp {
    /// `t` written as `YYYYMMDD-HH:MM:SS` with `precision`'s digits of a second
    /// (UTC, truncated, not rounded); times before 1970 (or past 9999) are
    /// written as 1970-01-01.
    ///
    /// ```
    /// use std::time::{Duration, UNIX_EPOCH};
    /// use fix_core::value::Precision;
    /// let t = UNIX_EPOCH + Duration::new(1_700_000_000, 999_999_999);
    /// let ts = |p| fix_session::time::Timestamp::new(t, p);
    /// assert_eq!(ts(Precision::Seconds).as_bytes(), b"20231114-22:13:20");
    /// assert_eq!(ts(Precision::Nanos).as_bytes(), b"20231114-22:13:20.999999999");
    /// ```
    pub fn new(t: SystemTime, precision: Precision) -> Timestamp {
        use fix_core::value::UtcTimestamp;
        let ts = UtcTimestamp::from_system_time(t, precision)
            .or_else(|| UtcTimestamp::from_system_time(UNIX_EPOCH, precision));
        let mut text = *b"19700101-00:00:00.000000000";
        let len = match ts.map(|ts| ts.write(&mut text)) {
            // The buffer holds the longest timestamp: the write always fits.
            Some(Ok(n)) => n,
            // Unreachable; were it reached, the epoch's text at this precision.
            _ => match precision.digits() {
                0 => 17,
                digits => 18 + digits,
            },
        };
        Timestamp {
            text,
            // At most TIMESTAMP_MAX_LEN (27): fits u8.
            len: len as u8,
        }
    }

    /// The text.
    ///
    /// ```
    /// use fix_core::value::Precision;
    /// let ts = fix_session::time::Timestamp::new(std::time::UNIX_EPOCH, Precision::Seconds);
    /// assert_eq!(ts.as_bytes(), b"19700101-00:00:00");
    /// ```
    pub fn as_bytes(&self) -> &[u8] {
        &self.text[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&String::from_utf8_lossy(self.as_bytes()))
    }
}

/// Writes `t` as `YYYYMMDD-HH:MM:SS.sss` (UTC, milliseconds); times before 1970
/// (or past 9999) are written as 1970-01-01. [`Timestamp::new`] writes other
/// precisions.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
/// assert_eq!(&fix_session::time::format_timestamp(t), b"20231114-22:13:20.123");
/// ```
pub fn format_timestamp(t: SystemTime) -> [u8; TIMESTAMP_LEN] {
    let mut out = [0; TIMESTAMP_LEN];
    out.copy_from_slice(Timestamp::new(t, Precision::Millis).as_bytes());
    out
}

/// Reads a `UTCTIMESTAMP` (`YYYYMMDD-HH:MM:SS` with optional fraction) as a
/// `SystemTime`; `None` when it is not one.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = fix_session::time::parse_timestamp(b"20231114-22:13:20.123").unwrap();
/// assert_eq!(t, UNIX_EPOCH + Duration::from_millis(1_700_000_000_123));
/// assert!(fix_session::time::parse_timestamp(b"2023-11-14").is_none());
/// ```
pub fn parse_timestamp(text: &[u8]) -> Option<SystemTime> {
    let ts = fix_core::value::UtcTimestamp::parse(text).ok()?;
    let (date, time) = (ts.date(), ts.time());
    let days = days_from_civil(
        u64::from(date.year()),
        u64::from(date.month()),
        u64::from(date.day()),
    )?;
    let secs = days * 86_400
        + u64::from(time.hour()) * 3600
        + u64::from(time.minute()) * 60
        + u64::from(time.second().min(59));
    Some(UNIX_EPOCH + Duration::new(secs, time.nanos()))
}

/// (year, month, day) to days since 1970-01-01; `None` before 1970.
fn days_from_civil(y: u64, m: u64, d: u64) -> Option<u64> {
    let y = if m <= 2 { y.checked_sub(1)? } else { y };
    let era = y / 400;
    let yoe = y - era * 400;
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    (era * 146_097 + doe).checked_sub(719_468)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_day_of_four_centuries_reads_back_as_written() {
        // Written by fix-core's calendar (checked against chrono), read back by
        // this module's days_from_civil: the two must agree on every day from
        // 1970 to 2370, at a time of day with milliseconds.
        for days in 0..146_097u64 {
            let t = UNIX_EPOCH + Duration::from_millis(days * 86_400_000 + 45_296_789);
            let text = format_timestamp(t);
            assert_eq!(
                parse_timestamp(&text),
                Some(t),
                "{}",
                String::from_utf8_lossy(&text)
            );
        }
        assert_eq!(&format_timestamp(UNIX_EPOCH), b"19700101-00:00:00.000");
        let before = UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(&format_timestamp(before), b"19700101-00:00:00.000");
    }

    #[test]
    fn every_precision_reads_back_truncated_to_its_digits() {
        let t = UNIX_EPOCH + Duration::new(1_790_000_000, 123_456_789);
        for (p, nanos) in [
            (Precision::Seconds, 0),
            (Precision::Millis, 123_000_000),
            (Precision::Micros, 123_456_000),
            (Precision::Nanos, 123_456_789),
        ] {
            let ts = Timestamp::new(t, p);
            let dot = usize::from(p != Precision::Seconds);
            assert_eq!(ts.as_bytes().len(), 17 + dot + p.digits());
            let back = parse_timestamp(ts.as_bytes()).unwrap();
            assert_eq!(
                back,
                UNIX_EPOCH + Duration::new(1_790_000_000, nanos),
                "{ts:?}"
            );
        }
        let before = UNIX_EPOCH - Duration::from_secs(1);
        assert_eq!(
            Timestamp::new(before, Precision::Nanos).as_bytes(),
            b"19700101-00:00:00.000000000"
        );
    }

    #[test]
    fn leap_days_are_where_the_calendar_puts_them() {
        let feb29 = |y| days_from_civil(y, 3, 1).unwrap() - days_from_civil(y, 2, 28).unwrap();
        assert_eq!(
            (feb29(2000), feb29(2024), feb29(2100), feb29(2023)),
            (2, 2, 1, 1)
        );
    }
}
