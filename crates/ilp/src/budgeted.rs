//! A solver under a wall-clock budget: the wrapper every run of the facade solves
//! through, beside the thread budget ([`crate::budget`]) it combines with.

use crate::{
    budget, incremental_of, Forwarding, Incremental, Model, RawSolution, RawStatus, Session, SolutionStatus, SolveError, SolveOptions, SolveTimes,
    Solver,
};
use std::time::{Duration, Instant};

/// A solver with a wall-clock budget shared by every solve of one run: each solve gets
/// at most the time left (of its own budget and of the thread's
/// [`crate::budget`]), and a solve stopped by the budget (with or without an
/// incumbent) is an error, never a silently worse mapping. Work between solves is
/// bounded by the thread's budget, which the facade's `run` sets (`crate::budget::scoped`).
pub struct Budgeted<S> {
    inner: S,
    budget: Option<Duration>,
    deadline: Option<Instant>,
}

impl<S: Solver> Budgeted<S> {
    /// `inner` with `budget` from now (`None`: no limit).
    pub fn new(inner: S, budget: Option<Duration>) -> Self {
        // A budget beyond what an instant can represent is no limit (never a panic).
        let deadline = budget.and_then(|b| Instant::now().checked_add(b));
        Budgeted { inner, budget: budget.filter(|_| deadline.is_some()), deadline }
    }

    fn exhausted(&self) -> SolveError {
        SolveError::TimeBudget { backend: self.inner.name().to_string(), seconds: self.budget.unwrap_or_default().as_secs_f64() }
    }
}

impl<S: Solver> Budgeted<S> {
    /// The options of one solve under the budget: the time left (the tighter of this
    /// solver's budget and the thread's [`crate::budget`]) when it is less than
    /// asked, with the error to report when that limit stops the solve (`None`: the
    /// limit is the caller's own); `Err` when a budget is used up.
    fn limited<'o>(&self, options: &'o SolveOptions) -> Result<(std::borrow::Cow<'o, SolveOptions>, Option<SolveError>), SolveError> {
        budget::check()?;
        let own = self.deadline.map(|d| (d.saturating_duration_since(Instant::now()), self.exhausted()));
        let thread = budget::remaining().zip(budget::exhausted());
        let limit = match (own, thread) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        let Some((remaining, exhausted)) = limit else { return Ok((std::borrow::Cow::Borrowed(options), None)) };
        if remaining.is_zero() {
            return Err(exhausted);
        }
        if options.time_limit.is_some_and(|t| t <= remaining) {
            return Ok((std::borrow::Cow::Borrowed(options), None));
        }
        let mut o = options.clone();
        o.time_limit = Some(remaining);
        Ok((std::borrow::Cow::Owned(o), Some(exhausted)))
    }
}

impl<S: Solver> Solver for Budgeted<S> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.solve_raw_timed(model, options).map(|(r, _)| r)
    }

    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        let (o, ours) = self.limited(options)?;
        match (self.inner.solve_raw_timed(model, &o), ours) {
            (Ok((r, _)), Some(e)) if r.status == RawStatus::TimeLimit => Err(e),
            (Err(SolveError::TimeLimitNoIncumbent), Some(e)) => Err(e),
            (other, _) => other,
        }
    }

    fn incremental(&self) -> Option<&dyn Incremental> {
        self.inner.incremental().map(|_| self as &dyn Incremental)
    }
}

impl<S: Solver> Incremental for Budgeted<S> {
    fn start<'a>(&'a self, model: &Model, options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError> {
        let (o, _) = self.limited(options)?;
        let inner = incremental_of(&self.inner)?.start(model, &o)?;
        // A session under the budget: every solve gets the time left.
        Ok(Forwarding::boxed(inner, move |inner: &mut dyn Session, options: &SolveOptions, start: Option<&[f64]>| {
            let (o, ours) = self.limited(options)?;
            match (inner.solve(&o, start), ours) {
                (Ok(s), Some(e)) if s.status() == SolutionStatus::TimeLimitFeasible => Err(e),
                (Err(SolveError::TimeLimitNoIncumbent), Some(e)) => Err(e),
                (other, _) => other,
            }
        }))
    }
}
