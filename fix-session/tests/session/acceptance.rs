//! QuickFIX's server acceptance suite (`../shared/reference/quickfix/acceptance`)
//! run in memory against [`fix_session::Session`]: every `.def` script of the
//! server directories, one line per script, totals per version.
//!
//! The session is not complete yet, so the test is a ratchet: at least
//! `PASS_FLOOR` scripts must pass, and every script in `passing.txt` must
//! (`fix_test_support::acceptance::suite`). Raise both as the session improves.
//! `FIX_ACCEPTANCE_VERBOSE=1` prints the expected and received messages of each
//! failure; `--nocapture` shows the report. fix-engine's acceptance test runs the
//! same scripts over TCP.

mod runner;

use fix_test_support::acceptance::profiles::Dictionaries;
use fix_test_support::acceptance::{script, suite};
use runner::Acceptor;

#[test]
fn quickfix_server_acceptance() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let formats = suite::formats();
    let dicts = Dictionaries::load();
    let dirs: Vec<(&str, suite::Outcomes)> = suite::DIRS
        .iter()
        .map(|&dir| {
            let outcomes = suite::scripts(dir)
                .into_iter()
                .map(|(name, text)| {
                    let result = script::parse(&text)
                        .and_then(|steps| Acceptor::new(&dicts, dir).run(&steps, &formats));
                    (name, result)
                })
                .collect();
            (dir, outcomes)
        })
        .collect();
    suite::report(&dirs);
}
