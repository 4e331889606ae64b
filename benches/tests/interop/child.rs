//! Our engine in a child process (this test binary run again with the
//! child's environment), and a relay the test holds in front of it.
//!
//! A child binds port 0 and says `listening <port>` on its stdout; the
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
    let port = engine
        .local_addrs()
        .first()
        .map(|a| a.port())
        .ok_or("no listener")?;
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
        let _ = self.process.kill();
        let _ = self.process.wait();
    }
}

/// A TCP relay on a port of the system's choosing to 127.0.0.1:`to` (0:
/// each connection closed at once, as a refusal); its port.
pub(crate) fn relay(to: Arc<AtomicU16>) -> Result<u16, String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| format!("relay: {e}"))?;
    let port = listener
        .local_addr()
        .map_err(|e| format!("relay: {e}"))?
        .port();
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
            for (mut from, mut to) in [(client2, server2), (server, client)] {
                std::thread::spawn(move || {
                    let _ = std::io::copy(&mut from, &mut to);
                    let _ = to.shutdown(std::net::Shutdown::Both);
                });
            }
        }
    });
    Ok(port)
}
