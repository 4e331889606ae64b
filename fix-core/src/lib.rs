//! No-alloc, zero-copy FIX tag=value core.
#![no_std]
#[cfg(feature = "std")]
extern crate std;

pub mod value;
