//! # polyalloc-solvers: the backends compiled into this build
//!
//! [`registry`] returns a [`Registry`] with every ILP backend this build
//! has: `microlp` (always, the default), `highs` (cargo feature `highs`), `cbc`
//! (cargo feature `cbc`), and the solvers good_lp drives, `goodlp-<solver>` (cargo
//! features `goodlp-microlp`, `goodlp-highs`, `goodlp-cbc`, `goodlp-lpsolve`,
//! `goodlp-glpk`; `goodlp` for all of them). The CLI, the `cargo xtask` harness and the cross-backend
//! conformance tests all pick backends through it, so enabling a feature is the only
//! step needed to bring a backend into every comparison.

pub mod conformance;
mod goodlp;

pub use polyalloc_ilp::{Registry, RegistryError, Solver, UnknownBackend};

/// Name of the embedded default backend.
pub const DEFAULT_BACKEND: &str = "microlp";

/// The registry of compiled-in backends; the default (`microlp`) comes first.
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.register("microlp", "microlp (pure Rust, embedded default)", || {
        Ok(Box::new(polyalloc_backend_microlp::MicrolpSolver::new()))
    });
    #[cfg(feature = "highs")]
    r.register("highs", "HiGHS (highs crate, built from source)", || {
        Ok(Box::new(polyalloc_backend_highs::HighsSolver::new()))
    });
    #[cfg(feature = "cbc")]
    r.register("cbc", "COIN-OR CBC (coin_cbc, system libCbcSolver)", || {
        Ok(Box::new(polyalloc_backend_cbc::CbcSolver::new()))
    });
    goodlp::register(&mut r);
    r
}

/// Names of the compiled-in backends.
pub fn compiled_in() -> Vec<&'static str> {
    registry().names()
}
