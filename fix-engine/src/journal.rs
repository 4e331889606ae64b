//! What a connection writes to its session's [`FileLog`] (and [`ScreenLog`],
//! with the same lines): every message read
//! and every message written, whole and in the order QuickFIX logs them (each
//! received message, then what the session answered to it), and the events
//! they mean (logon, logout, resend, reject), from the connection's driver.
//!
//! Received bytes are framed here, with the session's own parser, and handed
//! to the session one message at a time: the message is logged, then handled,
//! then what the session wrote in answer is logged. The session's output is
//! logged from where the last logging left it: every message enters it whole,
//! so it splits into messages as it is. Without a log, bytes go to the session
//! as they are read and nothing is framed twice.

use std::borrow::Cow;
use std::time::{Duration, SystemTime};

use fix_core::validate::Schema;
use fix_core::{Parser, Status};
use fix_session::{Application, Role, Session, SessionError, State, Time};
use tokio::time::Instant;

use crate::driver::Store;
use crate::log::{FileLog, Log, LogError, ScreenLog};

/// How long logged lines may wait in the log's buffer before the connection
/// writes them out: a log followed as it grows stays within this of the
/// traffic, at one write per interval rather than one per message.
const FLUSH_AFTER: Duration = Duration::from_secs(1);

/// Why feeding bytes to a session stopped.
#[derive(Debug)]
pub(crate) enum FeedError {
    /// The session failed (its store).
    Session(SessionError),
    /// The log could not be written.
    Log(LogError),
}

/// A session's log as its connections write it; inert without `FileLogPath`
/// and a screen log.
#[derive(Debug)]
pub(crate) struct Journal {
    log: Option<FileLog>,
    /// The screen log (any `ScreenLog*` setting). A screen that cannot be
    /// written (standard output closed) is dropped with a warning: it is a
    /// convenience, and ends no connection.
    screen: Option<ScreenLog>,
    parser: Parser<'static>,
    role: Role,
    /// The start of a message whose end has not been read yet.
    carry: Vec<u8>,
    /// How many bytes at the front of the session's output are logged.
    logged: usize,
    logout_sent: bool,
    logout_received: bool,
    /// Since when lines wait in the log's buffer.
    unflushed: Option<Instant>,
    /// QuickFIX/J's `FileLogHeartbeats`: off, Heartbeats are not logged.
    heartbeats: bool,
}

impl Journal {
    /// The journal of a session with `log` (`None`: no log), whose messages
    /// `parser` frames, playing `role`.
    pub(crate) fn new(
        log: Option<FileLog>,
        parser: Parser<'static>,
        role: Role,
        read_buffer: usize,
    ) -> Journal {
        let carry = if log.is_some() {
            Vec::with_capacity(read_buffer)
        } else {
            Vec::new()
        };
        Journal {
            log,
            screen: None,
            parser,
            role,
            carry,
            logged: 0,
            logout_sent: false,
            logout_received: false,
            unflushed: None,
            heartbeats: true,
        }
    }

    /// The journal printing to `screen` too (or not, `None`); `read_buffer`
    /// as for [`Journal::new`].
    pub(crate) fn with_screen(mut self, screen: Option<ScreenLog>, read_buffer: usize) -> Journal {
        if screen.is_some() && self.carry.capacity() == 0 {
            // Messages are framed for the screen as for the file.
            self.carry.reserve(read_buffer);
        }
        self.screen = screen;
        self
    }

    /// Whether anything is logged: a file log or a screen log.
    fn logs(&self) -> bool {
        self.log.is_some() || self.screen.is_some()
    }

    /// Prints to the screen log, if there is one; one that fails is dropped.
    fn screen(&mut self, print: impl FnOnce(&mut ScreenLog) -> Result<(), LogError>) {
        if let Some(screen) = &mut self.screen
            && let Err(error) = print(screen)
        {
            tracing::warn!(%error, "the screen log cannot be written: it stops");
            self.screen = None;
        }
    }

    /// The journal logging Heartbeats (`FileLogHeartbeats`, the default) or not.
    pub(crate) fn with_heartbeats(mut self, heartbeats: bool) -> Journal {
        self.heartbeats = heartbeats;
        self
    }

    /// A connection begins (before the session hears of it): `text` says
    /// with whom.
    pub(crate) fn connected(&mut self, now: SystemTime, text: &str) -> Result<(), LogError> {
        self.carry.clear();
        self.logged = 0;
        self.logout_sent = false;
        self.logout_received = false;
        self.event(now, text)
    }

    /// Writes one event line (which writes the messages before it out too).
    pub(crate) fn event(&mut self, now: SystemTime, text: &str) -> Result<(), LogError> {
        self.screen(|screen| screen.on_event(text, now));
        match &mut self.log {
            Some(log) => {
                self.unflushed = None;
                log.on_event(text, now)
            }
            None => Ok(()),
        }
    }

    /// Writes out what the log buffers.
    pub(crate) fn flush(&mut self) -> Result<(), LogError> {
        self.unflushed = None;
        self.screen(Log::flush);
        match &mut self.log {
            Some(log) => log.flush(),
            None => Ok(()),
        }
    }

    /// When buffered lines are due to be written out, if any wait.
    pub(crate) fn flush_due(&self) -> Option<Instant> {
        self.unflushed.map(|since| since + FLUSH_AFTER)
    }

    /// Writes out buffered lines if they have waited long enough.
    pub(crate) fn flush_if_due(&mut self) -> Result<(), LogError> {
        match self.flush_due() {
            Some(due) if Instant::now() >= due => self.flush(),
            _ => Ok(()),
        }
    }

    /// Hands `bytes`, just read, to `session`: every message that completes
    /// is logged, handled and followed by what the session wrote in answer.
    /// Bytes after the session decided to disconnect are dropped, as the
    /// session drops them.
    pub(crate) fn feed<D: Schema>(
        &mut self,
        session: &mut Session<Store, D>,
        now: Time,
        bytes: &[u8],
        app: &mut dyn Application,
    ) -> Result<(), FeedError> {
        if !self.logs() {
            return session
                .handle_bytes(now, bytes, app)
                .map_err(FeedError::Session);
        }
        let mut carry = std::mem::take(&mut self.carry);
        let result = if carry.is_empty() {
            let (used, result) = self.feed_frames(session, now, bytes, app);
            carry.extend_from_slice(&bytes[used..]);
            result
        } else {
            carry.extend_from_slice(bytes);
            let (used, result) = self.feed_frames(session, now, &carry, app);
            carry.drain(..used);
            result
        };
        self.carry = carry;
        result
    }

    /// Feeds the messages at the start of `buf`; how many bytes it used.
    fn feed_frames<D: Schema>(
        &mut self,
        session: &mut Session<Store, D>,
        now: Time,
        buf: &[u8],
        app: &mut dyn Application,
    ) -> (usize, Result<(), FeedError>) {
        let mut start = 0;
        while start < buf.len() {
            if session.wants_disconnect() || session.state() == State::Disconnected {
                return (buf.len(), Ok(()));
            }
            let rest = &buf[start..];
            let (len, msg_type) = match self.parser.frame(rest) {
                Ok(Status::Complete(frame)) => (frame.len(), Some(frame.msg_type())),
                Ok(Status::Partial { .. }) => break,
                // Not a message: the session drops it its own way (given the
                // same bytes, it frames them as it always does).
                Err(_) => (1 + fix_core::resync(&rest[1..]), None),
            };
            let bytes = &rest[..len];
            start += len;
            let logged = if let Some(msg_type) = msg_type {
                self.incoming(bytes, msg_type, now.wall)
            } else {
                let text = format!("Received {len} bytes that do not frame as a FIX message");
                self.event(now.wall, &text)
            };
            if let Err(e) = logged {
                return (start, Err(FeedError::Log(e)));
            }
            if let Err(e) = session.handle_bytes(now, bytes, app) {
                return (start, Err(FeedError::Session(e)));
            }
            if let Err(e) = self.outgoing(session, now.wall) {
                return (start, Err(FeedError::Log(e)));
            }
        }
        (start, Ok(()))
    }

    /// Logs what the session added to its output since the last call.
    pub(crate) fn outgoing<D: Schema>(
        &mut self,
        session: &Session<Store, D>,
        now: SystemTime,
    ) -> Result<(), LogError> {
        if !self.logs() {
            return Ok(());
        }
        let output = session.output();
        // The session's own bytes: their CheckSum is right by construction.
        let parser = self.parser.with_checksum_validation(false);
        while self.logged < output.len() {
            let rest = &output[self.logged..];
            // The session writes whole messages only; were one not to frame,
            // the rest is logged as one line rather than lost.
            let (len, msg_type) = match parser.frame(rest) {
                Ok(Status::Complete(frame)) => (frame.len(), frame.msg_type()),
                _ => (rest.len(), field(rest, b"35").unwrap_or_default()),
            };
            self.logged += len;
            self.outgoing_message(&rest[..len], msg_type, now)?;
        }
        Ok(())
    }

    /// The socket took some of the output, all of it logged already: what is
    /// left is.
    pub(crate) fn written<D: Schema>(&mut self, session: &Session<Store, D>) {
        self.logged = self.logged.min(session.output().len());
    }

    /// Logs a message read, whose MsgType its framing found, and the event it
    /// means.
    fn incoming(
        &mut self,
        message: &[u8],
        msg_type: &[u8],
        now: SystemTime,
    ) -> Result<(), LogError> {
        // The screen log leaves Heartbeats out by its own setting.
        self.screen(|screen| screen.on_incoming(message, now));
        // FileLogHeartbeats=N leaves Heartbeats out of the file.
        if (msg_type != b"0" || self.heartbeats)
            && let Some(log) = &mut self.log
        {
            log.on_incoming(message, now)?;
            self.unflushed.get_or_insert_with(Instant::now);
        }
        let text = match msg_type {
            b"A" => Cow::Borrowed(match self.role {
                Role::Acceptor => "Received logon request",
                Role::Initiator => "Received logon response",
            }),
            b"5" => {
                self.logout_received = true;
                let what = if self.logout_sent {
                    "Received logout response"
                } else {
                    "Received logout request"
                };
                with_text(what, message)
            }
            b"2" => Cow::Owned(format!(
                "Received ResendRequest FROM: {} TO: {}",
                text(message, b"7"),
                text(message, b"16")
            )),
            b"3" => with_text(
                &format!("Received Reject of message {}", text(message, b"45")),
                message,
            ),
            b"4" => Cow::Owned(format!(
                "Received SequenceReset{} to {}",
                gap_fill(message),
                text(message, b"36")
            )),
            _ => return Ok(()),
        };
        self.event(now, &text)
    }

    /// Logs a message written, of type `msg_type`, and the event it means.
    fn outgoing_message(
        &mut self,
        message: &[u8],
        msg_type: &[u8],
        now: SystemTime,
    ) -> Result<(), LogError> {
        self.screen(|screen| screen.on_outgoing(message, now));
        // FileLogHeartbeats=N leaves Heartbeats out of the file.
        if (msg_type != b"0" || self.heartbeats)
            && let Some(log) = &mut self.log
        {
            log.on_outgoing(message, now)?;
            self.unflushed.get_or_insert_with(Instant::now);
        }
        let text = match msg_type {
            b"A" => Cow::Borrowed(match self.role {
                Role::Initiator => "Initiated logon request",
                Role::Acceptor => "Responding to logon request",
            }),
            b"5" => {
                self.logout_sent = true;
                let what = if self.logout_received {
                    "Sending logout response"
                } else {
                    "Initiated logout request"
                };
                with_text(what, message)
            }
            b"2" => Cow::Owned(format!(
                "Sent ResendRequest FROM: {} TO: {}",
                text(message, b"7"),
                text(message, b"16")
            )),
            b"3" => with_text(
                &format!("Message {} Rejected", text(message, b"45")),
                message,
            ),
            b"4" => Cow::Owned(format!(
                "Sent SequenceReset{} from {} to {}",
                gap_fill(message),
                text(message, b"34"),
                text(message, b"36")
            )),
            b"1" => Cow::Owned(format!("Sent test request {}", text(message, b"112"))),
            _ => return Ok(()),
        };
        self.event(now, &text)
    }
}

/// The value of the first field `tag` of `message`.
fn field<'m>(message: &'m [u8], tag: &[u8]) -> Option<&'m [u8]> {
    message
        .split(|&b| b == fix_core::SOH)
        .find_map(|f| f.strip_prefix(tag).and_then(|rest| rest.strip_prefix(b"=")))
}

/// Field `tag`'s value as text (empty when absent).
fn text<'m>(message: &'m [u8], tag: &[u8]) -> Cow<'m, str> {
    String::from_utf8_lossy(field(message, tag).unwrap_or_default())
}

/// `what`, and the message's Text (58) after a colon when it has one.
fn with_text(what: &str, message: &[u8]) -> Cow<'static, str> {
    match field(message, b"58") {
        Some(t) => Cow::Owned(format!("{what}: {}", String::from_utf8_lossy(t))),
        None => Cow::Owned(what.to_owned()),
    }
}

/// How a SequenceReset names itself: GapFill or Reset.
fn gap_fill(message: &[u8]) -> &'static str {
    if field(message, b"123") == Some(b"Y") {
        "-GapFill"
    } else {
        "-Reset"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_found_whole_never_by_a_tag_s_suffix() {
        let m = b"8=FIX.4.4\x019=20\x0135=5\x01558=x\x0158=bye\x0110=000\x01";
        assert_eq!(field(m, b"35"), Some(&b"5"[..]));
        assert_eq!(field(m, b"58"), Some(&b"bye"[..]));
        assert_eq!(field(m, b"7"), None);
        assert_eq!(
            with_text("Received logout request", m),
            "Received logout request: bye"
        );
    }

    #[test]
    fn heartbeats_are_left_out_when_file_log_heartbeats_is_off() {
        let dir =
            std::env::temp_dir().join(format!("fix-engine-journal-hb-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let id = fix_session::SessionId::new("FIX.4.4", "A", "B");
        let log = FileLog::open(&dir, &id).unwrap();
        let path = log.messages_path().to_path_buf();
        let mut journal =
            Journal::new(Some(log), Parser::new(), Role::Acceptor, 1024).with_heartbeats(false);
        let now = SystemTime::now();
        let heartbeat = b"8=FIX.4.4\x019=5\x0135=0\x0110=000\x01";
        let order = b"8=FIX.4.4\x019=5\x0135=D\x0110=000\x01";
        journal.incoming(heartbeat, b"0", now).unwrap();
        journal.outgoing_message(heartbeat, b"0", now).unwrap();
        journal.incoming(order, b"D", now).unwrap();
        journal.flush().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("35=0"), "{text}");
        assert!(text.contains("35=D"), "{text}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A writer the test reads back.
    #[derive(Clone, Default)]
    struct Screen(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

    impl std::io::Write for Screen {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl Screen {
        fn lines(&self) -> Vec<String> {
            String::from_utf8(self.0.lock().unwrap().clone())
                .unwrap()
                .lines()
                .map(str::to_owned)
                .collect()
        }
    }

    /// A screen log alone (no FileLogPath): a Logon fed to an acceptor is
    /// printed, with the event it means and the answer, one line each.
    #[test]
    fn a_screen_log_alone_prints_what_a_connection_reads_and_writes() {
        use crate::log::{ScreenLog, ScreenLogOptions};
        use fix_session::{MemoryStore, SessionConfig, SessionId};
        struct App;
        impl Application for App {}
        let id = SessionId::new("FIX.4.4", "ISLD", "TW");
        let screen = Screen::default();
        let options = ScreenLogOptions::new().heartbeats(false);
        let mut journal = Journal::new(None, Parser::new(), Role::Acceptor, 1024).with_screen(
            Some(ScreenLog::with_writer(&id, options, screen.clone())),
            1024,
        );
        let config = SessionConfig::new(id, Role::Acceptor);
        let store: Store = Box::new(MemoryStore::new());
        let mut session = Session::new(config, store, &fix44::DICTIONARY);
        let now = std::time::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        session.connected(now, &mut App).unwrap();
        let logon = b"8=FIX.4.4\x019=57\x0135=A\x0134=1\x0149=TW\x0152=20231114-22:13:20\x0156=ISLD\x0198=0\x01108=30\x0110=003\x01";
        let heartbeat = b"8=FIX.4.4\x019=45\x0135=0\x0134=2\x0149=TW\x0152=20231114-22:13:20\x0156=ISLD\x0110=215\x01";
        let mut bytes = logon.to_vec();
        bytes.extend_from_slice(heartbeat);
        journal
            .feed(&mut session, Time::from(now), &bytes, &mut App)
            .unwrap();
        let lines = screen.lines();
        let prefix = "<20231114-22:13:20, FIX.4.4:ISLD->TW, ";
        assert_eq!(lines.len(), 4, "{lines:#?}");
        assert_eq!(
            lines[0],
            format!(
                "{prefix}incoming> (8=FIX.4.4|9=57|35=A|34=1|49=TW|52=20231114-22:13:20|56=ISLD|98=0|108=30|10=003|)"
            )
        );
        assert_eq!(lines[1], format!("{prefix}event> (Received logon request)"));
        assert!(
            lines[2].starts_with(&format!("{prefix}outgoing> (8=FIX.4.4|9=")),
            "{}",
            lines[2]
        );
        assert!(
            lines[2].contains("|35=A|") && lines[2].ends_with("|)"),
            "{}",
            lines[2]
        );
        assert_eq!(
            lines[3],
            format!("{prefix}event> (Responding to logon request)")
        );
        // ScreenLogShowHeartBeats=N: the Heartbeat was handled, not printed.
        assert_eq!(session.store().next_target_seq(), 3);
    }
}
