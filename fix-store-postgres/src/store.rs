//! [`PostgresStore`]: the numbers and a buffer in memory, the rest in the
//! database, written a batch at a time under the lease.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use fix_session::store::{ReadDone, ReadJob, ReadRange, SyncDone, SyncJob};
use fix_session::{Chunk, ChunkLimit, MessageStore, StoreError};

use crate::batch::{BatchJob, BatchParams, Pending};
use crate::config::{LeaseBudget, PgConfig};
use crate::layout;
use crate::read::{Begun, Reader, empty_chunk, visit_buffered};
use crate::seq::from_db;
use crate::sql::SessionRow;
use crate::worker::{LeaseState, Request, Sender, SharedLease, Worker, call};

/// Why a store takes no more records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Poison {
    Fenced,
    Database,
}

/// A batch handed to a job and not yet ended.
#[derive(Debug)]
struct InFlight {
    id: u64,
    job: Arc<BatchJob>,
}

/// A fenced [`MessageStore`] over PostgreSQL (see the crate's docs).
///
/// ```no_run
/// use fix_session::MessageStore;
/// use fix_store_postgres::{PgConfig, PostgresStore};
/// let config = PgConfig::new("host=/tmp/pg user=postgres dbname=postgres", "a");
/// let mut store = PostgresStore::open(&config, "FIX.4.4-A-B", std::time::SystemTime::now())?;
/// if store.holds_lease() {
///     store.store(1, b"35=D")?;
///     let job = store.begin_sync()?.expect("a batch waits");
///     store.end_sync(job.run())?; // one commit for everything buffered
/// }
/// # Ok::<(), fix_session::StoreError>(())
/// ```
#[derive(Debug)]
pub struct PostgresStore {
    key: String,
    node: String,
    budget: Option<LeaseBudget>,
    tx: Option<Sender>,
    thread: Option<std::thread::JoinHandle<()>>,
    shared: SharedLease,
    /// The epoch this store took, `None` while standby.
    epoch: Option<i64>,
    owner_seen: Option<String>,
    generation: i64,
    created: SystemTime,
    next_sender: u64,
    next_target: u64,
    /// The sender number the database has once the batches taken so far
    /// are committed: the next batch is written from it.
    stored_sender: u64,
    pending: Pending,
    in_flight: Option<InFlight>,
    jobs: u64,
    /// Read jobs begun, and batches that left memory (committed, or
    /// dropped with the buffer): a read job that began beside other
    /// contents of memory reads again.
    reads: u64,
    batches_left: u64,
    poisoned: Option<Poison>,
    /// At `begin_answer`: the buffer's length and the sender number.
    answer: Option<(usize, u64)>,
}

impl PostgresStore {
    /// Connects (creating or migrating the tables), makes the session's row
    /// when absent (created `now`) and takes its lease when it is free and
    /// the budget allows; otherwise the store is a standby.
    pub fn open(
        config: &PgConfig,
        session_key: &str,
        now: SystemTime,
    ) -> Result<PostgresStore, StoreError> {
        let shared = Arc::new(Mutex::new(LeaseState::default()));
        let worker = Worker::new(
            config.connection.clone(),
            session_key.to_owned(),
            config.node.clone(),
            config.lease,
            shared.clone(),
        );
        let (tx, thread) = worker
            .spawn()
            .map_err(|e| db_error("start the store's thread", e.into()))?;
        let mut store = PostgresStore {
            key: session_key.to_owned(),
            node: config.node.clone(),
            budget: config.budget.clone(),
            tx: Some(tx),
            thread: Some(thread),
            shared,
            epoch: None,
            owner_seen: None,
            generation: 1,
            created: now,
            next_sender: 1,
            next_target: 1,
            stored_sender: 1,
            pending: Pending::default(),
            in_flight: None,
            jobs: 0,
            reads: 0,
            batches_left: 0,
            poisoned: None,
            answer: None,
        };
        let creation_ns = nanos(now);
        let row = store.call("open the session", |reply| Request::Ensure {
            creation_ns,
            reply,
        })?;
        store.load(&row);
        store.try_take()?;
        Ok(store)
    }

    /// Whether this store holds the session's lease now (and may write).
    ///
    /// ```no_run
    /// # let config = fix_store_postgres::PgConfig::new("host=/tmp/pg", "a");
    /// let store = fix_store_postgres::PostgresStore::open(&config, "S", std::time::SystemTime::now())?;
    /// println!("{}", if store.holds_lease() { "primary" } else { "standby" });
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn holds_lease(&self) -> bool {
        self.writable().is_ok()
    }

    /// The lease epoch this store holds, `None` while standby.
    pub fn epoch(&self) -> Option<u64> {
        self.epoch.map(|e| e as u64)
    }

    /// For tests: stops (or resumes) the lease's renewal, as when the
    /// store's thread cannot reach the server.
    #[doc(hidden)]
    pub fn pause_renewal(&self, paused: bool) {
        self.lease_state().paused = paused;
    }

    fn lease_state(&self) -> std::sync::MutexGuard<'_, LeaseState> {
        self.shared.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn sender(&self) -> Result<&Sender, StoreError> {
        self.tx
            .as_ref()
            .ok_or_else(|| db_error("reach the store's thread", "stopped".into()))
    }

    /// What reads this session's committed messages, here or in a job.
    fn reader(&self) -> Result<Reader, StoreError> {
        Ok(Reader {
            tx: self.sender()?.clone(),
            key: self.key.clone(),
            generation: self.generation,
        })
    }

    /// The last number of `from..=to` a read looks for in the database:
    /// below a drop not committed yet (which hides what it drops), and
    /// below the first message still in memory, which the read takes from
    /// there (the batch in flight may be committed by the time the read
    /// reaches the server, and would be read twice). `None` when the
    /// database has nothing of the range to give.
    fn committed_top(&self, from: u64, to: u64) -> Option<u64> {
        let drops = [
            self.pending.drop_from,
            self.in_flight
                .as_ref()
                .and_then(|f| f.job.data.drop_from.map(from_db)),
        ];
        let first_in_memory = self.in_memory().next().map(|(seq, _)| seq);
        let below = drops.into_iter().chain([first_in_memory]).flatten().min();
        let top = below.map_or(to, |b| to.min(b.saturating_sub(1)));
        (from <= top).then_some(top)
    }

    /// The messages in memory, in order: the batch in flight (less what a
    /// later drop took back), then the buffer.
    fn in_memory(&self) -> impl Iterator<Item = (u64, &[u8])> {
        let drop = self.pending.drop_from.unwrap_or(u64::MAX);
        let flying = self.in_flight.as_ref().map(|f| {
            f.job
                .data
                .seqs
                .iter()
                .copied()
                .zip(f.job.data.bytes.iter().map(Vec::as_slice))
        });
        let buffered = self
            .pending
            .seqs
            .iter()
            .copied()
            .zip(self.pending.bytes.iter().map(Vec::as_slice));
        flying
            .into_iter()
            .flatten()
            .filter(move |&(s, _)| s < drop)
            .chain(buffered)
    }

    fn call<T>(
        &self,
        op: &'static str,
        make: impl FnOnce(crate::worker::Reply<T>) -> Request,
    ) -> Result<T, StoreError> {
        call(self.sender()?, make).map_err(|e| db_error(op, e))
    }

    fn load(&mut self, row: &SessionRow) {
        self.owner_seen = row.owner.clone();
        self.generation = row.generation;
        self.created = SystemTime::UNIX_EPOCH + Duration::from_nanos(row.creation_ns as u64);
        self.next_sender = from_db(row.next_sender);
        self.next_target = from_db(row.next_target);
        self.stored_sender = self.next_sender;
        self.pending = Pending::default();
        self.in_flight = None;
        self.batches_left += 1;
        self.answer = None;
    }

    /// Takes the lease if it is free and the budget has room; reloads then.
    fn try_take(&mut self) -> Result<(), StoreError> {
        if self.budget.as_ref().is_some_and(|b| !b.try_take()) {
            return Ok(());
        }
        match self.call("take the lease", |reply| Request::Take { reply }) {
            Ok(Some(row)) => {
                self.epoch = Some(row.epoch);
                self.poisoned = None;
                self.load(&row);
                Ok(())
            }
            other => {
                self.give_back();
                other.map(|_| ())
            }
        }
    }

    /// The lease was lost (taken over, or its connection gone): what was
    /// buffered under it goes, and the store takes the lease anew if it can.
    fn take_again(&mut self) -> Result<(), StoreError> {
        self.lose_lease();
        self.poisoned = None;
        self.pending = Pending::default();
        self.in_flight = None;
        self.batches_left += 1;
        self.answer = None;
        self.try_take()
    }

    fn give_back(&mut self) {
        if let Some(budget) = &self.budget {
            budget.give_back();
        }
    }

    /// The lease was lost: the store is a standby from now on.
    fn lose_lease(&mut self) {
        if self.epoch.take().is_some() {
            self.give_back();
        }
    }

    fn fenced(&self, epoch: i64) -> StoreError {
        StoreError::Fenced {
            session: self.key.clone(),
            owner: None,
            epoch: epoch as u64,
        }
    }

    /// The epoch to write under, if the store may write now: it holds the
    /// lease, and the local deadline (the last renewal's request plus the
    /// lease, less a margin) has not passed, so no other engine can have it.
    fn writable(&self) -> Result<i64, StoreError> {
        let Some(epoch) = self.epoch else {
            return Err(StoreError::LeaseStandby {
                session: self.key.clone(),
                owner: self.owner_seen.clone(),
            });
        };
        if self.poisoned.is_some() {
            return Err(self.poison_error(epoch));
        }
        let state = self.lease_state();
        let live = state.epoch == Some(epoch) && state.deadline.is_some_and(|d| Instant::now() < d);
        drop(state);
        if live {
            Ok(epoch)
        } else {
            Err(self.fenced(epoch))
        }
    }

    fn poison_error(&self, epoch: i64) -> StoreError {
        match self.poisoned {
            Some(Poison::Fenced) => self.fenced(epoch),
            _ => db_error(
                "write",
                "an earlier batch failed; refresh or reopen the store".into(),
            ),
        }
    }

    fn params(&self, epoch: i64) -> BatchParams {
        BatchParams {
            key: self.key.clone(),
            node: self.node.clone(),
            epoch,
            generation: self.generation,
        }
    }

    /// Empties the buffer into a batch written under `epoch`, from the
    /// sender number the last batch left.
    fn take_pending(&mut self, epoch: i64) -> crate::batch::BatchData {
        let prev = std::mem::replace(&mut self.stored_sender, self.next_sender);
        let next = (self.next_sender, self.next_target);
        self.pending.take(self.params(epoch), prev, next)
    }

    /// Takes a job's failure as the store's error, and poisons the store: a
    /// fenced batch loses the lease with it (a batch a standby's Logout
    /// overtook keeps it: a refresh reads the numbers as stored).
    fn failed(&mut self, error: StoreError) -> StoreError {
        if matches!(error, StoreError::Fenced { .. }) {
            self.poisoned = Some(Poison::Fenced);
            self.lose_lease();
        } else {
            self.poisoned = Some(Poison::Database);
        }
        error
    }

    /// Commits everything buffered, here: the batch in flight first (once,
    /// whoever runs it first), then the rest.
    fn commit_now(&mut self) -> Result<(), StoreError> {
        let epoch = self.writable()?;
        self.batches_left += 1;
        if let Some(flight) = self.in_flight.take() {
            use fix_session::store::Durable;
            flight.job.make_durable().map_err(|e| self.failed(e))?;
        }
        if self.pending.is_empty() {
            return Ok(());
        }
        let data = self.take_pending(epoch);
        let job = BatchJob::start(self.sender()?, data);
        use fix_session::store::Durable;
        job.make_durable().map_err(|e| self.failed(e))
    }
}

fn nanos(t: SystemTime) -> i64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos().min(i64::MAX as u128) as i64)
}

pub(crate) fn db_error(
    op: &'static str,
    source: Box<dyn std::error::Error + Send + Sync>,
) -> StoreError {
    StoreError::Database {
        op,
        source: crate::error::plain(source),
    }
}

fn check_seq(seq: u64) -> Result<(), StoreError> {
    if seq == 0 {
        Err(StoreError::InvalidSeqNum { seq })
    } else {
        Ok(())
    }
}

impl MessageStore for PostgresStore {
    fn next_sender_seq(&self) -> u64 {
        self.next_sender
    }

    fn next_target_seq(&self) -> u64 {
        self.next_target
    }

    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        self.writable()?;
        self.pending.drop_from(seq);
        self.next_sender = seq;
        Ok(())
    }

    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        self.writable()?;
        self.pending.numbers_changed = true;
        self.next_target = seq;
        Ok(())
    }

    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        fix_session::store::check_store(self.next_sender, seq, message.len())?;
        self.writable()?;
        self.pending.seqs.push(seq);
        self.pending.bytes.push(message.to_vec());
        self.pending.numbers_changed = true;
        self.next_sender = seq + 1;
        Ok(())
    }

    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        fix_session::store::check_advance(self.next_target, received)?;
        self.writable()?;
        self.pending.numbers_changed = true;
        self.next_target = received + 1;
        // The answers are kept with the advance: both are in the buffer now.
        self.answer = None;
        Ok(())
    }

    /// Answers stay in the buffer until the advance joins them; a batch
    /// begun meanwhile commits them (at least once, as the trait's default).
    fn begin_answer(&mut self, _received: u64) {
        self.answer = Some((self.pending.seqs.len(), self.next_sender));
    }

    /// Drops the answers still buffered (none of them was sent) and puts the
    /// sender number back.
    fn abandon_answer(&mut self) {
        let Some((len, sender)) = self.answer.take() else {
            return;
        };
        if self.pending.seqs.len() >= len && self.pending.drop_from.is_none() {
            self.pending.seqs.truncate(len);
            self.pending.bytes.truncate(len);
            self.next_sender = sender;
        }
    }

    fn read_stored(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        let from = from.max(1);
        let mut chunk = empty_chunk();
        if let Some(top) = self.committed_top(from, to)
            && let Some(at) = self.reader()?.read(from, top, limit, &mut chunk, visit)?
        {
            chunk.resume_at = Some(at);
            return Ok(chunk);
        }
        let in_range = self.in_memory().filter(|&(s, _)| s >= from && s <= to);
        chunk.resume_at = visit_buffered(in_range, limit, &mut chunk, visit);
        Ok(chunk)
    }

    /// A resend's read of the committed messages runs as a job (the
    /// database's round trips off the session's thread); what is in memory
    /// is read when it ends.
    fn begin_read(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
    ) -> Result<Option<ReadJob>, StoreError> {
        let from = from.max(1);
        let reader = self.reader()?;
        let top = self.committed_top(from, to);
        let (bound, batches_left) = (top.map_or(from, |t| t.saturating_add(1)), self.batches_left);
        self.reads += 1;
        let range = ReadRange {
            id: self.reads,
            from,
            to,
        };
        Ok(Some(ReadJob::new(range, move || {
            let fetched = reader.fetch(from, top.unwrap_or(0), limit)?;
            let begun = Begun {
                fetched,
                bound,
                generation: reader.generation,
                batches_left,
            };
            Ok(Box::new(begun))
        })))
    }

    /// What the job fetched, then what is in memory from its bound on; a
    /// job that began beside other contents of memory (a batch committed
    /// while it ran, a reset, a reload) has the caller read again from
    /// where it stopped.
    fn end_read(
        &mut self,
        done: ReadDone,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        let (from, to) = (done.range().from.max(1), done.range().to);
        let begun = done
            .into_result()?
            .downcast::<Begun>()
            .map_err(|_| db_error("end a read", "the job was not a read of this store".into()))?;
        let mut chunk = empty_chunk();
        if begun.generation != self.generation {
            chunk.resume_at = Some(from);
            return Ok(chunk);
        }
        visit_buffered(begun.fetched.iter(), limit, &mut chunk, visit);
        if begun.fetched.resume_at.is_some() || begun.bound > to {
            chunk.resume_at = begun.fetched.resume_at;
            return Ok(chunk);
        }
        if begun.batches_left != self.batches_left {
            chunk.resume_at = Some(begun.fetched.last().map_or(from, |seq| seq + 1));
            return Ok(chunk);
        }
        let in_range = self
            .in_memory()
            .filter(|&(s, _)| s >= begun.bound && s <= to);
        chunk.resume_at = visit_buffered(in_range, limit, &mut chunk, visit);
        Ok(chunk)
    }

    fn reset(&mut self, now: SystemTime) -> Result<(), StoreError> {
        let Some(epoch) = self.epoch else {
            return Err(self.writable().unwrap_err());
        };
        if self.poisoned == Some(Poison::Fenced) {
            return Err(self.fenced(epoch));
        }
        let creation_ns = nanos(now);
        let generation = self.call("reset the session", |reply| Request::Reset {
            epoch,
            creation_ns,
            reply,
        })?;
        let Some(generation) = generation else {
            self.poisoned = Some(Poison::Fenced);
            self.lose_lease();
            return Err(self.fenced(epoch));
        };
        self.poisoned = None;
        let row = SessionRow {
            owner: Some(self.node.clone()),
            epoch,
            generation,
            creation_ns,
            next_sender: 1,
            next_target: 1,
        };
        self.load(&row);
        // Exact, as the caller's clock gave it.
        self.created = now;
        Ok(())
    }

    fn creation_time(&self) -> SystemTime {
        self.created
    }

    fn sync(&mut self) -> Result<(), StoreError> {
        if self.in_flight.is_none() && self.pending.is_empty() && self.poisoned.is_none() {
            return Ok(());
        }
        self.commit_now()
    }

    /// Records wait for a commit: buffered, or in the batch in flight (not
    /// durable until its job ends).
    fn pending_sync(&self) -> bool {
        !self.pending.is_empty() || self.in_flight.is_some()
    }

    fn begin_sync(&mut self) -> Result<Option<SyncJob>, StoreError> {
        let epoch = self.writable()?;
        if self.in_flight.is_some() || self.pending.is_empty() {
            return Ok(None);
        }
        let data = self.take_pending(epoch);
        let job = Arc::new(BatchJob::start(self.sender()?, data));
        self.jobs += 1;
        self.in_flight = Some(InFlight {
            id: self.jobs,
            job: job.clone(),
        });
        Ok(Some(SyncJob::new(self.jobs, job)))
    }

    fn end_sync(&mut self, done: SyncDone) -> Result<(), StoreError> {
        if self.in_flight.as_ref().is_none_or(|f| f.id != done.id()) {
            // A job of before a reset or a reload, or one a sync overtook.
            return Ok(());
        }
        self.in_flight = None;
        self.batches_left += 1;
        done.into_result().map_err(|e| self.failed(e))
    }

    fn sync_in_flight(&self) -> bool {
        self.in_flight.is_some()
    }

    /// A holder commits what it buffered, renews its lease and reloads the
    /// row; one whose last batch failed reloads without committing (the
    /// row says what the failed batch left), its buffer dropped. A standby,
    /// a fenced store, or a holder whose connection was lost (which lost
    /// the lease with it) tries to take the lease, with a new epoch, and
    /// reloads when it does: once the old lease has lapsed, its own
    /// included, as a take never renews a lease it did not hold.
    fn refresh(&mut self) -> Result<(), StoreError> {
        let Some(epoch) = self.epoch else {
            return self.try_take();
        };
        if self.lease_state().epoch != Some(epoch) {
            return self.take_again();
        }
        if self.poisoned.is_none() {
            self.sync()?;
        }
        match self.call("renew the lease", |reply| Request::Renew { epoch, reply })? {
            Some(row) => {
                self.poisoned = None;
                self.load(&row);
                Ok(())
            }
            None => self.take_again(),
        }
    }

    fn standby(&self) -> Option<StoreError> {
        self.epoch.is_none().then(|| StoreError::LeaseStandby {
            session: self.key.clone(),
            owner: self.owner_seen.clone(),
        })
    }

    /// Takes `seq` in the database for `message`, while another engine
    /// holds a live lease and `seq` is the session's next sender number
    /// there; the holder's next batch, written from `seq`, then fails
    /// ([`StoreError::NumberTaken`]). A holder takes nothing this way.
    fn take_as_standby(&mut self, seq: u64, message: &[u8]) -> Result<bool, StoreError> {
        check_seq(seq)?;
        if self.epoch.is_some() || seq == u64::MAX || message.len() > fix_session::MAX_MESSAGE_LEN {
            return Ok(false);
        }
        let Some(row) = layout::encode([(seq, message)]).pop() else {
            return Ok(false);
        };
        let next = crate::seq::to_db(seq + 1);
        self.call("take a number for a standby's Logout", |reply| {
            Request::TakeAsStandby { row, next, reply }
        })
    }
}

impl Drop for PostgresStore {
    /// Lets the lease go at once, so that a clean shutdown hands the
    /// session over without waiting for the lease to expire.
    fn drop(&mut self) {
        if let Some(epoch) = self.epoch {
            let _ = self.call("release the lease", |reply| Request::Release {
                epoch,
                reply,
            });
            self.lose_lease();
        }
        // A batch in flight holds a sender too (the store's own `in_flight`
        // among them): the thread is told to stop rather than left to see
        // the channel close, which would wait for those.
        self.in_flight = None;
        if let Some(tx) = self.tx.take() {
            let _ = tx.send(Request::Stop);
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
