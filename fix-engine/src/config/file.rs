//! Reading a settings file: lines into sections, each session's settings
//! (its own, then `[DEFAULT]`'s) through a [`SessionBuilder`], errors placed at
//! their lines, and the warnings of what was passed over. What each key is, and
//! what the engine does with it, is its row of the table (`keys.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fix_session::{Role, SessionId, appl_ver_id_code};

use super::builder::{Context, applies};
use super::error::{ConfigError, ErrorKind, Warning, WarningKind};
use super::keys::{Fixed, Key, KeyInfo, Lookup, Otherwise, Scope, Support, lookup};
use super::value::{self, Value};
use super::{
    ClientAuth, Schedule, SessionBuilder, SessionSettings, Settings, TimeOfDay, Weekday, Zone,
};

/// One `Key=Value` line.
#[derive(Clone, Debug)]
struct Entry {
    key: Key,
    /// The key as written.
    written: String,
    value: String,
    line: usize,
}

/// A `[DEFAULT]` or `[SESSION]` section: its header's line and its settings.
#[derive(Debug)]
struct Section {
    line: usize,
    entries: Vec<Entry>,
}

/// Which section the lines go to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum In {
    Nothing,
    Default,
    Session,
    /// An unknown section, skipped.
    Skipped,
}

/// Adds `w` unless it is there already (a `[DEFAULT]` line many sessions read).
fn warn(warnings: &mut Vec<Warning>, w: Warning) {
    if !warnings.contains(&w) {
        warnings.push(w);
    }
}

pub(super) fn parse(file: &Path, text: &str) -> Result<Settings, ConfigError> {
    let mut warnings = Vec::new();
    let (default, sessions) = sections(text, &mut warnings).map_err(|e| e.in_file(file))?;
    // Every value in force is of its key's type, whatever the engine then
    // does with the key: reads it, passes it over with a warning, or finds it
    // does not apply to the session.
    for section in default.iter().chain(&sessions) {
        check_values(&section.entries).map_err(|e| e.in_file(file))?;
    }
    if let Some(default) = &default {
        // A default no session uses is still checked, so that a typo there is
        // not found only when a session comes to need it.
        for e in &default.entries {
            check_default(e, &mut warnings).map_err(|e| e.in_file(file))?;
        }
    }
    if sessions.is_empty() {
        return Err(ConfigError::new(ErrorKind::NoSessions).at(file, None));
    }
    let mut list = Vec::with_capacity(sessions.len());
    for s in &sessions {
        let settings = session(default.as_ref(), s, &mut warnings).map_err(|e| e.in_file(file))?;
        list.push((settings, Some(s.line)));
    }
    warnings.sort_by_key(|w| w.line);
    for w in &mut warnings {
        w.file = Some(file.to_path_buf());
    }
    let defaults = default.map_or_else(Vec::new, |d| raw(&d.entries));
    Settings::assemble(list)
        .map(|s| s.with_file(warnings, defaults))
        .map_err(|e| e.in_file(file))
}

fn raw(entries: &[Entry]) -> Vec<(String, String)> {
    entries
        .iter()
        .map(|e| (e.written.clone(), e.value.clone()))
        .collect()
}

/// The lines of `text` as sections: `[DEFAULT]` (at most one) and the `[SESSION]`s.
fn sections(
    text: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(Option<Section>, Vec<Section>), ConfigError> {
    let mut read = Sections {
        default: None,
        sessions: Vec::new(),
        within: In::Nothing,
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, raw) in text.split('\n').enumerate() {
        let line = index + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(inner) = trimmed.strip_prefix('[') {
            let Some(name) = inner.strip_suffix(']') else {
                return Err(syntax(trimmed, line));
            };
            read.header(name.trim(), line, warnings)?;
        } else {
            read.entry(trimmed, line, warnings)?;
        }
    }
    Ok((read.default, read.sessions))
}

/// Line `line`, `trimmed`, as neither a header, a setting nor a comment.
fn syntax(trimmed: &str, line: usize) -> ConfigError {
    ConfigError::new(ErrorKind::Syntax {
        text: trimmed.to_owned(),
    })
    .with_line(Some(line))
}

/// The sections read so far, and the one the next lines go to.
struct Sections {
    default: Option<Section>,
    sessions: Vec<Section>,
    within: In,
}

impl Sections {
    /// A `[name]` header at `line`: the section the lines after it go to.
    fn header(
        &mut self,
        name: &str,
        line: usize,
        warnings: &mut Vec<Warning>,
    ) -> Result<(), ConfigError> {
        let section = Section {
            line,
            entries: Vec::new(),
        };
        if name.eq_ignore_ascii_case("DEFAULT") {
            if let Some(first) = &self.default {
                return Err(ConfigError::new(ErrorKind::SecondDefault {
                    first_line: first.line,
                })
                .with_line(Some(line)));
            }
            self.default = Some(section);
            self.within = In::Default;
        } else if name.eq_ignore_ascii_case("SESSION") {
            self.sessions.push(section);
            self.within = In::Session;
        } else {
            warn(
                warnings,
                Warning::new(
                    line,
                    None,
                    WarningKind::UnknownSection {
                        name: name.to_owned(),
                    },
                ),
            );
            self.within = In::Skipped;
        }
        Ok(())
    }

    /// A `Key=Value` line into the section it is in; a key set again there
    /// replaces the earlier, with a warning.
    fn entry(
        &mut self,
        trimmed: &str,
        line: usize,
        warnings: &mut Vec<Warning>,
    ) -> Result<(), ConfigError> {
        let Some((written, value)) = trimmed.split_once('=') else {
            return Err(syntax(trimmed, line));
        };
        let written = written.trim();
        if written.is_empty() {
            return Err(syntax(trimmed, line));
        }
        let keyed = |kind| ConfigError::keyed(written, kind).with_line(Some(line));
        let section = match self.within {
            In::Nothing => return Err(keyed(ErrorKind::OutsideSection)),
            In::Skipped => return Ok(()),
            In::Default => self.default.as_mut(),
            In::Session => self.sessions.last_mut(),
        };
        let Some(section) = section else {
            return Err(keyed(ErrorKind::OutsideSection));
        };
        let key = known_or_kept(written, line, warnings);
        if let Some(i) = section.entries.iter().position(|e| e.key.same(&key)) {
            let first = section.entries.remove(i);
            warn(
                warnings,
                Warning::new(
                    line,
                    Some(key.to_string()),
                    WarningKind::Repeated {
                        first_line: first.line,
                    },
                ),
            );
        }
        section.entries.push(Entry {
            key,
            written: written.to_owned(),
            value: value.trim().to_owned(),
            line,
        });
        Ok(())
    }
}

/// The key `written` names, or (for one no QuickFIX implementation documents)
/// the application's, kept with a warning, as QuickFIX keeps any key: a slip
/// from a known key is told with the key likely meant, not refused, so that a
/// file QuickFIX loads loads here.
fn known_or_kept(written: &str, line: usize, warnings: &mut Vec<Warning>) -> Key {
    let suggestion = match lookup(written) {
        Lookup::Known(key) => return key,
        Lookup::BadFamily(first) => Some(first),
        Lookup::Misspelt(suggestion) => Some(suggestion),
        Lookup::Unknown => None,
    };
    warn(
        warnings,
        Warning::new(
            line,
            Some(written.to_owned()),
            WarningKind::UnknownKey { suggestion },
        ),
    );
    Key::App(written.to_owned())
}

fn at(e: &Entry, kind: ErrorKind) -> ConfigError {
    ConfigError::keyed(e.key.to_string(), kind).with_line(Some(e.line))
}

/// A builder whose settings are thrown away: for checking values alone.
fn scratch() -> SessionBuilder {
    SessionBuilder::acceptor(SessionId::new("", "", ""))
}

/// Entry `e`'s value read as its row says (variables are not substituted).
fn read_value(info: &KeyInfo, v: &str) -> Result<Value, ErrorKind> {
    if v.contains("${") {
        return Err(ErrorKind::UnsupportedValue {
            value: v.to_owned(),
            reason: "variables (${...}) are not substituted; write the value itself",
        });
    }
    value::parse(info.value, v)
}

/// Each entry's value read as its row's type says ([`KeyInfo::value`]), so
/// that a value of the wrong type is an error at its line, never a default
/// or a warning. An empty TargetCompID is left to `target_comp_id` (an
/// acceptor template's `*`); an application's key takes any value.
fn check_values(entries: &[Entry]) -> Result<(), ConfigError> {
    for e in entries {
        let Some(fixed) = e.key.fixed() else {
            continue;
        };
        if fixed == Fixed::TargetCompID && e.value.is_empty() {
            continue;
        }
        read_value(fixed.info(), &e.value).map_err(|kind| at(e, kind))?;
    }
    Ok(())
}

/// A `[DEFAULT]` entry (its value's type checked by `check_values`): what
/// the builder checks beyond the type, and what the engine does with it told
/// once.
fn check_default(e: &Entry, warnings: &mut Vec<Warning>) -> Result<(), ConfigError> {
    let Some(fixed) = e.key.fixed() else {
        return Ok(());
    };
    let info = fixed.info();
    match info.support {
        Support::Read | Support::RoleAlias { .. } => {
            apply(scratch(), e, &mut Parts::default()).map_err(|kind| at(e, kind))?;
        }
        Support::DatabaseStore => {}
        _ => unread(e, info, warnings)?,
    }
    Ok(())
}

/// An entry the engine does not read (its value's type checked by
/// `check_values`): a warning (or, for one that cannot be honoured, an
/// error) saying what becomes of it.
fn unread(e: &Entry, info: &KeyInfo, warnings: &mut Vec<Warning>) -> Result<(), ConfigError> {
    let kind = match info.support {
        Support::Read | Support::RoleAlias { .. } | Support::DatabaseStore => return Ok(()),
        Support::Refused(reason) => return Err(at(e, ErrorKind::Unsupported { reason })),
        Support::Always {
            values,
            note,
            otherwise,
        } => {
            if values.iter().any(|v| v.eq_ignore_ascii_case(&e.value)) {
                WarningKind::NoEffect { note }
            } else {
                match otherwise {
                    Otherwise::NotApplied(why) => WarningKind::NotApplied {
                        value: Some(e.value.clone()),
                        note,
                        why: Some(why),
                    },
                    Otherwise::Refused(reason) => {
                        return Err(at(
                            e,
                            ErrorKind::UnsupportedValue {
                                value: e.value.clone(),
                                reason,
                            },
                        ));
                    }
                }
            }
        }
        Support::Ignored(note) => WarningKind::Ignored { note },
        Support::NotApplied(note) => WarningKind::NotApplied {
            value: None,
            note,
            why: None,
        },
    };
    warn(
        warnings,
        Warning::new(e.line, Some(e.key.to_string()), kind),
    );
    Ok(())
}

const DATABASE: &str = "this database as the message store cannot be used: the stores are the file store (FileStorePath), PostgreSQL (the PostgreSQLStore keys) and memory, and without one of the first two the messages would be kept in memory only";

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
    /// `LogonTag<n>`: (tag, value) by n.
    logon_tags: BTreeMap<u32, (u32, String)>,
}

/// QuickFIX/Go's files have no ConnectionType (the program makes an acceptor
/// or an initiator): the role a session's ports say, when they say one.
fn inferred_role(section: &Section, defaults: &[Entry]) -> Option<Role> {
    let all = || section.entries.iter().chain(defaults);
    let accepts = all().any(|e| e.key == Key::Fixed(Fixed::SocketAcceptPort));
    let connects = all().any(|e| matches!(e.key, Key::ConnectHost(_) | Key::ConnectPort(_)));
    match (accepts, connects) {
        (true, false) => Some(Role::Acceptor),
        (false, true) => Some(Role::Initiator),
        _ => None,
    }
}

/// A QuickFIX/Go or QuickFIX/n name for the role's setting, as that setting.
fn resolve(key: &Key, role: Role) -> Key {
    if let Key::Fixed(k) = key
        && let Support::RoleAlias {
            acceptor,
            initiator,
        } = k.info().support
    {
        let name = match role {
            Role::Acceptor => acceptor,
            Role::Initiator => initiator,
        };
        if let Lookup::Known(target) = lookup(name) {
            return target;
        }
    }
    key.clone()
}

/// `entries` with their keys resolved for `role`; of two that become the same
/// key (`SocketCertificateFile` beside `ServerCertificateFile`), the later is
/// kept, with a warning.
fn resolved(entries: &[Entry], role: Role, warnings: &mut Vec<Warning>) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::with_capacity(entries.len());
    for e in entries {
        let mut e = e.clone();
        e.key = resolve(&e.key, role);
        if let Some(i) = out.iter().position(|o| o.key.same(&e.key)) {
            let first = out.remove(i);
            warn(
                warnings,
                Warning::new(
                    e.line,
                    Some(e.key.to_string()),
                    WarningKind::Repeated {
                        first_line: first.line,
                    },
                ),
            );
        }
        out.push(e);
    }
    out
}

/// One session: its own settings, then `[DEFAULT]`'s for the keys it lacks.
fn session(
    default: Option<&Section>,
    section: &Section,
    warnings: &mut Vec<Warning>,
) -> Result<SessionSettings, ConfigError> {
    let header = Some(section.line);
    let defaults = default.map_or(&[][..], |d| &d.entries[..]);
    let role = role(section, defaults, warnings)?;
    let entries = InForce::of(section, defaults, role, warnings);
    let id = session_id(&entries, role)?;
    let cx = context(&entries, role, &id.begin_string, warnings)?;
    let used = used(&entries, &cx, warnings)?;
    let mut parts = Parts::default();
    let mut builder = applied(role, id, entries.raw(), &used, &mut parts)?;
    if cx.non_stop {
        builder = builder.schedule(Schedule::non_stop());
    } else {
        builder = builder.schedule(schedule(&parts, header)?);
    }
    builder = endpoints(builder, &mut parts, header)?;
    builder = app_dictionaries(builder, &mut parts, &entries, &used)?;
    builder.build().map_err(|e| {
        let line = used
            .iter()
            .find(|entry| Some(entry.key.to_string().as_str()) == e.key())
            .map_or(header, |entry| Some(entry.line));
        e.with_line(line)
    })
}

/// The session's role: its ConnectionType, or the one its ports say, told
/// with a warning.
fn role(
    section: &Section,
    defaults: &[Entry],
    warnings: &mut Vec<Warning>,
) -> Result<Role, ConfigError> {
    use Fixed::ConnectionType;
    if let Some(e) = section
        .entries
        .iter()
        .chain(defaults)
        .find(|e| e.key == Key::Fixed(ConnectionType))
    {
        return value::connection_type(&e.value).map_err(|k| at(e, k));
    }
    let role = inferred_role(section, defaults).ok_or_else(|| {
        ConfigError::keyed(
            ConnectionType.name(),
            ErrorKind::Missing {
                reason: "every session is an initiator or an acceptor",
            },
        )
        .with_line(Some(section.line))
    })?;
    warn(
        warnings,
        Warning::new(
            section.line,
            Some(ConnectionType.name().to_owned()),
            WarningKind::Inferred { role },
        ),
    );
    Ok(role)
}

/// A session's entries in force: its own, then `[DEFAULT]`'s for the keys it
/// lacks, each with whether it came from `[DEFAULT]`.
struct InForce {
    entries: Vec<(Entry, bool)>,
    /// The `[SESSION]` header's line, where a missing key is reported.
    line: usize,
}

impl InForce {
    /// The entries of `section` and `defaults`, their keys resolved for `role`.
    fn of(
        section: &Section,
        defaults: &[Entry],
        role: Role,
        warnings: &mut Vec<Warning>,
    ) -> InForce {
        let own = resolved(&section.entries, role, warnings);
        let inherited: Vec<Entry> = resolved(defaults, role, warnings)
            .into_iter()
            .filter(|e| !own.iter().any(|s| s.key.same(&e.key)))
            .collect();
        let entries = own
            .into_iter()
            .map(|e| (e, false))
            .chain(inherited.into_iter().map(|e| (e, true)))
            .collect();
        InForce {
            entries,
            line: section.line,
        }
    }

    /// What `get` reads: the entries in force, as written.
    fn raw(&self) -> Vec<(String, String)> {
        self.entries
            .iter()
            .map(|(e, _)| (e.written.clone(), e.value.clone()))
            .collect()
    }

    /// The entry of key `k`, if in force.
    fn find(&self, k: Fixed) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|(e, _)| e.key == Key::Fixed(k))
            .map(|(e, _)| e)
    }

    /// The entry of key `k`, or an error at the header saying why it is needed.
    fn required(&self, k: Fixed, reason: &'static str) -> Result<&Entry, ConfigError> {
        self.find(k).ok_or_else(|| {
            ConfigError::keyed(k.name(), ErrorKind::Missing { reason }).with_line(Some(self.line))
        })
    }

    /// The Y/N value of key `k`, or `default` when it is not in force.
    fn flag(&self, k: Fixed, default: bool) -> Result<bool, ConfigError> {
        match self.find(k) {
            None => Ok(default),
            Some(e) => value::yes_no(&e.value).map_err(|kind| at(e, kind)),
        }
    }
}

/// The session ID: BeginString, the CompIDs and an initiator's qualifier.
fn session_id(entries: &InForce, role: Role) -> Result<SessionId, ConfigError> {
    use Fixed::*;
    let id_part = "it is part of the session ID";
    let begin_string = &entries.required(BeginString, id_part)?.value;
    let template = role == Role::Acceptor && entries.flag(AcceptorTemplate, false)?;
    Ok(SessionId {
        begin_string: begin_string.clone(),
        sender_comp_id: entries.required(SenderCompID, id_part)?.value.clone(),
        target_comp_id: target_comp_id(entries.required(TargetCompID, id_part)?, template)?,
        // An initiator's only: an acceptor's is passed over (see `applies`).
        qualifier: entries
            .find(SessionQualifier)
            .filter(|_| role == Role::Initiator)
            .map(|e| e.value.clone()),
    })
}

/// What decides which settings apply to the session, read from its entries;
/// a session without times or NonStopSession=Y is non-stop, with a warning.
fn context(
    entries: &InForce,
    role: Role,
    begin_string: &str,
    warnings: &mut Vec<Warning>,
) -> Result<Context, ConfigError> {
    use Fixed::*;
    let explicit_non_stop = entries.flag(NonStopSession, false)?;
    let has_times = entries.find(StartTime).is_some() || entries.find(EndTime).is_some();
    if !explicit_non_stop && !has_times {
        warn(
            warnings,
            Warning::new(
                entries.line,
                Some(StartTime.name().to_owned()),
                WarningKind::NonStop,
            ),
        );
    }
    Ok(Context {
        role,
        fixt: (begin_string != "*").then(|| begin_string == "FIXT.1.1"),
        non_stop: explicit_non_stop || !has_times,
        non_stop_implied: !explicit_non_stop && !has_times,
        use_data_dictionary: entries.flag(UseDataDictionary, true)?,
        ssl: entries.flag(SocketUseSSL, false)?,
        verifies_clients: match entries.find(CertificateVerifyLevel) {
            Some(e) => {
                value::verify_level(&e.value).map_err(|kind| at(e, kind))? != ClientAuth::None
            }
            None => entries.flag(NeedClientAuth, false)?,
        },
        check_latency: entries.flag(CheckLatency, true)?,
        file_store: entries.find(FileStorePath).is_some(),
        file_log: entries.find(FileLogPath).is_some(),
    })
}

/// The entries the builder reads: those the engine reads that apply to the
/// session; the others are told with a warning (a `[DEFAULT]` one silently
/// when it does not apply) or refused.
fn used<'a>(
    entries: &'a InForce,
    cx: &Context,
    warnings: &mut Vec<Warning>,
) -> Result<Vec<&'a Entry>, ConfigError> {
    let mut used = Vec::with_capacity(entries.entries.len());
    for (e, from_default) in &entries.entries {
        if !is_read(e, *from_default, cx, warnings)? {
            continue;
        }
        match applies(&e.key, cx) {
            Ok(()) => used.push(e),
            Err(_) if *from_default => {}
            Err(reason) => {
                warn(
                    warnings,
                    Warning::new(
                        e.line,
                        Some(e.key.to_string()),
                        WarningKind::NotApplicable { reason },
                    ),
                );
            }
        }
    }
    Ok(used)
}

/// Whether the engine reads entry `e` for a session; what it passes over is
/// told with a warning, or refused.
fn is_read(
    e: &Entry,
    from_default: bool,
    cx: &Context,
    warnings: &mut Vec<Warning>,
) -> Result<bool, ConfigError> {
    let Some(fixed) = e.key.fixed() else {
        return Ok(false); // the application's
    };
    let info = fixed.info();
    if !from_default && info.scope == Scope::Default {
        warn(
            warnings,
            Warning::new(e.line, Some(e.key.to_string()), WarningKind::DefaultOnly),
        );
        return Ok(false);
    }
    match info.support {
        Support::Read => Ok(true),
        Support::DatabaseStore => {
            if !cx.file_store {
                return Err(at(e, ErrorKind::Unsupported { reason: DATABASE }));
            }
            let note = "the messages are stored under FileStorePath";
            warn(
                warnings,
                Warning::new(
                    e.line,
                    Some(e.key.to_string()),
                    WarningKind::Ignored { note },
                ),
            );
            Ok(false)
        }
        _ => {
            if !from_default {
                unread(e, info, warnings)?;
            }
            Ok(false)
        }
    }
}

/// A builder for the session with the `used` entries given to it (or to
/// `parts`), and its Logon tags.
fn applied(
    role: Role,
    id: SessionId,
    raw: Vec<(String, String)>,
    used: &[&Entry],
    parts: &mut Parts,
) -> Result<SessionBuilder, ConfigError> {
    let mut builder = match role {
        Role::Acceptor => SessionBuilder::acceptor(id),
        Role::Initiator => SessionBuilder::initiator(id),
    }
    .with_raw(raw);
    for e in used {
        builder = apply(builder, e, parts).map_err(|kind| at(e, kind))?;
    }
    for (tag, value) in std::mem::take(&mut parts.logon_tags).into_values() {
        builder = builder.logon_tag(tag, value);
    }
    Ok(builder)
}

/// An initiator's hosts and ports given to the builder, paired by number.
fn endpoints(
    mut builder: SessionBuilder,
    parts: &mut Parts,
    header: Option<usize>,
) -> Result<SessionBuilder, ConfigError> {
    let here = |k: Key, kind| ConfigError::keyed(k.to_string(), kind).with_line(header);
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
    Ok(builder)
}

/// The application dictionaries given to the builder in the file's order:
/// `AppDataDictionary` (DefaultApplVerID's) and `AppDataDictionary.<version>`,
/// one per version.
fn app_dictionaries(
    mut builder: SessionBuilder,
    parts: &mut Parts,
    entries: &InForce,
    used: &[&Entry],
) -> Result<SessionBuilder, ConfigError> {
    use Fixed::DefaultApplVerID;
    let mut apps: Vec<(String, PathBuf, usize)> = Vec::new();
    if let Some((path, line)) = parts.default_app.take() {
        let Some(version) = entries.find(DefaultApplVerID) else {
            return Err(ConfigError::keyed(
                Key::Fixed(DefaultApplVerID).to_string(),
                ErrorKind::Missing {
                    reason: "AppDataDictionary is the dictionary of DefaultApplVerID",
                },
            )
            .with_line(Some(entries.line)));
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
    Ok(builder)
}

/// TargetCompID's value; an empty one is `*` in an acceptor template, whose
/// sessions take the counterparty's CompID from its Logon (QuickFIX/J's
/// dynamic sessions' files leave it empty), and an error elsewhere.
fn target_comp_id(e: &Entry, template: bool) -> Result<String, ConfigError> {
    match (e.value.is_empty(), template) {
        (false, _) => Ok(e.value.clone()),
        (true, true) => Ok("*".to_owned()),
        (true, false) => Err(at(
            e,
            ErrorKind::InvalidValue {
                value: String::new(),
                expected: "a name: an empty TargetCompID is read only in an acceptor template (AcceptorTemplate=Y), whose sessions take it from the Logon; elsewhere write the counterparty's CompID",
            },
        )),
    }
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

/// Gives entry `e`'s value to the builder (or to `parts`), parsed.
fn apply(b: SessionBuilder, e: &Entry, parts: &mut Parts) -> Result<SessionBuilder, ErrorKind> {
    use Fixed::*;
    let fixed = match &e.key {
        // Checked with the session ID (`target_comp_id`): empty is a template's.
        Key::Fixed(TargetCompID) if e.value.is_empty() => return Ok(b),
        Key::Fixed(k) => *k,
        _ => {
            gather(e, parts)?;
            return Ok(b);
        }
    };
    let v = e.value.as_str();
    let parsed = read_value(fixed.info(), v)?;
    Ok(match fixed {
        // The session ID is the builder's from the start; the values are
        // checked here for [DEFAULT] and by the builder for sessions.
        ConnectionType | BeginString | SenderCompID | TargetCompID | SessionQualifier => b,
        StartTime | EndTime | StartDay | EndDay | Weekdays | TimeZone | UseLocalTime => {
            schedule_part(fixed, e, &parsed, parts)?;
            b
        }
        // The schedule takes NonStopSession as a whole.
        NonStopSession => b,
        AppDataDictionary => {
            if let Value::Path(path) = parsed {
                parts.default_app = Some((path, e.line));
            }
            b
        }
        // Every other setting is a value the builder keeps.
        _ => b.with(fixed, parsed),
    })
}

/// Entry `e` of a numbered or versioned key into `parts`, parsed: a host, a
/// port, an application's dictionary or a Logon tag (the application's keys
/// are passed over).
fn gather(e: &Entry, parts: &mut Parts) -> Result<(), ErrorKind> {
    use Fixed::*;
    match &e.key {
        Key::ConnectHost(n) => {
            read_value(SocketConnectHost.info(), &e.value)?;
            parts.hosts.insert(*n, (e.value.clone(), e.line));
        }
        Key::ConnectPort(n) => {
            read_value(SocketConnectPort.info(), &e.value)?;
            parts.ports.insert(*n, (value::port(&e.value)?, e.line));
        }
        Key::AppDataDictionaryFor(version) => {
            let Value::Path(path) = read_value(AppDataDictionary.info(), &e.value)? else {
                return Err(value::invalid(&e.value, "a path"));
            };
            if !value::is_appl_ver_id(version) {
                return Err(value::invalid(
                    version,
                    "a FIX version (AppDataDictionary.FIX.5.0SP2, say)",
                ));
            }
            parts.apps.push((version.clone(), path, e.line));
        }
        Key::LogonTag(n) => {
            read_value(LogonTag.info(), &e.value)?;
            parts.logon_tags.insert(*n, value::tag_value(&e.value)?);
        }
        Key::App(_) | Key::Fixed(_) => {}
    }
    Ok(())
}

/// Entry `e` of one of the schedule's keys into `parts`: a time and its
/// zone, a day, the weekdays, or a zone.
fn schedule_part(
    fixed: Fixed,
    e: &Entry,
    parsed: &Value,
    parts: &mut Parts,
) -> Result<(), ErrorKind> {
    use Fixed::*;
    let v = e.value.as_str();
    match fixed {
        StartTime | EndTime => {
            let (time, zone) = value::time(v)?;
            if let Some(zone) = zone {
                parts.zones.push((zone, fixed, e.line));
            }
            if fixed == StartTime {
                parts.start_time = Some(time);
            } else {
                parts.end_time = Some(time);
            }
        }
        StartDay => parts.start_day = Some((value::day(v)?, e.line)),
        EndDay => parts.end_day = Some((value::day(v)?, e.line)),
        Weekdays => parts.weekdays = Some(value::weekdays(v)?),
        TimeZone => parts.zones.push((value::zone(v)?, fixed, e.line)),
        UseLocalTime if *parsed == Value::Bool(true) => {
            let here = Zone::local().map_err(|_| {
                value::invalid(
                    v,
                    "Y only where the machine's time zone can be read (TZ or /etc/localtime)",
                )
            })?;
            parts.zones.push((here, fixed, e.line));
        }
        // UseLocalTime=N names no zone.
        _ => {}
    }
    Ok(())
}
