//! The store's own thread: a current-thread tokio runtime that owns the
//! connection, runs the store's requests one at a time, and renews the lease.
//!
//! The store's callers may be inside tokio tasks, on blocking threads or on
//! plain threads: none of them can drive a runtime of its own (a `block_on`
//! inside a task panics), but all may block on a channel, so they send a
//! request here and wait for its reply.

use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender};
use tokio::time::timeout;
use tokio_postgres::{Client, NoTls, Statement};

use crate::batch::{BatchData, CommitTicket, Outcome};
use crate::sql::{self, Page, SessionRow, StoredRow};

/// A client or server error, or a request that took longer than a lease.
pub(crate) type DbError = Box<dyn std::error::Error + Send + Sync>;

/// Where a request's answer goes.
pub(crate) type Reply<T> = mpsc::Sender<Result<T, DbError>>;

/// The store's end of the request channel.
pub(crate) type Sender = UnboundedSender<Request>;

/// What the store asks of its thread.
#[derive(Debug)]
pub(crate) enum Request {
    Ensure {
        creation_ns: i64,
        reply: Reply<SessionRow>,
    },
    Take {
        reply: Reply<Option<SessionRow>>,
    },
    Renew {
        epoch: i64,
        reply: Reply<Option<SessionRow>>,
    },
    Release {
        epoch: i64,
        reply: Reply<()>,
    },
    /// A batch to commit; its job learns how it went through `commit`.
    Commit {
        data: Arc<BatchData>,
        commit: CommitTicket,
    },
    Reset {
        epoch: i64,
        creation_ns: i64,
        reply: Reply<Option<i64>>,
    },
    Read {
        page: Page,
        reply: Reply<Vec<StoredRow>>,
    },
    /// A standby's Logout under the session's next sender number.
    TakeAsStandby {
        row: crate::layout::Row,
        next: i64,
        reply: Reply<bool>,
    },
    /// The store is dropped: the thread ends, whoever else still holds a
    /// sender (a batch job the store kept, say).
    Stop,
}

/// The lease as the thread keeps it, shared with the store: the epoch held,
/// the local deadline past which the store must stop writing, and the
/// connection the lease was taken on (its number, counted by the worker).
#[derive(Debug, Default)]
pub(crate) struct LeaseState {
    pub(crate) epoch: Option<i64>,
    pub(crate) deadline: Option<Instant>,
    pub(crate) connection: Option<u64>,
    /// A test's hook: renewals stop, as when the thread cannot reach the server.
    pub(crate) paused: bool,
}

pub(crate) type SharedLease = Arc<Mutex<LeaseState>>;

/// Forgets the lease: the store is told at its next write, by its state.
fn forget(shared: &SharedLease) {
    let mut state = shared.lock().unwrap_or_else(|e| e.into_inner());
    state.epoch = None;
    state.deadline = None;
    state.connection = None;
}

/// Forgets the lease if it was taken on connection `id`, which just ended.
fn forget_if_on(shared: &SharedLease, id: u64) {
    let on_it = shared.lock().unwrap_or_else(|e| e.into_inner()).connection == Some(id);
    if on_it {
        forget(shared);
    }
}

/// Sends a request and blocks for its reply.
pub(crate) fn call<T>(tx: &Sender, make: impl FnOnce(Reply<T>) -> Request) -> Result<T, DbError> {
    let (reply, answer) = mpsc::channel();
    tx.send(make(reply))
        .map_err(|_| "the store's thread has stopped")?;
    answer
        .recv()
        .map_err(|_| "the store's thread has stopped")?
}

/// How long before the lease's end the store stops: a quarter of the lease,
/// for the clocks' drift and the request's own time.
pub(crate) fn deadline_after(request_sent: Instant, lease: Duration) -> Instant {
    request_sent + lease - lease / 4
}

/// What the thread needs to reach the server and hold the lease.
pub(crate) struct Worker {
    pub(crate) connection: String,
    pub(crate) key: String,
    pub(crate) node: String,
    pub(crate) lease: Duration,
    pub(crate) shared: SharedLease,
    client: Option<Client>,
    /// The batch statement, prepared on `client`.
    insert_batch: Option<Statement>,
    /// How many connections this worker made: the last one's number.
    connections: u64,
}

impl Worker {
    pub(crate) fn new(
        connection: String,
        key: String,
        node: String,
        lease: Duration,
        shared: SharedLease,
    ) -> Self {
        Worker {
            connection,
            key,
            node,
            lease,
            shared,
            client: None,
            insert_batch: None,
            connections: 0,
        }
    }

    /// Starts the thread; it ends when the store drops its sender.
    pub(crate) fn spawn(self) -> std::io::Result<(Sender, std::thread::JoinHandle<()>)> {
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let handle = std::thread::Builder::new()
            .name(format!("pg-store {}", self.key))
            .spawn(move || runtime.block_on(self.run(rx)))?;
        Ok((tx, handle))
    }

    async fn run(mut self, mut rx: UnboundedReceiver<Request>) {
        let mut tick = tokio::time::interval(self.lease / 3);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                request = rx.recv() => match request {
                    Some(Request::Stop) | None => break,
                    Some(request) => self.handle(request).await,
                },
                _ = tick.tick() => self.renew_tick().await,
            }
        }
    }

    /// A connected client, connecting anew when the last one was lost: for
    /// requests that hold no lease (open, take, read), so a restarted server
    /// is used again without a new store.
    async fn any_client(&mut self) -> Result<&mut Client, DbError> {
        if self.client.as_ref().is_none_or(Client::is_closed) {
            self.connect().await?;
        }
        self.client.as_mut().ok_or_else(|| "no connection".into())
    }

    /// The connection the lease was taken on, for the requests made under
    /// the lease (renew, commit, reset, release). `None` when it is gone,
    /// and the lease with it: a lease lives on the connection that took it,
    /// so an engine cut off from the server loses it rather than quietly
    /// reconnecting and renewing it.
    fn lease_client(&mut self) -> Option<&mut Client> {
        let on = self.lease_state().connection;
        let open = self.client.as_ref().is_some_and(|c| !c.is_closed());
        if on.is_some() && on == Some(self.connections) && open {
            return self.client.as_mut();
        }
        self.lost();
        None
    }

    /// Connects and migrates; the connection's end (closed by the server,
    /// or by an error) forgets a lease taken on it at once, so the store's
    /// next write fails without waiting for the local deadline.
    async fn connect(&mut self) -> Result<(), DbError> {
        self.client = None;
        self.insert_batch = None;
        self.connections += 1;
        let id = self.connections;
        let (mut client, connection) = tokio_postgres::connect(&self.connection, NoTls).await?;
        let shared = self.shared.clone();
        tokio::spawn(async move {
            let _ = connection.await;
            forget_if_on(&shared, id);
        });
        // The store's statements are small lookups by primary key. With JIT
        // on (PostgreSQL's default where LLVM is installed), a plan the
        // planner costs above `jit_above_cost` (stale statistics after a
        // burst of batches will do) is compiled at every execution: about
        // 300 ms a read on this machine, so a resend of a thousand messages,
        // read a chunk at a time, held a QuickFIX counterparty for 10 s after
        // a takeover (issue 38). Off for the store's own connections only.
        client.batch_execute("SET jit = off").await?;
        crate::schema::migrate(&mut client).await?;
        self.insert_batch = Some(sql::prepare_insert(&client).await?);
        self.client = Some(client);
        Ok(())
    }

    fn lease_state(&self) -> std::sync::MutexGuard<'_, LeaseState> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn secs(&self) -> f64 {
        self.lease.as_secs_f64()
    }

    async fn handle(&mut self, request: Request) {
        let limit = self.lease;
        match request {
            Request::Ensure { creation_ns, reply } => {
                let r = timeout(limit, self.ensure(creation_ns)).await;
                let _ = reply.send(self.settle(r, limit));
            }
            Request::Take { reply } => {
                let r = timeout(limit, self.take()).await;
                let _ = reply.send(self.settle(r, limit));
            }
            Request::Renew { epoch, reply } => {
                let r = timeout(limit, self.renew(epoch)).await;
                let _ = reply.send(self.settle(r, limit));
            }
            Request::Release { epoch, reply } => {
                let r = timeout(limit, self.release(epoch)).await;
                let _ = reply.send(self.settle(r, limit));
            }
            Request::Commit { data, commit } => {
                let r = timeout(limit, self.commit(data)).await;
                commit.end(match self.settle(r, limit) {
                    Ok(outcome) => outcome,
                    Err(e) => Outcome::Failed(e.to_string()),
                });
            }
            Request::TakeAsStandby { row, next, reply } => {
                let r = timeout(limit, self.take_as_standby(row, next)).await;
                let _ = reply.send(self.settle(r, limit));
            }
            Request::Reset {
                epoch,
                creation_ns,
                reply,
            } => {
                let r = timeout(limit, self.reset(epoch, creation_ns)).await;
                let _ = reply.send(self.settle(r, limit));
            }
            Request::Read { page, reply } => {
                let r = timeout(limit, self.read(page)).await;
                let _ = reply.send(self.settle(r, limit));
            }
            // `run` ends at it before it gets here.
            Request::Stop => {}
        }
    }

    /// A request that took longer than `limit` is an error, not a store
    /// blocked for ever; its connection is dropped, as its state is unknown.
    fn settle<T>(
        &mut self,
        r: Result<Result<T, DbError>, tokio::time::error::Elapsed>,
        limit: Duration,
    ) -> Result<T, DbError> {
        r.unwrap_or_else(|_| {
            self.client = None;
            forget_if_on(&self.shared, self.connections);
            Err(format!("no answer from the server in {limit:?}").into())
        })
    }

    async fn ensure(&mut self, creation_ns: i64) -> Result<SessionRow, DbError> {
        let key = self.key.clone();
        sql::ensure(self.any_client().await?, &key, creation_ns).await
    }

    async fn take(&mut self) -> Result<Option<SessionRow>, DbError> {
        let (key, node, secs) = (self.key.clone(), self.node.clone(), self.secs());
        let sent = Instant::now();
        let row = sql::take(self.any_client().await?, &key, &node, secs).await?;
        if let Some(row) = &row {
            self.held(row.epoch, sent);
        }
        Ok(row)
    }

    /// `None` when the lease was taken over, or its connection was lost.
    async fn renew(&mut self, epoch: i64) -> Result<Option<SessionRow>, DbError> {
        let (key, node, secs) = (self.key.clone(), self.node.clone(), self.secs());
        let sent = Instant::now();
        let Some(client) = self.lease_client() else {
            return Ok(None);
        };
        let row = sql::renew(client, &key, &node, epoch, secs).await?;
        match &row {
            Some(_) => self.held(epoch, sent),
            None => self.lost(),
        }
        Ok(row)
    }

    /// Nothing to let go when the lease's connection is gone: the lease
    /// then lapses on its own.
    async fn release(&mut self, epoch: i64) -> Result<(), DbError> {
        let (key, node) = (self.key.clone(), self.node.clone());
        let released = match self.lease_client() {
            Some(client) => sql::release(client, &key, &node, epoch).await,
            None => Ok(()),
        };
        self.lost();
        released
    }

    /// Fenced (nothing written) when the lease's connection is gone; a
    /// batch the lease let through but the numbers did not was overtaken by
    /// a standby's Logout.
    async fn commit(&mut self, data: Arc<BatchData>) -> Result<Outcome, DbError> {
        // No statement, no connection: no lease either.
        let Some(insert_batch) = self.insert_batch.clone() else {
            return Ok(Outcome::Fenced);
        };
        let Some(client) = self.lease_client() else {
            return Ok(Outcome::Fenced);
        };
        if sql::commit(client, &insert_batch, data.clone()).await? {
            return Ok(Outcome::Committed);
        }
        let client = self.lease_client().ok_or("the connection was lost")?;
        Ok(match sql::number_taken(client, &data).await? {
            Some(next) => Outcome::NumberTaken(next),
            None => Outcome::Fenced,
        })
    }

    async fn take_as_standby(
        &mut self,
        row: crate::layout::Row,
        next: i64,
    ) -> Result<bool, DbError> {
        let (key, node) = (self.key.clone(), self.node.clone());
        sql::take_as_standby(self.any_client().await?, &key, &node, &row, next).await
    }

    async fn reset(&mut self, epoch: i64, creation_ns: i64) -> Result<Option<i64>, DbError> {
        let (key, node) = (self.key.clone(), self.node.clone());
        match self.lease_client() {
            Some(client) => sql::reset(client, &key, &node, epoch, creation_ns).await,
            None => Ok(None),
        }
    }

    async fn read(&mut self, page: Page) -> Result<Vec<StoredRow>, DbError> {
        sql::read(self.any_client().await?, &page).await
    }

    fn held(&self, epoch: i64, sent: Instant) {
        let mut state = self.lease_state();
        state.epoch = Some(epoch);
        state.deadline = Some(deadline_after(sent, self.lease));
        state.connection = Some(self.connections);
    }

    fn lost(&self) {
        forget(&self.shared);
    }

    /// Renews a held lease; on an error the deadline stands, and passes
    /// (unless the error ended the connection, which ends the lease).
    async fn renew_tick(&mut self) {
        let epoch = {
            let state = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            if state.paused { None } else { state.epoch }
        };
        let Some(epoch) = epoch else { return };
        let limit = self.lease / 3;
        let r = timeout(limit, self.renew(epoch)).await;
        let _ = self.settle(r, limit);
    }
}

impl std::fmt::Debug for Worker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Worker")
            .field("key", &self.key)
            .field("node", &self.node)
            .finish()
    }
}
