//! Settings the engine applies, on real sockets: an initiator connects from
//! SocketConnectSourceHost/SocketConnectSourcePort with its buffer sizes and
//! keep-alive, and sends its LogonTag fields; an acceptor with
//! SocketReuseAddress=N and its own options listens and takes a connection,
//! and refuses an address AllowedRemoteAddresses does not list; a directory
//! of certificate authorities is read.

use std::time::Duration;

use crate::common;
use crate::common::*;
use tokio::net::TcpListener;
use tokio::sync::mpsc;

#[tokio::test]
async fn an_initiator_connects_from_its_source_address_and_port() {
    let venue = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = venue.local_addr().unwrap().port();
    // The source port is held for the test by a socket bound to it with
    // SO_REUSEADDR (never listening nor connected): the system gives it to
    // no one else, and the engine, which binds a source port with
    // SO_REUSEADDR, may bind it beside.
    let reserved =
        socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    reserved.set_reuse_address(true).unwrap();
    reserved
        .bind(&std::net::SocketAddr::from(([127, 0, 0, 1], 0)).into())
        .unwrap();
    let source = reserved.local_addr().unwrap().as_socket().unwrap().port();
    let (tx, _rx) = mpsc::unbounded_channel();
    let _ini = start(
        [initiator("C1", "EXEC", port)
            .socket_connect_source_host("127.0.0.1")
            .socket_connect_source_port(source)
            .socket_receive_buffer_size(256 * 1024)
            .socket_send_buffer_size(256 * 1024)
            .socket_keepalive(true)],
        &tx,
        false,
    )
    .await;
    let (_stream, peer) = tokio::time::timeout(Duration::from_secs(10), venue.accept())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (peer.ip().to_string(), peer.port()),
        ("127.0.0.1".into(), source)
    );
}

#[tokio::test]
async fn an_acceptor_listens_with_its_socket_options() {
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C1", 0)
            .socket_reuse_address(false)
            .socket_receive_buffer_size(128 * 1024)
            .socket_keepalive(true)],
        &tx,
        true,
    )
    .await;
    let port = port_of(&acc);
    assert_eq!(acc.local_addrs()[0].port(), port);
    let client = tokio::net::TcpStream::connect(("127.0.0.1", port)).await;
    assert!(client.is_ok());
}

/// Whether the acceptor answers a raw Logon from 127.0.0.1.
async fn answers_logon(allowed: &str) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (tx, _rx) = mpsc::unbounded_channel();
    let acc = start(
        [acceptor("EXEC", "C1", 0).allowed_remote_addresses(allowed)],
        &tx,
        true,
    )
    .await;
    let port = port_of(&acc);
    let mut raw = tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .unwrap();
    raw.write_all(&logon("C1", "EXEC")).await.unwrap();
    let mut buf = [0u8; 256];
    let n = tokio::time::timeout(Duration::from_secs(10), raw.read(&mut buf))
        .await
        .unwrap()
        .unwrap_or(0);
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
    n > 0
}

#[tokio::test]
async fn allowed_remote_addresses_refuse_other_peers_at_their_logon() {
    assert!(!answers_logon("10.9.9.9").await, "refused: not in the list");
    assert!(answers_logon("10.9.9.9, 127.0.0.1").await);
    assert!(answers_logon("localhost").await, "a host name, resolved");
}

#[tokio::test]
async fn an_initiators_logon_carries_its_logon_tags() {
    use tokio::io::AsyncReadExt;
    let venue = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = venue.local_addr().unwrap().port();
    let settings = fix_engine::config::Settings::parse(
        "t.cfg",
        &format!(
            "[SESSION]\nConnectionType=initiator\nBeginString=FIX.4.4\nSenderCompID=C1\nTargetCompID=EXEC\nHeartBtInt=30\nSocketConnectHost=127.0.0.1\nSocketConnectPort={port}\nLogonTag1=554=secret\nLogonTag=553=user\n"
        ),
    )
    .unwrap();
    let (tx, _rx) = mpsc::unbounded_channel();
    let _ini = fix_engine::Engine::start(settings, &fix44::DICTIONARY, recorders(&tx, false))
        .await
        .unwrap();
    let (mut stream, _) = tokio::time::timeout(Duration::from_secs(10), venue.accept())
        .await
        .unwrap()
        .unwrap();
    let mut logon = Vec::new();
    let mut buf = [0u8; 512];
    while !logon.windows(4).any(|w| w == b"\x0110=") {
        let n = tokio::time::timeout(Duration::from_secs(10), stream.read(&mut buf))
            .await
            .unwrap()
            .unwrap();
        assert!(n > 0, "closed before the Logon");
        logon.extend_from_slice(&buf[..n]);
    }
    let text = String::from_utf8_lossy(&logon);
    assert!(text.contains("\x0135=A\x01"), "{text}");
    assert!(text.contains("\x01553=user\x01554=secret\x01"), "{text}");
}

// Without the `tls` feature the engine reads no TLS file.
#[cfg(feature = "tls")]
#[test]
fn a_directory_of_certificate_authorities_is_read() {
    use fix_engine::config::{Settings, check_files};
    use fix_test_support::temp_dir::TestDir;
    let dir = TestDir::new("ca-directory");
    let cas = dir.join("cas");
    std::fs::create_dir_all(&cas).unwrap();
    let ca = common::certs::Ca::new(&cas, "ca");
    // A second authority's file beside it: every file of the directory is read.
    common::certs::Ca::new(&cas, "other");
    let server = ca.server("server");
    let text = format!(
        "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptPort=5001\n\
         SocketUseSSL=Y\nServerCertificateFile={}\nServerCertificateKeyFile={}\nCertificateVerifyLevel=1\nCertificationAuthoritiesDirectory={}\n",
        server.cert.display(),
        server.key.display(),
        cas.display()
    );
    let s = Settings::parse("t.cfg", &text).unwrap();
    assert_eq!(
        s.sessions()[0].tls.as_ref().unwrap().ca_file.as_deref(),
        Some(cas.as_path())
    );
    let checks = check_files(&s.sessions()[0]);
    assert!(checks.iter().all(|c| c.result.is_ok()), "{checks:?}");
    // A directory without certificates is an error naming it.
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let s = Settings::parse(
        "t.cfg",
        &text.replace(&cas.display().to_string(), &empty.display().to_string()),
    )
    .unwrap();
    let checks = check_files(&s.sessions()[0]);
    let tls = checks.iter().find(|c| c.key == "SocketUseSSL").unwrap();
    assert!(
        tls.result
            .as_ref()
            .is_err_and(|e| e.contains("CertificationAuthoritiesFile")),
        "{tls}"
    );
}
