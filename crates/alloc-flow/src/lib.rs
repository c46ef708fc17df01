//! # polyalloc-alloc-flow: loop shifting, fusion and array contraction as a min-cost network flow
//!
//! Implements paper Song et al. 2005 (Song, Wang, Li, "A Polynomial-Time Algorithm for Memory Space
//! Reduction"). The input is a sequence of m tight, rectangular loop nests of depth n
//! with constant dependence distance vectors (the loop dependence graph, LDG, of
//! Definition 2), read from the `flow` section of a bench-suite example ([`input`]).
//! The method chooses a shifting vector `p_i` per nest so that all nests can be fused
//! after loop coalescing (Lemma 3) and the local array regions can be contracted to
//! `M_{i,k} . s^T` cells per write reference `w_{i,k}` (Theorem 1, Problem 0), with the
//! total minimal.
//!
//! Pipeline ([`algorithm::solve`], Algorithm 1 of Fig. 7):
//! 1. Assumptions 1-3 (Sec. 3.3): Assumption 1's static part (every local write is
//!    used) and Assumption 2 (one write reference per local array) are checked on the
//!    input; Assumption 1's dynamic part (distinct elements, every value read, region
//!    written before read) on the program model at every instance
//!    ([`check::assumption1_at`]); Assumption 3 becomes the run-time condition
//!    `sum_e |d_e| < b`.
//! 2. G0 (Sec. 4.1: L-edges, M-edges), G1 (Sec. 4.2: sinks, supplies `h`), lexical
//!    heights (Fig. 5) and G2 with non-negative costs `c'' = z_j - z_i + c'` (Sec. 4.3).
//! 3. Problem 4, (23)-(25), by network simplex ([`simplex`]; the choice over Fig. 6's
//!    enhanced capacity scaling is explained there).
//! 4. Problem 3 from shortest distances in the residual network (Sec. 4.4.1, (27),
//!    (28)); Problem 2 by (18); Problems 1 and 0 by (14), (15). Each step's optimality
//!    identities ((29)-(31), (20), Appendix B) are checked exactly.
//!
//! Costs are vectors standing for `u . s^T` with the symbolic coalescing vector `s`
//! (Sec. 3.1); they are compared lexicographically and every comparison records the
//! condition `abs(u1 - u2) < b` of Lemma 1 ([`vecs`]). The run-time condition of the
//! result is the conjunction of Assumption 3 with the conditions that certify the
//! solution (Lemma 7, (27), the Problem 4 objective and Problem 0's constraints); the
//! conditions of every comparison made are reported separately.
//!
//! The method `flow` ([`Flow`], a [`polyalloc_alloc::Method`], registered in the
//! `polyalloc` facade) runs this per local array and returns, for the facade to check
//! (it never checks itself, see [`method`]):
//! * the contracted storage of Sec. 5 as a modular mapping ([`storage`]);
//! * its conflict set under the fused schedule of Fig. 8, from the loops in polyalloc's
//!   one program model ([`model`]: each statement of each nest a
//!   `polyalloc_program::Statement`), for the exact checker;
//! * runs of the shifted, fused (coalesced, and Fig. 8's nest) and contracted loops for
//!   the one executor (`polyalloc_program::exec`, hash bodies: every value read is
//!   compared), with the linearised storage of Sec. 5 and with the reported mappings;
//! * its typed details ([`FlowDetails`]), including Problem 1 solved as an ILP at every
//!   instance through the run's solver ([`ilp`]; its optimum must equal the flow's
//!   `sum M . s`) and the file's LDG against polyalloc's dependence analysis of the
//!   program ([`check::ldg_check`]).
//!
//! Design decisions and deviations from the paper (network simplex instead of Fig. 6,
//! the two reported conditions, the coalesced execution order, projected mappings,
//! LL14 not executed, the Problem 2 objective erratum) are listed with their reasons in
//! `crates/alloc-flow/README.md` and in the module docs.
//!
//! Module dependencies (no cycles): `error` <- `vecs` <- `input`; `simplex` <-
//! `algorithm` <- `ilp`; `expr` <- `model`; `algorithm` and `model` <- `storage` and
//! `check` <- `details` <- `method`.

pub mod algorithm;
pub mod check;
pub mod details;
pub mod error;
pub mod expr;
pub mod ilp;
pub mod input;
pub mod method;
pub mod model;
pub mod simplex;
pub mod storage;
pub mod vecs;

pub use algorithm::{solve, FlowResult};
pub use details::FlowDetails;
pub use error::{FlowError, Result};
pub use input::LoopSequence;
pub use method::Flow;
