//! The validator's fast path for dictionaries that decided at build time where each
//! tag of a message goes: a [`Dense`] table per message (tag to slot, the
//! sections' bounds, the required and group-counter slots as bit sets).
//!
//! A message whose every field is a plain member of its header, body or trailer,
//! in section order, once each, with a good value, and which holds every required
//! member, passes the full walk with nothing to report. [`Dense::passes`] checks
//! exactly that, with one load of the tag's slot and one bit test per field; any
//! doubt (a group, an unknown tag, an empty value, a repeat) answers `false` and
//! leaves the message to the walk, whose answer is then the only one. So the fast
//! path can make validation faster, never different.

use super::schema::Schema;
use crate::Message;

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
/// assert!(!SlotSets::new(4, &[0, 2], &[2]).covers()); // a required group: the walk's
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
        // A view that requires a group counter: every message of it that
        // passes holds a group, where the fast path gives up after checking
        // the header, and the walk checks it again (MarketDataIncrementalRefresh
        // was 3% slower so). Such a view takes the walk alone.
        let mut w = 0;
        while w < WORDS {
            if required[w] & groups[w] != 0 {
                return SlotSets {
                    len: usize::MAX,
                    ..SlotSets::NONE
                };
            }
            w += 1;
        }
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

impl Dense<'_> {
    /// Whether `msg` certainly passes the full walk against `dict`: every field
    /// a member of the view, sections in order (header, body, trailer), no slot
    /// twice, no group counter, every value non-empty and good for its field
    /// ([`Schema::value_ok`]), every required slot filled. `false` decides
    /// nothing.
    #[inline(always)]
    pub(super) fn passes<D: Schema + ?Sized>(&self, dict: &D, msg: &Message<'_>) -> bool {
        let Some(last) = self.slot_of.len().checked_sub(1) else {
            return false;
        };
        if !self.sets.covers() {
            return false;
        }
        let bytes = msg.frame().bytes();
        // Group counters start out seen: meeting one is a repeat, which leaves the
        // message (and its entries) to the walk.
        let mut seen = self.sets.groups;
        // The current section's slots are `floor..ceiling`: a field below it
        // belongs to an earlier section (a header field in the body), which is
        // out of order or not the common case; either way, the walk's.
        let (mut floor, mut ceiling) = (0, self.body);
        for field in msg.fields() {
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
                return false;
            }
            *word |= bit;
            if !dict.value_ok(tag, bytes, field.value_range()) {
                return false;
            }
        }
        // `seen ^ groups` is what the message holds: it held no group counter.
        self.sets
            .required
            .iter()
            .zip(seen.iter().zip(&self.sets.groups))
            .all(|(required, (seen, groups))| required & !(seen ^ groups) == 0)
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
