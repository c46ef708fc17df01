//! Typed errors of the flow method, and how each becomes a
//! [`polyalloc_alloc::MethodError`] (by variant, never by message text).

use polyalloc_alloc::MethodError;
use polyalloc_ilp::SolveError;
use polyalloc_program::ProgramError;

/// Everything that can go wrong, with the place in the input it concerns.
#[derive(Clone, Debug, thiserror::Error)]
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
    /// The network flow and Problem 1 solved as an ILP at an instance disagree on the
    /// optimum (one of them is wrong; never expected).
    #[error("flow and ILP disagree: {0}")]
    Disagreement(String),
    /// Sec. 5's contraction does not cover this write reference (not unit-stride).
    #[error("contraction (Sec. 5): {0}")]
    Contraction(String),
    /// A statement of a loop body cannot be read (syntax).
    #[error("loop body: {0}")]
    Body(String),
    /// A subscript is not affine in the loop indices and parameters (an indirection
    /// such as `EX(IX(K))`, or an intrinsic): the program model, and so the executor
    /// and the conflict sets, cannot represent the statement (LL14).
    #[error(
        "statement `{statement}`: `{reference}` is not an affine array reference (subscripts must be affine in the loop indices and parameters)"
    )]
    NotAffine { statement: String, reference: String },
    /// Building or analysing the program in the one program model failed.
    #[error("program model: {0}")]
    Program(Box<ProgramError>),
    /// Polynomial arithmetic or evaluation failed.
    #[error("polynomial: {0}")]
    Poly(Box<polyalloc_formulation::Error>),
}

impl From<polyalloc_formulation::Error> for FlowError {
    fn from(e: polyalloc_formulation::Error) -> Self {
        FlowError::Poly(Box::new(e))
    }
}

impl From<ProgramError> for FlowError {
    fn from(e: ProgramError) -> Self {
        FlowError::Program(Box::new(e))
    }
}

impl From<&FlowError> for MethodError {
    /// By variant: a malformed section is bad input; an assumption that fails or a
    /// body the program model cannot represent makes the method not applicable; a
    /// solver failure keeps the solver's kind; polyhedral failures are formulation
    /// errors; the rest (overflow, infeasible network, internal checks, a disagreement
    /// with the ILP) is the method's own failure.
    fn from(e: &FlowError) -> Self {
        match e {
            FlowError::Input { .. } | FlowError::Body(_) => MethodError::BadInput(e.to_string()),
            FlowError::Assumption { .. } | FlowError::NotAffine { .. } | FlowError::Contraction(_) => MethodError::NotApplicable(e.to_string()),
            FlowError::Solver { source, .. } => MethodError::Solver((**source).clone()),
            FlowError::Poly(f) => MethodError::from((**f).clone()),
            FlowError::Program(p) => match &**p {
                ProgramError::Formulation(f) => MethodError::from(f.clone()),
                ProgramError::Solver(s) => MethodError::Solver(s.clone()),
                _ => MethodError::Method(e.to_string()),
            },
            FlowError::Overflow(_) | FlowError::Infeasible(_) | FlowError::Internal(_) | FlowError::Disagreement(_) => {
                MethodError::Method(e.to_string())
            }
        }
    }
}

impl From<FlowError> for MethodError {
    fn from(e: FlowError) -> Self {
        MethodError::from(&e)
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
