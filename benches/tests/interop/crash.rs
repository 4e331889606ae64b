//! Our acceptor as a separate process, SIGKILLed ten times during a burst of
//! orders from a QuickFIX C++ initiator in the test's process, and restarted
//! each time from its file store.
//!
//! The child is this test binary run again with [`DIR`] set (as
//! `fix-engine/tests/crash.rs` does; see `child.rs`): an [`Engine`] acceptor with the file store
//! (FileStoreSync's default: every record synced before its call returns) and
//! QuickFIX's file log, whose application answers each NewOrderSingle with one
//! ExecutionReport. It binds port 0 and says its port; QuickFIX reaches each
//! child through the test's relay.
//!
//! QuickFIX's initiator (ReconnectInterval=1, HeartBtInt=30) is sent
//! `FIX_INTEROP_ORDERS` orders (3000 by default) from a thread of the test, at
//! most [`WINDOW`] unanswered, through `sendToTarget` (stored, and sent if logged
//! on; resent when our side asks). The test kills the child once QuickFIX has
//! received answers to `k/11` of the orders (k = 1..10) and at least one new
//! (not resent) report since the last Logon, starts it again, waits for the
//! new Logon, and goes on. QuickFIX's own engine resends what our restarted
//! side asks for, and asks for what it missed.
//!
//! What is counted: the ExecutionReports QuickFIX's session hands its
//! application (`fromApp`: in sequence, each MsgSeqNum at most once, resent
//! copies of what it had already handed over dropped by its session), per
//! ClOrdID. A PossDupFlag=Y report with the MsgSeqNum of one counted already
//! for that ClOrdID is the same report resent and is not counted again; any
//! other second report is a second answer. Asserted: every order (and one
//! more sent after the last restart, whose answer shows that nothing sent
//! before it is still on its way) has exactly one report; our store holds
//! exactly one ExecutionReport per ClOrdID, under the MsgSeqNum QuickFIX
//! received it with (the child answers every order it is handed, so none was
//! handed to it twice, whichever process it reached); both sides' stores agree
//! on the numbers; no Reject either way.
//!
//! And no stall: after each restart's Logon, the first report, the first new
//! (not resent) report, and every report after the one before it on that
//! connection come within [`STALL_LIMIT`]. A resend that left QuickFIX
//! waiting for a gap (new messages interleaved with a gap fill) would stall
//! until QuickFIX's TestRequest, 30 s. What is left is the time our side takes
//! to answer the orders QuickFIX resends after the Logon: they come in one
//! read, each answer is stored with a sync before the next order is handled,
//! and the answers go out together once the read is handled; with
//! [`WINDOW`] orders outstanding that is a second or so here (a few ms a
//! sync on this machine's disk), which the limit leaves room for. And one
//! more round trip, behind that batch when it comes after it: QuickFIX 1.16
//! handles our ResendRequest on arrival, above the gap it has just asked us to
//! fill, without queueing its number; our GapFill over our Logon and that
//! ResendRequest starts at the Logon, which QuickFIX had queued and handled
//! by then, so it drops the GapFill as too low and asks for the
//! ResendRequest's number again.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::time::{Duration, Instant};

use fix_engine::Engine;
use fix_session::SessionId;
use fix_session::store::StoreLog;

use crate::book::{Book, Mark, Report};
use crate::child::{self, Child};
use crate::ours::{self, Trader};
use crate::quickfix_cpp::{self, Role};
use crate::{TestDir, WAIT, numbers_agree, serial};

/// The child's environment: its directory.
const DIR: &str = "FIX_INTEROP_CHILD_DIR";

/// Kills of our acceptor per run.
const KILLS: u64 = 10;
/// Orders sent and not yet answered, at most.
const WINDOW: u64 = 250;
/// How long a report may take after a Logon, or after the report before it.
const STALL_LIMIT: Duration = Duration::from_secs(10);
/// How long the burst may wait for a count of answers.
const BURST_WAIT: Duration = Duration::from_secs(60);
/// The order sent after the burst and the last restart.
const LAST: &str = "LAST";

fn ours_id() -> SessionId {
    SessionId::new("FIX.4.4", "OURS3", "QF3")
}

/// The child's side: nothing in an ordinary test run.
#[test]
fn child() {
    let Ok(dir) = std::env::var(DIR) else {
        return;
    };
    if let Err(e) = run_child(Path::new(&dir)) {
        eprintln!("interop crash child: {e}");
        std::process::exit(1);
    }
}

fn run_child(dir: &Path) -> Result<(), String> {
    let settings = ours::settings(&ours_id(), false, 0, dir)?;
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
        // Bounded, in case no one kills it.
        child::serve(engine, Duration::from_secs(300)).await
    })
}

/// A connection after a restart, as QuickFIX's application saw it.
struct Restart {
    /// Orders sent and not answered at its Logon.
    outstanding: u64,
    /// From the Logon to the first report (None: no report came).
    first: Option<Duration>,
    /// From the Logon to the first new report, not a resent one (None: none
    /// came).
    first_new: Option<Duration>,
    /// The longest wait for a report: from the Logon, or from the report
    /// before.
    longest: Duration,
}

/// One kill: what QuickFIX had received and sent when it came.
struct Kill {
    answered: u64,
    sent: u64,
}

/// The figures of a run, printed for quoting.
struct Figures {
    orders: u64,
    kills: Vec<Kill>,
    reports: u64,
    resent_reports: u64,
    resent_orders: u64,
    /// Each connection after a restart.
    restarts: Vec<Restart>,
    seconds: f64,
}

#[test]
fn our_acceptor_killed_ten_times_mid_burst_answers_every_order_once() {
    if std::env::var(DIR).is_ok() {
        return;
    }
    let _one = serial();
    match TestDir::new("crash").and_then(|d| d.run(crash_run)) {
        Ok(f) => print_figures(&f),
        Err(e) => panic!("{e}"),
    }
}

fn crash_run(dir: &Path) -> Result<Figures, String> {
    let started = Instant::now();
    let orders: u64 = match std::env::var("FIX_INTEROP_ORDERS") {
        Ok(n) => n
            .parse()
            .map_err(|e| format!("FIX_INTEROP_ORDERS={n}: {e}"))?,
        Err(_) => 3000,
    };
    let ids: Arc<Vec<String>> = Arc::new((0..orders).map(|i| format!("C{i}")).collect());
    let kill_points: Vec<u64> = (1..=KILLS).map(|k| orders * k / (KILLS + 1)).collect();
    let ours_dir = dir.join("ours");
    let to = Arc::new(AtomicU16::new(0));
    let port = child::relay(to.clone())?.port;
    let start = || {
        let child = Child::start("crash::child", &[(DIR, ours_dir.display().to_string())])?;
        to.store(child.port, Ordering::SeqCst);
        Ok::<Child, String>(child)
    };
    let mut child = start()?;
    let book = Arc::new(Book::new("QuickFIX"));
    let qf_id = quickfix_cpp::session_id("QF3", "OURS3")?;
    let qf_dir = dir.join("quickfix");

    let (kills, resent_orders) =
        quickfix_cpp::run(Role::Initiator, &qf_id, port, &qf_dir, &book, |qf| {
            book.wait("the first Logon", WAIT, |s| s.logons >= 1)?;
            let sender = {
                let (book, ids) = (book.clone(), ids.clone());
                std::thread::spawn(move || {
                    let sent = burst(&book, &ids);
                    if let Err(e) = &sent {
                        // Wakes the test's thread, whose waits end on an error.
                        book.error(format!("the burst: {e}"));
                    }
                    sent
                })
            };
            let mut kills = Vec::new();
            let killed = (|| {
                for (k, &n) in (1..).zip(&kill_points) {
                    // Each connection gets a new (not resent) report at least
                    // before it is killed, so that every restart is measured.
                    let what = format!("{n} orders answered and a new report, for kill {k}");
                    book.wait(&what, BURST_WAIT, |s| {
                        let answered = s.answered() >= n && s.new_since_logon > 0;
                        answered || s.answered() >= orders || !s.errors.is_empty()
                    })?;
                    to.store(0, Ordering::SeqCst);
                    child.kill()?;
                    let (answered, sent) = book.with(|s| (s.answered(), s.sent));
                    kills.push(Kill { answered, sent });
                    child = start()?;
                    book.wait(&format!("the Logon after restart {k}"), WAIT, |s| {
                        s.logons > k || !s.errors.is_empty()
                    })?;
                }
                Ok::<(), String>(())
            })();
            let sent = sender
                .join()
                .map_err(|_| "the burst's thread panicked".to_owned())?;
            killed?;
            sent?;
            book.wait("every order answered", BURST_WAIT, |s| {
                s.answered() >= orders
            })?;
            // Answered in sequence: once this one is, every report our side sent
            // before it has been handed over.
            qf.send_order(LAST)?;
            book.wait("the last order answered", WAIT, |s| {
                s.reports.contains_key(LAST)
            })?;
            Ok((kills, qf.log.resent_orders()))
        })?;
    // QuickFIX logged out as it stopped; the child answered. Its store is
    // read once it is gone.
    child.kill()?;

    let mut expected: Vec<&str> = ids.iter().map(String::as_str).collect();
    expected.push(LAST);
    let (reports, resent_reports, received) = count_reports(&book, &expected)?;
    check_store(&ours_dir.join("store"), &expected, &received)?;
    numbers_agree(&ours_dir, &ours_id(), &qf_dir)?;
    Ok(Figures {
        orders,
        kills,
        reports,
        resent_reports,
        resent_orders,
        restarts: book.with(|s| stalls(&s.timeline)),
        seconds: started.elapsed().as_secs_f64(),
    })
    .and_then(|f| {
        for (i, r) in f.restarts.iter().enumerate() {
            let late = |d: Option<Duration>| d.is_none_or(|d| d > STALL_LIMIT);
            let stalled = late(r.first) || late(r.first_new) || r.longest > STALL_LIMIT;
            // A Logon with nothing outstanding has no report to wait for.
            if r.outstanding > 0 && stalled {
                print_figures(&f);
                return Err(format!(
                    "restart {}: {} orders outstanding at the Logon, the first report after \
                     {:?}, the first new one after {:?}, the longest wait for one {:?} \
                     (limit {STALL_LIMIT:?})",
                    i + 1,
                    r.outstanding,
                    r.first,
                    r.first_new,
                    r.longest
                ));
            }
        }
        if f.restarts.len() != f.kills.len() {
            print_figures(&f);
            return Err(format!(
                "{} connections after a restart, {} kills",
                f.restarts.len(),
                f.kills.len()
            ));
        }
        Ok(f)
    })
}

/// Sends `ids` as orders through QuickFIX, at most [`WINDOW`] unanswered.
fn burst(book: &Book, ids: &[String]) -> Result<(), String> {
    // QuickFIX's session ID is not Send: this thread makes its own.
    let session = quickfix_cpp::session_id("QF3", "OURS3")?;
    for id in ids {
        book.wait("room in the window", BURST_WAIT, |s| {
            s.sent.saturating_sub(s.answered()) < WINDOW
        })?;
        quickfix_cpp::send_order(&session, id)?;
        book.sent();
    }
    Ok(())
}

/// Counts the reports QuickFIX handed over, as the module says: one per
/// `expected` ClOrdID, none for any other. Returns the reports counted, how
/// many of them came resent (PossDupFlag=Y), and each ClOrdID's MsgSeqNum.
fn count_reports(
    book: &Book,
    expected: &[&str],
) -> Result<(u64, u64, HashMap<String, u64>), String> {
    book.with(|s| {
        if !s.rejects.is_empty() || !s.errors.is_empty() {
            return Err(format!(
                "QuickFIX: rejects {:?}, errors {:?}",
                s.rejects, s.errors
            ));
        }
        let mut received = HashMap::new();
        let mut resent = 0;
        for id in expected {
            let reports = s.reports.get(*id).map(Vec::as_slice).unwrap_or_default();
            let mut counted: Vec<Report> = Vec::new();
            for r in reports {
                let copy = r.poss_dup && counted.iter().any(|c| c.seq == r.seq);
                if !copy {
                    counted.push(*r);
                }
            }
            match counted[..] {
                [r] => {
                    resent += u64::from(r.poss_dup);
                    received.insert((*id).to_owned(), r.seq);
                }
                _ => return Err(format!("order {id} answered by {reports:?}")),
            }
        }
        if s.reports.len() != expected.len() {
            return Err(format!(
                "{} ClOrdIDs answered, {} orders sent",
                s.reports.len(),
                expected.len()
            ));
        }
        Ok((received.len() as u64, resent, received))
    })
}

/// Our store holds exactly one ExecutionReport per `expected` ClOrdID, each
/// under the MsgSeqNum QuickFIX was handed it with (`received`).
fn check_store(
    dir: &Path,
    expected: &[&str],
    received: &HashMap<String, u64>,
) -> Result<(), String> {
    // Read as fixstore reads it, whichever store the engine kept it in
    // (its shared log by default).
    let store =
        StoreLog::open(dir, &ours_id().store_name()).map_err(|e| format!("our store: {e}"))?;
    let mut stored: HashMap<String, Vec<u64>> = HashMap::new();
    store
        .read_messages(&mut |seq, msg| {
            let fields: Vec<&[u8]> = msg.split(|&b| b == 1).collect();
            if fields.contains(&&b"35=8"[..]) {
                let id = fields.iter().find_map(|f| f.strip_prefix(b"11="));
                let id = String::from_utf8_lossy(id.unwrap_or_default()).into_owned();
                stored.entry(id).or_default().push(seq);
            }
        })
        .map_err(|e| format!("our store: {e}"))?;
    for id in expected {
        match stored.get(*id).map(Vec::as_slice) {
            Some([seq]) if received.get(*id) == Some(seq) => {}
            s => {
                return Err(format!(
                    "our store: the reports to {id} at {s:?}, QuickFIX received it at {:?}",
                    received.get(*id)
                ));
            }
        }
    }
    if stored.len() != expected.len() {
        return Err(format!(
            "our store: reports to {} ClOrdIDs, {} orders",
            stored.len(),
            expected.len()
        ));
    }
    Ok(())
}

/// The connections after a restart (every Logon but the first).
fn stalls(timeline: &[(Instant, Mark)]) -> Vec<Restart> {
    let mut restarts = Vec::new();
    let mut logons = 0;
    // The connection being measured, and its last mark's time.
    let mut current: Option<(Restart, Instant)> = None;
    let mut logon = Instant::now();
    for &(at, mark) in timeline {
        match mark {
            Mark::Logon { outstanding } => {
                restarts.extend(current.take().map(|(r, _)| r));
                logons += 1;
                logon = at;
                if logons > 1 {
                    let r = Restart {
                        outstanding,
                        first: None,
                        first_new: None,
                        longest: Duration::ZERO,
                    };
                    current = Some((r, at));
                }
            }
            Mark::Logout => restarts.extend(current.take().map(|(r, _)| r)),
            Mark::Report { resent } => {
                if let Some((r, last)) = &mut current {
                    let wait = at - *last;
                    r.first.get_or_insert(wait);
                    if !resent {
                        r.first_new.get_or_insert(at - logon);
                    }
                    r.longest = r.longest.max(wait);
                    *last = at;
                }
            }
        }
    }
    restarts.extend(current.map(|(r, _)| r));
    restarts
}

fn print_figures(f: &Figures) {
    let ms = |d: Duration| format!("{:.1}", d.as_secs_f64() * 1e3);
    let points: Vec<String> = f
        .kills
        .iter()
        .map(|k| format!("{}/{}", k.answered, k.sent))
        .collect();
    let firsts: Vec<String> = f
        .restarts
        .iter()
        .map(|r| r.first.map_or("-".to_owned(), ms))
        .collect();
    let max_first = f.restarts.iter().filter_map(|r| r.first).max();
    let news: Vec<String> = f
        .restarts
        .iter()
        .map(|r| r.first_new.map_or("-".to_owned(), ms))
        .collect();
    let max_new = f.restarts.iter().filter_map(|r| r.first_new).max();
    let max_gap = f.restarts.iter().map(|r| r.longest).max();
    println!(
        "crash: {} acceptor processes, {} SIGKILLs at answers/sent {}",
        f.kills.len() + 1,
        f.kills.len(),
        points.join(" ")
    );
    println!(
        "crash: {} orders (+1 after the last restart), {} reports received, one per order \
         ({} of them resent with PossDupFlag=Y), {} orders resent by QuickFIX",
        f.orders, f.reports, f.resent_reports, f.resent_orders
    );
    let longest: Vec<String> = f.restarts.iter().map(|r| ms(r.longest)).collect();
    let max = |d: Option<Duration>| d.map_or("-".to_owned(), ms);
    println!(
        "crash: after each restart's Logon, ms to the first report: {} (max {})",
        firsts.join(" "),
        max(max_first)
    );
    println!(
        "crash: after each restart's Logon, ms to the first new (not resent) report: {} (max {})",
        news.join(" "),
        max(max_new)
    );
    println!(
        "crash: on each restarted connection, the longest wait in ms for a report (from the \
         Logon or the report before): {} (max {}; limit {} ms, QuickFIX's HeartBtInt 30 s)",
        longest.join(" "),
        max(max_gap),
        STALL_LIMIT.as_millis()
    );
    println!("crash: {:.1} s", f.seconds);
}

#[test]
fn a_resent_copy_of_a_report_is_not_a_second_answer() {
    let book = Book::new("test");
    let report = |seq, poss_dup| Report { seq, poss_dup };
    book.report("A", report(5, false));
    // The same report resent (QuickFIX's session would not hand it over).
    book.report("A", report(5, true));
    // A report first received as a resend.
    book.report("B", report(6, true));
    let (counted, resent, received) = count_reports(&book, &["A", "B"]).unwrap();
    assert_eq!((counted, resent), (2, 1));
    assert_eq!((received["A"], received["B"]), (5, 6));
    // An order not answered.
    assert!(count_reports(&book, &["A", "B", "C"]).is_err());
    // Another report to B, under another number: a second answer.
    book.report("B", report(9, true));
    assert!(count_reports(&book, &["A", "B"]).is_err());
}

#[test]
fn waits_are_measured_per_connection_after_a_restart() {
    let t = Instant::now();
    let ms = |n| t + Duration::from_millis(n);
    let (new, resent) = (
        Mark::Report { resent: false },
        Mark::Report { resent: true },
    );
    let timeline = [
        // The first connection is not a restart's.
        (ms(0), Mark::Logon { outstanding: 0 }),
        (ms(900), new),
        (ms(1000), Mark::Logout),
        (ms(2000), Mark::Logon { outstanding: 7 }),
        (ms(2010), resent),
        (ms(2500), resent),
        (ms(2600), new),
        (ms(2700), Mark::Logout),
        // A report handed over between connections (queued before the kill).
        (ms(2800), new),
        (ms(3000), Mark::Logon { outstanding: 0 }),
    ];
    let restarts = stalls(&timeline);
    assert_eq!(restarts.len(), 2);
    let r = &restarts[0];
    assert_eq!(r.outstanding, 7);
    assert_eq!(r.first, Some(Duration::from_millis(10)));
    assert_eq!(r.first_new, Some(Duration::from_millis(600)));
    assert_eq!(r.longest, Duration::from_millis(490));
    let r = &restarts[1];
    assert_eq!((r.outstanding, r.first, r.first_new), (0, None, None));
    assert_eq!(r.longest, Duration::ZERO);
}
