//! [`PostgresStore`]: the numbers and a buffer in memory, the rest in the
//! database, written a batch at a time under the lease.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use fix_session::store::{SyncDone, SyncJob};
use fix_session::{Chunk, ChunkLimit, MessageStore, StoreError};

use crate::batch::{BatchJob, BatchParams, Pending};
use crate::config::{LeaseBudget, PgConfig};
use crate::layout;
use crate::seq::{db_ranges, from_db};
use crate::sql::{Page, SessionRow, StoredRow};
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

    /// Reads committed messages in range (below any pending drop) into the
    /// chunk, a page of rows at a time; `Some(seq)` when the limit stopped it
    /// there. A page brings at most [`PAGE_BYTES`] and one row (a row holds
    /// at most `layout::ROW_BYTES`, or one longer message) to memory, and
    /// no more rows than the chunk has messages left to take.
    fn read_committed(
        &self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        chunk: &mut Chunk,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Option<u64>, StoreError> {
        let hide = [
            self.pending.drop_from,
            self.in_flight
                .as_ref()
                .and_then(|f| f.job.data.drop_from.map(from_db)),
        ];
        let to = match hide.iter().flatten().min() {
            Some(0) | Some(1) => return Ok(None),
            Some(&d) => to.min(d - 1),
            None => to,
        };
        for (lo, hi) in db_ranges(from, to) {
            if let Some(at) = self.read_range(lo, hi, (from, to), limit, chunk, visit)? {
                return Ok(Some(at));
            }
        }
        Ok(None)
    }

    /// [`read_committed`](Self::read_committed) over the bigints `lo..=hi`
    /// (of one sign), page after page.
    fn read_range(
        &self,
        mut lo: i64,
        hi: i64,
        range: (u64, u64),
        limit: ChunkLimit,
        chunk: &mut Chunk,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Option<u64>, StoreError> {
        // The row holding `lo` may start below it, not below its sign's first.
        let mut floor = if lo >= 0 { 0 } else { i64::MIN };
        loop {
            // Each row holds a message at least: no more rows than the
            // chunk can still take, and one to tell where the next chunk
            // begins (else a full chunk costs a page of one row more).
            let left = limit.max_messages().saturating_sub(chunk.messages);
            let max = left.saturating_add(1).min(PAGE_ROWS);
            let page = Page {
                key: self.key.clone(),
                generation: self.generation,
                lo,
                hi,
                floor,
                max: max as i64,
                budget: PAGE_BYTES,
            };
            let rows = self.call("read stored messages", |reply| Request::Read {
                page,
                reply,
            })?;
            for row in &rows {
                if let Some(at) = visit_row(row, range, limit, chunk, visit)? {
                    return Ok(Some(at));
                }
            }
            // A page cut short by neither of its limits ends the range; one
            // that reached either goes on after its last row.
            let bytes: usize = rows.iter().map(|r| r.bytes.len()).sum();
            let full = rows.len() == max || bytes as i64 >= PAGE_BYTES;
            match rows.last() {
                Some(last) if full && last.first < hi => {
                    lo = last.first + 1;
                    floor = lo;
                }
                _ => return Ok(None),
            }
        }
    }
}

/// The most rows a page of a read asks for (each holds a message at least,
/// so a chunk of `ChunkLimit::max_messages` small messages, one a row as a
/// paced flow stores them, is one round trip to the server, not one every
/// four rows as it was: a resend after a takeover read 1,700 messages in
/// 425 round trips).
const PAGE_ROWS: usize = 1024;

/// The bytes of rows a page brings at most, besides its first row (four
/// full rows, `layout::ROW_BYTES` each): what one read holds in memory.
pub(crate) const PAGE_BYTES: i64 = 4 * crate::layout::ROW_BYTES as i64;

/// Visits a stored row's messages in `range` (and below its `valid_below`)
/// into the chunk; `Some(seq)` when the limit stopped it there.
fn visit_row(
    row: &StoredRow,
    (from, to): (u64, u64),
    limit: ChunkLimit,
    chunk: &mut Chunk,
    visit: &mut dyn FnMut(u64, &[u8]),
) -> Result<Option<u64>, StoreError> {
    let below = row.valid_below.map_or(u64::MAX, from_db);
    let to = if row.valid_below.is_some() {
        to.min(below.saturating_sub(1))
    } else {
        to
    };
    for message in layout::decode(&row.bytes) {
        let (seq, bytes) = message.map_err(|e| db_error("read stored messages", e.into()))?;
        if seq < from || seq > to {
            continue;
        }
        if !visit_one(seq, bytes, limit, chunk, visit) {
            return Ok(Some(seq));
        }
    }
    Ok(None)
}

fn nanos(t: SystemTime) -> i64 {
    t.duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos().min(i64::MAX as u128) as i64)
}

fn db_error(op: &'static str, source: Box<dyn std::error::Error + Send + Sync>) -> StoreError {
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

/// Visits `entries` (sorted, in range) into the chunk; `Some(seq)` when the
/// limit stopped it there.
fn visit_buffered<'a>(
    entries: impl Iterator<Item = (u64, &'a [u8])>,
    limit: ChunkLimit,
    chunk: &mut Chunk,
    visit: &mut dyn FnMut(u64, &[u8]),
) -> Option<u64> {
    for (seq, bytes) in entries {
        if !visit_one(seq, bytes, limit, chunk, visit) {
            return Some(seq);
        }
    }
    None
}

/// Visits one message into the chunk, unless the chunk is full (`false`):
/// the first message always goes, however long.
fn visit_one(
    seq: u64,
    bytes: &[u8],
    limit: ChunkLimit,
    chunk: &mut Chunk,
    visit: &mut dyn FnMut(u64, &[u8]),
) -> bool {
    let full = chunk.messages == limit.max_messages()
        || (chunk.messages > 0 && chunk.bytes.saturating_add(bytes.len()) > limit.max_bytes());
    if full {
        return false;
    }
    visit(seq, bytes);
    chunk.messages += 1;
    chunk.bytes += bytes.len();
    true
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
        let mut chunk = Chunk {
            messages: 0,
            bytes: 0,
            resume_at: None,
        };
        if from > to {
            return Ok(chunk);
        }
        if let Some(at) = self.read_committed(from, to, limit, &mut chunk, visit)? {
            chunk.resume_at = Some(at);
            return Ok(chunk);
        }
        // Then what is not committed yet: the batch in flight (less what a
        // later drop took back), then the buffer.
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
        let all = flying
            .into_iter()
            .flatten()
            .filter(|&(s, _)| s < drop)
            .chain(buffered);
        let in_range = all.filter(|&(s, _)| s >= from && s <= to);
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
