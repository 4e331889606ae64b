//! CheckLatency against MaxLatency, on both sides of midnight: SendingTime is read
//! against the session's clock whether or not it falls on the clock's UTC day.
//! Timestamps are written out by hand here.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_session::{Application, MemoryStore, Role, Session, SessionConfig, SessionId, State};
use fix_test_support::naive::build;

struct App;
impl Application for App {}

/// 2026-09-21T00:00:00Z.
const DAY: u64 = 1_789_948_800;

fn at(secs_of_day: i64, millis: u64) -> SystemTime {
    let secs = (DAY as i64 + secs_of_day) as u64;
    UNIX_EPOCH + Duration::from_secs(secs) + Duration::from_millis(millis)
}

/// An acceptor logged on by a Logon sent at `now`, as the session's clock says.
fn logged_on(
    now: SystemTime,
    logon_time: &str,
) -> Session<MemoryStore, &'static fix_core::typed::Tables> {
    let config = SessionConfig::new(
        SessionId::new("FIX.4.4", "BROKER", "CLIENT"),
        Role::Acceptor,
    );
    let mut s = Session::new(config, MemoryStore::new(), &fix44::DICTIONARY);
    s.connected(now, &mut App).unwrap();
    let logon =
        format!("35=A\x0134=1\x0149=CLIENT\x0152={logon_time}\x0156=BROKER\x0198=0\x01108=30\x01");
    s.handle_bytes(now, &build(logon.as_bytes()), &mut App)
        .unwrap();
    assert_eq!(s.state(), State::LoggedOn);
    let n = s.output().len();
    s.consume_output(n);
    s
}

/// What the acceptor answers a TestRequest sent at `sending_time` and received at
/// `now`: its MsgTypes, and the SessionRejectReason of a Reject.
fn answer(now: SystemTime, sending_time: &str) -> (String, Option<String>) {
    let mut s = logged_on(now, &format_now(now));
    let test = format!("35=1\x0134=2\x0149=CLIENT\x0152={sending_time}\x0156=BROKER\x01112=T\x01");
    s.handle_bytes(now, &build(test.as_bytes()), &mut App)
        .unwrap();
    let out = String::from_utf8(s.output().to_vec()).unwrap();
    let types: Vec<&str> = out
        .split('\x01')
        .filter_map(|f| f.strip_prefix("35="))
        .collect();
    let reason = out
        .split('\x01')
        .find_map(|f| f.strip_prefix("373="))
        .map(str::to_owned);
    (types.join(","), reason)
}

/// `now` as a UTCTIMESTAMP, by hand (the day is DAY or one next to it).
fn format_now(now: SystemTime) -> String {
    let d = now.duration_since(UNIX_EPOCH).unwrap();
    let day = match (d.as_secs() as i64 - DAY as i64).div_euclid(86_400) {
        -1 => "20260920",
        0 => "20260921",
        1 => "20260922",
        other => panic!("day {other}"),
    };
    let s = d.as_secs() % 86_400;
    format!(
        "{day}-{:02}:{:02}:{:02}.{:03}",
        s / 3600,
        s / 60 % 60,
        s % 60,
        d.subsec_millis()
    )
}

#[test]
fn sending_time_within_max_latency_is_accepted_on_either_side_of_midnight() {
    let cases = [
        // The same day, 120 s, 119.9 s and 0 s apart, either way.
        (at(12 * 3600, 0), "20260921-11:58:00.000"),
        (at(12 * 3600, 0), "20260921-11:58:00.100"),
        (at(12 * 3600, 0), "20260921-12:01:59.900"),
        (at(12 * 3600, 0), "20260921-12:00:00.000"),
        // Just after midnight, sent just before it, and the other way round.
        (at(86_400, 100), "20260921-23:59:59.900"),
        (at(-1, 900), "20260921-00:00:00.100"),
        (at(86_399, 900), "20260922-00:00:00.100"),
        // A whole second field of 60 (a leap second) reads as 59.
        (at(12 * 3600 + 59, 0), "20260921-12:00:60"),
    ];
    for (now, sent) in cases {
        assert_eq!(answer(now, sent), ("0".to_owned(), None), "{sent}");
    }
}

#[test]
fn sending_time_beyond_max_latency_is_rejected_and_the_session_ends() {
    let cases = [
        // 120.001 s either way.
        (at(12 * 3600, 0), "20260921-11:57:59.999"),
        (at(12 * 3600, 0), "20260921-12:02:00.001"),
        // Same time of day, another day.
        (at(12 * 3600, 0), "20260920-12:00:00.000"),
        (at(12 * 3600, 0), "20260922-12:00:00.000"),
        // Across midnight, 120.1 s and 120.2 s apart.
        (at(86_400, 100), "20260921-23:58:00.000"),
        (at(86_399, 900), "20260922-00:02:00.100"),
    ];
    for (now, sent) in cases {
        assert_eq!(
            answer(now, sent),
            ("3,5".to_owned(), Some("10".to_owned())),
            "{sent}"
        );
    }
}

#[test]
fn a_sending_time_that_is_no_time_is_rejected() {
    let now = at(12 * 3600, 0);
    for sent in [
        "20260921-25:00:00",
        "20260921-12:00",
        "20260921-12:00:00.1x",
        "x",
    ] {
        let (types, _) = answer(now, sent);
        assert!(types.starts_with('3'), "{sent}: {types}");
    }
}
