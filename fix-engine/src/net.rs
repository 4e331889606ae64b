//! The engine's sockets as the settings make them: listeners with
//! `SocketReuseAddress` and the socket options, an initiator's connections
//! from its source address, and an acceptor's `AllowedRemoteAddresses`.

use std::net::SocketAddr;

use fix_session::SessionId;
use tokio::net::{TcpListener, TcpSocket, TcpStream};

use crate::config::{Settings, SocketOptions, Transport};

/// A socket for `address`'s family with the settings' buffer sizes and
/// keep-alive.
fn socket_for(address: SocketAddr, options: &SocketOptions) -> std::io::Result<TcpSocket> {
    let socket = if address.is_ipv4() {
        TcpSocket::new_v4()?
    } else {
        TcpSocket::new_v6()?
    };
    if let Some(size) = options.send_buffer_size {
        socket.set_send_buffer_size(size)?;
    }
    if let Some(size) = options.receive_buffer_size {
        socket.set_recv_buffer_size(size)?;
    }
    if let Some(on) = options.keepalive {
        socket.set_keepalive(on)?;
    }
    Ok(socket)
}

/// A connection to `host:port` (each address it resolves to in turn, as
/// `TcpStream::connect` tries them), from the settings' local address and with
/// their socket options.
pub(crate) async fn connect(
    (host, port): (&str, u16),
    options: &SocketOptions,
) -> std::io::Result<TcpStream> {
    let mut last = None;
    for address in tokio::net::lookup_host((host, port)).await? {
        let socket = socket_for(address, options)?;
        if options.local_host.is_some() || options.local_port.is_some() {
            let ip = match &options.local_host {
                None if address.is_ipv4() => std::net::Ipv4Addr::UNSPECIFIED.into(),
                None => std::net::Ipv6Addr::UNSPECIFIED.into(),
                Some(local) => {
                    let found = tokio::net::lookup_host((local.as_str(), 0))
                        .await?
                        .find(|a| a.is_ipv4() == address.is_ipv4());
                    match found {
                        Some(a) => a.ip(),
                        None => {
                            last = Some(std::io::Error::new(
                                std::io::ErrorKind::AddrNotAvailable,
                                format!(
                                    "SocketConnectSourceHost {local} has no address of {address}'s family"
                                ),
                            ));
                            continue;
                        }
                    }
                }
            };
            if options.local_port.is_some() {
                // A fixed source port is bound again at every reconnect,
                // while the last connection from it may still be in
                // TIME_WAIT: without SO_REUSEADDR that bind fails for a
                // minute (the connection itself stays unique: the peer's
                // address and port differ or the old one is gone).
                socket.set_reuseaddr(true)?;
            }
            socket.bind(SocketAddr::new(ip, options.local_port.unwrap_or(0)))?;
        }
        match socket.connect(address).await {
            Ok(stream) => return Ok(stream),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::AddrNotAvailable,
            "the host resolves to no address",
        )
    }))
}

/// A listener on `host:port` (the first address `host` resolves to that binds),
/// with `SO_REUSEADDR` as `SocketReuseAddress` says and the listener's socket
/// options, which the sockets it accepts take.
pub(crate) async fn bind(
    host: &str,
    port: u16,
    reuse_address: bool,
    options: &SocketOptions,
) -> std::io::Result<TcpListener> {
    let mut last = None;
    for address in tokio::net::lookup_host((host, port)).await? {
        let socket = socket_for(address, options)?;
        socket.set_reuseaddr(reuse_address)?;
        match socket.bind(address) {
            // The backlog tokio's TcpListener::bind uses.
            Ok(()) => return socket.listen(1024),
            Err(e) => last = Some(e),
        }
    }
    Err(last.unwrap_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::AddrNotAvailable,
            "the host resolves to no address",
        )
    }))
}

/// Whether a connection from `peer` may be session `id` on acceptor `port`:
/// yes unless the session (or the template it would be made from) has
/// `AllowedRemoteAddresses` without it.
pub(crate) async fn allowed(
    settings: &Settings,
    known: Option<Option<Vec<String>>>,
    id: &SessionId,
    port: u16,
    peer: Option<SocketAddr>,
) -> bool {
    // The engine's own session (configured, or added at run time) first.
    if let Some(list) = known {
        return match list {
            None => true,
            Some(list) => allows(&list, peer).await,
        };
    }
    let on_port = |t: &&crate::config::AcceptorTemplate| matches!(&t.settings().transport, Transport::Acceptor(a) if a.port == port);
    let session = match settings.session(id) {
        Some(s) => Some(s),
        None => settings
            .templates()
            .iter()
            .filter(on_port)
            .find(|t| t.matches(id))
            .map(|t| t.settings()),
    };
    match session.and_then(|s| s.allowed_remote_addresses.as_deref()) {
        None => true,
        Some(list) => allows(list, peer).await,
    }
}

/// Whether `peer` is one of `allowed`: an IP address, or a host name one of
/// whose addresses it is (resolved now, as QuickFIX/J resolves its list).
async fn allows(allowed: &[String], peer: Option<SocketAddr>) -> bool {
    let Some(peer) = peer else {
        return false;
    };
    let ip = peer.ip().to_canonical();
    for entry in allowed {
        if let Ok(address) = entry.parse::<std::net::IpAddr>() {
            if address.to_canonical() == ip {
                return true;
            }
            continue;
        }
        if let Ok(mut found) = tokio::net::lookup_host((entry.as_str(), 0)).await
            && found.any(|a| a.ip().to_canonical() == ip)
        {
            return true;
        }
    }
    false
}
