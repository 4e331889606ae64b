//! The run-time dictionary as fix-core's validation [`Dictionary`]: validate
//! messages against any QuickFIX XML file without generating code.

use fix_core::validate::{self, Group, Member};

use super::{Dictionary, FieldType, Layout};

impl validate::Dictionary for Dictionary {
    type Layout = Layout;

    fn field_type(&self, tag: u32) -> Option<validate::FieldType> {
        self.format(tag)
    }

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
    fn member(&self, tag: u32) -> Option<Member<'_, Self>> {
        let index = self.index.get(tag)?;
        let field = self.fields.get(index)?;
        let group = field.group.and_then(|g| self.groups.get(g)).map(|g| Group {
            delimiter: g.delimiter,
            entry: &g.entry,
        });
        Some(Member {
            index,
            required: field.required,
            group,
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
}

/// The data format validation checks for a dictionary type.
///
/// ```
/// use fix_codegen::model::{FieldType, validate_format_of};
/// assert_eq!(validate_format_of(FieldType::Qty), fix_core::validate::FieldType::Decimal);
/// ```
pub fn format_of(ty: FieldType) -> validate::FieldType {
    use validate::FieldType as V;
    match ty {
        FieldType::Int | FieldType::Reserved100Plus | FieldType::Reserved1000Plus => V::Int,
        FieldType::Reserved4000Plus => V::Int,
        FieldType::Length | FieldType::TagNum | FieldType::SeqNum | FieldType::NumInGroup => {
            V::UInt
        }
        FieldType::DayOfMonth => V::DayOfMonth,
        FieldType::Float
        | FieldType::Qty
        | FieldType::Price
        | FieldType::PriceOffset
        | FieldType::Amt
        | FieldType::Percentage => V::Decimal,
        FieldType::Char => V::Char,
        FieldType::Boolean => V::Boolean,
        FieldType::MultipleCharValue => V::MultipleCharValue,
        FieldType::MultipleStringValue | FieldType::MultipleValueString => V::MultipleValueString,
        FieldType::Country => V::Country,
        FieldType::Currency => V::Currency,
        FieldType::Exchange => V::Exchange,
        FieldType::MonthYear => V::MonthYear,
        FieldType::UtcTimestamp => V::UtcTimestamp,
        FieldType::UtcTimeOnly => V::UtcTimeOnly,
        FieldType::UtcDateOnly | FieldType::UtcDate => V::UtcDateOnly,
        FieldType::LocalMktDate => V::LocalMktDate,
        FieldType::TzTimeOnly => V::TzTimeOnly,
        FieldType::TzTimestamp => V::TzTimestamp,
        FieldType::Data | FieldType::XmlData => V::Data,
        _ => V::Unchecked,
    }
}
