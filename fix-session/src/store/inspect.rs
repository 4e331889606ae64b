//! A file store's log read for an operator's tool: checked and replayed as opening
//! the store does, but without taking its lock or changing a byte, so it can look
//! at the store of a running engine, and at one that the store would refuse.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use super::file::{TornTail, file_stem, io_error, verify_message};
use super::record::{self, MAGIC, Record};
use super::recover::{Recovered, recover};
use super::shared::{SHARED_LOG_DIR, SharedView};
use super::{IoOperation, StoreError};

/// How many good records of each kind a log holds.
///
/// ```
/// let counts = fix_session::store::RecordCounts::default();
/// assert_eq!(counts.total(), 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RecordCounts {
    /// Stored outgoing messages, those dropped since by a lower sender number
    /// included.
    pub messages: u64,
    /// Incoming messages processed (the next target number advanced by one).
    pub target_advances: u64,
    /// Sequence numbers set (a jump, a SequenceReset, an operator's correction).
    pub seq_sets: u64,
    /// Resets: 1, the log's first record.
    pub resets: u64,
    /// Answers opened: each the start of the messages answering one incoming
    /// message, kept only with its target advance.
    pub answers: u64,
}

impl RecordCounts {
    /// All the records, of every kind.
    ///
    /// ```
    /// let counts = fix_session::store::RecordCounts { messages: 3, resets: 1, ..Default::default() };
    /// assert_eq!(counts.total(), 4);
    /// ```
    pub fn total(&self) -> u64 {
        self.messages + self.target_advances + self.seq_sets + self.resets + self.answers
    }

    pub(super) fn count(&mut self, rec: Record) {
        match rec {
            Record::Message { .. } => self.messages += 1,
            Record::TargetAdvanced { .. } => self.target_advances += 1,
            Record::SeqSet { .. } => self.seq_sets += 1,
            Record::Reset { .. } => self.resets += 1,
            Record::Answering { .. } => self.answers += 1,
        }
    }
}

/// The log of a [`FileStore`](crate::FileStore), opened read-only: every record
/// checked and replayed as [`FileStore::open`](crate::FileStore::open) does, with
/// what it found (the numbers, the stored messages, a torn tail) reported instead
/// of acted on.
///
/// It takes no lock and writes nothing: a torn tail is reported, not cut (on the
/// log of a running store it may be a record being written), and a damaged log is
/// the same [`StoreError::Corrupt`] that opening the store gives, naming the file
/// and the bad record's offset.
///
/// ```
/// use fix_session::{FileStore, MessageStore, store::StoreLog};
/// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog");
/// let mut store = FileStore::open(&dir, "FIX.4.4-CLIENT-VENUE")?;
/// store.store(1, b"8=FIX.4.4\x01...")?;
/// store.advance_target_seq(1)?;
///
/// let log = StoreLog::open(&dir, "FIX.4.4-CLIENT-VENUE")?; // the store is still open
/// assert_eq!((log.next_sender_seq(), log.next_target_seq()), (2, 2));
/// assert_eq!((log.records().messages, log.torn_tail()), (1, None));
/// let mut seen = Vec::new();
/// log.read_messages(&mut |seq, bytes| seen.push((seq, bytes.len())))?;
/// assert_eq!(seen, [(1, 13)]);
/// # drop(store);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
#[derive(Debug)]
pub struct StoreLog {
    path: PathBuf,
    source: Source,
}

/// Where the session's records are: a log of its own, or the shared log of
/// the engine's store directory (`FileStoreShared`).
#[derive(Debug)]
enum Source {
    Own { file: File, log: Recovered },
    Shared(SharedView),
}

impl StoreLog {
    fn state(&self) -> &super::State {
        match &self.source {
            Source::Own { log, .. } => &log.state,
            Source::Shared(view) => &view.state,
        }
    }

    /// Reads the log of `session_id`'s store in `dir`.
    ///
    /// Fails with [`StoreError::Io`] ([`IoOperation::Open`], the system's
    /// `NotFound`) when the session has no store there: unlike opening the store,
    /// this creates nothing.
    ///
    /// ```
    /// use fix_session::{IoOperation, StoreError, store::StoreLog};
    /// let err = StoreLog::open("/nonexistent", "FIX.4.4-A-B").unwrap_err();
    /// assert!(matches!(err, StoreError::Io { op: IoOperation::Open, .. }));
    /// ```
    pub fn open(dir: impl AsRef<Path>, session_id: &str) -> Result<StoreLog, StoreError> {
        let shared_dir = dir.as_ref().join(SHARED_LOG_DIR);
        if shared_dir.is_dir()
            && let Some(view) = SharedView::open(&shared_dir, session_id)?
        {
            return Ok(StoreLog {
                path: shared_dir,
                source: Source::Shared(view),
            });
        }
        let path = dir.as_ref().join(format!("{}.log", file_stem(session_id)?));
        let file = File::open(&path).map_err(|e| io_error(IoOperation::Open, &path, e))?;
        let log = recover(&file, &path)?;
        Ok(StoreLog {
            path,
            source: Source::Own { file, log },
        })
    }

    /// The log file.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-path");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// let log = StoreLog::open(&dir, "FIX.4.4-A-B")?;
    /// assert_eq!(log.path(), dir.join("FIX.4.4-A-B.log"));
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The next sender sequence number the log leaves.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-sender");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// assert_eq!(StoreLog::open(&dir, "FIX.4.4-A-B")?.next_sender_seq(), 1);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn next_sender_seq(&self) -> u64 {
        self.state().next_sender
    }

    /// The next target sequence number the log leaves.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-target");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// assert_eq!(StoreLog::open(&dir, "FIX.4.4-A-B")?.next_target_seq(), 1);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn next_target_seq(&self) -> u64 {
        self.state().next_target
    }

    /// The session's creation time, from the log's reset record.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-created");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// assert!(StoreLog::open(&dir, "FIX.4.4-A-B")?.creation_time() <= std::time::SystemTime::now());
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn creation_time(&self) -> SystemTime {
        self.state().created
    }

    /// The good records, by kind.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-records");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// assert_eq!(StoreLog::open(&dir, "FIX.4.4-A-B")?.records().resets, 1);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn records(&self) -> RecordCounts {
        match &self.source {
            Source::Own { log, .. } => log.records,
            Source::Shared(view) => view.counts,
        }
    }

    /// The numbers of the first and last messages the store holds (those a
    /// resend can be served from), `None` when it holds none.
    ///
    /// ```
    /// # use fix_session::{FileStore, MessageStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-stored");
    /// let mut store = FileStore::open(&dir, "FIX.4.4-A-B")?;
    /// for seq in 1..=3 {
    ///     store.store(seq, b"...")?;
    /// }
    /// store.set_next_sender_seq(3)?; // message 3 is dropped
    /// drop(store);
    /// let log = StoreLog::open(&dir, "FIX.4.4-A-B")?;
    /// assert_eq!((log.stored(), log.stored_range()), (2, Some((1, 2))));
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn stored_range(&self) -> Option<(u64, u64)> {
        let index = &self.state().index;
        Some((index.first()?.seq, index.last()?.seq))
    }

    /// How many messages the store holds.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-count");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// assert_eq!(StoreLog::open(&dir, "FIX.4.4-A-B")?.stored(), 0);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn stored(&self) -> usize {
        self.state().index.len()
    }

    /// Where the last good record ends.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-end");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// let log = StoreLog::open(&dir, "FIX.4.4-A-B")?;
    /// assert_eq!(log.end(), 8 + 25); // the header and the reset record
    /// assert!(log.file_len() >= log.end()); // space allocated ahead
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn end(&self) -> u64 {
        match &self.source {
            Source::Own { log, .. } => log.end,
            Source::Shared(view) => view.end,
        }
    }

    /// The file's length, the space allocated after the records included.
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-len");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// assert_eq!(StoreLog::open(&dir, "FIX.4.4-A-B")?.file_len(), 64 * 1024);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn file_len(&self) -> u64 {
        match &self.source {
            Source::Own { log, .. } => log.file_len,
            Source::Shared(view) => view.file_len,
        }
    }

    /// The torn end of an interrupted write after the last good record, if there
    /// is one: opening the store would cut it (on a running store's log, it may be
    /// a record being written).
    ///
    /// ```
    /// # use fix_session::{FileStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-torn");
    /// # drop(FileStore::open(&dir, "FIX.4.4-A-B")?);
    /// assert_eq!(StoreLog::open(&dir, "FIX.4.4-A-B")?.torn_tail(), None);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn torn_tail(&self) -> Option<TornTail> {
        match &self.source {
            Source::Own { log, .. } => log.torn,
            Source::Shared(view) => view.torn.map(|(offset, len)| TornTail { offset, len }),
        }
    }

    /// Visits the messages the store holds, in order, each checked against its
    /// CRC again as it is read (a record that changed since the log was read is
    /// [`StoreError::Corrupt`] with its offset). One message is in memory at a
    /// time.
    ///
    /// ```
    /// # use fix_session::{FileStore, MessageStore, store::StoreLog};
    /// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-storelog-read");
    /// let mut store = FileStore::open(&dir, "FIX.4.4-A-B")?;
    /// store.store(1, b"first")?;
    /// store.store(2, b"second")?;
    /// drop(store);
    /// let mut seen = Vec::new();
    /// StoreLog::open(&dir, "FIX.4.4-A-B")?.read_messages(&mut |seq, msg| seen.push((seq, msg.to_vec())))?;
    /// assert_eq!(seen, [(1, b"first".to_vec()), (2, b"second".to_vec())]);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn read_messages(&self, visit: &mut dyn FnMut(u64, &[u8])) -> Result<(), StoreError> {
        let (file, log) = match &self.source {
            Source::Own { file, log } => (file, log),
            Source::Shared(view) => return view.read_messages(visit),
        };
        let mut buf = Vec::new();
        for entry in &log.state.index {
            let size = record::size(8, entry.len as usize);
            buf.resize(size, 0);
            read_exact_at(file, &mut buf, entry.offset)
                .map_err(|e| io_error(IoOperation::Read, &self.path, e))?;
            let body = verify_message(&buf, entry).ok_or_else(|| StoreError::Corrupt {
                path: self.path.clone(),
                offset: entry.offset,
                reason: "stored message changed on disk since the log was read",
            })?;
            visit(entry.seq, body);
        }
        Ok(())
    }
}

#[cfg(unix)]
fn read_exact_at(file: &File, buf: &mut [u8], at: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, at)
}

#[cfg(windows)]
fn read_exact_at(file: &File, mut buf: &mut [u8], mut at: u64) -> io::Result<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_read(file, buf, at)?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        buf = &mut buf[n..];
        at += n as u64;
    }
    Ok(())
}

/// The session ids of the stores in `dir`, sorted: the file stores (each
/// `<id>.log` there, its file name mapped back to the id
/// [`FileStore::open`](crate::FileStore::open) was given) and the sessions of
/// the shared log in its [`SHARED_LOG_DIR`]. Files that are no store's log
/// (another name, or not starting with the log's header) are passed over.
///
/// ```
/// use fix_session::{FileStore, store::sessions};
/// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-sessions");
/// drop(FileStore::open(&dir, "FIX.4.4-B-A")?);
/// drop(FileStore::open(&dir, "FIX.4.4-A/1-B")?); // a `/` is written `_2F` in the file name
/// assert_eq!(sessions(&dir)?, ["FIX.4.4-A/1-B", "FIX.4.4-B-A"]);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub fn sessions(dir: impl AsRef<Path>) -> Result<Vec<String>, StoreError> {
    let dir = dir.as_ref();
    let mut ids = file_sessions(dir)?;
    let shared = dir.join(SHARED_LOG_DIR);
    if shared.is_dir() {
        ids.extend(SharedView::sessions(&shared)?);
        ids.sort();
        ids.dedup();
    }
    Ok(ids)
}

/// The session ids of the file stores of their own in `dir` (each `<id>.log`),
/// sorted: [`sessions`] without the shared log's.
///
/// ```
/// use fix_session::{FileStore, store::file_sessions};
/// # let dir = fix_test_support::temp_dir::TestDir::new("session-doc-file-sessions");
/// drop(FileStore::open(&dir, "FIX.4.4-B-A")?);
/// assert_eq!(file_sessions(&dir)?, ["FIX.4.4-B-A"]);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub fn file_sessions(dir: impl AsRef<Path>) -> Result<Vec<String>, StoreError> {
    let dir = dir.as_ref();
    let read_err = |e| io_error(IoOperation::Read, dir, e);
    let mut ids = Vec::new();
    for entry in fs::read_dir(dir).map_err(read_err)? {
        let name = entry.map_err(read_err)?.file_name();
        let Some(stem) = name.to_str().and_then(|n| n.strip_suffix(".log")) else {
            continue;
        };
        // Only a name the store would write: the mapping is one to one, so the id
        // maps back to this very name.
        if let Some(id) = session_id_of(stem)
            && file_stem(&id).is_ok_and(|s| s == stem)
            && starts_with_magic(&dir.join(&name))
        {
            ids.push(id);
        }
    }
    ids.sort();
    Ok(ids)
}

fn starts_with_magic(path: &Path) -> bool {
    let mut magic = [0u8; 8];
    File::open(path)
        .and_then(|f| read_exact_at(&f, &mut magic, 0))
        .is_ok()
        && magic == MAGIC
}

/// The session id whose file stem is `stem`: `_XX` read back as the byte in hex.
fn session_id_of(stem: &str) -> Option<String> {
    let bytes = stem.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'_' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems_map_back_to_their_session_ids() {
        for id in [
            "FIX.4.4-A-B",
            "FIX.4.4-A/B-C",
            ".hidden",
            "a b\\c",
            "é",
            "x_y",
        ] {
            let stem = file_stem(id).unwrap();
            assert_eq!(session_id_of(&stem).as_deref(), Some(id), "{stem}");
        }
        assert_eq!(session_id_of("bad_4"), None);
        assert_eq!(session_id_of("bad_ZZ"), None);
        assert_eq!(session_id_of("_FF"), None); // not UTF-8
    }
}
