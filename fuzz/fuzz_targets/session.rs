//! A session fed arbitrary operations: raw byte chunks, well-framed messages of
//! any type with fuzzed MsgSeqNum, flags and body (so the session's rules, not
//! only its framer, are reached), a Logon whose every field is fuzzed
//! (HeartBtInt, ResetSeqNumFlag, NextExpectedMsgSeqNum, SendingTime, CompIDs), time passing on the
//! monotonic clock while the wall clock jumps either way, application sends,
//! reconnects. The first byte picks the role (acceptor or initiator) and the
//! store (memory, or a real file store syncing by batch: group commit, the
//! session holding messages back until it syncs, as the engine does once a
//! step; or, with the first byte's bit 3, the sync split in three with each
//! job ending a step later, across resets and reconnects, as the engine
//! overlaps it with its next reads). It must never panic, and its buffers
//! stay bounded: output is drained after every step, and nothing it holds grows
//! past what the input could explain.
#![no_main]

use std::cell::RefCell;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_session::{
    Application, Event, FileOptions, FileStore, MemoryStore, MessageStore, Outbox, Role, Session,
    SessionConfig, SessionId, SyncPolicy, Time,
};
use libfuzzer_sys::fuzz_target;

struct Echo;
impl Application for Echo {
    fn from_app(
        &mut self,
        msg: &fix_core::Message<'_>,
        out: &mut Outbox,
    ) -> Result<(), fix_session::AppReject> {
        let body: Vec<(u32, &[u8])> = msg
            .iter()
            .filter(|(t, _)| !fix_session::is_header_or_trailer(*t))
            .collect();
        out.send_fields(msg.msg_type(), body.iter().copied());
        Ok(())
    }
}

const TYPES: [&[u8]; 10] = [b"0", b"1", b"2", b"3", b"4", b"5", b"A", b"D", b"8", b"ZZ"];

/// Values a Logon's numbers take: in range, at the bounds, past them, signed,
/// not numbers.
const NUMBERS: [&str; 10] = [
    "30",
    "0",
    "86400",
    "86401",
    "-30",
    "9000000000000000000",
    "18446744073709551615",
    "99999999999999999999999",
    "3x",
    "",
];

/// Polls every event, as a transport does after each input: a message
/// event's bytes are there until the next input, whole: a received one is
/// one framed message (the log shows what the session framed, nothing else);
/// a sent one parses as one whole message (the session refuses a body that
/// is not FIX fields).
fn drain_events<S: MessageStore>(s: &mut Session<S, &'static fix_core::typed::Tables>) {
    let parser = fix_core::Parser::new().with_checksum_validation(false);
    while let Some(event) = s.poll_event() {
        match &event {
            Event::Received(m) => {
                let bytes = s.message_bytes(m).expect("a message event's bytes until the next input");
                let frame = parser.frame(bytes).ok().and_then(|st| st.complete());
                assert_eq!(frame.map(|f| f.len()), Some(bytes.len()), "one whole message: {event:?}");
            }
            Event::Sent(m) => {
                let bytes = s.message_bytes(m).expect("a message event's bytes until the next input");
                assert!(bytes.starts_with(b"8=FIX.4.4\x019="), "{event:?}");
                // Whatever body the application gave, what leaves parses as
                // one whole message, every field indexed (check_outgoing).
                let mut fields = fix_core::Fields::<1024>::new();
                let parsed = fix_core::Parser::new().parse(bytes, &mut fields);
                let whole = matches!(&parsed, Ok(fix_core::Status::Complete(msg)) if msg.bytes().len() == bytes.len());
                assert!(whole, "{event:?}: {:?}", parsed.map(|_| ()));
            }
            _ => {}
        }
    }
}

fn frame(
    msg_type: &[u8],
    seq: u64,
    poss_dup: bool,
    sending: SystemTime,
    comp_ids: (&str, &str),
    body: &[u8],
) -> Vec<u8> {
    let ts = fix_session::time::format_timestamp(sending);
    let mut rest = format!("35={}\x0134={seq}\x01", String::from_utf8_lossy(msg_type)).into_bytes();
    if poss_dup {
        rest.extend_from_slice(b"43=Y\x01122=");
        rest.extend_from_slice(&ts);
        rest.push(1);
    }
    rest.extend_from_slice(format!("49={}\x0152=", comp_ids.0).as_bytes());
    rest.extend_from_slice(&ts);
    rest.extend_from_slice(format!("\x0156={}\x01", comp_ids.1).as_bytes());
    rest.extend_from_slice(body);
    let mut m = format!("8=FIX.4.4\x019={}\x01", rest.len()).into_bytes();
    m.extend_from_slice(&rest);
    let sum = m.iter().fold(0u8, |s, &b| s.wrapping_add(b));
    m.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    m
}

/// A Logon from the counterparty whose fields `a` and `b` pick.
fn logon(a: u8, b: u8, now: Time, ids: (&str, &str)) -> Vec<u8> {
    let hb = NUMBERS[usize::from(a) % NUMBERS.len()];
    let mut body = format!("98=0\x01108={hb}\x01");
    if a & 0x10 != 0 {
        body.push_str("141=Y\x01");
    }
    if a & 0x40 != 0 {
        // NextExpectedMsgSeqNum: small (below, at or above the next number
        // sent), or one of the odd values.
        let next = if b & 0x80 != 0 {
            NUMBERS[usize::from(b) % NUMBERS.len()].to_owned()
        } else {
            u64::from(b & 0x0f).to_string()
        };
        body.push_str(&format!("789={next}\x01"));
    }
    // SendingTime: now, or off by seconds to days either way.
    let skew = Duration::from_secs(u64::from(b >> 2).pow(3));
    let sending = if b & 1 == 0 {
        now.wall + skew
    } else {
        now.wall.checked_sub(skew).unwrap_or(now.wall)
    };
    let ids = if b & 2 != 0 { ("INTRUDER", ids.1) } else { ids };
    let seq = if a & 0x20 != 0 { u64::from(b) } else { 1 };
    frame(b"A", seq, false, sending, ids, body.as_bytes())
}

thread_local! {
    /// One file store for the runs that use one, reset at each run's start.
    static FILE: RefCell<Option<FileStore>> = const { RefCell::new(None) };
}

fn file_store() -> FileStore {
    FILE.with(|f| f.borrow_mut().take()).unwrap_or_else(|| {
        // On tmpfs where there is one: a sync costs nothing there, and a file
        // store's resets (every Logon with ResetSeqNumFlag=Y) sync.
        let shm = std::path::Path::new("/dev/shm");
        let base = if shm.is_dir() { shm.to_path_buf() } else { std::env::temp_dir() };
        let dir = base.join(format!("fuzz-session-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        FileStore::open_with(&dir, "FIX.4.4-ISLD-TW", FileOptions::new().sync(SyncPolicy::Batch).inline_sync_below(0))
            .expect("the fuzz store opens")
    })
}

/// The store a run uses: memory, or the file store put back after it.
enum Store {
    Memory(MemoryStore),
    File(FileStore),
}

/// `overlap`: syncs split in three, each job ending only after the next
/// step, as the engine overlaps a sync with its next reads.
fn run<S: MessageStore>(
    mut s: Session<S, &'static fix_core::typed::Tables>,
    role: Role,
    overlap: bool,
    data: &[u8],
) -> S {
    let mut pending: Option<fix_session::store::SyncJob> = None;
    let mut wall = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    let mut mono = Duration::from_secs(1000);
    let ids = ("TW", "ISLD");
    let mut app = Echo;
    let now = Time::new(wall, mono);
    s.connected(now, &mut app).unwrap();
    let mut fed = 0usize;
    if role == Role::Acceptor {
        let logon = frame(b"A", 1, false, wall, ids, b"98=0\x01108=30\x01");
        fed += logon.len();
        s.handle_bytes(now, &logon, &mut app).unwrap();
    }
    let mut ops = data;
    while let Some((&op, rest)) = ops.split_first() {
        let (&arg, rest) = rest.split_first().unwrap_or((&0, &[]));
        let take = usize::from(arg).min(rest.len());
        let (chunk, rest) = rest.split_at(take);
        ops = rest;
        fed += chunk.len() + 64;
        let now = Time::new(wall, mono);
        match op % 8 {
            0 => s.handle_bytes(now, chunk, &mut app).unwrap(),
            1 | 2 => {
                let t = TYPES[usize::from(arg) % TYPES.len()];
                let expected = s.store().next_target_seq();
                let seq = match op / 8 % 4 {
                    0 => expected,
                    1 => expected + u64::from(arg % 5),
                    2 => expected.saturating_sub(u64::from(arg % 3)),
                    _ => u64::from(arg),
                };
                let m = frame(t, seq, op & 64 != 0, wall, ids, chunk);
                fed += m.len();
                s.handle_bytes(now, &m, &mut app).unwrap();
            }
            3 => {
                // Time passes on the monotonic clock; the wall clock follows,
                // or steps (NTP, an operator) up to a day either way.
                mono += Duration::from_millis(u64::from(arg) * 250);
                let step = Duration::from_secs(u64::from(op >> 3).pow(3));
                wall = match op & 0x80 {
                    0 => wall + Duration::from_millis(u64::from(arg) * 250),
                    _ if op & 0x40 != 0 => wall + step,
                    _ => wall.checked_sub(step).unwrap_or(wall),
                };
                s.handle_timeout(Time::new(wall, mono), &mut app).unwrap();
            }
            4 => {
                let _ = s.send(now, b"D", chunk, &mut app);
            }
            5 => {
                let m = logon(arg, chunk.first().copied().unwrap_or(0), now, ids);
                fed += m.len();
                s.handle_bytes(now, &m, &mut app).unwrap();
            }
            6 => {
                let _ = s.logout(now, None, &mut app);
            }
            _ => {
                s.disconnected(now, &mut app).unwrap();
                if arg & 1 != 0 {
                    s.reset_on_next_logon();
                }
                s.connected(now, &mut app).unwrap();
                let m = logon(arg, chunk.first().copied().unwrap_or(0), now, ids);
                fed += m.len();
                s.handle_bytes(now, &m, &mut app).unwrap();
            }
        }
        if let Some(due) = s.poll_timeout() {
            // Deadlines are on the monotonic clock, whatever the wall does.
            assert!(due.mono + Duration::from_secs(300) > mono || s.wants_disconnect());
        }
        // Received bytes held: a partial message (the parser's bound) and the
        // queue ahead of a gap (its bound), never more.
        assert!(s.received_len() <= (16 << 20) + (64 << 10) + 4096);
        // Held back until a sync under group commit: nothing stored and
        // unsynced is handed out. The transport syncs once a step, or ends
        // the job begun a step ago and begins the next.
        if overlap {
            if let Some(job) = pending.take() {
                s.end_sync(job.run()).unwrap();
            }
            pending = s.begin_sync().unwrap();
        } else {
            if s.needs_sync() {
                s.sync().unwrap();
            }
            assert!(!s.needs_sync());
        }
        // A resend may answer one small request with many stored messages, but
        // never with more than everything the session was ever fed or sent.
        assert!(s.output().len() <= 64 * fed + 8192, "output {} for {fed} fed", s.output().len());
        let n = s.output().len();
        s.consume_output(n);
        drain_events(&mut s);
        if s.wants_disconnect() {
            let now = Time::new(wall, mono);
            s.disconnected(now, &mut app).unwrap();
            s.connected(now, &mut app).unwrap();
            if role == Role::Acceptor {
                let m = frame(b"A", 1, false, wall, ids, b"98=0\x01108=30\x01141=Y\x01");
                s.handle_bytes(now, &m, &mut app).unwrap();
            }
        }
    }
    if let Some(job) = pending.take() {
        s.end_sync(job.run()).unwrap();
    }
    s.into_store()
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, data)) = data.split_first() else {
        return;
    };
    let role = if mode & 1 == 0 { Role::Acceptor } else { Role::Initiator };
    let overlap = mode & 8 != 0;
    let id = match role {
        Role::Acceptor => SessionId::new("FIX.4.4", "ISLD", "TW"),
        Role::Initiator => SessionId::new("FIX.4.4", "ISLD", "TW"),
    };
    let mut config = SessionConfig::new(id, role);
    config.max_queued_bytes = 16 << 20;
    // Bit 4: every message told as an event with its bytes, as the engine
    // asks when it keeps a message log.
    config.message_events = mode & 16 != 0;
    let store = if mode & 6 == 0 {
        let mut f = file_store();
        f.reset(UNIX_EPOCH + Duration::from_secs(1_790_000_000)).unwrap();
        Store::File(f)
    } else {
        Store::Memory(MemoryStore::new())
    };
    match store {
        Store::Memory(m) => {
            run(Session::new(config, m, &fix44::DICTIONARY), role, overlap, data);
        }
        Store::File(f) => {
            let f = run(Session::new(config, f, &fix44::DICTIONARY), role, overlap, data);
            FILE.with(|slot| *slot.borrow_mut() = Some(f));
        }
    }
});
