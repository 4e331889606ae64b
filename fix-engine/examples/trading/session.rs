//! A whole FIX session in one process, for the `session` example and its
//! test (`tests/engine/examples.rs`): the executor's engine (an acceptor on a port
//! the system picks) and a trade client's engine (an initiator to it), both
//! on fix44's generated tables, trading a list of orders until each is
//! filled, then logging out.

use std::error::Error;
use std::fmt;
use std::path::Path;
use std::time::Duration;

use fix_engine::Engine;
use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_session::{SessionId, State};
use fix44::enums::OrdStatus;
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout_at};

use super::{Executor, OrderLine, TradeClient};

/// The orders the example sends unless given a file of its own:
/// `samples/orders.txt`, built in so the example runs from any directory.
pub const SAMPLE_ORDERS: &str = include_str!("../../../samples/orders.txt");

/// The order lines of an orders file: one `buy|sell QTY SYMBOL [PRICE]` a
/// line; blank lines and `#` comments skipped. An unreadable line is an
/// error naming its line number, so no order is silently left out.
pub fn read_orders(text: &str) -> Result<Vec<OrderLine>, String> {
    let mut orders = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default().trim();
        if line.is_empty() {
            continue;
        }
        orders.push(line.parse().map_err(|e| format!("line {}: {e}", n + 1))?);
    }
    if orders.is_empty() {
        return Err("no orders".to_owned());
    }
    Ok(orders)
}

/// Why a session run did not fill every order.
#[derive(Debug)]
pub enum Unfilled {
    /// The client did not log on within the time allowed.
    NoLogon(Duration),
    /// Orders were still open when the time allowed ran out (their
    /// ClOrdIDs).
    TimedOut(Duration, Vec<String>),
    /// An order could not be sent: its ClOrdID and why.
    NotSent(String, String),
    /// The executor refused orders: their ClOrdIDs and its reasons.
    Rejected(Vec<(String, String)>),
}

impl fmt::Display for Unfilled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unfilled::NoLogon(t) => write!(f, "the client did not log on within {t:?}"),
            Unfilled::TimedOut(t, open) => write!(
                f,
                "timed out after {t:?} with {} order(s) not filled: {}",
                open.len(),
                open.join(", ")
            ),
            Unfilled::NotSent(id, why) => write!(f, "{id} could not be sent: {why}"),
            Unfilled::Rejected(rejected) => {
                f.write_str("the executor rejected ")?;
                for (i, (id, why)) in rejected.iter().enumerate() {
                    let sep = if i == 0 { "" } else { "; " };
                    write!(f, "{sep}{id} ({why})")?;
                }
                Ok(())
            }
        }
    }
}

impl Error for Unfilled {}

/// The executor's session as the trade client sees it, and the other way
/// round.
fn ids() -> (SessionId, SessionId) {
    (
        SessionId::new("FIX.4.4", "EXECUTOR", "CLIENT1"),
        SessionId::new("FIX.4.4", "CLIENT1", "EXECUTOR"),
    )
}

/// Runs the executor and a trade client in this process: the client logs
/// on over 127.0.0.1, sends `orders` (ClOrdIDs `ORD-1`, `ORD-2`, …), prints
/// each order and each ExecutionReport it gets back through `say`, and
/// both sides log out, all within `time`. Stores and logs are written
/// under `dir` (`executor/` and `client/`). `Ok` once every order is filled;
/// [`Unfilled`] when one is rejected or time runs out (both sides logged
/// out all the same).
pub async fn run(
    orders: &[OrderLine],
    dir: &Path,
    time: Duration,
    mut say: impl FnMut(&str),
) -> Result<(), Box<dyn Error>> {
    let deadline = Instant::now() + time;
    let (executor_id, client_id) = ids();
    // The executor on port 0: the system picks a free port, and the client
    // connects to the one the engine bound (no port to collide with another
    // program's, or with a second run's).
    let executor_settings = SessionBuilder::acceptor(executor_id.clone())
        .socket_accept_address("127.0.0.1")
        .socket_accept_port(0)
        .schedule(Schedule::non_stop())
        .file_store_path(dir.join("executor/store"))
        .file_log_path(dir.join("executor/log"))
        .build()?;
    // fix44's generated tables validate every message: no dictionary file
    // to find at run time.
    let executor = Engine::start(
        Settings::new([executor_settings])?,
        &fix44::DICTIONARY,
        |_, _| Executor::new(false),
    )
    .await?;
    let addr = *executor
        .local_addrs()
        .first()
        .ok_or("the executor bound no listener")?;
    say(&format!("executor: {executor_id} listening on {addr}"));

    let client_settings = SessionBuilder::initiator(client_id.clone())
        .heart_bt_int(30)
        .socket_connect(addr.ip().to_string(), addr.port())
        .reconnect_interval(Duration::from_secs(1))
        .schedule(Schedule::non_stop())
        .file_store_path(dir.join("client/store"))
        .file_log_path(dir.join("client/log"))
        .build()?;
    let (reports_tx, mut reports) = mpsc::unbounded_channel();
    // A fix44::Handler as the application: each ExecutionReport to its method.
    let client = Engine::start(
        Settings::new([client_settings])?,
        &fix44::DICTIONARY,
        move |_, _| {
            fix44::Cracker(TradeClient {
                reports: reports_tx.clone(),
            })
        },
    )
    .await?;
    let handle = client
        .session(&client_id)
        .ok_or("the client's session is not running")?;

    say(&format!("client: {client_id} connecting to {addr}"));
    let traded = trade(orders, &handle, &mut reports, deadline, time, &mut say).await;

    // Both sides log out whatever happened: the client's shutdown sends its
    // Logout and waits for the executor's answer, then the executor stops
    // listening. Each flushes its store and log.
    say("client: logging out");
    client.shutdown(Duration::from_secs(5)).await?;
    say("client: stopped");
    executor.shutdown(Duration::from_secs(5)).await?;
    say("executor: stopped");
    traded.map_err(Into::into)
}

/// The client's half: logs on, sends every order, and waits for each to be
/// done with (filled, or rejected) before `deadline`.
async fn trade(
    orders: &[OrderLine],
    handle: &fix_engine::SessionHandle,
    reports: &mut mpsc::UnboundedReceiver<super::Report>,
    deadline: Instant,
    time: Duration,
    say: &mut impl FnMut(&str),
) -> Result<(), Unfilled> {
    timeout_at(deadline, handle.wait_for(State::LoggedOn))
        .await
        .map_err(|_| Unfilled::NoLogon(time))?;
    say("client: logged on");

    let mut open: Vec<String> = Vec::new();
    for (n, order) in orders.iter().enumerate() {
        let cl_ord_id = format!("ORD-{}", n + 1);
        let not_sent = |e: &dyn fmt::Display| Unfilled::NotSent(cl_ord_id.clone(), e.to_string());
        let message = order.order(&cl_ord_id).map_err(|e| not_sent(&e))?;
        // Encoded straight into the session's queue; the engine sends it.
        handle.send_message(&message).map_err(|e| not_sent(&e))?;
        say(&format!("client: sent {cl_ord_id}: {order}"));
        open.push(cl_ord_id);
    }

    let mut rejected = Vec::new();

    while !open.is_empty() {
        let Ok(Some(report)) = timeout_at(deadline, reports.recv()).await else {
            return Err(Unfilled::TimedOut(time, open));
        };
        say(&format!("client: report {report}"));
        if !report.is_final() {
            continue;
        }
        open.retain(|id| *id != report.cl_ord_id);
        if report.ord_status != OrdStatus::Filled {
            let why = report
                .text
                .clone()
                .unwrap_or_else(|| format!("{:?}", report.ord_status));
            rejected.push((report.cl_ord_id, why));
        }
    }
    if rejected.is_empty() {
        say(&format!("client: all {} orders filled", orders.len()));
        Ok(())
    } else {
        Err(Unfilled::Rejected(rejected))
    }
}
