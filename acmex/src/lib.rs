//! Typed FIX messages, generated from `spec/ACMEX.xml` by `cargo xtask regen`.
//!
//! Everything below the crate root comes from `src/generated/` (never edit it:
//! change `spec/ACMEX.xml` and run `cargo xtask regen`): `messages` (read views,
//! tables, builders), `components`, `enums`, `fields` (tag constants), the
//! [`Message`] enum and the validation tables ([`DICTIONARY`]).

pub use fix_core as core;

#[rustfmt::skip]
mod generated;

pub use generated::*;
