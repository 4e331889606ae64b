//! The hashed index of a [`Level`] and the level's lookups (slots of a tag, group
//! counters, required tags).

use super::tables::{Group, Level};

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
    let mut table = [0u32; N];
    fill_hash_index(&mut table, tags, groups, disjoint);
    table
}

/// [`hash_index`] into a table of any length (a power of two larger than
/// `tags.len()`, all zeros): for a generator that writes the index out as a
/// literal, which a crate compiles faster than it evaluates `hash_index`.
///
/// # Panics
///
/// As [`hash_index`].
///
/// ```
/// let mut table = vec![0u32; 8];
/// fix_core::typed::fill_hash_index(&mut table, &[55, 48, 146], &[2], &[]);
/// assert_eq!(table, fix_core::typed::hash_index::<8>(&[55, 48, 146], &[2], &[]));
/// ```
pub const fn fill_hash_index(table: &mut [u32], tags: &[u32], groups: &[u16], disjoint: &[u16]) {
    let n = table.len();
    assert!(n.is_power_of_two() && n > tags.len(), "bucket count");
    assert!(tags.len() < INDEX_SLOT_LIMIT, "too many slots for an index");
    let bits = n.trailing_zeros();
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
            b = (b + 1) & (n - 1);
        }
        table[b] = (tag << TAG_SHIFT) | flags | (slot as u32 + 1);
        slot += 1;
    }
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
    pub(super) fn probe(&self, tag: u32) -> Option<(usize, u32)> {
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
