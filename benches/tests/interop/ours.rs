//! Our side: an [`Engine`] on a current-thread tokio runtime of its own thread,
//! whose application answers each NewOrderSingle with an ExecutionReport and
//! records what it is handed in a [`Book`].

use std::path::Path;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use fix_core::Message;
use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_engine::{Engine, SendError, SessionHandle};
use fix_session::{AppReject, Application, Outbox, Refusal, SessionId};
use tokio::sync::oneshot;

use crate::book::{Book, Report};

/// The application: answers orders, records reports.
pub(crate) struct Trader {
    book: Arc<Book>,
    body: Vec<u8>,
}

impl Trader {
    pub(crate) fn new(book: Arc<Book>) -> Trader {
        Trader {
            book,
            body: Vec::new(),
        }
    }
}

fn text(msg: &Message<'_>, tag: u32) -> String {
    String::from_utf8_lossy(msg.get(tag).unwrap_or_default()).into_owned()
}

impl Application for Trader {
    fn on_logon(&mut self, _id: &SessionId) {
        self.book.logon();
    }

    fn on_logout(&mut self, _id: &SessionId) {
        self.book.logout();
    }

    fn from_admin(&mut self, msg: &Message<'_>) -> Result<(), Refusal> {
        if msg.msg_type() == b"3" {
            self.book.reject(format!("Reject: {}", text(msg, 58)));
        }
        Ok(())
    }

    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        match msg.msg_type() {
            b"D" => {
                let cl_ord_id = text(msg, 11);
                self.book.order(&cl_ord_id);
                crate::body(&mut self.body, &crate::report_fields(&cl_ord_id));
                out.send_body(b"8", &self.body);
            }
            b"8" => {
                let seq = text(msg, 34).parse().unwrap_or(0);
                let poss_dup = msg.get(43) == Some(b"Y");
                self.book.report(&text(msg, 11), Report { seq, poss_dup });
            }
            b"j" => self
                .book
                .reject(format!("BusinessMessageReject: {}", text(msg, 58))),
            _ => {}
        }
        Ok(())
    }
}

/// Our engine on its thread, shut down (a Logout to its session) when stopped.
pub(crate) struct Ours {
    pub(crate) handle: SessionHandle,
    stop: oneshot::Sender<()>,
    thread: JoinHandle<Result<(), String>>,
}

/// The settings of our side of a test: `id` on 127.0.0.1:`port` (an acceptor, or
/// an initiator connecting there with HeartBtInt=30 and ReconnectInterval=1, as
/// QuickFIX's side has), non-stop, the file store (FileStoreSync's default, a
/// sync per record) and QuickFIX's file log in `dir`.
pub(crate) fn settings(
    id: &SessionId,
    initiator: bool,
    port: u16,
    dir: &Path,
) -> Result<Settings, String> {
    let builder = if initiator {
        SessionBuilder::initiator(id.clone())
            .heart_bt_int(30)
            .socket_connect("127.0.0.1", port)
            .reconnect_interval(Duration::from_secs(1))
    } else {
        SessionBuilder::acceptor(id.clone())
            .socket_accept_address("127.0.0.1")
            .socket_accept_port(port)
    };
    let session = builder
        .schedule(Schedule::non_stop())
        .file_store_path(dir.join("store"))
        .file_log_path(dir.join("log"))
        .build()
        .map_err(|e| format!("ours: settings: {e}"))?;
    Settings::new([session]).map_err(|e| format!("ours: settings: {e}"))
}

impl Ours {
    /// Starts an engine with `settings` whose session `id` records in `book`.
    pub(crate) fn start(
        settings: Settings,
        id: SessionId,
        book: Arc<Book>,
    ) -> Result<Ours, String> {
        let (handle_tx, handle_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("ours".to_owned())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .map_err(|e| format!("tokio runtime: {e}"))?;
                runtime.block_on(async move {
                    let apps = move |_: &SessionId, _| Trader::new(book.clone());
                    let engine = match Engine::start(settings, &fix44::DICTIONARY, apps).await {
                        Ok(e) => e,
                        Err(e) => {
                            let _ = handle_tx.send(Err(format!("ours: start: {e}")));
                            return Ok(());
                        }
                    };
                    let session = engine.session(&id).ok_or(format!("ours: no session {id}"));
                    let _ = handle_tx.send(session);
                    let _ = stopped.await;
                    engine
                        .shutdown(Duration::from_secs(5))
                        .await
                        .map(|_| ())
                        .map_err(|e| format!("ours: shutdown: {e}"))
                })
            })
            .map_err(|e| format!("thread: {e}"))?;
        let handle = handle_rx
            .recv()
            .map_err(|_| "ours: the engine's thread ended before starting it".to_owned())??;
        Ok(Ours {
            handle,
            stop,
            thread,
        })
    }

    /// Sends order `cl_ord_id`, waiting (at most 30 s) while the queue is full.
    pub(crate) fn send_order(&self, cl_ord_id: &str) -> Result<(), String> {
        let mut body = Vec::new();
        crate::body(&mut body, &crate::order_fields(cl_ord_id));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match self.handle.send(b"D", &body) {
                Ok(()) => return Ok(()),
                // Back-pressure from a slow connection: the application's
                // part is to try again (there is nothing to wait on).
                Err(SendError::Full) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(1));
                }
                Err(e) => return Err(format!("ours: order {cl_ord_id}: {e}")),
            }
        }
    }

    /// Shuts the engine down (Logout, stores synced).
    pub(crate) fn stop(self) -> Result<(), String> {
        let _ = self.stop.send(());
        self.thread
            .join()
            .map_err(|_| "ours: the engine's thread panicked".to_owned())?
    }
}
