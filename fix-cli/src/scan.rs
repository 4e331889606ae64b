//! Finding FIX messages in a log: raw SOH streams, lines with a prefix before `8=`,
//! and messages written with `|` or `^A` for SOH, in one bounded buffer.
//!
//! Invariants:
//!
//! - **Constant memory.** Input is read into one buffer of at least [`BUFFER`]
//!   bytes and four times the largest message (by default [`MAX_MESSAGE`]); a
//!   `|`/`^A` line is looked at up to twice that message size, so both stay well
//!   below the buffer and a full buffer always makes progress.
//! - **SOH messages are parsed in place**; only `|`/`^A` lines are copied, once,
//!   into a reused scratch buffer with SOH restored.
//! - **Nothing is dropped silently.** Every byte is a message, a broken message
//!   (shown with its problem), a message's prefix on its line, or part of a line
//!   counted in [`Scanner::skipped_lines`].

use std::io::{self, Read};

use fix_core::{Error, Field, Message, Parser, SOH, Status, resync};

/// The read buffer's smallest size.
pub const BUFFER: usize = 4 << 20;
/// The largest message accepted by default (BodyLength beyond it is a broken
/// message); `--max-size` changes it.
pub const MAX_MESSAGE: usize = 1 << 20;
/// The most of a line's prefix (text before `8=`) kept for display.
const MAX_PREFIX: usize = 256;

/// Why a message could not be decoded as it stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The parser's error: framing (BodyLength, CheckSum, …) or a field.
    Parse(Error),
    /// The input ends inside the message.
    Truncated,
}

/// One message found in the input, as well as it could be decoded.
#[derive(Clone, Copy, Debug)]
pub struct Decoded<'a> {
    /// The message's bytes, SOH-delimited.
    pub bytes: &'a [u8],
    /// Its fields in wire order (split naively when it did not parse).
    pub fields: &'a [Field],
    /// The parsed message, when the parser indexed it (CheckSum possibly wrong).
    pub message: Option<Message<'a>>,
    /// What is wrong with it at the parsing level.
    pub problem: Option<Problem>,
    /// The text before it on its line (a timestamp, a direction), untrimmed.
    pub prefix: &'a [u8],
}

impl Decoded<'_> {
    /// The value of `field`, which must be one of `self.fields`.
    #[inline]
    pub fn value(&self, field: &Field) -> &[u8] {
        self.bytes.get(field.value_range()).unwrap_or_default()
    }

    /// The first value of `tag`.
    pub fn get(&self, tag: u32) -> Option<&[u8]> {
        self.fields
            .iter()
            .find(|f| f.tag() == tag)
            .map(|f| self.value(f))
    }
}

/// Receives each message the scanner finds.
pub trait Sink {
    /// One message.
    fn message(&mut self, m: &Decoded<'_>) -> io::Result<()>;
}

/// Progress of the bytes read, for an indicator.
pub trait Progress {
    /// `bytes` more bytes have been read.
    fn advance(&mut self, bytes: u64);
}

/// No progress indicator.
#[derive(Debug)]
pub struct NoProgress;

impl Progress for NoProgress {
    fn advance(&mut self, _: u64) {}
}

/// The message finder: its parsers, reused storage and line accounting.
#[derive(Debug)]
pub struct Scanner<'p> {
    parser: Parser<'p>,
    /// The largest message accepted.
    max_message: usize,
    /// The longest `|`/`^A` line looked at; the rest of a longer line is noise.
    max_line: usize,
    lenient: Parser<'p>,
    buf: Vec<u8>,
    fields: Vec<Field>,
    naive: Vec<Field>,
    scratch: Vec<u8>,
    prefix: Vec<u8>,
    /// Text that is neither a message nor a prefix since the last newline/message.
    line_dirty: bool,
    /// Lines (or line ends after a message) holding text but no FIX message.
    pub skipped_lines: u64,
    /// Finds `8=FIX` (built once: building a searcher costs more than a short search).
    start: memchr::memmem::Finder<'static>,
    /// Finds `^A`.
    caret: memchr::memmem::Finder<'static>,
}

/// How the candidate at a `8=FIX` is delimited.
enum Delimiter {
    Soh,
    Pipe,
    Caret,
    /// More input is needed to tell.
    Unknown,
}

impl<'p> Scanner<'p> {
    /// A scanner using `parser` (its CheckSum setting is overridden to strict)
    /// for messages of up to `max_message` bytes.
    pub fn new(parser: Parser<'p>, max_message: usize) -> Self {
        let parser = parser.with_max_message_size(max_message);
        let max_message = parser.max_message_size();
        Scanner {
            parser: parser.with_checksum_validation(true),
            max_message,
            max_line: 2 * max_message,
            lenient: parser.with_checksum_validation(false),
            buf: vec![0; BUFFER.max(4 * max_message)],
            // Every field takes at least four bytes (`1=x<SOH>`).
            fields: vec![Field::EMPTY; max_message / 4 + 1],
            naive: Vec::new(),
            scratch: Vec::new(),
            prefix: Vec::with_capacity(MAX_PREFIX),
            line_dirty: false,
            skipped_lines: 0,
            start: memchr::memmem::Finder::new(b"8=FIX"),
            caret: memchr::memmem::Finder::new(b"^A"),
        }
    }

    /// Reads `input` to its end, passing every message to `sink`.
    pub fn run(
        &mut self,
        mut input: impl Read,
        sink: &mut impl Sink,
        progress: &mut impl Progress,
    ) -> io::Result<()> {
        let mut buf = std::mem::take(&mut self.buf);
        let result = self.run_with(&mut buf, &mut input, sink, progress);
        self.buf = buf;
        self.line_dirty = false;
        self.prefix.clear();
        result
    }

    fn run_with(
        &mut self,
        buf: &mut [u8],
        input: &mut impl Read,
        sink: &mut impl Sink,
        progress: &mut impl Progress,
    ) -> io::Result<()> {
        let (mut start, mut end) = (0usize, 0usize);
        loop {
            let n = loop {
                match input.read(&mut buf[end..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            end += n;
            progress.advance(n as u64);
            let eof = n == 0;
            start += self.scan(&buf[start..end], eof, false, sink)?;
            if eof {
                if self.line_dirty {
                    self.skipped_lines += 1;
                }
                return Ok(());
            }
            if start > 0 {
                buf.copy_within(start..end, 0);
                end -= start;
                start = 0;
            }
            debug_assert!(end < buf.len(), "a full buffer always makes progress");
        }
    }

    /// Consumes what it can of `data`; returns the bytes consumed. With `eof`,
    /// consumes everything. `nested` is set for an already translated line.
    fn scan(
        &mut self,
        data: &[u8],
        eof: bool,
        nested: bool,
        sink: &mut impl Sink,
    ) -> io::Result<usize> {
        let mut pos = 0;
        while pos < data.len() {
            let rest = &data[pos..];
            let at = if rest.starts_with(b"8=FIX") {
                0
            } else {
                match find_start(&self.start, data, pos) {
                    Some(at) => at - pos,
                    None => {
                        // Keep a possible partial `8=FIX` at the end.
                        let keep = if eof { 0 } else { rest.len().min(4) };
                        self.garbage(&rest[..rest.len() - keep]);
                        return Ok(data.len() - keep);
                    }
                }
            };
            self.garbage(&rest[..at]);
            pos += at;
            let rest = &data[pos..];
            let delimiter = if nested {
                Delimiter::Soh
            } else {
                delimiter(rest, eof)
            };
            let used = match delimiter {
                Delimiter::Unknown => return Ok(pos),
                Delimiter::Soh => self.soh(rest, eof, sink)?,
                Delimiter::Pipe | Delimiter::Caret => {
                    let line_end = match memchr::memchr(b'\n', rest) {
                        Some(nl) => nl,
                        None if !eof && rest.len() < self.max_line => return Ok(pos),
                        None => rest.len().min(self.max_line),
                    };
                    let mut scratch = std::mem::take(&mut self.scratch);
                    translate(
                        &rest[..line_end],
                        &mut scratch,
                        matches!(delimiter, Delimiter::Caret).then_some(&self.caret),
                    );
                    let result = self.scan(&scratch, true, true, sink);
                    self.scratch = scratch;
                    result?;
                    Some(line_end)
                }
            };
            match used {
                Some(n) => pos += n,
                None => return Ok(pos),
            }
        }
        Ok(pos)
    }

    /// Decodes the SOH-delimited message at the start of `rest`; returns the bytes
    /// consumed, or `None` when more input is needed.
    fn soh(&mut self, rest: &[u8], eof: bool, sink: &mut impl Sink) -> io::Result<Option<usize>> {
        let err = match self.parser.parse(rest, &mut self.fields) {
            Ok(Status::Complete(msg)) => {
                let len = msg.bytes().len();
                sink.message(&Decoded {
                    bytes: msg.bytes(),
                    fields: msg.fields(),
                    message: Some(msg),
                    problem: None,
                    prefix: &self.prefix,
                })?;
                self.after_message();
                return Ok(Some(len));
            }
            Ok(Status::Partial { .. }) if !eof => return Ok(None),
            Ok(Status::Partial { .. }) => {
                let len = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
                self.broken(&rest[..len], Problem::Truncated, sink)?;
                return Ok(Some(len));
            }
            Err(err) => err,
        };
        if let Error::CheckSumMismatch { .. } = err
            && let Ok(Status::Complete(msg)) = self.lenient.parse(rest, &mut self.fields)
        {
            let len = msg.bytes().len();
            sink.message(&Decoded {
                bytes: msg.bytes(),
                fields: msg.fields(),
                message: Some(msg),
                problem: Some(Problem::Parse(err)),
                prefix: &self.prefix,
            })?;
            self.after_message();
            return Ok(Some(len));
        }
        // A framed message whose fields do not parse, or a broken frame.
        let len = match self.lenient.frame(rest) {
            Ok(Status::Complete(frame)) => frame.len(),
            _ => {
                let next = resync(rest);
                if next == rest.len() && !eof && rest.len() < self.max_line {
                    return Ok(None); // the next message may be just past the buffer
                }
                broken_extent(&rest[..next.min(self.max_message)])
            }
        };
        self.broken(&rest[..len], Problem::Parse(err), sink)?;
        Ok(Some(len))
    }

    /// Passes on a message that did not parse, its fields split naively.
    fn broken(&mut self, bytes: &[u8], problem: Problem, sink: &mut impl Sink) -> io::Result<()> {
        naive_split(bytes, &mut self.naive);
        sink.message(&Decoded {
            bytes,
            fields: &self.naive,
            message: None,
            problem: Some(problem),
            prefix: &self.prefix,
        })?;
        self.after_message();
        Ok(())
    }

    fn after_message(&mut self) {
        self.line_dirty = false;
        self.prefix.clear();
    }

    /// Accounts for bytes that are not a message: line ends, prefixes, noise.
    fn garbage(&mut self, bytes: &[u8]) {
        if bytes.is_empty() {
            return;
        }
        let mut seg_start = 0;
        for nl in memchr::memchr_iter(b'\n', bytes) {
            if self.line_dirty || has_text(&bytes[seg_start..nl]) {
                self.skipped_lines += 1;
            }
            self.line_dirty = false;
            self.prefix.clear();
            seg_start = nl + 1;
        }
        let tail = &bytes[seg_start..];
        if has_text(tail) {
            self.line_dirty = true;
        }
        let room = MAX_PREFIX - self.prefix.len();
        self.prefix.extend_from_slice(&tail[..tail.len().min(room)]);
    }
}

/// The position of the next `8=FIX` in `data` at or after `from` that is not
/// part of a longer tag (`58=FIX…`).
fn find_start(finder: &memchr::memmem::Finder<'_>, data: &[u8], from: usize) -> Option<usize> {
    finder
        .find_iter(&data[from..])
        .map(|i| from + i)
        .find(|&at| at == 0 || !data[at - 1].is_ascii_digit())
}

/// Tells how the message at the start of `rest` (which starts with `8=FIX`)
/// is delimited, from what ends its BeginString.
fn delimiter(rest: &[u8], eof: bool) -> Delimiter {
    let window = &rest[..rest.len().min(2 + fix_core::MAX_BEGIN_STRING + 2)];
    for (i, &b) in window.iter().enumerate().skip(5) {
        match b {
            SOH => return Delimiter::Soh,
            b'|' => return Delimiter::Pipe,
            b'^' => match window.get(i + 1) {
                Some(b'A') => return Delimiter::Caret,
                Some(_) => return Delimiter::Soh,
                None if eof => return Delimiter::Soh,
                None => return Delimiter::Unknown,
            },
            _ => {}
        }
    }
    if window.len() < 2 + fix_core::MAX_BEGIN_STRING + 2 && !eof {
        Delimiter::Unknown
    } else {
        Delimiter::Soh // let the parser say what is wrong
    }
}

/// Copies a `|` or `^A` line into `out` with SOH restored; a line that ends right
/// after the CheckSum's three digits gets its final SOH back.
fn translate(line: &[u8], out: &mut Vec<u8>, caret: Option<&memchr::memmem::Finder<'_>>) {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    out.clear();
    if let Some(caret) = caret {
        let mut rest = line;
        while let Some(i) = caret.find(rest) {
            out.extend_from_slice(&rest[..i]);
            out.push(SOH);
            rest = &rest[i + 2..];
        }
        out.extend_from_slice(rest);
    } else {
        out.extend(line.iter().map(|&b| if b == b'|' { SOH } else { b }));
    }
    let n = out.len();
    if n >= 7
        && out[n - 7] == SOH
        && out[n - 6..n - 3] == *b"10="
        && out[n - 3..].iter().all(u8::is_ascii_digit)
    {
        out.push(SOH);
    }
}

/// How much of `rest` (which starts a message that did not frame and ends where
/// the next message starts) to show as the broken message: up to its CheckSum
/// field if it has one, else to the end of its line.
fn broken_extent(rest: &[u8]) -> usize {
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&rest[from..], b"\x0110=") {
        let at = from + i + 4;
        if let Some(v) = rest.get(at..at + 4)
            && v[..3].iter().all(u8::is_ascii_digit)
            && v[3] == SOH
        {
            return at + 4;
        }
        from = from + i + 1;
    }
    memchr::memchr(b'\n', rest).unwrap_or(rest.len()).max(1)
}

/// Splits `bytes` on SOH into fields; a piece without a numeric tag is tag 0.
fn naive_split(bytes: &[u8], out: &mut Vec<Field>) {
    out.clear();
    let mut start = 0;
    for piece in bytes.split(|&b| b == SOH) {
        let len = piece.len();
        if len > 0 {
            let eq = piece.iter().position(|&b| b == b'=');
            let tag = eq.and_then(|eq| parse_tag(&piece[..eq]));
            out.push(match (tag, eq) {
                (Some(tag), Some(eq)) => {
                    Field::new(tag, (start + eq + 1) as u32, (len - eq - 1) as u32)
                }
                _ => Field::new(0, start as u32, len as u32),
            });
        }
        start += len + 1;
    }
}

fn parse_tag(digits: &[u8]) -> Option<u32> {
    // Nine digits: below 10^9, so the value fits a u32.
    fix_core::value::parse_digits(digits, 9).map(|n| n as u32)
}

/// Whether `bytes` hold anything but whitespace (and stray SOH).
fn has_text(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .any(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c | SOH))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Records what the scanner finds, as text.
    #[derive(Default)]
    struct Record(Vec<String>);

    impl Sink for Record {
        fn message(&mut self, m: &Decoded<'_>) -> io::Result<()> {
            let prefix = String::from_utf8_lossy(m.prefix).trim().to_owned();
            let tags: Vec<String> = m.fields.iter().map(|f| f.tag().to_string()).collect();
            self.0
                .push(format!("{prefix}|{}|{:?}", tags.join(","), m.problem));
            Ok(())
        }
    }

    fn msg(body: &str) -> Vec<u8> {
        let body = body.replace('|', "\x01");
        let mut m = format!("8=FIX.4.4\x019={}\x01{body}", body.len()).into_bytes();
        let sum = fix_core::checksum(&m);
        m.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
        m
    }

    /// Runs the scanner over `input` read `chunk` bytes at a time.
    fn scan(input: &[u8], chunk: usize) -> (Vec<String>, u64) {
        struct Chunks<'a>(&'a [u8], usize);
        impl Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let mut scanner = Scanner::new(Parser::new(), MAX_MESSAGE);
        let mut rec = Record::default();
        scanner
            .run(Chunks(input, chunk), &mut rec, &mut NoProgress)
            .unwrap();
        (rec.0, scanner.skipped_lines)
    }

    #[test]
    fn every_form_and_chunk_size() {
        let hb = msg("35=0|34=2|49=A|56=B|");
        let soh = String::from_utf8(hb.clone()).unwrap();
        let pipe = soh.replace('\x01', "|");
        let caret = soh.replace('\x01', "^A");
        let input = format!(
            "{soh}{soh}junk\r\n20261130-09:00:00.000 : {soh}\nno message here\n\
             2026-11-30 09:00:00,1 {pipe}\n<in> {caret}\r\n{}\n",
            pipe.trim_end_matches('|')
        );
        for chunk in [1, 3, 7, 64, 1 << 20] {
            let (found, skipped) = scan(input.as_bytes(), chunk);
            let tags = "8,9,35,34,49,56,10";
            assert_eq!(
                found,
                [
                    format!("|{tags}|None"),
                    format!("|{tags}|None"),
                    format!("20261130-09:00:00.000 :|{tags}|None"),
                    format!("2026-11-30 09:00:00,1|{tags}|None"),
                    format!("<in>|{tags}|None"),
                    format!("|{tags}|None"),
                ],
                "chunk {chunk}"
            );
            assert_eq!(skipped, 2, "chunk {chunk}"); // `junk` and `no message here`
        }
    }

    #[test]
    fn broken_messages_are_shown_not_dropped() {
        let good = msg("35=0|");
        let mut bad_sum = good.clone();
        let n = bad_sum.len();
        bad_sum[n - 2] = b'0' + (bad_sum[n - 2] - b'0' + 1) % 10;
        let bad_len = String::from_utf8(good.clone())
            .unwrap()
            .replace("9=5", "9=6");
        let mut input = bad_sum.clone();
        input.extend_from_slice(bad_len.as_bytes());
        input.extend_from_slice(&good);
        input.extend_from_slice(&good[..20]);
        let (found, skipped) = scan(&input, 5);
        assert_eq!(found.len(), 4, "{found:?}");
        assert!(found[0].contains("CheckSumMismatch"), "{found:?}");
        assert!(
            found[1].starts_with("|8,9,35,10|") && found[1].contains("BodyLength"),
            "{found:?}"
        );
        assert_eq!(found[2], "|8,9,35,10|None");
        assert!(found[3].ends_with("Some(Truncated)"), "{found:?}");
        assert_eq!(skipped, 0);
    }

    #[test]
    fn long_tag_is_not_a_start() {
        let f = memchr::memmem::Finder::new(b"8=FIX");
        assert_eq!(find_start(&f, b"58=FIX 8=FIX", 0), Some(7));
        assert_eq!(find_start(&f, b"8=FIX", 0), Some(0));
    }
}
