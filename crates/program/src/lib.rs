//! # polyalloc-program: the one program model, its conflict sets, dependences and executor
//!
//! The layer between the polyhedral toolkit (`polyalloc-formulation`: sets, relations,
//! Farkas, the exact checker) and the methods of the papers. Every method of polyalloc
//! that starts from a program reads this model, and every method whose answer is
//! confirmed by running the program runs this executor:
//!
//! * [`Program`] / [`Statement`] / [`Access`]: statements with iteration domains,
//!   multi-dimensional affine schedules, guarded affine write and read accesses, and the
//!   array cells live after the program (live-out). `polyalloc-suite` builds it from a
//!   bench-suite file; the occupancy-vector (Thies et al. 2007), scheduling (Pugh 1991) and network-flow
//!   (Song et al. 2005) methods build theirs from the same type.
//! * [`Program::conflict_set`]: the conflict set of an array under the program's
//!   schedule (Bhaskaracharya et al. 2016, Sec. 2.1, Def. 2.3; Darte et al. 2015, Sec. 3.2), as a
//!   [`polyalloc_formulation::ConflictSet`] for the allocators and the checker.
//! * [`deps`]: memory-based dependence relations restricted to the original execution
//!   order (Pugh 1991, Sec. 3: flow, anti, output; broadcast and reduction "dependences").
//! * [`exec`]: the executor, for every method: runs the program with statement bodies
//!   (Rust closures) under its original order and under any other order (a schedule, or
//!   the trace of rearranged or fused loops) and any storage mapping per array, and
//!   compares every value read and every live-out value.
//! * [`max_live`]: the largest number of cells of an array live at once under the
//!   schedule, the lower bound of every valid mapping's size.
//! * [`order`] and [`compiled`]: the instances in time order, and accesses, affine
//!   expressions and sets at fixed parameter values, evaluated without allocation (the
//!   full-size simulations visit millions of instances).
//!
//! Layering: depends on `polyalloc-formulation` and `polyalloc-ilp` only; the suite
//! reader, the methods and the facade build on it.
//!
//! ```
//! use polyalloc_formulation::{ConflictSet, ConflictForm, Map};
//! use polyalloc_program::{max_live, Program, Statement};
//!
//! // Bhaskaracharya et al. 2016, Fig. 2: for t, i: A[t, i] = f(A[t, i - 1], A[t - 1, i]); the last row and
//! // column are read after the loops (live-out).
//! let mut p = Program::new("[N] -> { : N >= 2 }")?;
//! p.add_statement(Statement::parse(
//!     "[N] -> { S[t, i] : 1 <= t <= N and 1 <= i <= N }",
//!     "[N] -> { S[t, i] -> [t, i] }",
//!     &["[N] -> { S[t, i] -> A[t, i] }"],
//!     &["[N] -> { S[t, i] -> A[t, i - 1] }", "[N] -> { S[t, i] -> A[t - 1, i] }"],
//! )?)?;
//! p.add_live_out("[N] -> { A[t, i] : 1 <= t <= N and 1 <= i <= N and (i = N or t = N) }")?;
//! let cs = p.conflict_set("A")?;
//! // The conflict set printed in Bhaskaracharya et al. 2016, Fig. 2(c), as the same set of pairs (N = 4):
//! let paper = ConflictSet::from_map(Map::parse(
//!     "[N] -> { A[t, i] -> A[t2, i2] : 1 <= t, i, t2, i2 <= N and
//!        ((t2 = t and i2 >= i + 1) or (t2 = t + 1 and i2 <= i - 1) or (t2 >= t + 1 and i = N)) }")?,
//!     ConflictForm::Half)?;
//! assert_eq!(cs.relation.enumerate(&[4], 10_000)?, paper.relation.enumerate(&[4], 10_000)?);
//! // 2N - 1 values are live at once: no mapping has fewer cells (Bhaskaracharya et al. 2016, Sec. 3.1).
//! assert_eq!(max_live(&p, &[4])?[0].max_live, 7);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod access;
pub mod compiled;
mod conflict;
pub mod deps;
mod error;
pub mod exec;
mod live;
mod model;
pub mod order;

pub use conflict::MAX_CONFLICT_PIECES;
pub use error::{ProgramError, Result};
pub use live::{max_live, max_live_in, max_live_under, InstanceTime, LiveReport, MAX_LIVE_INSTANCES};
pub use model::{set_contains, Access, Program, Statement};
