//! What fix-cli's tools share: fixdump's log scanner ([`scan`]: messages
//! found in a bounded buffer, from raw SOH streams, prefixed log lines and
//! `|`- or `^A`-delimited text) and its writer ([`render`]: a message as
//! text or JSON, with names, enum meanings and groups from a dictionary).
//! fixdump and fixstore use both; the fuzz target `scan` runs the scanner.
//!
//! ```
//! use fix_cli::scan::{Decoded, Sink};
//! struct Count(usize);
//! impl Sink for Count {
//!     fn message(&mut self, _: &Decoded<'_>) -> std::io::Result<()> {
//!         self.0 += 1;
//!         Ok(())
//!     }
//! }
//! let _ = Count(0);
//! ```

pub mod render;
pub mod scan;
