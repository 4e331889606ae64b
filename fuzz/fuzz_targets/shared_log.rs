//! The shared log's recovery fed arbitrary segments: the input, cut at its
//! 0xFF bytes, becomes the records of up to three segment
//! files (each behind a valid header). Opening the log must never panic: it
//! recovers (then every session opens, reads back every stored message, takes
//! one more and syncs) or refuses with a typed error; reading the same
//! segments without repairing them must agree with what the open found.
#![no_main]

use std::time::SystemTime;

use fix_session::store::{SharedLog, SharedLogOptions, StoreLog};
use fix_session::{ChunkLimit, MessageStore};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let dir = std::env::temp_dir().join(format!("fuzz-shared-log-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let log_dir = dir.join("shared-log");
    std::fs::create_dir_all(&log_dir).unwrap();
    for (i, part) in data.split(|&b| b == 0xFF).take(3).enumerate() {
        let number = i as u64 + 1;
        let mut seg = Vec::with_capacity(16 + part.len() + 64);
        seg.extend_from_slice(b"FIXSHLG1");
        seg.extend_from_slice(&number.to_le_bytes());
        seg.extend_from_slice(part);
        seg.resize(seg.len() + 64, 0);
        std::fs::write(log_dir.join(format!("{number:016}.seg")), &seg).unwrap();
    }
    // The tools' view first: it changes nothing.
    let names = fix_session::store::sessions(&dir);
    if let Ok(names) = &names {
        for name in names {
            if let Ok(view) = StoreLog::open(&dir, name) {
                let _ = view.read_messages(&mut |_, _| {});
            }
        }
    }
    let options = SharedLogOptions::new().segment_size(64 << 10);
    if let Ok(log) = SharedLog::open(&log_dir, options) {
        assert!(names.is_ok(), "the log opened where reading it failed");
        for name in log.sessions() {
            let Ok(mut store) = log.open_store(&name, SystemTime::now()) else {
                continue;
            };
            let _ = store.read_stored(1, u64::MAX, ChunkLimit::default(), &mut |_, _| {});
            let seq = store.next_sender_seq();
            if seq < u64::MAX && store.store(seq, b"35=0\x01").is_ok() {
                store.sync().unwrap();
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
});
