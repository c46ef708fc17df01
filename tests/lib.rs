//! Shared helpers of the workspace-level integration tests.

use polyalloc_alloc::{Allocator, OnConflictSets, Problem, Verification};
use polyalloc_formulation::{Error, Map, ModularMapping, Polynomial};
use polyalloc_ilp::{SolveRecord, Solver};
use polyalloc_suite::Example;
use std::collections::BTreeSet;

/// Most conflict pairs a test enumerates for one instance; larger instances are
/// skipped by the concrete checks (the symbolic checker covers every parameter value).
pub const PAIR_LIMIT: usize = 400_000;

/// Parameter values of instance `k` in the order of `params` (by name).
pub fn values_for(ex: &Example, k: usize, params: &[String]) -> Option<Vec<i64>> {
    let inst = ex.instances.get(k)?;
    params.iter().map(|p| inst.get(p).copied()).collect()
}

/// The integer points of a relation at concrete parameters, or `None` when there are
/// more than [`PAIR_LIMIT`].
pub fn pairs(rel: &Map, params: &[i64]) -> Result<Option<BTreeSet<Vec<i64>>>, Error> {
    match rel.enumerate(params, PAIR_LIMIT) {
        Ok(v) => Ok(Some(v.into_iter().collect())),
        Err(Error::TooManyPoints(_)) => Ok(None),
        Err(e) => Err(e),
    }
}

/// Every backend compiled into this test build that is held to every paper result
/// (all but `polyalloc_solvers::LIMITED`, whose documented failures `cargo xtask
/// reproduce` records).
pub fn backends() -> Vec<Box<dyn polyalloc_ilp::Solver>> {
    let reg = polyalloc_solvers::registry();
    polyalloc_solvers::paper_backends().into_iter().map(|n| reg.create(n).expect("compiled-in backend")).collect()
}

/// A conflict-set method by registry name, from the same registry the CLI and the
/// harness use.
pub fn method(name: &str) -> &'static dyn Allocator {
    polyalloc::registry().allocator(name).unwrap_or_else(|| panic!("no conflict-set method `{name}` registered"))
}

/// A verified mapping of one conflict set, as the tests read it.
#[derive(Clone, Debug)]
pub struct Mapped {
    pub mapping: ModularMapping,
    /// The product of the moduli (`None` when a row is not folded).
    pub size: Option<Polynomial>,
    pub verification: Verification,
    /// Every ILP the method solved, in order (the checker's excluded).
    pub ilps: Vec<SolveRecord>,
}

/// Runs `method` on `problem` with `solver` through the facade's one door
/// (`polyalloc::run`, which verifies the mapping with the exact checker), as the CLI
/// and the harness do: no time limit.
pub fn allocate(method: &dyn Allocator, problem: &Problem, solver: &dyn Solver) -> Result<Mapped, Box<polyalloc::RunError>> {
    allocate_within(method, problem, solver.name(), None)
}

/// [`allocate`] on the registered backend `backend` within `time_limit` (the run's
/// whole budget, method and checker).
pub fn allocate_within(
    method: &dyn Allocator,
    problem: &Problem,
    backend: &str,
    time_limit: Option<std::time::Duration>,
) -> Result<Mapped, Box<polyalloc::RunError>> {
    let backend = polyalloc::backend(backend).unwrap_or_else(|e| panic!("backend `{backend}`: {e}"));
    let array = problem.conflicts.array.clone();
    let input = polyalloc::Input::from_problem(&array, problem.clone());
    let options = polyalloc::RunOptions { time_limit, ..polyalloc::RunOptions::default() };
    let v = polyalloc::run(&input, &OnConflictSets(method), &array, &backend, options)?;
    let mapping = v.outcome.mapping.unwrap_or_else(|| panic!("{}: no mapping", method.name()));
    Ok(Mapped { mapping, size: v.size, verification: v.verification, ilps: v.ilps })
}
