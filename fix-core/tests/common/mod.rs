//! Shared by fix-core's integration tests: the corpus, message builders and the
//! naive reference parser (all from `fix-test-support`), and FIX 4.4's data field
//! pairs in the form that parser takes.
#![allow(dead_code, unused_imports, unreachable_pub)] // each test binary uses a different part

pub use fix_test_support::files::{corpus_dir, corpus_message};
pub use fix_test_support::naive::{Owned, SOH, build, build_with, fix_checksum, naive_parse, soh};

/// Every corpus message, by file stem, in name order.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let out = fix_test_support::files::corpus();
    assert_eq!(out.len(), 5, "the corpus has five messages");
    out
}

/// FIX 4.4's data field pairs, as the naive parser takes them.
pub fn fix44_pairs() -> Vec<(u32, u32)> {
    fix_core::FIX44_DATA_FIELDS
        .iter()
        .map(|p| (p.length, p.data))
        .collect()
}
