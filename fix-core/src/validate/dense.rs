//! The validator's fast path for dictionaries that decided at build time where each
//! tag of a message goes: a [`Dense`] table per message (tag to slot, the
//! sections' bounds, the required and group-counter slots as bit sets).
//!
//! A message whose every field is a plain member of its header, body or trailer,
//! in section order, once each, with a good value, and which holds every required
//! member, passes the full walk with nothing to report. So does one whose groups'
//! entries each start with the delimiter, hold members of the entry only, in the
//! dictionary's order, with good values and every required one, as many entries
//! as the counter says. [`Dense::passes`] checks exactly that, with one load of
//! the tag's slot and one bit test per field (a group's fields each ask the
//! entry's layout for their member); any doubt (a nested group, an unknown tag,
//! an empty value, a repeat, an entry out of order) answers `false` and leaves the
//! message to the walk, whose answer is then the only one. So the fast path can
//! make validation faster, never different.

use super::schema::{Group, Layout, Schema};
use crate::value::parse_uint;
use crate::{Field, Message};

/// Slots a [`SlotSets`] covers: a message view with more takes the walk alone.
pub const DENSE_SLOTS: usize = 512;

const WORDS: usize = DENSE_SLOTS / 64;

/// The required slots and the group counters' slots of a message view (header,
/// body and trailer laid end to end), as bit sets (bit `i % 64` of word `i / 64`).
/// Computed at compile time from the view ([`SlotSets::new`]).
///
/// ```
/// use fix_core::validate::SlotSets;
/// static SETS: SlotSets = SlotSets::new(4, &[0, 3], &[2]);
/// assert!(SETS.covers() && SETS.required[0] == 0b1001 && SETS.groups[0] == 0b100);
/// assert!(!SlotSets::new(600, &[], &[]).covers());
/// assert!(SlotSets::new(4, &[0, 2], &[2]).covers()); // a required group
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SlotSets {
    /// The required slots.
    pub required: [u64; WORDS],
    /// The slots of group counters.
    pub groups: [u64; WORDS],
    /// The view's number of slots, or `usize::MAX` when it is past
    /// [`DENSE_SLOTS`] (the sets then say nothing).
    len: usize,
    /// Whether the message's MsgType passes the value checks of field 35, as the
    /// tables' generator found.
    msg_type_ok: bool,
}

impl SlotSets {
    /// No sets: a view that the fast path leaves to the walk.
    pub const NONE: SlotSets = SlotSets {
        required: [0; WORDS],
        groups: [0; WORDS],
        len: usize::MAX,
        msg_type_ok: false,
    };

    /// The sets of a view of `len` slots whose required slots are `required` and
    /// whose group counters sit in `groups`; [`SlotSets::NONE`] when `len` is past
    /// [`DENSE_SLOTS`].
    ///
    /// # Panics
    ///
    /// When a slot is not below `len` (at compile time when evaluated in a
    /// `static`).
    pub const fn new(len: usize, required: &[u16], groups: &[u16]) -> SlotSets {
        if len > DENSE_SLOTS {
            return SlotSets::NONE;
        }
        let (required, groups) = (bits(len, required), bits(len, groups));
        SlotSets {
            required,
            groups,
            len,
            msg_type_ok: false,
        }
    }

    /// The same sets, for a message whose MsgType passes the value checks of
    /// field 35 (its format and listed values), as whoever builds the tables has
    /// checked: a dictionary's check of a MsgType is then the lookup of its
    /// message, not a search among every MsgType it lists.
    ///
    /// ```
    /// use fix_core::validate::SlotSets;
    /// static SETS: SlotSets = SlotSets::new(3, &[0], &[]).with_msg_type_ok();
    /// assert!(SETS.msg_type_ok() && !SlotSets::new(3, &[0], &[]).msg_type_ok());
    /// ```
    pub const fn with_msg_type_ok(mut self) -> SlotSets {
        self.msg_type_ok = true;
        self
    }

    /// Whether the MsgType is known to pass field 35's value checks.
    pub const fn msg_type_ok(&self) -> bool {
        self.msg_type_ok
    }

    /// Whether the sets cover the view (it has at most [`DENSE_SLOTS`] slots).
    pub const fn covers(&self) -> bool {
        self.len <= DENSE_SLOTS
    }
}

/// `slots` (each below `len`) as a bit set.
const fn bits(len: usize, slots: &[u16]) -> [u64; WORDS] {
    let mut set = [0u64; WORDS];
    let mut i = 0;
    while i < slots.len() {
        let slot = slots[i] as usize;
        assert!(slot < len, "SlotSets: a slot past the view");
        set[slot / 64] |= 1 << (slot % 64);
        i += 1;
    }
    set
}

/// A message's table as the fast path reads it: where each tag goes and what
/// the message requires, all decided when the dictionary was compiled.
///
/// ```
/// use fix_core::validate::{Dense, SlotSets};
/// static SETS: SlotSets = SlotSets::new(3, &[0, 2], &[]);
/// // Header tag 35 in slot 0, body tag 112 in slot 1, trailer tag 10 in slot 2.
/// let mut slot_of = [u16::MAX; 114];
/// (slot_of[35], slot_of[112], slot_of[10]) = (0, 1, 2);
/// let dense = Dense { slot_of: &slot_of, body: 1, trailer: 2, sets: &SETS };
/// assert_eq!(dense.trailer, 2);
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Dense<'s> {
    /// `slot_of[tag]` is the slot of `tag` in the view, `u16::MAX` when the
    /// message does not hold it, for tags below the table's length; the last
    /// entry is `u16::MAX` (tags past the table read it). No tag is in two slots,
    /// and no group of the message holds a tag of the view.
    pub slot_of: &'s [u16],
    /// The body's first slot (the header's slots come before it).
    pub body: usize,
    /// The trailer's first slot.
    pub trailer: usize,
    /// The required and group-counter slots.
    pub sets: &'s SlotSets,
}

/// Group counters a message may hold for the fast path: more leave it to the
/// walk.
const MAX_GROUPS: usize = 8;

/// The group counters a message has held so far, by slot.
#[derive(Clone, Copy)]
struct Held {
    slots: [u16; MAX_GROUPS],
    len: usize,
}

impl Held {
    /// Adds `slot`; `false` when it is there already or there is no room.
    fn add(&mut self, slot: usize) -> bool {
        let Ok(slot) = u16::try_from(slot) else {
            return false;
        };
        let held = self.slots.get(..self.len).unwrap_or_default();
        if held.contains(&slot) {
            return false;
        }
        let Some(free) = self.slots.get_mut(self.len) else {
            return false;
        };
        *free = slot;
        self.len += 1;
        true
    }
}

impl Dense<'_> {
    /// Whether `msg` certainly passes the full walk against `dict`: every field
    /// a member of the view, sections in order (header, body, trailer), no slot
    /// twice, every value non-empty and good for its field
    /// ([`Schema::value_ok`]), every required slot filled; each group counter
    /// followed by as many entries as it says, each entry its delimiter and then
    /// members of the entry, in the dictionary's order, with every required one
    /// (see [`Dense::entries`]). `false` decides nothing.
    #[inline(always)]
    pub(super) fn passes<D: Schema + ?Sized>(&self, dict: &D, msg: &Message<'_>) -> bool {
        let Some(last) = self.slot_of.len().checked_sub(1) else {
            return false;
        };
        if !self.sets.covers() {
            return false;
        }
        let bytes = msg.frame().bytes();
        // Group counters start out seen, so that meeting one takes the branch a
        // repeat takes, out of the loop: a message without groups pays nothing
        // for them.
        let mut seen = self.sets.groups;
        let mut held = Held {
            slots: [0; MAX_GROUPS],
            len: 0,
        };
        // The current section's slots are `floor..ceiling`: a field below it
        // belongs to an earlier section (a header field in the body), which is
        // out of order or not the common case; either way, the walk's.
        let (mut floor, mut ceiling) = (0, self.body);
        // An iterator, not a position: the loop walks a pointer to an end (two
        // registers), and a group moves it on.
        let mut fields = msg.fields().iter();
        while let Some(field) = fields.next() {
            let tag = field.tag();
            let slot = self.slot_of.get((tag as usize).min(last)).copied();
            let slot = usize::from(slot.unwrap_or(u16::MAX));
            if slot >= ceiling {
                (floor, ceiling) = self.section_of(slot);
            }
            if slot < floor {
                return false;
            }
            // A slot past the sets is no slot (`u16::MAX`: not in the view).
            let Some(word) = seen.get_mut(slot / 64) else {
                return false;
            };
            let bit = 1 << (slot % 64);
            if *word & bit != 0 || field.is_empty() {
                // A repeat, an empty value, or a group counter: only the last,
                // met for the first time, goes on, past its entries.
                match self.group(dict, msg, field, slot, fields.as_slice(), &mut held) {
                    Some(rest) => {
                        fields = rest.iter();
                        continue;
                    }
                    None => return false,
                }
            }
            *word |= bit;
            if !dict.value_ok(tag, bytes, field.value_range()) {
                return false;
            }
        }
        // `seen ^ groups` is what the message holds, besides its group counters.
        if held.len != 0 {
            return self.holds_required(seen, &held);
        }
        self.sets
            .required
            .iter()
            .zip(seen.iter().zip(&self.sets.groups))
            .all(|(required, (seen, groups))| required & !(seen ^ groups) == 0)
    }

    /// The required check of [`Dense::passes`] for a message that held group
    /// counters (`held`), which count as held.
    #[cold]
    #[inline(never)]
    fn holds_required(&self, seen: [u64; WORDS], held: &Held) -> bool {
        let mut holds = seen;
        for (h, g) in holds.iter_mut().zip(&self.sets.groups) {
            *h ^= g;
        }
        for &slot in held.slots.get(..held.len).unwrap_or_default() {
            let slot = usize::from(slot);
            if let Some(word) = holds.get_mut(slot / 64) {
                *word |= 1 << (slot % 64);
            }
        }
        self.sets
            .required
            .iter()
            .zip(&holds)
            .all(|(required, holds)| required & !holds == 0)
    }

    /// A field [`Dense::passes`] did not take as a plain member (`field`, in
    /// `slot`, followed by the fields `rest`): when it is a group counter met for
    /// the first time with a good value, the fields after its entries, which
    /// [`Dense::entries`] checks. `None` for anything else.
    #[cold]
    #[inline(never)]
    fn group<'f, D: Schema + ?Sized>(
        &self,
        dict: &D,
        msg: &Message<'f>,
        field: &Field,
        slot: usize,
        rest: &[Field],
        held: &mut Held,
    ) -> Option<&'f [Field]> {
        let counter = self.sets.groups.get(slot / 64)? & 1 << (slot % 64) != 0;
        if !counter || field.is_empty() || !held.add(slot) {
            return None;
        }
        let (tag, bytes) = (field.tag(), msg.frame().bytes());
        if !dict.value_ok(tag, bytes, field.value_range()) {
            return None;
        }
        let count = parse_uint(bytes.get(field.value_range())?).ok()?;
        // The group is the section's (the same table the walk reads it from).
        let layout = if slot < self.body {
            dict.header_layout()
        } else if slot < self.trailer {
            dict.body_layout(msg.msg_type())?
        } else {
            dict.trailer_layout()
        };
        let group = layout.member(tag)?.group?;
        let fields = msg.fields();
        let pos = fields.len().checked_sub(rest.len())?;
        let end = Self::entries(dict, bytes, fields, pos, group, count)?;
        fields.get(end..)
    }

    /// The position after `count` entries of `group` starting at `pos`, when
    /// each passes [`Dense::entry`]. The walk passes such entries under every
    /// setting. `None` for anything else.
    ///
    /// An entry after the first that starts with the first one's tags, in the
    /// same order, is checked by its values alone: which members it holds, their
    /// order and the required ones are the first entry's, already checked (a
    /// refresh's entries mostly look alike).
    ///
    /// Where an entry ends needs no check of its own, nor does the end of the
    /// group: no group holds a tag of the view ([`Dense::slot_of`]), so a field
    /// that would go on an entry, or start one more than counted, is no plain
    /// member of the message, and [`Dense::passes`] gives up when it comes to it
    /// (or the next entry, which must start with the delimiter, does).
    fn entries<D: Schema + ?Sized>(
        dict: &D,
        bytes: &[u8],
        fields: &[Field],
        pos: usize,
        group: Group<'_, D::Layout>,
        count: u64,
    ) -> Option<usize> {
        let required = group.entry.required_indexes()?;
        let mut end = pos;
        if count > 0 {
            end = Self::entry(dict, bytes, fields, pos, group, required)?;
        }
        let first = fields.get(pos..end)?;
        for _ in 1..count {
            let start = end;
            let same = fields
                .get(start..start + first.len())
                .filter(|entry| entry.iter().zip(first).all(|(f, g)| f.tag() == g.tag()));
            end = match same {
                Some(entry) => {
                    let good =
                        |f: &Field| !f.is_empty() && dict.value_ok(f.tag(), bytes, f.value_range());
                    if !entry.iter().all(good) {
                        return None;
                    }
                    start + entry.len()
                }
                None => Self::entry(dict, bytes, fields, start, group, required)?,
            };
        }
        Some(end)
    }

    /// The position after the entry of `group` at `pos`, when it is the
    /// delimiter and then members of the entry, no nested group, in strictly
    /// ascending member order (so none twice), each non-empty with a good value,
    /// every required member (`required`, ascending indexes) there. `None` for
    /// anything else.
    fn entry<D: Schema + ?Sized>(
        dict: &D,
        bytes: &[u8],
        fields: &[Field],
        start: usize,
        group: Group<'_, D::Layout>,
        required: &[u16],
    ) -> Option<usize> {
        if fields.get(start)?.tag() != group.delimiter {
            return None;
        }
        // The next required member (`required[next]`) and the last member's
        // index: members come in ascending order, so a required one not met by
        // the time a later member comes is missing.
        let mut next = 0;
        let mut last = None;
        let mut pos = start;
        while let Some(field) = fields.get(pos) {
            let tag = field.tag();
            if tag == group.delimiter && pos != start {
                break;
            }
            // A field of no member ends the entry; a nested group is the walk's.
            let Some(member) = group.entry.member(tag) else {
                break;
            };
            if member.group.is_some() {
                return None;
            }
            let index = member.index;
            if last.is_some_and(|last| index <= last) {
                return None;
            }
            last = Some(index);
            match required.get(next).map(|&r| usize::from(r)) {
                Some(r) if r == index => next += 1,
                Some(r) if r < index => return None,
                _ => {}
            }
            if field.is_empty() || !dict.value_ok(tag, bytes, field.value_range()) {
                return None;
            }
            pos += 1;
        }
        (next == required.len() && pos != start).then_some(pos)
    }

    /// The slots of the section (body or trailer) `slot` is in: called twice a
    /// message, when the body starts and when the trailer does.
    #[cold]
    #[inline(never)]
    fn section_of(&self, slot: usize) -> (usize, usize) {
        if slot >= self.trailer {
            (self.trailer, usize::MAX)
        } else {
            (self.body, self.trailer)
        }
    }
}
