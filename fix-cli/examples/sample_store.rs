//! Writes what an engine leaves of a short session, for trying `fixstore` and
//! `fixdump` on: `DIR/store/`, fix-session's file store of `FIX.4.4-DESK-VENUE`
//! (the messages DESK sent, the numbers of both sides), and `DIR/log/`, the
//! session's message and event logs as fix-engine's `FileLog` writes them.
//! With `--postgres CONNECTION` (a libpq connection string, as
//! `PostgreSQLStoreConnection`), the same session in that database's
//! PostgreSQL store instead, its lease let go at the end (no logs).
//!
//! ```text
//! cargo run -p fix-cli --example sample_store -- /tmp/fix-demo
//! fixstore verify /tmp/fix-demo/store
//! fixdump /tmp/fix-demo/log/FIX.4.4-DESK-VENUE.messages.current.log
//! cargo run -p fix-cli --example sample_store -- --postgres "host=/tmp/fix-pg user=fix dbname=fix"
//! fixstore list --postgres "host=/tmp/fix-pg user=fix dbname=fix"
//! ```

use std::error::Error;
use std::time::{Duration, SystemTime};

use fix_core::Encoder;
use fix_engine::log::{FileLog, Log};
use fix_session::{FileStore, MessageStore, SessionId};
use fix_store_postgres::{PgConfig, PostgresStore};

const USAGE: &str = "usage: sample_store DIR | sample_store --postgres CONNECTION";

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args_os().skip(1);
    let first = args.next().ok_or(USAGE)?;
    let id = SessionId::new("FIX.4.4", "DESK", "VENUE");
    if first == "--postgres" {
        let connection = args.next().ok_or(USAGE)?;
        let connection = connection
            .to_str()
            .ok_or("the connection string is not UTF-8")?;
        let config = PgConfig::new(connection, "sample_store");
        let mut store = PostgresStore::open(&config, &id.store_name(), SystemTime::now())?;
        if !store.holds_lease() {
            return Err(format!("{}: another engine holds its lease", id.store_name()).into());
        }
        write_session(&id, &mut store, None)?;
        // Dropped: the lease is let go, so fixstore set-next can take it at once.
        println!("the PostgreSQL store of {}", describe(&id, &store));
        return Ok(());
    }
    let dir = std::path::PathBuf::from(first);
    let mut store = FileStore::open(dir.join("store"), &id.store_name())?;
    let mut log = FileLog::open(dir.join("log"), &id)?;
    write_session(&id, &mut store, Some(&mut log))?;
    println!(
        "{}: store of {} and its logs",
        dir.display(),
        describe(&id, &store)
    );
    Ok(())
}

/// The session's name and next numbers.
fn describe(id: &SessionId, store: &impl MessageStore) -> String {
    format!(
        "{} (next sender {}, next target {})",
        id.store_name(),
        store.next_sender_seq(),
        store.next_target_seq()
    )
}

/// The short session, stored (what DESK sent, the numbers of both sides) and,
/// given a log, logged as an engine logs it.
fn write_session(
    id: &SessionId,
    store: &mut impl MessageStore,
    mut log: Option<&mut FileLog>,
) -> Result<(), Box<dyn Error>> {
    if store.next_sender_seq() != 1 {
        return Err(format!("{} already holds a session", id.store_name()).into());
    }
    let mut now = SystemTime::now();
    if let Some(log) = log.as_deref_mut() {
        log.on_event("Initiated logon request", now)?;
    }
    // (DESK sends?, MsgType)
    let traffic: [(bool, &[u8]); 6] = [
        (true, b"A"),
        (false, b"A"),
        (true, b"D"),
        (false, b"8"),
        (true, b"5"),
        (false, b"5"),
    ];
    let mut buf = [0u8; 512];
    for (ours, msg_type) in traffic {
        now += Duration::from_millis(12);
        let (sender, target, seq) = match ours {
            true => ("DESK", "VENUE", store.next_sender_seq()),
            false => ("VENUE", "DESK", store.next_target_seq()),
        };
        let mut enc = Encoder::new(&mut buf, b"FIX.4.4", msg_type);
        enc.raw(49, sender.as_bytes())?;
        enc.raw(56, target.as_bytes())?;
        enc.raw(34, seq.to_string().as_bytes())?;
        enc.raw(52, b"20261130-09:00:00.000")?;
        match msg_type {
            b"A" => {
                enc.raw(98, b"0")?;
                enc.raw(108, b"30")?;
            }
            b"D" => {
                enc.raw(11, b"CL-1")?;
                enc.raw(55, b"IBM")?;
                enc.raw(54, b"1")?;
                enc.raw(60, b"20261130-09:00:00.000")?;
                enc.raw(38, b"100")?;
                enc.raw(40, b"1")?;
            }
            b"8" => {
                enc.raw(37, b"O-1")?;
                enc.raw(11, b"CL-1")?;
                enc.raw(17, b"E-1")?;
                enc.raw(150, b"0")?;
                enc.raw(39, b"0")?;
                enc.raw(55, b"IBM")?;
                enc.raw(54, b"1")?;
                enc.raw(151, b"100")?;
                enc.raw(14, b"0")?;
                enc.raw(6, b"0")?;
            }
            _ => {}
        }
        let message = enc.finish()?;
        if ours {
            store.store(seq, message)?; // stored, then sent
            if let Some(log) = log.as_deref_mut() {
                log.on_outgoing(message, now)?;
            }
        } else {
            if let Some(log) = log.as_deref_mut() {
                log.on_incoming(message, now)?;
            }
            store.advance_target_seq(seq)?;
        }
    }
    // Durable (committed, for PostgreSQL) before the program ends.
    store.sync()?;
    if let Some(log) = log {
        log.on_event("Disconnecting", now)?;
    }
    Ok(())
}
