//! The builder side: the [`Build`] trait generated builders implement and the
//! helpers their `write` calls.

use crate::value::{FieldValue, NumInGroup};
use crate::{EncodeError, Encoder};

/// A generated builder (message body, component, group entry): writes its fields
/// through an encoder, in dictionary order, and refuses a required one that is unset
/// ([`EncodeError::MissingRequired`], checked as it is written: [`required`],
/// [`required_entries`]).
///
/// ```
/// use fix_core::typed::{Build, put, put_group};
/// use fix_core::{EncodeError, Encoder};
/// struct Party<'b> { id: Option<fix_core::value::FixStr<'b>> }
/// impl Build for Party<'_> {
///     fn write(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError> {
///         put(enc, 448, &self.id)
///     }
/// }
/// let id = fix_core::value::FixStr::parse(b"P1").unwrap();
/// let mut buf = [0u8; 64];
/// let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"D");
/// put_group(&mut enc, 453, &[Party { id: Some(id) }, Party { id: None }])?;
/// let msg = enc.finish()?;
/// assert!(msg.windows(13).any(|w| w == b"453=2\x01448=P1\x01"));
/// # Ok::<(), EncodeError>(())
/// ```
pub trait Build {
    /// Writes the fields that are set; groups as counter then entries.
    fn write(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError>;
}

/// The value of a required field (or component), or
/// [`EncodeError::MissingRequired`] naming `tag` when it is unset. The presence
/// check of a builder's `write`: the same branch as writing an optional field, so
/// it costs nothing a complete message would notice.
///
/// ```
/// use fix_core::{EncodeError, typed::required};
/// assert_eq!(required(&Some(5), 34), Ok(&5));
/// assert_eq!(required::<i64>(&None, 34), Err(EncodeError::MissingRequired { tag: 34 }));
/// ```
#[inline]
pub fn required<T>(value: &Option<T>, tag: u32) -> Result<&T, EncodeError> {
    match value {
        Some(v) => Ok(v),
        None => Err(missing(tag)),
    }
}

// Out of line: a complete message never takes this path, and keeping it apart
// keeps the writes that do in one straight run.
#[cold]
#[inline(never)]
fn missing(tag: u32) -> EncodeError {
    EncodeError::MissingRequired { tag }
}

/// The entries of a required group, or [`EncodeError::MissingRequired`] naming
/// its `counter` when there are none (a group on the wire has at least one entry).
///
/// ```
/// use fix_core::{EncodeError, typed::required_entries};
/// assert_eq!(required_entries(&[1, 2], 453), Ok(&[1, 2][..]));
/// assert_eq!(required_entries::<u8>(&[], 453), Err(EncodeError::MissingRequired { tag: 453 }));
/// ```
#[inline]
pub fn required_entries<B>(entries: &[B], counter: u32) -> Result<&[B], EncodeError> {
    if entries.is_empty() {
        Err(missing(counter))
    } else {
        Ok(entries)
    }
}

/// Writes `tag` when `value` is set.
///
/// ```
/// let mut buf = [0u8; 64];
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"0");
/// fix_core::typed::put(&mut enc, 112, &Some(fix_core::value::SeqNum(5)))?;
/// fix_core::typed::put::<i64>(&mut enc, 58, &None)?;
/// assert!(enc.finish()?.windows(7).any(|w| w == b"\x01112=5\x01"));
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[inline]
pub fn put<'v, V: FieldValue<'v>>(
    enc: &mut Encoder<'_>,
    tag: u32,
    value: &Option<V>,
) -> Result<(), EncodeError> {
    match value {
        Some(v) => enc.field(tag, v),
        None => Ok(()),
    }
}

/// Writes a DATA field and its LENGTH field (`length_tag` 0: the data alone) when
/// `value` is set.
///
/// ```
/// let mut buf = [0u8; 64];
/// let mut enc = fix_core::Encoder::new(&mut buf, b"FIX.4.4", b"A");
/// fix_core::typed::put_data(&mut enc, 95, 96, Some(b"a\x01b"))?;
/// assert!(enc.finish()?.windows(12).any(|w| w == b"95=3\x0196=a\x01b\x01"));
/// # Ok::<(), fix_core::EncodeError>(())
/// ```
#[inline]
pub fn put_data(
    enc: &mut Encoder<'_>,
    length_tag: u32,
    tag: u32,
    value: Option<&[u8]>,
) -> Result<(), EncodeError> {
    match value {
        Some(v) if length_tag != 0 => enc.data(length_tag, tag, v),
        Some(v) => enc.raw(tag, v),
        None => Ok(()),
    }
}

/// Writes a group: the counter, then each entry. Nothing when `entries` is empty
/// (see [`Build`] for an example).
pub fn put_group<B: Build>(
    enc: &mut Encoder<'_>,
    counter: u32,
    entries: &[B],
) -> Result<(), EncodeError> {
    if entries.is_empty() {
        return Ok(());
    }
    let n = NumInGroup(u32::try_from(entries.len()).unwrap_or(u32::MAX));
    enc.field(counter, &n)?;
    entries.iter().try_for_each(|e| e.write(enc))
}

/// Writes a component when it is set.
///
/// ```
/// # use fix_core::typed::{Build, put_component};
/// # use fix_core::{EncodeError, Encoder};
/// struct Empty;
/// impl Build for Empty {
///     fn write(&self, _: &mut Encoder<'_>) -> Result<(), EncodeError> { Ok(()) }
/// }
/// let mut buf = [0u8; 32];
/// let mut enc = Encoder::new(&mut buf, b"FIX.4.4", b"0");
/// put_component(&mut enc, &Some(Empty))?;
/// put_component::<Empty>(&mut enc, &None)?;
/// # Ok::<(), EncodeError>(())
/// ```
#[inline]
pub fn put_component<B: Build>(
    enc: &mut Encoder<'_>,
    value: &Option<B>,
) -> Result<(), EncodeError> {
    match value {
        Some(c) => c.write(enc),
        None => Ok(()),
    }
}

/// The header tags a session writes itself on every message it sends:
/// BeginString, BodyLength, MsgType, MsgSeqNum, PossDupFlag, SenderCompID,
/// SendingTime, TargetCompID, OrigSendingTime and CheckSum.
/// [`AppHeader::write_app_fields`] leaves them out.
///
/// ```
/// assert!(fix_core::typed::SESSION_TAGS.contains(&34));
/// assert!(!fix_core::typed::SESSION_TAGS.contains(&115)); // OnBehalfOfCompID is the application's
/// ```
pub const SESSION_TAGS: &[u32] = &[8, 9, 10, 34, 35, 43, 49, 52, 56, 122];

/// A message a session can send as it is: its MsgType, and the fields that go
/// after the header the session writes (the body, behind any header fields the
/// application sets). Generated message builders implement it; a session's
/// typed send encodes them straight into its output, with no whole message to
/// build and parse again.
///
/// ```
/// use fix_core::typed::{Build, MessageBody, put};
/// use fix_core::{EncodeError, Encoder};
/// struct Heartbeat<'b> { test_req_id: Option<fix_core::value::FixStr<'b>> }
/// impl Build for Heartbeat<'_> {
///     fn write(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError> {
///         put(enc, 112, &self.test_req_id)
///     }
/// }
/// impl MessageBody for Heartbeat<'_> {
///     const MSG_TYPE: &'static [u8] = b"0";
///     fn write_body(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError> {
///         self.write(enc)
///     }
/// }
/// let hb = Heartbeat { test_req_id: Some(fix_core::value::FixStr::parse(b"T1").unwrap()) };
/// let mut buf = [0u8; 16];
/// let mut enc = Encoder::fields(&mut buf);
/// hb.write_body(&mut enc)?;
/// assert_eq!(enc.finish()?, b"112=T1\x01");
/// # Ok::<(), EncodeError>(())
/// ```
pub trait MessageBody {
    /// MsgType (35).
    const MSG_TYPE: &'static [u8];
    /// Writes the fields after the session's header, refusing a required one
    /// that is unset ([`EncodeError::MissingRequired`]).
    fn write_body(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError>;
}

/// A header builder whose fields the application sets (OnBehalfOfCompID,
/// DeliverToCompID, PossResend, …) around the ones a session writes itself
/// ([`SESSION_TAGS`]). Generated header builders implement it.
/// [`AppHeader::with_body`] pairs it with a message body to send both.
///
/// ```
/// use fix_core::typed::{AppHeader, MessageBody, put};
/// use fix_core::{EncodeError, Encoder};
/// struct Routing<'b> { on_behalf_of: Option<fix_core::value::FixStr<'b>> }
/// impl AppHeader for Routing<'_> {
///     fn write_app_fields(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError> {
///         put(enc, 115, &self.on_behalf_of)
///     }
/// }
/// struct Empty;
/// impl MessageBody for Empty {
///     const MSG_TYPE: &'static [u8] = b"0";
///     fn write_body(&self, _: &mut Encoder<'_>) -> Result<(), EncodeError> { Ok(()) }
/// }
/// let header = Routing { on_behalf_of: Some(fix_core::value::FixStr::parse(b"DESK").unwrap()) };
/// let msg = header.with_body(&Empty);
/// let mut buf = [0u8; 16];
/// let mut enc = Encoder::fields(&mut buf);
/// msg.write_body(&mut enc)?;
/// assert_eq!(enc.finish()?, b"115=DESK\x01");
/// # Ok::<(), EncodeError>(())
/// ```
pub trait AppHeader {
    /// Writes the header fields that are set, in ascending tag order, but for
    /// [`SESSION_TAGS`]; a required header field left unset is not refused (the
    /// session sets those).
    fn write_app_fields(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError>;

    /// This header's application fields in front of `body`: a message a
    /// session sends with both.
    fn with_body<'a, B: MessageBody>(&'a self, body: &'a B) -> WithHeader<'a, Self, B>
    where
        Self: Sized,
    {
        WithHeader { header: self, body }
    }
}

/// A message body behind the header fields the application set
/// ([`AppHeader::with_body`]).
#[derive(Clone, Copy, Debug)]
pub struct WithHeader<'a, H, B> {
    header: &'a H,
    body: &'a B,
}

impl<H: AppHeader, B: MessageBody> MessageBody for WithHeader<'_, H, B> {
    const MSG_TYPE: &'static [u8] = B::MSG_TYPE;
    #[inline]
    fn write_body(&self, enc: &mut Encoder<'_>) -> Result<(), EncodeError> {
        self.header.write_app_fields(enc)?;
        self.body.write_body(enc)
    }
}
