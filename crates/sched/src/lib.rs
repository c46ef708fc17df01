//! # polyalloc-sched: dependence relations, affine scheduling, code rearrangement (Pugh)
//!
//! Implements `shared/papers/002_4ec5b7af0e1809ed.txt` (W. Pugh, "Uniform Techniques for
//! Loop Optimization"), registered in polyalloc as the method `schedule`
//! ([`ScheduleMethod`]):
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
//! * [`example`]: reads the `pugh` section of a bench-suite file into typed values and
//!   one program, and runs Sec. 4 and 5 on it.
//! * [`method`]: the [`Method`](polyalloc_alloc::Method) `schedule`: its targets (one
//!   per scheduling run), its typed details ([`ScheduleDetails`]), and the runs of the
//!   program it asks the facade to perform.
//!
//! **The program model and the scheduler's view.** The program is
//! `polyalloc_program::Program`, read once from the `pugh` section
//! ([`example::PughExample::program`]). The scheduler and the code generator work on a
//! [`schedule::Problem`]: a view of that program for their integer programs — its
//! parameters, context and statements (name and iteration domain only,
//! [`schedule::StmtInfo`], in the program's order so that statement indices agree) —
//! with the dependences to respect, either computed from the program by
//! `polyalloc_program::deps::analyze` or the paper's table over the same statements.
//! A `Problem` is only built from a program ([`schedule::Problem::from_program`]).
//!
//! **Verification.** The crate never runs the program to confirm its own answer. The
//! schedule and the rearranged loops are confirmed by the facade (`polyalloc::run`)
//! with the one executor of polyalloc, `polyalloc_program::exec`, which runs the
//! program under the original order and under the schedule (and under the trace of the
//! rearranged loops) and compares every value read and every live-out value. Every
//! schedule the scheduler returns is also re-checked exactly against every dependence
//! ([`schedule::check`]) before it is returned.
//!
//! Design decisions and deviations from the paper are documented in each module.

pub mod codegen;
mod error;
pub mod example;
pub mod method;
pub mod rel;
pub mod schedule;

pub use error::{Result, SchedError};
pub use method::{ScheduleDetails, ScheduleMethod, TrialDetails};
