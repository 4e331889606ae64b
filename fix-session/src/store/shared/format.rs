//! The shared log's format: segment files of records, each record framed by
//! its length and a CRC32 and naming the session it belongs to.
//!
//! ```text
//! segment := MAGIC number:u64le record* zero*      MAGIC = "FIXSHLG1"
//! record  := len:u32le kind:u8 session:u32le payload crc:u32le
//!            len = 5 + payload length; crc = CRC32 (IEEE) of len, kind, session, payload
//! kind 1  Message        seq:u64le message bytes          (next sender = seq + 1)
//! kind 2  TargetAdvanced next_target:u64le                (one message received)
//! kind 3  SeqSet         next_sender:u64le next_target:u64le
//! kind 4  Reset          created:i128le name bytes        (numbers 1 and 1, no messages)
//! kind 5  Answering      received:u64le                   (the answers to one message)
//! kind 6  Removed        (nothing)                        (the session's store deleted)
//! ```
//!
//! A session's first record is a Reset, which names it; its later Resets
//! name it again, so the segments before a session's last Reset are never
//! needed for it. Answers follow the file store's rule, per session: the
//! Message records after an Answering record count only if the session's
//! TargetAdvanced to `received + 1` follows them (or a SeqSet or Reset
//! closes them); at the log's end, open answers are taken back.

use std::time::SystemTime;

use crate::store::MAX_MESSAGE_LEN;

/// A segment's first bytes.
pub(super) const MAGIC: [u8; 8] = *b"FIXSHLG1";
/// The magic and the segment's number.
pub(super) const HEADER: u64 = 16;
/// The length field and the CRC around every record.
pub(super) const FRAME: usize = 8;
/// What every record has after its length: the kind and the session.
pub(super) const KIND_SESSION: usize = 5;

pub(super) const MESSAGE: u8 = 1;
pub(super) const TARGET_ADVANCED: u8 = 2;
pub(super) const SEQ_SET: u8 = 3;
pub(super) const RESET: u8 = 4;
pub(super) const ANSWERING: u8 = 5;
pub(super) const REMOVED: u8 = 6;

/// The longest session name a Reset record carries.
pub(super) const MAX_NAME: usize = 1024;

/// The largest `len` a record has: a Message record of the longest message.
pub(super) const MAX_LEN: u32 = (KIND_SESSION + 8 + MAX_MESSAGE_LEN) as u32;

/// The bytes a record with `payload` bytes after its session takes.
pub(super) const fn size(payload: usize) -> usize {
    FRAME + KIND_SESSION + payload
}

/// Appends a record of `kind` for `session` to `out`: `fixed` then `body`
/// are its payload. The caller bounds `body` by [`MAX_MESSAGE_LEN`].
pub(super) fn append(out: &mut Vec<u8>, kind: u8, session: u32, fixed: &[u8], body: &[u8]) {
    let start = out.len();
    let len = (KIND_SESSION + fixed.len() + body.len()) as u32;
    out.extend_from_slice(&len.to_le_bytes());
    out.push(kind);
    out.extend_from_slice(&session.to_le_bytes());
    out.extend_from_slice(fixed);
    out.extend_from_slice(body);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_le_bytes());
}

/// What one record says; a Message's bytes and a Reset's name are at
/// `payload[8..]` and `payload[16..]` of the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Record {
    Message { seq: u64 },
    TargetAdvanced { next_target: u64 },
    SeqSet { next_sender: u64, next_target: u64 },
    Reset { created: SystemTime },
    Answering { received: u64 },
    Removed,
}

/// A record read whole: its kind, session and payload, CRC checked.
#[derive(Clone, Copy, Debug)]
pub(super) struct Framed<'a> {
    pub(super) kind: u8,
    pub(super) session: u32,
    pub(super) payload: &'a [u8],
}

/// Why bytes are not a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bad {
    /// Zeros: the segment's written part ends here.
    End,
    /// A length no record has, a CRC that does not match, or too few bytes.
    Damaged(&'static str),
}

/// The record at the start of `bytes`, and its size.
pub(super) fn frame(bytes: &[u8]) -> Result<(Framed<'_>, usize), Bad> {
    let Some(len) = bytes.first_chunk::<4>().map(|b| u32::from_le_bytes(*b)) else {
        return Err(Bad::End);
    };
    if len == 0 {
        return Err(Bad::End);
    }
    if !(KIND_SESSION as u32..=MAX_LEN).contains(&len) {
        return Err(Bad::Damaged("record length out of range"));
    }
    let total = len as usize + FRAME;
    let Some(rec) = bytes.get(..total) else {
        return Err(Bad::Damaged("record cut short"));
    };
    let (framed, crc) = rec.split_at(total - 4);
    if crc32fast::hash(framed) != u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]) {
        return Err(Bad::Damaged("CRC mismatch"));
    }
    let kind = framed[4];
    let session = u32::from_le_bytes([framed[5], framed[6], framed[7], framed[8]]);
    Ok((
        Framed {
            kind,
            session,
            payload: &framed[9..],
        },
        total,
    ))
}

fn word(payload: &[u8], i: usize) -> Option<u64> {
    payload
        .get(i * 8..i * 8 + 8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
}

/// What a framed record says, or why it breaks the format.
pub(super) fn decode(rec: &Framed<'_>) -> Result<Record, &'static str> {
    let p = rec.payload;
    let exact = |n: usize| {
        if p.len() == n {
            Ok(())
        } else {
            Err("record length does not fit its kind")
        }
    };
    Ok(match rec.kind {
        MESSAGE => Record::Message {
            seq: word(p, 0).ok_or("record length does not fit its kind")?,
        },
        TARGET_ADVANCED => {
            exact(8)?;
            Record::TargetAdvanced {
                next_target: word(p, 0).unwrap_or(0),
            }
        }
        SEQ_SET => {
            exact(16)?;
            Record::SeqSet {
                next_sender: word(p, 0).unwrap_or(0),
                next_target: word(p, 1).unwrap_or(0),
            }
        }
        RESET => {
            if p.len() < 16 || p.len() > 16 + MAX_NAME {
                return Err("record length does not fit its kind");
            }
            let nanos = i128::from_le_bytes(p[..16].try_into().unwrap_or([0; 16]));
            Record::Reset {
                created: from_nanos(nanos).ok_or("creation time out of range")?,
            }
        }
        ANSWERING => {
            exact(8)?;
            Record::Answering {
                received: word(p, 0).unwrap_or(0),
            }
        }
        REMOVED => {
            exact(0)?;
            Record::Removed
        }
        _ => return Err("unknown record kind"),
    })
}

/// A Reset record's name, checked to be UTF-8.
pub(super) fn reset_name<'a>(rec: &Framed<'a>) -> Result<&'a str, &'static str> {
    std::str::from_utf8(rec.payload.get(16..).unwrap_or_default())
        .map_err(|_| "a reset's session name is not UTF-8")
}

/// A Reset record's fixed part.
pub(super) fn reset_fixed(created: SystemTime) -> [u8; 16] {
    crate::store::record::to_nanos(created).to_le_bytes()
}

/// A SeqSet record's fixed part: the file store's.
pub(super) use crate::store::record::seq_set;

use crate::store::record::from_nanos;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_frames_back_to_what_was_appended() {
        let mut out = Vec::new();
        append(&mut out, MESSAGE, 7, &42u64.to_le_bytes(), b"8=FIX.4.4");
        let (rec, len) = frame(&out).unwrap();
        assert_eq!(len, out.len());
        assert_eq!((rec.kind, rec.session), (MESSAGE, 7));
        assert_eq!(decode(&rec), Ok(Record::Message { seq: 42 }));
        assert_eq!(&rec.payload[8..], b"8=FIX.4.4");
    }

    #[test]
    fn a_flipped_bit_anywhere_is_damage_and_zeros_are_the_end() {
        let mut out = Vec::new();
        append(&mut out, SEQ_SET, 1, &seq_set(5, 6), &[]);
        for i in 0..out.len() * 8 {
            let mut bad = out.clone();
            bad[i / 8] ^= 1 << (i % 8);
            assert!(
                matches!(frame(&bad), Err(Bad::Damaged(_)))
                    || frame(&bad)
                        .map(|(r, _)| decode(&r).is_err())
                        .unwrap_or(false)
                    || i / 8 < 4,
                "bit {i}"
            );
        }
        assert_eq!(frame(&[0; 16]).unwrap_err(), Bad::End);
    }

    #[test]
    fn a_reset_carries_its_name_and_time() {
        let created =
            SystemTime::UNIX_EPOCH + std::time::Duration::from_nanos(1_700_000_000_123_456_789);
        let mut out = Vec::new();
        append(&mut out, RESET, 3, &reset_fixed(created), b"FIX.4.4-A-B");
        let (rec, _) = frame(&out).unwrap();
        assert_eq!(decode(&rec), Ok(Record::Reset { created }));
        assert_eq!(reset_name(&rec), Ok("FIX.4.4-A-B"));
    }
}
