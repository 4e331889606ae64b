//! Shared by the criterion benchmarks: the corpus, and the floors our parser is
//! measured against in the same run.

pub mod outbox;
#[cfg(feature = "peers")]
pub mod peers;
pub mod session;

/// The corpus messages the benchmarks time, as (label, file stem).
pub const MESSAGES: [(&str, &str); 4] = [
    ("ExecutionReport", "execution_report"),
    ("NewOrderSingle", "new_order_single"),
    ("MarketDataIncrementalRefresh", "md_incremental_refresh"),
    ("Heartbeat", "heartbeat"),
];

/// Reads `../shared/corpus/<stem>.fix` beside the repository.
///
/// ```
/// fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
/// let er = fix_benches::corpus("execution_report");
/// assert_eq!(er.len(), 339);
/// ```
pub fn corpus(stem: &str) -> Vec<u8> {
    fix_test_support::files::corpus_message(stem)
}

/// The `memchr` floor: count the SOH bytes of a message.
///
/// ```
/// assert_eq!(fix_benches::count_soh(b"8=FIX.4.4\x019=5\x01"), 2);
/// ```
#[inline]
pub fn count_soh(bytes: &[u8]) -> usize {
    memchr::memchr_iter(0x01, bytes).count()
}

/// The naive-split floor: split `tag=value<SOH>` pairs into a fixed array of
/// `(tag, value start, value end)` with no checks at all (no BodyLength, no
/// CheckSum, no data fields, no tag validation). Returns the number of fields.
///
/// ```
/// let mut out = [(0, 0, 0); 8];
/// assert_eq!(fix_benches::naive_split(b"8=FIX.4.4\x0135=0\x01", &mut out), 2);
/// assert_eq!(out[1], (35, 13, 14));
/// ```
#[inline]
pub fn naive_split(bytes: &[u8], out: &mut [(u32, u32, u32)]) -> usize {
    let mut n = 0;
    let mut i = 0;
    while i < bytes.len() && n < out.len() {
        let mut tag = 0u32;
        while bytes[i] != b'=' {
            tag = tag * 10 + u32::from(bytes[i] - b'0');
            i += 1;
        }
        let start = i + 1;
        let mut end = start;
        while bytes[end] != 0x01 {
            end += 1;
        }
        out[n] = (tag, start as u32, end as u32);
        n += 1;
        i = end + 1;
    }
    n
}

/// The corpus NewOrderSingle's fields as typed values, the way an application holds
/// them before encoding.
#[derive(Clone, Debug)]
pub struct NewOrderSingle {
    /// MsgSeqNum (34).
    pub seq: fix_core::value::SeqNum,
    /// SendingTime (52).
    pub sending_time: fix_core::value::UtcTimestamp,
    /// TransactTime (60).
    pub transact_time: fix_core::value::UtcTimestamp,
    /// OrderQty (38).
    pub qty: fix_core::value::Decimal,
    /// Price (44).
    pub price: fix_core::value::Decimal,
}

impl NewOrderSingle {
    /// The values of `../shared/corpus/new_order_single.fix`.
    pub fn corpus() -> Self {
        use fix_core::value::{Decimal, SeqNum, UtcTimestamp};
        NewOrderSingle {
            seq: SeqNum(3391),
            sending_time: UtcTimestamp::parse(b"20261130-14:03:27.123456").unwrap(),
            transact_time: UtcTimestamp::parse(b"20261130-14:03:27.456").unwrap(),
            qty: Decimal::parse(b"2500").unwrap(),
            price: Decimal::parse(b"412.3300").unwrap(),
        }
    }

    /// Encodes the message into `buf` with fix-core's encoder.
    ///
    /// ```
    /// fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    /// let nos = fix_benches::NewOrderSingle::corpus();
    /// let mut buf = [0u8; 512];
    /// assert_eq!(nos.encode(&mut buf).unwrap(), &fix_benches::corpus("new_order_single")[..]);
    /// ```
    pub fn encode<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [u8], fix_core::EncodeError> {
        use fix_core::value::Char;
        const fn ch(b: u8) -> Char {
            match Char::new(b) {
                Some(c) => c,
                None => panic!("printable"),
            }
        }
        let mut enc = fix_core::Encoder::new(buf, b"FIX.4.4", b"D");
        enc.field(34, &self.seq)?;
        enc.raw(49, b"CLIENT")?;
        enc.field(52, &self.sending_time)?;
        enc.raw(56, b"BROKER")?;
        enc.raw(11, b"CL-2026-000452")?;
        enc.raw(1, b"ACC-7781")?;
        enc.field(21, &ch(b'1'))?;
        enc.raw(55, b"MSFT")?;
        enc.raw(48, b"US5949181045")?;
        enc.field(22, &ch(b'4'))?;
        enc.field(54, &ch(b'2'))?;
        enc.field(60, &self.transact_time)?;
        enc.field(38, &self.qty)?;
        enc.field(40, &ch(b'2'))?;
        enc.field(44, &self.price)?;
        enc.field(59, &ch(b'0'))?;
        enc.raw(15, b"USD")?;
        enc.raw(100, b"XNAS")?;
        enc.finish()
    }
}

/// The corpus ExecutionReport's fields as typed values, the way an application holds
/// them before encoding.
#[derive(Clone, Debug)]
pub struct ExecutionReport {
    /// MsgSeqNum (34).
    pub seq: fix_core::value::SeqNum,
    /// SendingTime (52).
    pub sending_time: fix_core::value::UtcTimestamp,
    /// TransactTime (60).
    pub transact_time: fix_core::value::UtcTimestamp,
    /// OrderQty (38).
    pub order_qty: fix_core::value::Decimal,
    /// Price (44).
    pub price: fix_core::value::Decimal,
    /// LastQty (32).
    pub last_qty: fix_core::value::Decimal,
    /// LastPx (31).
    pub last_px: fix_core::value::Decimal,
    /// LeavesQty (151).
    pub leaves_qty: fix_core::value::Decimal,
    /// CumQty (14).
    pub cum_qty: fix_core::value::Decimal,
    /// AvgPx (6).
    pub avg_px: fix_core::value::Decimal,
    /// LastLiquidityInd (851), an INT in FIX 4.4.
    pub last_liquidity_ind: i64,
}

impl ExecutionReport {
    /// The values of `../shared/corpus/execution_report.fix`.
    pub fn corpus() -> Self {
        use fix_core::value::{Decimal, SeqNum, UtcTimestamp};
        let d = |s: &[u8]| Decimal::parse(s).unwrap();
        ExecutionReport {
            seq: SeqNum(1207),
            sending_time: UtcTimestamp::parse(b"20261130-14:03:27.123456").unwrap(),
            transact_time: UtcTimestamp::parse(b"20261130-14:03:27.123").unwrap(),
            order_qty: d(b"5000"),
            price: d(b"187.2500"),
            last_qty: d(b"1200"),
            last_px: d(b"187.2450"),
            leaves_qty: d(b"3800"),
            cum_qty: d(b"1200"),
            avg_px: d(b"187.2450"),
            last_liquidity_ind: 1,
        }
    }

    /// Encodes the message into `buf` with fix-core's encoder.
    ///
    /// ```
    /// fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
    /// let er = fix_benches::ExecutionReport::corpus();
    /// let mut buf = [0u8; 512];
    /// assert_eq!(er.encode(&mut buf).unwrap(), &fix_benches::corpus("execution_report")[..]);
    /// ```
    pub fn encode<'b>(&self, buf: &'b mut [u8]) -> Result<&'b [u8], fix_core::EncodeError> {
        use fix_core::value::Char;
        const fn ch(b: u8) -> Char {
            match Char::new(b) {
                Some(c) => c,
                None => panic!("printable"),
            }
        }
        let mut enc = fix_core::Encoder::new(buf, b"FIX.4.4", b"8");
        enc.field(34, &self.seq)?;
        enc.raw(49, b"BROKER")?;
        enc.field(52, &self.sending_time)?;
        enc.raw(56, b"CLIENT")?;
        enc.raw(37, b"OID-7781234")?;
        enc.raw(11, b"CL-2026-000451")?;
        enc.raw(17, b"EXEC-99812377")?;
        enc.field(150, &ch(b'F'))?;
        enc.field(39, &ch(b'1'))?;
        enc.raw(55, b"AAPL")?;
        enc.raw(48, b"US0378331005")?;
        enc.field(22, &ch(b'4'))?;
        enc.raw(207, b"XNAS")?;
        enc.field(54, &ch(b'1'))?;
        enc.field(38, &self.order_qty)?;
        enc.field(40, &ch(b'2'))?;
        enc.field(44, &self.price)?;
        enc.field(59, &ch(b'0'))?;
        enc.field(32, &self.last_qty)?;
        enc.field(31, &self.last_px)?;
        enc.field(151, &self.leaves_qty)?;
        enc.field(14, &self.cum_qty)?;
        enc.field(6, &self.avg_px)?;
        enc.field(60, &self.transact_time)?;
        enc.raw(1, b"ACC-7781")?;
        enc.raw(15, b"USD")?;
        enc.raw(30, b"XNAS")?;
        enc.field(851, &self.last_liquidity_ind)?;
        enc.raw(58, b"Partial fill")?;
        enc.finish()
    }
}

/// The corpus NewOrderSingle and ExecutionReport written through fix44's generated
/// builders: the same fields as [`NewOrderSingle::encode`] and
/// [`ExecutionReport::encode`], in the dictionary's order rather than the corpus
/// file's, so the bytes differ but the fields do not.
pub mod built {
    use fix_core::EncodeError;
    use fix_core::value::{FieldValue, FixStr};
    use fix44::components::{
        HeaderBuilder, HeaderRequired, InstrumentBuilder, OrderQtyDataBuilder,
    };
    use fix44::enums::{
        ExecType, HandlInst, LastLiquidityInd, OrdStatus, OrdType, SecurityIdSource, Side,
        TimeInForce,
    };
    use fix44::messages::{
        ExecutionReportBuilder, ExecutionReportRequired, NewOrderSingleBuilder,
        NewOrderSingleRequired,
    };

    fn val<'a, V: FieldValue<'a>>(bytes: &'a [u8]) -> V {
        match V::parse_fix(bytes) {
            Ok(v) => v,
            Err(_) => panic!("{} is not a valid value", bytes.escape_ascii()),
        }
    }

    /// `nos` through `NewOrderSingleBuilder::encode`.
    ///
    /// ```
    /// let mut buf = [0u8; 512];
    /// let msg = fix_benches::built::new_order_single(&fix_benches::NewOrderSingle::corpus(), &mut buf).unwrap();
    /// assert_eq!(msg.len(), 223);
    /// ```
    pub fn new_order_single<'o>(
        nos: &super::NewOrderSingle,
        buf: &'o mut [u8],
    ) -> Result<&'o [u8], EncodeError> {
        let s = |v: &'static [u8]| FixStr::parse(v).expect("no SOH");
        let header = HeaderBuilder::new(HeaderRequired {
            sender_comp_id: s(b"CLIENT"),
            target_comp_id: s(b"BROKER"),
            msg_seq_num: nos.seq,
            sending_time: nos.sending_time,
        });
        let order = NewOrderSingleBuilder {
            account: Some(s(b"ACC-7781")),
            handl_inst: Some(HandlInst::AutomatedExecutionOrderPrivate),
            ex_destination: Some(val(b"XNAS")),
            instrument: Some(InstrumentBuilder {
                symbol: Some(s(b"MSFT")),
                security_id: Some(s(b"US5949181045")),
                security_id_source: Some(SecurityIdSource::IsinNumber),
                ..Default::default()
            }),
            order_qty_data: Some(OrderQtyDataBuilder {
                order_qty: Some(nos.qty),
                ..Default::default()
            }),
            price: Some(nos.price),
            time_in_force: Some(TimeInForce::Day),
            currency: Some(val(b"USD")),
            ..NewOrderSingleBuilder::new(NewOrderSingleRequired {
                cl_ord_id: s(b"CL-2026-000452"),
                side: Side::Sell,
                transact_time: nos.transact_time,
                ord_type: OrdType::Limit,
            })
        };
        order.encode(&header, buf)
    }

    /// `er` through `ExecutionReportBuilder::encode`.
    ///
    /// ```
    /// let mut buf = [0u8; 512];
    /// let msg = fix_benches::built::execution_report(&fix_benches::ExecutionReport::corpus(), &mut buf).unwrap();
    /// assert_eq!(msg.len(), 339);
    /// ```
    pub fn execution_report<'o>(
        er: &super::ExecutionReport,
        buf: &'o mut [u8],
    ) -> Result<&'o [u8], EncodeError> {
        let s = |v: &'static [u8]| FixStr::parse(v).expect("no SOH");
        let header = HeaderBuilder::new(HeaderRequired {
            sender_comp_id: s(b"BROKER"),
            target_comp_id: s(b"CLIENT"),
            msg_seq_num: er.seq,
            sending_time: er.sending_time,
        });
        let report = ExecutionReportBuilder {
            cl_ord_id: Some(s(b"CL-2026-000451")),
            instrument: Some(InstrumentBuilder {
                symbol: Some(s(b"AAPL")),
                security_id: Some(s(b"US0378331005")),
                security_id_source: Some(SecurityIdSource::IsinNumber),
                security_exchange: Some(val(b"XNAS")),
                ..Default::default()
            }),
            order_qty_data: Some(OrderQtyDataBuilder {
                order_qty: Some(er.order_qty),
                ..Default::default()
            }),
            ord_type: Some(OrdType::Limit),
            price: Some(er.price),
            time_in_force: Some(TimeInForce::Day),
            last_qty: Some(er.last_qty),
            last_px: Some(er.last_px),
            transact_time: Some(er.transact_time),
            account: Some(s(b"ACC-7781")),
            currency: Some(val(b"USD")),
            last_mkt: Some(val(b"XNAS")),
            last_liquidity_ind: Some(LastLiquidityInd::AddedLiquidity),
            text: Some(s(b"Partial fill")),
            ..ExecutionReportBuilder::new(ExecutionReportRequired {
                order_id: s(b"OID-7781234"),
                exec_id: s(b"EXEC-99812377"),
                exec_type: ExecType::Trade,
                ord_status: OrdStatus::PartiallyFilled,
                side: Side::Buy,
                leaves_qty: er.leaves_qty,
                cum_qty: er.cum_qty,
                avg_px: er.avg_px,
            })
        };
        report.encode(&header, buf)
    }
}

/// The typed reads the `typed` bench and the probe time, through fix44's views.
pub mod typed {
    use fix44::enums::{MdEntryType, MdUpdateAction, Side};
    use fix44::messages::{ExecutionReport, MarketDataIncrementalRefresh};

    /// The five reads of issue 5, folded into one number so none is optimised away.
    /// Never inlined, so that callgrind counts its instructions alone.
    #[inline(never)]
    pub fn five_reads(er: &ExecutionReport<'_>) -> i128 {
        let cl_ord_id = er.cl_ord_id().unwrap().unwrap();
        let side = er.side().unwrap();
        let last_px = er.last_px().unwrap().unwrap();
        let last_qty = er.last_qty().unwrap().unwrap();
        let order_qty = er.order_qty_data().order_qty().unwrap().unwrap();
        cl_ord_id.as_bytes().len() as i128
            + i128::from(side == Side::Buy)
            + last_px.mantissa()
            + last_qty.mantissa()
            + order_qty.mantissa()
    }

    /// The least any typed walk of the refresh does: one pass over the parsed
    /// fields, converting the five values [`walk`] reads (by tag, no views, no
    /// checks of where a field sits). The floor under [`walk`] and [`stream`].
    pub fn flat(msg: &fix_core::Message<'_>) -> i128 {
        use fix_core::value::{Decimal, FieldValue, FixStr};
        let mut sum = 0;
        for (tag, value) in msg.iter() {
            sum += match tag {
                279 => i128::from(MdUpdateAction::from_bytes(value) == Ok(MdUpdateAction::New)),
                269 => i128::from(MdEntryType::from_bytes(value) == Ok(MdEntryType::Bid)),
                55 => FixStr::parse_fix(value).map_or(0, |s| s.as_bytes().len() as i128),
                270 | 271 => Decimal::parse_fix(value).map_or(0, |d| d.mantissa()),
                _ => 0,
            };
        }
        sum
    }

    /// The same reads as [`walk`], through the group's streaming walk straight from
    /// the parsed message: no view, no slot table.
    pub fn stream(msg: fix_core::Message<'_>) -> i128 {
        use fix44::components::{MdIncGrpNoMdEntries, MdIncGrpNoMdEntriesField as F};
        let mut sum = 0;
        for field in MarketDataIncrementalRefresh::walk::<MdIncGrpNoMdEntries>(msg) {
            sum += match field {
                F::MdUpdateAction(v) => i128::from(v.get().unwrap() == MdUpdateAction::New),
                F::MdEntryType(v) => i128::from(v.get().unwrap() == MdEntryType::Bid),
                F::Symbol(v) => v.get().unwrap().as_bytes().len() as i128,
                F::MdEntryPx(v) => v.get().unwrap().mantissa(),
                F::MdEntrySize(v) => v.get().unwrap().mantissa(),
                _ => 0,
            };
        }
        sum
    }

    /// Every entry of the refresh, each read through the typed entry view.
    pub fn walk(md: &MarketDataIncrementalRefresh<'_>) -> i128 {
        let mut sum = 0;
        for entry in md.md_inc_grp().no_md_entries() {
            let action = entry.md_update_action().unwrap();
            let kind = entry.md_entry_type().unwrap().unwrap();
            let symbol = entry.instrument().symbol().unwrap().unwrap();
            let px = entry.md_entry_px().unwrap().unwrap();
            let size = entry.md_entry_size().unwrap().unwrap();
            sum += i128::from(kind == MdEntryType::Bid)
                + i128::from(action == MdUpdateAction::New)
                + symbol.as_bytes().len() as i128
                + px.mantissa()
                + size.mantissa();
        }
        sum
    }
}

/// A port free on 127.0.0.1 now, for a peer that must be told a number
/// before it binds (QuickFIX C++'s acceptor reads it from its settings; it
/// can be handed no bound socket, nor say which port 0 became). Released
/// when it returns: another process may take it first, which fails that
/// peer's bind loudly.
///
/// ```
/// let port = fix_benches::free_port().unwrap();
/// assert_ne!(port, 0);
/// ```
pub fn free_port() -> Result<u16, String> {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| format!("no free port: {e}"))
}
