//! The store conformance suite: cases written against `&mut dyn
//! MessageStore` that every store passes (behind the `testing` feature).
//! fix-session runs them on its memory, file and shared-log stores,
//! fix-store-postgres on PostgreSQL; a third store adds a runner of its own:
//!
//! ```
//! macro_rules! on_memory {
//!     ($($case:ident),* $(,)?) => {
//!         $( fix_session::store::conformance::$case(&mut fix_session::MemoryStore::new()); )*
//!     };
//! }
//! fix_session::with_store_cases!(on_memory);
//! ```
//!
//! [`with_store_cases!`](crate::with_store_cases) hands every case's name to
//! a runner macro, which makes a store for each (and may reopen it after, to
//! check what it kept: [`snapshot`] says what to compare). The cases panic
//! (assert) on a store that does not conform.

pub mod helpers;

use std::time::{Duration, SystemTime};

use crate::{ChunkLimit, Direction, MAX_MESSAGE_LEN, MessageStore, StoreError};
use helpers::{message, read_all, read_all_off_thread};

/// What a store holds, to compare before and after a reopen: its next
/// sender and target numbers, its creation time and every stored message.
pub type Snapshot = (u64, u64, SystemTime, Vec<(u64, Vec<u8>)>);

/// The store's [`Snapshot`].
pub fn snapshot(store: &mut dyn MessageStore) -> Snapshot {
    let all = read_all(store, 1, u64::MAX, ChunkLimit::new(1000, usize::MAX));
    (
        store.next_sender_seq(),
        store.next_target_seq(),
        store.creation_time(),
        all,
    )
}

/// Calls `$runner!` with the name of every case of
/// [`store::conformance`](crate::store::conformance).
#[macro_export]
macro_rules! with_store_cases {
    ($runner:ident) => {
        $runner!(
            a_new_store_starts_at_one,
            storing_takes_the_next_sender_number,
            advancing_takes_the_next_target_number,
            setting_numbers_jumps_and_drops_what_is_above,
            numbers_of_zero_are_refused,
            resends_stream_in_chunks_bounded_in_count,
            resends_stream_in_chunks_bounded_in_bytes,
            a_message_longer_than_the_byte_limit_is_a_chunk_alone,
            ranges_with_nothing_stored_visit_nothing,
            reset_starts_afresh,
            the_largest_message_is_taken_and_one_byte_more_refused,
            the_last_sequence_number_has_no_successor,
            sync_succeeds,
            an_answer_is_kept_with_its_advance,
            an_abandoned_answer_leaves_the_numbers_as_its_messages,
            a_sync_begun_elsewhere_covers_what_was_taken_before_it,
            a_read_while_a_sync_runs_visits_each_message_once,
            a_read_off_the_thread_visits_each_message_once,
            refresh_keeps_what_was_stored,
        );
    };
}

/// Every stored message, read in the default chunks.
pub fn stored(store: &mut dyn MessageStore) -> Vec<(u64, Vec<u8>)> {
    read_all(store, 1, u64::MAX, ChunkLimit::default())
}

/// Case: a new store starts at one.
pub fn a_new_store_starts_at_one(store: &mut dyn MessageStore) {
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (1, 1));
    let age = SystemTime::now()
        .duration_since(store.creation_time())
        .unwrap();
    assert!(age < Duration::from_secs(60), "created {age:?} ago");
    assert_eq!(stored(store), []);
}

/// Case: storing takes the next sender number.
pub fn storing_takes_the_next_sender_number(store: &mut dyn MessageStore) {
    for seq in 1..=3 {
        store.store(seq, &message(seq, 0)).unwrap();
        assert_eq!(store.next_sender_seq(), seq + 1);
    }
    for wrong in [3, 5, 1, 0] {
        let err = store.store(wrong, b"wrong").unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::OutOfSequence { direction: Direction::Outgoing, expected: 4, got } if got == wrong
            ),
            "{err:?}"
        );
    }
    assert_eq!(store.next_sender_seq(), 4);
    let expected: Vec<_> = (1..=3).map(|s| (s, message(s, 0))).collect();
    assert_eq!(stored(store), expected);
    // Storing does not touch the target number.
    assert_eq!(store.next_target_seq(), 1);
}

/// Case: advancing takes the next target number.
pub fn advancing_takes_the_next_target_number(store: &mut dyn MessageStore) {
    store.advance_target_seq(1).unwrap();
    store.advance_target_seq(2).unwrap();
    assert_eq!(store.next_target_seq(), 3);
    for wrong in [2, 4, 0] {
        let err = store.advance_target_seq(wrong).unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::OutOfSequence { direction: Direction::Incoming, expected: 3, got } if got == wrong
            ),
            "{err:?}"
        );
    }
    assert_eq!((store.next_target_seq(), store.next_sender_seq()), (3, 1));
}

/// Case: setting numbers jumps and drops what is above.
pub fn setting_numbers_jumps_and_drops_what_is_above(store: &mut dyn MessageStore) {
    for seq in 1..=5 {
        store.store(seq, &message(seq, 0)).unwrap();
    }
    // A jump up leaves a gap, which a resend does not visit.
    store.set_next_sender_seq(10).unwrap();
    assert_eq!(store.next_sender_seq(), 10);
    store.store(10, &message(10, 0)).unwrap();
    let seqs: Vec<u64> = stored(store).iter().map(|(s, _)| *s).collect();
    assert_eq!(seqs, [1, 2, 3, 4, 5, 10]);
    // Down: messages 3 and above are dropped, and 3 is stored again.
    store.set_next_sender_seq(3).unwrap();
    assert_eq!(stored(store), [(1, message(1, 0)), (2, message(2, 0))]);
    store.store(3, &message(3, 1)).unwrap();
    assert_eq!(store.next_sender_seq(), 4);
    assert_eq!(stored(store)[2], (3, message(3, 1)));
    // Down to exactly a stored number's successor drops nothing.
    store.set_next_sender_seq(4).unwrap();
    assert_eq!(stored(store).len(), 3);

    store.set_next_target_seq(77).unwrap();
    assert_eq!(store.next_target_seq(), 77);
    store.advance_target_seq(77).unwrap();
    store.set_next_target_seq(5).unwrap();
    assert_eq!(store.next_target_seq(), 5);
    assert_eq!(store.next_sender_seq(), 4);
    // Setting one number leaves the other (also across a reopen of the file store).
    store.set_next_sender_seq(6).unwrap();
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (6, 5));
}

/// Case: numbers of zero are refused.
pub fn numbers_of_zero_are_refused(store: &mut dyn MessageStore) {
    store.store(1, b"one").unwrap();
    let err = store.set_next_sender_seq(0).unwrap_err();
    assert!(
        matches!(err, StoreError::InvalidSeqNum { seq: 0 }),
        "{err:?}"
    );
    let err = store.set_next_target_seq(0).unwrap_err();
    assert!(
        matches!(err, StoreError::InvalidSeqNum { seq: 0 }),
        "{err:?}"
    );
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (2, 1));
    assert_eq!(stored(store).len(), 1);
}

/// Stores messages 1 to 50 (tagged 3) and returns them.
pub fn store_fifty(store: &mut dyn MessageStore) -> Vec<(u64, Vec<u8>)> {
    (1..=50)
        .map(|seq| {
            let m = message(seq, 3);
            store.store(seq, &m).unwrap();
            (seq, m)
        })
        .collect()
}

/// Case: resends stream in chunks bounded in count.
pub fn resends_stream_in_chunks_bounded_in_count(store: &mut dyn MessageStore) {
    let all = store_fifty(store);
    // Every chunk of seven: `read_all` checks each keeps to the limit.
    assert_eq!(
        read_all(store, 1, u64::MAX, ChunkLimit::new(7, usize::MAX)),
        all
    );
    assert_eq!(
        read_all(store, 10, 20, ChunkLimit::new(4, usize::MAX)),
        all[9..20]
    );
    // One chunk by hand: where it stops and what it says.
    let mut seen = Vec::new();
    let chunk = store
        .read_stored(5, 40, ChunkLimit::new(3, usize::MAX), &mut |s, m| {
            seen.push((s, m.to_vec()))
        })
        .unwrap();
    assert_eq!(seen, all[4..7]);
    assert_eq!(chunk.messages, 3);
    assert_eq!(chunk.resume_at, Some(8));
    // The last chunk of a range ends it.
    let chunk = store
        .read_stored(49, 60, ChunkLimit::new(2, usize::MAX), &mut |_, _| {})
        .unwrap();
    assert_eq!((chunk.messages, chunk.resume_at), (2, None));
}

/// Case: resends stream in chunks bounded in bytes.
pub fn resends_stream_in_chunks_bounded_in_bytes(store: &mut dyn MessageStore) {
    let all = store_fifty(store);
    for max_bytes in [1, 100, 500, 1024, 4096] {
        assert_eq!(
            read_all(store, 1, u64::MAX, ChunkLimit::new(usize::MAX, max_bytes)),
            all,
            "{max_bytes}"
        );
    }
    // Messages 1 and 2 are 100 and 137 bytes long: a limit of 237 takes both, 236 one.
    assert_eq!((all[0].1.len(), all[1].1.len()), (100, 137));
    let chunk = store
        .read_stored(1, 50, ChunkLimit::new(100, 237), &mut |_, _| {})
        .unwrap();
    assert_eq!((chunk.messages, chunk.bytes), (2, 237));
    let chunk = store
        .read_stored(1, 50, ChunkLimit::new(100, 236), &mut |_, _| {})
        .unwrap();
    assert_eq!(
        (chunk.messages, chunk.bytes, chunk.resume_at),
        (1, 100, Some(2))
    );
}

/// Case: a message longer than the byte limit is a chunk alone.
pub fn a_message_longer_than_the_byte_limit_is_a_chunk_alone(store: &mut dyn MessageStore) {
    store.store(1, &[b'x'; 5000]).unwrap();
    store.store(2, b"short").unwrap();
    let mut seen = Vec::new();
    let chunk = store
        .read_stored(1, 2, ChunkLimit::new(10, 100), &mut |s, m| {
            seen.push((s, m.len()))
        })
        .unwrap();
    assert_eq!((seen, chunk.resume_at), (vec![(1, 5000)], Some(2)));
}

/// Case: ranges with nothing stored visit nothing.
pub fn ranges_with_nothing_stored_visit_nothing(store: &mut dyn MessageStore) {
    store_fifty(store);
    for (from, to) in [(20, 10), (51, u64::MAX), (0, 0), (u64::MAX, u64::MAX)] {
        let chunk = store
            .read_stored(from, to, ChunkLimit::default(), &mut |s, _| {
                panic!("visited {s}")
            })
            .unwrap();
        assert_eq!((chunk.messages, chunk.bytes, chunk.resume_at), (0, 0, None));
    }
    // From 0 reads from the first message.
    assert_eq!(read_all(store, 0, 3, ChunkLimit::default()).len(), 3);
}

/// Case: reset starts afresh.
pub fn reset_starts_afresh(store: &mut dyn MessageStore) {
    store_fifty(store);
    store.advance_target_seq(1).unwrap();
    store.set_next_target_seq(9).unwrap();
    let now = SystemTime::UNIX_EPOCH + Duration::new(1_893_456_000, 123_456_789);
    store.reset(now).unwrap();
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (1, 1));
    assert_eq!(store.creation_time(), now);
    assert_eq!(stored(store), []);
    // Numbers are handed out from 1 again, and old messages do not come back.
    store.store(1, b"after the reset").unwrap();
    store.advance_target_seq(1).unwrap();
    assert_eq!(stored(store), [(1, b"after the reset".to_vec())]);
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (2, 2));
}

/// Case: the largest message is taken and one byte more refused.
pub fn the_largest_message_is_taken_and_one_byte_more_refused(store: &mut dyn MessageStore) {
    // Zeros: `vec![0; n]` is one zeroed allocation, fast in a debug build too.
    let mut big = vec![0u8; MAX_MESSAGE_LEN + 1];
    let err = store.store(1, &big).unwrap_err();
    assert!(
        matches!(err, StoreError::MessageTooLarge { len, max } if len == MAX_MESSAGE_LEN + 1 && max == MAX_MESSAGE_LEN),
        "{err:?}"
    );
    assert_eq!(store.next_sender_seq(), 1);
    big.pop();
    big[0] = b'a';
    store.store(1, &big).unwrap();
    let mut seen = 0;
    store
        .read_stored(1, 1, ChunkLimit::default(), &mut |_, m| {
            assert!(m == big.as_slice());
            seen += 1;
        })
        .unwrap();
    assert_eq!(seen, 1);
}

/// Case: the last sequence number has no successor.
pub fn the_last_sequence_number_has_no_successor(store: &mut dyn MessageStore) {
    store.set_next_sender_seq(u64::MAX - 1).unwrap();
    store.store(u64::MAX - 1, b"the last one").unwrap();
    assert_eq!(store.next_sender_seq(), u64::MAX);
    let err = store.store(u64::MAX, b"one too many").unwrap_err();
    assert!(matches!(err, StoreError::SeqNumExhausted), "{err:?}");
    store.set_next_target_seq(u64::MAX).unwrap();
    let err = store.advance_target_seq(u64::MAX).unwrap_err();
    assert!(matches!(err, StoreError::SeqNumExhausted), "{err:?}");
    assert_eq!(store.next_target_seq(), u64::MAX);
    assert_eq!(stored(store), [(u64::MAX - 1, b"the last one".to_vec())]);
}

/// Case: sync succeeds.
pub fn sync_succeeds(store: &mut dyn MessageStore) {
    store.store(1, b"x").unwrap();
    store.sync().unwrap();
    store.sync().unwrap();
}

/// Case: answers stored between `begin_answer` and the advance are kept
/// with it, and a sync makes both durable.
pub fn an_answer_is_kept_with_its_advance(store: &mut dyn MessageStore) {
    store.begin_answer(1);
    store.store(1, &message(1, 5)).unwrap();
    store.store(2, &message(2, 5)).unwrap();
    store.advance_target_seq(1).unwrap();
    store.sync().unwrap();
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (3, 2));
    assert_eq!(stored(store), [(1, message(1, 5)), (2, message(2, 5))]);
}

/// Case: an answer given up (`abandon_answer`) is either dropped with its
/// numbers (a store that keeps answers with their advance) or kept as
/// stored (the default, at least once); never a number without its message
/// or a message past the number. What was stored before it stays.
pub fn an_abandoned_answer_leaves_the_numbers_as_its_messages(store: &mut dyn MessageStore) {
    store.store(1, &message(1, 6)).unwrap();
    store.advance_target_seq(1).unwrap();
    store.begin_answer(2);
    store.store(2, &message(2, 6)).unwrap();
    store.abandon_answer();
    let (sender, target) = (store.next_sender_seq(), store.next_target_seq());
    assert_eq!(target, 2, "the advance before the answer stays");
    let expected: Vec<_> = (1..sender).map(|s| (s, message(s, 6))).collect();
    assert!(sender == 2 || sender == 3, "next sender number {sender}");
    assert_eq!(stored(store), expected);
    // The store goes on from there, and a sync keeps it.
    store.store(sender, &message(sender, 7)).unwrap();
    store.sync().unwrap();
    assert_eq!(store.next_sender_seq(), sender + 1);
    assert_eq!(stored(store).last(), Some(&(sender, message(sender, 7))));
}

/// Case: a sync begun with `begin_sync` and run on another thread covers
/// what was taken before it; what is taken while it runs waits for the
/// next sync, which a plain `sync` makes; nothing is lost or doubled.
pub fn a_sync_begun_elsewhere_covers_what_was_taken_before_it(store: &mut dyn MessageStore) {
    store.store(1, &message(1, 8)).unwrap();
    store.advance_target_seq(1).unwrap();
    let job = store.begin_sync().unwrap();
    assert_eq!(job.is_some(), store.sync_in_flight());
    // Taken while the job runs: the next sync's.
    store.store(2, &message(2, 8)).unwrap();
    if let Some(job) = job {
        assert!(store.begin_sync().unwrap().is_none(), "one job at a time");
        let done = std::thread::spawn(move || job.run()).join().unwrap();
        store.end_sync(done).unwrap();
        assert!(!store.sync_in_flight());
    }
    store.sync().unwrap();
    assert!(!store.pending_sync());
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (3, 2));
    assert_eq!(stored(store), [(1, message(1, 8)), (2, message(2, 8))]);
}

/// Case: a resend's read while a sync is in flight visits every message
/// once, in order: those durable before, those the sync carries (which a
/// remote store may have committed by the time it reads) and those taken
/// after it.
pub fn a_read_while_a_sync_runs_visits_each_message_once(store: &mut dyn MessageStore) {
    for seq in 1..=2 {
        store.store(seq, &message(seq, 10)).unwrap();
    }
    store.sync().unwrap();
    for seq in 3..=4 {
        store.store(seq, &message(seq, 10)).unwrap();
    }
    let job = store.begin_sync().unwrap();
    store.store(5, &message(5, 10)).unwrap();
    let all: Vec<_> = (1..=5).map(|s| (s, message(s, 10))).collect();
    assert_eq!(stored(store), all, "read with the sync in flight");
    if let Some(job) = job {
        let done = std::thread::spawn(move || job.run()).join().unwrap();
        store.end_sync(done).unwrap();
    }
    assert_eq!(stored(store), all, "read after it ended");
    store.sync().unwrap();
    assert_eq!(stored(store), all, "read once all is durable");
}

/// Case: a resend's read begun to run off the session's thread
/// ([`MessageStore::begin_read`]) visits what a read at once does, each
/// message once and in order, in small chunks, whatever the store does
/// while the job runs: a sync in flight that ends, messages taken after
/// the read began.
pub fn a_read_off_the_thread_visits_each_message_once(store: &mut dyn MessageStore) {
    let limit = ChunkLimit::new(2, 64 * 1024);
    for seq in 1..=3 {
        store.store(seq, &message(seq, 11)).unwrap();
    }
    store.sync().unwrap();
    for seq in 4..=6 {
        store.store(seq, &message(seq, 11)).unwrap();
    }
    let job = store.begin_sync().unwrap();
    store.store(7, &message(7, 11)).unwrap();
    let upto = |n: u64| -> Vec<_> { (1..=n).map(|s| (s, message(s, 11))).collect() };
    let read = read_all_off_thread(store, 1, u64::MAX, limit, &mut |_| {});
    assert_eq!(read, upto(7), "with the sync in flight");
    // The sync ends, and more is stored and synced, while a read runs.
    let mut job = job;
    let read = read_all_off_thread(store, 1, u64::MAX, limit, &mut |store| {
        if let Some(job) = job.take() {
            let done = std::thread::spawn(move || job.run()).join().unwrap();
            store.end_sync(done).unwrap();
        }
        store.store(8, &message(8, 11)).unwrap();
        store.sync().unwrap();
    });
    assert!(
        read == upto(8) || read == upto(7),
        "{:?}",
        read.iter().map(|(s, _)| s).collect::<Vec<_>>()
    );
    assert_eq!(
        read_all_off_thread(store, 1, u64::MAX, limit, &mut |_| {}),
        upto(8)
    );
    assert_eq!(
        read_all_off_thread(store, 5, 6, limit, &mut |_| {}),
        upto(6)[4..]
    );
}

/// Case: `refresh` (QuickFIX's RefreshOnLogon) of a store this process
/// holds changes nothing it holds.
pub fn refresh_keeps_what_was_stored(store: &mut dyn MessageStore) {
    for seq in 1..=3 {
        store.store(seq, &message(seq, 9)).unwrap();
    }
    store.advance_target_seq(1).unwrap();
    store.sync().unwrap();
    let before = snapshot(store);
    store.refresh().unwrap();
    assert!(snapshot(store) == before, "refresh changed the store");
    store.store(4, &message(4, 9)).unwrap();
    store.sync().unwrap();
    assert_eq!(store.next_sender_seq(), 5);
}
