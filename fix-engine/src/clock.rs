//! The engine's two clocks, read together for every session input: the wall
//! clock (SendingTime, logs, schedules) and the monotonic clock every session
//! deadline runs on, counted from the engine process's first reading.

use std::sync::OnceLock;
use std::time::{Instant, SystemTime};

use fix_session::Time;

/// The monotonic clock's origin: the first time it was read.
fn origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// Now, on both clocks.
pub(crate) fn now() -> Time {
    let origin = origin();
    Time::new(SystemTime::now(), Instant::now().duration_since(origin))
}

/// Now, on the monotonic clock alone (what a queued message is stamped with).
pub(crate) fn mono() -> std::time::Duration {
    Instant::now().duration_since(origin())
}

/// The instant a session deadline (its monotonic reading) falls at.
pub(crate) fn instant_of(t: Time) -> tokio::time::Instant {
    let at = origin().checked_add(t.mono).unwrap_or_else(Instant::now);
    tokio::time::Instant::from_std(at)
}
