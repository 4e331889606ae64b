//! Turns QuickFIX XML data dictionaries into typed Rust over `fix-core`.
//!
//! The dictionary is read, checked and resolved by `fix-dict`; this crate adds
//! the two layers on top (see `STYLE.md`, after prost-build):
//!
//! - [`ident`] turns FIX names into Rust identifiers.
//! - [`emit`] generates typed, allocation-free Rust over `fix_core::typed` from a
//!   [`fix_dict::Dictionary`]: a pure [`emit::generate`] and an [`emit::write`]
//!   that touches only changed files. `cargo xtask regen` drives it.
//!
//! ```
//! use fix_dict::Dictionary;
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
//! assert_eq!(fix_codegen::ident::snake_case(&hb.name), "heartbeat");
//! let files = fix_codegen::emit::generate(&dict, &fix_codegen::emit::Config::new("hb.xml")).unwrap();
//! assert!(files[std::path::Path::new("messages.rs")].contains("message!(\n    Heartbeat,"));
//! ```
#![forbid(unsafe_code)]
#![deny(missing_docs)]

pub mod emit;
pub mod ident;
