//! The file store's exclusive lock, and syncing the directory it lives in.

use std::fs::{File, OpenOptions, TryLockError};
use std::io;
use std::path::Path;

use super::{IoOperation, StoreError};

/// Takes the exclusive lock on `lock_file` in `dir`, creating the file if needed,
/// and holds it as long as the returned file is open.
///
/// The lock is a file of its own, never renamed or removed: the log is replaced by a
/// rename on reset, and a lock on the replaced file would protect nothing. The lock is
/// advisory (`flock` on Unix, `LockFileEx` on Windows) and held by the open file, so
/// the system drops it when the process dies, however it dies.
pub(super) fn acquire(dir: &Path, lock_file: &Path) -> Result<File, StoreError> {
    let io_err = |op, source| StoreError::Io {
        op,
        path: lock_file.to_path_buf(),
        source,
    };
    let (file, created) = match OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(lock_file)
    {
        Ok(file) => (file, true),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
            let file = OpenOptions::new()
                .read(true)
                .write(true)
                .open(lock_file)
                .map_err(|e| io_err(IoOperation::Open, e))?;
            (file, false)
        }
        Err(e) => return Err(io_err(IoOperation::Open, e)),
    };
    match file.try_lock() {
        Ok(()) => {}
        Err(TryLockError::WouldBlock) => {
            return Err(StoreError::Locked {
                dir: dir.to_path_buf(),
                lock_file: lock_file.to_path_buf(),
            });
        }
        Err(TryLockError::Error(e)) => return Err(io_err(IoOperation::Lock, e)),
    }
    if created {
        sync_dir(dir)?;
    }
    Ok(file)
}

/// Syncs directory `dir`, so that the files created, renamed or removed in it stay
/// after a power loss (a file's own fsync does not cover its directory entry).
///
/// On platforms other than Unix a directory cannot be opened to sync it, and the
/// file system is trusted with its entries.
pub(super) fn sync_dir(dir: &Path) -> Result<(), StoreError> {
    sync_dir_io(dir).map_err(|source| StoreError::Io {
        op: IoOperation::SyncDir,
        path: dir.to_path_buf(),
        source,
    })
}

#[cfg(unix)]
fn sync_dir_io(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

#[cfg(not(unix))]
fn sync_dir_io(_dir: &Path) -> io::Result<()> {
    Ok(())
}
