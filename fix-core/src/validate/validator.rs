//! The validator: one walk over a parsed message against a [`Schema`].

use super::reject::{Echo, Invalid, Reject, SessionRejectReason as Reason};
use super::schema::{FieldInfo, Group, Layout, Schema, ValueFormat, byte_set_contains};
use crate::value::parse_uint;
use crate::{Field, Message};

/// Tags from this number up are user-defined (FIX's UserMin).
pub const USER_DEFINED_MIN: u32 = 5000;

/// Checks parsed messages against a dictionary, the way QuickFIX does, and says what
/// a Reject must carry. Every check is on by default; each can be switched like
/// QuickFIX's session settings. Validation never allocates.
///
/// When a message has several problems, the one reported is the one QuickFIX
/// reports: a BeginString that is not the dictionary's first (not a Reject at
/// all: [`Invalid::IncorrectBeginString`]), then a value holding SOH in a field
/// that is not DATA (which QuickFIX finds while parsing), then fields out of their
/// section or group order, then an unknown MsgType, then a missing required tag
/// (header, trailer, body, then group entries), then the first field, in wire order
/// within header, trailer and body, that is repeated, empty, badly formatted, out
/// of range, undefined, not for this message, or a group counter that does not
/// match its entries.
///
/// ```
/// use fix_core::validate::Validator;
/// let v = Validator::new().validate_user_defined_fields(false);
/// assert!(!v.validates_user_defined_fields());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Validator {
    fields_out_of_order: bool,
    fields_have_values: bool,
    user_defined_fields: bool,
    allow_unknown_msg_fields: bool,
}

impl Default for Validator {
    fn default() -> Self {
        Validator::new()
    }
}

impl Validator {
    /// Every check on.
    pub const fn new() -> Self {
        Validator {
            fields_out_of_order: true,
            fields_have_values: true,
            user_defined_fields: true,
            allow_unknown_msg_fields: false,
        }
    }

    /// QuickFIX's `ValidateFieldsOutOfOrder` (default on): header fields must come
    /// before the body, trailer fields after it (reason 14), and the members of a
    /// repeating group's entry must follow the dictionary's order (reason 15, as
    /// QuickFIX/J's `ValidateUnorderedGroupFields` checks it). Off, an entry's
    /// members may come in any order after its delimiter; an entry that does not
    /// start with its delimiter is reason 15 either way.
    ///
    /// ```
    /// use fix_core::validate::Validator;
    /// assert!(!Validator::new().validate_fields_out_of_order(false).validates_fields_out_of_order());
    /// ```
    pub const fn validate_fields_out_of_order(mut self, on: bool) -> Self {
        self.fields_out_of_order = on;
        self
    }

    /// QuickFIX's `ValidateFieldsHaveValues` (default on): an empty value is
    /// reason 4. (The parser must accept empty values for the message to get here:
    /// `Parser::with_empty_values(true)`.)
    pub const fn validate_fields_have_values(mut self, on: bool) -> Self {
        self.fields_have_values = on;
        self
    }

    /// QuickFIX's `ValidateUserDefinedFields` (default on): user-defined tags
    /// ([`USER_DEFINED_MIN`] and up) are checked like the others; off, they pass
    /// unchecked wherever they are.
    pub const fn validate_user_defined_fields(mut self, on: bool) -> Self {
        self.user_defined_fields = on;
        self
    }

    /// QuickFIX's `AllowUnknownMsgFields` (default off): on, tags below
    /// [`USER_DEFINED_MIN`] that the dictionary does not define, or does not define
    /// for this message, are let through.
    pub const fn allow_unknown_msg_fields(mut self, on: bool) -> Self {
        self.allow_unknown_msg_fields = on;
        self
    }

    /// Whether fields out of their section are rejected.
    pub const fn validates_fields_out_of_order(&self) -> bool {
        self.fields_out_of_order
    }

    /// Whether empty values are rejected.
    pub const fn validates_fields_have_values(&self) -> bool {
        self.fields_have_values
    }

    /// Whether user-defined tags are checked.
    pub const fn validates_user_defined_fields(&self) -> bool {
        self.user_defined_fields
    }

    /// Whether unknown tags below 5000 are let through.
    pub const fn allows_unknown_msg_fields(&self) -> bool {
        self.allow_unknown_msg_fields
    }

    /// Validates `msg` against `dict`: `Err` says what the session answers, a
    /// Reject ([`Invalid::Reject`]) or, for a message of another FIX version, a
    /// Logout ([`Invalid::IncorrectBeginString`]).
    ///
    /// ```
    /// use fix_core::validate::{Invalid, Validator};
    /// # fn check<D: fix_core::validate::Schema>(dict: &D, msg: &fix_core::Message<'_>) {
    /// match Validator::new().validate(dict, msg) {
    ///     Ok(()) => {}                                        // deliver it
    ///     Err(Invalid::Reject(reject)) => { let _ = reject.reason; } // send a Reject (35=3)
    ///     Err(Invalid::IncorrectBeginString { .. }) => {}     // Logout, disconnect
    /// }
    /// # }
    /// ```
    pub fn validate<'a, D: Schema + ?Sized>(
        &self,
        dict: &D,
        msg: &Message<'a>,
    ) -> Result<(), Invalid> {
        envelope(dict, msg)?;
        // A message the dictionary's dense table vouches for would pass the walk
        // with nothing to report; any doubt leaves it to the walk.
        if dict
            .dense(msg.msg_type())
            .is_some_and(|dense| dense.passes(dict, msg))
        {
            return Ok(());
        }
        Ok(self.walk(dict, msg, None)?)
    }

    /// Validates `msg` like [`Validator::validate`], with the same answer, but
    /// remembers the shapes (MsgType and tag sequence) of messages that passed: a
    /// message of a remembered shape is checked by its values alone, since every
    /// other check depends on the shape only. A counterparty sends few shapes, so
    /// most messages take this way; any problem, or a new shape, takes the full
    /// walk.
    ///
    /// ```
    /// use fix_core::validate::{ShapeCache, Validator};
    /// # fn check<D: fix_core::validate::Schema>(dict: &D, msg: &fix_core::Message<'_>) {
    /// let mut cache = ShapeCache::<4, 64>::new();
    /// let first = Validator::new().validate_cached(dict, msg, &mut cache);
    /// let again = Validator::new().validate_cached(dict, msg, &mut cache); // by values only
    /// assert_eq!(first.is_ok(), again.is_ok());
    /// # }
    /// ```
    pub fn validate_cached<'a, D: Schema + ?Sized, const S: usize, const F: usize>(
        &self,
        dict: &D,
        msg: &Message<'a>,
        cache: &mut ShapeCache<S, F>,
    ) -> Result<(), Invalid> {
        // BeginString and the values read by length are no part of a shape.
        envelope(dict, msg)?;
        if cache.validator != Some(*self) {
            *cache = ShapeCache::new();
            cache.validator = Some(*self);
        }
        if let Some((shape, any_empty)) = cache.find(msg)
            && !(any_empty && self.fields_have_values)
            && shape.values_ok(self, dict, msg)
        {
            return Ok(());
        }
        let mut shape = Shape::<F>::new(msg);
        let counters = shape.as_mut().map(|shape| &mut shape.counters[..]);
        let result = self.walk(dict, msg, counters);
        if result.is_ok()
            && let Some(mut shape) = shape
        {
            shape.checks(dict, msg);
            cache.insert(shape);
        }
        Ok(result?)
    }

    /// The full walk; `counters`, when given, receives each group counter's
    /// number of entries by field.
    fn walk<'a, D: Schema + ?Sized>(
        &self,
        dict: &D,
        msg: &Message<'a>,
        counters: Option<&mut [u32]>,
    ) -> Result<(), Reject> {
        let mut walk = Walk {
            validator: self,
            dict,
            msg,
            fields: msg.fields(),
            pos: 0,
            found: Found::default(),
            header_seen: Seen::new(),
            counters,
        };
        walk.run()
    }
}

/// The checks before the walk, on what is no part of a message's shape: its
/// BeginString, and the values the parser read by their LENGTH field, which may
/// hold SOH and must then be DATA (reason 17, the first in wire order).
#[inline(always)]
fn envelope<'a, D: Schema + ?Sized>(dict: &D, msg: &Message<'a>) -> Result<(), Invalid> {
    let begin_string = msg.frame().begin_string();
    if dict.begin_string().is_some_and(|b| b != begin_string) {
        return Err(Invalid::IncorrectBeginString {
            begin_string: Echo::new(begin_string),
            msg_type: Echo::new(msg.msg_type()),
        });
    }
    if msg.has_values_by_length() {
        embedded_soh(dict, msg)?;
    }
    Ok(())
}

/// Reason 17 for the first field holding SOH that the dictionary defines as
/// something other than DATA. (A tag it does not define is left to the walk's
/// definition checks.)
#[cold]
#[inline(never)]
fn embedded_soh<'a, D: Schema + ?Sized>(dict: &D, msg: &Message<'a>) -> Result<(), Reject> {
    let bytes = msg.bytes();
    let holds_soh = |f: &Field| {
        bytes
            .get(f.value_range())
            .is_some_and(|v| v.contains(&crate::SOH))
    };
    match msg.fields().iter().find(|f| {
        holds_soh(f)
            && dict
                .field_format(f.tag())
                .is_some_and(|format| format != ValueFormat::Data)
    }) {
        Some(f) => Err(Reject {
            reason: Reason::NonDataValueIncludesFieldDelimiter,
            ref_tag: Some(i64::from(f.tag())),
            ref_msg_type: Echo::new(msg.msg_type()),
        }),
        None => Ok(()),
    }
}

/// The shapes of messages that passed validation, for
/// [`Validator::validate_cached`]: up to `S` shapes of up to `F` fields each,
/// replaced oldest first. Fixed capacity, no allocation; one per session (or per
/// thread), as it belongs to one validator's settings and one dictionary.
///
/// ```
/// let cache = fix_core::validate::ShapeCache::<8, 64>::new();
/// assert_eq!(cache.len(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct ShapeCache<const S: usize, const F: usize> {
    shapes: [Option<Shape<F>>; S],
    next: usize,
    validator: Option<Validator>,
}

impl<const S: usize, const F: usize> Default for ShapeCache<S, F> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const S: usize, const F: usize> ShapeCache<S, F> {
    /// An empty cache.
    pub const fn new() -> Self {
        ShapeCache {
            shapes: [const { None }; S],
            next: 0,
            validator: None,
        }
    }

    /// How many shapes it holds.
    pub fn len(&self) -> usize {
        self.shapes.iter().flatten().count()
    }

    /// Whether it holds none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The remembered shape `msg` has, if any, and whether any of its values is
    /// empty. (Use one cache per dictionary.)
    fn find(&self, msg: &Message<'_>) -> Option<(&Shape<F>, bool)> {
        let fields = msg.fields();
        self.shapes.iter().flatten().find_map(|shape| {
            if shape.len != fields.len() || shape.msg_type() != msg.msg_type() {
                return None;
            }
            // One pass without early exits over the tags: a message of a cached
            // shape matches all of them anyway, and the loop stays branch-free.
            let (diff, empty) = shape
                .tags
                .iter()
                .zip(fields)
                .fold((0, false), |(diff, empty), (&tag, f)| {
                    (diff | (tag ^ f.tag()), empty | f.is_empty())
                });
            (diff == 0).then_some((shape, empty))
        })
    }

    fn insert(&mut self, shape: Shape<F>) {
        if let Some(slot) = self.shapes.get_mut(self.next) {
            *slot = Some(shape);
        }
        self.next = (self.next + 1) % S.max(1);
    }
}

/// One remembered shape: MsgType, tags, and per field what its value is checked
/// against.
#[derive(Clone, Debug)]
struct Shape<const F: usize> {
    msg_type: [u8; 8],
    msg_type_len: u8,
    len: usize,
    tags: [u32; F],
    /// For a group counter, the number of entries that followed it; else
    /// `NOT_COUNTER`.
    counters: [u32; F],
    /// Single-byte value sets of enumerated fields, for [`Check::set`].
    sets: [[u64; 4]; SETS],
    sets_used: usize,
    /// The fields with something to check beyond emptiness (a format, a value
    /// set, a group count), ascending: the others cost nothing when a message of
    /// this shape comes again.
    todo: [Check; F],
    todo_len: usize,
    /// The fields whose one check is a single-byte value set (most enumerated
    /// fields): `(position, set)`, checked in a loop of their own.
    by_set: [(u16, u8); F],
    by_set_len: usize,
    /// The fields whose one check is the decimal format (prices, quantities):
    /// their positions, checked in a loop of their own.
    decimals: [u16; F],
    decimals_len: usize,
    /// The fields whose one check is another format (timestamps, integers,
    /// codes): `(position, format)`, checked in a loop of their own.
    formats: [(u16, ValueFormat); F],
    formats_len: usize,
}

const NOT_COUNTER: u32 = u32::MAX;

/// Single-byte value sets a shape keeps; enumerated fields past them ask the
/// dictionary.
const SETS: usize = 16;

/// What a field's value is checked against, precomputed for a shape.
#[derive(Clone, Copy, Debug)]
struct Check {
    /// The field's position.
    index: u16,
    /// The format to check, when it is one that needs checking (free text
    /// only has to be non-empty, and a value set of valid values settles it).
    format: Option<ValueFormat>,
    /// One plus the index of the field's single-byte value set in `sets`.
    set: u8,
    /// Enumerated without a set here: ask the dictionary.
    ask: bool,
    /// For a group counter, the number of entries that followed it; else
    /// `NOT_COUNTER`.
    counter: u32,
}

impl Check {
    const NONE: Check = Check {
        index: 0,
        format: None,
        set: 0,
        ask: false,
        counter: NOT_COUNTER,
    };
}

impl<const F: usize> Shape<F> {
    /// A shape for `msg`, when it fits (at most `F` fields, MsgType of at most 8
    /// bytes); counters and checks are filled in by the walk and [`Self::checks`].
    fn new(msg: &Message<'_>) -> Option<Self> {
        let fields = msg.fields();
        let msg_type = msg.msg_type();
        if fields.len() > F || msg_type.len() > 8 {
            return None;
        }
        let mut shape = Shape {
            msg_type: [0; 8],
            msg_type_len: msg_type.len() as u8,
            len: fields.len(),
            tags: [0; F],
            counters: [NOT_COUNTER; F],
            sets: [[0; 4]; SETS],
            sets_used: 0,
            todo: [Check::NONE; F],
            todo_len: 0,
            by_set: [(0, 0); F],
            by_set_len: 0,
            decimals: [0; F],
            decimals_len: 0,
            formats: [(0, ValueFormat::String); F],
            formats_len: 0,
        };
        shape.msg_type[..msg_type.len()].copy_from_slice(msg_type);
        for (tag, f) in shape.tags.iter_mut().zip(fields) {
            *tag = f.tag();
        }
        Some(shape)
    }

    fn msg_type(&self) -> &[u8] {
        &self.msg_type[..usize::from(self.msg_type_len)]
    }

    fn checks<D: Schema + ?Sized>(&mut self, dict: &D, msg: &Message<'_>) {
        for (i, f) in msg.fields().iter().enumerate().take(F) {
            let Ok(index) = u16::try_from(i) else { break };
            let mut check = Check {
                index,
                counter: self.counters.get(i).copied().unwrap_or(NOT_COUNTER),
                ..Check::NONE
            };
            // BeginString, BodyLength and CheckSum are framing's (which checked
            // them), and MsgType is part of the shape: they cannot differ in a
            // way that matters here. An undefined tag let through only has to
            // be non-empty.
            if let Some(info) = dict.field_info(f.tag()).filter(|_| i >= 3 && f.tag() != 10) {
                if !matches!(
                    info.format,
                    ValueFormat::String | ValueFormat::Data | ValueFormat::Unchecked
                ) {
                    check.format = Some(info.format);
                }
                if info.enumerated {
                    match dict.byte_set(f.tag()) {
                        Some(set) if self.sets_used < SETS => {
                            // A set of values that all have the format settles
                            // the format too.
                            if check.format.is_some_and(|format| {
                                (0..=255u8)
                                    .all(|b| !byte_set_contains(&set, &[b]) || format.accepts(&[b]))
                            }) {
                                check.format = None;
                            }
                            self.sets[self.sets_used] = set;
                            self.sets_used += 1;
                            check.set = self.sets_used as u8;
                        }
                        _ => check.ask = true,
                    }
                }
            }
            let set_only = check.set != 0 && check.format.is_none() && check.counter == NOT_COUNTER;
            let needed = check.format.is_some() || check.set != 0 || check.ask;
            let format_only = match check.format {
                Some(format) if check.set == 0 && !check.ask && check.counter == NOT_COUNTER => {
                    Some(format)
                }
                _ => None,
            };
            let decimal_only = format_only == Some(ValueFormat::Decimal);
            if set_only && let Some(slot) = self.by_set.get_mut(self.by_set_len) {
                *slot = (index, check.set);
                self.by_set_len += 1;
            } else if decimal_only && let Some(slot) = self.decimals.get_mut(self.decimals_len) {
                *slot = index;
                self.decimals_len += 1;
            } else if let Some(format) = format_only
                && let Some(slot) = self.formats.get_mut(self.formats_len)
            {
                *slot = (index, format);
                self.formats_len += 1;
            } else if (needed || check.counter != NOT_COUNTER)
                && let Some(slot) = self.todo.get_mut(self.todo_len)
            {
                *slot = check;
                self.todo_len += 1;
            }
        }
    }

    /// The value checks the walk made of a message of this shape (found by
    /// [`ShapeCache::find`], which checks for empty values), in one pass: true
    /// when every value would pass them again (then so does the message).
    fn values_ok<D: Schema + ?Sized>(
        &self,
        validator: &Validator,
        dict: &D,
        msg: &Message<'_>,
    ) -> bool {
        let bytes = msg.frame().bytes();
        let fields = msg.fields();
        // Empty values were ruled out by `find` when values are required; the
        // fields without anything else to check are done then.
        // A shape holds at most `F` fields, and `find` matched all of them.
        let empty_ok = !validator.fields_have_values;
        for &(index, set) in self.by_set.get(..self.by_set_len).unwrap_or(&[]) {
            let value = fields
                .get(usize::from(index))
                .and_then(|f| bytes.get(f.value_range()))
                .unwrap_or_default();
            let Some(set) = usize::from(set)
                .checked_sub(1)
                .and_then(|i| self.sets.get(i))
            else {
                return false;
            };
            if !(byte_set_contains(set, value) || empty_ok && value.is_empty()) {
                return false;
            }
        }
        for &index in self.decimals.get(..self.decimals_len).unwrap_or(&[]) {
            let Some(f) = fields.get(usize::from(index)) else {
                return false;
            };
            // Checked once the value fails: with values required, `find` has
            // already refused empty ones.
            if !(ValueFormat::accepts_decimal_in(bytes, f.value_range())
                || empty_ok && f.is_empty())
            {
                return false;
            }
        }
        for &(index, format) in self.formats.get(..self.formats_len).unwrap_or(&[]) {
            let value = fields
                .get(usize::from(index))
                .and_then(|f| bytes.get(f.value_range()))
                .unwrap_or_default();
            if !(format.accepts(value) || empty_ok && value.is_empty()) {
                return false;
            }
        }
        for check in self.todo.get(..self.todo_len).unwrap_or(&[]) {
            let Some(f) = fields.get(usize::from(check.index)) else {
                return false;
            };
            let Some(value) = bytes.get(f.value_range()) else {
                return false;
            };
            let good = match value {
                [] => !validator.fields_have_values,
                _ => {
                    check.format.is_none_or(|format| format.accepts(value))
                        && match check.set {
                            0 => !check.ask || dict.value_allowed(f.tag(), value),
                            n => byte_set_contains(&self.sets[usize::from(n - 1) % SETS], value),
                        }
                }
            };
            if !good
                || (check.counter != NOT_COUNTER
                    && !parse_uint(value).is_ok_and(|n| n == u64::from(check.counter)))
            {
                return false;
            }
        }
        true
    }
}

/// The sections of a message, in the order QuickFIX reports their problems.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Header = 0,
    Trailer = 1,
    Body = 2,
}

/// The first problem of each kind, kept by precedence while the walk goes on.
#[derive(Default)]
struct Found {
    /// (position, reason, tag): a field out of its section or group order.
    structure: Option<(usize, Reason, u32)>,
    /// Per section, (group depth, tag): the first required tag missing.
    required: [Option<(usize, u32)>; 3],
    /// Per section, (position, reason, tag): the first bad field.
    field: [Option<(usize, Reason, u32)>; 3],
}

struct Walk<'v, 'a, 'd, D: ?Sized> {
    validator: &'v Validator,
    dict: &'d D,
    msg: &'v Message<'a>,
    fields: &'a [Field],
    pos: usize,
    found: Found,
    /// The header's members seen, also in the body when order is not checked.
    header_seen: Seen,
    /// When recording a shape: each group counter's number of entries, by field.
    counters: Option<&'v mut [u32]>,
}

/// What walking one level found: the members seen, and its fields.
struct Level {
    seen: Seen,
    range: core::ops::Range<usize>,
}

/// Which members of one level have been seen, by member index. Members past
/// `SEEN_BITS` (only in the largest messages of the largest dictionaries) are
/// checked by scanning the level's fields instead.
#[derive(Clone, Copy)]
struct Seen {
    bits: [u64; SEEN_BITS / 64],
}

const SEEN_BITS: usize = 256;

impl Seen {
    const fn new() -> Self {
        Seen {
            bits: [0; SEEN_BITS / 64],
        }
    }

    /// Marks `index`; returns whether it was already marked, or `None` when the
    /// index is past the set.
    fn insert(&mut self, index: usize) -> Option<bool> {
        let word = self.bits.get_mut(index / 64)?;
        let bit = 1 << (index % 64);
        let was = *word & bit != 0;
        *word |= bit;
        Some(was)
    }

    fn contains(&self, index: usize) -> Option<bool> {
        let word = self.bits.get(index / 64)?;
        Some(word & (1 << (index % 64)) != 0)
    }
}

impl<'a, D: Schema + ?Sized> Walk<'_, 'a, '_, D> {
    fn run(&mut self) -> Result<(), Reject> {
        let msg_type = self.msg.msg_type();
        let dict = self.dict;
        let header = self.level::<false>(dict.header_layout(), Section::Header, None, 0);
        self.header_seen = header.seen;
        let body = dict.body_layout(msg_type);
        if let Some(body) = body {
            let level = self.level::<false>(body, Section::Body, None, 0);
            // The header's required tags, found in the header or (when order is not
            // checked) anywhere in the body.
            let header_seen = core::mem::replace(&mut self.header_seen, Seen::new());
            self.required(
                dict.header_layout(),
                &header_seen,
                header.range,
                Section::Header,
                0,
            );
            self.required(body, &level.seen, level.range, Section::Body, 0);
        } else {
            self.skip_to_trailer();
        }
        let trailer = self.level::<false>(dict.trailer_layout(), Section::Trailer, None, 0);
        self.required(
            dict.trailer_layout(),
            &trailer.seen,
            trailer.range,
            Section::Trailer,
            0,
        );
        // Whatever is left is out of order: a trailer before the body's end.
        if self.pos < self.fields.len() && self.validator.fields_out_of_order {
            let tag = self.fields[self.pos].tag();
            self.structure(Reason::TagSpecifiedOutOfRequiredOrder, tag);
        }

        let reject = |reason, tag: Option<u32>| Reject {
            reason,
            ref_tag: tag.map(i64::from),
            ref_msg_type: Echo::new(msg_type),
        };
        if let Some((_, reason, tag)) = self.found.structure {
            return Err(reject(reason, Some(tag)));
        }
        if body.is_none() {
            return Err(reject(Reason::InvalidMsgType, None));
        }
        if let Some((_, tag)) = self.found.required.iter().flatten().next() {
            return Err(reject(Reason::RequiredTagMissing, Some(*tag)));
        }
        if let Some((_, reason, tag)) = self.found.field.iter().flatten().next() {
            return Err(reject(*reason, Some(*tag)));
        }
        Ok(())
    }

    /// With no body layout, the body is every field before the trailer's.
    fn skip_to_trailer(&mut self) {
        let trailer = self.dict.trailer_layout();
        while self
            .fields
            .get(self.pos)
            .is_some_and(|f| trailer.member(f.tag()).is_none())
        {
            self.pos += 1;
        }
    }

    /// Walks one level: a section, or one entry of a group (`ENTRY`, with
    /// `delimiter` given), consuming its fields; then checks its required members.
    fn level<const ENTRY: bool>(
        &mut self,
        layout: &D::Layout,
        section: Section,
        delimiter: Option<u32>,
        depth: usize,
    ) -> Level {
        let mut seen = Seen::new();
        let start = self.pos;
        let fields = self.fields;
        let bytes = self.msg.frame().bytes();
        // The position lives in a register through the common case; `self.pos` is
        // synchronised around the calls that move it (foreign fields, groups).
        let mut pos = start;
        // In a group entry, each member must come after the one before it in the
        // dictionary's order, when order is checked: `last` is that one's index.
        // (`ENTRY` keeps the check out of the sections' walk, where it would cost
        // registers in the loop for nothing.)
        let ordered = ENTRY && self.validator.fields_out_of_order;
        let mut last = 0;
        while let Some(&field) = fields.get(pos) {
            let tag = field.tag();
            let value = bytes.get(field.value_range()).unwrap_or_default();
            let Some(member) = layout.member(tag) else {
                self.pos = pos;
                if delimiter.is_some() || !self.foreign(tag, value, section) {
                    break;
                }
                pos = self.pos;
                continue;
            };
            if delimiter == Some(tag) && pos != start {
                break; // the next entry of the group
            }
            if ordered && member.index < last {
                self.pos = pos;
                self.structure(Reason::RepeatingGroupFieldsOutOfOrder, tag);
            }
            last = member.index;
            if seen.insert(member.index) != Some(false) {
                self.repeated(section, start, pos, tag, member.index);
            }
            self.check_value(section, pos, tag, value, member.info, member.values);
            pos += 1;
            if let Some(group) = member.group {
                self.pos = pos;
                self.group(section, pos - 1, tag, value, group, depth + 1);
                pos = self.pos;
            }
        }
        self.pos = pos;
        let range = start..self.pos;
        if delimiter.is_some() {
            self.required(layout, &seen, range.clone(), section, depth);
        }
        Level { seen, range }
    }

    /// A field that is not a member of the level being walked, in `section`.
    /// Returns whether it was consumed (false: the level ends here).
    fn foreign(&mut self, tag: u32, value: &[u8], section: Section) -> bool {
        let dict = self.dict;
        let at = self.pos;
        match section {
            // The header ends at the first field that is not its own.
            Section::Header => false,
            Section::Body => {
                if dict.trailer_layout().member(tag).is_some() {
                    return false;
                }
                if let Some(member) = dict.header_layout().member(tag) {
                    if self.validator.fields_out_of_order {
                        self.structure(Reason::TagSpecifiedOutOfRequiredOrder, tag);
                    } else {
                        self.header_seen.insert(member.index);
                        self.check_value(section, at, tag, value, member.info, member.values);
                    }
                    self.pos += 1;
                    return true;
                }
                self.check_value(section, at, tag, value, None, None);
                if self.checks_tag(tag) && dict.field_format(tag).is_some() {
                    self.field_problem(section, at, Reason::TagNotDefinedForMessageType, tag);
                }
                self.pos += 1;
                true
            }
            // Anything in the trailer that is not a trailer field is out of order;
            // `run` reports what is left.
            Section::Trailer => false,
        }
    }

    /// The entries of a group whose counter `counter_tag` (at `at`) says `value`.
    fn group(
        &mut self,
        section: Section,
        at: usize,
        counter_tag: u32,
        value: &[u8],
        group: Group<'_, D::Layout>,
        depth: usize,
    ) {
        let declared = parse_uint(value).ok();
        let mut entries = 0u64;
        while let Some(field) = self.fields.get(self.pos) {
            let tag = field.tag();
            if tag != group.delimiter {
                if entries > 0 || group.entry.member(tag).is_none() {
                    break;
                }
                // A member before the delimiter: the entry's order is wrong.
                self.structure(Reason::RepeatingGroupFieldsOutOfOrder, tag);
            }
            entries += 1;
            self.level::<true>(group.entry, section, Some(group.delimiter), depth);
        }
        if declared.is_some_and(|n| n != entries) {
            self.field_problem(section, at, Reason::IncorrectNumInGroupCount, counter_tag);
        }
        if let Some(slot) = self.counters.as_mut().and_then(|c| c.get_mut(at)) {
            *slot = u32::try_from(entries).unwrap_or(NOT_COUNTER - 1);
        }
    }

    /// The checks on one field's value: empty, format, enumeration, definition.
    /// `info` and `values` are what the layout knows of `tag`, if anything. The common
    /// case (a good value) stays inline; any problem goes to [`Self::bad_value`].
    #[inline(always)]
    fn check_value(
        &mut self,
        section: Section,
        at: usize,
        tag: u32,
        value: &[u8],
        info: Option<FieldInfo>,
        values: Option<&[u64; 4]>,
    ) {
        let listed = || match values {
            Some(set) => byte_set_contains(set, value),
            None => self.dict.value_allowed(tag, value),
        };
        let good = match info.or_else(|| self.dict.field_info(tag)) {
            Some(info) => {
                !value.is_empty() && info.format.accepts(value) && (!info.enumerated || listed())
            }
            None => !value.is_empty() && !self.checks_tag(tag),
        };
        if !good {
            self.bad_value(section, at, tag, value);
        }
    }

    /// Records what is wrong with a value [`Self::check_value`] did not accept.
    #[cold]
    #[inline(never)]
    fn bad_value(&mut self, section: Section, at: usize, tag: u32, value: &[u8]) {
        if value.is_empty() {
            if self.validator.fields_have_values {
                self.field_problem(section, at, Reason::TagSpecifiedWithoutValue, tag);
            }
            return;
        }
        match self.dict.field_info(tag) {
            Some(info) => {
                if !info.format.accepts(value) {
                    self.field_problem(section, at, Reason::IncorrectDataFormat, tag);
                } else if !self.dict.value_allowed(tag, value) {
                    self.field_problem(section, at, Reason::ValueIncorrect, tag);
                }
            }
            None if self.checks_tag(tag) => {
                self.field_problem(section, at, Reason::InvalidTagNumber, tag);
            }
            None => {}
        }
    }

    /// A member seen a second time at one level (or, past the [`Seen`] set's
    /// reach, possibly: the level's fields so far say).
    #[cold]
    #[inline(never)]
    fn repeated(&mut self, section: Section, start: usize, at: usize, tag: u32, index: usize) {
        let repeated = index < SEEN_BITS
            || self
                .fields
                .get(start..at)
                .is_some_and(|level| level.iter().any(|f| f.tag() == tag));
        if repeated {
            self.field_problem(section, at, Reason::TagAppearsMoreThanOnce, tag);
        }
    }

    /// Whether `tag` is subject to the definition checks (reasons 0 and 2).
    fn checks_tag(&self, tag: u32) -> bool {
        if tag >= USER_DEFINED_MIN {
            self.validator.user_defined_fields
        } else {
            !self.validator.allow_unknown_msg_fields
        }
    }

    /// Records the first required member of `layout` that `seen` lacks.
    fn required(
        &mut self,
        layout: &D::Layout,
        seen: &Seen,
        range: core::ops::Range<usize>,
        section: Section,
        depth: usize,
    ) {
        let slot = &mut self.found.required[section as usize];
        if slot.is_some_and(|(d, _)| d <= depth) {
            return;
        }
        if let Some(required) = layout.required_bits()
            && required.iter().zip(&seen.bits).all(|(r, s)| r & !s == 0)
        {
            return;
        }
        let level = &self.fields[range];
        let mut missing = None;
        layout.for_each_required(&mut |tag, index| {
            let present = seen
                .contains(index)
                .unwrap_or_else(|| level.iter().any(|f| f.tag() == tag));
            if !present {
                missing = Some(tag);
            }
            present
        });
        if let Some(tag) = missing {
            *slot = Some((depth, tag));
        }
    }

    fn structure(&mut self, reason: Reason, tag: u32) {
        if self.found.structure.is_none() {
            self.found.structure = Some((self.pos, reason, tag));
        }
    }

    fn field_problem(&mut self, section: Section, at: usize, reason: Reason, tag: u32) {
        let slot = &mut self.found.field[section as usize];
        if slot.is_none_or(|(pos, _, _)| at < pos) {
            *slot = Some((at, reason, tag));
        }
    }
}
