//! The sessions a database holds, as a tool lists them: read from
//! `fix_sessions` alone, without opening a store (so without making a row,
//! taking a lease or migrating the tables).

use std::time::{Duration, SystemTime};

use fix_session::StoreError;
use tokio_postgres::NoTls;
use tokio_postgres::error::SqlState;

use crate::config::PgConfig;
use crate::error::Boxed;
use crate::seq::from_db;

/// One session's row: its numbers, generation and lease.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionSummary {
    /// The session's key (the engine's store name, `FIX.4.4-SENDER-TARGET`).
    pub session_key: String,
    /// The engine that holds or last held the lease; `None`: never taken.
    pub owner: Option<String>,
    /// The lease's epoch, bumped by every take.
    pub epoch: u64,
    /// When the lease ends (or ended); `None`: never taken.
    pub lease_expiry: Option<SystemTime>,
    /// Whether the lease is held now, by the database's clock: a store of
    /// `owner` may be writing.
    pub lease_live: bool,
    /// Bumped by every reset; only this generation's messages are read.
    pub generation: u64,
    /// The session's creation time.
    pub creation_time: SystemTime,
    /// The next sender sequence number.
    pub next_sender: u64,
    /// The next target sequence number.
    pub next_target: u64,
}

/// Every session in `config`'s database, by key; none when the store's
/// tables are not there yet. Blocks on a thread of its own (so it may be
/// called from inside an async task too).
///
/// ```no_run
/// use fix_store_postgres::{PgConfig, list_sessions};
/// let config = PgConfig::new("host=/run/pg user=fix dbname=fix", "fixstore");
/// for s in list_sessions(&config)? {
///     println!("{} {} {} live={}", s.session_key, s.next_sender, s.next_target, s.lease_live);
/// }
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub fn list_sessions(config: &PgConfig) -> Result<Vec<SessionSummary>, StoreError> {
    let connection = config.connection.clone();
    let limit = config.lease.max(Duration::from_secs(1));
    on_own_thread("pg-list-sessions", limit, move || async move {
        read(&connection).await
    })
    .map_err(db_error)
}

/// Runs the future `make` returns on a thread and runtime of its own, for
/// at most `limit`: a blocking call, from async code too.
pub(crate) fn on_own_thread<T, F>(
    name: &str,
    limit: Duration,
    make: impl FnOnce() -> F + Send + 'static,
) -> Result<T, Boxed>
where
    T: Send + 'static,
    F: Future<Output = Result<T, Boxed>>,
{
    let run = move || -> Result<T, Boxed> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        runtime.block_on(async {
            match tokio::time::timeout(limit, make()).await {
                Ok(result) => result,
                Err(_) => Err(format!("no answer from the server in {limit:?}").into()),
            }
        })
    };
    std::thread::Builder::new()
        .name(name.into())
        .spawn(run)?
        .join()
        .map_err(|_| format!("the {name} thread panicked"))?
}

fn db_error(source: Box<dyn std::error::Error + Send + Sync>) -> StoreError {
    StoreError::Database {
        op: "list the sessions",
        source: crate::error::plain(source),
    }
}

async fn read(
    connection: &str,
) -> Result<Vec<SessionSummary>, Box<dyn std::error::Error + Send + Sync>> {
    let (client, conn) = tokio_postgres::connect(connection, NoTls).await?;
    let conn = tokio::spawn(async move {
        let _ = conn.await;
    });
    // The expiry as microseconds: `-infinity` (never taken) is NULL here.
    let sql = "SELECT session_key, owner, epoch,
            CASE WHEN isfinite(lease_expiry)
                 THEN (extract(epoch FROM lease_expiry) * 1000000)::bigint END,
            owner IS NOT NULL AND lease_expiry > now(),
            generation, creation_ns, next_sender, next_target
        FROM fix_sessions ORDER BY session_key";
    let rows = match client.query(sql, &[]).await {
        Ok(rows) => rows,
        Err(e) if e.code() == Some(&SqlState::UNDEFINED_TABLE) => Vec::new(),
        Err(e) => return Err(e.into()),
    };
    drop(client);
    let _ = conn.await;
    Ok(rows
        .iter()
        .map(|r| SessionSummary {
            session_key: r.get(0),
            owner: r.get(1),
            epoch: from_db(r.get(2)),
            lease_expiry: r.get::<_, Option<i64>>(3).map(at_micros),
            lease_live: r.get(4),
            generation: from_db(r.get(5)),
            creation_time: SystemTime::UNIX_EPOCH + Duration::from_nanos(r.get::<_, i64>(6) as u64),
            next_sender: from_db(r.get(7)),
            next_target: from_db(r.get(8)),
        })
        .collect())
}

/// A time as microseconds from the Unix epoch (before it too).
fn at_micros(micros: i64) -> SystemTime {
    let d = Duration::from_micros(micros.unsigned_abs());
    if micros >= 0 {
        SystemTime::UNIX_EPOCH + d
    } else {
        SystemTime::UNIX_EPOCH - d
    }
}
