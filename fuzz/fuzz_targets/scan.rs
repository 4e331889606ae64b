//! fixdump's log scanner on arbitrary input never panics, and every message it
//! hands on lies inside the input it read.
#![no_main]

use fix_cli::scan;
use fix_core::Parser;
use libfuzzer_sys::fuzz_target;

struct Check {
    messages: usize,
}

impl scan::Sink for Check {
    fn message(&mut self, m: &scan::Decoded<'_>) -> std::io::Result<()> {
        self.messages += 1;
        for f in m.fields {
            let _ = m.value(f);
        }
        if let Some(msg) = m.message {
            assert!(msg.bytes().len() <= m.bytes.len());
        }
        Ok(())
    }
}

thread_local! {
    // Built once: a scanner's buffers are megabytes, as fixdump's are.
    static SCANNER: std::cell::RefCell<scan::Scanner<'static>> =
        std::cell::RefCell::new(scan::Scanner::new(Parser::new().with_data_fields(fix44::DATA_FIELDS), scan::MAX_MESSAGE));
}

fuzz_target!(|data: &[u8]| {
    let mut sink = Check { messages: 0 };
    SCANNER.with_borrow_mut(|scanner| scanner.run(data, &mut sink, &mut scan::NoProgress)).unwrap();
    // A message takes at least `8=FIX` and a SOH.
    assert!(sink.messages <= data.len() / 6 + 1);
});
