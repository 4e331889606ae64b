//! When a session is active: QuickFIX's StartTime, EndTime, StartDay, EndDay,
//! Weekdays, NonStopSession, TimeZone and UseLocalTime as a [`Schedule`].
//!
//! The rules are QuickFIX/J's: a period starts at StartTime (on StartDay, for a
//! weekly schedule; on one of the Weekdays, when they are given) and ends at the
//! first EndTime (on EndDay) after that, both ends included; StartTime equal to
//! EndTime is a 24-hour (or, weekly on one day, a 7-day) period. A session is
//! active only inside a period, and a new period starts a new session: the
//! sequence numbers are reset when a session's store was created in an earlier
//! period.

use std::fmt;
use std::time::{Duration, SystemTime};

const DAY: i64 = 86_400;
const WEEK: i64 = 7 * DAY;

/// A time of day, to the second, as HH:MM:SS.
///
/// ```
/// use fix_engine::config::TimeOfDay;
/// let t = TimeOfDay::new(13, 30, 5).unwrap();
/// assert_eq!((t.to_string(), t.seconds()), ("13:30:05".to_string(), 48_605));
/// assert!(TimeOfDay::new(24, 0, 0).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TimeOfDay(u32);

impl TimeOfDay {
    /// Midnight.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::TimeOfDay::MIDNIGHT.seconds(), 0);
    /// ```
    pub const MIDNIGHT: TimeOfDay = TimeOfDay(0);

    /// `hour`:`minute`:`second`, or `None` past 23:59:59.
    ///
    /// ```
    /// assert!(fix_engine::config::TimeOfDay::new(23, 59, 59).is_some());
    /// assert!(fix_engine::config::TimeOfDay::new(12, 60, 0).is_none());
    /// ```
    pub const fn new(hour: u32, minute: u32, second: u32) -> Option<TimeOfDay> {
        if hour < 24 && minute < 60 && second < 60 {
            Some(TimeOfDay(hour * 3600 + minute * 60 + second))
        } else {
            None
        }
    }

    /// Seconds since midnight.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::TimeOfDay::new(0, 1, 1).unwrap().seconds(), 61);
    /// ```
    pub const fn seconds(self) -> u32 {
        self.0
    }

    /// Parses QuickFIX's `HH:MM:SS` (two digits each).
    ///
    /// ```
    /// use fix_engine::config::TimeOfDay;
    /// assert_eq!(TimeOfDay::parse("08:00:00"), TimeOfDay::new(8, 0, 0));
    /// assert_eq!(TimeOfDay::parse("8:00:00"), None);
    /// ```
    pub fn parse(text: &str) -> Option<TimeOfDay> {
        let b = text.as_bytes();
        if b.len() != 8 || b[2] != b':' || b[5] != b':' {
            return None;
        }
        let two = |i: usize| -> Option<u32> {
            let (h, l) = (b[i], b[i + 1]);
            (h.is_ascii_digit() && l.is_ascii_digit())
                .then(|| u32::from(h - b'0') * 10 + u32::from(l - b'0'))
        };
        TimeOfDay::new(two(0)?, two(3)?, two(6)?)
    }
}

impl fmt::Display for TimeOfDay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        write!(f, "{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    }
}

/// A day of the week.
///
/// ```
/// use fix_engine::config::Weekday;
/// assert_eq!(Weekday::parse("mon"), Some(Weekday::Monday));
/// assert_eq!(Weekday::parse("Thursday"), Some(Weekday::Thursday));
/// assert_eq!(Weekday::parse("T"), None); // Tuesday or Thursday?
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Weekday {
    /// Sunday, the first day of QuickFIX's week.
    Sunday,
    /// Monday.
    Monday,
    /// Tuesday.
    Tuesday,
    /// Wednesday.
    Wednesday,
    /// Thursday.
    Thursday,
    /// Friday.
    Friday,
    /// Saturday.
    Saturday,
}

impl Weekday {
    const ALL: [Weekday; 7] = [
        Weekday::Sunday,
        Weekday::Monday,
        Weekday::Tuesday,
        Weekday::Wednesday,
        Weekday::Thursday,
        Weekday::Friday,
        Weekday::Saturday,
    ];

    /// The English name.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::Weekday::Friday.name(), "Friday");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Weekday::Sunday => "Sunday",
            Weekday::Monday => "Monday",
            Weekday::Tuesday => "Tuesday",
            Weekday::Wednesday => "Wednesday",
            Weekday::Thursday => "Thursday",
            Weekday::Friday => "Friday",
            Weekday::Saturday => "Saturday",
        }
    }

    /// The English name or its first two letters or more, in any case: QuickFIX
    /// tells the days by their first two letters, QuickFIX/J takes names and
    /// abbreviations.
    ///
    /// ```
    /// use fix_engine::config::Weekday;
    /// assert_eq!(Weekday::parse("SU"), Some(Weekday::Sunday));
    /// assert_eq!(Weekday::parse("Sundays"), None);
    /// ```
    pub fn parse(text: &str) -> Option<Weekday> {
        if text.len() < 2 {
            return None;
        }
        Weekday::ALL.into_iter().find(|d| {
            d.name()
                .get(..text.len())
                .is_some_and(|prefix| prefix.eq_ignore_ascii_case(text))
        })
    }

    /// Days since Sunday.
    const fn index(self) -> i64 {
        self as i64
    }

    /// The weekday of day `day` counted from 1970-01-01 (a Thursday).
    fn of_day(day: i64) -> Weekday {
        Weekday::ALL[(day + 4).rem_euclid(7) as usize]
    }
}

impl fmt::Display for Weekday {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A fixed offset from UTC (a [`Zone`] without daylight-saving rules).
///
/// ```
/// use fix_engine::config::UtcOffset;
/// assert_eq!(UtcOffset::parse("UTC"), Some(UtcOffset::UTC));
/// assert_eq!(UtcOffset::parse("-05:00").unwrap().seconds(), -5 * 3600);
/// assert_eq!(UtcOffset::parse("GMT+0530").unwrap().to_string(), "+05:30");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct UtcOffset(i32);

impl UtcOffset {
    /// UTC itself, QuickFIX's default.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::UtcOffset::UTC.seconds(), 0);
    /// ```
    pub const UTC: UtcOffset = UtcOffset(0);

    /// An offset of `seconds` east of UTC, at most 18 hours either way.
    ///
    /// ```
    /// use fix_engine::config::UtcOffset;
    /// assert!(UtcOffset::from_seconds(3600).is_some());
    /// assert!(UtcOffset::from_seconds(19 * 3600).is_none());
    /// ```
    pub const fn from_seconds(seconds: i32) -> Option<UtcOffset> {
        if seconds.abs() <= 18 * 3600 {
            Some(UtcOffset(seconds))
        } else {
            None
        }
    }

    /// Seconds east of UTC.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::UtcOffset::parse("+01").unwrap().seconds(), 3600);
    /// ```
    pub const fn seconds(self) -> i32 {
        self.0
    }

    /// `UTC`, `GMT` or `Z`, or an offset `±HH`, `±HH:MM` or `±HHMM`, alone or
    /// after `UTC` or `GMT` (`UTC+01:00`, Java's `GMT-05:00`).
    ///
    /// ```
    /// use fix_engine::config::UtcOffset;
    /// assert_eq!(UtcOffset::parse("UTC+2").unwrap().seconds(), 7200);
    /// assert_eq!(UtcOffset::parse("Europe/London"), None);
    /// ```
    pub fn parse(text: &str) -> Option<UtcOffset> {
        let rest = ["UTC", "GMT"]
            .iter()
            .find_map(|p| {
                text.get(..3)
                    .filter(|h| h.eq_ignore_ascii_case(p))
                    .map(|_| &text[3..])
            })
            .unwrap_or(text);
        if rest.is_empty() && !text.is_empty() || text == "Z" {
            return Some(UtcOffset::UTC);
        }
        let (sign, digits) = match rest.as_bytes().first()? {
            b'+' => (1, &rest[1..]),
            b'-' => (-1, &rest[1..]),
            _ => return None,
        };
        let number = |s: &str| -> Option<i32> {
            (!s.is_empty() && s.len() <= 2 && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let (hours, minutes) = match digits.len() {
            1 | 2 => (number(digits)?, 0),
            4 => (number(&digits[..2])?, number(&digits[2..])?),
            5 if digits.as_bytes()[2] == b':' => (number(&digits[..2])?, number(&digits[3..])?),
            _ => return None,
        };
        if minutes >= 60 {
            return None;
        }
        UtcOffset::from_seconds(sign * (hours * 3600 + minutes * 60))
    }
}

impl fmt::Display for UtcOffset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { '-' } else { '+' };
        let s = self.0.unsigned_abs();
        write!(f, "{sign}{:02}:{:02}", s / 3600, s / 60 % 60)
    }
}

/// The time zone a schedule's days and times are in: UTC, a fixed offset, or a
/// zone of the IANA time zone database (`America/New_York`), whose offset
/// follows its daylight-saving rules, as QuickFIX/J's `TimeZone` does.
///
/// Named zones are read from the machine's database (`/usr/share/zoneinfo`),
/// or from a copy built into the engine where the machine has none.
///
/// ```
/// use fix_engine::config::{UtcOffset, Zone};
/// use std::time::{Duration, UNIX_EPOCH};
/// let new_york = Zone::parse("America/New_York")?;
/// let january = UNIX_EPOCH + Duration::from_secs(1_767_268_800); // 2026-01-01 12:00 UTC
/// let july = UNIX_EPOCH + Duration::from_secs(1_782_907_200); // 2026-07-01 12:00 UTC
/// assert_eq!(new_york.offset_at(january).seconds(), -5 * 3600);
/// assert_eq!(new_york.offset_at(july).seconds(), -4 * 3600);
/// assert_eq!(Zone::parse("+09:00")?, Zone::from(UtcOffset::from_seconds(9 * 3600).unwrap()));
/// assert!(Zone::parse("Mars/Olympus_Mons").is_err());
/// # Ok::<(), fix_engine::config::ZoneError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone(ZoneKind);

#[derive(Clone, Debug, PartialEq, Eq)]
enum ZoneKind {
    Fixed(UtcOffset),
    Named(jiff::tz::TimeZone),
}

impl Zone {
    /// UTC, QuickFIX's default.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::Zone::UTC.to_string(), "+00:00");
    /// ```
    pub const UTC: Zone = Zone(ZoneKind::Fixed(UtcOffset::UTC));

    /// A zone at `offset` all year.
    ///
    /// ```
    /// use fix_engine::config::{UtcOffset, Zone};
    /// let tokyo = Zone::fixed(UtcOffset::from_seconds(9 * 3600).unwrap());
    /// assert_eq!(tokyo.offset_at(std::time::UNIX_EPOCH).seconds(), 9 * 3600);
    /// ```
    pub const fn fixed(offset: UtcOffset) -> Zone {
        Zone(ZoneKind::Fixed(offset))
    }

    /// The zone of the IANA time zone database named `name`.
    ///
    /// ```
    /// use fix_engine::config::Zone;
    /// assert_eq!(Zone::named("Europe/London")?.name(), Some("Europe/London"));
    /// assert!(Zone::named("-05:00").is_err()); // an offset, not a name: see Zone::parse
    /// # Ok::<(), fix_engine::config::ZoneError>(())
    /// ```
    pub fn named(name: &str) -> Result<Zone, ZoneError> {
        jiff::tz::TimeZone::get(name)
            .map(|tz| Zone(ZoneKind::Named(tz)))
            .map_err(|e| ZoneError {
                text: name.to_owned(),
                reason: e.to_string(),
            })
    }

    /// The machine's own zone (QuickFIX's `UseLocalTime=Y`): the `TZ`
    /// environment variable, else `/etc/localtime`.
    ///
    /// ```
    /// let here = fix_engine::config::Zone::local()?;
    /// let _ = here.offset_at(std::time::SystemTime::now());
    /// # Ok::<(), fix_engine::config::ZoneError>(())
    /// ```
    pub fn local() -> Result<Zone, ZoneError> {
        jiff::tz::TimeZone::try_system()
            .map(|tz| match tz.iana_name() {
                // A zone without rules is a fixed offset: keep it comparable.
                Some("UTC" | "Etc/UTC") => Zone::UTC,
                _ => Zone(ZoneKind::Named(tz)),
            })
            .map_err(|e| ZoneError {
                text: "the machine's time zone".to_owned(),
                reason: e.to_string(),
            })
    }

    /// An offset in [`UtcOffset::parse`]'s forms (`UTC`, `-05:00`, `GMT+01:00`),
    /// or else a zone name.
    ///
    /// ```
    /// use fix_engine::config::Zone;
    /// assert_eq!(Zone::parse("UTC")?, Zone::UTC);
    /// assert_eq!(Zone::parse("Asia/Tokyo")?.name(), Some("Asia/Tokyo"));
    /// # Ok::<(), fix_engine::config::ZoneError>(())
    /// ```
    pub fn parse(text: &str) -> Result<Zone, ZoneError> {
        match UtcOffset::parse(text) {
            Some(offset) => Ok(Zone::fixed(offset)),
            None => Zone::named(text),
        }
    }

    /// The zone's name in the IANA database, `None` for a fixed offset.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::Zone::UTC.name(), None);
    /// ```
    pub fn name(&self) -> Option<&str> {
        match &self.0 {
            ZoneKind::Fixed(_) => None,
            ZoneKind::Named(tz) => tz.iana_name(),
        }
    }

    /// The zone's offset from UTC at `t`.
    ///
    /// ```
    /// use fix_engine::config::Zone;
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let summer = UNIX_EPOCH + Duration::from_secs(1_782_907_200); // 2026-07-01 12:00 UTC
    /// assert_eq!(Zone::parse("Europe/Paris")?.offset_at(summer).seconds(), 2 * 3600);
    /// # Ok::<(), fix_engine::config::ZoneError>(())
    /// ```
    pub fn offset_at(&self, t: SystemTime) -> UtcOffset {
        let secs = nanos_since_epoch(t).div_euclid(1_000_000_000);
        UtcOffset(self.offset_secs(i64::try_from(secs).unwrap_or(i64::MAX)))
    }

    /// Seconds east of UTC at UTC second `utc`.
    fn offset_secs(&self, utc: i64) -> i32 {
        match &self.0 {
            ZoneKind::Fixed(offset) => offset.0,
            ZoneKind::Named(tz) => {
                let clamped = utc.clamp(
                    jiff::Timestamp::MIN.as_second(),
                    jiff::Timestamp::MAX.as_second(),
                );
                match jiff::Timestamp::from_second(clamped) {
                    Ok(ts) => tz.to_offset(ts).seconds(),
                    Err(_) => 0,
                }
            }
        }
    }

    /// The UTC second of local wall-clock second `local`: in a gap (clocks
    /// moved forward) the time after it, in a fold (moved back) the first of
    /// the two, as QuickFIX/J reads a schedule's times.
    fn to_utc(&self, local: i64) -> Option<i64> {
        match &self.0 {
            ZoneKind::Fixed(offset) => local.checked_sub(i64::from(offset.0)),
            ZoneKind::Named(tz) => {
                let wall =
                    jiff::tz::Offset::UTC.to_datetime(jiff::Timestamp::from_second(local).ok()?);
                let utc = tz.to_ambiguous_timestamp(wall).compatible().ok()?;
                Some(utc.as_second())
            }
        }
    }
}

impl From<UtcOffset> for Zone {
    fn from(offset: UtcOffset) -> Zone {
        Zone::fixed(offset)
    }
}

impl fmt::Display for Zone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.0, self.name()) {
            (_, Some(name)) => f.write_str(name),
            (ZoneKind::Fixed(offset), None) => offset.fmt(f),
            (ZoneKind::Named(_), None) => f.write_str("the machine's time zone"),
        }
    }
}

/// A time zone that could not be found: the text given and why.
///
/// ```
/// let e = fix_engine::config::Zone::parse("Nowhere/Special").unwrap_err();
/// assert_eq!(e.text(), "Nowhere/Special");
/// assert!(e.to_string().starts_with("Nowhere/Special: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneError {
    text: String,
    reason: String,
}

impl ZoneError {
    /// The zone's name as given.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::Zone::named("X/Y").unwrap_err().text(), "X/Y");
    /// ```
    pub fn text(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for ZoneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.text, self.reason)
    }
}

impl std::error::Error for ZoneError {}

/// One period of a schedule: from `start` to `end`, both included.
///
/// ```
/// use fix_engine::config::{Schedule, TimeOfDay};
/// use std::time::{Duration, UNIX_EPOCH};
/// let nine = TimeOfDay::new(9, 0, 0).unwrap();
/// let five = TimeOfDay::new(17, 0, 0).unwrap();
/// let noon = UNIX_EPOCH + Duration::from_secs(12 * 3600);
/// let period = Schedule::daily(nine, five).period_at(noon).unwrap();
/// assert_eq!(period.end.duration_since(period.start).unwrap().as_secs(), 8 * 3600);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// When the period starts (StartTime).
    pub start: SystemTime,
    /// When it ends (EndTime), included.
    pub end: SystemTime,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    NonStop,
    /// Every day (or the listed days, Sunday first) from `start` to `end`.
    Daily {
        start: TimeOfDay,
        end: TimeOfDay,
        days: Option<[bool; 7]>,
    },
    Weekly {
        start_day: Weekday,
        start: TimeOfDay,
        end_day: Weekday,
        end: TimeOfDay,
    },
}

/// When a session is active, and where its periods start and end.
///
/// ```
/// use fix_engine::config::{Schedule, TimeOfDay, UtcOffset, Weekday};
/// use std::time::{Duration, UNIX_EPOCH};
///
/// // Sunday 18:00 to Friday 17:00, New York standard time all year.
/// let week = Schedule::weekly(
///     Weekday::Sunday, TimeOfDay::new(18, 0, 0).unwrap(),
///     Weekday::Friday, TimeOfDay::new(17, 0, 0).unwrap(),
/// )
/// .in_zone(UtcOffset::parse("-05:00").unwrap());
/// let saturday_noon_utc = UNIX_EPOCH + Duration::from_secs(2 * 86_400 + 12 * 3600); // 1970-01-03
/// assert!(!week.is_active(saturday_noon_utc));
/// let monday = saturday_noon_utc + Duration::from_secs(2 * 86_400);
/// assert!(week.is_active(monday));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    kind: Kind,
    zone: Zone,
}

/// The schedule in words, as `fixcfg check` prints it.
///
/// ```
/// use fix_engine::config::{Schedule, TimeOfDay, Weekday};
/// let nine = TimeOfDay::new(9, 0, 0).unwrap();
/// let five = TimeOfDay::new(17, 0, 0).unwrap();
/// assert_eq!(Schedule::non_stop().to_string(), "non-stop");
/// assert_eq!(Schedule::daily(nine, five).to_string(), "daily 09:00:00 to 17:00:00 +00:00");
/// let days = Schedule::on_weekdays(nine, five, &[Weekday::Monday, Weekday::Friday]).unwrap();
/// assert_eq!(days.to_string(), "Monday, Friday 09:00:00 to 17:00:00 +00:00");
/// let week = Schedule::weekly(Weekday::Sunday, nine, Weekday::Friday, five);
/// assert_eq!(week.to_string(), "weekly Sunday 09:00:00 to Friday 17:00:00 +00:00");
/// ```
impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            Kind::NonStop => return f.write_str("non-stop"),
            Kind::Daily {
                start,
                end,
                days: None,
            } => write!(f, "daily {start} to {end}")?,
            Kind::Daily {
                start,
                end,
                days: Some(days),
            } => {
                let mut first = true;
                for (day, on) in Weekday::ALL.iter().zip(days) {
                    if *on {
                        if !first {
                            f.write_str(", ")?;
                        }
                        first = false;
                        write!(f, "{day}")?;
                    }
                }
                write!(f, " {start} to {end}")?;
            }
            Kind::Weekly {
                start_day,
                start,
                end_day,
                end,
            } => write!(f, "weekly {start_day} {start} to {end_day} {end}")?,
        }
        write!(f, " {}", self.zone)
    }
}

impl Schedule {
    /// Always active, one period that never ends: QuickFIX/J's
    /// `NonStopSession=Y`; the sequence numbers are never reset by the schedule.
    ///
    /// ```
    /// use std::time::UNIX_EPOCH;
    /// let s = fix_engine::config::Schedule::non_stop();
    /// assert!(s.is_active(UNIX_EPOCH) && s.next_start(UNIX_EPOCH).is_none());
    /// ```
    pub const fn non_stop() -> Schedule {
        Schedule {
            kind: Kind::NonStop,
            zone: Zone::UTC,
        }
    }

    /// Every day from `start` to `end` (overnight when `end` is earlier; 24 hours
    /// from `start` when they are equal).
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let night = Schedule::daily(TimeOfDay::new(22, 0, 0).unwrap(), TimeOfDay::new(2, 0, 0).unwrap());
    /// assert!(night.is_active(UNIX_EPOCH + Duration::from_secs(3600)));       // 01:00
    /// assert!(!night.is_active(UNIX_EPOCH + Duration::from_secs(12 * 3600))); // 12:00
    /// ```
    pub const fn daily(start: TimeOfDay, end: TimeOfDay) -> Schedule {
        Schedule {
            kind: Kind::Daily {
                start,
                end,
                days: None,
            },
            zone: Zone::UTC,
        }
    }

    /// Like [`daily`](Self::daily), but only periods starting on `days` (QuickFIX/J's
    /// `Weekdays`); `None` when `days` is empty.
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay, Weekday::*};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let (nine, five) = (TimeOfDay::new(9, 0, 0).unwrap(), TimeOfDay::new(17, 0, 0).unwrap());
    /// let s = Schedule::on_weekdays(nine, five, &[Monday, Tuesday, Wednesday, Thursday, Friday]).unwrap();
    /// let thursday_noon = UNIX_EPOCH + Duration::from_secs(12 * 3600); // 1970-01-01
    /// assert!(s.is_active(thursday_noon));
    /// assert!(!s.is_active(thursday_noon + Duration::from_secs(2 * 86_400))); // Saturday
    /// ```
    pub fn on_weekdays(start: TimeOfDay, end: TimeOfDay, days: &[Weekday]) -> Option<Schedule> {
        let mut set = [false; 7];
        for d in days {
            set[d.index() as usize] = true;
        }
        (!days.is_empty()).then_some(Schedule {
            kind: Kind::Daily {
                start,
                end,
                days: Some(set),
            },
            zone: Zone::UTC,
        })
    }

    /// Once a week, from `start` on `start_day` to the first `end` on `end_day`
    /// after it (a whole week when both days and both times are the same).
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay, Weekday};
    /// let s = Schedule::weekly(Weekday::Monday, TimeOfDay::MIDNIGHT, Weekday::Friday, TimeOfDay::MIDNIGHT);
    /// assert!(s.next_start(std::time::UNIX_EPOCH).is_some());
    /// ```
    pub const fn weekly(
        start_day: Weekday,
        start: TimeOfDay,
        end_day: Weekday,
        end: TimeOfDay,
    ) -> Schedule {
        Schedule {
            kind: Kind::Weekly {
                start_day,
                start,
                end_day,
                end,
            },
            zone: Zone::UTC,
        }
    }

    /// The same schedule, its times and days in `zone` rather than UTC
    /// (QuickFIX/J's `TimeZone`): a named zone's periods follow its clocks
    /// across daylight-saving changes.
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay, Zone};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let (nine, five) = (TimeOfDay::new(9, 0, 0).unwrap(), TimeOfDay::new(17, 0, 0).unwrap());
    /// let s = Schedule::daily(nine, five).in_zone(Zone::parse("America/New_York")?);
    /// let utc = |secs| UNIX_EPOCH + Duration::from_secs(secs);
    /// let (january, july) = (1_767_225_600, 1_782_864_000); // 2026-01-01, 2026-07-01, 00:00 UTC
    /// // 09:00 in New York is 14:00 UTC in January and 13:00 UTC in July.
    /// assert_eq!(s.period_at(utc(january + 16 * 3600)).unwrap().start, utc(january + 14 * 3600));
    /// assert_eq!(s.period_at(utc(july + 16 * 3600)).unwrap().start, utc(july + 13 * 3600));
    /// # Ok::<(), fix_engine::config::ZoneError>(())
    /// ```
    pub fn in_zone(self, zone: impl Into<Zone>) -> Schedule {
        Schedule {
            zone: zone.into(),
            ..self
        }
    }

    /// The zone the schedule's times are in.
    ///
    /// ```
    /// assert_eq!(fix_engine::config::Schedule::non_stop().zone(), &fix_engine::config::Zone::UTC);
    /// ```
    pub const fn zone(&self) -> &Zone {
        &self.zone
    }

    /// Whether this is [`Schedule::non_stop`].
    ///
    /// ```
    /// assert!(fix_engine::config::Schedule::non_stop().is_non_stop());
    /// ```
    pub const fn is_non_stop(&self) -> bool {
        matches!(self.kind, Kind::NonStop)
    }

    /// Whether the session is active at `t`.
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let s = Schedule::daily(TimeOfDay::new(9, 0, 0).unwrap(), TimeOfDay::new(17, 0, 0).unwrap());
    /// assert!(s.is_active(UNIX_EPOCH + Duration::from_secs(17 * 3600)));     // 17:00:00, the end, included
    /// assert!(!s.is_active(UNIX_EPOCH + Duration::from_secs(17 * 3600 + 1)));
    /// ```
    pub fn is_active(&self, t: SystemTime) -> bool {
        self.is_non_stop() || self.period_at(t).is_some()
    }

    /// The period `t` is in, or `None` outside every period. A non-stop schedule
    /// has no bounded period, so it gives `None` too (see [`is_active`](Self::is_active)).
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let s = Schedule::daily(TimeOfDay::new(9, 0, 0).unwrap(), TimeOfDay::new(17, 0, 0).unwrap());
    /// let p = s.period_at(UNIX_EPOCH + Duration::from_secs(10 * 3600)).unwrap();
    /// assert_eq!(p.start, UNIX_EPOCH + Duration::from_secs(9 * 3600));
    /// ```
    pub fn period_at(&self, t: SystemTime) -> Option<Period> {
        let nanos = nanos_since_epoch(t);
        let (start, end) = self.latest_start(nanos)?;
        let end_nanos = i128::from(end) * 1_000_000_000;
        if nanos > end_nanos {
            return None;
        }
        Some(Period {
            start: time_at(start)?,
            end: time_at(end)?,
        })
    }

    /// Whether `a` and `b` are in the same period, so that a session (its store)
    /// begun at `a` continues at `b`; otherwise `b` belongs to a new session and
    /// the sequence numbers start again at 1. Always true for a non-stop schedule.
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let s = Schedule::daily(TimeOfDay::new(9, 0, 0).unwrap(), TimeOfDay::new(17, 0, 0).unwrap());
    /// let monday_ten = UNIX_EPOCH + Duration::from_secs(10 * 3600);
    /// assert!(s.same_period(monday_ten, monday_ten + Duration::from_secs(3600)));
    /// assert!(!s.same_period(monday_ten, monday_ten + Duration::from_secs(86_400)));
    /// ```
    pub fn same_period(&self, a: SystemTime, b: SystemTime) -> bool {
        if self.is_non_stop() {
            return true;
        }
        match (self.period_at(a), self.period_at(b)) {
            (Some(pa), Some(pb)) => pa == pb,
            _ => false,
        }
    }

    /// The first period start after `t`: when an inactive session becomes
    /// active, or an active one is next reset. `None` for a non-stop schedule.
    ///
    /// ```
    /// use fix_engine::config::{Schedule, TimeOfDay};
    /// use std::time::{Duration, UNIX_EPOCH};
    /// let s = Schedule::daily(TimeOfDay::new(9, 0, 0).unwrap(), TimeOfDay::new(17, 0, 0).unwrap());
    /// let evening = UNIX_EPOCH + Duration::from_secs(20 * 3600);
    /// assert_eq!(s.next_start(evening), Some(UNIX_EPOCH + Duration::from_secs(33 * 3600)));
    /// ```
    pub fn next_start(&self, t: SystemTime) -> Option<SystemTime> {
        let nanos = nanos_since_epoch(t);
        let (mut start, _) = self.latest_local(nanos)?;
        // At most 7 days ahead for daily periods on some weekdays, a week for weekly.
        for _ in 0..8 {
            start = match &self.kind {
                Kind::NonStop => return None,
                Kind::Daily { days, .. } => {
                    let mut next = start + DAY;
                    while !on_day(days, next) {
                        next += DAY;
                    }
                    next
                }
                Kind::Weekly { .. } => start + WEEK,
            };
            let utc = self.zone.to_utc(start)?;
            if i128::from(utc) * 1_000_000_000 > nanos {
                return time_at(utc);
            }
        }
        None
    }

    /// The start and end (UTC seconds from the epoch) of the latest period
    /// starting at or before `nanos`; `None` for a non-stop schedule.
    fn latest_start(&self, nanos: i128) -> Option<(i64, i64)> {
        let (start, end) = self.latest_local(nanos)?;
        Some((self.zone.to_utc(start)?, self.zone.to_utc(end)?))
    }

    /// [`latest_start`](Self::latest_start) in the zone's wall-clock seconds:
    /// days are counted on the zone's calendar, so a period keeps its local
    /// times when the zone's offset changes.
    fn latest_local(&self, nanos: i128) -> Option<(i64, i64)> {
        let secs = i64::try_from(nanos.div_euclid(1_000_000_000)).ok()?;
        let local = secs.checked_add(i64::from(self.zone.offset_secs(secs)))?;
        let today = local.div_euclid(DAY) * DAY;
        match &self.kind {
            Kind::NonStop => None,
            Kind::Daily { start, end, days } => {
                let mut s = today + i64::from(start.0);
                if s > local {
                    s -= DAY;
                }
                while !on_day(days, s) {
                    s -= DAY;
                }
                let mut e = s.div_euclid(DAY) * DAY + i64::from(end.0);
                if e <= s {
                    e += DAY;
                }
                Some((s, e))
            }
            Kind::Weekly {
                start_day,
                start,
                end_day,
                end,
            } => {
                let weekday = Weekday::of_day(local.div_euclid(DAY)).index();
                let mut s =
                    today - (weekday - start_day.index()).rem_euclid(7) * DAY + i64::from(start.0);
                if s > local {
                    s -= WEEK;
                }
                let days = (end_day.index() - start_day.index()).rem_euclid(7);
                let mut e = s.div_euclid(DAY) * DAY + days * DAY + i64::from(end.0);
                if e <= s {
                    e += WEEK;
                }
                Some((s, e))
            }
        }
    }
}

/// Whether local second `local` falls on one of `days` (every day for `None`).
fn on_day(days: &Option<[bool; 7]>, local: i64) -> bool {
    days.is_none_or(|d| d[Weekday::of_day(local.div_euclid(DAY)).index() as usize])
}

fn nanos_since_epoch(t: SystemTime) -> i128 {
    match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(d) => d.as_nanos() as i128,
        Err(e) => -(e.duration().as_nanos() as i128),
    }
}

/// `secs` from the epoch, when the platform's `SystemTime` reaches that far.
fn time_at(secs: i64) -> Option<SystemTime> {
    let d = Duration::from_secs(secs.unsigned_abs());
    if secs >= 0 {
        SystemTime::UNIX_EPOCH.checked_add(d)
    } else {
        SystemTime::UNIX_EPOCH.checked_sub(d)
    }
}
