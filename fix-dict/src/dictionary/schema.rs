//! The run-time dictionary as fix-core's validation [`Dictionary`]: validate
//! messages against any QuickFIX XML file without generating code.

use fix_core::validate::{self, Group, Member};

use super::{Dictionary, FieldType, Layout};

impl validate::Dictionary for Dictionary {
    type Layout = Layout;

    fn field_type(&self, tag: u32) -> Option<validate::FieldType> {
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

    fn header(&self) -> &Layout {
        self.header.layout()
    }

    fn trailer(&self) -> &Layout {
        self.trailer.layout()
    }

    fn message(&self, msg_type: &[u8]) -> Option<&Layout> {
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

/// The data format validation checks for a dictionary type: fix-core's mapping
/// ([`fix_core::typed::FieldType::format`]), the one generated tables use too.
///
/// ```
/// use fix_dict::{FieldType, validate_format_of};
/// assert_eq!(validate_format_of(FieldType::Qty), fix_core::validate::FieldType::Decimal);
/// ```
pub fn format_of(ty: FieldType) -> validate::FieldType {
    core_type(ty).format()
}

/// The dictionary type as fix-core's [`typed::FieldType`](fix_core::typed::FieldType),
/// which generated tables carry (the two enums have the same variants).
///
/// ```
/// use fix_dict::{FieldType, core_type};
/// assert_eq!(core_type(FieldType::Price), fix_core::typed::FieldType::Price);
/// ```
pub fn core_type(ty: FieldType) -> fix_core::typed::FieldType {
    use fix_core::typed::FieldType as T;
    match ty {
        FieldType::Amt => T::Amt,
        FieldType::Boolean => T::Boolean,
        FieldType::Char => T::Char,
        FieldType::Country => T::Country,
        FieldType::Currency => T::Currency,
        FieldType::Data => T::Data,
        FieldType::Date => T::Date,
        FieldType::DayOfMonth => T::DayOfMonth,
        FieldType::Exchange => T::Exchange,
        FieldType::Float => T::Float,
        FieldType::Int => T::Int,
        FieldType::Language => T::Language,
        FieldType::Length => T::Length,
        FieldType::LocalMktDate => T::LocalMktDate,
        FieldType::LocalMktTime => T::LocalMktTime,
        FieldType::MonthYear => T::MonthYear,
        FieldType::MultipleCharValue => T::MultipleCharValue,
        FieldType::MultipleStringValue => T::MultipleStringValue,
        FieldType::MultipleValueString => T::MultipleValueString,
        FieldType::NumInGroup => T::NumInGroup,
        FieldType::Pattern => T::Pattern,
        FieldType::Percentage => T::Percentage,
        FieldType::Price => T::Price,
        FieldType::PriceOffset => T::PriceOffset,
        FieldType::Qty => T::Qty,
        FieldType::Reserved1000Plus => T::Reserved1000Plus,
        FieldType::Reserved100Plus => T::Reserved100Plus,
        FieldType::Reserved4000Plus => T::Reserved4000Plus,
        FieldType::SeqNum => T::SeqNum,
        FieldType::String => T::String,
        FieldType::TagNum => T::TagNum,
        FieldType::Tenor => T::Tenor,
        FieldType::Time => T::Time,
        FieldType::TzTimeOnly => T::TzTimeOnly,
        FieldType::TzTimestamp => T::TzTimestamp,
        FieldType::UtcDate => T::UtcDate,
        FieldType::UtcDateOnly => T::UtcDateOnly,
        FieldType::UtcTimeOnly => T::UtcTimeOnly,
        FieldType::UtcTimestamp => T::UtcTimestamp,
        FieldType::Xid => T::Xid,
        FieldType::XidRef => T::XidRef,
        FieldType::XmlData => T::XmlData,
    }
}
