//! The walks that fill a view's slots from a message's fields, skipping group
//! entries on the way.

use super::index::{DISJOINT_BIT, GROUP_BIT};
use super::tables::{Group, Level};
use super::view::ABSENT;
use crate::Field;

/// The number a NUMINGROUP value announces, or `usize::MAX` if it is not a number
/// (then entries are found by their delimiters alone).
pub(super) fn declared(value: &[u8]) -> usize {
    crate::value::parse_digits(value, 9).map_or(usize::MAX, |n| n as usize)
}

/// The value of `field` in the message `bytes` (empty if out of range, which a
/// parsed message's fields never are).
#[inline(always)]
pub(super) fn value_of<'a>(bytes: &'a [u8], field: &Field) -> &'a [u8] {
    bytes.get(field.value_range()).unwrap_or(&[])
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

/// Walks a message's fields (`fields`, values in `bytes`) from `pos` against
/// `level`, recording each in `slots`
/// (nothing when `slots` is empty); with a `delimiter`, one group entry: it ends
/// at the next delimiter or the first tag the level does not hold. Returns where
/// it stopped.
///
/// This loop runs once per field of every group entry (twice: once to skip the
/// entry while walking the enclosing level, once to fill the entry's view), so
/// the rare cases (a tag the level repeats, a nested group) are calls out of it.
pub(super) fn scan(
    level: &Level,
    fields: &[Field],
    bytes: &[u8],
    pos: usize,
    delimiter: Option<u32>,
    slots: &mut [u16],
) -> usize {
    match delimiter {
        Some(delimiter) => scan_from::<true>(level, fields, bytes, pos, delimiter, slots),
        None => scan_from::<false>(level, fields, bytes, pos, 0, slots),
    }
}

/// [`scan`], compiled once for a whole message (`DELIMITED` false: no delimiter
/// to test, nothing ends the walk early) and once for group entries.
#[inline(always)]
fn scan_from<const DELIMITED: bool>(
    level: &Level,
    fields: &[Field],
    bytes: &[u8],
    mut pos: usize,
    delimiter: u32,
    slots: &mut [u16],
) -> usize {
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
            pos = enter_group(level, slot, fields, bytes, field, pos);
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
fn enter_group(
    level: &Level,
    slot: usize,
    fields: &[Field],
    bytes: &[u8],
    field: &Field,
    pos: usize,
) -> usize {
    match level.group_at(slot) {
        Some(group) => skip_group(group, fields, bytes, pos, declared(value_of(bytes, field))),
        None => pos,
    }
}

/// Walks all of a message's fields against several levels laid end to end in
/// `slots` (header, body, trailer): each field goes to the first level that has
/// its tag, or, when that level's slots for it are taken, a later one with a free
/// slot (so a tag the header already holds can still fill the body's slot).
pub(super) fn scan_sections(levels: &[&Level], fields: &[Field], bytes: &[u8], slots: &mut [u16]) {
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
            pos = skip_group(group, fields, bytes, pos, declared(value_of(bytes, field)));
        }
    }
}

/// Skips up to `count` entries of `group` starting at field `pos`; returns the
/// position after them.
pub(super) fn skip_group(
    group: &Group,
    fields: &[Field],
    bytes: &[u8],
    mut pos: usize,
    count: usize,
) -> usize {
    let mut n = 0;
    while n < count && fields.get(pos).is_some_and(|f| f.tag() == group.delimiter) {
        pos = scan(
            &group.entry,
            fields,
            bytes,
            pos,
            Some(group.delimiter),
            &mut [],
        );
        n += 1;
    }
    pos
}

/// The position of the field a view of `level` records in `slot`, found without
/// recording anything: the walk a view makes, stopped at that field. A level that
/// repeats the slot's tag fills its slots in turn, so the field is the tag's
/// occurrence numbered by the slots before `slot` holding it.
pub(super) fn locate(level: &Level, fields: &[Field], bytes: &[u8], slot: usize) -> Option<usize> {
    let tag = *level.tags.get(slot)?;
    let mut earlier = level
        .tags
        .get(..slot)?
        .iter()
        .filter(|&&t| t == tag)
        .count();
    let mut pos = 0;
    while let Some(field) = fields.get(pos) {
        let t = field.tag();
        pos += 1;
        let Some((first, flags)) = level.probe(t) else {
            continue;
        };
        if t == tag {
            if earlier == 0 {
                return Some(pos - 1);
            }
            earlier -= 1;
        }
        if skips(flags, false) {
            pos = enter_group(level, first, fields, bytes, field, pos);
        }
    }
    None
}
