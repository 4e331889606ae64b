//! Sequence numbers an operator sets on a running engine's live sessions
//! (fix-engine's `SessionHandle::set_next_seq_nums`) are what the built
//! `fixstore` shows in the store afterwards, the Logout exchanged with them.

use std::process::Command;
use std::time::Duration;

use fix_engine::Engine;
use fix_engine::config::{Schedule, SessionBuilder, Settings};
use fix_session::{SessionId, State};
use fix_test_support::temp_dir::TestDir;

#[test]
fn fixstore_shows_the_numbers_set_on_a_live_session() {
    let dir = TestDir::new("cli-engine-admin");
    let venue_id = SessionId::new("FIX.4.4", "VENUE", "CLIENT");
    let client_id = SessionId::new("FIX.4.4", "CLIENT", "VENUE");
    let acceptor = SessionBuilder::acceptor(venue_id.clone())
        .socket_accept_address("127.0.0.1")
        // Port 0: the engine binds a port once and says which (a port picked
        // by binding and dropping a socket could be taken before the bind).
        .socket_accept_port(0)
        .schedule(Schedule::non_stop())
        .file_store_path(dir.join("venue"))
        .build()
        .unwrap();
    struct App;
    impl fix_session::Application for App {}
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let venue = Engine::start(
            Settings::new([acceptor]).unwrap(),
            &fix44::DICTIONARY,
            |_, _| App,
        )
        .await
        .unwrap();
        let port = venue.local_addrs()[0].port();
        let initiator = SessionBuilder::initiator(client_id.clone())
            .heart_bt_int(30)
            .socket_connect("127.0.0.1", port)
            .schedule(Schedule::non_stop())
            .file_store_path(dir.join("client"))
            .build()
            .unwrap();
        let client = Engine::start(
            Settings::new([initiator]).unwrap(),
            &fix44::DICTIONARY,
            |_, _| App,
        )
        .await
        .unwrap();
        let (v, c) = (
            venue.session(&venue_id).unwrap(),
            client.session(&client_id).unwrap(),
        );
        for h in [&v, &c] {
            tokio::time::timeout(Duration::from_secs(10), h.wait_for(State::LoggedOn))
                .await
                .unwrap();
        }
        v.set_next_seq_nums(Some(100), Some(50)).await.unwrap();
        c.set_next_seq_nums(Some(50), Some(100)).await.unwrap();
        // The client's Logout goes as 50, the venue's answer as 100: both
        // in sequence, the Logout exchanged.
        client.shutdown(Duration::from_secs(5)).await.unwrap();
        venue.shutdown(Duration::from_secs(5)).await.unwrap();
    });
    for (store, id, next) in [
        (
            "venue",
            "FIX.4.4-VENUE-CLIENT",
            "next      sender 101, target 51",
        ),
        (
            "client",
            "FIX.4.4-CLIENT-VENUE",
            "next      sender 51, target 101",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_fixstore"))
            .args(["verify", "--session", id])
            .arg(dir.join(store))
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            out.status.success(),
            "{text}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(text.contains(next), "{next:?} in\n{text}");
    }
}
