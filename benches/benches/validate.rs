//! Parse + validate against our `spec/FIX44.xml`, as a dictionary loaded at run time
//! and as the tables generated into `fix44`, beside parse alone, in the same group;
//! each also through `validate_cached` (a warm shape cache: values checked alone).
//!
//! `cargo bench -p fix-benches --bench validate`

use criterion::{Criterion, criterion_group, criterion_main};
use fix_benches::{MESSAGES, corpus};
use fix_core::validate::{ShapeCache, Validator};
use fix_core::{Fields, Parser};
use fix_dict::Dictionary;
use std::hint::black_box;
use std::path::PathBuf;

fn validate(c: &mut Criterion) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec/FIX44.xml");
    let dict = Dictionary::from_path(&path).unwrap();
    let parser = Parser::new();
    let validator = Validator::new();
    for (label, stem) in MESSAGES {
        let bytes = corpus(stem);
        let mut fields = Fields::<128>::new();
        let msg = parser
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        assert_eq!(validator.validate(&dict, &msg), Ok(()));
        assert_eq!(validator.validate(&fix44::DICTIONARY, &msg), Ok(()));

        let mut group = c.benchmark_group(format!("validate/{label}"));
        group.bench_function("parse", |b| {
            b.iter(|| {
                let msg = parser.parse(black_box(&bytes), &mut fields).unwrap();
                msg.complete().unwrap().fields().len()
            })
        });
        group.bench_function("parse + validate (run-time dictionary)", |b| {
            b.iter(|| {
                let msg = parser.parse(black_box(&bytes), &mut fields).unwrap();
                validator.validate(&dict, &msg.complete().unwrap()).is_ok()
            })
        });
        group.bench_function("parse + validate (generated fix44 tables)", |b| {
            b.iter(|| {
                let msg = parser.parse(black_box(&bytes), &mut fields).unwrap();
                validator
                    .validate(&fix44::DICTIONARY, &msg.complete().unwrap())
                    .is_ok()
            })
        });
        let mut cache = ShapeCache::<8, 128>::new();
        group.bench_function("parse + validate_cached (run-time dictionary)", |b| {
            b.iter(|| {
                let msg = parser.parse(black_box(&bytes), &mut fields).unwrap();
                validator
                    .validate_cached(&dict, &msg.complete().unwrap(), &mut cache)
                    .is_ok()
            })
        });
        let mut cache = ShapeCache::<8, 128>::new();
        group.bench_function("parse + validate_cached (generated fix44 tables)", |b| {
            b.iter(|| {
                let msg = parser.parse(black_box(&bytes), &mut fields).unwrap();
                validator
                    .validate_cached(&fix44::DICTIONARY, &msg.complete().unwrap(), &mut cache)
                    .is_ok()
            })
        });
        group.finish();
    }
}

criterion_group!(benches, validate);
criterion_main!(benches);
