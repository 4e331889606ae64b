//! A logged-on acceptor session fed arbitrary operations: raw byte chunks,
//! well-framed messages of any type with fuzzed MsgSeqNum, flags and body (so the
//! session's rules, not only its framer, are reached), time passing, application
//! sends, reconnects. It must never panic, and its buffers stay bounded: output is
//! drained after every step, and nothing it holds grows past what the input could
//! explain.
#![no_main]

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_session::{
    Application, MemoryStore, MessageStore, Outbox, Role, Session, SessionConfig, SessionId,
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

fn frame(msg_type: &[u8], seq: u64, poss_dup: bool, now: SystemTime, body: &[u8]) -> Vec<u8> {
    let ts = fix_session::time::format_timestamp(now);
    let mut rest = format!("35={}\x0134={seq}\x01", String::from_utf8_lossy(msg_type)).into_bytes();
    if poss_dup {
        rest.extend_from_slice(b"43=Y\x01122=");
        rest.extend_from_slice(&ts);
        rest.push(1);
    }
    rest.extend_from_slice(b"49=TW\x0152=");
    rest.extend_from_slice(&ts);
    rest.extend_from_slice(b"\x0156=ISLD\x01");
    rest.extend_from_slice(body);
    let mut m = format!("8=FIX.4.4\x019={}\x01", rest.len()).into_bytes();
    m.extend_from_slice(&rest);
    let sum = m.iter().fold(0u8, |s, &b| s.wrapping_add(b));
    m.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    m
}

fuzz_target!(|data: &[u8]| {
    let mut now = UNIX_EPOCH + Duration::from_secs(1_790_000_000);
    let config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
    let mut s = Session::new(config, MemoryStore::new(), &fix44::DICTIONARY);
    let mut app = Echo;
    let logon = frame(b"A", 1, false, now, b"98=0\x01108=30\x01");
    s.connected(now, &mut app).unwrap();
    s.handle_bytes(now, &logon, &mut app).unwrap();
    let mut fed = logon.len();
    let mut ops = data;
    while let Some((&op, rest)) = ops.split_first() {
        let (&arg, rest) = rest.split_first().unwrap_or((&0, &[]));
        let take = usize::from(arg).min(rest.len());
        let (chunk, rest) = rest.split_at(take);
        ops = rest;
        fed += chunk.len() + 64;
        match op % 6 {
            0 => s.handle_bytes(now, chunk, &mut app).unwrap(),
            1 | 2 => {
                let t = TYPES[usize::from(arg) % TYPES.len()];
                let expected = s.store().next_target_seq();
                let seq = match op / 6 % 4 {
                    0 => expected,
                    1 => expected + u64::from(arg % 5),
                    2 => expected.saturating_sub(u64::from(arg % 3)),
                    _ => u64::from(arg),
                };
                let m = frame(t, seq, op & 64 != 0, now, chunk);
                fed += m.len();
                s.handle_bytes(now, &m, &mut app).unwrap();
            }
            3 => {
                now += Duration::from_millis(u64::from(arg) * 250);
                s.handle_timeout(now, &mut app).unwrap();
            }
            4 => {
                let _ = s.send(now, b"D", chunk, &mut app);
            }
            _ => {
                s.disconnected(now, &mut app).unwrap();
                s.connected(now, &mut app).unwrap();
                let logon = frame(b"A", 1, false, now, b"98=0\x01108=30\x01141=Y\x01");
                s.handle_bytes(now, &logon, &mut app).unwrap();
            }
        }
        if let Some(deadline) = s.poll_timeout().map(|t| t.wall) {
            assert!(deadline >= now || s.wants_disconnect() || deadline + Duration::from_secs(300) > now);
        }
        // A resend may answer one small request with many stored messages, but
        // never with more than everything the session was ever fed or sent.
        assert!(s.output().len() <= 64 * fed + 4096, "output {} for {fed} fed", s.output().len());
        let n = s.output().len();
        s.consume_output(n);
        if s.wants_disconnect() {
            s.disconnected(now, &mut app).unwrap();
            s.connected(now, &mut app).unwrap();
            let logon = frame(b"A", 1, false, now, b"98=0\x01108=30\x01141=Y\x01");
            s.handle_bytes(now, &logon, &mut app).unwrap();
        }
    }
});
