//! Encoding: a message written field by field into the caller's buffer, finished
//! with its real BodyLength and CheckSum.

use core::fmt;
use core::ops::Range;

use crate::scan::{SOH, checksum, contains_soh, soh_word};
use crate::value::digits::{digits_word, pair_word, store_word};
use crate::value::{BufferTooSmall, FieldValue, write_uint};

/// Why a message could not be encoded.
///
/// ```
/// use fix_core::{EncodeError, Encoder};
///
/// let mut buf = [0u8; 24];
/// let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"0");
/// enc.raw(112, b"a long test request id")?;
/// assert_eq!(enc.finish(), Err(EncodeError::BufferTooSmall { needed: 54 }));
/// # Ok::<(), EncodeError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EncodeError {
    /// The buffer cannot hold the message; `needed` bytes can.
    BufferTooSmall {
        /// The buffer size that holds the whole message.
        needed: usize,
    },
    /// Tag 0, which FIX does not define.
    TagZero,
    /// A field would have an empty value.
    EmptyValue {
        /// The field's tag.
        tag: u32,
    },
    /// A value other than a data field's holds SOH, which would end the field early.
    ValueHasSoh {
        /// The field's tag.
        tag: u32,
    },
    /// A generated builder was asked to write a message whose required field is
    /// unset: `tag` is that field's, a required group's counter, or for a required
    /// component the first required tag inside it.
    ///
    /// ```
    /// use fix_core::EncodeError;
    /// let cl_ord_id: Option<fix_core::value::FixStr<'_>> = None;
    /// let err = fix_core::typed::required(&cl_ord_id, 11).unwrap_err();
    /// assert_eq!(err, EncodeError::MissingRequired { tag: 11 });
    /// assert_eq!(err.to_string(), "required tag 11 is not set");
    /// ```
    MissingRequired {
        /// The tag of the field (or group counter) that is not set.
        tag: u32,
    },
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            EncodeError::BufferTooSmall { needed } => {
                write!(f, "buffer too small: the message needs {needed} bytes")
            }
            EncodeError::TagZero => f.write_str("tag 0 is not a FIX tag"),
            EncodeError::EmptyValue { tag } => write!(f, "tag {tag} would have an empty value"),
            EncodeError::ValueHasSoh { tag } => {
                write!(
                    f,
                    "the value of tag {tag} contains SOH and is not a data field"
                )
            }
            EncodeError::MissingRequired { tag } => write!(f, "required tag {tag} is not set"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EncodeError {}

/// Writes one message into a caller's buffer without allocating.
///
/// [`Encoder::new`] starts with BeginString (8) and MsgType (35); append header and
/// body fields in the order they go on the wire (QuickFIX's order is 8, 9, 35, the
/// other header fields by ascending tag, then the body); [`Encoder::finish`] writes
/// the real BodyLength (9, no zero padding) and CheckSum (10) and returns the
/// message.
///
/// Room for BodyLength is reserved in front of the body, so the finished message may
/// start a few bytes into the buffer: use the slice `finish` returns. When the
/// buffer is too small, appending goes on counting, and `finish` reports the exact
/// size that holds the message.
///
/// ```
/// use fix_core::value::{Decimal, SeqNum};
/// use fix_core::Encoder;
///
/// let mut buf = [0u8; 256];
/// let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"D");
/// enc.field(34, &SeqNum(3391))?;
/// enc.raw(49, b"CLIENT")?;
/// enc.raw(11, b"CL-1")?;
/// enc.field(44, &Decimal::parse(b"412.33").unwrap())?;
/// enc.data(95, 96, b"bin\x01ary")?;
/// let msg = enc.finish()?;
/// assert_eq!(
///     msg,
///     b"8=FIX.4.4\x019=57\x0135=D\x0134=3391\x0149=CLIENT\x0111=CL-1\x0144=412.33\x01\
///       95=7\x0196=bin\x01ary\x0110=065\x01"
/// );
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[derive(Debug)]
pub struct Encoder<'b> {
    buf: &'b mut [u8],
    /// Length of `8=<BeginString><SOH>9=`, written at the start of `buf`.
    prefix: usize,
    /// Digits reserved for BodyLength's value.
    digits: usize,
    /// Where the body (`35=…`) starts.
    body_start: usize,
    /// End of what has been appended; past `buf.len()` once it overflowed, when
    /// appending only counts.
    len: usize,
    /// A bad MsgType, reported by `finish` (so that `new` cannot fail).
    msg_type_error: Option<EncodeError>,
    /// Made by [`Encoder::fields`]: no BeginString, BodyLength, MsgType or
    /// CheckSum, the fields alone.
    fields_only: bool,
}

impl<'b> Encoder<'b> {
    /// Starts a message with BeginString (e.g. `FIX.4.4`) and MsgType (e.g. `D`).
    /// An empty MsgType, or one holding SOH, is reported by [`Encoder::finish`].
    pub fn new(buf: &'b mut [u8], begin_string: &[u8], msg_type: &[u8]) -> Self {
        // BodyLength can be no larger than the buffer, so that many digits hold it.
        let digits = count_digits(buf.len());
        let prefix = 2 + begin_string.len() + 3;
        let body_start = prefix + digits + 1;
        if let Some(head) = buf.get_mut(..body_start) {
            head[..2].copy_from_slice(b"8=");
            head[2..prefix - 3].copy_from_slice(begin_string);
            head[prefix - 3..prefix].copy_from_slice(b"\x019=");
            head[body_start - 1] = SOH;
        }
        let mut enc = Encoder {
            buf,
            prefix,
            digits,
            body_start,
            len: body_start,
            msg_type_error: None,
            fields_only: false,
        };
        enc.msg_type_error = enc.raw(35, msg_type).err();
        enc
    }

    /// Starts a run of fields with no envelope: no BeginString, BodyLength,
    /// MsgType or CheckSum, which a session writes itself around a body it is
    /// given. [`Encoder::finish`] returns the fields (from the buffer's start),
    /// or the exact size that holds them.
    ///
    /// ```
    /// let mut buf = [0u8; 32];
    /// let mut enc = fix_core::Encoder::fields(&mut buf);
    /// enc.raw(11, b"ORD1")?;
    /// enc.field(54, &fix_core::value::SeqNum(1))?;
    /// assert_eq!(enc.finish()?, b"11=ORD1\x0154=1\x01");
    /// let mut small = [0u8; 4];
    /// let mut enc = fix_core::Encoder::fields(&mut small);
    /// enc.raw(11, b"ORD1")?;
    /// assert_eq!(enc.finish(), Err(fix_core::EncodeError::BufferTooSmall { needed: 8 }));
    /// # Ok::<(), fix_core::EncodeError>(())
    /// ```
    pub fn fields(buf: &'b mut [u8]) -> Self {
        Encoder {
            buf,
            prefix: 0,
            digits: 0,
            body_start: 0,
            len: 0,
            msg_type_error: None,
            fields_only: true,
        }
    }

    /// Appends a field holding a typed value.
    ///
    /// ```
    /// use fix_core::value::{Decimal, FixStr};
    /// let mut buf = [0u8; 64];
    /// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"8");
    /// enc.field(31, &Decimal::parse(b"187.2450").unwrap())?;
    /// enc.field(58, &FixStr::parse(b"fill").unwrap())?;
    /// assert!(enc.finish()?.ends_with(b"31=187.2450\x0158=fill\x0110=106\x01"));
    /// # Ok::<(), fix_core::EncodeError>(())
    /// ```
    #[inline(always)]
    pub fn field<'v, V: FieldValue<'v>>(&mut self, tag: u32, value: &V) -> Result<(), EncodeError> {
        let start = self.len;
        // The fast path: a tag below 10^7 (its `tag=` fits one word) and at least a
        // word of room. Everything else, including a full buffer, takes `field_slow`.
        if let Some((word, tag_len)) = tag_word(tag)
            && let Some(out) = self.buf.get_mut(start..)
            && let Some(head) = out.first_chunk_mut::<8>()
        {
            // Bytes of the word past `tag=` are overwritten by the value, or lie past
            // the end of the message.
            *head = word.to_le_bytes();
            let rest = &mut out[tag_len..];
            let n = match value.write_fix(rest) {
                Ok(n) => n,
                Err(BufferTooSmall { needed }) => {
                    // Not written, so not checked: only counted from here on.
                    self.len = start + tag_len + needed + 1;
                    return Ok(());
                }
            };
            if n == 0 {
                return Err(EncodeError::EmptyValue { tag });
            }
            // `rest[..n]` was written, so `n <= rest.len()`.
            let written = &rest[..n.min(rest.len())];
            if (!V::SOH_FREE || cfg!(debug_assertions)) && contains_soh(written) {
                debug_assert!(!V::SOH_FREE, "a SOH_FREE value wrote SOH");
                return Err(EncodeError::ValueHasSoh { tag });
            }
            if let Some(soh) = rest.get_mut(n) {
                *soh = SOH;
            }
            self.len = start + tag_len + n + 1;
            return Ok(());
        }
        self.field_slow(tag, value)
    }

    /// [`Encoder::field`] for any tag and any room left, counting once the buffer is full.
    #[cold]
    #[inline(never)]
    fn field_slow<'v, V: FieldValue<'v>>(
        &mut self,
        tag: u32,
        value: &V,
    ) -> Result<(), EncodeError> {
        self.tag(tag)?;
        let start = self.len;
        let n = match self.buf.get_mut(start..) {
            Some(out) => match value.write_fix(out) {
                Ok(n) => n,
                Err(BufferTooSmall { needed }) => needed,
            },
            None => match value.write_fix(&mut []) {
                Ok(n) => n,
                Err(BufferTooSmall { needed }) => needed,
            },
        };
        self.value_end(tag, start, n)
    }

    /// Appends a field whose value is given as bytes (STRING and the like).
    ///
    /// ```
    /// let mut buf = [0u8; 64];
    /// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"0");
    /// assert_eq!(enc.raw(58, b""), Err(fix_core::EncodeError::EmptyValue { tag: 58 }));
    /// assert_eq!(enc.raw(58, b"a\x01b"), Err(fix_core::EncodeError::ValueHasSoh { tag: 58 }));
    /// ```
    #[inline(always)]
    pub fn raw(&mut self, tag: u32, value: &[u8]) -> Result<(), EncodeError> {
        let start = self.len;
        let n = value.len();
        // The fast path: a short value (the usual identifiers and codes), a tag below
        // 10^7, and room for a word of tag, the value and SOH.
        if n <= 16
            && let Some((word, tag_len)) = tag_word(tag)
            && let Some(out) = self.buf.get_mut(start..)
            && out.len() >= 8
            && out.len() > tag_len + n
        {
            if n == 0 {
                return Err(EncodeError::EmptyValue { tag });
            }
            // Value and SOH are written over the tail of the tag word.
            out[..8].copy_from_slice(&word.to_le_bytes());
            let (_, rest) = out[..tag_len + n + 1].split_at_mut(tag_len);
            let (dst, soh) = rest.split_at_mut(n);
            if copy_short(dst, value) {
                return Err(EncodeError::ValueHasSoh { tag });
            }
            soh[0] = SOH;
            self.len = start + tag_len + n + 1;
            return Ok(());
        }
        self.raw_slow(tag, value)
    }

    /// [`Encoder::raw`] for long values, any tag and any room left.
    #[cold]
    #[inline(never)]
    fn raw_slow(&mut self, tag: u32, value: &[u8]) -> Result<(), EncodeError> {
        if contains_soh(value) {
            return Err(EncodeError::ValueHasSoh { tag });
        }
        self.tag(tag)?;
        let start = self.len;
        self.put(value);
        self.value_end(tag, start, value.len())
    }

    /// Appends a data field with the LENGTH field that announces it: `value` may
    /// hold any bytes, SOH included.
    ///
    /// ```
    /// let mut buf = [0u8; 64];
    /// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"A");
    /// enc.data(95, 96, b"a\x01b")?;
    /// assert!(enc.finish()?.ends_with(b"95=3\x0196=a\x01b\x0110=055\x01"));
    /// # Ok::<(), fix_core::EncodeError>(())
    /// ```
    pub fn data(
        &mut self,
        length_tag: u32,
        data_tag: u32,
        value: &[u8],
    ) -> Result<(), EncodeError> {
        if value.is_empty() {
            return Err(EncodeError::EmptyValue { tag: data_tag });
        }
        self.tag(length_tag)?;
        let mut digits = [0u8; 20];
        let n = write_uint(value.len() as u64, &mut digits).unwrap_or_default();
        self.put(&digits[..n]);
        self.put(&[SOH]);
        self.tag(data_tag)?;
        self.put(value);
        self.put(&[SOH]);
        Ok(())
    }

    /// The number of bytes the message has so far, header included.
    ///
    /// ```
    /// let mut buf = [0u8; 64];
    /// let enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"0");
    /// assert_eq!(enc.len(), "8=FIX.4.4|9=64|35=0|".len());
    /// ```
    #[allow(clippy::len_without_is_empty)] // only `fields` starts empty, and adds to it
    pub fn len(&self) -> usize {
        self.len
    }

    /// Writes BodyLength and CheckSum and returns the complete message, a slice of
    /// the buffer.
    pub fn finish(mut self) -> Result<&'b [u8], EncodeError> {
        let range = self.finish_range()?;
        let buf: &'b [u8] = self.buf;
        Ok(&buf[range])
    }

    /// [`Encoder::finish`], returning where in the buffer the message lies.
    fn finish_range(&mut self) -> Result<Range<usize>, EncodeError> {
        if let Some(e) = self.msg_type_error {
            return Err(e);
        }
        if self.fields_only {
            if self.len > self.buf.len() {
                return Err(EncodeError::BufferTooSmall { needed: self.len });
            }
            return Ok(0..self.len);
        }
        let body_len = self.len - self.body_start;
        let end = self.len + TRAILER_LEN;
        if end > self.buf.len() {
            return Err(EncodeError::BufferTooSmall {
                needed: needed(self.prefix + 1 + body_len + TRAILER_LEN),
            });
        }
        // BodyLength's digits, from one word below 10^8 bytes.
        let (word, digits) = match u32::try_from(body_len) {
            Ok(n) if n < 100_000_000 => digits_word(n),
            _ => (0, count_digits(body_len)),
        };
        // Close the gap left for BodyLength digits this message does not need. The
        // reserved digits hold the buffer's length, so they hold `body_len`.
        let start = self.digits - digits;
        if start > 0 {
            self.buf.copy_within(..self.prefix, start);
        }
        let digits_at = start + self.prefix;
        let out = &mut self.buf[digits_at..digits_at + digits];
        if digits <= 8 {
            store_word(out, word);
        } else {
            write_uint(body_len as u64, out).expect("room for BodyLength was reserved");
        }
        let sum = checksum(&self.buf[start..self.len]);
        // `10=NNN<SOH>` from one word.
        let trailer = u64::from_le_bytes(*b"10=\0\0\0\x01\0")
            | (u64::from(b'0' + sum / 100) << 24)
            | (pair_word(u32::from(sum % 100)) << 32);
        self.buf[self.len..end].copy_from_slice(&trailer.to_le_bytes()[..TRAILER_LEN]);
        Ok(start..end)
    }

    /// Appends `tag=`.
    #[inline(always)]
    fn tag(&mut self, tag: u32) -> Result<(), EncodeError> {
        if tag == 0 {
            return Err(EncodeError::TagZero);
        }
        let mut digits = [0u8; 11];
        let n = write_uint(u64::from(tag), &mut digits[..10]).unwrap_or_default();
        digits[n] = b'=';
        self.put(&digits[..=n]);
        Ok(())
    }

    /// Checks the value just written at `start..start + n` and ends the field.
    #[inline(always)]
    fn value_end(&mut self, tag: u32, start: usize, n: usize) -> Result<(), EncodeError> {
        if n == 0 {
            self.len = start - tag_len(tag);
            return Err(EncodeError::EmptyValue { tag });
        }
        if let Some(written) = self.buf.get(start..start + n)
            && written.contains(&SOH)
        {
            self.len = start - tag_len(tag);
            return Err(EncodeError::ValueHasSoh { tag });
        }
        self.len = start + n;
        self.put(&[SOH]);
        Ok(())
    }

    /// Copies `bytes` to the end, or only counts them once the buffer is full.
    #[inline(always)]
    fn put(&mut self, bytes: &[u8]) {
        let end = self.len + bytes.len();
        if let Some(dst) = self.buf.get_mut(self.len..end) {
            dst.copy_from_slice(bytes);
        }
        self.len = end;
    }
}

/// `10=NNN<SOH>`.
const TRAILER_LEN: usize = 7;

/// `tag=` in the low bytes of a little-endian word, and its length, for tags 1 to
/// 9,999,999 (`None` for the others). Folds to constants for a constant tag.
#[inline(always)]
fn tag_word(tag: u32) -> Option<(u64, usize)> {
    const EQ: u64 = b'=' as u64;
    if tag < 100 {
        if tag == 0 {
            return None;
        }
        if tag < 10 {
            return Some((u64::from(b'0' + tag as u8) | EQ << 8, 2));
        }
        return Some((pair_word(tag) | EQ << 16, 3));
    }
    if tag < 1000 {
        let word = u64::from(b'0' + (tag / 100) as u8) | pair_word(tag % 100) << 8;
        return Some((word | EQ << 24, 4));
    }
    if tag < 10_000_000 {
        let (digits, n) = digits_word(tag);
        return Some((digits | EQ << (8 * n), n + 1));
    }
    None
}

/// Copies `src` into `dst` (same length, at most 16) and tells whether `src` holds
/// SOH, with a few fixed-size, possibly overlapping moves through registers checked
/// eight bytes at a time.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) -> bool {
    debug_assert!(dst.len() == src.len() && src.len() <= 16);
    let n = src.len();
    if let (Some(a), Some(b)) = (src.first_chunk::<8>(), src.last_chunk::<8>()) {
        // 8 to 16 bytes: the first and last eight.
        let (a, b) = (u64::from_le_bytes(*a), u64::from_le_bytes(*b));
        dst[..8].copy_from_slice(&a.to_le_bytes());
        dst[n - 8..].copy_from_slice(&b.to_le_bytes());
        return (soh_word(a) | soh_word(b)) != 0;
    }
    if let (Some(a), Some(b)) = (src.first_chunk::<4>(), src.last_chunk::<4>()) {
        // 4 to 7 bytes: the first and last four.
        dst[..4].copy_from_slice(a);
        dst[n - 4..].copy_from_slice(b);
        let w = u64::from(u32::from_le_bytes(*a)) | u64::from(u32::from_le_bytes(*b)) << 32;
        return soh_word(w) != 0;
    }
    if n == 0 {
        return false;
    }
    // 1 to 3 bytes: first, middle and last cover them all.
    let (a, m, b) = (src[0], src[n / 2], src[n - 1]);
    dst[0] = a;
    dst[n / 2] = m;
    dst[n - 1] = b;
    a == SOH || m == SOH || b == SOH
}

fn count_digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

/// Bytes of `tag=`.
fn tag_len(tag: u32) -> usize {
    count_digits(tag as usize) + 1
}

/// The buffer size an encoder needs for a message of `fixed` bytes plus its
/// BodyLength digits, given that it reserves as many digits as the buffer size has.
fn needed(fixed: usize) -> usize {
    (1..=20)
        .map(|k| fixed + k)
        .find(|&n| count_digits(n) <= n - fixed)
        .unwrap_or(usize::MAX)
}

/// Encodes one message at the end of `out`, growing it as needed; returns the
/// message's length. `fill` appends the fields; it may run twice when `out` first
/// lacks the room, so it must append the same fields each time.
///
/// ```
/// let mut out = Vec::new();
/// let n = fix_core::encode_to_vec(&mut out, b"FIX.4.4", b"0", |enc| enc.raw(112, b"TEST"))?;
/// assert_eq!(out, b"8=FIX.4.4\x019=14\x0135=0\x01112=TEST\x0110=229\x01");
/// assert_eq!(n, out.len());
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[cfg(feature = "std")]
pub fn encode_to_vec(
    out: &mut std::vec::Vec<u8>,
    begin_string: &[u8],
    msg_type: &[u8],
    mut fill: impl FnMut(&mut Encoder<'_>) -> Result<(), EncodeError>,
) -> Result<usize, EncodeError> {
    let at = out.len();
    let mut room = (out.capacity() - at).max(256);
    loop {
        out.resize(at + room, 0);
        let mut enc = Encoder::new(&mut out[at..], begin_string, msg_type);
        fill(&mut enc)?;
        match enc.finish_range() {
            Ok(range) => {
                let n = range.len();
                out.copy_within(at + range.start..at + range.end, at);
                out.truncate(at + n);
                return Ok(n);
            }
            Err(EncodeError::BufferTooSmall { needed }) => room = needed,
            Err(e) => {
                out.truncate(at);
                return Err(e);
            }
        }
    }
}
