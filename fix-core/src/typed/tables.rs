//! The const tables generated crates declare: fields, levels, groups, messages
//! and the dictionary tying them together.

#[cfg(doc)]
use super::index::{INDEX_SLOT_LIMIT, INDEX_TAG_LIMIT, hash_index, hash_tag};
use super::view::ABSENT;
#[cfg(doc)]
use super::view::View;
use crate::validate;
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
        }
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
/// use fix_core::typed::{Level, MessageDef, slot_table};
/// static HB: MessageDef = MessageDef {
///     name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     view: Level { tags: &[8, 112, 10], by_tag: &[0, 2, 1], required: &[0, 2], groups: &[], index: &[] },
///     slot_of: &slot_table::<114>(&[8, 112, 10]),
/// };
/// assert!(HB.body.contains(112));
/// assert_eq!(HB.view.slot(10), Some(2));
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
}

/// A whole dictionary's tables, as generated into a crate's `DICTIONARY`. It is a
/// [`validate::Schema`], so generated crates validate without loading XML.
///
/// ```
/// use fix_core::FieldType;
/// use fix_core::typed::{FieldDef, Level, MessageDef, Tables};
/// use fix_core::DataFields;
/// static HB: MessageDef = MessageDef { name: "Heartbeat", msg_type: b"0", admin: true,
///     body: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     view: Level { tags: &[112], by_tag: &[0], required: &[], groups: &[], index: &[] },
///     slot_of: &[] };
/// static DICT: Tables = Tables {
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
