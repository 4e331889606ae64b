//! A file log's steady state allocates nothing: messages in both directions
//! (buffer filling and spilling, and one longer than the buffer), events (which
//! flush), explicit flushes, under both flush policies.

use std::time::{Duration, SystemTime};

use fix_engine::log::{FileLog, FileLogOptions, FlushPolicy, Log};
use fix_session::SessionId;
use fix_test_support::alloc::{Counting, allocations_during};
use fix_test_support::temp_dir::TestDir;

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn logging_messages_and_events_allocates_nothing() {
    let dir = TestDir::new("engine-log-alloc");
    let message = b"8=FIX.4.4\x019=5\x0135=0\x0110=163\x01";
    let long = vec![b'x'; 100 * 1024];
    for policy in [FlushPolicy::OnEvent, FlushPolicy::EveryLine] {
        let id = SessionId::new("FIX.4.4", "CLIENT", &format!("{policy:?}"));
        let options = FileLogOptions::new().flush(policy);
        let mut log = FileLog::open_with(&dir, &id, options).unwrap();
        let mut now = SystemTime::now();
        let allocations = allocations_during(|| {
            for i in 0..20_000u32 {
                now += Duration::from_micros(37);
                log.on_outgoing(message, now).unwrap();
                log.on_incoming(message, now).unwrap();
                if i % 1000 == 0 {
                    log.on_event("Sent test request TEST\nagain", now).unwrap();
                }
            }
            log.on_outgoing(&long, now).unwrap();
            log.flush().unwrap();
        });
        assert_eq!(allocations, 0, "{policy:?}");
        let lines = std::fs::read_to_string(log.messages_path())
            .unwrap()
            .lines()
            .count();
        assert_eq!(lines, 40_001);
    }
}
