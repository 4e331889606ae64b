//! Generates Rust from a dictionary and prints the file sizes and the time taken:
//! `cargo run -p fix-codegen --release --example generate -- DICT.xml [OUT_DIR] [--no-builders]`.

use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let builders = !std::env::args().any(|a| a == "--no-builders");
    let mut args = std::env::args().skip(1).filter(|a| a != "--no-builders");
    let path = args.next().ok_or("usage: generate DICT.xml [OUT_DIR]")?;
    let out = args.next();
    let start = Instant::now();
    let dict = fix_dict::Dictionary::from_path(&path)?;
    let read = start.elapsed();
    let name = std::path::Path::new(&path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let files = fix_codegen::emit::generate(
        &dict,
        &fix_codegen::emit::Config::new(format!("spec/{name}")).builders(builders),
    )?;
    let total = start.elapsed();
    let bytes: usize = files.values().map(String::len).sum();
    for (p, text) in &files {
        println!("{:>12} {}", text.len(), p.display());
    }
    println!("{bytes:>12} total; read+resolve {read:?}, read+resolve+generate {total:?}");
    if let Some(dir) = out {
        let written = fix_codegen::emit::write(std::path::Path::new(&dir), &files, false)?;
        println!("{} files written to {dir}", written.len());
    }
    Ok(())
}
