//! # polyalloc-ilp: the integer-programming layer every polyalloc method formulates against
//!
//! Every allocator in polyalloc (successive modulo, SMO storage hyperplanes, lattice
//! heuristics, occupancy vectors, Pugh scheduling, the ILP form of Song et al.'s flow
//! problem) ends in small integer linear programs. This crate is the one abstraction
//! they all target, and it sits at the bottom of the workspace:
//!
//! ```text
//!   allocators (alloc-*) ─┐
//!   formulation (Farkas) ─┼─> polyalloc-ilp  <── backend-microlp / backend-highs / backend-cbc
//!   cli, xtask ───────────┘        ▲
//!                                  └── polyalloc-solvers (registry of compiled-in backends)
//! ```
//!
//! * [`Model`]: continuous, integer and binary variables with finite or infinite
//!   bounds, linear constraints with **exact integer coefficients**, a linear objective,
//!   names for variables and constraints.
//! * [`Solver`]: the small core trait (`name`, `solve`). A backend implements only
//!   [`Solver::solve_raw`], which returns the solver's floating-point answer; the provided
//!   [`Solver::solve`] rounds integer variables and checks the rounded point against every
//!   bound and constraint in exact integer arithmetic ([`verify`]). A point that fails is a
//!   [`SolveError::Verification`] naming the violated constraint, never a solution.
//! * Status fidelity: [`SolutionStatus`] (optimal, or a time/gap-limited incumbent) and
//!   [`SolveError`] (infeasible, unbounded, time limit without incumbent, solver error
//!   with the solver's message) are kept apart, never collapsed.
//! * Capabilities are separate traits: [`LexSolve`] (lexicographic minimisation by
//!   successive solves, blanket-implemented for every solver), [`Incremental`] (a backend
//!   that keeps a model between solves and re-solves it from the previous optimum;
//!   optional, asked for through [`Solver::incremental`], with a rebuilding fallback),
//!   [`Model::to_lp_string`] (CPLEX LP export), [`Recording`] (a wrapper that logs
//!   statistics of every solve, split into model build, solver set-up, solve and exact
//!   check ([`SolveTimes`]), and can dump every model in LP format).
//! * [`Registry`]: maps backend names (`microlp`, `highs`, `cbc`) to solvers; the
//!   `polyalloc-solvers` crate fills it with the backends compiled in.
//!
//! ```
//! use polyalloc_ilp::{Model, Sense, Cmp, LinExpr};
//! let mut m = Model::new("knapsack");
//! let x = m.add_integer("x", Some(0), Some(10));
//! let y = m.add_binary("y");
//! m.add_constraint("cap", LinExpr::from(x) * 3 + LinExpr::from(y) * 5, Cmp::Le, 17);
//! m.set_objective(Sense::Maximize, LinExpr::from(x) * 4 + LinExpr::from(y) * 7);
//! // A point can be checked exactly without any solver:
//! assert!(m.check_point(&[4.0, 1.0]).is_ok());
//! assert!(m.check_point(&[5.0, 1.0]).is_err());
//! ```

mod bounds;
pub mod budget;
mod budgeted;
mod expr;
mod incremental;
mod lex;
mod lp_format;
mod model;
pub mod output;
mod record;
mod registry;
mod solve;

pub use bounds::{hits_artificial_bound, objective_bounded_over_bounds, solve_with_artificial_bounds};
pub use budgeted::Budgeted;
pub use expr::{LinExpr, VarId};
pub use incremental::{incremental_of, open_session, Checked, Forwarding, RawSession, Rebuild};
pub use lex::{LexSolution, LexSolve};
pub use model::{Cmp, ConstrId, Constraint, Model, ModelError, Sense, VarKind, Variable};
pub use record::{Recording, SolveRecord};
pub use registry::{Registry, RegistryError, SolverFactory, UnknownBackend};
pub use solve::{
    verify, Incremental, RawSolution, RawStatus, Session, Solution, SolutionStatus, SolveError, SolveOptions, SolveTimes, Solver, Violation,
};
