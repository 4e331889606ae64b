//! `ValueFormat::accepts` settles common values by shape alone; these properties hold
//! it to the answer of each type's full parser, on values built to sit near the
//! edges (lengths, signs, points, calendar limits).

use fix_core::validate::ValueFormat;
use fix_core::value::{Decimal, UtcTimestamp, parse_int, parse_uint};
use proptest::prelude::*;

/// Bytes from an alphabet where almost anything is nearly a number.
fn numberish() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(b"0123456789.-+ e".to_vec()), 0..24)
}

/// Timestamps with every part in or just out of range, and random damage.
fn timestamp_like() -> impl Strategy<Value = Vec<u8>> {
    let part = |max: u32| (0..=max).prop_map(|v| v);
    (
        part(9999),
        part(13),
        part(32),
        part(25),
        part(61),
        part(61),
        prop::sample::select(vec![
            "",
            ".1",
            ".123",
            ".1234",
            ".123456",
            ".123456789",
            ".",
        ]),
        prop::option::of((0usize..27, any::<u8>())),
    )
        .prop_map(|(y, mo, d, h, mi, s, frac, damage)| {
            let mut v = format!("{y:04}{mo:02}{d:02}-{h:02}:{mi:02}:{s:02}{frac}").into_bytes();
            if let Some((at, b)) = damage
                && let Some(slot) = v.get_mut(at)
            {
                *slot = b;
            }
            v
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    #[test]
    fn decimal_agrees_with_parse(v in numberish()) {
        prop_assume!(!v.is_empty());
        prop_assert_eq!(ValueFormat::Decimal.accepts(&v), Decimal::parse(&v).is_ok());
    }

    #[test]
    fn integers_agree_with_parse(v in numberish()) {
        prop_assume!(!v.is_empty());
        prop_assert_eq!(ValueFormat::Int.accepts(&v), parse_int(&v).is_ok());
        prop_assert_eq!(ValueFormat::UInt.accepts(&v), parse_uint(&v).is_ok());
    }

    #[test]
    fn timestamp_agrees_with_parse(v in timestamp_like()) {
        prop_assert_eq!(ValueFormat::UtcTimestamp.accepts(&v), UtcTimestamp::parse(&v).is_ok());
    }

    #[test]
    fn codes_agree_with_parse(v in prop::collection::vec(prop::sample::select(b"AZaz09 .\x01".to_vec()), 0..6)) {
        use fix_core::value::{Country, Currency, Exchange};
        prop_assert_eq!(ValueFormat::Currency.accepts(&v), Currency::parse(&v).is_ok());
        prop_assert_eq!(ValueFormat::Country.accepts(&v), Country::parse(&v).is_ok());
        prop_assert_eq!(ValueFormat::Exchange.accepts(&v), Exchange::parse(&v).is_ok());
    }

    #[test]
    fn char_agrees_with_parse(v in prop::collection::vec(any::<u8>(), 1..3)) {
        prop_assert_eq!(
            ValueFormat::Char.accepts(&v),
            fix_core::value::Char::parse(&v).is_ok()
        );
    }
}

#[test]
fn edges() {
    for (v, ok) in [
        (&b"20240229-23:59:60.999"[..], true),
        (b"20230229-00:00:00", false),
        (b"20261131-00:00:00", false),
        (b"20261130-24:00:00", false),
        (b"20261130-14:03:27.1234", false),
        (b"20261130-14:03:27.", false),
    ] {
        assert_eq!(
            ValueFormat::UtcTimestamp.accepts(v),
            ok,
            "{}",
            v.escape_ascii()
        );
    }
    for (v, ok) in [
        (&b"999999999999999999"[..], true),
        (b"9999999999999999999", true),
        (b"-", false),
        (b".", false),
        (b"-.5", true),
        (b"1.2.3", false),
    ] {
        assert_eq!(ValueFormat::Decimal.accepts(v), ok, "{}", v.escape_ascii());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(20_000))]

    /// The eight-byte word parse agrees with `rust_decimal` on every short value:
    /// the same mantissa and scale, or both refusing it.
    #[test]
    fn short_decimals_agree_with_rust_decimal(
        v in prop::collection::vec(prop::sample::select(b"0123456789.-".to_vec()), 1..10)
    ) {
        let ours = Decimal::parse(&v);
        // FIX allows ".5" and "5." where rust_decimal wants "0.5" and "5".
        let text = std::str::from_utf8(&v).unwrap();
        let (sign, body) = text.strip_prefix('-').map_or(("", text), |b| ("-", b));
        let body = body.strip_suffix('.').filter(|b| !b.contains('.')).unwrap_or(body);
        let body = if body.starts_with('.') { format!("0{body}") } else { body.to_string() };
        let theirs = if body.is_empty() || body.starts_with('-') {
            None
        } else {
            rust_decimal::Decimal::from_str_exact(&format!("{sign}{body}")).ok()
        };
        match (ours, theirs) {
            (Ok(d), Some(t)) => {
                prop_assert_eq!(d.mantissa(), t.mantissa(), "{}", text);
                prop_assert_eq!(u32::from(d.scale()), t.scale(), "{}", text);
            }
            (Err(_), None) => {}
            (ours, theirs) => prop_assert!(false, "{text}: ours {ours:?}, rust_decimal {theirs:?}"),
        }
    }
}
