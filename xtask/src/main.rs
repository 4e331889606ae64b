//! `cargo xtask <task>`: project automation that needs no extra tools.

use std::process::ExitCode;

fn main() -> ExitCode {
    let task = std::env::args().nth(1);
    match task.as_deref() {
        None | Some("help" | "--help" | "-h") => {
            println!("usage: cargo xtask <task>\n\ntasks:\n  help    this text");
            ExitCode::SUCCESS
        }
        Some(other) => {
            eprintln!("unknown task `{other}`; run `cargo xtask help`");
            ExitCode::FAILURE
        }
    }
}
