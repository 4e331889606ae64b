//! `fixstore`: fix-session's stores, offline: list the sessions of a store
//! directory (or a PostgreSQL store), verify their logs, dump their stored
//! messages through fixdump's renderer, and set the next sequence numbers, so
//! that nobody edits a store by hand.
//!
//! ```text
//! fixstore list store/
//! fixstore verify store/
//! fixstore dump store/ --session FIX.4.4-CLIENT-VENUE
//! fixstore set-next store/ --session FIX.4.4-CLIENT-VENUE --sender 120 --target 87
//! fixstore verify --postgres "host=/run/pg user=fix dbname=fix"
//! ```
//!
//! Reading (verify, dump) goes through [`fix_session::store::StoreLog`], which
//! checks and replays a log as opening the store does but takes no lock and writes
//! nothing; set-next opens the store itself ([`fix_session::FileStore`]), whose
//! lock keeps it off a store an engine has open. The PostgreSQL store's side is
//! in [`postgres`].

mod args;
mod postgres;

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::SystemTime;

use fix_core::validate::{Invalid, Reject};
use fix_core::{DataFields, Parser, SOH, Status};
use fix_dict::Dictionary;
use fix_session::store::{SHARED_LOG_DIR, SharedLog, SharedLogOptions, StoreLog, sessions};
use fix_session::{FileStore, MessageStore, StoreError};

use crate::args::{Action, Args, Command, Store};
use fix_cli::render::{Problems, Style, Tables, Writer};
use fix_cli::scan::{self, Decoded, NoProgress, Problem, Scanner, Sink};

/// The built-in dictionary, fixdump's: our FIX 4.4 specification.
const FIX44_XML: &str = include_str!("../../../spec/FIX44.xml");

/// Why a command stopped, and the exit status it makes.
enum Failure {
    /// A store is damaged, or could not be read or written (status 1).
    Store(String),
    /// The command line, or a refused change (status 2).
    Usage(String),
    /// The store is locked by another store (status 3).
    InUse(String),
}

fn main() -> ExitCode {
    let args = match args::parse(std::env::args_os().skip(1)) {
        Ok(Command::Run(args)) => args,
        Ok(Command::Help) => {
            print!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Ok(Command::Version) => {
            println!("fixstore {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            eprintln!("fixstore: {e}");
            return ExitCode::from(2);
        }
    };
    let mut out = io::stdout().lock();
    let result = match &args.store {
        Store::Dir(dir) => match args.action {
            Action::List => list(dir, &mut out),
            Action::Verify => verify(&args, dir, &mut out),
            Action::Dump => dump_files(&args, dir, &mut out),
            Action::SetNext => set_next(&args, dir, &mut out),
        },
        Store::Postgres(connection) => match args.action {
            Action::List => postgres::list(connection, &mut out),
            Action::Verify => postgres::verify(&args, connection, &mut out),
            Action::Dump => postgres::dump(&args, connection, &mut out),
            Action::SetNext => postgres::set_next(&args, connection, &mut out),
        },
    };
    let (text, code) = match result {
        Ok(()) => return ExitCode::SUCCESS,
        Err(Failure::Store(text)) => (text, 1),
        Err(Failure::Usage(text)) => (text, 2),
        Err(Failure::InUse(text)) => (text, 3),
    };
    let _ = out.flush();
    eprintln!("fixstore: {text}");
    ExitCode::from(code)
}

/// A write to stdout that failed (a closed pipe ends the command quietly).
fn written(result: io::Result<()>) -> Result<(), Failure> {
    match result {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Failure::Store(format!("writing output: {e}")))
        }
        _ => Ok(()),
    }
}

/// The sessions a command covers: `--session`, or every store in the directory.
fn selected(args: &Args, dir: &Path) -> Result<Vec<String>, Failure> {
    if let Some(id) = &args.session {
        return Ok(vec![id.clone()]);
    }
    let ids = sessions(dir).map_err(|e| Failure::Store(e.to_string()))?;
    if ids.is_empty() {
        return Err(Failure::Store(format!(
            "{}: no session stores here (no <SESSION>.log)",
            dir.display()
        )));
    }
    Ok(ids)
}

fn list(dir: &Path, out: &mut impl Write) -> Result<(), Failure> {
    let ids = sessions(dir).map_err(|e| Failure::Store(e.to_string()))?;
    let text: String = ids.iter().map(|id| format!("{id}\n")).collect();
    written(out.write_all(text.as_bytes()))
}

fn verify(args: &Args, dir: &Path, out: &mut impl Write) -> Result<(), Failure> {
    let mut failed = Vec::new();
    for id in selected(args, dir)? {
        let checked = read_settled(dir, &id).and_then(|log| {
            let messages = check_messages(&log)?;
            Ok((log, messages))
        });
        let report = match checked {
            Ok((log, messages)) => {
                failed.extend(messages.failure(&id));
                describe(&id, &log, &messages)
            }
            Err(e) => {
                let text = store_error_text(&e);
                let label = match e {
                    StoreError::Corrupt { .. } => "DAMAGED",
                    _ => "UNREADABLE",
                };
                failed.push(format!("{id}: {text}"));
                format!("{id}\n  {label:<10}{text}\n\n")
            }
        };
        written(out.write_all(report.as_bytes()))?;
    }
    match failed.len() {
        0 => Ok(()),
        _ => Err(Failure::Store(failed.join("\n"))),
    }
}

/// `id`'s log, read again when it looks damaged: on a running engine's store, a
/// record being copied in reads as damage when the engine writes the next one
/// before the scan for valid records after it is done. Damage read twice, a moment
/// apart, is in the file.
fn read_settled(dir: &Path, id: &str) -> Result<StoreLog, StoreError> {
    match StoreLog::open(dir, id) {
        Err(StoreError::Corrupt { .. }) => {
            std::thread::sleep(std::time::Duration::from_millis(200));
            StoreLog::open(dir, id)
        }
        first => first,
    }
}

/// A store error as the operator reads it: a missing log is a missing store.
fn store_error_text(e: &StoreError) -> String {
    match e {
        StoreError::Io { source, path, .. } if source.kind() == io::ErrorKind::NotFound => {
            format!("no store: {} does not exist", path.display())
        }
        other => other.to_string(),
    }
}

/// The most wrong messages verify lists per store.
const MAX_LISTED: usize = 10;

/// What verify found in the stored messages themselves.
#[derive(Debug, Default)]
struct MessageCheck {
    checked: u64,
    /// The lowest and highest stored numbers seen.
    range: Option<(u64, u64)>,
    /// The first [`MAX_LISTED`] wrong ones: stored number, what is wrong.
    wrong: Vec<(u64, String)>,
    /// Wrong ones past those.
    more_wrong: u64,
}

/// The parser verify frames stored messages with.
fn check_parser() -> Parser<'static> {
    Parser::new()
        .with_empty_values(true)
        .with_max_message_size(fix_session::MAX_MESSAGE_LEN)
}

/// Checks that each stored message is one whole FIX message (BodyLength,
/// CheckSum) whose MsgSeqNum is the number it is stored under, which is what a
/// resend sends again under that number. The record's CRC says the bytes are what
/// was stored; this says that what was stored was right.
fn check_messages(log: &StoreLog) -> Result<MessageCheck, StoreError> {
    let parser = check_parser();
    let mut check = MessageCheck::default();
    log.read_messages(&mut |seq, bytes| check.add(&parser, seq, bytes))?;
    Ok(check)
}

impl MessageCheck {
    /// Checks one stored message (see [`check_messages`]).
    fn add(&mut self, parser: &Parser, seq: u64, bytes: &[u8]) {
        let check = self;
        check.checked += 1;
        check.range = Some(match check.range {
            Some((first, last)) => (first.min(seq), last.max(seq)),
            None => (seq, seq),
        });
        let wrong = match parser.frame(bytes) {
            Ok(Status::Complete(frame)) if frame.len() != bytes.len() => Some(format!(
                "{} bytes follow the message's CheckSum",
                bytes.len() - frame.len()
            )),
            Ok(Status::Complete(frame)) => match msg_seq_num(frame.body()) {
                Some(n) if n == seq.to_string().as_bytes() => None,
                Some(n) => Some(format!(
                    "its MsgSeqNum (34) is {}",
                    String::from_utf8_lossy(n)
                )),
                None => Some("it has no MsgSeqNum (34)".to_owned()),
            },
            Ok(Status::Partial { .. }) => Some("it is cut short".to_owned()),
            Err(e) => Some(e.to_string()),
        };
        if let Some(text) = wrong {
            if check.wrong.len() < MAX_LISTED {
                check.wrong.push((seq, text));
            } else {
                check.more_wrong += 1;
            }
        }
    }

    /// The stored line: `3 (1 to 3)`, or `none`.
    fn stored(&self) -> String {
        match self.range {
            Some((first, last)) => format!("{} ({first} to {last})", self.checked),
            None => "none".to_owned(),
        }
    }

    /// The state line: `ok`, or the wrong messages, one a line.
    fn state(&self) -> String {
        let mut state = match self.wrong.len() {
            0 => "ok".to_owned(),
            n => format!(
                "DAMAGED: {} of {} stored messages are not the FIX message of their number",
                n as u64 + self.more_wrong,
                self.checked
            ),
        };
        for (seq, text) in &self.wrong {
            state.push_str(&format!("\n            message {seq}: {text}"));
        }
        if self.more_wrong > 0 {
            state.push_str(&format!("\n            and {} more", self.more_wrong));
        }
        state
    }

    /// What goes on stderr when a message is wrong.
    fn failure(&self, id: &str) -> Option<String> {
        (!self.wrong.is_empty()).then(|| {
            format!(
                "{id}: {} of {} stored messages are not the FIX message of their number",
                self.wrong.len() as u64 + self.more_wrong,
                self.checked
            )
        })
    }
}

/// The value of the first MsgSeqNum (34) field of a message body.
fn msg_seq_num(body: &[u8]) -> Option<&[u8]> {
    let at = if body.starts_with(b"34=") {
        3
    } else {
        memchr::memmem::find(body, b"\x0134=")? + 4
    };
    let value = &body[at..];
    Some(&value[..memchr::memchr(SOH, value).unwrap_or(value.len())])
}

/// verify's report on one intact log.
fn describe(id: &str, log: &StoreLog, messages: &MessageCheck) -> String {
    let r = log.records();
    let stored = match log.stored_range() {
        Some((first, last)) => format!("{} ({first} to {last})", log.stored()),
        None => "none".to_owned(),
    };
    let created = timestamp(log.creation_time());
    let mut state = messages.state();
    if let Some(torn) = log.torn_tail() {
        state.push_str(&format!(
            "\n  torn tail {} bytes at byte offset {} (an interrupted write; opening the store \
             drops it)",
            torn.len, torn.offset
        ));
    }
    format!(
        "{id}\n  log       {}\n  records   {} ({}, {}, {}, {}, {})\n  stored    {stored}\n  \
         next      sender {}, target {}\n  created   {created}\n  \
         size      {} bytes of records, {} bytes in the file\n  state     {state}\n\n",
        log.path().display(),
        r.total(),
        plural(r.messages, "message", "messages"),
        plural(r.target_advances, "target advance", "target advances"),
        plural(r.seq_sets, "sequence set", "sequence sets"),
        plural(r.resets, "reset", "resets"),
        plural(r.answers, "answer", "answers"),
        log.next_sender_seq(),
        log.next_target_seq(),
        log.end(),
        log.file_len(),
    )
}

/// A time as FIX writes it, to the millisecond (UTC).
fn timestamp(t: SystemTime) -> String {
    fix_core::value::UtcTimestamp::from_system_time(t, fix_core::value::Precision::Millis)
        .map_or_else(|| format!("{t:?}"), |t| t.to_string())
}

/// `1 message`, `2 messages`.
fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn dump_files(args: &Args, dir: &Path, out: &mut impl Write) -> Result<(), Failure> {
    let ids = selected(args, dir)?;
    dump(args, ids, out, &mut |id, visit| {
        let log = StoreLog::open(dir, id)
            .map_err(|e| Failure::Store(format!("{id}: {}", store_error_text(&e))))?;
        log.read_messages(visit)
            .map_err(|e| Failure::Store(format!("{id}: {e}")))
    })
}

/// Reads every stored message of a session, in order, into the visitor.
type ReadAll<'a> = dyn FnMut(&str, &mut dyn FnMut(u64, &[u8])) -> Result<(), Failure> + 'a;

/// Dumps the stored messages of the sessions `ids`, as `read` reads them.
fn dump(
    args: &Args,
    ids: Vec<String>,
    out: &mut impl Write,
    read: &mut ReadAll<'_>,
) -> Result<(), Failure> {
    let dict = match &args.dict {
        Some(path) => Dictionary::from_path(path).map_err(|d| {
            Failure::Usage(format!(
                "--dict {}:\n{}",
                path.display(),
                d.to_string().trim_end()
            ))
        })?,
        None => Dictionary::from_xml("spec/FIX44.xml", FIX44_XML)
            .map_err(|d| Failure::Store(format!("built-in dictionary: {d}")))?,
    };
    let color =
        io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let tables = Tables::new(&dict, Style::new(color && !args.json));
    let parser = Parser::new()
        .with_empty_values(true)
        .with_data_fields(DataFields::new(dict.data_pairs()));
    // fixdump's default limit (1 MiB), and its buffer: a longer stored message is
    // shown as a broken one, as fixdump shows it.
    let mut scanner = Scanner::new(parser, scan::MAX_MESSAGE);
    let name_sessions = ids.len() > 1 && !args.json;
    let mut sink = DumpSink {
        tables: &tables,
        writer: Writer::default(),
        json: args.json,
        seq: 0,
        out: Vec::new(),
    };
    for id in ids {
        if name_sessions {
            written(out.write_all(format!("==> {id} <==\n\n").as_bytes()))?;
        }
        let mut scanned = Ok(());
        read(&id, &mut |seq, bytes| {
            if scanned.is_err() {
                return;
            }
            sink.seq = seq;
            // A stored message is one SOH message; the scanner splits a damaged
            // one naively and names its problem, as fixdump does.
            scanned = scanner
                .run(bytes, &mut sink, &mut NoProgress)
                .and_then(|()| out.write_all(&sink.out));
            sink.out.clear();
        })?;
        written(scanned)?;
    }
    written(out.flush())
}

/// Renders each stored message under its stored sequence number.
struct DumpSink<'d> {
    tables: &'d Tables<'d>,
    writer: Writer<'d>,
    json: bool,
    seq: u64,
    out: Vec<u8>,
}

impl Sink for DumpSink<'_> {
    fn message(&mut self, m: &Decoded<'_>) -> io::Result<()> {
        let msg_type = match m.message {
            Some(msg) => msg.msg_type(),
            None => m.get(35).unwrap_or_default(),
        };
        // What was stored was sent: framing is checked (a CheckSum the store
        // kept wrong, bytes cut), not the dictionary, which may be another
        // version's than the session's.
        let reject = match m.problem {
            Some(Problem::Parse(e)) if m.message.is_none() => {
                Reject::from_parse_error(&e, m.bytes).map(Invalid::Reject)
            }
            _ => None,
        };
        let problems = Problems {
            problem: m.problem,
            reject,
        };
        if self.json {
            self.writer
                .json(&mut self.out, self.tables, self.seq, m, msg_type, &problems);
        } else {
            self.writer
                .text(&mut self.out, self.tables, self.seq, m, msg_type, &problems);
        }
        Ok(())
    }
}

fn set_next(args: &Args, dir: &Path, out: &mut impl Write) -> Result<(), Failure> {
    // set_next's arguments are checked: a session, and a number to set.
    let id = args.session.as_deref().unwrap_or_default();
    // Read-only first: a missing store is an error here, where opening the store
    // would create an empty one.
    let log = StoreLog::open(dir, id)
        .map_err(|e| Failure::Store(format!("{id}: {}", store_error_text(&e))))?;
    let in_use = |e: StoreError| match e {
        StoreError::Locked { .. } => Failure::InUse(format!(
            "{id}: {e}; stop the engine that has it open, then run set-next again"
        )),
        other => Failure::Store(format!("{id}: {other}")),
    };
    // The session's store: in the engine's shared log (whose lock an engine
    // holds while it runs), else a log of its own.
    let shared_dir = dir.join(SHARED_LOG_DIR);
    let shared = if log.path() == shared_dir {
        Some(SharedLog::open(&shared_dir, SharedLogOptions::new()).map_err(in_use)?)
    } else {
        None
    };
    let mut store: Box<dyn MessageStore> = match &shared {
        Some(shared) => Box::new(shared.open_store(id, SystemTime::now()).map_err(in_use)?),
        None => Box::new(FileStore::open(dir, id).map_err(in_use)?),
    };
    let mut report = String::new();
    if let Some(torn) = log.torn_tail() {
        report.push_str(&format!(
            "{id}: dropped a torn tail of {} bytes at byte offset {} (an interrupted write)\n",
            torn.len, torn.offset
        ));
    }
    let (sender, target) = (store.next_sender_seq(), store.next_target_seq());
    if let Some(n) = args.sender
        && n < sender
        && !args.force
    {
        let dropped = match log.stored_range() {
            Some((first, last)) if last >= n => {
                format!(
                    ", and the stored messages {} to {last} would be dropped",
                    first.max(n)
                )
            }
            _ => String::new(),
        };
        return Err(Failure::Usage(format!(
            "{id}: refusing to lower the next sender number from {sender} to {n}: the \
             counterparty has seen those numbers (it logs out on a MsgSeqNum too low){dropped}; \
             --force does it anyway"
        )));
    }
    let failed = |e: StoreError| Failure::Store(format!("{id}: {e}"));
    if let Some(n) = args.sender {
        store.set_next_sender_seq(n).map_err(failed)?;
    }
    if let Some(m) = args.target {
        store.set_next_target_seq(m).map_err(failed)?;
    }
    store.sync().map_err(failed)?;
    report.push_str(&format!(
        "{id}: next sender {sender} -> {}, next target {target} -> {}\n",
        store.next_sender_seq(),
        store.next_target_seq()
    ));
    written(out.write_all(report.as_bytes()))
}
