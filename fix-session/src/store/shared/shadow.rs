//! A copy of what the log holds only in memory, kept where a killed process
//! leaves it: a file mapped shared, so every byte copied in is the kernel's
//! the moment it is copied, with no system call.
//!
//! An append goes to the log's in-memory tail, which the sync thread writes
//! and syncs when a sync is asked for (or `UNASKED_SYNC_AFTER` later). A
//! session that only received asks for none, and a process killed meanwhile
//! would lose its received numbers from memory: the counterparty's resend
//! would bring messages the application was already handed. So each append
//! is also copied here, and opening the log after a kill writes the copies
//! that continue its segments into them before replaying them. A power loss
//! keeps the guarantee the syncs give, no more: the copy is never synced.
//!
//! ```text
//! file   := header entry* (a ring: entries wrap to the first after the header)
//! header := MAGIC nonce:u64le start:u64le zero*   (64 bytes, synced when an
//!           opening begins; start: where its first append goes)
//! entry  := pos:u64le len:u32le nonce:u32le bytes zero*   (to 8-byte alignment)
//!           nonce: the opening's, low 32 bits; bytes: whole records, each
//!           with its own CRC
//! ```
//!
//! An entry counts if its nonce is the opening's and its bytes are whole
//! records with good CRCs: the head is written after the bytes, so a process
//! killed mid-copy leaves no head (or an earlier lap's, whose records then
//! fail), and a power loss that kept some pages and not others fails a CRC.
//! No CRC is computed on the way in: the records carry theirs.

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

use memmap2::{MmapMut, MmapOptions};

use super::format;
use super::log::{Pos, pos, split};
use crate::store::{IoOperation, StoreError, lock};

/// The copy's file in the log's directory.
pub(super) const SHADOW_FILE: &str = "shared-log.shadow";

/// The copy's size: a ring holding the appends the sync thread has not
/// written yet. When they pass a quarter of it the thread writes them
/// without waiting for a sync, so the ring never laps what it still needs.
pub const SHADOW_SIZE: usize = 4 << 20;

const MAGIC: [u8; 8] = *b"FIXSHAD1";
const HEADER: usize = 64;
const ENTRY_HEAD: usize = 16;

/// This opening's copy.
pub(super) struct Shadow {
    map: MmapMut,
    nonce: u64,
    /// Where the next entry goes.
    at: usize,
}

impl std::fmt::Debug for Shadow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shadow")
            .field("nonce", &self.nonce)
            .field("at", &self.at)
            .finish_non_exhaustive()
    }
}

fn io_err(op: IoOperation, path: &Path, source: io::Error) -> StoreError {
    StoreError::Io {
        op,
        path: path.to_path_buf(),
        source,
    }
}

/// Whether `bytes` are whole records, each with a good CRC.
fn whole_records(mut bytes: &[u8]) -> bool {
    while !bytes.is_empty() {
        match format::frame(bytes) {
            Ok((_, len)) => bytes = &bytes[len..],
            Err(_) => return false,
        }
    }
    true
}

fn padded(len: usize) -> usize {
    (ENTRY_HEAD + len).next_multiple_of(8)
}

impl Shadow {
    /// Begins this opening's copy in `dir`, whose appends begin at `start`:
    /// the last opening's nonce plus one, written and synced before anything
    /// is copied (so that no entry of an earlier opening counts, even after a
    /// power loss).
    pub(super) fn begin(dir: &Path, start: Pos) -> Result<Shadow, StoreError> {
        let path = dir.join(SHADOW_FILE);
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(|e| io_err(IoOperation::Open, &path, e))?;
        let created = file
            .metadata()
            .map_err(|e| io_err(IoOperation::Open, &path, e))?
            .len()
            == 0;
        let last = last_nonce(&file).map_err(|e| io_err(IoOperation::Read, &path, e))?;
        let nonce = last.wrapping_add(1);
        // Emptied (a hole reads as zeros): the next recovery reads this
        // opening's entries alone, and skips the rest quickly.
        file.set_len(0)
            .and_then(|()| file.set_len(SHADOW_SIZE as u64))
            .map_err(|e| io_err(IoOperation::Allocate, &path, e))?;
        let mut header = [0u8; HEADER];
        header[..8].copy_from_slice(&MAGIC);
        header[8..16].copy_from_slice(&nonce.to_le_bytes());
        header[16..24].copy_from_slice(&start.to_le_bytes());
        super::log::write_at(&file, &header, 0)
            .map_err(|e| io_err(IoOperation::Write, &path, e))?;
        file.sync_data()
            .map_err(|e| io_err(IoOperation::Sync, &path, e))?;
        if created {
            lock::sync_dir(dir)?;
        }
        let map = map(&file).map_err(|e| io_err(IoOperation::Map, &path, e))?;
        Ok(Shadow {
            map,
            nonce,
            at: HEADER,
        })
    }

    /// Copies `bytes`, appended to the log at `at`; false if they are too
    /// large for the ring (the caller has them written at once instead).
    pub(super) fn copy(&mut self, at: Pos, bytes: &[u8]) -> bool {
        let size = padded(bytes.len());
        if size > SHADOW_SIZE - HEADER || u32::try_from(bytes.len()).is_err() {
            return false;
        }
        if self.at + size > SHADOW_SIZE {
            self.at = HEADER;
        }
        let entry = &mut self.map[self.at..self.at + size];
        entry[ENTRY_HEAD..ENTRY_HEAD + bytes.len()].copy_from_slice(bytes);
        // The head after the bytes, in the program's order too: a process
        // killed between them leaves bytes no head points to.
        std::sync::atomic::compiler_fence(std::sync::atomic::Ordering::Release);
        entry[..8].copy_from_slice(&at.to_le_bytes());
        entry[8..12].copy_from_slice(&(bytes.len() as u32).to_le_bytes());
        entry[12..16].copy_from_slice(&(self.nonce as u32).to_le_bytes());
        self.at += size;
        true
    }
}

/// Maps the copy's file for writing.
#[allow(unsafe_code)]
fn map(file: &File) -> io::Result<MmapMut> {
    // SAFETY: the file is SHADOW_SIZE long and never shortened while mapped:
    // only `Shadow::begin` sets its length, before mapping, and it runs with
    // the log's lock held, which excludes every other opening of the log in
    // this process or another. A program that cuts the file outside that
    // lock may get this process a SIGBUS, as with the file store's map.
    unsafe { MmapOptions::new().len(SHADOW_SIZE).map_mut(file) }
}

/// The nonce in the header of `file`, 0 if it has none.
fn last_nonce(file: &File) -> io::Result<u64> {
    let mut header = [0u8; 16];
    let mut f = file;
    match f.read_exact(&mut header) {
        Ok(()) if header[..8] == MAGIC => Ok(u64::from_le_bytes(
            header[8..16].try_into().unwrap_or([0; 8]),
        )),
        Ok(()) => Ok(0),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(0),
        Err(e) => Err(e),
    }
}

/// The log's bytes the copy in `dir` holds past `records_end` (where the
/// segments' records end), in order, each with its position: a run with no
/// gap, which may go on at the start of the next segment (an append that
/// rolled). Empty when there is no copy or nothing of it continues the log.
pub(super) fn run_from(dir: &Path, records_end: Pos) -> Result<Vec<(Pos, Vec<u8>)>, StoreError> {
    let path = dir.join(SHADOW_FILE);
    let mut bytes = Vec::new();
    match File::open(&path) {
        Ok(mut f) => f
            .read_to_end(&mut bytes)
            .map_err(|e| io_err(IoOperation::Read, &path, e))?,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_err(IoOperation::Open, &path, e)),
    };
    if bytes.len() < HEADER || bytes[..8] != MAGIC {
        return Ok(Vec::new());
    }
    let nonce = u64::from_le_bytes(bytes[8..16].try_into().unwrap_or([0; 8]));
    let start = u64::from_le_bytes(bytes[16..24].try_into().unwrap_or([0; 8]));
    let mut entries = entries(&bytes, nonce);
    entries.sort_unstable_by_key(|e| e.0);
    // The opening's appends began at `start` (past the segments' records
    // when it opened at the start of an empty segment made ahead).
    Ok(if start > records_end {
        chain(&entries, start, true)
    } else {
        chain(&entries, records_end, false)
    })
}

/// Every whole entry of this nonce in the ring, as (position, its bytes).
fn entries(ring: &[u8], nonce: u64) -> Vec<(Pos, &[u8])> {
    let mut out = Vec::new();
    let mut at = HEADER;
    while at + ENTRY_HEAD <= ring.len() {
        let word = |i: usize, n: usize| &ring[at + i..at + i + n];
        let p = u64::from_le_bytes(word(0, 8).try_into().unwrap_or([0; 8]));
        let len = u32::from_le_bytes(word(8, 4).try_into().unwrap_or([0; 4])) as usize;
        let mark = u32::from_le_bytes(word(12, 4).try_into().unwrap_or([0; 4]));
        if len == 0 {
            // Never written (or a torn entry's zeros): on to the next bytes
            // that are not zero, at an entry's alignment.
            match ring[at..].iter().position(|&b| b != 0) {
                Some(i) if i >= 8 => at += i / 8 * 8,
                Some(_) => at += 8,
                None => break,
            }
            continue;
        }
        let end = at + ENTRY_HEAD + len;
        if end <= ring.len() {
            let data = &ring[at + ENTRY_HEAD..end];
            if mark == nonce as u32 && whole_records(data) {
                out.push((p, data));
                at += padded(len);
                continue;
            }
        }
        at += 8;
    }
    out
}

/// The run of `entries` (sorted by position) from `from` on; `first`: an
/// append is known to begin at `from`.
fn chain(entries: &[(Pos, &[u8])], from: Pos, first: bool) -> Vec<(Pos, Vec<u8>)> {
    let mut out = Vec::new();
    let mut cur = from;
    // Whether an append is known to end (or begin) at `cur`: only then can
    // the next one be at the start of the next segment (else appends
    // between them may be missing from the ring).
    let mut at_boundary = first || entries.iter().any(|(p, data)| p + data.len() as u64 == cur);
    loop {
        // The entry holding `cur`: the last one that begins at or before it.
        let i = entries.partition_point(|e| e.0 <= cur);
        let holding = i
            .checked_sub(1)
            .map(|j| entries[j])
            .filter(|(p, data)| split(*p).0 == split(cur).0 && cur < p + data.len() as u64);
        if let Some((p, data)) = holding {
            out.push((cur, data[(cur - p) as usize..].to_vec()));
            cur = p + data.len() as u64;
            at_boundary = true;
            continue;
        }
        if !at_boundary {
            return out;
        }
        // An append that did not fit its segment began the next one.
        let next = pos(split(cur).0 + 1, format::HEADER);
        match entries.binary_search_by_key(&next, |e| e.0) {
            Ok(j) => {
                out.push((next, entries[j].1.to_vec()));
                cur = next + entries[j].1.len() as u64;
            }
            Err(_) => return out,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ring_with(nonce: u64, list: &[(Pos, &[u8])]) -> Vec<u8> {
        let mut ring = vec![0u8; 4096];
        let mut at = HEADER;
        for (p, data) in list {
            ring[at..at + 8].copy_from_slice(&p.to_le_bytes());
            ring[at + 8..at + 12].copy_from_slice(&(data.len() as u32).to_le_bytes());
            ring[at + 12..at + 16].copy_from_slice(&(nonce as u32).to_le_bytes());
            ring[at + 16..at + 16 + data.len()].copy_from_slice(data);
            at += padded(data.len());
        }
        ring
    }

    /// A record (a Removed one, of session `n`) as the log writes it.
    fn record(n: u32) -> Vec<u8> {
        let mut out = Vec::new();
        format::append(&mut out, format::REMOVED, n, &[], &[]);
        out
    }

    #[test]
    fn the_run_follows_the_log_across_a_roll_and_stops_at_a_gap() {
        let (r1, r2, r3, r4) = (record(1), record(2), record(3), record(4));
        let two = [r1.clone(), r2.clone()].concat();
        let len = r1.len() as u64;
        let a = pos(3, 100);
        let b = a + 2 * len;
        let c = pos(4, format::HEADER);
        let d = c + len + 50; // after a gap
        let ring = ring_with(7, &[(a, &two), (b, &r3), (c, &r4), (d, &r1)]);
        let found = entries(&ring, 7);
        assert_eq!(found.len(), 4);
        // From inside the first entry (its first record on disk already).
        let run = chain(&found, a + len, false);
        assert_eq!(
            run,
            vec![(a + len, r2.clone()), (b, r3.clone()), (c, r4.clone())]
        );
        // No append is known to end at a + 100: what went between it and the
        // next segment may be missing, so the next segment is not taken.
        assert!(chain(&found, a + 100, false).is_empty());
        // An append ends at b + len: the next segment's first one follows it.
        assert_eq!(chain(&found, b + len, false), vec![(c, r4.clone())]);
        // An opening that began at the next segment's start (made ahead).
        assert_eq!(chain(&found, c, true), vec![(c, r4)]);
    }

    #[test]
    fn entries_of_another_opening_or_torn_do_not_count() {
        let (r1, r2) = (record(1), record(2));
        let at = pos(1, 16);
        let mut ring = ring_with(7, &[(at, &r1), (at + r1.len() as u64, &r2)]);
        assert!(entries(&ring, 8).is_empty(), "another opening's nonce");
        ring[HEADER + ENTRY_HEAD + 6] ^= 1;
        let found = entries(&ring, 7);
        assert_eq!(found, vec![(at + r1.len() as u64, &r2[..])]);
        assert!(
            chain(&found, at, false).is_empty(),
            "the torn first breaks the run"
        );
    }
}
