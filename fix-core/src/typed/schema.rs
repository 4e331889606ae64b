//! Generated tables as a validation schema: [`validate::Schema`] for
//! [`Tables`] and [`validate::Layout`] for [`Level`].

use super::index::GROUP_BIT;
use super::tables::{Level, Tables};
use crate::validate;

/// Generated tables are a validation schema: `Validator::validate(&DICTIONARY, &msg)`.
impl validate::Schema for Tables {
    type Layout = Level;

    fn begin_string(&self) -> Option<&[u8]> {
        Some(self.begin_string).filter(|b| !b.is_empty())
    }

    fn field_format(&self, tag: u32) -> Option<validate::ValueFormat> {
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
        if f.ty.is_multiple() { None } else { f.byte_set }
    }

    /// One load of the `checks` table, built with the dictionary.
    #[inline(always)]
    fn value_ok(&self, tag: u32, bytes: &[u8], range: core::ops::Range<usize>) -> bool {
        Tables::value_ok(self, tag, bytes, range)
    }

    /// The message's `slot_of` table and slot sets, generated with it.
    fn dense(&self, msg_type: &[u8]) -> Option<validate::Dense<'_>> {
        let m = self.message(msg_type)?;
        Some(validate::Dense {
            slot_of: m.slot_of,
            body: self.header.len(),
            trailer: m.view.len().checked_sub(self.trailer.len())?,
            sets: &m.sets,
        })
    }

    fn header_layout(&self) -> &Level {
        self.header
    }

    fn trailer_layout(&self) -> &Level {
        self.trailer
    }

    fn body_layout(&self, msg_type: &[u8]) -> Option<&Level> {
        Tables::message(self, msg_type).map(|m| &m.body)
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

    /// `required`, ascending slots: a slot is a member's index.
    fn required_indexes(&self) -> Option<&[u16]> {
        Some(self.required)
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
