//! Settings files: every key's parsing and default, every error with its file,
//! line and key, inheritance, duplicates, templates, the builder's equivalence,
//! the samples, and arbitrary text.

use std::path::Path;
use std::time::Duration;

use fix_engine::config::{
    Applies, ConfigError, Endpoint, ErrorKind, Schedule, SessionBuilder, SessionSettings, Settings,
    Support, TimeOfDay, Transport, UtcOffset, ValueType, Weekday, Zone,
};
use fix_session::{Role, SessionId, SyncPolicy};
use fix_test_support::temp_dir::TestDir;

const ACCEPTOR: &str = "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\nStartTime=00:00:00\nEndTime=00:00:00\n";
const INITIATOR: &str = "[SESSION]\nConnectionType=initiator\nBeginString=FIX.4.4\nSenderCompID=C1\nTargetCompID=EXEC\nHeartBtInt=30\nSocketConnectHost=localhost\nSocketConnectPort=5001\nStartTime=00:00:00\nEndTime=00:00:00\n";

/// `head` with its CheckSum field.
fn with_trailer(head: &str) -> Vec<u8> {
    let sum = head.bytes().fold(0u8, |a, b| a.wrapping_add(b));
    format!("{head}10={sum:03}\x01").into_bytes()
}

fn one(text: &str) -> SessionSettings {
    let settings = Settings::parse("s.cfg", text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(settings.sessions().len(), 1);
    settings.sessions()[0].clone()
}

fn acceptor(extra: &str) -> SessionSettings {
    one(&format!("{ACCEPTOR}{extra}"))
}

fn initiator(extra: &str) -> SessionSettings {
    one(&format!("{INITIATOR}{extra}"))
}

fn err(text: &str) -> ConfigError {
    match Settings::parse("s.cfg", text) {
        Ok(_) => panic!("parsed:\n{text}"),
        Err(e) => e,
    }
}

/// The error's line, key and message.
fn fails(text: &str) -> (Option<usize>, Option<String>, String) {
    let e = err(text);
    assert_eq!(e.file(), Some(Path::new("s.cfg")));
    (e.line(), e.key().map(str::to_owned), e.kind().to_string())
}

/// The warnings of a file that loads: line, key and text.
fn warned(text: &str) -> Vec<(Option<usize>, Option<String>, String)> {
    let s = Settings::parse("s.cfg", text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    s.warnings()
        .iter()
        .map(|w| {
            assert_eq!(w.file(), Some(Path::new("s.cfg")));
            (w.line(), w.key().map(str::to_owned), w.kind().to_string())
        })
        .collect()
}

/// Settings' Debug text without what the file said as written (which a
/// builder has not).
fn semantic(s: &SessionSettings) -> String {
    let text = format!("{s:?}");
    let end = text.find(", raw: [").unwrap_or(text.len());
    text[..end].to_owned()
}

#[test]
fn defaults_are_quickfixs() {
    let a = acceptor("");
    let c = &a.session;
    assert_eq!(c.id, SessionId::new("FIX.4.4", "EXEC", "C1"));
    assert_eq!(c.role, Role::Acceptor);
    assert_eq!(c.heart_bt_int, 30);
    assert!(!c.reset_on_logon && !c.reset_on_logout && !c.reset_on_disconnect);
    assert!(!c.send_reset_seq_num_flag);
    assert_eq!(
        (c.logon_timeout, c.logout_timeout),
        (Duration::from_secs(10), Duration::from_secs(2))
    );
    assert!(c.check_latency && c.check_comp_id && c.persist_messages);
    assert_eq!(c.max_latency, Duration::from_secs(120));
    assert_eq!(c.resend_request_chunk_size, 0);
    let v = c.validator.expect("UseDataDictionary defaults to Y");
    assert!(v.validates_fields_out_of_order() && v.validates_fields_have_values());
    assert!(v.validates_user_defined_fields() && !v.allows_unknown_msg_fields());
    assert_eq!(c.default_appl_ver_id, None);
    assert!(a.tcp_nodelay && a.tls.is_none() && !a.acceptor_template);
    assert_eq!(
        a.transport,
        Transport::Acceptor(fix_engine::config::AcceptorTransport {
            address: None,
            port: 5001
        })
    );
    assert_eq!(
        a.schedule,
        Schedule::daily(TimeOfDay::MIDNIGHT, TimeOfDay::MIDNIGHT)
    );
    assert_eq!((a.store_path.as_ref(), a.log_path.as_ref()), (None, None));
    assert_eq!(a.store_options.sync_policy(), SyncPolicy::EveryRecord);
    assert_eq!(a.dictionaries, Default::default());

    let i = initiator("");
    let Transport::Initiator(t) = &i.transport else {
        panic!()
    };
    assert_eq!(t.reconnect_interval, Duration::from_secs(30));
    assert_eq!(
        t.endpoints,
        [Endpoint {
            host: "localhost".into(),
            port: 5001
        }]
    );
    assert_eq!(i.session.role, Role::Initiator);
}

#[test]
fn every_key_is_read() {
    let a = acceptor(
        "LogonTimeout=5\nLogoutTimeout=3\nSocketNodelay=N\nResetOnLogon=Y\nResetOnLogout=Y\nResetOnDisconnect=Y\n\
         ValidateFieldsOutOfOrder=N\nValidateFieldsHaveValues=N\nValidateUserDefinedFields=N\nAllowUnknownMsgFields=Y\n\
         CheckCompID=N\nMaxLatency=7\nResendRequestChunkSize=500\nPersistMessages=N\nFileStorePath=st\nFileStoreSync=N\n\
         FileLogPath=lg\nDataDictionary=FIX44.xml\nSocketAcceptAddress=127.0.0.1\nUseLocalTime=N\n\
         SocketUseSSL=Y\nServerCertificateFile=s.crt\nServerCertificateKeyFile=s.key\nCertificationAuthoritiesFile=ca.crt\nNeedClientAuth=Y\n",
    );
    let c = &a.session;
    assert_eq!(
        (
            c.logon_timeout.as_secs(),
            c.logout_timeout.as_secs(),
            c.max_latency.as_secs()
        ),
        (5, 3, 7)
    );
    assert!(c.reset_on_logon && c.reset_on_logout && c.reset_on_disconnect);
    let v = c.validator.unwrap();
    assert!(!v.validates_fields_out_of_order() && !v.validates_fields_have_values());
    assert!(!v.validates_user_defined_fields() && v.allows_unknown_msg_fields());
    assert!(!c.check_comp_id && !c.persist_messages);
    assert_eq!(c.resend_request_chunk_size, 500);
    // Empty values always reach the validator, which rejects them (reason 4,
    // the message parsed and its Reject reverse-routed) unless told not to.
    let empty_text = with_trailer("8=FIX.4.4\x019=9\x0135=0\x0158=\x01");
    let mut fields = [fix_core::Field::new(0, 0, 0); 8];
    assert!(c.parser.parse(&empty_text, &mut fields).is_ok());
    let default = acceptor("").session;
    assert!(default.parser.parse(&empty_text, &mut fields).is_ok());
    assert!(default.validator.unwrap().validates_fields_have_values());
    assert!(!a.tcp_nodelay);
    assert_eq!(a.store_path.as_deref(), Some(Path::new("st")));
    assert_eq!(a.store_options.sync_policy(), SyncPolicy::Os);
    assert_eq!(a.log_path.as_deref(), Some(Path::new("lg")));
    assert_eq!(
        a.dictionaries.data_dictionary.as_deref(),
        Some(Path::new("FIX44.xml"))
    );
    let Transport::Acceptor(t) = &a.transport else {
        panic!()
    };
    assert_eq!(t.address.as_deref(), Some("127.0.0.1"));
    let tls = a.tls.unwrap();
    assert_eq!(tls.certificate.as_deref(), Some(Path::new("s.crt")));
    assert_eq!(tls.private_key.as_deref(), Some(Path::new("s.key")));
    assert_eq!(tls.ca_file.as_deref(), Some(Path::new("ca.crt")));
    assert_eq!(tls.client_auth, fix_engine::config::ClientAuth::Required);

    let i = initiator(
        "ReconnectInterval=5\nSendResetSeqNumFlag=Y\nSessionQualifier=Q1\nSocketUseSSL=Y\nClientCertificateFile=c.crt\nClientCertificateKeyFile=c.key\n\
         CertificationAuthoritiesFile=ca.crt\nSNIHostName=fix.example.com\n\
         SocketConnectHost1=backup\nSocketConnectPort1=5002\nSocketConnectHost2=10.0.0.3\nSocketConnectPort2=5003\nFileStorePath=st\nFileStoreSync=Y\n",
    );
    assert!(i.session.send_reset_seq_num_flag);
    assert_eq!(i.session.id.qualifier.as_deref(), Some("Q1"));
    let Transport::Initiator(t) = &i.transport else {
        panic!()
    };
    assert_eq!(t.reconnect_interval.as_secs(), 5);
    let hosts: Vec<String> = t.endpoints.iter().map(Endpoint::to_string).collect();
    assert_eq!(hosts, ["localhost:5001", "backup:5002", "10.0.0.3:5003"]);
    let tls = i.tls.unwrap();
    assert_eq!(tls.certificate.as_deref(), Some(Path::new("c.crt")));
    assert_eq!(tls.private_key.as_deref(), Some(Path::new("c.key")));
    assert_eq!(tls.ca_file.as_deref(), Some(Path::new("ca.crt")));
    assert_eq!(tls.server_name.as_deref(), Some("fix.example.com"));
    assert_eq!(i.store_options.sync_policy(), SyncPolicy::EveryRecord);
}

#[test]
fn use_data_dictionary_n_turns_validation_off() {
    let a = acceptor("UseDataDictionary=N\n");
    assert!(a.session.validator.is_none());
    let a = acceptor("CheckLatency=N\n");
    assert!(!a.session.check_latency);
}

#[test]
fn fixt_sessions_take_transport_and_app_dictionaries() {
    let text = "[SESSION]\nConnectionType=acceptor\nBeginString=FIXT.1.1\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\nNonStopSession=Y\n\
                DefaultApplVerID=FIX.5.0SP2\nTransportDataDictionary=FIXT11.xml\nAppDataDictionary=FIX50SP2.xml\nAppDataDictionary.FIX.4.4=FIX44.xml\n";
    let s = one(text);
    assert_eq!(s.session.default_appl_ver_id.as_deref(), Some("FIX.5.0SP2"));
    assert_eq!(
        s.dictionaries.transport.as_deref(),
        Some(Path::new("FIXT11.xml"))
    );
    let app: Vec<(&str, &Path)> = s
        .dictionaries
        .app
        .iter()
        .map(|(v, p)| (v.as_str(), p.as_path()))
        .collect();
    assert_eq!(
        app,
        [
            ("9", Path::new("FIX50SP2.xml")),
            ("6", Path::new("FIX44.xml"))
        ]
    );
    assert!(s.schedule.is_non_stop());

    let dup = format!("{text}AppDataDictionary.FIX.5.0SP2=other.xml\n");
    assert_eq!(
        fails(&dup),
        (
            Some(12),
            Some("AppDataDictionary.FIX.5.0SP2".into()),
            "set twice in one section (first at line 10)".into()
        )
    );
    let no_version = text.replace("DefaultApplVerID=FIX.5.0SP2\n", "");
    assert_eq!(
        fails(&no_version),
        (
            Some(1),
            Some("DefaultApplVerID".into()),
            "missing: AppDataDictionary is the dictionary of DefaultApplVerID".into()
        )
    );
    let bad = text.replace("AppDataDictionary.FIX.4.4", "AppDataDictionary.FIX.9");
    assert_eq!(
        fails(&bad).2,
        r#""FIX.9" is not a FIX version (AppDataDictionary.FIX.5.0SP2, say)"#
    );
    // QuickFIX passes over a DataDictionary a FIXT.1.1 session does not use;
    // so does the engine, with a warning.
    let data = format!("{text}DataDictionary=FIX44.xml\n");
    assert_eq!(
        warned(&data),
        [(
            Some(12),
            Some("DataDictionary".into()),
            "ignored: a FIXT.1.1 session uses TransportDataDictionary and AppDataDictionary instead"
                .into()
        )]
    );
    assert_eq!(one(&data).dictionaries.data_dictionary, None);
}

#[test]
fn named_time_zones_from_timezone_and_after_the_times() {
    let ny = Zone::parse("America/New_York").unwrap();
    let expected = Schedule::daily(
        TimeOfDay::new(9, 30, 0).unwrap(),
        TimeOfDay::new(16, 0, 0).unwrap(),
    )
    .in_zone(ny.clone());
    let by_key = Settings::parse(
        "s.cfg",
        &format!(
            "{}StartTime=09:30:00\nEndTime=16:00:00\nTimeZone=America/New_York\n",
            ACCEPTOR.replace("StartTime=00:00:00\nEndTime=00:00:00\n", "")
        ),
    )
    .map(|s| s.sessions()[0].schedule.clone())
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(by_key, expected);
    // QuickFIX/J's form: the zone after each time.
    let after = Settings::parse(
        "s.cfg",
        &ACCEPTOR.replace(
            "StartTime=00:00:00\nEndTime=00:00:00\n",
            "StartTime=09:30:00 America/New_York\nEndTime=16:00:00 America/New_York\n",
        ),
    )
    .unwrap();
    assert_eq!(after.sessions()[0].schedule, expected);
    // Two zones for one schedule are an error on the second.
    let two = ACCEPTOR.replace(
        "EndTime=00:00:00\n",
        "EndTime=00:00:00 Europe/London\nTimeZone=Asia/Tokyo\n",
    );
    assert_eq!(
        fails(&two),
        (
            Some(9),
            Some("TimeZone".to_owned()),
            "the schedule's times name two different time zones; one zone serves the schedule"
                .to_owned()
        )
    );
    let both = format!("{ACCEPTOR}TimeZone=Pacific/Chatham\nUseLocalTime=Y\n");
    assert_eq!(
        fails(&both).2,
        "UseLocalTime=Y and a time zone cannot both be given"
    );
}

#[test]
fn schedules() {
    let weekly = acceptor(
        "StartDay=sun\nEndDay=Friday\nTimeZone=-05:00\n"
            .replace("StartTime=00:00:00\n", "")
            .as_str(),
    );
    let expected = Schedule::weekly(
        Weekday::Sunday,
        TimeOfDay::MIDNIGHT,
        Weekday::Friday,
        TimeOfDay::MIDNIGHT,
    )
    .in_zone(UtcOffset::from_seconds(-5 * 3600).unwrap());
    assert_eq!(weekly.schedule, expected);
    let days = acceptor("Weekdays=Mon, Tue,wed\n");
    let expected = Schedule::on_weekdays(
        TimeOfDay::MIDNIGHT,
        TimeOfDay::MIDNIGHT,
        &[Weekday::Monday, Weekday::Tuesday, Weekday::Wednesday],
    )
    .unwrap();
    assert_eq!(days.schedule, expected);
    let base = ACCEPTOR.replace("StartTime=00:00:00\nEndTime=00:00:00\n", "");
    assert!(
        one(&format!("{base}NonStopSession=Y\n"))
            .schedule
            .is_non_stop()
    );
    // No StartTime and EndTime: non-stop, as QuickFIX/Go reads it, with a
    // warning (QuickFIX C++ and QuickFIX/J want a schedule); a day or a zone
    // without times does not apply.
    assert!(one(&base).schedule.is_non_stop());
    let non_stop = (
        Some(1),
        Some("StartTime".to_owned()),
        "missing, with EndTime: the session is non-stop (NonStopSession=Y says so without this warning)"
            .to_owned(),
    );
    assert_eq!(warned(&base), std::slice::from_ref(&non_stop));
    assert_eq!(
        warned(&format!("{base}StartDay=Mon\n")),
        [
            non_stop,
            (
                Some(7),
                Some("StartDay".into()),
                "ignored: not used by a non-stop session (one without StartTime and EndTime)"
                    .into()
            )
        ]
    );
    assert_eq!(warned(&format!("{base}NonStopSession=Y\n")), []);
    assert_eq!(
        fails(&format!("{base}StartTime=08:00:00\n")),
        (
            Some(1),
            Some("EndTime".into()),
            "missing: a schedule needs both StartTime and EndTime".into()
        )
    );
    assert_eq!(
        fails(&format!("{ACCEPTOR}StartDay=Mon\n")),
        (
            Some(1),
            Some("EndDay".into()),
            "missing: StartDay needs it".into()
        )
    );
    assert_eq!(
        fails(&format!("{ACCEPTOR}EndDay=Mon\n")),
        (
            Some(1),
            Some("StartDay".into()),
            "missing: EndDay needs it".into()
        )
    );
    assert_eq!(
        fails(&format!(
            "{ACCEPTOR}Weekdays=Mon\nStartDay=Mon\nEndDay=Tue\n"
        )),
        (
            Some(10),
            Some("StartDay".into()),
            "StartDay and EndDay cannot be used with Weekdays".into()
        )
    );
    assert_eq!(
        warned(&format!("{ACCEPTOR}NonStopSession=Y\n")),
        [
            (
                Some(7),
                Some("StartTime".into()),
                "ignored: not used with NonStopSession=Y".into()
            ),
            (
                Some(8),
                Some("EndTime".into()),
                "ignored: not used with NonStopSession=Y".into()
            )
        ]
    );
    assert!(
        one(&format!("{ACCEPTOR}NonStopSession=Y\n"))
            .schedule
            .is_non_stop()
    );
    // From [DEFAULT], a schedule is passed over by a non-stop session.
    assert!(
        one(&format!(
            "[DEFAULT]\nStartTime=08:00:00\nEndTime=17:00:00\n{base}NonStopSession=Y\n"
        ))
        .schedule
        .is_non_stop()
    );
}

#[test]
fn bad_values_name_line_and_key() {
    let cases: &[(&str, &str, &str)] = &[
        (
            "HeartBtInt=abc",
            "HeartBtInt",
            r#""abc" is not a number of seconds"#,
        ),
        (
            "HeartBtInt=-1",
            "HeartBtInt",
            r#""-1" is not a number of seconds"#,
        ),
        (
            "HeartBtInt=0",
            "HeartBtInt",
            r#""0" is not a number of seconds above 0"#,
        ),
        (
            "HeartBtInt=99999999999",
            "HeartBtInt",
            r#""99999999999" is not a number of seconds"#,
        ),
        // QuickFIX/J's stepped intervals: refused, not read as a fixed one.
        (
            "ReconnectInterval=5x2;30",
            "ReconnectInterval",
            r#""5x2;30" is not a number of seconds"#,
        ),
        (
            "LogonTimeout=1.5",
            "LogonTimeout",
            r#""1.5" is not a number of seconds"#,
        ),
        (
            "LogoutTimeout=0",
            "LogoutTimeout",
            r#""0" is not a number of seconds above 0"#,
        ),
        (
            "MaxLatency=x",
            "MaxLatency",
            r#""x" is not a number of seconds"#,
        ),
        ("ResetOnLogon=yes", "ResetOnLogon", r#""yes" is not Y or N"#),
        // QuickFIX/Go's lower-case y and n are read; words are not.
        (
            "ResetOnLogout=true",
            "ResetOnLogout",
            r#""true" is not Y or N"#,
        ),
        (
            "ResetOnDisconnect=",
            "ResetOnDisconnect",
            r#""" is not Y or N"#,
        ),
        (
            "PersistMessages=1",
            "PersistMessages",
            r#""1" is not Y or N"#,
        ),
        (
            "CheckLatency=true",
            "CheckLatency",
            r#""true" is not Y or N"#,
        ),
        (
            "UseDataDictionary=NO",
            "UseDataDictionary",
            r#""NO" is not Y or N"#,
        ),
        (
            "ValidateFieldsOutOfOrder=X",
            "ValidateFieldsOutOfOrder",
            r#""X" is not Y or N"#,
        ),
        (
            "ResendRequestChunkSize=-5",
            "ResendRequestChunkSize",
            r#""-5" is not a number of messages"#,
        ),
        (
            "SocketConnectPort=70000",
            "SocketConnectPort",
            r#""70000" is not a port number from 1 to 65535"#,
        ),
        (
            "SocketConnectPort=0",
            "SocketConnectPort",
            r#""0" is not a port number from 1 to 65535"#,
        ),
        (
            "SocketConnectHost=my host",
            "SocketConnectHost",
            r#""my host" is not a host name or IP address"#,
        ),
        (
            "StartTime=8:00:00",
            "StartTime",
            r#""8:00:00" is not a time of day as HH:MM:SS, optionally followed by a time zone"#,
        ),
        (
            "EndTime=24:00:00",
            "EndTime",
            r#""24:00:00" is not a time of day as HH:MM:SS, optionally followed by a time zone"#,
        ),
        (
            "EndTime=17:00:00 Eastern/Nowhere",
            "EndTime",
            r#""17:00:00 Eastern/Nowhere" is not a time of day as HH:MM:SS, optionally followed by a time zone"#,
        ),
        (
            "TimeZone=America/New_Yrok",
            "TimeZone",
            r#""America/New_Yrok" is not a time zone: UTC, an offset such as -05:00, or a name of the IANA database such as America/New_York"#,
        ),
        (
            "TimeZone=+25:00",
            "TimeZone",
            r#""+25:00" is not a time zone: UTC, an offset such as -05:00, or a name of the IANA database such as America/New_York"#,
        ),
        (
            "Weekdays=Mon,Funday",
            "Weekdays",
            r#""Mon,Funday" is not a list of days of the week, such as Mon,Tue,Wed"#,
        ),
        ("FileLogPath=", "FileLogPath", r#""" is not a path"#),
        (
            "FileStorePath=${HOME}/store",
            "FileStorePath",
            r#""${HOME}/store" is not supported: variables (${...}) are not substituted; write the value itself"#,
        ),
    ];
    for (line, key, message) in cases {
        // The session's own value of the key is replaced by the bad one, last.
        let mut text: String = INITIATOR
            .lines()
            .filter(|l| !l.starts_with(&format!("{key}=")))
            .map(|l| format!("{l}\n"))
            .collect();
        text.push_str(line);
        text.push('\n');
        let got = fails(&text);
        assert_eq!(
            (got.1.as_deref(), got.2.as_str()),
            (Some(*key), *message),
            "{line}"
        );
        assert_eq!(got.0, Some(text.lines().count()), "{line}");
    }
    let (line, key, msg) = fails(&format!("{ACCEPTOR}StartDay=T\nEndDay=Fri\n"));
    assert_eq!(
        (line, key.as_deref(), msg.as_str()),
        (
            Some(9),
            Some("StartDay"),
            r#""T" is not a day of the week (Sunday to Saturday, or its first two letters or more)"#
        )
    );
    let tls_acceptor = format!(
        "{ACCEPTOR}SocketUseSSL=Y\nServerCertificateFile=s\nCertificationAuthoritiesFile=ca\n"
    );
    let (line, key, msg) = fails(&format!("{tls_acceptor}CertificateVerifyLevel=3\n"));
    assert_eq!(
        (line, key.as_deref(), msg.as_str()),
        (
            Some(12),
            Some("CertificateVerifyLevel"),
            r#""3" is not 0 (no client certificate), 1 (a client certificate is required) or 2 (one is verified when given)"#
        )
    );
    let (_, key, msg) = fails(&format!(
        "{tls_acceptor}CertificateVerifyLevel=2\nNeedClientAuth=Y\n"
    ));
    assert_eq!(
        (key.as_deref(), msg.as_str()),
        (
            Some("CertificateVerifyLevel"),
            "NeedClientAuth, QuickFIX/J's name for it, says otherwise: give one of the two"
        )
    );
    let (_, key, msg) = fails(&format!(
        "{INITIATOR}SocketUseSSL=Y\nCertificationAuthoritiesFile=ca\nSNIHostName=fix example\n"
    ));
    assert_eq!(
        (key.as_deref(), msg.as_str()),
        (
            Some("SNIHostName"),
            r#""fix example" is not a host name or IP address"#
        )
    );
    let (line, key, msg) = fails(&ACCEPTOR.replace("acceptor", "server"));
    assert_eq!(
        (line, key.as_deref(), msg.as_str()),
        (
            Some(2),
            Some("ConnectionType"),
            r#""server" is not initiator or acceptor"#
        )
    );
    let (_, key, msg) = fails(&ACCEPTOR.replace("FIX.4.4", "FIX.4.5"));
    assert_eq!(
        (key.as_deref(), msg.as_str()),
        (
            Some("BeginString"),
            r#""FIX.4.5" is not FIX.4.0, FIX.4.1, FIX.4.2, FIX.4.3, FIX.4.4 or FIXT.1.1"#
        )
    );
    let (line, key, _) = fails(&ACCEPTOR.replace("FIX.4.4", "FIXT.1.1"));
    assert_eq!((line, key.as_deref()), (Some(1), Some("DefaultApplVerID")));
    let (line, key, msg) = fails(&format!(
        "{}DefaultApplVerID=FIX.9\n",
        ACCEPTOR.replace("FIX.4.4", "FIXT.1.1")
    ));
    assert_eq!(
        (line, key.as_deref(), msg.as_str()),
        (
            Some(9),
            Some("DefaultApplVerID"),
            r#""FIX.9" is not an ApplVerID (a code such as 9, or a name such as FIX.5.0SP2)"#
        )
    );
}

#[test]
fn missing_settings_name_the_session_line() {
    // Without ConnectionType, a session whose ports say its role takes it
    // (QuickFIX/Go's files have none); one whose ports do not is an error.
    let no_type = INITIATOR.replace("ConnectionType=initiator\n", "");
    assert_eq!(one(&no_type).session.role, Role::Initiator);
    assert_eq!(
        warned(&no_type),
        [(
            Some(1),
            Some("ConnectionType".into()),
            "missing: the session is taken as an initiator, as its SocketConnectHost/SocketConnectPort says (QuickFIX/Go's files have no ConnectionType)".into()
        )]
    );
    assert_eq!(
        fails(&format!("\n{no_type}SocketAcceptPort=1\n")),
        (
            Some(2),
            Some("ConnectionType".into()),
            "missing: every session is an initiator or an acceptor".into()
        )
    );
    let cases = [
        ("BeginString", "missing: it is part of the session ID"),
        ("SenderCompID", "missing: it is part of the session ID"),
        ("TargetCompID", "missing: it is part of the session ID"),
        ("HeartBtInt", "missing: an initiator sends it in its Logon"),
        (
            "SocketConnectHost",
            "missing: each SocketConnectPort needs its SocketConnectHost",
        ),
        (
            "SocketConnectPort",
            "missing: each SocketConnectHost needs its SocketConnectPort",
        ),
    ];
    for (key, message) in cases {
        let text: String = format!("\n\n{INITIATOR}")
            .lines()
            .filter(|l| !l.starts_with(&format!("{key}=")))
            .map(|l| format!("{l}\n"))
            .collect();
        let (line, k, m) = fails(&text);
        assert_eq!((k.as_deref(), m.as_str()), (Some(key), message));
        let expected = if key.starts_with("SocketConnect") {
            text.lines()
                .position(|l| l.starts_with("SocketConnect"))
                .unwrap()
                + 1
        } else {
            3
        };
        assert_eq!(line, Some(expected), "{key}");
    }
    let no_endpoint: String = INITIATOR
        .lines()
        .filter(|l| !l.starts_with("SocketConnect"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        fails(&no_endpoint),
        (
            Some(1),
            Some("SocketConnectHost".into()),
            "missing: an initiator needs a host to connect to".into()
        )
    );
    let no_port = ACCEPTOR.replace("SocketAcceptPort=5001\n", "");
    assert_eq!(
        fails(&no_port),
        (
            Some(1),
            Some("SocketAcceptPort".into()),
            "missing: an acceptor needs a port to listen on".into()
        )
    );
    let gap = format!("{INITIATOR}SocketConnectHost2=b\nSocketConnectPort2=2\n");
    assert_eq!(
        fails(&gap),
        (
            Some(11),
            Some("SocketConnectHost1".into()),
            "missing: failover hosts and ports are numbered from 1 without gaps".into()
        )
    );
    let tls = format!("{ACCEPTOR}SocketUseSSL=Y\n");
    assert_eq!(
        fails(&tls),
        (
            Some(1),
            Some("ServerCertificateFile".into()),
            "missing: an acceptor with SocketUseSSL=Y presents a certificate".into()
        )
    );
    let key = format!(
        "{INITIATOR}SocketUseSSL=Y\nClientCertificateKeyFile=c.key\nCertificationAuthoritiesFile=ca\n"
    );
    assert_eq!(
        fails(&key),
        (
            Some(1),
            Some("ClientCertificateFile".into()),
            "missing: the key needs its certificate".into()
        )
    );
    // An initiator without certificate authorities of its own checks
    // against the system's, as QuickFIX does.
    let system = Settings::parse("t.cfg", &format!("{INITIATOR}SocketUseSSL=Y\n")).unwrap();
    let tls = system.sessions()[0].tls.as_ref().unwrap();
    assert_eq!(tls.ca_file, None);
    assert!(tls.verify_certificates);
    // Clients' certificates asked for but not checked need no authority.
    let unchecked = Settings::parse(
        "t.cfg",
        &format!(
            "{ACCEPTOR}SocketUseSSL=Y\nServerCertificateFile=s\nCertificateVerifyLevel=1\nSSLValidateCertificates=N\n"
        ),
    )
    .unwrap();
    let tls = unchecked.sessions()[0].tls.as_ref().unwrap();
    assert!(!tls.verify_certificates);
    assert_eq!(tls.client_auth, fix_engine::config::ClientAuth::Required);
    for verify in [
        "NeedClientAuth=Y",
        "CertificateVerifyLevel=1",
        "CertificateVerifyLevel=2",
    ] {
        let auth = format!(
            "{ACCEPTOR}SocketUseSSL=Y\nServerCertificateFile=s\nServerCertificateKeyFile=k\n{verify}\n"
        );
        assert_eq!(
            fails(&auth),
            (
                Some(1),
                Some("CertificationAuthoritiesFile".into()),
                "missing: an acceptor that verifies clients checks their certificates against it"
                    .into()
            ),
            "{verify}"
        );
    }
    assert_eq!(
        fails("# only comments\n\n"),
        (None, None, "no [SESSION] section".into())
    );
}

#[test]
fn keys_for_the_other_side_are_warnings_in_the_session_and_passed_over_from_default() {
    let cases = [
        (ACCEPTOR, "HeartBtInt=30", "only an initiator uses it"),
        (
            ACCEPTOR,
            "ReconnectInterval=30",
            "only an initiator uses it",
        ),
        (ACCEPTOR, "SocketConnectHost=h", "only an initiator uses it"),
        (
            ACCEPTOR,
            "SendResetSeqNumFlag=Y",
            "only an initiator uses it",
        ),
        (
            ACCEPTOR,
            "SessionQualifier=Q",
            "only an initiator session can have a qualifier",
        ),
        (
            INITIATOR,
            "SocketAcceptPort=5001",
            "only an acceptor uses it",
        ),
        (
            INITIATOR,
            "SocketAcceptAddress=0.0.0.0",
            "only an acceptor uses it",
        ),
        (INITIATOR, "AcceptorTemplate=N", "only an acceptor uses it"),
        (
            INITIATOR,
            "DefaultApplVerID=9",
            "only a FIXT.1.1 session uses it",
        ),
        (
            INITIATOR,
            "TransportDataDictionary=t.xml",
            "only a FIXT.1.1 session uses it",
        ),
        (
            INITIATOR,
            "ServerCertificateFile=s",
            "only an acceptor uses it",
        ),
        (
            ACCEPTOR,
            "ServerCertificateFile=s",
            "only used with SocketUseSSL=Y",
        ),
        (
            ACCEPTOR,
            "CertificationAuthoritiesFile=ca",
            "only used with SocketUseSSL=Y",
        ),
        (
            ACCEPTOR,
            "CertificationAuthoritiesFile=ca\nSocketUseSSL=Y\nServerCertificateFile=s",
            "an acceptor reads it only to verify clients (CertificateVerifyLevel=1 or 2)",
        ),
        (
            ACCEPTOR,
            "CertificationAuthoritiesFile=ca\nSocketUseSSL=Y\nServerCertificateFile=s\nCertificateVerifyLevel=0",
            "an acceptor reads it only to verify clients (CertificateVerifyLevel=1 or 2)",
        ),
        (
            INITIATOR,
            "CertificateVerifyLevel=1\nSocketUseSSL=Y\nCertificationAuthoritiesFile=ca",
            "only an acceptor uses it",
        ),
        (
            ACCEPTOR,
            "SNIHostName=x\nSocketUseSSL=Y\nServerCertificateFile=s",
            "only an initiator uses it",
        ),
        (
            ACCEPTOR,
            "MaxLatency=5\nCheckLatency=N",
            "not used with CheckLatency=N",
        ),
        (ACCEPTOR, "FileStoreSync=Y", "only used with FileStorePath"),
        (
            ACCEPTOR,
            "DataDictionary=d.xml\nUseDataDictionary=N",
            "not used with UseDataDictionary=N",
        ),
        (
            ACCEPTOR,
            "ValidateUserDefinedFields=N\nUseDataDictionary=N",
            "not used with UseDataDictionary=N",
        ),
    ];
    for (base, extra, reason) in cases {
        // In the session's own section: ignored, with a warning at its line.
        let text = format!("{base}{extra}\n");
        let first = extra.split('=').next().unwrap();
        let warnings = warned(&text);
        assert_eq!(
            warnings,
            [(
                Some(base.lines().count() + 1),
                Some(first.to_owned()),
                format!("ignored: {reason}")
            )],
            "{extra}"
        );
        // In [DEFAULT] the first key is passed over silently (the switch stays in the session).
        let (setting, rest) = extra.split_once('\n').unwrap_or((extra, ""));
        let text = format!("[DEFAULT]\n{setting}\n{base}{rest}\n");
        assert_eq!(warned(&text), [], "{extra}");
    }
    // A value that does not apply must still be a value.
    assert_eq!(
        fails(&format!("{ACCEPTOR}HeartBtInt=soon\n")).2,
        r#""soon" is not a number of seconds"#
    );
    // From code, a setting that does not apply is an error.
    let err = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
        .socket_accept_port(5001)
        .heart_bt_int(30)
        .build()
        .unwrap_err();
    assert_eq!(err.to_string(), "HeartBtInt: only an initiator uses it");
}

#[test]
fn inheritance_from_default() {
    let text = "[DEFAULT]\nConnectionType=acceptor\nSocketAcceptPort=5001\nSenderCompID=EXEC\nStartTime=00:00:00\nEndTime=00:00:00\nResetOnLogon=Y\nHeartBtInt=20\n\
                [SESSION]\nBeginString=FIX.4.4\nTargetCompID=C1\n\
                [SESSION]\nBeginString=FIX.4.2\nTargetCompID=C2\nResetOnLogon=N\n\
                [SESSION]\nConnectionType=initiator\nBeginString=FIX.4.4\nTargetCompID=V\nSocketConnectHost=h\nSocketConnectPort=1\n";
    let s = Settings::parse("s.cfg", text).unwrap();
    let [a, b, c] = s.sessions() else { panic!() };
    assert_eq!(a.session.id, SessionId::new("FIX.4.4", "EXEC", "C1"));
    assert!(a.session.reset_on_logon);
    assert!(!b.session.reset_on_logon, "the session's own value wins");
    assert_eq!(c.session.role, Role::Initiator);
    assert_eq!(
        c.session.heart_bt_int, 20,
        "HeartBtInt from [DEFAULT], for the initiator only"
    );
    assert_eq!(a.session.heart_bt_int, 30);
    // A bad default is an error even where no session uses it.
    let bad = "[DEFAULT]\nReconnectInterval=soon\n".to_owned() + ACCEPTOR;
    assert_eq!(
        fails(&bad),
        (
            Some(2),
            Some("ReconnectInterval".into()),
            r#""soon" is not a number of seconds"#.into()
        )
    );
}

#[test]
fn syntax_errors() {
    assert_eq!(
        fails("HeartBtInt=30\n[SESSION]\n"),
        (
            Some(1),
            Some("HeartBtInt".into()),
            "comes before any [DEFAULT] or [SESSION] section".into()
        )
    );
    assert_eq!(
        fails("[SESSION]\njust text\n"),
        (
            Some(2),
            None,
            r#""just text" is not a [SECTION] header, a Key=Value setting or a # comment"#.into()
        )
    );
    assert_eq!(
        fails("[SESSION\n"),
        (
            Some(1),
            None,
            r#""[SESSION" is not a [SECTION] header, a Key=Value setting or a # comment"#.into()
        )
    );
    assert_eq!(
        fails("[SESSION]\n=5\n"),
        (
            Some(2),
            None,
            r#""=5" is not a [SECTION] header, a Key=Value setting or a # comment"#.into()
        )
    );
    // An unknown section is skipped, its settings with it.
    assert_eq!(
        warned(&format!("[SESSIONS]\nHeartBtInt=oops\nFoo=1\n{ACCEPTOR}")),
        [(
            Some(1),
            None,
            "[SESSIONS] is not a section QuickFIX reads ([DEFAULT] and [SESSION] are): its settings are ignored".into()
        )]
    );
    assert_eq!(
        fails("[DEFAULT]\n\n[DEFAULT]\n"),
        (
            Some(3),
            None,
            "a second [DEFAULT] section (the first is at line 1)".into()
        )
    );
    // A slip from a known key, or a family's bad number, is the application's
    // key, with a warning naming the key likely meant.
    assert_eq!(
        warned(&format!("{INITIATOR}HeartBeatInt=30\n")),
        [(
            Some(11),
            Some("HeartBeatInt".into()),
            "not a setting QuickFIX or this engine knows: kept for the application (application_keys); did you mean HeartBtInt?".into()
        )]
    );
    assert_eq!(
        warned(&format!("{INITIATOR}SocketConnectHost0=h\n"))[0].2,
        "not a setting QuickFIX or this engine knows: kept for the application (application_keys); did you mean SocketConnectHost1?"
    );
    assert_eq!(
        warned(&format!("{ACCEPTOR}forceresendwhencorruptedstore=Y\n")),
        [(
            Some(9),
            Some("ForceResendWhenCorruptedStore".into()),
            r#""Y" is not applied yet (needs the store (fix-session)): a damaged store refuses to open"#.into()
        )]
    );
    // A Java key store is read as PKCS#12; a JKS type is refused, naming
    // the keytool command that converts it.
    let message = fails(&format!("{ACCEPTOR}KeyStoreType=JKS\n")).2;
    assert!(
        message.contains(
            "only PKCS#12 stores are read: convert a JKS or JCEKS store to PKCS#12 with keytool -importkeystore -srckeystore FILE -destkeystore FILE.p12 -deststoretype pkcs12"
        ),
        "{message}"
    );
    assert_eq!(
        fails(&format!("{ACCEPTOR}MySQLStoreHost=db\n"))
            .1
            .as_deref(),
        Some("MySQLStoreHost")
    );
    // The last of a repeated key wins, as in QuickFIX.
    let twice = format!("{INITIATOR}HeartBtInt=20\nheartbtint=31\n");
    assert_eq!(
        warned(&twice),
        [
            (
                Some(11),
                Some("HeartBtInt".into()),
                "set again (first at line 6): the last value is used".into()
            ),
            (
                Some(12),
                Some("HeartBtInt".into()),
                "set again (first at line 11): the last value is used".into()
            )
        ]
    );
    assert_eq!(one(&twice).session.heart_bt_int, 31);
    let whole = Settings::parse("s.cfg", &format!("{ACCEPTOR}CheakLatency=N\n")).unwrap();
    assert_eq!(
        whole.warnings()[0].to_string(),
        "s.cfg:9: CheakLatency: not a setting QuickFIX or this engine knows: kept for the application (application_keys); did you mean CheckLatency?"
    );
    // Comments, blank lines, spaces, CRLF, a BOM and lower-case keys are fine.
    let loose = format!(
        "\u{feff}# c\r\n\r\n  [ session ]  \r\n{}",
        ACCEPTOR
            .replace("[SESSION]\n", "")
            .replace('\n', "  \r\n")
            .replace("SocketAcceptPort=", "  socketacceptport =  ")
    );
    assert_eq!(one(&loose).session.id.target_comp_id, "C1");
}

#[test]
fn duplicate_sessions_name_both_lines() {
    let text = format!("{ACCEPTOR}\n{ACCEPTOR}");
    let e = err(&text);
    assert_eq!(e.line(), Some(10));
    assert_eq!(
        e.to_string(),
        "s.cfg:10: session FIX.4.4:EXEC->C1 is defined twice (first at line 1)"
    );
    // A qualifier tells two initiator sessions apart.
    let two = format!("{INITIATOR}SessionQualifier=A\n{INITIATOR}SessionQualifier=B\n");
    assert_eq!(Settings::parse("s.cfg", &two).unwrap().sessions().len(), 2);
}

#[test]
fn sessions_on_one_port_share_its_listener() {
    let second = ACCEPTOR.replace("C1", "C2");
    let s = Settings::parse(
        "s.cfg",
        &format!(
            "{ACCEPTOR}{second}{}",
            ACCEPTOR.replace("C1", "C3").replace("5001", "5002")
        ),
    )
    .unwrap();
    let listeners = s.listeners();
    assert_eq!(listeners.len(), 2);
    assert_eq!((listeners[0].port, listeners[0].sessions.len()), (5001, 2));
    let tls = format!(
        "{ACCEPTOR}{second}SocketUseSSL=Y\nServerCertificateFile=s\nServerCertificateKeyFile=k\n"
    );
    assert_eq!(
        err(&tls).to_string(),
        "s.cfg:9: SocketUseSSL: differs from session FIX.4.4:EXEC->C1 (line 1), which listens on the same SocketAcceptPort 5001: sessions on one port share its listener"
    );
    let address = format!("{ACCEPTOR}{second}SocketAcceptAddress=127.0.0.1\n");
    assert_eq!(err(&address).key(), Some("SocketAcceptAddress"));
}

#[test]
fn acceptor_templates_match_wildcards() {
    let text = "[DEFAULT]\nConnectionType=acceptor\nSocketAcceptPort=5001\nNonStopSession=Y\n\
                [SESSION]\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\n\
                [SESSION]\nAcceptorTemplate=Y\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=*\nResetOnLogon=Y\n\
                [SESSION]\nAcceptorTemplate=Y\nBeginString=*\nSenderCompID=*\nTargetCompID=*\n";
    let s = Settings::parse("s.cfg", text).unwrap();
    assert_eq!((s.sessions().len(), s.templates().len()), (1, 2));
    let id = SessionId::new("FIX.4.4", "EXEC", "NEWCLIENT");
    let t = s.template_for(&id).unwrap();
    assert_eq!(t.pattern(), &SessionId::new("FIX.4.4", "EXEC", "*"));
    let made = t.session_for(&id).unwrap();
    assert!(made.session.reset_on_logon && !made.acceptor_template);
    assert_eq!(made.session.id, id);
    let other = SessionId::new("FIX.4.2", "OTHER", "X");
    assert_eq!(s.template_for(&other).unwrap().pattern().begin_string, "*");
    let mut qualified = id.clone();
    qualified.qualifier = Some("Q".into());
    assert!(s.templates().iter().all(|t| !t.matches(&qualified)));
    assert_eq!(s.listeners()[0].templates.len(), 2);
    // `*` outside a template.
    let e = err(&ACCEPTOR.replace("TargetCompID=C1", "TargetCompID=*"));
    assert_eq!(
        e.to_string(),
        "s.cfg:5: TargetCompID: * matches any value only in a session with AcceptorTemplate=Y"
    );
    assert_eq!(e.kind(), &ErrorKind::Wildcard);
}

#[test]
fn the_builder_makes_what_the_file_makes() {
    let from_file = initiator(
        "ReconnectInterval=5\nResetOnLogon=Y\nFileStorePath=store\nFileLogPath=log\nDataDictionary=FIX44.xml\nValidateUserDefinedFields=N\nMaxLatency=30\nStartDay=Mon\nEndDay=Fri\nTimeZone=+01:00\nSocketConnectHost1=backup\nSocketConnectPort1=5002\n",
    );
    let from_code = SessionBuilder::initiator(SessionId::new("FIX.4.4", "C1", "EXEC"))
        .heart_bt_int(30)
        .socket_connect("localhost", 5001)
        .socket_connect("backup", 5002)
        .reconnect_interval(Duration::from_secs(5))
        .reset_on_logon(true)
        .file_store_path("store")
        .file_log_path("log")
        .data_dictionary("FIX44.xml")
        .validate_user_defined_fields(false)
        .max_latency(Duration::from_secs(30))
        .schedule(
            Schedule::weekly(
                Weekday::Monday,
                TimeOfDay::MIDNIGHT,
                Weekday::Friday,
                TimeOfDay::MIDNIGHT,
            )
            .in_zone(UtcOffset::parse("+01:00").unwrap()),
        )
        .build()
        .unwrap();
    // SessionConfig has no PartialEq (its parser holds a table reference); its
    // Debug output shows every field.
    assert_eq!(semantic(&from_file), semantic(&from_code));

    let acceptor_file = one(
        "[SESSION]\nConnectionType=acceptor\nBeginString=FIXT.1.1\nSenderCompID=E\nTargetCompID=C\nSocketAcceptPort=7\nNonStopSession=Y\nDefaultApplVerID=9\nAppDataDictionary=a.xml\nSocketUseSSL=Y\nServerCertificateFile=s\nServerCertificateKeyFile=k\nPersistMessages=N\n",
    );
    let acceptor_code = SessionBuilder::acceptor(SessionId::new("FIXT.1.1", "E", "C"))
        .socket_accept_port(7)
        .schedule(Schedule::non_stop())
        .default_appl_ver_id("9")
        .app_data_dictionary("9", "a.xml")
        .socket_use_ssl(true)
        .certificate("s")
        .private_key("k")
        .persist_messages(false)
        .build()
        .unwrap();
    assert_eq!(semantic(&acceptor_file), semantic(&acceptor_code));
    assert!(Settings::new([acceptor_code]).is_ok());
}

#[test]
fn the_samples_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../samples");
    let executor = Settings::from_path(root.join("executor.cfg")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (executor.sessions().len(), executor.templates().len()),
        (1, 1)
    );
    assert!(
        executor
            .sessions()
            .iter()
            .all(|s| s.session.role == Role::Acceptor)
    );
    assert_eq!(executor.listeners().len(), 1);
    let client =
        Settings::from_path(root.join("tradeclient.cfg")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(client.sessions().len(), 1);
    let Transport::Initiator(t) = &client.sessions()[0].transport else {
        panic!()
    };
    assert_eq!(t.endpoints.len(), 2);
}

#[test]
fn files_that_cannot_be_read() {
    let dir = TestDir::new("engine-settings");
    let path = dir.join("latin1.cfg");
    std::fs::write(&path, b"[SESSION]\n# caf\xe9\n").unwrap();
    let e = Settings::from_path(&path).unwrap_err();
    assert_eq!((e.line(), e.kind()), (Some(2), &ErrorKind::NotUtf8));
    let e = Settings::from_path(dir.join("absent.cfg")).unwrap_err();
    assert!(matches!(
        e.kind(),
        ErrorKind::Read {
            error: std::io::ErrorKind::NotFound,
            ..
        }
    ));
}

mod arbitrary {
    use super::*;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = String> {
        let keys = prop::sample::select(vec![
            "ConnectionType",
            "BeginString",
            "SenderCompID",
            "TargetCompID",
            "SessionQualifier",
            "HeartBtInt",
            "SocketAcceptPort",
            "SocketConnectHost",
            "SocketConnectPort",
            "SocketConnectHost1",
            "SocketConnectPort1",
            "SocketConnectHost3",
            "StartTime",
            "EndTime",
            "StartDay",
            "EndDay",
            "Weekdays",
            "TimeZone",
            "NonStopSession",
            "AcceptorTemplate",
            "DefaultApplVerID",
            "AppDataDictionary",
            "AppDataDictionary.FIX.4.4",
            "SocketUseSSL",
            "ServerCertificateFile",
            "ServerCertificateKeyFile",
            "NeedClientAuth",
            "CertificateVerifyLevel",
            "SNIHostName",
            "CertificationAuthoritiesFile",
            "UseDataDictionary",
            "DataDictionary",
            "CheckLatency",
            "MaxLatency",
            "FileStorePath",
            "FileStoreSync",
            "Foo",
        ]);
        let values = prop::sample::select(vec![
            "acceptor",
            "initiator",
            "FIX.4.4",
            "FIXT.1.1",
            "*",
            "A",
            "B",
            "30",
            "0",
            "5001",
            "localhost",
            "00:00:00",
            "12:00:00",
            "Mon",
            "Fri",
            "Mon,Tue",
            "UTC",
            "+01:00",
            "Y",
            "N",
            "9",
            "f.xml",
            "",
            "${X}",
        ]);
        prop_oneof![
            (keys, values).prop_map(|(k, v)| format!("{k}={v}")),
            Just("[SESSION]".to_owned()),
            Just("[DEFAULT]".to_owned()),
            Just("# comment".to_owned()),
            ".{0,20}",
        ]
    }

    use fix_engine::config::{Otherwise, Support, ValueType, keys};

    /// Keys whose values must agree with other keys' (the session's identity
    /// and role, the schedule, TLS, the machine's time zone, the one store:
    /// the base file has FileStorePath, which the PostgreSQL store's keys
    /// may not join) or that cannot be honoured: the base file gives the
    /// first, the others are errors by design.
    const LEFT_OUT: &[&str] = &[
        "PostgreSQLStoreDatabase",
        "PostgreSQLStoreUser",
        "PostgreSQLStorePassword",
        "PostgreSQLStoreHost",
        "PostgreSQLStorePort",
        "PostgreSQLStoreConnection",
        "ConnectionType",
        "BeginString",
        "SenderCompID",
        "TargetCompID",
        "StartTime",
        "EndTime",
        "StartDay",
        "EndDay",
        "Weekdays",
        "UseLocalTime",
        "SocketUseSSL",
        "AcceptorTemplate",
    ];

    /// A valid value of each type.
    fn valid(ty: ValueType) -> BoxedStrategy<String> {
        let pick = |v: &[&'static str]| {
            prop::sample::select(v.to_vec())
                .prop_map(str::to_owned)
                .boxed()
        };
        match ty {
            ValueType::YesNo => pick(&["Y", "N"]),
            ValueType::Seconds => (1u32..100_000).prop_map(|n| n.to_string()).boxed(),
            ValueType::Count => (0u64..100_000).prop_map(|n| n.to_string()).boxed(),
            ValueType::Port => (1u16..=65535).prop_map(|n| n.to_string()).boxed(),
            ValueType::AcceptPort => (0u16..=65535).prop_map(|n| n.to_string()).boxed(),
            ValueType::Path => pick(&["store", "a/b.xml", "/tmp/x"]),
            ValueType::Host => pick(&["localhost", "10.0.0.1", "fix.example.com"]),
            ValueType::HostList => pick(&["localhost", "10.0.0.1, 10.0.0.2"]),
            ValueType::TagValue => pick(&["553=user", "554=pass word"]),
            ValueType::Name => pick(&["A1", "BANZAI", "Q"]),
            ValueType::Text => pick(&["x", "1,2,F", "MILLIS", ""]),
            ValueType::TimeOfDay => pick(&["00:00:00", "23:59:59 UTC"]),
            ValueType::Day => pick(&["Mon", "sunday"]),
            ValueType::Days => pick(&["Mon,Tue", "Fri"]),
            ValueType::Zone => pick(&["UTC", "+01:00", "America/New_York"]),
            ValueType::VerifyLevel => pick(&["0", "1", "2"]),
            ValueType::ApplVerId => pick(&["9", "FIX.5.0SP2"]),
            ValueType::BeginString => pick(&["FIX.4.4"]),
            ValueType::TimePrecision => pick(&["MILLIS", "nanos", "6", "0"]),
            ValueType::QueuedWhileDown => pick(&["WAIT", "drop", "Drop"]),
            _ => pick(&["acceptor"]),
        }
    }

    /// A known key (or one of its other names, in any case) with a valid
    /// value, for a key the engine can honour.
    fn known_line() -> impl Strategy<Value = String> {
        let usable: Vec<_> = keys()
            .iter()
            .filter(|k| !LEFT_OUT.contains(&k.name))
            .filter(|k| !matches!(k.support, Support::Refused(_) | Support::DatabaseStore))
            .collect();
        prop::sample::select(usable).prop_flat_map(|k| {
            let names: Vec<&'static str> = std::iter::once(k.name)
                .chain(k.aliases.iter().copied())
                .collect();
            let value = match k.support {
                // A value the engine refuses is an error by design.
                Support::Always {
                    values,
                    otherwise: Otherwise::Refused(_),
                    ..
                } => prop::sample::select(values.to_vec())
                    .prop_map(str::to_owned)
                    .boxed(),
                _ => valid(k.value),
            };
            (prop::sample::select(names), any::<bool>(), value).prop_map(|(name, lower, value)| {
                let name = if lower {
                    name.to_ascii_lowercase()
                } else {
                    name.to_owned()
                };
                format!("{name}={value}")
            })
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Any file of known keys with valid values loads (keys that do not
        /// apply, or that the engine does not apply, are warnings).
        #[test]
        fn known_keys_with_valid_values_load(
            default in prop::collection::vec(known_line(), 0..12),
            own in prop::collection::vec(known_line(), 0..12),
            initiator in any::<bool>(),
        ) {
            let base = if initiator { INITIATOR } else { ACCEPTOR };
            let text = format!("[DEFAULT]\n{}\n{base}{}\n", default.join("\n"), own.join("\n"));
            match Settings::parse("p.cfg", &text) {
                Ok(s) => prop_assert_eq!(s.sessions().len(), 1),
                Err(e) => prop_assert!(false, "{}\n{}", e, text),
            }
        }

        /// Every known key, with any value, in any place: an error or
        /// settings, never a panic.
        #[test]
        fn known_keys_with_any_values_never_panic(
            lines in prop::collection::vec(
                (prop::sample::select(keys().to_vec()), ".{0,12}").prop_map(|(k, v)| format!("{}={v}", k.name)),
                0..20,
            ),
            initiator in any::<bool>(),
        ) {
            let base = if initiator { INITIATOR } else { ACCEPTOR };
            let _ = Settings::parse("p.cfg", &format!("{base}{}\n", lines.join("\n")));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn settings_like_text_never_panics(lines in prop::collection::vec(line(), 0..40)) {
            let text = lines.join("\n");
            if let Err(e) = Settings::parse("p.cfg", &text) {
                prop_assert!(!e.to_string().is_empty());
                if let Some(line) = e.line() {
                    prop_assert!(line >= 1 && line <= lines.len().max(1));
                }
            }
        }

        #[test]
        fn any_text_never_panics(text in any::<String>()) {
            let _ = Settings::parse("p.cfg", &text);
        }
    }
}

#[test]
fn socket_accept_port_0_is_a_port_the_system_picks() {
    let s = acceptor("").clone();
    let zero = one(&ACCEPTOR.replace("SocketAcceptPort=5001", "SocketAcceptPort=0"));
    assert!(matches!(&zero.transport, Transport::Acceptor(a) if a.port == 0));
    assert!(matches!(&s.transport, Transport::Acceptor(a) if a.port == 5001));
    assert_eq!(
        fails(&ACCEPTOR.replace("SocketAcceptPort=5001", "SocketAcceptPort=70000")),
        (
            Some(6),
            Some("SocketAcceptPort".into()),
            r#""70000" is not a port number from 0 (any free port) to 65535"#.into()
        )
    );
    // The builder agrees; an initiator still needs a real port.
    let built = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
        .socket_accept_port(0)
        .schedule(Schedule::non_stop())
        .build()
        .unwrap();
    assert_eq!(built.transport, zero.transport);
    let err = SessionBuilder::initiator(SessionId::new("FIX.4.4", "C1", "EXEC"))
        .heart_bt_int(30)
        .socket_connect("localhost", 0)
        .schedule(Schedule::non_stop())
        .build()
        .unwrap_err();
    assert_eq!(err.key(), Some("SocketConnectPort"));
}

#[test]
fn other_implementations_names_are_read() {
    let a = acceptor(
        "SocketTcpNoDelay=N\nSocketAcceptHost=127.0.0.1\nSocketReuseAddress=N\nMaxMessagesInResendRequest=50\n",
    );
    assert!(!a.tcp_nodelay && !a.reuse_address);
    assert_eq!(a.session.resend_request_chunk_size, 50);
    let Transport::Acceptor(t) = &a.transport else {
        panic!()
    };
    assert_eq!(t.address.as_deref(), Some("127.0.0.1"));
    // QuickFIX/n's and QuickFIX/Go's TLS names, as the acceptor's settings.
    let tls = acceptor(
        "SSLEnable=Y\nSSLCertificate=s.pem\nSocketPrivateKeyFile=s.key\nSSLCACertificate=ca.pem\nSSLRequireClientCertificate=Y\n",
    )
    .tls
    .unwrap();
    assert_eq!(tls.certificate.as_deref(), Some(Path::new("s.pem")));
    assert_eq!(tls.private_key.as_deref(), Some(Path::new("s.key")));
    assert_eq!(tls.ca_file.as_deref(), Some(Path::new("ca.pem")));
    assert_eq!(tls.client_auth, fix_engine::config::ClientAuth::Required);
    // A role's name and its own beside it: the later wins, with a warning.
    let text = format!(
        "{ACCEPTOR}SocketUseSSL=Y\nServerCertificateFile=a.pem\nSocketCertificateFile=b.pem\n"
    );
    assert_eq!(
        one(&text).tls.unwrap().certificate.as_deref(),
        Some(Path::new("b.pem"))
    );
    assert_eq!(
        warned(&text),
        [(
            Some(11),
            Some("ServerCertificateFile".into()),
            "set again (first at line 10): the last value is used".into()
        )]
    );
    // The listener's SO_REUSEADDR is shared by its sessions.
    let second = ACCEPTOR.replace("C1", "C2");
    let e = err(&format!("{ACCEPTOR}{second}SocketReuseAddress=N\n"));
    assert_eq!(e.key(), Some("SocketReuseAddress"));
    assert!(
        Settings::parse("s.cfg", &format!("{ACCEPTOR}{second}"))
            .unwrap()
            .listeners()[0]
            .reuse_address
    );
}

#[test]
fn what_the_engine_does_not_do_is_a_warning_or_an_error() {
    let cases: &[(&str, &str)] = &[
        (
            "ValidateLengthAndChecksum=Y",
            "has no effect: BodyLength and CheckSum are always checked",
        ),
        (
            "ValidateLengthAndChecksum=N",
            r#""N" is not applied yet (needs the parser (fix-core)): BodyLength and CheckSum are always checked"#,
        ),
        (
            "FileStoreMaxCachedMsgs=10000",
            "ignored: the file store keeps its index in memory and reads messages through a mapping",
        ),
        (
            "EnableLastMsgSeqNumProcessed=Y",
            r#""Y" is not applied yet (needs the session core (fix-session)): LastMsgSeqNumProcessed is not sent"#,
        ),
        (
            "HttpAcceptPort=8080",
            "ignored: read from [DEFAULT] only, as it is about the whole engine",
        ),
    ];
    for (line, message) in cases {
        let text = format!("{ACCEPTOR}{line}\n");
        let key = line.split('=').next().unwrap();
        assert_eq!(
            warned(&text),
            [(Some(9), Some(key.to_owned()), (*message).to_owned())],
            "{line}"
        );
        // Kept, readable by the application.
        assert_eq!(
            one(&text).get(key),
            Some(line.split_once('=').unwrap().1),
            "{line}"
        );
    }
    // A value of the wrong type is an error even for a key the engine does not apply.
    assert_eq!(
        fails(&format!("{ACCEPTOR}RefreshOnLogon=yes\n")),
        (
            Some(9),
            Some("RefreshOnLogon".into()),
            r#""yes" is not Y or N"#.into()
        )
    );
    // What cannot be honoured is an error naming it.
    for (line, key) in [
        ("KeyStoreType=JCEKS", "KeyStoreType"),
        ("SocketAcceptProtocol=VM_PIPE", "SocketAcceptProtocol"),
        ("JdbcURL=jdbc:mysql://db/fix", "JdbcURL"),
    ] {
        let (l, k, _) = fails(&format!("{ACCEPTOR}{line}\n"));
        assert_eq!((l, k.as_deref()), (Some(9), Some(key)), "{line}");
    }
    // Warnings from [DEFAULT] are told once, not per session.
    let two = format!(
        "[DEFAULT]\nFileStoreMaxCachedMsgs=10\n{ACCEPTOR}{}",
        ACCEPTOR.replace("C1", "C2")
    );
    assert_eq!(warned(&two).len(), 1);
}

#[test]
fn application_keys_are_kept_with_warnings_and_slips_suggest_the_key() {
    let text = format!(
        "[DEFAULT]\nUsername=u0\nPassword=p0\n{ACCEPTOR}Username=u1\nAccount=ACC-1\n{}",
        ACCEPTOR.replace("C1", "C2")
    );
    let s = Settings::parse("s.cfg", &text).unwrap();
    let unknown: Vec<_> = s.warnings().iter().map(|w| (w.line(), w.key())).collect();
    assert_eq!(
        unknown,
        [
            (Some(2), Some("Username")),
            (Some(3), Some("Password")),
            (Some(12), Some("Username")),
            (Some(13), Some("Account"))
        ]
    );
    assert_eq!(
        s.strict().unwrap_err().to_string(),
        "s.cfg:2: Username: not a setting QuickFIX or this engine knows: kept for the application (application_keys) (refused by strict loading: correct the line, or load without --strict)"
    );
    let c1 = SessionId::new("FIX.4.4", "EXEC", "C1");
    let c2 = SessionId::new("FIX.4.4", "EXEC", "C2");
    assert_eq!(s.get(&c1, "Username"), Some("u1"));
    assert_eq!(s.get(&c2, "username"), Some("u0"));
    assert_eq!(s.get(&c1, "Password"), Some("p0"));
    assert_eq!(s.get(&c1, "Account"), Some("ACC-1"));
    assert_eq!(s.get(&c2, "Account"), None);
    assert_eq!(s.get(&c1, "HeartBtInt"), None);
    assert_eq!(s.get(&c1, "SocketAcceptPort"), Some("5001"));
    assert_eq!(
        s.get(&SessionId::new("FIX.4.4", "EXEC", "C3"), "Username"),
        None
    );
    assert_eq!(s.default_value("PASSWORD"), Some("p0"));
    for (written, meant) in [
        ("CheakLatency", "CheckLatency"),
        ("ResetOnLogin", "ResetOnLogon"),
        ("SocketConectHost", "SocketConnectHost"),
        ("filestorepth", "FileStorePath"),
        ("Weekday", "Weekdays"),
    ] {
        let text = format!("{ACCEPTOR}{written}=Y\n");
        let (_, key, message) = warned(&text).remove(0);
        assert_eq!(key.as_deref(), Some(written));
        assert!(
            message.ends_with(&format!("did you mean {meant}?")),
            "{message}"
        );
        let s = Settings::parse("s.cfg", &text).unwrap();
        let keys = s.sessions()[0].application_keys();
        assert_eq!(keys.get(written), Some(&"Y"));
    }
    let c2_keys = s.session(&c2).unwrap().application_keys();
    assert_eq!(
        c2_keys.into_iter().collect::<Vec<_>>(),
        [("Password", "p0"), ("Username", "u0")]
    );
}

#[test]
fn file_include_milliseconds_sets_the_logs_precision() {
    use fix_core::value::Precision;
    let default = acceptor("FileLogPath=lg\n");
    assert_eq!(default.log_options.timestamp_precision(), Precision::Millis);
    let seconds = acceptor("FileLogPath=lg\nFileIncludeMilliseconds=N\n");
    assert_eq!(
        seconds.log_options.timestamp_precision(),
        Precision::Seconds
    );
    assert_eq!(
        warned(&format!("{ACCEPTOR}FileIncludeMilliseconds=N\n")),
        [(
            Some(9),
            Some("FileIncludeMilliseconds".into()),
            "ignored: only used with FileLogPath".into()
        )]
    );
}

#[test]
fn socket_options_are_read_and_shared_by_a_listener() {
    let i = initiator(
        "SocketSendBufferSize=65536\nReceiveBufferSize=131072\nSocketKeepAlive=Y\nSocketLocalHost=10.0.0.5\nSocketConnectSourcePort=40000\n",
    );
    assert_eq!(
        i.socket,
        fix_engine::config::SocketOptions {
            send_buffer_size: Some(65536),
            receive_buffer_size: Some(131072),
            keepalive: Some(true),
            local_host: Some("10.0.0.5".into()),
            local_port: Some(40000),
        }
    );
    assert_eq!(acceptor("").socket, Default::default());
    assert_eq!(
        fails(&format!("{ACCEPTOR}SocketSendBufferSize=99999999999\n")),
        (
            Some(9),
            Some("SocketSendBufferSize".into()),
            r#""99999999999" is not a number of bytes below 4 GiB"#.into()
        )
    );
    // An initiator's local address does not apply to an acceptor.
    assert_eq!(
        warned(&format!("{ACCEPTOR}SocketConnectSourcePort=40000\n")),
        [(
            Some(9),
            Some("SocketConnectSourcePort".into()),
            "ignored: only an initiator uses it".into()
        )]
    );
    let second = ACCEPTOR.replace("C1", "C2");
    let e = err(&format!("{ACCEPTOR}{second}SocketKeepAlive=Y\n"));
    assert_eq!(e.key(), Some("SocketKeepAlive"));
    let both = format!("{ACCEPTOR}SocketKeepAlive=Y\n{second}SocketKeepAlive=Y\n");
    assert_eq!(
        Settings::parse("s.cfg", &both).unwrap().listeners()[0]
            .socket
            .keepalive,
        Some(true)
    );
}

#[test]
fn allowed_remote_addresses_are_a_list() {
    let a = acceptor("AllowedRemoteAddresses=127.0.0.1, fix.example.com\n");
    assert_eq!(
        a.allowed_remote_addresses,
        Some(vec!["127.0.0.1".to_owned(), "fix.example.com".to_owned()])
    );
    assert_eq!(acceptor("").allowed_remote_addresses, None);
    assert_eq!(
        fails(&format!(
            "{ACCEPTOR}AllowedRemoteAddresses=10.0.0.1,,10.0.0.2\n"
        ))
        .2,
        r#""10.0.0.1,,10.0.0.2" is not host names or IP addresses, separated by commas"#
    );
}

#[test]
fn validate_checksum_n_lets_a_wrong_checksum_through() {
    let wrong = b"8=FIX.4.4\x019=5\x0135=0\x0110=000\x01";
    let mut fields = [fix_core::Field::new(0, 0, 0); 8];
    assert!(
        acceptor("")
            .session
            .parser
            .parse(wrong, &mut fields)
            .is_err()
    );
    let lenient = acceptor("ValidateChecksum=N\n").session;
    assert!(!lenient.parser.validates_checksum());
    assert!(lenient.parser.parse(wrong, &mut fields).is_ok());
}

#[test]
fn get_reads_the_setting_in_force_by_any_of_its_names() {
    let s = Settings::parse(
        "s.cfg",
        &format!(
            "[DEFAULT]\nSocketNodelay=Y\nAccount=A0\n{ACCEPTOR}SocketTcpNoDelay=N\naccount=A1\n"
        ),
    )
    .unwrap();
    let a = &s.sessions()[0];
    assert!(!a.tcp_nodelay);
    assert_eq!(a.get("SocketNodelay"), Some("N"));
    assert_eq!(a.get("sockettcpnodelay"), Some("N"));
    assert_eq!(a.get("ACCOUNT"), Some("A1"));
    assert_eq!(
        a.keys()
            .filter(|k| k.eq_ignore_ascii_case("account"))
            .count(),
        1
    );
}

#[test]
fn logon_tags_are_body_fields_in_their_order() {
    let i = initiator("LogonTag2=96=raw\nLogonTag=553=user\nlogontag1=554=pass word\n");
    assert_eq!(
        i.logon_fields,
        [
            (553, "user".to_owned()),
            (554, "pass word".to_owned()),
            (96, "raw".to_owned())
        ]
    );
    assert_eq!(i.get("LogonTag1"), Some("554=pass word"));
    for bad in [
        "LogonTag=user",
        "LogonTag=49=ME",
        "LogonTag=553=",
        "LogonTag=0=x",
    ] {
        let (_, key, message) = fails(&format!("{INITIATOR}{bad}\n"));
        assert_eq!(key.as_deref(), Some("LogonTag"), "{bad}");
        assert!(message.ends_with("is not a body field as tag=value, such as 553=user (header and trailer fields are the session's)"), "{bad}: {message}");
    }
    // A bad number is an application's key, with the family's first name suggested.
    assert_eq!(
        warned(&format!("{INITIATOR}LogonTag01=553=u\n")),
        [(
            Some(11),
            Some("LogonTag01".into()),
            "not a setting QuickFIX or this engine knows: kept for the application (application_keys); did you mean LogonTag1?".into()
        )]
    );
    let err = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
        .socket_accept_port(5001)
        .logon_tag(553, "u")
        .logon_tag(52, "now")
        .build()
        .unwrap_err();
    assert_eq!(err.key(), Some("LogonTag1"));
}

#[test]
fn file_log_heartbeats_is_read() {
    assert!(acceptor("FileLogPath=lg\n").log_heartbeats);
    assert!(!acceptor("FileLogPath=lg\nFileLogHeartbeats=N\n").log_heartbeats);
}

#[test]
fn quickfix_go_s_lower_case_booleans_are_read() {
    let a = acceptor("ResetOnLogon=y\nCheckLatency=n\n");
    assert!(a.session.reset_on_logon && !a.session.check_latency);
}

#[test]
fn quickfix_go_s_local_time_zone_is_the_machines() {
    // Where the machine's zone can be read, TimeZone=Local is it.
    if let Ok(here) = Zone::local() {
        let a = acceptor("TimeZone=Local\n");
        assert_eq!(
            a.schedule,
            Schedule::daily(TimeOfDay::MIDNIGHT, TimeOfDay::MIDNIGHT).in_zone(here)
        );
    }
}

#[test]
fn revocation_lists_are_read_where_certificates_are_checked() {
    let i = initiator(
        "SocketUseSSL=Y\nCertificationAuthoritiesFile=ca.pem\nCertificateRevocationListDirectory=crls\n",
    );
    assert_eq!(
        i.tls.unwrap().revocation_lists.as_deref(),
        Some(Path::new("crls"))
    );
    // An acceptor that does not verify clients checks no list.
    assert_eq!(
        warned(&format!(
            "{ACCEPTOR}SocketUseSSL=Y\nServerCertificateFile=s.pem\nCertificateRevocationListFile=crl.pem\n"
        )),
        [(
            Some(11),
            Some("CertificateRevocationListFile".into()),
            "ignored: an acceptor reads it only to verify clients (CertificateVerifyLevel=1 or 2)"
                .into()
        )]
    );
}

/// The QuickFIX keys issue 26 left for the session core, read into the
/// session's configuration: SubIDs, TimeStampPrecision and
/// MillisecondsInTimeStamp, SendRedundantResendRequests, ResetOnError and
/// DisconnectOnError, RefreshOnLogon, and the screen log.
#[test]
fn quickfix_session_keys_are_applied() {
    use fix_core::value::Precision;
    use fix_session::{OnError, SubIds};

    let s = acceptor(
        "SenderSubID=DESK1\nSenderLocationID=LDN\nTargetSubID=ADMIN\nTargetLocationID=NYC\n",
    );
    assert_eq!(
        s.session.sub_ids,
        SubIds {
            sender_sub_id: Some("DESK1".into()),
            sender_location_id: Some("LDN".into()),
            target_sub_id: Some("ADMIN".into()),
            target_location_id: Some("NYC".into()),
        }
    );
    let fix40 = ACCEPTOR.replace("FIX.4.4", "FIX.4.0");
    let e = err(&format!("{fix40}SenderLocationID=LDN\n"));
    assert_eq!(
        e.to_string(),
        "s.cfg:9: SenderLocationID: FIX.4.0 has no location IDs (142, 143): FIX.4.1 brought them"
    );

    let precision = |extra: &str| acceptor(extra).session.timestamp_precision;
    assert_eq!(precision(""), Precision::Millis);
    assert_eq!(precision("TimeStampPrecision=NANOS\n"), Precision::Nanos);
    assert_eq!(precision("TimestampPrecision=micros\n"), Precision::Micros);
    assert_eq!(precision("TimeStampPrecision=0\n"), Precision::Seconds);
    assert_eq!(precision("MillisecondsInTimeStamp=N\n"), Precision::Seconds);
    assert_eq!(
        precision("MillisecondsInTimeStamp=N\nTimeStampPrecision=6\n"),
        Precision::Micros,
        "TimeStampPrecision wins"
    );
    let e = err(&format!("{ACCEPTOR}TimeStampPrecision=4\n"));
    assert_eq!(
        e.to_string(),
        r#"s.cfg:9: TimeStampPrecision: "4" is not SECONDS, MILLIS, MICROS or NANOS (or 0, 3, 6, 9)"#
    );

    assert!(!acceptor("").session.send_redundant_resend_requests);
    assert!(
        acceptor("SendRedundantResendRequests=Y\n")
            .session
            .send_redundant_resend_requests
    );

    assert!(!acceptor("").session.send_logout_before_timeout_disconnect);
    assert!(
        acceptor("SendLogoutBeforeDisconnectFromTimeout=Y\n")
            .session
            .send_logout_before_timeout_disconnect
    );
    let e = err(&format!(
        "{ACCEPTOR}SendLogoutBeforeDisconnectFromTimeout=maybe\n"
    ));
    assert!(
        e.to_string()
            .starts_with("s.cfg:9: SendLogoutBeforeDisconnectFromTimeout: \"maybe\""),
        "{e}"
    );

    let on_error = |extra: &str| acceptor(extra).session.on_error;
    assert_eq!(on_error(""), OnError::Reject);
    assert_eq!(on_error("ResetOnError=Y\n"), OnError::Reset);
    assert_eq!(on_error("DisconnectOnError=Y\n"), OnError::Disconnect);
    assert_eq!(
        on_error("DisconnectOnError=Y\nResetOnError=Y\n"),
        OnError::Reset
    );

    let plain = acceptor("FileStorePath=store\n");
    assert!(!plain.session.refresh_on_logon && !plain.store_options.is_standby());
    let refresh = acceptor("FileStorePath=store\nRefreshOnLogon=Y\n");
    assert!(refresh.session.refresh_on_logon && refresh.store_options.is_standby());

    // No ScreenLog key: standard output stays silent.
    assert!(acceptor("").screen_log.is_none());
    let screen = acceptor("ScreenLogShowHeartBeats=N\nScreenIncludeMilliseconds=Y\n")
        .screen_log
        .unwrap();
    assert!(screen.shows_incoming() && screen.shows_outgoing() && screen.shows_events());
    assert!(!screen.shows_heartbeats());
    assert_eq!(screen.timestamp_precision(), Precision::Millis);
    let events = acceptor("ScreenLogEvents=Y\nScreenLogShowIncoming=N\n")
        .screen_log
        .unwrap();
    assert!(!events.shows_incoming() && events.shows_events());
    assert_eq!(events.timestamp_precision(), Precision::Seconds);
    // None of these is a warning now.
    let text = format!(
        "{ACCEPTOR}SenderSubID=D\nTimeStampPrecision=NANOS\nResetOnError=Y\nRefreshOnLogon=Y\nSendRedundantResendRequests=Y\nScreenLogShowIncoming=Y\n"
    );
    assert_eq!(warned(&text), []);
}

/// `QueuedMessageMaxAge` and `QueuedWhileDown`: a session's own values, read
/// from its section or `[DEFAULT]`; absent, `None`, and the engine's
/// `EngineOptions` decide.
#[test]
fn queue_keys_are_read_per_session() {
    use fix_engine::QueuedWhileDown;
    use fix_engine::config::QueuedAge;

    let plain = acceptor("");
    assert_eq!(
        (plain.max_queued_age, plain.queued_while_down),
        (QueuedAge::Engine, None)
    );
    let s = acceptor("QueuedMessageMaxAge=30\nQueuedWhileDown=DROP\n");
    assert_eq!(s.max_queued_age, QueuedAge::Within(Duration::from_secs(30)));
    assert_eq!(s.queued_while_down, Some(QueuedWhileDown::Drop));
    // 0 lifts the limit (not the engine's: a session's answer of its own).
    assert_eq!(
        acceptor("QueuedMessageMaxAge=0\n").max_queued_age,
        QueuedAge::Unlimited
    );
    assert_eq!(
        initiator("queuedmessagemaxage=2m\n").max_queued_age,
        QueuedAge::Within(Duration::from_secs(120))
    );
    // Any case.
    for (v, want) in [
        ("drop", QueuedWhileDown::Drop),
        ("Wait", QueuedWhileDown::Wait),
        ("WAIT", QueuedWhileDown::Wait),
    ] {
        let s = acceptor(&format!("QueuedWhileDown={v}\n"));
        assert_eq!(s.queued_while_down, Some(want), "{v}");
    }
    let inherited = one(&format!("[DEFAULT]\nQueuedWhileDown=drop\n{INITIATOR}"));
    assert_eq!(inherited.queued_while_down, Some(QueuedWhileDown::Drop));
    assert_eq!(
        warned(&format!(
            "{ACCEPTOR}QueuedMessageMaxAge=0\nQueuedWhileDown=WAIT\n"
        )),
        []
    );

    // A bad value is an error naming the key and what it takes.
    let e = err(&format!("{ACCEPTOR}QueuedWhileDown=LATER\n"));
    assert_eq!(e.key(), Some("QueuedWhileDown"));
    assert!(
        matches!(
            e.kind(),
            ErrorKind::InvalidValue { value, expected } if value == "LATER" && *expected == "WAIT or DROP"
        ),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        r#"s.cfg:9: QueuedWhileDown: "LATER" is not WAIT or DROP"#
    );
    assert_eq!(
        fails(&format!("{ACCEPTOR}QueuedMessageMaxAge=-5\n")),
        (
            Some(9),
            Some("QueuedMessageMaxAge".to_owned()),
            r#""-5" is not a number of seconds"#.to_owned()
        )
    );

    // The builder makes what the file makes.
    let code = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
        .socket_accept_port(5001)
        .schedule(Schedule::daily(TimeOfDay::MIDNIGHT, TimeOfDay::MIDNIGHT))
        .queued_message_max_age(Duration::from_secs(30))
        .queued_while_down(QueuedWhileDown::Drop)
        .build()
        .unwrap();
    assert_eq!(semantic(&code), semantic(&s));
    let unlimited = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
        .socket_accept_port(5001)
        .schedule(Schedule::non_stop())
        .queued_message_max_age(Duration::ZERO)
        .build()
        .unwrap();
    assert_eq!(
        unlimited.max_queued_age,
        fix_engine::config::QueuedAge::Unlimited
    );
}

/// QuickFIX's PostgreSQL store keys (with QuickFIX's defaults for those not
/// given) or a connection string make the store PostgreSQL, fenced by a
/// lease; beside FileStorePath they are an error (a session has one store).
#[test]
fn postgresql_store_keys_make_the_store_postgresql() {
    use std::time::Duration;

    assert_eq!(acceptor("").postgres_store, None);
    let s = acceptor(
        "PostgreSQLStoreHost=/run/pg\nPostgreSQLStoreUser=fix\nPostgreSQLStorePassword=it's\nPostgreSQLStoreLease=3\nPostgreSQLStoreNode=engine-a\n",
    );
    let pg = s.postgres_store.expect("a PostgreSQL store");
    assert_eq!(
        pg.connection,
        r"host='/run/pg' port=5432 user='fix' dbname='quickfix' password='it\'s'"
    );
    assert_eq!(pg.lease, Duration::from_secs(3));
    assert_eq!(pg.node.as_deref(), Some("engine-a"));
    assert_eq!(pg.max_sessions, None);

    let s = acceptor("PostgreSQLStoreConnection=host=/tmp/pg dbname=fix\n");
    let pg = s.postgres_store.expect("a PostgreSQL store");
    assert_eq!(pg.connection, "host=/tmp/pg dbname=fix");
    assert_eq!(pg.lease, Duration::from_secs(10));

    let e = err(&format!(
        "{ACCEPTOR}FileStorePath=store\nPostgreSQLStoreDatabase=fix\n"
    ));
    assert!(e.to_string().contains("a session has one store"), "{e}");
    let e = err(&format!(
        "{ACCEPTOR}PostgreSQLStoreHost=h\nPostgreSQLStoreLease=0\n"
    ));
    assert!(e.to_string().contains("PostgreSQLStoreLease"), "{e}");
}

/// `MaxMessagesPerSecond` (this engine's own key): read per session, 0 and
/// absent are no limit, past `u32` an error naming the key.
#[test]
fn max_messages_per_second_is_read_per_session() {
    use std::num::NonZeroU32;

    assert_eq!(acceptor("").session.max_app_messages_per_sec, None);
    assert_eq!(
        acceptor("MaxMessagesPerSecond=0\n")
            .session
            .max_app_messages_per_sec,
        None
    );
    assert_eq!(
        initiator("maxmessagespersecond=10\n")
            .session
            .max_app_messages_per_sec,
        NonZeroU32::new(10)
    );
    let inherited = one(&format!("[DEFAULT]\nMaxMessagesPerSecond=50\n{INITIATOR}"));
    assert_eq!(
        inherited.session.max_app_messages_per_sec,
        NonZeroU32::new(50)
    );
    assert_eq!(warned(&format!("{ACCEPTOR}MaxMessagesPerSecond=5\n")), []);
    assert_eq!(
        fails(&format!("{ACCEPTOR}MaxMessagesPerSecond=99999999999\n")),
        (
            Some(9),
            Some("MaxMessagesPerSecond".to_owned()),
            r#""99999999999" is not a number of messages below 2^32"#.to_owned()
        )
    );
    // From code, the same.
    let built = fix_engine::config::SessionBuilder::initiator(fix_session::SessionId::new(
        "FIX.4.4", "C1", "EXEC",
    ))
    .socket_connect("localhost", 5001)
    .heart_bt_int(30)
    .schedule(fix_engine::config::Schedule::non_stop())
    .max_messages_per_second(20)
    .build()
    .unwrap();
    assert_eq!(built.session.max_app_messages_per_sec, NonZeroU32::new(20));
}

#[test]
fn reconnect_interval_zero_and_an_empty_template_target_load_as_quickfix_reads_them() {
    let i = initiator("ReconnectInterval=0\n");
    let Transport::Initiator(t) = &i.transport else {
        unreachable!()
    };
    assert_eq!(t.reconnect_interval, Duration::ZERO);
    // QuickFIX C++ tries again at its next one-second timer tick.
    assert_eq!(t.reconnect_pause(), Duration::from_secs(1));

    let template = ACCEPTOR.replace("TargetCompID=C1", "TargetCompID=") + "AcceptorTemplate=Y\n";
    let s = Settings::parse("s.cfg", &template).unwrap();
    assert!(s.warnings().is_empty());
    assert_eq!(s.templates()[0].pattern().target_comp_id, "*");
    assert!(
        s.template_for(&SessionId::new("FIX.4.4", "EXEC", "ANY"))
            .is_some()
    );
    let (line, key, message) = fails(&ACCEPTOR.replace("TargetCompID=C1", "TargetCompID="));
    assert_eq!((line, key.as_deref()), (Some(5), Some("TargetCompID")));
    assert!(
        message.contains(
            "an empty TargetCompID is read only in an acceptor template (AcceptorTemplate=Y)"
        ),
        "{message}"
    );
}

/// A value that is not of type `ty`, or `None` for free text (which any value is).
fn not_a(ty: ValueType) -> Option<&'static str> {
    Some(match ty {
        ValueType::YesNo => "true",
        ValueType::Seconds => "ten",
        ValueType::Count => "-1",
        ValueType::Port => "70000",
        ValueType::AcceptPort => "any",
        ValueType::Path => "",
        ValueType::Host => "a host",
        ValueType::HostList => "a,b c",
        ValueType::TagValue => "553",
        ValueType::Name => "A\u{7f}B",
        ValueType::Text => return None,
        ValueType::TimeOfDay => "25:00:00",
        ValueType::Day => "Someday",
        ValueType::Days => "Mon,Someday",
        ValueType::Zone => "Mars/Olympus",
        ValueType::VerifyLevel => "3",
        ValueType::ApplVerId => "FIX.9",
        ValueType::BeginString => "FIX.9.9",
        ValueType::ConnectionType => "both",
        ValueType::TimePrecision => "5",
        ValueType::QueuedWhileDown => "KEEP",
        other => panic!("a value that is not {other}: add one here"),
    })
}

/// Every key of the table with a value that is not of its type, in a
/// session's section and in `[DEFAULT]`, whatever the engine does with the
/// key (reads it, passes it over with a warning, refuses it) and whether or
/// not it applies to the session: an error at the key's line, naming the key
/// and what it expected, never a default or a warning.
#[test]
fn every_key_refuses_a_value_of_the_wrong_type() {
    let mut checked = 0;
    let mut wrong = Vec::new();
    // Each row by its name, and the numbered and suffixed keys of its family.
    let family = [
        ("SocketConnectHost2", "SocketConnectHost"),
        ("SocketConnectPort1", "SocketConnectPort"),
        ("LogonTag3", "LogonTag"),
        ("AppDataDictionary.FIX.5.0SP2", "AppDataDictionary"),
    ];
    let rows = fix_engine::config::keys().iter().map(|row| (row.name, row));
    let members = family.map(|(name, of)| (name, fix_engine::config::key(of).unwrap()));
    for (name, row) in rows.chain(members) {
        let Some(bad) = not_a(row.value) else {
            continue;
        };
        let base = match row.applies {
            Applies::Initiator => INITIATOR,
            _ => ACCEPTOR,
        };
        // The store keys of a database apply beside FileStorePath (with a
        // warning): that is where their value could go unread.
        let store = if row.support == Support::DatabaseStore {
            "FileStorePath=st\n"
        } else {
            ""
        };
        let in_session = format!("{base}{store}{name}={bad}\n");
        let session_line = in_session.lines().count();
        let in_default = format!("[DEFAULT]\n{name}={bad}\n{base}{store}");
        for (text, line) in [(in_session, session_line), (in_default, 2)] {
            checked += 1;
            let e = match Settings::parse("s.cfg", &text) {
                Ok(s) => {
                    wrong.push(format!(
                        "{name}={bad:?} at line {line} loaded, with warnings {:?}",
                        s.warnings()
                            .iter()
                            .map(ToString::to_string)
                            .collect::<Vec<_>>()
                    ));
                    continue;
                }
                Err(e) => e,
            };
            let shown = e.to_string();
            let expected = format!("s.cfg:{line}: {name}: {bad:?} is not ");
            let right_kind =
                matches!(e.kind(), ErrorKind::InvalidValue { value, .. } if value == bad);
            if !right_kind || !shown.starts_with(&expected) || e.file().is_none() {
                wrong.push(format!("{name}={bad:?} at line {line}: {shown}"));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(checked > 300, "{checked}");
}
