//! Framing arbitrary bytes never panics, and what it accepts holds together.
#![no_main]

use fix_core::{Error, Parser, Status, checksum};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for parser in [Parser::new(), Parser::new().with_checksum_validation(false).with_max_message_size(256)] {
        match parser.frame(data) {
            Ok(Status::Complete(frame)) => {
                let bytes = frame.bytes();
                assert!(bytes.len() <= data.len() && bytes.len() <= parser.max_message_size());
                assert_eq!(bytes, &data[..bytes.len()]);
                assert!(bytes.starts_with(b"8=FIX") && bytes.ends_with(b"\x01"));
                assert_eq!(&bytes[frame.body_end()..frame.body_end() + 3], b"10=");
                if parser.validates_checksum() {
                    assert_eq!(u16::from(checksum(&bytes[..frame.body_end()])), frame.checksum());
                }
                assert!(!frame.msg_type().is_empty());
            }
            Ok(Status::Partial { needed }) => {
                if let Some(n) = needed {
                    assert!(n > 0 && data.len() + n <= parser.max_message_size());
                }
            }
            Err(Error::Garbage { skip }) => assert!(skip > 0 && skip <= data.len()),
            Err(e) => {
                let _ = e.to_string();
                let skip = fix_core::resync(data);
                assert!(skip > 0 && skip <= data.len());
            }
        }
    }
});
