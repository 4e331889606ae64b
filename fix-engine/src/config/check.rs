//! Opening the files a session's settings name, as the engine would when it
//! starts, without starting it: what `fixcfg check` reports.

use std::fmt;
use std::path::{Path, PathBuf};

use super::SessionSettings;

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
    let mut checks = Vec::new();
    let d = &s.dictionaries;
    let dictionaries = d
        .data_dictionary
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
        );
    for (key, path) in dictionaries {
        let result = match crate::FileDictionary::read(path) {
            Ok(dict) => Ok(format!(
                "{} fields, {} messages",
                dict.dictionary().fields().len(),
                dict.dictionary().messages().len()
            )),
            Err(diagnostics) => Err(diagnostics.to_string()),
        };
        checks.push(FileCheck {
            key,
            path: Some(path.clone()),
            result,
        });
    }
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
