//! Reading a settings file: lines into sections, each session's settings
//! (its own, then `[DEFAULT]`'s) through a [`SessionBuilder`], errors placed at
//! their lines.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use fix_session::{Role, SessionId, SyncPolicy, appl_ver_id_code};

use super::builder::{Context, applies};
use super::error::{ConfigError, ErrorKind};
use super::keys::{Fixed, Key, Lookup, lookup};
use super::value::{self, APPL_VER_ID, BEGIN_STRING, BEGIN_STRINGS};
use super::{
    ClientAuth, Schedule, SessionBuilder, SessionSettings, Settings, TimeOfDay, Weekday, Zone,
};

/// One `Key=Value` line.
#[derive(Debug)]
struct Entry {
    key: Key,
    value: String,
    line: usize,
}

/// A `[DEFAULT]` or `[SESSION]` section: its header's line and its settings.
#[derive(Debug)]
struct Section {
    line: usize,
    entries: Vec<Entry>,
}

pub(super) fn parse(file: &Path, text: &str) -> Result<Settings, ConfigError> {
    let (default, sessions) = sections(text).map_err(|e| e.in_file(file))?;
    if let Some(default) = &default {
        // A default no session uses is still checked, so that a typo there is
        // not found only when a session comes to need it.
        for e in &default.entries {
            apply(scratch(), e, &mut Parts::default()).map_err(|kind| at(e, kind).in_file(file))?;
        }
    }
    if sessions.is_empty() {
        return Err(ConfigError::new(ErrorKind::NoSessions).at(file, None));
    }
    let mut list = Vec::with_capacity(sessions.len());
    for s in &sessions {
        let settings = session(default.as_ref(), s).map_err(|e| e.in_file(file))?;
        list.push((settings, Some(s.line)));
    }
    Settings::assemble(list).map_err(|e| e.in_file(file))
}

/// The lines of `text` as sections: `[DEFAULT]` (at most one) and the `[SESSION]`s.
fn sections(text: &str) -> Result<(Option<Section>, Vec<Section>), ConfigError> {
    let mut default: Option<Section> = None;
    let mut sessions: Vec<Section> = Vec::new();
    // Which section the settings go to: the default, or the last session.
    let mut in_default = None;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, raw) in text.split('\n').enumerate() {
        let line = index + 1;
        let here = |kind| ConfigError::new(kind).with_line(Some(line));
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(inner) = trimmed.strip_prefix('[') {
            let Some(name) = inner.strip_suffix(']') else {
                return Err(here(ErrorKind::Syntax {
                    text: trimmed.to_owned(),
                }));
            };
            let name = name.trim();
            let section = Section {
                line,
                entries: Vec::new(),
            };
            if name.eq_ignore_ascii_case("DEFAULT") {
                if let Some(first) = &default {
                    return Err(here(ErrorKind::SecondDefault {
                        first_line: first.line,
                    }));
                }
                default = Some(section);
                in_default = Some(true);
            } else if name.eq_ignore_ascii_case("SESSION") {
                sessions.push(section);
                in_default = Some(false);
            } else {
                return Err(here(ErrorKind::UnknownSection {
                    name: name.to_owned(),
                }));
            }
            continue;
        }
        let Some((written, value)) = trimmed.split_once('=') else {
            return Err(here(ErrorKind::Syntax {
                text: trimmed.to_owned(),
            }));
        };
        let written = written.trim();
        if written.is_empty() {
            return Err(here(ErrorKind::Syntax {
                text: trimmed.to_owned(),
            }));
        }
        let keyed = |kind| ConfigError::keyed(written, kind).with_line(Some(line));
        let key = match lookup(written) {
            Lookup::Known(key) => key,
            Lookup::Unsupported(name, reason) => {
                let name = if name.is_empty() { written } else { name };
                return Err(ConfigError::keyed(name, ErrorKind::Unsupported { reason })
                    .with_line(Some(line)));
            }
            Lookup::Unknown => return Err(keyed(ErrorKind::UnknownKey)),
        };
        let section = match in_default {
            None => return Err(keyed(ErrorKind::OutsideSection)),
            Some(true) => default.as_mut(),
            Some(false) => sessions.last_mut(),
        };
        let Some(section) = section else {
            return Err(keyed(ErrorKind::OutsideSection));
        };
        if let Some(first) = section.entries.iter().find(|e| e.key == key) {
            return Err(ConfigError::keyed(
                key.to_string(),
                ErrorKind::DuplicateKey {
                    first_line: first.line,
                },
            )
            .with_line(Some(line)));
        }
        section.entries.push(Entry {
            key,
            value: value.trim().to_owned(),
            line,
        });
    }
    Ok((default, sessions))
}

fn at(e: &Entry, kind: ErrorKind) -> ConfigError {
    ConfigError::keyed(e.key.to_string(), kind).with_line(Some(e.line))
}

/// A builder whose settings are thrown away: for checking values alone.
fn scratch() -> SessionBuilder {
    SessionBuilder::acceptor(SessionId::new("", "", ""))
}

/// The settings the builder takes as whole values, gathered key by key.
#[derive(Default)]
struct Parts {
    start_time: Option<TimeOfDay>,
    end_time: Option<TimeOfDay>,
    start_day: Option<(Weekday, usize)>,
    end_day: Option<(Weekday, usize)>,
    weekdays: Option<Vec<Weekday>>,
    /// The schedule's zone, with the key and line that gave it: TimeZone,
    /// UseLocalTime, or a zone written after StartTime's or EndTime's time.
    zones: Vec<(Zone, Fixed, usize)>,
    hosts: BTreeMap<u32, (String, usize)>,
    ports: BTreeMap<u32, (u16, usize)>,
    /// `AppDataDictionary`, for DefaultApplVerID.
    default_app: Option<(PathBuf, usize)>,
    /// `AppDataDictionary.<version>`: (version, file, line).
    apps: Vec<(String, PathBuf, usize)>,
}

/// One session: its own settings, then `[DEFAULT]`'s for the keys it lacks.
fn session(default: Option<&Section>, section: &Section) -> Result<SessionSettings, ConfigError> {
    use Fixed::*;
    let mut entries: Vec<(&Entry, bool)> = section.entries.iter().map(|e| (e, false)).collect();
    if let Some(default) = default {
        for e in &default.entries {
            if !section.entries.iter().any(|s| s.key == e.key) {
                entries.push((e, true));
            }
        }
    }
    let header = Some(section.line);
    let find = |k: Fixed| {
        entries
            .iter()
            .find(|(e, _)| e.key == Key::Fixed(k))
            .map(|(e, _)| *e)
    };
    let required = |k: Fixed, reason| {
        find(k).ok_or_else(|| {
            ConfigError::keyed(k.name(), ErrorKind::Missing { reason }).with_line(header)
        })
    };
    let flag = |k: Fixed, default: bool| match find(k) {
        None => Ok(default),
        Some(e) => value::yes_no(&e.value).map_err(|kind| at(e, kind)),
    };

    let connection_type = required(
        ConnectionType,
        "every session is an initiator or an acceptor",
    )?;
    let role = connection_type_of(&connection_type.value).map_err(|k| at(connection_type, k))?;
    let id_part = "it is part of the session ID";
    let begin_string = &required(BeginString, id_part)?.value;
    let id = SessionId {
        begin_string: begin_string.clone(),
        sender_comp_id: required(SenderCompID, id_part)?.value.clone(),
        target_comp_id: required(TargetCompID, id_part)?.value.clone(),
        // From [DEFAULT], a qualifier is an initiator's only (see `applies`).
        qualifier: entries
            .iter()
            .find(|(e, from_default)| {
                e.key == Key::Fixed(SessionQualifier) && (!from_default || role == Role::Initiator)
            })
            .map(|(e, _)| e.value.clone()),
    };
    let cx = Context {
        role,
        fixt: (begin_string != "*").then(|| begin_string == "FIXT.1.1"),
        non_stop: flag(NonStopSession, false)?,
        use_data_dictionary: flag(UseDataDictionary, true)?,
        ssl: flag(SocketUseSSL, false)?,
        verifies_clients: match find(CertificateVerifyLevel) {
            Some(e) => {
                value::verify_level(&e.value).map_err(|kind| at(e, kind))? != ClientAuth::None
            }
            None => flag(NeedClientAuth, false)?,
        },
        check_latency: flag(CheckLatency, true)?,
        file_store: find(FileStorePath).is_some(),
    };

    let mut used = Vec::with_capacity(entries.len());
    for &(e, from_default) in &entries {
        match applies(&e.key, &cx) {
            Ok(()) => used.push(e),
            Err(_) if from_default => {}
            Err(reason) => return Err(at(e, ErrorKind::NotApplicable { reason })),
        }
    }

    let mut builder = match role {
        Role::Acceptor => SessionBuilder::acceptor(id),
        Role::Initiator => SessionBuilder::initiator(id),
    };
    let mut parts = Parts::default();
    for e in &used {
        builder = apply(builder, e, &mut parts).map_err(|kind| at(e, kind))?;
    }
    let here = |k: Key, kind| ConfigError::keyed(k.to_string(), kind).with_line(header);

    if cx.non_stop {
        builder = builder.schedule(Schedule::non_stop());
    } else if parts.start_time.is_some() || parts.end_time.is_some() {
        builder = builder.schedule(schedule(&parts, header)?);
    }

    // Endpoints 0 (SocketConnectHost), 1, 2, … until one is missing; any
    // numbered after that gap is an error.
    let mut n = 0;
    loop {
        match (parts.hosts.remove(&n), parts.ports.remove(&n)) {
            (Some((host, _)), Some((port, _))) => builder = builder.socket_connect(host, port),
            (Some((_, line)), None) => {
                return Err(here(
                    Key::ConnectPort(n),
                    ErrorKind::Missing {
                        reason: "each SocketConnectHost needs its SocketConnectPort",
                    },
                )
                .with_line(Some(line)));
            }
            (None, Some((_, line))) => {
                return Err(here(
                    Key::ConnectHost(n),
                    ErrorKind::Missing {
                        reason: "each SocketConnectPort needs its SocketConnectHost",
                    },
                )
                .with_line(Some(line)));
            }
            (None, None) => break,
        }
        n += 1;
    }
    let stray = parts
        .hosts
        .values()
        .map(|(_, l)| *l)
        .chain(parts.ports.values().map(|(_, l)| *l))
        .min();
    if let Some(line) = stray {
        return Err(here(
            Key::ConnectHost(n),
            ErrorKind::Missing {
                reason: "failover hosts and ports are numbered from 1 without gaps",
            },
        )
        .with_line(Some(line)));
    }

    let mut apps: Vec<(String, PathBuf, usize)> = Vec::new();
    if let Some((path, line)) = parts.default_app.take() {
        let Some(version) = find(DefaultApplVerID) else {
            return Err(here(
                Key::Fixed(DefaultApplVerID),
                ErrorKind::Missing {
                    reason: "AppDataDictionary is the dictionary of DefaultApplVerID",
                },
            ));
        };
        apps.push((version.value.clone(), path, line));
    }
    apps.append(&mut parts.apps);
    apps.sort_by_key(|(_, _, line)| *line);
    for (i, (version, path, line)) in apps.iter().enumerate() {
        let code = appl_ver_id_code(version);
        if let Some((_, _, first_line)) = apps[..i]
            .iter()
            .find(|(v, _, _)| appl_ver_id_code(v) == code)
        {
            let key = used
                .iter()
                .find(|e| e.line == *line)
                .map_or_else(|| "AppDataDictionary".to_owned(), |e| e.key.to_string());
            return Err(ConfigError::keyed(
                key,
                ErrorKind::DuplicateKey {
                    first_line: *first_line,
                },
            )
            .with_line(Some(*line)));
        }
        builder = builder.app_data_dictionary(version, path);
    }

    builder.build().map_err(|e| {
        let line = used
            .iter()
            .find(|entry| Some(entry.key.to_string().as_str()) == e.key())
            .map_or(header, |entry| Some(entry.line));
        e.with_line(line)
    })
}

/// The schedule from StartTime, EndTime, StartDay, EndDay, Weekdays and TimeZone.
fn schedule(parts: &Parts, header: Option<usize>) -> Result<Schedule, ConfigError> {
    use Fixed::*;
    let missing = |k: Fixed, reason| {
        ConfigError::keyed(k.name(), ErrorKind::Missing { reason }).with_line(header)
    };
    let both = "a schedule needs both StartTime and EndTime";
    let start = parts.start_time.ok_or_else(|| missing(StartTime, both))?;
    let end = parts.end_time.ok_or_else(|| missing(EndTime, both))?;
    let schedule = match (&parts.weekdays, parts.start_day, parts.end_day) {
        (Some(_), Some((_, line)), _) | (Some(_), None, Some((_, line))) => {
            let key = if parts.start_day.is_some_and(|(_, l)| l == line) {
                StartDay
            } else {
                EndDay
            };
            return Err(ConfigError::keyed(
                key.name(),
                ErrorKind::NotApplicable {
                    reason: "StartDay and EndDay cannot be used with Weekdays",
                },
            )
            .with_line(Some(line)));
        }
        (Some(days), None, None) => Schedule::on_weekdays(start, end, days)
            .ok_or_else(|| missing(Weekdays, "a list of at least one day"))?,
        (None, Some((start_day, _)), Some((end_day, _))) => {
            Schedule::weekly(start_day, start, end_day, end)
        }
        (None, Some(_), None) => return Err(missing(EndDay, "StartDay needs it")),
        (None, None, Some(_)) => return Err(missing(StartDay, "EndDay needs it")),
        (None, None, None) => Schedule::daily(start, end),
    };
    let mut zones = parts.zones.iter();
    let Some((zone, first, _)) = zones.next() else {
        return Ok(schedule);
    };
    if let Some((_, key, line)) = zones.find(|(z, _, _)| z != zone) {
        let reason = if *key == UseLocalTime || *first == UseLocalTime {
            "UseLocalTime=Y and a time zone cannot both be given"
        } else {
            "the schedule's times name two different time zones; one zone serves the schedule"
        };
        return Err(
            ConfigError::keyed(key.name(), ErrorKind::NotApplicable { reason })
                .with_line(Some(*line)),
        );
    }
    Ok(schedule.in_zone(zone.clone()))
}

fn connection_type_of(value: &str) -> Result<Role, ErrorKind> {
    match value {
        "acceptor" => Ok(Role::Acceptor),
        "initiator" => Ok(Role::Initiator),
        _ => Err(invalid(value, "initiator or acceptor")),
    }
}

fn invalid(value: &str, expected: &'static str) -> ErrorKind {
    ErrorKind::InvalidValue {
        value: value.to_owned(),
        expected,
    }
}

/// Gives entry `e`'s value to the builder (or to `parts`), parsed.
fn apply(b: SessionBuilder, e: &Entry, parts: &mut Parts) -> Result<SessionBuilder, ErrorKind> {
    use Fixed::*;
    let v = e.value.as_str();
    if v.contains("${") {
        return Err(ErrorKind::UnsupportedValue {
            value: v.to_owned(),
            reason: "variables (${...}) are not substituted; write the value itself",
        });
    }
    let yes_no = || value::yes_no(v);
    let secs = || value::seconds(v).map(|s| Duration::from_secs(u64::from(s)));
    let path = || {
        if v.is_empty() {
            Err(invalid(v, "a path"))
        } else {
            Ok(PathBuf::from(v))
        }
    };
    let fixed = match &e.key {
        Key::Fixed(k) => *k,
        Key::ConnectHost(n) => {
            parts.hosts.insert(*n, (v.to_owned(), e.line));
            return Ok(b);
        }
        Key::ConnectPort(n) => {
            parts.ports.insert(*n, (value::port(v)?, e.line));
            return Ok(b);
        }
        Key::AppDataDictionaryFor(version) => {
            if !value::is_appl_ver_id(version) {
                return Err(invalid(
                    version,
                    "a FIX version (AppDataDictionary.FIX.5.0SP2, say)",
                ));
            }
            parts.apps.push((version.clone(), path()?, e.line));
            return Ok(b);
        }
    };
    Ok(match fixed {
        ConnectionType => {
            connection_type_of(v)?;
            b
        }
        // The session ID is the builder's from the start; the values are
        // checked here for [DEFAULT] and by the builder for sessions.
        BeginString => {
            if v != "*" && !BEGIN_STRINGS.contains(&v) {
                return Err(invalid(v, BEGIN_STRING));
            }
            b
        }
        SenderCompID | TargetCompID | SessionQualifier => {
            if v != "*" && !value::is_name(v) {
                return Err(invalid(v, "a name (not empty, no control characters)"));
            }
            b
        }
        DefaultApplVerID => {
            if !value::is_appl_ver_id(v) {
                return Err(invalid(v, APPL_VER_ID));
            }
            b.default_appl_ver_id(v)
        }
        AcceptorTemplate => b.acceptor_template(yes_no()?),
        StartTime | EndTime => {
            let (time, zone) = time(v)?;
            if let Some(zone) = zone {
                parts.zones.push((zone, fixed, e.line));
            }
            if fixed == StartTime {
                parts.start_time = Some(time);
            } else {
                parts.end_time = Some(time);
            }
            b
        }
        StartDay => {
            parts.start_day = Some((day(v)?, e.line));
            b
        }
        EndDay => {
            parts.end_day = Some((day(v)?, e.line));
            b
        }
        Weekdays => {
            let days: Option<Vec<Weekday>> =
                v.split(',').map(|d| Weekday::parse(d.trim())).collect();
            match days {
                Some(days) if !v.trim().is_empty() => parts.weekdays = Some(days),
                _ => {
                    return Err(invalid(
                        v,
                        "a list of days of the week, such as Mon,Tue,Wed",
                    ));
                }
            }
            b
        }
        TimeZone => {
            parts.zones.push((zone(v)?, fixed, e.line));
            b
        }
        UseLocalTime => {
            if yes_no()? {
                let here = Zone::local().map_err(|_| {
                    invalid(
                        v,
                        "Y only where the machine's time zone can be read (TZ or /etc/localtime)",
                    )
                })?;
                parts.zones.push((here, fixed, e.line));
            }
            b
        }
        // The schedule takes NonStopSession as a whole.
        NonStopSession => {
            yes_no()?;
            b
        }
        UseDataDictionary => b.use_data_dictionary(yes_no()?),
        CheckLatency => b.check_latency(yes_no()?),
        SocketUseSSL => b.socket_use_ssl(yes_no()?),
        HeartBtInt => b.heart_bt_int(value::seconds(v)?),
        SocketAcceptPort => b.socket_accept_port(value::accept_port(v)?),
        SocketAcceptAddress => b.socket_accept_address(v),
        ReconnectInterval => b.reconnect_interval(secs()?),
        LogonTimeout => b.logon_timeout(secs()?),
        LogoutTimeout => b.logout_timeout(secs()?),
        MaxLatency => b.max_latency(secs()?),
        SocketNodelay => b.socket_nodelay(yes_no()?),
        ResetOnLogon => b.reset_on_logon(yes_no()?),
        ResetOnLogout => b.reset_on_logout(yes_no()?),
        ResetOnDisconnect => b.reset_on_disconnect(yes_no()?),
        SendResetSeqNumFlag => b.send_reset_seq_num_flag(yes_no()?),
        ValidateFieldsOutOfOrder => b.validate_fields_out_of_order(yes_no()?),
        ValidateFieldsHaveValues => b.validate_fields_have_values(yes_no()?),
        ValidateUserDefinedFields => b.validate_user_defined_fields(yes_no()?),
        AllowUnknownMsgFields => b.allow_unknown_msg_fields(yes_no()?),
        CheckCompID => b.check_comp_id(yes_no()?),
        PersistMessages => b.persist_messages(yes_no()?),
        NeedClientAuth => b.need_client_auth(yes_no()?),
        CertificateVerifyLevel => b.certificate_verify_level(value::verify_level(v)?),
        SNIHostName => b.sni_host_name(v),
        ResendRequestChunkSize => b.resend_request_chunk_size(value::count(v)?),
        FileStoreSync => b.file_store_sync(if yes_no()? {
            SyncPolicy::EveryRecord
        } else {
            SyncPolicy::Os
        }),
        DataDictionary => b.data_dictionary(path()?),
        TransportDataDictionary => b.transport_data_dictionary(path()?),
        AppDataDictionary => {
            parts.default_app = Some((path()?, e.line));
            b
        }
        FileStorePath => b.file_store_path(path()?),
        FileLogPath => b.file_log_path(path()?),
        ServerCertificateFile | ClientCertificateFile => b.certificate(path()?),
        ServerCertificateKeyFile | ClientCertificateKeyFile => b.private_key(path()?),
        CertificationAuthoritiesFile => b.ca_file(path()?),
    })
}

/// QuickFIX's `HH:MM:SS`, optionally followed by a zone (QuickFIX/J's
/// `17:00:00 America/New_York`).
fn time(v: &str) -> Result<(TimeOfDay, Option<Zone>), ErrorKind> {
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

fn day(v: &str) -> Result<Weekday, ErrorKind> {
    Weekday::parse(v).ok_or_else(|| {
        invalid(
            v,
            "a day of the week (Sunday to Saturday, or its first two letters or more)",
        )
    })
}

fn zone(v: &str) -> Result<Zone, ErrorKind> {
    Zone::parse(v).map_err(|_| {
        invalid(
            v,
            "a time zone: UTC, an offset such as -05:00, or a name of the IANA database such as America/New_York",
        )
    })
}
