//! An in-memory acceptor running one script: QuickFIX's test configuration (one
//! session per TargetCompID, SenderCompID ISLD, ResetOnLogon), connections that
//! bind to a session with their first message, an echo application, and a
//! simulated clock that jumps to the session's next deadline when a script waits.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use fix_core::{Message, Parser, Status};
use fix_dict::Dictionary;
use fix_session::{
    AppReject, Application, Dictionaries as SessionDicts, MemoryStore, Outbox, Role, Session,
    SessionConfig, SessionId, State, is_header_or_trailer,
};

use super::script::{self, Formats, Step};

/// The dictionaries the sessions validate against, loaded once.
#[derive(Debug)]
pub(crate) struct Dictionaries {
    /// BeginString (FIX.4.x) or DefaultApplVerID (FIXT.1.1's 7, 8, 9) to dictionary.
    by_version: Vec<(&'static str, Dictionary)>,
}

impl Dictionaries {
    /// FIX.4.4 from our `spec/`, the others from QuickFIX's. A FIXT.1.1 session
    /// validates admin messages, the header and the trailer against FIXT11.xml,
    /// application messages against the FIX50* dictionary of their ApplVerID.
    pub(crate) fn load() -> Dictionaries {
        let qf = fix_test_support::files::quickfix_dir().join("spec");
        let ours = fix_test_support::files::workspace_root().join("spec/FIX44.xml");
        let load = |p: std::path::PathBuf| {
            Dictionary::from_path(&p).unwrap_or_else(|e| panic!("{}: {e:?}", p.display()))
        };
        // QuickFIX checks CHAR fields as STRING before FIX.4.2 (FIX.4.0/4.1's
        // BeginString is a CHAR); fix-dict takes CHAR as one character, so
        // those two are read with their CHAR fields as STRING. QuickFIX reads
        // FIX.4.0/4.1's TIME as a UTCTIMESTAMP, which fix-core leaves unchecked.
        let load_char_as_string = |p: std::path::PathBuf| {
            let text = std::fs::read_to_string(&p)
                .unwrap()
                .replace("type='CHAR'", "type='STRING'")
                .replace("type='TIME'", "type='UTCTIMESTAMP'");
            Dictionary::from_xml(&p.display().to_string(), &text)
                .unwrap_or_else(|e| panic!("{}: {e:?}", p.display()))
        };
        Dictionaries {
            by_version: vec![
                ("FIX.4.0", load_char_as_string(qf.join("FIX40.xml"))),
                ("FIX.4.1", load_char_as_string(qf.join("FIX41.xml"))),
                ("FIX.4.2", load(qf.join("FIX42.xml"))),
                ("FIX.4.3", load(qf.join("FIX43.xml"))),
                ("FIX.4.4", load(ours)),
                ("7", load(qf.join("FIX50.xml"))),
                ("8", load(qf.join("FIX50SP1.xml"))),
                ("9", load(qf.join("FIX50SP2.xml"))),
                ("FIXT.1.1", load(qf.join("FIXT11.xml"))),
            ],
        }
    }

    fn get(&self, version: &str) -> &Dictionary {
        &self
            .by_version
            .iter()
            .find(|(v, _)| *v == version)
            .unwrap()
            .1
    }
}

/// The acceptor's sessions: (TargetCompID, BeginString, dictionary key,
/// DefaultApplVerID, ValidateFieldsHaveValues).
const PROFILES: &[(&str, &str, &str, Option<&str>, bool)] = &[
    ("TW40", "FIX.4.0", "FIX.4.0", None, true),
    ("TW41", "FIX.4.1", "FIX.4.1", None, true),
    ("TW42", "FIX.4.2", "FIX.4.2", None, true),
    ("TW43", "FIX.4.3", "FIX.4.3", None, true),
    ("TW44", "FIX.4.4", "FIX.4.4", None, true),
    ("TW50", "FIXT.1.1", "7", Some("7"), true),
    ("TW50SP1", "FIXT.1.1", "8", Some("8"), true),
    ("TW50SP2", "FIXT.1.1", "9", Some("9"), true),
    ("TW", "FIX.4.4", "FIX.4.4", None, true),
    (
        "NO_CHECK_FIELDS_HAVE_VALUES",
        "FIX.4.4",
        "FIX.4.4",
        None,
        false,
    ),
];

/// Sends every NewOrderSingle and SecurityDefinition back with its body:
/// top-level fields and whole groups in ascending tag order (QuickFIX's field maps
/// are sorted by tag; a group's entries keep their order). Other application
/// messages get a BusinessMessageReject, as from QuickFIX's test application.
/// As there, the echo keeps PossResend (97=Y), and a PossResend order whose
/// ClOrdID the session has seen is ignored.
struct Echo<'d> {
    dicts: Vec<&'d Dictionary>,
    current: usize,
    /// (session, ClOrdID) of the orders seen.
    orders: std::collections::HashSet<(usize, Vec<u8>)>,
}

impl Application for Echo<'_> {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        if !matches!(msg.msg_type(), b"D" | b"d") {
            return Err(AppReject::Business {
                reason: 3,
                ref_tag: None,
                text: "Unsupported Message Type".into(),
            });
        }
        let poss_resend = msg.get(97) == Some(b"Y");
        if let Some(id) = msg.get(11) {
            let fresh = self.orders.insert((self.current, id.to_vec()));
            if poss_resend && !fresh {
                return Ok(());
            }
        }
        let dict = self.dicts[self.current];
        let body: Vec<(u32, &[u8])> = msg
            .iter()
            .filter(|(t, _)| !is_header_or_trailer(*t))
            .collect();
        let layout = dict.message(msg.msg_type()).map(|m| m.layout());
        // Items: a field, or a group counter with every field of its entries.
        let mut items: Vec<&[(u32, &[u8])]> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let start = i;
            i += 1;
            if let Some(group) = layout.and_then(|l| l.group(body[start].0)) {
                while i < body.len() && in_group(&group.entry, body[i].0) {
                    i += 1;
                }
            }
            items.push(&body[start..i]);
        }
        items.sort_by_key(|item| item[0].0);
        out.send_fields(msg.msg_type(), items.into_iter().flatten().copied());
        if poss_resend {
            out.set_poss_resend();
        }
        Ok(())
    }
}

fn in_group(entry: &fix_dict::Layout, tag: u32) -> bool {
    entry.contains(tag) || entry.groups().iter().any(|g| in_group(&g.entry, tag))
}

/// One connection: bytes before its first complete message, then the session it
/// bound to.
#[derive(Debug, Default)]
struct Conn {
    pending: Vec<u8>,
    session: Option<usize>,
    closed: bool,
}

/// How long an `E` line waits (simulated) for a message, and `eDISCONNECT` for
/// the disconnect (QuickFIX's runner waits 10 s; some slack for LogoutTimeout).
const EXPECT_WAIT: Duration = Duration::from_secs(120);
const DISCONNECT_WAIT: Duration = Duration::from_secs(15);

/// The acceptor and the script's clock.
pub(crate) struct Acceptor<'d> {
    sessions: Vec<Session<MemoryStore, &'d Dictionary>>,
    echo: Echo<'d>,
    conns: HashMap<u32, Conn>,
    now: SystemTime,
}

impl<'d> Acceptor<'d> {
    /// Fresh sessions at 2026-03-02 09:30:00 UTC. `future`: the scripts of
    /// `server/future`, which log on to TW as FIX.4.2.
    pub(crate) fn new(dicts: &'d Dictionaries, future: bool) -> Self {
        let mut sessions = Vec::new();
        let mut app_dicts = Vec::new();
        for &(target, begin, dict, appl_ver, have_values) in PROFILES {
            let (begin, dict) = if future && target == "TW" {
                ("FIX.4.2", "FIX.4.2")
            } else {
                (begin, dict)
            };
            let mut config =
                SessionConfig::new(SessionId::new(begin, "ISLD", target), Role::Acceptor);
            config.reset_on_logon = true;
            config.default_appl_ver_id = appl_ver.map(str::to_owned);
            config.parser = Parser::new().with_empty_values(true);
            config.validator =
                Some(fix_core::validate::Validator::new().validate_fields_have_values(have_values));
            let dict = dicts.get(dict);
            // FIXT.1.1: FIXT11.xml for the header, trailer and admin messages,
            // the FIX50* dictionary of the message's ApplVerID (or the
            // DefaultApplVerID) for application messages.
            let schema = match appl_ver {
                Some(_) => SessionDicts::new(dicts.get(begin))
                    .with_app("7", dicts.get("7"))
                    .with_app("8", dicts.get("8"))
                    .with_app("9", dicts.get("9")),
                None => SessionDicts::single(dict),
            };
            sessions.push(Session::with_dictionaries(
                config,
                MemoryStore::new(),
                schema,
            ));
            app_dicts.push(dict);
        }
        Acceptor {
            sessions,
            echo: Echo {
                dicts: app_dicts,
                current: 0,
                orders: Default::default(),
            },
            conns: HashMap::new(),
            now: SystemTime::UNIX_EPOCH + Duration::from_secs(1_772_443_800),
        }
    }

    /// Runs every step; the first failure ends the script.
    pub(crate) fn run(&mut self, steps: &[(usize, Step)], formats: &Formats) -> Result<(), String> {
        for (line, step) in steps {
            self.step(step, formats)
                .map_err(|e| format!("line {line}: {e}"))?;
        }
        let ids: Vec<u32> = self.conns.keys().copied().collect();
        for id in ids {
            self.close(id)?;
        }
        Ok(())
    }

    fn step(&mut self, step: &Step, formats: &Formats) -> Result<(), String> {
        match step {
            Step::Connect { conn } => {
                self.close(*conn)?;
                self.conns.insert(*conn, Conn::default());
                Ok(())
            }
            Step::Disconnect { conn } => self.close(*conn),
            Step::Send { conn, template } => {
                let bytes = script::build(template, self.now);
                self.send(*conn, &bytes)
            }
            Step::Expect { conn, template } => {
                let received = self.receive(*conn)?;
                script::compare(&script::build(template, self.now), &received, formats)
            }
            Step::ExpectDisconnect { conn } => self.expect_disconnect(*conn),
        }
    }

    fn conn(&mut self, id: u32) -> Result<&mut Conn, String> {
        self.conns
            .get_mut(&id)
            .ok_or_else(|| format!("connection {id} was never opened"))
    }

    /// Closes our side; the session sees the disconnect.
    fn close(&mut self, id: u32) -> Result<(), String> {
        let Some(conn) = self.conns.get_mut(&id) else {
            return Ok(());
        };
        let was_open = !conn.closed;
        conn.closed = true;
        if let (true, Some(s)) = (was_open, conn.session) {
            self.echo.current = s;
            self.sessions[s]
                .disconnected(self.now, &mut self.echo)
                .map_err(|e| format!("disconnected: {e}"))?;
        }
        Ok(())
    }

    fn send(&mut self, id: u32, bytes: &[u8]) -> Result<(), String> {
        let now = self.now;
        let conn = self.conn(id)?;
        if conn.closed {
            return Ok(()); // the engine closed it: the bytes go nowhere
        }
        if let Some(s) = conn.session {
            self.echo.current = s;
            return self.sessions[s]
                .handle_bytes(now, bytes, &mut self.echo)
                .map_err(|e| format!("handle_bytes: {e}"));
        }
        conn.pending.extend_from_slice(bytes);
        let frame = match Parser::new().frame(&conn.pending) {
            Ok(Status::Complete(frame)) => frame,
            Ok(Status::Partial { .. }) => return Ok(()),
            // A garbled first message: the acceptor cannot tell whose it is.
            Err(_) => {
                conn.closed = true;
                return Ok(());
            }
        };
        let first = frame.bytes().to_vec();
        let fields = script::split(&first);
        let get = |tag: &[u8]| fields.iter().find(|(t, _)| *t == tag).map(|(_, v)| *v);
        let (begin, sender, target) = (get(b"8"), get(b"49"), get(b"56"));
        let found = self.sessions.iter().position(|s| {
            let id = s.id();
            begin == Some(id.begin_string.as_bytes())
                && sender == Some(id.target_comp_id.as_bytes())
                && target == Some(id.sender_comp_id.as_bytes())
        });
        let conn = self.conns.get_mut(&id).unwrap();
        let Some(s) = found.filter(|&s| self.sessions[s].state() == State::Disconnected) else {
            // An unknown session, or one already connected: refused.
            conn.closed = true;
            return Ok(());
        };
        conn.session = Some(s);
        let pending = std::mem::take(&mut conn.pending);
        self.echo.current = s;
        let session = &mut self.sessions[s];
        session
            .connected(now, &mut self.echo)
            .map_err(|e| format!("connected: {e}"))?;
        session
            .handle_bytes(now, &pending, &mut self.echo)
            .map_err(|e| format!("handle_bytes: {e}"))
    }

    /// The next message the engine writes on connection `id`, advancing the clock
    /// to the session's deadlines while it has none.
    fn receive(&mut self, id: u32) -> Result<Vec<u8>, String> {
        let conn = self.conn(id)?;
        let Some(s) = conn.session.filter(|_| !conn.closed) else {
            return Err("expected a message, the connection is closed".into());
        };
        let start = self.now;
        loop {
            let session = &mut self.sessions[s];
            if let Some(msg) = take_message(session) {
                return Ok(msg);
            }
            if session.wants_disconnect() {
                return Err("expected a message, the engine disconnected".into());
            }
            self.wait(s, start + EXPECT_WAIT)
                .map_err(|e| format!("expected a message, {e}"))?;
        }
    }

    fn expect_disconnect(&mut self, id: u32) -> Result<(), String> {
        let conn = self.conn(id)?;
        if conn.closed {
            return Ok(());
        }
        let Some(s) = conn.session else {
            return Err("expected a disconnect, the connection has no session".into());
        };
        let start = self.now;
        loop {
            let session = &mut self.sessions[s];
            if let Some(msg) = take_message(session) {
                let fields = script::split(&msg);
                return Err(format!(
                    "expected a disconnect, received {}",
                    script::show(&fields, usize::MAX)
                ));
            }
            if session.wants_disconnect() {
                return self.close(id);
            }
            self.wait(s, start + DISCONNECT_WAIT)
                .map_err(|e| format!("expected a disconnect, {e}"))?;
        }
    }

    /// Jumps the clock to session `s`'s next deadline (not past `limit`) and lets
    /// it act.
    fn wait(&mut self, s: usize, limit: SystemTime) -> Result<(), String> {
        let session = &mut self.sessions[s];
        let Some(due) = session.poll_timeout() else {
            return Err("the session has no deadline".into());
        };
        if due > limit {
            return Err(format!(
                "nothing within {} s",
                limit.duration_since(self.now).unwrap_or_default().as_secs()
            ));
        }
        self.now = self.now.max(due);
        self.echo.current = s;
        session
            .handle_timeout(self.now, &mut self.echo)
            .map_err(|e| format!("handle_timeout: {e}"))
    }
}

/// Takes one framed message off the session's output (or all of it, when it
/// does not frame).
fn take_message(session: &mut Session<MemoryStore, &Dictionary>) -> Option<Vec<u8>> {
    let out = session.output();
    if out.is_empty() {
        return None;
    }
    let len = match Parser::new().with_empty_values(true).frame(out) {
        Ok(Status::Complete(frame)) => frame.len(),
        _ => out.len(),
    };
    let msg = out[..len].to_vec();
    session.consume_output(len);
    Some(msg)
}
