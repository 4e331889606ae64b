//! The message log and the session agree on every message, garbled input
//! among them (issue 27): the log is written from the session's own events,
//! so a message the session dropped as garbled is an event line in the log,
//! never a message line, and every message it handled is logged once, whole.
//!
//! The input mixes what QuickFIX's framing rules drop: bytes that are not
//! FIX, a message whose CheckSum is wrong, and one whose BodyLength runs past
//! its end into the next message, which the session drops with it (the
//! message runs to the first CheckSum at or after where BodyLength ends it).
//! A framer that skips to the next `8=` instead would log that next message;
//! the session never handles it.

use std::time::{Duration, SystemTime};

use crate::common::{Event, acceptor, log_events, log_messages, next, order, port_of, start};
use fix_test_support::temp_dir::TestDir;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio::sync::mpsc;

/// A message from C9 to EXEC numbered `seq`, with `body` after the header.
fn message(msg_type: &str, seq: u64, body: &[u8]) -> Vec<u8> {
    let now = fix_session::time::format_timestamp(SystemTime::now());
    let now = std::str::from_utf8(&now).unwrap();
    let mut fields =
        format!("35={msg_type}\x0134={seq}\x0149=C9\x0152={now}\x0156=EXEC\x01").into_bytes();
    fields.extend_from_slice(body);
    fix_test_support::naive::build(&fields)
}

/// `message` with its BodyLength (9) made `more` bytes longer than it is.
fn longer_by(message: &[u8], more: usize) -> Vec<u8> {
    let text = String::from_utf8(message.to_vec()).unwrap();
    let start = text.find("\x019=").unwrap() + 3;
    let end = start + text[start..].find('\x01').unwrap();
    let len: usize = text[start..end].parse().unwrap();
    format!("{}{}{}", &text[..start], len + more, &text[end..]).into_bytes()
}

/// `message` with a CheckSum one off the right one.
fn wrong_checksum(message: &[u8]) -> Vec<u8> {
    let mut m = message.to_vec();
    let at = m.len() - 2; // the last digit, before the final SOH
    m[at] = if m[at] == b'9' { b'0' } else { m[at] + 1 };
    m
}

#[tokio::test]
async fn the_log_shows_exactly_the_messages_the_session_handled_among_garbled_input() {
    let dir = TestDir::new("log-agrees");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let engine = start([acceptor("EXEC", "C9", 0).file_log_path(&dir)], &tx, false).await;
    let port = port_of(&engine);

    let logon = message("A", 1, b"98=0\x01108=30\x01");
    let o2 = message("D", 2, &order("O2"));
    let o3 = message("D", 3, &order("O3"));
    // Swallowed by the message before it: its BodyLength ends 20 bytes into
    // this one, whose CheckSum then ends the garbled whole.
    let swallowed = message("D", 4, &order("SWALLOWED"));
    let o4 = message("D", 4, &order("O4"));
    let o5 = message("D", 5, &order("O5"));
    let mut input = Vec::new();
    for part in [
        &logon[..],
        &o2,
        b"hello, this is not FIX\x01",
        &wrong_checksum(&message("D", 3, &order("BADSUM"))),
        &o3,
        &longer_by(&message("D", 4, &order("LONG")), 20),
        &swallowed,
        &o4,
        &o5,
    ] {
        input.extend_from_slice(part);
    }
    let mut tcp = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    tcp.write_all(&input).await.unwrap();

    // The application sees the orders the session handled, each once.
    let mut handled = Vec::new();
    while handled.len() < 4 {
        if let (_, Event::App { cl_ord_id, seq, .. }) = next(&mut rx, 10).await {
            handled.push((cl_ord_id, seq));
        }
    }
    let expected: Vec<(String, u64)> = [("O2", 2), ("O3", 3), ("O4", 4), ("O5", 5)]
        .iter()
        .map(|&(id, seq)| (id.to_owned(), seq))
        .collect();
    assert_eq!(handled, expected);
    engine.shutdown(Duration::from_secs(1)).await.unwrap();
    drop(tcp);

    // The log's incoming messages are those, byte for byte, and nothing else.
    let logged = log_messages(&dir.join("FIX.4.4-EXEC-C9.messages.current.log"));
    let incoming: Vec<Vec<u8>> = logged
        .into_iter()
        .filter(|m| m.windows(7).any(|w| w == b"\x0149=C9\x01"))
        .collect();
    assert_eq!(
        incoming,
        [logon, o2, o3, o4, o5],
        "the log's incoming messages: {:#?}",
        incoming
            .iter()
            .map(|m| String::from_utf8_lossy(m).replace('\x01', "|"))
            .collect::<Vec<_>>()
    );
    // Each garbled stretch is one event line saying how much was dropped.
    let events = log_events(&dir.join("FIX.4.4-EXEC-C9.event.current.log"));
    let garbled: Vec<&String> = events
        .iter()
        .filter(|e| e.contains("do not frame as a FIX message"))
        .collect();
    assert_eq!(garbled.len(), 3, "{events:#?}");
    assert!(
        events.iter().any(|e| e == "Received logon request"),
        "{events:#?}"
    );
}
