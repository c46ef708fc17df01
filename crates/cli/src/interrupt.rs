//! Ctrl-C and SIGTERM (also SIGHUP): stop cleanly, leave no partial output.
//!
//! The handler asks every run to stop (`polyalloc::budget::interrupt`): the run in
//! progress fails at its next budget check (between two ILPs, inside a conflict-set
//! construction, an enumeration, a projection), `allocate` prints nothing more and the
//! process exits with [`EXIT_INTERRUPTED`]. Should the run not reach a check within
//! [`GRACE`] (one long ILP solve in a backend), the handler exits by itself. Either way
//! the exit happens while holding `polyalloc::output::exclusive`: no file (an LP dump)
//! and no record on standard output is half-written, and every file written so far is
//! complete (files are written to a temporary and renamed).

use std::io::Write;
use std::time::Duration;

/// The exit code of an interrupted command (128 + SIGINT, as shells report Ctrl-C),
/// for SIGTERM too.
pub const EXIT_INTERRUPTED: i32 = 130;

/// How long a run has to reach its next check before the handler exits by itself.
pub const GRACE: Duration = Duration::from_secs(2);

/// Installs the handler (once; a failure to install leaves the default behaviour).
pub fn install() {
    let installed = ctrlc::set_handler(|| {
        polyalloc::budget::interrupt();
        std::thread::sleep(GRACE);
        exit();
    });
    if let Err(e) = installed {
        let _ = writeln!(std::io::stderr(), "polyalloc: warning: no Ctrl-C handler ({e}); an interruption may leave a partial line");
    }
}

/// Exits with [`EXIT_INTERRUPTED`] between two writes.
pub fn exit() -> ! {
    let _no_write_in_progress = polyalloc::output::exclusive();
    let _ = writeln!(std::io::stderr(), "polyalloc: interrupted");
    std::process::exit(EXIT_INTERRUPTED);
}
