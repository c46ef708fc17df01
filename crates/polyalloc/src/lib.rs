//! # polyalloc: intra-array storage optimisation in the polyhedral model, one front door
//!
//! Compilers for stencils, image pipelines and tiled loops keep whole arrays in memory
//! although each value lives only briefly. A *modular mapping* `A[i] -> A'[(M i) mod e]`
//! folds an array onto few cells; it is valid when no two simultaneously live values
//! (a pair of the array's *conflict set*) share a cell. This crate is how a Rust user,
//! the `polyalloc` command, the `cargo xtask` harness and the kernels all reach the
//! methods of the five papers polyalloc implements:
//!
//! * [`registry`]: every method, by name (`lefe`, `smo`, `smo-sym`, `lattice-h1`,
//!   `lattice-h2`, `lattice`, `lattice-exact`, `smo-inter`, `ov`, `aov`, `uov`,
//!   `schedule`, `flow`, `best`; `polyalloc list` prints them with a summary), each a
//!   [`Method`] over one typed [`Input`] (from a file, or a conflict set built in code:
//!   [`Input::from_problem`]);
//! * [`load`]: an example from a bench-suite file or an input of the SMO tool
//!   (`*.smo.input`) (or build a [`Example`] in code and wrap
//!   it in an [`Input`]);
//! * [`backend`]: a solver backend (`microlp`, built in; `highs`, `cbc` with the cargo
//!   features of the same names);
//! * [`run()`], the one door: runs a method on one target and **verifies** its answer
//!   before returning it: every conflict set the mapping must respect is checked by the exact checker of
//!   `polyalloc-formulation` (which shares no code with any method), a storage shared by
//!   several arrays (`smo-inter`) by the shared-storage checker, and an answer checked by
//!   running the program must compute the original values. A mapping that
//!   fails is a [`Failure`], never a result. [`run_record`] gives the same as the JSON
//!   [`Record`] the CLI prints. A run is bounded by its time budget
//!   ([`RunOptions::time_limit`]) in every phase ([`budget`], re-exported from
//!   `polyalloc-ilp`), and files are written atomically ([`output`]);
//! * `fuzz` (cargo feature `fuzz`, for `cargo xtask fuzz` and the tests): the fuzzing harness: random conflict sets and programs, every
//!   applicable method through [`run()`], every mapping checked again by a brute-force
//!   oracle that shares no code with the checker or the methods.
//!
//! ```
//! use polyalloc::{backend, load, registry, run, RunOptions};
//!
//! // SMO (Bhaskaracharya et al. 2016, Sec. 3) on the produce-consume example of Bhaskaracharya et al. 2016, Fig. 1.
//! let input = load(&polyalloc::suite_dir().join("smo-produce-consume.json"))?;
//! let smo = registry().get("smo").expect("registered");
//! let microlp = backend("microlp")?;
//! let answer = run(&input, smo, "A", &microlp, RunOptions::default())?;
//! let mapping = answer.outcome.mapping.as_ref().expect("SMO answers with a mapping");
//! assert_eq!(mapping.to_string(), "A[(i - t) mod (2N - 1)]");
//! assert_eq!(answer.size.expect("folded").to_string(), "2*N - 1");
//! assert_eq!(answer.verification.label(), "proven"); // for every N of the context
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Errors are typed: [`Error`] (with the documented exit codes 1 input, 2 solver or
//! method, 3 verification) for loading and selection, [`RunError`] with its
//! [`Failure`] for a run. Layers below: `polyalloc-ilp` and the backends (ILP model,
//! exact re-check of every solver answer), `polyalloc-formulation` (polyhedra, isl
//! notation, Farkas, the checker), `polyalloc-suite` (examples, programs, conflict
//! sets), `polyalloc-alloc` (the `Method` interface); one crate per paper's method.

pub mod best;
pub mod check;
mod error;
#[cfg(feature = "fuzz")]
pub mod fuzz;
pub mod limit;
pub mod plan;
pub mod record;
mod registry;
pub mod run;
pub mod setup;
pub mod verify;

pub use error::{Error, EXIT_INPUT, EXIT_OK, EXIT_SOLVER, EXIT_VERIFICATION};
pub use plan::Plan;
pub use polyalloc_alloc::{AllocError, Allocator, Input, Method, MethodError, Outcome, Problem, Refutation, Verification};
pub use polyalloc_ilp::{budget, output};
pub use polyalloc_solvers::DEFAULT_BACKEND;
pub use polyalloc_suite::jscop::JscopOptions;
pub use polyalloc_suite::{load_dir, Example, SuiteError};
pub use record::{Claim, IlpStat, Record, Status};
pub use registry::{registry, Registry};
pub use run::{run, run_record, Backend, Failure, RunError, RunOptions, Verified};

use std::path::{Path, PathBuf};

/// Loads an example from a bench-suite-format file, or from an input of the SMO tool when
/// its name ends with `.smo.input` (errors name the file and the line and column, or the
/// field).
pub fn load(path: &Path) -> Result<Input, Error> {
    Ok(Input::new(Example::load(path)?))
}

/// Creates a solver backend by registry name (`microlp`, `highs`, `cbc`; `default` is
/// the built-in one). An unknown or not compiled-in name is an input error that lists
/// the compiled-in backends.
pub fn backend(name: &str) -> Result<Backend, Error> {
    let mut b = run::backends(name)?;
    match (b.pop(), b.is_empty()) {
        (Some(one), true) => Ok(one),
        _ => Err(Error::Input(format!("`{name}`: name one backend"))),
    }
}

/// The backends compiled into this build, with one line each.
pub fn compiled_backends() -> Vec<(String, String)> {
    polyalloc_solvers::registry().describe().into_iter().map(|(n, d)| (n.to_string(), d.to_string())).collect()
}

/// The bench-suite directory of this source tree (the papers' examples).
pub fn suite_dir() -> PathBuf {
    polyalloc_suite::default_dir()
}
