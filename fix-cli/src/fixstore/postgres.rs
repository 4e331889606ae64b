//! fixstore over the PostgreSQL store (`--postgres CONNECTION`).
//!
//! The sessions are listed from the `fix_sessions` table
//! ([`fix_store_postgres::list_sessions`]); everything else goes through the
//! store itself ([`PostgresStore`]), so fixstore reads and writes what an
//! engine would, whatever the messages' table looks like:
//!
//! - verify and dump open the session as a standby that never takes the lease
//!   (a budget of no session), and read its messages through `read_stored` a
//!   chunk at a time: they write nothing and leave a running engine alone;
//! - set-next opens it as node [`NODE`]: that takes the lease when it is free
//!   or expired (fencing off the engine that held it before), and is refused
//!   while an engine holds it. The numbers are set, committed (`sync`) and the
//!   lease let go when the store is dropped.

use std::io::Write;
use std::time::SystemTime;

use fix_session::{ChunkLimit, MessageStore, StoreError};
use fix_store_postgres::{LeaseBudget, PgConfig, PostgresStore, SessionSummary, list_sessions};

use crate::args::Args;
use crate::{Failure, MessageCheck, check_parser, timestamp, written};

/// The node name fixstore writes as the lease's owner while it sets numbers.
pub(crate) const NODE: &str = "fixstore";

/// How much one `read_stored` call brings: the store pages it further.
const CHUNK: ChunkLimit = ChunkLimit::new(1024, 4 << 20);

fn database_failure(connection: &str, e: StoreError) -> Failure {
    Failure::Store(format!("PostgreSQL store `{connection}`: {e}"))
}

/// Every session in the database.
fn summaries(connection: &str) -> Result<Vec<SessionSummary>, Failure> {
    list_sessions(&PgConfig::new(connection, NODE)).map_err(|e| database_failure(connection, e))
}

/// The sessions a command covers: `--session` (which must have a row), or
/// every session in the database.
fn selected(args: &Args, connection: &str) -> Result<Vec<SessionSummary>, Failure> {
    let all = summaries(connection)?;
    match &args.session {
        Some(id) => match all.into_iter().find(|s| &s.session_key == id) {
            Some(s) => Ok(vec![s]),
            None => Err(no_session(id)),
        },
        None if all.is_empty() => Err(Failure::Store(
            "no sessions in the database (fix_sessions has no rows)".into(),
        )),
        None => Ok(all),
    }
}

fn no_session(id: &str) -> Failure {
    Failure::Store(format!(
        "{id}: no such session in the database (see fixstore list)"
    ))
}

/// The lease as `list` and `verify` show it.
fn lease(s: &SessionSummary) -> String {
    let until = s.lease_expiry.map_or_else(String::new, timestamp);
    match &s.owner {
        None => "free (never taken)".to_owned(),
        Some(owner) if s.lease_live => {
            format!("live: held by {owner}, epoch {}, until {until}", s.epoch)
        }
        Some(owner) => format!(
            "free: last held by {owner}, epoch {}, expired {until}",
            s.epoch
        ),
    }
}

pub(crate) fn list(connection: &str, out: &mut impl Write) -> Result<(), Failure> {
    let all = summaries(connection)?;
    let width = all.iter().map(|s| s.session_key.len()).max().unwrap_or(0);
    let text: String = all
        .iter()
        .map(|s| {
            format!(
                "{:<width$}  next sender {}, target {}  generation {}  lease {}\n",
                s.session_key,
                s.next_sender,
                s.next_target,
                s.generation,
                lease(s)
            )
        })
        .collect();
    written(out.write_all(text.as_bytes()))
}

/// Opens `id` as a standby that never takes the lease: reads only.
fn open_reader(connection: &str, id: &str) -> Result<PostgresStore, StoreError> {
    let config = PgConfig::new(connection, NODE).budget(LeaseBudget::new(0));
    PostgresStore::open(&config, id, SystemTime::now())
}

/// Reads every message the store holds, a chunk at a time, in order.
fn read_all(
    store: &mut PostgresStore,
    visit: &mut dyn FnMut(u64, &[u8]),
) -> Result<(), StoreError> {
    let mut from = 1;
    loop {
        let chunk = store.read_stored(from, u64::MAX, CHUNK, visit)?;
        match chunk.resume_at {
            // A chunk always takes its first message; this is a guard only.
            Some(_) if chunk.messages == 0 => {
                return Err(StoreError::Database {
                    op: "read stored messages",
                    source: format!("no progress at {from}").into(),
                });
            }
            Some(at) => from = at,
            None => return Ok(()),
        }
    }
}

pub(crate) fn verify(args: &Args, connection: &str, out: &mut impl Write) -> Result<(), Failure> {
    let mut failed = Vec::new();
    let parser = check_parser();
    for summary in selected(args, connection)? {
        let id = &summary.session_key;
        let checked = open_reader(connection, id).and_then(|mut store| {
            let mut check = MessageCheck::default();
            read_all(&mut store, &mut |seq, bytes| check.add(&parser, seq, bytes))?;
            Ok((store, check))
        });
        let report = match checked {
            Ok((store, check)) => {
                failed.extend(check.failure(id));
                format!(
                    "{id}\n  database  generation {}\n  stored    {}\n  \
                     next      sender {}, target {}\n  created   {}\n  lease     {}\n  \
                     state     {}\n\n",
                    summary.generation,
                    check.stored(),
                    store.next_sender_seq(),
                    store.next_target_seq(),
                    timestamp(store.creation_time()),
                    lease(&summary),
                    check.state(),
                )
            }
            Err(e) => {
                failed.push(format!("{id}: {e}"));
                format!("{id}\n  UNREADABLE {e}\n\n")
            }
        };
        written(out.write_all(report.as_bytes()))?;
    }
    match failed.len() {
        0 => Ok(()),
        _ => Err(Failure::Store(failed.join("\n"))),
    }
}

pub(crate) fn dump(args: &Args, connection: &str, out: &mut impl Write) -> Result<(), Failure> {
    let ids = selected(args, connection)?
        .into_iter()
        .map(|s| s.session_key)
        .collect();
    crate::dump(args, ids, out, &mut |id, visit| {
        let failed = |e: StoreError| Failure::Store(format!("{id}: {e}"));
        let mut store = open_reader(connection, id).map_err(failed)?;
        read_all(&mut store, visit).map_err(failed)
    })
}

pub(crate) fn set_next(args: &Args, connection: &str, out: &mut impl Write) -> Result<(), Failure> {
    // set_next's arguments are checked: a session, and a number to set.
    let id = args.session.as_deref().unwrap_or_default();
    let failed = |e: StoreError| Failure::Store(format!("{id}: {e}"));
    // A missing session is an error here, where opening the store would make
    // its row.
    let summary = selected(args, connection)?.remove(0);
    // A refusal by the row's numbers takes no lease (it would fence off the
    // engine that let it lapse): the numbers are read again under the lease.
    if lowering(args, summary.next_sender) {
        let mut reader = open_reader(connection, id).map_err(failed)?;
        return Err(refuse_lowering(args, &mut reader, summary.next_sender));
    }
    let config = PgConfig::new(connection, NODE);
    let mut store = PostgresStore::open(&config, id, SystemTime::now()).map_err(failed)?;
    if !store.holds_lease() {
        drop(store);
        return Err(in_use(connection, id));
    }
    let epoch = store.epoch().unwrap_or_default();
    let (sender, target) = (store.next_sender_seq(), store.next_target_seq());
    if lowering(args, sender) {
        return Err(refuse_lowering(args, &mut store, sender));
    }
    if let Some(n) = args.sender {
        store.set_next_sender_seq(n).map_err(failed)?;
    }
    if let Some(m) = args.target {
        store.set_next_target_seq(m).map_err(failed)?;
    }
    store.sync().map_err(failed)?;
    let report = format!(
        "{id}: next sender {sender} -> {}, next target {target} -> {} (lease epoch {epoch}, let go)\n",
        store.next_sender_seq(),
        store.next_target_seq()
    );
    // Lets the lease go: an engine may take the session at once.
    drop(store);
    written(out.write_all(report.as_bytes()))
}

/// Whether set-next would lower the next sender number from `sender` without
/// --force.
fn lowering(args: &Args, sender: u64) -> bool {
    args.sender.is_some_and(|n| n < sender) && !args.force
}

/// The refusal to lower the sender number, naming the messages it would drop.
fn refuse_lowering(args: &Args, store: &mut PostgresStore, sender: u64) -> Failure {
    let id = args.session.as_deref().unwrap_or_default();
    let n = args.sender.unwrap_or(sender);
    let mut first = None;
    let read = store.read_stored(n, u64::MAX, ChunkLimit::new(1, 0), &mut |seq, _| {
        first = Some(seq)
    });
    if let Err(e) = read {
        return Failure::Store(format!("{id}: {e}"));
    }
    let dropped = first.map_or_else(String::new, |first| {
        format!(", and the stored messages from {first} on would be dropped")
    });
    Failure::Usage(format!(
        "{id}: refusing to lower the next sender number from {sender} to {n}: the \
         counterparty has seen those numbers (it logs out on a MsgSeqNum too low){dropped}; \
         --force does it anyway"
    ))
}

/// set-next found the lease held: names who holds it, as the table says now.
fn in_use(connection: &str, id: &str) -> Failure {
    let now = summaries(connection)
        .ok()
        .and_then(|all| all.into_iter().find(|s| s.session_key == id));
    match now {
        Some(s) if s.lease_live => Failure::InUse(format!(
            "{id}: the engine `{}` holds this session's lease (epoch {}, until {}); set-next \
             writes nothing behind a live engine: stop it (its store lets the lease go) or \
             wait for its lease to expire, then run set-next again; nothing was changed",
            s.owner.as_deref().unwrap_or("unknown"),
            s.epoch,
            s.lease_expiry.map_or_else(String::new, timestamp),
        )),
        _ => Failure::InUse(format!(
            "{id}: another engine held this session's lease when set-next opened it, and has \
             let it go since; nothing was changed: run set-next again"
        )),
    }
}
