//! Reads of stored messages that run off the session's thread: what a store
//! over a network (a database) hands the session for a resend, so that the
//! round trips of the read block a thread made for waiting, not the runtime
//! thread the session's connection (and others) run on.
//!
//! The store begins the read ([`MessageStore::begin_read`]) with a
//! [`ReadJob`]; whoever drives the session runs the job where blocking is
//! allowed and gives what it returned, a [`ReadDone`], back to the session,
//! which ends the read through the store ([`MessageStore::end_read`]): the
//! store adds what it holds in memory and says where to go on.
//!
//! [`MessageStore::begin_read`]: crate::MessageStore::begin_read
//! [`MessageStore::end_read`]: crate::MessageStore::end_read

use std::any::Any;

use super::StoreError;

/// Which read: the store's number for it (so that the session matches its
/// end to its begin) and the numbers `from..=to` it asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReadRange {
    /// The store's count of its reads.
    pub id: u64,
    /// The first number asked for.
    pub from: u64,
    /// The last number asked for.
    pub to: u64,
}

/// A read of stored messages the store began: [`run`](Self::run) it where
/// blocking is allowed (a blocking thread of the runtime), then give the
/// [`ReadDone`] to the session.
///
/// ```
/// use fix_session::store::{Fetched, ReadJob, ReadRange};
/// let range = ReadRange { id: 7, from: 3, to: 9 };
/// let job = ReadJob::new(range, || {
///     let mut fetched = Fetched::default();
///     fetched.push(3, b"35=D");
///     Ok(Box::new(fetched))
/// });
/// assert_eq!(job.range(), range);
/// assert_eq!(job.run().range(), range);
/// ```
pub struct ReadJob {
    range: ReadRange,
    run: Box<dyn FnOnce() -> Result<Box<dyn Any + Send>, StoreError> + Send>,
}

impl ReadJob {
    /// A job over `range`, doing `run`. What `run` returns is the store's
    /// own: only its [`end_read`](crate::MessageStore::end_read) looks
    /// inside.
    pub fn new(
        range: ReadRange,
        run: impl FnOnce() -> Result<Box<dyn Any + Send>, StoreError> + Send + 'static,
    ) -> Self {
        ReadJob {
            range,
            run: Box::new(run),
        }
    }

    /// Reads: call it where blocking is allowed.
    pub fn run(self) -> ReadDone {
        ReadDone {
            range: self.range,
            result: (self.run)(),
        }
    }

    /// Which read it is.
    pub fn range(&self) -> ReadRange {
        self.range
    }
}

impl std::fmt::Debug for ReadJob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadJob")
            .field("range", &self.range)
            .finish_non_exhaustive()
    }
}

/// What a [`ReadJob`] returned: the store's own result, which its
/// [`end_read`](crate::MessageStore::end_read) takes apart, or why the read
/// failed.
///
/// ```
/// use fix_session::store::{ReadDone, ReadRange};
/// let lost = ReadDone::failed(ReadRange { id: 2, from: 1, to: 5 }, "the blocking thread panicked");
/// assert_eq!(lost.range().id, 2);
/// assert!(lost.into_result().is_err());
/// ```
pub struct ReadDone {
    range: ReadRange,
    result: Result<Box<dyn Any + Send>, StoreError>,
}

impl ReadDone {
    /// A read whose job was lost before it returned (its thread panicked,
    /// or the runtime shut down).
    pub fn failed(range: ReadRange, why: impl std::fmt::Display) -> Self {
        ReadDone {
            range,
            result: Err(StoreError::SyncLost {
                why: format!("a read of stored messages was lost: {why}"),
            }),
        }
    }

    /// Which read it was.
    pub fn range(&self) -> ReadRange {
        self.range
    }

    /// What the job returned.
    pub fn into_result(self) -> Result<Box<dyn Any + Send>, StoreError> {
        self.result
    }
}

impl std::fmt::Debug for ReadDone {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadDone")
            .field("range", &self.range)
            .field("ok", &self.result.is_ok())
            .finish()
    }
}

/// Stored messages a read brought, in order, back to back: a store's
/// [`ReadJob`] may return one.
///
/// ```
/// use fix_session::store::Fetched;
/// let mut fetched = Fetched::default();
/// fetched.push(4, b"35=D\x01");
/// fetched.push(5, b"35=8\x01");
/// let seen: Vec<_> = fetched.iter().map(|(seq, m)| (seq, m.len())).collect();
/// assert_eq!(seen, [(4, 5), (5, 5)]);
/// assert_eq!(fetched.last(), Some(5));
/// ```
#[derive(Debug, Default)]
pub struct Fetched {
    bytes: Vec<u8>,
    /// Each message's number and where it ends in `bytes`.
    index: Vec<(u64, usize)>,
    /// The first stored number not fetched when a limit stopped the read.
    pub resume_at: Option<u64>,
}

impl Fetched {
    /// Adds message `seq`, after those added before it.
    pub fn push(&mut self, seq: u64, message: &[u8]) {
        self.bytes.extend_from_slice(message);
        self.index.push((seq, self.bytes.len()));
    }

    /// The messages, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = (u64, &[u8])> {
        let starts = std::iter::once(0).chain(self.index.iter().map(|&(_, end)| end));
        self.index
            .iter()
            .zip(starts)
            .map(|(&(seq, end), start)| (seq, &self.bytes[start..end]))
    }

    /// The number of the last message.
    pub fn last(&self) -> Option<u64> {
        self.index.last().map(|&(seq, _)| seq)
    }

    /// How many messages.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }
}
