//! `cargo xtask <task>`: project automation that needs no extra tools.

use std::process::ExitCode;

mod bench_report;

fn main() -> ExitCode {
    let task = std::env::args().nth(1);
    match task.as_deref() {
        None | Some("help" | "--help" | "-h") => {
            println!("usage: cargo xtask <task>\n\ntasks:\n  help    this text");
            println!(
                "  bench-report [-- <criterion args>]\n          time ours beside the peers, count allocations, write benches/RESULTS.md"
            );
            ExitCode::SUCCESS
        }
        Some("bench-report") => {
            match bench_report::run(&std::env::args().skip(2).collect::<Vec<_>>()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("bench-report: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(other) => {
            eprintln!("unknown task `{other}`; run `cargo xtask help`");
            ExitCode::FAILURE
        }
    }
}
