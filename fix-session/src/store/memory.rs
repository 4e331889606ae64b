//! The memory store: messages in one growing byte arena, an index beside it.

use std::time::SystemTime;

use super::{Chunk, ChunkLimit, Entry, MessageStore, State, StoreError, check_seq, visit_chunk};

/// A [`MessageStore`] in memory: nothing survives the process.
///
/// Messages are appended to one byte arena and indexed by number. Within the capacity
/// given to [`with_capacity`](Self::with_capacity), storing, advancing, reading back
/// and resetting allocate nothing; past it the arena and index grow like a `Vec`.
/// A reset keeps the capacity.
///
/// ```
/// use fix_session::{MemoryStore, MessageStore};
/// let mut store = MemoryStore::with_capacity(10_000, 4 << 20); // 10k messages, 4 MiB
/// store.store(1, b"8=FIX.4.4\x01...")?;
/// store.advance_target_seq(1)?;
/// assert_eq!((store.next_sender_seq(), store.next_target_seq()), (2, 2));
/// # Ok::<(), fix_session::StoreError>(())
/// ```
#[derive(Debug)]
pub struct MemoryStore {
    state: State,
    arena: Vec<u8>,
}

impl MemoryStore {
    /// An empty store, created now, that allocates as messages come.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// assert_eq!(MemoryStore::new().next_sender_seq(), 1);
    /// ```
    pub fn new() -> Self {
        MemoryStore::with_capacity(0, 0)
    }

    /// An empty store, created now, with room for `messages` messages of `bytes` bytes
    /// in all, allocated up front and written once, so that the operating system
    /// has backed it with memory: storing within the capacity takes neither an
    /// allocation nor a page fault (each fault of fresh memory costs a microsecond
    /// or two, on the path of the message being sent).
    ///
    /// ```
    /// let store = fix_session::MemoryStore::with_capacity(1000, 256_000);
    /// assert_eq!(store.capacity(), (1000, 256_000));
    /// ```
    // `vec![0; n]` would get its memory from calloc, which hands back pages the
    // system has not backed yet: exactly what this constructor exists to avoid.
    #[allow(clippy::slow_vector_initialization)]
    pub fn with_capacity(messages: usize, bytes: usize) -> Self {
        let mut state = State::new(SystemTime::now(), messages);
        let mut arena = Vec::with_capacity(bytes);
        // Written, not just reserved: a reservation is address space only, its
        // pages faulted in one by one as messages arrive.
        arena.resize(bytes, 0);
        arena.clear();
        let blank = Entry {
            seq: 0,
            offset: 0,
            len: 0,
        };
        state.index.resize(messages, blank);
        state.index.clear();
        MemoryStore { state, arena }
    }

    /// How many messages, and how many bytes of them, the store holds without
    /// allocating.
    ///
    /// ```
    /// use fix_session::{MemoryStore, MessageStore};
    /// let mut store = MemoryStore::with_capacity(2, 8);
    /// store.store(1, b"12345678")?;
    /// store.store(2, b"9")?; // past the bytes: the arena grows
    /// assert!(store.capacity().1 >= 9);
    /// # Ok::<(), fix_session::StoreError>(())
    /// ```
    pub fn capacity(&self) -> (usize, usize) {
        (self.state.index.capacity(), self.arena.capacity())
    }
}

/// The same as [`MemoryStore::new`].
///
/// ```
/// use fix_session::{MemoryStore, MessageStore};
/// assert_eq!(MemoryStore::default().next_target_seq(), 1);
/// ```
impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new()
    }
}

impl MessageStore for MemoryStore {
    fn next_sender_seq(&self) -> u64 {
        self.state.next_sender
    }

    fn next_target_seq(&self) -> u64 {
        self.state.next_target
    }

    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        if let Some(first_dropped) = self.state.set_sender(seq) {
            // The arena holds messages in index order, so the dropped ones are its end.
            self.arena.truncate(first_dropped.offset as usize);
        }
        Ok(())
    }

    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        check_seq(seq)?;
        self.state.next_target = seq;
        Ok(())
    }

    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        self.state.check_store(seq, message.len())?;
        let offset = self.arena.len() as u64;
        self.arena.extend_from_slice(message);
        self.state.stored(Entry {
            seq,
            offset,
            // `check_store` bounds the length by MAX_MESSAGE_LEN, well within u32.
            len: message.len() as u32,
        });
        Ok(())
    }

    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        self.state.check_advance(received)?;
        self.state.next_target = received + 1;
        Ok(())
    }

    fn read_stored(
        &mut self,
        from: u64,
        to: u64,
        limit: ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<Chunk, StoreError> {
        let arena = &self.arena;
        visit_chunk(self.state.range(from, to), limit, |entry| {
            let start = entry.offset as usize;
            // Every entry lies within the arena: it was appended there when stored,
            // and truncating the arena drops the entries beyond the cut first.
            let bytes = arena.get(start..start + entry.len as usize).unwrap_or(&[]);
            visit(entry.seq, bytes);
            Ok(())
        })
    }

    fn reset(&mut self, now: SystemTime) -> Result<(), StoreError> {
        self.state.reset(now);
        self.arena.clear();
        Ok(())
    }

    fn creation_time(&self) -> SystemTime {
        self.state.created
    }

    fn sync(&mut self) -> Result<(), StoreError> {
        Ok(())
    }
}
