//! The log's unwritten end: what sessions appended and the sync thread has
//! not yet written to its segment, kept in memory from a block boundary so
//! that the sync thread can write it with direct I/O (no page cache, so no
//! writeback for a sync to wait for and no page a writer must wait on).
//!
//! An append is a memory copy under the writer's lock; the sync thread takes
//! the pieces, writes each with one `pwrite` from its block boundary, and
//! syncs. A piece keeps the bytes of its first block that earlier syncs
//! already wrote, since a direct write covers whole blocks.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;
use std::sync::Arc;

use super::log::write_at;

/// The block a direct write is aligned to: the largest logical block size
/// of the disks the log runs on (512 and 4096 both divide it).
pub(super) const BLOCK: usize = 4096;

/// A byte buffer whose data starts on a [`BLOCK`] boundary in memory, as a
/// direct write needs, with zeros after the data up to the next boundary.
/// Made without `unsafe`: an ordinary vector one block longer than asked,
/// used from its first aligned byte; it never reallocates (it grows by a
/// new buffer), so the alignment holds.
pub(super) struct Aligned {
    raw: Vec<u8>,
    pad: usize,
    len: usize,
}

impl Aligned {
    /// An empty buffer with room for `capacity` bytes (rounded up to blocks).
    pub(super) fn with_capacity(capacity: usize) -> Aligned {
        let capacity = round_up(capacity.max(BLOCK));
        let raw = vec![0u8; capacity + BLOCK];
        let pad = raw.as_ptr().align_offset(BLOCK);
        Aligned { raw, pad, len: 0 }
    }

    fn capacity(&self) -> usize {
        self.raw.len() - BLOCK
    }

    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The data.
    pub(super) fn bytes(&self) -> &[u8] {
        &self.raw[self.pad..self.pad + self.len]
    }

    /// The data and zeros to the next block boundary: what a direct write
    /// takes (every byte past the data is zero).
    pub(super) fn blocks(&self) -> &[u8] {
        &self.raw[self.pad..self.pad + round_up(self.len)]
    }

    /// Empties it, its bytes zeroed again.
    pub(super) fn clear(&mut self) {
        self.raw[self.pad..self.pad + self.len].fill(0);
        self.len = 0;
    }

    /// Appends `bytes`, moving to a buffer twice as large when they do not fit.
    pub(super) fn extend(&mut self, bytes: &[u8]) {
        let need = self.len + bytes.len();
        if need > self.capacity() {
            let mut bigger = Aligned::with_capacity(need.max(2 * self.capacity()));
            bigger.extend(self.bytes());
            *self = bigger;
        }
        self.raw[self.pad + self.len..self.pad + need].copy_from_slice(bytes);
        self.len = need;
    }
}

/// `n` rounded up to a whole number of blocks.
pub(super) fn round_up(n: usize) -> usize {
    n.div_ceil(BLOCK) * BLOCK
}

/// `n` rounded down to a block boundary.
pub(super) fn round_down(n: u64) -> u64 {
    n - n % BLOCK as u64
}

/// Bytes of one segment from `start` (a block boundary) on, in memory:
/// those before `fresh` were written to the segment by an earlier sync, the
/// rest not yet.
pub(super) struct Piece {
    pub(super) segment: u64,
    pub(super) start: u64,
    pub(super) fresh: u64,
    pub(super) buf: Aligned,
}

impl Piece {
    /// Where its data ends in the segment.
    pub(super) fn end(&self) -> u64 {
        self.start + self.buf.len() as u64
    }

    /// Whether it holds bytes no sync has written.
    pub(super) fn has_fresh(&self) -> bool {
        self.end() > self.fresh
    }

    /// Copies `out.len()` bytes at `offset` of `segment` if it holds them all.
    pub(super) fn read(&self, segment: u64, offset: u64, out: &mut [u8]) -> bool {
        if segment != self.segment || offset < self.start {
            return false;
        }
        let from = (offset - self.start) as usize;
        match self.buf.bytes().get(from..from + out.len()) {
            Some(bytes) => {
                out.copy_from_slice(bytes);
                true
            }
            None => false,
        }
    }

    /// The piece that goes on where this one ends: its last partial block
    /// copied into `buf` (already written, or about to be, by this one).
    pub(super) fn successor(&self, mut buf: Aligned) -> Piece {
        let end = self.end();
        let start = round_down(end).max(self.start);
        buf.clear();
        buf.extend(&self.buf.bytes()[(start - self.start) as usize..]);
        Piece {
            segment: self.segment,
            start,
            fresh: end,
            buf,
        }
    }
}

/// How the sync thread writes a segment: directly where the file system
/// allows it, else through the page cache (tmpfs, or a disk whose blocks a
/// 4 KiB-aligned write does not fit).
pub(super) struct Writer {
    pub(super) segment: u64,
    direct: Option<File>,
    file: Arc<File>,
}

impl Writer {
    /// Opens segment `segment` at `path` for direct writes; `file` is its
    /// ordinary descriptor, the fallback.
    pub(super) fn open(segment: u64, path: &Path, file: Arc<File>) -> Writer {
        Writer {
            segment,
            direct: open_direct(path).ok(),
            file,
        }
    }

    /// Writes what `piece` holds that no sync has written. A direct write
    /// refused as misaligned (`EINVAL`) is done again through the page
    /// cache, and so is every later one.
    pub(super) fn write(&mut self, piece: &Piece) -> io::Result<()> {
        if let Some(direct) = &self.direct {
            match write_at(direct, piece.buf.blocks(), piece.start) {
                Err(e) if e.raw_os_error() == Some(EINVAL) => self.direct = None,
                other => return other,
            }
        }
        let from = (piece.fresh - piece.start) as usize;
        write_at(&self.file, &piece.buf.bytes()[from..], piece.fresh)
    }
}

#[cfg(target_os = "linux")]
const EINVAL: i32 = libc::EINVAL;
#[cfg(not(target_os = "linux"))]
const EINVAL: i32 = 22;

#[cfg(target_os = "linux")]
fn open_direct(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_DIRECT)
        .open(path)
}

#[cfg(not(target_os = "linux"))]
fn open_direct(_path: &Path) -> io::Result<File> {
    let _ = OpenOptions::new();
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_buffer_is_aligned_and_padded_with_zeros_to_its_block() {
        let mut b = Aligned::with_capacity(10);
        b.extend(b"abc");
        assert_eq!(b.bytes(), b"abc");
        let blocks = b.blocks();
        assert_eq!(blocks.len(), BLOCK);
        assert_eq!(blocks.as_ptr() as usize % BLOCK, 0);
        assert!(blocks[3..].iter().all(|&x| x == 0));
        b.extend(&vec![7u8; 3 * BLOCK]);
        assert_eq!(b.len(), 3 + 3 * BLOCK);
        assert_eq!(b.blocks().as_ptr() as usize % BLOCK, 0);
        assert_eq!(&b.bytes()[..3], b"abc");
    }

    #[test]
    fn a_successor_keeps_the_last_partial_block_and_reads_see_both() {
        let mut buf = Aligned::with_capacity(BLOCK);
        buf.extend(&vec![1u8; BLOCK + 100]);
        let p = Piece {
            segment: 3,
            start: BLOCK as u64,
            fresh: BLOCK as u64 + 16,
            buf,
        };
        let next = p.successor(Aligned::with_capacity(1));
        assert_eq!(next.start, 2 * BLOCK as u64);
        assert_eq!(next.fresh, 2 * BLOCK as u64 + 100);
        assert!(!next.has_fresh());
        let mut out = [0u8; 50];
        assert!(next.read(3, 2 * BLOCK as u64 + 10, &mut out));
        assert!(
            !next.read(3, 2 * BLOCK as u64 + 60, &mut out),
            "past its end"
        );
        assert!(
            !next.read(4, 2 * BLOCK as u64 + 10, &mut out),
            "another segment"
        );
        assert!(p.read(3, BLOCK as u64, &mut out));
    }
}
