//! Decimal digit helpers shared by the value writers: a two-digit lookup table and
//! backwards writers. All functions index slices normally (bounds-checked); callers size
//! the output first so the checks never fail.

/// "00", "01", ..., "99" back to back.
pub(crate) const PAIRS: &[u8; 200] = b"\
0001020304050607080910111213141516171819\
2021222324252627282930313233343536373839\
4041424344454647484950515253545556575859\
6061626364656667686970717273747576777879\
8081828384858687888990919293949596979899";

/// 10^0 ..= 10^19, every power of ten that fits a `u64`.
pub(crate) const POW10_U64: [u64; 20] = {
    let mut t = [1u64; 20];
    let mut i = 1;
    while i < 20 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// 10^0 ..= 10^38, every power of ten that fits a `u128`.
pub(crate) const POW10_U128: [u128; 39] = {
    let mut t = [1u128; 39];
    let mut i = 1;
    while i < 39 {
        t[i] = t[i - 1] * 10;
        i += 1;
    }
    t
};

/// Number of decimal digits of `n` (1 for 0).
#[inline]
pub(crate) fn count_u64(n: u64) -> usize {
    match n.checked_ilog10() {
        Some(l) => l as usize + 1,
        None => 1,
    }
}

/// Number of decimal digits of `n` (1 for 0).
#[inline]
pub(crate) fn count_u128(n: u128) -> usize {
    match n.checked_ilog10() {
        Some(l) => l as usize + 1,
        None => 1,
    }
}

/// Writes the two digits of `v` (< 100) at `out[pos..pos + 2]`.
#[inline]
pub(crate) fn put2(out: &mut [u8], pos: usize, v: u32) {
    let i = (v as usize % 100) * 2;
    out[pos..pos + 2].copy_from_slice(&PAIRS[i..i + 2]);
}

/// Writes all digits of `n` so that they end just before `end`; returns the start index.
/// `out[..end]` must have room for `count_u64(n)` digits.
#[inline]
pub(crate) fn write_u64_back(out: &mut [u8], mut end: usize, mut n: u64) -> usize {
    while n >= 100 {
        let d = (n % 100) as u32;
        n /= 100;
        end -= 2;
        put2(out, end, d);
    }
    if n >= 10 {
        end -= 2;
        put2(out, end, n as u32);
    } else {
        end -= 1;
        out[end] = b'0' + n as u8;
    }
    end
}

/// Writes exactly `width` low digits of `n` (zero padded) ending just before `end`; returns
/// `n / 10^width` (the digits not written).
#[inline]
pub(crate) fn write_u64_fixed_back(
    out: &mut [u8],
    mut end: usize,
    mut n: u64,
    width: usize,
) -> u64 {
    let mut w = width;
    while w >= 2 {
        let d = (n % 100) as u32;
        n /= 100;
        end -= 2;
        put2(out, end, d);
        w -= 2;
    }
    if w == 1 {
        end -= 1;
        out[end] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    n
}

/// `u128` version of [`write_u64_back`].
pub(crate) fn write_u128_back(out: &mut [u8], mut end: usize, mut n: u128) -> usize {
    // Peel 19-digit chunks with u128 division, then finish each chunk in u64.
    while n > u64::MAX as u128 {
        let chunk = (n % POW10_U64[19] as u128) as u64;
        n /= POW10_U64[19] as u128;
        write_u64_fixed_back(out, end, chunk, 19);
        end -= 19;
    }
    write_u64_back(out, end, n as u64)
}

/// `u128` version of [`write_u64_fixed_back`].
pub(crate) fn write_u128_fixed_back(
    out: &mut [u8],
    mut end: usize,
    mut n: u128,
    width: usize,
) -> u128 {
    let mut w = width;
    while w >= 19 {
        let chunk = (n % POW10_U64[19] as u128) as u64;
        n /= POW10_U64[19] as u128;
        write_u64_fixed_back(out, end, chunk, 19);
        end -= 19;
        w -= 19;
    }
    if w > 0 {
        let p = POW10_U64[w] as u128;
        let chunk = (n % p) as u64;
        n /= p;
        write_u64_fixed_back(out, end, chunk, w);
    }
    n
}

/// Parses exactly two ASCII digits at `b[i..i + 2]`; `None` if either is not a digit.
#[inline]
pub(crate) fn two(b: &[u8], i: usize) -> Option<u8> {
    let hi = b.get(i)?.wrapping_sub(b'0');
    let lo = b.get(i + 1)?.wrapping_sub(b'0');
    if hi < 10 && lo < 10 {
        Some(hi * 10 + lo)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn back_writers() {
        let mut b = [0u8; 48];
        for n in [0u64, 7, 10, 99, 100, 12345, u64::MAX] {
            let s = write_u64_back(&mut b, 48, n);
            assert_eq!(s, 48 - count_u64(n));
            assert_eq!(
                core::str::from_utf8(&b[s..])
                    .unwrap()
                    .parse::<u64>()
                    .unwrap(),
                n
            );
        }
        for n in [
            0u128,
            u64::MAX as u128 + 1,
            u128::MAX,
            10u128.pow(19),
            10u128.pow(38),
        ] {
            let s = write_u128_back(&mut b, 48, n);
            assert_eq!(s, 48 - count_u128(n));
            assert_eq!(
                core::str::from_utf8(&b[s..])
                    .unwrap()
                    .parse::<u128>()
                    .unwrap(),
                n
            );
        }
        let rest = write_u128_fixed_back(&mut b, 48, 123_456_789_012_345_678_901_234_567u128, 22);
        assert_eq!(rest, 12345);
        assert_eq!(&b[26..], b"6789012345678901234567");
    }
}
