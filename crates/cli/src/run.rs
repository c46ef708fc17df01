//! Running methods: input loading, method/backend selection, `--params`, and
//! [`run_one`], the single place where a method is run and its outcome recorded.

use crate::error::CliError;
use crate::record::{Record, Status};
use polyalloc_alloc::{allocate_recorded, Allocator, MethodRegistry, Problem};
use polyalloc_ilp::{Model, RawSolution, RawStatus, Recording, SolveError, SolveOptions, Solver};
use polyalloc_suite::Example;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A created solver backend.
pub struct Backend {
    /// The registry name.
    pub name: String,
    /// The solver.
    pub solver: Box<dyn Solver>,
}

/// Creates the backends of a selection: `all`, a name, or `a,b` (`default` is the
/// built-in one). An unknown name is an input error listing the compiled-in backends.
pub fn backends(spec: &str) -> Result<Vec<Backend>, CliError> {
    let reg = polyalloc_solvers::registry();
    let spec = if spec.trim() == "default" { polyalloc_solvers::DEFAULT_BACKEND } else { spec };
    let names = reg.select(spec).map_err(|e| {
        let hint = if matches!(e.name.as_str(), "highs" | "cbc") {
            format!(" (build with `--features {}` to enable it)", e.name)
        } else {
            String::new()
        };
        CliError::Input(format!("{e}{hint}"))
    })?;
    if names.is_empty() {
        return Err(CliError::Input(format!("no backend selected; compiled in: {}", reg.names().join(", "))));
    }
    names
        .into_iter()
        .map(|n| {
            let solver = reg.create(n).map_err(|e| CliError::Solver(format!("backend `{n}`: {e}")))?;
            Ok(Backend { name: n.to_string(), solver })
        })
        .collect()
}

/// Resolves a method selection (`all`, a name, `a,b`); an unknown name is an input error
/// listing the available methods.
pub fn select_methods<'a>(registry: &'a MethodRegistry, spec: &str) -> Result<Vec<&'a dyn Allocator>, CliError> {
    let ms = registry.select(spec).map_err(CliError::Input)?;
    if ms.is_empty() {
        return Err(CliError::Input(format!("no method selected; available: {}", registry.names().join(", "))));
    }
    Ok(ms)
}

/// True for files the bench-suite marks `"status": "metadata-only"` (no checkable input).
pub fn is_metadata_only(ex: &Example) -> bool {
    ex.extra.get("status").and_then(|v| v.as_str()) == Some("metadata-only")
}

/// Reads an example: `-` is standard input, otherwise a path; a bench-suite id (such
/// as `smo-produce-consume`) is also accepted when no such file exists and
/// `suite_dir/<id>.json` does.
pub fn load_input(spec: &str, suite_dir: &Path) -> Result<Example, CliError> {
    if spec == "-" {
        let mut text = String::new();
        std::io::stdin().read_to_string(&mut text).map_err(|e| CliError::io("<stdin>", e))?;
        return Ok(Example::from_str(&text, Path::new("<stdin>"))?);
    }
    let path = PathBuf::from(spec);
    if !path.exists() {
        let by_id = suite_dir.join(format!("{spec}.json"));
        if !spec.contains('/') && by_id.is_file() {
            return Ok(Example::load(&by_id)?);
        }
    }
    Ok(Example::load(&path)?)
}

/// Parses `--params N=9,B=32`.
pub fn parse_params(spec: &str) -> Result<BTreeMap<String, i64>, CliError> {
    let mut out = BTreeMap::new();
    for part in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) = part
            .split_once('=')
            .ok_or_else(|| CliError::Input(format!("--params: expected NAME=VALUE, found `{part}` (e.g. --params N=9,B=32)")))?;
        let name = name.trim();
        let value: i64 = value
            .trim()
            .parse()
            .map_err(|_| CliError::Input(format!("--params: `{}` is not an integer (parameter `{name}`)", value.trim())))?;
        if out.insert(name.to_string(), value).is_some() {
            return Err(CliError::Input(format!("--params: parameter `{name}` given twice")));
        }
    }
    Ok(out)
}

/// Checks `--params` against the example: every name is a parameter, every parameter
/// has a value.
pub fn check_params(ex: &Example, values: &BTreeMap<String, i64>) -> Result<(), CliError> {
    for name in values.keys() {
        if !ex.params.contains(name) {
            return Err(CliError::Input(format!(
                "--params: `{name}` is not a parameter of {} (parameters: {})",
                ex.id,
                if ex.params.is_empty() { "none".to_string() } else { ex.params.join(", ") }
            )));
        }
    }
    let missing: Vec<&str> = ex.params.iter().filter(|p| !values.contains_key(*p)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err(CliError::Input(format!("--params: no value for parameter(s) {} of {}", missing.join(", "), ex.id)));
    }
    Ok(())
}

/// Parses a time limit in seconds (`0` or negative: none).
pub fn parse_time_limit(secs: f64) -> Result<Option<Duration>, CliError> {
    if !secs.is_finite() {
        return Err(CliError::Input(format!("--time-limit: `{secs}` is not a number of seconds")));
    }
    Ok(if secs > 0.0 { Some(Duration::from_secs_f64(secs)) } else { None })
}

/// The example's largest instance (the last one: instances are ordered small to large).
pub fn largest_instance(ex: &Example) -> Option<BTreeMap<String, i64>> {
    ex.instances.last().cloned()
}

/// The arrays to run: the one asked for (which must exist and have a conflict set), or
/// every allocatable array.
pub fn arrays(ex: &Example, asked: &[String]) -> Result<Vec<String>, CliError> {
    let all = ex.allocatable_arrays();
    if asked.is_empty() {
        return Ok(all);
    }
    for a in asked {
        if !all.contains(a) {
            let known: Vec<&String> = ex.arrays.keys().collect();
            return Err(CliError::Input(if ex.arrays.contains_key(a) {
                format!("{}: array `{a}` has neither conflicts nor a program to compute them from", ex.file.display())
            } else {
                format!(
                    "{}: no array `{a}`; arrays: {}",
                    ex.file.display(),
                    if known.is_empty() { "none".into() } else { known.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ") }
                )
            }));
        }
    }
    Ok(asked.to_vec())
}

/// Replaces characters that are awkward in file names.
pub fn file_stem(s: &str) -> String {
    s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' }).collect()
}

/// A solver with a wall-clock budget shared by every solve of one run: each solve gets
/// at most the time left, and a solve stopped by the budget (with or without an
/// incumbent) is an error, never a silently worse mapping. Work between solves is not
/// interrupted; the next solve fails at once.
pub struct Budgeted<S> {
    inner: S,
    budget: Option<Duration>,
    deadline: Option<Instant>,
}

impl<S: Solver> Budgeted<S> {
    /// `inner` with `budget` from now (`None`: no limit).
    pub fn new(inner: S, budget: Option<Duration>) -> Self {
        Budgeted { inner, budget, deadline: budget.map(|b| Instant::now() + b) }
    }

    fn exhausted(&self) -> SolveError {
        SolveError::Solver {
            backend: self.inner.name().to_string(),
            message: format!("time limit of {:.0} s per run exhausted", self.budget.unwrap_or_default().as_secs_f64()),
        }
    }
}

impl<S: Solver> Solver for Budgeted<S> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        let Some(deadline) = self.deadline else { return self.inner.solve_raw(model, options) };
        let remaining = deadline.saturating_duration_since(Instant::now());
        if remaining.is_zero() {
            return Err(self.exhausted());
        }
        let ours = options.time_limit.is_none_or(|t| remaining < t);
        let mut o = options.clone();
        if ours {
            o.time_limit = Some(remaining);
        }
        match self.inner.solve_raw(model, &o) {
            Ok(r) if ours && r.status == RawStatus::TimeLimit => Err(self.exhausted()),
            Err(SolveError::TimeLimitNoIncumbent) if ours => Err(self.exhausted()),
            other => other,
        }
    }
}

/// How to run: where the size is evaluated, where ILPs are dumped, the time budget.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions<'a> {
    /// Parameter values for `size_at`.
    pub size_params: Option<&'a BTreeMap<String, i64>>,
    /// `--dump-lp DIR`.
    pub dump_lp: Option<&'a Path>,
    /// Wall-clock budget of the run's ILPs (method and verification).
    pub time_limit: Option<Duration>,
}

/// Runs one method on one problem with one backend: `allocate` (which verifies the
/// mapping with the exact checker) under a recorder, optionally dumping every ILP in LP
/// format to `dump_lp/<example>-<array>-<method>-<backend>/`. Never fails: a failure is a
/// record with a non-`ok` status and the message.
pub fn run_one(example: &str, problem: &Problem, method: &dyn Allocator, backend: &Backend, opts: RunOptions<'_>) -> Record {
    let array = problem.array().to_string();
    let mut rec = Recording::new(Budgeted::new(backend.solver.as_ref(), opts.time_limit));
    if let Some(dir) = opts.dump_lp {
        rec = rec.with_dump_dir(dir.join(file_stem(&format!("{example}-{array}-{}-{}", method.name(), backend.name))));
    }
    match allocate_recorded(method, problem, &rec) {
        Ok(a) => Record::from_allocation(example, &array, &a, opts.size_params),
        Err(e) => {
            let mut r = Record::from_error(example, &array, method.name(), &backend.name, &e);
            r.ilps = Record::from_allocation_stats(&rec);
            r.solve_ms = r.ilps.iter().map(|s| s.ms).sum();
            r
        }
    }
}

impl Record {
    fn from_allocation_stats<S: Solver>(rec: &Recording<S>) -> Vec<crate::record::IlpStat> {
        rec.take_records()
            .into_iter()
            .map(|s| crate::record::IlpStat {
                model: s.model,
                num_vars: s.num_vars,
                num_integer_vars: s.num_integer_vars,
                num_constraints: s.num_constraints,
                ms: crate::record::ms(s.elapsed),
                outcome: s.outcome,
            })
            .collect()
    }
}

/// The exit code of a set of records: 3 if a mapping was refuted, else 2 if a solver
/// or method failed, else 1 if no method applied at all, else 0.
pub fn exit_code(records: &[Record]) -> i32 {
    if records.iter().any(|r| r.status == Status::Invalid) {
        crate::EXIT_VERIFICATION
    } else if records.iter().any(|r| matches!(r.status, Status::SolverError | Status::Error)) {
        crate::EXIT_SOLVER
    } else if !records.is_empty() && records.iter().all(|r| r.status == Status::NotApplicable) {
        crate::EXIT_INPUT
    } else {
        crate::EXIT_OK
    }
}
