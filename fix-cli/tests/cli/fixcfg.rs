//! `fixcfg check`: run on the repository's sample settings (which open: the
//! dictionary, the store and log directories) and on broken files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fix_test_support::temp_dir::TestDir;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn fixcfg(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fixcfg"))
        .args(args)
        .current_dir(root())
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The file `name` holding `text`, in a directory of its own that goes when
/// the test drops the [`TestDir`].
fn temp(name: &str, text: &str) -> (TestDir, PathBuf) {
    let dir = TestDir::new("fixcfg");
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    (dir, path)
}

#[test]
fn the_samples_check() {
    let o = fixcfg(&["check", "samples/executor.cfg"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("samples/executor.cfg: 1 session(s), 1 acceptor template(s)"),
        "{out}"
    );
    assert!(out.contains("session FIX.4.4:EXECUTOR->CLIENT1"), "{out}");
    assert!(out.contains("role: acceptor on *:5001"), "{out}");
    assert!(
        out.contains("schedule: daily 00:00:00 to 00:00:00 +00:00"),
        "{out}"
    );
    assert!(out.contains("DataDictionary spec/FIX44.xml: "), "{out}");
    assert!(out.contains("fields,"), "{out}");
    assert!(
        out.contains("store: file store in target/sessions/executor/store"),
        "{out}"
    );
    // Without QueuedMessageMaxAge or QueuedWhileDown, the engine decides.
    assert!(!out.contains("queued"), "{out}");

    // docs/high-availability.md's PostgreSQL sample: its database is reached only with --connect.
    let o = fixcfg(&["check", "--strict", "samples/executor-pg.cfg"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("store: PostgreSQL at host='/tmp/fix-pg' port=5432 user='fix' dbname='fix'"),
        "{out}"
    );

    let o = fixcfg(&["check", "samples/tradeclient.cfg"]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("role: initiator to 127.0.0.1:5001, then localhost:5001"),
        "{out}"
    );
}

#[test]
fn warnings_are_printed_and_pass() {
    let (_dir, path) = temp(
        "warn.cfg",
        "[DEFAULT]\nFileIncludeTimeStampForMessages=Y\nUsername=me\n[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nSocketAcceptPort=5002\nAllowedRemoteAddresses=127.0.0.1\nLogonTag=553=me\nScreenLogShowIncoming=N\nQueuedMessageMaxAge=0\nQueuedWhileDown=drop\nMaxMessagesPerSecond=10\n",
    );
    let o = fixcfg(&["check", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(out.contains("4 warning(s)"), "{out}");
    assert!(
        out.contains(
            ":3: Username: not a setting QuickFIX or this engine knows: kept for the application"
        ),
        "{out}"
    );
    assert!(
        out.contains(":4: StartTime: missing, with EndTime: the session is non-stop"),
        "{out}"
    );
    assert!(
        out.contains(":2: FileIncludeTimeStampForMessages: ignored: the log's time format"),
        "{out}"
    );
    assert!(
        out.contains(":10: SocketAcceptPort: set again (first at line 9)"),
        "{out}"
    );
    assert!(out.contains("schedule: non-stop"), "{out}");
    assert!(out.contains("store: memory"), "{out}");
    assert!(out.contains("logon fields: 553=me"), "{out}");
    assert!(out.contains("connections only from: 127.0.0.1"), "{out}");
    // The session's own queue settings, over the engine's options.
    assert!(
        out.contains("queued messages dropped after: never (no age limit)"),
        "{out}"
    );
    assert!(out.contains("queued when a connection ends: Drop"), "{out}");
    assert!(
        out.contains("throttle: at most 10 application messages a second"),
        "{out}"
    );
    // A ScreenLog key makes the screen log; the others not given are on.
    assert!(
        out.contains("screen log: standard output (outgoing, events, heartbeats)"),
        "{out}"
    );
}

#[test]
fn a_slip_warns_and_strict_refuses_it() {
    let (_dir, path) = temp(
        "slip.cfg",
        "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nNonStopSession=Y\nCheakLatency=N\n",
    );
    let path = path.to_str().unwrap();
    let o = fixcfg(&["check", path]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("warning: ")
            && out.contains("slip.cfg:8: CheakLatency: not a setting QuickFIX or this engine knows: kept for the application (application_keys); did you mean CheckLatency?"),
        "{out}"
    );
    for args in [["check", "--strict", path], ["check", path, "--strict"]] {
        let o = fixcfg(&args);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{out}");
        assert!(
            out.contains("error: ")
                && out.contains(
                    "slip.cfg:8: CheakLatency: not a setting QuickFIX or this engine knows"
                )
                && out.contains(
                    "(refused by strict loading: correct the line, or load without --strict)"
                ),
            "{out}"
        );
    }
    // A file without warnings passes under --strict.
    let (_clean_dir, clean) = temp(
        "clean.cfg",
        "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nNonStopSession=Y\n",
    );
    let o = fixcfg(&["check", "--strict", clean.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));
}

#[test]
fn a_broken_file_fails() {
    let (_dir, path) = temp(
        "broken.cfg",
        "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nHeartBtInt=abc\n",
    );
    let o = fixcfg(&["check", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains(r#"broken.cfg:7: HeartBtInt: "abc" is not a number of seconds"#),
        "{out}"
    );
}

/// A value of the wrong type is an error naming the file, the line and the
/// key, also where the engine would pass the key over with a warning (a
/// `[DEFAULT]`-only key in a session, a database store's key beside
/// FileStorePath, QuickFIX/Go's name for the certificate).
#[test]
fn a_value_of_the_wrong_type_fails_wherever_the_key_is() {
    let session = "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nNonStopSession=Y\n";
    for (line, expected) in [
        (
            "HttpAcceptPort=70000",
            r#":8: HttpAcceptPort: "70000" is not a port number from 1 to 65535"#,
        ),
        (
            "ContinueInitializationOnError=yes",
            r#":8: ContinueInitializationOnError: "yes" is not Y or N"#,
        ),
        (
            "PostgreSQLStoreMaxSessions=-1",
            r#":8: PostgreSQLStoreMaxSessions: "-1" is not a number of messages"#,
        ),
        (
            "SocketCertificateFile=",
            r#":8: SocketCertificateFile: "" is not a path"#,
        ),
        (
            "FileStorePath=st\nSleepycatDatabaseDir=",
            r#":9: SleepycatDatabaseDir: "" is not a path"#,
        ),
    ] {
        let (_dir, path) = temp("typed.cfg", &format!("{session}{line}\n"));
        let o = fixcfg(&["check", path.to_str().unwrap()]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{line}: {out}");
        assert!(
            out.starts_with("error: ") && out.contains(&format!("typed.cfg{expected}")),
            "{line}: {out}"
        );
    }
}

#[test]
fn a_file_that_does_not_open_fails() {
    let (_dir, path) = temp(
        "nodict.cfg",
        "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nDataDictionary=/nonexistent/FIX44.xml\n",
    );
    let o = fixcfg(&["check", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains("DataDictionary /nonexistent/FIX44.xml: error: "),
        "{out}"
    );

    let o = fixcfg(&["check", "/nonexistent/settings.cfg"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("error: /nonexistent/settings.cfg: cannot be read"));
}

#[test]
fn usage() {
    assert_eq!(fixcfg(&[]).status.code(), Some(2));
    assert_eq!(fixcfg(&["lint", "x"]).status.code(), Some(2));
    assert_eq!(fixcfg(&["check", "--lenient", "x"]).status.code(), Some(2));
    assert_eq!(fixcfg(&["check", "--connect"]).status.code(), Some(2));
    assert_eq!(
        fixcfg(&["check", "--connect", "--connect", "x"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(fixcfg(&["check", "x", "y"]).status.code(), Some(2));
    assert!(fixcfg(&["--help"]).status.success());
    // An argument that is not UTF-8: a usage error, not a panic.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let o = Command::new(env!("CARGO_BIN_EXE_fixcfg"))
            .arg("check")
            .arg(std::ffi::OsStr::from_bytes(b"\xff.cfg"))
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(2), "{o:?}");
    }
}

#[test]
fn an_existing_store_is_read_not_written() {
    let dir = TestDir::new("fixcfg-store");
    drop(fix_session::FileStore::open(&dir, "FIX.4.4-A-B").unwrap());
    let before: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let (_dir, path) = temp(
        "store.cfg",
        &format!(
            "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nFileStorePath={}\n",
            dir.display()
        ),
    );
    let o = fixcfg(&["check", path.to_str().unwrap()]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    assert!(
        out.contains("store FIX.4.4-A-B: next sender 1 next target 1, 0 messages stored"),
        "{out}"
    );
    let after: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(before, after);
}

/// A certificate and its key encrypted as `openssl req -x509 -newkey`
/// writes them (PKCS#8, AES-256-CBC) in `dir`; `None` without openssl
/// (a failure under `CI=true`).
#[cfg(feature = "tls")]
fn openssl_identity(dir: &Path, password: &str) -> Option<(PathBuf, PathBuf)> {
    let (cert, key) = (dir.join("server.crt"), dir.join("server.key"));
    let made = Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:P-256",
        ])
        .args(["-subj", "/CN=localhost", "-days", "2", "-passout"])
        .arg(format!("pass:{password}"))
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output();
    match made {
        Ok(o) => assert!(o.status.success(), "{o:?}"),
        Err(e) => {
            assert!(std::env::var("CI").as_deref() != Ok("true"), "openssl: {e}");
            println!("skipped: the openssl command is not installed ({e})");
            return None;
        }
    }
    Some((cert, key))
}

#[cfg(feature = "tls")]
#[test]
fn an_encrypted_key_checks_with_its_password_and_a_wrong_one_is_named() {
    let dir = TestDir::new("fixcfg-encrypted");
    let Some((cert, key)) = openssl_identity(&dir, "right") else {
        return;
    };
    let settings = |password: &str| {
        format!(
            "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nNonStopSession=Y\nSocketUseSSL=Y\nServerCertificateFile={}\nServerCertificateKeyFile={}\nSSLCertificatePassword={password}\n",
            cert.display(),
            key.display()
        )
    };
    let (_good_dir, good) = temp("encrypted-good.cfg", &settings("right"));
    let o = fixcfg(&["check", "--strict", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));

    let (_bad_dir, bad) = temp("encrypted-bad.cfg", &settings("not-the-password"));
    let o = fixcfg(&["check", bad.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!(
            "SocketUseSSL: error: session FIX.4.4:A->B: ServerCertificateKeyFile {}: the private key does not decrypt with SSLCertificatePassword: the password is wrong",
            key.display()
        )),
        "{out}"
    );
    assert!(!out.contains("not-the-password"), "{out}");
}

/// QuickFIX/n's way: `SSLCertificate` naming a PKCS#12 file, opened with
/// `SSLCertificatePassword` (its MAC verified, its key decrypted); a wrong
/// password named, and never printed.
#[cfg(feature = "tls")]
#[test]
fn a_pkcs12_file_checks_with_its_password_and_a_wrong_one_is_named() {
    let dir = TestDir::new("fixcfg-pkcs12");
    let Some((cert, key)) = openssl_identity(&dir, "right") else {
        return;
    };
    // As `openssl pkcs12 -export` writes it by default (OpenSSL 3: PBES2
    // with AES-256-CBC, an HMAC-SHA256 MAC).
    let p12 = dir.join("server.p12");
    let o = Command::new("openssl")
        .args([
            "pkcs12",
            "-export",
            "-passin",
            "pass:right",
            "-passout",
            "pass:right",
        ])
        .arg("-in")
        .arg(&cert)
        .arg("-inkey")
        .arg(&key)
        .arg("-out")
        .arg(&p12)
        .output()
        .unwrap();
    assert!(o.status.success(), "{o:?}");
    let settings = |password: &str| {
        format!(
            "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=A\nTargetCompID=B\nSocketAcceptPort=5001\nNonStopSession=Y\nSSLEnable=Y\nSSLCertificate={}\nSSLCertificatePassword={password}\n",
            p12.display()
        )
    };
    let (_good_dir, good) = temp("pkcs12-good.cfg", &settings("right"));
    let o = fixcfg(&["check", good.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stdout(&o));

    let (_bad_dir, bad) = temp("pkcs12-bad.cfg", &settings("not-the-password"));
    let o = fixcfg(&["check", bad.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(
        out.contains(&format!(
            "SocketUseSSL: error: session FIX.4.4:A->B: ServerCertificateFile {}: is a PKCS#12 file that does not open with SSLCertificatePassword (its MAC does not verify): the password is wrong",
            p12.display()
        )),
        "{out}"
    );
    assert!(!out.contains("not-the-password"), "{out}");
}
