//! The memory store's steady state allocates nothing: storing, advancing, resending
//! and resetting within the capacity it was built with, counted with a counting
//! allocator.

use fix_session::{ChunkLimit, MemoryStore, MessageStore};
use fix_test_support::alloc::{Counting, allocations_during};

#[global_allocator]
static GLOBAL: Counting = Counting;

const MESSAGES: usize = 2000;
const LEN: usize = 180;

#[test]
fn storing_within_capacity_allocates_nothing() {
    let mut store = MemoryStore::with_capacity(MESSAGES, MESSAGES * LEN);
    let mut msg = [b'x'; LEN];
    let mut bytes_seen = 0;
    let n = allocations_during(|| {
        for round in 0..3 {
            for seq in 1..=MESSAGES as u64 {
                msg[..8].copy_from_slice(&seq.to_le_bytes());
                store.store(seq, &msg).unwrap();
                store.advance_target_seq(seq).unwrap();
            }
            let mut from = 1;
            loop {
                let chunk = store
                    .read_stored(from, u64::MAX, ChunkLimit::new(50, 4096), &mut |_, m| {
                        bytes_seen += m.len()
                    })
                    .unwrap();
                match chunk.resume_at {
                    Some(next) => from = next,
                    None => break,
                }
            }
            // Numbers set and messages dropped, then a reset: the capacity stays.
            store.set_next_sender_seq(MESSAGES as u64 / 2).unwrap();
            store.set_next_target_seq(7).unwrap();
            store.reset(std::time::SystemTime::UNIX_EPOCH).unwrap();
            assert_eq!(store.next_sender_seq(), 1, "round {round}");
        }
    });
    assert_eq!(n, 0, "allocations while storing within capacity");
    assert_eq!(bytes_seen, 3 * MESSAGES * LEN);
    assert_eq!(store.capacity(), (MESSAGES, MESSAGES * LEN));
}

#[test]
fn storing_past_capacity_allocates_and_the_counter_sees_it() {
    let mut store = MemoryStore::with_capacity(4, 4 * LEN);
    let msg = [b'x'; LEN];
    let within = allocations_during(|| {
        for seq in 1..=4 {
            store.store(seq, &msg).unwrap();
        }
    });
    assert_eq!(within, 0);
    // The fifth message needs a larger index and arena.
    let past = allocations_during(|| store.store(5, &msg).unwrap());
    assert_eq!(past, 2);
}
