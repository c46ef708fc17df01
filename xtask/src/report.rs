//! `cargo xtask report`: `results/REPORT.md` with the paper tables of the reference
//! results `results/baseline.json`, the bench table of `results/bench.json` (when
//! present), the SMO tool's inputs run as whole processes beside the tool's own figures
//! (the `whole_process` section of `results/bench.json`, when present), the distance of
//! every mapping to max-live ([`crate::limit`]) and three SVG plots:
//! `results/plots/sizes.svg` (mapping size per method at each example's largest
//! instance, with the paper's size as a marker), `results/plots/max-live.svg` (size /
//! max-live per method) and `results/plots/solve-time.svg` (solve time per backend: the
//! bench median when available, else the reproduce run's time).

use crate::md::{human_bytes, Table};
use crate::results::{write_atomic, ResultsFile};
use crate::svg::{hbar_chart, Bar, Group};
use crate::XtaskError;
use polyalloc::Status;
use polyalloc_formulation::Polynomial;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// What a report is made from: a results file (reproduce, with its kernels section) and
/// optionally a bench file, with the names the report cites them by.
pub struct Inputs {
    pub results: ResultsFile,
    /// The results file's path as the report names it (relative to the workspace).
    pub results_name: String,
    pub bench: Option<(ResultsFile, String)>,
}

impl Inputs {
    /// Loads `results` and, when it exists, `bench`.
    pub fn load(results: PathBuf, bench: Option<PathBuf>) -> Result<Inputs, XtaskError> {
        if !results.exists() {
            return Err(XtaskError::Input(format!("{}: not found; run `cargo xtask reproduce` first", results.display())));
        }
        let bench = match bench.filter(|b| b.exists()) {
            Some(b) => Some((ResultsFile::load(&b)?, display_name(&b))),
            None => None,
        };
        Ok(Inputs { results: ResultsFile::load(&results)?, results_name: display_name(&results), bench })
    }

    /// The committed references: `results/baseline.json` and `results/bench.json`.
    pub fn references() -> Result<Inputs, XtaskError> {
        Inputs::load(crate::reference_path(), Some(crate::reference_bench_path()))
    }

    fn bench(&self) -> Option<&ResultsFile> {
        self.bench.as_ref().map(|(b, _)| b)
    }
}

/// A path relative to the workspace root when it is inside it (for the report's text,
/// so that it does not depend on where the workspace is checked out).
fn display_name(p: &Path) -> String {
    let abs = p.canonicalize().unwrap_or_else(|_| p.to_path_buf());
    abs.strip_prefix(crate::workspace_root()).map(|r| r.display().to_string()).unwrap_or_else(|_| p.display().to_string())
}

/// The plot of sizes per method (first backend of the run), with paper markers.
pub fn sizes_svg(latest: &ResultsFile) -> String {
    let backend = latest.records.first().map(|r| r.backend.clone()).unwrap_or_default();
    let mut series: Vec<String> = Vec::new();
    let mut groups: BTreeMap<(String, String), Vec<Bar>> = BTreeMap::new();
    for r in latest.records.iter().filter(|r| r.backend == backend && r.status == Status::Ok) {
        let Some(v) = r.size_at else { continue };
        if !series.contains(&r.method) {
            series.push(r.method.clone());
        }
        // The paper's size for this method at the same parameter values.
        let marker = latest
            .paper
            .iter()
            .find(|p| p.example == r.example && p.array == r.array && p.method == r.method && p.paper_hyperplanes.is_some())
            .and_then(|p| p.paper_size.as_deref())
            .and_then(|s| Polynomial::parse(s).ok())
            .and_then(|p| {
                let vals: Vec<(&str, i64)> = r.size_params.iter().flat_map(|m| m.iter().map(|(k, v)| (k.as_str(), *v))).collect();
                p.eval(&vals).ok()
            })
            .map(|v| v as f64);
        groups.entry((r.example.clone(), r.array.clone())).or_default().push(Bar { series: r.method.clone(), value: v as f64, marker });
    }
    let groups: Vec<Group> = groups.into_iter().map(|((ex, a), bars)| Group { label: format!("{ex} {a}"), bars }).collect();
    hbar_chart(&format!("Mapping size per method at the largest instance ({backend})"), "cells (log scale)", &groups, &series, Some("paper"))
}

/// The plot of solve time per backend.
pub fn time_svg(latest: &ResultsFile, bench: Option<&ResultsFile>) -> String {
    let mut series: Vec<String> = Vec::new();
    let mut groups: BTreeMap<(String, String, String), Vec<Bar>> = BTreeMap::new();
    let from_bench = bench.is_some_and(|b| !b.bench.is_empty());
    // The backends' solve calls alone (no model build, set-up, check) where the bench
    // has them: a comparison of solvers, not of their start-up.
    let solver_only = bench.is_some_and(|b| b.bench.iter().any(|r| r.solver_ms.is_some()));
    if let Some(b) = bench.filter(|_| from_bench) {
        for r in &b.bench {
            let measure = if solver_only { &r.solver_ms } else { &r.solve_ms };
            let Some(s) = measure else { continue };
            if !series.contains(&r.backend) {
                series.push(r.backend.clone());
            }
            groups.entry((r.example.clone(), r.array.clone(), r.method.clone())).or_default().push(Bar {
                series: r.backend.clone(),
                value: s.median.max(1e-3),
                marker: None,
            });
        }
    } else {
        for r in latest.records.iter().filter(|r| r.status == Status::Ok) {
            if !series.contains(&r.backend) {
                series.push(r.backend.clone());
            }
            groups.entry((r.example.clone(), r.array.clone(), r.method.clone())).or_default().push(Bar {
                series: r.backend.clone(),
                value: r.solve_ms.max(1e-3),
                marker: None,
            });
        }
    }
    let groups: Vec<Group> = groups.into_iter().map(|((ex, a, m), bars)| Group { label: format!("{ex} {a} {m}"), bars }).collect();
    hbar_chart(
        if solver_only {
            "ILP solve time per backend without model build and set-up (median over the bench runs)"
        } else if from_bench {
            "ILP solve time per backend (median over the bench runs)"
        } else {
            "ILP solve time per backend (one reproduce run)"
        },
        "milliseconds (log scale)",
        &groups,
        &series,
        None,
    )
}

/// The report's Markdown.
pub fn markdown(inputs: &Inputs) -> String {
    let (latest, bench) = (&inputs.results, inputs.bench());
    let mut s = String::new();
    s.push_str("# polyalloc results\n\n");
    let _ = write!(s, "Generated by `cargo xtask report` from `{}`", inputs.results_name);
    if let Some((_, name)) = &inputs.bench {
        let _ = write!(s, " and `{name}`");
    }
    s.push_str(". Do not edit: regenerate.\n\n");
    let m = &latest.machine;
    let _ = writeln!(
        s,
        "* run: `{}` at {} (revision `{}`)\n* machine: {} {}, {} CPUs{}; backends compiled in: {}\n",
        latest.command,
        latest.timestamp,
        latest.git_revision,
        m.os,
        m.arch,
        m.cpus,
        m.cpu_model.as_deref().map(|c| format!(" ({c})")).unwrap_or_default(),
        m.backends.join(", ")
    );
    s.push_str("## Summary\n\n");
    s.push_str(&crate::reproduce::summary(latest));
    s.push_str("\n## Sizes per method\n\n![Mapping sizes per method](plots/sizes.svg)\n\n");
    s.push_str("Bars: polyalloc's mapping size at each example's largest instance; black ticks: the paper's size for the same method.\n\n");
    s.push_str("## Distance to the limit: size / max-live\n\n![Size / max-live per method](plots/max-live.svg)\n\n");
    s.push_str(
        "Max-live: the largest number of values of the array live at one time at the instance `at` (the \
example's largest), by `simulation` of its program under its schedule or as the largest `clique` of the conflict \
graph for a file with only a conflict set (`polyalloc::limit`); no valid mapping has fewer cells. Each method's \
cell: its verified size at the same instance and, in brackets, size / max-live.\n\n",
    );
    s.push_str(&crate::limit::markdown(latest));
    s.push_str("\n## Solve time per backend\n\n![Solve time per backend](plots/solve-time.svg)\n\n");
    if let Some(b) = bench.filter(|b| !b.bench.is_empty()) {
        let _ = writeln!(s, "### Bench (`{}`, {})\n", b.command, b.timestamp);
        s.push_str(&crate::bench::markdown(b));
        s.push('\n');
        if !b.scale.is_empty() {
            s.push_str("\n![Scale suite: solve time](plots/scale-time.svg)\n\n![Scale suite: model size](plots/scale-size.svg)\n\n");
        }
    }
    if let Some((b, name)) = &inputs.bench {
        let whole = crate::bench::whole_process_markdown(b);
        if !whole.is_empty() {
            s.push_str("## The SMO tool's inputs as whole processes\n\n");
            let _ = writeln!(
                s,
                "From `{name}` (`{}`, {}): the command a user runs, timed as a whole process beside the public SMO tool's own figures. \
(The \"Against reference tools\" table times the method inside one process: not what a user waits for.)\n",
                b.command, b.timestamp
            );
            s.push_str(&whole);
            s.push('\n');
        }
    }
    s.push_str("## Paper tables side by side\n\n");
    s.push_str(
        "`match`: same size (as polynomials) and the paper's hyperplanes up to sign with the same moduli; \
`same size`: the size only; `smaller`/`larger`: sizes compared at the largest instance. \
\"checker on paper mapping\" is the exact checker's verdict on the paper's own mapping.\n\n",
    );
    s.push_str(&crate::reproduce::markdown(latest));
    if !latest.kernels.is_empty() {
        s.push_str("\n## Kernels with folded storage (Bhaskaracharya, Bondhugula, Cohen 2016, Table II)\n\n");
        s.push_str(
            "`cargo xtask kernels`: each kernel with full storage (reference), the `lefe` baseline and the other \
methods' mappings, computed by the allocators, all run interleaved (each round runs every configuration \
once, the order rotated by one per round); `plain`: a remainder on every access; `tuned`: the Bhaskaracharya et al. 2016, Sec. 5 \
mitigations per storage row (`base`: subtract a base, no modulus; `mask`: power-of-two modulus; `padA->B`: \
modulus just below a power of two padded to it, proven valid by the exact checker; `condsubK`: K branch-free \
conditional subtractions; all-`base` rows collapse into one affine index; \
`urem`: unsigned 32-bit remainder); `stepped`: the tuned rows with the innermost loop strength-reduced, \
chosen per row from the mapping (`line`: `hoist` out of the loop, `affine` advance, `split` the loop at the \
wrap points, `step` with one compare per access; no division in the loop). Time: median over the repetitions (min-max in brackets); \
speedups are relative to full storage and to `lefe` in the same variant. Bytes: the folded array(s) only; \
peak RSS: the whole process during those runs (inputs included). Sizes: `crates/kernels/README.md`. \
Timings come from whatever machine ran the command; on a shared machine they are noisy: rows with the same \
mapping (e.g. `smo` and `lattice`) show the noise level.\n\n",
        );
        s.push_str(&kernels_markdown(&latest.kernels));
    }
    if !latest.c_corpus.is_empty() {
        s.push_str("\n## C programs folded through clang and Polly (bench-suite/c)\n\n");
        s.push_str(
            "`cargo xtask c-corpus`: `polyalloc fold` on each C kernel of `bench-suite/c` (written for this project \
from the kernels' definitions): Polly's SCoPs, every array allocated by `best` at the program's sizes and checked \
before Polly imports the folded SCoP, both programs compiled with `clang-19 -O2`, run alternately (medians), \
outputs compared byte for byte. Bytes: the folded arrays before and after (cells the folded program uses for \
them); peak RSS: the whole process (`ru_maxrss`); time: the whole process, wall clock. Timings come from \
whatever machine ran the command and are a few milliseconds: noisy.\n\n\
![C corpus: bytes](plots/c-bytes.svg)\n\n![C corpus: ratios](plots/c-ratio.svg)\n\n",
        );
        s.push_str(&crate::c_corpus::markdown(&latest.c_corpus));
    }
    s
}

/// Per kernel and method: the fastest folded variant (lowest median), with the kernel's
/// full-storage record. In record order (kernels, then methods, as measured).
pub fn best_folded(records: &[crate::results::KernelRecord]) -> Vec<(Option<&crate::results::KernelRecord>, &crate::results::KernelRecord)> {
    let mut out: Vec<(Option<&crate::results::KernelRecord>, &crate::results::KernelRecord)> = Vec::new();
    for r in records.iter().filter(|r| r.variant != "full") {
        match out.iter_mut().find(|(_, b)| b.kernel == r.kernel && b.method == r.method) {
            Some((_, b)) if r.kernel_ms < b.kernel_ms => *b = r,
            Some(_) => {}
            None => out.push((records.iter().find(|f| f.kernel == r.kernel && f.variant == "full"), r)),
        }
    }
    out
}

/// The paired ratio full / folded of one kernel: per round `k`, `full_k / folded_k`
/// (the two ran in the same interleaved round, so drifts of the machine cancel); its
/// median and a 95% bootstrap interval of that median (2000 resamples, fixed seed).
/// `None` with fewer than 5 paired rounds.
pub fn paired_ratio(full: &[f64], folded: &[f64]) -> Option<(f64, f64, f64)> {
    let r: Vec<f64> = full.iter().zip(folded).filter(|(a, b)| **a > 0.0 && **b > 0.0).map(|(a, b)| a / b).collect();
    if r.len() < 5 {
        return None;
    }
    let median = |v: &[f64]| crate::results::Spread::of(v).map_or(f64::NAN, |s| s.median);
    let mut rng = crate::scale::Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut meds: Vec<f64> = (0..2000)
        .map(|_| {
            let v: Vec<f64> = (0..r.len()).map(|_| r[rng.below(r.len() as u64) as usize]).collect();
            median(&v)
        })
        .collect();
    meds.sort_by(f64::total_cmp);
    let (lo, hi) = (meds[50], meds[1949]);
    Some((median(&r), lo, hi))
}

/// `faster`, `slower` (the whole 95% interval of the paired ratio on one side of 1) or
/// `same within noise`; `n/a` without enough paired rounds.
pub fn verdict(ci: Option<(f64, f64, f64)>) -> &'static str {
    match ci {
        Some((_, lo, _)) if lo > 1.0 => "faster",
        Some((_, _, hi)) if hi < 1.0 => "**slower**",
        Some(_) => "same within noise",
        None => "n/a",
    }
}

/// The kernels tables (`cargo xtask kernels`, REPORT.md): per kernel and method the
/// fastest folded variant against full storage, time and memory side by side; then
/// every measured configuration.
pub fn kernels_markdown(records: &[crate::results::KernelRecord]) -> String {
    let mut s = String::new();
    s.push_str(
        "Fastest folded variant per kernel and method (full/folded >= 1.00: folding costs no time). \
         `paired ratio`: the median over the rounds of full / folded measured in the same round, with its 95% \
         bootstrap interval; `verdict`: `faster` or `slower` when the whole interval is on one side of 1, else \
         `same within noise`; `the full-storage program`: the mapping folds nothing (e.g. `lefe` on a tile) and \
         its tuned layout puts every cell where full storage does, so it runs as the full-storage program and \
         is not measured twice (ratio 1 by construction); `(smo's program)`: the same layout plan and variant \
         as `smo`'s, measured once:\n\n",
    );
    let mut best = Table::new(&[
        "kernel",
        "size",
        "method",
        "full ms",
        "best folded ms",
        "variant",
        "scheme",
        "full/folded time",
        "paired ratio (95% CI)",
        "verdict",
        "full bytes",
        "folded bytes",
        "peak RSS full",
        "peak RSS folded",
        "output equal",
    ]);
    let rss = |r: Option<&crate::results::KernelRecord>| r.and_then(|r| r.peak_rss_bytes).map(human_bytes).unwrap_or_else(|| "n/a".into());
    for (full, b) in best_folded(records) {
        let all_equal = records.iter().filter(|r| r.kernel == b.kernel && r.method == b.method).all(|r| r.output_equal);
        let ci = full.and_then(|f| paired_ratio(&f.samples_ms, &b.samples_ms));
        let ci_text = ci.map(|(m, lo, hi)| format!("{m:.2}x ({lo:.2}-{hi:.2})")).unwrap_or_else(|| "n/a".into());
        let verdict_text = match b.runs_as.as_deref() {
            Some("full") => "the full-storage program".to_string(),
            Some(m) => format!("{} ({m}'s program)", verdict(ci)),
            None => verdict(ci).to_string(),
        };
        best.row(vec![
            b.kernel.clone(),
            b.size.to_string(),
            b.method.clone(),
            format!("{:.1}", b.reference_ms),
            format!("{:.1}", b.kernel_ms),
            b.variant.clone(),
            b.mitigation.clone(),
            format!("{:.2}x", b.reference_ms / b.kernel_ms),
            ci_text,
            verdict_text,
            human_bytes(b.reference_bytes),
            human_bytes(b.kernel_bytes),
            rss(full),
            rss(Some(b)),
            (if all_equal { "yes" } else { "**NO**" }).to_string(),
        ]);
    }
    s.push_str(&best.render());
    s.push_str("\nEvery configuration:\n\n");
    let mut every = Table::new(&[
        "kernel",
        "size",
        "method",
        "variant",
        "mitigation",
        "mapping",
        "ms (min-max)",
        "vs full",
        "vs lefe",
        "bytes",
        "full / folded bytes",
        "peak RSS",
        "output equal",
    ]);
    for r in records {
        let spread = r.kernel_ms_spread.as_ref().map(|x| format!(" ({:.1}-{:.1})", x.min, x.max)).unwrap_or_default();
        let vs_full = if r.variant == "full" { "1.00x".to_string() } else { format!("{:.2}x", r.reference_ms / r.kernel_ms) };
        let vs_lefe = match r.baseline_ms {
            Some(b) if r.variant != "full" => format!("{:.2}x", b / r.kernel_ms),
            _ => String::new(),
        };
        let ratio = if r.kernel_bytes > 0 { format!("{:.1}x", r.reference_bytes as f64 / r.kernel_bytes as f64) } else { String::new() };
        every.row(vec![
            r.kernel.clone(),
            r.size.to_string(),
            r.method.clone(),
            r.variant.clone(),
            r.mitigation.clone(),
            format!("`{}`", r.mapping),
            format!("{:.1}{spread}", r.kernel_ms),
            vs_full,
            vs_lefe,
            human_bytes(r.kernel_bytes),
            ratio,
            r.peak_rss_bytes.map(human_bytes).unwrap_or_else(|| "n/a".into()),
            (if r.output_equal { "yes" } else { "**NO**" }).to_string(),
        ]);
    }
    s.push_str(&every.render());
    s
}

/// Writes `REPORT.md` and the plots into `dir`.
pub fn write(dir: &Path, inputs: &Inputs) -> Result<(), XtaskError> {
    for (path, text) in artefacts(dir, inputs) {
        write_atomic(&path, text.as_bytes())?;
    }
    Ok(())
}

/// The files [`write`] produces, with their contents.
fn artefacts(dir: &Path, inputs: &Inputs) -> Vec<(PathBuf, String)> {
    let mut out = vec![
        (dir.join("plots").join("sizes.svg"), sizes_svg(&inputs.results)),
        (dir.join("plots").join("solve-time.svg"), time_svg(&inputs.results, inputs.bench())),
        (dir.join("plots").join("max-live.svg"), crate::limit::svg(&inputs.results)),
        (dir.join("REPORT.md"), markdown(inputs)),
    ];
    if !inputs.results.c_corpus.is_empty() {
        out.push((dir.join("plots").join("c-bytes.svg"), crate::c_corpus::bytes_svg(&inputs.results.c_corpus)));
        out.push((dir.join("plots").join("c-ratio.svg"), crate::c_corpus::ratio_svg(&inputs.results.c_corpus)));
    }
    // The scale plots exist only when the bench has a scale suite.
    if let Some(b) = inputs.bench().filter(|b| !b.scale.is_empty()) {
        let (time, size) = crate::scale::svgs(&b.scale);
        out.push((dir.join("plots").join("scale-time.svg"), time));
        out.push((dir.join("plots").join("scale-size.svg"), size));
    }
    out
}

/// `cargo xtask report --check`: the generated files that differ from what [`write()`]
/// would write now (missing files included); empty when the report is up to date.
pub fn check(dir: &Path, inputs: &Inputs) -> Vec<PathBuf> {
    artefacts(dir, inputs)
        .into_iter()
        .filter(|(path, text)| std::fs::read_to_string(path).ok().as_deref() != Some(text.as_str()))
        .map(|(path, _)| path)
        .collect()
}

#[cfg(test)]
mod kernel_tests {
    use super::*;
    use crate::results::KernelRecord;

    fn rec(kernel: &str, method: &str, variant: &str, ms: f64) -> KernelRecord {
        KernelRecord {
            example: format!("smo-{kernel}"),
            kernel: kernel.into(),
            method: method.into(),
            variant: variant.into(),
            mitigation: String::new(),
            mapping: String::new(),
            size: String::new(),
            kernel_ms: ms,
            kernel_ms_spread: None,
            kernel_bytes: 8,
            reference_ms: 10.0,
            reference_bytes: 80,
            baseline_ms: None,
            peak_rss_bytes: None,
            output_equal: true,
            reps: 1,
            samples_ms: Vec::new(),
            runs_as: None,
        }
    }

    /// The paired ratio's interval decides the verdict: a folded run twice as fast in
    /// every round is `faster`, one 10% slower in every round despite a noisy machine is
    /// `slower`, rounds that go either way are `same within noise`.
    #[test]
    fn paired_ratio_verdicts() {
        let full = [100.0, 130.0, 90.0, 150.0, 110.0, 95.0, 120.0];
        let half: Vec<f64> = full.iter().map(|x| x / 2.0).collect();
        let slower: Vec<f64> = full.iter().map(|x| x * 1.1).collect();
        let mixed = [101.0, 128.0, 92.0, 149.0, 108.0, 97.0, 119.0];
        let (m, lo, hi) = paired_ratio(&full, &half).unwrap();
        assert!((m - 2.0).abs() < 1e-9 && lo <= m && m <= hi);
        assert_eq!(verdict(Some((m, lo, hi))), "faster");
        assert_eq!(verdict(paired_ratio(&full, &slower)), "**slower**");
        assert_eq!(verdict(paired_ratio(&full, &mixed)), "same within noise");
        assert_eq!(verdict(paired_ratio(&full[..3], &half[..3])), "n/a");
    }

    /// The fastest variant per kernel and method, with that kernel's full record; the
    /// ratio column is full / best.
    #[test]
    fn best_folded_per_kernel_and_method() {
        let rs = vec![
            rec("a", "full", "full", 10.0),
            rec("a", "smo", "plain", 20.0),
            rec("a", "smo", "stepped", 8.0),
            rec("a", "smo", "tuned", 12.0),
            rec("a", "lefe", "plain", 15.0),
            rec("b", "full", "full", 3.0),
            rec("b", "smo", "tuned", 4.0),
        ];
        let best: Vec<(&str, &str, &str, Option<&str>)> =
            best_folded(&rs).iter().map(|(f, b)| (b.kernel.as_str(), b.method.as_str(), b.variant.as_str(), f.map(|f| f.kernel.as_str()))).collect();
        assert_eq!(best, vec![("a", "smo", "stepped", Some("a")), ("a", "lefe", "plain", Some("a")), ("b", "smo", "tuned", Some("b"))]);
        let md = kernels_markdown(&rs);
        assert!(md.contains("| a |  | smo | 10.0 | 8.0 | stepped |  | 1.25x |"), "{md}");
    }
}
