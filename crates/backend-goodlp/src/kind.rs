//! Which good_lp solver, and what good_lp passes through for it.

use std::time::Duration;

/// A solver good_lp drives, one per cargo feature of this crate (only the compiled-in
/// ones exist).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GoodLpKind {
    /// microlp (good_lp feature `microlp`), pure Rust.
    #[cfg(feature = "microlp")]
    Microlp,
    /// HiGHS (good_lp feature `highs`), the same `highs` crate as the direct backend.
    #[cfg(feature = "highs")]
    Highs,
    /// COIN-OR CBC (good_lp feature `coin_cbc`), the same libCbcSolver as the direct backend.
    #[cfg(feature = "cbc")]
    Cbc,
    /// lp_solve 5.5 (good_lp feature `lpsolve`), compiled from lpsolve-sys's bundled sources.
    #[cfg(feature = "lpsolve")]
    LpSolve,
}

impl GoodLpKind {
    /// Every compiled-in solver, in registry order.
    pub fn compiled_in() -> Vec<GoodLpKind> {
        vec![
            #[cfg(feature = "microlp")]
            GoodLpKind::Microlp,
            #[cfg(feature = "highs")]
            GoodLpKind::Highs,
            #[cfg(feature = "cbc")]
            GoodLpKind::Cbc,
            #[cfg(feature = "lpsolve")]
            GoodLpKind::LpSolve,
        ]
    }

    /// The registry name: `goodlp-<solver>`.
    pub fn name(self) -> &'static str {
        match self {
            #[cfg(feature = "microlp")]
            GoodLpKind::Microlp => "goodlp-microlp",
            #[cfg(feature = "highs")]
            GoodLpKind::Highs => "goodlp-highs",
            #[cfg(feature = "cbc")]
            GoodLpKind::Cbc => "goodlp-cbc",
            #[cfg(feature = "lpsolve")]
            GoodLpKind::LpSolve => "goodlp-lpsolve",
        }
    }

    /// One line for `polyalloc list` and the registry.
    pub fn description(self) -> &'static str {
        match self {
            #[cfg(feature = "microlp")]
            GoodLpKind::Microlp => "microlp 0.6 through good_lp (pure Rust)",
            #[cfg(feature = "highs")]
            GoodLpKind::Highs => "HiGHS through good_lp (the highs crate of the `highs` backend)",
            #[cfg(feature = "cbc")]
            GoodLpKind::Cbc => "COIN-OR CBC through good_lp (system libCbcSolver)",
            #[cfg(feature = "lpsolve")]
            GoodLpKind::LpSolve => "lp_solve 5.5 through good_lp (bundled C sources)",
        }
    }

    /// True when good_lp passes the solver's time-limit and gap-limit statuses through.
    /// lp_solve's adaptor reports every answer with a point as optimal (lp_solve's
    /// SUBOPTIMAL, a time-limited incumbent, included); for it the backend decides by the
    /// clock.
    pub(crate) fn reports_limits(self) -> bool {
        match self {
            #[cfg(feature = "microlp")]
            GoodLpKind::Microlp => true,
            #[cfg(feature = "highs")]
            GoodLpKind::Highs => true,
            #[cfg(feature = "cbc")]
            GoodLpKind::Cbc => true,
            #[cfg(feature = "lpsolve")]
            GoodLpKind::LpSolve => false,
        }
    }

    /// The time limit the solver really gets for a requested one: lp_solve's limit is whole
    /// seconds (rounded up by good_lp; at least one); the others take fractions.
    pub(crate) fn effective_time_limit(self, requested: Duration) -> Duration {
        match self {
            #[cfg(feature = "lpsolve")]
            GoodLpKind::LpSolve => Duration::from_secs(requested.as_secs_f64().ceil().max(1.0) as u64),
            #[allow(unreachable_patterns)]
            _ => requested,
        }
    }

    /// True when integer variables must not be unbounded (microlp's `i32` bounds, see
    /// [`polyalloc_ilp::solve_with_artificial_bounds`]).
    pub(crate) fn needs_artificial_bounds(self) -> bool {
        #[cfg(feature = "microlp")]
        if self == GoodLpKind::Microlp {
            return true;
        }
        false
    }
}
