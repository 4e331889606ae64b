//! The files tests read from beside the repository: `../shared/corpus` (sample
//! FIX 4.4 messages) and `../shared/reference/quickfix` (QuickFIX's dictionaries
//! and acceptance scripts). They are read where they are, never copied in.
//!
//! A test that reads them starts with [`require_fixture!`](crate::require_fixture):
//! without the fixture it says so in one line and passes, so a clone without
//! `../shared` still runs the rest; under `CI=true` a missing fixture fails the
//! test instead, so CI never goes green by skipping.

use std::io::Write;
use std::path::{Path, PathBuf};

/// The workspace root.
///
/// ```
/// assert!(fix_test_support::files::workspace_root().join("Cargo.toml").is_file());
/// ```
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared` beside the repository, or the directory `FIX_SHARED_DIR` names
/// (to keep the fixtures elsewhere, or to see what the tests do without them).
///
/// ```
/// assert!(fix_test_support::files::shared_dir().ends_with("shared") || std::env::var_os("FIX_SHARED_DIR").is_some());
/// ```
pub fn shared_dir() -> PathBuf {
    match std::env::var_os("FIX_SHARED_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => workspace_root().join("../shared"),
    }
}

/// `../shared/corpus`, beside the repository.
///
/// ```
/// fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
/// assert!(fix_test_support::files::corpus_dir().join("heartbeat.fix").is_file());
/// ```
pub fn corpus_dir() -> PathBuf {
    shared_dir().join("corpus")
}

/// `../shared/reference/quickfix`: QuickFIX's `spec/` dictionaries and
/// `acceptance/` scripts.
///
/// ```
/// fix_test_support::require_fixture!(fix_test_support::files::quickfix_dir());
/// let spec = fix_test_support::files::quickfix_dir().join("spec/FIX44.xml");
/// assert!(spec.is_file());
/// ```
pub fn quickfix_dir() -> PathBuf {
    shared_dir().join("reference/quickfix")
}

/// Whether the fixture at `path` exists. When it does not, outside CI this prints
/// one line naming the test and the path and returns `false` (the test then skips);
/// under `CI=true` it panics, since CI must run every test.
///
/// ```
/// use fix_test_support::files::fixture_present;
/// assert!(fixture_present(&fix_test_support::files::workspace_root()));
/// if std::env::var("CI").as_deref() != Ok("true") {
///     assert!(!fixture_present(std::path::Path::new("/no/such/fixture")));
/// }
/// ```
pub fn fixture_present(path: &Path) -> bool {
    if path.exists() {
        return true;
    }
    let test = std::thread::current().name().unwrap_or("a test").to_owned();
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(
        !ci,
        "{test}: the fixture {} is missing, and CI=true runs every test (docs/testing.md: Fixtures)",
        path.display()
    );
    // One line per test, though a property test asks once per case.
    static TOLD: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut told = TOLD.lock().unwrap_or_else(|e| e.into_inner());
    if told.contains(&test) {
        return false;
    }
    told.push(test.clone());
    // Past the test harness's capture (which `eprintln!` goes through): a skip
    // is worth seeing in a passing run.
    let _ = writeln!(
        std::io::stderr(),
        "skipped {test}: {} is absent (docs/testing.md: Fixtures)",
        path.display()
    );
    false
}

/// Returns from the calling test when the fixture at `path` is absent (see
/// [`fixture_present`]); the second form returns that value, for tests whose body
/// returns one (proptest's `Ok(())`).
///
/// ```
/// fn reads_the_corpus() {
///     fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
///     assert!(!fix_test_support::files::corpus().is_empty());
/// }
/// reads_the_corpus();
/// ```
#[macro_export]
macro_rules! require_fixture {
    ($path:expr) => {
        if !$crate::files::fixture_present(::std::convert::AsRef::<::std::path::Path>::as_ref(
            &$path,
        )) {
            return;
        }
    };
    ($path:expr, $ret:expr) => {
        if !$crate::files::fixture_present(::std::convert::AsRef::<::std::path::Path>::as_ref(
            &$path,
        )) {
            return $ret;
        }
    };
}

/// The corpus message `<stem>.fix`, e.g. `execution_report`.
///
/// ```
/// fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
/// let er = fix_test_support::files::corpus_message("execution_report");
/// assert_eq!(er.len(), 339);
/// ```
///
/// # Panics
///
/// When the file cannot be read, naming it.
pub fn corpus_message(stem: &str) -> Vec<u8> {
    let path = corpus_dir().join(format!("{stem}.fix"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every corpus message, as `(file stem, bytes)` in name order.
///
/// ```
/// fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
/// let all = fix_test_support::files::corpus();
/// assert!(all.iter().any(|(stem, _)| stem == "heartbeat"));
/// ```
///
/// # Panics
///
/// When the corpus directory cannot be read.
pub fn corpus() -> Vec<(String, Vec<u8>)> {
    let dir = corpus_dir();
    let mut out: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("a readable directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "fix"))
        .map(|p| {
            let stem = p
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (stem, bytes)
        })
        .collect();
    out.sort();
    out
}
