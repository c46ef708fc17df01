use coin_cbc::{raw::SecondaryStatus, Col, Model as CbcModel, Sense as CSense};
use polyalloc_ilp::{
    Checked, Cmp, Constraint, Incremental, Model, RawSession, RawSolution, RawStatus, Sense, Session, SolveError, SolveOptions, SolveTimes, Solver,
    VarKind,
};
use std::sync::Mutex;
use std::time::Instant;

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

fn obj_sense(s: Sense) -> CSense {
    match s {
        Sense::Minimize => CSense::Minimize,
        Sense::Maximize => CSense::Maximize,
    }
}

fn add_row(m: &mut CbcModel, cols: &[Col], con: &Constraint) {
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

/// Sets the solve options (parameters live in the builder and are applied when CBC's
/// own model is created for a solve).
fn configure(m: &mut CbcModel, options: &SolveOptions) {
    m.set_log_level(if options.verbose { 1 } else { 0 });
    if !options.verbose {
        m.set_parameter("log", "0");
        m.set_parameter("slogLevel", "0");
    }
    m.set_parameter("timeMode", "elapsed");
    m.set_parameter("ratioGap", &options.mip_rel_gap.to_string());
    // A kept model may carry a limit from an earlier solve: always set one.
    let limit = options.time_limit.map_or(1e100, |t| t.as_secs_f64());
    m.set_parameter("sec", &format!("{limit}"));
    if let Some(n) = options.threads {
        m.set_parameter("threads", &n.get().to_string());
    }
}

fn build_with_cols(model: &Model, options: &SolveOptions, zero_objective: bool) -> (CbcModel, Vec<Col>) {
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
        add_row(&mut m, &cols, con);
    }
    m.set_obj_sense(obj_sense(model.sense()));
    configure(&mut m, options);
    (m, cols)
}

fn build(model: &Model, options: &SolveOptions, zero_objective: bool) -> CbcModel {
    build_with_cols(model, options, zero_objective).0
}

/// Creates CBC's own model from the builder (set-up) and solves it (solve), timed.
fn run(m: &CbcModel, times: &mut SolveTimes) -> coin_cbc::raw::Model {
    let setup = Instant::now();
    let mut raw = m.to_raw();
    times.setup = Some(times.setup.unwrap_or_default() + setup.elapsed());
    let solving = Instant::now();
    raw.solve();
    times.solve += solving.elapsed();
    raw
}

impl Solver for CbcSolver {
    fn name(&self) -> &str {
        "cbc"
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.solve_raw_timed(model, options).map(|(r, _)| r)
    }

    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        if model.num_vars() == 0 {
            // CBC cannot load an empty model; its only point is the empty one.
            return Ok((RawSolution { status: RawStatus::Optimal, values: vec![] }, SolveTimes::default()));
        }
        let mut times = SolveTimes::default();
        let _guard = CBC_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let built = Instant::now();
        let m = build(model, options, false);
        times.build = Some(built.elapsed());
        let raw = run(&m, &mut times);
        decide(model, options, &raw, &mut times).map(|r| (r, times))
    }

    fn incremental(&self) -> Option<&dyn Incremental> {
        Some(self)
    }
}

/// What a finished CBC run says; the re-solves some answers need (documented below)
/// are timed into `times`. The caller holds [`CBC_LOCK`].
fn decide(model: &Model, options: &SolveOptions, raw: &coin_cbc::raw::Model, times: &mut SolveTimes) -> Result<RawSolution, SolveError> {
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
        let raw2 = run(&m, times);
        if raw2.is_proven_optimal() {
            return Ok(RawSolution { status: RawStatus::Optimal, values: raw2.col_solution().to_vec() });
        }
        if raw2.is_proven_infeasible() || raw2.secondary_status() == SecondaryStatus::LinearRelaxationInfeasible {
            return unbounded_or_infeasible(model, options, times);
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
        return unbounded_or_infeasible(model, options, times);
    }
    if raw.is_proven_infeasible() || raw.secondary_status() == SecondaryStatus::LinearRelaxationInfeasible {
        // CBC reports an unbounded pure LP as infeasible: a zero-objective solve
        // tells the two apart (a feasible point means the objective was unbounded).
        return unbounded_or_infeasible(model, options, times);
    }
    if raw.is_abandoned() {
        return Err(SolveError::Solver { backend: "cbc".into(), message: "CBC abandoned the solve".into() });
    }
    Err(SolveError::Solver { backend: "cbc".into(), message: format!("CBC ended with status {:?} / {:?}", raw.status(), raw.secondary_status()) })
}

/// CBC keeps the model between the solves of a session in its builder (the `coin_cbc`
/// API creates CBC's own model from it for every solve, which is timed as set-up): the
/// objective is changed column by column and rows are added; the previous optimum is
/// not passed as a MIP start (see `Kept::solve_raw`).
impl Incremental for CbcSolver {
    fn start<'a>(&'a self, model: &Model, options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError> {
        let built = Instant::now();
        let (m, cols) = build_with_cols(model, options, false);
        Ok(Box::new(Checked::new(model, Kept { m, cols }, self.name(), built.elapsed(), std::time::Duration::ZERO)))
    }
}

/// The kept builder and its columns.
struct Kept {
    m: CbcModel,
    cols: Vec<Col>,
}

impl RawSession for Kept {
    fn set_objective(&mut self, model: &Model) -> Result<(), SolveError> {
        let obj = model.objective();
        for (id, &c) in model.var_ids().zip(&self.cols) {
            self.m.set_obj_coeff(c, obj.coef(id) as f64);
        }
        self.m.set_obj_sense(obj_sense(model.sense()));
        Ok(())
    }

    fn add_constraint(&mut self, _model: &Model, row: &Constraint) -> Result<(), SolveError> {
        add_row(&mut self.m, &self.cols, row);
        Ok(())
    }

    fn solve_raw(&mut self, model: &Model, options: &SolveOptions, _start: Option<&[f64]>) -> Result<(RawSolution, SolveTimes), SolveError> {
        if model.num_vars() == 0 {
            return Ok((RawSolution { status: RawStatus::Optimal, values: vec![] }, SolveTimes::default()));
        }
        let mut times = SolveTimes { build: Some(std::time::Duration::ZERO), ..SolveTimes::default() };
        configure(&mut self.m, options);
        // No MIP start: given the previous stage's optimum as initial solution, CBC
        // 2.10 returned it as "proven optimal" for the next objective although it was
        // not (smo-inter on the SMO tool's jacobi2d-smoothing: `min w` answered with w
        // at its artificial bound 1e7, where HiGHS and microlp find 1;
        // xtask/tests/smo_tool.rs). A wrong optimum passes the exact feasibility check,
        // so CBC re-solves the kept model from scratch.
        self.m.remove_initial_solution();
        let _guard = CBC_LOCK.lock().unwrap_or_else(|p| p.into_inner());
        let raw = run(&self.m, &mut times);
        decide(model, options, &raw, &mut times).map(|r| (r, times))
    }
}

/// CBC says the relaxation is unbounded, or says infeasible (which is how it reports an
/// unbounded pure LP): decide by a feasibility solve with zero objective. A feasible point
/// means unbounded (CBC found no optimum although points exist; for a MIP the recession
/// direction of a rational polyhedron is rational and scales to an integer one); a proof
/// of infeasibility means infeasible.
fn unbounded_or_infeasible(model: &Model, options: &SolveOptions, times: &mut SolveTimes) -> Result<RawSolution, SolveError> {
    let raw = run(&build(model, options, true), times);
    if raw.is_proven_optimal() {
        Err(SolveError::Unbounded)
    } else if raw.is_proven_infeasible() || raw.secondary_status() == SecondaryStatus::LinearRelaxationInfeasible {
        Err(SolveError::Infeasible)
    } else {
        Err(SolveError::InfeasibleOrUnbounded)
    }
}
