//! The acceptance suite as a whole, whichever runner runs its scripts: the
//! server directories and their `.def` scripts, the report (one line per
//! script, totals per version) and the ratchet it is checked against.

use std::path::PathBuf;

use super::script::Formats;

/// QuickFIX's server directories, in the order reported.
pub const DIRS: &[&str] = &[
    "fix40", "fix41", "fix42", "fix43", "fix44", "fix50", "fix50sp1", "fix50sp2", "validate",
    "future",
];

/// How many scripts pass at least (raise it when more pass).
const PASS_FLOOR: usize = 470;

/// Scripts seen passing, which must keep passing: `dir/name` lines.
const MUST_PASS: &str = include_str!("passing.txt");

fn root() -> PathBuf {
    crate::files::quickfix_dir().join("acceptance")
}

/// `fields.fmt`: how the placeholder values of expected messages are matched.
pub fn formats() -> Formats {
    Formats::parse(&std::fs::read_to_string(root().join("fields.fmt")).unwrap())
}

/// The `.def` scripts of server directory `dir` in name order: `dir/name` and
/// the script's text.
pub fn scripts(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut paths: Vec<_> = std::fs::read_dir(root().join("server").join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "def"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let name = format!("{dir}/{}", path.file_stem().unwrap().to_string_lossy());
            (name, std::fs::read(&path).unwrap())
        })
        .collect()
}

/// What the scripts of one directory did, in name order: the script's name and
/// its first failure.
pub type Outcomes = Vec<(String, Result<(), String>)>;

/// Prints a PASS or FAIL line per script and each directory's totals, checks
/// the whole against [`PASS_FLOOR`] and [`MUST_PASS`].
/// `FIX_ACCEPTANCE_VERBOSE=1` prints the rest of each failure (the expected
/// and received messages).
pub fn report(dirs: &[(&str, Outcomes)]) {
    let verbose = std::env::var_os("FIX_ACCEPTANCE_VERBOSE").is_some_and(|v| v != "0");
    let mut summary = String::new();
    let (mut passed, mut failed) = (0, 0);
    let mut passing = Vec::new();
    for (dir, outcomes) in dirs {
        let (mut p, mut f) = (0, 0);
        for (name, result) in outcomes {
            match result {
                Ok(()) => {
                    println!("PASS {name}");
                    passing.push(name.as_str());
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
        .filter(|n| !n.is_empty() && !passing.contains(n))
        .collect();
    assert!(
        passed >= PASS_FLOOR && regressed.is_empty(),
        "{summary}\nfloor {PASS_FLOOR}; no longer passing: {regressed:?}"
    );
}
