//! The run-time dictionary's lookup tables: fields by tag (with what validation and
//! display need of each), messages by MsgType, and each level's members by tag.

use std::collections::HashMap;

use fix_core::validate::{FieldInfo, ValueFormat, byte_set_contains, value_listed};

use super::{Field, LayoutField};

/// Positions in [`Dictionary::fields`] by tag: a dense table for tags below
/// [`TagIndex::DENSE_LIMIT`] (every standard tag and most venues'), binary search
/// above it; and, by position, what validation needs of each field. Validation asks
/// for every field of every message, so all of this is O(1).
#[derive(Clone, Debug, Default)]
pub(super) struct TagIndex {
    /// `dense[tag]` is the position of `tag`, or `u32::MAX`.
    dense: Vec<u32>,
    /// Per field (by position): its data format and how to check its values.
    pub(super) checks: Vec<(ValueFormat, ValueCheck)>,
}

/// How a field's value is checked against its enumeration, and found among its
/// listed values. Multiple-value types check each space-separated item the same way.
#[derive(Clone, Debug)]
pub(super) enum ValueCheck {
    /// Not enumerated: any value.
    Any,
    /// Every listed value is one byte (most CHAR enums): a 256-bit set, and each
    /// byte's position among the listed values plus one (0: not listed).
    Byte {
        set: [u64; 4],
        positions: Box<[u8; 256]>,
        multiple: bool,
    },
    /// Every listed value is at most seven bytes: their [`pack`]s, sorted and
    /// searched as integers, with each one's position among the listed values.
    Packed {
        values: Box<[u64]>,
        positions: Box<[u32]>,
        multiple: bool,
    },
    /// Binary search of the listed values.
    Search { multiple: bool },
}

/// Up to seven bytes and their length in one integer (`None` when longer), so
/// that short values compare as integers.
fn pack(v: &[u8]) -> Option<u64> {
    let mut word = [0u8; 8];
    word.get_mut(..v.len())?.copy_from_slice(v);
    let len = u8::try_from(v.len()).ok().filter(|&n| n < 8)?;
    word[7] = len;
    Some(u64::from_le_bytes(word))
}

impl TagIndex {
    pub(super) const DENSE_LIMIT: u32 = 1 << 16;

    pub(super) fn new(fields: &[Field]) -> TagIndex {
        let len = fields
            .iter()
            .map(|f| f.tag)
            .filter(|&t| t < Self::DENSE_LIMIT)
            .max()
            .map_or(0, |t| t as usize + 1);
        let mut dense = vec![u32::MAX; len];
        for (i, f) in fields.iter().enumerate() {
            if let Some(slot) = dense.get_mut(f.tag as usize) {
                *slot = u32::try_from(i).unwrap_or(u32::MAX);
            }
        }
        let checks = fields
            .iter()
            .map(|f| (f.ty.format(), ValueCheck::of(f)))
            .collect();
        TagIndex { dense, checks }
    }

    /// The dense part: position by tag for tags below [`Self::DENSE_LIMIT`].
    pub(super) fn dense(&self) -> &[u32] {
        &self.dense
    }

    #[inline(always)]
    pub(super) fn position(&self, tag: u32, fields: &[Field]) -> Option<usize> {
        if tag < Self::DENSE_LIMIT {
            let i = *self.dense.get(tag as usize)?;
            return (i != u32::MAX).then_some(i as usize);
        }
        fields.binary_search_by_key(&tag, |f| f.tag).ok()
    }
}

impl ValueCheck {
    pub(super) fn of(field: &Field) -> ValueCheck {
        let multiple = field.ty.is_multiple();
        if !field.is_enumerated() {
            return ValueCheck::Any;
        }
        // One-byte values are printable ASCII (the resolver checks), so fewer
        // than 255 of them: each position plus one fits a byte.
        if field.values.len() < 256 && field.values.iter().all(|v| v.value.len() == 1) {
            let mut set = [0u64; 4];
            let mut positions = Box::new([0u8; 256]);
            for (v, i) in field.values.iter().zip(1u8..) {
                let b = v.value.as_bytes()[0];
                set[usize::from(b / 64)] |= 1 << (b % 64);
                positions[usize::from(b)] = i;
            }
            return ValueCheck::Byte {
                set,
                positions,
                multiple,
            };
        }
        let packed: Option<Vec<(u64, u32)>> = field
            .values
            .iter()
            .zip(0..)
            .map(|(v, i)| pack(v.value.as_bytes()).map(|p| (p, i)))
            .collect();
        match packed {
            Some(mut packed) => {
                packed.sort_unstable();
                ValueCheck::Packed {
                    values: packed.iter().map(|&(p, _)| p).collect(),
                    positions: packed.iter().map(|&(_, i)| i).collect(),
                    multiple,
                }
            }
            None => ValueCheck::Search { multiple },
        }
    }

    /// Whether `value` is allowed: [`value_listed`] over this field's values.
    #[inline]
    pub(super) fn allows(&self, field: &Field, value: &[u8]) -> bool {
        match self {
            ValueCheck::Any => true,
            ValueCheck::Byte { set, multiple, .. } => {
                value_listed(*multiple, value, |v| byte_set_contains(set, v))
            }
            ValueCheck::Packed {
                values, multiple, ..
            } => value_listed(*multiple, value, |v| {
                pack(v).is_some_and(|p| values.binary_search(&p).is_ok())
            }),
            ValueCheck::Search { multiple } => {
                value_listed(*multiple, value, |v| field.value(v).is_some())
            }
        }
    }

    /// The position in `field().values` of the one value `v` (not a list).
    #[inline(always)]
    pub(super) fn position<'f>(
        &self,
        field: impl FnOnce() -> Option<&'f Field>,
        v: &[u8],
    ) -> Option<usize> {
        match self {
            ValueCheck::Any => None,
            ValueCheck::Byte { positions, .. } => match v {
                &[b] => usize::from(positions[usize::from(b)]).checked_sub(1),
                _ => None,
            },
            ValueCheck::Packed {
                values, positions, ..
            } => {
                let i = values.binary_search(&pack(v)?).ok()?;
                positions.get(i).map(|&p| p as usize)
            }
            ValueCheck::Search { .. } => field()?
                .values
                .binary_search_by(|x| x.value.as_bytes().cmp(v))
                .ok(),
        }
    }
}

/// Message positions by MsgType: one- and two-byte types (every standard one) in
/// tables searched without hashing the bytes, longer ones in a map. Validation
/// looks up every message's type.
#[derive(Clone, Debug, Default)]
pub(super) struct MsgTypeIndex {
    /// By the single byte: position + 1 (0: none).
    one: Vec<u32>,
    /// `(b0 << 8 | b1, position)`, sorted.
    two: Vec<(u16, usize)>,
    longer: HashMap<Box<[u8]>, usize>,
}

impl MsgTypeIndex {
    pub(super) fn new(types: HashMap<Box<[u8]>, usize>) -> MsgTypeIndex {
        let mut index = MsgTypeIndex {
            one: vec![0; 256],
            ..MsgTypeIndex::default()
        };
        for (msg_type, position) in types {
            match *msg_type {
                [b] => index.one[usize::from(b)] = u32::try_from(position + 1).unwrap_or(0),
                [b0, b1] => index.two.push((u16::from_be_bytes([b0, b1]), position)),
                _ => {
                    index.longer.insert(msg_type, position);
                }
            }
        }
        index.two.sort_unstable();
        index
    }

    #[inline]
    pub(super) fn get(&self, msg_type: &[u8]) -> Option<usize> {
        match *msg_type {
            [b] => (*self.one.get(usize::from(b))? as usize).checked_sub(1),
            [b0, b1] => {
                let key = u16::from_be_bytes([b0, b1]);
                let i = self.two.binary_search_by_key(&key, |&(k, _)| k).ok()?;
                self.two.get(i).map(|&(_, p)| p)
            }
            _ => self.longer.get(msg_type).copied(),
        }
    }
}

/// A small open-addressing hash table from tag to a level's member: one or two
/// probes per lookup, where a binary search costs a chain of dependent loads.
/// Validation looks up every field of every message in its level, so each bucket
/// also carries what validation asks next (required, group, format), sparing it
/// further dependent loads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct TagTable {
    /// Tag 0 (never a FIX tag) marks an empty bucket. The length is a power of two
    /// at least twice the number of tags.
    pub(super) slots: Vec<Bucket>,
}

/// One member of a level in its [`TagTable`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bucket {
    pub(super) tag: u32,
    /// Position in the level's fields.
    pub(crate) position: u32,
    /// Whether the member is a group counter.
    pub(crate) group: bool,
    /// Filled in by [`Layout::annotate`] once the dictionary's fields are known.
    pub(crate) info: Option<FieldInfo>,
    /// One plus the index in the level's `byte_sets` of the field's values, when
    /// each is one byte (not a multiple-value type); 0 otherwise. (The sets live
    /// apart to keep buckets small: the table of a large message stays in L1.)
    pub(crate) set: u16,
}

impl TagTable {
    /// Positions are the order of `fields`; a repeated tag keeps its first position.
    pub(super) fn new(fields: &[LayoutField]) -> TagTable {
        let len = (fields.len() * 2).next_power_of_two().max(4);
        let mut table = TagTable {
            slots: vec![Bucket::default(); len],
        };
        let mask = len - 1;
        for (position, f) in fields.iter().enumerate() {
            let mut i = Self::hash(f.tag) & mask;
            loop {
                let slot = &mut table.slots[i];
                if slot.tag == 0 {
                    *slot = Bucket {
                        tag: f.tag,
                        position: u32::try_from(position).unwrap_or(u32::MAX),
                        group: f.group.is_some(),
                        info: None,
                        set: 0,
                    };
                    break;
                }
                if slot.tag == f.tag {
                    break;
                }
                i = (i + 1) & mask;
            }
        }
        table
    }

    #[inline]
    fn hash(tag: u32) -> usize {
        (tag.wrapping_mul(0x9e37_79b9) >> 7) as usize
    }

    #[inline]
    pub(crate) fn bucket(&self, tag: u32) -> Option<&Bucket> {
        if tag == 0 || self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::hash(tag) & mask;
        loop {
            let slot = self.slots.get(i)?;
            if slot.tag == tag {
                return Some(slot);
            }
            if slot.tag == 0 {
                return None;
            }
            i = (i + 1) & mask;
        }
    }

    pub(super) fn get(&self, tag: u32) -> Option<usize> {
        self.bucket(tag).map(|b| b.position as usize)
    }
}
