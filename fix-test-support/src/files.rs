//! The files tests read from beside the repository: `../shared/corpus` (sample
//! FIX 4.4 messages) and `../shared/reference/quickfix` (QuickFIX's dictionaries
//! and acceptance scripts). They are read where they are, never copied in.

use std::path::PathBuf;

/// The workspace root.
///
/// ```
/// assert!(fix_test_support::files::workspace_root().join("Cargo.toml").is_file());
/// ```
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `../shared/corpus`, beside the repository.
///
/// ```
/// assert!(fix_test_support::files::corpus_dir().join("heartbeat.fix").is_file());
/// ```
pub fn corpus_dir() -> PathBuf {
    workspace_root().join("../shared/corpus")
}

/// `../shared/reference/quickfix`: QuickFIX's `spec/` dictionaries and
/// `acceptance/` scripts.
///
/// ```
/// let spec = fix_test_support::files::quickfix_dir().join("spec/FIX44.xml");
/// assert!(spec.is_file());
/// ```
pub fn quickfix_dir() -> PathBuf {
    workspace_root().join("../shared/reference/quickfix")
}

/// The corpus message `<stem>.fix`, e.g. `execution_report`.
///
/// ```
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
