//! # polyalloc-solvers: the backends compiled into this build
//!
//! [`registry`] returns a [`Registry`] with every ILP backend this build
//! has: `microlp` (always, the default), `highs` (cargo feature `highs`) and `cbc`
//! (cargo feature `cbc`). The CLI, the `cargo xtask` harness and the cross-backend
//! conformance tests all pick backends through it, so enabling a feature is the only
//! step needed to bring a backend into every comparison.

pub mod conformance;

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
    r
}

/// Names of the compiled-in backends.
pub fn compiled_in() -> Vec<&'static str> {
    registry().names()
}
