//! [`SessionBuilder`]: a session's settings from code, with the checks a
//! settings file gets; the file reader builds through it too.

use std::path::PathBuf;
use std::time::Duration;

use fix_core::Parser;
use fix_core::validate::Validator;
use fix_session::{FileOptions, Role, SessionConfig, SessionId, SyncPolicy, appl_ver_id_code};

use super::error::{ConfigError, ErrorKind};
use super::keys::{Fixed, Key};
use super::value::{self, APPL_VER_ID, BEGIN_STRING, BEGIN_STRINGS, PORT};
use super::{
    AcceptorTransport, ClientAuth, DictionaryPaths, Endpoint, InitiatorTransport, Schedule,
    SessionSettings, Tls, Transport,
};

/// What decides whether a setting applies to a session.
pub(crate) struct Context {
    pub(crate) role: Role,
    /// FIXT.1.1; `None` for a template whose BeginString is `*`.
    pub(crate) fixt: Option<bool>,
    pub(crate) non_stop: bool,
    pub(crate) use_data_dictionary: bool,
    pub(crate) ssl: bool,
    /// An acceptor that verifies client certificates (CertificateVerifyLevel 1
    /// or 2, or NeedClientAuth=Y).
    pub(crate) verifies_clients: bool,
    pub(crate) check_latency: bool,
    pub(crate) file_store: bool,
}

/// Whether `key` applies to a session in `cx`, and why not.
pub(crate) fn applies(key: &Key, cx: &Context) -> Result<(), &'static str> {
    use Fixed::*;
    let initiator = cx.role == Role::Initiator;
    let acceptor = !initiator;
    // The numbered and suffixed keys go by the fixed key they belong with.
    let fixed = match key {
        Key::ConnectHost(_) | Key::ConnectPort(_) => ReconnectInterval,
        Key::AppDataDictionaryFor(_) => AppDataDictionary,
        Key::Fixed(k) => *k,
    };
    let only = |ok: bool, reason| if ok { Ok(()) } else { Err(reason) };
    match fixed {
        HeartBtInt | ReconnectInterval | SendResetSeqNumFlag => {
            only(initiator, "only an initiator uses it")
        }
        SessionQualifier => only(initiator, "only an initiator session can have a qualifier"),
        SocketAcceptPort | SocketAcceptAddress | AcceptorTemplate => {
            only(acceptor, "only an acceptor uses it")
        }
        ClientCertificateFile | ClientCertificateKeyFile | SNIHostName => {
            only(initiator, "only an initiator uses it")?;
            only(cx.ssl, "only used with SocketUseSSL=Y")
        }
        ServerCertificateFile
        | ServerCertificateKeyFile
        | NeedClientAuth
        | CertificateVerifyLevel => {
            only(acceptor, "only an acceptor uses it")?;
            only(cx.ssl, "only used with SocketUseSSL=Y")
        }
        CertificationAuthoritiesFile => {
            only(cx.ssl, "only used with SocketUseSSL=Y")?;
            only(
                initiator || cx.verifies_clients,
                "an acceptor reads it only to verify clients (CertificateVerifyLevel=1 or 2)",
            )
        }
        DefaultApplVerID => only(cx.fixt != Some(false), "only a FIXT.1.1 session uses it"),
        TransportDataDictionary | AppDataDictionary => {
            only(cx.fixt != Some(false), "only a FIXT.1.1 session uses it")?;
            only(cx.use_data_dictionary, "not used with UseDataDictionary=N")
        }
        DataDictionary => {
            only(
                cx.fixt != Some(true),
                "a FIXT.1.1 session uses TransportDataDictionary and AppDataDictionary instead",
            )?;
            only(cx.use_data_dictionary, "not used with UseDataDictionary=N")
        }
        ValidateFieldsOutOfOrder
        | ValidateFieldsHaveValues
        | ValidateUserDefinedFields
        | AllowUnknownMsgFields => {
            only(cx.use_data_dictionary, "not used with UseDataDictionary=N")
        }
        StartTime | EndTime | StartDay | EndDay | Weekdays | TimeZone | UseLocalTime => {
            only(!cx.non_stop, "not used with NonStopSession=Y")
        }
        MaxLatency => only(cx.check_latency, "not used with CheckLatency=N"),
        FileStoreSync => only(cx.file_store, "only used with FileStorePath"),
        ConnectionType
        | BeginString
        | SenderCompID
        | TargetCompID
        | NonStopSession
        | LogonTimeout
        | LogoutTimeout
        | SocketNodelay
        | ResetOnLogon
        | ResetOnLogout
        | ResetOnDisconnect
        | UseDataDictionary
        | CheckCompID
        | CheckLatency
        | ResendRequestChunkSize
        | PersistMessages
        | FileStorePath
        | FileLogPath
        | SocketUseSSL => Ok(()),
    }
}

/// A session's settings in code, checked by [`build`](Self::build) as a settings
/// file's are: every setter is a QuickFIX setting, every default QuickFIX's.
///
/// ```
/// use fix_engine::config::{Schedule, SessionBuilder, TimeOfDay};
/// use fix_session::SessionId;
/// use std::time::Duration;
///
/// let settings = SessionBuilder::initiator(SessionId::new("FIX.4.4", "CLIENT1", "EXECUTOR"))
///     .heart_bt_int(30)
///     .socket_connect("127.0.0.1", 5001)
///     .reconnect_interval(Duration::from_secs(5))
///     .schedule(Schedule::daily(TimeOfDay::MIDNIGHT, TimeOfDay::MIDNIGHT))
///     .reset_on_logon(true)
///     .file_store_path("store")
///     .build()?;
/// assert!(settings.session.reset_on_logon);
///
/// // The same checks as a file's: an acceptor has no reconnect interval.
/// let err = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1"))
///     .socket_accept_port(5001)
///     .schedule(Schedule::non_stop())
///     .reconnect_interval(Duration::from_secs(5))
///     .build()
///     .unwrap_err();
/// assert_eq!(err.to_string(), "ReconnectInterval: only an initiator uses it");
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct SessionBuilder {
    id: SessionId,
    role: Role,
    acceptor_template: Option<bool>,
    schedule: Option<Schedule>,
    heart_bt_int: Option<u32>,
    socket_accept_port: Option<u16>,
    socket_accept_address: Option<String>,
    endpoints: Vec<Endpoint>,
    reconnect_interval: Option<Duration>,
    logon_timeout: Option<Duration>,
    logout_timeout: Option<Duration>,
    socket_nodelay: Option<bool>,
    reset_on_logon: Option<bool>,
    reset_on_logout: Option<bool>,
    reset_on_disconnect: Option<bool>,
    send_reset_seq_num_flag: Option<bool>,
    use_data_dictionary: Option<bool>,
    data_dictionary: Option<PathBuf>,
    transport_data_dictionary: Option<PathBuf>,
    app_data_dictionaries: Vec<(String, PathBuf)>,
    validate_fields_out_of_order: Option<bool>,
    validate_fields_have_values: Option<bool>,
    validate_user_defined_fields: Option<bool>,
    allow_unknown_msg_fields: Option<bool>,
    check_comp_id: Option<bool>,
    check_latency: Option<bool>,
    max_latency: Option<Duration>,
    resend_request_chunk_size: Option<u64>,
    persist_messages: Option<bool>,
    default_appl_ver_id: Option<String>,
    file_store_path: Option<PathBuf>,
    file_store_sync: Option<SyncPolicy>,
    file_log_path: Option<PathBuf>,
    socket_use_ssl: Option<bool>,
    certificate: Option<PathBuf>,
    private_key: Option<PathBuf>,
    ca_file: Option<PathBuf>,
    certificate_verify_level: Option<ClientAuth>,
    need_client_auth: Option<bool>,
    sni_host_name: Option<String>,
    client_certificate_names: Vec<String>,
}

macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident: $ty:ty;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(mut self, value: $ty) -> Self {
                self.$name = Some(value.into());
                self
            }
        )*
    };
}

impl SessionBuilder {
    fn new(id: SessionId, role: Role) -> SessionBuilder {
        SessionBuilder {
            id,
            role,
            acceptor_template: None,
            schedule: None,
            heart_bt_int: None,
            socket_accept_port: None,
            socket_accept_address: None,
            endpoints: Vec::new(),
            reconnect_interval: None,
            logon_timeout: None,
            logout_timeout: None,
            socket_nodelay: None,
            reset_on_logon: None,
            reset_on_logout: None,
            reset_on_disconnect: None,
            send_reset_seq_num_flag: None,
            use_data_dictionary: None,
            data_dictionary: None,
            transport_data_dictionary: None,
            app_data_dictionaries: Vec::new(),
            validate_fields_out_of_order: None,
            validate_fields_have_values: None,
            validate_user_defined_fields: None,
            allow_unknown_msg_fields: None,
            check_comp_id: None,
            check_latency: None,
            max_latency: None,
            resend_request_chunk_size: None,
            persist_messages: None,
            default_appl_ver_id: None,
            file_store_path: None,
            file_store_sync: None,
            file_log_path: None,
            socket_use_ssl: None,
            certificate: None,
            private_key: None,
            ca_file: None,
            certificate_verify_level: None,
            need_client_auth: None,
            sni_host_name: None,
            client_certificate_names: Vec::new(),
        }
    }

    /// `ClientCertificateNames` (acceptor, with client certificates
    /// required): the names one of which a client's certificate must hold for
    /// this session (see [`Tls::client_names`]); `{TargetCompID}` stands for
    /// the session's TargetCompID.
    ///
    /// ```
    /// use fix_engine::config::{ClientAuth, SessionBuilder};
    /// let b = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "*"))
    ///     .certificate_verify_level(ClientAuth::Required)
    ///     .client_certificate_names(["{TargetCompID}.clients.example"]);
    /// # let _ = b;
    /// ```
    pub fn client_certificate_names<S: Into<String>>(
        mut self,
        names: impl IntoIterator<Item = S>,
    ) -> Self {
        self.client_certificate_names = names.into_iter().map(Into::into).collect();
        self
    }

    /// `ConnectionType=acceptor` for session `id` (our side: SenderCompID is
    /// ours). Needs [`socket_accept_port`](Self::socket_accept_port) and a
    /// [`schedule`](Self::schedule).
    ///
    /// ```
    /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"));
    /// assert!(b.build().is_err()); // no port yet
    /// ```
    pub fn acceptor(id: SessionId) -> SessionBuilder {
        SessionBuilder::new(id, Role::Acceptor)
    }

    /// `ConnectionType=initiator` for session `id`. Needs
    /// [`heart_bt_int`](Self::heart_bt_int),
    /// [`socket_connect`](Self::socket_connect) and a [`schedule`](Self::schedule).
    ///
    /// ```
    /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC"));
    /// assert_eq!(b.build().unwrap_err().key(), Some("HeartBtInt"));
    /// ```
    pub fn initiator(id: SessionId) -> SessionBuilder {
        SessionBuilder::new(id, Role::Initiator)
    }

    /// `SocketConnectHost`/`SocketConnectPort`, then (called again) the failover
    /// endpoints `SocketConnectHost1`/`SocketConnectPort1`, … in order.
    ///
    /// ```
    /// # use fix_engine::config::{Schedule, SessionBuilder, Transport};
    /// let s = SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC"))
    ///     .heart_bt_int(30).schedule(Schedule::non_stop())
    ///     .socket_connect("primary", 5001)
    ///     .socket_connect("backup", 5001)
    ///     .build()?;
    /// let Transport::Initiator(i) = s.transport else { unreachable!() };
    /// assert_eq!(i.endpoints[1].host, "backup");
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn socket_connect(mut self, host: impl Into<String>, port: u16) -> Self {
        self.endpoints.push(Endpoint {
            host: host.into(),
            port,
        });
        self
    }

    /// `AppDataDictionary` for the application messages of ApplVerID
    /// `appl_ver_id` (a code or a version name; FIXT.1.1), added or replacing
    /// the one given before for it.
    ///
    /// ```
    /// # use fix_engine::config::{Schedule, SessionBuilder};
    /// let s = SessionBuilder::acceptor(fix_session::SessionId::new("FIXT.1.1", "EXEC", "C1"))
    ///     .socket_accept_port(5001).schedule(Schedule::non_stop())
    ///     .default_appl_ver_id("FIX.5.0SP2")
    ///     .app_data_dictionary("FIX.5.0SP2", "spec/FIX50SP2.xml")
    ///     .build()?;
    /// assert_eq!(s.dictionaries.app[0].0, "9");
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn app_data_dictionary(mut self, appl_ver_id: &str, path: impl Into<PathBuf>) -> Self {
        self.app_data_dictionaries
            .retain(|(v, _)| appl_ver_id_code(v) != appl_ver_id_code(appl_ver_id));
        self.app_data_dictionaries
            .push((appl_ver_id.to_owned(), path.into()));
        self
    }

    setters! {
        /// QuickFIX/J's `AcceptorTemplate` (acceptor only): on, the session is
        /// a template, and its BeginString and CompIDs may be `*`.
        ///
        /// ```
        /// # use fix_engine::config::{Schedule, SessionBuilder};
        /// let t = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "*"))
        ///     .acceptor_template(true).socket_accept_port(5001).schedule(Schedule::non_stop()).build()?;
        /// assert!(t.acceptor_template);
        /// # Ok::<(), fix_engine::config::ConfigError>(())
        /// ```
        acceptor_template: bool;
        /// `StartTime`, `EndTime`, `StartDay`, `EndDay`, `Weekdays`,
        /// `NonStopSession`, `TimeZone` and `UseLocalTime`, as one value (required).
        ///
        /// ```
        /// # use fix_engine::config::{Schedule, SessionBuilder};
        /// let b = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).schedule(Schedule::non_stop());
        /// # let _ = b;
        /// ```
        schedule: Schedule;
        /// `HeartBtInt`, in seconds (initiator only, required, above 0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).heart_bt_int(30);
        /// # let _ = b;
        /// ```
        heart_bt_int: u32;
        /// `SocketAcceptPort` (acceptor only, required). 0 is a port the
        /// system picks when the engine starts, which
        /// [`Engine::local_addrs`](crate::Engine::local_addrs) tells (sessions
        /// on port 0 share that one listener, as on any port).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_accept_port(5001);
        /// # let _ = b;
        /// ```
        socket_accept_port: u16;
        /// `SocketAcceptAddress` (QuickFIX/J; acceptor only): the local address
        /// to listen on, rather than every interface.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_accept_address("127.0.0.1");
        /// # let _ = b;
        /// ```
        socket_accept_address: impl Into<String>;
        /// `ReconnectInterval` (initiator only; default 30 s, above 0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).reconnect_interval(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        reconnect_interval: Duration;
        /// `LogonTimeout` (default 10 s, above 0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).logon_timeout(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        logon_timeout: Duration;
        /// `LogoutTimeout` (default 2 s, above 0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).logout_timeout(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        logout_timeout: Duration;
        /// `SocketNodelay` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_nodelay(false);
        /// # let _ = b;
        /// ```
        socket_nodelay: bool;
        /// `ResetOnLogon` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).reset_on_logon(true);
        /// # let _ = b;
        /// ```
        reset_on_logon: bool;
        /// `ResetOnLogout` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).reset_on_logout(true);
        /// # let _ = b;
        /// ```
        reset_on_logout: bool;
        /// `ResetOnDisconnect` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).reset_on_disconnect(true);
        /// # let _ = b;
        /// ```
        reset_on_disconnect: bool;
        /// `SendResetSeqNumFlag` (initiator only; default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).send_reset_seq_num_flag(true);
        /// # let _ = b;
        /// ```
        send_reset_seq_num_flag: bool;
        /// `UseDataDictionary` (default on): off, received messages are not
        /// validated (and may hold empty values).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).use_data_dictionary(false);
        /// # let _ = b;
        /// ```
        use_data_dictionary: bool;
        /// `DataDictionary` (FIX.4.x).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).data_dictionary("spec/FIX44.xml");
        /// # let _ = b;
        /// ```
        data_dictionary: impl Into<PathBuf>;
        /// `TransportDataDictionary` (FIXT.1.1).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIXT.1.1", "EXEC", "C1")).transport_data_dictionary("spec/FIXT11.xml");
        /// # let _ = b;
        /// ```
        transport_data_dictionary: impl Into<PathBuf>;
        /// `ValidateFieldsOutOfOrder` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).validate_fields_out_of_order(false);
        /// # let _ = b;
        /// ```
        validate_fields_out_of_order: bool;
        /// `ValidateFieldsHaveValues` (default on): off, empty values are
        /// accepted by the parser and the validator.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).validate_fields_have_values(false);
        /// # let _ = b;
        /// ```
        validate_fields_have_values: bool;
        /// `ValidateUserDefinedFields` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).validate_user_defined_fields(false);
        /// # let _ = b;
        /// ```
        validate_user_defined_fields: bool;
        /// `AllowUnknownMsgFields` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).allow_unknown_msg_fields(true);
        /// # let _ = b;
        /// ```
        allow_unknown_msg_fields: bool;
        /// `CheckCompID` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).check_comp_id(false);
        /// # let _ = b;
        /// ```
        check_comp_id: bool;
        /// `CheckLatency` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).check_latency(false);
        /// # let _ = b;
        /// ```
        check_latency: bool;
        /// `MaxLatency` (default 120 s, above 0; with `CheckLatency` on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).max_latency(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        max_latency: Duration;
        /// `ResendRequestChunkSize` (default 0: one ResendRequest for the whole gap).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).resend_request_chunk_size(500);
        /// # let _ = b;
        /// ```
        resend_request_chunk_size: u64;
        /// `PersistMessages` (default on): off, resends are all gap fills.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).persist_messages(false);
        /// # let _ = b;
        /// ```
        persist_messages: bool;
        /// `DefaultApplVerID` (FIXT.1.1, required there): a code or a version name.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIXT.1.1", "EXEC", "C1")).default_appl_ver_id("9");
        /// # let _ = b;
        /// ```
        default_appl_ver_id: impl Into<String>;
        /// `FileStorePath`: the file store's directory (no file store without it).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_store_path("store");
        /// # let _ = b;
        /// ```
        file_store_path: impl Into<PathBuf>;
        /// `FileStoreSync` as the file store's policy (with `FileStorePath`;
        /// default [`SyncPolicy::EveryRecord`], which is `FileStoreSync=Y`;
        /// `N` is [`SyncPolicy::Os`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_store_sync(fix_session::SyncPolicy::Os);
        /// # let _ = b;
        /// ```
        file_store_sync: SyncPolicy;
        /// `FileLogPath`: the message log's directory (no log without it).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_log_path("log");
        /// # let _ = b;
        /// ```
        file_log_path: impl Into<PathBuf>;
        /// `SocketUseSSL` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_use_ssl(true);
        /// # let _ = b;
        /// ```
        socket_use_ssl: bool;
        /// Our certificate chain, PEM, our own certificate first:
        /// `ServerCertificateFile` for an acceptor (required with TLS),
        /// `ClientCertificateFile` for an initiator (optional: a client
        /// certificate, for an acceptor that asks for one).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).certificate("server.crt");
        /// # let _ = b;
        /// ```
        certificate: impl Into<PathBuf>;
        /// Its private key, PEM: `ServerCertificateKeyFile` or
        /// `ClientCertificateKeyFile`; without it, the key is read from the
        /// certificate's file.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).private_key("server.key");
        /// # let _ = b;
        /// ```
        private_key: impl Into<PathBuf>;
        /// `CertificationAuthoritiesFile`, PEM: the certificate authorities the
        /// peer's certificate is checked against (required for an initiator;
        /// an acceptor's, with client verification on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).ca_file("ca.crt");
        /// # let _ = b;
        /// ```
        ca_file: impl Into<PathBuf>;
        /// `CertificateVerifyLevel` (acceptor only, default
        /// [`ClientAuth::None`]; any other needs `CertificationAuthoritiesFile`).
        ///
        /// ```
        /// use fix_engine::config::ClientAuth;
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).certificate_verify_level(ClientAuth::Required);
        /// # let _ = b;
        /// ```
        certificate_verify_level: ClientAuth;
        /// `NeedClientAuth` (QuickFIX/J; acceptor only, default off): on is
        /// `CertificateVerifyLevel=1`.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).need_client_auth(true);
        /// # let _ = b;
        /// ```
        need_client_auth: bool;
        /// `SNIHostName` (QuickFIX/J; initiator only): the name the acceptor's
        /// certificate must hold, sent as SNI, instead of `SocketConnectHost`.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).sni_host_name("fix.example.com");
        /// # let _ = b;
        /// ```
        sni_host_name: impl Into<String>;
    }

    fn context(&self) -> Context {
        Context {
            role: self.role,
            fixt: (self.id.begin_string != "*").then(|| self.id.begin_string == "FIXT.1.1"),
            non_stop: self.schedule.as_ref().is_some_and(Schedule::is_non_stop),
            use_data_dictionary: self.use_data_dictionary.unwrap_or(true),
            ssl: self.socket_use_ssl.unwrap_or(false),
            verifies_clients: self.client_auth() != Ok(ClientAuth::None),
            check_latency: self.check_latency.unwrap_or(true),
            file_store: self.file_store_path.is_some(),
        }
    }

    /// The checked settings, or the first problem, its key named as in a
    /// settings file.
    ///
    /// ```
    /// # use fix_engine::config::{Schedule, SessionBuilder};
    /// let err = SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC"))
    ///     .heart_bt_int(0)
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), r#"HeartBtInt: "0" is not a number of seconds above 0"#);
    /// ```
    pub fn build(self) -> Result<SessionSettings, ConfigError> {
        use Fixed::*;
        let cx = self.context();
        let initiator = self.role == Role::Initiator;
        let template = self.acceptor_template.unwrap_or(false);
        self.check_id(template)?;

        let role_cert = |acceptor, initiator_key| if initiator { initiator_key } else { acceptor };
        let set = [
            (
                Key::Fixed(AcceptorTemplate),
                self.acceptor_template.is_some(),
            ),
            (Key::Fixed(SessionQualifier), self.id.qualifier.is_some()),
            (Key::Fixed(HeartBtInt), self.heart_bt_int.is_some()),
            (
                Key::Fixed(SocketAcceptPort),
                self.socket_accept_port.is_some(),
            ),
            (
                Key::Fixed(SocketAcceptAddress),
                self.socket_accept_address.is_some(),
            ),
            (Key::ConnectHost(0), !self.endpoints.is_empty()),
            (
                Key::Fixed(ReconnectInterval),
                self.reconnect_interval.is_some(),
            ),
            (
                Key::Fixed(SendResetSeqNumFlag),
                self.send_reset_seq_num_flag.is_some(),
            ),
            (Key::Fixed(DataDictionary), self.data_dictionary.is_some()),
            (
                Key::Fixed(TransportDataDictionary),
                self.transport_data_dictionary.is_some(),
            ),
            (
                Key::Fixed(AppDataDictionary),
                !self.app_data_dictionaries.is_empty(),
            ),
            (
                Key::Fixed(DefaultApplVerID),
                self.default_appl_ver_id.is_some(),
            ),
            (
                Key::Fixed(ValidateFieldsOutOfOrder),
                self.validate_fields_out_of_order.is_some(),
            ),
            (
                Key::Fixed(ValidateFieldsHaveValues),
                self.validate_fields_have_values.is_some(),
            ),
            (
                Key::Fixed(ValidateUserDefinedFields),
                self.validate_user_defined_fields.is_some(),
            ),
            (
                Key::Fixed(AllowUnknownMsgFields),
                self.allow_unknown_msg_fields.is_some(),
            ),
            (Key::Fixed(MaxLatency), self.max_latency.is_some()),
            (Key::Fixed(FileStoreSync), self.file_store_sync.is_some()),
            (
                Key::Fixed(role_cert(ServerCertificateFile, ClientCertificateFile)),
                self.certificate.is_some(),
            ),
            (
                Key::Fixed(role_cert(
                    ServerCertificateKeyFile,
                    ClientCertificateKeyFile,
                )),
                self.private_key.is_some(),
            ),
            (
                Key::Fixed(CertificationAuthoritiesFile),
                self.ca_file.is_some(),
            ),
            (Key::Fixed(NeedClientAuth), self.need_client_auth.is_some()),
            (
                Key::Fixed(CertificateVerifyLevel),
                self.certificate_verify_level.is_some(),
            ),
            (Key::Fixed(SNIHostName), self.sni_host_name.is_some()),
        ];
        for (key, is_set) in &set {
            if *is_set {
                applies(key, &cx).map_err(|reason| {
                    ConfigError::keyed(key.to_string(), ErrorKind::NotApplicable { reason })
                })?;
            }
        }

        let positive = |key: Fixed, d: Option<Duration>, default: u64| match d {
            Some(d) if d.is_zero() => Err(invalid(key, "0", "a number of seconds above 0")),
            Some(d) => Ok(d),
            None => Ok(Duration::from_secs(default)),
        };
        let logon_timeout = positive(LogonTimeout, self.logon_timeout, 10)?;
        let logout_timeout = positive(LogoutTimeout, self.logout_timeout, 2)?;
        let max_latency = positive(MaxLatency, self.max_latency, 120)?;
        let reconnect_interval = positive(ReconnectInterval, self.reconnect_interval, 30)?;

        let transport = if initiator {
            let heart_bt_int = match self.heart_bt_int {
                None => return Err(missing(HeartBtInt, "an initiator sends it in its Logon")),
                Some(0) => return Err(invalid(HeartBtInt, "0", "a number of seconds above 0")),
                Some(h) => h,
            };
            if self.endpoints.is_empty() {
                return Err(missing(
                    Key::ConnectHost(0),
                    "an initiator needs a host to connect to",
                ));
            }
            for (n, e) in self.endpoints.iter().enumerate() {
                let n = u32::try_from(n).unwrap_or(u32::MAX);
                if !value::is_host(&e.host) {
                    return Err(ConfigError::keyed(
                        Key::ConnectHost(n).to_string(),
                        ErrorKind::InvalidValue {
                            value: e.host.clone(),
                            expected: "a host name or IP address",
                        },
                    ));
                }
                if e.port == 0 {
                    return Err(ConfigError::keyed(
                        Key::ConnectPort(n).to_string(),
                        ErrorKind::InvalidValue {
                            value: "0".into(),
                            expected: PORT,
                        },
                    ));
                }
            }
            (
                heart_bt_int,
                Transport::Initiator(InitiatorTransport {
                    endpoints: self.endpoints.clone(),
                    reconnect_interval,
                }),
            )
        } else {
            let port = match self.socket_accept_port {
                None => {
                    return Err(missing(
                        SocketAcceptPort,
                        "an acceptor needs a port to listen on",
                    ));
                }
                Some(p) => p,
            };
            if let Some(a) = &self.socket_accept_address
                && !value::is_host(a)
            {
                return Err(invalid(SocketAcceptAddress, a, "a host name or IP address"));
            }
            (
                SessionConfig::new(self.id.clone(), self.role).heart_bt_int,
                Transport::Acceptor(AcceptorTransport {
                    address: self.socket_accept_address.clone(),
                    port,
                }),
            )
        };
        let (heart_bt_int, transport) = transport;

        let Some(schedule) = self.schedule.clone() else {
            return Err(missing(
                StartTime,
                "a session needs a schedule: StartTime and EndTime, or NonStopSession=Y",
            ));
        };

        if cx.fixt == Some(true) && self.default_appl_ver_id.is_none() {
            return Err(missing(
                DefaultApplVerID,
                "a FIXT.1.1 session needs the application version it speaks",
            ));
        }
        if let Some(v) = &self.default_appl_ver_id
            && !value::is_appl_ver_id(v)
        {
            return Err(invalid(DefaultApplVerID, v, APPL_VER_ID));
        }
        for (v, _) in &self.app_data_dictionaries {
            if !value::is_appl_ver_id(v) {
                return Err(invalid(AppDataDictionary, v, APPL_VER_ID));
            }
        }

        let tls = if cx.ssl {
            let tls = Tls {
                certificate: self.certificate.clone(),
                private_key: self.private_key.clone(),
                ca_file: self.ca_file.clone(),
                client_auth: self.client_auth()?,
                server_name: self.sni_host_name.clone(),
                client_names: self.client_certificate_names.clone(),
            };
            let cert_key = if initiator {
                ClientCertificateFile
            } else {
                ServerCertificateFile
            };
            match (&tls.certificate, &tls.private_key) {
                (None, _) if !initiator => {
                    return Err(missing(
                        cert_key,
                        "an acceptor with SocketUseSSL=Y presents a certificate",
                    ));
                }
                (None, Some(_)) => return Err(missing(cert_key, "the key needs its certificate")),
                _ => {}
            }
            if initiator && tls.ca_file.is_none() {
                return Err(missing(
                    CertificationAuthoritiesFile,
                    "an initiator checks the acceptor's certificate against it (for public certificate authorities, the system's bundle, such as /etc/ssl/certs/ca-certificates.crt)",
                ));
            }
            if tls.client_auth != ClientAuth::None && tls.ca_file.is_none() {
                return Err(missing(
                    CertificationAuthoritiesFile,
                    "an acceptor that verifies clients checks their certificates against it",
                ));
            }
            if let Some(name) = &tls.server_name
                && !value::is_host(name)
            {
                return Err(invalid(SNIHostName, name, "a host name or IP address"));
            }
            if !tls.client_names.is_empty()
                && (initiator || tls.client_auth != ClientAuth::Required)
            {
                return Err(missing(
                    CertificateVerifyLevel,
                    "ClientCertificateNames binds an acceptor's sessions to client certificates, which it must require (CertificateVerifyLevel=1 or NeedClientAuth=Y)",
                ));
            }
            Some(tls)
        } else {
            None
        };

        let use_dd = cx.use_data_dictionary;
        let have_values = self.validate_fields_have_values.unwrap_or(true);
        let mut session = SessionConfig::new(self.id.clone(), self.role);
        session.heart_bt_int = heart_bt_int;
        session.reset_on_logon = self.reset_on_logon.unwrap_or(false);
        session.reset_on_logout = self.reset_on_logout.unwrap_or(false);
        session.reset_on_disconnect = self.reset_on_disconnect.unwrap_or(false);
        session.send_reset_seq_num_flag = self.send_reset_seq_num_flag.unwrap_or(false);
        session.logon_timeout = logon_timeout;
        session.logout_timeout = logout_timeout;
        session.check_latency = cx.check_latency;
        session.max_latency = max_latency;
        session.check_comp_id = self.check_comp_id.unwrap_or(true);
        session.resend_request_chunk_size = self.resend_request_chunk_size.unwrap_or(0);
        session.validator = use_dd.then(|| {
            Validator::new()
                .validate_fields_out_of_order(self.validate_fields_out_of_order.unwrap_or(true))
                .validate_fields_have_values(have_values)
                .validate_user_defined_fields(self.validate_user_defined_fields.unwrap_or(true))
                .allow_unknown_msg_fields(self.allow_unknown_msg_fields.unwrap_or(false))
        });
        // Empty values are the validator's to reject (reason 4, with the
        // message parsed: its Reject is reverse-routed, as QuickFIX's is), so
        // the parser always lets them through; without the validator, or with
        // ValidateFieldsHaveValues=N, so does the session, as QuickFIX's does.
        session.parser = Parser::new().with_empty_values(true);
        session.default_appl_ver_id = self.default_appl_ver_id.clone();
        session.persist_messages = self.persist_messages.unwrap_or(true);

        let app = self
            .app_data_dictionaries
            .iter()
            .map(|(v, p)| (appl_ver_id_code(v).to_owned(), p.clone()))
            .collect();
        Ok(SessionSettings {
            session,
            acceptor_template: template,
            schedule,
            transport,
            tcp_nodelay: self.socket_nodelay.unwrap_or(true),
            tls,
            dictionaries: DictionaryPaths {
                data_dictionary: self.data_dictionary,
                transport: self.transport_data_dictionary,
                app,
            },
            store_path: self.file_store_path,
            store_options: FileOptions::new()
                .sync(self.file_store_sync.unwrap_or(SyncPolicy::EveryRecord)),
            log_path: self.file_log_path,
        })
    }

    /// `CertificateVerifyLevel`, or QuickFIX/J's `NeedClientAuth`, which must
    /// agree when both are given.
    fn client_auth(&self) -> Result<ClientAuth, ConfigError> {
        match (self.certificate_verify_level, self.need_client_auth) {
            (Some(level), Some(need)) if (level == ClientAuth::Required) != need => {
                Err(ConfigError::keyed(
                    Fixed::CertificateVerifyLevel.name(),
                    ErrorKind::NotApplicable {
                        reason: "NeedClientAuth, QuickFIX/J's name for it, says otherwise: give one of the two",
                    },
                ))
            }
            (Some(level), _) => Ok(level),
            (None, Some(true)) => Ok(ClientAuth::Required),
            (None, _) => Ok(ClientAuth::None),
        }
    }

    /// BeginString, CompIDs and qualifier: well formed, and `*` only in a template.
    fn check_id(&self, template: bool) -> Result<(), ConfigError> {
        let id = &self.id;
        let wildcard = |key: Fixed, v: &str| -> Result<bool, ConfigError> {
            if v != "*" {
                return Ok(false);
            }
            if template {
                Ok(true)
            } else {
                Err(ConfigError::keyed(key.name(), ErrorKind::Wildcard))
            }
        };
        if !wildcard(Fixed::BeginString, &id.begin_string)?
            && !BEGIN_STRINGS.contains(&id.begin_string.as_str())
        {
            return Err(invalid(Fixed::BeginString, &id.begin_string, BEGIN_STRING));
        }
        for (key, v) in [
            (Fixed::SenderCompID, &id.sender_comp_id),
            (Fixed::TargetCompID, &id.target_comp_id),
        ] {
            if !wildcard(key, v)? && !value::is_name(v) {
                return Err(invalid(key, v, COMP_ID));
            }
        }
        if let Some(q) = &id.qualifier
            && !value::is_name(q)
        {
            return Err(invalid(Fixed::SessionQualifier, q, COMP_ID));
        }
        Ok(())
    }
}

const COMP_ID: &str = "a name (not empty, no control characters, no spaces at its ends)";

fn invalid(key: Fixed, value: &str, expected: &'static str) -> ConfigError {
    ConfigError::keyed(
        key.name(),
        ErrorKind::InvalidValue {
            value: value.to_owned(),
            expected,
        },
    )
}

fn missing(key: impl std::fmt::Display, reason: &'static str) -> ConfigError {
    ConfigError::keyed(key.to_string(), ErrorKind::Missing { reason })
}
