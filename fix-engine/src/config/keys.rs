//! The setting names: the ones this engine reads, QuickFIX's and QuickFIX/J's
//! that it does not implement (refused by name), and the numbered and suffixed
//! families (`SocketConnectHost1`, `AppDataDictionary.FIX.4.4`).

use std::fmt;

macro_rules! fixed_keys {
    ($($key:ident),* $(,)?) => {
        /// A setting this engine reads, named as QuickFIX names it.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub(crate) enum Fixed {
            $($key),*
        }

        impl Fixed {
            const ALL: &[Fixed] = &[$(Fixed::$key),*];

            pub(crate) fn name(self) -> &'static str {
                match self {
                    $(Fixed::$key => stringify!($key)),*
                }
            }
        }
    };
}

fixed_keys! {
    ConnectionType,
    BeginString,
    SenderCompID,
    TargetCompID,
    SessionQualifier,
    DefaultApplVerID,
    AcceptorTemplate,
    StartTime,
    EndTime,
    StartDay,
    EndDay,
    Weekdays,
    NonStopSession,
    TimeZone,
    UseLocalTime,
    HeartBtInt,
    SocketAcceptPort,
    SocketAcceptAddress,
    ReconnectInterval,
    LogonTimeout,
    LogoutTimeout,
    SocketNodelay,
    ResetOnLogon,
    ResetOnLogout,
    ResetOnDisconnect,
    SendResetSeqNumFlag,
    UseDataDictionary,
    DataDictionary,
    TransportDataDictionary,
    AppDataDictionary,
    ValidateFieldsOutOfOrder,
    ValidateFieldsHaveValues,
    ValidateUserDefinedFields,
    AllowUnknownMsgFields,
    CheckCompID,
    CheckLatency,
    MaxLatency,
    ResendRequestChunkSize,
    PersistMessages,
    FileStorePath,
    FileStoreSync,
    FileLogPath,
    SocketUseSSL,
    ServerCertificateFile,
    ServerCertificateKeyFile,
    ClientCertificateFile,
    ClientCertificateKeyFile,
    CertificationAuthoritiesFile,
    CertificateVerifyLevel,
    NeedClientAuth,
    SNIHostName,
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
        }
    }
}

/// What a key written in a file is.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Lookup {
    Known(Key),
    /// A QuickFIX (or QuickFIX/J, QuickFIX/Go) setting this engine refuses: its
    /// canonical name and why.
    Unsupported(&'static str, &'static str),
    Unknown,
}

const NOT_YET: &str = "a QuickFIX setting this engine does not implement yet";
const SUB_IDS: &str =
    "sessions are identified by BeginString, SenderCompID, TargetCompID and SessionQualifier only";
const JAVA_TLS: &str = "QuickFIX/J's Java key stores; give PEM files with ServerCertificateFile, ServerCertificateKeyFile, ClientCertificateFile, ClientCertificateKeyFile and CertificationAuthoritiesFile";
const GO_TLS: &str = "QuickFIX/Go's name; give PEM files with ServerCertificateFile, ServerCertificateKeyFile, ClientCertificateFile, ClientCertificateKeyFile and CertificationAuthoritiesFile";
const DATABASE: &str =
    "only the file store and file log are implemented (FileStorePath, FileLogPath)";
const SCREEN: &str = "only the file log is implemented (FileLogPath)";

/// QuickFIX's, QuickFIX/J's and QuickFIX/Go's settings this engine does not
/// implement, with what to do about each.
const UNSUPPORTED: &[(&str, &str)] = &[
    ("SenderSubID", SUB_IDS),
    ("SenderLocationID", SUB_IDS),
    ("TargetSubID", SUB_IDS),
    ("TargetLocationID", SUB_IDS),
    ("LogonTime", "the session logs on at StartTime"),
    ("LogoutTime", "the session logs out at EndTime"),
    ("LogonDay", "the session logs on at StartDay"),
    ("LogoutDay", "the session logs out at EndDay"),
    (
        "MillisecondsInTimeStamp",
        "SendingTime is always written with milliseconds",
    ),
    (
        "TimestampPrecision",
        "SendingTime is always written with milliseconds",
    ),
    ("ClosedResendInterval", NOT_YET),
    (
        "ValidateUnorderedGroupFields",
        "group member order is checked under ValidateFieldsOutOfOrder",
    ),
    ("ValidateIncomingMessage", "use UseDataDictionary=N"),
    ("ValidateSequenceNumbers", NOT_YET),
    (
        "ValidateLengthAndChecksum",
        "BodyLength and CheckSum are always checked",
    ),
    (
        "ValidateChecksum",
        "BodyLength and CheckSum are always checked",
    ),
    (
        "PreserveMessageFieldsOrder",
        "received messages are always read in wire order",
    ),
    ("RejectGarbledMessage", NOT_YET),
    ("RejectInvalidMessage", NOT_YET),
    ("RejectMessageOnUnhandledException", NOT_YET),
    ("RequiresOrigSendingTime", NOT_YET),
    ("AllowPosDup", NOT_YET),
    ("SocketConnectProtocol", "only TCP is implemented"),
    ("SocketAcceptProtocol", "only TCP is implemented"),
    ("SocketLocalPort", NOT_YET),
    ("SocketLocalHost", NOT_YET),
    ("SocketConnectSourceHost", NOT_YET),
    ("SocketConnectSourcePort", NOT_YET),
    ("DynamicSession", NOT_YET),
    (
        "DynamicSessions",
        "use an acceptor template (AcceptorTemplate=Y)",
    ),
    ("DynamicQualifier", NOT_YET),
    ("AllowedRemoteAddresses", NOT_YET),
    ("RefreshOnLogon", NOT_YET),
    ("SocketKeyStore", JAVA_TLS),
    ("SocketKeyStorePassword", JAVA_TLS),
    ("KeyManagerFactoryAlgorithm", JAVA_TLS),
    ("KeyStoreType", JAVA_TLS),
    ("SocketTrustStore", JAVA_TLS),
    ("SocketTrustStorePassword", JAVA_TLS),
    ("TrustManagerFactoryAlgorithm", JAVA_TLS),
    ("TrustStoreType", JAVA_TLS),
    ("EnabledProtocols", "TLS 1.2 and 1.3 are the protocols"),
    (
        "CipherSuites",
        "the TLS library's default cipher suites are used",
    ),
    ("SSLProtocol", "TLS 1.2 and 1.3 are the protocols"),
    (
        "SSLCipherSuite",
        "the TLS library's default cipher suites are used",
    ),
    (
        "UseSNI",
        "the server name (SNIHostName, else SocketConnectHost) is always checked, and sent when it is a DNS name",
    ),
    (
        "EndpointIdentificationAlgorithm",
        "an initiator always checks the acceptor's certificate against the server name (SNIHostName, else SocketConnectHost)",
    ),
    (
        "CertificationAuthoritiesDirectory",
        "give one file with CertificationAuthoritiesFile",
    ),
    ("CertificateRevocationListFile", NOT_YET),
    ("CertificateRevocationListDirectory", NOT_YET),
    ("SocketPrivateKeyFile", GO_TLS),
    ("SocketCertificateFile", GO_TLS),
    ("SocketCAFile", GO_TLS),
    ("SocketInsecureSkipVerify", GO_TLS),
    ("SocketMinimumTLSVersion", GO_TLS),
    ("SocketServerName", GO_TLS),
    ("ProxyType", NOT_YET),
    ("ProxyVersion", NOT_YET),
    ("ProxyHost", NOT_YET),
    ("ProxyPort", NOT_YET),
    ("ProxyUser", NOT_YET),
    ("ProxyPassword", NOT_YET),
    ("ProxyDomain", NOT_YET),
    ("ProxyWorkstation", NOT_YET),
    ("SocketKeepAlive", NOT_YET),
    ("SocketOobInline", NOT_YET),
    ("SocketReceiveBufferSize", NOT_YET),
    ("SocketSendBufferSize", NOT_YET),
    ("ReceiveBufferSize", NOT_YET),
    ("SendBufferSize", NOT_YET),
    ("SocketReuseAddress", NOT_YET),
    ("SocketLinger", NOT_YET),
    (
        "SocketTcpNoDelay",
        "QuickFIX/J's name for SocketNodelay, which this engine reads",
    ),
    ("SocketTrafficClass", NOT_YET),
    ("SocketSynchronousWrites", NOT_YET),
    ("SocketSynchronousWriteTimeout", NOT_YET),
    ("SocketTimeout", NOT_YET),
    ("MaxScheduledWriteRequests", NOT_YET),
    (
        "FileStoreMaxCachedMsgs",
        "the file store keeps its whole index in memory and reads messages through a mapping",
    ),
    ("FileStoreBackupPath", NOT_YET),
    ("FileLogBackupPath", NOT_YET),
    ("FileLogHeartbeats", NOT_YET),
    ("FileIncludeMilliseconds", NOT_YET),
    ("FileIncludeTimeStampForMessages", NOT_YET),
    ("JdbcDataSourceName", DATABASE),
    ("JdbcDriver", DATABASE),
    ("JdbcURL", DATABASE),
    ("JdbcUser", DATABASE),
    ("JdbcPassword", DATABASE),
    ("JdbcStoreMessagesTableName", DATABASE),
    ("JdbcStoreSessionsTableName", DATABASE),
    ("JdbcLogHeartBeats", DATABASE),
    ("JdbcLogIncomingTable", DATABASE),
    ("JdbcLogOutgoingTable", DATABASE),
    ("JdbcLogEventTable", DATABASE),
    ("JdbcSessionIdDefaultPropertyValue", DATABASE),
    ("JdbcMaxActiveConnection", DATABASE),
    ("JdbcMaxActiveTime", DATABASE),
    ("JdbcMaxConnectionLifeTime", DATABASE),
    ("JdbcSimultaneousBuildThrottle", DATABASE),
    ("SQLStoreDriver", DATABASE),
    ("SQLStoreDataSourceName", DATABASE),
    ("SQLLogDriver", DATABASE),
    ("SQLLogDataSourceName", DATABASE),
    ("MongoStoreConnection", DATABASE),
    ("MongoStoreDatabase", DATABASE),
    ("SLF4JLogEventCategory", SCREEN),
    ("SLF4JLogIncomingMessageCategory", SCREEN),
    ("SLF4JLogOutgoingMessageCategory", SCREEN),
    ("SLF4JLogPrependSessionID", SCREEN),
    ("SLF4JLogHeartbeats", SCREEN),
    ("ScreenLogEvents", SCREEN),
    ("ScreenLogShowEvents", SCREEN),
    ("ScreenLogShowIncoming", SCREEN),
    ("ScreenLogShowOutgoing", SCREEN),
    ("ScreenLogShowHeartBeats", SCREEN),
    ("ScreenIncludeMilliseconds", SCREEN),
    ("ResetOnError", NOT_YET),
    ("DisconnectOnError", NOT_YET),
    ("EnableLastMsgSeqNumProcessed", NOT_YET),
    ("EnableNextExpectedMsgSeqNum", NOT_YET),
    (
        "ContinueInitializationOnError",
        "a settings problem is always an error",
    ),
    ("SendRedundantResendRequests", NOT_YET),
    ("TestRequestDelayMultiplier", NOT_YET),
    ("HeartBeatTimeoutMultiplier", NOT_YET),
    ("DisableHeartBeatCheck", NOT_YET),
    ("HeartBtIntOverride", NOT_YET),
    (
        "ForceResendWhenCorruptedStore",
        "a damaged store refuses to open",
    ),
    ("HttpAcceptPort", NOT_YET),
    ("InChanCapacity", NOT_YET),
    ("LogoutOnSequenceError", NOT_YET),
];

/// Database store and log settings of QuickFIX C++ are families of names.
const DATABASE_PREFIXES: &[&str] = &["MySQL", "PostgreSQL", "Odbc", "MSSQL"];

/// Resolves a key as written; keys are case-insensitive, as QuickFIX C++ reads
/// them (QuickFIX/J's spellings are the same names).
pub(crate) fn lookup(written: &str) -> Lookup {
    if let Some(k) = Fixed::ALL
        .iter()
        .find(|k| k.name().eq_ignore_ascii_case(written))
    {
        return Lookup::Known(Key::Fixed(*k));
    }
    for (prefix, make) in [
        ("SocketConnectHost", Key::ConnectHost as fn(u32) -> Key),
        ("SocketConnectPort", Key::ConnectPort),
    ] {
        if let Some(rest) = strip_prefix_ignore_case(written, prefix) {
            if rest.is_empty() {
                return Lookup::Known(make(0));
            }
            // Failover endpoints count from 1, written without leading zeros.
            if rest.bytes().all(|b| b.is_ascii_digit())
                && !rest.starts_with('0')
                && let Ok(n) = rest.parse()
            {
                return Lookup::Known(make(n));
            }
            return Lookup::Unknown;
        }
    }
    if let Some(rest) = strip_prefix_ignore_case(written, "AppDataDictionary.") {
        return Lookup::Known(Key::AppDataDictionaryFor(rest.to_owned()));
    }
    if let Some((name, reason)) = UNSUPPORTED
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(written))
    {
        return Lookup::Unsupported(name, reason);
    }
    if DATABASE_PREFIXES
        .iter()
        .any(|p| strip_prefix_ignore_case(written, p).is_some_and(|rest| !rest.is_empty()))
    {
        return Lookup::Unsupported("", DATABASE);
    }
    Lookup::Unknown
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
        assert_eq!(lookup("SocketConnectHost0"), Lookup::Unknown);
        assert_eq!(lookup("SocketConnectHost01"), Lookup::Unknown);
        assert_eq!(lookup("SocketConnectHostX"), Lookup::Unknown);
        assert_eq!(lookup("SocketConnectHost99999999999"), Lookup::Unknown);
        assert_eq!(
            lookup("AppDataDictionary.FIX.4.4"),
            Lookup::Known(Key::AppDataDictionaryFor("FIX.4.4".into()))
        );
        assert!(matches!(
            lookup("refreshonlogon"),
            Lookup::Unsupported("RefreshOnLogon", _)
        ));
        assert!(matches!(
            lookup("MySQLStoreHost"),
            Lookup::Unsupported("", _)
        ));
        assert_eq!(lookup("MySQL"), Lookup::Unknown);
        assert_eq!(lookup("HeartBeatInt"), Lookup::Unknown);
        assert_eq!(lookup("Ü"), Lookup::Unknown);
    }

    #[test]
    fn every_name_is_spelled_once() {
        let mut names: Vec<String> = Fixed::ALL
            .iter()
            .map(|k| k.name().to_ascii_lowercase())
            .chain(UNSUPPORTED.iter().map(|(n, _)| n.to_ascii_lowercase()))
            .collect();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count);
    }
}
