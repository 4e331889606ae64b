//! Issue 26's session keys end to end: an engine configured with them,
//! seen from the wire (SubIDs and TimeStampPrecision) and through a failover
//! (RefreshOnLogon's hot standby taking over the primary's store).

use std::time::Duration;

use crate::common::*;
use fix_core::value::Precision;
use fix_session::{SessionId, State};
use fix_test_support::temp_dir::TestDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc;

const WAIT: u64 = 10;

/// The value of `tag` in the raw message `m`.
fn get(m: &[u8], tag: &str) -> Option<String> {
    m.split(|&b| b == 1).find_map(|f| {
        let f = std::str::from_utf8(f).ok()?;
        let (t, v) = f.split_once('=')?;
        (t == tag).then(|| v.to_owned())
    })
}

#[tokio::test]
async fn the_logon_answer_carries_the_sub_ids_and_microsecond_sending_time() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C1", 0)
            .sender_sub_id("DESK1")
            .target_location_id("NYC")
            .timestamp_precision(Precision::Micros)],
        &tx,
        true,
    )
    .await;
    let port = port_of(&acc);
    let mut raw = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    raw.write_all(&logon("C1", "EXEC")).await.unwrap();
    let mut buf = vec![0u8; 1024];
    let mut got = Vec::new();
    while !got.windows(4).any(|w| w == b"\x0110=") || got.last() != Some(&1) {
        let n = tokio::time::timeout(Duration::from_secs(WAIT), raw.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        assert!(n > 0, "closed: {}", String::from_utf8_lossy(&got));
        got.extend_from_slice(&buf[..n]);
    }
    let shown = String::from_utf8_lossy(&got).replace('\x01', "|");
    assert_eq!(get(&got, "35").as_deref(), Some("A"), "{shown}");
    assert_eq!(get(&got, "50").as_deref(), Some("DESK1"), "{shown}");
    assert_eq!(get(&got, "143").as_deref(), Some("NYC"), "{shown}");
    assert_eq!(get(&got, "57"), None, "{shown}");
    // YYYYMMDD-HH:MM:SS.ssssss
    assert_eq!(get(&got, "52").map(|t| t.len()), Some(24), "{shown}");
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// A primary acceptor and a standby (RefreshOnLogon=Y) over one store
/// directory: the initiator fails over to the standby when the primary
/// stops, and the session goes on with the numbers the primary left, no
/// reset and no resend of everything.
#[tokio::test]
async fn a_refresh_on_logon_standby_takes_over_the_primary_s_session() {
    let dir = TestDir::new("hot-standby");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let a_id = SessionId::new("FIX.4.4", "EXEC", "C1");
    let i_id = SessionId::new("FIX.4.4", "C1", "EXEC");
    let primary = start([acceptor("EXEC", "C1", 0).file_store_path(&dir)], &tx, true).await;
    let primary_port = port_of(&primary);
    // Started while the primary holds the store: opened as a standby.
    let standby = start(
        [acceptor("EXEC", "C1", 0)
            .file_store_path(&dir)
            .refresh_on_logon(true)],
        &tx,
        true,
    )
    .await;
    let standby_port = port_of(&standby);
    let ini = start(
        [initiator("C1", "EXEC", primary_port).socket_connect("127.0.0.1", standby_port)],
        &tx,
        false,
    )
    .await;
    let client = ini.session(&i_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    for id in ["O1", "O2"] {
        client.send(b"D", &order(id)).unwrap();
    }
    let mut answers = 0;
    while answers < 2 {
        if let (id, Event::App { .. }) = next(&mut rx, WAIT).await
            && id == i_id
        {
            answers += 1;
        }
    }

    primary.shutdown(Duration::from_secs(5)).await.unwrap();
    // The initiator reconnects, to the standby (its second host).
    let server = standby.session(&a_id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), server.wait_for(State::LoggedOn))
        .await
        .unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), client.wait_for(State::LoggedOn))
        .await
        .unwrap();
    client.send(b"D", &order("O3")).unwrap();
    loop {
        match next(&mut rx, WAIT).await {
            (
                id,
                Event::App {
                    cl_ord_id,
                    seq,
                    poss_dup,
                    ..
                },
            ) if id == a_id && cl_ord_id == "O3" => {
                // Logon 1, O1 2, O2 3, Logout 4, Logon 5, O3 6: the numbers
                // went on, nothing was resent.
                assert_eq!((seq, poss_dup), (6, false));
                break;
            }
            (id, Event::App { poss_dup: true, .. }) if id == a_id => {
                panic!("the standby asked for a resend")
            }
            _ => {}
        }
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    standby.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// A standby that is offered the session while the primary holds it closes
/// the connection and says why in its event log, as a standby's refusal,
/// not as a failed session (docs/high-availability.md says why it sends no
/// Logout).
#[tokio::test]
async fn a_standby_offered_the_session_logs_that_it_is_a_standby() {
    let dir = TestDir::new("standby-says-so");
    let (tx, _rx) = mpsc::unbounded_channel();
    let primary = start(
        [acceptor("EXEC", "C1", 0).file_store_path(dir.join("store"))],
        &tx,
        true,
    )
    .await;
    let standby = start(
        [acceptor("EXEC", "C1", 0)
            .file_store_path(dir.join("store"))
            .file_log_path(dir.join("log"))
            .refresh_on_logon(true)],
        &tx,
        true,
    )
    .await;
    // An initiator that knows only the standby.
    let ini = start([initiator("C1", "EXEC", port_of(&standby))], &tx, false).await;
    let events = dir.join("log/FIX.4.4-EXEC-C1.event.current.log");
    let deadline = std::time::Instant::now() + Duration::from_secs(WAIT);
    let text = loop {
        let text = std::fs::read_to_string(&events).unwrap_or_default();
        if text.contains("Disconnecting") {
            break text;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no refusal logged: {text:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(text.contains("a standby, the Logon not taken"), "{text}");
    assert!(text.contains("standby"), "{text}");
    assert!(!text.contains("the session failed"), "{text}");
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    standby.shutdown(Duration::from_secs(5)).await.unwrap();
    primary.shutdown(Duration::from_secs(5)).await.unwrap();
}
