//! Command-line arguments, parsed by hand from `std::env::args_os`: a dozen flags
//! do not justify a parser crate and its compile time.

use std::ffi::OsString;
use std::path::PathBuf;

/// The usage text printed by `--help`.
pub(crate) const USAGE: &str = "\
fixdump: decode FIX logs with field names, enum meanings and validation

Usage: fixdump [OPTIONS] [FILE...]

Reads each FILE (or stdin when there is none, or for `-`): raw SOH streams, log
lines with any prefix before `8=` (QuickFIX, QuickFIX/J, timestamps), and messages
with `|` or `^A` in place of SOH. Lines holding no FIX message are skipped and
counted.

Options:
      --json             one JSON object per message (groups as nested arrays)
      --summary          counts per MsgType and per session, sequence gaps
      --type T[,T...]    only messages of these MsgTypes (`8`, `D`, or a name such
                         as `ExecutionReport`); repeatable
      --tag TAG[=VALUE]  only messages with this field (and value), anywhere in the
                         message; TAG is a number or a field name; repeatable (all
                         must match)
      --dict FILE.xml    a QuickFIX XML data dictionary (default: FIX 4.4)
      --color WHEN       auto (default: colour on a terminal, unless NO_COLOR is
                         set), always or never
      --no-validate      skip dictionary validation (framing is always checked)
      --strict           exit with status 3 when a message shown has a problem
      --max-size BYTES   the largest message accepted (default 1M; a K or M suffix
                         counts KiB or MiB; 64 to 64M); a longer BodyLength makes
                         a broken message. Memory is up to 9 times this size
      --no-progress      no progress indicator on stderr
  -h, --help             this text
  -V, --version          the version

Exit status:
  0  every input was read (messages with problems are shown, not fatal)
  1  an input could not be read (it is named on stderr; the others are still read)
  2  the command line or the dictionary is wrong: an unknown option, a --type or
     --tag name the dictionary does not define, an unreadable --dict
  3  with --strict, a message shown had a problem (framing or validation) and
     every input was read
";

/// `--max-size`'s bounds: a message shorter than the smallest holds no body, and
/// the largest keeps the buffers (read buffer, field slots and line scratch: up to nine
/// times the size) within reason.
const MAX_SIZE_RANGE: std::ops::RangeInclusive<usize> = 64..=64 << 20;

/// When to colour the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Color {
    /// On a terminal, unless `NO_COLOR` is set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// A `--tag` filter: a tag (number or name, resolved against the dictionary later)
/// and, optionally, the value it must have.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TagFilter {
    /// The tag as written: digits or a field name.
    pub(crate) tag: String,
    /// The value the field must have; `None` means "present".
    pub(crate) value: Option<Vec<u8>>,
}

/// Everything the command line says.
#[derive(Clone, Debug)]
pub(crate) struct Args {
    /// Input files; empty means stdin. `-` is stdin.
    pub(crate) files: Vec<PathBuf>,
    /// `--json`.
    pub(crate) json: bool,
    /// `--summary`.
    pub(crate) summary: bool,
    /// `--type`, split on commas: MsgTypes or message names.
    pub(crate) types: Vec<String>,
    /// `--tag`.
    pub(crate) tags: Vec<TagFilter>,
    /// `--dict`.
    pub(crate) dict: Option<PathBuf>,
    /// `--color`.
    pub(crate) color: Color,
    /// Whether to validate against the dictionary.
    pub(crate) validate: bool,
    /// Whether a progress indicator may be shown.
    pub(crate) progress: bool,
    /// `--strict`: a message with a problem makes the exit status 3.
    pub(crate) strict: bool,
    /// `--max-size`: the largest message accepted, in bytes.
    pub(crate) max_size: usize,
}

/// What the command line asks for.
#[derive(Debug)]
pub(crate) enum Command {
    /// Decode.
    Run(Args),
    /// `--help`.
    Help,
    /// `--version`.
    Version,
}

/// Parses the arguments after the program name. The error is a one-line message.
pub(crate) fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    let mut out = Args {
        files: Vec::new(),
        json: false,
        summary: false,
        types: Vec::new(),
        tags: Vec::new(),
        dict: None,
        color: Color::Auto,
        validate: true,
        progress: true,
        strict: false,
        max_size: fix_cli::scan::MAX_MESSAGE,
    };
    let mut args = args.into_iter();
    let mut only_files = false;
    while let Some(arg) = args.next() {
        if only_files {
            out.files.push(arg.into());
            continue;
        }
        let Some(text) = arg.to_str() else {
            out.files.push(arg.into()); // a non-UTF-8 path
            continue;
        };
        if text == "--" {
            only_files = true;
            continue;
        }
        if !text.starts_with('-') || text == "-" {
            out.files.push(arg.into());
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
            _ => (text, None),
        };
        let mut value = |what: &str| -> Result<OsString, String> {
            match &inline {
                Some(v) => Ok(v.into()),
                None => args
                    .next()
                    .ok_or_else(|| format!("{name} needs a value ({what})")),
            }
        };
        let value_str = |v: OsString| -> Result<String, String> {
            v.into_string()
                .map_err(|v| format!("{name}: not UTF-8: {}", v.to_string_lossy()))
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--json" => out.json = true,
            "--summary" => out.summary = true,
            "--no-validate" => out.validate = false,
            "--no-progress" => out.progress = false,
            "--strict" => out.strict = true,
            "--max-size" => out.max_size = max_size(&value_str(value("BYTES")?)?)?,
            "--dict" => out.dict = Some(value("FILE.xml")?.into()),
            "--type" => {
                let v = value_str(value("MsgType")?)?;
                for t in v.split(',').map(str::trim).filter(|t| !t.is_empty()) {
                    out.types.push(t.to_owned());
                }
            }
            "--tag" => {
                let v = value_str(value("TAG or TAG=VALUE")?)?;
                let filter = match v.split_once('=') {
                    Some((tag, val)) => TagFilter {
                        tag: tag.to_owned(),
                        value: Some(val.as_bytes().to_vec()),
                    },
                    None => TagFilter {
                        tag: v,
                        value: None,
                    },
                };
                if filter.tag.is_empty() {
                    return Err("--tag: empty tag".into());
                }
                out.tags.push(filter);
            }
            "--color" | "--colour" => {
                out.color = match value_str(value("auto, always or never")?)?.as_str() {
                    "auto" => Color::Auto,
                    "always" => Color::Always,
                    "never" => Color::Never,
                    other => {
                        return Err(format!(
                            "--color: `{other}` is not one of auto, always, never"
                        ));
                    }
                }
            }
            _ => return Err(format!("unknown option `{text}` (see --help)")),
        }
        if inline.is_some()
            && matches!(
                name,
                "--json" | "--summary" | "--no-validate" | "--no-progress" | "--strict"
            )
        {
            return Err(format!("{name} takes no value"));
        }
    }
    Ok(Command::Run(out))
}

/// `--max-size`'s value: bytes, or KiB and MiB with a `K` or `M` suffix.
fn max_size(text: &str) -> Result<usize, String> {
    let (digits, unit) = match text.as_bytes().last() {
        Some(b'K' | b'k') => (&text[..text.len() - 1], 1 << 10),
        Some(b'M' | b'm') => (&text[..text.len() - 1], 1 << 20),
        _ => (text, 1),
    };
    let bytes = digits
        .parse::<usize>()
        .ok()
        .and_then(|n| n.checked_mul(unit))
        .ok_or_else(|| format!("--max-size: `{text}` is not a size (e.g. 65536, 64K, 4M)"))?;
    if !MAX_SIZE_RANGE.contains(&bytes) {
        return Err(format!(
            "--max-size: {bytes} bytes is outside {} to {}",
            MAX_SIZE_RANGE.start(),
            MAX_SIZE_RANGE.end()
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Args, String> {
        match parse(args.iter().map(OsString::from))? {
            Command::Run(a) => Ok(a),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn flags_values_and_files() {
        let a = run(&[
            "--json",
            "--type",
            "8,D",
            "--type=A",
            "--tag",
            "11=CL-1",
            "--tag=55",
            "x.log",
            "--color=never",
            "--",
            "--odd",
        ])
        .unwrap();
        assert!(a.json && !a.summary && a.validate);
        assert_eq!(a.types, ["8", "D", "A"]);
        assert_eq!(a.tags[0].tag, "11");
        assert_eq!(a.tags[0].value.as_deref(), Some(&b"CL-1"[..]));
        assert_eq!(a.tags[1].value, None);
        assert_eq!(a.color, Color::Never);
        assert_eq!(a.files, [PathBuf::from("x.log"), PathBuf::from("--odd")]);
    }

    #[test]
    fn errors() {
        assert!(run(&["--bogus"]).unwrap_err().contains("--bogus"));
        assert!(run(&["--dict"]).unwrap_err().contains("needs a value"));
        assert!(run(&["--color=blue"]).unwrap_err().contains("blue"));
        assert!(run(&["--json=1"]).is_err());
        assert!(run(&["--strict=yes"]).is_err());
        assert!(run(&["--max-size=lots"]).unwrap_err().contains("lots"));
        assert!(run(&["--max-size", "63"]).unwrap_err().contains("outside"));
        assert!(run(&["--max-size=65M"]).unwrap_err().contains("outside"));
    }

    #[test]
    fn strict_and_max_size() {
        let a = run(&["x.log"]).unwrap();
        assert!(!a.strict);
        assert_eq!(a.max_size, 1 << 20);
        let a = run(&["--strict", "--max-size", "64K"]).unwrap();
        assert!(a.strict);
        assert_eq!(a.max_size, 64 << 10);
        assert_eq!(run(&["--max-size=2m"]).unwrap().max_size, 2 << 20);
        assert_eq!(run(&["--max-size=300"]).unwrap().max_size, 300);
    }
}
