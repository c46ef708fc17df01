//! # polyalloc-backend-microlp: the embedded default backend
//!
//! [`MicrolpSolver`] implements [`polyalloc_ilp::Solver`] with
//! [microlp](https://docs.rs/microlp), a pure-Rust simplex and branch-and-bound solver.
//! It needs no system package, so it is always compiled in and is the default backend
//! of the CLI and of `cargo xtask reproduce`. On polyalloc's tiny models it is also the
//! fastest backend (no process-level start-up cost); `cargo xtask bench` and the
//! `polyalloc-solvers` criterion benchmark measure that.
//!
//! Safety net: older microlp releases returned wrong MILP answers on some models
//! (upstream issues #10, #15, #42). Every answer goes through the exact check of
//! [`polyalloc_ilp::verify`] (the provided [`Solver::solve`]), so a wrong point becomes a
//! [`SolveError::Verification`] and never a result.
//!
//! Two translation rules, both documented traps of microlp:
//! * microlp's integer variables have `i32` bounds. An integer variable with an infinite
//!   bound gets the artificial bound ±[`ARTIFICIAL_BOUND`] (microlp would otherwise report
//!   `Optimal` with x = 2147483647 on an unbounded model). When the optimum sits on an
//!   artificial bound, the model is solved again with the artificial bounds doubled: a
//!   strictly better objective means the objective is unbounded
//!   ([`SolveError::Unbounded`]); the same objective means the point is an optimum (for
//!   example any point of a feasibility model) and it is returned
//!   ([`polyalloc_ilp::solve_with_artificial_bounds`], shared with the good_lp backend's
//!   microlp). Finite bounds beyond
//!   the artificial one are an [`SolveError::InvalidModel`]: polyalloc never needs such
//!   values.
//! * microlp has no thread option (it is single-threaded) and logs through `log`, which
//!   polyalloc never initialises, so `threads` and `verbose` have no effect.

use microlp::{ComparisonOp, OptimizationDirection, Problem, SolveOutcome, TerminationReason};
use polyalloc_ilp::{
    Checked, Cmp, Constraint, Incremental, Model, RawSession, RawSolution, RawStatus, Sense, Session, SolveError, SolveOptions, SolveTimes, Solver,
    VarKind,
};
use std::time::{Duration, Instant};

/// Artificial bound given to integer variables with an infinite bound.
pub const ARTIFICIAL_BOUND: i64 = 1_000_000_000;

/// The microlp backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct MicrolpSolver;

impl MicrolpSolver {
    /// A new instance (stateless).
    pub fn new() -> Self {
        MicrolpSolver
    }
}

fn invalid(model: &Model, message: String) -> SolveError {
    SolveError::InvalidModel { model: model.name().to_string(), message }
}

impl Solver for MicrolpSolver {
    fn name(&self) -> &str {
        "microlp"
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.solve_raw_timed(model, options).map(|(r, _)| r)
    }

    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        solve_from(model, options, None)
    }

    fn incremental(&self) -> Option<&dyn Incremental> {
        Some(self)
    }
}

/// microlp cannot change the objective of a solved MILP, so its sessions rebuild the
/// problem for every solve (the build is timed as such) and pass the previous optimum
/// as microlp's `warm_start` (an incumbent from the first node on).
impl Incremental for MicrolpSolver {
    fn start<'a>(&'a self, model: &Model, _options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError> {
        Ok(Box::new(Checked::new(model, Rebuilds, self.name(), Duration::ZERO, Duration::ZERO)))
    }
}

/// The backend side of a microlp session: nothing kept but the model itself.
struct Rebuilds;

impl RawSession for Rebuilds {
    fn set_objective(&mut self, _model: &Model) -> Result<(), SolveError> {
        Ok(())
    }
    fn add_constraint(&mut self, _model: &Model, _row: &Constraint) -> Result<(), SolveError> {
        Ok(())
    }
    fn solve_raw(&mut self, model: &Model, options: &SolveOptions, start: Option<&[f64]>) -> Result<(RawSolution, SolveTimes), SolveError> {
        solve_from(model, options, start)
    }
}

/// A solve (two when an artificial bound is hit,
/// [`polyalloc_ilp::solve_with_artificial_bounds`]), from `start` when given.
fn solve_from(model: &Model, options: &SolveOptions, start: Option<&[f64]>) -> Result<(RawSolution, SolveTimes), SolveError> {
    let mut times = SolveTimes { build: Some(Duration::ZERO), setup: Some(Duration::ZERO), ..SolveTimes::default() };
    let r = polyalloc_ilp::solve_with_artificial_bounds(model, ARTIFICIAL_BOUND, |b| solve_with_bound(model, options, b, start, &mut times))?;
    Ok((r, times))
}

/// One microlp solve with `artificial` as the bound of unbounded integer variables. The
/// translation is added to `times.build`, the solve to `times.solve` (microlp has no
/// separate set-up).
fn solve_with_bound(
    model: &Model,
    options: &SolveOptions,
    artificial: i64,
    start: Option<&[f64]>,
    times: &mut SolveTimes,
) -> Result<RawSolution, SolveError> {
    {
        let built = Instant::now();
        let dir = match model.sense() {
            Sense::Minimize => OptimizationDirection::Minimize,
            Sense::Maximize => OptimizationDirection::Maximize,
        };
        let mut pb = Problem::new(dir);
        let obj = model.objective();
        let mut vars = Vec::with_capacity(model.num_vars());
        for (v, id) in model.vars().iter().zip(model.var_ids()) {
            let c = obj.coef(id) as f64;
            let var = match v.kind {
                VarKind::Continuous => pb.add_var(c, (v.lower.map_or(f64::NEG_INFINITY, |l| l as f64), v.upper.map_or(f64::INFINITY, |u| u as f64))),
                VarKind::Integer | VarKind::Binary => {
                    let lo = v.lower.unwrap_or(-artificial);
                    let up = v.upper.unwrap_or(artificial);
                    if lo.abs() > 2 * ARTIFICIAL_BOUND || up.abs() > 2 * ARTIFICIAL_BOUND {
                        return Err(invalid(
                            model,
                            format!("integer variable `{}` has a bound beyond ±{}, which microlp cannot represent", v.name, 2 * ARTIFICIAL_BOUND),
                        ));
                    }
                    if lo > up {
                        return Err(SolveError::Infeasible);
                    }
                    // Both fit i32 by the check above.
                    pb.add_integer_var(c, (lo as i32, up as i32))
                }
            };
            vars.push(var);
        }
        for con in model.constraints() {
            let terms: Vec<(microlp::Variable, f64)> = con.expr.terms().map(|(v, a)| (vars[v.index()], a as f64)).collect();
            let op = match con.cmp {
                Cmp::Le => ComparisonOp::Le,
                Cmp::Ge => ComparisonOp::Ge,
                Cmp::Eq => ComparisonOp::Eq,
            };
            pb.add_constraint(terms.as_slice(), op, con.rhs as f64);
        }
        let mut opts = microlp::SolveOptions::default();
        opts.time_limit = options.time_limit;
        opts.mip_gap = options.mip_rel_gap;
        if let Some(point) = start.filter(|p| p.len() == vars.len() && p.iter().all(|x| x.is_finite())) {
            opts.warm_start = Some(vars.iter().copied().zip(point.iter().copied()).collect());
            times.warm_start = true;
        }
        times.build = Some(times.build.unwrap_or_default() + built.elapsed());
        let solving = Instant::now();
        let outcome = pb.solve_with(opts);
        times.solve += solving.elapsed();
        let outcome = outcome.map_err(|e| match e {
            microlp::Error::Infeasible => SolveError::Infeasible,
            microlp::Error::Unbounded => SolveError::Unbounded,
            other => SolveError::Solver { backend: "microlp".into(), message: other.to_string() },
        })?;
        let sol = match outcome {
            SolveOutcome::Solution(s) => s,
            SolveOutcome::Interrupted(_) => return Err(SolveError::TimeLimitNoIncumbent),
        };
        let status = match sol.termination_reason() {
            TerminationReason::ProvenOptimal => RawStatus::Optimal,
            TerminationReason::MipGap => RawStatus::GapLimit,
            _ => RawStatus::TimeLimit,
        };
        let values: Vec<f64> = vars.iter().map(|&v| sol.var_value(v)).collect();
        Ok(RawSolution { status, values })
    }
}
