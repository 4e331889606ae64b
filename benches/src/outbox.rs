//! A typed answer through a session's `Outbox` and the bytes paths it replaces,
//! with one ExecutionReport (a fill: 17 fields, a component and an instrument).
//! The `outbox` benchmark times them; the probe counts their instructions
//! (`probe send-typed/send-encoded execution_report 1000`).

use fix_core::value::{Decimal, FixStr, SeqNum, UtcTimestamp};
use fix_core::{Encoder, Fields, Parser, typed::MessageBody};
use fix_session::{Outbox, is_header_or_trailer};
use fix44::components::{HeaderBuilder, HeaderRequired, InstrumentBuilder, OrderQtyDataBuilder};
use fix44::enums::{ExecType, OrdStatus, Side};
use fix44::messages::{ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired};

fn s(text: &str) -> FixStr<'_> {
    FixStr::parse(text.as_bytes()).unwrap()
}

fn d(text: &str) -> Decimal {
    Decimal::parse(text.as_bytes()).unwrap()
}

/// The fill the executor example answers a limit order with.
///
/// ```
/// let mut out = fix_session::Outbox::default();
/// out.send(&fix_benches::outbox::fill()).unwrap();
/// assert_eq!(out.queued().count(), 1);
/// ```
pub fn fill() -> ExecutionReportBuilder<'static> {
    let (qty, px) = (d("100"), d("25.5"));
    ExecutionReportBuilder {
        cl_ord_id: Some(s("CL-1790000000-1")),
        price: Some(px),
        last_qty: Some(qty),
        last_px: Some(px),
        transact_time: Some(UtcTimestamp::parse(b"20260921-14:13:20.123").unwrap()),
        text: Some(s("filled")),
        instrument: Some(InstrumentBuilder {
            symbol: Some(s("MSFT")),
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: Some(qty),
            ..Default::default()
        }),
        ..ExecutionReport::builder(ExecutionReportRequired {
            order_id: s("EX-1790000000-1"),
            exec_id: s("EX-1790000000-1-2"),
            exec_type: ExecType::Trade,
            ord_status: OrdStatus::Filled,
            side: Side::Buy,
            leaves_qty: Decimal::ZERO,
            cum_qty: qty,
            avg_px: px,
        })
    }
}

/// A header the whole-message path encodes behind (the session rewrites it).
pub fn placeholder_header() -> HeaderBuilder<'static> {
    HeaderBuilder::new(HeaderRequired {
        sender_comp_id: s("-"),
        target_comp_id: s("-"),
        msg_seq_num: SeqNum(1),
        sending_time: UtcTimestamp::parse(b"20260921-14:13:20").unwrap(),
    })
}

/// The report's body encoded into `buf`: what an application wrote by hand
/// with `Encoder::fields` before handing it to `send_body`.
pub fn encode_body<'b>(report: &ExecutionReportBuilder<'_>, buf: &'b mut [u8]) -> &'b [u8] {
    let mut enc = Encoder::fields(buf);
    report.write_body(&mut enc).unwrap();
    enc.finish().unwrap()
}

/// The path before typed sends: the whole message behind a placeholder
/// header, parsed again, its body fields copied out.
pub fn body_of_whole(report: &ExecutionReportBuilder<'_>, header: &HeaderBuilder<'_>) -> Vec<u8> {
    let mut buf = [0u8; 1024];
    let bytes = report.encode(header, &mut buf).unwrap();
    let mut fields = Fields::<256>::new();
    let msg = Parser::new()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    let mut body = Vec::with_capacity(bytes.len());
    for (tag, value) in msg.iter().filter(|(t, _)| !is_header_or_trailer(*t)) {
        body.extend_from_slice(tag.to_string().as_bytes());
        body.push(b'=');
        body.extend_from_slice(value);
        body.push(fix_core::SOH);
    }
    body
}

/// One answer queued and the outbox cleared, by one of the paths: `typed`
/// (`Outbox::send`), `encoded` (encode the body, then `send_body`), `pre`
/// (`send_body` of `pre`, the body encoded once beforehand: a copy) or `whole`
/// (`body_of_whole`). The body's length, so the work cannot be dropped.
///
/// ```
/// use fix_benches::outbox::*;
/// let (report, mut out) = (fill(), fix_session::Outbox::default());
/// let pre = encode_body(&report, &mut [0u8; 1024]).to_vec();
/// for path in ["typed", "encoded", "pre", "whole"] {
///     assert_eq!(answer(path, &report, &pre, &mut out), pre.len());
/// }
/// ```
pub fn answer(
    path: &str,
    report: &ExecutionReportBuilder<'_>,
    pre: &[u8],
    out: &mut Outbox,
) -> usize {
    match path {
        "typed" => out.send(report).unwrap(),
        "encoded" => {
            let mut buf = [0u8; 1024];
            out.send_body(b"8", encode_body(report, &mut buf));
        }
        "pre" => out.send_body(b"8", pre),
        "whole" => out.send_body(b"8", &body_of_whole(report, &placeholder_header())),
        other => panic!("no outbox path {other}"),
    }
    let len = out.queued().map(|(_, body)| body.len()).sum();
    out.clear();
    len
}
