//! Schedules: which instants are inside a period, where periods start and end,
//! and when a session starts afresh, against QuickFIX/J's rules.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_engine::config::{Schedule, TimeOfDay, UtcOffset, Weekday, Zone};

/// 1970-01-04, a Sunday, plus `days` days and `hh:mm:ss`.
fn at(days: u64, hh: u64, mm: u64, ss: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs((3 + days) * 86_400 + hh * 3600 + mm * 60 + ss)
}

fn t(hh: u32, mm: u32, ss: u32) -> TimeOfDay {
    TimeOfDay::new(hh, mm, ss).unwrap()
}

#[test]
fn daily_from_start_to_end_both_included() {
    let s = Schedule::daily(t(9, 0, 0), t(17, 0, 0));
    assert!(!s.is_active(at(1, 8, 59, 59)));
    assert!(s.is_active(at(1, 9, 0, 0)));
    assert!(s.is_active(at(1, 17, 0, 0)));
    assert!(!s.is_active(at(1, 17, 0, 0) + Duration::from_millis(1)));
    let p = s.period_at(at(1, 12, 0, 0)).unwrap();
    assert_eq!((p.start, p.end), (at(1, 9, 0, 0), at(1, 17, 0, 0)));
    assert!(s.same_period(at(1, 9, 0, 0), at(1, 17, 0, 0)));
    assert!(!s.same_period(at(1, 10, 0, 0), at(2, 10, 0, 0)));
    assert!(!s.same_period(at(1, 10, 0, 0), at(1, 18, 0, 0)));
    assert_eq!(s.next_start(at(1, 12, 0, 0)), Some(at(2, 9, 0, 0)));
    assert_eq!(s.next_start(at(1, 8, 0, 0)), Some(at(1, 9, 0, 0)));
}

#[test]
fn overnight_and_24_hour_periods() {
    let night = Schedule::daily(t(22, 0, 0), t(6, 0, 0));
    let p = night.period_at(at(1, 3, 0, 0)).unwrap();
    assert_eq!((p.start, p.end), (at(0, 22, 0, 0), at(1, 6, 0, 0)));
    assert!(night.same_period(at(0, 23, 0, 0), at(1, 5, 0, 0)));
    assert!(!night.is_active(at(1, 12, 0, 0)));

    // StartTime = EndTime: always active, a new session every day at that time.
    let day = Schedule::daily(t(5, 0, 0), t(5, 0, 0));
    assert!(day.is_active(at(1, 4, 59, 59)) && day.is_active(at(1, 5, 0, 0)));
    assert!(day.same_period(at(1, 5, 0, 0), at(2, 4, 59, 59)));
    assert!(!day.same_period(at(1, 4, 59, 59), at(1, 5, 0, 0)));
    assert_eq!(day.period_at(at(1, 5, 0, 0)).unwrap().end, at(2, 5, 0, 0));
}

#[test]
fn weekly_periods() {
    // Sunday 18:00 to Friday 17:00.
    let s = Schedule::weekly(Weekday::Sunday, t(18, 0, 0), Weekday::Friday, t(17, 0, 0));
    assert!(!s.is_active(at(0, 17, 59, 59)));
    assert!(s.is_active(at(0, 18, 0, 0)));
    assert!(s.is_active(at(3, 3, 0, 0)));
    assert!(s.is_active(at(5, 17, 0, 0)));
    assert!(!s.is_active(at(5, 17, 0, 1)));
    assert!(!s.is_active(at(6, 12, 0, 0)));
    assert!(s.same_period(at(1, 0, 0, 0), at(5, 0, 0, 0)));
    assert!(!s.same_period(at(1, 0, 0, 0), at(8, 0, 0, 0)));
    assert_eq!(s.next_start(at(3, 0, 0, 0)), Some(at(7, 18, 0, 0)));
    // Friday to Monday wraps the week's end.
    let weekend = Schedule::weekly(Weekday::Friday, t(20, 0, 0), Weekday::Monday, t(4, 0, 0));
    assert!(weekend.is_active(at(6, 12, 0, 0)) && weekend.is_active(at(1, 3, 0, 0)));
    assert!(!weekend.is_active(at(3, 12, 0, 0)));
    // One day, start before end: that day's hours each week (QuickFIX/J).
    let monday = Schedule::weekly(Weekday::Monday, t(9, 0, 0), Weekday::Monday, t(17, 0, 0));
    assert!(monday.is_active(at(1, 12, 0, 0)) && !monday.is_active(at(2, 12, 0, 0)));
    // One day, one time: a whole week.
    let week = Schedule::weekly(Weekday::Monday, t(9, 0, 0), Weekday::Monday, t(9, 0, 0));
    assert!(week.is_active(at(4, 0, 0, 0)));
    assert_eq!(week.period_at(at(4, 0, 0, 0)).unwrap().end, at(8, 9, 0, 0));
}

#[test]
fn weekdays_periods_start_on_the_listed_days() {
    let s = Schedule::on_weekdays(
        t(22, 0, 0),
        t(6, 0, 0),
        &[Weekday::Monday, Weekday::Tuesday],
    )
    .unwrap();
    assert!(s.is_active(at(1, 23, 0, 0)), "Monday night");
    assert!(s.is_active(at(2, 5, 0, 0)), "into Tuesday morning");
    assert!(s.is_active(at(3, 5, 0, 0)), "Tuesday night into Wednesday");
    assert!(!s.is_active(at(3, 23, 0, 0)), "Wednesday night");
    assert_eq!(s.next_start(at(3, 12, 0, 0)), Some(at(8, 22, 0, 0)));
    assert!(Schedule::on_weekdays(t(1, 0, 0), t(2, 0, 0), &[]).is_none());
}

#[test]
fn zones_shift_times_and_days() {
    // 09:00 to 17:00 at UTC-05:00 is 14:00 to 22:00 UTC.
    let s = Schedule::daily(t(9, 0, 0), t(17, 0, 0)).in_zone(UtcOffset::parse("-05:00").unwrap());
    assert!(!s.is_active(at(1, 13, 59, 59)) && s.is_active(at(1, 14, 0, 0)));
    assert!(s.is_active(at(1, 22, 0, 0)) && !s.is_active(at(1, 22, 0, 1)));
    // Monday 00:00 at +09:00 is Sunday 15:00 UTC.
    let w = Schedule::weekly(Weekday::Monday, t(0, 0, 0), Weekday::Monday, t(1, 0, 0))
        .in_zone(UtcOffset::parse("+09").unwrap());
    assert!(w.is_active(at(0, 15, 30, 0)) && !w.is_active(at(1, 0, 30, 0)));
}

#[test]
fn non_stop_never_resets() {
    let s = Schedule::non_stop();
    assert!(s.is_active(UNIX_EPOCH) && s.same_period(UNIX_EPOCH, at(5000, 0, 0, 0)));
    assert_eq!(
        (s.period_at(UNIX_EPOCH), s.next_start(UNIX_EPOCH)),
        (None, None)
    );
}

#[test]
fn times_before_the_epoch_and_far_ahead() {
    let s = Schedule::daily(t(9, 0, 0), t(17, 0, 0));
    let before = UNIX_EPOCH - Duration::from_secs(86_400 - 10 * 3600); // 1969-12-31 10:00
    assert!(s.is_active(before));
    assert_eq!(
        s.period_at(before).unwrap().start,
        UNIX_EPOCH - Duration::from_secs(86_400 - 9 * 3600)
    );
    let far = UNIX_EPOCH + Duration::from_secs(250_000 * 365 * 86_400);
    let _ = (s.is_active(far), s.next_start(far));
}

#[test]
fn parsing_times_days_and_zones() {
    assert_eq!(TimeOfDay::parse("23:59:59"), TimeOfDay::new(23, 59, 59));
    for bad in [
        "",
        "1:00:00",
        "12:00",
        "12:00:60",
        "12-00-00",
        "ab:cd:ef",
        "12:00:00 ",
    ] {
        assert_eq!(TimeOfDay::parse(bad), None, "{bad}");
    }
    for (text, day) in [
        ("su", Weekday::Sunday),
        ("TUE", Weekday::Tuesday),
        ("wednesday", Weekday::Wednesday),
        ("sat", Weekday::Saturday),
    ] {
        assert_eq!(Weekday::parse(text), Some(day));
    }
    for bad in ["", "s", "t", "Tu2", "Mondays", "xx"] {
        assert_eq!(Weekday::parse(bad), None, "{bad}");
    }
    for (text, secs) in [
        ("UTC", 0),
        ("gmt", 0),
        ("Z", 0),
        ("+05:30", 19_800),
        ("-0800", -28_800),
        ("UTC-3", -10_800),
        ("+18:00", 64_800),
    ] {
        assert_eq!(
            UtcOffset::parse(text).map(UtcOffset::seconds),
            Some(secs),
            "{text}"
        );
    }
    for bad in [
        "",
        "+",
        "UTC+",
        "+1:00",
        "+12:60",
        "+19",
        "+123",
        "EST",
        "Europe/Paris",
        "+05:30x",
    ] {
        assert_eq!(UtcOffset::parse(bad), None, "{bad}");
    }
    assert_eq!(UtcOffset::parse("-05:00").unwrap().to_string(), "-05:00");
}

/// `secs` (UTC midnight of a day, from the epoch) plus `hh:mm` UTC.
fn utc(midnight: u64, hh: u64, mm: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(midnight + hh * 3600 + mm * 60)
}

// UTC midnights of 2026 days (calendar.timegm), around New York's change to
// daylight saving time at 02:00 on Sunday 2026-03-08 (UTC-05:00 to UTC-04:00)
// and back at 02:00 on Sunday 2026-11-01.
const MAR_06: u64 = 1_772_755_200;
const MAR_07: u64 = 1_772_755_200 + 86_400;
const MAR_08: u64 = 1_772_928_000;
const MAR_09: u64 = 1_773_014_400;
const MAR_11: u64 = 1_773_187_200;
const MAR_13: u64 = 1_773_360_000;
const NOV_01: u64 = 1_793_491_200;
const NOV_02: u64 = NOV_01 + 86_400;

#[test]
fn a_named_zone_follows_its_daylight_saving_rules() {
    let ny = Zone::parse("America/New_York").unwrap();
    let s = Schedule::daily(t(9, 0, 0), t(17, 0, 0)).in_zone(ny.clone());
    // Friday: 09:00 EST is 14:00 UTC; Monday: 09:00 EDT is 13:00 UTC.
    let friday = s.period_at(utc(MAR_06, 15, 0)).unwrap();
    assert_eq!(
        (friday.start, friday.end),
        (utc(MAR_06, 14, 0), utc(MAR_06, 22, 0))
    );
    let monday = s.period_at(utc(MAR_09, 15, 0)).unwrap();
    assert_eq!(
        (monday.start, monday.end),
        (utc(MAR_09, 13, 0), utc(MAR_09, 21, 0))
    );
    assert!(!s.is_active(utc(MAR_09, 12, 59)) && s.is_active(utc(MAR_09, 13, 0)));
    // From Saturday afternoon, the next start is Sunday's 09:00, already EDT.
    assert_eq!(s.next_start(utc(MAR_07, 18, 0)), Some(utc(MAR_08, 13, 0)));
    // And back in November: Sunday 09:00 EST is 14:00 UTC again.
    assert_eq!(s.next_start(utc(NOV_01, 3, 0)), Some(utc(NOV_01, 14, 0)));
    assert!(!s.same_period(utc(NOV_01, 15, 0), utc(NOV_02, 15, 0)));

    // An FX week, Sunday 17:00 to Friday 17:00 New York time, across the change.
    let week = Schedule::weekly(Weekday::Sunday, t(17, 0, 0), Weekday::Friday, t(17, 0, 0))
        .in_zone(ny.clone());
    let p = week.period_at(utc(MAR_11, 12, 0)).unwrap();
    assert_eq!((p.start, p.end), (utc(MAR_08, 21, 0), utc(MAR_13, 21, 0)));
    assert!(!week.is_active(utc(MAR_07, 12, 0)), "Saturday");

    // 02:30 does not exist on 2026-03-08 in New York: the period starts at
    // 03:30 EDT (07:30 UTC), the instant after the gap, as a clock that jumps
    // would show; 01:30 happens twice on 2026-11-01: the first one (EDT) counts.
    let gap = Schedule::daily(t(2, 30, 0), t(4, 0, 0)).in_zone(ny.clone());
    assert_eq!(gap.next_start(utc(MAR_08, 0, 0)), Some(utc(MAR_08, 7, 30)));
    let fold = Schedule::daily(t(1, 30, 0), t(4, 0, 0)).in_zone(ny);
    assert_eq!(fold.next_start(utc(NOV_01, 0, 0)), Some(utc(NOV_01, 5, 30)));
}

#[test]
fn zones_by_name_and_by_offset() {
    let london = Zone::parse("Europe/London").unwrap();
    assert_eq!(london.name(), Some("Europe/London"));
    assert_eq!(london.to_string(), "Europe/London");
    // British Summer Time starts at 01:00 UTC on 2026-03-29.
    let mar_29 = 1_774_742_400;
    assert_eq!(london.offset_at(utc(mar_29, 0, 59)).seconds(), 0);
    assert_eq!(london.offset_at(utc(mar_29, 1, 0)).seconds(), 3600);
    assert_eq!(
        Zone::parse("-05:00").unwrap(),
        Zone::from(UtcOffset::parse("-05:00").unwrap())
    );
    assert_eq!(Zone::parse("GMT").unwrap(), Zone::UTC);
    for bad in ["America/Nowhere", "", "+25:00", "EST5EDT,M3.2.0"] {
        let e = Zone::parse(bad).unwrap_err();
        assert_eq!(e.text(), bad);
    }
}
