//! TLS between an acceptor engine and initiator engines on loopback, with
//! certificate authorities and certificates made at test time: server
//! certificates, client certificates (mutual TLS), the server name, refusals,
//! and the settings' files checked at start.
#![cfg(feature = "tls")]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::common::certs::{Ca, Identity, encrypted_key, openssl, pkcs12};
use crate::common::*;
use fix_engine::config::{ClientAuth, SessionBuilder};
use fix_engine::{Engine, EngineError, EngineErrorKind, TlsFileError};
use fix_session::{SessionId, State};
use fix_test_support::temp_dir::TestDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

const WAIT: u64 = 10;

/// An acceptor presenting `server`.
fn tls_acceptor(sender: &str, target: &str, port: u16, server: &Identity) -> SessionBuilder {
    acceptor(sender, target, port)
        .socket_use_ssl(true)
        .certificate(&server.cert)
        .private_key(&server.key)
}

/// An initiator trusting `ca`.
fn tls_initiator(sender: &str, target: &str, port: u16, ca: &Path) -> SessionBuilder {
    initiator(sender, target, port)
        .socket_use_ssl(true)
        .ca_file(ca)
}

fn id(sender: &str, target: &str) -> SessionId {
    SessionId::new("FIX.4.4", sender, target)
}

async fn logged_on(engine: &Engine<&'static fix_core::typed::Tables>, id: &SessionId) {
    let handle = engine.session(id).unwrap();
    tokio::time::timeout(Duration::from_secs(WAIT), handle.wait_for(State::LoggedOn))
        .await
        .unwrap_or_else(|_| panic!("{id} did not log on"));
}

/// Counts the connections made to it and passes each through to `target`: how
/// often an initiator tried.
async fn counting_proxy(target: u16) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let count = Arc::new(AtomicUsize::new(0));
    let counted = count.clone();
    tokio::spawn(async move {
        while let Ok((mut inbound, _)) = listener.accept().await {
            counted.fetch_add(1, Ordering::SeqCst);
            tokio::spawn(async move {
                if let Ok(mut outbound) = TcpStream::connect(("127.0.0.1", target)).await {
                    let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                }
            });
        }
    });
    (port, count)
}

/// Asserts that the initiator session `id` of `engine` tries at least twice
/// through `tries` and never logs on (nor sees a Logon on `rx`).
async fn refused_and_retried(
    engine: &Engine<&'static fix_core::typed::Tables>,
    id: &SessionId,
    tries: &AtomicUsize,
    rx: &mut mpsc::UnboundedReceiver<(SessionId, Event)>,
) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(WAIT);
    while tries.load(Ordering::SeqCst) < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "{id}: no second attempt"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_ne!(engine.session(id).unwrap().state(), State::LoggedOn);
    // Neither end: the initiator, nor the acceptor's session for it.
    let other_end = SessionId::new(&id.begin_string, &id.target_comp_id, &id.sender_comp_id);
    while let Ok((who, event)) = rx.try_recv() {
        if who == *id || who == other_end {
            assert_ne!(event, Event::Logon, "{who} logged on");
        }
    }
}

#[tokio::test]
async fn sessions_over_tls_log_on_and_exchange_messages_both_ways() {
    let dir = TestDir::new("tls-exchange");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([tls_acceptor("EXEC", "C1", 0, &server)], &tx, true).await;
    let port = port_of(&acc);
    let ini = start([tls_initiator("C1", "EXEC", port, &ca.cert)], &tx, false).await;
    let (a_id, i_id) = (id("EXEC", "C1"), id("C1", "EXEC"));
    logged_on(&ini, &i_id).await;
    logged_on(&acc, &a_id).await;

    ini.session(&i_id)
        .unwrap()
        .send(b"D", &order("O1"))
        .unwrap();
    acc.session(&a_id)
        .unwrap()
        .send(b"D", &order("S1"))
        .unwrap();
    let mut seen = Vec::new();
    while seen.len() < 3 {
        if let (who, Event::App { cl_ord_id, .. }) = next(&mut rx, WAIT).await {
            seen.push((who, cl_ord_id));
        }
    }
    seen.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(
        seen,
        [
            (a_id.clone(), "O1".to_owned()),
            (i_id.clone(), "R-O1".to_owned()),
            (i_id.clone(), "S1".to_owned()),
        ]
    );
    // Both ends see the Logout exchange through TLS.
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    expect(&mut rx, &a_id, &Event::LogoutReceived, WAIT).await;
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_large_burst_over_tls_arrives_whole_and_in_order() {
    // More than rustls buffers at once (64 KiB) and more than one read: the
    // driver's writes and reads through TLS lose and reorder nothing.
    let dir = TestDir::new("tls-burst");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([tls_acceptor("EXEC", "C1", 0, &server)], &tx, false).await;
    let port = port_of(&acc);
    let ini = start([tls_initiator("C1", "EXEC", port, &ca.cert)], &tx, false).await;
    let (a_id, i_id) = (id("EXEC", "C1"), id("C1", "EXEC"));
    logged_on(&ini, &i_id).await;
    let client = ini.session(&i_id).unwrap();
    const N: u64 = 3_000;
    for n in 0..N {
        client.send(b"D", &order(&format!("B{n}"))).unwrap();
    }
    let mut expected = 0;
    while expected < N {
        if let (who, Event::App { cl_ord_id, seq, .. }) = next(&mut rx, WAIT).await {
            assert_eq!(who, a_id);
            assert_eq!(cl_ord_id, format!("B{expected}"));
            assert_eq!(seq, expected + 2);
            expected += 1;
        }
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn mutual_tls_admits_only_clients_with_a_certificate_from_the_acceptors_ca() {
    let dir = TestDir::new("tls-mutual");
    let server_ca = Ca::new(&dir, "server-ca");
    let client_ca = Ca::new(&dir, "client-ca");
    let other_ca = Ca::new(&dir, "other-ca");
    let server = server_ca.server("server");
    let good = client_ca.client("good");
    let stranger = other_ca.client("stranger");
    let store = dir.join("store");
    std::fs::create_dir_all(&store).unwrap();
    let (tx, mut rx) = mpsc::unbounded_channel();
    // A template, so a session's store files are made only when its Logon
    // is read: none for a client refused in the handshake.
    let template = SessionBuilder::acceptor(id("EXEC", "*"))
        .acceptor_template(true)
        .socket_accept_address("127.0.0.1")
        .socket_accept_port(0)
        .schedule(fix_engine::config::Schedule::non_stop())
        .file_store_path(&store)
        .socket_use_ssl(true)
        .certificate(&server.cert)
        .private_key(&server.key)
        .ca_file(&client_ca.cert)
        .certificate_verify_level(ClientAuth::Required);
    let acc = start([template], &tx, false).await;
    let port = port_of(&acc);

    // No client certificate, and one from another authority: refused, again.
    let (none_port, none_tries) = counting_proxy(port).await;
    let (other_port, other_tries) = counting_proxy(port).await;
    let refused = Engine::start(
        settings([
            tls_initiator("NOCERT", "EXEC", none_port, &server_ca.cert),
            tls_initiator("STRANGER", "EXEC", other_port, &server_ca.cert)
                .certificate(&stranger.cert)
                .private_key(&stranger.key),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    refused_and_retried(&refused, &id("NOCERT", "EXEC"), &none_tries, &mut rx).await;
    refused_and_retried(&refused, &id("STRANGER", "EXEC"), &other_tries, &mut rx).await;
    assert!(acc.session(&id("EXEC", "NOCERT")).is_none());
    assert!(acc.session(&id("EXEC", "STRANGER")).is_none());
    let files = std::fs::read_dir(&store).unwrap().count();
    assert_eq!(files, 0, "a refused client made store files");

    // A client certificate from the authority: logged on.
    let admitted = Engine::start(
        settings([tls_initiator("GOOD", "EXEC", port, &server_ca.cert)
            .certificate(&good.cert)
            .private_key(&good.key)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    logged_on(&admitted, &id("GOOD", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "GOOD")).await;
    assert_ne!(
        refused.session(&id("NOCERT", "EXEC")).unwrap().state(),
        State::LoggedOn
    );

    admitted.shutdown(Duration::from_secs(5)).await.unwrap();
    refused.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn optional_client_verification_admits_clients_without_a_certificate_but_not_strangers() {
    let dir = TestDir::new("tls-optional");
    let server_ca = Ca::new(&dir, "server-ca");
    let client_ca = Ca::new(&dir, "client-ca");
    let other_ca = Ca::new(&dir, "other-ca");
    let server = server_ca.server("server");
    let stranger = other_ca.client("stranger");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = Engine::start(
        settings([
            tls_acceptor("EXEC", "NOCERT", 0, &server)
                .ca_file(&client_ca.cert)
                .certificate_verify_level(ClientAuth::Optional),
            tls_acceptor("EXEC", "STRANGER", 0, &server)
                .ca_file(&client_ca.cert)
                .certificate_verify_level(ClientAuth::Optional),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let (other_port, other_tries) = counting_proxy(port).await;
    let ini = Engine::start(
        settings([
            tls_initiator("NOCERT", "EXEC", port, &server_ca.cert),
            tls_initiator("STRANGER", "EXEC", other_port, &server_ca.cert)
                .certificate(&stranger.cert)
                .private_key(&stranger.key),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    logged_on(&ini, &id("NOCERT", "EXEC")).await;
    refused_and_retried(&ini, &id("STRANGER", "EXEC"), &other_tries, &mut rx).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn an_initiator_refuses_an_acceptor_it_does_not_trust_or_whose_name_differs_and_retries() {
    let dir = TestDir::new("tls-untrusted");
    let ca = Ca::new(&dir, "ca");
    let other_ca = Ca::new(&dir, "other-ca");
    let server = ca.server("server");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = Engine::start(
        settings([
            tls_acceptor("EXEC", "DISTRUST", 0, &server),
            tls_acceptor("EXEC", "WRONGNAME", 0, &server),
            tls_acceptor("EXEC", "RIGHTNAME", 0, &server),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let (distrust_port, distrust_tries) = counting_proxy(port).await;
    let (wrong_port, wrong_tries) = counting_proxy(port).await;
    let ini = Engine::start(
        settings([
            tls_initiator("DISTRUST", "EXEC", distrust_port, &other_ca.cert),
            // The certificate names localhost and 127.0.0.1.
            tls_initiator("WRONGNAME", "EXEC", wrong_port, &ca.cert)
                .sni_host_name("fix.example.com"),
            tls_initiator("RIGHTNAME", "EXEC", port, &ca.cert).sni_host_name("localhost"),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    logged_on(&ini, &id("RIGHTNAME", "EXEC")).await;
    refused_and_retried(&ini, &id("DISTRUST", "EXEC"), &distrust_tries, &mut rx).await;
    refused_and_retried(&ini, &id("WRONGNAME", "EXEC"), &wrong_tries, &mut rx).await;
    for refused in ["DISTRUST", "WRONGNAME"] {
        assert_ne!(
            acc.session(&id("EXEC", refused)).unwrap().state(),
            State::LoggedOn
        );
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_tls_client_of_a_plain_acceptor_does_not_log_on() {
    let dir = TestDir::new("tls-to-plain");
    let ca = Ca::new(&dir, "ca");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([acceptor("EXEC", "C1", 0)], &tx, false).await;
    let port = port_of(&acc);
    let (proxy_port, tries) = counting_proxy(port).await;
    let ini = start(
        [tls_initiator("C1", "EXEC", proxy_port, &ca.cert)],
        &tx,
        false,
    )
    .await;
    refused_and_retried(&ini, &id("C1", "EXEC"), &tries, &mut rx).await;
    assert_ne!(
        acc.session(&id("EXEC", "C1")).unwrap().state(),
        State::LoggedOn
    );
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_plain_tcp_client_of_a_tls_acceptor_does_not_log_on() {
    let dir = TestDir::new("tls-plain");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = start([tls_acceptor("EXEC", "C1", 0, &server)], &tx, false).await;
    let port = port_of(&acc);

    // A Logon in the clear: no FIX answer, and the connection is closed.
    let mut raw = TcpStream::connect(("127.0.0.1", port)).await.unwrap();
    raw.write_all(&logon("C1", "EXEC")).await.unwrap();
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(WAIT), raw.read_to_end(&mut answer))
        .await
        .expect("the connection stays open")
        .ok();
    assert!(
        !answer.windows(5).any(|w| w == b"\x0135=A"),
        "a Logon answered in the clear"
    );

    // The engine's plain initiator: never logged on.
    let (proxy_port, tries) = counting_proxy(port).await;
    let ini = start([initiator("C1", "EXEC", proxy_port)], &tx, false).await;
    refused_and_retried(&ini, &id("C1", "EXEC"), &tries, &mut rx).await;
    assert_ne!(
        acc.session(&id("EXEC", "C1")).unwrap().state(),
        State::LoggedOn
    );
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// Starting `builder`'s session fails on one of its TLS files, and its port
/// is still free afterwards: nothing was bound.
async fn start_error(builder: SessionBuilder) -> EngineError {
    let (tx, _rx) = mpsc::unbounded_channel();
    let error = Engine::start(
        settings([builder]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .expect_err("the engine started");
    // The caller holds the session's port: an engine that bound its socket
    // before it read its files would fail with Bind, not this.
    assert!(
        !matches!(error.kind(), EngineErrorKind::Bind { .. }),
        "{error}"
    );
    error
}

/// The setting, file and problem of a [`EngineErrorKind::TlsFile`].
fn tls_file(error: &EngineError) -> (&'static str, &Path, &TlsFileError) {
    match error.kind() {
        EngineErrorKind::TlsFile {
            setting,
            path,
            error,
            ..
        } => (setting, path, error),
        other => panic!("not a TLS file error: {other:?}"),
    }
}

#[tokio::test]
async fn unusable_tls_files_are_refused_at_start_naming_the_file() {
    let dir = TestDir::new("tls-files");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let other = ca.server("other");
    // Held by the test: the engine must fail before it binds.
    let (_held, port) = held_listener();

    let missing = dir.join("missing.crt");
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&missing)
            .private_key(&server.key),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("ServerCertificateFile", missing.as_path())
    );
    assert!(matches!(problem, TlsFileError::Read(io) if io.kind() == std::io::ErrorKind::NotFound));
    assert!(e.to_string().starts_with(&format!(
        "session FIX.4.4:EXEC->C1: ServerCertificateFile {}: cannot be read: ",
        missing.display()
    )));

    // A key file holding a certificate only.
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&server.cert)
            .private_key(&server.cert),
    )
    .await;
    assert_eq!(
        e.to_string(),
        format!(
            "session FIX.4.4:EXEC->C1: ServerCertificateKeyFile {}: holds no private key (a PEM PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY section)",
            server.cert.display()
        )
    );

    // Without a key file, the key is looked for in the certificate's file.
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&server.cert),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("ServerCertificateFile", server.cert.as_path())
    );
    assert!(matches!(problem, TlsFileError::NoPrivateKey));

    // An encrypted key.
    let encrypted = dir.join("encrypted.key");
    std::fs::write(
        &encrypted,
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIBvTBXBgkqhkiG9w0BBQ0wSjApBgkqhkiG9w0BBQwwHAQI\n-----END ENCRYPTED PRIVATE KEY-----\n",
    )
    .unwrap();
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&server.cert)
            .private_key(&encrypted),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("ServerCertificateKeyFile", encrypted.as_path())
    );
    assert!(matches!(problem, TlsFileError::EncryptedKey), "{problem:?}");

    // A certificate file holding a key only.
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&server.key)
            .private_key(&server.key),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("ServerCertificateFile", server.key.as_path())
    );
    assert!(matches!(problem, TlsFileError::NoCertificate));

    // Another certificate's key.
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&server.cert)
            .private_key(&other.key),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("ServerCertificateKeyFile", other.key.as_path())
    );
    assert!(matches!(problem, TlsFileError::KeyMismatch));

    // Broken PEM.
    let broken = dir.join("broken.pem");
    std::fs::write(
        &broken,
        "-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n",
    )
    .unwrap();
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&broken)
            .private_key(&server.key),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!((setting, path), ("ServerCertificateFile", broken.as_path()));
    assert!(matches!(problem, TlsFileError::Pem(_)), "{problem:?}");

    // Certificate authorities: an empty file, for an acceptor verifying clients
    // and for an initiator.
    let empty = dir.join("empty.pem");
    std::fs::write(&empty, "").unwrap();
    let e = start_error(
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&server.cert)
            .private_key(&server.key)
            .ca_file(&empty)
            .certificate_verify_level(ClientAuth::Required),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("CertificationAuthoritiesFile", empty.as_path())
    );
    assert!(matches!(problem, TlsFileError::NoCertificate));
    let e = start_error(
        initiator("C1", "EXEC", port)
            .socket_use_ssl(true)
            .ca_file(&empty),
    )
    .await;
    assert_eq!(
        e.to_string(),
        format!(
            "session FIX.4.4:C1->EXEC: CertificationAuthoritiesFile {}: holds no certificate (a PEM CERTIFICATE section)",
            empty.display()
        )
    );

    // An initiator's client certificate, its key missing.
    let no_key = dir.join("no.key");
    let e = start_error(
        tls_initiator("C1", "EXEC", port, &ca.cert)
            .certificate(&server.cert)
            .private_key(&no_key),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("ClientCertificateKeyFile", no_key.as_path())
    );
    assert!(matches!(problem, TlsFileError::Read(_)));

    // A server name that is no DNS name.
    let e =
        start_error(tls_initiator("C1", "EXEC", port, &ca.cert).sni_host_name("fix..example.com"))
            .await;
    assert!(
        matches!(e.kind(), EngineErrorKind::TlsServerName { setting, name, .. } if setting == "SNIHostName" && name == "fix..example.com"),
        "{e}"
    );
}

#[tokio::test]
async fn a_certificate_file_holding_its_key_serves_as_both() {
    // QuickFIX reads the key from the certificate's file when no key file is
    // given.
    let dir = TestDir::new("tls-combined");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let combined = dir.join("combined.pem");
    let pem = std::fs::read_to_string(&server.cert).unwrap()
        + &std::fs::read_to_string(&server.key).unwrap();
    std::fs::write(&combined, pem).unwrap();
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = Engine::start(
        settings([acceptor("EXEC", "C1", 0)
            .socket_use_ssl(true)
            .certificate(&combined)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let ini = start([tls_initiator("C1", "EXEC", port, &ca.cert)], &tx, false).await;
    logged_on(&ini, &id("C1", "EXEC")).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn certificates_a_revocation_list_revokes_are_refused_on_both_sides() {
    let dir = TestDir::new("tls-revocation");
    let server_ca = Ca::new(&dir, "server-ca");
    let client_ca = Ca::new(&dir, "client-ca");
    let server = server_ca.server("server");
    let good = client_ca.client("good");
    let revoked = client_ca.client("revoked");
    let client_list = client_ca.revocation_list("clients", &[&revoked]);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let template = SessionBuilder::acceptor(id("EXEC", "*"))
        .acceptor_template(true)
        .socket_accept_address("127.0.0.1")
        .socket_accept_port(0)
        .schedule(fix_engine::config::Schedule::non_stop())
        .socket_use_ssl(true)
        .certificate(&server.cert)
        .private_key(&server.key)
        .ca_file(&client_ca.cert)
        .certificate_verify_level(ClientAuth::Required)
        .revocation_lists(&client_list);
    let acc = start([template], &tx, false).await;
    let port = port_of(&acc);

    // A client whose certificate the acceptor's list revokes: refused, again.
    let (revoked_port, revoked_tries) = counting_proxy(port).await;
    let refused = Engine::start(
        settings([
            tls_initiator("REVOKED", "EXEC", revoked_port, &server_ca.cert)
                .certificate(&revoked.cert)
                .private_key(&revoked.key),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    refused_and_retried(&refused, &id("REVOKED", "EXEC"), &revoked_tries, &mut rx).await;
    assert!(acc.session(&id("EXEC", "REVOKED")).is_none());

    // Another of the authority's clients: logged on, its own list (of the
    // server's authority, revoking nothing) checked too.
    let server_list = server_ca.revocation_list("servers", &[]);
    let admitted = Engine::start(
        settings([tls_initiator("GOOD", "EXEC", port, &server_ca.cert)
            .certificate(&good.cert)
            .private_key(&good.key)
            .revocation_lists(&server_list)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    logged_on(&admitted, &id("GOOD", "EXEC")).await;

    // An initiator whose list revokes the acceptor's certificate: refused.
    let revoked_server = server_ca.revocation_list("revoked-server", &[&server]);
    let (proxy_port, proxy_tries) = counting_proxy(port).await;
    let distrustful = Engine::start(
        settings([tls_initiator("WARY", "EXEC", proxy_port, &server_ca.cert)
            .certificate(&good.cert)
            .private_key(&good.key)
            .revocation_lists(&revoked_server)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    refused_and_retried(&distrustful, &id("WARY", "EXEC"), &proxy_tries, &mut rx).await;

    for engine in [refused, admitted, distrustful, acc] {
        engine.shutdown(Duration::from_secs(5)).await.unwrap();
    }
}

#[tokio::test]
async fn a_revocation_list_file_without_a_list_is_refused_at_start() {
    let dir = TestDir::new("tls-revocation-empty");
    let ca = Ca::new(&dir, "ca");
    let (_held, port) = held_listener();
    let error =
        start_error(tls_initiator("C1", "EXEC", port, &ca.cert).revocation_lists(&ca.cert)).await;
    let (setting, path, _) = tls_file(&error);
    assert_eq!(
        (setting, path),
        ("CertificateRevocationListFile", ca.cert.as_path())
    );
    assert!(
        error.to_string().contains("holds no revocation list"),
        "{error}"
    );
}

#[tokio::test]
async fn client_certificate_names_bind_each_session_to_its_counterparty_s_certificate() {
    let dir = TestDir::new("tls-bound");
    let server_ca = Ca::new(&dir, "server-ca");
    let client_ca = Ca::new(&dir, "client-ca");
    let server = server_ca.server("server");
    // DESK-A's certificate names it by CommonName; DESK-B's by a DNS name
    // among its subject alternative names.
    let desk_a = client_ca.client("DESK-A");
    let desk_b = client_ca.client_with_names("b-cert", &["desk-b.clients.example"]);
    let (tx, mut rx) = mpsc::unbounded_channel();
    // Any CompID may log on, but only with a certificate naming it.
    let template = SessionBuilder::acceptor(id("EXEC", "*"))
        .acceptor_template(true)
        .socket_accept_address("127.0.0.1")
        .socket_accept_port(0)
        .schedule(fix_engine::config::Schedule::non_stop())
        .socket_use_ssl(true)
        .certificate(&server.cert)
        .private_key(&server.key)
        .ca_file(&client_ca.cert)
        .certificate_verify_level(ClientAuth::Required)
        .client_certificate_names("{TargetCompID},{TargetCompID}.clients.example");
    let acc = start([template], &tx, false).await;
    let port = port_of(&acc);

    // DESK-A's certificate, presented as DESK-B: signed by the right
    // authority, but naming another CompID. Refused, again and again.
    let (impostor_port, tries) = counting_proxy(port).await;
    let impostor = Engine::start(
        settings([
            tls_initiator("desk-b", "EXEC", impostor_port, &server_ca.cert)
                .certificate(&desk_a.cert)
                .private_key(&desk_a.key),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    refused_and_retried(&impostor, &id("desk-b", "EXEC"), &tries, &mut rx).await;
    assert!(
        acc.session(&id("EXEC", "desk-b")).is_none(),
        "no session made"
    );

    // Each with its own certificate: logged on.
    let honest = Engine::start(
        settings([
            tls_initiator("DESK-A", "EXEC", port, &server_ca.cert)
                .certificate(&desk_a.cert)
                .private_key(&desk_a.key),
            tls_initiator("desk-b", "EXEC", port, &server_ca.cert)
                .certificate(&desk_b.cert)
                .private_key(&desk_b.key),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    impostor.shutdown(Duration::from_secs(5)).await.unwrap();
    logged_on(&honest, &id("DESK-A", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "DESK-A")).await;
    logged_on(&honest, &id("desk-b", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "desk-b")).await;
    // The application sees the certificate each logged on with.
    let der = |path: &Path| {
        use rustls::pki_types::pem::PemObject;
        rustls::pki_types::CertificateDer::from_pem_file(path)
            .unwrap()
            .to_vec()
    };
    let seen = acc
        .session(&id("EXEC", "DESK-A"))
        .unwrap()
        .peer_certificate();
    assert_eq!(seen.as_deref(), Some(der(&desk_a.cert).as_slice()));
    let seen = acc
        .session(&id("EXEC", "desk-b"))
        .unwrap()
        .peer_certificate();
    assert_eq!(seen.as_deref(), Some(der(&desk_b.cert).as_slice()));

    // Names without client certificates required: an error at build time.
    let unbound = tls_acceptor("EXEC", "X", port, &server)
        .client_certificate_names("X")
        .build();
    assert!(unbound.is_err());

    honest.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn certificate_checks_turned_off_take_any_certificate_and_say_so_in_the_event_log() {
    let dir = TestDir::new("tls-unchecked");
    let ca = Ca::new(&dir, "ca");
    let other_ca = Ca::new(&dir, "other-ca");
    let server = ca.server("server");
    let stranger = other_ca.client("stranger");
    let logs = dir.join("logs");
    let (tx, mut rx) = mpsc::unbounded_channel();
    // Clients' certificates required but not checked (QuickFIX/n's
    // SSLValidateCertificates=N): no authority to give.
    let acc = Engine::start(
        settings([tls_acceptor("EXEC", "STRANGER", 0, &server)
            .certificate_verify_level(ClientAuth::Required)
            .ssl_validate_certificates(false)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let strict = Engine::start(
        settings([tls_acceptor("EXEC", "STRICT", 0, &server)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let strict_port = port_of(&strict);
    let (nocert_port, nocert_tries) = counting_proxy(port).await;
    let (checked_port, checked_tries) = counting_proxy(strict_port).await;
    let ini = Engine::start(
        settings([
            // A certificate from an authority the acceptor does not know, and
            // the acceptor's unchecked (QuickFIX/n's switch): logged on.
            initiator("STRANGER", "EXEC", port)
                .socket_use_ssl(true)
                .ssl_validate_certificates(false)
                .certificate(&stranger.cert)
                .private_key(&stranger.key)
                .file_log_path(&logs),
            // QuickFIX/Go's switch, to an acceptor asking for nothing.
            initiator("STRICT", "EXEC", strict_port)
                .socket_use_ssl(true)
                .socket_insecure_skip_verify(true),
            // A certificate is still required where the acceptor says so.
            initiator("NOCERT", "EXEC", nocert_port)
                .socket_use_ssl(true)
                .ssl_validate_certificates(false),
            // Checks on (the default), the system's authorities, which do not
            // vouch for a test CA: refused.
            initiator("CHECKED", "EXEC", checked_port).socket_use_ssl(true),
        ]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    logged_on(&ini, &id("STRANGER", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "STRANGER")).await;
    logged_on(&ini, &id("STRICT", "EXEC")).await;
    refused_and_retried(&ini, &id("NOCERT", "EXEC"), &nocert_tries, &mut rx).await;
    refused_and_retried(&ini, &id("CHECKED", "EXEC"), &checked_tries, &mut rx).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    strict.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
    let events = std::fs::read_dir(&logs)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".event.current.log"))
        .expect("an event log");
    let events = std::fs::read_to_string(events).unwrap();
    assert!(
        events.contains("TLS without certificate checks"),
        "the event log does not say so: {events}"
    );
}

/// Set in the child run of the test below: the server's certificate and key
/// files, from a CA that SSL_CERT_FILE names.
const SYSTEM_ROOTS_CHILD: &str = "FIX_TLS_SYSTEM_ROOTS_CHILD";

#[tokio::test]
async fn an_initiator_without_a_ca_file_trusts_the_system_s_authorities() {
    // The system's authorities come from SSL_CERT_FILE when it is set: the
    // test runs itself again with it naming a test CA (a process's own
    // environment is not to be changed while its threads run).
    let Ok(files) = std::env::var(SYSTEM_ROOTS_CHILD) else {
        let dir = TestDir::new("tls-system-roots");
        let ca = Ca::new(&dir, "ca");
        let server = ca.server("server");
        let files = format!("{}\n{}", server.cert.display(), server.key.display());
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "tls::an_initiator_without_a_ca_file_trusts_the_system_s_authorities",
                "--nocapture",
                "-q",
            ])
            .env(SYSTEM_ROOTS_CHILD, files)
            .env("SSL_CERT_FILE", &ca.cert)
            .status()
            .unwrap();
        assert!(status.success(), "the child run failed: {status}");
        return;
    };
    let (cert, key) = files.split_once('\n').unwrap();
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = Engine::start(
        settings([acceptor("EXEC", "SYSTEM", 0)
            .socket_use_ssl(true)
            .certificate(cert)
            .private_key(key)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let ini = Engine::start(
        settings([initiator("SYSTEM", "EXEC", port_of(&acc)).socket_use_ssl(true)]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    logged_on(&ini, &id("SYSTEM", "EXEC")).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn encrypted_pkcs8_keys_serve_with_their_password_on_both_sides() {
    let dir = TestDir::new("tls-encrypted");
    let server_ca = Ca::new(&dir, "server-ca");
    let client_ca = Ca::new(&dir, "client-ca");
    let server = server_ca.server("server");
    let client = client_ca.client("client");
    let Some(server_key) = encrypted_key(&server, "server pass") else {
        return;
    };
    let Some(client_key) = encrypted_key(&client, "client-pass") else {
        return;
    };
    // The client's certificate and its encrypted key in one file, as
    // QuickFIX reads it without a key file.
    let combined = dir.join("client-combined.pem");
    let pem = std::fs::read_to_string(&client.cert).unwrap()
        + &std::fs::read_to_string(&client_key).unwrap();
    std::fs::write(&combined, pem).unwrap();
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C1", 0)
            .socket_use_ssl(true)
            .certificate(&server.cert)
            .private_key(&server_key)
            .ssl_certificate_password("server pass")
            .ca_file(&client_ca.cert)
            .certificate_verify_level(ClientAuth::Required)],
        &tx,
        false,
    )
    .await;
    let port = port_of(&acc);
    let ini = start(
        [tls_initiator("C1", "EXEC", port, &server_ca.cert)
            .certificate(&combined)
            .ssl_certificate_password("client-pass")],
        &tx,
        false,
    )
    .await;
    logged_on(&ini, &id("C1", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "C1")).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn encrypted_keys_the_engine_cannot_open_are_refused_at_start_saying_why() {
    let dir = TestDir::new("tls-encrypted-refused");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let Some(encrypted) = encrypted_key(&server, "right") else {
        return;
    };
    let (_held, port) = held_listener();
    let with_key = |key: &Path| {
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(&server.cert)
            .private_key(key)
    };

    // A wrong password: an error at start, and in fixcfg's check.
    let wrong = with_key(&encrypted).ssl_certificate_password("not-the-password");
    let e = start_error(wrong.clone()).await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!(
        (setting, path),
        ("ServerCertificateKeyFile", encrypted.as_path())
    );
    assert!(
        matches!(problem, TlsFileError::WrongPassword),
        "{problem:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "session FIX.4.4:EXEC->C1: ServerCertificateKeyFile {}: the private key does not decrypt with SSLCertificatePassword: the password is wrong (or the file is damaged)",
            encrypted.display()
        )
    );
    let checks = fix_engine::config::check_files(&wrong.build().unwrap());
    let tls = checks.iter().find(|c| c.key == "SocketUseSSL").unwrap();
    assert!(
        tls.result
            .as_ref()
            .unwrap_err()
            .contains("the password is wrong"),
        "{tls}"
    );
    // The password itself is never printed.
    assert!(!tls.to_string().contains("not-the-password"), "{tls}");

    // No password.
    let e = start_error(with_key(&encrypted)).await;
    assert!(matches!(tls_file(&e).2, TlsFileError::EncryptedKey), "{e}");
    assert!(
        e.to_string()
            .contains("SSLCertificatePassword is not given"),
        "{e}"
    );

    // OpenSSL's traditional encryption (`openssl ec -aes256`): refused,
    // naming the command that converts it.
    let traditional = dir.join("traditional.key");
    assert!(openssl(&[
        "ec",
        "-in",
        server.key.to_str().unwrap(),
        "-aes256",
        "-passout",
        "pass:right",
        "-out",
        traditional.to_str().unwrap(),
    ]));
    let e = start_error(with_key(&traditional).ssl_certificate_password("right")).await;
    assert!(
        matches!(tls_file(&e).2, TlsFileError::KeyEncryption(_)),
        "{e}"
    );
    assert!(
        e.to_string().contains("OpenSSL's traditional PEM encryption (Proc-Type: 4,ENCRYPTED), which is not read: convert it to encrypted PKCS#8 (openssl pkcs8 -topk8 -v2 aes-256-cbc"),
        "{e}"
    );
}

/// What `openssl pkcs12 -info` (with `options`) says of how PKCS#12 file
/// `p12` is protected.
fn pkcs12_info(p12: &Path, password: &str, options: &[&str]) -> String {
    let out = std::process::Command::new("openssl")
        .args(["pkcs12", "-info", "-noout"])
        .args(options)
        .arg("-passin")
        .arg(format!("pass:{password}"))
        .arg("-in")
        .arg(p12)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout)
}

#[tokio::test]
async fn pkcs12_files_serve_mutual_tls_with_their_password() {
    let dir = TestDir::new("tls-pkcs12");
    let server_ca = Ca::new(&dir, "server-ca");
    let client_ca = Ca::new(&dir, "client-ca");
    let server = server_ca.server("server");
    let client = client_ca.client("client");
    // The acceptor's certificate, its authority's after it and its key, as
    // OpenSSL 3 writes them by default: PBES2 (PBKDF2 with HMAC-SHA256,
    // AES-256-CBC) for both bags, an HMAC-SHA256 MAC.
    let Some(server_p12) = pkcs12(&server, Some(&server_ca.cert), "server pass", &[], "server")
    else {
        return;
    };
    let info = pkcs12_info(&server_p12, "server pass", &[]);
    assert!(info.contains("MAC: sha256"), "{info}");
    assert!(info.contains("PBES2, PBKDF2, AES-256-CBC"), "{info}");
    assert!(!info.contains("RC2") && !info.contains("3DES"), "{info}");
    // The initiator's with the empty password (`-passout pass:`), no
    // SSLCertificatePassword given.
    let client_p12 = pkcs12(&client, None, "", &[], "client").unwrap();
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C1", 0)
            .socket_use_ssl(true)
            .certificate(&server_p12)
            .ssl_certificate_password("server pass")
            .ca_file(&client_ca.cert)
            .certificate_verify_level(ClientAuth::Required)],
        &tx,
        false,
    )
    .await;
    let port = port_of(&acc);
    let ini = start(
        [tls_initiator("C1", "EXEC", port, &server_ca.cert).certificate(&client_p12)],
        &tx,
        false,
    )
    .await;
    logged_on(&ini, &id("C1", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "C1")).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();

    // A PKCS#12 file as the key file beside a PEM certificate: its key is
    // taken (fixcfg's check of the files, which opens them as the engine does).
    let key_file = acceptor("EXEC", "C1", 0)
        .socket_use_ssl(true)
        .certificate(&server.cert)
        .private_key(&server_p12)
        .ssl_certificate_password("server pass");
    let checks = fix_engine::config::check_files(&key_file.build().unwrap());
    let tls = checks.iter().find(|c| c.key == "SocketUseSSL").unwrap();
    assert!(tls.result.is_ok(), "{tls}");
    // Bags left unencrypted, a SHA-512 MAC: read too.
    let options = ["-certpbe", "NONE", "-keypbe", "NONE", "-macalg", "sha512"];
    let plain_bags = pkcs12(&server, None, "mac only", &options, "plain-bags").unwrap();
    let checks = fix_engine::config::check_files(
        &acceptor("EXEC", "C1", 0)
            .socket_use_ssl(true)
            .certificate(&plain_bags)
            .ssl_certificate_password("mac only")
            .build()
            .unwrap(),
    );
    let tls = checks.iter().find(|c| c.key == "SocketUseSSL").unwrap();
    assert!(tls.result.is_ok(), "{tls}");
}

#[tokio::test]
async fn pkcs12_files_the_engine_cannot_open_are_refused_at_start_saying_why() {
    let dir = TestDir::new("tls-pkcs12-refused");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let Some(p12) = pkcs12(&server, None, "right", &[], "server") else {
        return;
    };
    let (_held, port) = held_listener();
    let with = |file: &Path| {
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .certificate(file)
    };

    // A wrong password: an error at start naming the file, and in fixcfg's check.
    let wrong = with(&p12).ssl_certificate_password("not-the-password");
    let e = start_error(wrong.clone()).await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!((setting, path), ("ServerCertificateFile", p12.as_path()));
    assert!(
        matches!(problem, TlsFileError::Pkcs12WrongPassword),
        "{problem:?}"
    );
    assert_eq!(
        e.to_string(),
        format!(
            "session FIX.4.4:EXEC->C1: ServerCertificateFile {}: is a PKCS#12 file that does not open with SSLCertificatePassword (its MAC does not verify): the password is wrong (or the file is damaged)",
            p12.display()
        )
    );
    let checks = fix_engine::config::check_files(&wrong.build().unwrap());
    let tls = checks.iter().find(|c| c.key == "SocketUseSSL").unwrap();
    assert!(
        tls.result
            .as_ref()
            .unwrap_err()
            .contains("the password is wrong"),
        "{tls}"
    );
    assert!(!tls.to_string().contains("not-the-password"), "{tls}");

    // No password for a file that has one.
    let e = start_error(with(&p12)).await;
    assert!(
        matches!(tls_file(&e).2, TlsFileError::Pkcs12NoPassword),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("SSLCertificatePassword is not given"),
        "{e}"
    );

    // The legacy form (`-legacy`: RC2 and triple DES keyed by the PKCS#12
    // KDF, a SHA-1 MAC): refused whatever the password, naming the commands
    // that convert it.
    let legacy = pkcs12(&server, None, "right", &["-legacy"], "legacy").unwrap();
    let info = pkcs12_info(&legacy, "right", &["-legacy"]);
    assert!(info.contains("MAC: sha1"), "{info}");
    assert!(info.contains("RC2"), "{info}");
    let e = start_error(with(&legacy).ssl_certificate_password("right")).await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!((setting, path), ("ServerCertificateFile", legacy.as_path()));
    assert!(
        matches!(problem, TlsFileError::Pkcs12Legacy(_)),
        "{problem:?}"
    );
    assert!(
        e.to_string().contains(
            "which is not read: convert it to OpenSSL 3's default (AES-256-CBC, an HMAC-SHA256 MAC) with openssl pkcs12 -legacy -in file.p12 -nodes -out plain.pem, then openssl pkcs12 -export -in plain.pem -out new.p12"
        ),
        "{e}"
    );
    // The same with a wrong password: the form is named first.
    let e = start_error(with(&legacy).ssl_certificate_password("wrong")).await;
    assert!(
        matches!(tls_file(&e).2, TlsFileError::Pkcs12Legacy(_)),
        "{e}"
    );

    // Damaged: cut short anywhere, or a byte changed anywhere (the MAC
    // covers what the structure does not), an error in fixcfg's check, which
    // opens the file as the engine does; never a panic.
    let bytes = std::fs::read(&p12).unwrap();
    let damaged = dir.join("damaged.p12");
    let refused = |contents: &[u8], what: &str| {
        std::fs::write(&damaged, contents).unwrap();
        let checks = fix_engine::config::check_files(
            &with(&damaged)
                .ssl_certificate_password("right")
                .build()
                .unwrap(),
        );
        let tls = checks.iter().find(|c| c.key == "SocketUseSSL").unwrap();
        assert!(tls.result.is_err(), "{what}: {tls}");
    };
    for len in (0..bytes.len()).step_by(11) {
        refused(&bytes[..len], &format!("cut at {len}"));
    }
    for at in (0..bytes.len()).step_by(53) {
        let mut changed = bytes.clone();
        changed[at] ^= 0x5a;
        refused(&changed, &format!("byte {at} changed"));
    }
    refused(b"", "empty");
}

/// A trust store as `openssl pkcs12 -export -nokeys` writes it: the
/// certificates of `ca`, no key, with `password` and the `options` given.
fn trust_store(ca: &Path, password: &str, options: &[&str], name: &str) -> Option<PathBuf> {
    let out = ca.parent().unwrap().join(format!("{name}.p12"));
    let pass = format!("pass:{password}");
    let mut args = vec![
        "pkcs12",
        "-export",
        "-nokeys",
        "-in",
        ca.to_str().unwrap(),
        "-passout",
        &pass,
        "-out",
        out.to_str().unwrap(),
    ];
    args.extend(options);
    openssl(&args).then_some(out)
}

/// The `keytool` command with `args`: `false` when it is not installed (the
/// part of the test that needs it is skipped).
fn keytool(args: &[&str]) -> bool {
    match std::process::Command::new("keytool").args(args).output() {
        Ok(o) => {
            assert!(
                o.status.success(),
                "keytool {args:?}: {}{}",
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            );
            true
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("skipped in part: the keytool command is not installed");
            false
        }
        Err(e) => panic!("keytool {args:?}: {e}"),
    }
}

/// The TLS check `fixcfg check` makes of `builder`'s session.
fn tls_check(builder: SessionBuilder) -> Result<String, String> {
    let checks = fix_engine::config::check_files(&builder.build().unwrap());
    let tls = checks.iter().find(|c| c.key == "SocketUseSSL").unwrap();
    tls.result.clone()
}

#[tokio::test]
async fn quickfix_j_key_and_trust_stores_serve_mutual_tls_against_pem_files() {
    let dir = TestDir::new("tls-keystore");
    let server_ca = Ca::new(&dir, "server-ca");
    let client_ca = Ca::new(&dir, "client-ca");
    let server = server_ca.server("server");
    let client = client_ca.client("client");
    // The acceptor's key store: its certificate, its authority's and its
    // key, as openssl pkcs12 -export writes them (keytool's type since Java 9).
    let Some(key_store) = pkcs12(
        &server,
        Some(&server_ca.cert),
        "store pass",
        &[],
        "executor",
    ) else {
        return;
    };
    // Its trust store: the clients' authority, no key.
    let trust = trust_store(&client_ca.cert, "trust pass", &[], "executor-trust").unwrap();
    // The acceptor from a QuickFIX/J settings file; the initiator with PEM files.
    let text = format!(
        "[DEFAULT]\nConnectionType=acceptor\nSocketAcceptPort=0\nStartTime=00:00:00\nEndTime=00:00:00\n\
         SocketUseSSL=Y\nSocketKeyStore={}\nSocketKeyStorePassword=store pass\nKeyStoreType=pkcs12\n\
         SocketTrustStore={}\nSocketTrustStorePassword=trust pass\nTrustStoreType=PKCS12\nNeedClientAuth=Y\n\n\
         [SESSION]\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\n",
        key_store.display(),
        trust.display()
    );
    let settings = fix_engine::config::Settings::parse("qfj.cfg", &text).unwrap();
    let tls = settings.sessions()[0].tls.as_ref().unwrap();
    assert_eq!(tls.key_store.as_deref(), Some(key_store.as_path()));
    assert_eq!(tls.trust_store.as_deref(), Some(trust.as_path()));
    assert_eq!(tls.client_auth, ClientAuth::Required);
    let (tx, mut rx) = mpsc::unbounded_channel();
    let acc = Engine::start(settings, &fix44::DICTIONARY, recorders(&tx, false))
        .await
        .unwrap();
    let port = port_of(&acc);
    let ini = start(
        [tls_initiator("C1", "EXEC", port, &server_ca.cert)
            .certificate(&client.cert)
            .private_key(&client.key)],
        &tx,
        false,
    )
    .await;
    logged_on(&ini, &id("C1", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "C1")).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
    // A client without a certificate is refused: the trust store is used.
    let acc = Engine::start(
        fix_engine::config::Settings::parse("qfj.cfg", &text).unwrap(),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let (proxy, tries) = counting_proxy(port).await;
    while rx.try_recv().is_ok() {}
    let stranger = start(
        [tls_initiator("C1", "EXEC", proxy, &server_ca.cert)],
        &tx,
        false,
    )
    .await;
    refused_and_retried(&stranger, &id("C1", "EXEC"), &tries, &mut rx).await;
    stranger.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();

    // The other way round: a PEM acceptor, an initiator with a key store of
    // the empty password (no SocketKeyStorePassword) and a trust store
    // written without a MAC, its certificates unencrypted (no
    // SocketTrustStorePassword).
    let client_store = pkcs12(&client, None, "", &[], "client-store").unwrap();
    let plain_trust = trust_store(
        &server_ca.cert,
        "",
        &["-certpbe", "NONE", "-nomac"],
        "plain-trust",
    )
    .unwrap();
    let info = pkcs12_info(&plain_trust, "", &[]);
    assert!(!info.contains("MAC:"), "{info}");
    let acc = start(
        [tls_acceptor("EXEC", "C1", 0, &server)
            .ca_file(&client_ca.cert)
            .certificate_verify_level(ClientAuth::Required)],
        &tx,
        false,
    )
    .await;
    let port = port_of(&acc);
    let ini = start(
        [initiator("C1", "EXEC", port)
            .socket_use_ssl(true)
            .socket_key_store(&client_store)
            .socket_trust_store(&plain_trust)],
        &tx,
        false,
    )
    .await;
    logged_on(&ini, &id("C1", "EXEC")).await;
    logged_on(&acc, &id("EXEC", "C1")).await;
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();

    // Stores as keytool itself writes them (Java 17: PBES2 with AES-256, an
    // HMAC-SHA256 MAC): its copy of the key store and a trust store it
    // imported the authority into.
    let copy = dir.join("keytool-copy.p12");
    let trust_copy = dir.join("keytool-trust.p12");
    let (src, dest) = (key_store.to_str().unwrap(), copy.to_str().unwrap());
    if keytool(&[
        "-importkeystore",
        "-srckeystore",
        src,
        "-srcstoretype",
        "pkcs12",
        "-srcstorepass",
        "store pass",
        "-destkeystore",
        dest,
        "-deststoretype",
        "pkcs12",
        "-deststorepass",
        "copy pass",
        "-noprompt",
    ]) {
        assert!(keytool(&[
            "-importcert",
            "-noprompt",
            "-alias",
            "clients",
            "-file",
            client_ca.cert.to_str().unwrap(),
            "-keystore",
            trust_copy.to_str().unwrap(),
            "-storetype",
            "pkcs12",
            "-storepass",
            "changeit",
        ]));
        let found = tls_check(
            acceptor("EXEC", "C1", 0)
                .socket_use_ssl(true)
                .socket_key_store(&copy)
                .socket_key_store_password("copy pass")
                .socket_trust_store(&trust_copy)
                .socket_trust_store_password("changeit")
                .need_client_auth(true),
        );
        assert!(found.is_ok(), "{found:?}");
    }
}

#[tokio::test]
async fn key_and_trust_stores_the_engine_cannot_open_are_refused_at_start_naming_why() {
    let dir = TestDir::new("tls-keystore-refused");
    let ca = Ca::new(&dir, "ca");
    let server = ca.server("server");
    let Some(key_store) = pkcs12(&server, None, "right", &[], "server") else {
        return;
    };
    let (_held, port) = held_listener();
    let with = |store: &Path| {
        acceptor("EXEC", "C1", port)
            .socket_use_ssl(true)
            .socket_key_store(store)
    };

    // A JKS key store (its magic number, then anything): refused at start
    // naming the keytool command that converts it, and in fixcfg's check.
    let jks = dir.join("executor.keystore");
    let mut bytes = vec![0xfe, 0xed, 0xfe, 0xed, 0, 0, 0, 2];
    bytes.extend_from_slice(b"not really a key store");
    std::fs::write(&jks, &bytes).unwrap();
    let e = start_error(with(&jks).socket_key_store_password("changeit")).await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!((setting, path), ("SocketKeyStore", jks.as_path()));
    assert!(
        matches!(problem, TlsFileError::JavaKeyStore { kind: "JKS", .. }),
        "{problem:?}"
    );
    let keytool_command = format!(
        "keytool -importkeystore -srckeystore {0} -destkeystore {0}.p12 -deststoretype pkcs12",
        jks.display()
    );
    assert!(e.to_string().contains(&keytool_command), "{e}");
    let found = tls_check(with(&jks));
    assert!(
        found.as_ref().unwrap_err().contains(&keytool_command),
        "{found:?}"
    );
    // A JCEKS trust store, the same.
    let jceks = dir.join("trust.jceks");
    std::fs::write(&jceks, [0xce, 0xce, 0xce, 0xce, 0, 0, 0, 2, 1, 2, 3]).unwrap();
    let e = start_error(
        with(&key_store)
            .socket_key_store_password("right")
            .socket_trust_store(&jceks)
            .need_client_auth(true),
    )
    .await;
    let (setting, path, problem) = tls_file(&e);
    assert_eq!((setting, path), ("SocketTrustStore", jceks.as_path()));
    assert!(
        matches!(problem, TlsFileError::JavaKeyStore { kind: "JCEKS", .. }),
        "{problem:?}"
    );
    assert!(e.to_string().contains("keytool -importkeystore"), "{e}");
    // A JKS store as keytool writes it, when keytool is here.
    let real_jks = dir.join("real.jks");
    if keytool(&[
        "-importkeystore",
        "-srckeystore",
        key_store.to_str().unwrap(),
        "-srcstoretype",
        "pkcs12",
        "-srcstorepass",
        "right",
        "-destkeystore",
        real_jks.to_str().unwrap(),
        "-deststoretype",
        "jks",
        "-deststorepass",
        "changeit",
        "-noprompt",
    ]) {
        let e = start_error(with(&real_jks).socket_key_store_password("changeit")).await;
        assert!(
            matches!(
                tls_file(&e).2,
                TlsFileError::JavaKeyStore { kind: "JKS", .. }
            ),
            "{e}"
        );
    }

    // A wrong password, and none for a store that has one: the key store's
    // password setting named.
    let e = start_error(with(&key_store).socket_key_store_password("not-the-password")).await;
    let (setting, _, problem) = tls_file(&e);
    assert_eq!(setting, "SocketKeyStore");
    assert!(
        matches!(
            problem,
            TlsFileError::StorePassword {
                setting: "SocketKeyStorePassword",
                given: true
            }
        ),
        "{problem:?}"
    );
    assert!(
        e.to_string()
            .contains("does not open with SocketKeyStorePassword"),
        "{e}"
    );
    assert!(!e.to_string().contains("not-the-password"), "{e}");
    let e = start_error(with(&key_store)).await;
    assert!(
        e.to_string()
            .contains("SocketKeyStorePassword is not given"),
        "{e}"
    );
    // A trust store as the key store: no key, said so.
    let trust = trust_store(&ca.cert, "t", &[], "trust").unwrap();
    let e = start_error(with(&trust).socket_key_store_password("t")).await;
    assert!(e.to_string().contains("holds no private key"), "{e}");
    // A PEM file as a store: not PKCS#12, said so.
    let e = start_error(with(&server.cert)).await;
    assert!(e.to_string().contains("not a PKCS#12 file"), "{e}");
    // Damaged stores: errors, never a panic.
    let bytes = std::fs::read(&key_store).unwrap();
    let damaged = dir.join("damaged.p12");
    for len in (0..bytes.len()).step_by(37) {
        std::fs::write(&damaged, &bytes[..len]).unwrap();
        let found = tls_check(with(&damaged).socket_key_store_password("right"));
        assert!(found.is_err(), "cut at {len}");
    }
}
