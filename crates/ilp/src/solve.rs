//! The [`Solver`] trait, options, statuses and the exact check of every answer.

use crate::expr::{LinExpr, VarId};
use crate::model::{Cmp, Model, Sense};
use std::fmt;
use std::num::NonZeroUsize;
use std::time::{Duration, Instant};

/// Options of one solve. Defaults: no time limit, the backend's thread default, MIP
/// relative gap **0** (polyalloc needs proven optima; HiGHS alone would stop at 1e-4),
/// silent.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// Wall-clock limit of the solve.
    pub time_limit: Option<Duration>,
    /// Threads the backend may use (`None`: the backend's default).
    pub threads: Option<NonZeroUsize>,
    /// Relative MIP gap at which a backend may stop; 0 asks for a proven optimum.
    pub mip_rel_gap: f64,
    /// Let the backend print its log.
    pub verbose: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions { time_limit: None, threads: None, mip_rel_gap: 0.0, verbose: false }
    }
}

impl SolveOptions {
    /// Sets the time limit.
    pub fn with_time_limit(mut self, limit: Duration) -> Self {
        self.time_limit = Some(limit);
        self
    }
    /// Sets the thread count.
    pub fn with_threads(mut self, threads: NonZeroUsize) -> Self {
        self.threads = Some(threads);
        self
    }
    /// Sets the relative MIP gap.
    pub fn with_mip_rel_gap(mut self, gap: f64) -> Self {
        self.mip_rel_gap = gap;
        self
    }
    /// Sets verbosity.
    pub fn with_verbose(mut self, verbose: bool) -> Self {
        self.verbose = verbose;
        self
    }
}

/// How a backend ended when it has a point to report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RawStatus {
    /// Proven optimal (to the requested gap, 0 by default).
    Optimal,
    /// The time limit stopped the search with an incumbent.
    TimeLimit,
    /// A non-zero `mip_rel_gap` stopped the search with an incumbent.
    GapLimit,
}

/// A backend's answer before the exact check: one `f64` per variable, in model order.
#[derive(Clone, Debug, PartialEq)]
pub struct RawSolution {
    pub status: RawStatus,
    pub values: Vec<f64>,
}

/// Status of a verified [`Solution`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolutionStatus {
    /// Proven optimal.
    Optimal,
    /// Feasible incumbent found before the time limit; optimality not proven.
    TimeLimitFeasible,
    /// Feasible incumbent within the requested non-zero relative gap.
    GapLimitFeasible,
}

impl From<RawStatus> for SolutionStatus {
    fn from(s: RawStatus) -> Self {
        match s {
            RawStatus::Optimal => SolutionStatus::Optimal,
            RawStatus::TimeLimit => SolutionStatus::TimeLimitFeasible,
            RawStatus::GapLimit => SolutionStatus::GapLimitFeasible,
        }
    }
}

/// Why a point is not a solution of a model.
#[derive(Clone, Debug, PartialEq)]
pub enum Violation {
    /// The backend returned the wrong number of values.
    Length { expected: usize, got: usize },
    /// A value is NaN or infinite.
    NotFinite { var: String, value: f64 },
    /// An integer variable's value is not within the integrality tolerance of an integer.
    NotIntegral { var: String, value: f64 },
    /// An integer variable's rounded value does not fit `i64`.
    OutOfRange { var: String, value: f64 },
    /// A bound is violated.
    Bound { var: String, value: String, lower: Option<i64>, upper: Option<i64> },
    /// A constraint is violated (`lhs` is the value of its left-hand side).
    Constraint { name: String, lhs: String, cmp: Cmp, rhs: i64, exact: bool },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::Length { expected, got } => {
                write!(f, "expected {expected} variable values, got {got}")
            }
            Violation::NotFinite { var, value } => write!(f, "variable `{var}` has value {value}"),
            Violation::NotIntegral { var, value } => {
                write!(f, "integer variable `{var}` has non-integral value {value}")
            }
            Violation::OutOfRange { var, value } => {
                write!(f, "integer variable `{var}` = {value} does not fit in 64 bits")
            }
            Violation::Bound { var, value, lower, upper } => {
                let lo = lower.map_or("-inf".to_string(), |l| l.to_string());
                let up = upper.map_or("+inf".to_string(), |u| u.to_string());
                write!(f, "variable `{var}` = {value} is outside its bounds [{lo}, {up}]")
            }
            Violation::Constraint { name, lhs, cmp, rhs, exact } => write!(
                f,
                "constraint `{name}` violated: left-hand side {lhs} {cmp} {rhs} is false ({})",
                if *exact { "exact integer check" } else { "checked with tolerance: continuous variables" }
            ),
        }
    }
}

/// Why a solve produced no solution. The variants are never collapsed into each other.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum SolveError {
    #[error("the model is infeasible")]
    Infeasible,
    #[error("the model is unbounded")]
    Unbounded,
    /// Only when the backend itself cannot tell after its own re-checks.
    #[error("the model is infeasible or unbounded (the backend could not decide which)")]
    InfeasibleOrUnbounded,
    #[error("the time limit was reached before any feasible point was found")]
    TimeLimitNoIncumbent,
    #[error("backend `{backend}` failed: {message}")]
    Solver { backend: String, message: String },
    #[error("backend `{backend}` returned a point that fails the exact check: {violation}")]
    Verification { backend: String, violation: Violation },
    #[error("could not write the model to `{path}`: {message}")]
    Dump { path: String, message: String },
    #[error("invalid model `{model}`: {message}")]
    InvalidModel { model: String, message: String },
    /// A wall-clock budget shared by several solves (one method run) is used up.
    #[error("backend `{backend}`: time budget of {seconds} s exhausted")]
    TimeBudget { backend: String, seconds: f64 },
    /// The process was asked to stop (Ctrl-C, SIGTERM): see [`crate::budget::interrupt`].
    #[error("interrupted")]
    Interrupted,
}

impl SolveError {
    /// The short kind used in records: `infeasible`, `unbounded`,
    /// `infeasible-or-unbounded`, `time-limit`, `time-budget`, `solver`,
    /// `verification`, `dump`, `invalid-model`, `interrupted`.
    pub fn kind(&self) -> &'static str {
        match self {
            SolveError::Infeasible => "infeasible",
            SolveError::Unbounded => "unbounded",
            SolveError::InfeasibleOrUnbounded => "infeasible-or-unbounded",
            SolveError::TimeLimitNoIncumbent => "time-limit",
            SolveError::TimeBudget { .. } => "time-budget",
            SolveError::Interrupted => "interrupted",
            SolveError::Solver { .. } => "solver",
            SolveError::Verification { .. } => "verification",
            SolveError::Dump { .. } => "dump",
            SolveError::InvalidModel { .. } => "invalid-model",
        }
    }
}

/// Where the time of one solve went. A backend that cannot tell its phases apart
/// reports its whole call as `solve` with `build` and `setup` unknown (`None`); the
/// built-in backends, HiGHS and CBC measure each phase.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SolveTimes {
    /// Translating the polyalloc [`Model`] into the backend's representation (zero for
    /// a re-solve of a kept model, which only translates the change).
    pub build: Option<Duration>,
    /// Creating, loading and configuring the backend's instance.
    pub setup: Option<Duration>,
    /// The backend's optimisation call(s) (every call when the backend re-solves to
    /// decide a status).
    pub solve: Duration,
    /// polyalloc's exact check of the answer ([`verify`]).
    pub check: Duration,
    /// True when the model was kept from an earlier solve and only changed
    /// ([`Incremental`](Incremental)).
    pub incremental: bool,
    /// True when the backend was given a start point (the previous optimum).
    pub warm_start: bool,
}

impl SolveTimes {
    /// Every phase together.
    pub fn total(&self) -> Duration {
        self.build.unwrap_or_default() + self.setup.unwrap_or_default() + self.solve + self.check
    }
}

/// A solution checked against the model: integer variables rounded and verified exactly.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    status: SolutionStatus,
    values: Vec<f64>,
    ints: Vec<i64>,
    objective: f64,
    objective_exact: Option<i128>,
    exact: bool,
    backend: String,
    elapsed: Duration,
    times: SolveTimes,
}

impl Solution {
    /// Optimal, or which limit stopped the search.
    pub fn status(&self) -> SolutionStatus {
        self.status
    }
    /// True when proven optimal.
    pub fn is_optimal(&self) -> bool {
        self.status == SolutionStatus::Optimal
    }
    /// Value of a variable (integer variables: the exact rounded value).
    pub fn value(&self, v: VarId) -> f64 {
        self.values[v.index()]
    }
    /// The exact value of an integer or binary variable (for a continuous variable: the
    /// nearest integer, which is rarely what you want).
    pub fn int_value(&self, v: VarId) -> i64 {
        self.ints[v.index()]
    }
    /// All values, in variable order.
    pub fn values(&self) -> &[f64] {
        &self.values
    }
    /// The objective value recomputed from the checked point (constant part included).
    pub fn objective(&self) -> f64 {
        self.objective
    }
    /// The objective as an exact integer, when it involves only integer variables.
    pub fn objective_exact(&self) -> Option<i128> {
        self.objective_exact
    }
    /// True when every bound and constraint was checked in exact integer arithmetic
    /// (the model has no continuous variable in any constraint).
    pub fn is_exact(&self) -> bool {
        self.exact
    }
    /// The backend that produced it.
    pub fn backend(&self) -> &str {
        &self.backend
    }
    /// Wall-clock time of the solve, check included.
    pub fn elapsed(&self) -> Duration {
        self.elapsed
    }
    /// The solve's time by phase (model build, solver set-up, solve, exact check).
    pub fn times(&self) -> SolveTimes {
        self.times
    }
    /// Sets the elapsed time and the phases (for solves run outside [`Solver::solve`],
    /// such as an [`Incremental`](Incremental) session).
    pub fn with_times(mut self, elapsed: Duration, times: SolveTimes) -> Self {
        self.elapsed = elapsed;
        self.times = times;
        self
    }
}

/// An integer-programming backend.
///
/// Implement [`Solver::name`] and [`Solver::solve_raw`]; call [`Solver::solve`]. The
/// provided `solve` runs [`verify`] on every raw answer, so no backend can return an
/// unchecked point.
pub trait Solver: Send + Sync {
    /// The backend's registry name (`microlp`, `highs`, `cbc`).
    fn name(&self) -> &str;

    /// Solves and returns the backend's own floating-point answer, or a faithful status.
    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError>;

    /// [`Solver::solve_raw`] with the time of each phase. The provided implementation
    /// times the whole call as `solve` (phases unknown); a backend that can tell model
    /// build, set-up and solve apart overrides it, and wrappers forward it.
    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        let start = Instant::now();
        let raw = self.solve_raw(model, options)?;
        Ok((raw, SolveTimes { solve: start.elapsed(), ..SolveTimes::default() }))
    }

    /// Solves, rounds integer variables and checks the point exactly.
    fn solve(&self, model: &Model, options: &SolveOptions) -> Result<Solution, SolveError> {
        let start = Instant::now();
        let (raw, mut times) = self.solve_raw_timed(model, options)?;
        let check = Instant::now();
        let sol = verify(model, raw, self.name())?;
        times.check = check.elapsed();
        Ok(sol.with_times(start.elapsed(), times))
    }

    /// The [`Incremental`](Incremental) capability (a model kept between solves,
    /// changed and re-solved from the previous optimum), when the backend has it.
    /// `None` by default: callers then rebuild the model for every solve.
    fn incremental(&self) -> Option<&dyn Incremental> {
        None
    }
}

impl<S: Solver + ?Sized> Solver for &S {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        (**self).solve_raw(model, options)
    }
    fn solve(&self, model: &Model, options: &SolveOptions) -> Result<Solution, SolveError> {
        (**self).solve(model, options)
    }
    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        (**self).solve_raw_timed(model, options)
    }
    fn incremental(&self) -> Option<&dyn Incremental> {
        (**self).incremental()
    }
}

impl<S: Solver + ?Sized> Solver for Box<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        (**self).solve_raw(model, options)
    }
    fn solve(&self, model: &Model, options: &SolveOptions) -> Result<Solution, SolveError> {
        (**self).solve(model, options)
    }
    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        (**self).solve_raw_timed(model, options)
    }
    fn incremental(&self) -> Option<&dyn Incremental> {
        (**self).incremental()
    }
}

impl<S: Solver + ?Sized> Solver for std::sync::Arc<S> {
    fn name(&self) -> &str {
        (**self).name()
    }
    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        (**self).solve_raw(model, options)
    }
    fn solve(&self, model: &Model, options: &SolveOptions) -> Result<Solution, SolveError> {
        (**self).solve(model, options)
    }
    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        (**self).solve_raw_timed(model, options)
    }
    fn incremental(&self) -> Option<&dyn Incremental> {
        (**self).incremental()
    }
}

/// A backend that keeps a model between solves (capability, see [`crate::open_session`]).
pub trait Incremental: Send + Sync {
    /// Loads `model` into a new session of the backend. Translation and set-up are
    /// timed and reported with the session's first solve.
    fn start<'a>(&'a self, model: &Model, options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError>;
}

/// A model held between solves: the objective replaced, rows added, re-solved. Every
/// solution is checked exactly against [`Session::model`].
pub trait Session {
    /// The model as it stands (the original with every change applied).
    fn model(&self) -> &Model;
    /// The backend's registry name.
    fn backend(&self) -> &str;
    /// Replaces the objective.
    fn set_objective(&mut self, sense: Sense, objective: LinExpr) -> Result<(), SolveError>;
    /// Adds the row `expr cmp rhs` (a constant part of `expr` moves to the right).
    fn add_constraint(&mut self, name: String, expr: LinExpr, cmp: Cmp, rhs: i64) -> Result<(), SolveError>;
    /// Solves the current model; `start` is a point (one value per variable) to start
    /// from, for instance the optimum of the previous objective, feasible for the model
    /// as it stands. A backend may ignore it; a start of the wrong length is ignored.
    fn solve(&mut self, options: &SolveOptions, start: Option<&[f64]>) -> Result<Solution, SolveError>;
}

/// Distance from an integer accepted as "integral" before rounding. Solvers return
/// values such as 0.99999975 or -2.0000000000000004; the rounded value is then checked
/// exactly, so this tolerance only decides whether rounding is legitimate at all.
const INT_TOL: f64 = 1e-5;
/// Relative feasibility tolerance for rows that involve continuous variables.
const FEAS_TOL: f64 = 1e-6;

pub(crate) struct Checked {
    values: Vec<f64>,
    ints: Vec<i64>,
    exact: bool,
}

pub(crate) fn check_point(model: &Model, point: &[f64]) -> Result<Checked, Violation> {
    let vars = model.vars();
    if point.len() != vars.len() {
        return Err(Violation::Length { expected: vars.len(), got: point.len() });
    }
    let mut values = Vec::with_capacity(vars.len());
    let mut ints = Vec::with_capacity(vars.len());
    for (var, &x) in vars.iter().zip(point) {
        if !x.is_finite() {
            return Err(Violation::NotFinite { var: var.name.clone(), value: x });
        }
        let r = x.round();
        if r.abs() >= 9.0e18 {
            return Err(Violation::OutOfRange { var: var.name.clone(), value: x });
        }
        if var.kind.is_integral() {
            if (x - r).abs() > INT_TOL * r.abs().max(1.0).sqrt() {
                return Err(Violation::NotIntegral { var: var.name.clone(), value: x });
            }
            let ri = r as i64;
            let below = var.lower.is_some_and(|l| ri < l);
            let above = var.upper.is_some_and(|u| ri > u);
            if below || above {
                return Err(Violation::Bound { var: var.name.clone(), value: ri.to_string(), lower: var.lower, upper: var.upper });
            }
            values.push(ri as f64);
            ints.push(ri);
        } else {
            let tol = FEAS_TOL * x.abs().max(1.0);
            let below = var.lower.is_some_and(|l| x < l as f64 - tol);
            let above = var.upper.is_some_and(|u| x > u as f64 + tol);
            if below || above {
                return Err(Violation::Bound { var: var.name.clone(), value: x.to_string(), lower: var.lower, upper: var.upper });
            }
            values.push(x);
            ints.push(r as i64);
        }
    }
    let mut exact = true;
    for c in model.constraints() {
        let integral = c.expr.terms().all(|(v, _)| vars[v.index()].kind.is_integral());
        if integral {
            let ok_and_lhs = c.expr.eval_i128(&ints).map(|lhs| {
                let rhs = c.rhs as i128;
                let ok = match c.cmp {
                    Cmp::Le => lhs <= rhs,
                    Cmp::Ge => lhs >= rhs,
                    Cmp::Eq => lhs == rhs,
                };
                (ok, lhs.to_string())
            });
            match ok_and_lhs {
                Some((true, _)) => {}
                Some((false, lhs)) => return Err(Violation::Constraint { name: c.name.clone(), lhs, cmp: c.cmp, rhs: c.rhs, exact: true }),
                None => return Err(Violation::Constraint { name: c.name.clone(), lhs: "overflow".into(), cmp: c.cmp, rhs: c.rhs, exact: true }),
            }
        } else {
            exact = false;
            let (lhs, scale) = c.expr.eval_f64(&values);
            let tol = FEAS_TOL * scale.max((c.rhs as f64).abs()).max(1.0);
            let rhs = c.rhs as f64;
            let ok = match c.cmp {
                Cmp::Le => lhs <= rhs + tol,
                Cmp::Ge => lhs >= rhs - tol,
                Cmp::Eq => (lhs - rhs).abs() <= tol,
            };
            if !ok {
                return Err(Violation::Constraint { name: c.name.clone(), lhs: lhs.to_string(), cmp: c.cmp, rhs: c.rhs, exact: false });
            }
        }
    }
    Ok(Checked { values, ints, exact })
}

/// Turns a backend's raw answer into a [`Solution`]: rounds integer variables, checks
/// bounds and constraints (exactly in `i128` for rows over integer variables, with a
/// relative tolerance of 1e-6 for rows with continuous variables), and recomputes the
/// objective from the checked point. Any failure is a [`SolveError::Verification`].
pub fn verify(model: &Model, raw: RawSolution, backend: &str) -> Result<Solution, SolveError> {
    let checked = check_point(model, &raw.values).map_err(|violation| SolveError::Verification { backend: backend.to_string(), violation })?;
    let obj = model.objective();
    let obj_integral = obj.terms().all(|(v, _)| model.var(v).kind.is_integral());
    let objective_exact = if obj_integral { obj.eval_i128(&checked.ints) } else { None };
    let objective = match objective_exact {
        Some(v) => v as f64,
        None => obj.eval_f64(&checked.values).0,
    };
    Ok(Solution {
        status: raw.status.into(),
        values: checked.values,
        ints: checked.ints,
        objective,
        objective_exact,
        exact: checked.exact,
        backend: backend.to_string(),
        elapsed: Duration::ZERO,
        times: SolveTimes::default(),
    })
}

impl Model {
    /// Checks a point (indexed by variable) against bounds, integrality and constraints,
    /// exactly where the data allows it (see [`crate::verify`]).
    pub fn check_point(&self, point: &[f64]) -> Result<(), Violation> {
        check_point(self, point).map(|_| ())
    }
}
