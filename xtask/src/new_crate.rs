//! `cargo xtask new-crate spec/NAME.xml`: the typed crate for a venue's dictionary
//! in one command. Writes `name/Cargo.toml` and `name/src/lib.rs`, adds `name` to
//! the workspace members, and generates `name/src/generated/`; from then on
//! `cargo xtask regen` keeps it fresh like every other generated crate.

use std::path::Path;

/// Creates the crate for `spec` (a path relative to `root`, e.g. `spec/ACMEX.xml`)
/// and returns its directory name.
pub(crate) fn run(root: &Path, spec: &str) -> Result<String, String> {
    let spec_path = Path::new(spec);
    if spec_path.parent() != Some(Path::new("spec"))
        || spec_path.extension().is_none_or(|x| x != "xml")
    {
        return Err(format!(
            "{spec}: give a dictionary in spec/, e.g. spec/MYVENUE.xml"
        ));
    }
    if !root.join(spec_path).exists() {
        return Err(format!("{spec}: no such file"));
    }
    let stem = spec_path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let name = stem.to_lowercase().replace('.', "");
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(format!("{spec}: `{name}` is not a usable crate name"));
    }
    let dir = root.join(&name);
    if dir.join("Cargo.toml").exists() {
        return Err(format!(
            "{name}/ exists already: `cargo xtask regen` refreshes it"
        ));
    }
    std::fs::create_dir_all(dir.join("src")).map_err(|e| format!("{name}/src: {e}"))?;
    let manifest = format!(
        "[package]\nname = \"{name}\"\ndescription = \"Typed FIX messages generated from {spec}\"\nversion.workspace = true\nedition.workspace = true\nrust-version.workspace = true\nlicense.workspace = true\nrepository.workspace = true\npublish.workspace = true\n\n[features]\n# On by default, so that fix-core's errors are `std::error::Error`s and `?` takes\n# them into a `Box<dyn Error>`; `default-features = false` for a no_std build.\ndefault = [\"std\"]\nstd = [\"fix-core/std\"]\n\n[dependencies]\nfix-core.workspace = true\n\n[lints]\nworkspace = true\n"
    );
    let lib = format!(
        "//! Typed FIX messages, generated from `{spec}` by `cargo xtask regen`.\n//!\n//! Everything below the crate root comes from `src/generated/` (never edit it:\n//! change `{spec}` and run `cargo xtask regen`): `messages` (read views,\n//! tables, builders), `components`, `enums`, `fields` (tag constants), the\n//! [`Message`] enum and the validation tables ([`DICTIONARY`]).\n\npub use fix_core as core;\n\n#[rustfmt::skip]\nmod generated;\n\npub use generated::*;\n"
    );
    write(&dir.join("Cargo.toml"), &manifest)?;
    write(&dir.join("src/lib.rs"), &lib)?;
    add_member(root, &name)?;
    Ok(name)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Adds `name` to `members = [...]` in the root manifest, if it is not there.
fn add_member(root: &Path, name: &str) -> Result<(), String> {
    let path = root.join("Cargo.toml");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let updated = with_member(&text, name).ok_or_else(|| {
        format!(
            "{}: no `members = [...]` line to add {name} to",
            path.display()
        )
    })?;
    if updated != text {
        write(&path, &updated)?;
    }
    Ok(())
}

/// `manifest` with `name` appended to its one-line `members = [...]` list.
fn with_member(manifest: &str, name: &str) -> Option<String> {
    let start = manifest.find("members = [")?;
    let end = start + manifest[start..].find(']')?;
    let list = &manifest[start..end];
    if list.contains(&format!("\"{name}\"")) {
        return Some(manifest.to_string());
    }
    let empty = list["members = [".len()..].trim().is_empty();
    let separator = if empty { "" } else { ", " };
    Some(format!(
        "{}{separator}\"{name}\"{}",
        manifest[..end].trim_end(),
        &manifest[end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_get_the_new_crate_once() {
        let manifest = "[workspace]\nmembers = [\"fix-core\", \"fix44\"]\n";
        let once = with_member(manifest, "acmex").unwrap();
        assert_eq!(
            once,
            "[workspace]\nmembers = [\"fix-core\", \"fix44\", \"acmex\"]\n"
        );
        assert_eq!(with_member(&once, "acmex").unwrap(), once);
        assert_eq!(
            with_member("members = []\n", "acmex").unwrap(),
            "members = [\"acmex\"]\n"
        );
    }

    /// `new-crate` end to end, in a workspace of its own: the crate is written,
    /// added to the members, generated, and builds against fix-core.
    #[test]
    fn a_new_crate_is_created_generated_and_builds() {
        let real = crate::root();
        let dir = fix_test_support::temp_dir::TestDir::new("xtask-new-crate");
        std::fs::create_dir_all(dir.join("spec")).unwrap();
        std::fs::copy(real.join("spec/ACMEX.xml"), dir.join("spec/VENUE.xml")).unwrap();
        // The real workspace manifest, with no members yet and fix-core where it is.
        let manifest = std::fs::read_to_string(real.join("Cargo.toml")).unwrap();
        let start = manifest.find("members = [").unwrap();
        let end = start + manifest[start..].find(']').unwrap() + 1;
        let fix_core = real.join("fix-core").display().to_string();
        let manifest = format!("{}members = []{}", &manifest[..start], &manifest[end..])
            .replace("path = \"fix-core\"", &format!("path = {fix_core:?}"));
        std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
        // The real lockfile: the same versions, resolved without the network.
        std::fs::copy(real.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();

        assert_eq!(run(&dir, "spec/VENUE.xml"), Ok("venue".to_string()));
        assert!(
            run(&dir, "spec/VENUE.xml")
                .unwrap_err()
                .contains("exists already")
        );
        let report = crate::regen(&dir, false);
        assert!(report.errors.is_empty(), "{:?}", report.errors);
        let root_manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
        assert!(root_manifest.contains("members = [\"venue\"]"));
        for file in [
            "Cargo.toml",
            "src/lib.rs",
            "src/generated/mod.rs",
            "src/generated/messages.rs",
        ] {
            assert!(dir.join("venue").join(file).is_file(), "venue/{file}");
        }
        assert!(
            crate::regen(&dir, true).changed.is_empty(),
            "fresh after generation"
        );

        let check = std::process::Command::new(env!("CARGO"))
            .args(["check", "--quiet", "--offline", "--manifest-path"])
            .arg(dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", real.join("target/new-crate-check"))
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }

    #[test]
    fn only_dictionaries_in_spec_are_taken() {
        let root = fix_test_support::temp_dir::TestDir::new("xtask-spec-only");
        assert!(run(&root, "venue.xml").unwrap_err().contains("spec/"));
        assert!(
            run(&root, "spec/NOPE-404.xml")
                .unwrap_err()
                .contains("no such file")
        );
    }
}
