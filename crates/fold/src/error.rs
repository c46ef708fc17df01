//! Why `fold` stopped.

/// An error of `polyalloc fold` (a refusal to fold is not one: it is a verdict of the
/// report, [`crate::Verdict`]).
#[derive(Debug, thiserror::Error)]
pub enum FoldError {
    /// The input file or an option is wrong (exit code 1).
    #[error("{0}")]
    Input(String),
    /// clang or opt is missing or lacks Polly (exit code 1).
    #[error("{0}")]
    Toolchain(String),
    /// A compiler step failed.
    #[error("{step} failed: {message}\n  command: {command}")]
    Step { step: String, command: String, message: String },
    /// A compiled program could not be run or failed.
    #[error("{0}")]
    Run(String),
    /// Reading a JSCoP Polly wrote.
    #[error(transparent)]
    Suite(Box<polyalloc_suite::SuiteError>),
    /// A set operation on the SCoP failed.
    #[error("{0}")]
    Formulation(Box<polyalloc_formulation::Error>),
    /// The program model refused the SCoP.
    #[error("{0}")]
    Program(Box<polyalloc_program::ProgramError>),
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io { path: String, message: String },
}

impl FoldError {
    /// An I/O error on `path`.
    pub fn io(path: &std::path::Path, e: std::io::Error) -> FoldError {
        FoldError::Io { path: path.display().to_string(), message: e.to_string() }
    }

    /// True for errors of the user's input or machine (exit code 1), false for failures
    /// of a step (exit code 2).
    pub fn is_input(&self) -> bool {
        matches!(self, FoldError::Input(_) | FoldError::Toolchain(_) | FoldError::Io { .. })
    }
}

impl From<polyalloc_suite::SuiteError> for FoldError {
    fn from(e: polyalloc_suite::SuiteError) -> Self {
        FoldError::Suite(Box::new(e))
    }
}

impl From<polyalloc_formulation::Error> for FoldError {
    fn from(e: polyalloc_formulation::Error) -> Self {
        FoldError::Formulation(Box::new(e))
    }
}

impl From<polyalloc_program::ProgramError> for FoldError {
    fn from(e: polyalloc_program::ProgramError) -> Self {
        FoldError::Program(Box::new(e))
    }
}
