//! A whole acceptor process killed mid-burst: the acceptor is a child process
//! (this test binary re-executed with the role in an environment variable), an
//! [`Engine`] with the file store whose application appends each order it is
//! handed to a record file before returning. The parent's initiator (file
//! store, ReconnectInterval=1) sends a burst of orders; the parent kills the
//! child with SIGKILL at a random point of it and starts it again. The
//! initiator's reconnection must get every order through (resent, or sent
//! after the Logon if it was still queued): each recorded once, none lost, the
//! sequence numbers of both stores agreeing.
//!
//! Runs go two at a time (each its own directories, port and processes).
//! The initiator connects through a relay of the parent's, bound once to a
//! port of the system's choosing, to whichever acceptor process runs now (each
//! binds port 0 and tells its port): no port is chosen by one process and bound
//! by another, which races with other tests.
//! `FIX_ENGINE_CRASH_SEED=<n>` replays the runs' kill points and batch sizes;
//! `FIX_ENGINE_CRASH_RUNS=<n>` changes the number of runs (20).

mod common;

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};

use common::{Relay, acceptor, initiator, order, settings};
use fix_core::Message;
use fix_engine::{Engine, SendError, SessionHandle};
use fix_session::{
    AppReject, Application, ChunkLimit, MessageStore, Outbox, Refusal, SessionId, State, StoreError,
};
use fix_test_support::temp_dir::TestDir;

const ROLE: &str = "FIX_ENGINE_CRASH_ROLE";
const DIR: &str = "FIX_ENGINE_CRASH_DIR";

/// Orders per burst.
const ORDERS: usize = 400;
/// The end of the ClOrdID of the order a run sends after its burst, which the
/// acceptor records as `sync`: handled in sequence, so once it is recorded,
/// the acceptor then running has handled every number before it.
const SYNC: &str = "-sync";
/// How long a run may take to get every order recorded.
const RUN_WAIT: Duration = Duration::from_secs(30);

fn acceptor_id() -> SessionId {
    SessionId::new("FIX.4.4", "EXEC", "C1")
}

fn initiator_id() -> SessionId {
    SessionId::new("FIX.4.4", "C1", "EXEC")
}

/// The acceptor's application: each order's ClOrdID, MsgSeqNum and PossDup
/// flag appended to the record file (one write per line) before `from_app`
/// returns, unless it is a possible duplicate of an order recorded already
/// (an earlier process's record counts).
struct Recorder {
    file: std::fs::File,
    recorded: HashSet<String>,
}

impl Recorder {
    /// Opens the record file an earlier process may have written; a line the
    /// kill cut short was never recorded (the order was not acknowledged to
    /// the session, so it comes again), and is cut off.
    fn open(path: &Path) -> Recorder {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let whole = text.rfind('\n').map_or(0, |i| i + 1);
        let mut recorded = HashSet::new();
        for line in text[..whole].lines() {
            if let Record::Order { cl_ord_id, .. } = Record::parse(line) {
                recorded.insert(cl_ord_id);
            }
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        file.set_len(whole as u64).unwrap();
        Recorder { file, recorded }
    }

    fn write(&mut self, line: &str) {
        self.file.write_all(line.as_bytes()).unwrap();
    }
}

impl Application for Recorder {
    fn from_admin(&mut self, msg: &Message<'_>) -> Result<(), Refusal> {
        if msg.msg_type() == b"A" {
            self.write("logon\n");
        }
        Ok(())
    }

    fn from_app(&mut self, msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        let text = |tag| String::from_utf8_lossy(msg.get(tag).unwrap_or_default()).into_owned();
        let cl_ord_id = text(11);
        let seq = text(34);
        if cl_ord_id.ends_with(SYNC) {
            self.write(&format!("sync {seq}\n"));
            return Ok(());
        }
        let poss_dup = msg.get(43) == Some(b"Y");
        if poss_dup && self.recorded.contains(&cl_ord_id) {
            self.write(&format!("skip {cl_ord_id} {seq}\n"));
            return Ok(());
        }
        let flag = if poss_dup { "Y" } else { "N" };
        self.write(&format!("order {cl_ord_id} {seq} {flag}\n"));
        self.recorded.insert(cl_ord_id);
        Ok(())
    }
}

/// A line of the record file.
#[derive(Debug, PartialEq, Eq)]
enum Record {
    Logon,
    Order {
        cl_ord_id: String,
        seq: u64,
        poss_dup: bool,
    },
    /// A possible duplicate of a recorded order, passed over.
    Skip {
        cl_ord_id: String,
        seq: u64,
    },
    /// The order sent after the burst.
    Sync {
        seq: u64,
    },
}

impl Record {
    fn parse(line: &str) -> Record {
        let parts: Vec<&str> = line.split(' ').collect();
        match parts[..] {
            ["logon"] => Record::Logon,
            ["order", id, seq, flag] => Record::Order {
                cl_ord_id: id.to_owned(),
                seq: seq.parse().unwrap(),
                poss_dup: flag == "Y",
            },
            ["skip", id, seq] => Record::Skip {
                cl_ord_id: id.to_owned(),
                seq: seq.parse().unwrap(),
            },
            ["sync", seq] => Record::Sync {
                seq: seq.parse().unwrap(),
            },
            _ => panic!("a record line: {line:?}"),
        }
    }
}

/// The child's side: does nothing in an ordinary test run.
#[test]
fn child() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    assert_eq!(role, "acceptor");
    let dir = PathBuf::from(std::env::var(DIR).unwrap());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let record = dir.join("record");
        let engine = Engine::start(
            settings([acceptor("EXEC", "C1", 0).file_store_path(dir.join("acceptor"))]),
            &fix44::DICTIONARY,
            move |_, _| Recorder::open(&record),
        )
        .await
        .unwrap();
        // Straight to the process's stdout, past the harness's capture.
        let mut out = std::io::stdout().lock();
        writeln!(out, "listening {}", common::port_of(&engine)).unwrap();
        out.flush().unwrap();
        drop(out);
        // Bounded, in case no one kills it.
        tokio::time::sleep(Duration::from_secs(60)).await;
        drop(engine);
    });
}

/// The acceptor process, killed when dropped (a failed run leaves none
/// behind); `to`, its relay's target.
struct Acceptor {
    child: Child,
    to: Arc<AtomicU16>,
}

impl Acceptor {
    /// SIGKILL, and the process reaped; the relay refuses until the next
    /// one tells its port (another test's listener may take this one's).
    fn kill(&mut self) {
        self.to.store(0, Ordering::SeqCst);
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Acceptor {
    fn drop(&mut self) {
        self.to.store(0, Ordering::SeqCst);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts the acceptor process; its stdout's lines come on the channel, and
/// the port it tells goes to `relay`.
fn spawn_acceptor(dir: &Path, relay: &Relay) -> (Acceptor, std_mpsc::Receiver<String>) {
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child", "--nocapture", "--test-threads=1", "-q"])
        .env(ROLE, "acceptor")
        .env(DIR, dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std_mpsc::channel();
    let to = relay.to.clone();
    std::thread::spawn(move || {
        // Read to the end, whether anyone listens or not: the child must
        // never find its stdout closed.
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { return };
            if let Some(port) = line.strip_prefix("listening ") {
                to.store(port.parse().unwrap(), Ordering::SeqCst);
            }
            let _ = tx.send(line);
        }
    });
    (
        Acceptor {
            child,
            to: relay.to.clone(),
        },
        rx,
    )
}

/// Waits for the acceptor process to say it listens, letting the runtime's
/// other tasks run meanwhile.
async fn wait_listening(lines: &std_mpsc::Receiver<String>) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        match lines.try_recv() {
            Ok(line) if line.starts_with("listening ") => return,
            Ok(_) => {}
            Err(std_mpsc::TryRecvError::Empty) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
            Err(e) => panic!("the acceptor process did not start: {e}"),
        }
    }
}

/// When a run kills the acceptor.
#[derive(Clone, Copy, Debug)]
enum Kill {
    /// Before the initiator is given this order.
    Sent(usize),
    /// Once the acceptor has recorded this many orders.
    Recorded(usize),
}

/// What one run saw, for the totals.
#[derive(Debug)]
struct RunStats {
    /// How the orders were sent, and when the acceptor was killed.
    burst: Burst,
    /// Orders the initiator had been given when the kill came.
    sent_at_kill: usize,
    /// Orders recorded from a resend (PossDup=Y), and resent ones passed over.
    resent: usize,
    skipped: usize,
}

#[test]
fn an_acceptor_killed_mid_burst_gets_every_order_once() {
    if std::env::var(ROLE).is_ok() {
        return;
    }
    let seed = match std::env::var("FIX_ENGINE_CRASH_SEED") {
        Ok(s) => s.parse().unwrap(),
        Err(_) => fastrand::u64(..),
    };
    let runs: usize = std::env::var("FIX_ENGINE_CRASH_RUNS")
        .map(|s| s.parse().unwrap())
        .unwrap_or(20);
    println!("FIX_ENGINE_CRASH_SEED={seed}");
    // Each run's own seed, drawn up front: a run replays the same whichever
    // lane it runs in.
    let mut rng = fastrand::Rng::with_seed(seed);
    let seeds: Vec<u64> = (0..runs).map(|_| rng.u64(..)).collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let started = Instant::now();
    // Two runs at a time: most of a run is waiting (for the acceptor process
    // to start, for ReconnectInterval).
    let lane = |first: usize| {
        let seeds = &seeds;
        async move {
            let mut done = Vec::new();
            for run in (first..seeds.len()).step_by(2) {
                let run_started = Instant::now();
                let stats = one_run(&mut fastrand::Rng::with_seed(seeds[run]), run).await;
                done.push((run, stats, run_started.elapsed()));
            }
            done
        }
    };
    let (a, b) = runtime.block_on(async { tokio::join!(lane(0), lane(1)) });
    let mut all: Vec<_> = a.into_iter().chain(b).collect();
    all.sort_by_key(|(run, _, _)| *run);
    for (run, stats, took) in &all {
        println!(
            "run {run}: batches of {}{}, killed at {:?} with {} sent; \
             {} recorded from a resend, {} resent ones passed over; {:.1} s",
            stats.burst.batch,
            if stats.burst.mixed {
                " (send and send_now)"
            } else {
                ""
            },
            stats.burst.kill,
            stats.sent_at_kill,
            stats.resent,
            stats.skipped,
            took.as_secs_f64()
        );
    }
    let all: Vec<RunStats> = all.into_iter().map(|(_, stats, _)| stats).collect();
    let mid_burst = all.iter().filter(|s| s.sent_at_kill < ORDERS).count();
    let resent: usize = all.iter().map(|s| s.resent).sum();
    println!(
        "{runs} runs passed, {mid_burst} killed while orders were still being sent, \
         {resent} orders recovered by resends, {:.1} s",
        started.elapsed().as_secs_f64()
    );
    // The test tested something: kills while the initiator was sending, and
    // orders that only a resend brought.
    assert!(
        mid_burst * 4 >= runs && resent > 0,
        "{mid_burst} of {runs}, {resent}"
    );
}

async fn one_run(rng: &mut fastrand::Rng, run: usize) -> RunStats {
    let dir = TestDir::new(&format!("crash-{run}"));
    let relay = Relay::default();
    let port = relay.start().await;
    let (child, lines) = spawn_acceptor(&dir, &relay);
    wait_listening(&lines).await;
    let ini = Engine::start(
        settings([initiator("C1", "EXEC", port).file_store_path(dir.join("initiator"))]),
        &fix44::DICTIONARY,
        |_, _| NoApp,
    )
    .await
    .unwrap();
    let handle = ini.session(&initiator_id()).unwrap();
    tokio::time::timeout(Duration::from_secs(20), handle.wait_for(State::LoggedOn))
        .await
        .expect("the first logon");

    let ids: Vec<String> = (0..ORDERS).map(|i| format!("R{run}-{i}")).collect();
    // Even runs kill while the initiator is sending (what it had queued, and
    // what it sends until it sees the connection gone, must get through); odd
    // runs once the acceptor has recorded some of the orders (it dies halfway
    // through what reached it).
    let kill = if run.is_multiple_of(2) {
        Kill::Sent(rng.usize(1..ORDERS))
    } else {
        Kill::Recorded(rng.usize(1..ORDERS))
    };
    // Orders sent without a pause: the more, the more are on their way
    // (queued, in the session's output, in the sockets, read and not yet
    // handled) when the acceptor dies.
    let batch = rng.usize(1..=64);
    // Half the runs queue every order: the more are on their way when the
    // acceptor dies. The other half write every other one directly.
    let mixed = run % 4 < 2;
    let record = dir.join("record");
    let plan = Burst { kill, batch, mixed };
    let sender = {
        let (handle, ids, dir) = (handle.clone(), ids.clone(), dir.to_path_buf());
        let relay = relay.clone();
        std::thread::spawn(move || burst(&handle, &ids, plan, child, &dir, &relay))
    };
    // The initiator's engine runs on this thread meanwhile.
    while !sender.is_finished() {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (mut child, sent_at_kill) = sender.join().unwrap();
    let mut stats = RunStats {
        burst: plan,
        sent_at_kill,
        resent: 0,
        skipped: 0,
    };

    // Then the sync order. Every order recorded is not enough: an acceptor
    // killed once all were recorded may not have stored their numbers (a
    // step's records reach the log at its end), and the one started then
    // asks for them again; the sync order, handled after them in sequence,
    // says it has. (Without it, a run under load compared the numbers while
    // the new acceptor was still asking: 152 against 402.)
    let deadline = Instant::now() + RUN_WAIT;
    let sync = order(&format!("R{run}{SYNC}"));
    while let Err(e) = handle.send(b"D", &sync) {
        assert!(
            matches!(e, SendError::Full | SendError::NotConnected),
            "{e}"
        );
        assert!(
            Instant::now() < deadline,
            "run {run}: the sync order not taken"
        );
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    // Every order recorded, and the sync order after them, within the wait.
    let records = loop {
        let records = read_records(&record);
        let orders = records
            .iter()
            .filter(|r| matches!(r, Record::Order { .. }))
            .count();
        if orders >= ORDERS && records.iter().any(|r| matches!(r, Record::Sync { .. })) {
            break records;
        }
        assert!(
            Instant::now() < deadline,
            "run {run}: {orders} of {ORDERS} orders recorded after {} s",
            RUN_WAIT.as_secs()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    child.kill();
    // Anything late would have come by now.
    let records = {
        let later = read_records(&record);
        assert_eq!(
            later.len(),
            records.len(),
            "run {run}: records after the last order"
        );
        later
    };

    // Each order recorded exactly once, at the number the initiator stored it
    // under: a resend keeps the number.
    let mut sent = stored_orders(&dir.join("initiator"), &initiator_id());
    sent.retain(|_, id| !id.ends_with(SYNC));
    assert_eq!(
        sent.len(),
        ORDERS,
        "run {run}: the initiator stored every order once"
    );
    let by_id: HashMap<&str, u64> = sent.iter().map(|(seq, id)| (id.as_str(), *seq)).collect();
    let mut seen = HashMap::new();
    // In a connection, the session hands the application its orders in
    // sequence, resent ones included.
    let mut last = 0;
    for r in &records {
        if let Record::Order { seq, .. } | Record::Skip { seq, .. } | Record::Sync { seq } = r {
            assert!(*seq > last, "run {run}: {seq} after {last}");
            last = *seq;
        }
        match r {
            Record::Logon => last = 0,
            Record::Order {
                cl_ord_id,
                seq,
                poss_dup,
            } => {
                assert_eq!(
                    by_id.get(cl_ord_id.as_str()),
                    Some(seq),
                    "run {run}: {cl_ord_id} recorded at {seq}"
                );
                if let Some(first) = seen.insert(cl_ord_id.clone(), *seq) {
                    panic!("run {run}: {cl_ord_id} recorded twice ({first} and {seq})");
                }
                stats.resent += usize::from(*poss_dup);
            }
            Record::Skip { cl_ord_id, seq } => {
                assert!(
                    seen.contains_key(cl_ord_id),
                    "run {run}: {cl_ord_id} skipped first"
                );
                assert_eq!(by_id.get(cl_ord_id.as_str()), Some(seq), "run {run}");
                stats.skipped += 1;
            }
            Record::Sync { seq } => {
                assert_eq!(
                    seen.len(),
                    ORDERS,
                    "run {run}: the sync order before the last order"
                );
                assert!(
                    *seq > by_id.values().copied().max().unwrap_or(0),
                    "run {run}"
                );
            }
        }
    }
    for id in &ids {
        assert!(seen.contains_key(id), "run {run}: {id} lost");
    }
    // The numbers agree: the acceptor has handled (or had gap-filled) every
    // number the initiator used, no more.
    let (ini_next_sender, _) = store_numbers(&dir.join("initiator"), &initiator_id());
    let (_, acc_next_target) = store_numbers(&dir.join("acceptor"), &acceptor_id());
    assert_eq!(acc_next_target, ini_next_sender, "run {run}");
    stats
}

/// How a run's orders are sent and when its acceptor dies.
#[derive(Clone, Copy, Debug)]
struct Burst {
    kill: Kill,
    /// Orders sent in a row between pauses.
    batch: usize,
    /// Every other order through `send_now`.
    mixed: bool,
}

/// Sends `ids` as orders from a thread of their own, as an application's
/// thread would, as `burst` says: `batch` at a time with a pause between, with
/// `mixed` every other one through `send_now` (written from this thread when the session is
/// free), so that both ways out meet the dying connection; kills the acceptor
/// when `kill` says (during the burst, or after it when the acceptor is
/// behind) and starts it again. Returns the acceptor running now, and how
/// many orders had been sent when it was killed.
fn burst(
    handle: &SessionHandle,
    ids: &[String],
    burst: Burst,
    mut child: Acceptor,
    dir: &Path,
    relay: &Relay,
) -> (Acceptor, usize) {
    let Burst { kill, batch, mixed } = burst;
    let recorded = || {
        read_records(&dir.join("record"))
            .iter()
            .filter(|r| matches!(r, Record::Order { .. }))
            .count()
    };
    let due = |sent: usize| match kill {
        Kill::Sent(n) => sent >= n,
        Kill::Recorded(n) => (sent.is_multiple_of(batch) || sent == ids.len()) && recorded() >= n,
    };
    let restart = |child: &mut Acceptor| {
        child.kill();
        *child = spawn_acceptor(dir, relay).0;
    };
    let mut sent_at_kill = None;
    for (i, id) in ids.iter().enumerate() {
        if sent_at_kill.is_none() && due(i) {
            restart(&mut child);
            sent_at_kill = Some(i);
        }
        let body = order(id);
        let deadline = Instant::now() + RUN_WAIT;
        loop {
            let sent = if !mixed || i % 2 == 0 {
                handle.send(b"D", &body)
            } else {
                handle.send_now(b"D", &body)
            };
            match sent {
                Ok(()) => break,
                // The connection is behind, or the session between
                // connections: the application waits and tries again.
                Err(SendError::Full | SendError::NotConnected) => {
                    assert!(Instant::now() < deadline, "{id} not taken in {RUN_WAIT:?}");
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(e) => panic!("{e}"),
            }
        }
        if (i + 1) % batch == 0 {
            // About as fast as the acceptor stores and records them.
            std::thread::sleep(Duration::from_micros(300) * batch as u32);
        }
    }
    let deadline = Instant::now() + RUN_WAIT;
    while sent_at_kill.is_none() {
        if due(ids.len()) {
            restart(&mut child);
            sent_at_kill = Some(ids.len());
        }
        assert!(Instant::now() < deadline, "{kill:?} not reached");
        std::thread::sleep(Duration::from_millis(1));
    }
    (child, sent_at_kill.unwrap_or_default())
}

/// The record file's whole lines.
fn read_records(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    text[..whole].lines().map(Record::parse).collect()
}

/// Session `id`'s store in `dir`, once its engine has let it go. The other
/// lane may be starting an acceptor process just then: between its fork and
/// its exec the new process holds a copy of every file this one has open,
/// lock files included, for a few milliseconds.
fn open_store(dir: &Path, id: &SessionId) -> Box<dyn MessageStore> {
    let deadline = Instant::now() + Duration::from_secs(2);
    loop {
        match common::open_session_store(dir, id) {
            Err(StoreError::Locked { .. }) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(1));
            }
            result => return result.unwrap(),
        }
    }
}

/// The orders stored in session `id`'s store in `dir`: (MsgSeqNum, ClOrdID).
fn stored_orders(dir: &Path, id: &SessionId) -> BTreeMap<u64, String> {
    let mut store = open_store(dir, id);
    let mut orders = BTreeMap::new();
    let mut at = 1;
    loop {
        let chunk = store
            .read_stored(at, u64::MAX, ChunkLimit::default(), &mut |seq, msg| {
                let fields: Vec<&[u8]> = msg.split(|&b| b == 1).collect();
                if fields.contains(&&b"35=D"[..]) {
                    let id = fields.iter().find_map(|f| f.strip_prefix(b"11=")).unwrap();
                    orders.insert(seq, String::from_utf8(id.to_vec()).unwrap());
                }
            })
            .unwrap();
        match chunk.resume_at {
            Some(next) => at = next,
            None => return orders,
        }
    }
}

/// Session `id`'s store in `dir`: (next sender number, next target number).
fn store_numbers(dir: &Path, id: &SessionId) -> (u64, u64) {
    let store = open_store(dir, id);
    (store.next_sender_seq(), store.next_target_seq())
}

struct NoApp;
impl Application for NoApp {}
