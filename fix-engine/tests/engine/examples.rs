//! The `executor` and `tradeclient` examples end to end, on their own code
//! (`examples/trading`) and on the sample settings files as they are, moved
//! to a free port and a temporary directory: the client's order gets the
//! executor's acknowledgement and fill, and both logs hold the exchange.
//! And the `session` example (README's first command), both in one process,
//! on its sample orders: every order filled, both sides logged out.

#[path = "../../examples/trading/mod.rs"]
mod trading;

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::common::{log_events, log_messages, port_of};
use fix_core::value::Decimal;
use fix_engine::config::{SessionSettings, Settings, Transport};
use fix_engine::{Engine, FileDictionaries};
use fix_session::State;
use fix_test_support::temp_dir::TestDir;
use fix44::enums::{ExecType, OrdStatus};
use tokio::sync::mpsc;
use trading::session::{SAMPLE_ORDERS, Unfilled, read_orders};
use trading::{Executor, OrderLine, TradeClient};

const WAIT: Duration = Duration::from_secs(10);

/// The sample's first session, on `port`, its store and log in `dir`, its
/// dictionary read from the repository root (the sample's paths are relative
/// to it).
fn sample(name: &str, port: u16, dir: &Path) -> Settings {
    let root = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let settings = Settings::from_path(root.join("samples").join(name)).unwrap();
    let mut s: SessionSettings = settings.sessions()[0].clone();
    match &mut s.transport {
        Transport::Acceptor(a) => a.port = port,
        Transport::Initiator(i) => {
            i.endpoints.truncate(1);
            i.endpoints[0].port = port;
        }
    }
    let dict = s.dictionaries.data_dictionary.as_mut().unwrap();
    assert_eq!(dict, Path::new("spec/FIX44.xml"));
    *dict = root.join(&*dict);
    assert!(
        s.store_path
            .as_ref()
            .unwrap()
            .starts_with("target/sessions")
    );
    assert!(s.log_path.as_ref().unwrap().starts_with("target/sessions"));
    s.store_path = Some(dir.join("store"));
    s.log_path = Some(dir.join("log"));
    Settings::new([s]).unwrap()
}

#[tokio::test]
async fn the_trade_client_s_order_gets_the_executor_s_ack_and_fill() {
    let (exec_dir, client_dir) = (
        TestDir::new("example-executor"),
        TestDir::new("example-client"),
    );
    // The executor on port 0; the client to the port its engine bound.
    let executor = Engine::start(
        sample("executor.cfg", 0, &exec_dir),
        FileDictionaries::new(),
        |_, _| Executor::new(false),
    )
    .await
    .unwrap();
    let port = port_of(&executor);
    let (tx, mut reports) = mpsc::unbounded_channel();
    let client_settings = sample("tradeclient.cfg", port, &client_dir);
    let id = client_settings.sessions()[0].session.id.clone();
    let client = Engine::start(client_settings, FileDictionaries::new(), move |_, _| {
        fix44::Cracker(TradeClient {
            reports: tx.clone(),
        })
    })
    .await
    .unwrap();
    let handle = client.session(&id).unwrap();
    tokio::time::timeout(WAIT, handle.wait_for(State::LoggedOn))
        .await
        .unwrap();

    let order: OrderLine = "buy 100 MSFT 25.5".parse().unwrap();
    handle.send_message(&order.order("T-1").unwrap()).unwrap();
    let mut next = async || {
        tokio::time::timeout(WAIT, reports.recv())
            .await
            .unwrap()
            .unwrap()
    };
    let ack = next().await;
    assert_eq!(
        (ack.cl_ord_id.as_str(), ack.exec_type, ack.ord_status),
        ("T-1", ExecType::New, OrdStatus::New)
    );
    assert_eq!(ack.leaves_qty, Decimal::parse(b"100").unwrap());
    assert!(!ack.is_final());
    let fill = next().await;
    let (qty, px) = (
        Decimal::parse(b"100").unwrap(),
        Decimal::parse(b"25.5").unwrap(),
    );
    assert_eq!(
        (fill.cl_ord_id.as_str(), fill.exec_type, fill.ord_status),
        ("T-1", ExecType::Trade, OrdStatus::Filled)
    );
    assert_eq!(fill.last, Some((qty, px)));
    assert_eq!(
        (fill.cum_qty, fill.leaves_qty, fill.avg_px),
        (qty, Decimal::ZERO, px)
    );
    assert!(fill.is_final());

    // A market order is refused with a Rejected report.
    let market: OrderLine = "sell 5 IBM".parse().unwrap();
    handle.send_message(&market.order("T-2").unwrap()).unwrap();
    let rejected = next().await;
    assert_eq!(
        (rejected.cl_ord_id.as_str(), rejected.ord_status),
        ("T-2", OrdStatus::Rejected)
    );
    assert!(rejected.text.is_some() && rejected.is_final());

    client.shutdown(WAIT).await.unwrap();
    executor.shutdown(WAIT).await.unwrap();
    // Logon, two orders, Logout from the client; Logon, three reports, Logout
    // from the executor: the same in both logs.
    let client_log =
        log_messages(&client_dir.join("log/FIX.4.4-CLIENT1-EXECUTOR.messages.current.log"));
    let exec_log =
        log_messages(&exec_dir.join("log/FIX.4.4-EXECUTOR-CLIENT1.messages.current.log"));
    assert_eq!(client_log.len(), 9);
    assert_eq!(client_log, exec_log);
    let events = log_events(&client_dir.join("log/FIX.4.4-CLIENT1-EXECUTOR.event.current.log"));
    assert!(
        events.iter().any(|e| e == "Received logon response"),
        "{events:?}"
    );
}

#[test]
fn order_lines_are_read_or_refused_with_the_reason() {
    let limit: OrderLine = "buy 100 MSFT 25.5".parse().unwrap();
    assert_eq!(limit.to_string(), "buy 100 MSFT @ 25.5");
    let market: OrderLine = " S 7 IBM ".parse().unwrap();
    assert_eq!(market.to_string(), "sell 7 IBM at market");
    for (line, why) in [
        ("buy 100", "expected `buy|sell QTY SYMBOL [PRICE]`"),
        ("hold 1 X", "expected `buy|sell QTY SYMBOL [PRICE]`"),
        ("buy ten X", "quantity \"ten\""),
        ("buy 0 X", "the quantity must be above 0"),
        ("sell 1 X 1.2.3", "price \"1.2.3\""),
    ] {
        let err = line.parse::<OrderLine>().unwrap_err();
        assert!(err.contains(why), "{line}: {err}");
    }
}

/// The `session` example's run on `orders`: what it printed, and how it
/// ended.
async fn session_example(
    orders: &[OrderLine],
    dir: &Path,
    time: Duration,
) -> (Vec<String>, Result<(), Box<dyn std::error::Error>>) {
    let mut lines = Vec::new();
    let result = trading::session::run(orders, dir, time, |l| lines.push(l.to_owned())).await;
    (lines, result)
}

#[tokio::test]
async fn the_session_example_fills_every_sample_order_and_logs_both_sides_out() {
    let dir = TestDir::new("example-session");
    let orders = read_orders(SAMPLE_ORDERS).unwrap();
    assert!(orders.len() >= 3, "{orders:?}");
    let (lines, result) = session_example(&orders, &dir, WAIT).await;
    let output = lines.join("\n");
    result.unwrap_or_else(|e| panic!("{e}\n{output}"));
    // Each order printed as sent, then named in a report that fills it
    // whole at its price.
    for (n, order) in orders.iter().enumerate() {
        let id = format!("ORD-{}", n + 1);
        let sent = format!("client: sent {id}: {order}");
        assert!(lines.contains(&sent), "no {sent:?} in\n{output}");
        let price = order.price.unwrap();
        let filled = format!(
            "client: report {id}: Trade (Filled), {} @ {price}; cum {} leaves 0 avg {price}",
            order.qty, order.qty
        );
        assert!(lines.contains(&filled), "no {filled:?} in\n{output}");
    }
    let last = format!("client: all {} orders filled", orders.len());
    assert!(lines.contains(&last), "{output}");
    assert_eq!(
        lines[lines.len() - 3..],
        [
            "client: logging out",
            "client: stopped",
            "executor: stopped"
        ],
        "{output}"
    );
    // Logged out both ways: each side's log ends with the client's Logout
    // and the executor's answer. Both logs hold the same messages (in its
    // own order each: the orders cross the reports on the wire).
    let client_log =
        log_messages(&dir.join("client/log/FIX.4.4-CLIENT1-EXECUTOR.messages.current.log"));
    let exec_log =
        log_messages(&dir.join("executor/log/FIX.4.4-EXECUTOR-CLIENT1.messages.current.log"));
    let sorted = |log: &[Vec<u8>]| {
        let mut log = log.to_vec();
        log.sort();
        log
    };
    assert!(sorted(&client_log) == sorted(&exec_log));
    assert!(client_log[client_log.len() - 2..] == exec_log[exec_log.len() - 2..]);
    let logouts: Vec<bool> = client_log
        .iter()
        .map(|m| m.windows(6).any(|w| w == b"\x0135=5\x01"))
        .collect();
    // Logon both ways, each order and its two reports, Logout both ways.
    assert_eq!(client_log.len(), 2 + 3 * orders.len() + 2);
    assert_eq!(logouts.iter().filter(|&&l| l).count(), 2);
    assert!(logouts[logouts.len() - 2..].iter().all(|&l| l));
}

#[tokio::test]
async fn the_session_example_says_which_order_was_not_filled() {
    let dir = TestDir::new("example-session-market");
    // The executor rejects a market order: the run is an error naming it,
    // after both sides logged out all the same.
    let orders = read_orders("buy 100 MSFT 25.5\n# no price:\nsell 5 IBM\n").unwrap();
    let (lines, result) = session_example(&orders, &dir, WAIT).await;
    let err = result.unwrap_err();
    assert!(
        matches!(err.downcast_ref(), Some(Unfilled::Rejected(r)) if r.len() == 1 && r[0].0 == "ORD-2"),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the executor rejected ORD-2 (the executor fills limit orders with a quantity only)"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("client: report ORD-1: Trade (Filled)"))
    );
    assert_eq!(lines.last().unwrap(), "executor: stopped");
}

#[tokio::test]
async fn the_session_example_says_when_its_time_ran_out() {
    let dir = TestDir::new("example-session-time");
    let orders = read_orders(SAMPLE_ORDERS).unwrap();
    // No time at all: the client cannot have logged on when it first looks.
    let (lines, result) = session_example(&orders, &dir, Duration::ZERO).await;
    let err = result.unwrap_err();
    assert!(
        matches!(err.downcast_ref(), Some(Unfilled::NoLogon(_))),
        "{err:?}"
    );
    assert_eq!(err.to_string(), "the client did not log on within 0ns");
    assert!(
        !lines.iter().any(|l| l.starts_with("client: sent")),
        "{lines:?}"
    );
    assert_eq!(lines.last().unwrap(), "executor: stopped");
}

#[test]
fn orders_files_are_read_with_comments_or_refused_by_line() {
    let orders = read_orders("# a comment\n\nbuy 1 X 2 # trailing\n").unwrap();
    assert_eq!(orders, ["buy 1 X 2".parse::<OrderLine>().unwrap()]);
    let err = read_orders("buy 1 X 2\nhold 1 X\n").unwrap_err();
    assert!(err.starts_with("line 2: "), "{err}");
    assert_eq!(read_orders("# nothing\n").unwrap_err(), "no orders");
}
