//! Ours beside the peers on the same corpus messages: fefix 0.7 (its FIX 4.4
//! dictionary `Decoder` and its `Encoder`) and rustyfix 0.7 (`Decoder`,
//! `SimpleValidator`, `Encoder`), plus `rust_decimal` for writing decimals.
//!
//! [`cases`] builds every case once, runs each and checks that every library read or
//! wrote the same values, and only then hands the cases out. The criterion bench
//! (`benches/peers.rs`), the allocation counter (`examples/allocs.rs`) and the
//! profiling loop (`examples/probe.rs case …`) all time these same closures, so the
//! table in `RESULTS.md` and the allocation counts describe the same work.
//!
//! Each case is a boxed closure: the indirect call costs about a nanosecond, the same
//! for every library in a group.
//!
//! Beside `"ours"` (validation against the run-time dictionary, the reference of
//! the ratio column), the decode groups time `"ours, fix44 tables"` (the tables
//! generated into `fix44`), `"ours, shape cache"` (`Validator::validate_cached`)
//! and `"ours, parse only"`; the read group times `"ours, typed fix44"` (the
//! generated view's getters).
//!
//! With the `quickfix` feature, the decode groups also time QuickFIX C++ (module
//! `quickfix_cpp`, which says what its case includes).

use crate::{ExecutionReport, NewOrderSingle, corpus};
use core::fmt;
use fix_core::validate::{ShapeCache, Validator};
use fix_core::value::{Char, Decimal, FixStr};
use fix_core::{Fields, Parser};
use fix_dict::Dictionary;
use std::hint::black_box;
use std::path::PathBuf;
use std::rc::Rc;

#[cfg(feature = "quickfix")]
mod quickfix_cpp;

/// The lib name of our reference case in every group; ratios are peer / this.
pub const OURS: &str = "ours";

/// One timed operation of one library on one message.
pub struct Case {
    /// Criterion group, e.g. `decode+validate/ExecutionReport`.
    pub group: &'static str,
    /// Library (and variant) name, the criterion function id.
    pub lib: &'static str,
    /// What the operation includes, for the results table.
    pub note: String,
    run: Box<dyn FnMut() -> u64>,
}

impl fmt::Debug for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Case")
            .field("group", &self.group)
            .field("lib", &self.lib)
            .field("note", &self.note)
            .finish_non_exhaustive()
    }
}

impl Case {
    fn new(
        group: &'static str,
        lib: &'static str,
        note: impl Into<String>,
        run: impl FnMut() -> u64 + 'static,
    ) -> Self {
        Case {
            group,
            lib,
            note: note.into(),
            run: Box::new(run),
        }
    }

    /// Runs the operation once; the result only keeps the work from being optimized out.
    #[inline]
    pub fn run(&mut self) -> u64 {
        (self.run)()
    }

    /// `group/lib`, the name criterion reports.
    pub fn id(&self) -> String {
        format!("{}/{}", self.group, self.lib)
    }
}

/// Our run-time dictionary, loaded from the repository's `spec/FIX44.xml`.
pub fn spec_dictionary() -> Dictionary {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../spec/FIX44.xml");
    Dictionary::from_path(&path).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()))
}

/// A message's fields as (tag, value) without BeginString, BodyLength and CheckSum,
/// the part every library reports the same way.
type FieldList = Vec<(u32, Vec<u8>)>;

fn body_only(it: impl IntoIterator<Item = (u32, Vec<u8>)>) -> FieldList {
    it.into_iter()
        .filter(|(t, _)| !(8..=10).contains(t))
        .collect()
}

fn ours_fields(bytes: &[u8]) -> FieldList {
    body_only(all_fields(bytes))
}

/// Every field of a complete message as we parse it, in wire order.
fn all_fields(bytes: &[u8]) -> FieldList {
    let mut fields = Fields::<128>::new();
    let msg = Parser::new()
        .parse(bytes, &mut fields)
        .unwrap()
        .complete()
        .unwrap();
    msg.iter().map(|(t, v)| (t, v.to_vec())).collect()
}

fn fefix_fields(msg: &fefix::tagvalue::Message<'_, &[u8]>) -> FieldList {
    body_only(msg.fields().map(|(t, v)| (u32::from(t.get()), v.to_vec())))
}

fn rustyfix_fields(msg: &rustyfix::tagvalue::Message<'_, &[u8]>) -> FieldList {
    body_only(msg.fields().map(|(t, v)| (t.get(), v.to_vec())))
}

/// The five values the read case takes from the ExecutionReport, in each library's
/// own decimal type `D`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reads<D> {
    cl_ord_id: [u8; 16],
    cl_ord_id_len: usize,
    /// Side (54).
    pub side: u8,
    /// LastPx (31).
    pub last_px: D,
    /// LastQty (32).
    pub last_qty: D,
    /// OrderQty (38).
    pub order_qty: D,
}

impl<D: fmt::Display> Reads<D> {
    fn new(cl_ord_id: &[u8], side: u8, last_px: D, last_qty: D, order_qty: D) -> Self {
        let mut id = [0u8; 16];
        id[..cl_ord_id.len()].copy_from_slice(cl_ord_id);
        Reads {
            cl_ord_id: id,
            cl_ord_id_len: cl_ord_id.len(),
            side,
            last_px,
            last_qty,
            order_qty,
        }
    }

    /// ClOrdID (11).
    pub fn cl_ord_id(&self) -> &[u8] {
        &self.cl_ord_id[..self.cl_ord_id_len]
    }

    /// The values as text, to compare across decimal types.
    pub fn summary(&self) -> String {
        format!(
            "ClOrdID={} Side={} LastPx={} LastQty={} OrderQty={}",
            String::from_utf8_lossy(self.cl_ord_id()),
            self.side as char,
            self.last_px,
            self.last_qty,
            self.order_qty
        )
    }

    fn digest(&self) -> u64 {
        self.cl_ord_id_len as u64 + u64::from(self.side)
    }
}

fn ours_reads(parser: &Parser<'_>, bytes: &[u8], fields: &mut [fix_core::Field]) -> Reads<Decimal> {
    let msg = parser.parse(bytes, fields).unwrap().complete().unwrap();
    let get = |tag| msg.get(tag).unwrap();
    Reads::new(
        FixStr::parse(get(11)).unwrap().as_bytes(),
        Char::parse(get(54)).unwrap().get(),
        Decimal::parse(get(31)).unwrap(),
        Decimal::parse(get(32)).unwrap(),
        Decimal::parse(get(38)).unwrap(),
    )
}

/// The same five reads through the generated `fix44` view.
fn typed_reads(
    parser: &Parser<'_>,
    bytes: &[u8],
    fields: &mut [fix_core::Field],
) -> Reads<Decimal> {
    let msg = parser.parse(bytes, fields).unwrap().complete().unwrap();
    let er = fix44::messages::ExecutionReport::new(msg);
    Reads::new(
        er.cl_ord_id().unwrap().unwrap().as_bytes(),
        er.side().unwrap().as_bytes()[0],
        er.last_px().unwrap().unwrap(),
        er.last_qty().unwrap().unwrap(),
        er.order_qty_data().order_qty().unwrap().unwrap(),
    )
}

fn fefix_reads(
    decoder: &mut fefix::tagvalue::Decoder,
    bytes: &[u8],
) -> Reads<rust_decimal::Decimal> {
    use fefix::tagvalue::FieldAccess;
    let msg = decoder.decode(bytes).unwrap();
    let dec = |tag: u32| msg.fv::<rust_decimal::Decimal>(&tag).unwrap();
    Reads::new(
        msg.fv::<&str>(&11u32).unwrap().as_bytes(),
        msg.fv_raw(&54u32).unwrap()[0],
        dec(31),
        dec(32),
        dec(38),
    )
}

fn rustyfix_reads(
    decoder: &mut rustyfix::tagvalue::Decoder,
    bytes: &[u8],
) -> Reads<rust_decimal::Decimal> {
    let msg = decoder.decode(bytes).unwrap();
    let dec = |tag: u32| msg.get::<rust_decimal::Decimal>(tag).unwrap();
    Reads::new(
        msg.get::<&str>(11).unwrap().as_bytes(),
        msg.get_raw(54).unwrap()[0],
        dec(31),
        dec(32),
        dec(38),
    )
}

/// fefix's associative lookups on the MDX: seven top-level tags, then MDEntryPx (270)
/// of each of the 10 NoMDEntries (268) entries through its group API.
fn fefix_mdx_lookups(msg: &fefix::tagvalue::Message<'_, &[u8]>) -> Vec<Option<Vec<u8>>> {
    use fefix::tagvalue::{FieldAccess, RepeatingGroup};
    let mut out: Vec<Option<Vec<u8>>> = [35u32, 34, 49, 52, 56, 262, 268]
        .iter()
        .map(|t| msg.fv_raw(t).map(<[u8]>::to_vec))
        .collect();
    match msg.group_opt(&268u32) {
        Some(Ok(group)) => {
            for i in 0..10 {
                let entry = (i < group.len()).then(|| group.entry(i));
                out.push(entry.and_then(|e| e.fv_raw(&270u32).map(<[u8]>::to_vec)));
            }
        }
        _ => out.extend(std::iter::repeat_n(None, 10)),
    }
    out
}

fn fefix_decoder(dict: &fefix::Dictionary) -> fefix::tagvalue::Decoder {
    fefix::tagvalue::Decoder::new(dict.clone())
}

/// The decode + validate messages: (group, corpus stem).
const DECODE: [(&str, &str); 5] = [
    ("decode+validate/ExecutionReport", "execution_report"),
    ("decode+validate/NewOrderSingle", "new_order_single"),
    (
        "decode+validate/MarketDataIncrementalRefresh",
        "md_incremental_refresh",
    ),
    ("decode+validate/Heartbeat", "heartbeat"),
    ("decode+validate/Logon (RawData with SOH)", "logon_rawdata"),
];

/// Every case, each checked against the others of its group before it is returned.
///
/// Panics if a library reads or writes something different from ours.
pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let dict = Rc::new(spec_dictionary());
    let fefix_dict = fefix::Dictionary::fix44();
    let rustyfix_dict = Rc::new(rustyfix::Dictionary::fix44().unwrap());
    #[cfg(feature = "quickfix")]
    let quickfix_dict = quickfix_cpp::dictionary();

    for (group, stem) in DECODE {
        decode_cases(&mut out, group, stem, &dict, &fefix_dict, &rustyfix_dict);
        #[cfg(feature = "quickfix")]
        quickfix_cpp::decode_case(&mut out, group, stem, &quickfix_dict);
    }
    read_cases(&mut out, &fefix_dict, &rustyfix_dict);
    encode_cases(&mut out);
    decimal_cases(&mut out);

    // Every case once more through the boxed closure, as it will be timed.
    for case in &mut out {
        black_box(case.run());
    }
    out
}

fn decode_cases(
    out: &mut Vec<Case>,
    group: &'static str,
    stem: &str,
    dict: &Rc<Dictionary>,
    fefix_dict: &fefix::Dictionary,
    rustyfix_dict: &Rc<rustyfix::Dictionary>,
) {
    use rustyfix::validation::{SimpleValidator, Validator as _};
    let bytes: Rc<[u8]> = corpus(stem).into();
    let expected = ours_fields(&bytes);

    // Ours, checked: the message validates against spec/FIX44.xml.
    {
        let mut fields = Fields::<128>::new();
        let msg = Parser::new()
            .parse(&bytes, &mut fields)
            .unwrap()
            .complete()
            .unwrap();
        assert_eq!(Validator::new().validate(&**dict, &msg), Ok(()), "{stem}");
    }
    let (b, d) = (bytes.clone(), dict.clone());
    let mut fields = Fields::<128>::new();
    let (parser, validator) = (Parser::new(), Validator::new());
    out.push(Case::new(
        group,
        OURS,
        "Parser::parse (BodyLength, CheckSum, every field) + Validator::validate against spec/FIX44.xml's run-time dictionary",
        move || {
            let msg = parser
                .parse(black_box(&b), &mut fields)
                .unwrap()
                .complete()
                .unwrap();
            assert!(validator.validate(&*d, &msg).is_ok());
            msg.fields().len() as u64
        },
    ));
    let b = bytes.clone();
    let mut fields = Fields::<128>::new();
    out.push(Case::new(
        group,
        "ours, fix44 tables",
        "the same, validating against the tables generated into fix44 (fix44::DICTIONARY)",
        move || {
            let msg = parser
                .parse(black_box(&b), &mut fields)
                .unwrap()
                .complete()
                .unwrap();
            assert!(validator.validate(&fix44::DICTIONARY, &msg).is_ok());
            msg.fields().len() as u64
        },
    ));
    let (b, d) = (bytes.clone(), dict.clone());
    let mut fields = Fields::<128>::new();
    let mut cache = Box::new(ShapeCache::<8, 128>::new());
    out.push(Case::new(
        group,
        "ours, shape cache",
        "Parser::parse + Validator::validate_cached (run-time dictionary; the shape seen before, so values are checked alone)",
        move || {
            let msg = parser
                .parse(black_box(&b), &mut fields)
                .unwrap()
                .complete()
                .unwrap();
            assert!(validator.validate_cached(&*d, &msg, &mut cache).is_ok());
            msg.fields().len() as u64
        },
    ));
    let b = bytes.clone();
    let mut fields = Fields::<128>::new();
    out.push(Case::new(
        group,
        "ours, parse only",
        "Parser::parse, no validation",
        move || {
            let msg = parser.parse(black_box(&b), &mut fields).unwrap();
            msg.complete().unwrap().fields().len() as u64
        },
    ));

    // fefix: its Decoder checks BodyLength and CheckSum and uses the dictionary only
    // for data-length and group-count tags; it has no validator.
    let mut decoder = fefix_decoder(fefix_dict);
    assert_eq!(
        fefix_fields(&decoder.decode(&bytes[..]).unwrap()),
        expected,
        "fefix {stem}"
    );
    let has_group = stem == "md_incremental_refresh";
    if has_group {
        // A second message through the same decoder: fefix keeps the group state of
        // the first, so the locations it records (and so the values it returns) are
        // wrong. Time a fresh decoder per message, as its users must.
        // `decoder` has decoded this message once already (the field check above).
        let first = fefix_mdx_lookups(&fefix_decoder(fefix_dict).decode(&bytes[..]).unwrap());
        assert!(
            first.iter().all(Option::is_some),
            "fefix lookups: {first:?}"
        );
        let again = fefix_mdx_lookups(&decoder.decode(&bytes[..]).unwrap());
        let wrong = again.iter().zip(&first).filter(|(a, f)| a != f).count();
        let fd = fefix_dict.clone();
        let b = bytes.clone();
        out.push(Case::new(
            group,
            "fefix, fresh decoder",
            "fefix Decoder::new(FIX 4.4 dictionary) + decode, per message (a reused decoder gives wrong results after a group); no validation",
            move || {
                let mut dec = fefix_decoder(&fd);
                dec.decode(black_box(&b[..])).unwrap().len() as u64
            },
        ));
        let b = bytes.clone();
        out.push(Case::new(
            group,
            "fefix, reused decoder (wrong results)",
            format!(
                "for reference only: after one MDX through the decoder, {wrong} of {} lookups (7 header/body tags by tag, 10 MDEntryPx through the group API) come back wrong on the next MDX, and the group-state stack grows by one per message",
                first.len()
            ),
            move || decoder.decode(black_box(&b[..])).unwrap().len() as u64,
        ));
    } else {
        let b = bytes.clone();
        out.push(Case::new(
            group,
            "fefix",
            "fefix Decoder (FIX 4.4 dictionary; BodyLength + CheckSum), reused; fefix has no validator",
            move || decoder.decode(black_box(&b[..])).unwrap().len() as u64,
        ));
    }

    // rustyfix: Decoder + SimpleValidator (required fields of the message type).
    let mut decoder = rustyfix::tagvalue::Decoder::new((**rustyfix_dict).clone());
    {
        let msg = decoder.decode(&bytes[..]).unwrap();
        assert_eq!(rustyfix_fields(&msg), expected, "rustyfix {stem}");
        assert_eq!(SimpleValidator {}.validate(&msg, rustyfix_dict), Ok(()));
    }
    if has_group {
        let msg = decoder.decode(&bytes[..]).unwrap();
        assert_eq!(rustyfix_fields(&msg), expected, "rustyfix {stem}, reused");
    }
    let (b, d) = (bytes.clone(), rustyfix_dict.clone());
    out.push(Case::new(
        group,
        "rustyfix",
        "rustyfix Decoder (reused) + SimpleValidator (required fields only)",
        move || {
            let msg = decoder.decode(black_box(&b[..])).unwrap();
            assert!(SimpleValidator {}.validate(&msg, &d).is_ok());
            msg.len() as u64
        },
    ));
}

fn read_cases(
    out: &mut Vec<Case>,
    fefix_dict: &fefix::Dictionary,
    rustyfix_dict: &rustyfix::Dictionary,
) {
    const GROUP: &str = "decode+5 reads/ExecutionReport";
    let bytes: Rc<[u8]> = corpus("execution_report").into();
    let parser = Parser::new();
    let mut fields = Fields::<128>::new();
    let mut fefix = fefix_decoder(fefix_dict);
    let mut rusty = rustyfix::tagvalue::Decoder::new(rustyfix_dict.clone());

    let ours = ours_reads(&parser, &bytes, &mut fields);
    assert_eq!(
        ours.summary(),
        "ClOrdID=CL-2026-000451 Side=1 LastPx=187.2450 LastQty=1200 OrderQty=5000"
    );
    assert_eq!(fefix_reads(&mut fefix, &bytes).summary(), ours.summary());
    assert_eq!(rustyfix_reads(&mut rusty, &bytes).summary(), ours.summary());
    // The same numbers, not only the same text.
    let peer = fefix_reads(&mut fefix, &bytes);
    assert_eq!(rust_decimal::Decimal::from(ours.last_px), peer.last_px);

    let b = bytes.clone();
    out.push(Case::new(
        GROUP,
        OURS,
        "Parser::parse + Message::get + FixStr/Char/Decimal::parse (no validation)",
        move || {
            let r = ours_reads(&parser, black_box(&b), &mut fields);
            black_box(&r);
            r.digest()
        },
    ));
    let typed = typed_reads(&parser, &bytes, &mut Fields::<128>::new());
    assert_eq!(typed.summary(), ours.summary());
    let b = bytes.clone();
    let mut typed_fields = Fields::<128>::new();
    out.push(Case::new(
        GROUP,
        "ours, typed fix44",
        "Parser::parse + fix44::ExecutionReport::new (slot table) + five typed getters",
        move || {
            let r = typed_reads(&parser, black_box(&b), &mut typed_fields);
            black_box(&r);
            r.digest()
        },
    ));
    let b = bytes.clone();
    out.push(Case::new(
        GROUP,
        "fefix",
        "fefix Decoder::decode + fv::<&str> / fv_raw / fv::<rust_decimal::Decimal>",
        move || {
            let r = fefix_reads(&mut fefix, black_box(&b));
            black_box(&r);
            r.digest()
        },
    ));
    out.push(Case::new(
        GROUP,
        "rustyfix",
        "rustyfix Decoder::decode + get::<&str> / get_raw / get::<rust_decimal::Decimal>",
        move || {
            let r = rustyfix_reads(&mut rusty, black_box(&bytes));
            black_box(&r);
            r.digest()
        },
    ));
}

/// Checks an encoder's output: the corpus fields apart from BodyLength's padding and a
/// correct CheckSum (panics otherwise); returns the problem if BodyLength is wrong.
fn check_encoded(lib: &str, got: &[u8], expected: &[u8]) -> Option<String> {
    let split = |m: &[u8]| -> FieldList {
        let mut out = [(0u32, 0u32, 0u32); 128];
        let n = crate::naive_split(m, &mut out);
        out[..n]
            .iter()
            .map(|&(t, s, e)| (t, m[s as usize..e as usize].to_vec()))
            .collect()
    };
    let (g, e) = (split(got), split(expected));
    assert_eq!(body_only(g.clone()), body_only(e), "{lib}: fields");
    let body_len: usize = std::str::from_utf8(&g[1].1).unwrap().parse().unwrap();
    let body_start = got.windows(4).position(|w| w == b"\x0135=").unwrap() + 1;
    let trailer = got.len() - 7;
    let sum = got[..trailer].iter().fold(0u8, |a, &b| a.wrapping_add(b));
    assert_eq!(
        &got[trailer..],
        format!("10={sum:03}\x01").as_bytes(),
        "{lib}: CheckSum"
    );
    let actual = trailer - body_start;
    (body_len != actual).then(|| {
        format!(
            "WRONG OUTPUT: writes BodyLength {body_len} for a {actual}-byte body (fefix 0.7 truncates `len as u8` before taking each digit, so any body of 256 bytes or more can get a wrong BodyLength)"
        )
    })
}

fn encode_cases(out: &mut Vec<Case>) {
    // NewOrderSingle.
    {
        const GROUP: &str = "encode/NewOrderSingle";
        let expected = corpus("new_order_single");
        let nos = NewOrderSingle::corpus();
        let mut buf = [0u8; 512];
        assert_eq!(nos.encode(&mut buf).unwrap(), &expected[..]);
        out.push(Case::new(
            GROUP,
            OURS,
            "fix_core::Encoder into a caller's [u8; 512], typed SeqNum/UtcTimestamp/Decimal/Char values",
            move || black_box(&nos).encode(&mut buf).unwrap().len() as u64,
        ));

        let px = PeerNos::corpus();
        let mut fe = fefix::tagvalue::Encoder::<fefix::tagvalue::Config>::default();
        let mut fbuf = Vec::new();
        assert_eq!(
            check_encoded("fefix", px.fefix(&mut fe, &mut fbuf), &expected),
            None
        );
        out.push(Case::new(
            GROUP,
            "fefix",
            "fefix Encoder into a reused Vec (cleared); u32, Timestamp (ms), rust_decimal::Decimal, bytes; SendingTime as bytes (fefix has no µs timestamp)",
            move || black_box(&px).fefix(&mut fe, &mut fbuf).len() as u64,
        ));

        let px = PeerNos::corpus();
        let mut re = rustyfix::tagvalue::Encoder::new();
        let mut rbuf = Vec::new();
        assert_eq!(
            check_encoded("rustyfix", px.rustyfix(&mut re, &mut rbuf), &expected),
            None
        );
        out.push(Case::new(
            GROUP,
            "rustyfix",
            "rustyfix Encoder into a reused Vec (cleared); same value types as fefix",
            move || black_box(&px).rustyfix(&mut re, &mut rbuf).len() as u64,
        ));
    }
    // ExecutionReport.
    {
        const GROUP: &str = "encode/ExecutionReport";
        let expected = corpus("execution_report");
        let er = ExecutionReport::corpus();
        let mut buf = [0u8; 512];
        assert_eq!(er.encode(&mut buf).unwrap(), &expected[..]);
        out.push(Case::new(
            GROUP,
            OURS,
            "fix_core::Encoder into a caller's [u8; 512], typed values",
            move || black_box(&er).encode(&mut buf).unwrap().len() as u64,
        ));

        let px = PeerEr::corpus();
        let mut fe = fefix::tagvalue::Encoder::<fefix::tagvalue::Config>::default();
        let mut fbuf = Vec::new();
        let problem = check_encoded("fefix", px.fefix(&mut fe, &mut fbuf), &expected);
        // Record fefix's known bug rather than fail; notice when it changes.
        assert!(
            problem.is_some(),
            "fefix's BodyLength bug is gone: update the note"
        );
        out.push(Case::new(
            GROUP,
            "fefix",
            format!(
                "fefix Encoder into a reused Vec (cleared), as for NewOrderSingle. {}",
                problem.unwrap_or_default()
            ),
            move || black_box(&px).fefix(&mut fe, &mut fbuf).len() as u64,
        ));

        let px = PeerEr::corpus();
        let mut re = rustyfix::tagvalue::Encoder::new();
        let mut rbuf = Vec::new();
        assert_eq!(
            check_encoded("rustyfix", px.rustyfix(&mut re, &mut rbuf), &expected),
            None
        );
        out.push(Case::new(
            GROUP,
            "rustyfix",
            "rustyfix Encoder into a reused Vec (cleared), as for NewOrderSingle",
            move || black_box(&px).rustyfix(&mut re, &mut rbuf).len() as u64,
        ));
    }
}

fn rd(s: &str) -> rust_decimal::Decimal {
    rust_decimal::Decimal::from_str_exact(s).unwrap()
}

/// The corpus NewOrderSingle as the peers' typed values.
#[derive(Debug)]
struct PeerNos {
    seq: u64,
    transact_time_fefix: fefix::fix_values::Timestamp,
    transact_time_rustyfix: rustyfix::field_types::Timestamp,
    qty: rust_decimal::Decimal,
    price: rust_decimal::Decimal,
}

/// SendingTime: microseconds, which neither peer's timestamp type holds.
const SENDING_TIME: &[u8] = b"20261130-14:03:27.123456";

impl PeerNos {
    fn corpus() -> Self {
        PeerNos {
            seq: 3391,
            transact_time_fefix: fefix::fix_values::Timestamp::parse(b"20261130-14:03:27.456")
                .unwrap(),
            transact_time_rustyfix: rustyfix::field_types::Timestamp::parse(
                b"20261130-14:03:27.456",
            )
            .unwrap(),
            qty: rd("2500"),
            price: rd("412.3300"),
        }
    }

    fn fefix<'a>(&self, enc: &'a mut fefix::tagvalue::Encoder, buf: &'a mut Vec<u8>) -> &'a [u8] {
        use fefix::tagvalue::FvWrite;
        buf.clear();
        let mut m = enc.start_message(b"FIX.4.4", buf, b"D");
        m.set_fv(&34u32, self.seq);
        m.set_fv(&49u32, &b"CLIENT"[..]);
        m.set_fv(&52u32, SENDING_TIME);
        m.set_fv(&56u32, &b"BROKER"[..]);
        m.set_fv(&11u32, &b"CL-2026-000452"[..]);
        m.set_fv(&1u32, &b"ACC-7781"[..]);
        m.set_fv(&21u32, &b"1"[..]);
        m.set_fv(&55u32, &b"MSFT"[..]);
        m.set_fv(&48u32, &b"US5949181045"[..]);
        m.set_fv(&22u32, &b"4"[..]);
        m.set_fv(&54u32, &b"2"[..]);
        m.set_fv(&60u32, self.transact_time_fefix.clone());
        m.set_fv(&38u32, self.qty);
        m.set_fv(&40u32, &b"2"[..]);
        m.set_fv(&44u32, self.price);
        m.set_fv(&59u32, &b"0"[..]);
        m.set_fv(&15u32, &b"USD"[..]);
        m.set_fv(&100u32, &b"XNAS"[..]);
        m.wrap()
    }

    fn rustyfix<'a>(
        &self,
        enc: &'a mut rustyfix::tagvalue::Encoder,
        buf: &'a mut Vec<u8>,
    ) -> &'a [u8] {
        use rustyfix::SetField;
        buf.clear();
        let mut m = enc.start_message(b"FIX.4.4", buf, b"D");
        m.set(34, self.seq);
        m.set(49, &b"CLIENT"[..]);
        m.set(52, SENDING_TIME);
        m.set(56, &b"BROKER"[..]);
        m.set(11, &b"CL-2026-000452"[..]);
        m.set(1, &b"ACC-7781"[..]);
        m.set(21, &b"1"[..]);
        m.set(55, &b"MSFT"[..]);
        m.set(48, &b"US5949181045"[..]);
        m.set(22, &b"4"[..]);
        m.set(54, &b"2"[..]);
        m.set(60, self.transact_time_rustyfix.clone());
        m.set(38, self.qty);
        m.set(40, &b"2"[..]);
        m.set(44, self.price);
        m.set(59, &b"0"[..]);
        m.set(15, &b"USD"[..]);
        m.set(100, &b"XNAS"[..]);
        m.done().0
    }
}

/// The corpus ExecutionReport as the peers' typed values.
#[derive(Debug)]
struct PeerEr {
    seq: u64,
    transact_time_fefix: fefix::fix_values::Timestamp,
    transact_time_rustyfix: rustyfix::field_types::Timestamp,
    order_qty: rust_decimal::Decimal,
    price: rust_decimal::Decimal,
    last_qty: rust_decimal::Decimal,
    last_px: rust_decimal::Decimal,
    leaves_qty: rust_decimal::Decimal,
    cum_qty: rust_decimal::Decimal,
    avg_px: rust_decimal::Decimal,
    last_liquidity_ind: u32,
}

impl PeerEr {
    fn corpus() -> Self {
        const TT: &[u8] = b"20261130-14:03:27.123";
        PeerEr {
            seq: 1207,
            transact_time_fefix: fefix::fix_values::Timestamp::parse(TT).unwrap(),
            transact_time_rustyfix: rustyfix::field_types::Timestamp::parse(TT).unwrap(),
            order_qty: rd("5000"),
            price: rd("187.2500"),
            last_qty: rd("1200"),
            last_px: rd("187.2450"),
            leaves_qty: rd("3800"),
            cum_qty: rd("1200"),
            avg_px: rd("187.2450"),
            last_liquidity_ind: 1,
        }
    }

    fn fefix<'a>(&self, enc: &'a mut fefix::tagvalue::Encoder, buf: &'a mut Vec<u8>) -> &'a [u8] {
        use fefix::tagvalue::FvWrite;
        buf.clear();
        let mut m = enc.start_message(b"FIX.4.4", buf, b"8");
        m.set_fv(&34u32, self.seq);
        m.set_fv(&49u32, &b"BROKER"[..]);
        m.set_fv(&52u32, SENDING_TIME);
        m.set_fv(&56u32, &b"CLIENT"[..]);
        m.set_fv(&37u32, &b"OID-7781234"[..]);
        m.set_fv(&11u32, &b"CL-2026-000451"[..]);
        m.set_fv(&17u32, &b"EXEC-99812377"[..]);
        m.set_fv(&150u32, &b"F"[..]);
        m.set_fv(&39u32, &b"1"[..]);
        m.set_fv(&55u32, &b"AAPL"[..]);
        m.set_fv(&48u32, &b"US0378331005"[..]);
        m.set_fv(&22u32, &b"4"[..]);
        m.set_fv(&207u32, &b"XNAS"[..]);
        m.set_fv(&54u32, &b"1"[..]);
        m.set_fv(&38u32, self.order_qty);
        m.set_fv(&40u32, &b"2"[..]);
        m.set_fv(&44u32, self.price);
        m.set_fv(&59u32, &b"0"[..]);
        m.set_fv(&32u32, self.last_qty);
        m.set_fv(&31u32, self.last_px);
        m.set_fv(&151u32, self.leaves_qty);
        m.set_fv(&14u32, self.cum_qty);
        m.set_fv(&6u32, self.avg_px);
        m.set_fv(&60u32, self.transact_time_fefix.clone());
        m.set_fv(&1u32, &b"ACC-7781"[..]);
        m.set_fv(&15u32, &b"USD"[..]);
        m.set_fv(&30u32, &b"XNAS"[..]);
        m.set_fv(&851u32, self.last_liquidity_ind);
        m.set_fv(&58u32, &b"Partial fill"[..]);
        m.wrap()
    }

    fn rustyfix<'a>(
        &self,
        enc: &'a mut rustyfix::tagvalue::Encoder,
        buf: &'a mut Vec<u8>,
    ) -> &'a [u8] {
        use rustyfix::SetField;
        buf.clear();
        let mut m = enc.start_message(b"FIX.4.4", buf, b"8");
        m.set(34, self.seq);
        m.set(49, &b"BROKER"[..]);
        m.set(52, SENDING_TIME);
        m.set(56, &b"CLIENT"[..]);
        m.set(37, &b"OID-7781234"[..]);
        m.set(11, &b"CL-2026-000451"[..]);
        m.set(17, &b"EXEC-99812377"[..]);
        m.set(150, &b"F"[..]);
        m.set(39, &b"1"[..]);
        m.set(55, &b"AAPL"[..]);
        m.set(48, &b"US0378331005"[..]);
        m.set(22, &b"4"[..]);
        m.set(207, &b"XNAS"[..]);
        m.set(54, &b"1"[..]);
        m.set(38, self.order_qty);
        m.set(40, &b"2"[..]);
        m.set(44, self.price);
        m.set(59, &b"0"[..]);
        m.set(32, self.last_qty);
        m.set(31, self.last_px);
        m.set(151, self.leaves_qty);
        m.set(14, self.cum_qty);
        m.set(6, self.avg_px);
        m.set(60, self.transact_time_rustyfix.clone());
        m.set(1, &b"ACC-7781"[..]);
        m.set(15, &b"USD"[..]);
        m.set(30, &b"XNAS"[..]);
        m.set(851, self.last_liquidity_ind);
        m.set(58, &b"Partial fill"[..]);
        m.done().0
    }
}

/// A `fmt::Write` into a fixed buffer, so `rust_decimal`'s `Display` can be timed
/// without an allocation.
struct Cursor<'a> {
    buf: &'a mut [u8],
    len: usize,
}

impl fmt::Write for Cursor<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let end = self.len + s.len();
        self.buf
            .get_mut(self.len..end)
            .ok_or(fmt::Error)?
            .copy_from_slice(s.as_bytes());
        self.len = end;
        Ok(())
    }
}

/// Decimals from the corpus (prices, quantities) and one negative.
const DECIMALS: [&str; 6] = [
    "187.2500", "187.2450", "1.08005", "2500000", "412.3300", "-0.125",
];

fn decimal_cases(out: &mut Vec<Case>) {
    use core::fmt::Write as _;
    use rust_decimal::RoundingStrategy::MidpointAwayFromZero;
    let ours: Vec<Decimal> = DECIMALS
        .iter()
        .map(|s| Decimal::parse(s.as_bytes()).unwrap())
        .collect();
    let theirs: Vec<rust_decimal::Decimal> = DECIMALS.iter().map(|s| rd(s)).collect();

    // Check: the same text, as parsed and at 2 dp.
    for (o, t) in ours.iter().zip(&theirs) {
        let mut buf = [0u8; 32];
        let n = o.write(&mut buf).unwrap();
        assert_eq!(&buf[..n], t.to_string().as_bytes());
        let n = o.write_scaled(2, &mut buf).unwrap();
        let r = t.round_dp_with_strategy(2, MidpointAwayFromZero);
        assert_eq!(&buf[..n], format!("{r:.2}").as_bytes());
    }

    const AS_IS: &str = "decimal write/6 values as parsed";
    const DP2: &str = "decimal write/6 values at 2 dp";
    let o = ours.clone();
    out.push(Case::new(
        AS_IS,
        OURS,
        "fix_core Decimal::write into [u8; 32]",
        move || {
            let mut buf = [0u8; 32];
            black_box(&o)
                .iter()
                .map(|d| d.write(&mut buf).unwrap() as u64)
                .sum()
        },
    ));
    let t = theirs.clone();
    out.push(Case::new(
        AS_IS,
        "rust_decimal",
        "rust_decimal Display (write!) into [u8; 32], no allocation",
        move || {
            let mut buf = [0u8; 32];
            black_box(&t)
                .iter()
                .map(|d| {
                    let mut c = Cursor {
                        buf: &mut buf,
                        len: 0,
                    };
                    write!(c, "{d}").unwrap();
                    c.len as u64
                })
                .sum()
        },
    ));
    let t = theirs.clone();
    out.push(Case::new(
        AS_IS,
        "rust_decimal to_string",
        "rust_decimal to_string(), as fefix's encoder does",
        move || {
            black_box(&t)
                .iter()
                .map(|d| d.to_string().len() as u64)
                .sum()
        },
    ));
    let o = ours;
    out.push(Case::new(
        DP2,
        OURS,
        "fix_core Decimal::write_scaled(2) (half away from zero) into [u8; 32]",
        move || {
            let mut buf = [0u8; 32];
            black_box(&o)
                .iter()
                .map(|d| d.write_scaled(2, &mut buf).unwrap() as u64)
                .sum()
        },
    ));
    let t = theirs;
    out.push(Case::new(
        DP2,
        "rust_decimal",
        "rust_decimal round_dp_with_strategy(2, MidpointAwayFromZero) + write!(\"{:.2}\") into [u8; 32]",
        move || {
            let mut buf = [0u8; 32];
            black_box(&t)
                .iter()
                .map(|d| {
                    let r = d.round_dp_with_strategy(2, MidpointAwayFromZero);
                    let mut c = Cursor { buf: &mut buf, len: 0 };
                    write!(c, "{r:.2}").unwrap();
                    c.len as u64
                })
                .sum()
        },
    ));
}
