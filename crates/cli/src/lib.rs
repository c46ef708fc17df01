//! # polyalloc-cli: the `polyalloc` command and the run/record library of the harness
//!
//! This crate is the user-facing end of polyalloc. Its binary, `polyalloc`, reads one
//! bench-suite-format file (see `bench-suite/README.md`), runs storage-allocation
//! methods on every solver backend asked for, and prints each mapping as the papers
//! print it (`A[(i - t) mod (2N - 1)]`), its size as a polynomial, and the statistics of
//! every ILP solved:
//!
//! ```text
//! polyalloc allocate FILE [--array A] [--method M|all] [--backend B|all] [--params N=9] [--json] [--dump-lp DIR]
//! polyalloc check FILE --array A --hyperplanes "[[-1,1]]" --moduli "2*N - 1" [--params N=9]
//! polyalloc list
//! ```
//!
//! The library half is what the `cargo xtask` harness (reproduce, bench, compare,
//! report) reuses, so the CLI and the harness produce the very same records:
//!
//! * [`methods`]: the registry of every allocation method compiled in (one place to add
//!   a method so that the CLI, the harness and the baseline test pick it up);
//! * [`run`]: input loading, backend/method selection, `--params`, and [`run::run_one`],
//!   which runs `polyalloc_alloc::allocate` (that **verifies** every mapping with the
//!   independent exact checker) and turns the outcome into a [`Record`];
//! * [`record`]: the stable JSON schema of one (example, array, method, backend) result;
//! * [`results`]: the results file (`results/local/latest.json`, `results/baseline.json`) with
//!   its metadata, written atomically;
//! * [`compare`]: old results against new ones: size changes, verification, solve-time
//!   ratios; the regression check behind `cargo xtask compare`;
//! * [`check`]: the exact checker on a user's own mapping (`polyalloc check`);
//! * [`CliError`]: typed errors, each with its documented exit code
//!   (0 ok, 1 invalid input, 2 solver failure, 3 verification failure).
//!
//! Dependencies: `polyalloc-suite` (reading files), `polyalloc-alloc` and the method
//! crates (`alloc-lefe`, `alloc-smo`), `polyalloc-solvers` (backends; the `highs` and
//! `cbc` features of this crate are forwarded to it).

pub mod check;
pub mod compare;
mod error;
pub mod record;
pub mod results;
pub mod run;

pub use error::{CliError, EXIT_INPUT, EXIT_OK, EXIT_SOLVER, EXIT_VERIFICATION};
pub use record::{IlpStat, Record, Status};

use polyalloc_alloc::MethodRegistry;

/// Every allocation method compiled into this build, in a fixed order. Later methods are
/// registered here once, and the CLI, `cargo xtask` and the tests pick them up.
pub fn methods() -> MethodRegistry {
    let mut r = MethodRegistry::new();
    r.register(Box::new(polyalloc_alloc_lefe::Lefe::default()));
    r.register(Box::new(polyalloc_alloc_smo::Smo::default()));
    r.register(Box::new(polyalloc_alloc_lattice::LatticeH1::default()));
    r.register(Box::new(polyalloc_alloc_lattice::LatticeH2::default()));
    r.register(Box::new(polyalloc_alloc_lattice::Lattice::default()));
    r
}
