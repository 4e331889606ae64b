//! Shared by fix-core's integration tests: the corpus, a message builder, and a
//! naive reference parser that the fast one is compared against.
#![allow(dead_code, unreachable_pub)] // each test binary uses a different part

use std::path::PathBuf;

pub const SOH: u8 = 0x01;

/// A message as `(tag, value)` pairs, the form both parsers are compared in.
pub type Owned = Vec<(u32, Vec<u8>)>;

/// `../shared/corpus`, beside the repository.
pub fn corpus_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus")
}

/// Every corpus message, by file stem, in name order.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("../shared/corpus is readable")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "fix"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    assert_eq!(out.len(), 5, "the corpus has five messages");
    out
}

pub fn corpus_message(name: &str) -> Vec<u8> {
    std::fs::read(corpus_dir().join(format!("{name}.fix"))).unwrap()
}

/// `|` shown as SOH, for readable test literals.
pub fn soh(s: &str) -> Vec<u8> {
    s.bytes().map(|b| if b == b'|' { SOH } else { b }).collect()
}

/// A message with BeginString `FIX.4.4` around `body` (which starts with `35=`),
/// with the right BodyLength and CheckSum.
pub fn build(body: &[u8]) -> Vec<u8> {
    build_with("FIX.4.4", body)
}

pub fn build_with(begin: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!("8={begin}\x019={}\x01", body.len()).into_bytes();
    out.extend_from_slice(body);
    let sum = out.iter().fold(0u8, |s, &b| s.wrapping_add(b));
    out.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    out
}

/// Replaces the CheckSum of a message whose bytes were edited.
pub fn fix_checksum(msg: &mut Vec<u8>) {
    let trailer = msg.len() - 7;
    let sum = msg[..trailer].iter().fold(0u8, |s, &b| s.wrapping_add(b));
    msg.truncate(trailer);
    msg.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
}

/// The naive reference: is `buf`, exactly, one valid message? If so, its fields.
///
/// Written for obviousness, not speed: split field by field, then check the rules
/// the fast parser enforces (header order, BodyLength, CheckSum, tag syntax, data
/// fields read by length, non-empty values, size limit).
pub fn naive_parse(buf: &[u8], pairs: &[(u32, u32)], max: usize) -> Option<Owned> {
    let mut fields: Vec<(u32, usize, Vec<u8>)> = Vec::new();
    let mut pending: Option<(u32, usize)> = None;
    let mut i = 0;
    while i < buf.len() {
        let mut j = i;
        while j < buf.len() && buf[j].is_ascii_digit() {
            j += 1;
        }
        if j == i || j >= buf.len() || buf[j] != b'=' {
            return None;
        }
        let digits = std::str::from_utf8(&buf[i..j]).unwrap();
        if digits.starts_with('0') || digits.len() > 10 {
            return None;
        }
        let tag: u64 = digits.parse().unwrap();
        let tag = u32::try_from(tag).ok()?;
        let start = j + 1;
        let end = match pending.take() {
            Some((data, n)) if data == tag => {
                let end = start + n;
                if end >= buf.len() || buf[end] != SOH {
                    return None;
                }
                end
            }
            _ => start + buf[start..].iter().position(|&b| b == SOH)?,
        };
        let value = buf[start..end].to_vec();
        if value.is_empty() {
            return None;
        }
        if let Some(&(_, data)) = pairs.iter().find(|(len, _)| *len == tag) {
            if value.len() > 10 || !value.iter().all(u8::is_ascii_digit) {
                return None;
            }
            let n: usize = std::str::from_utf8(&value).unwrap().parse().unwrap();
            pending = Some((data, n));
        }
        fields.push((tag, i, value));
        i = end + 1;
    }
    if buf.len() > max || fields.len() < 4 {
        return None;
    }
    let (begin, body_len, msg_type) = (&fields[0], &fields[1], &fields[2]);
    if begin.0 != 8 || !begin.2.starts_with(b"FIX") || begin.2.len() > 16 {
        return None;
    }
    if body_len.0 != 9 || !body_len.2.iter().all(u8::is_ascii_digit) || body_len.2.len() > 20 {
        return None;
    }
    if msg_type.0 != 35 {
        return None;
    }
    let trailer = fields.last().unwrap();
    if trailer.0 != 10 || trailer.2.len() != 3 || !trailer.2.iter().all(u8::is_ascii_digit) {
        return None;
    }
    // The trailer must be the only field at or after the body's end, and data
    // fields must end before it.
    let body_start = msg_type.1;
    let body_end = trailer.1;
    let declared_len: usize = std::str::from_utf8(&body_len.2).unwrap().parse().ok()?;
    if declared_len != body_end - body_start {
        return None;
    }
    let sum = buf[..body_end].iter().fold(0u8, |s, &b| s.wrapping_add(b));
    let declared_sum: u32 = std::str::from_utf8(&trailer.2).unwrap().parse().unwrap();
    if declared_sum != u32::from(sum) {
        return None;
    }
    Some(fields.into_iter().map(|(t, _, v)| (t, v)).collect())
}

/// FIX 4.4's data field pairs, as the naive parser takes them.
pub fn fix44_pairs() -> Vec<(u32, u32)> {
    fix_core::FIX44_DATA_FIELDS
        .iter()
        .map(|p| (p.length, p.data))
        .collect()
}
