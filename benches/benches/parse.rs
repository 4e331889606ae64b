//! Framing and indexing the corpus, beside two floors in the same group: a `memchr`
//! count of SOH, and a naive split of tag=value pairs with no checks.
//!
//! `cargo bench -p fix-benches --bench parse`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fix_benches::{MESSAGES, corpus, count_soh, naive_split};
use fix_core::{Fields, Parser};
use std::hint::black_box;

const PARSER: Parser<'static> = Parser::new();

fn per_message(c: &mut Criterion) {
    for (label, stem) in MESSAGES {
        let bytes = corpus(stem);
        let mut fields = Fields::<128>::new();

        // Check every case once before timing it.
        let expected = PARSER
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap()
            .fields()
            .len();
        let mut split = [(0u32, 0u32, 0u32); 128];
        let solo = bytes.iter().filter(|&&b| b == 1).count();
        assert_eq!(count_soh(&bytes), solo);
        // RawData holds SOH, so only a message without data fields splits right.
        if stem != "logon_rawdata" {
            assert_eq!(naive_split(&bytes, &mut split), expected);
        }
        assert_eq!(
            PARSER.frame(&bytes).unwrap().complete().unwrap().len(),
            bytes.len()
        );

        let mut group = c.benchmark_group(format!("parse/{label}"));
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function("floor: memchr count SOH", |b| {
            b.iter(|| count_soh(black_box(&bytes)))
        });
        group.bench_function("floor: naive split", |b| {
            b.iter(|| naive_split(black_box(&bytes), &mut split))
        });
        group.bench_function("frame (BodyLength + CheckSum)", |b| {
            b.iter(|| {
                PARSER
                    .frame(black_box(&bytes))
                    .unwrap()
                    .complete()
                    .unwrap()
                    .len()
            })
        });
        group.bench_function(
            BenchmarkId::new("frame + index every field", expected),
            |b| {
                b.iter(|| {
                    let msg = PARSER.parse(black_box(&bytes), &mut fields).unwrap();
                    msg.complete().unwrap().fields().len()
                })
            },
        );
        group.finish();
    }
}

/// All four messages in turn, so branchy code is not flattered by a predictor that
/// has learnt one message.
fn mixed(c: &mut Criterion) {
    let messages: Vec<Vec<u8>> = MESSAGES.iter().map(|(_, stem)| corpus(stem)).collect();
    let total: usize = messages.iter().map(Vec::len).sum();
    let mut fields = Fields::<128>::new();
    let mut split = [(0u32, 0u32, 0u32); 128];
    let expected: usize = messages
        .iter()
        .map(|m| {
            PARSER
                .parse(m, &mut fields)
                .unwrap()
                .complete()
                .unwrap()
                .fields()
                .len()
        })
        .sum();
    let naive: usize = messages.iter().map(|m| naive_split(m, &mut split)).sum();
    assert_eq!(naive, expected);

    let mut group = c.benchmark_group("parse/mixed4");
    group.throughput(Throughput::Bytes(total as u64));
    group.bench_function("floor: naive split", |b| {
        b.iter(|| {
            messages
                .iter()
                .map(|m| naive_split(black_box(m), &mut split))
                .sum::<usize>()
        })
    });
    group.bench_function("frame + index every field", |b| {
        b.iter(|| {
            let mut n = 0;
            for m in &messages {
                n += PARSER
                    .parse(black_box(m), &mut fields)
                    .unwrap()
                    .complete()
                    .unwrap()
                    .fields()
                    .len();
            }
            n
        })
    });
    group.finish();
}

criterion_group!(benches, per_message, mixed);
criterion_main!(benches);
