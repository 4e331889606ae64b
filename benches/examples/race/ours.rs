//! Our engine in the race: an acceptor `Engine` and an initiator `Engine`, each
//! on a current-thread tokio runtime of its own thread.

use std::ops::Range;
use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fix_core::Message;
use fix_core::value::{Decimal, FixStr};
use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_engine::{Engine, EngineOptions, SendError, SessionHandle};
use fix_session::{AppReject, Application, Outbox, SessionId, State, SyncPolicy};
use fix44::components::{InstrumentBuilder, OrderQtyDataBuilder};
use fix44::enums::{ExecType, OrdStatus, Side};
use fix44::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired, NewOrderSingle,
};
use tokio::runtime::Handle;
use tokio::sync::oneshot;

use crate::{BACKOFF, Client, ORDER_FIELDS, Tracker};

/// Our engine's name in the output.
pub(crate) const NAME: &str = "ours";
/// Our engine with its default, durable store (`FileStoreSync=Y`: each message
/// durable before it leaves, by group commit).
pub(crate) const NAME_DURABLE: &str = "ours, FileStoreSync=Y";
/// Our engine with its PostgreSQL store (one commit a batch, fenced by a
/// lease), both sides on one local server.
pub(crate) const NAME_POSTGRES: &str = "ours, PostgreSQL";

/// Where a pair keeps its stores in the race.
#[derive(Clone, Copy)]
pub(crate) enum Store<'a> {
    /// File stores synced by the system (`FileStoreSync=N`).
    Os,
    /// File stores durable before sending (`FileStoreSync=Y`).
    Durable,
    /// PostgreSQL, through this connection string.
    Postgres(&'a str),
}

/// The acceptor: answers each NewOrderSingle with an ExecutionReport, or (one-way)
/// only records it. On the typed path, as the executor example is: the order
/// through fix44's generated dispatch, the report a builder sent through the
/// `Outbox` (the same fields as QuickFIX's side of the race answers with).
struct Executor {
    record_only: Option<Arc<Tracker>>,
    values: ReportValues,
}

/// `REPORT_FIELDS`' values, typed once.
#[derive(Clone, Copy)]
struct ReportValues {
    one: FixStr<'static>,
    symbol: FixStr<'static>,
    qty: Decimal,
}

impl Executor {
    fn new(record_only: Option<Arc<Tracker>>) -> Self {
        let text = |s: &'static str| FixStr::parse(s.as_bytes()).expect("no SOH in it");
        let values = ReportValues {
            one: text("1"),
            symbol: text("EUR/USD"),
            qty: Decimal::new(100, 0).expect("in range"),
        };
        Executor {
            record_only,
            values,
        }
    }
}

impl fix44::Handler<Outbox, AppReject> for Executor {
    fn on_new_order_single(
        &mut self,
        order: &NewOrderSingle<'_>,
        out: &mut Outbox,
    ) -> Result<(), AppReject> {
        let cl_ord_id = order.cl_ord_id().ok();
        match &self.record_only {
            Some(t) => t.record(cl_ord_id.map_or(&[][..], |c| c.as_bytes())),
            None => {
                let report = report(cl_ord_id, self.values);
                out.send(&report).map_err(|e| AppReject::Business {
                    reason: 0,
                    ref_tag: None,
                    text: e.to_string(),
                })?;
            }
        }
        Ok(())
    }
}

impl Application for Executor {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        fix44::crack(self, msg, out)
    }
}

/// The race's ExecutionReport for an order: `REPORT_FIELDS`, typed.
fn report(cl_ord_id: Option<FixStr<'_>>, v: ReportValues) -> ExecutionReportBuilder<'_> {
    let zero = Decimal::ZERO;
    ExecutionReportBuilder {
        cl_ord_id,
        instrument: Some(InstrumentBuilder {
            symbol: Some(v.symbol),
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(v.qty),
            ..Default::default()
        }),
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: v.one,
            exec_id: v.one,
            exec_type: ExecType::New,
            ord_status: OrdStatus::New,
            side: Side::Buy,
            leaves_qty: v.qty,
            cum_qty: zero,
            avg_px: zero,
        })
    }
}

/// The initiator: records each ExecutionReport's arrival, read through its
/// typed view.
struct Recorder(Arc<Tracker>);

impl fix44::Handler<Outbox, AppReject> for Recorder {
    fn on_execution_report(
        &mut self,
        er: &ExecutionReport<'_>,
        _out: &mut Outbox,
    ) -> Result<(), AppReject> {
        let cl_ord_id = er.cl_ord_id().ok().flatten();
        self.0.record(cl_ord_id.map_or(&[][..], |c| c.as_bytes()));
        Ok(())
    }
}

impl Application for Recorder {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        fix44::crack(self, msg, out)
    }
}

/// An engine on its thread, stopped (with a Logout) when told.
struct Running {
    stop: oneshot::Sender<()>,
    thread: JoinHandle<Result<(), String>>,
}

impl Running {
    fn stop(self) -> Result<(), String> {
        let _ = self.stop.send(());
        self.thread
            .join()
            .map_err(|_| "an engine thread panicked".to_owned())?
    }
}

/// Starts an engine with `settings` on a thread of its own, and returns the
/// handle of its session `id` and of the thread's runtime.
fn spawn<A, F>(
    name: &str,
    settings: Settings,
    options: EngineOptions,
    id: SessionId,
    apps: F,
) -> Result<(SessionHandle, Handle, Running), String>
where
    A: Application + Send + 'static,
    F: Fn(&SessionId, SessionHandle) -> A + Send + Sync + 'static,
{
    let (handle_tx, handle_rx) = std::sync::mpsc::channel();
    let (stop, stopped) = oneshot::channel::<()>();
    let thread = std::thread::Builder::new()
        .name(name.to_owned())
        .spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| format!("tokio runtime: {e}"))?;
            runtime.block_on(async move {
                let engine =
                    match Engine::start_with(settings, &fix44::DICTIONARY, options, apps).await {
                        Ok(e) => e,
                        Err(e) => {
                            let _ = handle_tx.send(Err(e.to_string()));
                            return Ok(());
                        }
                    };
                let session = engine.session(&id).ok_or(format!("no session {id}"));
                let _ = handle_tx.send(session.map(|s| (s, Handle::current())));
                let _ = stopped.await;
                engine
                    .shutdown(Duration::from_secs(5))
                    .await
                    .map(|_| ())
                    .map_err(|e| e.to_string())
            })
        })
        .map_err(|e| format!("thread: {e}"))?;
    let (session, runtime) = handle_rx
        .recv()
        .map_err(|_| format!("the {name} thread ended before starting its engine"))??;
    Ok((session, runtime, Running { stop, thread }))
}

/// Where each side keeps its store.
#[derive(Clone, Copy)]
enum Stores<'a> {
    /// File stores in these directories (acceptor, initiator), synced as the
    /// policy says.
    Files(&'a Path, &'a Path, SyncPolicy),
    /// PostgreSQL stores through this connection string.
    Postgres(&'a str),
    Memory,
}

/// The acceptor's and the initiator's engines, logged on to each other.
struct Pair {
    client: SessionHandle,
    /// The initiator's runtime.
    runtime: Handle,
    acceptor: Running,
    initiator: Running,
}

impl Pair {
    fn start(
        stores: Stores<'_>,
        options: EngineOptions,
        executor: impl Fn() -> Executor + Send + Sync + 'static,
        recorder: Arc<Tracker>,
    ) -> Result<Pair, String> {
        let port = fix_benches::free_port()?;
        let (a_dir, i_dir, policy) = match stores {
            Stores::Files(a, i, policy) => (Some(a), Some(i), policy),
            Stores::Postgres(_) | Stores::Memory => (None, None, SyncPolicy::Os),
        };
        let with_store = |b: SessionBuilder, dir: Option<&Path>| match (dir, stores) {
            (Some(d), _) => b.file_store_path(d).file_store_sync(policy),
            (None, Stores::Postgres(connection)) => b.postgres_store(connection),
            (None, _) => b,
        };
        let a_id = SessionId::new("FIX.4.4", "EXEC", "C1");
        let a = SessionBuilder::acceptor(a_id.clone())
            .socket_accept_address("127.0.0.1")
            .socket_accept_port(port)
            .schedule(Schedule::non_stop());
        let a = with_store(a, a_dir).build().map_err(|e| e.to_string())?;
        let a = Settings::new([a]).map_err(|e| e.to_string())?;
        let (_, _, acceptor) = spawn("ours-acceptor", a, options.clone(), a_id, move |_, _| {
            executor()
        })?;

        let i_id = SessionId::new("FIX.4.4", "C1", "EXEC");
        let i = SessionBuilder::initiator(i_id.clone())
            .heart_bt_int(30)
            .socket_connect("127.0.0.1", port)
            .reconnect_interval(Duration::from_secs(1))
            .schedule(Schedule::non_stop());
        let i = with_store(i, i_dir).build().map_err(|e| e.to_string())?;
        let i = Settings::new([i]).map_err(|e| e.to_string())?;
        let (client, runtime, initiator) =
            spawn("ours-initiator", i, options, i_id, move |_, _| {
                Recorder(recorder.clone())
            })?;
        let deadline = Instant::now() + Duration::from_secs(10);
        while client.state() != State::LoggedOn {
            if Instant::now() > deadline {
                return Err("ours: the initiator did not log on in 10 s".into());
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        Ok(Pair {
            client,
            runtime,
            acceptor,
            initiator,
        })
    }

    fn stop(self) -> Result<(), String> {
        self.initiator.stop()?;
        self.acceptor.stop()
    }
}

/// Writes order `index`'s body into `body` (its ClOrdID through `id`).
fn order(id: &mut Vec<u8>, body: &mut Vec<u8>, index: u64) {
    id.clear();
    crate::push_number(id, index);
    crate::body(body, id, &ORDER_FIELDS);
}

/// Sends orders through our initiator's handle: paced ones from the caller's
/// thread with `send_now`, which writes to the socket from there as
/// QuickFIX's `sendToTarget` does; pipelined ones with `send` from a task on
/// the initiator's runtime, as a tokio application sends a burst (the
/// handle's queue is then filled while the connection task is not running,
/// and taken whole when it runs).
struct OursClient {
    handle: SessionHandle,
    runtime: Handle,
    id: Vec<u8>,
    body: Vec<u8>,
}

impl OursClient {
    fn new(pair: &Pair) -> OursClient {
        OursClient {
            handle: pair.client.clone(),
            runtime: pair.runtime.clone(),
            id: Vec::new(),
            body: Vec::new(),
        }
    }
}

impl Client for OursClient {
    fn send(&mut self, index: u64) -> Result<(), String> {
        order(&mut self.id, &mut self.body, index);
        loop {
            match self.handle.send_now(b"D", &self.body) {
                Ok(()) => return Ok(()),
                Err(SendError::Full) => std::thread::sleep(BACKOFF),
                Err(e) => return Err(format!("ours: order {index}: {e}")),
            }
        }
    }

    fn pipelined(
        &mut self,
        t: &Arc<Tracker>,
        range: Range<u64>,
        window: Option<u64>,
    ) -> Result<(), String> {
        let (handle, t) = (self.handle.clone(), t.clone());
        let (done, result) = std::sync::mpsc::channel();
        self.runtime.spawn(async move {
            let (mut id, mut body) = (Vec::new(), Vec::new());
            for i in range {
                while window.is_some_and(|w| i - t.received() >= w) {
                    t.answered.notified().await;
                }
                order(&mut id, &mut body, i);
                loop {
                    match handle.send(b"D", &body) {
                        Ok(()) => break,
                        // The connection task takes the queue when this yields.
                        Err(SendError::Full) => tokio::task::yield_now().await,
                        Err(e) => {
                            let _ = done.send(Err(format!("ours: order {i}: {e}")));
                            return;
                        }
                    }
                }
            }
            let _ = done.send(Ok(()));
        });
        result
            .recv()
            .map_err(|_| "ours: the sending task ended without a result".to_owned())?
    }
}

/// Starts our pair with `store` (file stores in `root`, or PostgreSQL),
/// answers recorded in `tracker`, and runs `race` with its client; stops the
/// pair after.
pub(crate) fn with_client(
    root: &Path,
    store: Store<'_>,
    tracker: &Arc<Tracker>,
    race: &mut dyn FnMut(&mut dyn Client) -> Result<(), String>,
) -> Result<(), String> {
    let (name, policy) = match store {
        Store::Durable => ("ours-durable", SyncPolicy::EveryRecord),
        Store::Os | Store::Postgres(_) => ("ours", SyncPolicy::Os),
    };
    let (a, i) = (
        crate::store_dir(root, &format!("{name}-acceptor"))?,
        crate::store_dir(root, &format!("{name}-initiator"))?,
    );
    let stores = match store {
        Store::Postgres(connection) => Stores::Postgres(connection),
        _ => Stores::Files(&a, &i, policy),
    };
    let pair = Pair::start(
        stores,
        EngineOptions::default(),
        || Executor::new(None),
        tracker.clone(),
    )?;
    let mut client = OursClient::new(&pair);
    let raced = race(&mut client);
    pair.stop()?;
    raced
}

/// One-way messages per second: `n` orders into one session, memory stores
/// sized for them up front, counted by the acceptor.
pub(crate) fn one_way(n: u64) -> Result<f64, String> {
    let tracker = Arc::new(Tracker::new(n));
    let mut options = EngineOptions::default();
    let messages = n as usize + 1000;
    options.memory_store_capacity = (messages, messages * 160);
    let counted = tracker.clone();
    let pair = Pair::start(
        Stores::Memory,
        options,
        move || Executor::new(Some(counted.clone())),
        Arc::new(Tracker::new(0)),
    )?;
    let mut client = OursClient::new(&pair);
    let start = Instant::now();
    let sent = client.pipelined(&tracker, 0..n, None);
    let done = sent.and_then(|()| tracker.wait_for(n));
    let seconds = start.elapsed().as_secs_f64();
    pair.stop()?;
    done?;
    tracker.check()?;
    Ok(n as f64 / seconds)
}

/// The time one sync of our file store takes on this machine now: `n`
/// times, a message stored and synced (`SyncPolicy::Batch`, as under
/// `FileStoreSync=Y`), each sync timed; returns their median, µs.
pub(crate) fn sync_p50_us(root: &Path, n: usize) -> Result<f64, String> {
    use fix_session::{FileOptions, FileStore, MessageStore};
    let dir = crate::store_dir(root, "sync-probe")?;
    let mut store = FileStore::open_with(
        &dir,
        "FIX.4.4-PROBE",
        FileOptions::new().sync(SyncPolicy::Batch),
    )
    .map_err(|e| e.to_string())?;
    let message = [b'x'; 200];
    let mut times = Vec::with_capacity(n);
    for seq in 1..=n as u64 {
        store.store(seq, &message).map_err(|e| e.to_string())?;
        let start = Instant::now();
        store.sync().map_err(|e| e.to_string())?;
        times.push(start.elapsed().as_secs_f64() * 1e6);
    }
    times.sort_by(f64::total_cmp);
    Ok(times[times.len() / 2])
}
