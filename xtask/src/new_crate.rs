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
        "[package]\nname = \"{name}\"\ndescription = \"Typed FIX messages generated from {spec}\"\nversion.workspace = true\nedition.workspace = true\nrust-version.workspace = true\nlicense.workspace = true\nrepository.workspace = true\npublish.workspace = true\n\n[dependencies]\nfix-core.workspace = true\n\n[lints]\nworkspace = true\n"
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
    Some(format!(
        "{}, \"{name}\"{}",
        &manifest[..end],
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
    }

    #[test]
    fn only_dictionaries_in_spec_are_taken() {
        let root = std::env::temp_dir();
        assert!(run(&root, "venue.xml").unwrap_err().contains("spec/"));
        assert!(
            run(&root, "spec/NOPE-404.xml")
                .unwrap_err()
                .contains("no such file")
        );
    }
}
