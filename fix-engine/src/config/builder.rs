//! [`SessionBuilder`]: a session's settings from code, with the checks a
//! settings file gets; the file reader builds through it too. The builder
//! keeps each setting as a value under its row of the table (`keys.rs`): the
//! checks of which settings apply to which session, and the defaults, come
//! from the table; `build` reads the values into [`SessionSettings`].

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use fix_core::Parser;
use fix_core::validate::Validator;
use fix_core::value::Precision;
use fix_session::{
    FileOptions, OnError, Role, SessionConfig, SessionId, SubIds, SyncPolicy, appl_ver_id_code,
};

use super::error::{ConfigError, ErrorKind};
use super::keys::{Applies, Apply, Cond, Fixed, Key, Lookup, Support, lookup};
use super::value::{self, APPL_VER_ID, BEGIN_STRING, BEGIN_STRINGS, PORT, Value};
use super::{
    AcceptorTransport, ClientAuth, DictionaryPaths, Endpoint, InitiatorTransport, KeyPassword,
    PostgresStoreSettings, Schedule, SessionSettings, SocketOptions, Tls, Transport,
};
use crate::log::{FileLogOptions, ScreenLogOptions};

/// What decides whether a setting applies to a session.
pub(crate) struct Context {
    pub(crate) role: Role,
    /// FIXT.1.1; `None` for a template whose BeginString is `*`.
    pub(crate) fixt: Option<bool>,
    pub(crate) non_stop: bool,
    /// Non-stop for want of StartTime and EndTime, rather than by NonStopSession=Y.
    pub(crate) non_stop_implied: bool,
    pub(crate) use_data_dictionary: bool,
    pub(crate) ssl: bool,
    /// An acceptor that verifies client certificates (CertificateVerifyLevel 1
    /// or 2, or NeedClientAuth=Y).
    pub(crate) verifies_clients: bool,
    pub(crate) check_latency: bool,
    pub(crate) file_store: bool,
    pub(crate) file_log: bool,
}

/// Whether `key` applies to a session in `cx`, and why not: its row's role,
/// then its conditions, in order.
pub(crate) fn applies(key: &Key, cx: &Context) -> Result<(), &'static str> {
    let Some(fixed) = key.fixed() else {
        return Ok(());
    };
    let info = fixed.info();
    let initiator = cx.role == Role::Initiator;
    match info.applies {
        Applies::Acceptor if initiator => return Err("only an acceptor uses it"),
        Applies::Initiator if !initiator => return Err("only an initiator uses it"),
        _ => {}
    }
    for &cond in info.when {
        let ok = match cond {
            Cond::Ssl => cx.ssl,
            Cond::InitiatorOrVerifiesClients => initiator || cx.verifies_clients,
            Cond::Fixt => cx.fixt != Some(false),
            Cond::NotFixt => cx.fixt != Some(true),
            Cond::UseDataDictionary => cx.use_data_dictionary,
            Cond::NotNonStop => !cx.non_stop,
            Cond::CheckLatency => cx.check_latency,
            Cond::FileStore => cx.file_store,
            Cond::FileLog => cx.file_log,
            Cond::InitiatorSession => initiator,
        };
        if !ok {
            return Err(if cond == Cond::NotNonStop && cx.non_stop_implied {
                "not used by a non-stop session (one without StartTime and EndTime)"
            } else {
                cond.reason()
            });
        }
    }
    Ok(())
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
    /// Every setting given, by its row.
    values: BTreeMap<Fixed, Value>,
    schedule: Option<Schedule>,
    endpoints: Vec<Endpoint>,
    app_data_dictionaries: Vec<(String, PathBuf)>,
    /// `LogonTag`, `LogonTag1`, …: (tag, value) in order.
    logon_fields: Vec<(u32, String)>,
    /// Every key as written and its value, for [`SessionSettings::get`].
    raw: Vec<(String, String)>,
    /// A problem found when a setting was given, told by `build`.
    pending: Option<ConfigError>,
}

macro_rules! setters {
    ($($(#[$doc:meta])* $name:ident($value:ident: $ty:ty) => $key:ident = $make:expr;)*) => {
        $(
            $(#[$doc])*
            pub fn $name(self, $value: $ty) -> Self {
                self.with(Fixed::$key, $make)
            }
        )*
    };
}

impl SessionBuilder {
    fn new(id: SessionId, role: Role) -> SessionBuilder {
        SessionBuilder {
            id,
            role,
            values: BTreeMap::new(),
            schedule: None,
            endpoints: Vec::new(),
            app_data_dictionaries: Vec::new(),
            logon_fields: Vec::new(),
            raw: Vec::new(),
            pending: None,
        }
    }

    /// The builder with setting `key` set to `value`, which must be of the
    /// type of `key`'s row (another is told by `build`, never read as the
    /// default): so the getters below meet only values of their key's type.
    pub(crate) fn with(mut self, key: Fixed, value: Value) -> Self {
        let ty = key.info().value;
        if !value.fits(ty) {
            if self.pending.is_none() {
                self.pending = Some(ConfigError::keyed(
                    key.name(),
                    ErrorKind::InvalidValue {
                        value: format!("{value:?}"),
                        expected: ty.text(),
                    },
                ));
            }
            return self;
        }
        self.values.insert(key, value);
        self
    }

    /// The value given for `key`, read by `as_t` (a [`Value`] method for the
    /// type of `key`'s row). `with` keeps only values of that type, so
    /// another is a bug in the engine, and a panic rather than a default.
    fn given<'a, T>(&'a self, key: Fixed, as_t: fn(&'a Value) -> Option<T>) -> Option<T> {
        let v = self.values.get(&key)?;
        Some(as_t(v).unwrap_or_else(|| panic!("{key} holds {v:?}, not {}", key.info().value)))
    }

    /// The value given for `key`, else its row's default (which the table's
    /// own test parses), read by `as_t`; `None` when neither is.
    fn given_or_default<T>(&self, key: Fixed, as_t: fn(&Value) -> Option<T>) -> Option<T> {
        if self.values.contains_key(&key) {
            return self.given(key, as_t);
        }
        let info = key.info();
        let default = value::parse(info.value, info.default?)
            .unwrap_or_else(|e| panic!("{key}'s default in the table: {e}"));
        Some(
            as_t(&default)
                .unwrap_or_else(|| panic!("{key}'s default {default:?} is not {}", info.value)),
        )
    }

    /// The builder keeping `key=value` as written in a file, for
    /// [`SessionSettings::get`].
    pub(crate) fn with_raw(mut self, raw: Vec<(String, String)>) -> Self {
        self.raw = raw;
        self
    }

    /// The acceptor's key or the initiator's, by the session's role.
    fn by_role(&self, acceptor: Fixed, initiator: Fixed) -> Fixed {
        match self.role {
            Role::Acceptor => acceptor,
            Role::Initiator => initiator,
        }
    }

    /// A setting as a settings file's line gives it: a key that sets one
    /// field of the session's config (`SendLogoutBeforeDisconnectFromTimeout`,
    /// `ResetOnLogon`, ...; docs/settings.md's "sets" column names the
    /// field), read and checked as a file's value is; or an application's
    /// own setting (QuickFIX's `SessionSettings` holds any key), readable
    /// with [`SessionSettings::get`], which the engine does not read. A
    /// value of the wrong type, another key of the engine's (give it through
    /// its method instead, or, for one the engine does not apply, why) or a
    /// slip from one is an error from [`build`](Self::build).
    ///
    /// ```
    /// # use fix_engine::config::SessionBuilder;
    /// let s = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_port(5001)
    ///     .set("Username", "trader1")
    ///     .build()?;
    /// assert_eq!(s.get("username"), Some("trader1"));
    /// let err = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_port(5001)
    ///     .set("CheakLatency", "N")
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "CheakLatency: did you mean CheckLatency?");
    /// // A key that sets one field of the session's config, as a file's line:
    /// let s = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_port(5001)
    ///     .set("SendLogoutBeforeDisconnectFromTimeout", "Y")
    ///     .build()?;
    /// assert!(s.session.send_logout_before_timeout_disconnect);
    /// let err = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_port(5001)
    ///     .set("ResetOnLogon", "maybe")
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(err.key(), Some("ResetOnLogon"));
    /// // Other keys of the engine's have their own methods.
    /// let err = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
    ///     .socket_accept_port(5001)
    ///     .set("SocketNodelay", "Y")
    ///     .build()
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "SocketNodelay: a setting of the engine: give it through its SessionBuilder method");
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn set(mut self, key: impl Into<String>, value: impl Into<String>) -> Self {
        let key = key.into();
        let value = value.into();
        // A key that sets one field of the session's config is read here as
        // a file's line is: its row is all it needs, no setter of its own.
        if let Lookup::Known(Key::Fixed(fixed)) = lookup(&key)
            && fixed.info().apply.is_some()
        {
            return match super::value::parse(fixed.info().value, &value) {
                Ok(parsed) => self.with(fixed, parsed),
                Err(kind) => {
                    self.pending.get_or_insert(ConfigError::keyed(key, kind));
                    self
                }
            };
        }
        let problem = match lookup(&key) {
            Lookup::Unknown => None,
            Lookup::Misspelt(suggestion) => Some(ErrorKind::Misspelt { suggestion }),
            Lookup::Known(known) => Some(match known.fixed().map(|k| k.info().support) {
                Some(
                    Support::Always { note, .. }
                    | Support::Ignored(note)
                    | Support::NotApplied(note)
                    | Support::Refused(note),
                ) => ErrorKind::Unsupported { reason: note },
                Some(Support::DatabaseStore) => ErrorKind::Unsupported {
                    reason: "this database store cannot be used: the stores are the file store, PostgreSQL and memory",
                },
                _ => ErrorKind::NotApplicable {
                    reason: "a setting of the engine: give it through its SessionBuilder method",
                },
            }),
            Lookup::BadFamily(_) => Some(ErrorKind::UnknownKey),
        };
        if let Some(kind) = problem {
            if self.pending.is_none() {
                self.pending = Some(ConfigError::keyed(key, kind));
            }
            return self;
        }
        self.raw.retain(|(k, _)| !k.eq_ignore_ascii_case(&key));
        self.raw.push((key, value));
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

    /// QuickFIX/J's `LogonTag` (then `LogonTag1`, … when called again): a body
    /// field added to every Logon the session sends, before the application's
    /// own (`to_admin`). A header or trailer field, or an empty value, is an
    /// error from [`build`](Self::build).
    ///
    /// ```
    /// # use fix_engine::config::SessionBuilder;
    /// let s = SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC"))
    ///     .heart_bt_int(30)
    ///     .socket_connect("localhost", 5001)
    ///     .logon_tag(553, "user")
    ///     .build()?;
    /// assert_eq!(s.logon_fields, [(553, "user".to_owned())]);
    /// # Ok::<(), fix_engine::config::ConfigError>(())
    /// ```
    pub fn logon_tag(mut self, tag: u32, value: impl Into<String>) -> Self {
        self.logon_fields.push((tag, value.into()));
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
        acceptor_template(value: bool) => AcceptorTemplate = Value::Bool(value);
        /// `HeartBtInt`, in seconds (initiator only, required, above 0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).heart_bt_int(30);
        /// # let _ = b;
        /// ```
        heart_bt_int(value: u32) => HeartBtInt = Value::Secs(Duration::from_secs(u64::from(value)));
        /// `SocketAcceptPort` (acceptor only, required). 0 is a port the
        /// system picks when the engine starts, which
        /// [`Engine::local_addrs`](crate::Engine::local_addrs) tells: bound
        /// once, and shared by every session on port 0 as any port's
        /// listener is (their address and socket settings the same). A test
        /// listens on port 0 and points its initiator at the port the engine
        /// bound, rather than picking a free port that another socket could
        /// take before the engine binds it.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_accept_port(5001);
        /// # let _ = b;
        /// ```
        socket_accept_port(value: u16) => SocketAcceptPort = Value::Port(value);
        /// `SocketAcceptAddress` (QuickFIX/J; acceptor only): the local address
        /// to listen on, rather than every interface.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_accept_address("127.0.0.1");
        /// # let _ = b;
        /// ```
        socket_accept_address(value: impl Into<String>) => SocketAcceptAddress = Value::Text(value.into());
        /// `ReconnectInterval` (initiator only; default 30 s; 0 is QuickFIX
        /// C++'s "at the next second", see
        /// [`InitiatorTransport::reconnect_pause`](super::InitiatorTransport::reconnect_pause)).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).reconnect_interval(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        reconnect_interval(value: Duration) => ReconnectInterval = Value::Secs(value);
        /// `LogonTimeout` (default 10 s, above 0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).logon_timeout(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        logon_timeout(value: Duration) => LogonTimeout = Value::Secs(value);
        /// `LogoutTimeout` (default 2 s, above 0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).logout_timeout(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        logout_timeout(value: Duration) => LogoutTimeout = Value::Secs(value);
        /// `SocketNodelay` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_nodelay(false);
        /// # let _ = b;
        /// ```
        socket_nodelay(value: bool) => SocketNodelay = Value::Bool(value);
        /// `ResetOnLogon` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).reset_on_logon(true);
        /// # let _ = b;
        /// ```
        reset_on_logon(value: bool) => ResetOnLogon = Value::Bool(value);
        /// `ResetOnLogout` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).reset_on_logout(true);
        /// # let _ = b;
        /// ```
        reset_on_logout(value: bool) => ResetOnLogout = Value::Bool(value);
        /// `ResetOnDisconnect` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).reset_on_disconnect(true);
        /// # let _ = b;
        /// ```
        reset_on_disconnect(value: bool) => ResetOnDisconnect = Value::Bool(value);
        /// `SendResetSeqNumFlag` (initiator only; default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).send_reset_seq_num_flag(true);
        /// # let _ = b;
        /// ```
        send_reset_seq_num_flag(value: bool) => SendResetSeqNumFlag = Value::Bool(value);
        /// `UseDataDictionary` (default on): off, received messages are not
        /// validated (and may hold empty values).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).use_data_dictionary(false);
        /// # let _ = b;
        /// ```
        use_data_dictionary(value: bool) => UseDataDictionary = Value::Bool(value);
        /// `DataDictionary` (FIX.4.x).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).data_dictionary("spec/FIX44.xml");
        /// # let _ = b;
        /// ```
        data_dictionary(value: impl Into<PathBuf>) => DataDictionary = Value::Path(value.into());
        /// `TransportDataDictionary` (FIXT.1.1).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIXT.1.1", "EXEC", "C1")).transport_data_dictionary("spec/FIXT11.xml");
        /// # let _ = b;
        /// ```
        transport_data_dictionary(value: impl Into<PathBuf>) => TransportDataDictionary = Value::Path(value.into());
        /// `ValidateFieldsOutOfOrder` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).validate_fields_out_of_order(false);
        /// # let _ = b;
        /// ```
        validate_fields_out_of_order(value: bool) => ValidateFieldsOutOfOrder = Value::Bool(value);
        /// `ValidateFieldsHaveValues` (default on): off, empty values are
        /// accepted by the parser and the validator.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).validate_fields_have_values(false);
        /// # let _ = b;
        /// ```
        validate_fields_have_values(value: bool) => ValidateFieldsHaveValues = Value::Bool(value);
        /// `ValidateUserDefinedFields` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).validate_user_defined_fields(false);
        /// # let _ = b;
        /// ```
        validate_user_defined_fields(value: bool) => ValidateUserDefinedFields = Value::Bool(value);
        /// `AllowUnknownMsgFields` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).allow_unknown_msg_fields(true);
        /// # let _ = b;
        /// ```
        allow_unknown_msg_fields(value: bool) => AllowUnknownMsgFields = Value::Bool(value);
        /// `CheckCompID` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).check_comp_id(false);
        /// # let _ = b;
        /// ```
        check_comp_id(value: bool) => CheckCompID = Value::Bool(value);
        /// `CheckLatency` (default on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).check_latency(false);
        /// # let _ = b;
        /// ```
        check_latency(value: bool) => CheckLatency = Value::Bool(value);
        /// `MaxLatency` (default 120 s, above 0; with `CheckLatency` on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).max_latency(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        max_latency(value: Duration) => MaxLatency = Value::Secs(value);
        /// `ResendRequestChunkSize` (default 0: one ResendRequest for the whole gap).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).resend_request_chunk_size(500);
        /// # let _ = b;
        /// ```
        resend_request_chunk_size(value: u64) => ResendRequestChunkSize = Value::Count(value);
        /// `PersistMessages` (default on): off, resends are all gap fills.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).persist_messages(false);
        /// # let _ = b;
        /// ```
        persist_messages(value: bool) => PersistMessages = Value::Bool(value);
        /// `DefaultApplVerID` (FIXT.1.1, required there): a code or a version name.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIXT.1.1", "EXEC", "C1")).default_appl_ver_id("9");
        /// # let _ = b;
        /// ```
        default_appl_ver_id(value: impl Into<String>) => DefaultApplVerID = Value::Text(value.into());
        /// `FileStorePath`: the file store's directory (no file store without it).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_store_path("store");
        /// # let _ = b;
        /// ```
        file_store_path(value: impl Into<PathBuf>) => FileStorePath = Value::Path(value.into());
        /// `FileStoreSync` as the file store's policy (with `FileStorePath`;
        /// default [`SyncPolicy::EveryRecord`], which is `FileStoreSync=Y`;
        /// `N` is [`SyncPolicy::Os`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_store_sync(fix_session::SyncPolicy::Os);
        /// # let _ = b;
        /// ```
        file_store_sync(value: SyncPolicy) => FileStoreSync = Value::Sync(value);
        /// `FileStoreShared`: with `FileStoreSync=Y`, the session's store in
        /// the engine's shared log of its `FileStorePath` (the default), or
        /// a log of its own (`false`).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_store_shared(false);
        /// # let _ = b;
        /// ```
        file_store_shared(value: bool) => FileStoreShared = Value::Bool(value);
        /// `FileLogPath`: the message log's directory (no log without it).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_log_path("log");
        /// # let _ = b;
        /// ```
        file_log_path(value: impl Into<PathBuf>) => FileLogPath = Value::Path(value.into());
        /// `PostgreSQLStoreConnection`: the session's store in PostgreSQL,
        /// reached through this libpq connection string, fenced by a lease.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).postgres_store("host=/run/pg user=fix dbname=fix");
        /// # let _ = b;
        /// ```
        postgres_store(value: impl Into<String>) => PostgreSQLStoreConnection = Value::Text(value.into());
        /// `PostgreSQLStoreLease` (default 10 s): how long the session's lease
        /// lasts unrenewed; another engine takes the session over this long
        /// after this one stops.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).postgres_store_lease(std::time::Duration::from_secs(3));
        /// # let _ = b;
        /// ```
        postgres_store_lease(value: Duration) => PostgreSQLStoreLease = Value::Secs(value);
        /// `PostgreSQLStoreNode`: this engine's name in the leases (default:
        /// the host name and process ID).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).postgres_store_node("engine-a");
        /// # let _ = b;
        /// ```
        postgres_store_node(value: impl Into<String>) => PostgreSQLStoreNode = Value::Text(value.into());
        /// `PostgreSQLStoreMaxSessions` (0, the default: no limit): the most
        /// sessions this engine holds in the PostgreSQL store; the others are
        /// left to other engines, which take them over when this one stops.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).postgres_store_max_sessions(2);
        /// # let _ = b;
        /// ```
        postgres_store_max_sessions(value: u64) => PostgreSQLStoreMaxSessions = Value::Count(value);
        /// `SocketUseSSL` (default off).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_use_ssl(true);
        /// # let _ = b;
        /// ```
        socket_use_ssl(value: bool) => SocketUseSSL = Value::Bool(value);
        /// `CertificationAuthoritiesFile`, PEM: the certificate authorities the
        /// peer's certificate is checked against (required for an initiator;
        /// an acceptor's, with client verification on).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).ca_file("ca.crt");
        /// # let _ = b;
        /// ```
        ca_file(value: impl Into<PathBuf>) => CertificationAuthoritiesFile = Value::Path(value.into());
        /// `CertificateVerifyLevel` (acceptor only, default
        /// [`ClientAuth::None`]; any other needs `CertificationAuthoritiesFile`).
        ///
        /// ```
        /// use fix_engine::config::ClientAuth;
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).certificate_verify_level(ClientAuth::Required);
        /// # let _ = b;
        /// ```
        certificate_verify_level(value: ClientAuth) => CertificateVerifyLevel = Value::Auth(value);
        /// `NeedClientAuth` (QuickFIX/J; acceptor only, default off): on is
        /// `CertificateVerifyLevel=1`.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).need_client_auth(true);
        /// # let _ = b;
        /// ```
        need_client_auth(value: bool) => NeedClientAuth = Value::Bool(value);
        /// `SNIHostName` (QuickFIX/J; initiator only): the name the acceptor's
        /// certificate must hold, sent as SNI, instead of `SocketConnectHost`.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).sni_host_name("fix.example.com");
        /// # let _ = b;
        /// ```
        sni_host_name(value: impl Into<String>) => SNIHostName = Value::Text(value.into());
        /// `ClientCertificateNames` (acceptor, with client certificates
        /// required): the names, comma-separated, one of which a client's
        /// certificate must hold for this session (see [`Tls::client_names`]);
        /// `{TargetCompID}` stands for the session's TargetCompID.
        ///
        /// ```
        /// use fix_engine::config::{ClientAuth, SessionBuilder};
        /// let b = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "*"))
        ///     .certificate_verify_level(ClientAuth::Required)
        ///     .client_certificate_names("{TargetCompID},{TargetCompID}.clients.example");
        /// # let _ = b;
        /// ```
        client_certificate_names(value: impl Into<String>) => ClientCertificateNames = Value::Text(value.into());
        /// `SSLValidateCertificates` (QuickFIX/n; default on): off, the peer's
        /// certificate is not checked (see [`Tls::verify_certificates`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).socket_use_ssl(true).ssl_validate_certificates(false);
        /// # let _ = b;
        /// ```
        ssl_validate_certificates(value: bool) => SSLValidateCertificates = Value::Bool(value);
        /// `SSLCertificatePassword` (QuickFIX/n): the password of an encrypted
        /// PKCS#8 private key or of a PKCS#12 file (see [`Tls::key_password`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).private_key("server.key").ssl_certificate_password("s3cret");
        /// # let _ = b;
        /// ```
        ssl_certificate_password(value: impl Into<String>) => SSLCertificatePassword = Value::Text(value.into());
        /// `SocketKeyStore` (QuickFIX/J): a PKCS#12 key store holding this
        /// side's certificate chain and private key, in place of the PEM files
        /// (see [`Tls::key_store`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_key_store("executor.p12").socket_key_store_password("s3cret");
        /// # let _ = b;
        /// ```
        socket_key_store(value: impl Into<PathBuf>) => SocketKeyStore = Value::Path(value.into());
        /// `SocketKeyStorePassword` (QuickFIX/J): the key store's password
        /// (see [`Tls::key_store_password`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_key_store_password("s3cret");
        /// # let _ = b;
        /// ```
        socket_key_store_password(value: impl Into<String>) => SocketKeyStorePassword = Value::Text(value.into());
        /// `SocketTrustStore` (QuickFIX/J): a PKCS#12 trust store whose
        /// certificates are the authorities the peer's is checked against, in
        /// place of `CertificationAuthoritiesFile` (see [`Tls::trust_store`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).socket_trust_store("truststore.p12");
        /// # let _ = b;
        /// ```
        socket_trust_store(value: impl Into<PathBuf>) => SocketTrustStore = Value::Path(value.into());
        /// `SocketTrustStorePassword` (QuickFIX/J): the trust store's password
        /// (see [`Tls::trust_store_password`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).socket_trust_store_password("changeit");
        /// # let _ = b;
        /// ```
        socket_trust_store_password(value: impl Into<String>) => SocketTrustStorePassword = Value::Text(value.into());
        /// `SocketInsecureSkipVerify` (QuickFIX/Go; initiator only; default
        /// off): on, the acceptor's certificate is not checked (see
        /// [`Tls::verify_certificates`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).socket_use_ssl(true).socket_insecure_skip_verify(true);
        /// # let _ = b;
        /// ```
        socket_insecure_skip_verify(value: bool) => SocketInsecureSkipVerify = Value::Bool(value);
        /// `SocketReuseAddress` (acceptor only; default on): the listener binds
        /// with `SO_REUSEADDR`, so that a restarted engine need not wait for the
        /// old connections' sockets to time out.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_reuse_address(false);
        /// # let _ = b;
        /// ```
        socket_reuse_address(value: bool) => SocketReuseAddress = Value::Bool(value);
        /// `FileIncludeMilliseconds` (QuickFIX/J; with `FileLogPath`; default
        /// on): off, the log's timestamps are whole seconds.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_log_path("log").file_include_milliseconds(false);
        /// # let _ = b;
        /// ```
        file_include_milliseconds(value: bool) => FileIncludeMilliseconds = Value::Bool(value);
        /// `SocketSendBufferSize`: `SO_SNDBUF` of the session's sockets, in bytes.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_send_buffer_size(1 << 20);
        /// # let _ = b;
        /// ```
        socket_send_buffer_size(value: u32) => SocketSendBufferSize = Value::Count(u64::from(value));
        /// `SocketReceiveBufferSize`: `SO_RCVBUF` of the session's sockets, in bytes.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_receive_buffer_size(1 << 20);
        /// # let _ = b;
        /// ```
        socket_receive_buffer_size(value: u32) => SocketReceiveBufferSize = Value::Count(u64::from(value));
        /// `SocketKeepAlive` (QuickFIX/J): `SO_KEEPALIVE` on or off (not
        /// given: the engine's default).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).socket_keepalive(true);
        /// # let _ = b;
        /// ```
        socket_keepalive(value: bool) => SocketKeepAlive = Value::Bool(value);
        /// `SocketConnectSourceHost` (initiator only): the local address to connect from.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).socket_connect_source_host("10.0.0.5");
        /// # let _ = b;
        /// ```
        socket_connect_source_host(value: impl Into<String>) => SocketConnectSourceHost = Value::Text(value.into());
        /// `SocketConnectSourcePort` (initiator only): the local port to connect from.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).socket_connect_source_port(40000);
        /// # let _ = b;
        /// ```
        socket_connect_source_port(value: u16) => SocketConnectSourcePort = Value::Port(value);
        /// `AllowedRemoteAddresses` (QuickFIX/J; acceptor only): the addresses
        /// (IP addresses or host names, comma-separated) the session takes
        /// connections from; a connection from another is refused at its Logon.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).allowed_remote_addresses("127.0.0.1, 10.0.0.7");
        /// # let _ = b;
        /// ```
        allowed_remote_addresses(value: impl Into<String>) => AllowedRemoteAddresses = Value::Text(value.into());
        /// `ValidateChecksum` (QuickFIX/J; default on): off, a received
        /// message's CheckSum need not be its byte sum (still three digits),
        /// for a counterparty that gets it wrong.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).validate_checksum(false);
        /// # let _ = b;
        /// ```
        validate_checksum(value: bool) => ValidateChecksum = Value::Bool(value);
        /// `SocketConnectTimeout` (QuickFIX/J; initiator only): how long a
        /// connection attempt, TCP and TLS handshake, may take (zero: the
        /// engine's `EngineOptions::connect_timeout`, the default).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).socket_connect_timeout(std::time::Duration::from_secs(5));
        /// # let _ = b;
        /// ```
        socket_connect_timeout(value: Duration) => SocketConnectTimeout = Value::Secs(value);
        /// `QueuedMessageMaxAge`: how long a message queued by
        /// [`SessionHandle::send`](crate::SessionHandle::send) may wait (the
        /// session down or behind) before it is dropped unsent, with
        /// [`NotSent::TooOld`](crate::NotSent::TooOld) for a tracked send;
        /// zero is no limit. Not given: [`EngineOptions::max_queued_age`](crate::EngineOptions::max_queued_age).
        ///
        /// ```
        /// use std::time::Duration;
        /// let s = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC"))
        ///     .heart_bt_int(30)
        ///     .socket_connect("127.0.0.1", 5001)
        ///     .queued_message_max_age(Duration::from_secs(5))
        ///     .build()?;
        /// assert_eq!(s.max_queued_age, fix_engine::config::QueuedAge::Within(Duration::from_secs(5)));
        /// # Ok::<(), fix_engine::config::ConfigError>(())
        /// ```
        queued_message_max_age(value: Duration) => QueuedMessageMaxAge = Value::Secs(value);
        /// `QueuedWhileDown`: what becomes of the messages still queued when a
        /// connection ends, waiting for the next Logon or dropped
        /// ([`NotSent::Disconnected`](crate::NotSent::Disconnected)). Not
        /// given: [`EngineOptions::queued_while_down`](crate::EngineOptions::queued_while_down).
        ///
        /// ```
        /// use fix_engine::QueuedWhileDown;
        /// let s = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC"))
        ///     .heart_bt_int(30)
        ///     .socket_connect("127.0.0.1", 5001)
        ///     .queued_while_down(QueuedWhileDown::Drop)
        ///     .build()?;
        /// assert_eq!(s.queued_while_down, Some(QueuedWhileDown::Drop));
        /// # Ok::<(), fix_engine::config::ConfigError>(())
        /// ```
        queued_while_down(value: crate::QueuedWhileDown) => QueuedWhileDown = Value::Queued(value);
        /// `CertificateRevocationListFile`: revocation lists (PEM, a file or a
        /// directory of files) the peer's certificate is checked against (an
        /// initiator's, or an acceptor's that verifies clients; with TLS).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).revocation_lists("crl.pem");
        /// # let _ = b;
        /// ```
        revocation_lists(value: impl Into<PathBuf>) => CertificateRevocationListFile = Value::Path(value.into());
        /// `FileLogHeartbeats` (QuickFIX/J; with `FileLogPath`; default on):
        /// off, the message log leaves Heartbeats out.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).file_log_path("log").file_log_heartbeats(false);
        /// # let _ = b;
        /// ```
        file_log_heartbeats(value: bool) => FileLogHeartbeats = Value::Bool(value);
        /// `SenderSubID`: SenderSubID (50) on every message the session sends.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).sender_sub_id("DESK1");
        /// # let _ = b;
        /// ```
        sender_sub_id(value: impl Into<String>) => SenderSubID = Value::Text(value.into());
        /// `SenderLocationID`: SenderLocationID (142) on every message the
        /// session sends (not FIX.4.0, which has no such field).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).sender_location_id("LDN");
        /// # let _ = b;
        /// ```
        sender_location_id(value: impl Into<String>) => SenderLocationID = Value::Text(value.into());
        /// `TargetSubID`: TargetSubID (57) on every message the session sends.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).target_sub_id("ADMIN");
        /// # let _ = b;
        /// ```
        target_sub_id(value: impl Into<String>) => TargetSubID = Value::Text(value.into());
        /// `TargetLocationID`: TargetLocationID (143) on every message the
        /// session sends (not FIX.4.0).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).target_location_id("NYC");
        /// # let _ = b;
        /// ```
        target_location_id(value: impl Into<String>) => TargetLocationID = Value::Text(value.into());
        /// `TimeStampPrecision` (default [`Precision::Millis`]): SendingTime's
        /// digits of a second (whole seconds before FIX.4.2 whatever it says).
        ///
        /// ```
        /// use fix_core::value::Precision;
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).timestamp_precision(Precision::Micros);
        /// # let _ = b;
        /// ```
        timestamp_precision(value: Precision) => TimeStampPrecision = Value::Precision(value);
        /// `MillisecondsInTimeStamp` (QuickFIX C++; default on): off is
        /// SendingTime in whole seconds; `TimeStampPrecision` wins over it.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).milliseconds_in_timestamp(false);
        /// # let _ = b;
        /// ```
        milliseconds_in_timestamp(value: bool) => MillisecondsInTimeStamp = Value::Bool(value);
        /// `SendRedundantResendRequests` (default off): on, every message
        /// past a gap asks for a resend, even while one is pending.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).send_redundant_resend_requests(true);
        /// # let _ = b;
        /// ```
        send_redundant_resend_requests(value: bool) => SendRedundantResendRequests = Value::Bool(value);
        /// `MaxMessagesPerSecond` (this engine's; default 0, no limit): the
        /// most application messages the session sends in any second; see
        /// [`SessionConfig::max_app_messages_per_sec`](fix_session::SessionConfig::max_app_messages_per_sec).
        /// Those over it wait in the handles' queue, in order.
        ///
        /// ```
        /// use fix_session::SessionId;
        /// let s = fix_engine::config::SessionBuilder::initiator(SessionId::new("FIX.4.4", "C1", "EXEC"))
        ///     .socket_connect("127.0.0.1", 5001)
        ///     .heart_bt_int(30)
        ///     .schedule(fix_engine::config::Schedule::non_stop())
        ///     .max_messages_per_second(10)
        ///     .build()?;
        /// assert_eq!(s.session.max_app_messages_per_sec, std::num::NonZeroU32::new(10));
        /// # Ok::<(), fix_engine::config::ConfigError>(())
        /// ```
        max_messages_per_second(value: u32) => MaxMessagesPerSecond = Value::Count(u64::from(value));
        /// `ResetOnError` (QuickFIX/J; default off): see [`OnError::Reset`].
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).reset_on_error(true);
        /// # let _ = b;
        /// ```
        reset_on_error(value: bool) => ResetOnError = Value::Bool(value);
        /// `DisconnectOnError` (QuickFIX/J; default off): see
        /// [`OnError::Disconnect`]; `ResetOnError` wins when both are on.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).disconnect_on_error(true);
        /// # let _ = b;
        /// ```
        disconnect_on_error(value: bool) => DisconnectOnError = Value::Bool(value);
        /// `RefreshOnLogon` (default off): the store is read again before each
        /// Logon, and a file store is opened as a standby
        /// ([`FileOptions::standby`]), beside another engine's, taking it over
        /// at the Logon once the other has let it go.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).refresh_on_logon(true);
        /// # let _ = b;
        /// ```
        refresh_on_logon(value: bool) => RefreshOnLogon = Value::Bool(value);
        /// `ScreenLogShowIncoming`: a screen log, printing received messages
        /// or not (see [`SessionSettings::screen_log`]).
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).screen_log_show_incoming(true);
        /// # let _ = b;
        /// ```
        screen_log_show_incoming(value: bool) => ScreenLogShowIncoming = Value::Bool(value);
        /// `ScreenLogShowOutgoing`: a screen log, printing sent messages or not.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).screen_log_show_outgoing(true);
        /// # let _ = b;
        /// ```
        screen_log_show_outgoing(value: bool) => ScreenLogShowOutgoing = Value::Bool(value);
        /// `ScreenLogShowEvents`: a screen log, printing events or not.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).screen_log_show_events(false);
        /// # let _ = b;
        /// ```
        screen_log_show_events(value: bool) => ScreenLogShowEvents = Value::Bool(value);
        /// `ScreenLogShowHeartBeats` (QuickFIX/J): a screen log, printing
        /// Heartbeats or not.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).screen_log_show_heartbeats(false);
        /// # let _ = b;
        /// ```
        screen_log_show_heartbeats(value: bool) => ScreenLogShowHeartBeats = Value::Bool(value);
        /// `ScreenIncludeMilliseconds` (QuickFIX/J): a screen log, its times
        /// with milliseconds or in whole seconds.
        ///
        /// ```
        /// let b = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new("FIX.4.4", "C1", "EXEC")).screen_include_milliseconds(true);
        /// # let _ = b;
        /// ```
        screen_include_milliseconds(value: bool) => ScreenIncludeMilliseconds = Value::Bool(value);
    }

    /// `StartTime`, `EndTime`, `StartDay`, `EndDay`, `Weekdays`,
    /// `NonStopSession`, `TimeZone` and `UseLocalTime`, as one value (default: non-stop, as
    /// a settings file without StartTime and EndTime).
    ///
    /// ```
    /// # use fix_engine::config::{Schedule, SessionBuilder};
    /// let b = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).schedule(Schedule::non_stop());
    /// # let _ = b;
    /// ```
    pub fn schedule(mut self, value: Schedule) -> Self {
        self.schedule = Some(value);
        self
    }

    /// Our certificate chain, PEM, our own certificate first:
    /// `ServerCertificateFile` for an acceptor (required with TLS),
    /// `ClientCertificateFile` for an initiator (optional: a client
    /// certificate, for an acceptor that asks for one).
    ///
    /// ```
    /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).certificate("server.crt");
    /// # let _ = b;
    /// ```
    pub fn certificate(self, value: impl Into<PathBuf>) -> Self {
        let key = self.by_role(Fixed::ServerCertificateFile, Fixed::ClientCertificateFile);
        self.with(key, Value::Path(value.into()))
    }

    /// Its private key, PEM: `ServerCertificateKeyFile` or
    /// `ClientCertificateKeyFile`; without it, the key is read from the
    /// certificate's file.
    ///
    /// ```
    /// let b = fix_engine::config::SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1")).private_key("server.key");
    /// # let _ = b;
    /// ```
    pub fn private_key(self, value: impl Into<PathBuf>) -> Self {
        let key = self.by_role(
            Fixed::ServerCertificateKeyFile,
            Fixed::ClientCertificateKeyFile,
        );
        self.with(key, Value::Path(value.into()))
    }

    fn context(&self) -> Context {
        Context {
            role: self.role,
            fixt: (self.id.begin_string != "*").then(|| self.id.begin_string == "FIXT.1.1"),
            non_stop: self.schedule.as_ref().is_none_or(Schedule::is_non_stop),
            non_stop_implied: self.schedule.is_none(),
            use_data_dictionary: self.flag(Fixed::UseDataDictionary),
            ssl: self.flag(Fixed::SocketUseSSL),
            verifies_clients: self.client_auth() != Ok(ClientAuth::None),
            check_latency: self.flag(Fixed::CheckLatency),
            file_store: self.values.contains_key(&Fixed::FileStorePath),
            file_log: self.values.contains_key(&Fixed::FileLogPath),
        }
    }

    /// A Y/N setting, or its default from the table (N without one).
    fn flag(&self, key: Fixed) -> bool {
        self.given_or_default(key, Value::as_bool).unwrap_or(false)
    }

    /// A Y/N setting, or `default` when it is not given.
    fn flag_or(&self, key: Fixed, default: bool) -> bool {
        self.given(key, Value::as_bool).unwrap_or(default)
    }

    /// SenderSubID, SenderLocationID, TargetSubID and TargetLocationID, each
    /// a name, the location IDs not on FIX.4.0 (which has no 142 or 143).
    fn sub_ids(&self) -> Result<SubIds, ConfigError> {
        use Fixed::*;
        let mut ids = SubIds::default();
        for (key, slot) in [
            (SenderSubID, &mut ids.sender_sub_id),
            (SenderLocationID, &mut ids.sender_location_id),
            (TargetSubID, &mut ids.target_sub_id),
            (TargetLocationID, &mut ids.target_location_id),
        ] {
            let Some(v) = self.text(key) else {
                continue;
            };
            if !value::is_name(v) {
                return Err(invalid(key, v, COMP_ID));
            }
            if self.id.begin_string == "FIX.4.0"
                && matches!(key, SenderLocationID | TargetLocationID)
            {
                return Err(ConfigError::keyed(
                    key.name(),
                    ErrorKind::NotApplicable {
                        reason: "FIX.4.0 has no location IDs (142, 143): FIX.4.1 brought them",
                    },
                ));
            }
            *slot = Some(v.to_owned());
        }
        Ok(ids)
    }

    /// The screen log's options when any of its settings is given: the
    /// `ScreenLogShow*` not given are on, as QuickFIX/J's `ScreenLogFactory`
    /// reads them, and times are whole seconds unless
    /// `ScreenIncludeMilliseconds=Y`.
    fn screen_log(&self) -> Option<ScreenLogOptions> {
        use Fixed::*;
        let keys = [
            ScreenLogShowIncoming,
            ScreenLogShowOutgoing,
            ScreenLogShowEvents,
            ScreenLogShowHeartBeats,
            ScreenIncludeMilliseconds,
        ];
        if !keys.iter().any(|k| self.values.contains_key(k)) {
            return None;
        }
        Some(
            ScreenLogOptions::new()
                .incoming(self.flag_or(ScreenLogShowIncoming, true))
                .outgoing(self.flag_or(ScreenLogShowOutgoing, true))
                .events(self.flag_or(ScreenLogShowEvents, true))
                .heartbeats(self.flag_or(ScreenLogShowHeartBeats, true))
                .precision(if self.flag_or(ScreenIncludeMilliseconds, false) {
                    Precision::Millis
                } else {
                    Precision::Seconds
                }),
        )
    }

    /// A number of seconds, or its default from the table.
    fn seconds(&self, key: Fixed) -> Option<Duration> {
        self.given_or_default(key, Value::as_secs)
    }

    /// A number of seconds above 0, or its default.
    fn positive(&self, key: Fixed) -> Result<Duration, ConfigError> {
        match self.seconds(key) {
            Some(d) if d.is_zero() => Err(invalid(key, "0", "a number of seconds above 0")),
            Some(d) => Ok(d),
            None => Err(missing(key, "it has no default")),
        }
    }

    /// A whole number, or its default from the table (0 without one).
    fn count(&self, key: Fixed) -> u64 {
        self.given_or_default(key, Value::as_count).unwrap_or(0)
    }

    /// A socket buffer size: a number of bytes that fits the system's call.
    fn buffer_size(&self, key: Fixed) -> Result<Option<u32>, ConfigError> {
        self.given(key, Value::as_count)
            .map(|n| {
                u32::try_from(n)
                    .map_err(|_| invalid(key, &n.to_string(), "a number of bytes below 4 GiB"))
            })
            .transpose()
    }

    fn text(&self, key: Fixed) -> Option<&str> {
        self.given(key, Value::as_text)
    }

    fn path(&self, key: Fixed) -> Option<PathBuf> {
        self.given(key, Value::as_path).map(PathBuf::from)
    }

    /// The PostgreSQL store, when any `PostgreSQLStore*` key names where it
    /// is: a connection string, or one made of QuickFIX's five keys (with
    /// QuickFIX's defaults for those not given).
    fn postgres_store_settings(&self) -> Result<Option<PostgresStoreSettings>, ConfigError> {
        use Fixed::*;
        let keys = [
            PostgreSQLStoreConnection,
            PostgreSQLStoreDatabase,
            PostgreSQLStoreUser,
            PostgreSQLStorePassword,
            PostgreSQLStoreHost,
            PostgreSQLStorePort,
        ];
        let Some(given) = keys.into_iter().find(|k| self.values.contains_key(k)) else {
            return Ok(None);
        };
        if self.values.contains_key(&FileStorePath) {
            return Err(ConfigError::keyed(
                given.name(),
                ErrorKind::Unsupported {
                    reason: "a session has one store: FileStorePath or the PostgreSQLStore keys, not both",
                },
            ));
        }
        let connection = match self.text(PostgreSQLStoreConnection) {
            Some(c) => c.to_owned(),
            None => {
                // QuickFIX's default, which the table leaves out so that
                // the key alone can say the store is PostgreSQL.
                let port = self
                    .given(PostgreSQLStorePort, Value::as_port)
                    .unwrap_or(5432);
                libpq_connection(
                    self.text(PostgreSQLStoreHost).unwrap_or("localhost"),
                    port,
                    self.text(PostgreSQLStoreUser).unwrap_or("postgres"),
                    self.text(PostgreSQLStorePassword),
                    self.text(PostgreSQLStoreDatabase).unwrap_or("quickfix"),
                )
            }
        };
        let mut store = PostgresStoreSettings::new(connection);
        store.lease = self.seconds(PostgreSQLStoreLease).unwrap_or(store.lease);
        if store.lease.is_zero() {
            return Err(invalid(
                PostgreSQLStoreLease,
                "0",
                "a number of seconds above 0",
            ));
        }
        store.node = self.text(PostgreSQLStoreNode).map(str::to_owned);
        store.max_sessions = match self.count(PostgreSQLStoreMaxSessions) {
            0 => None,
            n => Some(usize::try_from(n).unwrap_or(usize::MAX)),
        };
        Ok(Some(store))
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
        if let Some(e) = &self.pending {
            return Err(e.clone());
        }
        let cx = self.context();
        let template = self.flag(AcceptorTemplate);
        self.check_id(template)?;
        self.check_applies(&cx)?;
        self.check_logon_fields()?;
        // The fields the table's rows set (timeouts among them) are read
        // and checked before the transport.
        let mut session = SessionConfig::new(self.id.clone(), self.role);
        self.apply_fields(&mut session)?;
        let (heart_bt_int, transport) = self.transport(self.reconnect_pause()?)?;
        // No StartTime and EndTime: a non-stop session, as QuickFIX/J reads it.
        let schedule = self.schedule.clone().unwrap_or_else(Schedule::non_stop);
        let default_appl_ver_id = self.appl_ver_ids(&cx)?;
        let tls = if cx.ssl { Some(self.tls()?) } else { None };
        let session = self.session_config(session, &cx, heart_bt_int, default_appl_ver_id)?;
        Ok(SessionSettings {
            acceptor_template: template,
            schedule,
            transport,
            tcp_nodelay: self.flag(SocketNodelay),
            reuse_address: self.flag(SocketReuseAddress),
            connect_timeout: self.connect_timeout(),
            max_queued_age: self.max_queued_age(),
            queued_while_down: self.given(Fixed::QueuedWhileDown, Value::as_queued),
            socket: self.socket_options()?,
            tls,
            dictionaries: self.dictionaries(),
            store_path: self.path(FileStorePath),
            postgres_store: self.postgres_store_settings()?,
            store_options: self.store_options(session.refresh_on_logon),
            store_shared: self.flag(FileStoreShared),
            logon_fields: self.logon_fields.clone(),
            log_heartbeats: self.flag(FileLogHeartbeats),
            screen_log: self.screen_log(),
            allowed_remote_addresses: self.allowed_remotes()?,
            log_path: self.path(FileLogPath),
            log_options: self.file_log_options(),
            raw: self.raw.clone(),
            session,
        })
    }

    /// Every setting given must apply to this session: the first that does
    /// not, with why.
    fn check_applies(&self, cx: &Context) -> Result<(), ConfigError> {
        use Fixed::*;
        let given = self
            .values
            .keys()
            .map(|k| Key::Fixed(*k))
            .chain(
                self.id
                    .qualifier
                    .is_some()
                    .then_some(Key::Fixed(SessionQualifier)),
            )
            .chain((!self.endpoints.is_empty()).then_some(Key::ConnectHost(0)))
            .chain(
                (!self.app_data_dictionaries.is_empty()).then_some(Key::Fixed(AppDataDictionary)),
            )
            .chain((!self.logon_fields.is_empty()).then_some(Key::LogonTag(0)));
        for key in given {
            applies(&key, cx).map_err(|reason| {
                ConfigError::keyed(key.to_string(), ErrorKind::NotApplicable { reason })
            })?;
        }
        Ok(())
    }

    /// The extra Logon fields, each a well-formed `tag=value`.
    fn check_logon_fields(&self) -> Result<(), ConfigError> {
        for (n, (tag, value)) in self.logon_fields.iter().enumerate() {
            let written = format!("{tag}={value}");
            value::tag_value(&written).map_err(|kind| {
                let n = u32::try_from(n).unwrap_or(u32::MAX);
                ConfigError::keyed(Key::LogonTag(n).to_string(), kind)
            })?;
        }
        Ok(())
    }

    /// ReconnectInterval: 0 too, as QuickFIX C++ reads it (see
    /// `InitiatorTransport::reconnect_pause`).
    fn reconnect_pause(&self) -> Result<Duration, ConfigError> {
        use Fixed::ReconnectInterval;
        self.seconds(ReconnectInterval)
            .ok_or_else(|| missing(ReconnectInterval, "it has no default"))
    }

    /// The session's HeartBtInt and where it connects or listens, by role.
    fn transport(&self, reconnect_interval: Duration) -> Result<(u32, Transport), ConfigError> {
        if self.role == Role::Initiator {
            let heart_bt_int = self.initiator_heart_bt_int()?;
            self.check_endpoints()?;
            Ok((
                heart_bt_int,
                Transport::Initiator(InitiatorTransport {
                    endpoints: self.endpoints.clone(),
                    reconnect_interval,
                }),
            ))
        } else {
            Ok((
                SessionConfig::new(self.id.clone(), self.role).heart_bt_int,
                Transport::Acceptor(self.acceptor_transport()?),
            ))
        }
    }

    /// An initiator's HeartBtInt, which it must have: it sends it in its Logon.
    fn initiator_heart_bt_int(&self) -> Result<u32, ConfigError> {
        use Fixed::HeartBtInt;
        match self.seconds(HeartBtInt) {
            None => Err(missing(HeartBtInt, "an initiator sends it in its Logon")),
            Some(d) if d.is_zero() => Err(invalid(HeartBtInt, "0", "a number of seconds above 0")),
            Some(d) => u32::try_from(d.as_secs())
                .map_err(|_| invalid(HeartBtInt, &d.as_secs().to_string(), "a number of seconds")),
        }
    }

    /// An initiator's hosts to connect to: at least one, each a host and a port above 0.
    fn check_endpoints(&self) -> Result<(), ConfigError> {
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
        Ok(())
    }

    /// An acceptor's port to listen on, which it must have, and its address.
    fn acceptor_transport(&self) -> Result<AcceptorTransport, ConfigError> {
        use Fixed::*;
        let Some(port) = self.given(SocketAcceptPort, Value::as_port) else {
            return Err(missing(
                SocketAcceptPort,
                "an acceptor needs a port to listen on",
            ));
        };
        let address = self.text(SocketAcceptAddress);
        if let Some(a) = address
            && !value::is_host(a)
        {
            return Err(invalid(SocketAcceptAddress, a, "a host name or IP address"));
        }
        Ok(AcceptorTransport {
            address: address.map(str::to_owned),
            port,
        })
    }

    /// DefaultApplVerID, which FIXT.1.1 needs, and the AppDataDictionary
    /// versions: each an ApplVerID.
    fn appl_ver_ids(&self, cx: &Context) -> Result<Option<&str>, ConfigError> {
        use Fixed::*;
        let default_appl_ver_id = self.text(DefaultApplVerID);
        if cx.fixt == Some(true) && default_appl_ver_id.is_none() {
            return Err(missing(
                DefaultApplVerID,
                "a FIXT.1.1 session needs the application version it speaks",
            ));
        }
        if let Some(v) = default_appl_ver_id
            && !value::is_appl_ver_id(v)
        {
            return Err(invalid(DefaultApplVerID, v, APPL_VER_ID));
        }
        for (v, _) in &self.app_data_dictionaries {
            if !value::is_appl_ver_id(v) {
                return Err(invalid(AppDataDictionary, v, APPL_VER_ID));
            }
        }
        Ok(default_appl_ver_id)
    }

    /// The TLS settings of a session with SocketUseSSL=Y, checked.
    fn tls(&self) -> Result<Tls, ConfigError> {
        let tls = self.tls_settings()?;
        self.check_tls_sources(&tls)?;
        self.check_tls_peers(&tls)?;
        Ok(tls)
    }

    /// The TLS keys as given: the engine's certificate, the authorities and
    /// how peers are verified.
    fn tls_settings(&self) -> Result<Tls, ConfigError> {
        use Fixed::*;
        let initiator = self.role == Role::Initiator;
        Ok(Tls {
            certificate: self.path(self.by_role(ServerCertificateFile, ClientCertificateFile)),
            private_key: self
                .path(self.by_role(ServerCertificateKeyFile, ClientCertificateKeyFile)),
            key_password: self.text(SSLCertificatePassword).map(KeyPassword::new),
            ca_file: self.path(CertificationAuthoritiesFile),
            key_store: self.path(SocketKeyStore),
            key_store_password: self.text(SocketKeyStorePassword).map(KeyPassword::new),
            trust_store: self.path(SocketTrustStore),
            trust_store_password: self.text(SocketTrustStorePassword).map(KeyPassword::new),
            revocation_lists: self.path(CertificateRevocationListFile),
            client_auth: self.client_auth()?,
            verify_certificates: self.flag(SSLValidateCertificates)
                && !(initiator && self.flag(SocketInsecureSkipVerify)),
            server_name: self.text(SNIHostName).map(str::to_owned),
            client_names: self
                .text(ClientCertificateNames)
                .map(|names| {
                    names
                        .split(',')
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                        .map(str::to_owned)
                        .collect()
                })
                .unwrap_or_default(),
        })
    }

    /// One source for the engine's certificate and one for the authorities:
    /// a store or PEM files, not both.
    fn check_tls_sources(&self, tls: &Tls) -> Result<(), ConfigError> {
        use Fixed::*;
        if tls.key_store.is_some() {
            // One source of the engine's certificate: the key store holds
            // the chain and its key, opened with its own password.
            let cert_key = self.by_role(ServerCertificateFile, ClientCertificateFile);
            let key_key = self.by_role(ServerCertificateKeyFile, ClientCertificateKeyFile);
            for (given, key) in [
                (tls.certificate.is_some(), cert_key),
                (tls.private_key.is_some(), key_key),
                (tls.key_password.is_some(), SSLCertificatePassword),
            ] {
                if given {
                    return Err(ConfigError::keyed(
                        key.name(),
                        ErrorKind::NotApplicable {
                            reason: "not used with SocketKeyStore, which holds the certificate and its key (opened with SocketKeyStorePassword): give the key store or the PEM files, not both",
                        },
                    ));
                }
            }
        }
        if tls.trust_store.is_some() && tls.ca_file.is_some() {
            return Err(ConfigError::keyed(
                CertificationAuthoritiesFile.name(),
                ErrorKind::NotApplicable {
                    reason: "not used with SocketTrustStore, whose certificates are the authorities: give the trust store or the PEM file, not both",
                },
            ));
        }
        Ok(())
    }

    /// What each side needs to verify the other: the engine's certificate,
    /// the authorities, the server's name and the clients required.
    fn check_tls_peers(&self, tls: &Tls) -> Result<(), ConfigError> {
        use Fixed::*;
        let initiator = self.role == Role::Initiator;
        let cert_key = self.by_role(ServerCertificateFile, ClientCertificateFile);
        match (&tls.certificate, &tls.private_key) {
            (None, _) if !initiator && tls.key_store.is_none() => {
                return Err(missing(
                    cert_key,
                    "an acceptor with SocketUseSSL=Y presents a certificate",
                ));
            }
            (None, Some(_)) => return Err(missing(cert_key, "the key needs its certificate")),
            _ => {}
        }
        if tls.client_auth != ClientAuth::None
            && tls.verify_certificates
            && tls.ca_file.is_none()
            && tls.trust_store.is_none()
        {
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
        if !tls.client_names.is_empty() && tls.client_auth != ClientAuth::Required {
            return Err(missing(
                CertificateVerifyLevel,
                "ClientCertificateNames binds an acceptor's sessions to client certificates, which it must require (CertificateVerifyLevel=1 or NeedClientAuth=Y)",
            ));
        }
        Ok(())
    }

    /// The FIX session's own settings beyond the fields the rows set: the
    /// heartbeat, checks, IDs, dictionaries and limits.
    fn session_config(
        &self,
        mut session: SessionConfig,
        cx: &Context,
        heart_bt_int: u32,
        default_appl_ver_id: Option<&str>,
    ) -> Result<SessionConfig, ConfigError> {
        session.heart_bt_int = heart_bt_int;
        session.check_latency = cx.check_latency;
        session.validator = cx.use_data_dictionary.then(|| self.validator());
        session.parser = self.parser();
        session.default_appl_ver_id = default_appl_ver_id.map(str::to_owned);
        session.sub_ids = self.sub_ids()?;
        session.timestamp_precision = self.timestamps();
        session.max_app_messages_per_sec = self.max_app_messages_per_sec()?;
        session.on_error = self.on_error();
        Ok(session)
    }

    /// Every row that sets one field of the session's config, applied in
    /// the table's order (its value given or its default).
    fn apply_fields(&self, session: &mut SessionConfig) -> Result<(), ConfigError> {
        for row in super::keys::keys() {
            match row.apply {
                Some(Apply::Flag(set)) => set(session, self.flag(row.fixed)),
                Some(Apply::Count(set)) => set(session, self.count(row.fixed)),
                Some(Apply::Positive(set)) => set(session, self.positive(row.fixed)?),
                None => {}
            }
        }
        Ok(())
    }

    /// The validator of a session with UseDataDictionary=Y, with its `Validate*` switches.
    fn validator(&self) -> Validator {
        use Fixed::*;
        Validator::new()
            .validate_fields_out_of_order(self.flag(ValidateFieldsOutOfOrder))
            .validate_fields_have_values(self.flag(ValidateFieldsHaveValues))
            .validate_user_defined_fields(self.flag(ValidateUserDefinedFields))
            .allow_unknown_msg_fields(self.flag(AllowUnknownMsgFields))
    }

    /// The session's parser: empty values through, the checksum checked on ValidateChecksum.
    fn parser(&self) -> Parser<'static> {
        // Empty values are the validator's to reject (reason 4, with the
        // message parsed: its Reject is reverse-routed, as QuickFIX's is), so
        // the parser always lets them through; without the validator, or with
        // ValidateFieldsHaveValues=N, so does the session, as QuickFIX's does.
        Parser::new()
            .with_empty_values(true)
            .with_checksum_validation(self.flag(Fixed::ValidateChecksum))
    }

    /// TimeStampPrecision, or milliseconds by MillisecondsInTimeStamp=Y, or seconds.
    fn timestamps(&self) -> Precision {
        match self.given(Fixed::TimeStampPrecision, Value::as_precision) {
            Some(p) => p,
            None if self.flag(Fixed::MillisecondsInTimeStamp) => Precision::Millis,
            None => Precision::Seconds,
        }
    }

    /// MaxMessagesPerSecond: no limit at 0, and below 2^32.
    fn max_app_messages_per_sec(&self) -> Result<Option<std::num::NonZeroU32>, ConfigError> {
        let rate = self.count(Fixed::MaxMessagesPerSecond);
        u32::try_from(rate)
            .map(std::num::NonZeroU32::new)
            .map_err(|_| {
                invalid(
                    Fixed::MaxMessagesPerSecond,
                    &rate.to_string(),
                    "a number of messages below 2^32",
                )
            })
    }

    /// What the session does on an error in a message: reset, disconnect or reject.
    fn on_error(&self) -> OnError {
        // QuickFIX/J asks resetOnError first: it wins when both are on.
        if self.flag(Fixed::ResetOnError) {
            OnError::Reset
        } else if self.flag(Fixed::DisconnectOnError) {
            OnError::Disconnect
        } else {
            OnError::Reject
        }
    }

    /// SocketConnectTimeout, `None` for the engine's limit.
    fn connect_timeout(&self) -> Option<Duration> {
        // 0 is absent: the engine's limit.
        self.given(Fixed::SocketConnectTimeout, Value::as_secs)
            .filter(|d| !d.is_zero())
    }

    /// QueuedMessageMaxAge: the engine's limit, none, or this one.
    fn max_queued_age(&self) -> super::QueuedAge {
        // Unlike SocketConnectTimeout's, a zero here is an answer (no
        // limit), so that a session can lift the engine's limit.
        match self.given(Fixed::QueuedMessageMaxAge, Value::as_secs) {
            None => super::QueuedAge::Engine,
            Some(d) if d.is_zero() => super::QueuedAge::Unlimited,
            Some(d) => super::QueuedAge::Within(d),
        }
    }

    /// The socket's options: buffer sizes, keepalive and the local end an initiator binds.
    fn socket_options(&self) -> Result<SocketOptions, ConfigError> {
        use Fixed::*;
        Ok(SocketOptions {
            send_buffer_size: self.buffer_size(SocketSendBufferSize)?,
            receive_buffer_size: self.buffer_size(SocketReceiveBufferSize)?,
            keepalive: self.given(SocketKeepAlive, Value::as_bool),
            local_host: self.text(SocketConnectSourceHost).map(str::to_owned),
            local_port: self.given(SocketConnectSourcePort, Value::as_port),
        })
    }

    /// The data dictionaries' paths: the session's, the transport's and the applications'.
    fn dictionaries(&self) -> DictionaryPaths {
        let app = self
            .app_data_dictionaries
            .iter()
            .map(|(v, p)| (appl_ver_id_code(v).to_owned(), p.clone()))
            .collect();
        DictionaryPaths {
            data_dictionary: self.path(Fixed::DataDictionary),
            transport: self.path(Fixed::TransportDataDictionary),
            app,
        }
    }

    /// The file store's options: FileStoreSync, and a standby until Logon on RefreshOnLogon=Y.
    fn store_options(&self, refresh_on_logon: bool) -> FileOptions {
        let sync = self
            .given_or_default(Fixed::FileStoreSync, Value::as_sync)
            .unwrap_or(SyncPolicy::EveryRecord);
        // Refreshed at each Logon, a file store is a standby until then.
        FileOptions::new().sync(sync).standby(refresh_on_logon)
    }

    /// AllowedRemoteAddresses, each a host name or IP address.
    fn allowed_remotes(&self) -> Result<Option<Vec<String>>, ConfigError> {
        use Fixed::AllowedRemoteAddresses;
        self.text(AllowedRemoteAddresses)
            .map(|list| {
                value::host_list(list)
                    .map_err(|kind| ConfigError::keyed(AllowedRemoteAddresses.name(), kind))
            })
            .transpose()
    }

    /// The file log's options: its times to the millisecond on FileIncludeMilliseconds=Y.
    fn file_log_options(&self) -> FileLogOptions {
        FileLogOptions::new().precision(if self.flag(Fixed::FileIncludeMilliseconds) {
            Precision::Millis
        } else {
            Precision::Seconds
        })
    }

    /// `CertificateVerifyLevel`, or QuickFIX/J's `NeedClientAuth`, which must
    /// agree when both are given.
    fn client_auth(&self) -> Result<ClientAuth, ConfigError> {
        let level = self.given(Fixed::CertificateVerifyLevel, Value::as_auth);
        let need = self.given(Fixed::NeedClientAuth, Value::as_bool);
        match (level, need) {
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

/// A libpq connection string of these parts, each value quoted as libpq
/// reads it (a backslash before `'` and `\\`).
fn libpq_connection(
    host: &str,
    port: u16,
    user: &str,
    password: Option<&str>,
    dbname: &str,
) -> String {
    let quote = |v: &str| format!("'{}'", v.replace('\\', "\\\\").replace('\'', "\\'"));
    let mut s = format!(
        "host={} port={port} user={} dbname={}",
        quote(host),
        quote(user),
        quote(dbname)
    );
    if let Some(p) = password {
        s.push_str(&format!(" password={}", quote(p)));
    }
    s
}

fn missing(key: impl std::fmt::Display, reason: &'static str) -> ConfigError {
    ConfigError::keyed(key.to_string(), ErrorKind::Missing { reason })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn acceptor() -> SessionBuilder {
        SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1")).socket_accept_port(5001)
    }

    /// A value of another type than its key's row is an error naming the
    /// key, for every type: never read as the key's default.
    #[test]
    fn a_value_of_another_type_is_an_error_not_the_default() {
        for (key, wrong) in [
            (Fixed::ResetOnLogon, Value::Text("Y".into())),
            (Fixed::LogonTimeout, Value::Count(5)),
            (
                Fixed::ResendRequestChunkSize,
                Value::Secs(Duration::from_secs(5)),
            ),
            (Fixed::SocketAcceptPort, Value::Text("5001".into())),
            (Fixed::FileStorePath, Value::Text("store".into())),
            (Fixed::SocketAcceptAddress, Value::Path("127.0.0.1".into())),
            (Fixed::CertificateVerifyLevel, Value::Bool(true)),
            (Fixed::TimeStampPrecision, Value::Text("MICROS".into())),
            (Fixed::QueuedWhileDown, Value::Bool(false)),
        ] {
            let err = acceptor().with(key, wrong.clone()).build().unwrap_err();
            assert_eq!(err.key(), Some(key.name()), "{err}");
            assert_eq!(
                err.kind(),
                &ErrorKind::InvalidValue {
                    value: format!("{wrong:?}"),
                    expected: key.info().value.text(),
                },
                "{err}"
            );
        }
        // What the setters and the file give is of the row's type.
        let s = acceptor()
            .with(Fixed::ResetOnLogon, Value::Bool(true))
            .file_store_path("st")
            .file_store_sync(SyncPolicy::Os)
            .build()
            .unwrap();
        assert!(s.session.reset_on_logon);
        assert_eq!(s.store_options.sync_policy(), SyncPolicy::Os);
    }

    /// Every default in the table reads as its key's getter reads it.
    #[test]
    fn the_defaults_are_read_through_the_values_parser() {
        let b = acceptor();
        assert_eq!(
            b.seconds(Fixed::LogonTimeout),
            Some(Duration::from_secs(10))
        );
        assert_eq!(b.seconds(Fixed::HeartBtInt), None);
        assert!(b.flag(Fixed::SocketNodelay) && !b.flag(Fixed::ResetOnLogon));
        assert_eq!(b.count(Fixed::ResendRequestChunkSize), 0);
        assert_eq!(
            b.given_or_default(Fixed::FileStoreSync, Value::as_sync),
            Some(SyncPolicy::EveryRecord)
        );
    }
}
