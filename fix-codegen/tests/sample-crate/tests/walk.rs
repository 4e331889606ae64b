//! The streaming group walk against the slot views and against a reference walk
//! written from the group tables, on random NewOrderSingles whose Parties groups
//! (with nested NoPartySubIDs) are well formed or not: counts too small, too large,
//! not numbers; entries without their delimiter; unknown tags, message-level tags
//! and repeated tags inside entries; values that do not parse.

use fix_core::typed::{Group, Walk};
use fix_core::value::parse_digits;
use fix_core::{Fields, Message, Parser};
use fix_sample::components::{
    PARTIES_NO_PARTY_IDS, PartiesNoPartyIds, PartiesNoPartyIdsField as P, PtysSubGrpNoPartySubIds,
    PtysSubGrpNoPartySubIdsField as S,
};
use fix_sample::messages::NewOrderSingle;
use fix_test_support::naive::build;

/// What a walk hands over, flattened: entry starts, fields (tag, raw value,
/// offset) and nested groups (their counter), each at its depth.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Event<'a> {
    Start(usize),
    Field(usize, u32, &'a [u8], usize),
    Group(usize, u32),
}

fn walk_parties<'a>(walk: Walk<'a, PartiesNoPartyIds<'a>>, out: &mut Vec<Event<'a>>) {
    for field in walk {
        if field.starts_entry() {
            out.push(Event::Start(0));
        }
        let (tag, raw, offset) = match field {
            P::PartyId(v) => (448, v.raw(), v.offset()),
            P::PartyIdSource(v) => (447, v.raw(), v.offset()),
            P::PartyRole(v) => (452, v.raw(), v.offset()),
            P::NoPartySubIds(nested) => {
                assert_eq!(field.tag(), 802);
                out.push(Event::Group(0, 802));
                walk_sub_ids(nested, out);
                continue;
            }
        };
        assert_eq!(field.tag(), tag);
        out.push(Event::Field(0, tag, raw, offset));
    }
}

fn walk_sub_ids<'a>(walk: Walk<'a, PtysSubGrpNoPartySubIds<'a>>, out: &mut Vec<Event<'a>>) {
    for field in walk {
        if field.starts_entry() {
            out.push(Event::Start(1));
        }
        let (tag, raw, offset) = match field {
            S::PartySubId(v) => (523, v.raw(), v.offset()),
            S::PartySubIdType(v) => (803, v.raw(), v.offset()),
        };
        out.push(Event::Field(1, tag, raw, offset));
    }
}

/// The walk of group `group` from field `pos`, written from its tables the way
/// views read them: an entry starts at the delimiter and ends at the next one or
/// at the first tag the entry does not hold; a nested counter's entries follow it.
fn reference<'a>(
    group: &Group,
    msg: &Message<'a>,
    mut pos: usize,
    count: usize,
    depth: usize,
    out: &mut Vec<Event<'a>>,
) -> usize {
    let fields = msg.fields();
    let mut n = 0;
    while n < count && fields.get(pos).is_some_and(|f| f.tag() == group.delimiter) {
        n += 1;
        out.push(Event::Start(depth));
        let start = pos;
        while let Some(f) = fields.get(pos) {
            let tag = f.tag();
            if (pos != start && tag == group.delimiter) || !group.entry.contains(tag) {
                break;
            }
            pos += 1;
            let value = msg.value(f);
            match group.entry.group(tag) {
                Some(nested) => {
                    out.push(Event::Group(depth, tag));
                    let count = parse_digits(value, 9).map_or(usize::MAX, |c| c as usize);
                    pos = reference(nested, msg, pos, count, depth + 1, out);
                }
                None => out.push(Event::Field(depth, tag, value, f.value_range().start)),
            }
        }
    }
    pos
}

/// A small deterministic generator (xorshift), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// A count field for `n` entries: mostly right, sometimes off by one, zero or
/// not a number.
fn count(rng: &mut Rng, tag: u32, n: usize) -> String {
    match rng.below(10) {
        0 => format!("{tag}={}|", n + 1),
        1 => format!("{tag}={}|", n.saturating_sub(1)),
        2 => format!("{tag}=x|"),
        3 => format!("{tag}=0|"),
        _ => format!("{tag}={n}|"),
    }
}

/// Something out of place inside an entry, now and then.
fn noise(rng: &mut Rng, out: &mut String) {
    match rng.below(40) {
        0 => out.push_str("9999=unknown|"),
        1 => out.push_str("1=ACC|"),
        2 => out.push_str("452=7|"),
        _ => {}
    }
}

fn message(rng: &mut Rng) -> Vec<u8> {
    let mut body = String::from("35=D|49=A|56=B|34=1|52=20261130-12:30:45|11=ORD|");
    let entries = rng.below(4) as usize;
    body.push_str(&count(rng, 453, entries));
    for i in 0..entries {
        if !rng.chance(5) {
            body.push_str(&format!("448=P{i}|"));
        }
        noise(rng, &mut body);
        if rng.chance(60) {
            body.push_str(if rng.chance(85) { "447=D|" } else { "447=DX|" });
        }
        if rng.chance(60) {
            body.push_str(if rng.chance(85) {
                "452=3|"
            } else {
                "452=three|"
            });
        }
        noise(rng, &mut body);
        if rng.chance(50) {
            let subs = rng.below(3) as usize;
            body.push_str(&count(rng, 802, subs));
            for j in 0..subs {
                if !rng.chance(5) {
                    body.push_str(&format!("523=S{i}{j}|"));
                }
                if rng.chance(70) {
                    body.push_str(if rng.chance(85) { "803=2|" } else { "803=2.5|" });
                }
                noise(rng, &mut body);
            }
        }
    }
    body.push_str("1=ACC|55=IBM|");
    build(body.replace('|', "\x01").as_bytes())
}

#[test]
fn the_walk_reads_what_the_views_and_the_tables_read() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let parser = Parser::new().with_data_fields(fix_sample::DATA_FIELDS);
    let mut fields = Fields::<256>::new();
    let mut entries_seen = 0;
    for round in 0..3000 {
        let bytes = message(&mut rng);
        let msg = parser
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        let text = String::from_utf8_lossy(&bytes).replace('\x01', "|");

        let counter = msg.fields().iter().position(|f| f.tag() == 453).unwrap();
        let mut want = Vec::new();
        let declared =
            parse_digits(msg.value(&msg.fields()[counter]), 9).map_or(usize::MAX, |c| c as usize);
        reference(
            &PARTIES_NO_PARTY_IDS,
            &msg,
            counter + 1,
            declared,
            0,
            &mut want,
        );

        let mut direct = Vec::new();
        walk_parties(NewOrderSingle::walk::<PartiesNoPartyIds>(msg), &mut direct);
        assert_eq!(direct, want, "round {round}: {text}");

        let nos = NewOrderSingle::new(msg);
        let mut through_view = Vec::new();
        walk_parties(nos.parties().no_party_ids().walk(), &mut through_view);
        assert_eq!(through_view, want, "round {round}: {text}");

        // Entry by entry, the views' getters give what the walk's values give for
        // each tag's first occurrence, errors included.
        let views: Vec<_> = nos.parties().no_party_ids().collect();
        let mut walk = NewOrderSingle::walk::<PartiesNoPartyIds>(msg).peekable();
        for (i, view) in views.iter().enumerate() {
            let first = walk.next().unwrap();
            assert!(first.starts_entry(), "round {round}: {text}");
            let mut entry = vec![first];
            while let Some(f) = walk.next_if(|f| !f.starts_entry()) {
                entry.push(f);
            }
            let id = entry.iter().find_map(|f| match f {
                P::PartyId(v) => Some(v.get()),
                _ => None,
            });
            assert_eq!(view.party_id(), id.transpose(), "round {round}, entry {i}");
            let source = entry.iter().find_map(|f| match f {
                P::PartyIdSource(v) => Some(v.get()),
                _ => None,
            });
            assert_eq!(view.party_id_source(), source.transpose(), "round {round}");
            let role = entry.iter().find_map(|f| match f {
                P::PartyRole(v) => Some(v.get()),
                _ => None,
            });
            assert_eq!(view.party_role(), role.transpose(), "round {round}");
            let subs = entry.iter().find_map(|f| match f {
                P::NoPartySubIds(w) => Some(*w),
                _ => None,
            });
            let sub_views: Vec<_> = view.ptys_sub_grp().no_party_sub_ids().collect();
            let sub_walk: Vec<_> = subs.into_iter().flatten().collect();
            assert_eq!(
                sub_views.len(),
                sub_walk.iter().filter(|f| f.starts_entry()).count(),
                "round {round}: {text}"
            );
            for (sub, f) in sub_views
                .iter()
                .zip(sub_walk.iter().filter(|f| f.starts_entry()))
            {
                let S::PartySubId(id) = f else {
                    panic!("an entry starts with its delimiter")
                };
                assert_eq!(sub.party_sub_id(), Ok(Some(id.get().unwrap())));
            }
            entries_seen += 1;
        }
        assert!(walk.next().is_none(), "round {round}: {text}");
    }
    assert!(entries_seen > 3000, "{entries_seen} entries compared");
}

#[test]
fn a_group_outside_the_message_level_or_absent_walks_nothing() {
    let bytes = build(b"35=D\x0111=ORD\x01453=1\x01448=A\x01802=1\x01523=S\x0155=IBM\x01");
    let mut fields = Fields::<64>::new();
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    // NoPartySubIDs is inside NoPartyIDs, not at the message level.
    assert_eq!(
        NewOrderSingle::walk::<PtysSubGrpNoPartySubIds>(msg).count(),
        0
    );
    assert_eq!(NewOrderSingle::walk::<PartiesNoPartyIds>(msg).count(), 2);

    let bytes = build(b"35=D\x0111=ORD\x0155=IBM\x01");
    let msg = Parser::new()
        .parse(&bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    assert_eq!(NewOrderSingle::walk::<PartiesNoPartyIds>(msg).count(), 0);
    let nos = NewOrderSingle::new(msg);
    assert_eq!(nos.parties().no_party_ids().walk().count(), 0);
}
