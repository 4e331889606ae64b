//! Test messages and a chunked reader, for the conformance cases and the
//! stores' own tests.

/// A message for number `seq`, of a length that varies with it, tagged with
/// `tag` so that two writers of the same number write different bytes.
pub fn message(seq: u64, tag: u64) -> Vec<u8> {
    let mut m = format!("8=FIX.4.4\x0135=D\x0134={seq}\x0158=run {tag}\x01").into_bytes();
    let pad = (seq * 37 + tag * 11) % 300;
    m.extend((0..pad).map(|i| b'a' + (i % 26) as u8));
    m.push(1);
    m
}

/// Every stored message of `store` numbered `from..=to`, read in chunks of
/// `limit`; checks each chunk keeps to the limit.
///
/// ```
/// use fix_session::{ChunkLimit, MemoryStore, MessageStore};
/// use fix_session::store::conformance::helpers::{message, read_all};
/// let mut store = MemoryStore::new();
/// store.store(1, &message(1, 0))?;
/// assert_eq!(read_all(&mut store, 1, 9, ChunkLimit::default()), [(1, message(1, 0))]);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub fn read_all(
    store: &mut dyn crate::MessageStore,
    from: u64,
    to: u64,
    limit: crate::ChunkLimit,
) -> Vec<(u64, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = from;
    loop {
        let before = out.len();
        let chunk = store
            .read_stored(at, to, limit, &mut |seq, m| out.push((seq, m.to_vec())))
            .unwrap();
        let seen = &out[before..];
        assert_eq!(chunk.messages, seen.len());
        assert_eq!(
            chunk.bytes,
            seen.iter().map(|(_, m)| m.len()).sum::<usize>()
        );
        assert!(chunk.messages <= limit.max_messages());
        assert!(
            chunk.messages <= 1 || chunk.bytes <= limit.max_bytes(),
            "{chunk:?}"
        );
        match chunk.resume_at {
            Some(next) => {
                assert!(chunk.messages > 0, "a chunk must make progress");
                assert!(seen.last().is_none_or(|(s, _)| *s < next));
                at = next;
            }
            None => return out,
        }
    }
}

/// As [`read_all`], each chunk read as a session's driver reads it from a
/// store that reads off its thread: [`begin_read`](crate::MessageStore::begin_read),
/// the job run on another thread, [`end_read`](crate::MessageStore::end_read)
/// (or at once with `read_stored` when the store begins no job). `between`
/// runs once, between the first read's begin and its end, as the session's
/// other work does while a read is in flight.
///
/// ```
/// use fix_session::{ChunkLimit, MemoryStore, MessageStore};
/// use fix_session::store::conformance::helpers::{message, read_all_off_thread};
/// let mut store = MemoryStore::new();
/// store.store(1, &message(1, 0))?;
/// let read = read_all_off_thread(&mut store, 1, 9, ChunkLimit::default(), &mut |s| {
///     s.store(2, &message(2, 0)).unwrap();
/// });
/// assert_eq!(read, [(1, message(1, 0)), (2, message(2, 0))]);
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub fn read_all_off_thread(
    store: &mut dyn crate::MessageStore,
    from: u64,
    to: u64,
    limit: crate::ChunkLimit,
    between: &mut dyn FnMut(&mut dyn crate::MessageStore),
) -> Vec<(u64, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = from;
    let mut between = Some(between);
    for _ in 0..10_000 {
        let before = out.len();
        let mut visit = |seq, m: &[u8]| out.push((seq, m.to_vec()));
        let job = store.begin_read(at, to, limit).unwrap();
        if let Some(between) = between.take() {
            between(store);
        }
        let chunk = match job {
            Some(job) => {
                let done = std::thread::spawn(move || job.run()).join().unwrap();
                store.end_read(done, limit, &mut visit).unwrap()
            }
            None => store.read_stored(at, to, limit, &mut visit).unwrap(),
        };
        let seen = &out[before..];
        assert_eq!(chunk.messages, seen.len());
        assert!(chunk.messages <= limit.max_messages());
        match chunk.resume_at {
            Some(next) => {
                assert!(seen.last().is_none_or(|(s, _)| *s < next));
                assert!(next >= at, "a read goes back to {next} from {at}");
                at = next;
            }
            None => return out,
        }
    }
    panic!("10,000 reads of {from}..={to} did not end");
}
