//! The engine's listening sockets: those of its settings, bound at start and
//! kept until shutdown, and those an acceptor session added at run time on a
//! port no listener had brought, closed again when the last session on them
//! is removed.

use std::net::SocketAddr;
use std::sync::Arc;

use fix_session::SessionId;
use tokio::net::TcpListener;
use tokio::task::AbortHandle;

use super::EngineError;
use super::error::EngineErrorKind;
use crate::config::Listener;

/// One bound listener.
pub(super) struct Listening {
    /// What it was made with (its sessions and templates aside: those are
    /// the engine's map).
    pub(super) config: Listener,
    /// Where it is bound: the port the system picked for port 0.
    pub(super) local: SocketAddr,
    /// The accept task of a listener bound at run time; `None` for one of
    /// the settings, which stays until shutdown.
    pub(super) added: Option<AbortHandle>,
}

/// What [`Listeners::place`] found for a session's listener.
pub(super) enum Place {
    /// A listener on the port takes the session.
    Shared,
    /// No listener is on the port: this one was bound for it.
    New(TcpListener, SocketAddr),
}

/// The listeners, behind an async lock: adding a session that binds holds
/// it across the bind, so two sessions on one new port make one listener.
#[derive(Default)]
pub(super) struct Listeners {
    list: tokio::sync::Mutex<Vec<Listening>>,
}

impl Listeners {
    /// The settings' listeners, bound at start.
    pub(super) fn new(list: Vec<Listening>) -> Listeners {
        Listeners {
            list: tokio::sync::Mutex::new(list),
        }
    }

    /// Locks the list for an addition (see [`place`](Self::place)).
    pub(super) async fn lock(&self) -> tokio::sync::MutexGuard<'_, Vec<Listening>> {
        self.list.lock().await
    }

    /// The address the listener on configured `port` is bound to.
    pub(super) async fn local_addr(&self, port: u16) -> Option<SocketAddr> {
        let list = self.list.lock().await;
        list.iter().find(|l| l.config.port == port).map(|l| l.local)
    }

    /// Closes the listener bound at run time on configured `port`, when
    /// `in_use` says no session is left on it; a settings' listener stays.
    pub(super) async fn close_if_unused(&self, port: u16, in_use: impl Fn(u16) -> bool) {
        let mut list = self.list.lock().await;
        let Some(i) = list
            .iter()
            .position(|l| l.config.port == port && l.added.is_some())
        else {
            return;
        };
        if in_use(port) {
            return;
        }
        let closed = list.swap_remove(i);
        if let Some(task) = closed.added {
            // The socket closes with its task; connections accepted on it
            // are tasks of their own and run on.
            task.abort();
        }
        tracing::info!(port, address = %closed.local, "a listener added at run time closed: no session is left on it");
    }
}

/// Where the acceptor session `id` with listener `wanted` is reached: the
/// listener already on its port, if it agrees with the session's socket
/// settings (else the first key that differs), or a new one bound now.
pub(super) async fn place(
    list: &[Listening],
    id: &SessionId,
    wanted: &Listener,
    given: &[Arc<std::net::TcpListener>],
) -> Result<Place, crate::OperatorError> {
    if let Some(l) = list.iter().find(|l| l.config.port == wanted.port) {
        return match l.config.difference(wanted) {
            None => Ok(Place::Shared),
            Some(setting) => Err(crate::OperatorError::ListenerDiffers {
                id: id.clone(),
                port: wanted.port,
                setting,
            }),
        };
    }
    let (listener, local) = bind(wanted, given)
        .await
        .map_err(crate::OperatorError::Engine)?;
    Ok(Place::New(listener, local))
}

/// Binds `l`'s socket, as its settings say, or takes a duplicate of the
/// one of `given` bound to its port
/// ([`EngineOptions::listeners`](crate::EngineOptions::listeners)).
pub(super) async fn bind(
    l: &Listener,
    given: &[Arc<std::net::TcpListener>],
) -> Result<(TcpListener, SocketAddr), EngineError> {
    let host = l.address.as_deref().unwrap_or("0.0.0.0");
    let bind_error = |error| {
        EngineError::from(EngineErrorKind::Bind {
            address: format!("{host}:{}", l.port),
            error,
        })
    };
    let listener = match given_for(l.port, given) {
        Some(socket) => take(socket).map_err(bind_error)?,
        None => crate::net::bind(host, l.port, l.reuse_address, &l.socket)
            .await
            .map_err(bind_error)?,
    };
    let local = listener.local_addr().map_err(bind_error)?;
    Ok((listener, local))
}

/// The socket of `given` bound to configured `port`; never one for port 0,
/// which asks for a port of the system's choosing.
fn given_for(port: u16, given: &[Arc<std::net::TcpListener>]) -> Option<&std::net::TcpListener> {
    if port == 0 {
        return None;
    }
    given
        .iter()
        .find(|s| s.local_addr().is_ok_and(|a| a.port() == port))
        .map(|s| &**s)
}

/// A duplicate of `socket` for the engine's runtime: the caller's stays
/// open (and listening) when the engine drops its own.
fn take(socket: &std::net::TcpListener) -> std::io::Result<TcpListener> {
    let own = socket.try_clone()?;
    own.set_nonblocking(true)?;
    TcpListener::from_std(own)
}

/// An error for the first of `given` whose port no listener of the
/// settings has: a socket handed over for nothing is a mistake in the
/// caller's settings.
pub(super) fn check_given(
    given: &[Arc<std::net::TcpListener>],
    listeners: &[Listener],
) -> Result<(), EngineError> {
    for socket in given {
        let local = socket.local_addr().map_err(|error| {
            EngineError::from(EngineErrorKind::Bind {
                address: "a given listener".into(),
                error,
            })
        })?;
        if !listeners.iter().any(|l| l.port == local.port()) {
            return Err(EngineErrorKind::Bind {
                address: local.to_string(),
                error: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "a listener given in EngineOptions::listeners that no acceptor's SocketAcceptPort names",
                ),
            }
            .into());
        }
    }
    Ok(())
}
