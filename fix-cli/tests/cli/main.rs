//! fix-cli's integration tests, one binary (one link of the tools' crate and its
//! dependencies, fix-engine and the PostgreSQL store among them, instead of one
//! per file): each tool run as built (fixdump, fixcfg, fixadmin, fixstore
//! --postgres, `--help` of every tool) and the engine's logs and admin
//! socket seen through them. A module per former test file; the tests keep
//! their names under the module's path (`cargo test -p fix-cli --test cli
//! fixcfg::`).
//!
//! Binaries of their own, each for a reason a shared process would break:
//! `tests/fixstore.rs` reopens and locks file stores it has just dropped,
//! serialised among its own tests only: a child another test spawns keeps a
//! copy of a store's lock (an `flock`) between its fork and its exec, and
//! `tests/memory.rs` compares fixdump's peak RSS with its own process's, which
//! every other test of a shared process would raise.

mod cli;
mod engine_admin;
mod engine_log;
mod fixadmin;
mod fixcfg;
mod fixcfg_connect;
mod fixstore_postgres;
mod tools;
