//! Our engine in a child process (this test binary run again with the
//! child's environment), and a relay the test holds in front of it.
//!
//! A child binds port 0 and says `listening <port>` on its stdout (0 for an
//! engine of initiators, which listens nowhere); the
//! test's relay, bound once to a port of the system's choosing, passes each
//! connection to whichever child runs now. No port is chosen by one process
//! and bound by another (which races with everything else on the machine),
//! and QuickFIX, whose settings name one port, reaches a restarted child at
//! the same one.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use crate::WAIT;

/// The child's side: says the port `engine` listens on, then serves for
/// `for_at_most` (unless it is killed first).
pub(crate) async fn serve<D>(
    engine: fix_engine::Engine<D>,
    for_at_most: Duration,
) -> Result<(), String>
where
    D: fix_core::validate::Schema + Send + Sync + 'static,
{
    // An engine of initiators listens nowhere: port 0.
    let port = engine.local_addrs().first().map_or(0, |a| a.port());
    // Straight to the process's stdout, past the harness's capture.
    let mut out = std::io::stdout().lock();
    writeln!(out, "listening {port}")
        .and_then(|()| out.flush())
        .map_err(|e| format!("stdout: {e}"))?;
    drop(out);
    tokio::time::sleep(for_at_most).await;
    drop(engine);
    Ok(())
}

/// One of our engines' processes, killed when dropped (a failed run leaves
/// none behind).
pub(crate) struct Child {
    process: std::process::Child,
    /// The port it listens on.
    pub(crate) port: u16,
}

impl Child {
    /// Runs test `test` of this binary with `env`, and waits until it says
    /// its port.
    pub(crate) fn start(test: &str, env: &[(&str, String)]) -> Result<Child, String> {
        let exe = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
        let mut process = Command::new(exe)
            .args(["--exact", test, "--nocapture", "--test-threads=1", "-q"])
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("starting {test}: {e}"))?;
        let stdout = process.stdout.take().ok_or("the child's stdout")?;
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            // Read to the end, whether anyone listens or not: the child must
            // never find its stdout closed.
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let _ = tx.send(line);
            }
        });
        let mut child = Child { process, port: 0 };
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(port) = line.strip_prefix("listening ") {
                        child.port = port.parse().map_err(|e| format!("{line}: {e}"))?;
                        return Ok(child);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{test} did not listen within {WAIT:?}"));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("{test} ended before it listened"));
                }
            }
        }
    }

    /// SIGSTOP (`stop`) or SIGCONT: the process frozen as a machine that
    /// stalls is, or let go on.
    pub(crate) fn freeze(&mut self, stop: bool) -> Result<(), String> {
        let signal = if stop { "-STOP" } else { "-CONT" };
        let status = Command::new("kill")
            .args([signal, &self.process.id().to_string()])
            .status()
            .map_err(|e| format!("kill {signal}: {e}"))?;
        if !status.success() {
            return Err(format!("kill {signal} failed: {status}"));
        }
        Ok(())
    }

    /// Whether it has ended (and how).
    pub(crate) fn ended(&mut self) -> Option<std::process::ExitStatus> {
        self.process.try_wait().ok().flatten()
    }

    /// SIGKILL, and the process reaped.
    pub(crate) fn kill(&mut self) -> Result<(), String> {
        self.process
            .kill()
            .and_then(|()| self.process.wait().map(drop))
            .map_err(|e| format!("killing our engine's process: {e}"))
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // A frozen process takes SIGKILL as it is.
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// A TCP relay on a port of the system's choosing to 127.0.0.1:`to` (0:
/// each connection closed at once, as a refusal).
pub(crate) struct Relay {
    pub(crate) port: u16,
    live: Arc<std::sync::Mutex<Vec<std::net::TcpStream>>>,
}

impl Relay {
    /// Closes every connection it carries now, both ways: the network
    /// between the peers lost.
    pub(crate) fn cut(&self) {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        for s in live.drain(..) {
            let _ = s.shutdown(std::net::Shutdown::Both);
        }
    }
}

/// Starts a [`Relay`] to 127.0.0.1:`to`.
pub(crate) fn relay(to: Arc<AtomicU16>) -> Result<Relay, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("relay: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("relay: {e}"))?
        .port();
    let live = Arc::new(std::sync::Mutex::new(Vec::new()));
    let kept = live.clone();
    std::thread::spawn(move || {
        for client in listener.incoming() {
            let Ok(client) = client else { continue };
            let port = to.load(Ordering::SeqCst);
            if port == 0 {
                continue;
            }
            let Ok(server) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
                continue;
            };
            let _ = client.set_nodelay(true);
            let _ = server.set_nodelay(true);
            let (Ok(client2), Ok(server2)) = (client.try_clone(), server.try_clone()) else {
                continue;
            };
            if let (Ok(c), Ok(s)) = (client.try_clone(), server.try_clone()) {
                let mut live = kept.lock().unwrap_or_else(|e| e.into_inner());
                live.push(c);
                live.push(s);
            }
            for (mut from, mut to) in [(client2, server2), (server, client)] {
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from, &mut to);
                    let _ = to.shutdown(std::net::Shutdown::Both);
                });
            }
        }
    });
    Ok(Relay { port, live })
}
