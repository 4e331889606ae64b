//! The list of settings in docs/settings.md is the table's
//! (`config::keys_markdown`): this test fails when they differ;
//! `UPDATE_EXPECT=1 cargo test -p fix-engine --test engine readme_keys::`
//! writes the table's into docs/settings.md. And README's engine example is
//! fix-engine's crate example.

use std::path::Path;

const START: &str = "<!-- settings-table: generated from fix-engine/src/config/keys.rs by `UPDATE_EXPECT=1 cargo test -p fix-engine --test engine readme_keys::`; do not edit by hand -->\n";
const END: &str = "<!-- settings-table end -->";

#[test]
fn settings_doc_lists_every_key_of_the_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/settings.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(START)
        .expect("docs/settings.md has the settings table's start marker")
        + START.len();
    let end = start
        + readme[start..]
            .find(END)
            .expect("docs/settings.md has the settings table's end marker");
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
        "docs/settings.md's list of settings was not up to date with fix-engine/src/config/keys.rs: \
         run `UPDATE_EXPECT=1 cargo test -p fix-engine --test engine readme_keys::` and commit"
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

/// The README's typed application is the crate's example, which doctests
/// compile (the README's Rust snippets run as fix44's doctests, which have no
/// engine): the first `rust,ignore` block of its engine section, line for
/// line, is the `no_run` example of fix-engine's crate docs.
#[test]
fn readme_typed_application_is_the_crate_example() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("../README.md")).unwrap();
    let section = &readme[readme.find("## Running sessions: the engine").unwrap()..];
    let start = section.find("```rust,ignore\n").unwrap() + "```rust,ignore\n".len();
    let snippet = &section[start..start + section[start..].find("```").unwrap()];
    let lib = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let docs: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    let start = docs.find("```no_run\n").unwrap() + "```no_run\n".len();
    let example = &docs[start..start + docs[start..].find("```").unwrap()];
    assert_eq!(
        snippet, example,
        "README's engine example differs from fix-engine's crate example"
    );
}
