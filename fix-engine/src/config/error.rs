//! [`ConfigError`]: what is wrong with a setting, and where.

use std::fmt;
use std::path::{Path, PathBuf};

use fix_session::SessionId;

/// A settings problem: the file and line it is on (for settings read from a file),
/// the key it is about, and what is wrong ([`ErrorKind`]).
///
/// Displayed as `file:line: key: problem`, each part present when known:
///
/// ```
/// let text = "[SESSION]\nConnectionType=initiator\nHeartBtInt=abc\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\n";
/// let err = fix_engine::config::Settings::parse("settings.cfg", text).unwrap_err();
/// assert_eq!(err.to_string(), r#"settings.cfg:3: HeartBtInt: "abc" is not a number of seconds"#);
/// assert_eq!((err.line(), err.key()), (Some(3), Some("HeartBtInt")));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError(Box<Inner>);

/// Boxed: settings are read once, and a small `Result` keeps every call that
/// returns one cheap.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    file: Option<PathBuf>,
    line: Option<usize>,
    key: Option<String>,
    kind: ErrorKind,
}

impl ConfigError {
    /// An error about `key` with no place yet (settings built in code).
    pub(crate) fn keyed(key: impl Into<String>, kind: ErrorKind) -> Self {
        ConfigError(Box::new(Inner {
            file: None,
            line: None,
            key: Some(key.into()),
            kind,
        }))
    }

    /// An error about the file as a whole, or a line of it with no key.
    pub(crate) fn new(kind: ErrorKind) -> Self {
        ConfigError(Box::new(Inner {
            file: None,
            line: None,
            key: None,
            kind,
        }))
    }

    /// The same error, placed at `line` of `file`.
    pub(crate) fn at(self, file: &Path, line: Option<usize>) -> Self {
        self.in_file(file).with_line(line)
    }

    /// The same error, in `file`.
    pub(crate) fn in_file(mut self, file: &Path) -> Self {
        self.0.file = Some(file.to_path_buf());
        self
    }

    /// The same error, at `line`.
    pub(crate) fn with_line(mut self, line: Option<usize>) -> Self {
        self.0.line = line;
        self
    }

    /// The settings file, when the settings were read from one.
    ///
    /// ```
    /// let err = fix_engine::config::Settings::parse("a.cfg", "").unwrap_err();
    /// assert_eq!(err.file(), Some(std::path::Path::new("a.cfg")));
    /// ```
    pub fn file(&self) -> Option<&Path> {
        self.0.file.as_deref()
    }

    /// The line (from 1) the problem is on: the key's line, or the line of the
    /// `[SESSION]` header for a key the session lacks.
    ///
    /// ```
    /// let err = fix_engine::config::Settings::parse("a.cfg", "\n[SESSION]\n").unwrap_err();
    /// assert_eq!(err.line(), Some(2)); // ConnectionType is missing from this session
    /// ```
    pub fn line(&self) -> Option<usize> {
        self.0.line
    }

    /// The setting the problem is about, spelled as QuickFIX spells it.
    ///
    /// ```
    /// let err = fix_engine::config::Settings::parse("a.cfg", "[SESSION]\n").unwrap_err();
    /// assert_eq!(err.key(), Some("ConnectionType"));
    /// ```
    pub fn key(&self) -> Option<&str> {
        self.0.key.as_deref()
    }

    /// What is wrong.
    ///
    /// ```
    /// use fix_engine::config::{ErrorKind, Settings};
    /// let err = Settings::parse("a.cfg", "# nothing\n").unwrap_err();
    /// assert_eq!(err.kind(), &ErrorKind::NoSessions);
    /// ```
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let e = &self.0;
        if let Some(file) = &e.file {
            write!(f, "{}", file.display())?;
            if let Some(line) = e.line {
                write!(f, ":{line}")?;
            }
            f.write_str(": ")?;
        }
        if let Some(key) = &e.key {
            write!(f, "{key}: ")?;
        }
        write!(f, "{}", e.kind)
    }
}

impl std::error::Error for ConfigError {}

/// What is wrong with a setting or a settings file.
///
/// ```
/// use fix_engine::config::ErrorKind;
/// let kind = ErrorKind::InvalidValue { value: "abc".into(), expected: "a number of seconds" };
/// assert_eq!(kind.to_string(), r#""abc" is not a number of seconds"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read.
    Read {
        /// The system's error kind.
        error: std::io::ErrorKind,
        /// The system's message.
        message: String,
    },
    /// The file is not UTF-8 text (the line is where the first bad byte is).
    NotUtf8,
    /// A line that is neither a `[SECTION]` header, a `Key=Value` setting, a `#`
    /// comment nor blank.
    Syntax {
        /// The line, trimmed.
        text: String,
    },
    /// A section other than `[DEFAULT]` and `[SESSION]`.
    UnknownSection {
        /// The name between the brackets.
        name: String,
    },
    /// A setting before the first section.
    OutsideSection,
    /// A second `[DEFAULT]` section.
    SecondDefault {
        /// The line of the first.
        first_line: usize,
    },
    /// No `[SESSION]` section at all.
    NoSessions,
    /// A numbered key whose number is not one (`SocketConnectHost0`,
    /// `SocketConnectPortX`): failover endpoints count from 1.
    UnknownKey,
    /// A key that is a small slip from a known one (`CheakLatency`), given to
    /// [`SessionBuilder::set`](super::SessionBuilder::set): an error there
    /// rather than an application's key, so that a typo is not ignored (a
    /// settings file keeps it, with a [`WarningKind::UnknownKey`]).
    Misspelt {
        /// The known key it is near.
        suggestion: &'static str,
    },
    /// A setting this engine cannot honour: refused rather than ignored, since
    /// the session would not behave as the setting says.
    Unsupported {
        /// What to do instead, or what is missing.
        reason: &'static str,
    },
    /// The same key twice in one section.
    DuplicateKey {
        /// The line of the first.
        first_line: usize,
    },
    /// A setting the session needs is not given (in its section or in `[DEFAULT]`).
    Missing {
        /// Why the session needs it.
        reason: &'static str,
    },
    /// A value that does not parse, or is out of range.
    InvalidValue {
        /// The value as written.
        value: String,
        /// What the value must be.
        expected: &'static str,
    },
    /// A well-formed value this engine cannot honour.
    UnsupportedValue {
        /// The value as written.
        value: String,
        /// Why, and what to write instead.
        reason: &'static str,
    },
    /// A setting that does not apply to this session (another ConnectionType's,
    /// another FIX version's, or one another setting turns off), written in the
    /// session's own section. From `[DEFAULT]`, which serves every kind of session,
    /// such a setting is passed over.
    NotApplicable {
        /// Why it does not apply.
        reason: &'static str,
    },
    /// `*` as a CompID or BeginString outside an acceptor template.
    Wildcard,
    /// A warning, refused by strict loading ([`Settings::strict`](super::Settings::strict),
    /// `fixcfg check --strict`): the file loads without it.
    Strict {
        /// What the warning says.
        warning: WarningKind,
    },
    /// Two sessions with the same session ID (or two templates with the same
    /// pattern).
    DuplicateSession {
        /// The session ID.
        id: SessionId,
        /// The line of the first one's `[SESSION]` header, in a file.
        first_line: Option<usize>,
    },
    /// Sessions on one SocketAcceptPort share one listener, so they must agree
    /// on its address and TLS settings; this session differs from `other` in the
    /// setting named by the error's key.
    SharedPort {
        /// The port.
        port: u16,
        /// The first session on that port.
        other: SessionId,
        /// The line of its `[SESSION]` header, in a file.
        other_line: Option<usize>,
    },
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Read { message, .. } => write!(f, "cannot be read: {message}"),
            ErrorKind::NotUtf8 => f.write_str("is not UTF-8 text"),
            ErrorKind::Syntax { text } => write!(
                f,
                "{text:?} is not a [SECTION] header, a Key=Value setting or a # comment"
            ),
            ErrorKind::UnknownSection { name } => {
                write!(
                    f,
                    "[{name}] is not a section (only [DEFAULT] and [SESSION] are)"
                )
            }
            ErrorKind::OutsideSection => {
                f.write_str("comes before any [DEFAULT] or [SESSION] section")
            }
            ErrorKind::SecondDefault { first_line } => {
                write!(
                    f,
                    "a second [DEFAULT] section (the first is at line {first_line})"
                )
            }
            ErrorKind::NoSessions => f.write_str("no [SESSION] section"),
            ErrorKind::UnknownKey => f.write_str(
                "not a setting QuickFIX or this engine knows (failover hosts and ports are numbered from 1)",
            ),
            ErrorKind::Misspelt { suggestion } => write!(f, "did you mean {suggestion}?"),
            ErrorKind::Unsupported { reason } => write!(f, "not supported: {reason}"),
            ErrorKind::DuplicateKey { first_line } => {
                write!(f, "set twice in one section (first at line {first_line})")
            }
            ErrorKind::Missing { reason } => write!(f, "missing: {reason}"),
            ErrorKind::InvalidValue { value, expected } => write!(f, "{value:?} is not {expected}"),
            ErrorKind::UnsupportedValue { value, reason } => {
                write!(f, "{value:?} is not supported: {reason}")
            }
            ErrorKind::NotApplicable { reason } => f.write_str(reason),
            ErrorKind::Wildcard => {
                f.write_str("* matches any value only in a session with AcceptorTemplate=Y")
            }
            ErrorKind::Strict { warning } => write!(
                f,
                "{warning} (refused by strict loading: correct the line, or load without --strict)"
            ),
            ErrorKind::DuplicateSession { id, first_line } => duplicate_session(f, id, *first_line),
            ErrorKind::SharedPort {
                port,
                other,
                other_line,
            } => shared_port(f, *port, other, *other_line),
        }
    }
}

/// [`ErrorKind::DuplicateSession`]'s text: the session, and the first one's line in a file.
fn duplicate_session(
    f: &mut fmt::Formatter<'_>,
    id: &SessionId,
    first_line: Option<usize>,
) -> fmt::Result {
    write!(f, "session {id} is defined twice")?;
    match first_line {
        Some(line) => write!(f, " (first at line {line})"),
        None => Ok(()),
    }
}

/// [`ErrorKind::SharedPort`]'s text: the other session on the port, and its line in a file.
fn shared_port(
    f: &mut fmt::Formatter<'_>,
    port: u16,
    other: &SessionId,
    other_line: Option<usize>,
) -> fmt::Result {
    write!(f, "differs from session {other}")?;
    if let Some(line) = other_line {
        write!(f, " (line {line})")?;
    }
    write!(
        f,
        ", which listens on the same SocketAcceptPort {port}: sessions on one port share its listener"
    )
}

/// Something in a settings file the engine passed over or does not apply, as
/// QuickFIX would have read the file: the file and line, the key, and what
/// ([`WarningKind`]). [`Settings::warnings`](super::Settings::warnings) lists them.
///
/// ```
/// let s = fix_engine::config::Settings::parse("a.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=1\nSLF4JLogHeartbeats=Y\nNonStopSession=Y\n")?;
/// let w = &s.warnings()[0];
/// assert_eq!((w.line(), w.key()), (Some(7), Some("SLF4JLogHeartbeats")));
/// assert!(w.to_string().starts_with("a.cfg:7: SLF4JLogHeartbeats: ignored: the message log is FileLogPath's files"));
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    pub(crate) file: Option<PathBuf>,
    pub(crate) line: Option<usize>,
    pub(crate) key: Option<String>,
    pub(crate) kind: WarningKind,
}

impl Warning {
    pub(crate) fn new(line: usize, key: Option<String>, kind: WarningKind) -> Warning {
        Warning {
            file: None,
            line: Some(line),
            key,
            kind,
        }
    }

    /// The settings file.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("a.cfg", "[X]\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=1\nNonStopSession=Y\n")?;
    /// assert_eq!(s.warnings()[0].file(), Some(std::path::Path::new("a.cfg")));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The line (from 1).
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("a.cfg", "[X]\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=1\nNonStopSession=Y\n")?;
    /// assert_eq!(s.warnings()[0].line(), Some(1));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn line(&self) -> Option<usize> {
        self.line
    }

    /// The key, spelled as the table spells it (an unknown section has none).
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("a.cfg", "[X]\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=1\nNonStopSession=Y\n")?;
    /// assert_eq!(s.warnings()[0].key(), None);
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// The warning as strict loading's error ([`ErrorKind::Strict`]), at the
    /// same file, line and key.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("a.cfg", "[X]\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=1\nNonStopSession=Y\n")?;
    /// let err = s.warnings()[0].to_error();
    /// assert!(err.to_string().starts_with("a.cfg:1: [X] is not a section QuickFIX reads"));
    /// assert!(err.to_string().ends_with("(refused by strict loading: correct the line, or load without --strict)"));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn to_error(&self) -> ConfigError {
        let kind = ErrorKind::Strict {
            warning: self.kind.clone(),
        };
        let error = match &self.key {
            Some(key) => ConfigError::keyed(key.clone(), kind),
            None => ConfigError::new(kind),
        };
        match &self.file {
            Some(file) => error.at(file, self.line),
            None => error.with_line(self.line),
        }
    }

    /// What was passed over, and why.
    ///
    /// ```
    /// use fix_engine::config::WarningKind;
    /// # let s = fix_engine::config::Settings::parse("a.cfg", "[X]\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=1\nNonStopSession=Y\n")?;
    /// assert_eq!(s.warnings()[0].kind(), &WarningKind::UnknownSection { name: "X".into() });
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn kind(&self) -> &WarningKind {
        &self.kind
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}", file.display())?;
            if let Some(line) = self.line {
                write!(f, ":{line}")?;
            }
            f.write_str(": ")?;
        }
        if let Some(key) = &self.key {
            write!(f, "{key}: ")?;
        }
        write!(f, "{}", self.kind)
    }
}

/// What a [`Warning`] is about.
///
/// ```
/// use fix_engine::config::WarningKind;
/// let kind = WarningKind::Repeated { first_line: 3 };
/// assert_eq!(kind.to_string(), "set again (first at line 3): the last value is used");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WarningKind {
    /// The same key twice in one section: the last value is used, as QuickFIX does.
    Repeated {
        /// The line of the earlier one.
        first_line: usize,
    },
    /// A section other than `[DEFAULT]` and `[SESSION]`: its settings are ignored.
    UnknownSection {
        /// The name between the brackets.
        name: String,
    },
    /// A setting that does not apply to this session (another ConnectionType's,
    /// another FIX version's, or one another setting turns off), in the
    /// session's own section: ignored.
    NotApplicable {
        /// Why it does not apply.
        reason: &'static str,
    },
    /// A setting read from `[DEFAULT]` only, written in a `[SESSION]`: ignored.
    DefaultOnly,
    /// No StartTime and EndTime (nor NonStopSession=Y): the session is
    /// non-stop, as QuickFIX/Go reads it (QuickFIX C++ and QuickFIX/J would
    /// want a schedule).
    NonStop,
    /// No ConnectionType (QuickFIX/Go's files have none): the role the
    /// session's ports say (SocketAcceptPort, or SocketConnectHost/Port).
    Inferred {
        /// The role taken.
        role: fix_session::Role,
    },
    /// The value asks for what the engine always does.
    NoEffect {
        /// What the engine does.
        note: &'static str,
    },
    /// A setting for a part this engine does not have: ignored.
    Ignored {
        /// What the engine has instead.
        note: &'static str,
    },
    /// A key no QuickFIX implementation documents and the engine does not
    /// read: kept as the application's, readable with
    /// [`SessionSettings::application_keys`](super::SessionSettings::application_keys),
    /// as QuickFIX keeps any key in the session's `Dictionary`.
    UnknownKey {
        /// The known key it is a small slip from (`HeartBeatInt` for
        /// `HeartBtInt`, `SocketConnectHost1` for `SocketConnectHost0`), which
        /// is likely what was meant.
        suggestion: Option<&'static str>,
    },
    /// A setting the engine keeps (readable with
    /// [`SessionSettings::get`](super::SessionSettings::get)) but does not
    /// apply yet.
    NotApplied {
        /// The value, when the engine does what another value would ask for.
        value: Option<String>,
        /// What the engine does instead.
        note: &'static str,
        /// Why it is not applied.
        why: Option<&'static str>,
    },
}

impl fmt::Display for WarningKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarningKind::Repeated { first_line } => {
                write!(
                    f,
                    "set again (first at line {first_line}): the last value is used"
                )
            }
            WarningKind::UnknownSection { name } => write!(
                f,
                "[{name}] is not a section QuickFIX reads ([DEFAULT] and [SESSION] are): its settings are ignored"
            ),
            WarningKind::NotApplicable { reason } => write!(f, "ignored: {reason}"),
            WarningKind::DefaultOnly => {
                f.write_str("ignored: read from [DEFAULT] only, as it is about the whole engine")
            }
            WarningKind::Inferred { role } => {
                let (role, from) = match role {
                    fix_session::Role::Acceptor => ("acceptor", "SocketAcceptPort"),
                    fix_session::Role::Initiator => {
                        ("initiator", "SocketConnectHost/SocketConnectPort")
                    }
                };
                write!(
                    f,
                    "missing: the session is taken as an {role}, as its {from} says (QuickFIX/Go's files have no ConnectionType)"
                )
            }
            WarningKind::NonStop => f.write_str(
                "missing, with EndTime: the session is non-stop (NonStopSession=Y says so without this warning)",
            ),
            WarningKind::UnknownKey { suggestion } => {
                f.write_str(
                    "not a setting QuickFIX or this engine knows: kept for the application (application_keys)",
                )?;
                match suggestion {
                    Some(s) => write!(f, "; did you mean {s}?"),
                    None => Ok(()),
                }
            }
            WarningKind::NoEffect { note } => write!(f, "has no effect: {note}"),
            WarningKind::Ignored { note } => write!(f, "ignored: {note}"),
            WarningKind::NotApplied { value, note, why } => {
                match value {
                    Some(v) => write!(f, "{v:?} is not applied yet")?,
                    None => f.write_str("not applied yet")?,
                }
                if let Some(why) = why {
                    write!(f, " ({why})")?;
                }
                write!(f, ": {note}")
            }
        }
    }
}
