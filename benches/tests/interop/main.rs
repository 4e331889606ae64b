//! Our engine against QuickFIX C++ 1.16 as a live counterparty (issue 24), over
//! TCP on 127.0.0.1, through the `quickfix` crate (which builds QuickFIX from
//! source: it needs cmake and a C++17 compiler, e.g. `apt-get install cmake g++`).
//! Behind the `interop` feature (which `quickfix` turns on too); CI does not
//! build it.
//!
//! ```sh
//! cargo test -p fix-benches --features interop --test interop -- --nocapture
//! ```
//!
//! Both sides keep file stores; QuickFIX validates every message against
//! `spec/FIX44.xml`, ours against fix44's tables. Each side's application
//! answers every NewOrderSingle with one ExecutionReport (same ClOrdID) and
//! records what it is handed (`book.rs`).
//!
//! - [`our_acceptor_against_a_quickfix_initiator`] and
//!   [`our_initiator_against_a_quickfix_acceptor`]: orders both ways, a Logout
//!   from QuickFIX and a reconnection, orders both ways, a Logout from ours and
//!   a reconnection, orders both ways; every order handed to the other side's
//!   application once and answered once, no Reject either way, both stores'
//!   sequence numbers agreeing at the end.
//! - `crash`: our acceptor in a child process, SIGKILLed ten times during a burst
//!   of orders from a QuickFIX initiator and restarted from its file store
//!   (`crash.rs` says what it counts and asserts).
//!
//! Each test keeps its directory (stores, both sides' logs: ours in
//! `ours/log`, QuickFIX's in `quickfix/quickfix.log`) when it fails, and names
//! it in the failure; `FIX_INTEROP_KEEP=1` keeps it when it passes too. The
//! tests run one at a time (they share the machine's two cores with everything
//! else, and the crash test measures waits).

mod book;
mod child;
mod crash;
mod failover;
mod ours;
mod quickfix_cpp;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use book::Book;
use fix_session::SessionId;
use ours::Ours;
use quickfix_cpp::Role;

/// How long a Logon, a Logout or a batch of answers may take.
const WAIT: Duration = Duration::from_secs(30);
/// Orders each way per phase of the logout tests.
const PHASE_ORDERS: usize = 200;

/// The NewOrderSingle's fields: ClOrdID, then six more.
pub(crate) fn order_fields(cl_ord_id: &str) -> Vec<(u32, String)> {
    [
        (11, cl_ord_id),
        (21, "1"),
        (55, "EUR/USD"),
        (54, "1"),
        (60, "20260921-14:13:20"),
        (38, "100"),
        (40, "1"),
    ]
    .into_iter()
    .map(|(t, v)| (t, v.to_owned()))
    .collect()
}

/// The ExecutionReport answering order `cl_ord_id`: OrderID and ExecID made
/// from it, so that a report sent twice would be the same report.
pub(crate) fn report_fields(cl_ord_id: &str) -> Vec<(u32, String)> {
    let mut fields = vec![
        (11, cl_ord_id.to_owned()),
        (37, format!("O-{cl_ord_id}")),
        (17, format!("E-{cl_ord_id}")),
    ];
    fields.extend(
        [
            (150, "0"),
            (39, "0"),
            (55, "EUR/USD"),
            (54, "1"),
            (38, "100"),
            (151, "100"),
            (14, "0"),
            (6, "0"),
        ]
        .into_iter()
        .map(|(t, v)| (t, v.to_owned())),
    );
    fields
}

/// Writes `fields` as `tag=value<SOH>` into `out` (cleared first).
pub(crate) fn body(out: &mut Vec<u8>, fields: &[(u32, String)]) {
    out.clear();
    for (tag, value) in fields {
        out.extend_from_slice(format!("{tag}={value}\x01").as_bytes());
    }
}

/// One test at a time.
fn serial() -> MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A fresh directory for one test, removed when it passes.
pub(crate) struct TestDir(PathBuf);

impl TestDir {
    pub(crate) fn new(name: &str) -> Result<TestDir, String> {
        let dir = std::env::temp_dir().join(format!("fix-interop-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(TestDir(dir))
    }

    /// Runs `test`; removes the directory if it passed (unless
    /// `FIX_INTEROP_KEEP` is set), else adds its path to the error.
    pub(crate) fn run<R>(self, test: impl FnOnce(&Path) -> Result<R, String>) -> Result<R, String> {
        match test(&self.0) {
            Ok(r) => {
                if std::env::var_os("FIX_INTEROP_KEEP").is_none() {
                    let _ = std::fs::remove_dir_all(&self.0);
                } else {
                    println!("stores and logs kept in {}", self.0.display());
                }
                Ok(r)
            }
            Err(e) => Err(format!(
                "{e}\n(stores and logs kept in {})",
                self.0.display()
            )),
        }
    }
}

/// Sends [`PHASE_ORDERS`] orders each way (ClOrdIDs `Q<phase>-<i>` from
/// QuickFIX, `O<phase>-<i>` from ours, interleaved) and waits for every answer.
fn orders_both_ways(
    phase: &str,
    ours: &Ours,
    ours_book: &Book,
    qf: &quickfix_cpp::Running<'_>,
    qf_book: &Book,
    sent: &mut Vec<String>,
) -> Result<(), String> {
    let from_qf: Vec<String> = (0..PHASE_ORDERS).map(|i| format!("Q{phase}-{i}")).collect();
    let from_ours: Vec<String> = (0..PHASE_ORDERS).map(|i| format!("O{phase}-{i}")).collect();
    for (q, o) in from_qf.iter().zip(&from_ours) {
        qf.send_order(q)?;
        ours.send_order(o)?;
    }
    let what = format!("phase {phase}: every order answered");
    qf_book.wait(&what, WAIT, |s| s.answered_all(from_qf.iter()))?;
    ours_book.wait(&what, WAIT, |s| s.answered_all(from_ours.iter()))?;
    sent.extend(from_qf);
    sent.extend(from_ours);
    Ok(())
}

/// Both sides logged on `n` times.
fn logged_on(n: u32, ours_book: &Book, qf_book: &Book) -> Result<(), String> {
    let what = format!("Logon number {n}");
    qf_book.wait(&what, WAIT, |s| s.logons >= n)?;
    ours_book.wait(&what, WAIT, |s| s.logons >= n)
}

/// Both sides logged out `n` times.
fn logged_out(n: u32, ours_book: &Book, qf_book: &Book) -> Result<(), String> {
    let what = format!("Logout number {n}");
    qf_book.wait(&what, WAIT, |s| s.logouts >= n)?;
    ours_book.wait(&what, WAIT, |s| s.logouts >= n)
}

/// Every order of `sent` (whichever side sent it: `Q…` QuickFIX, `O…` ours)
/// handed to the other side's application exactly once and answered exactly
/// once, with no resent copy (nothing was lost to resend); no Reject, no
/// failed answer, and nothing else either way.
fn each_once(sent: &[String], ours_book: &Book, qf_book: &Book) -> Result<(), String> {
    for (receiver, answered, prefix) in [(ours_book, qf_book, 'Q'), (qf_book, ours_book, 'O')] {
        let mine = || sent.iter().filter(|id| id.starts_with(prefix));
        receiver.with(|s| {
            for id in mine() {
                match s.orders.get(id) {
                    Some(1) => {}
                    n => return Err(format!("order {id} handed over {n:?} times")),
                }
            }
            if s.orders.len() != mine().count() {
                return Err(format!(
                    "{} orders handed over, {} sent",
                    s.orders.len(),
                    mine().count()
                ));
            }
            if !s.rejects.is_empty() || !s.errors.is_empty() {
                return Err(format!("rejects {:?}, errors {:?}", s.rejects, s.errors));
            }
            Ok(())
        })?;
        answered.with(|s| {
            for id in mine() {
                match s.reports.get(id).map(Vec::as_slice) {
                    Some([r]) if !r.poss_dup => {}
                    r => return Err(format!("order {id} answered by {r:?}")),
                }
            }
            if s.reports.len() != mine().count() {
                return Err(format!(
                    "{} ClOrdIDs answered, {} sent",
                    s.reports.len(),
                    mine().count()
                ));
            }
            Ok(())
        })?;
    }
    Ok(())
}

/// QuickFIX's next target number is our store's next sender number, and the
/// other way round: nothing sent is missing on either side, and neither reset.
/// `ours` and `qf` are the sides' directories; their engines have stopped.
pub(crate) fn numbers_agree(ours: &Path, id: &SessionId, qf: &Path) -> Result<(), String> {
    // Read as fixstore reads it, whichever store the engine kept it in.
    let store = fix_session::store::StoreLog::open(ours.join("store"), &id.store_name())
        .map_err(|e| format!("our store: {e}"))?;
    // QuickFIX's FileStore: `<BeginString>-<its SenderCompID>-<its
    // TargetCompID>.seqnums`, holding "<next sender> : <next target>".
    let name = format!(
        "{}-{}-{}.seqnums",
        id.begin_string, id.target_comp_id, id.sender_comp_id
    );
    let path = qf.join("store").join(name);
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let numbers: Vec<u64> = text
        .split(':')
        .map(|n| n.trim().parse())
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {text:?}: {e}", path.display()))?;
    let ours = [store.next_sender_seq(), store.next_target_seq()];
    if numbers != [ours[1], ours[0]] {
        return Err(format!(
            "QuickFIX's next sender and target numbers {numbers:?}, ours {ours:?}"
        ));
    }
    Ok(())
}

fn ours_id(n: u32) -> SessionId {
    SessionId::new("FIX.4.4", &format!("OURS{n}"), &format!("QF{n}"))
}

/// The logout test with our side `initiator` or not, session IDs numbered `n`
/// (QuickFIX's sessions are registered process-wide by their IDs).
fn logout_and_reconnect(n: u32, ours_initiates: bool) -> Result<(), String> {
    let name = if ours_initiates {
        "initiator"
    } else {
        "acceptor"
    };
    TestDir::new(name)?.run(|dir| {
        let port = fix_benches::free_port()?;
        let (ours_book, qf_book) = (Arc::new(Book::new("ours")), Arc::new(Book::new("QuickFIX")));
        let id = ours_id(n);
        let settings = ours::settings(&id, ours_initiates, port, &dir.join("ours"))?;
        let qf_role = if ours_initiates {
            Role::Acceptor
        } else {
            Role::Initiator
        };
        let qf_id = quickfix_cpp::session_id(&format!("QF{n}"), &format!("OURS{n}"))?;
        // QuickFIX's acceptor listens before ours connects; ours's acceptor
        // before QuickFIX's connects.
        let mut ours = None;
        if !ours_initiates {
            ours = Some(Ours::start(
                settings.clone(),
                id.clone(),
                ours_book.clone(),
            )?);
        }
        let mut sent = Vec::new();
        let result = quickfix_cpp::run(
            qf_role,
            &qf_id,
            port,
            &dir.join("quickfix"),
            &qf_book,
            |qf| {
                let ours = match ours.take() {
                    Some(o) => o,
                    None => Ours::start(settings, id.clone(), ours_book.clone())?,
                };
                let exchanged = (|| {
                    logged_on(1, &ours_book, &qf_book)?;
                    orders_both_ways("a", &ours, &ours_book, qf, &qf_book, &mut sent)?;
                    // QuickFIX logs out; its session is disabled until logon().
                    qf.logout()?;
                    logged_out(1, &ours_book, &qf_book)?;
                    qf.logon()?;
                    logged_on(2, &ours_book, &qf_book)?;
                    orders_both_ways("b", &ours, &ours_book, qf, &qf_book, &mut sent)?;
                    // Ours logs out; the initiator (either) connects again after
                    // its ReconnectInterval.
                    ours.handle.logout();
                    logged_out(2, &ours_book, &qf_book)?;
                    logged_on(3, &ours_book, &qf_book)?;
                    orders_both_ways("c", &ours, &ours_book, qf, &qf_book, &mut sent)
                })();
                let stopped = ours.stop();
                exchanged?;
                stopped
            },
        );
        if let Some(o) = ours {
            o.stop()?;
        }
        result?;
        each_once(&sent, &ours_book, &qf_book)?;
        numbers_agree(&dir.join("ours"), &id, &dir.join("quickfix"))?;
        println!(
            "{name}: our {name} against QuickFIX C++: 3 Logons, 2 Logouts (one from each \
             side), {} orders each way, each handed over once and answered once, both stores' \
             numbers agreeing",
            sent.len() / 2
        );
        Ok(())
    })
}

#[test]
fn our_acceptor_against_a_quickfix_initiator() {
    let _one = serial();
    if let Err(e) = logout_and_reconnect(1, false) {
        panic!("{e}");
    }
}

#[test]
fn our_initiator_against_a_quickfix_acceptor() {
    let _one = serial();
    if let Err(e) = logout_and_reconnect(2, true) {
        panic!("{e}");
    }
}
