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
