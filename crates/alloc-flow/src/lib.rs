//! # polyalloc-alloc-flow: loop shifting, fusion and array contraction as a min-cost network flow
//!
//! Implements paper 003 (Song, Wang, Li, "A Polynomial-Time Algorithm for Memory Space
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
//!    written before read) by executing the original loops ([`exec`]); Assumption 3
//!    becomes the run-time condition `sum_e |d_e| < b`.
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
//! The LDG is taken from the file; [`check::ldg_matches`] recomputes it by executing
//! the original loops (dependence analysis by enumeration at an instance) and reports
//! any difference.
//!
//! Cross-checks: Problem 1 at each concrete instance as an ILP through any
//! [`polyalloc_ilp::Solver`] ([`ilp`]), whose optimum must equal the flow's
//! `sum M . s`; and executable contraction ([`exec`]): the original loops and the
//! shifted, fused (coalesced) loop with every local region contracted to a modular
//! buffer derived from the solution (Sec. 5: linearised subscript modulo `M . s`) are
//! interpreted, and every value computed must be bit-identical.
//!
//! Design decisions and deviations from the paper (network simplex instead of Fig. 6,
//! the two reported conditions, the coalesced execution order, projected mappings,
//! LL14 not executed, the Problem 2 objective erratum) are listed with their reasons in
//! `crates/alloc-flow/README.md` and in the module docs.
//!
//! Keys of `Record::details` written by the xtask adapter (method `flow`): `shifts`
//! (nest -> p_i), `M` (write id -> M_{i,k}), `memory` (array -> polynomial M . s),
//! `memory_before` (array -> local region size), `total_memory`, `condition` (printed
//! `(c1, .., cn) < b`), `condition_vector`, `assumption3`, `solution_condition`,
//! `comparison_condition`, `comparisons`, `assumption2_violations`, `shifting_needed`,
//! `problem_objectives`, `lexical_heights`, `problem3_y`, `problem2_q`,
//! `problem4_flow`, `pivots`, `g0`, `region`, `storage` (the derived storages and how
//! they were derived), `instances` (per instance: trip counts, condition, flow
//! objective, memory, the backend's ILP optimum and agreement, execution reports),
//! `execution_failure` / `execution_not_run` when applicable.

pub mod algorithm;
pub mod check;
pub mod error;
pub mod exec;
pub mod ilp;
pub mod input;
pub mod simplex;
pub mod storage;
pub mod vecs;

pub use algorithm::{solve, FlowResult};
pub use error::{FlowError, Result};
pub use input::LoopSequence;
