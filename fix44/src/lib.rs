//! Typed FIX 4.4 messages, generated from `spec/FIX44.xml` by `cargo xtask regen`.
//!
//! Everything below the crate root comes from `src/generated/` (never edit it:
//! change `spec/FIX44.xml` or `fix-codegen` and run `cargo xtask regen`):
//! `messages` (read views, tables, builders), `components`, `enums`, `fields`
//! (tag constants), the [`Message`] enum and the validation tables
//! ([`DICTIONARY`]).

pub use fix_core as core;

#[rustfmt::skip]
mod generated;

pub use generated::*;

/// README's Rust snippets, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
