//! Loads QuickFIX dictionaries and reports their size, diagnostics and load
//! time.
//!
//! ```text
//! cargo run --release -p fix-dict --example load               # the nine reference dictionaries
//! cargo run --release -p fix-dict --example load -- FILE.xml   # your own
//! ```

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fix_dict::{resolve, xml};

fn main() {
    let mut files: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if files.is_empty() {
        let spec =
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/reference/quickfix/spec");
        for name in [
            "FIX40", "FIX41", "FIX42", "FIX43", "FIX44", "FIX50", "FIX50SP1", "FIX50SP2", "FIXT11",
        ] {
            files.push(spec.join(format!("{name}.xml")));
        }
    }
    let mut failed = false;
    for path in files {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("{}: {e}", path.display());
                failed = true;
                continue;
            }
        };
        // Best of a few runs: the first one pays for page faults.
        let mut best_read = Duration::MAX;
        let mut best_total = Duration::MAX;
        let mut last = None;
        for _ in 0..5 {
            let start = Instant::now();
            let doc = xml::parse(&name, &text);
            let read = start.elapsed();
            let result = doc.map(|doc| resolve(&doc));
            let total = start.elapsed();
            best_read = best_read.min(read);
            best_total = best_total.min(total);
            last = Some(result);
        }
        match last {
            Some(Ok(resolved)) => {
                let d = &resolved.dictionary;
                println!(
                    "{name}: {} ({} bytes): {} fields, {} components, {} messages, {} data pairs; \
                     {} errors, {} warnings; read {:.2} ms, read+resolve {:.2} ms",
                    d.version(),
                    text.len(),
                    d.fields().len(),
                    d.components().len(),
                    d.messages().len(),
                    d.data_pairs().len(),
                    resolved.diagnostics.iter().filter(|x| x.is_error()).count(),
                    resolved
                        .diagnostics
                        .iter()
                        .filter(|x| !x.is_error())
                        .count(),
                    best_read.as_secs_f64() * 1e3,
                    best_total.as_secs_f64() * 1e3,
                );
                for diag in &resolved.diagnostics {
                    println!("  {diag}");
                }
                failed |= resolved.has_errors();
            }
            Some(Err(diag)) => {
                println!("{diag}");
                failed = true;
            }
            None => {}
        }
    }
    if failed {
        std::process::exit(1);
    }
}
