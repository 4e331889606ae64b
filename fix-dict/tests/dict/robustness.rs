//! "Reading never panics": truncated and mutated dictionaries give
//! diagnostics, never a panic, and every diagnostic has a position inside the
//! text.

use fix_dict::{Pos, resolve, xml};

fn spec(name: &str) -> String {
    let path = fix_test_support::files::quickfix_dir().join(format!("spec/{name}.xml"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Parses and resolves; checks every diagnostic's position is in range.
fn check(text: &str) {
    let lines = u32::try_from(text.lines().count().max(1)).unwrap() + 1;
    match xml::parse("m.xml", text) {
        Err(d) => {
            assert!(d.pos.line >= 1 && d.pos.line <= lines, "{d}");
            assert!(d.pos.column >= 1, "{d}");
            assert!(!d.to_string().is_empty());
        }
        Ok(doc) => {
            for d in resolve(&doc).diagnostics {
                assert!(d.pos > Pos::NONE && d.pos.line <= lines, "{d}");
            }
        }
    }
}

#[test]
fn truncated_dictionaries() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let text = spec("FIXT11");
    let mut cut = 0;
    while cut < text.len() {
        if text.is_char_boundary(cut) {
            check(&text[..cut]);
        }
        cut += 13;
    }
}

/// A small deterministic generator (no dependency needed).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next()).unwrap() % n
    }
}

#[test]
fn mutated_dictionaries() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let text = spec("FIXT11");
    // Bytes that matter to XML and to the model.
    let alphabet = b"<>/='\" \nYNx0123456789AZ_&;!-?";
    let mut rng = Lcg(0x5eed);
    for _ in 0..400 {
        let mut bytes = text.clone().into_bytes();
        for _ in 0..=rng.below(4) {
            let at = rng.below(bytes.len());
            match rng.below(3) {
                0 => bytes[at] = alphabet[rng.below(alphabet.len())],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, alphabet[rng.below(alphabet.len())]),
            }
        }
        // The alphabet is ASCII and the input is ASCII, so this is UTF-8.
        let mutated = String::from_utf8(bytes).unwrap();
        check(&mutated);
    }
}

#[test]
fn swapped_names_make_model_errors_not_panics() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    // Renaming references breaks the model but not the XML.
    let text = spec("FIX44");
    for (from, to) in [
        ("name='Instrument'", "name='Instrumen'"),
        ("name='NoPartyIDs'", "name='PartyID'"),
        ("type='NUMINGROUP'", "type='STRING'"),
        ("enum='1'", "enum=''"),
        ("number='55'", "number='54'"),
    ] {
        let broken = text.replacen(from, to, 1);
        let doc = xml::parse("FIX44.xml", &broken).unwrap();
        let r = resolve(&doc);
        assert!(r.has_errors(), "{from} -> {to}");
    }
}
