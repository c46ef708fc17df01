//! Reasoning on variable bounds that backends share: artificial bounds for solvers whose
//! integer variables cannot be unbounded, and when bounds alone settle "unbounded".
//!
//! microlp keeps integer bounds in `i32`, and good_lp's microlp adaptor turns an infinite
//! integer bound into `i32::MIN` / `i32::MAX`: on an unbounded model the backend then
//! reports "optimal" with a variable at 2147483647, a point that passes the exact check
//! (the model has no such bound) and is still a wrong answer. [`solve_with_artificial_bounds`]
//! is the remedy, solver-independent: solve with the artificial bound `±bound` on every
//! integer variable that has an infinite bound; when the answer sits on such a bound,
//! solve again with `±2·bound`: a strictly better objective means the objective is
//! unbounded ([`SolveError::Unbounded`]), the same objective means the first point is an
//! optimum (any point of a feasibility model, for example) and it is returned.

use crate::model::{Model, Sense};
use crate::solve::{RawSolution, SolveError};

/// True when an integer variable with an infinite bound ended on the artificial bound
/// `±bound` (or beyond it) in `values`.
pub fn hits_artificial_bound(model: &Model, values: &[f64], bound: i64) -> bool {
    model.vars().iter().zip(values).any(|(v, &x)| {
        if !v.kind.is_integral() {
            return false;
        }
        let x = x.round();
        (v.lower.is_none() && x <= -(bound as f64)) || (v.upper.is_none() && x >= bound as f64)
    })
}

/// Solves through `solve(b)`, which must solve `model` with every infinite bound of an
/// integer variable replaced by `±b`; decides unboundedness as the module documentation
/// says. `solve` is called once, or twice (with `bound`, then `2 * bound`).
pub fn solve_with_artificial_bounds(
    model: &Model,
    bound: i64,
    mut solve: impl FnMut(i64) -> Result<RawSolution, SolveError>,
) -> Result<RawSolution, SolveError> {
    let first = solve(bound)?;
    if !hits_artificial_bound(model, &first.values, bound) {
        return Ok(first);
    }
    let second = solve(bound.saturating_mul(2))?;
    let obj = |values: &[f64]| model.objective().eval_f64(values).0;
    let (a, b) = (obj(&first.values), obj(&second.values));
    let improved = match model.sense() {
        Sense::Minimize => b < a - 1e-6 * a.abs().max(1.0),
        Sense::Maximize => b > a + 1e-6 * a.abs().max(1.0),
    };
    if improved {
        Err(SolveError::Unbounded)
    } else {
        Ok(first)
    }
}

/// True when the objective cannot be unbounded over the box of the variable bounds: every
/// variable with a non-zero objective coefficient is bounded in the improving direction.
/// Then a report "unbounded" is impossible and a report "infeasible or unbounded" means
/// infeasible, without a second solve.
pub fn objective_bounded_over_bounds(model: &Model) -> bool {
    model.objective().terms().all(|(v, c)| {
        let var = model.var(v);
        let improving_up = (c > 0) == (model.sense() == Sense::Maximize);
        if improving_up {
            var.upper.is_some()
        } else {
            var.lower.is_some()
        }
    })
}
