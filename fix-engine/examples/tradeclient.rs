//! An initiator that sends orders and prints the ExecutionReports it gets
//! back, as QuickFIX's tradeclient example does.
//!
//! ```sh
//! cargo run --release -p fix-engine --example tradeclient                   # three sample orders
//! echo "buy 100 MSFT 25.5" | cargo run --release -p fix-engine --example tradeclient -- --stdin
//! cargo run --release -p fix-engine --example tradeclient -- path/to/tradeclient.cfg --stdin
//! ```
//!
//! Orders are lines `buy|sell QTY SYMBOL [PRICE]` (no price: a market order).
//! The client logs on (reconnecting every ReconnectInterval until the
//! counterparty answers), sends the orders, waits until each is filled or
//! rejected, and logs out. Ctrl-C logs out at once, waits for the answer and
//! flushes the store and log. Run from the repository root, with
//! `--example executor` in another terminal.

#[path = "trading/mod.rs"]
mod trading;

use std::error::Error;
use std::io::BufRead;
use std::process::ExitCode;
use std::time::{Duration, SystemTime};

use fix_engine::config::Settings;
use fix_engine::{Engine, FileDictionaries};
use fix_session::State;
use tokio::sync::mpsc;
use trading::{OrderLine, TradeClient};

/// What the client sends without `--stdin`.
const SAMPLE_ORDERS: [&str; 3] = ["buy 100 MSFT 25.5", "sell 50 IBM 130.25", "buy 10 AAPL"];

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tradeclient: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn Error>> {
    let mut path = "samples/tradeclient.cfg".to_owned();
    let mut stdin = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--stdin" => stdin = true,
            a if a.starts_with('-') => {
                return Err(
                    format!("unknown option {a}; usage: tradeclient [SETTINGS] [--stdin]").into(),
                );
            }
            a => path = a.to_owned(),
        }
    }
    let settings = Settings::from_path(&path)?;
    let session = settings
        .sessions()
        .first()
        .ok_or_else(|| format!("{path}: no session"))?;
    let id = session.session.id.clone();
    println!("tradeclient: session {id}: connecting; Ctrl-C to stop");
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    // A fix44::Handler as the application: each ExecutionReport to its method.
    let engine = Engine::start(settings, FileDictionaries::new(), move |_, _| {
        fix44::Cracker(TradeClient {
            reports: reports_tx.clone(),
        })
    })
    .await?;
    let handle = engine.session(&id).ok_or("the session is not running")?;
    let stop = tokio::signal::ctrl_c();
    tokio::pin!(stop);

    tokio::select! {
        () = handle.wait_for(State::LoggedOn) => println!("tradeclient: logged on"),
        _ = &mut stop => return shutdown(engine).await,
    }

    let (lines_tx, mut lines) = mpsc::unbounded_channel();
    if stdin {
        println!("tradeclient: orders from stdin, one a line: buy|sell QTY SYMBOL [PRICE]");
        // Blocking reads on a thread of their own: the runtime goes on.
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines() {
                let Ok(line) = line else { break };
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
    } else {
        for order in SAMPLE_ORDERS {
            lines_tx.send(order.to_owned())?;
        }
        drop(lines_tx);
    }

    // ClOrdIDs unique across runs: the start time (milliseconds), then a count.
    let run = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let (mut sent, mut open, mut input_done) = (0u64, 0u64, false);
    while !(input_done && open == 0) {
        tokio::select! {
            line = lines.recv(), if !input_done => match line {
                Some(line) if line.trim().is_empty() => {}
                Some(line) => match line.parse::<OrderLine>() {
                    Ok(order) => {
                        sent += 1;
                        let cl_ord_id = format!("CL-{run}-{sent}");
                        match handle.send_message(&order.order(&cl_ord_id)?) {
                            Ok(()) => {
                                open += 1;
                                println!("tradeclient: sent {cl_ord_id}: {order}");
                            }
                            Err(e) => println!("tradeclient: {cl_ord_id} not sent: {e}"),
                        }
                    }
                    Err(e) => println!("tradeclient: {e}"),
                },
                None => input_done = true,
            },
            report = reports.recv() => {
                let Some(report) = report else { break };
                println!("tradeclient: report {report}");
                if report.is_final() {
                    open = open.saturating_sub(1);
                }
            }
            _ = &mut stop => break,
        }
    }
    shutdown(engine).await
}

async fn shutdown<D>(engine: Engine<D>) -> Result<(), Box<dyn Error>>
where
    D: fix_core::validate::Schema + Send + Sync + 'static,
{
    println!("tradeclient: logging out");
    engine.shutdown(Duration::from_secs(5)).await?;
    println!("tradeclient: stopped");
    Ok(())
}
