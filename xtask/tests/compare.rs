//! `cargo xtask compare` on small results files: a grown size or a lost verification
//! fails (exit 3), an unchanged or smaller one passes.

use polyalloc::{Record, Status};
use std::path::{Path, PathBuf};
use std::process::Command;
use xtask::results::ResultsFile;

fn record(example: &str, size: &str, verified: bool, solve_ms: f64) -> Record {
    let mut r = Record::empty(example, "A", "smo", "microlp");
    r.status = if verified { Status::Ok } else { Status::Invalid };
    r.verified = verified;
    r.size = Some(size.to_string());
    r.params = vec!["N".into()];
    r.solve_ms = solve_ms;
    r
}

fn file(dir: &Path, name: &str, records: Vec<Record>) -> PathBuf {
    let mut f = ResultsFile::new("test", dir);
    f.records = records;
    let p = dir.join(name);
    f.save(&p).unwrap();
    p
}

fn compare(old: &Path, new: &Path, extra: &[&str]) -> (Option<i32>, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_xtask")).arg("compare").arg(old).arg(new).args(extra).output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr))
}

#[test]
fn compare_exit_codes() {
    let dir = std::env::temp_dir().join(format!("xtask-compare-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let old = file(&dir, "old.json", vec![record("a", "2*N - 1", true, 2.0), record("b", "N^2", true, 1.0)]);

    let same = file(&dir, "same.json", vec![record("a", "2*N - 1", true, 4.0), record("b", "N^2", true, 1.0)]);
    let (code, out) = compare(&old, &same, &[]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("2.00"), "solve-time ratio shown: {out}");

    let better = file(&dir, "better.json", vec![record("a", "2*N - 1", true, 2.0), record("b", "2*N", true, 1.0)]);
    assert_eq!(compare(&old, &better, &[]).0, Some(0));

    let grown = file(&dir, "grown.json", vec![record("a", "2*N", true, 2.0), record("b", "N^2", true, 1.0)]);
    let (code, out) = compare(&old, &grown, &[]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("LARGER"), "{out}");

    let unverified = file(&dir, "unverified.json", vec![record("a", "2*N - 1", false, 2.0), record("b", "N^2", true, 1.0)]);
    let (code, out) = compare(&old, &unverified, &[]);
    assert_eq!(code, Some(3), "{out}");
    assert!(out.contains("STOPPED VERIFYING"), "{out}");

    // A partial run: missing records fail unless --partial scopes the comparison.
    let partial = file(&dir, "partial.json", vec![record("a", "2*N - 1", true, 2.0)]);
    assert_eq!(compare(&old, &partial, &[]).0, Some(3));
    assert_eq!(compare(&old, &partial, &["--partial"]).0, Some(0));

    // Malformed input is exit 1 with file:line:column.
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\n  \"schema\": 1,\n  oops\n}").unwrap();
    let (code, out) = compare(&old, &bad, &[]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("bad.json:3:"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `best` in a run of every method is derived from that run's records (the smallest
/// verified size at the instance, ties to the earlier method), and a larger `best` in
/// the new results is a regression like any larger mapping.
#[test]
fn best_is_derived_from_the_run_and_a_larger_best_is_a_regression() {
    let at: std::collections::BTreeMap<String, i64> = [("N".to_string(), 8)].into();
    let rec = |method: &str, size: &str, size_at: i128, verified: bool| {
        let mut r = record("ex", size, verified, 1.0);
        r.method = method.into();
        r.mapping = Some(format!("A[i mod ({size})]"));
        r.size_at = Some(size_at);
        r.size_params = Some(at.clone());
        r.max_live = Some(15);
        r.max_live_source = Some("simulation".into());
        r
    };
    let old_run =
        vec![rec("lefe", "N^2", 64, true), rec("smo", "2*N - 1", 15, true), rec("lattice", "2*N - 1", 15, true), rec("lattice-h1", "N", 8, false)];
    let best = xtask::reproduce::derived_best(&old_run);
    assert_eq!(best.len(), 1);
    assert_eq!((best[0].method.as_str(), best[0].size.as_deref(), best[0].max_live), ("best", Some("2*N - 1"), Some(15)));
    assert_eq!(best[0].details.get("winner").and_then(|v| v.as_str()), Some("smo"), "ties keep the earlier method; unverified ones never win");
    // The new run loses SMO's mapping: `best` grows to lefe's, a regression.
    let new_run = vec![rec("lefe", "N^2", 64, true), rec("smo", "2*N - 1", 15, false)];
    let new_best = xtask::reproduce::derived_best(&new_run);
    assert_eq!(new_best[0].size.as_deref(), Some("N^2"));
    let report = xtask::compare::compare(&best, &new_best);
    assert_eq!(report.rows[0].change, xtask::compare::Change::Larger);
    assert_eq!(report.regressions().len(), 1);
    // No verified candidate: a method error, not a mapping.
    let none = xtask::reproduce::derived_best(&[rec("smo", "N", 8, false)]);
    assert_eq!((none[0].status, none[0].mapping.as_deref()), (Status::MethodError, None));
}
