//! Who a session is and how it behaves: [`SessionId`] and [`SessionConfig`], named
//! after QuickFIX's settings where they mean the same.

use std::time::Duration;

use fix_core::Parser;
use fix_core::validate::Validator;

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
}

impl SessionConfig {
    /// QuickFIX's defaults for `id` in `role`: HeartBtInt 30, LogonTimeout 10 s,
    /// LogoutTimeout 2 s, CheckLatency on with MaxLatency 120 s, CheckCompID on,
    /// no resets, full validation, messages persisted, no limit on a resend.
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
        }
    }
}
