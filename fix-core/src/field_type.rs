//! The type of a field, as a QuickFIX dictionary spells it.

use core::fmt;

use crate::validate::ValueFormat;

macro_rules! field_types {
    ($($variant:ident = $name:literal, $doc:literal;)*) => {
        /// A field's `type` in a QuickFIX dictionary (all FIX 4.0–5.0SP2
        /// types, including the legacy spellings the reference dictionaries
        /// use): what the run-time dictionary reads, the emitter writes into
        /// generated tables and validation maps to a [`ValueFormat`].
        ///
        /// ```
        /// use fix_core::FieldType;
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
            /// # use fix_core::FieldType;
            /// assert!(FieldType::ALL.contains(&FieldType::Data));
            /// ```
            pub const ALL: &'static [FieldType] = &[$(FieldType::$variant,)*];

            /// The spelling used in dictionaries.
            ///
            /// ```
            /// # use fix_core::FieldType;
            /// assert_eq!(FieldType::UtcTimestamp.as_str(), "UTCTIMESTAMP");
            /// ```
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(FieldType::$variant => $name,)*
                }
            }
        }

        impl core::str::FromStr for FieldType {
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
/// use fix_core::{FieldType, UnknownFieldType};
/// assert_eq!("X".parse::<FieldType>(), Err(UnknownFieldType));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UnknownFieldType;

impl fmt::Display for UnknownFieldType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown FIX field type")
    }
}

#[cfg(feature = "std")]
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
    /// # use fix_core::FieldType;
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
    /// # use fix_core::FieldType;
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
    /// # use fix_core::FieldType;
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
    /// # use fix_core::FieldType;
    /// assert!(FieldType::XmlData.is_data() && !FieldType::Length.is_data());
    /// ```
    pub const fn is_data(self) -> bool {
        matches!(self, FieldType::Data | FieldType::XmlData)
    }

    /// The value format validation checks for this type (SessionRejectReason 6,
    /// "incorrect data format"): generated tables and the run-time dictionary both
    /// map through here.
    ///
    /// ```
    /// use fix_core::{FieldType, validate::ValueFormat};
    /// assert_eq!(FieldType::Qty.format(), ValueFormat::Decimal);
    /// ```
    pub const fn format(self) -> ValueFormat {
        use ValueFormat as V;
        match self {
            FieldType::Int
            | FieldType::Reserved100Plus
            | FieldType::Reserved1000Plus
            | FieldType::Reserved4000Plus => V::Int,
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
            FieldType::MultipleStringValue | FieldType::MultipleValueString => {
                V::MultipleValueString
            }
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
}
