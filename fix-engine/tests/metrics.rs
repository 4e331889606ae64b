//! The engine's metrics (issue 29), rendered by the Prometheus exporter as
//! its `/metrics` endpoint serves them to an operator's Prometheus (the text
//! taken from the exporter's handle: an HTTP listener would need a port
//! chosen before it is bound, which races with other tests), after a scripted
//! exchange: every metric the
//! engine documents is there, labelled with its session, and its value
//! agrees with the session's message log (an independent record, written
//! from the session's events) and with the store's numbers.
//!
//! One test in this file: a process has one metrics recorder.

mod common;

use std::time::Duration;

use common::{Event, acceptor, initiator, log_messages, next, order, port_of, start};
use fix_session::{SessionId, State};
use fix_test_support::temp_dir::TestDir;
use metrics_exporter_prometheus::PrometheusBuilder;
use tokio::sync::mpsc;

/// The value of the sample `name{labels}` (labels in the exporter's order).
fn sample(text: &str, name: &str, labels: &str) -> Option<f64> {
    let prefix = format!("{name}{{{labels}}} ");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|v| v.trim().parse().ok())
}

#[tokio::test]
async fn the_exporter_shows_every_metric_and_agrees_with_the_log() {
    let exporter = PrometheusBuilder::new().install_recorder().unwrap();

    let dir = TestDir::new("metrics");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C1", 0)
            .file_store_path(dir.join("store"))
            .file_log_path(dir.join("log"))],
        &tx,
        true,
    )
    .await;
    let port = port_of(&acc);
    let ini = start([initiator("C1", "EXEC", port)], &tx, false).await;
    let id = SessionId::new("FIX.4.4", "C1", "EXEC");
    let handle = ini.session(&id).unwrap();
    tokio::time::timeout(Duration::from_secs(10), handle.wait_for(State::LoggedOn))
        .await
        .unwrap();
    // The script: five orders, each answered.
    for i in 0..5 {
        handle.send(b"D", &order(&format!("O{i}"))).unwrap();
    }
    let mut answered = 0;
    while answered < 5 {
        if let (got, Event::App { .. }) = next(&mut rx, 10).await
            && got == id
        {
            answered += 1;
        }
    }
    // The log writes its buffered lines out within a second.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let text = exporter.render();
    let exec = r#"session="FIX.4.4:EXEC->C1""#;

    // Every metric the engine documents, for the acceptor's session.
    for name in [
        "fix_session_state",
        "fix_session_next_sender_seq",
        "fix_session_next_target_seq",
        "fix_messages_received_total",
        "fix_messages_sent_total",
        "fix_resends_served_total",
        "fix_resend_requests_total",
        "fix_rejects_total",
        "fix_connections_total",
        "fix_send_queue_depth",
        "fix_store_sync_seconds",
        "fix_read_to_reply_seconds",
    ] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(name) && l.contains(exec)),
            "{name} for EXEC missing:\n{text}"
        );
    }

    // The values against the acceptor's message log: what it received is
    // what C1 sent (49=C1), admin or application by MsgType.
    let logged = log_messages(&dir.join("log").join("FIX.4.4-EXEC-C1.messages.current.log"));
    let count = |from: &str, admin: bool| {
        logged
            .iter()
            .filter(|m| {
                let sender = format!("\x0149={from}\x01");
                m.windows(sender.len()).any(|w| w == sender.as_bytes())
            })
            .filter(|m| {
                let is_admin = [
                    "\x0135=0\x01",
                    "\x0135=1\x01",
                    "\x0135=2\x01",
                    "\x0135=3\x01",
                    "\x0135=4\x01",
                    "\x0135=5\x01",
                    "\x0135=A\x01",
                ]
                .iter()
                .any(|t| m.windows(t.len()).any(|w| w == t.as_bytes()));
                is_admin == admin
            })
            .count() as f64
    };
    let received = |kind: &str| {
        sample(
            &text,
            "fix_messages_received_total",
            &format!(r#"{exec},kind="{kind}""#),
        )
        .unwrap()
    };
    let sent = |kind: &str| {
        sample(
            &text,
            "fix_messages_sent_total",
            &format!(r#"{exec},kind="{kind}""#),
        )
        .unwrap()
    };
    assert_eq!(received("app"), count("C1", false), "{text}");
    assert_eq!(received("admin"), count("C1", true), "{text}");
    assert_eq!(sent("app"), count("EXEC", false), "{text}");
    assert_eq!(sent("admin"), count("EXEC", true), "{text}");
    assert_eq!(sent("app"), 5.0);
    assert_eq!(
        sample(&text, "fix_session_state", exec),
        Some(2.0),
        "logged on"
    );
    assert_eq!(sample(&text, "fix_connections_total", exec), Some(1.0));
    // Next numbers: one past what each side's log shows last.
    let sent_total = count("EXEC", false) + count("EXEC", true);
    let received_total = count("C1", false) + count("C1", true);
    assert_eq!(
        sample(&text, "fix_session_next_sender_seq", exec),
        Some(sent_total + 1.0)
    );
    assert_eq!(
        sample(&text, "fix_session_next_target_seq", exec),
        Some(received_total + 1.0)
    );
    ini.shutdown(Duration::from_secs(2)).await.unwrap();
    acc.shutdown(Duration::from_secs(2)).await.unwrap();
}
