//! [`Recording`]: a [`Solver`] wrapper that records statistics of every solve and can
//! write every model it is given to a directory in LP format (`--dump-lp`).

use crate::incremental::{incremental_of, Forwarding};
use crate::model::Model;
use crate::solve::{Incremental, RawSolution, Session, Solution, SolveError, SolveOptions, SolveTimes, Solver};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Statistics of one solve.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveRecord {
    pub model: String,
    pub backend: String,
    pub num_vars: usize,
    pub num_integer_vars: usize,
    pub num_constraints: usize,
    pub elapsed: Duration,
    /// `optimal`, `time-limit-feasible`, `gap-limit-feasible`, or the error's text.
    pub outcome: String,
    /// The time by phase (model build, solver set-up, solve, exact check); `None` when
    /// the solve failed before reporting it.
    pub times: Option<SolveTimes>,
}

/// Wraps a solver; every call to [`Solver::solve`] is recorded (and dumped, if asked).
pub struct Recording<S> {
    inner: S,
    dump_dir: Option<PathBuf>,
    records: Mutex<Vec<SolveRecord>>,
    /// Number of models dumped so far (never reset, so file names never collide).
    dumped: AtomicUsize,
}

impl<S: Solver> Recording<S> {
    /// Records the solves of `inner`.
    pub fn new(inner: S) -> Self {
        Recording { inner, dump_dir: None, records: Mutex::new(Vec::new()), dumped: AtomicUsize::new(0) }
    }

    /// Also writes every model to `dir/NNNN-<model>.lp` before solving it.
    pub fn with_dump_dir(mut self, dir: impl Into<PathBuf>) -> Self {
        self.dump_dir = Some(dir.into());
        self
    }

    /// The records so far, in call order.
    pub fn records(&self) -> Vec<SolveRecord> {
        self.records.lock().map(|r| r.clone()).unwrap_or_else(|p| p.into_inner().clone())
    }

    /// Takes the records so far, leaving none.
    pub fn take_records(&self) -> Vec<SolveRecord> {
        match self.records.lock() {
            Ok(mut r) => std::mem::take(&mut *r),
            Err(p) => std::mem::take(&mut *p.into_inner()),
        }
    }

    /// The wrapped solver.
    pub fn inner(&self) -> &S {
        &self.inner
    }

    fn push(&self, rec: SolveRecord) -> usize {
        let mut guard = match self.records.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        };
        guard.push(rec);
        guard.len()
    }

    fn dump(&self, model: &Model) -> Result<(), SolveError> {
        let Some(dir) = &self.dump_dir else { return Ok(()) };
        let seq = self.dumped.fetch_add(1, Ordering::Relaxed);
        let stem: String = model.name().chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).take(80).collect();
        let path = dir.join(format!("{seq:04}-{stem}.lp"));
        // Atomically: an interrupted run leaves complete files only.
        crate::output::write_atomic(&path, model.to_lp_string().as_bytes())
            .map_err(|e| SolveError::Dump { path: path.display().to_string(), message: e.to_string() })
    }
}

impl<S: Solver> Solver for Recording<S> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.inner.solve_raw(model, options)
    }

    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        self.inner.solve_raw_timed(model, options)
    }

    fn solve(&self, model: &Model, options: &SolveOptions) -> Result<Solution, SolveError> {
        self.dump(model)?;
        let start = Instant::now();
        let result = self.inner.solve(model, options);
        self.record(model, start.elapsed(), &result);
        result
    }

    fn incremental(&self) -> Option<&dyn Incremental> {
        self.inner.incremental().map(|_| self as &dyn Incremental)
    }
}

impl<S: Solver> Recording<S> {
    fn record(&self, model: &Model, elapsed: Duration, result: &Result<Solution, SolveError>) {
        let outcome = match result {
            Ok(s) => match s.status() {
                crate::SolutionStatus::Optimal => "optimal".to_string(),
                crate::SolutionStatus::TimeLimitFeasible => "time-limit-feasible".to_string(),
                crate::SolutionStatus::GapLimitFeasible => "gap-limit-feasible".to_string(),
            },
            Err(e) => e.to_string(),
        };
        self.push(SolveRecord {
            model: model.name().to_string(),
            backend: self.inner.name().to_string(),
            num_vars: model.num_vars(),
            num_integer_vars: model.vars().iter().filter(|v| v.kind.is_integral()).count(),
            num_constraints: model.num_constraints(),
            elapsed,
            outcome,
            times: result.as_ref().ok().map(|s| s.times()),
        });
    }
}

/// The recording of a session: every solve is dumped (with `--dump-lp`) and recorded
/// like a solve of the model as it stands.
impl<S: Solver> Incremental for Recording<S> {
    fn start<'a>(&'a self, model: &Model, options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError> {
        let inner = incremental_of(&self.inner)?.start(model, options)?;
        Ok(Forwarding::boxed(inner, move |inner: &mut dyn Session, options: &SolveOptions, start: Option<&[f64]>| {
            self.dump(inner.model())?;
            let begin = Instant::now();
            let result = inner.solve(options, start);
            // The first solve of a session includes its build and set-up.
            let elapsed = match &result {
                Ok(s) => s.elapsed().max(begin.elapsed()),
                Err(_) => begin.elapsed(),
            };
            self.record(inner.model(), elapsed, &result);
            result
        }))
    }
}
