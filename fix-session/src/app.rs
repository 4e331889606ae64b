//! The application's side of a session: [`Application`], called while the
//! session handles an input, and [`Outbox`], where it queues what it sends from
//! inside a call (sent when the call returns: no re-entrancy, nothing locked).

use fix_core::typed::{Crack, MessageBody, Unsupported};
use fix_core::{EncodeError, Encoder, Message};

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
/// kept in one reusable byte buffer (no allocation once it has grown). A typed
/// message goes in with [`Outbox::send`], its fields encoded straight into
/// that buffer.
///
/// ```
/// let mut out = fix_session::Outbox::default();
/// out.send_fields(b"D", [(11u32, &b"ORD1"[..]), (54, b"1")]);
/// assert_eq!(out.len(), 1);
/// ```
#[derive(Debug, Default)]
pub struct Outbox {
    // Zeroed once as it grows and written over since, so that an encoder can
    // be handed the room after `used` without clearing it for every message.
    bytes: Vec<u8>,
    // The end of what is queued in `bytes`.
    used: usize,
    // (msg_type end, body end, PossResend) per message; offsets into `bytes`.
    ends: Vec<(usize, usize, bool)>,
    // The session's DefaultApplVerID while it hands over a message, for a
    // FIXT.1.1 dispatch by version (`ByApplVerId`).
    pub(crate) default_appl_ver_id: ApplVerId,
}

/// An ApplVerID code as an outbox carries it, without allocating: up to
/// [`ApplVerId::CAPACITY`] bytes (the standard codes are one or two digits).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ApplVerId {
    len: u8,
    bytes: [u8; ApplVerId::CAPACITY],
}

impl ApplVerId {
    /// The longest code kept; a longer one is kept as none.
    pub(crate) const CAPACITY: usize = 15;

    /// `code`, or none (`None`, or longer than [`Self::CAPACITY`]).
    pub(crate) fn new(code: Option<&[u8]>) -> Self {
        let mut id = ApplVerId::default();
        if let Some(code) = code
            && code.len() <= Self::CAPACITY
        {
            id.bytes[..code.len()].copy_from_slice(code);
            id.len = code.len() as u8;
        }
        id
    }

    /// The code, if there is one.
    pub(crate) fn get(&self) -> Option<&[u8]> {
        (self.len > 0).then(|| &self.bytes[..usize::from(self.len)])
    }
}

/// What [`Outbox::send`] leaves room for before it knows a message's size: most
/// messages fit, a larger one is encoded again into the room it asked for.
const SEND_ROOM: usize = 512;

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
        self.push(msg_type);
        let mt = self.used;
        self.push(body);
        self.ends.push((mt, self.used, false));
    }

    /// Queues a typed message (a generated builder, or one behind the header
    /// fields the application sets: `header.with_body(&report)`), its fields
    /// encoded straight into the outbox: no allocation once the outbox has
    /// grown, no message built and parsed again. The session writes the header
    /// it stamps (CompIDs, MsgSeqNum, SendingTime) and the trailer. A required
    /// field left unset is [`EncodeError::MissingRequired`](fix_core::EncodeError::MissingRequired),
    /// and nothing is queued.
    ///
    /// ```
    /// use fix44::enums::{ExecType, OrdStatus, Side};
    /// use fix44::messages::{ExecutionReport, ExecutionReportRequired};
    /// use fix_core::value::{Decimal, FixStr};
    ///
    /// let report = ExecutionReport::builder(ExecutionReportRequired {
    ///     order_id: FixStr::parse(b"O-1")?,
    ///     exec_id: FixStr::parse(b"E-1")?,
    ///     exec_type: ExecType::New,
    ///     ord_status: OrdStatus::New,
    ///     side: Side::Buy,
    ///     leaves_qty: Decimal::ZERO,
    ///     cum_qty: Decimal::ZERO,
    ///     avg_px: Decimal::ZERO,
    /// });
    /// let mut out = fix_session::Outbox::default();
    /// out.send(&report)?;
    /// assert_eq!(out.len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn send<M: MessageBody + ?Sized>(&mut self, msg: &M) -> Result<(), EncodeError> {
        let start = self.used;
        self.push(M::MSG_TYPE);
        let mt = self.used;
        match encode_fields(&mut self.bytes, mt, |enc| msg.write_body(enc)) {
            Ok(n) => {
                self.used = mt + n;
                self.ends.push((mt, self.used, false));
                Ok(())
            }
            Err(e) => {
                self.used = start;
                Err(e)
            }
        }
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
        self.push(msg_type);
        let mt = self.used;
        for (tag, value) in fields {
            self.field(tag, value);
        }
        self.ends.push((mt, self.used, false));
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
        let mut digits = [0u8; 20];
        // u32::MAX has 10 digits: the buffer always has room.
        let n = fix_core::value::write_uint(u64::from(tag), &mut digits).unwrap_or(0);
        self.push(&digits[..n]);
        self.push(b"=");
        self.push(value);
        self.push(&[fix_core::SOH]);
    }

    /// The fields [`Outbox::field`] added.
    ///
    /// ```
    /// assert!(fix_session::Outbox::default().extra_fields().is_empty());
    /// ```
    pub fn extra_fields(&self) -> &[u8] {
        &self.bytes[..self.used]
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
        self.ends.is_empty() && self.used == 0
    }

    /// The ApplVerID (1128) code of an application message received without
    /// one, while the session hands it to the application (`from_app`): on a
    /// FIXT.1.1 session, the DefaultApplVerID (1137) of the counterparty's
    /// Logon, else the session's own ([`SessionConfig::default_appl_ver_id`](crate::SessionConfig::default_appl_ver_id));
    /// `None` on FIX.4.x. [`ByApplVerId`](crate::ByApplVerId) dispatches on it.
    ///
    /// ```
    /// assert_eq!(fix_session::Outbox::default().default_appl_ver_id(), None);
    /// ```
    pub fn default_appl_ver_id(&self) -> Option<&[u8]> {
        self.default_appl_ver_id.get()
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

    /// Forgets what is queued, keeping the buffer (the session does so after
    /// sending what a call queued): for an outbox reused outside a session, a
    /// benchmark's or a test's.
    ///
    /// ```
    /// let mut out = fix_session::Outbox::default();
    /// out.send_body(b"0", b"112=T\x01");
    /// out.clear();
    /// assert!(out.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.used = 0;
        self.ends.clear();
    }

    /// The queued messages as (MsgType, body), in order: what the session will
    /// send (the header and trailer its own).
    ///
    /// ```
    /// let mut out = fix_session::Outbox::default();
    /// out.send_body(b"0", b"112=T\x01");
    /// assert_eq!(out.queued().collect::<Vec<_>>(), [(&b"0"[..], &b"112=T\x01"[..])]);
    /// ```
    pub fn queued(&self) -> impl Iterator<Item = (&[u8], &[u8])> {
        self.messages().map(|(msg_type, body, _)| (msg_type, body))
    }

    /// Appends `bytes` after what is queued.
    fn push(&mut self, bytes: &[u8]) {
        let end = self.used + bytes.len();
        grow(&mut self.bytes, end);
        self.bytes[self.used..end].copy_from_slice(bytes);
        self.used = end;
    }
}

/// Makes `bytes` at least `len` long, zeroing what it adds (at least doubling,
/// so that a growing outbox is zeroed a bounded number of times).
fn grow(bytes: &mut Vec<u8>, len: usize) {
    if bytes.len() < len {
        bytes.resize(len.max(2 * bytes.len()), 0);
    }
}

/// Encodes fields with `fill` into `bytes` from `at` on, growing it when the
/// room there is too small (then `fill` runs again, into the room the first run
/// asked for); returns how many bytes the fields take.
fn encode_fields(
    bytes: &mut Vec<u8>,
    at: usize,
    fill: impl Fn(&mut Encoder<'_>) -> Result<(), EncodeError>,
) -> Result<usize, EncodeError> {
    grow(bytes, at + SEND_ROOM);
    let mut enc = Encoder::fields(&mut bytes[at..]);
    fill(&mut enc)?;
    match enc.finish() {
        Ok(fields) => Ok(fields.len()),
        Err(EncodeError::BufferTooSmall { needed }) => {
            grow(bytes, at + needed);
            let mut enc = Encoder::fields(&mut bytes[at..]);
            fill(&mut enc)?;
            enc.finish().map(<[u8]>::len)
        }
        Err(e) => Err(e),
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

/// QuickFIX's answer to a message type the application does not handle: a
/// BusinessMessageReject with BusinessRejectReason 3 (UnsupportedMessageType);
/// before FIX 4.2 the session sends a Reject instead. What a generated
/// `Handler`'s methods answer unless implemented.
///
/// ```
/// use fix_core::typed::Unsupported;
/// let mut fields = fix_core::Fields::<8>::new();
/// let bytes = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01";
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let reject = fix_session::AppReject::unsupported(&msg);
/// assert!(matches!(reject, fix_session::AppReject::Business { reason: 3, ref_tag: None, .. }));
/// # Ok::<(), fix_core::Error>(())
/// ```
impl Unsupported for AppReject {
    fn unsupported(_msg: &Message<'_>) -> Self {
        AppReject::Business {
            reason: 3,
            ref_tag: None,
            text: "Unsupported Message Type".into(),
        }
    }
}

/// A typed application: a generated crate's `Cracker` around its `Handler`
/// (`fix44::Cracker(executor)`) is an [`Application`] whose `from_app` reads
/// each message as its typed view and calls the handler's method for it. The
/// other callbacks keep their defaults; an application that needs them
/// implements `Application` itself and calls the crate's `crack` from
/// `from_app`.
///
/// ```
/// use fix_session::{AppReject, Application, Outbox};
/// use fix44::messages::NewOrderSingle;
///
/// struct Orders(u32);
/// impl fix44::Handler<Outbox, AppReject> for Orders {
///     fn on_new_order_single(&mut self, _: &NewOrderSingle<'_>, _: &mut Outbox) -> Result<(), AppReject> {
///         self.0 += 1;
///         Ok(())
///     }
/// }
/// let mut app = fix44::Cracker(Orders(0));
/// let mut fields = fix_core::Fields::<16>::new();
/// let bytes = b"8=FIX.4.4\x019=13\x0135=D\x0111=ORD1\x0110=156\x01";
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// app.from_app(&msg, &mut Outbox::default()).unwrap();
/// assert_eq!(app.0.0, 1);
/// # Ok::<(), fix_core::Error>(())
/// ```
impl<C: Crack<Outbox, AppReject>> Application for C {
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        self.crack(msg, out)
    }
}
