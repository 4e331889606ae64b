//! `fixdump`: decodes FIX logs — raw SOH streams, QuickFIX-style log lines,
//! `|`- or `^A`-delimited messages — with field names, enum meanings, groups and
//! validation from a data dictionary (FIX 4.4 built in, `--dict` for a venue's).
//!
//! ```text
//! fixdump samples/session.log
//! fixdump --json --type 8 --tag 11=ORD-0001 samples/session.log
//! fixdump --summary samples/*.log
//! ```
//!
//! Layers: [`args`] reads the command line; [`scan`] finds messages in a bounded
//! buffer; [`render`] writes them as text or JSON; [`summary`] counts them.

mod args;
mod summary;

use std::fs::File;
use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use fix_core::validate::{Invalid, Reject, ShapeCache, Validator};
use fix_core::{DataFields, Parser};
use fix_dict::Dictionary;

use crate::args::{Args, Color, Command};
use crate::summary::Summary;
use fix_cli::render::{Problems, Style, Tables, Writer};
use fix_cli::scan::{self, Decoded, NoProgress, Problem, Scanner, Sink};

/// The built-in dictionary: our FIX 4.4 specification.
const FIX44_XML: &str = include_str!("../../spec/FIX44.xml");

/// Output is flushed to stdout in chunks of about this size.
const FLUSH_AT: usize = 128 * 1024;

/// Files at least this large get a progress indicator (on a terminal).
const PROGRESS_MIN_BYTES: u64 = 16 << 20;

fn main() -> ExitCode {
    let command = match args::parse(std::env::args_os().skip(1)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("fixdump: {e}");
            return ExitCode::from(2);
        }
    };
    let args = match command {
        Command::Help => {
            print!("{}", args::USAGE);
            return ExitCode::SUCCESS;
        }
        Command::Version => {
            println!("fixdump {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        Command::Run(a) => a,
    };
    match run(&args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("fixdump: {e}");
            ExitCode::from(2)
        }
    }
}

/// Decodes every input; the error is a setup problem (dictionary, filters).
fn run(args: &Args) -> Result<ExitCode, String> {
    let dict = match &args.dict {
        Some(path) => Dictionary::from_path(path)
            .map_err(|d| format!("--dict {}:\n{}", path.display(), d.to_string().trim_end()))?,
        None => Dictionary::from_xml("spec/FIX44.xml", FIX44_XML)
            .map_err(|d| format!("built-in dictionary: {d}"))?,
    };
    let stdout = io::stdout();
    let color = match args.color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => {
            stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    let tables = Tables::new(&dict, Style::new(color && !args.summary));
    let types = args
        .types
        .iter()
        .map(|t| msg_type_filter(&dict, t))
        .collect::<Result<_, String>>()?;
    let tags = args
        .tags
        .iter()
        .map(|f| {
            let tag = match f.tag.parse::<u32>() {
                Ok(t) => t,
                Err(_) => dict.field_by_name(&f.tag).map(|d| d.tag).ok_or_else(|| {
                    let names = dict.fields().iter().map(|f| f.name.as_str());
                    format!(
                        "--tag: no field named `{}` in the dictionary{}",
                        f.tag,
                        did_you_mean(&f.tag, names)
                    )
                })?,
            };
            Ok((tag, f.value.clone()))
        })
        .collect::<Result<_, String>>()?;
    let parser = Parser::new()
        .with_empty_values(true)
        .with_data_fields(DataFields::new(dict.data_pairs()));
    let mut scanner = Scanner::new(parser, args.max_size);
    let mut output = Output {
        tables: &tables,
        validator: args.validate.then(Validator::new),
        shapes: Box::new(ShapeCache::new()),
        types,
        tags,
        json: args.json,
        summary: Summary::default(),
        summary_only: args.summary,
        writer: Writer::default(),
        out: Vec::with_capacity(2 * FLUSH_AT),
        w: stdout.lock(),
        seen: 0,
        write_error: None,
    };
    let show_progress = args.progress
        && io::stderr().is_terminal()
        && (args.summary || !io::stdout().is_terminal());

    let stdin_path = [std::path::PathBuf::from("-")];
    let files = if args.files.is_empty() {
        &stdin_path[..]
    } else {
        &args.files[..]
    };
    let mut failed = false;
    let mut read_any = false;
    let name_files = files.len() > 1 && !args.json && !args.summary;
    for path in files {
        let header = |out: &mut Vec<u8>| {
            if name_files {
                out.extend_from_slice(format!("==> {} <==\n\n", path.display()).as_bytes());
            }
        };
        let result = if path.as_os_str() == "-" {
            header(&mut output.out);
            scanner.run(io::stdin().lock(), &mut output, &mut NoProgress)
        } else {
            match File::open(path) {
                Ok(file) => {
                    header(&mut output.out);
                    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
                    if show_progress && size >= PROGRESS_MIN_BYTES {
                        let mut p = TermProgress::new(path, size);
                        let r = scanner.run(file, &mut output, &mut p);
                        p.clear();
                        r
                    } else {
                        scanner.run(file, &mut output, &mut NoProgress)
                    }
                }
                Err(e) => Err(e),
            }
        };
        if let Some(e) = output.write_error.take() {
            if e.kind() == io::ErrorKind::BrokenPipe {
                return Ok(ExitCode::SUCCESS); // `fixdump big.log | head`
            }
            return Err(format!("writing output: {e}"));
        }
        match result {
            Ok(()) => read_any = true,
            Err(e) => {
                eprintln!("fixdump: {}: {}", path.display(), reason(&e));
                failed = true;
            }
        }
    }
    let skipped = scanner.skipped_lines;
    let s = &output.summary;
    let end = if !read_any {
        Vec::new()
    } else if args.summary {
        if args.json {
            s.json(&tables, skipped)
        } else {
            s.text(&tables, skipped).into_bytes()
        }
    } else {
        let tally = format!(
            "{} shown of {} read, {} with problems, {} without a FIX message skipped\n",
            plural(s.messages, "message"),
            output.seen,
            s.problems,
            plural(skipped, "line"),
        );
        if args.json {
            eprint!("fixdump: {tally}");
            Vec::new()
        } else {
            tally.into_bytes()
        }
    };
    output.out.extend_from_slice(&end);
    if let Err(e) = output.flush()
        && e.kind() != io::ErrorKind::BrokenPipe
    {
        return Err(format!("writing output: {e}"));
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else if args.strict && output.summary.problems > 0 {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// A `--type` value as the MsgType it filters on: a message name the dictionary
/// defines, or a MsgType itself. A MsgType need not be in the dictionary (a log may
/// hold a venue's own messages), but FIX's are at most three characters, so a
/// longer value is a name, and one the dictionary lacks is a mistake, not a filter
/// that silently matches nothing.
fn msg_type_filter(dict: &Dictionary, value: &str) -> Result<Box<[u8]>, String> {
    if let Some(m) = dict.message_by_name(value) {
        return Ok(m.msg_type.as_bytes().into());
    }
    let short = value.len() <= 3 && value.bytes().all(|b| b.is_ascii_alphanumeric());
    if short || dict.message(value.as_bytes()).is_some() {
        return Ok(value.as_bytes().into());
    }
    let names = dict.messages().iter().map(|m| m.name.as_str());
    Err(format!(
        "--type: no message named `{value}` in the dictionary{}",
        did_you_mean(value, names)
    ))
}

/// `" (did you mean `X`?)"` for the name closest to `wrong` among `names`, when one
/// is within a typo or two (edit distance at most 2, or a third of the name's
/// length); empty otherwise.
fn did_you_mean<'n>(wrong: &str, names: impl Iterator<Item = &'n str>) -> String {
    let limit = (wrong.chars().count() / 3).max(2);
    let best = names
        .map(|name| {
            (
                edit_distance(&wrong.to_lowercase(), &name.to_lowercase()),
                name,
            )
        })
        .filter(|&(d, _)| d <= limit)
        .min();
    match best {
        Some((_, name)) => format!(" (did you mean `{name}`?)"),
        None => String::new(),
    }
}

/// Levenshtein distance: insertions, deletions and substitutions of characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// `1 line`, `2 lines`.
pub(crate) fn plural(n: u64, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// An I/O error's reason without Rust's `(os error N)` suffix.
fn reason(e: &io::Error) -> String {
    let text = e.to_string();
    match text.find(" (os error") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// The sink: filters, validation, summary, and the writers.
struct Output<'d, W: Write> {
    tables: &'d Tables<'d>,
    validator: Option<Validator>,
    /// Shapes of messages that passed validation: a log repeats a few shapes,
    /// whose messages then need their values checked only.
    shapes: Box<ShapeCache<16, 256>>,
    /// `--type`: MsgTypes, any of which matches (empty: all).
    types: Vec<Box<[u8]>>,
    /// `--tag`: every one must match.
    tags: Vec<(u32, Option<Vec<u8>>)>,
    json: bool,
    summary: Summary,
    summary_only: bool,
    writer: Writer<'d>,
    out: Vec<u8>,
    w: W,
    /// Messages read so far (each message's number).
    seen: u64,
    /// The first write error; writing stops there.
    write_error: Option<io::Error>,
}

impl<W: Write> Output<'_, W> {
    fn matches(&self, m: &Decoded<'_>, msg_type: &[u8]) -> bool {
        (self.types.is_empty() || self.types.iter().any(|t| **t == *msg_type))
            && self.tags.iter().all(|(tag, value)| {
                m.fields
                    .iter()
                    .any(|f| f.tag() == *tag && value.as_deref().is_none_or(|v| m.value(f) == v))
            })
    }

    fn flush(&mut self) -> io::Result<()> {
        self.w.write_all(&self.out)?;
        self.out.clear();
        self.w.flush()
    }
}

impl<W: Write> Sink for Output<'_, W> {
    #[inline]
    fn message(&mut self, m: &Decoded<'_>) -> io::Result<()> {
        self.seen += 1;
        let msg_type = match m.message {
            Some(msg) => msg.msg_type(),
            None => m.get(35).unwrap_or_default(),
        };
        if self.summary_only {
            self.summary.sequence(m, msg_type);
        }
        if !self.matches(m, msg_type) {
            return Ok(());
        }
        let reject = match (m.message, m.problem) {
            (None, Some(Problem::Parse(e))) => {
                Reject::from_parse_error(&e, m.bytes).map(Invalid::Reject)
            }
            (Some(msg), _) => self.validator.and_then(|v| {
                v.validate_cached(self.tables.dictionary(), &msg, &mut self.shapes)
                    .err()
            }),
            _ => None,
        };
        let problems = Problems {
            problem: m.problem,
            reject,
        };
        self.summary.count_light(!problems.is_empty());
        if self.summary_only {
            self.summary.count(m, msg_type);
            return Ok(());
        }
        let n = self.seen;
        if self.json {
            self.writer
                .json(&mut self.out, self.tables, n, m, msg_type, &problems);
        } else {
            self.writer
                .text(&mut self.out, self.tables, n, m, msg_type, &problems);
        }
        if self.out.len() >= FLUSH_AT {
            if let Err(e) = self.w.write_all(&self.out) {
                self.write_error = Some(e);
                return Err(io::Error::other("output failed"));
            }
            self.out.clear();
        }
        Ok(())
    }
}

/// A progress line on stderr: percentage and megabytes read.
struct TermProgress {
    label: String,
    total: u64,
    done: u64,
    last: Instant,
    shown: bool,
}

impl TermProgress {
    fn new(path: &Path, total: u64) -> Self {
        TermProgress {
            label: path.display().to_string(),
            total,
            done: 0,
            last: Instant::now(),
            shown: false,
        }
    }

    fn clear(&self) {
        if self.shown {
            eprint!("\r\x1b[K");
        }
    }
}

impl scan::Progress for TermProgress {
    fn advance(&mut self, bytes: u64) {
        self.done += bytes;
        let now = Instant::now();
        if now.duration_since(self.last) >= Duration::from_millis(200) {
            self.last = now;
            self.shown = true;
            let pct = self.done * 100 / self.total.max(1);
            eprint!(
                "\r{}: {:>3}% ({} of {} MB)",
                self.label,
                pct.min(100),
                self.done >> 20,
                self.total >> 20
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_are_the_closest_name_within_a_typo_or_two() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("Side", "Side"), 0);
        let names = ["ExecutionReport", "NewOrderSingle", "Side", "Symbol"];
        let suggest = |w| did_you_mean(w, names.iter().copied());
        assert_eq!(
            suggest("ExecutionReprt"),
            " (did you mean `ExecutionReport`?)"
        );
        assert_eq!(
            suggest("executionreport"),
            " (did you mean `ExecutionReport`?)"
        );
        assert_eq!(suggest("Sde"), " (did you mean `Side`?)");
        assert_eq!(suggest("Quantity"), "");
    }
}
