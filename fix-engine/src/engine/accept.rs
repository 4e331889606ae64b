//! The acceptor side: a listener per port, and each new connection up to the
//! session its first message (a Logon) names, with the TLS a port is
//! configured with.

use std::io;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use fix_core::Parser;
use fix_core::validate::Schema;
use fix_session::SessionId;
use tokio::net::{TcpListener, TcpStream};
use tracing::Instrument;

use super::{EngineError, Inner, stopped};
use crate::config::SessionSettings;
use crate::handle::Gate;
use crate::transport::Stream;

/// An acceptor port's TLS configuration, `None` for plain TCP.
#[cfg(feature = "tls")]
pub(super) type ServerTls = Option<Arc<rustls::ServerConfig>>;
#[cfg(not(feature = "tls"))]
pub(super) type ServerTls = Option<super::NoTls>;

/// An acceptor port's listener: a task per connection, until shutdown.
pub(super) async fn listen<D: Schema + Send + Sync + 'static>(
    inner: Arc<Inner<D>>,
    listener: TcpListener,
    port: u16,
    tls: ServerTls,
) {
    let mut shutdown = inner.shutdown.subscribe();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => {
                    let span = tracing::info_span!("fix_accept", %peer);
                    inner.spawn(accept(inner.clone(), stream, port, tls.clone()).instrument(span));
                }
                Err(e) => {
                    // Out of file descriptors, say: pause rather than spin.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            () = stopped(&mut shutdown) => return,
        }
    }
}

/// A new connection on an acceptor port: its TLS handshake done (on a TLS
/// port), its first message names the session; an unknown one, or one outside
/// its schedule, is closed having touched nothing.
async fn accept<D: Schema + Send + Sync + 'static>(
    inner: Arc<Inner<D>>,
    tcp: TcpStream,
    port: u16,
    tls: ServerTls,
) {
    let Some((stream, initial, id)) = first_message(&inner, tcp, port, tls).await else {
        return;
    };
    let Some((entry, made)) = inner.acceptor_entry(&id, port) else {
        tracing::warn!(session = %id, "refused: no such session");
        return;
    };
    if entry.shared.gate() != Gate::Open {
        tracing::warn!(session = %id, "refused: the session is held by an operator");
        entry.event("Refused a Logon: the session is held by an operator");
        return;
    }
    let logged_on = match refusal(&entry.settings, &stream, &id) {
        None => inner.connection(&entry, stream, &initial).await,
        Some(why) => {
            tracing::warn!(session = %id, "refused: {why}");
            entry.event(&format!("Refused a connection: {why}"));
            false
        }
    };
    if made && !logged_on {
        inner.forget_template_session(entry);
    }
}

/// A new connection's TLS handshake and first message, a Logon, within the
/// first message's time, from an address the session allows: the stream,
/// the bytes read, the session the Logon names; `None` (closed, told to
/// tracing) otherwise, or when it waited longest among too many.
async fn first_message<D: Schema + Send + Sync + 'static>(
    inner: &Inner<D>,
    tcp: TcpStream,
    port: u16,
    tls: ServerTls,
) -> Option<(Stream, Vec<u8>, SessionId)> {
    let mut shutdown = inner.shutdown.subscribe();
    let (pending, close) = inner.pending.enter(inner.options.max_pending_connections);
    // The handshake and the first message share the first message's time.
    let first = async {
        let peer = tcp.peer_addr().ok();
        let mut stream = open(tcp, tls).await.map_err(|e| {
            tracing::warn!(error = %e, "refused: the TLS handshake failed");
        })?;
        let Some((initial, id)) = first_logon(&mut stream).await else {
            tracing::warn!("refused: no Logon");
            return Err(());
        };
        // Before a session is made for it (from a template).
        // A session added at run time is in the engine's map, not its settings.
        let known = inner
            .lock_sessions()
            .get(&id)
            .map(|e| e.settings.allowed_remote_addresses.clone());
        if !crate::net::allowed(&inner.settings, known, &id, port, peer).await {
            tracing::warn!(session = %id, ?peer, "refused: the address is not in AllowedRemoteAddresses");
            return Err(());
        }
        Ok((stream, initial, id))
    };
    let first = tokio::select! {
        first = tokio::time::timeout(inner.options.first_message_timeout, first) => first,
        () = close.notified() => {
            tracing::warn!("closed: waited longest among too many connections without a Logon");
            return None;
        }
        () = stopped(&mut shutdown) => {
            inner.pending.leave(pending);
            return None;
        }
    };
    inner.pending.leave(pending);
    match first {
        Ok(Ok(first)) => Some(first),
        Ok(Err(())) => None,
        Err(_) => {
            tracing::warn!("refused: no Logon in time");
            None
        }
    }
}

/// Why session `id` refuses this connection now, if it does: outside its
/// schedule, or a client certificate it does not bind.
fn refusal(settings: &SessionSettings, stream: &Stream, id: &SessionId) -> Option<&'static str> {
    if !settings.schedule.is_active(SystemTime::now()) {
        return Some("outside the session's schedule");
    }
    if !certificate_allowed(settings, stream, id) {
        return Some("its client certificate names none of ClientCertificateNames");
    }
    None
}

/// Whether the connection's client certificate may log on as the session
/// `settings` describe: any, unless `ClientCertificateNames` binds it.
#[cfg(feature = "tls")]
fn certificate_allowed(settings: &SessionSettings, stream: &Stream, id: &SessionId) -> bool {
    let Some(tls) = settings.tls.as_ref().filter(|t| !t.client_names.is_empty()) else {
        return true;
    };
    stream.peer_certificate().is_some_and(|der| {
        crate::tls::certificate_names(&der, &tls.client_names, &id.target_comp_id)
    })
}

#[cfg(not(feature = "tls"))]
fn certificate_allowed(_: &SessionSettings, _: &Stream, _: &SessionId) -> bool {
    true
}

/// An accepted connection's stream: TLS's server side on a TLS port.
async fn open(tcp: TcpStream, tls: ServerTls) -> io::Result<Stream> {
    match tls {
        None => Ok(Stream::plain(tcp)),
        #[cfg(feature = "tls")]
        Some(config) => Stream::accept(tcp, config).await,
        #[cfg(not(feature = "tls"))]
        Some(never) => match never {},
    }
}

/// Reads until the first message is complete; its bytes (and any after them)
/// and the session it is for, seen from our side, when it is a Logon.
async fn first_logon(stream: &mut Stream) -> Option<(Vec<u8>, SessionId)> {
    const MAX_FIRST: usize = 64 << 10;
    let parser = Parser::new();
    let mut buf = Vec::with_capacity(1024);
    let mut chunk = [0u8; 4096];
    loop {
        match parser.frame(&buf) {
            Ok(fix_core::Status::Complete(frame)) => {
                let id = logon_id(frame.bytes())?;
                return Some((buf, id));
            }
            Ok(fix_core::Status::Partial { .. }) if buf.len() < MAX_FIRST => {}
            _ => return None,
        }
        stream.ready(tokio::io::Interest::READABLE).await.ok()?;
        match stream.try_read(&mut chunk) {
            Ok(0) => return None,
            Ok(n) => buf.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(_) => return None,
        }
    }
}

/// The session a Logon is for, seen from our side: its TargetCompID is our
/// SenderCompID.
fn logon_id(msg: &[u8]) -> Option<SessionId> {
    let (mut begin, mut msg_type, mut sender, mut target) = (None, None, None, None);
    for field in msg.split(|&b| b == fix_core::SOH) {
        let Some(eq) = field.iter().position(|&b| b == b'=') else {
            continue;
        };
        let value = std::str::from_utf8(&field[eq + 1..]).ok();
        match &field[..eq] {
            b"8" => begin = value,
            b"35" => msg_type = value,
            b"49" => sender = value,
            b"56" => target = value,
            _ => {}
        }
        // The CompIDs are in the header: the body (a Logon's RawData, which
        // may hold SOH) is never read.
        if sender.is_some() && target.is_some() {
            break;
        }
    }
    if msg_type != Some("A") {
        return None;
    }
    Some(SessionId::new(begin?, target?, sender?))
}

/// The TLS configuration of listener `l`, its files read.
#[cfg(feature = "tls")]
pub(super) fn server_tls_of(l: &crate::config::Listener) -> Result<ServerTls, EngineError> {
    let Some(tls) = &l.tls else {
        return Ok(None);
    };
    // A listener has a session or a template: errors are told under the first.
    let id = l.sessions.first().or(l.templates.first());
    let id = id.cloned().unwrap_or_else(|| SessionId::new("", "", ""));
    if !tls.verify_certificates && tls.client_auth != crate::config::ClientAuth::None {
        tracing::warn!(session = %id, "client certificates are not checked{}", super::UNCHECKED_CERTIFICATES);
    }
    crate::tls::server(tls)
        .map(Some)
        .map_err(|e| EngineError::tls(&id, e))
}

/// Without the `tls` feature, `supported` has refused TLS already.
#[cfg(not(feature = "tls"))]
pub(super) fn server_tls_of(_: &crate::config::Listener) -> Result<ServerTls, EngineError> {
    Ok(None)
}
