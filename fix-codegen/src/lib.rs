//! Turns QuickFIX XML data dictionaries into typed Rust over `fix-core`, and
//! serves the same dictionaries at run time.
//!
//! The crate is built in layers (see `STYLE.md`, after prost-build):
//!
//! - [`xml`] reads a dictionary file into a raw [`xml::Document`] tree,
//!   keeping every element's position; malformed XML is one fatal
//!   [`Diagnostic`] naming file, line, column and element.
//! - [`model`] resolves names, expands components, nests groups, finds
//!   length/data pairs and validates everything, reporting *every* problem;
//!   the resulting [`model::Dictionary`] answers the run-time questions a
//!   validator asks in `O(1)` or `O(log n)`.
//! - [`ident`] turns FIX names into Rust identifiers.
//! - `emit` (feature `emit`) generates typed, allocation-free Rust over
//!   `fix_core::typed` from a dictionary: a pure `generate` and a `write` that
//!   touches only changed files. `cargo xtask regen` drives it.
//!
//! The reader and model depend only on `quick-xml`; the emitter's dependencies
//! (proc-macro2, quote, syn, prettyplease) come with the `emit` feature.
//!
//! Invariants:
//!
//! - **Reading never panics.** Malformed XML is one fatal [`Diagnostic`];
//!   a malformed dictionary is a list of them ([`model::resolve`] always
//!   returns a best-effort dictionary plus every diagnostic). There is no
//!   `unsafe` code.
//! - **Every diagnostic has a place**: file, 1-based line and column of the
//!   element's `<`, the element and its `name`.
//! - **Deterministic**: definitions keep dictionary order, fields are sorted
//!   by tag, enum values by wire value, diagnostics by position.
//! - **Reference quirks are warnings, with reasons**: INT-typed group
//!   counters (FIX 4.0–4.3, before NUMINGROUP existed) and a tag repeated at
//!   one level (FIX43, FIX50) — see [`DiagnosticKind`].
//!
//! ```
//! use fix_codegen::model::Dictionary;
//!
//! let dict = Dictionary::from_xml("hb.xml", r#"
//! <fix type="FIX" major="4" minor="2">
//!   <messages>
//!     <message name="Heartbeat" msgtype="0" msgcat="admin">
//!       <field name="TestReqID" required="N"/>
//!     </message>
//!   </messages>
//!   <fields><field number="112" name="TestReqID" type="STRING"/></fields>
//! </fix>"#).unwrap();
//! let hb = dict.message(b"0").unwrap();
//! assert!(hb.layout().contains(112));
//! assert_eq!(fix_codegen::ident::snake_case(&hb.name), "heartbeat");
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod diagnostic;
#[cfg(feature = "emit")]
pub mod emit;
pub mod ident;
pub mod model;
pub mod xml;

pub use diagnostic::{Diagnostic, DiagnosticKind, Diagnostics, Pos, Severity};
