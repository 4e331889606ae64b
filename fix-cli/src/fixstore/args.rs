//! fixstore's command line, parsed by hand as fixdump's is: four subcommands and
//! a handful of flags do not justify a parser crate.

use std::ffi::OsString;
use std::path::PathBuf;

/// The usage text printed by `--help`.
pub(crate) const USAGE: &str = "\
fixstore: check, read and correct fix-session's stores offline: file stores, and
the PostgreSQL store (fix-store-postgres)

Usage: fixstore <COMMAND> <STORE-DIR> [OPTIONS]
       fixstore <COMMAND> --postgres <CONNECTION> [OPTIONS]

A store directory holds one log per session, `<SESSION>.log` (with `<SESSION>.lock`),
where SESSION is BeginString-SenderCompID-TargetCompID[-Qualifier], as the engine's
FileStorePath and `fixstore list` name it.

With --postgres, the store is a PostgreSQL database (a libpq connection string, as
the engine's PostgreSQLStoreConnection: `host=/run/pg user=fix dbname=fix`), whose
sessions are the rows of its fix_sessions table. list shows each one's numbers and
lease; verify and dump read through the store as a standby (they take no lease and
write nothing: safe while engines run); set-next takes the session's lease as node
`fixstore`, so it refuses a session whose lease an engine holds (exit 3) and fences
off any engine whose lease had expired; it lets the lease go when done.

Commands:
  list <DIR>                 the sessions with a store in DIR, one a line (with
                             --postgres: each with its next numbers, generation,
                             and lease: live or free, its owner, epoch and expiry)
  verify <DIR>               check every record of each store's log: records by kind,
                             stored messages, next sequence numbers, creation time;
                             a torn tail (an interrupted write, which opening the
                             store drops) is reported; damage is named with its file
                             and byte offset. Each stored message must be one whole
                             FIX message (BodyLength, CheckSum) whose MsgSeqNum is
                             the number it is stored under. Reads only: safe on a running engine's
                             store (where a torn tail may be a record being
                             written; damage is read twice before it is reported)
  dump <DIR>                 the stored (sent) messages, decoded as fixdump decodes
                             them, each shown with its stored sequence number;
                             framing is checked (CheckSum, BodyLength), not the
                             dictionary, which gives the names only
  set-next <DIR> --session ID [--sender N] [--target M] [--force]
                             sets the next sender (MsgSeqNum we send next) and
                             target (the number we expect next) sequence numbers.
                             Opens the store as an engine does (a torn tail is
                             dropped, and reported) and takes its lock, so it
                             refuses a store that an engine has open. Lowering
                             the sender number needs --force: the counterparty
                             has seen those numbers (it logs out on a MsgSeqNum
                             too low), and the messages stored under them are
                             dropped

Options:
      --postgres CONN    the PostgreSQL store at CONN (a libpq connection string)
                         instead of a store directory
      --session ID       only this session (verify, dump; required by set-next)
      --sender N         set-next: the next sender sequence number (1 and up)
      --target M         set-next: the next target sequence number (1 and up)
      --force            set-next: allow lowering the sender number
      --json             dump: one JSON object per message, as fixdump --json
      --dict FILE.xml    dump: a QuickFIX XML data dictionary for names (default:
                         FIX 4.4)
  -h, --help             this text
  -V, --version          the version

Exit status:
  0  done; every store verified is intact (a torn tail alone is not damage)
  1  a store is damaged (a bad record, or a stored message that is not the FIX
     message of its number) or could not be read or written (named on stderr),
     or the session has no store in the directory (no row in the database), or
     the database could not be reached
  2  the command line is wrong (an unknown command or option, a missing or bad
     value), or set-next was refused (lowering the sender without --force)
  3  set-next: the store is in use (an engine holds its lock, or the session's
     lease in the database, named on stderr); stop it first
";

/// What the command line asks for.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// A subcommand over a store directory.
    Run(Args),
    /// `--help`.
    Help,
    /// `--version`.
    Version,
}

/// The subcommands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    List,
    Verify,
    Dump,
    SetNext,
}

/// Where the sessions' stores are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Store {
    /// A file store directory.
    Dir(PathBuf),
    /// A PostgreSQL store: a libpq connection string.
    Postgres(String),
}

/// Everything the command line says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Args {
    pub(crate) action: Action,
    pub(crate) store: Store,
    pub(crate) session: Option<String>,
    pub(crate) sender: Option<u64>,
    pub(crate) target: Option<u64>,
    pub(crate) force: bool,
    pub(crate) json: bool,
    pub(crate) dict: Option<PathBuf>,
}

/// Parses the arguments after the program name. The error is a one-line message.
pub(crate) fn parse(args: impl IntoIterator<Item = OsString>) -> Result<Command, String> {
    let mut action = None;
    let mut dir: Option<PathBuf> = None;
    let mut postgres: Option<String> = None;
    let mut out = Args {
        action: Action::List,
        store: Store::Dir(PathBuf::new()),
        session: None,
        sender: None,
        target: None,
        force: false,
        json: false,
        dict: None,
    };
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let Some(text) = arg.to_str() else {
            // A non-UTF-8 argument can only be the directory.
            set_dir(&mut dir, arg)?;
            continue;
        };
        if !text.starts_with('-') {
            if action.is_none() {
                action = Some(match text {
                    "list" => Action::List,
                    "verify" => Action::Verify,
                    "dump" => Action::Dump,
                    "set-next" => Action::SetNext,
                    other => {
                        return Err(format!(
                            "unknown command `{other}` (list, verify, dump or set-next; see --help)"
                        ));
                    }
                });
            } else {
                set_dir(&mut dir, arg)?;
            }
            continue;
        }
        let (name, inline) = match text.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_owned())),
            _ => (text, None),
        };
        let mut value = |what: &str| -> Result<String, String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => args
                    .next()
                    .ok_or_else(|| format!("{name} needs a value ({what})"))?
                    .into_string()
                    .map_err(|v| format!("{name}: not UTF-8: {}", v.to_string_lossy())),
            }
        };
        match name {
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            "--postgres" => {
                if postgres.is_some() {
                    return Err("one --postgres at a time".into());
                }
                postgres = Some(value(
                    "a libpq connection string such as `host=/run/pg dbname=fix`",
                )?);
            }
            "--session" => out.session = Some(value("a session such as FIX.4.4-SENDER-TARGET")?),
            "--sender" => out.sender = Some(seq_num(name, &value("a sequence number")?)?),
            "--target" => out.target = Some(seq_num(name, &value("a sequence number")?)?),
            "--dict" => out.dict = Some(value("FILE.xml")?.into()),
            "--force" | "--json" => {
                if inline.is_some() {
                    return Err(format!("{name} takes no value"));
                }
                match name {
                    "--force" => out.force = true,
                    _ => out.json = true,
                }
            }
            _ => return Err(format!("unknown option `{text}` (see --help)")),
        }
    }
    out.action = action.ok_or("no command given (list, verify, dump or set-next; see --help)")?;
    out.store = match (dir, postgres) {
        (Some(dir), None) => Store::Dir(dir),
        (None, Some(connection)) => Store::Postgres(connection),
        (Some(dir), Some(_)) => {
            return Err(format!(
                "a store directory or --postgres, not both: `{}` and --postgres",
                dir.display()
            ));
        }
        (None, None) => return Err("no store directory (nor --postgres) given (see --help)".into()),
    };
    let only = |flag: &str, set: bool, actions: &[Action]| {
        if set && !actions.contains(&out.action) {
            return Err(format!(
                "{flag} does not apply to this command (see --help)"
            ));
        }
        Ok(())
    };
    only(
        "--session",
        out.session.is_some(),
        &[Action::Verify, Action::Dump, Action::SetNext],
    )?;
    only("--sender", out.sender.is_some(), &[Action::SetNext])?;
    only("--target", out.target.is_some(), &[Action::SetNext])?;
    only("--force", out.force, &[Action::SetNext])?;
    only("--json", out.json, &[Action::Dump])?;
    only("--dict", out.dict.is_some(), &[Action::Dump])?;
    if out.action == Action::SetNext {
        if out.session.is_none() {
            return Err("set-next needs --session (see fixstore list)".into());
        }
        if out.sender.is_none() && out.target.is_none() {
            return Err("set-next needs --sender, --target or both".into());
        }
    }
    Ok(Command::Run(out))
}

fn set_dir(dir: &mut Option<PathBuf>, arg: OsString) -> Result<(), String> {
    if let Some(first) = dir {
        return Err(format!(
            "one store directory at a time: `{}` and `{}`",
            first.display(),
            arg.to_string_lossy()
        ));
    }
    *dir = Some(arg.into());
    Ok(())
}

/// A sequence number given on the command line: FIX's start at 1.
fn seq_num(flag: &str, text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(0) => Err(format!("{flag}: sequence numbers start at 1")),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("{flag}: `{text}` is not a sequence number")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Result<Args, String> {
        match parse(args.iter().map(OsString::from))? {
            Command::Run(a) => Ok(a),
            other => Err(format!("{other:?}")),
        }
    }

    #[test]
    fn commands_directories_and_flags() {
        let a = run(&[
            "set-next",
            "store",
            "--session=FIX.4.4-A-B",
            "--sender",
            "10",
            "--force",
        ])
        .unwrap();
        assert_eq!(a.action, Action::SetNext);
        assert_eq!(a.store, Store::Dir(PathBuf::from("store")));
        assert_eq!(a.session.as_deref(), Some("FIX.4.4-A-B"));
        assert_eq!((a.sender, a.target, a.force), (Some(10), None, true));
        let a = run(&["dump", "--json", "s", "--dict", "x.xml"]).unwrap();
        assert!(a.json && a.dict.is_some() && a.action == Action::Dump);
        assert_eq!(run(&["list", "s"]).unwrap().action, Action::List);
        let a = run(&["verify", "--postgres", "host=/run/pg dbname=fix"]).unwrap();
        assert_eq!(a.store, Store::Postgres("host=/run/pg dbname=fix".into()));
        let a = run(&[
            "set-next",
            "--postgres=host=/tmp",
            "--session",
            "X",
            "--target",
            "2",
        ])
        .unwrap();
        assert_eq!(a.store, Store::Postgres("host=/tmp".into()));
        assert_eq!(parse(["--help"].map(OsString::from)), Ok(Command::Help));
    }

    #[test]
    fn mistakes_are_named() {
        let err = |args: &[&str]| run(args).unwrap_err();
        assert!(err(&["fix", "s"]).contains("unknown command `fix`"));
        assert!(err(&["verify"]).contains("no store directory"));
        assert!(err(&[]).contains("no command"));
        assert!(err(&["verify", "a", "b"]).contains("one store directory"));
        assert!(err(&["list", "d", "--postgres", "host=/tmp"]).contains("not both"));
        assert!(err(&["list", "--postgres"]).contains("needs a value"));
        assert!(err(&["list", "--postgres", "a", "--postgres", "b"]).contains("one --postgres"));
        assert!(err(&["verify", "s", "--bogus"]).contains("--bogus"));
        assert!(err(&["set-next", "s", "--sender", "5"]).contains("needs --session"));
        assert!(err(&["set-next", "s", "--session", "X"]).contains("--sender, --target"));
        assert!(err(&["set-next", "s", "--session", "X", "--sender", "0"]).contains("start at 1"));
        assert!(err(&["set-next", "s", "--session", "X", "--target", "x"]).contains("`x`"));
        assert!(err(&["verify", "s", "--sender", "5"]).contains("does not apply"));
        assert!(err(&["list", "s", "--json"]).contains("does not apply"));
        assert!(err(&["dump", "s", "--json=1"]).contains("takes no value"));
        assert!(err(&["dump", "s", "--session"]).contains("needs a value"));
    }
}
