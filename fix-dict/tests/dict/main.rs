//! fix-dict's integration tests, one binary (one link of fix-dict and its
//! dev-dependencies instead of one per file): the QuickFIX reference
//! dictionaries read and resolved, robustness of the reader, our
//! spec/FIX44.xml against QuickFIX's, and the run-time validator's answers. A
//! module per former test file; the tests keep their names under the
//! module's path (`cargo test -p fix-dict --test dict spec_fix44 -- --nocapture`).
//!
//! `tests/acceptance.rs` stays a binary of its own: it installs a counting
//! global allocator.

mod reference;
mod robustness;
mod shape_cache;
mod spec_fix44;
mod validate;
