//! Parsing arbitrary bytes never panics, and every field it reports lies inside the
//! message, in order, without overlap.
#![no_main]

use fix_core::{Field, Fields, Parser, Status};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the configuration, so one target covers them all.
    let Some((&config, data)) = data.split_first() else { return };
    let parser = Parser::new()
        .with_checksum_validation(config & 1 == 0)
        .with_empty_values(config & 2 != 0);
    let mut small = [Field::EMPTY; 8];
    let mut large = Fields::<1024>::new();
    let storage: &mut [Field] = if config & 4 != 0 { &mut small } else { &mut large };
    if let Ok(Status::Complete(msg)) = parser.parse(data, storage) {
        let len = msg.bytes().len();
        let mut previous_end = 0;
        for field in msg.fields() {
            let range = field.value_range();
            assert!(range.start > previous_end || previous_end == 0);
            assert!(range.end < len && msg.bytes()[range.end] == 0x01);
            previous_end = range.end;
        }
        assert_eq!(previous_end, len - 1);
        assert_eq!(msg.fields().first().map(Field::tag), Some(8));
        assert_eq!(msg.fields().last().map(Field::tag), Some(10));
    }
});
