//! The run-time dictionary as fix-core's validation [`Schema`](validate::Schema): validate
//! messages against any QuickFIX XML file without generating code.

use fix_core::validate::{self, Group, Member};

use super::{Dictionary, Layout};

impl validate::Schema for Dictionary {
    type Layout = Layout;

    /// [`Version::begin_string`](crate::Version::begin_string) of the `<fix>`
    /// element (`FIXT.1.1` for FIX 5.0 and later); `None` when the version is
    /// invalid.
    fn begin_string(&self) -> Option<&[u8]> {
        Some(&*self.begin_string).filter(|b| !b.is_empty())
    }

    fn field_format(&self, tag: u32) -> Option<validate::ValueFormat> {
        self.format(tag)
    }

    #[inline]
    fn field_info(&self, tag: u32) -> Option<validate::FieldInfo> {
        Dictionary::field_info(self, tag)
    }

    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        Dictionary::byte_set(self, tag)
    }

    #[inline]
    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        self.value_allowed(tag, value).unwrap_or(true)
    }

    fn header_layout(&self) -> &Layout {
        self.header.layout()
    }

    fn trailer_layout(&self) -> &Layout {
        self.trailer.layout()
    }

    fn body_layout(&self, msg_type: &[u8]) -> Option<&Layout> {
        Dictionary::message(self, msg_type).map(|m| m.layout())
    }
}

impl validate::Layout for Layout {
    #[inline]
    fn member(&self, tag: u32) -> Option<Member<'_, Self>> {
        let bucket = self.bucket(tag)?;
        let index = bucket.position as usize;
        let group = if bucket.group {
            self.group_at(index).map(|g| Group {
                delimiter: g.delimiter,
                entry: &g.entry,
            })
        } else {
            None
        };
        Some(Member {
            index,
            group,
            info: bucket.info,
            values: self.byte_set(bucket),
        })
    }

    fn len(&self) -> usize {
        self.fields.len()
    }

    fn for_each_required(&self, f: &mut dyn FnMut(u32, usize) -> bool) {
        for &(tag, index) in &self.required {
            if !f(tag, index as usize) {
                return;
            }
        }
    }

    fn required_bits(&self) -> Option<&[u64; 4]> {
        self.required_bits.as_ref()
    }
}
