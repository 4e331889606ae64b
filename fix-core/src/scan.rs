//! Byte scanning: SOH bitmasks over 64-byte blocks and the checksum.
//!
//! All of fix-core's `unsafe` lives in this module, and only as SIMD intrinsics over
//! fixed-size arrays (`&[u8; 64]`, `&[u8; 16]`): the type of the argument is the bound
//! check, so no raw pointer ever reaches past a slice the caller proved long enough.
//! Every vector routine has a scalar twin (`*_scalar`) that tests compare it against
//! on every byte value and position; building with `--cfg fix_core_force_scalar`
//! uses the scalar twins everywhere.

/// The FIX field delimiter, SOH (0x01).
pub const SOH: u8 = 0x01;

/// Which implementation this build compiled: `"avx2"`, `"sse2"` or `"scalar"` (the
/// SIMD paths are chosen at compile time, so a test reports which one it checked).
#[cfg(test)]
const PATH: &str = if cfg!(all(target_arch = "x86_64", not(fix_core_force_scalar))) {
    if cfg!(target_feature = "avx2") {
        "avx2"
    } else {
        "sse2"
    }
} else {
    "scalar"
};

/// Bit `i` of the result is set when `block[i]` is SOH.
#[inline]
pub(crate) fn soh_mask(block: &[u8; 64]) -> u64 {
    #[cfg(all(target_arch = "x86_64", not(fix_core_force_scalar)))]
    {
        x86::soh_mask(block)
    }
    #[cfg(not(all(target_arch = "x86_64", not(fix_core_force_scalar))))]
    {
        soh_mask_scalar(block)
    }
}

/// Portable [`soh_mask`].
#[cfg(any(test, not(all(target_arch = "x86_64", not(fix_core_force_scalar)))))]
#[inline]
pub(crate) fn soh_mask_scalar(block: &[u8; 64]) -> u64 {
    let mut mask = 0u64;
    for (i, &b) in block.iter().enumerate() {
        mask |= u64::from(b == SOH) << i;
    }
    mask
}

/// Nonzero when one of the bytes of `w` is SOH. Exact as a test for "any": a borrow can
/// only spread upwards from a byte that really is SOH.
#[inline(always)]
pub(crate) fn soh_word(w: u64) -> u64 {
    const ONES: u64 = u64::from_le_bytes([SOH; 8]);
    let x = w ^ ONES;
    x.wrapping_sub(0x0101_0101_0101_0101) & !x & 0x8080_8080_8080_8080
}

/// True when `bytes` holds SOH: 64-byte SIMD blocks for long values, 8-byte words for
/// short ones (the last block or word overlaps the one before rather than copying the
/// tail), and no call into `memchr`, which costs more than a short value's scan.
#[inline]
pub(crate) fn contains_soh(bytes: &[u8]) -> bool {
    if let Some(last) = bytes.last_chunk::<64>() {
        let (blocks, _) = bytes.as_chunks::<64>();
        let any = blocks
            .iter()
            .fold(soh_mask(last), |any, b| any | soh_mask(b));
        return any != 0;
    }
    if let (Some(first), Some(last), true) = (
        bytes.first_chunk::<8>(),
        bytes.last_chunk::<8>(),
        bytes.len() <= 16,
    ) {
        // Identifiers and prices: two overlapping words, no loop.
        let w = soh_word(u64::from_le_bytes(*first)) | soh_word(u64::from_le_bytes(*last));
        return w != 0;
    }
    if let Some(last) = bytes.last_chunk::<8>() {
        let (words, _) = bytes.as_chunks::<8>();
        let any = words
            .iter()
            .fold(soh_word(u64::from_le_bytes(*last)), |any, w| {
                any | soh_word(u64::from_le_bytes(*w))
            });
        return any != 0;
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let w = u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32;
        return soh_word(w) != 0;
    }
    // 0 to 3 bytes: first, middle and last cover them all.
    match bytes {
        [] => false,
        [.., last] => bytes[0] == SOH || bytes[bytes.len() / 2] == SOH || *last == SOH,
    }
}

/// The FIX CheckSum of `bytes`: their sum modulo 256.
#[inline]
pub fn checksum(bytes: &[u8]) -> u8 {
    #[cfg(all(target_arch = "x86_64", not(fix_core_force_scalar)))]
    {
        x86::checksum(bytes)
    }
    #[cfg(not(all(target_arch = "x86_64", not(fix_core_force_scalar))))]
    {
        checksum_scalar(bytes)
    }
}

/// Portable [`checksum`].
#[inline]
pub(crate) fn checksum_scalar(bytes: &[u8]) -> u8 {
    bytes.iter().fold(0u8, |sum, &b| sum.wrapping_add(b))
}

/// Which bytes of a 16-byte block are digits, `.` and `-`: bit `i` of each mask
/// stands for `block[i]`. The decimal check of validation reads a value's bytes
/// this way, whatever its length up to sixteen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct NumberMasks {
    pub(crate) digits: u16,
    pub(crate) dots: u16,
    pub(crate) minus: u16,
}

/// The [`NumberMasks`] of `block`.
#[inline(always)]
pub(crate) fn number_masks(block: &[u8; 16]) -> NumberMasks {
    #[cfg(all(target_arch = "x86_64", not(fix_core_force_scalar)))]
    {
        x86::number_masks(block)
    }
    #[cfg(not(all(target_arch = "x86_64", not(fix_core_force_scalar))))]
    {
        number_masks_scalar(block)
    }
}

/// Portable [`number_masks`].
#[cfg(any(test, not(all(target_arch = "x86_64", not(fix_core_force_scalar)))))]
#[inline]
pub(crate) fn number_masks_scalar(block: &[u8; 16]) -> NumberMasks {
    let mask = |f: fn(u8) -> bool| {
        block
            .iter()
            .enumerate()
            .fold(0u16, |m, (i, &b)| m | u16::from(f(b)) << i)
    };
    NumberMasks {
        digits: mask(|b| b.is_ascii_digit()),
        dots: mask(|b| b == b'.'),
        minus: mask(|b| b == b'-'),
    }
}

#[cfg(all(target_arch = "x86_64", not(fix_core_force_scalar)))]
mod x86 {
    //! SSE2 (the x86_64 baseline, so no run-time detection is needed) and, when the
    //! build enables it, AVX2.

    use core::arch::x86_64::*;

    #[cfg(not(target_feature = "avx2"))]
    #[inline]
    pub(super) fn soh_mask(block: &[u8; 64]) -> u64 {
        // SAFETY: SSE2 is part of the x86_64 baseline. The four unaligned 16-byte
        // loads read offsets 0..16, 16..32, 32..48 and 48..64 of a 64-byte array.
        unsafe {
            let p = block.as_ptr().cast::<__m128i>();
            let soh = _mm_set1_epi8(super::SOH as i8);
            let m = |i: usize| {
                let v = _mm_loadu_si128(p.add(i));
                u64::from(_mm_movemask_epi8(_mm_cmpeq_epi8(v, soh)) as u16)
            };
            m(0) | (m(1) << 16) | (m(2) << 32) | (m(3) << 48)
        }
    }

    #[cfg(target_feature = "avx2")]
    #[inline]
    pub(super) fn soh_mask(block: &[u8; 64]) -> u64 {
        // SAFETY: this function is compiled only when the build enables AVX2. The two
        // unaligned 32-byte loads read offsets 0..32 and 32..64 of a 64-byte array.
        unsafe {
            let p = block.as_ptr().cast::<__m256i>();
            let soh = _mm256_set1_epi8(super::SOH as i8);
            let m = |i: usize| {
                let v = _mm256_loadu_si256(p.add(i));
                u64::from(_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, soh)) as u32)
            };
            m(0) | (m(1) << 32)
        }
    }

    #[inline(always)]
    pub(super) fn number_masks(block: &[u8; 16]) -> super::NumberMasks {
        // SAFETY: SSE2 is part of the x86_64 baseline; the one unaligned load reads
        // the 16 bytes of a 16-byte array.
        unsafe {
            let v = _mm_loadu_si128(block.as_ptr().cast::<__m128i>());
            // A digit is a byte whose distance above `0` is at most 9.
            let d = _mm_sub_epi8(v, _mm_set1_epi8(b'0' as i8));
            let digits = _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(9)), d);
            let dots = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'.' as i8));
            let minus = _mm_cmpeq_epi8(v, _mm_set1_epi8(b'-' as i8));
            super::NumberMasks {
                digits: _mm_movemask_epi8(digits) as u16,
                dots: _mm_movemask_epi8(dots) as u16,
                minus: _mm_movemask_epi8(minus) as u16,
            }
        }
    }

    /// `[0; 16]` then `[0xFF; 16]`: the 16 bytes at offset `k` keep the last `k` bytes
    /// of a 16-byte load.
    const TAIL_MASKS: [u8; 32] = {
        let mut t = [0u8; 32];
        let mut i = 16;
        while i < 32 {
            t[i] = 0xFF;
            i += 1;
        }
        t
    };

    #[inline]
    pub(super) fn checksum(bytes: &[u8]) -> u8 {
        let (chunks, tail) = bytes.as_chunks::<16>();
        let last = match bytes.last_chunk::<16>() {
            // A short tail: the last 16 bytes (overlapping the last chunk), masked to
            // the tail's bytes, summed as one more chunk.
            Some(last) if !tail.is_empty() => last,
            _ => return checksum_chunks(chunks, None).wrapping_add(super::checksum_scalar(tail)),
        };
        let mask: &[u8; 16] = TAIL_MASKS[tail.len()..tail.len() + 16]
            .try_into()
            .expect("16 bytes");
        checksum_chunks(chunks, Some((last, mask)))
    }

    /// The byte sum of `chunks`, plus the bytes of `last` that `mask` keeps.
    #[inline]
    fn checksum_chunks(chunks: &[[u8; 16]], last: Option<(&[u8; 16], &[u8; 16])>) -> u8 {
        // SAFETY: SSE2 is part of the x86_64 baseline; each load reads one 16-byte
        // array. `_mm_sad_epu8` against zero sums each 8-byte half into a 64-bit lane,
        // which cannot overflow for any slice that fits in memory.
        let wide = unsafe {
            let zero = _mm_setzero_si128();
            let sad = |chunk: &[u8; 16]| {
                _mm_sad_epu8(_mm_loadu_si128(chunk.as_ptr().cast::<__m128i>()), zero)
            };
            let mut acc = _mm_setzero_si128();
            // Four chunks per step: four independent sums, one dependent add.
            let (fours, rest) = chunks.as_chunks::<4>();
            for [a, b, c, d] in fours {
                let ab = _mm_add_epi64(sad(a), sad(b));
                let cd = _mm_add_epi64(sad(c), sad(d));
                acc = _mm_add_epi64(acc, _mm_add_epi64(ab, cd));
            }
            for chunk in rest {
                acc = _mm_add_epi64(acc, sad(chunk));
            }
            if let Some((last, mask)) = last {
                let v = _mm_loadu_si128(last.as_ptr().cast::<__m128i>());
                let m = _mm_loadu_si128(mask.as_ptr().cast::<__m128i>());
                acc = _mm_add_epi64(acc, _mm_sad_epu8(_mm_and_si128(v, m), zero));
            }
            let hi = _mm_unpackhi_epi64(acc, acc);
            _mm_cvtsi128_si64(_mm_add_epi64(acc, hi)) as u64
        };
        wide as u8
    }
}

/// The SOH mask of the (up to) 64 bytes at `base`; bits past the end are clear.
#[inline]
pub(crate) fn block_mask(bytes: &[u8], base: usize) -> u64 {
    if let Some(block) = bytes.get(base..base + 64) {
        return soh_mask(block.try_into().expect("64-byte slice"));
    }
    if bytes.len() >= 64 {
        // The last block is short: scan the final 64 bytes, which overlap the
        // previous block, and drop the overlap rather than copying the tail.
        let start = bytes.len() - 64;
        let block = bytes[start..].try_into().expect("64-byte slice");
        return soh_mask(block) >> (base - start);
    }
    let mut block = [0u8; 64];
    let tail = bytes.get(base..).unwrap_or_default();
    block[..tail.len()].copy_from_slice(tail);
    soh_mask(&block)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Says which path the comparisons below checked, and fails when CI asked for
    /// another one (`FIX_CORE_EXPECT_SIMD=avx2|sse2|scalar`): a build flag that did
    /// not take would otherwise test the same path twice.
    #[test]
    fn the_path_under_test_is_the_one_asked_for() {
        std::eprintln!("fix-core scan path: {PATH}");
        if let Some(expected) = option_env!("FIX_CORE_EXPECT_SIMD") {
            assert_eq!(PATH, expected);
        }
    }

    #[test]
    fn soh_mask_matches_scalar_for_every_byte_at_every_position() {
        for value in 0..=255u8 {
            for pos in 0..64 {
                let mut block = [SOH.wrapping_add(1); 64];
                block[pos] = value;
                assert_eq!(
                    soh_mask(&block),
                    soh_mask_scalar(&block),
                    "{value} at {pos}"
                );
                let mut block = [SOH; 64];
                block[pos] = value;
                assert_eq!(
                    soh_mask(&block),
                    soh_mask_scalar(&block),
                    "{value} at {pos}"
                );
            }
        }
    }

    #[test]
    fn checksum_matches_scalar_for_every_length_and_alignment() {
        let data: [u8; 300] = core::array::from_fn(|i| (i * 131 + 7) as u8);
        for start in 0..17 {
            for end in start..data.len() {
                let s = &data[start..end];
                assert_eq!(checksum(s), checksum_scalar(s), "{start}..{end}");
            }
        }
        assert_eq!(checksum(&[0xff; 4096]), checksum_scalar(&[0xff; 4096]));
    }

    #[test]
    fn contains_soh_finds_every_soh_for_every_length_and_position() {
        for len in 0..200usize {
            let clean: [u8; 200] = core::array::from_fn(|i| (i * 37 + 2) as u8 | 0x02);
            assert!(!contains_soh(&clean[..len]), "len {len}");
            for pos in 0..len {
                for soh_like in [SOH, 0x00, 0x02, 0x81, 0xFF] {
                    let mut v = clean;
                    v[pos] = soh_like;
                    // Neighbours that could confuse a borrow: 0x00 and 0x02 beside it.
                    if pos > 0 {
                        v[pos - 1] = 0x00;
                    }
                    assert_eq!(
                        contains_soh(&v[..len]),
                        soh_like == SOH,
                        "len {len} pos {pos} byte {soh_like}"
                    );
                }
            }
        }
        // Every byte value in every lane of a word.
        for value in 0..=255u8 {
            for lane in 0..8 {
                let mut w = [0x02u8; 8];
                w[lane] = value;
                assert_eq!(
                    soh_word(u64::from_le_bytes(w)) != 0,
                    value == SOH,
                    "{value} {lane}"
                );
                let mut w = [0x00u8; 8];
                w[lane] = value;
                assert_eq!(
                    soh_word(u64::from_le_bytes(w)) != 0,
                    value == SOH,
                    "{value} {lane}"
                );
            }
        }
    }

    #[test]
    fn number_masks_match_scalar_for_every_byte_at_every_position() {
        for value in 0..=255u8 {
            for pos in 0..16 {
                for fill in [b'0', b'.', b'-', b'a', 0x80] {
                    let mut block = [fill; 16];
                    block[pos] = value;
                    assert_eq!(
                        number_masks(&block),
                        number_masks_scalar(&block),
                        "{value} at {pos} in {fill}"
                    );
                }
            }
        }
    }

    #[test]
    fn block_mask_finds_every_soh_for_every_length_and_base() {
        let all: [u8; 200] =
            core::array::from_fn(|i| if i % 7 == 3 || i % 11 == 0 { SOH } else { b'a' });
        for len in 0..200usize {
            let bytes = &all[..len];
            for base in (0..len).step_by(64) {
                let expected = (base..len.min(base + 64))
                    .filter(|&i| bytes[i] == SOH)
                    .fold(0u64, |m, i| m | 1 << (i - base));
                assert_eq!(block_mask(bytes, base), expected, "len {len} base {base}");
            }
        }
    }
}
