//! The parser's configuration and its entry points.

use crate::message::{self, Field, Message};
use crate::{DataFields, Error, Frame, Status, frame};

/// The default maximum message size, 64 KiB: far above any ordinary FIX message,
/// far below what a corrupt BodyLength could make a reader wait for.
pub const DEFAULT_MAX_MESSAGE_SIZE: usize = 64 * 1024;

/// Frames and parses FIX messages. Strict by default; every leniency is an explicit,
/// documented setting.
///
/// A `Parser` is a small `Copy` value holding only configuration, so build it once
/// (it is `const`) and share it.
///
/// ```
/// use fix_core::{Fields, Parser, Status};
///
/// const PARSER: Parser<'static> = Parser::new().with_max_message_size(4096);
///
/// let stream = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x018=FIX.4.4\x019=5\x01";
/// let mut fields = Fields::<32>::new();
/// let Status::Complete(msg) = PARSER.parse(stream, &mut fields)? else { panic!() };
/// assert_eq!(msg.msg_type(), b"0");
/// let consumed = msg.bytes().len();
/// assert_eq!(PARSER.frame(&stream[consumed..])?, Status::Partial { needed: Some(12) });
/// # Ok::<(), fix_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Parser<'d> {
    max_message_size: usize,
    validate_checksum: bool,
    allow_empty_values: bool,
    data_fields: DataFields<'d>,
}

impl Parser<'static> {
    /// A strict parser: CheckSum checked, empty values rejected, messages up to
    /// [`DEFAULT_MAX_MESSAGE_SIZE`], FIX 4.4's data fields.
    pub const fn new() -> Self {
        Parser {
            max_message_size: DEFAULT_MAX_MESSAGE_SIZE,
            validate_checksum: true,
            allow_empty_values: false,
            data_fields: DataFields::FIX44,
        }
    }
}

impl Default for Parser<'static> {
    fn default() -> Self {
        Parser::new()
    }
}

impl<'d> Parser<'d> {
    /// Sets the largest message accepted, in bytes (capped at `u32::MAX`). A
    /// BodyLength implying more is [`Error::MessageTooLarge`] as soon as it is read.
    ///
    /// ```
    /// use fix_core::{Error, Parser};
    /// let p = Parser::new().with_max_message_size(100);
    /// assert_eq!(
    ///     p.frame(b"8=FIX.4.4\x019=500\x01"),
    ///     Err(Error::MessageTooLarge { size: 500, max: 100 })
    /// );
    /// ```
    pub const fn with_max_message_size(mut self, bytes: usize) -> Self {
        self.max_message_size = if bytes > u32::MAX as usize {
            u32::MAX as usize
        } else {
            bytes
        };
        self
    }

    /// Whether CheckSum (10) must equal the byte sum (default `true`). Turning it
    /// off still requires three digits; it suits replaying logs whose bytes were
    /// rewritten, never a live session.
    ///
    /// ```
    /// use fix_core::Parser;
    /// let msg = b"8=FIX.4.4\x019=5\x0135=0\x0110=000\x01";
    /// assert!(Parser::new().frame(msg).is_err());
    /// assert!(Parser::new().with_checksum_validation(false).frame(msg).is_ok());
    /// ```
    pub const fn with_checksum_validation(mut self, validate: bool) -> Self {
        self.validate_checksum = validate;
        self
    }

    /// Whether a field may have an empty value (default `false`, the error
    /// [`Error::EmptyValue`]). QuickFIX's `ValidateFieldsHaveValues=N` is `true` here.
    ///
    /// ```
    /// use fix_core::{Fields, Parser};
    /// let msg = b"8=FIX.4.4\x019=9\x0135=0\x0158=\x0110=082\x01";
    /// let mut fields = Fields::<8>::new();
    /// assert!(Parser::new().parse(msg, &mut fields).is_err());
    /// let lenient = Parser::new().with_empty_values(true);
    /// let parsed = lenient.parse(msg, &mut fields).unwrap().complete().unwrap();
    /// assert_eq!(parsed.get(58), Some(&b""[..]));
    /// ```
    pub const fn with_empty_values(mut self, allow: bool) -> Self {
        self.allow_empty_values = allow;
        self
    }

    /// Uses a dictionary's data field pairs instead of FIX 4.4's.
    ///
    /// ```
    /// use fix_core::{DataFieldPair, DataFields, Parser};
    /// static PAIRS: [DataFieldPair; 1] = [DataFieldPair { length: 5001, data: 5002 }];
    /// let venue = Parser::new().with_data_fields(DataFields::new(&PAIRS));
    /// assert_eq!(venue.data_fields().data_tag(5001), Some(5002));
    /// ```
    pub const fn with_data_fields<'e>(self, data_fields: DataFields<'e>) -> Parser<'e> {
        Parser {
            max_message_size: self.max_message_size,
            validate_checksum: self.validate_checksum,
            allow_empty_values: self.allow_empty_values,
            data_fields,
        }
    }

    /// The largest message accepted, in bytes.
    pub const fn max_message_size(&self) -> usize {
        self.max_message_size
    }

    /// Whether CheckSum is checked.
    pub const fn validates_checksum(&self) -> bool {
        self.validate_checksum
    }

    /// Whether empty values are accepted.
    pub const fn allows_empty_values(&self) -> bool {
        self.allow_empty_values
    }

    /// The data field pairs in use.
    pub const fn data_fields(&self) -> &DataFields<'d> {
        &self.data_fields
    }

    /// Finds one complete message at the start of `buf`: BeginString first,
    /// BodyLength second, MsgType third, the trailer where BodyLength says, CheckSum
    /// right. Does not look at the other fields.
    ///
    /// On `Ok(Status::Complete(frame))` the message is `buf[..frame.len()]`. On an
    /// error the input holds no valid message at its start: discard
    /// [`resync(buf)`](crate::resync) bytes ([`Error::Garbage`] carries that count)
    /// and try again.
    ///
    /// ```
    /// use fix_core::{Error, Parser};
    /// let msg = b"8=FIX.4.4\x019=5\x0135=0\x0110=164\x01";
    /// assert!(matches!(
    ///     Parser::new().frame(msg),
    ///     Err(Error::CheckSumMismatch { declared: 164, computed: 163, .. })
    /// ));
    /// ```
    pub fn frame<'a>(&self, buf: &'a [u8]) -> Result<Status<Frame<'a>>, Error> {
        frame::frame(self, buf)
    }

    /// Frames one message at the start of `buf` and records every field's span in
    /// `fields`: a [`Fields`](crate::Fields), or any slice of [`Field`]s.
    ///
    /// ```
    /// use fix_core::{Fields, Parser};
    /// let msg = b"8=FIX.4.4\x019=16\x0135=A\x0195=2\x0196=\x01\x01\x0110=115\x01";
    /// let mut fields = Fields::<8>::new();
    /// let parsed = Parser::new().parse(msg, &mut fields).unwrap().complete().unwrap();
    /// assert_eq!(parsed.get(96), Some(&b"\x01\x01"[..]));
    /// ```
    pub fn parse<'a>(
        &self,
        buf: &'a [u8],
        fields: &'a mut [Field],
    ) -> Result<Status<Message<'a>>, Error> {
        match self.frame(buf)? {
            Status::Complete(frame) => self.index(frame, fields).map(Status::Complete),
            Status::Partial { needed } => Ok(Status::Partial { needed }),
        }
    }

    /// Checks that `fields` (a message's body, without header or trailer) is
    /// a run of `tag=value<SOH>` fields that this parser would index as they
    /// are: tags without leading zeros, values without SOH except in a data
    /// field read by the length before it, no empty value unless this parser
    /// allows them, a SOH after the last. Nothing is stored, so any number of
    /// fields is checked. Offsets in the error are from the start of
    /// `fields`.
    ///
    /// ```
    /// use fix_core::{Error, Parser};
    /// let p = Parser::new();
    /// assert_eq!(p.check_fields(b"11=A1\x0195=3\x0196=a\x01b\x01"), Ok(()));
    /// assert_eq!(p.check_fields(b""), Ok(()));
    /// assert_eq!(p.check_fields(b"11=A1"), Err(Error::Unterminated { offset: 0 }));
    /// assert_eq!(p.check_fields(b"\x14"), Err(Error::Unterminated { offset: 0 }));
    /// assert_eq!(p.check_fields(b"11=A\x01x\x01"), Err(Error::InvalidTag { offset: 5 }));
    /// assert_eq!(p.check_fields(b"11=\x01"), Err(Error::EmptyValue { tag: 11, offset: 3 }));
    /// ```
    pub fn check_fields(&self, fields: &[u8]) -> Result<(), Error> {
        crate::message::check_fields(fields, &self.data_fields, self.allow_empty_values)
    }

    /// Records every field's span of an already framed message in `fields`.
    ///
    /// ```
    /// use fix_core::{Fields, Parser};
    /// let p = Parser::new();
    /// let frame = p.frame(b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01")?.complete().unwrap();
    /// let mut fields = Fields::<4>::new();
    /// assert_eq!(p.index(frame, &mut fields)?.fields().len(), 4);
    /// # Ok::<(), fix_core::Error>(())
    /// ```
    pub fn index<'a>(
        &self,
        frame: Frame<'a>,
        fields: &'a mut [Field],
    ) -> Result<Message<'a>, Error> {
        message::index(frame, &self.data_fields, self.allow_empty_values, fields)
    }
}
