//! `fixcfg check [--strict] [--connect] FILE` (installed with fix-cli's other
//! tools by `cargo install --path fix-cli`): loads a settings file exactly as
//! the engine does, opens the dictionaries, certificates and store directories it
//! names, and prints each session (role, schedule, transport, store, log, TLS)
//! and every warning. Exits 0 when the engine would start with the file, 1 on
//! an error (a settings error, or a file that does not open), 2 on a usage
//! error. `--strict` makes every warning (an unknown key, a key passed over)
//! an error, as `Settings::strict` does. `--connect` also reaches what the
//! file names, without trading: each PostgreSQL store's database (logged in
//! to, its tables read) and each acceptor's address and port (bound and
//! released), one line each with the cause of a failure.
//!
//! ```text
//! $ fixcfg check samples/executor.cfg
//! $ fixcfg check --strict samples/executor.cfg
//! $ fixcfg check --connect samples/executor.cfg
//! ```

mod print;

use std::process::ExitCode;

use fix_engine::config::{Settings, check_connections};

const USAGE: &str = "usage: fixcfg check [--strict] [--connect] FILE

Loads a QuickFIX-style settings file as fix-engine does, opens the
dictionaries, certificates and store directories it names, and prints each
session and every warning. --strict makes every warning an error (an unknown
key, a key passed over). --connect also logs in to each PostgreSQL store's
database (reading its tables' version, writing nothing) and binds each
acceptor's address and port (released at once), without trading.
Exit status: 0 good, 1 an error, 2 usage.";

/// What `check` is asked to do besides loading the file.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    strict: bool,
    connect: bool,
}

fn main() -> ExitCode {
    // `args_os`: an argument that is not UTF-8 is a usage error, not the
    // panic of `std::env::args`.
    let args: Option<Vec<String>> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string().ok())
        .collect();
    let Some(args) = args else {
        eprintln!("fixcfg: an argument is not UTF-8");
        return usage();
    };
    match args.as_slice() {
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        [command, rest @ ..] if command == "check" => match parse(rest) {
            Some((flags, file)) => check(file, flags),
            None => usage(),
        },
        _ => usage(),
    }
}

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}

/// The flags, each at most once and in any order, and one file.
fn parse(args: &[String]) -> Option<(Flags, &str)> {
    let mut flags = Flags::default();
    let mut file = None;
    for arg in args {
        match arg.as_str() {
            "--strict" if !flags.strict => flags.strict = true,
            "--connect" if !flags.connect => flags.connect = true,
            a if a.starts_with("--") => return None,
            a if file.is_none() => file = Some(a),
            _ => return None,
        }
    }
    Some((flags, file?))
}

fn check(file: &str, flags: Flags) -> ExitCode {
    let strict = flags.strict;
    let settings = match Settings::from_path(file) {
        Ok(settings) => settings,
        Err(e) => {
            println!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{file}: {} session(s), {} acceptor template(s), {} warning(s)",
        settings.sessions().len(),
        settings.templates().len(),
        settings.warnings().len()
    );
    let mut failed = false;
    let all = settings.sessions().iter().map(|s| ("session", s)).chain(
        settings
            .templates()
            .iter()
            .map(|t| ("template", t.settings())),
    );
    for (what, s) in all {
        failed |= print::session(what, s);
    }
    if !settings.warnings().is_empty() {
        println!();
        for w in settings.warnings() {
            if strict {
                println!("error: {}", w.to_error());
            } else {
                println!("warning: {w}");
            }
        }
        failed |= strict;
    }
    if flags.connect {
        failed |= connect(&settings);
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Reaches the databases and ports the settings name (`--connect`); whether
/// any failed. The dictionaries and TLS files were opened already, with each
/// session.
fn connect(settings: &Settings) -> bool {
    println!();
    println!("connect:");
    let mut failed = false;
    for c in check_connections(settings) {
        failed |= c.result.is_err();
        println!("  {c}");
    }
    failed
}
