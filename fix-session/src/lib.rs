//! The FIX session layer, sans-IO: a [`Session`] is fed received bytes and the
//! current time and hands back the bytes to write, its next deadline and whether
//! to disconnect; it owns no socket, thread or clock (a transport such as
//! `fix-engine` drives it). Every message it sends is taken by its
//! [`MessageStore`] before its bytes are handed out.
//!
//! A [`MessageStore`] holds the next sender and target sequence numbers, the outgoing
//! messages by sequence number (for resend requests, read back in bounded chunks),
//! and the session's creation time. [`MemoryStore`] keeps them in memory without
//! allocating in its steady state; [`FileStore`] keeps them in an append-only,
//! checksummed log, durable before `store` returns by default.
//!
//! ```
//! use fix_session::{ChunkLimit, MemoryStore, MessageStore};
//!
//! let mut store = MemoryStore::with_capacity(1024, 256 * 1024);
//! let seq = store.next_sender_seq();
//! store.store(seq, b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01")?; // then send it
//! assert_eq!(store.next_sender_seq(), seq + 1);
//!
//! let mut resent = Vec::new();
//! let chunk = store.read_stored(1, u64::MAX, ChunkLimit::default(), &mut |seq, msg| {
//!     resent.push((seq, msg.len()));
//! })?;
//! assert_eq!((resent, chunk.resume_at), (vec![(1, 26)], None));
//! # Ok::<(), fix_session::StoreError>(())
//! ```
#![deny(missing_docs)]
// The system calls Rust cannot check (the file store mapping its log and
// allocating its space, the shared log mapping its shadow) are allowed where
// they are made; nothing else is unsafe.
#![deny(unsafe_code)]

mod app;
mod budget;
mod config;
mod dictionaries;
mod session;
pub mod store;
pub mod time;
mod versions;

pub use app::{AppReject, Application, Outbox, Refusal};
pub use budget::MemoryBudget;
pub use config::{OnError, Role, SessionConfig, SessionId, SubIds};
pub use dictionaries::{AppSchema, Dictionaries, appl_ver_id_code};
pub use session::{
    DisconnectReason, Event, MAX_FIELDS, MAX_HEART_BT_INT, MAX_PENDING_EVENTS, MAX_SEQ_NUM,
    MAX_TRANSCRIPT_BYTES, MessageCounts, MessageEvent, Session, SessionError, State,
    check_outgoing, is_header_or_trailer,
};
pub use store::{
    Chunk, ChunkLimit, Direction, FileOptions, FileStore, IoOperation, MAX_MESSAGE_LEN,
    MemoryStore, MessageStore, StoreError, SyncPolicy, TornTail,
};
pub use time::Time;
pub use versions::{ApplVerDispatch, ByApplVerId, NoApplVer};
