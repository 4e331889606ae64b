//! Who a session is and how it behaves: [`SessionId`] and [`SessionConfig`], named
//! after QuickFIX's settings where they mean the same.

use std::num::NonZeroU32;
use std::time::Duration;

use fix_core::Parser;
use fix_core::validate::Validator;
use fix_core::value::Precision;

/// A session's identity: BeginString, SenderCompID, TargetCompID and an optional
/// qualifier (two sessions between the same firms).
///
/// ```
/// let id = fix_session::SessionId::new("FIX.4.4", "ISLD", "TW");
/// assert_eq!(id.to_string(), "FIX.4.4:ISLD->TW");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SessionId {
    /// BeginString (8).
    pub begin_string: String,
    /// Our SenderCompID (49).
    pub sender_comp_id: String,
    /// Our TargetCompID (56): the counterparty's SenderCompID.
    pub target_comp_id: String,
    /// QuickFIX's SessionQualifier: tells apart sessions with the same CompIDs.
    pub qualifier: Option<String>,
}

impl SessionId {
    /// A session ID without a qualifier.
    ///
    /// ```
    /// let id = fix_session::SessionId::new("FIX.4.2", "A", "B");
    /// assert_eq!((id.sender_comp_id.as_str(), id.qualifier), ("A", None));
    /// ```
    pub fn new(begin_string: &str, sender: &str, target: &str) -> Self {
        SessionId {
            begin_string: begin_string.into(),
            sender_comp_id: sender.into(),
            target_comp_id: target.into(),
            qualifier: None,
        }
    }

    /// The name a store keeps this session under: `BEGIN-SENDER-TARGET[-QUALIFIER]`.
    ///
    /// ```
    /// let id = fix_session::SessionId::new("FIX.4.4", "ISLD", "TW");
    /// assert_eq!(id.store_name(), "FIX.4.4-ISLD-TW");
    /// ```
    pub fn store_name(&self) -> String {
        let mut name = format!(
            "{}-{}-{}",
            self.begin_string, self.sender_comp_id, self.target_comp_id
        );
        if let Some(q) = &self.qualifier {
            name.push('-');
            name.push_str(q);
        }
        name
    }
}

impl std::fmt::Display for SessionId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}->{}",
            self.begin_string, self.sender_comp_id, self.target_comp_id
        )?;
        if let Some(q) = &self.qualifier {
            write!(f, ":{q}")?;
        }
        Ok(())
    }
}

/// Which side opens the session: the initiator sends the first Logon.
///
/// ```
/// assert_ne!(fix_session::Role::Acceptor, fix_session::Role::Initiator);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Waits for the counterparty's Logon and answers it.
    Acceptor,
    /// Sends the Logon when connected.
    Initiator,
}

/// How a session behaves; [`SessionConfig::new`] gives QuickFIX's defaults.
///
/// ```
/// use fix_session::{Role, SessionConfig, SessionId};
/// let config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
/// assert_eq!(config.max_latency.as_secs(), 120);
/// assert!(config.check_latency && config.check_comp_id);
/// ```
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// The session's identity.
    pub id: SessionId,
    /// Acceptor or initiator.
    pub role: Role,
    /// HeartBtInt (108) an initiator asks for, in seconds; an acceptor takes the
    /// counterparty's.
    pub heart_bt_int: u32,
    /// ResetOnLogon: sequence numbers back to 1 at every Logon.
    pub reset_on_logon: bool,
    /// ResetOnLogout: back to 1 after a Logout.
    pub reset_on_logout: bool,
    /// ResetOnDisconnect: back to 1 whenever the connection drops.
    pub reset_on_disconnect: bool,
    /// SendResetSeqNumFlag: an initiator's Logon carries ResetSeqNumFlag=Y.
    pub send_reset_seq_num_flag: bool,
    /// LogonTimeout: how long to wait for the Logon (or its answer).
    pub logon_timeout: Duration,
    /// LogoutTimeout: how long to wait for the answer to our Logout.
    pub logout_timeout: Duration,
    /// CheckLatency: SendingTime must be within `max_latency` of our clock.
    pub check_latency: bool,
    /// MaxLatency.
    pub max_latency: Duration,
    /// CheckCompID: the CompIDs of every message must be the session's.
    pub check_comp_id: bool,
    /// ResendRequestChunkSize: the most messages one ResendRequest asks for (0: all).
    pub resend_request_chunk_size: u64,
    /// The checks a received message goes through (QuickFIX's Validate* settings);
    /// `None` is UseDataDictionary=N.
    pub validator: Option<Validator>,
    /// How received bytes are framed (largest message, data fields, empty values).
    pub parser: Parser<'static>,
    /// DefaultApplVerID (1137), sent in the Logon of a FIXT.1.1 session, and the
    /// ApplVerID of a received application message without 1128 (it picks the
    /// application dictionary, see [`crate::Dictionaries`]). Its code (`"9"`) or
    /// its name (`"FIX.5.0SP2"`, sent as its code). The DefaultApplVerID of the
    /// counterparty's Logon takes its place for received messages while that
    /// connection lasts.
    pub default_appl_ver_id: Option<String>,
    /// PersistMessages: off, nothing is stored and every resend is a gap fill.
    pub persist_messages: bool,
    /// The most messages one received ResendRequest gets resent; `None` (the
    /// default) is no limit. A request for more (EndSeqNo 0, or 999999 before
    /// FIX.4.2, counts up to the last number sent) is answered with one
    /// SequenceReset-GapFill (PossDupFlag=Y) numbered at the range's start and
    /// moving the counterparty to the first of the newest `n`, which are then
    /// resent as usual: the counterparty is back in sequence without a flood of
    /// old messages (it may still ask for the skipped ones in smaller requests).
    ///
    /// ```
    /// use fix_session::{Role, SessionConfig, SessionId};
    /// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
    /// assert_eq!(config.max_resend_range, None);
    /// // Asked for 1..=100: a gap fill 1 -> 91, then 91..=100 resent.
    /// config.max_resend_range = Some(10);
    /// ```
    pub max_resend_range: Option<u64>,
    /// The most bytes of messages numbered above a gap that the session keeps
    /// until the gap is filled (16 MiB by default). A message that would pass
    /// it is not queued (an [`Event::QueueFull`](crate::Event::QueueFull)):
    /// the resend that fills the gap brings it again, so nothing is lost, and
    /// a peer cannot grow the session's memory by skipping a number.
    ///
    /// ```
    /// use fix_session::{Role, SessionConfig, SessionId};
    /// let config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
    /// assert_eq!(config.max_queued_bytes, 16 << 20);
    /// ```
    pub max_queued_bytes: usize,
    /// A budget this session shares with others (an engine's sessions) for
    /// the messages they queue above gaps, together; `None` (the default):
    /// the session's own bound only. A message that would pass it is not
    /// queued ([`Event::BudgetFull`](crate::Event::BudgetFull)), and the
    /// resend brings it again.
    ///
    /// ```
    /// use fix_session::{MemoryBudget, Role, SessionConfig, SessionId};
    /// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
    /// config.shared_budget = Some(MemoryBudget::new(256 << 20));
    /// ```
    pub shared_budget: Option<crate::MemoryBudget>,
    /// SenderSubID (50), SenderLocationID (142), TargetSubID (57) and
    /// TargetLocationID (143), written in the header of every message the
    /// session sends (resends and gap fills too); see [`SubIds`].
    pub sub_ids: SubIds,
    /// TimeStampPrecision (QuickFIX's MillisecondsInTimeStamp=N is
    /// [`Precision::Seconds`]): how many digits of a second SendingTime (52)
    /// and a gap fill's OrigSendingTime (122) carry. Before FIX.4.2 the
    /// UTCTimestamp type has no fraction: a FIX.4.0 or FIX.4.1 session writes
    /// whole seconds whatever this says, as QuickFIX C++ does.
    ///
    /// ```
    /// use fix_core::value::Precision;
    /// use fix_session::{Role, SessionConfig, SessionId};
    /// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
    /// assert_eq!(config.timestamp_precision, Precision::Millis);
    /// config.timestamp_precision = Precision::Nanos; // 20231114-22:13:20.123456789
    /// ```
    pub timestamp_precision: Precision,
    /// SendRedundantResendRequests: on, every message numbered above a gap
    /// sends a ResendRequest, even while one covering the gap is pending; off
    /// (the default), a second ResendRequest for a gap already asked for is
    /// not sent.
    pub send_redundant_resend_requests: bool,
    /// What an error in a received application message does; see
    /// [`OnError`].
    pub on_error: OnError,
    /// SendLogoutBeforeDisconnectFromTimeout (QuickFIX/n): on, a session
    /// whose counterparty stayed silent past its TestRequest sends a Logout
    /// (Text: timed out waiting for a heartbeat) before its connection
    /// ends; off (the default), the connection is closed.
    pub send_logout_before_timeout_disconnect: bool,
    /// RefreshOnLogon: the store's state is read again from where it keeps
    /// it ([`MessageStore::refresh`](crate::MessageStore::refresh)) before a
    /// Logon is handled (an acceptor) or sent (an initiator): another process
    /// may have used the session since (a hot standby taking over).
    pub refresh_on_logon: bool,
    /// Every message the session frames from its input and every message it
    /// sends is an [`Event::Received`](crate::Event::Received) or
    /// [`Event::Sent`](crate::Event::Sent) with its bytes (a message log
    /// formats them). Off (the default), the session keeps no copy of its
    /// messages and raises these two events not at all.
    ///
    /// ```
    /// use fix_session::{Role, SessionConfig, SessionId};
    /// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "A", "B"), Role::Acceptor);
    /// assert!(!config.message_events);
    /// config.message_events = true; // a message log is kept
    /// ```
    pub message_events: bool,
    /// The most application messages the session sends in any second (on
    /// the monotonic clock, a sliding window: `N` may go at once, then the
    /// next once the oldest of those is a second old); `None` (the default)
    /// is no limit. [`Session::send`](crate::Session::send) refuses an
    /// application message over it with
    /// [`SessionError::Throttled`](crate::SessionError::Throttled): the
    /// session queues nothing; the transport keeps what waits, asking
    /// [`Session::send_allowance`](crate::Session::send_allowance) how many
    /// may go and [`Session::next_send_at`](crate::Session::next_send_at)
    /// when the next may.
    ///
    /// Admin messages (Logon, Heartbeat, TestRequest, ResendRequest, Reject,
    /// SequenceReset, Logout), resends and gap fills are never held back and
    /// never counted. Application messages the [`Application`](crate::Application)
    /// sends from a callback through its [`Outbox`](crate::Outbox) are never
    /// held back either (they answer a message, and are stored with it) but
    /// count: the transport's next sends wait for them.
    ///
    /// ```
    /// use std::num::NonZeroU32;
    /// use fix_session::{Role, SessionConfig, SessionId};
    /// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "CLIENT", "VENUE"), Role::Initiator);
    /// assert_eq!(config.max_app_messages_per_sec, None);
    /// config.max_app_messages_per_sec = NonZeroU32::new(10); // the venue's limit
    /// ```
    pub max_app_messages_per_sec: Option<NonZeroU32>,
}

/// The header fields that name who within the firms sends and receives:
/// SenderSubID (50), SenderLocationID (142), TargetSubID (57) and
/// TargetLocationID (143), QuickFIX/J's session settings of the same names.
/// Each one given is written on every message the session sends, in the
/// header's ascending tag order (50 after SenderCompID, 57 after
/// TargetCompID, 142 and 143 last); a stored message resent gets the
/// session's values again in place of those it was stored with.
///
/// An application that writes one of these itself, in a message's body,
/// leaves it unset here: both would be sent.
///
/// Received messages' 50, 142, 57 and 143 are not checked: like QuickFIX C++'s
/// and QuickFIX/J's `isCorrectCompID`, CheckCompID compares the CompIDs only
/// (a counterparty may route to several desks under one CompID).
///
/// ```
/// use fix_session::{Role, SessionConfig, SessionId, SubIds};
/// let mut config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
/// config.sub_ids = SubIds { sender_sub_id: Some("DESK1".into()), ..SubIds::default() };
/// assert!(config.sub_ids.target_sub_id.is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SubIds {
    /// SenderSubID (50).
    pub sender_sub_id: Option<String>,
    /// SenderLocationID (142); FIX.4.1 and later.
    pub sender_location_id: Option<String>,
    /// TargetSubID (57).
    pub target_sub_id: Option<String>,
    /// TargetLocationID (143); FIX.4.1 and later.
    pub target_location_id: Option<String>,
}

impl SubIds {
    /// The fields given, as (tag, value) in the order they are written.
    ///
    /// ```
    /// let ids = fix_session::SubIds { target_sub_id: Some("ADMIN".into()), ..Default::default() };
    /// assert_eq!(ids.fields().collect::<Vec<_>>(), [(57, "ADMIN")]);
    /// ```
    pub fn fields(&self) -> impl Iterator<Item = (u32, &str)> {
        [
            (50, &self.sender_sub_id),
            (57, &self.target_sub_id),
            (142, &self.sender_location_id),
            (143, &self.target_location_id),
        ]
        .into_iter()
        .filter_map(|(tag, v)| v.as_deref().map(|v| (tag, v)))
    }

    /// Whether the session writes `tag` itself (one of the four, given).
    ///
    /// ```
    /// let ids = fix_session::SubIds { sender_sub_id: Some("D".into()), ..Default::default() };
    /// assert!(ids.writes(50) && !ids.writes(57));
    /// ```
    pub fn writes(&self, tag: u32) -> bool {
        self.fields().any(|(t, _)| t == tag)
    }
}

/// What an error in a received application message does (QuickFIX/J's
/// ResetOnError and DisconnectOnError). The errors are those QuickFIX/J's
/// `resetOrDisconnectIfRequired` is called for, as this session has them:
/// while logged on, an application message (never an admin one) that
///
/// - fails the dictionary's checks (otherwise a Reject),
/// - does not parse into fields (a bad tag, a value holding SOH: otherwise a
///   Reject),
/// - the application refuses ([`AppReject`](crate::AppReject): otherwise a
///   Reject or BusinessMessageReject),
/// - carries another BeginString (otherwise a Logout), or
/// - fails to be recorded by the store (a [`SessionError::Store`](crate::SessionError::Store)
///   from the call that brought it, which ends the connection in any case).
///
/// Garbled bytes (a wrong CheckSum or BodyLength) are dropped, as always: they
/// cannot be told to be an application message.
///
/// ```
/// use fix_session::{OnError, Role, SessionConfig, SessionId};
/// let config = SessionConfig::new(SessionId::new("FIX.4.4", "ISLD", "TW"), Role::Acceptor);
/// assert_eq!(config.on_error, OnError::Reject);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnError {
    /// The usual answer: a Reject (or what the list above says).
    #[default]
    Reject,
    /// ResetOnError=Y: a Logout with Text "Session reset" is sent instead, and
    /// when that Logout is answered or the connection ends, the store is reset
    /// (both numbers back to 1, the stored messages dropped), as a daily reset
    /// does; the message in error is not marked received.
    Reset,
    /// DisconnectOnError=Y: the connection ends at once, with no answer and
    /// no Logout; the message in error is not marked received (the
    /// counterparty resends it after its next Logon).
    Disconnect,
}

impl SessionConfig {
    /// QuickFIX's defaults for `id` in `role`: HeartBtInt 30, LogonTimeout 10 s,
    /// LogoutTimeout 2 s, CheckLatency on with MaxLatency 120 s, CheckCompID on,
    /// no resets, full validation, messages persisted, no limit on a resend,
    /// SendingTime in milliseconds, no SubIDs, a Reject for an error, no
    /// limit on the rate of application messages.
    ///
    /// ```
    /// use fix_session::{Role, SessionConfig, SessionId};
    /// let c = SessionConfig::new(SessionId::new("FIX.4.2", "A", "B"), Role::Initiator);
    /// assert_eq!((c.heart_bt_int, c.logon_timeout.as_secs()), (30, 10));
    /// ```
    pub fn new(id: SessionId, role: Role) -> Self {
        SessionConfig {
            id,
            role,
            heart_bt_int: 30,
            reset_on_logon: false,
            reset_on_logout: false,
            reset_on_disconnect: false,
            send_reset_seq_num_flag: false,
            logon_timeout: Duration::from_secs(10),
            logout_timeout: Duration::from_secs(2),
            check_latency: true,
            max_latency: Duration::from_secs(120),
            check_comp_id: true,
            resend_request_chunk_size: 0,
            validator: Some(Validator::new()),
            parser: Parser::new(),
            default_appl_ver_id: None,
            persist_messages: true,
            max_resend_range: None,
            max_queued_bytes: 16 << 20,
            shared_budget: None,
            sub_ids: SubIds::default(),
            timestamp_precision: Precision::Millis,
            send_redundant_resend_requests: false,
            on_error: OnError::Reject,
            send_logout_before_timeout_disconnect: false,
            refresh_on_logon: false,
            message_events: false,
            max_app_messages_per_sec: None,
        }
    }
}
