//! `Decimal`'s arithmetic, ordering, equality, hashing, range limits and rounding
//! against `rust_decimal` and against a naive exact reference (decimal digit vectors,
//! no limit on their length).
//!
//! The arithmetic is exact or `None`: where `Decimal` returns a value it is the exact
//! result and `rust_decimal` agrees; where it returns `None` the exact result does not
//! fit 96 bits at any scale up to 28, and `rust_decimal` either fails too or rounds
//! (its result is not the exact value).

use std::cmp::Ordering;
use std::hash::{BuildHasher, BuildHasherDefault, DefaultHasher};

use fix_core::value::{Decimal, DecimalError};
use proptest::prelude::*;
use rust_decimal::RoundingStrategy;

/// An exact decimal `±digits × 10^-scale`, digits least significant first.
#[derive(Clone, Debug)]
struct Exact {
    neg: bool,
    digits: Vec<u8>,
    scale: u32,
}

/// `r` as our Decimal, through its parts: the tests run without fix-core's
/// `rust_decimal` feature too (CI's scalar and AVX2 steps), which the `From`
/// conversion needs.
fn from_rd(r: rust_decimal::Decimal) -> Decimal {
    Decimal::from_parts(r.mantissa(), r.scale() as u8).unwrap()
}

fn digits_of(mut m: u128) -> Vec<u8> {
    let mut d = Vec::new();
    while m > 0 {
        d.push((m % 10) as u8);
        m /= 10;
    }
    d
}

fn trim(mut d: Vec<u8>) -> Vec<u8> {
    while d.last() == Some(&0) {
        d.pop();
    }
    d
}

fn cmp_digits(a: &[u8], b: &[u8]) -> Ordering {
    let (a, b) = (trim(a.to_vec()), trim(b.to_vec()));
    a.len()
        .cmp(&b.len())
        .then_with(|| a.iter().rev().cmp(b.iter().rev()))
}

fn add_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut carry = 0;
    for i in 0..a.len().max(b.len()) {
        let s = a.get(i).copied().unwrap_or(0) + b.get(i).copied().unwrap_or(0) + carry;
        out.push(s % 10);
        carry = s / 10;
    }
    out.push(carry);
    trim(out)
}

/// `a - b` for `a >= b`.
fn sub_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut borrow = 0i8;
    for (i, &x) in a.iter().enumerate() {
        let mut s = x as i8 - b.get(i).copied().unwrap_or(0) as i8 - borrow;
        borrow = (s < 0) as i8;
        if s < 0 {
            s += 10;
        }
        out.push(s as u8);
    }
    trim(out)
}

fn mul_digits(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut acc = vec![0u32; a.len() + b.len() + 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            acc[i + j] += x as u32 * y as u32;
        }
    }
    let mut out = Vec::new();
    let mut carry = 0;
    for v in acc {
        let s = v + carry;
        out.push((s % 10) as u8);
        carry = s / 10;
    }
    while carry > 0 {
        out.push((carry % 10) as u8);
        carry /= 10;
    }
    trim(out)
}

impl Exact {
    fn of(d: Decimal) -> Exact {
        Exact {
            neg: d.mantissa() < 0,
            digits: digits_of(d.mantissa().unsigned_abs()),
            scale: d.scale() as u32,
        }
    }

    fn of_rust(r: rust_decimal::Decimal) -> Exact {
        Exact {
            neg: r.mantissa() < 0,
            digits: digits_of(r.mantissa().unsigned_abs()),
            scale: r.scale(),
        }
    }

    /// The digits at a higher scale.
    fn at(&self, scale: u32) -> Vec<u8> {
        let mut d = vec![0; (scale - self.scale) as usize];
        d.extend_from_slice(&self.digits);
        trim(d)
    }

    fn add(&self, o: &Exact) -> Exact {
        let scale = self.scale.max(o.scale);
        let (a, b) = (self.at(scale), o.at(scale));
        let (neg, digits) = if self.neg == o.neg {
            (self.neg, add_digits(&a, &b))
        } else if cmp_digits(&a, &b) != Ordering::Less {
            (self.neg, sub_digits(&a, &b))
        } else {
            (o.neg, sub_digits(&b, &a))
        };
        Exact { neg, digits, scale }
    }

    fn neg(&self) -> Exact {
        Exact {
            neg: !self.neg,
            ..self.clone()
        }
    }

    fn mul(&self, o: &Exact) -> Exact {
        Exact {
            neg: self.neg != o.neg,
            digits: mul_digits(&self.digits, &o.digits),
            scale: self.scale + o.scale,
        }
    }

    /// Whether both are the same number.
    fn same_value(&self, o: &Exact) -> bool {
        let scale = self.scale.max(o.scale);
        let (a, b) = (self.at(scale), o.at(scale));
        if a.is_empty() && b.is_empty() {
            return true;
        }
        self.neg == o.neg && cmp_digits(&a, &b) == Ordering::Equal
    }

    /// What `Decimal` must return: the value at its own scale when it fits, else at the
    /// largest smaller scale where it is exact and fits; `None` if there is none.
    fn expected(&self) -> Option<(i128, u8)> {
        let mut digits = self.digits.clone();
        let mut scale = self.scale;
        loop {
            let mag = digits
                .iter()
                .rev()
                .try_fold(0u128, |m, &d| m.checked_mul(10)?.checked_add(d as u128))
                .filter(|&m| m <= Decimal::MAX_MANTISSA as u128);
            match mag {
                Some(m) if scale <= 28 => {
                    let m = m as i128;
                    return Some((if self.neg { -m } else { m }, scale as u8));
                }
                _ if scale == 0 || digits.first().is_some_and(|&d| d != 0) => return None,
                _ => {
                    if !digits.is_empty() {
                        digits.remove(0);
                    }
                    scale -= 1;
                }
            }
        }
    }
}

fn rd(d: Decimal) -> rust_decimal::Decimal {
    rust_decimal::Decimal::from_i128_with_scale(d.mantissa(), d.scale() as u32)
}

fn repr(d: Option<Decimal>) -> Option<(i128, u8)> {
    d.map(|d| (d.mantissa(), d.scale()))
}

fn hash_of(d: Decimal) -> u64 {
    BuildHasherDefault::<DefaultHasher>::default().hash_one(d)
}

/// One operation checked three ways; returns whether ours succeeded.
fn check_op(
    name: &str,
    a: Decimal,
    b: Decimal,
    ours: Option<Decimal>,
    exact: Exact,
    theirs: Option<rust_decimal::Decimal>,
) -> bool {
    let want = exact.expected();
    assert_eq!(repr(ours), want, "{a} {name} {b} (exact {exact:?})");
    match (ours, theirs) {
        (Some(o), Some(t)) => {
            assert_eq!(rd(o), t, "{a} {name} {b}: rust_decimal's value");
            // At the natural scale (no reduction needed), the same representation too
            // (rust_decimal returns the other operand as it is when one is zero, and a
            // zero product at scale 0).
            if o.scale() as u32 == exact.scale && !(o.is_zero() || a.is_zero() || b.is_zero()) {
                assert_eq!(
                    o.mantissa(),
                    t.mantissa(),
                    "{a} {name} {b}: rust_decimal's mantissa"
                );
                assert_eq!(
                    o.scale() as u32,
                    t.scale(),
                    "{a} {name} {b}: rust_decimal's scale"
                );
            }
            assert_eq!(from_rd(t), o, "{a} {name} {b}: rust_decimal's value");
        }
        (Some(o), None) => panic!("{a} {name} {b}: ours {o}, rust_decimal fails"),
        (None, Some(t)) => assert!(
            !Exact::of_rust(t).same_value(&exact),
            "{a} {name} {b}: None, but rust_decimal has the exact {t}"
        ),
        (None, None) => {}
    }
    ours.is_some()
}

fn check_pair(a: Decimal, b: Decimal) -> [bool; 3] {
    let (ra, rb) = (rd(a), rd(b));
    let (ea, eb) = (Exact::of(a), Exact::of(b));
    // Order, equality and hashing by value.
    assert_eq!(a.cmp(&b), ra.cmp(&rb), "{a} cmp {b}");
    assert_eq!(a.partial_cmp(&b), Some(ra.cmp(&rb)), "{a} cmp {b}");
    assert_eq!(a == b, ra == rb, "{a} == {b}");
    assert_eq!(a == b, ea.same_value(&eb), "{a} == {b}");
    if a == b {
        assert_eq!(hash_of(a), hash_of(b), "{a} and {b} hash differently");
    }
    [
        check_op("+", a, b, a.checked_add(b), ea.add(&eb), ra.checked_add(rb)),
        check_op(
            "-",
            a,
            b,
            a.checked_sub(b),
            ea.add(&eb.neg()),
            ra.checked_sub(rb),
        ),
        check_op("*", a, b, a.checked_mul(b), ea.mul(&eb), ra.checked_mul(rb)),
    ]
}

const MAX: i128 = Decimal::MAX_MANTISSA;

/// Awkward values: zero, ones, ties, powers of ten and their neighbours, the 64-bit and
/// 96-bit edges, values with trailing zeros, at scales 0, 1, 2, 8, 18, 27 and 28.
fn awkward() -> Vec<Decimal> {
    let mut mantissas: Vec<i128> = vec![
        0,
        1,
        5,
        10,
        15,
        100,
        995,
        1_872_500,
        i64::MAX as i128,
        u64::MAX as i128,
        u64::MAX as i128 + 1,
        10i128.pow(19),
        10i128.pow(27),
        10i128.pow(28),
        MAX / 2,
        MAX / 10,
        MAX / 10 + 1,
        MAX - 1,
        MAX,
        7_922_816_251_426_433_759_354_395_033,
        12_345_678_901_234_567_890_000,
    ];
    for m in mantissas.clone() {
        mantissas.push(-m);
    }
    let mut out = Vec::new();
    for &m in &mantissas {
        for s in [0u8, 1, 2, 8, 18, 27, 28] {
            out.push(Decimal::from_parts(m, s).unwrap());
        }
    }
    out
}

#[test]
fn arithmetic_order_and_hash_on_awkward_pairs() {
    let values = awkward();
    let mut counts = [0usize; 3];
    let mut nones = [0usize; 3];
    for &a in &values {
        for &b in &values {
            for (i, ok) in check_pair(a, b).into_iter().enumerate() {
                counts[i] += 1;
                nones[i] += !ok as usize;
            }
        }
    }
    // Both outcomes are exercised for every operation.
    for i in 0..3 {
        assert!(
            nones[i] > 100 && nones[i] < counts[i] - 100,
            "{i}: {nones:?} of {counts:?}"
        );
    }
}

#[test]
fn equal_values_at_other_scales() {
    for a in awkward() {
        for dp in 0..=28 {
            let Ok(b) = a.rescale(dp) else { continue };
            if dp < a.scale() && b.round_dp(a.scale()) != a {
                continue; // rounded: a different number
            }
            assert_eq!(a, b, "{a} vs {b}");
            assert_eq!(a.cmp(&b), Ordering::Equal);
            assert_eq!(hash_of(a), hash_of(b), "{a} vs {b}");
            assert_eq!(rd(a), rd(b));
            check_pair(a, b);
        }
    }
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    assert_eq!(d("1.50"), d("1.5"));
    assert_eq!(hash_of(d("1.50")), hash_of(d("1.5")));
    assert_eq!(d("-0.00"), d("0"));
    assert_eq!(hash_of(d("-0.00")), hash_of(d("0")));
    assert_ne!(d("1.5"), d("-1.5"));
    assert_ne!(d("1.5"), d("0.15"));
    // The representation still differs, and the wire gets it back.
    assert_ne!(d("1.50").scale(), d("1.5").scale());
    assert_eq!(d("1.50").to_string(), "1.50");
}

/// `2^96 − 1` at every scale parses (and round-trips), on both sides of the sign,
/// with leading zeros too; one more is `Overflow`, never rounded.
#[test]
fn range_limits_at_every_scale() {
    let max = "79228162514264337593543950335";
    let past = "79228162514264337593543950336";
    for scale in 0..=28usize {
        for neg in ["", "-"] {
            let put = |digits: &str| {
                let (int, frac) = digits.split_at(digits.len() - scale);
                let int = if int.is_empty() { "0" } else { int };
                if scale == 0 {
                    format!("{neg}{int}")
                } else {
                    format!("{neg}{int}.{frac}")
                }
            };
            let text = put(max);
            let d = Decimal::parse(text.as_bytes()).unwrap();
            assert_eq!(d.mantissa(), if neg.is_empty() { MAX } else { -MAX });
            assert_eq!(d.scale() as usize, scale);
            assert_eq!(d.to_string(), text);
            assert_eq!(rd(d), rust_decimal::Decimal::from_str_exact(&text).unwrap());
            let padded = format!("{neg}000{}", &text[neg.len()..]);
            assert_eq!(
                Decimal::parse(padded.as_bytes()).unwrap().mantissa(),
                d.mantissa()
            );
            assert_eq!(
                Decimal::parse(put(past).as_bytes()),
                Err(DecimalError::Overflow),
                "{}",
                put(past)
            );
            assert!(rust_decimal::Decimal::from_str_exact(&put(past)).is_err());
            // A 30th digit overflows too, whatever it is.
            assert_eq!(
                Decimal::parse(put(&format!("{max}0")).as_bytes()),
                Err(DecimalError::Overflow)
            );
            // The arithmetic's edge: one unit more is None.
            let unit =
                Decimal::from_parts(if neg.is_empty() { 1 } else { -1 }, scale as u8).unwrap();
            assert_eq!(d.checked_add(unit), None);
            assert_eq!(
                repr(d.checked_sub(unit)),
                Some((d.mantissa() - unit.mantissa(), scale as u8))
            );
        }
    }
    assert_eq!(Decimal::from_parts(MAX + 1, 0), Err(DecimalError::Overflow));
    assert_eq!(
        Decimal::from_parts(-MAX - 1, 28),
        Err(DecimalError::Overflow)
    );
}

#[test]
fn debug_shows_the_number_and_display_the_wire_digits() {
    let d = Decimal::parse(b"151.25").unwrap();
    assert_eq!(format!("{d:?}"), "Decimal(151.25)");
    assert_eq!(
        format!("{:?}", Decimal::parse(b"-0.500").unwrap()),
        "Decimal(-0.500)"
    );
    assert_eq!(format!("{:?}", Some(Decimal::ZERO)), "Some(Decimal(0))");
    assert_eq!(Decimal::parse(b"187.2500").unwrap().to_string(), "187.2500");
}

#[test]
fn sign_and_magnitude_helpers() {
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    for s in [
        "0",
        "-0.00",
        "1.5",
        "-1.5",
        "-79228162514264337593543950335",
    ] {
        let v = d(s);
        let r = rd(v);
        assert_eq!(v.is_zero(), r.is_zero(), "{s}");
        assert_eq!(v.is_negative(), r.is_sign_negative() && !r.is_zero(), "{s}");
        assert_eq!(rd(v.abs()), r.abs(), "{s}");
        assert_eq!(rd(-v), -r, "{s}");
        assert_eq!((-v).scale(), v.scale());
        assert!(!(-v).is_negative() || !v.is_negative());
        assert_eq!(-(-v), v);
    }
    assert!(!(-d("0.00")).is_negative());
    assert_eq!((-d("0.00")).to_string(), "0.00");
}

/// `rescale` against `rust_decimal`'s `round_dp_with_strategy(MidpointAwayFromZero)`
/// going down, and against the exact product going up.
fn check_rescale(d: Decimal, dp: u8) {
    let got = d.rescale(dp);
    if dp > 28 {
        assert_eq!(got, Err(DecimalError::ScaleTooLarge));
        return;
    }
    if dp <= d.scale() {
        let want = rd(d).round_dp_with_strategy(dp as u32, RoundingStrategy::MidpointAwayFromZero);
        let got = got.unwrap();
        assert_eq!(
            (got.mantissa(), got.scale() as u32),
            (want.mantissa(), want.scale()),
            "{d} to {dp}"
        );
        assert!(
            !got.is_negative() || !got.is_zero(),
            "negative zero from {d} at {dp}"
        );
        assert_eq!(repr(Some(d.round_dp(dp))), repr(Some(got)));
    } else {
        let want = d
            .mantissa()
            .checked_mul(10i128.pow((dp - d.scale()) as u32))
            .filter(|m| m.unsigned_abs() <= MAX as u128);
        match (got, want) {
            (Ok(g), Some(m)) => assert_eq!((g.mantissa(), g.scale()), (m, dp)),
            (Err(e), None) => assert_eq!(e, DecimalError::Overflow),
            (g, w) => panic!("{d} to {dp}: {g:?} vs {w:?}"),
        }
    }
}

#[test]
fn rescale_on_awkward_values() {
    for d in awkward() {
        for dp in 0..=30 {
            check_rescale(d, dp);
        }
    }
    // Ties at every position, both signs: away from zero; no negative zero.
    let d = |s: &str| s.parse::<Decimal>().unwrap();
    assert_eq!(d("-0.5").rescale(0).unwrap().to_string(), "-1");
    assert_eq!(d("-0.49").rescale(0).unwrap().to_string(), "0");
    assert!(!d("-0.49").rescale(0).unwrap().is_negative());
    assert_eq!(d("2.5").rescale(0).unwrap().to_string(), "3");
}

/// A decimal from its digits and scale, mostly in the shapes that matter: up to 19
/// digits (the 64-bit paths), 20 to 28 digits, and 29 digits up to 2^96 − 1.
fn decimal() -> impl Strategy<Value = Decimal> {
    (
        prop_oneof![
            (0u64..1000).prop_map(|m| m as i128),
            any::<u64>().prop_map(|m| m as i128),
            (0i128..=MAX),
            (MAX - 1000..=MAX),
        ],
        any::<bool>(),
        prop_oneof![0u8..=8, 0u8..=28],
    )
        .prop_map(|(m, neg, s)| Decimal::from_parts(if neg { -m } else { m }, s).unwrap())
}

/// Canonical wire text: digits of `n` significant digits (no leading zero) at a scale.
fn wire_text() -> impl Strategy<Value = String> {
    (
        prop_oneof![
            "[1-9][0-9]{0,18}",  // fits a u64
            "[1-9][0-9]{19,27}", // 20 to 28 digits
            "[1-7][0-9]{28}",    // 29 digits: some beyond 2^96 - 1
        ],
        any::<bool>(),
        0usize..=28,
    )
        .prop_map(|(digits, neg, scale)| {
            let sign = if neg { "-" } else { "" };
            if scale == 0 {
                return format!("{sign}{digits}");
            }
            let padded = format!("{:0>w$}", digits, w = scale + 1);
            let (int, frac) = padded.split_at(padded.len() - scale);
            format!("{sign}{int}.{frac}")
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn parse_write_round_trip_against_rust_decimal(text in wire_text()) {
        let ours = Decimal::parse(text.as_bytes());
        let theirs = rust_decimal::Decimal::from_str_exact(&text);
        match (ours, theirs) {
            (Ok(d), Ok(r)) => {
                prop_assert_eq!((d.mantissa(), d.scale() as u32), (r.mantissa(), r.scale()));
                prop_assert_eq!(&d.to_string(), &text);
                prop_assert_eq!(&r.to_string(), &text);
                let mut buf = [0u8; Decimal::MAX_WRITE_LEN];
                let n = d.write(&mut buf).unwrap();
                prop_assert_eq!(&buf[..n], text.as_bytes());
                prop_assert_eq!(from_rd(r), d);
            }
            (Err(e), Err(_)) => prop_assert_eq!(e, DecimalError::Overflow, "{}", text),
            (o, t) => prop_assert!(false, "{}: ours {:?}, rust_decimal {:?}", text, o, t),
        }
    }

    #[test]
    fn ops_against_rust_decimal_and_exact(a in decimal(), b in decimal()) {
        check_pair(a, b);
    }

    #[test]
    fn ops_near_the_range(a in decimal(), k in 0u8..=28) {
        // b close to a's magnitude: sums and differences near the limit, cancellations.
        let b = a.rescale(k).unwrap_or(a);
        check_pair(a, b);
        check_pair(a, -b);
        check_pair(a, a);
    }

    #[test]
    fn rescale_against_rust_decimal(d in decimal(), dp in 0u8..=30) {
        check_rescale(d, dp);
    }

    #[test]
    fn ordering_is_total_and_consistent(a in decimal(), b in decimal(), c in decimal()) {
        let mut v = [a, b, c];
        v.sort();
        let mut r = [rd(a), rd(b), rd(c)];
        r.sort();
        for (x, y) in v.iter().zip(&r) {
            prop_assert_eq!(rd(*x), *y);
        }
        prop_assert!(v[0] <= v[1] && v[1] <= v[2] && v[0] <= v[2]);
    }
}
