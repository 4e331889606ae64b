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

/// The fenced update of the numbers, shared by the batch statements: under
/// the lease, and from the sender number the store's last batch left ($7),
/// which a standby may have taken for its Logout ([`take_as_standby`]).
const FENCED_UPDATE: &str = "UPDATE fix_sessions SET next_sender = $4, next_target = $5
     WHERE session_key = $1 AND owner = $2 AND epoch = $3 AND generation = $6
       AND lease_expiry > now() AND next_sender = $7
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
               FROM s, unnest($8::bigint[], $9::bigint[], $10::bytea[])
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
        return insert(&*client, insert_batch, &b, b.prev_sender).await;
    };
    // Rare (the sender number set below stored messages): the drop and the
    // messages stored again under the same numbers need two statements (a
    // statement's insert would meet the rows its own delete removes), so
    // one transaction, still one commit.
    let tx = client.transaction().await?;
    // The insert's update runs after the drop's, from the numbers it set.
    if !drop_stored(&tx, &b, drop_from).await?
        || !insert(&tx, insert_batch, &b, b.next_sender).await?
    {
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
                 AND (b.first_seq # {ORDER}) >= ($8::bigint # {ORDER})),
         v AS (UPDATE fix_batches b SET valid_below = least(b.valid_below, $8::bigint)
               FROM s
               WHERE b.session_key = s.session_key AND b.generation = s.generation
                 AND (b.first_seq # {ORDER}) < ($8::bigint # {ORDER})
                 AND (b.last_seq # {ORDER}) >= ($8::bigint # {ORDER}))
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
                &b.prev_sender,
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
    prev_sender: i64,
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
                &prev_sender,
                &firsts,
                &lasts,
                &bytes,
            ],
        )
        .await?;
    Ok(row.get::<_, i64>(0) == 1)
}

/// Why a batch's fenced update matched no row, when the lease is still
/// this store's: `Some(next_sender)`, the number as the database has it,
/// which a standby moved on from the batch's `prev_sender`; `None` when the
/// lease is gone (fenced).
pub(crate) async fn number_taken(client: &Client, b: &BatchData) -> Result<Option<i64>, DbError> {
    let p = &b.params;
    let row = client
        .query_opt(
            "SELECT next_sender FROM fix_sessions
             WHERE session_key = $1 AND owner = $2 AND epoch = $3 AND generation = $4
               AND lease_expiry > now() AND next_sender <> $5",
            &[&p.key, &p.node, &p.epoch, &p.generation, &b.prev_sender],
        )
        .await?;
    Ok(row.map(|r| r.get(0)))
}

/// A standby's one write: takes sender number `seq` (a bigint) for a
/// message (its Logout, laid out as one row), only while it is the
/// session's next sender number and another engine holds a live lease
/// (a free lease is taken, not written around). `false`: not taken.
pub(crate) async fn take_as_standby(
    client: &Client,
    key: &str,
    node: &str,
    row: &crate::layout::Row,
    next: i64,
) -> Result<bool, DbError> {
    let sql = "WITH s AS (
            UPDATE fix_sessions SET next_sender = $5
            WHERE session_key = $1 AND next_sender = $3
              AND owner IS DISTINCT FROM $2 AND lease_expiry > now()
            RETURNING session_key, generation),
         b AS (INSERT INTO fix_batches (session_key, generation, first_seq, last_seq, bytes)
               SELECT s.session_key, s.generation, $3, $3, $4 FROM s)
         SELECT count(*) FROM s";
    let row = client
        .query_one(sql, &[&key, &node, &row.first, &row.bytes, &next])
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

/// The read of a [`Page`]: where it starts (the batch holding `lo`: the
/// last one starting at or below it, above `floor`), then up to `max` rows
/// from there to `hi` that start within `budget` bytes. Both lookups walk
/// the primary key from where they start, so a read late in a long session
/// costs what an early one does.
///
/// The byte budget is counted by the server (`octet_length` of a stored
/// value reads its length, not the value), over rows taken in key order as
/// the index gives them, so a page stops at whichever of `max` and `budget`
/// comes first without reading further.
///
/// The start is a scalar subquery, run once whatever the statistics say.
/// Written as a join with an aggregate (`WITH start AS (SELECT max(...))`),
/// the planner, with no statistics yet for a table filled since its last
/// analyze (a takeover after a burst), costed the range at one row, chose a
/// nested loop and ran the aggregate again for every row of the range:
/// 1,565 times, about 300 ms a page, and a resend after a takeover held a
/// QuickFIX counterparty for 5 s at a time (issue 38).
const READ_PAGE: &str = "WITH page AS (
            SELECT b.first_seq, b.valid_below, b.bytes,
                   sum(octet_length(b.bytes)) OVER (ORDER BY b.first_seq)
                     - octet_length(b.bytes) AS before
            FROM fix_batches b
            WHERE b.session_key = $1 AND b.generation = $2
              AND b.first_seq >= coalesce(
                  (SELECT s.first_seq FROM fix_batches s
                   WHERE s.session_key = $1 AND s.generation = $2
                     AND s.first_seq BETWEEN $5 AND $3
                   ORDER BY s.first_seq DESC LIMIT 1), $3)
              AND b.first_seq <= $4
            ORDER BY b.first_seq LIMIT $6)
         SELECT first_seq, valid_below, bytes FROM page
         WHERE before < $7 ORDER BY first_seq";

/// Reads a [`Page`] ([`READ_PAGE`]).
pub(crate) async fn read(client: &Client, p: &Page) -> Result<Vec<StoredRow>, DbError> {
    let sql = READ_PAGE;
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

#[cfg(test)]
mod tests {
    use super::READ_PAGE;
    use fix_test_support::pg::PgServer;

    /// The shared buffers a page read touched, from its plan run.
    fn buffers(plan: &str) -> u64 {
        // `EXPLAIN (ANALYZE, BUFFERS)` text: the top node's "Buffers: shared
        // hit=N read=M" line comes first and counts its children's.
        let line = plan
            .lines()
            .find(|l| l.trim_start().starts_with("Buffers:"))
            .unwrap_or_else(|| panic!("no buffers in {plan}"));
        line.split([' ', '='])
            .collect::<Vec<_>>()
            .windows(2)
            .filter(|w| matches!(w[0], "hit" | "read" | "dirtied" | "written"))
            .filter_map(|w| w[1].parse::<u64>().ok())
            .sum()
    }

    /// A page read early in a long session and one late in it, in a table
    /// filled since its last analyze (the state right after a burst, when a
    /// takeover's resend reads it): each touches about the pages of the rows
    /// it returns, never the range once per row.
    #[test]
    fn a_page_read_touches_its_rows_whatever_the_statistics_say() {
        let Some(pg) = PgServer::start_or_skip("read-plan") else {
            return;
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (mut client, conn) =
                tokio_postgres::connect(&pg.connection_string(), tokio_postgres::NoTls)
                    .await
                    .unwrap();
            tokio::spawn(conn);
            crate::schema::migrate(&mut client).await.unwrap();
        });
        pg.psql(
            "ALTER TABLE fix_batches SET (autovacuum_enabled = false);
             INSERT INTO fix_batches (session_key, generation, first_seq, last_seq, bytes)
                 SELECT 'FIX.4.4-A-B', 1, g, g, convert_to(repeat('x', 200), 'UTF8')
                 FROM generate_series(1, 3000) g;",
        )
        .unwrap();
        let prepare = format!(
            "PREPARE page(text, bigint, bigint, bigint, bigint, bigint, bigint) AS {READ_PAGE};"
        );
        for (lo, hi) in [(1504, 3161), (10, 200), (2900, 3000)] {
            let plan = pg
                .psql(&format!(
                    "{prepare} EXPLAIN (ANALYZE, BUFFERS) EXECUTE page('FIX.4.4-A-B', 1, {lo}, {hi}, 0, 65, 262144)"
                ))
                .unwrap();
            let touched = buffers(&plan);
            // 65 rows of about 250 bytes: a few heap pages and index pages.
            assert!(
                touched <= 100,
                "{touched} buffers for a page from {lo}:\n{plan}"
            );
        }
    }
}
