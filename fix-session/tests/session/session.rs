//! Session rules, each on two sessions wired back to back in memory (an initiator
//! and an acceptor) with a simulated clock; expectations are written out by hand
//! or checked against the naive reference parser, not against the session's own
//! encoder.

use crate::common;

use std::time::Duration;

use crate::common::{Pair, Recorder, configs, fields, get, msg, split, t0};
use fix_session::{MemoryStore, MessageStore, State};

#[test]
fn logon_is_answered_with_the_same_heartbeat_interval_and_header_in_tag_order() {
    let mut p = Pair::new();
    p.acc.connected(p.now, &mut p.aa).unwrap();
    p.init.connected(p.now, &mut p.ia).unwrap();
    let (sent, answered) = p.pump();
    assert_eq!(sent.len(), 1);
    let tags: Vec<u32> = fields(&answered[0]).iter().map(|f| f.0).collect();
    assert_eq!(tags, [8, 9, 35, 34, 49, 52, 56, 98, 108, 10]);
    assert_eq!(get(&answered[0], 108).as_deref(), Some("30"));
    assert_eq!(
        get(&answered[0], 52).as_deref(),
        Some("20260921-14:13:20.000")
    );
    assert_eq!((p.ia.logons, p.aa.logons), (1, 1));
}

#[test]
fn the_first_message_must_be_a_logon() {
    let mut p = Pair::new();
    p.acc.connected(p.now, &mut p.aa).unwrap();
    let hb = msg(&[
        (35, "0"),
        (34, "1"),
        (49, "CLIENT"),
        (52, "20260921-14:13:20"),
        (56, "BROKER"),
    ]);
    p.acc.handle_bytes(p.now, &hb, &mut p.aa).unwrap();
    assert!(p.acc.wants_disconnect());
    assert!(p.acc.output().is_empty());
}

#[test]
fn every_byte_handed_out_was_stored_first() {
    let mut p = Pair::logged_on();
    for i in 0..5 {
        let body = format!("11=ORD{i}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
        p.init
            .send(p.now, b"D", body.as_bytes(), &mut p.ia)
            .unwrap();
    }
    let out = split(p.init.output());
    let mut stored = Vec::new();
    let mut store = p.init.into_store();
    store
        .read_stored(
            1,
            u64::MAX,
            fix_session::ChunkLimit::new(1000, 1 << 20),
            &mut |seq, m| stored.push((seq, m.to_vec())),
        )
        .unwrap();
    for m in &out {
        let seq: u64 = get(m, 34).unwrap().parse().unwrap();
        assert!(
            stored.iter().any(|(s, b)| *s == seq && b == m),
            "message {seq} stored byte for byte"
        );
    }
    assert_eq!(out.len(), 5);
}

#[test]
fn application_messages_flow_and_are_answered() {
    let mut p = Pair::logged_on();
    let body = b"11=ORD1\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01";
    let seq = p.init.send(p.now, b"D", body, &mut p.ia).unwrap();
    assert_eq!(seq, 2);
    let (_, answers) = p.pump();
    assert_eq!(p.aa.received, vec![(b"D".to_vec(), b"ORD1".to_vec())]);
    assert_eq!(answers.len(), 1);
    assert_eq!(get(&answers[0], 35).as_deref(), Some("D"));
    assert_eq!(get(&answers[0], 11).as_deref(), Some("ORD1"));
    assert_eq!(get(&answers[0], 34).as_deref(), Some("2"));
    assert_eq!(p.acc.store().next_target_seq(), 3);
}

#[test]
fn an_idle_session_heartbeats_then_tests_then_disconnects() {
    let mut p = Pair::logged_on();
    p.tick();
    // Both sides heartbeat at HeartBtInt; neither needs a TestRequest.
    let (a, b) = p.pump();
    assert_eq!(get(&a[0], 35).as_deref(), Some("0"));
    assert_eq!(get(&b[0], 35).as_deref(), Some("0"));
    assert_eq!(p.now, t0() + Duration::from_secs(30));
    // The acceptor now hears nothing: TestRequest at 1.2 x HeartBtInt of silence.
    let silent_since = p.now;
    let acc_sent = p.acceptor_until_disconnect();
    let types: Vec<String> = acc_sent.iter().map(|m| get(m, 35).unwrap()).collect();
    assert!(types.contains(&"1".to_string()), "{types:?}");
    assert_eq!(
        get(
            acc_sent
                .iter()
                .find(|m| get(m, 35).as_deref() == Some("1"))
                .unwrap(),
            112
        )
        .as_deref(),
        Some("TEST")
    );
    assert_eq!(
        p.now,
        silent_since + Duration::from_secs(72),
        "2.4 x HeartBtInt"
    );
}

/// SendLogoutBeforeDisconnectFromTimeout (QuickFIX/n): a silent
/// counterparty is sent a Logout saying why before the connection ends;
/// without it, the connection is only closed.
#[test]
fn a_silent_counterparty_gets_a_logout_when_the_setting_asks() {
    for on in [false, true] {
        let (ic, mut ac) = configs();
        ac.send_logout_before_timeout_disconnect = on;
        let mut p = Pair::with_configs(ic, ac);
        p.connect();
        let acc_sent = p.acceptor_until_disconnect();
        let last = acc_sent.last().unwrap();
        if on {
            assert_eq!(get(last, 35).as_deref(), Some("5"));
            assert_eq!(
                get(last, 58).as_deref(),
                Some("Timed out waiting for heartbeat")
            );
        } else {
            assert_eq!(get(last, 35).as_deref(), Some("1"), "the TestRequest last");
        }
    }
}

#[test]
fn a_test_request_is_answered_with_its_id() {
    let mut p = Pair::logged_on();
    let tr = msg(&[
        (35, "1"),
        (34, "2"),
        (49, "CLIENT"),
        (52, "20260921-14:13:20"),
        (56, "BROKER"),
        (112, "PING7"),
    ]);
    p.acc.handle_bytes(p.now, &tr, &mut p.aa).unwrap();
    let out = split(p.acc.output());
    assert_eq!(get(&out[0], 35).as_deref(), Some("0"));
    assert_eq!(get(&out[0], 112).as_deref(), Some("PING7"));
}

#[test]
fn the_application_sees_every_admin_message_as_quickfix_s_from_admin_does() {
    let mut p = Pair::logged_on();
    let header = |seq: &'static str, msg_type: &'static str| {
        vec![
            (35, msg_type),
            (34, seq),
            (49, "CLIENT"),
            (52, "20260921-14:13:20"),
            (56, "BROKER"),
        ]
    };
    let with = |mut h: Vec<(u32, &'static str)>, body: &[(u32, &'static str)]| {
        h.extend_from_slice(body);
        msg(&h)
    };
    let inputs = [
        with(header("2", "1"), &[(112, "PING")]),
        with(header("3", "2"), &[(7, "1"), (16, "0")]),
        with(header("4", "4"), &[(123, "Y"), (36, "6")]),
        with(header("6", "0"), &[]),
        with(header("7", "3"), &[(45, "2"), (58, "a reject")]),
    ];
    for m in &inputs {
        p.acc.handle_bytes(p.now, m, &mut p.aa).unwrap();
    }
    let seen: Vec<(String, String)> =
        p.aa.admin
            .iter()
            .map(|(t, n)| {
                (
                    String::from_utf8_lossy(t).into_owned(),
                    String::from_utf8_lossy(n).into_owned(),
                )
            })
            .collect();
    let expected = [
        ("A", "1"),
        ("1", "2"),
        ("2", "3"),
        ("4", "4"),
        ("0", "6"),
        ("3", "7"),
    ];
    assert_eq!(seen, expected.map(|(t, n)| (t.to_owned(), n.to_owned())),);
    assert_eq!(p.acc.store().next_target_seq(), 8);
}

#[test]
fn a_gap_is_requested_and_filled_from_the_store_with_gap_fills_for_admin_messages() {
    let mut p = Pair::logged_on();
    // The initiator sends three orders the acceptor never gets.
    for i in 0..3 {
        let body =
            format!("11=LOST{i}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
        p.init
            .send(p.now, b"D", body.as_bytes(), &mut p.ia)
            .unwrap();
    }
    let lost = p.init.output().len();
    p.init.consume_output(lost);
    // The next one arrives: MsgSeqNum 5 where 2 is expected.
    let body = b"11=SEEN\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01";
    p.init.send(p.now, b"D", body, &mut p.ia).unwrap();
    let (from_init, from_acc) = p.pump();
    let rr = from_acc
        .iter()
        .find(|m| get(m, 35).as_deref() == Some("2"))
        .expect("a ResendRequest");
    assert_eq!(
        (get(rr, 7).as_deref(), get(rr, 16).as_deref()),
        (Some("2"), Some("0"))
    );
    let resent: Vec<_> = from_init
        .iter()
        .filter(|m| get(m, 43).as_deref() == Some("Y") && get(m, 35).as_deref() == Some("D"))
        .collect();
    // EndSeqNo 0 asks for everything from 2: the three lost and the one queued
    // (which the acceptor then ignores as a PossDup duplicate).
    assert_eq!(resent.len(), 4);
    for m in &resent {
        assert!(get(m, 122).is_some(), "OrigSendingTime on a resend");
    }
    // Every order reached the application once, in order.
    let ids: Vec<Vec<u8>> = p.aa.received.iter().map(|r| r.1.clone()).collect();
    assert_eq!(
        ids,
        [
            b"LOST0".to_vec(),
            b"LOST1".to_vec(),
            b"LOST2".to_vec(),
            b"SEEN".to_vec()
        ]
    );
    assert_eq!(p.acc.store().next_target_seq(), 6);
}

#[test]
fn declined_resends_become_one_gap_fill() {
    let mut p = Pair::logged_on();
    p.ia.decline_resend = true;
    for i in 0..3 {
        let body = format!("11=OLD{i}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
        p.init
            .send(p.now, b"D", body.as_bytes(), &mut p.ia)
            .unwrap();
    }
    let n = p.init.output().len();
    p.init.consume_output(n);
    let rr = msg(&[
        (35, "2"),
        (34, "2"),
        (49, "BROKER"),
        (52, "20260921-14:13:20"),
        (56, "CLIENT"),
        (7, "1"),
        (16, "0"),
    ]);
    p.init.handle_bytes(p.now, &rr, &mut p.ia).unwrap();
    let out = split(p.init.output());
    assert_eq!(
        out.len(),
        1,
        "Logon (admin) and three declined orders: one gap fill"
    );
    assert_eq!(get(&out[0], 35).as_deref(), Some("4"));
    assert_eq!(get(&out[0], 34).as_deref(), Some("1"));
    assert_eq!(get(&out[0], 36).as_deref(), Some("5"));
    assert_eq!(get(&out[0], 123).as_deref(), Some("Y"));
}

#[test]
fn a_number_too_low_without_poss_dup_ends_the_session() {
    let mut p = Pair::logged_on();
    let hb = msg(&[
        (35, "0"),
        (34, "1"),
        (49, "CLIENT"),
        (52, "20260921-14:13:20"),
        (56, "BROKER"),
    ]);
    p.acc.handle_bytes(p.now, &hb, &mut p.aa).unwrap();
    let out = split(p.acc.output());
    assert_eq!(get(&out[0], 35).as_deref(), Some("5"));
    assert_eq!(
        get(&out[0], 58).as_deref(),
        Some("MsgSeqNum too low, expecting 2 but received 1")
    );
    assert!(p.acc.wants_disconnect());
}

#[test]
fn garbled_input_is_dropped_without_using_a_number() {
    let mut p = Pair::logged_on();
    let mut bad = msg(&[
        (35, "0"),
        (34, "2"),
        (49, "CLIENT"),
        (52, "20260921-14:13:20"),
        (56, "BROKER"),
    ]);
    let n = bad.len();
    bad[n - 2] = if bad[n - 2] == b'0' { b'1' } else { b'0' }; // CheckSum wrong
    p.acc.handle_bytes(p.now, &bad, &mut p.aa).unwrap();
    assert!(p.acc.output().is_empty());
    assert_eq!(p.acc.store().next_target_seq(), 2);
    assert!(!p.acc.wants_disconnect());
}

#[test]
fn a_logout_is_answered_and_ends_the_session() {
    let mut p = Pair::logged_on();
    p.init.logout(p.now, Some("bye"), &mut p.ia).unwrap();
    let (a, b) = p.pump();
    assert_eq!(get(&a[0], 58).as_deref(), Some("bye"));
    assert_eq!(get(&b[0], 35).as_deref(), Some("5"));
    assert!(p.acc.wants_disconnect() && p.init.wants_disconnect());
}

/// A Recorder whose `from_app` panics while `armed`: an application's bug.
#[derive(Default)]
struct Panicky {
    recorder: common::Recorder,
    armed: bool,
}

impl fix_session::Application for Panicky {
    fn on_logon(&mut self, id: &fix_session::SessionId) {
        self.recorder.on_logon(id);
    }
    fn from_app(
        &mut self,
        msg: &fix_core::Message<'_>,
        out: &mut fix_session::Outbox,
    ) -> Result<(), fix_session::AppReject> {
        assert!(!self.armed, "the application's own bug");
        self.recorder.from_app(msg, out)
    }
}

#[test]
fn a_session_whose_application_panicked_works_on_its_next_connection() {
    let (ic, ac) = common::configs();
    let mut p = Pair::with(
        ic,
        ac,
        fix_session::MemoryStore::new(),
        fix_session::MemoryStore::new(),
        common::Recorder::default(),
        Panicky::default(),
    );
    p.connect();
    p.aa.armed = true;
    let body = b"11=BOOM\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01";
    p.init.send(p.now, b"D", body, &mut p.ia).unwrap();
    let order = p.init.output().to_vec();
    p.init.consume_output(order.len());
    let (acc, aa, now) = (&mut p.acc, &mut p.aa, p.now);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        acc.handle_bytes(now, &order, aa)
    }));
    assert!(caught.is_err());
    // The caller (the engine) ends the connection; the next one logs on,
    // and the order the application never took comes again, resent.
    p.aa.armed = false;
    p.acc.disconnected(p.now, &mut p.aa).unwrap();
    p.init.disconnected(p.now, &mut p.ia).unwrap();
    p.now += Duration::from_secs(1);
    p.connect();
    assert_eq!(p.aa.recorder.logons, 2);
    assert_eq!(
        p.aa.recorder.received,
        [(b"D".to_vec(), b"BOOM".to_vec())],
        "the order, once, from the resend"
    );
}

/// A message whose body a counterparty could not read as FIX fields is
/// refused before it is numbered or stored; the next good one takes the
/// number.
#[test]
fn a_body_that_is_not_fix_fields_is_refused_before_it_is_numbered() {
    let mut p = Pair::logged_on();
    let next = p.init.store().next_sender_seq();
    for (msg_type, body) in [
        (&b"D"[..], &b"\x14"[..]),
        (b"D", b"11=A\x01x\x01"),
        (b"D", b"11=A"),
        (b"D", b"11=\x01"),
        (b"D", b"95=5\x0196=ab\x01"),
        (b"", b"11=A\x01"),
        (b"D\x01", b"11=A\x01"),
    ] {
        let e = p.init.send(p.now, msg_type, body, &mut p.ia).unwrap_err();
        assert!(matches!(e, fix_session::SessionError::Malformed(_)), "{e}");
        assert_eq!(p.init.store().next_sender_seq(), next, "{e}");
        assert!(p.init.output().is_empty(), "nothing to send after {e}");
    }
    let e = p
        .init
        .send(p.now, b"D", b"11=A\x01x\x01", &mut p.ia)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "the message to send is not FIX fields: invalid tag at byte 5"
    );
    // A data field holding SOH, read by its length, is FIX fields.
    // (A UserRequest, which FIX 4.4 gives RawData.)
    let user_request = b"923=B\x01924=1\x01553=u\x0195=3\x0196=a\x01b\x01";
    let seq = p.init.send(p.now, b"BE", user_request, &mut p.ia).unwrap();
    assert_eq!(seq, next);
    let (_, echoed) = p.pump();
    assert_eq!(p.aa.received, vec![(b"BE".to_vec(), Vec::new())]);
    let echoed: Vec<String> = echoed
        .iter()
        .map(|m| String::from_utf8_lossy(m).replace('\x01', "|"))
        .collect();
    assert!(
        echoed.iter().any(|m| m.contains("|95=3|96=a|b|")),
        "{echoed:?}"
    );
}

/// Answers a NewOrderSingle with a malformed message, then a good one.
struct BadAnswer;

impl fix_session::Application for BadAnswer {
    fn from_app(
        &mut self,
        msg: &fix_core::Message<'_>,
        out: &mut fix_session::Outbox,
    ) -> Result<(), fix_session::AppReject> {
        let id = msg.get(11).unwrap_or_default().to_vec();
        out.send_body(b"8", b"17=X\x01junk");
        out.send_fields(b"8", [(11, &id[..])]);
        Ok(())
    }
}

/// An application's malformed answer is dropped with an event; its other
/// answers go, and the session runs on.
#[test]
fn a_malformed_answer_is_dropped_with_an_event_and_the_rest_goes() {
    let (ic, ac) = configs();
    let mut p = Pair::with(
        ic,
        ac,
        MemoryStore::new(),
        MemoryStore::new(),
        Recorder::default(),
        BadAnswer,
    );
    p.connect();
    while p.acc.poll_event().is_some() {}
    let body = b"11=ORD1\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01";
    p.init.send(p.now, b"8", body, &mut p.ia).ok();
    p.init.send(p.now, b"D", body, &mut p.ia).unwrap();
    let (_, answers) = p.pump();
    let reports: Vec<_> = answers
        .iter()
        .filter(|m| get(m, 35).as_deref() == Some("8"))
        .collect();
    assert_eq!(reports.len(), 1, "the good answer went");
    assert_eq!(get(reports[0], 11).as_deref(), Some("ORD1"));
    assert_eq!(p.acc.state(), State::LoggedOn);
    let events: Vec<_> = std::iter::from_fn(|| p.acc.poll_event()).collect();
    let dropped: Vec<_> = events
        .iter()
        .filter(|e| matches!(e, fix_session::Event::AnswerDropped { .. }))
        .collect();
    assert_eq!(dropped.len(), 1, "{events:?}");
    assert!(dropped[0].is_warning());
    assert_eq!(
        dropped[0].to_string(),
        "The application's answer of type 8 dropped, never sent: not FIX fields: the field at byte 5 has no SOH after its value"
    );
}

/// Adds a Username with a SOH in it to every Logon.
struct BadLogonField;

impl fix_session::Application for BadLogonField {
    fn to_admin(&mut self, msg_type: &[u8], extra: &mut fix_session::Outbox) {
        if msg_type == b"A" {
            extra.field(553, b"user\x01name");
        }
    }
}

/// Fields an application adds to an admin message in `to_admin` are checked
/// too: a Logon that would carry a malformed one is not sent.
#[test]
fn a_logon_whose_added_field_is_malformed_is_not_sent() {
    let (ic, _) = configs();
    let mut init = fix_session::Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY);
    let e = init.connected(t0(), &mut BadLogonField).unwrap_err();
    assert!(matches!(e, fix_session::SessionError::Malformed(_)), "{e}");
    assert!(init.output().is_empty());
    assert_eq!(init.store().next_sender_seq(), 1, "never numbered");
}

/// A Logon from CLIENT with MsgSeqNum `seq` and NextExpectedMsgSeqNum `next`.
fn logon_expecting(seq: u64, next: u64) -> Vec<u8> {
    msg(&[
        (35, "A"),
        (34, &seq.to_string()),
        (49, "CLIENT"),
        (52, "20260921-14:13:20"),
        (56, "BROKER"),
        (98, "0"),
        (108, "30"),
        (789, &next.to_string()),
    ])
}

/// A Logon whose NextExpectedMsgSeqNum (789) is below the next sender number
/// is answered, then the messages from it on are sent again (PossDupFlag=Y,
/// admin messages gap-filled), unasked: QuickFIX with
/// `SendNextExpectedMsgSeqNum=Y` waits for them instead of asking.
#[test]
fn a_logon_s_next_expected_number_has_the_messages_from_it_sent_again() {
    let mut p = Pair::logged_on();
    for i in 0..3 {
        let body =
            format!("11=LOST{i}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01");
        p.acc.send(p.now, b"D", body.as_bytes(), &mut p.aa).unwrap();
    }
    // Lost with the connection: the acceptor sent 2, 3 and 4.
    let n = p.acc.output().len();
    p.acc.consume_output(n);
    p.acc.disconnected(p.now, &mut p.aa).unwrap();
    p.acc.connected(p.now, &mut p.aa).unwrap();
    p.acc
        .handle_bytes(p.now, &logon_expecting(2, 2), &mut p.aa)
        .unwrap();
    let out = split(p.acc.output());
    let kinds: Vec<(String, String, Option<String>)> = out
        .iter()
        .map(|m| (get(m, 35).unwrap(), get(m, 34).unwrap(), get(m, 43)))
        .collect();
    let y = Some("Y".to_owned());
    assert_eq!(
        kinds,
        [
            ("A".into(), "5".into(), None),
            ("D".into(), "2".into(), y.clone()),
            ("D".into(), "3".into(), y.clone()),
            ("D".into(), "4".into(), y),
        ]
    );
    assert_eq!(get(&out[1], 11).as_deref(), Some("LOST0"));
    assert_eq!(p.acc.state(), State::LoggedOn);
}

/// A NextExpectedMsgSeqNum above the next sender number counts messages
/// never sent: the Logon is refused with a Logout saying so, as QuickFIX's.
#[test]
fn a_logon_expecting_a_number_never_sent_is_refused() {
    let mut p = Pair::logged_on();
    p.acc.disconnected(p.now, &mut p.aa).unwrap();
    p.acc.connected(p.now, &mut p.aa).unwrap();
    p.acc
        .handle_bytes(p.now, &logon_expecting(2, 9), &mut p.aa)
        .unwrap();
    let out = split(p.acc.output());
    assert_eq!(out.len(), 1);
    assert_eq!(get(&out[0], 35).as_deref(), Some("5"));
    assert_eq!(
        get(&out[0], 58).as_deref(),
        Some("NextExpectedMsgSeqNum too high, expecting 2 but received 9")
    );
    assert!(p.acc.wants_disconnect());
    assert_ne!(p.acc.state(), State::LoggedOn);
}

/// A stored order numbered `seq`, as the acceptor BROKER sent it.
fn stored_order(seq: u64) -> Vec<u8> {
    msg(&[
        (35, "D"),
        (34, &seq.to_string()),
        (49, "BROKER"),
        (52, "20260921-14:13:20"),
        (56, "CLIENT"),
        (11, &format!("ORD{seq}")),
        (21, "1"),
        (55, "X"),
        (54, "1"),
        (60, "20260921-14:13:20"),
        (40, "1"),
    ])
}

/// A resend whose chunk ends just before numbers never stored (the sender
/// number jumped) gap-fills them before the next stored message: the
/// counterparty gets every number once.
#[test]
fn a_resend_chunk_that_ends_before_a_jump_gap_fills_it() {
    let mut store = MemoryStore::new();
    let per_chunk = fix_session::ChunkLimit::default().max_messages() as u64;
    for seq in 1..=per_chunk {
        store.store(seq, &stored_order(seq)).unwrap();
    }
    let after = per_chunk + 16;
    store.set_next_sender_seq(after).unwrap();
    store.store(after, &stored_order(after)).unwrap();
    let (_, ac) = configs();
    let mut acc = fix_session::Session::new(ac, store, &fix44::DICTIONARY);
    let mut app = Recorder::default();
    acc.connected(t0(), &mut app).unwrap();
    acc.handle_bytes(t0(), &logon_expecting(1, 1), &mut app)
        .unwrap();
    let mut sent = Vec::new();
    for _ in 0..10 {
        sent.extend(split(acc.output()));
        acc.consume_output(acc.output().len());
        acc.handle_timeout(t0(), &mut app).unwrap();
    }
    // Each number from 1 on: a message's own, or the run a gap fill covers.
    let mut next = 1;
    for m in &sent[1..] {
        assert_eq!(get(m, 34), Some(next.to_string()), "{:?}", get(m, 35));
        next = match get(m, 123).as_deref() {
            Some("Y") => get(m, 36).unwrap().parse().unwrap(),
            _ => next + 1,
        };
    }
    assert_eq!(next, after + 1, "every number below the Logon's");
    assert_eq!(get(&sent[0], 34), Some((after + 1).to_string()));
}

/// A memory store that reads as a remote store does: a resend's read is a
/// job the driver runs off the session's thread (here, the test's hands).
struct ReadsOffThread(MemoryStore);

impl MessageStore for ReadsOffThread {
    fn next_sender_seq(&self) -> u64 {
        self.0.next_sender_seq()
    }
    fn next_target_seq(&self) -> u64 {
        self.0.next_target_seq()
    }
    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), fix_session::StoreError> {
        self.0.set_next_sender_seq(seq)
    }
    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), fix_session::StoreError> {
        self.0.set_next_target_seq(seq)
    }
    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), fix_session::StoreError> {
        self.0.store(seq, message)
    }
    fn advance_target_seq(&mut self, received: u64) -> Result<(), fix_session::StoreError> {
        self.0.advance_target_seq(received)
    }
    fn read_stored(
        &mut self,
        _: u64,
        _: u64,
        _: fix_session::ChunkLimit,
        _: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<fix_session::Chunk, fix_session::StoreError> {
        panic!("a resend reads through begin_read and end_read")
    }
    fn begin_read(
        &mut self,
        from: u64,
        to: u64,
        _: fix_session::ChunkLimit,
    ) -> Result<Option<fix_session::store::ReadJob>, fix_session::StoreError> {
        let range = fix_session::store::ReadRange { id: from, from, to };
        let job = fix_session::store::ReadJob::new(range, || Ok(Box::new(())));
        Ok(Some(job))
    }
    fn end_read(
        &mut self,
        done: fix_session::store::ReadDone,
        limit: fix_session::ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<fix_session::Chunk, fix_session::StoreError> {
        self.0.end_read(done, limit, visit)
    }
    fn reset(&mut self, now: std::time::SystemTime) -> Result<(), fix_session::StoreError> {
        self.0.reset(now)
    }
    fn creation_time(&self) -> std::time::SystemTime {
        self.0.creation_time()
    }
    fn sync(&mut self) -> Result<(), fix_session::StoreError> {
        self.0.sync()
    }
}

/// A resend from a store that reads off the session's thread waits for
/// each read: nothing is resent, and no timer asks for the resend to go on,
/// until the driver ends the read; then each message goes once, in order,
/// a chunk a read. A read a newer ResendRequest made moot is dropped.
#[test]
fn a_resend_from_a_store_that_reads_off_the_thread_waits_for_each_read() {
    let mut store = ReadsOffThread(MemoryStore::new());
    for seq in 1..=100u64 {
        store.store(seq, &stored_order(seq)).unwrap();
    }
    let (_, ac) = configs();
    let mut acc = fix_session::Session::new(ac, store, &fix44::DICTIONARY);
    let mut app = Recorder::default();
    let now = t0();
    acc.connected(now, &mut app).unwrap();
    acc.handle_bytes(now, &logon_expecting(1, 1), &mut app)
        .unwrap();
    let mut sent = split(acc.output());
    acc.consume_output(acc.output().len());
    assert_eq!(sent.len(), 1, "the Logon alone until the read ends");
    assert!(
        acc.poll_timeout().unwrap().wall > now,
        "no timer while it reads"
    );
    // A newer ResendRequest while the first read runs.
    let first = acc.take_read_job().expect("a read job");
    assert!(acc.take_read_job().is_none(), "each job handed out once");
    let again = msg(&[
        (35, "2"),
        (34, "2"),
        (49, "CLIENT"),
        (52, "20260921-14:13:20"),
        (56, "BROKER"),
        (7, "50"),
        (16, "60"),
    ]);
    acc.handle_bytes(now, &again, &mut app).unwrap();
    acc.end_read(now, first.run(), &mut app).unwrap();
    let mut reads = 0;
    while let Some(job) = acc.take_read_job() {
        reads += 1;
        let done = std::thread::spawn(move || job.run()).join().unwrap();
        acc.end_read(now, done, &mut app).unwrap();
        sent.extend(split(acc.output()));
        acc.consume_output(acc.output().len());
    }
    let resent: Vec<(String, String)> = sent[1..]
        .iter()
        .map(|m| (get(m, 34).unwrap(), get(m, 43).unwrap_or_default()))
        .collect();
    let expected: Vec<(String, String)> = (50..=60).map(|s| (s.to_string(), "Y".into())).collect();
    assert_eq!(resent, expected);
    assert_eq!(reads, 1, "one read for eleven messages");
    assert_eq!(acc.state(), State::LoggedOn);
}
