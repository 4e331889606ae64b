//! What the tests share: test messages for the stores;
//! applications, a back-to-back pair and message readers for the sessions.
#![allow(dead_code, unreachable_pub)] // each test binary uses its own part of this module

#[allow(unused_imports)] // each test binary uses its own part
pub use fix_session::store::conformance::helpers::{message, read_all};

// What the session tests share: an application that records and echoes, a pair
// of sessions wired back to back, and readers of the bytes a session writes.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_core::Message;
use fix_session::{
    AppReject, Application, MemoryStore, Outbox, Refusal, Role, Session, SessionConfig, SessionId,
    State,
};
use fix_test_support::naive::naive_parse;

/// The FIX 4.4 tables the session tests validate against.
pub type Fix44 = &'static fix_core::typed::Tables;

/// The tests' epoch: SendingTime `20260921-14:13:20`.
pub fn t0() -> SystemTime {
    UNIX_EPOCH + Duration::from_secs(1_790_000_000)
}

/// Records what the application sees; echoes application messages when asked.
#[derive(Default)]
pub struct Recorder {
    pub logons: usize,
    pub logouts: usize,
    /// (MsgType, ClOrdID) of every application message delivered.
    pub received: Vec<(Vec<u8>, Vec<u8>)>,
    /// (MsgType, MsgSeqNum) of every admin message delivered.
    pub admin: Vec<(Vec<u8>, Vec<u8>)>,
    pub echo: bool,
    /// `to_app` declines every resend (a gap fill in its place).
    pub decline_resend: bool,
    /// `from_app` answers every message with this rejection.
    pub reject: Option<AppReject>,
    /// `from_admin` refuses a Logon with this text.
    pub refuse_logon: Option<String>,
}

impl Recorder {
    /// A recorder that echoes application messages back.
    pub fn echo() -> Recorder {
        Recorder {
            echo: true,
            ..Recorder::default()
        }
    }
}

impl Application for Recorder {
    fn on_logon(&mut self, _: &SessionId) {
        self.logons += 1;
    }
    fn on_logout(&mut self, _: &SessionId) {
        self.logouts += 1;
    }
    fn from_admin(&mut self, msg: &Message<'_>) -> Result<(), Refusal> {
        self.admin.push((
            msg.msg_type().to_vec(),
            msg.get(34).unwrap_or_default().to_vec(),
        ));
        match &self.refuse_logon {
            Some(text) if msg.msg_type() == b"A" => Err(Refusal { text: text.clone() }),
            _ => Ok(()),
        }
    }
    fn to_app(&mut self, _: &Message<'_>, _: bool) -> bool {
        !self.decline_resend
    }
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        self.received.push((
            msg.msg_type().to_vec(),
            msg.get(11).unwrap_or_default().to_vec(),
        ));
        if let Some(r) = &self.reject {
            return Err(r.clone());
        }
        if self.echo {
            let body: Vec<(u32, &[u8])> = msg
                .iter()
                .filter(|(t, _)| !fix_session::is_header_or_trailer(*t))
                .collect();
            out.send_fields(msg.msg_type(), body.iter().copied());
        }
        Ok(())
    }
}

/// The initiator CLIENT→BROKER and the acceptor BROKER→CLIENT, FIX 4.4, with
/// QuickFIX's defaults.
pub fn configs() -> (SessionConfig, SessionConfig) {
    (
        SessionConfig::new(
            SessionId::new("FIX.4.4", "CLIENT", "BROKER"),
            Role::Initiator,
        ),
        SessionConfig::new(
            SessionId::new("FIX.4.4", "BROKER", "CLIENT"),
            Role::Acceptor,
        ),
    )
}

/// Two sessions wired back to back in memory, with a simulated clock.
pub struct Pair<I: Application = Recorder, A: Application = Recorder> {
    pub init: Session<MemoryStore, Fix44>,
    pub acc: Session<MemoryStore, Fix44>,
    pub ia: I,
    pub aa: A,
    pub now: SystemTime,
    /// Bytes on their way, reused by [`Pair::exchange`].
    pub wire: Vec<u8>,
}

impl Pair {
    /// An initiator with a recording application and an acceptor that echoes,
    /// not connected.
    pub fn new() -> Pair {
        let (ic, ac) = configs();
        Pair::with_configs(ic, ac)
    }

    /// An initiator and an acceptor with these configs, a recording
    /// application and an echoing one, not connected.
    pub fn with_configs(ic: SessionConfig, ac: SessionConfig) -> Pair {
        Pair::with(
            ic,
            ac,
            MemoryStore::new(),
            MemoryStore::new(),
            Recorder::default(),
            Recorder::echo(),
        )
    }

    /// [`Pair::new`], connected and logged on.
    pub fn logged_on() -> Pair {
        let mut p = Pair::new();
        p.connect();
        p
    }
}

impl<I: Application, A: Application> Pair<I, A> {
    pub fn with(
        ic: SessionConfig,
        ac: SessionConfig,
        istore: MemoryStore,
        astore: MemoryStore,
        ia: I,
        aa: A,
    ) -> Pair<I, A> {
        Self::with_dict(&fix44::DICTIONARY, ic, ac, istore, astore, ia, aa)
    }

    /// [`Pair::with`], both sides validating against `dict` (a generated
    /// crate's tables: fix44's, or fix50sp2's for FIXT.1.1).
    pub fn with_dict(
        dict: Fix44,
        ic: SessionConfig,
        ac: SessionConfig,
        istore: MemoryStore,
        astore: MemoryStore,
        ia: I,
        aa: A,
    ) -> Pair<I, A> {
        Pair {
            init: Session::new(ic, istore, dict),
            acc: Session::new(ac, astore, dict),
            ia,
            aa,
            now: t0(),
            wire: Vec::with_capacity(1 << 16),
        }
    }

    /// Connects both and exchanges the Logons; both must be logged on.
    pub fn connect(&mut self) {
        self.acc.connected(self.now, &mut self.aa).unwrap();
        self.init.connected(self.now, &mut self.ia).unwrap();
        self.pump();
        assert_eq!(
            (self.init.state(), self.acc.state()),
            (State::LoggedOn, State::LoggedOn)
        );
    }

    /// Moves bytes both ways until neither side has output; returns what each sent
    /// (initiator's, acceptor's) as messages.
    pub fn pump(&mut self) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
        let (mut from_init, mut from_acc) = (Vec::new(), Vec::new());
        for _ in 0..100 {
            let a = self.init.output().to_vec();
            self.init.consume_output(a.len());
            let b = self.acc.output().to_vec();
            self.acc.consume_output(b.len());
            if a.is_empty() && b.is_empty() {
                break;
            }
            from_init.extend(split(&a));
            from_acc.extend(split(&b));
            self.acc.handle_bytes(self.now, &a, &mut self.aa).unwrap();
            self.init.handle_bytes(self.now, &b, &mut self.ia).unwrap();
        }
        (from_init, from_acc)
    }

    /// One round, allocation-free once `wire` has grown: the initiator's output
    /// to the acceptor, then the acceptor's to the initiator.
    pub fn exchange(&mut self) {
        self.wire.clear();
        self.wire.extend_from_slice(self.init.output());
        self.init.consume_output(self.wire.len());
        self.acc
            .handle_bytes(self.now, &self.wire, &mut self.aa)
            .unwrap();
        self.wire.clear();
        self.wire.extend_from_slice(self.acc.output());
        self.acc.consume_output(self.wire.len());
        self.init
            .handle_bytes(self.now, &self.wire, &mut self.ia)
            .unwrap();
    }

    /// Runs the acceptor's timers alone (the initiator silent) until it
    /// wants its connection closed; what it sent meanwhile.
    pub fn acceptor_until_disconnect(&mut self) -> Vec<Vec<u8>> {
        let mut sent = Vec::new();
        while !self.acc.wants_disconnect() {
            self.now = self.acc.poll_timeout().unwrap().wall;
            self.acc.handle_timeout(self.now, &mut self.aa).unwrap();
            sent.extend(split(self.acc.output()));
            let n = self.acc.output().len();
            self.acc.consume_output(n);
        }
        sent
    }

    /// Advances the clock to the earliest deadline of either side and fires it.
    pub fn tick(&mut self) {
        let next = [self.init.poll_timeout(), self.acc.poll_timeout()]
            .into_iter()
            .flatten()
            .map(|t| t.wall)
            .min()
            .expect("a deadline");
        self.now = self.now.max(next);
        self.init.handle_timeout(self.now, &mut self.ia).unwrap();
        self.acc.handle_timeout(self.now, &mut self.aa).unwrap();
    }
}

/// Splits a byte stream into messages at each `8=` that follows a `10=xxx<SOH>`.
pub fn split(bytes: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i + 7 <= bytes.len() {
        if bytes[i] == 1 && bytes[i + 1..].starts_with(b"10=") && bytes.get(i + 7) == Some(&1) {
            out.push(bytes[start..i + 8].to_vec());
            start = i + 8;
            i = start;
        } else {
            i += 1;
        }
    }
    assert_eq!(start, bytes.len(), "output ends on a whole message");
    out
}

/// (tag, value) pairs of a message, by the naive reference parser (which also
/// checks BodyLength and CheckSum).
pub fn fields(msg: &[u8]) -> Vec<(u32, String)> {
    naive_parse(msg, &[(354, 355)], usize::MAX)
        .expect("well-formed")
        .into_iter()
        .map(|(t, v)| (t, String::from_utf8_lossy(&v).into_owned()))
        .collect()
}

/// A FIX 4.4 message with these fields after BeginString, BodyLength and CheckSum
/// computed by the naive builder.
pub fn msg(fields: &[(u32, &str)]) -> Vec<u8> {
    msg_with("FIX.4.4", fields)
}

/// [`msg`] with BeginString `begin`.
pub fn msg_with(begin: &str, fields: &[(u32, &str)]) -> Vec<u8> {
    let body: String = fields.iter().map(|(t, v)| format!("{t}={v}\x01")).collect();
    fix_test_support::naive::build_with(begin, body.as_bytes())
}

/// The value of `tag` in `msg`.
pub fn get(msg: &[u8], tag: u32) -> Option<String> {
    fields(msg)
        .into_iter()
        .find(|(t, _)| *t == tag)
        .map(|(_, v)| v)
}
