//! What a session tells its transport beside bytes: the bounds it enforced on
//! what a peer sent, so that an operator sees why input was dropped or a
//! Logon refused. The transport drains them with [`Session::poll_event`]
//! and writes them to the session's event log.
//!
//! [`Session::poll_event`]: super::Session::poll_event

use std::collections::VecDeque;
use std::fmt;

/// The most events a session keeps until they are polled: past it the oldest
/// are dropped (and counted), so a transport that never polls cannot make a
/// session grow.
pub const MAX_PENDING_EVENTS: usize = 256;

/// Something a session decided that the operator should hear of.
///
/// ```
/// let e = fix_session::Event::QueueFull { seq: 9, queued_bytes: 1024 };
/// assert!(e.to_string().contains("MsgSeqNum 9"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Event {
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
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::InputDropped { bytes, limit } => write!(
                f,
                "dropped {bytes} received bytes: no complete message within the maximum message size of {limit} bytes"
            ),
            Event::QueueFull { seq, queued_bytes } => write!(
                f,
                "MsgSeqNum {seq} not queued: the queue ahead of the gap holds {queued_bytes} bytes, its limit; the resend brings it again"
            ),
            Event::LogonRefused { reason } => write!(f, "Logon refused: {reason}"),
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
        }
    }
}

/// The events not yet polled, bounded by [`MAX_PENDING_EVENTS`].
#[derive(Debug, Default)]
pub(super) struct Events {
    pending: VecDeque<Event>,
    dropped: u64,
}

impl Events {
    pub(super) fn push(&mut self, event: Event) {
        if self.pending.len() == MAX_PENDING_EVENTS {
            self.pending.pop_front();
            self.dropped += 1;
        }
        self.pending.push_back(event);
    }

    pub(super) fn pop(&mut self) -> Option<Event> {
        self.pending.pop_front()
    }

    pub(super) fn dropped(&self) -> u64 {
        self.dropped
    }
}
