//! Wall-clock budgets and interruption that reach every phase of a run, not only the
//! solver calls.
//!
//! A run of a method spends its time in ILP solves (bounded by the solver's time limit),
//! but also in work between them: building a conflict set from a program, coalescing
//! it, Fourier–Motzkin projections, enumerating points for the checker, executing a
//! program. A budget that only the solver sees does not bound those (a program of 60
//! statements ran for minutes before its first solve). This module is the one place
//! where that work asks whether it may go on:
//!
//! * [`scoped`] runs a closure under a deadline for the **current thread** (a run of
//!   polyalloc is single-threaded; parallel harnesses run one run per thread). Scopes
//!   nest: an inner scope never extends the outer deadline.
//! * [`check`] is called by the long loops of every layer above (cheap: a thread-local
//!   read and, when a deadline is set, a clock read); past the deadline it returns
//!   [`SolveError::TimeBudget`], typed, never a panic and never a partial answer.
//! * [`interrupt`] (called from a Ctrl-C / SIGTERM handler) makes every [`check`] of
//!   every thread return [`SolveError::Interrupted`], so that a run stops at its next
//!   check and the program can exit cleanly.
//!
//! The layers that cannot return early (a backend in the middle of one solve) are
//! bounded by the solver's own time limit, which the callers set to at most
//! [`remaining`].

use crate::solve::SolveError;
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[derive(Clone, Debug)]
struct Deadline {
    at: Instant,
    /// The budget that gave the deadline, for messages.
    seconds: f64,
    /// Who runs under it (the backend of the run), for messages.
    label: String,
}

thread_local! {
    static CURRENT: RefCell<Option<Deadline>> = const { RefCell::new(None) };
}

/// Runs `f` with a wall-clock budget of `budget` from now on this thread (`None`: no
/// new limit; an enclosing scope's deadline still holds). `label` names the run in the
/// error ([`SolveError::TimeBudget`]'s `backend`).
pub fn scoped<R>(label: &str, budget: Option<Duration>, f: impl FnOnce() -> R) -> R {
    let previous = CURRENT.with(|c| c.borrow().clone());
    let new = match budget {
        None => previous.clone(),
        Some(b) => {
            let at = Instant::now().checked_add(b);
            match (at, &previous) {
                (Some(at), Some(p)) if p.at <= at => Some(p.clone()),
                (Some(at), _) => Some(Deadline { at, seconds: b.as_secs_f64(), label: label.to_string() }),
                // A budget too large to represent as an instant: no new limit.
                (None, _) => previous.clone(),
            }
        }
    };
    CURRENT.with(|c| *c.borrow_mut() = new);
    // Restored even if `f` panics.
    struct Restore(Option<Deadline>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let p = self.0.take();
            CURRENT.with(|c| *c.borrow_mut() = p);
        }
    }
    let _restore = Restore(previous);
    f()
}

/// `Ok` while the current thread's budget lasts and no interruption was requested;
/// otherwise the typed reason to stop.
pub fn check() -> Result<(), SolveError> {
    if INTERRUPTED.load(Ordering::Relaxed) {
        return Err(SolveError::Interrupted);
    }
    CURRENT.with(|c| match &*c.borrow() {
        Some(d) if Instant::now() >= d.at => Err(SolveError::TimeBudget { backend: d.label.clone(), seconds: d.seconds }),
        _ => Ok(()),
    })
}

/// Time left on the current thread's budget (`None`: no budget).
pub fn remaining() -> Option<Duration> {
    CURRENT.with(|c| c.borrow().as_ref().map(|d| d.at.saturating_duration_since(Instant::now())))
}

/// The error a solve stopped by the current budget reports (`None`: no budget).
pub fn exhausted() -> Option<SolveError> {
    CURRENT.with(|c| c.borrow().as_ref().map(|d| SolveError::TimeBudget { backend: d.label.clone(), seconds: d.seconds }))
}

/// Asks every run of the process to stop at its next [`check`] (signal handlers).
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
}

/// True once [`interrupt`] was called.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// True for the errors of this module: a budget used up or an interruption (the run
/// stopped, it did not fail on its own).
pub fn is_stop(e: &SolveError) -> bool {
    matches!(e, SolveError::TimeBudget { .. } | SolveError::Interrupted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scope_bounds_the_work_inside_it_and_nests() {
        assert!(check().is_ok());
        assert_eq!(remaining(), None);
        let r = scoped("outer", Some(Duration::from_millis(30)), || {
            assert!(check().is_ok());
            // An inner scope cannot extend the outer deadline.
            scoped("inner", Some(Duration::from_secs(3600)), || {
                assert!(remaining().is_some_and(|r| r <= Duration::from_millis(30)));
            });
            std::thread::sleep(Duration::from_millis(40));
            check()
        });
        match r {
            Err(SolveError::TimeBudget { backend, seconds }) => {
                assert_eq!(backend, "outer");
                assert!((seconds - 0.03).abs() < 1e-9);
            }
            other => panic!("expected a time budget error, got {other:?}"),
        }
        // Restored after the scope.
        assert!(check().is_ok());
        assert_eq!(remaining(), None);
        // A budget beyond what an instant can hold is no limit, not a panic.
        scoped("huge", Some(Duration::MAX), || assert!(check().is_ok()));
    }

    #[test]
    fn other_threads_have_their_own_budget() {
        scoped("main", Some(Duration::ZERO), || {
            assert!(check().is_err());
            let other = std::thread::spawn(check).join().expect("thread");
            assert!(other.is_ok());
        });
    }
}
