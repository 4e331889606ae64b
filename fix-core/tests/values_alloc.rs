//! Parsing and writing every value type allocates nothing: a counting global allocator
//! watches the test thread while it parses and writes one value of each type.

use fix_test_support::alloc::{Counting, allocations_during as allocations};

use fix_core::value::*;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Parses `input` as `T`, writes it back and checks the bytes are the same.
fn round_trip<'a, T: FieldValue<'a>>(input: &'a [u8], out: &mut [u8]) {
    let v = T::parse_fix(input).expect("valid input");
    let n = v.write_fix(out).expect("buffer large enough");
    assert!(out[..n] == *input);
}

#[test]
fn parse_and_write_allocate_nothing() {
    // The counter itself works.
    assert!(allocations(|| drop(std::hint::black_box(vec![1u8; 16]))) > 0);

    let mut out = [0u8; 64];
    let n = allocations(|| {
        let out = &mut out[..];
        round_trip::<Decimal>(b"-124.3456", out);
        round_trip::<Decimal>(b"79228162514264337593543950335", out); // the wide path
        let d = Decimal::parse(b"-124.3456").unwrap();
        let n = d.write_scaled(2, out).unwrap();
        assert!(&out[..n] == b"-124.35");
        let n = d.write_scaled(8, out).unwrap();
        assert!(&out[..n] == b"-124.34560000");
        let _ = d.write_scaled(8, &mut out[..3]).unwrap_err();
        let _ = d.round_dp(1);
        let _ = d.rescale(20);
        let _ = Decimal::parse(b"1e5").unwrap_err();
        round_trip::<i64>(b"-9223372036854775808", out);
        round_trip::<SeqNum>(b"1207", out);
        round_trip::<NumInGroup>(b"10", out);
        round_trip::<Length>(b"316", out);
        round_trip::<TagNum>(b"207", out);
        round_trip::<UtcTimestamp>(b"20261130-14:03:27.123456", out);
        let ts = UtcTimestamp::parse(b"20261130-14:03:27.123456789").unwrap();
        let _ = ts.write_with(Precision::Millis, out).unwrap();
        round_trip::<UtcTimeOnly>(b"23:59:60.123", out);
        round_trip::<UtcDateOnly>(b"20240229", out);
        round_trip::<LocalMktDate>(b"20261130", out);
        round_trip::<MonthYear>(b"202612w3", out);
        round_trip::<TzTimestamp>(b"20060901-13:09:30.123+05:30", out);
        round_trip::<TzTimeOnly>(b"07:39Z", out);
        round_trip::<Char>(b"F", out);
        round_trip::<bool>(b"Y", out);
        round_trip::<MultipleValueString>(b"1 6 AB", out);
        round_trip::<MultipleCharValue>(b"2 A F", out);
        let m = MultipleValueString::parse(b"1 6 AB").unwrap();
        assert!(m.iter().count() == 3 && m.contains(b"AB"));
        round_trip::<Country>(b"US", out);
        round_trip::<Currency>(b"USD", out);
        round_trip::<Exchange>(b"XNAS", out);
        round_trip::<FixStr>(b"Partial fill", out);
        let _ = UtcTimestamp::parse(b"20260230-00:00:00").unwrap_err();
        let _ = TzTimeOnly::parse(b"25:00Z").unwrap_err();
    });
    assert_eq!(n, 0, "parse/write allocated {n} times");
}
