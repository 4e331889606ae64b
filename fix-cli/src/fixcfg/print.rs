//! How `fixcfg check` shows one session: its role, schedule, store, log,
//! TLS and the other settings the engine acts on, then each file it names
//! as opening it found.

use fix_engine::config::{QueuedAge, SessionSettings, Transport, check_files, hide_password};

/// Prints one session; whether a file it names failed to open.
pub(crate) fn session(what: &str, s: &SessionSettings) -> bool {
    println!();
    println!("{what} {}", s.session.id);
    match &s.transport {
        Transport::Acceptor(a) => println!(
            "  role: acceptor on {}:{}{}",
            a.address.as_deref().unwrap_or("*"),
            a.port,
            if s.reuse_address {
                ""
            } else {
                " (no SO_REUSEADDR)"
            }
        ),
        Transport::Initiator(i) => {
            let endpoints: Vec<String> = i.endpoints.iter().map(ToString::to_string).collect();
            println!(
                "  role: initiator to {} (HeartBtInt {} s, ReconnectInterval {} s)",
                endpoints.join(", then "),
                s.session.heart_bt_int,
                i.reconnect_interval.as_secs()
            );
        }
    }
    println!("  schedule: {}", s.schedule);
    match (&s.store_path, &s.postgres_store) {
        (_, Some(pg)) => println!(
            "  store: PostgreSQL at {} (one commit a batch; lease {} s as {}{})",
            hide_password(&pg.connection),
            pg.lease.as_secs(),
            pg.node.as_deref().unwrap_or("this host and process"),
            pg.max_sessions
                .map_or(String::new(), |k| format!(", at most {k} sessions"))
        ),
        (Some(dir), None) => println!(
            "  store: file store in {} ({})",
            dir.display(),
            sync_policy(s.store_options.sync_policy())
        ),
        (None, None) => println!("  store: memory (no FileStorePath: nothing survives a restart)"),
    }
    match &s.log_path {
        Some(dir) => println!("  log: {}", dir.display()),
        None => println!("  log: none"),
    }
    if let Some(screen) = &s.screen_log {
        let shown: Vec<&str> = [
            (screen.shows_incoming(), "incoming"),
            (screen.shows_outgoing(), "outgoing"),
            (screen.shows_events(), "events"),
            (screen.shows_heartbeats(), "heartbeats"),
        ]
        .into_iter()
        .filter_map(|(on, what)| on.then_some(what))
        .collect();
        println!("  screen log: standard output ({})", shown.join(", "));
    }
    let ids: Vec<String> = s
        .session
        .sub_ids
        .fields()
        .map(|(tag, v)| format!("{tag}={v}"))
        .collect();
    if !ids.is_empty() {
        println!("  sub IDs on every message: {}", ids.join(" "));
    }
    if s.session.on_error != fix_session::OnError::Reject {
        println!("  on an error: {:?}", s.session.on_error);
    }
    if let Some(rate) = s.session.max_app_messages_per_sec {
        println!(
            "  throttle: at most {rate} application messages a second (admin messages and resends never held back)"
        );
    }
    if s.session.refresh_on_logon {
        println!("  refresh on logon: on (a file store opens as a standby)");
    }
    match &s.tls {
        Some(tls) => println!("  tls: on, client certificates {:?}", tls.client_auth),
        None => println!("  tls: off"),
    }
    match &s.session.validator {
        Some(_) => println!("  validation: on"),
        None => println!("  validation: off (UseDataDictionary=N)"),
    }
    if let Some(limit) = s.connect_timeout {
        println!("  connect timeout: {} s", limit.as_secs());
    }
    // Only the session's own: without them, the engine's options decide.
    match s.max_queued_age {
        QueuedAge::Within(age) => println!("  queued messages dropped after: {} s", age.as_secs()),
        QueuedAge::Unlimited => println!("  queued messages dropped after: never (no age limit)"),
        QueuedAge::Engine => {}
    }
    if let Some(q) = s.queued_while_down {
        println!("  queued when a connection ends: {q:?}");
    }
    if !s.logon_fields.is_empty() {
        let fields: Vec<String> = s
            .logon_fields
            .iter()
            .map(|(tag, value)| format!("{tag}={value}"))
            .collect();
        println!("  logon fields: {}", fields.join(" "));
    }
    if let Some(allowed) = &s.allowed_remote_addresses {
        println!("  connections only from: {}", allowed.join(", "));
    }
    let mut failed = false;
    for c in check_files(s) {
        failed |= c.result.is_err();
        println!("  {c}");
    }
    failed
}

/// What the engine does with the store's sync policy, in words.
fn sync_policy(policy: fix_session::SyncPolicy) -> String {
    use fix_session::SyncPolicy;
    match policy {
        // The engine runs FileStoreSync=Y as group commit.
        SyncPolicy::EveryRecord | SyncPolicy::Batch => {
            "FileStoreSync=Y: each message durable before it is sent, one sync a batch".to_owned()
        }
        SyncPolicy::Interval(every) => format!("synced every {every:?}"),
        SyncPolicy::Os => "FileStoreSync=N: synced by the system".to_owned(),
    }
}
