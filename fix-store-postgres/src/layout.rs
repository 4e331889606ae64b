//! How a batch's messages are laid out in one `fix_batches.bytes` value.
//!
//! Each message, in order, is its FIX number (8 bytes, big-endian, the u64
//! itself), its length (4 bytes, big-endian) and its bytes; nothing else, no
//! header. A message of 64 MiB (the largest a store takes) fits the length.
//! SQL reads it with the schema's `fix_batch_messages(bytes, valid_below)`.
//!
//! A batch becomes one row, or a few: a row ends where it reaches
//! [`ROW_BYTES`] (so that a read brings a bounded amount at a time, whatever
//! one commit stored) and where the numbers cross from `i64::MAX` to
//! `i64::MAX + 1` (a row's numbers are then all of one sign as bigints, and
//! its first and last compare as the FIX numbers do).

/// Where a row stops taking messages: past this many bytes of layout. A
/// message longer than this is a row alone.
pub(crate) const ROW_BYTES: usize = 64 * 1024;

/// The bytes a message takes before its own: number and length.
const HEADER: usize = 12;

/// One row of `fix_batches`: its first and last FIX numbers as bigints, and
/// its messages laid out.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Row {
    pub(crate) first: i64,
    pub(crate) last: i64,
    pub(crate) bytes: Vec<u8>,
}

/// Lays `messages` (numbers increasing) out in rows.
pub(crate) fn encode<'a>(messages: impl IntoIterator<Item = (u64, &'a [u8])>) -> Vec<Row> {
    let mut rows: Vec<Row> = Vec::new();
    for (seq, bytes) in messages {
        let db = crate::seq::to_db(seq);
        let fits = rows.last().is_some_and(|row| {
            row.bytes.len() + HEADER + bytes.len() <= ROW_BYTES && (row.last < 0) == (db < 0)
        });
        if !fits {
            rows.push(Row {
                first: db,
                ..Row::default()
            });
        }
        let row = rows.last_mut().expect("a row was just pushed");
        row.last = db;
        row.bytes.extend_from_slice(&seq.to_be_bytes());
        row.bytes
            .extend_from_slice(&(bytes.len() as u32).to_be_bytes());
        row.bytes.extend_from_slice(bytes);
    }
    rows
}

/// A row's bytes that do not follow the layout.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Malformed;

impl std::fmt::Display for Malformed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a stored batch does not follow the layout")
    }
}

impl std::error::Error for Malformed {}

/// The messages of a row's bytes, in order: `(number, bytes)`.
pub(crate) fn decode(bytes: &[u8]) -> Messages<'_> {
    Messages { rest: bytes }
}

/// The iterator [`decode`] returns; an error ends it.
#[derive(Debug)]
pub(crate) struct Messages<'a> {
    rest: &'a [u8],
}

impl<'a> Iterator for Messages<'a> {
    type Item = Result<(u64, &'a [u8]), Malformed>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.rest.is_empty() {
            return None;
        }
        let parsed = split(self.rest);
        self.rest = parsed.map_or(&[], |(_, _, rest)| rest);
        Some(parsed.map(|(seq, bytes, _)| (seq, bytes)).ok_or(Malformed))
    }
}

/// The first message of `bytes` and what follows it.
fn split(bytes: &[u8]) -> Option<(u64, &[u8], &[u8])> {
    let (seq, rest) = bytes.split_first_chunk::<8>()?;
    let (len, rest) = rest.split_first_chunk::<4>()?;
    let len = u32::from_be_bytes(*len) as usize;
    (rest.len() >= len).then(|| (u64::from_be_bytes(*seq), &rest[..len], &rest[len..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(row: &Row) -> Vec<(u64, Vec<u8>)> {
        decode(&row.bytes)
            .map(|m| m.map(|(s, b)| (s, b.to_vec())).unwrap())
            .collect()
    }

    #[test]
    fn messages_come_back_as_they_went() {
        let messages = [
            (1, b"one".to_vec()),
            (2, Vec::new()),
            (7, b"seven".to_vec()),
        ];
        let rows = encode(messages.iter().map(|(s, m)| (*s, m.as_slice())));
        assert_eq!(rows.len(), 1);
        assert_eq!((rows[0].first, rows[0].last), (1, 7));
        assert_eq!(rows[0].bytes.len(), 3 * HEADER + 8);
        assert_eq!(all(&rows[0]), messages);
        assert_eq!(&rows[0].bytes[..12], &[0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 3]);
    }

    #[test]
    fn rows_end_at_their_size_and_at_the_sign() {
        let big = vec![b'x'; ROW_BYTES / 2];
        let rows = encode((1..=3).map(|s| (s, big.as_slice())));
        assert_eq!(
            rows.iter().map(|r| (r.first, r.last)).collect::<Vec<_>>(),
            [(1, 1), (2, 2), (3, 3)]
        );
        let huge = vec![b'y'; ROW_BYTES * 2];
        let rows = encode([(1, &b"a"[..]), (2, &huge[..]), (3, &b"b"[..])]);
        assert_eq!(rows.len(), 3);
        let top = i64::MAX as u64;
        let rows = encode((top - 1..=top + 2).map(|s| (s, &b"m"[..])));
        let bounds: Vec<_> = rows.iter().map(|r| (r.first, r.last)).collect();
        assert_eq!(bounds, [(i64::MAX - 1, i64::MAX), (i64::MIN, i64::MIN + 1)]);
        assert_eq!(all(&rows[1])[1].0, top + 2);
        assert!(encode([]).is_empty());
    }

    #[test]
    fn a_cut_row_is_malformed() {
        let rows = encode([(5, &b"hello"[..])]);
        let cut = &rows[0].bytes[..rows[0].bytes.len() - 1];
        let got: Vec<_> = decode(cut).collect();
        assert!(matches!(got[..], [Err(Malformed)]));
        assert!(decode(&[0; 3]).next().unwrap().is_err());
    }
}
