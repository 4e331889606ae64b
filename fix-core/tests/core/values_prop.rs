//! Property tests for `fix_core::value`: round trips for every type, and no panic on any
//! input bytes or any output buffer size.

use fix_core::value::*;
use proptest::prelude::*;

/// Bytes drawn mostly from the characters the value grammars use, so random inputs reach
/// deep into the parsers instead of failing on the first byte.
fn value_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..40),
        proptest::collection::vec(
            proptest::sample::select(&b"0123456789012345678901234567890-.:+-Zwe E\x01YN"[..]),
            0..40
        ),
    ]
}

/// A decimal's answer as it is represented: mantissa and scale (`Decimal`'s
/// equality is by value, so `1.50 == 1.5`), or the error.
fn exact(d: Result<Decimal, DecimalError>) -> Result<(i128, u8), DecimalError> {
    d.map(|d| (d.mantissa(), d.scale()))
}

/// Every value of `len` bytes drawn from `chars`, read in a message as typed views
/// read it, followed by SOH and more bytes or by nothing: the same answer, to the
/// scale, as parsing the value alone.
fn decimals_in_a_message_parse_as_alone(chars: &[u8], lens: core::ops::RangeInclusive<u32>) {
    for len in lens {
        for mut k in 0..(chars.len() as u32).pow(len) {
            let mut value = Vec::new();
            for _ in 0..len {
                value.push(chars[(k % chars.len() as u32) as usize]);
                k /= chars.len() as u32;
            }
            for tail in [&b""[..], b"\x01", b"\x0110=123\x01"] {
                let buf = [&value[..], tail].concat();
                let got = Decimal::parse_in(&buf, 0..value.len(), true);
                assert_eq!(
                    exact(got),
                    exact(Decimal::parse_fix(&value)),
                    "{value:?} + {tail:?}"
                );
                // The same value further into a message, after other bytes.
                let buf = [&b"44="[..], &value, tail].concat();
                let got = Decimal::parse_in(&buf, 3..3 + value.len(), true);
                assert_eq!(exact(got), exact(Decimal::parse_fix(&value)), "{value:?}");
            }
        }
    }
}

/// Every value of up to five bytes from the decimal grammar's characters (and a
/// few others, some next to `'0'`, `'9'` and `'.'`).
#[test]
fn short_decimals_in_a_message_parse_as_alone() {
    decimals_in_a_message_parse_as_alone(b"0179.-a/:", 0..=5);
}

/// Six to nine bytes, around the eight a message's value is converted from in
/// one word: digits, points, a sign and a byte that is none of them.
#[test]
fn eight_byte_decimals_in_a_message_parse_as_alone() {
    decimals_in_a_message_parse_as_alone(b"09.-x", 6..=9);
}

proptest! {
    /// Any bytes as a value in a message: the same answer, to the scale, as the
    /// value parsed alone.
    #[test]
    fn decimals_in_a_message_parse_as_alone_any_bytes(
        before in proptest::collection::vec(any::<u8>(), 0..12),
        value in value_bytes(),
        after in proptest::collection::vec(any::<u8>(), 0..12),
    ) {
        let buf = [&before[..], &value, &after].concat();
        let got = Decimal::parse_in(&buf, before.len()..before.len() + value.len(), true);
        prop_assert_eq!(exact(got), exact(Decimal::parse_fix(&value)));
    }
}

fn decimal() -> impl Strategy<Value = Decimal> {
    (
        -Decimal::MAX_MANTISSA..=Decimal::MAX_MANTISSA,
        0u8..=28,
        0u32..4,
    )
        .prop_map(|(m, s, k)| {
            // Mix wide mantissas with ones that fit i64 (the fast path).
            let m = match k {
                0 => m,
                1 => m % (1i128 << 63),
                2 => m % 1_000_000_000,
                _ => m % 1000,
            };
            Decimal::from_parts(m, s).unwrap()
        })
}

fn precision() -> impl Strategy<Value = Precision> {
    prop_oneof![
        Just(Precision::Seconds),
        Just(Precision::Millis),
        Just(Precision::Micros),
        Just(Precision::Nanos),
    ]
}

fn date() -> impl Strategy<Value = UtcDateOnly> {
    (0u16..=9999, 1u8..=12, 1u8..=31)
        .prop_filter_map("day in month", |(y, m, d)| UtcDateOnly::new(y, m, d).ok())
}

fn utc_time() -> impl Strategy<Value = UtcTimeOnly> {
    (0u8..24, 0u8..60, 0u8..=60, 0u32..1_000_000_000, precision())
        .prop_map(|(h, m, s, n, p)| UtcTimeOnly::new(h, m, s, n, p).unwrap())
}

fn offset() -> impl Strategy<Value = TzOffset> {
    prop_oneof![
        Just(TzOffset::Utc),
        (-14i16 * 60..=14 * 60).prop_map(TzOffset::Minutes)
    ]
}

fn tz_time() -> impl Strategy<Value = TzTimeOnly> {
    (
        0u8..24,
        0u8..60,
        0u8..=60,
        0u32..1_000_000_000,
        proptest::option::of(precision()),
        offset(),
    )
        .prop_map(|(h, m, s, n, p, o)| TzTimeOnly::new(h, m, s, n, p, o).unwrap())
}

/// Writes `v` with `write`, checks nothing past the value was touched, then checks every
/// shorter buffer reports the same size needed.
fn write_all<F>(write: F) -> Vec<u8>
where
    F: Fn(&mut [u8]) -> Result<usize, BufferTooSmall>,
{
    let mut buf = [0xA5u8; 128];
    let n = write(&mut buf).unwrap();
    assert!(buf[n..].iter().all(|&b| b == 0xA5), "written past {n}");
    for short in 0..n {
        assert_eq!(write(&mut buf[..short]), Err(BufferTooSmall { needed: n }));
    }
    buf[..n].to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn decimal_round_trip(d in decimal()) {
        let text = write_all(|b| d.write(b));
        // The fast paths of `write` agree with the general `write_scaled`.
        prop_assert_eq!(&text, &write_all(|b| d.write_scaled(d.scale(), b)));
        let p = Decimal::parse(&text).unwrap();
        // The same representation, not only the same number: the scale is kept.
        prop_assert_eq!((p.mantissa(), p.scale()), (d.mantissa(), d.scale()));
        prop_assert_eq!(text.len() <= Decimal::MAX_WRITE_LEN, true);
    }

    #[test]
    fn decimal_scaled_matches_rescale_and_rust_decimal(d in decimal(), dp in 0u8..=40) {
        let text = write_all(|b| d.write_scaled(dp, b));
        let s = std::str::from_utf8(&text).unwrap();
        prop_assert!(!s.starts_with("-0") || s.bytes().any(|c| (b'1'..=b'9').contains(&c)), "{}", s);
        if let Ok(r) = d.rescale(dp) {
            let p = Decimal::parse(&text).unwrap();
            prop_assert_eq!((p.mantissa(), p.scale()), (r.mantissa(), r.scale()));
        }
        let rd = rust_decimal::Decimal::from_i128_with_scale(d.mantissa(), d.scale() as u32)
            .round_dp_with_strategy(dp as u32, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
        let want = Decimal::from_parts(rd.mantissa(), rd.scale() as u8).unwrap().normalize();
        // Beyond 28 places the tail is zero padding a Decimal cannot hold: cut it.
        let cut = text.len() - dp.saturating_sub(Decimal::MAX_SCALE) as usize;
        prop_assert!(text[cut..].iter().all(|&c| c == b'0'));
        match Decimal::parse(&text[..cut]) {
            Ok(p) => {
                let p = p.normalize();
                prop_assert_eq!((p.mantissa(), p.scale()), (want.mantissa(), want.scale()));
            }
            // Padding pushed the mantissa past 96 bits: rescale must refuse too.
            Err(e) => {
                prop_assert_eq!(e, DecimalError::Overflow);
                prop_assert!(d.rescale(dp.min(Decimal::MAX_SCALE)).is_err());
            }
        }
    }

    #[test]
    fn decimal_parse_agrees_with_rust_decimal(s in "-?[0-9]{0,24}(\\.[0-9]{0,24})?") {
        let ours = Decimal::parse(s.as_bytes());
        let theirs = rust_decimal::Decimal::from_str_exact(&s);
        match (ours, theirs) {
            (Ok(d), Ok(r)) => prop_assert_eq!((d.mantissa(), d.scale() as u32), (r.mantissa(), r.scale())),
            (Err(_), Err(_)) => {}
            (o, t) => prop_assert!(false, "{:?}: ours {:?}, rust_decimal {:?}", s, o, t),
        }
    }

    #[test]
    fn int_writes_match_std(i in prop_oneof![-200_000_000i64..200_000_000, any::<i64>()], shift in 0u32..64) {
        let i = i >> shift;
        prop_assert_eq!(write_all(|b| write_int(i, b)), i.to_string().into_bytes());
        let u = i.unsigned_abs();
        prop_assert_eq!(write_all(|b| write_uint(u, b)), u.to_string().into_bytes());
    }

    #[test]
    fn int_round_trips(i in any::<i64>(), u in any::<u64>(), w in any::<u32>()) {
        prop_assert_eq!(parse_int(&write_all(|b| write_int(i, b))), Ok(i));
        prop_assert_eq!(SeqNum::parse(&write_all(|b| SeqNum(u).write(b))), Ok(SeqNum(u)));
        prop_assert_eq!(NumInGroup::parse(&write_all(|b| NumInGroup(w).write(b))), Ok(NumInGroup(w)));
        prop_assert_eq!(Length::parse(&write_all(|b| Length(w).write(b))), Ok(Length(w)));
        if let Some(t) = TagNum::new(w) {
            prop_assert_eq!(TagNum::parse(&write_all(|b| t.write(b))), Ok(t));
        }
        // Agreement with std on the signed grammar (std also takes '+', FIX does not).
        let s = i.to_string();
        prop_assert_eq!(parse_int(s.as_bytes()).ok(), s.parse::<i64>().ok());
    }

    #[test]
    fn time_round_trips(d in date(), t in utc_time(), z in tz_time(), p in precision()) {
        prop_assert_eq!(UtcDateOnly::parse(&write_all(|b| d.write(b))), Ok(d));
        let l = LocalMktDate::new(d.year(), d.month(), d.day()).unwrap();
        prop_assert_eq!(LocalMktDate::parse(&write_all(|b| l.write(b))), Ok(l));
        prop_assert_eq!(UtcTimeOnly::parse(&write_all(|b| t.write(b))), Ok(t));
        let ts = UtcTimestamp::new(d, t);
        prop_assert_eq!(UtcTimestamp::parse(&write_all(|b| ts.write(b))), Ok(ts));
        let text = write_all(|b| ts.write_with(p, b));
        let mut want = format!(
            "{:04}{:02}{:02}-{:02}:{:02}:{:02}",
            d.year(), d.month(), d.day(), t.hour(), t.minute(), t.second()
        );
        if p.digits() > 0 {
            let frac = format!("{:09}", t.nanos());
            want.push('.');
            want.push_str(&frac[..p.digits()]);
        }
        prop_assert_eq!(std::str::from_utf8(&text).unwrap(), want);
        let at_p = UtcTimestamp::parse(&text).unwrap();
        prop_assert_eq!(at_p.time(), t.with_precision(p));
        prop_assert_eq!(TzTimeOnly::parse(&write_all(|b| z.write(b))), Ok(z));
        let tzs = TzTimestamp::new(d, z);
        prop_assert_eq!(TzTimestamp::parse(&write_all(|b| tzs.write(b))), Ok(tzs));
        for detail in [MonthYearDetail::None, MonthYearDetail::Day(d.day()), MonthYearDetail::Week(d.day() % 5 + 1)] {
            let my = MonthYear::new(d.year(), d.month(), detail).unwrap();
            prop_assert_eq!(MonthYear::parse(&write_all(|b| my.write(b))), Ok(my));
        }
    }

    #[test]
    fn text_round_trips(bytes in value_bytes()) {
        if let Ok(s) = FixStr::parse(&bytes) {
            prop_assert_eq!(write_all(|b| s.write(b)), bytes.clone());
        }
        if let Ok(v) = MultipleValueString::parse(&bytes) {
            prop_assert_eq!(v.iter().collect::<Vec<_>>().join(&b' '), bytes.clone());
        }
        if let Ok(v) = MultipleCharValue::parse(&bytes) {
            let chars: Vec<u8> = v.iter().map(Char::get).collect();
            prop_assert_eq!(chars.len() * 2 - 1, bytes.len());
        }
    }

    /// A typed view's read of a decimal in a message (one word loaded across the
    /// value's end) gives the answer, value or error, of parsing the value alone.
    #[test]
    fn decimal_in_a_message_parses_as_alone(
        value in proptest::collection::vec(proptest::sample::select(&b"0123456789.-+e\x01"[..]), 0..12),
        before in proptest::collection::vec(any::<u8>(), 0..3),
        after in proptest::collection::vec(any::<u8>(), 0..12),
    ) {
        let buf = [&before[..], &value, &after].concat();
        let range = before.len()..before.len() + value.len();
        prop_assert_eq!(Decimal::parse_in(&buf, range, true), Decimal::parse_fix(&value));
    }

    #[test]
    fn random_bytes_never_panic(bytes in value_bytes()) {
        let mut out = [0u8; 64];
        if let Ok(v) = Decimal::parse(&bytes) {
            let _ = v.write(&mut out);
            let _ = v.write_scaled(255, &mut out);
        }
        let _ = parse_int(&bytes);
        let _ = parse_uint(&bytes);
        let _ = SeqNum::parse(&bytes);
        let _ = NumInGroup::parse(&bytes);
        let _ = Length::parse(&bytes);
        let _ = TagNum::parse(&bytes);
        macro_rules! rt {
            ($($t:ty),*) => {$(
                if let Ok(v) = <$t>::parse(&bytes) {
                    let n = v.write(&mut out).unwrap();
                    prop_assert_eq!(<$t>::parse(&out[..n]), Ok(v));
                }
            )*};
        }
        rt!(UtcTimestamp, UtcTimeOnly, UtcDateOnly, LocalMktDate, MonthYear, TzTimestamp, TzTimeOnly);
        rt!(Char, Country, Currency, Exchange);
        let _ = MultipleValueString::parse(&bytes);
        let _ = MultipleCharValue::parse(&bytes);
        let _ = FixStr::parse(&bytes);
        let _ = bool::parse_fix(&bytes);
    }
}

#[cfg(feature = "std")]
#[test]
fn errors_are_small_copy_and_display() {
    fn check<E: Copy + std::error::Error + Send + Sync + 'static>(e: E) -> String {
        assert!(std::mem::size_of::<E>() <= 16);
        e.to_string()
    }
    assert!(!check(DecimalError::Overflow).is_empty());
    assert!(!check(IntError::Overflow).is_empty());
    assert!(!check(TimeError::Day).is_empty());
    assert!(!check(TextError::NotBoolean).is_empty());
    assert!(!check(BufferTooSmall { needed: 3 }).is_empty());
}

/// `parse_in` (the typed views' read, which may load words across the value's
/// end) answers as `parse_fix` on the value alone, whatever follows the value
/// and wherever it ends in the buffer; with `soh_free` false, a SOH in a text
/// value is still refused.
fn parse_in_agrees<T>(before: &[u8], value: &[u8], after: &[u8])
where
    T: for<'a> FieldValue<'a> + PartialEq + core::fmt::Debug,
    for<'a> <T as FieldValue<'a>>::Error: PartialEq,
{
    let mut buf = before.to_vec();
    buf.extend_from_slice(value);
    buf.extend_from_slice(after);
    let range = before.len()..before.len() + value.len();
    let expected = T::parse_fix(value);
    assert_eq!(T::parse_in(&buf, range.clone(), false), expected);
    if !value.contains(&0x01) {
        assert_eq!(T::parse_in(&buf, range, true), expected);
    }
}

proptest! {
    #[test]
    fn parse_in_reads_as_parse_fix(
        before in proptest::collection::vec(any::<u8>(), 0..9),
        value in value_bytes(),
        after in prop_oneof![
            Just(Vec::new()),
            proptest::collection::vec(any::<u8>(), 0..12),
            proptest::collection::vec(proptest::sample::select(&b"0123456789.-\x01"[..]), 0..12),
        ],
    ) {
        parse_in_agrees::<Decimal>(&before, &value, &after);
        parse_in_agrees::<SeqNum>(&before, &value, &after);
        parse_in_agrees::<UtcTimestamp>(&before, &value, &after);
        let mut buf = before.clone();
        buf.extend_from_slice(&value);
        buf.extend_from_slice(&after);
        let range = before.len()..before.len() + value.len();
        let expected = FixStr::parse_fix(&value);
        prop_assert_eq!(FixStr::parse_in(&buf, range.clone(), false), expected);
        if !value.contains(&0x01) {
            prop_assert_eq!(FixStr::parse_in(&buf, range, true), expected);
        }
    }

    #[test]
    fn parse_in_reads_short_decimals_as_parse_fix(
        m in -99_999_999i64..=99_999_999,
        dp in 0u32..9,
        after in proptest::collection::vec(any::<u8>(), 0..12),
    ) {
        let text = Decimal::new(m, dp.min(8) as u8).unwrap().to_string();
        parse_in_agrees::<Decimal>(b"44=", text.as_bytes(), &after);
    }
}
