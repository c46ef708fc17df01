//! Paper rows of paper Pugh 1991: the `schedule` entries of the `pugh-*` files, side by
//! side with the records of the registry's method `schedule` (`polyalloc_sched::method`).
//!
//! The method runs through `polyalloc::run_record` like every other method: one record
//! per (scheduling run, backend), the record's `array` being the run (`-` ignoring
//! broadcast "dependences", `broadcasts-respected` respecting them; Givens QR,
//! Appendix 5, has both), its `details` a `polyalloc_sched::ScheduleDetails` (the
//! schedule per statement as printed and scaled, the trials, components, seeds, the
//! rearranged loops, the unimodular extensions, the schedule found from the dependences
//! computed from the accesses), its `execution` the facade's runs of the program under
//! the schedule and under the generated loops at every instance. This module only reads
//! those records back (typed) and compares them with the paper.
//!
//! Rows, one per `schedule` paper entry and backend: a trial is `match` when the
//! nomination tried the same candidate with the same outcome (and the exact checker's
//! verdict on it is the expected one); a final schedule is `match` when polyalloc's
//! schedule is the same rational schedule, and it is reproduced when the record is
//! also verified (the facade's executions computed the original values). The paper's
//! alternative schedule of Example 1 (Fig. 4, "s1 as late as possible", which the
//! paper does not choose) does not count. Comparisons of the paper's own answer, done
//! here: the exact checker's verdict on every entry's schedule (with the first
//! backend), and for every final entry a run of the program under the paper's
//! schedule at every instance with the one executor (in the row's note).

use super::PaperModule;
use crate::results::PaperRow;
use polyalloc::run::{Backend, Budgeted};
use polyalloc::Input;
use polyalloc::{Record, Status};
use polyalloc_program::exec::{Executor, Storage};
use polyalloc_sched::example::{self, PaperSchedule, PughExample};
use polyalloc_sched::method::target_name;
use polyalloc_sched::ScheduleDetails;
use polyalloc_suite::Example;
use std::time::Duration;

/// The paper rows of the method `schedule`.
pub struct Sched;

const METHOD: &str = "schedule";

fn printed(e: &PaperSchedule) -> String {
    e.printed.iter().map(|(s, t)| format!("{s}: {t}")).collect::<Vec<_>>().join("; ")
}

fn ours(d: &ScheduleDetails, stmts: &[String]) -> String {
    stmts.iter().filter_map(|s| d.schedules.get(s).map(|t| format!("{s}: {t}"))).collect::<Vec<_>>().join("; ")
}

fn base_row(ex: &Example, e: &PaperSchedule) -> PaperRow {
    PaperRow {
        paper_mapping: Some(printed(e)),
        expect: Some(if e.expect_valid { "valid" } else { "invalid" }.into()),
        verdict_ok: false,
        result: "failed".into(),
        counts: true,
        ..PaperRow::new(&ex.id, &ex.source.paper, Some(e.location.clone()), target_name(e.respect_broadcast), METHOD)
    }
}

/// The executor on a paper entry's schedule at every instance (a comparison of the
/// paper's answer, not a verification of polyalloc's).
fn confirm_entry(pe: &PughExample, e: &PaperSchedule) -> Result<String, String> {
    if e.statements.len() != pe.program.statements.len() {
        return Ok(String::new());
    }
    let exec = Executor::with_hash_bodies(pe.program.clone()).with_reduction_arrays(pe.reduction_arrays.clone());
    let names: Vec<String> = pe.program.statements.iter().map(|s| s.name.clone()).collect();
    for inst in &pe.instances {
        let rep =
            exec.compare_schedule(inst, &|k, it| Ok(vec![e.schedule.time(&names[k], inst, it)?]), &Storage::new()).map_err(|x| x.to_string())?;
        if !rep.ok() {
            return Err(format!("executor at {inst:?}: {}", rep.summary()));
        }
    }
    Ok(format!("executor: the paper's schedule computes the original values at {} instances", pe.instances.len()))
}

/// The trial of `d` that nominated the paper entry's candidate.
fn find_trial<'a>(d: &'a ScheduleDetails, e: &PaperSchedule) -> Option<&'a polyalloc_sched::TrialDetails> {
    let stmt = e.statements.first()?;
    let cand: Vec<i64> = e.schedule.get(stmt)?.coeffs.iter().map(|c| c / e.schedule.scale.max(1)).collect();
    d.trials.iter().find(|t| &t.statement == stmt && t.coeffs == cand)
}

fn trial_row(row: &mut PaperRow, e: &PaperSchedule, d: &ScheduleDetails) {
    let trial = find_trial(d, e);
    row.polyalloc_mapping = trial.map(|t| {
        let outcome = match &t.violated_distance {
            None => "succeeds".to_string(),
            Some(v) => format!("fails, distance {v:?}{}", if t.broadcast == Some(true) { " (broadcast)" } else { "" }),
        };
        format!("{}: {} ({outcome})", t.statement, t.schedule)
    });
    let same = trial.is_some_and(|t| t.ok == e.expect_valid);
    row.result = if same { "match" } else { "differ" }.into();
    row.reproduced = same && row.verdict_ok;
    if let (Some(Some(v)), Some(pd)) = (trial.map(|t| &t.violated_distance), &e.violated_distance) {
        if v != pd {
            row.note = Some(format!("paper names distance {pd:?}, polyalloc {v:?}"));
        }
    }
}

impl PaperModule for Sched {
    fn names(&self) -> &'static [&'static str] {
        &[METHOD]
    }

    fn applies(&self, ex: &Example) -> bool {
        ex.extra.contains_key("pugh")
    }

    fn paper_rows(&self, input: &Input, selected: &[&str], records: &[Record], backends: &[Backend], time_limit: Option<Duration>) -> Vec<PaperRow> {
        let ex = &input.example;
        if !selected.contains(&METHOD) {
            return Vec::new();
        }
        let pe = match PughExample::from_example(ex) {
            Ok(pe) => pe,
            Err(err) => {
                // Without the section no entry can be compared: one failed row per entry.
                return ex
                    .paper
                    .iter()
                    .filter(|p| p.method == METHOD)
                    .map(|p| PaperRow {
                        result: "failed".into(),
                        counts: true,
                        note: Some(err.to_string().replace('\n', " ")),
                        ..PaperRow::new(&ex.id, &ex.source.paper, p.location.clone(), "-", METHOD)
                    })
                    .collect();
            }
        };
        let mut out = Vec::new();
        for e in &pe.entries {
            let mut base = base_row(ex, e);
            // The checker's verdict on the paper's schedule, with the first backend.
            if let Some(b) = backends.first() {
                let solver = Budgeted::new(b.solver.as_ref(), time_limit);
                match example::paper_verdict(&pe, e, &solver) {
                    Ok(v) => {
                        base.paper_verdict = Some(if v { "valid (proven)" } else { "invalid (proven)" }.into());
                        base.verdict_ok = v == e.expect_valid;
                    }
                    Err(x) => base.paper_verdict = Some(format!("error: {x}")),
                }
            }
            let alternative = e.role != "trial" && e.variant.as_deref().is_some_and(|v| v.contains("late"));
            let mut final_notes = Vec::new();
            if e.role != "trial" {
                if alternative {
                    final_notes.push("the paper's alternative, not its choice: polyalloc picks unary coefficients like the paper".to_string());
                }
                match confirm_entry(&pe, e) {
                    Ok(s) if !s.is_empty() => final_notes.push(s),
                    Ok(_) => {}
                    Err(x) => final_notes.push(x),
                }
                if let Some((lo, hi)) = &e.time_range {
                    final_notes.push(format!("paper's time loop {lo} .. {hi}"));
                }
            }
            for b in backends {
                let mut row = PaperRow { backend: Some(b.name.clone()), ..base.clone() };
                let rec = records
                    .iter()
                    .find(|r| r.example == ex.id && r.array == target_name(e.respect_broadcast) && r.method == METHOD && r.backend == b.name);
                let details = rec.and_then(|r| ScheduleDetails::from_details(&r.details).ok());
                let Some(d) = details else {
                    row.note = Some(match rec {
                        Some(r) => format!("no schedule: {}", r.error.as_deref().unwrap_or(r.status.label())),
                        None => "no scheduling run with this broadcast setting".into(),
                    });
                    out.push(row);
                    continue;
                };
                if e.role == "trial" {
                    trial_row(&mut row, e, &d);
                } else {
                    row.polyalloc_mapping = Some(ours(&d, &e.statements));
                    let same = d.schedule.same_as(&e.schedule);
                    let confirmed = rec.is_some_and(|r| r.status == Status::Ok && r.verified);
                    row.result = if same { "match" } else { "differ" }.into();
                    row.counts = !alternative;
                    row.reproduced = same && row.verdict_ok && confirmed;
                    let mut notes = final_notes.clone();
                    if let Some(r) = rec.filter(|_| !confirmed) {
                        notes.push(format!("polyalloc's schedule not confirmed: {}", r.error.as_deref().unwrap_or(r.status.label())));
                    }
                    row.note = Some(notes.join("; "));
                }
                out.push(row);
            }
        }
        out
    }
}
