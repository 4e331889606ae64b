//! QuickFIX's server acceptance suite over TCP: the scripts fix-session's
//! in-memory runner runs, here against an [`Engine`] acceptor on loopback with
//! the real clock. Each script gets an engine of its own, configured as
//! QuickFIX's test acceptor is (the sessions of `profiles.rs`), and a real
//! socket per connection of the script: `I` lines are written to it, `E` lines
//! read from it, `eDISCONNECT` waits for the engine to close it.
//!
//! The scripts that wait for heartbeats and test requests take seconds of real
//! time, so the ten directories run at once, each on a thread of its own with
//! four scripts at a time; the test takes about as long as its slowest script. The script reader, the
//! application, the profiles and the report are fix-test-support's
//! (`fix_test_support::acceptance`), shared with fix-session's in-memory
//! runner, and so is the list of scripts that must pass. `FIX_ACCEPTANCE_VERBOSE=1` prints
//! each failure's messages; `--nocapture` shows the report and the timings.

use fix_test_support::acceptance::{echo, profiles, script, suite};

use std::collections::HashMap;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant, SystemTime};

use fix_core::{Parser, Status};
use fix_dict::Dictionary;
use fix_engine::config::{Schedule, SessionBuilder, SessionSettings, Settings};
use fix_engine::{DictionarySource, Engine, EngineError, EngineErrorKind, EngineOptions};
use fix_session::SessionId;
use fix_test_support::temp_dir::TestDir;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use echo::Echo;
use profiles::{Dictionaries, Profile};
use script::{Formats, Step};

/// How long an `E` line waits for its message, and `eDISCONNECT` for the
/// engine to close the connection: QuickFIX's runner gives both 10 s.
const EXPECT_WAIT: Duration = Duration::from_secs(10);
const DISCONNECT_WAIT: Duration = Duration::from_secs(10);

/// Loaded once, for every directory's engines.
static DICTS: OnceLock<Dictionaries> = OnceLock::new();

#[test]
fn quickfix_server_acceptance_over_tcp() {
    run_suite(Logs::Off);
}

/// The suite again with FileLogPath set: the log's path frames what it reads
/// on its own before the session sees it, and must hand every script's bytes
/// over as they came.
#[test]
fn quickfix_server_acceptance_over_tcp_with_file_logs() {
    run_suite(Logs::On);
}

/// Whether the engines write QuickFIX's message and event logs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Logs {
    Off,
    On,
}

fn run_suite(logs: Logs) {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let dicts = DICTS.get_or_init(Dictionaries::load);
    let formats = suite::formats();
    let started = Instant::now();
    let dirs: Vec<(&str, suite::Outcomes, Vec<Duration>)> = std::thread::scope(|scope| {
        let threads: Vec<_> = suite::DIRS
            .iter()
            .map(|&dir| {
                let formats = &formats;
                let thread = scope.spawn(move || run_dir(dicts, dir, formats, logs));
                (dir, thread)
            })
            .collect();
        threads
            .into_iter()
            .map(|(dir, thread)| {
                let (outcomes, took) = thread.join().unwrap();
                (dir, outcomes, took)
            })
            .collect()
    });
    let elapsed = started.elapsed();
    let mut slowest = Vec::new();
    for (dir, outcomes, took) in &dirs {
        let total: Duration = took.iter().sum();
        println!(
            "{dir}: {} scripts, {:.1} s of script time",
            outcomes.len(),
            total.as_secs_f64()
        );
        slowest.extend(outcomes.iter().map(|(name, _)| name).zip(took));
    }
    slowest.sort_by(|a, b| b.1.cmp(a.1));
    let slowest: Vec<String> = slowest
        .iter()
        .take(5)
        .map(|(name, took)| format!("{name} {:.1} s", took.as_secs_f64()))
        .collect();
    println!("slowest: {}", slowest.join(", "));
    let with = if logs == Logs::On {
        " with file logs"
    } else {
        ""
    };
    println!("acceptance over TCP{with}: {:.1} s", elapsed.as_secs_f64());
    let dirs: Vec<(&str, suite::Outcomes)> = dirs.into_iter().map(|(d, o, _)| (d, o)).collect();
    suite::report(&dirs);
}

/// Runs the scripts of `dir` four at a time on a runtime of the thread's own
/// (the slowest, 6_SendTestRequest, waits 34 s for heartbeats and test
/// requests while the other lanes take the rest); returns what each did and
/// how long each took, in name order.
fn run_dir(
    dicts: &'static Dictionaries,
    dir: &'static str,
    formats: &Formats,
    logs: Logs,
) -> (suite::Outcomes, Vec<Duration>) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let scripts = suite::scripts(dir);
    // The next script a lane takes: one thread, so a Cell is enough.
    let next = std::cell::Cell::new(0);
    let lane = || async {
        let mut done = Vec::new();
        while let Some((name, text)) = scripts.get(next.get()) {
            let index = next.replace(next.get() + 1);
            let started = Instant::now();
            let result = match script::parse(text) {
                Ok(steps) => run_script(dicts, dir, &steps, formats, logs).await,
                Err(e) => Err(e),
            };
            done.push((index, (name.clone(), result), started.elapsed()));
        }
        done
    };
    let (a, b, c, d) = runtime.block_on(async { tokio::join!(lane(), lane(), lane(), lane()) });
    let mut all: Vec<_> = [a, b, c, d].into_iter().flatten().collect();
    all.sort_by_key(|(index, _, _)| *index);
    all.into_iter()
        .map(|(_, outcome, took)| (outcome, took))
        .unzip()
}

/// The dictionaries of the profiles' sessions, loaded already.
struct ProfileDictionaries {
    dicts: &'static Dictionaries,
    dir: &'static str,
}

impl DictionarySource<&'static Dictionary> for ProfileDictionaries {
    fn dictionaries(
        &self,
        settings: &SessionSettings,
    ) -> Result<fix_session::Dictionaries<&'static Dictionary>, EngineError> {
        let id = &settings.session.id;
        match profile(self.dir, id) {
            Some(p) => Ok(self.dicts.session(&p)),
            None => Err(EngineError::from(EngineErrorKind::Dictionary {
                id: id.clone(),
                path: PathBuf::new(),
                message: "not a session of the acceptance profiles".into(),
            })),
        }
    }
}

/// The profile of session `id` (our side's view) in directory `dir`.
fn profile(dir: &str, id: &SessionId) -> Option<Profile> {
    profiles::profiles(dir).find(|p| p.begin == id.begin_string && p.target == id.target_comp_id)
}

/// An acceptor with the profiles' sessions, on a port of its own on loopback.
async fn start_engine(
    dicts: &'static Dictionaries,
    dir: &'static str,
    logs: Option<&std::path::Path>,
) -> Result<Engine<&'static Dictionary>, String> {
    let mut sessions = Vec::new();
    for p in profiles::profiles(dir) {
        let mut b = SessionBuilder::acceptor(SessionId::new(p.begin, "ISLD", p.target))
            .socket_accept_address("127.0.0.1")
            .socket_accept_port(0)
            .schedule(Schedule::non_stop())
            .reset_on_logon(true)
            .validate_fields_have_values(p.have_values);
        if let Some(v) = p.appl_ver_id {
            b = b.default_appl_ver_id(v);
        }
        if let Some(path) = logs {
            b = b.file_log_path(path);
        }
        sessions.push(b.build().map_err(|e| format!("settings: {e}"))?);
    }
    let settings = Settings::new(sessions).map_err(|e| format!("settings: {e}"))?;
    let source = ProfileDictionaries { dicts, dir };
    Engine::start_with(settings, source, EngineOptions::default(), move |id, _| {
        let p = profile(dir, id).expect("the engine makes the profiles' sessions only");
        Echo::new(dicts.app(&p))
    })
    .await
    .map_err(|e| format!("engine: {e}"))
}

/// One connection of a script: its socket (`None` once the engine closed it)
/// and what was read from it and not yet expected.
struct Conn {
    stream: Option<TcpStream>,
    read: Vec<u8>,
}

async fn run_script(
    dicts: &'static Dictionaries,
    dir: &'static str,
    steps: &[(usize, Step)],
    formats: &Formats,
    logs: Logs,
) -> Result<(), String> {
    // Each script's engine logs into a directory of its own, removed after
    // (dropped last: the engine is gone by then), also when the script fails.
    let log_dir = (logs == Logs::On).then(|| TestDir::new("engine-acceptance-logs"));
    let engine = start_engine(dicts, dir, log_dir.as_deref()).await?;
    let addr = engine.local_addrs()[0];
    let mut conns = HashMap::new();
    for (line, step) in steps {
        run_step(&mut conns, addr, step, formats)
            .await
            .map_err(|e| format!("line {line}: {e}"))?;
    }
    // Our side closes first, as the in-memory runner's does.
    drop(conns);
    drop(engine);
    Ok(())
}

async fn run_step(
    conns: &mut HashMap<u32, Conn>,
    addr: SocketAddr,
    step: &Step,
    formats: &Formats,
) -> Result<(), String> {
    match step {
        Step::Connect { conn } => {
            let stream = TcpStream::connect(addr)
                .await
                .map_err(|e| format!("connect: {e}"))?;
            stream
                .set_nodelay(true)
                .map_err(|e| format!("nodelay: {e}"))?;
            conns.insert(
                *conn,
                Conn {
                    stream: Some(stream),
                    read: Vec::new(),
                },
            );
            Ok(())
        }
        Step::Disconnect { conn } => {
            conns.remove(conn);
            Ok(())
        }
        Step::Send { conn, template } => {
            let c = opened(conns, *conn)?;
            if template
                .windows(6)
                .any(|w| w == b"<TIME+" || w == b"<TIME-")
            {
                early_in_a_second().await;
            }
            let bytes = script::build(template, SystemTime::now());
            if let Some(stream) = &mut c.stream {
                // The engine may have closed the connection: the bytes go nowhere.
                let _ = stream.write_all(&bytes).await;
            }
            Ok(())
        }
        Step::Expect { conn, template } => {
            let c = opened(conns, *conn)?;
            let received = match receive(c, EXPECT_WAIT).await {
                Received::Message(m) => m,
                Received::Closed => {
                    return Err("expected a message, the engine disconnected".into());
                }
                Received::Nothing => {
                    return Err(format!(
                        "expected a message, nothing within {} s",
                        EXPECT_WAIT.as_secs()
                    ));
                }
            };
            script::compare(
                &script::build(template, SystemTime::now()),
                &received,
                formats,
            )
        }
        Step::ExpectDisconnect { conn } => {
            let c = opened(conns, *conn)?;
            match receive(c, DISCONNECT_WAIT).await {
                Received::Closed => Ok(()),
                Received::Message(msg) => Err(format!(
                    "expected a disconnect, received {}",
                    script::show(&script::split(&msg), usize::MAX)
                )),
                Received::Nothing => Err(format!(
                    "expected a disconnect, the connection is open after {} s",
                    DISCONNECT_WAIT.as_secs()
                )),
            }
        }
    }
}

/// Waits, when need be, until the clock is early in a second. `<TIME>` is
/// written to the second, so a SendingTime shifted by a script (`<TIME+121>`,
/// to be more than MaxLatency's 120 s ahead) lands up to a second short of
/// its shift; sent early in the second, it misses by the time the engine
/// takes to read it, not by most of a second.
async fn early_in_a_second() {
    let into = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default()
        .subsec_millis();
    if into > 100 {
        tokio::time::sleep(Duration::from_millis(u64::from(1005 - into))).await;
    }
}

fn opened(conns: &mut HashMap<u32, Conn>, id: u32) -> Result<&mut Conn, String> {
    conns
        .get_mut(&id)
        .ok_or_else(|| format!("connection {id} was never opened"))
}

enum Received {
    Message(Vec<u8>),
    /// The engine closed the connection (what it wrote before was read).
    Closed,
    /// Nothing complete within the wait.
    Nothing,
}

/// The next message the engine writes on `conn`, within `wait`.
async fn receive(conn: &mut Conn, wait: Duration) -> Received {
    let deadline = tokio::time::Instant::now() + wait;
    let mut chunk = [0u8; 4096];
    loop {
        if let Some(msg) = take_message(&mut conn.read) {
            return Received::Message(msg);
        }
        let Some(stream) = &mut conn.stream else {
            return Received::Closed;
        };
        match tokio::time::timeout_at(deadline, stream.read(&mut chunk)).await {
            Err(_) => return Received::Nothing,
            Ok(Ok(n)) if n > 0 => conn.read.extend_from_slice(&chunk[..n]),
            // The end of the stream, or a reset: the engine closed it with
            // bytes of ours unread.
            Ok(_) => conn.stream = None,
        }
    }
}

/// Takes one framed message off the front of `read` (or all of it, when it
/// does not frame).
fn take_message(read: &mut Vec<u8>) -> Option<Vec<u8>> {
    if read.is_empty() {
        return None;
    }
    let len = match Parser::new().with_empty_values(true).frame(read) {
        Ok(Status::Complete(frame)) => frame.len(),
        Ok(Status::Partial { .. }) => return None,
        Err(_) => read.len(),
    };
    Some(read.drain(..len).collect())
}
