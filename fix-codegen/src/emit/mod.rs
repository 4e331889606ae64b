//! The emitter: a [`Dictionary`] to Rust source over `fix_core::typed`.
//!
//! [`generate`] is pure (no I/O): it returns the files of one generated module,
//! keyed by their path relative to the module's directory. [`write`] is the thin
//! layer that touches only files whose contents changed, or, in check mode, lists
//! the stale ones.
//!
//! Every file is built with `quote`, parsed by `syn` and printed by `prettyplease`
//! (exact versions pinned); no code is assembled as text. prettyplease prints items
//! one member per line but a macro invocation's tokens as running text, so the
//! generated code is items whose members are short invocations of
//! `fix_core::typed`'s declarative macros, invoked by path (`t::build!`: a path
//! resolves directly, where a bare name walks the textual macro scope): a view is
//! `block!`/`entry!`/`message!` and an `impl` of one getter per member, a plain
//! `#[inline]` function (a field's value, a group's entries, a component's view;
//! see `view.rs`); a builder is its struct, one field per line, and `build!` (the write order
//! and tags, the fields `new` takes, `encode` given the header builder's type); an
//! enum is its variants and `char_enum!`/`bytes_enum!` (their wire values); a tag is
//! a plain constant, its doc naming its getters' type from the same map as the
//! getters (`Cx::value_type`). The expansions are written once in fix-core (every function `#[inline]`,
//! so a generated crate compiles only what its users call). The output is
//! deterministic: definitions come in dictionary order, tables sorted, no
//! timestamps and no absolute paths.
//!
//! # What is generated
//!
//! Five files, one module (`mod.rs` declares the others):
//!
//! | file | contents |
//! |---|---|
//! | `fields.rs` | a tag constant per field (`CL_ORD_ID: u32 = 11`), documented with its FIX name, type and the Rust type of its getters |
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
//!   for groups, component builders for components) with `Default`. A builder with
//!   required members has a struct of them, `XRequired` (a group entry's first
//!   member, which starts it on the wire, among them; a required component only
//!   when it holds a required field), which `new` (and a message view's `builder`)
//!   takes, so a call site names each one; the rest is set with struct update
//!   syntax. `encode(&header, &mut buf)` writes 8, 9, 35, the header fields in
//!   ascending tag order, the body in dictionary order, and CheckSum through
//!   `fix_core::Encoder`, without allocating, and refuses a required field left
//!   unset (`EncodeError::MissingRequired` naming the tag; inside a component or
//!   entry that is set too), checked as it is written.
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
//!     price: Some(px),
//!     ..NewOrderSingle::builder(NewOrderSingleRequired {
//!         cl_ord_id,
//!         instrument: InstrumentBuilder::new(InstrumentRequired { symbol }),
//!         side: Side::Buy,
//!         transact_time,
//!         ord_type: OrdType::Limit,
//!     })
//! };
//! let header = HeaderBuilder::new(HeaderRequired {
//!     sender_comp_id, target_comp_id, msg_seq_num, sending_time,
//! });
//! let bytes = order.encode(&header, &mut buf)?;
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
//! assert!(messages.contains("message!(\n    Heartbeat,"));
//! assert!(messages.contains("pub fn test_req_id(&self) -> t::Opt<v::FixStr<'a>>"));
//! ```
//!
//! # Modules
//!
//! `context` is what is known before writing (names, group ids, slots, value
//! types), `names` the identifiers and literals, `level` the `t::Level` tables,
//! `view` the getters, `builder` the builders, `groups` a group's table, entry view
//! and entry builder; `fields`, `enums`, `components`, `messages` and `root` each
//! build one generated file.

mod builder;
mod components;
mod context;
mod enums;
mod fields;
mod groups;
mod level;
mod messages;
mod names;
mod root;
mod view;

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use proc_macro2::TokenStream;
use quote::quote;

use context::Cx;
use fix_dict::Dictionary;

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
    /// Messages (by FIX name) with a hand-written example in the generated crate's
    /// `doc/<Name>.md`, which their view's docs include (default none).
    pub examples: Vec<String>,
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
            examples: Vec::new(),
        }
    }

    /// Sets the messages whose view docs include `doc/<Name>.md` of the generated
    /// crate (its root, beside `src/`): runnable examples, as doctests of that crate.
    ///
    /// ```
    /// let c = fix_codegen::emit::Config::new("X.xml").examples(["NewOrderSingle"]);
    /// assert_eq!(c.examples, ["NewOrderSingle"]);
    /// ```
    pub fn examples<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.examples = names.into_iter().map(Into::into).collect();
        self.examples.sort();
        self
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
    cx.examples = config.examples.clone();
    let header = format!(
        "// @generated by cargo xtask regen from {} — do not edit\n",
        config.source
    );
    // (file, its doc, its items)
    type FileItems<'c> = (
        &'static str,
        Option<&'static str>,
        fn(&Cx<'c>, &TokenStream) -> Vec<TokenStream>,
    );
    let files: [FileItems<'_>; 5] = [
        ("mod.rs", None, |cx, uses| vec![cx.root(uses)]),
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
        let handles: Vec<_> = files
            .iter()
            .map(|&(name, doc, build)| {
                let (cx, header, fc) = (&cx, &header, config.fix_core.as_str());
                scope.spawn(move || {
                    let fc: syn::Path =
                        syn::parse_str(fc).map_err(|e| EmitError::Config(e.to_string()))?;
                    let uses = quote! { use #fc::{self as fc, typed as t, value as v}; };
                    let mut tokens = TokenStream::new();
                    if let Some(d) = doc {
                        tokens.extend(quote! {
                            #![doc = #d]
                            #uses
                            use super::{components as c, enums as e, messages as m};
                        });
                    }
                    tokens.extend(build(cx, &uses));
                    let file: syn::File = syn::parse2(tokens)
                        .map_err(|e| EmitError::Syntax(name.to_string(), e.to_string()))?;
                    let mut text = header.clone();
                    text.push_str(&prettyplease::unparse(&file));
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
/// # let dir = fix_test_support::temp_dir::TestDir::new("codegen-write-doc");
/// let files = BTreeMap::from([(PathBuf::from("a.rs"), "// a\n".to_string())]);
/// let stale = fix_codegen::emit::write(&dir, &files, true)?;
/// assert_eq!(stale, [dir.join("a.rs")]);
/// assert_eq!(fix_codegen::emit::write(&dir, &files, false)?.len(), 1);
/// assert!(fix_codegen::emit::write(&dir, &files, true)?.is_empty());
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
