//! QuickFIX users' settings files load as they are: files in the layout of
//! QuickFIX C++'s, QuickFIX/J's, QuickFIX/Go's and QuickFIX/n's own examples
//! (`tests/quickfix/`, written for these tests from their documented keys)
//! load, with warnings for what the engine passes over, or fail only with an
//! error naming what the engine lacks.

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
    // Certificate checks cannot be turned off.
    let text = std::fs::read_to_string(sample("go-tradeclient.cfg")).unwrap();
    let insecure = text.replace("SocketInsecureSkipVerify=N", "SocketInsecureSkipVerify=Y");
    let e = Settings::parse("go.cfg", &insecure).unwrap_err();
    assert_eq!(e.key(), Some("SocketInsecureSkipVerify"));
    assert!(matches!(e.kind(), ErrorKind::UnsupportedValue { .. }));
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

    let e = Settings::from_path(sample("qfj-keystore.cfg")).unwrap_err();
    assert_eq!(e.key(), Some("SocketKeyStore"));
    assert!(
        e.to_string().contains("Java key stores cannot be read"),
        "{e}"
    );
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
    assert_eq!((loaded, files), (8, 10));
}
