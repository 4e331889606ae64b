//! Differential test of `Decimal` against `rust_decimal`, the reference for parsing,
//! rounding (half away from zero) and fixed-point printing.
//!
//! Values are `coefficient × 10^exponent` for awkward coefficients (0, ±1, ties, 995,
//! i64 extremes, values around 2^64 and 2^96, a few hundred pseudo-random ones) and every
//! exponent from −25 to 25, each written at many requested scales.

use fix_core::value::Decimal;
use rust_decimal::RoundingStrategy;

/// A small deterministic generator (splitmix64), so failures reproduce.
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

fn coefficients() -> Vec<i128> {
    let mut c: Vec<i128> = vec![
        0,
        1,
        -1,
        5,
        -5,
        15,
        -25,
        50,
        -50,
        995,
        -995,
        9,
        99_999,
        12_434_567,
        i64::MAX as i128,
        i64::MIN as i128,
        i64::MAX as i128 - 1,
        i64::MIN as i128 + 1,
        u64::MAX as i128,
        -(u64::MAX as i128),
        u64::MAX as i128 + 1,
        Decimal::MAX_MANTISSA,
        -Decimal::MAX_MANTISSA,
        Decimal::MAX_MANTISSA / 10 * 10 + 5 - 10,
        5 * 10i128.pow(27),
        -5 * 10i128.pow(20),
        5 * 10i128.pow(19) - 1,
    ];
    let mut rng = SplitMix(0x00F1_C0DE);
    for i in 0..300 {
        let v = rng.next();
        // Spread the magnitudes over every digit count up to 19, plus some wide ones.
        let m: i128 = match i % 4 {
            0 => (v % 10u64.pow((i / 4 % 19) as u32 + 1)) as i128,
            1 => v as i128,
            2 => ((v as i128) << 32 | rng.next() as i128 & 0xFFFF_FFFF) & Decimal::MAX_MANTISSA,
            _ => (v >> (v % 64)) as i128 * 10 + 5, // a tie at the last digit
        };
        c.push(if rng.next() & 1 == 0 { m } else { -m });
    }
    c
}

const SCALES: &[u32] = &[
    0, 1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18, 19, 20, 21, 24, 27, 28, 29, 30, 40,
];

/// rust_decimal's text for `r` rounded to `dp` places, or `None` where rust_decimal 1.43
/// itself panics: its `Display` with a precision pads into a fixed-size `ArrayString`
/// and fails with `CapacityError: insufficient capacity` on long outputs.
fn reference(r: rust_decimal::Decimal, dp: u32) -> Option<String> {
    let dpu = dp as usize;
    let rounded = r.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
    std::panic::catch_unwind(|| format!("{rounded:.dpu$}")).ok()
}

/// The fallback reference where rust_decimal cannot print: its rounded value at its own
/// scale (which `to_string` prints without panicking), padded with zeros to `dp` places.
fn padded(r: rust_decimal::Decimal, dp: u32) -> String {
    let r = r.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
    let mut s = r.to_string();
    if r.scale() == 0 && dp > 0 {
        s.push('.');
    }
    for _ in r.scale()..dp {
        s.push('0');
    }
    s
}

#[test]
fn differential_against_rust_decimal() {
    let mut buf = [0u8; 128];
    // rust_decimal panics on some wide precisions (see `reference`): keep the log quiet.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !info.to_string().contains("insufficient capacity") {
            default_hook(info);
        }
    }));
    let mut rust_panics = 0usize;
    let mut cases = 0usize;
    let mut rejected = 0usize;
    for &coef in &coefficients() {
        for exp in -25i32..=25 {
            let (mantissa, scale) = if exp < 0 {
                (Some(coef), (-exp) as u32)
            } else {
                (coef.checked_mul(10i128.pow(exp as u32)), 0)
            };
            let Some(mantissa) = mantissa else {
                rejected += 1;
                continue; // beyond i128: neither side can even be asked
            };
            let ours = Decimal::from_parts(mantissa, scale as u8);
            let theirs = rust_decimal::Decimal::try_from_i128_with_scale(mantissa, scale);
            let (d, r) = match (ours, theirs) {
                (Ok(d), Ok(r)) => (d, r),
                (Err(_), Err(_)) => {
                    rejected += 1;
                    continue;
                }
                (o, t) => panic!("range disagreement for {mantissa}e-{scale}: {o:?} vs {t:?}"),
            };

            // Own scale: same text as rust_decimal's Display.
            let n = d.write(&mut buf).unwrap();
            let own = std::str::from_utf8(&buf[..n]).unwrap();
            assert_eq!(own, r.to_string(), "own scale of {mantissa}e-{scale}");

            // Parsing that text gives back the same mantissa and scale as rust_decimal.
            let p = Decimal::parse(own.as_bytes()).unwrap();
            let rp = rust_decimal::Decimal::from_str_exact(own).unwrap();
            assert_eq!(
                (p.mantissa(), p.scale() as u32),
                (rp.mantissa(), rp.scale()),
                "parse {own}"
            );
            assert_eq!(p, d);

            for &dp in SCALES {
                let n = d.write_scaled(dp as u8, &mut buf).unwrap();
                let got = std::str::from_utf8(&buf[..n]).unwrap();
                match reference(r, dp) {
                    Some(want) => assert_eq!(got, want, "{mantissa}e-{scale} at dp {dp}"),
                    None => {
                        rust_panics += 1;
                        assert_eq!(got, padded(r, dp), "{mantissa}e-{scale} at dp {dp}");
                    }
                }
                assert!(!got.starts_with("-") || got.bytes().any(|b| (b'1'..=b'9').contains(&b)));

                let rounded = d.round_dp(dp.min(255) as u8);
                let rr = r.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
                assert_eq!(
                    rounded.mantissa(),
                    rr.mantissa(),
                    "round_dp {mantissa}e-{scale} {dp}"
                );
                assert_eq!(
                    rounded.scale() as u32,
                    rr.scale(),
                    "round_dp {mantissa}e-{scale} {dp}"
                );
                cases += 1;
            }
        }
    }
    assert!(
        cases - rust_panics >= 100_000,
        "only {} direct cases",
        cases - rust_panics
    );
    assert!(rejected > 0, "the out-of-range path was never exercised");
    let _ = std::panic::take_hook();
    println!(
        "{cases} differential cases, {rejected} out-of-range agreements, \
         {rust_panics} where rust_decimal's own formatting panics (compared with its rounded to_string, zero padded)"
    );
}

#[test]
fn parse_agrees_on_wire_strings() {
    let ok = [
        "0",
        "-0",
        "00023.23",
        "23.",
        ".5",
        "-.5",
        "187.2500",
        "-124.3456",
        "0.0000000000000000000000000001",
        "79228162514264337593543950335",
        "-79228162514264337593543950335",
        "7.9228162514264337593543950335",
        "1.0000000000000000000000000000",
        "000000000000000000000000000000000000000001.5",
        "18446744073709551616",
        "9223372036854775808",
        "-9223372036854775808.000",
    ];
    for s in ok {
        let d = Decimal::parse(s.as_bytes()).unwrap_or_else(|e| panic!("{s}: {e}"));
        let r = rust_decimal::Decimal::from_str_exact(s).unwrap();
        assert_eq!(
            (d.mantissa(), d.scale() as u32),
            (r.mantissa(), r.scale()),
            "{s}"
        );
    }
    // Beyond the range: both refuse (rust_decimal's from_str_exact does not round).
    for s in [
        "79228162514264337593543950336",
        "0.00000000000000000000000000001",
        "1.00000000000000000000000000000",
        "123456789012345678901234567890",
    ] {
        assert!(Decimal::parse(s.as_bytes()).is_err(), "{s}");
        assert!(rust_decimal::Decimal::from_str_exact(s).is_err(), "{s}");
    }
    // FIX is stricter than rust_decimal here: no '+', no '_' separators, no exponent.
    for s in [
        "+1", "1_000", "1e5", "", "-", ".", "-.", "1.2.3", " 1", "1 ",
    ] {
        assert!(Decimal::parse(s.as_bytes()).is_err(), "{s}");
    }
}

#[cfg(feature = "rust_decimal")]
#[test]
fn conversions_are_exact() {
    for &coef in &coefficients() {
        for scale in 0..=28u8 {
            let d = Decimal::from_parts(coef, scale).unwrap();
            let r = rust_decimal::Decimal::from(d);
            assert_eq!((r.mantissa(), r.scale()), (coef, scale as u32));
            let back = Decimal::from(r);
            assert_eq!((back.mantissa(), back.scale()), (coef, scale));
        }
    }
}

/// Every small mantissa (the shapes of the SWAR hot path and its edges: signs, 1 to 8
/// output bytes, padding up to 17 zeros, rounding carries into a new digit) against
/// rust_decimal.
#[test]
fn small_mantissas_exhaustive() {
    let mut buf = [0u8; 64];
    let mut edges: Vec<i128> = (-1000..=1000).collect();
    for base in [
        9_999_995i128,
        9_999_999,
        10_000_000,
        99_999_995,
        4_294_967_295,
        4_294_967_296,
    ] {
        for d in -6..=6 {
            edges.push(base + d);
            edges.push(-(base + d));
        }
    }
    let mut cases = 0;
    for &m in &edges {
        for scale in 0..=9u8 {
            let d = Decimal::from_parts(m, scale).unwrap();
            let r = rust_decimal::Decimal::from_i128_with_scale(m, scale as u32);
            for dp in 0..=17u32 {
                let n = d.write_scaled(dp as u8, &mut buf).unwrap();
                let want = reference(r, dp).unwrap();
                assert_eq!(
                    std::str::from_utf8(&buf[..n]).unwrap(),
                    want,
                    "{m}e-{scale} at {dp}"
                );
                cases += 1;
            }
        }
    }
    assert!(cases > 300_000);
}
