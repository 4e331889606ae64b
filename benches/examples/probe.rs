//! A minimal timing loop for profilers: runs one operation on one corpus message
//! many times and prints the best batch's time per iteration. Criterion's harness
//! gets in the way of `perf record` and `valgrind --tool=callgrind` (which counts
//! instructions, repeatable even on a busy machine); this does not.
//!
//! ```text
//! cargo build --profile bench -p fix-benches --example probe
//! valgrind --tool=callgrind target/release/examples/probe parse execution_report 1000
//! target/release/examples/probe naive execution_report 5000
//! target/release/examples/probe encode new_order_single 5000
//! ```
//!
//! Two operations joined by `/` run interleaved, batch by batch, and print each
//! one's best and their ratio: `probe parse/naive execution_report 2000`. On a
//! machine whose speed drifts from minute to minute, that ratio holds steadier
//! than two benchmarks run one after the other.
//!
//! The stem `stream` times `parse` and `naive` over 64 messages drawn at random
//! (fixed seed) from four corpus messages, per message:
//! `probe parse/naive stream 200` is the ratio without a branch predictor that has
//! learnt a single message.
//!
//! `decimal` writes a decimal given in place of the stem, at its own scale or at
//! `@dp`: `probe decimal -124.3456@2 5000`.
//!
//! `message` is parse and fix44's `Message::new` (the view of any corpus message,
//! by MsgType); `view` is parse and fix44's `ExecutionReport::new`; `reads` the same and then
//! [`five_reads`](fix_benches::typed::five_reads) 100 times over the view (its
//! instructions less `view`'s, divided by 100, are the five reads'); `typed` parse,
//! view and the five reads once, as an application reads a report.
//!
//! `encode` writes the corpus message (`new_order_single` or `execution_report`) from
//! typed values with fix-core's encoder (`fix_benches::NewOrderSingle::encode`);
//! `encode-built` the same fields through fix44's builders (`fix_benches::built`).
//!
//! `send-typed`, `send-encoded`, `send-pre` and `send-whole` queue the fill
//! ExecutionReport of [`fix_benches::outbox`] in a session's `Outbox` by each path
//! (`Outbox::send` of the builder; the body encoded, then `send_body`; `send_body`
//! of a body encoded once beforehand; the whole message encoded, parsed and its
//! body copied), whatever the stem.
//!
//! With `--features peers`, `probe case <group/lib> <n>` runs one case of
//! `fix_benches::peers` (ours or a peer, exactly as the `peers` bench times it), e.g.
//! `probe case "decode+validate/ExecutionReport/fefix" 1000`; `probe case list 0`
//! prints the names. `--features quickfix` adds the QuickFIX C++ cases, e.g.
//! `probe case "decode+validate/ExecutionReport/QuickFIX C++" 1000`.

use fix_benches::{ExecutionReport, NewOrderSingle, corpus, naive_split};
use fix_core::{Fields, Message, Parser};
use std::hint::black_box;
use std::time::Instant;

const BATCHES: usize = 200;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(what), Some(stem), Some(n)) = (args.next(), args.next(), args.next()) else {
        eprintln!(
            "usage: probe <parse|frame|naive|validate|validate-cached|validate-gen|view|message|reads|typed|mdwalk|mdstream|mdflat|encode|encode-built|send-typed|send-encoded|send-pre|send-whole>[/<another>] <corpus stem | stream> <iterations per batch>\n       probe decimal <value[@dp]> <iterations per batch>\n       probe case <group/lib | list> <iterations per batch>"
        );
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("iterations is a number");
    if what == "case" {
        #[cfg(feature = "peers")]
        return run_case(&stem, n);
        #[cfg(not(feature = "peers"))]
        {
            eprintln!("probe: `case` times the peers: build with `--features peers`");
            std::process::exit(2);
        }
    }
    if what == "decimal" {
        return write_decimal(&stem, n);
    }
    // `stream`: a fixed pseudo-random sequence of the four plain corpus messages, so
    // that branchy code is timed without a predictor that has learnt one message.
    let stream = (stem == "stream").then(random_stream);
    let bytes = match &stream {
        Some(_) => Vec::new(),
        None => corpus(&stem),
    };
    let parser = Parser::new();
    let mut fields = Fields::<256>::new();
    let mut split = [(0u32, 0u32, 0u32); 256];
    let mut cache = fix_core::validate::ShapeCache::<8, 128>::new();
    let dict = what.contains("validate").then(|| {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec/FIX44.xml");
        fix_dict::Dictionary::from_path(path).unwrap()
    });
    let validator = fix_core::validate::Validator::new();
    let nos = NewOrderSingle::corpus();
    let er = ExecutionReport::corpus();
    let mut out = [0u8; 512];
    let report = fix_benches::outbox::fill();
    let pre_encoded = fix_benches::outbox::encode_body(&report, &mut [0u8; 1024]).to_vec();
    let mut outbox = fix_session::Outbox::default();
    let mut op = |what: &str, bytes: &[u8]| -> usize {
        if let Some(messages) = &stream {
            return match what {
                "parse" => messages
                    .iter()
                    .map(|m| parse(&parser, black_box(m), &mut fields).fields().len())
                    .sum(),
                "naive" => messages
                    .iter()
                    .map(|m| naive_split(black_box(m), &mut split))
                    .sum(),
                other => panic!("`stream` times parse and naive, not {other}"),
            };
        }
        match what {
            "validate" => {
                let msg = parse(&parser, bytes, &mut fields);
                validator
                    .validate(dict.as_ref().unwrap(), &msg)
                    .map_or(0, |()| 1)
            }
            "validate-cached" => {
                let msg = parse(&parser, bytes, &mut fields);
                validator
                    .validate_cached(dict.as_ref().unwrap(), &msg, &mut cache)
                    .map_or(0, |()| 1)
            }
            "validate-gen" => {
                let msg = parse(&parser, bytes, &mut fields);
                validator
                    .validate(&fix44::DICTIONARY, &msg)
                    .map_or(0, |()| 1)
            }
            "view" => {
                let msg = parse(&parser, bytes, &mut fields);
                let er = fix44::messages::ExecutionReport::new(msg);
                black_box(&er);
                1
            }
            "message" => {
                // Any corpus message's view, through fix44's dispatch on MsgType.
                let msg = parse(&parser, bytes, &mut fields);
                let m = fix44::Message::new(msg);
                black_box(&m);
                1
            }
            "reads" => {
                let msg = parse(&parser, bytes, &mut fields);
                let er = fix44::messages::ExecutionReport::new(msg);
                let mut n = 0;
                for _ in 0..100 {
                    n += fix_benches::typed::five_reads(black_box(&er)) as usize;
                }
                n
            }
            "typed" => {
                // Issue 36's whole typed read: parse, view, five getters, once.
                let msg = parse(&parser, bytes, &mut fields);
                let er = fix44::messages::ExecutionReport::new(msg);
                fix_benches::typed::five_reads(black_box(&er)) as usize
            }
            "mdwalk" => {
                let msg = parse(&parser, bytes, &mut fields);
                let md = fix44::messages::MarketDataIncrementalRefresh::new(msg);
                fix_benches::typed::walk(&md) as usize
            }
            "mdstream" => {
                let msg = parse(&parser, bytes, &mut fields);
                fix_benches::typed::stream(msg) as usize
            }
            "mdflat" => {
                let msg = parse(&parser, bytes, &mut fields);
                fix_benches::typed::flat(&msg) as usize
            }
            send if send.starts_with("send-") => fix_benches::outbox::answer(
                &send["send-".len()..],
                black_box(&report),
                &pre_encoded,
                &mut outbox,
            ),
            "parse" => parse(&parser, bytes, &mut fields).fields().len(),
            "frame" => parser.frame(bytes).unwrap().complete().unwrap().len(),
            "naive" => naive_split(bytes, &mut split),
            "encode" => match stem.as_str() {
                "new_order_single" => black_box(&nos).encode(&mut out).unwrap().len(),
                "execution_report" => black_box(&er).encode(&mut out).unwrap().len(),
                other => panic!("no typed values for {other}"),
            },
            "encode-built" => match stem.as_str() {
                "new_order_single" => {
                    fix_benches::built::new_order_single(black_box(&nos), &mut out)
                        .unwrap()
                        .len()
                }
                "execution_report" => {
                    fix_benches::built::execution_report(black_box(&er), &mut out)
                        .unwrap()
                        .len()
                }
                other => panic!("no typed values for {other}"),
            },
            other => panic!("unknown operation {other}"),
        }
    };
    if let Some((a, b)) = what.split_once('/') {
        let (best_a, best_b) = interleaved(&mut op, a, b, &bytes, n);
        println!(
            "{a} {stem}: {best_a:.1} ns, {b}: {best_b:.1} ns, {a}/{b} = {:.3} (best of {BATCHES} interleaved batches each)",
            best_a / best_b
        );
        return;
    }
    let (best, check) = timed(&mut |bytes| op(&what, bytes), &bytes, n);
    println!("{what} {stem}: {best:.1} ns per iteration, best of {BATCHES} batches ({check})");
}

/// Runs operations `a` and `b` in alternating batches of `n`; the best batch's
/// time per iteration of each.
fn interleaved(
    op: &mut impl FnMut(&str, &[u8]) -> usize,
    a: &str,
    b: &str,
    bytes: &[u8],
    n: usize,
) -> (f64, f64) {
    let mut best = [f64::MAX; 2];
    let mut check = 0;
    for _ in 0..BATCHES {
        for (i, what) in [a, b].into_iter().enumerate() {
            let start = Instant::now();
            for _ in 0..n {
                check += op(what, black_box(bytes));
            }
            best[i] = best[i].min(start.elapsed().as_nanos() as f64 / n as f64);
        }
    }
    black_box(check);
    (best[0], best[1])
}

/// 64 messages drawn from ExecutionReport, NewOrderSingle,
/// MarketDataIncrementalRefresh and Heartbeat by a fixed xorshift sequence.
fn random_stream() -> Vec<Vec<u8>> {
    let stems = [
        "execution_report",
        "new_order_single",
        "md_incremental_refresh",
        "heartbeat",
    ];
    let messages: Vec<Vec<u8>> = stems.iter().map(|s| corpus(s)).collect();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    (0..64)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            messages[(x % 4) as usize].clone()
        })
        .collect()
}

/// A complete message from `bytes` (corpus messages always are).
fn parse<'a>(
    parser: &Parser<'_>,
    bytes: &'a [u8],
    fields: &'a mut [fix_core::Field],
) -> Message<'a> {
    parser.parse(bytes, fields).unwrap().complete().unwrap()
}

/// The timed part alone, for `valgrind --tool=callgrind --toggle-collect='*timed*'`
/// (which leaves out loading the dictionaries).
#[inline(never)]
fn timed(op: &mut impl FnMut(&[u8]) -> usize, bytes: &[u8], n: usize) -> (f64, usize) {
    let mut best = f64::MAX;
    let mut check = 0;
    for _ in 0..BATCHES {
        let start = Instant::now();
        for _ in 0..n {
            check += op(black_box(bytes));
        }
        best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
    }
    (best, check)
}

/// `probe decimal <value[@dp]> <n>`: `Decimal::write` (own scale) or `write_scaled`.
fn write_decimal(spec: &str, n: usize) {
    let (text, dp) = match spec.split_once('@') {
        Some((t, dp)) => (t, Some(dp.parse::<u8>().expect("dp is a number"))),
        None => (spec, None),
    };
    let d = fix_core::value::Decimal::parse(text.as_bytes()).expect("a decimal");
    let mut out = [0u8; 64];
    let mut best = f64::MAX;
    let mut check = 0;
    for _ in 0..BATCHES {
        let start = Instant::now();
        for _ in 0..n {
            let d = black_box(&d);
            check += match dp {
                Some(dp) => d.write_scaled(black_box(dp), &mut out),
                None => d.write(&mut out),
            }
            .unwrap();
            black_box(&mut out);
        }
        best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("decimal {spec}: {best:.1} ns per iteration, best of {BATCHES} batches ({check})");
}

#[cfg(feature = "peers")]
fn run_case(id: &str, n: usize) {
    let mut cases = fix_benches::peers::cases();
    if id == "list" {
        cases.iter().for_each(|c| println!("{}", c.id()));
        return;
    }
    if id == "all" {
        // One timed loop per case, in order: under callgrind with
        // `--dump-after='*timed_loop*'` each case gets its own dump.
        for case in &mut cases {
            let (best, check) = timed_loop(case, n);
            println!("{}\t{best:.1}\t{check}", case.id());
        }
        return;
    }
    let case = cases
        .iter_mut()
        .find(|c| c.id() == id)
        .unwrap_or_else(|| panic!("no case {id}; try `probe case list 0`"));
    let (best, check) = timed_loop(case, n);
    println!("{id}: {best:.1} ns per iteration, best of {BATCHES} batches ({check})");
}

/// The timed part alone, for `valgrind --tool=callgrind --toggle-collect='*timed_loop*'`
/// (which leaves out loading the dictionaries).
#[cfg(feature = "peers")]
#[inline(never)]
fn timed_loop(case: &mut fix_benches::peers::Case, n: usize) -> (f64, u64) {
    let mut best = f64::MAX;
    let mut check = 0u64;
    for _ in 0..BATCHES {
        let start = Instant::now();
        for _ in 0..n {
            check = check.wrapping_add(black_box(case.run()));
        }
        best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
    }
    (best, check)
}
