//! Wall-clock time as FIX writes it: `SystemTime` to and from `UTCTIMESTAMP`
//! text, without a calendar crate (the civil-date conversion is a few lines).

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// `YYYYMMDD-HH:MM:SS.sss`: the length of a SendingTime with milliseconds.
pub const TIMESTAMP_LEN: usize = 21;

/// Writes `t` as `YYYYMMDD-HH:MM:SS.sss` (UTC, milliseconds); times before 1970
/// are written as 1970-01-01.
///
/// ```
/// use std::time::{Duration, UNIX_EPOCH};
/// let t = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
/// assert_eq!(&fix_session::time::format_timestamp(t), b"20231114-22:13:20.123");
/// ```
pub fn format_timestamp(t: SystemTime) -> [u8; TIMESTAMP_LEN] {
    let since = t.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    let secs = since.as_secs();
    let millis = since.subsec_millis();
    let (y, m, d) = civil_from_days(secs / 86_400);
    let rem = secs % 86_400;
    let (hh, mm, ss) = (rem / 3600, rem / 60 % 60, rem % 60);
    let mut out = [0u8; TIMESTAMP_LEN];
    let mut put = |at: usize, value: u64, width: usize| {
        let mut v = value;
        for i in (0..width).rev() {
            out[at + i] = b'0' + (v % 10) as u8;
            v /= 10;
        }
    };
    put(0, y, 4);
    put(4, m, 2);
    put(6, d, 2);
    put(9, hh, 2);
    put(12, mm, 2);
    put(15, ss, 2);
    put(18, u64::from(millis), 3);
    out[8] = b'-';
    out[11] = b':';
    out[14] = b':';
    out[17] = b'.';
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

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian (Howard
/// Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + u64::from(m <= 2);
    (y, m, d)
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
    fn civil_dates_round_trip_over_four_centuries() {
        // Every day from 1970 to 2370 maps back to itself, and consecutive days
        // are consecutive dates (an independent check: months and leap years).
        let mut prev = civil_from_days(0);
        assert_eq!(prev, (1970, 1, 1));
        for days in 1..146_097 {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), Some(days));
            let next_day = (y, m, d) == (prev.0, prev.1, prev.2 + 1);
            let next_month = d == 1
                && ((m == prev.1 + 1 && y == prev.0)
                    || (m == 1 && prev.1 == 12 && y == prev.0 + 1));
            assert!(next_day || next_month, "{prev:?} -> {:?}", (y, m, d));
            prev = (y, m, d);
        }
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
