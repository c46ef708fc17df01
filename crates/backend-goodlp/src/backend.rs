//! [`GoodLpSolver`]: polyalloc's [`Solver`] through good_lp, with the status rules that
//! make good_lp's answers faithful.

use crate::kind::GoodLpKind;
use crate::run::{add_phases, run, take_phases, Attempt, Settings};
use crate::translate::{translate, Translation};
use polyalloc_ilp::{
    objective_bounded_over_bounds, solve_with_artificial_bounds, Cmp, LinExpr, Model, RawSolution, RawStatus, Sense, SolveError, SolveOptions,
    SolveTimes, Solver,
};
use std::time::{Duration, Instant};

/// Artificial bound of unbounded integer variables for microlp (the direct microlp
/// backend's value): `i32` bounds, see [`polyalloc_ilp::solve_with_artificial_bounds`].
pub const ARTIFICIAL_BOUND: i64 = 1_000_000_000;

/// One good_lp solver behind polyalloc's [`Solver`] trait, named `goodlp-<solver>`.
#[derive(Clone, Copy, Debug)]
pub struct GoodLpSolver {
    kind: GoodLpKind,
}

impl GoodLpSolver {
    /// The backend for `kind`. (A `Result` for backends that need something at run
    /// time; the compiled-in good_lp solvers need nothing beyond their build.)
    pub fn new(kind: GoodLpKind) -> Result<Self, SolveError> {
        Ok(GoodLpSolver { kind })
    }

    /// Which good_lp solver.
    pub fn kind(&self) -> GoodLpKind {
        self.kind
    }

    fn error(&self, message: impl Into<String>) -> SolveError {
        SolveError::Solver { backend: self.kind.name().to_string(), message: message.into() }
    }
}

/// What good_lp answered when it gave no point.
#[derive(Clone, Debug, PartialEq)]
enum Claim {
    Infeasible,
    Unbounded,
    /// An error of an adaptor that loses statuses, with its message.
    Failed(String),
}

/// The time left of `limit` since `start` (`None`: no limit).
fn remaining(limit: Option<Duration>, start: Instant) -> Option<Duration> {
    limit.map(|l| l.saturating_sub(start.elapsed()))
}

impl Solver for GoodLpSolver {
    fn name(&self) -> &str {
        self.kind.name()
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.solve_raw_timed(model, options).map(|(raw, _)| raw)
    }

    /// Build is the translation into good_lp's expressions, set-up what good_lp does
    /// before its `solve()` call, solve that call: summed over every good_lp call of
    /// this solve. Each translation and call happens on this thread.
    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        take_phases();
        let raw = self.solve_untimed(model, options)?;
        let p = take_phases();
        Ok((raw, SolveTimes { build: Some(p.build), setup: Some(p.setup), solve: p.solve, ..SolveTimes::default() }))
    }
}

/// [`translate`], its time added to the current solve's build time.
fn timed_translate(model: &Model, how: Translation) -> crate::translate::Translated {
    let start = Instant::now();
    let t = translate(model, how);
    add_phases(start.elapsed(), Duration::ZERO, Duration::ZERO);
    t
}

impl GoodLpSolver {
    fn solve_untimed(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        if model.num_vars() == 0 {
            // HiGHS ("ModelEmpty") and CBC (cannot load) reject an empty model; its only
            // point is the empty one.
            return if model.check_point(&[]).is_ok() {
                Ok(RawSolution { status: RawStatus::Optimal, values: vec![] })
            } else {
                Err(SolveError::Infeasible)
            };
        }
        let start = Instant::now();
        if self.kind.needs_artificial_bounds() {
            solve_with_artificial_bounds(model, ARTIFICIAL_BOUND, |b| self.solve_once(model, options, Some(b), start, true))
        } else {
            self.solve_once(model, options, None, start, true)
        }
    }
}

impl GoodLpSolver {
    fn settings(&self, options: &SolveOptions, start: Instant, presolve: bool) -> Settings {
        Settings {
            time_limit: remaining(options.time_limit, start),
            mip_rel_gap: options.mip_rel_gap,
            threads: options.threads,
            verbose: options.verbose,
            presolve,
        }
    }

    /// One solve and the rules that turn good_lp's answer into a faithful one:
    /// * a point that good_lp calls optimal but that fails the exact check is solved
    ///   again without presolve where the adaptor has the switch (CBC 2.10's
    ///   preprocessing can return such points, see the direct CBC backend);
    /// * time: an adaptor that loses the solver's limit statuses (lp_solve)
    ///   is judged by the clock: when the solve ran to its time limit, a point is a
    ///   time-limit incumbent and no point is [`SolveError::TimeLimitNoIncumbent`]; any
    ///   adaptor's error after the time limit is [`SolveError::TimeLimitNoIncumbent`]; a
    ///   time-limit "incumbent" that fails the exact check (CBC leaves its last LP point)
    ///   is no incumbent;
    /// * infeasible and unbounded, and the failures of adaptors that lose statuses, are
    ///   settled by [`GoodLpSolver::settle`].
    fn solve_once(
        &self,
        model: &Model,
        options: &SolveOptions,
        artificial_bound: Option<i64>,
        start: Instant,
        presolve: bool,
    ) -> Result<RawSolution, SolveError> {
        let kind = self.kind;
        let settings = self.settings(options, start, presolve);
        let began = Instant::now();
        let attempt = run(kind, timed_translate(model, self.translation(artificial_bound, false)), &settings);
        let ran_out = settings.time_limit.is_some_and(|l| began.elapsed() >= kind.effective_time_limit(l));
        match attempt {
            Attempt::Point { status, values } => {
                let checks = model.check_point(&values).is_ok();
                let status = if kind.reports_limits() {
                    status
                } else if ran_out {
                    RawStatus::TimeLimit
                } else {
                    status
                };
                match status {
                    RawStatus::TimeLimit if !checks => Err(SolveError::TimeLimitNoIncumbent),
                    RawStatus::Optimal if !checks && presolve && self.has_presolve_switch() => {
                        self.solve_once(model, options, artificial_bound, start, false)
                    }
                    _ => Ok(RawSolution { status, values }),
                }
            }
            Attempt::Failed(_) | Attempt::Infeasible | Attempt::Unbounded if ran_out && !kind.reports_limits() => {
                Err(SolveError::TimeLimitNoIncumbent)
            }
            Attempt::Failed(_) if ran_out => Err(SolveError::TimeLimitNoIncumbent),
            Attempt::Failed(message) if kind.reports_limits() => Err(self.error(message)),
            Attempt::Failed(message) => self.settle(Claim::Failed(message), model, options, artificial_bound, start),
            Attempt::Infeasible if presolve && self.preprocessing_misreports_infeasible() => {
                self.solve_once(model, options, artificial_bound, start, false)
            }
            Attempt::Infeasible => self.settle(Claim::Infeasible, model, options, artificial_bound, start),
            Attempt::Unbounded => self.settle(Claim::Unbounded, model, options, artificial_bound, start),
        }
    }

    /// Settles a report of infeasibility or unboundedness, or a failure of an adaptor
    /// that loses statuses (lp_solve's adaptor turns its numerical failures and
    /// "degenerate" into errors). good_lp loses the difference in places: its HiGHS
    /// adaptor maps `UnboundedOrInfeasible` (HiGHS's answer on an unbounded MIP) to
    /// infeasible, CBC reports an unbounded pure LP as infeasible, and a MIP whose
    /// relaxation is unbounded can be integer-infeasible. No claim is taken on trust:
    /// * when the objective is bounded over the variable bounds, "infeasible" stands (the
    ///   model cannot be unbounded);
    /// * otherwise the model is solved with a zero objective, which cannot be unbounded:
    ///   "infeasible" there means infeasible; a point that passes the exact check means
    ///   feasible, and then the model is unbounded exactly when its relaxation has an
    ///   improving ray, found by [`GoodLpSolver::improving_ray`] (a feasible MIP with
    ///   rational data and an improving ray of its relaxation is unbounded: Meyer, 1974);
    ///   a feasible model without one means good_lp's answer was wrong (a solver error);
    /// * anything else leaves the question open ([`SolveError::InfeasibleOrUnbounded`]),
    ///   or, for a failure, keeps the failure's message.
    fn settle(
        &self,
        claim: Claim,
        model: &Model,
        options: &SolveOptions,
        artificial_bound: Option<i64>,
        start: Instant,
    ) -> Result<RawSolution, SolveError> {
        let bounded = objective_bounded_over_bounds(model);
        if bounded && claim == Claim::Infeasible {
            return Err(SolveError::Infeasible);
        }
        let undecided = |claim: Claim| match claim {
            Claim::Failed(message) => self.error(message),
            _ => SolveError::InfeasibleOrUnbounded,
        };
        let settings = self.settings(options, start, true);
        if settings.time_limit.is_some_and(|l| l.is_zero()) {
            return Err(undecided(claim));
        }
        let feasibility = timed_translate(model, self.translation(artificial_bound, true));
        let feasible = match run(self.kind, feasibility, &settings) {
            Attempt::Point { values, .. } if model.check_point(&values).is_ok() => Some(true),
            Attempt::Infeasible => Some(false),
            Attempt::Failed(_) if !model.has_integer_vars() => self.phase_one(model, options, start),
            _ => None,
        };
        match feasible {
            Some(false) => Err(SolveError::Infeasible),
            None => Err(undecided(claim)),
            Some(true) if !bounded && self.improving_ray(model, options, start) => Err(SolveError::Unbounded),
            Some(true) => Err(match claim {
                Claim::Failed(message) => self.error(message),
                Claim::Infeasible | Claim::Unbounded => self.error(format!(
                    "good_lp reported the model {}, but it has a feasible point and its relaxation no improving ray",
                    if claim == Claim::Infeasible { "infeasible" } else { "unbounded" }
                )),
            }),
        }
    }

    /// Feasibility of a pure LP when the solver gave no answer on it: the phase-one LP,
    /// minimise the total violation `sum(s)` of the rows relaxed by slacks `s >= 0`, is
    /// feasible and bounded, so every adaptor answers it. Its optimum is 0 (up to
    /// round-off, and its `x` part passes the model's check) exactly when the model is
    /// feasible; a positive optimum means infeasible. `None`: no answer.
    fn phase_one(&self, model: &Model, options: &SolveOptions, start: Instant) -> Option<bool> {
        let mut p = Model::new(format!("{}-phase1", model.name()));
        let xs: Vec<_> = model.vars().iter().map(|v| p.add_continuous(v.name.clone(), v.lower, v.upper)).collect();
        let mut total = LinExpr::new();
        for c in model.constraints() {
            let mut row: LinExpr = c.expr.terms().map(|(v, a)| LinExpr::term(xs[v.index()], a)).sum();
            if c.cmp != Cmp::Ge {
                let s = p.add_continuous(format!("{}-over", c.name), Some(0), None);
                row -= LinExpr::from(s);
                total += LinExpr::from(s);
            }
            if c.cmp != Cmp::Le {
                let s = p.add_continuous(format!("{}-under", c.name), Some(0), None);
                row += LinExpr::from(s);
                total += LinExpr::from(s);
            }
            p.add_constraint(c.name.clone(), row, c.cmp, c.rhs);
        }
        p.set_objective(Sense::Minimize, total);
        let values = self.auxiliary_point(&p, options, start)?;
        let (violation, scale) = p.objective().eval_f64(&values);
        if violation > 1e-7 * scale.max(1.0) {
            Some(false)
        } else {
            model.check_point(&values[..model.num_vars()]).is_ok().then_some(true)
        }
    }

    /// Solves an auxiliary LP of the settling rules (always feasible and bounded) in the
    /// time left; its point, when it passes that LP's own check.
    fn auxiliary_point(&self, aux: &Model, options: &SolveOptions, start: Instant) -> Option<Vec<f64>> {
        let settings = self.settings(options, start, true);
        if settings.time_limit.is_some_and(|l| l.is_zero()) {
            return None;
        }
        match run(self.kind, timed_translate(aux, self.translation(None, false)), &settings) {
            Attempt::Point { values, .. } if aux.check_point(&values).is_ok() => Some(values),
            _ => None,
        }
    }

    /// True when the continuous relaxation of `model` has an improving ray: a direction
    /// `d` in the recession cone of its rows and bounds (`a·d <= 0` for `<=` rows, `= 0`
    /// for equalities; `d_j >= 0` where `x_j` has a lower bound, `<= 0` where it has an
    /// upper bound) along which the objective improves. Found by one LP over the box
    /// `-1 <= d <= 1` (bounded and feasible at `d = 0`, so any adaptor answers it); the
    /// direction is checked against the cone by [`Model::check_point`] and must improve
    /// the objective by more than round-off.
    fn improving_ray(&self, model: &Model, options: &SolveOptions, start: Instant) -> bool {
        let mut cone = Model::new(format!("{}-ray", model.name()));
        let dirs: Vec<_> = model
            .vars()
            .iter()
            .map(|v| {
                let lower = if v.lower.is_some() { 0 } else { -1 };
                let upper = if v.upper.is_some() { 0 } else { 1 };
                cone.add_continuous(v.name.clone(), Some(lower), Some(upper))
            })
            .collect();
        for c in model.constraints() {
            let expr: LinExpr = c.expr.terms().map(|(v, a)| LinExpr::term(dirs[v.index()], a)).sum();
            cone.add_constraint(c.name.clone(), expr, c.cmp, 0);
        }
        let objective: LinExpr = model.objective().terms().map(|(v, a)| LinExpr::term(dirs[v.index()], a)).sum();
        cone.set_objective(model.sense(), objective);
        let Some(values) = self.auxiliary_point(&cone, options, start) else { return false };
        let (gain, scale) = cone.objective().eval_f64(&values);
        let threshold = 1e-7 * scale.max(1.0);
        match model.sense() {
            Sense::Minimize => gain < -threshold,
            Sense::Maximize => gain > threshold,
        }
    }

    /// How this backend's adaptor needs models translated.
    fn translation(&self, artificial_bound: Option<i64>, zero_objective: bool) -> Translation {
        Translation { artificial_bound, zero_objective }
    }

    /// True when the adaptor has a presolve switch (HiGHS, CBC).
    /// CBC 2.10's MIP preprocessing can call a feasible model infeasible (seen through
    /// good_lp on an smo-inter model of the SMO tool's jacobi2d-smoothing input, which
    /// HiGHS, microlp and CBC without preprocessing solve; xtask/tests/smo_tool.rs): its
    /// "infeasible" is confirmed by a solve without preprocessing before it stands.
    fn preprocessing_misreports_infeasible(&self) -> bool {
        match self.kind {
            #[cfg(feature = "cbc")]
            GoodLpKind::Cbc => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }

    fn has_presolve_switch(&self) -> bool {
        match self.kind {
            #[cfg(feature = "highs")]
            GoodLpKind::Highs => true,
            #[cfg(feature = "cbc")]
            GoodLpKind::Cbc => true,
            #[allow(unreachable_patterns)]
            _ => false,
        }
    }
}
