//! The README's list of settings is the table's (`config::keys_markdown`):
//! this test fails when they differ; `UPDATE_EXPECT=1 cargo test -p
//! fix-engine --test readme_keys` writes the table's into the README.

use std::path::Path;

const START: &str = "<!-- settings-table: generated from fix-engine/src/config/keys.rs by `UPDATE_EXPECT=1 cargo test -p fix-engine --test readme_keys`; do not edit by hand -->\n";
const END: &str = "<!-- settings-table end -->";

#[test]
fn readme_lists_every_key_of_the_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(START)
        .expect("README.md has the settings table's start marker")
        + START.len();
    let end = start
        + readme[start..]
            .find(END)
            .expect("README.md has the settings table's end marker");
    let table = fix_engine::config::keys_markdown();
    if readme[start..end] == table {
        return;
    }
    if std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1") {
        let updated = format!("{}{table}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    panic!(
        "README.md's list of settings was not up to date with fix-engine/src/config/keys.rs: \
         run `UPDATE_EXPECT=1 cargo test -p fix-engine --test readme_keys` and commit"
    );
}

#[test]
fn every_key_is_in_the_list() {
    let table = fix_engine::config::keys_markdown();
    for k in fix_engine::config::keys() {
        assert!(
            table.contains(&format!("| `{}`", k.name)),
            "{} is not listed",
            k.name
        );
    }
}
