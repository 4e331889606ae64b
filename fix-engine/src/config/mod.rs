//! The engine's settings, from a QuickFIX-style settings file or from code.
//!
//! A settings file has a `[DEFAULT]` section, whose settings every session
//! inherits unless it sets them itself, and a `[SESSION]` section per session;
//! `#` starts a comment line, blank lines are skipped, keys are read without
//! regard to case. Every key of QuickFIX C++, QuickFIX/J, QuickFIX/n and
//! QuickFIX/Go is known, with its meaning and default, in one table ([`keys`],
//! listed in docs/settings.md), so a QuickFIX user's file loads as it is:
//!
//! - a key the engine implements is read (with the other implementations'
//!   names for it, such as `SocketTcpNoDelay` or `SSLEnable`);
//! - a key whose value asks for what the engine always does, or that tunes a
//!   part the engine does not have, is accepted with a [`Warning`];
//! - a key the engine does not apply yet is kept (readable with
//!   [`SessionSettings::get`]) with a warning saying so;
//! - a key that cannot be honoured (a database as the message store, a JKS
//!   or JCEKS key store type, certificate checks turned off) is an error
//!   naming it and why;
//! - any other key is the application's, kept with a warning
//!   ([`WarningKind::UnknownKey`], naming the known key it is a slip from, if
//!   any: `CheakLatency`, `LogonType`, `SSL_PROTOCOL`) and readable with
//!   [`SessionSettings::application_keys`],
//!   [`SessionHandle::application_keys`](crate::SessionHandle::application_keys),
//!   [`SessionSettings::get`] and [`Settings::get`], as QuickFIX's
//!   `SessionSettings` holds any key. [`Settings::strict`] (`fixcfg check
//!   --strict`) refuses a file at its first warning instead.
//!
//! As QuickFIX reads a file, the last of a repeated key wins and an unknown
//! section is skipped (both with a warning), a session without StartTime and
//! EndTime is non-stop, and a setting that does not apply to a session (an
//! initiator's setting on an acceptor, `DataDictionary` on FIXT.1.1 or beside
//! `UseDataDictionary=N`, `MaxLatency` under `CheckLatency=N`) is ignored, with
//! a warning when it is in the session's own section (from `[DEFAULT]`, which
//! serves sessions of every kind, silently). The warnings are
//! [`Settings::warnings`], each with its file, line and key. Every error names
//! the file, the line and the key: a bad value, a missing required setting, the
//! same session twice.
//!
//! Each session becomes a [`SessionSettings`]: fix-session's
//! [`SessionConfig`] (role, CompIDs, heartbeat, resets, validation, latency,
//! resend chunks, persistence, DefaultApplVerID) and the engine's side of it:
//! its [`Schedule`], [`Transport`] (port to listen on, or hosts to connect to),
//! [`Tls`] files, dictionary paths, store and log paths. [`SessionBuilder`]
//! makes the same from code, with the same checks (there a setting that does
//! not apply is an error).
//!
//! TLS is `SocketUseSSL=Y` with PEM files: `ServerCertificateFile` and
//! `ServerCertificateKeyFile` for an acceptor, with `CertificateVerifyLevel`
//! (0 no client certificate, 1 required, 2 verified when given) against
//! `CertificationAuthoritiesFile`; `CertificationAuthoritiesFile` for an
//! initiator (required), `ClientCertificateFile` and `ClientCertificateKeyFile`
//! for its client certificate, and `SNIHostName` for the name the acceptor's
//! certificate must hold when it is not `SocketConnectHost`, and
//! `CertificateRevocationListFile` for revocation lists (see [`Tls`]).
//! QuickFIX/Go's `SocketCertificateFile`, `SocketPrivateKeyFile` and
//! `SocketCAFile` and QuickFIX/n's `SSLCertificate` and `SSLCACertificate` are
//! read as the role's names.
//!
//! ```
//! use fix_engine::config::{Settings, Transport};
//!
//! let settings = Settings::parse("tradeclient.cfg", "
//! [DEFAULT]
//! ConnectionType=initiator
//! HeartBtInt=30
//! StartTime=00:00:00
//! EndTime=00:00:00
//!
//! [SESSION]
//! BeginString=FIX.4.4
//! SenderCompID=CLIENT1
//! TargetCompID=EXECUTOR
//! SocketConnectHost=127.0.0.1
//! SocketConnectPort=5001
//! ")?;
//! let session = &settings.sessions()[0];
//! assert_eq!(session.session.id.to_string(), "FIX.4.4:CLIENT1->EXECUTOR");
//! let Transport::Initiator(initiator) = &session.transport else { unreachable!() };
//! assert_eq!(initiator.reconnect_interval.as_secs(), 30); // QuickFIX's default
//! # Ok::<(), fix_engine::config::ConfigError>(())
//! ```

mod builder;
mod check;
mod error;
mod file;
mod key_password;
mod keys;
mod schedule;
mod value;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use fix_session::{FileOptions, SessionConfig, SessionId};

pub use builder::SessionBuilder;
pub use check::{FileCheck, check_connections, check_files, hide_password};
pub use error::{ConfigError, ErrorKind, Warning, WarningKind};
pub use key_password::KeyPassword;
pub use keys::{
    Applies, Cond, KeyInfo, Otherwise, Scope, Support, ValueType, key, keys, keys_markdown,
};
pub use schedule::{Period, Schedule, TimeOfDay, UtcOffset, Weekday, Zone, ZoneError};

/// Everything the engine knows about one session.
///
/// [`SessionBuilder`] or a settings file make one with every setting checked;
/// the fields are public to be read (and adjusted by an application that knows
/// what it does).
///
/// ```
/// use fix_engine::config::{SessionBuilder, Schedule};
/// use fix_session::SessionId;
/// let s = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "CLIENT1"))
///     .socket_accept_port(5001)
///     .schedule(Schedule::non_stop())
///     .build()?;
/// assert!(s.session.persist_messages && s.tls.is_none() && s.tcp_nodelay);
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SessionSettings {
    /// What fix-session runs the session with.
    pub session: SessionConfig,
    /// QuickFIX/J's `AcceptorTemplate=Y`: no session of its own, but the
    /// settings of sessions whose IDs match its `*` patterns (see
    /// [`AcceptorTemplate`]).
    pub acceptor_template: bool,
    /// When the session is active, and when it starts afresh.
    pub schedule: Schedule,
    /// Where the connection comes from.
    pub transport: Transport,
    /// `SocketNodelay` (default Y: FIX messages are small and latency matters).
    pub tcp_nodelay: bool,
    /// `SocketReuseAddress` (acceptor; default Y): the listener binds with
    /// `SO_REUSEADDR`.
    pub reuse_address: bool,
    /// The other socket options: buffer sizes, keep-alive, an initiator's
    /// local address.
    pub socket: SocketOptions,
    /// `SocketConnectTimeout` (QuickFIX/J; QuickFIX/Go's `SocketTimeout`;
    /// initiator): how long a connection attempt, TCP and TLS handshake, may
    /// take; `None` is [`EngineOptions::connect_timeout`](crate::EngineOptions).
    pub connect_timeout: Option<Duration>,
    /// `QueuedMessageMaxAge`: how long a message queued by
    /// [`SessionHandle::send`](crate::SessionHandle::send) or `send_tracked`
    /// may wait before it is dropped unsent.
    pub max_queued_age: QueuedAge,
    /// `QueuedWhileDown` (`WAIT` or `DROP`): what becomes of the messages
    /// still queued when a connection ends; `None` is
    /// [`EngineOptions::queued_while_down`](crate::EngineOptions::queued_while_down).
    pub queued_while_down: Option<crate::QueuedWhileDown>,
    /// `SocketUseSSL=Y` and its files; `None` is plain TCP.
    pub tls: Option<Tls>,
    /// The dictionary files received messages are validated against.
    pub dictionaries: DictionaryPaths,
    /// `FileStorePath`: the directory of the session's [`fix_session::FileStore`],
    /// `None` for a [`fix_session::MemoryStore`].
    pub store_path: Option<PathBuf>,
    /// How the file store is opened (`FileStoreSync`).
    pub store_options: FileOptions,
    /// `FileStoreShared`: with `FileStoreSync=Y`, the session's store is in
    /// the engine's [`fix_session::store::SharedLog`] of `store_path`, not a
    /// file of its own.
    pub store_shared: bool,
    /// The PostgreSQL store (any `PostgreSQLStore*` key), in place of the
    /// file or memory store.
    pub postgres_store: Option<PostgresStoreSettings>,
    /// QuickFIX/J's `LogonTag`, `LogonTag1`, …: (tag, value) body fields added
    /// to every Logon the session sends, in order.
    pub logon_fields: Vec<(u32, String)>,
    /// `AllowedRemoteAddresses` (QuickFIX/J; acceptor): the addresses (IP
    /// addresses, or host names resolved when a connection comes) a connection
    /// must come from, or it is refused at its Logon; `None` is any.
    pub allowed_remote_addresses: Option<Vec<String>>,
    /// `FileLogPath`: the directory of the session's message log; `None` for no log.
    pub log_path: Option<PathBuf>,
    /// How the log writes (`FileIncludeMilliseconds`: its timestamps' precision).
    pub log_options: crate::log::FileLogOptions,
    /// `FileLogHeartbeats` (QuickFIX/J; default Y): N leaves Heartbeats out of
    /// the message log.
    pub log_heartbeats: bool,
    /// QuickFIX's screen log: `Some` when any `ScreenLog*` setting (or
    /// `ScreenIncludeMilliseconds`) is given, printing to standard output as
    /// those settings say (each `ScreenLogShow*` not given is on, as in
    /// QuickFIX/J); `None`, the default, keeps standard output silent.
    pub screen_log: Option<crate::log::ScreenLogOptions>,
    /// Every key of the session's section and of `[DEFAULT]`, as written, with
    /// its value: what [`get`](Self::get) reads.
    raw: Vec<(String, String)>,
}

impl SessionSettings {
    /// The listener an acceptor session is reached through, with only this
    /// session on it; `None` for an initiator.
    ///
    /// ```
    /// use fix_engine::config::{Schedule, SessionBuilder};
    /// let s = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_port(5001).schedule(Schedule::non_stop()).build()?;
    /// assert_eq!(s.listener().map(|l| (l.port, l.tls.is_some())), Some((5001, false)));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn listener(&self) -> Option<Listener> {
        let Transport::Acceptor(a) = &self.transport else {
            return None;
        };
        let (sessions, templates) = if self.acceptor_template {
            (Vec::new(), vec![self.session.id.clone()])
        } else {
            (vec![self.session.id.clone()], Vec::new())
        };
        Some(Listener {
            address: a.address.clone(),
            port: a.port,
            tls: self.tls.clone(),
            reuse_address: self.reuse_address,
            socket: self.socket.clone(),
            sessions,
            templates,
        })
    }

    /// The value of `key` (without regard to case) as written in the
    /// session's section, or else in `[DEFAULT]`: any key, the engine's or
    /// the application's own (QuickFIX's `SessionSettings::get`). A setting made
    /// in code has only what [`SessionBuilder::set`] gave.
    ///
    /// ```
    /// let s = fix_engine::config::Settings::parse("a.cfg", "
    /// [DEFAULT]
    /// Username=trader1
    /// RefreshOnLogon=Y
    /// Encoding=UTF-8
    /// [SESSION]
    /// ConnectionType=acceptor
    /// BeginString=FIX.4.4
    /// SenderCompID=EXEC
    /// TargetCompID=C1
    /// SocketAcceptPort=5001
    /// Username=trader2
    /// ")?;
    /// let session = &s.sessions()[0];
    /// assert_eq!(session.get("USERNAME"), Some("trader2"));
    /// assert_eq!(session.get("RefreshOnLogon"), Some("Y")); // the engine's, and readable
    /// assert_eq!(session.get("Encoding"), Some("UTF-8")); // kept, though ignored
    /// assert_eq!(session.get("Password"), None);
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn get(&self, key: &str) -> Option<&str> {
        // A setting of the table by any of its names (`SocketTcpNoDelay` finds
        // `SocketNodelay`); any other key as written.
        let known = |k: &str| match keys::lookup(k) {
            keys::Lookup::Known(known) => Some(known),
            _ => None,
        };
        let wanted = known(key);
        self.raw
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key) || (wanted.is_some() && known(k) == wanted))
            .map(|(_, v)| v.as_str())
    }

    /// The keys [`get`](Self::get) has, as written, the session's own first.
    ///
    /// ```
    /// let s = fix_engine::config::Settings::parse("a.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=E\nTargetCompID=C\nSocketAcceptPort=1\nAccount=X\n")?;
    /// assert!(s.sessions()[0].keys().any(|k| k == "Account"));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.raw.iter().map(|(k, _)| k.as_str())
    }

    /// The application's keys: those of the session's section and of
    /// `[DEFAULT]` that no QuickFIX implementation documents and the engine
    /// does not read (each told by a [`WarningKind::UnknownKey`]), as written,
    /// with their values, in the order of their names. QuickFIX hands the
    /// application the session's `Dictionary` for such keys; the engine hands
    /// it this, also through
    /// [`SessionHandle::application_keys`](crate::SessionHandle::application_keys).
    ///
    /// ```
    /// let s = fix_engine::config::Settings::parse("a.cfg", "
    /// [DEFAULT]
    /// LogonType=password
    /// HeartBtInt=30
    /// [SESSION]
    /// ConnectionType=acceptor
    /// BeginString=FIX.4.4
    /// SenderCompID=EXEC
    /// TargetCompID=C1
    /// SocketAcceptPort=5001
    /// NonStopSession=Y
    /// VendorGateway=ldn-2
    /// ")?;
    /// let keys = s.sessions()[0].application_keys();
    /// assert_eq!(keys.into_iter().collect::<Vec<_>>(), [("LogonType", "password"), ("VendorGateway", "ldn-2")]);
    /// assert!(s.warnings()[0].to_string().ends_with("did you mean LogonTime?"));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn application_keys(&self) -> BTreeMap<&str, &str> {
        self.raw
            .iter()
            .filter(|(k, _)| !matches!(keys::lookup(k), keys::Lookup::Known(_)))
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect()
    }
}

/// Socket options of a session's connections, as QuickFIX's `Socket*`
/// settings give them; an acceptor's are its listener's, which the sessions on
/// its port share (accepted sockets take them from it).
///
/// ```
/// let s = fix_engine::config::Settings::parse("a.cfg", "[SESSION]\nConnectionType=initiator\nBeginString=FIX.4.4\nSenderCompID=C\nTargetCompID=E\nHeartBtInt=30\nSocketConnectHost=localhost\nSocketConnectPort=5001\nSocketReceiveBufferSize=1048576\nSocketLocalPort=40000\n")?;
/// let o = &s.sessions()[0].socket;
/// assert_eq!((o.receive_buffer_size, o.local_port, o.keepalive), (Some(1 << 20), Some(40000), None));
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SocketOptions {
    /// `SocketSendBufferSize`: `SO_SNDBUF`, in bytes; `None` is the system's.
    pub send_buffer_size: Option<u32>,
    /// `SocketReceiveBufferSize`: `SO_RCVBUF`, in bytes; `None` is the system's.
    pub receive_buffer_size: Option<u32>,
    /// `SocketKeepAlive` (QuickFIX/J): `SO_KEEPALIVE` on (`Some(true)`) or off;
    /// `None` leaves the engine's default.
    pub keepalive: Option<bool>,
    /// `SocketConnectSourceHost` (QuickFIX/J's `SocketLocalHost`; initiator):
    /// the local address to connect from; `None` is the system's choice.
    pub local_host: Option<String>,
    /// `SocketConnectSourcePort` (QuickFIX/J's `SocketLocalPort`; initiator):
    /// the local port to connect from; `None` is the system's choice.
    pub local_port: Option<u16>,
}

/// Which side connects, and where to.
///
/// ```
/// use fix_engine::config::{AcceptorTransport, Transport};
/// let t = Transport::Acceptor(AcceptorTransport { address: None, port: 5001 });
/// assert!(matches!(t, Transport::Acceptor(AcceptorTransport { port: 5001, .. })));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Transport {
    /// `ConnectionType=acceptor`.
    Acceptor(AcceptorTransport),
    /// `ConnectionType=initiator`.
    Initiator(InitiatorTransport),
}

/// Where an acceptor listens. Sessions with the same port share one listener.
///
/// ```
/// let a = fix_engine::config::AcceptorTransport { address: Some("127.0.0.1".into()), port: 5001 };
/// assert_eq!(a.port, 5001);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AcceptorTransport {
    /// `SocketAcceptAddress` (QuickFIX/J): the local address to bind; `None` is
    /// every interface.
    pub address: Option<String>,
    /// `SocketAcceptPort`; 0 for one the system picks (see
    /// [`Engine::local_addrs`](crate::Engine::local_addrs)).
    pub port: u16,
}

/// Where an initiator connects.
///
/// ```
/// use fix_engine::config::{Endpoint, InitiatorTransport};
/// use std::time::Duration;
/// let i = InitiatorTransport {
///     endpoints: vec![Endpoint { host: "fix.example.com".into(), port: 9880 }],
///     reconnect_interval: Duration::from_secs(30),
/// };
/// assert_eq!(i.endpoints[0].to_string(), "fix.example.com:9880");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct InitiatorTransport {
    /// `SocketConnectHost`/`SocketConnectPort`, then the failover endpoints
    /// `SocketConnectHost1`/`SocketConnectPort1`, … in order: each connection
    /// attempt tries them one after another, from the first.
    pub endpoints: Vec<Endpoint>,
    /// `ReconnectInterval` (default 30 s): the pause after a dropped
    /// connection, and after a round of attempts none of which connected,
    /// before the next round.
    ///
    /// A fixed pause, as QuickFIX has it, with no exponential growth or
    /// jitter: QuickFIX C++ and QuickFIX/J have neither, so a settings file
    /// brought from them means a fixed pause, and venues size their limits on
    /// reconnections for that. A FIX session reconnects to one counterparty,
    /// not to a shared service a crowd of clients would stampede; what a
    /// venue asks for, a longer pause, is this setting. QuickFIX/J's stepped
    /// lists (`ReconnectInterval=5x2;30`) are an error naming the setting
    /// rather than read as something else. 0 is read as QuickFIX C++ reads
    /// it: see [`reconnect_pause`](Self::reconnect_pause).
    pub reconnect_interval: Duration,
}

impl InitiatorTransport {
    /// The pause the engine makes for [`reconnect_interval`](Self::reconnect_interval):
    /// that, and one second for `ReconnectInterval=0` (a shorter pause given
    /// in code, such as 300 ms, is kept).
    ///
    /// QuickFIX C++ reconnects when, at a tick of its connector's one-second
    /// timer, `now - last attempt >= ReconnectInterval`; with 0 that is every
    /// tick, so 0 means "again at the next second", not a busy loop. The
    /// engine keeps that pace: a counterparty that refuses connections is
    /// tried once a second, as QuickFIX C++ tries it.
    ///
    /// ```
    /// use fix_engine::config::InitiatorTransport;
    /// use std::time::Duration;
    /// let at = |secs| InitiatorTransport { endpoints: vec![], reconnect_interval: Duration::from_secs(secs) };
    /// assert_eq!(at(0).reconnect_pause(), Duration::from_secs(1));
    /// assert_eq!(at(5).reconnect_pause(), Duration::from_secs(5));
    /// let quick = InitiatorTransport { endpoints: vec![], reconnect_interval: Duration::from_millis(300) };
    /// assert_eq!(quick.reconnect_pause(), Duration::from_millis(300));
    /// ```
    pub fn reconnect_pause(&self) -> Duration {
        if self.reconnect_interval.is_zero() {
            RECONNECT_TICK
        } else {
            self.reconnect_interval
        }
    }
}

/// QuickFIX C++'s connector timer tick: its pause for `ReconnectInterval=0`.
const RECONNECT_TICK: Duration = Duration::from_secs(1);

/// A host and port to connect to.
///
/// ```
/// let e = fix_engine::config::Endpoint { host: "10.0.0.1".into(), port: 5001 };
/// assert_eq!(e.to_string(), "10.0.0.1:5001");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Endpoint {
    /// A host name or IP address.
    pub host: String,
    /// The port.
    pub port: u16,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.host, self.port)
    }
}

/// TLS (`SocketUseSSL=Y`) with QuickFIX's PEM file settings, read when the
/// engine starts (a file that does not read, or holds no certificate or key, is
/// an [`EngineError`](crate::EngineError) then, before any socket is bound).
///
/// An acceptor presents `ServerCertificateFile` and verifies clients as
/// `CertificateVerifyLevel` says, against `CertificationAuthoritiesFile`. An
/// initiator verifies the acceptor's certificate against
/// `CertificationAuthoritiesFile`, or without one against the system's
/// certificate authorities (`SSL_CERT_FILE` or `SSL_CERT_DIR`, else the
/// system's bundle, as QuickFIX does with OpenSSL's defaults), and the server
/// name: `SNIHostName`, else
/// the `SocketConnectHost` it connects to, which it also sends as SNI when it
/// is a DNS name; it presents `ClientCertificateFile` when given (mutual TLS).
///
/// ```
/// use fix_engine::config::{ClientAuth, Settings};
/// let settings = Settings::parse("tls.cfg", "
/// [SESSION]
/// ConnectionType=acceptor
/// BeginString=FIX.4.4
/// SenderCompID=EXEC
/// TargetCompID=C1
/// SocketAcceptPort=5001
/// NonStopSession=Y
/// SocketUseSSL=Y
/// ServerCertificateFile=server.pem
/// ServerCertificateKeyFile=server.key
/// CertificationAuthoritiesFile=clients-ca.pem
/// CertificateVerifyLevel=1
/// ")?;
/// let tls = settings.sessions()[0].tls.as_ref().unwrap();
/// assert_eq!(tls.client_auth, ClientAuth::Required);
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Tls {
    /// Our certificate chain, PEM, our own certificate first, or a PKCS#12
    /// file (`.p12`, `.pfx`) holding the chain and its key:
    /// `ServerCertificateFile` for an acceptor (required),
    /// `ClientCertificateFile` for an initiator (optional: a client certificate).
    pub certificate: Option<PathBuf>,
    /// Its private key, PEM or PKCS#12: `ServerCertificateKeyFile` or
    /// `ClientCertificateKeyFile`; `None` reads the key from the certificate's
    /// file, as QuickFIX does.
    pub private_key: Option<PathBuf>,
    /// `SSLCertificatePassword` (QuickFIX/n): the password the private key is
    /// decrypted with when it is an encrypted PKCS#8 key (PEM `ENCRYPTED
    /// PRIVATE KEY`, as `openssl pkcs8 -topk8 -v2 aes-256-cbc` or `openssl
    /// genpkey -aes256` write it), and a PKCS#12 file opened with (its MAC
    /// verified, its bags decrypted: PBES2, as `openssl pkcs12 -export`
    /// writes it); a wrong one is an error at start. `None`: an encrypted key
    /// is refused, naming this setting, and a PKCS#12 file is opened with the
    /// empty password.
    pub key_password: Option<KeyPassword>,
    /// `CertificationAuthoritiesFile`, PEM (or QuickFIX's
    /// `CertificationAuthoritiesDirectory`: a directory whose files are read):
    /// the certificates the peer's is checked against (an initiator without
    /// one uses the system's; an acceptor's is read only when it verifies
    /// clients).
    pub ca_file: Option<PathBuf>,
    /// `SocketKeyStore` (QuickFIX/J): a key store read as a PKCS#12 file
    /// (keytool's default type since Java 9), opened at start with
    /// `key_store_password`: its certificate chain and private key are this
    /// side's certificate, in place of `certificate` and `private_key` (the
    /// settings refuse both). A JKS or JCEKS store is an error at start naming
    /// the keytool command that converts it.
    pub key_store: Option<PathBuf>,
    /// `SocketKeyStorePassword` (QuickFIX/J): the key store's password (its
    /// MAC verified, its bags decrypted with it); `None`, the empty password.
    pub key_store_password: Option<KeyPassword>,
    /// `SocketTrustStore` (QuickFIX/J): a trust store read as a PKCS#12 file,
    /// opened at start with `trust_store_password`: its certificates (a
    /// trust store holds no key) are the authorities the peer's certificate
    /// is checked against, in place of `ca_file` (the settings refuse both).
    pub trust_store: Option<PathBuf>,
    /// `SocketTrustStorePassword` (QuickFIX/J): the trust store's password;
    /// `None`, the empty password (a store written without a MAC, its
    /// certificates unencrypted, opens without one).
    pub trust_store_password: Option<KeyPassword>,
    /// `CertificateRevocationListFile` (or QuickFIX's
    /// `CertificateRevocationListDirectory`: a directory whose files are
    /// read), PEM `X509 CRL`s: a peer certificate they revoke is refused, and
    /// so is one whose authority they do not cover; `None` checks no
    /// revocation.
    pub revocation_lists: Option<PathBuf>,
    /// Whether an acceptor asks clients for a certificate: `CertificateVerifyLevel`
    /// (QuickFIX) or `NeedClientAuth=Y` (QuickFIX/J, [`ClientAuth::Required`]).
    pub client_auth: ClientAuth,
    /// Whether the peer's certificate is checked (its chain to
    /// `ca_file`'s authorities, or the system's for an initiator without
    /// one; its validity; the name): on unless `SSLValidateCertificates=N`
    /// (QuickFIX/n) or, for an initiator, `SocketInsecureSkipVerify=Y`
    /// (QuickFIX/Go). Off, any certificate is taken (the handshake's
    /// signatures are still checked, so the peer holds its key): for a test
    /// against a self-signed certificate, never for trading over a network
    /// one does not own. The engine warns at start and in each connection's
    /// event log.
    pub verify_certificates: bool,
    /// `SNIHostName` (QuickFIX/J; initiator only): the name the acceptor's
    /// certificate must hold, sent as SNI; `None` is each endpoint's
    /// `SocketConnectHost`.
    pub server_name: Option<String>,
    /// `ClientCertificateNames` (acceptor, with client certificates
    /// required): the names one of which a client's certificate must hold for
    /// this session (a DNS name or IP address among its subject alternative
    /// names, or its subject's CommonName); `{TargetCompID}` in a name stands
    /// for the session's TargetCompID, so that a template binds each session
    /// it makes to a certificate naming its counterparty. A connection whose
    /// certificate names none is refused before its Logon is handled. Empty:
    /// any certificate the CA signed (and then any CompID).
    pub client_names: Vec<String>,
}

/// Certificates checked, nothing else set.
impl Default for Tls {
    fn default() -> Self {
        Tls {
            certificate: None,
            private_key: None,
            key_password: None,
            ca_file: None,
            key_store: None,
            key_store_password: None,
            trust_store: None,
            trust_store_password: None,
            revocation_lists: None,
            client_auth: ClientAuth::default(),
            verify_certificates: true,
            server_name: None,
            client_names: Vec::new(),
        }
    }
}

/// Whether an acceptor verifies client certificates: QuickFIX's
/// `CertificateVerifyLevel`.
///
/// ```
/// use fix_engine::config::ClientAuth;
/// assert_eq!(ClientAuth::default(), ClientAuth::None);
/// assert_eq!(ClientAuth::from_level("1"), Some(ClientAuth::Required));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ClientAuth {
    /// `CertificateVerifyLevel=0` (the default): no client certificate is asked for.
    #[default]
    None,
    /// `CertificateVerifyLevel=1`: a client must present a certificate that
    /// `CertificationAuthoritiesFile` vouches for, or the handshake fails.
    Required,
    /// `CertificateVerifyLevel=2`: a client may present no certificate; one it
    /// presents must be vouched for.
    Optional,
}

impl ClientAuth {
    /// The level a `CertificateVerifyLevel` value names, as QuickFIX numbers
    /// them: 0, 1 or 2.
    ///
    /// ```
    /// use fix_engine::config::ClientAuth;
    /// assert_eq!(ClientAuth::from_level("2"), Some(ClientAuth::Optional));
    /// assert_eq!(ClientAuth::from_level("3"), None);
    /// ```
    pub fn from_level(value: &str) -> Option<ClientAuth> {
        match value {
            "0" => Some(ClientAuth::None),
            "1" => Some(ClientAuth::Required),
            "2" => Some(ClientAuth::Optional),
            _ => None,
        }
    }
}

/// Where and how a session keeps its store in PostgreSQL: QuickFIX's
/// `PostgreSQLStoreDatabase`, `…User`, `…Password`, `…Host` and `…Port`, or a
/// libpq connection string (`PostgreSQLStoreConnection`); and the lease that
/// fences other engines (`PostgreSQLStoreLease`, `PostgreSQLStoreNode`,
/// `PostgreSQLStoreMaxSessions`).
///
/// ```
/// let s = fix_engine::config::PostgresStoreSettings::new("host=/run/pg user=fix dbname=fix");
/// assert_eq!(s.lease, std::time::Duration::from_secs(10));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct PostgresStoreSettings {
    /// A libpq connection string (`host=… port=… user=… password=… dbname=…`).
    pub connection: String,
    /// How long a lease lasts unrenewed.
    pub lease: std::time::Duration,
    /// This engine's name in the leases; `None`: the host name and process ID.
    pub node: Option<String>,
    /// The most sessions this engine holds (`None`: no limit).
    pub max_sessions: Option<usize>,
}

impl PostgresStoreSettings {
    /// A store reached through `connection`, with the default lease (10 s).
    pub fn new(connection: impl Into<String>) -> Self {
        PostgresStoreSettings {
            connection: connection.into(),
            lease: std::time::Duration::from_secs(10),
            node: None,
            max_sessions: None,
        }
    }
}

/// The data dictionary files of a session (QuickFIX's `DataDictionary`,
/// `TransportDataDictionary`, `AppDataDictionary`). A session with
/// `UseDataDictionary=Y` and no file here validates against the dictionary the
/// application gives the engine (a generated crate's tables, such as fix44's).
///
/// ```
/// let d = fix_engine::config::DictionaryPaths::default();
/// assert!(d.data_dictionary.is_none() && d.app.is_empty());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct DictionaryPaths {
    /// `DataDictionary`, for FIX.4.0 to FIX.4.4.
    pub data_dictionary: Option<PathBuf>,
    /// `TransportDataDictionary`, for FIXT.1.1: header, trailer, session messages.
    pub transport: Option<PathBuf>,
    /// `AppDataDictionary` (for DefaultApplVerID) and `AppDataDictionary.<version>`,
    /// for FIXT.1.1: (ApplVerID code, file), as [`fix_session::Dictionaries`]
    /// keys them.
    pub app: Vec<(String, PathBuf)>,
}

/// An acceptor template (QuickFIX/J's `AcceptorTemplate=Y`): the settings of
/// sessions that are not in the file, made when a counterparty logs on with
/// CompIDs (and BeginString) the template's pattern matches, `*` matching any
/// value.
///
/// ```
/// use fix_engine::config::Settings;
/// use fix_session::SessionId;
/// let settings = Settings::parse("t.cfg", "
/// [SESSION]
/// ConnectionType=acceptor
/// AcceptorTemplate=Y
/// BeginString=FIX.4.4
/// SenderCompID=EXEC
/// TargetCompID=*
/// SocketAcceptPort=5001
/// NonStopSession=Y
/// ")?;
/// let id = SessionId::new("FIX.4.4", "EXEC", "ANYONE");
/// let template = settings.template_for(&id).unwrap();
/// assert_eq!(template.session_for(&id).unwrap().session.id, id);
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct AcceptorTemplate {
    settings: SessionSettings,
}

impl AcceptorTemplate {
    /// The pattern: our side's BeginString, SenderCompID and TargetCompID, each
    /// a value or `*`.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nAcceptorTemplate=Y\nBeginString=*\nSenderCompID=EXEC\nTargetCompID=*\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// assert_eq!(s.templates()[0].pattern().target_comp_id, "*");
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn pattern(&self) -> &SessionId {
        &self.settings.session.id
    }

    /// The template's settings, its session ID being the pattern.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nAcceptorTemplate=Y\nBeginString=*\nSenderCompID=EXEC\nTargetCompID=*\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// assert!(s.templates()[0].settings().acceptor_template);
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn settings(&self) -> &SessionSettings {
        &self.settings
    }

    /// Whether session `id` (our side's view: SenderCompID is ours) matches the
    /// pattern: each part equal, or `*` in the pattern; a template never has a
    /// qualifier, so `id` must not either.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nAcceptorTemplate=Y\nBeginString=*\nSenderCompID=EXEC\nTargetCompID=*\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// use fix_session::SessionId;
    /// let t = &s.templates()[0];
    /// assert!(t.matches(&SessionId::new("FIX.4.2", "EXEC", "C1")));
    /// assert!(!t.matches(&SessionId::new("FIX.4.2", "OTHER", "C1")));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn matches(&self, id: &SessionId) -> bool {
        let p = self.pattern();
        let part = |pattern: &str, value: &str| pattern == "*" || pattern == value;
        id.qualifier.is_none()
            && part(&p.begin_string, &id.begin_string)
            && part(&p.sender_comp_id, &id.sender_comp_id)
            && part(&p.target_comp_id, &id.target_comp_id)
    }

    /// The settings of session `id`, made from the template, when `id` matches.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nAcceptorTemplate=Y\nBeginString=*\nSenderCompID=EXEC\nTargetCompID=*\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// use fix_session::SessionId;
    /// let made = s.templates()[0].session_for(&SessionId::new("FIX.4.2", "EXEC", "C1")).unwrap();
    /// assert!(!made.acceptor_template);
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn session_for(&self, id: &SessionId) -> Option<SessionSettings> {
        if !self.matches(id) {
            return None;
        }
        let mut settings = self.settings.clone();
        settings.session.id = id.clone();
        settings.acceptor_template = false;
        Some(settings)
    }
}

/// One listening socket: the acceptor sessions and templates on one
/// SocketAcceptPort, which agree on its address and TLS settings.
///
/// ```
/// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
/// let listeners = s.listeners();
/// assert_eq!((listeners[0].port, listeners[0].sessions.len()), (5001, 1));
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listener {
    /// `SocketAcceptAddress`, `None` for every interface.
    pub address: Option<String>,
    /// `SocketAcceptPort`.
    pub port: u16,
    /// The TLS settings, `None` for plain TCP.
    pub tls: Option<Tls>,
    /// `SocketReuseAddress`: bind with `SO_REUSEADDR`.
    pub reuse_address: bool,
    /// The buffer sizes and keep-alive its accepted sockets take.
    pub socket: SocketOptions,
    /// The sessions on it.
    pub sessions: Vec<SessionId>,
    /// The templates' patterns on it.
    pub templates: Vec<SessionId>,
}

impl Listener {
    /// The first setting, by its key, in which `other` differs from this
    /// listener (sessions and templates aside): two acceptors sharing a port
    /// must agree on everything the socket is made with.
    ///
    /// ```
    /// use fix_engine::config::{Schedule, SessionBuilder};
    /// use fix_session::SessionId;
    /// let at = |host: &str| SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_port(5001).socket_accept_address(host)
    ///     .schedule(Schedule::non_stop()).build().unwrap().listener().unwrap();
    /// assert_eq!(at("127.0.0.1").difference(&at("0.0.0.0")), Some("SocketAcceptAddress"));
    /// assert_eq!(at("127.0.0.1").difference(&at("127.0.0.1")), None);
    /// ```
    pub fn difference(&self, other: &Listener) -> Option<&'static str> {
        if self.address != other.address {
            return Some("SocketAcceptAddress");
        }
        if self.reuse_address != other.reuse_address {
            return Some("SocketReuseAddress");
        }
        if self.socket.send_buffer_size != other.socket.send_buffer_size {
            return Some("SocketSendBufferSize");
        }
        if self.socket.receive_buffer_size != other.socket.receive_buffer_size {
            return Some("SocketReceiveBufferSize");
        }
        if self.socket.keepalive != other.socket.keepalive {
            return Some("SocketKeepAlive");
        }
        match (&self.tls, &other.tls) {
            (None, None) => None,
            (Some(x), Some(y)) => {
                if x.certificate != y.certificate {
                    Some("ServerCertificateFile")
                } else if x.private_key != y.private_key {
                    Some("ServerCertificateKeyFile")
                } else if x.key_password != y.key_password {
                    Some("SSLCertificatePassword")
                } else if x.ca_file != y.ca_file {
                    Some("CertificationAuthoritiesFile")
                } else if x.key_store != y.key_store {
                    Some("SocketKeyStore")
                } else if x.key_store_password != y.key_store_password {
                    Some("SocketKeyStorePassword")
                } else if x.trust_store != y.trust_store {
                    Some("SocketTrustStore")
                } else if x.trust_store_password != y.trust_store_password {
                    Some("SocketTrustStorePassword")
                } else if x.client_auth != y.client_auth {
                    Some("CertificateVerifyLevel")
                } else if x.revocation_lists != y.revocation_lists {
                    Some("CertificateRevocationListFile")
                } else if x.verify_certificates != y.verify_certificates {
                    Some("SSLValidateCertificates")
                } else {
                    None
                }
            }
            _ => Some("SocketUseSSL"),
        }
    }
}

/// The sessions and templates of a settings file (or of code), checked as a
/// whole: no session ID twice, and sessions on one port agreeing on its listener.
///
/// ```
/// use fix_engine::config::{Schedule, SessionBuilder, Settings};
/// use fix_session::SessionId;
/// let session = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
///     .socket_accept_port(5001)
///     .schedule(Schedule::non_stop())
///     .build()?;
/// let err = Settings::new([session.clone(), session]).unwrap_err();
/// assert_eq!(err.to_string(), "session FIX.4.4:EXEC->C1 is defined twice");
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Settings {
    sessions: Vec<SessionSettings>,
    templates: Vec<AcceptorTemplate>,
    warnings: Vec<Warning>,
    /// `[DEFAULT]`'s keys as written, with their values.
    defaults: Vec<(String, String)>,
}

impl Settings {
    /// Reads the settings file at `path`.
    ///
    /// ```
    /// let err = fix_engine::config::Settings::from_path("/nonexistent/settings.cfg").unwrap_err();
    /// assert!(err.to_string().starts_with("/nonexistent/settings.cfg: cannot be read: "));
    /// ```
    pub fn from_path(path: impl AsRef<Path>) -> Result<Settings, ConfigError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| {
            ConfigError::new(ErrorKind::Read {
                error: e.kind(),
                message: e.to_string(),
            })
            .at(path, None)
        })?;
        let text = String::from_utf8(bytes).map_err(|e| {
            let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            ConfigError::new(ErrorKind::NotUtf8).at(path, Some(line))
        })?;
        Settings::parse(path, &text)
    }

    /// Reads settings `text`; `file` names it in errors and warnings.
    ///
    /// ```
    /// let err = fix_engine::config::Settings::parse("a.cfg", "[DEFAULT]\nHeartBtInt=abc\n[SESSION]\n").unwrap_err();
    /// assert_eq!(err.to_string(), r#"a.cfg:2: HeartBtInt: "abc" is not a number of seconds"#);
    /// ```
    pub fn parse(file: impl AsRef<Path>, text: &str) -> Result<Settings, ConfigError> {
        file::parse(file.as_ref(), text)
    }

    /// Settings made in code: the same checks as a file's, over the whole set
    /// (sessions with `acceptor_template` become [`AcceptorTemplate`]s).
    ///
    /// ```
    /// use fix_engine::config::{Schedule, SessionBuilder, Settings};
    /// use fix_session::SessionId;
    /// let s = SessionBuilder::initiator(SessionId::new("FIX.4.4", "C1", "EXEC"))
    ///     .heart_bt_int(30)
    ///     .socket_connect("localhost", 5001)
    ///     .schedule(Schedule::non_stop())
    ///     .build()?;
    /// assert_eq!(Settings::new([s])?.sessions().len(), 1);
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn new(
        sessions: impl IntoIterator<Item = SessionSettings>,
    ) -> Result<Settings, ConfigError> {
        Settings::assemble(sessions.into_iter().map(|s| (s, None)).collect())
    }

    /// The set checks, over sessions with the line of their `[SESSION]` header
    /// when they come from a file.
    fn assemble(list: Vec<(SessionSettings, Option<usize>)>) -> Result<Settings, ConfigError> {
        let mut seen: Vec<(&SessionId, bool, Option<usize>)> = Vec::new();
        for (s, line) in &list {
            let id = &s.session.id;
            if let Some((_, _, first_line)) = seen
                .iter()
                .find(|(other, template, _)| *other == id && *template == s.acceptor_template)
            {
                return Err(ConfigError::new(ErrorKind::DuplicateSession {
                    id: id.clone(),
                    first_line: *first_line,
                })
                .with_line(*line));
            }
            seen.push((id, s.acceptor_template, *line));
        }
        let mut ports: Vec<(&SessionSettings, Option<usize>)> = Vec::new();
        for (s, line) in &list {
            let Transport::Acceptor(a) = &s.transport else {
                continue;
            };
            let first = ports.iter().find(
                |(other, _)| matches!(&other.transport, Transport::Acceptor(o) if o.port == a.port),
            );
            match first {
                None => ports.push((s, *line)),
                Some((other, other_line)) => {
                    if let Some(key) = listener_difference(other, s) {
                        return Err(ConfigError::keyed(
                            key,
                            ErrorKind::SharedPort {
                                port: a.port,
                                other: other.session.id.clone(),
                                other_line: *other_line,
                            },
                        )
                        .with_line(*line));
                    }
                }
            }
        }
        let (templates, sessions): (Vec<_>, Vec<_>) = list
            .into_iter()
            .map(|(s, _)| s)
            .partition(|s| s.acceptor_template);
        Ok(Settings {
            sessions,
            templates: templates
                .into_iter()
                .map(|settings| AcceptorTemplate { settings })
                .collect(),
            warnings: Vec::new(),
            defaults: Vec::new(),
        })
    }

    /// What the file had that the engine passed over or does not apply, in
    /// the order of the file's lines (none for settings made in code).
    ///
    /// ```
    /// let s = fix_engine::config::Settings::parse("a.cfg", "
    /// [SESSION]
    /// ConnectionType=acceptor
    /// BeginString=FIX.4.4
    /// SenderCompID=EXEC
    /// TargetCompID=C1
    /// SocketAcceptPort=5001
    /// SocketAcceptPort=5002
    /// NonStopSession=Y
    /// ")?;
    /// assert_eq!(s.warnings()[0].to_string(), "a.cfg:8: SocketAcceptPort: set again (first at line 7): the last value is used");
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn warnings(&self) -> &[Warning] {
        &self.warnings
    }

    /// The settings refused at their first warning, for those who want every
    /// line of a file to be one the engine reads (`fixcfg check --strict`):
    /// the warning as an [`ErrorKind::Strict`] error, at its file, line and key.
    ///
    /// ```
    /// use fix_engine::config::{ErrorKind, Settings, WarningKind};
    /// let s = Settings::parse("a.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=E\nTargetCompID=C\nSocketAcceptPort=5001\nNonStopSession=Y\nSSL_PROTOCOL=TLSv1.2\n")?;
    /// let err = s.strict().unwrap_err();
    /// assert_eq!((err.line(), err.key()), (Some(8), Some("SSL_PROTOCOL")));
    /// assert!(matches!(err.kind(), ErrorKind::Strict { warning: WarningKind::UnknownKey { suggestion: Some("SSLProtocol") } }));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn strict(&self) -> Result<(), ConfigError> {
        match self.warnings.first() {
            Some(w) => Err(w.to_error()),
            None => Ok(()),
        }
    }

    /// The value of `key` for session `id` (see [`SessionSettings::get`]); a
    /// session the settings do not have has none.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[DEFAULT]\nUsername=u1\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\n")?;
    /// use fix_session::SessionId;
    /// assert_eq!(s.get(&SessionId::new("FIX.4.4", "EXEC", "C1"), "Username"), Some("u1"));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn get(&self, id: &SessionId, key: &str) -> Option<&str> {
        self.session(id)?.get(key)
    }

    /// The value of `key` in `[DEFAULT]` (QuickFIX's `SessionSettings::get()`).
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[DEFAULT]\nUsername=u1\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\n")?;
    /// assert_eq!(s.default_value("username"), Some("u1"));
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn default_value(&self, key: &str) -> Option<&str> {
        self.defaults
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(key))
            .map(|(_, v)| v.as_str())
    }

    /// The same settings with a file's warnings and `[DEFAULT]` keys.
    fn with_file(mut self, warnings: Vec<Warning>, defaults: Vec<(String, String)>) -> Settings {
        self.warnings = warnings;
        self.defaults = defaults;
        self
    }

    /// The sessions, in the order they were given.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// assert_eq!(s.sessions()[0].session.id.target_comp_id, "C1");
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn sessions(&self) -> &[SessionSettings] {
        &self.sessions
    }

    /// The session with ID `id`.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// use fix_session::SessionId;
    /// assert!(s.session(&SessionId::new("FIX.4.4", "EXEC", "C1")).is_some());
    /// assert!(s.session(&SessionId::new("FIX.4.4", "EXEC", "C2")).is_none());
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn session(&self, id: &SessionId) -> Option<&SessionSettings> {
        self.sessions.iter().find(|s| &s.session.id == id)
    }

    /// The acceptor templates, in the order they were given.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// assert!(s.templates().is_empty());
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn templates(&self) -> &[AcceptorTemplate] {
        &self.templates
    }

    /// The first template (in file order) matching session `id`, for a Logon no
    /// configured session takes.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nAcceptorTemplate=Y\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=*\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// use fix_session::SessionId;
    /// assert!(s.template_for(&SessionId::new("FIX.4.4", "EXEC", "NEW")).is_some());
    /// assert!(s.template_for(&SessionId::new("FIX.4.2", "EXEC", "NEW")).is_none());
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn template_for(&self, id: &SessionId) -> Option<&AcceptorTemplate> {
        self.templates.iter().find(|t| t.matches(id))
    }

    /// The listening sockets: one per SocketAcceptPort, in the order the ports
    /// first appear.
    ///
    /// ```
    /// # let s = fix_engine::config::Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\nNonStopSession=Y\n")?;
    /// assert_eq!(s.listeners()[0].address, None);
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn listeners(&self) -> Vec<Listener> {
        let mut listeners: Vec<Listener> = Vec::new();
        let all = self
            .sessions
            .iter()
            .map(|s| (s, false))
            .chain(self.templates.iter().map(|t| (&t.settings, true)));
        for (s, template) in all {
            let Some(mut listener) = s.listener() else {
                continue;
            };
            let index = match listeners.iter().position(|l| l.port == listener.port) {
                Some(i) => i,
                None => {
                    listener.sessions.clear();
                    listener.templates.clear();
                    listeners.push(listener);
                    listeners.len() - 1
                }
            };
            let l = &mut listeners[index];
            if template {
                l.templates.push(s.session.id.clone());
            } else {
                l.sessions.push(s.session.id.clone());
            }
        }
        listeners
    }
}

/// The first listener setting in which `b` differs from `a`, two acceptors on
/// one port.
fn listener_difference(a: &SessionSettings, b: &SessionSettings) -> Option<&'static str> {
    a.listener()?.difference(&b.listener()?)
}

/// A session's `QueuedMessageMaxAge`: the engine's limit, no limit, or one
/// of its own.
///
/// ```
/// use std::time::Duration;
/// use fix_engine::config::QueuedAge;
/// let engine = Some(Duration::from_secs(120));
/// assert_eq!(QueuedAge::Engine.or(engine), engine);
/// assert_eq!(QueuedAge::Unlimited.or(engine), None);
/// assert_eq!(QueuedAge::Within(Duration::from_secs(5)).or(engine), Some(Duration::from_secs(5)));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QueuedAge {
    /// Not set for the session:
    /// [`EngineOptions::max_queued_age`](crate::EngineOptions::max_queued_age).
    #[default]
    Engine,
    /// No limit (`QueuedMessageMaxAge=0`), whatever the engine's.
    Unlimited,
    /// At most this long.
    Within(Duration),
}

impl QueuedAge {
    /// The limit in force, given the engine's.
    pub fn or(self, engine: Option<Duration>) -> Option<Duration> {
        match self {
            QueuedAge::Engine => engine,
            QueuedAge::Unlimited => None,
            QueuedAge::Within(d) => Some(d),
        }
    }
}
