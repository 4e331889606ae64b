//! The statements, each one round trip, and what they return.
//!
//! Every write but the lease's own is conditional on the lease: the session
//! row's owner and epoch, and an unexpired lease by the database's clock. A
//! store whose lease was taken over matches no row and changes nothing.

use std::sync::Arc;

use tokio_postgres::{Client, Row, Statement};

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

/// A bigint's place in FIX order, in SQL: `x # ORDER` (the sign bit
/// flipped) compares as FIX numbers do, whose numbers past `i64::MAX` are
/// negative bigints (see `seq.rs`).
const ORDER: &str = "(-9223372036854775807 - 1)";

/// The batch statement: the numbers' fenced update, and the batch's rows
/// (one, unless it is large) inserted from its RETURNING: no session row,
/// no batch. A plain INSERT: a batch that is there already is an error,
/// never overwritten. Prepared once per connection, so a commit is one
/// round trip.
pub(crate) async fn prepare_insert(client: &Client) -> Result<Statement, DbError> {
    let sql = format!(
        "WITH s AS ({FENCED_UPDATE}),
         b AS (INSERT INTO fix_batches (session_key, generation, first_seq, last_seq, bytes)
               SELECT s.session_key, s.generation, u.first_seq, u.last_seq, u.bytes
               FROM s, unnest($7::bigint[], $8::bigint[], $9::bytea[])
                    AS u(first_seq, last_seq, bytes))
         SELECT count(*) FROM s"
    );
    Ok(client.prepare(&sql).await?)
}

/// Commits a batch: one statement, autocommitted, so one commit. `false`
/// when the lease check matched no row (fenced: nothing was written).
pub(crate) async fn commit(
    client: &mut Client,
    insert_batch: &Statement,
    b: Arc<BatchData>,
) -> Result<bool, DbError> {
    let Some(drop_from) = b.drop_from else {
        return insert(&*client, insert_batch, &b).await;
    };
    // Rare (the sender number set below stored messages): the drop and the
    // messages stored again under the same numbers need two statements (a
    // statement's insert would meet the rows its own delete removes), so
    // one transaction, still one commit.
    let tx = client.transaction().await?;
    if !drop_stored(&tx, &b, drop_from).await? || !insert(&tx, insert_batch, &b).await? {
        return Ok(false);
    }
    tx.commit().await?;
    Ok(true)
}

/// Drops the stored messages numbered `drop_from` and above, under the
/// fenced update: the batches that start there or above go, and one that
/// straddles it keeps only what is below (`valid_below`).
async fn drop_stored(
    tx: &tokio_postgres::Transaction<'_>,
    b: &BatchData,
    drop_from: i64,
) -> Result<bool, DbError> {
    // A row's numbers are all of one sign, so a straddled row's
    // `valid_below` and `drop_from` are of its sign: `least` compares them
    // as FIX numbers.
    let sql = format!(
        "WITH s AS ({FENCED_UPDATE}),
         d AS (DELETE FROM fix_batches b USING s
               WHERE b.session_key = s.session_key AND b.generation = s.generation
                 AND (b.first_seq # {ORDER}) >= ($7::bigint # {ORDER})),
         v AS (UPDATE fix_batches b SET valid_below = least(b.valid_below, $7::bigint)
               FROM s
               WHERE b.session_key = s.session_key AND b.generation = s.generation
                 AND (b.first_seq # {ORDER}) < ($7::bigint # {ORDER})
                 AND (b.last_seq # {ORDER}) >= ($7::bigint # {ORDER}))
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
    Ok(row.get::<_, i64>(0) == 1)
}

async fn insert(
    client: &impl tokio_postgres::GenericClient,
    insert_batch: &Statement,
    b: &BatchData,
) -> Result<bool, DbError> {
    let rows = b.rows();
    let firsts: Vec<i64> = rows.iter().map(|r| r.first).collect();
    let lasts: Vec<i64> = rows.iter().map(|r| r.last).collect();
    let bytes: Vec<&[u8]> = rows.iter().map(|r| r.bytes.as_slice()).collect();
    let p = &b.params;
    let row = client
        .query_one(
            insert_batch,
            &[
                &p.key,
                &p.node,
                &p.epoch,
                &b.next_sender,
                &b.next_target,
                &p.generation,
                &firsts,
                &lasts,
                &bytes,
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
         d AS (DELETE FROM fix_batches b USING s
               WHERE b.session_key = s.session_key AND b.generation < s.generation)
         SELECT generation FROM s";
    let row = client
        .query_opt(sql, &[&key, &node, &epoch, &creation_ns])
        .await?;
    Ok(row.map(|r| r.get(0)))
}

/// One page of a read: at most `max` rows of a generation, in order, that
/// may hold the numbers `lo..=hi` (bigints of one sign): the row that holds
/// `lo` (the last one starting at or below it, and at or above `floor`),
/// then those starting in `lo..=hi`, as long as the rows before each hold
/// fewer than `budget` bytes (the first row always comes). The caller skips
/// the messages outside the range.
#[derive(Debug)]
pub(crate) struct Page {
    pub(crate) key: String,
    pub(crate) generation: i64,
    pub(crate) lo: i64,
    pub(crate) hi: i64,
    pub(crate) floor: i64,
    pub(crate) max: i64,
    pub(crate) budget: i64,
}

/// A row of a read: its first number, `valid_below` and laid out messages.
#[derive(Debug)]
pub(crate) struct StoredRow {
    pub(crate) first: i64,
    pub(crate) valid_below: Option<i64>,
    pub(crate) bytes: Vec<u8>,
}

/// Reads a [`Page`]; both lookups walk the primary key from where they
/// start, so a read late in a long session costs what an early one does.
///
/// The byte budget is counted by the server (`octet_length` of a stored
/// value reads its length, not the value), over rows taken in key order as
/// the index gives them, so a page stops at whichever of `max` and `budget`
/// comes first without reading further.
pub(crate) async fn read(client: &Client, p: &Page) -> Result<Vec<StoredRow>, DbError> {
    let sql = "WITH start AS (
            SELECT coalesce(max(first_seq), $3) AS first_seq FROM fix_batches
            WHERE session_key = $1 AND generation = $2 AND first_seq BETWEEN $5 AND $3),
         page AS (
            SELECT b.first_seq, b.valid_below, b.bytes,
                   sum(octet_length(b.bytes)) OVER (ORDER BY b.first_seq)
                     - octet_length(b.bytes) AS before
            FROM fix_batches b, start
            WHERE b.session_key = $1 AND b.generation = $2
              AND b.first_seq >= start.first_seq AND b.first_seq <= $4
            ORDER BY b.first_seq LIMIT $6)
         SELECT first_seq, valid_below, bytes FROM page
         WHERE before < $7 ORDER BY first_seq";
    let rows = client
        .query(
            sql,
            &[
                &p.key,
                &p.generation,
                &p.lo,
                &p.hi,
                &p.floor,
                &p.max,
                &p.budget,
            ],
        )
        .await?;
    Ok(rows
        .iter()
        .map(|r| StoredRow {
            first: r.get(0),
            valid_below: r.get(1),
            bytes: r.get(2),
        })
        .collect())
}
