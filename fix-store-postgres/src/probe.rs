//! What a settings check asks of the store's database before an engine
//! starts on it: can it log in, are the store's tables there and at which
//! version, may it make them. Nothing is created, migrated or locked.

use std::fmt;
use std::time::Duration;

use fix_session::StoreError;
use tokio_postgres::NoTls;

use crate::config::PgConfig;
use crate::error::Boxed;

/// What a connection to the store's database found.
///
/// ```
/// use fix_store_postgres::Probe;
/// let p = Probe { server_version: "15.8".into(), schema_version: None, latest: 2,
///                 lease_table: false, sessions: 0, can_create: true };
/// assert_eq!(p.problem(), None);
/// assert!(p.to_string().contains("no store tables yet"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The server's version (`server_version`).
    pub server_version: String,
    /// The store's schema version (`fix_schema_version`); `None`: no tables yet.
    pub schema_version: Option<i32>,
    /// The schema version this build migrates to when a store opens.
    pub latest: i32,
    /// Whether the lease table (`fix_sessions`: numbers, owner, epoch) is there.
    pub lease_table: bool,
    /// How many sessions the lease table holds.
    pub sessions: i64,
    /// Whether the user may create tables in its schema, which the first
    /// open (or a migration) needs.
    pub can_create: bool,
}

impl Probe {
    /// What would stop a store from opening, in one line; `None`: nothing.
    ///
    /// ```
    /// use fix_store_postgres::Probe;
    /// let p = Probe { server_version: "15.8".into(), schema_version: Some(3), latest: 2,
    ///                 lease_table: true, sessions: 1, can_create: true };
    /// assert!(p.problem().unwrap().contains("newer"));
    /// ```
    pub fn problem(&self) -> Option<String> {
        match self.schema_version {
            Some(v) if v > self.latest => Some(format!(
                "schema version {v} is newer than this engine's {}: a newer engine migrated the tables",
                self.latest
            )),
            Some(v) if !self.lease_table => Some(format!(
                "schema version {v} but no lease table fix_sessions: the tables were changed by hand"
            )),
            Some(v) if v < self.latest && !self.can_create => Some(format!(
                "schema version {v} needs migrating to {}, and this user may not create tables in its schema",
                self.latest
            )),
            None if !self.can_create => Some(
                "no store tables yet, and this user may not create them in its schema (GRANT CREATE ON SCHEMA)"
                    .into(),
            ),
            _ => None,
        }
    }
}

impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "connected to PostgreSQL {}; ", self.server_version)?;
        match self.schema_version {
            None => write!(f, "no store tables yet: made when the engine starts"),
            Some(v) if v == self.latest && self.lease_table => write!(
                f,
                "schema version {v}, lease table fix_sessions with {} session(s)",
                self.sessions
            ),
            Some(v) if v < self.latest => write!(
                f,
                "schema version {v}, migrated to {} when the engine starts",
                self.latest
            ),
            Some(v) => write!(f, "schema version {v}"),
        }
    }
}

/// Connects to `config`'s database and reads what [`Probe`] holds. Blocks on
/// a thread of its own (so it may be called from inside an async task too)
/// for at most `limit`; the error's display is the server's own message
/// (`password authentication failed for user "fix"`).
///
/// ```no_run
/// use fix_store_postgres::{PgConfig, probe};
/// let config = PgConfig::new("host=/run/pg user=fix dbname=fix", "fixcfg");
/// let found = probe(&config, std::time::Duration::from_secs(5))?;
/// if let Some(problem) = found.problem() { println!("error: {problem}") }
/// # Ok::<(), fix_session::StoreError>(())
/// ```
pub fn probe(config: &PgConfig, limit: Duration) -> Result<Probe, StoreError> {
    let connection = config.connection.clone();
    crate::sessions::on_own_thread(
        "pg-probe",
        limit,
        move || async move { read(&connection).await },
    )
    .map_err(|source| StoreError::Database {
        op: "connect and read the store's tables",
        source: crate::error::plain(source),
    })
}

async fn read(connection: &str) -> Result<Probe, Boxed> {
    let (client, conn) = tokio_postgres::connect(connection, NoTls).await?;
    let conn = tokio::spawn(async move {
        let _ = conn.await;
    });
    let row = client
        .query_one(
            "SELECT current_setting('server_version'),
                    to_regclass('fix_schema_version') IS NOT NULL,
                    to_regclass('fix_sessions') IS NOT NULL,
                    coalesce(has_schema_privilege(current_schema(), 'CREATE'), false)",
            &[],
        )
        .await?;
    let (versioned, lease_table) = (row.get::<_, bool>(1), row.get::<_, bool>(2));
    let schema_version = if versioned {
        let v = client
            .query_one("SELECT max(version) FROM fix_schema_version", &[])
            .await?;
        v.get::<_, Option<i32>>(0)
    } else {
        None
    };
    let sessions = if lease_table {
        let n = client
            .query_one("SELECT count(*) FROM fix_sessions", &[])
            .await?;
        n.get::<_, i64>(0)
    } else {
        0
    };
    let probe = Probe {
        server_version: row.get(0),
        schema_version,
        latest: crate::schema::LATEST,
        lease_table,
        sessions,
        can_create: row.get(3),
    };
    drop(client);
    let _ = conn.await;
    Ok(probe)
}
