//! Property tests: the fast parser against the naive reference, and no panics.

use crate::common::*;
use fix_core::{Fields, Parser, Status};
use proptest::prelude::*;

/// A field of a generated body: a plain field, or a data field holding any bytes.
#[derive(Clone, Debug)]
enum GenField {
    Plain(u32, Vec<u8>),
    Data(usize, Vec<u8>),
}

fn plain_tag() -> impl Strategy<Value = u32> {
    prop_oneof![1u32..1000, 1000u32..100_000, Just(u32::MAX)].prop_filter(
        "not a header, trailer or data tag",
        |t| {
            ![8, 9, 10, 35].contains(t)
                && !fix_core::FIX44_DATA_FIELDS
                    .iter()
                    .any(|p| p.length == *t || p.data == *t)
        },
    )
}

fn gen_field() -> impl Strategy<Value = GenField> {
    let value = prop::collection::vec(any::<u8>().prop_filter("no SOH", |b| *b != SOH), 1..24);
    let data = prop::collection::vec(prop_oneof![Just(SOH), Just(b'='), any::<u8>()], 0..40);
    prop_oneof![
        4 => (plain_tag(), value).prop_map(|(t, v)| GenField::Plain(t, v)),
        1 => (0..fix_core::FIX44_DATA_FIELDS.len(), data).prop_map(|(i, d)| GenField::Data(i, d)),
    ]
}

/// A well-formed message and the fields it must parse to.
fn gen_message() -> impl Strategy<Value = (Vec<u8>, Vec<(u32, Vec<u8>)>)> {
    let begin = prop_oneof![Just("FIX.4.2"), Just("FIX.4.4"), Just("FIXT.1.1")];
    let msg_type = "[0-9A-Za-z]{1,3}";
    (begin, msg_type, prop::collection::vec(gen_field(), 0..30)).prop_map(
        |(begin, msg_type, fields)| {
            let mut body = format!("35={msg_type}\x01").into_bytes();
            let mut expected = vec![(35, msg_type.clone().into_bytes())];
            for f in fields {
                match f {
                    GenField::Plain(tag, value) => {
                        body.extend_from_slice(format!("{tag}=").as_bytes());
                        body.extend_from_slice(&value);
                        body.push(SOH);
                        expected.push((tag, value));
                    }
                    GenField::Data(i, data) => {
                        let pair = fix_core::FIX44_DATA_FIELDS[i];
                        if data.is_empty() {
                            continue;
                        }
                        let len = data.len().to_string().into_bytes();
                        body.extend_from_slice(format!("{}=", pair.length).as_bytes());
                        body.extend_from_slice(&len);
                        body.push(SOH);
                        body.extend_from_slice(format!("{}=", pair.data).as_bytes());
                        body.extend_from_slice(&data);
                        body.push(SOH);
                        expected.push((pair.length, len));
                        expected.push((pair.data, data));
                    }
                }
            }
            let msg = build_with(begin, &body);
            let mut all = vec![
                (8, begin.as_bytes().to_vec()),
                (9, body.len().to_string().into_bytes()),
            ];
            all.extend(expected);
            let trailer = msg[msg.len() - 4..msg.len() - 1].to_vec();
            all.push((10, trailer));
            (msg, all)
        },
    )
}

#[derive(Clone, Debug)]
enum Mutation {
    Replace(usize, u8),
    Insert(usize, u8),
    Delete(usize),
}

fn mutate(msg: &mut Vec<u8>, m: &Mutation) {
    match *m {
        Mutation::Replace(i, b) => {
            let i = i % msg.len();
            msg[i] = b;
        }
        Mutation::Insert(i, b) => {
            let i = i % (msg.len() + 1);
            msg.insert(i, b);
        }
        Mutation::Delete(i) => {
            let i = i % msg.len();
            msg.remove(i);
        }
    }
}

fn gen_mutation() -> impl Strategy<Value = Mutation> {
    let byte = prop_oneof![Just(SOH), Just(b'='), Just(b'0'), Just(b'9'), any::<u8>()];
    prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(i, b)| Mutation::Replace(i, b)),
        (any::<usize>(), byte).prop_map(|(i, b)| Mutation::Insert(i, b)),
        any::<usize>().prop_map(Mutation::Delete),
    ]
}

/// Ours and the reference agree on `input`: a complete message for ours is exactly
/// the reference's valid message with the same fields; anything else ours says
/// (partial, error) the reference rejects too.
fn agree(input: &[u8]) -> Result<(), TestCaseError> {
    let pairs = fix44_pairs();
    let max = fix_core::DEFAULT_MAX_MESSAGE_SIZE;
    let mut fields = Fields::<256>::new();
    match Parser::new().parse(input, &mut fields) {
        Ok(Status::Complete(msg)) => {
            let n = msg.bytes().len();
            let ours: Vec<(u32, Vec<u8>)> = msg.iter().map(|(t, v)| (t, v.to_vec())).collect();
            prop_assert_eq!(Some(ours), naive_parse(&input[..n], &pairs, max));
        }
        Ok(Status::Partial { .. }) | Err(_) => {
            prop_assert_eq!(naive_parse(input, &pairs, max), None);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn well_formed_messages_parse_to_their_fields((msg, expected) in gen_message()) {
        let mut fields = Fields::<256>::new();
        let parsed = Parser::new().parse(&msg, &mut fields).unwrap().complete().unwrap();
        prop_assert_eq!(parsed.bytes().len(), msg.len());
        let ours: Vec<(u32, Vec<u8>)> = parsed.iter().map(|(t, v)| (t, v.to_vec())).collect();
        prop_assert_eq!(&ours, &expected);
        let reference = naive_parse(&msg, &fix44_pairs(), usize::MAX);
        prop_assert_eq!(Some(ours), reference);
    }

    #[test]
    fn mutated_messages_agree_with_the_reference(
        (msg, _) in gen_message(),
        mutations in prop::collection::vec(gen_mutation(), 1..4),
        fix_sum in any::<bool>(),
    ) {
        let mut input = msg;
        for m in &mutations {
            mutate(&mut input, m);
            if input.is_empty() {
                return Ok(());
            }
        }
        // Often repair the CheckSum so that the mutation itself is what is judged.
        if fix_sum && input.len() > 7 {
            fix_checksum(&mut input);
        }
        agree(&input)?;
    }

    #[test]
    fn every_prefix_is_partial_and_every_extension_frames_the_same((msg, _) in gen_message()) {
        let parser = Parser::new();
        for cut in 0..msg.len() {
            let partial = matches!(parser.frame(&msg[..cut]), Ok(Status::Partial { .. }));
            prop_assert!(partial, "prefix of {} bytes", cut);
        }
        let mut longer = msg.clone();
        longer.extend_from_slice(b"8=FIX.4.4\x019=");
        let frame = parser.frame(&longer).unwrap().complete().unwrap();
        prop_assert_eq!(frame.bytes(), &msg[..]);
    }

    #[test]
    fn random_bytes_never_panic_and_agree(input in prop::collection::vec(any::<u8>(), 0..300)) {
        agree(&input)?;
    }

    #[test]
    fn random_fix_like_bytes_never_panic_and_agree(
        tail in prop::collection::vec(
            prop_oneof![Just(SOH), Just(b'='), Just(b'1'), Just(b'0'), Just(b'9'), Just(b'5'), any::<u8>()],
            0..120,
        ),
    ) {
        let mut input = b"8=FIX.4.4\x019=".to_vec();
        input.extend_from_slice(&tail);
        agree(&input)?;
        let mut framed = build(&tail);
        agree(&framed)?;
        framed.truncate(framed.len() / 2);
        agree(&framed)?;
    }
}

/// The fields of a generated message's body after its MsgType, as a caller
/// gives them to a session to send.
fn body_fields(msg: &[u8]) -> Vec<u8> {
    let msg_type = msg.windows(4).position(|w| w == b"\x0135=").unwrap() + 4;
    let start = msg_type + msg[msg_type..].iter().position(|&b| b == SOH).unwrap() + 1;
    // Before the seven bytes of `10=NNN<SOH>`.
    msg[start..msg.len() - 7].to_vec()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// `check_fields` says of a body what the parser says of the message made
    /// with it: the parser (framing and indexing the whole message) is the
    /// oracle.
    #[test]
    fn check_fields_agrees_with_the_parser_on_a_framed_body(
        (msg, _) in gen_message(),
        mutations in prop::collection::vec(gen_mutation(), 0..3),
    ) {
        let mut body = body_fields(&msg);
        for m in &mutations {
            if !body.is_empty() {
                mutate(&mut body, m);
            }
        }
        let mut framed = b"35=D\x01".to_vec();
        framed.extend_from_slice(&body);
        let whole = build_with("FIX.4.4", &framed);
        let mut fields = Fields::<256>::new();
        let parsed = Parser::new().parse(&whole, &mut fields).map(|s| matches!(s, Status::Complete(_)));
        let checked = Parser::new().check_fields(&body);
        prop_assert_eq!(
            parsed == Ok(true),
            checked.is_ok(),
            "body {:?}: parser {:?}, check {:?}",
            String::from_utf8_lossy(&body),
            parsed,
            checked
        );
    }
}
