//! The interface validation runs against: a [`Schema`] of [`Layout`]s, and the
//! [`ValueFormat`] of each field.
//!
//! Two kinds of dictionary implement it: the const tables generated into a crate
//! like `fix44` (`typed::Tables`), and a dictionary loaded at run time from any
//! QuickFIX XML file (`fix_dict::Dictionary`). Validation is written once, here,
//! against these traits.

use super::dense::Dense;
use crate::value::{
    Char, Country, Currency, Decimal, Exchange, LocalMktDate, MonthYear, MultipleCharValue,
    MultipleValueString, TzTimeOnly, TzTimestamp, UtcDateOnly, UtcTimeOnly, UtcTimestamp,
    parse_int, parse_uint,
};
use core::ops::Range;

/// A field's value format, as far as validation checks it (SessionRejectReason 6):
/// what a dictionary's [`FieldType`](crate::FieldType) maps to.
///
/// ```
/// use fix_core::validate::ValueFormat;
/// assert!(ValueFormat::Decimal.accepts(b"200.00"));
/// assert!(!ValueFormat::Decimal.accepts(b"+200.00"));
/// assert!(ValueFormat::UtcTimestamp.accepts(b"20261130-14:03:27.123"));
/// assert!(!ValueFormat::Boolean.accepts(b"y"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValueFormat {
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

impl ValueFormat {
    /// Whether `value` (non-empty) has this data format.
    ///
    /// The common formats are checked here by shape alone when the shape settles it
    /// (digits of a length that cannot overflow, a timestamp whose day exists in
    /// every month); anything else goes to the full parser of the type.
    #[inline(always)]
    pub fn accepts(self, value: &[u8]) -> bool {
        match self {
            ValueFormat::String | ValueFormat::Data | ValueFormat::Unchecked => true,
            ValueFormat::Char => matches!(value, [b] if Char::new(*b).is_some()),
            ValueFormat::Decimal => shape::decimal(value) || self.parses(value),
            ValueFormat::UInt => shape::digits(value) || self.parses(value),
            ValueFormat::Int => {
                shape::digits(value.strip_prefix(b"-").unwrap_or(value)) || self.parses(value)
            }
            ValueFormat::UtcTimestamp => shape::utc_timestamp(value) || self.parses(value),
            // The ISO codes are shapes alone (what their parsers check too).
            ValueFormat::Currency => {
                matches!(value, [_, _, _] if value.iter().all(u8::is_ascii_uppercase))
            }
            ValueFormat::Country => {
                matches!(value, [_, _] if value.iter().all(u8::is_ascii_uppercase))
            }
            ValueFormat::Exchange => {
                (1..=4).contains(&value.len())
                    && value
                        .iter()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            }
            _ => self.parses(value),
        }
    }

    /// Every format, in declaration order: `ALL[f as usize]` is `f`, so a table
    /// built at compile time can hold a format as one byte.
    ///
    /// ```
    /// use fix_core::validate::ValueFormat;
    /// assert_eq!(ValueFormat::ALL[ValueFormat::Decimal as usize], ValueFormat::Decimal);
    /// ```
    pub const ALL: [ValueFormat; 21] = {
        use ValueFormat::*;
        [
            Int,
            UInt,
            DayOfMonth,
            Decimal,
            Char,
            Boolean,
            String,
            MultipleCharValue,
            MultipleValueString,
            Country,
            Currency,
            Exchange,
            MonthYear,
            UtcTimestamp,
            UtcTimeOnly,
            UtcDateOnly,
            LocalMktDate,
            TzTimeOnly,
            TzTimestamp,
            Data,
            Unchecked,
        ]
    };

    /// [`accepts`](Self::accepts) for the value at `range` of a message's `bytes`
    /// (not empty): the same answer, a decimal read in one vector block from the
    /// bytes around it.
    ///
    /// ```
    /// use fix_core::validate::ValueFormat;
    /// let bytes = b"44=187.25\x01";
    /// assert!(ValueFormat::Decimal.accepts_in(bytes, 3..9));
    /// assert!(!ValueFormat::UInt.accepts_in(bytes, 3..9));
    /// ```
    #[inline(always)]
    pub fn accepts_in(self, bytes: &[u8], range: Range<usize>) -> bool {
        match self {
            ValueFormat::String | ValueFormat::Data | ValueFormat::Unchecked => true,
            ValueFormat::Decimal => Self::accepts_decimal_in(bytes, range),
            format => format.accepts(bytes.get(range).unwrap_or_default()),
        }
    }

    /// Whether the one-byte value `b` has this format, decided in a `const`
    /// (tables built at compile time use it): `true` only when
    /// [`accepts`](Self::accepts) is, `false` also when not sure.
    pub(crate) const fn accepts_byte(self, b: u8) -> bool {
        match self {
            ValueFormat::String | ValueFormat::Data | ValueFormat::Unchecked => true,
            ValueFormat::Char => Char::new(b).is_some(),
            ValueFormat::Int | ValueFormat::UInt => b.is_ascii_digit(),
            ValueFormat::DayOfMonth => matches!(b, b'1'..=b'9'),
            ValueFormat::Boolean => matches!(b, b'Y' | b'N'),
            _ => false,
        }
    }

    /// `ValueFormat::Decimal.accepts` for the value at `range` of a message's
    /// `bytes`, read from the sixteen bytes that end where the value ends.
    #[inline(always)]
    pub(crate) fn accepts_decimal_in(bytes: &[u8], range: Range<usize>) -> bool {
        shape::decimal_in(bytes, range.start, range.end)
            || bytes
                .get(range)
                .is_some_and(|v| ValueFormat::Decimal.parses(v))
    }

    /// Whether `value` parses as this format: the full check behind [`Self::accepts`].
    #[cold]
    #[inline(never)]
    fn parses(self, value: &[u8]) -> bool {
        match self {
            ValueFormat::Int => parse_int(value).is_ok(),
            ValueFormat::UInt => parse_uint(value).is_ok(),
            ValueFormat::DayOfMonth => parse_uint(value).is_ok_and(|d| (1..=31).contains(&d)),
            ValueFormat::Decimal => Decimal::parse(value).is_ok(),
            ValueFormat::Char => Char::parse(value).is_ok(),
            ValueFormat::Boolean => matches!(value, b"Y" | b"N"),
            ValueFormat::String | ValueFormat::Data | ValueFormat::Unchecked => true,
            ValueFormat::MultipleCharValue => MultipleCharValue::parse(value).is_ok(),
            ValueFormat::MultipleValueString => MultipleValueString::parse(value).is_ok(),
            ValueFormat::Country => Country::parse(value).is_ok(),
            ValueFormat::Currency => Currency::parse(value).is_ok(),
            ValueFormat::Exchange => Exchange::parse(value).is_ok(),
            ValueFormat::MonthYear => MonthYear::parse(value).is_ok(),
            ValueFormat::UtcTimestamp => UtcTimestamp::parse(value).is_ok(),
            ValueFormat::UtcTimeOnly => UtcTimeOnly::parse(value).is_ok(),
            ValueFormat::UtcDateOnly => UtcDateOnly::parse(value).is_ok(),
            ValueFormat::LocalMktDate => LocalMktDate::parse(value).is_ok(),
            ValueFormat::TzTimeOnly => TzTimeOnly::parse(value).is_ok(),
            ValueFormat::TzTimestamp => TzTimestamp::parse(value).is_ok(),
        }
    }
}

/// A data dictionary, as validation sees it: each field's format and values, and
/// the layouts of the header, the trailer and each message's body.
///
/// ```
/// use fix_core::validate::{Layout, Schema};
/// fn header_requires<S: Schema>(schema: &S, tag: u32) -> bool {
///     let mut required = false;
///     schema.header_layout().for_each_required(&mut |t, _| {
///         required |= t == tag;
///         !required
///     });
///     required
/// }
/// ```
pub trait Schema {
    /// One level of a message: header, trailer, body, or a group entry.
    type Layout: Layout + ?Sized;

    /// The BeginString (8) this dictionary's messages carry, when it says:
    /// `FIX.4.4` for FIX 4.4; `FIXT.1.1` for the FIXT transport and for a FIX 5.0
    /// (or later) application dictionary, whose messages ride on FIXT.1.1. A
    /// message with another BeginString is not for this dictionary at all
    /// ([`Invalid::IncorrectBeginString`](super::Invalid::IncorrectBeginString)).
    /// `None` (the default) skips the check.
    ///
    /// ```
    /// use fix_core::validate::Schema;
    /// fn carries<S: Schema>(schema: &S, begin_string: &[u8]) -> bool {
    ///     schema.begin_string().is_none_or(|b| b == begin_string)
    /// }
    /// ```
    fn begin_string(&self) -> Option<&[u8]> {
        None
    }

    /// The type of field `tag`, or `None` when the dictionary does not define it.
    fn field_format(&self, tag: u32) -> Option<ValueFormat>;

    /// What validation checks of field `tag` (`None` when the dictionary does not
    /// define it), in one lookup. The default asks [`field_format`](Self::field_format)
    /// and treats every field as enumerated, so [`value_allowed`](Self::value_allowed)
    /// is always consulted; dictionaries that know better say so.
    fn field_info(&self, tag: u32) -> Option<FieldInfo> {
        self.field_format(tag).map(|format| FieldInfo {
            format,
            enumerated: true,
        })
    }

    /// Whether `value` is allowed for `tag`: one of its enumerated values (each item,
    /// for a multiple-value field), or anything when the field is not enumerated.
    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool;

    /// When every listed value of field `tag` is one byte (and it is not a
    /// multiple-value type), those bytes as a 256-bit set (bit `b % 64` of word
    /// `b / 64`), for checks that keep it; `None` (the default) otherwise or when
    /// the dictionary does not say.
    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        let _ = tag;
        None
    }

    /// Whether the value at `range` of `bytes` (a message's bytes; the value is
    /// not empty) passes every value check of field `tag`: its format and, when
    /// it is enumerated, its listed values; `false` when the dictionary does not
    /// define `tag`. The default asks [`field_info`](Self::field_info) and
    /// [`value_allowed`](Self::value_allowed); dictionaries that decided each
    /// field's checks at build time answer with one lookup.
    ///
    /// ```
    /// use fix_core::validate::Schema;
    /// fn side_ok<S: Schema>(schema: &S) -> bool {
    ///     let bytes = b"54=1\x01";
    ///     schema.value_ok(54, bytes, 3..4)
    /// }
    /// ```
    #[inline]
    fn value_ok(&self, tag: u32, bytes: &[u8], range: Range<usize>) -> bool {
        let Some(info) = self.field_info(tag) else {
            return false;
        };
        let value = bytes.get(range.clone()).unwrap_or_default();
        info.format.accepts_in(bytes, range) && (!info.enumerated || self.value_allowed(tag, value))
    }

    /// The message with this MsgType as a [`Dense`] table, when the dictionary
    /// decided at build time where each of its tags goes (generated tables do):
    /// the validator then tries its fast path first. `None` (the default): the
    /// walk alone.
    ///
    /// ```
    /// use fix_core::validate::Schema;
    /// fn has_fast_path<S: Schema>(schema: &S) -> bool {
    ///     schema.dense(b"8").is_some()
    /// }
    /// ```
    fn dense(&self, msg_type: &[u8]) -> Option<Dense<'_>> {
        let _ = msg_type;
        None
    }

    /// The standard header.
    fn header_layout(&self) -> &Self::Layout;

    /// The standard trailer.
    fn trailer_layout(&self) -> &Self::Layout;

    /// The body of the message with this MsgType, if the dictionary defines it.
    fn body_layout(&self, msg_type: &[u8]) -> Option<&Self::Layout>;
}

/// A borrowed schema is a schema: a session or tool can validate against a
/// `static` dictionary (`&fix44::DICTIONARY`) without owning it.
impl<T: Schema + ?Sized> Schema for &T {
    type Layout = T::Layout;

    fn begin_string(&self) -> Option<&[u8]> {
        (**self).begin_string()
    }

    fn field_format(&self, tag: u32) -> Option<ValueFormat> {
        (**self).field_format(tag)
    }

    fn field_info(&self, tag: u32) -> Option<FieldInfo> {
        (**self).field_info(tag)
    }

    fn value_allowed(&self, tag: u32, value: &[u8]) -> bool {
        (**self).value_allowed(tag, value)
    }

    fn byte_set(&self, tag: u32) -> Option<[u64; 4]> {
        (**self).byte_set(tag)
    }

    fn value_ok(&self, tag: u32, bytes: &[u8], range: Range<usize>) -> bool {
        (**self).value_ok(tag, bytes, range)
    }

    fn dense(&self, msg_type: &[u8]) -> Option<Dense<'_>> {
        (**self).dense(msg_type)
    }

    fn header_layout(&self) -> &Self::Layout {
        (**self).header_layout()
    }

    fn trailer_layout(&self) -> &Self::Layout {
        (**self).trailer_layout()
    }

    fn body_layout(&self, msg_type: &[u8]) -> Option<&Self::Layout> {
        (**self).body_layout(msg_type)
    }
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

    /// The required members as a bit set over member indexes (bit `i % 64` of word
    /// `i / 64`), when every required index is below 256: the validator then checks
    /// a level's required members with four word operations, and calls
    /// [`for_each_required`](Self::for_each_required) only to name a missing one.
    /// `None` (the default) always takes the slower way.
    fn required_bits(&self) -> Option<&[u64; 4]> {
        None
    }

    /// The required members' indexes, ascending, when the layout keeps them as
    /// a list: the validator's fast path checks a group entry's required members
    /// against it as the entry's members come, in order. `None` (the default)
    /// leaves messages with groups to the full walk.
    fn required_indexes(&self) -> Option<&[u16]> {
        None
    }
}

/// Whether `value` is one byte that the 256-bit `set` holds (bit `b % 64` of word
/// `b / 64`): the form [`Member::values`] and [`Schema::byte_set`] give.
///
/// ```
/// use fix_core::validate::byte_set_contains;
/// let mut sides = [0u64; 4];
/// sides[usize::from(b'1' / 64)] |= 1 << (b'1' % 64);
/// assert!(byte_set_contains(&sides, b"1") && !byte_set_contains(&sides, b"2"));
/// assert!(!byte_set_contains(&sides, b"11"));
/// ```
#[inline]
pub fn byte_set_contains(set: &[u64; 4], value: &[u8]) -> bool {
    match value {
        &[b] => set[usize::from(b / 64)] & (1 << (b % 64)) != 0,
        _ => false,
    }
}

/// Whether an enumerated field's `value` is allowed, given `listed`, which says
/// whether one value is among the field's listed values: for a multiple-value
/// field every space-separated item must be listed (and the value not be empty).
/// The one rule every dictionary applies, however it stores its values.
///
/// ```
/// use fix_core::validate::value_listed;
/// let listed = |v: &[u8]| v == b"1" || v == b"G";
/// assert!(value_listed(false, b"G", listed) && !value_listed(false, b"1 G", listed));
/// assert!(value_listed(true, b"1 G", listed) && !value_listed(true, b"1 X", listed));
/// assert!(!value_listed(true, b"", listed));
/// ```
#[inline(always)]
pub fn value_listed(multiple: bool, value: &[u8], listed: impl Fn(&[u8]) -> bool) -> bool {
    if multiple {
        !value.is_empty() && value.split(|&b| b == b' ').all(listed)
    } else {
        listed(value)
    }
}

/// What validation checks of a field's value: its data format, and whether it is
/// enumerated (only then is [`Schema::value_allowed`] consulted).
///
/// ```
/// use fix_core::validate::{FieldInfo, ValueFormat};
/// let side = FieldInfo { format: ValueFormat::Char, enumerated: true };
/// assert!(side.format.accepts(b"1"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldInfo {
    /// The field's data format.
    pub format: ValueFormat,
    /// Whether the dictionary lists the field's values.
    pub enumerated: bool,
}

/// A member of a [`Layout`].
#[derive(Debug)]
pub struct Member<'l, L: ?Sized> {
    /// Its position at this level, below [`Layout::len`].
    pub index: usize,
    /// For a NUMINGROUP counter, the group it counts.
    pub group: Option<Group<'l, L>>,
    /// The field's [`FieldInfo`], when the layout carries it (saving the validator a
    /// [`Schema::field_info`] lookup); `None` to ask the dictionary.
    pub info: Option<FieldInfo>,
    /// When the field's listed values are all one byte (and it is not a
    /// multiple-value type), those bytes as a 256-bit set (bit `b % 64` of word
    /// `b / 64`): the validator checks the value here instead of calling
    /// [`Schema::value_allowed`]. `None` to ask the dictionary.
    pub values: Option<&'l [u64; 4]>,
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

/// Shape checks that settle the common cases of [`ValueFormat::accepts`] without
/// parsing: each returns `true` only for values the full parser accepts (a
/// differential test holds them to that), and `false` for anything it is not sure
/// of.
mod shape {
    use crate::value::{all_digits, bytes_equal, load_padded};

    /// Up to 18 digits: a non-negative integer below 10^18, valid as INT and UINT.
    #[inline]
    pub(super) fn digits(v: &[u8]) -> bool {
        !v.is_empty() && v.len() <= 18 && v.iter().all(|b| b.is_ascii_digit())
    }

    /// An optional `-`, then up to 18 bytes of digits with at most one `.` and at
    /// least one digit: a mantissa below 10^18 at a scale of at most 18.
    #[inline]
    pub(super) fn decimal(v: &[u8]) -> bool {
        let v = v.strip_prefix(b"-").unwrap_or(v);
        if let Some(word) = load_padded(v) {
            // Up to eight bytes at once: at most one `.` and a digit besides it;
            // with the `.` made a `0`, all digits.
            let dots = bytes_equal(word, b'.');
            let digits = word ^ ((dots >> 7) * u64::from(b'.' ^ b'0'));
            return dots & dots.wrapping_sub(1) == 0
                && v.len() > usize::from(dots != 0)
                && all_digits(digits);
        }
        if v.is_empty() || v.len() > 18 {
            return false;
        }
        let mut points = 0u32;
        let mut other = false;
        for &b in v {
            points += u32::from(b == b'.');
            other |= !b.is_ascii_digit() && b != b'.';
        }
        !other && points <= 1 && v.len() > points as usize
    }

    /// [`decimal`] of `bytes[start..end]`, a value inside a message. A value of one
    /// to sixteen bytes is read as the sixteen bytes that end where it ends (in a
    /// message, the bytes before a value are its tag and the fields before it):
    /// one vector compare gives its digits, points and minus signs at once.
    #[inline(always)]
    pub(super) fn decimal_in(bytes: &[u8], start: usize, end: usize) -> bool {
        let n = end.wrapping_sub(start);
        let block = end
            .checked_sub(16)
            .and_then(|at| bytes.get(at..end))
            .and_then(|b| <&[u8; 16]>::try_from(b).ok());
        let (Some(block), 1..=16) = (block, n) else {
            return bytes.get(start..end).is_some_and(decimal);
        };
        let m = crate::scan::number_masks(block);
        let value = !0u16 << (16 - n);
        let first = 1u16 << (16 - n);
        let (digits, dots, minus) = (m.digits & value, m.dots & value, m.minus & value);
        // Only digits, one `.` at most, a `-` only first, and a digit somewhere.
        // (A `-` only first: no bit of `minus` but `first`.)
        digits | dots | minus == value
            && dots & dots.wrapping_sub(1) == 0
            && minus & !first == 0
            && digits != 0
    }

    /// `YYYYMMDD-HH:MM:SS` with an optional `.` and 3, 6 or 9 fraction digits,
    /// month 1–12, a day of that month, hour below 24, minute below 60, second at most 60.
    #[inline]
    pub(super) fn utc_timestamp(v: &[u8]) -> bool {
        const ZEROS: u64 = 0x3030_3030_3030_3030;
        let (Some(date), Some(clock), Some(tail)) = (
            v.first_chunk::<8>(),
            v.get(9..).and_then(<[u8]>::first_chunk::<8>),
            v.last_chunk::<8>(),
        ) else {
            return false;
        };
        // The fraction's digits are the last 3, 6 or 9 bytes, after a `.`: in the
        // last eight bytes, the fraction's are digits once the others are `0`s.
        let fraction = match v.len() {
            17 => true,
            21 | 24 | 27 => {
                let n = v.len() - 18;
                let keep = if n >= 8 { !0 } else { !0u64 << (8 * (8 - n)) };
                v[17] == b'.'
                    && all_digits((u64::from_le_bytes(*tail) & keep) | (ZEROS & !keep))
                    && (n < 9 || v[18].is_ascii_digit())
            }
            _ => false,
        };
        let date = u64::from_le_bytes(*date);
        // `HH:MM:SS`: colons at bytes 2 and 5; with them turned into `0`s, all digits.
        const COLONS: u64 = 0x0000_3A00_003A_0000;
        const COLON_TO_ZERO: u64 = 0x0000_0A00_000A_0000;
        let clock = u64::from_le_bytes(*clock) ^ COLON_TO_ZERO;
        if !(fraction
            && v[8] == b'-'
            && all_digits(date)
            && clock & 0x0000_FF00_00FF_0000 == COLONS ^ COLON_TO_ZERO
            && all_digits(clock))
        {
            return false;
        }
        // Byte `i` of `pairs(w)` is the two-digit number at bytes `i` and `i + 1`
        // (at most 99: no byte carries into the next).
        let pairs = |w: u64| {
            let d = w - ZEROS;
            d * 10 + (d >> 8)
        };
        let (date, clock) = (pairs(date), pairs(clock));
        // Hour (byte 0) below 24, minute (byte 3) below 60, second (byte 6) at
        // most 60: adding 128 - limit to a byte sets its top bit when it reaches
        // the limit, without a carry out (99 + 104 < 256).
        const LIMITS: u64 = (128 - 24) | (128 - 60) << 24 | (128 - 61) << 48;
        const TOPS: u64 = 0x80 | 0x80 << 24 | 0x80 << 48;
        let (month, day) = ((date >> 32) & 0xff, (date >> 48) & 0xff);
        let year = || ((date & 0xff) * 100 + ((date >> 16) & 0xff)) as u16;
        clock.wrapping_add(LIMITS) & TOPS == 0
            && month.wrapping_sub(1) < 12
            && day.wrapping_sub(1)
                < if day <= 28 {
                    28
                } else {
                    u64::from(crate::value::days_in_month(year(), month as u8))
                }
    }
}

#[cfg(test)]
mod tests {
    use super::shape;
    use crate::value::UtcTimestamp;
    use std::format;

    /// What a table decides at compile time of a one-byte value's format holds
    /// at run time: for every format and byte.
    #[test]
    fn accepts_byte_is_accepts() {
        for format in super::ValueFormat::ALL {
            for b in 0..=255u8 {
                if format.accepts_byte(b) {
                    assert!(format.accepts(&[b]), "{format:?} {b}");
                }
            }
        }
    }

    /// `ValueFormat::ALL[f as usize]` is `f`: tables that store a format as its
    /// index read it back.
    #[test]
    fn all_formats_in_order() {
        for (i, &format) in super::ValueFormat::ALL.iter().enumerate() {
            assert_eq!(format as usize, i);
        }
    }

    /// Reading a decimal from the block that ends with it answers as the plain
    /// shape check does: every value of up to four bytes over an alphabet where
    /// almost everything is nearly a number, behind prefixes of every length, and
    /// long values near the sixteen-byte edge.
    #[test]
    fn decimal_in_is_decimal() {
        let alphabet = b"0123456789.-+e/,";
        let mut buf = std::vec::Vec::new();
        let mut check = |prefix: &[u8], v: &[u8]| {
            buf.clear();
            buf.extend_from_slice(prefix);
            buf.extend_from_slice(v);
            buf.push(0x01);
            let (start, end) = (prefix.len(), prefix.len() + v.len());
            assert_eq!(
                shape::decimal_in(&buf, start, end),
                shape::decimal(v),
                "{} after {}",
                v.escape_ascii(),
                prefix.escape_ascii()
            );
        };
        let prefixes = [
            &b""[..],
            b"1",
            b"44=",
            b"0123456789=",
            b"-.-.-.-.-.-.-.-.-.-.",
            b"8=FIX.4.4\x019=316\x0144=",
        ];
        let mut value = [0u8; 4];
        for n in 1..=4usize {
            for code in 0..alphabet.len().pow(n as u32) {
                let mut c = code;
                for b in &mut value[..n] {
                    *b = alphabet[c % alphabet.len()];
                    c /= alphabet.len();
                }
                for prefix in prefixes {
                    check(prefix, &value[..n]);
                }
            }
        }
        for v in [
            &b"187.2450"[..],
            b"-87.2450",
            b"1234567890123456",
            b"123456789012345.6",
            b"-12345678901234.5",
            b"-123456789012345",
            b"1234567890123456789",
            b"12345678.90123456",
            b"-",
            b"--1",
            b"1-",
            b".5.",
            b"-.5",
            b"5.",
            b"0000000000000000",
        ] {
            for prefix in prefixes {
                check(prefix, v);
            }
        }
    }

    /// The timestamp shape is exact: it accepts what `UtcTimestamp::parse` accepts
    /// and nothing else, on every calendar and clock edge, every fraction length,
    /// and every single-byte damage of a valid value.
    #[test]
    fn timestamp_shape_is_the_parser() {
        let check = |v: &[u8]| {
            assert_eq!(
                shape::utc_timestamp(v),
                UtcTimestamp::parse(v).is_ok(),
                "{}",
                v.escape_ascii()
            );
        };
        let fractions = [
            "",
            ".",
            ".1",
            ".12",
            ".123",
            ".1234",
            ".123456",
            ".12345678",
            ".123456789",
            ".1234567890",
        ];
        for year in [0, 1900, 2000, 2023, 2024, 9999] {
            for month in 0..=13 {
                for day in 0..=32 {
                    for frac in [fractions[0], fractions[4]] {
                        check(format!("{year:04}{month:02}{day:02}-12:30:30{frac}").as_bytes());
                    }
                }
            }
        }
        for hour in 0..=25 {
            for minute in [0, 9, 10, 59, 60, 61, 99] {
                for second in [0, 59, 60, 61, 99] {
                    check(format!("20261130-{hour:02}:{minute:02}:{second:02}").as_bytes());
                }
            }
        }
        for frac in fractions {
            let v = format!("20261130-14:03:27{frac}").into_bytes();
            check(&v);
            for at in 0..v.len() {
                for b in [b'0', b'9', b'/', b':', b'-', b'.', b' ', 0x01, 0xFF] {
                    let mut damaged = v.clone();
                    damaged[at] = b;
                    check(&damaged);
                }
            }
            for cut in 0..v.len() {
                check(&v[..cut]);
            }
        }
    }
}
