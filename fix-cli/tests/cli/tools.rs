//! Every tool is a binary of this crate, so that one `cargo install --path
//! fix-cli` installs them all (README's "The tools"): each one built here
//! answers `--help`, and README's install line names exactly the binaries of
//! the manifest.

use std::path::Path;
use std::process::Command;

/// Each tool, by the path cargo built it at (a tool missing from the
/// manifest fails to compile here).
const TOOLS: &[(&str, &str)] = &[
    ("fixdump", env!("CARGO_BIN_EXE_fixdump")),
    ("fixstore", env!("CARGO_BIN_EXE_fixstore")),
    ("fixcfg", env!("CARGO_BIN_EXE_fixcfg")),
    ("fixadmin", env!("CARGO_BIN_EXE_fixadmin")),
];

#[test]
fn every_tool_answers_help() {
    for (name, exe) in TOOLS {
        let o = Command::new(exe).arg("--help").output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{name} --help: {o:?}");
        assert!(out.contains(name), "{name} --help does not name it: {out}");
    }
}

/// The `name = "…"` of each `[[bin]]` in fix-cli's manifest.
fn manifest_binaries() -> Vec<String> {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml")).unwrap();
    let mut names = Vec::new();
    let mut in_bin = false;
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            in_bin = line == "[[bin]]";
        } else if in_bin && let Some(value) = line.strip_prefix("name = ") {
            names.push(value.trim_matches('"').to_owned());
        }
    }
    names
}

#[test]
fn the_install_line_names_every_binary_of_the_manifest() {
    let mut built: Vec<String> = TOOLS.iter().map(|(name, _)| (*name).to_owned()).collect();
    let mut listed = manifest_binaries();
    built.sort();
    listed.sort();
    assert_eq!(built, listed, "a binary of the manifest is not tested here");

    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .unwrap();
    let install = readme
        .lines()
        .find(|l| l.starts_with("cargo install --locked --path fix-cli"))
        .expect("README shows the install command");
    for name in &listed {
        assert!(
            install.contains(name.as_str()),
            "{install:?} does not name {name}"
        );
    }
}
