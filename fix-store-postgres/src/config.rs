//! How a store reaches its database and holds its lease.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Where the database is, who this engine is, and how long its leases last.
///
/// ```
/// use fix_store_postgres::PgConfig;
/// let config = PgConfig::new("host=/tmp user=postgres dbname=postgres", "node-a");
/// assert_eq!(config.lease, std::time::Duration::from_secs(10));
/// ```
#[derive(Clone, Debug)]
pub struct PgConfig {
    /// A libpq-style connection string, e.g. `host=/tmp/dir user=postgres dbname=postgres`.
    pub connection: String,
    /// This engine's name, written as the lease's owner.
    pub node: String,
    /// How long a lease lasts without renewal; renewed every third of it.
    pub lease: Duration,
    /// How many sessions this engine may hold at once, shared by its stores.
    pub budget: Option<LeaseBudget>,
}

impl PgConfig {
    /// A configuration with a 10 s lease and no budget.
    pub fn new(connection: impl Into<String>, node: impl Into<String>) -> Self {
        PgConfig {
            connection: connection.into(),
            node: node.into(),
            lease: Duration::from_secs(10),
            budget: None,
        }
    }

    /// From QuickFIX's settings (PostgreSQLStoreDatabase, PostgreSQLStoreUser,
    /// PostgreSQLStorePassword, PostgreSQLStoreHost, PostgreSQLStorePort);
    /// the node name is the host's name until [`node`](Self::node) sets it.
    ///
    /// ```
    /// use fix_store_postgres::PgConfig;
    /// let c = PgConfig::from_quickfix("fix", "trader", "s3cret", "db.example", 5433);
    /// assert_eq!(c.connection, "host='db.example' port=5433 dbname='fix' user='trader' password='s3cret'");
    /// ```
    pub fn from_quickfix(
        database: &str,
        user: &str,
        password: &str,
        host: &str,
        port: u16,
    ) -> Self {
        let mut connection = format!(
            "host={} port={port} dbname={} user={}",
            quote(host),
            quote(database),
            quote(user)
        );
        if !password.is_empty() {
            connection.push_str(&format!(" password={}", quote(password)));
        }
        let node = std::env::var("HOSTNAME").unwrap_or_else(|_| "fix-engine".into());
        PgConfig::new(connection, node)
    }

    /// Sets the node name.
    ///
    /// ```
    /// let c = fix_store_postgres::PgConfig::new("host=/tmp", "a").node("b");
    /// assert_eq!(c.node, "b");
    /// ```
    pub fn node(mut self, node: impl Into<String>) -> Self {
        self.node = node.into();
        self
    }

    /// Sets the lease's length.
    ///
    /// ```
    /// let c = fix_store_postgres::PgConfig::new("host=/tmp", "a").lease(std::time::Duration::from_secs(3));
    /// assert_eq!(c.lease.as_secs(), 3);
    /// ```
    pub fn lease(mut self, lease: Duration) -> Self {
        self.lease = lease;
        self
    }

    /// Shares `budget` with the other stores of this configuration.
    ///
    /// ```
    /// use fix_store_postgres::{LeaseBudget, PgConfig};
    /// let c = PgConfig::new("host=/tmp", "a").budget(LeaseBudget::new(4));
    /// assert!(c.budget.is_some());
    /// ```
    pub fn budget(mut self, budget: LeaseBudget) -> Self {
        self.budget = Some(budget);
        self
    }
}

/// A libpq value in single quotes, so that spaces and quotes in it stay its own.
fn quote(value: &str) -> String {
    format!("'{}'", value.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// The most sessions one engine may hold, shared by its stores: a store that
/// would go past it stays standby, so the sessions spread over the engines.
///
/// ```
/// use fix_store_postgres::LeaseBudget;
/// let budget = LeaseBudget::new(1);
/// assert!(budget.try_take());
/// assert!(!budget.clone().try_take());
/// budget.give_back();
/// assert_eq!(budget.held(), 0);
/// ```
#[derive(Clone, Debug)]
pub struct LeaseBudget {
    max: usize,
    held: Arc<AtomicUsize>,
}

impl LeaseBudget {
    /// A budget of `max` sessions.
    pub fn new(max: usize) -> Self {
        LeaseBudget {
            max,
            held: Arc::new(AtomicUsize::new(0)),
        }
    }

    /// Takes one lease's room, if there is any.
    pub fn try_take(&self) -> bool {
        self.held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < self.max).then_some(n + 1)
            })
            .is_ok()
    }

    /// Gives one lease's room back.
    pub fn give_back(&self) {
        let _ = self
            .held
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
    }

    /// How many leases are held now.
    pub fn held(&self) -> usize {
        self.held.load(Ordering::Acquire)
    }
}
