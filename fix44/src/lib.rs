//! Typed FIX 4.4 messages, generated from `spec/FIX44.xml` by `cargo xtask regen`.
//!
//! The generated modules arrive with the fix44 issue. Until then the crate
//! re-exports `fix-core`, the layer every generated view is built on.

pub use fix_core as core;
