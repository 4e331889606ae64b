//! An in-memory acceptor running one script: QuickFIX's test configuration (one
//! session per TargetCompID, SenderCompID ISLD, ResetOnLogon), connections that
//! bind to a session with their first message, an echo application, and a
//! simulated clock that jumps to the session's next deadline when a script waits.

use std::collections::HashMap;
use std::time::{Duration, SystemTime};

use fix_core::{Parser, Status};
use fix_dict::Dictionary;
use fix_session::{MemoryStore, Role, Session, SessionConfig, SessionId, State};

use fix_test_support::acceptance::echo::Echo;
use fix_test_support::acceptance::profiles::{self, Dictionaries};
use fix_test_support::acceptance::script::{self, Formats, Step};

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
    /// Each session's application.
    echos: Vec<Echo<'d>>,
    conns: HashMap<u32, Conn>,
    now: SystemTime,
}

impl<'d> Acceptor<'d> {
    /// Fresh sessions at 2026-03-02 09:30:00 UTC, for the scripts of server
    /// directory `dir`.
    pub(crate) fn new(dicts: &'d Dictionaries, dir: &str) -> Self {
        let mut sessions = Vec::new();
        let mut echos = Vec::new();
        for p in profiles::profiles(dir) {
            let mut config =
                SessionConfig::new(SessionId::new(p.begin, "ISLD", p.target), Role::Acceptor);
            config.reset_on_logon = true;
            config.default_appl_ver_id = p.appl_ver_id.map(str::to_owned);
            config.parser = Parser::new().with_empty_values(true);
            config.validator = Some(
                fix_core::validate::Validator::new().validate_fields_have_values(p.have_values),
            );
            sessions.push(Session::with_dictionaries(
                config,
                MemoryStore::new(),
                dicts.session(&p),
            ));
            echos.push(Echo::new(dicts.app(&p)));
        }
        Acceptor {
            sessions,
            echos,
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
            self.sessions[s]
                .disconnected(self.now, &mut self.echos[s])
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
            return self.sessions[s]
                .handle_bytes(now, bytes, &mut self.echos[s])
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
        let session = &mut self.sessions[s];
        session
            .connected(now, &mut self.echos[s])
            .map_err(|e| format!("connected: {e}"))?;
        session
            .handle_bytes(now, &pending, &mut self.echos[s])
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
        let Some(due) = session.poll_timeout().map(|t| t.wall) else {
            return Err("the session has no deadline".into());
        };
        if due > limit {
            return Err(format!(
                "nothing within {} s",
                limit.duration_since(self.now).unwrap_or_default().as_secs()
            ));
        }
        self.now = self.now.max(due);
        session
            .handle_timeout(self.now, &mut self.echos[s])
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
