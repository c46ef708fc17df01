//! Errors of the scheduling crate.

use polyalloc_formulation::Error as FError;
use polyalloc_ilp::SolveError;

/// Every error of `polyalloc-sched`.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SchedError {
    /// An error of the polyhedral layer (parsing, spaces, overflow, enumeration).
    #[error(transparent)]
    Formulation(#[from] FError),
    /// A solver failed for another reason than infeasibility.
    #[error("solver: {0}")]
    Solver(#[from] SolveError),
    /// An ILP model could not be built.
    #[error("model: {0}")]
    Model(#[from] polyalloc_ilp::ModelError),
    /// The example lacks the input of the method: no `pugh` section, or no program
    /// (`pugh.execution`) in it.
    #[error("{0}")]
    NoInput(String),
    /// Bad input: which object or field, and what was expected.
    #[error("input: {0}")]
    Input(String),
    /// Two relations or tuples do not fit together.
    #[error("space mismatch: {0}")]
    Space(String),
    /// No schedule was found within the search bounds.
    #[error("no schedule: {0}")]
    NoSchedule(String),
    /// Code generation does not support this case.
    #[error("code generation: {0}")]
    Codegen(String),
    /// Exact integer arithmetic overflowed.
    #[error("integer overflow while {0}")]
    Overflow(String),
    /// The program model or its dependence analysis failed.
    #[error(transparent)]
    Program(#[from] polyalloc_program::ProgramError),
}

/// Result alias of the crate.
pub type Result<T, E = SchedError> = std::result::Result<T, E>;

pub(crate) fn ovf(what: &str) -> SchedError {
    SchedError::Overflow(what.to_string())
}

/// A schedule evaluated inside the executor (a time function) reports its failure as the
/// executor's: the run could not proceed.
impl From<SchedError> for polyalloc_program::ProgramError {
    fn from(e: SchedError) -> Self {
        match e {
            SchedError::Program(p) => p,
            other => polyalloc_program::ProgramError::Exec(format!("schedule: {other}")),
        }
    }
}
