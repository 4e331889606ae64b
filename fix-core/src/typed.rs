//! The run-time half of generated dictionary crates: const tables and the generic
//! views over them.
//!
//! `fix-codegen` turns a QuickFIX XML dictionary into plain declarations — a
//! [`Level`] per message and per group entry, a [`Group`] per repeating group, a
//! [`MessageDef`] per message, a [`Dictionary`] tying them together — and thin typed
//! wrappers around [`View`], [`Block`] and [`Entries`]. All logic lives here, once.
//!
//! # Slots
//!
//! A [`Level`] lists the tags of one level (a message's header, body and trailer
//! with components expanded in place, or one group entry) in dictionary order: tag
//! number `i` is *slot* `i`. A component therefore occupies a contiguous run of
//! slots, which is what lets one generated component view type serve every message
//! that includes it ([`Block::sub`]).
//!
//! [`View::new`] walks the message's fields once and records, for every slot, the
//! index of the field that filled it. After that every getter is one array load:
//! `O(1)`. A group counter's slot points at the counter; the group's entries are
//! found by walking the fields after it with the group's [`Group`] table (delimiter
//! and member tags), and are skipped by the walk of the enclosing level.
//!
//! # Errors
//!
//! Getters return [`FieldError`]: `Missing` for an absent required field,
//! `Invalid` for a value that does not parse as the field's type. Optional fields
//! give `Ok(None)` when absent. Structural problems (a field in the wrong place, a
//! group count that does not match) are validation's concern: views read what is
//! there, first occurrence wins, and never panic.
//!
//! ```
//! use fix_core::typed::{Level, View};
//! use fix_core::value::FixStr;
//! use fix_core::{Fields, Parser};
//!
//! // A level with header tags 8, 9, 35, body tags 11 and 58, trailer tag 10.
//! static LEVEL: Level = Level {
//!     tags: &[8, 9, 35, 11, 58, 10],
//!     by_tag: &[0, 1, 5, 3, 2, 4],
//!     required: &[0, 1, 2, 3, 5],
//!     groups: &[],
//!     index: &[],
//! };
//!
//! let bytes = b"8=FIX.4.4\x019=13\x0135=D\x0111=ORD1\x0110=156\x01";
//! let mut fields = Fields::<16>::new();
//! let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
//! let view = View::<6>::new(msg, &LEVEL);
//! let body = view.block();
//! assert_eq!(body.req::<FixStr>(3, 11).unwrap().as_bytes(), b"ORD1");
//! assert_eq!(body.get::<FixStr>(4, 58), Ok(None));
//! # Ok::<(), fix_core::Error>(())
//! ```

use core::fmt;
use core::marker::PhantomData;

use crate::validate;
use crate::value::{BufferTooSmall, FieldValue, NumInGroup};
use crate::{DataFields, EncodeError, Encoder, Field, Message};

/// The slot value of a tag that did not occur (also used for fields past index
/// `u16::MAX - 1`, which a view does not record).
pub const ABSENT: u16 = u16::MAX;

/// Why a typed getter could not return a value.
///
/// ```
/// use fix_core::typed::FieldError;
/// let e = FieldError::Missing { tag: 11 };
/// assert_eq!(e.tag(), 11);
/// assert_eq!(e.to_string(), "required field 11 is missing");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldError {
    /// A required field is absent.
    Missing {
        /// The field's tag.
        tag: u32,
    },
    /// The value does not parse as the field's type.
    Invalid {
        /// The field's tag.
        tag: u32,
        /// Offset of the value in the message.
        offset: usize,
    },
}

impl FieldError {
    /// The tag the error is about.
    ///
    /// ```
    /// # use fix_core::typed::FieldError;
    /// assert_eq!(FieldError::Invalid { tag: 44, offset: 30 }.tag(), 44);
    /// ```
    pub const fn tag(&self) -> u32 {
        match *self {
            FieldError::Missing { tag } | FieldError::Invalid { tag, .. } => tag,
        }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FieldError::Missing { tag } => write!(f, "required field {tag} is missing"),
            FieldError::Invalid { tag, offset } => {
                write!(f, "field {tag} has an invalid value at byte {offset}")
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for FieldError {}

/// Why wire bytes are not a value of a generated enum.
///
/// ```
/// use fix_core::typed::{EnumError, parse_char};
/// assert_eq!(parse_char(b"12"), Err(EnumError::WrongLength));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EnumError {
    /// The value is empty.
    Empty,
    /// A CHAR value that is not exactly one byte.
    WrongLength,
    /// An unlisted value of an integer field that is not an integer.
    NotInteger,
    /// A byte not allowed in a value (SOH, or a control or space byte in a CHAR).
    InvalidByte,
}

impl fmt::Display for EnumError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            EnumError::Empty => "empty value",
            EnumError::WrongLength => "a CHAR value must be one byte",
            EnumError::NotInteger => "not an integer",
            EnumError::InvalidByte => "invalid byte in value",
        })
    }
}

#[cfg(feature = "std")]
impl std::error::Error for EnumError {}

/// The type of a field, as the dictionary gives it (the validator's "incorrect data
/// format" check dispatches on it).
///
/// ```
/// use fix_core::typed::FieldType;
/// assert_ne!(FieldType::Price, FieldType::Qty);
/// ```
#[allow(missing_docs)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldType {
    Int,
    Length,
    TagNum,
    SeqNum,
    NumInGroup,
    DayOfMonth,
    Float,
    Qty,
    Price,
    PriceOffset,
    Amt,
    Percentage,
    Char,
    Boolean,
    String,
    MultipleCharValue,
    MultipleStringValue,
    MultipleValueString,
    Country,
    Currency,
    Exchange,
    MonthYear,
    UtcTimestamp,
    UtcTimeOnly,
    UtcDateOnly,
    UtcDate,
    LocalMktDate,
    LocalMktTime,
    TzTimeOnly,
    TzTimestamp,
    Date,
    Time,
    Data,
    XmlData,
    Language,
    Pattern,
    Tenor,
    Reserved100Plus,
    Reserved1000Plus,
    Reserved4000Plus,
    Xid,
    XidRef,
}

/// One field of a dictionary: tag, name, type and listed values.
///
/// ```
/// use fix_core::typed::{FieldDef, FieldType};
/// static SIDE: FieldDef = FieldDef::new(54, "Side", FieldType::Char, &[b"1", b"2"]);
/// assert!(SIDE.accepts(b"2") && !SIDE.accepts(b"3"));
/// ```
#[derive(Debug)]
pub struct FieldDef {
    /// Tag number.
    pub tag: u32,
    /// FIX name.
    pub name: &'static str,
    /// Type.
    pub ty: FieldType,
    /// Listed values, sorted bytewise (empty when the field is not enumerated).
    pub values: &'static [&'static [u8]],
    /// When every listed value is one byte, those bytes as a 256-bit set, so that
    /// checking a value is one bit test instead of a search (computed by
    /// [`FieldDef::new`] at compile time).
    byte_set: Option<[u64; 4]>,
}

impl FieldDef {
    /// A field definition (what generated `FIELDS` tables are made of).
    ///
    /// ```
    /// use fix_core::typed::{FieldDef, FieldType};
    /// static TEXT: FieldDef = FieldDef::new(58, "Text", FieldType::String, &[]);
    /// assert!(TEXT.accepts(b"anything"));
    /// ```
    pub const fn new(
        tag: u32,
        name: &'static str,
        ty: FieldType,
        values: &'static [&'static [u8]],
    ) -> Self {
        let mut set = [0u64; 4];
        let mut i = 0;
        let mut single = !values.is_empty();
        while i < values.len() {
            match values[i] {
                [b] => set[(*b / 64) as usize] |= 1 << (*b % 64),
                _ => single = false,
            }
            i += 1;
        }
        FieldDef {
            tag,
            name,
            ty,
            values,
            byte_set: if single { Some(set) } else { None },
        }
    }

    /// Whether `value` is allowed by the enumeration: always for a field that is not
    /// enumerated; for a multiple-value type every space-separated element must be
    /// listed.
    ///
    /// ```
    /// use fix_core::typed::{FieldDef, FieldType};
    /// static EXEC_INST: FieldDef = FieldDef::new(18, "ExecInst", FieldType::MultipleCharValue, &[b"1", b"G"]);
    /// assert!(EXEC_INST.accepts(b"1 G") && !EXEC_INST.accepts(b"1 X"));
    /// ```
    #[inline]
    pub fn accepts(&self, value: &[u8]) -> bool {
        if self.values.is_empty() {
            return true;
        }
        let listed = |v: &[u8]| match &self.byte_set {
            Some(set) => validate::byte_set_contains(set, v),
            None => self
                .values
                .binary_search_by(|x| x.iter().cmp(v.iter()))
                .is_ok(),
        };
        match self.ty {
            FieldType::MultipleCharValue
            | FieldType::MultipleStringValue
            | FieldType::MultipleValueString => {
                !value.is_empty() && value.split(|&b| b == b' ').all(listed)
            }
            _ => listed(value),
        }
    }
}

/// One level's slot table: a message (header, body, trailer) or a group entry.
///
/// ```
/// use fix_core::typed::Level;
/// static L: Level = Level { tags: &[55, 48, 22], by_tag: &[2, 1, 0], required: &[0], groups: &[], index: &[] };
/// assert_eq!(L.slot(48), Some(1));
/// assert!(L.contains(22) && !L.contains(54));
/// assert!(L.is_required(55) && !L.is_required(48));
/// ```
#[derive(Debug)]
pub struct Level {
    /// Slot to tag, in dictionary order (components expanded in place).
    pub tags: &'static [u32],
    /// The slots sorted by tag (then by slot), for lookups in a level without an
    /// `index`; generated levels with an index leave it empty.
    pub by_tag: &'static [u16],
    /// The required slots, ascending. A field inside an optional component is not
    /// required at this level.
    pub required: &'static [u16],
    /// The group counters of this level: `(slot, group)`, by slot.
    pub groups: &'static [(u16, &'static Group)],
    /// An open-addressing hash table for `O(1)` lookups, built by [`hash_index`]:
    /// a power-of-two number of buckets, linear probing from [`hash_tag`]. Empty
    /// means "binary search `by_tag`". Generated levels have one unless a tag or
    /// the slot count is past what a bucket holds ([`INDEX_TAG_LIMIT`],
    /// [`INDEX_SLOT_LIMIT`]).
    pub index: &'static [u32],
}

/// The bit of a [`Level::index`] bucket that marks a group counter's slot, so that
/// walking a message asks for the group only of fields that have one (a search of
/// [`Level::groups`] per field costs as much as the rest of the walk).
///
/// A bucket is `tag << 13 | DISJOINT_BIT? | GROUP_BIT? | slot + 1`, 0 when empty:
/// the tag sits in the bucket itself, so a probe is one load and one compare (a
/// bucket holding only the slot needs a second, dependent load of the slot's tag).
pub const GROUP_BIT: u32 = 1 << 11;

/// The bit of a [`Level::index`] bucket that marks a group counter whose entries
/// hold none of the level's tags (nested groups included). A walk of a whole
/// message need not skip such a group's entries: none of their fields can fill
/// one of the message's slots anyway, and skipping costs a probe of the entry's
/// table per field. (A group entry's walk still skips its nested groups: it ends
/// at the first field it does not hold.)
pub const DISJOINT_BIT: u32 = 1 << 12;

/// The slot + 1 bits of a [`Level::index`] bucket.
const SLOT_MASK: u32 = GROUP_BIT - 1;

/// The bits of a [`Level::index`] bucket below the tag.
const TAG_SHIFT: u32 = 13;

/// Tags of a level with an index are below this (bucket bits 13..32).
pub const INDEX_TAG_LIMIT: u32 = 1 << (32 - TAG_SHIFT);

/// A level with an index has fewer slots than this (bucket bits 0..11 hold slot + 1).
pub const INDEX_SLOT_LIMIT: usize = (1 << 11) - 1;

/// Builds a [`Level::index`] of `N` buckets (a power of two above `tags.len()`)
/// for a level's `tags`, marking the slots listed in `groups` as group counters
/// and those of them also in `disjoint` with [`DISJOINT_BIT`] (the caller vouches
/// that no tag under such a group is one of `tags`). Slots go in in order, so a
/// repeated tag probes in ascending slot order. A const fn, so generated crates
/// compute their indexes at compile time.
///
/// # Panics
///
/// When `N` is not a power of two larger than `tags.len()`, a tag is not below
/// [`INDEX_TAG_LIMIT`], or there are [`INDEX_SLOT_LIMIT`] slots or more (at
/// compile time when evaluated in a `static`).
///
/// ```
/// use fix_core::typed::{Level, hash_index};
/// static L: Level = Level {
///     tags: &[55, 48, 146], by_tag: &[2, 1, 0], required: &[], groups: &[],
///     index: &hash_index::<8>(&[55, 48, 146], &[2], &[]),
/// };
/// assert_eq!(L.slot(48), Some(1));
/// assert_eq!(L.slot(54), None);
/// ```
pub const fn hash_index<const N: usize>(
    tags: &[u32],
    groups: &[u16],
    disjoint: &[u16],
) -> [u32; N] {
    assert!(N.is_power_of_two() && N > tags.len(), "bucket count");
    assert!(tags.len() < INDEX_SLOT_LIMIT, "too many slots for an index");
    let bits = N.trailing_zeros();
    let mut table = [0u32; N];
    let mut slot = 0;
    while slot < tags.len() {
        let tag = tags[slot];
        assert!(tag < INDEX_TAG_LIMIT, "tag too large for an index");
        let mut flags = 0;
        let mut g = 0;
        while g < groups.len() {
            if groups[g] as usize == slot {
                flags = GROUP_BIT;
            }
            g += 1;
        }
        g = 0;
        while g < disjoint.len() {
            if disjoint[g] as usize == slot && flags != 0 {
                flags |= DISJOINT_BIT;
            }
            g += 1;
        }
        let mut b = hash_tag(tag, bits);
        while table[b] != 0 {
            b = (b + 1) & (N - 1);
        }
        table[b] = (tag << TAG_SHIFT) | flags | (slot as u32 + 1);
        slot += 1;
    }
    table
}

/// The bucket of `tag` in a [`Level::index`] of `2^bits` buckets (Fibonacci hashing).
///
/// ```
/// assert!(fix_core::typed::hash_tag(55, 4) < 16);
/// ```
pub const fn hash_tag(tag: u32, bits: u32) -> usize {
    if bits == 0 {
        return 0;
    }
    (tag.wrapping_mul(0x9E37_79B9) >> (32 - bits)) as usize
}

/// The slots of a [`Level`] holding one tag, ascending: [`Level::slots`].
#[derive(Clone, Debug)]
pub struct Slots<'l> {
    level: &'l Level,
    tag: u32,
    pos: usize,
    /// Buckets left to probe (hashed), or `usize::MAX` (binary-searched).
    left: usize,
}

impl Iterator for Slots<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let level = self.level;
        if self.left == usize::MAX {
            let s = usize::from(*level.by_tag.get(self.pos)?);
            if level.tags.get(s) != Some(&self.tag) {
                return None;
            }
            self.pos += 1;
            return Some(s);
        }
        let mask = level.index.len().wrapping_sub(1);
        while self.left > 0 {
            self.left -= 1;
            let bucket = *level.index.get(self.pos)?;
            let Some(slot) = ((bucket & SLOT_MASK) as usize).checked_sub(1) else {
                self.left = 0;
                return None;
            };
            self.pos = (self.pos + 1) & mask;
            if bucket >> TAG_SHIFT == self.tag {
                return Some(slot);
            }
        }
        None
    }
}

impl Level {
    /// An empty level.
    pub const EMPTY: Level = Level {
        tags: &[],
        by_tag: &[],
        required: &[],
        groups: &[],
        index: &[],
    };

    /// Number of slots.
    pub const fn len(&self) -> usize {
        self.tags.len()
    }

    /// Whether the level has no slots.
    pub const fn is_empty(&self) -> bool {
        self.tags.is_empty()
    }

    /// The tag of `slot`.
    pub fn tag(&self, slot: usize) -> Option<u32> {
        self.tags.get(slot).copied()
    }

    /// The first position in `by_tag` whose tag is not below `tag`.
    fn lower_bound(&self, tag: u32) -> usize {
        self.by_tag
            .partition_point(|&s| self.tags.get(usize::from(s)).is_some_and(|&t| t < tag))
    }

    /// The slots holding `tag` (more than one when a dictionary repeats a tag at one
    /// level), ascending.
    #[inline]
    pub fn slots(&self, tag: u32) -> Slots<'_> {
        let n = self.index.len();
        if n.is_power_of_two() {
            Slots {
                level: self,
                tag,
                pos: hash_tag(tag, n.trailing_zeros()),
                left: n,
            }
        } else {
            Slots {
                level: self,
                tag,
                pos: self.lower_bound(tag),
                left: usize::MAX,
            }
        }
    }

    /// The first slot holding `tag` (`O(1)` with an index, `O(log n)` without).
    #[inline]
    pub fn slot(&self, tag: u32) -> Option<usize> {
        self.probe(tag).map(|(slot, _)| slot)
    }

    /// The first slot holding `tag`, and its bucket's [`GROUP_BIT`] and
    /// [`DISJOINT_BIT`]. Inlined into the walks, where it runs once per field: a
    /// multiply, a shift, one load and one compare when the first bucket holds
    /// the tag.
    #[inline(always)]
    fn probe(&self, tag: u32) -> Option<(usize, u32)> {
        let n = self.index.len();
        if !n.is_power_of_two() {
            return self.search(tag);
        }
        // The probe of `Slots::next`, without the iterator's state: the table is
        // never full, so an empty bucket ends every miss.
        let mask = n - 1;
        let hash = (u64::from(tag.wrapping_mul(0x9E37_79B9)) >> (32 - n.trailing_zeros())) as usize;
        let hit = |bucket: u32| {
            let slot = ((bucket & SLOT_MASK) as usize).checked_sub(1)?;
            Some((slot, bucket & (GROUP_BIT | DISJOINT_BIT)))
        };
        // The first bucket settles nearly every probe (the table is at most half
        // full): it is tested outside the loop, which then runs only on a collision.
        let bucket = *self.index.get(hash & mask)?;
        if bucket >> TAG_SHIFT == tag {
            return hit(bucket);
        }
        if bucket == 0 {
            return None;
        }
        for pos in hash + 1..hash + n {
            let bucket = *self.index.get(pos & mask)?;
            if bucket >> TAG_SHIFT == tag {
                return hit(bucket);
            }
            if bucket == 0 {
                return None;
            }
        }
        None
    }

    /// [`Level::probe`] for a level without an index (hand-written tables): no
    /// group is known to be disjoint.
    #[inline(never)]
    fn search(&self, tag: u32) -> Option<(usize, u32)> {
        let slot = self.slots(tag).next()?;
        Some((
            slot,
            if self.group_at(slot).is_some() {
                GROUP_BIT
            } else {
                0
            },
        ))
    }

    /// Whether `tag` belongs to this level.
    pub fn contains(&self, tag: u32) -> bool {
        self.slot(tag).is_some()
    }

    /// Whether `tag` is required at this level.
    pub fn is_required(&self, tag: u32) -> bool {
        self.slots(tag)
            .any(|s| u16::try_from(s).is_ok_and(|s| self.required.binary_search(&s).is_ok()))
    }

    /// The required tags, in dictionary order.
    pub fn required_tags(&self) -> impl Iterator<Item = u32> + '_ {
        self.required
            .iter()
            .filter_map(|&s| self.tags.get(usize::from(s)).copied())
    }

    /// The group whose counter sits in `slot`.
    #[inline]
    pub fn group_at(&self, slot: usize) -> Option<&'static Group> {
        let groups = self.groups;
        let i = groups.partition_point(|&(s, _)| usize::from(s) < slot);
        match groups.get(i) {
            Some(&(s, g)) if usize::from(s) == slot => Some(g),
            _ => None,
        }
    }

    /// The group whose counter is `tag` at this level.
    pub fn group(&self, tag: u32) -> Option<&'static Group> {
        self.slots(tag).find_map(|s| self.group_at(s))
    }
}

/// A repeating group's table.
///
/// ```
/// use fix_core::typed::{Group, Level};
/// static PARTIES: Group = Group {
///     name: "NoPartyIDs", counter: 453, delimiter: 448,
///     entry: Level { tags: &[448, 447, 452], by_tag: &[1, 0, 2], required: &[], groups: &[], index: &[] },
/// };
/// assert!(PARTIES.entry.contains(452));
/// ```
#[derive(Debug)]
pub struct Group {
    /// The counter's FIX name.
    pub name: &'static str,
    /// The NUMINGROUP counter tag.
    pub counter: u32,
    /// The first tag of every entry.
    pub delimiter: u32,
    /// One entry's slots.
    pub entry: Level,
}

/// A message's table: its body (the header and trailer are the dictionary's), and
/// the header, body and trailer laid end to end for its view.
///
/// ```
/// use fix_core::typed::{Level, MessageDef};
/// static HB: MessageDef = MessageDef {
///     name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     view: Level { tags: &[8, 112, 10], by_tag: &[0, 2, 1], required: &[0, 2], groups: &[], index: &[] },
/// };
/// assert!(HB.body.contains(112));
/// assert_eq!(HB.view.slot(10), Some(2));
/// ```
#[derive(Debug)]
pub struct MessageDef {
    /// FIX name.
    pub name: &'static str,
    /// MsgType (35).
    pub msg_type: &'static [u8],
    /// Whether the message is session-level (`msgcat="admin"`).
    pub admin: bool,
    /// The body's slots.
    pub body: Level,
    /// The header's, body's and trailer's slots in one level (in that order), so
    /// that a view finds a field's slot with one probe instead of one per
    /// section. A tag in more than one section fills the first free slot, in
    /// that order.
    pub view: Level,
}

/// A whole dictionary's tables, as generated into a crate's `DICTIONARY`. It is a
/// [`validate::Dictionary`], so generated crates validate without loading XML.
///
/// ```
/// use fix_core::typed::{Dictionary, FieldDef, FieldType, Level, MessageDef};
/// use fix_core::DataFields;
/// static HB: MessageDef = MessageDef { name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     view: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] } };
/// static DICT: Dictionary = Dictionary {
///     begin_string: b"FIX.4.4",
///     fields: &[FieldDef::new(112, "TestReqID", FieldType::String, &[])],
///     messages: &[&HB],
///     header: &Level::EMPTY,
///     trailer: &Level::EMPTY,
///     data_fields: DataFields::NONE,
///     by_tag: &[],
/// };
/// assert_eq!(DICT.message(b"0").map(|m| m.name), Some("Heartbeat"));
/// assert_eq!(DICT.field(112).map(|f| f.name), Some("TestReqID"));
/// ```
#[derive(Debug)]
pub struct Dictionary {
    /// BeginString (8) of the dictionary's messages, e.g. `FIX.4.4`.
    pub begin_string: &'static [u8],
    /// Every field, sorted by tag.
    pub fields: &'static [FieldDef],
    /// Every message, sorted by MsgType.
    pub messages: &'static [&'static MessageDef],
    /// The header's fields (also the first slots of every message).
    pub header: &'static Level,
    /// The trailer's fields (also the last slots of every message).
    pub trailer: &'static Level,
    /// The LENGTH/DATA pairs.
    pub data_fields: DataFields<'static>,
    /// `by_tag[tag]` is the position of field `tag` in `fields` plus one (0: no such
    /// field), for tags below its length; built at compile time by
    /// [`field_index`]. Tags past it (or an empty index) are binary-searched.
    pub by_tag: &'static [u16],
}

/// Builds a [`Dictionary::by_tag`] index of `N` entries from `fields` at compile
/// time: the position plus one of each field whose tag is below `N`.
///
/// ```
/// use fix_core::typed::{FieldDef, FieldType, field_index};
/// static FIELDS: &[FieldDef] = &[
///     FieldDef::new(11, "ClOrdID", FieldType::String, &[]),
///     FieldDef::new(55, "Symbol", FieldType::String, &[]),
/// ];
/// static BY_TAG: [u16; 56] = field_index::<56>(FIELDS);
/// assert_eq!((BY_TAG[11], BY_TAG[55], BY_TAG[12]), (1, 2, 0));
/// ```
pub const fn field_index<const N: usize>(fields: &[FieldDef]) -> [u16; N] {
    let mut index = [0u16; N];
    let mut i = 0;
    // Positions past u16::MAX - 1 stay out of the index and are binary-searched.
    while i < fields.len() && i < u16::MAX as usize {
        let tag = fields[i].tag as usize;
        if tag < N {
            index[tag] = i as u16 + 1;
        }
        i += 1;
    }
    index
}

impl Dictionary {
    /// The field with tag `tag` (`O(1)` through [`by_tag`](Self::by_tag), `O(log n)`
    /// past it).
    #[inline]
    pub fn field(&self, tag: u32) -> Option<&'static FieldDef> {
        if let Some(&i) = self.by_tag.get(tag as usize) {
            return self.fields.get(usize::from(i).checked_sub(1)?);
        }
        let i = self.fields.binary_search_by_key(&tag, |f| f.tag).ok()?;
        self.fields.get(i)
    }

    /// The message with MsgType `msg_type` (`O(log n)`).
    pub fn message(&self, msg_type: &[u8]) -> Option<&'static MessageDef> {
        // MsgTypes are a byte or two: comparing them inline beats calling memcmp.
        let i = self
            .messages
            .binary_search_by(|m| m.msg_type.iter().cmp(msg_type.iter()))
            .ok()?;
        self.messages.get(i).copied()
    }
}

/// What a getter of a required field returns.
pub type Req<T> = Result<T, FieldError>;

/// What a getter of an optional field returns: `Ok(None)` when absent.
pub type Opt<T> = Result<Option<T>, FieldError>;

/// A generated builder (message body, component, group entry): writes its fields
/// through an encoder, in dictionary order.
///
/// ```
/// use fix_core::typed::{Build, put, put_group};
/// use fix_core::{EncodeError, Encoder};
/// struct Party<'b> { id: Option<fix_core::value::FixStr<'b>> }
/// impl Build for Party<'_> {
///     fn write(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError> {
///         put(enc, 448, &self.id)
///     }
/// }
/// let id = fix_core::value::FixStr::parse(b"P1").unwrap();
/// let mut buf = [0u8; 64];
/// let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"D");
/// put_group(&mut enc, 453, &[Party { id: Some(id) }, Party { id: None }])?;
/// let msg = enc.finish()?;
/// assert!(msg.windows(13).any(|w| w == b"453=2\x01448=P1\x01"));
/// # Ok::<(), EncodeError>(())
/// ```
pub trait Build {
    /// Writes the fields that are set; groups as counter then entries.
    fn write(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError>;
}

/// Writes `tag` when `value` is set.
///
/// ```
/// let mut buf = [0u8; 64];
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"0");
/// fix_core::typed::put(&mut enc, 112, &Some(fix_core::value::SeqNum(5)))?;
/// fix_core::typed::put::<i64>(&mut enc, 58, &None)?;
/// assert!(enc.finish()?.windows(7).any(|w| w == b"\x01112=5\x01"));
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[inline]
pub fn put<'v, V: FieldValue<'v>>(
    enc: &mut Encoder<'_>,
    tag: u32,
    value: &Option<V>,
) -> Result<(), EncodeError> {
    match value {
        Some(v) => enc.field(tag, v),
        None => Ok(()),
    }
}

/// Writes a DATA field and its LENGTH field (`length_tag` 0: the data alone) when
/// `value` is set.
///
/// ```
/// let mut buf = [0u8; 64];
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"A");
/// fix_core::typed::put_data(&mut enc, 95, 96, Some(b"a\x01b"))?;
/// assert!(enc.finish()?.windows(12).any(|w| w == b"95=3\x0196=a\x01b\x01"));
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[inline]
pub fn put_data(
    enc: &mut Encoder<'_>,
    length_tag: u32,
    tag: u32,
    value: Option<&[u8]>,
) -> Result<(), EncodeError> {
    match value {
        Some(v) if length_tag != 0 => enc.data(length_tag, tag, v),
        Some(v) => enc.raw(tag, v),
        None => Ok(()),
    }
}

/// Writes a group: the counter, then each entry. Nothing when `entries` is empty
/// (see [`Build`] for an example).
pub fn put_group<B: Build>(
    enc: &mut Encoder<'_>,
    counter: u32,
    entries: &[B],
) -> Result<(), EncodeError> {
    if entries.is_empty() {
        return Ok(());
    }
    let n = NumInGroup(u32::try_from(entries.len()).unwrap_or(u32::MAX));
    enc.field(counter, &n)?;
    entries.iter().try_for_each(|e| e.write(enc))
}

/// Writes a component when it is set.
///
/// ```
/// # use fix_core::typed::{Build, put_component};
/// # use fix_core::{EncodeError, Encoder};
/// struct Empty;
/// impl Build for Empty {
///     fn write(&self, _: &mut Encoder<'_>) -> Result<(), EncodeError> { Ok(()) }
/// }
/// let mut buf = [0u8; 32];
/// let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"0");
/// put_component(&mut enc, &Some(Empty))?;
/// put_component::<Empty>(&mut enc, &None)?;
/// # Ok::<(), EncodeError>(())
/// ```
#[inline]
pub fn put_component<B: Build>(
    enc: &mut Encoder<'_>,
    value: &Option<B>,
) -> Result<(), EncodeError> {
    match value {
        Some(c) => c.write(enc),
        None => Ok(()),
    }
}

/// The number a NUMINGROUP value announces, or `usize::MAX` if it is not a number
/// (then entries are found by their delimiters alone).
fn declared(value: &[u8]) -> usize {
    if value.is_empty() || value.len() > 9 {
        return usize::MAX;
    }
    value
        .iter()
        .try_fold(0usize, |n, &b| {
            b.is_ascii_digit().then(|| n * 10 + usize::from(b - b'0'))
        })
        .unwrap_or(usize::MAX)
}

/// Records field `pos` (tag `tag`) in the first free slot of `level` holding the
/// tag; returns the slot whose group (if any) the field counts: the one filled, or
/// the first when all are taken (or `slots` is empty, when skipping). `None` when
/// the level does not hold the tag.
#[inline(always)]
fn fill(level: &Level, tag: u32, pos: usize, slots: &mut [u16]) -> Option<Filled> {
    fill_at(level, tag, pos, slots, 0)
}

/// [`fill`] for a level whose slots start at `offset` in `slots`.
#[inline(always)]
fn fill_at(
    level: &Level,
    tag: u32,
    pos: usize,
    slots: &mut [u16],
    offset: usize,
) -> Option<Filled> {
    let (first, flags) = level.probe(tag)?;
    let value = u16::try_from(pos).unwrap_or(ABSENT);
    let filled = |slot, flags, taken| Filled { slot, flags, taken };
    match slots.get_mut(offset + first) {
        Some(s) if *s == ABSENT => {
            *s = value;
            return Some(filled(first, flags, true));
        }
        None => return Some(filled(first, flags, false)),
        Some(_) => {}
    }
    // A tag the level repeats (rare): its later slots fill in turn.
    for slot in level.slots(tag).filter(|&s| s != first) {
        if let Some(s) = slots.get_mut(offset + slot)
            && *s == ABSENT
        {
            *s = value;
            let flags = if level.group_at(slot).is_some() {
                GROUP_BIT
            } else {
                0
            };
            return Some(filled(slot, flags, true));
        }
    }
    Some(filled(first, flags, false))
}

/// What [`fill`] found: the slot, its [`GROUP_BIT`] and [`DISJOINT_BIT`], and
/// whether the field was recorded in it.
#[derive(Clone, Copy)]
struct Filled {
    slot: usize,
    flags: u32,
    taken: bool,
}

/// Whether a walk must skip the entries of the group whose counter has `flags`:
/// always within a group entry (whose walk ends at the first field it does not
/// hold), and at a message's level unless the group is disjoint from it.
#[inline(always)]
fn skips(flags: u32, delimited: bool) -> bool {
    flags & GROUP_BIT != 0 && (delimited || flags & DISJOINT_BIT == 0)
}

/// Walks `msg`'s fields from `pos` against `level`, recording each in `slots`
/// (nothing when `slots` is empty); with a `delimiter`, one group entry: it ends
/// at the next delimiter or the first tag the level does not hold. Returns where
/// it stopped.
///
/// This loop runs once per field of every group entry (twice: once to skip the
/// entry while walking the enclosing level, once to fill the entry's view), so
/// the rare cases (a tag the level repeats, a nested group) are calls out of it.
fn scan(
    level: &Level,
    msg: &Message<'_>,
    pos: usize,
    delimiter: Option<u32>,
    slots: &mut [u16],
) -> usize {
    match delimiter {
        Some(delimiter) => scan_from::<true>(level, msg, pos, delimiter, slots),
        None => scan_from::<false>(level, msg, pos, 0, slots),
    }
}

/// [`scan`], compiled once for a whole message (`DELIMITED` false: no delimiter
/// to test, nothing ends the walk early) and once for group entries.
#[inline(always)]
fn scan_from<const DELIMITED: bool>(
    level: &Level,
    msg: &Message<'_>,
    mut pos: usize,
    delimiter: u32,
    slots: &mut [u16],
) -> usize {
    let fields = msg.fields();
    let start = pos;
    while let Some(field) = fields.get(pos) {
        let tag = field.tag();
        if DELIMITED && tag == delimiter && pos != start {
            break;
        }
        let Some((mut slot, mut flags)) = level.probe(tag) else {
            if DELIMITED {
                break;
            }
            pos += 1;
            continue;
        };
        let value = u16::try_from(pos).unwrap_or(ABSENT);
        match slots.get_mut(slot) {
            Some(s) if *s == ABSENT => *s = value,
            None => {}
            Some(_) => (slot, flags) = refill(level, tag, value, slot, slots),
        }
        pos += 1;
        if skips(flags, DELIMITED) {
            pos = enter_group(level, slot, msg, field, pos);
        }
    }
    pos
}

/// A field whose first slot is taken: the next free slot holding the same tag (a
/// level that repeats a tag) takes it. Returns the slot the field counts for (the
/// one filled, or the first) and its flags (as [`Level::probe`] gives them).
#[cold]
#[inline(never)]
fn refill(level: &Level, tag: u32, value: u16, first: usize, slots: &mut [u16]) -> (usize, u32) {
    match fill(level, tag, usize::from(value), slots) {
        Some(f) if f.taken => (f.slot, f.flags),
        _ => (
            first,
            if level.group_at(first).is_some() {
                GROUP_BIT
            } else {
                0
            },
        ),
    }
}

/// Skips the entries of the group whose counter (`field`, in `slot`) was just
/// read; returns the position after them.
#[inline(never)]
fn enter_group(level: &Level, slot: usize, msg: &Message<'_>, field: &Field, pos: usize) -> usize {
    match level.group_at(slot) {
        Some(group) => skip_group(group, msg, pos, declared(msg.value(field))),
        None => pos,
    }
}

/// Walks all of `msg`'s fields against several levels laid end to end in
/// `slots` (header, body, trailer): each field goes to the first level that has
/// its tag, or, when that level's slots for it are taken, a later one with a free
/// slot (so a tag the header already holds can still fill the body's slot).
fn scan_sections(levels: &[&Level], msg: &Message<'_>, slots: &mut [u16]) {
    let fields = msg.fields();
    let mut pos = 0;
    while let Some(field) = fields.get(pos) {
        let tag = field.tag();
        let mut matched: Option<(&Level, Filled)> = None;
        let mut offset = 0;
        for level in levels {
            // A level's slots past the end of `slots` are not recorded.
            let here = if offset + level.len() <= slots.len() {
                fill_at(level, tag, pos, slots, offset)
            } else {
                fill(level, tag, pos, &mut [])
            };
            if let Some(filled) = here {
                matched.get_or_insert((level, filled));
                if filled.taken {
                    matched = Some((level, filled));
                    break;
                }
            }
            offset += level.len();
        }
        pos += 1;
        if let Some((level, filled)) = matched
            && skips(filled.flags, false)
            && let Some(group) = level.group_at(filled.slot)
        {
            pos = skip_group(group, msg, pos, declared(msg.value(field)));
        }
    }
}

/// Skips up to `count` entries of `group` starting at field `pos`.
fn skip_group(group: &Group, msg: &Message<'_>, mut pos: usize, count: usize) -> usize {
    let mut n = 0;
    while n < count
        && msg
            .fields()
            .get(pos)
            .is_some_and(|f| f.tag() == group.delimiter)
    {
        pos = scan(&group.entry, msg, pos, Some(group.delimiter), &mut []);
        n += 1;
    }
    pos
}

/// A message or group entry with its slots filled: `N` is its [`Level`]'s length.
///
/// Generated message and entry types wrap one. Building it is one pass over the
/// fields; every lookup after that is `O(1)`.
///
/// ```
/// use fix_core::typed::{Level, View};
/// use fix_core::{Fields, Parser};
/// static HB: Level = Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] };
/// let bytes = b"8=FIX.4.4\x019=12\x0135=0\x01112=T1\x0110=040\x01";
/// let mut fields = Fields::<8>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<1>::new(msg, &HB);
/// assert_eq!(view.block().raw(0), Some(&b"T1"[..]));
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct View<'a, const N: usize> {
    msg: Message<'a>,
    slots: [u16; N],
}

impl<'a, const N: usize> View<'a, N> {
    /// Walks all of `msg`'s fields against `level` (whose length should be `N`;
    /// extra slots stay empty, missing ones are not recorded).
    pub fn new(msg: Message<'a>, level: &'static Level) -> Self {
        let mut slots = [ABSENT; N];
        scan(level, &msg, 0, None, &mut slots);
        View { msg, slots }
    }

    /// Walks all of `msg`'s fields against `levels` laid end to end (a message's
    /// header, body and trailer; their lengths should add up to `N`).
    pub fn sections(msg: Message<'a>, levels: &[&'static Level]) -> Self {
        let mut slots = [ABSENT; N];
        scan_sections(levels, &msg, &mut slots);
        View { msg, slots }
    }

    /// The group entry of `group` starting at field `pos`, and where it ends.
    fn entry(msg: Message<'a>, group: &'static Group, pos: usize) -> (Self, usize) {
        let mut slots = [ABSENT; N];
        let end = scan(&group.entry, &msg, pos, Some(group.delimiter), &mut slots);
        (View { msg, slots }, end)
    }

    /// The underlying message.
    pub fn message(&self) -> &Message<'a> {
        &self.msg
    }

    /// The field index recorded for each slot ([`ABSENT`] when none).
    pub fn slots(&self) -> &[u16; N] {
        &self.slots
    }

    /// All slots, for the getters.
    #[inline]
    pub fn block(&self) -> Block<'_, 'a> {
        Block {
            msg: &self.msg,
            slots: &self.slots,
        }
    }

    /// The slots `offset..offset + len` (a component's run).
    #[inline]
    pub fn sub(&self, offset: usize, len: usize) -> Block<'_, 'a> {
        self.block().sub(offset, len)
    }

    /// [`Block::get`] over all slots.
    #[inline]
    pub fn get<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Opt<T> {
        self.block().get(slot, tag)
    }

    /// [`Block::req`] over all slots.
    #[inline]
    pub fn req<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Req<T> {
        self.block().req(slot, tag)
    }

    /// [`Block::data`] over all slots.
    #[inline]
    pub fn data(&self, slot: usize) -> Option<&'a [u8]> {
        self.block().data(slot)
    }

    /// [`Block::req_data`] over all slots.
    #[inline]
    pub fn req_data(&self, slot: usize, tag: u32) -> Req<&'a [u8]> {
        self.block().req_data(slot, tag)
    }

    /// [`Block::group`] over all slots.
    #[inline]
    pub fn group<E: From<View<'a, M>>, const M: usize>(
        &self,
        slot: usize,
        group: &'static Group,
    ) -> Entries<'a, E, M> {
        self.block().group(slot, group)
    }
}

/// A run of a view's slots: a whole message or entry, or one component in it.
/// Generated component view types wrap one, so one type serves every message.
///
/// ```
/// use fix_core::typed::{Level, View};
/// use fix_core::value::FixStr;
/// use fix_core::{Fields, Parser};
/// // Body: 11, then a two-slot component (55, 48).
/// static L: Level = Level { tags: &[11, 55, 48], by_tag: &[0, 2, 1], required: &[0], groups: &[], index: &[] };
/// let bytes = b"8=FIX.4.4\x019=17\x0135=D\x0111=A\x0155=IBM\x0110=075\x01";
/// let mut fields = Fields::<8>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<3>::new(msg, &L);
/// let instrument = view.sub(1, 2);
/// assert_eq!(instrument.req::<FixStr>(0, 55).unwrap().as_bytes(), b"IBM");
/// assert_eq!(instrument.get::<FixStr>(1, 48), Ok(None));
/// assert!(!instrument.has(1) && instrument.has(0));
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Block<'v, 'a> {
    msg: &'v Message<'a>,
    slots: &'v [u16],
}

impl<'v, 'a> Block<'v, 'a> {
    /// The slots `offset..offset + len` of this block (empty when out of range).
    #[inline]
    pub fn sub(&self, offset: usize, len: usize) -> Block<'v, 'a> {
        Block {
            msg: self.msg,
            slots: self.slots.get(offset..offset + len).unwrap_or(&[]),
        }
    }

    /// The underlying message.
    pub fn message(&self) -> &'v Message<'a> {
        self.msg
    }

    /// The field recorded in `slot`.
    #[inline(always)]
    pub fn field(&self, slot: usize) -> Option<&'a Field> {
        let i = *self.slots.get(slot)?;
        self.msg.fields().get(usize::from(i))
    }

    /// The raw value in `slot`.
    #[inline]
    pub fn raw(&self, slot: usize) -> Option<&'a [u8]> {
        let f = self.field(slot)?;
        self.msg.bytes().get(f.value_range())
    }

    /// Whether `slot` holds a field.
    #[inline]
    pub fn has(&self, slot: usize) -> bool {
        self.field(slot).is_some()
    }

    /// The optional field `tag` in `slot`, parsed as `T`.
    #[inline(always)]
    pub fn get<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Result<Option<T>, FieldError> {
        let Some(f) = self.field(slot) else {
            return Ok(None);
        };
        let range = f.value_range();
        let offset = range.start;
        let bytes = self.msg.bytes().get(range).unwrap_or(&[]);
        T::parse_fix(bytes)
            .map(Some)
            .map_err(|_| FieldError::Invalid { tag, offset })
    }

    /// The required field `tag` in `slot`, parsed as `T`.
    #[inline(always)]
    pub fn req<T: FieldValue<'a>>(&self, slot: usize, tag: u32) -> Result<T, FieldError> {
        self.get(slot, tag)?.ok_or(FieldError::Missing { tag })
    }

    /// The optional DATA field in `slot`, as bytes.
    #[inline]
    pub fn data(&self, slot: usize) -> Option<&'a [u8]> {
        self.raw(slot)
    }

    /// The required DATA field `tag` in `slot`, as bytes.
    #[inline]
    pub fn req_data(&self, slot: usize, tag: u32) -> Result<&'a [u8], FieldError> {
        self.raw(slot).ok_or(FieldError::Missing { tag })
    }

    /// The entries of `group`, whose counter sits in `slot`. `M` is the length of
    /// the entry's level; `E` is the generated entry type.
    pub fn group<E: From<View<'a, M>>, const M: usize>(
        &self,
        slot: usize,
        group: &'static Group,
    ) -> Entries<'a, E, M> {
        let (pos, remaining) = match self.field(slot) {
            Some(f) => {
                let i = usize::from(self.slots.get(slot).copied().unwrap_or(ABSENT));
                (i + 1, declared(self.msg.value(f)))
            }
            None => (0, 0),
        };
        Entries {
            msg: *self.msg,
            group,
            pos,
            remaining,
            entry: PhantomData,
        }
    }
}

/// The entries of a repeating group, in wire order: an iterator of generated entry
/// types. It stops at the count the NUMINGROUP field declares or at the first field
/// that does not start an entry, whichever comes first; never allocates.
///
/// ```
/// use fix_core::typed::{Group, Level, View};
/// use fix_core::{Fields, Parser};
/// static PARTIES: Group = Group { name: "NoPartyIDs", counter: 453, delimiter: 448,
///     entry: Level { tags: &[448, 452], by_tag: &[0, 1], required: &[], groups: &[], index: &[] } };
/// static BODY: Level = Level { tags: &[453], by_tag: &[0], required: &[], groups: &[(0, &PARTIES)], index: &[] };
/// struct Party<'a>(View<'a, 2>);
/// impl<'a> From<View<'a, 2>> for Party<'a> { fn from(v: View<'a, 2>) -> Self { Party(v) } }
///
/// let bytes = b"8=FIX.4.4\x019=29\x0135=D\x01453=2\x01448=A\x01452=3\x01448=B\x0110=068\x01";
/// let mut fields = Fields::<16>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<1>::new(msg, &BODY);
/// let ids: Vec<_> = view.group::<Party, 2>(0, &PARTIES).map(|p| p.0.block().raw(0)).collect();
/// assert_eq!(ids, [Some(&b"A"[..]), Some(&b"B"[..])]);
/// # Ok::<(), fix_core::Error>(())
/// ```
pub struct Entries<'a, E, const M: usize> {
    msg: Message<'a>,
    group: &'static Group,
    pos: usize,
    remaining: usize,
    entry: PhantomData<fn() -> E>,
}

impl<E, const M: usize> fmt::Debug for Entries<'_, E, M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entries")
            .field("group", &self.group.name)
            .field("pos", &self.pos)
            .finish()
    }
}

impl<E, const M: usize> Clone for Entries<'_, E, M> {
    fn clone(&self) -> Self {
        Entries {
            msg: self.msg,
            group: self.group,
            pos: self.pos,
            remaining: self.remaining,
            entry: PhantomData,
        }
    }
}

impl<'a, E: From<View<'a, M>>, const M: usize> Iterator for Entries<'a, E, M> {
    type Item = E;

    fn next(&mut self) -> Option<E> {
        if self.remaining == 0 {
            return None;
        }
        let f = self.msg.fields().get(self.pos)?;
        if f.tag() != self.group.delimiter {
            self.remaining = 0;
            return None;
        }
        let (view, end) = View::entry(self.msg, self.group, self.pos);
        self.pos = end;
        self.remaining -= 1;
        Some(E::from(view))
    }
}

/// A table from byte to `1 + ` the index of that byte in `values` (0 for bytes not
/// listed): the `O(1)` decoder of single-byte (CHAR) enums.
///
/// ```
/// use fix_core::typed::byte_table;
/// const T: [u8; 256] = byte_table(b"12");
/// assert_eq!((T[b'1' as usize], T[b'2' as usize], T[b'3' as usize]), (1, 2, 0));
/// ```
pub const fn byte_table(values: &[u8]) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut i = 0;
    while i < values.len() && i < 255 {
        table[values[i] as usize] = (i + 1) as u8;
        i += 1;
    }
    table
}

/// The single byte of a CHAR value (printable ASCII other than space).
///
/// ```
/// use fix_core::typed::{EnumError, parse_char};
/// assert_eq!(parse_char(b"1"), Ok(b'1'));
/// assert_eq!(parse_char(b""), Err(EnumError::Empty));
/// assert_eq!(parse_char(b"\x01"), Err(EnumError::InvalidByte));
/// ```
pub fn parse_char(bytes: &[u8]) -> Result<u8, EnumError> {
    match bytes {
        [] => Err(EnumError::Empty),
        [b] if (0x21..=0x7e).contains(b) => Ok(*b),
        [_] => Err(EnumError::InvalidByte),
        _ => Err(EnumError::WrongLength),
    }
}

/// Decodes a CHAR enum through its [`byte_table`]: the listed variant, or `other`.
///
/// ```
/// use fix_core::typed::{byte_table, decode_char};
/// #[derive(Clone, Copy, Debug, PartialEq)]
/// enum Side { Buy, Sell, Other(u8) }
/// const TABLE: [u8; 256] = byte_table(b"12");
/// const VARIANTS: [Side; 2] = [Side::Buy, Side::Sell];
/// assert_eq!(decode_char(b"2", &TABLE, &VARIANTS, Side::Other), Ok(Side::Sell));
/// assert_eq!(decode_char(b"7", &TABLE, &VARIANTS, Side::Other), Ok(Side::Other(b'7')));
/// ```
#[inline]
pub fn decode_char<T: Copy>(
    bytes: &[u8],
    table: &[u8; 256],
    variants: &[T],
    other: fn(u8) -> T,
) -> Result<T, EnumError> {
    let b = parse_char(bytes)?;
    let i = usize::from(table[usize::from(b)]);
    Ok(match i.checked_sub(1).and_then(|i| variants.get(i)) {
        Some(&v) => v,
        None => other(b),
    })
}

/// Checks an unlisted value of an enumerated field: non-empty, no SOH, and for
/// integer types an optional `-` and digits.
///
/// ```
/// use fix_core::typed::{EnumError, check_other};
/// assert_eq!(check_other(b"17", true), Ok(b"17".as_slice()));
/// assert_eq!(check_other(b"1x", true), Err(EnumError::NotInteger));
/// assert_eq!(check_other(b"XY", false), Ok(b"XY".as_slice()));
/// ```
pub fn check_other(bytes: &[u8], integer: bool) -> Result<&[u8], EnumError> {
    if bytes.is_empty() {
        return Err(EnumError::Empty);
    }
    if integer {
        let digits = bytes.strip_prefix(b"-").unwrap_or(bytes);
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return Err(EnumError::NotInteger);
        }
    } else if bytes.contains(&crate::SOH) {
        return Err(EnumError::InvalidByte);
    }
    Ok(bytes)
}

static ALL_BYTES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// The one-byte slice holding `b`, with a `'static` lifetime (how a CHAR enum's
/// unlisted value is written back).
///
/// ```
/// assert_eq!(fix_core::typed::byte_str(b'Z'), b"Z");
/// ```
pub fn byte_str(b: u8) -> &'static [u8] {
    let i = usize::from(b);
    &ALL_BYTES[i..i + 1]
}

/// Copies `value` to the start of `out` (an enum's `write_fix`).
///
/// ```
/// let mut buf = [0u8; 2];
/// assert_eq!(fix_core::typed::write_bytes(b"AB", &mut buf), Ok(2));
/// ```
pub fn write_bytes(value: &[u8], out: &mut [u8]) -> Result<usize, BufferTooSmall> {
    match out.get_mut(..value.len()) {
        Some(dst) => {
            dst.copy_from_slice(value);
            Ok(value.len())
        }
        None => Err(BufferTooSmall {
            needed: value.len(),
        }),
    }
}

impl FieldType {
    /// The data format validation checks for this type (the same mapping as the
    /// run-time dictionary's).
    ///
    /// ```
    /// use fix_core::typed::FieldType;
    /// assert_eq!(FieldType::Qty.format(), fix_core::validate::FieldType::Decimal);
    /// ```
    pub const fn format(self) -> validate::FieldType {
        use validate::FieldType as V;
        match self {
            FieldType::Int
            | FieldType::Reserved100Plus
            | FieldType::Reserved1000Plus
            | FieldType::Reserved4000Plus => V::Int,
            FieldType::Length | FieldType::TagNum | FieldType::SeqNum | FieldType::NumInGroup => {
                V::UInt
            }
            FieldType::DayOfMonth => V::DayOfMonth,
            FieldType::Float
            | FieldType::Qty
            | FieldType::Price
            | FieldType::PriceOffset
            | FieldType::Amt
            | FieldType::Percentage => V::Decimal,
            FieldType::Char => V::Char,
            FieldType::Boolean => V::Boolean,
            FieldType::MultipleCharValue => V::MultipleCharValue,
            FieldType::MultipleStringValue | FieldType::MultipleValueString => {
                V::MultipleValueString
            }
            FieldType::Country => V::Country,
            FieldType::Currency => V::Currency,
            FieldType::Exchange => V::Exchange,
            FieldType::MonthYear => V::MonthYear,
            FieldType::UtcTimestamp => V::UtcTimestamp,
            FieldType::UtcTimeOnly => V::UtcTimeOnly,
            FieldType::UtcDateOnly | FieldType::UtcDate => V::UtcDateOnly,
            FieldType::LocalMktDate => V::LocalMktDate,
            FieldType::TzTimeOnly => V::TzTimeOnly,
            FieldType::TzTimestamp => V::TzTimestamp,
            FieldType::Data | FieldType::XmlData => V::Data,
            _ => V::Unchecked,
        }
    }
}

/// Generated tables are a validation dictionary: `Validator::validate(&DICTIONARY, &msg)`.
impl validate::Dictionary for Dictionary {
    type Layout = Level;

    fn field_type(&self, tag: u32) -> Option<validate::FieldType> {
        self.field(tag).map(|f| f.ty.format())
    }

    #[inline]
    fn field_info(&self, tag: u32) -> Option<validate::FieldInfo> {
        self.field(tag).map(|f| validate::FieldInfo {
            format: f.ty.format(),
            enumerated: !f.values.is_empty(),
        })
    }

    #[inline]
    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        self.field(tag).is_none_or(|f| f.accepts(value))
    }

    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        let f = self.field(tag)?;
        match f.ty {
            FieldType::MultipleCharValue
            | FieldType::MultipleStringValue
            | FieldType::MultipleValueString => None,
            _ => f.byte_set,
        }
    }

    fn header(&self) -> &Level {
        self.header
    }

    fn trailer(&self) -> &Level {
        self.trailer
    }

    fn message(&self, msg_type: &[u8]) -> Option<&Level> {
        Dictionary::message(self, msg_type).map(|m| &m.body)
    }
}

impl validate::Layout for Level {
    #[inline(always)]
    fn member(&self, tag: u32) -> Option<validate::Member<'_, Self>> {
        let (slot, flags) = self.probe(tag)?;
        let group = if flags & GROUP_BIT != 0 {
            self.group_at(slot)
        } else {
            None
        };
        Some(validate::Member {
            index: slot,
            group: group.map(|g| validate::Group {
                delimiter: g.delimiter,
                entry: &g.entry,
            }),
            info: None,
            values: None,
        })
    }

    fn len(&self) -> usize {
        self.tags.len()
    }

    fn for_each_required(&self, f: &mut dyn FnMut(u32, usize) -> bool) {
        for &slot in self.required {
            let slot = usize::from(slot);
            if let Some(&tag) = self.tags.get(slot)
                && !f(tag, slot)
            {
                return;
            }
        }
    }
}

// ----- Declarative macros for generated code ------------------------------------
//
// `fix-codegen` writes one short invocation per view, builder, enum and tag list;
// the expansion (structs, getters, `From`, `Build`, enum decoding) is written once
// here. Docs of generated items are assembled from the FIX name, tag and type the
// invocation carries. The macros are exported under `typed` (`t::view!`, ...); the
// `__fix_*` names are their helpers.

/// A read view for generated code: a component (`block`), a group entry
/// (`entry`) or a message (`message`), with one getter per member.
///
/// Members: `opt`/`req name(slot, tag, "FixName", TYPE, RustType)` for fields,
/// `data`/`req_data name(slot, tag, "FixName", TYPE)` for DATA fields,
/// `group`/`req_group name(slot, counter, "FixName", EntryType, entry_len, TABLE)`
/// for repeating groups and `comp`/`req_comp name(slot, len, "FixName",
/// ComponentType)` for components.
///
/// ```
/// use fix_core::typed::{self as t, Level, View};
/// use fix_core::value::FixStr;
/// use fix_core::{Fields, Parser};
///
/// t::view! {
///     /// Two fields of an order.
///     block Order {
///         req cl_ord_id(0, 11, "ClOrdID", STRING, FixStr<'a>);
///         opt text(1, 58, "Text", STRING, FixStr<'a>);
///     }
/// }
/// static L: Level = Level { tags: &[11, 58], by_tag: &[0, 1], required: &[0], groups: &[], index: &[] };
/// let bytes = b"8=FIX.4.4\x019=13\x0135=D\x0111=ORD1\x0110=156\x01";
/// let mut fields = Fields::<8>::new();
/// let msg = Parser::new().parse(bytes, &mut fields)?.complete().unwrap();
/// let view = View::<2>::new(msg, &L);
/// let order = Order(view.block());
/// assert_eq!(order.cl_ord_id().unwrap().as_bytes(), b"ORD1");
/// assert_eq!(order.text(), Ok(None));
/// # Ok::<(), fix_core::Error>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_view {
    (
        $(#[$m:meta])*
        block $name:ident { $($kind:ident $get:ident($($a:tt)*);)* }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name<'v, 'a>(pub $crate::typed::Block<'v, 'a>);
        impl<'v, 'a> $name<'v, 'a> {
            $($crate::__fix_getter! { 'v $kind $get $($a)* })*
        }
    };
    (
        $(#[$m:meta])*
        entry $name:ident[$n:literal] { $($kind:ident $get:ident($($a:tt)*);)* }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug)]
        pub struct $name<'a>($crate::typed::View<'a, $n>);
        impl<'a> ::core::convert::From<$crate::typed::View<'a, $n>> for $name<'a> {
            #[inline]
            fn from(view: $crate::typed::View<'a, $n>) -> Self {
                Self(view)
            }
        }
        impl<'a> $name<'a> {
            /// The underlying message.
            #[inline]
            pub fn message(&self) -> &$crate::Message<'a> {
                self.0.message()
            }
            $($crate::__fix_getter! { '_ $kind $get $($a)* })*
        }
    };
    (
        $(#[$m:meta])*
        message $name:ident[$n:literal] = $def:ident($mt:literal, $h:literal, $t:literal, $tl:literal)
        $(builder $bty:ident($($arg:ident: $aty:ty),*))?
        { $($kind:ident $get:ident($($a:tt)*);)* }
    ) => {
        $crate::__fix_view! {
            $(#[$m])*
            entry $name[$n] { $($kind $get($($a)*);)* }
        }
        impl<'a> $name<'a> {
            /// MsgType (35).
            pub const MSG_TYPE: &'static [u8] = $mt;
            /// The slot table.
            pub const DEF: &'static $crate::typed::MessageDef = &$def;
            /// Reads `msg` (one pass over its fields). Does not check MsgType: see
            /// [`Message::new`](super::Message::new).
            #[inline]
            pub fn new(msg: $crate::Message<'a>) -> Self {
                Self($crate::typed::View::new(msg, &$def.view))
            }
            /// The standard header.
            #[inline]
            pub fn header(&self) -> super::components::Header<'_, 'a> {
                super::components::Header(self.0.sub(0, $h))
            }
            /// The standard trailer.
            #[inline]
            pub fn trailer(&self) -> super::components::Trailer<'_, 'a> {
                super::components::Trailer(self.0.sub($t, $tl))
            }
            $(
                /// A builder, with the required body fields.
                #[inline]
                pub fn builder<'b>($($arg: $aty),*) -> $bty<'b> {
                    $bty::new($($arg),*)
                }
            )?
        }
    };
}

/// One getter of [`view!`]'s views.
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_getter {
    ($lt:lifetime opt $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident, $t:ty) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ".")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Opt<$t> {
            self.0.get($slot, $tag)
        }
    };
    ($lt:lifetime req $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident, $t:ty) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ", required.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Req<$t> {
            self.0.req($slot, $tag)
        }
    };
    ($lt:lifetime data $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ".")]
        #[inline]
        pub fn $get(&self) -> ::core::option::Option<&'a [u8]> {
            self.0.data($slot)
        }
    };
    ($lt:lifetime req_data $get:ident $slot:literal, $tag:literal, $fix:literal, $ty:ident) => {
        #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ", required.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Req<&'a [u8]> {
            self.0.req_data($slot, $tag)
        }
    };
    ($lt:lifetime group $get:ident $slot:literal, $tag:literal, $fix:literal, $($e:ident)::+, $n:literal, $($g:ident)::+) => {
        #[doc = concat!("The `", $fix, "` (", $tag, ") repeating group: its entries in wire order.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Entries<'a, $($e)::+<'a>, $n> {
            self.0.group($slot, &$($g)::+)
        }
    };
    ($lt:lifetime req_group $get:ident $slot:literal, $tag:literal, $fix:literal, $($e:ident)::+, $n:literal, $($g:ident)::+) => {
        #[doc = concat!("The `", $fix, "` (", $tag, ") repeating group, required: its entries in wire order.")]
        #[inline]
        pub fn $get(&self) -> $crate::typed::Entries<'a, $($e)::+<'a>, $n> {
            self.0.group($slot, &$($g)::+)
        }
    };
    ($lt:lifetime comp $get:ident $slot:literal, $len:literal, $fix:literal, $($c:ident)::+) => {
        #[doc = concat!("The `", $fix, "` component.")]
        #[inline]
        pub fn $get(&self) -> $($c)::+<$lt, 'a> {
            $($c)::+(self.0.sub($slot, $len))
        }
    };
    ($lt:lifetime req_comp $get:ident $slot:literal, $len:literal, $fix:literal, $($c:ident)::+) => {
        #[doc = concat!("The `", $fix, "` component (required).")]
        #[inline]
        pub fn $get(&self) -> $($c)::+<$lt, 'a> {
            $($c)::+(self.0.sub($slot, $len))
        }
    };
}

/// A builder for generated code: a struct of public fields with `Default`, a `new`
/// taking the required fields, [`Build`], and for a message (`message b"MsgType"`)
/// an `encode` after the standard header.
///
/// Fields: `name: Type = kind(..)` with kind `opt`/`req(tag, "FixName", TYPE)`,
/// `data`/`req_data(length_tag, tag, "FixName", TYPE)`, `group(counter,
/// "FixName")`, `comp("FixName")`, or `phantom()` (ties the lifetime).
///
/// ```
/// use fix_core::typed::{self as t, Build};
/// use fix_core::value::FixStr;
///
/// t::builder! {
///     /// Builds a party.
///     PartyBuilder(party_id: FixStr<'b>) {
///         party_id: Option<FixStr<'b>> = req(448, "PartyID", STRING);
///         party_role: Option<i64> = opt(452, "PartyRole", INT);
///     }
/// }
/// let party = PartyBuilder { party_role: Some(3), ..PartyBuilder::new(FixStr::parse(b"P1").unwrap()) };
/// let mut buf = [0u8; 64];
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"D");
/// party.write(&mut enc)?;
/// assert!(enc.finish()?.windows(13).any(|w| w == b"448=P1\x01452=3\x01"));
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_builder {
    (
        $(#[$m:meta])*
        $name:ident($($arg:ident: $aty:ty),*) $(message $mt:literal)? {
            $($f:ident: $fty:ty = $kind:ident($($a:tt)*);)*
        }
    ) => {
        $(#[$m])*
        #[derive(Copy, Debug, Default)]
        pub struct $name<'b> {
            $(
                #[doc = $crate::__fix_builder_doc!($kind $($a)*)]
                pub $f: $fty,
            )*
        }
        impl ::core::clone::Clone for $name<'_> {
            #[inline]
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<'b> $name<'b> {
            /// A builder with the required fields set.
            #[inline]
            pub fn new($($arg: $aty),*) -> Self {
                Self {
                    $($arg: ::core::option::Option::Some($arg),)*
                    ..::core::default::Default::default()
                }
            }
            $(
                /// Encodes the message into `buf`: header (8, 9, 35, then the header
                /// fields in ascending tag order), body, CheckSum.
                #[inline]
                pub fn encode<'o>(
                    &self,
                    header: &super::components::HeaderBuilder<'_>,
                    buf: &'o mut [u8],
                ) -> ::core::result::Result<&'o [u8], $crate::EncodeError> {
                    let mut enc = header.start(buf, $mt)?;
                    $crate::typed::Build::write(self, &mut enc)?;
                    enc.finish()
                }
            )?
        }
        impl $crate::typed::Build for $name<'_> {
            #[inline]
            fn write(
                &self,
                enc: &mut $crate::Encoder<'_>,
            ) -> ::core::result::Result<(), $crate::EncodeError> {
                $($crate::__fix_put!(enc, self.$f, $kind $($a)*);)*
                let _ = enc;
                Ok(())
            }
        }
    };
}

/// The doc of one [`builder!`] field.
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_builder_doc {
    (opt $tag:literal, $fix:literal, $ty:ident) => {
        concat!(" `", $fix, "` (", $tag, "), ", stringify!($ty), ".")
    };
    (req $tag:literal, $fix:literal, $ty:ident) => {
        concat!(
            " `",
            $fix,
            "` (",
            $tag,
            "), ",
            stringify!($ty),
            ", required."
        )
    };
    (data $len:literal, $tag:literal, $fix:literal, $ty:ident) => {
        concat!(" `", $fix, "` (", $tag, "), ", stringify!($ty), ".")
    };
    (req_data $len:literal, $tag:literal, $fix:literal, $ty:ident) => {
        concat!(
            " `",
            $fix,
            "` (",
            $tag,
            "), ",
            stringify!($ty),
            ", required."
        )
    };
    (group $tag:literal, $fix:literal) => {
        concat!(" The `", $fix, "` (", $tag, ") group's entries.")
    };
    (comp $fix:literal) => {
        concat!(" The `", $fix, "` component.")
    };
    (phantom) => {
        " Ties the builder's lifetime (leave it `Default`)."
    };
}

/// One write of [`builder!`]'s `Build::write`.
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_put {
    ($enc:ident, $v:expr, opt $tag:literal, $($rest:tt)*) => {
        $crate::typed::put($enc, $tag, &$v)?
    };
    ($enc:ident, $v:expr, req $tag:literal, $($rest:tt)*) => {
        $crate::typed::put($enc, $tag, &$v)?
    };
    ($enc:ident, $v:expr, data $len:literal, $tag:literal, $($rest:tt)*) => {
        $crate::typed::put_data($enc, $len, $tag, $v)?
    };
    ($enc:ident, $v:expr, req_data $len:literal, $tag:literal, $($rest:tt)*) => {
        $crate::typed::put_data($enc, $len, $tag, $v)?
    };
    ($enc:ident, $v:expr, group $tag:literal, $($rest:tt)*) => {
        $crate::typed::put_group($enc, $tag, $v)?
    };
    ($enc:ident, $v:expr, comp $($rest:tt)*) => {
        $crate::typed::put_component($enc, &$v)?
    };
    ($enc:ident, $v:expr, phantom) => {
        ()
    };
}

/// A CHAR enum for generated code: variants with their byte, an `Other(u8)` for
/// unlisted values, `O(1)` decoding through a 256-byte table.
///
/// ```
/// fix_core::typed::char_enum! {
///     /// Values of `Side` (54), CHAR.
///     Side {
///         /// `1`: BUY.
///         Buy = b'1',
///         /// `2`: SELL.
///         Sell = b'2',
///     }
/// }
/// assert_eq!(Side::from_bytes(b"2"), Ok(Side::Sell));
/// assert_eq!(Side::from_bytes(b"7"), Ok(Side::Other(b'7')));
/// assert_eq!(Side::Buy.as_bytes(), b"1");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_char_enum {
    (
        $(#[$m:meta])*
        $name:ident { $($(#[$vm:meta])* $var:ident = $b:literal,)* }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)*
            /// A value the dictionary does not list.
            Other(u8),
        }
        impl $name {
            const TABLE: [u8; 256] = $crate::typed::byte_table(&[$($b),*]);
            const VARIANTS: &'static [Self] = &[$(Self::$var),*];
            /// Decodes wire bytes in `O(1)` (one table load).
            #[inline]
            pub fn from_bytes(bytes: &[u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                $crate::typed::decode_char(bytes, &Self::TABLE, Self::VARIANTS, Self::Other)
            }
            /// The wire bytes.
            #[inline]
            pub fn as_bytes(&self) -> &'static [u8] {
                match self {
                    $(Self::$var => &[$b],)*
                    Self::Other(b) => $crate::typed::byte_str(*b),
                }
            }
        }
        impl<'a> $crate::value::FieldValue<'a> for $name {
            type Error = $crate::typed::EnumError;
            #[inline]
            fn parse_fix(bytes: &'a [u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                Self::from_bytes(bytes)
            }
            #[inline]
            fn write_fix(&self, out: &mut [u8]) -> ::core::result::Result<usize, $crate::value::BufferTooSmall> {
                $crate::typed::write_bytes(self.as_bytes(), out)
            }
        }
    };
}

/// An enum of multi-byte values for generated code: variants with their wire
/// bytes, `Other(&[u8])` for unlisted values (checked as an integer when the first
/// argument is `true`), decoding through a compiled `match`.
///
/// ```
/// fix_core::typed::bytes_enum! {
///     /// Values of `SecurityType` (167), STRING.
///     SecurityType(false) {
///         /// `CS`: COMMON_STOCK.
///         CommonStock = b"CS",
///         /// `FUT`: FUTURE.
///         Future = b"FUT",
///     }
/// }
/// assert_eq!(SecurityType::from_bytes(b"FUT"), Ok(SecurityType::Future));
/// assert_eq!(SecurityType::from_bytes(b"XX"), Ok(SecurityType::Other(b"XX")));
/// assert_eq!(SecurityType::CommonStock.as_bytes(), b"CS");
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_bytes_enum {
    (
        $(#[$m:meta])*
        $name:ident($int:literal) { $($(#[$vm:meta])* $var:ident = $b:literal,)* }
    ) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name<'a> {
            $($(#[$vm])* $var,)*
            /// A value the dictionary does not list.
            Other(&'a [u8]),
        }
        impl<'a> $name<'a> {
            /// Decodes wire bytes (a compiled `match`).
            #[inline]
            pub fn from_bytes(bytes: &'a [u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                Ok(match bytes {
                    $($b => Self::$var,)*
                    _ => Self::Other($crate::typed::check_other(bytes, $int)?),
                })
            }
            /// The wire bytes.
            #[inline]
            pub fn as_bytes(&self) -> &'a [u8] {
                match self {
                    $(Self::$var => $b,)*
                    Self::Other(b) => b,
                }
            }
        }
        impl<'a> $crate::value::FieldValue<'a> for $name<'a> {
            type Error = $crate::typed::EnumError;
            #[inline]
            fn parse_fix(bytes: &'a [u8]) -> ::core::result::Result<Self, $crate::typed::EnumError> {
                Self::from_bytes(bytes)
            }
            #[inline]
            fn write_fix(&self, out: &mut [u8]) -> ::core::result::Result<usize, $crate::value::BufferTooSmall> {
                $crate::typed::write_bytes(self.as_bytes(), out)
            }
        }
    };
}

/// Tag constants for generated code, each documented with the field's FIX name,
/// tag, type and the Rust type its getters return.
///
/// ```
/// fix_core::typed::tags! {
///     CL_ORD_ID = 11, "ClOrdID", STRING, "FixStr<'a>";
///     SIDE = 54, "Side", CHAR, "enums::Side";
/// }
/// assert_eq!((CL_ORD_ID, SIDE), (11, 54));
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! __fix_tags {
    ($($konst:ident = $tag:literal, $fix:literal, $ty:ident, $rt:literal;)*) => {
        $(
            #[doc = concat!("`", $fix, "` (", $tag, "), ", stringify!($ty), ": getters return `", $rt, "`.")]
            pub const $konst: u32 = $tag;
        )*
    };
}

#[doc(inline)]
pub use crate::__fix_builder as builder;
#[doc(inline)]
pub use crate::__fix_bytes_enum as bytes_enum;
#[doc(inline)]
pub use crate::__fix_char_enum as char_enum;
#[doc(inline)]
pub use crate::__fix_tags as tags;
#[doc(inline)]
pub use crate::__fix_view as view;
