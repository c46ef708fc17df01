//! `cargo xtask reproduce`: every bench-suite example, every applicable method, the
//! chosen backends; the papers' tables side by side with polyalloc's results.
//!
//! A polyalloc result **matches** a paper entry when the sizes are equal as polynomials
//! and the hyperplanes equal the paper's up to sign, row by row, with the same moduli;
//! it has the **same size** when only the size is equal; otherwise it is **smaller** or
//! **larger** (sizes compared at the example's largest instance) or **differs** (sizes
//! that cannot be compared). A paper entry **counts** (for `--strict`) when it is a
//! checkable result of an implemented method: it has hyperplanes and moduli and is not
//! expected `invalid`. It is **reproduced** when it counts, polyalloc's result matches
//! or has the same size, and the checker's verdict on the paper's own mapping is the
//! expected one. Sizes are given as polynomials and at the example's largest instance
//! (`size_at`; none when the file has no instance).

use crate::md::{cell, code, Table};
use crate::results::{PaperRow, ResultsFile};
use crate::{selected, XtaskError};
use indicatif::ProgressBar;
use polyalloc::run::{self, Backend};
use polyalloc::{Input, Method, Record, Status};
use polyalloc_alloc::{verify, AllocError, Verification};
use polyalloc_formulation::Polynomial;
use polyalloc_suite::Example;
use rayon::prelude::*;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

/// Options of a reproduce run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Backend selection: `default`, `all`, a name, `a,b`.
    pub backend: String,
    /// Example ids or `prefix*` patterns (empty: all).
    pub only: Vec<String>,
    /// Method selection: `all`, a name, `a,b`.
    pub method: String,
    /// The bench-suite directory.
    pub suite: PathBuf,
    /// Wall-clock budget of each run's ILPs (default [`DEFAULT_TIME_LIMIT`]); a run over
    /// budget is recorded as a solver error.
    pub time_limit: Option<Duration>,
    /// The corpora to run ([`CORPORA`]; default the bench-suite alone).
    pub corpus: Vec<String>,
}

/// The corpora `reproduce` runs: the bench-suite (the papers' examples, the default) and
/// the SMO tool's own inputs ([`crate::smo_tool`], not in the default run: it needs the
/// corpus, outside the repository, and adds about a minute on the built-in backend).
pub const CORPORA: [&str; 2] = ["bench-suite", crate::smo_tool::NAME];

/// The default time budget per (example, array, method, backend) run.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_secs(60);

impl Default for Options {
    fn default() -> Self {
        Options {
            backend: "default".into(),
            only: Vec::new(),
            method: "all".into(),
            suite: crate::suite_dir(),
            time_limit: Some(DEFAULT_TIME_LIMIT),
            corpus: vec![CORPORA[0].into()],
        }
    }
}

impl Options {
    /// ` --corpus ...` for a results file's command line when the corpora are not the
    /// default (empty otherwise).
    pub fn corpus_flag(&self) -> String {
        if self.corpus == Options::default().corpus {
            String::new()
        } else {
            format!(" --corpus {}", self.corpus.join(","))
        }
    }
}

/// True when a paper entry of `method` is a storage mapping of the file's conflict set,
/// checked against it: the entries of conflict-set methods, registered
/// ([`polyalloc_alloc::Method::as_allocator`]) or not implemented here (`lattice-h3`,
/// `beeclak`). Entries of registered program methods (occupancy vectors under their
/// schedules, schedules, flow) are compared by their paper's module in
/// [`crate::program_papers`].
fn conflict_set_method(method: &str) -> bool {
    polyalloc::registry().get(method).is_none_or(|m| m.as_allocator().is_some())
}

/// The examples of the selected corpora (`opts.corpus`: names of [`CORPORA`], or `all`),
/// restricted to `--only`.
pub fn examples(opts: &Options) -> Result<Vec<Example>, XtaskError> {
    let wanted: Vec<&str> = opts.corpus.iter().flat_map(|c| c.split(',')).map(str::trim).filter(|c| !c.is_empty()).collect();
    let all = wanted.contains(&"all");
    if let Some(bad) = wanted.iter().find(|c| **c != "all" && !CORPORA.contains(c)) {
        return Err(XtaskError::Input(format!("--corpus: unknown corpus `{bad}`; known: {}, all", CORPORA.join(", "))));
    }
    let mut examples = Vec::new();
    let mut places = Vec::new();
    if all || wanted.is_empty() || wanted.contains(&CORPORA[0]) {
        examples.extend(polyalloc_suite::load_dir(&opts.suite).map_err(polyalloc::Error::from)?);
        places.push(opts.suite.display().to_string());
    }
    if all || wanted.contains(&crate::smo_tool::NAME) {
        let dir = crate::smo_tool::corpus_dir();
        let expected = crate::smo_tool::Expectations::load(&crate::smo_tool::expected_path())?;
        examples.extend(crate::smo_tool::load(&dir, &expected)?.into_iter().map(|i| i.example));
        places.push(dir.display().to_string());
    }
    select(examples, &opts.only, &places.join(" and "))
}

fn select(all: Vec<Example>, only: &[String], place: &str) -> Result<Vec<Example>, XtaskError> {
    for p in only {
        if !p.ends_with('*') && !all.iter().any(|e| &e.id == p) {
            return Err(XtaskError::Input(format!(
                "--only: no example `{p}` in {place}; ids: {}",
                all.iter().map(|e| e.id.as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
    }
    let sel: Vec<Example> = all.into_iter().filter(|e| selected(&e.id, only)).collect();
    if sel.is_empty() {
        return Err(XtaskError::Input(format!("--only {}: no example selected", only.join(","))));
    }
    Ok(sel)
}

/// Runs the reproduction and returns the results (records, paper rows, skipped items).
/// `progress` is advanced once per run.
pub fn run(opts: &Options, progress: Option<&ProgressBar>) -> Result<ResultsFile, XtaskError> {
    let methods = polyalloc::registry().select(&opts.method)?;
    let backends = run::backends(&opts.backend)?;
    let examples = examples(opts)?;
    let mut out = ResultsFile::new(&format!("cargo xtask reproduce --backend {} --method {}", opts.backend, opts.method), &crate::workspace_root());
    if let Some(t) = opts.time_limit {
        out.command.push_str(&format!(" --time-limit {}", t.as_secs_f64()));
    }
    if !opts.only.is_empty() {
        out.command.push_str(&format!(" --only {}", opts.only.join(",")));
    }
    out.command.push_str(&opts.corpus_flag());
    let inputs: Vec<Input> = examples.iter().map(|e| Input::new(e.clone())).collect();
    // Every (method, targets) of every example, computed once: the plan sizes the
    // progress bar, and a method that does not apply is left out silently.
    let plans: Vec<Vec<(&dyn Method, Vec<String>)>> =
        inputs.iter().map(|input| polyalloc::Plan::new(input, &methods, &[]).map(|p| p.runs).unwrap_or_default()).collect();
    if let Some(pb) = progress {
        let total: usize = plans.iter().map(|p| p.iter().map(|(_, ts)| ts.len() * backends.len()).sum::<usize>()).sum::<usize>();
        pb.set_length(total as u64);
    }
    let selected_methods: BTreeSet<&str> = methods.iter().map(|m| m.name()).collect();
    // Every (example, method, target, backend) run, in the order of the results file.
    // They run in parallel on every core (rayon; each run is independent, an example's
    // conflict sets are computed once and shared through its `Input`), and are
    // collected back in this order, so the output does not depend on the scheduling.
    struct Job<'a> {
        example: usize,
        method: &'a dyn Method,
        target: &'a str,
        backend: usize,
    }
    let mut jobs = Vec::new();
    for (k, plan) in plans.iter().enumerate() {
        for (m, targets) in plan {
            for t in targets {
                for b in 0..backends.len() {
                    jobs.push(Job { example: k, method: *m, target: t, backend: b });
                }
            }
        }
    }
    // Longest first (list scheduling): the expected time of each run is the committed
    // reference's, when it has the run, so that a long run does not start last and
    // leave one core working alone at the end.
    let expected = expected_times();
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    let cost = |j: &Job<'_>| -> f64 {
        let key = (examples[j.example].id.clone(), j.target.to_string(), j.method.name().to_string(), backends[j.backend].name.clone());
        expected.get(&key).copied().unwrap_or(0.0)
    };
    let costs: Vec<f64> = jobs.iter().map(cost).collect();
    order.sort_by(|&a, &b| costs[b].total_cmp(&costs[a]).then(a.cmp(&b)));
    let run_job = |j: &Job<'_>| -> Result<Record, String> {
        let (ex, input, b) = (&examples[j.example], &inputs[j.example], &backends[j.backend]);
        if let Some(pb) = progress {
            pb.set_message(format!("{} {} {}", ex.id, j.target, j.method.name()));
        }
        // A conflict set that cannot be built is a skipped array, not a failure of
        // each method. Built here first, its time is still the run's `conflicts_ms`.
        let conflicts_before = polyalloc_alloc::conflict_set_time();
        let r = match j.method.as_allocator().map(|_| input.problem(j.target)) {
            Some(Err(e)) => Err(format!("{} array {}: {}", ex.id, j.target, one_line(&e.to_string()))),
            _ => {
                let built = polyalloc_alloc::conflict_set_time().saturating_sub(conflicts_before);
                let size_params = run::largest_instance(ex);
                let ro = run::RunOptions { size_params: size_params.as_ref(), dump_lp: None, time_limit: opts.time_limit };
                let mut rec = run::run_record(input, j.method, j.target, b, ro);
                rec.conflicts_ms += polyalloc::record::ms(built);
                Ok(rec)
            }
        };
        if let Some(pb) = progress {
            pb.inc(1);
        }
        r
    };
    let done = list_schedule(&jobs, &order, &run_job);
    for r in done {
        match r {
            Ok(rec) => out.records.push(rec),
            Err(why) if !out.skipped.contains(&why) => out.skipped.push(why),
            Err(_) => {}
        }
    }
    if opts.method.trim() == "all" {
        let derived = derived_best(&out.records);
        out.records.extend(derived);
    }
    // The paper rows of each example (the checker's verdicts on the papers' own
    // mappings, the program papers' comparisons), in parallel, collected in order.
    let records = &out.records;
    let per_example: Vec<(Vec<String>, Vec<PaperRow>)> = examples
        .par_iter()
        .zip(&inputs)
        .zip(&plans)
        .map(|((ex, input), plan)| {
            let mut skipped = Vec::new();
            let mut rows = Vec::new();
            if run::is_metadata_only(ex) {
                skipped.push(format!("{}: metadata only", ex.id));
                return (skipped, rows);
            }
            if plan.is_empty() && !methods.is_empty() {
                skipped.push(format!("{}: no selected method applies", ex.id));
            }
            rows.extend(paper_rows(ex, input, records, &selected_methods, &backends, opts.time_limit));
            for pm in crate::program_papers::paper_modules() {
                let chosen: Vec<&str> = pm.names().iter().copied().filter(|n| selected_methods.contains(n)).collect();
                if pm.applies(ex) && !chosen.is_empty() {
                    let recs: Vec<Record> = records.iter().filter(|r| r.example == ex.id).cloned().collect();
                    rows.extend(pm.paper_rows(input, &chosen, &recs, &backends, opts.time_limit));
                }
            }
            (skipped, rows)
        })
        .collect();
    for (skipped, rows) in per_example {
        out.skipped.extend(skipped);
        out.paper.extend(rows);
    }
    Ok(out)
}

/// The `best` records of a run of every method (`--method all`), derived from that
/// run's records instead of running every method a second time: per (example, target,
/// backend), the candidates are the records in registry order (the order `best` runs
/// the methods in), and the winner is chosen by [`polyalloc::best::winner`], the rule
/// of method `best`, at the same instance (the example's largest). Each mapping was
/// verified by the exact checker when its record was made. The record is the winner's
/// with method `best` and the details of `best` (winner, candidates); its ILP and
/// method times are the sums over every candidate, as a run of `best` measures them
/// (the per-ILP list is left to the candidates' records).
pub fn derived_best(records: &[Record]) -> Vec<Record> {
    use polyalloc::best::{BestDetails, Candidate};
    // Storage methods only, as `best` runs them (`schedule` answers with loops).
    let storage = |method: &str| polyalloc::registry().get(method).is_none_or(|m| m.answer().is_own_storage());
    let records: Vec<&Record> = records.iter().filter(|r| storage(&r.method)).collect();
    let mut keys: Vec<(String, String, String)> = Vec::new();
    for r in records.iter() {
        let k = (r.example.clone(), r.array.clone(), r.backend.clone());
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    let mut out = Vec::new();
    for (example, target, backend) in keys {
        let group: Vec<&Record> = records.iter().copied().filter(|r| r.example == example && r.array == target && r.backend == backend).collect();
        let candidates: Vec<Candidate> = group
            .iter()
            .map(|r| {
                let ok = r.status == Status::Ok && r.verified && r.mapping.is_some();
                Candidate {
                    method: r.method.clone(),
                    mapping: if ok { r.mapping.clone() } else { None },
                    size: if ok { r.size.clone() } else { None },
                    size_at: if ok { r.size_at } else { None },
                    error: if ok { None } else { Some(r.error.clone().unwrap_or_else(|| r.status.label().to_string())) },
                    verification: if ok { r.verification } else { None },
                    rows: if ok { Some(r.moduli.len()) } else { None },
                }
            })
            .collect();
        let mut rec = match polyalloc::best::winner(&candidates) {
            Some(k) => {
                let mut rec = group[k].clone();
                rec.details.clear();
                rec
            }
            None => {
                let why: Vec<String> = candidates.iter().map(|c| format!("{}: {}", c.method, c.error.as_deref().unwrap_or("?"))).collect();
                let mut rec = Record::empty(&example, &target, polyalloc::best::NAME, &backend);
                // Every method declined (as `best` says it): not applicable, not a failure.
                if group.iter().all(|r| r.status == Status::NotApplicable) {
                    rec.status = Status::NotApplicable;
                    rec.error_kind = Some("not-applicable".into());
                    rec.error = Some(polyalloc::record::one_line(&format!("not applicable: no method folds `{target}` ({})", why.join("; "))));
                } else {
                    rec.status = Status::MethodError;
                    rec.error_kind = Some("method".into());
                    rec.error = Some(polyalloc::record::one_line(&format!("no method found a verified mapping ({})", why.join("; "))));
                }
                rec.max_live = group.first().and_then(|r| r.max_live);
                rec.max_live_source = group.first().and_then(|r| r.max_live_source.clone());
                rec.size_params = group.first().and_then(|r| r.size_params.clone());
                rec
            }
        };
        rec.method = polyalloc::best::NAME.to_string();
        // The time of every candidate's ILPs; their per-ILP lists stay in the
        // candidates' own records of the same file (copied here they made
        // ov-example3's `best` record 1.8 MB of the reference).
        rec.ilps = Vec::new();
        rec.solve_ms = polyalloc::record::sum_ms(group.iter().flat_map(|r| r.ilps.iter()).map(|s| s.ms));
        rec.method_ms = group.iter().map(|r| r.method_ms).sum();
        if let Some(k) = polyalloc::best::winner(&candidates) {
            let details = BestDetails { winner: candidates[k].method.clone(), size_point: rec.size_params.clone(), candidates };
            rec.details = polyalloc_alloc::details_of(&details);
        }
        out.push(rec);
    }
    out
}

/// Runs `run` on every job, `order` giving the order in which they are started, on
/// as many worker threads as rayon has (one per core by default); returns the results
/// in the jobs' own order, whatever the schedule.
fn list_schedule<J: Sync, R: Send>(jobs: &[J], order: &[usize], run: &(dyn Fn(&J) -> R + Sync)) -> Vec<R> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let slots: Vec<Mutex<Option<R>>> = jobs.iter().map(|_| Mutex::new(None)).collect();
    let workers = rayon::current_num_threads().clamp(1, jobs.len().max(1));
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&j) = order.get(k) else { break };
                let r = run(&jobs[j]);
                *slots[j].lock().unwrap_or_else(|p| p.into_inner()) = Some(r);
            });
        }
    });
    slots.into_iter().filter_map(|m| m.into_inner().unwrap_or_else(|p| p.into_inner())).collect()
}

/// The wall-clock time (method and verification, ms) of every run of the committed
/// reference results, by (example, array, method, backend); empty without them.
fn expected_times() -> BTreeMap<(String, String, String, String), f64> {
    let Ok(reference) = crate::results::ResultsFile::load(&crate::reference_path()) else { return BTreeMap::new() };
    reference.records.iter().map(|r| (r.key(), r.method_ms + r.verify_ms)).collect()
}

fn one_line(s: &str) -> String {
    let s = s.replace('\n', " ");
    if s.chars().count() > 300 {
        format!("{}...", s.chars().take(300).collect::<String>())
    } else {
        s
    }
}

/// Equal up to sign, row by row, with the same moduli (as polynomials).
fn same_mapping(paper_h: &[Vec<i64>], paper_m: &[String], rec: &Record) -> bool {
    if paper_h.len() != rec.hyperplanes.len() || paper_m.len() != rec.moduli.len() {
        return false;
    }
    paper_h.iter().zip(&rec.hyperplanes).all(|(p, r)| p == r || p.iter().zip(r).all(|(a, b)| *a == -*b) && p.len() == r.len())
        && paper_m.iter().zip(&rec.moduli).all(|(p, r)| match (Polynomial::parse(p), r.as_deref().map(Polynomial::parse)) {
            (Ok(a), Some(Ok(b))) => a == b,
            _ => false,
        })
}

fn eval(p: &Polynomial, values: &BTreeMap<String, i64>) -> Option<i128> {
    let v: Vec<(&str, i64)> = values.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    p.eval(&v).ok()
}

/// Compares a polyalloc record with a paper entry: `match`, `same size`, `smaller`,
/// `larger`, `differ`, `failed`.
pub fn classify(paper_size: Option<&str>, paper_h: Option<&Vec<Vec<i64>>>, paper_m: Option<&Vec<String>>, rec: Option<&Record>) -> String {
    let Some(rec) = rec.filter(|r| r.status == Status::Ok) else { return "failed".into() };
    let (Some(ps), Some(rs)) = (paper_size.and_then(|s| Polynomial::parse(s).ok()), rec.size_polynomial()) else {
        return "differ".into();
    };
    if ps == rs {
        return match (paper_h, paper_m) {
            (Some(h), Some(m)) if same_mapping(h, m, rec) => "match".into(),
            _ => "same size".into(),
        };
    }
    let far: BTreeMap<String, i64> = rec.params.iter().map(|p| (p.clone(), crate::compare::FAR)).collect();
    let at = rec.size_params.clone().unwrap_or(far);
    match (eval(&ps, &at), eval(&rs, &at)) {
        (Some(a), Some(b)) if b < a => "smaller".into(),
        (Some(a), Some(b)) if b > a => "larger".into(),
        _ => "differ".into(),
    }
}

fn verdict_label(v: &Result<Verification, AllocError>) -> (String, Option<bool>) {
    match v {
        Ok(Verification::Proven) => ("valid (proven)".into(), Some(true)),
        Ok(Verification::Instances { .. }) => ("valid (instances)".into(), Some(true)),
        Err(AllocError::Invalid { refutation, .. }) => (format!("invalid: {}", one_line(&refutation.to_string())), Some(false)),
        Err(e) => (format!("error: {}", one_line(&e.to_string())), None),
    }
}

/// The paper rows of one example.
pub fn paper_rows(
    ex: &Example,
    input: &Input,
    records: &[Record],
    selected_methods: &BTreeSet<&str>,
    backends: &[Backend],
    time_limit: Option<Duration>,
) -> Vec<PaperRow> {
    let mut rows = Vec::new();
    // The paper's own baseline size, the numerator of its improvement ratios (001 Table 1).
    // Entries of crate::program_papers methods are written by those methods.
    let extra_names: Vec<&str> = crate::program_papers::names();
    let baseline = ex.paper.iter().find(|e| e.method == "lefe").and_then(|e| e.size.as_deref()).and_then(|s| Polynomial::parse(s).ok());
    for (k, entry) in ex.paper.iter().enumerate() {
        let array = match (&entry.array, ex.arrays.len()) {
            (Some(a), _) => a.clone(),
            (None, 1) => ex.arrays.keys().next().cloned().unwrap_or_default(),
            _ => continue, // schedules, flow results: not storage mappings of an array
        };
        if extra_names.contains(&entry.method.as_str()) {
            continue; // owned by a crate::program_papers method, which writes its own rows
        }
        let is_impl = polyalloc::registry().get(&entry.method).is_some();
        if is_impl && !selected_methods.contains(entry.method.as_str()) {
            continue;
        }
        // The checker's verdict on the paper's own mapping.
        let problem = if conflict_set_method(&entry.method) && entry.hyperplanes.is_some() { input.problem(&array).ok() } else { None };
        let (paper_verdict, verdict_ok) = match &problem {
            Some(problem) => match ex.paper_mapping(k, &problem.conflicts) {
                Ok(Some(mapping)) => match backends.first() {
                    Some(b) => {
                        let solver = run::Budgeted::new(b.solver.as_ref(), time_limit);
                        let (label, valid) = verdict_label(&verify(problem, &mapping, &solver, &entry.method));
                        let ok = match (&entry.expect, valid) {
                            (Some(e), Some(v)) => (e == "valid") == v,
                            (Some(_), None) => false,
                            (None, _) => true,
                        };
                        (Some(label), ok)
                    }
                    None => (None, true),
                },
                Ok(None) => (None, true),
                Err(e) => (Some(format!("error: {}", one_line(&e.to_string()))), false),
            },
            None => (None, true),
        };
        let counts = is_impl && entry.hyperplanes.is_some() && entry.moduli.is_some() && entry.expect.as_deref() != Some("invalid");
        let base = PaperRow {
            paper_mapping: entry.mapping.clone(),
            paper_size: entry.size.clone(),
            paper_hyperplanes: entry.hyperplanes.clone(),
            paper_moduli: entry.moduli.clone(),
            expect: entry.expect.clone(),
            paper_verdict,
            verdict_ok,
            note: entry.note.clone(),
            paper_ratio: entry.extra.get("reduction").and_then(|v| v.as_str()).map(str::to_string),
            ..PaperRow::new(&ex.id, &ex.source.paper, entry.location.clone(), &array, &entry.method)
        };
        if !is_impl {
            rows.push(base);
            continue;
        }
        for b in backends {
            let rec = records.iter().find(|r| r.example == ex.id && r.array == array && r.method == entry.method && r.backend == b.name);
            let result = classify(entry.size.as_deref(), entry.hyperplanes.as_ref(), entry.moduli.as_ref(), rec);
            let reproduced = counts && verdict_ok && (result == "match" || result == "same size");
            let polyalloc_ratio = match (base.paper_ratio.is_some(), &baseline, rec.and_then(|r| r.size_polynomial())) {
                (true, Some(base_size), Some(size)) if rec.is_some_and(|r| r.status == Status::Ok) => base_size.improvement_ratio(&size),
                _ => None,
            };
            rows.push(PaperRow {
                backend: Some(b.name.clone()),
                polyalloc_ratio,
                polyalloc_mapping: rec.and_then(|r| r.mapping.clone().or_else(|| r.error.as_deref().map(one_line))),
                polyalloc_size: rec.and_then(|r| r.size.clone()),
                result,
                counts,
                reproduced,
                ..base.clone()
            });
        }
    }
    rows
}

/// The heading of a paper's section: authors and year, what polyalloc reproduces of it.
pub fn paper_title(file: &str) -> String {
    match polyalloc_suite::Citation::of(file) {
        Some(c) => format!("{}: {} ({}, {})", c.short(), c.topic, c.title, c.venue),
        None if file == crate::smo_tool::NAME => {
            "The SMO tool's inputs: SMO against Table I of Bhaskaracharya, Bondhugula, Cohen 2016 where an input is a Table I example".into()
        }
        None => "other".into(),
    }
}

fn verdict_cell(r: &PaperRow) -> String {
    match &r.paper_verdict {
        None => "-".into(),
        Some(v) => {
            let short = v.split(':').next().unwrap_or(v);
            match (r.verdict_ok, r.expect.as_deref()) {
                (true, Some("invalid")) => format!("{short} (as expected)"),
                (true, _) => short.to_string(),
                (false, e) => format!("**{}** (expected {})", cell(v), e.unwrap_or("?")),
            }
        }
    }
}

fn result_cell(r: &PaperRow) -> String {
    let res = match r.result.as_str() {
        "match" => "match".to_string(),
        "same size" => "same size".to_string(),
        "smaller" | "larger" | "differ" | "failed" => format!("**{}**", r.result),
        other => other.to_string(),
    };
    if r.backend.is_some() && !r.counts {
        format!("{res} (informational)")
    } else if r.counts && !r.verdict_ok {
        format!("{res}, **paper verdict unexpected**")
    } else {
        res
    }
}

/// Per paper, a Markdown table side by side with the paper's; then polyalloc results
/// without a paper entry, the skipped items and a summary.
pub fn markdown(f: &ResultsFile) -> String {
    let mut s = String::new();
    let mut papers: BTreeMap<&str, Vec<&PaperRow>> = BTreeMap::new();
    for r in &f.paper {
        papers.entry(r.paper.as_str()).or_default().push(r);
    }
    for (paper, rows) in &papers {
        let _ = writeln!(s, "### {}\n", paper_title(paper));
        // The improvement-ratio column (001 Table 1 "Ratio") where the paper prints one.
        let with_ratio = rows.iter().any(|r| r.paper_ratio.is_some());
        let mut head = vec![
            "example",
            "array",
            "method",
            "paper mapping",
            "paper size",
            "checker on paper mapping",
            "backend",
            "polyalloc mapping",
            "polyalloc size",
            "result",
        ];
        if with_ratio {
            head.push("ratio: paper / polyalloc");
        }
        let mut t = Table::new(&head);
        for r in rows {
            let mut row = vec![
                r.example.clone(),
                r.array.clone(),
                r.method.clone(),
                code(r.paper_mapping.as_deref()),
                code(r.paper_size.as_deref()),
                verdict_cell(r),
                r.backend.as_deref().unwrap_or("-").to_string(),
                code(r.polyalloc_mapping.as_deref()),
                code(r.polyalloc_size.as_deref()),
                result_cell(r),
            ];
            if with_ratio {
                row.push(match (&r.paper_ratio, &r.polyalloc_ratio) {
                    (None, None) => "-".to_string(),
                    (p, o) => format!("{} / {}", p.as_deref().unwrap_or("-"), o.as_deref().unwrap_or("-")),
                });
            }
            t.row(row);
        }
        s.push_str(&t.render());
        s.push('\n');
    }
    let with_paper: BTreeSet<(&str, &str, &str)> = f.paper.iter().map(|r| (r.example.as_str(), r.array.as_str(), r.method.as_str())).collect();
    // The SMO tool's inputs have their own tables (crate::smo_tool::markdown).
    let others: Vec<&Record> = f
        .records
        .iter()
        .filter(|r| {
            !with_paper.contains(&(r.example.as_str(), r.array.as_str(), r.method.as_str())) && !r.example.starts_with(crate::smo_tool::PREFIX)
        })
        .collect();
    if !others.is_empty() {
        s.push_str("### polyalloc results without a paper entry\n\n");
        let mut t = Table::new(&["example", "array", "method", "backend", "mapping", "size", "size at largest instance", "verified", "solve ms"]);
        for r in others {
            t.row(vec![
                r.example.clone(),
                r.array.clone(),
                r.method.clone(),
                r.backend.clone(),
                code(r.mapping.as_deref().or(r.error.as_deref())),
                code(r.size.as_deref()),
                r.size_at.map(|v| v.to_string()).unwrap_or_else(|| "-".into()),
                (if r.verified { r.verification.map_or("yes", polyalloc::Claim::label) } else { r.status.label() }).to_string(),
                format!("{:.1}", r.solve_ms),
            ]);
        }
        s.push_str(&t.render());
        s.push('\n');
    }
    s.push_str(&crate::smo_tool::markdown(f, &|p: &PaperRow, r: &Record| {
        classify(p.paper_size.as_deref(), p.paper_hyperplanes.as_ref(), p.paper_moduli.as_ref(), Some(r))
    }));
    if !f.skipped.is_empty() {
        s.push_str("### Not run\n\n");
        for k in &f.skipped {
            let _ = writeln!(s, "* {}", cell(k));
        }
        s.push('\n');
    }
    s.push_str("**Summary:** ");
    s.push_str(&summary(f));
    s
}

/// The summary lines: how many paper results were reproduced, which were not.
pub fn summary(f: &ResultsFile) -> String {
    let mut s = String::new();
    let counted: Vec<&PaperRow> = f.paper.iter().filter(|r| r.counts).collect();
    let matched = counted.iter().filter(|r| r.reproduced && r.result == "match").count();
    let same = counted.iter().filter(|r| r.reproduced && r.result == "same size").count();
    let failed: Vec<&&PaperRow> = counted.iter().filter(|r| !r.reproduced).collect();
    let ok_records = f.records.iter().filter(|r| r.status == Status::Ok).count();
    let _ = writeln!(
        s,
        "{} of {} paper results reproduced ({matched} match, {same} same size); {} runs, {ok_records} verified mappings.",
        matched + same,
        counted.len(),
        f.records.len()
    );
    for r in failed {
        let _ = writeln!(
            s,
            "* not reproduced: {} {} {} on {}: paper `{}`, polyalloc `{}` ({}{})",
            r.example,
            r.array,
            r.method,
            r.backend.as_deref().unwrap_or("-"),
            r.paper_size.as_deref().unwrap_or("-"),
            r.polyalloc_size.as_deref().unwrap_or("-"),
            r.result,
            if r.verdict_ok { "" } else { "; unexpected verdict on the paper's mapping" }
        );
    }
    s
}

/// Paper results that count and were not reproduced (what `--strict` fails on).
pub fn not_reproduced(f: &ResultsFile) -> Vec<&PaperRow> {
    f.paper.iter().filter(|r| r.counts && !r.reproduced).collect()
}

/// The main job, as `cargo xtask reproduce` runs it: [`run()`], then the results are
/// written to `out`, by default `results/local/latest.json` ([`crate::local_dir`],
/// untracked: the main job never changes a tracked file). The `kernels` section of an
/// existing file at that path (written by `cargo xtask kernels`) is carried over.
/// Returns the results and the path written.
pub fn main_job(opts: &Options, out: Option<PathBuf>, progress: Option<&ProgressBar>) -> Result<(ResultsFile, PathBuf), XtaskError> {
    let mut results = run(opts, progress)?;
    let path = out.unwrap_or_else(|| crate::local_dir().join("latest.json"));
    if path.exists() {
        match ResultsFile::load(&path) {
            Ok(old) => results.kernels = old.kernels,
            Err(e) => eprintln!("xtask: {} not readable ({e}); its kernels section is not carried over", path.display()),
        }
    }
    results.save(&path)?;
    Ok((results, path))
}
