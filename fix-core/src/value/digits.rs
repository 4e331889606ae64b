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

/// The 8 ASCII digits of `n < 10^8`, most significant first, as the bytes of a
/// little-endian `u64`: the two 4-digit halves and their four 2-digit quarters are split
/// in parallel (constant divisions) and looked up in [`PAIRS`]. Measured against a SWAR
/// version (multiply-shift division inside the lanes of one register): as fast or
/// faster here, with a shorter dependency chain.
#[inline]
pub(crate) fn digits8(n: u32) -> [u8; 8] {
    debug_assert!(n < 100_000_000);
    let (a, b) = (n / 10_000, n % 10_000);
    let pair = |v: u32| -> u64 {
        let i = v as usize * 2;
        u16::from_le_bytes([PAIRS[i], PAIRS[i + 1]]) as u64
    };
    (pair(a / 100) | (pair(a % 100) << 16) | (pair(b / 100) << 32) | (pair(b % 100) << 48))
        .to_le_bytes()
}

/// The two ASCII digits of `v < 100` as the low bytes of a word, tens first (`99` for
/// larger `v`: a clamp, cheaper than `% 100`, keeps the lookup in bounds).
#[inline(always)]
pub(crate) fn pair_word(v: u32) -> u64 {
    let i = (v.min(99) as usize) * 2;
    u16::from_le_bytes([PAIRS[i], PAIRS[i + 1]]) as u64
}

/// Eight ASCII digits from four two-digit values (each below 100) in the 16-bit lanes
/// of `lanes`, lowest lane first: tens and ones split in every lane at once (`v * 103 >>
/// 10` is `v / 10` for `v < 100`, and no lane's product reaches the next lane), no table.
#[inline(always)]
pub(crate) fn pairs_ascii(lanes: u64) -> u64 {
    debug_assert!((0..4).all(|i| (lanes >> (16 * i)) & 0xFFFF < 100));
    let tens = ((lanes * 103) >> 10) & 0x000F_000F_000F_000F;
    let ones = lanes - tens * 10;
    tens | (ones << 8) | 0x3030_3030_3030_3030
}

/// The digits of `n < 10^8` without leading zeros, in the low bytes of a little-endian
/// word (most significant first), and their number (1 for zero).
#[inline(always)]
pub(crate) fn digits_word(n: u32) -> (u64, usize) {
    // Short numbers (tags, sequence numbers, body lengths) from one or two pairs.
    if n < 10_000 {
        if n < 100 {
            let (word, len) = (pair_word(n), 1 + (n >= 10) as usize);
            return (word >> (8 * (2 - len)), len);
        }
        let word = pair_word(n / 100) | pair_word(n % 100) << 16;
        let len = 3 + (n >= 1000) as usize;
        return (word >> (8 * (4 - len)), len);
    }
    let d = u64::from_le_bytes(digits8(n));
    // Leading zero digits are the low zero bytes of `d - '0'` (all 8 for n == 0).
    let zeros = ((d ^ 0x3030_3030_3030_3030).trailing_zeros() / 8) as usize;
    let len = (8 - zeros).max(1);
    (d >> (8 * (8 - len)), len)
}

/// Stores the `out.len()` (1 to 8) low bytes of `word` into `out`, with at most two
/// fixed-size (possibly overlapping) stores and nothing past the end of `out`.
#[inline(always)]
pub(crate) fn store_word(out: &mut [u8], word: u64) {
    let len = out.len();
    debug_assert!((1..=8).contains(&len));
    if len >= 4 {
        out[..4].copy_from_slice(&(word as u32).to_le_bytes());
        let tail = (word >> (8 * (len - 4))) as u32;
        out[len - 4..].copy_from_slice(&tail.to_le_bytes());
    } else if len > 0 {
        // 1 to 3 bytes: first, middle and last cover them all.
        out[0] = word as u8;
        out[len / 2] = (word >> (8 * (len / 2))) as u8;
        out[len - 1] = (word >> (8 * (len - 1))) as u8;
    }
}

/// The 16 ASCII digits of `n < 10^16`, zero padded, most significant first.
#[inline]
pub(crate) fn ascii16(n: u64) -> [u8; 16] {
    debug_assert!(n < 10_000_000_000_000_000);
    let hi = digits8((n / 100_000_000) as u32);
    let lo = digits8((n % 100_000_000) as u32);
    let mut d = [0u8; 16];
    d[..8].copy_from_slice(&hi);
    d[8..].copy_from_slice(&lo);
    d
}

/// Copies `src` into `dst` (same length, at most 64) with a few fixed-size, possibly
/// overlapping moves instead of a call to `memcpy` for a short, variable length.
#[inline(always)]
pub(crate) fn copy_small(dst: &mut [u8], src: &[u8]) {
    let n = dst.len();
    debug_assert!(n == src.len() && n <= 64);
    if n >= 16 {
        let mut i = 0;
        while i + 16 < n {
            dst[i..i + 16].copy_from_slice(&src[i..i + 16]);
            i += 16;
        }
        dst[n - 16..n].copy_from_slice(&src[n - 16..n]);
    } else if n >= 8 {
        dst[..8].copy_from_slice(&src[..8]);
        dst[n - 8..n].copy_from_slice(&src[n - 8..n]);
    } else if n >= 4 {
        dst[..4].copy_from_slice(&src[..4]);
        dst[n - 4..n].copy_from_slice(&src[n - 4..n]);
    } else if n > 0 {
        // 1 to 3 bytes: first, middle and last cover them all.
        dst[0] = src[0];
        dst[n / 2] = src[n / 2];
        dst[n - 1] = src[n - 1];
    }
}

/// `n / 10^k` rounded half away from zero, for `k` in 1..=19, with constant divisors (a
/// multiply each) instead of a hardware division by a variable.
#[inline]
pub(crate) fn div_pow10_round(n: u64, k: u8) -> u64 {
    macro_rules! arms {
        ($($k:literal),*) => {
            match k {
                $($k => {
                    const P: u64 = POW10_U64[$k];
                    let q = n / P;
                    // P is even; q + 1 cannot overflow since q <= u64::MAX / 10.
                    if n % P >= P / 2 { q + 1 } else { q }
                })*
                // 10^20 and above exceed twice any u64: everything rounds to zero.
                _ => 0,
            }
        };
    }
    arms!(
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19
    )
}

/// `ceil(2^64 / 10^k)` for k in 0..=9: for any `n < 2^33`, `(n * M[k]) >> 64` is exactly
/// `n / 10^k`: the error term is below `n / 2^64 < 2^-31`, and a nonzero fractional part of
/// `n / 10^k` is at most `1 - 10^-9` with `10^-9 > 2^-31`, so the error never carries the
/// product past an integer.
const RECIP_U32: [u64; 10] = {
    let mut t = [0u64; 10];
    let mut k = 1;
    while k < 10 {
        let p = POW10_U64[k] as u128;
        t[k] = ((1u128 << 64).div_ceil(p)) as u64;
        k += 1;
    }
    t
};

/// `u32` version of [`div_pow10_round`], for any `k >= 1`: `(n + 10^k / 2) / 10^k` as
/// one multiply by a reciprocal from a table (`n + 10^k / 2 < 2^33`, see `RECIP_U32`).
#[inline]
pub(crate) fn div_pow10_round_u32(n: u32, k: u8) -> u32 {
    let k = k as usize;
    if k >= 10 {
        // 10^10 / 2 exceeds any u32: everything rounds to zero.
        return 0;
    }
    let biased = n as u64 + POW10_U64[k] / 2;
    ((biased as u128 * RECIP_U32[k] as u128) >> 64) as u32
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

/// Whether the eight bytes of `w` (little-endian) are all ASCII digits: a digit's
/// high nibble is 3, and adding 6 to it does not carry into it.
#[inline]
pub(crate) const fn all_digits(w: u64) -> bool {
    const HIGH: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    const SIXES: u64 = 0x0606_0606_0606_0606;
    w & HIGH == ZEROS && w.wrapping_add(SIXES) & HIGH == ZEROS
}

/// One to eight bytes in one little-endian word, right-aligned behind `0`s
/// (`b"12"` → `"00000012"`): leading zeros change no number, so a short value is
/// checked and converted as eight digits. `None` for an empty or longer input.
#[inline]
pub(crate) fn load_padded(bytes: &[u8]) -> Option<u64> {
    const ZEROS: u64 = 0x3030_3030_3030_3030;
    let n = bytes.len();
    match (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        _ if n == 0 || n > 8 => None,
        (Some(first), Some(last)) => {
            // Two overlapping loads: the last four bytes fill bytes 4..8 of the
            // word, the first four end at byte 8 - n + 4, the rest is padding.
            let pad = 8 * (8 - n as u32);
            let first = (u64::from(u32::from_le_bytes(*first)) << pad) & 0xFFFF_FFFF;
            let padding = ZEROS & ((1u64 << pad) - 1);
            Some((u64::from(u32::from_le_bytes(*last)) << 32) | first | padding)
        }
        _ => Some(
            bytes
                .iter()
                .fold(ZEROS, |w, &b| (w >> 8) | (u64::from(b) << 56)),
        ),
    }
}

/// The bytes of `w` equal to `b`, flagged by their high bit: the classic zero-byte
/// test on `w ^ b`. The lowest flag is exact; a byte `b ^ 1` just above a match
/// may be flagged too, so callers accept only a single flag (and a `b ^ 1` byte
/// is never a digit, `.` or `=`, the bytes this looks for).
#[inline]
pub(crate) const fn bytes_equal(w: u64, b: u8) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = w ^ (ONES * b as u64);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// The value of `bytes` when they are one to `max_len` ASCII digits, no sign;
/// `None` otherwise. `max_len` of at most 19 keeps the value below 10^19, so it
/// cannot overflow. The one short-number parse the workspace's length, count, tag
/// and sequence-number fields share (typed values use [`parse_uint`](super::parse_uint),
/// which reports why a value is not a number).
///
/// ```
/// use fix_core::value::parse_digits;
/// assert_eq!(parse_digits(b"0042", 9), Some(42));
/// assert_eq!(parse_digits(b"1234567890", 9), None);
/// assert_eq!(parse_digits(b"", 9), None);
/// assert_eq!(parse_digits(b"-1", 9), None);
/// ```
#[inline]
pub fn parse_digits(bytes: &[u8], max_len: usize) -> Option<u64> {
    if bytes.is_empty() || bytes.len() > max_len.min(19) {
        return None;
    }
    bytes.iter().try_fold(0u64, |n, &b| {
        b.is_ascii_digit().then(|| n * 10 + u64::from(b - b'0'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_padded_right_aligns() {
        for v in [
            &b"1"[..],
            b"12",
            b"123",
            b"1234",
            b"12345",
            b"1234567",
            b"12345678",
        ] {
            let w = load_padded(v).unwrap().to_le_bytes();
            assert_eq!(&w[8 - v.len()..], v);
            assert!(w[..8 - v.len()].iter().all(|&b| b == b'0'));
        }
        assert_eq!(load_padded(b""), None);
        assert_eq!(load_padded(b"123456789"), None);
    }

    #[test]
    fn digits8_matches_naive() {
        // v * 10001 puts every 4-digit value in both halves.
        for v in 0..10_000u32 {
            let n = v * 10_001;
            let d = digits8(n);

            let mut want = [0u8; 8];
            write_u64_fixed_back(&mut want, 8, n as u64, 8);
            assert_eq!(d, want, "{n}");
        }
        for n in [
            0u64,
            1,
            99_999_999,
            100_000_000,
            9_999_999_999_999_999,
            1_234_567_890_123_456,
        ] {
            let mut want = [0u8; 16];
            write_u64_fixed_back(&mut want, 16, n, 16);
            assert_eq!(ascii16(n), want);
        }
    }

    #[test]
    fn pairs_ascii_matches_the_table() {
        for v in 0..100u64 {
            for other in [0u64, 9, 10, 55, 99] {
                for lane in 0..4 {
                    let mut lanes = [other; 4];
                    lanes[lane] = v;
                    let packed = lanes.iter().rev().fold(0u64, |acc, &x| (acc << 16) | x);
                    let want = lanes
                        .iter()
                        .rev()
                        .fold(0u64, |acc, &x| (acc << 16) | pair_word(x as u32));
                    assert_eq!(pairs_ascii(packed), want, "{lanes:?}");
                }
            }
        }
    }

    #[test]
    fn digit_words_match_naive() {
        let check = |n: u32| {
            let (word, len) = digits_word(n);
            let mut naive = [0u8; 20];
            let start = write_u64_back(&mut naive, 20, n as u64);
            let text = &naive[start..];
            assert_eq!(len, text.len(), "{n}");
            assert_eq!(&word.to_le_bytes()[..len], text, "{n}");
            assert!(word.to_le_bytes()[len..].iter().all(|&b| b == 0), "{n}");
            for extra in 0..3 {
                let mut out = [0xAAu8; 12];
                store_word(&mut out[extra..extra + len], word);
                assert_eq!(&out[extra..extra + len], text, "{n}");
                assert!(out[..extra].iter().all(|&b| b == 0xAA));
                assert!(out[extra + len..].iter().all(|&b| b == 0xAA));
            }
        };
        for n in 0..100_000 {
            check(n);
        }
        for &p in &POW10_U64[..8] {
            let p = p as u32;
            for n in [p - 1, p, p + 1, p * 9, 99_999_999] {
                check(n);
            }
        }
        for v in 0..100 {
            let w = pair_word(v);
            assert_eq!(
                w.to_le_bytes()[..2],
                [b'0' + v as u8 / 10, b'0' + v as u8 % 10]
            );
        }
    }

    #[test]
    fn rounding_division() {
        for n in [
            0u64,
            4,
            5,
            14,
            15,
            149,
            150,
            999,
            u64::MAX,
            u64::MAX - 1,
            5_000_000_000_000_000_000,
        ] {
            for k in 1..=21u8 {
                let want = if k <= 19 {
                    let p = POW10_U64[k as usize];
                    n / p + (n % p >= p / 2) as u64
                } else {
                    0
                };
                assert_eq!(div_pow10_round(n, k), want, "{n} {k}");
                if let Ok(n32) = u32::try_from(n) {
                    for m in [n32, n32.wrapping_sub(1), n32 / 3, n32 / 7 * 5] {
                        let p = POW10_U64.get(k as usize).map_or(u64::MAX, |&p| p);
                        let want = if k <= 19 {
                            m as u64 / p + (m as u64 % p >= p / 2) as u64
                        } else {
                            0
                        };
                        assert_eq!(div_pow10_round_u32(m, k) as u64, want, "{m} {k}");
                    }
                    assert_eq!(div_pow10_round_u32(n32, k) as u64, want, "{n} {k}");
                }
            }
        }
    }

    #[test]
    fn reciprocal_division_matches_naive() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let check = |n: u32| {
            for k in 1..=11u8 {
                let want = match POW10_U64.get(k as usize) {
                    Some(&p) if k < 10 => (n as u64 / p + (n as u64 % p >= p / 2) as u64) as u32,
                    _ => 0,
                };
                assert_eq!(div_pow10_round_u32(n, k), want, "{n} {k}");
            }
        };
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            check(x as u32);
            check(x as u32 >> (i % 32));
        }
        for &p in &POW10_U64[..10] {
            let p = p as u32;
            for n in [
                p - 1,
                p,
                p + 1,
                (p / 2).wrapping_sub(1),
                p / 2,
                u32::MAX,
                u32::MAX - p / 2,
            ] {
                check(n);
            }
        }
    }

    #[test]
    fn small_copies() {
        let src: [u8; 64] = core::array::from_fn(|i| i as u8);
        for n in 0..=64 {
            let mut dst = [0xFFu8; 64];
            copy_small(&mut dst[..n], &src[..n]);
            assert_eq!(dst[..n], src[..n]);
            assert!(dst[n..].iter().all(|&b| b == 0xFF));
        }
    }

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
