//! A private PostgreSQL server for one test binary: `initdb` into a temporary
//! directory, listening only on a Unix socket in that directory, no password.
//!
//! Tests that need one start it with [`PgServer::start_or_skip`]: without
//! PostgreSQL's server binaries (no `initdb`) it prints one line and the test
//! skips, except under `CI=true`, where it fails (CI must run every test); a
//! server that is installed but does not start fails the test everywhere.
//!
//! ```no_run
//! let Some(pg) = fix_test_support::pg::PgServer::start_or_skip("doc") else { return };
//! assert!(pg.connection_string().starts_with("host="));
//! ```

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::temp_dir::TestDir;

/// A running PostgreSQL server in a directory of its own, stopped and removed
/// on drop.
#[derive(Debug)]
pub struct PgServer {
    bin: PathBuf,
    /// Removed after the server is stopped: fields drop after `drop` runs.
    dir: TestDir,
    as_postgres: bool,
}

impl PgServer {
    /// Makes and starts a server whose directory name includes `name`.
    ///
    /// ```no_run
    /// let pg = fix_test_support::pg::PgServer::start("doc-start").unwrap();
    /// assert_eq!(pg.port(), 5432);
    /// ```
    pub fn start(name: &str) -> Result<PgServer, String> {
        let bin = find_bin_dir().ok_or("no initdb on PATH nor in /usr/lib/postgresql/*/bin")?;
        // Short: a Unix socket's path is limited to about 100 bytes.
        let dir = TestDir::new(&format!("pg-{}", name.chars().take(24).collect::<String>()));
        // initdb refuses to run as root: the cluster then belongs to `postgres`.
        let as_postgres = is_root();
        let server = PgServer {
            bin,
            dir,
            as_postgres,
        };
        if as_postgres {
            chown_postgres(&server.dir)?;
        }
        server.initdb()?;
        server.start_again()?;
        Ok(server)
    }

    /// [`start`](Self::start), or `None` after one line saying why when
    /// PostgreSQL's server binaries are not installed (no `initdb`); under
    /// `CI=true` that panics instead, and so does a server that is installed
    /// but does not start: a broken setup is a failure, not a skip.
    ///
    /// ```no_run
    /// if let Some(pg) = fix_test_support::pg::PgServer::start_or_skip("doc-skip") {
    ///     println!("{}", pg.connection_string());
    /// }
    /// ```
    pub fn start_or_skip(name: &str) -> Option<PgServer> {
        let ci = std::env::var("CI").as_deref() == Ok("true");
        if !installed() && !ci {
            println!(
                "skipped {name}: PostgreSQL is not installed (no initdb on PATH nor in /usr/lib/postgresql/*/bin)"
            );
            return None;
        }
        match PgServer::start(name) {
            Ok(server) => Some(server),
            Err(why) => panic!("PostgreSQL could not start for {name}: {why}"),
        }
    }

    /// The socket directory: libpq's `host` for a Unix socket.
    ///
    /// ```no_run
    /// # let pg = fix_test_support::pg::PgServer::start("doc-host").unwrap();
    /// assert!(pg.host().is_dir());
    /// ```
    pub fn host(&self) -> &Path {
        self.dir.path()
    }

    /// The port, which names the socket file (`.s.PGSQL.5432`).
    pub fn port(&self) -> u16 {
        5432
    }

    /// The superuser the server was made with.
    pub fn user(&self) -> &'static str {
        "postgres"
    }

    /// The database every cluster has.
    pub fn dbname(&self) -> &'static str {
        "postgres"
    }

    /// The server's log (`pg_ctl -l`): what it wrote since it started.
    ///
    /// ```no_run
    /// # let pg = fix_test_support::pg::PgServer::start("doc-log").unwrap();
    /// assert!(pg.log_path().ends_with("server.log"));
    /// ```
    pub fn log_path(&self) -> PathBuf {
        self.dir.join("server.log")
    }

    /// `host=DIR user=postgres dbname=postgres`, as libpq and tokio-postgres
    /// read it.
    ///
    /// ```no_run
    /// # let pg = fix_test_support::pg::PgServer::start("doc-conn").unwrap();
    /// assert!(pg.connection_string().ends_with("user=postgres dbname=postgres"));
    /// ```
    pub fn connection_string(&self) -> String {
        format!(
            "host={} port={} user={} dbname={}",
            self.dir.display(),
            self.port(),
            self.user(),
            self.dbname()
        )
    }

    /// Runs `sql` with psql and returns what it printed, unaligned, one row a
    /// line (for tests to look at the tables, or to end another client's
    /// connection, from outside the code under test).
    ///
    /// ```no_run
    /// # let pg = fix_test_support::pg::PgServer::start("doc-psql").unwrap();
    /// assert_eq!(pg.psql("SELECT 1 + 1").unwrap(), "2");
    /// ```
    pub fn psql(&self, sql: &str) -> Result<String, String> {
        let out = Command::new(self.bin.join("psql"))
            .args(["-X", "-At", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .arg(self.connection_string())
            .output()
            .map_err(|e| format!("cannot run psql: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "psql failed: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    }

    /// Starts the server again after [`stop_immediate`](Self::stop_immediate)
    /// and waits until it takes connections (`start` is the constructor).
    pub fn start_again(&self) -> Result<(), String> {
        // fsync and synchronous_commit on, whatever the defaults become: the
        // durability tests mean what they say.
        let opts = format!(
            "-k {} -c listen_addresses='' -c fsync=on -c synchronous_commit=on",
            self.dir.display()
        );
        let log = self.dir.join("server.log");
        self.pg_ctl(&["-o", &opts, "-l", &log.to_string_lossy(), "-w", "start"])
    }

    /// Stops the server at once, as a crash would (no checkpoint).
    pub fn stop_immediate(&self) -> Result<(), String> {
        self.pg_ctl(&["-m", "immediate", "-w", "stop"])
    }

    /// Stops the server as a crash would and starts it again: what it
    /// acknowledged before must be there after.
    pub fn restart_immediate(&self) -> Result<(), String> {
        self.stop_immediate()?;
        self.start_again()
    }

    /// Makes every user but the superuser log in with a password
    /// (scram-sha-256), as a shared server would: `pg_hba.conf` rewritten,
    /// the server restarted (a reload takes effect a moment later, a
    /// restart before this returns). The superuser keeps logging in without one, so
    /// [`psql`](Self::psql) still works.
    ///
    /// ```no_run
    /// # let pg = fix_test_support::pg::PgServer::start("doc-pw").unwrap();
    /// pg.psql("CREATE ROLE fix LOGIN PASSWORD 'right'").unwrap();
    /// pg.require_passwords().unwrap();
    /// ```
    pub fn require_passwords(&self) -> Result<(), String> {
        let hba = self.data_dir().join("pg_hba.conf");
        // Written in place: the file keeps its owner (postgres, under root).
        std::fs::write(
            &hba,
            "local all postgres trust\nlocal all all scram-sha-256\n",
        )
        .map_err(|e| format!("cannot write {}: {e}", hba.display()))?;
        self.pg_ctl(&["-m", "fast", "-w", "stop"])?;
        self.start_again()
    }

    /// Stops every process of the server (SIGSTOP): connections stay open
    /// and nothing is answered, as a server stalled on its disk or its host
    /// would be, until [`thaw`](Self::thaw).
    ///
    /// ```no_run
    /// # let pg = fix_test_support::pg::PgServer::start("doc-freeze").unwrap();
    /// pg.freeze().unwrap();
    /// pg.thaw().unwrap();
    /// ```
    pub fn freeze(&self) -> Result<(), String> {
        self.signal("STOP")
    }

    /// Lets the processes [`freeze`](Self::freeze) stopped go on (SIGCONT).
    pub fn thaw(&self) -> Result<(), String> {
        self.signal("CONT")
    }

    /// Sends `sig` to the postmaster (the first line of `postmaster.pid`)
    /// and to each of its children (by their parent in `/proc/PID/stat`).
    fn signal(&self, sig: &str) -> Result<(), String> {
        let file = self.data_dir().join("postmaster.pid");
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let postmaster = text.lines().next().unwrap_or_default().trim().to_owned();
        let mut pids = vec![postmaster.clone()];
        let proc = std::fs::read_dir("/proc").map_err(|e| format!("cannot list /proc: {e}"))?;
        for entry in proc.flatten() {
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            // `pid (comm) state ppid ...`: comm may hold spaces, so after the last ')'.
            let ppid = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1));
            if ppid == Some(postmaster.as_str()) {
                pids.push(entry.file_name().to_string_lossy().into_owned());
            }
        }
        let out = Command::new("kill")
            .arg(format!("-{sig}"))
            .args(&pids)
            .output()
            .map_err(|e| format!("cannot run kill: {e}"))?;
        check("kill", Ok(out))
    }

    fn data_dir(&self) -> PathBuf {
        self.dir.join("data")
    }

    fn initdb(&self) -> Result<(), String> {
        let data = self.data_dir();
        let args = [
            "-D",
            &data.to_string_lossy(),
            "-A",
            "trust",
            "-U",
            "postgres",
        ];
        check("initdb", self.run("initdb", &args))
    }

    fn pg_ctl(&self, args: &[&str]) -> Result<(), String> {
        let data = self.data_dir();
        let data = data.to_string_lossy();
        let mut all = vec!["-D", &*data];
        all.extend_from_slice(args);
        check("pg_ctl", self.run("pg_ctl", &all))
    }

    fn run(&self, tool: &str, args: &[&str]) -> std::io::Result<Output> {
        let path = self.bin.join(tool);
        let mut command = if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&path);
            c
        } else {
            Command::new(&path)
        };
        command.args(args).current_dir(&self.dir).output()
    }
}

impl Drop for PgServer {
    fn drop(&mut self) {
        let _ = self.stop_immediate();
    }
}

/// Whether PostgreSQL's server binaries are installed (`initdb` on PATH or in
/// `/usr/lib/postgresql/*/bin`): the rule [`PgServer::start_or_skip`] skips
/// by, for tests that start a server some other way (a script).
///
/// ```
/// if !fix_test_support::pg::installed() {
///     println!("skipped: PostgreSQL is not installed");
/// }
/// ```
pub fn installed() -> bool {
    find_bin_dir().is_some()
}

/// Where `initdb` and `pg_ctl` are: beside `initdb` on PATH, else the newest
/// of Debian's `/usr/lib/postgresql/*/bin`.
fn find_bin_dir() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        let dir = std::env::split_paths(&paths).find(|dir| dir.join("initdb").is_file())?;
        // Through a symbolic link, to the directory psql and pg_ctl are in too.
        let initdb = std::fs::canonicalize(dir.join("initdb")).ok()?;
        initdb.parent().map(Path::to_path_buf)
    });
    on_path.or_else(|| {
        let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
            .filter(|bin| bin.join("initdb").is_file())
            .collect();
        versions.sort();
        versions.pop()
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.trim_ascii() == b"0")
}

fn chown_postgres(dir: &Path) -> Result<(), String> {
    let out = Command::new("chown").arg("postgres:").arg(dir).output();
    check("chown postgres", out)
}

fn check(what: &str, out: std::io::Result<Output>) -> Result<(), String> {
    let out = out.map_err(|e| format!("cannot run {what}: {e}"))?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(format!("{what} failed ({}): {}", out.status, stderr.trim()))
}
