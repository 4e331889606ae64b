//! A typed answer through a session's `Outbox` against the bytes path, with the
//! same ExecutionReport (a fill: 17 fields, a component and an instrument):
//!
//! - `typed send`: `Outbox::send(&report)`, the builder encoded straight into
//!   the outbox;
//! - `send_body pre-encoded`: `Outbox::send_body` of the same body encoded
//!   beforehand (the floor: a copy);
//! - `encode + send_body`: the body encoded into a stack buffer, then
//!   `send_body` (what an application did by hand with `Encoder::fields`);
//! - `whole message + parse + copy`: what the executor example did before typed
//!   sends: the whole message encoded behind a placeholder header, parsed again,
//!   and its body fields copied out (`body_of`).
//!
//! Before timing, it checks that every path queues the same bytes and that a
//! typed send allocates nothing once the outbox has grown (fix-test-support's
//! counting allocator).
//!
//! `cargo bench -p fix-benches --bench outbox`; the same paths' instructions:
//! `probe send-typed/send-encoded execution_report 1000` under callgrind.

use criterion::{Criterion, criterion_group, criterion_main};
use fix_benches::outbox::{body_of_whole, encode_body, fill, placeholder_header};
use fix_session::Outbox;
use fix_test_support::alloc::{Counting, allocations_during};
use std::hint::black_box;

#[global_allocator]
static GLOBAL: Counting = Counting;

fn outbox(c: &mut Criterion) {
    let report = fill();
    let header = placeholder_header();
    let mut buf = [0u8; 1024];
    let pre = encode_body(&report, &mut buf).to_vec();

    // Every path queues the same message, and a typed send allocates nothing.
    let mut out = Outbox::default();
    out.send(&report).unwrap();
    out.send_body(b"8", &pre);
    out.send_body(b"8", &body_of_whole(&report, &header));
    let queued: Vec<_> = out.queued().collect();
    assert!(
        queued.iter().all(|m| *m == (&b"8"[..], &pre[..])),
        "{queued:?}"
    );
    out.clear();
    let allocations = allocations_during(|| {
        for _ in 0..1000 {
            out.send(black_box(&report)).unwrap();
            out.clear();
        }
    });
    assert_eq!(allocations, 0, "a typed send allocated");
    println!(
        "typed send: {} body bytes, 0 allocations in 1000 sends",
        pre.len()
    );

    let mut g = c.benchmark_group("outbox ExecutionReport");
    g.bench_function("typed send", |b| {
        b.iter(|| {
            out.send(black_box(&report)).unwrap();
            out.clear();
        })
    });
    g.bench_function("send_body pre-encoded", |b| {
        b.iter(|| {
            out.send_body(b"8", black_box(&pre));
            out.clear();
        })
    });
    g.bench_function("encode + send_body", |b| {
        b.iter(|| {
            let mut buf = [0u8; 1024];
            out.send_body(b"8", encode_body(black_box(&report), &mut buf));
            out.clear();
        })
    });
    g.bench_function("whole message + parse + copy", |b| {
        b.iter(|| {
            out.send_body(b"8", &body_of_whole(black_box(&report), &header));
            out.clear();
        })
    });
    g.finish();
}

criterion_group!(benches, outbox);
criterion_main!(benches);
