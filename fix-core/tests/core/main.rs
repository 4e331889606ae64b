//! fix-core's integration tests, one binary (one link of fix-core and its
//! dev-dependencies instead of one per file): framing and parsing, the
//! encoder, the value types, the validator and the typed views. A module per
//! former test file; the tests keep their names under the module's path
//! (`cargo test -p fix-core --test core encode::`).
//!
//! The two tests that install a counting global allocator stay binaries of
//! their own: `tests/alloc.rs` and `tests/values_alloc.rs`.

#[path = "../common/mod.rs"]
mod common;

mod corpus;
mod decimal_diff;
mod decimal_ops;
mod encode;
mod formats;
mod malformed;
mod properties;
mod time_text;
mod typed;
mod validate;
mod values_prop;
