//! Encoding the corpus NewOrderSingle from typed values into a caller's buffer.
//!
//! `cargo bench -p fix-benches --bench encode`

use criterion::{Criterion, criterion_group, criterion_main};
use fix_benches::{NewOrderSingle, corpus};
use std::hint::black_box;

fn encode(c: &mut Criterion) {
    let nos = NewOrderSingle::corpus();
    let expected = corpus("new_order_single");
    let mut buf = [0u8; 512];
    assert_eq!(nos.encode(&mut buf).unwrap(), &expected[..]);

    let mut group = c.benchmark_group("encode");
    group.bench_function("NewOrderSingle", |b| {
        b.iter(|| black_box(&nos).encode(&mut buf).unwrap().len())
    });
    group.finish();
}

criterion_group!(benches, encode);
criterion_main!(benches);
