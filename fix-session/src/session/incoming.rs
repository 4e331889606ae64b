//! What a received message does: the checks every message goes through (BeginString,
//! CompIDs, SendingTime, MsgSeqNum, the dictionary) and the session-level
//! messages' rules, as QuickFIX applies them.

use std::fmt::Write as _;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use fix_core::validate::{Invalid, Reject, Schema, SessionRejectReason, Validator};
use fix_core::value::parse_digits;
use fix_core::{Error, Frame, Message};

use super::outgoing::RejectOf;
use super::{
    DisconnectReason as Why, Event, MAX_HEART_BT_INT, MAX_SEQ_NUM, Session, SessionError, State,
    is_admin, seq_num,
};
use crate::OnError;
use crate::app::Application;
use crate::dictionaries::AppSchema;
use crate::store::MessageStore;
use crate::time::parse_timestamp;

/// What the MsgSeqNum check said.
enum Sequence {
    /// The expected number: handle the message.
    InOrder,
    /// Handled already (queued, or a duplicate, or the session is ending).
    Done,
}

impl<S: MessageStore, D: Schema> Session<S, D> {
    /// A framed message whose fields did not index: a Reject (35=3) when logged on,
    /// as QuickFIX sends for a bad tag or a value holding SOH; the number is used.
    pub(super) fn handle_unparsed(
        &mut self,
        now: SystemTime,
        frame: &Frame<'_>,
        error: &Error,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if self.conn.state != State::LoggedOn {
            return Ok(());
        }
        let bytes = frame.bytes();
        let Some(reject) = Reject::from_parse_error(error, bytes) else {
            return Ok(());
        };
        let seq = seq_text(bytes).unwrap_or(0);
        self.conn.clock.last_received = self.now.mono;
        if self.takes_error(frame.msg_type()) {
            return self.on_error(now, reject.text(), app);
        }
        let (reason, ref_tag) = (reject.reason, reject.ref_tag);
        let of = RejectOf::frame(frame.msg_type(), seq, reason).tag(ref_tag);
        self.send_reject(now, of, app)?;
        if seq == self.store.next_target_seq() {
            self.store.advance_target_seq(seq)?;
        }
        Ok(())
    }

    /// A parsed message.
    pub(super) fn handle_parsed(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let msg_type = msg.msg_type();
        if self.conn.state == State::AwaitingLogon && msg_type != b"A" {
            // The first message of a connection must be a Logon.
            self.want_disconnect(Why::FirstMessageNotLogon);
            return Ok(());
        }
        if msg.frame().begin_string() != self.config.id.begin_string.as_bytes() {
            if self.takes_error(msg_type) {
                return self.on_error(now, "Incorrect BeginString", app);
            }
            if self.conn.state == State::LoggedOn {
                self.send_logout(now, Some(b"Incorrect BeginString"), app)?;
            }
            self.want_disconnect(Why::WrongBeginString);
            return Ok(());
        }
        self.conn.clock.last_received = self.now.mono;
        self.conn.clock.test_requests = 0;
        let Some(seq) = seq_num(msg) else {
            self.send_logout(now, Some(b"Received message without MsgSeqNum"), app)?;
            self.want_disconnect(Why::NoMsgSeqNum);
            return Ok(());
        };
        if let Some(v) = self.config.validator
            && let Err(invalid) = self.validate(&v, msg)
        {
            return match invalid {
                Invalid::Reject(reject) => self.rejected(now, msg, seq, &reject, app),
                // Not this dictionary's version: QuickFIX logs out, rejecting nothing.
                _ if self.takes_error(msg_type) => self.on_error(now, "Incorrect BeginString", app),
                _ => {
                    self.send_logout(now, Some(b"Incorrect BeginString"), app)?;
                    self.want_disconnect(Why::WrongBeginString);
                    Ok(())
                }
            };
        }
        match msg_type {
            b"A" => self.on_logon(now, msg, seq, app),
            b"0" => self.on_plain_admin(now, msg, seq, app),
            b"1" => self.on_test_request(now, msg, seq, app),
            b"2" => self.on_resend_request(now, msg, seq, app),
            b"3" => self.on_reject(now, msg, seq, app),
            b"4" => self.on_sequence_reset(now, msg, seq, app),
            b"5" => self.on_logout(now, msg, seq, app),
            _ => self.on_app(now, msg, seq, app),
        }
    }

    /// Checks `msg` against its dictionary: an admin message (or any, with no
    /// application dictionaries) against the transport one; an application
    /// message against the application dictionary its ApplVerID (1128) or else
    /// DefaultApplVerID names, under the transport's header and trailer. One with
    /// no such dictionary is checked against the transport one alone.
    fn validate(&self, v: &Validator, msg: &Message<'_>) -> Result<(), Invalid> {
        match self.validate_against_dictionary(v, msg) {
            // QuickFIX names its DefaultApplVerID (1137) in the body of a
            // BusinessMessageReject on FIXT.1.1 (as this session does, and
            // QuickFIX's acceptance scripts expect), where no dictionary
            // defines it: a counterparty's such reject is taken as it is,
            // not answered with a Reject of its own.
            Err(Invalid::Reject(r))
                if r.reason == SessionRejectReason::TagNotDefinedForMessageType
                    && r.ref_tag == Some(1137)
                    && msg.msg_type() == b"j"
                    && self.config.id.begin_string == "FIXT.1.1" =>
            {
                Ok(())
            }
            other => other,
        }
    }

    fn validate_against_dictionary(&self, v: &Validator, msg: &Message<'_>) -> Result<(), Invalid> {
        let transport = self.dicts.transport();
        if !self.dicts.has_apps() || is_admin(msg.msg_type()) {
            return v.validate(transport, msg);
        }
        let appl_ver = msg.get(1128).or_else(|| {
            self.conn
                .target_default_appl_ver_id
                .as_deref()
                .or(self.config.default_appl_ver_id.as_deref())
                .map(str::as_bytes)
        });
        match appl_ver.and_then(|a| self.dicts.app(a)) {
            Some(app) => v.validate(&AppSchema::new(transport, app), msg),
            None => v.validate(transport, msg),
        }
    }

    /// A message the dictionary rejects: a Reject, and its number is used.
    fn rejected(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        reject: &Reject,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if msg.msg_type() == b"A" && self.conn.state != State::LoggedOn {
            self.want_disconnect(Why::InvalidLogon);
            return Ok(());
        }
        if self.takes_error(msg.msg_type()) {
            return self.on_error(now, reject.text(), app);
        }
        // An unknown MsgType is a Reject (373=11, Invalid MsgType) in QuickFIX;
        // the BusinessMessageReject (380=3) is the application's answer to a
        // known type it does not support.
        let (reason, ref_tag) = (reject.reason, reject.ref_tag);
        self.send_reject(now, RejectOf::message(msg, seq, reason).tag(ref_tag), app)?;
        // Its number is used, and messages queued behind it are handled.
        self.in_order(now, seq, app)
    }

    /// The checks of QuickFIX's `verify`: SendingTime, CompIDs, then MsgSeqNum
    /// (too high queues and asks for a resend; too low is a PossDup or the end).
    fn check(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        check_too_high: bool,
        check_too_low: bool,
        app: &mut dyn Application,
    ) -> Result<Sequence, SessionError> {
        if let Sequence::Done = self.verify_header(now, msg, seq, app)? {
            return Ok(Sequence::Done);
        }
        self.check_sequence(now, msg, seq, check_too_high, check_too_low, app)
    }

    /// SendingTime and CompIDs: what a message must pass before anything it
    /// asks for is done.
    fn verify_header(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<Sequence, SessionError> {
        if self.config.check_latency && !self.sending_time_ok(now, msg) {
            if self.conn.state != State::LoggedOn {
                // Before the Logon is accepted QuickFIX sends no Reject or
                // Logout: the connection is dropped.
                self.want_disconnect(Why::SendingTime);
                return Ok(Sequence::Done);
            }
            let reason = SessionRejectReason::SendingTimeAccuracyProblem;
            self.send_reject(now, RejectOf::message(msg, seq, reason), app)?;
            self.send_logout(now, None, app)?;
            self.want_disconnect(Why::SendingTime);
            return Ok(Sequence::Done);
        }
        if self.config.check_comp_id && !self.comp_ids_ok(msg) {
            if self.conn.state == State::AwaitingLogon {
                // QuickFIX's Reject throws while not logged on, and verify
                // disconnects: a Logon from the wrong CompIDs gets no answer.
                self.want_disconnect(Why::WrongCompId);
                return Ok(Sequence::Done);
            }
            let reason = SessionRejectReason::CompIdProblem;
            self.send_reject(now, RejectOf::message(msg, seq, reason), app)?;
            self.send_logout(now, None, app)?;
            self.want_disconnect(Why::WrongCompId);
            return Ok(Sequence::Done);
        }
        Ok(Sequence::InOrder)
    }

    /// MsgSeqNum: too high queues the message and asks for a resend; too low
    /// is a PossDup or the end.
    fn check_sequence(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        check_too_high: bool,
        check_too_low: bool,
        app: &mut dyn Application,
    ) -> Result<Sequence, SessionError> {
        let expected = self.store.next_target_seq();
        if check_too_high && seq > expected {
            self.enqueue(seq, msg.bytes());
            self.request_resend(now, expected, seq, app)?;
            return Ok(Sequence::Done);
        }
        if check_too_low && seq < expected {
            if msg.get(43) == Some(b"Y") {
                return self.possible_duplicate(now, msg, seq, app);
            }
            let text = format!("MsgSeqNum too low, expecting {expected} but received {seq}");
            self.send_logout(now, Some(text.as_bytes()), app)?;
            self.want_disconnect(Why::SeqNumTooLow);
            return Ok(Sequence::Done);
        }
        // A message past the gap that skips the checks (a ResendRequest) does
        // not satisfy the outstanding resend.
        if let Some((_, end)) = self.conn.resend_requested
            && seq <= expected
            && (seq >= end || end == 0)
        {
            if seq + 1 >= self.queue.high().max(seq + 1) {
                self.conn.resend_requested = None;
            } else if self.config.resend_request_chunk_size > 0
                && let Some(next) = self.queue.above(seq)
                && next > seq + 1
            {
                // The last chunk asked for is in and the gap goes on: ask for
                // the next chunk, as QuickFIX/J does (nothing else would).
                self.conn.resend_requested = None;
                self.request_resend(now, seq + 1, next, app)?;
            }
        }
        Ok(Sequence::InOrder)
    }

    /// Queues a message numbered above a gap, within the queue's bound.
    fn enqueue(&mut self, seq: u64, bytes: &[u8]) {
        let limit = self.config.max_queued_bytes;
        match self.queue.push(seq, bytes, limit) {
            Ok(()) => {}
            Err(super::NotQueued::Full) => {
                let queued_bytes = self.queue.live;
                self.events.push(Event::QueueFull { seq, queued_bytes });
            }
            Err(super::NotQueued::Budget) => {
                let held_bytes = self.config.shared_budget.as_ref().map_or(0, |b| b.held());
                self.events.push(Event::BudgetFull { seq, held_bytes });
            }
        }
    }

    /// Refuses a Logon that is not logged on yet: a Logout with `reason`,
    /// an event, and the connection ends; nothing else changed.
    fn refuse_logon(
        &mut self,
        now: SystemTime,
        reason: &str,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.events.push(Event::LogonRefused {
            reason: reason.to_owned(),
        });
        self.send_logout(now, Some(reason.as_bytes()), app)?;
        self.want_disconnect(Why::LogonRefused);
        Ok(())
    }

    /// A checked Logon to a standby (another engine holds the session). When
    /// the Logon says the counterparty holds every message stored (its
    /// NextExpectedMsgSeqNum, 789, is the session's next sender number, and
    /// it asks no reset), it is answered with a Logout under that number,
    /// which the store takes from the engine holding the session, so that
    /// the counterparty's count and the store's agree. Otherwise the
    /// connection is closed with no answer, which costs no number: a Logout
    /// under any other number would be counted as the next the counterparty
    /// expects and lose a message it has yet to receive
    /// (docs/high-availability.md).
    fn refuse_as_standby(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        why: crate::StoreError,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.events.push(Event::LogonRefused {
            reason: why.to_string(),
        });
        let expected = seq_field(msg, 789).filter(|_| msg.get(141) != Some(b"Y"));
        let Some(expected) = expected else {
            return Err(why.into());
        };
        if !self.send_standby_logout(now, expected, STANDBY_TEXT, app)? {
            return Err(why.into());
        }
        self.want_disconnect(Why::LogonRefused);
        Ok(())
    }

    /// A PossDupFlag=Y message with a number already seen: ignored, unless its
    /// OrigSendingTime is missing or later than its SendingTime.
    fn possible_duplicate(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<Sequence, SessionError> {
        if msg.msg_type() == b"4" {
            return Ok(Sequence::Done);
        }
        let orig = msg.get(122).and_then(parse_timestamp);
        let sending = msg.get(52).and_then(parse_timestamp);
        match orig {
            None => {
                let reason = SessionRejectReason::RequiredTagMissing;
                self.send_reject(now, RejectOf::message(msg, seq, reason).tag(122), app)?;
            }
            Some(o) if sending.is_some_and(|s| o > s) => {
                let reason = SessionRejectReason::SendingTimeAccuracyProblem;
                self.send_reject(now, RejectOf::message(msg, seq, reason), app)?;
                self.send_logout(now, None, app)?;
                self.want_disconnect(Why::SendingTime);
            }
            Some(_) => {}
        }
        Ok(Sequence::Done)
    }

    fn sending_time_ok(&mut self, now: SystemTime, msg: &Message<'_>) -> bool {
        let Some(text) = msg.get(52) else {
            return false;
        };
        // Sent the same UTC day as `now` (nearly always): only the time of day
        // needs reading, against `now`'s own, formatted once per millisecond.
        let today = self.timestamp(now);
        if text.len() > 9 && text[..9] == today.as_bytes()[..9] {
            let Ok(time) = fix_core::value::UtcTimeOnly::parse(&text[9..]) else {
                return false;
            };
            let sent = Duration::new(
                u64::from(time.hour()) * 3600
                    + u64::from(time.minute()) * 60
                    + u64::from(time.second().min(59)),
                time.nanos(),
            );
            let since_midnight = now.duration_since(UNIX_EPOCH).map_or(Duration::ZERO, |d| {
                Duration::new(d.as_secs() % 86_400, d.subsec_nanos())
            });
            return sent.abs_diff(since_midnight) <= self.config.max_latency;
        }
        let Some(t) = parse_timestamp(text) else {
            return false;
        };
        let skew = match now.duration_since(t) {
            Ok(d) => d,
            Err(e) => e.duration(),
        };
        skew <= self.config.max_latency
    }

    fn comp_ids_ok(&self, msg: &Message<'_>) -> bool {
        let id = &self.config.id;
        msg.get(49) == Some(id.target_comp_id.as_bytes())
            && msg.get(56) == Some(id.sender_comp_id.as_bytes())
    }

    /// Sends a ResendRequest for `from` up to the message before `received`,
    /// unless one for that range is outstanding (QuickFIX C++'s
    /// `doTargetTooHigh`: "Not sending another") and SendRedundantResendRequests
    /// is off.
    fn request_resend(
        &mut self,
        now: SystemTime,
        from: u64,
        received: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if let Some((begin, _)) = self.conn.resend_requested
            && begin <= from
            && !self.config.send_redundant_resend_requests
        {
            return Ok(());
        }
        let chunk = self.config.resend_request_chunk_size;
        let end = if chunk > 0 && received.saturating_sub(from) > chunk {
            from.saturating_add(chunk - 1)
        } else if self.is_at_least_fix42() {
            0
        } else {
            999_999
        };
        let last = if end == 0 {
            received.saturating_sub(1)
        } else {
            end
        };
        self.conn.resend_requested = Some((from, last));
        let (b, e) = (u64_text(from), u64_text(end));
        self.send_admin(now, b"2", &[(7, b.as_bytes()), (16, e.as_bytes())], app)?;
        self.events
            .push(Event::ResendRequested { begin: from, end });
        Ok(())
    }

    /// The message numbered `seq` was handled in order: the next is expected, and
    /// queued messages that now follow are handled.
    fn in_order(
        &mut self,
        now: SystemTime,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if seq == self.store.next_target_seq() {
            self.store.advance_target_seq(seq)?;
        }
        self.next_queued(now, app)
    }

    /// Handles queued messages whose turn has come.
    fn next_queued(
        &mut self,
        now: SystemTime,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if self.draining || self.queue.is_empty() {
            return Ok(());
        }
        let mut buf = Vec::new();
        let mut fields = std::mem::take(&mut self.queue_fields);
        self.draining = true;
        let mut result = Ok(());
        while !self.conn.disconnect && self.queue.take(self.store.next_target_seq(), &mut buf) {
            result = self.handle_indexed(now, &buf, &mut fields, app);
            if result.is_err() {
                break;
            }
        }
        self.draining = false;
        self.queue_fields = fields;
        result?;
        // Messages below the expected number can no longer be handled.
        self.queue.drop_below(self.store.next_target_seq());
        Ok(())
    }

    /// A Logon: checked, then the session logs on (or resets mid-session).
    fn on_logon(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let answer =
            self.config.role == crate::Role::Initiator && self.conn.state != State::LoggedOn;
        self.events.push(Event::LogonReceived { answer });
        if self.conn.state == State::LoggedOn {
            return self.on_logon_while_logged_on(now, msg, seq, app);
        }
        if self.config.refresh_on_logon {
            // QuickFIX's nextLogon refreshes first: the numbers the Logon is
            // checked against are the store's as it is now.
            self.store.refresh()?;
        }
        let Some(hb) = self.check_logon(now, msg, seq, app)? else {
            return Ok(());
        };
        if let Some(why) = self.store.standby() {
            return self.refuse_as_standby(now, msg, why, app);
        }
        let Some(retransmit) = self.check_next_expected(now, msg, app)? else {
            return Ok(());
        };
        let reset = msg.get(141) == Some(b"Y");
        self.adopt_logon_reset_and_heartbeat(now, reset, hb)?;
        if let Sequence::Done = self.check_sequence(now, msg, seq, false, true, app)? {
            return Ok(());
        }
        self.complete_logon(now, seq, reset, app)?;
        if let Some((begin, end)) = retransmit {
            self.events.push(Event::ResendServed { begin, end });
            self.serve_resend(now, begin, end, app)?;
        }
        Ok(())
    }

    /// A Logon's NextExpectedMsgSeqNum (789), as QuickFIX's nextLogon reads
    /// it: above the next sender number, the Logon is refused (the
    /// counterparty counts messages never sent); below it, the messages
    /// from it to the last sent are retransmitted once the Logon is
    /// answered (`Some(Some(range))`), as the counterparty waits for them
    /// rather than asking. `None`: refused. A Logon that resets the numbers
    /// is not checked.
    fn check_next_expected(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        app: &mut dyn Application,
    ) -> Result<Option<Option<(u64, u64)>>, SessionError> {
        let Some(expected) = seq_field(msg, 789).filter(|_| msg.get(141) != Some(b"Y")) else {
            return Ok(Some(None));
        };
        let next = self.store.next_sender_seq();
        if expected > next {
            let text =
                format!("NextExpectedMsgSeqNum too high, expecting {next} but received {expected}");
            self.refuse_logon(now, &text, app)?;
            return Ok(None);
        }
        Ok(Some((expected < next).then(|| (expected.max(1), next - 1))))
    }

    /// A Logon on a logged-on session: a reset with ResetSeqNumFlag=Y, a disconnect otherwise.
    fn on_logon_while_logged_on(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if msg.get(141) != Some(b"Y") {
            // A second Logon on a logged-on session: QuickFIX's verify finds
            // the logon state invalid and disconnects, answering nothing.
            self.want_disconnect(Why::SecondLogon);
            return Ok(());
        }
        // A Logon with ResetSeqNumFlag=Y mid-session: QuickFIX resets both
        // numbers to 1 and answers with its own Logon 141=Y. Verified
        // first: a Logon refused erases nothing.
        if let Sequence::Done = self.verify_header(now, msg, seq, app)? {
            return Ok(());
        }
        self.store.reset(now)?;
        self.queue.clear();
        self.conn.resend_requested = None;
        self.conn.reset_received = true;
        self.send_logon(now, true, app)?;
        if seq > self.store.next_target_seq() {
            self.store.set_next_target_seq(seq)?;
        }
        self.in_order(now, seq, app)
    }

    /// The checks of a first Logon before anything changes: its HeartBtInt, or `None` if refused.
    fn check_logon(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<Option<u64>, SessionError> {
        // Everything the Logon says is checked before anything changes: its
        // numbers, its SendingTime and CompIDs, then the application.
        let Some(hb) = heart_bt_int(msg) else {
            let reason =
                format!("HeartBtInt must be a number of seconds from 0 to {MAX_HEART_BT_INT}");
            self.refuse_logon(now, &reason, app)?;
            return Ok(None);
        };
        if let Sequence::Done = self.verify_header(now, msg, seq, app)? {
            self.events.push(Event::LogonRefused {
                reason: "SendingTime or CompIDs wrong".to_owned(),
            });
            return Ok(None);
        }
        if let Err(refusal) = app.from_admin(msg) {
            self.refuse_logon(now, &refusal.text, app)?;
            return Ok(None);
        }
        if !self.check_default_appl_ver_id(now, msg, app)? {
            return Ok(None);
        }
        Ok(Some(hb))
    }

    /// On FIXT, adopts the Logon's DefaultApplVerID (1137), or refuses the Logon (`false`).
    fn check_default_appl_ver_id(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        app: &mut dyn Application,
    ) -> Result<bool, SessionError> {
        if let Some(v) = msg.get(1137)
            && self.config.id.begin_string.starts_with("FIXT")
        {
            // The counterparty's application version, for this connection: one
            // this session cannot validate is refused like a bad Logon.
            let v = String::from_utf8_lossy(v);
            let code = crate::dictionaries::appl_ver_id_code(&v);
            let known = self.dicts.transport().value_allowed(1128, code.as_bytes());
            if !known || (self.dicts.has_apps() && self.dicts.app(code.as_bytes()).is_none()) {
                let text = format!("Unsupported DefaultApplVerID {v}");
                self.refuse_logon(now, &text, app)?;
                return Ok(false);
            }
            self.conn.target_default_appl_ver_id = Some(code.to_owned());
        }
        Ok(true)
    }

    /// Adopts a checked Logon's reset and, on an acceptor, its HeartBtInt.
    fn adopt_logon_reset_and_heartbeat(
        &mut self,
        now: SystemTime,
        reset: bool,
        hb: u64,
    ) -> Result<(), SessionError> {
        let acceptor = self.config.role == crate::Role::Acceptor;
        if acceptor && (self.config.reset_on_logon || reset || self.reset_pending) {
            self.store.reset(now)?;
            self.reset_pending = false;
        }
        if reset {
            self.conn.reset_received = true;
        }
        if acceptor {
            self.conn.clock.heartbeat = Duration::from_secs(hb);
        }
        Ok(())
    }

    /// Answers a checked Logon on an acceptor, logs on, then requests a gap or goes on in order.
    fn complete_logon(
        &mut self,
        now: SystemTime,
        seq: u64,
        reset: bool,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if self.config.role == crate::Role::Acceptor {
            self.send_logon(now, self.conn.reset_received, app)?;
        }
        self.set_state(State::LoggedOn);
        self.conn.clock.deadline = None;
        app.on_logon(&self.config.id);
        let expected = self.store.next_target_seq();
        if seq > expected && !reset {
            self.request_resend(now, expected, seq, app)?;
            return Ok(());
        }
        if reset && seq > expected {
            self.store.set_next_target_seq(seq)?;
        }
        self.in_order(now, seq, app)
    }

    /// A TestRequest: checked, then answered with a Heartbeat carrying its TestReqID.
    fn on_test_request(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if let Sequence::InOrder = self.check(now, msg, seq, true, true, app)? {
            // Refusing a TestRequest changes nothing: it is answered.
            let _ = app.from_admin(msg);
            let id = msg.get(112).unwrap_or_default();
            self.send_admin(now, b"0", &[(112, id)], app)?;
            self.in_order(now, seq, app)?;
        }
        Ok(())
    }

    /// A Reject: its event, then the checks of a Heartbeat.
    fn on_reject(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.events.push(Event::RejectReceived {
            ref_seq: seq_field(msg, 45).unwrap_or(0),
            text: text_of(msg),
        });
        self.on_plain_admin(now, msg, seq, app)
    }

    /// Heartbeat and Reject: the checks and nothing else.
    fn on_plain_admin(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if let Sequence::InOrder = self.check(now, msg, seq, true, true, app)? {
            // A refused Heartbeat or Reject changes nothing: the session goes on.
            let _ = app.from_admin(msg);
            self.in_order(now, seq, app)?;
        }
        Ok(())
    }

    fn on_resend_request(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        // QuickFIX serves a ResendRequest whatever its number (verify with neither
        // check); one too low is served and the expected number stays.
        if let Sequence::Done = self.check(now, msg, seq, false, false, app)? {
            return Ok(());
        }
        self.events.push(Event::ResendServed {
            begin: seq_field(msg, 7).unwrap_or(0),
            end: seq_field(msg, 16).unwrap_or(0),
        });
        // The application sees every ResendRequest, as QuickFIX's does; a
        // refusal changes nothing: the request is served.
        let _ = app.from_admin(msg);
        // Numbers past MAX_SEQ_NUM (or not numbers) ask for more than was
        // ever sent: read as "to the end", and from 1.
        let begin = seq_field(msg, 7).unwrap_or(1).max(1);
        let mut last_sent = self.store.next_sender_seq().saturating_sub(1);
        if let Some(held) = self.conn.held_from {
            // Messages held behind the resend in progress follow it anyway.
            last_sent = last_sent.min(held - 1);
        }
        let mut end = seq_field(msg, 16).unwrap_or(0);
        if end == 0 || (!self.is_at_least_fix42() && end == 999_999) || end > last_sent {
            end = last_sent;
        }
        // A ResendRequest handled from the queue was served when it came.
        if begin <= end && !self.draining {
            self.serve_resend(now, begin, end, app)?;
        }
        let expected = self.store.next_target_seq();
        if seq > expected {
            self.enqueue(seq, msg.bytes());
            self.request_resend(now, expected, seq, app)?;
            // Its resend is served; when the gap fills it only advances.
            return Ok(());
        }
        self.in_order(now, seq, app)
    }

    /// Resends `begin..=end` (at most the newest
    /// [`max_resend_range`](crate::SessionConfig::max_resend_range) of them;
    /// one gap fill skips the rest), a chunk at a time.
    fn serve_resend(
        &mut self,
        now: SystemTime,
        begin: u64,
        end: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let mut from = begin;
        if let Some(max) = self.config.max_resend_range
            && end - begin >= max
        {
            from = end + 1 - max;
            self.gap_fill(now, begin, from)?;
        }
        if from <= end {
            self.conn.serving = Some(super::Serving {
                next: from,
                end,
                gap_from: None,
            });
            self.pump(now, app)?;
        }
        Ok(())
    }

    fn on_sequence_reset(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let gap_fill = msg.get(123) == Some(b"Y");
        if let Sequence::Done = self.check(now, msg, seq, gap_fill, gap_fill, app)? {
            return Ok(());
        }
        // Seen, like every admin message; a refusal changes nothing.
        let _ = app.from_admin(msg);
        // A NewSeqNo past MAX_SEQ_NUM is read as 0: too low, and rejected.
        let new = seq_field(msg, 36).unwrap_or(0);
        self.events.push(Event::SequenceResetReceived {
            gap_fill,
            new_seq: new,
        });
        if new == 0 && msg.get(36).is_some_and(|v| v != b"0") {
            self.events.push(Event::ValueOutOfRange {
                tag: 36,
                msg_type: "4".to_owned(),
            });
        }
        let expected = self.store.next_target_seq();
        if new > expected {
            self.store.set_next_target_seq(new)?;
            self.next_queued(now, app)
        } else if new < expected {
            // QuickFIX names no RefTagID here (11c_NewSeqNoLess expects none).
            let reason = SessionRejectReason::ValueIncorrect;
            self.send_reject(now, RejectOf::message(msg, seq, reason), app)?;
            if gap_fill {
                self.in_order(now, seq, app)?;
            }
            Ok(())
        } else {
            Ok(())
        }
    }

    fn on_logout(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.conn.logout_received = true;
        self.events.push(Event::LogoutReceived {
            answer: self.conn.logout_sent,
            text: text_of(msg),
        });
        if let Sequence::Done = self.check(now, msg, seq, false, false, app)? {
            return Ok(());
        }
        // The application sees why (its Text); refusing a Logout changes nothing.
        let _ = app.from_admin(msg);
        if !self.conn.logout_sent {
            self.send_logout(now, None, app)?;
        }
        if seq == self.store.next_target_seq() {
            self.store.advance_target_seq(seq)?;
        }
        self.want_disconnect(Why::LogoutExchanged);
        if self.config.reset_on_logout || self.reset_after_error {
            self.reset_after_error = false;
            self.store.reset(now)?;
        }
        Ok(())
    }

    fn on_app(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if let Sequence::Done = self.check(now, msg, seq, true, true, app)? {
            return Ok(());
        }
        // The answers and the message's number are stored together: after a
        // crash, or a store error, either both are kept or neither is (and the
        // message, resent, is answered afresh), so it is answered once.
        self.store.begin_answer(seq);
        let mark = (self.output.len(), self.held.len());
        let events = self.events.mark();
        let held_index = self.held_index.len();
        if let Err(e) = self.answer_app(now, msg, seq, app) {
            // Taken back by the store: none of it may leave, nor be told of.
            self.store.abandon_answer();
            self.events.truncate(events);
            self.held_index.truncate(held_index);
            self.output.truncate(mark.0);
            self.conn.released = self.conn.released.min(mark.0);
            self.conn.syncing_to = self.conn.syncing_to.min(mark.0);
            self.held.truncate(mark.1);
            if self.held.is_empty() {
                self.conn.held_from = None;
            }
            return Err(e);
        }
        self.next_queued(now, app)
    }

    /// Hands an application message to the application, sends what it
    /// answered, and records the message as received.
    fn answer_app(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let answer = self.ask_app(msg, app);
        if answer.is_err() && self.takes_error(msg.msg_type()) {
            // Nothing of the refused message's answer leaves: what the
            // application queued with its refusal goes, and the answer
            // announced to the store is taken back (nothing is stored yet).
            self.outbox.clear();
            self.store.abandon_answer();
            return self.on_error(now, "the application refused the message", app);
        }
        if let Err(refusal) = answer {
            self.send_app_refusal(now, msg, seq, refusal, app)?;
        }
        self.flush_outbox(now)?;
        if seq == self.store.next_target_seq() {
            self.store.advance_target_seq(seq)?;
        }
        Ok(())
    }

    /// Calls `from_app` with the outbox, under the DefaultApplVerID of the connection or config.
    fn ask_app(
        &mut self,
        msg: &Message<'_>,
        app: &mut dyn Application,
    ) -> Result<(), crate::AppReject> {
        let mut outbox = std::mem::take(&mut self.outbox);
        outbox.default_appl_ver_id = crate::app::ApplVerId::new(
            self.conn
                .target_default_appl_ver_id
                .as_deref()
                .or(self.config.default_appl_ver_id.as_deref())
                .map(str::as_bytes),
        );
        let answer = app.from_app(msg, &mut outbox);
        self.outbox = outbox;
        answer
    }

    /// Answers the application's refusal: a Reject, or from FIX.4.2 on a BusinessMessageReject.
    fn send_app_refusal(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        refusal: crate::AppReject,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        match refusal {
            crate::AppReject::Session {
                reason,
                ref_tag,
                text,
            } => {
                let reason =
                    SessionRejectReason::from_code(reason).unwrap_or(SessionRejectReason::Other);
                self.send_reject(
                    now,
                    RejectOf::message(msg, seq, reason)
                        .tag(ref_tag.map(i64::from))
                        .text(text.as_bytes()),
                    app,
                )
            }
            crate::AppReject::Business { reason, text, .. } if !self.is_at_least_fix42() => {
                // No BusinessMessageReject before FIX.4.2: QuickFIX sends a
                // Reject, with its own text for an unsupported MsgType.
                let text = if reason == 3 {
                    b"Unsupported message type"
                } else {
                    text.as_bytes()
                };
                self.send_reject(
                    now,
                    RejectOf::message(msg, seq, SessionRejectReason::Other).text(text),
                    app,
                )
            }
            crate::AppReject::Business {
                reason,
                ref_tag,
                text,
            } => self.send_business_reject(now, msg, seq, (reason, ref_tag, &text), app),
        }
    }

    /// Sends a BusinessMessageReject (35=j) of `msg` back along its route.
    fn send_business_reject(
        &mut self,
        now: SystemTime,
        msg: &Message<'_>,
        seq: u64,
        (reason, ref_tag, text): (u32, Option<u32>, &str),
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let (s, r) = (u64_text(seq), u64_text(u64::from(reason)));
        let tag_value = ref_tag.and_then(|t| msg.get(t)).unwrap_or_default();
        let mut fields: Vec<(u32, &[u8])> = vec![
            (45, s.as_bytes()),
            (58, text.as_bytes()),
            (372, msg.msg_type()),
        ];
        if ref_tag.is_some() {
            fields.push((379, tag_value));
        }
        fields.push((380, r.as_bytes()));
        // On FIXT.1.1 QuickFIX names its DefaultApplVerID in the body.
        let appl = self.config.default_appl_ver_id.clone();
        if let Some(v) = &appl {
            fields.push((1137, v.as_bytes()));
        }
        self.set_reverse_route(Some(msg));
        let sent = self.send_admin(now, b"j", &fields, app);
        self.route.clear();
        sent
    }

    /// Whether an error in a received message of `msg_type` is
    /// [`OnError`]'s to answer: ResetOnError or DisconnectOnError is on, the
    /// session is logged on and the message is an application message, as
    /// QuickFIX/J's `resetOrDisconnectIfRequired` decides.
    pub(super) fn takes_error(&self, msg_type: &[u8]) -> bool {
        self.config.on_error != OnError::Reject
            && self.conn.state == State::LoggedOn
            && !is_admin(msg_type)
    }

    /// An error in a received application message, answered as
    /// [`SessionConfig::on_error`](crate::SessionConfig::on_error) says in
    /// place of the usual Reject: a Logout ("Session reset") and a reset of
    /// the store once it is answered or the connection ends, or the
    /// connection ended at once. The message is not marked received, and
    /// what was queued behind a gap is dropped.
    pub(super) fn on_error(
        &mut self,
        now: SystemTime,
        reason: &str,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.queue.clear();
        self.conn.resend_requested = None;
        match self.config.on_error {
            OnError::Reject => Ok(()),
            OnError::Reset => {
                self.events.push(Event::ResetOnError {
                    reason: reason.to_owned(),
                });
                self.reset_after_error = true;
                self.begin_logout(now, Some(b"Session reset"), app)
            }
            OnError::Disconnect => {
                self.events.push(Event::DisconnectOnError {
                    reason: reason.to_owned(),
                });
                self.want_disconnect(Why::OnError);
                Ok(())
            }
        }
    }

    /// FIX 4.2 and later (RefTagID, RefMsgType and SessionRejectReason exist;
    /// EndSeqNo 0 means "to the end").
    pub(super) fn is_at_least_fix42(&self) -> bool {
        !matches!(self.config.id.begin_string.as_str(), "FIX.4.0" | "FIX.4.1")
    }

    /// Whether a resend of admin messages is a gap fill (always: admin messages
    /// are never resent).
    pub(super) fn resendable(msg_type: &[u8]) -> bool {
        !is_admin(msg_type)
    }
}

/// A standby's Logout's Text: the counterparty is to log on to the engine
/// that holds the session (its other host), or here once that one lets the
/// session go.
const STANDBY_TEXT: &str = "Session is active on another engine; this engine is its standby and takes it only once that one lets it go";

/// A sequence-number field's value: one to 19 digits, no sign (so at most
/// [`MAX_SEQ_NUM`]).
fn seq_field(msg: &Message<'_>, tag: u32) -> Option<u64> {
    parse_digits(msg.get(tag)?, 19).filter(|&n| n <= MAX_SEQ_NUM)
}

/// A Logon's HeartBtInt: 0 to [`MAX_HEART_BT_INT`] seconds (0 when the field
/// is missing, which the dictionary refuses when it validates); `None` for a
/// signed (`-30`, `+30`), unreadable or larger one.
fn heart_bt_int(msg: &Message<'_>) -> Option<u64> {
    let Some(v) = msg.get(108) else {
        return Some(0);
    };
    parse_digits(v, 19).filter(|&n| n <= MAX_HEART_BT_INT)
}

/// Text (58), for an event.
fn text_of(msg: &Message<'_>) -> Option<String> {
    msg.get(58).map(|t| String::from_utf8_lossy(t).into_owned())
}

/// The MsgSeqNum of bytes that did not index, found by text.
pub(super) fn seq_text(bytes: &[u8]) -> Option<u64> {
    let at = bytes.windows(4).position(|w| w == b"\x0134=")? + 4;
    let end = bytes[at..]
        .iter()
        .position(|&b| b == 1)
        .map_or(bytes.len(), |e| at + e);
    parse_digits(&bytes[at..end], 19)
}

/// `n` as decimal text, on the stack.
pub(super) fn u64_text(n: u64) -> heapless::String<20> {
    let mut text = heapless::String::new();
    // u64::MAX has 20 digits: the write always fits.
    let _ = write!(text, "{n}");
    text
}

/// `n` as decimal text, on the stack.
pub(super) fn i64_text(n: i64) -> heapless::String<20> {
    let mut text = heapless::String::new();
    // i64::MIN is 20 characters with its sign: the write always fits.
    let _ = write!(text, "{n}");
    text
}
