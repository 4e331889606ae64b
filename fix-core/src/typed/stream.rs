//! The streaming walk of a repeating group ([`Walk`]): every field of its entries
//! handed over in wire order as a variant of a generated per-group enum, nested
//! groups as walks of their own, with no slot table.
//!
//! A view fills a slot per member of an entry before any getter runs (85 of them
//! for a FIX 4.4 market data entry, most never used); a walk reads each field once,
//! where it lies, and a generated `match` on its tag picks the variant. The variant
//! carries a [`Value`], which parses only when asked: a caller that reads five of
//! an entry's fields pays for five conversions.

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;

use super::errors::FieldError;
use super::tables::{Group, MessageDef};
use super::walk::{declared, locate, skip_group, value_of};
use crate::value::FieldValue;
use crate::{Field, Message};

/// A group entry that a [`Walk`] decodes field by field: implemented by every
/// generated entry view (through `walk!`), whose `Field` enum has a variant per
/// tag the entry holds.
///
/// ```
/// use fix_core::typed::{Cursor, Group, Level, Value, Walk, WalkEntry};
/// use fix_core::value::FixStr;
///
/// static PARTIES: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
///     entry: Level { tags: &[448, 452], by_tag: &[0, 1], required: &[], groups: &[], index: &[] } };
/// struct Party;
/// #[derive(Clone, Copy, Debug)]
/// enum PartyField<'a> {
///     PartyId(Value<'a, FixStr<'a>, 448>),
///     PartyRole(Value<'a, i64, 452>),
/// }
/// impl<'a> WalkEntry<'a> for Party {
///     const GROUP: &'static Group = &PARTIES;
///     type Field = PartyField<'a>;
///     fn field(cursor: &mut Cursor<'a>, tag: u32) -> Option<PartyField<'a>> {
///         Some(match tag {
///             448 => PartyField::PartyId(cursor.take()),
///             452 => PartyField::PartyRole(cursor.take()),
///             _ => return None,
///         })
///     }
/// }
///
/// let bytes = b"8=FIX.4.4\x019=29\x0135=D\x01453=2\x01448=A\x01452=3\x01448=B\x0110=068\x01";
/// let mut fields = fix_core::Fields::<16>::new();
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let mut roles = 0;
/// for field in Walk::<Party>::after(&msg, 3) {
///     if let PartyField::PartyRole(role) = field {
///         roles += role.get()?;
///     }
/// }
/// assert_eq!(roles, 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait WalkEntry<'a> {
    /// The group's table (its counter, delimiter and entry level).
    const GROUP: &'static Group;
    /// One field of an entry.
    type Field;
    /// The variant for the field at `cursor`, whose tag is `tag`; `None` when the
    /// entry does not hold `tag`, which ends the walk (as it ends a view's entry).
    fn field(cursor: &mut Cursor<'a>, tag: u32) -> Option<Self::Field>;
}

/// The field a [`WalkEntry::field`] decodes, and the message's fields after it.
///
/// ```
/// # use fix_core::typed::{Cursor, Value};
/// fn symbol<'a>(cursor: &mut Cursor<'a>) -> Value<'a, fix_core::value::FixStr<'a>, 55> {
///     cursor.take()
/// }
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Cursor<'a> {
    bytes: &'a [u8],
    field: Field,
    rest: &'a [Field],
    /// No value of the message holds SOH (none was read by a LENGTH field).
    soh_free: bool,
}

impl<'a> Cursor<'a> {
    /// The current field as the payload of its variant: a [`Value`], the bytes of
    /// a DATA field, or a [`Walk`] over a nested group (whose entries the
    /// enclosing walk then steps over).
    #[inline(always)]
    pub fn take<T: Take<'a>>(&mut self) -> T {
        T::take(self)
    }
}

/// What a [`Cursor`] makes of its field: the payload types of a walk's variants.
///
/// ```
/// # use fix_core::typed::{Cursor, Take};
/// fn raw<'a>(cursor: &mut Cursor<'a>) -> &'a [u8] {
///     <&[u8] as Take>::take(cursor)
/// }
/// ```
pub trait Take<'a>: Sized {
    /// The payload for the field at `cursor`, moving the cursor past what it covers.
    fn take(cursor: &mut Cursor<'a>) -> Self;
}

impl<'a, T, const TAG: u32> Take<'a> for Value<'a, T, TAG> {
    #[inline(always)]
    fn take(cursor: &mut Cursor<'a>) -> Self {
        Value {
            msg: cursor.bytes,
            field: cursor.field,
            soh_free: cursor.soh_free,
            ty: PhantomData,
        }
    }
}

impl<'a> Take<'a> for &'a [u8] {
    #[inline(always)]
    fn take(cursor: &mut Cursor<'a>) -> Self {
        value_of(cursor.bytes, &cursor.field)
    }
}

impl<'a, E: WalkEntry<'a>> Take<'a> for Walk<'a, E> {
    /// The nested group's walk; the enclosing walk continues after its entries.
    #[inline]
    fn take(cursor: &mut Cursor<'a>) -> Self {
        let count = declared(value_of(cursor.bytes, &cursor.field));
        let walk = Walk::new(cursor.bytes, cursor.rest, count, cursor.soh_free);
        let end = skip_group(E::GROUP, cursor.rest, cursor.bytes, 0, count);
        cursor.rest = cursor.rest.get(end..).unwrap_or(&[]);
        walk
    }
}

/// One field's value as a walk hands it over: parsed as `T` by [`get`](Self::get),
/// with the errors a view's getter gives (`FieldError::Invalid` naming `TAG` and
/// the value's offset).
///
/// ```
/// use fix_core::typed::{Cursor, Value};
/// use fix_core::value::Decimal;
/// fn px<'a>(cursor: &mut Cursor<'a>) -> Result<Decimal, fix_core::typed::FieldError> {
///     let px: Value<'a, Decimal, 270> = cursor.take();
///     assert_eq!(Value::<Decimal, 270>::TAG, 270);
///     px.get()
/// }
/// ```
pub struct Value<'a, T, const TAG: u32> {
    /// The whole message: parsers may load words across the value's end.
    msg: &'a [u8],
    field: Field,
    /// No value of the message holds SOH (none was read by a LENGTH field).
    soh_free: bool,
    ty: PhantomData<fn() -> T>,
}

impl<'a, T, const TAG: u32> Value<'a, T, TAG> {
    /// The field's tag.
    pub const TAG: u32 = TAG;

    /// The raw value bytes.
    #[inline]
    pub fn raw(&self) -> &'a [u8] {
        value_of(self.msg, &self.field)
    }

    /// The value's offset in the message.
    #[inline]
    pub fn offset(&self) -> usize {
        self.field.value_range().start
    }
}

impl<'a, T: FieldValue<'a>, const TAG: u32> Value<'a, T, TAG> {
    /// The value parsed as `T`; `Invalid` when it does not parse.
    #[inline(always)]
    pub fn get(&self) -> Result<T, FieldError> {
        T::parse_in(self.msg, self.field.value_range(), self.soh_free).map_err(|_| {
            FieldError::Invalid {
                tag: TAG,
                offset: self.offset(),
            }
        })
    }
}

impl<T, const TAG: u32> Clone for Value<'_, T, TAG> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, const TAG: u32> Copy for Value<'_, T, TAG> {}

impl<T, const TAG: u32> fmt::Debug for Value<'_, T, TAG> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut d = f.debug_struct("Value");
        d.field("tag", &TAG);
        match core::str::from_utf8(self.raw()) {
            Ok(text) => d.field("raw", &text),
            Err(_) => d.field("raw", &self.raw()),
        };
        d.field("offset", &self.offset()).finish()
    }
}

/// The streaming walk of a repeating group: every field of every entry, in wire
/// order, as `E::Field` (the generated enum of the group's entry). The group's
/// delimiter starts each entry ([`WalkEntry::GROUP`]; generated enums'
/// `starts_entry`); a nested group comes as one variant holding its own walk, and
/// its entries are not repeated in this one.
///
/// It ends where a view's [`Entries`](super::Entries) ends: after the count the
/// NUMINGROUP field declares (by delimiters alone when the count is not a number),
/// at a field that does not start an entry when none is open, and at the first
/// field the entry does not hold. Unlike a view, which keeps the first occurrence
/// of a tag, a walk hands over every field it reads, repeated tags included. It
/// never allocates.
///
/// ```
/// # use fix_core::typed::{Cursor, Group, Level, Value, Walk, WalkEntry};
/// # static PARTIES: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
/// #     entry: Level { tags: &[448, 452], by_tag: &[0, 1], required: &[], groups: &[], index: &[] } };
/// # struct Party;
/// # impl<'a> WalkEntry<'a> for Party {
/// #     const GROUP: &'static Group = &PARTIES;
/// #     type Field = Value<'a, i64, 0>;
/// #     fn field(cursor: &mut Cursor<'a>, tag: u32) -> Option<Self::Field> {
/// #         matches!(tag, 448 | 452).then(|| cursor.take())
/// #     }
/// # }
/// let bytes = b"8=FIX.4.4\x019=29\x0135=D\x01453=2\x01448=A\x01452=3\x01448=B\x0110=068\x01";
/// let mut fields = fix_core::Fields::<16>::new();
/// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let raw: Vec<_> = Walk::<Party>::after(&msg, 3).map(|v| v.raw()).collect();
/// assert_eq!(raw, [&b"A"[..], b"3", b"B"]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Walk<'a, E> {
    bytes: &'a [u8],
    /// No value of the message holds SOH (none was read by a LENGTH field).
    soh_free: bool,
    /// The fields from the next one on.
    fields: &'a [Field],
    /// How many more entries may start.
    remaining: usize,
    /// Whether an entry is open (a field other than the delimiter continues it).
    open: bool,
    entry: PhantomData<fn() -> E>,
}

impl<'a, E: WalkEntry<'a>> Walk<'a, E> {
    /// Entries starting at `fields`, at most `count`.
    #[inline]
    pub(super) fn new(bytes: &'a [u8], fields: &'a [Field], count: usize, soh_free: bool) -> Self {
        Walk {
            bytes,
            soh_free,
            fields,
            remaining: count,
            open: false,
            entry: PhantomData,
        }
    }

    /// The group whose NUMINGROUP field is field `counter` of `msg` (its index in
    /// `msg.fields()`), as the count there declares; empty when there is no such
    /// field.
    ///
    /// ```
    /// # use fix_core::typed::{Cursor, Group, Level, Walk, WalkEntry};
    /// # static PARTIES: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
    /// #     entry: Level { tags: &[448], by_tag: &[0], required: &[], groups: &[], index: &[] } };
    /// # struct Party;
    /// # impl<'a> WalkEntry<'a> for Party {
    /// #     const GROUP: &'static Group = &PARTIES;
    /// #     type Field = &'a [u8];
    /// #     fn field(cursor: &mut Cursor<'a>, tag: u32) -> Option<&'a [u8]> { (tag == 448).then(|| cursor.take()) }
    /// # }
    /// let bytes = b"8=FIX.4.4\x019=23\x0135=D\x01453=2\x01448=A\x01448=B\x0110=050\x01";
    /// let mut fields = fix_core::Fields::<16>::new();
    /// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
    /// assert_eq!(Walk::<Party>::after(&msg, 3).count(), 2);
    /// assert_eq!(Walk::<Party>::after(&msg, 99).count(), 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn after(msg: &Message<'a>, counter: usize) -> Self {
        let (bytes, fields) = (msg.bytes(), msg.fields());
        let soh_free = !msg.has_values_by_length();
        match fields.get(counter) {
            Some(field) => Walk::new(
                bytes,
                fields.get(counter + 1..).unwrap_or(&[]),
                declared(value_of(bytes, field)),
                soh_free,
            ),
            None => Walk::new(bytes, &[], 0, soh_free),
        }
    }

    /// The group in `msg` outside any other group, found as the view of the
    /// message `def` finds its counter (the first such group of `def`, should it
    /// hold the same group twice), without filling a slot table; empty when `def`
    /// holds no such group or `msg` has no counter for it. Generated messages call
    /// it from their `walk`.
    ///
    /// ```
    /// use fix_core::typed::{Cursor, Group, Level, MessageDef, Walk, WalkEntry, view_groups};
    /// static PARTIES: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
    ///     entry: Level { tags: &[448], by_tag: &[0], required: &[], groups: &[], index: &[] } };
    /// static ORDER: MessageDef = MessageDef { name: "NewOrderSingle", msg_type: b"D", admin: false,
    ///     body: Level { tags: &[453], by_tag: &[0], required: &[], groups: &[(0, &PARTIES)], index: &[] },
    ///     view: Level { tags: &[453], by_tag: &[0], required: &[], groups: &[(0, &PARTIES)], index: &[] },
    ///     slot_of: &[], sets: fix_core::typed::SlotSets::NONE };
    /// struct Party;
    /// impl<'a> WalkEntry<'a> for Party {
    ///     const GROUP: &'static Group = &PARTIES;
    ///     type Field = &'a [u8];
    ///     fn field(cursor: &mut Cursor<'a>, tag: u32) -> Option<&'a [u8]> { (tag == 448).then(|| cursor.take()) }
    /// }
    /// let bytes = b"8=FIX.4.4\x019=23\x0135=D\x01453=2\x01448=A\x01448=B\x0110=050\x01";
    /// let mut fields = fix_core::Fields::<16>::new();
    /// let msg = fix_core::Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
    /// let ids: Vec<_> = Walk::<Party>::in_message(&msg, &ORDER).collect();
    /// assert_eq!(ids, [&b"A"[..], b"B"]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn in_message(msg: &Message<'a>, def: &MessageDef) -> Self {
        let counter = def
            .view
            .groups
            .iter()
            .find(|(_, g)| core::ptr::eq(*g, E::GROUP))
            .and_then(|&(slot, _)| locate(&def.view, msg.fields(), msg.bytes(), slot.into()));
        Self::after(msg, counter.unwrap_or(usize::MAX))
    }

    /// Ends the walk: every later call returns `None`.
    #[cold]
    fn end(&mut self) -> Option<E::Field> {
        self.fields = &[];
        None
    }
}

impl<'a, E: WalkEntry<'a>> Iterator for Walk<'a, E> {
    type Item = E::Field;

    #[inline]
    fn next(&mut self) -> Option<E::Field> {
        let (field, rest) = self.fields.split_first()?;
        let tag = field.tag();
        if tag == E::GROUP.delimiter {
            if self.remaining == 0 {
                return self.end();
            }
            self.remaining -= 1;
            self.open = true;
        } else if !self.open {
            return self.end();
        }
        let mut cursor = Cursor {
            bytes: self.bytes,
            field: *field,
            rest,
            soh_free: self.soh_free,
        };
        match E::field(&mut cursor, tag) {
            Some(out) => {
                self.fields = cursor.rest;
                Some(out)
            }
            None => self.end(),
        }
    }
}

impl<'a, E: WalkEntry<'a>> FusedIterator for Walk<'a, E> {}

impl<E> Clone for Walk<'_, E> {
    #[inline]
    fn clone(&self) -> Self {
        *self
    }
}

impl<E> Copy for Walk<'_, E> {}

impl<E> fmt::Debug for Walk<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Walk")
            .field("fields_left", &self.fields.len())
            .field("open", &self.open)
            .finish()
    }
}
