//! `fix_core::typed` over hand-written tables: slots, components, nested groups,
//! repeated tags, and arbitrary field sequences that must never panic.

use fix_core::typed::{
    Entries, FieldError, Group, INDEX_TAG_LIMIT, Level, MessageDef, SlotSets, View, hash_index,
    slot_table,
};
use fix_core::value::{FixStr, NumInGroup};
use fix_core::{Fields, Message, Parser};
use proptest::prelude::*;

// Message: 35 | 11, [component: 55, 453(group)], 58 | 10
// 453 entries: 448, 452, 802(group); 802 entries: 523, 803.
static SUB: Group = Group {
    name: "NoPartySubIDs",
    counter: 802,
    delimiter: 523,
    entry: Level {
        tags: &[523, 803],
        by_tag: &[0, 1],
        required: &[],
        groups: &[],
        index: &[],
    },
};
static PARTIES: Group = Group {
    name: "NoPartyIDs",
    counter: 453,
    delimiter: 448,
    entry: Level {
        tags: &[448, 452, 802],
        by_tag: &[0, 1, 2],
        required: &[],
        groups: &[(2, &SUB)],
        index: &[],
    },
};
static MSG: Level = Level {
    tags: &[35, 11, 55, 453, 58, 10],
    by_tag: &[5, 1, 0, 2, 4, 3],
    required: &[0, 1, 5],
    groups: &[(3, &PARTIES)],
    index: &[],
};

// The same tables with compile-time hash indexes, as generated crates have them.
static SUB_HASHED: Group = Group {
    entry: Level {
        index: &hash_index::<4>(&[523, 803], &[], &[]),
        ..SUB.entry
    },
    ..SUB
};
static PARTIES_HASHED: Group = Group {
    entry: Level {
        groups: &[(2, &SUB_HASHED)],
        index: &hash_index::<8>(&[448, 452, 802], &[2], &[]),
        ..PARTIES.entry
    },
    ..PARTIES
};
static MSG_HASHED: Level = Level {
    groups: &[(3, &PARTIES_HASHED)],
    // No tag under NoPartyIDs is the message's: its entries need no skipping.
    index: &hash_index::<16>(&[35, 11, 55, 453, 58, 10], &[3], &[3]),
    ..MSG
};

struct Party<'a>(View<'a, 3>);
impl<'a> From<View<'a, 3>> for Party<'a> {
    fn from(v: View<'a, 3>) -> Self {
        Party(v)
    }
}
struct Sub<'a>(View<'a, 2>);
impl<'a> From<View<'a, 2>> for Sub<'a> {
    fn from(v: View<'a, 2>) -> Self {
        Sub(v)
    }
}

fn message(body: &[(u32, &str)]) -> Vec<u8> {
    let mut b = String::from("35=D\x01");
    for (t, v) in body {
        b.push_str(&format!("{t}={v}\x01"));
    }
    let head = format!("8=FIX.4.4\x019={}\x01", b.len());
    let sum = head.bytes().chain(b.bytes()).map(u32::from).sum::<u32>() % 256;
    format!("{head}{b}10={sum:03}\x01").into_bytes()
}

fn with_view<R>(bytes: &[u8], f: impl FnOnce(Message<'_>, View<'_, 6>) -> R) -> R {
    with_view_over(bytes, &MSG, f)
}

/// Parses `bytes` (empty values allowed) and views it over `level`.
fn with_view_over<R>(
    bytes: &[u8],
    level: &'static Level,
    f: impl FnOnce(Message<'_>, View<'_, 6>) -> R,
) -> R {
    let mut fields = Fields::<256>::new();
    let msg = Parser::new()
        .with_empty_values(true)
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    f(msg, View::new(msg, level))
}

#[test]
fn slots_components_and_nested_groups() {
    let bytes = message(&[
        (11, "ORD"),
        (55, "AAPL"),
        (453, "2"),
        (448, "P1"),
        (452, "3"),
        (802, "2"),
        (523, "S1"),
        (803, "4"),
        (523, "S2"),
        (448, "P2"),
        (58, "text"),
    ]);
    with_view(&bytes, |_, view| {
        assert_eq!(view.req::<FixStr>(1, 11).unwrap().as_bytes(), b"ORD");
        let component = view.sub(2, 2);
        assert_eq!(component.req::<FixStr>(0, 55).unwrap().as_bytes(), b"AAPL");
        assert_eq!(
            view.get::<FixStr>(4, 58).unwrap().unwrap().as_bytes(),
            b"text"
        );
        let parties: Entries<'_, Party<'_>, 3> = component.group(1, &PARTIES);
        let parties: Vec<Party<'_>> = parties.collect();
        assert_eq!(parties.len(), 2);
        assert_eq!(parties[0].0.req::<i64>(1, 452), Ok(3));
        assert_eq!(parties[1].0.get::<i64>(1, 452), Ok(None));
        let subs: Vec<Sub<'_>> = parties[0].0.group(2, &SUB).collect();
        let ids: Vec<&[u8]> = subs.iter().map(|s| s.0.block().raw(0).unwrap()).collect();
        assert_eq!(ids, [&b"S1"[..], b"S2"]);
        assert_eq!(parties[1].0.group::<Sub<'_>, 2>(2, &SUB).count(), 0);
        assert_eq!(view.req::<NumInGroup>(3, 453), Ok(NumInGroup(2)));
    });
}

#[test]
fn declared_count_bounds_the_entries_and_errors_are_typed() {
    let bytes = message(&[(453, "1"), (448, "P1"), (448, "P2"), (58, "x")]);
    with_view(&bytes, |_, view| {
        assert_eq!(view.group::<Party<'_>, 3>(3, &PARTIES).count(), 1);
        assert_eq!(
            view.req::<FixStr>(1, 11),
            Err(FieldError::Missing { tag: 11 })
        );
        // The second 448 is not a member of the message level: skipped; 58 still found.
        assert!(view.get::<FixStr>(4, 58).unwrap().is_some());
        assert!(matches!(
            view.req::<i64>(4, 58),
            Err(FieldError::Invalid { tag: 58, .. })
        ));
    });
}

#[test]
fn level_lookups() {
    assert_eq!(MSG.slot(453), Some(3));
    assert!(MSG.is_required(11) && !MSG.is_required(58));
    assert_eq!(MSG.required_tags().collect::<Vec<_>>(), [35, 11, 10]);
    assert_eq!(MSG.group(453).map(|g| g.delimiter), Some(448));
    assert!(MSG.group(55).is_none());
    static DUP: Level = Level {
        tags: &[7, 7],
        by_tag: &[0, 1],
        required: &[],
        groups: &[],
        index: &[],
    };
    assert_eq!(DUP.slots(7).collect::<Vec<_>>(), [0, 1]);
}

const TAGS: [u32; 10] = [11, 55, 453, 448, 452, 802, 523, 803, 58, 9999];

/// The slots of every view and entry view of `bytes` over `level`, in walk order.
fn all_slots(
    bytes: &[u8],
    level: &'static Level,
    parties: &'static Group,
    sub: &'static Group,
) -> Vec<Vec<u16>> {
    with_view_over(bytes, level, |_, view| {
        let mut out = vec![view.slots().to_vec()];
        for p in view.group::<Party<'_>, 3>(3, parties) {
            out.push(p.0.slots().to_vec());
            for s in p.0.group::<Sub<'_>, 2>(2, sub) {
                out.push(s.0.slots().to_vec());
            }
        }
        out
    })
}

proptest! {
    /// Any sequence of tags and counts: building views and walking every group
    /// never panics, and never yields more entries than fields.
    #[test]
    fn arbitrary_fields_never_panic(body in proptest::collection::vec((0usize..TAGS.len(), "[0-9a-z]{0,3}"), 0..40)) {
        let body: Vec<(u32, &str)> = body.iter().map(|(i, v)| (TAGS[*i], v.as_str())).collect();
        let bytes = message(&body);
        with_view(&bytes, |msg, view| {
            let n = msg.fields().len();
            let mut entries = 0;
            for p in view.group::<Party<'_>, 3>(3, &PARTIES) {
                entries += 1;
                let _ = p.0.get::<i64>(1, 452);
                for s in p.0.group::<Sub<'_>, 2>(2, &SUB) {
                    entries += 1;
                    let _ = s.0.get::<FixStr>(0, 523);
                }
            }
            prop_assert!(entries <= n);
            for slot in 0..8 {
                let _ = view.get::<FixStr>(slot, 1);
                let _ = view.sub(slot, 3).raw(1);
            }
            Ok(())
        })?;
    }

    /// Hashed and binary-searched tables fill the same slots, in the message and
    /// in every (nested) entry (the hashed message reads through its disjoint
    /// group, the searched one skips it).
    #[test]
    fn hashed_and_searched_levels_agree(body in proptest::collection::vec((0usize..TAGS.len(), "[0-9]{0,2}"), 0..40)) {
        let body: Vec<(u32, &str)> = body.iter().map(|(i, v)| (TAGS[*i], v.as_str())).collect();
        let bytes = message(&body);
        prop_assert_eq!(
            all_slots(&bytes, &MSG_HASHED, &PARTIES_HASHED, &SUB_HASHED),
            all_slots(&bytes, &MSG, &PARTIES, &SUB)
        );
    }

    /// Any level: the hash index answers every lookup as the binary search does,
    /// repeated tags and group counters included.
    #[test]
    fn hash_index_matches_binary_search(
        tags in proptest::collection::vec(prop_oneof![1u32..40, 1u32..INDEX_TAG_LIMIT], 1..60),
        groups in proptest::collection::btree_set(0u16..60, 0..5),
    ) {
        let groups: Vec<u16> = groups.into_iter().filter(|&g| usize::from(g) < tags.len()).collect();
        let mut by_tag: Vec<u16> = (0..tags.len() as u16).collect();
        by_tag.sort_by_key(|&s| (tags[usize::from(s)], s));
        let tags: &'static [u32] = Box::leak(tags.into_boxed_slice());
        let groups: &'static [(u16, &'static Group)] =
            Box::leak(groups.iter().map(|&g| (g, &SUB)).collect::<Vec<_>>().into_boxed_slice());
        let searched = Level { tags, by_tag: Box::leak(by_tag.into_boxed_slice()), required: &[], groups, index: &[] };
        let slots: Vec<u16> = groups.iter().map(|&(s, _)| s).collect();
        let hashed = Level { index: Box::leak(Box::new(hash_index::<128>(tags, &slots, &[]))), ..searched };
        for &tag in tags.iter().chain(&[0, 41, INDEX_TAG_LIMIT, u32::MAX]) {
            prop_assert_eq!(hashed.slot(tag), searched.slot(tag));
            prop_assert_eq!(hashed.slots(tag).collect::<Vec<_>>(), searched.slots(tag).collect::<Vec<_>>());
            prop_assert_eq!(hashed.group(tag).is_some(), searched.group(tag).is_some());
        }
    }
}

// A message view with a slot table, as generated: 8, 9, 35 | 11, 55, 58 | 10.
const FLAT_TAGS: [u32; 7] = [8, 9, 35, 11, 55, 58, 10];
const FLAT_VIEW: Level = Level {
    tags: &FLAT_TAGS,
    by_tag: &[0, 1, 6, 3, 2, 4, 5],
    required: &[],
    groups: &[],
    index: &[],
};
static FLAT: MessageDef = MessageDef {
    name: "Flat",
    msg_type: b"D",
    admin: false,
    body: Level::EMPTY,
    view: FLAT_VIEW,
    slot_of: &slot_table::<60>(&FLAT_TAGS),
    sets: SlotSets::NONE,
};

/// The view of `msg` over [`FLAT`] with `N` slots, filled through the slot table
/// and by the walk: the two slot arrays.
fn flat_both<const N: usize>(msg: Message<'_>) -> (Vec<u16>, Vec<u16>) {
    let by_table = View::<N>::of_message(msg, &FLAT);
    let walked = View::<N>::new(msg, &FLAT.view);
    (by_table.slots().to_vec(), walked.slots().to_vec())
}

proptest! {
    /// Any sequence of tags (repeated, unknown, past the table, the header's and
    /// trailer's again): a message view filled through its slot table holds what
    /// the walk holds, with as many slots as its level (7, tested against the
    /// view's size), fewer (5; 4, a power of two without a spare slot, which
    /// walks), or more: a power of two with a spare slot (8, 16, the masked fill
    /// generated views use) or not (9).
    #[test]
    fn slot_table_fills_as_the_walk_at_every_size(
        body in proptest::collection::vec(
            (prop_oneof![Just(8u32), Just(9), Just(10), Just(11), Just(35), Just(55), Just(58), 1u32..70, Just(u32::MAX)], "[0-9a-z]{1,3}"),
            0..40,
        ),
    ) {
        let body: Vec<(u32, &str)> = body.iter().map(|(t, v)| (*t, v.as_str())).collect();
        let bytes = message(&body);
        let mut fields = Fields::<256>::new();
        let Ok(status) = Parser::new().parse(&bytes, &mut fields) else {
            // A tag the parser refuses (a LENGTH without its data, say).
            return Ok(());
        };
        let msg = status.complete().unwrap();
        let (a, b) = flat_both::<7>(msg);
        prop_assert_eq!(a, b);
        let (a, b) = flat_both::<5>(msg);
        prop_assert_eq!(a, b);
        let (a, b) = flat_both::<4>(msg);
        prop_assert_eq!(a, b);
        let (a, b) = flat_both::<8>(msg);
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(a[7], u16::MAX);
        let (a, b) = flat_both::<16>(msg);
        prop_assert_eq!(a, b);
        let (a, b) = flat_both::<9>(msg);
        prop_assert_eq!(a, b);
    }
}

#[test]
fn sections_header_body_trailer() {
    static HEADER: Level = Level {
        tags: &[8, 9, 35, 49],
        by_tag: &[0, 1, 2, 3],
        required: &[0, 1, 2, 3],
        groups: &[],
        index: &[],
    };
    // The body also lists 49 (dictionaries sometimes repeat a header tag).
    static BODY: Level = Level {
        tags: &[11, 49],
        by_tag: &[0, 1],
        required: &[0],
        groups: &[],
        index: &[],
    };
    static TRAILER: Level = Level {
        tags: &[10],
        by_tag: &[0],
        required: &[0],
        groups: &[],
        index: &[],
    };
    let bytes = message(&[(49, "HDR"), (11, "ORD"), (49, "BODY")]);
    let mut fields = Fields::<16>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let view = View::<7>::sections(msg, &[&HEADER, &BODY, &TRAILER]);
    let header = view.sub(0, 4);
    let body = view.sub(4, 2);
    let trailer = view.sub(6, 1);
    assert_eq!(header.raw(2), Some(&b"D"[..]));
    assert_eq!(header.raw(3), Some(&b"HDR"[..]));
    assert_eq!(body.raw(0), Some(&b"ORD"[..]));
    assert_eq!(body.raw(1), Some(&b"BODY"[..]));
    assert_eq!(trailer.raw(0).map(<[u8]>::len), Some(3));
}

/// A CHAR enum decodes every one-byte value (and the empty and two-byte ones)
/// as checking the byte first and looking it up after would: a listed byte is
/// its variant, any other valid byte `Other`, an invalid one the error, a listed
/// byte that is no CHAR value (a space) included.
#[test]
fn char_enums_decode_every_byte_as_parse_char_then_the_table() {
    use fix_core::typed::{EnumError, byte_table, decode_char, parse_char};
    #[derive(Clone, Copy, Debug, PartialEq)]
    enum E {
        One,
        Space,
        Tilde,
        Other(u8),
    }
    const LISTED: &[u8] = b"1 ~";
    const TABLE: [u8; 256] = byte_table(LISTED);
    const VARIANTS: [E; 3] = [E::One, E::Space, E::Tilde];
    let want = |bytes: &[u8]| -> Result<E, EnumError> {
        let b = parse_char(bytes)?;
        Ok(match LISTED.iter().position(|&l| l == b) {
            Some(i) => VARIANTS[i],
            None => E::Other(b),
        })
    };
    for b in 0..=255u8 {
        assert_eq!(
            decode_char(&[b], &TABLE, &VARIANTS, E::Other),
            want(&[b]),
            "{b}"
        );
        assert_eq!(
            decode_char(&[b, b'1'], &TABLE, &VARIANTS, E::Other),
            want(&[b, b'1'])
        );
    }
    assert_eq!(
        decode_char(b"", &TABLE, &VARIANTS, E::Other),
        Err(EnumError::Empty)
    );
    assert_eq!(
        decode_char(b" ", &TABLE, &VARIANTS, E::Other),
        Err(EnumError::InvalidByte)
    );
}
