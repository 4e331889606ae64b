//! A minimal timing loop for profilers: runs one operation on one corpus message
//! many times and prints the best batch's time per iteration. Criterion's harness
//! gets in the way of `perf record` and `valgrind --tool=callgrind` (which counts
//! instructions, repeatable even on a busy machine); this does not.
//!
//! ```text
//! cargo build --release -p fix-benches --example probe
//! valgrind --tool=callgrind target/release/examples/probe parse execution_report 1000
//! target/release/examples/probe naive execution_report 5000
//! ```

use fix_benches::{corpus, naive_split};
use fix_core::{Fields, Parser};
use std::hint::black_box;
use std::time::Instant;

const BATCHES: usize = 200;

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(what), Some(stem), Some(n)) = (args.next(), args.next(), args.next()) else {
        eprintln!("usage: probe <parse|frame|naive|validate> <corpus stem> <iterations per batch>");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("iterations is a number");
    let bytes = corpus(&stem);
    let parser = Parser::new();
    let mut fields = Fields::<256>::new();
    let mut split = [(0u32, 0u32, 0u32); 256];
    let dict = (what == "validate").then(|| {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/reference/quickfix/spec/FIX44.xml");
        fix_codegen::model::Dictionary::from_path(path).unwrap()
    });
    let validator = fix_core::validate::Validator::new();
    let mut op = |bytes: &[u8]| -> usize {
        match what.as_str() {
            "validate" => {
                let msg = parser
                    .parse(bytes, &mut fields)
                    .unwrap()
                    .complete()
                    .unwrap();
                validator
                    .validate(dict.as_ref().unwrap(), &msg)
                    .map_or(0, |()| 1)
            }
            "parse" => parser
                .parse(bytes, &mut fields)
                .unwrap()
                .complete()
                .unwrap()
                .fields()
                .len(),
            "frame" => parser.frame(bytes).unwrap().complete().unwrap().len(),
            "naive" => naive_split(bytes, &mut split),
            other => panic!("unknown operation {other}"),
        }
    };
    let mut best = f64::MAX;
    let mut check = 0;
    for _ in 0..BATCHES {
        let start = Instant::now();
        for _ in 0..n {
            check += op(black_box(&bytes));
        }
        best = best.min(start.elapsed().as_nanos() as f64 / n as f64);
    }
    println!("{what} {stem}: {best:.1} ns per iteration, best of {BATCHES} batches ({check})");
}
