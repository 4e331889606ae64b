//! The dictionary interface validation runs against.
//!
//! Two kinds of dictionary implement it: the const tables generated into a crate
//! like `fix44`, and a dictionary loaded at run time from any QuickFIX XML file
//! (`fix-codegen`'s model). Validation is written once, here, against this trait.

use crate::value::{
    Char, Country, Currency, Decimal, Exchange, LocalMktDate, MonthYear, MultipleCharValue,
    MultipleValueString, TzTimeOnly, TzTimestamp, UtcDateOnly, UtcTimeOnly, UtcTimestamp,
    parse_int, parse_uint,
};

/// A field's data format, as far as validation checks it (SessionRejectReason 6).
///
/// ```
/// use fix_core::validate::FieldType;
/// assert!(FieldType::Decimal.accepts(b"200.00"));
/// assert!(!FieldType::Decimal.accepts(b"+200.00"));
/// assert!(FieldType::UtcTimestamp.accepts(b"20261130-14:03:27.123"));
/// assert!(!FieldType::Boolean.accepts(b"y"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum FieldType {
    /// INT: a signed integer.
    Int,
    /// SEQNUM, NUMINGROUP, LENGTH, TAGNUM: a non-negative integer.
    UInt,
    /// DAYOFMONTH: 1 to 31.
    DayOfMonth,
    /// FLOAT, QTY, PRICE, PRICEOFFSET, AMT, PERCENTAGE.
    Decimal,
    /// CHAR.
    Char,
    /// BOOLEAN: `Y` or `N`.
    Boolean,
    /// STRING and other free text.
    String,
    /// MULTIPLECHARVALUE.
    MultipleCharValue,
    /// MULTIPLEVALUESTRING, MULTIPLESTRINGVALUE.
    MultipleValueString,
    /// COUNTRY.
    Country,
    /// CURRENCY.
    Currency,
    /// EXCHANGE.
    Exchange,
    /// MONTHYEAR.
    MonthYear,
    /// UTCTIMESTAMP.
    UtcTimestamp,
    /// UTCTIMEONLY.
    UtcTimeOnly,
    /// UTCDATEONLY, UTCDATE.
    UtcDateOnly,
    /// LOCALMKTDATE.
    LocalMktDate,
    /// TZTIMEONLY.
    TzTimeOnly,
    /// TZTIMESTAMP.
    TzTimestamp,
    /// DATA, XMLDATA: any bytes.
    Data,
    /// A type whose format is not checked (LANGUAGE, PATTERN, TENOR, …).
    Unchecked,
}

impl FieldType {
    /// Whether `value` (non-empty) has this data format.
    pub fn accepts(self, value: &[u8]) -> bool {
        match self {
            FieldType::Int => parse_int(value).is_ok(),
            FieldType::UInt => parse_uint(value).is_ok(),
            FieldType::DayOfMonth => parse_uint(value).is_ok_and(|d| (1..=31).contains(&d)),
            FieldType::Decimal => Decimal::parse(value).is_ok(),
            FieldType::Char => Char::parse(value).is_ok(),
            FieldType::Boolean => matches!(value, b"Y" | b"N"),
            FieldType::String | FieldType::Data | FieldType::Unchecked => true,
            FieldType::MultipleCharValue => MultipleCharValue::parse(value).is_ok(),
            FieldType::MultipleValueString => MultipleValueString::parse(value).is_ok(),
            FieldType::Country => Country::parse(value).is_ok(),
            FieldType::Currency => Currency::parse(value).is_ok(),
            FieldType::Exchange => Exchange::parse(value).is_ok(),
            FieldType::MonthYear => MonthYear::parse(value).is_ok(),
            FieldType::UtcTimestamp => UtcTimestamp::parse(value).is_ok(),
            FieldType::UtcTimeOnly => UtcTimeOnly::parse(value).is_ok(),
            FieldType::UtcDateOnly => UtcDateOnly::parse(value).is_ok(),
            FieldType::LocalMktDate => LocalMktDate::parse(value).is_ok(),
            FieldType::TzTimeOnly => TzTimeOnly::parse(value).is_ok(),
            FieldType::TzTimestamp => TzTimestamp::parse(value).is_ok(),
        }
    }
}

/// A data dictionary, as validation sees it.
///
/// ```
/// use fix_core::validate::{Dictionary, FieldType, Layout};
/// fn header_requires<D: Dictionary>(dict: &D, tag: u32) -> bool {
///     dict.header().member(tag).is_some_and(|m| m.required)
/// }
/// ```
pub trait Dictionary {
    /// One level of a message: header, trailer, body, or a group entry.
    type Layout: Layout + ?Sized;

    /// The type of field `tag`, or `None` when the dictionary does not define it.
    fn field_type(&self, tag: u32) -> Option<FieldType>;

    /// Whether `value` is allowed for `tag`: one of its enumerated values (each item,
    /// for a multiple-value field), or anything when the field is not enumerated.
    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool;

    /// The standard header.
    fn header(&self) -> &Self::Layout;

    /// The standard trailer.
    fn trailer(&self) -> &Self::Layout;

    /// The body of the message with this MsgType, if the dictionary defines it.
    fn message(&self, msg_type: &[u8]) -> Option<&Self::Layout>;
}

/// One level of a message (components expanded): which tags it holds, which are
/// required, and which are group counters.
pub trait Layout {
    /// The member with `tag` at this level.
    fn member(&self, tag: u32) -> Option<Member<'_, Self>>;

    /// The number of members (their `index` values run below it).
    fn len(&self) -> usize;

    /// Whether the level has no members.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Calls `f` with the tag and index of each required member, in dictionary
    /// order, until it returns `false`.
    fn for_each_required(&self, f: &mut dyn FnMut(u32, usize) -> bool);
}

/// A member of a [`Layout`].
#[derive(Debug)]
pub struct Member<'l, L: ?Sized> {
    /// Its position at this level, below [`Layout::len`].
    pub index: usize,
    /// Whether the level requires it.
    pub required: bool,
    /// For a NUMINGROUP counter, the group it counts.
    pub group: Option<Group<'l, L>>,
}

/// A repeating group: its delimiter (the first tag of every entry) and the layout of
/// one entry.
#[derive(Debug)]
pub struct Group<'l, L: ?Sized> {
    /// The first tag of every entry.
    pub delimiter: u32,
    /// One entry's layout.
    pub entry: &'l L,
}

impl<L: ?Sized> Clone for Member<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L: ?Sized> Copy for Member<'_, L> {}
impl<L: ?Sized> Clone for Group<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L: ?Sized> Copy for Group<'_, L> {}
