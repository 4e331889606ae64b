//! Typed reads through the generated fix44 views, beside the floors in the same
//! run: parsing alone, and a naive split of the same bytes into a fixed array.
//!
//! - ExecutionReport: building the view (one pass that fills its slot table), and
//!   five getters on a built view (ClOrdID, Side, LastPx, LastQty, OrderQty).
//! - MarketDataIncrementalRefresh, 10 entries, reading MDUpdateAction,
//!   MDEntryType, Symbol, MDEntryPx and MDEntrySize of every entry: parse plus the
//!   group's streaming walk straight from the message; parse plus the view and the
//!   entry views' getters; and `mdflat`, the floor under both: parse plus one bare
//!   pass over the fields converting the same values by tag.
//!
//! `cargo bench -p fix-benches --bench typed`

use criterion::{Criterion, criterion_group, criterion_main};
use fix_benches::typed::{five_reads, flat, stream, walk};
use fix_benches::{corpus, naive_split};
use fix_core::value::Decimal;
use fix_core::{Fields, Message, Parser};
use fix44::enums::Side;
use fix44::messages::{ExecutionReport, MarketDataIncrementalRefresh};
use std::hint::black_box;

fn parse<'a, const N: usize>(bytes: &'a [u8], fields: &'a mut Fields<N>) -> Message<'a> {
    Parser::new()
        .parse(bytes, fields)
        .unwrap()
        .complete()
        .unwrap()
}

fn typed(c: &mut Criterion) {
    let er_bytes = corpus("execution_report");
    let md_bytes = corpus("md_incremental_refresh");
    let mut split = [(0u32, 0u32, 0u32); 256];

    // Check once what the timed loops read.
    {
        let mut fields = Fields::<64>::new();
        let er = ExecutionReport::new(parse(&er_bytes, &mut fields));
        assert_eq!(
            er.cl_ord_id().unwrap().unwrap().as_bytes(),
            b"CL-2026-000451"
        );
        assert_eq!(er.side().unwrap(), Side::Buy);
        assert_eq!(
            er.last_px().unwrap(),
            Some(Decimal::parse(b"187.2450").unwrap())
        );
        assert_eq!(
            er.last_qty().unwrap(),
            Some(Decimal::parse(b"1200").unwrap())
        );
        let order_qty = er.order_qty_data().order_qty().unwrap();
        assert_eq!(order_qty, Some(Decimal::parse(b"5000").unwrap()));
        let mut fields = Fields::<128>::new();
        let md = MarketDataIncrementalRefresh::new(parse(&md_bytes, &mut fields));
        assert_eq!(md.md_inc_grp().no_md_entries().count(), 10);
        let first = md.md_inc_grp().no_md_entries().next().unwrap();
        assert_eq!(
            first.md_entry_px().unwrap(),
            Some(Decimal::parse(b"1.08005").unwrap())
        );
        let sum = walk(&md);
        assert_eq!(stream(*md.message()), sum);
        assert_eq!(flat(md.message()), sum);
    }

    let mut group = c.benchmark_group("typed/ExecutionReport");
    group.bench_function("naive split (floor)", |b| {
        b.iter(|| naive_split(black_box(&er_bytes), &mut split))
    });
    let mut fields = Fields::<64>::new();
    group.bench_function("parse", |b| {
        b.iter(|| parse(black_box(&er_bytes), &mut fields).fields().len())
    });
    group.bench_function("parse + view", |b| {
        b.iter(|| {
            let er = ExecutionReport::new(parse(black_box(&er_bytes), &mut fields));
            black_box(er.message().fields().len())
        })
    });
    let mut fields = Fields::<64>::new();
    let er = ExecutionReport::new(parse(&er_bytes, &mut fields));
    group.bench_function("5 reads (view built)", |b| {
        b.iter(|| five_reads(black_box(&er)))
    });
    group.finish();

    let mut group = c.benchmark_group("typed/MarketDataIncrementalRefresh");
    group.bench_function("naive split (floor)", |b| {
        b.iter(|| naive_split(black_box(&md_bytes), &mut split))
    });
    let mut fields = Fields::<128>::new();
    group.bench_function("parse", |b| {
        b.iter(|| parse(black_box(&md_bytes), &mut fields).fields().len())
    });
    group.bench_function("mdflat: parse + bare pass (floor)", |b| {
        b.iter(|| flat(&parse(black_box(&md_bytes), &mut fields)))
    });
    group.bench_function("parse + streaming walk 10 entries", |b| {
        b.iter(|| stream(parse(black_box(&md_bytes), &mut fields)))
    });
    group.bench_function("parse + view + walk 10 entries", |b| {
        b.iter(|| {
            let md = MarketDataIncrementalRefresh::new(parse(black_box(&md_bytes), &mut fields));
            walk(&md)
        })
    });
    group.finish();
}

criterion_group!(benches, typed);
criterion_main!(benches);
