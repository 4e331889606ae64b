//! The application's side of a session: [`Application`], called while the
//! session handles an input, and [`Outbox`], where it queues what it sends from
//! inside a call (sent when the call returns: no re-entrancy, nothing locked).

use fix_core::Message;

use crate::SessionId;

/// What the application does at each step of a session, as QuickFIX's
/// `Application` (every method has a default that accepts and does nothing).
///
/// ```
/// use fix_core::Message;
/// use fix_session::{Application, Outbox};
///
/// /// Sends every application message back where it came from.
/// struct Echo;
/// impl Application for Echo {
///     fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), fix_session::AppReject> {
///         let body: Vec<(u32, &[u8])> = msg.iter().filter(|(t, _)| !fix_session::is_header_or_trailer(*t)).collect();
///         out.send_fields(msg.msg_type(), body.iter().copied());
///         Ok(())
///     }
/// }
/// ```
// `from_admin`/`from_app` are QuickFIX's names, which its users look for; they
// are callbacks, not conversions.
#[allow(clippy::wrong_self_convention)]
pub trait Application {
    /// The session exists: called once, before any other method, by the first
    /// input that brings the application (QuickFIX's `onCreate`).
    fn on_create(&mut self, _id: &SessionId) {}
    /// The session logged on.
    fn on_logon(&mut self, _id: &SessionId) {}
    /// The session logged out or lost its connection while logged on.
    fn on_logout(&mut self, _id: &SessionId) {}
    /// An admin message is about to be sent: `extra` takes body fields to add
    /// (Username and Password on a Logon).
    fn to_admin(&mut self, _msg_type: &[u8], _extra: &mut Outbox) {}
    /// An admin message arrived and passed the session's checks: every Logon,
    /// Heartbeat, TestRequest, ResendRequest, Reject, SequenceReset and Logout,
    /// as QuickFIX's `fromAdmin` sees them. An `Err` refuses a Logon (bad
    /// credentials: the session answers with a Logout carrying the text and
    /// disconnects); refusing any other changes nothing, the session handles it.
    fn from_admin(&mut self, _msg: &Message<'_>) -> Result<(), Refusal> {
        Ok(())
    }
    /// A stored application message is about to be resent; `false` sends a gap
    /// fill in its place.
    fn to_app(&mut self, _msg: &Message<'_>, _resend: bool) -> bool {
        true
    }
    /// An application message arrived in sequence; `out` queues answers. An `Err`
    /// answers with a Reject or BusinessMessageReject instead.
    fn from_app(&mut self, _msg: &Message<'_>, _out: &mut Outbox) -> Result<(), AppReject> {
        Ok(())
    }
}

/// Why the application refused an admin message (the Logout's Text).
///
/// ```
/// let r = fix_session::Refusal { text: "bad password".into() };
/// assert_eq!(r.text, "bad password");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Text (58) of the Logout.
    pub text: String,
}

/// How the application rejects an application message.
///
/// ```
/// let r = fix_session::AppReject::Business { reason: 4, ref_tag: None, text: "Application not available".into() };
/// assert!(matches!(r, fix_session::AppReject::Business { reason: 4, .. }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AppReject {
    /// A session-level Reject (35=3) with this SessionRejectReason and RefTagID.
    Session {
        /// SessionRejectReason (373).
        reason: u32,
        /// RefTagID (371).
        ref_tag: Option<u32>,
        /// Text (58).
        text: String,
    },
    /// A BusinessMessageReject (35=j) with this BusinessRejectReason (380).
    Business {
        /// BusinessRejectReason (380).
        reason: u32,
        /// BusinessRejectRefID (379)'s source tag, when there is one.
        ref_tag: Option<u32>,
        /// Text (58).
        text: String,
    },
}

/// Messages the application queued during a call: MsgType and body fields,
/// kept in one reusable byte buffer (no allocation once it has grown).
///
/// ```
/// let mut out = fix_session::Outbox::default();
/// out.send_fields(b"D", [(11u32, &b"ORD1"[..]), (54, b"1")]);
/// assert_eq!(out.len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct Outbox {
    bytes: Vec<u8>,
    // (msg_type end, body end, PossResend) per message; offsets into `bytes`.
    ends: Vec<(usize, usize, bool)>,
}

impl Outbox {
    /// Queues a message of `msg_type` whose body is `body`: `tag=value<SOH>`
    /// fields already encoded (the session writes the header and trailer).
    ///
    /// ```
    /// let mut out = fix_session::Outbox::default();
    /// out.send_body(b"D", b"11=ORD1\x0154=1\x01");
    /// assert!(!out.is_empty());
    /// ```
    pub fn send_body(&mut self, msg_type: &[u8], body: &[u8]) {
        self.bytes.extend_from_slice(msg_type);
        let mt = self.bytes.len();
        self.bytes.extend_from_slice(body);
        self.ends.push((mt, self.bytes.len(), false));
    }

    /// Queues a message of `msg_type` with these body fields, in this order.
    ///
    /// ```
    /// let mut out = fix_session::Outbox::default();
    /// out.send_fields(b"0", [(112u32, &b"HELLO"[..])]);
    /// assert_eq!(out.len(), 1);
    /// ```
    pub fn send_fields<'v>(
        &mut self,
        msg_type: &[u8],
        fields: impl IntoIterator<Item = (u32, &'v [u8])>,
    ) {
        self.bytes.extend_from_slice(msg_type);
        let mt = self.bytes.len();
        for (tag, value) in fields {
            push_field(&mut self.bytes, tag, value);
        }
        self.ends.push((mt, self.bytes.len(), false));
    }

    /// Marks the message queued last PossResend (97=Y in its header), as for a
    /// message the application sends again without knowing whether it went.
    ///
    /// ```
    /// let mut out = fix_session::Outbox::default();
    /// out.send_fields(b"D", [(11u32, &b"ORD1"[..])]);
    /// out.set_poss_resend();
    /// assert_eq!(out.len(), 1);
    /// ```
    pub fn set_poss_resend(&mut self) {
        if let Some(last) = self.ends.last_mut() {
            last.2 = true;
        }
    }

    /// Adds a body field to the one message being prepared by `to_admin`.
    ///
    /// ```
    /// let mut extra = fix_session::Outbox::default();
    /// extra.field(553, b"user");
    /// assert_eq!(extra.extra_fields(), b"553=user\x01");
    /// ```
    pub fn field(&mut self, tag: u32, value: &[u8]) {
        push_field(&mut self.bytes, tag, value);
    }

    /// The fields [`Outbox::field`] added.
    ///
    /// ```
    /// assert!(fix_session::Outbox::default().extra_fields().is_empty());
    /// ```
    pub fn extra_fields(&self) -> &[u8] {
        &self.bytes
    }

    /// How many messages are queued.
    ///
    /// ```
    /// assert_eq!(fix_session::Outbox::default().len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether nothing is queued.
    ///
    /// ```
    /// assert!(fix_session::Outbox::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty() && self.bytes.is_empty()
    }

    /// The queued messages as (MsgType, body, PossResend), in order.
    pub(crate) fn messages(&self) -> impl Iterator<Item = (&[u8], &[u8], bool)> {
        let mut start = 0;
        self.ends.iter().map(move |&(mt, end, poss_resend)| {
            let m = (&self.bytes[start..mt], &self.bytes[mt..end], poss_resend);
            start = end;
            m
        })
    }

    pub(crate) fn clear(&mut self) {
        self.bytes.clear();
        self.ends.clear();
    }
}

/// Appends `tag=value<SOH>`.
pub(crate) fn push_field(out: &mut Vec<u8>, tag: u32, value: &[u8]) {
    push_uint(out, u64::from(tag));
    out.push(b'=');
    out.extend_from_slice(value);
    out.push(fix_core::SOH);
}

/// Appends `n` in decimal.
pub(crate) fn push_uint(out: &mut Vec<u8>, n: u64) {
    let mut digits = [0u8; 20];
    // u64::MAX has 20 digits: the buffer always has room.
    if let Ok(len) = fix_core::value::write_uint(n, &mut digits) {
        out.extend_from_slice(&digits[..len]);
    }
}
