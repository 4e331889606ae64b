//! Reading the shared log back on open: every session's numbers and index
//! from the segments, the torn end of an interrupted batch cut and zeroed.

use std::collections::{BTreeMap, HashMap};
use std::fs::{File, OpenOptions};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use super::format::{self, Bad, Record};
use super::log::{Pos, SessionSlot, pos, write_at};
use crate::store::{Entry, IoOperation, RecordCounts, State, StoreError, check_store, lock};

/// One session as recovery left it.
#[derive(Debug)]
pub(super) struct Recovered {
    pub(super) state: State,
    /// The session's records since its last Reset that the log still has.
    pub(super) counts: RecordCounts,
}

/// What the segments hold.
pub(super) struct Found {
    pub(super) segments: BTreeMap<u64, Arc<File>>,
    /// The segment to append to: its number, size, and where its records end.
    pub(super) end: Option<(u64, u64, u64)>,
    pub(super) sessions: HashMap<String, SessionSlot>,
    /// The highest session number any record used.
    pub(super) max_number: u32,
    /// Where a torn end was cut (zeroed when repairing), and its bytes.
    pub(super) torn: Option<(Pos, u64)>,
    /// Where the log's last record ends (the first segment's header end
    /// when it has none): what a copy of a killed process's appends
    /// continues.
    pub(super) records_end: Option<Pos>,
}

/// A session while its records are replayed.
struct Replay {
    name: String,
    state: State,
    base: Pos,
    /// Answers opened and not yet closed: the sender number and index
    /// length before them.
    open: Option<(u64, u64)>,
    counts: RecordCounts,
}

impl Replay {
    fn take_back(&mut self) {
        if let Some((_, next_sender)) = self.open.take() {
            self.state.set_sender(next_sender);
        }
    }

    fn apply(&mut self, rec: Record, at: Pos, msg_len: usize) -> Result<(), &'static str> {
        let c = &mut self.counts;
        match rec {
            Record::Message { .. } => c.messages += 1,
            Record::TargetAdvanced { .. } => c.target_advances += 1,
            Record::SeqSet { .. } => c.seq_sets += 1,
            Record::Answering { .. } => c.answers += 1,
            Record::Reset { .. } | Record::Removed => {}
        }
        match rec {
            Record::Message { seq } => {
                check_store(self.state.next_sender, seq, msg_len)
                    .map_err(|_| "a message out of sequence")?;
                self.state.stored(Entry {
                    seq,
                    offset: at,
                    len: msg_len as u32,
                });
            }
            Record::TargetAdvanced { next_target } => {
                if next_target == 0 {
                    return Err("a target number of 0");
                }
                if self
                    .open
                    .is_some_and(|(received, _)| next_target == received.saturating_add(1))
                {
                    self.open = None;
                }
                self.state.next_target = next_target;
            }
            Record::SeqSet {
                next_sender,
                next_target,
            } => {
                if next_sender == 0 || next_target == 0 {
                    return Err("a sequence number of 0");
                }
                self.open = None;
                self.state.set_sender(next_sender);
                self.state.next_target = next_target;
            }
            Record::Answering { received } => {
                self.take_back();
                self.open = Some((received, self.state.next_sender));
            }
            Record::Reset { .. } | Record::Removed => {}
        }
        Ok(())
    }
}

/// The segment files of `dir`, by number.
fn list(dir: &Path, repair: bool) -> Result<BTreeMap<u64, std::path::PathBuf>, StoreError> {
    let io = |source| StoreError::Io {
        op: IoOperation::Read,
        path: dir.to_path_buf(),
        source,
    };
    let mut out = BTreeMap::new();
    for entry in std::fs::read_dir(dir).map_err(io)? {
        let path = entry.map_err(io)?.path();
        let number = path
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".seg"))
            .and_then(|n| n.parse::<u64>().ok());
        match number {
            Some(n) if n > 0 => {
                out.insert(n, path);
            }
            _ => {
                // A segment made but not renamed into place: never used.
                if repair && path.extension().is_some_and(|e| e == "tmp") {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }
    Ok(out)
}

/// Replays every segment of `dir`; `repair`: cuts a torn end for good (zeroed,
/// later segments removed), else only reads.
pub(super) fn recover(dir: &Path, repair: bool) -> Result<Found, StoreError> {
    let mut segments = BTreeMap::new();
    let mut by_number: HashMap<u32, Replay> = HashMap::new();
    let mut max_number = 0u32;
    let mut end = None;
    let mut bytes = Vec::new();
    let paths = list(dir, repair)?;
    let mut torn = None;
    let mut torn_at: Option<(u64, u64)> = None;
    // Sessions with records in the log before any Reset of theirs in it:
    // the segment with their earlier Reset was removed after a later Reset,
    // which must follow.
    let mut orphans: HashMap<u32, Pos> = HashMap::new();
    let mut records_end = None;
    for (&number, path) in &paths {
        let io = |op, source| StoreError::Io {
            op,
            path: path.clone(),
            source,
        };
        let corrupt = |offset, reason| StoreError::Corrupt {
            path: path.clone(),
            offset,
            reason,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(repair)
            .open(path)
            .map_err(|e| io(IoOperation::Open, e))?;
        bytes.clear();
        file.read_to_end(&mut bytes)
            .map_err(|e| io(IoOperation::Read, e))?;
        let mut header = [0u8; format::HEADER as usize];
        header[..8].copy_from_slice(&format::MAGIC);
        header[8..].copy_from_slice(&number.to_le_bytes());
        if bytes.get(..header.len()) != Some(&header[..]) {
            return Err(corrupt(
                0,
                "not segment of a shared log, or another number than its name",
            ));
        }
        if torn_at.is_some() {
            // Past a torn end nothing was ever durable: a record here means
            // the damage was not a torn end.
            if format::frame(&bytes[format::HEADER as usize..]).is_ok() {
                return Err(corrupt(
                    format::HEADER,
                    "records follow a damaged record of an earlier segment",
                ));
            }
            drop(file);
            if repair {
                std::fs::remove_file(path).map_err(|e| io(IoOperation::Remove, e))?;
            }
            continue;
        }
        let mut at = format::HEADER as usize;
        loop {
            match format::frame(&bytes[at.min(bytes.len())..]) {
                Ok((rec, len)) => {
                    let decoded = format::decode(&rec).map_err(|r| corrupt(at as u64, r))?;
                    replay(
                        &mut by_number,
                        &mut orphans,
                        &mut max_number,
                        &rec,
                        decoded,
                        pos(number, at as u64),
                    )
                    .map_err(|r| corrupt(at as u64, r))?;
                    at += len;
                }
                Err(Bad::End) => break,
                Err(Bad::Damaged(reason)) => {
                    if record_follows(&bytes, at + 1) {
                        return Err(corrupt(at as u64, reason));
                    }
                    // The torn end of a batch that was never durable, so
                    // never sent: cut, and zeroed so that no later end can
                    // make its remains look like records.
                    let data_end = bytes.iter().rposition(|&b| b != 0).map_or(at, |i| i + 1);
                    torn = Some((pos(number, at as u64), (data_end.max(at) - at) as u64));
                    if repair {
                        let zeros = vec![0u8; bytes.len() - at];
                        write_at(&file, &zeros, at as u64)
                            .map_err(|e| io(IoOperation::Write, e))?;
                        file.sync_data().map_err(|e| io(IoOperation::Sync, e))?;
                    }
                    torn_at = Some((number, at as u64));
                    break;
                }
            }
        }
        end = Some((number, bytes.len() as u64, at as u64));
        if records_end.is_none() || at as u64 > format::HEADER {
            records_end = Some(pos(number, at as u64));
        }
        segments.insert(number, Arc::new(file));
    }
    if repair && torn_at.is_some() {
        lock::sync_dir(dir)?;
    }
    if let Some((_, &at)) = orphans.iter().min_by_key(|(_, at)| **at) {
        let (segment, offset) = super::log::split(at);
        return Err(StoreError::Corrupt {
            path: super::log::segment_path(dir, segment),
            offset,
            reason: "a record of a session the log never named",
        });
    }
    let mut sessions = HashMap::new();
    for (number, mut r) in by_number {
        r.take_back();
        sessions.insert(
            r.name,
            SessionSlot {
                number,
                base: r.base,
                open: false,
                recovered: Some(Recovered {
                    state: r.state,
                    counts: r.counts,
                }),
            },
        );
    }
    Ok(Found {
        segments,
        end,
        sessions,
        max_number,
        torn,
        records_end,
    })
}

/// Applies one record to its session.
fn replay(
    by_number: &mut HashMap<u32, Replay>,
    orphans: &mut HashMap<u32, Pos>,
    max_number: &mut u32,
    rec: &format::Framed<'_>,
    decoded: Record,
    at: Pos,
) -> Result<(), &'static str> {
    *max_number = (*max_number).max(rec.session);
    match decoded {
        Record::Reset { created } => {
            orphans.remove(&rec.session);
            let name = format::reset_name(rec)?.to_owned();
            let mut state = State::new(created, 0);
            state.reset(created);
            by_number.insert(
                rec.session,
                Replay {
                    name,
                    state,
                    base: at,
                    open: None,
                    counts: RecordCounts {
                        resets: 1,
                        ..RecordCounts::default()
                    },
                },
            );
            Ok(())
        }
        Record::Removed => {
            // Its records before are dead, whether or not its Reset is
            // still in the log (its segment removed once it no longer
            // pinned it).
            orphans.remove(&rec.session);
            by_number.remove(&rec.session);
            Ok(())
        }
        other => {
            let Some(session) = by_number.get_mut(&rec.session) else {
                // Superseded by a Reset later in the log, or damage.
                orphans.entry(rec.session).or_insert(at);
                return Ok(());
            };
            let msg_len = rec.payload.len().saturating_sub(8);
            session.apply(other, at, msg_len)
        }
    }
}

/// Whether a whole record starts anywhere in `bytes` from `from` on.
fn record_follows(bytes: &[u8], from: usize) -> bool {
    (from..bytes.len().saturating_sub(format::FRAME + format::KIND_SESSION))
        .any(|at| matches!(format::frame(&bytes[at..]), Ok((rec, _)) if format::decode(&rec).is_ok()))
}
