//! Validating arbitrary messages never panics, and gives the same verdict against
//! the run-time dictionary and the generated tables of the same FIX 4.4, with and
//! without the shape cache, under every combination of the validator's switches.
#![no_main]

use std::sync::OnceLock;

use fix_core::validate::{ShapeCache, Validator};
use fix_core::{Fields, Parser, Status};
use fix_dict::Dictionary;
use libfuzzer_sys::fuzz_target;

fn dictionary() -> &'static Dictionary {
    static DICT: OnceLock<Dictionary> = OnceLock::new();
    DICT.get_or_init(|| {
        Dictionary::from_xml("FIX44.xml", include_str!("../../spec/FIX44.xml")).unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&config, data)) = data.split_first() else { return };
    let parser = Parser::new()
        .with_data_fields(fix44::DATA_FIELDS)
        .with_checksum_validation(false)
        .with_empty_values(config & 16 != 0);
    let mut fields = Fields::<512>::new();
    let Ok(Status::Complete(msg)) = parser.parse(data, &mut fields) else { return };
    let v = Validator::new()
        .validate_fields_out_of_order(config & 1 != 0)
        .validate_fields_have_values(config & 2 != 0)
        .validate_user_defined_fields(config & 4 != 0)
        .allow_unknown_msg_fields(config & 8 != 0);
    let runtime = v.validate(dictionary(), &msg);
    let generated = v.validate(&fix44::DICTIONARY, &msg);
    assert_eq!(runtime, generated);
    let mut cache = ShapeCache::<4, 64>::new();
    assert_eq!(v.validate_cached(dictionary(), &msg, &mut cache), runtime);
    assert_eq!(v.validate_cached(dictionary(), &msg, &mut cache), runtime);
});
