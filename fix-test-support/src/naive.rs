//! A naive reference parser, written for obviousness, that the fast parser is
//! compared against; and builders of test messages with the right BodyLength and
//! CheckSum.
//!
//! ```
//! use fix_test_support::naive::{build, naive_parse, soh};
//! let msg = build(&soh("35=0|112=T|"));
//! let fields = naive_parse(&msg, &[], usize::MAX).unwrap();
//! assert_eq!(fields[3], (112, b"T".to_vec()));
//! ```

/// The field delimiter.
pub const SOH: u8 = 0x01;

/// A message as `(tag, value)` pairs, the form both parsers are compared in.
///
/// ```
/// let m: fix_test_support::naive::Owned = vec![(35, b"0".to_vec())];
/// # let _ = m;
/// ```
pub type Owned = Vec<(u32, Vec<u8>)>;

/// `|` shown as SOH, for readable test literals.
///
/// ```
/// assert_eq!(fix_test_support::naive::soh("35=0|"), b"35=0\x01");
/// ```
pub fn soh(s: &str) -> Vec<u8> {
    s.bytes().map(|b| if b == b'|' { SOH } else { b }).collect()
}

/// A message with BeginString `FIX.4.4` around `body` (which starts with `35=`),
/// with the right BodyLength and CheckSum.
///
/// ```
/// let m = fix_test_support::naive::build(b"35=0\x01");
/// assert_eq!(m, b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01");
/// ```
pub fn build(body: &[u8]) -> Vec<u8> {
    build_with("FIX.4.4", body)
}

/// A message with BeginString `begin` around `body`, with the right BodyLength
/// and CheckSum.
///
/// ```
/// let m = fix_test_support::naive::build_with("FIX.4.2", b"35=0\x01");
/// assert!(m.starts_with(b"8=FIX.4.2\x019=5\x01"));
/// ```
pub fn build_with(begin: &str, body: &[u8]) -> Vec<u8> {
    let mut out = format!("8={begin}\x019={}\x01", body.len()).into_bytes();
    out.extend_from_slice(body);
    let sum = out.iter().fold(0u8, |s, &b| s.wrapping_add(b));
    out.extend_from_slice(format!("10={sum:03}\x01").as_bytes());
    out
}

/// Replaces the CheckSum of a message whose bytes were edited.
///
/// ```
/// use fix_test_support::naive::{build, fix_checksum};
/// let mut m = build(b"35=0\x01");
/// m[17] = b'1';
/// fix_checksum(&mut m);
/// assert_eq!(m, build(b"35=1\x01"));
/// ```
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
/// fields read by length, non-empty values, size limit). `pairs` are the
/// `(LENGTH tag, DATA tag)` pairs; `max` the largest message accepted.
///
/// ```
/// use fix_test_support::naive::{build, naive_parse};
/// assert!(naive_parse(&build(b"35=0\x01"), &[], usize::MAX).is_some());
/// assert!(naive_parse(b"8=FIX.4.4\x01", &[], usize::MAX).is_none());
/// ```
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
