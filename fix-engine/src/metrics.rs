//! A session's metrics, through the `metrics` facade: the application
//! installs a recorder (a Prometheus exporter, say) and the engine's numbers
//! appear there, labelled with the session; with none installed every
//! update is a branch on an empty handle, nothing allocated.
//!
//! The handles are registered once a session (its labels made then), and
//! updated from what the session did: its events (resends, rejects,
//! connections), its counts of messages, its store's numbers and the
//! driver's timings.
//!
//! | name | kind | what |
//! |---|---|---|
//! | `fix_session_state` | gauge | 0 disconnected, 1 awaiting the Logon, 2 logged on, 3 our Logout sent |
//! | `fix_session_next_sender_seq`, `fix_session_next_target_seq` | gauge | the store's next numbers |
//! | `fix_messages_received_total`, `fix_messages_sent_total` | counter, `kind` = `admin` or `app` | messages framed and sent |
//! | `fix_resends_served_total` | counter | ResendRequests the counterparty sent, served |
//! | `fix_resend_requests_total` | counter | ResendRequests this session sent |
//! | `fix_rejects_total` | counter, `direction` = `sent` or `received` | session-level Rejects |
//! | `fix_connections_total` | counter | connections begun (a reconnect counts one more) |
//! | `fix_send_queue_depth` | gauge | messages waiting when the connection last took the handles' queue (queued, and held back by `MaxMessagesPerSecond`) |
//! | `fix_store_sync_seconds` | histogram | a group commit's durable step, begun to ended |
//! | `fix_read_to_reply_seconds` | histogram | from a read to the write of what the session answered |

use metrics::{Counter, Gauge, Histogram, counter, gauge, histogram};

use fix_session::{Event, MessageCounts, SessionId, State};

/// One session's registered handles, and what was last published of its
/// cumulative counts.
#[derive(Debug)]
pub(crate) struct SessionMetrics {
    state: Gauge,
    next_sender: Gauge,
    next_target: Gauge,
    received_admin: Counter,
    received_app: Counter,
    sent_admin: Counter,
    sent_app: Counter,
    resends_served: Counter,
    resend_requests: Counter,
    rejects_sent: Counter,
    rejects_received: Counter,
    connections: Counter,
    queue_depth: Gauge,
    sync: Histogram,
    read_to_reply: Histogram,
    published: MessageCounts,
}

impl SessionMetrics {
    /// The handles of session `id`, registered with whatever recorder is
    /// installed now (none: every update does nothing).
    pub(crate) fn new(id: &SessionId) -> SessionMetrics {
        let s = id.to_string();
        SessionMetrics {
            state: gauge!("fix_session_state", "session" => s.clone()),
            next_sender: gauge!("fix_session_next_sender_seq", "session" => s.clone()),
            next_target: gauge!("fix_session_next_target_seq", "session" => s.clone()),
            received_admin: counter!("fix_messages_received_total", "session" => s.clone(), "kind" => "admin"),
            received_app: counter!("fix_messages_received_total", "session" => s.clone(), "kind" => "app"),
            sent_admin: counter!("fix_messages_sent_total", "session" => s.clone(), "kind" => "admin"),
            sent_app: counter!("fix_messages_sent_total", "session" => s.clone(), "kind" => "app"),
            resends_served: counter!("fix_resends_served_total", "session" => s.clone()),
            resend_requests: counter!("fix_resend_requests_total", "session" => s.clone()),
            rejects_sent: counter!("fix_rejects_total", "session" => s.clone(), "direction" => "sent"),
            rejects_received: counter!("fix_rejects_total", "session" => s.clone(), "direction" => "received"),
            connections: counter!("fix_connections_total", "session" => s.clone()),
            queue_depth: gauge!("fix_send_queue_depth", "session" => s.clone()),
            sync: histogram!("fix_store_sync_seconds", "session" => s.clone()),
            read_to_reply: histogram!("fix_read_to_reply_seconds", "session" => s),
            published: MessageCounts::default(),
        }
    }

    /// Counts what an event tells of.
    pub(crate) fn event(&self, event: &Event) {
        match event {
            Event::State(state) => {
                self.state.set(state_number(*state));
                if *state == State::AwaitingLogon {
                    self.connections.increment(1);
                }
            }
            Event::ResendServed { .. } => self.resends_served.increment(1),
            Event::ResendRequested { .. } => self.resend_requests.increment(1),
            Event::Rejected { .. } => self.rejects_sent.increment(1),
            Event::RejectReceived { .. } => self.rejects_received.increment(1),
            _ => {}
        }
    }

    /// Publishes the session's counts and numbers as they are now.
    pub(crate) fn numbers(&mut self, counts: MessageCounts, next_sender: u64, next_target: u64) {
        let last = std::mem::replace(&mut self.published, counts);
        self.received_admin
            .increment(counts.received_admin.saturating_sub(last.received_admin));
        self.received_app
            .increment(counts.received_app.saturating_sub(last.received_app));
        self.sent_admin
            .increment(counts.sent_admin.saturating_sub(last.sent_admin));
        self.sent_app
            .increment(counts.sent_app.saturating_sub(last.sent_app));
        // Gauges are f64: exact for every number below 2^53.
        self.next_sender.set(next_sender as f64);
        self.next_target.set(next_target as f64);
    }

    /// `depth` messages waited when the connection took the handles' queue
    /// (those it holds back under the session's throttle included).
    pub(crate) fn queue_taken(&self, depth: usize) {
        self.queue_depth.set(depth as f64);
    }

    /// A group commit's durable step took `seconds`.
    pub(crate) fn synced(&self, seconds: f64) {
        self.sync.record(seconds);
    }

    /// What a read brought was answered and written `seconds` after it.
    pub(crate) fn replied(&self, seconds: f64) {
        self.read_to_reply.record(seconds);
    }
}

/// A state as the gauge shows it.
fn state_number(state: State) -> f64 {
    match state {
        State::Disconnected => 0.0,
        State::AwaitingLogon => 1.0,
        State::LoggedOn => 2.0,
        State::LogoutSent => 3.0,
    }
}
