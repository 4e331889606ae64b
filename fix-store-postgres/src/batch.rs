//! What the store buffers between commits, and the job that commits it.

use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};

use fix_session::StoreError;
use fix_session::store::{Durable, OnDurable};

use crate::worker::{Request, Sender};

/// The lease and generation a batch is written under.
#[derive(Clone, Debug)]
pub(crate) struct BatchParams {
    pub(crate) key: String,
    pub(crate) node: String,
    pub(crate) epoch: i64,
    pub(crate) generation: i64,
}

/// One commit's worth: the numbers after it, the stored messages it adds, and
/// where a lowered sender number dropped the stored ones.
#[derive(Debug)]
pub(crate) struct BatchData {
    pub(crate) params: BatchParams,
    /// The sender number the database has before this batch (the last
    /// batch's): the batch is written only from it.
    pub(crate) prev_sender: i64,
    pub(crate) next_sender: i64,
    pub(crate) next_target: i64,
    pub(crate) drop_from: Option<i64>,
    /// The messages' FIX numbers (laid out in rows on the store's thread).
    pub(crate) seqs: Vec<u64>,
    pub(crate) bytes: Vec<Vec<u8>>,
}

impl BatchData {
    /// The batch's messages as the rows that store them.
    pub(crate) fn rows(&self) -> Vec<crate::layout::Row> {
        let messages = self.seqs.iter().copied();
        crate::layout::encode(messages.zip(self.bytes.iter().map(Vec::as_slice)))
    }
}

/// What the store took since its last batch left: nothing is sent to the
/// server until a sync.
#[derive(Debug, Default)]
pub(crate) struct Pending {
    pub(crate) seqs: Vec<u64>,
    pub(crate) bytes: Vec<Vec<u8>>,
    pub(crate) drop_from: Option<u64>,
    pub(crate) numbers_changed: bool,
}

impl Pending {
    pub(crate) fn is_empty(&self) -> bool {
        self.seqs.is_empty() && self.drop_from.is_none() && !self.numbers_changed
    }

    /// The sender number went down to `seq`: buffered messages from it on
    /// go, and so do committed ones, with the batch.
    pub(crate) fn drop_from(&mut self, seq: u64) {
        let keep = self.seqs.partition_point(|&s| s < seq);
        self.seqs.truncate(keep);
        self.bytes.truncate(keep);
        self.drop_from = Some(self.drop_from.map_or(seq, |d| d.min(seq)));
        self.numbers_changed = true;
    }

    /// Empties the buffer into a batch from sender number `prev` (the
    /// last batch's) to the numbers as they are now.
    pub(crate) fn take(&mut self, params: BatchParams, prev: u64, next: (u64, u64)) -> BatchData {
        let taken = std::mem::take(self);
        BatchData {
            params,
            prev_sender: crate::seq::to_db(prev),
            next_sender: crate::seq::to_db(next.0),
            next_target: crate::seq::to_db(next.1),
            drop_from: taken.drop_from.map(crate::seq::to_db),
            seqs: taken.seqs,
            bytes: taken.bytes,
        }
    }
}

/// How a batch's commit went.
#[derive(Clone, Debug)]
pub(crate) enum Outcome {
    Committed,
    Fenced,
    /// The lease holds, but a standby took the sender number the batch was
    /// written from: the database's next sender number now.
    NumberTaken(i64),
    Failed(String),
}

impl Outcome {
    /// As the store reports it, for the batch written under `params`.
    fn into_result(self, params: &BatchParams) -> Result<(), StoreError> {
        match self {
            Outcome::Committed => Ok(()),
            Outcome::Fenced => Err(StoreError::Fenced {
                session: params.key.clone(),
                owner: None,
                epoch: params.epoch as u64,
            }),
            Outcome::NumberTaken(next) => Err(StoreError::NumberTaken {
                session: params.key.clone(),
                next_sender: crate::seq::from_db(next),
            }),
            Outcome::Failed(why) => Err(StoreError::Database {
                op: "commit a batch",
                source: why.into(),
            }),
        }
    }
}

/// A batch's commit as the store's thread and the job's waiters share it:
/// the thread ends it ([`Commit::end`]); a task awaits it (its waker), a
/// thread blocks for it (the condvar), and an [`OnDurable`] hook runs on the
/// store's thread the moment it is committed.
#[derive(Default)]
pub(crate) struct Commit {
    state: Mutex<CommitState>,
    ended: Condvar,
}

#[derive(Default)]
struct CommitState {
    outcome: Option<Outcome>,
    waker: Option<Waker>,
    after: Option<Arc<dyn OnDurable>>,
}

impl std::fmt::Debug for Commit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Commit")
            .field("outcome", &self.lock().outcome)
            .finish_non_exhaustive()
    }
}

impl Commit {
    fn lock(&self) -> MutexGuard<'_, CommitState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The store's thread ends the commit: the hook runs (when it
    /// committed), then whoever waits is told.
    pub(crate) fn end(&self, outcome: Outcome) {
        let committed = matches!(outcome, Outcome::Committed);
        let (waker, after) = {
            let mut s = self.lock();
            s.outcome = Some(outcome);
            let after = s.after.take();
            (s.waker.take(), after.filter(|_| committed))
        };
        if let Some(hook) = after {
            hook.on_durable();
        }
        self.ended.notify_all();
        if let Some(w) = waker {
            w.wake();
        }
    }
}

/// The store's thread's hold on a commit: it ends the commit, or, dropped
/// unended (the thread gone with the request in its queue), fails it, so
/// that no one waits for ever.
#[derive(Debug)]
pub(crate) struct CommitTicket(Arc<Commit>);

impl CommitTicket {
    /// Ends the commit with `outcome`.
    pub(crate) fn end(self, outcome: Outcome) {
        self.0.end(outcome);
    }
}

impl Drop for CommitTicket {
    fn drop(&mut self) {
        let ended = self.0.lock().outcome.is_some();
        if !ended {
            self.0
                .end(Outcome::Failed("the store's thread has stopped".into()));
        }
    }
}

/// A batch's commit, run by a [`SyncJob`](fix_session::store::SyncJob): sent
/// to the store's thread when the job is made, so the commit is under way
/// before anyone waits for it; a task awaits it without a thread of its own.
#[derive(Debug)]
pub(crate) struct BatchJob {
    pub(crate) data: Arc<BatchData>,
    commit: Arc<Commit>,
}

impl BatchJob {
    /// Sends the batch's commit to the store's thread.
    pub(crate) fn start(tx: &Sender, data: BatchData) -> Self {
        let data = Arc::new(data);
        let commit = Arc::new(Commit::default());
        // Not sent: the request, dropped, fails the commit.
        let _ = tx.send(Request::Commit {
            data: data.clone(),
            commit: CommitTicket(commit.clone()),
        });
        BatchJob { data, commit }
    }

    /// Blocks until the commit ended.
    fn wait(&self) -> Outcome {
        let mut s = self.commit.lock();
        loop {
            if let Some(outcome) = &s.outcome {
                return outcome.clone();
            }
            s = self.commit.ended.wait(s).unwrap_or_else(|e| e.into_inner());
        }
    }
}

impl Durable for BatchJob {
    fn make_durable(&self) -> Result<(), StoreError> {
        self.wait().into_result(&self.data.params)
    }

    fn awaitable(&self) -> bool {
        true
    }

    fn poll_durable(&self, cx: &mut Context<'_>) -> Poll<Result<(), StoreError>> {
        let mut s = self.commit.lock();
        if let Some(outcome) = &s.outcome {
            return Poll::Ready(outcome.clone().into_result(&self.data.params));
        }
        if !s.waker.as_ref().is_some_and(|w| w.will_wake(cx.waker())) {
            s.waker = Some(cx.waker().clone());
        }
        Poll::Pending
    }

    fn on_durable(&self, hook: Option<Arc<dyn OnDurable>>) -> bool {
        let mut s = self.commit.lock();
        if hook.is_some() && s.outcome.is_some() {
            // Ended already: whoever awaits it writes.
            return false;
        }
        s.after = hook;
        true
    }
}
