//! The engine's start error when its PostgreSQL store cannot be opened names
//! the server's own message (as `fixcfg check --connect` does: fix-cli's
//! `tests/cli/fixcfg_connect.rs`), against a real private server
//! (`fix_test_support::pg`; without PostgreSQL installed the test skips with
//! one line, and fails under `CI=true`).
#![cfg(feature = "postgres")]

use crate::common;
use fix_test_support::pg::PgServer;

#[tokio::test]
async fn the_engine_s_start_error_says_the_server_s_message() {
    let Some(pg) = PgServer::start_or_skip("connect-engine") else {
        return;
    };
    let connection = format!("host={} user=fix dbname=postgres", pg.host().display());
    let (tx, _rx) = tokio::sync::mpsc::unbounded_channel();
    let error = fix_engine::Engine::start(
        common::settings([common::acceptor("EXEC", "C1", 0).postgres_store(connection)]),
        &fix44::DICTIONARY,
        common::recorders(&tx, false),
    )
    .await
    .expect_err("the engine started without its database");
    assert_eq!(
        error.to_string(),
        r#"session FIX.4.4:EXEC->C1: database store: could not open the session: role "fix" does not exist"#
    );
}
