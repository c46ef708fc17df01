//! Output that is never left half-written: every file polyalloc writes (LP dumps of
//! `--dump-lp`, the results files of `cargo xtask`, the report) goes through
//! [`write_atomic`], and a program that must stop at once (a Ctrl-C / SIGTERM handler)
//! first takes [`exclusive`], so that it exits between two writes, never inside one.
//!
//! It lives in the bottom layer because the first writer is here (the LP dumps of
//! [`crate::Recording`]); every layer above uses the same function and the same lock.

use std::io::Write;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

/// Held while a file is being written (and by whoever must not be interleaved with a
/// write: a printer of whole records, an exiting signal handler).
static WRITES: Mutex<()> = Mutex::new(());

/// Blocks until no write is in progress and keeps every other write from starting
/// while the guard lives. A signal handler takes it before `std::process::exit`; a
/// printer takes it to emit one whole record.
pub fn exclusive() -> MutexGuard<'static, ()> {
    // A panic while holding the lock leaves nothing half-written (writes go to a
    // temporary file first): the lock is still good.
    WRITES.lock().unwrap_or_else(|p| p.into_inner())
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a
/// rename: whenever the process stops, `path` is either absent (or its old content)
/// or the complete new content. The directory is created if needed. No `fsync`
/// (thousands of LP dumps would wait for the disk): see [`write_atomic_durable`].
pub fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write(path, bytes, false)
}

/// [`write_atomic`], and the data reaches the disk before the rename (results files,
/// which should also survive a crash of the machine).
pub fn write_atomic_durable(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write(path, bytes, true)
}

fn write(path: &Path, bytes: &[u8], durable: bool) -> std::io::Result<()> {
    let _guard = exclusive();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| "output".into());
    let tmp = dir.join(format!(".{name}.tmp.{}", std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if durable {
            f.sync_all()?;
        }
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_the_file_and_leaves_no_temporary() {
        let dir = std::env::temp_dir().join(format!("polyalloc-ilp-atomic-{}", std::process::id()));
        let p = dir.join("sub").join("x.lp");
        write_atomic(&p, b"one").expect("write");
        write_atomic_durable(&p, b"two").expect("write");
        assert_eq!(std::fs::read_to_string(&p).expect("read"), "two");
        let entries: Vec<_> = std::fs::read_dir(dir.join("sub")).expect("dir").filter_map(|e| e.ok()).collect();
        assert_eq!(entries.len(), 1, "no temporary file is left");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
