//! The store's tables, created and migrated on open.

use tokio_postgres::Client;

/// The advisory lock key the migrations take (`fixstore` in ASCII): engines
/// starting at once migrate one after the other, and the lock goes with the
/// transaction, so nothing is held afterwards.
const MIGRATION_LOCK: i64 = 0x6669_7873_746f_7265;

/// Each schema version's SQL, in order; never edit one that shipped, add one.
const MIGRATIONS: &[&str] = &[
    // 1: the sessions (numbers, lease, generation) and their sent messages.
    // The creation time is in nanoseconds: FIX compares it exactly, and a
    // timestamptz keeps microseconds.
    "CREATE TABLE fix_sessions (
        session_key text PRIMARY KEY,
        owner text,
        epoch bigint NOT NULL DEFAULT 0,
        lease_expiry timestamptz NOT NULL DEFAULT '-infinity',
        generation bigint NOT NULL DEFAULT 1,
        creation_ns bigint NOT NULL,
        next_sender bigint NOT NULL DEFAULT 1,
        next_target bigint NOT NULL DEFAULT 1
    );
    CREATE TABLE fix_messages (
        session_key text NOT NULL,
        generation bigint NOT NULL,
        seq bigint NOT NULL,
        bytes bytea NOT NULL,
        PRIMARY KEY (session_key, generation, seq)
    );",
];

/// Brings the schema to the latest version: one transaction per migration,
/// each under the advisory lock and skipped when already applied.
pub(crate) async fn migrate(client: &mut Client) -> Result<(), tokio_postgres::Error> {
    for (i, sql) in MIGRATIONS.iter().enumerate() {
        let version = i as i32 + 1;
        let tx = client.transaction().await?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await?;
        tx.batch_execute("CREATE TABLE IF NOT EXISTS fix_schema_version (version int PRIMARY KEY)")
            .await?;
        let row = tx
            .query_one(
                "SELECT coalesce(max(version), 0) FROM fix_schema_version",
                &[],
            )
            .await?;
        if row.get::<_, i32>(0) < version {
            tx.batch_execute(sql).await?;
            tx.execute("INSERT INTO fix_schema_version VALUES ($1)", &[&version])
                .await?;
        }
        tx.commit().await?;
    }
    Ok(())
}
