//! # polyalloc-alloc: the allocator interface
//!
//! Every storage-allocation method of polyalloc (successive modulo, SMO, the lattice
//! heuristics, occupancy vectors, ...) implements [`Allocator`]: given an array's
//! conflict set with its parameters and context ([`Problem`]) and any
//! [`polyalloc_ilp::Solver`], it proposes a modular mapping. [`allocate`] runs a method
//! and then **verifies** the mapping with the exact checker of `polyalloc-formulation`
//! (which shares no code path with any method) before anything is returned: a mapping
//! that fails is an [`AllocError::Invalid`] naming the conflict it breaks, never a
//! result. It also records the statistics of every ILP the method solved (variables,
//! constraints, solve time) through [`polyalloc_ilp::Recording`].
//!
//! [`MethodRegistry`] maps method names (`lefe`, `smo`, ...) to implementations so the
//! CLI and the `cargo xtask` harness pick up every method automatically.
//!
//! [`width`] holds the formulation piece that several methods share: an affine bound
//! `u . P + w` on `|h . (s - t)|` over every conflict polyhedron, linearised with Farkas'
//! lemma (004 Sec. 3.4.2, 001 Sec. 4.1.1).

pub mod linalg;
pub mod pieces;
pub mod width;

use polyalloc_formulation::checker::Verdict;
use polyalloc_formulation::{BasicSet, Checker, ConflictSet, ModularMapping, Polynomial};
use polyalloc_ilp::{Recording, SolveError, SolveRecord, Solver};
use std::time::{Duration, Instant};

/// One array's storage problem.
#[derive(Clone, Debug)]
pub struct Problem {
    /// The example it comes from (for messages and model names).
    pub example: String,
    /// The conflict set (its relation's space names the array and the parameters).
    pub conflicts: ConflictSet,
    /// The parameter context, a zero-dimensional set such as `[N] -> { : N >= 2 }`.
    pub context: Option<BasicSet>,
    /// Concrete parameter values (in the conflict relation's parameter order) at which
    /// the checker also enumerates conflicts when a symbolic proof is out of reach.
    pub instances: Vec<Vec<i64>>,
}

impl Problem {
    /// The parameter names, in order.
    pub fn params(&self) -> &[String] {
        &self.conflicts.relation.space().params
    }
    /// The zero-dimensional space of the parameters, over which moduli are affine
    /// (`[N] -> { : }`).
    pub fn param_space(&self) -> polyalloc_formulation::Space {
        let refs: Vec<&str> = self.params().iter().map(String::as_str).collect();
        polyalloc_formulation::Space::set(&refs, polyalloc_formulation::Tuple::anonymous(&[]))
    }
    /// The array's name.
    pub fn array(&self) -> &str {
        &self.conflicts.array
    }
    /// The array with the dimension names of the conflict relation's first tuple
    /// (`A[t, i]` of `A[t, i] -> A[t2, i2]`), used to print mappings.
    pub fn array_tuple(&self) -> polyalloc_formulation::Tuple {
        let sp = self.conflicts.relation.space();
        sp.input.clone().unwrap_or_else(|| sp.output.clone())
    }
    /// The array's dimensionality.
    pub fn n_dims(&self) -> usize {
        self.conflicts.relation.space().n_out()
    }
}

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
    #[error("{method}: mapping {mapping} is invalid: {reason}")]
    Invalid { method: String, mapping: String, reason: String },
    /// The method does not apply to this problem.
    #[error("{method}: not applicable: {reason}")]
    NotApplicable { method: String, reason: String },
}

impl AllocError {
    /// Wraps a formulation error.
    pub fn formulation(method: &str) -> impl Fn(polyalloc_formulation::Error) -> AllocError + '_ {
        move |source| AllocError::Formulation { method: method.to_string(), source: Box::new(source) }
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

/// A storage-allocation method.
pub trait Allocator: Send + Sync {
    /// Registry name (`lefe`, `smo`, ...).
    fn name(&self) -> &'static str;
    /// One line: what the method is and where it comes from.
    fn summary(&self) -> &'static str;
    /// Proposes a mapping. Solve every ILP through `solver` (it records statistics).
    /// The result is verified by [`allocate`]; implementations need not check it.
    fn find_mapping(&self, problem: &Problem, solver: &dyn Solver) -> Result<ModularMapping, AllocError>;
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

/// A verified mapping and its statistics.
#[derive(Clone, Debug)]
pub struct Allocation {
    pub method: String,
    pub backend: String,
    pub mapping: ModularMapping,
    /// Product of the moduli (`None` when some dimension is not folded).
    pub size: Option<Polynomial>,
    pub verification: Verification,
    /// Every ILP the method solved, in order.
    pub ilps: Vec<SolveRecord>,
    /// Wall-clock time of the method (verification excluded).
    pub method_time: Duration,
    /// Wall-clock time of the verification.
    pub verify_time: Duration,
}

impl Allocation {
    /// Sum of the ILP solve times.
    pub fn solve_time(&self) -> Duration {
        self.ilps.iter().map(|r| r.elapsed).sum()
    }
}

/// Verifies a mapping against a problem with the independent exact checker.
pub fn verify(problem: &Problem, mapping: &ModularMapping, solver: &dyn Solver, method: &str) -> Result<Verification, AllocError> {
    let checker = Checker::new(solver);
    let verdict = checker
        .check(&problem.conflicts, mapping, problem.context.as_ref(), &problem.instances)
        .map_err(AllocError::formulation(method))?;
    match verdict {
        Verdict::Proven => Ok(Verification::Proven),
        Verdict::ProvenForInstancesOnly { reason, instances } => {
            if instances.is_empty() {
                Err(AllocError::Invalid {
                    method: method.to_string(),
                    mapping: mapping.to_string(),
                    reason: format!("not proven symbolically ({reason}) and no instance to check"),
                })
            } else {
                Ok(Verification::Instances { reason, instances })
            }
        }
        Verdict::Refuted(c) => Err(AllocError::Invalid {
            method: method.to_string(),
            mapping: mapping.to_string(),
            reason: format!(
                "conflicting cells {:?} and {:?} both land on {:?} (parameters {:?})",
                c.cell_a, c.cell_b, c.folded, c.params
            ),
        }),
        Verdict::NonPositiveModulus { row, params } => Err(AllocError::Invalid {
            method: method.to_string(),
            mapping: mapping.to_string(),
            reason: format!("modulus of row {row} is not positive for parameters {params:?}"),
        }),
    }
}

/// Runs `method` on `problem` with `solver`, records its ILPs, and verifies the mapping
/// before returning it.
pub fn allocate(method: &dyn Allocator, problem: &Problem, solver: &dyn Solver) -> Result<Allocation, AllocError> {
    allocate_recorded(method, problem, &Recording::new(solver))
}

/// [`allocate`] with a caller-provided recorder (e.g. one that dumps every model).
pub fn allocate_recorded<S: Solver>(
    method: &dyn Allocator,
    problem: &Problem,
    recorder: &Recording<S>,
) -> Result<Allocation, AllocError> {
    let name = method.name();
    recorder.take_records();
    let start = Instant::now();
    let mapping = method.find_mapping(problem, recorder)?;
    let method_time = start.elapsed();
    let ilps = recorder.take_records();
    let vstart = Instant::now();
    // Through the recorder, so that `--dump-lp` also writes the checker's models; its
    // records are then dropped: the statistics are the method's.
    let verification = verify(problem, &mapping, recorder, name)?;
    recorder.take_records();
    let verify_time = vstart.elapsed();
    let size = mapping.size().map_err(AllocError::formulation(name))?;
    Ok(Allocation {
        method: name.to_string(),
        backend: recorder.name().to_string(),
        mapping,
        size,
        verification,
        ilps,
        method_time,
        verify_time,
    })
}

/// Names to methods.
#[derive(Default)]
pub struct MethodRegistry {
    methods: Vec<Box<dyn Allocator>>,
}

impl MethodRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds a method (replacing one of the same name).
    pub fn register(&mut self, m: Box<dyn Allocator>) {
        self.methods.retain(|x| x.name() != m.name());
        self.methods.push(m);
    }
    /// The method called `name`.
    pub fn get(&self, name: &str) -> Option<&dyn Allocator> {
        self.methods.iter().find(|m| m.name() == name).map(|m| m.as_ref())
    }
    /// All methods in registration order.
    pub fn all(&self) -> impl Iterator<Item = &dyn Allocator> {
        self.methods.iter().map(|m| m.as_ref())
    }
    /// All names.
    pub fn names(&self) -> Vec<&'static str> {
        self.methods.iter().map(|m| m.name()).collect()
    }
    /// Resolves `all`, a name, or a comma-separated list.
    pub fn select(&self, spec: &str) -> Result<Vec<&dyn Allocator>, String> {
        if spec.trim() == "all" {
            return Ok(self.all().collect());
        }
        spec.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| self.get(s).ok_or_else(|| format!("unknown method `{s}`; available: {}", self.names().join(", "))))
            .collect()
    }
}
