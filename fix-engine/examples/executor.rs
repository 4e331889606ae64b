//! An acceptor that executes every order it gets, as QuickFIX's executor
//! example does: each NewOrderSingle is answered with an ExecutionReport
//! acknowledging it (New), then one filling it whole at its limit price
//! (Filled); an order that is not a limit order is rejected.
//!
//! ```sh
//! cargo run --release -p fix-engine --example executor                           # samples/executor.cfg
//! cargo run --release -p fix-engine --example executor -- path/to/executor.cfg
//! ```
//!
//! Run from the repository root (the sample's paths are relative to it).
//! Ctrl-C logs every session out, waits for the answers and flushes the
//! stores and logs. Then try `--example tradeclient` in another terminal.

#[path = "trading/mod.rs"]
mod trading;

use std::error::Error;
use std::process::ExitCode;
use std::time::Duration;

use fix_engine::config::Settings;
use fix_engine::{Engine, FileDictionaries};
use trading::Executor;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("executor: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn Error>> {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "samples/executor.cfg".to_owned());
    let settings = Settings::from_path(&path)?;
    for s in settings.sessions() {
        let log = s.log_path.as_ref().map_or_else(
            || "no log".to_owned(),
            |p| format!("log in {}", p.display()),
        );
        println!("executor: session {} ({log})", s.session.id);
    }
    let engine = Engine::start(settings, FileDictionaries::new(), |_, _| {
        Executor::new(true)
    })
    .await?;
    for addr in engine.local_addrs() {
        println!("executor: listening on {addr}; Ctrl-C to stop");
    }
    tokio::signal::ctrl_c().await?;
    println!("executor: stopping: Logout to every session");
    engine.shutdown(Duration::from_secs(5)).await?;
    println!("executor: stopped");
    Ok(())
}
