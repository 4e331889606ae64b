//! Built without the `tls` feature, the engine refuses `SocketUseSSL=Y` at
//! start rather than run the session in the clear.
#![cfg(not(feature = "tls"))]

mod common;

use common::*;
use fix_engine::{Engine, EngineErrorKind};
use tokio::sync::mpsc;

#[tokio::test]
async fn socket_use_ssl_is_refused_at_start() {
    // Held by the test: an engine that bound before it refused the
    // setting would fail with Bind instead.
    let (_held, port) = held_listener();
    let (tx, _rx) = mpsc::unbounded_channel();
    let session = acceptor("EXEC", "C1", port)
        .socket_use_ssl(true)
        .certificate("server.crt");
    let e = Engine::start(
        settings([session]),
        &fix44::DICTIONARY,
        recorders(&tx, false),
    )
    .await
    .expect_err("the engine started");
    assert!(matches!(
        e.kind(),
        EngineErrorKind::Unsupported {
            setting: "SocketUseSSL",
            ..
        }
    ));
    assert_eq!(
        e.to_string(),
        "session FIX.4.4:EXEC->C1: SocketUseSSL=Y needs fix-engine's `tls` feature, which this build leaves out"
    );
}
