//! What a session sends: the header it stamps (8, 9, 35, then the header fields
//! in ascending tag order, SendingTime at the configured precision), the store
//! before the bytes, and resends served from the store in chunks.

use std::time::{SystemTime, UNIX_EPOCH};

use fix_core::validate::{Schema, SessionRejectReason};
use fix_core::value::Precision;
use fix_core::{Message, SOH, Status};

use super::event::Kind;
use super::incoming::{i64_text, u64_text};
use super::{Event, Serving, Session, SessionError};
use crate::app::{Application, Outbox, push_field, push_uint};
use crate::store::{Chunk, ChunkLimit, MessageStore, ReadDone, StoreError};
use crate::time::Timestamp;

/// What a session Reject refers to and says: the message rejected (its
/// number and type), why, and optionally the tag at fault and a text of its
/// own.
#[derive(Clone, Copy)]
pub(super) struct RejectOf<'a, 'm> {
    ref_seq: u64,
    reason: SessionRejectReason,
    ref_tag: Option<i64>,
    ref_msg_type: &'a [u8],
    text: Option<&'a [u8]>,
    /// The message itself, parsed: the Reject goes back along its route.
    msg: Option<&'a Message<'m>>,
}

impl<'a, 'm> RejectOf<'a, 'm> {
    /// A Reject of `msg`, numbered `ref_seq`, for `reason`.
    pub(super) fn message(msg: &'a Message<'m>, ref_seq: u64, reason: SessionRejectReason) -> Self {
        RejectOf {
            msg: Some(msg),
            ..Self::frame(msg.msg_type(), ref_seq, reason)
        }
    }

    /// A Reject of a frame that did not parse, of type `msg_type`.
    pub(super) fn frame(msg_type: &'a [u8], ref_seq: u64, reason: SessionRejectReason) -> Self {
        RejectOf {
            ref_seq,
            reason,
            ref_tag: None,
            ref_msg_type: msg_type,
            text: None,
            msg: None,
        }
    }

    /// Naming the tag at fault (RefTagID, or in the Text before FIX 4.2).
    pub(super) fn tag(self, tag: impl Into<Option<i64>>) -> Self {
        RejectOf {
            ref_tag: tag.into(),
            ..self
        }
    }

    /// With a Text of its own instead of the reason's.
    pub(super) fn text(self, text: &'a [u8]) -> Self {
        RejectOf {
            text: Some(text),
            ..self
        }
    }
}

/// How a message's header is stamped.
#[derive(Clone, Copy)]
struct Stamp<'a> {
    seq: u64,
    /// PossDupFlag=Y with this OrigSendingTime.
    orig_sending_time: Option<&'a [u8]>,
    /// PossResend=Y.
    poss_resend: bool,
}

impl<S: MessageStore, D: Schema> Session<S, D> {
    /// Stamps, stores and queues for output a message with the next sender number
    /// (PossResend=Y in its header when `poss_resend`).
    pub(super) fn send_message(
        &mut self,
        now: SystemTime,
        msg_type: &[u8],
        body: &[u8],
        poss_resend: bool,
    ) -> Result<u64, SessionError> {
        let seq = self.store.next_sender_seq();
        let stamp = Stamp {
            seq,
            orig_sending_time: None,
            poss_resend,
        };
        if !self.store.pending_sync() && !self.store.sync_in_flight() {
            // Everything before this message is durable: handed out.
            self.conn.released = self.output.len();
        }
        let start = self.frame_into_output(now, msg_type, stamp, body);
        let stored = if self.config.persist_messages {
            self.store.store(seq, &self.output[start..])
        } else {
            // Not persisted: the number still moves on (a resend gap-fills).
            self.store.set_next_sender_seq(seq + 1)
        };
        if let Err(e) = stored {
            // Not taken by the store, so never handed out.
            self.cut_output_back(start);
            return Err(e.into());
        }
        if self.conn.serving.is_some() {
            // Numbered after the resend in progress: it leaves after the
            // resend's last message, so that the counterparty never sees a
            // number above a gap the resend has yet to fill.
            self.held.extend_from_slice(&self.output[start..]);
            // Counted as it is stored: it leaves after the resend.
            self.counts.sent(Kind::of(msg_type));
            if self.config.message_events {
                self.held_index
                    .push((seq, self.held.len(), Kind::of(msg_type)));
            }
            self.cut_output_back(start);
            self.conn.held_from.get_or_insert(seq);
        } else {
            self.record_sent(Some(seq), Kind::of(msg_type), start);
        }
        self.conn.clock.last_sent = self.now.mono;
        if let Some(throttle) = &mut self.throttle
            && !super::is_admin(msg_type)
        {
            throttle.record(self.now.mono);
        }
        Ok(seq)
    }

    /// The resend is over (served, or given up as the connection ends): what
    /// was held back behind it follows it.
    pub(super) fn release_held(&mut self) {
        self.conn.serving = None;
        self.conn.held_from = None;
        let mut start = 0;
        for &(seq, end, kind) in &self.held_index {
            self.events
                .message(true, Some(seq), kind, &self.held[start..end]);
            start = end;
        }
        self.held_index.clear();
        if !self.held.is_empty() {
            self.output.extend_from_slice(&self.held);
            self.held.clear();
        }
    }

    /// The message at `start` of the output, just framed, for its
    /// [`Event::Sent`].
    fn record_sent(&mut self, seq: Option<u64>, kind: Kind, start: usize) {
        self.counts.sent(kind);
        if self.config.message_events {
            self.events.message(true, seq, kind, &self.output[start..]);
        }
    }

    /// An admin message with these body fields (and any the application adds in
    /// `to_admin`).
    pub(super) fn send_admin(
        &mut self,
        now: SystemTime,
        msg_type: &[u8],
        fields: &[(u32, &[u8])],
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let mut body = std::mem::take(&mut self.current_body);
        let result = self
            .admin_body(&mut body, msg_type, fields, app)
            .and_then(|()| self.send_message(now, msg_type, &body, false));
        self.current_body = body;
        result.map(|_| ())
    }

    /// An admin message's body: these fields, then any the application adds
    /// in `to_admin`.
    fn admin_body(
        &self,
        body: &mut Vec<u8>,
        msg_type: &[u8],
        fields: &[(u32, &[u8])],
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        body.clear();
        for &(tag, value) in fields {
            push_field(body, tag, value);
        }
        let mut extra = Outbox::default();
        app.to_admin(msg_type, &mut extra);
        // The application's fields (a Logon's Username, say) are checked as
        // a body of their own: ours are FIX fields by construction.
        let added = self.config.parser.check_fields(extra.extra_fields());
        body.extend_from_slice(extra.extra_fields());
        added.map_err(SessionError::Malformed)
    }

    /// A standby's Logout under `seq` (the number the counterparty's Logon
    /// says it expects next), taken by the store before it is handed out
    /// ([`MessageStore::take_as_standby`]): `false`, and nothing queued,
    /// when the store did not take the number.
    pub(super) fn send_standby_logout(
        &mut self,
        now: SystemTime,
        seq: u64,
        text: &str,
        app: &mut dyn Application,
    ) -> Result<bool, SessionError> {
        let mut body = Vec::new();
        self.admin_body(&mut body, b"5", &[(58, text.as_bytes())], app)?;
        let stamp = Stamp {
            seq,
            orig_sending_time: None,
            poss_resend: false,
        };
        let start = self.frame_into_output(now, b"5", stamp, &body);
        match self.store.take_as_standby(seq, &self.output[start..]) {
            Ok(true) => {}
            taken => {
                self.cut_output_back(start);
                return taken.map_err(SessionError::from);
            }
        }
        // Durable as taken: a standby has nothing else waiting for a sync.
        self.conn.released = self.output.len();
        self.record_sent(Some(seq), Kind::of(b"5"), start);
        self.conn.clock.last_sent = self.now.mono;
        self.conn.logout_sent = true;
        self.events.push(Event::LogoutSent {
            answer: false,
            text: Some(text.to_owned()),
        });
        Ok(true)
    }

    /// Our Logon: EncryptMethod 0, HeartBtInt, ResetSeqNumFlag when resetting,
    /// DefaultApplVerID on FIXT.1.1.
    pub(super) fn send_logon(
        &mut self,
        now: SystemTime,
        reset: bool,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let hb = u64_text(self.conn.clock.heartbeat.as_secs());
        let appl = self.config.default_appl_ver_id.clone();
        let (fields, n) = present([
            Some((98, b"0".as_slice())),
            Some((108, hb.as_bytes())),
            reset.then_some((141, b"Y".as_slice())),
            appl.as_ref().map(|v| (1137, v.as_bytes())),
        ]);
        self.send_admin(now, b"A", &fields[..n], app)?;
        // An acceptor's Logon answers; an initiator's answers only a
        // counterparty's reset.
        let answer = self.config.role == crate::Role::Acceptor || self.conn.reset_received;
        self.events.push(Event::LogonSent { answer });
        Ok(())
    }

    /// A Logout, with Text when given.
    pub(super) fn send_logout(
        &mut self,
        now: SystemTime,
        text: Option<&[u8]>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.conn.logout_sent = true;
        match text {
            Some(t) => self.send_admin(now, b"5", &[(58, t)], app)?,
            None => self.send_admin(now, b"5", &[], app)?,
        }
        self.events.push(Event::LogoutSent {
            answer: self.conn.logout_received,
            text: text.map(|t| String::from_utf8_lossy(t).into_owned()),
        });
        Ok(())
    }

    /// Our Logout, starting the logout: the state is LogoutSent and the
    /// answer is awaited for LogoutTimeout.
    pub(super) fn begin_logout(
        &mut self,
        now: SystemTime,
        text: Option<&[u8]>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.send_logout(now, text, app)?;
        self.set_state(crate::State::LogoutSent);
        self.conn.clock.deadline = self.now.mono.checked_add(self.config.logout_timeout);
        Ok(())
    }

    /// Takes back the output from `start` (a message not taken by the store,
    /// or held behind a resend): what was handed out or is being synced
    /// ends there at most.
    fn cut_output_back(&mut self, start: usize) {
        self.output.truncate(start);
        self.conn.released = self.conn.released.min(start);
        self.conn.syncing_to = self.conn.syncing_to.min(start);
    }

    /// Sets the routing header of the next message to the reverse of `msg`'s, as
    /// QuickFIX's `reverseRoute` does for Rejects: OnBehalfOf* (115, 116, 144)
    /// become DeliverTo* (128, 129, 145) and the other way round; empty values are
    /// not copied, and FIX.4.0 has no location IDs. `None` clears it.
    pub(super) fn set_reverse_route(&mut self, msg: Option<&Message<'_>>) {
        self.route.clear();
        let Some(msg) = msg else {
            return;
        };
        let location = self.config.id.begin_string != "FIX.4.0";
        let pairs: [(u32, u32); 6] = [
            (115, 128),
            (116, 129),
            (144, 145),
            (128, 115),
            (129, 116),
            (145, 144),
        ];
        let mut out: [(u32, &[u8]); 6] = [(0, &[]); 6];
        let mut n = 0;
        for (from, to) in pairs {
            if !location && matches!(from, 144 | 145) {
                continue;
            }
            if let Some(v) = msg.get(from)
                && !v.is_empty()
            {
                out[n] = (to, v);
                n += 1;
            }
        }
        out[..n].sort_unstable_by_key(|&(tag, _)| tag);
        for &(tag, value) in &out[..n] {
            push_field(&mut self.route, tag, value);
        }
    }

    /// A Reject (35=3) of message `ref_seq`, for `reason` (and `ref_tag`, when
    /// the problem is one field's), of a message of type `ref_msg_type`: the
    /// one place a Reject is written, every Reject the session sends comes
    /// through it. RefSeqNum (45), Text (58: `text`, or the reason's own),
    /// then from FIX 4.2 RefTagID (371), RefMsgType (372) and
    /// SessionRejectReason (373); before FIX 4.2, which has none of the
    /// three, the tag is named in the Text. Routed back along `msg`'s route
    /// when given.
    ///
    /// RefMsgType is the received message's own bytes rather than a
    /// [`Reject`](fix_core::validate::Reject)'s copy, which is cut short past
    /// its capacity.
    pub(super) fn send_reject(
        &mut self,
        now: SystemTime,
        reject: RejectOf<'_, '_>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        self.set_reverse_route(reject.msg);
        let result = self.send_reject_fields(now, &reject, app);
        self.route.clear();
        result
    }

    fn send_reject_fields(
        &mut self,
        now: SystemTime,
        reject: &RejectOf<'_, '_>,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let RejectOf {
            ref_seq,
            reason,
            ref_tag,
            ref_msg_type,
            text,
            ..
        } = *reject;
        let seq = u64_text(ref_seq);
        let tag = ref_tag.map(i64_text);
        let code = u64_text(u64::from(reason.code()));
        // Before FIX.4.2 there is no RefTagID: QuickFIX names the tag in the
        // Text instead ("... (40)").
        let named = match (&tag, text) {
            (Some(t), None) if !self.is_at_least_fix42() => {
                Some(format!("{} ({t})", reason.text()))
            }
            _ => None,
        };
        let text = match &named {
            Some(n) => n.as_bytes(),
            None => text.unwrap_or(reason.text().as_bytes()),
        };
        let fix42 = self.is_at_least_fix42();
        // FIX.4.2's SessionRejectReason stops at 11 (Invalid MsgType): QuickFIX
        // leaves out a later reason there.
        let with_reason =
            fix42 && (self.config.id.begin_string != "FIX.4.2" || reason.code() <= 11);
        let (fields, n) = present([
            Some((45, seq.as_bytes())),
            Some((58, text)),
            tag.as_ref().filter(|_| fix42).map(|t| (371, t.as_bytes())),
            (fix42 && !ref_msg_type.is_empty()).then_some((372, ref_msg_type)),
            with_reason.then_some((373, code.as_bytes())),
        ]);
        self.send_admin(now, b"3", &fields[..n], app)?;
        self.events.push(Event::Rejected {
            ref_seq,
            text: Some(String::from_utf8_lossy(text).into_owned()),
        });
        Ok(())
    }

    /// Serves the next chunk of the resend in progress: stored application
    /// messages again with PossDupFlag=Y and OrigSendingTime, everything else
    /// (admin messages, numbers not stored, messages the application declines)
    /// as SequenceReset-GapFill runs. A store that reads off the session's
    /// thread begins a read instead, which [`Session::end_read`] serves.
    pub(super) fn serve_chunk(
        &mut self,
        now: SystemTime,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let Some(serving) = self.conn.serving else {
            return Ok(());
        };
        let (from, to, limit) = (serving.next, serving.end, ChunkLimit::default());
        if let Some(job) = self.store.begin_read(from, to, limit)? {
            self.conn.reading = Some(job.range());
            self.conn.read_job = Some(job);
            return Ok(());
        }
        self.serve_read(now, serving, app, |store, visit| {
            store.read_stored(from, to, limit, visit)
        })
    }

    /// Serves what the read in flight brought, when it is still the read
    /// the resend waits for (a ResendRequest that came meanwhile replaced
    /// the resend: the next chunk reads for that one).
    pub(super) fn serve_read_done(
        &mut self,
        now: SystemTime,
        done: ReadDone,
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        let Some(reading) = self.conn.reading.filter(|r| r.id == done.range().id) else {
            return Ok(());
        };
        self.conn.reading = None;
        match self.conn.serving {
            Some(serving) if (serving.next, serving.end) == (reading.from, reading.to) => self
                .serve_read(now, serving, app, |store, visit| {
                    store.end_read(done, ChunkLimit::default(), visit)
                }),
            _ => Ok(()),
        }
    }

    /// Resends the messages `read` visits, gap-fills what it skips, and
    /// moves the resend on to where the read says to continue.
    fn serve_read(
        &mut self,
        now: SystemTime,
        mut serving: Serving,
        app: &mut dyn Application,
        read: impl FnOnce(&mut S, &mut dyn FnMut(u64, &[u8])) -> Result<Chunk, StoreError>,
    ) -> Result<(), SessionError> {
        let mut chunk = std::mem::take(&mut self.resend_chunk);
        let mut index = std::mem::take(&mut self.resend_index);
        chunk.clear();
        index.clear();
        let read = read(&mut self.store, &mut |seq, bytes| {
            chunk.extend_from_slice(bytes);
            index.push((seq, chunk.len()));
        });
        let result = read.map_err(SessionError::from).and_then(|got| {
            let mut start = 0;
            for &(seq, end) in &index {
                self.resend_one(now, &mut serving, seq, &chunk[start..end], app)?;
                start = end;
            }
            match got.resume_at {
                // The numbers up to the next stored one are not stored:
                // gap-filled with the next run.
                Some(next) => {
                    if next > serving.next {
                        serving.gap_from.get_or_insert(serving.next);
                    }
                    serving.next = next;
                }
                None => {
                    let gap_from = serving.gap_from.unwrap_or(serving.next);
                    if gap_from <= serving.end {
                        self.gap_fill(now, gap_from, serving.end + 1)?;
                    }
                    self.release_held();
                    return Ok(());
                }
            }
            self.conn.serving = Some(serving);
            Ok(())
        });
        self.resend_chunk = chunk;
        self.resend_index = index;
        result
    }

    /// One stored message of a resend.
    fn resend_one(
        &mut self,
        now: SystemTime,
        serving: &mut Serving,
        seq: u64,
        stored: &[u8],
        app: &mut dyn Application,
    ) -> Result<(), SessionError> {
        if serving.gap_from.is_none() && seq > serving.next {
            serving.gap_from = Some(serving.next);
        }
        serving.next = seq + 1;
        let parser = self.config.parser;
        let mut fields = std::mem::take(&mut self.resend_fields);
        let mut body = std::mem::take(&mut self.current_body);
        body.clear();
        let mut resend = None;
        if let Ok(Status::Complete(frame)) = parser.frame(stored)
            && let Ok(msg) = parser.index(frame, &mut fields)
            && Self::resendable(msg.msg_type())
            && app.to_app(&msg, true)
        {
            for (tag, value) in msg.iter() {
                // The SubIDs the session writes are written afresh, not twice.
                if !stamped(tag) && !self.config.sub_ids.writes(tag) {
                    push_field(&mut body, tag, value);
                }
            }
            // Copied out of the stored message, which `fields` borrows; one too
            // long for these (no MsgType or UTCTIMESTAMP is) is gap-filled.
            let msg_type = heapless::Vec::<u8, 16>::from_slice(msg.msg_type());
            let orig = heapless::Vec::<u8, 32>::from_slice(msg.get(52).unwrap_or_default());
            if let (Ok(msg_type), Ok(orig)) = (msg_type, orig) {
                resend = Some((msg_type, orig, msg.get(97) == Some(b"Y")));
            }
        }
        self.resend_fields = fields;
        let result = match resend {
            Some((msg_type, orig, poss_resend)) => {
                if let Some(from) = serving.gap_from.take() {
                    self.gap_fill(now, from, seq)?;
                }
                let stamp = Stamp {
                    seq,
                    orig_sending_time: Some(&orig),
                    poss_resend,
                };
                let start = self.frame_into_output(now, &msg_type, stamp, &body);
                self.record_sent(Some(seq), Kind::of(&msg_type), start);
                self.conn.clock.last_sent = self.now.mono;
                Ok(())
            }
            None => {
                serving.gap_from.get_or_insert(seq);
                Ok(())
            }
        };
        self.current_body = body;
        result
    }

    /// The digits of a second the session's timestamps carry: the configured
    /// precision from FIX.4.2 on; before it UTCTimestamp has no fraction, and
    /// QuickFIX C++ (`getSupportedTimestampPrecision`) writes whole seconds.
    pub(super) fn precision(&self) -> Precision {
        if self.is_at_least_fix42() {
            self.config.timestamp_precision
        } else {
            Precision::Seconds
        }
    }

    /// A SequenceReset-GapFill numbered `from`, moving the counterparty to `to`.
    pub(super) fn gap_fill(
        &mut self,
        now: SystemTime,
        from: u64,
        to: u64,
    ) -> Result<(), SessionError> {
        let mut body = std::mem::take(&mut self.current_body);
        body.clear();
        let mut n = Vec::with_capacity(20);
        push_uint(&mut n, to);
        push_field(&mut body, 36, &n);
        push_field(&mut body, 123, b"Y");
        let ts = self.timestamp(now);
        let stamp = Stamp {
            seq: from,
            orig_sending_time: Some(ts.as_bytes()),
            poss_resend: false,
        };
        let start = self.frame_into_output(now, b"4", stamp, &body);
        self.record_sent(Some(from), Kind::of(b"4"), start);
        self.events.push(Event::GapFillSent { from, to });
        self.conn.clock.last_sent = self.now.mono;
        self.current_body = body;
        Ok(())
    }

    /// SendingTime for `now`, formatted once per unit of the session's
    /// precision (a millisecond by default): every message of the same unit
    /// reuses it.
    pub(super) fn timestamp(&mut self, now: SystemTime) -> Timestamp {
        let precision = self.precision();
        let cache = &mut self.timestamp_cache;
        if cache.at != Some(now) {
            // The reading truncated to the precision: what the text shows.
            let unit = 10u32.pow(9 - precision.digits() as u32);
            let shown = now
                .duration_since(UNIX_EPOCH)
                .map_or((0, 0), |d| (d.as_secs(), d.subsec_nanos() / unit));
            if cache.shown != Some(shown) {
                cache.text = Timestamp::new(now, precision);
                cache.shown = Some(shown);
            }
            cache.at = Some(now);
        }
        cache.text
    }

    /// BodyLength (9) of the message `frame_into_output` writes, its SendingTime `ts_len` long.
    fn body_length(
        &self,
        msg_type: &[u8],
        stamp: Stamp<'_>,
        ts_len: usize,
        body_len: usize,
    ) -> usize {
        let id = &self.config.id;
        let sub = &self.config.sub_ids;
        let sub_len: usize = sub
            .fields()
            .map(|(tag, v)| digits(u64::from(tag)) + 2 + v.len())
            .sum();
        // `tag=` and SOH around each value.
        let field = |tag_len: usize, value_len: usize| tag_len + 2 + value_len;
        let flag = |on: bool| if on { field(2, 1) } else { 0 };
        field(2, msg_type.len())
            + field(2, digits(stamp.seq))
            + flag(stamp.orig_sending_time.is_some())
            + field(2, id.sender_comp_id.len())
            + field(2, ts_len)
            + field(2, id.target_comp_id.len())
            + flag(stamp.poss_resend)
            + self.route.len()
            + stamp.orig_sending_time.map_or(0, |o| field(3, o.len()))
            + sub_len
            + body_len
    }

    /// Appends the whole message to `output`: 8, 9, 35, 34, [43], 49, [50], 52,
    /// 56, [57], [97], [reverse route], [122], [142], [143], the body, 10;
    /// returns where it starts (the header is in ascending tag order but for
    /// a Reject's reverse route, which is kept together).
    /// BodyLength is counted from the parts before they are written, so the
    /// message is written once, in place.
    fn frame_into_output(
        &mut self,
        now: SystemTime,
        msg_type: &[u8],
        stamp: Stamp<'_>,
        body: &[u8],
    ) -> usize {
        let ts = self.timestamp(now);
        let ts = ts.as_bytes();
        let body_len = self.body_length(msg_type, stamp, ts.len(), body.len());
        let id = &self.config.id;
        let sub = &self.config.sub_ids;
        let out = &mut self.output;
        let start = out.len();
        push_field(out, 8, id.begin_string.as_bytes());
        out.extend_from_slice(b"9=");
        push_uint(out, body_len as u64);
        out.push(SOH);
        let body_start = out.len();
        push_field(out, 35, msg_type);
        out.extend_from_slice(b"34=");
        push_uint(out, stamp.seq);
        out.push(SOH);
        if stamp.orig_sending_time.is_some() {
            push_field(out, 43, b"Y");
        }
        let optional = |out: &mut Vec<u8>, tag: u32, v: &Option<String>| {
            if let Some(v) = v {
                push_field(out, tag, v.as_bytes());
            }
        };
        push_field(out, 49, id.sender_comp_id.as_bytes());
        optional(out, 50, &sub.sender_sub_id);
        push_field(out, 52, ts);
        push_field(out, 56, id.target_comp_id.as_bytes());
        optional(out, 57, &sub.target_sub_id);
        if stamp.poss_resend {
            push_field(out, 97, b"Y");
        }
        out.extend_from_slice(&self.route);
        if let Some(orig) = stamp.orig_sending_time {
            push_field(out, 122, orig);
        }
        optional(out, 142, &sub.sender_location_id);
        optional(out, 143, &sub.target_location_id);
        out.extend_from_slice(body);
        debug_assert_eq!(out.len() - body_start, body_len, "BodyLength counted");
        let sum = fix_core::checksum(&out[start..]);
        out.extend_from_slice(b"10=");
        out.extend_from_slice(&[b'0' + sum / 100, b'0' + sum / 10 % 10, b'0' + sum % 10]);
        out.push(SOH);
        start
    }
}

/// How many decimal digits `n` is written with.
fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |d| d as usize + 1)
}

/// The fields of `fields` that are there, in order, and how many: a fixed list of
/// optional fields with no collection to grow.
fn present<const N: usize>(fields: [Option<(u32, &[u8])>; N]) -> ([(u32, &[u8]); N], usize) {
    let mut out = [(0, &[][..]); N];
    let mut n = 0;
    for field in fields.into_iter().flatten() {
        out[n] = field;
        n += 1;
    }
    (out, n)
}

/// Whether the session writes `tag` itself when it stamps a message (the rest of
/// a stored message, header fields the application gave such as OnBehalfOfCompID
/// included, is resent as it was).
fn stamped(tag: u32) -> bool {
    matches!(tag, 8 | 9 | 10 | 34 | 35 | 43 | 49 | 52 | 56 | 97 | 122)
}
