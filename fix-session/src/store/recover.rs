//! Reading a log on open: every record checked and replayed into the state, a torn
//! end told from damage in the middle.
//!
//! A record that fails its checks (a length or kind no record has, a length past the
//! end of the file, a CRC mismatch) is the torn end of an interrupted write when no
//! valid record starts anywhere after it: the store drops it. When a valid record
//! does start after it, the damage is in the middle of the log, and the log is
//! refused with the record's offset, never skipped: skipping would lose a message
//! whose number was handed out, and the session would use the number again.
//!
//! The log is allocated ahead of its records, so zeros follow the last record: a
//! record never starts with a zero length, and the records end where only zeros
//! are left.
//!
//! Memory is bounded: records are read through a fixed buffer, and only the index
//! (one entry per stored message) grows with the log.

use std::fs::File;
use std::io::{self, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use super::file::TornTail;
use super::inspect::RecordCounts;
use super::record::{self, FRAME, MAGIC, Record};
use super::{Entry, IoOperation, State, StoreError};

/// The shortest record: length, kind, an 8-byte payload, CRC.
const MIN_RECORD: u64 = FRAME + 9;

/// A log's contents, replayed.
#[derive(Debug)]
pub(super) struct Recovered {
    pub(super) state: State,
    /// Where the last good record ends: the next record goes there.
    pub(super) end: u64,
    /// The file's length, allocated space after `end` included.
    pub(super) file_len: u64,
    pub(super) torn: Option<TornTail>,
    /// The good records replayed, by kind.
    pub(super) records: RecordCounts,
}

/// What reading one record found.
enum Read1 {
    Good(Record, u64),
    /// The record fails its checks: torn, or damaged.
    Damaged(Damage),
    /// The record is intact but says something no store writes (a creation time out
    /// of range): damage the CRC did not catch, or another program's writing.
    Invalid(&'static str),
}

#[derive(Clone, Copy)]
enum Damage {
    CutShort,
    BadHeader,
    PastEnd,
    Checksum,
}

impl Damage {
    /// Why the record is refused, given that valid records follow it.
    fn reason(self) -> &'static str {
        match self {
            Damage::CutShort | Damage::PastEnd => {
                "record length runs past the end of the file, with valid records after it"
            }
            Damage::BadHeader => "record length or kind out of range, with valid records after it",
            Damage::Checksum => "checksum mismatch, with valid records after it",
        }
    }
}

/// Reads and replays the log `file` (at `path`, for errors).
pub(super) fn recover(file: &File, path: &Path) -> Result<Recovered, StoreError> {
    let io_err = |source| StoreError::Io {
        op: IoOperation::Read,
        path: path.to_path_buf(),
        source,
    };
    let corrupt = |offset, reason| StoreError::Corrupt {
        path: path.to_path_buf(),
        offset,
        reason,
    };
    let file_len = file.metadata().map_err(io_err)?.len();
    // No record starts at or after the last nonzero byte: a record's length, its
    // first bytes, is never zero.
    let data_end = nonzero_end(file, file_len).map_err(io_err)?;
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    reader.seek(SeekFrom::Start(0)).map_err(io_err)?;
    // A log is created whole (written, synced, then renamed into place), so a short
    // or wrong header is damage, never a torn write.
    let no_header = || corrupt(0, "not a fix-session store log (no FIXSLOG1 header)");
    if file_len < MAGIC.len() as u64 {
        return Err(no_header());
    }
    let mut magic = [0u8; 8];
    reader.read_exact(&mut magic).map_err(io_err)?;
    if magic != MAGIC {
        return Err(no_header());
    }
    let mut pos = MAGIC.len() as u64;
    let mut state: Option<State> = None;
    // The answers opened and not yet closed by their target advance: where,
    // and the sender number before them.
    let mut open: Option<Open> = None;
    let mut records = RecordCounts::default();
    let mut scratch = [0u8; 8192];
    while pos < data_end {
        match read_one(&mut reader, pos, file_len, &mut scratch).map_err(io_err)? {
            Read1::Good(rec, len) => {
                open = track_answers(open, rec, pos, state.as_ref());
                apply(&mut state, rec, pos).map_err(|reason| corrupt(pos, reason))?;
                records.count(rec);
                pos += len;
            }
            Read1::Invalid(reason) => return Err(corrupt(pos, reason)),
            Read1::Damaged(damage) => {
                if find_record(file, pos + 1, data_end, file_len, &mut scratch).map_err(io_err)? {
                    return Err(corrupt(pos, damage.reason()));
                }
                let Some(mut state) = state else {
                    return Err(corrupt(
                        pos,
                        "the log's first record, its reset, is damaged",
                    ));
                };
                let end = roll_back(&mut state, open, pos);
                return Ok(Recovered {
                    state,
                    end,
                    file_len,
                    torn: Some(TornTail {
                        offset: end,
                        len: data_end - end,
                    }),
                    records,
                });
            }
        }
    }
    let mut state = state.ok_or_else(|| corrupt(pos, "the log has no reset record"))?;
    let end = roll_back(&mut state, open, pos);
    let torn = (end < pos).then(|| TornTail {
        offset: end,
        len: data_end - end,
    });
    Ok(Recovered {
        state,
        end,
        file_len,
        torn,
        records,
    })
}

/// Answers opened in the log and not closed yet.
#[derive(Clone, Copy)]
struct Open {
    offset: u64,
    received: u64,
    next_sender: u64,
}

/// Follows the answers through one good record at `offset`: an Answering
/// record opens them, the target advance of the message they answer closes
/// them (they count), and so does any record but a Message (a session that
/// set its numbers or reset has moved on from them).
fn track_answers(
    open: Option<Open>,
    rec: Record,
    offset: u64,
    state: Option<&State>,
) -> Option<Open> {
    match rec {
        Record::Answering { received } => Some(Open {
            offset,
            received,
            next_sender: state.map_or(1, |s| s.next_sender),
        }),
        Record::Message { .. } => open,
        Record::TargetAdvanced { next_target } => {
            open.filter(|o| o.received.checked_add(1) != Some(next_target))
        }
        Record::SeqSet { .. } | Record::Reset { .. } => None,
    }
}

/// Answers still open where the log's good records end were never confirmed:
/// their messages are dropped and the log ends where they began. Returns the
/// end of the log.
fn roll_back(state: &mut State, open: Option<Open>, end: u64) -> u64 {
    match open {
        Some(o) => {
            state.set_sender(o.next_sender);
            o.offset
        }
        None => end,
    }
}

/// Applies one good record at `offset` to the state, by the rules the live store
/// wrote it under.
fn apply(state: &mut Option<State>, rec: Record, offset: u64) -> Result<(), &'static str> {
    let Some(st) = state else {
        return match rec {
            Record::Reset { created } => {
                *state = Some(State::new(created, 0));
                Ok(())
            }
            _ => Err("the log does not start with a reset record"),
        };
    };
    match rec {
        Record::Message { seq, len } => {
            st.check_store(seq, len as usize)
                .map_err(|_| "message record out of sequence")?;
            st.stored(Entry { seq, offset, len });
        }
        Record::TargetAdvanced { next_target } => {
            if st.next_target.checked_add(1) != Some(next_target) {
                return Err("target advance record out of sequence");
            }
            st.next_target = next_target;
        }
        Record::SeqSet {
            next_sender,
            next_target,
        } => {
            if next_sender == 0 || next_target == 0 {
                return Err("sequence set record with a sequence number of 0");
            }
            st.set_sender(next_sender);
            st.next_target = next_target;
        }
        Record::Reset { .. } => return Err("reset record after the start of the log"),
        Record::Answering { received } => {
            if received != st.next_target {
                return Err("answering record for a message not expected");
            }
        }
    }
    Ok(())
}

/// Reads the record at `pos` (where `reader` stands), checking its length, kind and
/// CRC.
fn read_one(
    reader: &mut impl Read,
    pos: u64,
    file_len: u64,
    scratch: &mut [u8],
) -> io::Result<Read1> {
    if file_len - pos < MIN_RECORD {
        return Ok(Read1::Damaged(Damage::CutShort));
    }
    let mut head = [0u8; 5];
    reader.read_exact(&mut head)?;
    let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let kind = head[4];
    if !record::plausible(len, kind) {
        return Ok(Read1::Damaged(Damage::BadHeader));
    }
    if pos + FRAME + u64::from(len) > file_len {
        return Ok(Read1::Damaged(Damage::PastEnd));
    }
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&head);
    // `plausible` holds, so the kind has a fixed part, of at most 16 bytes.
    let fixed_len = record::fixed_len(kind).map_or(1, |n| n as usize) - 1;
    let mut fixed = [0u8; 16];
    reader.read_exact(&mut fixed[..fixed_len])?;
    hasher.update(&fixed[..fixed_len]);
    hash_stream(
        reader,
        u64::from(len) - 1 - fixed_len as u64,
        &mut hasher,
        scratch,
    )?;
    let mut crc = [0u8; 4];
    reader.read_exact(&mut crc)?;
    if hasher.finalize() != u32::from_le_bytes(crc) {
        return Ok(Read1::Damaged(Damage::Checksum));
    }
    match record::decode(len, kind, &fixed[..fixed_len]) {
        Ok(rec) => Ok(Read1::Good(rec, FRAME + u64::from(len))),
        Err(reason) => Ok(Read1::Invalid(reason)),
    }
}

/// Feeds the next `n` bytes of `reader` to `hasher`.
fn hash_stream(
    reader: &mut impl Read,
    mut n: u64,
    hasher: &mut crc32fast::Hasher,
    scratch: &mut [u8],
) -> io::Result<()> {
    while n > 0 {
        let take = n.min(scratch.len() as u64) as usize;
        reader.read_exact(&mut scratch[..take])?;
        hasher.update(&scratch[..take]);
        n -= take as u64;
    }
    Ok(())
}

/// One past the last byte of `file` that is not zero (0 for a file of zeros).
fn nonzero_end(file: &File, file_len: u64) -> io::Result<u64> {
    let mut window = vec![0u8; 64 * 1024];
    let mut reader = file;
    let mut end = file_len;
    while end > 0 {
        let take = window.len().min(end as usize);
        let start = end - take as u64;
        reader.seek(SeekFrom::Start(start))?;
        reader.read_exact(&mut window[..take])?;
        if let Some(i) = window[..take].iter().rposition(|&b| b != 0) {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Whether a valid record (a plausible length and kind, inside the file, its CRC
/// matching) starts anywhere in `from..starts_end`.
fn find_record(
    file: &File,
    from: u64,
    starts_end: u64,
    file_len: u64,
    scratch: &mut [u8],
) -> io::Result<bool> {
    let mut window = vec![0u8; 64 * 1024];
    let (mut win_start, mut win_len) = (from, 0usize);
    let mut reader = file;
    let mut p = from;
    while p < starts_end && p + MIN_RECORD <= file_len {
        if p + 5 > win_start + win_len as u64 {
            win_start = p;
            win_len = window.len().min((file_len - p) as usize);
            reader.seek(SeekFrom::Start(p))?;
            reader.read_exact(&mut window[..win_len])?;
        }
        let at = (p - win_start) as usize;
        let head = &window[at..at + 5];
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        if record::plausible(len, head[4]) && p + FRAME + u64::from(len) <= file_len {
            reader.seek(SeekFrom::Start(p))?;
            let mut hasher = crc32fast::Hasher::new();
            hash_stream(&mut reader, 4 + u64::from(len), &mut hasher, scratch)?;
            let mut crc = [0u8; 4];
            reader.read_exact(&mut crc)?;
            if hasher.finalize() == u32::from_le_bytes(crc) {
                return Ok(true);
            }
        }
        p += 1;
    }
    Ok(false)
}
