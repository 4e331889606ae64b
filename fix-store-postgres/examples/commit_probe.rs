//! What a commit costs on this machine, the store's against the bare
//! statements, each on a private server (initdb into a temporary
//! directory, a Unix socket, fsync and synchronous_commit on):
//!
//! - `SELECT 1`: a round trip to the server;
//! - `INSERT`: a one-row insert, autocommitted (a round trip and a WAL flush);
//! - `UPDATE + INSERT`: a counter's update feeding an insert, the shape of
//!   the store's batch statement;
//! - the store: one 200-byte message stored and synced
//!   (`MessageStore::store` then `sync`), through the store's thread;
//! - the store, two sessions at once on one server (their commits share its
//!   WAL), then one session on each of two servers (one disk under both):
//!   what a commit costs when another engine's commits run beside it, as in
//!   the race's PostgreSQL lane.
//!
//! ```text
//! cargo run --release -p fix-store-postgres --example commit_probe
//! ```

use fix_session::MessageStore;
use fix_store_postgres::{PgConfig, PostgresStore};
use fix_test_support::pg::PgServer;
use std::time::{Instant, SystemTime};

const ROUNDS: usize = 3000;

fn main() {
    let pg = PgServer::start("commit-probe").expect("a private PostgreSQL server");
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(bare(&pg.connection_string()));
    let one = pg.connection_string();
    report("store + sync", syncs(one.clone(), "FIX.4.4-A-B"));
    // Two sessions at once, each on its own thread: what one commit costs
    // while another session's commits share the server's WAL.
    let both = [(one.clone(), "FIX.4.4-C-D"), (one.clone(), "FIX.4.4-E-F")];
    for times in at_once(both) {
        report("store + sync, two sessions at once", times);
    }
    // The same on two servers, one session each (their WALs apart, on one disk).
    let other = PgServer::start("commit-probe-2").expect("a second server");
    let apart = [
        (one, "FIX.4.4-G-H"),
        (other.connection_string(), "FIX.4.4-G-H"),
    ];
    for times in at_once(apart) {
        report("store + sync, two servers at once", times);
    }
}

/// [`ROUNDS`] times, a 200-byte message stored and synced in session `key`
/// of the store at `connection`: each round's microseconds.
fn syncs(connection: String, key: &str) -> Vec<u128> {
    let config = PgConfig::new(connection, "probe");
    let mut store = PostgresStore::open(&config, key, SystemTime::now()).unwrap();
    let message = vec![b'x'; 200];
    (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            store.store(store.next_sender_seq(), &message).unwrap();
            store.sync().unwrap();
            start.elapsed().as_micros()
        })
        .collect()
}

/// [`syncs`] of each session, all at once, each on a thread of its own.
fn at_once<const N: usize>(sessions: [(String, &'static str); N]) -> Vec<Vec<u128>> {
    let threads: Vec<_> = sessions
        .into_iter()
        .map(|(connection, key)| std::thread::spawn(move || syncs(connection, key)))
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}

/// The bare statements through tokio-postgres, prepared once.
async fn bare(connection: &str) {
    let (client, conn) = tokio_postgres::connect(connection, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(conn);
    client
        .batch_execute(
            "CREATE TABLE probe_rows (k bigint PRIMARY KEY, v bytea);
             CREATE TABLE probe_counter (k int PRIMARY KEY, n bigint);
             INSERT INTO probe_counter VALUES (1, 0)",
        )
        .await
        .unwrap();
    let select = client.prepare("SELECT 1").await.unwrap();
    let insert = client
        .prepare("INSERT INTO probe_rows VALUES ($1, $2)")
        .await
        .unwrap();
    let both = client
        .prepare(
            "WITH c AS (UPDATE probe_counter SET n = n + 1 WHERE k = 1 RETURNING n)
             INSERT INTO probe_rows SELECT c.n + 1000000000, $1 FROM c",
        )
        .await
        .unwrap();
    let value = vec![b'x'; 200];
    for name in ["SELECT 1", "INSERT", "UPDATE + INSERT"] {
        let mut times = Vec::with_capacity(ROUNDS);
        for i in 0..ROUNDS as i64 {
            let start = Instant::now();
            match name {
                "SELECT 1" => client.query(&select, &[]).await.map(|_| 0),
                "INSERT" => client.execute(&insert, &[&i, &value]).await,
                _ => client.execute(&both, &[&value]).await,
            }
            .unwrap();
            times.push(start.elapsed().as_micros());
        }
        report(name, times);
    }
}

fn report(name: &str, mut times: Vec<u128>) {
    times.sort_unstable();
    let at = |q: f64| times[((times.len() - 1) as f64 * q) as usize];
    println!(
        "{name}: p50 {} µs, p90 {} µs, p99 {} µs ({} rounds)",
        at(0.5),
        at(0.9),
        at(0.99),
        times.len()
    );
}
