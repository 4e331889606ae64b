//! The stores the engine opens for its sessions beside the file and memory
//! stores: PostgreSQL (the `postgres` feature), whose sessions share the
//! engine's lease budget (`PostgreSQLStoreMaxSessions`) and node name.

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
}

impl Stores {
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
