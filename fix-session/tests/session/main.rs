//! fix-session's integration tests, one binary (one link of fix-session and its
//! dev-dependencies, fix44, fix50sp2, acmex and fix-dict among them, instead of
//! one per file): the session rules, the stores, typed messages over pairs of
//! sessions and QuickFIX's acceptance scripts in memory. A module per former
//! test file; the tests keep their names under the module's path
//! (`cargo test -p fix-session --test session throttle::`).
//!
//! Binaries of their own, each for a reason a shared process would break:
//! `tests/alloc.rs` and `tests/session_alloc.rs` install a counting global
//! allocator; `tests/crash.rs` and `tests/shared_log_killed.rs` run this
//! binary again as a child and SIGKILL it: a child forked while another test
//! of the binary holds a store's lock (an `flock`) keeps a copy of it until
//! it execs, so a test here reopening a store could find it in use.

#[path = "../common/mod.rs"]
mod common;

mod acceptance;
mod answers;
mod file;
mod fixt;
mod fixt_typed;
mod group_commit;
mod latency;
mod rules;
mod session;
mod shared_log;
mod suite;
mod throttle;
mod typed;
mod venue_typed;
