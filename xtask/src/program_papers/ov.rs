//! Occupancy vectors (paper Thies et al. 2007): the paper rows of the `ov-*` files, side by side with
//! the records of the registry's methods `ov`, `aov` and `uov` (`polyalloc-alloc-ov`,
//! which documents them and their typed details [`OvDetails`], [`AovDetails`],
//! [`UovDetails`]). Nothing here runs a method: the rows are built from the records'
//! details, deserialised back into those structs.
//!
//! Paper rows: an `ov`/`aov` entry **matches** when the vector is the paper's, the
//! hyperplanes equal the paper's up to sign and the size equals the printed size or the
//! entry's `size_exact` (the number of cells the paper's own printed mapping uses, see
//! bench-suite/README.md section 7); it has the **same size** when only the vector and
//! size agree. For an `ov` entry whose vector is the `ov` record's `strict_ov` (Fig. 7:
//! the vector when a value cannot be read in the step it is overwritten), the strict
//! vector's mapping is compared, and verified here with the exact checker under the
//! entry's schedule. A `uov` entry matches when the vector agrees. A `schedule` entry
//! with a `schedule` matches when the exact legality test (the `ov` record's
//! `schedule_legality`) gives the expected verdict; one with `given_ov` matches when the
//! linearised constraints (the `ov` record's `valid_schedules`) define the same set as
//! the printed ones. `schedule` entries of these files are compared when `ov` is
//! selected. The checker's verdict on the paper's own mapping is computed here, with the
//! first backend, under the entry's schedule (`ov`) or under the program's schedule and
//! every schedule of `ov.legal_schedules` (`aov`).

use super::PaperModule;
use crate::results::PaperRow;
use polyalloc::run::{Backend, Budgeted};
use polyalloc::Input;
use polyalloc::{Record, Status};
use polyalloc_alloc::{AllocError, Problem, Verification};
use polyalloc_alloc_ov::{problem_under_input, read_details, AovDetails, OvDetails, OvSection, ScheduleText, UovDetails};
use polyalloc_formulation::{AffExpr, ModularMapping, Polynomial, StorageRow};
use polyalloc_ilp::Solver;
use polyalloc_suite::Example;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Duration;

/// The paper rows of the occupancy-vector files.
pub struct OvPaper;

/// Conflict sets of one example per (array, schedule), taken from the input: the
/// methods' runs computed most of them already (`problem_under_input` shares them).
struct Problems<'a> {
    input: &'a Input,
}

impl Problems<'_> {
    fn get(&self, _ex: &Example, array: &str, sched: &ScheduleText) -> Result<Problem, String> {
        problem_under_input(self.input, array, sched).map_err(|e| e.to_string())
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(300).collect()
}

fn vec_of(v: Option<&Value>) -> Option<Vec<i64>> {
    v?.as_array()?.iter().map(Value::as_i64).collect()
}

fn typed<T: DeserializeOwned>(v: Option<&Value>) -> Option<T> {
    v.and_then(|v| serde_json::from_value(v.clone()).ok())
}

fn details<T: DeserializeOwned>(rec: &Record) -> Result<T, String> {
    read_details(&rec.details).map_err(|e| format!("{} record details: {e}", rec.method))
}

fn same_rows(p: &[Vec<i64>], r: &[Vec<i64>]) -> bool {
    p.len() == r.len() && p.iter().zip(r).all(|(a, b)| a == b || (a.len() == b.len() && a.iter().zip(b).all(|(x, y)| *x == -*y)))
}

fn poly(s: Option<&str>) -> Option<Polynomial> {
    s.and_then(|s| Polynomial::parse(s).ok())
}

/// The program's own schedule (statement -> isl relation) as the file gives it.
fn program_schedule(ex: &Example) -> ScheduleText {
    ex.program.as_ref().map(|p| p.statements.iter().map(|s| (s.name.clone(), s.schedule.clone())).collect()).unwrap_or_default()
}

/// The schedules an `aov` entry is checked under: the program's and the file's legal
/// schedules, without repetition.
fn aov_schedules(ex: &Example) -> Vec<ScheduleText> {
    let mut out = vec![program_schedule(ex)];
    if let Ok(Some(section)) = OvSection::of(ex) {
        for l in section.legal_schedules {
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }
    out
}

/// A mapping over the array of `problem` from hyperplanes and moduli (polynomial text).
fn mapping_of(problem: &Problem, hyperplanes: &[Vec<i64>], moduli: &[String]) -> Result<ModularMapping, String> {
    let psp = problem.param_space();
    let rows = hyperplanes
        .iter()
        .zip(moduli)
        .map(|(h, m)| Ok(StorageRow { hyperplane: h.clone(), modulus: Some(AffExpr::parse(&psp, m).map_err(|e| e.to_string())?) }))
        .collect::<Result<Vec<_>, String>>()?;
    let params: Vec<&str> = problem.params().iter().map(String::as_str).collect();
    ModularMapping::new(&params, problem.array_tuple(), rows).map_err(|e| e.to_string())
}

/// The checker's verdict on a paper's own mapping.
enum PaperVerdict {
    /// Valid under every schedule.
    Valid(Verification),
    /// Refuted under one schedule (the refutation).
    Invalid(String),
    /// The check could not be made (no mapping, a conflict set or checker failure).
    Error(String),
}

/// The checker's verdict on the paper's own mapping of entry `k` under `scheds`.
fn paper_verdict(ex: &Example, k: usize, array: &str, scheds: &[ScheduleText], problems: &Problems, solver: &dyn Solver) -> (Option<String>, bool) {
    let e = &ex.paper[k];
    let mut verdict = PaperVerdict::Valid(Verification::Proven);
    for s in scheds {
        let v = problems.get(ex, array, s).map_err(|e| PaperVerdict::Error(e.to_string())).and_then(|p| match ex.paper_mapping(k, &p.conflicts) {
            Ok(Some(mp)) => polyalloc_alloc::verify(&p, &mp, solver, &e.method).map_err(|e| match e {
                AllocError::Invalid { refutation, .. } => PaperVerdict::Invalid(first_line(&refutation.to_string())),
                other => PaperVerdict::Error(first_line(&other.to_string())),
            }),
            Ok(None) => Err(PaperVerdict::Error("no mapping".into())),
            Err(e) => Err(PaperVerdict::Error(e.to_string())),
        });
        match v {
            Ok(Verification::Proven) => {}
            Ok(x) => verdict = PaperVerdict::Valid(x),
            Err(x) => {
                verdict = x;
                break;
            }
        }
    }
    let label = match &verdict {
        PaperVerdict::Valid(v) => format!("valid ({})", v.label()),
        PaperVerdict::Invalid(why) => format!("invalid: {why}"),
        PaperVerdict::Error(why) => format!("error: {why}"),
    };
    // The paper's expectation (`valid` or `invalid`) met by a verdict of the checker; a
    // check that could not be made meets neither.
    let ok = match (e.expect.as_deref(), &verdict) {
        (None, _) => true,
        (Some(_), PaperVerdict::Error(_)) => false,
        (Some(x), PaperVerdict::Valid(_)) => x == "valid",
        (Some(x), PaperVerdict::Invalid(_)) => x != "valid",
    };
    (Some(label), ok)
}

/// What one `ov`/`aov`/`uov` record says for a paper entry.
struct Ours {
    vector: Option<Vec<i64>>,
    mapping: Option<String>,
    size: Option<String>,
    hyperplanes: Vec<Vec<i64>>,
    verified: bool,
    note: Option<String>,
}

impl Ours {
    fn of(ex: &Example, entry: usize, rec: &Record, problems: &Problems, solver: &dyn Solver) -> Result<Ours, String> {
        let e = &ex.paper[entry];
        let base = |vector: Vec<i64>, printed: String| Ours {
            vector: Some(vector),
            mapping: Some(printed),
            size: rec.size.clone(),
            hyperplanes: rec.hyperplanes.clone(),
            verified: rec.verified,
            note: None,
        };
        Ok(match e.method.as_str() {
            "ov" => {
                let d: OvDetails = details(rec)?;
                let paper_vec = vec_of(e.extra.get("ov"));
                if Some(&d.ov) != paper_vec.as_ref() && Some(&d.strict_ov) == paper_vec.as_ref() {
                    // The strict-semantics vector of Fig. 7 (`(2, 0)`), checked here under
                    // the entry's schedule.
                    let sched: ScheduleText = typed(e.extra.get("schedule")).unwrap_or_else(|| program_schedule(ex));
                    let verified = problems
                        .get(ex, &rec.array, &sched)
                        .and_then(|p| Ok((mapping_of(&p, &d.strict_hyperplanes, &d.strict_moduli)?, p)))
                        .is_ok_and(|(m, p)| polyalloc_alloc::verify(&p, &m, solver, "ov").is_ok());
                    Ours {
                        vector: Some(d.strict_ov),
                        mapping: Some(d.strict_mapping),
                        size: Some(d.strict_size),
                        hyperplanes: d.strict_hyperplanes,
                        verified,
                        note: Some("strict storage constraint (a value is not read in the step it is overwritten)".to_string()),
                    }
                } else {
                    base(d.ov, d.mapping.printed_paper)
                }
            }
            "aov" => {
                let d: AovDetails = details(rec)?;
                base(d.aov, d.mapping.printed_paper)
            }
            _ => {
                let d: UovDetails = details(rec)?;
                base(d.uov, d.mapping.printed_paper)
            }
        })
    }
}

impl PaperModule for OvPaper {
    fn names(&self) -> &'static [&'static str] {
        &["ov", "aov", "uov"]
    }

    fn applies(&self, ex: &Example) -> bool {
        ex.extra.contains_key("ov")
    }

    fn paper_rows(&self, input: &Input, selected: &[&str], records: &[Record], backends: &[Backend], time_limit: Option<Duration>) -> Vec<PaperRow> {
        let ex = &input.example;
        let problems = Problems { input };
        // The checker's verdict on the paper's own mappings (first backend).
        let mut verdicts: BTreeMap<usize, (Option<String>, bool)> = BTreeMap::new();
        if let Some(b) = backends.first() {
            for (k, e) in ex.paper.iter().enumerate() {
                if !(e.method == "ov" || e.method == "aov") || !selected.contains(&e.method.as_str()) || e.hyperplanes.is_none() {
                    continue;
                }
                let Some(array) = e.array.clone() else { continue };
                let scheds =
                    if e.method == "ov" { vec![typed(e.extra.get("schedule")).unwrap_or_else(|| program_schedule(ex))] } else { aov_schedules(ex) };
                let solver = Budgeted::new(b.solver.as_ref(), time_limit);
                verdicts.insert(k, paper_verdict(ex, k, &array, &scheds, &problems, &solver));
            }
        }
        let mut rows = Vec::new();
        for (k, e) in ex.paper.iter().enumerate() {
            let owner = if e.method == "schedule" { "ov" } else { e.method.as_str() };
            if !selected.contains(&owner) {
                continue;
            }
            let array = e.array.clone().unwrap_or_else(|| "-".into());
            let (paper_verdict, verdict_ok) = verdicts.get(&k).cloned().unwrap_or((None, true));
            let counts =
                (e.method == "ov" || e.method == "aov") && e.hyperplanes.is_some() && e.moduli.is_some() && e.expect.as_deref() != Some("invalid");
            let base = PaperRow {
                paper_mapping: e.mapping.clone(),
                paper_size: e.size.clone(),
                paper_hyperplanes: e.hyperplanes.clone(),
                paper_moduli: e.moduli.clone(),
                expect: e.expect.clone(),
                paper_verdict,
                verdict_ok,
                result: "failed".into(),
                counts,
                note: e.note.clone(),
                ..PaperRow::new(&ex.id, &ex.source.paper, e.location.clone(), &array, &e.method)
            };
            for b in backends {
                let mut row = PaperRow { backend: Some(b.name.clone()), ..base.clone() };
                let mut extra_note = None;
                match e.method.as_str() {
                    "ov" | "aov" | "uov" => {
                        let Some(rec) = records.iter().find(|r| r.array == array && r.method == e.method && r.backend == b.name) else {
                            rows.push(row);
                            continue;
                        };
                        if rec.status != Status::Ok {
                            row.polyalloc_mapping = rec.error.clone();
                            rows.push(row);
                            continue;
                        }
                        let solver = Budgeted::new(b.solver.as_ref(), time_limit);
                        let ours = match Ours::of(ex, k, rec, &problems, &solver) {
                            Ok(o) => o,
                            Err(err) => {
                                row.polyalloc_mapping = Some(err);
                                rows.push(row);
                                continue;
                            }
                        };
                        extra_note = ours.note.clone();
                        let paper_vec = vec_of(e.extra.get("ov"));
                        row.polyalloc_mapping =
                            Some(format!("v = {:?}: {}", ours.vector.clone().unwrap_or_default(), ours.mapping.clone().unwrap_or_default()));
                        row.polyalloc_size = ours.size.clone();
                        let same_vec = ours.vector.is_some() && ours.vector == paper_vec;
                        row.result = if !same_vec {
                            "differ".into()
                        } else if e.method == "uov" || e.size.is_none() {
                            "match".into()
                        } else {
                            let ps = poly(e.size.as_deref());
                            let exact = poly(e.extra.get("size_exact").and_then(Value::as_str));
                            let rs = poly(ours.size.as_deref());
                            let size_ok = rs.is_some() && (rs == ps || (exact.is_some() && rs == exact));
                            if rs.is_some() && rs == exact && rs != ps {
                                extra_note = Some(format!(
                                    "the printed size {} counts one cell more per dimension than the paper's mapping uses ({}); polyalloc's size is the exact range",
                                    e.size.clone().unwrap_or_default(),
                                    e.extra.get("size_exact").and_then(Value::as_str).unwrap_or("")
                                ));
                            }
                            match (size_ok, e.hyperplanes.as_ref()) {
                                (true, Some(h)) if same_rows(h, &ours.hyperplanes) => "match".into(),
                                (true, _) => "same size".into(),
                                _ => "differ".into(),
                            }
                        };
                        row.reproduced = counts && verdict_ok && ours.verified && (row.result == "match" || row.result == "same size");
                    }
                    _ => schedule_row(ex, e, records, &b.name, &mut row),
                }
                if let Some(n) = extra_note {
                    let mut all: Vec<String> = base.note.iter().cloned().collect();
                    all.push(n);
                    row.note = Some(all.join(" "));
                }
                rows.push(row);
            }
        }
        rows
    }
}

/// A `schedule` entry of an occupancy-vector file, from the `ov` records of `backend`.
fn schedule_row(ex: &Example, e: &polyalloc_suite::PaperResult, records: &[Record], backend: &str, row: &mut PaperRow) {
    let ov: Vec<(&Record, OvDetails)> = records
        .iter()
        .filter(|r| r.example == ex.id && r.method == "ov" && r.backend == backend)
        .filter_map(|r| Some((r, details(r).ok()?)))
        .collect();
    if let Some(s) = typed::<ScheduleText>(e.extra.get("schedule")) {
        match ov.iter().find_map(|(_, d)| d.schedule_legality.iter().find(|l| l.schedule == s)) {
            Some(l) => {
                let verdict = if l.legal { "valid" } else { "invalid" };
                row.polyalloc_mapping = Some(format!("schedule is {verdict} (exact test of the linearised schedule constraints)"));
                row.result = if e.expect.as_deref() == Some(verdict) { "match".into() } else { "differ".into() };
            }
            None => row.polyalloc_mapping = Some("no `ov` record tested this schedule".into()),
        }
    } else if let Some(given) = typed::<BTreeMap<String, Vec<i64>>>(e.extra.get("given_ov")) {
        let found = ov.iter().filter(|(r, _)| given.contains_key(&r.array)).find_map(|(_, d)| d.valid_schedules.iter().find(|v| v.given_ov == given));
        match found {
            Some(vs) => {
                row.polyalloc_mapping = Some(format!(
                    "{}; best: {} (latency {})",
                    vs.constraints.join(", "),
                    vs.best_schedule.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", "),
                    vs.latency
                ));
                row.result = if vs.equal_paper { "match".into() } else { "differ".into() };
            }
            None => row.polyalloc_mapping = Some("no `ov` record computed the schedules for these vectors".into()),
        }
        row.array = given.keys().cloned().collect::<Vec<_>>().join(",");
    }
}
