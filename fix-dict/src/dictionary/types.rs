//! FIX field types and the checks of enumerated values against them.

use std::fmt;

use crate::diagnostic::ValueProblem;

macro_rules! field_types {
    ($($variant:ident = $name:literal, $doc:literal;)*) => {
        /// A field's `type` in a QuickFIX dictionary (all FIX 4.0–5.0SP2
        /// types, including the legacy spellings the reference dictionaries
        /// use).
        ///
        /// ```
        /// use fix_dict::FieldType;
        /// let t: FieldType = "NUMINGROUP".parse().unwrap();
        /// assert_eq!(t, FieldType::NumInGroup);
        /// assert_eq!(t.as_str(), "NUMINGROUP");
        /// assert!(t.is_integer());
        /// assert!("WIDGET".parse::<FieldType>().is_err());
        /// ```
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[non_exhaustive]
        pub enum FieldType {
            $(#[doc = $doc] $variant,)*
        }

        impl FieldType {
            /// Every type, in declaration order.
            ///
            /// ```
            /// # use fix_dict::FieldType;
            /// assert!(FieldType::ALL.contains(&FieldType::Data));
            /// ```
            pub const ALL: &'static [FieldType] = &[$(FieldType::$variant,)*];

            /// The spelling used in dictionaries.
            ///
            /// ```
            /// # use fix_dict::FieldType;
            /// assert_eq!(FieldType::UtcTimestamp.as_str(), "UTCTIMESTAMP");
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(FieldType::$variant => $name,)*
                }
            }
        }

        impl std::str::FromStr for FieldType {
            type Err = UnknownFieldType;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                match s {
                    $($name => Ok(FieldType::$variant),)*
                    _ => Err(UnknownFieldType),
                }
            }
        }
    };
}

field_types! {
    Int = "INT", "Integer.";
    Length = "LENGTH", "Byte length of a following DATA field.";
    TagNum = "TAGNUM", "A tag number.";
    SeqNum = "SEQNUM", "A message sequence number.";
    NumInGroup = "NUMINGROUP", "Number of entries in a repeating group (a group counter).";
    DayOfMonth = "DAYOFMONTH", "Day of month, 1–31.";
    Float = "FLOAT", "Decimal number.";
    Qty = "QTY", "Quantity (decimal).";
    Price = "PRICE", "Price (decimal).";
    PriceOffset = "PRICEOFFSET", "Price offset (decimal).";
    Amt = "AMT", "Amount (decimal).";
    Percentage = "PERCENTAGE", "Percentage (decimal).";
    Char = "CHAR", "A single character.";
    Boolean = "BOOLEAN", "`Y` or `N`.";
    String = "STRING", "Free text without SOH.";
    MultipleCharValue = "MULTIPLECHARVALUE", "Space-separated single characters.";
    MultipleStringValue = "MULTIPLESTRINGVALUE", "Space-separated strings.";
    MultipleValueString = "MULTIPLEVALUESTRING", "Space-separated strings (FIX 4.x spelling).";
    Country = "COUNTRY", "ISO 3166 country code.";
    Currency = "CURRENCY", "ISO 4217 currency code.";
    Exchange = "EXCHANGE", "ISO 10383 market identifier.";
    MonthYear = "MONTHYEAR", "YYYYMM, YYYYMMDD or YYYYMMwN.";
    UtcTimestamp = "UTCTIMESTAMP", "UTC date and time.";
    UtcTimeOnly = "UTCTIMEONLY", "UTC time of day.";
    UtcDateOnly = "UTCDATEONLY", "UTC date.";
    UtcDate = "UTCDATE", "UTC date (FIX 4.x spelling).";
    LocalMktDate = "LOCALMKTDATE", "Local market date.";
    LocalMktTime = "LOCALMKTTIME", "Local market time.";
    TzTimeOnly = "TZTIMEONLY", "Time of day with time zone.";
    TzTimestamp = "TZTIMESTAMP", "Date and time with time zone.";
    Date = "DATE", "Date (FIX 4.0/4.1).";
    Time = "TIME", "Date and time (FIX 4.0/4.1).";
    Data = "DATA", "Raw bytes, length given by the paired LENGTH field.";
    XmlData = "XMLDATA", "An XML document, length given by the paired LENGTH field.";
    Language = "LANGUAGE", "ISO 639-1 language code.";
    Pattern = "PATTERN", "A pattern (FIX 5.0SP1+).";
    Tenor = "TENOR", "A tenor such as `M3` (FIX 5.0SP1+).";
    Reserved100Plus = "RESERVED100PLUS", "Integer, values 100 and up reserved.";
    Reserved1000Plus = "RESERVED1000PLUS", "Integer, values 1000 and up reserved.";
    Reserved4000Plus = "RESERVED4000PLUS", "Integer, values 4000 and up reserved.";
    Xid = "XID", "Identifier unique within the message.";
    XidRef = "XIDREF", "Reference to an XID.";
}

/// The error of parsing an unknown [`FieldType`] name.
///
/// ```
/// use fix_dict::{FieldType, UnknownFieldType};
/// assert_eq!("X".parse::<FieldType>(), Err(UnknownFieldType));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownFieldType;

impl fmt::Display for UnknownFieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown FIX field type")
    }
}

impl std::error::Error for UnknownFieldType {}

impl fmt::Display for FieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FieldType {
    /// Integer-valued types (`INT`, `LENGTH`, `TAGNUM`, `SEQNUM`,
    /// `NUMINGROUP`, `DAYOFMONTH`, `RESERVED*PLUS`).
    ///
    /// ```
    /// # use fix_dict::FieldType;
    /// assert!(FieldType::SeqNum.is_integer() && !FieldType::Qty.is_integer());
    /// ```
    pub const fn is_integer(self) -> bool {
        matches!(
            self,
            FieldType::Int
                | FieldType::Length
                | FieldType::TagNum
                | FieldType::SeqNum
                | FieldType::NumInGroup
                | FieldType::DayOfMonth
                | FieldType::Reserved100Plus
                | FieldType::Reserved1000Plus
                | FieldType::Reserved4000Plus
        )
    }

    /// Decimal-valued types (`FLOAT`, `QTY`, `PRICE`, `PRICEOFFSET`, `AMT`,
    /// `PERCENTAGE`).
    ///
    /// ```
    /// # use fix_dict::FieldType;
    /// assert!(FieldType::Price.is_decimal() && !FieldType::Int.is_decimal());
    /// ```
    pub const fn is_decimal(self) -> bool {
        matches!(
            self,
            FieldType::Float
                | FieldType::Qty
                | FieldType::Price
                | FieldType::PriceOffset
                | FieldType::Amt
                | FieldType::Percentage
        )
    }

    /// Types whose wire value is a space-separated list of values
    /// (`MULTIPLECHARVALUE`, `MULTIPLESTRINGVALUE`, `MULTIPLEVALUESTRING`).
    ///
    /// ```
    /// # use fix_dict::FieldType;
    /// assert!(FieldType::MultipleCharValue.is_multiple() && !FieldType::String.is_multiple());
    /// ```
    pub const fn is_multiple(self) -> bool {
        matches!(
            self,
            FieldType::MultipleCharValue
                | FieldType::MultipleStringValue
                | FieldType::MultipleValueString
        )
    }

    /// Raw-data types whose length is carried by a paired `LENGTH` field
    /// (`DATA`, `XMLDATA`).
    ///
    /// ```
    /// # use fix_dict::FieldType;
    /// assert!(FieldType::XmlData.is_data() && !FieldType::Length.is_data());
    /// ```
    pub const fn is_data(self) -> bool {
        matches!(self, FieldType::Data | FieldType::XmlData)
    }

    /// Checks one enumerated value (as listed in `<value enum=...>`, i.e. one
    /// element of a multi-value list) against this type.
    ///
    /// ```
    /// use fix_dict::FieldType;
    /// use fix_dict::diagnostic::ValueProblem;
    /// assert_eq!(FieldType::Char.check_enum_value("1"), Ok(()));
    /// assert_eq!(FieldType::Char.check_enum_value("10"), Err(ValueProblem::NotOneChar));
    /// assert_eq!(FieldType::Int.check_enum_value("-7"), Ok(()));
    /// assert_eq!(FieldType::Int.check_enum_value("1.5"), Err(ValueProblem::NotInteger));
    /// assert_eq!(FieldType::Boolean.check_enum_value("T"), Err(ValueProblem::NotBoolean));
    /// assert_eq!(FieldType::Price.check_enum_value("0.5"), Ok(()));
    /// assert_eq!(FieldType::MultipleStringValue.check_enum_value("A B"), Err(ValueProblem::BadCharacter));
    /// ```
    pub fn check_enum_value(self, value: &str) -> Result<(), ValueProblem> {
        let b = value.as_bytes();
        if b.is_empty() {
            return Err(ValueProblem::Empty);
        }
        // Printable ASCII only: FIX values never carry control characters,
        // and the generated code matches on bytes.
        if b.iter().any(|&c| !(0x20..0x7f).contains(&c)) {
            return Err(ValueProblem::BadCharacter);
        }
        match self {
            FieldType::Char | FieldType::MultipleCharValue if b.len() != 1 => {
                Err(ValueProblem::NotOneChar)
            }
            FieldType::Char | FieldType::MultipleCharValue if b[0] == b' ' => {
                Err(ValueProblem::BadCharacter)
            }
            FieldType::Boolean if b != b"Y" && b != b"N" => Err(ValueProblem::NotBoolean),
            t if t.is_integer() && !is_integer(b) => Err(ValueProblem::NotInteger),
            t if t.is_decimal() && !is_decimal(b) => Err(ValueProblem::NotDecimal),
            t if t.is_multiple() && b.contains(&b' ') => Err(ValueProblem::BadCharacter),
            _ => Ok(()),
        }
    }
}

fn is_integer(b: &[u8]) -> bool {
    let digits = b.strip_prefix(b"-").unwrap_or(b);
    !digits.is_empty() && digits.iter().all(u8::is_ascii_digit)
}

fn is_decimal(b: &[u8]) -> bool {
    let b = b.strip_prefix(b"-").unwrap_or(b);
    let (int, frac) = match b.iter().position(|&c| c == b'.') {
        Some(dot) => (&b[..dot], &b[dot + 1..]),
        None => (b, &b""[..]),
    };
    (!int.is_empty() || !frac.is_empty())
        && int.iter().all(u8::is_ascii_digit)
        && frac.iter().all(u8::is_ascii_digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for &t in FieldType::ALL {
            assert_eq!(t.as_str().parse::<FieldType>(), Ok(t));
        }
    }

    #[test]
    fn enum_value_checks() {
        use FieldType as T;
        use ValueProblem as P;
        let table: &[(FieldType, &str, Result<(), ValueProblem>)] = &[
            (T::Char, "A", Ok(())),
            (T::Char, "AB", Err(P::NotOneChar)),
            (T::Char, " ", Err(P::BadCharacter)),
            (T::Char, "", Err(P::Empty)),
            (T::MultipleCharValue, "AB", Err(P::NotOneChar)),
            (T::Int, "12", Ok(())),
            (T::Int, "-3", Ok(())),
            (T::Int, "-", Err(P::NotInteger)),
            (T::Int, "A", Err(P::NotInteger)),
            (T::NumInGroup, "1x", Err(P::NotInteger)),
            (T::Boolean, "Y", Ok(())),
            (T::Boolean, "N", Ok(())),
            (T::Boolean, "y", Err(P::NotBoolean)),
            (T::Boolean, "YES", Err(P::NotBoolean)),
            (T::Float, "1.", Ok(())),
            (T::Float, ".5", Ok(())),
            (T::Float, ".", Err(P::NotDecimal)),
            (T::Float, "1e5", Err(P::NotDecimal)),
            (T::String, "ANY thing", Ok(())),
            (T::String, "tab\there", Err(P::BadCharacter)),
            (T::String, "é", Err(P::BadCharacter)),
            (T::MultipleValueString, "A B", Err(P::BadCharacter)),
            (T::MultipleValueString, "AB", Ok(())),
        ];
        for (t, v, expected) in table {
            assert_eq!(t.check_enum_value(v), *expected, "{t} {v:?}");
        }
    }
}
