//! # polyalloc-backend-highs: HiGHS behind polyalloc's `Solver` trait
//!
//! With the cargo feature `highs`, `HighsSolver` solves polyalloc models with
//! [HiGHS](https://highs.dev) through the `highs` crate (HiGHS is compiled from source:
//! apt packages `cmake` and `libclang-dev`, about 9 minutes on 2 cores). Without the
//! feature the crate is empty, so `cargo test --workspace` needs no system package.
//!
//! Translation and status rules (measured):
//! * `mip_rel_gap` is passed explicitly (polyalloc's default is 0; HiGHS's own is 1e-4).
//! * Output is silenced unless `verbose`.
//! * HiGHS answers `UnboundedOrInfeasible` on an unbounded MIP. The model is then solved
//!   again with presolve off, which decides; only if that still cannot decide is the
//!   answer `SolveError::InfeasibleOrUnbounded`.
//! * A time limit with a feasible primal solution is a `TimeLimit` incumbent; without one,
//!   `SolveError::TimeLimitNoIncumbent`.
//! * Values come back as e.g. 0.99999975: [`polyalloc_ilp::verify`] rounds and checks them.

#[cfg(feature = "highs")]
mod imp;
#[cfg(feature = "highs")]
pub use imp::HighsSolver;
