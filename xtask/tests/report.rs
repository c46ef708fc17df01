//! The committed report must be what `cargo xtask report` generates from the committed
//! references: `results/REPORT.md` and `results/plots/*.svg` are regenerated in memory
//! from `results/baseline.json` and `results/bench.json` and compared byte for byte
//! (the check behind `cargo xtask report --check`). After `cargo xtask bless`, commit the
//! references and the report together.
//!
//! The main job must never touch them: `main_job_leaves_the_references_alone` runs the
//! main job's code path (`cargo xtask reproduce` with its default output) and then the
//! committed-report check, so the README's two commands work in either order.

use std::path::PathBuf;
use xtask::report::{self, Inputs};
use xtask::{reference_bench_path, reference_path, reproduce, results_dir};

#[test]
fn committed_report_matches_committed_results() {
    let inputs = Inputs::references().expect("results/baseline.json");
    let stale = report::check(&results_dir(), &inputs);
    assert!(stale.is_empty(), "out of date (run `cargo xtask report`): {stale:?}");
}

/// Every tracked file under `results/`, with its bytes.
fn references() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = results_dir();
    let mut paths = vec![reference_path(), reference_bench_path(), dir.join("REPORT.md")];
    for e in std::fs::read_dir(dir.join("plots")).expect("results/plots").flatten() {
        paths.push(e.path());
    }
    paths.sort();
    paths.into_iter().map(|p| (p.clone(), std::fs::read(&p).unwrap_or_default())).collect()
}

#[test]
fn main_job_leaves_the_references_alone() {
    let before = references();
    let opts = reproduce::Options { only: vec!["smo-produce-consume".into()], ..reproduce::Options::default() };
    let (results, path) = reproduce::main_job(&opts, None, None).expect("the main job runs");
    assert!(!results.records.is_empty());
    assert!(path.starts_with(xtask::local_dir()), "{} is not under results/local", path.display());
    assert!(path.exists());
    // results/local/ is ignored by git, so that this file is never committed by accident.
    let ignore = std::fs::read_to_string(xtask::workspace_root().join(".gitignore")).expect(".gitignore");
    assert!(ignore.lines().any(|l| l.trim() == "/results/local/"), ".gitignore lacks /results/local/");
    assert_eq!(before, references(), "the main job changed a committed reference");
    let stale = report::check(&results_dir(), &Inputs::references().expect("references"));
    assert!(stale.is_empty(), "after the main job: {stale:?}");
}

#[test]
fn check_detects_a_drifted_report() {
    let dir = std::env::temp_dir().join(format!("polyalloc-report-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("plots")).expect("temp dir");
    let inputs = Inputs::load(reference_path(), None).expect("results/baseline.json");
    // Nothing written yet: every artefact is stale (the report, three plots, and the C
    // corpus's two plots when the results have a C corpus section).
    let expected = 4 + if inputs.results.c_corpus.is_empty() { 0 } else { 2 };
    assert_eq!(report::check(&dir, &inputs).len(), expected);
    report::write(&dir, &inputs).expect("write");
    assert!(report::check(&dir, &inputs).is_empty());
    // A hand edit of the report is drift.
    let md = dir.join("REPORT.md");
    let mut text = std::fs::read_to_string(&md).expect("read");
    text.push_str("\nhand edit\n");
    std::fs::write(&md, text).expect("write");
    assert_eq!(report::check(&dir, &inputs), vec![md]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bless_promotes_a_local_run_and_regenerates_the_report() {
    let root = std::env::temp_dir().join(format!("polyalloc-bless-{}", std::process::id()));
    let (from, refs) = (root.join("local"), root.join("refs"));
    std::fs::create_dir_all(&from).expect("temp dir");
    std::fs::create_dir_all(&refs).expect("temp dir");
    // The committed baseline plays the local run; an empty reference has no kernels.
    std::fs::copy(reference_path(), from.join("latest.json")).expect("copy");
    let written = xtask::bless::bless(&from, &refs, false).expect("bless");
    assert!(written.contains(&refs.join("baseline.json")) && written.contains(&refs.join("REPORT.md")));
    let json = |p: PathBuf| -> serde_json::Value { serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json") };
    assert!(json(refs.join("baseline.json")) == json(from.join("latest.json")), "the blessed reference differs from the run");
    let inputs = Inputs::load(refs.join("baseline.json"), Some(refs.join("bench.json"))).expect("load");
    assert!(report::check(&refs, &inputs).is_empty());
    // Nothing to bless: a clear input error.
    assert!(xtask::bless::bless(&root.join("nothing"), &refs, false).is_err());
    // A partial run (here the reference with one record dropped) would lose a record:
    // refused, nothing written; --force blesses it.
    let mut partial = xtask::results::ResultsFile::load(&from.join("latest.json")).expect("load");
    partial.records.pop();
    partial.save(&from.join("latest.json")).expect("save");
    let before = std::fs::read(refs.join("baseline.json")).expect("read");
    let e = xtask::bless::bless(&from, &refs, false).expect_err("a partial run is refused");
    assert!(e.to_string().contains("1 of the reference's records"), "{e}");
    assert_eq!(std::fs::read(refs.join("baseline.json")).expect("read"), before, "written despite the refusal");
    xtask::bless::bless(&from, &refs, true).expect("--force blesses");
    assert!(json(refs.join("baseline.json")) == json(from.join("latest.json")));
    let _ = std::fs::remove_dir_all(&root);
}
