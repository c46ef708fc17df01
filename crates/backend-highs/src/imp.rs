use highs::{Col, HighsModelStatus, HighsSolutionStatus, RowProblem, Sense as HSense, SolvedModel};
use polyalloc_ilp::{
    Checked, Cmp, Constraint, Incremental, Model, RawSession, RawSolution, RawStatus, Sense, Session, SolveError, SolveOptions, SolveTimes, Solver,
    VarKind,
};
use std::ops::Bound;
use std::time::{Duration, Instant};

/// The HiGHS backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct HighsSolver;

impl HighsSolver {
    /// A new instance (stateless: every solve builds its own HiGHS object, except in a
    /// session of the [`Incremental`] capability, which keeps one).
    pub fn new() -> Self {
        HighsSolver
    }
}

fn err(message: impl Into<String>) -> SolveError {
    SolveError::Solver { backend: "highs".into(), message: message.into() }
}

fn bound(b: Option<i64>) -> Bound<f64> {
    match b {
        Some(x) => Bound::Included(x as f64),
        None => Bound::Unbounded,
    }
}

fn sense(s: Sense) -> HSense {
    match s {
        Sense::Minimize => HSense::Minimise,
        Sense::Maximize => HSense::Maximise,
    }
}

fn row_terms(c: &Constraint, cols: &[Col]) -> Vec<(Col, f64)> {
    c.expr.terms().map(|(v, a)| (cols[v.index()], a as f64)).collect()
}

enum Outcome {
    Done(Result<RawSolution, SolveError>),
    Ambiguous,
}

/// A HiGHS instance loaded with `model` (not solved yet), its columns, and the time of
/// the translation (`build`) and of loading (`setup`).
fn load(model: &Model) -> Result<(highs::Model, Vec<Col>, Duration, Duration), SolveError> {
    let built = Instant::now();
    let mut pb = RowProblem::default();
    let obj = model.objective();
    let cols: Vec<Col> = model
        .var_ids()
        .map(|id| {
            let v = model.var(id);
            pb.add_column_with_integrality(obj.coef(id) as f64, (bound(v.lower), bound(v.upper)), v.kind != VarKind::Continuous)
        })
        .collect();
    for c in model.constraints() {
        let terms = row_terms(c, &cols);
        let r = c.rhs as f64;
        match c.cmp {
            Cmp::Le => pb.add_row(..=r, terms),
            Cmp::Ge => pb.add_row(r.., terms),
            Cmp::Eq => pb.add_row(r..=r, terms),
        }
    }
    let build = built.elapsed();
    let setup = Instant::now();
    let m = pb.try_optimise(sense(model.sense())).map_err(|e| err(format!("could not load the model: {e:?}")))?;
    Ok((m, cols, build, setup.elapsed()))
}

/// Sets the options of one solve.
fn configure(m: &mut highs::Model, options: &SolveOptions, presolve: bool) -> Result<(), SolveError> {
    if !options.verbose {
        m.make_quiet();
    }
    let set = |name: &str, r: Result<(), highs::TrySetOptionError>| r.map_err(|e| err(format!("could not set option `{name}`: {e:?}")));
    set("mip_rel_gap", m.try_set_option("mip_rel_gap", options.mip_rel_gap))?;
    // A kept model may have had a limit before: always set one (HiGHS's "none" is inf).
    let limit = options.time_limit.map_or(f64::INFINITY, |t| t.as_secs_f64());
    set("time_limit", m.try_set_option("time_limit", limit))?;
    if let Some(n) = options.threads {
        let n = i32::try_from(n.get()).unwrap_or(i32::MAX);
        set("threads", m.try_set_option("threads", n))?;
    }
    if !presolve {
        set("presolve", m.try_set_option("presolve", "off"))?;
    }
    Ok(())
}

/// What a finished HiGHS run says.
fn interpret(solved: &SolvedModel, model: &Model, options: &SolveOptions) -> Outcome {
    let values = || solved.get_solution().columns().to_vec();
    let has_point = || solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    Outcome::Done(match solved.status() {
        HighsModelStatus::Optimal => {
            let gap = if model.has_integer_vars() { solved.mip_gap() } else { 0.0 };
            let st = if options.mip_rel_gap > 0.0 && gap > 1e-9 { RawStatus::GapLimit } else { RawStatus::Optimal };
            Ok(RawSolution { status: st, values: values() })
        }
        HighsModelStatus::ModelEmpty => Ok(RawSolution { status: RawStatus::Optimal, values: vec![] }),
        HighsModelStatus::Infeasible => Err(SolveError::Infeasible),
        HighsModelStatus::Unbounded => Err(SolveError::Unbounded),
        HighsModelStatus::UnboundedOrInfeasible => return Outcome::Ambiguous,
        HighsModelStatus::ReachedTimeLimit => {
            if has_point() {
                Ok(RawSolution { status: RawStatus::TimeLimit, values: values() })
            } else {
                Err(SolveError::TimeLimitNoIncumbent)
            }
        }
        other => Err(err(format!("HiGHS ended with model status {other:?}"))),
    })
}

fn solve_once(model: &Model, options: &SolveOptions, presolve: bool, times: &mut SolveTimes) -> Outcome {
    let (mut m, _, build, setup) = match load(model) {
        Ok(x) => x,
        Err(e) => return Outcome::Done(Err(e)),
    };
    times.build = Some(times.build.unwrap_or_default() + build);
    let configured = Instant::now();
    let res = configure(&mut m, options, presolve);
    times.setup = Some(times.setup.unwrap_or_default() + setup + configured.elapsed());
    if let Err(e) = res {
        return Outcome::Done(Err(e));
    }
    let solving = Instant::now();
    let solved = m.try_solve();
    times.solve += solving.elapsed();
    match solved {
        Ok(s) => interpret(&s, model, options),
        Err(e) => Outcome::Done(Err(err(format!("solve failed: {e:?}")))),
    }
}

impl Solver for HighsSolver {
    fn name(&self) -> &str {
        "highs"
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.solve_raw_timed(model, options).map(|(r, _)| r)
    }

    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        let mut times = SolveTimes::default();
        let r = match solve_once(model, options, true, &mut times) {
            Outcome::Done(r) => r,
            Outcome::Ambiguous => match solve_once(model, options, false, &mut times) {
                Outcome::Done(r) => r,
                Outcome::Ambiguous => Err(SolveError::InfeasibleOrUnbounded),
            },
        };
        r.map(|raw| (raw, times))
    }

    fn incremental(&self) -> Option<&dyn Incremental> {
        Some(self)
    }
}

/// HiGHS keeps its instance between the solves of a session: the objective is changed
/// column by column, rows are added to the loaded model, and the previous optimum is
/// passed with `Highs_setSolution` (HiGHS's MIP solver starts from it as incumbent).
impl Incremental for HighsSolver {
    fn start<'a>(&'a self, model: &Model, _options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError> {
        let (m, cols, build, setup) = load(model)?;
        Ok(Box::new(Checked::new(model, Kept { m: Some(m), cols }, self.name(), build, setup)))
    }
}

/// The kept HiGHS instance (`None` after a failed run: the next solve reloads).
struct Kept {
    m: Option<highs::Model>,
    cols: Vec<Col>,
}

impl RawSession for Kept {
    fn set_objective(&mut self, model: &Model) -> Result<(), SolveError> {
        if let Some(m) = self.m.as_mut() {
            let obj = model.objective();
            let ptr = m.as_mut_ptr();
            let mut ok = true;
            for (id, &col) in model.var_ids().zip(&self.cols) {
                let Ok(index) = i32::try_from(col.index()) else {
                    ok = false;
                    break;
                };
                // SAFETY: `ptr` is the live HiGHS instance of this session; the index is
                // one of its columns. (The C API instead of the crate's method, which
                // panics on an error status.)
                ok &= unsafe { highs_sys::Highs_changeColCost(ptr, index, obj.coef(id) as f64) } == highs_sys::STATUS_OK;
            }
            let s = match model.sense() {
                Sense::Minimize => highs_sys::OBJECTIVE_SENSE_MINIMIZE,
                Sense::Maximize => highs_sys::OBJECTIVE_SENSE_MAXIMIZE,
            };
            // SAFETY: as above.
            ok &= unsafe { highs_sys::Highs_changeObjectiveSense(ptr, s) } == highs_sys::STATUS_OK;
            if !ok {
                // The next solve reloads the model as it stands.
                self.m = None;
            }
        }
        Ok(())
    }

    fn add_constraint(&mut self, _model: &Model, row: &Constraint) -> Result<(), SolveError> {
        if let Some(m) = self.m.as_mut() {
            let terms = row_terms(row, &self.cols);
            let r = row.rhs as f64;
            let added = match row.cmp {
                Cmp::Le => m.try_add_row(..=r, terms),
                Cmp::Ge => m.try_add_row(r.., terms),
                Cmp::Eq => m.try_add_row(r..=r, terms),
            };
            if added.is_err() {
                self.m = None;
            }
        }
        Ok(())
    }

    fn solve_raw(&mut self, model: &Model, options: &SolveOptions, start: Option<&[f64]>) -> Result<(RawSolution, SolveTimes), SolveError> {
        // The changes were passed as they came (objective, rows): nothing to build.
        let mut times = SolveTimes { build: Some(Duration::ZERO), setup: Some(Duration::ZERO), ..SolveTimes::default() };
        let mut m = match self.m.take() {
            Some(m) => m,
            None => {
                // Reload the model as it stands.
                let (m, cols, build, setup) = load(model)?;
                self.cols = cols;
                times.build = Some(build);
                times.setup = Some(setup);
                m
            }
        };
        let configured = Instant::now();
        configure(&mut m, options, true)?;
        if let Some(point) = start {
            // An unusable start is no error: the solve simply starts without it.
            times.warm_start = m.try_set_solution(Some(point), None, None, None).is_ok();
        }
        times.setup = Some(times.setup.unwrap_or_default() + configured.elapsed());
        let solving = Instant::now();
        let solved = m.try_solve().map_err(|e| err(format!("solve failed: {e:?}")));
        times.solve += solving.elapsed();
        let solved = solved?;
        let outcome = interpret(&solved, model, options);
        self.m = Some(solved.into());
        match outcome {
            Outcome::Done(r) => r.map(|raw| (raw, times)),
            // The presolve-off re-solve of the stateless path decides.
            Outcome::Ambiguous => HighsSolver.solve_raw_timed(model, options),
        }
    }
}
