//! fix-engine's integration tests that share a process safely, one binary (one
//! link of the engine and its dependencies, tokio, rustls and the PostgreSQL
//! store among them, instead of one per file): engines on loopback (sessions,
//! timers, operators' commands, `send_now` and `send_tracked`, socket
//! settings, throttling, the message log, QuickFIX's session keys, the memory
//! budget, the examples) and the settings files (keys, schedules, QuickFIX
//! users' files, docs/settings.md's table). A module per former test file;
//! the tests keep their names under the module's path (`cargo test -p
//! fix-engine --test engine throttle::`).
//!
//! Binaries of their own, each for a reason a shared process would break:
//!
//! - `tests/processes/` (TLS and the PostgreSQL store) runs other programs
//!   (openssl, keytool, PostgreSQL's servers, its own binary): a child
//!   forked while a test here holds a file store's lock (an `flock`) keeps a
//!   copy of it until it execs, so a test here reopening a store it has just
//!   let go could find it in use;
//! - `tests/alloc.rs` and `tests/log_alloc.rs` install a counting global
//!   allocator;
//! - `tests/crash.rs`, `tests/failover.rs` and `tests/power_loss.rs` run
//!   their own binary again as a child (killed, stopped, or traced by
//!   `strace`), and crash and failover hold their timings (kill points, a
//!   lease's expiry) against other tests' load;
//! - `tests/hostile.rs` bounds its own process's resident memory and counts
//!   panics with a process-wide hook; `tests/metrics.rs` installs the
//!   process's one metrics recorder, which every engine here would report
//!   to;
//! - `tests/acceptance.rs` runs QuickFIX's scripts over TCP, forty at a time
//!   in each of its two tests, each an engine on the real clock waiting for
//!   heartbeats and test requests: beside the tests here each would slow
//!   the other;
//! - `tests/tls_off.rs` is built without the `tls` feature (`.ci/run`).

#[path = "../common/mod.rs"]
mod common;

mod engine;
mod examples;
mod held;
mod log_agrees;
mod operator;
mod quickfix_keys;
mod quickfix_samples;
mod readme_keys;
mod schedule;
mod send_now;
mod send_tracked;
mod settings;
mod socket_settings;
mod throttle;
