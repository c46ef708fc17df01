//! # polyalloc-backend-goodlp: every solver good_lp drives, behind polyalloc's `Solver` trait
//!
//! [good_lp](https://docs.rs/good_lp) is the Rust modelling layer that speaks to many
//! LP/MILP solvers. With one cargo feature per solver, `GoodLpSolver` solves polyalloc
//! models through it; `polyalloc-solvers` registers each compiled-in one as
//! `goodlp-<solver>`:
//!
//! | feature | registry name | solver | needs |
//! |---|---|---|---|
//! | `microlp` | `goodlp-microlp` | microlp 0.6 (pure Rust) | nothing |
//! | `highs` | `goodlp-highs` | HiGHS, the `highs` crate of the direct backend | cmake, libclang-dev (built once for both) |
//! | `cbc` | `goodlp-cbc` | COIN-OR CBC, the libCbcSolver of the direct backend | coinor-libcbc-dev |
//! | `lpsolve` | `goodlp-lpsolve` | lp_solve 5.5 from lpsolve-sys's bundled C sources | a C compiler |
//!
//! Without a feature the crate is empty. good_lp's other solvers (SCIP, CPLEX, Clarabel,
//! and the programs of its `lp-solvers` feature: GLPK, CBC, Gurobi, CPLEX) are not
//! features, for the reasons in the crate README ("Not enabled").
//!
//! Same guarantees as every backend: [`Solver::solve`](polyalloc_ilp::Solver::solve)
//! checks every point exactly; this crate implements `solve_raw` and makes good_lp's
//! statuses faithful where good_lp loses information (see `GoodLpSolver::solve_once` and
//! `GoodLpSolver::settle` in `backend.rs`, and the README's table):
//! * "infeasible" and "unbounded" are settled by the bounds or by a zero-objective
//!   solve (good_lp maps HiGHS's `UnboundedOrInfeasible` to infeasible);
//! * time-limit and gap statuses: passed through where good_lp has them (microlp, HiGHS,
//!   CBC), decided by the clock where it does not (lp_solve);
//! * microlp's `i32` integer bounds get artificial bounds
//!   ([`polyalloc_ilp::solve_with_artificial_bounds`]), as in the direct microlp backend;
//! * CBC solves hold the direct CBC backend's process-wide lock, and its time limit is
//!   wall-clock (`timeMode elapsed`) through good_lp's parameter pass-through;
//! * a panic inside good_lp or an adaptor becomes a [`SolveError::Solver`](polyalloc_ilp::SolveError).
//!
//! The pairs "solver directly" / "the same solver through good_lp" (`highs` /
//! `goodlp-highs`, `cbc` / `goodlp-cbc`) measure the cost of the modelling layer: same
//! solver library, same options.

#[cfg(any(feature = "microlp", feature = "highs", feature = "cbc", feature = "lpsolve"))]
mod backend;
#[cfg(any(feature = "microlp", feature = "highs", feature = "cbc", feature = "lpsolve"))]
mod kind;
#[cfg(feature = "lpsolve")]
mod quiet;
#[cfg(any(feature = "microlp", feature = "highs", feature = "cbc", feature = "lpsolve"))]
mod run;
#[cfg(any(feature = "microlp", feature = "highs", feature = "cbc", feature = "lpsolve"))]
mod translate;

#[cfg(any(feature = "microlp", feature = "highs", feature = "cbc", feature = "lpsolve"))]
pub use backend::{GoodLpSolver, ARTIFICIAL_BOUND};
#[cfg(any(feature = "microlp", feature = "highs", feature = "cbc", feature = "lpsolve"))]
pub use kind::GoodLpKind;
