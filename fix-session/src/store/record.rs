//! The file store's log format: a file header, then records, each framed by its
//! length and a CRC32.
//!
//! ```text
//! file    := MAGIC record* zero*           MAGIC = "FIXSLOG1" (8 bytes, the version in it)
//!                                          zeros: space allocated ahead of the records
//! record  := len:u32le kind:u8 payload crc:u32le
//!            len = 1 + payload length; crc = CRC32 (IEEE) of len, kind and payload
//! kind 1  Message        seq:u64le message bytes          (next sender = seq + 1)
//! kind 2  TargetAdvanced next_target:u64le                (one message received)
//! kind 3  SeqSet         next_sender:u64le next_target:u64le
//! kind 4  Reset          created:i128le, nanoseconds from the Unix epoch
//! kind 5  Answering      received:u64le                   (the answers to one message)
//! ```
//!
//! Integers are little-endian. The first record is always a Reset, and only the
//! first.
//!
//! An Answering record opens the answers to incoming message `received`: the
//! Message records after it count only if the TargetAdvanced record of
//! `received` (next target `received + 1`) follows them. A log that ends
//! before it is cut at the Answering record on open, as a torn end is: those
//! messages were never sent (the session hands bytes out only after the
//! advance), and the message they answer is taken again when it is resent,
//! so it is answered once.

use std::time::{Duration, SystemTime};

use super::MAX_MESSAGE_LEN;

/// The first bytes of every log; a new format gets a new magic.
pub(super) const MAGIC: [u8; 8] = *b"FIXSLOG1";

/// The length field and the CRC around every record's kind and payload.
pub(super) const FRAME: u64 = 8;

/// The largest `len` a record has: a Message record of the longest message.
pub(super) const MAX_LEN: u32 = (1 + 8 + MAX_MESSAGE_LEN) as u32;

pub(super) const MESSAGE: u8 = 1;
pub(super) const TARGET_ADVANCED: u8 = 2;
pub(super) const SEQ_SET: u8 = 3;
pub(super) const RESET: u8 = 4;
pub(super) const ANSWERING: u8 = 5;

/// What one record says (a Message record's bytes are left in the file).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Record {
    Message { seq: u64, len: u32 },
    TargetAdvanced { next_target: u64 },
    SeqSet { next_sender: u64, next_target: u64 },
    Reset { created: SystemTime },
    Answering { received: u64 },
}

/// The `len` a record of `kind` has, given its message length for a Message; `None`
/// for no kind. The checks on open use it to tell a plausible record start from
/// noise.
pub(super) fn fixed_len(kind: u8) -> Option<u32> {
    match kind {
        MESSAGE => Some(1 + 8),
        TARGET_ADVANCED => Some(1 + 8),
        SEQ_SET => Some(1 + 16),
        RESET => Some(1 + 16),
        ANSWERING => Some(1 + 8),
        _ => None,
    }
}

/// Whether a record may start with `len` and `kind`: a known kind, and the length
/// its kind has (at least that, for a Message).
pub(super) fn plausible(len: u32, kind: u8) -> bool {
    match fixed_len(kind) {
        Some(min) if kind == MESSAGE => (min..=MAX_LEN).contains(&len),
        Some(exact) => len == exact,
        None => false,
    }
}

/// Decodes a record whose CRC matched from its `len`, `kind` and the first bytes
/// of its payload (all of it but a Message's bytes, so at most 16).
pub(super) fn decode(len: u32, kind: u8, fixed: &[u8]) -> Result<Record, &'static str> {
    if !plausible(len, kind) {
        return Err(match fixed_len(kind) {
            None => "unknown record kind",
            Some(_) => "record length does not fit its kind",
        });
    }
    let word = |i: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(fixed.get(i * 8..i * 8 + 8).unwrap_or(&[0; 8]));
        u64::from_le_bytes(b)
    };
    Ok(match kind {
        MESSAGE => Record::Message {
            seq: word(0),
            len: len - 9,
        },
        TARGET_ADVANCED => Record::TargetAdvanced {
            next_target: word(0),
        },
        SEQ_SET => Record::SeqSet {
            next_sender: word(0),
            next_target: word(1),
        },
        ANSWERING => Record::Answering { received: word(0) },
        _ => {
            let nanos = i128::from(word(0)) | (i128::from(word(1) as i64) << 64);
            Record::Reset {
                created: from_nanos(nanos).ok_or("creation time out of range")?,
            }
        }
    })
}

/// The bytes a record with a fixed part of `fixed` bytes and a body of `body`
/// bytes takes in the log.
pub(super) const fn size(fixed: usize, body: usize) -> usize {
    FRAME as usize + 1 + fixed + body
}

/// Writes a record of `kind` into `dst`, which is exactly [`size`] bytes long:
/// the length, the kind, `fixed` and `body`, then the CRC of all that. `body` is
/// at most [`MAX_MESSAGE_LEN`] bytes.
pub(super) fn write(dst: &mut [u8], kind: u8, fixed: &[u8], body: &[u8]) {
    let (framed, crc) = dst.split_at_mut(dst.len() - 4);
    // Callers bound `body` by MAX_MESSAGE_LEN, so the length fits its u32.
    let len = (1 + fixed.len() + body.len()) as u32;
    framed[..4].copy_from_slice(&len.to_le_bytes());
    framed[4] = kind;
    framed[5..5 + fixed.len()].copy_from_slice(fixed);
    framed[5 + fixed.len()..].copy_from_slice(body);
    crc.copy_from_slice(&crc32fast::hash(framed).to_le_bytes());
}

/// A SeqSet record's fixed part.
pub(super) fn seq_set(next_sender: u64, next_target: u64) -> [u8; 16] {
    let mut fixed = [0u8; 16];
    fixed[..8].copy_from_slice(&next_sender.to_le_bytes());
    fixed[8..].copy_from_slice(&next_target.to_le_bytes());
    fixed
}

/// A new log's whole contents: the magic and a Reset record.
pub(super) fn new_log(created: SystemTime) -> Vec<u8> {
    let fixed = to_nanos(created).to_le_bytes();
    let mut out = vec![0u8; MAGIC.len() + size(fixed.len(), 0)];
    out[..MAGIC.len()].copy_from_slice(&MAGIC);
    write(&mut out[MAGIC.len()..], RESET, &fixed, &[]);
    out
}

/// Nanoseconds from the Unix epoch, negative before it: every `SystemTime` fits.
pub(super) fn to_nanos(t: SystemTime) -> i128 {
    match t.duration_since(SystemTime::UNIX_EPOCH) {
        Ok(after) => after.as_nanos() as i128,
        Err(before) => -(before.duration().as_nanos() as i128),
    }
}

/// The time `nanos` nanoseconds from the Unix epoch, if the platform has it.
pub(super) fn from_nanos(nanos: i128) -> Option<SystemTime> {
    let abs = nanos.unsigned_abs();
    let secs = u64::try_from(abs / 1_000_000_000).ok()?;
    let d = Duration::new(secs, (abs % 1_000_000_000) as u32);
    if nanos >= 0 {
        SystemTime::UNIX_EPOCH.checked_add(d)
    } else {
        SystemTime::UNIX_EPOCH.checked_sub(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_record_byte_for_byte() {
        let mut out = vec![0u8; size(8, 4)];
        write(&mut out, MESSAGE, &0x0102u64.to_le_bytes(), b"35=0");
        let mut expected = vec![13, 0, 0, 0, 1, 2, 1, 0, 0, 0, 0, 0, 0];
        expected.extend_from_slice(b"35=0");
        let crc = crc32fast::hash(&expected).to_le_bytes();
        expected.extend_from_slice(&crc);
        assert_eq!(out, expected);
        assert!(plausible(13, MESSAGE));
        assert_eq!(
            decode(13, MESSAGE, &out[5..13]),
            Ok(Record::Message {
                seq: 0x0102,
                len: 4
            })
        );
    }

    #[test]
    fn a_new_log_is_the_magic_and_a_reset() {
        let t = SystemTime::UNIX_EPOCH + Duration::new(1_800_000_000, 123_456_789);
        let out = new_log(t);
        assert_eq!(&out[..8], b"FIXSLOG1");
        assert_eq!(&out[8..13], &[17, 0, 0, 0, RESET]);
        assert_eq!(out.len(), 8 + 4 + 17 + 4);
        assert_eq!(
            decode(17, RESET, &out[13..29]),
            Ok(Record::Reset { created: t })
        );
    }

    #[test]
    fn times_round_trip_on_both_sides_of_the_epoch() {
        for t in [
            SystemTime::UNIX_EPOCH,
            SystemTime::UNIX_EPOCH + Duration::new(4_102_444_800, 999_999_999),
            SystemTime::UNIX_EPOCH - Duration::new(86_400, 1),
            SystemTime::now(),
        ] {
            let n = to_nanos(t);
            assert_eq!(from_nanos(n), Some(t), "{n}");
        }
        assert_eq!(
            to_nanos(SystemTime::UNIX_EPOCH - Duration::new(1, 0)),
            -1_000_000_000
        );
        // Past what a u64 of seconds holds: no time, not a panic.
        assert_eq!(from_nanos(i128::MAX), None);
    }

    #[test]
    fn lengths_that_do_not_fit_their_kind_are_refused() {
        assert!(!plausible(8, MESSAGE));
        assert!(plausible(9, MESSAGE)); // an empty message
        assert!(!plausible(MAX_LEN + 1, MESSAGE));
        assert!(!plausible(10, TARGET_ADVANCED));
        assert!(!plausible(9, 0));
        assert!(plausible(9, ANSWERING));
        assert!(!plausible(9, 6));
        assert_eq!(decode(9, 6, &[0; 8]), Err("unknown record kind"));
        assert_eq!(
            decode(10, SEQ_SET, &[0; 9]),
            Err("record length does not fit its kind")
        );
    }
}
