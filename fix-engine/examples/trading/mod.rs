//! What the `executor`, `tradeclient` and `session` examples share (and the
//! test that runs them end to end, `tests/engine/examples.rs`): the executor's
//! application, the trade client's, the order lines the client reads, the
//! reports it prints, and both in one process (`session`). Messages arrive
//! through fix44's generated `Handler` (one method per message type) and
//! leave as its builders, sent as they are.

// Each example uses its half; `pub` for the test that includes the module too.
#![allow(dead_code, unreachable_pub)]

pub mod session;

use std::fmt;
use std::str::FromStr;

use fix_core::Message;
use fix_core::value::{Decimal, FixStr, UtcTimestamp};
use fix_session::{AppReject, Application, Outbox, SessionId};
use fix44::components::{InstrumentBuilder, OrderQtyDataBuilder};
use fix44::enums::{ExecType, OrdStatus, OrdType, Side};
use fix44::messages::{
    ExecutionReport, ExecutionReportBuilder, ExecutionReportRequired, NewOrderSingle,
    NewOrderSingleBuilder, NewOrderSingleRequired,
};
use tokio::sync::mpsc;

/// What a reject says when the executor cannot read an order.
fn unreadable(what: &str, e: impl fmt::Display) -> AppReject {
    AppReject::Business {
        reason: 0,
        ref_tag: None,
        text: format!("{what}: {e}"),
    }
}

/// Answers every NewOrderSingle with ExecutionReports: an acknowledgement
/// (New), then a fill of the whole quantity at the limit price (Filled), as
/// QuickFIX's executor does; an order it cannot fill (not a limit order) is
/// answered with a Rejected report.
#[derive(Debug)]
pub struct Executor {
    /// The start time in seconds, which the OrderIDs and ExecIDs begin with:
    /// unique across restarts, as FIX wants them.
    run: u64,
    orders: u64,
    verbose: bool,
}

impl Executor {
    /// An executor that has seen no order; `verbose` prints each order and
    /// what it answered.
    pub fn new(verbose: bool) -> Executor {
        let run = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Executor {
            run,
            orders: 0,
            verbose,
        }
    }

    fn say(&self, id: &str, line: fmt::Arguments<'_>) {
        if self.verbose {
            println!("{id}: {line}");
        }
    }

    /// The reports answering one order.
    fn answer(&mut self, nos: &NewOrderSingle<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        let field = |e: fix_core::typed::FieldError| unreadable("the order cannot be read", e);
        let cl_ord_id = nos.cl_ord_id().map_err(field)?;
        let side = nos.side().map_err(field)?;
        let symbol = nos.instrument().symbol().map_err(field)?;
        let qty = nos.order_qty_data().order_qty().map_err(field)?;
        let price = nos.price().map_err(field)?;
        let limit = nos.ord_type().map_err(field)? == OrdType::Limit;
        self.orders += 1;
        let order_id = format!("EX-{}-{}", self.run, self.orders);
        let (exec1, exec2) = (format!("{order_id}-1"), format!("{order_id}-2"));
        let id = |s| fix_str(s).map_err(field_text);
        let ids1 = (id(&order_id)?, id(&exec1)?);
        let ids2 = (id(&order_id)?, id(&exec2)?);
        let zero = Decimal::ZERO;
        let (Some(qty), Some(price), true) = (qty, price, limit) else {
            let text = "the executor fills limit orders with a quantity only";
            let report = ExecutionReportBuilder {
                text: Some(FixStr::parse(text.as_bytes()).map_err(field_text)?),
                ..base(ids1, cl_ord_id, symbol, side, qty, price)
            };
            let report = ExecutionReportBuilder {
                exec_type: Some(ExecType::Rejected),
                ord_status: Some(OrdStatus::Rejected),
                ..report
            };
            send(out, &report)?;
            self.say(
                &order_id,
                format_args!("{} rejected: {text}", show(cl_ord_id.as_bytes())),
            );
            return Ok(());
        };
        let ack = ExecutionReportBuilder {
            exec_type: Some(ExecType::New),
            ord_status: Some(OrdStatus::New),
            leaves_qty: Some(qty),
            ..base(ids1, cl_ord_id, symbol, side, Some(qty), Some(price))
        };
        let fill = ExecutionReportBuilder {
            exec_type: Some(ExecType::Trade),
            ord_status: Some(OrdStatus::Filled),
            leaves_qty: Some(zero),
            cum_qty: Some(qty),
            avg_px: Some(price),
            last_qty: Some(qty),
            last_px: Some(price),
            ..base(ids2, cl_ord_id, symbol, side, Some(qty), Some(price))
        };
        send(out, &ack)?;
        send(out, &fill)?;
        self.say(
            &order_id,
            format_args!(
                "{} {side:?} {qty} {} @ {price}: acknowledged and filled",
                show(cl_ord_id.as_bytes()),
                show(symbol.map_or(&b""[..], |s| s.as_bytes())),
            ),
        );
        Ok(())
    }
}

fn field_text(e: fix_core::value::TextError) -> AppReject {
    unreadable("a report's text", e)
}

/// The report fields every answer to one order shares: the order's own,
/// nothing done (the caller sets what was).
fn base<'b>(
    (order_id, exec_id): (FixStr<'b>, FixStr<'b>),
    cl_ord_id: FixStr<'b>,
    symbol: Option<FixStr<'b>>,
    side: Side,
    qty: Option<Decimal>,
    price: Option<Decimal>,
) -> ExecutionReportBuilder<'b> {
    let zero = Decimal::ZERO;
    let b = ExecutionReport::builder(ExecutionReportRequired {
        order_id,
        exec_id,
        exec_type: ExecType::New,
        ord_status: OrdStatus::New,
        side,
        leaves_qty: zero,
        cum_qty: zero,
        avg_px: zero,
    });
    ExecutionReportBuilder {
        cl_ord_id: Some(cl_ord_id),
        price,
        instrument: Some(InstrumentBuilder {
            symbol,
            ..Default::default()
        }),
        order_qty_data: Some(OrderQtyDataBuilder {
            order_qty: qty,
            ..Default::default()
        }),
        ..b
    }
}

/// Queues `report` for the session, encoded straight into the outbox.
fn send(out: &mut Outbox, report: &ExecutionReportBuilder<'_>) -> Result<(), AppReject> {
    out.send(report)
        .map_err(|e| unreadable("the report cannot be encoded", e))
}

impl fix44::Handler<Outbox, AppReject> for Executor {
    fn on_new_order_single(
        &mut self,
        order: &NewOrderSingle<'_>,
        out: &mut Outbox,
    ) -> Result<(), AppReject> {
        self.answer(order, out)
    }
}

impl Application for Executor {
    fn on_logon(&mut self, id: &SessionId) {
        self.say(&id.to_string(), format_args!("logged on"));
    }
    fn on_logout(&mut self, id: &SessionId) {
        self.say(&id.to_string(), format_args!("logged out"));
    }
    // Every other type is answered as QuickFIX answers it: a
    // BusinessMessageReject, UnsupportedMessageType.
    fn from_app(&mut self, msg: &Message<'_>, out: &mut Outbox) -> Result<(), AppReject> {
        fix44::crack(self, msg, out)
    }
}

/// One order line: `buy 100 MSFT 25.5` (a limit order) or `sell 50 IBM` (a
/// market order, which the executor rejects).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderLine {
    /// Buy or sell.
    pub side: Side,
    /// How many.
    pub qty: Decimal,
    /// What.
    pub symbol: String,
    /// The limit; `None` for a market order.
    pub price: Option<Decimal>,
}

impl FromStr for OrderLine {
    type Err = String;

    fn from_str(line: &str) -> Result<OrderLine, String> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let usage = || format!("{line:?}: expected `buy|sell QTY SYMBOL [PRICE]`");
        let (side, qty, symbol, price) = match words[..] {
            [side, qty, symbol] => (side, qty, symbol, None),
            [side, qty, symbol, price] => (side, qty, symbol, Some(price)),
            _ => return Err(usage()),
        };
        let side = match side.to_ascii_lowercase().as_str() {
            "buy" | "b" => Side::Buy,
            "sell" | "s" => Side::Sell,
            _ => return Err(usage()),
        };
        let decimal = |what: &str, s: &str| {
            Decimal::parse(s.as_bytes()).map_err(|e| format!("{line:?}: {what} {s:?}: {e}"))
        };
        let qty = decimal("quantity", qty)?;
        if qty <= Decimal::ZERO {
            return Err(format!("{line:?}: the quantity must be above 0"));
        }
        let price = price.map(|p| decimal("price", p)).transpose()?;
        FixStr::parse(symbol.as_bytes()).map_err(|e| format!("{line:?}: symbol: {e}"))?;
        Ok(OrderLine {
            side,
            qty,
            symbol: symbol.to_owned(),
            price,
        })
    }
}

impl OrderLine {
    /// The NewOrderSingle, with ClOrdID `cl_ord_id`.
    pub fn order<'a>(&'a self, cl_ord_id: &'a str) -> Result<NewOrderSingleBuilder<'a>, String> {
        let text = |s| fix_str(s).map_err(|e| format!("{s:?}: {e}"));
        Ok(NewOrderSingleBuilder {
            price: self.price,
            instrument: Some(InstrumentBuilder {
                symbol: Some(text(&self.symbol)?),
                ..Default::default()
            }),
            order_qty_data: Some(OrderQtyDataBuilder {
                order_qty: Some(self.qty),
                ..Default::default()
            }),
            ..NewOrderSingle::builder(NewOrderSingleRequired {
                cl_ord_id: text(cl_ord_id)?,
                side: self.side,
                transact_time: UtcTimestamp::now(),
                ord_type: if self.price.is_some() {
                    OrdType::Limit
                } else {
                    OrdType::Market
                },
            })
        })
    }
}

impl fmt::Display for OrderLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = if self.side == Side::Buy {
            "buy"
        } else {
            "sell"
        };
        write!(f, "{side} {} {}", self.qty, self.symbol)?;
        match self.price {
            Some(p) => write!(f, " @ {p}"),
            None => f.write_str(" at market"),
        }
    }
}

/// An ExecutionReport as the trade client prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// The order's ClOrdID.
    pub cl_ord_id: String,
    /// What happened.
    pub exec_type: ExecType,
    /// Where the order is.
    pub ord_status: OrdStatus,
    /// What was filled by this report (LastQty, LastPx).
    pub last: Option<(Decimal, Decimal)>,
    /// CumQty.
    pub cum_qty: Decimal,
    /// LeavesQty.
    pub leaves_qty: Decimal,
    /// AvgPx.
    pub avg_px: Decimal,
    /// Text (58), if any.
    pub text: Option<String>,
}

impl Report {
    /// Reads an ExecutionReport.
    pub fn read(er: &ExecutionReport<'_>) -> Result<Report, fix_core::typed::FieldError> {
        let last = match (er.last_qty()?, er.last_px()?) {
            (Some(q), Some(p)) => Some((q, p)),
            _ => None,
        };
        Ok(Report {
            cl_ord_id: er
                .cl_ord_id()?
                .map_or_else(String::new, |c| show(c.as_bytes())),
            exec_type: er.exec_type()?,
            ord_status: er.ord_status()?,
            last,
            cum_qty: er.cum_qty()?,
            leaves_qty: er.leaves_qty()?,
            avg_px: er.avg_px()?,
            text: er.text()?.map(|t| show(t.as_bytes())),
        })
    }

    /// Whether the order is done with (filled, rejected, canceled).
    pub fn is_final(&self) -> bool {
        matches!(
            self.ord_status,
            OrdStatus::Filled | OrdStatus::Rejected | OrdStatus::Canceled
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {:?} ({:?})",
            self.cl_ord_id, self.exec_type, self.ord_status
        )?;
        if let Some((q, p)) = self.last {
            write!(f, ", {q} @ {p}")?;
        }
        write!(
            f,
            "; cum {} leaves {} avg {}",
            self.cum_qty, self.leaves_qty, self.avg_px
        )?;
        if let Some(t) = &self.text {
            write!(f, ": {t}")?;
        }
        Ok(())
    }
}

/// The trade client's application: hands every ExecutionReport to `reports`.
#[derive(Debug)]
pub struct TradeClient {
    /// Where the reports go.
    pub reports: mpsc::UnboundedSender<Report>,
}

impl fix44::Handler<Outbox, AppReject> for TradeClient {
    fn on_execution_report(
        &mut self,
        er: &ExecutionReport<'_>,
        _out: &mut Outbox,
    ) -> Result<(), AppReject> {
        let report = Report::read(er).map_err(|e| unreadable("the report cannot be read", e))?;
        // The receiver gone, the client is stopping: nothing waits for it.
        let _ = self.reports.send(report);
        Ok(())
    }
}

/// `s` as a FIX string (no SOH in it).
fn fix_str(s: &str) -> Result<FixStr<'_>, fix_core::value::TextError> {
    FixStr::parse(s.as_bytes())
}

/// Bytes as text, for printing.
fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}
