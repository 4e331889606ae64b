//! Typed views over arbitrary messages never panic: the view of every message
//! type is built, the ExecutionReport's, NewOrderSingle's and market data's
//! getters are read, and their groups walked to the end.
#![no_main]

use fix_core::{Fields, Parser, Status};
use fix44::Message;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parser = Parser::new()
        .with_data_fields(fix44::DATA_FIELDS)
        .with_checksum_validation(false)
        .with_empty_values(true);
    let mut fields = Fields::<512>::new();
    let Ok(Status::Complete(msg)) = parser.parse(data, &mut fields) else { return };
    match Message::new(msg) {
        Message::ExecutionReport(er) => {
            let _ = (er.order_id(), er.exec_id(), er.exec_type(), er.ord_status(), er.side());
            let _ = (er.leaves_qty(), er.cum_qty(), er.avg_px(), er.last_qty(), er.last_px());
            let _ = (er.cl_ord_id(), er.text(), er.transact_time(), er.currency());
            let _ = (er.instrument().symbol(), er.instrument().security_id());
            let _ = (er.header().msg_seq_num(), er.header().sending_time());
            for party in er.parties().no_party_ids() {
                let _ = (party.party_id(), party.party_role());
            }
        }
        Message::NewOrderSingle(nos) => {
            let _ = (nos.cl_ord_id(), nos.side(), nos.transact_time(), nos.ord_type());
            let _ = (nos.price(), nos.order_qty_data().order_qty(), nos.account());
            for party in nos.parties().no_party_ids() {
                let _ = (party.party_id(), party.party_role());
            }
        }
        Message::MarketDataIncrementalRefresh(md) => {
            let _ = md.md_req_id();
            for entry in md.md_inc_grp().no_md_entries() {
                let _ = (entry.md_update_action(), entry.md_entry_type());
                let _ = (entry.md_entry_px(), entry.md_entry_size());
                let _ = entry.instrument().symbol();
            }
        }
        _ => {}
    }
});
