//! Bytes written to the socket by the thread that synced them.
//!
//! A durable store holds a connection's output back until its sync ends.
//! The way out used to be: the sync thread wakes the connection's task, the
//! runtime schedules it, the task writes. On a busy machine that wake-up is
//! tens of microseconds per side of a round trip, on top of the disk. Here
//! the task copies the held bytes when it starts the sync, and the shared
//! log's sync thread writes them to a duplicate of the socket's descriptor
//! the moment they are durable ([`OnDurable`]), before it wakes the task;
//! the task, woken, marks what was written and writes any rest itself.
//!
//! Only where nothing else can be on the wire in between: plain TCP (TLS
//! records are the task's to make), nothing of the connection's earlier
//! output unwritten, and a sync in flight (no one else writes meanwhile:
//! direct senders wait for the task while a sync is in flight).

use std::io::{self, Write};
use std::net::TcpStream;
use std::os::fd::AsFd;
use std::sync::{Arc, Mutex, MutexGuard};

use fix_session::store::OnDurable;

use crate::transport::Stream;

/// At most this many bytes of a sync's output are written by the sync
/// thread; a larger batch (a pipelined burst) is the task's to write, as
/// the copy would cost more than the wake-up it saves.
pub(crate) const MAX_SYNCED_WRITE: usize = 64 * 1024;

/// A connection's writer on the sync thread: a duplicate of its socket
/// and the bytes of the sync in flight.
#[derive(Debug)]
pub(crate) struct SyncedWrite {
    socket: TcpStream,
    held: Mutex<Held>,
}

#[derive(Debug, Default)]
struct Held {
    bytes: Vec<u8>,
    /// The bytes are to be written when durable, and have not been.
    armed: bool,
    /// How many of them the sync thread wrote.
    written: usize,
}

impl SyncedWrite {
    /// A writer for `stream`, if it is plain TCP and its descriptor could
    /// be duplicated (a failure only costs the wake-up it would save).
    pub(crate) fn of(stream: &Stream) -> Option<Arc<SyncedWrite>> {
        // TLS records are the task's to make.
        if !matches!(stream, Stream::Plain(_)) {
            return None;
        }
        let tcp = stream.tcp();
        let fd = tcp.as_fd().try_clone_to_owned().ok()?;
        Some(Arc::new(SyncedWrite {
            socket: TcpStream::from(fd),
            held: Mutex::new(Held::default()),
        }))
    }

    fn held(&self) -> MutexGuard<'_, Held> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Takes a copy of `bytes`, to write when they are durable; whether it
    /// did (not past [`MAX_SYNCED_WRITE`]).
    pub(crate) fn arm(&self, bytes: &[u8]) -> bool {
        if bytes.is_empty() || bytes.len() > MAX_SYNCED_WRITE {
            return false;
        }
        let mut held = self.held();
        held.bytes.clear();
        held.bytes.extend_from_slice(bytes);
        held.armed = true;
        held.written = 0;
        true
    }

    /// The sync ended: how many of the armed bytes the sync thread wrote
    /// (the rest are the task's); none are written after this.
    pub(crate) fn settle(&self) -> usize {
        let mut held = self.held();
        held.armed = false;
        std::mem::take(&mut held.written)
    }
}

impl OnDurable for SyncedWrite {
    fn on_durable(&self) {
        let mut held = self.held();
        if !held.armed {
            return;
        }
        held.armed = false;
        let Held { bytes, written, .. } = &mut *held;
        // The socket is non-blocking (the runtime made it so; the duplicate
        // shares its flags): what it does not take now is the task's.
        while *written < bytes.len() {
            match (&self.socket).write(&bytes[*written..]) {
                Ok(0) => break,
                Ok(n) => *written += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                // Would block, or broken: the task finds out when it writes.
                Err(_) => break,
            }
        }
    }
}
