//! The executor example with its sessions' metrics exposed for Prometheus:
//! the engine reports through the `metrics` facade, and this application
//! installs `metrics-exporter-prometheus`, whose HTTP listener serves them at
//! `/metrics` (the library opens no port itself).
//!
//! ```sh
//! cargo run --release -p fix-engine --example metrics                        # samples/executor.cfg, 127.0.0.1:9898
//! cargo run --release -p fix-engine --example metrics -- path/to/executor.cfg 127.0.0.1:9000
//! curl -s http://127.0.0.1:9898/metrics | grep ^fix_
//! ```
//!
//! Then run `--example tradeclient` in another terminal and watch the
//! counters move. The names are listed in docs/operations.md.

#[path = "trading/mod.rs"]
mod trading;

use std::error::Error;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use fix_engine::config::Settings;
use fix_engine::{Engine, FileDictionaries};
use metrics_exporter_prometheus::PrometheusBuilder;
use trading::Executor;

#[tokio::main(flavor = "current_thread")]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("metrics: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .unwrap_or_else(|| "samples/executor.cfg".to_owned());
    let listen: SocketAddr = args
        .next()
        .unwrap_or_else(|| "127.0.0.1:9898".to_owned())
        .parse()?;
    // Installed before the engine starts: its sessions register their
    // metrics with the recorder installed then.
    PrometheusBuilder::new()
        .with_http_listener(listen)
        .install()?;
    println!("metrics: scrape http://{listen}/metrics");
    let settings = Settings::from_path(&path)?;
    let engine = Engine::start(settings, FileDictionaries::new(), |_, _| {
        Executor::new(true)
    })
    .await?;
    for addr in engine.local_addrs() {
        println!("metrics: the executor listens on {addr}; Ctrl-C to stop");
    }
    tokio::signal::ctrl_c().await?;
    engine.shutdown(Duration::from_secs(5)).await?;
    Ok(())
}
