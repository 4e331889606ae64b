//! The table of settings: one row per key of QuickFIX C++, QuickFIX/J,
//! QuickFIX/n, QuickFIX/Go and this engine, saying what the key takes, where it
//! applies, its default, what it sets, and what this engine does with it. The
//! file reader, the builder's checks, the error and warning texts and the
//! list of keys in docs/settings.md all come from here ([`keys`]).

use std::fmt;

/// What a setting's value must be.
///
/// ```
/// use fix_engine::config::ValueType;
/// assert_eq!(ValueType::YesNo.to_string(), "Y or N");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueType {
    /// `Y` or `N`.
    YesNo,
    /// Whole seconds (QuickFIX/Go's durations too: `30s`, `2m`).
    Seconds,
    /// A whole number (of messages, bytes, ...).
    Count,
    /// A port from 1 to 65535.
    Port,
    /// A port from 0 (any free port) to 65535.
    AcceptPort,
    /// A file or directory.
    Path,
    /// A host name or IP address.
    Host,
    /// A comma-separated list of host names or IP addresses.
    HostList,
    /// A body field as `tag=value`.
    TagValue,
    /// A CompID-like name.
    Name,
    /// Any text.
    Text,
    /// `HH:MM:SS`, optionally followed by a time zone.
    TimeOfDay,
    /// A day of the week.
    Day,
    /// A list of days of the week.
    Days,
    /// A time zone.
    Zone,
    /// `CertificateVerifyLevel`'s 0, 1 or 2.
    VerifyLevel,
    /// An ApplVerID code or version name.
    ApplVerId,
    /// A FIX BeginString.
    BeginString,
    /// `initiator` or `acceptor`.
    ConnectionType,
    /// A timestamp's digits of a second: QuickFIX/J's `SECONDS`, `MILLIS`,
    /// `MICROS`, `NANOS` or QuickFIX C++'s `0`, `3`, `6`, `9`.
    TimePrecision,
    /// `QueuedWhileDown`'s `WAIT` or `DROP` (any case).
    QueuedWhileDown,
}

impl fmt::Display for ValueType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.text())
    }
}

impl ValueType {
    /// What a value of this type is, in a few words.
    pub(crate) fn text(self) -> &'static str {
        match self {
            ValueType::YesNo => "Y or N",
            ValueType::Seconds => "seconds",
            ValueType::Count => "a number",
            ValueType::Port => "a port",
            ValueType::AcceptPort => "a port (0: any free one)",
            ValueType::Path => "a path",
            ValueType::Host => "a host name or IP address",
            ValueType::HostList => "host names or IP addresses, comma-separated",
            ValueType::TagValue => "tag=value",
            ValueType::Name => "a name",
            ValueType::Text => "text",
            ValueType::TimeOfDay => "HH:MM:SS [zone]",
            ValueType::Day => "a day of the week",
            ValueType::Days => "days of the week",
            ValueType::Zone => "a time zone",
            ValueType::VerifyLevel => "0, 1 or 2",
            ValueType::ApplVerId => "an ApplVerID",
            ValueType::BeginString => "a BeginString",
            ValueType::ConnectionType => "initiator or acceptor",
            ValueType::TimePrecision => "SECONDS, MILLIS, MICROS or NANOS (or 0, 3, 6, 9)",
            ValueType::QueuedWhileDown => "WAIT or DROP",
        }
    }
}

/// Which sessions a setting is for.
///
/// ```
/// assert_eq!(fix_engine::config::Applies::Initiator.to_string(), "initiator");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Applies {
    /// Acceptors and initiators.
    Both,
    /// Acceptors only.
    Acceptor,
    /// Initiators only.
    Initiator,
}

impl fmt::Display for Applies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Applies::Both => "both",
            Applies::Acceptor => "acceptor",
            Applies::Initiator => "initiator",
        })
    }
}

/// Which sections a setting is read from.
///
/// ```
/// assert_eq!(fix_engine::config::Scope::Any.to_string(), "DEFAULT, SESSION");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// `[DEFAULT]` (for every session) or a `[SESSION]`.
    Any,
    /// `[DEFAULT]` only: it is about the whole engine, not a session.
    Default,
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scope::Any => "DEFAULT, SESSION",
            Scope::Default => "DEFAULT",
        })
    }
}

/// Another setting a setting depends on: without it, the setting does not
/// apply (an error from code, a warning in a session's section, passed over
/// from `[DEFAULT]`).
///
/// ```
/// use fix_engine::config::Cond;
/// assert_eq!(Cond::Ssl.to_string(), "only used with SocketUseSSL=Y");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Cond {
    /// `SocketUseSSL=Y`.
    Ssl,
    /// An initiator, or an acceptor that verifies client certificates.
    InitiatorOrVerifiesClients,
    /// A FIXT.1.1 session.
    Fixt,
    /// A FIX.4.x session.
    NotFixt,
    /// `UseDataDictionary=Y`.
    UseDataDictionary,
    /// A session with a schedule.
    NotNonStop,
    /// `CheckLatency=Y`.
    CheckLatency,
    /// `FileStorePath` given.
    FileStore,
    /// `FileLogPath` given.
    FileLog,
    /// An initiator session (a qualifier).
    InitiatorSession,
}

impl Cond {
    /// Why a setting does not apply when the condition fails.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            Cond::Ssl => "only used with SocketUseSSL=Y",
            Cond::InitiatorOrVerifiesClients => {
                "an acceptor reads it only to verify clients (CertificateVerifyLevel=1 or 2)"
            }
            Cond::Fixt => "only a FIXT.1.1 session uses it",
            Cond::NotFixt => {
                "a FIXT.1.1 session uses TransportDataDictionary and AppDataDictionary instead"
            }
            Cond::UseDataDictionary => "not used with UseDataDictionary=N",
            Cond::NotNonStop => "not used with NonStopSession=Y",
            Cond::CheckLatency => "not used with CheckLatency=N",
            Cond::FileStore => "only used with FileStorePath",
            Cond::FileLog => "only used with FileLogPath",
            Cond::InitiatorSession => "only an initiator session can have a qualifier",
        }
    }
}

impl fmt::Display for Cond {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reason())
    }
}

/// What this engine does with a setting.
///
/// ```
/// use fix_engine::config::{Support, key};
/// assert_eq!(key("ResetOnLogon").unwrap().support, Support::Read);
/// assert!(matches!(key("DynamicSession").unwrap().support, Support::NotApplied(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Support {
    /// Read and honoured.
    Read,
    /// Another implementation's name for an acceptor's and an initiator's
    /// setting: read as the first for an acceptor, the second for an initiator.
    RoleAlias {
        /// The acceptor's setting.
        acceptor: &'static str,
        /// The initiator's setting.
        initiator: &'static str,
    },
    /// The engine always does what one of `values` (compared without case)
    /// asks for: those are accepted with a warning that the key has no effect;
    /// another value is as `otherwise` says.
    Always {
        /// The values that ask for what the engine does.
        values: &'static [&'static str],
        /// What the engine does.
        note: &'static str,
        /// What becomes of another value.
        otherwise: Otherwise,
    },
    /// Tunes a part this engine does not have: accepted with a warning.
    Ignored(&'static str),
    /// Stored and readable ([`SessionSettings::get`](super::SessionSettings::get)),
    /// but not applied yet: accepted with a warning saying so.
    NotApplied(&'static str),
    /// A database store or its connection: an error unless the session has
    /// `FileStorePath` (then a warning), since its messages would otherwise
    /// not be kept where the file says.
    DatabaseStore,
    /// Cannot be honoured: an error.
    Refused(&'static str),
}

/// What becomes of a value other than the one a [`Support::Always`] setting's
/// engine behaviour matches.
///
/// ```
/// use fix_engine::config::{Otherwise, Support, key};
/// let Support::Always { otherwise, .. } = key("ForceResendWhenCorruptedStore").unwrap().support else { panic!() };
/// assert!(matches!(otherwise, Otherwise::NotApplied(_)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Otherwise {
    /// Accepted, stored and readable, with a warning that it is not applied
    /// yet, and why.
    NotApplied(&'static str),
    /// An error, and why.
    Refused(&'static str),
}

/// One row of the table: a setting, as [`keys`] lists them.
///
/// ```
/// let row = fix_engine::config::key("socketnodelay").unwrap();
/// assert_eq!((row.name, row.default), ("SocketNodelay", Some("Y")));
/// assert!(row.aliases.contains(&"SocketTcpNoDelay"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeyInfo {
    /// The name, as QuickFIX spells it (keys are read without regard to case).
    pub name: &'static str,
    /// Other implementations' names for the same setting.
    pub aliases: &'static [&'static str],
    /// What the value must be.
    pub value: ValueType,
    /// Which sessions it is for.
    pub applies: Applies,
    /// Which sections it is read from.
    pub scope: Scope,
    /// The value without the key (`None`: no default, or nothing when absent).
    pub default: Option<&'static str>,
    /// Its meaning, in one line.
    pub doc: &'static str,
    /// What the engine does with it.
    pub support: Support,
    /// What it sets (for [`Support::Read`]), such as `SessionConfig::reset_on_logon`.
    pub sets: &'static str,
    /// The settings it depends on.
    pub when: &'static [Cond],
    /// Where the row's family of numbered or suffixed keys is (`SocketConnectHost<n>`).
    pub family: Option<&'static str>,
    pub(crate) fixed: Fixed,
    /// How the value sets the session's config, for a key that sets one
    /// field of it (the builder applies every such row).
    pub(crate) apply: Option<Apply>,
}

/// How a row's value, as the builder reads it (given or the default), sets
/// a field of [`SessionConfig`](fix_session::SessionConfig). Made by
/// [`field!`]: a key that sets one field is its row, the field and the code
/// that uses it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Apply {
    /// A Y/N value (N without a default).
    Flag(fn(&mut fix_session::SessionConfig, bool)),
    /// A whole number (0 without a default).
    Count(fn(&mut fix_session::SessionConfig, u64)),
    /// A number of seconds above 0.
    Positive(fn(&mut fix_session::SessionConfig, std::time::Duration)),
}

impl Apply {
    fn kind(self) -> u8 {
        match self {
            Apply::Flag(_) => 0,
            Apply::Count(_) => 1,
            Apply::Positive(_) => 2,
        }
    }
}

// A row compares and hashes by what it says; its applier by its kind (the
// field it sets is in `sets`).
impl PartialEq for Apply {
    fn eq(&self, other: &Self) -> bool {
        self.kind() == other.kind()
    }
}

impl Eq for Apply {}

impl std::hash::Hash for Apply {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.kind().hash(state);
    }
}

/// A row's [`Apply`] of `SessionConfig`'s field, with its `sets` text:
/// `field!(flag reset_on_logon)`, `field!(count resend_request_chunk_size)`,
/// `field!(positive logon_timeout)`.
macro_rules! field {
    (flag $f:ident) => {
        (
            concat!("SessionConfig::", stringify!($f)),
            Apply::Flag(|c, v| c.$f = v),
        )
    };
    (count $f:ident) => {
        (
            concat!("SessionConfig::", stringify!($f)),
            Apply::Count(|c, v| c.$f = v),
        )
    };
    (positive $f:ident) => {
        (
            concat!("SessionConfig::", stringify!($f)),
            Apply::Positive(|c, v| c.$f = v),
        )
    };
}

const fn row(value: ValueType, doc: &'static str) -> KeyInfo {
    KeyInfo {
        name: "",
        aliases: &[],
        value,
        applies: Applies::Both,
        scope: Scope::Any,
        default: None,
        doc,
        support: Support::Read,
        sets: "",
        when: &[],
        family: None,
        fixed: Fixed::ConnectionType,
        apply: None,
    }
}

impl KeyInfo {
    const fn named(mut self, fixed: Fixed, name: &'static str) -> Self {
        self.fixed = fixed;
        self.name = name;
        self
    }
    const fn aka(mut self, aliases: &'static [&'static str]) -> Self {
        self.aliases = aliases;
        self
    }
    const fn acceptor(mut self) -> Self {
        self.applies = Applies::Acceptor;
        self
    }
    const fn initiator(mut self) -> Self {
        self.applies = Applies::Initiator;
        self
    }
    const fn default_only(mut self) -> Self {
        self.scope = Scope::Default;
        self
    }
    const fn or(mut self, default: &'static str) -> Self {
        self.default = Some(default);
        self
    }
    const fn sets(mut self, sets: &'static str) -> Self {
        self.sets = sets;
        self
    }
    /// Sets a field of the session's config ([`field!`]).
    const fn session(mut self, (sets, apply): (&'static str, Apply)) -> Self {
        self.sets = sets;
        self.apply = Some(apply);
        self
    }
    const fn when(mut self, when: &'static [Cond]) -> Self {
        self.when = when;
        self
    }
    const fn family(mut self, family: &'static str) -> Self {
        self.family = Some(family);
        self
    }
    const fn support(mut self, support: Support) -> Self {
        self.support = support;
        self
    }
    /// Another value is not applied yet because of the session core.
    const fn always(self, values: &'static [&'static str], note: &'static str) -> Self {
        self.support(Support::Always {
            values,
            note,
            otherwise: Otherwise::NotApplied(SESSION_CORE),
        })
    }
    /// Another value is not applied yet, because `why`.
    const fn else_not_applied(self, why: &'static str) -> Self {
        self.otherwise(Otherwise::NotApplied(why))
    }
    /// Another value is an error, because `why`.
    const fn else_refused(self, why: &'static str) -> Self {
        self.otherwise(Otherwise::Refused(why))
    }
    const fn otherwise(mut self, otherwise: Otherwise) -> Self {
        if let Support::Always { values, note, .. } = self.support {
            self.support = Support::Always {
                values,
                note,
                otherwise,
            };
        }
        self
    }
    const fn ignored(self, note: &'static str) -> Self {
        self.support(Support::Ignored(note))
    }
    const fn not_applied(self, note: &'static str) -> Self {
        self.support(Support::NotApplied(note))
    }
    const fn refused(self, note: &'static str) -> Self {
        self.support(Support::Refused(note))
    }
    const fn database(self) -> Self {
        self.support(Support::DatabaseStore)
    }
    const fn role_alias(self, acceptor: &'static str, initiator: &'static str) -> Self {
        self.support(Support::RoleAlias {
            acceptor,
            initiator,
        })
    }
}

macro_rules! table {
    ($($key:ident => $row:expr,)*) => {
        /// A setting of the table, by its canonical name.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub(crate) enum Fixed {
            $($key),*
        }

        const TABLE: &[KeyInfo] = &[$($row.named(Fixed::$key, stringify!($key))),*];
    };
}

use Cond::*;
use ValueType::*;

const SESSION_CORE: &str = "needs the session core (fix-session)";
const SOCKET_TUNING: &str = "a socket option this engine leaves at the system's default (SocketNodelay and SocketReuseAddress are read)";
const OTHER_LOG: &str =
    "the message log is FileLogPath's files (and events go to tracing); this log is not written";
const JAVA_STORE_TYPE: &str = "only PKCS#12 stores are read: convert a JKS or JCEKS store to PKCS#12 with keytool -importkeystore -srckeystore FILE -destkeystore FILE.p12 -deststoretype pkcs12, name FILE.p12 and leave the type out (or PKCS12)";
const JAVA_MANAGER: &str = "the key and trust stores are read as PKCS#12 files by the engine itself: there is no Java key or trust manager to choose";
const PROTOCOLS: &str = "TLS 1.2 and 1.3 are the protocols";
const CIPHERS: &str = "the TLS library's default cipher suites are used";
const PROXY: &str = "connections are made directly, not through a proxy";
const HB_RULE: &str = "a TestRequest goes out after 1.2 heartbeat intervals of silence and the connection ends after 2.4, as QuickFIX C++ does";

table! {
    // Session identity and role.
    ConnectionType => row(ValueType::ConnectionType, "Whether the session connects (initiator) or waits for connections (acceptor); required").sets("SessionConfig::role, SessionSettings::transport"),
    BeginString => row(ValueType::BeginString, "The FIX version of the session: FIX.4.0 to FIX.4.4 or FIXT.1.1; required").sets("SessionId::begin_string"),
    SenderCompID => row(Name, "Our CompID; required").sets("SessionId::sender_comp_id"),
    TargetCompID => row(Name, "The counterparty's CompID; required").sets("SessionId::target_comp_id"),
    SessionQualifier => row(Name, "Tells apart initiator sessions with the same CompIDs").when(&[InitiatorSession]).sets("SessionId::qualifier"),
    DefaultApplVerID => row(ApplVerId, "The application version of a FIXT.1.1 session (a code such as 9 or a name such as FIX.5.0SP2); required there").when(&[Fixt]).sets("SessionConfig::default_appl_ver_id"),
    AcceptorTemplate => row(YesNo, "QuickFIX/J's dynamic sessions: the section is a template whose BeginString and CompIDs may be *").acceptor().or("N").sets("SessionSettings::acceptor_template"),
    SenderSubID => row(Name, "Our SenderSubID (50), written on every message the session sends (received messages' 50 is not checked, as in QuickFIX)").sets("SessionConfig::sub_ids"),
    SenderLocationID => row(Name, "Our SenderLocationID (142), written on every message the session sends (FIX.4.1 and later)").sets("SessionConfig::sub_ids"),
    TargetSubID => row(Name, "The counterparty's TargetSubID (57), written on every message the session sends (received messages' 57 is not checked, as in QuickFIX)").sets("SessionConfig::sub_ids"),
    TargetLocationID => row(Name, "The counterparty's TargetLocationID (143), written on every message the session sends (FIX.4.1 and later)").sets("SessionConfig::sub_ids"),
    DynamicSession => row(YesNo, "QuickFIX/J's older name for acceptor templates").not_applied("write the section as an acceptor template with AcceptorTemplate=Y"),
    DynamicSessions => row(YesNo, "QuickFIX/Go: an acceptor takes any CompIDs").always(&["N"], "acceptors take the CompIDs of their sessions and templates").else_not_applied("write an acceptor template (AcceptorTemplate=Y, TargetCompID=*)").acceptor(),
    DynamicQualifier => row(YesNo, "QuickFIX/Go: dynamic sessions get a qualifier each").not_applied("acceptor templates make sessions without qualifiers"),
    Description => row(Text, "QuickFIX/J: a description of the session, for people").ignored("kept, readable with SessionSettings::get"),

    // Schedule.
    StartTime => row(ValueType::TimeOfDay, "When the session starts each day (or each week with StartDay), with EndTime; without either, the session is non-stop").when(&[NotNonStop]).sets("SessionSettings::schedule"),
    EndTime => row(ValueType::TimeOfDay, "When the session ends (with StartTime)").when(&[NotNonStop]).sets("SessionSettings::schedule"),
    StartDay => row(ValueType::Day, "The day a weekly session starts (with EndDay)").when(&[NotNonStop]).sets("SessionSettings::schedule"),
    EndDay => row(ValueType::Day, "The day a weekly session ends (with StartDay)").when(&[NotNonStop]).sets("SessionSettings::schedule"),
    Weekdays => row(Days, "QuickFIX/J: the days a daily session runs, such as Mon,Tue,Wed").when(&[NotNonStop]).sets("SessionSettings::schedule"),
    NonStopSession => row(YesNo, "The session never ends (no StartTime/EndTime)").or("N").sets("SessionSettings::schedule"),
    TimeZone => row(ValueType::Zone, "The schedule's time zone: UTC, an offset such as -05:00, or an IANA name").or("UTC").when(&[NotNonStop]).sets("SessionSettings::schedule"),
    UseLocalTime => row(YesNo, "The schedule is in the machine's time zone").or("N").when(&[NotNonStop]).sets("SessionSettings::schedule"),
    LogonTime => row(ValueType::TimeOfDay, "QuickFIX: when an initiator logs on within the schedule").not_applied("the session logs on at StartTime"),
    LogoutTime => row(ValueType::TimeOfDay, "QuickFIX: when an initiator logs out within the schedule").not_applied("the session logs out at EndTime"),
    LogonDay => row(ValueType::Day, "QuickFIX: the day an initiator logs on").not_applied("the session logs on at StartDay"),
    LogoutDay => row(ValueType::Day, "QuickFIX: the day an initiator logs out").not_applied("the session logs out at EndDay"),
    ResetSeqTime => row(ValueType::TimeOfDay, "QuickFIX/Go: a daily sequence reset time").not_applied("sequence numbers are reset at the start of each period of the schedule"),

    // Session behaviour.
    HeartBtInt => row(Seconds, "The heartbeat interval an initiator asks for in its Logon; required for an initiator").initiator().sets("SessionConfig::heart_bt_int"),
    HeartBtIntOverride => row(YesNo, "QuickFIX/Go: an acceptor uses its own HeartBtInt").not_applied("an acceptor takes the counterparty's HeartBtInt"),
    LogonTimeout => row(Seconds, "How long to wait for the Logon (or its answer)").or("10").session(field!(positive logon_timeout)),
    LogoutTimeout => row(Seconds, "How long to wait for the answer to our Logout").or("2").session(field!(positive logout_timeout)),
    ResetOnLogon => row(YesNo, "Sequence numbers back to 1 at every Logon").or("N").session(field!(flag reset_on_logon)),
    ResetOnLogout => row(YesNo, "Sequence numbers back to 1 after a Logout").or("N").session(field!(flag reset_on_logout)),
    ResetOnDisconnect => row(YesNo, "Sequence numbers back to 1 when the connection drops").or("N").session(field!(flag reset_on_disconnect)),
    SendResetSeqNumFlag => row(YesNo, "An initiator's Logon carries ResetSeqNumFlag=Y").initiator().or("N").session(field!(flag send_reset_seq_num_flag)),
    RefreshOnLogon => row(YesNo, "Read the store's state again before each Logon, for a hot standby: with FileStorePath, the file store is opened beside another engine's and takes it over at the Logon, once the other has let it go").or("N").session(field!(flag refresh_on_logon)).sets("SessionConfig::refresh_on_logon, FileOptions::standby"),
    ResetOnError => row(YesNo, "QuickFIX/J: an error in a received application message (it fails validation or parsing, the application refuses it, the store fails) sends a Logout and resets sequence numbers, instead of a Reject").or("N").sets("SessionConfig::on_error"),
    DisconnectOnError => row(YesNo, "QuickFIX/J: such an error ends the connection instead (ResetOnError wins when both are Y)").or("N").sets("SessionConfig::on_error"),
    MaxMessagesPerSecond => row(Count, "This engine's own (no QuickFIX has one): the most application messages the session sends in any second, a sliding window (0: no limit); those over it wait in order in the session's queue (SessionHandle::send sees SendError::Full when it is full); admin messages, resends and answers from callbacks are never held back").or("0").sets("SessionConfig::max_app_messages_per_sec"),
    SendRedundantResendRequests => row(YesNo, "Send a ResendRequest for every message past a gap, even while one for the gap is pending").or("N").session(field!(flag send_redundant_resend_requests)),
    LogonTag => row(TagValue, "QuickFIX/J: a tag=value body field added to every Logon we send (LogonTag=553=user); LogonTag<n> for more, in order").family("LogonTag<n>").sets("SessionSettings::logon_fields"),
    MillisecondsInTimeStamp => row(YesNo, "QuickFIX: SendingTime with milliseconds (N: whole seconds; TimeStampPrecision wins when both are given)").or("Y").sets("SessionConfig::timestamp_precision"),
    TimeStampPrecision => row(TimePrecision, "SendingTime's and OrigSendingTime's digits of a second; FIX.4.0 and FIX.4.1 always write whole seconds").or("MILLIS").sets("SessionConfig::timestamp_precision"),
    EnableLastMsgSeqNumProcessed => row(YesNo, "LastMsgSeqNumProcessed (369) on every message").always(&["N"], "LastMsgSeqNumProcessed is not sent"),
    EnableNextExpectedMsgSeqNum => row(YesNo, "QuickFIX/J: NextExpectedMsgSeqNum (789) in the Logon").aka(&["SendNextExpectedMsgSeqNum"]).always(&["N"], "NextExpectedMsgSeqNum is not sent"),
    TestRequestDelayMultiplier => row(Text, "QuickFIX/J: when a TestRequest is sent, in heartbeat intervals").not_applied(HB_RULE),
    HeartBeatTimeoutMultiplier => row(Text, "QuickFIX/J: when a silent counterparty is disconnected, in heartbeat intervals").not_applied(HB_RULE),
    DisableHeartBeatCheck => row(YesNo, "QuickFIX/J: never disconnect a silent counterparty").always(&["N"], "a silent counterparty is disconnected"),
    ClosedResendInterval => row(YesNo, "QuickFIX/J: ask only for the gap's closed range").always(&["N"], "a ResendRequest's EndSeqNo is 0, to the end (999999 before FIX.4.2)"),
    AllowPosDup => row(YesNo, "QuickFIX/J: pass PossDup messages to the application").always(&["N"], "resent messages already processed are dropped"),
    RequiresOrigSendingTime => row(YesNo, "A PossDup message must carry OrigSendingTime").always(&["Y"], "a PossDup message without OrigSendingTime is rejected"),
    RejectGarbledMessage => row(YesNo, "QuickFIX/J: reject a garbled message instead of dropping it").always(&["N"], "a garbled message is dropped"),
    RejectInvalidMessage => row(YesNo, "Reject a message that fails validation").always(&["Y"], "a message that fails validation is rejected"),
    RejectMessageOnUnhandledException => row(YesNo, "QuickFIX/J: reject a message the application threw on").always(&["N"], "an application that panics ends its connection; the message is resent"),
    ForceResendWhenCorruptedStore => row(YesNo, "QuickFIX/J: resend even from a corrupted store").always(&["N"], "a damaged store refuses to open").else_not_applied("needs the store (fix-session)"),
    ValidateSequenceNumbers => row(YesNo, "QuickFIX/J: check MsgSeqNum").always(&["Y"], "MsgSeqNum is always checked"),
    ResendSessionLevelRejects => row(YesNo, "QuickFIX/n: resend session-level Rejects").always(&["N"], "session-level messages are gap-filled on a resend"),
    IgnorePossDupResendRequests => row(YesNo, "QuickFIX/n: ignore a PossDup ResendRequest").always(&["N"], "every ResendRequest is answered"),
    SendLogoutBeforeDisconnectFromTimeout => row(YesNo, "QuickFIX/n: a Logout before the connection ends for a silent counterparty").or("N").session(field!(flag send_logout_before_timeout_disconnect)),
    CmeEnhancedResend => row(YesNo, "QuickFIX/n: CME's resend rules").always(&["N"], "resends follow the FIX standard"),
    ResendRequestChunkSize => row(Count, "The most messages one ResendRequest asks for (0: all)").aka(&["MaxMessagesInResendRequest"]).or("0").session(field!(count resend_request_chunk_size)),
    PersistMessages => row(YesNo, "Keep sent messages for resends (N: resends are gap fills)").or("Y").session(field!(flag persist_messages)),
    CheckCompID => row(YesNo, "Every message's CompIDs must be the session's").or("Y").session(field!(flag check_comp_id)),
    CheckLatency => row(YesNo, "SendingTime must be within MaxLatency of our clock").or("Y").sets("SessionConfig::check_latency"),
    MaxLatency => row(Seconds, "How far SendingTime may be from our clock").or("120").when(&[CheckLatency]).session(field!(positive max_latency)),
    ContinueInitializationOnError => row(YesNo, "QuickFIX/J: start the other sessions when one's settings are wrong").default_only().always(&["N"], "a settings error stops the engine from starting").else_not_applied("the engine starts all its sessions or none"),
    LogMessageWhenSessionNotFound => row(YesNo, "QuickFIX/J: log a message for an unknown session").default_only().ignored("a Logon for no session is refused and reported through tracing"),
    InChanCapacity => row(Count, "QuickFIX/Go: the size of a session's incoming channel").ignored("the engine's queues are sized by EngineOptions"),
    Encoding => row(Text, "QuickFIX/n: the text encoding of messages").ignored("messages are bytes; text fields are read as they are"),
    RedactFieldsInLogs => row(Text, "QuickFIX/n: fields whose values the log hides").not_applied("the log writes messages as they are"),
    RedactionLogText => row(Text, "QuickFIX/n: the text a hidden value becomes").not_applied("the log writes messages as they are"),

    // Validation.
    UseDataDictionary => row(YesNo, "Validate received messages against the dictionary").or("Y").sets("SessionConfig::validator"),
    DataDictionary => row(Path, "The dictionary of a FIX.4.x session").when(&[NotFixt, UseDataDictionary]).sets("DictionaryPaths::data_dictionary"),
    TransportDataDictionary => row(Path, "The session-level dictionary of a FIXT.1.1 session").when(&[Fixt, UseDataDictionary]).sets("DictionaryPaths::transport"),
    AppDataDictionary => row(Path, "The application dictionary of DefaultApplVerID (FIXT.1.1); AppDataDictionary.<version> for others").when(&[Fixt, UseDataDictionary]).family("AppDataDictionary.<version>").sets("DictionaryPaths::app"),
    ValidateFieldsOutOfOrder => row(YesNo, "Header, body and trailer fields must be in their places").or("Y").when(&[UseDataDictionary]).sets("Validator::validate_fields_out_of_order"),
    ValidateFieldsHaveValues => row(YesNo, "Fields must not be empty").or("Y").when(&[UseDataDictionary]).sets("Validator::validate_fields_have_values"),
    ValidateUserDefinedFields => row(YesNo, "User-defined fields (5000 and up) must be in the dictionary").or("Y").when(&[UseDataDictionary]).sets("Validator::validate_user_defined_fields"),
    AllowUnknownMsgFields => row(YesNo, "Fields the dictionary does not have in the message are let through").or("N").when(&[UseDataDictionary]).sets("Validator::allow_unknown_msg_fields"),
    AllowUnknownEnumValues => row(YesNo, "Values the dictionary does not list are let through").always(&["N"], "a value the dictionary does not list is rejected").else_not_applied("needs the validator (fix-core)"),
    ValidateLengthAndChecksum => row(YesNo, "Check BodyLength and CheckSum").always(&["Y"], "BodyLength and CheckSum are always checked").else_not_applied("needs the parser (fix-core)"),
    ValidateChecksum => row(YesNo, "QuickFIX/J: CheckSum must equal the byte sum (N: any three digits pass, for counterparties that get it wrong)").or("Y").sets("SessionConfig::parser (Parser::with_checksum_validation)"),
    ValidateIncomingMessage => row(YesNo, "QuickFIX/J: validate received messages").always(&["Y"], "received messages are validated unless UseDataDictionary=N; write that instead").else_not_applied("write UseDataDictionary=N"),
    ValidateUnorderedGroupFields => row(YesNo, "QuickFIX/J: group members must be in order").always(&["Y"], "group member order is checked under ValidateFieldsOutOfOrder").else_not_applied("needs the validator (fix-core)"),
    FirstFieldInGroupIsDelimiter => row(YesNo, "QuickFIX/J: a group's first field starts each entry").always(&["Y"], "a group's first field starts each entry").else_not_applied("needs the validator (fix-core)"),
    PreserveMessageFieldsOrder => row(YesNo, "QuickFIX: keep fields in wire order").always(&["Y"], "received messages are read in wire order").else_not_applied("needs the parser (fix-core)"),

    // Initiator.
    SocketConnectHost => row(Host, "The host an initiator connects to; SocketConnectHost<n> are failover hosts").initiator().family("SocketConnectHost<n>").sets("InitiatorTransport::endpoints"),
    SocketConnectPort => row(Port, "The port an initiator connects to; SocketConnectPort<n> with SocketConnectHost<n>").initiator().family("SocketConnectPort<n>").sets("InitiatorTransport::endpoints"),
    ReconnectInterval => row(Seconds, "The pause between connection attempts; 0 is once a second, as QuickFIX C++ reads it").initiator().or("30").sets("InitiatorTransport::reconnect_interval"),
    HostSelectionPolicy => row(Text, "QuickFIX: how failover hosts are chosen").initiator().ignored("each attempt tries the hosts in order, from the first"),
    HostSelectionPolicyPriorityStartOverInterval => row(Seconds, "QuickFIX: when to go back to the first host").initiator().ignored("each attempt tries the hosts in order, from the first"),
    SocketConnectSourceHost => row(Host, "The local address an initiator connects from").aka(&["SocketLocalHost"]).initiator().sets("SocketOptions::local_host"),
    SocketConnectSourcePort => row(Port, "The local port an initiator connects from").aka(&["SocketLocalPort"]).initiator().sets("SocketOptions::local_port"),
    SocketConnectProtocol => row(Text, "QuickFIX/J: TCP or VM_PIPE").initiator().always(&["TCP"], "connections are TCP").else_refused("this engine has TCP connections only"),
    SocketConnectTimeout => row(Seconds, "How long a connection attempt (TCP, then the TLS handshake) may take; absent (or 0), EngineOptions::connect_timeout").aka(&["SocketTimeout"]).initiator().sets("SessionSettings::connect_timeout"),
    ProxyType => row(Text, "QuickFIX/J: the proxy's type").initiator().not_applied(PROXY),
    ProxyVersion => row(Text, "QuickFIX/J: the proxy's version").initiator().not_applied(PROXY),
    ProxyHost => row(Host, "The proxy's host").initiator().not_applied(PROXY),
    ProxyPort => row(Port, "The proxy's port").initiator().not_applied(PROXY),
    ProxyUser => row(Text, "The proxy's user").initiator().not_applied(PROXY),
    ProxyPassword => row(Text, "The proxy's password").initiator().not_applied(PROXY),
    ProxyDomain => row(Text, "QuickFIX/J: the proxy's domain").initiator().not_applied(PROXY),
    ProxyWorkstation => row(Text, "QuickFIX/J: the proxy's workstation").initiator().not_applied(PROXY),
    SocketIgnoreProxy => row(YesNo, "QuickFIX/n: ignore the system's proxy").initiator().always(&["Y"], PROXY).else_not_applied(PROXY),

    // Acceptor.
    SocketAcceptPort => row(AcceptPort, "The port an acceptor listens on; sessions on one port share its listener. 0: a port the system picks, bound once when the engine starts and shared by every session with 0 (their SocketAcceptAddress and socket settings the same, as on any shared port); Engine::local_addrs and Engine::local_addr say which").acceptor().sets("AcceptorTransport::port"),
    SocketAcceptAddress => row(Host, "The local address an acceptor listens on").aka(&["SocketAcceptHost"]).acceptor().sets("AcceptorTransport::address"),
    SocketAcceptProtocol => row(Text, "QuickFIX/J: TCP or VM_PIPE").acceptor().always(&["TCP"], "connections are TCP").else_refused("this engine has TCP connections only"),
    SocketReuseAddress => row(YesNo, "The listener binds with SO_REUSEADDR, so a restart need not wait for old connections").acceptor().or("Y").sets("SessionSettings::reuse_address"),
    AllowedRemoteAddresses => row(HostList, "QuickFIX/J: the addresses (IP addresses or host names, comma-separated) an acceptor session takes connections from; absent, any").acceptor().sets("SessionSettings::allowed_remote_addresses"),
    UseTCPProxy => row(YesNo, "QuickFIX/Go: connections start with a PROXY protocol header").acceptor().always(&["N"], "connections carry FIX from their first byte").else_not_applied("needs the acceptor's connection reader"),
    HttpAcceptPort => row(Port, "QuickFIX: the port of an HTTP status page").default_only().ignored("there is no HTTP status page"),
    AdminSocket => row(Path, "This engine: a Unix socket operators' commands are answered on, a line each (sessions, status, set-next, reset, logout, disconnect, hold, release, add, remove; see docs/operations.md); absent, none").default_only().sets("EngineOptions::admin_socket"),

    // Sockets.
    SocketNodelay => row(YesNo, "TCP_NODELAY on the session's socket").aka(&["SocketTcpNoDelay"]).or("Y").sets("SessionSettings::tcp_nodelay"),
    SocketSendBufferSize => row(Count, "SO_SNDBUF of the session's sockets, in bytes; absent, the system's").aka(&["SendBufferSize"]).sets("SocketOptions::send_buffer_size"),
    SocketReceiveBufferSize => row(Count, "SO_RCVBUF of the session's sockets, in bytes; absent, the system's").aka(&["ReceiveBufferSize"]).sets("SocketOptions::receive_buffer_size"),
    SocketKeepAlive => row(YesNo, "QuickFIX/J: SO_KEEPALIVE on the session's sockets (Y on, N off); absent, the engine's default").sets("SocketOptions::keepalive"),
    SocketOobInline => row(YesNo, "QuickFIX/J: SO_OOBINLINE").ignored(SOCKET_TUNING),
    SocketLinger => row(Text, "QuickFIX/J: SO_LINGER").ignored(SOCKET_TUNING),
    SocketTrafficClass => row(Text, "QuickFIX/J: the IP traffic class").ignored(SOCKET_TUNING),
    SocketSynchronousWrites => row(YesNo, "QuickFIX/J: writes wait for the socket").ignored("writes are asynchronous, bounded by EngineOptions"),
    SocketSynchronousWriteTimeout => row(Text, "QuickFIX/J: how long a synchronous write may take").ignored("writes are asynchronous, bounded by EngineOptions"),
    MaxScheduledWriteRequests => row(Count, "QuickFIX/J: the most writes queued").ignored("the output queue is bounded by EngineOptions"),
    QueuedMessageMaxAge => row(Seconds, "How long a message the application queued (SessionHandle::send) may wait, the session down or behind, before it is dropped unsent (0: no limit); absent, EngineOptions::max_queued_age").sets("SessionSettings::max_queued_age"),
    QueuedWhileDown => row(ValueType::QueuedWhileDown, "What becomes of the messages still queued when a connection ends: WAIT for the next Logon, or DROP them; absent, EngineOptions::queued_while_down").sets("SessionSettings::queued_while_down"),
    SocketSendTimeout => row(Count, "QuickFIX/n: a write's time limit").ignored(SOCKET_TUNING),
    SocketReceiveTimeout => row(Count, "QuickFIX/n: a read's time limit").ignored("a silent counterparty is found by the heartbeat rules"),

    // TLS.
    SocketUseSSL => row(YesNo, "TLS on the session's connections").aka(&["SSLEnable"]).or("N").sets("SessionSettings::tls"),
    ServerCertificateFile => row(Path, "An acceptor's certificate chain (PEM, or a PKCS#12 file holding its key too); required with TLS").acceptor().when(&[Ssl]).sets("Tls::certificate"),
    ServerCertificateKeyFile => row(Path, "Its private key (PEM or PKCS#12); absent, read from the certificate's file").acceptor().when(&[Ssl]).sets("Tls::private_key"),
    ClientCertificateFile => row(Path, "An initiator's client certificate (PEM, or a PKCS#12 file holding its key too), for mutual TLS").initiator().when(&[Ssl]).sets("Tls::certificate"),
    ClientCertificateKeyFile => row(Path, "Its private key (PEM or PKCS#12)").initiator().when(&[Ssl]).sets("Tls::private_key"),
    CertificationAuthoritiesFile => row(Path, "The certificate authorities (PEM) the peer's certificate is checked against, a file or a directory of files; an initiator without one checks against the system's (SSL_CERT_FILE or SSL_CERT_DIR, else the system's bundle), as QuickFIX does with OpenSSL's defaults").aka(&["SocketCAFile", "SSLCACertificate", "CertificationAuthoritiesDirectory"]).when(&[Ssl, InitiatorOrVerifiesClients]).sets("Tls::ca_file"),
    CertificateVerifyLevel => row(VerifyLevel, "An acceptor's client certificates: 0 none, 1 required, 2 verified when given").acceptor().or("0").when(&[Ssl]).sets("Tls::client_auth"),
    NeedClientAuth => row(YesNo, "QuickFIX/J: Y is CertificateVerifyLevel=1").aka(&["SSLRequireClientCertificate"]).acceptor().or("N").when(&[Ssl]).sets("Tls::client_auth"),
    ClientCertificateNames => row(Text, "Names (comma-separated) one of which a client's certificate must hold for the session: a DNS name or IP address among its subject alternative names, or its subject's CommonName; {TargetCompID} stands for the session's TargetCompID (for a template's sessions); needs client certificates required").acceptor().when(&[Ssl]).sets("Tls::client_names"),
    SNIHostName => row(Host, "The name the acceptor's certificate must hold, sent as SNI, instead of SocketConnectHost").aka(&["SSLServerName", "SocketServerName"]).initiator().when(&[Ssl]).sets("Tls::server_name"),
    SocketCertificateFile => row(Path, "QuickFIX/Go's name for ServerCertificateFile (acceptor) or ClientCertificateFile (initiator)").aka(&["SSLCertificate"]).role_alias("ServerCertificateFile", "ClientCertificateFile"),
    SocketPrivateKeyFile => row(Path, "QuickFIX/Go's name for ServerCertificateKeyFile (acceptor) or ClientCertificateKeyFile (initiator)").role_alias("ServerCertificateKeyFile", "ClientCertificateKeyFile"),
    SocketInsecureSkipVerify => row(YesNo, "QuickFIX/Go: Y skips checking the acceptor's certificate (its authority, validity and name; the handshake's signatures are still checked): for tests against a counterparty's self-signed certificate, warned at start and in every connection's event log").initiator().or("N").when(&[Ssl]).sets("Tls::verify_certificates"),
    SSLValidateCertificates => row(YesNo, "QuickFIX/n: N skips checking the peer's certificate (an initiator's of the acceptor, an acceptor's of its clients: their authority, validity and name; the handshake's signatures are still checked), warned at start and in every connection's event log").or("Y").when(&[Ssl]).sets("Tls::verify_certificates"),
    SSLCertificatePassword => row(Text, "QuickFIX/n: the password of an encrypted private key, PKCS#8 PEM (ENCRYPTED PRIVATE KEY, as openssl pkcs8 -topk8 -v2 aes-256-cbc or openssl genpkey -aes256 write it), or of a PKCS#12 file (.p12, .pfx, as openssl pkcs12 -export writes it: AES-256-CBC, an HMAC-SHA256 MAC; without this key, the empty password), opened at start (a wrong one is an error then); a PKCS#12 file in the legacy form (openssl pkcs12 -export -legacy: RC2 or triple DES, a SHA-1 MAC) or a key in OpenSSL's traditional encrypted PEM (Proc-Type: 4,ENCRYPTED) is refused, naming the openssl commands that convert it").when(&[Ssl]).sets("Tls::key_password"),
    SocketCertificateBytes => row(Text, "QuickFIX/Go: the certificate's PEM text itself").refused("a PEM does not fit on one line of a settings file (QuickFIX/Go sets it in code): give the PEM in a file with SocketCertificateFile"),
    SocketPrivateKeyBytes => row(Text, "QuickFIX/Go: the private key's PEM text itself").refused("a PEM does not fit on one line of a settings file (QuickFIX/Go sets it in code): give the PEM in a file with SocketPrivateKeyFile"),
    SocketCABytes => row(Text, "QuickFIX/Go: the certificate authorities' PEM text itself").refused("a PEM does not fit on one line of a settings file (QuickFIX/Go sets it in code): give the PEM in a file with SocketCAFile"),
    SocketMinimumTLSVersion => row(Text, "QuickFIX/Go: the oldest TLS version").ignored(PROTOCOLS),
    SSLProtocols => row(Text, "QuickFIX/n: the TLS versions").aka(&["SSLProtocol", "EnabledProtocols"]).ignored(PROTOCOLS),
    SSLCipherSuite => row(Text, "QuickFIX: the cipher suites").aka(&["CipherSuites", "TLSCipherSuites"]).ignored(CIPHERS),
    SSLCheckCertificateRevocation => row(YesNo, "QuickFIX/n: check certificate revocation").always(&["N"], "revocation is checked against CertificateRevocationListFile only").else_not_applied("QuickFIX/n asks online; give the lists with CertificateRevocationListFile"),
    CertificateRevocationListFile => row(Path, "Revocation lists (PEM X509 CRL) the peer's certificate is checked against, a file or a directory of files; a certificate they revoke, or whose authority they do not cover, is refused").aka(&["CertificateRevocationListDirectory"]).when(&[Ssl, InitiatorOrVerifiesClients]).sets("Tls::revocation_lists"),
    UseSNI => row(YesNo, "QuickFIX/J: send SNI").always(&["Y"], "the server name (SNIHostName, else SocketConnectHost) is sent when it is a DNS name").else_not_applied("needs the TLS setup"),
    EndpointIdentificationAlgorithm => row(Text, "QuickFIX/J: check the acceptor's name in its certificate (HTTPS)").always(&["HTTPS"], "an initiator always checks the acceptor's certificate against the server name").else_refused("certificate checks cannot be turned off"),
    SocketKeyStore => row(Path, "QuickFIX/J: the key store, a PKCS#12 file (keytool's default type since Java 9; .p12, .pfx), opened at start with SocketKeyStorePassword as SSLCertificatePassword opens a PKCS#12 certificate file: its certificate chain and private key are an acceptor's server certificate or an initiator's client certificate, in place of the PEM files (given with ServerCertificateFile, ServerCertificateKeyFile, ClientCertificateFile, ClientCertificateKeyFile or SSLCertificatePassword, an error); a JKS or JCEKS store is refused at start, naming the keytool command that converts it").when(&[Ssl]).sets("Tls::key_store"),
    SocketTrustStore => row(Path, "QuickFIX/J: the trust store, a PKCS#12 file opened at start with SocketTrustStorePassword: its certificates (a trust store has no key) are the authorities the peer's certificate is checked against, in place of CertificationAuthoritiesFile (given with it, an error); a JKS or JCEKS store is refused at start, naming the keytool command that converts it").when(&[Ssl, InitiatorOrVerifiesClients]).sets("Tls::trust_store"),
    SocketKeyStorePassword => row(Text, "QuickFIX/J: the key store's password, its MAC verified and its bags decrypted with it; absent, the empty password").when(&[Ssl]).sets("Tls::key_store_password"),
    SocketTrustStorePassword => row(Text, "QuickFIX/J: the trust store's password, its MAC verified and its bags decrypted with it; absent, the empty password (a store written without a MAC and with its certificates unencrypted opens without one)").when(&[Ssl, InitiatorOrVerifiesClients]).sets("Tls::trust_store_password"),
    KeyStoreType => row(Text, "QuickFIX/J: the key store's type: PKCS12 (any case), or absent; JKS and JCEKS are refused, naming the keytool command that converts them").always(&["PKCS12"], "the key store is read as PKCS#12").else_refused(JAVA_STORE_TYPE),
    TrustStoreType => row(Text, "QuickFIX/J: the trust store's type: PKCS12 (any case), or absent; JKS and JCEKS are refused, naming the keytool command that converts them").always(&["PKCS12"], "the trust store is read as PKCS#12").else_refused(JAVA_STORE_TYPE),
    KeyManagerFactoryAlgorithm => row(Text, "QuickFIX/J: the key manager's algorithm").ignored(JAVA_MANAGER),
    TrustManagerFactoryAlgorithm => row(Text, "QuickFIX/J: the trust manager's algorithm").ignored(JAVA_MANAGER),

    // Store.
    FileStorePath => row(Path, "The file store's directory; absent, messages are kept in memory").sets("SessionSettings::store_path"),
    FileStoreSync => row(YesNo, "Each message durable before it is sent, by group commit: one sync a batch of what a connection stored (N: the system's page cache)").or("Y").when(&[FileStore]).sets("SessionSettings::store_options"),
    FileStoreShared => row(YesNo, "With FileStoreSync=Y, one log for every session of the engine in this FileStorePath (its `shared-log` directory), so that one sync makes what all of them stored durable (N: a log and a sync per session)").or("Y").when(&[FileStore]).sets("SessionSettings::store_shared"),
    FileStoreMaxCachedMsgs => row(Count, "QuickFIX/J: messages the file store caches").ignored("the file store keeps its index in memory and reads messages through a mapping"),
    FileStoreBackupPath => row(Path, "A second directory for the store").not_applied("the store is written to FileStorePath only"),
    MySQLStoreDatabase => row(Text, "QuickFIX: MySQL store").database(),
    MySQLStoreUser => row(Text, "QuickFIX: MySQL store").database(),
    MySQLStorePassword => row(Text, "QuickFIX: MySQL store").database(),
    MySQLStoreHost => row(Text, "QuickFIX: MySQL store").database(),
    MySQLStorePort => row(Text, "QuickFIX: MySQL store").database(),
    MySQLStoreUseConnectionPool => row(Text, "QuickFIX: MySQL store").database(),
    PostgreSQLStoreDatabase => row(Text, "The PostgreSQL store's database (QuickFIX's default `quickfix`); any PostgreSQLStore key makes the store PostgreSQL, with a lease fencing other engines").sets("SessionSettings::postgres_store"),
    PostgreSQLStoreUser => row(Text, "The PostgreSQL store's user (default `postgres`)").sets("SessionSettings::postgres_store"),
    PostgreSQLStorePassword => row(Text, "The PostgreSQL store's password (default none)").sets("SessionSettings::postgres_store"),
    PostgreSQLStoreHost => row(Text, "The PostgreSQL store's host, or the directory of its Unix socket (default `localhost`)").sets("SessionSettings::postgres_store"),
    PostgreSQLStorePort => row(Port, "The PostgreSQL store's port (default 5432)").sets("SessionSettings::postgres_store"),
    PostgreSQLStoreUseConnectionPool => row(YesNo, "QuickFIX: share connections between sessions").ignored("each session's store has its own connection, on its own thread"),
    PostgreSQLStoreConnection => row(Text, "A libpq connection string for the PostgreSQL store (`host=/run/pg user=fix dbname=fix`), in place of the five PostgreSQLStore keys").sets("SessionSettings::postgres_store"),
    PostgreSQLStoreLease => row(Seconds, "How long a session's lease in the PostgreSQL store lasts unrenewed: another engine takes the session over this long after this one stops").or("10").sets("SessionSettings::postgres_store"),
    PostgreSQLStoreNode => row(Text, "This engine's name in the PostgreSQL store's leases (default: the host name and process ID)").sets("SessionSettings::postgres_store"),
    PostgreSQLStoreMaxSessions => row(Count, "The most sessions this engine holds in the PostgreSQL store (0: no limit); the others are left to other engines").or("0").default_only().sets("SessionSettings::postgres_store"),
    OdbcStoreUser => row(Text, "QuickFIX: ODBC store").database(),
    OdbcStorePassword => row(Text, "QuickFIX: ODBC store").database(),
    OdbcStoreConnectionString => row(Text, "QuickFIX: ODBC store").database(),
    JdbcDataSourceName => row(Text, "QuickFIX/J: JDBC store and log").database(),
    JdbcDriver => row(Text, "QuickFIX/J: JDBC store and log").database(),
    JdbcURL => row(Text, "QuickFIX/J: JDBC store and log").database(),
    JdbcUser => row(Text, "QuickFIX/J: JDBC store and log").database(),
    JdbcPassword => row(Text, "QuickFIX/J: JDBC store and log").database(),
    JdbcStoreMessagesTableName => row(Text, "QuickFIX/J: JDBC store").database(),
    JdbcStoreSessionsTableName => row(Text, "QuickFIX/J: JDBC store").database(),
    JdbcSessionIdDefaultPropertyValue => row(Text, "QuickFIX/J: JDBC store").database(),
    JdbcMaxActiveConnection => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcMaxActiveTime => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcMaxConnectionLifeTime => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcSimultaneousBuildThrottle => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcConnectionTimeout => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcConnectionIdleTimeout => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcConnectionKeepaliveTime => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcConnectionTestQuery => row(Text, "QuickFIX/J: JDBC pool").database(),
    JdbcMinIdleConnection => row(Text, "QuickFIX/J: JDBC pool").database(),
    JndiContextFactory => row(Text, "QuickFIX/J: JNDI for the JDBC data source").database(),
    JndiProviderURL => row(Text, "QuickFIX/J: JNDI for the JDBC data source").database(),
    SleepycatDatabaseDir => row(Path, "QuickFIX/J: Sleepycat store").database(),
    SleepycatMessageDbName => row(Text, "QuickFIX/J: Sleepycat store").database(),
    SleepycatSequenceDbName => row(Text, "QuickFIX/J: Sleepycat store").database(),
    SQLStoreDriver => row(Text, "QuickFIX/Go: SQL store").database(),
    SQLStoreDataSourceName => row(Text, "QuickFIX/Go: SQL store").database(),
    SQLStoreConnMaxLifetime => row(Text, "QuickFIX/Go: SQL store").database(),
    MongoStoreConnection => row(Text, "QuickFIX/Go: MongoDB store").database(),
    MongoStoreDatabase => row(Text, "QuickFIX/Go: MongoDB store").database(),
    MongoStoreReplicaSet => row(Text, "QuickFIX/Go: MongoDB store").database(),

    // Log.
    FileLogPath => row(Path, "The message and event log's directory; absent, no log").sets("SessionSettings::log_path"),
    FileLogBackupPath => row(Path, "QuickFIX: where old logs go").not_applied("logs stay in FileLogPath"),
    DebugFileLogPath => row(Path, "QuickFIX/n: a debug log's directory").ignored("debug events go to tracing"),
    FileLogHeartbeats => row(YesNo, "QuickFIX/J: log Heartbeats (N: the message log leaves them out)").or("Y").when(&[FileLog]).sets("SessionSettings::log_heartbeats"),
    FileIncludeMilliseconds => row(YesNo, "QuickFIX/J: the log's timestamps with milliseconds (N: whole seconds)").or("Y").when(&[FileLog]).sets("SessionSettings::log_options"),
    FileIncludeTimeStampForMessages => row(YesNo, "QuickFIX/J: log a time for each message").ignored("the log's time format is QuickFIX C++'s"),
    ScreenLogShowIncoming => row(YesNo, "Print received messages to standard output (any ScreenLog key makes the screen log; those not given are Y)").sets("SessionSettings::screen_log"),
    ScreenLogShowOutgoing => row(YesNo, "Print sent messages to standard output (a screen log)").sets("SessionSettings::screen_log"),
    ScreenLogShowEvents => row(YesNo, "Print events to standard output (a screen log)").aka(&["ScreenLogEvents"]).sets("SessionSettings::screen_log"),
    ScreenLogShowHeartBeats => row(YesNo, "QuickFIX/J: the screen log prints Heartbeats (N: leaves them out)").sets("SessionSettings::screen_log"),
    ScreenIncludeMilliseconds => row(YesNo, "QuickFIX/J: the screen log's times with milliseconds (not given: whole seconds)").sets("SessionSettings::screen_log"),
    SLF4JLogEventCategory => row(Text, "QuickFIX/J: SLF4J log").ignored(OTHER_LOG),
    SLF4JLogErrorEventCategory => row(Text, "QuickFIX/J: SLF4J log").ignored(OTHER_LOG),
    SLF4JLogIncomingMessageCategory => row(Text, "QuickFIX/J: SLF4J log").ignored(OTHER_LOG),
    SLF4JLogOutgoingMessageCategory => row(Text, "QuickFIX/J: SLF4J log").ignored(OTHER_LOG),
    SLF4JLogPrependSessionID => row(YesNo, "QuickFIX/J: SLF4J log").ignored(OTHER_LOG),
    SLF4JLogHeartbeats => row(YesNo, "QuickFIX/J: SLF4J log").ignored(OTHER_LOG),
    JdbcLogHeartBeats => row(YesNo, "QuickFIX/J: JDBC log").ignored(OTHER_LOG),
    JdbcLogIncomingTable => row(Text, "QuickFIX/J: JDBC log").ignored(OTHER_LOG),
    JdbcLogOutgoingTable => row(Text, "QuickFIX/J: JDBC log").ignored(OTHER_LOG),
    JdbcLogEventTable => row(Text, "QuickFIX/J: JDBC log").ignored(OTHER_LOG),
    MySQLLogDatabase => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogUser => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogPassword => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogHost => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogPort => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogUseConnectionPool => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogIncomingTable => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogOutgoingTable => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    MySQLLogEventTable => row(Text, "QuickFIX: MySQL log").ignored(OTHER_LOG),
    PostgreSQLLogDatabase => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogUser => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogPassword => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogHost => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogPort => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogUseConnectionPool => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogIncomingTable => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogOutgoingTable => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    PostgreSQLLogEventTable => row(Text, "QuickFIX: PostgreSQL log").ignored(OTHER_LOG),
    OdbcLogUser => row(Text, "QuickFIX: ODBC log").ignored(OTHER_LOG),
    OdbcLogPassword => row(Text, "QuickFIX: ODBC log").ignored(OTHER_LOG),
    OdbcLogConnectionString => row(Text, "QuickFIX: ODBC log").ignored(OTHER_LOG),
    OdbcLogIncomingTable => row(Text, "QuickFIX: ODBC log").ignored(OTHER_LOG),
    OdbcLogOutgoingTable => row(Text, "QuickFIX: ODBC log").ignored(OTHER_LOG),
    OdbcLogEventTable => row(Text, "QuickFIX: ODBC log").ignored(OTHER_LOG),
    SQLLogDriver => row(Text, "QuickFIX/Go: SQL log").ignored(OTHER_LOG),
    SQLLogDataSourceName => row(Text, "QuickFIX/Go: SQL log").ignored(OTHER_LOG),
    SQLLogConnMaxLifetime => row(Text, "QuickFIX/Go: SQL log").ignored(OTHER_LOG),
    MongoLogConnection => row(Text, "QuickFIX/Go: MongoDB log").ignored(OTHER_LOG),
    MongoLogDatabase => row(Text, "QuickFIX/Go: MongoDB log").ignored(OTHER_LOG),
    MongoLogReplicaSet => row(Text, "QuickFIX/Go: MongoDB log").ignored(OTHER_LOG),
}

impl Fixed {
    /// The row of this setting.
    pub(crate) fn info(self) -> &'static KeyInfo {
        &TABLE[self as usize]
    }

    pub(crate) fn name(self) -> &'static str {
        self.info().name
    }
}

/// Every setting this engine knows (QuickFIX C++'s, QuickFIX/J's,
/// QuickFIX/n's, QuickFIX/Go's and its own), one row each, in the order of the
/// list in docs/settings.md.
///
/// ```
/// let keys = fix_engine::config::keys();
/// assert!(keys.iter().any(|k| k.name == "HeartBtInt"));
/// assert!(keys.len() > 200);
/// ```
pub fn keys() -> &'static [KeyInfo] {
    TABLE
}

/// The row of a setting named `name` (or one of its aliases), without regard
/// to case; numbered and suffixed keys go by their family's row.
///
/// ```
/// use fix_engine::config::key;
/// assert_eq!(key("sslenable").unwrap().name, "SocketUseSSL");
/// assert_eq!(key("SocketConnectHost2").unwrap().name, "SocketConnectHost");
/// assert!(key("Username").is_none());
/// ```
pub fn key(name: &str) -> Option<&'static KeyInfo> {
    match lookup(name) {
        Lookup::Known(Key::Fixed(k)) => Some(k.info()),
        Lookup::Known(Key::ConnectHost(_)) => Some(Fixed::SocketConnectHost.info()),
        Lookup::Known(Key::ConnectPort(_)) => Some(Fixed::SocketConnectPort.info()),
        Lookup::Known(Key::AppDataDictionaryFor(_)) => Some(Fixed::AppDataDictionary.info()),
        Lookup::Known(Key::LogonTag(_)) => Some(Fixed::LogonTag.info()),
        _ => None,
    }
}

/// The list of settings in docs/settings.md, made from the table: one line per key with
/// its other names, the sessions it is for, its default, its meaning and what
/// the engine does with it (a test keeps docs/settings.md's copy the same).
///
/// ```
/// let list = fix_engine::config::keys_markdown();
/// assert!(list.lines().any(|l| l.starts_with("| `HeartBtInt` |")));
/// ```
pub fn keys_markdown() -> String {
    let mut out = String::from(
        "| Key | Also | For | Default | Meaning | This engine |\n|---|---|---|---|---|---|\n",
    );
    for k in TABLE {
        let name = match k.family {
            Some(family) => format!("`{}`, `{family}`", k.name),
            None => format!("`{}`", k.name),
        };
        let also: Vec<String> = k.aliases.iter().map(|a| format!("`{a}`")).collect();
        let mut applies = match (k.applies, k.scope) {
            (_, Scope::Default) => "[DEFAULT]".to_owned(),
            (a, Scope::Any) => a.to_string(),
        };
        for cond in k.when {
            applies.push_str("; ");
            applies.push_str(cond.reason());
        }
        let engine = match k.support {
            Support::Read => format!("read: `{}`", k.sets),
            Support::RoleAlias {
                acceptor,
                initiator,
            } if acceptor == initiator => format!("read as `{acceptor}`"),
            Support::RoleAlias {
                acceptor,
                initiator,
            } => format!("read as `{acceptor}` (acceptor) or `{initiator}` (initiator)"),
            Support::Always {
                values,
                note,
                otherwise,
            } => {
                let other = match otherwise {
                    Otherwise::NotApplied(why) => format!("not applied yet ({why})"),
                    Otherwise::Refused(why) => format!("an error ({why})"),
                };
                format!(
                    "{}: no effect, {note}; another value: {other}",
                    values.join(" or ")
                )
            }
            Support::Ignored(note) => format!("ignored: {note}"),
            Support::NotApplied(note) => format!("kept, not applied yet: {note}"),
            Support::DatabaseStore => {
                "an error without `FileStorePath` (no database store); ignored beside it".to_owned()
            }
            Support::Refused(reason) => format!("an error: {reason}"),
        };
        out.push_str(&format!(
            "| {name} | {} | {applies} | {} | {} | {engine} |\n",
            also.join(", "),
            k.default.map_or(String::new(), |d| format!("`{d}`")),
            k.doc,
        ));
    }
    out
}

/// A setting's key, resolved.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Key {
    Fixed(Fixed),
    /// `SocketConnectHost` (0) or `SocketConnectHost<n>`, a failover host.
    ConnectHost(u32),
    /// `SocketConnectPort` (0) or `SocketConnectPort<n>`.
    ConnectPort(u32),
    /// `AppDataDictionary.<version>`: the suffix as written (`FIX.4.4`).
    AppDataDictionaryFor(String),
    /// `LogonTag` (0) or `LogonTag<n>`.
    LogonTag(u32),
    /// A key no implementation knows: the application's, kept as written.
    App(String),
}

impl Key {
    /// The row the key goes by.
    pub(crate) fn fixed(&self) -> Option<Fixed> {
        match self {
            Key::Fixed(k) => Some(*k),
            Key::ConnectHost(_) => Some(Fixed::SocketConnectHost),
            Key::ConnectPort(_) => Some(Fixed::SocketConnectPort),
            Key::AppDataDictionaryFor(_) => Some(Fixed::AppDataDictionary),
            Key::LogonTag(_) => Some(Fixed::LogonTag),
            Key::App(_) => None,
        }
    }

    /// Whether two keys are the same setting (application keys without regard to case).
    pub(crate) fn same(&self, other: &Key) -> bool {
        match (self, other) {
            (Key::App(a), Key::App(b)) => a.eq_ignore_ascii_case(b),
            (Key::AppDataDictionaryFor(a), Key::AppDataDictionaryFor(b)) => {
                a.eq_ignore_ascii_case(b)
            }
            (a, b) => a == b,
        }
    }
}

impl fmt::Display for Fixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Fixed(k) => f.write_str(k.name()),
            Key::ConnectHost(0) => f.write_str("SocketConnectHost"),
            Key::ConnectHost(n) => write!(f, "SocketConnectHost{n}"),
            Key::ConnectPort(0) => f.write_str("SocketConnectPort"),
            Key::ConnectPort(n) => write!(f, "SocketConnectPort{n}"),
            Key::AppDataDictionaryFor(v) => write!(f, "AppDataDictionary.{v}"),
            Key::LogonTag(0) => f.write_str("LogonTag"),
            Key::LogonTag(n) => write!(f, "LogonTag{n}"),
            Key::App(k) => f.write_str(k),
        }
    }
}

/// What a key written in a file is.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    Known(Key),
    /// A numbered family's name with a bad number (`SocketConnectHost0`):
    /// the family's first numbered name (`SocketConnectHost1`).
    BadFamily(&'static str),
    /// Within a small edit distance of a known key: the key meant.
    Misspelt(&'static str),
    /// No key any implementation knows: the application's.
    Unknown,
}

/// Resolves a key as written; keys are case-insensitive, as QuickFIX C++ reads
/// them (QuickFIX/J's spellings are the same names).
pub(crate) fn lookup(written: &str) -> Lookup {
    if let Some(k) = TABLE.iter().find(|k| {
        k.name.eq_ignore_ascii_case(written)
            || k.aliases.iter().any(|a| a.eq_ignore_ascii_case(written))
    }) {
        return Lookup::Known(match k.fixed {
            Fixed::SocketConnectHost => Key::ConnectHost(0),
            Fixed::SocketConnectPort => Key::ConnectPort(0),
            Fixed::LogonTag => Key::LogonTag(0),
            fixed => Key::Fixed(fixed),
        });
    }
    for (prefix, first, make) in [
        (
            "SocketConnectHost",
            "SocketConnectHost1",
            Key::ConnectHost as fn(u32) -> Key,
        ),
        ("SocketConnectPort", "SocketConnectPort1", Key::ConnectPort),
        ("LogonTag", "LogonTag1", Key::LogonTag),
    ] {
        if let Some(rest) = strip_prefix_ignore_case(written, prefix) {
            // Failover endpoints count from 1, written without leading zeros.
            if rest.bytes().all(|b| b.is_ascii_digit())
                && !rest.starts_with('0')
                && let Ok(n) = rest.parse()
            {
                return Lookup::Known(make(n));
            }
            return Lookup::BadFamily(first);
        }
    }
    if let Some(rest) = strip_prefix_ignore_case(written, "AppDataDictionary.") {
        return Lookup::Known(Key::AppDataDictionaryFor(rest.to_owned()));
    }
    match suggestion(written) {
        Some(name) => Lookup::Misspelt(name),
        None => Lookup::Unknown,
    }
}

/// The known key `written` is a small slip from: within 1 edit for names of up
/// to 6 letters, 2 for longer ones (Damerau-Levenshtein, optimal string
/// alignment, without regard to case); the nearest, the table's first on a tie.
fn suggestion(written: &str) -> Option<&'static str> {
    let limit = if written.chars().count() <= 6 { 1 } else { 2 };
    let lower = written.to_ascii_lowercase();
    let mut best: Option<(usize, &'static str)> = None;
    for k in TABLE {
        for name in std::iter::once(&k.name).chain(k.aliases) {
            let d = distance(&lower, &name.to_ascii_lowercase());
            if d <= limit && best.is_none_or(|(b, _)| d < b) {
                best = Some((d, name));
            }
        }
    }
    best.map(|(_, name)| name)
}

/// Damerau-Levenshtein distance (optimal string alignment) over chars.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    if a.len().abs_diff(b.len()) > 2 {
        return 3;
    }
    let width = b.len() + 1;
    let mut d = vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[(i - 1) * width + j] + 1)
                .min(d[i * width + j - 1] + 1)
                .min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = v;
        }
    }
    d[a.len() * width + b.len()]
}

fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_resolve_case_insensitively() {
        assert_eq!(
            lookup("heartbtint"),
            Lookup::Known(Key::Fixed(Fixed::HeartBtInt))
        );
        assert_eq!(
            lookup("SocketConnectHost"),
            Lookup::Known(Key::ConnectHost(0))
        );
        assert_eq!(
            lookup("socketconnectport12"),
            Lookup::Known(Key::ConnectPort(12))
        );
        assert_eq!(
            lookup("SocketConnectHost0"),
            Lookup::BadFamily("SocketConnectHost1")
        );
        assert_eq!(
            lookup("SocketConnectHost01"),
            Lookup::BadFamily("SocketConnectHost1")
        );
        assert_eq!(
            lookup("SocketConnectHostX"),
            Lookup::BadFamily("SocketConnectHost1")
        );
        assert_eq!(
            lookup("SocketConnectHost99999999999"),
            Lookup::BadFamily("SocketConnectHost1")
        );
        assert_eq!(
            lookup("AppDataDictionary.FIX.4.4"),
            Lookup::Known(Key::AppDataDictionaryFor("FIX.4.4".into()))
        );
        assert_eq!(
            lookup("sockettcpnodelay"),
            Lookup::Known(Key::Fixed(Fixed::SocketNodelay))
        );
        assert_eq!(lookup("HeartBeatInt"), Lookup::Misspelt("HeartBtInt"));
        assert_eq!(lookup("CheakLatency"), Lookup::Misspelt("CheckLatency"));
        assert_eq!(lookup("Username"), Lookup::Unknown);
        assert_eq!(lookup("Ü"), Lookup::Unknown);
    }

    #[test]
    fn the_table_is_consistent() {
        let mut names: Vec<String> = Vec::new();
        for (i, k) in TABLE.iter().enumerate() {
            assert_eq!(k.fixed as usize, i, "{}", k.name);
            assert!(!k.doc.is_empty() && !k.doc.ends_with('.'), "{}", k.name);
            for n in std::iter::once(&k.name).chain(k.aliases) {
                names.push(n.to_ascii_lowercase());
            }
            assert_eq!(
                k.support == Support::Read,
                !k.sets.is_empty(),
                "{}: what a read key sets, and only that",
                k.name
            );
            if let Some(default) = k.default {
                super::super::value::parse(k.value, default)
                    .unwrap_or_else(|e| panic!("{}'s default: {e}", k.name));
            }
            if let Support::RoleAlias {
                acceptor,
                initiator,
            } = k.support
            {
                assert!(key(acceptor).is_some_and(|r| r.support == Support::Read));
                assert!(key(initiator).is_some_and(|r| r.support == Support::Read));
            }
        }
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count, "every name is spelled once");
    }

    #[test]
    fn distances() {
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("abc", "acb"), 1);
        assert_eq!(distance("abc", "ab"), 1);
        assert_eq!(distance("", "abcdef"), 3);
    }
}
