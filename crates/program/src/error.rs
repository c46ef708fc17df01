//! The crate's typed errors.

use polyalloc_formulation::Error as FError;
use polyalloc_ilp::SolveError;

/// Every error of `polyalloc-program`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProgramError {
    /// An error of the polyhedral layer (parsing, spaces, overflow, enumeration).
    #[error(transparent)]
    Formulation(#[from] FError),
    /// A solver failed (dependence analysis drops empty pieces through a solver).
    #[error("solver: {0}")]
    Solver(#[from] SolveError),
    /// The program description is inconsistent: which object, and what was expected.
    #[error("program: {0}")]
    Invalid(String),
    /// Two relations or tuples do not fit together.
    #[error("space mismatch: {0}")]
    Space(String),
    /// The executor could not run the program (not a mismatch of values: a malformed
    /// run, a limit, a body returning the wrong number of values).
    #[error("executor: {0}")]
    Exec(String),
    /// Exact integer arithmetic overflowed.
    #[error("integer overflow while {0}")]
    Overflow(String),
}

impl ProgramError {
    /// The reason to stop when this error is one (time budget, interruption): see
    /// [`FError::stop`].
    pub fn stop(&self) -> Option<&SolveError> {
        match self {
            ProgramError::Formulation(e) => e.stop(),
            ProgramError::Solver(e) if polyalloc_ilp::budget::is_stop(e) => Some(e),
            _ => None,
        }
    }
}

/// Result alias of the crate.
pub type Result<T, E = ProgramError> = std::result::Result<T, E>;
