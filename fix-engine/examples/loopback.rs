//! Throughput on loopback: an acceptor engine and an initiator engine, each on
//! a current-thread runtime of its own thread, memory stores, FIX 4.4
//! validation on both sides.
//!
//! ```sh
//! cargo run --profile bench -p fix-engine --example loopback -- 1000000
//! cargo run --profile bench -p fix-engine --example loopback -- 1000000 /tmp/stores          # file stores, FileStoreSync=N
//! cargo run --profile bench -p fix-engine --example loopback -- 1000000 /tmp/stores --sync   # FileStoreSync=Y (group commit)
//! cargo run --profile bench -p fix-engine --example loopback -- 1000000 --tls                # over TLS
//! cargo run --profile bench -p fix-engine --example loopback -- 1000000 --log /tmp/logs      # and message logs (FileLogPath)
//! ```
//!
//! With `--tls`, a certificate authority and the acceptor's certificate are
//! made for the run (with rcgen) in a temporary directory.
//!
//! Prints one-way messages per second (orders sent as fast as the initiator's
//! queue takes them, counted by the acceptor's application), pipelined round
//! trips per second (orders sent as fast as they are taken, each answered,
//! until every answer is in) and sequential round trips per second (an order,
//! its answer, then the next order).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use fix_core::Message;
use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_engine::{Engine, EngineOptions, SendError};
use fix_session::{AppReject, Application, Outbox, SessionId, State};
use tokio::sync::Notify;

const ORDER: &[u8] =
    b"11=ORDER-1\x0121=1\x0155=EUR/USD\x0154=1\x0160=20260921-14:13:20\x0140=1\x01";

/// Counts orders; answers those marked 58=RT with the same order.
struct Acceptor {
    received: Arc<AtomicU64>,
    done: Arc<Notify>,
    target: Arc<AtomicU64>,
}

impl Application for Acceptor {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        let n = self.received.fetch_add(1, Ordering::Relaxed) + 1;
        if msg.get(58) == Some(b"RT") {
            out.send_body(b"D", ORDER);
        }
        if n == self.target.load(Ordering::Relaxed) {
            self.done.notify_one();
        }
        Ok(())
    }
}

/// Counts answers, waking the round-trip loops at each.
struct Initiator {
    answers: Arc<AtomicU64>,
    answered: Arc<Notify>,
}

impl Application for Initiator {
    fn from_app(&mut self, _msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        self.answers.fetch_add(1, Ordering::Relaxed);
        self.answered.notify_one();
        Ok(())
    }
}

/// Sends `n` messages, yielding while the queue is full; returns how many
/// sends found it full.
async fn send_all(client: &fix_engine::SessionHandle, body: &[u8], n: u64) -> u64 {
    let mut full = 0;
    for _ in 0..n {
        loop {
            match client.send(b"D", body) {
                Ok(()) => break,
                Err(SendError::Full) => {
                    full += 1;
                    tokio::task::yield_now().await;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }
    full
}

/// The run's TLS files: a certificate authority's certificate, and the
/// acceptor's certificate and key, in a temporary directory.
struct TlsFiles {
    ca: std::path::PathBuf,
    cert: std::path::PathBuf,
    key: std::path::PathBuf,
}

fn tls_files() -> TlsFiles {
    use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, IsCa, KeyPair};
    let dir = std::env::temp_dir().join(format!("fix-loopback-tls-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let ca = CertifiedIssuer::self_signed(ca_params, KeyPair::generate().unwrap()).unwrap();
    let key = KeyPair::generate().unwrap();
    let cert = CertificateParams::new(vec!["127.0.0.1".to_owned()])
        .unwrap()
        .signed_by(&key, &ca)
        .unwrap();
    let files = TlsFiles {
        ca: dir.join("ca.pem"),
        cert: dir.join("server.crt"),
        key: dir.join("server.key"),
    };
    std::fs::write(&files.ca, ca.pem()).unwrap();
    std::fs::write(&files.cert, cert.pem()).unwrap();
    std::fs::write(&files.key, key.serialize_pem()).unwrap();
    files
}

/// A session's settings: file stores in `dir` when given (durable before
/// sent with `sync`, FileStoreSync=Y, by group commit; else synced by the
/// system, FileStoreSync=N), memory stores otherwise; message logs in `log`
/// when given.
fn with_store(
    b: SessionBuilder,
    dir: &Option<String>,
    log: &Option<String>,
    sync: bool,
) -> SessionBuilder {
    let policy = if sync {
        fix_session::SyncPolicy::EveryRecord
    } else {
        fix_session::SyncPolicy::Os
    };
    let b = match dir {
        Some(d) => b.file_store_path(d.as_str()).file_store_sync(policy),
        None => b,
    };
    match log {
        Some(l) => b.file_log_path(l.as_str()),
        None => b,
    }
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut n, mut store_dir, mut log_dir, mut tls) = (200_000u64, None, None, None);
    let mut sync = false;
    let mut count_given = false;
    while let Some(a) = args.next() {
        if a == "--log" {
            log_dir = Some(args.next().expect("--log takes a directory"));
        } else if a == "--sync" {
            sync = true;
        } else if a == "--tls" {
            tls = Some(tls_files());
        } else if !count_given {
            n = a.parse().expect("a message count");
            count_given = true;
        } else {
            store_dir = Some(a);
        }
    }
    for d in [&store_dir, &log_dir].into_iter().flatten() {
        let _ = std::fs::remove_dir_all(d);
    }
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut options = EngineOptions::default();
    options.memory_store_capacity = (2 * n as usize + 1000, (2 * n as usize + 1000) * 160);
    let received = Arc::new(AtomicU64::new(0));
    let done = Arc::new(Notify::new());
    let target = Arc::new(AtomicU64::new(n));

    let acceptor = {
        let (options, received, done, target) = (
            options.clone(),
            received.clone(),
            done.clone(),
            target.clone(),
        );
        let (store_dir, log_dir) = (store_dir.clone(), log_dir.clone());
        let tls = tls.as_ref().map(|t| (t.cert.clone(), t.key.clone()));
        std::thread::spawn(move || {
            runtime().block_on(async move {
                let s = SessionBuilder::acceptor(SessionId::new("FIX.4.4", "EXEC", "C1"))
                    .socket_accept_address("127.0.0.1")
                    .socket_accept_port(port)
                    .schedule(Schedule::non_stop());
                let s = match tls {
                    Some((cert, key)) => s.socket_use_ssl(true).certificate(cert).private_key(key),
                    None => s,
                };
                let s = with_store(s, &store_dir, &log_dir, sync).build().unwrap();
                let engine = Engine::start_with(
                    Settings::new([s]).unwrap(),
                    &fix44::DICTIONARY,
                    options,
                    move |_, _| Acceptor {
                        received: received.clone(),
                        done: done.clone(),
                        target: target.clone(),
                    },
                )
                .await
                .unwrap();
                let handle = engine
                    .session(&SessionId::new("FIX.4.4", "EXEC", "C1"))
                    .unwrap();
                handle.wait_for(State::LoggedOn).await;
                handle.wait_for(State::Disconnected).await;
                engine.shutdown(Duration::from_secs(5)).await.unwrap();
            })
        })
    };

    runtime().block_on(async {
        let answered = Arc::new(Notify::new());
        let answers = Arc::new(AtomicU64::new(0));
        let s = SessionBuilder::initiator(SessionId::new("FIX.4.4", "C1", "EXEC"))
            .heart_bt_int(30)
            .socket_connect("127.0.0.1", port)
            .reconnect_interval(Duration::from_secs(1))
            .schedule(Schedule::non_stop());
        let s = match &tls {
            Some(t) => s.socket_use_ssl(true).ca_file(&t.ca),
            None => s,
        };
        let s = with_store(s, &store_dir, &log_dir, sync).build().unwrap();
        let (a, c) = (answered.clone(), answers.clone());
        let engine = Engine::start_with(
            Settings::new([s]).unwrap(),
            &fix44::DICTIONARY,
            options,
            move |_, _| Initiator {
                answers: c.clone(),
                answered: a.clone(),
            },
        )
        .await
        .unwrap();
        let client = engine
            .session(&SessionId::new("FIX.4.4", "C1", "EXEC"))
            .unwrap();
        client.wait_for(State::LoggedOn).await;

        let start = Instant::now();
        let full = send_all(&client, ORDER, n).await;
        done.notified().await;
        let t = start.elapsed();
        println!(
            "one-way: {n} orders in {:.3} s: {:.0} messages/s ({full} sends found the queue full)",
            t.as_secs_f64(),
            n as f64 / t.as_secs_f64()
        );

        let mut body = ORDER.to_vec();
        body.extend_from_slice(b"58=RT\x01");
        let pipelined = n / 2;
        target.store(n + pipelined, Ordering::Relaxed);
        let start = Instant::now();
        send_all(&client, &body, pipelined).await;
        while answers.load(Ordering::Relaxed) < pipelined {
            answered.notified().await;
        }
        let t = start.elapsed();
        println!(
            "pipelined round trips: {pipelined} in {:.3} s: {:.0} round trips/s",
            t.as_secs_f64(),
            pipelined as f64 / t.as_secs_f64()
        );

        let rt = n / 10;
        target.store(n + pipelined + rt, Ordering::Relaxed);
        let start = Instant::now();
        for _ in 0..rt {
            client.send(b"D", &body).unwrap();
            answered.notified().await;
        }
        let t = start.elapsed();
        println!(
            "sequential round trips: {rt} in {:.3} s: {:.0} round trips/s, {:.1} us each",
            t.as_secs_f64(),
            rt as f64 / t.as_secs_f64(),
            t.as_secs_f64() * 1e6 / rt as f64
        );
        engine.shutdown(Duration::from_secs(5)).await.unwrap();
    });
    acceptor.join().unwrap();
    if let Some(t) = &tls
        && let Some(dir) = t.ca.parent()
    {
        let _ = std::fs::remove_dir_all(dir);
    }
}
