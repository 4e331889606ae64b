//! fix44's integration tests, one binary (one link of the generated crate and
//! its dev-dependencies instead of one per file): the builders and views on
//! the wire, required fields, the slot tables and the dense validation path
//! against the full walk, and fix44 as a user's only dependency. A module per
//! former test file; the tests keep their names under the module's path
//! (`cargo test -p fix44 --test generated wire::`).

mod dense;
mod only_dependency;
mod required;
mod slots;
mod wire;
