//! A parsed message: the span of every field, in order, over the message's bytes.

use crate::scan::{SOH, block_mask};
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
    /// A placeholder for unused storage slots (tag 0, which FIX never uses).
    pub const EMPTY: Field = Field::new(0, 0, 0);

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
        // Added as `usize`, so the end is never below the start and a slice
        // indexed by the range checks one bound, not two.
        self.start as usize..self.start as usize + self.len as usize
    }

    /// Whether the value is empty (`58=` followed by SOH; only a parser that
    /// allows empty values records such a field).
    ///
    /// ```
    /// use fix_core::Field;
    /// assert!(Field::new(58, 10, 0).is_empty());
    /// assert!(!Field::new(58, 10, 3).is_empty());
    /// ```
    #[inline]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// Caller-owned, fixed-capacity storage for a message's fields: `N` slots, reused
/// from message to message.
///
/// The parser writes into any `&mut [Field]`; this type is the convenient owner of
/// one. Parsing more fields than `N` is the error [`Error::TooManyFields`].
///
/// ```
/// let mut fields = fix_core::Fields::<64>::new();
/// assert_eq!(fields.capacity(), 64);
/// let as_slice: &mut [fix_core::Field] = &mut fields;
/// assert_eq!(as_slice.len(), 64);
/// ```
#[derive(Clone, Debug)]
pub struct Fields<const N: usize> {
    slots: [Field; N],
}

impl<const N: usize> Fields<N> {
    /// `N` empty slots.
    pub const fn new() -> Self {
        Fields {
            slots: [Field::EMPTY; N],
        }
    }

    /// How many fields a message may have.
    pub const fn capacity(&self) -> usize {
        N
    }
}

impl<const N: usize> Default for Fields<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> core::ops::Deref for Fields<N> {
    type Target = [Field];
    fn deref(&self) -> &[Field] {
        &self.slots
    }
}

impl<const N: usize> core::ops::DerefMut for Fields<N> {
    fn deref_mut(&mut self) -> &mut [Field] {
        &mut self.slots
    }
}

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
    /// Whether some value was read by the LENGTH field before it (a DATA field of
    /// the parser's pairs), and so may hold SOH: 0 or 1. (A `u8`, not a `bool`,
    /// so that `Option<Message>` keeps its niche in the pointers: a `bool`'s made
    /// fixdump's writer 170 instructions a message slower.)
    by_length: u8,
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

    /// Whether some value was read by the LENGTH field before it (the parser's
    /// data field pairs), and so may hold SOH: only then can a value hold one.
    #[inline]
    pub(crate) fn has_values_by_length(&self) -> bool {
        self.by_length != 0
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

/// Splits a framed message into fields, writing them to `slots`.
///
/// Fields are found by walking the SOH bitmask of each 64-byte block: the loop from
/// one field to the next depends only on the mask (clear the lowest bit, count
/// trailing zeros), not on parsing the tag, so the processor overlaps the tag work
/// of consecutive fields. A LENGTH tag (rare) sends the walk through [`data_field`],
/// which skips the SOH bits inside the data.
pub(crate) fn index<'a>(
    frame: Frame<'a>,
    data_fields: &DataFields<'_>,
    allow_empty: bool,
    slots: &'a mut [Field],
) -> Result<Message<'a>, Error> {
    let bytes = frame.bytes();
    let mut n = 0;
    let mut by_length = 0;
    for field in frame.header_fields() {
        let capacity = slots.len();
        *slots.get_mut(n).ok_or(Error::TooManyFields { capacity })? = field;
        n += 1;
    }
    let mut field_start = frame.msg_type_end() + 1;
    let mut base = field_start & !63;
    while base < bytes.len() {
        // `field_start - base < 64`: see how `base` advances below.
        let mut mask = block_mask(bytes, base) & (!0u64 << field_start.saturating_sub(base));
        while mask != 0 {
            let soh = base + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let (tag, eq) = match parse_tag(bytes, field_start) {
                Ok(tag_eq) => tag_eq,
                Err(e) => {
                    return Err(soh_in_value(
                        e,
                        bytes,
                        field_start,
                        &slots[..n],
                        data_fields,
                    ));
                }
            };
            store(slots, &mut n, tag, eq + 1, soh, allow_empty)?;
            field_start = soh + 1;
            if data_fields.is_length_tag(tag) {
                let length = Field::new(tag, (eq + 1) as u32, (soh - eq - 1) as u32);
                let body_end = frame.body_end();
                // `n` goes in and out by value: behind a reference it would live
                // in memory for the whole loop.
                let next;
                (next, n) =
                    data_field(bytes, body_end, data_fields, length, field_start, slots, n)?;
                if next != field_start {
                    by_length = 1;
                    field_start = next;
                    if next >= base + 64 {
                        break;
                    }
                    mask &= !0u64 << (next - base);
                }
            }
        }
        base = (base + 64).max(field_start & !63);
    }
    Ok(Message {
        frame,
        fields: &slots[..n],
        by_length,
    })
}

/// Refines a bad tag at `pos` that holds no `=` before the next SOH: it is no
/// field but the rest of the previous value, cut by a SOH inside it. A value read
/// by its length (a data field) ends at its SOH, so what follows it stays a bad tag.
#[cold]
#[inline(never)]
fn soh_in_value(
    error: Error,
    bytes: &[u8],
    pos: usize,
    fields: &[Field],
    data_fields: &DataFields<'_>,
) -> Error {
    let Error::InvalidTag { .. } = error else {
        return error;
    };
    let rest = &bytes[pos..];
    let end = rest.iter().position(|&b| b == SOH).unwrap_or(rest.len());
    let [.., before, previous] = fields else {
        return error;
    };
    if rest[..end].contains(&b'=') || data_fields.data_tag(before.tag) == Some(previous.tag) {
        return error;
    }
    Error::EmbeddedSoh {
        tag: previous.tag,
        offset: pos - 1,
    }
}

/// Writes field number `*n` and counts it.
#[inline(always)]
fn store(
    slots: &mut [Field],
    n: &mut usize,
    tag: u32,
    start: usize,
    end: usize,
    allow_empty: bool,
) -> Result<(), Error> {
    if end == start && !allow_empty {
        return Err(Error::EmptyValue { tag, offset: start });
    }
    let capacity = slots.len();
    let slot = slots.get_mut(*n).ok_or(Error::TooManyFields { capacity })?;
    *slot = Field::new(tag, start as u32, (end - start) as u32);
    *n += 1;
    Ok(())
}

/// After the LENGTH field `length`, reads the DATA field it announces, when that is
/// the next field (at `pos`), by length. Returns where the next field starts and
/// the new number of fields.
#[cold]
#[inline(never)]
fn data_field(
    bytes: &[u8],
    body_end: usize,
    data_fields: &DataFields<'_>,
    length: Field,
    pos: usize,
    slots: &mut [Field],
    mut n: usize,
) -> Result<(usize, usize), Error> {
    let Some(data_tag) = data_fields.data_tag(length.tag) else {
        return Ok((pos, n)); // the filter matched another tag with the same low bits
    };
    let value = length.value_range();
    let len = parse_length(&bytes[value.clone()]).ok_or(Error::InvalidDataLength {
        tag: length.tag,
        offset: value.start,
    })?;
    if pos >= body_end {
        return Ok((pos, n)); // the length was the last body field: validation's concern
    }
    let (tag, eq) = parse_tag(bytes, pos)?;
    if tag != data_tag {
        return Ok((pos, n)); // not followed by its data: validation's concern
    }
    let start = eq + 1;
    let end = start + len;
    if end >= body_end || bytes[end] != SOH {
        return Err(Error::DataLengthOutOfBounds { tag, offset: start });
    }
    store(slots, &mut n, tag, start, end, false)?;
    Ok((end + 1, n))
}

/// [`Parser::check_fields`](crate::Parser::check_fields): `bytes` as a run of
/// fields, each ended by SOH, a data field read by the length before it.
/// The walk is [`index`]'s, over the SOH bitmask of each 64-byte block.
pub(crate) fn check_fields(
    bytes: &[u8],
    data_fields: &DataFields<'_>,
    allow_empty: bool,
) -> Result<(), Error> {
    // Every tag parse below stops at a SOH: the last byte must be one.
    match bytes.last() {
        None => return Ok(()),
        Some(&SOH) => {}
        Some(_) => {
            let last = bytes.iter().rposition(|&b| b == SOH);
            return Err(Error::Unterminated {
                offset: last.map_or(0, |i| i + 1),
            });
        }
    }
    let mut field_start: usize = 0;
    let mut base = 0;
    while base < bytes.len() {
        let mut mask = block_mask(bytes, base) & (!0u64 << field_start.saturating_sub(base));
        while mask != 0 {
            let soh = base + mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let (tag, eq) = parse_tag(bytes, field_start)?;
            if eq + 1 == soh && !allow_empty {
                return Err(Error::EmptyValue { tag, offset: soh });
            }
            field_start = soh + 1;
            if data_fields.is_length_tag(tag) {
                let next = data_end(bytes, data_fields, tag, eq + 1, soh, field_start)?;
                if next != field_start {
                    field_start = next;
                    if next >= base + 64 {
                        break;
                    }
                    mask &= !0u64 << (next - base);
                }
            }
        }
        base = (base + 64).max(field_start & !63);
    }
    Ok(())
}

/// After length field `tag` (its value from `value` to `soh`), where the
/// data field it announces ends: past its SOH when it follows at `next`,
/// else `next` itself.
#[cold]
fn data_end(
    bytes: &[u8],
    data_fields: &DataFields<'_>,
    tag: u32,
    value: usize,
    soh: usize,
    next: usize,
) -> Result<usize, Error> {
    let Some(data_tag) = data_fields.data_tag(tag) else {
        return Ok(next);
    };
    let len =
        parse_length(&bytes[value..soh]).ok_or(Error::InvalidDataLength { tag, offset: value })?;
    if next >= bytes.len() {
        return Ok(next);
    }
    let (tag, eq) = parse_tag(bytes, next)?;
    if tag != data_tag {
        return Ok(next);
    }
    let start = eq + 1;
    let end = start.saturating_add(len);
    if end >= bytes.len() || bytes[end] != SOH {
        return Err(Error::DataLengthOutOfBounds { tag, offset: start });
    }
    if end == start {
        return Err(Error::EmptyValue { tag, offset: start });
    }
    Ok(end + 1)
}

/// Parses the tag at `pos`; returns it and the offset of its `=`.
///
/// Tags are one to ten digits without a leading zero. Nearly every tag on the wire
/// has one to three digits: those are read from one 4-byte word (every field start
/// has at least four bytes after it, since the seven-byte trailer follows or is it),
/// a byte at a time with a branch per digit. A branch-free SWAR form of the same
/// parse was a third more instructions; the branches follow the message's own
/// pattern of tag lengths, which the processor learns for the messages a session
/// sees again and again.
#[inline(always)]
fn parse_tag(bytes: &[u8], pos: usize) -> Result<(u32, usize), Error> {
    if pos < bytes.len().saturating_sub(3)
        && let [b0, b1, b2, b3] = bytes[pos..pos + 4]
    {
        let d0 = u32::from(b0.wrapping_sub(b'1'));
        if d0 < 9 {
            let d0 = d0 + 1;
            if b1 == b'=' {
                return Ok((d0, pos + 1));
            }
            let d1 = u32::from(b1.wrapping_sub(b'0'));
            if d1 < 10 {
                if b2 == b'=' {
                    return Ok((d0 * 10 + d1, pos + 2));
                }
                let d2 = u32::from(b2.wrapping_sub(b'0'));
                if d2 < 10 && b3 == b'=' {
                    return Ok((d0 * 100 + d1 * 10 + d2, pos + 3));
                }
            }
        }
    }
    parse_tag_slow(bytes, pos)
}

/// [`parse_tag`] for long tags, and the exact error for bad ones.
#[cold]
#[inline(never)]
fn parse_tag_slow(bytes: &[u8], pos: usize) -> Result<(u32, usize), Error> {
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
    crate::value::parse_digits(value, 10).and_then(|n| usize::try_from(n).ok())
}
