//! QuickFIX's `.def` acceptance scripts: read into steps, messages built from
//! their templates (`<TIME>` substituted, BodyLength and CheckSum inserted), and
//! received messages compared with expected ones the way QuickFIX's runner does.

use std::time::{Duration, SystemTime};

use regex::Regex;

const SOH: u8 = 0x01;

/// One line of a script that does something. `conn` is the connection number
/// (1 when the line has no `N,` prefix).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Step {
    /// `iCONNECT`: open a connection.
    Connect { conn: u32 },
    /// `iDISCONNECT`: close it from our side.
    Disconnect { conn: u32 },
    /// `eDISCONNECT`: the engine must close it, sending nothing first.
    ExpectDisconnect { conn: u32 },
    /// `I<msg>`: send this template (see [`build`]).
    Send { conn: u32, template: Vec<u8> },
    /// `E<msg>`: the next message received must match this.
    Expect { conn: u32, template: Vec<u8> },
}

/// The steps of a script, with the line number each came from; an unknown line
/// is an error naming it.
pub fn parse(text: &[u8]) -> Result<Vec<(usize, Step)>, String> {
    let mut steps = Vec::new();
    for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line = raw.strip_suffix(b"\r").unwrap_or(raw);
        let trimmed = trim_ascii(line);
        if trimmed.is_empty() || trimmed.starts_with(b"#") {
            continue;
        }
        let (kind, rest) = (line[0], &line[1..]);
        // An optional connection number: digits then a comma (`I2,8=...`), not
        // digits then `=` (`I8=...`).
        let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
        let (conn, rest) = if digits > 0 && rest.get(digits) == Some(&b',') {
            let n = std::str::from_utf8(&rest[..digits])
                .unwrap()
                .parse()
                .unwrap();
            (n, &rest[digits + 1..])
        } else {
            (1, rest)
        };
        // Some scripts end with a directive and no newline, glued to the next
        // file's comment when concatenated; only the word counts.
        let word = |w: &[u8]| rest.starts_with(w);
        let step = match kind {
            b'i' if word(b"CONNECT") => Step::Connect { conn },
            b'i' if word(b"DISCONNECT") => Step::Disconnect { conn },
            b'e' if word(b"DISCONNECT") => Step::ExpectDisconnect { conn },
            b'I' => Step::Send {
                conn,
                template: rest.to_vec(),
            },
            b'E' => Step::Expect {
                conn,
                template: rest.to_vec(),
            },
            _ => {
                return Err(format!(
                    "line {}: unknown directive {:?}",
                    i + 1,
                    String::from_utf8_lossy(line)
                ));
            }
        };
        steps.push((i + 1, step));
    }
    Ok(steps)
}

fn trim_ascii(s: &[u8]) -> &[u8] {
    let start = s
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(s.len());
    let end = s
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |e| e + 1);
    &s[start..end.max(start)]
}

/// `<TIME>`, `<TIME+N>` and `<TIME-N>` replaced by `now` (shifted N seconds) as
/// `YYYYMMDD-HH:MM:SS`.
pub fn substitute_time(template: &[u8], now: SystemTime) -> Vec<u8> {
    let mut out = Vec::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(at) = find(rest, b"<TIME") {
        out.extend_from_slice(&rest[..at]);
        let after = &rest[at + 5..];
        let Some(close) = after.iter().position(|&b| b == b'>') else {
            out.extend_from_slice(&rest[at..]);
            return out;
        };
        let shift = std::str::from_utf8(&after[..close]).unwrap_or("");
        let t = match shift.as_bytes().first() {
            Some(b'+') => now + Duration::from_secs(shift[1..].parse().unwrap_or(0)),
            Some(b'-') => now - Duration::from_secs(shift[1..].parse().unwrap_or(0)),
            _ => now,
        };
        out.extend_from_slice(&fix_session::time::format_timestamp(t)[..17]);
        rest = &after[close + 1..];
    }
    out.extend_from_slice(rest);
    out
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A message to send from a template: times substituted, then `9=` inserted after
/// the first field unless the template has a BodyLength, and `10=` appended unless
/// it ends with a CheckSum (scripts testing a bad length or checksum give theirs).
pub fn build(template: &[u8], now: SystemTime) -> Vec<u8> {
    let msg = substitute_time(template, now);
    let fields = split(&msg);
    let has_length = fields.iter().any(|(t, _)| *t == b"9");
    let has_checksum = fields.last().is_some_and(|(t, _)| *t == b"10");
    let mut out = Vec::with_capacity(msg.len() + 16);
    if has_length {
        out.extend_from_slice(&msg);
    } else {
        let first_end = msg
            .iter()
            .position(|&b| b == SOH)
            .map_or(msg.len(), |p| p + 1);
        let body = &msg[first_end..];
        // BodyLength stops before a CheckSum the script gives.
        let trailer = if has_checksum {
            body.strip_suffix(&[SOH])
                .unwrap_or(body)
                .iter()
                .rposition(|&b| b == SOH)
                .map_or(0, |p| body.len() - p - 1)
        } else {
            0
        };
        out.extend_from_slice(&msg[..first_end]);
        out.extend_from_slice(format!("9={}\x01", body.len() - trailer).as_bytes());
        out.extend_from_slice(body);
    }
    if !has_checksum {
        let sum = out.iter().fold(0u32, |s, &b| s + u32::from(b)) % 256;
        out.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    }
    out
}

/// `tag=value` pairs split at SOH (a trailing SOH ends the last field).
pub fn split(msg: &[u8]) -> Vec<(&[u8], &[u8])> {
    let msg = msg.strip_suffix(&[SOH]).unwrap_or(msg);
    if msg.is_empty() {
        return Vec::new();
    }
    msg.split(|&b| b == SOH)
        .map(|f| match f.iter().position(|&b| b == b'=') {
            Some(eq) => (&f[..eq], &f[eq + 1..]),
            None => (f, &b""[..]),
        })
        .collect()
}

/// `fields.fmt`: the tags whose expected value is a placeholder, each with the
/// regular expression the received value must match.
#[derive(Debug)]
pub struct Formats(Vec<(Vec<u8>, Regex)>);

impl Formats {
    /// Reads `tag=regex` lines.
    pub fn parse(text: &str) -> Formats {
        let mut formats = Vec::new();
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let (tag, re) = line.split_once('=').expect("fields.fmt: tag=regex");
            // Anchored at the start only, as QuickFIX's runner matches: its
            // OrigSendingTime format has no milliseconds, QuickFIX writes them.
            let re = Regex::new(&format!("^(?:{re})")).expect("fields.fmt: a valid regex");
            formats.push((tag.as_bytes().to_vec(), re));
        }
        Formats(formats)
    }

    fn format(&self, tag: &[u8]) -> Option<&Regex> {
        self.0.iter().find(|(t, _)| t == tag).map(|(_, re)| re)
    }
}

/// Compares `received` with `expected` (built like a sent message): the same tags in the
/// same order, values equal except for `fields.fmt` tags, whose received value
/// must match the format. On a mismatch, both messages with the first differing
/// field marked `>>…<<`.
pub fn compare(expected: &[u8], received: &[u8], formats: &Formats) -> Result<(), String> {
    let mut exp = split(expected);
    if exp.last().is_none_or(|(t, _)| *t != b"10") {
        exp.push((b"10", b"000"));
    }
    let got = split(received);
    let n = exp.len().max(got.len());
    for i in 0..n {
        let ok = match (exp.get(i), got.get(i)) {
            (Some((et, ev)), Some((gt, gv))) => {
                et == gt
                    && match formats.format(et) {
                        Some(re) => std::str::from_utf8(gv).is_ok_and(|v| re.is_match(v)),
                        None => ev == gv,
                    }
            }
            _ => false,
        };
        if !ok {
            return Err(format!(
                "field {} differs\n    expected {}\n    received {}",
                i + 1,
                show(&exp, i),
                show(&got, i)
            ));
        }
    }
    Ok(())
}

/// The fields joined with `|`, field `mark` in `>>…<<` (or `>><<` past the end).
pub fn show(fields: &[(&[u8], &[u8])], mark: usize) -> String {
    let mut s = String::new();
    for (i, (t, v)) in fields.iter().enumerate() {
        let f = format!(
            "{}={}",
            String::from_utf8_lossy(t),
            String::from_utf8_lossy(v)
        );
        if i == mark {
            s.push_str(&format!(">>{f}<<|"));
        } else {
            s.push_str(&f);
            s.push('|');
        }
    }
    if mark >= fields.len() {
        s.push_str(">><<");
    }
    s
}

#[test]
fn directives_and_connection_numbers() {
    let steps =
        parse(b"# c\n\niCONNECT\nI2,8=FIX.4.4\x01\ne2,DISCONNECT\nE8=X\x01\neDISCONNECT# glued")
            .unwrap();
    let steps: Vec<Step> = steps.into_iter().map(|(_, s)| s).collect();
    assert_eq!(
        steps,
        [
            Step::Connect { conn: 1 },
            Step::Send {
                conn: 2,
                template: b"8=FIX.4.4\x01".to_vec()
            },
            Step::ExpectDisconnect { conn: 2 },
            Step::Expect {
                conn: 1,
                template: b"8=X\x01".to_vec()
            },
            Step::ExpectDisconnect { conn: 1 },
        ]
    );
}

#[test]
fn build_inserts_length_and_checksum() {
    let msg = build(b"8=FIX.4.4\x0135=0\x01", std::time::UNIX_EPOCH);
    assert_eq!(msg, b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01");
    let t = std::time::UNIX_EPOCH + Duration::from_secs(61);
    assert_eq!(
        substitute_time(b"52=<TIME+1>\x01", t),
        b"52=19700101-00:01:02\x01"
    );
}
