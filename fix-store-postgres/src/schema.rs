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
    // 2: a batch's messages in one row (one heap tuple and one index entry a
    // commit, not one a message), laid out as `layout.rs` says: each message
    // its number (8 bytes), its length (4 bytes, both big-endian) and its
    // bytes. `first_seq` and `last_seq` are its first and last numbers;
    // messages numbered `valid_below` and above are no longer stored (the
    // sender number went below them). The bytes are stored uncompressed
    // (EXTERNAL): measured on batches of 1,000 execution reports, pglz made
    // a commit 2.5 times slower and lz4 (not in every server) no faster.
    // The old table's messages move, one row each; `fix_batch_messages`
    // reads the layout in SQL, for people and tests.
    "CREATE TABLE fix_batches (
        session_key text NOT NULL,
        generation bigint NOT NULL,
        first_seq bigint NOT NULL,
        last_seq bigint NOT NULL,
        valid_below bigint,
        bytes bytea NOT NULL,
        PRIMARY KEY (session_key, generation, first_seq)
    );
    ALTER TABLE fix_batches ALTER COLUMN bytes SET STORAGE EXTERNAL;
    INSERT INTO fix_batches (session_key, generation, first_seq, last_seq, bytes)
        SELECT session_key, generation, seq, seq,
               int8send(seq) || int4send(octet_length(bytes)) || bytes
        FROM fix_messages;
    DROP TABLE fix_messages;
    CREATE FUNCTION fix_batch_messages(batch bytea, valid_below bigint)
    RETURNS TABLE (seq bigint, message bytea) LANGUAGE plpgsql IMMUTABLE AS $$
    DECLARE
        at int := 0;
        len int;
    BEGIN
        WHILE at < octet_length(batch) LOOP
            seq := ('x' || encode(substring(batch FROM at + 1 FOR 8), 'hex'))::bit(64)::bigint;
            len := ('x' || encode(substring(batch FROM at + 9 FOR 4), 'hex'))::bit(32)::int;
            message := substring(batch FROM at + 13 FOR len);
            at := at + 12 + len;
            -- In FIX order: numbers past i64::MAX are negative bigints.
            IF valid_below IS NULL
               OR (seq # (-9223372036854775807 - 1)) < (valid_below # (-9223372036854775807 - 1)) THEN
                RETURN NEXT;
            END IF;
        END LOOP;
    END $$;",
];

/// The schema version [`migrate`] brings the tables to.
pub(crate) const LATEST: i32 = MIGRATIONS.len() as i32;

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
