//! Parse a FIX stream (`samples/session.fix`), validate each message against the
//! generated FIX 4.4 tables, and read the ExecutionReports through the typed view.
//!
//! `cargo run -p fix44 --example execution_report`

use fix44::Message;
use fix44::core::validate::Validator;
use fix44::core::{Fields, Parser, Status};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../samples/session.fix");
    let stream = std::fs::read(path)?;
    let parser = Parser::new().with_data_fields(fix44::DATA_FIELDS);
    let mut fields = Fields::<256>::new();
    let mut rest = &stream[..];
    while !rest.is_empty() {
        let msg = match parser.parse(rest, &mut fields) {
            Ok(Status::Complete(msg)) => msg,
            Ok(Status::Partial { .. }) => break,
            Err(_) => {
                rest = &rest[fix44::core::resync(rest)..]; // noise on the line
                continue;
            }
        };
        rest = &rest[msg.bytes().len()..];
        if let Err(reject) = Validator::new().validate(&fix44::DICTIONARY, &msg) {
            println!("reject: {reject}");
            continue;
        }
        if let Message::ExecutionReport(er) = Message::new(msg) {
            println!(
                "ExecutionReport {} {:?} {:?}: {} last {:?} @ {:?}, cum {}",
                er.cl_ord_id()?.and_then(|c| c.as_str()).unwrap_or_default(),
                er.exec_type()?,
                er.side()?,
                er.instrument()
                    .symbol()?
                    .and_then(|s| s.as_str())
                    .unwrap_or_default(),
                er.last_qty()?.map(|q| q.to_string()),
                er.last_px()?.map(|p| p.to_string()),
                er.cum_qty()?,
            );
        }
    }
    Ok(())
}
