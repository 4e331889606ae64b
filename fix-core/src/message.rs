//! A parsed message: the span of every field, in order, over the message's bytes.

use crate::scan::{SOH, SohScanner};
use crate::{DataFields, Error, Frame};

/// One field's tag and where its value lies in the message.
///
/// Twelve bytes: offsets are `u32` because a message never exceeds the parser's
/// maximum size, which is below 4 GiB.
///
/// ```
/// use fix_core::Field;
/// let f = Field::new(35, 14, 1);
/// assert_eq!((f.tag(), f.value_range()), (35, 14..15));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Field {
    tag: u32,
    start: u32,
    len: u32,
}

impl Field {
    /// A field with `tag` whose value is `len` bytes at `start`.
    pub const fn new(tag: u32, start: u32, len: u32) -> Self {
        Field { tag, start, len }
    }

    /// The field's tag.
    #[inline]
    pub const fn tag(&self) -> u32 {
        self.tag
    }

    /// Where the value lies in the message's bytes.
    #[inline]
    pub const fn value_range(&self) -> core::ops::Range<usize> {
        self.start as usize..(self.start + self.len) as usize
    }
}

/// Caller-owned, fixed-capacity storage for a message's fields.
///
/// Parsing more fields than `N` is the error [`Error::TooManyFields`].
///
/// ```
/// let mut fields = fix_core::Fields::<64>::new();
/// assert_eq!(fields.capacity(), 64);
/// ```
pub type Fields<const N: usize> = heapless::Vec<Field, N>;

/// A parsed message: its bytes and the span of each of its fields, header and
/// trailer included, in the order they arrived. Repeated tags are all kept.
///
/// Lookups by tag scan the fields: this is the dictionary-free view. Generated
/// message types add O(1) typed access on top of it.
///
/// ```
/// use fix_core::{Fields, Parser};
///
/// let bytes = b"8=FIX.4.4\x019=19\x0135=0\x01112=abc\x01112=d\x0110=006\x01";
/// let mut fields = Fields::<16>::new();
/// let msg = Parser::new().parse(bytes, &mut fields).unwrap().complete().unwrap();
/// assert_eq!(msg.msg_type(), b"0");
/// assert_eq!(msg.get(112), Some(&b"abc"[..]));
/// assert_eq!(msg.get_all(112).collect::<Vec<_>>(), [&b"abc"[..], b"d"]);
/// assert_eq!(msg.iter().map(|(tag, _)| tag).collect::<Vec<_>>(), [8, 9, 35, 112, 112, 10]);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Message<'a> {
    frame: Frame<'a>,
    fields: &'a [Field],
}

impl<'a> Message<'a> {
    /// The framing facts: BeginString, MsgType, body, CheckSum.
    pub fn frame(&self) -> &Frame<'a> {
        &self.frame
    }

    /// The whole message, from `8=` to the SOH after CheckSum.
    pub fn bytes(&self) -> &'a [u8] {
        self.frame.bytes()
    }

    /// MsgType (35).
    pub fn msg_type(&self) -> &'a [u8] {
        self.frame.msg_type()
    }

    /// Every field, in wire order.
    pub fn fields(&self) -> &'a [Field] {
        self.fields
    }

    /// The value of `field`, which must come from this message.
    #[inline]
    pub fn value(&self, field: &Field) -> &'a [u8] {
        &self.frame.bytes()[field.value_range()]
    }

    /// `(tag, value)` for every field, in wire order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (u32, &'a [u8])> + 'a {
        let bytes = self.frame.bytes();
        self.fields
            .iter()
            .map(move |f| (f.tag, &bytes[f.value_range()]))
    }

    /// The value of the first field with `tag`.
    pub fn get(&self, tag: u32) -> Option<&'a [u8]> {
        self.fields
            .iter()
            .find(|f| f.tag == tag)
            .map(|f| self.value(f))
    }

    /// The values of every field with `tag`, in wire order.
    pub fn get_all(&self, tag: u32) -> impl Iterator<Item = &'a [u8]> + 'a {
        let bytes = self.frame.bytes();
        self.fields
            .iter()
            .filter(move |f| f.tag == tag)
            .map(move |f| &bytes[f.value_range()])
    }
}

/// Splits a framed message into fields, appending them to `out`.
pub(crate) fn index<'a>(
    frame: Frame<'a>,
    data_fields: &DataFields<'_>,
    allow_empty: bool,
    out: &'a mut heapless::vec::VecView<Field>,
) -> Result<Message<'a>, Error> {
    out.clear();
    let bytes = frame.bytes();
    let body_end = frame.body_end();
    let mut scanner = SohScanner::new(bytes);
    // The DATA tag announced by the previous field, and its length.
    let mut pending: Option<(u32, usize)> = None;
    let mut pos = 0;
    while pos < bytes.len() {
        let (tag, eq) = parse_tag(bytes, pos)?;
        let start = eq + 1;
        let end = match pending.take() {
            Some((data_tag, len)) if data_tag == tag => {
                let end = start + len;
                if end >= body_end || bytes[end] != SOH {
                    return Err(Error::DataLengthOutOfBounds { tag, offset: start });
                }
                end
            }
            // The trailing SOH was checked while framing, so one is always found.
            _ => scanner.next(start).unwrap_or(bytes.len() - 1),
        };
        if end == start && !allow_empty {
            return Err(Error::EmptyValue { tag, offset: start });
        }
        if let Some(data_tag) = data_fields.data_tag(tag) {
            let len = parse_length(&bytes[start..end])
                .ok_or(Error::InvalidDataLength { tag, offset: start })?;
            pending = Some((data_tag, len));
        }
        out.push(Field::new(tag, start as u32, (end - start) as u32))
            .map_err(|_| Error::TooManyFields {
                capacity: out.capacity(),
            })?;
        pos = end + 1;
    }
    Ok(Message { frame, fields: out })
}

/// Parses the tag at `pos`; returns it and the offset of its `=`.
///
/// Tags are one to ten digits without a leading zero. The message's last byte is
/// SOH (checked while framing), so the loop always stops inside `bytes`.
#[inline(always)]
fn parse_tag(bytes: &[u8], pos: usize) -> Result<(u32, usize), Error> {
    let first = bytes[pos].wrapping_sub(b'0');
    if first > 9 || first == 0 {
        return Err(match bytes.get(pos + 1) {
            Some(b'=') if first == 0 => Error::TagZero { offset: pos },
            _ => Error::InvalidTag { offset: pos },
        });
    }
    let mut tag = u64::from(first);
    let mut i = pos + 1;
    loop {
        let b = bytes[i];
        let d = b.wrapping_sub(b'0');
        if d <= 9 {
            // Wrapping is harmless: more than ten digits is an overflow anyway.
            tag = tag.wrapping_mul(10).wrapping_add(u64::from(d));
            i += 1;
            continue;
        }
        if b != b'=' {
            return Err(if b == SOH {
                let tag = u32::try_from(tag).unwrap_or(u32::MAX);
                Error::MissingEquals { tag, offset: i }
            } else {
                Error::InvalidTag { offset: i }
            });
        }
        if i - pos > 10 || tag > u64::from(u32::MAX) {
            return Err(Error::TagOverflow { offset: pos });
        }
        return Ok((tag as u32, i));
    }
}

/// A LENGTH value: one or more digits, no sign.
fn parse_length(value: &[u8]) -> Option<usize> {
    if value.is_empty() || value.len() > 10 {
        return None;
    }
    value.iter().try_fold(0usize, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + (b - b'0') as usize)
    })
}
