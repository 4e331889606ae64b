//! The emitter: a [`Dictionary`] to Rust source over `fix_core::typed`.
//!
//! [`generate`] is pure (no I/O): it returns the files of one generated module,
//! keyed by their path relative to the module's directory. [`write`] is the thin
//! layer that touches only files whose contents changed, or, in check mode, lists
//! the stale ones.
//!
//! Tables and the `Message` enum are built with `quote`, parsed by `syn` and
//! printed by `prettyplease` (exact versions pinned). Views, builders, enums and tag
//! constants are invocations of `fix_core::typed`'s declarative macros (`t::view!`,
//! `t::builder!`, `t::char_enum!`, `t::bytes_enum!`, `t::tags!`), written by hand one
//! member per line and checked by `syn`: one short line per getter or builder field
//! instead of its expansion, which is written once in fix-core (every function
//! `#[inline]`, so a generated crate compiles only what its users call). The output
//! is deterministic: definitions come in dictionary order, tables sorted, no
//! timestamps and no absolute paths.
//!
//! # What is generated
//!
//! Five files, one module (`mod.rs` declares the others):
//!
//! | file | contents |
//! |---|---|
//! | `fields.rs` | a tag constant (`CL_ORD_ID: u32 = 11`) and a marker type implementing `fix_core::typed::FieldSpec` (tag, name, type, Rust value type) per field |
//! | `enums.rs` | an enum per enumerated field, with an `Other` variant for unlisted values; CHAR enums decode through a 256-byte const table, others through a compiled `match` |
//! | `components.rs` | a view per component (and `Header`, `Trailer`), shared by every message that includes it; a builder per component; the group tables and entry types written inside components |
//! | `messages.rs` | per message a read view over `fix_core::Message`, its `MessageDef` slot table and a builder demanding the required fields; the groups written inside messages |
//! | `mod.rs` | the `Message` enum dispatching on MsgType, and the validation tables: `FIELDS`, `MESSAGES`, `HEADER`, `TRAILER`, `DATA_FIELDS`, `DICTIONARY` |
//!
//! # The generated API
//!
//! - **Views** (`ExecutionReport<'a>`, group entries) wrap `fix_core::typed::View`:
//!   construction is one pass over the message's fields against a const slot
//!   table; every getter after that is one array load. Getters return
//!   `t::Req<T>` (`Result<T, FieldError>`) for required fields and `t::Opt<T>`
//!   (`Result<Option<T>, FieldError>`) for optional ones: `Missing` when a required
//!   field is absent, `Invalid` when the value does not parse as the field's type.
//!   DATA fields are `&[u8]`.
//! - **Components** are view types over a run of the enclosing view's slots
//!   (`er.instrument().symbol()`), one type shared by every message and entry.
//! - **Groups** are `fix_core::typed::Entries` iterators of typed entries, nested
//!   to any depth; entries are found by walking the fields after the counter with
//!   the group's table (delimiter and member tags), bounded by the declared count.
//! - **Enums**: `from_bytes` (a 256-byte table for CHAR fields, a `match`
//!   otherwise) and `as_bytes`; `Other(..)` keeps a value the dictionary does not
//!   list. BOOLEAN fields are `bool`; multiple-value fields are
//!   `MultipleCharValue`/`MultipleValueString` whose elements the enum decodes.
//! - **Builders** are plain structs of `Option` fields (slices of entry builders
//!   for groups, component builders for components) with `Default`; `new` (or
//!   `Message::builder`) takes the required fields, the rest is set with struct
//!   update syntax. `encode(&header, &mut buf)` writes 8, 9, 35, the header fields
//!   in ascending tag order, the body in dictionary order, and CheckSum through
//!   `fix_core::Encoder`, without allocating.
//! - **Tables** for validation: `FIELDS` (types and listed values), `MESSAGES`
//!   (per message: allowed tags, required tags, group layouts, header/body/trailer
//!   ranges), `HEADER`, `TRAILER`, `DATA_FIELDS`, all in `DICTIONARY`.
//!
//! Reading and building with a generated crate (here the test crate generated
//! from `fix-codegen/tests/dicts/sample.xml`):
//!
//! ```ignore
//! use fix_sample::{Message, components::*, enums::*, messages::*};
//!
//! let order = NewOrderSingleBuilder {
//!     instrument: Some(InstrumentBuilder::new(symbol)),
//!     price: Some(px),
//!     ..NewOrderSingle::builder(cl_ord_id, Side::Buy, transact_time, OrdType::Limit)
//! };
//! let bytes = order.encode(&HeaderBuilder::new(sender, target, seq, now), &mut buf)?;
//!
//! let msg = Parser::new().with_data_fields(fix_sample::DATA_FIELDS)
//!     .parse(bytes, &mut fields)?.complete().unwrap();
//! if let Message::NewOrderSingle(nos) = Message::new(msg) {
//!     assert_eq!(nos.side()?, Side::Buy);
//!     assert_eq!(nos.instrument().symbol()?, symbol);
//!     for party in nos.parties().no_party_ids() {
//!         println!("{:?} {:?}", party.party_id()?, party.party_role()?);
//!     }
//! }
//! ```
//!
//! ```
//! use fix_codegen::emit::{Config, generate};
//! use fix_dict::Dictionary;
//!
//! let dict = Dictionary::from_xml("MINI.xml", r#"
//! <fix type="FIX" major="4" minor="4">
//!   <header><field name="MsgType" required="Y"/></header>
//!   <messages>
//!     <message name="Heartbeat" msgtype="0" msgcat="admin">
//!       <field name="TestReqID" required="N"/>
//!     </message>
//!   </messages>
//!   <fields>
//!     <field number="35" name="MsgType" type="STRING"/>
//!     <field number="112" name="TestReqID" type="STRING"/>
//!   </fields>
//! </fix>"#).unwrap();
//! let files = generate(&dict, &Config::new("spec/MINI.xml")).unwrap();
//! let messages = &files[std::path::Path::new("messages.rs")];
//! assert!(messages.starts_with("// @generated by cargo xtask regen from spec/MINI.xml — do not edit\n"));
//! assert!(messages.contains("message Heartbeat["));
//! assert!(messages.contains("opt test_req_id("));
//! ```

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

use proc_macro2::{Literal, Span, TokenStream};
use quote::{format_ident, quote};
use syn::Ident;

use crate::ident;
use fix_dict::{Dictionary, Field, FieldType, GroupDecl, Member, Protocol};

/// Options of [`generate`].
///
/// ```
/// let config = fix_codegen::emit::Config::new("spec/FIX44.xml").fix_core_path("::fix_core");
/// assert_eq!(config.source, "spec/FIX44.xml");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The dictionary's path relative to the workspace root (e.g. `spec/FIX44.xml`),
    /// named in the first line of each file.
    pub source: String,
    /// The path generated code uses for `fix-core` (default `::fix_core`).
    pub fix_core: String,
    /// Whether to emit builders (default `true`); without them a crate only reads
    /// and validates, and is about 40% smaller.
    pub builders: bool,
}

impl Config {
    /// Defaults for the dictionary `spec/<source>`.
    ///
    /// ```
    /// assert_eq!(fix_codegen::emit::Config::new("X.xml").fix_core, "::fix_core");
    /// ```
    pub fn new(source: impl Into<String>) -> Self {
        Config {
            source: source.into(),
            fix_core: "::fix_core".into(),
            builders: true,
        }
    }

    /// Sets the path of `fix-core` in generated code (e.g. `crate::core` when the
    /// generated crate re-exports it).
    ///
    /// ```
    /// let c = fix_codegen::emit::Config::new("X.xml").fix_core_path("fix_core");
    /// assert_eq!(c.fix_core, "fix_core");
    /// ```
    pub fn fix_core_path(mut self, path: impl Into<String>) -> Self {
        self.fix_core = path.into();
        self
    }

    /// Emits builders (`true`, the default) or read views and tables only.
    ///
    /// ```
    /// let c = fix_codegen::emit::Config::new("X.xml").builders(false);
    /// assert!(!c.builders);
    /// ```
    pub fn builders(mut self, on: bool) -> Self {
        self.builders = on;
        self
    }
}

/// Why generation failed: a bug in the emitter (the tokens did not form a valid
/// file) or an invalid [`Config`]. Dictionary mistakes are reported by the model.
///
/// ```
/// use fix_codegen::emit::{Config, EmitError, generate};
/// let dict = fix_dict::Dictionary::from_xml("e.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
/// let err = generate(&dict, &Config::new("e.xml").fix_core_path("not a path")).unwrap_err();
/// assert!(matches!(err, EmitError::Config(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmitError {
    /// The configuration is invalid.
    Config(String),
    /// A generated file did not parse (an emitter bug); the file and the reason.
    Syntax(String, String),
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmitError::Config(m) => write!(f, "invalid configuration: {m}"),
            EmitError::Syntax(file, m) => write!(f, "generated {file} does not parse: {m}"),
        }
    }
}

impl std::error::Error for EmitError {}

/// Generates the module for `dict`: file path (relative to the module directory)
/// to contents.
///
/// ```
/// # use fix_codegen::emit::{Config, generate};
/// let dict = fix_dict::Dictionary::from_xml("e.xml", "<fix type='FIX' major='4' minor='4'/>").unwrap();
/// let files = generate(&dict, &Config::new("e.xml")).unwrap();
/// assert_eq!(files.keys().map(|p| p.to_str().unwrap()).collect::<Vec<_>>(),
///            ["components.rs", "enums.rs", "fields.rs", "messages.rs", "mod.rs"]);
/// ```
pub fn generate(
    dict: &Dictionary,
    config: &Config,
) -> Result<BTreeMap<PathBuf, String>, EmitError> {
    syn::parse_str::<syn::Path>(&config.fix_core)
        .map_err(|e| EmitError::Config(format!("fix_core path `{}`: {e}", config.fix_core)))?;
    let mut cx = Cx::new(dict);
    cx.builders = config.builders;
    let header = format!(
        "// @generated by cargo xtask regen from {} — do not edit\n",
        config.source
    );
    type FilePart<'c> = (
        &'static str,
        Option<&'static str>,
        fn(&Cx<'c>, &TokenStream) -> Vec<Part>,
    );
    let parts: [FilePart<'_>; 5] = [
        ("mod.rs", None, |cx, uses| vec![Part::Tokens(cx.root(uses))]),
        (
            "fields.rs",
            Some(" Field tags (each documented with its type and the Rust type of its getters)."),
            |cx, _| cx.fields(),
        ),
        (
            "enums.rs",
            Some(" An enum per enumerated field."),
            |cx, _| cx.enums(),
        ),
        (
            "components.rs",
            Some(
                " Component views and builders (shared by every message that includes them), the header and the trailer.",
            ),
            |cx, _| cx.components(),
        ),
        (
            "messages.rs",
            Some(" Message views, tables and builders."),
            |cx, _| cx.messages(),
        ),
    ];
    // One thread per file: token streams are not `Send`, so each thread builds,
    // checks and prints its own file from the shared, read-only context.
    let results: Vec<Result<(PathBuf, String), EmitError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = parts
            .iter()
            .map(|&(name, doc, build)| {
                let (cx, header, fc) = (&cx, &header, config.fix_core.as_str());
                scope.spawn(move || {
                    let fc: syn::Path =
                        syn::parse_str(fc).map_err(|e| EmitError::Config(e.to_string()))?;
                    let uses = quote! { use #fc::{self as fc, typed as t, value as v}; };
                    let mut parts = build(cx, &uses);
                    if let Some(d) = doc {
                        parts.insert(
                            0,
                            Part::Tokens(quote! {
                                #![doc = #d]
                                #uses
                                use super::{components as c, enums as e, messages as m};
                            }),
                        );
                    }
                    let mut text = header.clone();
                    print_parts(name, parts, &mut text)?;
                    Ok((PathBuf::from(name), text))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(EmitError::Syntax(
                        "?".into(),
                        "emitter thread panicked".into(),
                    ))
                })
            })
            .collect()
    });
    let mut out = BTreeMap::new();
    for r in results {
        let (path, text) = r?;
        out.insert(path, text);
    }
    Ok(out)
}

/// Writes `files` under `dir`, touching only files whose contents differ. With
/// `check`, writes nothing. Either way returns the files that were (or would be)
/// written — in check mode, the stale ones. `.rs` files in `dir` that `files` does
/// not have are reported (and, without `check`, removed).
///
/// ```
/// use std::collections::BTreeMap;
/// use std::path::PathBuf;
/// let dir = std::env::temp_dir().join(format!("fix-codegen-write-doc-{}", std::process::id()));
/// let files = BTreeMap::from([(PathBuf::from("a.rs"), "// a\n".to_string())]);
/// let stale = fix_codegen::emit::write(&dir, &files, true)?;
/// assert_eq!(stale, [dir.join("a.rs")]);
/// assert_eq!(fix_codegen::emit::write(&dir, &files, false)?.len(), 1);
/// assert!(fix_codegen::emit::write(&dir, &files, true)?.is_empty());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write(
    dir: &Path,
    files: &BTreeMap<PathBuf, String>,
    check: bool,
) -> std::io::Result<Vec<PathBuf>> {
    let mut changed = Vec::new();
    for (rel, text) in files {
        let path = dir.join(rel);
        let same = std::fs::read(&path).is_ok_and(|old| old == text.as_bytes());
        if same {
            continue;
        }
        if !check {
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&path, text)?;
        }
        changed.push(path);
    }
    if let Ok(entries) = std::fs::read_dir(dir) {
        let mut extra: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "rs"))
            .filter(|p| {
                p.strip_prefix(dir)
                    .is_ok_and(|rel| !files.contains_key(rel))
            })
            .collect();
        extra.sort();
        for p in extra {
            if !check {
                std::fs::remove_file(&p)?;
            }
            changed.push(p);
        }
    }
    Ok(changed)
}

/// A piece of a generated file: items printed by prettyplease, or a macro
/// invocation written (and formatted) by hand, one member per line.
enum Part {
    Tokens(TokenStream),
    Text(String),
}

/// Prints `parts` into `out`: runs of token items through prettyplease, text as
/// it is. Every text part is checked to parse as items.
fn print_parts(name: &str, parts: Vec<Part>, out: &mut String) -> Result<(), EmitError> {
    let syntax = |e: syn::Error| EmitError::Syntax(name.to_string(), e.to_string());
    let mut tokens = TokenStream::new();
    let flush = |tokens: &mut TokenStream, out: &mut String| -> Result<(), EmitError> {
        if !tokens.is_empty() {
            let file: syn::File = syn::parse2(std::mem::take(tokens)).map_err(syntax)?;
            out.push_str(&prettyplease::unparse(&file));
        }
        Ok(())
    };
    for part in parts {
        match part {
            Part::Tokens(t) => tokens.extend(t),
            Part::Text(text) => {
                flush(&mut tokens, out)?;
                syn::parse_file(&text).map_err(syntax)?;
                out.push_str(&text);
            }
        }
    }
    flush(&mut tokens, out)
}

/// A type's tokens as compact source text (`Option<v::FixStr<'b>>`).
fn type_text(t: &TokenStream) -> String {
    let s = t.to_string();
    let s = s
        .replace(" :: ", "::")
        .replace(":: ", "::")
        .replace(" < ", "<")
        .replace("< ", "<")
        .replace(" <", "<")
        .replace(" >", ">")
        .replace("& ", "&")
        .replace(" ,", ",");
    s.trim().to_string()
}

/// A `///` line (newlines in `text` become spaces).
fn doc_line(out: &mut String, indent: &str, text: &str) {
    out.push_str(indent);
    out.push_str("/// ");
    out.push_str(&text.replace(['\r', '\n'], " "));
    out.push('\n');
}

/// A string literal.
fn str_lit(s: &str) -> String {
    format!("{s:?}")
}

/// An identifier from a name the `ident` module produced (raw identifiers kept);
/// anything that is not an identifier becomes `_invalid`.
fn id(s: &str) -> Ident {
    let (raw, base) = match s.strip_prefix("r#") {
        Some(b) => (true, b),
        None => (false, s),
    };
    let valid = !base.is_empty()
        && base != "_"
        && base
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && base.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return Ident::new("_invalid", Span::call_site());
    }
    if raw {
        Ident::new_raw(base, Span::call_site())
    } else {
        Ident::new(base, Span::call_site())
    }
}

/// `SCREAMING_SNAKE` for a type name.
fn screaming(type_name: &str) -> String {
    let s = ident::snake_case(type_name);
    let s = s.strip_prefix("r#").unwrap_or(&s).to_uppercase();
    s.trim_end_matches('_').to_string()
}

fn doc(text: impl AsRef<str>) -> TokenStream {
    let text = format!(" {}", text.as_ref());
    quote!(#[doc = #text])
}

fn bytes_lit(s: &str) -> Literal {
    Literal::byte_string(s.as_bytes())
}

fn u16_lit(n: usize) -> Literal {
    Literal::u16_unsuffixed(u16::try_from(n).unwrap_or(u16::MAX))
}

/// Which module a generated item lives in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Module {
    Components,
    Messages,
}

/// What the emitter knows about one group as written.
#[derive(Clone, Debug)]
struct GroupInfo {
    module: Module,
    /// Entry view type name (`PartiesNoPartyIds`).
    ty: String,
    /// The static's name (`PARTIES_NO_PARTY_IDS`).
    stat: String,
    /// Number of slots of one entry.
    len: usize,
    /// Every tag under the group: its entries' and, recursively, their nested
    /// groups'.
    tags: BTreeSet<u32>,
}

/// How a level is walked: as a whole message (unknown fields are skipped) or as
/// one group entry (which ends at the first field it does not hold).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    Message,
    Entry,
}

/// One slot of a level.
#[derive(Clone, Debug)]
struct Slot {
    tag: u32,
    required: bool,
    /// The group whose counter this is (key into `Cx::groups`).
    group: Option<usize>,
}

/// Per-field facts the emitter needs.
#[derive(Clone, Debug)]
struct FieldInfo {
    /// `snake_case` getter name.
    getter: String,
    /// `UpperCamel` type name (marker and enum).
    ty: String,
    /// `SCREAMING` tag constant.
    konst: String,
    /// Enum kind, when an enum is generated.
    kind: EnumKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EnumKind {
    None,
    /// CHAR (or MULTIPLECHARVALUE elements): a byte table, no lifetime.
    Char,
    /// Anything else: a `match`, carries a lifetime.
    Bytes,
}

/// The generation context.
struct Cx<'d> {
    dict: &'d Dictionary,
    fields: HashMap<u32, FieldInfo>,
    /// GroupDecl key: address of the `GroupDecl` as written.
    groups: HashMap<usize, GroupInfo>,
    /// Component index to its type name.
    components: Vec<String>,
    /// Component index to its slot count.
    component_len: Vec<usize>,
    /// Message index to its type name.
    messages: Vec<String>,
    /// Whether builders are emitted.
    builders: bool,
}

fn group_key(g: &GroupDecl) -> usize {
    g.id
}

impl<'d> Cx<'d> {
    fn new(dict: &'d Dictionary) -> Self {
        let mut fields = HashMap::new();
        let tys = ident::dedup(dict.fields().iter().map(|f| ident::upper_camel(&f.name)));
        for (f, ty) in dict.fields().iter().zip(tys) {
            let kind = if !f.is_enumerated() || f.ty == FieldType::Boolean {
                EnumKind::None
            } else if matches!(f.ty, FieldType::Char | FieldType::MultipleCharValue)
                && f.values.iter().all(|v| v.value.len() == 1)
            {
                EnumKind::Char
            } else {
                EnumKind::Bytes
            };
            fields.insert(
                f.tag,
                FieldInfo {
                    getter: ident::snake_case(&f.name),
                    konst: screaming(&ty),
                    ty,
                    kind,
                },
            );
        }
        // Type names: components (plus Header/Trailer) share one namespace, messages another.
        let mut comp_names: Vec<String> = vec!["Header".into(), "Trailer".into()];
        comp_names.extend(
            dict.components()
                .iter()
                .map(|c| ident::upper_camel(&c.name)),
        );
        let comp_names = ident::dedup(comp_names);
        let components: Vec<String> = comp_names[2..].to_vec();
        let mut msg_names: Vec<String> = vec!["Message".into()];
        msg_names.extend(dict.messages().iter().map(|m| ident::upper_camel(&m.name)));
        let messages = ident::dedup(msg_names)[1..].to_vec();
        let mut cx = Cx {
            dict,
            fields,
            groups: HashMap::new(),
            components,
            component_len: Vec::new(),
            messages,
            builders: true,
        };
        cx.component_len = (0..dict.components().len())
            .map(|i| cx.component_slots(i, 0))
            .collect();
        // Name every group where it is written, then size its entry.
        let mut used: Vec<String> = Vec::new();
        let mut pending: Vec<(Module, String, &'d GroupDecl)> = Vec::new();
        let collect = |module: Module, owner: &str, members: &'d [Member], pending: &mut Vec<_>| {
            for m in members {
                if let Member::Group(g) = m {
                    pending.push((module, owner.to_string(), g));
                }
            }
        };
        collect(
            Module::Components,
            "Header",
            &dict.header().members,
            &mut pending,
        );
        collect(
            Module::Components,
            "Trailer",
            &dict.trailer().members,
            &mut pending,
        );
        for (c, name) in dict.components().iter().zip(&cx.components) {
            collect(Module::Components, name, &c.members, &mut pending);
        }
        for (m, name) in dict.messages().iter().zip(&cx.messages) {
            collect(Module::Messages, name, &m.members, &mut pending);
        }
        let mut i = 0;
        while i < pending.len() {
            let (module, owner, g) = pending[i].clone();
            let counter = dict
                .field(g.counter)
                .map(|f| ident::upper_camel(&f.name))
                .unwrap_or_else(|| format!("GroupDecl{}", g.counter));
            let mut ty = format!("{owner}{counter}");
            let base = ty.clone();
            let mut n = 2;
            while used.contains(&ty)
                || (module == Module::Components && cx.components.contains(&ty))
                || (module == Module::Messages && cx.messages.contains(&ty))
            {
                ty = format!("{base}{n}");
                n += 1;
            }
            used.push(ty.clone());
            for m in &g.members {
                if let Member::Group(inner) = m {
                    pending.push((module, ty.clone(), inner));
                }
            }
            let stat = screaming(&ty);
            cx.groups.insert(
                group_key(g),
                GroupInfo {
                    module,
                    ty,
                    stat,
                    len: 0,
                    tags: BTreeSet::new(),
                },
            );
            i += 1;
        }
        let keys: Vec<(usize, &'d GroupDecl)> =
            pending.iter().map(|(_, _, g)| (group_key(g), *g)).collect();
        let defs: HashMap<usize, &'d GroupDecl> = keys.iter().copied().collect();
        for &(k, g) in &keys {
            let mut slots = Vec::new();
            cx.flatten(&g.members, true, &mut slots, 0);
            let mut tags = BTreeSet::new();
            cx.tags_under(g, &defs, &mut tags, 0);
            if let Some(info) = cx.groups.get_mut(&k) {
                info.len = slots.len();
                info.tags = tags;
            }
        }
        cx
    }

    /// Adds every tag under group `g` to `out`: its entries', and its nested
    /// groups' (found in `defs`), recursively.
    fn tags_under(
        &self,
        g: &GroupDecl,
        defs: &HashMap<usize, &'d GroupDecl>,
        out: &mut BTreeSet<u32>,
        depth: usize,
    ) {
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return;
        }
        let mut slots = Vec::new();
        self.flatten(&g.members, true, &mut slots, 0);
        for s in slots {
            out.insert(s.tag);
            if let Some(inner) = s.group.and_then(|k| defs.get(&k)) {
                self.tags_under(inner, defs, out, depth + 1);
            }
        }
    }

    fn component_slots(&self, i: usize, depth: usize) -> usize {
        let Some(c) = self.dict.components().get(i) else {
            return 0;
        };
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return 0;
        }
        c.members
            .iter()
            .map(|m| match m {
                Member::Field { .. } | Member::Group(_) => 1,
                Member::Component { component, .. } => self.component_slots(*component, depth + 1),
            })
            .sum()
    }

    /// Appends the slots of `members` (components expanded in place).
    fn flatten(&self, members: &[Member], required: bool, out: &mut Vec<Slot>, depth: usize) {
        if depth > fix_dict::MAX_COMPONENT_DEPTH {
            return;
        }
        for m in members {
            match m {
                Member::Field {
                    tag, required: r, ..
                } => out.push(Slot {
                    tag: *tag,
                    required: required && *r,
                    group: None,
                }),
                Member::Group(g) => out.push(Slot {
                    tag: g.counter,
                    required: required && g.required,
                    group: self.group_has_entry(g).then(|| group_key(g)),
                }),
                Member::Component {
                    component,
                    required: r,
                    ..
                } => {
                    if let Some(c) = self.dict.components().get(*component) {
                        self.flatten(&c.members, required && *r, out, depth + 1);
                    }
                }
            }
        }
    }

    fn group_has_entry(&self, g: &GroupDecl) -> bool {
        let mut slots = Vec::new();
        self.flatten(&g.members, true, &mut slots, 0);
        !slots.is_empty()
    }

    fn field(&self, tag: u32) -> Option<(&'d Field, &FieldInfo)> {
        Some((self.dict.field(tag)?, self.fields.get(&tag)?))
    }

    /// Path of a group's static, from the module `from`.
    fn group_static(&self, key: usize, from: Module) -> TokenStream {
        let Some(info) = self.groups.get(&key) else {
            return quote!(unreachable_group);
        };
        let s = id(&info.stat);
        match (info.module, from) {
            (a, b) if a == b => quote!(#s),
            (Module::Components, _) => quote!(c::#s),
            (Module::Messages, _) => quote!(m::#s),
        }
    }

    fn group_type(&self, key: usize, from: Module) -> TokenStream {
        let Some(info) = self.groups.get(&key) else {
            return quote!(UnreachableGroup);
        };
        let s = id(&info.ty);
        match (info.module, from) {
            (a, b) if a == b => quote!(#s),
            (Module::Components, _) => quote!(c::#s),
            (Module::Messages, _) => quote!(m::#s),
        }
    }

    fn component_type(&self, i: usize, from: Module) -> TokenStream {
        let name = self.components.get(i).map_or("Unknown", String::as_str);
        let s = id(name);
        match from {
            Module::Components => quote!(#s),
            Module::Messages => quote!(c::#s),
        }
    }

    /// A `Level { .. }` literal for `slots`.
    fn level(&self, slots: &[Slot], from: Module, walk: Walk) -> TokenStream {
        let tags = slots.iter().map(|s| Literal::u32_unsuffixed(s.tag));
        if index_buckets(slots).is_none() {
            return self.level_of(quote!(&[#(#tags),*]), slots, from, walk);
        }
        // The index is computed at compile time from the tags (`hash_index`), so
        // the tags are named once and the source holds no bucket table.
        let level = self.level_of(quote!(TAGS), slots, from, walk);
        quote! {
            {
                const TAGS: &[u32] = &[#(#tags),*];
                #level
            }
        }
    }

    /// A `Level { .. }` literal for `slots`, whose tags are the expression `tags`
    /// (a constant when there is an index, which names them twice). A level with
    /// an index leaves `by_tag` empty: only lookups without one read it.
    fn level_of(&self, tags: TokenStream, slots: &[Slot], from: Module, walk: Walk) -> TokenStream {
        let required = slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.required)
            .map(|(i, _)| u16_lit(i));
        let groups = slots.iter().enumerate().filter_map(|(i, s)| {
            let g = self.group_static(s.group?, from);
            let i = u16_lit(i);
            Some(quote!((#i, &#g)))
        });
        let Some(buckets) = index_buckets(slots) else {
            let mut by_tag: Vec<usize> = (0..slots.len()).collect();
            by_tag.sort_by_key(|&i| (slots[i].tag, i));
            let by_tag = by_tag.into_iter().map(u16_lit);
            return quote! {
                t::Level {
                    tags: #tags,
                    by_tag: &[#(#by_tag),*],
                    required: &[#(#required),*],
                    groups: &[#(#groups),*],
                    index: &[],
                }
            };
        };
        let buckets = Literal::usize_unsuffixed(buckets);
        let group_slots = slots
            .iter()
            .enumerate()
            .filter(|(_, s)| s.group.is_some())
            .map(|(i, _)| u16_lit(i));
        // At a message's level, a group none of whose tags the level holds needs
        // no skipping (`fix_core::typed::DISJOINT_BIT`).
        let own: BTreeSet<u32> = slots.iter().map(|s| s.tag).collect();
        let disjoint = slots.iter().enumerate().filter_map(|(i, s)| {
            let info = self.groups.get(&s.group?)?;
            (walk == Walk::Message && info.tags.is_disjoint(&own)).then(|| u16_lit(i))
        });
        quote! {
            t::Level {
                tags: #tags,
                by_tag: &[],
                required: &[#(#required),*],
                groups: &[#(#groups),*],
                index: &t::hash_index::<#buckets>(#tags, &[#(#group_slots),*], &[#(#disjoint),*]),
            }
        }
    }

    /// The Rust value type of a field, with lifetime `lt` where it borrows.
    fn value_type(&self, f: &Field, info: &FieldInfo, lt: &TokenStream) -> TokenStream {
        let enum_ty = id(&info.ty);
        match (info.kind, f.ty) {
            (EnumKind::Char, t) if !t.is_multiple() => return quote!(e::#enum_ty),
            (EnumKind::Bytes, t) if !t.is_multiple() => {
                return quote!(e::#enum_ty<#lt>);
            }
            _ => {}
        }
        use FieldType as T;
        match f.ty {
            T::Int
            | T::DayOfMonth
            | T::Reserved100Plus
            | T::Reserved1000Plus
            | T::Reserved4000Plus => quote!(i64),
            T::Length => quote!(v::Length),
            T::TagNum => quote!(v::TagNum),
            T::SeqNum => quote!(v::SeqNum),
            T::NumInGroup => quote!(v::NumInGroup),
            T::Float | T::Qty | T::Price | T::PriceOffset | T::Amt | T::Percentage => {
                quote!(v::Decimal)
            }
            T::Char => quote!(v::Char),
            T::Boolean => quote!(bool),
            T::MultipleCharValue => quote!(v::MultipleCharValue<#lt>),
            T::MultipleStringValue | T::MultipleValueString => {
                quote!(v::MultipleValueString<#lt>)
            }
            T::Country => quote!(v::Country),
            T::Currency => quote!(v::Currency),
            T::Exchange => quote!(v::Exchange),
            T::MonthYear => quote!(v::MonthYear),
            T::UtcTimestamp | T::Time => quote!(v::UtcTimestamp),
            T::UtcTimeOnly => quote!(v::UtcTimeOnly),
            T::UtcDateOnly | T::UtcDate => quote!(v::UtcDateOnly),
            T::LocalMktDate => quote!(v::LocalMktDate),
            T::TzTimeOnly => quote!(v::TzTimeOnly),
            T::TzTimestamp => quote!(v::TzTimestamp),
            T::Data | T::XmlData => quote!(&#lt [u8]),
            _ => quote!(v::FixStr<#lt>),
        }
    }

    /// The `FieldType` variant of `ty`, as generated tables name it.
    fn type_variant(ty: FieldType) -> Ident {
        Ident::new(&format!("{ty:?}"), Span::call_site())
    }

    fn field_doc(&self, f: &Field, required: Option<bool>) -> String {
        let mut s = format!("`{}` ({}), {}", f.name, f.tag, f.ty);
        match required {
            Some(true) => s.push_str(", required."),
            Some(false) => s.push('.'),
            None => s.push('.'),
        }
        s
    }

    // ----- files ---------------------------------------------------------------

    fn fields(&self) -> Vec<Part> {
        let mut out = String::from("t::tags! {\n");
        for f in self.dict.fields() {
            let Some(info) = self.fields.get(&f.tag) else {
                continue;
            };
            let vt = type_text(&self.value_type(f, info, &quote!('a)))
                .replace("v::", "")
                .replace("e::", "enums::");
            out.push_str(&format!(
                "    {} = {}, {}, {}, {};\n",
                id(&info.konst),
                f.tag,
                str_lit(&f.name),
                f.ty,
                str_lit(&vt)
            ));
        }
        out.push_str("}\n");
        vec![Part::Text(out)]
    }

    /// Whether the field's value type borrows from the message.
    fn borrows(&self, f: &Field, info: &FieldInfo) -> bool {
        use FieldType as T;
        match (info.kind, f.ty) {
            (EnumKind::Char, t) if !t.is_multiple() => false,
            (EnumKind::Bytes, t) if !t.is_multiple() => true,
            (_, t) if t.is_multiple() || t.is_data() => true,
            (
                _,
                T::String
                | T::LocalMktTime
                | T::Date
                | T::Language
                | T::Pattern
                | T::Tenor
                | T::Xid
                | T::XidRef,
            ) => true,
            _ => false,
        }
    }

    fn enums(&self) -> Vec<Part> {
        let mut out = String::new();
        for f in self.dict.fields() {
            let Some(info) = self.fields.get(&f.tag) else {
                continue;
            };
            if info.kind == EnumKind::None {
                continue;
            }
            let variant_names: Vec<String> = {
                let mut names = vec!["Other".to_string()];
                names.extend(
                    f.values
                        .iter()
                        .map(|v| ident::enum_variant(&v.description, &v.value)),
                );
                ident::dedup(names)[1..].to_vec()
            };
            let ty = id(&info.ty);
            let (mac, head) = match info.kind {
                EnumKind::Char => ("char_enum", format!("{ty}")),
                _ => ("bytes_enum", format!("{ty}({})", f.ty.is_integer())),
            };
            out.push_str(&format!("t::{mac}! {{\n"));
            doc_line(
                &mut out,
                "    ",
                &format!(
                    "Values of `{}` ({}), {}; `Other` carries a value the dictionary does not list.",
                    f.name, f.tag, f.ty
                ),
            );
            out.push_str(&format!("    {head} {{\n"));
            for (v, name) in f.values.iter().zip(&variant_names) {
                if v.description.is_empty() {
                    doc_line(&mut out, "        ", &format!("`{}`.", v.value));
                } else {
                    doc_line(
                        &mut out,
                        "        ",
                        &format!("`{}`: {}.", v.value, v.description),
                    );
                }
                let wire = match info.kind {
                    EnumKind::Char => {
                        Literal::byte_character(v.value.as_bytes().first().copied().unwrap_or(b' '))
                    }
                    _ => bytes_lit(&v.value),
                };
                out.push_str(&format!("        {} = {wire},\n", id(name)));
            }
            out.push_str("    }\n}\n");
        }
        if out.is_empty() {
            return Vec::new();
        }
        vec![Part::Text(out)]
    }

    /// Getter names for `members`, deduplicated against `reserved`.
    fn member_names(&self, members: &[Member], reserved: &[&str]) -> Vec<String> {
        let mut names: Vec<String> = reserved.iter().map(|s| s.to_string()).collect();
        for m in members {
            names.push(match m {
                Member::Field { tag, .. } => self
                    .fields
                    .get(tag)
                    .map_or_else(|| format!("tag_{tag}"), |f| f.getter.clone()),
                Member::Group(g) => self
                    .fields
                    .get(&g.counter)
                    .map_or_else(|| format!("tag_{}", g.counter), |f| f.getter.clone()),
                Member::Component { component, .. } => self
                    .dict
                    .components()
                    .get(*component)
                    .map_or_else(|| "component".into(), |c| ident::snake_case(&c.name)),
            });
        }
        ident::dedup(names)[reserved.len()..].to_vec()
    }

    /// Getter lines (`kind name(args);`) of a `t::view!` over `members`, whose
    /// first slot is `base`.
    fn getters(&self, members: &[Member], base: usize, from: Module, out: &mut String) {
        let names = self.member_names(members, RESERVED);
        let mut slot = base;
        for (m, name) in members.iter().zip(names) {
            let getter = id(&name);
            let s = slot;
            match m {
                Member::Field { tag, required, .. } => {
                    slot += 1;
                    let Some((f, info)) = self.field(*tag) else {
                        continue;
                    };
                    let fix = str_lit(&f.name);
                    let line = match (f.ty.is_data(), *required) {
                        (true, r) => format!(
                            "{} {getter}({s}, {tag}, {fix}, {});",
                            if r { "req_data" } else { "data" },
                            f.ty
                        ),
                        (false, r) => format!(
                            "{} {getter}({s}, {tag}, {fix}, {}, {});",
                            if r { "req" } else { "opt" },
                            f.ty,
                            type_text(&self.value_type(f, info, &quote!('a)))
                        ),
                    };
                    out.push_str("        ");
                    out.push_str(&line);
                    out.push('\n');
                }
                Member::Group(g) => {
                    slot += 1;
                    let key = group_key(g);
                    let Some(info) = self.groups.get(&key).filter(|_| self.group_has_entry(g))
                    else {
                        continue;
                    };
                    let ety = type_text(&self.group_type(key, from));
                    let stat = type_text(&self.group_static(key, from));
                    let fname = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
                    out.push_str(&format!(
                        "        {} {getter}({s}, {}, {}, {ety}, {}, {stat});\n",
                        if g.required { "req_group" } else { "group" },
                        g.counter,
                        str_lit(fname),
                        info.len
                    ));
                }
                Member::Component {
                    component,
                    required,
                    ..
                } => {
                    let len = self.component_len.get(*component).copied().unwrap_or(0);
                    slot += len;
                    let cty = type_text(&self.component_type(*component, from));
                    let cname = self
                        .dict
                        .components()
                        .get(*component)
                        .map_or("?", |c| c.name.as_str());
                    out.push_str(&format!(
                        "        {} {getter}({s}, {len}, {}, {cty});\n",
                        if *required { "req_comp" } else { "comp" },
                        str_lit(cname)
                    ));
                }
            }
        }
    }

    /// The required arguments of a builder's `new` over `members`: name and type.
    /// A group entry's builder (`first`) also takes its first field, the delimiter.
    fn builder_args(&self, members: &[Member], first: bool) -> Vec<(String, String)> {
        let names = self.member_names(members, RESERVED_BUILDER);
        let paired: Vec<u32> = self.dict.data_pairs().iter().map(|p| p.length).collect();
        members
            .iter()
            .zip(names)
            .enumerate()
            .filter_map(|(i, (mem, n))| match mem {
                Member::Field { tag, required, .. }
                    if (*required || (first && i == 0)) && !paired.contains(tag) =>
                {
                    let (f, info) = self.field(*tag)?;
                    Some((
                        id(&n).to_string(),
                        type_text(&self.value_type(f, info, &quote!('b))),
                    ))
                }
                _ => None,
            })
            .collect()
    }

    /// A `t::builder!` named `bty` for `members` (`msg_type` for a message's,
    /// which also gets `encode`).
    fn builder_text(
        &self,
        bty: &str,
        view_doc: &str,
        members: &[Member],
        from: Module,
        msg_type: Option<&str>,
        first: bool,
    ) -> String {
        let names = self.member_names(members, RESERVED_BUILDER);
        let paired_lengths: Vec<u32> = self.dict.data_pairs().iter().map(|p| p.length).collect();
        let mut lines = Vec::new();
        let mut borrows = false;
        for (m, name) in members.iter().zip(&names) {
            let fname = id(name);
            match m {
                Member::Field { tag, required, .. } => {
                    if paired_lengths.contains(tag) {
                        continue;
                    }
                    let Some((f, info)) = self.field(*tag) else {
                        continue;
                    };
                    borrows |= self.borrows(f, info);
                    let vt = type_text(&self.value_type(f, info, &quote!('b)));
                    let fix = str_lit(&f.name);
                    lines.push(if f.ty.is_data() {
                        let len = self.dict.length_tag_for_data(*tag).unwrap_or(0);
                        format!(
                            "{fname}: Option<{vt}> = {}({len}, {tag}, {fix}, {});",
                            if *required { "req_data" } else { "data" },
                            f.ty
                        )
                    } else {
                        format!(
                            "{fname}: Option<{vt}> = {}({tag}, {fix}, {});",
                            if *required { "req" } else { "opt" },
                            f.ty
                        )
                    });
                }
                Member::Group(g) => {
                    let key = group_key(g);
                    if !self.group_has_entry(g) {
                        continue;
                    }
                    let Some(info) = self.groups.get(&key) else {
                        continue;
                    };
                    borrows = true;
                    let ety = format!("{}Builder", id(&info.ty));
                    let ety = match (info.module, from) {
                        (a, b) if a == b => ety,
                        (Module::Components, _) => format!("c::{ety}"),
                        (Module::Messages, _) => format!("m::{ety}"),
                    };
                    let gname = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
                    lines.push(format!(
                        "{fname}: &'b [{ety}<'b>] = group({}, {});",
                        g.counter,
                        str_lit(gname)
                    ));
                }
                Member::Component { component, .. } => {
                    let Some(c) = self.components.get(*component) else {
                        continue;
                    };
                    borrows = true;
                    let cb = format!("{}Builder", id(c));
                    let cb = match from {
                        Module::Components => cb,
                        Module::Messages => format!("c::{cb}"),
                    };
                    let cname = self
                        .dict
                        .components()
                        .get(*component)
                        .map_or("?", |c| c.name.as_str());
                    lines.push(format!(
                        "{fname}: Option<{cb}<'b>> = comp({});",
                        str_lit(cname)
                    ));
                }
            }
        }
        if !borrows {
            lines.push("_b: ::core::marker::PhantomData<&'b ()> = phantom();".into());
        }
        let args = self
            .builder_args(members, first)
            .into_iter()
            .map(|(n, t)| format!("{n}: {t}"))
            .collect::<Vec<_>>()
            .join(", ");
        let mut out = String::from("t::builder! {\n");
        doc_line(
            &mut out,
            "    ",
            &format!(
                "Builds {view_doc}: `new` takes the required fields; set the others with struct update syntax (`..`)."
            ),
        );
        out.push_str(&format!("    {bty}({args})"));
        if let Some(mt) = msg_type {
            out.push_str(&format!(" message {}", bytes_lit(mt)));
        }
        out.push_str(" {\n");
        for l in lines {
            out.push_str("        ");
            out.push_str(&l);
            out.push('\n');
        }
        out.push_str("    }\n}\n");
        out
    }

    /// A builder struct named `bty` for `members`: public `Option` fields (slices
    /// for groups), `Default`, a `new` taking the required fields, and `t::Build`.
    /// `sorted` writes fields in ascending tag order (the header).
    #[allow(clippy::too_many_arguments)]
    fn builder(
        &self,
        bty: &Ident,
        view_doc: &str,
        members: &[Member],
        from: Module,
        skip: &[u32],
        sorted: bool,
        force_first: bool,
    ) -> TokenStream {
        let lt = quote!('b);
        let names = self.member_names(members, RESERVED_BUILDER);
        let paired_lengths: Vec<u32> = self.dict.data_pairs().iter().map(|p| p.length).collect();
        let mut decls = Vec::new();
        let mut args = Vec::new();
        let mut inits = Vec::new();
        let mut borrows = false;
        // (sort key, write statement)
        let mut writes: Vec<(u32, TokenStream)> = Vec::new();
        for (i, (m, name)) in members.iter().zip(&names).enumerate() {
            let fname = id(name);
            match m {
                Member::Field { tag, required, .. } => {
                    if skip.contains(tag) || paired_lengths.contains(tag) {
                        continue;
                    }
                    let Some((f, info)) = self.field(*tag) else {
                        continue;
                    };
                    borrows |= self.borrows(f, info);
                    let vt = self.value_type(f, info, &lt);
                    let t = Literal::u32_unsuffixed(*tag);
                    let d = doc(self.field_doc(f, Some(*required)));
                    decls.push(quote!(#d pub #fname: Option<#vt>));
                    if *required || (force_first && i == 0) {
                        args.push(quote!(#fname: #vt));
                        inits.push(quote!(#fname: Some(#fname)));
                    }
                    let w = if f.ty.is_data() {
                        let len = self.dict.length_tag_for_data(*tag).unwrap_or(0);
                        let len = Literal::u32_unsuffixed(len);
                        quote!(t::put_data(enc, #len, #t, self.#fname)?;)
                    } else {
                        quote!(t::put(enc, #t, &self.#fname)?;)
                    };
                    writes.push((*tag, w));
                }
                Member::Group(g) => {
                    let key = group_key(g);
                    if !self.group_has_entry(g) || skip.contains(&g.counter) {
                        continue;
                    }
                    let Some(info) = self.groups.get(&key) else {
                        continue;
                    };
                    borrows = true;
                    let ety = format_ident!("{}Builder", id(&info.ty));
                    let ety = match (info.module, from) {
                        (a, b) if a == b => quote!(#ety),
                        (Module::Components, _) => quote!(c::#ety),
                        (Module::Messages, _) => quote!(m::#ety),
                    };
                    let t = Literal::u32_unsuffixed(g.counter);
                    let gname = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
                    let d = doc(format!("The `{gname}` ({}) group's entries.", g.counter));
                    decls.push(quote!(#d pub #fname: &'b [#ety<'b>]));
                    writes.push((g.counter, quote!(t::put_group(enc, #t, self.#fname)?;)));
                }
                Member::Component { component, .. } => {
                    let Some(c) = self.components.get(*component) else {
                        continue;
                    };
                    borrows = true;
                    let cb = format_ident!("{}Builder", id(c));
                    let cb = match from {
                        Module::Components => quote!(#cb),
                        Module::Messages => quote!(c::#cb),
                    };
                    let cname = self
                        .dict
                        .components()
                        .get(*component)
                        .map_or("?", |c| c.name.as_str());
                    let d = doc(format!("The `{cname}` component."));
                    decls.push(quote!(#d pub #fname: Option<#cb<'b>>));
                    writes.push((u32::MAX, quote!(t::put_component(enc, &self.#fname)?;)));
                }
            }
        }
        if !borrows {
            decls.push(quote! {
                /// Ties the builder's lifetime (leave it `Default`).
                pub _b: ::core::marker::PhantomData<&'b ()>
            });
        }
        if sorted {
            writes.sort_by_key(|(k, _)| *k);
        }
        let enc = if writes.is_empty() {
            quote!(_enc)
        } else {
            quote!(enc)
        };
        let writes = writes.into_iter().map(|(_, w)| w);
        let d = doc(format!(
            "Builds {view_doc}: `new` takes the required fields; set the others with struct update syntax (`..`)."
        ));
        let fill = if inits.is_empty() {
            quote!(Self::default())
        } else {
            quote!(Self { #(#inits,)* ..Self::default() })
        };
        quote! {
            #d
            #[derive(Clone, Copy, Debug, Default)]
            pub struct #bty<'b> { #(#decls,)* }
            impl<'b> #bty<'b> {
                /// A builder with the required fields set.
                pub fn new(#(#args),*) -> Self { #fill }
            }
            impl t::Build for #bty<'_> {
                fn write(&self, #enc: &mut fc::Encoder<'_>) -> Result<(), fc::EncodeError> {
                    #(#writes)*
                    Ok(())
                }
            }
        }
    }

    /// A `t::view!` of `kind` (`block Name`, `entry Name[N]`, `message ...`).
    fn view_text(
        &self,
        head: &str,
        d: &str,
        members: &[Member],
        base: usize,
        from: Module,
    ) -> String {
        let mut out = String::from("t::view! {\n");
        doc_line(&mut out, "    ", d);
        out.push_str("    ");
        out.push_str(head);
        out.push_str(" {\n");
        self.getters(members, base, from, &mut out);
        out.push_str("    }\n}\n");
        out
    }

    /// GroupDecl tables, entry views and entry builders for every group written in
    /// `members` (recursively), owned by module `from`.
    fn groups_in(&self, members: &[Member], from: Module, out: &mut Vec<Part>) {
        for m in members {
            let Member::Group(g) = m else { continue };
            let key = group_key(g);
            let Some(info) = self.groups.get(&key) else {
                continue;
            };
            if !self.group_has_entry(g) {
                continue;
            }
            let mut slots = Vec::new();
            self.flatten(&g.members, true, &mut slots, 0);
            let level = self.level(&slots, from, Walk::Entry);
            let stat = id(&info.stat);
            let counter = Literal::u32_unsuffixed(g.counter);
            let delimiter = Literal::u32_unsuffixed(slots.first().map_or(0, |s| s.tag));
            let gname = self.dict.field(g.counter).map_or("?", |f| f.name.as_str());
            let ds = doc(format!("The `{gname}` ({}) group's table.", g.counter));
            out.push(Part::Tokens(quote! {
                #ds
                pub static #stat: t::Group = t::Group {
                    name: #gname, counter: #counter, delimiter: #delimiter, entry: #level,
                };
            }));
            let dv = format!("One entry of the `{gname}` ({}) group.", g.counter);
            let ty = id(&info.ty);
            out.push(Part::Text(self.view_text(
                &format!("entry {ty}[{}]", info.len),
                &dv,
                &g.members,
                0,
                from,
            )));
            if self.builders {
                out.push(Part::Text(self.builder_text(
                    &format!("{ty}Builder"),
                    &format!("one `{gname}` entry"),
                    &g.members,
                    from,
                    None,
                    true,
                )));
            }
            self.groups_in(&g.members, from, out);
        }
    }

    fn components(&self) -> Vec<Part> {
        let mut items = Vec::new();
        let header = &self.dict.header().members;
        let trailer = &self.dict.trailer().members;
        items.push(Part::Text(self.view_text(
            "block Header",
            "The standard header, in every message.",
            header,
            0,
            Module::Components,
        )));
        if self.builders {
            items.push(Part::Tokens(self.header_builder()));
        }
        self.groups_in(header, Module::Components, &mut items);
        items.push(Part::Text(self.view_text(
            "block Trailer",
            "The standard trailer, in every message.",
            trailer,
            0,
            Module::Components,
        )));
        self.groups_in(trailer, Module::Components, &mut items);
        for (c, name) in self.dict.components().iter().zip(&self.components) {
            let ty = id(name);
            items.push(Part::Text(self.view_text(
                &format!("block {ty}"),
                &format!("The `{}` component: a view over the slots it fills in the enclosing message or entry.", c.name),
                &c.members,
                0,
                Module::Components,
            )));
            if self.builders {
                items.push(Part::Text(self.builder_text(
                    &format!("{ty}Builder"),
                    &format!("the `{}` component", c.name),
                    &c.members,
                    Module::Components,
                    None,
                    false,
                )));
            }
            self.groups_in(&c.members, Module::Components, &mut items);
        }
        items
    }

    fn header_builder(&self) -> TokenStream {
        let b = self.builder(
            &id("HeaderBuilder"),
            "the standard header",
            &self.dict.header().members,
            Module::Components,
            &[8, 9, 35, 10],
            true,
            false,
        );
        quote! {
            #b
            impl<'b> HeaderBuilder<'b> {
                /// Starts a message of type `msg_type` in `buf` with BeginString
                /// [`BEGIN_STRING`](super::BEGIN_STRING): writes 8, 9 and 35, then the header
                /// fields in ascending tag order.
                pub fn start<'o>(&self, buf: &'o mut [u8], msg_type: &[u8]) -> Result<fc::Encoder<'o>, fc::EncodeError> {
                    let mut enc = fc::Encoder::new(buf, super::BEGIN_STRING, msg_type);
                    t::Build::write(self, &mut enc)?;
                    Ok(enc)
                }
            }
        }
    }

    fn messages(&self) -> Vec<Part> {
        let mut items = Vec::new();
        let mut header_slots = Vec::new();
        self.flatten(&self.dict.header().members, true, &mut header_slots, 0);
        let mut trailer_slots = Vec::new();
        self.flatten(&self.dict.trailer().members, true, &mut trailer_slots, 0);
        let hlen = header_slots.len();
        let tlen = trailer_slots.len();
        for (m, name) in self.dict.messages().iter().zip(&self.messages) {
            let ty = id(name);
            let stat = id(&screaming(name));
            let mut body = Vec::new();
            self.flatten(&m.members, true, &mut body, 0);
            let body_end = hlen + body.len();
            let total = body_end + tlen;
            let mname = &m.name;
            let mt = bytes_lit(&m.msg_type);
            let admin = m.category == fix_dict::Category::Admin;
            let ds = doc(format!(
                "The body table of `{}` (MsgType `{}`).",
                m.name, m.msg_type
            ));
            // The body's tags are a run of the view's (header, body, trailer), so
            // they are written once.
            let all: Vec<Slot> = header_slots
                .iter()
                .chain(&body)
                .chain(&trailer_slots)
                .cloned()
                .collect();
            let tags = all.iter().map(|s| Literal::u32_unsuffixed(s.tag));
            let (h, b) = (
                Literal::usize_unsuffixed(hlen),
                Literal::usize_unsuffixed(body.len()),
            );
            let body_level = self.level_of(quote!(BODY), &body, Module::Messages, Walk::Message);
            let view_level = self.level_of(quote!(ALL), &all, Module::Messages, Walk::Message);
            items.push(Part::Tokens(quote! {
                #ds
                pub static #stat: t::MessageDef = {
                    const ALL: &[u32] = &[#(#tags),*];
                    const BODY: &[u32] = ALL.split_at(#h).1.split_at(#b).0;
                    t::MessageDef {
                        name: #mname, msg_type: #mt, admin: #admin,
                        body: #body_level,
                        view: #view_level,
                    }
                };
            }));
            let mut head =
                format!("message {ty}[{total}] = {stat}({mt}, {hlen}, {body_end}, {tlen})");
            if self.builders {
                let args = self
                    .builder_args(&m.members, false)
                    .into_iter()
                    .map(|(n, t)| format!("{n}: {t}"))
                    .collect::<Vec<_>>()
                    .join(", ");
                head.push_str(&format!("\n    builder {ty}Builder({args})"));
            }
            let d = format!(
                "`{}` (MsgType `{}`, {}): a read view; getters are `O(1)`.",
                m.name, m.msg_type, m.category
            );
            items.push(Part::Text(self.view_text(
                &head,
                &d,
                &m.members,
                hlen,
                Module::Messages,
            )));
            if self.builders {
                items.push(Part::Text(self.builder_text(
                    &format!("{ty}Builder"),
                    &format!("a `{}`", m.name),
                    &m.members,
                    Module::Messages,
                    Some(&m.msg_type),
                    false,
                )));
            }
            self.groups_in(&m.members, Module::Messages, &mut items);
        }
        items
    }

    fn root(&self, uses: &TokenStream) -> TokenStream {
        let v = self.dict.version();
        let begin = match v.protocol {
            Protocol::Fixt => format!("FIXT.{}.{}", v.major, v.minor),
            Protocol::Fix if v.major >= 5 => "FIXT.1.1".to_string(),
            Protocol::Fix => format!("FIX.{}.{}", v.major, v.minor),
        };
        let begin = bytes_lit(&begin);
        let fields = self.dict.fields().iter().map(|f| {
            let tag = Literal::u32_unsuffixed(f.tag);
            let name = &f.name;
            let tv = Self::type_variant(f.ty);
            let mut values: Vec<&str> = f.values.iter().map(|v| v.value.as_str()).collect();
            values.sort_unstable();
            let values = values.into_iter().map(bytes_lit);
            quote!(t::FieldDef::new(#tag, #name, t::FieldType::#tv, &[#(#values),*]))
        });
        let pairs = self.dict.data_pairs().iter().map(|p| {
            let (l, d) = (
                Literal::u32_unsuffixed(p.length),
                Literal::u32_unsuffixed(p.data),
            );
            quote!(fc::DataFieldPair { length: #l, data: #d })
        });
        // The O(1) tag index covers every tag below this bound (all standard tags,
        // and venue tags in the usual 5000s), a few kilobytes at most.
        const INDEX_LIMIT: u32 = 1 << 13;
        let index_len = self
            .dict
            .fields()
            .iter()
            .map(|f| f.tag)
            .filter(|&t| t < INDEX_LIMIT)
            .max()
            .map_or(0, |t| t as usize + 1);
        let index_len = Literal::usize_unsuffixed(index_len);
        let mut header_slots = Vec::new();
        self.flatten(&self.dict.header().members, true, &mut header_slots, 0);
        let mut trailer_slots = Vec::new();
        self.flatten(&self.dict.trailer().members, true, &mut trailer_slots, 0);
        let header = self.level(&header_slots, Module::Messages, Walk::Message);
        let trailer = self.level(&trailer_slots, Module::Messages, Walk::Message);
        let mut by_type: Vec<(&str, &String)> = self
            .dict
            .messages()
            .iter()
            .zip(&self.messages)
            .map(|(m, n)| (m.msg_type.as_str(), n))
            .collect();
        by_type.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let defs = by_type.iter().map(|(_, n)| {
            let s = id(&screaming(n));
            quote!(&messages::#s)
        });
        let variants: Vec<Ident> = self.messages.iter().map(|n| id(n)).collect();
        let variant_docs = self
            .dict
            .messages()
            .iter()
            .map(|m| doc(format!("`{}` (MsgType `{}`).", m.name, m.msg_type)));
        let arms = self.dict.messages().iter().zip(&variants).map(|(m, v)| {
            let mt = bytes_lit(&m.msg_type);
            quote!(#mt => Self::#v(messages::#v::new(msg)))
        });
        let msg_arms = variants.iter().map(|v| quote!(Self::#v(m) => m.message()));
        let source = format!(
            "Typed messages for {} (generated from the dictionary by `fix-codegen`).",
            v
        );
        quote! {
            #![doc = #source]
            #![allow(clippy::too_many_arguments, clippy::large_enum_variant, clippy::needless_lifetimes, clippy::match_single_binding, clippy::needless_update, clippy::new_without_default, non_camel_case_types, non_snake_case, non_upper_case_globals, unused_imports, dead_code)]
            #uses
            use self::{components as c, enums as e, messages as m};
            pub mod components;
            pub mod enums;
            pub mod fields;
            pub mod messages;

            /// BeginString (8) of this dictionary's messages.
            pub const BEGIN_STRING: &[u8] = #begin;

            /// Every field, sorted by tag, with its listed values.
            pub static FIELDS: &[t::FieldDef] = &[#(#fields),*];

            /// The LENGTH/DATA pairs.
            pub static DATA_FIELD_PAIRS: &[fc::DataFieldPair] = &[#(#pairs),*];

            /// The data fields, for `fix_core::Parser::with_data_fields`.
            pub static DATA_FIELDS: fc::DataFields<'static> = fc::DataFields::new(DATA_FIELD_PAIRS);

            /// The header's slots.
            pub static HEADER: t::Level = #header;

            /// The trailer's slots.
            pub static TRAILER: t::Level = #trailer;

            /// Every message's table, sorted by MsgType.
            pub static MESSAGES: &[&t::MessageDef] = &[#(#defs),*];

            /// The whole dictionary, for validation.
            pub static DICTIONARY: t::Tables = t::Tables {
                begin_string: BEGIN_STRING,
                fields: FIELDS,
                messages: MESSAGES,
                header: &HEADER,
                trailer: &TRAILER,
                data_fields: fc::DataFields::new(DATA_FIELD_PAIRS),
                by_tag: &t::field_index::<#index_len>(FIELDS),
            };

            /// Any message of this dictionary, by MsgType.
            #[derive(Clone, Copy, Debug)]
            #[non_exhaustive]
            pub enum Message<'a> {
                #(#variant_docs #variants(messages::#variants<'a>),)*
                /// A MsgType the dictionary does not define.
                Unknown(fc::Message<'a>),
            }

            impl<'a> Message<'a> {
                /// Dispatches on MsgType and reads the message (one pass over its fields).
                pub fn new(msg: fc::Message<'a>) -> Self {
                    match msg.msg_type() {
                        #(#arms,)*
                        _ => Self::Unknown(msg),
                    }
                }

                /// The underlying message.
                pub fn message(&self) -> &fc::Message<'a> {
                    match self {
                        #(#msg_arms,)*
                        Self::Unknown(m) => m,
                    }
                }
            }
        }
    }
}

/// The bucket count of a level's `fix_core::typed::hash_index`: a power of two at
/// least twice the slot count, so that a miss (a header probe for every body tag)
/// ends at an empty bucket after one or two probes. `None` (binary search instead)
/// for an empty level or one a bucket cannot describe.
fn index_buckets(slots: &[Slot]) -> Option<usize> {
    use fix_core::typed::{INDEX_SLOT_LIMIT, INDEX_TAG_LIMIT};
    let fits = slots.len() < INDEX_SLOT_LIMIT && slots.iter().all(|s| s.tag < INDEX_TAG_LIMIT);
    (!slots.is_empty() && fits).then(|| (slots.len() * 2).next_power_of_two())
}

/// Method names of views that getters must not take.
const RESERVED: &[&str] = &[
    "b", "message", "new", "header", "trailer", "builder", "from",
];
/// Method names of builders that setters must not take.
const RESERVED_BUILDER: &[&str] = &["new", "write", "encode", "start"];
