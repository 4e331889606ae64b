//! fix44 as a user's only dependency (issue 37: "cannot find crate
//! fix_core"). What a user copies from fix44 (the crate example, each
//! message's example in `doc/`, the programs in `examples/`) is built, as
//! written, in a crate of its own whose one dependency is fix44: fix-core's
//! types are reached through fix44's re-export, `fix44::core`, never through
//! a crate the user did not add. Generated code and fix-core's macros
//! compile inside fix44 (the macros name fix-core as `$crate`), so this
//! checks the whole of what a user touches.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The ```` ``` ```` blocks of a Markdown text, rustdoc's hidden lines (`# `)
/// shown.
fn code_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_start().strip_prefix("```")) {
            (None, Some(lang)) if lang.is_empty() || lang == "rust" => {
                current = Some(String::new())
            }
            (Some(_), Some(_)) => blocks.extend(current.take()),
            (Some(block), None) => {
                let line = line.strip_prefix("# ").unwrap_or(line);
                block.push_str(line);
                block.push('\n');
            }
            _ => {}
        }
    }
    blocks
}

/// A doctest as the program rustdoc makes of it: the block inside a `main`
/// that returns what its last line, `Ok::<(), Box<dyn Error>>(())`, does.
fn doctest_program(block: &str) -> String {
    assert!(
        block
            .trim_end()
            .ends_with("Ok::<(), Box<dyn std::error::Error>>(())"),
        "a fix44 doc example ends with its Ok: {block}"
    );
    format!("fn main() -> Result<(), Box<dyn std::error::Error>> {{\n{block}}}\n")
}

#[test]
fn fix44_s_examples_build_with_fix44_as_the_only_dependency() {
    let fix44 = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = fix44.parent().unwrap();
    let user = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("only-fix44");
    let _ = std::fs::remove_dir_all(user.join("src"));
    std::fs::create_dir_all(user.join("src/bin")).unwrap();
    std::fs::write(
        user.join("Cargo.toml"),
        format!(
            "[package]\nname = \"only-fix44\"\nversion = \"0.0.0\"\nedition = \"2024\"\npublish = false\n\n\
             [dependencies]\nfix44 = {{ path = {:?} }}\n\n\
             # Not a member of the repository's workspace.\n[workspace]\n",
            fix44.display().to_string()
        ),
    )
    .unwrap();
    // The workspace's lock: the versions its own build resolved, already
    // fetched, so the user's crate builds offline.
    std::fs::copy(root.join("Cargo.lock"), user.join("Cargo.lock")).unwrap();

    let mut programs = Vec::new();
    let lib = std::fs::read_to_string(fix44.join("src/lib.rs")).unwrap();
    let crate_doc: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    for block in code_blocks(&crate_doc) {
        programs.push(("crate_example".to_owned(), doctest_program(&block)));
    }
    let mut docs: Vec<_> = std::fs::read_dir(fix44.join("doc"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    docs.sort();
    for doc in docs {
        let stem = doc.file_stem().unwrap().to_string_lossy().to_lowercase();
        let blocks = code_blocks(&std::fs::read_to_string(&doc).unwrap());
        assert!(!blocks.is_empty(), "{}: no example", doc.display());
        for (i, block) in blocks.iter().enumerate() {
            programs.push((format!("doc_{stem}_{i}"), doctest_program(block)));
        }
    }
    let mut examples: Vec<_> = std::fs::read_dir(fix44.join("examples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    examples.sort();
    for example in examples {
        let stem = example.file_stem().unwrap().to_string_lossy().into_owned();
        programs.push((
            format!("example_{stem}"),
            std::fs::read_to_string(&example).unwrap(),
        ));
    }
    assert!(programs.len() >= 7, "{}", programs.len());
    for (name, source) in &programs {
        std::fs::write(user.join(format!("src/bin/{name}.rs")), source).unwrap();
    }

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--offline", "--bins", "--quiet"])
        .current_dir(&user)
        // Its own target directory: the one running this test is locked by
        // the build that made it.
        .env("CARGO_TARGET_DIR", user.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "a crate depending on fix44 alone does not build what fix44 shows ({}):\n{}",
        user.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}
