//! The session rules one by one, each on one session fed messages written by hand
//! (or on two sessions back to back), with a simulated clock. Every test checks
//! the exact fields of what the session writes, read back by the naive reference
//! parser, never by the session's own encoder.

use crate::common;

use std::time::{Duration, SystemTime};

use crate::common::{Fix44, Recorder, fields, get, msg_with, split, t0};
use fix_session::{MemoryStore, MessageStore, Role, Session, SessionConfig, SessionId, State};

/// One acceptor BROKER→CLIENT under test; the test plays CLIENT.
struct One {
    s: Session<MemoryStore, Fix44>,
    app: Recorder,
    now: SystemTime,
    /// The next MsgSeqNum CLIENT sends.
    seq: u64,
}

/// The acceptor's configuration, FIX 4.4, QuickFIX's defaults.
fn acceptor() -> SessionConfig {
    common::configs().1
}

/// An acceptor for an older BeginString, without a dictionary (the FIX 4.4 tables
/// would refuse its BeginString).
fn acceptor_of(begin: &str) -> SessionConfig {
    let mut c = SessionConfig::new(SessionId::new(begin, "BROKER", "CLIENT"), Role::Acceptor);
    c.validator = None;
    c
}

impl One {
    fn new(config: SessionConfig) -> One {
        One::with_store(config, MemoryStore::new())
    }

    fn with_store(config: SessionConfig, store: MemoryStore) -> One {
        let mut one = One {
            s: Session::new(config, store, &fix44::DICTIONARY),
            app: Recorder::default(),
            now: t0(),
            seq: 1,
        };
        one.s.connected(one.now, &mut one.app).unwrap();
        one
    }

    /// Connected and logged on with HeartBtInt 30; the Logon answer taken.
    fn logged_on(config: SessionConfig) -> One {
        let mut one = One::new(config);
        let out = one.send("A", &[(98, "0"), (108, "30")]);
        assert_eq!(one.s.state(), State::LoggedOn, "{:?}", show_all(&out));
        one
    }

    fn begin(&self) -> String {
        self.s.id().begin_string.clone()
    }

    /// A message from CLIENT numbered `seq`: the header, then `extra` (header
    /// fields such as 43 and 122 first, then the body).
    fn build(&self, msg_type: &str, seq: u64, extra: &[(u32, &str)]) -> Vec<u8> {
        self.build_at(msg_type, seq, &ts(self.now), extra)
    }

    fn build_at(&self, msg_type: &str, seq: u64, sending: &str, extra: &[(u32, &str)]) -> Vec<u8> {
        let seq = seq.to_string();
        let mut f: Vec<(u32, &str)> = vec![
            (35, msg_type),
            (34, &seq),
            (49, "CLIENT"),
            (52, sending),
            (56, "BROKER"),
        ];
        f.extend_from_slice(extra);
        msg_with(&self.begin(), &f)
    }

    /// Sends CLIENT's next message; returns what the session wrote.
    fn send(&mut self, msg_type: &str, extra: &[(u32, &str)]) -> Vec<Vec<u8>> {
        let seq = self.seq;
        self.seq += 1;
        self.send_at(msg_type, seq, extra)
    }

    /// Sends a message numbered `seq` (CLIENT's counter stays).
    fn send_at(&mut self, msg_type: &str, seq: u64, extra: &[(u32, &str)]) -> Vec<Vec<u8>> {
        let m = self.build(msg_type, seq, extra);
        self.feed(&m)
    }

    fn feed(&mut self, bytes: &[u8]) -> Vec<Vec<u8>> {
        self.s.handle_bytes(self.now, bytes, &mut self.app).unwrap();
        self.take()
    }

    fn take(&mut self) -> Vec<Vec<u8>> {
        let out = split(self.s.output());
        let n = self.s.output().len();
        self.s.consume_output(n);
        out
    }

    /// Moves the clock to `t` and fires what is due.
    fn at(&mut self, t: SystemTime) -> Vec<Vec<u8>> {
        self.now = t;
        self.s.handle_timeout(t, &mut self.app).unwrap();
        self.take()
    }

    /// The session sends an order `id`; its bytes are left in the output.
    fn order(&mut self, id: &str) -> u64 {
        let body = format!("11={id}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
        self.s
            .send(self.now, b"D", body.as_bytes(), &mut self.app)
            .unwrap()
    }

    fn next_target(&self) -> u64 {
        self.s.store().next_target_seq()
    }

    fn next_sender(&self) -> u64 {
        self.s.store().next_sender_seq()
    }
}

/// An order's body from CLIENT, ClOrdID `id`.
fn order(id: &str) -> [(u32, &str); 6] {
    [
        (11, id),
        (21, "1"),
        (55, "X"),
        (54, "1"),
        (60, "20260921-14:13:20"),
        (40, "1"),
    ]
}

/// SendingTime text, with milliseconds.
fn ts(t: SystemTime) -> String {
    String::from_utf8(fix_session::time::format_timestamp(t).to_vec()).unwrap()
}

fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn show(m: &[u8]) -> String {
    String::from_utf8_lossy(m).replace('\x01', "|")
}

fn show_all(out: &[Vec<u8>]) -> Vec<String> {
    out.iter().map(|m| show(m)).collect()
}

/// Asserts every `(tag, value)` of `want` is in `m`.
#[track_caller]
fn has(m: &[u8], want: &[(u32, &str)]) {
    for &(tag, value) in want {
        assert_eq!(
            get(m, tag).as_deref(),
            Some(value),
            "tag {tag} in {}",
            show(m)
        );
    }
}

/// The tags of `m`, in order.
fn tags(m: &[u8]) -> Vec<u32> {
    fields(m).into_iter().map(|(t, _)| t).collect()
}

/// The MsgTypes of `out`.
fn types(out: &[Vec<u8>]) -> Vec<String> {
    out.iter().map(|m| get(m, 35).unwrap()).collect()
}

/// A store whose next numbers are `sender` and `target`.
fn store_at(sender: u64, target: u64) -> MemoryStore {
    let mut s = MemoryStore::new();
    s.set_next_sender_seq(sender).unwrap();
    s.set_next_target_seq(target).unwrap();
    s
}

mod logon {
    use super::*;

    /// Records the order of the callbacks it gets.
    #[derive(Default)]
    struct Calls(Vec<&'static str>);
    impl fix_session::Application for Calls {
        fn on_create(&mut self, id: &SessionId) {
            assert_eq!(id.sender_comp_id, "BROKER");
            self.0.push("create");
        }
        fn on_logon(&mut self, _: &SessionId) {
            self.0.push("logon");
        }
        fn on_logout(&mut self, _: &SessionId) {
            self.0.push("logout");
        }
    }

    #[test]
    fn on_create_comes_once_before_anything_else() {
        let mut s = Session::new(acceptor(), MemoryStore::new(), &fix44::DICTIONARY);
        let mut app = Calls::default();
        let logon = |seq: u64| {
            let body = format!(
                "35=A\x0134={seq}\x0149=CLIENT\x0152=20260921-14:13:20.000\x0156=BROKER\x0198=0\x01108=30\x01"
            );
            fix_test_support::naive::build(body.as_bytes())
        };
        for seq in [1, 2] {
            s.connected(t0(), &mut app).unwrap();
            s.handle_bytes(t0(), &logon(seq), &mut app).unwrap();
            s.disconnected(t0(), &mut app).unwrap();
        }
        assert_eq!(app.0, ["create", "logon", "logout", "logon", "logout"]);
    }

    #[test]
    fn a_second_connection_for_a_connected_session_is_refused_and_the_first_goes_on() {
        let mut one = One::logged_on(acceptor());
        one.order("O2");
        one.take();
        let err = one.s.connected(one.now, &mut one.app).unwrap_err();
        assert!(
            matches!(err, fix_session::SessionError::AlreadyConnected),
            "{err:?}"
        );
        assert_eq!(one.s.state(), State::LoggedOn);
        assert_eq!((one.next_sender(), one.next_target()), (3, 2));
        // The first connection still works.
        let out = one.send("1", &[(112, "STILL")]);
        has(&out[0], &[(35, "0"), (112, "STILL")]);
        // Once it is down, a new one is taken.
        one.s.disconnected(one.now, &mut one.app).unwrap();
        one.s.connected(one.now, &mut one.app).unwrap();
        assert_eq!(one.s.state(), State::AwaitingLogon);
    }

    #[test]
    fn the_acceptor_answers_with_the_initiators_heart_bt_int_and_heartbeats_at_it() {
        let mut one = One::new(acceptor());
        let out = one.send("A", &[(98, "0"), (108, "45")]);
        assert_eq!(out.len(), 1, "{:?}", show_all(&out));
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 98, 108, 10]);
        has(
            &out[0],
            &[
                (35, "A"),
                (34, "1"),
                (49, "BROKER"),
                (56, "CLIENT"),
                (98, "0"),
                (108, "45"),
            ],
        );
        assert_eq!(one.s.poll_timeout().map(|t| t.wall), Some(t0() + secs(45)));
        let hb = one.at(t0() + secs(45));
        assert_eq!(types(&hb), ["0"]);
        has(&hb[0], &[(34, "2")]);
    }

    #[test]
    fn the_initiators_logon_carries_encrypt_method_0_and_its_heart_bt_int() {
        let (mut ic, _) = common::configs();
        ic.heart_bt_int = 17;
        let mut s = Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY);
        s.connected(t0(), &mut Recorder::default()).unwrap();
        let out = split(s.output());
        assert_eq!(out.len(), 1);
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 98, 108, 10]);
        has(
            &out[0],
            &[
                (35, "A"),
                (34, "1"),
                (49, "CLIENT"),
                (52, "20260921-14:13:20.000"),
                (56, "BROKER"),
                (98, "0"),
                (108, "17"),
            ],
        );
    }

    #[test]
    fn a_logon_with_an_encrypt_method_the_dictionary_does_not_list_is_dropped() {
        let mut one = One::new(acceptor());
        let out = one.send("A", &[(98, "9"), (108, "30")]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
        assert_eq!((one.s.state(), one.app.logons), (State::AwaitingLogon, 0));
    }

    #[test]
    fn reset_seq_num_flag_from_the_initiator_resets_the_acceptor_and_is_echoed() {
        let mut one = One::with_store(acceptor(), store_at(8, 5));
        let out = one.send("A", &[(98, "0"), (108, "30"), (141, "Y")]);
        assert_eq!(out.len(), 1, "{:?}", show_all(&out));
        has(&out[0], &[(35, "A"), (34, "1"), (141, "Y")]);
        assert_eq!(one.s.state(), State::LoggedOn);
        assert_eq!((one.next_sender(), one.next_target()), (2, 2));
    }

    #[test]
    fn send_reset_seq_num_flag_starts_the_initiator_at_1_with_141_y() {
        let (mut ic, _) = common::configs();
        ic.send_reset_seq_num_flag = true;
        let mut s = Session::new(ic, store_at(8, 5), &fix44::DICTIONARY);
        s.connected(t0(), &mut Recorder::default()).unwrap();
        let out = split(s.output());
        has(&out[0], &[(35, "A"), (34, "1"), (141, "Y")]);
        assert_eq!(
            (s.store().next_sender_seq(), s.store().next_target_seq()),
            (2, 1)
        );
    }

    #[test]
    fn a_reset_logon_exchange_leaves_both_sides_in_step_at_2() {
        let (mut ic, ac) = common::configs();
        ic.send_reset_seq_num_flag = true;
        let mut p = common::Pair::with(
            ic,
            ac,
            store_at(8, 5),
            store_at(6, 9),
            Recorder::default(),
            Recorder::default(),
        );
        p.acc.connected(p.now, &mut p.aa).unwrap();
        p.init.connected(p.now, &mut p.ia).unwrap();
        let (logon, answer) = p.pump();
        has(&logon[0], &[(35, "A"), (34, "1"), (141, "Y")]);
        has(&answer[0], &[(35, "A"), (34, "1"), (141, "Y")]);
        assert_eq!(answer.len(), 1, "{:?}", show_all(&answer));
        for s in [&p.init, &p.acc] {
            assert_eq!(s.state(), State::LoggedOn);
            assert_eq!(
                (s.store().next_sender_seq(), s.store().next_target_seq()),
                (2, 2)
            );
        }
    }

    #[test]
    fn without_a_reset_the_initiator_logs_on_with_its_stored_number() {
        let (ic, _) = common::configs();
        let mut s = Session::new(ic, store_at(8, 5), &fix44::DICTIONARY);
        s.connected(t0(), &mut Recorder::default()).unwrap();
        let out = split(s.output());
        has(&out[0], &[(35, "A"), (34, "8")]);
        assert_eq!(get(&out[0], 141), None);
    }

    #[test]
    fn a_logon_with_reset_seq_num_flag_while_logged_on_resets_both_numbers() {
        let mut one = One::logged_on(acceptor());
        one.send("0", &[]);
        one.order("O1");
        one.take();
        assert_eq!((one.next_sender(), one.next_target()), (3, 3));
        let out = one.send_at("A", 1, &[(98, "0"), (108, "30"), (141, "Y")]);
        assert_eq!(out.len(), 1, "{:?}", show_all(&out));
        has(&out[0], &[(35, "A"), (34, "1"), (141, "Y"), (108, "30")]);
        assert_eq!((one.next_sender(), one.next_target()), (2, 2));
        assert_eq!(one.s.state(), State::LoggedOn);
    }

    #[test]
    fn reset_on_logon_starts_the_acceptor_at_1_without_141() {
        let mut config = acceptor();
        config.reset_on_logon = true;
        let mut one = One::with_store(config, store_at(8, 5));
        let out = one.send("A", &[(98, "0"), (108, "30")]);
        assert_eq!(out.len(), 1, "{:?}", show_all(&out));
        has(&out[0], &[(35, "A"), (34, "1")]);
        assert_eq!(get(&out[0], 141), None);
        assert_eq!((one.next_sender(), one.next_target()), (2, 2));
    }

    #[test]
    fn reset_on_logout_restarts_the_numbers_after_the_logout_exchange() {
        let mut config = acceptor();
        config.reset_on_logout = true;
        let mut one = One::logged_on(config);
        let out = one.send("5", &[]);
        has(&out[0], &[(35, "5"), (34, "2")]);
        assert!(one.s.wants_disconnect());
        assert_eq!((one.next_sender(), one.next_target()), (1, 1));
    }

    #[test]
    fn without_reset_on_logout_the_numbers_stay_after_a_logout() {
        let mut one = One::logged_on(acceptor());
        one.send("5", &[]);
        assert_eq!((one.next_sender(), one.next_target()), (3, 3));
    }

    #[test]
    fn reset_on_disconnect_restarts_the_numbers_when_the_connection_drops() {
        let mut config = acceptor();
        config.reset_on_disconnect = true;
        let mut one = One::logged_on(config);
        one.s.disconnected(one.now, &mut one.app).unwrap();
        assert_eq!((one.next_sender(), one.next_target()), (1, 1));
        assert_eq!(one.app.logouts, 1);
    }

    #[test]
    fn without_reset_on_disconnect_the_numbers_survive_the_connection() {
        let mut one = One::logged_on(acceptor());
        one.s.disconnected(one.now, &mut one.app).unwrap();
        assert_eq!((one.next_sender(), one.next_target()), (2, 2));
    }

    #[test]
    fn an_acceptor_drops_a_connection_without_a_logon_after_logon_timeout() {
        let mut one = One::new(acceptor());
        assert_eq!(one.s.poll_timeout().map(|t| t.wall), Some(t0() + secs(10)));
        one.at(t0() + secs(10) - ms(1));
        assert!(!one.s.wants_disconnect());
        let out = one.at(t0() + secs(10));
        assert!(out.is_empty());
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn an_initiator_drops_a_connection_whose_logon_is_not_answered_in_logon_timeout() {
        let (mut ic, _) = common::configs();
        ic.logon_timeout = secs(5);
        let mut s = Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY);
        let app = &mut Recorder::default();
        s.connected(t0(), app).unwrap();
        assert_eq!(s.poll_timeout().map(|t| t.wall), Some(t0() + secs(5)));
        s.handle_timeout(t0() + secs(5) - ms(1), app).unwrap();
        assert!(!s.wants_disconnect());
        s.handle_timeout(t0() + secs(5), app).unwrap();
        assert!(s.wants_disconnect());
    }

    #[test]
    fn a_logon_with_another_begin_string_is_dropped_without_an_answer() {
        let mut one = One::new(acceptor());
        let logon = msg_with(
            "FIX.4.2",
            &[
                (35, "A"),
                (34, "1"),
                (49, "CLIENT"),
                (52, &ts(t0())),
                (56, "BROKER"),
                (98, "0"),
                (108, "30"),
            ],
        );
        let out = one.feed(&logon);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
        assert_eq!(one.app.logons, 0);
    }

    #[test]
    fn a_message_with_another_begin_string_when_logged_on_gets_a_logout() {
        let mut one = One::logged_on(acceptor());
        let hb = msg_with(
            "FIX.4.2",
            &[
                (35, "0"),
                (34, "2"),
                (49, "CLIENT"),
                (52, &ts(t0())),
                (56, "BROKER"),
            ],
        );
        let out = one.feed(&hb);
        assert_eq!(types(&out), ["5"], "{:?}", show_all(&out));
        has(&out[0], &[(34, "2"), (58, "Incorrect BeginString")]);
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn a_logon_from_the_wrong_comp_id_is_dropped_without_an_answer() {
        let mut one = One::new(acceptor());
        let logon = msg_with(
            "FIX.4.4",
            &[
                (35, "A"),
                (34, "1"),
                (49, "OTHER"),
                (52, &ts(t0())),
                (56, "BROKER"),
                (98, "0"),
                (108, "30"),
            ],
        );
        let out = one.feed(&logon);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
        assert_eq!(one.app.logons, 0);
    }

    #[test]
    fn a_message_with_the_wrong_comp_ids_is_rejected_then_logged_out() {
        let mut one = One::logged_on(acceptor());
        let hb = msg_with(
            "FIX.4.4",
            &[
                (35, "0"),
                (34, "2"),
                (49, "CLIENT"),
                (52, &ts(t0())),
                (56, "SOMEONE"),
            ],
        );
        let out = one.feed(&hb);
        assert_eq!(types(&out), ["3", "5"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 52, 56, 45, 58, 372, 373, 10]
        );
        has(
            &out[0],
            &[
                (34, "2"),
                (45, "2"),
                (58, "CompID problem"),
                (372, "0"),
                (373, "9"),
            ],
        );
        has(&out[1], &[(34, "3")]);
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn a_second_logon_on_a_logged_on_session_ends_it() {
        let mut one = One::logged_on(acceptor());
        let out = one.send("A", &[(98, "0"), (108, "30")]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn a_logon_the_application_refuses_gets_a_logout_with_its_text() {
        let mut one = One::new(acceptor());
        one.app.refuse_logon = Some("bad password".into());
        let out = one.send("A", &[(98, "0"), (108, "30")]);
        assert_eq!(types(&out), ["5"], "{:?}", show_all(&out));
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 58, 10]);
        has(&out[0], &[(34, "1"), (58, "bad password")]);
        assert!(one.s.wants_disconnect());
        assert_eq!((one.s.state(), one.app.logons), (State::AwaitingLogon, 0));
    }
}

mod sequence {
    use super::*;

    #[test]
    fn a_number_too_high_asks_for_a_resend_from_the_expected_number_to_0() {
        let mut one = One::logged_on(acceptor());
        let out = one.send_at("0", 5, &[]);
        assert_eq!(types(&out), ["2"], "{:?}", show_all(&out));
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 7, 16, 10]);
        has(&out[0], &[(34, "2"), (7, "2"), (16, "0")]);
        assert_eq!(one.next_target(), 2);
    }

    #[test]
    fn before_fix42_a_resend_request_asks_up_to_999999() {
        let mut one = One::logged_on(acceptor_of("FIX.4.1"));
        let out = one.send_at("0", 5, &[]);
        assert_eq!(types(&out), ["2"], "{:?}", show_all(&out));
        has(&out[0], &[(7, "2"), (16, "999999")]);
    }

    #[test]
    fn a_second_message_past_the_same_gap_asks_for_nothing_more() {
        let mut one = One::logged_on(acceptor());
        one.send_at("0", 5, &[]);
        let out = one.send_at("0", 6, &[]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
    }

    #[test]
    fn resend_request_chunk_size_bounds_each_request_and_the_next_chunk_follows() {
        let mut config = acceptor();
        config.resend_request_chunk_size = 3;
        let mut one = One::logged_on(config);
        let out = one.send_at("0", 10, &[]);
        assert_eq!(types(&out), ["2"], "{:?}", show_all(&out));
        has(&out[0], &[(7, "2"), (16, "4")]);
        one.send_at("0", 2, &[]);
        one.send_at("0", 3, &[]);
        // The first chunk is in: the session asks for the next one.
        let out = one.send_at("0", 4, &[]);
        assert_eq!(types(&out), ["2"], "{:?}", show_all(&out));
        has(&out[0], &[(7, "5"), (16, "7")]);
        for n in 5..=7 {
            one.send_at("0", n, &[]);
        }
        // The last part of the gap is within one chunk.
        let out = one.send_at("0", 8, &[]);
        assert_eq!(types(&out), [] as [&str; 0], "{:?}", show_all(&out));
        one.send_at("0", 9, &[]);
        assert_eq!(one.next_target(), 11, "the queued 10 was handled");
    }

    #[test]
    fn messages_past_a_gap_are_handled_in_order_once_it_is_filled() {
        let mut one = One::logged_on(acceptor());
        one.send_at("D", 4, &order("O4"));
        one.send_at("D", 5, &order("O5"));
        assert!(one.app.received.is_empty());
        let orig = ts(t0());
        let resent = |id| {
            let mut f = vec![(43, "Y"), (122, orig.as_str())];
            f.extend_from_slice(&order(id));
            f
        };
        one.send_at("D", 2, &resent("O2"));
        assert_eq!(one.app.received.len(), 1);
        let out = one.send_at("D", 3, &resent("O3"));
        assert!(out.is_empty(), "{:?}", show_all(&out));
        let ids: Vec<&[u8]> = one.app.received.iter().map(|r| &r.1[..]).collect();
        assert_eq!(ids, [&b"O2"[..], b"O3", b"O4", b"O5"]);
        assert_eq!(one.next_target(), 6);
    }

    #[test]
    fn a_poss_dup_duplicate_is_ignored() {
        let mut one = One::logged_on(acceptor());
        one.send("D", &order("O2"));
        let mut dup = vec![(43, "Y"), (122, "20260921-14:13:19.000")];
        dup.extend_from_slice(&order("O2"));
        let out = one.send_at("D", 2, &dup);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert_eq!(one.app.received.len(), 1);
        assert_eq!(one.next_target(), 3);
        assert!(!one.s.wants_disconnect());
    }

    #[test]
    fn a_poss_dup_without_orig_sending_time_is_rejected() {
        let mut one = One::logged_on(acceptor());
        one.send("D", &order("O2"));
        let mut dup = vec![(43, "Y")];
        dup.extend_from_slice(&order("O2"));
        let out = one.send_at("D", 2, &dup);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        has(
            &out[0],
            &[
                (45, "2"),
                (58, "Required tag missing"),
                (371, "122"),
                (372, "D"),
                (373, "1"),
            ],
        );
        assert!(!one.s.wants_disconnect());
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_poss_dup_sent_before_its_orig_sending_time_is_rejected_and_logged_out() {
        let mut one = One::logged_on(acceptor());
        one.send("D", &order("O2"));
        let later = ts(t0() + secs(1));
        let mut dup = vec![(43, "Y"), (122, later.as_str())];
        dup.extend_from_slice(&order("O2"));
        let out = one.send_at("D", 2, &dup);
        assert_eq!(types(&out), ["3", "5"], "{:?}", show_all(&out));
        has(
            &out[0],
            &[
                (45, "2"),
                (58, "SendingTime accuracy problem"),
                (372, "D"),
                (373, "10"),
            ],
        );
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn a_sending_time_outside_max_latency_is_rejected_and_logged_out() {
        let mut config = acceptor();
        config.max_latency = secs(5);
        let mut one = One::logged_on(config);
        let late = one.build_at("0", 2, &ts(t0() - secs(5) - ms(1)), &[]);
        let out = one.feed(&late);
        assert_eq!(types(&out), ["3", "5"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 52, 56, 45, 58, 372, 373, 10]
        );
        has(
            &out[0],
            &[
                (34, "2"),
                (45, "2"),
                (58, "SendingTime accuracy problem"),
                (372, "0"),
                (373, "10"),
            ],
        );
        has(&out[1], &[(34, "3")]);
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn a_sending_time_at_max_latency_either_side_passes() {
        let mut config = acceptor();
        config.max_latency = secs(5);
        let mut one = One::logged_on(config);
        let early = one.build_at("1", 2, &ts(t0() - secs(5)), &[(112, "A")]);
        let late = one.build_at("1", 3, &ts(t0() + secs(5)), &[(112, "B")]);
        let out = one.feed(&[early, late].concat());
        assert_eq!(types(&out), ["0", "0"], "{:?}", show_all(&out));
        assert_eq!(one.next_target(), 4);
    }

    #[test]
    fn check_latency_off_takes_any_sending_time() {
        let mut config = acceptor();
        config.check_latency = false;
        let mut one = One::logged_on(config);
        let old = one.build_at("1", 2, "20010101-00:00:00", &[(112, "A")]);
        let out = one.feed(&old);
        assert_eq!(types(&out), ["0"], "{:?}", show_all(&out));
    }
}

mod resend {
    use super::*;

    #[test]
    fn an_application_message_is_resent_with_poss_dup_orig_sending_time_and_a_fresh_header() {
        let mut one = One::logged_on(acceptor());
        one.order("O2");
        let original = one.take().remove(0);
        one.now = t0() + secs(20);
        let out = one.send("2", &[(7, "2"), (16, "2")]);
        assert_eq!(out.len(), 1, "{:?}", show_all(&out));
        let m = &out[0];
        assert_eq!(
            tags(m),
            [
                8, 9, 35, 34, 43, 49, 52, 56, 122, 11, 21, 55, 54, 60, 40, 10
            ]
        );
        has(
            m,
            &[
                (35, "D"),
                (34, "2"),
                (43, "Y"),
                (52, "20260921-14:13:40.000"),
                (122, "20260921-14:13:20.000"),
                (11, "O2"),
            ],
        );
        // The body is the original's; BodyLength and CheckSum are the new
        // message's (the naive parser checked both).
        let body = |m: &[u8]| -> Vec<(u32, String)> {
            fields(m)
                .into_iter()
                .filter(|(t, _)| !fix_session::is_header_or_trailer(*t))
                .collect()
        };
        assert_eq!(body(m), body(&original));
        assert_ne!(get(m, 9), get(&original, 9));
    }

    #[test]
    fn a_resend_keeps_every_field_the_application_gave_header_tags_included() {
        let mut one = One::logged_on(acceptor());
        // Routing and sub-IDs the application writes itself, among the body.
        let body = "115=DESK\x0150=TRADER1\x0111=O2\x0121=1\x0155=X\x0154=1\x01\
                    60=20260921-14:13:20\x0140=1\x01";
        one.s
            .send(one.now, b"D", body.as_bytes(), &mut one.app)
            .unwrap();
        let original = one.take().remove(0);
        one.now = t0() + secs(20);
        let out = one.send("2", &[(7, "2"), (16, "2")]);
        assert_eq!(types(&out), ["D"], "{:?}", show_all(&out));
        let after_header = |m: &[u8]| -> Vec<(u32, String)> {
            fields(m)
                .into_iter()
                .filter(|(t, _)| !matches!(t, 8 | 9 | 10 | 34 | 35 | 43 | 49 | 52 | 56 | 97 | 122))
                .collect()
        };
        assert_eq!(after_header(&out[0]), after_header(&original));
        has(&out[0], &[(115, "DESK"), (50, "TRADER1"), (43, "Y")]);
    }

    #[test]
    fn admin_messages_in_the_range_become_gap_fill_runs() {
        let mut one = One::logged_on(acceptor());
        one.order("O2");
        one.at(t0() + secs(30)); // Heartbeat 3
        one.order("O4");
        one.take();
        one.send("0", &[]); // keeps CLIENT heard
        let out = one.send("2", &[(7, "1"), (16, "0")]);
        assert_eq!(types(&out), ["4", "D", "4", "D"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 43, 49, 52, 56, 122, 36, 123, 10]
        );
        has(&out[0], &[(34, "1"), (43, "Y"), (36, "2"), (123, "Y")]);
        has(&out[1], &[(34, "2"), (11, "O2"), (43, "Y")]);
        has(&out[2], &[(34, "3"), (36, "4"), (123, "Y")]);
        has(&out[3], &[(34, "4"), (11, "O4")]);
    }

    #[test]
    fn an_end_seq_no_of_0_or_past_the_last_sent_means_up_to_the_last_sent() {
        for end in ["0", "99"] {
            let mut one = One::logged_on(acceptor());
            one.order("O2");
            one.order("O3");
            one.take();
            let out = one.send("2", &[(7, "2"), (16, end)]);
            assert_eq!(types(&out), ["D", "D"], "{end}: {:?}", show_all(&out));
            has(&out[1], &[(34, "3")]);
        }
    }

    #[test]
    fn before_fix42_an_end_seq_no_of_999999_means_to_the_end() {
        for (begin, resent) in [("FIX.4.1", 1), ("FIX.4.2", 0)] {
            let mut config = acceptor_of(begin);
            config.validator = None;
            let mut one = One::with_store(config, store_at(1_000_005, 1));
            one.send("A", &[(98, "0"), (108, "30")]);
            one.order("O");
            one.take();
            let out = one.send("2", &[(7, "1000006"), (16, "999999")]);
            assert_eq!(out.len(), resent, "{begin}: {:?}", show_all(&out));
        }
    }

    #[test]
    fn simultaneous_resend_requests_are_both_served() {
        let mut p = common::Pair::logged_on();
        p.aa.echo = false;
        for i in 0..2 {
            let body =
                format!("11=I{i}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
            p.init
                .send(p.now, b"D", body.as_bytes(), &mut p.ia)
                .unwrap();
            let body = body.replace("=I", "=A");
            p.acc.send(p.now, b"D", body.as_bytes(), &mut p.aa).unwrap();
        }
        // Both lose what the other sent.
        let n = p.init.output().len();
        p.init.consume_output(n);
        let n = p.acc.output().len();
        p.acc.consume_output(n);
        let body = b"11=LAST\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01";
        p.init.send(p.now, b"D", body, &mut p.ia).unwrap();
        p.acc.send(p.now, b"D", body, &mut p.aa).unwrap();
        let (from_init, from_acc) = p.pump();
        assert_eq!(types(&from_init[1..2]), ["2"]);
        assert_eq!(types(&from_acc[1..2]), ["2"]);
        let ids = |r: &Recorder| -> Vec<String> {
            r.received
                .iter()
                .map(|(_, id)| String::from_utf8_lossy(id).into_owned())
                .collect()
        };
        assert_eq!(ids(&p.aa), ["I0", "I1", "LAST"]);
        assert_eq!(ids(&p.ia), ["A0", "A1", "LAST"]);
        assert_eq!(
            p.acc.store().next_target_seq(),
            p.init.store().next_sender_seq()
        );
        assert_eq!(
            p.init.store().next_target_seq(),
            p.acc.store().next_sender_seq()
        );
        assert!(!p.init.wants_disconnect() && !p.acc.wants_disconnect());
    }

    #[test]
    fn a_big_resend_is_paced_below_the_high_water_mark_and_live_traffic_follows_it() {
        const STORED: u64 = 20_000;
        const HIGH_WATER: usize = 256 * 1024;
        let mut one = One::logged_on(acceptor());
        for i in 0..STORED {
            one.order(&format!("O{i}"));
            one.take();
        }
        let last = STORED + 1;
        let rr = one.build("2", 2, &[(7, "1"), (16, "0")]);
        one.s.handle_bytes(one.now, &rr, &mut one.app).unwrap();
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut largest = 0;
        let mut rounds = 0;
        let (mut live_at, mut heartbeat_at) = (None, None);
        loop {
            let held = one.s.output().len();
            largest = largest.max(held);
            let out = one.take();
            seen.extend(out);
            if seen.iter().any(|m| get(m, 34) == Some(last.to_string())) {
                break;
            }
            rounds += 1;
            if rounds == 2 {
                let seq = one.order("LIVE");
                live_at = Some((seq, seen.len()));
                // A heartbeat falls due in the middle of the resend.
                one.now += secs(31);
                heartbeat_at = Some(seen.len());
            }
            assert!(
                one.s.poll_timeout().is_some_and(|t| t.wall <= one.now),
                "the resend is due now"
            );
            one.s.handle_timeout(one.now, &mut one.app).unwrap();
        }
        assert!(rounds >= 3, "served over several rounds: {rounds}");
        // Chunks are read whole (at most 64 KiB) while the output is below the mark.
        assert!(
            largest <= HIGH_WATER + 64 * 1024,
            "the output held {largest} bytes"
        );
        let resent = seen
            .iter()
            .filter(|m| get(m, 43).as_deref() == Some("Y") && get(m, 35).as_deref() == Some("D"))
            .count();
        let fills: Vec<(String, String)> = seen
            .iter()
            .filter(|m| get(m, 35).as_deref() == Some("4"))
            .map(|m| (get(m, 34).unwrap(), get(m, 36).unwrap()))
            .collect();
        assert_eq!(resent as u64, STORED);
        assert_eq!(fills, [("1".to_string(), "2".to_string())], "the Logon");
        let (live_seq, _) = live_at.unwrap();
        let live = seen
            .iter()
            .position(|m| get(m, 11).as_deref() == Some("LIVE"))
            .expect("the live order went out");
        has(&seen[live], &[(34, &live_seq.to_string())]);
        assert_eq!(get(&seen[live], 43), None);
        let hb = seen
            .iter()
            .skip(heartbeat_at.unwrap())
            .position(|m| get(m, 35).as_deref() == Some("0"))
            .map(|i| i + heartbeat_at.unwrap())
            .expect("the heartbeat went out");
        // Numbered after the resend, both leave after its last message: the
        // counterparty sees every number in order (QuickFIX C++ drops a gap
        // fill that comes after a higher number, and stalls).
        let end = seen
            .iter()
            .position(|m| get(m, 34) == Some(last.to_string()))
            .unwrap();
        assert!(
            live > end && hb > live,
            "after the resend: {end} {live} {hb}"
        );
        let numbers: Vec<u64> = seen
            .iter()
            .map(|m| get(m, 34).unwrap().parse().unwrap())
            .collect();
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "in sequence order");
    }
}

mod sequence_reset {
    use super::*;

    #[test]
    fn a_gap_fill_moves_the_expected_number_up() {
        let mut one = One::logged_on(acceptor());
        let out = one.send_at(
            "4",
            2,
            &[(43, "Y"), (122, &ts(t0())), (36, "10"), (123, "Y")],
        );
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert_eq!(one.next_target(), 10);
    }

    #[test]
    fn a_gap_fill_past_the_expected_number_asks_for_a_resend() {
        let mut one = One::logged_on(acceptor());
        let out = one.send_at("4", 5, &[(36, "10"), (123, "Y")]);
        assert_eq!(types(&out), ["2"], "{:?}", show_all(&out));
        has(&out[0], &[(7, "2"), (16, "0")]);
        assert_eq!(one.next_target(), 2);
    }

    #[test]
    fn a_reset_moves_the_expected_number_whatever_its_own_number() {
        let mut one = One::logged_on(acceptor());
        let out = one.send_at("4", 50, &[(36, "20")]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert_eq!(one.next_target(), 20);
    }

    #[test]
    fn a_reset_to_a_lower_number_is_rejected_and_uses_no_number() {
        let mut one = One::logged_on(acceptor());
        one.send("0", &[]);
        let out = one.send_at("4", 3, &[(36, "2")]);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 52, 56, 45, 58, 372, 373, 10]
        );
        has(
            &out[0],
            &[
                (45, "3"),
                (58, "Value is incorrect (out of range) for this tag"),
                (372, "4"),
                (373, "5"),
            ],
        );
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_gap_fill_to_a_lower_number_is_rejected_and_uses_its_number() {
        let mut one = One::logged_on(acceptor());
        one.send("0", &[]);
        let out = one.send_at("4", 3, &[(36, "2"), (123, "Y")]);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        has(&out[0], &[(45, "3"), (372, "4"), (373, "5")]);
        assert_eq!(one.next_target(), 4);
    }

    #[test]
    fn a_gap_fill_to_the_expected_number_changes_nothing() {
        let mut one = One::logged_on(acceptor());
        let out = one.send_at("4", 2, &[(36, "2"), (123, "Y")]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert_eq!(one.next_target(), 2);
    }
}

mod heartbeat {
    use super::*;

    #[test]
    fn an_idle_session_heartbeats_after_heart_bt_int() {
        let mut one = One::logged_on(acceptor());
        assert_eq!(one.s.poll_timeout().map(|t| t.wall), Some(t0() + secs(30)));
        assert!(one.at(t0() + secs(30) - ms(1)).is_empty());
        let out = one.at(t0() + secs(30));
        assert_eq!(types(&out), ["0"]);
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 10]);
        has(&out[0], &[(34, "2"), (52, "20260921-14:13:50.000")]);
    }

    #[test]
    fn sending_puts_the_heartbeat_off() {
        let mut one = One::logged_on(acceptor());
        one.now = t0() + secs(20);
        one.order("O2");
        one.send("0", &[]);
        assert!(one.at(t0() + secs(30)).is_empty());
        assert_eq!(one.s.poll_timeout().map(|t| t.wall), Some(t0() + secs(50)));
        assert_eq!(types(&one.at(t0() + secs(50))), ["0"]);
    }

    #[test]
    fn a_silent_counterparty_gets_a_test_request_after_1_2_heart_bt_int() {
        let mut one = One::logged_on(acceptor());
        one.at(t0() + secs(30)); // our Heartbeat
        assert_eq!(one.s.poll_timeout().map(|t| t.wall), Some(t0() + secs(36)));
        assert!(one.at(t0() + secs(36) - ms(1)).is_empty());
        let out = one.at(t0() + secs(36));
        assert_eq!(types(&out), ["1"], "{:?}", show_all(&out));
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 112, 10]);
        has(&out[0], &[(34, "3"), (112, "TEST")]);
        assert!(!one.s.wants_disconnect());
    }

    #[test]
    fn an_answered_test_request_keeps_the_session() {
        let mut one = One::logged_on(acceptor());
        one.at(t0() + secs(36));
        one.now = t0() + secs(40);
        one.send("0", &[(112, "TEST")]);
        one.at(t0() + secs(72));
        assert!(!one.s.wants_disconnect());
        // The next TestRequest is due 1.2 x HeartBtInt after the answer.
        assert_eq!(one.s.poll_timeout().map(|t| t.wall), Some(t0() + secs(76)));
    }

    #[test]
    fn an_unanswered_test_request_ends_the_session_at_2_4_heart_bt_int() {
        let mut one = One::logged_on(acceptor());
        one.at(t0() + secs(36));
        one.at(t0() + secs(72) - ms(1));
        assert!(!one.s.wants_disconnect());
        let out = one.at(t0() + secs(72));
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn a_test_request_is_answered_with_a_heartbeat_carrying_its_test_req_id() {
        let mut one = One::logged_on(acceptor());
        let out = one.send("1", &[(112, "PING 7")]);
        assert_eq!(types(&out), ["0"]);
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 112, 10]);
        has(&out[0], &[(34, "2"), (112, "PING 7")]);
        assert_eq!(one.next_target(), 3);
    }
}

mod garbled_and_reject {
    use super::*;

    /// A TestRequest numbered 2 that must be answered: proof that what came
    /// before it used no number.
    fn probe(one: &mut One) {
        let out = one.send_at("1", 2, &[(112, "AFTER")]);
        assert_eq!(types(&out), ["0"], "{:?}", show_all(&out));
        has(&out[0], &[(112, "AFTER")]);
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_message_with_a_bad_checksum_is_dropped_without_using_a_number() {
        let mut one = One::logged_on(acceptor());
        let mut bad = one.build("1", 2, &[(112, "BAD")]);
        let n = bad.len();
        bad[n - 2] = if bad[n - 2] == b'0' { b'1' } else { b'0' };
        assert!(one.feed(&bad).is_empty());
        probe(&mut one);
    }

    #[test]
    fn a_message_with_a_bad_body_length_is_dropped_without_using_a_number() {
        let mut one = One::logged_on(acceptor());
        let good = one.build("1", 2, &[(112, "BAD")]);
        let text = String::from_utf8(good).unwrap();
        let len: usize = text.split('\x01').nth(1).unwrap()[2..].parse().unwrap();
        let bad = text.replacen(&format!("9={len}"), &format!("9={}", len - 3), 1);
        let mut bad = bad.into_bytes();
        fix_test_support::naive::fix_checksum(&mut bad);
        assert!(one.feed(&bad).is_empty());
        probe(&mut one);
    }

    #[test]
    fn a_message_whose_first_three_tags_are_out_of_order_is_dropped() {
        let mut one = One::logged_on(acceptor());
        let good = String::from_utf8(one.build("1", 2, &[(112, "BAD")])).unwrap();
        let f: Vec<&str> = good.split('\x01').collect();
        // 8, 35, 9 instead of 8, 9, 35.
        let mut bad = [f[0], f[2], f[1]].join("\x01");
        bad.push('\x01');
        bad.push_str(&f[3..f.len() - 2].join("\x01"));
        bad.push_str("\x0110=000\x01");
        let mut bad = bad.into_bytes();
        fix_test_support::naive::fix_checksum(&mut bad);
        assert!(one.feed(&bad).is_empty());
        assert!(!one.s.wants_disconnect());
        probe(&mut one);
    }

    #[test]
    fn a_value_the_dictionary_does_not_list_is_rejected_and_uses_its_number() {
        let mut one = One::logged_on(acceptor());
        let mut o = order("O2");
        o[3] = (54, "Z");
        let out = one.send("D", &o);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 52, 56, 45, 58, 371, 372, 373, 10]
        );
        has(
            &out[0],
            &[
                (34, "2"),
                (45, "2"),
                (58, "Value is incorrect (out of range) for this tag"),
                (371, "54"),
                (372, "D"),
                (373, "5"),
            ],
        );
        assert!(one.app.received.is_empty());
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_required_field_missing_is_rejected_with_reason_1() {
        let mut one = One::logged_on(acceptor());
        let out = one.send("D", &order("O2")[1..]);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        has(
            &out[0],
            &[
                (45, "2"),
                (58, "Required tag missing"),
                (371, "11"),
                (372, "D"),
                (373, "1"),
            ],
        );
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn an_unknown_msg_type_is_rejected_with_reason_11() {
        let mut one = One::logged_on(acceptor());
        let out = one.send("ZZ", &[]);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        has(
            &out[0],
            &[(45, "2"), (58, "Invalid MsgType"), (372, "ZZ"), (373, "11")],
        );
        assert_eq!(get(&out[0], 371), None);
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_msg_type_longer_than_a_reject_keeps_is_echoed_whole() {
        let long = "ZZZZZZZZZZZZZZZZZZZZZZZZ";
        assert!(long.len() > fix_core::validate::Echo::CAPACITY);
        let mut one = One::logged_on(acceptor());
        let out = one.send(long, &[]);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        has(&out[0], &[(45, "2"), (372, long), (373, "11")]);
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn an_unsupported_msg_type_gets_a_business_message_reject_from_fix42() {
        let mut one = One::logged_on(acceptor());
        one.app.reject = Some(fix_session::AppReject::Business {
            reason: 3,
            ref_tag: None,
            text: "Unsupported Message Type".into(),
        });
        let out = one.send("D", &order("O2"));
        assert_eq!(types(&out), ["j"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 52, 56, 45, 58, 372, 380, 10]
        );
        has(
            &out[0],
            &[
                (34, "2"),
                (45, "2"),
                (58, "Unsupported Message Type"),
                (372, "D"),
                (380, "3"),
            ],
        );
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn an_unsupported_msg_type_gets_a_reject_before_fix42() {
        let mut one = One::logged_on(acceptor_of("FIX.4.1"));
        one.app.reject = Some(fix_session::AppReject::Business {
            reason: 3,
            ref_tag: None,
            text: "ignored".into(),
        });
        let out = one.send("D", &order("O2"));
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 45, 58, 10]);
        has(&out[0], &[(45, "2"), (58, "Unsupported message type")]);
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_conditionally_required_field_missing_gets_a_business_message_reject() {
        let mut one = One::logged_on(acceptor());
        one.app.reject = Some(fix_session::AppReject::Business {
            reason: 5,
            ref_tag: Some(11),
            text: "Conditionally required field missing".into(),
        });
        let out = one.send("D", &order("O2"));
        assert_eq!(types(&out), ["j"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 52, 56, 45, 58, 372, 379, 380, 10]
        );
        has(
            &out[0],
            &[
                (45, "2"),
                (58, "Conditionally required field missing"),
                (372, "D"),
                (379, "O2"),
                (380, "5"),
            ],
        );
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_session_reject_from_the_application_names_reason_tag_and_text() {
        let mut one = One::logged_on(acceptor());
        one.app.reject = Some(fix_session::AppReject::Session {
            reason: 5,
            ref_tag: Some(54),
            text: "no such side here".into(),
        });
        let out = one.send("D", &order("O2"));
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        has(
            &out[0],
            &[
                (45, "2"),
                (58, "no such side here"),
                (371, "54"),
                (372, "D"),
                (373, "5"),
            ],
        );
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_received_reject_goes_to_from_admin_and_the_session_goes_on() {
        let mut one = One::logged_on(acceptor());
        let out = one.send("3", &[(45, "1"), (58, "whatever")]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert_eq!(one.app.admin.last(), Some(&(b"3".to_vec(), b"2".to_vec())));
        assert_eq!(one.next_target(), 3);
        assert!(!one.s.wants_disconnect());
        probe_at(&mut one, 3);
    }

    fn probe_at(one: &mut One, seq: u64) {
        let out = one.send_at("1", seq, &[(112, "AFTER")]);
        assert_eq!(types(&out), ["0"], "{:?}", show_all(&out));
    }
}

mod logout {
    use super::*;

    #[test]
    fn our_logout_carries_its_text_and_waits_logout_timeout_for_the_answer() {
        let mut config = acceptor();
        config.logout_timeout = secs(3);
        let mut one = One::logged_on(config);
        one.s
            .logout(one.now, Some("end of day"), &mut one.app)
            .unwrap();
        let out = one.take();
        assert_eq!(types(&out), ["5"]);
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 58, 10]);
        has(&out[0], &[(34, "2"), (58, "end of day")]);
        assert_eq!(one.s.state(), State::LogoutSent);
        assert_eq!(one.s.poll_timeout().map(|t| t.wall), Some(t0() + secs(3)));
        one.at(t0() + secs(3) - ms(1));
        assert!(!one.s.wants_disconnect());
        assert!(one.at(t0() + secs(3)).is_empty());
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn the_answer_to_our_logout_ends_the_session_without_another_logout() {
        let mut one = One::logged_on(acceptor());
        one.s.logout(one.now, None, &mut one.app).unwrap();
        one.take();
        let out = one.send("5", &[]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn a_logout_asked_for_after_the_peer_s_was_answered_sends_nothing() {
        // An engine shut down while its answer to the peer's Logout is on the
        // wire (the connection not yet closed): the answer was the last
        // message; another would take a number the peer never sees.
        let mut one = One::logged_on(acceptor());
        one.send("5", &[]);
        one.take();
        let next = one.s.store().next_sender_seq();
        one.s.logout(one.now, None, &mut one.app).unwrap();
        assert!(one.s.output().is_empty(), "{:?}", show_all(&one.take()));
        assert_eq!(one.s.store().next_sender_seq(), next);
    }

    #[test]
    fn a_logout_is_answered_with_a_logout_without_text() {
        let mut one = One::logged_on(acceptor());
        let out = one.send("5", &[(58, "bye")]);
        assert_eq!(types(&out), ["5"], "{:?}", show_all(&out));
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 10]);
        assert!(one.s.wants_disconnect());
        assert_eq!(one.app.admin.last(), Some(&(b"5".to_vec(), b"2".to_vec())));
    }
}

mod routing {
    use super::*;

    const ROUTE: [(u32, &str); 6] = [
        (115, "ONB"),
        (116, "ONBSUB"),
        (128, "DLV"),
        (129, "DLVSUB"),
        (144, "ONBLOC"),
        (145, "DLVLOC"),
    ];

    #[test]
    fn a_reject_goes_back_along_the_route_reversed() {
        let mut one = One::logged_on(acceptor());
        let mut f = ROUTE.to_vec();
        let mut o = order("O2");
        o[3] = (54, "Z");
        f.extend_from_slice(&o);
        let out = one.send("D", &f);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [
                8, 9, 35, 34, 49, 52, 56, 115, 116, 128, 129, 144, 145, 45, 58, 371, 372, 373, 10
            ]
        );
        has(
            &out[0],
            &[
                (115, "DLV"),
                (116, "DLVSUB"),
                (128, "ONB"),
                (129, "ONBSUB"),
                (144, "DLVLOC"),
                (145, "ONBLOC"),
            ],
        );
    }

    #[test]
    fn a_business_message_reject_goes_back_along_the_route_reversed() {
        let mut one = One::logged_on(acceptor());
        one.app.reject = Some(fix_session::AppReject::Business {
            reason: 3,
            ref_tag: None,
            text: "Unsupported Message Type".into(),
        });
        let mut f = vec![(115, "ONB"), (128, "DLV")];
        f.extend_from_slice(&order("O2"));
        let out = one.send("D", &f);
        assert_eq!(types(&out), ["j"], "{:?}", show_all(&out));
        has(&out[0], &[(115, "DLV"), (128, "ONB")]);
    }

    #[test]
    fn messages_the_session_writes_unprompted_carry_no_route() {
        let mut one = One::logged_on(acceptor());
        let mut f = vec![(115, "ONB")];
        f.extend_from_slice(&[(112, "T")]);
        let out = one.send("1", &f);
        assert_eq!(types(&out), ["0"], "{:?}", show_all(&out));
        assert_eq!(tags(&out[0]), [8, 9, 35, 34, 49, 52, 56, 112, 10]);
    }

    #[test]
    fn fix40_has_no_location_ids_to_reverse() {
        let mut one = One::logged_on(acceptor_of("FIX.4.0"));
        one.app.reject = Some(fix_session::AppReject::Session {
            reason: 5,
            ref_tag: Some(54),
            text: "no".into(),
        });
        let mut f = ROUTE.to_vec();
        f.extend_from_slice(&order("O2"));
        let out = one.send("D", &f);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 52, 56, 115, 116, 128, 129, 45, 58, 10]
        );
    }
}

mod max_resend_range {
    use super::*;

    /// A logged-on acceptor that has sent 100 messages (its Logon and orders
    /// 2..=100), resending at most `max` a request (`None`: the default).
    fn sent_100(max: Option<u64>) -> One {
        let mut config = acceptor();
        if max.is_some() {
            config.max_resend_range = max;
        }
        let mut one = One::logged_on(config);
        for i in 2..=100 {
            one.order(&format!("O{i}"));
        }
        one.take();
        one
    }

    #[test]
    fn a_request_past_the_limit_gets_one_gap_fill_then_the_newest_resent() {
        let mut one = sent_100(Some(10));
        // EndSeqNo 0 counts up to the last sent, 100.
        let out = one.send("2", &[(7, "1"), (16, "0")]);
        assert_eq!(out.len(), 11, "{:?}", show_all(&out));
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 43, 49, 52, 56, 122, 36, 123, 10]
        );
        has(
            &out[0],
            &[(35, "4"), (34, "1"), (43, "Y"), (36, "91"), (123, "Y")],
        );
        for (m, seq) in out[1..].iter().zip(91..) {
            has(
                m,
                &[
                    (35, "D"),
                    (34, &seq.to_string()),
                    (43, "Y"),
                    (11, &format!("O{seq}")),
                ],
            );
        }
    }

    #[test]
    fn a_request_of_exactly_the_limit_is_resent_whole() {
        let mut one = sent_100(Some(99));
        let out = one.send("2", &[(7, "2"), (16, "100")]);
        assert_eq!(types(&out), vec!["D"; 99], "{:?}", show_all(&out));
        has(&out[0], &[(34, "2")]);
        has(&out[98], &[(34, "100")]);
    }

    #[test]
    fn a_request_one_past_the_limit_gap_fills_its_first_number() {
        let mut one = sent_100(Some(98));
        let out = one.send("2", &[(7, "2"), (16, "100")]);
        assert_eq!(out.len(), 99, "{:?}", show_all(&out));
        has(&out[0], &[(35, "4"), (34, "2"), (36, "3"), (123, "Y")]);
        has(&out[1], &[(35, "D"), (34, "3")]);
    }

    #[test]
    fn by_default_the_whole_range_is_resent() {
        let mut one = sent_100(None);
        let out = one.send("2", &[(7, "2"), (16, "0")]);
        assert_eq!(types(&out), vec!["D"; 99], "{:?}", show_all(&out));
    }
}

/// What a peer sends is bounded before it is used, and a Logon is verified
/// before it changes anything (issue 24's hostile peers).
mod bounds {
    use super::*;
    use fix_session::Event;

    /// The events that report a bound or an error (not the session's
    /// ordinary course, nor the disconnect that follows them).
    fn events(one: &mut One) -> Vec<Event> {
        std::iter::from_fn(|| one.s.poll_event())
            .filter(|e| e.is_warning() && !matches!(e, Event::DisconnectWanted(_)))
            .collect()
    }

    #[test]
    fn a_logon_asking_for_an_absurd_heartbeat_is_refused_without_a_panic() {
        // With the dictionary, a value that is no integer is refused by it
        // first (the connection drops); without one, the session's own bound
        // answers every case with a Logout naming HeartBtInt.
        for validate in [true, false] {
            for hb in [
                "9000000000000000000",
                "86401",
                "-30",
                "99999999999999999999999",
                "30x",
            ] {
                let mut config = acceptor();
                if !validate {
                    config.validator = None;
                }
                let mut one = One::with_store(config, store_at(7, 5));
                let out = one.send_at("A", 5, &[(98, "0"), (108, hb)]);
                assert!(one.s.wants_disconnect(), "{hb}");
                assert_ne!(one.s.state(), State::LoggedOn);
                // Nothing was taken from the Logon: its number was not used.
                assert_eq!(one.next_target(), 5, "{hb}");
                // No deadline is computed from it either.
                let _ = one.s.poll_timeout();
                if !validate || !["99999999999999999999999", "30x"].contains(&hb) {
                    assert_eq!(types(&out), ["5"], "HeartBtInt {hb}: {:?}", show_all(&out));
                    assert!(get(&out[0], 58).unwrap().contains("HeartBtInt"), "{hb}");
                    assert!(matches!(
                        &events(&mut one)[..],
                        [Event::LogonRefused { .. }]
                    ));
                }
            }
        }
    }

    #[test]
    fn a_plus_sign_is_no_number_in_any_field_the_session_reads_itself() {
        // The numbers the session reads itself, with no dictionary in front:
        // "+N" is refused exactly as "xN" is (fix-core's digit parser takes
        // digits only), never read as N.
        type Case = fn(&mut One, &str) -> Vec<Vec<u8>>;
        let cases: [(&str, &str, Case); 6] = [
            ("MsgSeqNum", "2", |one, v| {
                let m = msg_with(
                    "FIX.4.4",
                    &[
                        (35, "0"),
                        (34, v),
                        (49, "CLIENT"),
                        (52, &ts(one.now)),
                        (56, "BROKER"),
                    ],
                );
                one.feed(&m)
            }),
            (
                "MsgSeqNum of a message that does not index",
                "2",
                |one, v| {
                    let body = format!(
                        "35=0\x0134={v}\x0149=CLIENT\x0152={}\x0156=BROKER\x01-1=HI\x01",
                        ts(one.now)
                    );
                    one.feed(&fix_test_support::naive::build_with(
                        "FIX.4.4",
                        body.as_bytes(),
                    ))
                },
            ),
            ("HeartBtInt", "30", |one, v| {
                one.s.disconnected(one.now, &mut one.app).unwrap();
                one.s.store_mut().reset(one.now).unwrap();
                one.s.connected(one.now, &mut one.app).unwrap();
                one.take();
                one.send_at("A", 1, &[(98, "0"), (108, v)])
            }),
            ("BeginSeqNo", "3", |one, v| {
                one.send("2", &[(7, v), (16, "0")])
            }),
            ("EndSeqNo", "2", |one, v| {
                one.send("2", &[(7, "2"), (16, v)])
            }),
            ("NewSeqNo", "10", |one, v| one.send("4", &[(36, v)])),
        ];
        for (field, n, case) in cases {
            let run = |value: &str| {
                let mut config = acceptor();
                config.validator = None;
                let mut one = One::logged_on(config);
                for id in ["O2", "O3", "O4"] {
                    one.order(id);
                }
                one.take();
                events(&mut one);
                let out = case(&mut one, value);
                let state = (one.s.state(), one.s.wants_disconnect(), one.next_target());
                (show_all(&out), events(&mut one), state)
            };
            let plus = run(&format!("+{n}"));
            assert_eq!(plus, run(&format!("x{n}")), "{field}");
            assert_ne!(plus, run(n), "{field}: +{n} read as {n}");
        }
    }

    #[test]
    fn the_largest_heartbeat_interval_works_and_its_deadlines_fit() {
        let mut one = One::new(acceptor());
        let out = one.send("A", &[(98, "0"), (108, "86400")]);
        assert_eq!(types(&out), ["A"]);
        has(&out[0], &[(108, "86400")]);
        let due = one.s.poll_timeout().unwrap().wall;
        assert_eq!(
            due,
            one.now + secs(86_400),
            "a heartbeat after one interval"
        );
    }

    #[test]
    fn a_reset_logon_that_fails_verification_erases_nothing() {
        // ResetSeqNumFlag=Y with a SendingTime five minutes off, then with the
        // wrong CompID: both refused; the stored messages and numbers stay.
        let skewed = ts(t0() - secs(300));
        for (sending, sender) in [(skewed.as_str(), "CLIENT"), (&ts(t0()), "INTRUDER")] {
            let mut one = One::with_store(acceptor(), store_at(7, 5));
            let logon = msg_with(
                "FIX.4.4",
                &[
                    (35, "A"),
                    (34, "1"),
                    (49, sender),
                    (52, sending),
                    (56, "BROKER"),
                    (98, "0"),
                    (108, "30"),
                    (141, "Y"),
                ],
            );
            one.feed(&logon);
            assert!(one.s.wants_disconnect(), "{sender} {sending}");
            assert_eq!((one.next_sender(), one.next_target()), (7, 5), "{sender}");
        }
    }

    #[test]
    fn a_mid_session_reset_logon_that_fails_verification_erases_nothing() {
        let mut one = One::logged_on(acceptor());
        one.order("KEPT");
        one.take();
        let skewed = ts(t0() - secs(300));
        let logon = one.build_at("A", 2, &skewed, &[(98, "0"), (108, "30"), (141, "Y")]);
        let out = one.feed(&logon);
        assert_eq!(types(&out), ["3", "5"], "a Reject and a Logout");
        assert!(one.s.wants_disconnect());
        // Numbers go on from where they were; the order is still stored.
        assert_eq!((one.next_sender(), one.next_target()), (5, 2));
        let mut kept = Vec::new();
        one.s
            .store_mut()
            .read_stored(2, 2, fix_session::ChunkLimit::default(), &mut |seq, _| {
                kept.push(seq)
            })
            .unwrap();
        assert_eq!(kept, [2]);
    }

    #[test]
    fn a_new_period_resets_at_the_verified_logon_not_before() {
        let mut one = One::with_store(acceptor(), store_at(7, 5));
        one.s.reset_on_next_logon();
        let skewed = ts(t0() - secs(300));
        let bad = one.build_at("A", 1, &skewed, &[(98, "0"), (108, "30")]);
        one.feed(&bad);
        assert_eq!(
            (one.next_sender(), one.next_target()),
            (7, 5),
            "refused: kept"
        );
        one.s.disconnected(one.now, &mut one.app).unwrap();
        // The next connection's good Logon, numbered 1 for the new period.
        one.s.connected(one.now, &mut one.app).unwrap();
        let out = one.send_at("A", 1, &[(98, "0"), (108, "30")]);
        assert_eq!(types(&out), ["A"], "{:?}", show_all(&out));
        has(&out[0], &[(34, "1")]);
        assert_eq!((one.next_sender(), one.next_target()), (2, 2));
    }

    #[test]
    fn a_message_that_never_completes_is_dropped_at_the_parser_s_bound() {
        let mut one = One::logged_on(acceptor());
        let limit = fix_core::DEFAULT_MAX_MESSAGE_SIZE;
        // BodyLength says 20 bytes; no CheckSum ever follows.
        let mut bad = b"8=FIX.4.4\x019=20\x0135=D\x0134=2\x01".to_vec();
        one.feed(&bad);
        bad.clear();
        bad.resize(4096, b'x');
        for _ in 0..200 {
            one.feed(&bad);
            assert!(
                one.s.received_len() <= limit + bad.len(),
                "holds {}",
                one.s.received_len()
            );
        }
        assert!(
            events(&mut one)
                .iter()
                .any(|e| matches!(e, Event::InputDropped { .. }))
        );
        // A good message after the noise is handled.
        let order = one.build("D", 2, &order("AFTER"));
        one.feed(&order);
        assert_eq!(one.app.received.last().unwrap().1, b"AFTER");
    }

    #[test]
    fn messages_above_a_gap_are_queued_up_to_the_bound_and_none_is_lost() {
        let mut config = acceptor();
        config.max_queued_bytes = 8 * 1024;
        let mut one = One::logged_on(config);
        // Number 2 is lost; 3..=400 arrive and wait for it.
        let orders: Vec<Vec<u8>> = (3..=400)
            .map(|seq| one.build("D", seq, &order(&format!("O{seq}"))))
            .collect();
        let mut asked = Vec::new();
        for m in &orders {
            asked.extend(one.feed(m));
            assert!(one.s.received_len() <= 8 * 1024, "{}", one.s.received_len());
        }
        assert_eq!(types(&asked), ["2"], "one ResendRequest");
        assert!(
            events(&mut one)
                .iter()
                .any(|e| matches!(e, Event::QueueFull { .. }))
        );
        // The counterparty resends everything from 2, as asked (EndSeqNo 0).
        let orig = ts(one.now);
        for seq in 2..=400 {
            let id = format!("O{seq}");
            let mut extra = vec![(43, "Y"), (122, orig.as_str())];
            extra.extend(order(&id));
            let resent = one.build("D", seq, &extra);
            one.feed(&resent);
        }
        let ids: Vec<String> = one
            .app
            .received
            .iter()
            .map(|r| String::from_utf8_lossy(&r.1).into_owned())
            .collect();
        let want: Vec<String> = (2..=400).map(|seq| format!("O{seq}")).collect();
        assert_eq!(ids, want, "each order once, in order");
        assert_eq!(one.next_target(), 401);
    }

    #[test]
    fn a_thousand_sessions_sharing_a_budget_hold_no_more_than_it_and_lose_nothing() {
        // Each of 1,000 sessions is sent 2..=40 with 2 lost: alone, each may
        // queue 16 MiB; together they may queue 256 KiB.
        let budget = fix_session::MemoryBudget::new(256 * 1024);
        let mut sessions: Vec<One> = (0..1000)
            .map(|_| {
                let mut config = acceptor();
                config.shared_budget = Some(budget.clone());
                One::logged_on(config)
            })
            .collect();
        let mut refused = 0;
        for one in &mut sessions {
            for seq in 3..=40 {
                let m = one.build("D", seq, &order(&format!("O{seq}")));
                one.feed(&m);
                assert!(budget.held() <= budget.limit(), "{}", budget.held());
            }
            refused += events(one)
                .iter()
                .filter(|e| matches!(e, Event::BudgetFull { .. }))
                .count();
        }
        assert!(refused > 0, "the budget was reached");
        // Each counterparty resends 2..=40: every order is taken once, in
        // order, and the budget is given back.
        for one in &mut sessions {
            let orig = ts(one.now);
            for seq in 2..=40 {
                let id = format!("O{seq}");
                let mut extra = vec![(43, "Y"), (122, orig.as_str())];
                extra.extend(order(&id));
                let resent = one.build("D", seq, &extra);
                one.feed(&resent);
            }
            let ids: Vec<String> = one
                .app
                .received
                .iter()
                .map(|r| String::from_utf8_lossy(&r.1).into_owned())
                .collect();
            let want: Vec<String> = (2..=40).map(|seq| format!("O{seq}")).collect();
            assert_eq!(ids, want, "each order once, in order");
        }
        assert_eq!(budget.held(), 0);
    }

    #[test]
    fn a_new_seq_no_past_the_largest_sequence_number_is_rejected() {
        let mut one = One::logged_on(acceptor());
        let out = one.send_at("4", 2, &[(36, "18446744073709551615")]);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        assert_eq!(one.next_target(), 2);
        assert!(
            events(&mut one)
                .iter()
                .any(|e| matches!(e, Event::ValueOutOfRange { tag: 36, .. }))
        );
    }

    #[test]
    fn resend_requests_for_absurd_ranges_are_served_without_a_panic() {
        for (begin, end) in [
            ("18446744073709551615", "0"),
            ("1", "18446744073709551615"),
            ("99999999999999999999999", "99999999999999999999999"),
            ("5", "2"),
        ] {
            let mut one = One::logged_on(acceptor());
            one.order("X");
            one.take();
            let out = one.send_at("2", 2, &[(7, begin), (16, end)]);
            for m in &out {
                assert!(
                    ["4", "D", "3"].contains(&get(m, 35).unwrap().as_str()),
                    "{}",
                    show(m)
                );
            }
            assert!(!one.s.wants_disconnect(), "{begin}..{end}");
        }
    }
}

/// Deadlines run on the monotonic clock; the wall clock only stamps and checks
/// SendingTime (issue 24: an NTP step must not drop sessions or stall them).
mod clock {
    use super::*;
    use fix_session::Time;

    /// A logged-on session whose monotonic clock starts at 1000 s.
    fn logged_on_at(mono: Duration) -> (One, Time) {
        let mut one = One::new(acceptor());
        let start = Time::new(one.now, mono);
        one.s.disconnected(start, &mut one.app).unwrap();
        one.s.connected(start, &mut one.app).unwrap();
        let logon = one.build("A", 1, &[(98, "0"), (108, "30")]);
        one.s.handle_bytes(start, &logon, &mut one.app).unwrap();
        assert_eq!(one.s.state(), State::LoggedOn);
        one.take();
        (one, start)
    }

    #[test]
    fn a_wall_clock_step_forward_drops_no_session() {
        let (mut one, start) = logged_on_at(secs(1000));
        // The wall clock jumps an hour (past 2.4 × HeartBtInt); one second
        // has truly passed.
        let later = Time::new(start.wall + secs(3600), start.mono + secs(1));
        one.s.handle_timeout(later, &mut one.app).unwrap();
        assert!(!one.s.wants_disconnect());
        assert!(one.take().is_empty(), "nothing is due after one second");
        let due = one.s.poll_timeout().unwrap();
        assert_eq!(due.mono, start.mono + secs(30), "the heartbeat, on time");
        assert_eq!(due.wall, later.wall + secs(29));
        // At the true deadline the heartbeat goes, stamped by the wall clock.
        let at = Time::new(later.wall + secs(29), start.mono + secs(30));
        one.s.handle_timeout(at, &mut one.app).unwrap();
        let out = one.take();
        assert_eq!(types(&out), ["0"]);
        has(&out[0], &[(52, &ts(at.wall))]);
    }

    #[test]
    fn a_wall_clock_step_back_holds_no_heartbeat_back() {
        let (mut one, start) = logged_on_at(secs(1000));
        // The wall clock goes back an hour while 30 s pass.
        let at = Time::new(start.wall - secs(3600), start.mono + secs(30));
        one.s.handle_timeout(at, &mut one.app).unwrap();
        assert_eq!(
            types(&one.take()),
            ["0"],
            "the heartbeat is due by the monotonic clock"
        );
        // Silence from the peer: the TestRequest at 36 s and the disconnect
        // at 72 s come on the monotonic clock whatever the wall says.
        let at = Time::new(start.wall - secs(7200), start.mono + secs(36));
        one.s.handle_timeout(at, &mut one.app).unwrap();
        assert_eq!(types(&one.take()), ["1"]);
        let at = Time::new(start.wall + secs(9000), start.mono + secs(71));
        one.s.handle_timeout(at, &mut one.app).unwrap();
        assert!(!one.s.wants_disconnect());
        let at = Time::new(start.wall, start.mono + secs(72));
        one.s.handle_timeout(at, &mut one.app).unwrap();
        assert!(one.s.wants_disconnect());
    }

    #[test]
    fn the_logon_timeout_runs_on_the_monotonic_clock() {
        let mut one = One::new(acceptor());
        let start = Time::new(one.now, secs(50));
        one.s.disconnected(start, &mut one.app).unwrap();
        one.s.connected(start, &mut one.app).unwrap();
        // An hour of wall clock in one second: still waiting for the Logon.
        let at = Time::new(start.wall + secs(3600), start.mono + secs(1));
        one.s.handle_timeout(at, &mut one.app).unwrap();
        assert!(!one.s.wants_disconnect());
        let at = Time::new(start.wall - secs(3600), start.mono + secs(10));
        one.s.handle_timeout(at, &mut one.app).unwrap();
        assert!(one.s.wants_disconnect(), "LogonTimeout (10 s) passed");
    }
}

/// The QuickFIX settings the session core applies beyond the basics:
/// SenderSubID and its kin, TimeStampPrecision, SendRedundantResendRequests,
/// ResetOnError and DisconnectOnError.
mod quickfix_keys {
    use super::*;
    use fix_core::value::Precision;
    use fix_session::{Event, OnError, SubIds};

    fn with_sub_ids(mut config: SessionConfig) -> SessionConfig {
        config.sub_ids = SubIds {
            sender_sub_id: Some("DESK1".into()),
            sender_location_id: Some("LDN".into()),
            target_sub_id: Some("ADMIN".into()),
            target_location_id: Some("NYC".into()),
        };
        config
    }

    /// `m` passes the FIX 4.4 dictionary's checks (header fields where the
    /// header is, every tag known there).
    #[track_caller]
    fn valid(m: &[u8]) {
        let parser = fix_core::Parser::new();
        let Ok(fix_core::Status::Complete(frame)) = parser.frame(m) else {
            panic!("does not frame: {}", show(m));
        };
        let mut f = vec![fix_core::Field::new(0, 0, 0); 64];
        let msg = parser.index(frame, &mut f).unwrap();
        let checked = fix_core::validate::Validator::new().validate(&fix44::DICTIONARY, &msg);
        assert!(checked.is_ok(), "{checked:?}: {}", show(m));
    }

    #[test]
    fn sub_ids_are_in_every_header_in_tag_order_resends_and_gap_fills_too() {
        let mut one = One::logged_on(with_sub_ids(acceptor()));
        one.order("O1");
        let sent = one.take();
        one.now = t0() + secs(5);
        // Asks for everything: the Logon is gap-filled, the order resent.
        let resent = one.send("2", &[(7, "1"), (16, "0")]);
        assert_eq!(types(&resent), ["4", "D"], "{:?}", show_all(&resent));
        for m in sent.iter().chain(&resent) {
            let header: Vec<u32> = tags(m)
                .into_iter()
                .filter(|t| matches!(t, 49 | 50 | 52 | 56 | 57 | 122 | 142 | 143))
                .collect();
            let expected: &[u32] = if get(m, 43).is_some() {
                &[49, 50, 52, 56, 57, 122, 142, 143]
            } else {
                &[49, 50, 52, 56, 57, 142, 143]
            };
            assert_eq!(header, expected, "{}", show(m));
            has(
                m,
                &[(50, "DESK1"), (57, "ADMIN"), (142, "LDN"), (143, "NYC")],
            );
            valid(m);
        }
    }

    #[test]
    fn the_logon_answer_carries_the_sub_ids() {
        let mut one = One::new(with_sub_ids(acceptor()));
        let out = one.send("A", &[(98, "0"), (108, "30")]);
        assert_eq!(types(&out), ["A"]);
        assert_eq!(
            tags(&out[0]),
            [8, 9, 35, 34, 49, 50, 52, 56, 57, 142, 143, 98, 108, 10]
        );
    }

    #[test]
    fn received_sub_ids_are_not_checked_as_quickfix_checks_only_comp_ids() {
        let mut one = One::logged_on(with_sub_ids(acceptor()));
        // 50/57 that are neither ours nor the counterparty's configured ones.
        let mut extra = vec![(50, "SOMEONE"), (57, "ELSE"), (142, "X"), (143, "Y")];
        extra.extend_from_slice(&order("O2"));
        let out = one.send("D", &extra);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert_eq!(one.app.received.len(), 1);
        assert_eq!(one.next_target(), 3);
    }

    #[test]
    fn sending_time_has_the_configured_digits_of_a_second() {
        let at = t0() + Duration::new(0, 123_456_789);
        for (precision, text) in [
            (Precision::Seconds, "20260921-14:13:20"),
            (Precision::Millis, "20260921-14:13:20.123"),
            (Precision::Micros, "20260921-14:13:20.123456"),
            (Precision::Nanos, "20260921-14:13:20.123456789"),
        ] {
            let mut config = acceptor();
            config.timestamp_precision = precision;
            let mut one = One::new(config);
            one.now = at;
            let out = one.send("A", &[(98, "0"), (108, "30")]);
            has(&out[0], &[(52, text)]);
            valid(&out[0]);
            // The next message in the same unit reuses the text; the next
            // unit (a nanosecond on) is written afresh at nanos only.
            one.now = at + Duration::from_nanos(1);
            one.order("O1");
            let next = one.take();
            let moved = if precision == Precision::Nanos {
                "20260921-14:13:20.123456790"
            } else {
                text
            };
            has(&next[0], &[(52, moved)]);
            // A gap fill's OrigSendingTime is written the same way.
            one.now = at;
            let filled = one.send("2", &[(7, "1"), (16, "1")]);
            assert_eq!(types(&filled), ["4"], "{:?}", show_all(&filled));
            has(&filled[0], &[(52, text), (122, text)]);
        }
    }

    #[test]
    fn before_fix42_sending_time_is_whole_seconds_whatever_the_precision() {
        let mut config = acceptor_of("FIX.4.1");
        config.timestamp_precision = Precision::Nanos;
        let mut one = One::new(config);
        one.now = t0() + Duration::new(0, 123_456_789);
        let out = one.send("A", &[(98, "0"), (108, "30")]);
        has(&out[0], &[(52, "20260921-14:13:20")]);
    }

    #[test]
    fn redundant_resend_requests_ask_again_for_every_message_past_the_gap() {
        let mut config = acceptor();
        config.send_redundant_resend_requests = true;
        let mut one = One::logged_on(config);
        let first = one.send_at("0", 5, &[]);
        let second = one.send_at("0", 6, &[]);
        assert_eq!(types(&first), ["2"], "{:?}", show_all(&first));
        assert_eq!(types(&second), ["2"], "{:?}", show_all(&second));
        has(&second[0], &[(7, "2"), (16, "0")]);
        // Off (the default), the second asks for nothing: see
        // sequence::a_second_message_past_the_same_gap_asks_for_nothing_more.
    }

    fn on_error(on_error: OnError) -> One {
        let mut config = acceptor();
        config.on_error = on_error;
        One::logged_on(config)
    }

    /// The events that report a bound or an error (not the session's
    /// ordinary course, nor the disconnect that follows them).
    fn events(one: &mut One) -> Vec<Event> {
        std::iter::from_fn(|| one.s.poll_event())
            .filter(|e| e.is_warning() && !matches!(e, Event::DisconnectWanted(_)))
            .collect()
    }

    #[test]
    fn reset_on_error_logs_out_and_resets_the_store_when_the_logout_is_answered() {
        let mut one = on_error(OnError::Reset);
        one.app.reject = Some(fix_session::AppReject::Business {
            reason: 3,
            ref_tag: None,
            text: "Unsupported Message Type".into(),
        });
        let out = one.send("D", &order("O2"));
        assert_eq!(types(&out), ["5"], "no Reject: {:?}", show_all(&out));
        has(&out[0], &[(58, "Session reset")]);
        assert_eq!(one.s.state(), State::LogoutSent);
        // The message in error is not marked received.
        assert_eq!(one.next_target(), 2);
        assert!(matches!(
            &events(&mut one)[..],
            [Event::ResetOnError { .. }]
        ));
        let out = one.send_at("5", 2, &[]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
        assert_eq!((one.next_sender(), one.next_target()), (1, 1));
    }

    #[test]
    fn reset_on_error_resets_when_the_connection_ends_unanswered() {
        let mut one = on_error(OnError::Reset);
        // Fails the dictionary: an order without its required fields.
        let out = one.send("D", &[(11, "O2")]);
        assert_eq!(types(&out), ["5"], "{:?}", show_all(&out));
        assert_eq!(one.next_sender(), 3);
        one.s.disconnected(one.now, &mut one.app).unwrap();
        assert_eq!((one.next_sender(), one.next_target()), (1, 1));
    }

    #[test]
    fn an_error_in_an_admin_message_is_answered_as_usual_under_reset_on_error() {
        let mut one = on_error(OnError::Reset);
        // A SequenceReset to a lower number: a Reject, as QuickFIX/J leaves
        // admin messages to the usual rules.
        let out = one.send("4", &[(36, "1")]);
        assert_eq!(types(&out), ["3"], "{:?}", show_all(&out));
        assert_eq!(one.s.state(), State::LoggedOn);
    }

    #[test]
    fn disconnect_on_error_ends_the_connection_without_an_answer() {
        let mut one = on_error(OnError::Disconnect);
        let out = one.send("D", &[(11, "O2")]);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
        assert_eq!(one.next_target(), 2);
        assert!(matches!(
            &events(&mut one)[..],
            [Event::DisconnectOnError { .. }]
        ));
        one.s.disconnected(one.now, &mut one.app).unwrap();
        // Nothing reset: the counterparty resends the message.
        assert_eq!((one.next_sender(), one.next_target()), (2, 2));
    }

    #[test]
    fn a_message_that_does_not_parse_is_an_error_too() {
        let mut one = on_error(OnError::Disconnect);
        // A tag that is not a number.
        let mut m = one.build("D", 2, &order("O2"));
        let at = m.windows(3).position(|w| w == b"11=").unwrap();
        m[at] = b'x';
        let m = fix_test_fix(m);
        let out = one.feed(&m);
        assert!(out.is_empty(), "{:?}", show_all(&out));
        assert!(one.s.wants_disconnect());
    }

    /// `m` with its BodyLength and CheckSum made right again after an edit.
    fn fix_test_fix(m: Vec<u8>) -> Vec<u8> {
        let f = fields_raw(&m);
        let body: Vec<u8> = f[2..f.len() - 1].concat();
        let mut out = format!("8=FIX.4.4\x019={}\x01", body.len()).into_bytes();
        out.extend_from_slice(&body);
        let sum = out.iter().map(|&b| u32::from(b)).sum::<u32>() % 256;
        out.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
        out
    }

    /// The `tag=value<SOH>` pieces of `m`, as bytes.
    fn fields_raw(m: &[u8]) -> Vec<Vec<u8>> {
        m.split_inclusive(|&b| b == 1).map(<[u8]>::to_vec).collect()
    }
}
