//! The identifiers of the nine QuickFIX reference dictionaries'
//! (`../shared/reference/quickfix/spec/`, read-only fixtures) field names.

use std::collections::HashSet;

use fix_codegen::ident::{snake_case, upper_camel};
use fix_dict::Dictionary;

const DICTIONARIES: &[&str] = &[
    "FIX40", "FIX41", "FIX42", "FIX43", "FIX44", "FIX50", "FIX50SP1", "FIX50SP2", "FIXT11",
];

fn load(name: &str) -> Dictionary {
    let path = fix_test_support::files::quickfix_dir()
        .join("spec")
        .join(format!("{name}.xml"));
    Dictionary::from_path(&path).unwrap_or_else(|e| panic!("{name}:\n{e}"))
}

/// Field names map to distinct snake_case getters and UpperCamel types in
/// every dictionary (a collision would need `ident::dedup`).
#[test]
fn identifiers_of_reference_names_are_distinct() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    for &name in DICTIONARIES {
        let d = &load(name);
        let mut snakes = HashSet::new();
        let mut camels = HashSet::new();
        for f in d.fields() {
            assert!(
                snakes.insert(snake_case(&f.name)),
                "{name}: {} collides",
                f.name
            );
            assert!(
                camels.insert(upper_camel(&f.name)),
                "{name}: {} collides",
                f.name
            );
        }
        if ("FIX43"..="FIX50SP2").contains(&name) {
            assert!(snakes.contains("no_party_ids"), "{name}");
        }
    }
}
