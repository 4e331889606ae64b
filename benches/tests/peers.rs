//! The peer cases' own checks (every library reads and writes what ours does) run
//! under `cargo test` too, so a peer upgrade that changes behaviour fails here first.

use fix_benches::peers::{OURS, cases};

#[test]
fn every_case_agrees_with_ours() {
    fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    let mut all = cases();
    let mut groups: Vec<&str> = all.iter().map(|c| c.group).collect();
    groups.dedup();
    for group in &groups {
        let libs: Vec<&str> = all
            .iter()
            .filter(|c| c.group == *group)
            .map(|c| c.lib)
            .collect();
        assert!(
            libs.contains(&OURS),
            "{group} has no `{OURS}` reference: {libs:?}"
        );
        assert!(libs.len() >= 2, "{group} has no peer");
    }
    for case in &mut all {
        case.run();
    }
}
