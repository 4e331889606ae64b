//! `--summary`: counts per MsgType and per session, and sequence gaps per direction.
//!
//! Memory is bounded by the number of distinct MsgTypes and CompID pairs; each
//! direction keeps at most [`MAX_GAPS_LISTED`] gaps (all are counted).

use std::collections::HashMap;
use std::fmt::Write as _;

use fix_cli::render::{Tables, json_str, push_u64};
use fix_cli::scan::Decoded;

/// Gaps listed per direction; the rest are only counted.
const MAX_GAPS_LISTED: usize = 20;

/// One direction of a session: SenderCompID → TargetCompID.
#[derive(Debug, Default)]
struct Direction {
    /// Messages counted (after filters).
    messages: u64,
    first_seq: Option<u64>,
    last_seq: Option<u64>,
    /// The next MsgSeqNum expected.
    expected: Option<u64>,
    gaps: u64,
    missing: u64,
    /// `(first missing, last missing)`.
    listed: Vec<(u64, u64)>,
    /// MsgSeqNum lower than expected without PossDupFlag (a reset or a replay).
    lower: u64,
}

/// The running summary.
#[derive(Debug, Default)]
pub(crate) struct Summary {
    /// MsgType → count.
    types: HashMap<Box<[u8]>, u64>,
    /// `(sender SOH target, direction)`, in order of appearance.
    sessions: Vec<(Box<[u8]>, Direction)>,
    /// `sender SOH target` → index in `sessions`.
    session_index: HashMap<Box<[u8]>, usize>,
    /// The index of the last direction used: most messages follow one of the same
    /// direction, and comparing is cheaper than hashing.
    last: usize,
    /// Reused key storage.
    key: Vec<u8>,
    /// Messages counted (after filters).
    pub(crate) messages: u64,
    /// Of those, messages with a problem.
    pub(crate) problems: u64,
}

impl Summary {
    fn direction(&mut self, m: &Decoded<'_>) -> Option<&mut Direction> {
        let (sender, target) = (m.get(49)?, m.get(56)?);
        self.key.clear();
        self.key.extend_from_slice(sender);
        self.key.push(0x01);
        self.key.extend_from_slice(target);
        let same = self
            .sessions
            .get(self.last)
            .is_some_and(|(k, _)| **k == *self.key);
        if !same {
            self.last = match self.session_index.get(self.key.as_slice()) {
                Some(&i) => i,
                None => {
                    let i = self.sessions.len();
                    self.sessions
                        .push((self.key.as_slice().into(), Direction::default()));
                    self.session_index.insert(self.key.as_slice().into(), i);
                    i
                }
            };
        }
        self.sessions.get_mut(self.last).map(|(_, d)| d)
    }

    /// Follows MsgSeqNum for every message, filtered or not: gaps are about the
    /// stream, not about what is shown.
    pub(crate) fn sequence(&mut self, m: &Decoded<'_>, msg_type: &[u8]) {
        let Some(seq) = m.get(34).and_then(parse_u64) else {
            return;
        };
        let poss_dup = m.get(43) == Some(b"Y");
        let reset_logon = msg_type == b"A" && m.get(141) == Some(b"Y");
        let seq_reset = msg_type == b"4";
        let gap_fill = seq_reset && m.get(123) == Some(b"Y");
        let new_seq = if seq_reset {
            m.get(36).and_then(parse_u64)
        } else {
            None
        };
        let Some(d) = self.direction(m) else {
            return;
        };
        d.first_seq.get_or_insert(seq);
        d.last_seq = Some(seq);
        let checked = !reset_logon && (!seq_reset || gap_fill);
        match d.expected {
            Some(exp) if checked && seq > exp => {
                d.gaps += 1;
                d.missing += seq - exp;
                if d.listed.len() < MAX_GAPS_LISTED {
                    d.listed.push((exp, seq - 1));
                }
            }
            Some(exp) if checked && seq < exp && !poss_dup => d.lower += 1,
            _ => {}
        }
        d.expected = match (new_seq, d.expected) {
            (Some(n), _) => Some(n),
            (None, Some(exp)) if poss_dup && seq < exp => Some(exp),
            _ => Some(seq + 1),
        };
    }

    /// Counts a message that passed the filters (every mode).
    pub(crate) fn count_light(&mut self, problem: bool) {
        self.messages += 1;
        self.problems += u64::from(problem);
    }

    /// Counts a message that passed the filters by MsgType and session.
    pub(crate) fn count(&mut self, m: &Decoded<'_>, msg_type: &[u8]) {
        match self.types.get_mut(msg_type) {
            Some(n) => *n += 1,
            None => {
                self.types.insert(msg_type.into(), 1);
            }
        }
        if let Some(d) = self.direction(m) {
            d.messages += 1;
        }
    }

    fn sorted_types(&self) -> Vec<(&[u8], u64)> {
        let mut v: Vec<_> = self.types.iter().map(|(k, &n)| (&**k, n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        v
    }

    fn sorted_sessions(&self) -> Vec<(&[u8], &[u8], &Direction)> {
        let mut v: Vec<_> = self
            .sessions
            .iter()
            .map(|(k, d)| {
                let i = k.iter().position(|&b| b == 0x01).unwrap_or(k.len());
                (&k[..i], k.get(i + 1..).unwrap_or_default(), d)
            })
            .collect();
        // Both directions of a session together.
        v.sort_by(|a, b| {
            let ka = (a.0.min(a.1), a.0.max(a.1), a.0);
            let kb = (b.0.min(b.1), b.0.max(b.1), b.0);
            ka.cmp(&kb)
        });
        v
    }

    /// The summary as text.
    pub(crate) fn text(&self, tables: &Tables<'_>, skipped_lines: u64) -> String {
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{}, {} with problems, {} without a FIX message skipped",
            crate::plural(self.messages, "message"),
            self.problems,
            crate::plural(skipped_lines, "line"),
        );
        s.push_str("\nMessages by MsgType:\n");
        for (t, n) in self.sorted_types() {
            let name = tables.message_name(t).unwrap_or("?");
            let _ = writeln!(s, "{n:>10}  {:<4} {name}", String::from_utf8_lossy(t));
        }
        s.push_str("\nSessions (SenderCompID -> TargetCompID):\n");
        for (sender, target, d) in self.sorted_sessions() {
            let _ = write!(
                s,
                "  {} -> {}: {} messages",
                String::from_utf8_lossy(sender),
                String::from_utf8_lossy(target),
                d.messages
            );
            if let (Some(a), Some(b)) = (d.first_seq, d.last_seq) {
                let _ = write!(s, ", MsgSeqNum {a}..{b}");
            }
            if d.gaps == 0 {
                s.push_str(", no gaps");
            } else {
                let _ = write!(
                    s,
                    ", {} {} ({} missing):",
                    d.gaps,
                    if d.gaps == 1 { "gap" } else { "gaps" },
                    d.missing
                );
                for (a, b) in &d.listed {
                    if a == b {
                        let _ = write!(s, " {a}");
                    } else {
                        let _ = write!(s, " {a}-{b}");
                    }
                }
                if d.gaps as usize > d.listed.len() {
                    s.push_str(" …");
                }
            }
            if d.lower > 0 {
                let _ = write!(s, ", {} lower than expected", d.lower);
            }
            s.push('\n');
        }
        s
    }

    /// The summary as one JSON object.
    pub(crate) fn json(&self, tables: &Tables<'_>, skipped_lines: u64) -> Vec<u8> {
        let mut o = Vec::new();
        o.extend_from_slice(b"{\"messages\":");
        push_u64(&mut o, self.messages);
        o.extend_from_slice(b",\"problems\":");
        push_u64(&mut o, self.problems);
        o.extend_from_slice(b",\"skipped_lines\":");
        push_u64(&mut o, skipped_lines);
        o.extend_from_slice(b",\"msg_types\":[");
        for (i, (t, n)) in self.sorted_types().into_iter().enumerate() {
            if i > 0 {
                o.push(b',');
            }
            o.extend_from_slice(b"{\"msg_type\":");
            json_str(&mut o, t);
            if let Some(name) = tables.message_name(t) {
                o.extend_from_slice(b",\"name\":");
                json_str(&mut o, name.as_bytes());
            }
            o.extend_from_slice(b",\"count\":");
            push_u64(&mut o, n);
            o.push(b'}');
        }
        o.extend_from_slice(b"],\"sessions\":[");
        for (i, (sender, target, d)) in self.sorted_sessions().into_iter().enumerate() {
            if i > 0 {
                o.push(b',');
            }
            o.extend_from_slice(b"{\"sender\":");
            json_str(&mut o, sender);
            o.extend_from_slice(b",\"target\":");
            json_str(&mut o, target);
            o.extend_from_slice(b",\"messages\":");
            push_u64(&mut o, d.messages);
            if let (Some(a), Some(b)) = (d.first_seq, d.last_seq) {
                o.extend_from_slice(b",\"first_seq\":");
                push_u64(&mut o, a);
                o.extend_from_slice(b",\"last_seq\":");
                push_u64(&mut o, b);
            }
            o.extend_from_slice(b",\"gaps\":");
            push_u64(&mut o, d.gaps);
            o.extend_from_slice(b",\"missing\":");
            push_u64(&mut o, d.missing);
            o.extend_from_slice(b",\"gap_list\":[");
            for (j, (a, b)) in d.listed.iter().enumerate() {
                if j > 0 {
                    o.push(b',');
                }
                o.push(b'[');
                push_u64(&mut o, *a);
                o.push(b',');
                push_u64(&mut o, *b);
                o.push(b']');
            }
            o.extend_from_slice(b"],\"lower_than_expected\":");
            push_u64(&mut o, d.lower);
            o.push(b'}');
        }
        o.extend_from_slice(b"]}\n");
        o
    }
}

fn parse_u64(v: &[u8]) -> Option<u64> {
    fix_core::value::parse_digits(v, 19)
}
