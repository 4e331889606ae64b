//! fix-engine's integration tests that run other programs, one binary (one
//! link of the engine and its dependencies instead of four): TLS (certificate
//! authorities and certificates, mutual TLS, encrypted keys made by the
//! `openssl` and `keytool` commands, the system's authorities in a child run
//! of this binary) and the PostgreSQL store (a private server per test, made
//! and driven by `initdb`, `pg_ctl` and `psql`: the start error, a restart
//! under load, sessions spread over engines). A module per former test file;
//! the tests keep their names under the module's path (`cargo test -p
//! fix-engine --test processes tls::`).
//!
//! Apart from `tests/engine/`, whose tests reopen file stores they have just
//! let go: a child forked here while a test there holds a store's lock (an
//! `flock`) would keep a copy of it until it execs. None of the tests here
//! reopens a file store. `tls::an_initiator_without_a_ca_file_trusts_the_
//! system_s_authorities` runs this binary again with that test's full name
//! (`--exact`, its module's path included) and SSL_CERT_FILE set for the
//! child alone.

#[path = "../common/mod.rs"]
mod common;

mod pg_restart;
mod pg_start;
mod spread;
mod tls;
