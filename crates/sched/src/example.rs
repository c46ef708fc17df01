//! The `pugh` section of a bench-suite file (bench-suite/README.md, section 8) and
//! the end-to-end reproduction of one example: dependence analysis from the accesses,
//! scheduling from the paper's dependence table, code rearrangement, and executor
//! confirmation at every instance.

use crate::codegen::{self, Code, Rounding};
use polyalloc_program::deps::{self, DepKind, DepOptions, Dependence};
use crate::error::{Result, SchedError};
use polyalloc_program::exec::{Executor, Storage};
use crate::schedule::{self, Outcome, Problem, SchedOptions, Schedule, StmtInfo};
use polyalloc_formulation::{BasicSet, Map, Set};
use polyalloc_program::{Program, Statement};
use polyalloc_ilp::Solver;
use polyalloc_suite::Example;
use serde_json::Value;
use std::collections::BTreeMap;

/// One `paper` entry with method `schedule`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaperSchedule {
    /// `trial` or `final`.
    pub role: String,
    /// Qualifier (`Take 2 (broadcasts ignored)`), if any.
    pub variant: Option<String>,
    /// Where in the paper.
    pub location: String,
    /// Statements covered.
    pub statements: Vec<String>,
    /// The schedule as printed, per statement.
    pub printed: BTreeMap<String, String>,
    /// The scaled schedule and its text.
    pub schedule: Schedule,
    /// The isl text of the scaled schedule.
    pub schedule_text: String,
    /// Broadcast pairs must get different times.
    pub respect_broadcast: bool,
    /// Expected verdict: true for `valid`.
    pub expect_valid: bool,
    /// The printed violated distance of a failing trial.
    pub violated_distance: Option<Vec<i64>>,
    /// Printed generated time range, if any.
    pub time_range: Option<(String, String)>,
}

/// A `pugh` example, parsed.
#[derive(Clone, Debug)]
pub struct PughExample {
    /// File id.
    pub id: String,
    /// Parameter names.
    pub params: Vec<String>,
    /// The scheduling problem with the paper's dependence table.
    pub problem: Problem,
    /// The program of the `execution` section (accesses and original order), if any.
    pub program: Option<Program>,
    /// Arrays whose read-read pairs are broadcast "dependences".
    pub broadcast_arrays: Vec<String>,
    /// Arrays updated by reductions (`execution.reduction_arrays`).
    pub reduction_arrays: Vec<String>,
    /// Loops to keep parallel (`scheduling.prefer_parallel`).
    pub prefer_parallel: Vec<String>,
    /// Rounding of fractional times (`codegen.rounding`).
    pub rounding: Rounding,
    /// Dimension eliminated by the unimodular extension, per statement (`codegen.eliminate`).
    pub eliminate: BTreeMap<String, String>,
    /// Instances (parameter values in `params` order).
    pub instances: Vec<Vec<i64>>,
    /// The paper entries of method `schedule`.
    pub entries: Vec<PaperSchedule>,
}

fn field<'a>(v: &'a Value, key: &str, what: &str) -> Result<&'a Value> {
    v.get(key)
        .ok_or_else(|| SchedError::Input(format!("{what}: missing field `{key}`")))
}

fn string(v: &Value, what: &str) -> Result<String> {
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| SchedError::Input(format!("{what}: expected a string")))
}

fn strings(v: Option<&Value>, what: &str) -> Result<Vec<String>> {
    match v {
        None => Ok(vec![]),
        Some(Value::Array(a)) => a.iter().map(|x| string(x, what)).collect(),
        Some(_) => Err(SchedError::Input(format!("{what}: expected an array of strings"))),
    }
}

impl PughExample {
    /// Reads the `pugh` section and the `schedule` paper entries of `ex`.
    pub fn from_example(ex: &Example) -> Result<PughExample> {
        let id = ex.id.clone();
        let pugh = ex
            .extra
            .get("pugh")
            .ok_or_else(|| SchedError::Input(format!("{id}: no `pugh` section")))?;
        let ctx_text = ex.context.clone().unwrap_or_else(|| "{ : 0 = 0 }".into());
        let context = BasicSet::parse(&ctx_text)?;
        let params = ex.params.clone();
        let mut statements = Vec::new();
        let sts = field(pugh, "statements", &id)?
            .as_array()
            .ok_or_else(|| SchedError::Input(format!("{id}: pugh.statements must be an array")))?;
        for (k, s) in sts.iter().enumerate() {
            let what = format!("{id}: pugh.statements[{k}]");
            let name = string(field(s, "name", &what)?, &what)?;
            let domain = Set::parse(&string(field(s, "domain", &what)?, &what)?)?;
            if domain.space().output.name.as_deref() != Some(name.as_str()) {
                return Err(SchedError::Input(format!(
                    "{what}: the domain tuple is not named `{name}`"
                )));
            }
            statements.push(StmtInfo { name, domain });
        }
        let index = |n: &str| statements.iter().position(|s| s.name == n);
        let mut deps_v = Vec::new();
        let ds = field(pugh, "dependences", &id)?
            .as_array()
            .ok_or_else(|| SchedError::Input(format!("{id}: pugh.dependences must be an array")))?;
        for (k, d) in ds.iter().enumerate() {
            let what = format!("{id}: pugh.dependences[{k}]");
            let did = string(field(d, "id", &what)?, &what)?;
            let kind = match string(field(d, "kind", &what)?, &what)?.as_str() {
                "dependence" => DepKind::Flow,
                "broadcast" => DepKind::Broadcast,
                "reduction" => DepKind::Reduction,
                other => {
                    return Err(SchedError::Input(format!(
                        "{what}: unknown kind `{other}` (dependence, broadcast or reduction)"
                    )))
                }
            };
            let relation = Map::parse(&string(field(d, "relation", &what)?, &what)?)?;
            let sp = relation.space();
            let src = sp.input.as_ref().and_then(|t| t.name.clone()).and_then(|n| index(&n));
            let tgt = sp.output.name.clone().and_then(|n| index(&n));
            let (Some(source), Some(target)) = (src, tgt) else {
                return Err(SchedError::Input(format!(
                    "{what}: the relation must go between two statements of pugh.statements"
                )));
            };
            deps_v.push(Dependence {
                id: did,
                kind,
                source,
                target,
                relation,
            });
        }
        let problem = Problem::new(params.clone(), context.clone(), statements, deps_v)?;
        // Execution section (ours, see bench-suite/README.md section 8).
        let mut program = None;
        let mut broadcast_arrays = vec![];
        let mut reduction_arrays = vec![];
        if let Some(exe) = pugh.get("execution") {
            let mut p = Program::new(&ctx_text)?;
            let sts = field(exe, "statements", &format!("{id}: pugh.execution"))?;
            for s in &problem.statements {
                let what = format!("{id}: pugh.execution.statements.{}", s.name);
                let e = field(sts, &s.name, &what)?;
                let orig = string(field(e, "original", &what)?, &what)?;
                let w = strings(e.get("writes"), &what)?;
                let r = strings(e.get("reads"), &what)?;
                let wr: Vec<&str> = w.iter().map(String::as_str).collect();
                let rd: Vec<&str> = r.iter().map(String::as_str).collect();
                let dom = s.domain.to_string();
                let st =
                    Statement::parse(&dom, &orig, &wr, &rd).map_err(|e| SchedError::Input(format!("{what}: {e}")))?;
                p.add_statement(st)?;
            }
            broadcast_arrays = strings(
                exe.get("broadcast_arrays"),
                &format!("{id}: pugh.execution.broadcast_arrays"),
            )?;
            reduction_arrays = strings(
                exe.get("reduction_arrays"),
                &format!("{id}: pugh.execution.reduction_arrays"),
            )?;
            program = Some(p);
        }
        let prefer_parallel = strings(
            pugh.get("scheduling").and_then(|s| s.get("prefer_parallel")),
            &format!("{id}: pugh.scheduling.prefer_parallel"),
        )?;
        let cg = pugh.get("codegen");
        let rounding = match cg.and_then(|c| c.get("rounding")).and_then(Value::as_str) {
            None | Some("ceil") => Rounding::Ceil,
            Some("floor") => Rounding::Floor,
            Some(o) => {
                return Err(SchedError::Input(format!(
                    "{id}: pugh.codegen.rounding `{o}` (ceil or floor)"
                )))
            }
        };
        let mut eliminate = BTreeMap::new();
        if let Some(Value::Object(o)) = cg.and_then(|c| c.get("eliminate")) {
            for (k, v) in o {
                eliminate.insert(k.clone(), string(v, &format!("{id}: pugh.codegen.eliminate.{k}"))?);
            }
        }
        let mut instances = Vec::new();
        for (k, inst) in ex.instances.iter().enumerate() {
            let v: Option<Vec<i64>> = params.iter().map(|p| inst.get(p).copied()).collect();
            instances.push(v.ok_or_else(|| SchedError::Input(format!("{id}: instances[{k}] lacks a parameter")))?);
        }
        let mut entries = Vec::new();
        for (k, pr) in ex.paper.iter().enumerate() {
            if pr.method != "schedule" {
                continue;
            }
            let mut obj = serde_json::Map::new();
            for (key, v) in &pr.extra {
                obj.insert(key.clone(), v.clone());
            }
            if let Some(x) = &pr.expect {
                obj.insert("expect".into(), Value::String(x.clone()));
            }
            if let Some(x) = &pr.location {
                obj.insert("where".into(), Value::String(x.clone()));
            }
            let e = &Value::Object(obj);
            let what = format!("{id}: paper[{k}]");
            let text = string(field(e, "schedule", &what)?, &what)?;
            let scale = e.get("scale").and_then(Value::as_i64).unwrap_or(1);
            let schedule = Schedule::from_isl(&text, scale, &problem)?;
            let mut printed = BTreeMap::new();
            if let Some(Value::Object(o)) = e.get("schedule_printed") {
                for (s, t) in o {
                    printed.insert(s.clone(), string(t, &what)?);
                }
            }
            let time_range = match e.get("time_range").and_then(Value::as_array) {
                Some(a) if a.len() == 2 => Some((string(&a[0], &what)?, string(&a[1], &what)?)),
                _ => None,
            };
            entries.push(PaperSchedule {
                role: e.get("role").and_then(Value::as_str).unwrap_or("final").to_string(),
                variant: e.get("variant").and_then(Value::as_str).map(str::to_string),
                location: e.get("where").and_then(Value::as_str).unwrap_or("").to_string(),
                statements: strings(e.get("statements"), &what)?,
                printed,
                schedule,
                schedule_text: text,
                respect_broadcast: e.get("respect_broadcast").and_then(Value::as_bool).unwrap_or(false),
                expect_valid: e.get("expect").and_then(Value::as_str) != Some("invalid"),
                violated_distance: e
                    .get("violated_distance")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(Value::as_i64).collect()),
                time_range,
            });
        }
        Ok(PughExample {
            id,
            params,
            problem,
            program,
            broadcast_arrays,
            reduction_arrays,
            prefer_parallel,
            rounding,
            eliminate,
            instances,
            entries,
        })
    }

    /// Memory-based dependences computed from the `execution` accesses.
    pub fn computed_dependences(&self, solver: &dyn Solver) -> Result<Vec<Dependence>> {
        let p = self
            .program
            .as_ref()
            .ok_or_else(|| SchedError::Input(format!("{}: no pugh.execution section", self.id)))?;
        deps::analyze(
            p,
            &DepOptions {
                broadcast_arrays: self.broadcast_arrays.clone(),
                reduction_arrays: self.reduction_arrays.clone(),
            },
            solver,
        )
        .map_err(SchedError::from)
    }

    /// The scheduling problem with the dependences computed from the accesses instead
    /// of the paper's table.
    pub fn computed_problem(&self, solver: &dyn Solver) -> Result<Problem> {
        let deps = self.computed_dependences(solver)?;
        Problem::new(
            self.params.clone(),
            self.problem.context.clone(),
            self.problem.statements.clone(),
            deps,
        )
    }

    /// Scheduling options for a run that respects broadcasts or not.
    pub fn options(&self, respect_broadcast: bool) -> SchedOptions {
        SchedOptions {
            respect_broadcast,
            prefer_parallel: self.prefer_parallel.clone(),
            ..SchedOptions::default()
        }
    }

    /// An executor of the `execution` program with hash bodies.
    pub fn executor(&self) -> Result<Executor> {
        let p = self
            .program
            .clone()
            .ok_or_else(|| SchedError::Input(format!("{}: no pugh.execution section", self.id)))?;
        Ok(Executor::with_hash_bodies(p))
    }
}

/// Executor confirmation of one order at one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Confirmation {
    /// Parameter values.
    pub params: BTreeMap<String, i64>,
    /// `schedule` (instances ordered by the schedule) or `loops` (the rearranged code).
    pub order: String,
    /// True when every value read and every live-out value agreed.
    pub ok: bool,
    /// The executor's summary.
    pub summary: String,
}

/// One scheduling run of an example (broadcasts respected or not).
#[derive(Clone, Debug)]
pub struct Run {
    /// Broadcast pairs got different times.
    pub respect_broadcast: bool,
    /// The scheduler's outcome.
    pub outcome: Outcome,
    /// The schedule per statement as printed (`i + k + 1/2`).
    pub texts: BTreeMap<String, String>,
    /// The rearranged loops.
    pub code: Code,
    /// Executor confirmations at every instance.
    pub confirmations: Vec<Confirmation>,
    /// The schedule found from the dependences computed from the accesses (Sec. 3)
    /// instead of the paper's table, per statement; `None` without an `execution`
    /// section.
    pub from_accesses: Option<BTreeMap<String, String>>,
}

impl Run {
    /// True when every confirmation passed.
    pub fn confirmed(&self) -> bool {
        !self.confirmations.is_empty() && self.confirmations.iter().all(|c| c.ok)
    }
}

/// Schedules, rearranges and confirms one example, once per broadcast setting used by
/// its paper entries (once with `false` when there is none).
pub fn reproduce(ex: &PughExample, solver: &dyn Solver) -> Result<Vec<Run>> {
    let mut settings: Vec<bool> = ex
        .entries
        .iter()
        .filter(|e| e.role == "final")
        .map(|e| e.respect_broadcast)
        .collect();
    settings.sort();
    settings.dedup();
    if settings.is_empty() {
        settings.push(false);
    }
    settings.reverse(); // respected first, as in the paper
    let mut runs = Vec::new();
    for rb in settings {
        let outcome = schedule::schedule(&ex.problem, &ex.options(rb), solver)?;
        let texts = ex
            .problem
            .statements
            .iter()
            .filter_map(|s| outcome.schedule.text(&s.name, &s.dims()).map(|t| (s.name.clone(), t)))
            .collect();
        let code = codegen::generate(&ex.problem, &outcome.schedule, ex.rounding, &ex.eliminate, solver)?;
        let mut confirmations = Vec::new();
        let mut from_accesses = None;
        if ex.program.is_some() {
            let o = schedule::schedule(&ex.computed_problem(solver)?, &ex.options(rb), solver)?;
            from_accesses = Some(
                ex.problem
                    .statements
                    .iter()
                    .filter_map(|s| o.schedule.text(&s.name, &s.dims()).map(|t| (s.name.clone(), t)))
                    .collect(),
            );
            let exec = ex.executor()?;
            for inst in &ex.instances {
                let pm: BTreeMap<String, i64> = ex.params.iter().cloned().zip(inst.iter().copied()).collect();
                let sched = &outcome.schedule;
                let names: Vec<String> = ex.problem.statements.iter().map(|s| s.name.clone()).collect();
                let rep = exec.compare_schedule(
                    inst,
                    &|k, it| Ok(vec![sched.time(&names[k], inst, it)?]),
                    &Storage::new(),
                )?;
                confirmations.push(Confirmation {
                    params: pm.clone(),
                    order: "schedule".into(),
                    ok: rep.ok(),
                    summary: rep.summary(),
                });
                let trace = code.trace(inst)?;
                let rep = exec.compare(inst, &trace, &Storage::new())?;
                confirmations.push(Confirmation {
                    params: pm,
                    order: "loops".into(),
                    ok: rep.ok(),
                    summary: rep.summary(),
                });
            }
        }
        runs.push(Run {
            respect_broadcast: rb,
            outcome,
            texts,
            code,
            confirmations,
            from_accesses,
        });
    }
    Ok(runs)
}

/// The verdict of the exact checker on a paper entry's schedule (true: feasible).
pub fn paper_verdict(ex: &PughExample, entry: &PaperSchedule, solver: &dyn Solver) -> Result<bool> {
    Ok(schedule::check(&ex.problem, &entry.schedule, entry.respect_broadcast, solver)?.is_empty())
}
