//! One test suite, run through the `MessageStore` trait against both stores: the
//! memory store, and the file store in a fresh directory (reopened after every test,
//! so each also checks that the log replays to the same state).

use std::time::SystemTime;

use fix_session::store::conformance::snapshot;
use fix_session::store::{SharedLog, SharedLogOptions};
use fix_session::{FileStore, MemoryStore, MessageStore};
use fix_test_support::temp_dir::TestDir;

/// Runs `test` on a memory store.
fn on_memory(test: fn(&mut dyn MessageStore)) {
    test(&mut MemoryStore::new());
}

/// Runs `test` on a file store, then reopens the store and checks it holds what
/// the store the test left held.
fn on_file(name: &str, test: fn(&mut dyn MessageStore)) {
    let dir = TestDir::new(name);
    let id = "FIX.4.4-SUITE-TEST";
    let mut store = FileStore::open(dir.path(), id).unwrap();
    test(&mut store);
    let before = snapshot(&mut store);
    drop(store);
    let mut reopened = FileStore::open(dir.path(), id).unwrap();
    assert_eq!(reopened.torn_tail(), None);
    assert!(
        snapshot(&mut reopened) == before,
        "the reopened store differs"
    );
}

/// Runs `test` on a store of the shared log, beside another session's store
/// that takes a record between each of the test's syncs, then reopens the
/// log and checks the session holds what it held, and the other session too.
fn on_shared(name: &str, test: fn(&mut dyn MessageStore)) {
    let dir = TestDir::new(&format!("shared-{name}"));
    let id = "FIX.4.4-SUITE-TEST";
    // Small segments, so that a test's records cross segments.
    let options = SharedLogOptions::new().segment_size(64 << 10);
    let log = SharedLog::open(dir.path(), options).unwrap();
    let now = SystemTime::now();
    let mut other = log.open_store("FIX.4.4-OTHER", now).unwrap();
    other.store(1, b"35=0\x01").unwrap();
    let mut store = log.open_store(id, now).unwrap();
    test(&mut store);
    other.store(2, b"35=0\x01").unwrap();
    other.sync().unwrap();
    let before = snapshot(&mut store);
    let other_before = snapshot(&mut other);
    drop((store, other, log));
    let log = SharedLog::open(dir.path(), options).unwrap();
    let mut reopened = log.open_store(id, now).unwrap();
    assert!(
        snapshot(&mut reopened) == before,
        "the reopened store differs"
    );
    let mut other = log.open_store("FIX.4.4-OTHER", now).unwrap();
    assert!(
        snapshot(&mut other) == other_before,
        "the other session differs"
    );
}

macro_rules! suite {
    ($($test:ident),* $(,)?) => {
        mod memory {
            $(#[test] fn $test() { super::on_memory(fix_session::store::conformance::$test) })*
        }
        mod file {
            $(#[test] fn $test() { super::on_file(stringify!($test), fix_session::store::conformance::$test) })*
        }
        mod shared {
            $(#[test] fn $test() { super::on_shared(stringify!($test), fix_session::store::conformance::$test) })*
        }
    };
}

fix_session::with_store_cases!(suite);
