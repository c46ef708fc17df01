//! Typed errors of the flow method.

use polyalloc_ilp::SolveError;

/// Everything that can go wrong, with the place in the input it concerns.
#[derive(Debug, thiserror::Error)]
pub enum FlowError {
    /// The `flow` section of an example is malformed (`field`: what was expected).
    #[error("flow section, {field}: {message}")]
    Input { field: String, message: String },
    /// An assumption of Sec. 3.3 (Assumption 1, 2 or 3) does not hold and cannot be
    /// turned into a run-time condition.
    #[error("Assumption {number} does not hold: {message}")]
    Assumption { number: u8, message: String },
    /// Exact integer arithmetic overflowed.
    #[error("integer overflow while {0}")]
    Overflow(String),
    /// The network flow problem (Problem 4) has no feasible flow.
    #[error("Problem 4 is infeasible: {0}")]
    Infeasible(String),
    /// An internal consistency check of the algorithm failed (a bug, never expected).
    #[error("internal check failed: {0}")]
    Internal(String),
    /// An ILP solve failed.
    #[error("ILP `{model}`: {source}")]
    Solver { model: String, source: Box<SolveError> },
    /// The loop body cannot be executed (unsupported construct, or a run-time fault).
    #[error("execution: {0}")]
    Exec(String),
    /// Polynomial arithmetic or evaluation failed.
    #[error("polynomial: {0}")]
    Poly(Box<polyalloc_formulation::Error>),
}

impl From<polyalloc_formulation::Error> for FlowError {
    fn from(e: polyalloc_formulation::Error) -> Self {
        FlowError::Poly(Box::new(e))
    }
}

/// Result with [`FlowError`].
pub type Result<T> = std::result::Result<T, FlowError>;

pub(crate) fn input(field: impl Into<String>, message: impl Into<String>) -> FlowError {
    FlowError::Input { field: field.into(), message: message.into() }
}

pub(crate) fn ovf(what: &str) -> FlowError {
    FlowError::Overflow(what.to_string())
}
