//! The outgoing throttle (`SessionConfig::max_app_messages_per_sec`) on a
//! simulated clock: a transport loop offers far more application messages
//! than the limit, hands the session as many as `send_allowance` permits and
//! otherwise advances the clock to the next due moment (`next_send_at`, the
//! sessions' `poll_timeout`, the application's next message). Admin messages
//! and a resend served meanwhile are neither held back nor counted.

use crate::common;

use std::num::NonZeroU32;
use std::time::Duration;

use crate::common::{Fix44, Recorder, get, split, t0};
use fix_session::{MemoryStore, MessageStore, Session, SessionError, State, Time};

type S = Session<MemoryStore, Fix44>;

/// The monotonic clock's reading at the start: unrelated to the wall
/// clock's, as a real one is.
const MONO_ORIGIN: Duration = Duration::from_secs(1000);

/// How often the application has one more message to send: 100 a second.
const OFFER_EVERY: Duration = Duration::from_millis(10);

/// The run: 60 simulated seconds.
const RUN: Duration = Duration::from_secs(60);

/// An initiator (throttled) and an acceptor (recording, not echoing) wired
/// back to back, with the simulated clock and what the initiator wrote.
struct Run {
    init: S,
    acc: S,
    ia: Recorder,
    aa: Recorder,
    /// Time since the start.
    t: Duration,
    /// Every message the initiator wrote, with when (since the start).
    sent: Vec<(Duration, Vec<u8>)>,
    /// The acceptor's bytes held back (a silence on the line).
    held: Vec<u8>,
}

impl Run {
    fn new(limit: Option<u32>) -> Run {
        let (mut ic, ac) = common::configs();
        ic.max_app_messages_per_sec = limit.and_then(NonZeroU32::new);
        ic.heart_bt_int = 5;
        let mut r = Run {
            init: Session::new(ic, MemoryStore::new(), &fix44::DICTIONARY),
            acc: Session::new(ac, MemoryStore::new(), &fix44::DICTIONARY),
            ia: Recorder::default(),
            aa: Recorder::default(),
            t: Duration::ZERO,
            sent: Vec::new(),
            held: Vec::new(),
        };
        let now = r.now();
        r.acc.connected(now, &mut r.aa).unwrap();
        r.init.connected(now, &mut r.ia).unwrap();
        r.deliver(false);
        assert_eq!(
            (r.init.state(), r.acc.state()),
            (State::LoggedOn, State::LoggedOn)
        );
        r.sent.clear();
        r
    }

    /// Now on both clocks.
    fn now(&self) -> Time {
        Time::new(t0() + self.t, MONO_ORIGIN + self.t)
    }

    /// A session time as time since the start.
    fn since_start(t: Time) -> Duration {
        t.mono.saturating_sub(MONO_ORIGIN)
    }

    /// Moves bytes both ways until neither side writes more (the acceptor's
    /// held back while `silent`); returns the messages the initiator wrote.
    fn deliver(&mut self, silent: bool) -> Vec<Vec<u8>> {
        let now = self.now();
        let mut written = Vec::new();
        for _ in 0..100 {
            let a = self.init.output().to_vec();
            self.init.consume_output(a.len());
            let b = self.acc.output().to_vec();
            self.acc.consume_output(b.len());
            if a.is_empty() && b.is_empty() {
                break;
            }
            for m in split(&a) {
                self.sent.push((self.t, m.clone()));
                written.push(m);
            }
            self.acc.handle_bytes(now, &a, &mut self.aa).unwrap();
            self.held.extend_from_slice(&b);
            if !silent {
                let held = std::mem::take(&mut self.held);
                self.init.handle_bytes(now, &held, &mut self.ia).unwrap();
            }
        }
        written
    }
}

fn order(n: u64) -> Vec<u8> {
    format!("11=ORD{n}\x0121=1\x0155=X\x0154=1\x0160=20260921-14:13:20\x0140=1\x01").into_bytes()
}

fn msg_type(m: &[u8]) -> String {
    get(m, 35).unwrap()
}

fn is_new_order(m: &[u8]) -> bool {
    msg_type(m) == "D" && get(m, 43).is_none()
}

/// What a run found.
struct Outcome {
    /// When each new application message went (resends left out).
    app_times: Vec<Duration>,
    /// The Heartbeat answering each TestRequest was in the same write.
    answered_test_requests: usize,
    /// Messages resent (PossDupFlag=Y) at once, in the ResendRequest's write.
    resent: usize,
    /// TestRequests the initiator sent on its own, in the silence.
    own_test_requests: usize,
    run: Run,
}

/// Runs 60 simulated seconds: the application offers 100 messages a second
/// (far more than a limit of 10); the counterparty sends a TestRequest at
/// 10.5 s and a ResendRequest at 20.5 s, and is silent from 31 s until the
/// initiator has sent a TestRequest of its own.
fn run(limit: Option<u32>) -> Outcome {
    let mut r = Run::new(limit);
    let mut backlog = 0u64;
    let mut numbered = 0u64;
    let mut next_offer = Duration::ZERO;
    let events = [Duration::from_millis(10_500), Duration::from_millis(20_500)];
    let silence_from = Duration::from_secs(31);
    let mut silent = false;
    let mut answered_test_requests = 0;
    let mut resent = 0;
    let mut own_test_requests = 0;
    while r.t < RUN {
        let now = r.now();
        while next_offer <= r.t {
            backlog += 1;
            next_offer += OFFER_EVERY;
        }
        r.init.handle_timeout(now, &mut r.ia).unwrap();
        r.acc.handle_timeout(now, &mut r.aa).unwrap();
        // The application's messages, while the throttle lets them go.
        while backlog > 0 {
            let allowance = r.init.send_allowance(now);
            match r.init.send(now, b"D", &order(numbered + 1), &mut r.ia) {
                Ok(_) => {
                    assert!(allowance > 0, "sent with no allowance at {:?}", r.t);
                    backlog -= 1;
                    numbered += 1;
                }
                Err(SessionError::Throttled) => {
                    assert_eq!(allowance, 0, "throttled with an allowance at {:?}", r.t);
                    break;
                }
                Err(e) => panic!("{e}"),
            }
        }
        if r.t == events[0] {
            if limit.is_some() {
                // Over the limit: refused, and nothing changes.
                assert_eq!(r.init.send_allowance(now), 0);
                let seq = r.init.store().next_sender_seq();
                let err = r.init.send(now, b"D", &order(0), &mut r.ia).unwrap_err();
                assert!(matches!(err, SessionError::Throttled), "{err}");
                assert_eq!(r.init.store().next_sender_seq(), seq);
                assert!(r.init.output().is_empty());
                // An admin message is never held back, nor counted.
                r.init.send(now, b"0", b"", &mut r.ia).unwrap();
                assert_eq!(r.init.send_allowance(now), 0);
            }
            r.acc.send(now, b"1", b"112=PING\x01", &mut r.aa).unwrap();
            let written = r.deliver(false);
            assert!(
                written
                    .iter()
                    .any(|m| msg_type(m) == "0" && get(m, 112).as_deref() == Some("PING")),
                "the TestRequest is answered in the same write"
            );
            answered_test_requests += 1;
        }
        if r.t == events[1] {
            let before = r.init.send_allowance(now);
            r.acc
                .send(now, b"2", b"7=1\x0116=30\x01", &mut r.aa)
                .unwrap();
            let written = r.deliver(false);
            resent = written
                .iter()
                .filter(|m| get(m, 43).as_deref() == Some("Y") && msg_type(m) == "D")
                .count();
            assert_eq!(
                r.init.send_allowance(now),
                before,
                "resends are not counted"
            );
        }
        if r.t >= silence_from && !silent && own_test_requests == 0 {
            silent = true;
        }
        let written = r.deliver(silent);
        if silent && written.iter().any(|m| msg_type(m) == "1") {
            own_test_requests += 1;
            silent = false;
            r.deliver(false);
        }
        // The next due moment.
        let mut next = next_offer.min(RUN);
        if backlog > 0
            && let Some(at) = r.init.next_send_at()
        {
            next = next.min(Run::since_start(at));
        }
        for due in [r.init.poll_timeout(), r.acc.poll_timeout()]
            .into_iter()
            .flatten()
        {
            next = next.min(Run::since_start(due));
        }
        for e in events {
            if e > r.t {
                next = next.min(e);
            }
        }
        r.t = next.max(r.t + Duration::from_micros(1));
    }
    let app_times = r
        .sent
        .iter()
        .filter(|(_, m)| is_new_order(m))
        .map(|(t, _)| *t)
        .collect();
    Outcome {
        app_times,
        answered_test_requests,
        resent,
        own_test_requests,
        run: r,
    }
}

#[test]
fn ten_a_second_for_sixty_seconds_is_600_and_admin_messages_pass_and_6000_without() {
    let o = run(Some(10));
    let n = o.app_times.len();
    println!(
        "throttled at 10/s for 60 simulated s: {n} application messages sent ({} offered)",
        RUN.as_millis() / OFFER_EVERY.as_millis()
    );
    assert!((599..=601).contains(&n), "{n} application messages");
    // At most 10 in any second: the 11th after any message is a second on.
    for (i, w) in o.app_times.windows(11).enumerate() {
        assert!(
            w[10] - w[0] >= Duration::from_secs(1),
            "messages {i}..={} within {:?}",
            i + 10,
            w[10] - w[0]
        );
    }
    // Every second of the run has its ten.
    for s in 0..60 {
        let second = Duration::from_secs(s)..Duration::from_secs(s + 1);
        let k = o.app_times.iter().filter(|t| second.contains(t)).count();
        assert_eq!(k, 10, "second {s}");
    }
    // The counterparty had every one, in order, once.
    let received: Vec<String> = o
        .run
        .aa
        .received
        .iter()
        .map(|(_, id)| String::from_utf8_lossy(id).into_owned())
        .collect();
    let expected: Vec<String> = (1..=n).map(|k| format!("ORD{k}")).collect();
    assert_eq!(received, expected);
    // Admin messages and the resend were not held back.
    assert_eq!(o.answered_test_requests, 1);
    assert_eq!(o.resent, 29, "messages 2..=30 resent at once");
    assert_eq!(o.own_test_requests, 1, "a TestRequest in the silence");
    assert_eq!(o.run.init.state(), State::LoggedOn);
    let heartbeats = o
        .run
        .sent
        .iter()
        .filter(|(_, m)| msg_type(m) == "0")
        .count();
    println!(
        "  heartbeats {heartbeats}, resent {}, TestRequests answered {}, sent {}",
        o.resent, o.answered_test_requests, o.own_test_requests
    );

    // The same run without the limit: the count explodes (one every 10 ms),
    // so the figures above are the throttle's doing.
    let off = run(None);
    let n = off.app_times.len();
    println!("unthrottled, the same run: {n} application messages sent");
    assert!(n >= 5_990, "{n}");
    assert_eq!((off.resent, off.answered_test_requests), (29, 1));
}

#[test]
fn answers_from_callbacks_are_sent_but_counted() {
    // The acceptor echoes, with a limit of 2 a second: the echoes are never
    // held back (they answer a message), and they use the allowance.
    let (ic, mut ac) = common::configs();
    ac.max_app_messages_per_sec = NonZeroU32::new(2);
    let mut p = common::Pair::with_configs(ic, ac);
    p.connect();
    for k in 1..=5 {
        p.init.send(p.now, b"D", &order(k), &mut p.ia).unwrap();
    }
    let (_, from_acc) = p.pump();
    let echoes = from_acc.iter().filter(|m| msg_type(m) == "D").count();
    assert_eq!(echoes, 5, "answers are not held back");
    assert_eq!(p.acc.send_allowance(p.now), 0);
    let at = p.acc.next_send_at().expect("held back");
    assert_eq!(at.wall, p.now + Duration::from_secs(1));
    assert!(matches!(
        p.acc.send(p.now, b"D", &order(9), &mut p.aa),
        Err(SessionError::Throttled)
    ));
    assert_eq!(p.acc.send_allowance(at), 2);
    p.acc.send(at, b"D", &order(9), &mut p.aa).unwrap();
}
