//! # xtask: the polyalloc harness (`cargo xtask ...`)
//!
//! Runs the whole bench-suite the way a reader of the papers wants to see it, and keeps
//! track of mapping quality from version to version:
//!
//! * [`reproduce`]: every bench-suite example with every applicable method on the chosen
//!   backends; per paper a Markdown table side by side with the paper's table (paper
//!   mapping and the checker's verdict on it, polyalloc's mapping, sizes, match or
//!   differ); `results/local/latest.json` (untracked, see [`local_dir`]).
//! * [`mod@bench`]: solve time per example, method and backend over K runs (median, min,
//!   max); `results/bench.json`.
//! * [`compare`]: old results against new ones (size changes,
//!   verification, solve-time ratios), failing on a regression; [`scope_to`] restricts
//!   the old results to what a partial new run covers.
//! * [`c_corpus`]: `polyalloc fold` on the C kernels of `bench-suite/c/` (bytes, peak
//!   memory, time, identical outputs), the `c_corpus` section of the results file.
//! * [`fuzz_input`]: the `polyalloc` command run as a subprocess on hostile and
//!   malformed inputs, proving no crash, bounded memory and bounded time.
//! * [`report`]: `results/REPORT.md` with the tables and SVG plots ([`svg`]).
//!
//! Every record comes from `polyalloc::run_record`, the same code path as the
//! `polyalloc` command (the facade's one door, `polyalloc::run`, which verifies every
//! answer before returning it), and is stored in the CLI's JSON schema (`polyalloc::Record`).
//!
//! Exit codes of `cargo xtask`: 0 ok; 1 invalid input (arguments, unreadable or
//! malformed files); 2 a run could not be completed (a backend could not be created, a
//! results file could not be written); 3 a check failed (`compare` found a regression,
//! `reproduce --strict` found a paper result not reproduced).

pub mod bench;
pub mod bless;
pub mod c_corpus;
pub mod compare;
pub mod fuzz;
pub mod fuzz_input;
pub mod limit;
pub mod md;
pub mod process;
pub mod program_papers;
pub mod report;
pub mod reproduce;
pub mod results;
pub mod scale;
pub mod smo_tool;
pub mod svg;

use polyalloc::Record;
use std::collections::BTreeSet;
use std::path::PathBuf;

/// Success.
pub const EXIT_OK: i32 = 0;
/// Invalid input.
pub const EXIT_INPUT: i32 = 1;
/// A run could not be completed.
pub const EXIT_RUN: i32 = 2;
/// A check failed (regression, paper result not reproduced).
pub const EXIT_CHECK: i32 = 3;

/// The workspace root (the parent of this crate's directory).
pub fn workspace_root() -> PathBuf {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let root = here.parent().map(|p| p.to_path_buf()).unwrap_or(here);
    root.canonicalize().unwrap_or(root)
}

/// `results/` of the workspace: the committed references ([`reference_path`],
/// [`reference_bench_path`], `REPORT.md` and its plots) and, below [`local_dir`], the
/// untracked outputs of runs.
pub fn results_dir() -> PathBuf {
    workspace_root().join("results")
}

/// Where runs write by default: `results/local/`, ignored by git. `reproduce` and
/// `kernels` write `latest.json` there and `bench` writes `bench.json`, so that running
/// the main job never changes a tracked file (the tests compare against the committed
/// references). `cargo xtask bless` promotes a local run to the references.
pub fn local_dir() -> PathBuf {
    results_dir().join("local")
}

/// The committed reference results: `results/baseline.json` (every example, method and
/// backend, with the kernels section). `compare` and the baseline test read it; the
/// report is generated from it. Changed only by `cargo xtask bless` (or an explicit
/// `--out`).
pub fn reference_path() -> PathBuf {
    results_dir().join("baseline.json")
}

/// The committed benchmark reference: `results/bench.json`.
pub fn reference_bench_path() -> PathBuf {
    results_dir().join("bench.json")
}

/// The bench-suite directory.
pub fn suite_dir() -> PathBuf {
    workspace_root().join("bench-suite")
}

/// An xtask error and its exit code.
#[derive(Debug, thiserror::Error)]
pub enum XtaskError {
    #[error(transparent)]
    Cli(#[from] polyalloc::Error),
    #[error("{0}")]
    Input(String),
}

impl XtaskError {
    /// The exit code ([`EXIT_INPUT`] or [`EXIT_RUN`]).
    pub fn exit_code(&self) -> i32 {
        match self {
            XtaskError::Cli(polyalloc::Error::Solver(_)) | XtaskError::Cli(polyalloc::Error::Verification(_)) => EXIT_RUN,
            XtaskError::Cli(polyalloc::Error::Io { .. }) => EXIT_RUN,
            _ => EXIT_INPUT,
        }
    }
}

/// Matches an example id against `--only` patterns: exact ids, or prefixes ending with
/// `*` (`smo-*`). An empty list matches everything.
pub fn selected(id: &str, only: &[String]) -> bool {
    only.is_empty()
        || only.iter().any(|p| match p.strip_suffix('*') {
            Some(prefix) => id.starts_with(prefix),
            None => id == p,
        })
}

/// Splits `a,b` option values.
pub fn split_list(values: &[String]) -> Vec<String> {
    values.iter().flat_map(|v| v.split(',')).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect()
}

/// The old records a partial new run can be compared with: those whose example, method
/// and backend all occur in the new records (a run with `--only`, `--method` or fewer
/// backends then reports no spurious "missing" record), and whose backend is compiled
/// into this build.
pub fn scope_to(old: &[Record], new: &[Record]) -> Vec<Record> {
    let examples: BTreeSet<&str> = new.iter().map(|r| r.example.as_str()).collect();
    let methods: BTreeSet<&str> = new.iter().map(|r| r.method.as_str()).collect();
    let backends: BTreeSet<&str> = new.iter().map(|r| r.backend.as_str()).collect();
    let compiled = polyalloc_solvers::compiled_in();
    old.iter()
        .filter(|r| {
            examples.contains(r.example.as_str())
                && methods.contains(r.method.as_str())
                && backends.contains(r.backend.as_str())
                && compiled.contains(&r.backend.as_str())
        })
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_patterns() {
        assert!(selected("smo-blur-tiled", &[]));
        assert!(selected("smo-blur-tiled", &["smo-*".into()]));
        assert!(!selected("lattice-blur-tiled", &["smo-*".into()]));
        assert!(selected("lattice-blur-tiled", &["smo-*".into(), "lattice-blur-tiled".into()]));
        assert!(!selected("smo-blur-tiled-x", &["smo-blur-tiled".into()]));
    }
}
