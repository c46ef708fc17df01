//! # polyalloc-alloc: the method interface
//!
//! [`Method`] ([`method`]) is the one interface of every method of polyalloc, over one
//! typed [`Input`] (an example, or a conflict set built in code:
//! [`Input::from_problem`]) with one typed [`Outcome`]. Most methods (successive
//! modulo, SMO, the lattice heuristics) answer per array from its conflict set alone:
//! they implement the smaller [`Allocator`] (a [`Problem`] and any
//! [`polyalloc_ilp::Solver`] in, a modular mapping out) and become a [`Method`] through
//! [`OnConflictSets`]. A method never verifies its own answer: the `polyalloc` facade's
//! one door, `polyalloc::run`, checks every obligation of an outcome with [`verify`]
//! (the exact checker of `polyalloc-formulation`, which shares no code path with any
//! method) before anything is returned; a mapping that fails is an
//! [`AllocError::Invalid`] naming the conflict it breaks, never a result.
//!
//! The registry of all methods is the `polyalloc` facade's (the method crates never
//! import each other, and the facade imports them all).
//!
//! [`width`] holds the formulation piece that several methods share: an affine bound
//! `u . P + w` on `|h . (s - t)|` over every conflict polyhedron, linearised with Farkas'
//! lemma (Bhaskaracharya et al. 2016, Sec. 3.4.2, Darte et al. 2015, Sec. 4.1.1).

pub mod method;
pub mod pieces;
pub mod width;

pub use method::{
    conflict_set_time, details_of, Answer, Details, Execution, ExecutionCheck, Input, Method, MethodError, Obligation, OnConflictSets, Order,
    Outcome, Scope, SharedAnswer, SharedObligation, StorageFunction, StoragePlan, TimeFunction, TraceFunction,
};
use polyalloc_formulation::checker::Verdict;
use polyalloc_formulation::shared_checker::{check_shared, SharedVerdict};
use polyalloc_formulation::{Checker, ModularMapping, SharedMapping};
use polyalloc_ilp::{SolveError, Solver};
pub use polyalloc_suite::{Example, InterProblem, Problem};

/// Why a method gave no mapping.
#[derive(Debug, thiserror::Error)]
pub enum AllocError {
    /// The solver failed (infeasible where it should not be, time limit, ...).
    #[error("{method}: solver: {source}")]
    Solver {
        method: String,
        #[source]
        source: Box<SolveError>,
    },
    /// A set operation or formulation step failed.
    #[error("{method}: {source}")]
    Formulation {
        method: String,
        #[source]
        source: Box<polyalloc_formulation::Error>,
    },
    /// The method's own logic could not proceed.
    #[error("{method}: {message}")]
    Method { method: String, message: String },
    /// The exact checker refuted the mapping: it is never returned.
    #[error("{method}: mapping {mapping} is invalid: {refutation}")]
    Invalid { method: String, mapping: String, refutation: Box<Refutation> },
    /// The method does not apply to this problem.
    #[error("{method}: not applicable: {reason}")]
    NotApplicable { method: String, reason: String },
}

impl AllocError {
    /// Wraps a formulation error (a formulation step stopped by the run's time budget
    /// or an interruption is a [`AllocError::Solver`] with that kind, as when a solve is
    /// stopped).
    pub fn formulation(method: &str) -> impl Fn(polyalloc_formulation::Error) -> AllocError + '_ {
        move |source| match source {
            polyalloc_formulation::Error::Solver(e) if polyalloc_ilp::budget::is_stop(&e) => {
                AllocError::Solver { method: method.to_string(), source: Box::new(e) }
            }
            source => AllocError::Formulation { method: method.to_string(), source: Box::new(source) },
        }
    }
    /// Wraps a solver error.
    pub fn solver(method: &str) -> impl Fn(SolveError) -> AllocError + '_ {
        move |source| AllocError::Solver { method: method.to_string(), source: Box::new(source) }
    }
    /// A method-logic error.
    pub fn method(method: &str, message: impl Into<String>) -> AllocError {
        AllocError::Method { method: method.to_string(), message: message.into() }
    }
}

/// Why the exact checker did not accept a mapping.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refutation {
    /// Two conflicting cells land on the same location.
    #[error("conflicting cells {cell_a:?} and {cell_b:?} both land on {folded:?} (parameters {params:?})")]
    Conflict { cell_a: Vec<i64>, cell_b: Vec<i64>, folded: Vec<i64>, params: Vec<i64> },
    /// A modulus is zero or negative at some parameter value of the context.
    #[error("modulus of row {row} is not positive for parameters {params:?}")]
    NonPositiveModulus { row: usize, params: Vec<i64> },
    /// The symbolic proof did not conclude and there is no instance to enumerate.
    #[error("not proven symbolically ({reason}) and no instance to check")]
    Unproven { reason: String },
    /// Two conflicting cells, of one array or of two arrays sharing a storage, land on
    /// the same location of the shared storage.
    #[error("{0}")]
    SharedConflict(Box<SharedConflict>),
}

/// Two conflicting cells on one location of a shared storage ([`Refutation::SharedConflict`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("conflicting cells {array_a}{cell_a:?} and {array_b}{cell_b:?} both land on {location:?} (parameters {params:?})")]
pub struct SharedConflict {
    pub array_a: String,
    pub cell_a: Vec<i64>,
    pub array_b: String,
    pub cell_b: Vec<i64>,
    pub location: Vec<i64>,
    pub params: Vec<i64>,
}

impl Refutation {
    /// The short kind used in records: `conflict`, `non-positive-modulus`, `unproven`.
    pub fn kind(&self) -> &'static str {
        match self {
            Refutation::Conflict { .. } | Refutation::SharedConflict(_) => "conflict",
            Refutation::NonPositiveModulus { .. } => "non-positive-modulus",
            Refutation::Unproven { .. } => "unproven",
        }
    }
}

/// A storage-allocation method.
pub trait Allocator: Send + Sync {
    /// Registry name (`lefe`, `smo`, ...).
    fn name(&self) -> &'static str;
    /// One line: what the method is and where it comes from.
    fn summary(&self) -> &'static str;
    /// Proposes a mapping. Solve every ILP through `solver` (it records statistics).
    /// The result is verified by the facade's `run` ([`verify`]); implementations need
    /// not check it.
    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError>;
}

/// A borrowed allocator is an allocator (so that `OnConflictSets(&method)` runs a
/// method the caller keeps).
impl<A: Allocator + ?Sized> Allocator for &A {
    fn name(&self) -> &'static str {
        (**self).name()
    }
    fn summary(&self) -> &'static str {
        (**self).summary()
    }
    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError> {
        (**self).find_mapping(problem, solver)
    }
}

/// How the checker established validity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verification {
    /// Proven for every parameter value of the context.
    Proven,
    /// The symbolic proof did not conclude; every conflict pair was enumerated and
    /// separated at these parameter values.
    Instances { reason: String, instances: Vec<Vec<i64>> },
}

impl Verification {
    /// Short label for reports: `proven` or `instances`.
    pub fn label(&self) -> &'static str {
        match self {
            Verification::Proven => "proven",
            Verification::Instances { .. } => "instances",
        }
    }
}

/// Verifies a mapping against a problem with the independent exact checker.
pub fn verify(problem: &Problem, mapping: &ModularMapping, solver: &dyn Solver, method: &str) -> Result<Verification, AllocError> {
    let checker = Checker::new(solver);
    // Every modulus must be at least 1 wherever the array has cells; without the
    // array's space, wherever the context allows (conservative: refuses a modulus that
    // is not positive at a parameter value where the array might be empty).
    let cells = problem.space.clone().unwrap_or_else(|| polyalloc_formulation::Set::universe(problem.param_space()));
    let verdict = checker
        .check_in_space(&problem.conflicts, mapping, Some(&cells), problem.context.as_ref(), &problem.instances)
        .map_err(AllocError::formulation(method))?;
    let invalid = |refutation| AllocError::Invalid { method: method.to_string(), mapping: mapping.to_string(), refutation: Box::new(refutation) };
    match verdict {
        Verdict::Proven => Ok(Verification::Proven),
        Verdict::ProvenForInstancesOnly { reason, instances } => {
            if instances.is_empty() {
                Err(invalid(Refutation::Unproven { reason }))
            } else {
                Ok(Verification::Instances { reason, instances })
            }
        }
        Verdict::Refuted(c) => Err(invalid(Refutation::Conflict { cell_a: c.cell_a, cell_b: c.cell_b, folded: c.folded, params: c.params })),
        Verdict::NonPositiveModulus { row, params } => Err(invalid(Refutation::NonPositiveModulus { row, params })),
    }
}

/// Verifies a shared storage against an inter-array problem with the independent exact
/// checker of shared storage (`polyalloc_formulation::shared_checker`): no two
/// conflicting cells of one array or of two arrays on the same location, and every
/// modulus at least 1 wherever an array has cells.
pub fn verify_shared(problem: &InterProblem, mapping: &SharedMapping, solver: &dyn Solver, method: &str) -> Result<Verification, AllocError> {
    let checker = Checker::new(solver);
    let verdict = check_shared(&checker, &problem.conflicts, mapping, Some(&problem.spaces), problem.context.as_ref(), &problem.instances)
        .map_err(AllocError::formulation(method))?;
    let invalid = |refutation| AllocError::Invalid { method: method.to_string(), mapping: mapping.to_string(), refutation: Box::new(refutation) };
    match verdict {
        SharedVerdict::Proven => Ok(Verification::Proven),
        SharedVerdict::ProvenForInstancesOnly { reason, instances } if !instances.is_empty() => Ok(Verification::Instances { reason, instances }),
        SharedVerdict::ProvenForInstancesOnly { reason, .. } => Err(invalid(Refutation::Unproven { reason })),
        SharedVerdict::Refuted(c) => Err(invalid(Refutation::SharedConflict(Box::new(SharedConflict {
            array_a: c.array_a,
            cell_a: c.cell_a,
            array_b: c.array_b,
            cell_b: c.cell_b,
            location: c.location,
            params: c.params,
        })))),
        SharedVerdict::NonPositiveModulus { row, params } => Err(invalid(Refutation::NonPositiveModulus { row, params })),
    }
}
