//! # polyalloc-backend-cbc: COIN-OR CBC behind polyalloc's `Solver` trait
//!
//! With the cargo feature `cbc`, `CbcSolver` solves polyalloc models with CBC through
//! `coin_cbc` (system library: apt `coinor-libcbc-dev`). Without the feature the crate is
//! empty, so `cargo test --workspace` needs no system package.
//!
//! Rules, each a measured trap:
//! * libcbc is not thread-safe: concurrent solves gave wrong answers (29-37 of 160 in a
//!   measurement). `coin_cbc`'s `singlethread-cbc` feature (on) takes a global lock,
//!   and this backend holds its own process-wide mutex around every solve as well.
//! * `sec` is CPU time unless `timeMode` is `elapsed`; polyalloc's time limits are
//!   wall-clock, so `timeMode elapsed` is always set.
//! * The objective sense is always set (CBC's default sense ignores the objective), the
//!   log level is 0 unless `verbose`, and `ratioGap` is set to the requested gap (0).
//! * An unbounded pure LP is reported by CBC through `is_continuous_unbounded` (good_lp
//!   maps it to infeasible); a MIP whose relaxation is unbounded is re-checked by
//!   solving the continuous relaxation with a zero objective: feasible means unbounded.

#[cfg(feature = "cbc")]
mod imp;
#[cfg(feature = "cbc")]
pub use imp::{CbcSolver, CBC_LOCK};
