//! A session's message and event logs, in the files and line format QuickFIX's
//! `FileLog` writes, so that the tools that read QuickFIX logs (`fixdump` among
//! them) read these.
//!
//! [`Log`] is what the engine calls: [`on_incoming`](Log::on_incoming) and
//! [`on_outgoing`](Log::on_outgoing) for every message read and written, and
//! [`on_event`](Log::on_event) for what happens to the session (logon, logout, a
//! resend, a disconnect). [`FileLog`] writes them; [`NoLog`] drops them (no
//! `FileLogPath`); [`ScreenLog`] prints them to standard output (QuickFIX's
//! screen log, chosen by any `ScreenLog*` setting), beside the file log or
//! alone.
//!
//! For a session `FIX.4.4:CLIENT->VENUE` (qualifier `Q`, if it has one) in
//! directory `log`, as QuickFIX names them:
//!
//! ```text
//! log/FIX.4.4-CLIENT-VENUE[-Q].messages.current.log   both directions, in order
//! log/FIX.4.4-CLIENT-VENUE[-Q].event.current.log      the events
//! 20261130-14:03:27.123 : 8=FIX.4.4^A9=...^A10=123^A  one line per message (SOH kept)
//! 20261130-14:03:27.124 : Received logon request       one line per event
//! ```
//!
//! QuickFIX does not mark a message's direction: its SenderCompID (49) says it.
//! Files are opened for appending, so a restart continues them. A sequence reset
//! does not touch them: QuickFIX C++'s `Session::reset` resets the store and
//! leaves the log (its `FileLog::clear`, which truncates, and `FileLog::backup`,
//! which renames the current files to `.messages.backup.N.log` and
//! `.event.backup.N.log`, are not called on a reset), and an audit trail that a
//! daily `ResetOnLogon` emptied would be no trail. [`Log::backup`] rotates as
//! QuickFIX's `backup` does, for an engine that wants one set of files per
//! session period.
//!
//! Writes do not allocate: lines go through a buffered writer, and the timestamp is
//! formatted into a stack buffer. When lines reach the disk is the
//! [`FlushPolicy`]'s: by default an event flushes both files (so the messages
//! before an event are on disk with it), [`Log::flush`] flushes on demand (the
//! engine calls it on a timer and before it exits), and dropping a [`FileLog`]
//! flushes what is left (errors then are lost: call `flush` first to see them).
//!
//! ```
//! use fix_engine::log::{FileLog, Log};
//! use fix_session::SessionId;
//! use std::time::SystemTime;
//! # let dir = fix_test_support::temp_dir::TestDir::new("engine-doc-log");
//!
//! let mut log = FileLog::open(&dir, &SessionId::new("FIX.4.4", "CLIENT", "VENUE"))?;
//! let now = SystemTime::now();
//! log.on_outgoing(b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01", now)?;
//! log.on_event("Initiated logon request", now)?; // flushes both files
//! let text = std::fs::read_to_string(dir.join("FIX.4.4-CLIENT-VENUE.messages.current.log"))?;
//! assert!(text.ends_with(" : 8=FIX.4.4\x019=5\x0135=0\x0110=163\x01\n"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use fix_core::value::{Precision, UtcTimestamp};
use fix_session::SessionId;

/// Where a session's messages and events go.
///
/// Every method takes the time to stamp the line with (the session's clock, the one
/// SendingTime comes from). The trait is object safe: an engine holds a
/// `Box<dyn Log>`.
///
/// ```
/// use fix_engine::log::{Log, NoLog};
/// let mut log: Box<dyn Log> = Box::new(NoLog);
/// log.on_event("Created session", std::time::SystemTime::now())?;
/// # Ok::<(), fix_engine::log::LogError>(())
/// ```
pub trait Log {
    /// A message read from the counterparty, as it arrived.
    ///
    /// ```
    /// use fix_engine::log::{Log, NoLog};
    /// NoLog.on_incoming(b"8=FIX.4.4\x01...", std::time::SystemTime::now())?;
    /// # Ok::<(), fix_engine::log::LogError>(())
    /// ```
    fn on_incoming(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError>;

    /// A message written to the counterparty, as it left.
    ///
    /// ```
    /// use fix_engine::log::{Log, NoLog};
    /// NoLog.on_outgoing(b"8=FIX.4.4\x01...", std::time::SystemTime::now())?;
    /// # Ok::<(), fix_engine::log::LogError>(())
    /// ```
    fn on_outgoing(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError>;

    /// Something that happened to the session, as one line of text (line breaks
    /// in it are written as spaces).
    ///
    /// ```
    /// use fix_engine::log::{Log, NoLog};
    /// NoLog.on_event("Received logon request", std::time::SystemTime::now())?;
    /// # Ok::<(), fix_engine::log::LogError>(())
    /// ```
    fn on_event(&mut self, text: &str, time: SystemTime) -> Result<(), LogError>;

    /// Writes out whatever is buffered.
    ///
    /// ```
    /// use fix_engine::log::{Log, NoLog};
    /// NoLog.flush()?;
    /// # Ok::<(), fix_engine::log::LogError>(())
    /// ```
    fn flush(&mut self) -> Result<(), LogError>;

    /// Puts the current logs aside and starts new ones, as QuickFIX's
    /// `FileLog::backup` does.
    ///
    /// ```
    /// use fix_engine::log::{Log, NoLog};
    /// NoLog.backup()?;
    /// # Ok::<(), fix_engine::log::LogError>(())
    /// ```
    fn backup(&mut self) -> Result<(), LogError>;
}

/// A log behind a box is a log.
///
/// ```
/// use fix_engine::log::{Log, NoLog};
/// let mut log: Box<dyn Log> = Box::new(NoLog);
/// log.flush()?;
/// # Ok::<(), fix_engine::log::LogError>(())
/// ```
impl<L: Log + ?Sized> Log for Box<L> {
    fn on_incoming(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError> {
        (**self).on_incoming(message, time)
    }
    fn on_outgoing(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError> {
        (**self).on_outgoing(message, time)
    }
    fn on_event(&mut self, text: &str, time: SystemTime) -> Result<(), LogError> {
        (**self).on_event(text, time)
    }
    fn flush(&mut self) -> Result<(), LogError> {
        (**self).flush()
    }
    fn backup(&mut self) -> Result<(), LogError> {
        (**self).backup()
    }
}

/// The log of a session without `FileLogPath`: everything is dropped.
///
/// ```
/// use fix_engine::log::{Log, NoLog};
/// NoLog.on_outgoing(b"dropped", std::time::SystemTime::now())?;
/// # Ok::<(), fix_engine::log::LogError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoLog;

impl Log for NoLog {
    fn on_incoming(&mut self, _: &[u8], _: SystemTime) -> Result<(), LogError> {
        Ok(())
    }
    fn on_outgoing(&mut self, _: &[u8], _: SystemTime) -> Result<(), LogError> {
        Ok(())
    }
    fn on_event(&mut self, _: &str, _: SystemTime) -> Result<(), LogError> {
        Ok(())
    }
    fn flush(&mut self) -> Result<(), LogError> {
        Ok(())
    }
    fn backup(&mut self) -> Result<(), LogError> {
        Ok(())
    }
}

/// When a [`FileLog`]'s lines reach the file (the operating system's cache; no
/// fsync: a log, unlike the store, is not what a restart resumes from).
///
/// ```
/// use fix_engine::log::{FileLogOptions, FlushPolicy};
/// assert_eq!(FileLogOptions::new().flush_policy(), FlushPolicy::OnEvent);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FlushPolicy {
    /// Every line, as QuickFIX does (its lines end with `std::endl`): a killed
    /// process loses nothing, at one `write` per message.
    EveryLine,
    /// Every event flushes both files; messages otherwise wait in the buffer
    /// until it fills, [`Log::flush`] or the drop. A killed process loses the
    /// messages since the last of these.
    OnEvent,
}

/// How a [`FileLog`] writes.
///
/// ```
/// use fix_engine::log::{FileLogOptions, FlushPolicy};
/// use fix_core::value::Precision;
/// let options = FileLogOptions::new().precision(Precision::Micros).flush(FlushPolicy::EveryLine);
/// assert_eq!((options.timestamp_precision(), options.flush_policy()), (Precision::Micros, FlushPolicy::EveryLine));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileLogOptions {
    precision: Precision,
    flush: FlushPolicy,
}

impl FileLogOptions {
    /// Milliseconds in the timestamps (`YYYYMMDD-HH:MM:SS.sss`), flushed on events.
    ///
    /// ```
    /// use fix_engine::log::FileLogOptions;
    /// assert_eq!(FileLogOptions::new(), FileLogOptions::default());
    /// ```
    pub const fn new() -> Self {
        FileLogOptions {
            precision: Precision::Millis,
            flush: FlushPolicy::OnEvent,
        }
    }

    /// The fraction of a second each line's timestamp shows.
    ///
    /// ```
    /// use fix_core::value::Precision;
    /// let options = fix_engine::log::FileLogOptions::new().precision(Precision::Nanos);
    /// assert_eq!(options.timestamp_precision(), Precision::Nanos);
    /// ```
    pub const fn precision(self, precision: Precision) -> Self {
        FileLogOptions { precision, ..self }
    }

    /// When lines reach the file.
    ///
    /// ```
    /// use fix_engine::log::{FileLogOptions, FlushPolicy};
    /// let options = FileLogOptions::new().flush(FlushPolicy::EveryLine);
    /// assert_eq!(options.flush_policy(), FlushPolicy::EveryLine);
    /// ```
    pub const fn flush(self, policy: FlushPolicy) -> Self {
        FileLogOptions {
            flush: policy,
            ..self
        }
    }

    /// The timestamps' precision set.
    ///
    /// ```
    /// use fix_core::value::Precision;
    /// assert_eq!(fix_engine::log::FileLogOptions::new().timestamp_precision(), Precision::Millis);
    /// ```
    pub const fn timestamp_precision(&self) -> Precision {
        self.precision
    }

    /// The flush policy set.
    ///
    /// ```
    /// use fix_engine::log::{FileLogOptions, FlushPolicy};
    /// assert_eq!(FileLogOptions::new().flush_policy(), FlushPolicy::OnEvent);
    /// ```
    pub const fn flush_policy(&self) -> FlushPolicy {
        self.flush
    }
}

/// The same as [`FileLogOptions::new`].
///
/// ```
/// assert_eq!(fix_engine::log::FileLogOptions::default(), fix_engine::log::FileLogOptions::new());
/// ```
impl Default for FileLogOptions {
    fn default() -> Self {
        FileLogOptions::new()
    }
}

/// A session's log in QuickFIX's two files (see the [module](self) for names and
/// format).
///
/// ```
/// use fix_engine::log::{FileLog, Log};
/// use fix_session::SessionId;
/// use std::time::SystemTime;
/// # let dir = fix_test_support::temp_dir::TestDir::new("engine-doc-filelog");
/// let mut log = FileLog::open(&dir, &SessionId::new("FIX.4.4", "EXEC", "CLIENT1"))?;
/// log.on_incoming(b"8=FIX.4.4\x01...", SystemTime::now())?;
/// log.flush()?;
/// assert_eq!(log.messages_path(), dir.join("FIX.4.4-EXEC-CLIENT1.messages.current.log"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct FileLog {
    messages: LogFile,
    events: LogFile,
    /// `<dir>/<session>.`, which the backups' names start with.
    prefix: PathBuf,
    options: FileLogOptions,
    /// The last timestamp written, by the time it shows (in units of the
    /// precision): the lines of one burst share it, formatted once.
    last_stamp: Option<(u128, Stamp)>,
}

/// Buffer for each file: a burst of messages is one `write`.
const BUFFER: usize = 64 * 1024;

impl FileLog {
    /// Opens (appending) or creates the logs of `id` in `dir`, creating `dir` if
    /// needed, with the default [`FileLogOptions`].
    ///
    /// ```
    /// use fix_engine::log::FileLog;
    /// use fix_session::SessionId;
    /// # let dir = fix_test_support::temp_dir::TestDir::new("engine-doc-filelog-open");
    /// let log = FileLog::open(&dir, &SessionId::new("FIX.4.4", "A", "B"))?;
    /// assert_eq!(log.events_path(), dir.join("FIX.4.4-A-B.event.current.log"));
    /// # drop(log);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn open(dir: impl AsRef<Path>, id: &SessionId) -> Result<FileLog, LogError> {
        FileLog::open_with(dir, id, FileLogOptions::new())
    }

    /// Opens the logs of `id` in `dir` with `options`.
    ///
    /// The file names are QuickFIX's, the session's parts as they are; a part
    /// that would make the name a path elsewhere (holding `/`, `\` or NUL) is
    /// [`LogError::InvalidSessionId`].
    ///
    /// ```
    /// use fix_engine::log::{FileLog, FileLogOptions, FlushPolicy, LogError};
    /// use fix_session::SessionId;
    /// # let dir = fix_test_support::temp_dir::TestDir::new("engine-doc-filelog-with");
    /// let options = FileLogOptions::new().flush(FlushPolicy::EveryLine);
    /// let bad = SessionId::new("FIX.4.4", "../A", "B");
    /// assert!(matches!(FileLog::open_with(&dir, &bad, options), Err(LogError::InvalidSessionId { .. })));
    /// ```
    pub fn open_with(
        dir: impl AsRef<Path>,
        id: &SessionId,
        options: FileLogOptions,
    ) -> Result<FileLog, LogError> {
        let dir = dir.as_ref();
        let name = id.store_name();
        if name.contains(['/', '\\', '\0']) {
            return Err(LogError::InvalidSessionId {
                id: name,
                reason: "a file name cannot hold `/`, `\\` or NUL",
            });
        }
        fs::create_dir_all(dir).map_err(|e| io_error(LogOperation::CreateDir, dir, e))?;
        let prefix = dir.join(format!("{name}."));
        Ok(FileLog {
            messages: LogFile::open(suffixed(&prefix, "messages.current.log"))?,
            events: LogFile::open(suffixed(&prefix, "event.current.log"))?,
            prefix,
            options,
            last_stamp: None,
        })
    }

    /// Removes the current logs of `id` in `dir` (backups stay), as for a
    /// session that never began: an acceptor template's session whose first
    /// Logon was refused. Logs that do not exist are removed already.
    ///
    /// ```
    /// use fix_engine::log::FileLog;
    /// use fix_session::SessionId;
    /// # let dir = fix_test_support::temp_dir::TestDir::new("engine-doc-filelog-remove");
    /// let id = SessionId::new("FIX.4.4", "A", "B");
    /// drop(FileLog::open(&dir, &id)?);
    /// FileLog::remove(&dir, &id)?;
    /// assert!(!dir.join("FIX.4.4-A-B.event.current.log").exists());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn remove(dir: impl AsRef<Path>, id: &SessionId) -> Result<(), LogError> {
        let prefix = dir.as_ref().join(format!("{}.", id.store_name()));
        for suffix in ["messages.current.log", "event.current.log"] {
            let path = suffixed(&prefix, suffix);
            match fs::remove_file(&path) {
                Err(e) if e.kind() != io::ErrorKind::NotFound => {
                    return Err(io_error(LogOperation::Remove, &path, e));
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The messages file.
    ///
    /// ```
    /// # use fix_engine::log::FileLog;
    /// # let dir = fix_test_support::temp_dir::TestDir::new("engine-doc-filelog-mp");
    /// let log = FileLog::open(&dir, &fix_session::SessionId::new("FIX.4.2", "A", "B"))?;
    /// assert!(log.messages_path().ends_with("FIX.4.2-A-B.messages.current.log"));
    /// # drop(log);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn messages_path(&self) -> &Path {
        &self.messages.path
    }

    /// The events file.
    ///
    /// ```
    /// # use fix_engine::log::FileLog;
    /// # let dir = fix_test_support::temp_dir::TestDir::new("engine-doc-filelog-ep");
    /// let log = FileLog::open(&dir, &fix_session::SessionId::new("FIX.4.2", "A", "B"))?;
    /// assert!(log.events_path().ends_with("FIX.4.2-A-B.event.current.log"));
    /// # drop(log);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn events_path(&self) -> &Path {
        &self.events.path
    }

    /// The timestamp of a line written at `time`, formatted again only when
    /// it shows another value than the last one.
    fn stamp(&mut self, time: SystemTime) -> Result<Stamp, LogError> {
        let precision = self.options.precision;
        let since = time
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_err(|_| LogError::TimeOutOfRange { time })?;
        let key = match precision {
            Precision::Seconds => u128::from(since.as_secs()),
            Precision::Millis => since.as_millis(),
            Precision::Micros => since.as_micros(),
            Precision::Nanos => since.as_nanos(),
        };
        if let Some((last, stamp)) = self.last_stamp
            && last == key
        {
            return Ok(stamp);
        }
        let stamp = Stamp::new(time, precision)?;
        self.last_stamp = Some((key, stamp));
        Ok(stamp)
    }

    fn message(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError> {
        let stamp = self.stamp(time)?;
        self.messages.line(stamp.as_bytes(), message)?;
        if self.options.flush == FlushPolicy::EveryLine {
            self.messages.flush()?;
        }
        Ok(())
    }
}

impl Log for FileLog {
    fn on_incoming(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError> {
        self.message(message, time)
    }

    fn on_outgoing(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError> {
        self.message(message, time)
    }

    fn on_event(&mut self, text: &str, time: SystemTime) -> Result<(), LogError> {
        let stamp = self.stamp(time)?;
        let mut parts = text.split(['\r', '\n']);
        let first = parts.next().unwrap_or_default();
        self.events.line_start(stamp.as_bytes(), first.as_bytes())?;
        for part in parts {
            self.events.write(b" ")?;
            self.events.write(part.as_bytes())?;
        }
        self.events.write(b"\n")?;
        // Under either policy: the messages that led to the event are on disk
        // when the event is.
        self.messages.flush()?;
        self.events.flush()
    }

    fn flush(&mut self) -> Result<(), LogError> {
        self.messages.flush()?;
        self.events.flush()
    }

    fn backup(&mut self) -> Result<(), LogError> {
        self.flush()?;
        // QuickFIX's numbering: the first N for which neither backup exists.
        let mut n = 1u64;
        let (messages, events) = loop {
            let messages = suffixed(&self.prefix, &format!("messages.backup.{n}.log"));
            let events = suffixed(&self.prefix, &format!("event.backup.{n}.log"));
            if !messages.exists() && !events.exists() {
                break (messages, events);
            }
            n += 1;
        };
        self.messages.rotate(&messages)?;
        self.events.rotate(&events)
    }
}

/// `prefix` with `suffix` appended to its file name.
fn suffixed(prefix: &Path, suffix: &str) -> PathBuf {
    let mut path = prefix.as_os_str().to_owned();
    path.push(suffix);
    PathBuf::from(path)
}

/// One of the two files.
#[derive(Debug)]
struct LogFile {
    path: PathBuf,
    out: BufWriter<File>,
}

impl LogFile {
    fn open(path: PathBuf) -> Result<LogFile, LogError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| io_error(LogOperation::Open, &path, e))?;
        Ok(LogFile {
            path,
            out: BufWriter::with_capacity(BUFFER, file),
        })
    }

    /// Writes `stamp : ` and `first`, the start of a line.
    fn line_start(&mut self, stamp: &[u8], first: &[u8]) -> Result<(), LogError> {
        self.write(stamp)?;
        self.write(b" : ")?;
        self.write(first)
    }

    /// Writes the line `stamp : body`.
    fn line(&mut self, stamp: &[u8], body: &[u8]) -> Result<(), LogError> {
        self.line_start(stamp, body)?;
        self.write(b"\n")
    }

    fn write(&mut self, bytes: &[u8]) -> Result<(), LogError> {
        self.out
            .write_all(bytes)
            .map_err(|e| io_error(LogOperation::Write, &self.path, e))
    }

    fn flush(&mut self) -> Result<(), LogError> {
        self.out
            .flush()
            .map_err(|e| io_error(LogOperation::Write, &self.path, e))
    }

    /// Renames the file (flushed) to `to` and starts a new, empty one in its place.
    fn rotate(&mut self, to: &Path) -> Result<(), LogError> {
        fs::rename(&self.path, to).map_err(|e| io_error(LogOperation::Rename, &self.path, e))?;
        *self = LogFile::open(std::mem::take(&mut self.path))?;
        Ok(())
    }
}

/// A line's timestamp, formatted on the stack.
#[derive(Clone, Copy, Debug)]
struct Stamp {
    buf: [u8; UtcTimestamp::MAX_LEN],
    len: usize,
}

impl Stamp {
    fn new(time: SystemTime, precision: Precision) -> Result<Stamp, LogError> {
        let ts = UtcTimestamp::from_system_time(time, precision)
            .ok_or(LogError::TimeOutOfRange { time })?;
        let mut buf = [0u8; UtcTimestamp::MAX_LEN];
        // MAX_LEN holds every precision's timestamp.
        let len = ts.write_with(precision, &mut buf).unwrap_or(0);
        Ok(Stamp { buf, len })
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// What a [`ScreenLog`] prints: QuickFIX/J's `ScreenLogShowIncoming`,
/// `ScreenLogShowOutgoing`, `ScreenLogShowEvents`, `ScreenLogShowHeartBeats`
/// (each on by default, as QuickFIX/J's `ScreenLogFactory` reads them) and
/// `ScreenIncludeMilliseconds` (off by default: whole seconds).
///
/// ```
/// use fix_engine::log::ScreenLogOptions;
/// let options = ScreenLogOptions::new().heartbeats(false);
/// assert!(options.shows_incoming() && !options.shows_heartbeats());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ScreenLogOptions {
    incoming: bool,
    outgoing: bool,
    events: bool,
    heartbeats: bool,
    precision: Precision,
}

impl ScreenLogOptions {
    /// Everything printed (messages both ways, Heartbeats included, and
    /// events), times in whole seconds.
    ///
    /// ```
    /// let o = fix_engine::log::ScreenLogOptions::new();
    /// assert!(o.shows_incoming() && o.shows_outgoing() && o.shows_events() && o.shows_heartbeats());
    /// ```
    pub const fn new() -> Self {
        ScreenLogOptions {
            incoming: true,
            outgoing: true,
            events: true,
            heartbeats: true,
            precision: Precision::Seconds,
        }
    }

    /// Received messages printed or not.
    ///
    /// ```
    /// assert!(!fix_engine::log::ScreenLogOptions::new().incoming(false).shows_incoming());
    /// ```
    pub const fn incoming(self, on: bool) -> Self {
        ScreenLogOptions {
            incoming: on,
            ..self
        }
    }

    /// Sent messages printed or not.
    ///
    /// ```
    /// assert!(!fix_engine::log::ScreenLogOptions::new().outgoing(false).shows_outgoing());
    /// ```
    pub const fn outgoing(self, on: bool) -> Self {
        ScreenLogOptions {
            outgoing: on,
            ..self
        }
    }

    /// Events printed or not.
    ///
    /// ```
    /// assert!(!fix_engine::log::ScreenLogOptions::new().events(false).shows_events());
    /// ```
    pub const fn events(self, on: bool) -> Self {
        ScreenLogOptions { events: on, ..self }
    }

    /// Heartbeats (35=0) printed or not, either way.
    ///
    /// ```
    /// assert!(!fix_engine::log::ScreenLogOptions::new().heartbeats(false).shows_heartbeats());
    /// ```
    pub const fn heartbeats(self, on: bool) -> Self {
        ScreenLogOptions {
            heartbeats: on,
            ..self
        }
    }

    /// The lines' timestamps' precision.
    ///
    /// ```
    /// use fix_core::value::Precision;
    /// let o = fix_engine::log::ScreenLogOptions::new().precision(Precision::Millis);
    /// assert_eq!(o.timestamp_precision(), Precision::Millis);
    /// ```
    pub const fn precision(self, precision: Precision) -> Self {
        ScreenLogOptions { precision, ..self }
    }

    /// Whether received messages are printed.
    ///
    /// ```
    /// assert!(fix_engine::log::ScreenLogOptions::new().shows_incoming());
    /// ```
    pub const fn shows_incoming(&self) -> bool {
        self.incoming
    }

    /// Whether sent messages are printed.
    ///
    /// ```
    /// assert!(fix_engine::log::ScreenLogOptions::new().shows_outgoing());
    /// ```
    pub const fn shows_outgoing(&self) -> bool {
        self.outgoing
    }

    /// Whether events are printed.
    ///
    /// ```
    /// assert!(fix_engine::log::ScreenLogOptions::new().shows_events());
    /// ```
    pub const fn shows_events(&self) -> bool {
        self.events
    }

    /// Whether Heartbeats are printed.
    ///
    /// ```
    /// assert!(fix_engine::log::ScreenLogOptions::new().shows_heartbeats());
    /// ```
    pub const fn shows_heartbeats(&self) -> bool {
        self.heartbeats
    }

    /// The lines' timestamps' precision.
    ///
    /// ```
    /// use fix_core::value::Precision;
    /// assert_eq!(fix_engine::log::ScreenLogOptions::new().timestamp_precision(), Precision::Seconds);
    /// ```
    pub const fn timestamp_precision(&self) -> Precision {
        self.precision
    }
}

/// The same as [`ScreenLogOptions::new`].
///
/// ```
/// assert_eq!(fix_engine::log::ScreenLogOptions::default(), fix_engine::log::ScreenLogOptions::new());
/// ```
impl Default for ScreenLogOptions {
    fn default() -> Self {
        ScreenLogOptions::new()
    }
}

/// QuickFIX's screen log: messages and events printed to standard output (or
/// to any writer), one line each, as QuickFIX/J prints them, with the
/// message's SOHs shown as `|` as QuickFIX C++ prints them:
///
/// ```text
/// <20261130-14:03:27, FIX.4.4:CLIENT->VENUE, incoming> (8=FIX.4.4|9=5|35=0|10=163|)
/// <20261130-14:03:27, FIX.4.4:CLIENT->VENUE, event> (Received logon request)
/// ```
///
/// Each line is written with one call, so that lines of sessions printing at
/// once do not mix. The line is built in a buffer the log keeps: printing
/// allocates nothing once the buffer has grown to the longest line.
///
/// ```
/// use std::sync::{Arc, Mutex};
/// use fix_engine::log::{Log, ScreenLog, ScreenLogOptions};
/// use fix_session::SessionId;
///
/// #[derive(Clone, Default)]
/// struct Shared(Arc<Mutex<Vec<u8>>>);
/// impl std::io::Write for Shared {
///     fn write(&mut self, b: &[u8]) -> std::io::Result<usize> { self.0.lock().unwrap().write(b) }
///     fn flush(&mut self) -> std::io::Result<()> { Ok(()) }
/// }
/// let out = Shared::default();
/// let id = SessionId::new("FIX.4.4", "A", "B");
/// let mut log = ScreenLog::with_writer(&id, ScreenLogOptions::new(), out.clone());
/// log.on_event("Created session", std::time::UNIX_EPOCH)?;
/// let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
/// assert_eq!(text, "<19700101-00:00:00, FIX.4.4:A->B, event> (Created session)\n");
/// # Ok::<(), fix_engine::log::LogError>(())
/// ```
pub struct ScreenLog {
    prefix: String,
    options: ScreenLogOptions,
    out: Box<dyn Write + Send>,
    line: Vec<u8>,
}

impl fmt::Debug for ScreenLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ScreenLog")
            .field("prefix", &self.prefix)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl ScreenLog {
    /// The screen log of session `id`, printing to standard output.
    ///
    /// ```
    /// use fix_engine::log::{ScreenLog, ScreenLogOptions};
    /// let log = ScreenLog::stdout(&fix_session::SessionId::new("FIX.4.4", "A", "B"), ScreenLogOptions::new());
    /// # let _ = log;
    /// ```
    pub fn stdout(id: &SessionId, options: ScreenLogOptions) -> ScreenLog {
        ScreenLog::with_writer(id, options, io::stdout())
    }

    /// The screen log of session `id`, printing to `out` (a test's buffer,
    /// standard error).
    ///
    /// ```
    /// use fix_engine::log::{ScreenLog, ScreenLogOptions};
    /// let log = ScreenLog::with_writer(&fix_session::SessionId::new("FIX.4.4", "A", "B"), ScreenLogOptions::new(), std::io::stderr());
    /// # let _ = log;
    /// ```
    pub fn with_writer(
        id: &SessionId,
        options: ScreenLogOptions,
        out: impl Write + Send + 'static,
    ) -> ScreenLog {
        ScreenLog {
            prefix: id.to_string(),
            options,
            out: Box::new(out),
            line: Vec::with_capacity(1024),
        }
    }

    /// The options it prints by.
    ///
    /// ```
    /// use fix_engine::log::{ScreenLog, ScreenLogOptions};
    /// let log = ScreenLog::stdout(&fix_session::SessionId::new("FIX.4.4", "A", "B"), ScreenLogOptions::new().events(false));
    /// assert!(!log.options().shows_events());
    /// ```
    pub fn options(&self) -> ScreenLogOptions {
        self.options
    }

    /// Prints `<time, session, kind> (text)`, with SOH as `|` and line breaks
    /// as spaces.
    fn print(&mut self, kind: &str, text: &[u8], time: SystemTime) -> Result<(), LogError> {
        let stamp = Stamp::new(time, self.options.precision)?;
        let line = &mut self.line;
        line.clear();
        line.push(b'<');
        line.extend_from_slice(stamp.as_bytes());
        line.extend_from_slice(b", ");
        line.extend_from_slice(self.prefix.as_bytes());
        line.extend_from_slice(b", ");
        line.extend_from_slice(kind.as_bytes());
        line.extend_from_slice(b"> (");
        line.extend(text.iter().map(|&b| match b {
            fix_core::SOH => b'|',
            b'\r' | b'\n' => b' ',
            b => b,
        }));
        line.extend_from_slice(b")\n");
        self.out
            .write_all(line)
            .and_then(|()| self.out.flush())
            .map_err(|e| io_error(LogOperation::Write, Path::new(SCREEN), e))
    }

    /// Whether `message` is printed: its direction's option, and for a
    /// Heartbeat the Heartbeats' too.
    fn shows(&self, direction: bool, message: &[u8]) -> bool {
        direction && (self.options.heartbeats || !message.windows(6).any(|w| w == b"\x0135=0\x01"))
    }
}

/// What a screen log's errors name as their file.
const SCREEN: &str = "standard output";

impl Log for ScreenLog {
    fn on_incoming(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError> {
        if !self.shows(self.options.incoming, message) {
            return Ok(());
        }
        self.print("incoming", message, time)
    }

    fn on_outgoing(&mut self, message: &[u8], time: SystemTime) -> Result<(), LogError> {
        if !self.shows(self.options.outgoing, message) {
            return Ok(());
        }
        self.print("outgoing", message, time)
    }

    fn on_event(&mut self, text: &str, time: SystemTime) -> Result<(), LogError> {
        if !self.options.events {
            return Ok(());
        }
        self.print("event", text.as_bytes(), time)
    }

    fn flush(&mut self) -> Result<(), LogError> {
        self.out
            .flush()
            .map_err(|e| io_error(LogOperation::Write, Path::new(SCREEN), e))
    }

    /// Nothing to put aside: the screen keeps nothing.
    fn backup(&mut self) -> Result<(), LogError> {
        Ok(())
    }
}

/// Why a log could not be written.
///
/// ```
/// use fix_engine::log::{LogError, LogOperation};
/// let err = LogError::Io {
///     op: LogOperation::Write,
///     path: "log/FIX.4.4-A-B.messages.current.log".into(),
///     source: std::io::ErrorKind::StorageFull.into(),
/// };
/// assert_eq!(err.to_string(), "cannot write log/FIX.4.4-A-B.messages.current.log: no storage space");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum LogError {
    /// A file system call failed.
    Io {
        /// What the log was doing.
        op: LogOperation,
        /// The file or directory.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A session id that cannot name a log file.
    InvalidSessionId {
        /// The id, as the file name would have it.
        id: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// A time before 1970 or after 9999, which a FIX timestamp cannot show; the
    /// line was not written.
    TimeOutOfRange {
        /// The time given.
        time: SystemTime,
    },
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { op, path, source } => {
                write!(f, "cannot {op} {}: {source}", path.display())
            }
            Self::InvalidSessionId { id, reason } => {
                write!(f, "session {id:?} names no log file: {reason}")
            }
            Self::TimeOutOfRange { time } => write!(
                f,
                "time {time:?} is outside what a FIX timestamp shows (1970 to 9999)"
            ),
        }
    }
}

impl std::error::Error for LogError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

/// The file system operation a [`LogError::Io`] failed in.
///
/// ```
/// assert_eq!(fix_engine::log::LogOperation::Rename.to_string(), "rename");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LogOperation {
    /// Creating the log directory.
    CreateDir,
    /// Opening or creating a file.
    Open,
    /// Writing or flushing a file.
    Write,
    /// Renaming a file aside (a backup).
    Rename,
    /// Removing a file (a session that never began).
    Remove,
}

impl fmt::Display for LogOperation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::CreateDir => "create directory",
            Self::Open => "open",
            Self::Write => "write",
            Self::Rename => "rename",
            Self::Remove => "remove",
        })
    }
}

fn io_error(op: LogOperation, path: &Path, source: io::Error) -> LogError {
    LogError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fix_test_support::temp_dir::TestDir;
    use std::time::{Duration, UNIX_EPOCH};

    const T: Duration = Duration::new(1_795_000_000, 123_456_789);

    #[test]
    fn lines_are_quickfix_s_in_order_and_events_flush_messages() {
        let dir = TestDir::new("engine-log-lines");
        let id = SessionId::new("FIX.4.4", "CLIENT", "VENUE");
        let mut log = FileLog::open(&dir, &id).unwrap();
        log.on_outgoing(b"8=FIX.4.4\x0135=A\x01", UNIX_EPOCH + T)
            .unwrap();
        log.on_incoming(b"8=FIX.4.4\x0135=A\x01", UNIX_EPOCH + T)
            .unwrap();
        // Buffered until the event.
        assert_eq!(fs::read(log.messages_path()).unwrap(), b"");
        log.on_event("two\nlines", UNIX_EPOCH + T).unwrap();
        let line = "20261118-11:06:40.123 : 8=FIX.4.4\x0135=A\x01\n";
        assert_eq!(
            fs::read_to_string(log.messages_path()).unwrap(),
            format!("{line}{line}")
        );
        assert_eq!(
            fs::read_to_string(log.events_path()).unwrap(),
            "20261118-11:06:40.123 : two lines\n"
        );
        drop(log);
        // Reopened, it appends.
        let mut log = FileLog::open(&dir, &id).unwrap();
        log.on_event("again", UNIX_EPOCH + T).unwrap();
        let events = fs::read_to_string(log.events_path()).unwrap();
        assert_eq!(events.lines().count(), 2);
    }

    #[test]
    fn every_line_flushes_and_precision_is_the_options() {
        let dir = TestDir::new("engine-log-every");
        let options = FileLogOptions::new()
            .flush(FlushPolicy::EveryLine)
            .precision(Precision::Nanos);
        let mut id = SessionId::new("FIX.4.2", "A", "B");
        id.qualifier = Some("Q".into());
        let mut log = FileLog::open_with(&dir, &id, options).unwrap();
        log.on_incoming(b"x", UNIX_EPOCH + T).unwrap();
        assert_eq!(
            fs::read_to_string(dir.join("FIX.4.2-A-B-Q.messages.current.log")).unwrap(),
            "20261118-11:06:40.123456789 : x\n"
        );
    }

    #[test]
    fn each_line_shows_its_own_time_at_the_precision_set() {
        let dir = TestDir::new("engine-log-stamps");
        for (precision, expected) in [
            (
                Precision::Millis,
                ["11:06:40.123 : a", "11:06:40.123 : b", "11:06:40.124 : c"],
            ),
            (
                Precision::Micros,
                [
                    "11:06:40.123456 : a",
                    "11:06:40.123556 : b",
                    "11:06:40.124456 : c",
                ],
            ),
        ] {
            let id = SessionId::new("FIX.4.4", "A", &format!("{precision:?}"));
            let options = FileLogOptions::new().precision(precision);
            let mut log = FileLog::open_with(&dir, &id, options).unwrap();
            let t = UNIX_EPOCH + T;
            log.on_incoming(b"a", t).unwrap();
            log.on_incoming(b"b", t + Duration::from_micros(100))
                .unwrap();
            log.on_incoming(b"c", t + Duration::from_millis(1)).unwrap();
            log.flush().unwrap();
            let text = fs::read_to_string(log.messages_path()).unwrap();
            let lines: Vec<&str> = text.lines().map(|l| &l[9..]).collect();
            assert_eq!(lines, expected);
        }
    }

    #[test]
    fn backups_are_numbered_as_quickfix_numbers_them() {
        let dir = TestDir::new("engine-log-backup");
        let id = SessionId::new("FIX.4.4", "A", "B");
        let mut log = FileLog::open(&dir, &id).unwrap();
        for round in 1..=2 {
            log.on_outgoing(format!("m{round}").as_bytes(), UNIX_EPOCH + T)
                .unwrap();
            log.backup().unwrap();
            let backup = dir.join(format!("FIX.4.4-A-B.messages.backup.{round}.log"));
            assert!(
                fs::read_to_string(backup)
                    .unwrap()
                    .ends_with(&format!(" : m{round}\n"))
            );
            assert!(
                dir.join(format!("FIX.4.4-A-B.event.backup.{round}.log"))
                    .exists()
            );
            assert_eq!(fs::read(log.messages_path()).unwrap(), b"");
        }
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let dir = TestDir::new("engine-log-bad");
        let mut log = FileLog::open(&dir, &SessionId::new("FIX.4.4", "A", "B")).unwrap();
        let before = UNIX_EPOCH - Duration::from_secs(1);
        assert!(matches!(
            log.on_incoming(b"x", before),
            Err(LogError::TimeOutOfRange { .. })
        ));
        assert!(matches!(
            FileLog::open(&dir, &SessionId::new("FIX.4.4", "A\\B", "C")),
            Err(LogError::InvalidSessionId { .. })
        ));
        let not_a_dir = dir.join("FIX.4.4-A-B.event.current.log");
        assert!(matches!(
            FileLog::open(&not_a_dir, &SessionId::new("FIX.4.4", "A", "B")),
            Err(LogError::Io {
                op: LogOperation::CreateDir,
                ..
            })
        ));
    }
}
