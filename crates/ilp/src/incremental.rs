//! [`crate::Incremental`]: the capability of a backend that keeps a model between solves.
//!
//! Lexicographic minimisation ([`crate::LexSolve`]) solves one model several times: the
//! objective changes and one row is added per stage. Rebuilding the model for every
//! stage makes fixed per-solve costs (translation, instance creation, presolve) dominate
//! a comparison of backends on small models. A backend with this capability loads the
//! model once, then only changes it and re-solves, starting from the previous optimum
//! (which is feasible for the next stage) where its API allows.
//!
//! The traits [`crate::Incremental`] and [`Session`] are defined next to [`Solver`]; this
//! module has what implements them. Like good_lp's capabilities, it is a separate
//! trait, asked for at run time through
//! [`Solver::incremental`]; a backend without it still works: [`open_session`] then
//! gives a [`Session`] that rebuilds the model for every solve. Every answer of every
//! session goes through the exact check ([`crate::verify`]) against the session's own
//! copy of the model, so a backend's kept state can never produce an unchecked point.

use crate::expr::LinExpr;
use crate::model::{Cmp, Constraint, Model, Sense};
use crate::solve::{verify, RawSolution, Session, Solution, SolveError, SolveOptions, SolveTimes, Solver};
use std::time::{Duration, Instant};

/// The backend's side of a session: it mirrors the changes into its own model and
/// solves, without checking (see [`Checked`]).
pub trait RawSession {
    /// The objective of `model` replaced the previous one.
    fn set_objective(&mut self, model: &Model) -> Result<(), SolveError>;
    /// `row` was added to `model` (it is its last constraint).
    fn add_constraint(&mut self, model: &Model, row: &Constraint) -> Result<(), SolveError>;
    /// Solves `model` as it stands (the backend's kept copy of it), from `start`.
    fn solve_raw(&mut self, model: &Model, options: &SolveOptions, start: Option<&[f64]>) -> Result<(RawSolution, SolveTimes), SolveError>;
}

/// A [`Session`] over a backend's [`RawSession`]: keeps the model, checks every answer.
pub struct Checked<R> {
    model: Model,
    raw: R,
    backend: String,
    /// Translation and set-up of the session, reported with its first solve.
    pending: Option<(Duration, Duration)>,
}

impl<R: RawSession> Checked<R> {
    /// A session on `model` whose backend part `raw` took `build` to translate the model
    /// and `setup` to load it.
    pub fn new(model: &Model, raw: R, backend: &str, build: Duration, setup: Duration) -> Self {
        Checked { model: model.clone(), raw, backend: backend.to_string(), pending: Some((build, setup)) }
    }
}

fn invalid(model: &Model, message: String) -> SolveError {
    SolveError::InvalidModel { model: model.name().to_string(), message }
}

impl<R: RawSession> Session for Checked<R> {
    fn model(&self) -> &Model {
        &self.model
    }

    fn backend(&self) -> &str {
        &self.backend
    }

    fn set_objective(&mut self, sense: Sense, objective: LinExpr) -> Result<(), SolveError> {
        if let Some((v, _)) = objective.terms().find(|(v, _)| v.index() >= self.model.num_vars()) {
            return Err(invalid(&self.model, format!("objective variable #{} is not a variable of the model", v.index())));
        }
        self.model.set_objective(sense, objective);
        self.raw.set_objective(&self.model)
    }

    fn add_constraint(&mut self, name: String, expr: LinExpr, cmp: Cmp, rhs: i64) -> Result<(), SolveError> {
        self.model.try_add_constraint(name, expr, cmp, rhs).map_err(|e| invalid(&self.model, e.to_string()))?;
        let row = self.model.constraints().last().cloned().ok_or_else(|| invalid(&self.model, "no row".into()))?;
        self.raw.add_constraint(&self.model, &row)
    }

    fn solve(&mut self, options: &SolveOptions, start: Option<&[f64]>) -> Result<Solution, SolveError> {
        let begin = Instant::now();
        let start = start.filter(|v| v.len() == self.model.num_vars());
        let (raw, mut times) = self.raw.solve_raw(&self.model, options, start)?;
        match self.pending.take() {
            Some((build, setup)) => {
                times.build = Some(build + times.build.unwrap_or_default());
                times.setup = Some(setup + times.setup.unwrap_or_default());
            }
            None => times.incremental = true,
        }
        // `warm_start` is the backend's to set: it says whether the start point was
        // really handed to the solver (CBC's session does not use it, see there).
        let check = Instant::now();
        let sol = verify(&self.model, raw, &self.backend)?;
        times.check = check.elapsed();
        let elapsed = begin.elapsed() + times.build.unwrap_or_default() + times.setup.unwrap_or_default();
        Ok(sol.with_times(elapsed, times))
    }
}

/// The generic session of a backend without [`crate::Incremental`]: every solve rebuilds the
/// model through [`Solver::solve`] (no warm start).
pub struct Rebuild<'a, S: ?Sized> {
    solver: &'a S,
    model: Model,
}

impl<'a, S: Solver + ?Sized> Rebuild<'a, S> {
    /// A session that rebuilds `model` (as it stands) for every solve.
    pub fn new(solver: &'a S, model: &Model) -> Self {
        Rebuild { solver, model: model.clone() }
    }
}

impl<S: Solver + ?Sized> Session for Rebuild<'_, S> {
    fn model(&self) -> &Model {
        &self.model
    }

    fn backend(&self) -> &str {
        self.solver.name()
    }

    fn set_objective(&mut self, sense: Sense, objective: LinExpr) -> Result<(), SolveError> {
        if let Some((v, _)) = objective.terms().find(|(v, _)| v.index() >= self.model.num_vars()) {
            return Err(invalid(&self.model, format!("objective variable #{} is not a variable of the model", v.index())));
        }
        self.model.set_objective(sense, objective);
        Ok(())
    }

    fn add_constraint(&mut self, name: String, expr: LinExpr, cmp: Cmp, rhs: i64) -> Result<(), SolveError> {
        self.model.try_add_constraint(name, expr, cmp, rhs).map(|_| ()).map_err(|e| invalid(&self.model, e.to_string()))
    }

    fn solve(&mut self, options: &SolveOptions, _start: Option<&[f64]>) -> Result<Solution, SolveError> {
        self.solver.solve(&self.model, options)
    }
}

/// A session on `model`: the backend's own when it is [`crate::Incremental`], else one that
/// rebuilds the model for every solve.
pub fn open_session<'a, S: Solver + ?Sized>(solver: &'a S, model: &Model, options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError> {
    match solver.incremental() {
        Some(inc) => inc.start(model, options),
        None => Ok(Box::new(Rebuild::new(solver, model))),
    }
}

/// The incremental capability of the backend `inner` that a wrapper backend (recording,
/// a time budget) forwards to, or the error that it has none.
pub fn incremental_of<S: Solver + ?Sized>(inner: &S) -> Result<&dyn crate::Incremental, SolveError> {
    inner
        .incremental()
        .ok_or_else(|| SolveError::Solver { backend: inner.name().to_string(), message: "the backend keeps no model between solves".into() })
}

/// The session of a wrapper backend: every change goes to `inner` unchanged and every
/// solve through the wrapper's hook, which gets `inner` to solve with (the one
/// forwarding implementation the wrappers share).
pub struct Forwarding<'a, F> {
    inner: Box<dyn Session + 'a>,
    solve: F,
}

impl<'a, F> Forwarding<'a, F>
where
    F: FnMut(&mut dyn Session, &SolveOptions, Option<&[f64]>) -> Result<Solution, SolveError> + 'a,
{
    /// `inner` with every solve through `solve`.
    pub fn boxed(inner: Box<dyn Session + 'a>, solve: F) -> Box<dyn Session + 'a> {
        Box::new(Forwarding { inner, solve })
    }
}

impl<'a, F> Session for Forwarding<'a, F>
where
    F: FnMut(&mut dyn Session, &SolveOptions, Option<&[f64]>) -> Result<Solution, SolveError> + 'a,
{
    fn model(&self) -> &Model {
        self.inner.model()
    }
    fn backend(&self) -> &str {
        self.inner.backend()
    }
    fn set_objective(&mut self, sense: Sense, objective: LinExpr) -> Result<(), SolveError> {
        self.inner.set_objective(sense, objective)
    }
    fn add_constraint(&mut self, name: String, expr: LinExpr, cmp: Cmp, rhs: i64) -> Result<(), SolveError> {
        self.inner.add_constraint(name, expr, cmp, rhs)
    }
    fn solve(&mut self, options: &SolveOptions, start: Option<&[f64]>) -> Result<Solution, SolveError> {
        (self.solve)(self.inner.as_mut(), options, start)
    }
}
