//! Writing messages as text or JSON, with names, enum meanings and groups from the
//! dictionary.
//!
//! The hot path allocates nothing: every defined tag's line prefix (text, colour
//! codes included) and JSON prefix are built once, and a message is a run of
//! `extend_from_slice` calls into one reused output buffer.

use fix_core::validate::{Invalid, Schema};
use fix_dict::{Dictionary, FieldType, GroupLayout, Layout, Message};

use std::ops::Range;

use crate::scan::{Decoded, Problem};

/// The width of the name column in text output.
const NAME_WIDTH: usize = 24;
/// Spaces for indentation; deeper nesting is capped.
const SPACES: &[u8; 64] = b"                                                                ";

/// ANSI colour codes, or empty strings when colour is off.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    header: &'static str,
    tag: &'static str,
    name: &'static str,
    meaning: &'static str,
    problem: &'static str,
    reset: &'static str,
}

impl Style {
    /// Colour on or off.
    pub fn new(color: bool) -> Style {
        if color {
            Style {
                header: "\x1b[1;33m",
                tag: "\x1b[2m",
                name: "\x1b[36m",
                meaning: "\x1b[32m",
                problem: "\x1b[1;31m",
                reset: "\x1b[0m",
            }
        } else {
            Style {
                header: "",
                tag: "",
                name: "",
                meaning: "",
                problem: "",
                reset: "",
            }
        }
    }
}

/// A line prefix: copied as a fixed 64-byte block (a few vector moves, no
/// `memcpy` call), then cut to its length; longer ones are copied as they are.
#[derive(Debug)]
struct Prefix {
    fixed: [u8; 64],
    len: usize,
    long: Box<[u8]>,
}

impl Prefix {
    fn new(bytes: &[u8]) -> Prefix {
        let mut fixed = [0; 64];
        if bytes.len() <= 64 {
            fixed[..bytes.len()].copy_from_slice(bytes);
        }
        Prefix {
            fixed,
            len: bytes.len(),
            long: bytes.into(),
        }
    }

    #[inline(always)]
    fn put(&self, out: &mut Vec<u8>) {
        if self.len <= 64 {
            let at = out.len();
            out.extend_from_slice(&self.fixed);
            out.truncate(at + self.len);
        } else {
            out.extend_from_slice(&self.long);
        }
    }
}

/// One enumerated value's meaning, ready to write.
#[derive(Debug)]
struct EnumValue {
    description: Box<str>,
    /// ` (BUY)`, coloured.
    text: Prefix,
    /// `,"enum":"BUY"`.
    json: Box<[u8]>,
}

/// What is precomputed for one defined field, kept by its position in the
/// dictionary's fields (the dictionary's own tag index finds it).
#[derive(Debug)]
struct TagInfo<'d> {
    /// The field's position in the dictionary.
    position: usize,
    /// `   54 Side                     `, coloured.
    text: Prefix,
    /// `{"tag":54,"name":"Side","value":"`.
    json: Prefix,
    /// Each listed value's meaning, in the dictionary's order of the values.
    enums: Box<[EnumValue]>,
    /// The dictionary's positions of one-byte listed values
    /// ([`Dictionary::byte_positions`]), when all of them are one byte.
    byte_positions: Option<&'d [u8; 256]>,
    /// A multiple-value type: the value is a space-separated list.
    multiple: bool,
    /// NUMINGROUP (or an INT counter of an old dictionary): may open a group.
    counter: bool,
}

/// The dictionary, with what the writers add to each field for display.
#[derive(Debug)]
pub struct Tables<'d> {
    dict: &'d Dictionary,
    /// By the field's position in the dictionary.
    tags: Vec<TagInfo<'d>>,
    /// The dictionary's positions by tag ([`Dictionary::positions_by_tag`]),
    /// borrowed here so that a lookup is one load.
    positions: &'d [u32],
    style: Style,
}

impl<'d> Tables<'d> {
    /// Builds the tables for `dict` in `style`.
    pub fn new(dict: &'d Dictionary, style: Style) -> Tables<'d> {
        // Group counters by field position: NUMINGROUP fields, and the INT
        // counters of old dictionaries that a layout uses as one.
        let mut counters = vec![false; dict.fields().len()];
        mark_counters(dict, dict.header().layout(), &mut counters);
        mark_counters(dict, dict.trailer().layout(), &mut counters);
        for m in dict.messages() {
            mark_counters(dict, m.layout(), &mut counters);
        }
        let s = style;
        let tags = dict
            .fields()
            .iter()
            .zip(counters)
            .enumerate()
            .map(|(position, (f, counter))| {
                let text = format!(
                    "{}{:>5}{} {}{:<NAME_WIDTH$}{} ",
                    s.tag, f.tag, s.reset, s.name, f.name, s.reset
                );
                let mut json = format!("{{\"tag\":{},\"name\":", f.tag).into_bytes();
                json_str(&mut json, f.name.as_bytes());
                json.extend_from_slice(b",\"value\":\"");
                let enums = f
                    .values
                    .iter()
                    .map(|v| {
                        let mut j = b",\"enum\":".to_vec();
                        json_str(&mut j, v.description.as_bytes());
                        EnumValue {
                            description: v.description.as_str().into(),
                            text: Prefix::new(
                                format!(" {}({}){}", s.meaning, v.description, s.reset).as_bytes(),
                            ),
                            json: j.into(),
                        }
                    })
                    .collect();
                TagInfo {
                    byte_positions: dict.byte_positions(position),
                    position,
                    text: Prefix::new(text.as_bytes()),
                    json: Prefix::new(&json),
                    enums,
                    multiple: f.ty.is_multiple(),
                    counter: counter || f.ty == FieldType::NumInGroup,
                }
            })
            .collect();
        Tables {
            dict,
            tags,
            positions: dict.positions_by_tag(),
            style,
        }
    }

    /// The dictionary (what messages are validated against).
    pub fn dictionary(&self) -> &'d Dictionary {
        self.dict
    }

    /// The message with this MsgType, if the dictionary defines it.
    #[inline]
    fn message(&self, msg_type: &[u8]) -> Option<&'d Message> {
        self.dict.message(msg_type)
    }

    #[inline]
    fn info(&self, tag: u32) -> Option<&TagInfo<'d>> {
        match self.positions.get(tag as usize) {
            Some(&position) => self.tags.get(position as usize),
            None => self.info_past_table(tag),
        }
    }

    /// [`info`](Self::info) of a tag past the dictionary's dense table (65536 and
    /// up, which some venues use).
    #[inline]
    fn info_past_table(&self, tag: u32) -> Option<&TagInfo<'d>> {
        self.tags.get(self.dict.field_position(tag)?)
    }

    /// The field's name, if the dictionary defines it.
    pub fn name(&self, tag: u32) -> Option<&'d str> {
        self.dict.field(tag).map(|f| f.name.as_str())
    }

    /// The meaning of one listed `value` of the field `info` describes.
    #[inline(always)]
    fn find_enum<'i>(&self, info: &'i TagInfo<'_>, value: &[u8]) -> Option<&'i EnumValue> {
        if let ([b], Some(positions)) = (value, info.byte_positions) {
            return info
                .enums
                .get(usize::from(positions[usize::from(*b)]).checked_sub(1)?);
        }
        info.enums
            .get(self.dict.value_position(info.position, value)?)
    }

    /// The message name for a MsgType, if the dictionary defines it.
    pub fn message_name(&self, msg_type: &[u8]) -> Option<&'d str> {
        self.message(msg_type).map(|m| m.name.as_str())
    }

    /// The group that counter `tag` opens at a top level of message `body`.
    fn top_group(&self, body: Option<&'d Layout>, tag: u32) -> Option<&'d GroupLayout> {
        body.and_then(|b| b.group(tag))
            .or_else(|| self.dict.header().layout().group(tag))
            .or_else(|| self.dict.trailer().layout().group(tag))
    }
}

/// Marks every group counter of `layout` and its nested groups, by field position.
fn mark_counters(dict: &Dictionary, layout: &Layout, counters: &mut [bool]) {
    for g in layout.groups() {
        if let Some(c) = dict
            .field_position(g.counter)
            .and_then(|p| counters.get_mut(p))
        {
            *c = true;
        }
        mark_counters(dict, &g.entry, counters);
    }
}

/// What the writers are told while a message is walked.
/// One field as the walk hands it to a writer.
struct FieldOut<'x> {
    /// Group depth (0 = top level).
    depth: usize,
    /// Whether it starts a group entry.
    delimiter: bool,
    tag: u32,
    info: Option<&'x TagInfo<'x>>,
    /// The message's bytes and where the value lies in them.
    bytes: &'x [u8],
    range: Range<usize>,
    /// Whether a problem points at it.
    marked: bool,
    /// Whether a group follows it.
    opens: bool,
}

/// What the writers are told while a message is walked.
trait Emit {
    /// A field.
    fn field(&mut self, out: &mut Vec<u8>, tables: &Tables<'_>, f: FieldOut<'_>);
    /// A new entry of the innermost group.
    fn entry(&mut self, out: &mut Vec<u8>, first: bool);
    /// The innermost group ends; `entries` says whether it had any.
    fn group_end(&mut self, out: &mut Vec<u8>, entries: bool);
}

/// Walks the fields of `m` in wire order, nesting groups by the dictionary's
/// layouts, and tells `emit`. `stack` is reused storage.
fn walk<'d>(
    tables: &Tables<'d>,
    m: &Decoded<'_>,
    body: Option<&'d Layout>,
    marked_tag: u32,
    stack: &mut Vec<(&'d GroupLayout, bool)>,
    emit: &mut impl Emit,
    out: &mut Vec<u8>,
) {
    stack.clear();
    for f in m.fields {
        let tag = f.tag();
        let mut delimiter = false;
        while let Some(&mut (g, ref mut entered)) = stack.last_mut() {
            if tag == g.delimiter {
                emit.entry(out, !*entered);
                *entered = true;
                delimiter = true;
                break;
            }
            if *entered && g.entry.contains(tag) {
                break;
            }
            let entered = *entered;
            stack.pop();
            emit.group_end(out, entered);
        }
        let info = tables.info(tag);
        let group = match info {
            Some(info) if info.counter => match stack.last() {
                Some((g, _)) => g.entry.group(tag),
                None => tables.top_group(body, tag),
            },
            _ => None,
        };
        let field = FieldOut {
            depth: stack.len(),
            delimiter,
            tag,
            info,
            bytes: m.bytes,
            range: f.value_range(),
            marked: tag == marked_tag,
            opens: group.is_some(),
        };
        emit.field(out, tables, field);
        if let Some(g) = group {
            stack.push((g, false));
        }
    }
    while let Some((_, entered)) = stack.pop() {
        emit.group_end(out, entered);
    }
}

/// The problems found on one message, ready to write.
#[derive(Clone, Copy, Debug, Default)]
pub struct Problems {
    /// The parser's complaint.
    pub problem: Option<Problem>,
    /// What a session would answer (from the parse error or validation): a
    /// Reject, or a Logout for a BeginString that is not the dictionary's.
    pub reject: Option<Invalid>,
}

impl Problems {
    /// Whether there is nothing to report.
    pub fn is_empty(&self) -> bool {
        self.problem.is_none() && self.reject.is_none()
    }

    /// The tag to mark in the message, or 0.
    fn marked_tag(&self) -> u32 {
        match self.reject {
            Some(Invalid::Reject(r)) => r.ref_tag.and_then(|t| u32::try_from(t).ok()),
            Some(Invalid::IncorrectBeginString { .. }) => Some(8),
            None => None,
        }
        .unwrap_or(0)
    }
}

fn problem_text(p: Problem) -> String {
    match p {
        Problem::Parse(e) => e.to_string(),
        Problem::Truncated => "truncated: the input ends inside this message".to_owned(),
    }
}

/// The writers' reused state.
#[derive(Debug, Default)]
pub struct Writer<'d> {
    stack: Vec<(&'d GroupLayout, bool)>,
    json_levels: Vec<bool>,
}

impl<'d> Writer<'d> {
    /// Writes `m` as text.
    pub fn text(
        &mut self,
        out: &mut Vec<u8>,
        tables: &Tables<'d>,
        n: u64,
        m: &Decoded<'_>,
        msg_type: &[u8],
        problems: &Problems,
    ) {
        let s = tables.style;
        out.extend_from_slice(s.header.as_bytes());
        out.push(b'#');
        push_u64(out, n);
        out.push(b' ');
        let message = tables.message(msg_type);
        if let Some(name) = message.map(|m| m.name.as_str()) {
            out.extend_from_slice(name.as_bytes());
            out.push(b' ');
        }
        out.extend_from_slice(b"(35=");
        push_text(out, msg_type);
        out.push(b')');
        if let (Some(sender), Some(target)) = (m.get(49), m.get(56)) {
            out.extend_from_slice(b"  ");
            push_text(out, sender);
            out.extend_from_slice(b" -> ");
            push_text(out, target);
        }
        if let Some(seq) = m.get(34) {
            out.extend_from_slice(b"  seq ");
            push_text(out, seq);
        }
        let prefix = trim_prefix(m.prefix);
        if !prefix.is_empty() {
            out.extend_from_slice(b"  ");
            push_text(out, prefix);
        }
        out.extend_from_slice(s.reset.as_bytes());
        out.push(b'\n');
        if let Some(p) = problems.problem {
            problem_line(out, s, &problem_text(p));
        }
        if let Some(invalid) = problems.reject {
            invalid_line(out, s, tables, invalid);
        }
        let body = message.map(|m| m.layout());
        let mut stack = std::mem::take(&mut self.stack);
        walk(
            tables,
            m,
            body,
            problems.marked_tag(),
            &mut stack,
            &mut TextEmit,
            out,
        );
        self.stack = stack;
        out.push(b'\n');
    }

    /// Writes `m` as one line of JSON.
    #[allow(clippy::too_many_arguments)]
    pub fn json(
        &mut self,
        out: &mut Vec<u8>,
        tables: &Tables<'d>,
        n: u64,
        m: &Decoded<'_>,
        msg_type: &[u8],
        problems: &Problems,
    ) {
        out.extend_from_slice(b"{\"n\":");
        push_u64(out, n);
        let prefix = trim_prefix(m.prefix);
        if !prefix.is_empty() {
            out.extend_from_slice(b",\"prefix\":");
            json_str(out, prefix);
        }
        out.extend_from_slice(b",\"msg_type\":");
        json_str(out, msg_type);
        let message = tables.message(msg_type);
        if let Some(name) = message.map(|m| m.name.as_str()) {
            out.extend_from_slice(b",\"msg_name\":");
            json_str(out, name.as_bytes());
        }
        if !problems.is_empty() {
            out.extend_from_slice(b",\"problems\":[");
            if let Some(p) = problems.problem {
                out.extend_from_slice(b"{\"kind\":");
                json_str(
                    out,
                    match p {
                        Problem::Parse(_) => b"parse",
                        Problem::Truncated => b"truncated",
                    },
                );
                out.extend_from_slice(b",\"text\":");
                json_str(out, problem_text(p).as_bytes());
                if let Problem::Parse(e) = p
                    && let Some(tag) = e.tag()
                {
                    out.extend_from_slice(b",\"tag\":");
                    push_u64(out, u64::from(tag));
                }
                out.push(b'}');
            }
            if let Some(invalid) = problems.reject {
                if problems.problem.is_some() {
                    out.push(b',');
                }
                json_invalid(out, tables, invalid);
            }
            out.push(b']');
        }
        out.extend_from_slice(b",\"fields\":[");
        let body = message.map(|m| m.layout());
        let mut stack = std::mem::take(&mut self.stack);
        let mut emit = JsonEmit {
            first: true,
            levels: std::mem::take(&mut self.json_levels),
        };
        emit.levels.clear();
        walk(tables, m, body, 0, &mut stack, &mut emit, out);
        self.stack = stack;
        self.json_levels = emit.levels;
        out.extend_from_slice(b"]}\n");
    }
}

/// The problem line of what a session would answer (rare: kept out of the
/// writers' common path).
#[cold]
#[inline(never)]
fn invalid_line(out: &mut Vec<u8>, s: Style, tables: &Tables<'_>, invalid: Invalid) {
    let line = match invalid {
        Invalid::Reject(r) => {
            let mut line = r.text().to_owned();
            if let Some(tag) = r.ref_tag {
                line.push_str(&format!(": {tag}"));
                if let Some(name) = u32::try_from(tag).ok().and_then(|t| tables.name(t)) {
                    line.push_str(&format!(" {name}"));
                }
            }
            line.push_str(&format!(" (SessionRejectReason {})", r.reason.code()));
            line
        }
        Invalid::IncorrectBeginString { begin_string, .. } => format!(
            "{}: {}, the dictionary's is {} (a session logs out)",
            invalid.text(),
            begin_string,
            String::from_utf8_lossy(tables.dictionary().begin_string().unwrap_or_default()),
        ),
    };
    problem_line(out, s, &line);
}

/// The JSON problem object of what a session would answer.
#[cold]
#[inline(never)]
fn json_invalid(out: &mut Vec<u8>, tables: &Tables<'_>, invalid: Invalid) {
    match invalid {
        Invalid::Reject(r) => {
            out.extend_from_slice(b"{\"kind\":\"reject\",\"reason\":");
            push_u64(out, u64::from(r.reason.code()));
            out.extend_from_slice(b",\"text\":");
            json_str(out, r.text().as_bytes());
            if let Some(tag) = r.ref_tag {
                out.extend_from_slice(b",\"tag\":");
                out.extend_from_slice(tag.to_string().as_bytes());
            }
        }
        Invalid::IncorrectBeginString { begin_string, .. } => {
            out.extend_from_slice(b"{\"kind\":\"begin_string\",\"text\":");
            json_str(out, invalid.text().as_bytes());
            out.extend_from_slice(b",\"tag\":8,\"value\":");
            // An Echo marks a value cut short with `…`: the JSON says so too.
            json_str(out, begin_string.to_string().as_bytes());
            out.extend_from_slice(b",\"expected\":");
            json_str(out, tables.dictionary().begin_string().unwrap_or_default());
        }
    }
    out.push(b'}');
}

fn problem_line(out: &mut Vec<u8>, s: Style, text: &str) {
    out.extend_from_slice(s.problem.as_bytes());
    out.extend_from_slice(b"  !! ");
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(s.reset.as_bytes());
    out.push(b'\n');
}

/// The text writer: one line per field, groups indented, entries bulleted.
struct TextEmit;

impl Emit for TextEmit {
    #[inline]
    fn field(&mut self, out: &mut Vec<u8>, tables: &Tables<'_>, f: FieldOut<'_>) {
        let FieldOut {
            depth,
            delimiter,
            tag,
            info,
            bytes,
            range,
            marked,
            ..
        } = f;
        let value = bytes.get(range.clone()).unwrap_or_default();
        if depth > 0 {
            let indent = (4 * depth).min(SPACES.len());
            if delimiter {
                out.extend_from_slice(&SPACES[..indent - 2]);
                out.extend_from_slice(b"- ");
            } else {
                out.extend_from_slice(&SPACES[..indent]);
            }
        }
        match info {
            Some(info) => info.text.put(out),
            None => unknown_text(out, tables, tag),
        }
        if !put_plain::<false>(out, bytes, range) {
            push_text(out, value);
        }
        if let Some(info) = info
            && !info.enums.is_empty()
        {
            enum_text(out, tables, info, value);
        }
        if marked {
            let s = tables.style;
            out.extend_from_slice(s.problem.as_bytes());
            out.extend_from_slice(b"  <-- !!");
            out.extend_from_slice(s.reset.as_bytes());
        }
        out.push(b'\n');
    }

    fn entry(&mut self, _: &mut Vec<u8>, _: bool) {}

    fn group_end(&mut self, _: &mut Vec<u8>, _: bool) {}
}

/// A tag the dense table does not hold: written from its parts.
#[cold]
fn unknown_text(out: &mut Vec<u8>, tables: &Tables<'_>, tag: u32) {
    let s = tables.style;
    let name = tables.dict.field(tag).map_or("", |f| f.name.as_str());
    let line = if tag == 0 {
        format!(
            "{}{:>5}{} {:<NAME_WIDTH$} ",
            s.tag, "?", s.reset, "(garbled)"
        )
    } else {
        format!(
            "{}{:>5}{} {}{:<NAME_WIDTH$}{} ",
            s.tag, tag, s.reset, s.name, name, s.reset
        )
    };
    out.extend_from_slice(line.as_bytes());
}

/// The meaning of an enumerated value (each item's, for a multiple-value field).
#[inline]
fn enum_text(out: &mut Vec<u8>, tables: &Tables<'_>, info: &TagInfo, value: &[u8]) {
    let s = tables.style;
    if let Some(e) = tables.find_enum(info, value) {
        e.text.put(out);
    } else if info.multiple && value.contains(&b' ') {
        out.extend_from_slice(b" ");
        out.extend_from_slice(s.meaning.as_bytes());
        out.push(b'(');
        for (i, item) in value.split(|&b| b == b' ').enumerate() {
            if i > 0 {
                out.extend_from_slice(b", ");
            }
            match tables.find_enum(info, item) {
                Some(e) => out.extend_from_slice(e.description.as_bytes()),
                None => out.push(b'?'),
            }
        }
        out.push(b')');
        out.extend_from_slice(s.reset.as_bytes());
    }
}

/// The JSON writer: a `fields` array of objects; a counter's object holds its
/// group as `"entries": [[fields…], …]`.
struct JsonEmit {
    /// Whether the current array has no element yet.
    first: bool,
    /// For each open group, whether it has an entry open.
    levels: Vec<bool>,
}

impl Emit for JsonEmit {
    #[inline]
    fn field(&mut self, out: &mut Vec<u8>, tables: &Tables<'_>, f: FieldOut<'_>) {
        let FieldOut {
            tag,
            info,
            bytes,
            range,
            opens,
            ..
        } = f;
        let value = bytes.get(range.clone()).unwrap_or_default();
        if !self.first {
            out.push(b',');
        }
        self.first = false;
        match info {
            Some(info) => info.json.put(out),
            None => {
                out.extend_from_slice(b"{\"tag\":");
                push_u64(out, u64::from(tag));
                if let Some(f) = tables.dict.field(tag) {
                    out.extend_from_slice(b",\"name\":");
                    json_str(out, f.name.as_bytes());
                }
                out.extend_from_slice(b",\"value\":\"");
            }
        }
        if !put_plain::<true>(out, bytes, range) {
            json_slow(out, value);
        }
        out.push(b'"');
        if let Some(info) = info
            && !info.enums.is_empty()
        {
            if let Some(e) = tables.find_enum(info, value) {
                out.extend_from_slice(&e.json);
            } else if info.multiple && value.contains(&b' ') {
                out.extend_from_slice(b",\"enum\":[");
                for (i, item) in value.split(|&b| b == b' ').enumerate() {
                    if i > 0 {
                        out.push(b',');
                    }
                    match tables.find_enum(info, item) {
                        Some(e) => json_str(out, e.description.as_bytes()),
                        None => out.extend_from_slice(b"null"),
                    }
                }
                out.push(b']');
            }
        }
        if opens {
            out.extend_from_slice(b",\"entries\":[");
            self.levels.push(false);
        } else {
            out.push(b'}');
        }
    }

    fn entry(&mut self, out: &mut Vec<u8>, first: bool) {
        out.extend_from_slice(if first { b"[" } else { b"],[" });
        if let Some(open) = self.levels.last_mut() {
            *open = true;
        }
        self.first = true;
    }

    fn group_end(&mut self, out: &mut Vec<u8>, entries: bool) {
        self.levels.pop();
        out.extend_from_slice(if entries { b"]]}" } else { b"]}" });
        self.first = false;
    }
}

/// The prefix without surrounding whitespace and the ` : ` before the message.
pub fn trim_prefix(prefix: &[u8]) -> &[u8] {
    let p = prefix.trim_ascii();
    let p = p.strip_suffix(b":").unwrap_or(p);
    p.trim_ascii_end()
}

/// Whether `value` can be written as it is for a terminal (no control bytes).
/// Branch-free, so the compiler vectorises it.
#[inline(always)]
fn is_plain(value: &[u8]) -> bool {
    !value
        .iter()
        .fold(false, |bad, &b| bad | (b < 0x20) | (b == 0x7f))
}

/// Whether `value` can be written as it is inside a JSON string.
#[inline(always)]
fn is_json_plain(value: &[u8]) -> bool {
    !value.iter().fold(false, |bad, &b| {
        bad | !(0x20..0x80).contains(&b) | (b == b'"') | (b == b'\\')
    })
}

/// The high bit of each byte of `x` that needs escaping (for JSON when `JSON`,
/// else for a terminal). A borrow can set bits above a byte that needs escaping
/// (a later byte), never below it, so the test of a prefix stays exact.
#[inline(always)]
fn swar_bad<const JSON: bool>(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = ONES * 0x80;
    let zero = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
    if JSON {
        control | (x & HIGH) | zero(x ^ (ONES * 0x22)) | zero(x ^ (ONES * 0x5c))
    } else {
        control | zero(x ^ (ONES * 0x7f))
    }
}

/// Copies the value at `range` of `bytes` if it needs no escaping (for JSON
/// when `JSON`, else for a terminal); returns whether it did. A short value is
/// checked and copied as one fixed 32-byte block (vector compares and moves, no
/// `memcpy` call) when the message has that many bytes left, then cut to length.
#[inline(always)]
fn put_plain<const JSON: bool>(out: &mut Vec<u8>, bytes: &[u8], range: Range<usize>) -> bool {
    const BLOCK: usize = 32;
    let len = range.len();
    if len <= BLOCK
        && let Some(block) = bytes.get(range.start..range.start + BLOCK)
        && let Ok(block) = <&[u8; BLOCK]>::try_from(block)
    {
        let mut bad = 0;
        for (k, word) in block.chunks_exact(8).enumerate() {
            let valid = len.saturating_sub(8 * k).min(8);
            if valid == 0 {
                break;
            }
            let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
            let mask = if valid == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * valid)) - 1
            };
            bad |= swar_bad::<JSON>(x) & mask;
        }
        if bad != 0 {
            return false;
        }
        let at = out.len();
        out.extend_from_slice(block);
        out.truncate(at + len);
        return true;
    }
    let value = bytes.get(range).unwrap_or_default();
    let plain = if JSON {
        is_json_plain(value)
    } else {
        is_plain(value)
    };
    if plain {
        out.extend_from_slice(value);
    }
    plain
}

/// Writes `value` for a terminal: control bytes in caret notation (`^A`), so a
/// value can neither break lines nor send escape sequences.
#[inline]
pub fn push_text(out: &mut Vec<u8>, value: &[u8]) {
    if is_plain(value) {
        out.extend_from_slice(value);
        return;
    }
    for &b in value {
        match b {
            0x7f => out.extend_from_slice(b"^?"),
            0..0x20 => out.extend_from_slice(&[b'^', b + 0x40]),
            _ => out.push(b),
        }
    }
}

/// Writes `value` as a JSON string, quotes included.
pub fn json_str(out: &mut Vec<u8>, value: &[u8]) {
    out.push(b'"');
    json_inner(out, value);
    out.push(b'"');
}

/// Writes `value` escaped for the inside of a JSON string. Bytes that are not
/// UTF-8 are taken as Latin-1 (`\u00XX`), so every value survives.
#[inline]
fn json_inner(out: &mut Vec<u8>, value: &[u8]) {
    if is_json_plain(value) {
        out.extend_from_slice(value);
        return;
    }
    json_slow(out, value);
}

#[cold]
fn json_slow(out: &mut Vec<u8>, value: &[u8]) {
    let mut rest = value;
    while !rest.is_empty() {
        let (valid, bad) = match std::str::from_utf8(rest) {
            Ok(s) => (s, None),
            Err(e) => {
                let (ok, tail) = rest.split_at(e.valid_up_to());
                (
                    std::str::from_utf8(ok).unwrap_or_default(),
                    tail.first().copied(),
                )
            }
        };
        for c in valid.chars() {
            match c {
                '"' => out.extend_from_slice(b"\\\""),
                '\\' => out.extend_from_slice(b"\\\\"),
                '\n' => out.extend_from_slice(b"\\n"),
                '\r' => out.extend_from_slice(b"\\r"),
                '\t' => out.extend_from_slice(b"\\t"),
                c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                    out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes());
                }
                c => {
                    let mut b = [0; 4];
                    out.extend_from_slice(c.encode_utf8(&mut b).as_bytes());
                }
            }
        }
        rest = &rest[valid.len()..];
        if let Some(b) = bad {
            out.extend_from_slice(format!("\\u{:04x}", b).as_bytes());
            rest = &rest[1..];
        }
    }
}

/// Writes `n` in decimal.
#[inline]
pub fn push_u64(out: &mut Vec<u8>, n: u64) {
    let mut buf = [0u8; 20];
    // Twenty bytes hold every u64.
    let len = fix_core::value::write_uint(n, &mut buf).unwrap_or(0);
    out.extend_from_slice(&buf[..len]);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tags past the dictionary's dense table (65536 and up) still get their name,
    /// enum meanings and group role.
    #[test]
    fn tags_past_the_dense_table_are_described() {
        let dict = Dictionary::from_xml(
            "v.xml",
            r#"<fix type="FIX" major="4" minor="4"><fields>
            <field number="54" name="Side" type="CHAR"/>
            <field number="70000" name="VenueFlag" type="CHAR">
              <value enum="Y" description="YES"/><value enum="N" description="NO"/>
            </field></fields></fix>"#,
        )
        .unwrap();
        let tables = Tables::new(&dict, Style::new(false));
        let info = tables.info(70000).expect("described");
        assert_eq!(
            tables.find_enum(info, b"N").map(|e| &*e.description),
            Some("NO")
        );
        assert!(tables.info(54).is_some() && tables.info(55).is_none());
        assert!(tables.info(70001).is_none());
    }

    #[test]
    fn json_escapes_and_latin1() {
        let mut out = Vec::new();
        json_str(&mut out, b"a\"b\\c\x01\xe9 \xc3\xa9");
        assert_eq!(
            String::from_utf8(out).unwrap(),
            r#""a\"b\\c\u0001\u00e9 é""#
        );
    }

    #[test]
    fn text_escapes_control_bytes() {
        let mut out = Vec::new();
        push_text(&mut out, b"x\x01y\x1b[31m");
        assert_eq!(out, b"x^Ay^[[31m");
    }

    #[test]
    fn swar_matches_bytewise_checks() {
        for b in 0..=255u8 {
            for pos in 0..8 {
                for len in 0..=8 {
                    let mut word = [b'a'; 8];
                    word[pos] = b;
                    let bytes: Vec<u8> = word.iter().chain([b'z'; 24].iter()).copied().collect();
                    let value = &bytes[..len];
                    let mut out = Vec::new();
                    assert_eq!(
                        put_plain::<false>(&mut out, &bytes, 0..len),
                        is_plain(value)
                    );
                    assert_eq!(
                        put_plain::<true>(&mut out, &bytes, 0..len),
                        is_json_plain(value)
                    );
                }
            }
        }
    }

    #[test]
    fn prefixes_and_numbers() {
        assert_eq!(
            trim_prefix(b" 20261130-09:00:00.000 : "),
            b"20261130-09:00:00.000"
        );
        assert_eq!(
            trim_prefix(b"20121004-09:33:12.452: "),
            b"20121004-09:33:12.452"
        );
        let mut out = Vec::new();
        push_u64(&mut out, 0);
        push_u64(&mut out, 18_446_744_073_709_551_615);
        assert_eq!(out, b"018446744073709551615");
    }
}
