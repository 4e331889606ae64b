//! fix-session's store conformance suite (`fix_session::store::conformance`)
//! on the PostgreSQL store: each case on a server of its own, the store
//! reopened after it, holding the same numbers and messages. (fix-session
//! runs the same cases on its memory, file and shared-log stores.)

use std::time::SystemTime;

use fix_session::MessageStore;
use fix_session::store::conformance::snapshot;
use fix_store_postgres::{PgConfig, PostgresStore};
use fix_test_support::pg::PgServer;

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
        mod postgres {
            $(#[test] fn $test() { super::on_postgres(stringify!($test), fix_session::store::conformance::$test) })*
        }
    };
}

fix_session::with_store_cases!(suite);
