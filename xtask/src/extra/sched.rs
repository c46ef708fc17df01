//! Method `schedule` (paper 002, Pugh): dependence relations, affine scheduling and
//! code rearrangement, run on the `pugh` section of an example by `polyalloc_sched`.
//!
//! Records: one per (scheduling run, backend). An example whose paper entries include
//! final schedules both respecting and ignoring broadcast "dependences" (Givens QR,
//! Appendix 5) gets two runs; the record's `array` is `-` for the run ignoring
//! broadcasts and `broadcasts-respected` for the other. `details` holds:
//! `respect_broadcast`, `schedules` (statement → schedule as printed, `i + k + 1/2`),
//! `schedule_isl` (scaled to integers) and `scale`, `trials` (every nominated
//! candidate with the violated distance), `sccs`, `seeds`, `closures_exact`, `loops`
//! (the rearranged code as text), `unimodular` (the extension per statement), and
//! `executor` (per instance: the order run — `schedule` or `loops` — and the
//! executor's verdict), `schedules_from_accesses` (the schedule found when the
//! dependences are computed from the accesses instead of taken from the paper's
//! table); `confirmed` is true when every executor run agreed with the
//! original program. The status is `ok` only when a schedule was found and confirmed.
//! The time limit is not used (the integer programs are tiny).
//!
//! Paper rows, one per `schedule` paper entry and backend: a trial is `match` when the
//! nomination tried the same candidate with the same outcome (and the exact checker's
//! verdict on it is the expected one); a final schedule is `match` when polyalloc's
//! schedule is the same rational schedule. The paper's alternative schedule of
//! Example 1 (Fig. 4, "s1 as late as possible", which the paper does not choose) does
//! not count; its verdict is still checked, and every final entry is also run by the
//! executor at every instance (in the row's note).

use super::{ExampleMethod, ExtraRun};
use crate::results::PaperRow;
use polyalloc::run::Backend;
use polyalloc::{Record, Status};
use polyalloc_sched::example::{self, PaperSchedule, PughExample, Run};
use polyalloc_program::exec::Storage;
use polyalloc_suite::Example;
use serde_json::{json, Value};
use std::time::{Duration, Instant};

/// The `schedule` method.
pub struct Schedule;

fn run_array(rb: bool) -> &'static str {
    if rb {
        "broadcasts-respected"
    } else {
        "-"
    }
}

fn details(run: &Run) -> Value {
    let trials: Vec<Value> = run
        .outcome
        .trials
        .iter()
        .map(|t| {
            json!({
                "statement": t.stmt,
                "schedule": t.text,
                "ok": t.violated.is_none(),
                "violated_distance": t.violated.as_ref().map(|v| v.distance.clone()),
                "broadcast": t.violated.as_ref().map(|v| v.broadcast),
                "from": t.violated.as_ref().map(|v| v.source.clone()),
            })
        })
        .collect();
    let executor: Vec<Value> = run
        .confirmations
        .iter()
        .map(|c| json!({"params": c.params, "order": c.order, "ok": c.ok, "summary": c.summary}))
        .collect();
    json!({
        "respect_broadcast": run.respect_broadcast,
        "schedules": run.texts,
        "scale": run.outcome.schedule.scale,
        "trials": trials,
        "sccs": run.outcome.sccs,
        "seeds": run.outcome.seeds,
        "closures_exact": run.outcome.closures_exact,
        "loops": run.code.text(),
        "unimodular": run.code.unimodular,
        "executor": executor,
        "confirmed": run.confirmed(),
        "schedules_from_accesses": run.from_accesses,
    })
}

fn printed(e: &PaperSchedule) -> String {
    e.printed
        .iter()
        .map(|(s, t)| format!("{s}: {t}"))
        .collect::<Vec<_>>()
        .join("; ")
}

fn ours(run: &Run, stmts: &[String]) -> String {
    stmts
        .iter()
        .filter_map(|s| run.texts.get(s).map(|t| format!("{s}: {t}")))
        .collect::<Vec<_>>()
        .join("; ")
}

fn base_row(ex: &Example, e: &PaperSchedule, backend: &str) -> PaperRow {
    PaperRow {
        paper_mapping: Some(printed(e)),
        expect: Some(if e.expect_valid { "valid" } else { "invalid" }.into()),
        verdict_ok: false,
        backend: Some(backend.to_string()),
        result: "failed".into(),
        counts: true,
        ..PaperRow::new(&ex.id, &ex.source.paper, Some(e.location.clone()), run_array(e.respect_broadcast), "schedule")
    }
}

/// The executor on a paper entry's schedule at every instance.
fn confirm_entry(pe: &PughExample, e: &PaperSchedule) -> Result<String, String> {
    if e.statements.len() != pe.problem.statements.len() {
        return Ok(String::new());
    }
    let exec = pe.executor().map_err(|x| x.to_string())?;
    let names: Vec<String> = pe.problem.statements.iter().map(|s| s.name.clone()).collect();
    let mut oks = 0;
    for inst in &pe.instances {
        let rep = exec
            .compare_schedule(
                inst,
                &|k, it| Ok(vec![e.schedule.time(&names[k], inst, it)?]),
                &Storage::new(),
            )
            .map_err(|x| x.to_string())?;
        if !rep.ok() {
            return Err(format!("executor at {inst:?}: {}", rep.summary()));
        }
        oks += 1;
    }
    Ok(format!(
        "executor: the paper's schedule computes the original values at {oks} instances"
    ))
}

fn rows(ex: &Example, pe: &PughExample, runs: &[Run], b: &Backend) -> Vec<PaperRow> {
    let (backend, solver) = (b.name.as_str(), b.solver.as_ref());
    let mut out = Vec::new();
    for e in &pe.entries {
        let mut row = base_row(ex, e, backend);
        match example::paper_verdict(pe, e, solver) {
            Ok(v) => {
                row.paper_verdict = Some(if v { "valid (proven)" } else { "invalid (proven)" }.into());
                row.verdict_ok = v == e.expect_valid;
            }
            Err(x) => row.paper_verdict = Some(format!("error: {x}")),
        }
        let Some(run) = runs.iter().find(|r| r.respect_broadcast == e.respect_broadcast) else {
            row.result = "failed".into();
            row.note = Some("no scheduling run with this broadcast setting".into());
            out.push(row);
            continue;
        };
        if e.role == "trial" {
            let stmt = e.statements.first().cloned().unwrap_or_default();
            let cand = e.schedule.get(&stmt).map(|s| {
                s.coeffs
                    .iter()
                    .map(|c| c / e.schedule.scale.max(1))
                    .collect::<Vec<i64>>()
            });
            let trial = run
                .outcome
                .trials
                .iter()
                .find(|t| t.stmt == stmt && Some(&t.coeffs) == cand.as_ref());
            row.polyalloc_mapping = trial.map(|t| {
                format!(
                    "{stmt}: {} ({})",
                    t.text,
                    match &t.violated {
                        None => "succeeds".to_string(),
                        Some(v) => format!(
                            "fails, distance {:?}{}",
                            v.distance,
                            if v.broadcast { " (broadcast)" } else { "" }
                        ),
                    }
                )
            });
            let same = trial.is_some_and(|t| t.violated.is_none() == e.expect_valid);
            row.result = if same { "match" } else { "differ" }.into();
            row.reproduced = same && row.verdict_ok;
            if let (Some(t), Some(pd)) = (trial, &e.violated_distance) {
                if let Some(v) = &t.violated {
                    if &v.distance != pd {
                        row.note = Some(format!("paper names distance {pd:?}, polyalloc {:?}", v.distance));
                    }
                }
            }
        } else {
            row.polyalloc_mapping = Some(ours(run, &e.statements));
            let same = run.outcome.schedule.same_as(&e.schedule);
            row.result = if same { "match" } else { "differ" }.into();
            let alternative = e.variant.as_deref().is_some_and(|v| v.contains("late"));
            row.counts = !alternative;
            row.reproduced = same && row.verdict_ok && run.confirmed();
            let mut notes = Vec::new();
            if alternative {
                notes.push(
                    "the paper's alternative, not its choice: polyalloc picks unary coefficients like the paper"
                        .to_string(),
                );
            }
            match confirm_entry(pe, e) {
                Ok(s) if !s.is_empty() => notes.push(s),
                Ok(_) => {}
                Err(x) => notes.push(x),
            }
            if let Some((lo, hi)) = &e.time_range {
                notes.push(format!("paper's time loop {lo} .. {hi}"));
            }
            row.note = Some(notes.join("; "));
        }
        out.push(row);
    }
    out
}

impl ExampleMethod for Schedule {
    fn names(&self) -> &'static [&'static str] {
        &["schedule"]
    }

    fn applies(&self, ex: &Example) -> bool {
        ex.extra.contains_key("pugh")
    }

    fn run(&self, ex: &Example, methods: &[&str], backends: &[Backend], _time_limit: Option<Duration>) -> ExtraRun {
        let mut out = ExtraRun::default();
        if !methods.contains(&"schedule") {
            return out;
        }
        let pe = match PughExample::from_example(ex) {
            Ok(p) => p,
            Err(e) => {
                for b in backends {
                    let mut r = Record::empty(&ex.id, "-", "schedule", &b.name);
                    r.error = Some(e.to_string().replace('\n', " "));
                    out.records.push(r);
                }
                return out;
            }
        };
        for b in backends {
            let start = Instant::now();
            let res = example::reproduce(&pe, b.solver.as_ref());
            let elapsed = polyalloc::record::ms(start.elapsed());
            match res {
                Ok(runs) => {
                    for run in &runs {
                        let mut r = Record::empty(&ex.id, run_array(run.respect_broadcast), "schedule", &b.name);
                        r.params = pe.params.clone();
                        r.method_ms = elapsed;
                        r.solve_ms = elapsed;
                        r.status = if run.confirmed() || pe.program.is_none() {
                            Status::Ok
                        } else {
                            Status::Invalid
                        };
                        r.verified = run.confirmed();
                        r.verification = run.confirmed().then(|| "instances".to_string());
                        if let Value::Object(m) = details(run) {
                            r.details = m.into_iter().collect();
                        }
                        r.details.insert(
                            "schedule_isl".into(),
                            Value::String(run.outcome.schedule.to_isl(&pe.problem)),
                        );
                        out.records.push(r);
                    }
                    out.paper.extend(rows(ex, &pe, &runs, b));
                }
                Err(e) => {
                    let mut r = Record::empty(&ex.id, "-", "schedule", &b.name);
                    r.status = Status::SolverError;
                    r.error = Some(e.to_string().replace('\n', " "));
                    r.method_ms = elapsed;
                    out.records.push(r);
                    out.paper.extend(rows(ex, &pe, &[], b));
                }
            }
        }
        out
    }
}
