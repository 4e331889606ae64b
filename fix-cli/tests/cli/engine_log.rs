//! The engine's message log (fix-engine's `FileLog`, QuickFIX's format) read back
//! by the built `fixdump`: every message decoded, in the order logged, each
//! direction told by its CompIDs, the timestamps as line prefixes; the event log
//! holds no message. Then a log the engine wrote in a real exchange.

use std::fs;
use std::process::Command;
use std::time::{Duration, UNIX_EPOCH};

use fix_core::Encoder;
use fix_engine::log::{FileLog, Log};
use fix_session::SessionId;
use fix_test_support::temp_dir::TestDir;

/// Message `seq` of `msg_type` from `sender` to `target`.
fn message(msg_type: &[u8], seq: u64, sender: &str, target: &str) -> Vec<u8> {
    let mut buf = [0u8; 256];
    let mut enc = Encoder::new(&mut buf, b"FIX.4.4", msg_type);
    enc.raw(49, sender.as_bytes()).unwrap();
    enc.raw(56, target.as_bytes()).unwrap();
    enc.raw(34, seq.to_string().as_bytes()).unwrap();
    enc.raw(52, b"20261130-09:00:00.000").unwrap();
    match msg_type {
        b"A" => {
            enc.raw(98, b"0").unwrap();
            enc.raw(108, b"30").unwrap();
        }
        b"D" => {
            enc.raw(11, format!("CL-{seq}").as_bytes()).unwrap();
            enc.raw(21, b"1").unwrap();
            enc.raw(55, b"IBM").unwrap();
            enc.raw(54, b"1").unwrap();
            enc.raw(60, b"20261130-09:00:00.000").unwrap();
            enc.raw(38, b"100").unwrap();
            enc.raw(40, b"1").unwrap();
        }
        _ => {}
    }
    enc.finish().unwrap().to_vec()
}

#[test]
fn fixdump_reads_the_engine_s_message_log_in_order_with_directions() {
    let dir = TestDir::new("cli-engine-log");
    let id = SessionId::new("FIX.4.4", "CLIENT", "VENUE");
    let mut log = FileLog::open(&dir, &id).unwrap();
    let t0 = UNIX_EPOCH + Duration::from_secs(1_795_000_000);
    let at = |ms: u64| t0 + Duration::from_millis(ms);
    // (outgoing?, MsgType, MsgSeqNum)
    let traffic = [
        (true, "A", 1),
        (false, "A", 1),
        (true, "D", 2),
        (true, "D", 3),
        (false, "0", 2),
        (true, "5", 4),
        (false, "5", 3),
    ];
    log.on_event("Initiated logon request", at(0)).unwrap();
    for (i, &(outgoing, msg_type, seq)) in traffic.iter().enumerate() {
        let when = at(i as u64 + 1);
        if outgoing {
            log.on_outgoing(&message(msg_type.as_bytes(), seq, "CLIENT", "VENUE"), when)
                .unwrap();
        } else {
            log.on_incoming(&message(msg_type.as_bytes(), seq, "VENUE", "CLIENT"), when)
                .unwrap();
        }
    }
    log.on_event("Disconnecting", at(9)).unwrap();
    let (messages, events) = (log.messages_path().to_owned(), log.events_path().to_owned());
    drop(log);

    let out = Command::new(env!("CARGO_BIN_EXE_fixdump"))
        .args(["--strict", "--color=never"])
        .arg(&messages)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let headers: Vec<&str> = stdout.lines().filter(|l| l.starts_with('#')).collect();
    let expected: Vec<String> = traffic
        .iter()
        .enumerate()
        .map(|(i, &(outgoing, msg_type, seq))| {
            let name = match msg_type {
                "A" => "Logon",
                "D" => "NewOrderSingle",
                "0" => "Heartbeat",
                _ => "Logout",
            };
            let way = if outgoing {
                "CLIENT -> VENUE"
            } else {
                "VENUE -> CLIENT"
            };
            format!(
                "#{} {name} (35={msg_type})  {way}  seq {seq}  20261118-11:06:40.{:03}",
                i + 1,
                i + 1
            )
        })
        .collect();
    assert_eq!(headers, expected, "{stdout}");
    assert!(
        stdout.ends_with(
            "7 messages shown of 7 read, 0 with problems, 0 lines without a FIX message skipped\n"
        ),
        "{stdout}"
    );

    // The summary follows each direction's numbers: no gaps.
    let out = Command::new(env!("CARGO_BIN_EXE_fixdump"))
        .arg("--summary")
        .arg(&messages)
        .output()
        .unwrap();
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{summary}");
    for line in [
        "  CLIENT -> VENUE: 4 messages, MsgSeqNum 1..4, no gaps",
        "  VENUE -> CLIENT: 3 messages, MsgSeqNum 1..3, no gaps",
    ] {
        assert!(summary.contains(line), "{line}\nin\n{summary}");
    }

    // The event log is QuickFIX's too: lines of text, no message in them.
    assert_eq!(
        fs::read_to_string(&events).unwrap(),
        "20261118-11:06:40.000 : Initiated logon request\n20261118-11:06:40.009 : Disconnecting\n"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_fixdump"))
        .arg(&events)
        .output()
        .unwrap();
    assert!(String::from_utf8(out.stdout).unwrap().contains(
        "0 messages shown of 0 read, 0 with problems, 2 lines without a FIX message skipped"
    ),);
}

/// An initiator and an acceptor engine exchange orders with FileLogPath set:
/// `fixdump --strict` reads the initiator's log whole, both directions without
/// a gap, and the acceptor's log holds the same messages.
#[test]
fn fixdump_reads_a_log_the_engine_wrote_in_an_exchange() {
    use fix_engine::Engine;
    use fix_engine::config::{Schedule, SessionBuilder, Settings};
    use fix_session::State;

    let dir = TestDir::new("cli-engine-exchange");
    let acceptor = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "VENUE", "CLIENT"))
        .socket_accept_address("127.0.0.1")
        // Port 0: the engine binds a port once and says which (a port picked
        // by binding and dropping a socket could be taken before the bind).
        .socket_accept_port(0)
        .schedule(Schedule::non_stop())
        .file_log_path(dir.join("venue"))
        .build()
        .unwrap();
    struct App;
    impl fix_session::Application for App {}
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let venue = Engine::start(Settings::new([acceptor]).unwrap(), &fix44::DICTIONARY, |_, _| App)
            .await
            .unwrap();
        let port = venue.local_addrs()[0].port();
        let initiator = SessionBuilder::initiator(SessionId::new("FIX.4.4", "CLIENT", "VENUE"))
            .heart_bt_int(30)
            .socket_connect("127.0.0.1", port)
            .schedule(Schedule::non_stop())
            .file_log_path(dir.join("client"))
            .build()
            .unwrap();
        let client = Engine::start(Settings::new([initiator]).unwrap(), &fix44::DICTIONARY, |_, _| App)
            .await
            .unwrap();
        let handle = client
            .session(&SessionId::new("FIX.4.4", "CLIENT", "VENUE"))
            .unwrap();
        tokio::time::timeout(Duration::from_secs(10), handle.wait_for(State::LoggedOn))
            .await
            .unwrap();
        for n in 1..=5 {
            let body = format!("11=CL-{n}\x0121=1\x0155=IBM\x0154=1\x0160=20261130-09:00:00.000\x0138=100\x0140=1\x01");
            handle.send(b"D", body.as_bytes()).unwrap();
        }
        // The Logout is sent after the queued orders, and answered.
        client.shutdown(Duration::from_secs(5)).await.unwrap();
        venue.shutdown(Duration::from_secs(5)).await.unwrap();
    });
    let messages = dir.join("client/FIX.4.4-CLIENT-VENUE.messages.current.log");
    let out = Command::new(env!("CARGO_BIN_EXE_fixdump"))
        .args(["--strict", "--summary"])
        .arg(&messages)
        .output()
        .unwrap();
    let summary = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{summary}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "9 messages, 0 with problems, 0 lines without a FIX message skipped",
        "  CLIENT -> VENUE: 7 messages, MsgSeqNum 1..7, no gaps",
        "  VENUE -> CLIENT: 2 messages, MsgSeqNum 1..2, no gaps",
    ] {
        assert!(summary.contains(line), "{line}\nin\n{summary}");
    }
    let venue = fs::read(dir.join("venue/FIX.4.4-VENUE-CLIENT.messages.current.log")).unwrap();
    let client = fs::read(&messages).unwrap();
    let without_stamps = |log: &[u8]| -> Vec<Vec<u8>> {
        log.split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| l[24..].to_vec())
            .collect()
    };
    assert_eq!(without_stamps(&venue), without_stamps(&client));
    let events =
        fs::read_to_string(dir.join("client/FIX.4.4-CLIENT-VENUE.event.current.log")).unwrap();
    for e in [
        "Initiated logon request",
        "Received logon response",
        "Initiated logout request",
        "Received logout response",
    ] {
        assert!(events.contains(&format!(" : {e}\n")), "{e} in\n{events}");
    }
}
