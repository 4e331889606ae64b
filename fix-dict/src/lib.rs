//! QuickFIX XML data dictionaries, read, checked and served at run time.
//!
//! The layers (see `STYLE.md`, after prost-build):
//!
//! - [`xml`] reads a dictionary file into a raw [`xml::Document`] tree,
//!   keeping every element's position; malformed XML is one fatal
//!   [`Diagnostic`] naming file, line, column and element.
//! - [`resolve`] resolves names, expands components, nests groups, finds
//!   length/data pairs and validates everything, reporting *every* problem;
//!   the resulting [`Dictionary`] answers the run-time questions a validator
//!   and a log decoder ask in `O(1)`, and is fix-core's validation
//!   [`Schema`](fix_core::validate::Schema).
//!
//! `fix-codegen` generates typed Rust from the same [`Dictionary`]; tools and
//! engines that only read a venue's XML at run time depend on this crate alone
//! (fix-core and quick-xml).
//!
//! Invariants:
//!
//! - **Reading never panics.** Malformed XML is one fatal [`Diagnostic`];
//!   a malformed dictionary is a list of them ([`resolve`] always returns a
//!   best-effort dictionary plus every diagnostic). There is no `unsafe` code.
//! - **Every diagnostic has a place**: file, 1-based line and column of the
//!   element's `<`, the element and its `name`.
//! - **Deterministic**: definitions keep dictionary order, fields are sorted
//!   by tag, enum values by wire value, diagnostics by position.
//! - **Reference quirks are warnings, with reasons**: INT-typed group
//!   counters (FIX 4.0–4.3, before NUMINGROUP existed) and a tag repeated at
//!   one level (FIX43, FIX50) — see [`DiagnosticKind`].
//!
//! # The dictionary
//!
//! [`resolve`] turns a raw [`xml::Document`] into a
//! [`Dictionary`], collecting every problem as a [`Diagnostic`] (it never
//! stops at the first, and never panics). [`Dictionary::from_xml`] and
//! [`Dictionary::from_path`] read and resolve in one call and fail when any
//! diagnostic is an error; warnings stay available on the dictionary.
//!
//! The dictionary keeps two views of every message, component, group, header
//! and trailer:
//!
//! - the tree of [`Member`]s as written (components referenced, not
//!   expanded), for the emitter's shared component views;
//! - a flattened [`Layout`] (components expanded, groups nested) for
//!   validation: "is tag T allowed here", "which tags are required", "is T a
//!   group counter, and what is the group's delimiter and entry layout".
//!
//! Lookups are `O(1)`: a dense table by tag (binary search only past tag
//! 65535), hash tables for names, MsgTypes and each layout level.
//!
//! ```
//! use fix_dict::{Category, Dictionary, FieldType};
//!
//! let dict = Dictionary::from_xml("mini.xml", r#"
//! <fix type="FIX" major="4" minor="4" servicepack="0">
//!   <header><field name="MsgType" required="Y"/></header>
//!   <trailer/>
//!   <messages>
//!     <message name="NewOrderSingle" msgtype="D" msgcat="app">
//!       <field name="ClOrdID" required="Y"/>
//!       <component name="Parties" required="N"/>
//!       <field name="Side" required="Y"/>
//!     </message>
//!   </messages>
//!   <components>
//!     <component name="Parties">
//!       <group name="NoPartyIDs" required="N">
//!         <field name="PartyID" required="N"/>
//!         <field name="PartyRole" required="N"/>
//!       </group>
//!     </component>
//!   </components>
//!   <fields>
//!     <field number="11" name="ClOrdID" type="STRING"/>
//!     <field number="35" name="MsgType" type="STRING"/>
//!     <field number="54" name="Side" type="CHAR">
//!       <value enum="1" description="BUY"/>
//!       <value enum="2" description="SELL"/>
//!     </field>
//!     <field number="448" name="PartyID" type="STRING"/>
//!     <field number="452" name="PartyRole" type="INT"/>
//!     <field number="453" name="NoPartyIDs" type="NUMINGROUP"/>
//!   </fields>
//! </fix>"#).unwrap();
//!
//! assert_eq!(dict.version().to_string(), "FIX.4.4");
//! assert_eq!(dict.field_type(54), Some(FieldType::Char));
//! assert_eq!(dict.field_by_name("Side").map(|f| f.tag), Some(54));
//! assert_eq!(dict.value_allowed(54, b"2"), Some(true));
//! assert_eq!(dict.value_allowed(54, b"9"), Some(false));
//! assert!(dict.is_header_tag(35));
//!
//! let nos = dict.message(b"D").unwrap();
//! assert_eq!(nos.category, Category::App);
//! let body = nos.layout();
//! assert!(body.contains(11) && body.contains(453) && !body.contains(448));
//! assert_eq!(body.required_tags().collect::<Vec<_>>(), [11, 54]);
//! let parties = body.group(453).unwrap();
//! assert_eq!((parties.delimiter, parties.entry.tags().collect::<Vec<_>>()), (448, vec![448, 452]));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod diagnostic;
mod dictionary;
pub mod xml;

pub use diagnostic::{Diagnostic, DiagnosticKind, Diagnostics, Pos, Severity};
pub use dictionary::*;

/// docs/parsing.md's Rust snippets (parsing, encoding, validating with this
/// crate and with fix44's tables, typed messages), compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../docs/parsing.md")]
pub struct DocsParsingDoctests;
