//! Frames a FIX byte stream (a file, or stdin) and prints each message, one per
//! line, with `|` for SOH. Noise between messages is skipped and reported, the way
//! a session resynchronises.
//!
//! ```text
//! cargo run --release -p fix-core --example framelog -- samples/session.fix
//! ```

use std::io::{self, BufWriter, Read, Write};
use std::process::ExitCode;

use fix_core::{Error, Fields, Parser, Status};

/// Bytes read at a time: small enough that messages arrive split across reads.
const CHUNK: usize = 4096;

fn main() -> ExitCode {
    let path = std::env::args_os().nth(1);
    let input: Box<dyn Read> = match &path {
        Some(p) => match std::fs::File::open(p) {
            Ok(f) => Box::new(f),
            Err(e) => {
                eprintln!("framelog: {}: {e}", p.to_string_lossy());
                return ExitCode::FAILURE;
            }
        },
        None => Box::new(io::stdin().lock()),
    };
    match run(input, &mut BufWriter::new(io::stdout().lock())) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("framelog: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(mut input: impl Read, out: &mut impl Write) -> io::Result<()> {
    let parser = Parser::new();
    let mut fields = Fields::<512>::new();
    let mut buf: Vec<u8> = Vec::with_capacity(2 * CHUNK);
    let (mut messages, mut skipped) = (0usize, 0usize);
    let mut eof = false;
    while !eof || !buf.is_empty() {
        if !eof {
            let mut chunk = [0u8; CHUNK];
            let n = input.read(&mut chunk)?;
            eof = n == 0;
            buf.extend_from_slice(&chunk[..n]);
        }
        let mut at = 0;
        while at < buf.len() {
            match parser.parse(&buf[at..], &mut fields) {
                Ok(Status::Complete(msg)) => {
                    messages += 1;
                    write!(
                        out,
                        "{messages:>5}  35={:<3} ",
                        String::from_utf8_lossy(msg.msg_type())
                    )?;
                    for (tag, value) in msg.iter() {
                        write!(out, "{tag}={}|", printable(value))?;
                    }
                    writeln!(out)?;
                    at += msg.bytes().len();
                }
                Ok(Status::Partial { .. }) if !eof => break,
                Ok(Status::Partial { .. }) => {
                    report(out, buf.len() - at, "input ends inside a message")?;
                    skipped += buf.len() - at;
                    at = buf.len();
                    break;
                }
                Err(e) => {
                    let skip = match e {
                        Error::Garbage { skip } => skip,
                        _ => fix_core::resync(&buf[at..]),
                    };
                    // `resync` keeps a partial `8=FIX` at the end of the input: it
                    // may yet become a message.
                    report(out, skip, &e.to_string())?;
                    skipped += skip;
                    at += skip;
                }
            }
        }
        buf.drain(..at);
    }
    writeln!(out, "{messages} messages, {skipped} bytes skipped")?;
    out.flush()
}

fn report(out: &mut impl Write, bytes: usize, why: &str) -> io::Result<()> {
    writeln!(out, "    -  skipped {bytes} bytes: {why}")
}

/// The value with SOH shown as `^A` and other control bytes escaped.
fn printable(value: &[u8]) -> String {
    value
        .iter()
        .map(|&b| match b {
            0x01 => "^A".to_string(),
            b' '..=b'~' => (b as char).to_string(),
            _ => format!("\\x{b:02x}"),
        })
        .collect()
}
