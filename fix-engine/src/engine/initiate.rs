//! The initiator side: a task per initiator session that connects (with TLS
//! when the session has it), runs the connection and connects again.

use std::io;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

use fix_core::validate::Schema;
use tokio::net::TcpStream;

use super::{EngineError, Entry, Inner, stopped};
use crate::config::{SessionSettings, Transport};
use crate::handle::Gate;
use crate::transport::Stream;

/// An initiator's TLS configuration and server names, `None` for plain TCP.
#[cfg(feature = "tls")]
pub(super) type ClientTls = Option<crate::tls::Client>;
#[cfg(not(feature = "tls"))]
pub(super) type ClientTls = Option<super::NoTls>;

/// An initiator session: connect (inside the schedule), run the connection,
/// wait ReconnectInterval, again, until shutdown. The wait follows every
/// round, failed or not: counted from the drop rather than from the last
/// attempt, a counterparty that refuses a second Logon while it still holds
/// the first connection gets the whole interval to let that one go.
pub(super) async fn initiate<D: Schema + Send + Sync + 'static>(
    inner: Arc<Inner<D>>,
    entry: Arc<Entry<D>>,
    tls: ClientTls,
) {
    let Transport::Initiator(transport) = &entry.settings.transport else {
        return;
    };
    let mut shutdown = inner.shutdown.subscribe();
    // The endpoint the next round tries first.
    let mut next = 0;
    loop {
        match ready(&entry, transport, &mut shutdown).await {
            Turn::Go => {}
            Turn::Again => continue,
            Turn::Stop => return,
        }
        let round = Round {
            inner: &inner,
            entry: &entry,
            endpoints: &transport.endpoints,
            tls: &tls,
        };
        match round.connect_and_run(next, &mut shutdown).await {
            Some(after) => next = after,
            None => return,
        }
        // Held or removed meanwhile: the loop's start says what next.
        if entry.shared.gate() != Gate::Open {
            continue;
        }
        tokio::select! {
            () = tokio::time::sleep(transport.reconnect_pause()) => {}
            () = entry.shared.gate_changed(Gate::Open) => {}
            () = stopped(&mut shutdown) => return,
        }
    }
}

/// What an initiator's task does next.
enum Turn {
    /// Connect now.
    Go,
    /// Look again (it waited for what kept it from connecting).
    Again,
    /// The engine stops, or the session was removed.
    Stop,
}

/// Whether the initiator may connect now: the session open (else it waits
/// for the operator's release), inside its schedule (else it waits for its
/// start), and its store held here (else it waits ReconnectInterval).
async fn ready<D: Schema + Send + Sync + 'static>(
    entry: &Entry<D>,
    transport: &crate::config::InitiatorTransport,
    shutdown: &mut tokio::sync::watch::Receiver<bool>,
) -> Turn {
    if *shutdown.borrow() {
        return Turn::Stop;
    }
    match entry.shared.gate() {
        Gate::Open => {}
        Gate::Removed => return Turn::Stop,
        Gate::Held => {
            tracing::info!("held by an operator: not connecting until released");
            entry.event("Not connecting: held by an operator");
            return tokio::select! {
                () = entry.shared.gate_changed(Gate::Held) => Turn::Again,
                () = stopped(shutdown) => Turn::Stop,
            };
        }
    }
    let schedule = &entry.settings.schedule;
    let now = SystemTime::now();
    let wait = if !schedule.is_active(now) {
        let wait = schedule
            .next_start(now)
            .and_then(|t| t.duration_since(now).ok())
            .unwrap_or(Duration::from_secs(3600));
        tracing::info!(
            in_seconds = wait.as_secs(),
            "outside the schedule: waiting for its start"
        );
        wait
    } else if let Err(error) = entry.cell.refresh_store() {
        // A store that another engine holds (a lease in PostgreSQL, a
        // standby's lock): no connection until this engine holds it, so that
        // the counterparty never logs on to the engine that cannot serve it.
        tracing::info!(%error, "the session's store is held elsewhere: not connecting");
        transport.reconnect_pause()
    } else {
        return Turn::Go;
    };
    tokio::select! {
        () = tokio::time::sleep(wait) => Turn::Again,
        () = stopped(shutdown) => Turn::Stop,
    }
}

/// One round of an initiator's connection attempts.
struct Round<'a, D: Schema> {
    inner: &'a Inner<D>,
    entry: &'a Entry<D>,
    endpoints: &'a [crate::config::Endpoint],
    tls: &'a ClientTls,
}

impl<D: Schema + Send + Sync + 'static> Round<'_, D> {
    /// Tries the endpoints in turn from `next` until one connects, and runs
    /// that connection; returns the endpoint the next round tries first
    /// (`None`: the engine stops).
    async fn connect_and_run(
        &self,
        next: usize,
        shutdown: &mut tokio::sync::watch::Receiver<bool>,
    ) -> Option<usize> {
        let count = self.endpoints.len();
        for n in (0..count).map(|i| (next + i) % count) {
            let endpoint = &self.endpoints[n];
            let limit = self.entry.settings.connect_timeout;
            let connect = tokio::time::timeout(
                limit.unwrap_or(self.inner.options.connect_timeout),
                self.connect(n),
            );
            let connected = tokio::select! {
                connected = connect => connected,
                () = stopped(shutdown) => return None,
            };
            match connected {
                Ok(Ok(stream)) => {
                    // As QuickFIX: a connection whose Logon was refused (or
                    // never answered) sends the next attempt to the next
                    // host; one that logged on, to the first again.
                    let logged_on = self.inner.connection(self.entry, stream, &[]).await;
                    return Some(if logged_on { 0 } else { (n + 1) % count });
                }
                Ok(Err((what, e))) => {
                    // `what` names the step: "Connection to", "TLS handshake with".
                    tracing::warn!(%endpoint, error = %e, "{what} the endpoint failed");
                    self.entry.event(&format!("{what} {endpoint} failed: {e}"));
                }
                Err(_) => {
                    tracing::warn!(%endpoint, "connection timed out");
                    self.entry
                        .event(&format!("Connection to {endpoint} timed out"));
                }
            }
        }
        Some(next)
    }

    /// Connects to endpoint `n`, with the TLS handshake (part of connecting,
    /// within its time); the error names the step that failed.
    async fn connect(&self, n: usize) -> Result<Stream, (&'static str, io::Error)> {
        let endpoint = &self.endpoints[n];
        let address = (endpoint.host.as_str(), endpoint.port);
        let tcp = crate::net::connect(address, &self.entry.settings.socket)
            .await
            .map_err(|e| ("Connection to", e))?;
        secure(tcp, self.tls, n)
            .await
            .map_err(|e| ("TLS handshake with", e))
    }
}

/// An initiator's stream to endpoint `n`: TLS's client side, checking the
/// endpoint's server name, when the session has TLS.
#[cfg_attr(not(feature = "tls"), allow(unused_variables))]
async fn secure(tcp: TcpStream, tls: &ClientTls, n: usize) -> io::Result<Stream> {
    match tls {
        None => Ok(Stream::plain(tcp)),
        #[cfg(feature = "tls")]
        Some(tls) => {
            // One name per endpoint, made from the same list.
            let name = tls
                .names
                .get(n)
                .cloned()
                .ok_or_else(|| io::Error::other("no server name for this endpoint"))?;
            Stream::connect(tcp, tls.config.clone(), name).await
        }
        #[cfg(not(feature = "tls"))]
        Some(never) => match *never {},
    }
}

/// The TLS configuration of initiator session `s`, its files read; `None` for
/// plain TCP or an acceptor.
#[cfg(feature = "tls")]
pub(super) fn client_tls_of(s: &SessionSettings) -> Result<ClientTls, EngineError> {
    match (&s.tls, &s.transport) {
        (Some(tls), Transport::Initiator(i)) => crate::tls::client(tls, &i.endpoints)
            .inspect(|_| {
                if !tls.verify_certificates {
                    tracing::warn!(session = %s.session.id, "the acceptor's certificate is not checked{}", super::UNCHECKED_CERTIFICATES);
                }
            })
            .map(Some)
            .map_err(|e| EngineError::tls(&s.session.id, e)),
        _ => Ok(None),
    }
}

#[cfg(not(feature = "tls"))]
pub(super) fn client_tls_of(_: &SessionSettings) -> Result<ClientTls, EngineError> {
    Ok(None)
}
