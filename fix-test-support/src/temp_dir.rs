//! A directory of a test's own under the system's temporary directory,
//! removed with everything in it when dropped: a test that passes or panics
//! leaves nothing behind (an engine's store directory holds a 17 MB shared-log
//! segment, and hundreds of them once filled a machine's disk), and two runs of
//! the same test, or two tests given the same name, never share one (its name
//! ends in random characters, not the process id).
//!
//! A test keeps its [`TestDir`] for as long as anything uses the directory:
//! across an engine's restart inside the test, and until the child processes
//! it started in it are gone.
//!
//! ```
//! use fix_test_support::temp_dir::TestDir;
//!
//! let dir = TestDir::new("doc");
//! std::fs::write(dir.join("store.log"), b"8=FIX.4.4").unwrap();
//! let path = dir.to_path_buf();
//! drop(dir);
//! assert!(!path.exists());
//! ```

use std::ffi::OsStr;
use std::ops::Deref;
use std::path::Path;

/// An empty directory, removed (with its contents) on drop. Reads as the
/// [`Path`] it is: `dir.join("x")`, `&dir` where a `&Path`, an
/// `impl AsRef<Path>`, an `impl Into<PathBuf>` or a command's argument is
/// wanted.
#[derive(Debug)]
pub struct TestDir(tempfile::TempDir);

impl TestDir {
    /// A new empty directory whose name starts with `fix-{name}-`, so that
    /// one left by a killed test run says whose it was.
    ///
    /// ```
    /// let (a, b) = (
    ///     fix_test_support::temp_dir::TestDir::new("same"),
    ///     fix_test_support::temp_dir::TestDir::new("same"),
    /// );
    /// assert_ne!(a.path(), b.path());
    /// assert!(a.file_name().unwrap().to_str().unwrap().starts_with("fix-same-"));
    /// ```
    pub fn new(name: &str) -> TestDir {
        TestDir::new_in(std::env::temp_dir(), name)
    }

    /// [`new`](Self::new), under `parent` instead: for a test whose files
    /// must be on a disk, not on a `/tmp` that may be memory
    /// (`env!("CARGO_TARGET_TMPDIR")`, cargo's scratch directory for
    /// integration tests).
    ///
    /// ```
    /// let parent = fix_test_support::temp_dir::TestDir::new("doc-parent");
    /// let dir = fix_test_support::temp_dir::TestDir::new_in(&parent, "doc-in");
    /// assert_eq!(dir.parent(), Some(parent.path()));
    /// ```
    pub fn new_in(parent: impl AsRef<Path>, name: &str) -> TestDir {
        let parent = parent.as_ref();
        let dir = tempfile::Builder::new()
            .prefix(&format!("fix-{name}-"))
            .tempdir_in(parent)
            .unwrap_or_else(|e| {
                panic!(
                    "cannot make a temporary directory for {name} in {}: {e}",
                    parent.display()
                )
            });
        TestDir(dir)
    }

    /// The directory's path.
    ///
    /// ```
    /// let dir = fix_test_support::temp_dir::TestDir::new("doc-path");
    /// assert!(dir.path().is_dir());
    /// ```
    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Deref for TestDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        self.path()
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        self.path()
    }
}

/// As a [`Path`] is: what makes `&dir` an `impl Into<PathBuf>` (a settings
/// builder's path) and a command's argument or environment value.
impl AsRef<OsStr> for TestDir {
    fn as_ref(&self) -> &OsStr {
        self.path().as_os_str()
    }
}
