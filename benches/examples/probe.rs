use fix_benches::{corpus, naive_split};
use fix_core::{Fields, Parser};
use std::hint::black_box;
fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap();
    let stem = args.next().unwrap();
    let n: usize = args.next().unwrap().parse().unwrap();
    let bytes = corpus(&stem);
    let mut fields = Fields::<128>::new();
    let mut split = [(0u32, 0u32, 0u32); 128];
    let mut acc = 0;
    let mut best = f64::MAX;
    for _ in 0..200 {
        let t = std::time::Instant::now();
        for _ in 0..n {
            acc += match what.as_str() {
                "parse" => Parser::new()
                    .parse(black_box(&bytes), &mut fields)
                    .unwrap()
                    .complete()
                    .unwrap()
                    .fields()
                    .len(),
                "frame" => Parser::new()
                    .frame(black_box(&bytes))
                    .unwrap()
                    .complete()
                    .unwrap()
                    .len(),
                "naive" => naive_split(black_box(&bytes), &mut split),
                _ => panic!(),
            };
        }
        best = best.min(t.elapsed().as_nanos() as f64 / n as f64);
    }
    eprintln!("{what} {stem}: {:.1} ns/iter min ({acc})", best);
}
