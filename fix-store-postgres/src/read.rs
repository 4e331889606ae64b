//! Reads of stored messages: the committed ones a page of rows at a time
//! from the database (through the store's thread, waited for by the caller,
//! or, for a resend, by a [`ReadJob`] off the session's thread), then what
//! the store holds in memory (the batch in flight and the buffer).

use fix_session::store::Fetched;
use fix_session::{Chunk, ChunkLimit, StoreError};

use crate::layout;
use crate::seq::{db_ranges, from_db};
use crate::sql::{Page, StoredRow};
use crate::store::db_error;
use crate::worker::{Request, Sender, call};

#[cfg(doc)]
use fix_session::store::ReadJob;

/// What reads the committed messages of one session's generation: a
/// handle on the store's thread that a read job takes with it.
#[derive(Clone, Debug)]
pub(crate) struct Reader {
    pub(crate) tx: Sender,
    pub(crate) key: String,
    pub(crate) generation: i64,
}

/// What a read job of the store brought: the committed messages below
/// `bound` (the first number it did not look for in the database: the
/// first one in memory when it began, or past the range), and the store's
/// count of batches out of memory then, to tell whether the memory it
/// goes on with is the one it began beside.
#[derive(Debug)]
pub(crate) struct Begun {
    pub(crate) fetched: Fetched,
    pub(crate) bound: u64,
    pub(crate) generation: i64,
    pub(crate) batches_left: u64,
}

impl Reader {
    /// Reads committed messages of `from..=to` into the chunk, a page of
    /// rows at a time; `Some(seq)` when the limit stopped it there. A page
    /// brings at most [`PAGE_BYTES`] and one row (a row holds at most
    /// `layout::ROW_BYTES`, or one longer message) to memory, and no more
    /// rows than the chunk has messages left to take.
    pub(crate) fn read(
        &self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        chunk: &mut Chunk,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Option<u64>, StoreError> {
        for (lo, hi) in db_ranges(from, to) {
            if let Some(at) = self.read_range(lo, hi, (from, to), limit, chunk, visit)? {
                return Ok(Some(at));
            }
        }
        Ok(None)
    }

    /// A read job's work: the committed messages of `from..=to` (`to` below
    /// what the store holds in memory), at most `limit` of them.
    pub(crate) fn fetch(
        &self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
    ) -> Result<Fetched, StoreError> {
        let mut fetched = Fetched::default();
        let mut chunk = empty_chunk();
        if from <= to {
            let resume_at = self.read(from, to, limit, &mut chunk, &mut |seq, m| {
                fetched.push(seq, m)
            })?;
            fetched.resume_at = resume_at;
        }
        Ok(fetched)
    }

    /// [`read`](Self::read) over the bigints `lo..=hi`
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
            let rows = call(&self.tx, |reply| Request::Read { page, reply })
                .map_err(|e| db_error("read stored messages", e))?;
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

/// A chunk that has visited nothing yet.
pub(crate) fn empty_chunk() -> Chunk {
    Chunk {
        messages: 0,
        bytes: 0,
        resume_at: None,
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

/// Visits `entries` (sorted, in range) into the chunk; `Some(seq)` when the
/// limit stopped it there.
pub(crate) fn visit_buffered<'a>(
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
pub(crate) fn visit_one(
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
