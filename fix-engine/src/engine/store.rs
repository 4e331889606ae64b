//! The stores the engine opens for its sessions beside the file and memory
//! stores: the shared log of each `FileStorePath` (`FileStoreShared=Y`),
//! whose one sync covers every session of the engine in it; PostgreSQL (the
//! `postgres` feature), whose sessions share the engine's lease budget
//! (`PostgreSQLStoreMaxSessions`) and node name.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fix_session::store::{SharedLog, SharedLogOptions, WeakSharedLog};
use fix_session::{SessionId, StoreError};

use crate::config::PostgresStoreSettings;
use crate::driver::Store;

/// What the sessions' database stores share: one lease budget for the
/// engine, made from the first PostgreSQL session's settings (the limit is
/// a `[DEFAULT]` setting, the same for every session).
#[derive(Debug, Default)]
pub(super) struct Stores {
    #[cfg(feature = "postgres")]
    budget: std::sync::OnceLock<Option<fix_store_postgres::LeaseBudget>>,
    /// The shared logs this engine's sessions opened, for their sync count.
    used: Mutex<Vec<WeakSharedLog>>,
}

/// The shared log of each store directory open in this process: engines of
/// one process with one `FileStorePath` share its log (the log's lock keeps
/// other processes out), and a log closes with its last session.
static SHARED_LOGS: Mutex<Option<HashMap<PathBuf, WeakSharedLog>>> = Mutex::new(None);

/// The shared log's directory in a `FileStorePath`.
pub(crate) fn shared_log_dir(store_path: &Path) -> PathBuf {
    store_path.join(fix_session::store::SHARED_LOG_DIR)
}

impl Stores {
    /// Opens `id`'s store in the shared log of `dir`. A session that has a
    /// log of its own there (`FileStoreShared=N` before) and none in the
    /// shared log is refused: starting it afresh would reuse its numbers.
    pub(super) fn open_shared(
        &self,
        dir: &Path,
        id: &SessionId,
        standby: bool,
    ) -> Result<Store, StoreError> {
        if standby {
            return Ok(Box::new(Standby::new(dir, id)));
        }
        let log = shared_log(dir)?;
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if !used
            .iter()
            .any(|w| w.upgrade().is_some_and(|l| l.dir() == log.dir()))
        {
            used.push(log.downgrade());
        }
        drop(used);
        let name = id.store_name();
        if !log.contains(&name)
            && fix_session::store::file_sessions(dir).is_ok_and(|s| s.contains(&name))
        {
            return Err(StoreError::InvalidSessionId {
                id: name,
                reason: "the session has a store of its own in FileStorePath (FileStoreShared=N) and none in its shared log: set FileStoreShared=N to go on with it",
            });
        }
        Ok(Box::new(
            log.open_store(&name, std::time::SystemTime::now())?,
        ))
    }

    /// The syncs of the shared logs the engine's sessions use (those still open).
    pub(super) fn shared_log_syncs(&self) -> u64 {
        self.used
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter_map(WeakSharedLog::upgrade)
            .map(|l| l.syncs())
            .sum()
    }

    /// Removes `id`'s store from the shared log of `dir`.
    pub(super) fn remove_shared(&self, dir: &Path, id: &SessionId) -> Result<(), StoreError> {
        shared_log(dir)?.remove(&id.store_name())
    }

    /// Opens `id`'s store in PostgreSQL: holding its lease when it is free
    /// (and the budget allows), else a standby that takes it over at a
    /// connection once the holder's lease has expired.
    #[cfg(feature = "postgres")]
    pub(super) fn open_postgres(
        &self,
        settings: &PostgresStoreSettings,
        id: &SessionId,
    ) -> Result<Store, StoreError> {
        use fix_store_postgres::{LeaseBudget, PgConfig, PostgresStore};
        let node = settings.node.clone().unwrap_or_else(default_node);
        let mut config = PgConfig::new(settings.connection.clone(), node).lease(settings.lease);
        let budget = self
            .budget
            .get_or_init(|| settings.max_sessions.map(LeaseBudget::new));
        if let Some(budget) = budget {
            config = config.budget(budget.clone());
        }
        let store = PostgresStore::open(&config, &id.store_name(), std::time::SystemTime::now())?;
        if !store.holds_lease() {
            tracing::info!(session = %id, "another engine holds the session: a standby until its lease expires");
        }
        Ok(Box::new(store))
    }

    /// Without the `postgres` feature there is no PostgreSQL store (the
    /// engine refuses such a session at start, before this is reached).
    #[cfg(not(feature = "postgres"))]
    pub(super) fn open_postgres(
        &self,
        _: &PostgresStoreSettings,
        _: &SessionId,
    ) -> Result<Store, StoreError> {
        Err(StoreError::Database {
            op: "open",
            source: "fix-engine was built without its postgres feature".into(),
        })
    }
}

/// The shared log of store directory `dir`, opened by the first session of
/// the process that needs it.
fn shared_log(dir: &Path) -> Result<SharedLog, StoreError> {
    let log_dir = shared_log_dir(dir);
    std::fs::create_dir_all(&log_dir).map_err(|source| StoreError::Io {
        op: fix_session::IoOperation::CreateDir,
        path: log_dir.clone(),
        source,
    })?;
    let key = log_dir.canonicalize().unwrap_or(log_dir);
    let mut logs = SHARED_LOGS.lock().unwrap_or_else(|e| e.into_inner());
    let logs = logs.get_or_insert_with(HashMap::new);
    if let Some(log) = logs.get(&key).and_then(WeakSharedLog::upgrade) {
        return Ok(log);
    }
    logs.retain(|_, weak| weak.upgrade().is_some());
    let log = SharedLog::open(&key, SharedLogOptions::new())?;
    logs.insert(key, log.downgrade());
    Ok(log)
}

/// A `RefreshOnLogon` session's store in the shared log of a directory
/// another engine writes (the primary): it writes nothing, and reads the
/// session's numbers from the log without its lock, until a Logon's
/// refresh takes the session over, once the primary has let it go (its
/// process stopped, or its engine in this process closed the session).
struct Standby {
    dir: PathBuf,
    id: SessionId,
    store: Option<fix_session::store::SharedStore>,
    numbers: (u64, u64, std::time::SystemTime),
}

impl Standby {
    fn new(dir: &Path, id: &SessionId) -> Standby {
        let numbers = fix_session::store::StoreLog::open(dir, &id.store_name())
            .map(|l| (l.next_sender_seq(), l.next_target_seq(), l.creation_time()))
            .unwrap_or((1, 1, std::time::SystemTime::now()));
        Standby {
            dir: dir.to_path_buf(),
            id: id.clone(),
            store: None,
            numbers,
        }
    }

    fn taken(&mut self) -> Result<&mut fix_session::store::SharedStore, StoreError> {
        self.store.as_mut().ok_or_else(|| StoreError::Standby {
            lock_file: shared_log_dir(&self.dir).join("shared-log.lock"),
        })
    }
}

impl fix_session::MessageStore for Standby {
    fn next_sender_seq(&self) -> u64 {
        self.store
            .as_ref()
            .map_or(self.numbers.0, |s| s.next_sender_seq())
    }
    fn next_target_seq(&self) -> u64 {
        self.store
            .as_ref()
            .map_or(self.numbers.1, |s| s.next_target_seq())
    }
    fn set_next_sender_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        self.taken()?.set_next_sender_seq(seq)
    }
    fn set_next_target_seq(&mut self, seq: u64) -> Result<(), StoreError> {
        self.taken()?.set_next_target_seq(seq)
    }
    fn store(&mut self, seq: u64, message: &[u8]) -> Result<(), StoreError> {
        self.taken()?.store(seq, message)
    }
    fn advance_target_seq(&mut self, received: u64) -> Result<(), StoreError> {
        self.taken()?.advance_target_seq(received)
    }
    fn begin_answer(&mut self, received: u64) {
        if let Some(s) = &mut self.store {
            s.begin_answer(received);
        }
    }
    fn abandon_answer(&mut self) {
        if let Some(s) = &mut self.store {
            s.abandon_answer();
        }
    }
    fn read_stored(
        &mut self,
        from: u64,
        to: u64,
        limit: fix_session::ChunkLimit,
        visit: &mut dyn FnMut(u64, &[u8]),
    ) -> Result<fix_session::Chunk, StoreError> {
        self.taken()?.read_stored(from, to, limit, visit)
    }
    fn reset(&mut self, now: std::time::SystemTime) -> Result<(), StoreError> {
        self.taken()?.reset(now)
    }
    fn creation_time(&self) -> std::time::SystemTime {
        self.store
            .as_ref()
            .map_or(self.numbers.2, |s| s.creation_time())
    }
    fn sync(&mut self) -> Result<(), StoreError> {
        match &mut self.store {
            Some(s) => s.sync(),
            None => Ok(()),
        }
    }
    fn pending_sync(&self) -> bool {
        self.store.as_ref().is_some_and(|s| s.pending_sync())
    }
    fn begin_sync(&mut self) -> Result<Option<fix_session::store::SyncJob>, StoreError> {
        match &mut self.store {
            Some(s) => s.begin_sync(),
            None => Ok(None),
        }
    }
    fn end_sync(&mut self, done: fix_session::store::SyncDone) -> Result<(), StoreError> {
        match &mut self.store {
            Some(s) => s.end_sync(done),
            None => Ok(()),
        }
    }
    fn sync_in_flight(&self) -> bool {
        self.store.as_ref().is_some_and(|s| s.sync_in_flight())
    }
    fn write_out(&mut self) -> Result<(), StoreError> {
        match &mut self.store {
            Some(s) => s.write_out(),
            None => Ok(()),
        }
    }
    /// Takes the session over: the log (its lock, when no engine of this
    /// process has it open), then the session in it (`Locked` while the
    /// primary's engine in this process still has it).
    /// Still held by the primary, it is still a standby
    /// ([`StoreError::Standby`], which the connection's end logs as a
    /// standby's refusal, not as a failure).
    fn refresh(&mut self) -> Result<(), StoreError> {
        if self.store.is_none() {
            let opened = shared_log(&self.dir).and_then(|log| {
                log.open_store(&self.id.store_name(), std::time::SystemTime::now())
            });
            self.store = Some(opened.map_err(|e| match e {
                StoreError::Locked { lock_file, .. } => StoreError::Standby { lock_file },
                e => e,
            })?);
        }
        Ok(())
    }
}

/// This engine's name in the leases when the settings give none: the host
/// name and the process ID, so that two engines on one host differ.
#[cfg(feature = "postgres")]
fn default_node() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "fix-engine".to_owned());
    format!("{}-{}", host.trim(), std::process::id())
}

/// The disk syncs of every shared log open in this process, since each was
/// opened: what a benchmark divides by its time for syncs a second, however
/// many sessions and engines share the logs.
///
/// ```
/// assert_eq!(fix_engine::shared_log_syncs(), 0); // no engine has opened one
/// ```
pub fn shared_log_syncs() -> u64 {
    SHARED_LOGS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .flat_map(|logs| logs.values())
        .filter_map(WeakSharedLog::upgrade)
        .map(|l| l.syncs())
        .sum()
}
