//! Reading an arbitrary document as a QuickFIX dictionary never panics: it gives a
//! dictionary or diagnostics, each with a position inside the text.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match fix_dict::Dictionary::from_xml("fuzz.xml", text) {
        Ok(dict) => {
            for f in dict.fields() {
                assert_eq!(dict.field(f.tag).map(|g| g.tag), Some(f.tag));
            }
        }
        Err(diagnostics) => {
            let lines = text.lines().count().max(1) as u32 + 1;
            for d in &diagnostics.0 {
                assert!(d.pos.line <= lines, "{d}");
            }
        }
    }
});
