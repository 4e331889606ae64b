//! `fixcfg check [--strict] [--connect] FILE`: loads a settings file exactly as the
//! engine does, opens the dictionaries, certificates and store directories it
//! names, and prints each session (role, schedule, transport, store, log, TLS)
//! and every warning. Exits 0 when the engine would start with the file, 1 on
//! an error (a settings error, or a file that does not open), 2 on a usage
//! error. `--strict` makes every warning (an unknown key, a key passed over)
//! an error, as `Settings::strict` does. `--connect` also reaches what the
//! file names, without trading: each PostgreSQL store's database (logged in
//! to, its tables read) and each acceptor's address and port (bound and
//! released), one line each with the cause of a failure.
//!
//! ```text
//! $ fixcfg check samples/executor.cfg
//! $ fixcfg check --strict samples/executor.cfg
//! $ fixcfg check --connect samples/executor.cfg
//! ```

use std::process::ExitCode;

use fix_engine::config::{
    SessionSettings, Settings, Transport, check_connections, check_files, hide_password,
};

const USAGE: &str = "usage: fixcfg check [--strict] [--connect] FILE

Loads a QuickFIX-style settings file as fix-engine does, opens the
dictionaries, certificates and store directories it names, and prints each
session and every warning. --strict makes every warning an error (an unknown
key, a key passed over). --connect also logs in to each PostgreSQL store's
database (reading its tables' version, writing nothing) and binds each
acceptor's address and port (released at once), without trading.
Exit status: 0 good, 1 an error, 2 usage.";

/// What `check` is asked to do besides loading the file.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    strict: bool,
    connect: bool,
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag] if flag == "-h" || flag == "--help" => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        [command, rest @ ..] if command == "check" => match parse(rest) {
            Some((flags, file)) => check(file, flags),
            None => usage(),
        },
        _ => usage(),
    }
}

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}

/// The flags, each at most once and in any order, and one file.
fn parse(args: &[String]) -> Option<(Flags, &str)> {
    let mut flags = Flags::default();
    let mut file = None;
    for arg in args {
        match arg.as_str() {
            "--strict" if !flags.strict => flags.strict = true,
            "--connect" if !flags.connect => flags.connect = true,
            a if a.starts_with("--") => return None,
            a if file.is_none() => file = Some(a),
            _ => return None,
        }
    }
    Some((flags, file?))
}

fn check(file: &str, flags: Flags) -> ExitCode {
    let strict = flags.strict;
    let settings = match Settings::from_path(file) {
        Ok(settings) => settings,
        Err(e) => {
            println!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{file}: {} session(s), {} acceptor template(s), {} warning(s)",
        settings.sessions().len(),
        settings.templates().len(),
        settings.warnings().len()
    );
    let mut failed = false;
    let all = settings.sessions().iter().map(|s| ("session", s)).chain(
        settings
            .templates()
            .iter()
            .map(|t| ("template", t.settings())),
    );
    for (what, s) in all {
        failed |= session(what, s);
    }
    if !settings.warnings().is_empty() {
        println!();
        for w in settings.warnings() {
            if strict {
                println!("error: {}", w.to_error());
            } else {
                println!("warning: {w}");
            }
        }
        failed |= strict;
    }
    if flags.connect {
        failed |= connect(&settings);
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Prints one session; whether a file it names failed to open.
fn session(what: &str, s: &SessionSettings) -> bool {
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
        Some(Some(age)) => println!("  queued messages dropped after: {} s", age.as_secs()),
        Some(None) => println!("  queued messages dropped after: never (no age limit)"),
        None => {}
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

/// Reaches the databases and ports the settings name (`--connect`); whether
/// any failed. The dictionaries and TLS files were opened already, with each
/// session.
fn connect(settings: &Settings) -> bool {
    println!();
    println!("connect:");
    let mut failed = false;
    for c in check_connections(settings) {
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
