//! Shared by the criterion benchmarks: the corpus, and the floors our parser is
//! measured against in the same run.

use std::path::PathBuf;

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
/// let er = fix_benches::corpus("execution_report");
/// assert_eq!(er.len(), 339);
/// ```
pub fn corpus(stem: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/corpus")
        .join(format!("{stem}.fix"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
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
/// assert_eq!(out[1], (35, 14, 15));
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
