//! The admin socket ([`EngineOptions::admin_socket`](super::EngineOptions::admin_socket),
//! `AdminSocket`): a Unix socket an operator's tool (fix-cli's `fixadmin`, or
//! `socat`, `nc -U`) writes commands to, a line each, and reads one line back
//! for each (the line ends in `\n`; `fixadmin` relies on exactly this):
//!
//! ```text
//! sessions                                 FIX.4.4-A-B FIX.4.4-A-C
//! status ID                                FIX.4.4-A-B state=LoggedOn connected=yes held=no next-sender=12 next-target=7
//! set-next ID [sender N] [target M]        ok FIX.4.4-A-B state=… next-sender=N next-target=M
//! reset ID | logout ID | disconnect ID     ok <status after>
//! hold ID | release ID                     ok <status after>
//! add FILE                                 ok added FIX.4.4-A-D [FIX.4.4-A-E …]
//! remove ID                                ok removed FIX.4.4-A-B
//! help                                     commands: …
//! anything wrong                           error: …
//! ```
//!
//! A session is named as its store is (`FIX.4.4-SENDER-TARGET[-qualifier]`)
//! or as it is shown (`FIX.4.4:SENDER->TARGET`). Each command goes through
//! the session as [`SessionHandle::operate`](crate::SessionHandle::operate) does.
//! `add` reads a settings file (the rest of the line is its path, read by
//! the engine's process) and adds each of its `[SESSION]`s as
//! [`Engine::add_session`](crate::Engine::add_session) does, in order,
//! stopping at the first that fails; `remove` is
//! [`Engine::remove_session`](crate::Engine::remove_session), waiting up to
//! ten seconds for the Logout.

use std::io;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use fix_core::validate::Schema;
use tokio::net::{UnixListener, UnixStream};

use super::{Inner, stopped};
use crate::operator::OperatorCommand;

/// The longest command line taken; a longer one is an error and closes the
/// connection.
const MAX_LINE: usize = 4096;

const HELP: &str = "commands: sessions, status ID, set-next ID [sender N] [target M], \
    reset ID, logout ID, disconnect ID, hold ID, release ID, add FILE, remove ID";

/// How long `remove` waits for the Logout of a connected session before it
/// closes the connection.
pub(super) const REMOVE_TIMEOUT: Duration = Duration::from_secs(10);

/// Binds the socket at `path`, readable and writable by the engine's user
/// only. A socket file nobody answers on (an engine that died) is replaced;
/// one that answers, or a file of another kind, is an error.
pub(super) fn bind(path: &Path) -> io::Result<(UnixListener, PathBuf)> {
    if let Ok(meta) = std::fs::symlink_metadata(path)
        && meta.file_type().is_socket()
    {
        if std::os::unix::net::UnixStream::connect(path).is_ok() {
            return Err(io::Error::new(
                io::ErrorKind::AddrInUse,
                "another process answers on this admin socket",
            ));
        }
        std::fs::remove_file(path)?;
    }
    let listener = UnixListener::bind(path)?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
    Ok((listener, path.to_owned()))
}

/// Answers on the socket until shutdown, then removes it.
pub(super) async fn serve<D: Schema + Send + Sync + 'static>(
    inner: Arc<Inner<D>>,
    listener: UnixListener,
    path: PathBuf,
) {
    let mut shutdown = inner.shutdown.subscribe();
    loop {
        tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    inner.spawn(client(inner.clone(), stream));
                }
                Err(e) => {
                    tracing::warn!(error = %e, "admin socket: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            },
            () = stopped(&mut shutdown) => break,
        }
    }
    drop(listener);
    if let Err(error) = std::fs::remove_file(&path) {
        tracing::warn!(%error, "the admin socket could not be removed");
    }
}

/// One operator's connection: a line in, a line out, until it closes (or
/// the engine stops).
async fn client<D: Schema + Send + Sync + 'static>(inner: Arc<Inner<D>>, stream: UnixStream) {
    let mut shutdown = inner.shutdown.subscribe();
    let served = async {
        let mut buf = Vec::with_capacity(256);
        let mut chunk = [0u8; 1024];
        loop {
            while let Some(end) = buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = buf.drain(..=end).collect();
                let mut reply = answer(&inner, &line[..end]).await;
                reply.push('\n');
                write_all(&stream, reply.as_bytes()).await?;
            }
            if buf.len() > MAX_LINE {
                let reply = format!("error: a line longer than {MAX_LINE} bytes\n");
                return write_all(&stream, reply.as_bytes()).await;
            }
            stream.readable().await?;
            match stream.try_read(&mut chunk) {
                Ok(0) => return Ok(()),
                Ok(n) => buf.extend_from_slice(&chunk[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                Err(e) => return Err(e),
            }
        }
    };
    tokio::select! {
        served = served => {
            if let Err(error) = served {
                tracing::debug!(%error, "admin socket: a connection failed");
            }
        }
        () = stopped(&mut shutdown) => {}
    }
}

async fn write_all(stream: &UnixStream, mut bytes: &[u8]) -> io::Result<()> {
    while !bytes.is_empty() {
        stream.writable().await?;
        match stream.try_write(bytes) {
            Ok(n) => bytes = &bytes[n..],
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// The answer to one command line (without its newline).
async fn answer<D: Schema + Send + Sync + 'static>(inner: &Arc<Inner<D>>, line: &[u8]) -> String {
    let Ok(line) = std::str::from_utf8(line) else {
        return "error: the line is not UTF-8".to_owned();
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let (verb, rest) = match words.split_first() {
        Some((verb, rest)) => (*verb, rest),
        None => return format!("error: an empty line ({HELP})"),
    };
    match verb {
        "help" => return HELP.to_owned(),
        "sessions" if rest.is_empty() => {
            let ids: Vec<String> = inner
                .session_ids()
                .iter()
                .map(fix_session::SessionId::store_name)
                .collect();
            return ids.join(" ");
        }
        "sessions" => return "error: sessions takes no arguments".to_owned(),
        "add" => return add(inner, line.trim_start()["add".len()..].trim()).await,
        _ => {}
    }
    let (name, args) = match rest.split_first() {
        Some((name, args)) => (*name, args),
        None if is_verb(verb) => return format!("error: {verb} needs a session ID"),
        None => return format!("error: unknown command {verb:?} ({HELP})"),
    };
    let command = match (verb, args) {
        ("status", []) => None,
        ("set-next", args) => match set_next(args) {
            Ok(command) => Some(command),
            Err(e) => return format!("error: {e}"),
        },
        ("reset", []) => Some(OperatorCommand::Reset),
        ("logout", []) => Some(OperatorCommand::Logout),
        ("disconnect", []) => Some(OperatorCommand::Disconnect),
        ("hold", []) => Some(OperatorCommand::Hold),
        ("release", []) => Some(OperatorCommand::Release),
        ("remove", []) => None,
        (verb, _) if is_verb(verb) => return format!("error: {verb} takes only a session ID"),
        (verb, _) => return format!("error: unknown command {verb:?} ({HELP})"),
    };
    let Some(id) = inner.find(name) else {
        return format!("error: no session {name}");
    };
    if verb == "remove" {
        return match inner.remove_session(&id, REMOVE_TIMEOUT).await {
            Ok(()) => format!("ok removed {}", id.store_name()),
            Err(e) => format!("error: {e}"),
        };
    }
    let handle = match inner.handle(&id) {
        Ok(handle) => handle,
        Err(e) => return format!("error: {e}"),
    };
    let done = match command {
        None => handle.status().await.map(|s| s.to_string()),
        Some(command) => handle.operate(command).await.map(|s| format!("ok {s}")),
    };
    done.unwrap_or_else(|e| format!("error: {e}"))
}

fn is_verb(verb: &str) -> bool {
    matches!(
        verb,
        "status" | "set-next" | "reset" | "logout" | "disconnect" | "hold" | "release" | "remove"
    )
}

/// `add FILE`: the sessions of the settings file at `path`, added in order.
async fn add<D: Schema + Send + Sync + 'static>(inner: &Arc<Inner<D>>, path: &str) -> String {
    if path.is_empty() {
        return "error: add needs the path of a settings file".to_owned();
    }
    let settings = match crate::config::Settings::from_path(path) {
        Ok(settings) => settings,
        Err(e) => return format!("error: {e}"),
    };
    if let Some(t) = settings.templates().first() {
        return format!(
            "error: {path}: {} is an acceptor template; templates are not added at run time",
            t.settings().session.id
        );
    }
    if settings.sessions().is_empty() {
        return format!("error: {path} has no [SESSION]");
    }
    let mut added = Vec::new();
    for s in settings.sessions() {
        if let Err(e) = super::add_session(inner, s.clone()).await {
            return match added.is_empty() {
                true => format!("error: {e}"),
                false => format!("error: {e} (added before it: {})", added.join(" ")),
            };
        }
        added.push(s.session.id.store_name());
    }
    format!("ok added {}", added.join(" "))
}

/// `set-next`'s arguments: `sender N`, `target M`, either or both.
fn set_next(args: &[&str]) -> Result<OperatorCommand, String> {
    let (mut sender, mut target) = (None, None);
    let mut args = args.iter();
    while let Some(which) = args.next() {
        let slot = match *which {
            "sender" => &mut sender,
            "target" => &mut target,
            other => return Err(format!("set-next: {other:?} is neither sender nor target")),
        };
        let Some(number) = args.next() else {
            return Err(format!("set-next: {which} needs a number"));
        };
        match number.parse::<u64>() {
            Ok(n) if n > 0 => *slot = Some(n),
            _ => return Err(format!("set-next: {number:?} is not a sequence number")),
        }
    }
    if sender.is_none() && target.is_none() {
        return Err("set-next needs sender N, target M, or both".to_owned());
    }
    Ok(OperatorCommand::SetNext { sender, target })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_next_takes_either_number_or_both() {
        assert_eq!(
            set_next(&["sender", "5", "target", "7"]),
            Ok(OperatorCommand::SetNext {
                sender: Some(5),
                target: Some(7)
            })
        );
        assert_eq!(
            set_next(&["target", "7"]),
            Ok(OperatorCommand::SetNext {
                sender: None,
                target: Some(7)
            })
        );
        assert!(set_next(&[]).is_err());
        assert!(set_next(&["sender"]).is_err());
        assert!(set_next(&["sender", "0"]).is_err());
        assert!(set_next(&["sender", "x"]).is_err());
        assert!(set_next(&["next", "5"]).is_err());
    }
}
