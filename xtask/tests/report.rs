//! The committed report must be what `cargo xtask report` generates from the committed
//! results: `results/REPORT.md` and `results/plots/*.svg` are regenerated in memory from
//! `results/latest.json` and `results/bench.json` and compared byte for byte (the check
//! behind `cargo xtask report --check`). After a new `cargo xtask reproduce` or `bench`,
//! run `cargo xtask report` and commit the three together.

use polyalloc_cli::results::ResultsFile;
use xtask::{report, results_dir};

#[test]
fn committed_report_matches_committed_results() {
    let dir = results_dir();
    let latest = ResultsFile::load(&dir.join("latest.json")).expect("results/latest.json");
    let bench_path = dir.join("bench.json");
    let bench = bench_path.exists().then(|| ResultsFile::load(&bench_path).expect("results/bench.json"));
    let stale = report::check(&dir, &latest, bench.as_ref());
    assert!(stale.is_empty(), "out of date (run `cargo xtask report`): {stale:?}");
}

#[test]
fn check_detects_a_drifted_report() {
    let dir = std::env::temp_dir().join(format!("polyalloc-report-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("plots")).expect("temp dir");
    let latest = ResultsFile::load(&results_dir().join("latest.json")).expect("results/latest.json");
    // Nothing written yet: every artefact is stale.
    assert_eq!(report::check(&dir, &latest, None).len(), 3);
    report::write(&dir, &latest, None).expect("write");
    assert!(report::check(&dir, &latest, None).is_empty());
    // A hand edit of the report is drift.
    let md = dir.join("REPORT.md");
    let mut text = std::fs::read_to_string(&md).expect("read");
    text.push_str("\nhand edit\n");
    std::fs::write(&md, text).expect("write");
    assert_eq!(report::check(&dir, &latest, None), vec![md]);
    let _ = std::fs::remove_dir_all(&dir);
}
