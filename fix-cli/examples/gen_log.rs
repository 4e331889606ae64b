//! Writes a QuickFIX-style log of N ExecutionReports to stdout, for measuring
//! fixdump's throughput.
//!
//! ```text
//! cargo run --release -p fix-cli --example gen_log -- 1000000 > /tmp/er.log
//! cargo run --release -p fix-cli --example gen_log -- 1000000 pipe > /tmp/er-pipe.log
//! time target/release/fixdump /tmp/er.log > /dev/null
//! ```
//!
//! Forms: `quickfix` (default: `YYYYMMDD-HH:MM:SS.sss : 8=FIX…` with SOH), `raw`
//! (a bare SOH stream), `pipe` (QuickFIX prefix, `|` for SOH).

use std::io::{self, BufWriter, Write};

fn main() -> io::Result<()> {
    let mut args = std::env::args().skip(1);
    let n: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let form = args.next().unwrap_or_else(|| "quickfix".into());
    let (prefix, sep) = match form.as_str() {
        "raw" => (false, b'\x01'),
        "pipe" => (true, b'|'),
        _ => (true, b'\x01'),
    };
    let mut out = BufWriter::with_capacity(1 << 20, io::stdout().lock());
    let mut body = Vec::with_capacity(512);
    let mut msg = Vec::with_capacity(512);
    for i in 0..n {
        let ms = i % 1000;
        let s = (i / 1000) % 60;
        let m = (i / 60_000) % 60;
        let time = format!("20261130-09:{m:02}:{s:02}.{ms:03}");
        let order = i / 4;
        let fill = i % 4;
        let (exec_type, status) = match fill {
            0 => ("0", "0"),
            3 => ("F", "2"),
            _ => ("F", "1"),
        };
        let cum = fill * 100;
        body.clear();
        write!(
            body,
            "35=8\x0134={seq}\x0149=VENUE\x0152={time}\x0156=DESK\x01\
             37=V-{order}\x0111=CL-{order}\x0117=X-{i}\x01150={exec_type}\x0139={status}\x01\
             1=ACCT-{acct}\x0155=IBM\x0154={side}\x0138=300\x0140=2\x0144=151.25\x01\
             32={last_qty}\x0131=151.2{px}\x01151={leaves}\x0114={cum}\x016=151.24\x01\
             60={time}\x0159=0\x01",
            seq = i + 1,
            acct = order % 50,
            side = 1 + order % 2,
            last_qty = if fill == 0 { 0 } else { 100 },
            px = i % 10,
            leaves = 300 - cum,
        )?;
        msg.clear();
        write!(msg, "8=FIX.4.4\x019={}\x01", body.len())?;
        msg.extend_from_slice(&body);
        let sum = fix_core::checksum(&msg);
        write!(msg, "10={sum:03}\x01")?;
        if sep != b'\x01' {
            for b in &mut msg {
                if *b == b'\x01' {
                    *b = sep;
                }
            }
        }
        if prefix {
            write!(out, "{time} : ")?;
        }
        out.write_all(&msg)?;
        if prefix {
            out.write_all(b"\n")?;
        }
    }
    out.flush()
}
