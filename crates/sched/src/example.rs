//! The `pugh` section of a bench-suite file (bench-suite/README.md, section 8), read
//! into typed values, and the end-to-end run of one example: scheduling (Sec. 4) on the
//! dependences of the program, code rearrangement (Sec. 5), and the same scheduling on
//! the dependences computed from the accesses (Sec. 3).
//!
//! **One program model.** The statements (`pugh.statements`: name and domain) and their
//! accesses and original order (`pugh.execution`) are read once, into one
//! [`polyalloc_program::Program`] ([`PughExample::program`]). Everything else is derived
//! from it: the dependences computed by [`polyalloc_program::deps::analyze`]; the
//! paper's dependence table (`pugh.dependences`, Tables 2-4), whose relations are
//! resolved against the program's statements by name; and the scheduler's
//! [`Problem`], a view of the program for the integer programs
//! ([`Problem::from_program`]).
//!
//! **Which dependences.** The paper nominates and transfers schedules on its own
//! dependence tables, which leave out dependences implied transitively by printed ones
//! (Example 1's `s1[k+1] δ s1[k+2]`, the smoothing example's output dependences): the
//! trial sequences it prints (and the violated distances it names) are those of its
//! tables. So when the file gives the table, [`run`] schedules on it; without one, on
//! the dependences computed from the program. Either way the schedule found from the
//! computed dependences is reported too ([`Run::from_accesses`]).
//!
//! Nothing here runs the program: the schedule and the rearranged loops are confirmed
//! by the facade (`polyalloc::run`) with the one executor, on the
//! [`ExecutionCheck`](polyalloc_alloc::ExecutionCheck)s the method
//! ([`crate::method::ScheduleMethod`]) returns.

use crate::codegen::{self, Code, Rounding};
use crate::error::{Result, SchedError};
use crate::schedule::{self, Outcome, Problem, SchedOptions, Schedule};
use polyalloc_formulation::Map;
use polyalloc_ilp::Solver;
use polyalloc_program::deps::{self, DepKind, DepOptions, Dependence};
use polyalloc_program::{Program, Statement};
use polyalloc_suite::Example;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The `pugh` section, typed (bench-suite/README.md, section 8). Informational fields
/// (`schedule_form`, `note`, the tables' printed columns, ...) are not read.
#[derive(Clone, Debug, Deserialize)]
pub struct PughSection {
    /// The statements: name and iteration domain.
    pub statements: Vec<StatementSpec>,
    /// The paper's dependence table, if given.
    #[serde(default)]
    pub dependences: Option<Vec<DependenceSpec>>,
    /// The program's accesses and original order (required by the method).
    #[serde(default)]
    pub execution: Option<ExecutionSpec>,
    /// Scheduling options.
    #[serde(default)]
    pub scheduling: SchedulingSpec,
    /// Code generation options.
    #[serde(default)]
    pub codegen: CodegenSpec,
}

/// One entry of `pugh.statements`.
#[derive(Clone, Debug, Deserialize)]
pub struct StatementSpec {
    /// The name (the domain's tuple name).
    pub name: String,
    /// The iteration domain (isl set).
    pub domain: String,
}

/// One entry of `pugh.dependences` (the paper's table).
#[derive(Clone, Debug, Deserialize)]
pub struct DependenceSpec {
    /// The paper's identifier (`"1"`, `"B1"`).
    pub id: String,
    /// `dependence`, `broadcast` or `reduction`.
    pub kind: DependenceKindSpec,
    /// The relation from source to target iterations (isl).
    pub relation: String,
}

/// The `kind` of a table entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DependenceKindSpec {
    /// An ordering dependence (Pugh does not distinguish flow, anti and output).
    Dependence,
    /// A broadcast "dependence" (different times when respected).
    Broadcast,
    /// A reduction "dependence" (different times, either order).
    Reduction,
}

/// `pugh.execution`: the program's accesses and original order, per statement.
#[derive(Clone, Debug, Deserialize)]
pub struct ExecutionSpec {
    /// Statement name to its original schedule and accesses.
    pub statements: BTreeMap<String, AccessesSpec>,
    /// Arrays whose read-read pairs are broadcast "dependences".
    #[serde(default)]
    pub broadcast_arrays: Vec<String>,
    /// Arrays updated by reductions.
    #[serde(default)]
    pub reduction_arrays: Vec<String>,
}

/// One statement of `pugh.execution.statements`.
#[derive(Clone, Debug, Deserialize)]
pub struct AccessesSpec {
    /// The original order as a multi-dimensional affine schedule (isl relation).
    pub original: String,
    /// Written cells (isl access relations), in the order of the body's values.
    #[serde(default)]
    pub writes: Vec<String>,
    /// Read cells, in the order the body reads them.
    #[serde(default)]
    pub reads: Vec<String>,
}

/// `pugh.scheduling`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct SchedulingSpec {
    /// Iterators that get coefficient 0 (loops to keep parallel).
    #[serde(default)]
    pub prefer_parallel: Vec<String>,
}

/// `pugh.codegen`.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct CodegenSpec {
    /// `ceil` (default) or `floor`.
    #[serde(default)]
    pub rounding: RoundingSpec,
    /// Per statement, the iterator expressed through time.
    #[serde(default)]
    pub eliminate: BTreeMap<String, String>,
}

/// `pugh.codegen.rounding`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RoundingSpec {
    /// Time step `t` runs `(t - 1, t]`.
    #[default]
    Ceil,
    /// Time step `t` runs `[t, t + 1)`.
    Floor,
}

/// The fields of a `paper` entry with method `schedule` beyond the common ones.
#[derive(Clone, Debug, Deserialize)]
struct PaperScheduleSpec {
    schedule: String,
    #[serde(default)]
    scale: Option<i64>,
    #[serde(default)]
    schedule_printed: BTreeMap<String, String>,
    #[serde(default)]
    statements: Vec<String>,
    #[serde(default)]
    role: Option<String>,
    #[serde(default)]
    variant: Option<String>,
    #[serde(default)]
    respect_broadcast: bool,
    #[serde(default)]
    violated_distance: Option<Vec<i64>>,
    #[serde(default)]
    time_range: Option<(String, String)>,
}

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

/// A `pugh` example, read.
#[derive(Clone, Debug)]
pub struct PughExample {
    /// File id.
    pub id: String,
    /// The program, in the one program model: the statements of `pugh.statements` with
    /// the accesses and original order of `pugh.execution`, in that order (statement
    /// indices everywhere are this program's).
    pub program: Program,
    /// The paper's dependence table (`pugh.dependences`) over the program's statements,
    /// when the file gives one.
    pub table: Option<Vec<Dependence>>,
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
    /// Instances: parameter values in the order of `program.params`.
    pub instances: Vec<Vec<i64>>,
    /// The paper entries of method `schedule`.
    pub entries: Vec<PaperSchedule>,
}

/// An array field of a section, with the test of whether one of its items fails to read.
type Items<'a> = &'a [(&'a str, fn(&Value) -> bool)];

/// Deserialises `v`; on failure, names the first item of the arrays `items` that fails
/// on its own (serde's message has no position).
fn typed<T: DeserializeOwned>(v: &Value, what: &str, items: Items<'_>) -> Result<T> {
    T::deserialize(v).map_err(|e| {
        let at = items.iter().find_map(|(key, fails)| {
            let k = v.get(*key)?.as_array()?.iter().position(fails)?;
            Some(format!(".{key}[{k}]"))
        });
        SchedError::Input(format!("{what}{}: {e}", at.unwrap_or_default()))
    })
}

fn fails<T: DeserializeOwned>(v: &Value) -> bool {
    T::deserialize(v).is_err()
}

impl PughExample {
    /// Reads the `pugh` section and the `schedule` paper entries of `ex`. An example
    /// without a `pugh` section, or whose section has no `execution` program, is
    /// [`SchedError::NoInput`].
    pub fn from_example(ex: &Example) -> Result<PughExample> {
        let id = ex.id.clone();
        let raw = ex.extra.get("pugh").ok_or_else(|| SchedError::NoInput(format!("{id}: no `pugh` section")))?;
        let sec: PughSection =
            typed(raw, &format!("{id}: pugh"), &[("statements", fails::<StatementSpec>), ("dependences", fails::<DependenceSpec>)])?;
        let exe = sec.execution.as_ref().ok_or_else(|| {
            SchedError::NoInput(format!("{id}: the `pugh` section has no `execution` program (accesses and original order) to schedule and run"))
        })?;
        // The one program model: domains from `pugh.statements`, accesses and original
        // order from `pugh.execution`.
        let ctx_text = ex.context.clone().unwrap_or_else(|| "{ : 0 = 0 }".into());
        let mut program = Program::new(&ctx_text).map_err(|e| SchedError::Input(format!("{id}: context `{ctx_text}`: {e}")))?;
        for (k, s) in sec.statements.iter().enumerate() {
            let what = format!("{id}: pugh.statements[{k}] and pugh.execution.statements.{}", s.name);
            let e = exe
                .statements
                .get(&s.name)
                .ok_or_else(|| SchedError::Input(format!("{id}: pugh.execution.statements has no statement `{}`", s.name)))?;
            let wr: Vec<&str> = e.writes.iter().map(String::as_str).collect();
            let rd: Vec<&str> = e.reads.iter().map(String::as_str).collect();
            let st = Statement::parse(&s.domain, &e.original, &wr, &rd).map_err(|e| SchedError::Input(format!("{what}: {e}")))?;
            if st.name != s.name {
                return Err(SchedError::Input(format!("{what}: the domain tuple is not named `{}`", s.name)));
            }
            program.add_statement(st).map_err(|e| SchedError::Input(format!("{what}: {e}")))?;
        }
        if let Some(extra) = exe.statements.keys().find(|n| !sec.statements.iter().any(|s| &s.name == *n)) {
            return Err(SchedError::Input(format!("{id}: pugh.execution.statements.{extra} is not a statement of pugh.statements")));
        }
        let index = |n: &str| program.statements.iter().position(|s| s.name == n);
        let table = match &sec.dependences {
            None => None,
            Some(ds) => {
                let mut out = Vec::new();
                for (k, d) in ds.iter().enumerate() {
                    let what = format!("{id}: pugh.dependences[{k}]");
                    let relation = Map::parse(&d.relation).map_err(|e| SchedError::Input(format!("{what}: {e}")))?;
                    let sp = relation.space();
                    let src = sp.input.as_ref().and_then(|t| t.name.as_deref()).and_then(index);
                    let tgt = sp.output.name.as_deref().and_then(index);
                    let (Some(source), Some(target)) = (src, tgt) else {
                        return Err(SchedError::Input(format!("{what}: the relation must go between two statements of pugh.statements")));
                    };
                    let kind = match d.kind {
                        DependenceKindSpec::Dependence => DepKind::Flow,
                        DependenceKindSpec::Broadcast => DepKind::Broadcast,
                        DependenceKindSpec::Reduction => DepKind::Reduction,
                    };
                    out.push(Dependence { id: d.id.clone(), kind, source, target, relation });
                }
                Some(out)
            }
        };
        let mut instances = Vec::new();
        for (k, inst) in ex.instances.iter().enumerate() {
            let v: Option<Vec<i64>> = program.params.iter().map(|p| inst.get(p).copied()).collect();
            instances.push(v.ok_or_else(|| SchedError::Input(format!("{id}: instances[{k}] lacks a parameter")))?);
        }
        let mut pe = PughExample {
            id,
            program,
            table,
            broadcast_arrays: exe.broadcast_arrays.clone(),
            reduction_arrays: exe.reduction_arrays.clone(),
            prefer_parallel: sec.scheduling.prefer_parallel.clone(),
            rounding: match sec.codegen.rounding {
                RoundingSpec::Ceil => Rounding::Ceil,
                RoundingSpec::Floor => Rounding::Floor,
            },
            eliminate: sec.codegen.eliminate.clone(),
            instances,
            entries: Vec::new(),
        };
        pe.entries = pe.paper_entries(ex)?;
        Ok(pe)
    }

    fn paper_entries(&self, ex: &Example) -> Result<Vec<PaperSchedule>> {
        // Only the parameters matter to read a schedule.
        let view = Problem::from_program(&self.program, Vec::new())?;
        let mut entries = Vec::new();
        for (k, pr) in ex.paper.iter().enumerate() {
            if pr.method != "schedule" {
                continue;
            }
            let what = format!("{}: paper[{k}]", self.id);
            let extra = Value::Object(pr.extra.iter().map(|(k, v)| (k.clone(), v.clone())).collect());
            let e: PaperScheduleSpec = typed(&extra, &what, &[])?;
            let scale = e.scale.unwrap_or(1);
            let schedule = Schedule::from_isl(&e.schedule, scale, &view)?;
            entries.push(PaperSchedule {
                role: e.role.unwrap_or_else(|| "final".into()),
                variant: e.variant,
                location: pr.location.clone().unwrap_or_default(),
                statements: e.statements,
                printed: e.schedule_printed,
                schedule,
                schedule_text: e.schedule,
                respect_broadcast: e.respect_broadcast,
                expect_valid: pr.expect.as_deref() != Some("invalid"),
                violated_distance: e.violated_distance,
                time_range: e.time_range,
            });
        }
        Ok(entries)
    }

    /// The parameter names (the program's).
    pub fn params(&self) -> &[String] {
        &self.program.params
    }

    /// Memory-based dependences computed from the program (Sec. 3), by the one
    /// dependence analysis of polyalloc.
    pub fn computed_dependences(&self, solver: &dyn Solver) -> Result<Vec<Dependence>> {
        let opts = DepOptions { broadcast_arrays: self.broadcast_arrays.clone(), reduction_arrays: self.reduction_arrays.clone() };
        Ok(deps::analyze(&self.program, &opts, solver)?)
    }

    /// The scheduling problem with the dependences computed from the program.
    pub fn computed_problem(&self, solver: &dyn Solver) -> Result<Problem> {
        Problem::from_program(&self.program, self.computed_dependences(solver)?)
    }

    /// The scheduling problem with the paper's dependence table, when the file gives
    /// one.
    pub fn table_problem(&self) -> Result<Option<Problem>> {
        self.table.as_ref().map(|t| Problem::from_program(&self.program, t.clone())).transpose()
    }

    /// The problem the method schedules: the paper's table when given (see the module
    /// documentation), otherwise the dependences computed from the program.
    pub fn problem(&self, solver: &dyn Solver) -> Result<Problem> {
        match self.table_problem()? {
            Some(p) => Ok(p),
            None => self.computed_problem(solver),
        }
    }

    /// Scheduling options for a run that respects broadcasts or not.
    pub fn options(&self, respect_broadcast: bool) -> SchedOptions {
        SchedOptions { respect_broadcast, prefer_parallel: self.prefer_parallel.clone(), ..SchedOptions::default() }
    }

    /// The broadcast settings of the scheduling runs: one per setting used by the final
    /// schedules of the paper entries (respected first, as in the paper), or `false`
    /// alone when there is none.
    pub fn settings(&self) -> Vec<bool> {
        let mut settings: Vec<bool> = self.entries.iter().filter(|e| e.role == "final").map(|e| e.respect_broadcast).collect();
        settings.sort();
        settings.dedup();
        if settings.is_empty() {
            settings.push(false);
        }
        settings.reverse();
        settings
    }
}

/// One scheduling run of an example (broadcasts respected or not).
#[derive(Clone, Debug)]
pub struct Run {
    /// Broadcast pairs got different times.
    pub respect_broadcast: bool,
    /// True when the dependences were the paper's table, false when computed from the
    /// program.
    pub from_table: bool,
    /// The problem scheduled (the view of the program with those dependences).
    pub problem: Problem,
    /// The scheduler's outcome.
    pub outcome: Outcome,
    /// The schedule per statement as printed (`i + k + 1/2`).
    pub texts: BTreeMap<String, String>,
    /// The rearranged loops.
    pub code: Code,
    /// The schedule found from the dependences computed from the accesses (Sec. 3),
    /// per statement (the same as `texts` when there is no table).
    pub from_accesses: BTreeMap<String, String>,
}

fn texts(problem: &Problem, outcome: &Outcome) -> BTreeMap<String, String> {
    problem.statements.iter().filter_map(|s| outcome.schedule.text(&s.name, &s.dims()).map(|t| (s.name.clone(), t))).collect()
}

/// Schedules and rearranges `ex` with one broadcast setting: Sec. 4 on the paper's
/// table (or the computed dependences without one), Sec. 5 on the schedule found, and
/// Sec. 4 again on the dependences computed from the program.
pub fn run(ex: &PughExample, respect_broadcast: bool, solver: &dyn Solver) -> Result<Run> {
    let opts = ex.options(respect_broadcast);
    let table = ex.table_problem()?;
    let from_table = table.is_some();
    let problem = match table {
        Some(p) => p,
        None => ex.computed_problem(solver)?,
    };
    let outcome = schedule::schedule(&problem, &opts, solver)?;
    let texts_ = texts(&problem, &outcome);
    let code = codegen::generate(&problem, &outcome.schedule, ex.rounding, &ex.eliminate, solver)?;
    let from_accesses = if from_table {
        let computed = ex.computed_problem(solver)?;
        texts(&computed, &schedule::schedule(&computed, &opts, solver)?)
    } else {
        texts_.clone()
    };
    Ok(Run { respect_broadcast, from_table, problem, outcome, texts: texts_, code, from_accesses })
}

/// [`run`] for every setting of [`PughExample::settings`].
pub fn reproduce(ex: &PughExample, solver: &dyn Solver) -> Result<Vec<Run>> {
    ex.settings().into_iter().map(|rb| run(ex, rb, solver)).collect()
}

/// The verdict of the exact checker on a paper entry's schedule (true: feasible),
/// against the dependences the method schedules on ([`PughExample::problem`]).
pub fn paper_verdict(ex: &PughExample, entry: &PaperSchedule, solver: &dyn Solver) -> Result<bool> {
    Ok(schedule::check(&ex.problem(solver)?, &entry.schedule, entry.respect_broadcast, solver)?.is_empty())
}
