//! QuickFIX's server acceptance suite (`../shared/reference/quickfix/acceptance`)
//! run in memory against [`fix_session::Session`]: every `.def` script of the
//! server directories, one line per script, totals per version.
//!
//! The session is not complete yet, so the test is a ratchet: at least
//! [`PASS_FLOOR`] scripts must pass, and every script in [`MUST_PASS`] must. Raise
//! both as the session improves. `FIX_ACCEPTANCE_VERBOSE=1` prints the expected
//! and received messages of each failure; `--nocapture` shows the report.

mod acceptance {
    pub(crate) mod runner;
    pub(crate) mod script;
}

use acceptance::runner::{Acceptor, Dictionaries};
use acceptance::script::{self, Formats};

const DIRS: &[&str] = &[
    "fix40", "fix41", "fix42", "fix43", "fix44", "fix50", "fix50sp1", "fix50sp2", "validate",
    "future",
];

/// How many scripts pass at least (raise it when more pass).
const PASS_FLOOR: usize = 470;

/// Scripts seen passing, which must keep passing: `dir/name` lines.
const MUST_PASS: &str = include_str!("acceptance/passing.txt");

#[test]
fn quickfix_server_acceptance() {
    fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
    let root = fix_test_support::files::quickfix_dir().join("acceptance");
    let formats = Formats::parse(&std::fs::read_to_string(root.join("fields.fmt")).unwrap());
    let dicts = Dictionaries::load();
    let verbose = std::env::var_os("FIX_ACCEPTANCE_VERBOSE").is_some_and(|v| v != "0");
    let mut summary = String::new();
    let (mut passed, mut failed) = (0, 0);
    let mut passing = Vec::new();
    for dir in DIRS {
        let mut paths: Vec<_> = std::fs::read_dir(root.join("server").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "def"))
            .collect();
        paths.sort();
        let (mut p, mut f) = (0, 0);
        for path in paths {
            let name = format!("{dir}/{}", path.file_stem().unwrap().to_string_lossy());
            let text = std::fs::read(&path).unwrap();
            let result = script::parse(&text)
                .and_then(|steps| Acceptor::new(&dicts, *dir == "future").run(&steps, &formats));
            match result {
                Ok(()) => {
                    println!("PASS {name}");
                    passing.push(name);
                    p += 1;
                }
                Err(e) => {
                    let first = e.lines().next().unwrap_or("");
                    println!("FAIL {name}: {first}");
                    if verbose {
                        for line in e.lines().skip(1) {
                            println!("  {line}");
                        }
                    }
                    f += 1;
                }
            }
        }
        summary.push_str(&format!("{dir}: {p} passed, {f} failed\n"));
        passed += p;
        failed += f;
    }
    summary.push_str(&format!("acceptance: {passed} passed, {failed} failed"));
    println!("{summary}");
    let regressed: Vec<&str> = MUST_PASS
        .lines()
        .filter(|n| !n.is_empty() && !passing.iter().any(|p| p == n))
        .collect();
    assert!(
        passed >= PASS_FLOOR && regressed.is_empty(),
        "{summary}\nfloor {PASS_FLOOR}; no longer passing: {regressed:?}"
    );
}
