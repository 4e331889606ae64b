//! `SessionHandle::send_now`: a message sent from the caller's thread goes to
//! the socket without the engine's thread, keeps its place among queued
//! messages, and falls back to the queue where the session is busy.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::common;
use crate::common::*;
use fix_core::Message;
use fix_engine::{Engine, SendError, SessionHandle};
use fix_session::{AppReject, Application, Outbox, SessionId, State};
use fix_test_support::temp_dir::TestDir;
use tokio::sync::{mpsc, oneshot};

const WAIT: u64 = 10;

/// An initiator engine of Recorders on a runtime of its own thread, as an
/// application whose sender threads are not the engine's has it.
struct Elsewhere {
    handle: SessionHandle,
    runtime: tokio::runtime::Handle,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Elsewhere {
    fn start(
        id: SessionId,
        session: fix_engine::config::SessionBuilder,
        tx: &mpsc::UnboundedSender<(SessionId, Event)>,
    ) -> Elsewhere {
        let settings = settings([session]);
        let apps = recorders(tx, false);
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap();
            rt.block_on(async move {
                let engine = Engine::start(settings, &fix44::DICTIONARY, apps)
                    .await
                    .unwrap();
                let handle = engine.session(&id).unwrap();
                ready_tx
                    .send((handle, tokio::runtime::Handle::current()))
                    .unwrap();
                let _ = stopped.await;
                engine.shutdown(Duration::from_secs(5)).await.unwrap();
            });
        });
        let (handle, runtime) = ready_rx.recv().unwrap();
        Elsewhere {
            handle,
            runtime,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Holds the engine's thread for `for_`; the flag is true until then.
    /// Returns once the hold has begun.
    async fn hold(&self, for_: Duration) -> Arc<AtomicBool> {
        let held = Arc::new(AtomicBool::new(true));
        let (began, begun) = oneshot::channel();
        let flag = held.clone();
        self.runtime.spawn(async move {
            let _ = began.send(());
            std::thread::sleep(for_);
            flag.store(false, Ordering::SeqCst);
        });
        begun.await.unwrap();
        held
    }

    fn stop(mut self) {
        let _ = self.stop.take().unwrap().send(());
        self.thread.take().unwrap().join().unwrap();
    }
}

async fn logged_on(handle: &SessionHandle) {
    tokio::time::timeout(Duration::from_secs(WAIT), handle.wait_for(State::LoggedOn))
        .await
        .unwrap();
}

/// The ClOrdID and MsgSeqNum of the next order `id`'s session receives.
async fn next_order(
    rx: &mut mpsc::UnboundedReceiver<(SessionId, Event)>,
    id: &SessionId,
) -> (String, u64) {
    loop {
        if let (got, Event::App { cl_ord_id, seq, .. }) = next(rx, WAIT).await
            && &got == id
        {
            return (cl_ord_id, seq);
        }
    }
}

#[tokio::test]
async fn send_now_writes_from_the_callers_thread_while_the_engine_thread_is_held() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let a_id = SessionId::new("FIX.4.4", "EXEC", "N1");
    let acc = start([acceptor("EXEC", "N1", 0)], &tx, false).await;
    let port = port_of(&acc);
    let ini = Elsewhere::start(
        SessionId::new("FIX.4.4", "N1", "EXEC"),
        initiator("N1", "EXEC", port),
        &tx,
    );
    logged_on(&ini.handle).await;

    // The initiator's thread is held: only this thread can write the order.
    let held = ini.hold(Duration::from_secs(3)).await;
    ini.handle.send_now(b"D", &order("NOW")).unwrap();
    assert_eq!(next_order(&mut rx, &a_id).await, ("NOW".into(), 2));
    assert!(
        held.load(Ordering::SeqCst),
        "arrived only once the engine's thread was free"
    );

    // Queued, the same order waits for the engine's thread.
    let held = ini.hold(Duration::from_millis(500)).await;
    ini.handle.send(b"D", &order("QUEUED")).unwrap();
    assert_eq!(next_order(&mut rx, &a_id).await, ("QUEUED".into(), 3));
    assert!(
        !held.load(Ordering::SeqCst),
        "a queued order went without the engine's thread"
    );

    ini.stop();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn send_now_and_send_from_one_thread_keep_its_order_and_the_sequence() {
    const ORDERS: u64 = 3000;
    let (tx, mut rx) = mpsc::unbounded_channel();
    let a_id = SessionId::new("FIX.4.4", "EXEC", "N2");
    let acc = start([acceptor("EXEC", "N2", 0)], &tx, false).await;
    let port = port_of(&acc);
    let ini = Elsewhere::start(
        SessionId::new("FIX.4.4", "N2", "EXEC"),
        initiator("N2", "EXEC", port),
        &tx,
    );
    logged_on(&ini.handle).await;

    let handle = ini.handle.clone();
    let sender = std::thread::spawn(move || {
        for i in 0..ORDERS {
            let body = order(&i.to_string());
            loop {
                // Alternating, in runs of one to three, so that direct sends
                // meet a queue both empty and not.
                let result = if i % 7 < 3 {
                    handle.send(b"D", &body)
                } else {
                    handle.send_now(b"D", &body)
                };
                match result {
                    Ok(()) => break,
                    Err(SendError::Full) => std::thread::sleep(Duration::from_micros(50)),
                    Err(e) => panic!("order {i}: {e}"),
                }
            }
        }
    });
    for i in 0..ORDERS {
        assert_eq!(next_order(&mut rx, &a_id).await, (i.to_string(), i + 2));
    }
    sender.join().unwrap();

    ini.stop();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

/// Answers each order `X` with an order `ACK-X` through `send_now`, from
/// inside the callback, where the session is its own caller's.
struct Acker {
    handle: SessionHandle,
}

impl Application for Acker {
    fn from_app(&mut self, msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        let id = String::from_utf8_lossy(msg.get(11).unwrap_or_default()).into_owned();
        self.handle
            .send_now(b"D", &order(&format!("ACK-{id}")))
            .unwrap();
        Ok(())
    }
}

#[tokio::test]
async fn send_now_from_a_callback_queues_instead_of_waiting_for_its_own_session() {
    let (tx, mut rx) = mpsc::unbounded_channel();
    let i_id = SessionId::new("FIX.4.4", "N3", "EXEC");
    let acc = Engine::start(
        settings([acceptor("EXEC", "N3", 0)]),
        &fix44::DICTIONARY,
        |_: &SessionId, handle| Acker { handle },
    )
    .await
    .unwrap();
    let port = port_of(&acc);
    let ini = start([initiator("N3", "EXEC", port)], &tx, false).await;
    let client = ini.session(&i_id).unwrap();
    logged_on(&client).await;
    for i in 0..3 {
        client.send(b"D", &order(&i.to_string())).unwrap();
    }
    for i in 0..3u64 {
        assert_eq!(
            next_order(&mut rx, &i_id).await,
            (format!("ACK-{i}"), i + 2)
        );
    }
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    acc.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn send_now_refuses_as_send_does() {
    let (tx, _rx) = mpsc::unbounded_channel();
    // A port that refuses connections and that no other socket can take.
    let (_refusing, port) = refusing_port();
    let ini = start([initiator("N4", "EXEC", port)], &tx, false).await;
    let client = ini
        .session(&SessionId::new("FIX.4.4", "N4", "EXEC"))
        .unwrap();
    assert_eq!(
        client.send_now(b"D", &order("1")),
        Err(SendError::NotConnected)
    );
    assert_eq!(client.send_now(&[b'D'; 256], b""), Err(SendError::TooLarge));
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
}

#[tokio::test]
async fn a_handle_kept_after_its_engine_is_gone_holds_no_store_open() {
    let dir = TestDir::new("send-now-store");
    let id = SessionId::new("FIX.4.4", "N5", "EXEC");
    let (tx, _rx) = mpsc::unbounded_channel();
    let (_refusing, port) = refusing_port();
    let ini = start(
        [initiator("N5", "EXEC", port).file_store_path(&dir)],
        &tx,
        false,
    )
    .await;
    // Each session's application holds a handle too: the session must not
    // keep itself alive through it.
    let kept = ini.session(&id).unwrap();
    ini.shutdown(Duration::from_secs(5)).await.unwrap();
    common::open_session_store(&dir, &id).expect("the store was let go");
    assert_eq!(
        kept.send_now(b"D", &order("1")),
        Err(SendError::NotConnected)
    );
}
