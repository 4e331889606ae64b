//! FIX numbers (u64) as PostgreSQL bigints (i64).
//!
//! A number is stored as its bits (`as i64`), so every realistic number reads
//! as itself in the table; numbers past `i64::MAX` (which the store accepts,
//! as the other stores do) come out negative, after all the positive ones in
//! FIX order. A range of FIX numbers is then at most two bigint ranges.

/// A FIX number's bigint.
pub(crate) fn to_db(seq: u64) -> i64 {
    seq as i64
}

/// A bigint's FIX number.
pub(crate) fn from_db(seq: i64) -> u64 {
    seq as u64
}

/// The bigint ranges, in FIX order, that hold the FIX numbers `from..=to`.
pub(crate) fn db_ranges(from: u64, to: u64) -> Vec<(i64, i64)> {
    const TOP: u64 = i64::MAX as u64;
    let mut ranges = Vec::with_capacity(2);
    if from > to {
        return ranges;
    }
    if from <= TOP {
        ranges.push((to_db(from), to_db(to.min(TOP))));
    }
    if to > TOP {
        ranges.push((to_db(from.max(TOP + 1)), to_db(to)));
    }
    ranges
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_split_at_the_sign() {
        assert_eq!(db_ranges(1, 10), [(1, 10)]);
        assert_eq!(db_ranges(5, 1), []);
        assert_eq!(db_ranges(1, u64::MAX), [(1, i64::MAX), (i64::MIN, -1)]);
        assert_eq!(db_ranges(u64::MAX - 1, u64::MAX), [(-2, -1)]);
        assert_eq!(from_db(to_db(u64::MAX - 1)), u64::MAX - 1);
    }
}
