//! What a session tells its transport beside bytes, as quinn-proto's `poll()`
//! does: what it received and sent (with the bytes, when
//! [`SessionConfig::message_events`] is on), the admin exchanges it took part
//! in, the changes of its state, why it wants the connection to end, and the
//! bounds it enforced on what a peer sent. The transport drains them with
//! [`Session::poll_event`] after each input and forwards them: a message log
//! formats them, a handle's state follows them. Nothing outside the session
//! reads its bytes again to learn what happened.
//!
//! [`Session::poll_event`]: super::Session::poll_event
//! [`SessionConfig::message_events`]: crate::SessionConfig::message_events

use std::collections::VecDeque;
use std::fmt;
use std::ops::Range;

use super::State;

/// The most events a session keeps until they are polled: past it the oldest
/// are dropped (and counted), so a transport that never polls cannot make a
/// session grow. Message events ([`Event::Received`], [`Event::Sent`]) are
/// bounded by [`MAX_TRANSCRIPT_BYTES`] instead: one input may bring
/// thousands of messages, and a message log must see every one.
pub const MAX_PENDING_EVENTS: usize = 256;

/// The most bytes of messages a session keeps for its unpolled message
/// events (under [`SessionConfig::message_events`]). A transport that polls
/// after each input never comes near it; past it, message events are dropped
/// and counted as [`Session::dropped_events`].
///
/// [`SessionConfig::message_events`]: crate::SessionConfig::message_events
/// [`Session::dropped_events`]: super::Session::dropped_events
pub const MAX_TRANSCRIPT_BYTES: usize = 64 << 20;

/// A message the session framed from its input or sent: its number and kind,
/// and where its bytes wait ([`Session::message_bytes`]) until the
/// session's next input.
///
/// [`Session::message_bytes`]: super::Session::message_bytes
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MessageEvent {
    /// MsgSeqNum (34), when the message has a readable one.
    pub seq: Option<u64>,
    /// An admin (session-level) message: Heartbeat, TestRequest,
    /// ResendRequest, Reject, SequenceReset, Logout, Logon.
    pub admin: bool,
    /// Whether the message is a Heartbeat (QuickFIX/J's `FileLogHeartbeats`
    /// leaves them out of a log).
    pub heartbeat: bool,
    /// The input call that recorded it, and where in that call's transcript.
    pub(super) call: u64,
    pub(super) bytes: Range<usize>,
}

/// The messages a session has framed from its input and sent, admin and
/// application apart, since it was made: what a transport's metrics count
/// (whether or not message events are on).
///
/// ```
/// let c = fix_session::MessageCounts::default();
/// assert_eq!(c.received_admin + c.sent_app, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct MessageCounts {
    /// Admin messages framed from the input.
    pub received_admin: u64,
    /// Application messages framed from the input.
    pub received_app: u64,
    /// Admin messages sent (resent gap fills included).
    pub sent_admin: u64,
    /// Application messages sent (resent ones included).
    pub sent_app: u64,
}

impl MessageCounts {
    pub(super) fn received(&mut self, kind: Kind) {
        let count = if kind.admin {
            &mut self.received_admin
        } else {
            &mut self.received_app
        };
        *count += 1;
    }

    pub(super) fn sent(&mut self, kind: Kind) {
        let count = if kind.admin {
            &mut self.sent_admin
        } else {
            &mut self.sent_app
        };
        *count += 1;
    }
}

/// What a message event says of a message's MsgType.
#[derive(Clone, Copy, Debug)]
pub(super) struct Kind {
    admin: bool,
    heartbeat: bool,
}

impl Kind {
    pub(super) fn of(msg_type: &[u8]) -> Kind {
        Kind {
            admin: super::is_admin(msg_type),
            heartbeat: msg_type == b"0",
        }
    }
}

/// Why a session wants its connection closed ([`Event::DisconnectWanted`]).
///
/// ```
/// let why = fix_session::DisconnectReason::HeartbeatTimeout;
/// assert!(why.to_string().contains("heartbeat"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DisconnectReason {
    /// The Logout exchange is complete.
    LogoutExchanged,
    /// No Logon came within LogonTimeout.
    LogonTimeout,
    /// Our Logout was not answered within LogoutTimeout.
    LogoutTimeout,
    /// Nothing came for 2.4 heartbeat intervals, a TestRequest unanswered.
    HeartbeatTimeout,
    /// The first message of the connection was not a Logon.
    FirstMessageNotLogon,
    /// A Logon on a session logged on already, without ResetSeqNumFlag.
    SecondLogon,
    /// The Logon did not pass the dictionary before the session logged on.
    InvalidLogon,
    /// The Logon was refused (see [`Event::LogonRefused`]).
    LogonRefused,
    /// A message of another FIX version.
    WrongBeginString,
    /// A message without MsgSeqNum.
    NoMsgSeqNum,
    /// A message whose SendingTime is too far from ours (CheckLatency).
    SendingTime,
    /// A message from the wrong CompIDs (CheckCompID).
    WrongCompId,
    /// A MsgSeqNum lower than expected without PossDupFlag.
    SeqNumTooLow,
    /// DisconnectOnError, or ResetOnError on a store failure.
    OnError,
}

impl fmt::Display for DisconnectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::LogoutExchanged => "the Logout exchange is complete",
            Self::LogonTimeout => "timed out waiting for the Logon",
            Self::LogoutTimeout => "timed out waiting for the logout response",
            Self::HeartbeatTimeout => "timed out waiting for a heartbeat",
            Self::FirstMessageNotLogon => "the first message was not a Logon",
            Self::SecondLogon => "a second Logon without ResetSeqNumFlag",
            Self::InvalidLogon => "the Logon did not pass the dictionary",
            Self::LogonRefused => "the Logon was refused",
            Self::WrongBeginString => "a message of another BeginString",
            Self::NoMsgSeqNum => "a message without MsgSeqNum",
            Self::SendingTime => "SendingTime accuracy problem",
            Self::WrongCompId => "CompID problem",
            Self::SeqNumTooLow => "MsgSeqNum too low",
            Self::OnError => "an error in a received application message",
        })
    }
}

/// Something a session did or decided, in the order it happened.
///
/// ```
/// let e = fix_session::Event::QueueFull { seq: 9, queued_bytes: 1024 };
/// assert!(e.to_string().contains("MsgSeqNum 9"));
/// let e = fix_session::Event::ResendRequested { begin: 4, end: 0 };
/// assert_eq!(e.to_string(), "Sent ResendRequest FROM: 4 TO: 0");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
    /// A message was framed from the input and handed to the session's
    /// rules (only under [`SessionConfig::message_events`]).
    ///
    /// [`SessionConfig::message_events`]: crate::SessionConfig::message_events
    Received(MessageEvent),
    /// A message was stored and put in the output (a resent one, a gap fill,
    /// or one released after the resend it waited behind), in the order its
    /// bytes leave (only under [`SessionConfig::message_events`]).
    ///
    /// [`SessionConfig::message_events`]: crate::SessionConfig::message_events
    Sent(MessageEvent),
    /// The session's state changed (a connection, the Logon, our Logout, the
    /// end of the connection).
    State(State),
    /// Received bytes were dropped: they do not frame as a FIX message (a
    /// garbled BeginString or BodyLength, a CheckSum that does not match).
    /// No sequence number is used.
    Garbled {
        /// How many bytes were dropped.
        bytes: usize,
        /// Why they do not frame, as the parser found.
        error: fix_core::Error,
    },
    /// The session wants the connection closed, once its output is written.
    DisconnectWanted(DisconnectReason),
    /// A Logon was received and handled (`answer`: it answers ours).
    LogonReceived {
        /// It answers our Logon.
        answer: bool,
    },
    /// A Logon was sent (`answer`: answering the counterparty's).
    LogonSent {
        /// It answers the counterparty's Logon.
        answer: bool,
    },
    /// A Logout was received.
    LogoutReceived {
        /// It answers ours.
        answer: bool,
        /// Its Text (58).
        text: Option<String>,
    },
    /// A Logout was sent.
    LogoutSent {
        /// It answers the counterparty's.
        answer: bool,
        /// Its Text (58).
        text: Option<String>,
    },
    /// We asked for a resend: BeginSeqNo and EndSeqNo as sent.
    ResendRequested {
        /// BeginSeqNo (7).
        begin: u64,
        /// EndSeqNo (16) as sent (0: to the end).
        end: u64,
    },
    /// The counterparty asked for a resend, which is served: BeginSeqNo and
    /// EndSeqNo as received (unreadable numbers as the session read them).
    ResendServed {
        /// BeginSeqNo (7).
        begin: u64,
        /// EndSeqNo (16).
        end: u64,
    },
    /// A SequenceReset was received.
    SequenceResetReceived {
        /// GapFillFlag (123) Y.
        gap_fill: bool,
        /// NewSeqNo (36) as read (0 when unreadable).
        new_seq: u64,
    },
    /// A SequenceReset-GapFill was sent, numbered `from`, moving the
    /// counterparty to `to`.
    GapFillSent {
        /// Its MsgSeqNum.
        from: u64,
        /// NewSeqNo (36).
        to: u64,
    },
    /// A Reject was received.
    RejectReceived {
        /// RefSeqNum (45), as read.
        ref_seq: u64,
        /// Its Text (58).
        text: Option<String>,
    },
    /// We sent a Reject of the message numbered `ref_seq`.
    Rejected {
        /// RefSeqNum (45).
        ref_seq: u64,
        /// Its Text (58).
        text: Option<String>,
    },
    /// We sent a TestRequest: the counterparty was silent for 1.2 heartbeat
    /// intervals.
    TestRequestSent {
        /// TestReqID (112).
        id: String,
    },
    /// Received bytes were dropped unread: a message that did not complete
    /// within the parser's maximum message size (a wrong BodyLength with no
    /// CheckSum after it, say).
    InputDropped {
        /// How many bytes were dropped.
        bytes: usize,
        /// The bound that was hit (the parser's maximum message size).
        limit: usize,
    },
    /// A message numbered above a gap was not queued: the queue of such
    /// messages holds [`SessionConfig::max_queued_bytes`] already. It is asked
    /// for again by the resend that fills the gap.
    ///
    /// [`SessionConfig::max_queued_bytes`]: crate::SessionConfig::max_queued_bytes
    QueueFull {
        /// The MsgSeqNum of the message not queued.
        seq: u64,
        /// The bytes queued when it came.
        queued_bytes: usize,
    },
    /// A message numbered above a gap was not queued: the sessions sharing
    /// [`SessionConfig::shared_budget`] hold its limit already. It is asked
    /// for again by the resend that fills the gap.
    ///
    /// [`SessionConfig::shared_budget`]: crate::SessionConfig::shared_budget
    BudgetFull {
        /// The MsgSeqNum of the message not queued.
        seq: u64,
        /// The bytes the sharing sessions held when it came.
        held_bytes: usize,
    },
    /// A Logon was refused before anything changed (the reason is also the
    /// Logout's Text, when one was sent).
    LogonRefused {
        /// Why.
        reason: String,
    },
    /// A message field held a number out of its range: the message was
    /// refused (Reject or Logout) and nothing it asked for was done.
    ValueOutOfRange {
        /// The field.
        tag: u32,
        /// The MsgType of the message that held it.
        msg_type: String,
    },
    /// ResetOnError: an error in a received application message (see
    /// [`OnError`](crate::OnError)) starts a reset: a Logout, then both
    /// sequence numbers back to 1 when it is answered or the connection ends.
    ResetOnError {
        /// The error.
        reason: String,
    },
    /// DisconnectOnError: an error in a received application message ends
    /// the connection.
    DisconnectOnError {
        /// The error.
        reason: String,
    },
    /// A message the application put in its [`Outbox`](crate::Outbox) was
    /// not FIX fields ([`check_outgoing`](crate::check_outgoing)): dropped,
    /// never numbered; the rest of its answer went.
    AnswerDropped {
        /// Its MsgType, as given (lossy UTF-8).
        msg_type: String,
        /// What is wrong with it.
        error: fix_core::Error,
    },
}

impl Event {
    /// Whether the event tells of a bound a peer hit or an error it caused,
    /// which an operator should hear of (a warning), rather than the
    /// session's ordinary course.
    ///
    /// ```
    /// use fix_session::Event;
    /// let error = fix_core::Error::Garbage { skip: 3 };
    /// assert!(Event::Garbled { bytes: 3, error }.is_warning());
    /// assert!(!Event::LogonSent { answer: false }.is_warning());
    /// ```
    pub fn is_warning(&self) -> bool {
        matches!(
            self,
            Event::Garbled { .. }
                | Event::InputDropped { .. }
                | Event::QueueFull { .. }
                | Event::BudgetFull { .. }
                | Event::LogonRefused { .. }
                | Event::ValueOutOfRange { .. }
                | Event::ResetOnError { .. }
                | Event::DisconnectOnError { .. }
                | Event::AnswerDropped { .. }
        ) || matches!(self, Event::DisconnectWanted(why) if *why != DisconnectReason::LogoutExchanged)
    }
}

/// `what`, then `: text` when there is a text.
fn with_text(f: &mut fmt::Formatter<'_>, what: &str, text: &Option<String>) -> fmt::Result {
    match text {
        Some(t) => write!(f, "{what}: {t}"),
        None => f.write_str(what),
    }
}

impl fmt::Display for Event {
    /// QuickFIX's event texts where QuickFIX logs the same event ("Received
    /// logon request", "Sent ResendRequest FROM: 1 TO: 0"), ours otherwise.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Received(m) => write!(f, "received message {:?}", m.seq),
            Event::Sent(m) => write!(f, "sent message {:?}", m.seq),
            Event::State(state) => write!(f, "state: {state:?}"),
            Event::Garbled { bytes, error } => write!(
                f,
                "Received {bytes} bytes that do not frame as a FIX message ({error}): dropped"
            ),
            Event::DisconnectWanted(why) => write!(f, "Disconnecting: {why}"),
            Event::TestRequestSent { id } => write!(f, "Sent test request {id}"),
            Event::LogonReceived { .. }
            | Event::LogonSent { .. }
            | Event::LogoutReceived { .. }
            | Event::LogoutSent { .. }
            | Event::LogonRefused { .. } => self.fmt_logon_logout(f),
            Event::ResendRequested { .. }
            | Event::ResendServed { .. }
            | Event::SequenceResetReceived { .. }
            | Event::GapFillSent { .. }
            | Event::RejectReceived { .. }
            | Event::Rejected { .. } => self.fmt_recovery_and_rejects(f),
            Event::InputDropped { .. }
            | Event::QueueFull { .. }
            | Event::BudgetFull { .. }
            | Event::ValueOutOfRange { .. }
            | Event::ResetOnError { .. }
            | Event::DisconnectOnError { .. }
            | Event::AnswerDropped { .. } => self.fmt_drops_and_errors(f),
        }
    }
}

impl Event {
    /// The texts of the Logon and Logout events.
    fn fmt_logon_logout(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::LogonReceived { answer: false } => f.write_str("Received logon request"),
            Event::LogonReceived { answer: true } => f.write_str("Received logon response"),
            Event::LogonSent { answer: false } => f.write_str("Initiated logon request"),
            Event::LogonSent { answer: true } => f.write_str("Responding to logon request"),
            Event::LogoutReceived { answer, text } => {
                let what = if *answer {
                    "Received logout response"
                } else {
                    "Received logout request"
                };
                with_text(f, what, text)
            }
            Event::LogoutSent { answer, text } => {
                let what = if *answer {
                    "Sending logout response"
                } else {
                    "Initiated logout request"
                };
                with_text(f, what, text)
            }
            Event::LogonRefused { reason } => write!(f, "Logon refused: {reason}"),
            _ => unreachable!("not a Logon or Logout event: {self:?}"),
        }
    }

    /// The texts of the resend, SequenceReset and Reject events.
    fn fmt_recovery_and_rejects(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::ResendRequested { begin, end } => {
                write!(f, "Sent ResendRequest FROM: {begin} TO: {end}")
            }
            Event::ResendServed { begin, end } => {
                write!(f, "Received ResendRequest FROM: {begin} TO: {end}")
            }
            Event::SequenceResetReceived { gap_fill, new_seq } => {
                let kind = if *gap_fill { "GapFill" } else { "Reset" };
                write!(f, "Received SequenceReset-{kind} to {new_seq}")
            }
            Event::GapFillSent { from, to } => {
                write!(f, "Sent SequenceReset-GapFill from {from} to {to}")
            }
            Event::RejectReceived { ref_seq, text } => {
                with_text(f, &format!("Received Reject of message {ref_seq}"), text)
            }
            Event::Rejected { ref_seq, text } => {
                with_text(f, &format!("Message {ref_seq} Rejected"), text)
            }
            _ => unreachable!("not a resend, SequenceReset or Reject event: {self:?}"),
        }
    }

    /// The texts of what was dropped or refused, and of ResetOnError and DisconnectOnError.
    fn fmt_drops_and_errors(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::InputDropped { bytes, limit } => write!(
                f,
                "dropped {bytes} received bytes: no complete message within the maximum message size of {limit} bytes"
            ),
            Event::QueueFull { seq, queued_bytes } => write!(
                f,
                "MsgSeqNum {seq} not queued: the queue ahead of the gap holds {queued_bytes} bytes, its limit; the resend brings it again"
            ),
            Event::BudgetFull { seq, held_bytes } => write!(
                f,
                "MsgSeqNum {seq} not queued: the engine's sessions hold {held_bytes} bytes, their shared limit; the resend brings it again"
            ),
            Event::ValueOutOfRange { tag, msg_type } => write!(
                f,
                "tag {tag} of a message of type {msg_type} is out of range: refused"
            ),
            // QuickFIX/J's event texts: "Auto reset", "Auto disconnect".
            Event::ResetOnError { reason } => write!(
                f,
                "Auto reset (ResetOnError): {reason}; sequence numbers go back to 1 when the Logout is answered or the connection ends"
            ),
            Event::DisconnectOnError { reason } => {
                write!(f, "Auto disconnect (DisconnectOnError): {reason}")
            }
            Event::AnswerDropped { msg_type, error } => write!(
                f,
                "The application's answer of type {msg_type} dropped, never sent: not FIX fields: {error}"
            ),
            _ => unreachable!("not a drop or error event: {self:?}"),
        }
    }
}

/// The events not yet polled, bounded by [`MAX_PENDING_EVENTS`], and the
/// bytes of the message events among them (the transcript), bounded by
/// [`MAX_TRANSCRIPT_BYTES`].
#[derive(Debug, Default)]
pub(super) struct Events {
    pending: VecDeque<Event>,
    /// Message events among `pending`.
    messages: usize,
    dropped: u64,
    /// The bytes of the message events recorded since the transcript was
    /// last emptied (when every event had been polled).
    transcript: Vec<u8>,
    /// Counts the times the transcript was emptied: a message event of an
    /// earlier count has no bytes any more.
    call: u64,
}

impl Events {
    pub(super) fn push(&mut self, event: Event) {
        if self.pending.len() - self.messages >= MAX_PENDING_EVENTS {
            // The oldest that is not a message event: message events are
            // bounded by the transcript.
            if let Some(i) = self
                .pending
                .iter()
                .position(|e| !matches!(e, Event::Received(_) | Event::Sent(_)))
            {
                self.pending.remove(i);
                self.dropped += 1;
            }
        }
        self.pending.push_back(event);
    }

    /// Records a message received (`sent` false) or sent, `bytes` whole.
    pub(super) fn message(&mut self, sent: bool, seq: Option<u64>, kind: Kind, bytes: &[u8]) {
        if self.transcript.len() + bytes.len() > MAX_TRANSCRIPT_BYTES {
            self.dropped += 1;
            return;
        }
        let start = self.transcript.len();
        self.transcript.extend_from_slice(bytes);
        let m = MessageEvent {
            seq,
            admin: kind.admin,
            heartbeat: kind.heartbeat,
            call: self.call,
            bytes: start..self.transcript.len(),
        };
        self.messages += 1;
        self.pending.push_back(if sent {
            Event::Sent(m)
        } else {
            Event::Received(m)
        });
    }

    /// An input begins: the transcript is emptied if every event was polled
    /// (the bytes of events polled before are gone from here on).
    pub(super) fn next_input(&mut self) {
        if self.pending.is_empty() && !self.transcript.is_empty() {
            self.transcript.clear();
            self.call += 1;
        }
    }

    /// Where the events stand, for [`Events::truncate`].
    pub(super) fn mark(&self) -> (usize, usize) {
        (self.pending.len(), self.transcript.len())
    }

    /// Takes back the events pushed since `mark` (what an answer the store
    /// took back would have sent never leaves).
    pub(super) fn truncate(&mut self, (len, transcript): (usize, usize)) {
        while self.pending.len() > len {
            if let Some(Event::Received(_) | Event::Sent(_)) = self.pending.pop_back() {
                self.messages -= 1;
            }
        }
        self.transcript.truncate(transcript);
    }

    pub(super) fn pop(&mut self) -> Option<Event> {
        let event = self.pending.pop_front()?;
        if matches!(event, Event::Received(_) | Event::Sent(_)) {
            self.messages -= 1;
        }
        Some(event)
    }

    /// The bytes of `m`, while the transcript holds them.
    pub(super) fn bytes(&self, m: &MessageEvent) -> Option<&[u8]> {
        if m.call != self.call {
            return None;
        }
        self.transcript.get(m.bytes.clone())
    }

    pub(super) fn dropped(&self) -> u64 {
        self.dropped
    }
}
