//! Setting values as QuickFIX writes them: Y/N, whole seconds, ports, names;
//! [`parse`] reads a value as its row's [`ValueType`] says.

use std::path::PathBuf;
use std::time::Duration;

use fix_core::value::Precision;
use fix_session::SyncPolicy;

use super::error::ErrorKind;
use super::keys::ValueType;
use super::{ClientAuth, TimeOfDay, Weekday, Zone};

/// A setting's value, parsed: what the builder keeps per key.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    Bool(bool),
    Secs(Duration),
    Count(u64),
    Port(u16),
    Text(String),
    Path(PathBuf),
    Auth(ClientAuth),
    Sync(SyncPolicy),
    Precision(Precision),
    Queued(crate::QueuedWhileDown),
}

impl Value {
    /// Whether this is a value of type `ty`, as [`parse`] makes them (and,
    /// for a Y/N key, a [`SyncPolicy`]: `FileStoreSync`'s in code).
    pub(crate) fn fits(&self, ty: ValueType) -> bool {
        use ValueType as T;
        match self {
            Value::Bool(_) => ty == T::YesNo,
            Value::Sync(_) => ty == T::YesNo,
            Value::Secs(_) => ty == T::Seconds,
            Value::Count(_) => ty == T::Count,
            Value::Port(_) => matches!(ty, T::Port | T::AcceptPort),
            Value::Path(_) => ty == T::Path,
            Value::Auth(_) => ty == T::VerifyLevel,
            Value::Precision(_) => ty == T::TimePrecision,
            Value::Queued(_) => ty == T::QueuedWhileDown,
            Value::Text(_) => matches!(
                ty,
                T::Host
                    | T::HostList
                    | T::TagValue
                    | T::Name
                    | T::Text
                    | T::TimeOfDay
                    | T::Day
                    | T::Days
                    | T::Zone
                    | T::ApplVerId
                    | T::BeginString
                    | T::ConnectionType
            ),
        }
    }

    pub(crate) fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub(crate) fn as_secs(&self) -> Option<Duration> {
        match self {
            Value::Secs(d) => Some(*d),
            _ => None,
        }
    }

    pub(crate) fn as_count(&self) -> Option<u64> {
        match self {
            Value::Count(n) => Some(*n),
            _ => None,
        }
    }

    pub(crate) fn as_port(&self) -> Option<u16> {
        match self {
            Value::Port(p) => Some(*p),
            _ => None,
        }
    }

    pub(crate) fn as_text(&self) -> Option<&str> {
        match self {
            Value::Text(t) => Some(t),
            _ => None,
        }
    }

    pub(crate) fn as_path(&self) -> Option<&std::path::Path> {
        match self {
            Value::Path(p) => Some(p),
            _ => None,
        }
    }

    pub(crate) fn as_auth(&self) -> Option<ClientAuth> {
        match self {
            Value::Auth(a) => Some(*a),
            _ => None,
        }
    }

    pub(crate) fn as_precision(&self) -> Option<Precision> {
        match self {
            Value::Precision(p) => Some(*p),
            _ => None,
        }
    }

    pub(crate) fn as_queued(&self) -> Option<crate::QueuedWhileDown> {
        match self {
            Value::Queued(q) => Some(*q),
            _ => None,
        }
    }

    /// `FileStoreSync`: a policy given in code, or the file's Y (every
    /// record) or N (the system's page cache).
    pub(crate) fn as_sync(&self) -> Option<SyncPolicy> {
        match self {
            Value::Sync(p) => Some(*p),
            Value::Bool(true) => Some(SyncPolicy::EveryRecord),
            Value::Bool(false) => Some(SyncPolicy::Os),
            _ => None,
        }
    }
}

/// `v` read as a value of type `ty`, or what is wrong with it.
pub(crate) fn parse(ty: ValueType, v: &str) -> Result<Value, ErrorKind> {
    Ok(match ty {
        ValueType::YesNo => Value::Bool(yes_no(v)?),
        ValueType::Seconds => Value::Secs(Duration::from_secs(u64::from(seconds(v)?))),
        ValueType::Count => Value::Count(count(v)?),
        ValueType::Port => Value::Port(port(v)?),
        ValueType::AcceptPort => Value::Port(accept_port(v)?),
        ValueType::Path => {
            if v.is_empty() {
                return Err(invalid(v, "a path"));
            }
            Value::Path(PathBuf::from(v))
        }
        ValueType::VerifyLevel => Value::Auth(verify_level(v)?),
        ValueType::TimePrecision => Value::Precision(precision(v)?),
        ValueType::QueuedWhileDown => Value::Queued(queued_while_down(v)?),
        _ => {
            check_text(ty, v)?;
            Value::Text(v.to_owned())
        }
    })
}

/// `v` checked as a value of `ty`, one of the types kept as text once
/// checked (`Text` takes any).
fn check_text(ty: ValueType, v: &str) -> Result<(), ErrorKind> {
    match ty {
        ValueType::Host if !is_host(v) => Err(invalid(v, "a host name or IP address")),
        ValueType::HostList => host_list(v).map(|_| ()),
        ValueType::TagValue => tag_value(v).map(|_| ()),
        ValueType::Name if v != "*" && !is_name(v) => {
            Err(invalid(v, "a name (not empty, no control characters)"))
        }
        ValueType::TimeOfDay => time(v).map(|_| ()),
        ValueType::Day => day(v).map(|_| ()),
        ValueType::Days => weekdays(v).map(|_| ()),
        ValueType::Zone => zone(v).map(|_| ()),
        ValueType::ApplVerId if !is_appl_ver_id(v) => Err(invalid(v, APPL_VER_ID)),
        ValueType::BeginString if v != "*" && !BEGIN_STRINGS.contains(&v) => {
            Err(invalid(v, BEGIN_STRING))
        }
        ValueType::ConnectionType => connection_type(v).map(|_| ()),
        // A well-formed host, name, ApplVerID or BeginString; Text; and the
        // types `parse` reads into values of their own.
        _ => Ok(()),
    }
}

/// `QueuedWhileDown`: `WAIT` or `DROP`, in any case (like QuickFIX/J's
/// `TimeStampPrecision` names).
pub(crate) fn queued_while_down(v: &str) -> Result<crate::QueuedWhileDown, ErrorKind> {
    if v.eq_ignore_ascii_case("WAIT") {
        Ok(crate::QueuedWhileDown::Wait)
    } else if v.eq_ignore_ascii_case("DROP") {
        Ok(crate::QueuedWhileDown::Drop)
    } else {
        Err(invalid(v, "WAIT or DROP"))
    }
}

/// `TimeStampPrecision`: QuickFIX/J's names (any case) or QuickFIX C++'s
/// digits; QuickFIX C++ takes any digit from 0 to 9, but a UTCTimestamp
/// has 0, 3, 6 or 9 digits of a second, and so do these.
pub(crate) fn precision(v: &str) -> Result<Precision, ErrorKind> {
    Ok(match v.to_ascii_uppercase().as_str() {
        "SECONDS" | "0" => Precision::Seconds,
        "MILLIS" | "3" => Precision::Millis,
        "MICROS" | "6" => Precision::Micros,
        "NANOS" | "9" => Precision::Nanos,
        _ => {
            return Err(invalid(
                v,
                "SECONDS, MILLIS, MICROS or NANOS (or 0, 3, 6, 9)",
            ));
        }
    })
}

/// A comma-separated list of host names or IP addresses, not empty.
pub(crate) fn host_list(v: &str) -> Result<Vec<String>, ErrorKind> {
    let hosts: Vec<String> = v.split(',').map(|h| h.trim().to_owned()).collect();
    if hosts.iter().all(|h| is_host(h)) {
        Ok(hosts)
    } else {
        Err(invalid(
            v,
            "host names or IP addresses, separated by commas",
        ))
    }
}

/// QuickFIX/J's `LogonTag` value: a body field as `tag=value` (not a header
/// or trailer field, which the session writes).
pub(crate) fn tag_value(v: &str) -> Result<(u32, String), ErrorKind> {
    let expected =
        "a body field as tag=value, such as 553=user (header and trailer fields are the session's)";
    let Some((tag, value)) = v.split_once('=') else {
        return Err(invalid(v, expected));
    };
    match digits::<u32>(tag) {
        Some(tag)
            if tag > 0
                && !fix_session::is_header_or_trailer(tag)
                && !value.is_empty()
                && !value.chars().any(char::is_control) =>
        {
            Ok((tag, value.to_owned()))
        }
        _ => Err(invalid(v, expected)),
    }
}

/// `initiator` or `acceptor`.
pub(crate) fn connection_type(value: &str) -> Result<fix_session::Role, ErrorKind> {
    match value {
        "acceptor" => Ok(fix_session::Role::Acceptor),
        "initiator" => Ok(fix_session::Role::Initiator),
        _ => Err(invalid(value, "initiator or acceptor")),
    }
}

/// QuickFIX's `HH:MM:SS`, optionally followed by a zone (QuickFIX/J's
/// `17:00:00 America/New_York`).
pub(crate) fn time(v: &str) -> Result<(TimeOfDay, Option<Zone>), ErrorKind> {
    let expected = "a time of day as HH:MM:SS, optionally followed by a time zone";
    let (time, zone) = match v.split_once(char::is_whitespace) {
        Some((time, zone)) => (time, Some(zone.trim())),
        None => (v, None),
    };
    let time = TimeOfDay::parse(time).ok_or_else(|| invalid(v, expected))?;
    let zone = zone
        .map(|z| Zone::parse(z).map_err(|_| invalid(v, expected)))
        .transpose()?;
    Ok((time, zone))
}

pub(crate) fn day(v: &str) -> Result<Weekday, ErrorKind> {
    Weekday::parse(v).ok_or_else(|| {
        invalid(
            v,
            "a day of the week (Sunday to Saturday, or its first two letters or more)",
        )
    })
}

/// QuickFIX/J's `Weekdays`: `Mon,Tue,Wed`.
pub(crate) fn weekdays(v: &str) -> Result<Vec<Weekday>, ErrorKind> {
    let days: Option<Vec<Weekday>> = v.split(',').map(|d| Weekday::parse(d.trim())).collect();
    match days {
        Some(days) if !v.trim().is_empty() => Ok(days),
        _ => Err(invalid(
            v,
            "a list of days of the week, such as Mon,Tue,Wed",
        )),
    }
}

pub(crate) fn zone(v: &str) -> Result<Zone, ErrorKind> {
    // QuickFIX/Go's `Local` (Go's time.LoadLocation): the machine's zone.
    let zone = if v == "Local" {
        Zone::local()
    } else {
        Zone::parse(v)
    };
    zone.map_err(|_| {
        invalid(
            v,
            "a time zone: UTC, an offset such as -05:00, or a name of the IANA database such as America/New_York",
        )
    })
}

pub(crate) fn invalid(value: &str, expected: &'static str) -> ErrorKind {
    ErrorKind::InvalidValue {
        value: value.to_owned(),
        expected,
    }
}

/// QuickFIX's booleans: `Y` or `N` (QuickFIX/Go's `y` and `n` too), nothing else.
pub(crate) fn yes_no(value: &str) -> Result<bool, ErrorKind> {
    match value {
        "Y" | "y" => Ok(true),
        "N" | "n" => Ok(false),
        _ => Err(invalid(value, "Y or N")),
    }
}

/// `CertificateVerifyLevel`'s levels, as QuickFIX numbers them.
pub(crate) fn verify_level(value: &str) -> Result<ClientAuth, ErrorKind> {
    ClientAuth::from_level(value).ok_or_else(|| {
        invalid(
            value,
            "0 (no client certificate), 1 (a client certificate is required) or 2 (one is verified when given)",
        )
    })
}

/// Digits only: no sign, no spaces, no unit.
fn digits<T: std::str::FromStr>(value: &str) -> Option<T> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// Whole seconds: QuickFIX's digits, or QuickFIX/Go's durations (`30s`,
/// `2m`, `1h30m`) when they come to whole seconds.
pub(crate) fn seconds(value: &str) -> Result<u32, ErrorKind> {
    digits(value)
        .or_else(|| go_duration(value))
        .ok_or_else(|| invalid(value, "a number of seconds"))
}

/// A Go duration (`time.ParseDuration`'s units h, m, s, ms, us/µs, ns, each
/// after a decimal number) that is a whole number of seconds.
fn go_duration(value: &str) -> Option<u32> {
    let mut rest = value;
    let mut nanos: u128 = 0;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let number_len = rest
            .find(|c: char| !c.is_ascii_digit() && c != '.')
            .unwrap_or(rest.len());
        let (number, tail) = rest.split_at(number_len);
        let unit_len = tail
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(tail.len());
        let (unit, tail) = tail.split_at(unit_len);
        let scale: u128 = match unit {
            "h" => 3_600_000_000_000,
            "m" => 60_000_000_000,
            "s" => 1_000_000_000,
            "ms" => 1_000_000,
            "us" | "µs" => 1_000,
            "ns" => 1,
            _ => return None,
        };
        let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
        if whole.is_empty() && fraction.is_empty() {
            return None;
        }
        let whole: u128 = if whole.is_empty() { 0 } else { digits(whole)? };
        nanos = nanos.checked_add(whole.checked_mul(scale)?)?;
        if !fraction.is_empty() {
            let fraction_len = u32::try_from(fraction.len()).ok()?;
            let denominator = 10u128.checked_pow(fraction_len)?;
            let part = digits::<u128>(fraction)?.checked_mul(scale)?;
            if !part.is_multiple_of(denominator) {
                return None;
            }
            nanos = nanos.checked_add(part / denominator)?;
        }
        rest = tail;
    }
    if !nanos.is_multiple_of(1_000_000_000) {
        return None;
    }
    u32::try_from(nanos / 1_000_000_000).ok()
}

pub(crate) fn port(value: &str) -> Result<u16, ErrorKind> {
    digits(value).ok_or_else(|| invalid(value, PORT))
}

pub(crate) const PORT: &str = "a port number from 1 to 65535";

/// `SocketAcceptPort`, where 0 asks the system for a free port.
pub(crate) fn accept_port(value: &str) -> Result<u16, ErrorKind> {
    digits(value).ok_or_else(|| invalid(value, ACCEPT_PORT))
}

const ACCEPT_PORT: &str = "a port number from 0 (any free port) to 65535";

pub(crate) fn count(value: &str) -> Result<u64, ErrorKind> {
    digits(value).ok_or_else(|| invalid(value, "a number of messages"))
}

/// Whether `text` can be a CompID or qualifier: printable, no spaces at its ends.
pub(crate) fn is_name(text: &str) -> bool {
    !text.is_empty() && text.trim() == text && !text.chars().any(char::is_control)
}

/// A host name or an IP address: no spaces or control characters at all.
pub(crate) fn is_host(text: &str) -> bool {
    !text.is_empty() && !text.chars().any(|c| c.is_whitespace() || c.is_control())
}

pub(crate) const BEGIN_STRINGS: [&str; 6] = [
    "FIX.4.0", "FIX.4.1", "FIX.4.2", "FIX.4.3", "FIX.4.4", "FIXT.1.1",
];

pub(crate) const BEGIN_STRING: &str = "FIX.4.0, FIX.4.1, FIX.4.2, FIX.4.3, FIX.4.4 or FIXT.1.1";

pub(crate) const APPL_VER_ID: &str =
    "an ApplVerID (a code such as 9, or a name such as FIX.5.0SP2)";

/// An ApplVerID as DefaultApplVerID takes it: its code or the version's name.
pub(crate) fn is_appl_ver_id(text: &str) -> bool {
    let code = fix_session::appl_ver_id_code(text);
    !code.is_empty() && code.len() <= 3 && code.bytes().all(|b| b.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_are_digits_or_whole_go_durations() {
        let ok = |v: &str| seconds(v).ok();
        assert_eq!(ok("30"), Some(30));
        assert_eq!(ok("30s"), Some(30));
        assert_eq!(ok("2m"), Some(120));
        assert_eq!(ok("1h30m"), Some(5400));
        assert_eq!(ok("1.5m"), Some(90));
        assert_eq!(ok("1500ms"), None, "not whole seconds");
        assert_eq!(ok("2000ms"), Some(2));
        for bad in [
            "",
            "1.5",
            "-1",
            "5x2;30",
            "s",
            "1d",
            "30 s",
            ".s",
            "99999999999",
            "1e3s",
        ] {
            assert_eq!(ok(bad), None, "{bad}");
        }
    }
}
