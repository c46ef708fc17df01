//! The crate's typed errors.

use polyalloc_ilp::SolveError;

/// A parse error with its position (1-based line and column) and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: expected {expected}, found {found}")]
pub struct ParseError {
    /// 1-based line of the offending token.
    pub line: usize,
    /// 1-based column of the offending token.
    pub column: usize,
    /// What the parser expected there.
    pub expected: String,
    /// What it found (the token text, or `end of input`).
    pub found: String,
}

/// Every error of the formulation layer.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Error {
    /// Exact integer arithmetic overflowed `i64` (never wraps).
    #[error("integer overflow while {0}")]
    Overflow(String),
    /// Text could not be parsed.
    #[error("parse error: {0}")]
    Parse(#[from] ParseError),
    /// Two objects live in incompatible spaces.
    #[error("space mismatch: {0}")]
    SpaceMismatch(String),
    /// An operation needs a relation (map) but got a set, or the converse.
    #[error("wrong kind of object: {0}")]
    WrongKind(String),
    /// A name is not known in the space or parameter list.
    #[error("unknown name `{0}`")]
    UnknownName(String),
    /// A value for every parameter is needed.
    #[error("parameter values: {0}")]
    ParamValues(String),
    /// A set to enumerate or scan is unbounded in some dimension.
    #[error("cannot enumerate: dimension `{0}` is unbounded for the given parameter values")]
    Unbounded(String),
    /// A set would have more pieces (basic sets) than a limit allows: refused before
    /// it is built, with the number it would need.
    #[error("{what} would need {count} pieces, more than the limit of {limit}")]
    TooManyPieces {
        /// What would be built, with its position when it is text.
        what: String,
        /// The number of pieces it would need (exact, or a lower bound in words).
        count: String,
        /// The limit.
        limit: usize,
    },
    /// A computation would exceed a size limit (the rows of a Fourier–Motzkin
    /// elimination): refused before it exhausts memory.
    #[error("limit: {0}")]
    Limit(String),
    /// Enumeration exceeded its point limit.
    #[error("enumeration exceeded the limit of {0} points")]
    TooManyPoints(usize),
    /// An ILP solve failed for another reason than infeasibility.
    #[error("solver: {0}")]
    Solver(#[from] SolveError),
    /// An ILP model could not be built.
    #[error("model: {0}")]
    Model(#[from] polyalloc_ilp::ModelError),
    /// The program description is inconsistent.
    #[error("program: {0}")]
    Program(String),
    /// A modular mapping is malformed (wrong arity, non-positive modulus...).
    #[error("mapping: {0}")]
    Mapping(String),
    /// A polynomial could not be parsed or evaluated.
    #[error("polynomial: {0}")]
    Polynomial(String),
}

impl Error {
    /// The reason to stop when this error is one: the run's time budget ran out or the
    /// process was interrupted (`polyalloc_ilp::budget`); the work was stopped, it did
    /// not fail on its own.
    pub fn stop(&self) -> Option<&SolveError> {
        match self {
            Error::Solver(e) if polyalloc_ilp::budget::is_stop(e) => Some(e),
            _ => None,
        }
    }
}

/// Result alias of the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

pub(crate) fn ovf(what: &str) -> Error {
    Error::Overflow(what.to_string())
}
