//! QuickFIX's server acceptance suite, as every runner of it reads it
//! (feature `acceptance`): the `.def` scripts and their steps ([`script`]),
//! the sessions QuickFIX's test acceptor has for each directory
//! ([`profiles`]), its echoing application ([`echo`]), and the report with
//! the ratchet it is checked against ([`suite`]). fix-session runs the
//! scripts in memory against a `Session`, fix-engine over TCP against an
//! `Engine`; both build the same report.
//!
//! ```no_run
//! use fix_test_support::acceptance::{script, suite};
//! let formats = suite::formats();
//! for (name, text) in suite::scripts("fix44") {
//!     let steps = script::parse(&text).unwrap();
//!     println!("{name}: {} steps", steps.len());
//! }
//! # let _ = formats;
//! ```

pub mod echo;
pub mod profiles;
pub mod script;
pub mod suite;
