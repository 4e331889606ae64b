//! Framing: finding one complete, intact FIX message at the start of a byte stream.

use crate::parser::Parser;
use crate::scan::{SOH, checksum};
use crate::{Error, Field};

/// The longest BeginString (8) value accepted (`FIXT.1.1` has 8 bytes).
pub const MAX_BEGIN_STRING: usize = 16;

/// BodyLength (9) values with more digits than this are rejected, even all zeros;
/// an error reports up to this many as written.
const MAX_BODY_LENGTH_DIGITS: usize = crate::Digits::CAPACITY;

/// `10=NNN<SOH>`: the trailer is always seven bytes.
const TRAILER_LEN: usize = 7;

/// The outcome of framing or parsing input that may hold only part of a message.
///
/// ```
/// use fix_core::{Parser, Status};
///
/// let msg = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01";
/// assert_eq!(Parser::new().frame(&msg[..4]).unwrap(), Status::Partial { needed: None });
/// assert_eq!(
///     Parser::new().frame(&msg[..20]).unwrap(),
///     Status::Partial { needed: Some(msg.len() - 20) }
/// );
/// assert!(Parser::new().frame(msg).unwrap().is_complete());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status<T> {
    /// A whole message is at the start of the input.
    Complete(T),
    /// The input is a valid beginning of a message; read more.
    Partial {
        /// How many more bytes complete the message, once BodyLength is known.
        needed: Option<usize>,
    },
}

impl<T> Status<T> {
    /// Whether the status is [`Status::Complete`].
    ///
    /// ```
    /// assert!(fix_core::Status::Complete(()).is_complete());
    /// ```
    pub fn is_complete(&self) -> bool {
        matches!(self, Status::Complete(_))
    }

    /// The complete value, or `None` for a partial input.
    ///
    /// ```
    /// assert_eq!(fix_core::Status::Complete(7).complete(), Some(7));
    /// ```
    pub fn complete(self) -> Option<T> {
        match self {
            Status::Complete(t) => Some(t),
            Status::Partial { .. } => None,
        }
    }
}

/// One framed message: BeginString, BodyLength, MsgType and CheckSum checked.
///
/// ```
/// use fix_core::Parser;
///
/// let stream = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01tail";
/// let frame = Parser::new().frame(stream).unwrap().complete().unwrap();
/// assert_eq!(frame.len(), stream.len() - 4);
/// assert_eq!(frame.begin_string(), b"FIX.4.4");
/// assert_eq!(frame.msg_type(), b"0");
/// assert_eq!(frame.body(), b"35=0\x01");
/// assert_eq!(frame.checksum(), 163);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame<'a> {
    bytes: &'a [u8],
    begin_end: usize,
    body_start: usize,
    msg_type_end: usize,
    body_end: usize,
}

impl<'a> Frame<'a> {
    /// The whole message, from `8=` to the SOH after CheckSum.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The message's length: the bytes a stream reader consumes for it.
    #[allow(clippy::len_without_is_empty)] // a frame is never empty
    pub fn len(&self) -> usize {
        self.bytes.len()
    }

    /// BeginString (8), e.g. `FIX.4.4`.
    pub fn begin_string(&self) -> &'a [u8] {
        &self.bytes[2..self.begin_end]
    }

    /// MsgType (35), e.g. `8` for ExecutionReport.
    pub fn msg_type(&self) -> &'a [u8] {
        &self.bytes[self.body_start + 3..self.msg_type_end]
    }

    /// The body BodyLength counts: from `35=` to the SOH before `10=`.
    pub fn body(&self) -> &'a [u8] {
        &self.bytes[self.body_start..self.body_end]
    }

    /// Offset of the body (the `3` of `35=`) in [`Frame::bytes`].
    pub fn body_start(&self) -> usize {
        self.body_start
    }

    /// Offset of the trailer (the `1` of `10=`) in [`Frame::bytes`].
    pub fn body_end(&self) -> usize {
        self.body_end
    }

    /// BeginString (8), BodyLength (9) and MsgType (35) as fields: framing has
    /// found them already, so indexing starts after them.
    pub(crate) fn header_fields(&self) -> [Field; 3] {
        let span = |start: usize, end: usize| (start as u32, (end - start) as u32);
        let (b, bl) = span(2, self.begin_end);
        let (l, ll) = span(self.begin_end + 3, self.body_start - 1);
        let (m, ml) = span(self.body_start + 3, self.msg_type_end);
        [
            Field::new(8, b, bl),
            Field::new(9, l, ll),
            Field::new(35, m, ml),
        ]
    }

    /// Offset of the SOH that ends MsgType.
    pub(crate) fn msg_type_end(&self) -> usize {
        self.msg_type_end
    }

    /// The CheckSum (10) the message carries: three digits, so at most 999 when the
    /// parser does not validate it, and equal to the byte sum modulo 256 when it does.
    pub fn checksum(&self) -> u16 {
        three_digits(&self.bytes[self.body_end + 3..self.body_end + 6])
    }
}

/// The value of three ASCII digits (checked by the caller).
fn three_digits(d: &[u8]) -> u16 {
    d.iter().fold(0, |n, &b| n * 10 + u16::from(b - b'0'))
}

/// Compares the available prefix of `buf[at..]` with `expected`: `Ok(true)` when all
/// of `expected` is there, `Ok(false)` when what is there matches so far.
#[inline(always)]
fn expect_prefix(buf: &[u8], at: usize, expected: &[u8]) -> Result<bool, ()> {
    for (i, &e) in expected.iter().enumerate() {
        match buf.get(at + i) {
            None => return Ok(false),
            Some(&b) if b != e => return Err(()),
            Some(_) => {}
        }
    }
    Ok(true)
}

/// Offset of the next possible message start in `buf` after its first byte: an
/// `8=FIX` not preceded by a digit (so the `8=` of `58=FIX…` does not count), or a
/// partial one running to the end of the input; `buf.len()` when there is none.
///
/// ```
/// assert_eq!(fix_core::resync(b"xx\x018=FIX.4.4\x01"), 3);
/// assert_eq!(fix_core::resync(b"58=FIX 8=FI"), 7);
/// assert_eq!(fix_core::resync(b"8=FIX.4.4\x019=oops"), 16);
/// ```
pub fn resync(buf: &[u8]) -> usize {
    const START: &[u8] = b"8=FIX";
    (1..buf.len())
        .find(|&i| {
            let rest = &buf[i..];
            let n = rest.len().min(START.len());
            rest[..n] == START[..n] && !buf[i - 1].is_ascii_digit()
        })
        .unwrap_or(buf.len())
}

pub(crate) fn frame<'a>(parser: &Parser<'_>, buf: &'a [u8]) -> Result<Status<Frame<'a>>, Error> {
    if let Some(frame) = frame_whole(parser, buf) {
        return Ok(Status::Complete(frame));
    }
    frame_general(parser, buf)
}

/// The common case in a few straight-line checks: a whole, well-formed message at
/// the start of `buf` with a short BodyLength. `None` sends anything else (partial
/// input, errors, unusual headers) to [`frame_general`], which decides it; this
/// path only ever accepts what that one would.
#[inline(always)]
fn frame_whole<'a>(parser: &Parser<'_>, buf: &'a [u8]) -> Option<Frame<'a>> {
    // 32 bytes hold `8=` + a 16-byte BeginString + SOH + `9=` + 7 digits + SOH.
    let head = buf.get(..32)?;
    if head[..5] != *b"8=FIX" {
        return None;
    }
    let begin_end = 5 + head[5..19].iter().position(|&b| b == SOH)?;
    if head[begin_end + 1..begin_end + 3] != *b"9=" {
        return None;
    }
    let digits_at = begin_end + 3;
    let mut at = digits_at;
    let mut body_len = 0usize;
    while at < digits_at + 7 && head[at].is_ascii_digit() {
        body_len = body_len * 10 + usize::from(head[at] - b'0');
        at += 1;
    }
    if at == digits_at || head[at] != SOH {
        return None;
    }
    let body_start = at + 1;
    let body_end = body_start + body_len;
    let total = body_end + TRAILER_LEN;
    if body_len < 5 || total > buf.len() || total > parser.max_message_size() {
        return None;
    }
    if buf[body_start..body_start + 3] != *b"35=" || buf[body_end - 1] != SOH {
        return None;
    }
    let msg_type_end = body_start
        + 3
        + buf[body_start + 3..body_end]
            .iter()
            .position(|&b| b == SOH)?;
    let trailer = &buf[body_end..total];
    if msg_type_end == body_start + 3
        || trailer[..3] != *b"10="
        || !trailer[3..6].iter().all(u8::is_ascii_digit)
        || trailer[6] != SOH
    {
        return None;
    }
    if parser.validates_checksum()
        && three_digits(&trailer[3..6]) != u16::from(checksum(&buf[..body_end]))
    {
        return None;
    }
    Some(Frame {
        bytes: &buf[..total],
        begin_end,
        body_start,
        msg_type_end,
        body_end,
    })
}

/// The error for a BodyLength at `digits_at` whose digits so far exceed `max`:
/// framing fails now rather than wait for the rest, but reports the whole
/// declared length as far as it has arrived, exactly.
#[cold]
#[inline(never)]
fn too_large(buf: &[u8], digits_at: usize, max: usize) -> Error {
    let rest = &buf[digits_at..];
    let digits = &rest[..rest.iter().take_while(|b| b.is_ascii_digit()).count()];
    if digits.len() > MAX_BODY_LENGTH_DIGITS {
        return Error::InvalidBodyLength { offset: digits_at };
    }
    let size = digits.iter().try_fold(0usize, |n, &d| {
        n.checked_mul(10)?.checked_add(usize::from(d - b'0'))
    });
    match size {
        Some(size) => Error::MessageTooLarge { size, max },
        None => Error::BodyLengthOverflow {
            declared: crate::Digits::new(digits),
        },
    }
}

/// Framing for any input: partial messages, every error, every header form.
fn frame_general<'a>(parser: &Parser<'_>, buf: &'a [u8]) -> Result<Status<Frame<'a>>, Error> {
    const PARTIAL: Status<Frame<'static>> = Status::Partial { needed: None };

    // BeginString (8): `8=FIX…<SOH>`.
    match expect_prefix(buf, 0, b"8=") {
        Ok(true) => {}
        Ok(false) => return Ok(PARTIAL),
        Err(()) => return Err(Error::Garbage { skip: resync(buf) }),
    }
    let window = &buf[2..buf.len().min(2 + MAX_BEGIN_STRING + 1)];
    let Some(begin_len) = window.iter().position(|&b| b == SOH) else {
        if window.len() > MAX_BEGIN_STRING || expect_prefix(window, 0, b"FIX").is_err() {
            return Err(Error::InvalidBeginString { offset: 2 });
        }
        return Ok(PARTIAL);
    };
    if !window[..begin_len].starts_with(b"FIX") {
        return Err(Error::InvalidBeginString { offset: 2 });
    }
    let begin_end = 2 + begin_len;

    // BodyLength (9): `9=digits<SOH>`.
    let nine = begin_end + 1;
    match expect_prefix(buf, nine, b"9=") {
        Ok(true) => {}
        Ok(false) => return Ok(PARTIAL),
        Err(()) => return Err(Error::BodyLengthMissing { offset: nine }),
    }
    let max = parser.max_message_size();
    let digits_at = nine + 2;
    let mut body_len = 0usize;
    let mut at = digits_at;
    loop {
        let Some(&b) = buf.get(at) else {
            return Ok(PARTIAL);
        };
        match b {
            b'0'..=b'9' if at - digits_at < MAX_BODY_LENGTH_DIGITS => {
                body_len = body_len
                    .saturating_mul(10)
                    .saturating_add((b - b'0') as usize);
                if body_len > max {
                    return Err(too_large(buf, digits_at, max));
                }
            }
            SOH if at > digits_at => break,
            _ => return Err(Error::InvalidBodyLength { offset: digits_at }),
        }
        at += 1;
    }
    let body_start = at + 1;
    let body_end = body_start + body_len;
    let total = body_end + TRAILER_LEN;
    if total > max {
        return Err(Error::MessageTooLarge { size: total, max });
    }

    // From here on the size is known, so a partial input says how much is missing.
    let partial = Status::Partial {
        needed: Some(total.saturating_sub(buf.len())),
    };

    // MsgType (35): `35=value<SOH>` within the body.
    match expect_prefix(buf, body_start, b"35=") {
        Ok(_) if body_len < 5 => {
            return Err(Error::BodyLengthMismatch { offset: body_end });
        }
        Ok(true) => {}
        Ok(false) => return Ok(partial),
        Err(()) => return Err(Error::MsgTypeMissing { offset: body_start }),
    }
    let value_start = body_start + 3;
    let in_body = &buf[value_start..buf.len().min(body_end)];
    let msg_type_end = match in_body.iter().position(|&b| b == SOH) {
        Some(0) => return Err(Error::MsgTypeMissing { offset: body_start }),
        Some(n) => value_start + n,
        None if buf.len() >= body_end => {
            return Err(Error::BodyLengthMismatch { offset: body_end });
        }
        None => return Ok(partial),
    };

    // The trailer `10=NNN<SOH>` right where BodyLength puts it; check what has
    // arrived so that a wrong BodyLength fails now, not after more input.
    if buf.len() > body_end {
        if buf[body_end - 1] != SOH || expect_prefix(buf, body_end, b"10=").is_err() {
            return Err(Error::BodyLengthMismatch { offset: body_end });
        }
        let value = buf
            .get(body_end + 3..buf.len().min(total))
            .unwrap_or_default();
        let digits_ok = value.iter().take(3).all(u8::is_ascii_digit);
        if !digits_ok || value.get(3).is_some_and(|&b| b != SOH) {
            return Err(Error::InvalidCheckSum {
                offset: body_end + 3,
            });
        }
    }
    if buf.len() < total {
        return Ok(partial);
    }

    let frame = Frame {
        bytes: &buf[..total],
        begin_end,
        body_start,
        msg_type_end,
        body_end,
    };
    let declared = three_digits(&buf[body_end + 3..body_end + 6]);
    if parser.validates_checksum() {
        let computed = checksum(&buf[..body_end]);
        if declared != u16::from(computed) {
            return Err(Error::CheckSumMismatch {
                offset: body_end + 3,
                declared,
                computed,
            });
        }
    }
    Ok(Status::Complete(frame))
}
