//! One connection to an engine's admin socket and its line protocol
//! (fix-engine's `engine/admin_socket.rs`): each command is one line ending
//! in `\n`, and the engine answers each with one line ending in `\n`
//! (`error: …` for a command it refuses). The engine closes the connection
//! after answering a line longer than 4096 bytes, and when it stops.

use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long an answer may take. `remove` waits up to ten seconds for a
/// session's Logout before it answers; an engine silent for longer than
/// this is stuck, and the operator is told so rather than left waiting.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

/// What went wrong reaching the engine or asking it.
///
/// ```text
/// OperatorError::Missing("/run/fix/admin.sock")  →  "no admin socket at /run/fix/admin.sock (…)"
/// ```
#[derive(Debug)]
pub(crate) enum OperatorError {
    /// Nothing at the path: no engine made its socket there.
    Missing(PathBuf),
    /// The socket (or a directory on its path) is not ours to open.
    PermissionDenied(PathBuf),
    /// A socket file nobody listens on: the engine that made it is gone.
    Refused(PathBuf),
    /// Any other failure to connect.
    Connect(PathBuf, io::Error),
    /// A command holding a line break, which would be two commands.
    NotOneLine,
    /// The engine closed the connection before answering.
    Closed,
    /// The engine did not answer within [`ANSWER_TIMEOUT`].
    TimedOut,
    /// The connection failed while asking or reading.
    Io(io::Error),
}

impl fmt::Display for OperatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OperatorError::Missing(path) => write!(
                f,
                "no admin socket at {}: is the engine running, with AdminSocket set to this path?",
                path.display()
            ),
            OperatorError::PermissionDenied(path) => write!(
                f,
                "{}: permission denied: the engine makes its socket for its own user only (mode 0600); run as that user",
                path.display()
            ),
            OperatorError::Refused(path) => write!(
                f,
                "{}: connection refused: nobody answers on this socket (the engine that made it has stopped)",
                path.display()
            ),
            OperatorError::Connect(path, e) => write!(f, "{}: cannot connect: {e}", path.display()),
            OperatorError::NotOneLine => f.write_str("a command is one line: it holds a line break"),
            OperatorError::Closed => {
                f.write_str("the engine closed the connection without answering (it is stopping, or the line was too long)")
            }
            OperatorError::TimedOut => write!(
                f,
                "no answer within {} s: the engine is stuck",
                ANSWER_TIMEOUT.as_secs()
            ),
            OperatorError::Io(e) => write!(f, "the connection failed: {e}"),
        }
    }
}

impl std::error::Error for OperatorError {}

impl OperatorError {
    /// The error of connecting to `path`, named for what the operator can do.
    fn connect(path: &Path, e: io::Error) -> OperatorError {
        let path = path.to_path_buf();
        match e.kind() {
            io::ErrorKind::NotFound => OperatorError::Missing(path),
            io::ErrorKind::PermissionDenied => OperatorError::PermissionDenied(path),
            io::ErrorKind::ConnectionRefused => OperatorError::Refused(path),
            _ => OperatorError::Connect(path, e),
        }
    }

    /// A read's or write's error; a timed-out read is [`OperatorError::TimedOut`].
    fn io(e: io::Error) -> OperatorError {
        match e.kind() {
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut => OperatorError::TimedOut,
            io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset => OperatorError::Closed,
            _ => OperatorError::Io(e),
        }
    }
}

/// A connection to the admin socket: ask a command, get its answer.
///
/// ```text
/// let mut admin = Admin::connect(Path::new("/run/fix/admin.sock"))?;
/// let answer = admin.ask("sessions")?;  // "FIX.4.4-EXECUTOR-CLIENT1 …"
/// ```
#[derive(Debug)]
pub(crate) struct Admin {
    writer: UnixStream,
    reader: BufReader<UnixStream>,
}

impl Admin {
    /// Connects to the socket at `path`.
    pub(crate) fn connect(path: &Path) -> Result<Admin, OperatorError> {
        let stream = UnixStream::connect(path).map_err(|e| OperatorError::connect(path, e))?;
        stream
            .set_read_timeout(Some(ANSWER_TIMEOUT))
            .map_err(OperatorError::Io)?;
        let reader = stream.try_clone().map_err(OperatorError::Io)?;
        Ok(Admin {
            writer: stream,
            reader: BufReader::new(reader),
        })
    }

    /// Sends `command` as one line and returns the engine's answer, without
    /// its line break.
    pub(crate) fn ask(&mut self, command: &str) -> Result<String, OperatorError> {
        if command.contains(['\n', '\r']) {
            return Err(OperatorError::NotOneLine);
        }
        let mut line = Vec::with_capacity(command.len() + 1);
        line.extend_from_slice(command.as_bytes());
        line.push(b'\n');
        self.writer.write_all(&line).map_err(OperatorError::io)?;
        let mut answer = String::new();
        let read = self
            .reader
            .read_line(&mut answer)
            .map_err(OperatorError::io)?;
        // Cut short (no line break): the engine closed mid-answer.
        if read == 0 || !answer.ends_with('\n') {
            return Err(OperatorError::Closed);
        }
        answer.pop();
        Ok(answer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connect_errors_name_the_path_and_what_to_do() {
        let path = Path::new("/run/fix/admin.sock");
        let error = |kind| OperatorError::connect(path, io::Error::from(kind)).to_string();
        assert!(
            error(io::ErrorKind::NotFound).starts_with("no admin socket at /run/fix/admin.sock")
        );
        assert!(
            error(io::ErrorKind::PermissionDenied)
                .starts_with("/run/fix/admin.sock: permission denied: ")
        );
        assert!(
            error(io::ErrorKind::ConnectionRefused)
                .starts_with("/run/fix/admin.sock: connection refused: ")
        );
        assert!(
            error(io::ErrorKind::AddrInUse).starts_with("/run/fix/admin.sock: cannot connect: ")
        );
    }

    #[test]
    fn a_timed_out_or_closed_read_says_so() {
        assert!(matches!(
            OperatorError::io(io::Error::from(io::ErrorKind::WouldBlock)),
            OperatorError::TimedOut
        ));
        assert!(matches!(
            OperatorError::io(io::Error::from(io::ErrorKind::BrokenPipe)),
            OperatorError::Closed
        ));
    }
}
