//! A bare timing loop for the typed paths (`cargo run --release -p fix-sample
//! --example sample_probe`): parse + view construction, five getters, a 10-entry group
//! walk, and a build. Prints nanoseconds per iteration.

use std::hint::black_box;
use std::time::Instant;

use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Fields, Parser};
use fix_sample::components::{
    HeaderBuilder, HeaderRequired, InstrumentBuilder, InstrumentRequired,
};
use fix_sample::enums::{ExecType, MdUpdateAction, OrdStatus, Side};
use fix_sample::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired, MarketDataIncrementalRefresh,
    MarketDataIncrementalRefreshBuilder, MarketDataIncrementalRefreshNoMdEntriesBuilder,
    MarketDataIncrementalRefreshNoMdEntriesRequired,
};

fn time(name: &str, iters: u32, mut f: impl FnMut()) {
    for _ in 0..iters / 10 {
        f();
    }
    let start = Instant::now();
    for _ in 0..iters {
        f();
    }
    let ns = start.elapsed().as_nanos() as f64 / f64::from(iters);
    println!("{name:<40} {ns:>8.1} ns");
}

fn main() {
    let s = |v: &'static str| FixStr::parse(v.as_bytes()).unwrap();
    let d = |v: &str| Decimal::parse(v.as_bytes()).unwrap();
    let now = UtcTimestamp::parse(b"20261130-12:30:45.123").unwrap();
    let header = HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("CLIENT"),
        target_comp_id: s("VENUE"),
        msg_seq_num: SeqNum(7),
        sending_time: now,
    });
    let er = ExecutionReportBuilder {
        cl_ord_id: Some(s("ORD-1")),
        last_qty: Some(d("40")),
        last_px: Some(d("101.5")),
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: s("O-9"),
            instrument: InstrumentBuilder::new(InstrumentRequired { symbol: s("AAPL") }),
            exec_id: s("E-1"),
            exec_type: ExecType::Trade,
            ord_status: OrdStatus::PartiallyFilled,
            side: Side::Sell,
            leaves_qty: d("60"),
            cum_qty: d("40"),
            avg_px: d("101.5"),
        })
    };
    let mut buf = [0u8; 1024];
    let er_bytes = er.encode(&header, &mut buf).unwrap().to_vec();
    let entries: Vec<_> = (0..10)
        .map(|i| MarketDataIncrementalRefreshNoMdEntriesBuilder {
            md_entry_px: Some(d(&format!("1.08{i}"))),
            md_entry_size: Some(d("1000000")),
            ..MarketDataIncrementalRefreshNoMdEntriesBuilder::new(
                MarketDataIncrementalRefreshNoMdEntriesRequired {
                    md_update_action: MdUpdateAction::New,
                },
            )
        })
        .collect();
    let md = MarketDataIncrementalRefreshBuilder {
        md_req_id: None,
        no_md_entries: &entries,
    };
    let md_bytes = md.encode(&header, &mut buf).unwrap().to_vec();

    let parser = Parser::new().with_data_fields(fix_sample::DATA_FIELDS);
    let mut fields = Fields::<128>::new();
    time("ExecutionReport: parse", 1_000_000, || {
        let msg = parser.parse(black_box(&er_bytes), &mut fields).unwrap();
        black_box(msg.complete());
    });
    time("ExecutionReport: parse + view", 1_000_000, || {
        let msg = parser
            .parse(black_box(&er_bytes), &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        black_box(ExecutionReport::new(msg));
    });
    let msg = parser
        .parse(&er_bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let view = ExecutionReport::new(msg);
    time("ExecutionReport: 5 typed getters", 10_000_000, || {
        let v = black_box(&view);
        let _ = black_box((
            v.cl_ord_id(),
            v.side(),
            v.last_px(),
            v.last_qty(),
            v.order_qty_data().order_qty(),
        ));
    });
    let mut fields = Fields::<128>::new();
    time("MDIncRefresh x10: parse + view + walk", 1_000_000, || {
        let msg = parser
            .parse(black_box(&md_bytes), &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let md = MarketDataIncrementalRefresh::new(msg);
        for e in md.no_md_entries() {
            let _ = black_box((e.md_update_action(), e.md_entry_px(), e.md_entry_size()));
        }
    });
    let mut out = [0u8; 1024];
    time("ExecutionReport: build + encode", 1_000_000, || {
        black_box(black_box(&er).encode(&header, &mut out).unwrap().len());
    });
}
