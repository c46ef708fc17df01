use coin_cbc::{raw::SecondaryStatus, Model as CbcModel, Sense as CSense};
use polyalloc_ilp::{Cmp, Model, RawSolution, RawStatus, Sense, SolveError, SolveOptions, Solver, VarKind};
use std::sync::Mutex;

/// Serialises every CBC solve in the process (libcbc is not thread-safe); the good_lp
/// backend's CBC solves hold it too.
pub static CBC_LOCK: Mutex<()> = Mutex::new(());

/// The CBC backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct CbcSolver;

impl CbcSolver {
    /// A new instance (stateless).
    pub fn new() -> Self {
        CbcSolver
    }
}

fn build(model: &Model, options: &SolveOptions, zero_objective: bool) -> CbcModel {
    let mut m = CbcModel::default();
    let obj = model.objective();
    let cols: Vec<_> = model
        .var_ids()
        .map(|id| {
            let v = model.var(id);
            let c = m.add_col();
            if v.kind != VarKind::Continuous {
                m.set_integer(c);
            }
            m.set_col_lower(c, v.lower.map_or(f64::NEG_INFINITY, |l| l as f64));
            m.set_col_upper(c, v.upper.map_or(f64::INFINITY, |u| u as f64));
            if !zero_objective {
                m.set_obj_coeff(c, obj.coef(id) as f64);
            }
            c
        })
        .collect();
    for con in model.constraints() {
        let r = m.add_row();
        for (v, a) in con.expr.terms() {
            m.set_weight(r, cols[v.index()], a as f64);
        }
        let rhs = con.rhs as f64;
        match con.cmp {
            Cmp::Le => m.set_row_upper(r, rhs),
            Cmp::Ge => m.set_row_lower(r, rhs),
            Cmp::Eq => m.set_row_equal(r, rhs),
        }
    }
    m.set_obj_sense(match model.sense() {
        Sense::Minimize => CSense::Minimize,
        Sense::Maximize => CSense::Maximize,
    });
    m.set_log_level(if options.verbose { 1 } else { 0 });
    if !options.verbose {
        m.set_parameter("log", "0");
        m.set_parameter("slogLevel", "0");
    }
    m.set_parameter("timeMode", "elapsed");
    m.set_parameter("ratioGap", &options.mip_rel_gap.to_string());
    if let Some(t) = options.time_limit {
        m.set_parameter("sec", &format!("{}", t.as_secs_f64()));
    }
    if let Some(n) = options.threads {
        m.set_parameter("threads", &n.get().to_string());
    }
    m
}

impl Solver for CbcSolver {
    fn name(&self) -> &str {
        "cbc"
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        if model.num_vars() == 0 {
            // CBC cannot load an empty model; its only point is the empty one.
            return Ok(RawSolution { status: RawStatus::Optimal, values: vec![] });
        }
        let _guard = CBC_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let sol = build(model, options, false).solve();
        let raw = sol.raw();
        if raw.is_proven_optimal() {
            let values = raw.col_solution().to_vec();
            if model.check_point(&values).is_ok() {
                return Ok(RawSolution { status: RawStatus::Optimal, values });
            }
            // CBC 2.10 can report "proven optimal" with a point that violates a
            // constraint after its MIP preprocessing (seen on a 3-variable pure-integer
            // feasibility model, tests/preprocessing.rs; cf. coin-or/Cbc issue #482).
            // Solve once more without preprocessing and presolve; whatever comes back
            // still goes through the exact check of `Solver::solve`.
            let mut m = build(model, options, false);
            m.set_parameter("preprocess", "off");
            m.set_parameter("presolve", "off");
            let sol2 = m.solve();
            let raw2 = sol2.raw();
            if raw2.is_proven_optimal() {
                return Ok(RawSolution { status: RawStatus::Optimal, values: raw2.col_solution().to_vec() });
            }
            if raw2.is_proven_infeasible() || raw2.secondary_status() == SecondaryStatus::LinearRelaxationInfeasible {
                return unbounded_or_infeasible(model, options);
            }
            return Ok(RawSolution { status: RawStatus::Optimal, values });
        }
        if raw.is_seconds_limit_reached() || raw.secondary_status() == SecondaryStatus::StoppedOnTime {
            // CBC leaves its best incumbent (if any) in the column solution; it counts as
            // an incumbent only if it passes the exact check.
            return if model.check_point(raw.col_solution()).is_ok() {
                Ok(RawSolution { status: RawStatus::TimeLimit, values: raw.col_solution().to_vec() })
            } else {
                Err(SolveError::TimeLimitNoIncumbent)
            };
        }
        if raw.secondary_status() == SecondaryStatus::StoppedOnGap {
            return Ok(RawSolution { status: RawStatus::GapLimit, values: raw.col_solution().to_vec() });
        }
        if raw.is_continuous_unbounded() || raw.secondary_status() == SecondaryStatus::LinearRelaxationUnbounded {
            return unbounded_or_infeasible(model, options);
        }
        if raw.is_proven_infeasible() || raw.secondary_status() == SecondaryStatus::LinearRelaxationInfeasible {
            // CBC reports an unbounded pure LP as infeasible: a zero-objective solve
            // tells the two apart (a feasible point means the objective was unbounded).
            return unbounded_or_infeasible(model, options);
        }
        if raw.is_abandoned() {
            return Err(SolveError::Solver { backend: "cbc".into(), message: "CBC abandoned the solve".into() });
        }
        Err(SolveError::Solver {
            backend: "cbc".into(),
            message: format!("CBC ended with status {:?} / {:?}", raw.status(), raw.secondary_status()),
        })
    }
}

/// CBC says the relaxation is unbounded, or says infeasible (which is how it reports an
/// unbounded pure LP): decide by a feasibility solve with zero objective. A feasible point
/// means unbounded (CBC found no optimum although points exist; for a MIP the recession
/// direction of a rational polyhedron is rational and scales to an integer one); a proof
/// of infeasibility means infeasible.
fn unbounded_or_infeasible(model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
    let sol = build(model, options, true).solve();
    let raw = sol.raw();
    if raw.is_proven_optimal() {
        Err(SolveError::Unbounded)
    } else if raw.is_proven_infeasible() || raw.secondary_status() == SecondaryStatus::LinearRelaxationInfeasible {
        Err(SolveError::Infeasible)
    } else {
        Err(SolveError::InfeasibleOrUnbounded)
    }
}
