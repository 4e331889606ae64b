//! `cargo xtask <task>`: project automation that needs no extra tools.
//!
//! - `cargo xtask regen` regenerates every generated module from its dictionary
//!   (see [`targets`]), writing only files whose contents changed.
//! - `cargo xtask new-crate spec/NAME.xml` creates the typed crate `name/` for a
//!   venue's dictionary, adds it to the workspace and generates it.
//! - `cargo xtask regen --check` writes nothing and exits non-zero naming the stale
//!   files; the `generated_code_is_fresh` test runs it, so `cargo test` fails on
//!   stale output.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use fix_codegen::emit::{self, Config};

mod bench_report;
mod fn_lengths;
mod new_crate;
mod plot;
mod race;
mod scale;
use fix_dict::Dictionary;

/// One generated module: the dictionary (relative to the workspace root) and the
/// directory the module is written to.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Target {
    spec: PathBuf,
    /// The transport dictionary (FIXT11) `spec` rides on, for an application
    /// dictionary of FIX 5.0 or later: the crate is generated from both
    /// (`Dictionary::from_fixt_paths`).
    transport: Option<PathBuf>,
    dir: PathBuf,
}

/// Crates generated from QuickFIX's own dictionaries, read where the tests read
/// them (`../shared/reference/quickfix/spec`, or under `FIX_SHARED_DIR`) and
/// never copied into the repository: (transport, application, module directory).
const SHARED_FIXT: &[(&str, &str, &str)] =
    &[("FIXT11.xml", "FIX50SP2.xml", "fix50sp2/src/generated")];

/// `../shared` beside the repository, or the directory `FIX_SHARED_DIR` names
/// (as `fix_test_support::files::shared_dir`).
fn shared_dir(root: &Path) -> PathBuf {
    match std::env::var_os("FIX_SHARED_DIR") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => root.join("../shared"),
    }
}

/// Where QuickFIX's dictionaries are, relative to the shared directory.
const QUICKFIX_SPEC: &str = "reference/quickfix/spec";

/// How a generated file names a dictionary: relative to the workspace root, or
/// to `../shared` for QuickFIX's (never an absolute path: the output is the
/// same on every machine).
fn label(root: &Path, path: &Path) -> String {
    let shared = shared_dir(root);
    let text = if let Ok(rel) = path.strip_prefix(&shared) {
        Path::new("../shared").join(rel)
    } else {
        path.strip_prefix(root).unwrap_or(path).to_path_buf()
    };
    text.to_string_lossy().replace('\\', "/")
}

/// Dictionaries with a fixed destination. Any other `spec/NAME.xml` maps to the
/// crate `name/` (lower case, dots dropped), `name/src/generated/`.
const FIXED: &[(&str, &str)] = &[
    ("spec/FIX44.xml", "fix44/src/generated"),
    (
        "fix-codegen/tests/dicts/sample.xml",
        "fix-codegen/tests/sample-crate/src/generated",
    ),
];

/// The workspace root: the parent of this crate's directory.
fn root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(Path::to_path_buf).unwrap_or(manifest)
}

/// Every target, sorted by spec path: the fixed table plus `spec/*.xml`.
fn targets(root: &Path) -> Vec<Target> {
    let mut out: Vec<Target> = FIXED
        .iter()
        .map(|(s, d)| Target {
            spec: s.into(),
            transport: None,
            dir: d.into(),
        })
        .collect();
    let quickfix = shared_dir(root).join(QUICKFIX_SPEC);
    out.extend(SHARED_FIXT.iter().map(|(t, a, d)| Target {
        spec: quickfix.join(a),
        transport: Some(quickfix.join(t)),
        dir: d.into(),
    }));
    if let Ok(entries) = std::fs::read_dir(root.join("spec")) {
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.extension().is_none_or(|x| x != "xml") {
                continue;
            }
            let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
                continue;
            };
            let spec = Path::new("spec").join(entry.file_name());
            if out.iter().any(|t| t.spec == spec) {
                continue;
            }
            let krate = stem.to_lowercase().replace('.', "");
            out.push(Target {
                spec,
                transport: None,
                dir: Path::new(&krate).join("src").join("generated"),
            });
        }
    }
    out.sort_by(|a, b| a.spec.cmp(&b.spec));
    out
}

/// What one regeneration did.
#[derive(Debug, Default)]
struct Report {
    /// Files written (or, when checking, stale).
    changed: Vec<PathBuf>,
    /// Targets skipped, with the reason.
    skipped: Vec<String>,
    /// Dictionaries that failed to load or generate.
    errors: Vec<String>,
}

/// Regenerates (or checks) every target under `root`.
/// The messages with a hand-written example in a generated crate's `doc/`
/// (`doc/<Name>.md`, included in the view's docs, so run as the crate's
/// doctests); an error for a file that names no message of the dictionary.
fn doc_examples(dir: &Path, dict: &Dictionary) -> Result<Vec<String>, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut names = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !dict.messages().iter().any(|m| m.name == name) {
            return Err(format!(
                "{}: the dictionary has no message {name:?} for this example",
                path.display()
            ));
        }
        names.push(name);
    }
    names.sort();
    Ok(names)
}

fn regen(root: &Path, check: bool) -> Report {
    let mut report = Report::default();
    for target in targets(root) {
        let spec = root.join(&target.spec);
        let name = label(root, &spec);
        let transport = target.transport.as_ref().map(|t| root.join(t));
        if let Some(missing) = std::iter::once(&spec)
            .chain(&transport)
            .find(|p| !p.exists())
        {
            report
                .skipped
                .push(format!("{}: no such dictionary", label(root, missing)));
            continue;
        }
        let krate = target.dir.parent().and_then(Path::parent);
        if let Some(krate) = krate
            && !root.join(krate).join("Cargo.toml").exists()
        {
            report.skipped.push(format!(
                "{name}: no crate at {}/ to generate into",
                krate.display()
            ));
            continue;
        }
        let loaded = match &transport {
            Some(t) => Dictionary::from_fixt_paths(t, &spec),
            None => Dictionary::from_path(&spec),
        };
        let dict = match loaded {
            Ok(d) => d,
            Err(e) => {
                report.errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        let source = match &transport {
            Some(t) => format!("{name} over {}", label(root, t)),
            None => name.clone(),
        };
        let examples = match krate.map(|k| doc_examples(&root.join(k).join("doc"), &dict)) {
            Some(Err(e)) => {
                report.errors.push(e);
                continue;
            }
            Some(Ok(names)) => names,
            None => Vec::new(),
        };
        let config = Config::new(source).examples(examples);
        let files = match emit::generate(&dict, &config) {
            Ok(f) => f,
            Err(e) => {
                report.errors.push(format!("{name}: {e}"));
                continue;
            }
        };
        match emit::write(&root.join(&target.dir), &files, check) {
            Ok(changed) => report.changed.extend(
                changed
                    .into_iter()
                    .map(|p| p.strip_prefix(root).map(Path::to_path_buf).unwrap_or(p)),
            ),
            Err(e) => report.errors.push(format!("{}: {e}", target.dir.display())),
        }
    }
    report
}

/// `fn-lengths [--max N] PATH...`: lists the functions over N lines (60 by
/// default) in the paths, relative to the workspace; fails when there are any.
fn fn_lengths_task(args: &[String]) -> ExitCode {
    let mut max = 60;
    let mut paths = Vec::new();
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--max" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => max = n,
                None => {
                    eprintln!("fn-lengths: --max takes a number of lines");
                    return ExitCode::FAILURE;
                }
            },
            path => paths.push(root().join(path)),
        }
    }
    match fn_lengths::over(&paths, max) {
        Ok(long) if long.is_empty() => {
            println!("no function over {max} lines");
            ExitCode::SUCCESS
        }
        Ok(long) => {
            for f in &long {
                let file = f.file.strip_prefix(root()).unwrap_or(&f.file);
                println!(
                    "{:>4} lines  {}:{}  {}",
                    f.lines,
                    file.display(),
                    f.line,
                    f.name
                );
            }
            println!("{} functions over {max} lines", long.len());
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("fn-lengths: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        None | Some("help" | "--help" | "-h") => {
            println!(
                "usage: cargo xtask <task>\n\ntasks:\n  regen [--check]  regenerate the generated modules from their dictionaries\n                   (--check: write nothing, fail on stale files)\n  help             this text"
            );
            println!(
                "  new-crate spec/NAME.xml\n                   create the typed crate name/ for a dictionary and generate it"
            );
            println!(
                "  bench-report [--quickfix] [--race-only | --scale-only] [-- <criterion or scale args>]\n                   time ours beside the peers, count allocations, race the engines, write benches/RESULTS.md\n                   (--quickfix: QuickFIX C++ too; needs cmake and a C++ compiler;\n                   --race-only: only the engine race, into its section of the existing file;\n                   --scale-only: only the scale lane, into its section and benches/scale-latency.png,\n                   e.g. -- --sessions 1,10,100 --rates 2000 --seconds 3)"
            );
            println!(
                "  fn-lengths [--max N] PATH...\n                   list the functions over N lines (default 60) in the files under PATH; fail if any"
            );
            ExitCode::SUCCESS
        }
        Some("regen") => {
            let check = args.iter().skip(1).any(|a| a == "--check");
            let report = regen(&root(), check);
            for s in &report.skipped {
                eprintln!("skipped {s}");
            }
            for e in &report.errors {
                eprintln!("error: {e}");
            }
            if check {
                for p in &report.changed {
                    eprintln!(
                        "{} was not up-to-date, run `cargo xtask regen` and commit",
                        p.display()
                    );
                }
            } else {
                for p in &report.changed {
                    println!("wrote {}", p.display());
                }
            }
            let stale = check && !report.changed.is_empty();
            if report.errors.is_empty() && !stale {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Some("new-crate") => {
            let Some(spec) = args.get(1) else {
                eprintln!("usage: cargo xtask new-crate spec/NAME.xml");
                return ExitCode::FAILURE;
            };
            let root = root();
            match new_crate::run(&root, spec) {
                Ok(name) => {
                    let report = regen(&root, false);
                    for e in &report.errors {
                        eprintln!("error: {e}");
                    }
                    for p in &report.changed {
                        println!("wrote {}", p.display());
                    }
                    println!(
                        "created crate {name}/ from {spec}: `cargo xtask regen` keeps it fresh"
                    );
                    if report.errors.is_empty() {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::FAILURE
                    }
                }
                Err(e) => {
                    eprintln!("new-crate: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some("fn-lengths") => fn_lengths_task(&args[1..]),
        Some("bench-report") => match bench_report::run(&args[1..]) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("bench-report: {e}");
                ExitCode::FAILURE
            }
        },
        Some(other) => {
            eprintln!("unknown task `{other}`; run `cargo xtask help`");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fix_test_support::temp_dir::TestDir;

    #[test]
    fn doc_examples_name_messages_of_the_dictionary() {
        let dict = Dictionary::from_path(root().join("spec/FIX44.xml")).unwrap();
        let dir = TestDir::new("xtask-doc");
        assert_eq!(doc_examples(&dir.join("absent"), &dict), Ok(vec![]));
        std::fs::write(dir.join("NewOrderSingle.md"), "x").unwrap();
        std::fs::write(dir.join("Heartbeat.md"), "x").unwrap();
        std::fs::write(dir.join("notes.txt"), "x").unwrap();
        assert_eq!(
            doc_examples(&dir, &dict),
            Ok(vec!["Heartbeat".to_owned(), "NewOrderSingle".to_owned()])
        );
        std::fs::write(dir.join("NewOrderSingel.md"), "x").unwrap();
        let err = doc_examples(&dir, &dict).unwrap_err();
        assert!(err.contains("no message \"NewOrderSingel\""), "{err}");
    }

    #[test]
    fn generated_code_is_fresh() {
        let report = regen(&root(), true);
        assert!(report.errors.is_empty(), "{:#?}", report.errors);
        // A missing dictionary or crate would be skipped, and pass unchecked:
        // only QuickFIX's dictionaries may be absent, outside CI (docs/testing.md,
        // Fixtures), where fix50sp2 is then left unchecked.
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        let shared = |s: &String| !ci && s.starts_with("../shared/");
        assert!(report.skipped.iter().all(shared), "{:#?}", report.skipped);
        let dirs: Vec<_> = targets(&root()).into_iter().map(|t| t.dir).collect();
        for dir in [
            "fix44/src/generated",
            "acmex/src/generated",
            "fix50sp2/src/generated",
        ] {
            assert!(
                dirs.iter().any(|d| d.ends_with(dir)),
                "{dir} is not a target: {dirs:?}"
            );
        }
        assert!(
            report.changed.is_empty(),
            "stale generated files, run `cargo xtask regen` and commit: {:#?}",
            report.changed
        );
    }

    #[test]
    fn targets_are_table_driven_and_sorted() {
        let t = targets(&root());
        assert!(
            t.iter().any(|t| t.spec == Path::new("spec/FIX44.xml")
                && t.dir == Path::new("fix44/src/generated"))
        );
        assert!(t.windows(2).all(|w| w[0].spec <= w[1].spec));
    }

    #[test]
    fn missing_specs_are_skipped_with_a_message() {
        let dir = TestDir::new("xtask-empty");
        let report = regen(&dir, true);
        assert!(report.errors.is_empty());
        assert!(report.changed.is_empty());
        assert!(report.skipped.iter().any(|s| s.contains("spec/FIX44.xml")));
    }

    /// ARCHITECTURE.md's code map names every source file of each crate in
    /// that crate's section (as `name.rs`, `dir/` for a `mod.rs`, or the
    /// module's `name` in backticks): a module added without a word there
    /// fails here.
    #[test]
    fn architecture_names_every_module() {
        let root = root();
        let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
        let start = text.find("## Code map").expect("a code map");
        let end = text[start..]
            .find("\n## ")
            .map_or(text.len(), |e| start + 1 + e);
        let map = &text[start..end];
        let crates = [
            "fix-core",
            "fix-dict",
            "fix-codegen",
            "fix-cli",
            "fix-session",
            "fix-store-postgres",
            "fix-engine",
            "fix-test-support",
            "xtask",
            "benches",
        ];
        let mut missing = Vec::new();
        for name in crates {
            let head = format!("**`{name}`**");
            let at = map
                .find(&head)
                .unwrap_or_else(|| panic!("no section for {name}"));
            let rest = &map[at + head.len()..];
            let section = &rest[..rest.find("\n**`").unwrap_or(rest.len())];
            for file in rust_files(&root.join(name).join("src")) {
                let rel = file.strip_prefix(root.join(name).join("src")).unwrap();
                let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
                if matches!(rel.to_str(), Some("lib.rs" | "main.rs")) || stem == "tests" {
                    continue;
                }
                let module = if stem == "mod" || stem == "main" {
                    let dir = file.parent().unwrap().file_name().unwrap();
                    dir.to_string_lossy().into_owned()
                } else {
                    stem.clone()
                };
                let named = [
                    format!("{module}.rs"),
                    format!("{module}/"),
                    format!("`{module}`"),
                ];
                if !named.iter().any(|n| section.contains(n.as_str())) {
                    missing.push(format!("{name}: {}", rel.display()));
                }
            }
        }
        assert!(
            missing.is_empty(),
            "ARCHITECTURE.md's code map does not name: {missing:?}"
        );
    }

    fn rust_files(dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                files.extend(rust_files(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                files.push(path);
            }
        }
        files
    }
}
