//! What the store buffers between commits, and the job that commits it.

use std::io;
use std::sync::{Arc, Mutex};

use fix_session::store::Durable;

use crate::store::Fenced;
use crate::worker::{Request, Sender, call};

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

    /// Empties the buffer into a batch with the numbers as they are now.
    pub(crate) fn take(&mut self, params: BatchParams, next: (u64, u64)) -> BatchData {
        let taken = std::mem::take(self);
        BatchData {
            params,
            next_sender: crate::seq::to_db(next.0),
            next_target: crate::seq::to_db(next.1),
            drop_from: taken.drop_from.map(crate::seq::to_db),
            seqs: taken.seqs,
            bytes: taken.bytes,
        }
    }
}

/// How a batch's commit went, kept so that it runs once whoever asks first
/// (the job on its thread, or a `sync` that overtook it).
#[derive(Clone, Debug)]
enum Outcome {
    Committed,
    Fenced,
    Failed(String),
}

/// A batch's commit, run by a [`SyncJob`](fix_session::store::SyncJob).
#[derive(Debug)]
pub(crate) struct BatchJob {
    tx: Sender,
    pub(crate) data: Arc<BatchData>,
    outcome: Mutex<Option<Outcome>>,
}

impl BatchJob {
    pub(crate) fn new(tx: Sender, data: BatchData) -> Self {
        BatchJob {
            tx,
            data: Arc::new(data),
            outcome: Mutex::new(None),
        }
    }

    fn run_once(&self) -> Outcome {
        // Held across the commit: a second caller waits for the first's result.
        let mut outcome = self.outcome.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = &*outcome {
            return done.clone();
        }
        let data = self.data.clone();
        let done = match call(&self.tx, |reply| Request::Commit { data, reply }) {
            Ok(true) => Outcome::Committed,
            Ok(false) => Outcome::Fenced,
            Err(e) => Outcome::Failed(e.to_string()),
        };
        *outcome = Some(done.clone());
        done
    }
}

impl Durable for BatchJob {
    fn make_durable(&self) -> io::Result<()> {
        match self.run_once() {
            Outcome::Committed => Ok(()),
            Outcome::Fenced => Err(io::Error::other(Fenced)),
            Outcome::Failed(why) => Err(io::Error::other(why)),
        }
    }
}
