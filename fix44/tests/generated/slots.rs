//! A message view filled through its `slot_of` table (one load per field) holds
//! exactly the slots the walk of its level fills, and each slot the first field
//! with its tag: checked for every FIX 4.4 message over generated messages with
//! fields out of order, repeated tags, tags of no slot, and repeating groups
//! whose counts are right, short or long.

use fix_core::typed::{MessageDef, View};
use fix_core::{Fields, Parser};
use fix_test_support::naive::build;

/// More slots than any FIX 4.4 message view has (checked below): extra slots stay
/// empty whichever way a view is filled. A power of two, as generated message
/// views have (`view_capacity`): the fill stores every field, masked, with a spare
/// slot for the tags the view does not hold.
const SLOTS: usize = 1024;

/// Not a power of two: the fill tests each slot against the view's size instead.
const ODD_SLOTS: usize = 1000;

/// A fixed xorshift sequence, so that a failure repeats.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

/// Whether the parser reads `tag` as a DATA field's length (whose value must be
/// the length of the field after it): left out of generated messages.
fn is_length(tag: u32) -> bool {
    fix44::DICTIONARY.data_fields.data_tag(tag).is_some()
}

/// The body fields of one message of `def` (after MsgType): tags of its view,
/// some twice, some no slot's, and the entries of some of its groups.
fn body_fields(def: &MessageDef, rng: &mut Rng) -> Vec<(u32, String)> {
    let mut out = Vec::new();
    let own: Vec<u32> = def
        .view
        .tags
        .iter()
        .copied()
        .filter(|&t| ![8, 9, 35, 10].contains(&t) && !is_length(t))
        .collect();
    for _ in 0..rng.below(40) {
        match rng.below(10) {
            // A tag no FIX 4.4 message holds, or one past every table.
            0 => out.push((rng.pick(&[3, 5001, 9999, 20_000, 1_000_000]), "x".into())),
            // A header or trailer tag the frame puts elsewhere, repeated in the body.
            1 => out.push((rng.pick(&[8, 9, 35, 10]), "7".into())),
            _ if own.is_empty() => {}
            _ => out.push((rng.pick(&own), format!("v{}", out.len()))),
        }
    }
    for &(slot, group) in def.view.groups {
        if rng.below(2) == 0 {
            continue;
        }
        let declared = rng.below(4);
        let mut run = vec![(def.view.tags[usize::from(slot)], declared.to_string())];
        // Entries as declared, or one fewer or more.
        for _ in 0..(declared + rng.below(3)).saturating_sub(1) {
            run.push((group.delimiter, "d".into()));
            for _ in 0..rng.below(4) {
                let tag = rng.pick(group.entry.tags);
                if !is_length(tag) {
                    run.push((tag, "e".into()));
                }
            }
        }
        let at = rng.below(out.len() + 1);
        out.splice(at..at, run);
    }
    // Fields out of order: a few swapped (a group's run included).
    for _ in 0..rng.below(4) {
        let n = out.len();
        if n > 1 {
            out.swap(rng.below(n), rng.below(n));
        }
    }
    out
}

#[test]
fn slot_tables_fill_as_the_walk_and_the_first_field_of_each_tag() {
    let parser = Parser::new();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut checked = 0;
    for def in fix44::MESSAGES {
        assert!(def.view.tags.len() <= SLOTS, "{} has more slots", def.name);
        assert!(!def.slot_of.is_empty(), "{} has no slot table", def.name);
        for _ in 0..40 {
            let mut body = format!("35={}\x01", String::from_utf8_lossy(def.msg_type));
            for (tag, value) in body_fields(def, &mut rng) {
                body.push_str(&format!("{tag}={value}\x01"));
            }
            let bytes = build(body.as_bytes());
            let mut fields = Fields::<512>::new();
            let Ok(status) = parser.parse(&bytes, &mut fields) else {
                continue;
            };
            let msg = status.complete().unwrap();
            let by_table = View::<SLOTS>::of_message(msg, def);
            let walked = View::<SLOTS>::new(msg, &def.view);
            let len = def.view.tags.len();
            assert!(by_table.slots()[len..].iter().all(|&s| s == u16::MAX));
            assert_eq!(
                by_table.slots()[..len],
                walked.slots()[..len],
                "{}: {}",
                def.name,
                String::from_utf8_lossy(&bytes)
            );
            let odd = View::<ODD_SLOTS>::of_message(msg, def);
            assert!(odd.slots()[len..].iter().all(|&s| s == u16::MAX));
            assert_eq!(
                odd.slots()[..],
                by_table.slots()[..ODD_SLOTS],
                "{}",
                def.name
            );
            for (slot, &tag) in def.view.tags.iter().enumerate() {
                let first = msg.fields().iter().position(|f| f.tag() == tag);
                let want = first.map_or(u16::MAX, |p| p as u16);
                assert_eq!(by_table.slots()[slot], want, "{} tag {tag}", def.name);
            }
            checked += 1;
        }
    }
    assert!(checked > 3000, "only {checked} messages parsed");
}
