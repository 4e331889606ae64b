//! `fixadmin SOCKET [COMMAND ...]`: the client of an engine's admin socket
//! (`AdminSocket`, `EngineOptions::admin_socket`; docs/operations.md), so
//! that an operator needs no `socat`. With a command, sends it as one line and
//! prints the answer; without, sends each line of standard input and prints
//! each answer, until end of input. Unix only: the admin socket is a Unix
//! domain socket.
//!
//! ```text
//! $ fixadmin /run/fix/admin.sock sessions
//! FIX.4.4-EXECUTOR-CLIENT1 FIX.4.4-EXECUTOR-CLIENT2
//! $ fixadmin /run/fix/admin.sock
//! status FIX.4.4-EXECUTOR-CLIENT1
//! FIX.4.4-EXECUTOR-CLIENT1 state=LoggedOn connected=yes held=no next-sender=12 next-target=7
//! ```

#[cfg(unix)]
mod client;

use std::ffi::OsString;
use std::process::ExitCode;

const USAGE: &str = "usage: fixadmin SOCKET [COMMAND ...]

Sends commands to a running engine's admin socket (the AdminSocket setting)
and prints its answers. With a COMMAND (its words joined by spaces: fixadmin
/run/fix/admin.sock status FIX.4.4-EXEC-CLIENT1), sends that one; without,
sends each line of standard input. `help` lists the engine's commands.
Exit status: 0 every answer good, 1 an answer was an error, 2 usage,
3 the socket could not be reached or the connection failed.";

/// An answer was `error: …`.
#[cfg(unix)]
const REFUSED: u8 = 1;
const USAGE_ERROR: u8 = 2;
/// The socket could not be reached, or the connection failed.
#[cfg(unix)]
const UNREACHED: u8 = 3;

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    match args.first().and_then(|a| a.to_str()) {
        None => usage(),
        Some("-h" | "--help") => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Some(_) => run(&args),
    }
}

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(USAGE_ERROR)
}

/// The socket's path, then the command's words, if any.
#[cfg(unix)]
fn run(args: &[OsString]) -> ExitCode {
    let Some((socket, words)) = args.split_first() else {
        return usage();
    };
    let mut command = Vec::with_capacity(words.len());
    for word in words {
        match word.to_str() {
            Some(word) => command.push(word),
            None => {
                eprintln!("fixadmin: {word:?} is not UTF-8: the engine reads commands as UTF-8");
                return ExitCode::from(USAGE_ERROR);
            }
        }
    }
    let mut admin = match client::Admin::connect(std::path::Path::new(socket)) {
        Ok(admin) => admin,
        Err(e) => return unreached(&e),
    };
    if command.is_empty() {
        each_line(&mut admin).unwrap_or_else(|code| code)
    } else {
        one(&mut admin, &command.join(" "))
    }
}

#[cfg(not(unix))]
fn run(_: &[OsString]) -> ExitCode {
    eprintln!(
        "fixadmin: the engine's admin socket is a Unix domain socket, which this system lacks"
    );
    ExitCode::from(USAGE_ERROR)
}

/// Asks `command`, prints the answer; the exit status says how it went.
#[cfg(unix)]
fn one(admin: &mut client::Admin, command: &str) -> ExitCode {
    match admin.ask(command) {
        Ok(answer) => {
            if let Err(code) = print(&answer) {
                return code;
            }
            if refused(&answer) {
                ExitCode::from(REFUSED)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(e) => unreached(&e),
    }
}

/// Asks each non-blank line of standard input, printing each answer as it
/// comes (no prompt: typed, the session reads as docs/operations.md shows
/// it, the commands and the answers alternating).
#[cfg(unix)]
fn each_line(admin: &mut client::Admin) -> Result<ExitCode, ExitCode> {
    use std::io::BufRead;

    let mut any_refused = false;
    for line in std::io::stdin().lock().lines() {
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                eprintln!("fixadmin: standard input: {e}");
                return Err(ExitCode::from(USAGE_ERROR));
            }
        };
        // An empty line is no command: the engine would refuse it.
        if line.trim().is_empty() {
            continue;
        }
        match admin.ask(line.trim_end_matches('\r')) {
            Ok(answer) => {
                any_refused |= refused(&answer);
                print(&answer)?;
            }
            Err(e) => return Err(unreached(&e)),
        }
    }
    Ok(if any_refused {
        ExitCode::from(REFUSED)
    } else {
        ExitCode::SUCCESS
    })
}

/// Prints an answer; standard output closed (a pager quit) ends the run
/// with a message, not a panic.
#[cfg(unix)]
fn print(answer: &str) -> Result<(), ExitCode> {
    use std::io::Write;

    let mut out = std::io::stdout().lock();
    writeln!(out, "{answer}")
        .and_then(|()| out.flush())
        .map_err(|e| {
            eprintln!("fixadmin: standard output: {e}");
            ExitCode::from(UNREACHED)
        })
}

/// Whether the engine refused the command: its answer is `error: …`.
#[cfg(unix)]
fn refused(answer: &str) -> bool {
    answer.starts_with("error: ")
}

#[cfg(unix)]
fn unreached(e: &client::OperatorError) -> ExitCode {
    eprintln!("fixadmin: {e}");
    ExitCode::from(UNREACHED)
}
