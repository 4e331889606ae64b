//! Failover with QuickFIX C++ as the counterparty (issue 38): two of our
//! acceptors on one PostgreSQL store (lease 3 s), A active and B standby, in
//! child processes; QuickFIX's initiator connects to A (through a relay the
//! test holds, so that A restarted on a new port is reached at the same
//! one) and to B as its second endpoint (`SocketConnectPort1`), with
//! ReconnectInterval=1 and HeartBtInt=30, as issue 38's layout. Orders go at
//! 500/s; A is SIGKILLed at 3 s and started again 1 s later.
//!
//! Measured: each order's wait from its due time to its first report, in
//! this run and in one without the kill. Asserted (issue 38's targets): the
//! longest wait at most lease + ReconnectInterval + 1 s, the median at most
//! twice the run's without a failover, every order answered once.
//!
//! Two more scripts on the same layout, each order answered once and the
//! longest wait bounded by each takeover's lease + ReconnectInterval + 1 s:
//! - **A frozen**: at 3 s A is stopped (SIGSTOP) and its connection lost
//!   (the relay cuts it, as a network does when a machine stalls); B takes
//!   the session once A's lease has run out; at 8 s A goes on (SIGCONT),
//!   finds its lease gone and must send nothing more (its reports would be
//!   doubles, or numbers B has used).
//! - **Failback**: A killed at 3 s and started again 1 s later as the
//!   standby; B, which took the session meanwhile, killed at 8 s; A takes it
//!   back.
//! - **Server restart**: at 3 s the PostgreSQL server stops at once (as a
//!   crash: what was not committed is gone) and starts again; the engine
//!   holding the session loses its lease with its connection, ends the
//!   session's connection with the batch the crash failed, and one of the
//!   two takes the session again once the server is back.
//!
//! **The mirror**: the same scripts with our engines as the initiators (A
//! active, B its standby, both connecting through the relay to QuickFIX's
//! acceptor, ReconnectInterval=1) and QuickFIX's acceptor sending the
//! orders at 500/s; each order answered once, the longest wait bounded as
//! above. A standby initiator connects, finds the lease held and closes the
//! connection before its Logon, each ReconnectInterval, until it can take
//! the session.
//!
//! In the freeze, failback and server-restart scripts QuickFIX's initiator
//! sends NextExpectedMsgSeqNum in its Logons (`SendNextExpectedMsgSeqNum=Y`):
//! a Logon to the standby while the active engine's lease runs, holding
//! every message stored, is answered with a Logout that names why (under the
//! number the standby takes from the active engine), which QuickFIX counts
//! and logs; the failback asserts at least one.
//!
//! After every run, QuickFIX's numbers (its file store's `.seqnums`) and
//! ours (the session's row) must agree: QuickFIX's next sender number is our
//! next target number, and the other way round.
//!
//! The test's server compiles every statement with JIT (`jit_above_cost` 0
//! for its database), as a server does whose statistics make the store's
//! lookups look costly: before the store turned JIT off for its connections,
//! each resend read took about 300 ms there and a resend of a thousand
//! reports held QuickFIX for 10 s (this run, or 5 of 14 runs with the
//! server's defaults).

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

use fix_engine::Engine;
use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_session::SessionId;
use fix_test_support::pg::PgServer;

use crate::book::Book;
use crate::child::{self, Child};
use crate::ours::Trader;
use crate::quickfix_cpp::{self, Role};
use crate::{TestDir, WAIT, serial};

const NODE: &str = "FIX_INTEROP_FAILOVER_NODE";
const CONNECTION: &str = "FIX_INTEROP_FAILOVER_CONNECTION";
const DIR: &str = "FIX_INTEROP_FAILOVER_DIR";
const LEASE: Duration = Duration::from_secs(3);

const SENDER: &str = "FIX_INTEROP_FAILOVER_SENDER";
/// Set for an initiator: the port it connects to.
const CONNECT: &str = "FIX_INTEROP_FAILOVER_CONNECT";
const TARGET: &str = "FIX_INTEROP_FAILOVER_TARGET";

#[test]
fn failover_child() {
    let (Ok(node), Ok(connection), Ok(dir), Ok(sender), Ok(target)) = (
        std::env::var(NODE),
        std::env::var(CONNECTION),
        std::env::var(DIR),
        std::env::var(SENDER),
        std::env::var(TARGET),
    ) else {
        return;
    };
    let id = SessionId::new("FIX.4.4", &sender, &target);
    if let Err(e) = run_child(&id, &node, &connection, Path::new(&dir)) {
        eprintln!("interop failover child: {e}");
        std::process::exit(1);
    }
}

fn run_child(id: &SessionId, node: &str, connection: &str, dir: &Path) -> Result<(), String> {
    let session = match std::env::var(CONNECT).ok().and_then(|p| p.parse().ok()) {
        Some(port) => SessionBuilder::initiator(id.clone())
            .socket_connect("127.0.0.1", port)
            .heart_bt_int(30)
            .reconnect_interval(RECONNECT),
        None => SessionBuilder::acceptor(id.clone())
            .socket_accept_address("127.0.0.1")
            .socket_accept_port(0),
    };
    let session = session
        .schedule(Schedule::non_stop())
        .postgres_store(format!("{connection} application_name={node}"))
        .postgres_store_lease(LEASE)
        .postgres_store_node(node)
        .file_log_path(dir.join("log"))
        .build()
        .map_err(|e| format!("settings: {e}"))?;
    let settings = Settings::new([session]).map_err(|e| format!("settings: {e}"))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("tokio runtime: {e}"))?;
    runtime.block_on(async {
        let book = Arc::new(Book::new("ours"));
        let engine = Engine::start(settings, &fix44::DICTIONARY, move |_, _| {
            Trader::new(book.clone())
        })
        .await
        .map_err(|e| format!("start: {e}"))?;
        child::serve(engine, Duration::from_secs(300)).await
    })
}

/// Where our engines are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// Our acceptors, QuickFIX's initiator (issue 38's layout).
    Acceptors,
    /// Our initiators, QuickFIX's acceptor (the mirror), connecting to the
    /// relay's port.
    Initiators(u16),
}

/// One of our engines, `node`, serving session `ours`-`qf` as `layout` says.
fn start(
    pg: &PgServer,
    node: &str,
    (ours, qf): (&str, &str),
    layout: Layout,
    dir: &Path,
) -> Result<Child, String> {
    let mut env = vec![
        (NODE, node.to_owned()),
        (CONNECTION, pg.connection_string()),
        (DIR, dir.display().to_string()),
        (SENDER, ours.to_owned()),
        (TARGET, qf.to_owned()),
    ];
    if let Layout::Initiators(port) = layout {
        env.push((CONNECT, port.to_string()));
    }
    Child::start("failover::failover_child", &env)
}

#[test]
fn a_quickfix_initiator_carried_across_a_restart_of_the_active_engine() {
    if std::env::var(NODE).is_ok() {
        return;
    }
    let _one = serial();
    let Some(pg) = PgServer::start_or_skip("interop-failover") else {
        return;
    };
    let jit = pg.psql("SELECT pg_jit_available()").unwrap_or_default();
    pg.psql(&format!(
        "ALTER DATABASE {} SET jit_above_cost = 0; ALTER DATABASE {0} SET jit_inline_above_cost = 0; ALTER DATABASE {0} SET jit_optimize_above_cost = 0",
        pg.dbname()
    ))
    .unwrap();
    println!("failover: JIT available on the test server: {jit}");
    let quiet = TestDir::new("failover-quiet")
        .and_then(|d| {
            d.run(|dir| flow(&pg, dir, ("OURS5", "QF5"), Layout::Acceptors, Script::Quiet))
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let failover = TestDir::new("failover")
        .and_then(|d| {
            d.run(|dir| {
                flow(
                    &pg,
                    dir,
                    ("OURS4", "QF4"),
                    Layout::Acceptors,
                    Script::Restart,
                )
            })
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let limit = LEASE + RECONNECT + Duration::from_secs(1);
    println!(
        "failover: without a failover p50 {:?}, max {:?}; with one p50 {:?}, max {:?} (limit {limit:?})",
        quiet.p50, quiet.max, failover.p50, failover.max
    );
    // A statement the server compiles with JIT costs 100-300 ms here: a
    // store whose connections let it would wait that long for every batch.
    assert!(
        quiet.p50 <= Duration::from_millis(50),
        "the median wait {:?} without a failover: the store's statements are compiled (JIT)?",
        quiet.p50
    );
    assert!(
        failover.max <= limit,
        "the longest wait {:?} over {limit:?}",
        failover.max
    );
    assert!(
        failover.p50 <= quiet.p50 * 2,
        "p50 {:?} over twice the quiet run's {:?}",
        failover.p50,
        quiet.p50
    );
}

/// Set up as the test above: A killed, restarted as the standby, B killed,
/// A takes the session back.
#[test]
fn a_quickfix_initiator_carried_across_a_failback() {
    scripted(Script::Failback, ("OURS7", "QF7"), false);
}

/// Set up as the test above: A frozen and cut off, B takes over, A let go
/// on. It failed in 2 runs of 5 (longest waits 9.5 s and 17.7 s) while the
/// PostgreSQL store's page read ran its start lookup once per row of the
/// range (a plan the server chose with no statistics yet: 300 ms a page,
/// B's output stopped 5-6 s at a time); `fix-store-postgres`'s `sql.rs`
/// says more.
#[test]
fn a_quickfix_initiator_carried_across_a_frozen_engine() {
    scripted(Script::Freeze, ("OURS6", "QF6"), false);
}

/// Set up as the test above: the database server restarted at once
/// mid-flow. The bound is a takeover's plus the server's restart.
#[test]
fn a_quickfix_initiator_carried_across_a_restart_of_the_database() {
    scripted(Script::ServerRestart, ("OURS8", "QF8"), false);
}

/// The mirror: our initiators, A active and B standby, QuickFIX's
/// acceptor; A killed at 3 s and started again 1 s later.
#[test]
fn a_quickfix_acceptor_served_across_a_restart_of_our_active_initiator() {
    scripted(Script::Restart, ("OURS9", "QF9"), true);
}

/// The mirror, A frozen and cut off at 3 s, let go on at 8 s.
#[test]
fn a_quickfix_acceptor_served_across_a_frozen_initiator() {
    scripted(Script::Freeze, ("OURS10", "QF10"), true);
}

/// The mirror, A killed and started again as the standby, B killed at 8 s.
#[test]
fn a_quickfix_acceptor_served_across_a_failback() {
    scripted(Script::Failback, ("OURS11", "QF11"), true);
}

/// The mirror, the database server restarted at once at 3 s.
#[test]
fn a_quickfix_acceptor_served_across_a_restart_of_the_database() {
    scripted(Script::ServerRestart, ("OURS12", "QF12"), true);
}

/// Runs `script` with its own database; asserts every order answered once
/// and the longest wait within a takeover's bound.
fn scripted(script: Script, (ours, qf): (&str, &str), mirror: bool) {
    if std::env::var(NODE).is_ok() {
        return;
    }
    let _one = serial();
    let name = format!("{script:?}{}", if mirror { "-mirror" } else { "" }).to_lowercase();
    let Some(pg) = PgServer::start_or_skip(&format!("interop-{name}")) else {
        return;
    };
    let mut limit = LEASE + RECONNECT + Duration::from_secs(1);
    if script == Script::ServerRestart {
        // The server's own stop and start (`pg_ctl -w`), measured once here.
        let started = Instant::now();
        pg.restart_immediate().unwrap();
        limit += started.elapsed();
    }
    let waits = TestDir::new(&name)
        .and_then(|d| {
            d.run(|dir| {
                // The mirror's relay port, known before the run: a placeholder
                // that `flow` replaces with its relay's.
                let layout = if mirror {
                    Layout::Initiators(0)
                } else {
                    Layout::Acceptors
                };
                flow(&pg, dir, (ours, qf), layout, script)
            })
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    println!(
        "failover, {name}: p50 {:?}, max {:?} (limit {limit:?}); {} Logouts from the standby",
        waits.p50, waits.max, waits.standby_logouts
    );
    assert!(
        waits.max <= limit,
        "{script:?}: the longest wait {:?} over {limit:?}",
        waits.max
    );
    if script == Script::Failback && !mirror {
        // QuickFIX logs on to the standby twice while a lease runs (after
        // each kill), each time holding every message: each is answered
        // with a Logout naming why, not a closed connection.
        assert!(
            waits.standby_logouts >= 1,
            "no Logout from the standby in the failback"
        );
    }
}

/// What happens to the engines during a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    /// Nothing.
    Quiet,
    /// A killed at 3 s, started again 1 s later.
    Restart,
    /// A stopped and cut off at 3 s, let go on at 8 s.
    Freeze,
    /// A killed at 3 s and started again as the standby; B killed at 8 s.
    Failback,
    /// The database server stopped at once at 3 s and started again.
    ServerRestart,
}

const RECONNECT: Duration = Duration::from_secs(1);
/// Orders a run, at 500/s.
const ORDERS: usize = 6000;
const PACE: Duration = Duration::from_micros(2000);

/// The waits of a run.
struct Waits {
    p50: Duration,
    max: Duration,
    /// Logouts QuickFIX had from the standby, naming why.
    standby_logouts: u32,
}

impl Script {
    /// Whether QuickFIX sends NextExpectedMsgSeqNum in its Logons
    /// (`SendNextExpectedMsgSeqNum=Y`): in the scripts where it logs on to
    /// the standby while the active engine's lease runs, but not in issue
    /// 38's own layout (the quiet run and the restart), which keeps
    /// QuickFIX's defaults.
    fn next_expected(self) -> bool {
        matches!(
            self,
            Script::Freeze | Script::Failback | Script::ServerRestart
        )
    }
}

/// One run: QuickFIX sends [`ORDERS`] at 500/s while `script` happens.
fn flow(
    pg: &PgServer,
    dir: &Path,
    (ours, qf): (&str, &str),
    layout: Layout,
    script: Script,
) -> Result<Waits, String> {
    pg.psql("DELETE FROM fix_batches; DELETE FROM fix_sessions;")
        .ok();
    // The relay: in front of A for our acceptors (QuickFIX reaches a
    // restarted A at the same port), in front of QuickFIX's acceptor for our
    // initiators (a frozen A's connection is cut there).
    let to = Arc::new(AtomicU16::new(0));
    let relay = child::relay(to.clone())?;
    let (role, qf_port, layout) = match layout {
        Layout::Acceptors => (Role::Initiator, relay.port, layout),
        Layout::Initiators(_) => {
            let port = fix_benches::free_port()?;
            to.store(port, Ordering::SeqCst);
            (Role::Acceptor, port, Layout::Initiators(relay.port))
        }
    };
    let ids_pair = (ours, qf);
    let mut a = start(pg, "engine-a", ids_pair, layout, &dir.join("a1"))?;
    if layout == Layout::Acceptors {
        to.store(a.port, Ordering::SeqCst);
    }
    let mut b = start(pg, "engine-b", ids_pair, layout, &dir.join("b"))?;
    let book = Arc::new(Book::new("QuickFIX"));
    let qf_id = quickfix_cpp::session_id(qf, ours)?;
    let b_port = b.port.to_string();
    // ReconnectInterval is RECONNECT in QuickFIX's settings already. Our
    // acceptor B is QuickFIX's initiator's second endpoint.
    // With NextExpectedMsgSeqNum in its Logons (789), a Logon to the
    // standby that holds every message is answered with a Logout.
    let next_expected = if script.next_expected() { "Y" } else { "N" };
    let second = [
        ("SocketConnectHost1", "127.0.0.1"),
        ("SocketConnectPort1", b_port.as_str()),
        ("SendNextExpectedMsgSeqNum", next_expected),
    ];
    let extra: &[(&str, &str)] = match layout {
        Layout::Acceptors => &second,
        Layout::Initiators(_) => &[],
    };
    let ids: Arc<Vec<String>> = Arc::new((0..ORDERS).map(|i| format!("{qf}-{i}")).collect());
    let (qf_name, ours_name) = (qf.to_owned(), ours.to_owned());
    let waits = quickfix_cpp::run_with(
        role,
        &qf_id,
        qf_port,
        extra,
        &dir.join("quickfix"),
        &book,
        |_| {
            book.wait("the first Logon", WAIT, |s| s.logons >= 1)?;
            let t0 = Instant::now();
            let sender = {
                let (ids, book) = (ids.clone(), book.clone());
                std::thread::spawn(move || {
                    // QuickFIX's session IDs stay on the thread that makes them.
                    let id = match quickfix_cpp::session_id(&qf_name, &ours_name) {
                        Ok(id) => id,
                        Err(e) => return book.error(e),
                    };
                    for (i, cl) in ids.iter().enumerate() {
                        let due = t0 + PACE * i as u32;
                        if let Some(d) = due.checked_duration_since(Instant::now()) {
                            std::thread::sleep(d);
                        }
                        // Stored and sent if logged on; resent when asked.
                        if let Err(e) = quickfix_cpp::send_order(&id, cl) {
                            book.error(format!("send {cl}: {e}"));
                        }
                        book.sent();
                    }
                })
            };
            let at = |secs: u64| {
                if let Some(d) =
                    (t0 + Duration::from_secs(secs)).checked_duration_since(Instant::now())
                {
                    std::thread::sleep(d);
                }
            };
            match script {
                Script::Quiet => {}
                Script::Restart | Script::Failback => {
                    at(3);
                    if layout == Layout::Acceptors {
                        to.store(0, Ordering::SeqCst);
                    }
                    a.kill()?;
                    at(4);
                    a = start(pg, "engine-a", ids_pair, layout, &dir.join("a2"))?;
                    if layout == Layout::Acceptors {
                        to.store(a.port, Ordering::SeqCst);
                    }
                    if script == Script::Failback {
                        at(8);
                        b.kill()?;
                    }
                }
                Script::Freeze => {
                    at(3);
                    if layout == Layout::Acceptors {
                        to.store(0, Ordering::SeqCst);
                    }
                    a.freeze(true)?;
                    relay.cut();
                    at(8);
                    a.freeze(false)?;
                }
                Script::ServerRestart => {
                    at(3);
                    pg.restart_immediate()?;
                }
            }
            sender.join().map_err(|_| "the sender panicked")?;
            book.wait("every order answered", Duration::from_secs(120), |s| {
                s.answered() >= ORDERS as u64 || !s.errors.is_empty()
            })?;
            let waits = book.with(|s| {
                if !s.errors.is_empty() || !s.rejects.is_empty() {
                    return Err(format!("errors {:?}, rejects {:?}", s.errors, s.rejects));
                }
                let mut waits = Vec::with_capacity(ORDERS);
                for (i, id) in ids.iter().enumerate() {
                    // One report an order: its resent copies keep its number.
                    let reports = &s.reports[id];
                    let mut seqs: Vec<u64> = reports.iter().map(|r| r.seq).collect();
                    seqs.dedup();
                    if seqs.len() != 1 {
                        return Err(format!("{id} answered {} times: {reports:?}", seqs.len()));
                    }
                    let due = t0 + PACE * i as u32;
                    waits.push(s.first_report[id].saturating_duration_since(due));
                }
                // Resent reports keep their order's one number (checked
                // above); a report of no order sent is a stray.
                if s.reports.len() != ids.len() {
                    return Err(format!(
                        "reports for {} ClOrdIDs, {} orders sent",
                        s.reports.len(),
                        ids.len()
                    ));
                }
                waits.sort();
                Ok(Waits {
                    p50: waits[waits.len() / 2],
                    max: waits[waits.len() - 1],
                    standby_logouts: s.standby_logouts,
                })
            })?;
            // While both sides are still logged on: once QuickFIX stops, an
            // initiator of ours logs on again each ReconnectInterval, and each
            // Logon it sends takes a number, as QuickFIX's own do.
            let store = dir.join("quickfix/store");
            numbers_agree(pg, &store, &format!("FIX.4.4-{ours}-{qf}"))?;
            Ok(waits)
        },
    )?;
    if let Some(status) = a.ended() {
        return Err(format!("engine A ended during the run: {status}"));
    }
    drop((a, b));
    Ok(waits)
}

/// QuickFIX's numbers, in its file store under `store`, and ours, in the
/// session's row, agree: each side's next sender number is the other's
/// next target number. Polled for a few seconds: the last message may
/// still be on its way.
fn numbers_agree(pg: &PgServer, store: &Path, key: &str) -> Result<(), String> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let theirs = quickfix_numbers(store)?;
        let row = pg.psql(&format!(
            "SELECT next_sender, next_target FROM fix_sessions WHERE session_key = '{key}'"
        ))?;
        let ours = row
            .split_once('|')
            .and_then(|(s, t)| Some((s.parse::<u64>().ok()?, t.parse::<u64>().ok()?)))
            .ok_or_else(|| format!("no numbers in the row of {key}: {row:?}"))?;
        if theirs == (ours.1, ours.0) {
            println!(
                "failover: numbers agree, QuickFIX next sender {} and target {}",
                theirs.0, theirs.1
            );
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!(
                "QuickFIX's next sender and target numbers are {theirs:?}, ours (the row of {key}) {ours:?}"
            ));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// QuickFIX's next sender and target numbers, from its file store's
/// `.seqnums` file (`SSSSSSSSSS : TTTTTTTTTT`).
fn quickfix_numbers(store: &Path) -> Result<(u64, u64), String> {
    let entries = std::fs::read_dir(store).map_err(|e| format!("{}: {e}", store.display()))?;
    let file = entries
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|e| e == "seqnums"))
        .ok_or_else(|| format!("no .seqnums file in {}", store.display()))?;
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
    text.split_once(':')
        .and_then(|(s, t)| Some((s.trim().parse().ok()?, t.trim().parse().ok()?)))
        .ok_or_else(|| format!("{}: not `sender : target`: {text:?}", file.display()))
}
