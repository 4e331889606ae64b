//! What the workspace's tests and benchmarks share, written once: a counting global
//! allocator ([`alloc`]), the shared corpus and reference files beside the
//! repository ([`files`]), a naive reference parser and message builders that
//! the fast code is compared against ([`naive`]), a private PostgreSQL
//! server (`pg`), and directories removed when a test is done with them
//! (`temp_dir`); the last two with the feature `temp-dir`. With the feature
//! `acceptance`, QuickFIX's acceptance suite as its runners read it
//! (`acceptance`: scripts, profiles, the echoing application, the report).
//!
//! Unpublished; a dev-dependency only (and a dependency of the benchmark crate).
//! Without features it depends on no crate of the workspace (only on
//! `tempfile`, for `temp-dir`), so every crate of the workspace can use it;
//! `acceptance` brings fix-core, fix-dict and fix-session (the crates whose
//! tests run the suite turn it on).
//!
//! ```
//! fix_test_support::require_fixture!(fix_test_support::files::corpus_dir());
//! let er = fix_test_support::files::corpus_message("execution_report");
//! let fields = fix_test_support::naive::naive_parse(&er, &[], usize::MAX).unwrap();
//! assert_eq!(fields[2], (35, b"8".to_vec()));
//! ```

#[cfg(feature = "acceptance")]
pub mod acceptance;
pub mod alloc;
pub mod files;
pub mod naive;
#[cfg(feature = "temp-dir")]
pub mod pg;
#[cfg(feature = "temp-dir")]
pub mod temp_dir;
