//! The statements, each one round trip, and what they return.
//!
//! Every write but the lease's own is conditional on the lease: the session
//! row's owner and epoch, and an unexpired lease by the database's clock. A
//! store whose lease was taken over matches no row and changes nothing.

use std::sync::Arc;

use tokio_postgres::{Client, Row};

use crate::batch::BatchData;
use crate::worker::DbError;

/// A session row as the store reads it.
#[derive(Clone, Debug)]
pub(crate) struct SessionRow {
    pub(crate) owner: Option<String>,
    pub(crate) epoch: i64,
    pub(crate) generation: i64,
    pub(crate) creation_ns: i64,
    pub(crate) next_sender: i64,
    pub(crate) next_target: i64,
}

impl SessionRow {
    fn from_row(row: &Row) -> Self {
        SessionRow {
            owner: row.get("owner"),
            epoch: row.get("epoch"),
            generation: row.get("generation"),
            creation_ns: row.get("creation_ns"),
            next_sender: row.get("next_sender"),
            next_target: row.get("next_target"),
        }
    }
}

const COLUMNS: &str = "owner, epoch, generation, creation_ns, next_sender, next_target";

/// The session row, made when absent (only the row: never a message).
pub(crate) async fn ensure(
    client: &Client,
    key: &str,
    creation_ns: i64,
) -> Result<SessionRow, DbError> {
    client
        .execute(
            "INSERT INTO fix_sessions (session_key, creation_ns) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            &[&key, &creation_ns],
        )
        .await?;
    let sql = format!("SELECT {COLUMNS} FROM fix_sessions WHERE session_key = $1");
    Ok(SessionRow::from_row(
        &client.query_one(&sql, &[&key]).await?,
    ))
}

/// Takes the lease when it is free or expired, bumping the epoch so that
/// every earlier holder (this node's too) is fenced. `None`: held by another.
pub(crate) async fn take(
    client: &Client,
    key: &str,
    node: &str,
    secs: f64,
) -> Result<Option<SessionRow>, DbError> {
    let sql = format!(
        "UPDATE fix_sessions SET owner = $2, epoch = epoch + 1,
             lease_expiry = now() + make_interval(secs => $3)
         WHERE session_key = $1 AND (owner IS NULL OR lease_expiry < now())
         RETURNING {COLUMNS}"
    );
    let row = client.query_opt(&sql, &[&key, &node, &secs]).await?;
    Ok(row.as_ref().map(SessionRow::from_row))
}

/// Renews the lease this store holds and reads the row; `None`: it was taken.
pub(crate) async fn renew(
    client: &Client,
    key: &str,
    node: &str,
    epoch: i64,
    secs: f64,
) -> Result<Option<SessionRow>, DbError> {
    let sql = format!(
        "UPDATE fix_sessions SET lease_expiry = now() + make_interval(secs => $4)
         WHERE session_key = $1 AND owner = $2 AND epoch = $3
         RETURNING {COLUMNS}"
    );
    let row = client
        .query_opt(&sql, &[&key, &node, &epoch, &secs])
        .await?;
    Ok(row.as_ref().map(SessionRow::from_row))
}

/// Lets the lease go at once, for a clean handover.
pub(crate) async fn release(
    client: &Client,
    key: &str,
    node: &str,
    epoch: i64,
) -> Result<(), DbError> {
    client
        .execute(
            "UPDATE fix_sessions SET lease_expiry = now()
             WHERE session_key = $1 AND owner = $2 AND epoch = $3",
            &[&key, &node, &epoch],
        )
        .await?;
    Ok(())
}

/// The fenced update of the numbers, shared by the batch statements.
const FENCED_UPDATE: &str = "UPDATE fix_sessions SET next_sender = $4, next_target = $5
     WHERE session_key = $1 AND owner = $2 AND epoch = $3 AND generation = $6
       AND lease_expiry > now()
     RETURNING session_key, generation";

/// Commits a batch: one statement, autocommitted, so one commit. `false`
/// when the lease check matched no row (fenced: nothing was written).
pub(crate) async fn commit(client: &mut Client, b: Arc<BatchData>) -> Result<bool, DbError> {
    let Some(drop_from) = b.drop_from else {
        return insert(&*client, &b).await;
    };
    // Rare (the sender number set below stored messages): the drop and the
    // messages stored again under the same numbers need two statements, so
    // one transaction, still one commit.
    let tx = client.transaction().await?;
    let sql = format!(
        "WITH s AS ({FENCED_UPDATE}),
         d AS (DELETE FROM fix_messages m USING s
               WHERE m.session_key = s.session_key AND m.generation = s.generation
                 AND CASE WHEN $7::bigint >= 0 THEN (m.seq >= $7::bigint OR m.seq < 0)
                          ELSE (m.seq < 0 AND m.seq >= $7) END)
         SELECT count(*) FROM s"
    );
    let p = &b.params;
    let row = tx
        .query_one(
            &sql,
            &[
                &p.key,
                &p.node,
                &p.epoch,
                &b.next_sender,
                &b.next_target,
                &p.generation,
                &drop_from,
            ],
        )
        .await?;
    if row.get::<_, i64>(0) == 0 {
        return Ok(false);
    }
    if !insert(&tx, &b).await? {
        return Ok(false);
    }
    tx.commit().await?;
    Ok(true)
}

async fn insert(
    client: &impl tokio_postgres::GenericClient,
    b: &BatchData,
) -> Result<bool, DbError> {
    // The insert reads from the update's RETURNING: no row, no message.
    let sql = format!(
        "WITH s AS ({FENCED_UPDATE}),
         m AS (INSERT INTO fix_messages (session_key, generation, seq, bytes)
               SELECT s.session_key, s.generation, u.seq, u.bytes
               FROM s, unnest($7::bigint[], $8::bytea[]) AS u(seq, bytes))
         SELECT count(*) FROM s"
    );
    let p = &b.params;
    let row = client
        .query_one(
            &sql,
            &[
                &p.key,
                &p.node,
                &p.epoch,
                &b.next_sender,
                &b.next_target,
                &p.generation,
                &b.seqs,
                &b.bytes,
            ],
        )
        .await?;
    Ok(row.get::<_, i64>(0) == 1)
}

/// Starts a new generation (numbers back to 1, a new creation time) and drops
/// the old generations' messages; `None` when fenced.
pub(crate) async fn reset(
    client: &Client,
    key: &str,
    node: &str,
    epoch: i64,
    creation_ns: i64,
) -> Result<Option<i64>, DbError> {
    let sql = "WITH s AS (
            UPDATE fix_sessions SET generation = generation + 1, creation_ns = $4,
                next_sender = 1, next_target = 1
            WHERE session_key = $1 AND owner = $2 AND epoch = $3 AND lease_expiry > now()
            RETURNING session_key, generation),
         d AS (DELETE FROM fix_messages m USING s
               WHERE m.session_key = s.session_key AND m.generation < s.generation)
         SELECT generation FROM s";
    let row = client
        .query_opt(sql, &[&key, &node, &epoch, &creation_ns])
        .await?;
    Ok(row.map(|r| r.get(0)))
}

/// One page of a read: the messages `from..=to` of a generation, at most
/// `max` of them and `max_bytes` bytes (past the first when `first_free`),
/// then the number of the first one left out, its bytes `None`.
#[derive(Debug)]
pub(crate) struct Page {
    pub(crate) key: String,
    pub(crate) generation: i64,
    pub(crate) from: i64,
    pub(crate) to: i64,
    pub(crate) max: i64,
    pub(crate) max_bytes: i64,
    pub(crate) first_free: bool,
}

/// Reads a [`Page`]: the limits are applied by the server (a running sum of
/// the lengths), so a page never brings more than its bytes to the client.
pub(crate) async fn read(
    client: &Client,
    p: &Page,
) -> Result<Vec<(i64, Option<Vec<u8>>)>, DbError> {
    let sql = "WITH w AS (
            SELECT seq, bytes, row_number() OVER (ORDER BY seq) AS n,
                   sum(octet_length(bytes)) OVER (ORDER BY seq) AS total
            FROM fix_messages
            WHERE session_key = $1 AND generation = $2 AND seq BETWEEN $3 AND $4
            ORDER BY seq LIMIT $5::bigint + 1)
         SELECT seq, CASE WHEN (n = 1 AND $7::boolean) OR (n <= $5::bigint AND total <= $6::bigint) THEN bytes END
         FROM w ORDER BY seq";
    let rows = client
        .query(
            sql,
            &[
                &p.key,
                &p.generation,
                &p.from,
                &p.to,
                &p.max,
                &p.max_bytes,
                &p.first_free,
            ],
        )
        .await?;
    Ok(rows.iter().map(|r| (r.get(0), r.get(1))).collect())
}
