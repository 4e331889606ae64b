//! The built `fixadmin` against a real engine's admin socket (an acceptor
//! engine started here with `EngineOptions::admin_socket`): a command from
//! the arguments, commands from standard input, the engine's refusals, and a
//! socket that is missing or that nobody answers on.
#![cfg(unix)]

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_engine::{Engine, EngineOptions};
use fix_session::SessionId;
use fix_test_support::temp_dir::TestDir;

/// Runs fixadmin with `args`, `stdin` as its standard input.
fn fixadmin(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fixadmin"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs fixadmin off the engine's thread (the engine answers on this one).
async fn run(args: &[&str], stdin: &str) -> Output {
    let args: Vec<String> = args.iter().map(|a| (*a).to_owned()).collect();
    let stdin = stdin.to_owned();
    tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        fixadmin(&args, &stdin)
    })
    .await
    .unwrap()
}

/// An acceptor engine (nobody connects) answering on `socket`.
async fn engine(socket: &Path) -> Engine<&'static fix_core::typed::Tables> {
    let acceptor = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "CLIENT"))
        .socket_accept_address("127.0.0.1")
        .socket_accept_port(0)
        .schedule(Schedule::non_stop())
        .build()
        .unwrap();
    let mut options = EngineOptions::default();
    options.admin_socket = Some(socket.to_path_buf());
    struct App;
    impl fix_session::Application for App {}
    Engine::start_with(
        Settings::new([acceptor]).unwrap(),
        &fix44::DICTIONARY,
        options,
        |_, _| App,
    )
    .await
    .unwrap()
}

#[test]
fn fixadmin_asks_a_running_engine() {
    let dir = TestDir::new("fixadmin-engine");
    let socket = dir.join("admin.sock");
    let s = socket.to_str().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let engine = engine(&socket).await;

        // One command from the arguments, its words joined.
        let o = run(&[s, "sessions"], "").await;
        assert!(o.status.success(), "{o:?}");
        assert_eq!(stdout(&o), "FIX.4.4-EXEC-CLIENT\n");
        let o = run(&[s, "set-next", "FIX.4.4-EXEC-CLIENT", "sender", "20"], "").await;
        assert!(o.status.success(), "{o:?}");
        assert!(
            stdout(&o).starts_with("ok FIX.4.4-EXEC-CLIENT state=")
                && stdout(&o).ends_with("next-sender=20 next-target=1\n"),
            "{o:?}"
        );
        // The engine's refusal is printed, and the exit status is 1.
        let o = run(&[s, "status", "NOPE"], "").await;
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        assert_eq!(stdout(&o), "error: no session NOPE\n");

        // Standard input: one answer a line, blank lines passed over.
        let o = run(
            &[s],
            "sessions\n\nstatus FIX.4.4:EXEC->CLIENT\r\nhold FIX.4.4-EXEC-CLIENT\n",
        )
        .await;
        assert!(o.status.success(), "{o:?}");
        let out = stdout(&o);
        let answers: Vec<&str> = out.lines().collect();
        assert_eq!(answers.len(), 3, "{out}");
        assert_eq!(answers[0], "FIX.4.4-EXEC-CLIENT");
        assert!(
            answers[1].starts_with("FIX.4.4-EXEC-CLIENT state=")
                && answers[1].contains("next-sender=20"),
            "{out}"
        );
        assert!(
            answers[2].starts_with("ok ") && answers[2].contains("held=yes"),
            "{out}"
        );
        // An error among them: every answer still printed, exit status 1.
        let o = run(&[s], "frobnicate\nsessions\n").await;
        assert_eq!(o.status.code(), Some(1), "{o:?}");
        let out = stdout(&o);
        assert!(
            out.starts_with("error: unknown command \"frobnicate\""),
            "{out}"
        );
        assert!(out.ends_with("\nFIX.4.4-EXEC-CLIENT\n"), "{out}");

        // A line too long for the engine: it answers, closes, and the
        // next command finds the connection gone.
        let long = format!("status {}\nsessions\n", "X".repeat(10_000));
        let o = run(&[s], &long).await;
        assert_eq!(o.status.code(), Some(3), "{o:?}");
        assert!(
            stdout(&o).starts_with("error: a line longer than 4096 bytes"),
            "{o:?}"
        );
        assert!(
            stderr(&o).starts_with("fixadmin: the engine closed the connection"),
            "{o:?}"
        );

        engine.shutdown(Duration::from_secs(5)).await.unwrap();
    });
    // The engine removed its socket at shutdown.
    let o = fixadmin(&[s, "sessions"], "");
    assert_eq!(o.status.code(), Some(3), "{o:?}");
    assert_eq!(
        stderr(&o),
        format!(
            "fixadmin: no admin socket at {s}: is the engine running, with AdminSocket set to this path?\n"
        )
    );
}

#[test]
fn a_socket_nobody_answers_on_is_named() {
    let dir = TestDir::new("fixadmin-stale");
    let socket = dir.join("admin.sock");
    // Bound and dropped: the file stays, nobody listens (an engine killed).
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    let s = socket.to_str().unwrap();
    let o = fixadmin(&[s, "sessions"], "");
    assert_eq!(o.status.code(), Some(3), "{o:?}");
    assert!(
        stderr(&o).starts_with(&format!("fixadmin: {s}: connection refused: ")),
        "{o:?}"
    );
}

#[test]
fn usage() {
    assert_eq!(fixadmin(&[], "").status.code(), Some(2));
    let o = fixadmin(&["--help"], "");
    assert!(o.status.success());
    assert!(stdout(&o).starts_with("usage: fixadmin SOCKET [COMMAND ...]"));
}
