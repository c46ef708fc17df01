use highs::{HighsModelStatus, HighsSolutionStatus, RowProblem, Sense as HSense};
use polyalloc_ilp::{Cmp, Model, RawSolution, RawStatus, Sense, SolveError, SolveOptions, Solver, VarKind};
use std::ops::Bound;

/// The HiGHS backend.
#[derive(Clone, Copy, Debug, Default)]
pub struct HighsSolver;

impl HighsSolver {
    /// A new instance (stateless: every solve builds its own HiGHS object).
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

enum Outcome {
    Done(Result<RawSolution, SolveError>),
    Ambiguous,
}

fn solve_once(model: &Model, options: &SolveOptions, presolve: bool) -> Outcome {
    let mut pb = RowProblem::default();
    let obj = model.objective();
    let cols: Vec<_> = model
        .var_ids()
        .map(|id| {
            let v = model.var(id);
            pb.add_column_with_integrality(
                obj.coef(id) as f64,
                (bound(v.lower), bound(v.upper)),
                v.kind != VarKind::Continuous,
            )
        })
        .collect();
    for c in model.constraints() {
        let terms: Vec<(highs::Col, f64)> = c.expr.terms().map(|(v, a)| (cols[v.index()], a as f64)).collect();
        let r = c.rhs as f64;
        match c.cmp {
            Cmp::Le => pb.add_row(..=r, terms),
            Cmp::Ge => pb.add_row(r.., terms),
            Cmp::Eq => pb.add_row(r..=r, terms),
        }
    }
    let sense = match model.sense() {
        Sense::Minimize => HSense::Minimise,
        Sense::Maximize => HSense::Maximise,
    };
    let mut m = match pb.try_optimise(sense) {
        Ok(m) => m,
        Err(e) => return Outcome::Done(Err(err(format!("could not load the model: {e:?}")))),
    };
    if !options.verbose {
        m.make_quiet();
    }
    let set = |name: &str, r: Result<(), highs::TrySetOptionError>| {
        r.map_err(|e| err(format!("could not set option `{name}`: {e:?}")))
    };
    let res = (|| {
        set("mip_rel_gap", m.try_set_option("mip_rel_gap", options.mip_rel_gap))?;
        if let Some(t) = options.time_limit {
            set("time_limit", m.try_set_option("time_limit", t.as_secs_f64()))?;
        }
        if let Some(n) = options.threads {
            let n = i32::try_from(n.get()).unwrap_or(i32::MAX);
            set("threads", m.try_set_option("threads", n))?;
        }
        if !presolve {
            set("presolve", m.try_set_option("presolve", "off"))?;
        }
        Ok(())
    })();
    if let Err(e) = res {
        return Outcome::Done(Err(e));
    }
    let solved = match m.try_solve() {
        Ok(s) => s,
        Err(e) => return Outcome::Done(Err(err(format!("solve failed: {e:?}")))),
    };
    let status = solved.status();
    let values = || solved.get_solution().columns().to_vec();
    let has_point = || solved.primal_solution_status() == HighsSolutionStatus::Feasible;
    Outcome::Done(match status {
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

impl Solver for HighsSolver {
    fn name(&self) -> &str {
        "highs"
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        match solve_once(model, options, true) {
            Outcome::Done(r) => r,
            Outcome::Ambiguous => match solve_once(model, options, false) {
                Outcome::Done(r) => r,
                Outcome::Ambiguous => Err(SolveError::InfeasibleOrUnbounded),
            },
        }
    }
}
