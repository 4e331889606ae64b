//! The const tables generated crates declare: fields, levels, groups, messages
//! and the dictionary tying them together.

#[cfg(doc)]
use super::index::{INDEX_SLOT_LIMIT, INDEX_TAG_LIMIT, hash_index, hash_tag};
use super::view::ABSENT;
#[cfg(doc)]
use super::view::View;
use crate::validate::{self, SlotSets};
use crate::{DataFields, FieldType};

/// One field of a dictionary: tag, name, type and listed values.
///
/// ```
/// use fix_core::{FieldType, typed::FieldDef};
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
    pub(super) byte_set: Option<[u64; 4]>,
    /// `ty.format()`, decided at compile time: validation reads it with the field.
    format: validate::ValueFormat,
}

impl FieldDef {
    /// A field definition (what generated `FIELDS` tables are made of).
    ///
    /// ```
    /// use fix_core::{FieldType, typed::FieldDef};
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
            format: ty.format(),
        }
    }

    /// [`FieldDef::accepts`] out of line: values longer than a byte, or
    /// several, take a search that would crowd the validator's loop.
    #[inline(never)]
    fn listed(&self, value: &[u8]) -> bool {
        self.accepts(value)
    }

    /// Whether `value` is allowed by the enumeration: always for a field that is not
    /// enumerated; for a multiple-value type every space-separated element must be
    /// listed.
    ///
    /// ```
    /// use fix_core::{FieldType, typed::FieldDef};
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
        validate::value_listed(self.ty.is_multiple(), value, listed)
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
/// use fix_core::typed::{Level, MessageDef, slot_sets, slot_table};
/// const VIEW: Level = Level { tags: &[8, 112, 10], by_tag: &[0, 2, 1], required: &[0, 2], groups: &[], index: &[] };
/// static HB: MessageDef = MessageDef {
///     name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     view: VIEW,
///     slot_of: &slot_table::<114>(&[8, 112, 10]),
///     sets: slot_sets(&VIEW),
/// };
/// assert!(HB.body.contains(112));
/// assert_eq!(HB.view.slot(10), Some(2));
/// assert_eq!(HB.sets.required[0], 0b101);
/// assert_eq!((HB.slot_of[112], HB.slot_of[9]), (1, u16::MAX));
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
    /// `slot_of[tag]` is `view`'s slot of `tag` ([`ABSENT`] when `view` does not
    /// hold it), for every tag below the table's length; its last entry is
    /// [`ABSENT`]. Built at compile time by [`slot_table`], so that a view fills
    /// its slots with one load per field and no walk (see [`View::of_message`]).
    /// Empty when `view` holds a tag in two slots or a group sharing a tag with
    /// the message: then only a walk knows which field goes where.
    pub slot_of: &'static [u16],
    /// `view`'s required slots and group counters as bit sets, built at compile
    /// time by [`slot_sets`]: with `slot_of`, what the validator's fast path
    /// ([`validate::Dense`]) reads. [`SlotSets::NONE`] when `slot_of` is empty.
    pub sets: SlotSets,
}

/// A whole dictionary's tables, as generated into a crate's `DICTIONARY`. It is a
/// [`validate::Schema`], so generated crates validate without loading XML.
///
/// ```
/// use fix_core::FieldType;
/// use fix_core::typed::{FieldDef, Level, MessageDef, SlotSets, Tables};
/// use fix_core::DataFields;
/// static HB: MessageDef = MessageDef { name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     view: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     slot_of: &[], sets: SlotSets::NONE };
/// static DICT: Tables = Tables {
///     begin_string: b"FIX.4.4",
///     fields: &[FieldDef::new(112, "TestReqID", FieldType::String, &[])],
///     messages: &[&HB],
///     header: &Level::EMPTY,
///     trailer: &Level::EMPTY,
///     data_fields: DataFields::NONE,
///     by_tag: &[],
///     checks: &[],
///     by_msg_type: &[],
/// };
/// assert_eq!(DICT.message(b"0").map(|m| m.name), Some("Heartbeat"));
/// assert_eq!(DICT.field(112).map(|f| f.name), Some("TestReqID"));
/// ```
#[derive(Debug)]
pub struct Tables {
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
    /// `checks[tag]` is what validation checks of field `tag`'s values, decided
    /// at compile time by [`field_checks`] (0: no such field), for tags below its
    /// length: the validator reads a field's format, and learns that free text
    /// needs no check at all, with one load. Tags past it ask `fields`.
    pub checks: &'static [u32],
    /// `by_msg_type[b]` is the position plus one in `messages` of the message
    /// whose MsgType is the one byte `b` (0: none), for bytes below its length;
    /// built at compile time by [`msg_type_index`], so that finding most messages
    /// is one load. Longer MsgTypes (or an empty index) are binary-searched.
    pub by_msg_type: &'static [u16],
}

/// Builds a [`Tables::by_msg_type`] index of `N` entries from `messages` (sorted
/// by MsgType) at compile time: the position plus one of each message whose
/// MsgType is one byte below `N`.
///
/// ```
/// use fix_core::typed::{Level, MessageDef, SlotSets, msg_type_index};
/// static HB: MessageDef = MessageDef { name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level::EMPTY, view: Level::EMPTY, slot_of: &[], sets: SlotSets::NONE };
/// static INDEX: [u16; 128] = msg_type_index::<128>(&[&HB]);
/// assert_eq!((INDEX[b'0' as usize], INDEX[b'1' as usize]), (1, 0));
/// ```
pub const fn msg_type_index<const N: usize>(messages: &[&MessageDef]) -> [u16; N] {
    let mut index = [0u16; N];
    let mut i = 0;
    // Positions past u16::MAX - 1 stay out of the index and are binary-searched.
    while i < messages.len() && i < u16::MAX as usize {
        if let [b] = messages[i].msg_type
            && (*b as usize) < N
        {
            index[*b as usize] = i as u16 + 1;
        }
        i += 1;
    }
    index
}

/// A [`Tables::checks`] entry's format: `ValueFormat::ALL[code & FORMAT]`.
const FORMAT: u32 = 0x1f;
/// A [`Tables::checks`] entry's bit for a defined field.
const DEFINED: u32 = 1 << 5;
/// A [`Tables::checks`] entry's bit for free text that is not enumerated: a
/// non-empty value is good.
const FREE: u32 = 1 << 6;
/// A [`Tables::checks`] entry's bit for an enumerated field.
const ENUMERATED: u32 = 1 << 7;
/// A [`Tables::checks`] entry's bit for an enumerated field whose values are all
/// one byte of the field's format (not a multiple-value type): a value is good
/// when it is one byte of the field's `byte_set`, which settles its format too.
const ONE_BYTE: u32 = 1 << 8;
/// A [`Tables::checks`] entry's field position in [`Tables::fields`] starts here.
const POSITION_SHIFT: u32 = 9;

/// Whether `f` is enumerated with one-byte values only, each of its format, and
/// not of a multiple-value type: its `byte_set` then decides a value alone.
/// (Over the listed values, not the set's 256 bytes: the same answer, and at
/// compile time a generated crate's build no longer spends 256 steps a field.)
const fn one_byte_of_format(f: &FieldDef) -> bool {
    if f.byte_set.is_none() || f.ty.is_multiple() {
        return false;
    }
    let mut i = 0;
    while i < f.values.len() {
        // `byte_set` is set only when every listed value is one byte.
        if let [b] = f.values[i]
            && !f.format.accepts_byte(*b)
        {
            return false;
        }
        i += 1;
    }
    true
}

/// Builds a [`Tables::checks`] table of `N` entries from `fields` at compile
/// time: each field's format, whether it is enumerated or free text, and its
/// position in `fields`, by tag.
///
/// ```
/// use fix_core::typed::{FieldDef, field_checks};
/// use fix_core::FieldType;
/// static FIELDS: &[FieldDef] = &[FieldDef::new(54, "Side", FieldType::Char, &[b"1", b"2"])];
/// static CHECKS: [u32; 56] = field_checks::<56>(FIELDS);
/// assert!(CHECKS[54] != 0 && CHECKS[55] == 0);
/// ```
pub const fn field_checks<const N: usize>(fields: &[FieldDef]) -> [u32; N] {
    let mut checks = [0u32; N];
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        let free = matches!(
            f.format,
            validate::ValueFormat::String
                | validate::ValueFormat::Data
                | validate::ValueFormat::Unchecked
        ) && f.values.is_empty();
        if (f.tag as usize) < N {
            checks[f.tag as usize] = (f.format as u32)
                | DEFINED
                | if free { FREE } else { 0 }
                | if f.values.is_empty() { 0 } else { ENUMERATED }
                | if one_byte_of_format(f) { ONE_BYTE } else { 0 }
                | (i as u32) << POSITION_SHIFT;
        }
        i += 1;
    }
    checks
}

/// Builds a [`Tables::by_tag`] index of `N` entries from `fields` at compile
/// time: the position plus one of each field whose tag is below `N`.
///
/// ```
/// use fix_core::typed::{FieldDef, field_index};
/// use fix_core::FieldType;
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

/// Builds a [`MessageDef::slot_of`] table of `N` entries at compile time from a
/// message view's `tags` (slot `i` holds `tags[i]`): entry `tag` is the slot of
/// `tag`, every other entry [`ABSENT`]. `N` must exceed the largest tag by at
/// least two, so that the last entry, which a view reads for every tag past the
/// table, is [`ABSENT`].
///
/// # Panics
///
/// When a tag is in two slots (a walk must decide which field fills which), or
/// `N` is too small (at compile time when evaluated in a `static`).
///
/// ```
/// use fix_core::typed::slot_table;
/// static SLOT_OF: [u16; 57] = slot_table::<57>(&[8, 9, 35, 55, 10]);
/// assert_eq!((SLOT_OF[35], SLOT_OF[55], SLOT_OF[54]), (2, 3, u16::MAX));
/// ```
pub const fn slot_table<const N: usize>(tags: &[u32]) -> [u16; N] {
    let mut table = [ABSENT; N];
    let mut slot = 0;
    while slot < tags.len() {
        let tag = tags[slot] as usize;
        assert!(tag + 1 < N, "slot_table: N must exceed every tag by two");
        assert!(table[tag] == ABSENT, "slot_table: a tag in two slots");
        assert!(slot < ABSENT as usize, "slot_table: too many slots");
        table[tag] = slot as u16;
        slot += 1;
    }
    table
}

/// The [`MessageDef::sets`] of a message's combined level (`view`): its required
/// slots and its group counters' slots as bit sets, at compile time.
///
/// ```
/// use fix_core::typed::{Level, slot_sets};
/// static VIEW: Level = Level { tags: &[8, 112, 10], by_tag: &[0, 2, 1], required: &[0, 2], groups: &[], index: &[] };
/// assert_eq!(slot_sets(&VIEW).required[0], 0b101);
/// ```
pub const fn slot_sets(view: &Level) -> SlotSets {
    let mut groups = [0u16; validate::DENSE_SLOTS];
    let n = view.groups.len();
    if n > groups.len() || view.tags.len() > validate::DENSE_SLOTS {
        return SlotSets::NONE;
    }
    let mut i = 0;
    while i < n {
        groups[i] = view.groups[i].0;
        i += 1;
    }
    SlotSets::new(view.tags.len(), view.required, groups.split_at(n).0)
}

/// The group counters of a message's combined level ([`MessageDef::view`]) from its
/// sections' (header, body, trailer): each section's `(slot, group)` pairs with the
/// section's first slot added, in order, so a message's table names its body's
/// groups once. `N` is the total, at least one.
///
/// ```
/// use fix_core::typed::{Group, Level, view_groups};
/// static HOPS: Group = Group {
///     name: "NoHops", counter: 627, delimiter: 628,
///     entry: Level { tags: &[628], by_tag: &[0], required: &[], groups: &[], index: &[] },
/// };
/// static VIEW: [(u16, &Group); 2] = view_groups::<2>(&[(0, &[(8, &HOPS)]), (9, &[(1, &HOPS)])]);
/// assert_eq!((VIEW[0].0, VIEW[1].0), (8, 10));
/// ```
pub const fn view_groups<const N: usize>(
    sections: &[(u16, &[(u16, &'static Group)])],
) -> [(u16, &'static Group); N] {
    let mut first = None;
    let mut s = 0;
    while s < sections.len() && first.is_none() {
        if !sections[s].1.is_empty() {
            first = Some(sections[s].1[0]);
        }
        s += 1;
    }
    let Some(first) = first else {
        panic!("view_groups: no groups");
    };
    let mut out = [first; N];
    let (mut n, mut s) = (0, 0);
    while s < sections.len() {
        let (start, groups) = sections[s];
        let mut i = 0;
        while i < groups.len() {
            out[n] = (start + groups[i].0, groups[i].1);
            n += 1;
            i += 1;
        }
        s += 1;
    }
    assert!(n == N, "view_groups: N is not the number of groups");
    out
}

impl Tables {
    /// [`validate::Schema::value_ok`] from the field's [`checks`](Self::checks)
    /// entry: free text is done with it; a format is checked from it; listed
    /// values are the field's entry's.
    #[inline(always)]
    pub(super) fn value_ok(&self, tag: u32, bytes: &[u8], range: core::ops::Range<usize>) -> bool {
        let Some(&code) = self.checks.get(tag as usize) else {
            return self.field(tag).is_some_and(|f| {
                f.format.accepts_in(bytes, range.clone())
                    && f.accepts(bytes.get(range).unwrap_or_default())
            });
        };
        if code & FREE != 0 {
            return true;
        }
        if code & ONE_BYTE != 0 {
            let set = self.fields.get((code >> POSITION_SHIFT) as usize);
            let value = bytes.get(range).unwrap_or_default();
            return set
                .and_then(|f| f.byte_set.as_ref())
                .is_some_and(|set| validate::byte_set_contains(set, value));
        }
        let format = validate::ValueFormat::ALL.get((code & FORMAT) as usize);
        let (Some(format), true) = (format, code & DEFINED != 0) else {
            return false;
        };
        if !format.accepts_in(bytes, range.clone()) {
            return false;
        }
        if code & ENUMERATED == 0 {
            return true;
        }
        let Some(f) = self.fields.get((code >> POSITION_SHIFT) as usize) else {
            return false;
        };
        let value = bytes.get(range).unwrap_or_default();
        // A MsgType (35) is checked when its message's table is built.
        (tag == 35 && self.message(value).is_some_and(|m| m.sets.msg_type_ok())) || f.listed(value)
    }

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

    /// The message with MsgType `msg_type` (`O(1)` through
    /// [`by_msg_type`](Self::by_msg_type) for a one-byte MsgType, `O(log n)`
    /// otherwise).
    #[inline]
    pub fn message(&self, msg_type: &[u8]) -> Option<&'static MessageDef> {
        if let [b] = msg_type
            && let Some(&i) = self.by_msg_type.get(usize::from(*b))
        {
            return self.messages.get(usize::from(i).checked_sub(1)?).copied();
        }
        // MsgTypes are a byte or two: comparing them inline beats calling memcmp.
        let i = self
            .messages
            .binary_search_by(|m| m.msg_type.iter().cmp(msg_type.iter()))
            .ok()?;
        self.messages.get(i).copied()
    }
}
