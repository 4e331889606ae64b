//! Runs the built `fixstore --postgres` over sessions written by
//! fix-store-postgres's `PostgresStore` as an engine writes them (store, set
//! numbers, sync), on a private PostgreSQL server per test: list (numbers,
//! owners, live leases), verify (intact and wrong messages), dump, and
//! set-next, which takes the lease: refused while an engine holds it (and
//! changes nothing), done once the lease is free or expired (fencing the
//! engine that let it lapse).

use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

use fix_core::Encoder;
use fix_session::{ChunkLimit, MessageStore, StoreError};
use fix_store_postgres::{PgConfig, PostgresStore};
use fix_test_support::pg::PgServer;

const A: &str = "FIX.4.4-CLIENT-VENUE";
const B: &str = "FIX.4.4-CLIENT-OTHER";

fn fixstore(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fixstore"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("fixstore runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

/// Runs fixstore on the server's database, expecting `code`; returns stdout
/// and stderr.
#[track_caller]
fn run(pg: &PgServer, args: &[&str], code: i32) -> (String, String) {
    let connection = pg.connection_string();
    let mut all = args.to_vec();
    all.extend(["--postgres", &connection]);
    let out = fixstore(&all);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(code),
        "fixstore {all:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
    );
    (stdout, stderr)
}

/// Message `seq` of type `msg_type` from CLIENT to `target`, BodyLength and
/// CheckSum right.
fn message(msg_type: &[u8], seq: u64, target: &str) -> Vec<u8> {
    let mut buf = [0u8; 256];
    let mut enc = Encoder::new(&mut buf, b"FIX.4.4", msg_type);
    enc.raw(49, b"CLIENT").unwrap();
    enc.raw(56, target.as_bytes()).unwrap();
    enc.raw(34, seq.to_string().as_bytes()).unwrap();
    enc.raw(52, b"20261130-09:00:00.000").unwrap();
    if msg_type == b"D" {
        enc.raw(11, format!("CL-{seq}").as_bytes()).unwrap();
        enc.raw(54, b"1").unwrap();
    }
    enc.finish().unwrap().to_vec()
}

/// An engine's store of session `id` on node `node`, holding the lease.
fn engine(pg: &PgServer, node: &str, id: &str, lease: Duration) -> PostgresStore {
    let config = PgConfig::new(pg.connection_string(), node).lease(lease);
    let store = PostgresStore::open(&config, id, SystemTime::now()).unwrap();
    assert!(store.holds_lease(), "{node} takes {id}'s lease");
    store
}

/// Session A as an engine leaves it: a Logon and two orders sent, two
/// messages received, committed.
fn session_a(store: &mut PostgresStore) {
    store.store(1, &message(b"A", 1, "VENUE")).unwrap();
    store.store(2, &message(b"D", 2, "VENUE")).unwrap();
    store.store(3, &message(b"D", 3, "VENUE")).unwrap();
    store.set_next_target_seq(3).unwrap();
    store.sync().unwrap();
}

/// `id`'s line of `fixstore list`.
#[track_caller]
fn listed(pg: &PgServer, id: &str) -> String {
    let (out, _) = run(pg, &["list"], 0);
    out.lines()
        .find(|l| l.starts_with(&format!("{id} ")))
        .unwrap_or_else(|| panic!("{id} in\n{out}"))
        .to_owned()
}

/// The stored messages' numbers, as a store opened by `node` reads them.
fn stored(store: &mut PostgresStore) -> Vec<u64> {
    let mut seqs = Vec::new();
    let limit = ChunkLimit::new(1000, usize::MAX);
    let chunk = store
        .read_stored(1, u64::MAX, limit, &mut |seq, _| seqs.push(seq))
        .unwrap();
    assert_eq!(chunk.resume_at, None);
    seqs
}

#[test]
fn list_verify_and_dump_read_without_taking_the_lease() {
    let Some(pg) = PgServer::start_or_skip("fixstore-read") else {
        return;
    };
    let mut a = engine(&pg, "engine-a", A, Duration::from_secs(10));
    session_a(&mut a);
    let mut b = engine(&pg, "engine-b", B, Duration::from_secs(10));
    b.store(1, &message(b"A", 1, "OTHER")).unwrap();
    b.sync().unwrap();
    // A clean stop: engine-b lets its lease go.
    drop(b);

    let (out, _) = run(&pg, &["list"], 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    // By key, the keys padded to one width.
    assert!(lines[0].starts_with(&format!("{B}  next sender 2, target 1  generation 1  ")));
    assert!(lines[1].starts_with(&format!("{A}  next sender 4, target 3  generation 1  ")));
    assert!(
        lines[0].contains("lease free: last held by engine-b, epoch 1, expired 2"),
        "{out}"
    );
    assert!(
        lines[1].contains("lease live: held by engine-a, epoch 1, until 2"),
        "{out}"
    );

    let (out, _) = run(&pg, &["verify"], 0);
    let at_a = &out[out.find(&format!("{A}\n")).unwrap()..];
    for line in [
        "  database  generation 1\n".to_owned(),
        "  stored    3 (1 to 3)\n".to_owned(),
        "  next      sender 4, target 3\n".to_owned(),
        "  lease     live: held by engine-a, epoch 1, until ".to_owned(),
        "  state     ok\n".to_owned(),
    ] {
        assert!(at_a.contains(&line), "{line}\nin\n{out}");
    }
    assert!(
        out.contains(&format!("{B}\n  database"))
            && out.contains("  stored    1 (1 to 1)\n  next      sender 2, target 1\n"),
        "{out}"
    );

    let (out, _) = run(&pg, &["dump", "--session", A], 0);
    let headers: Vec<&str> = out.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(
        headers,
        [
            "#1 Logon (35=A)  CLIENT -> VENUE  seq 1",
            "#2 NewOrderSingle (35=D)  CLIENT -> VENUE  seq 2",
            "#3 NewOrderSingle (35=D)  CLIENT -> VENUE  seq 3",
        ]
    );
    assert!(
        out.contains("   11 ClOrdID                  CL-2\n"),
        "{out}"
    );
    let (out, _) = run(&pg, &["dump", "--json"], 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines.iter().all(|l| l.starts_with("{\"n\":")));
    let (out, _) = run(&pg, &["dump"], 0);
    assert!(out.contains(&format!("==> {B} <==")) && out.contains(&format!("==> {A} <==")));

    // A missing session is an error, and is not made by reading it.
    let (out, err) = run(&pg, &["verify", "--session", "FIX.4.4-NO-ONE"], 1);
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("FIX.4.4-NO-ONE: no such session"), "{err}");
    run(&pg, &["dump", "--session", "FIX.4.4-NO-ONE"], 1);
    assert_eq!(run(&pg, &["list"], 0).0.lines().count(), 2);

    // Reading took nothing from the engine: its lease, epoch and writes go on.
    assert_eq!(a.epoch(), Some(1));
    assert!(listed(&pg, A).contains("live: held by engine-a, epoch 1,"));
    a.store(4, &message(b"0", 4, "VENUE")).unwrap();
    // Stored wrong: not a FIX message, and another number's message.
    a.store(5, b"not a FIX message").unwrap();
    a.store(6, &message(b"0", 9, "VENUE")).unwrap();
    a.sync().unwrap();
    let (out, err) = run(&pg, &["verify", "--session", A], 1);
    for line in [
        "  stored    6 (1 to 6)\n",
        "  state     DAMAGED: 2 of 6 stored messages are not the FIX message of their number",
        "            message 5: ",
        "            message 6: its MsgSeqNum (34) is 9",
    ] {
        assert!(out.contains(line), "{line}\nin\n{out}");
    }
    assert!(!out.contains("message 4:"), "{out}");
    assert!(
        err.contains(&format!(
            "{A}: 2 of 6 stored messages are not the FIX message of their number"
        )),
        "{err}"
    );
}

#[test]
fn set_next_goes_through_the_lease() {
    let Some(pg) = PgServer::start_or_skip("fixstore-set") else {
        return;
    };
    let mut a = engine(&pg, "engine-a", A, Duration::from_secs(2));
    session_a(&mut a);

    // An engine holds the lease: refused, named, nothing changed.
    let (out, err) = run(&pg, &["set-next", "--session", A, "--target", "7"], 3);
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("the engine `engine-a` holds this session's lease (epoch 1, until ")
            && err.contains("nothing was changed"),
        "{err}"
    );
    let line = listed(&pg, A);
    assert!(
        line.contains("next sender 4, target 3")
            && line.contains("live: held by engine-a, epoch 1,"),
        "{line}"
    );
    // And the engine goes on under the same lease.
    a.store(4, &message(b"0", 4, "VENUE")).unwrap();
    a.sync().unwrap();

    // The engine stops renewing (hung, cut off): once its lease has expired,
    // set-next takes it, sets the numbers and lets it go.
    a.pause_renewal(true);
    std::thread::sleep(Duration::from_millis(2500));
    assert!(listed(&pg, A).contains("lease free: last held by engine-a"));
    let (out, _) = run(
        &pg,
        &[
            "set-next",
            "--session",
            A,
            "--sender",
            "10",
            "--target",
            "7",
        ],
        0,
    );
    assert_eq!(
        out,
        format!("{A}: next sender 5 -> 10, next target 3 -> 7 (lease epoch 2, let go)\n")
    );
    let line = listed(&pg, A);
    assert!(
        line.contains("next sender 10, target 7")
            && line.contains("lease free: last held by fixstore, epoch 2,"),
        "{line}"
    );
    // The old holder is fenced: its late write changes nothing.
    let late = a
        .store(5, &message(b"0", 5, "VENUE"))
        .and_then(|()| a.sync());
    assert!(matches!(late, Err(StoreError::Fenced { .. })), "{late:?}");
    drop(a);

    // The next engine starts from the numbers set, with the messages kept.
    let mut b = engine(&pg, "engine-b", A, Duration::from_secs(10));
    assert_eq!((b.next_sender_seq(), b.next_target_seq()), (10, 7));
    assert_eq!(b.epoch(), Some(3));
    assert_eq!(stored(&mut b), [1, 2, 3, 4]);
    // Only the target, while engine-b holds the lease: refused.
    let (_, err) = run(&pg, &["set-next", "--session", A, "--target", "8"], 3);
    assert!(err.contains("`engine-b`"), "{err}");
    drop(b);
    run(&pg, &["set-next", "--session", A, "--target", "8"], 0);
    assert!(listed(&pg, A).contains("next sender 10, target 8"));

    // Lowering the sender reuses numbers the counterparty has seen.
    let (_, err) = run(&pg, &["set-next", "--session", A, "--sender", "3"], 2);
    assert!(
        err.contains("refusing to lower the next sender number from 10 to 3")
            && err.contains("the stored messages from 3 on would be dropped"),
        "{err}"
    );
    // Refused by the row's numbers: no lease taken (epoch 4 still).
    let line = listed(&pg, A);
    assert!(
        line.contains("next sender 10, target 8") && line.contains("fixstore, epoch 4,"),
        "{line}"
    );
    run(
        &pg,
        &["set-next", "--session", A, "--sender", "3", "--force"],
        0,
    );
    let (out, _) = run(&pg, &["verify", "--session", A], 0);
    assert!(
        out.contains("  stored    2 (1 to 2)\n  next      sender 3, target 8\n"),
        "{out}"
    );

    // A session with no row is not made by set-next.
    let (_, err) = run(
        &pg,
        &["set-next", "--session", "FIX.4.4-X-Y", "--target", "9"],
        1,
    );
    assert!(err.contains("FIX.4.4-X-Y: no such session"), "{err}");
    assert!(!run(&pg, &["list"], 0).0.contains("FIX.4.4-X-Y"));
}

#[test]
fn an_unreachable_database_is_named_and_status_1() {
    let out = fixstore(&[
        "list",
        "--postgres",
        "host=/nonexistent/fixstore-test user=postgres dbname=postgres",
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("PostgreSQL store `host=/nonexistent/fixstore-test"),
        "{err}"
    );
    let out = fixstore(&["--help"]);
    assert!(text(&out.stdout).contains("--postgres CONN"));
}
