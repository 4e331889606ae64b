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
//! `cargo bench -p fix-benches --bench outbox`

use criterion::{Criterion, criterion_group, criterion_main};
use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Encoder, Fields, Parser, typed::MessageBody};
use fix_session::{Outbox, is_header_or_trailer};
use fix_test_support::alloc::{Counting, allocations_during};
use fix44::components::{HeaderBuilder, HeaderRequired, InstrumentBuilder, OrderQtyDataBuilder};
use fix44::enums::{ExecType, OrdStatus, Side};
use fix44::messages::{ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired};
use std::hint::black_box;

#[global_allocator]
static GLOBAL: Counting = Counting;

fn s(text: &str) -> FixStr<'_> {
    FixStr::parse(text.as_bytes()).unwrap()
}

fn d(text: &str) -> Decimal {
    Decimal::parse(text.as_bytes()).unwrap()
}

/// The fill the executor example answers a limit order with.
fn fill() -> ExecutionReportBuilder<'static> {
    let (qty, px) = (d("100"), d("25.5"));
    ExecutionReportBuilder {
        cl_ord_id: Some(s("CL-1790000000-1")),
        price: Some(px),
        last_qty: Some(qty),
        last_px: Some(px),
        transact_time: Some(UtcTimestamp::parse(b"20260921-14:13:20.123").unwrap()),
        text: Some(s("filled")),
        instrument: Some(InstrumentBuilder {
            symbol: Some(s("MSFT")),
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(qty),
            ..Default::default()
        }),
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: s("EX-1790000000-1"),
            exec_id: s("EX-1790000000-1-2"),
            exec_type: ExecType::Trade,
            ord_status: OrdStatus::Filled,
            side: Side::Buy,
            leaves_qty: Decimal::ZERO,
            cum_qty: qty,
            avg_px: px,
        })
    }
}

/// The body encoded into `buf`.
fn encode_body<'b>(report: &ExecutionReportBuilder<'_>, buf: &'b mut [u8]) -> &'b [u8] {
    let mut enc = Encoder::fields(buf);
    report.write_body(&mut enc).unwrap();
    enc.finish().unwrap()
}

/// The path before typed sends: the whole message behind a placeholder
/// header, parsed again, its body fields copied out.
fn body_of_whole(report: &ExecutionReportBuilder<'_>, header: &HeaderBuilder<'_>) -> Vec<u8> {
    let mut buf = [0u8; 1024];
    let bytes = report.encode(header, &mut buf).unwrap();
    let mut fields = Fields::<256>::new();
    let msg = Parser::new()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let mut body = Vec::with_capacity(bytes.len());
    for (tag, value) in msg.iter().filter(|(t, _)| !is_header_or_trailer(*t)) {
        body.extend_from_slice(tag.to_string().as_bytes());
        body.push(b'=');
        body.extend_from_slice(value);
        body.push(fix_core::SOH);
    }
    body
}

fn outbox(c: &mut Criterion) {
    let report = fill();
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("-"),
        target_comp_id: s("-"),
        msg_seq_num: SeqNum(1),
        sending_time: UtcTimestamp::parse(b"20260921-14:13:20").unwrap(),
    });
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
