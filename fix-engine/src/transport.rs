//! A connection's byte stream: plain TCP, or TLS over it. The driver waits on
//! the socket's readiness and reads and writes through [`Stream`] the way it
//! would on a [`TcpStream`] (`try_read`/`try_write` until they would block), so
//! one readiness loop runs both. TLS is rustls's sans-IO connection stepped from
//! that loop: records are read and written as the socket takes them, with no
//! task or lock of its own.

use std::io;
use std::sync::Arc;
use std::time::Duration;

use tokio::io::{Interest, Ready};
use tokio::net::TcpStream;

/// A connection's stream, its TLS handshake (if any) done. The socket is
/// shared: the driver waits on it without the lock that guards the stream.
#[derive(Debug)]
pub(crate) enum Stream {
    /// Plain TCP.
    Plain(Arc<TcpStream>),
    /// TLS over TCP.
    #[cfg(feature = "tls")]
    Tls(Box<TlsStream>),
}

/// A TCP stream and the TLS connection over it.
#[cfg(feature = "tls")]
#[derive(Debug)]
pub(crate) struct TlsStream {
    tcp: Arc<TcpStream>,
    conn: rustls::Connection,
}

impl Stream {
    /// Plain TCP over `tcp`.
    pub(crate) fn plain(tcp: TcpStream) -> Stream {
        Stream::Plain(Arc::new(tcp))
    }

    /// The socket under the stream, whose readiness the driver waits for.
    pub(crate) fn tcp(&self) -> &Arc<TcpStream> {
        match self {
            Stream::Plain(tcp) => tcp,
            #[cfg(feature = "tls")]
            Stream::Tls(t) => &t.tcp,
        }
    }

    /// The certificate the peer presented in the TLS handshake (DER), its own
    /// first of its chain; `None` over plain TCP or without one.
    pub(crate) fn peer_certificate(&self) -> Option<Vec<u8>> {
        match self {
            Stream::Plain(_) => None,
            #[cfg(feature = "tls")]
            Stream::Tls(t) => t
                .conn
                .peer_certificates()
                .and_then(|chain| chain.first())
                .map(|der| der.as_ref().to_vec()),
        }
    }

    /// Whether a read would return at once though the socket has nothing:
    /// a TLS stream holding decrypted bytes (or the peer's close_notify) not
    /// yet read.
    pub(crate) fn decrypted_waiting(&mut self) -> io::Result<bool> {
        match self {
            Stream::Plain(_) => Ok(false),
            #[cfg(feature = "tls")]
            Stream::Tls(t) => {
                let state = t.conn.process_new_packets().map_err(tls_error)?;
                Ok(state.plaintext_bytes_to_read() > 0 || state.peer_has_closed())
            }
        }
    }

    /// Waits until the stream may be read or written as `interest` says (for
    /// a stream no one else reads; the driver waits on [`tcp`](Self::tcp)).
    pub(crate) async fn ready(&mut self, interest: Interest) -> io::Result<Ready> {
        if interest.is_readable() && self.decrypted_waiting()? {
            return Ok(Ready::READABLE);
        }
        self.tcp().ready(interest).await
    }

    /// Reads what there is into `buf`, without waiting: `Ok(0)` when the peer
    /// has closed, [`io::ErrorKind::WouldBlock`] when there is nothing yet.
    pub(crate) fn try_read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(tcp) => tcp.try_read(buf),
            #[cfg(feature = "tls")]
            Stream::Tls(t) => t.try_read(buf),
        }
    }

    /// Takes what it can of `buf` without waiting (at least a byte, or
    /// [`io::ErrorKind::WouldBlock`]). A TLS stream takes it into records, which
    /// the socket may not have taken yet: see [`has_unsent`](Self::has_unsent).
    pub(crate) fn try_write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(tcp) => tcp.try_write(buf),
            #[cfg(feature = "tls")]
            Stream::Tls(t) => t.try_write(buf),
        }
    }

    /// Writes what the socket takes now of the TLS records waiting (handshake
    /// answers and alerts that reads made, records a write left); never waits.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(_) => Ok(()),
            #[cfg(feature = "tls")]
            Stream::Tls(t) => t.flush(),
        }
    }

    /// Whether TLS records wait for the socket: the connection is not done
    /// writing until they are written.
    pub(crate) fn has_unsent(&self) -> bool {
        match self {
            Stream::Plain(_) => false,
            #[cfg(feature = "tls")]
            Stream::Tls(t) => t.conn.wants_write(),
        }
    }

    /// Ends a TLS stream with a close_notify, as far as the socket takes it
    /// now; the connection is over either way.
    pub(crate) fn close(&mut self) {
        #[cfg(feature = "tls")]
        if let Stream::Tls(t) = self {
            t.conn.send_close_notify();
            // Best effort: the socket is dropped next.
            let _ = t.flush();
        }
    }
}

#[cfg(feature = "tls")]
impl Stream {
    /// The server side of a TLS handshake over `tcp`, run to its end.
    pub(crate) async fn accept(
        tcp: TcpStream,
        config: std::sync::Arc<rustls::ServerConfig>,
    ) -> io::Result<Stream> {
        let conn = rustls::ServerConnection::new(config).map_err(tls_error)?;
        TlsStream::handshake(tcp, conn.into()).await
    }

    /// The client side of a TLS handshake over `tcp`, checking the server's
    /// certificate against `name` (and sending it as SNI), run to its end.
    pub(crate) async fn connect(
        tcp: TcpStream,
        config: std::sync::Arc<rustls::ClientConfig>,
        name: rustls::pki_types::ServerName<'static>,
    ) -> io::Result<Stream> {
        let conn = rustls::ClientConnection::new(config, name).map_err(tls_error)?;
        TlsStream::handshake(tcp, conn.into()).await
    }
}

#[cfg(feature = "tls")]
impl TlsStream {
    async fn handshake(tcp: TcpStream, conn: rustls::Connection) -> io::Result<Stream> {
        let mut t = TlsStream {
            tcp: Arc::new(tcp),
            conn,
        };
        // Until the handshake is done and its last flight (a client's
        // Finished, a server's session tickets) is on the wire.
        while t.conn.is_handshaking() || t.conn.wants_write() {
            t.flush()?;
            if t.conn.wants_write() {
                t.tcp.writable().await?;
                continue;
            }
            if !t.conn.is_handshaking() {
                break;
            }
            t.tcp.readable().await?;
            match t.conn.read_tls(&mut Socket(&t.tcp)) {
                Ok(0) => {
                    return Err(io::Error::new(
                        io::ErrorKind::UnexpectedEof,
                        "the peer closed the connection during the TLS handshake",
                    ));
                }
                Ok(_) => t.process()?,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Stream::Tls(Box::new(t)))
    }

    /// Decrypts what was read; on a TLS error, the alert rustls queued for the
    /// peer goes out as far as the socket takes it.
    fn process(&mut self) -> io::Result<()> {
        match self.conn.process_new_packets() {
            Ok(_) => Ok(()),
            Err(e) => {
                let _ = self.flush();
                Err(tls_error(e))
            }
        }
    }

    fn try_read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match io::Read::read(&mut self.conn.reader(), buf) {
                // Ok(0) is the peer's close_notify.
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                // Closed without a close_notify: a FIX message cut short stays
                // incomplete (its length and checksum frame it), so this is a
                // close like any other.
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(0),
                Err(e) => return Err(e),
            }
            // Nothing decrypted is waiting: read records (WouldBlock when the
            // socket has none, which clears its readiness).
            self.conn.read_tls(&mut Socket(&self.tcp))?;
            self.process()?;
        }
    }

    fn try_write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.flush()?;
        let n = io::Write::write(&mut self.conn.writer(), buf)?;
        if n == 0 {
            // The records waiting are at rustls's bound, and the socket takes
            // no more of them now.
            return Err(io::ErrorKind::WouldBlock.into());
        }
        self.flush()?;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        while self.conn.wants_write() {
            match self.conn.write_tls(&mut Socket(&self.tcp)) {
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// A TLS failure (a certificate refused, an alert, a protocol error) as the
/// connection's I/O error.
#[cfg(feature = "tls")]
fn tls_error(e: rustls::Error) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, e)
}

/// The socket as rustls reads and writes it: `try_read`/`try_write`, whose
/// WouldBlock clears tokio's readiness, so the next wait waits.
#[cfg(feature = "tls")]
struct Socket<'a>(&'a TcpStream);

#[cfg(feature = "tls")]
impl io::Read for Socket<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.0.try_read(buf)
    }
}

#[cfg(feature = "tls")]
impl io::Write for Socket<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.try_write(buf)
    }

    fn write_vectored(&mut self, bufs: &[io::IoSlice<'_>]) -> io::Result<usize> {
        self.0.try_write_vectored(bufs)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// TCP keepalive on `tcp`: the first probe after `idle` without traffic, then
/// one every `idle / 3`, three unanswered ones and the kernel drops the
/// connection. A counterparty that vanished without a FIN (a cable pulled, a
/// host gone) is found even when heartbeats are off (HeartBtInt=0).
pub(crate) fn set_keepalive(tcp: &TcpStream, idle: Duration) -> io::Result<()> {
    let interval = (idle / 3).max(Duration::from_secs(1));
    let keepalive = socket2::TcpKeepalive::new()
        .with_time(idle)
        .with_interval(interval)
        .with_retries(3);
    socket2::SockRef::from(tcp).set_tcp_keepalive(&keepalive)
}

#[cfg(test)]
mod keepalive_tests {
    use super::*;

    #[tokio::test]
    async fn keepalive_is_set_with_its_timings() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let tcp = TcpStream::connect(addr).await.unwrap();
        let sock = socket2::SockRef::from(&tcp);
        assert!(!sock.keepalive().unwrap());
        set_keepalive(&tcp, Duration::from_secs(30)).unwrap();
        assert!(sock.keepalive().unwrap());
        assert_eq!(sock.tcp_keepalive_time().unwrap(), Duration::from_secs(30));
        assert_eq!(
            sock.tcp_keepalive_interval().unwrap(),
            Duration::from_secs(10)
        );
        assert_eq!(sock.tcp_keepalive_retries().unwrap(), 3);
    }
}
