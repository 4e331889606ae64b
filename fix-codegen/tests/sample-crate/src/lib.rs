//! Typed messages for `fix-codegen/tests/dicts/sample.xml`, a small dictionary with
//! every shape the emitter handles (enums of each kind, components in components,
//! components and groups inside groups, nested groups, data pairs, a header group).
//!
//! `src/generated/` is written by `cargo xtask regen`; the tests exercise it at run
//! time: build with the builders, parse with `fix_core::Parser`, read back through
//! the views.

#[rustfmt::skip]
mod generated;

pub use generated::*;
