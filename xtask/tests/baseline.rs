//! The reference results must not regress: reproduces the `smo-` examples on the
//! built-in backend and compares with `results/baseline.json` (records of backends not
//! compiled into this build, or not run here, are left out). Fails when a mapping got
//! larger, stopped verifying or disappeared. Regenerate the baseline with
//! `cargo xtask --features highs,cbc reproduce --backend all` and `cargo xtask bless`
//! when a change is intended.

use xtask::compare::compare;
use xtask::results::ResultsFile;
use xtask::{reproduce, results_dir, scope_to};

#[test]
fn smo_examples_do_not_regress_against_baseline() {
    let baseline = ResultsFile::load(&results_dir().join("baseline.json")).expect("results/baseline.json");
    let opts = reproduce::Options { only: vec!["smo-*".into()], ..reproduce::Options::default() };
    let new = reproduce::run(&opts, None).expect("reproduce runs");
    assert!(!new.records.is_empty());
    let old = scope_to(&baseline.records, &new.records);
    assert!(!old.is_empty(), "the baseline has records for the smo- examples on {}", polyalloc_solvers::DEFAULT_BACKEND);
    let report = compare(&old, &new.records);
    assert!(report.regressions().is_empty(), "regressions against results/baseline.json:\n{}", report.to_markdown());
    // Every SMO Table I result that reproduces today is in the baseline as verified.
    assert!(new.records.iter().all(|r| r.verified), "{:?}", new.records.iter().filter(|r| !r.verified).collect::<Vec<_>>());
}
