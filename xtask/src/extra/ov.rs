//! Occupancy vectors (paper 000, `polyalloc-alloc-ov`): records `ov`, `aov`, `uov` and
//! the paper rows of the `ov-*` files.
//!
//! Records, one per (array, method, backend); `ov` and `aov` also carry `paper_ilp`,
//! the vector of the paper's own integer program (Sec. 4.6.1 / 4.6.3, solved through the
//! backend) and whether it passes the exact test. Records:
//! * `ov`: Problem 2.1 for the schedule of the file's `ov` paper entry of that array
//!   (else the program's schedule); the induced mapping is verified under it.
//!   `details`: `ov`, `schedule`, `manhattan`, `evenness`, `candidates`, `printed_paper`,
//!   `projection`, `modulation`, `strict_ov` / `strict_mapping` / `strict_size` /
//!   `strict_verified` (the vector when a value cannot be read in the step it is
//!   overwritten, Fig. 7), `schedule_constraints` (the linearised schedule constraints)
//!   and `schedule_constraints_equal_paper`, and for arrays of a `given_ov` paper entry
//!   `valid_schedules` (Problem 2.2: constraints, equivalence with the printed ones, best
//!   schedule, latency).
//! * `aov`: Problem 2.3; the mapping is verified under the program's schedule and every
//!   schedule of `ov.legal_schedules`. `details`: `aov`, `manhattan`, `evenness`,
//!   `candidates`, `printed_paper`, `verified_under`, `is_uov` (for stencils).
//! * `uov`: the shortest universal occupancy vector (stencils only, else
//!   `not-applicable`); `details`: `uov`, `distances`, `aov`, `aov_is_uov`. Its mapping
//!   is verified under the program's schedule only: under some legal schedules (Example
//!   1, `3*i + 2*j`) the symbolic checker does not conclude on `(j, i mod 3)` and the
//!   fallback enumeration of the instances takes tens of seconds. Its independence of
//!   the schedule is tested instead by simulating random legal execution orders
//!   (`tests/occupancy_vectors.rs`).
//!
//! Paper rows: an `ov`/`aov` entry **matches** when the vector is the paper's, the
//! hyperplanes equal the paper's up to sign and the size equals the printed size or the
//! entry's `size_exact` (the number of cells the paper's own printed mapping uses, see
//! bench-suite/README.md section 7); it has the **same size** when only the vector and
//! size agree. A `uov` entry matches when the vector agrees. A `schedule` entry with a
//! `schedule` matches when the exact legality test gives the expected verdict; one with
//! `given_ov` matches when our linearised constraints define the same set as the printed
//! ones. The checker's verdict on the paper's own mapping is computed under the entry's
//! schedule (`ov`) or every legal schedule (`aov`).

use super::{ExampleMethod, ExtraRun};
use polyalloc_alloc::{AllocError, Problem, Verification};
use polyalloc_alloc_ov::{induced, print, problem_under, uov, DependenceSource, Engine, Induced, OvError, OvOptions, Setup};
use polyalloc::record::{ms, Status};
use crate::results::PaperRow;
use polyalloc::run::{Backend, Budgeted};
use polyalloc::Record;
use polyalloc_formulation::Polynomial;
use polyalloc_ilp::Solver;
use polyalloc_suite::Example;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

/// The occupancy-vector methods.
pub struct OvMethod;

type Sched = BTreeMap<String, String>;

/// (array, printed mapping, schedule) of one verification.
type VerifyKey = (String, String, Vec<(String, String)>);

/// (array, schedule) of one conflict set.
type ProblemKey = (String, Vec<(String, String)>);

/// Conflict sets per (array, schedule), shared by every backend of one example (they do
/// not depend on the solver).
#[derive(Default)]
struct Problems {
    map: RefCell<HashMap<ProblemKey, Result<Problem, String>>>,
}

impl Problems {
    fn get(&self, ex: &Example, array: &str, sched: &Sched) -> Result<Problem, String> {
        let key = (array.to_string(), sched.iter().map(|(a, b)| (a.clone(), b.clone())).collect());
        if let Some(p) = self.map.borrow().get(&key) {
            return p.clone();
        }
        let p = problem_under(ex, array, sched).map_err(|e| e.to_string());
        self.map.borrow_mut().insert(key, p.clone());
        p
    }
}

/// Verifications already done in one run of one backend (same mapping, same schedule).
struct Cache<'a> {
    problems: &'a Problems,
    verified: RefCell<HashMap<VerifyKey, Result<Verification, String>>>,
}

impl<'a> Cache<'a> {
    fn new(problems: &'a Problems) -> Self {
        Cache { problems, verified: RefCell::new(HashMap::new()) }
    }

    fn verify(&self, ex: &Example, array: &str, ind: &Induced, sched: &Sched, solver: &dyn Solver, method: &str) -> Result<Verification, String> {
        let key = (array.to_string(), ind.mapping.to_string(), sched.iter().map(|(a, b)| (a.clone(), b.clone())).collect());
        if let Some(v) = self.verified.borrow().get(&key) {
            return v.clone();
        }
        let v = self
            .problems
            .get(ex, array, sched)
            .and_then(|p| polyalloc_alloc::verify(&p, &ind.mapping, solver, method).map_err(|e| e.to_string()));
        self.verified.borrow_mut().insert(key, v.clone());
        v
    }
}

fn schedules_to_check(setup: &Setup, ex: &Example) -> Vec<Sched> {
    let mut out = vec![setup.program_schedule_text(ex)];
    for l in &setup.legal {
        if !out.contains(l) {
            out.push(l.clone());
        }
    }
    out
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or("").chars().take(300).collect()
}

fn sched_label(s: &Sched) -> String {
    s.iter()
        .map(|(k, v)| {
            let e = v.split("->").nth(2).unwrap_or(v).trim().trim_end_matches('}').trim();
            format!("{k}: {}", e.trim_start_matches('[').trim_end_matches(']'))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn error_record(ex: &Example, array: &str, method: &str, backend: &str, e: &OvError) -> Record {
    let mut r = Record::empty(&ex.id, array, method, backend);
    r.status = match e {
        OvError::Unsupported(_) => Status::NotApplicable,
        OvError::Solver(_) | OvError::NotFound(_) | OvError::NoSchedule(_) => Status::SolverError,
        _ => Status::Error,
    };
    r.error = Some(first_line(&e.to_string()));
    r
}

/// The paper's `ov` entry schedule for `array`, if any.
fn paper_ov_schedule(ex: &Example, array: &str) -> Option<Sched> {
    ex.paper
        .iter()
        .filter(|e| e.method == "ov" && e.array.as_deref() == Some(array))
        .find_map(|e| e.extra.get("schedule").and_then(polyalloc_alloc_ov::schedule_object))
}

fn vec_of(v: Option<&Value>) -> Option<Vec<i64>> {
    v?.as_array()?.iter().map(Value::as_i64).collect()
}

struct Ctx<'a> {
    ex: &'a Example,
    setup: &'a Setup,
    eng: Engine<'a>,
    solver: &'a dyn Solver,
    backend: &'a str,
    cache: &'a Cache<'a>,
    size_params: Option<BTreeMap<String, i64>>,
}

impl Ctx<'_> {
    /// Fills the mapping fields and verifies under every schedule (sets the status).
    fn finish(&self, rec: &mut Record, array: &str, ind: &Induced, scheds: &[Sched]) {
        let (ex, solver, cache) = (self.ex, self.solver, self.cache);
        rec.set_mapping(&ind.mapping, Some(&ind.size), self.size_params.as_ref());
        rec.details.insert("printed_paper".into(), json!(ind.printed_paper));
        rec.details.insert("printed".into(), json!(ind.printed));
        rec.details.insert("projection".into(), json!(ind.pi));
        rec.details.insert("modulation".into(), json!({"y": ind.y, "gcd": ind.g}));
        let t = Instant::now();
        let mut under = Vec::new();
        let mut all_proven = true;
        for s in scheds {
            match cache.verify(ex, array, ind, s, solver, &rec.method) {
                Ok(v) => {
                    all_proven &= v == Verification::Proven;
                    under.push(json!({"schedule": sched_label(s), "verification": v.label()}));
                }
                Err(e) => {
                    rec.verify_ms = ms(t.elapsed());
                    rec.status = if e.contains("both land on") || e.contains("not positive") { Status::Invalid } else { Status::Error };
                    rec.error = Some(format!("under {}: {}", sched_label(s), first_line(&e)));
                    rec.details.insert("verified_under".into(), json!(under));
                    return;
                }
            }
        }
        rec.verify_ms = ms(t.elapsed());
        rec.verified = true;
        rec.verification = Some(if all_proven { "proven" } else { "instances" }.into());
        rec.status = Status::Ok;
        rec.details.insert("verified_under".into(), json!(under));
    }

    fn induced(&self, array: &str, v: &[i64]) -> Result<Induced, OvError> {
        let (tuple, space) = self.setup.arrays.get(array).ok_or_else(|| OvError::Input(format!("no data space for `{array}`")))?;
        induced(v, tuple, space, &self.setup.prog.params)
    }

    /// The paper's integer program (Sec. 4.6.1 / 4.6.3) next to the exact search: its
    /// vector and whether that vector passes the exact test on the true domains `Z_j`.
    fn paper_ilp(&self, array: &str, th: Option<&[i64]>, strict: bool) -> Result<Value, OvError> {
        Ok(match self.eng.paper_ilp(array, th, strict) {
            Ok(Some(v)) => {
                let exact = match th {
                    Some(th) => self.eng.valid_for_schedule(array, &v, th, strict)?,
                    None => self.eng.valid_for_all_schedules(array, &v)?,
                };
                json!({"vector": v, "valid_on_exact_domains": exact})
            }
            Ok(None) => json!("not applicable: several statements write the array"),
            Err(OvError::NotFound(m)) => json!(format!("no solution: {m}")),
            Err(e) => return Err(e),
        })
    }

    fn ov(&self, array: &str) -> Result<Record, OvError> {
        let t = Instant::now();
        let sched = paper_ov_schedule(self.ex, array).unwrap_or_else(|| self.setup.program_schedule_text(self.ex));
        let th = self.setup.prog.parse_schedule(&sched)?;
        let found = self.eng.ov_for_schedule(array, &th, false)?;
        let ind = self.induced(array, &found.vector)?;
        let strict = self.eng.ov_for_schedule(array, &th, true)?;
        let sind = self.induced(array, &strict.vector)?;
        let ilp = self.paper_ilp(array, Some(&th), false)?;
        let mut rec = Record::empty(&self.ex.id, array, "ov", self.backend);
        rec.details.insert("paper_ilp".into(), ilp);
        let d = &mut rec.details;
        d.insert("ov".into(), json!(found.vector));
        d.insert("schedule".into(), json!(self.setup.prog.schedule_strings(&th)));
        d.insert("manhattan".into(), json!(found.manhattan));
        d.insert("evenness".into(), json!(found.evenness));
        d.insert("candidates".into(), json!(found.candidates));
        d.insert("strict_ov".into(), json!(strict.vector));
        d.insert("strict_mapping".into(), json!(sind.printed_paper));
        d.insert("strict_size".into(), json!(sind.size.to_string()));
        // The linearised schedule constraints (14), printed like the paper.
        let r = self.eng.theta_set(&self.eng.schedule_forms()?, &[])?;
        let mut r2 = r.clone();
        r2.remove_redundant()?;
        d.insert("schedule_constraints".into(), json!(print::paper_constraints(&r2, &self.setup.prog.space)?));
        if let Some(p) = self.ex.extra.get("ov").and_then(|o| o.get("schedule_constraints")).and_then(Value::as_array) {
            let printed: Vec<String> = p.iter().filter_map(|x| x.as_str().map(str::to_string)).collect();
            d.insert(
                "schedule_constraints_equal_paper".into(),
                json!(print::equivalent_to_printed(&r2, &self.setup.prog.space, &printed)?),
            );
        }
        // Problem 2.2 for the paper's given occupancy vectors that involve this array.
        for e in self.ex.paper.iter().filter(|e| e.method == "schedule") {
            let Some(given) = e.extra.get("given_ov").and_then(Value::as_object) else { continue };
            if !given.contains_key(array) {
                continue;
            }
            let g: BTreeMap<String, Vec<i64>> = given.iter().filter_map(|(k, v)| Some((k.clone(), vec_of(Some(v))?))).collect();
            let vs = self.eng.schedules_for(&g)?;
            let printed: Vec<String> = e.extra.get("schedule_constraints").and_then(Value::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default();
            let same = print::equivalent_to_printed(&vs.set, &self.setup.prog.space, &printed)?;
            rec.details.insert(
                "valid_schedules".into(),
                json!({"given_ov": g, "constraints": vs.constraints, "equal_paper": same, "best_schedule": vs.best, "latency": vs.latency}),
            );
        }
        rec.method_ms = ms(t.elapsed());
        self.finish(&mut rec, array, &ind, std::slice::from_ref(&sched));
        // The strict vector's mapping is checked too (the conflict sets are the
        // read-before-write ones, which a strict vector must also respect).
        let sv = self.cache.verify(self.ex, array, &sind, &sched, self.solver, "ov");
        rec.details.insert("strict_verified".into(), json!(sv.is_ok()));
        Ok(rec)
    }

    fn aov(&self, array: &str) -> Result<Record, OvError> {
        let t = Instant::now();
        let found = self.eng.aov(array)?;
        let ind = self.induced(array, &found.vector)?;
        let ilp = self.paper_ilp(array, None, false)?;
        let mut rec = Record::empty(&self.ex.id, array, "aov", self.backend);
        rec.details.insert("paper_ilp".into(), ilp);
        rec.details.insert("aov".into(), json!(found.vector));
        rec.details.insert("manhattan".into(), json!(found.manhattan));
        rec.details.insert("evenness".into(), json!(found.evenness));
        rec.details.insert("candidates".into(), json!(found.candidates));
        if let Ok(dists) = uov::stencil_distances(&self.setup.prog, array) {
            rec.details.insert("is_uov".into(), json!(uov::is_uov(self.solver, &dists, &found.vector, &self.eng.opts.solve)?));
        }
        rec.method_ms = ms(t.elapsed());
        self.finish(&mut rec, array, &ind, &schedules_to_check(self.setup, self.ex));
        Ok(rec)
    }

    fn uov(&self, array: &str) -> Result<Record, OvError> {
        let t = Instant::now();
        let dists = uov::stencil_distances(&self.setup.prog, array)?;
        let dim = dists.first().map_or(0, Vec::len);
        let found = uov::shortest_uov(self.solver, &dists, dim, self.eng.opts.max_length, &self.eng.opts.solve)?;
        let ind = self.induced(array, &found.vector)?;
        let mut rec = Record::empty(&self.ex.id, array, "uov", self.backend);
        rec.details.insert("uov".into(), json!(found.vector));
        rec.details.insert("distances".into(), json!(dists));
        rec.details.insert("manhattan".into(), json!(found.manhattan));
        rec.details.insert("evenness".into(), json!(found.evenness));
        let aov = self.eng.aov(array)?;
        rec.details.insert("aov".into(), json!(aov.vector));
        rec.details.insert("aov_is_uov".into(), json!(uov::is_uov(self.solver, &dists, &aov.vector, &self.eng.opts.solve)?));
        rec.method_ms = ms(t.elapsed());
        // Verified under the program's schedule only: see the module doc.
        self.finish(&mut rec, array, &ind, &[self.setup.program_schedule_text(self.ex)]);
        Ok(rec)
    }
}

fn same_rows(p: &[Vec<i64>], r: &[Vec<i64>]) -> bool {
    p.len() == r.len() && p.iter().zip(r).all(|(a, b)| a == b || (a.len() == b.len() && a.iter().zip(b).all(|(x, y)| *x == -*y)))
}

fn poly(s: Option<&str>) -> Option<Polynomial> {
    s.and_then(|s| Polynomial::parse(s).ok())
}

impl ExampleMethod for OvMethod {
    fn names(&self) -> &'static [&'static str] {
        &["ov", "aov", "uov"]
    }

    fn applies(&self, ex: &Example) -> bool {
        ex.extra.contains_key("ov")
    }

    fn run(&self, ex: &Example, methods: &[&str], backends: &[Backend], time_limit: Option<Duration>) -> ExtraRun {
        let mut out = ExtraRun::default();
        let setup = match Setup::from_example(ex, DependenceSource::Accesses) {
            Ok(s) => s,
            Err(e) => {
                out.skipped.push(format!("{}: {}", ex.id, first_line(&e.to_string())));
                return out;
            }
        };
        let arrays: Vec<String> = setup.prog.writers.keys().cloned().collect();
        let mut paper_verdicts: BTreeMap<usize, (Option<String>, bool)> = BTreeMap::new();
        let problems = Problems::default();
        for b in backends {
            let cache = Cache::new(&problems);
            for m in methods {
                for a in &arrays {
                    let solver = Budgeted::new(b.solver.as_ref(), time_limit);
                    let rec = match setup.engine(&solver, OvOptions::default()) {
                        Err(e) => error_record(ex, a, m, &b.name, &e),
                        Ok(eng) => {
                            let ctx = Ctx { ex, setup: &setup, eng, solver: &solver, backend: &b.name, cache: &cache, size_params: polyalloc::run::largest_instance(ex) };
                            let r = match *m {
                                "ov" => ctx.ov(a),
                                "aov" => ctx.aov(a),
                                _ => ctx.uov(a),
                            };
                            r.unwrap_or_else(|e| error_record(ex, a, m, &b.name, &e))
                        }
                    };
                    out.records.push(rec);
                }
            }
            // The checker's verdict on the paper's own mappings (first backend only).
            if paper_verdicts.is_empty() {
                let solver = Budgeted::new(b.solver.as_ref(), time_limit);
                for (k, e) in ex.paper.iter().enumerate() {
                    if !(e.method == "ov" || e.method == "aov") || !methods.contains(&e.method.as_str()) || e.hyperplanes.is_none() {
                        continue;
                    }
                    let Some(array) = e.array.clone() else { continue };
                    let scheds: Vec<Sched> = if e.method == "ov" {
                        vec![e.extra.get("schedule").and_then(polyalloc_alloc_ov::schedule_object).unwrap_or_else(|| setup.program_schedule_text(ex))]
                    } else {
                        schedules_to_check(&setup, ex)
                    };
                    let mut verdict: Result<Verification, String> = Ok(Verification::Proven);
                    for s in &scheds {
                        let v = problems
                            .get(ex, &array, s)
                            .map_err(|e| format!("error: {e}"))
                            .and_then(|p| match ex.paper_mapping(k, &p.conflicts) {
                                Ok(Some(mp)) => polyalloc_alloc::verify(&p, &mp, &solver, &e.method).map_err(|e| match e {
                                    AllocError::Invalid { refutation, .. } => format!("invalid: {}", first_line(&refutation.to_string())),
                                    other => format!("error: {}", first_line(&other.to_string())),
                                }),
                                Ok(None) => Err("error: no mapping".into()),
                                Err(e) => Err(format!("error: {e}")),
                            });
                        match v {
                            Ok(Verification::Proven) => {}
                            Ok(x) => verdict = Ok(x),
                            Err(x) => {
                                verdict = Err(x);
                                break;
                            }
                        }
                    }
                    let (label, valid) = match &verdict {
                        Ok(v) => (format!("valid ({})", v.label()), true),
                        Err(x) => (x.clone(), false),
                    };
                    let ok = match e.expect.as_deref() {
                        Some(x) => (x == "valid") == valid && !label.starts_with("error"),
                        None => true,
                    };
                    paper_verdicts.insert(k, (Some(label), ok));
                }
            }
        }
        out.paper = paper_rows(ex, &setup, methods, backends, &out.records, &paper_verdicts);
        out
    }
}

fn paper_rows(ex: &Example, setup: &Setup, methods: &[&str], backends: &[Backend], records: &[Record], verdicts: &BTreeMap<usize, (Option<String>, bool)>) -> Vec<PaperRow> {
    let mut rows = Vec::new();
    for (k, e) in ex.paper.iter().enumerate() {
        let owner = if e.method == "schedule" { "ov" } else { e.method.as_str() };
        if !methods.contains(&owner) {
            continue;
        }
        let array = e.array.clone().unwrap_or_else(|| "-".into());
        let (paper_verdict, verdict_ok) = verdicts.get(&k).cloned().unwrap_or((None, true));
        let counts = (e.method == "ov" || e.method == "aov") && e.hyperplanes.is_some() && e.moduli.is_some() && e.expect.as_deref() != Some("invalid");
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
            let paper_vec = vec_of(e.extra.get("ov"));
            let notes: Vec<String> = base.note.iter().cloned().collect();
            let mut extra_note = None;
            match e.method.as_str() {
                "ov" | "aov" | "uov" => {
                    let rec = records.iter().find(|r| r.array == array && r.method == e.method && r.backend == b.name);
                    let Some(rec) = rec else {
                        rows.push(row);
                        continue;
                    };
                    if rec.status != Status::Ok {
                        row.polyalloc_mapping = rec.error.clone();
                        rows.push(row);
                        continue;
                    }
                    let key = if e.method == "ov" { "ov" } else { e.method.as_str() };
                    let mut ours = vec_of(rec.details.get(key));
                    let mut mapping = rec.details.get("printed_paper").and_then(Value::as_str).map(str::to_string);
                    let mut size = rec.size.clone();
                    let mut hyper = rec.hyperplanes.clone();
                    let mut verified = rec.verified;
                    // The strict-semantics vector of Fig. 7 (`(2, 0)`).
                    if e.method == "ov" && ours != paper_vec && vec_of(rec.details.get("strict_ov")) == paper_vec {
                        ours = paper_vec.clone();
                        mapping = rec.details.get("strict_mapping").and_then(Value::as_str).map(str::to_string);
                        size = rec.details.get("strict_size").and_then(Value::as_str).map(str::to_string);
                        hyper = e.hyperplanes.clone().unwrap_or_default();
                        if let (Some(v), Some((t, s))) = (&ours, setup.arrays.get(&array)) {
                            if let Ok(ind) = induced(v, t, s, &setup.prog.params) {
                                hyper = ind.mapping.rows.iter().map(|r| r.hyperplane.clone()).collect();
                            }
                        }
                        verified = rec.details.get("strict_verified").and_then(Value::as_bool) == Some(true);
                        extra_note = Some("strict storage constraint (a value is not read in the step it is overwritten)".to_string());
                    }
                    row.polyalloc_mapping = Some(format!("v = {:?}: {}", ours.clone().unwrap_or_default(), mapping.unwrap_or_default()));
                    row.polyalloc_size = size.clone();
                    let same_vec = ours.is_some() && ours == paper_vec;
                    row.result = if !same_vec {
                        "differ".into()
                    } else if e.method == "uov" || e.size.is_none() {
                        "match".into()
                    } else {
                        let ps = poly(e.size.as_deref());
                        let exact = poly(e.extra.get("size_exact").and_then(Value::as_str));
                        let rs = poly(size.as_deref());
                        let size_ok = rs.is_some() && (rs == ps || (exact.is_some() && rs == exact));
                        if rs.is_some() && rs == exact && rs != ps {
                            extra_note = Some(format!(
                                "the printed size {} counts one cell more per dimension than the paper's mapping uses ({}); polyalloc's size is the exact range",
                                e.size.clone().unwrap_or_default(),
                                e.extra.get("size_exact").and_then(Value::as_str).unwrap_or("")
                            ));
                        }
                        match (size_ok, e.hyperplanes.as_ref()) {
                            (true, Some(h)) if same_rows(h, &hyper) => "match".into(),
                            (true, _) => "same size".into(),
                            _ => "differ".into(),
                        }
                    };
                    row.reproduced = counts && verdict_ok && verified && (row.result == "match" || row.result == "same size");
                }
                _ => {
                    // `schedule` entries.
                    let eng_solver = b.solver.as_ref();
                    let Ok(eng) = setup.engine(eng_solver, OvOptions::default()) else {
                        rows.push(row);
                        continue;
                    };
                    if let Some(s) = e.extra.get("schedule").and_then(polyalloc_alloc_ov::schedule_object) {
                        match setup.prog.parse_schedule(&s).and_then(|th| eng.is_legal(&th)) {
                            Ok(legal) => {
                                let verdict = if legal { "valid" } else { "invalid" };
                                row.polyalloc_mapping = Some(format!("schedule is {verdict} (exact test of the linearised schedule constraints)"));
                                row.result = if e.expect.as_deref() == Some(verdict) { "match".into() } else { "differ".into() };
                            }
                            Err(err) => row.polyalloc_mapping = Some(first_line(&err.to_string())),
                        }
                    } else if let Some(g) = e.extra.get("given_ov").and_then(Value::as_object) {
                        let given: BTreeMap<String, Vec<i64>> = g.iter().filter_map(|(k, v)| Some((k.clone(), vec_of(Some(v))?))).collect();
                        let printed: Vec<String> = e.extra.get("schedule_constraints").and_then(Value::as_array).map(|a| a.iter().filter_map(|x| x.as_str().map(str::to_string)).collect()).unwrap_or_default();
                        match eng.schedules_for(&given).and_then(|vs| Ok((print::equivalent_to_printed(&vs.set, &setup.prog.space, &printed)?, vs))) {
                            Ok((same, vs)) => {
                                row.polyalloc_mapping = Some(format!(
                                    "{}; best: {} (latency {})",
                                    vs.constraints.join(", "),
                                    vs.best.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", "),
                                    vs.latency
                                ));
                                row.result = if same { "match".into() } else { "differ".into() };
                            }
                            Err(err) => row.polyalloc_mapping = Some(first_line(&err.to_string())),
                        }
                        row.array = given.keys().cloned().collect::<Vec<_>>().join(",");
                    }
                }
            }
            if let Some(n) = extra_note {
                let mut all = notes.clone();
                all.push(n);
                row.note = Some(all.join(" "));
            }
            rows.push(row);
        }
    }
    rows
}
