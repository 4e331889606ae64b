//! The PostgreSQL harness starts a server on a socket, survives an immediate
//! restart, and leaves nothing behind.

use fix_test_support::pg::PgServer;

#[test]
fn a_server_starts_restarts_and_is_removed() {
    let Some(pg) = PgServer::start_or_skip("harness") else {
        return;
    };
    let socket = pg.host().join(format!(".s.PGSQL.{}", pg.port()));
    assert!(socket.exists(), "{} is missing", socket.display());
    assert_eq!(pg.psql("SELECT 40 + 2").unwrap(), "42");
    pg.restart_immediate().unwrap();
    assert!(socket.exists());
    assert_eq!(pg.psql("SHOW fsync").unwrap(), "on");
    let dir = pg.host().to_path_buf();
    drop(pg);
    assert!(!dir.exists());
}
