//! Every corpus message frames and parses, with the right fields and values.

use crate::common::*;
use fix_core::{Fields, Parser, Status};

#[test]
fn every_corpus_message_frames_and_parses_like_the_reference() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let parser = Parser::new();
    for (name, bytes) in corpus() {
        let frame = parser.frame(&bytes).unwrap().complete().unwrap();
        assert_eq!(frame.len(), bytes.len(), "{name}");
        assert_eq!(frame.begin_string(), b"FIX.4.4", "{name}");

        let mut fields = Fields::<128>::new();
        let msg = parser
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let ours: Vec<(u32, Vec<u8>)> = msg.iter().map(|(t, v)| (t, v.to_vec())).collect();
        let reference = naive_parse(&bytes, &fix44_pairs(), usize::MAX).expect(&name);
        assert_eq!(ours, reference, "{name}");
    }
}

#[test]
fn execution_report_fields_and_values() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let bytes = corpus_message("execution_report");
    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(bytes.len(), 339);
    assert_eq!(msg.fields().len(), 33);
    assert_eq!(msg.msg_type(), b"8");
    let expect: &[(u32, &str)] = &[
        (8, "FIX.4.4"),
        (9, "316"),
        (35, "8"),
        (34, "1207"),
        (52, "20261130-14:03:27.123456"),
        (11, "CL-2026-000451"),
        (44, "187.2500"),
        (31, "187.2450"),
        (58, "Partial fill"),
        (10, "149"),
    ];
    for &(tag, value) in expect {
        assert_eq!(msg.get(tag), Some(value.as_bytes()), "tag {tag}");
    }
    assert_eq!(msg.frame().checksum(), 149);
    let tags: Vec<u32> = msg.iter().map(|(t, _)| t).collect();
    assert_eq!(&tags[..4], [8, 9, 35, 34]);
    assert_eq!(tags.last(), Some(&10));
}

#[test]
fn logon_raw_data_holds_soh() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let bytes = corpus_message("logon_rawdata");
    let mut fields = Fields::<32>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(msg.get(95), Some(&b"12"[..]));
    assert_eq!(msg.get(96), Some(&b"bin\x01ary\x01data"[..]));
    assert_eq!(msg.get(141), Some(&b"Y"[..]));
    assert_eq!(msg.get(554), Some(&b"s3cret"[..]));
}

#[test]
fn market_data_group_entries_are_kept_in_order() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let bytes = corpus_message("md_incremental_refresh");
    let mut fields = Fields::<128>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(msg.get(268), Some(&b"10"[..]));
    let prices: Vec<&[u8]> = msg.get_all(270).collect();
    assert_eq!(prices.len(), 10);
    assert_eq!(prices[0], b"1.08005");
    assert_eq!(prices[9], b"1.08095");
    let ids: Vec<&[u8]> = msg.get_all(290).collect();
    assert_eq!(ids.last(), Some(&&b"10"[..]));
}

#[test]
fn the_whole_corpus_as_one_stream_split_at_every_position() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let stream: Vec<u8> = corpus().into_iter().flat_map(|(_, b)| b).collect();
    let expected: Vec<Vec<u8>> = corpus().into_iter().map(|(_, b)| b).collect();
    for split in 0..=stream.len() {
        let got = read_stream(&[&stream[..split], &stream[split..]]);
        assert_eq!(got, expected, "split at {split}");
    }
}

/// A reader that receives `chunks` one after another and yields each message.
fn read_stream(chunks: &[&[u8]]) -> Vec<Vec<u8>> {
    let parser = Parser::new();
    let mut pending = Vec::new();
    let mut out = Vec::new();
    for chunk in chunks {
        pending.extend_from_slice(chunk);
        loop {
            let mut fields = Fields::<128>::new();
            match parser.parse(&pending, &mut fields).unwrap() {
                Status::Complete(msg) => {
                    let n = msg.bytes().len();
                    out.push(msg.bytes().to_vec());
                    pending.drain(..n);
                }
                Status::Partial { .. } => break,
            }
        }
    }
    assert!(pending.is_empty());
    out
}
