//! Opening the files a session's settings name, as the engine would when it
//! starts, without starting it: what `fixcfg check` reports.

use std::fmt;
use std::path::{Path, PathBuf};

use super::{DictionaryPaths, SessionSettings};

/// One file or directory a session's settings name, and what opening it found.
///
/// ```
/// use fix_engine::config::{SessionBuilder, check_files};
/// let s = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
///     .socket_accept_port(5001)
///     .data_dictionary("/nonexistent/FIX44.xml")
///     .build()?;
/// let checks = check_files(&s);
/// assert_eq!(checks[0].key, "DataDictionary");
/// assert!(checks[0].result.is_err());
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileCheck {
    /// The setting that names it.
    pub key: String,
    /// The file or directory (`None` for TLS as a whole, whose error names its file).
    pub path: Option<PathBuf>,
    /// What was found (`Ok`), or what is wrong (`Err`).
    pub result: Result<String, String>,
}

impl fmt::Display for FileCheck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.key)?;
        if let Some(path) = &self.path {
            write!(f, " {}", path.display())?;
        }
        match &self.result {
            Ok(found) => write!(f, ": {found}"),
            Err(problem) => write!(f, ": error: {problem}"),
        }
    }
}

/// Opens what session `s` names, as the engine would: its dictionaries (read
/// and checked), its TLS certificates and keys, its store (an existing one is
/// read, nothing is written or locked) and log directories.
///
/// ```
/// use fix_engine::config::{SessionBuilder, check_files};
/// let s = SessionBuilder::acceptor(fix_session::SessionId::new("FIX.4.4", "EXEC", "C1"))
///     .socket_accept_port(5001)
///     .data_dictionary(concat!(env!("CARGO_MANIFEST_DIR"), "/../spec/FIX44.xml"))
///     .build()?;
/// assert!(check_files(&s).iter().all(|c| c.result.is_ok()));
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
pub fn check_files(s: &SessionSettings) -> Vec<FileCheck> {
    let mut checks = dictionaries(&s.dictionaries);
    if s.tls.is_some() {
        checks.push(FileCheck {
            key: "SocketUseSSL".into(),
            path: None,
            result: tls(s),
        });
    }
    if let Some(dir) = &s.store_path {
        // A template has no store of its own: its sessions have theirs.
        let result = if s.acceptor_template {
            directory(dir)
        } else {
            store(dir, &s.session.id.store_name())
        };
        checks.push(FileCheck {
            key: "FileStorePath".into(),
            path: Some(dir.clone()),
            result,
        });
    }
    if let Some(dir) = &s.log_path {
        checks.push(FileCheck {
            key: "FileLogPath".into(),
            path: Some(dir.clone()),
            result: directory(dir),
        });
    }
    checks
}

/// Each dictionary read and checked: the session's, the transport's and the applications'.
fn dictionaries(d: &DictionaryPaths) -> Vec<FileCheck> {
    d.data_dictionary
        .iter()
        .map(|p| ("DataDictionary".to_owned(), p))
        .chain(
            d.transport
                .iter()
                .map(|p| ("TransportDataDictionary".to_owned(), p)),
        )
        .chain(
            d.app
                .iter()
                .map(|(code, p)| (format!("AppDataDictionary (ApplVerID {code})"), p)),
        )
        .map(|(key, path)| FileCheck {
            key,
            path: Some(path.clone()),
            result: dictionary(path),
        })
        .collect()
}

/// The dictionary at `path`, read and checked: its size, or what is wrong.
fn dictionary(path: &Path) -> Result<String, String> {
    match crate::FileDictionary::read(path) {
        Ok(dict) => Ok(format!(
            "{} fields, {} messages",
            dict.dictionary().fields().len(),
            dict.dictionary().messages().len()
        )),
        Err(diagnostics) => Err(diagnostics.to_string()),
    }
}

#[cfg(feature = "tls")]
fn tls(s: &SessionSettings) -> Result<String, String> {
    use super::Transport;
    let Some(tls) = &s.tls else {
        return Ok("off".into());
    };
    let id = &s.session.id;
    match &s.transport {
        Transport::Acceptor(_) => crate::tls::server(tls)
            .map(|_| "the certificate, its key and the certificate authorities read".into()),
        Transport::Initiator(i) => crate::tls::client(tls, &i.endpoints)
            .map(|_| "the certificate authorities (and client certificate) read".into()),
    }
    .map_err(|e| crate::EngineError::tls(id, e).to_string())
}

#[cfg(not(feature = "tls"))]
fn tls(_: &SessionSettings) -> Result<String, String> {
    Err("fix-engine was built without its tls feature: SocketUseSSL=Y is refused at start".into())
}

/// A directory the engine writes in: there and writable, or to be made
/// under a parent that is there.
fn directory(dir: &Path) -> Result<String, String> {
    match std::fs::metadata(dir) {
        Ok(m) if !m.is_dir() => Err("is not a directory".into()),
        Ok(m) if m.permissions().readonly() => Err("is read-only".into()),
        Ok(_) => Ok("a directory".into()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let parent = dir
                .ancestors()
                .skip(1)
                .find(|p| p.as_os_str().is_empty() || p.exists());
            match parent {
                Some(p) if p.as_os_str().is_empty() || p.is_dir() => {
                    Ok("not there yet: made when the engine starts".into())
                }
                _ => Err("cannot be made: a part of its path is not a directory".into()),
            }
        }
        Err(e) => Err(format!("cannot be read: {e}")),
    }
}

/// The store's directory, and the session's store in it read (not locked,
/// nothing written).
fn store(dir: &Path, name: &str) -> Result<String, String> {
    let found = directory(dir)?;
    match fix_session::store::StoreLog::open(dir, name) {
        Ok(log) => Ok(format!(
            "{found}; store {name}: next sender {} next target {}, {} messages stored",
            log.next_sender_seq(),
            log.next_target_seq(),
            log.stored()
        )),
        Err(fix_session::StoreError::Io { source, .. })
            if source.kind() == std::io::ErrorKind::NotFound =>
        {
            Ok(format!("{found}; no store for this session yet"))
        }
        Err(e) => Err(e.to_string()),
    }
}

/// Reaches what `settings` names beyond its files, as the engine would at
/// start, without trading: each PostgreSQL store's database (logged in to,
/// its tables' schema version and lease table read, nothing written) and
/// each acceptor's address and port (bound and released at once). One
/// [`FileCheck`] each, its error the cause in one line
/// (`role "fix" does not exist`, `Address already in use`).
///
/// ```
/// use fix_engine::config::{Settings, check_connections};
/// let s = Settings::parse("t.cfg", "[SESSION]\nConnectionType=acceptor\nBeginString=FIX.4.4\nSenderCompID=EXEC\nTargetCompID=C1\nSocketAcceptAddress=127.0.0.1\nSocketAcceptPort=0\nNonStopSession=Y\n")?;
/// let checks = check_connections(&s);
/// assert_eq!(checks[0].key, "SocketAcceptPort 127.0.0.1:0");
/// assert!(checks[0].result.is_ok());
/// # Ok::<(), fix_engine::config::ConfigError>(())
/// ```
pub fn check_connections(settings: &super::Settings) -> Vec<FileCheck> {
    let mut checks = Vec::new();
    let stores = settings
        .sessions()
        .iter()
        .chain(settings.templates().iter().map(|t| t.settings()))
        .filter_map(|s| s.postgres_store.as_ref());
    let mut seen = Vec::new();
    for store in stores {
        // Sessions sharing a database are one check, not one each.
        if seen.contains(&&store.connection) {
            continue;
        }
        seen.push(&store.connection);
        checks.push(FileCheck {
            key: format!("PostgreSQLStore {}", hide_password(&store.connection)),
            path: None,
            result: postgres(store),
        });
    }
    for l in settings.listeners() {
        let host = l.address.as_deref().unwrap_or("0.0.0.0");
        checks.push(FileCheck {
            key: format!("SocketAcceptPort {host}:{}", l.port),
            path: None,
            result: port_free(host, &l),
        });
    }
    checks
}

/// The store's database, reached as the engine's store reaches it; the
/// error is the server's own message.
#[cfg(feature = "postgres")]
fn postgres(store: &super::PostgresStoreSettings) -> Result<String, String> {
    use fix_store_postgres::{PgConfig, probe};
    let config = PgConfig::new(store.connection.clone(), "fixcfg");
    // The store gives a server this long to answer before its lease lapses.
    let limit = store.lease.max(std::time::Duration::from_secs(1));
    match probe(&config, limit) {
        Ok(found) => match found.problem() {
            Some(problem) => Err(problem),
            None => Ok(found.to_string()),
        },
        // The store's error says what it was doing; here the line says it.
        Err(fix_session::StoreError::Database { source, .. }) => Err(source.to_string()),
        Err(e) => Err(e.to_string()),
    }
}

#[cfg(not(feature = "postgres"))]
fn postgres(_: &super::PostgresStoreSettings) -> Result<String, String> {
    Err("fix-engine was built without its postgres feature: the PostgreSQLStore keys are refused at start".into())
}

/// Whether listener `l` could be bound now, with the engine's own binding
/// (SO_REUSEADDR as `SocketReuseAddress` says): bound, then released.
fn port_free(host: &str, l: &super::Listener) -> Result<String, String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()
        .map_err(|e| format!("cannot start a runtime to bind with: {e}"))?;
    let bound = runtime.block_on(async {
        crate::net::bind(host, l.port, l.reuse_address, &l.socket)
            .await
            .map(drop)
    });
    match bound {
        Ok(()) => Ok("free (bound and released)".into()),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            Err(format!("in use: another process listens there ({e})"))
        }
        Err(e) => Err(format!("cannot be bound: {e}")),
    }
}

/// A libpq connection string with its password's value replaced.
///
/// ```
/// assert_eq!(fix_engine::config::hide_password("host=h password='x' user=u"), "host=h password=…");
/// ```
pub fn hide_password(connection: &str) -> String {
    match connection.find("password=") {
        Some(at) => format!("{}password=…", &connection[..at]),
        None => connection.to_owned(),
    }
}
