//! Dates, times, time zones and MonthYear against expectations written by hand, and
//! against chrono, an independent calendar (not only parse-then-write round trips).

use chrono::{DateTime, Datelike, NaiveDate, Timelike};
use fix_core::value::{
    LocalMktDate, MonthYear, MonthYearDetail, Precision, TimeError, TzOffset, TzTimeOnly,
    TzTimestamp, UtcDateOnly, UtcTimeOnly, UtcTimestamp,
};
use proptest::prelude::*;

#[test]
fn timestamps_read_and_write_as_written() {
    let cases = [
        (
            "20261130-14:03:27",
            (2026, 11, 30, 14, 3, 27, 0),
            Precision::Seconds,
        ),
        (
            "20261130-14:03:27.123",
            (2026, 11, 30, 14, 3, 27, 123_000_000),
            Precision::Millis,
        ),
        (
            "20240229-23:59:60.000001",
            (2024, 2, 29, 23, 59, 60, 1_000),
            Precision::Micros,
        ),
        (
            "00010101-00:00:00.000000007",
            (1, 1, 1, 0, 0, 0, 7),
            Precision::Nanos,
        ),
    ];
    for (text, (y, mo, d, h, mi, s, ns), precision) in cases {
        let t = UtcTimestamp::parse(text.as_bytes()).unwrap();
        let (date, time) = (t.date(), t.time());
        assert_eq!(
            (
                date.year(),
                date.month(),
                date.day(),
                time.hour(),
                time.minute(),
                time.second()
            ),
            (y, mo, d, h, mi, s),
            "{text}"
        );
        assert_eq!((time.nanos(), t.precision()), (ns, precision), "{text}");
        let built = UtcTimestamp::new(
            UtcDateOnly::new(y, mo, d).unwrap(),
            UtcTimeOnly::new(h, mi, s, ns, precision).unwrap(),
        );
        assert_eq!(built.to_string(), text);
    }
    // Written at a coarser precision, the fraction is cut, not rounded.
    let t = UtcTimeOnly::new(9, 30, 0, 987_654_321, Precision::Millis).unwrap();
    assert_eq!(t.to_string(), "09:30:00.987");
    for bad in [
        "20261131-12:00:00",
        "20230229-12:00:00",
        "20261130-24:00:00",
        "20261130-12:60:00",
        "20261130-12:00:61",
        "20261130-12:00:00.1234",
        "20261130 12:00:00",
        "2026113-12:00:00",
    ] {
        assert!(UtcTimestamp::parse(bad.as_bytes()).is_err(), "{bad}");
    }
}

#[test]
fn dates_and_month_years_read_as_written() {
    let d = UtcDateOnly::parse(b"20261130").unwrap();
    assert_eq!((d.year(), d.month(), d.day()), (2026, 11, 30));
    let d = LocalMktDate::parse(b"20240229").unwrap();
    assert_eq!((d.year(), d.month(), d.day()), (2024, 2, 29));
    assert_eq!(LocalMktDate::parse(b"19000229"), Err(TimeError::Day));
    let cases = [
        ("202612", 2026, 12, MonthYearDetail::None),
        ("20261218", 2026, 12, MonthYearDetail::Day(18)),
        ("202603w1", 2026, 3, MonthYearDetail::Week(1)),
        ("202603w5", 2026, 3, MonthYearDetail::Week(5)),
    ];
    for (text, y, m, detail) in cases {
        let my = MonthYear::parse(text.as_bytes()).unwrap();
        assert_eq!(
            (my.year(), my.month(), my.detail()),
            (y, m, detail),
            "{text}"
        );
        assert_eq!(MonthYear::new(y, m, detail).unwrap().to_string(), text);
    }
    for bad in [
        "202613", "20260230", "202603w0", "202603w6", "2026", "202603x1",
    ] {
        assert!(MonthYear::parse(bad.as_bytes()).is_err(), "{bad}");
    }
}

#[test]
fn time_zones_read_and_write_as_written() {
    let cases = [
        ("07:39Z", (7, 39, 0), None, 0),
        ("07:39:05-05", (7, 39, 5), Some(Precision::Seconds), -300),
        (
            "23:59:59.123+05:30",
            (23, 59, 59),
            Some(Precision::Millis),
            330,
        ),
        ("00:00+14", (0, 0, 0), None, 14 * 60),
    ];
    for (text, (h, m, s), precision, offset) in cases {
        let t = TzTimeOnly::parse(text.as_bytes()).unwrap();
        assert_eq!((t.hour(), t.minute(), t.second()), (h, m, s), "{text}");
        assert_eq!(
            (t.precision(), t.offset().minutes()),
            (precision, offset),
            "{text}"
        );
        assert_eq!(t.to_string(), text);
    }
    let ts = TzTimestamp::parse(b"20261130-07:39:05-05").unwrap();
    assert_eq!(
        (ts.date().day(), ts.time().offset()),
        (30, TzOffset::Minutes(-300))
    );
    assert_eq!(ts.to_string(), "20261130-07:39:05-05");
    for bad in ["07:39+15", "07:39", "7:39Z", "07:39:05.1Z", "07:60Z"] {
        assert!(TzTimeOnly::parse(bad.as_bytes()).is_err(), "{bad}");
    }
}

proptest! {
    /// A date exists exactly when chrono says it does.
    #[test]
    fn dates_exist_as_chrono_says(year in 0u16..=9999, month in 0u8..=13, day in 0u8..=32) {
        let ours = UtcDateOnly::new(year, month, day).is_ok();
        let chrono = NaiveDate::from_ymd_opt(i32::from(year), u32::from(month), u32::from(day)).is_some();
        prop_assert_eq!(ours, chrono);
    }

    /// A timestamp chrono writes in FIX's form reads back as chrono's fields.
    #[test]
    fn timestamps_read_as_chrono_writes_them(secs in 0i64..253_402_300_799, millis in 0u32..1000) {
        let t = DateTime::from_timestamp_millis(secs * 1000 + i64::from(millis))
            .unwrap()
            .naive_utc();
        let text = t.format("%Y%m%d-%H:%M:%S%.3f").to_string();
        let ours = UtcTimestamp::parse(text.as_bytes()).unwrap();
        let (d, c) = (ours.date(), ours.time());
        prop_assert_eq!(
            (i32::from(d.year()), u32::from(d.month()), u32::from(d.day())),
            (t.year(), t.month(), t.day())
        );
        prop_assert_eq!(
            (u32::from(c.hour()), u32::from(c.minute()), u32::from(c.second()), c.nanos()),
            (t.hour(), t.minute(), t.second(), t.nanosecond())
        );
        prop_assert_eq!(ours.to_string(), text);
    }
}

// A clock reading as a timestamp, against chrono's calendar, over 1970..=9999.
#[cfg(feature = "std")]
proptest! {
    #[test]
    fn clock_readings_become_the_timestamps_chrono_reads(
        secs in 0i64..=253_402_300_799,
        nanos in 0u32..1_000_000_000,
    ) {
        use fix_core::value::{Precision, UtcTimestamp};
        let t = std::time::UNIX_EPOCH + std::time::Duration::new(secs as u64, nanos);
        let ours = UtcTimestamp::from_system_time(t, Precision::Millis).unwrap();
        let theirs = DateTime::from_timestamp(secs, nanos).unwrap();
        let expected = format!(
            "{}.{:03}",
            theirs.format("%Y%m%d-%H:%M:%S"),
            nanos / 1_000_000
        );
        prop_assert_eq!(ours.to_string(), expected);
        let nanos_kept = UtcTimestamp::from_system_time(t, Precision::Nanos).unwrap();
        prop_assert_eq!(nanos_kept.time().nanos(), nanos);
    }
}

#[cfg(feature = "std")]
#[test]
fn clock_readings_outside_the_four_digit_years_have_no_timestamp() {
    use fix_core::value::{Precision, UtcTimestamp};
    let past_9999 = std::time::UNIX_EPOCH + std::time::Duration::from_secs(253_402_300_800);
    assert_eq!(
        UtcTimestamp::from_system_time(past_9999, Precision::Millis),
        None
    );
    let before_1970 = std::time::UNIX_EPOCH - std::time::Duration::from_secs(1);
    assert_eq!(
        UtcTimestamp::from_system_time(before_1970, Precision::Millis),
        None
    );
    let now = UtcTimestamp::now();
    assert!(now.date().year() >= 2026, "{now}");
}
