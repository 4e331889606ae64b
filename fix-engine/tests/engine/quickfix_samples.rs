//! QuickFIX users' settings files load as they are: files in the layout of
//! QuickFIX C++'s, QuickFIX/J's, QuickFIX/Go's and QuickFIX/n's own examples
//! (`tests/quickfix/`, written for these tests from their documented keys)
//! load, with warnings for what the engine passes over, or fail only with an
//! error naming what the engine lacks; and users' files as QuickFIX loads
//! them (`tests/quickfix_settings/`): unknown keys the application's, with a
//! warning, `ReconnectInterval=0`, a template without a TargetCompID.

use fix_core::value::Precision;
use std::path::{Path, PathBuf};

use fix_engine::config::{ClientAuth, ErrorKind, Settings, Transport, WarningKind};
use fix_session::{Role, SessionId};

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/quickfix")
        .join(name)
}

fn load(name: &str) -> Settings {
    Settings::from_path(sample(name)).unwrap_or_else(|e| panic!("{e}"))
}

/// The keys the file's warnings are about.
fn warned_keys(s: &Settings) -> Vec<&str> {
    s.warnings().iter().filter_map(|w| w.key()).collect()
}

#[test]
fn quickfix_cpp_executor() {
    let s = load("cpp-executor.cfg");
    assert_eq!(s.sessions().len(), 6);
    assert!(
        s.sessions()
            .iter()
            .all(|s| s.session.role == Role::Acceptor)
    );
    assert!(
        s.sessions()
            .iter()
            .all(|s| s.reuse_address && s.tcp_nodelay)
    );
    assert_eq!(s.listeners().len(), 1);
    let fixt = s
        .session(&SessionId::new("FIXT.1.1", "EXECUTOR", "CLIENT1"))
        .unwrap();
    assert_eq!(fixt.dictionaries.app[0].0, "9");
    // ReconnectInterval is an initiator's: passed over silently from [DEFAULT].
    let keys = warned_keys(&s);
    assert!(!keys.contains(&"ReconnectInterval"), "{keys:?}");
    // The screen log QuickFIX C++'s executor asks for: events only.
    assert!(!keys.contains(&"ScreenLogShowEvents"), "{keys:?}");
    let screen = fixt.screen_log.unwrap();
    assert!(screen.shows_events() && !screen.shows_incoming() && !screen.shows_outgoing());
}

#[test]
fn quickfix_cpp_tradeclient() {
    let s = load("cpp-tradeclient.cfg");
    let [c] = s.sessions() else { panic!() };
    assert_eq!(
        c.session.id,
        SessionId::new("FIX.4.4", "CLIENT1", "EXECUTOR")
    );
    assert_eq!(c.session.heart_bt_int, 30);
    // MillisecondsInTimeStamp=Y and the screen log are applied, not warned of.
    assert_eq!(c.session.timestamp_precision, Precision::Millis);
    let screen = c.screen_log.unwrap();
    assert!(screen.shows_incoming() && screen.shows_outgoing() && screen.shows_events());
    assert!(s.warnings().iter().all(|w| !matches!(
        w.key(),
        Some("MillisecondsInTimeStamp" | "ScreenLogShowIncoming")
    )));
}

#[test]
fn quickfix_j_executor() {
    let s = load("qfj-executor.cfg");
    assert_eq!((s.sessions().len(), s.templates().len()), (3, 1));
    let id = SessionId::new("FIX.4.4", "EXEC", "BANZAI");
    // The application's own settings, inherited from [DEFAULT].
    assert_eq!(s.get(&id, "ValidOrderTypes"), Some("1,2,F"));
    assert_eq!(s.get(&id, "defaultmarketprice"), Some("12.30"));
    assert_eq!(s.default_value("DefaultMarketPrice"), Some("12.30"));
    let made = s.templates()[0]
        .session_for(&SessionId::new("FIX.4.4", "EXEC", "OTHER"))
        .unwrap();
    assert_eq!(made.get("ValidOrderTypes"), Some("1,2,F"));
    let keys = warned_keys(&s);
    assert!(keys.contains(&"FileStoreMaxCachedMsgs"), "{keys:?}");
    assert!(!keys.contains(&"HeartBtInt"), "{keys:?}");
}

#[test]
fn quickfix_j_banzai() {
    let s = load("qfj-banzai.cfg");
    assert_eq!(s.sessions().len(), 2);
    let q = &s.sessions()[1];
    assert_eq!(q.session.id.qualifier.as_deref(), Some("primary"));
    let Transport::Initiator(i) = &q.transport else {
        panic!()
    };
    assert_eq!(
        (i.endpoints[0].port, i.reconnect_interval.as_secs()),
        (9880, 5)
    );
    // RefreshOnLogon=N, ResetOnError=N and TimeStampPrecision=MILLIS are
    // read (no warning); SocketKeepAlive is read; the SLF4J log is ignored.
    assert!(
        s.sessions()
            .iter()
            .all(|s| s.socket.keepalive == Some(true))
    );
    for key in ["RefreshOnLogon", "ResetOnError", "TimeStampPrecision"] {
        assert!(s.warnings().iter().all(|w| w.key() != Some(key)), "{key}");
    }
    assert!(s.sessions().iter().all(|s| {
        !s.session.refresh_on_logon
            && s.session.on_error == fix_session::OnError::Reject
            && s.session.timestamp_precision == Precision::Millis
            && s.screen_log.is_some_and(|o| o.shows_events())
    }));
    let w = s
        .warnings()
        .iter()
        .find(|w| w.key() == Some("SLF4JLogHeartbeats"))
        .unwrap();
    assert!(matches!(w.kind(), WarningKind::Ignored { .. }));
}

#[test]
fn quickfix_go_executor_without_connection_type() {
    let s = load("go-executor.cfg");
    assert_eq!(s.sessions().len(), 3);
    assert!(
        s.sessions()
            .iter()
            .all(|s| s.session.role == Role::Acceptor)
    );
    assert!(s.sessions().iter().all(|s| s.schedule.is_non_stop()));
    let inferred = s
        .warnings()
        .iter()
        .filter(|w| matches!(w.kind(), WarningKind::Inferred { .. }))
        .count();
    assert_eq!(inferred, 3);
}

#[test]
fn quickfix_go_tradeclient_tls_names() {
    let s = load("go-tradeclient.cfg");
    let [c] = s.sessions() else { panic!() };
    assert_eq!(c.session.role, Role::Initiator);
    // QuickFIX/Go's durations.
    let Transport::Initiator(i) = &c.transport else {
        panic!()
    };
    assert_eq!(i.reconnect_interval.as_secs(), 5);
    assert_eq!(c.session.logon_timeout.as_secs(), 60);
    assert_eq!(c.connect_timeout.map(|d| d.as_secs()), Some(20));
    let tls = c.tls.as_ref().unwrap();
    assert_eq!(
        tls.certificate.as_deref(),
        Some(Path::new("target/quickfix-samples/client.pem"))
    );
    assert_eq!(
        tls.private_key.as_deref(),
        Some(Path::new("target/quickfix-samples/client.key"))
    );
    assert_eq!(
        tls.ca_file.as_deref(),
        Some(Path::new("target/quickfix-samples/ca.pem"))
    );
    assert_eq!(tls.server_name.as_deref(), Some("fix.example.com"));
    assert!(tls.verify_certificates);
    // QuickFIX/Go's switch for certificate checks turns them off, as there.
    let text = std::fs::read_to_string(sample("go-tradeclient.cfg")).unwrap();
    let insecure = text.replace("SocketInsecureSkipVerify=N", "SocketInsecureSkipVerify=Y");
    let s = Settings::parse("go.cfg", &insecure).unwrap();
    assert!(!s.sessions()[0].tls.as_ref().unwrap().verify_certificates);
}

#[test]
fn quickfix_n_samples() {
    let s = load("n-executor.cfg");
    let [a] = s.sessions() else { panic!() };
    let Transport::Acceptor(t) = &a.transport else {
        panic!()
    };
    assert_eq!(t.address.as_deref(), Some("127.0.0.1"));
    assert!(a.tls.is_none());

    let s = load("n-tradeclient.cfg");
    let [c] = s.sessions() else { panic!() };
    let tls = c.tls.as_ref().unwrap();
    assert_eq!(tls.server_name.as_deref(), Some("fix.example.com"));
    assert_eq!(
        tls.certificate.as_deref(),
        Some(Path::new("target/quickfix-samples/client.pem"))
    );
    assert_eq!(tls.client_auth, ClientAuth::None);
}

#[test]
fn what_the_engine_lacks_is_an_error_naming_it() {
    let e = Settings::from_path(sample("cpp-mysql.cfg")).unwrap_err();
    assert_eq!((e.key(), e.line()), (Some("MySQLStoreDatabase"), Some(7)));
    assert!(
        e.to_string()
            .contains("this database as the message store cannot be used"),
        "{e}"
    );
    // With a file store beside it, the database settings are passed over.
    let text = std::fs::read_to_string(sample("cpp-mysql.cfg")).unwrap();
    let with_files = text.replace("[DEFAULT]\n", "[DEFAULT]\nFileStorePath=store\n");
    let s = Settings::parse("m.cfg", &with_files).unwrap();
    assert_eq!(warned_keys(&s).len(), 3);
}

/// QuickFIX/J's Java key stores: read as PKCS#12 files (keytool's type since
/// Java 9), opened when the engine starts, not when the file loads; a JKS or
/// JCEKS type refused at load, naming the keytool command that converts it.
#[test]
fn quickfix_j_key_stores_load_as_pkcs12() {
    let s = load("qfj-keystore.cfg");
    let tls = s.sessions()[0].tls.as_ref().unwrap();
    assert_eq!(
        tls.key_store.as_deref(),
        Some(Path::new("executor.keystore"))
    );
    assert!(tls.key_store_password.is_some());
    assert_eq!(
        (tls.certificate.as_ref(), tls.trust_store.as_ref()),
        (None, None)
    );
    assert_eq!(tls.client_auth, ClientAuth::None);

    let text = std::fs::read_to_string(sample("qfj-keystore.cfg")).unwrap();
    let with =
        |line: &str| text.replace("NeedClientAuth=N\n", &format!("NeedClientAuth=N\n{line}\n"));
    // PKCS12, any case: no effect, said so.
    let s = Settings::parse("k.cfg", &with("KeyStoreType=pkcs12")).unwrap();
    assert_eq!(warned_keys(&s), ["KeyStoreType"]);
    for line in ["KeyStoreType=JKS", "TrustStoreType=jceks"] {
        let e = Settings::parse("k.cfg", &with(line)).unwrap_err();
        assert!(
            matches!(e.kind(), ErrorKind::UnsupportedValue { .. }),
            "{e}"
        );
        assert!(
            e.to_string().contains(
                "keytool -importkeystore -srckeystore FILE -destkeystore FILE.p12 -deststoretype pkcs12"
            ),
            "{e}"
        );
    }
    // The key store or the PEM files, the trust store or the PEM
    // authorities: not both.
    for (line, key) in [
        ("ServerCertificateFile=server.pem", "ServerCertificateFile"),
        ("SSLCertificatePassword=x", "SSLCertificatePassword"),
    ] {
        let e = Settings::parse("k.cfg", &with(line)).unwrap_err();
        assert_eq!(e.key(), Some(key), "{e}");
        assert!(
            e.to_string().contains("not used with SocketKeyStore"),
            "{e}"
        );
    }
    let both =
        with("NeedClientAuth=Y\nSocketTrustStore=trust.p12\nCertificationAuthoritiesFile=ca.pem")
            .replace("NeedClientAuth=N\n", "");
    let e = Settings::parse("k.cfg", &both).unwrap_err();
    assert_eq!(e.key(), Some("CertificationAuthoritiesFile"), "{e}");
    // A trust store alone serves an acceptor that verifies clients.
    let trusting =
        with("NeedClientAuth=Y\nSocketTrustStore=trust.p12\nSocketTrustStorePassword=changeit")
            .replace("NeedClientAuth=N\n", "");
    let s = Settings::parse("k.cfg", &trusting).unwrap();
    let tls = s.sessions()[0].tls.as_ref().unwrap();
    assert_eq!(tls.trust_store.as_deref(), Some(Path::new("trust.p12")));
    assert_eq!(tls.client_auth, ClientAuth::Required);
}

/// Every sample: loads, or fails naming only a key the engine cannot honour.
#[test]
fn every_sample_loads_or_names_what_is_lacking() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/quickfix");
    let mut loaded = 0;
    let mut files = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "cfg") {
            continue;
        }
        files += 1;
        match Settings::from_path(&path) {
            Ok(_) => loaded += 1,
            Err(e) => assert!(
                matches!(
                    e.kind(),
                    ErrorKind::Unsupported { .. } | ErrorKind::UnsupportedValue { .. }
                ),
                "{e}"
            ),
        }
    }
    assert_eq!((loaded, files), (9, 10));
}

/// A file of `tests/quickfix_settings/` (see its README.md).
fn settings_file(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/quickfix_settings")
        .join(name)
}

/// The (line, key) of each warning a file loads with, in order.
type Warned = &'static [(usize, &'static str)];

/// Each file of `tests/quickfix_settings/`: its sessions and templates, and
/// the (line, key) of each warning it loads with, in order.
const QUICKFIX_SETTINGS: &[(&str, (usize, usize), Warned)] = &[
    ("cpp-executor-versions.cfg", (3, 0), &[]),
    (
        "cpp-tradeclient-reconnect0.cfg",
        (1, 0),
        &[(11, "HttpAcceptPort")],
    ),
    ("cpp-weekly.cfg", (1, 0), &[]),
    ("fixt-acceptor.cfg", (1, 0), &[(9, "OpsOwner")]),
    (
        "go-acceptor.cfg",
        (2, 0),
        &[(11, "ConnectionType"), (14, "ConnectionType")],
    ),
    ("go-ssl-system-roots.cfg", (1, 0), &[]),
    (
        "n-failover-initiator.cfg",
        (1, 0),
        &[(13, "X_OrderRouting")],
    ),
    ("n-ssl-unchecked-initiator.cfg", (1, 0), &[]),
    ("n-timezone-acceptor.cfg", (2, 0), &[]),
    ("qfj-banzai-initiator.cfg", (1, 0), &[]),
    (
        "qfj-executor-app-keys.cfg",
        (2, 0),
        &[
            (12, "ValidOrderTypes"),
            (13, "DefaultMarketPrice"),
            (20, "ValidOrderTypes"),
        ],
    ),
    ("qfj-executor-template.cfg", (0, 1), &[]),
    (
        "qfj-slips.cfg",
        (1, 0),
        &[(9, "ValidateFieldsOutOfOrders"), (15, "ResetOnLogn")],
    ),
    ("ssl-protocol.cfg", (1, 0), &[(10, "SSL_PROTOCOL")]),
    (
        "vendor-logontype.cfg",
        (1, 0),
        &[(12, "LogonType"), (13, "VendorDesk")],
    ),
];

/// Every file of the corpus loads, with the warnings expected of it; strict
/// loading refuses exactly those with a warning, at its first one, and so
/// every file with an unknown key.
#[test]
fn every_quickfix_settings_file_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/quickfix_settings");
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".cfg"))
        .collect();
    names.sort();
    let listed: Vec<&str> = QUICKFIX_SETTINGS.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(names, listed, "every file is listed, with its warnings");
    assert!(names.len() >= 12);

    let mut with_unknown_keys = 0;
    for &(name, (sessions, templates), expected) in QUICKFIX_SETTINGS {
        let s = Settings::from_path(settings_file(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (s.sessions().len(), s.templates().len()),
            (sessions, templates),
            "{name}"
        );
        let warned: Vec<(usize, &str)> = s
            .warnings()
            .iter()
            .map(|w| (w.line().unwrap(), w.key().unwrap()))
            .collect();
        assert_eq!(warned, expected, "{name}");

        match (s.strict(), s.warnings().first()) {
            (Ok(()), None) => {}
            (Err(e), Some(first)) => {
                assert_eq!((e.line(), e.key()), (first.line(), first.key()), "{name}");
                assert_eq!(
                    e.kind(),
                    &ErrorKind::Strict {
                        warning: first.kind().clone()
                    }
                );
            }
            (strict, first) => panic!("{name}: {strict:?} beside {first:?}"),
        }
        let unknown = s
            .warnings()
            .iter()
            .filter(|w| matches!(w.kind(), WarningKind::UnknownKey { .. }))
            .count();
        if unknown > 0 {
            with_unknown_keys += 1;
            assert!(s.strict().is_err(), "{name}");
        }
        // Each unknown key reaches the application of every session reading it.
        let all = s
            .sessions()
            .iter()
            .chain(s.templates().iter().map(|t| t.settings()));
        for session in all {
            let keys = session.application_keys();
            for w in s.warnings() {
                if matches!(w.kind(), WarningKind::UnknownKey { .. }) {
                    assert!(keys.contains_key(w.key().unwrap()), "{name}: {w}");
                }
            }
            // The dictionary named is the repository's, relative to its root.
            if let Some(path) = &session.dictionaries.data_dictionary {
                assert_eq!(path, Path::new("spec/FIX44.xml"), "{name}");
                assert!(
                    Path::new(env!("CARGO_MANIFEST_DIR"))
                        .join("..")
                        .join(path)
                        .is_file()
                );
            }
        }
    }
    assert_eq!(with_unknown_keys, 6);
}

#[test]
fn quickfix_settings_unknown_keys_reach_the_application() {
    let s = Settings::from_path(settings_file("vendor-logontype.cfg")).unwrap();
    let keys = s.sessions()[0].application_keys();
    assert_eq!(
        keys.into_iter().collect::<Vec<_>>(),
        [("LogonType", "password"), ("VendorDesk", "EQ-LDN")]
    );
    // The slip's warning keeps the key it may have meant.
    assert_eq!(
        s.warnings()[0].kind(),
        &WarningKind::UnknownKey {
            suggestion: Some("LogonTime")
        }
    );
    let s = Settings::from_path(settings_file("ssl-protocol.cfg")).unwrap();
    assert!(
        s.warnings()[0]
            .to_string()
            .ends_with("did you mean SSLProtocol?")
    );
    assert_eq!(
        s.sessions()[0].application_keys().get("SSL_PROTOCOL"),
        Some(&"+TLSv1.2")
    );
    assert!(s.sessions()[0].tls.is_none());

    // A session's own value over [DEFAULT]'s.
    let s = Settings::from_path(settings_file("qfj-executor-app-keys.cfg")).unwrap();
    let by_version = |v: &str| {
        let id = SessionId::new(v, "EXEC", "BANZAI");
        let keys = s.session(&id).unwrap().application_keys();
        (
            keys["ValidOrderTypes"].to_owned(),
            keys["DefaultMarketPrice"].to_owned(),
        )
    };
    assert_eq!(by_version("FIX.4.2"), ("1,2,F".into(), "12.30".into()));
    assert_eq!(by_version("FIX.4.4"), ("1,2".into(), "12.30".into()));
}

#[test]
fn quickfix_settings_reconnect_at_once_and_templates_without_a_target() {
    for name in ["cpp-tradeclient-reconnect0.cfg", "n-failover-initiator.cfg"] {
        let s = Settings::from_path(settings_file(name)).unwrap();
        let Transport::Initiator(i) = &s.sessions()[0].transport else {
            panic!("{name}")
        };
        assert_eq!(i.reconnect_interval.as_secs(), 0, "{name}");
        assert_eq!(i.reconnect_pause().as_secs(), 1, "{name}");
    }
    let s = Settings::from_path(settings_file("qfj-executor-template.cfg")).unwrap();
    let [t] = s.templates() else { panic!() };
    assert_eq!(t.pattern(), &SessionId::new("FIX.4.4", "EXEC", "*"));
    let id = SessionId::new("FIX.4.4", "EXEC", "ANY-CLIENT");
    assert_eq!(
        s.template_for(&id)
            .unwrap()
            .session_for(&id)
            .unwrap()
            .session
            .id,
        id
    );
}
