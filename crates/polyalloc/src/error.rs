//! Typed errors of the CLI and their exit codes.

use polyalloc_suite::SuiteError;

/// Success.
pub const EXIT_OK: i32 = 0;
/// Invalid input: unreadable or malformed file, unknown method/backend/array, bad
/// option value.
pub const EXIT_INPUT: i32 = 1;
/// A solver (or a method's own logic) failed.
pub const EXIT_SOLVER: i32 = 2;
/// The exact checker refuted a mapping.
pub const EXIT_VERIFICATION: i32 = 3;

/// Every error the CLI reports: one line, naming the file and the place when there is one.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bench-suite file could not be read or is malformed (file:line:column or field).
    #[error(transparent)]
    Suite(#[from] SuiteError),
    /// Any other invalid input (an option value, an unknown name).
    #[error("{0}")]
    Input(String),
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io { path: String, message: String },
    /// A solver or method failure.
    #[error("{0}")]
    Solver(String),
    /// A mapping was refuted by the exact checker.
    #[error("{0}")]
    Verification(String),
}

impl Error {
    /// The documented exit code of this error.
    pub fn exit_code(&self) -> i32 {
        match self {
            // Building the file's objects was stopped by the time budget or an
            // interruption: not an input error.
            Error::Suite(e) if e.stop().is_some() => EXIT_SOLVER,
            Error::Suite(_) | Error::Input(_) | Error::Io { .. } => EXIT_INPUT,
            Error::Solver(_) => EXIT_SOLVER,
            Error::Verification(_) => EXIT_VERIFICATION,
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl AsRef<std::path::Path>, e: impl std::fmt::Display) -> Error {
        Error::Io { path: path.as_ref().display().to_string(), message: e.to_string() }
    }
}
