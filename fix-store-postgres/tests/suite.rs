//! The store cases of fix-session's suite, run on every store: memory, file
//! and PostgreSQL. The file and PostgreSQL stores are reopened after each case
//! and must hold the same numbers and messages.

#[macro_use]
#[path = "../../fix-session/tests/store_cases/mod.rs"]
mod store_cases;

use std::time::SystemTime;

use fix_session::{ChunkLimit, FileStore, MemoryStore, MessageStore};
use fix_store_postgres::{PgConfig, PostgresStore};
use fix_test_support::pg::PgServer;
use fix_test_support::temp_dir::TestDir;
use store_cases::helpers::read_all;

type Snapshot = (u64, u64, SystemTime, Vec<(u64, Vec<u8>)>);

fn snapshot(store: &mut dyn MessageStore) -> Snapshot {
    let all = read_all(store, 1, u64::MAX, ChunkLimit::new(1000, usize::MAX));
    (
        store.next_sender_seq(),
        store.next_target_seq(),
        store.creation_time(),
        all,
    )
}

fn on_memory(test: fn(&mut dyn MessageStore)) {
    test(&mut MemoryStore::new());
}

fn on_file(name: &str, test: fn(&mut dyn MessageStore)) {
    let dir = TestDir::new(name);
    let mut store = FileStore::open(dir.path(), "FIX.4.4-SUITE-TEST").unwrap();
    test(&mut store);
    let before = snapshot(&mut store);
    drop(store);
    let mut reopened = FileStore::open(dir.path(), "FIX.4.4-SUITE-TEST").unwrap();
    assert!(
        snapshot(&mut reopened) == before,
        "the reopened store differs"
    );
}

/// Runs `test` on a PostgreSQL store, commits, then reopens it (after the
/// first let its lease go) and checks it holds the same.
fn on_postgres(name: &str, test: fn(&mut dyn MessageStore)) {
    // A server per case: a static one would never be dropped, so never stopped.
    let Some(pg) = PgServer::start_or_skip(name) else {
        return;
    };
    let config = PgConfig::new(pg.connection_string(), "suite");
    let mut store = PostgresStore::open(&config, name, SystemTime::now()).unwrap();
    assert!(store.holds_lease());
    test(&mut store);
    store.sync().unwrap();
    assert!(!store.pending_sync());
    let before = snapshot(&mut store);
    drop(store);
    let mut reopened = PostgresStore::open(&config, name, SystemTime::now()).unwrap();
    assert!(reopened.holds_lease());
    assert!(
        snapshot(&mut reopened) == before,
        "the reopened store differs"
    );
}

macro_rules! suite {
    ($($test:ident),* $(,)?) => {
        mod memory {
            $(#[test] fn $test() { super::on_memory(super::store_cases::$test) })*
        }
        mod file {
            $(#[test] fn $test() { super::on_file(stringify!($test), super::store_cases::$test) })*
        }
        mod postgres {
            $(#[test] fn $test() { super::on_postgres(stringify!($test), super::store_cases::$test) })*
        }
    };
}

with_cases!(suite);
