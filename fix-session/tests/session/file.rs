//! The file store's own promises: the on-disk format as ARCHITECTURE.md documents
//! it (logs written by hand here, with their own CRCs), recovery to the exact state
//! on reopen, torn tails dropped, damage in the middle refused with file and offset,
//! the lock, and reset compaction.

use crate::common;

use std::fs::{self, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use crate::common::{message, read_all};
use fix_session::{
    ChunkLimit, FileOptions, FileStore, MemoryStore, MessageStore, StoreError, SyncPolicy, TornTail,
};
use fix_test_support::temp_dir::TestDir;

const ID: &str = "FIX.4.4-SENDER-TARGET";

// The format, written out by hand from ARCHITECTURE.md: `len kind payload crc`,
// len = 1 + payload length, CRC32 over len, kind and payload, little-endian.
fn rec(kind: u8, payload: &[u8]) -> Vec<u8> {
    let mut r = ((1 + payload.len()) as u32).to_le_bytes().to_vec();
    r.push(kind);
    r.extend_from_slice(payload);
    let crc = crc32fast::hash(&r);
    r.extend_from_slice(&crc.to_le_bytes());
    r
}
fn msg_rec(seq: u64, bytes: &[u8]) -> Vec<u8> {
    rec(1, &[&seq.to_le_bytes()[..], bytes].concat())
}
fn target_rec(next: u64) -> Vec<u8> {
    rec(2, &next.to_le_bytes())
}
fn seq_set_rec(sender: u64, target: u64) -> Vec<u8> {
    rec(3, &[sender.to_le_bytes(), target.to_le_bytes()].concat())
}
fn reset_rec(created_nanos: i128) -> Vec<u8> {
    rec(4, &created_nanos.to_le_bytes())
}
fn log_of(records: &[Vec<u8>]) -> Vec<u8> {
    let mut log = b"FIXSLOG1".to_vec();
    records.iter().for_each(|r| log.extend_from_slice(r));
    log
}

/// 2030-01-01T00:00:00.123456789Z.
const T_NANOS: i128 = 1_893_456_000_123_456_789;
fn t() -> SystemTime {
    SystemTime::UNIX_EPOCH + Duration::new(1_893_456_000, 123_456_789)
}

fn log_path(dir: &Path) -> PathBuf {
    dir.join(format!("{ID}.log"))
}

fn stored(store: &mut dyn MessageStore) -> Vec<(u64, Vec<u8>)> {
    read_all(store, 1, u64::MAX, ChunkLimit::default())
}

/// A store of messages 1..=n (`message(seq, 0)`), closed; the offsets their
/// records start at.
fn store_of(dir: &Path, n: u64) -> Vec<u64> {
    let mut store = FileStore::open(dir, ID).unwrap();
    store.reset(t()).unwrap();
    let mut at = 8 + 25; // the magic, the reset record
    let mut offsets = Vec::new();
    for seq in 1..=n {
        let m = message(seq, 0);
        store.store(seq, &m).unwrap();
        offsets.push(at);
        at += 17 + m.len() as u64;
    }
    drop(store);
    records(&log_path(dir), at);
    offsets
}

/// Changes one bit of the byte at `offset`, in place (as a disk would).
fn flip(path: &Path, offset: u64) {
    let mut file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .unwrap();
    let mut byte = [0u8];
    file.seek(SeekFrom::Start(offset)).unwrap();
    file.read_exact(&mut byte).unwrap();
    byte[0] ^= 0x20;
    file.seek(SeekFrom::Start(offset)).unwrap();
    file.write_all(&byte).unwrap();
}

/// The log's records: the first `len` bytes of the file, after checking that the
/// rest is zeros (space allocated ahead).
fn records(path: &Path, len: u64) -> Vec<u8> {
    let mut bytes = fs::read(path).unwrap();
    assert!(bytes.len() as u64 >= len, "{} < {len}", bytes.len());
    assert!(
        bytes[len as usize..].iter().all(|&b| b == 0),
        "only zeros follow the records"
    );
    bytes.truncate(len as usize);
    bytes
}

#[test]
fn the_store_writes_the_documented_format_byte_for_byte() {
    let dir = TestDir::new("format");
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    store.reset(t()).unwrap();
    store.store(1, b"a").unwrap();
    store.store(2, b"bb").unwrap();
    store.advance_target_seq(1).unwrap();
    store.set_next_sender_seq(5).unwrap();
    store.set_next_target_seq(7).unwrap();
    store.store(5, b"c").unwrap();
    drop(store);
    let expected = log_of(&[
        reset_rec(T_NANOS),
        msg_rec(1, b"a"),
        msg_rec(2, b"bb"),
        target_rec(2),
        seq_set_rec(5, 2),
        seq_set_rec(5, 7),
        msg_rec(5, b"c"),
    ]);
    assert_eq!(
        records(&log_path(dir.path()), expected.len() as u64),
        expected
    );
}

#[test]
fn a_hand_written_log_opens_to_the_state_it_records() {
    let dir = TestDir::new("handwritten");
    let log = log_of(&[
        reset_rec(T_NANOS),
        msg_rec(1, b"one"),
        msg_rec(2, b"two"),
        msg_rec(3, b"three"),
        target_rec(2),
        target_rec(3),
        // Sender back to 2: message 2 and 3 dropped; then 2 stored again.
        seq_set_rec(2, 3),
        msg_rec(2, b"two again"),
        seq_set_rec(9, 40),
        msg_rec(9, b"nine"),
    ]);
    fs::write(log_path(dir.path()), &log).unwrap();
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.torn_tail(), None);
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (10, 40));
    assert_eq!(store.creation_time(), t());
    assert_eq!(
        stored(&mut store),
        [
            (1, b"one".to_vec()),
            (2, b"two again".to_vec()),
            (9, b"nine".to_vec())
        ]
    );
    // Opening a sound log leaves its records as they were.
    drop(store);
    assert_eq!(records(&log_path(dir.path()), log.len() as u64), log);
}

/// Applies a random operation to both stores, the same way.
fn random_op(rng: &mut fastrand::Rng, stores: [&mut dyn MessageStore; 2], round: u64) {
    let [a, b] = stores;
    match rng.u8(0..100) {
        0..60 => {
            let seq = a.next_sender_seq();
            let m = message(seq, round);
            a.store(seq, &m).unwrap();
            b.store(seq, &m).unwrap();
        }
        60..85 => {
            let seq = a.next_target_seq();
            a.advance_target_seq(seq).unwrap();
            b.advance_target_seq(seq).unwrap();
        }
        85..92 => {
            let seq = rng.u64(1..a.next_sender_seq() + 5);
            a.set_next_sender_seq(seq).unwrap();
            b.set_next_sender_seq(seq).unwrap();
        }
        92..98 => {
            let seq = rng.u64(1..100);
            a.set_next_target_seq(seq).unwrap();
            b.set_next_target_seq(seq).unwrap();
        }
        _ => {
            let now = SystemTime::UNIX_EPOCH + Duration::from_nanos(rng.u64(..));
            a.reset(now).unwrap();
            b.reset(now).unwrap();
        }
    }
}

fn same(file: &mut FileStore, model: &mut MemoryStore) {
    assert_eq!(file.next_sender_seq(), model.next_sender_seq());
    assert_eq!(file.next_target_seq(), model.next_target_seq());
    assert_eq!(file.creation_time(), model.creation_time());
    assert!(stored(file) == stored(model), "stored messages differ");
}

#[test]
fn reopening_recovers_the_state_exactly_under_every_sync_policy() {
    let seed = fastrand::u64(..);
    println!("seed {seed}");
    let mut rng = fastrand::Rng::with_seed(seed);
    for policy in [
        SyncPolicy::EveryRecord,
        SyncPolicy::Interval(Duration::from_millis(1)),
        SyncPolicy::Interval(Duration::from_secs(3600)),
        SyncPolicy::Os,
    ] {
        let dir = TestDir::new("reopen");
        let options = FileOptions::new().sync(policy);
        let mut file = FileStore::open_with(dir.path(), ID, options).unwrap();
        let mut model = MemoryStore::new();
        // Both start from the same creation time.
        file.reset(t()).unwrap();
        model.reset(t()).unwrap();
        for round in 0..20 {
            for _ in 0..rng.usize(0..40) {
                random_op(&mut rng, [&mut file, &mut model], round);
            }
            if round % 3 == 0 {
                file.sync().unwrap();
            }
            drop(file);
            file = FileStore::open_with(dir.path(), ID, options).unwrap();
            assert_eq!(file.torn_tail(), None);
            same(&mut file, &mut model);
        }
    }
}

#[test]
fn a_torn_last_record_is_dropped_and_the_log_cut_to_the_last_good_one() {
    let last_len = 17 + message(10, 0).len() as u64;
    for cut in [1, 2, 3, 4, 5, 13, 16, last_len - 1] {
        // The file cut inside the last record (a write interrupted at a block
        // boundary), and the last record's end left zeros in the space allocated
        // ahead (a copy into the mapped log interrupted).
        for zeroed in [false, true] {
            let dir = TestDir::new("torn");
            let offsets = store_of(dir.path(), 10);
            let path = log_path(dir.path());
            let full = offsets[9] + last_len;
            let mut file = OpenOptions::new().write(true).open(&path).unwrap();
            if zeroed {
                file.seek(SeekFrom::Start(full - cut)).unwrap();
                file.write_all(&vec![0; cut as usize]).unwrap();
            } else {
                file.set_len(full - cut).unwrap();
            }
            drop(file);
            let mut store = FileStore::open(dir.path(), ID).unwrap();
            let torn = store.torn_tail().expect("a torn tail");
            assert_eq!(torn.offset, offsets[9], "cut {cut}, zeroed {zeroed}");
            // Of zeros, only those that end the log are told from the record's.
            if zeroed {
                assert!(torn.len > 0 && torn.len <= last_len - cut, "{torn:?}");
            } else {
                let expected = TornTail {
                    offset: offsets[9],
                    len: last_len - cut,
                };
                assert_eq!(torn, expected, "cut {cut}");
            }
            records(&path, offsets[9]);
            assert_eq!(store.next_sender_seq(), 10);
            let expected: Vec<_> = (1..=9).map(|s| (s, message(s, 0))).collect();
            assert_eq!(stored(&mut store), expected);
            // Number 10 was never confirmed: it is handed out again, and stays.
            store.store(10, b"ten, for real").unwrap();
            drop(store);
            let mut store = FileStore::open(dir.path(), ID).unwrap();
            assert_eq!(store.torn_tail(), None);
            assert_eq!(stored(&mut store)[9], (10, b"ten, for real".to_vec()));
        }
    }
}

#[test]
fn a_last_record_with_a_bad_checksum_or_zeros_after_it_is_a_torn_tail() {
    let end = |offsets: &[u64]| offsets[4] + 17 + message(5, 0).len() as u64;
    // The CRC of the last record wrong (a write whose last block never reached the
    // disk).
    let dir = TestDir::new("torn-crc");
    let offsets = store_of(dir.path(), 5);
    let path = log_path(dir.path());
    flip(&path, end(&offsets) - 1);
    let store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.next_sender_seq(), 5);
    assert_eq!(store.torn_tail().map(|t| t.offset), Some(offsets[4]));
    drop(store);

    // Zeros past the last record (a file extended, its blocks never written), and a
    // record whose tail is zeros; in a file cut to its records, so none of the
    // zeros are the store's own.
    for zeros_back in [0, 20] {
        let dir = TestDir::new("torn-zeros");
        let offsets = store_of(dir.path(), 5);
        let len = end(&offsets);
        let mut bytes = fs::read(log_path(dir.path())).unwrap();
        bytes.truncate((len - zeros_back) as usize);
        bytes.resize(len as usize + 4096, 0);
        fs::write(log_path(dir.path()), &bytes).unwrap();
        let store = FileStore::open(dir.path(), ID).unwrap();
        let (expected_next, records_end) = match zeros_back {
            0 => (6, len),
            _ => (5, offsets[4]),
        };
        assert_eq!(store.next_sender_seq(), expected_next, "{zeros_back}");
        assert_eq!(store.torn_tail().is_some(), zeros_back > 0);
        drop(store);
        records(&log_path(dir.path()), records_end);
    }
}

#[test]
fn a_damaged_record_in_the_middle_is_an_error_naming_the_file_and_offset() {
    let dir = TestDir::new("corrupt");
    let offsets = store_of(dir.path(), 10);
    let path = log_path(dir.path());
    let pristine = fs::read(&path).unwrap();
    // A byte of message 5's body; of its length field (32 more, 2 MiB more, past
    // 64 MiB); of its kind; of its sequence number; and of the second to last record,
    // with only one record after it.
    for (record, at, reason) in [
        (4, 30, "checksum mismatch, with valid records after it"),
        (4, 0, "checksum mismatch, with valid records after it"),
        (
            4,
            2,
            "record length runs past the end of the file, with valid records after it",
        ),
        (
            4,
            3,
            "record length or kind out of range, with valid records after it",
        ),
        (
            4,
            4,
            "record length or kind out of range, with valid records after it",
        ),
        (4, 6, "checksum mismatch, with valid records after it"),
        (8, 20, "checksum mismatch, with valid records after it"),
    ] {
        fs::write(&path, &pristine).unwrap();
        let offset = offsets[record];
        flip(&path, offset + at);
        let damaged = fs::read(&path).unwrap();
        let err = FileStore::open(dir.path(), ID).unwrap_err();
        match &err {
            StoreError::Corrupt {
                path: p,
                offset: o,
                reason: r,
            } => {
                assert_eq!(
                    (p, *o, *r),
                    (&path, offset, reason),
                    "byte {at} of record {record}"
                );
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            err.to_string(),
            format!(
                "corrupt store log {}: record at byte offset {offset}: {reason}",
                path.display()
            )
        );
        // The refused log is left as it was, for a person to look at.
        assert_eq!(fs::read(&path).unwrap(), damaged);
    }
}

#[test]
fn a_log_without_its_header_or_reset_is_refused() {
    let dir = TestDir::new("no-header");
    let path = log_path(dir.path());
    let cases: [(Vec<u8>, u64, &str); 5] = [
        (
            vec![],
            0,
            "not a fix-session store log (no FIXSLOG1 header)",
        ),
        (
            b"FIXSLOG2".to_vec(),
            0,
            "not a fix-session store log (no FIXSLOG1 header)",
        ),
        (log_of(&[]), 8, "the log has no reset record"),
        (
            log_of(&[msg_rec(1, b"x")]),
            8,
            "the log does not start with a reset record",
        ),
        (
            log_of(&[reset_rec(T_NANOS)[..20].to_vec()]),
            8,
            "the log's first record, its reset, is damaged",
        ),
    ];
    for (bytes, offset, reason) in cases {
        fs::write(&path, &bytes).unwrap();
        let err = FileStore::open(dir.path(), ID).unwrap_err();
        assert!(
            matches!(err, StoreError::Corrupt { offset: o, reason: r, .. } if o == offset && r == reason),
            "{err:?}"
        );
    }
}

#[test]
fn intact_records_that_break_the_rules_are_refused() {
    let dir = TestDir::new("rules");
    let path = log_path(dir.path());
    let reset = reset_rec(T_NANOS);
    let one = msg_rec(1, b"x");
    let second = (8 + reset.len() + one.len()) as u64;
    let cases = [
        (msg_rec(3, b"y"), "message record out of sequence"),
        (target_rec(3), "target advance record out of sequence"),
        (
            seq_set_rec(0, 1),
            "sequence set record with a sequence number of 0",
        ),
        (
            reset_rec(T_NANOS),
            "reset record after the start of the log",
        ),
    ];
    for (bad, reason) in cases {
        fs::write(
            &path,
            log_of(&[reset.clone(), one.clone(), bad, msg_rec(2, b"z")]),
        )
        .unwrap();
        let err = FileStore::open(dir.path(), ID).unwrap_err();
        assert!(
            matches!(err, StoreError::Corrupt { offset, reason: r, .. } if offset == second && r == reason),
            "{err:?}"
        );
    }
    // A creation time no clock has.
    fs::write(&path, log_of(&[rec(4, &i128::MAX.to_le_bytes())])).unwrap();
    let err = FileStore::open(dir.path(), ID).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Corrupt {
                offset: 8,
                reason: "creation time out of range",
                ..
            }
        ),
        "{err:?}"
    );
    // An unknown kind (with a right CRC) followed by a good record.
    fs::write(
        &path,
        log_of(&[reset.clone(), rec(9, &[0; 8]), one.clone()]),
    )
    .unwrap();
    let err = FileStore::open(dir.path(), ID).unwrap_err();
    assert!(
        matches!(
            err,
            StoreError::Corrupt {
                offset: 33,
                reason: "record length or kind out of range, with valid records after it",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_message_damaged_on_disk_after_opening_is_not_resent() {
    let dir = TestDir::new("resend-damage");
    let offsets = store_of(dir.path(), 5);
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    flip(&log_path(dir.path()), offsets[2] + 25);
    let mut seen = Vec::new();
    let err = store
        .read_stored(1, 5, ChunkLimit::default(), &mut |s, _| seen.push(s))
        .unwrap_err();
    assert_eq!(seen, [1, 2]);
    assert!(
        matches!(err, StoreError::Corrupt { offset, reason: "stored message changed on disk since it was written", .. } if offset == offsets[2]),
        "{err:?}"
    );
    // Messages before and after it are still read.
    assert_eq!(read_all(&mut store, 4, 5, ChunkLimit::default()).len(), 2);
}

#[test]
fn a_second_store_of_the_same_session_is_locked_out() {
    let dir = TestDir::new("lock");
    let first = FileStore::open(dir.path(), ID).unwrap();
    let err = FileStore::open(dir.path(), ID).unwrap_err();
    let lock_file = dir.path().join(format!("{ID}.lock"));
    match &err {
        StoreError::Locked {
            dir: d,
            lock_file: l,
        } => {
            assert_eq!((d.as_path(), l), (dir.path(), &lock_file));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        err.to_string(),
        format!(
            "store directory {} is in use: {} is locked by another store (another process, or \
             another store of this one)",
            dir.path().display(),
            lock_file.display()
        )
    );
    // Another session in the same directory has a lock of its own.
    let other = FileStore::open(dir.path(), "FIX.4.4-SENDER-OTHER").unwrap();
    drop(other);
    drop(first);
    FileStore::open(dir.path(), ID).unwrap();
}

#[test]
fn reset_starts_a_new_log_in_place_of_the_old() {
    let dir = TestDir::new("compact");
    store_of(dir.path(), 200);
    let path = log_path(dir.path());
    assert!(fs::metadata(&path).unwrap().len() >= 64 * 1024);
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    store.advance_target_seq(1).unwrap();
    let later = t() + Duration::from_secs(86_400);
    store.reset(later).unwrap();
    let new_log = log_of(&[reset_rec(T_NANOS + 86_400_000_000_000)]);
    assert_eq!(records(&path, new_log.len() as u64), new_log);
    assert_eq!(fs::metadata(&path).unwrap().len(), 64 * 1024);
    store.store(1, b"new day").unwrap();
    drop(store);
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.creation_time(), later);
    assert_eq!(stored(&mut store), [(1, b"new day".to_vec())]);
    assert_eq!(store.next_target_seq(), 1);
    // No temporary file stays behind.
    let names: Vec<_> = fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn a_new_log_that_never_made_it_into_place_is_ignored() {
    let dir = TestDir::new("stale-tmp");
    store_of(dir.path(), 3);
    let tmp = dir.path().join(format!("{ID}.log.tmp"));
    // A crash during a reset: the new log half written.
    fs::write(&tmp, &log_of(&[reset_rec(0)])[..20]).unwrap();
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.next_sender_seq(), 4);
    assert_eq!(store.creation_time(), t());
    assert!(!tmp.exists());
    store.store(4, b"four").unwrap();
}

#[test]
fn a_new_store_is_created_with_its_directory() {
    let dir = TestDir::new("create");
    let nested = dir.path().join("a").join("b");
    let before = SystemTime::now();
    let store = FileStore::open(&nested, ID).unwrap();
    assert!(store.creation_time() >= before && store.creation_time() <= SystemTime::now());
    assert_eq!(store.log_path(), nested.join(format!("{ID}.log")));
    drop(store);
    let created = FileStore::open(&nested, ID).unwrap().creation_time();
    assert!(created >= before);
}

#[test]
fn session_ids_stay_inside_the_directory() {
    let dir = TestDir::new("ids");
    let inner = dir.path().join("inner");
    let store = FileStore::open(&inner, "../escape").unwrap();
    assert_eq!(store.log_path(), inner.join("_2E._2Fescape.log"));
    assert!(store.log_path().exists());
    let err = FileStore::open(&inner, "").unwrap_err();
    assert_eq!(
        err.to_string(),
        "session id \"\" names no store file: it is empty"
    );
    // Nothing was written beside the directory.
    let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1);
}

#[test]
fn a_directory_that_cannot_be_created_is_an_io_error_naming_it() {
    let dir = TestDir::new("io-error");
    let file = dir.path().join("a-file");
    fs::File::create(&file).unwrap().write_all(b"x").unwrap();
    let err = FileStore::open(file.join("store"), ID).unwrap_err();
    match &err {
        StoreError::Io { op, path, .. } => {
            assert_eq!(
                (*op, path),
                (fix_session::IoOperation::CreateDir, &file.join("store"))
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(
        err.to_string().starts_with(&format!(
            "cannot create directory {}: ",
            file.join("store").display()
        )),
        "{err}"
    );
}

#[test]
fn the_log_grows_in_allocated_steps_and_keeps_every_record_across_them() {
    let dir = TestDir::new("growth");
    let path = log_path(dir.path());
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    store.reset(t()).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().len(), 64 * 1024);
    // Small messages across the first steps, then one larger than a whole step
    // (1 MiB), then small ones again.
    let big = vec![b'x'; 3 << 20];
    let mut expected = Vec::new();
    let mut lens = Vec::new();
    for seq in 1..=3000u64 {
        let m = if seq == 1500 {
            big.clone()
        } else {
            message(seq, 7)
        };
        store.store(seq, &m).unwrap();
        expected.push((seq, m));
        lens.push(fs::metadata(&path).unwrap().len());
    }
    // Doubling from 64 KiB, then whole 1 MiB steps; only the big message needed more.
    let mut steps: Vec<u64> = lens.clone();
    steps.dedup();
    assert_eq!(&steps[..4], [64 << 10, 128 << 10, 256 << 10, 512 << 10]);
    assert!(steps.iter().all(|len| len % (64 << 10) == 0), "{steps:?}");
    let long_steps: Vec<usize> = (1..lens.len())
        .filter(|&i| lens[i] - lens[i - 1] > 1 << 20)
        .collect();
    assert_eq!(
        long_steps,
        [1499],
        "only the big message grows the log by more"
    );
    assert_eq!(stored(&mut store), expected);
    drop(store);
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.torn_tail(), None);
    assert_eq!(store.next_sender_seq(), 3001);
    assert_eq!(stored(&mut store), expected);
}

#[test]
fn preallocated_space_is_taken_on_open_and_after_each_reset() {
    let dir = TestDir::new("preallocate");
    let path = log_path(dir.path());
    let options = FileOptions::new().preallocate(3 << 20);
    let mut store = FileStore::open_with(dir.path(), ID, options).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().len(), 3 << 20);
    store.reset(t()).unwrap();
    assert_eq!(fs::metadata(&path).unwrap().len(), 3 << 20);
    for seq in 1..=100 {
        store.store(seq, &message(seq, 0)).unwrap();
    }
    // Within the space: no growth.
    assert_eq!(fs::metadata(&path).unwrap().len(), 3 << 20);
    drop(store);
    // Reopened without the option, the space stays and the records are all there.
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.torn_tail(), None);
    assert_eq!(stored(&mut store).len(), 100);
    assert_eq!(fs::metadata(&path).unwrap().len(), 3 << 20);
}

fn answering_rec(received: u64) -> Vec<u8> {
    rec(5, &received.to_le_bytes())
}

#[test]
fn answers_count_only_with_the_advance_of_the_message_they_answer() {
    let dir = TestDir::new("answers-handwritten");
    // Message 1 answered and advanced; message 2's answers cut off before
    // its advance (a crash between): they are dropped on open, the log cut
    // where they began.
    let kept = log_of(&[
        reset_rec(T_NANOS),
        answering_rec(1),
        msg_rec(1, b"answer to 1"),
        msg_rec(2, b"second answer to 1"),
        target_rec(2),
    ]);
    let mut log = kept.clone();
    log.extend(answering_rec(2));
    log.extend(msg_rec(3, b"answer to 2"));
    log.extend(msg_rec(4, b"second answer to 2"));
    fs::write(log_path(dir.path()), &log).unwrap();
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (3, 2));
    assert_eq!(
        store.torn_tail(),
        Some(TornTail {
            offset: kept.len() as u64,
            len: (log.len() - kept.len()) as u64
        })
    );
    assert_eq!(
        stored(&mut store),
        [
            (1, b"answer to 1".to_vec()),
            (2, b"second answer to 1".to_vec())
        ]
    );
    // The numbers are used again, and what follows opens as written.
    store.begin_answer(2);
    store.store(3, b"the answer to 2, made again").unwrap();
    store.advance_target_seq(2).unwrap();
    drop(store);
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.torn_tail(), None);
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (4, 3));
    assert_eq!(
        stored(&mut store)[2],
        (3, b"the answer to 2, made again".to_vec())
    );
}

#[test]
fn a_crash_between_answers_and_their_advance_keeps_neither() {
    for policy in [SyncPolicy::EveryRecord, SyncPolicy::Os] {
        let dir = TestDir::new("answers-crash");
        let options = FileOptions::new().sync(policy);
        let mut store = FileStore::open_with(dir.path(), ID, options).unwrap();
        store.store(1, b"logon").unwrap();
        store.advance_target_seq(1).unwrap();
        store.begin_answer(2);
        store.store(2, b"fill").unwrap();
        store.store(3, b"fill again").unwrap();
        // The process dies here: nothing more is written, nothing closed.
        std::mem::forget(store);
        let dir_path = dir.path().to_path_buf();
        // The lock goes with the process; here it goes with its file.
        fs::remove_file(dir_path.join(format!("{ID}.lock"))).ok();
        let mut store = FileStore::open_with(&dir_path, ID, options).unwrap();
        assert_eq!(
            (store.next_sender_seq(), store.next_target_seq()),
            (2, 2),
            "{policy:?}"
        );
        assert_eq!(stored(&mut store), [(1, b"logon".to_vec())]);
    }
}

#[test]
fn an_abandoned_answer_is_taken_back_and_later_messages_stay() {
    let dir = TestDir::new("answers-abandoned");
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    store.begin_answer(1);
    store.store(1, b"never sent").unwrap();
    store.abandon_answer();
    assert_eq!(store.next_sender_seq(), 1);
    // Messages outside an answer, then an answer that completes.
    store.store(1, b"logon").unwrap();
    store.begin_answer(1);
    store.store(2, b"answer").unwrap();
    store.advance_target_seq(1).unwrap();
    // An answer with no message costs no record at all.
    store.begin_answer(2);
    store.advance_target_seq(2).unwrap();
    drop(store);
    let mut store = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(store.torn_tail(), None);
    assert_eq!((store.next_sender_seq(), store.next_target_seq()), (3, 3));
    assert_eq!(
        stored(&mut store),
        [(1, b"logon".to_vec()), (2, b"answer".to_vec())]
    );
    let counts = fix_session::store::StoreLog::open(dir.path(), ID)
        .unwrap()
        .records();
    assert_eq!((counts.answers, counts.messages), (1, 2));
}

/// RefreshOnLogon's hot standby: a second store of the session opened beside
/// the primary's reads the log as it is, writes nothing, and takes over with
/// `refresh` once the primary has let the lock go, seeing every number the
/// primary handed out meanwhile.
#[test]
fn a_standby_store_sees_the_primary_s_numbers_after_a_refresh() {
    let dir = TestDir::new("standby");
    let mut primary = FileStore::open(dir.path(), ID).unwrap();
    primary.store(1, &message(1, 0)).unwrap();
    primary.advance_target_seq(1).unwrap();

    let standby_options = FileOptions::new().standby(true);
    let mut standby = FileStore::open_with(dir.path(), ID, standby_options).unwrap();
    assert!(!standby.holds_lock());
    assert_eq!(
        (standby.next_sender_seq(), standby.next_target_seq()),
        (2, 2)
    );
    // A standby writes nothing, and cannot take over while the primary runs.
    assert!(matches!(
        standby.store(2, &message(2, 0)),
        Err(StoreError::Standby { .. })
    ));
    assert!(matches!(
        standby.reset(SystemTime::now()),
        Err(StoreError::Standby { .. })
    ));

    primary.store(2, &message(2, 0)).unwrap();
    primary.store(3, &message(3, 0)).unwrap();
    primary.advance_target_seq(2).unwrap();
    assert!(matches!(standby.refresh(), Err(StoreError::Locked { .. })));
    assert_eq!(standby.next_sender_seq(), 2, "not refreshed yet");

    drop(primary);
    standby.refresh().unwrap();
    assert!(standby.holds_lock());
    assert_eq!(
        (standby.next_sender_seq(), standby.next_target_seq()),
        (4, 3)
    );
    let resent = read_all(&mut standby, 1, 3, ChunkLimit::default());
    assert_eq!(
        resent,
        (1..=3).map(|s| (s, message(s, 0))).collect::<Vec<_>>()
    );
    // The store's own now: it writes, and holds the primary out.
    standby.store(4, &message(4, 0)).unwrap();
    assert!(matches!(
        FileStore::open(dir.path(), ID),
        Err(StoreError::Locked { .. })
    ));
    drop(standby);
    let reopened = FileStore::open(dir.path(), ID).unwrap();
    assert_eq!(reopened.next_sender_seq(), 5);
}

#[test]
fn a_standby_refresh_reads_the_new_log_of_a_reset_made_meanwhile() {
    let dir = TestDir::new("standby-reset");
    let mut primary = FileStore::open(dir.path(), ID).unwrap();
    primary.store(1, &message(1, 0)).unwrap();
    let options = FileOptions::new().standby(true);
    let mut standby = FileStore::open_with(dir.path(), ID, options).unwrap();
    let created = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000);
    // The reset renames a new log into place: the standby's open file is
    // the old one, which a refresh must not go on reading.
    primary.reset(created).unwrap();
    primary.store(1, &message(1, 1)).unwrap();
    drop(primary);
    standby.refresh().unwrap();
    assert_eq!(standby.creation_time(), created);
    assert_eq!(
        read_all(&mut standby, 1, 9, ChunkLimit::default()),
        [(1, message(1, 1))]
    );
}

#[test]
fn a_standby_opened_alone_makes_the_log_and_lets_the_lock_go() {
    let dir = TestDir::new("standby-alone");
    let options = FileOptions::new().standby(true);
    let mut standby = FileStore::open_with(dir.path(), ID, options).unwrap();
    assert!(!standby.holds_lock());
    // The primary starts after it: it opens the log the standby made.
    let mut primary = FileStore::open(dir.path(), ID).unwrap();
    primary.store(1, &message(1, 0)).unwrap();
    drop(primary);
    standby.refresh().unwrap();
    assert_eq!(standby.next_sender_seq(), 2);
    // A store that holds its lock refreshes to what it has: nothing changes.
    standby.refresh().unwrap();
    assert_eq!(standby.next_sender_seq(), 2);
}

/// RefreshOnLogon in the session: the initiator's Logon is numbered from the
/// store as the primary left it, not as it was when the standby opened it.
#[test]
fn refresh_on_logon_numbers_the_logon_from_what_the_primary_stored() {
    use fix_session::{Application, Role, Session, SessionConfig, SessionId};
    struct App;
    impl Application for App {}
    let dir = TestDir::new("refresh-on-logon");
    let name = "FIX.4.4-CLIENT-BROKER";
    let mut primary = FileStore::open(dir.path(), name).unwrap();
    primary.store(1, b"8=FIX.4.4\x01...").unwrap();
    let options = FileOptions::new().standby(true);
    let standby = FileStore::open_with(dir.path(), name, options).unwrap();
    for seq in 2..=7 {
        primary.store(seq, b"8=FIX.4.4\x01...").unwrap();
    }
    drop(primary);

    let id = SessionId::new("FIX.4.4", "CLIENT", "BROKER");
    let mut config = SessionConfig::new(id, Role::Initiator);
    config.refresh_on_logon = true;
    let mut s = Session::new(config, standby, &fix44::DICTIONARY);
    s.connected(common::t0(), &mut App).unwrap();
    let logon = common::split(s.output()).remove(0);
    assert_eq!(common::get(&logon, 34).as_deref(), Some("8"));
    assert_eq!(s.store().next_sender_seq(), 9);
}

#[test]
fn without_refresh_on_logon_a_standby_session_cannot_send_its_logon() {
    use fix_session::{Application, Role, Session, SessionConfig, SessionError, SessionId};
    struct App;
    impl Application for App {}
    let dir = TestDir::new("no-refresh");
    let name = "FIX.4.4-CLIENT-BROKER";
    let primary = FileStore::open(dir.path(), name).unwrap();
    let options = FileOptions::new().standby(true);
    let standby = FileStore::open_with(dir.path(), name, options).unwrap();
    drop(primary);
    let id = SessionId::new("FIX.4.4", "CLIENT", "BROKER");
    let config = SessionConfig::new(id, Role::Initiator);
    let mut s = Session::new(config, standby, &fix44::DICTIONARY);
    assert!(matches!(
        s.connected(common::t0(), &mut App),
        Err(SessionError::Store(StoreError::Standby { .. }))
    ));
    assert!(s.output().is_empty());
}

/// RefreshOnLogon on an acceptor: the counterparty's Logon is checked against
/// the numbers the primary left, read when the Logon comes.
#[test]
fn refresh_on_logon_checks_an_acceptor_s_logon_against_the_primary_s_numbers() {
    use fix_session::{Application, Role, Session, SessionConfig, SessionId, State};
    struct App;
    impl Application for App {}
    let dir = TestDir::new("refresh-acceptor");
    let name = "FIX.4.4-BROKER-CLIENT";
    let mut primary = FileStore::open(dir.path(), name).unwrap();
    let options = FileOptions::new().standby(true);
    let standby = FileStore::open_with(dir.path(), name, options).unwrap();
    // The primary received 1..=4 and sent 1..=2 after the standby opened.
    primary.store(1, b"8=FIX.4.4\x01...").unwrap();
    primary.store(2, b"8=FIX.4.4\x01...").unwrap();
    primary.set_next_target_seq(5).unwrap();
    drop(primary);

    let id = SessionId::new("FIX.4.4", "BROKER", "CLIENT");
    let mut config = SessionConfig::new(id, Role::Acceptor);
    config.refresh_on_logon = true;
    let mut s = Session::new(config, standby, &fix44::DICTIONARY);
    let now = common::t0();
    s.connected(now, &mut App).unwrap();
    let ts = String::from_utf8(fix_session::time::format_timestamp(now).to_vec()).unwrap();
    let logon = common::msg(&[
        (35, "A"),
        (34, "5"),
        (49, "CLIENT"),
        (52, &ts),
        (56, "BROKER"),
        (98, "0"),
        (108, "30"),
    ]);
    s.handle_bytes(now, &logon, &mut App).unwrap();
    assert_eq!(s.state(), State::LoggedOn);
    let answer = common::split(s.output()).remove(0);
    assert_eq!(common::get(&answer, 34).as_deref(), Some("3"));
    assert_eq!(
        (s.store().next_sender_seq(), s.store().next_target_seq()),
        (4, 6)
    );
}

/// The sync split in three (`begin_sync`, the job anywhere, `end_sync`), as
/// the engine overlaps it with its next reads.
mod split_sync {
    use super::*;
    use fix_session::store::SyncDone;

    fn batch_store(dir: &Path) -> FileStore {
        FileStore::open_with(
            dir,
            ID,
            FileOptions::new()
                .sync(SyncPolicy::Batch)
                .inline_sync_below(0),
        )
        .unwrap()
    }

    #[test]
    fn records_taken_while_a_job_runs_wait_for_the_next_one() {
        let dir = TestDir::new("split-sync-next");
        let mut store = batch_store(dir.path());
        store.store(1, b"one").unwrap();
        let job = store.begin_sync().unwrap().expect("a record waits");
        assert!(store.sync_in_flight());
        // One job at a time: a second begin has nothing to hand out.
        assert!(store.begin_sync().unwrap().is_none());
        store.store(2, b"two").unwrap();
        let done = std::thread::spawn(move || job.run()).join().unwrap();
        assert!(done.result().is_ok());
        store.end_sync(done).unwrap();
        assert!(!store.sync_in_flight());
        assert!(store.pending_sync(), "record 2 came after the job began");
        let syncs = store.syncs();
        let job = store.begin_sync().unwrap().expect("record 2 waits");
        store.end_sync(job.run()).unwrap();
        assert!(!store.pending_sync());
        assert_eq!(store.syncs(), syncs + 1);
        drop(store);
        let mut reopened = FileStore::open(dir.path(), ID).unwrap();
        assert_eq!(
            stored(&mut reopened),
            [(1, b"one".to_vec()), (2, b"two".to_vec())]
        );
    }

    #[test]
    fn a_failed_job_stops_the_store() {
        let dir = TestDir::new("split-sync-failed");
        let mut store = batch_store(dir.path());
        store.store(1, b"one").unwrap();
        let job = store.begin_sync().unwrap().unwrap();
        let failed = SyncDone::failed(job.id(), "its thread was lost");
        drop(job);
        assert!(matches!(
            store.end_sync(failed),
            Err(StoreError::SyncLost { .. })
        ));
        // The pages may be lost and marked clean: nothing more is taken.
        assert!(matches!(
            store.store(2, b"two"),
            Err(StoreError::Poisoned { .. })
        ));
        assert!(matches!(
            store.begin_sync(),
            Err(StoreError::Poisoned { .. })
        ));
    }

    #[test]
    fn a_job_of_a_log_a_reset_replaced_ends_without_effect() {
        let dir = TestDir::new("split-sync-reset");
        let mut store = batch_store(dir.path());
        store.store(1, b"one").unwrap();
        let job = store.begin_sync().unwrap().unwrap();
        store.reset(t()).unwrap();
        store.store(1, b"new").unwrap();
        store.end_sync(job.run()).unwrap();
        assert!(store.pending_sync(), "the new log's record is not covered");
        let job = store
            .begin_sync()
            .unwrap()
            .expect("the new log's record waits");
        store.end_sync(job.run()).unwrap();
        assert!(!store.pending_sync());
    }

    #[test]
    fn answers_taken_back_while_a_job_runs_are_not_counted_durable_when_rewritten() {
        let dir = TestDir::new("split-sync-take-back");
        let mut store = batch_store(dir.path());
        store.advance_target_seq(1).unwrap();
        store.begin_answer(2);
        store.store(1, b"answer").unwrap();
        // The job covers the answer's bytes...
        let job = store.begin_sync().unwrap().unwrap();
        // ...which are taken back, and the same offsets written afresh.
        store.abandon_answer();
        store.store(1, b"other!").unwrap();
        store.end_sync(job.run()).unwrap();
        assert!(
            store.pending_sync(),
            "the record written over the taken-back answer came after the job began"
        );
    }

    #[test]
    fn a_blocking_sync_frees_a_job_whose_end_was_lost() {
        let dir = TestDir::new("split-sync-lost");
        let mut store = batch_store(dir.path());
        store.store(1, b"one").unwrap();
        let job = store.begin_sync().unwrap().unwrap();
        drop(job);
        store.sync().unwrap();
        assert!(!store.sync_in_flight() && !store.pending_sync());
        store.store(2, b"two").unwrap();
        assert!(store.begin_sync().unwrap().is_some());
    }
}

#[test]
fn a_small_batch_is_synced_on_the_caller_s_thread_and_a_large_one_by_a_job() {
    let dir = TestDir::new("split-sync-inline");
    let options = FileOptions::new()
        .sync(SyncPolicy::Batch)
        .inline_sync_below(4096);
    let mut store = FileStore::open_with(dir.path(), ID, options).unwrap();
    store.store(1, &[b'x'; 100]).unwrap();
    assert!(
        store.begin_sync().unwrap().is_none(),
        "100 bytes: synced here"
    );
    assert_eq!((store.pending_sync(), store.syncs()), (false, 1));
    for seq in 2..=60 {
        store.store(seq, &[b'x'; 100]).unwrap();
    }
    let job = store.begin_sync().unwrap().expect("6 KB: a job");
    store.end_sync(job.run()).unwrap();
    assert_eq!((store.pending_sync(), store.syncs()), (false, 2));
}
