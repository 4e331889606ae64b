//! Runs the built `fixstore` over stores written by fix-session's `FileStore`:
//! list, verify (intact, torn, damaged), dump (text and JSON) and set-next
//! (reopened stores see the numbers; a lowered sender needs --force; a store in use
//! is refused).
// Damage is written into the log with positioned writes (Unix's FileExt).
#![cfg(unix)]

use std::fs::{self, OpenOptions};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard};

use fix_core::Encoder;
use fix_session::{FileStore, MessageStore};
use fix_test_support::temp_dir::TestDir;

const A: &str = "FIX.4.4-CLIENT-VENUE";
const B: &str = "FIX.4.4-CLIENT-OTHER";

/// Held by each test for its whole run. A store's lock is an `flock` on an open
/// file, and a child spawned by another test thread holds a copy of every open
/// file between its fork and its exec: a store dropped in one thread could stay
/// locked for a moment while another thread spawns fixstore, and a reopen or a
/// set-next would find it in use.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

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

/// Runs fixstore, expecting `code`; returns stdout and stderr.
#[track_caller]
fn run(args: &[&str], code: i32) -> (String, String) {
    let out = fixstore(args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(
        out.status.code(),
        Some(code),
        "fixstore {args:?}\nstdout:\n{stdout}\nstderr:\n{stderr}"
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

/// Session A: a Logon and two orders sent, two messages received. Session B: one
/// Logon sent.
fn two_stores(dir: &Path) {
    let mut a = FileStore::open(dir, A).unwrap();
    a.store(1, &message(b"A", 1, "VENUE")).unwrap();
    a.store(2, &message(b"D", 2, "VENUE")).unwrap();
    a.store(3, &message(b"D", 3, "VENUE")).unwrap();
    a.advance_target_seq(1).unwrap();
    a.advance_target_seq(2).unwrap();
    let mut b = FileStore::open(dir, B).unwrap();
    b.store(1, &message(b"A", 1, "OTHER")).unwrap();
}

fn numbers(dir: &Path, id: &str) -> (u64, u64) {
    let store = FileStore::open(dir, id).unwrap();
    (store.next_sender_seq(), store.next_target_seq())
}

#[test]
fn list_and_verify_report_every_session() {
    let _serial = serial();
    let dir = TestDir::new("fixstore-verify");
    two_stores(&dir);
    let d = dir.to_str().unwrap();
    let (out, _) = run(&["list", d], 0);
    assert_eq!(out, format!("{B}\n{A}\n"));

    let (out, _) = run(&["verify", d], 0);
    let a = &out[out.find(A).unwrap()..];
    for line in [
        "records   6 (3 messages, 2 target advances, 0 sequence sets, 1 reset, 0 answers)",
        "stored    3 (1 to 3)",
        "next      sender 4, target 3",
        "state     ok",
    ] {
        assert!(a.contains(line), "{line}\nin\n{out}");
    }
    assert!(out.contains(&format!("{B}\n")) && out.contains("next      sender 2, target 1"));

    let (out, _) = run(&["verify", d, "--session", B], 0);
    assert!(!out.contains(A));
    let (out, err) = run(&["verify", d, "--session", "FIX.4.4-NO-ONE"], 1);
    assert!(out.contains("UNREADABLE"), "{out}");
    assert!(err.contains("FIX.4.4-NO-ONE: no store:"), "{err}");
    // Verify wrote nothing: no store was created for the missing session.
    assert_eq!(run(&["list", d], 0).0.lines().count(), 2);
}

#[test]
fn damage_is_named_with_file_and_offset_and_a_torn_tail_is_not_damage() {
    let _serial = serial();
    let dir = TestDir::new("fixstore-damage");
    two_stores(&dir);
    let d = dir.to_str().unwrap();
    let log = dir.join(format!("{A}.log"));
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(&log)
        .unwrap();

    // A partial record after the last one: an interrupted write.
    let end = fs::read(&log)
        .unwrap()
        .iter()
        .rposition(|&b| b != 0)
        .unwrap() as u64
        + 1;
    file.write_all_at(&[200, 0, 0, 0, 1, 9, 9], end).unwrap();
    let (out, _) = run(&["verify", d, "--session", A], 0);
    assert!(
        out.contains(&format!(
            "state     ok\n  torn tail 7 bytes at byte offset {end} (an interrupted write"
        )),
        "{out}"
    );

    // A flipped byte in the first message record (after the 8-byte header and
    // the 25-byte reset record), with valid records after it.
    let offset = 8 + 25;
    let mut byte = [0u8];
    file.read_exact_at(&mut byte, offset + 20).unwrap();
    file.write_all_at(&[byte[0] ^ 0x01], offset + 20).unwrap();
    let (out, err) = run(&["verify", d], 1);
    let named = format!(
        "corrupt store log {}: record at byte offset {offset}: checksum mismatch",
        log.display()
    );
    assert!(out.contains("DAMAGED") && out.contains(&named), "{out}");
    assert!(err.contains(&named), "{err}");
    // The other session is still reported, intact.
    assert!(out.contains(&format!("{B}\n  log")), "{out}");
    // And the damaged store cannot be changed.
    let (_, err) = run(&["set-next", d, "--session", A, "--target", "9"], 1);
    assert!(err.contains(&named), "{err}");
}

#[test]
fn verify_checks_each_stored_message_against_its_number() {
    let _serial = serial();
    let dir = TestDir::new("fixstore-messages");
    let mut store = FileStore::open(&dir, A).unwrap();
    store.store(1, &message(b"A", 1, "VENUE")).unwrap();
    store.store(2, &message(b"D", 7, "VENUE")).unwrap();
    store.store(3, b"not a FIX message").unwrap();
    let mut cut = message(b"D", 4, "VENUE");
    cut.truncate(cut.len() - 3);
    store.store(4, &cut).unwrap();
    let mut twice = message(b"0", 5, "VENUE");
    twice.extend_from_slice(&message(b"0", 6, "VENUE"));
    store.store(5, &twice).unwrap();
    drop(store);
    let d = dir.to_str().unwrap();
    let (out, err) = run(&["verify", d], 1);
    for line in [
        "state     DAMAGED: 4 of 5 stored messages are not the FIX message of their number",
        "            message 2: its MsgSeqNum (34) is 7",
        "            message 3: 17 bytes before the next `8=FIX`",
        "            message 4: it is cut short",
        "            message 5: 76 bytes follow the message's CheckSum",
    ] {
        assert!(out.contains(line), "{line}\nin\n{out}");
    }
    assert!(!out.contains("message 1:"), "{out}");
    assert!(
        err.contains(&format!(
            "{A}: 4 of 5 stored messages are not the FIX message of their number"
        )),
        "{err}"
    );
}

#[test]
fn dump_decodes_the_stored_messages_as_fixdump_does() {
    let _serial = serial();
    let dir = TestDir::new("fixstore-dump");
    two_stores(&dir);
    let d = dir.to_str().unwrap();
    let (out, _) = run(&["dump", d, "--session", A], 0);
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
    assert!(
        out.contains("   54 Side                     1 (BUY)\n"),
        "{out}"
    );

    let (out, _) = run(&["dump", d, "--json"], 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines
            .iter()
            .all(|l| l.starts_with("{\"n\":") && l.ends_with("]}"))
    );
    assert!(
        lines
            .iter()
            .any(|l| l.contains("\"msg_name\":\"NewOrderSingle\""))
    );

    // Both sessions in text: each under its name.
    let (out, _) = run(&["dump", d], 0);
    assert!(out.contains(&format!("==> {B} <==")) && out.contains(&format!("==> {A} <==")));
}

#[test]
fn set_next_changes_the_numbers_a_reopened_store_sees() {
    let _serial = serial();
    let dir = TestDir::new("fixstore-set-next");
    two_stores(&dir);
    let d = dir.to_str().unwrap();
    let (out, _) = run(
        &[
            "set-next",
            d,
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
        format!("{A}: next sender 4 -> 10, next target 3 -> 7\n")
    );
    assert_eq!(numbers(&dir, A), (10, 7));
    assert_eq!(numbers(&dir, B), (2, 1));

    // Only the target.
    run(&["set-next", d, "--session", A, "--target", "5"], 0);
    assert_eq!(numbers(&dir, A), (10, 5));

    // Lowering the sender reuses numbers the counterparty has seen.
    let (_, err) = run(&["set-next", d, "--session", A, "--sender", "3"], 2);
    assert!(
        err.contains("refusing to lower the next sender number from 10 to 3"),
        "{err}"
    );
    assert_eq!(numbers(&dir, A), (10, 5));
    run(
        &["set-next", d, "--session", A, "--sender", "3", "--force"],
        0,
    );
    assert_eq!(numbers(&dir, A), (3, 5));
    let (out, _) = run(&["verify", d, "--session", A], 0);
    assert!(out.contains("stored    2 (1 to 2)"), "{out}");

    // A store held open (by an engine, here by this test) is refused.
    let held = FileStore::open(&dir, A).unwrap();
    let (_, err) = run(&["set-next", d, "--session", A, "--target", "9"], 3);
    assert!(
        err.contains("is in use") && err.contains("stop the engine"),
        "{err}"
    );
    drop(held);
    assert_eq!(numbers(&dir, A), (3, 5));

    // A session with no store is not created by set-next.
    let (_, err) = run(
        &["set-next", d, "--session", "FIX.4.4-X-Y", "--target", "9"],
        1,
    );
    assert!(err.contains("no store"), "{err}");
    assert!(!dir.join("FIX.4.4-X-Y.log").exists());
}

#[test]
fn help_lists_the_exit_statuses_and_mistakes_are_status_2() {
    let _serial = serial();
    let (out, _) = run(&["--help"], 0);
    assert!(out.contains("Exit status:") && out.contains("  3  set-next: the store is in use"));
    let (_, err) = run(&["verify"], 2);
    assert!(err.contains("no store directory"), "{err}");
    let (_, err) = run(&["compact", "x"], 2);
    assert!(err.contains("unknown command `compact`"), "{err}");
}
