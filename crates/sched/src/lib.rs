//! # polyalloc-sched: dependence relations, affine scheduling, code rearrangement (Pugh) and an executor
//!
//! Implements `shared/papers/002_4ec5b7af0e1809ed.txt` (W. Pugh, "Uniform Techniques for
//! Loop Optimization"), the way storage methods of polyalloc get their schedules:
//!
//! * [`rel`]: integer tuple relations with the operations of Table 1 (Sec. 2,
//!   Appendix 1), including the transitive closure in closed form for constant
//!   distances and the bounded approximation otherwise; built on the formulation
//!   crate's [`polyalloc_formulation::Map`].
//! * Dependence relations from read and write accesses restricted to the original
//!   execution order (Sec. 3: flow, anti, output; broadcast "dependences" for arrays
//!   marked so) are computed by `polyalloc_program::deps`, the one dependence analysis
//!   of polyalloc, on the one program model (`polyalloc_program::Program`).
//! * [`schedule`]: Sec. 4 — strongly connected components, self-dependence distance
//!   sets (direct, then transitive by eliminating the other statements of the
//!   component, Fig. 2), nomination of candidate schedules by increasing 1-norm with
//!   pruning by the violated distances seen so far, transfer of the schedule to the
//!   other statements, and alignment of rational offsets (statement reordering through
//!   fractional offsets) by an integer program in scaled time.
//! * [`codegen`]: Sec. 5 — unimodular extension of each schedule, loop bounds by
//!   Fourier–Motzkin, time segments, min/max resolved statically, printed as the paper
//!   prints the rearranged loops; the loops can be interpreted into a
//!   `polyalloc_program::exec::Trace`.
//! * Schedules and generated loops are confirmed by the one executor of polyalloc,
//!   `polyalloc_program::exec`: it runs the program under the original order and under
//!   the schedule (or the trace of the rearranged loops) and compares every value read
//!   and every live-out value.
//! * [`example`]: reads the `pugh` section of a bench-suite file and runs everything.
//!
//! Design decisions and deviations from the paper are documented in each module.

pub mod codegen;
mod error;
pub mod example;
pub mod rel;
pub mod schedule;

pub use error::{Result, SchedError};
