//! [`EngineError`] and its [`EngineErrorKind`]: why the engine did not start,
//! or did not stop cleanly.

use std::io;
use std::path::PathBuf;

use fix_session::{SessionId, StoreError};

use crate::log::LogError;
use crate::tls::TlsFileError;

/// Why the engine did not start, or did not stop cleanly: an
/// [`EngineErrorKind`], boxed (errors are rare; a small `Result` keeps every
/// call that returns one cheap).
///
/// ```
/// use fix_engine::{EngineError, EngineErrorKind, TlsFileError};
/// let e = EngineError::from(EngineErrorKind::TlsFile {
///     id: fix_session::SessionId::new("FIX.4.4", "A", "B"),
///     setting: "ServerCertificateFile",
///     path: "server.crt".into(),
///     error: TlsFileError::NoCertificate,
/// });
/// assert_eq!(e.to_string(), "session FIX.4.4:A->B: ServerCertificateFile server.crt: holds no certificate (a PEM CERTIFICATE section)");
/// assert!(matches!(e.kind(), EngineErrorKind::TlsFile { .. }));
/// ```
#[derive(Debug)]
pub struct EngineError(Box<EngineErrorKind>);

impl EngineError {
    /// What went wrong.
    ///
    /// ```
    /// # use fix_engine::{EngineError, EngineErrorKind};
    /// let e = EngineError::from(EngineErrorKind::Unsupported { id: fix_session::SessionId::new("FIX.4.4", "A", "B"), setting: "SocketUseSSL" });
    /// assert!(matches!(e.kind(), EngineErrorKind::Unsupported { setting: "SocketUseSSL", .. }));
    /// ```
    pub fn kind(&self) -> &EngineErrorKind {
        &self.0
    }
}

#[cfg(feature = "tls")]
impl EngineError {
    /// A TLS configuration that could not be made for session `id` (for an
    /// acceptor port, the port's first session).
    pub(crate) fn tls(id: &SessionId, error: crate::tls::TlsError) -> Self {
        let id = id.clone();
        EngineError::from(match error {
            crate::tls::TlsError::File {
                setting,
                path,
                error,
            } => EngineErrorKind::TlsFile {
                id,
                setting,
                path,
                error,
            },
            crate::tls::TlsError::ServerName { setting, name } => {
                EngineErrorKind::TlsServerName { id, setting, name }
            }
        })
    }
}

impl From<EngineErrorKind> for EngineError {
    fn from(kind: EngineErrorKind) -> Self {
        EngineError(Box::new(kind))
    }
}

/// What an [`EngineError`] is.
///
/// ```
/// let k = fix_engine::EngineErrorKind::Unsupported { id: fix_session::SessionId::new("FIX.4.4", "A", "B"), setting: "SocketUseSSL" };
/// assert!(matches!(k, fix_engine::EngineErrorKind::Unsupported { .. }));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum EngineErrorKind {
    /// A listening socket could not be bound.
    Bind {
        /// The address and port.
        address: String,
        /// What the system said.
        error: io::Error,
    },
    /// A session's store could not be opened, or synced at shutdown.
    Store {
        /// The session.
        id: SessionId,
        /// What the store said.
        error: StoreError,
    },
    /// A session's dictionary could not be had: a file that does not read or
    /// resolve, or files the engine's [`DictionarySource`](crate::DictionarySource) does not read.
    Dictionary {
        /// The session.
        id: SessionId,
        /// The file (empty when the session names none).
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A session's log (`FileLogPath`) could not be opened, or flushed at
    /// shutdown.
    Log {
        /// The session.
        id: SessionId,
        /// What the log said.
        error: LogError,
    },
    /// A setting the engine does not implement: `SocketUseSSL` in a build
    /// without the `tls` feature.
    Unsupported {
        /// The session.
        id: SessionId,
        /// The setting's name.
        setting: &'static str,
    },
    /// A TLS file a session names (its certificate, key or certificate
    /// authorities) could not be used.
    TlsFile {
        /// The session (for an acceptor port, the port's first).
        id: SessionId,
        /// The setting naming the file: `ServerCertificateFile`,
        /// `ServerCertificateKeyFile`, `ClientCertificateFile`,
        /// `ClientCertificateKeyFile`, `CertificationAuthoritiesFile`,
        /// `CertificateRevocationListFile`, or QuickFIX/J's `SocketKeyStore`
        /// or `SocketTrustStore`.
        setting: &'static str,
        /// The file (empty when the setting is not given).
        path: PathBuf,
        /// What is wrong with it.
        error: TlsFileError,
    },
    /// A name an initiator would check the acceptor's certificate against
    /// (`SNIHostName`, else `SocketConnectHost`) is neither a DNS name nor an
    /// IP address.
    TlsServerName {
        /// The session.
        id: SessionId,
        /// The setting the name comes from (`SNIHostName`, `SocketConnectHost`,
        /// `SocketConnectHost1`, …).
        setting: String,
        /// The name.
        name: String,
    },
}

impl std::fmt::Display for EngineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.kind() {
            EngineErrorKind::Bind { address, error } => {
                write!(f, "cannot listen on {address}: {error}")
            }
            EngineErrorKind::Store { id, error } => write!(f, "session {id}: {error}"),
            EngineErrorKind::Log { id, error } => write!(f, "session {id}: log: {error}"),
            EngineErrorKind::Dictionary { id, path, message } if path.as_os_str().is_empty() => {
                write!(f, "session {id}: {message}")
            }
            EngineErrorKind::Dictionary { id, path, message } => {
                write!(f, "session {id}: {}: {message}", path.display())
            }
            EngineErrorKind::Unsupported { id, setting } if *setting == "SocketUseSSL" => {
                write!(
                    f,
                    "session {id}: SocketUseSSL=Y needs fix-engine's `tls` feature, which this build leaves out"
                )
            }
            EngineErrorKind::TlsFile {
                id,
                setting,
                path,
                error,
            } if path.as_os_str().is_empty() => write!(f, "session {id}: {setting} {error}"),
            EngineErrorKind::TlsFile {
                id,
                setting,
                path,
                error,
            } => write!(f, "session {id}: {setting} {}: {error}", path.display()),
            EngineErrorKind::TlsServerName { id, setting, name } => write!(
                f,
                "session {id}: {setting} {name:?} is neither a DNS name nor an IP address, which the acceptor's certificate is checked against"
            ),
            EngineErrorKind::Unsupported { id, setting } => {
                write!(
                    f,
                    "session {id}: {setting} is not supported by the engine yet"
                )
            }
        }
    }
}

impl std::error::Error for EngineError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self.kind() {
            EngineErrorKind::Bind { error, .. } => Some(error),
            EngineErrorKind::Store { error, .. } => Some(error),
            EngineErrorKind::TlsFile {
                error: TlsFileError::Read(error),
                ..
            } => Some(error),
            EngineErrorKind::Log { error, .. } => Some(error),
            EngineErrorKind::Dictionary { .. }
            | EngineErrorKind::Unsupported { .. }
            | EngineErrorKind::TlsFile { .. }
            | EngineErrorKind::TlsServerName { .. } => None,
        }
    }
}
