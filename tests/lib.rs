//! Shared helpers of the workspace-level integration tests.

use polyalloc_alloc::Allocator;
use polyalloc_formulation::{Error, Map};
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
