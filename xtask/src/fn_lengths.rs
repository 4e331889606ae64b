//! `cargo xtask fn-lengths`: the functions longer than a limit in the files
//! given (issue 39's measure of where code is hard to read), from the
//! source as rustfmt lays it out: a function's body ends at the first `}`
//! at its `fn`'s indentation. Lines are counted from the `fn` line to the
//! closing brace, both included; doc comments and attributes are not.

use std::path::{Path, PathBuf};

/// One function's place and length.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Function {
    pub(crate) file: PathBuf,
    pub(crate) line: usize,
    pub(crate) name: String,
    pub(crate) lines: usize,
}

/// Every function with a body in `source`: its name, first line and length
/// in lines (the test below shows the cases).
pub(crate) fn functions(source: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = source.lines().collect();
    let mut found = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        let Some((indent, name)) = fn_start(line) else {
            continue;
        };
        if let Some(end) = body_end(&lines, at, indent) {
            found.push((name, at + 1, end - at + 1));
        }
    }
    found
}

/// The indentation and name of a line that starts a function item.
fn fn_start(line: &str) -> Option<(usize, String)> {
    let trimmed = line.trim_start();
    let indent = line.len() - trimmed.len();
    let mut rest = trimmed;
    loop {
        let word_end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
        let word = &rest[..word_end];
        let qualifier = word.starts_with("pub")
            || matches!(word, "const" | "async" | "unsafe" | "extern" | "default")
            || word.starts_with('"');
        if word == "fn" {
            let after = rest[word_end..].trim_start();
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            return (!name.is_empty()).then_some((indent, name));
        }
        if !qualifier || word_end == rest.len() {
            return None;
        }
        rest = rest[word_end..].trim_start();
    }
}

/// The line of the `}` that closes the function starting at `start`, or
/// `None` for a declaration without a body (`fn f();`).
fn body_end(lines: &[&str], start: usize, indent: usize) -> Option<usize> {
    let mut opened = false;
    for (at, line) in lines.iter().enumerate().skip(start) {
        let code = line.split("//").next().unwrap_or_default().trim_end();
        if !opened {
            if code.ends_with('}') && code.contains('{') && at == start {
                return Some(at); // a one-line function
            }
            if code.ends_with(';') {
                return None;
            }
            if code.ends_with('{') {
                opened = true;
            }
            continue;
        }
        let trimmed = line.trim_start();
        if line.len() - trimmed.len() == indent && trimmed.starts_with('}') {
            return Some(at);
        }
    }
    None
}

/// The `.rs` files under `path` (or `path` itself), sorted.
fn rust_files(path: &Path) -> std::io::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_owned()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path)? {
        let p = entry?.path();
        if p.is_dir() {
            files.extend(rust_files(&p)?);
        } else if p.extension().is_some_and(|e| e == "rs") {
            files.push(p);
        }
    }
    files.sort();
    Ok(files)
}

/// The functions over `max` lines in `paths`, longest first.
pub(crate) fn over(paths: &[PathBuf], max: usize) -> std::io::Result<Vec<Function>> {
    let mut long = Vec::new();
    for path in paths {
        for file in rust_files(path)? {
            let source = std::fs::read_to_string(&file)?;
            for (name, line, lines) in functions(&source) {
                if lines > max {
                    long.push(Function {
                        file: file.clone(),
                        line,
                        name,
                        lines,
                    });
                }
            }
        }
    }
    long.sort_by(|a, b| b.lines.cmp(&a.lines).then(a.file.cmp(&b.file)));
    Ok(long)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn functions_are_measured_from_fn_to_their_closing_brace() {
        let source = "\
/// doc
pub(crate) async fn long<T>(
    a: T,
) -> Result<(), E>
where
    T: Copy,
{
    let s = \"}\";
    if a {
    }
}

trait T {
    fn declared(&self);
    fn defaulted(&self) -> u8 {
        1
    }
}

fn one() {}
";
        assert_eq!(
            functions(source),
            vec![
                ("long".to_owned(), 2, 10),
                ("defaulted".to_owned(), 15, 3),
                ("one".to_owned(), 20, 1),
            ]
        );
    }
}
