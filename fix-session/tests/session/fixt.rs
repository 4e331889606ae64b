//! FIXT.1.1: admin messages, the header and the trailer validate against the
//! transport dictionary (QuickFIX's FIXT11.xml); an application message against
//! the application dictionary its ApplVerID (1128) names, or else the session's
//! DefaultApplVerID.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_core::Message;
use fix_dict::Dictionary;
use fix_session::{
    AppReject, Application, Dictionaries, MemoryStore, Outbox, Role, Session, SessionConfig,
    SessionId, State,
};
use fix_test_support::naive::build_with;

/// Records the MsgType of every application message it is given.
#[derive(Default)]
struct App {
    received: Vec<Vec<u8>>,
}

impl Application for App {
    fn from_app(&mut self, msg: &Message<'_>, _: &mut Outbox) -> Result<(), AppReject> {
        self.received.push(msg.msg_type().to_vec());
        Ok(())
    }
}

fn load(name: &str) -> Dictionary {
    let p = fix_test_support::files::quickfix_dir()
        .join("spec")
        .join(name);
    Dictionary::from_path(&p).unwrap_or_else(|e| panic!("{}: {e:?}", p.display()))
}

/// The fields of every message in `out`, one list a message.
fn messages(out: &[u8]) -> Vec<Vec<(String, String)>> {
    let mut msgs: Vec<Vec<(String, String)>> = Vec::new();
    for field in out.split(|&b| b == 1).filter(|f| !f.is_empty()) {
        let text = String::from_utf8_lossy(field);
        let (tag, value) = text.split_once('=').unwrap();
        if tag == "8" {
            msgs.push(Vec::new());
        }
        let msg = msgs.last_mut().unwrap();
        msg.push((tag.to_owned(), value.to_owned()));
    }
    msgs
}

fn get<'m>(msg: &'m [(String, String)], tag: &str) -> Option<&'m str> {
    msg.iter().find(|(t, _)| t == tag).map(|(_, v)| v.as_str())
}

struct Fixt<'d> {
    session: Session<MemoryStore, &'d Dictionary>,
    app: App,
    seq: u64,
    now: SystemTime,
}

impl Fixt<'_> {
    /// Sends a message of `body` fields (MsgType first) with the header filled
    /// in, and returns what the session wrote.
    fn send(
        &mut self,
        msg_type: &str,
        extra_header: &str,
        body: &str,
    ) -> Vec<Vec<(String, String)>> {
        let text = format!(
            "35={msg_type}\x0134={}\x0149=TW\x0152=20260302-09:30:00\x0156=ISLD\x01{extra_header}{body}",
            self.seq
        );
        self.seq += 1;
        let bytes = build_with("FIXT.1.1", text.as_bytes());
        self.session
            .handle_bytes(self.now, &bytes, &mut self.app)
            .unwrap();
        let out = messages(self.session.output());
        let n = self.session.output().len();
        self.session.consume_output(n);
        out
    }
}

/// An acceptor over FIXT11 with FIX.5.0 (7) and FIX.5.0SP2 (9), DefaultApplVerID
/// FIX.5.0SP2 (given by name), logged on.
fn logged_on(dicts: &[Dictionary; 3]) -> Fixt<'_> {
    let mut f = connected(dicts, "FIX.5.0SP2");
    let answer = f.send("A", "", "98=0\x01108=30\x011137=9\x01");
    assert_eq!(f.session.state(), State::LoggedOn);
    assert_eq!(get(&answer[0], "35"), Some("A"));
    // The DefaultApplVerID given by name goes out as its code.
    assert_eq!(get(&answer[0], "1137"), Some("9"));
    f
}

/// An acceptor over FIXT11 with FIX.5.0 (7) and FIX.5.0SP2 (9) and this
/// DefaultApplVerID, connected, waiting for the Logon.
fn connected<'d>(dicts: &'d [Dictionary; 3], default_appl_ver_id: &str) -> Fixt<'d> {
    let [fixt11, fix50, fix50sp2] = dicts;
    let schema = Dictionaries::new(fixt11)
        .with_app("7", fix50)
        .with_app("9", fix50sp2);
    connected_over(schema, default_appl_ver_id)
}

/// An acceptor over `schema` with this DefaultApplVerID, connected.
fn connected_over<'d>(schema: Dictionaries<&'d Dictionary>, default_appl_ver_id: &str) -> Fixt<'d> {
    let mut config = SessionConfig::new(SessionId::new("FIXT.1.1", "ISLD", "TW"), Role::Acceptor);
    config.check_latency = false;
    config.default_appl_ver_id = Some(default_appl_ver_id.into());
    let now = UNIX_EPOCH + Duration::from_secs(1_772_443_800);
    let mut f = Fixt {
        session: Session::with_dictionaries(config, MemoryStore::new(), schema),
        app: App::default(),
        seq: 1,
        now,
    };
    f.session.connected(now, &mut f.app).unwrap();
    f
}

fn dictionaries() -> [Dictionary; 3] {
    [load("FIXT11.xml"), load("FIX50.xml"), load("FIX50SP2.xml")]
}

/// A NewOrderSingle with SecurityGroup (1151), a field FIX.5.0SP2 defines in it
/// and FIX.5.0 does not define at all.
const ORDER: &str = "11=1\x0155=X\x011151=G\x0154=1\x0160=20260302-09:30:00\x0138=100\x0140=1\x01";

#[test]
fn application_messages_validate_against_the_dictionary_of_their_appl_ver_id() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = dictionaries();
    let mut f = logged_on(&dicts);

    // No ApplVerID: the DefaultApplVerID's dictionary (FIX.5.0SP2) takes it.
    let out = f.send("D", "", ORDER);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(f.app.received, [b"D".to_vec()]);

    // ApplVerID 9 says the same.
    let out = f.send("D", "1128=9\x01", ORDER);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(f.app.received.len(), 2);

    // ApplVerID 7: FIX.5.0 does not know 1151.
    let out = f.send("D", "1128=7\x01", ORDER);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(get(&out[0], "35"), Some("3"));
    assert_eq!(get(&out[0], "45"), Some("4"));
    assert_eq!(get(&out[0], "371"), Some("1151"));
    assert_eq!(get(&out[0], "373"), Some("0"));
    assert_eq!(f.app.received.len(), 2);
}

#[test]
fn admin_messages_validate_against_the_transport_dictionary_only() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = dictionaries();
    let mut f = logged_on(&dicts);
    // Symbol (55) is an application field: FIXT11 does not define it.
    let out = f.send("0", "", "55=X\x01");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(get(&out[0], "35"), Some("3"));
    assert_eq!(get(&out[0], "45"), Some("2"));
    assert_eq!(get(&out[0], "371"), Some("55"));
    assert_eq!(get(&out[0], "373"), Some("0"));
    assert_eq!(get(&out[0], "58"), Some("Invalid tag number"));
    // A plain Heartbeat passes.
    let out = f.send("0", "", "");
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn the_initiators_default_appl_ver_id_overrides_the_configured_one() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = dictionaries();
    // Configured FIX.5.0SP2; the initiator logs on with FIX.5.0 (7).
    let mut f = connected(&dicts, "9");
    let answer = f.send("A", "", "98=0\x01108=30\x011137=7\x01");
    assert_eq!(f.session.state(), State::LoggedOn, "{answer:?}");
    // Our own default still goes out in the answer.
    assert_eq!(get(&answer[0], "1137"), Some("9"));
    // Without ApplVerID an order validates against FIX.5.0, which lacks 1151.
    let out = f.send("D", "", ORDER);
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(get(&out[0], "35"), Some("3"));
    assert_eq!(get(&out[0], "371"), Some("1151"));
    assert_eq!(get(&out[0], "373"), Some("0"));
    // ApplVerID 9 on the message itself still wins.
    let out = f.send("D", "1128=9\x01", ORDER);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(f.app.received, [b"D".to_vec()]);
}

#[test]
fn the_initiators_default_appl_ver_id_can_name_a_version_the_configuration_does_not() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = dictionaries();
    // Configured FIX.5.0, which does not define 1151; the initiator logs on with 9.
    let mut f = connected(&dicts, "FIX.5.0");
    f.send("A", "", "98=0\x01108=30\x011137=9\x01");
    assert_eq!(f.session.state(), State::LoggedOn);
    let out = f.send("D", "", ORDER);
    assert!(out.is_empty(), "{out:?}");
    assert_eq!(f.app.received, [b"D".to_vec()]);
}

#[test]
fn a_default_appl_ver_id_without_a_dictionary_gets_the_logon_refused() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = dictionaries();
    let mut f = connected(&dicts, "9");
    // FIX.5.0SP1 (8) is an ApplVerID, but this session has no dictionary for it.
    let out = f.send("A", "", "98=0\x01108=30\x011137=8\x01");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(get(&out[0], "35"), Some("5"));
    assert_eq!(get(&out[0], "34"), Some("1"));
    assert_eq!(get(&out[0], "58"), Some("Unsupported DefaultApplVerID 8"));
    assert!(f.session.wants_disconnect());
    assert_ne!(f.session.state(), State::LoggedOn);
}

#[test]
fn a_default_appl_ver_id_the_transport_dictionary_does_not_list_gets_the_logon_refused() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = dictionaries();
    // FIXT11 alone: no application dictionary to check the value against.
    let mut f = connected_over(Dictionaries::new(&dicts[0]), "9");
    let out = f.send("A", "", "98=0\x01108=30\x011137=FIX.9.9\x01");
    assert_eq!(out.len(), 1, "{out:?}");
    assert_eq!(get(&out[0], "35"), Some("5"));
    assert_eq!(
        get(&out[0], "58"),
        Some("Unsupported DefaultApplVerID FIX.9.9")
    );
    assert!(f.session.wants_disconnect());
}

#[test]
fn without_application_dictionaries_any_listed_default_appl_ver_id_is_taken() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = dictionaries();
    let mut f = connected_over(Dictionaries::new(&dicts[0]), "9");
    let out = f.send("A", "", "98=0\x01108=30\x011137=8\x01");
    assert_eq!(f.session.state(), State::LoggedOn, "{out:?}");
    assert_eq!(get(&out[0], "35"), Some("A"));
}
