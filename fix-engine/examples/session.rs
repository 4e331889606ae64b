//! A FIX session in one process: the executor (an acceptor that acknowledges
//! and fills every limit order) and a trade client (an initiator) over
//! 127.0.0.1. The client logs on, sends the orders of `samples/orders.txt`,
//! prints each order and each ExecutionReport it gets back, and both sides
//! log out once every order is filled.
//!
//! ```sh
//! cargo run --release -p fix-engine --example session                    # samples/orders.txt
//! cargo run --release -p fix-engine --example session -- my-orders.txt   # buy|sell QTY SYMBOL PRICE, one a line
//! ```
//!
//! Exits 0 when every order is filled; non-zero, saying why, when one is
//! rejected (a market order: no price) or the session does not finish within
//! ten seconds. The executor listens on a port the system picks; the stores
//! and QuickFIX-format logs of both sides are written in a directory of the
//! run's own under the system's temporary directory, removed when every
//! order is filled and kept (its path printed) otherwise. The two sides as
//! separate programs are the `executor` and `tradeclient` examples.

#[path = "trading/mod.rs"]
mod trading;

use std::error::Error;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use trading::session::{SAMPLE_ORDERS, read_orders, run};

/// How long logon, every order's fill and both logouts may take together.
const TIME_ALLOWED: Duration = Duration::from_secs(10);

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    let dir = std::env::temp_dir().join(format!("fix-session-example-{}", std::process::id()));
    match session(&dir).await {
        Ok(()) => {
            // A fresh directory a run: nothing in it is wanted once every
            // order is filled.
            let _ = std::fs::remove_dir_all(&dir);
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("session: {e}");
            if dir.exists() {
                eprintln!("session: stores and logs kept in {}", dir.display());
            }
            ExitCode::FAILURE
        }
    }
}

async fn session(dir: &std::path::Path) -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let (source, text) = match (args.next(), args.next()) {
        (None, _) => ("samples/orders.txt".to_owned(), SAMPLE_ORDERS.to_owned()),
        (Some(path), None) if !path.starts_with('-') => {
            let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
            (path, text)
        }
        _ => return Err("usage: session [ORDERS_FILE]".into()),
    };
    let orders = read_orders(&text).map_err(|e| format!("{source}: {e}"))?;
    // Left by an earlier process of the same id: its stores would carry
    // sequence numbers this run knows nothing of.
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let dir = PathBuf::from(dir);
    println!("session: {} orders from {source}", orders.len());
    run(&orders, &dir, TIME_ALLOWED, |line| println!("{line}")).await
}
