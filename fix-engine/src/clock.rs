//! The engine's two clocks, read together for every session input: the wall
//! clock (SendingTime, logs, schedules) and the monotonic clock every session
//! deadline runs on, counted from the engine process's first reading.
//!
//! The monotonic clock is tokio's, as every timer of the engine is: a test
//! on a runtime whose time is paused (`#[tokio::test(start_paused = true)]`,
//! tokio's `test-util` feature) runs the engine's heartbeats, timeouts and
//! reconnect pauses in virtual time, without sleeping. Without `test-util`,
//! tokio's clock is the system's monotonic clock.

use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

use fix_session::Time;
use tokio::time::Instant;

/// The monotonic clock's origin: the first time it was read.
fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// Now, on both clocks.
pub(crate) fn now() -> Time {
    Time::new(SystemTime::now(), mono())
}

/// Now, on the monotonic clock alone (what a queued message is stamped with).
/// A runtime whose paused clock began before the process's first reading
/// (another test's) reads zero until its clock passes it.
pub(crate) fn mono() -> Duration {
    Instant::now().saturating_duration_since(origin())
}

/// The instant a session deadline (its monotonic reading) falls at.
pub(crate) fn instant_of(t: Time) -> Instant {
    origin().checked_add(t.mono).unwrap_or_else(Instant::now)
}
