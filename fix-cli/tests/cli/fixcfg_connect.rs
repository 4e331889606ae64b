//! `fixcfg check --connect`: reaches what a settings file names without
//! trading, against a real private PostgreSQL server (`fix_test_support::pg`;
//! without PostgreSQL installed the database tests skip with one line, and
//! fail under `CI=true`). Each failure is one line with its cause (the
//! engine's own start error names the server's message the same way:
//! fix-engine's `tests/processes/pg_start.rs`).
#![cfg(feature = "postgres")]

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fix_test_support::pg::PgServer;
use fix_test_support::temp_dir::TestDir;

fn fixcfg_connect(settings: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fixcfg"))
        .args(["check", "--connect"])
        .arg(settings)
        .output()
        .unwrap()
}

/// What fixcfg printed; it must have failed (exit status 1).
fn failed(o: &Output) -> String {
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert_eq!(o.status.code(), Some(1), "{out}");
    out
}

/// The one line that begins (after its indent) with `start`.
fn line<'a>(out: &'a str, start: &str) -> &'a str {
    out.lines()
        .map(str::trim_start)
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?} in:\n{out}"))
}

/// An acceptor on a port the system picks (free), with `extra` lines: the
/// file, in a directory of its own that goes when the test drops it.
fn settings(name: &str, extra: &str) -> (TestDir, PathBuf) {
    let dir = TestDir::new(&format!("fixcfg-connect-{name}"));
    let path = dir.join("settings.cfg");
    let text = format!(
        "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptAddress=127.0.0.1\nSocketAcceptPort=0\nNonStopSession=Y\n{extra}\n"
    );
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

fn connection(pg: &PgServer, user: &str, extra: &str) -> String {
    format!(
        "PostgreSQLStoreConnection=host={} port={} user={user} {extra}",
        pg.host().display(),
        pg.port()
    )
}

#[test]
fn a_missing_role_is_named() {
    let Some(pg) = PgServer::start_or_skip("connect-role") else {
        return;
    };
    let (_dir, path) = settings("role", &connection(&pg, "fix", "dbname=postgres"));
    let out = failed(&fixcfg_connect(&path));
    let found = line(&out, "PostgreSQLStore host=");
    assert!(
        found.ends_with(r#"user=fix dbname=postgres: error: role "fix" does not exist"#),
        "{out}"
    );
    // The port was free: only the database failed.
    assert!(
        line(&out, "SocketAcceptPort 127.0.0.1:0").ends_with("free (bound and released)"),
        "{out}"
    );
}

#[test]
fn a_wrong_password_and_a_missing_database_are_named() {
    let Some(pg) = PgServer::start_or_skip("connect-password") else {
        return;
    };
    pg.psql("CREATE ROLE fix LOGIN PASSWORD 'right'").unwrap();
    pg.require_passwords().unwrap();
    let (_dir, path) = settings(
        "password",
        &connection(&pg, "fix", "password=wrong dbname=postgres"),
    );
    let out = failed(&fixcfg_connect(&path));
    // The password itself is never printed.
    assert!(!out.contains("wrong"), "{out}");
    assert!(
        line(&out, "PostgreSQLStore host=")
            .ends_with(r#"password=…: error: password authentication failed for user "fix""#),
        "{out}"
    );

    // QuickFIX's own keys, their database left at its default (quickfix).
    let keys = format!(
        "PostgreSQLStoreHost={}\nPostgreSQLStorePort={}\nPostgreSQLStoreUser=fix\nPostgreSQLStorePassword=right",
        pg.host().display(),
        pg.port()
    );
    let (_dir, path) = settings("database", &keys);
    let out = failed(&fixcfg_connect(&path));
    assert!(
        line(&out, "PostgreSQLStore host=")
            .ends_with(r#"error: database "quickfix" does not exist"#),
        "{out}"
    );
}

#[test]
fn a_store_database_that_works_passes_and_says_its_schema_version() {
    let Some(pg) = PgServer::start_or_skip("connect-good") else {
        return;
    };
    pg.psql("CREATE ROLE fix LOGIN").unwrap();
    pg.psql("CREATE DATABASE quickfix OWNER fix").unwrap();
    let (_dir, path) = settings("good", &connection(&pg, "fix", "dbname=quickfix"));
    let o = fixcfg_connect(&path);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}");
    assert!(
        line(&out, "PostgreSQLStore host=")
            .ends_with("no store tables yet: made when the engine starts"),
        "{out}"
    );

    // The engine's first open makes the tables and the session's lease row.
    let config = fix_store_postgres::PgConfig::new(
        format!("host={} user=fix dbname=quickfix", pg.host().display()),
        "a",
    );
    drop(
        fix_store_postgres::PostgresStore::open(
            &config,
            "FIX.4.4-EXEC-C1",
            std::time::SystemTime::now(),
        )
        .unwrap(),
    );
    let o = fixcfg_connect(&path);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(o.status.success(), "{out}");
    assert!(
        line(&out, "PostgreSQLStore host=")
            .ends_with("schema version 2, lease table fix_sessions with 1 session(s)"),
        "{out}"
    );

    // Nothing to connect to at all: the client's own reason, in one line.
    pg.stop_immediate().unwrap();
    let out = failed(&fixcfg_connect(&path));
    let found = line(&out, "PostgreSQLStore host=");
    assert!(
        found.contains("error: error connecting to server: "),
        "{out}"
    );
}

#[cfg(feature = "tls")]
#[test]
fn an_unreadable_certificate_is_named() {
    let dir = TestDir::new("fixcfg-connect-tls");
    // Never read: the certificate is, first.
    let key = dir.join("server.key");
    std::fs::write(&key, "").unwrap();
    // A directory where the certificate should be: unreadable even as root.
    let cert = dir.join("server.crt");
    std::fs::create_dir(&cert).unwrap();
    let (_dir, path) = settings(
        "tls-settings",
        &format!(
            "SocketUseSSL=Y\nServerCertificateFile={}\nServerCertificateKeyFile={}",
            cert.display(),
            key.display()
        ),
    );
    let out = failed(&fixcfg_connect(&path));
    let found = line(&out, "SocketUseSSL: error: ");
    assert!(
        found.contains(&format!(
            "ServerCertificateFile {}: cannot be read: Is a directory",
            cert.display()
        )),
        "{out}"
    );
}

#[test]
fn a_busy_port_is_named() {
    // Another process's listener, as far as fixcfg can tell.
    let busy = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = busy.local_addr().unwrap().port();
    let (_dir, path) = settings("port", "");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("SocketAcceptPort=0", &format!("SocketAcceptPort={port}"));
    std::fs::write(&path, text).unwrap();
    let out = failed(&fixcfg_connect(&path));
    let found = line(&out, &format!("SocketAcceptPort 127.0.0.1:{port}: "));
    assert!(
        found.contains("error: in use: another process listens there (Address already in use"),
        "{out}"
    );
    // The same file with a port the system picks at the check passes: the
    // busy port was the only fault. (Not the same port once let go: another
    // test may take it meanwhile, as it did in CI beside two CPU hogs.)
    let (_free_dir, free) = settings("port-free", "");
    let o = fixcfg_connect(&free);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
    drop(busy);
}

/// docs/high-availability.md's way to a PostgreSQL for trying: `scripts/dev-postgres.sh start`
/// prints settings lines that `fixcfg check --connect` passes with, and
/// `stop` stops it (the same as the step in `.ci/run`).
#[test]
fn the_dev_postgres_script_prints_settings_that_connect() {
    let ci = std::env::var("CI").as_deref() == Ok("true");
    if !fix_test_support::pg::installed() && !ci {
        println!("skipped the dev-postgres script: PostgreSQL is not installed (no initdb)");
        return;
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/dev-postgres.sh");
    let server = TestDir::new("fixcfg-connect-script");
    let run = |args: &[&str]| {
        let o = Command::new(&script).args(args).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{args:?}: {out}{err}");
        out
    };
    let printed = run(&["start", server.to_str().unwrap(), "trader", "orders"]);
    let keys: Vec<&str> = printed.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(
        keys,
        [
            format!("PostgreSQLStoreHost={}", server.display()),
            "PostgreSQLStorePort=5432".into(),
            "PostgreSQLStoreUser=trader".into(),
            "PostgreSQLStoreDatabase=orders".into(),
        ],
        "{printed}"
    );
    // Pasted as printed, the comments too.
    let (_dir, path) = settings("script-settings", &printed);
    let o = fixcfg_connect(&path);
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    // Stopped before asserting: a failure leaves no server behind.
    let stopped = run(&["stop", server.to_str().unwrap()]);
    assert!(o.status.success(), "{out}");
    assert!(
        line(&out, "PostgreSQLStore host=").contains("connected to PostgreSQL"),
        "{out}"
    );
    assert!(stopped.starts_with("# stopped"), "{stopped}");
    assert!(!server.join(".s.PGSQL.5432").exists());
}
