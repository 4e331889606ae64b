//! Length-prefixed data fields: which LENGTH tag announces which DATA tag.
//!
//! A DATA field (RawData, SecureData, XmlData, the Encoded* texts…) may hold SOH, so
//! it cannot be delimited by the next SOH: the LENGTH field just before it says how
//! many bytes it has. The dictionary supplies the pairs; FIX 4.4's are the default.

/// One LENGTH field and the DATA field whose size it gives.
///
/// ```
/// use fix_core::DataFieldPair;
/// const RAW: DataFieldPair = DataFieldPair { length: 95, data: 96 };
/// assert_eq!(RAW.data, 96);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DataFieldPair {
    /// The LENGTH field's tag, e.g. RawDataLength (95).
    pub length: u32,
    /// The DATA field's tag, e.g. RawData (96).
    pub data: u32,
}

/// FIX 4.4's data field pairs, in LENGTH tag order.
pub const FIX44_DATA_FIELDS: &[DataFieldPair] = &[
    DataFieldPair {
        length: 90,
        data: 91,
    }, // SecureDataLen -> SecureData
    DataFieldPair {
        length: 93,
        data: 89,
    }, // SignatureLength -> Signature
    DataFieldPair {
        length: 95,
        data: 96,
    }, // RawDataLength -> RawData
    DataFieldPair {
        length: 212,
        data: 213,
    }, // XmlDataLen -> XmlData
    DataFieldPair {
        length: 348,
        data: 349,
    }, // EncodedIssuerLen -> EncodedIssuer
    DataFieldPair {
        length: 350,
        data: 351,
    }, // EncodedSecurityDescLen -> EncodedSecurityDesc
    DataFieldPair {
        length: 352,
        data: 353,
    }, // EncodedListExecInstLen -> EncodedListExecInst
    DataFieldPair {
        length: 354,
        data: 355,
    }, // EncodedTextLen -> EncodedText
    DataFieldPair {
        length: 356,
        data: 357,
    }, // EncodedSubjectLen -> EncodedSubject
    DataFieldPair {
        length: 358,
        data: 359,
    }, // EncodedHeadlineLen -> EncodedHeadline
    DataFieldPair {
        length: 360,
        data: 361,
    }, // EncodedAllocTextLen -> EncodedAllocText
    DataFieldPair {
        length: 362,
        data: 363,
    }, // EncodedUnderlyingIssuerLen -> ...Issuer
    DataFieldPair {
        length: 364,
        data: 365,
    }, // EncodedUnderlyingSecurityDescLen -> ...Desc
    DataFieldPair {
        length: 445,
        data: 446,
    }, // EncodedListStatusTextLen -> ...Text
    DataFieldPair {
        length: 618,
        data: 619,
    }, // EncodedLegIssuerLen -> EncodedLegIssuer
    DataFieldPair {
        length: 621,
        data: 622,
    }, // EncodedLegSecurityDescLen -> ...Desc
];

/// Bits in the quick filter; tags are folded onto it modulo this.
const FILTER_BITS: u32 = 1024;

/// A lookup table of data field pairs, built at compile time by a dictionary.
///
/// Every field of every message asks "is this a LENGTH tag?", so the table keeps a
/// 1024-bit filter (tag modulo 1024) in front of the pair list: a tag whose bit is
/// clear — nearly every tag — costs one load and one test.
///
/// ```
/// use fix_core::{DataFieldPair, DataFields};
///
/// static VENUE: DataFields<'static> = DataFields::new(&[
///     DataFieldPair { length: 95, data: 96 },
///     DataFieldPair { length: 5001, data: 5002 },
/// ]);
/// assert_eq!(VENUE.data_tag(5001), Some(5002));
/// assert_eq!(VENUE.data_tag(96), None);
/// assert_eq!(DataFields::FIX44.data_tag(354), Some(355));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct DataFields<'d> {
    pairs: &'d [DataFieldPair],
    filter: [u64; (FILTER_BITS / 64) as usize],
}

impl<'d> DataFields<'d> {
    /// FIX 4.4's pairs ([`FIX44_DATA_FIELDS`]), the parser's default.
    pub const FIX44: DataFields<'static> = DataFields::new(FIX44_DATA_FIELDS);

    /// No data fields at all: every value ends at the next SOH.
    pub const NONE: DataFields<'static> = DataFields::new(&[]);

    /// Builds the table (usable in `const` and `static` items).
    pub const fn new(pairs: &'d [DataFieldPair]) -> Self {
        let mut filter = [0u64; (FILTER_BITS / 64) as usize];
        let mut i = 0;
        while i < pairs.len() {
            let bit = pairs[i].length % FILTER_BITS;
            filter[(bit / 64) as usize] |= 1 << (bit % 64);
            i += 1;
        }
        DataFields { pairs, filter }
    }

    /// The pairs this table was built from.
    pub const fn pairs(&self) -> &'d [DataFieldPair] {
        self.pairs
    }

    /// The DATA tag that `length_tag` announces, if it is a LENGTH tag of a pair.
    #[inline]
    pub fn data_tag(&self, length_tag: u32) -> Option<u32> {
        if !self.is_length_tag(length_tag) {
            return None;
        }
        self.pairs
            .iter()
            .find(|p| p.length == length_tag)
            .map(|p| p.data)
    }

    /// A quick filter: `false` means `tag` is certainly not a LENGTH tag of a pair;
    /// `true` means it may be ([`DataFields::data_tag`] says for sure).
    #[inline(always)]
    pub(crate) fn is_length_tag(&self, tag: u32) -> bool {
        let bit = tag % FILTER_BITS;
        (self.filter[(bit / 64) as usize] >> (bit % 64)) & 1 != 0
    }

    /// Whether `tag` is the DATA tag of some pair.
    pub fn is_data_tag(&self, tag: u32) -> bool {
        self.pairs.iter().any(|p| p.data == tag)
    }
}

impl Default for DataFields<'static> {
    fn default() -> Self {
        DataFields::FIX44
    }
}
