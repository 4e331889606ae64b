//! One test per class of malformed input: each gets its own typed error.

use crate::common::*;
use fix_core::{Error, Fields, Parser, Status};

fn parse(bytes: &[u8]) -> Result<Status<Owned>, Error> {
    let mut fields = Fields::<128>::new();
    Ok(match Parser::new().parse(bytes, &mut fields)? {
        Status::Complete(m) => Status::Complete(m.iter().map(|(t, v)| (t, v.to_vec())).collect()),
        Status::Partial { needed } => Status::Partial { needed },
    })
}

fn err(bytes: &[u8]) -> Error {
    parse(bytes).expect_err("malformed input must be an error")
}

#[test]
fn truncated_at_every_byte_position_is_partial() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    for (name, bytes) in corpus() {
        let body_start = bytes.windows(4).position(|w| w == b"\x0135=").unwrap() + 1;
        for cut in 0..bytes.len() {
            let status = parse(&bytes[..cut]).unwrap_or_else(|e| panic!("{name} cut {cut}: {e}"));
            let Status::Partial { needed } = status else {
                panic!("{name} cut at {cut} is complete");
            };
            if cut >= body_start {
                assert_eq!(needed, Some(bytes.len() - cut), "{name} cut {cut}");
            } else {
                assert_eq!(needed, None, "{name} cut {cut}");
            }
        }
    }
}

#[test]
fn body_length_one_too_many_or_too_few() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let good = corpus_message("heartbeat");
    let text = String::from_utf8(good.clone()).unwrap();
    for wrong in ["9=60\x01", "9=62\x01"] {
        let mut bad = text.replace("9=61\x01", wrong).into_bytes();
        fix_checksum(&mut bad);
        let body_end = if wrong == "9=60\x01" { 75 } else { 77 };
        assert_eq!(err(&bad), Error::BodyLengthMismatch { offset: body_end });
    }
}

#[test]
fn wrong_checksum() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let mut bad = corpus_message("execution_report");
    let n = bad.len();
    bad[n - 4..n - 1].copy_from_slice(b"150");
    assert_eq!(
        err(&bad),
        Error::CheckSumMismatch {
            offset: n - 4,
            declared: 150,
            computed: 149
        }
    );
    bad[n - 4..n - 1].copy_from_slice(b"999");
    assert!(matches!(
        err(&bad),
        Error::CheckSumMismatch { declared: 999, .. }
    ));
}

#[test]
fn checksum_not_three_digits() {
    let good = build(b"35=0\x01");
    let trailer = good.len() - 7;
    for bad_trailer in [
        "10=16\x01",
        "10=1a3\x01",
        "10=+63\x01",
        "10=1634\x01",
        "10= 63\x01",
    ] {
        let mut bad = good[..trailer].to_vec();
        bad.extend_from_slice(bad_trailer.as_bytes());
        assert_eq!(
            err(&bad),
            Error::InvalidCheckSum {
                offset: trailer + 3
            },
            "{bad_trailer:?}"
        );
    }
}

#[test]
fn begin_string_missing_or_out_of_order_is_garbage() {
    // Nothing starts with `8=`: the whole input is garbage, or up to the next `8=FIX`.
    assert_eq!(err(&soh("9=5|8=FIX.4.4|35=0|")), Error::Garbage { skip: 4 });
    assert_eq!(err(&soh("35=0|10=000|")), Error::Garbage { skip: 12 });
    assert_eq!(
        err(&soh("8=XYZ|9=5|")),
        Error::InvalidBeginString { offset: 2 }
    );
    assert_eq!(
        err(&soh("8=|9=5|")),
        Error::InvalidBeginString { offset: 2 }
    );
    assert_eq!(
        err(b"8=FIX.4.4.4.4.4.4.4.4.4"),
        Error::InvalidBeginString { offset: 2 }
    );
}

#[test]
fn body_length_missing_or_out_of_order() {
    assert_eq!(
        err(&soh("8=FIX.4.4|35=0|9=5|")),
        Error::BodyLengthMissing { offset: 10 }
    );
    assert_eq!(
        err(&soh("8=FIX.4.4|34=1|")),
        Error::BodyLengthMissing { offset: 10 }
    );
    assert_eq!(
        err(&soh("8=FIX.4.4|9=|35=0|")),
        Error::InvalidBodyLength { offset: 12 }
    );
    assert_eq!(
        err(&soh("8=FIX.4.4|9=-5|35=0|")),
        Error::InvalidBodyLength { offset: 12 }
    );
    assert_eq!(
        err(&soh("8=FIX.4.4|9=5x|")),
        Error::InvalidBodyLength { offset: 12 }
    );
}

#[test]
fn msg_type_missing_or_out_of_order() {
    let bad = build(b"34=1\x0135=0\x01");
    assert_eq!(err(&bad), Error::MsgTypeMissing { offset: 15 });
    let bad = build(b"35=\x0134=1\x01");
    assert_eq!(err(&bad), Error::MsgTypeMissing { offset: 14 });
    // MsgType is seen to be wrong before the rest of the message arrives.
    assert_eq!(
        err(&soh("8=FIX.4.4|9=50|34=")),
        Error::MsgTypeMissing { offset: 15 }
    );
}

#[test]
fn huge_body_length_is_an_error_not_a_wait() {
    // Past 20 digits BodyLength is no number; up to 20 it is reported as written,
    // whether or not a `usize` holds it.
    assert_eq!(
        err(&soh("8=FIX.4.4|9=99999999999999999999999|")),
        Error::InvalidBodyLength { offset: 12 }
    );
    for digits in ["99999999999999999999", "18446744073709551616"] {
        let e = err(&soh(&format!("8=FIX.4.4|9={digits}|")));
        let Error::BodyLengthOverflow { declared } = e else {
            panic!("{digits}: {e:?}")
        };
        assert_eq!(declared.as_str(), digits);
        assert_eq!(
            e.to_string(),
            format!("BodyLength (9) is {digits}, more than any message can hold")
        );
        assert_eq!((e.tag(), e.offset()), (Some(9), None));
    }
    // The largest `usize` is still a size; partial input reports what has arrived.
    assert_eq!(
        err(&soh("8=FIX.4.4|9=18446744073709551615|")),
        Error::MessageTooLarge {
            size: usize::MAX,
            max: fix_core::DEFAULT_MAX_MESSAGE_SIZE
        }
    );
    assert!(matches!(
        err(b"8=FIX.4.4\x019=999999999999999999999"),
        Error::InvalidBodyLength { offset: 12 }
    ));
    assert_eq!(
        err(b"8=FIX.4.4\x019=9999999999999999999"),
        Error::MessageTooLarge {
            size: 9999999999999999999,
            max: fix_core::DEFAULT_MAX_MESSAGE_SIZE
        }
    );
    assert_eq!(
        err(&soh("8=FIX.4.4|9=65530|")),
        Error::MessageTooLarge {
            size: 65530 + 18 + 7,
            max: 65536
        }
    );
    assert_eq!(
        err(&soh("8=FIX.4.4|9=999999999|")),
        Error::MessageTooLarge {
            size: 999999999,
            max: fix_core::DEFAULT_MAX_MESSAGE_SIZE
        }
    );
    assert_eq!(
        err(&soh("8=FIX.4.4|9=000000000000000000000")),
        Error::InvalidBodyLength { offset: 12 }
    );
}

#[test]
fn tag_zero() {
    assert_eq!(
        err(&build(b"35=0\x010=1\x01")),
        Error::TagZero { offset: 19 }
    );
}

#[test]
fn letters_in_a_tag() {
    assert_eq!(
        err(&build(b"35=0\x0158a=1\x01")),
        Error::InvalidTag { offset: 22 }
    );
    assert_eq!(
        err(&build(b"35=0\x01a58=1\x01")),
        Error::InvalidTag { offset: 20 }
    );
    assert_eq!(
        err(&build(b"35=0\x01=1\x01")),
        Error::InvalidTag { offset: 19 }
    );
    assert_eq!(
        err(&build(b"35=0\x01058=1\x01")),
        Error::InvalidTag { offset: 20 }
    );
}

#[test]
fn tag_overflow() {
    assert_eq!(
        err(&build(b"35=0\x014294967296=1\x01")),
        Error::TagOverflow { offset: 20 }
    );
    assert_eq!(
        err(&build(b"35=0\x0199999999999999999999999=1\x01")),
        Error::TagOverflow { offset: 20 }
    );
    let ok = parse(&build(b"35=0\x014294967295=1\x01"))
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(ok[3], (u32::MAX, b"1".to_vec()));
}

#[test]
fn soh_inside_a_value_is_reported_against_its_tag() {
    // `b c` after the SOH holds no `=`: the rest of Text (58), not a field.
    assert_eq!(
        err(&build(b"35=0\x0158=a\x01b c\x01")),
        Error::EmbeddedSoh {
            tag: 58,
            offset: 24
        }
    );
    assert_eq!(
        err(&build(b"35=0\x0158=a\x01b c=1\x01")),
        Error::InvalidTag { offset: 25 }
    );
    // After a data field read by its length, the SOH ends the data: what follows
    // is a bad tag, not more of the value.
    assert_eq!(
        err(&build(b"35=A\x0195=1\x0196=a\x01bc\x01")),
        Error::InvalidTag { offset: 30 }
    );
}

#[test]
fn equals_missing() {
    assert_eq!(
        err(&build(b"35=0\x0158\x01")),
        Error::MissingEquals {
            tag: 58,
            offset: 21
        }
    );
}

#[test]
fn empty_value() {
    assert_eq!(
        err(&build(b"35=0\x0158=\x01")),
        Error::EmptyValue {
            tag: 58,
            offset: 22
        }
    );
}

#[test]
fn data_length_past_the_end() {
    // RawDataLength says 50 bytes; the message has far fewer.
    let bad = build(b"35=A\x0195=50\x0196=abc\x01");
    assert_eq!(
        err(&bad),
        Error::DataLengthOutOfBounds {
            tag: 96,
            offset: 29
        }
    );
    // Long enough to reach into the trailer: still past the body.
    let bad = build(b"35=A\x0195=4\x0196=abc\x01");
    assert_eq!(
        err(&bad),
        Error::DataLengthOutOfBounds {
            tag: 96,
            offset: 28
        }
    );
    // Not followed by SOH where the length ends.
    let bad = build(b"35=A\x0195=2\x0196=abc\x01");
    assert_eq!(
        err(&bad),
        Error::DataLengthOutOfBounds {
            tag: 96,
            offset: 28
        }
    );
    // A length that is not a number.
    let bad = build(b"35=A\x0195=x\x0196=abc\x01");
    assert_eq!(
        err(&bad),
        Error::InvalidDataLength {
            tag: 95,
            offset: 23
        }
    );
}

#[test]
fn garbage_prefix_says_how_much_to_skip() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let good = corpus_message("heartbeat");
    let mut input = b"\x01\x01noise 58=FIX 8=FIX".to_vec();
    input.extend_from_slice(b"\x01junk\x01");
    let skip = input.len();
    input.extend_from_slice(&good);
    // The first candidate is the `8=FIX` not preceded by a digit.
    let Error::Garbage { skip: first } = err(&input) else {
        panic!()
    };
    assert_eq!(first, 15);
    // Framing from there fails again, and the next skip reaches the real message.
    let rest = &input[first..];
    assert!(parse(rest).is_err());
    let next = first + fix_core::resync(rest);
    assert_eq!(next, skip);
    assert!(parse(&input[next..]).unwrap().is_complete());
}

#[test]
fn two_messages_back_to_back() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let a = corpus_message("new_order_single");
    let b = corpus_message("execution_report");
    let both = [a.clone(), b.clone()].concat();
    let mut fields = Fields::<64>::new();
    let parser = Parser::new();
    let first = parser
        .parse(&both, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(first.bytes(), &a[..]);
    assert_eq!(first.msg_type(), b"D");
    let consumed = first.bytes().len();
    let second = parser
        .parse(&both[consumed..], &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(second.bytes(), &b[..]);
    assert_eq!(second.msg_type(), b"8");
}

#[test]
fn one_message_split_across_reads_at_every_position() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let parser = Parser::new();
    for (name, msg) in corpus() {
        for split in 0..=msg.len() {
            let mut buf = msg[..split].to_vec();
            let mut fields = Fields::<128>::new();
            let first = parser.parse(&buf, &mut fields).unwrap();
            assert_eq!(first.is_complete(), split == msg.len(), "{name} {split}");
            buf.extend_from_slice(&msg[split..]);
            let whole = parser.parse(&buf, &mut fields).unwrap().complete().unwrap();
            assert_eq!(whole.bytes(), &msg[..], "{name} {split}");
        }
    }
}

#[test]
fn too_many_fields_is_an_error_not_a_drop() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let msg = corpus_message("execution_report");
    let mut fields = Fields::<32>::new();
    assert_eq!(
        Parser::new().parse(&msg, &mut fields).unwrap_err(),
        Error::TooManyFields { capacity: 32 }
    );
    let mut fields = Fields::<33>::new();
    assert!(Parser::new().parse(&msg, &mut fields).is_ok());
}

#[test]
fn leniency_is_explicit() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    // CheckSum: strict rejects a wrong one, lenient reads it as it is.
    let mut msg = corpus_message("heartbeat");
    let n = msg.len();
    msg[n - 4..n - 1].copy_from_slice(b"999");
    assert!(matches!(
        Parser::new().frame(&msg),
        Err(Error::CheckSumMismatch { declared: 999, .. })
    ));
    let lenient = Parser::new().with_checksum_validation(false);
    let frame = lenient.frame(&msg).unwrap().complete().unwrap();
    assert_eq!(frame.checksum(), 999);

    // Empty values: an error by default, a field of zero bytes when allowed.
    let msg = build(b"35=0\x0158=\x01");
    let mut fields = Fields::<16>::new();
    assert_eq!(
        Parser::new().parse(&msg, &mut fields).err(),
        Some(Error::EmptyValue {
            tag: 58,
            offset: 22
        })
    );
    let parsed = Parser::new()
        .with_empty_values(true)
        .parse(&msg, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(parsed.get(58), Some(&b""[..]));

    // Size: the default maximum admits this message, a smaller one refuses it,
    // one byte more admits it again.
    let msg = build(&[b"35=0\x01112=".as_slice(), &[b'x'; 100], b"\x01"].concat());
    assert!(Parser::new().frame(&msg).is_ok());
    assert_eq!(
        Parser::new()
            .with_max_message_size(msg.len() - 1)
            .frame(&msg)
            .err(),
        Some(Error::MessageTooLarge {
            size: msg.len(),
            max: msg.len() - 1
        })
    );
    assert!(
        Parser::new()
            .with_max_message_size(msg.len())
            .frame(&msg)
            .is_ok()
    );

    // Data fields: without the pair, a SOH inside RawData (96) splits it; with it,
    // the field is read by its length.
    let msg = build(b"35=A\x0195=3\x0196=a\x01b\x01");
    assert!(
        Parser::new()
            .with_data_fields(fix_core::DataFields::NONE)
            .parse(&msg, &mut fields)
            .is_err()
    );
    let parsed = Parser::new()
        .parse(&msg, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(parsed.get(96), Some(&b"a\x01b"[..]));
}

#[test]
fn every_error_displays_its_tag_or_offset() {
    // Every variant of `Error` that can be written out (BodyLengthOverflow's
    // digits come from a parse: `huge_body_length_is_an_error_not_a_wait`), with
    // the text a reader sees written out by hand, and its tag and offset.
    let cases: [(Error, &str, Option<u32>, Option<usize>); 19] = [
        (
            Error::Garbage { skip: 5 },
            "5 bytes before the next `8=FIX`",
            None,
            None,
        ),
        (
            Error::InvalidBeginString { offset: 2 },
            "invalid BeginString (8) at byte 2",
            Some(8),
            Some(2),
        ),
        (
            Error::BodyLengthMissing { offset: 10 },
            "BodyLength (9) expected as the second field, at byte 10",
            Some(9),
            Some(10),
        ),
        (
            Error::InvalidBodyLength { offset: 12 },
            "BodyLength (9) is not a number of 1 to 20 digits, at byte 12",
            Some(9),
            Some(12),
        ),
        (
            Error::MessageTooLarge {
                size: 70000,
                max: 65536,
            },
            "message of 70000 bytes exceeds the maximum of 65536",
            Some(9),
            None,
        ),
        (
            Error::MsgTypeMissing { offset: 15 },
            "MsgType (35) expected as the third field, at byte 15",
            Some(35),
            Some(15),
        ),
        (
            Error::BodyLengthMismatch { offset: 40 },
            "BodyLength (9) does not match: no CheckSum (10) at byte 40",
            Some(9),
            Some(40),
        ),
        (
            Error::InvalidCheckSum { offset: 43 },
            "CheckSum (10) is not three digits, at byte 43",
            Some(10),
            Some(43),
        ),
        (
            Error::CheckSumMismatch {
                offset: 3,
                declared: 7,
                computed: 9,
            },
            "CheckSum (10) is 007 but the bytes sum to 009",
            Some(10),
            Some(3),
        ),
        (
            Error::InvalidTag { offset: 20 },
            "invalid tag at byte 20",
            None,
            Some(20),
        ),
        (
            Error::TagZero { offset: 21 },
            "tag 0 at byte 21",
            None,
            Some(21),
        ),
        (
            Error::TagOverflow { offset: 22 },
            "tag too large at byte 22",
            None,
            Some(22),
        ),
        (
            Error::MissingEquals {
                tag: 55,
                offset: 30,
            },
            "tag 55 has no `=`, at byte 30",
            Some(55),
            Some(30),
        ),
        (
            Error::EmbeddedSoh {
                tag: 58,
                offset: 25,
            },
            "the value of tag 58 holds SOH, at byte 25",
            Some(58),
            Some(25),
        ),
        (
            Error::EmptyValue {
                tag: 58,
                offset: 22,
            },
            "tag 58 has an empty value, at byte 22",
            Some(58),
            Some(22),
        ),
        (
            Error::InvalidDataLength {
                tag: 95,
                offset: 50,
            },
            "length field 95 is not a number, at byte 50",
            Some(95),
            Some(50),
        ),
        (
            Error::DataLengthOutOfBounds {
                tag: 96,
                offset: 55,
            },
            "data field 96 does not fit its announced length in the body, at byte 55",
            Some(96),
            Some(55),
        ),
        (
            Error::TooManyFields { capacity: 8 },
            "more than 8 fields",
            None,
            None,
        ),
        (
            Error::CheckSumMismatch {
                offset: 100,
                declared: 255,
                computed: 0,
            },
            "CheckSum (10) is 255 but the bytes sum to 000",
            Some(10),
            Some(100),
        ),
    ];
    for (e, text, tag, offset) in cases {
        assert_eq!(e.to_string(), text);
        assert_eq!((e.tag(), e.offset()), (tag, offset), "{e:?}");
    }
    let boxed: Box<dyn std::error::Error> = Box::new(cases[8].0);
    assert!(boxed.to_string().contains("CheckSum"));
}
