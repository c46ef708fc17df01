//! lp_solve without its log on standard output.
//!
//! lp_solve writes its log (about 20 lines per solve at its default verbosity, NORMAL)
//! to the C `FILE *` that `make_lp` reads from the C library's `stdout` variable, and
//! good_lp's lp_solve adaptor gives no access to the model before `solve` (its
//! `LpSolveProblem` field is private; good_lp has no verbosity switch for any solver,
//! upstream issue rust-or/good_lp#117). On standard output that log would corrupt
//! `polyalloc allocate --json` and the harness's tables. So, unless `verbose`, the
//! adaptor's model is created while the C library's `stdout` variable points to a
//! `/dev/null` stream: lp_solve keeps that stream as its log stream, and `stdout` is
//! restored as soon as the model exists (microseconds; Rust's own output never goes
//! through the C `stdout`).
//!
//! Soundness: the swap happens under a lock shared by every swap; the `/dev/null`
//! stream is opened once and never closed, so C code of another thread that reads
//! `stdout` during the window gets a valid stream (its output is discarded). On targets
//! other than Linux (where `stdout` is not a plain variable of the C library) nothing
//! is swapped and lp_solve's log stays on standard output.

#[cfg(target_os = "linux")]
mod imp {
    use std::sync::{Mutex, OnceLock};

    extern "C" {
        /// The C library's standard output stream (glibc, musl).
        static mut stdout: *mut libc::FILE;
    }

    struct Stream(*mut libc::FILE);
    // SAFETY: the stream is only handed to C stdio, which locks it internally.
    unsafe impl Send for Stream {}
    unsafe impl Sync for Stream {}

    static DEV_NULL: OnceLock<Option<Stream>> = OnceLock::new();
    static SWAP: Mutex<()> = Mutex::new(());

    /// Restores `stdout` when dropped (also when `f` panics).
    struct Restore(*mut libc::FILE);

    impl Drop for Restore {
        fn drop(&mut self) {
            // SAFETY: a plain store of the saved pointer, under `SWAP`.
            unsafe { std::ptr::addr_of_mut!(stdout).write(self.0) };
        }
    }

    pub(crate) fn with_c_stdout_discarded<T>(f: impl FnOnce() -> T) -> T {
        let null = DEV_NULL.get_or_init(|| {
            // SAFETY: fopen with two NUL-terminated literals.
            let p = unsafe { libc::fopen(c"/dev/null".as_ptr(), c"w".as_ptr()) };
            (!p.is_null()).then_some(Stream(p))
        });
        let Some(null) = null else { return f() };
        let _lock = SWAP.lock().unwrap_or_else(|p| p.into_inner());
        // SAFETY: plain load and store of the C library's `stdout` pointer, under
        // `SWAP`; `null.0` is a valid stream that lives as long as the process.
        let _restore = unsafe {
            let saved = std::ptr::addr_of_mut!(stdout).read();
            std::ptr::addr_of_mut!(stdout).write(null.0);
            Restore(saved)
        };
        f()
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(crate) fn with_c_stdout_discarded<T>(f: impl FnOnce() -> T) -> T {
        f()
    }
}

pub(crate) use imp::with_c_stdout_discarded;
