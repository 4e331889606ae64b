//! Turns QuickFIX XML data dictionaries into typed Rust over `fix-core`.
//!
//! The reader, model and emitter arrive with the codegen issue; this crate is
//! a workspace member from the start so the layout is fixed.
