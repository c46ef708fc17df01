//! One solve of a translated model by one good_lp solver, with polyalloc's options set
//! through good_lp's own API, and good_lp's answer in one typed form.

use crate::kind::GoodLpKind;
use crate::translate::Translated;
use good_lp::{Constraint, ResolutionError, Solution, SolutionStatus, SolverModel, Variable};
use polyalloc_ilp::RawStatus;
use std::cell::Cell;
use std::num::NonZeroUsize;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

/// Time of the phases of the good_lp calls made on this thread since the last
/// [`take_phases`]: translation into good_lp's expressions (build), what good_lp does
/// before `solve()` (set-up), and `solve()` itself.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Phases {
    pub build: Duration,
    pub setup: Duration,
    pub solve: Duration,
}

thread_local! {
    /// A `solve_raw` may translate and call good_lp several times (artificial bounds, a
    /// re-solve without presolve, settling a status), and every call counts. A solve
    /// runs synchronously on the caller's thread, so a thread-local sum is exact.
    static PHASES: Cell<Phases> = const { Cell::new(Phases { build: Duration::ZERO, setup: Duration::ZERO, solve: Duration::ZERO }) };
}

/// The phases summed since the previous call, and resets the sums.
pub(crate) fn take_phases() -> Phases {
    PHASES.with(|p| p.replace(Phases::default()))
}

/// Adds to the current sums.
pub(crate) fn add_phases(build: Duration, setup: Duration, solve: Duration) {
    PHASES.with(|p| {
        let s = p.get();
        p.set(Phases { build: s.build + build, setup: s.setup + setup, solve: s.solve + solve });
    });
}

/// The options of one solve, as this crate passes them to good_lp.
#[derive(Clone, Debug)]
pub(crate) struct Settings {
    /// The time left for this solve (the requested limit minus what earlier solves of
    /// the same `solve_raw` call used).
    pub time_limit: Option<Duration>,
    /// Used by the microlp, HiGHS and CBC adaptors (lp_solve's has no gap switch).
    #[cfg_attr(not(any(feature = "microlp", feature = "highs", feature = "cbc")), allow(dead_code))]
    pub mip_rel_gap: f64,
    /// Used by the HiGHS and CBC adaptors (the others are single-threaded).
    #[cfg_attr(not(any(feature = "highs", feature = "cbc")), allow(dead_code))]
    pub threads: Option<NonZeroUsize>,
    /// Used by the HiGHS, CBC and lp_solve adaptors (the others have no log to show).
    #[cfg_attr(not(any(feature = "highs", feature = "cbc", feature = "lpsolve")), allow(dead_code))]
    pub verbose: bool,
    /// `false`: switch presolve / MIP preprocessing off (HiGHS and CBC; the other
    /// adaptors have no such switch).
    #[cfg_attr(not(any(feature = "highs", feature = "cbc")), allow(dead_code))]
    pub presolve: bool,
}

/// good_lp's answer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Attempt {
    /// A point, with the status good_lp gives it.
    Point { status: RawStatus, values: Vec<f64> },
    /// good_lp's `ResolutionError::Infeasible`.
    Infeasible,
    /// good_lp's `ResolutionError::Unbounded`.
    Unbounded,
    /// Any other error of good_lp or the solver, or a panic inside them, with its message.
    Failed(String),
}

/// Solves `t` with `kind`. good_lp and its adaptors `unwrap` and `assert` on solver
/// failures (lp_solve's "could not add constraint", unknown status codes): a panic is
/// caught and becomes [`Attempt::Failed`], never a crash of the caller.
pub(crate) fn run(kind: GoodLpKind, t: Translated, s: &Settings) -> Attempt {
    let began = Instant::now();
    let outcome = catch_unwind(AssertUnwindSafe(|| run_unguarded(kind, t, s, began)));
    match outcome {
        Ok(a) => a,
        Err(payload) => {
            let what = payload
                .downcast_ref::<&str>()
                .map(|m| m.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "no message".to_string());
            Attempt::Failed(format!("good_lp panicked: {what}"))
        }
    }
}

/// The relative gap as good_lp takes it (`f32`); 0 stays exactly 0.
#[cfg(any(feature = "microlp", feature = "highs", feature = "cbc"))]
fn gap32(gap: f64) -> f32 {
    gap as f32
}

fn run_unguarded(kind: GoodLpKind, t: Translated, s: &Settings, began: Instant) -> Attempt {
    let Translated { problem, constraints, handles } = t;
    match kind {
        #[cfg(feature = "microlp")]
        GoodLpKind::Microlp => {
            use good_lp::{WithMipGap, WithTimeLimit};
            // microlp is single-threaded and logs through `log` only: `threads`, `verbose`
            // and `presolve` have no good_lp switch and no effect.
            let mut m = match problem.using(good_lp::microlp).with_mip_gap(gap32(s.mip_rel_gap)) {
                Ok(m) => m,
                Err(e) => return Attempt::Failed(format!("MIP gap rejected: {e}")),
            };
            if let Some(limit) = s.time_limit {
                m = m.with_time_limit(limit.as_secs_f64());
            }
            finish(m, constraints, &handles, began)
        }
        #[cfg(feature = "highs")]
        GoodLpKind::Highs => {
            use good_lp::solvers::highs::HighsPresolveType;
            let mut m = problem.using(good_lp::highs);
            m.set_verbose(s.verbose);
            // good_lp leaves HiGHS's own gap (1e-4) unless told: polyalloc asks 0.
            let mut m = match m.set_mip_rel_gap(gap32(s.mip_rel_gap)) {
                Ok(m) => m,
                Err(e) => return Attempt::Failed(format!("MIP gap rejected: {e}")),
            };
            if let Some(limit) = s.time_limit {
                m = m.set_time_limit(limit.as_secs_f64());
            }
            if let Some(n) = s.threads {
                m = m.set_threads(u32::try_from(n.get()).unwrap_or(u32::MAX));
            }
            if !s.presolve {
                m = m.set_presolve(HighsPresolveType::Off);
            }
            finish(m, constraints, &handles, began)
        }
        #[cfg(feature = "cbc")]
        GoodLpKind::Cbc => {
            use good_lp::WithMipGap;
            // libCbcSolver is not thread-safe: one CBC solve at a time in the process,
            // direct backend and this one alike (the direct backend's lock).
            let _guard = polyalloc_backend_cbc::CBC_LOCK.lock().unwrap_or_else(|p| p.into_inner());
            let mut m = problem.using(good_lp::coin_cbc);
            m.set_log_level(if s.verbose { 1 } else { 0 });
            if !s.verbose {
                m.set_parameter("log", "0");
                m.set_parameter("slogLevel", "0");
            }
            // good_lp's `with_time_limit` passes whole CPU seconds (`sec` rounded up, CBC's
            // default time mode): polyalloc's limits are wall-clock, set as the direct
            // backend does, through good_lp's parameter pass-through.
            m.set_parameter("timeMode", "elapsed");
            if let Some(limit) = s.time_limit {
                m.set_parameter("sec", &limit.as_secs_f64().to_string());
            }
            if let Some(n) = s.threads {
                m.set_parameter("threads", &n.get().to_string());
            }
            if !s.presolve {
                m.set_parameter("preprocess", "off");
                m.set_parameter("presolve", "off");
            }
            let m = match m.with_mip_gap(gap32(s.mip_rel_gap)) {
                Ok(m) => m,
                Err(e) => return Attempt::Failed(format!("MIP gap rejected: {e}")),
            };
            finish(m, constraints, &handles, began)
        }
        #[cfg(feature = "lpsolve")]
        GoodLpKind::LpSolve => {
            use good_lp::WithTimeLimit;
            // good_lp's lp_solve adaptor has no gap, thread or log switch: lp_solve runs
            // with its default MIP gaps (1e-11 absolute, 1e-9 relative), single-threaded.
            let mut m =
                if s.verbose { problem.using(good_lp::lp_solve) } else { crate::quiet::with_c_stdout_discarded(|| problem.using(good_lp::lp_solve)) };
            if let Some(limit) = s.time_limit {
                m = m.with_time_limit(kind.effective_time_limit(limit).as_secs_f64());
            }
            finish(m, constraints, &handles, began)
        }
    }
}

/// Adds the rows, solves, and reads the point in polyalloc's variable order. Set-up is
/// everything good_lp does from `began` (the solver instance, its options, the rows)
/// until `solve()`; solve is that call.
fn finish<M>(mut m: M, constraints: Vec<Constraint>, handles: &[Variable], began: Instant) -> Attempt
where
    M: SolverModel<Error = ResolutionError>,
{
    for c in constraints {
        m.add_constraint(c);
    }
    let solving = Instant::now();
    let result = m.solve();
    add_phases(Duration::ZERO, solving.duration_since(began), solving.elapsed());
    match result {
        Ok(sol) => Attempt::Point {
            status: match sol.status() {
                SolutionStatus::Optimal => RawStatus::Optimal,
                SolutionStatus::TimeLimit => RawStatus::TimeLimit,
                SolutionStatus::GapLimit => RawStatus::GapLimit,
            },
            values: handles.iter().map(|&v| sol.value(v)).collect(),
        },
        Err(ResolutionError::Infeasible) => Attempt::Infeasible,
        Err(ResolutionError::Unbounded) => Attempt::Unbounded,
        Err(e) => Attempt::Failed(e.to_string()),
    }
}
