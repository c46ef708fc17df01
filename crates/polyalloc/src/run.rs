//! [`run`], the single place where a method is run, its answer verified
//! ([`crate::verify`]) and its outcome recorded ([`run_record`]). What comes before a
//! run (backends, inputs, `--params`, `--time-limit`) is in [`crate::setup`],
//! re-exported here.

use crate::record::{ms, one_line, Claim, IlpStat, Record, Status};
pub use crate::setup::*;
use crate::verify::verify_outcome_with;
pub use crate::verify::{execute, verify_outcome, Failure, Separate};
use polyalloc_alloc::{Execution, Input, Method, MethodError, Order, Outcome, Verification};
use polyalloc_formulation::Polynomial;
pub use polyalloc_ilp::Budgeted;
use polyalloc_ilp::{budget, Recording, SolveRecord};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// How to run: where the size is evaluated, where ILPs are dumped, the time budget.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions<'a> {
    /// Parameter values for `size_at`.
    pub size_params: Option<&'a BTreeMap<String, i64>>,
    /// `--dump-lp DIR`.
    pub dump_lp: Option<&'a Path>,
    /// Wall-clock budget of the whole run: the method, its ILPs, the verification and
    /// (in [`run_record`]) max-live, which gets what the run leaves.
    pub time_limit: Option<Duration>,
}

/// A verified answer of one method on one target with one backend.
#[derive(Clone, Debug)]
pub struct Verified {
    pub method: String,
    pub backend: String,
    /// The array, or the method's named run.
    pub target: String,
    /// What the method returned (its mapping, obligations, execution, details).
    pub outcome: Outcome,
    /// The mapping's size (product of the moduli; `None` when a row is not folded or
    /// there is no mapping).
    pub size: Option<Polynomial>,
    /// How the answer was established: `Proven` when every obligation was proven for
    /// every parameter value; `Instances` when some proof fell back to enumeration at
    /// the instances, or the evidence is an execution of the program.
    pub verification: Verification,
    /// Each obligation's label with its verification, in order.
    pub verified_under: Vec<(String, Verification)>,
    /// The facade's runs of the program with the method's answer (when the outcome
    /// asked for any), all identical to the original program.
    pub execution: Option<Execution>,
    /// For a shared storage: each array's separate mapping (`SharedAnswer::separate`)
    /// with its size and its verification against the array's own conflict set.
    pub separate: Vec<Separate>,
    /// Every ILP the method solved, in order (the checker's are not included).
    pub ilps: Vec<SolveRecord>,
    /// The method's time, conflict sets excluded.
    pub method_time: Duration,
    /// The verification's time, conflict sets excluded.
    pub verify_time: Duration,
    /// Building the conflict sets the run asked for (method and verification).
    pub conflicts_time: Duration,
}

/// A run that produced no verified answer, with what it did produce.
#[derive(Debug)]
pub struct RunError {
    pub method: String,
    pub backend: String,
    pub target: String,
    pub failure: Failure,
    /// The method's details when it returned an outcome that then failed verification.
    pub outcome: Option<Outcome>,
    pub ilps: Vec<SolveRecord>,
    pub method_time: Duration,
    pub verify_time: Duration,
    pub conflicts_time: Duration,
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} / {} / {}: {}", self.target, self.method, self.backend, self.failure)
    }
}

impl std::error::Error for RunError {}

/// Runs `method` on `target` of `input` with one backend and verifies its answer before
/// returning it: every obligation with the exact checker (`polyalloc_alloc::verify`,
/// which shares no code with any method), and an execution when the method's answer is
/// checked by running the program. The method's ILPs are recorded (and dumped with
/// `dump_lp`); the checker's are dumped too but not counted. `time_limit` bounds the
/// wall-clock time of the whole run, method and checker together: every ILP, and the
/// work between them (conflict sets built from a program, coalescing, projections,
/// enumerations, executions), which checks the budget as it goes
/// (`polyalloc_ilp::budget`). A run over budget fails with the solver kind
/// `time-budget`.
pub fn run(input: &Input, method: &dyn Method, target: &str, backend: &Backend, opts: RunOptions<'_>) -> Result<Verified, Box<RunError>> {
    budget::scoped(&backend.name, opts.time_limit, || run_in_budget(input, method, target, backend, opts))
}

fn run_in_budget(input: &Input, method: &dyn Method, target: &str, backend: &Backend, opts: RunOptions<'_>) -> Result<Verified, Box<RunError>> {
    let mut rec = Recording::new(Budgeted::new(backend.solver.as_ref(), opts.time_limit));
    if let Some(dir) = opts.dump_lp {
        rec = rec.with_dump_dir(dir.join(file_stem(&format!("{}-{target}-{}-{}", input.example.id, method.name(), backend.name))));
    }
    let name = method.name();
    // Conflict sets are built on first use, by the method or the checker: their time
    // is a phase of its own (`conflicts_ms`), taken out of both.
    let conflicts_before = polyalloc_alloc::conflict_set_time();
    let start = Instant::now();
    let result = method.run(input, target, &rec);
    let method_conflicts = polyalloc_alloc::conflict_set_time().saturating_sub(conflicts_before);
    let method_time = start.elapsed().saturating_sub(method_conflicts);
    let ilps = rec.take_records();
    let fail = |failure: Failure, outcome: Option<Outcome>, ilps: Vec<SolveRecord>, verify_time: Duration| {
        Box::new(RunError {
            method: name.to_string(),
            backend: backend.name.clone(),
            target: target.to_string(),
            failure,
            outcome,
            ilps,
            method_time,
            verify_time,
            conflicts_time: polyalloc_alloc::conflict_set_time().saturating_sub(conflicts_before),
        })
    };
    let outcome = match result {
        Ok(o) => o,
        Err(e) => return Err(fail(Failure::Method(e), None, ilps, Duration::ZERO)),
    };
    let vstart = Instant::now();
    let checked = verify_outcome_with(input, &outcome, &rec, name);
    // The checker's models were dumped; its records are not the method's statistics.
    rec.take_records();
    let conflicts_time = polyalloc_alloc::conflict_set_time().saturating_sub(conflicts_before);
    let verify_time = vstart.elapsed().saturating_sub(conflicts_time.saturating_sub(method_conflicts));
    let ((verification, verified_under, execution), separate) = match checked {
        Ok(v) => v,
        Err(f) => return Err(fail(f, Some(outcome), ilps, verify_time)),
    };
    let size = match outcome.mapping.as_ref().map(|m| m.size()).transpose() {
        Ok(s) => s.flatten(),
        Err(e) => return Err(fail(Failure::Method(MethodError::Formulation(e)), Some(outcome), ilps, verify_time)),
    };
    let size = match (&outcome.shared, size) {
        (Some(sh), None) => match sh.mapping.size() {
            Ok(s) => Some(s),
            Err(e) => return Err(fail(Failure::Method(MethodError::Formulation(e)), Some(outcome), ilps, verify_time)),
        },
        (_, s) => s,
    };
    Ok(Verified {
        method: name.to_string(),
        backend: backend.name.clone(),
        target: target.to_string(),
        outcome,
        size,
        verification,
        verified_under,
        execution,
        separate,
        ilps,
        method_time,
        verify_time,
        conflicts_time,
    })
}

/// [`run`] as a [`Record`] (the JSON schema of the CLI and the harness). Never fails: a
/// failure is a record with a non-`ok` status, its kind and the message.
///
/// Records of an array (not of a method's named run) carry max-live at the size point
/// ([`crate::limit`]), the limit every mapping of the array is measured against; records
/// of a storage shared by several arrays carry the max-live of all of them together;
/// records of an array of a method's transformed program (Song et al. 2005's fused loops) carry its
/// max-live under that program's order ([`crate::limit::max_live_under`]).
pub fn run_record(input: &Input, method: &dyn Method, target: &str, backend: &Backend, opts: RunOptions<'_>) -> Record {
    let started = Instant::now();
    let result = run(input, method, target, backend, opts);
    let mut r = Record::from_run(&input.example.id, &result, opts.size_params);
    r.read_ms = input.read_time.map_or(0.0, ms);
    let array = input.example.arrays.contains_key(target);
    // An array the method's own transformed program holds (003's contraction after
    // shifting and fusion): max-live under that order.
    let transformed = result.as_ref().ok().and_then(|v| {
        v.outcome
            .executions
            .iter()
            .find(|c| matches!(c.order, Order::Time(_)) && c.program.statements.iter().any(|s| s.writes.iter().any(|w| w.array == target)))
    });
    if array || r.shared.is_some() || transformed.is_some() {
        // Bounded by what the run left of the record's time limit: one record never
        // takes longer than `time_limit`, run and max-live together.
        let start = Instant::now();
        let left = opts.time_limit.map(|t| t.saturating_sub(started.elapsed()));
        let limit = budget::scoped(&backend.name, left, || {
            if array {
                crate::limit::max_live(input, target, opts.size_params)
            } else if let Some(check) = transformed {
                crate::limit::max_live_under(input, target, check, opts.size_params)
            } else {
                crate::limit::max_live_shared(input, opts.size_params)
            }
        });
        r.max_live_ms = ms(start.elapsed());
        match limit {
            Ok(m) => {
                r.max_live = Some(m.value);
                r.max_live_source = Some(match m.source {
                    crate::limit::MaxLiveSource::Simulation => "simulation".into(),
                    crate::limit::MaxLiveSource::Clique => "clique".into(),
                });
            }
            Err(why) => r.max_live_source = Some(format!("unknown: {why}")),
        }
    }
    r
}

/// The exit code of a set of records: 3 if a mapping was refuted, else 2 if a solver
/// or method failed, else 1 if some run found the input malformed (an isl string of
/// the file that does not parse, a set too large to build: `error` of kind `input`) or
/// no method applied at all, else 0.
pub fn exit_code(records: &[Record]) -> i32 {
    let input = |r: &Record| r.status == Status::Error && r.error_kind.as_deref() == Some("input");
    if records.iter().any(|r| r.status == Status::Invalid) {
        crate::EXIT_VERIFICATION
    } else if records.iter().any(|r| matches!(r.status, Status::SolverError | Status::MethodError) || (r.status == Status::Error && !input(r))) {
        crate::EXIT_SOLVER
    } else if records.iter().any(input) || (!records.is_empty() && records.iter().all(|r| r.status == Status::NotApplicable)) {
        // Bad input, or nothing in it any selected method applies to.
        crate::EXIT_INPUT
    } else {
        crate::EXIT_OK
    }
}

impl Record {
    /// The record of a run: its mapping, verification, statistics and details, or its
    /// failure with the status, kind and message.
    pub fn from_run(example: &str, run: &Result<Verified, Box<RunError>>, size_params: Option<&BTreeMap<String, i64>>) -> Record {
        let ilp_stats = |ilps: &[SolveRecord]| -> Vec<IlpStat> { ilps.iter().map(IlpStat::of).collect() };
        let solver_ms = |stats: &[IlpStat]| -> Option<f64> {
            stats.iter().any(|s| s.solver_ms.is_some()).then(|| stats.iter().filter_map(|s| s.solver_ms).sum())
        };
        match run {
            Ok(v) => {
                let mut r = Record::empty(example, &v.target, &v.method, &v.backend);
                r.status = Status::Ok;
                if let Some(m) = &v.outcome.mapping {
                    r.set_mapping(m, v.size.as_ref(), size_params);
                }
                if let Some(sh) = &v.outcome.shared {
                    let separate: Vec<(String, polyalloc_formulation::ModularMapping, Claim)> =
                        v.separate.iter().map(|s| (s.array.clone(), s.mapping.clone(), Claim::from(&s.verification))).collect();
                    r.set_shared(&sh.mapping, size_params, &separate);
                }
                r.verified = true;
                r.verification = Some(Claim::from(&v.verification));
                if let Verification::Instances { reason, instances } = &v.verification {
                    r.verification_reason = Some(format!("{reason} (at {instances:?})"));
                }
                r.execution = v.execution.as_ref().map(|e| e.summary.clone());
                r.ilps = ilp_stats(&v.ilps);
                r.solve_ms = crate::record::sum_ms(r.ilps.iter().map(|s| s.ms));
                r.solver_ms = solver_ms(&r.ilps);
                r.method_ms = ms(v.method_time);
                r.verify_ms = ms(v.verify_time);
                r.conflicts_ms = ms(v.conflicts_time);
                r.details = v.outcome.details.clone();
                if v.verified_under.len() > 1 {
                    let under: Vec<serde_json::Value> =
                        v.verified_under.iter().map(|(label, ver)| serde_json::json!({"schedule": label, "verification": ver.label()})).collect();
                    r.details.insert("verified_under".into(), serde_json::Value::Array(under));
                }
                r
            }
            Err(e) => {
                let mut r = Record::empty(example, &e.target, &e.method, &e.backend);
                r.status = e.failure.status();
                r.error_kind = Some(e.failure.kind().to_string());
                r.error = Some(one_line(&e.failure.to_string()));
                if let Some(o) = &e.outcome {
                    if let Some(m) = &o.mapping {
                        // The refuted or unverifiable mapping is shown for diagnosis, with
                        // `verified: false`; it is never a result.
                        r.set_mapping(m, None, None);
                    }
                    if let Some(sh) = &o.shared {
                        r.mapping = Some(sh.mapping.to_string());
                    }
                    r.details = o.details.clone();
                }
                r.ilps = ilp_stats(&e.ilps);
                r.solve_ms = crate::record::sum_ms(r.ilps.iter().map(|s| s.ms));
                r.solver_ms = solver_ms(&r.ilps);
                r.method_ms = ms(e.method_time);
                r.verify_ms = ms(e.verify_time);
                r.conflicts_ms = ms(e.conflicts_time);
                r
            }
        }
    }
}
