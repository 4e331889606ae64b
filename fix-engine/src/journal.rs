//! What a connection writes to its session's [`FileLog`] (and [`ScreenLog`],
//! with the same lines): the session's own events, formatted. Every message
//! the session framed from its input and every message it sent is an
//! [`Event::Received`] or [`Event::Sent`] with its bytes; the admin exchanges
//! it took part in are events with QuickFIX's texts ("Received logon
//! request", "Sent ResendRequest FROM: 1 TO: 0"). Nothing here frames or
//! reads a message: the log shows what the session did, in the order it did
//! it, and a garbled message the session dropped is a line saying so, never
//! a message it did not handle.

use std::time::{Duration, SystemTime};

use fix_core::validate::Schema;
use fix_session::{DisconnectReason, Event, Session};
use tokio::time::Instant;

use crate::driver::Store;
use crate::log::{FileLog, Log, LogError, ScreenLog};

/// How long logged lines may wait in the log's buffer before the connection
/// writes them out: a log followed as it grows stays within this of the
/// traffic, at one write per interval rather than one per message.
const FLUSH_AFTER: Duration = Duration::from_secs(1);

/// A session's log as its connections write it; inert without `FileLogPath`
/// and a screen log.
#[derive(Debug)]
pub(crate) struct Journal {
    log: Option<FileLog>,
    /// The screen log (any `ScreenLog*` setting). A screen that cannot be
    /// written (standard output closed) is dropped with a warning: it is a
    /// convenience, and ends no connection.
    screen: Option<ScreenLog>,
    /// Since when lines wait in the log's buffer.
    unflushed: Option<Instant>,
    /// QuickFIX/J's `FileLogHeartbeats`: off, Heartbeats are not logged.
    heartbeats: bool,
}

impl Journal {
    /// The journal of a session with `log` (`None`: no log).
    pub(crate) fn new(log: Option<FileLog>) -> Journal {
        Journal {
            log,
            screen: None,
            unflushed: None,
            heartbeats: true,
        }
    }

    /// The journal printing to `screen` too (or not, `None`).
    pub(crate) fn with_screen(mut self, screen: Option<ScreenLog>) -> Journal {
        self.screen = screen;
        self
    }

    /// The journal logging Heartbeats (`FileLogHeartbeats`, the default) or not.
    pub(crate) fn with_heartbeats(mut self, heartbeats: bool) -> Journal {
        self.heartbeats = heartbeats;
        self
    }

    /// Whether messages are logged (a file log or a screen log): the
    /// session must then tell of them
    /// ([`SessionConfig::message_events`](fix_session::SessionConfig::message_events)).
    pub(crate) fn logs_messages(&self) -> bool {
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

    /// Logs `event`, just polled from `session`: a message line for a
    /// message received or sent, an event line for what the session did
    /// (none for a change of state, or for the end of a Logout exchange,
    /// which the connection's end tells).
    pub(crate) fn record<D: Schema>(
        &mut self,
        session: &Session<Store, D>,
        event: &Event,
        now: SystemTime,
    ) -> Result<(), LogError> {
        match event {
            Event::Received(m) | Event::Sent(m) => {
                let incoming = matches!(event, Event::Received(_));
                // The bytes are gone only if the event outlived the input
                // that made it, which the driver never lets happen.
                let Some(bytes) = session.message_bytes(m) else {
                    return Ok(());
                };
                self.message(incoming, bytes, m.heartbeat, now)
            }
            Event::State(_) | Event::DisconnectWanted(DisconnectReason::LogoutExchanged) => Ok(()),
            other => self.event(now, &other.to_string()),
        }
    }

    /// Logs a message read (`incoming`) or written.
    fn message(
        &mut self,
        incoming: bool,
        message: &[u8],
        heartbeat: bool,
        now: SystemTime,
    ) -> Result<(), LogError> {
        // The screen log leaves Heartbeats out by its own setting.
        self.screen(|screen| {
            if incoming {
                screen.on_incoming(message, now)
            } else {
                screen.on_outgoing(message, now)
            }
        });
        // FileLogHeartbeats=N leaves Heartbeats out of the file.
        if (!heartbeat || self.heartbeats)
            && let Some(log) = &mut self.log
        {
            if incoming {
                log.on_incoming(message, now)?;
            } else {
                log.on_outgoing(message, now)?;
            }
            self.unflushed.get_or_insert_with(Instant::now);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heartbeats_are_left_out_when_file_log_heartbeats_is_off() {
        let dir = fix_test_support::temp_dir::TestDir::new("engine-journal-hb");
        let id = fix_session::SessionId::new("FIX.4.4", "A", "B");
        let log = FileLog::open(&dir, &id).unwrap();
        let path = log.messages_path().to_path_buf();
        let mut journal = Journal::new(Some(log)).with_heartbeats(false);
        let now = SystemTime::now();
        let heartbeat = b"8=FIX.4.4\x019=5\x0135=0\x0110=000\x01";
        let order = b"8=FIX.4.4\x019=5\x0135=D\x0110=000\x01";
        journal.message(true, heartbeat, true, now).unwrap();
        journal.message(false, heartbeat, true, now).unwrap();
        journal.message(true, order, false, now).unwrap();
        journal.flush().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("35=0"), "{text}");
        assert!(text.contains("35=D"), "{text}");
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
        use fix_session::{Application, MemoryStore, Role, SessionConfig, SessionId, Time};
        struct App;
        impl Application for App {}
        let id = SessionId::new("FIX.4.4", "ISLD", "TW");
        let screen = Screen::default();
        let options = ScreenLogOptions::new().heartbeats(false);
        let mut journal = Journal::new(None).with_screen(Some(ScreenLog::with_writer(
            &id,
            options,
            screen.clone(),
        )));
        let mut config = SessionConfig::new(id, Role::Acceptor);
        config.message_events = journal.logs_messages();
        let store: Store = Box::new(MemoryStore::new());
        let mut session = Session::new(config, store, &fix44::DICTIONARY);
        let now = std::time::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        session.connected(now, &mut App).unwrap();
        let logon = b"8=FIX.4.4\x019=57\x0135=A\x0134=1\x0149=TW\x0152=20231114-22:13:20\x0156=ISLD\x0198=0\x01108=30\x0110=003\x01";
        let heartbeat = b"8=FIX.4.4\x019=45\x0135=0\x0134=2\x0149=TW\x0152=20231114-22:13:20\x0156=ISLD\x0110=215\x01";
        let mut bytes = logon.to_vec();
        bytes.extend_from_slice(heartbeat);
        session
            .handle_bytes(Time::from(now), &bytes, &mut App)
            .unwrap();
        while let Some(event) = session.poll_event() {
            journal.record(&session, &event, now).unwrap();
        }
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
