//! The fuzzing harness: random conflict sets and programs, every applicable
//! method of the [`registry`](crate::registry) run through the facade as a user runs
//! it ([`crate::run()`], which verifies with the exact checker), and every mapping
//! polyalloc returns checked again by brute force at small instances by an oracle that
//! shares no code with the checker or the methods ([`oracle`]).
//!
//! What is counted per method ([`Report`]): answers verified (and confirmed by brute
//! force), **wrong verdicts** (polyalloc verified a mapping that brute force refutes:
//! the worst bug), **refuted** mappings (the checker refused a method's mapping: a
//! method bug, or a precondition the method should check), other failures by kind
//! (not applicable, solver, time budget, method), and **crashes** (a panic anywhere).
//!
//! `cargo test` runs a bounded campaign (`crates/polyalloc/tests/fuzz.rs`); the long
//! one is `cargo xtask fuzz --cases N [--seed S]`, which also writes every failing
//! case as a bench-suite file to reproduce it with `polyalloc allocate`.

pub mod gen;
pub mod oracle;

use crate::run::{run, Backend, Failure, RunOptions};
use gen::Case;
use oracle::{PlainMapping, Wrong};
use polyalloc_alloc::{Input, MethodError};
use polyalloc_formulation::ModularMapping;
use polyalloc_suite::Example;
use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Duration;

/// How a campaign runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The seed of the case generator.
    pub seed: u64,
    /// Number of cases.
    pub cases: usize,
    /// Budget of each (case, method) run.
    pub time_limit: Option<Duration>,
    /// Cases run at once (each case is independent; the report is the same as a
    /// serial run's, collected in case order).
    pub threads: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options { seed: 1, cases: 100, time_limit: Some(Duration::from_secs(20)), threads: 1 }
    }
}

/// The outcome of one method on one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Verified by polyalloc and confirmed by brute force.
    Verified,
    /// Verified by polyalloc, refuted by brute force.
    WrongVerdict(String),
    /// The checker refuted the method's mapping; `confirmed` when brute force also
    /// finds it wrong at the instances.
    Refuted { reason: String, confirmed: bool },
    /// No answer, with the record's status and kind (`not-applicable`,
    /// `solver-error/time-budget`, ...).
    Failed { kind: String, reason: String },
    /// A panic.
    Crash(String),
}

/// One failure worth a look (everything but verified answers and expected failures).
#[derive(Clone, Debug)]
pub struct Finding {
    pub case: String,
    pub method: String,
    pub outcome: Outcome,
    /// The case as a bench-suite file.
    pub example: serde_json::Value,
}

/// Counts per method.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    pub runs: usize,
    pub verified: usize,
    pub wrong_verdicts: usize,
    pub refuted: usize,
    pub crashes: usize,
    /// Other failures by `status/kind`.
    pub failed: BTreeMap<String, usize>,
    /// Wall-clock time of the runs (method and verification), in seconds.
    pub seconds: f64,
}

/// The result of a campaign.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub seed: u64,
    pub cases: usize,
    /// Cases whose file polyalloc could not load (a generator bug or an input limit).
    pub unloadable: Vec<(String, String)>,
    pub per_method: BTreeMap<String, Counts>,
    pub findings: Vec<Finding>,
}

impl Report {
    /// Totals over the methods.
    pub fn total(&self) -> Counts {
        let mut t = Counts::default();
        for c in self.per_method.values() {
            t.runs += c.runs;
            t.verified += c.verified;
            t.wrong_verdicts += c.wrong_verdicts;
            t.refuted += c.refuted;
            t.crashes += c.crashes;
            t.seconds += c.seconds;
            for (k, v) in &c.failed {
                *t.failed.entry(k.clone()).or_default() += v;
            }
        }
        t
    }

    /// True when nothing is wrong: no crash, no wrong verdict, no refuted mapping, every
    /// case loaded.
    pub fn clean(&self) -> bool {
        let t = self.total();
        t.crashes == 0 && t.wrong_verdicts == 0 && t.refuted == 0 && self.unloadable.is_empty()
    }

    /// A Markdown table of the counts and the list of findings.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("Fuzzing: seed {}, {} cases\n\n", self.seed, self.cases);
        s.push_str(
            "| method | runs | verified | wrong verdicts | refuted | crashes | other failures | seconds |\n|---|---|---|---|---|---|---|---|\n",
        );
        let row = |name: &str, c: &Counts| {
            let other: Vec<String> = c.failed.iter().map(|(k, v)| format!("{k} {v}")).collect();
            format!(
                "| {name} | {} | {} | {} | {} | {} | {} | {:.1} |\n",
                c.runs,
                c.verified,
                c.wrong_verdicts,
                c.refuted,
                c.crashes,
                other.join(", "),
                c.seconds
            )
        };
        for (m, c) in &self.per_method {
            s.push_str(&row(m, c));
        }
        s.push_str(&row("**all**", &self.total()));
        for (id, why) in &self.unloadable {
            s.push_str(&format!("\nnot loaded: {id}: {why}"));
        }
        for f in &self.findings {
            s.push_str(&format!("\n{} / {}: {:?}", f.case, f.method, f.outcome));
        }
        s.push('\n');
        s
    }
}

/// The mapping as plain numbers for the oracle (moduli over the one parameter `N`).
fn plain(m: &ModularMapping) -> PlainMapping {
    let n_pos = m.params.iter().position(|p| p == "N");
    PlainMapping {
        rows: m
            .rows
            .iter()
            .map(|r| {
                let e = r.modulus.as_ref().map(|e| (e.coeffs[0], n_pos.map_or(0, |k| e.coeffs[1 + k])));
                (r.hyperplane.clone(), e)
            })
            .collect(),
    }
}

/// The values of `N` a mapping is claimed at: those of an obligation that fixes them
/// (an instance-specific method, `Obligation::at`), else every instance of the case.
fn claimed_instances(case: &Case, m: &ModularMapping, obligations: &[polyalloc_alloc::Obligation]) -> Vec<i64> {
    let n_pos = m.params.iter().position(|p| p == "N");
    match obligations.iter().find_map(|o| o.at.as_ref()) {
        Some(at) => n_pos.and_then(|k| at.get(k).copied()).into_iter().collect(),
        None => case.instances.clone(),
    }
}

fn panic_text(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned()).unwrap_or_else(|| "panic".into())
}

/// Runs every applicable method on one case.
pub fn run_case(case: &Case, backend: &Backend, time_limit: Option<Duration>) -> Result<Vec<(String, Outcome, f64)>, String> {
    let json = case.to_json();
    let path = PathBuf::from(format!("fuzz/{}.json", case.id));
    let ex = Example::from_str(&json.to_string(), &path).map_err(|e| e.to_string())?;
    let input = Input::new(ex);
    let mut out = Vec::new();
    for method in crate::registry().all().filter(|m| m.answer() != polyalloc_alloc::Answer::BestOfOthers) {
        let targets = match catch_unwind(AssertUnwindSafe(|| method.targets(&input))) {
            Err(p) => {
                out.push((method.name().to_string(), Outcome::Crash(panic_text(p.as_ref())), 0.0));
                continue;
            }
            Ok(Err(MethodError::NotApplicable(_))) => continue,
            Ok(Err(e)) => {
                out.push((method.name().to_string(), Outcome::Failed { kind: format!("targets/{}", e.kind()), reason: e.to_string() }, 0.0));
                continue;
            }
            Ok(Ok(t)) => t,
        };
        for target in targets.iter().filter(|t| *t == "A") {
            let opts = RunOptions { time_limit, ..RunOptions::default() };
            let start = std::time::Instant::now();
            let result = catch_unwind(AssertUnwindSafe(|| run(&input, method, target, backend, opts)));
            let seconds = start.elapsed().as_secs_f64();
            let outcome = match result {
                Err(p) => Outcome::Crash(panic_text(p.as_ref())),
                Ok(Ok(v)) => match &v.outcome.mapping {
                    Some(m) => match oracle::check_at(case, &plain(m), &claimed_instances(case, m, &v.outcome.obligations)) {
                        Ok(_) => Outcome::Verified,
                        Err(w) => Outcome::WrongVerdict(format!("{m} ({}): {w}", v.verification.label())),
                    },
                    None => Outcome::Verified,
                },
                Ok(Err(e)) => match &e.failure {
                    Failure::Refuted { .. } => {
                        let brute = e.outcome.as_ref().and_then(|o| o.mapping.as_ref()).map(|m| oracle::check(case, &plain(m)));
                        let mapping = e.outcome.as_ref().and_then(|o| o.mapping.as_ref()).map(|m| m.to_string()).unwrap_or_default();
                        Outcome::Refuted {
                            reason: format!("{mapping}: {}", e.failure),
                            confirmed: matches!(brute, Some(Err(Wrong::Collision { .. } | Wrong::Modulus { .. }))),
                        }
                    }
                    f => Outcome::Failed { kind: format!("{}/{}", f.status().label(), f.kind()), reason: e.to_string() },
                },
            };
            out.push((method.name().to_string(), outcome, seconds));
        }
    }
    Ok(out)
}

/// The outcomes of one case: per method its outcome and seconds, or why the case did
/// not load.
pub type CaseResult = Result<Vec<(String, Outcome, f64)>, String>;

impl Report {
    /// An empty report of a campaign.
    pub fn new(seed: u64) -> Report {
        Report { seed, ..Report::default() }
    }

    /// Adds the outcomes of one case.
    pub fn record(&mut self, case: &Case, result: CaseResult) {
        self.cases += 1;
        let outcomes = match result {
            Err(why) => {
                self.unloadable.push((case.id.clone(), why));
                return;
            }
            Ok(o) => o,
        };
        for (method, outcome, seconds) in outcomes {
            let c = self.per_method.entry(method.clone()).or_default();
            c.runs += 1;
            c.seconds += seconds;
            let finding = match &outcome {
                Outcome::Verified => {
                    c.verified += 1;
                    false
                }
                Outcome::WrongVerdict(_) => {
                    c.wrong_verdicts += 1;
                    true
                }
                Outcome::Refuted { .. } => {
                    c.refuted += 1;
                    true
                }
                Outcome::Crash(_) => {
                    c.crashes += 1;
                    true
                }
                Outcome::Failed { kind, .. } => {
                    *c.failed.entry(kind.clone()).or_default() += 1;
                    // The method's own logic giving up or an unexpected error is worth
                    // a look; solver limits and inapplicability are not.
                    kind.starts_with("method-error") || kind.starts_with("error")
                }
            };
            if finding {
                self.findings.push(Finding { case: case.id.clone(), method, outcome, example: case.to_json() });
            }
        }
    }
}

/// Runs a campaign, `opts.threads` cases at a time; `progress` is called with the
/// number of cases done after each batch. Stops early (with the cases run so far) when
/// the process is interrupted.
pub fn campaign(opts: &Options, backend: &Backend, progress: &mut dyn FnMut(usize, &Report)) -> Report {
    let mut report = Report::new(opts.seed);
    let threads = opts.threads.max(1);
    let batch = threads * 4;
    let mut start = 0;
    while start < opts.cases && !crate::budget::interrupted() {
        let end = (start + batch).min(opts.cases);
        let cases: Vec<Case> = (start..end).map(|i| gen::case(opts.seed, i)).collect();
        let mut results: Vec<Option<CaseResult>> = vec![None; cases.len()];
        std::thread::scope(|s| {
            let chunks: Vec<_> = results.chunks_mut(cases.len().div_ceil(threads)).zip(cases.chunks(cases.len().div_ceil(threads))).collect();
            for (out, cs) in chunks {
                s.spawn(move || {
                    for (o, c) in out.iter_mut().zip(cs) {
                        *o = Some(run_case(c, backend, opts.time_limit));
                    }
                });
            }
        });
        for (case, result) in cases.iter().zip(results) {
            report.record(case, result.unwrap_or_else(|| Err("not run".into())));
        }
        start = end;
        progress(start, &report);
    }
    report
}
