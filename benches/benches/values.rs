//! Typed value benchmarks: decimal write (with rust_decimal's formatting of the same values
//! in the same group), decimal parse, integer write, timestamp write.
//!
//! Every case checks its result once before it is timed.
//!
//! Run: `cargo bench -p fix-benches --bench values -- --warm-up-time 1 --measurement-time 3`

use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use fix_core::value::{Decimal, Precision, SeqNum, UtcTimestamp, write_int};
use rust_decimal::RoundingStrategy;

/// A `fmt::Write` into a fixed array, so rust_decimal is timed without allocating too.
struct StackBuf {
    buf: [u8; 64],
    len: usize,
}

impl StackBuf {
    fn new() -> Self {
        StackBuf {
            buf: [0; 64],
            len: 0,
        }
    }

    fn as_bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl std::fmt::Write for StackBuf {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let end = self.len + s.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(std::fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// The cases of the decimal write group: (name, input, scale to write at, expected).
const WRITE_CASES: &[(&str, &str, u32, &str)] = &[
    ("-124.3456@2", "-124.3456", 2, "-124.35"),
    ("-124.3456@8", "-124.3456", 8, "-124.34560000"),
    ("187.2500", "187.2500", 4, "187.2500"),
];

fn rust_decimal_into(buf: &mut StackBuf, d: rust_decimal::Decimal, dp: u32) {
    buf.len = 0;
    let r = d.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
    let dp = dp as usize;
    write!(buf, "{r:.dp$}").unwrap();
}

fn decimal_write(c: &mut Criterion) {
    let mut g = c.benchmark_group("decimal_write");
    // The floor: copying 8 ready-made bytes into the output, to read the others against
    // (the machine is shared and noisy; compare within one run).
    let mut out = [0u8; 64];
    out[..8].copy_from_slice(black_box(b"187.2500"));
    assert_eq!(&out[..8], b"187.2500");
    g.bench_function("floor/copy 8 bytes", |b| {
        b.iter(|| {
            out[..8].copy_from_slice(black_box(b"187.2500"));
            black_box(&mut out);
        })
    });
    // `write` at the value's own scale, as the encoder calls it: a price and a quantity.
    for (input, want) in [("187.2500", "187.2500"), ("2500", "2500")] {
        let ours = Decimal::parse(input.as_bytes()).unwrap();
        let n = ours.write(&mut out).unwrap();
        assert_eq!(&out[..n], want.as_bytes());
        g.bench_function(format!("fix_core/write {input}"), |b| {
            b.iter(|| black_box(black_box(&ours).write(&mut out)))
        });
    }
    for &(name, input, dp, want) in WRITE_CASES {
        let ours = Decimal::parse(input.as_bytes()).unwrap();
        let mut out = [0u8; 64];
        let n = ours.write_scaled(dp as u8, &mut out).unwrap();
        assert_eq!(&out[..n], want.as_bytes());
        g.bench_function(format!("fix_core/{name}"), |b| {
            b.iter(|| black_box(black_box(&ours).write_scaled(black_box(dp as u8), &mut out)))
        });

        let theirs = rust_decimal::Decimal::from_str_exact(input).unwrap();
        let mut sb = StackBuf::new();
        rust_decimal_into(&mut sb, theirs, dp);
        assert_eq!(sb.as_bytes(), want.as_bytes());
        g.bench_function(format!("rust_decimal/{name}"), |b| {
            b.iter(|| {
                rust_decimal_into(&mut sb, black_box(theirs), black_box(dp));
                black_box(sb.len)
            })
        });

        let s = theirs.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
        let dpu = dp as usize;
        assert_eq!(format!("{s:.dpu$}"), want);
        g.bench_function(format!("rust_decimal_string/{name}"), |b| {
            b.iter(|| {
                let r = black_box(theirs)
                    .round_dp_with_strategy(black_box(dp), RoundingStrategy::MidpointAwayFromZero);
                black_box(format!("{r:.dpu$}"))
            })
        });
    }
    g.finish();
}

fn decimal_parse(c: &mut Criterion) {
    let mut g = c.benchmark_group("decimal_parse");
    for (input, mantissa, scale) in [
        ("-124.3456", -1_243_456i128, 4u8),
        ("187.2500", 1_872_500, 4),
    ] {
        let d = Decimal::parse(input.as_bytes()).unwrap();
        assert_eq!((d.mantissa(), d.scale()), (mantissa, scale));
        g.bench_function(format!("fix_core/{input}"), |b| {
            b.iter(|| black_box(Decimal::parse(black_box(input.as_bytes()))))
        });
        let r = rust_decimal::Decimal::from_str_exact(input).unwrap();
        assert_eq!((r.mantissa(), r.scale()), (mantissa, scale as u32));
        g.bench_function(format!("rust_decimal/{input}"), |b| {
            b.iter(|| black_box(rust_decimal::Decimal::from_str_exact(black_box(input))))
        });
    }
    g.finish();
}

fn int_write(c: &mut Criterion) {
    let mut g = c.benchmark_group("int_write");
    let mut out = [0u8; 32];
    for (v, want) in [
        (1207i64, "1207"),
        (-9_223_372_036_854_775_808, "-9223372036854775808"),
    ] {
        let n = write_int(v, &mut out).unwrap();
        assert_eq!(&out[..n], want.as_bytes());
        g.bench_function(format!("fix_core/{want}"), |b| {
            b.iter(|| black_box(write_int(black_box(v), &mut out)))
        });
    }
    let seq = SeqNum(88_123);
    let n = seq.write(&mut out).unwrap();
    assert_eq!(&out[..n], b"88123");
    g.bench_function("fix_core/seqnum 88123", |b| {
        b.iter(|| black_box(black_box(seq).write(&mut out)))
    });
    g.finish();
}

fn timestamp_write(c: &mut Criterion) {
    let mut g = c.benchmark_group("timestamp_write");
    let ts = UtcTimestamp::parse(b"20261130-14:03:27.123456789").unwrap();
    let mut out = [0u8; UtcTimestamp::MAX_LEN];
    for (p, want) in [
        (Precision::Seconds, "20261130-14:03:27"),
        (Precision::Millis, "20261130-14:03:27.123"),
        (Precision::Micros, "20261130-14:03:27.123456"),
        (Precision::Nanos, "20261130-14:03:27.123456789"),
    ] {
        let n = ts.write_with(p, &mut out).unwrap();
        assert_eq!(&out[..n], want.as_bytes());
        g.bench_function(format!("fix_core/{p:?}"), |b| {
            b.iter(|| black_box(black_box(&ts).write_with(black_box(p), &mut out)))
        });
    }
    let input = b"20261130-14:03:27.123456";
    assert!(UtcTimestamp::parse(input).is_ok());
    g.bench_function("fix_core/parse Micros", |b| {
        b.iter(|| black_box(UtcTimestamp::parse(black_box(input))))
    });
    g.finish();
}

criterion_group!(
    benches,
    decimal_write,
    decimal_parse,
    int_write,
    timestamp_write
);
criterion_main!(benches);
