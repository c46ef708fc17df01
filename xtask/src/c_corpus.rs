//! `cargo xtask c-corpus`: `polyalloc fold` on every C kernel of `bench-suite/c/` with
//! every selected backend: per kernel the arrays folded (bytes before and after, the
//! mapping and the method that found it, or why nothing folds), the peak memory and
//! wall time of the original and folded programs (medians of alternating runs), and
//! whether their outputs are identical. Replaces the `c_corpus` records of the kernels
//! and backends it ran in `results/local/latest.json` (untracked); `cargo xtask report`
//! puts the table and two plots into REPORT.md.
//!
//! Needs clang-19 and opt-19 with Polly; without them it says so and does nothing
//! (the main job, which folds a quick subset, too).

use crate::md::human_bytes;
use crate::results::{CArray, CRecord, ResultsFile};
use crate::svg::{hbar_chart, Bar, Group};
use crate::XtaskError;
use polyalloc_fold::{fold, FoldOptions, Role, Toolchain, Verdict};
use std::path::{Path, PathBuf};

/// The kernels the main job folds when clang and Polly are present: an intermediate
/// folded into a new array, a caller's table folded in place, nothing to fold.
pub const QUICK: [&str; 3] = ["blur-fused", "jacobi-1d-inplace-rows", "matmul"];

/// The corpus directory.
pub fn corpus_dir() -> PathBuf {
    crate::suite_dir().join("c")
}

/// The kernels of the corpus (file stems), sorted.
pub fn kernels(dir: &Path) -> Result<Vec<String>, XtaskError> {
    let rd = std::fs::read_dir(dir).map_err(|e| XtaskError::Input(format!("{}: {e}", dir.display())))?;
    let mut out: Vec<String> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().to_string()))
        .collect();
    out.sort();
    Ok(out)
}

/// Why the corpus cannot run here, if it cannot.
pub fn unavailable() -> Option<String> {
    Toolchain::find(None, None).err().map(|e| e.to_string())
}

/// Folds `kernel` with `backend` and `method`, `runs` alternating runs each.
pub fn one(kernel: &str, backend: &str, method: &str, runs: usize) -> CRecord {
    let start = std::time::Instant::now();
    let opts = FoldOptions { backend: backend.into(), method: method.into(), runs, ..FoldOptions::default() };
    let path = corpus_dir().join(format!("{kernel}.c"));
    let mut rec = CRecord {
        kernel: kernel.into(),
        backend: backend.into(),
        method: method.into(),
        verdict: None,
        error: None,
        arrays: Vec::new(),
        original: None,
        folded: None,
        identical: None,
        fold_seconds: 0.0,
    };
    match fold(&path, &opts) {
        Err(e) => rec.error = Some(e.to_string()),
        Ok(r) => {
            for s in r.scops.iter().filter(|s| s.function != "main") {
                for a in s.arrays.iter().filter(|a| a.role != Role::ReadOnly) {
                    rec.arrays.push(CArray { function: s.function.clone(), report: a.clone() });
                }
            }
            if let Some(c) = &r.run {
                rec.original = Some(c.original.clone());
                rec.folded = Some(c.folded.clone());
                rec.identical = Some(c.identical);
            }
            rec.verdict = Some(r.verdict);
        }
    }
    rec.fold_seconds = start.elapsed().as_secs_f64();
    rec
}

fn kb(k: u64) -> String {
    if k >= 10 * 1024 {
        format!("{:.1} MB", k as f64 / 1024.0)
    } else {
        format!("{k} kB")
    }
}

/// The tables: one row per kernel and backend, then the arrays.
pub fn markdown(records: &[CRecord]) -> String {
    let mut t = crate::md::Table::new(&[
        "kernel",
        "backend",
        "verdict",
        "arrays folded",
        "bytes before -> after",
        "peak RSS original -> folded",
        "time original -> folded (ratio)",
        "outputs",
    ]);
    for r in records {
        let (b, a) = r.bytes();
        let folded = r.arrays.iter().filter(|x| x.report.folded.is_some()).count();
        let mem = match (&r.original, &r.folded) {
            (Some(o), Some(f)) => {
                format!("{} -> {} ({:.2}x)", kb(o.peak_rss_kb), kb(f.peak_rss_kb), f.peak_rss_kb as f64 / o.peak_rss_kb.max(1) as f64)
            }
            _ => "-".into(),
        };
        let time = match (&r.original, &r.folded) {
            (Some(o), Some(f)) => format!("{:.1} -> {:.1} ms ({:.2}x)", o.wall_ms, f.wall_ms, f.wall_ms / o.wall_ms.max(1e-9)),
            _ => "-".into(),
        };
        let verdict = match (&r.verdict, &r.error) {
            (Some(Verdict::Refused { stage, why }), _) => format!("refused ({stage}: {})", why.lines().next().unwrap_or("")),
            (_, Some(e)) => format!("error ({})", e.lines().next().unwrap_or("")),
            _ => r.verdict_word().to_string(),
        };
        let outputs = match r.identical {
            Some(true) => "identical",
            Some(false) => "DIFFERENT",
            None => "-",
        };
        t.row(vec![
            r.kernel.clone(),
            r.backend.clone(),
            verdict.replace('|', "\\|"),
            format!("{folded} of {}", r.arrays.len()),
            if folded > 0 { format!("{} -> {}", human_bytes(b), human_bytes(a)) } else { "-".into() },
            mem,
            time,
            outputs.to_string(),
        ]);
    }
    let mut s = t.render();
    s.push_str("\nPer array (first backend of each kernel):\n\n");
    let mut per_array = crate::md::Table::new(&["kernel", "array", "role", "bytes", "folded to", "mapping (method)", "max-live", "or why not"]);
    let mut seen = std::collections::BTreeSet::new();
    for r in records {
        if !seen.insert(r.kernel.clone()) {
            continue;
        }
        for a in &r.arrays {
            let a = &a.report;
            let f = a.folded.as_ref();
            let role = match a.role {
                Role::Scratch => "scratch",
                Role::Narrowed => "narrowed",
                Role::LiveOut => "live-out",
                Role::ReadOnly => "read-only",
            };
            per_array.row(vec![
                r.kernel.clone(),
                format!("`{}`", a.array),
                role.to_string(),
                human_bytes(a.original_bytes),
                f.map(|f| human_bytes(f.bytes)).unwrap_or_else(|| "-".into()),
                f.map(|f| format!("`{}` ({})", f.mapping, f.method)).unwrap_or_else(|| "-".into()),
                a.max_live.map(|m| m.to_string()).unwrap_or_else(|| "-".into()),
                a.nothing_to_fold.as_deref().unwrap_or("").replace('|', "\\|"),
            ]);
        }
    }
    s.push_str(&per_array.render());
    s
}

/// The first record of each kernel (the first backend run).
fn firsts(records: &[CRecord]) -> Vec<&CRecord> {
    let mut seen = std::collections::BTreeSet::new();
    records.iter().filter(|r| seen.insert(r.kernel.clone())).collect()
}

/// Bytes of the folded arrays before and after, per kernel that folds.
pub fn bytes_svg(records: &[CRecord]) -> String {
    let series = vec!["original".to_string(), "folded".to_string()];
    let groups: Vec<Group> = firsts(records)
        .into_iter()
        .filter(|r| r.bytes().0 > 0)
        .map(|r| {
            let (b, a) = r.bytes();
            Group {
                label: r.kernel.clone(),
                bars: vec![
                    Bar { series: "original".into(), value: b.max(1) as f64, marker: None },
                    Bar { series: "folded".into(), value: a.max(1) as f64, marker: None },
                ],
            }
        })
        .collect();
    hbar_chart("C corpus: bytes of the folded arrays", "bytes (log scale)", &groups, &series, None)
}

/// Folded / original: peak memory and wall time, per kernel that ran.
pub fn ratio_svg(records: &[CRecord]) -> String {
    let series = vec!["peak RSS folded/original".to_string(), "time folded/original".to_string()];
    let groups: Vec<Group> = firsts(records)
        .into_iter()
        .filter_map(|r| {
            let (o, f) = (r.original.as_ref()?, r.folded.as_ref()?);
            Some(Group {
                label: r.kernel.clone(),
                bars: vec![
                    Bar { series: series[0].clone(), value: (f.peak_rss_kb as f64 / o.peak_rss_kb.max(1) as f64).max(1e-3), marker: Some(1.0) },
                    Bar { series: series[1].clone(), value: (f.wall_ms / o.wall_ms.max(1e-9)).max(1e-3), marker: Some(1.0) },
                ],
            })
        })
        .collect();
    hbar_chart(
        "C corpus: folded / original (below 1: the folded program is smaller, faster)",
        "ratio (log scale)",
        &groups,
        &series,
        Some("1 (no change)"),
    )
}

/// Replaces the records of `file` of the (kernel, backend) pairs of `records` by them.
pub fn merge(file: &mut ResultsFile, records: Vec<CRecord>) {
    file.c_corpus.retain(|r| !records.iter().any(|n| n.kernel == r.kernel && n.backend == r.backend));
    file.c_corpus.extend(records);
    // Kernels in name order, the built-in backend first (the report's per-array table
    // and plots show it).
    let key = |r: &CRecord| (r.kernel.clone(), r.backend != polyalloc::DEFAULT_BACKEND, r.backend.clone());
    file.c_corpus.sort_by_key(key);
}
