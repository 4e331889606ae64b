//! Framing and parsing never touch the heap: counted with a counting allocator.

mod common;

use fix_test_support::alloc::{Counting, allocations_during};

use fix_core::{Fields, Parser};

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn framing_and_parsing_the_corpus_allocates_nothing() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let corpus = common::corpus();
    let stream: Vec<u8> = corpus.iter().flat_map(|(_, b)| b.clone()).collect();
    let parser = Parser::new();
    let mut fields = Fields::<128>::new();
    let mut seen = 0;
    let n = allocations_during(|| {
        for _ in 0..100 {
            let mut rest = &stream[..];
            while !rest.is_empty() {
                let frame = parser.frame(rest).unwrap().complete().unwrap();
                let msg = parser.parse(rest, &mut fields).unwrap().complete().unwrap();
                assert_eq!(msg.fields().len() > 4, frame.len() > 80);
                seen += msg.fields().len();
                rest = &rest[frame.len()..];
            }
        }
    });
    assert_eq!(n, 0, "allocations while framing and parsing");
    assert!(seen > 0);
    // The counter works: a Vec does allocate.
    assert_eq!(allocations_during(|| drop(vec![0u8; 16])), 1);
}

#[test]
fn errors_allocate_nothing_either() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let parser = Parser::new();
    let mut fields = Fields::<4>::new();
    let er = common::corpus_message("execution_report");
    let n = allocations_during(|| {
        assert!(parser.parse(&er, &mut fields).is_err());
        assert!(parser.frame(b"garbage 8=FIX").is_err());
        assert!(parser.frame(&er[..200]).unwrap().complete().is_none());
    });
    assert_eq!(n, 0);
}

#[test]
fn encoding_allocates_nothing() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    use fix_core::value::{Decimal, SeqNum, UtcTimestamp};
    let expected = common::corpus_message("heartbeat");
    let sending_time = UtcTimestamp::parse(b"20261130-14:03:27.123456").unwrap();
    let price = Decimal::parse(b"187.2500").unwrap();
    let mut buf = [0u8; 256];
    let n = allocations_during(|| {
        for _ in 0..100 {
            let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"0");
            enc.field(34, &SeqNum(1208)).unwrap();
            enc.raw(49, b"BROKER").unwrap();
            enc.field(52, &sending_time).unwrap();
            enc.raw(56, b"CLIENT").unwrap();
            assert_eq!(enc.finish().unwrap(), &expected[..]);
            let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"D");
            enc.field(44, &price).unwrap();
            enc.data(95, 96, b"a\x01b").unwrap();
            assert!(enc.finish().is_ok());
        }
    });
    assert_eq!(n, 0, "allocations while encoding");
}
