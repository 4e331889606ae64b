//! Encoding the corpus NewOrderSingle and ExecutionReport from typed values into a
//! caller's buffer, straight through fix-core's encoder and through fix44's generated
//! builders (`fix_benches::built`), with the naive split of the same messages (`fix_benches::naive_split`,
//! parsing with no checks at all) in the same group as the floor to compare against.
//!
//! `cargo bench -p fix-benches --bench encode`

use criterion::{Criterion, criterion_group, criterion_main};
use fix_benches::{ExecutionReport, NewOrderSingle, built, corpus, naive_split};
use std::hint::black_box;

fn encode(c: &mut Criterion) {
    let nos = NewOrderSingle::corpus();
    let er = ExecutionReport::corpus();
    let nos_bytes = corpus("new_order_single");
    let er_bytes = corpus("execution_report");
    let mut buf = [0u8; 512];
    // Each case checks its result once before timing: byte for byte the corpus file.
    assert_eq!(nos.encode(&mut buf).unwrap(), &nos_bytes[..]);
    assert_eq!(er.encode(&mut buf).unwrap(), &er_bytes[..]);
    // The builders write the same fields in the dictionary's order.
    assert_eq!(
        sorted_fields(built::new_order_single(&nos, &mut buf).unwrap()),
        sorted_fields(&nos_bytes)
    );
    assert_eq!(
        sorted_fields(built::execution_report(&er, &mut buf).unwrap()),
        sorted_fields(&er_bytes)
    );
    let mut split = [(0u32, 0u32, 0u32); 64];
    assert_eq!(naive_split(&nos_bytes, &mut split), 22);
    assert_eq!(naive_split(&er_bytes, &mut split), 33);

    let mut group = c.benchmark_group("encode");
    group.bench_function("NewOrderSingle", |b| {
        b.iter(|| black_box(&nos).encode(&mut buf).unwrap().len())
    });
    group.bench_function("NewOrderSingle/typed builders", |b| {
        b.iter(|| {
            built::new_order_single(black_box(&nos), &mut buf)
                .unwrap()
                .len()
        })
    });
    group.bench_function("NewOrderSingle/floor: naive split", |b| {
        b.iter(|| naive_split(black_box(&nos_bytes), &mut split))
    });
    group.bench_function("ExecutionReport", |b| {
        b.iter(|| black_box(&er).encode(&mut buf).unwrap().len())
    });
    group.bench_function("ExecutionReport/typed builders", |b| {
        b.iter(|| {
            built::execution_report(black_box(&er), &mut buf)
                .unwrap()
                .len()
        })
    });
    group.bench_function("ExecutionReport/floor: naive split", |b| {
        b.iter(|| naive_split(black_box(&er_bytes), &mut split))
    });
    group.finish();
}

/// A message's fields as `tag=value` texts, sorted: equal for the same fields in any
/// order.
fn sorted_fields(msg: &[u8]) -> Vec<Vec<u8>> {
    let mut fields: Vec<Vec<u8>> = msg.split(|&b| b == 1).map(<[u8]>::to_vec).collect();
    fields.sort();
    fields
}

criterion_group!(benches, encode);
criterion_main!(benches);
