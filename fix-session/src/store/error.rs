//! The one error type of the stores.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// Why a store operation failed. Every variant names what a person needs to act on
/// it: the file and the operation, the byte offset of a bad record, the numbers that
/// did not match.
///
/// ```
/// use fix_session::{Direction, StoreError};
/// let err = StoreError::OutOfSequence { direction: Direction::Outgoing, expected: 7, got: 5 };
/// assert_eq!(err.to_string(), "outgoing message 5 is out of sequence: the next outgoing sequence number is 7");
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum StoreError {
    /// A file system call failed.
    Io {
        /// What the store was doing.
        op: IoOperation,
        /// The file or directory it was doing it to.
        path: PathBuf,
        /// The system's error.
        source: io::Error,
    },
    /// A record of the log is damaged, and valid records follow it, so it is not the
    /// torn end of an interrupted write (which is dropped on open): the store refuses
    /// to open rather than skip it. Also a record that is intact but breaks the log's
    /// rules (out of sequence, an unknown kind).
    Corrupt {
        /// The log file.
        path: PathBuf,
        /// Where the bad record starts.
        offset: u64,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Another store (in another process, or another `FileStore` of this one) has
    /// this session's store open.
    Locked {
        /// The store directory.
        dir: PathBuf,
        /// The lock file held by the other store.
        lock_file: PathBuf,
    },
    /// A standby store ([`FileOptions::standby`](crate::FileOptions::standby))
    /// was asked to write before it took the lock: its
    /// [`refresh`](crate::MessageStore::refresh) takes it (and reads the log
    /// again), once the store that holds it lets it go.
    Standby {
        /// The lock file the store does not hold yet.
        lock_file: PathBuf,
    },
    /// A store over a shared database that does not hold the session's
    /// lease (another engine does): it writes nothing until its
    /// [`refresh`](crate::MessageStore::refresh) takes the lease, once the
    /// holder lets it go or stops renewing it.
    LeaseStandby {
        /// The session's key in the database.
        session: String,
        /// The engine that holds the lease, as far as the store knows.
        owner: Option<String>,
    },
    /// Another engine holds this session's lease: it took it after this
    /// store's lease expired (or this store could not renew it in time), so
    /// this store is fenced off and its write changed nothing.
    Fenced {
        /// The session's key in the database.
        session: String,
        /// The engine that holds the lease now, when the store knows it.
        owner: Option<String>,
        /// The lease epoch this store held, which a newer one replaced.
        epoch: u64,
    },
    /// The sender number this store was writing from was taken by another
    /// engine: a standby answered the counterparty's Logon with a Logout
    /// under it ([`MessageStore::take_as_standby`](crate::MessageStore::take_as_standby)),
    /// so this store's batch, which would have sent that number twice, was
    /// not written. The store takes no more records until a refresh reads
    /// the numbers as they are stored.
    NumberTaken {
        /// The session's key in the database.
        session: String,
        /// The next sender number as the database has it now.
        next_sender: u64,
    },
    /// The database server failed a request, or the connection to it was
    /// lost; what the request wrote is unknown, so the store takes no more
    /// records until it is refreshed or reopened.
    Database {
        /// What the store was doing, in words that follow "could not"
        /// (`open the session`, `commit a batch`).
        op: &'static str,
        /// The client's error, whose display is one line with the server's
        /// own message when there is one (`role "fix" does not exist`).
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A sync's job ended without running to its end (the task or thread
    /// that ran it was lost): what it covered is not taken for durable, and
    /// the store takes no more records until it is reset or reopened.
    SyncLost {
        /// What happened to the job.
        why: String,
    },
    /// An earlier sync of the log failed, so what the disk holds is unknown (the
    /// kernel may have dropped the unsynced pages); the store takes no more records
    /// until it is reset or reopened.
    Poisoned {
        /// The log file.
        path: PathBuf,
    },
    /// A message or a number out of order: storing a message under another number
    /// than the next sender sequence number, or advancing the target number past a
    /// message other than the expected one.
    OutOfSequence {
        /// Which number.
        direction: Direction,
        /// The store's next number in that direction.
        expected: u64,
        /// The number given.
        got: u64,
    },
    /// A message longer than [`MAX_MESSAGE_LEN`](crate::MAX_MESSAGE_LEN).
    MessageTooLarge {
        /// Its length.
        len: usize,
        /// The most a store takes.
        max: usize,
    },
    /// The sequence number is `u64::MAX`: nothing can follow it.
    SeqNumExhausted,
    /// A sequence number of 0: FIX numbers start at 1.
    InvalidSeqNum {
        /// The number given.
        seq: u64,
    },
    /// A session id that names no file (empty, or too long once escaped).
    InvalidSessionId {
        /// The id given.
        id: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Io { op, path, source } => {
                write!(f, "cannot {op} {}: {source}", path.display())
            }
            Self::Corrupt {
                path,
                offset,
                reason,
            } => write!(
                f,
                "corrupt store log {}: record at byte offset {offset}: {reason}",
                path.display()
            ),
            Self::Locked { dir, lock_file } => write!(
                f,
                "store directory {} is in use: {} is locked by another store (another process, \
                 or another store of this one)",
                dir.display(),
                lock_file.display()
            ),
            Self::Standby { lock_file } => write!(
                f,
                "standby store: it writes only once a refresh has taken {} (RefreshOnLogon does at the Logon)",
                lock_file.display()
            ),
            Self::LeaseStandby { session, owner } => write!(
                f,
                "standby store for session {session}: another engine ({}) holds its lease; \
                 a refresh takes it once it is free (RefreshOnLogon does at the Logon)",
                owner.as_deref().unwrap_or("unknown")
            ),
            Self::Fenced {
                session,
                owner,
                epoch,
            } => write!(
                f,
                "session {session} is fenced: another engine ({}) holds this session's lease, \
                 which replaced this store's epoch {epoch}; nothing was written",
                owner.as_deref().unwrap_or("unknown")
            ),
            Self::NumberTaken {
                session,
                next_sender,
            } => write!(
                f,
                "session {session}: a standby engine took the sender number this store was to \
                 write (its Logout to the counterparty); nothing was written, and a refresh \
                 carries on from {next_sender}"
            ),
            // What the store was doing, then the cause: the server's own
            // message when the store's crate gives it (it does not end up in
            // a log nobody reads).
            Self::Database { op, source } => write!(f, "database store: could not {op}: {source}"),
            Self::SyncLost { why } => write!(
                f,
                "a sync did not run to its end ({why}): what it covered is not durable"
            ),
            Self::Poisoned { path } => write!(
                f,
                "store log {} takes no more records: an earlier sync failed, so what the disk \
                 holds is unknown; reset the store or reopen it",
                path.display()
            ),
            Self::OutOfSequence {
                direction,
                expected,
                got,
            } => write!(
                f,
                "{direction} message {got} is out of sequence: the next {direction} sequence \
                 number is {expected}"
            ),
            Self::MessageTooLarge { len, max } => write!(
                f,
                "message of {len} bytes is larger than a store takes ({max} bytes)"
            ),
            Self::SeqNumExhausted => write!(
                f,
                "sequence number {} is the largest: no number can follow it",
                u64::MAX
            ),
            Self::InvalidSeqNum { seq } => {
                write!(
                    f,
                    "sequence number {seq} is invalid: FIX numbers start at 1"
                )
            }
            Self::InvalidSessionId { id, reason } => {
                write!(f, "session id {id:?} names no store file: {reason}")
            }
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::Io { source, .. } => Some(source),
            Self::Database { source, .. } => Some(&**source),
            _ => None,
        }
    }
}

/// Which sequence number a [`StoreError::OutOfSequence`] is about.
///
/// ```
/// assert_eq!(fix_session::Direction::Incoming.to_string(), "incoming");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// The next sender sequence number: messages the session sends.
    Outgoing,
    /// The next target sequence number: messages the session receives.
    Incoming,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Outgoing => "outgoing",
            Self::Incoming => "incoming",
        })
    }
}

/// The file system operation a [`StoreError::Io`] failed in.
///
/// ```
/// assert_eq!(fix_session::IoOperation::SyncDir.to_string(), "sync directory");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum IoOperation {
    /// Creating the store directory.
    CreateDir,
    /// Opening or creating a file.
    Open,
    /// Reading a file, or its length.
    Read,
    /// Writing a file.
    Write,
    /// Syncing a file to the disk (fdatasync or fsync).
    Sync,
    /// Syncing a directory, so that a file created or renamed in it stays.
    SyncDir,
    /// Cutting a file to a length.
    Truncate,
    /// Reserving disk space for the log to grow into.
    Allocate,
    /// Mapping the log into memory.
    Map,
    /// Renaming a file into place.
    Rename,
    /// Removing a file.
    Remove,
    /// Taking the store's lock.
    Lock,
}

impl fmt::Display for IoOperation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::CreateDir => "create directory",
            Self::Open => "open",
            Self::Read => "read",
            Self::Write => "write",
            Self::Sync => "sync",
            Self::SyncDir => "sync directory",
            Self::Truncate => "truncate",
            Self::Allocate => "allocate space for",
            Self::Map => "map",
            Self::Rename => "rename",
            Self::Remove => "remove",
            Self::Lock => "lock",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error as _;

    #[test]
    fn every_error_reads_as_written_here() {
        let path = PathBuf::from("/var/fix/FIX.4.4-A-B.log");
        let cases = [
            (
                StoreError::Io {
                    op: IoOperation::Sync,
                    path: path.clone(),
                    source: io::Error::from(io::ErrorKind::StorageFull),
                },
                "cannot sync /var/fix/FIX.4.4-A-B.log: no storage space",
            ),
            (
                StoreError::Corrupt {
                    path: path.clone(),
                    offset: 4711,
                    reason: "checksum mismatch",
                },
                "corrupt store log /var/fix/FIX.4.4-A-B.log: record at byte offset 4711: \
                 checksum mismatch",
            ),
            (
                StoreError::Locked {
                    dir: PathBuf::from("/var/fix"),
                    lock_file: PathBuf::from("/var/fix/FIX.4.4-A-B.lock"),
                },
                "store directory /var/fix is in use: /var/fix/FIX.4.4-A-B.lock is locked by \
                 another store (another process, or another store of this one)",
            ),
            (
                StoreError::SyncLost {
                    why: "its task panicked".into(),
                },
                "a sync did not run to its end (its task panicked): what it covered is not durable",
            ),
            (
                StoreError::Poisoned { path: path.clone() },
                "store log /var/fix/FIX.4.4-A-B.log takes no more records: an earlier sync \
                 failed, so what the disk holds is unknown; reset the store or reopen it",
            ),
            (
                StoreError::OutOfSequence {
                    direction: Direction::Incoming,
                    expected: 12,
                    got: 14,
                },
                "incoming message 14 is out of sequence: the next incoming sequence number is 12",
            ),
            (
                StoreError::MessageTooLarge {
                    len: 70_000_000,
                    max: 67_108_864,
                },
                "message of 70000000 bytes is larger than a store takes (67108864 bytes)",
            ),
            (
                StoreError::SeqNumExhausted,
                "sequence number 18446744073709551615 is the largest: no number can follow it",
            ),
            (
                StoreError::InvalidSeqNum { seq: 0 },
                "sequence number 0 is invalid: FIX numbers start at 1",
            ),
            (
                StoreError::InvalidSessionId {
                    id: "a\"b".into(),
                    reason: "it is empty",
                },
                "session id \"a\\\"b\" names no store file: it is empty",
            ),
        ];
        for (err, text) in cases {
            assert_eq!(err.to_string(), text);
            // Only an I/O error has a cause beneath it.
            assert_eq!(err.source().is_some(), matches!(err, StoreError::Io { .. }));
        }
        let fenced = StoreError::Fenced {
            session: "FIX.4.4-A-B".into(),
            owner: Some("node-b".into()),
            epoch: 7,
        };
        assert_eq!(
            fenced.to_string(),
            "session FIX.4.4-A-B is fenced: another engine (node-b) holds this session's \
             lease, which replaced this store's epoch 7; nothing was written"
        );
        let standby = StoreError::LeaseStandby {
            session: "S".into(),
            owner: None,
        };
        assert!(standby.to_string().contains("another engine (unknown)"));
        let db = StoreError::Database {
            op: "commit a batch",
            source: "connection closed".into(),
        };
        assert_eq!(
            db.to_string(),
            "database store: could not commit a batch: connection closed"
        );
        assert!(db.source().is_some());
        let ops = [
            (IoOperation::CreateDir, "create directory"),
            (IoOperation::Open, "open"),
            (IoOperation::Read, "read"),
            (IoOperation::Write, "write"),
            (IoOperation::Sync, "sync"),
            (IoOperation::SyncDir, "sync directory"),
            (IoOperation::Truncate, "truncate"),
            (IoOperation::Allocate, "allocate space for"),
            (IoOperation::Map, "map"),
            (IoOperation::Rename, "rename"),
            (IoOperation::Remove, "remove"),
            (IoOperation::Lock, "lock"),
        ];
        for (op, text) in ops {
            assert_eq!(op.to_string(), text);
        }
        assert_eq!(Direction::Outgoing.to_string(), "outgoing");
    }
}
