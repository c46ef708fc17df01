//! Running methods: input loading, backend selection, `--params`, and [`run`], the
//! single place where a method is run, its answer verified, and its outcome recorded.

use crate::error::Error;
use crate::record::{ms, one_line, Claim, IlpStat, Record, Status};
use polyalloc_alloc::{
    verify, verify_shared, AllocError, Execution, ExecutionCheck, Input, Method, MethodError, Order, Outcome, StoragePlan, Verification,
};
use polyalloc_formulation::Polynomial;
use polyalloc_ilp::{
    budget, incremental_of, Forwarding, Incremental, Model, RawSolution, RawStatus, Recording, Session, SolutionStatus, SolveError, SolveOptions,
    SolveRecord, SolveTimes, Solver,
};
use polyalloc_program::exec::Executor;
use polyalloc_program::ProgramError;
use polyalloc_suite::jscop::JscopOptions;
use polyalloc_suite::Example;
use std::collections::BTreeMap;
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
pub fn backends(spec: &str) -> Result<Vec<Backend>, Error> {
    let reg = polyalloc_solvers::registry();
    let spec = if spec.trim() == "default" { polyalloc_solvers::DEFAULT_BACKEND } else { spec };
    let names = reg.select(spec).map_err(|e| {
        let hint = if matches!(e.name.as_str(), "highs" | "cbc") || e.name.starts_with("goodlp-") {
            format!(" (build with `--features {}` to enable it)", e.name)
        } else {
            String::new()
        };
        Error::Input(format!("{e}{hint}"))
    })?;
    if names.is_empty() {
        return Err(Error::Input(format!("no backend selected; compiled in: {}", reg.names().join(", "))));
    }
    names
        .into_iter()
        .map(|n| {
            let solver = reg.create(n).map_err(|e| Error::Solver(format!("backend `{n}`: {e}")))?;
            Ok(Backend { name: n.to_string(), solver })
        })
        .collect()
}

/// True for files the bench-suite marks `"status": "metadata-only"` (no checkable input).
pub fn is_metadata_only(ex: &Example) -> bool {
    ex.extra.get("status").and_then(|v| v.as_str()) == Some("metadata-only")
}

/// Reads an example: `-` is standard input, otherwise a path; a bench-suite id (such
/// as `smo-produce-consume`) is also accepted when no such file exists and
/// `suite_dir/<id>.json` does.
pub fn load_input(spec: &str, suite_dir: &Path) -> Result<Example, Error> {
    load_input_with(spec, suite_dir, false, &JscopOptions::default())
}

/// [`load_input`] with the options of a Polly JSCoP file (`*.jscop`, or standard input
/// read as one when `stdin_jscop`): which arrays are scratch, narrowed live-out sets,
/// parameter values (`polyalloc_suite::jscop`).
pub fn load_input_with(spec: &str, suite_dir: &Path, stdin_jscop: bool, jscop: &JscopOptions) -> Result<Example, Error> {
    let is_jscop = |p: &Path| polyalloc_suite::jscop::is_jscop(p);
    if spec == "-" {
        let text = polyalloc_suite::read_text(std::io::stdin().lock(), Path::new("<stdin>"))?;
        if stdin_jscop {
            return Ok(polyalloc_suite::jscop::read(&text, Path::new("<stdin>.jscop"), jscop)?);
        }
        return Ok(Example::from_str(&text, Path::new("<stdin>"))?);
    }
    let path = PathBuf::from(spec);
    if !is_jscop(&path) && (!jscop.scratch.is_empty() || jscop.live_out.is_some()) {
        return Err(Error::Input(format!("{spec}: --scratch and --live-out apply to Polly JSCoP files (*.jscop) only")));
    }
    if !path.exists() {
        let by_id = suite_dir.join(format!("{spec}.json"));
        if !spec.contains('/') && by_id.is_file() {
            return Ok(Example::load(&by_id)?);
        }
    }
    if is_jscop(&path) {
        let text = polyalloc_suite::read_file(&path)?;
        return Ok(polyalloc_suite::jscop::read(&text, &path, jscop)?);
    }
    Ok(Example::load(&path)?)
}

/// The JSCoP files of a directory (Polly's export directory), sorted; empty when it has
/// none.
pub fn jscop_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut out: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| polyalloc_suite::jscop::is_jscop(p)).collect();
    out.sort();
    Ok(out)
}

/// Parses `--params N=9,B=32`.
pub fn parse_params(spec: &str) -> Result<BTreeMap<String, i64>, Error> {
    let mut out = BTreeMap::new();
    for part in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) =
            part.split_once('=').ok_or_else(|| Error::Input(format!("--params: expected NAME=VALUE, found `{part}` (e.g. --params N=9,B=32)")))?;
        let name = name.trim();
        let value: i64 =
            value.trim().parse().map_err(|_| Error::Input(format!("--params: `{}` is not an integer (parameter `{name}`)", value.trim())))?;
        if out.insert(name.to_string(), value).is_some() {
            return Err(Error::Input(format!("--params: parameter `{name}` given twice")));
        }
    }
    Ok(out)
}

/// Checks `--params` against the example: every name is a parameter, every parameter
/// has a value, and the values satisfy the example's context (a mapping is verified
/// only there: its size elsewhere means nothing).
pub fn check_params(ex: &Example, values: &BTreeMap<String, i64>) -> Result<(), Error> {
    for name in values.keys() {
        if !ex.params.contains(name) {
            return Err(Error::Input(format!(
                "--params: `{name}` is not a parameter of {} (parameters: {})",
                ex.id,
                if ex.params.is_empty() { "none".to_string() } else { ex.params.join(", ") }
            )));
        }
    }
    let missing: Vec<&str> = ex.params.iter().filter(|p| !values.contains_key(*p)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err(Error::Input(format!("--params: no value for parameter(s) {} of {}", missing.join(", "), ex.id)));
    }
    if let Some(ctx) = ex.context_set()? {
        let order = &ctx.space().params;
        let at: Option<Vec<i64>> = order.iter().map(|p| values.get(p).copied()).collect();
        if let Some(at) = at {
            let inside = polyalloc_formulation::Set::from_basic(ctx.clone()).contains(&at, &[]).unwrap_or(true);
            if !inside {
                let given: Vec<String> = values.iter().map(|(k, v)| format!("{k}={v}")).collect();
                return Err(Error::Input(format!(
                    "--params: {} is outside the context of {} ({})",
                    given.join(","),
                    ex.id,
                    ex.context.as_deref().unwrap_or("")
                )));
            }
        }
    }
    Ok(())
}

/// The default wall-clock budget, in seconds, of each run of `polyalloc allocate` and
/// of `polyalloc check` (the same as `cargo xtask reproduce`'s).
pub const DEFAULT_TIME_LIMIT: f64 = 60.0;

/// The largest time limit accepted, in seconds (about 31 years).
pub const MAX_TIME_LIMIT: f64 = 1e9;

/// Parses a time limit in seconds: `0` is none, otherwise at most [`MAX_TIME_LIMIT`];
/// negative, not-a-number and larger values are input errors.
pub fn parse_time_limit(secs: f64) -> Result<Option<Duration>, Error> {
    if !secs.is_finite() || !(0.0..=MAX_TIME_LIMIT).contains(&secs) {
        return Err(Error::Input(format!("--time-limit: `{secs}` is out of range: give seconds from 0 (no limit) to {MAX_TIME_LIMIT:e}")));
    }
    if secs == 0.0 {
        return Ok(None);
    }
    Duration::try_from_secs_f64(secs).map(Some).map_err(|_| Error::Input(format!("--time-limit: `{secs}` is not a number of seconds")))
}

/// The example's largest instance (the last one: instances are ordered small to large).
pub fn largest_instance(ex: &Example) -> Option<BTreeMap<String, i64>> {
    ex.instances.last().cloned()
}

/// The arrays to run: the one asked for (which must exist and have a conflict set), or
/// every allocatable array.
pub fn arrays(ex: &Example, asked: &[String]) -> Result<Vec<String>, Error> {
    let all = ex.allocatable_arrays();
    if asked.is_empty() {
        return Ok(all);
    }
    for a in asked {
        if !all.contains(a) {
            let known: Vec<&String> = ex.arrays.keys().collect();
            return Err(Error::Input(if ex.arrays.contains_key(a) {
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

/// A file name for `s`: ASCII letters, digits, `-`, `_` and `.` kept, every other
/// character (and `%`) written as `%XX` per UTF-8 byte, so that two names never share
/// a file (`Ä` and `Ö` are `%C3%84` and `%C3%96`); a leading `.` too (no hidden file).
pub fn file_stem(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (k, c) in s.chars().enumerate() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' || (c == '.' && k > 0) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}

/// A solver with a wall-clock budget shared by every solve of one run: each solve gets
/// at most the time left (of its own budget and of the thread's
/// [`polyalloc_ilp::budget`]), and a solve stopped by the budget (with or without an
/// incumbent) is an error, never a silently worse mapping. Work between solves is
/// bounded by the thread's budget, which [`run`] sets (`polyalloc_ilp::budget::scoped`).
pub struct Budgeted<S> {
    inner: S,
    budget: Option<Duration>,
    deadline: Option<Instant>,
}

impl<S: Solver> Budgeted<S> {
    /// `inner` with `budget` from now (`None`: no limit).
    pub fn new(inner: S, budget: Option<Duration>) -> Self {
        // A budget beyond what an instant can represent is no limit (never a panic).
        let deadline = budget.and_then(|b| Instant::now().checked_add(b));
        Budgeted { inner, budget: budget.filter(|_| deadline.is_some()), deadline }
    }

    fn exhausted(&self) -> SolveError {
        SolveError::TimeBudget { backend: self.inner.name().to_string(), seconds: self.budget.unwrap_or_default().as_secs_f64() }
    }
}

impl<S: Solver> Budgeted<S> {
    /// The options of one solve under the budget: the time left (the tighter of this
    /// solver's budget and the thread's [`polyalloc_ilp::budget`]) when it is less than
    /// asked, with the error to report when that limit stops the solve (`None`: the
    /// limit is the caller's own); `Err` when a budget is used up.
    fn limited<'o>(&self, options: &'o SolveOptions) -> Result<(std::borrow::Cow<'o, SolveOptions>, Option<SolveError>), SolveError> {
        budget::check()?;
        let own = self.deadline.map(|d| (d.saturating_duration_since(Instant::now()), self.exhausted()));
        let thread = budget::remaining().zip(budget::exhausted());
        let limit = match (own, thread) {
            (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
            (a, b) => a.or(b),
        };
        let Some((remaining, exhausted)) = limit else { return Ok((std::borrow::Cow::Borrowed(options), None)) };
        if remaining.is_zero() {
            return Err(exhausted);
        }
        if options.time_limit.is_some_and(|t| t <= remaining) {
            return Ok((std::borrow::Cow::Borrowed(options), None));
        }
        let mut o = options.clone();
        o.time_limit = Some(remaining);
        Ok((std::borrow::Cow::Owned(o), Some(exhausted)))
    }
}

impl<S: Solver> Solver for Budgeted<S> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn solve_raw(&self, model: &Model, options: &SolveOptions) -> Result<RawSolution, SolveError> {
        self.solve_raw_timed(model, options).map(|(r, _)| r)
    }

    fn solve_raw_timed(&self, model: &Model, options: &SolveOptions) -> Result<(RawSolution, SolveTimes), SolveError> {
        let (o, ours) = self.limited(options)?;
        match (self.inner.solve_raw_timed(model, &o), ours) {
            (Ok((r, _)), Some(e)) if r.status == RawStatus::TimeLimit => Err(e),
            (Err(SolveError::TimeLimitNoIncumbent), Some(e)) => Err(e),
            (other, _) => other,
        }
    }

    fn incremental(&self) -> Option<&dyn Incremental> {
        self.inner.incremental().map(|_| self as &dyn Incremental)
    }
}

impl<S: Solver> Incremental for Budgeted<S> {
    fn start<'a>(&'a self, model: &Model, options: &SolveOptions) -> Result<Box<dyn Session + 'a>, SolveError> {
        let (o, _) = self.limited(options)?;
        let inner = incremental_of(&self.inner)?.start(model, &o)?;
        // A session under the budget: every solve gets the time left.
        Ok(Forwarding::boxed(inner, move |inner: &mut dyn Session, options: &SolveOptions, start: Option<&[f64]>| {
            let (o, ours) = self.limited(options)?;
            match (inner.solve(&o, start), ours) {
                (Ok(s), Some(e)) if s.status() == SolutionStatus::TimeLimitFeasible => Err(e),
                (Err(SolveError::TimeLimitNoIncumbent), Some(e)) => Err(e),
                (other, _) => other,
            }
        }))
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

/// One array of a shared storage stored alone, verified (see [`Verified::separate`]).
#[derive(Clone, Debug)]
pub struct Separate {
    pub array: String,
    pub mapping: polyalloc_formulation::ModularMapping,
    pub size: Option<Polynomial>,
    pub verification: Verification,
}

/// Why a run produced no verified answer.
#[derive(Debug, thiserror::Error)]
pub enum Failure {
    /// The method gave no answer (not applicable, solver, input, its own logic).
    #[error("{0}")]
    Method(#[from] MethodError),
    /// The exact checker refuted the mapping under one obligation (never reported as a
    /// result).
    #[error("under {under}: {error}")]
    Refuted { under: String, error: AllocError },
    /// The checker itself could not conclude (a solver or formulation failure).
    #[error("verification under {under}: {error}")]
    Check { under: String, error: AllocError },
    /// The program run with the method's answer computed other values.
    #[error("execution differs from the original program: {}", .0.summary)]
    ExecutionDiffers(Execution),
    /// The executor could not run the method's order or storage (not a difference of
    /// values: a malformed run).
    #[error("execution `{label}`: {error}")]
    ExecutionError { label: String, error: Box<ProgramError> },
    /// The method returned a mapping with nothing to verify it against, or no answer.
    #[error("{0}")]
    Unverifiable(String),
}

impl Failure {
    /// The record status of this failure.
    pub fn status(&self) -> Status {
        match self {
            Failure::Method(MethodError::NotApplicable(_)) | Failure::Unverifiable(_) => Status::NotApplicable,
            Failure::Method(MethodError::Solver(_)) => Status::SolverError,
            Failure::Method(MethodError::Method(_)) => Status::MethodError,
            Failure::Method(_) => Status::Error,
            Failure::Refuted { .. } | Failure::ExecutionDiffers(_) => Status::Invalid,
            Failure::Check { error: AllocError::Solver { .. }, .. } => Status::SolverError,
            Failure::Check { .. } | Failure::ExecutionError { .. } => Status::Error,
        }
    }

    /// The kind recorded next to the status: the solver's kind for a solver failure
    /// (`infeasible`, `time-budget`, ...), the refutation (`conflict`,
    /// `non-positive-modulus`, `unproven`, `execution`), or the method error's kind.
    pub fn kind(&self) -> &'static str {
        match self {
            Failure::Method(MethodError::Solver(e)) => e.kind(),
            Failure::Method(e) => e.kind(),
            Failure::Refuted { error: AllocError::Invalid { refutation, .. }, .. } => refutation.kind(),
            Failure::Refuted { .. } => "refuted",
            Failure::Check { error: AllocError::Solver { source, .. }, .. } => source.kind(),
            Failure::Check { .. } => "check",
            Failure::ExecutionDiffers(_) => "execution",
            Failure::ExecutionError { .. } => "execution-error",
            Failure::Unverifiable(_) => "unverifiable",
        }
    }
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

/// Verifies a method's outcome: the mapping under every obligation with the exact
/// checker, and every execution check with the one executor. Returns the overall
/// verification and each obligation's; a refutation, a checker failure, a differing
/// execution or an answer with nothing to verify is a [`Failure`].
pub fn verify_outcome(
    input: &Input,
    outcome: &Outcome,
    solver: &dyn Solver,
    method: &str,
) -> Result<(Verification, Vec<(String, Verification)>), Failure> {
    verify_outcome_with(input, outcome, solver, method).map(|((v, under, _), _)| (v, under))
}

type Checked = (Verification, Vec<(String, Verification)>, Option<Execution>);

fn verify_outcome_with(input: &Input, outcome: &Outcome, solver: &dyn Solver, method: &str) -> Result<(Checked, Vec<Separate>), Failure> {
    let Some(shared) = &outcome.shared else { return Ok((verify_mapping(input, outcome, solver, method)?, Vec::new())) };
    if outcome.mapping.is_some() {
        return Err(Failure::Unverifiable("the method returned both a mapping and a shared storage".into()));
    }
    if shared.obligations.is_empty() {
        return Err(Failure::Unverifiable("the method returned a shared storage with no conflict set to verify it against".into()));
    }
    // The shared storage under every obligation, with the shared-storage checker.
    let mut verified_under = Vec::new();
    for ob in &shared.obligations {
        match verify_shared(&ob.problem, &shared.mapping, solver, method) {
            Ok(v) => verified_under.push((ob.label.clone(), v)),
            Err(error @ AllocError::Invalid { .. }) => return Err(Failure::Refuted { under: ob.label.clone(), error }),
            Err(error) => return Err(Failure::Check { under: ob.label.clone(), error }),
        }
    }
    // Each array alone, against its own conflict set.
    let mut separate = Vec::new();
    for (array, mapping) in &shared.separate {
        let under = format!("{array} alone");
        let problem = input.problem(array).map_err(|e| Failure::Method(MethodError::Input(e)))?;
        let verification = match verify(&problem, mapping, solver, method) {
            Ok(v) => v,
            Err(error @ AllocError::Invalid { .. }) => return Err(Failure::Refuted { under, error }),
            Err(error) => return Err(Failure::Check { under, error }),
        };
        let size = mapping.size().map_err(|e| Failure::Method(MethodError::Formulation(e)))?;
        separate.push(Separate { array: array.clone(), mapping: mapping.clone(), size, verification });
    }
    let verification = verified_under.iter().find(|(_, v)| *v != Verification::Proven).map_or(Verification::Proven, |(_, v)| v.clone());
    Ok(((verification, verified_under, None), separate))
}

fn verify_mapping(input: &Input, outcome: &Outcome, solver: &dyn Solver, method: &str) -> Result<Checked, Failure> {
    match (&outcome.mapping, outcome.executions.is_empty()) {
        (Some(_), true) if outcome.obligations.is_empty() => {
            return Err(Failure::Unverifiable("the method returned a mapping with no conflict set to verify it against".into()))
        }
        (None, true) => return Err(Failure::Unverifiable("the method's answer induces no storage mapping and no execution to verify".into())),
        _ => {}
    }
    let mut verified_under = Vec::new();
    if let Some(mapping) = &outcome.mapping {
        for ob in &outcome.obligations {
            match verify(&ob.problem, mapping, solver, method) {
                // A mapping claimed at one instance (its obligation's context fixes every
                // parameter) is proven there, not for every size.
                Ok(Verification::Proven) if ob.at.is_some() => verified_under.push((
                    ob.label.clone(),
                    Verification::Instances {
                        reason: "an instance-specific mapping: proven by the exact checker at the parameter values it was computed for, and claimed there only".into(),
                        instances: ob.at.iter().cloned().collect(),
                    },
                )),
                Ok(v) => verified_under.push((ob.label.clone(), v)),
                Err(error @ AllocError::Invalid { .. }) => return Err(Failure::Refuted { under: ob.label.clone(), error }),
                Err(error) => return Err(Failure::Check { under: ob.label.clone(), error }),
            }
        }
    }
    let execution = if outcome.executions.is_empty() { None } else { Some(execute(&outcome.executions)?) };
    // A mapping proven under every obligation is proven, executions being additional
    // evidence; an answer whose only evidence is an execution holds at its instances.
    let all_proven = !verified_under.is_empty() && verified_under.iter().all(|(_, v)| *v == Verification::Proven);
    let verification = if all_proven {
        Verification::Proven
    } else {
        let first = verified_under.iter().find_map(|(_, v)| match v {
            Verification::Instances { reason, instances } => Some((reason.clone(), instances.clone())),
            Verification::Proven => None,
        });
        let instances = first.as_ref().map_or_else(|| input.example.instance_list(), |(_, i)| i.clone());
        let reason = match (&execution, first) {
            (Some(ex), _) if verified_under.is_empty() => format!("executed at {} instance(s): {}", ex.instances, ex.summary),
            (Some(ex), _) => format!("conflict sets checked, and executed at {} instance(s): {}", ex.instances, ex.summary),
            // The checker's own reason (a symbolic proof that did not conclude, or an
            // instance-specific mapping).
            (None, Some((reason, _))) => reason,
            (None, None) => "a symbolic proof did not conclude; the conflicts were enumerated at the instances".into(),
        };
        Verification::Instances { reason, instances }
    };
    Ok((verification, verified_under, execution))
}

/// Runs every execution check with the one executor (`polyalloc_program::exec`): the
/// original program against the transformed order and storage, at every instance. The
/// first differing run is a [`Failure::ExecutionDiffers`]; a run that cannot proceed
/// (a malformed order, a limit) is a [`Failure::ExecutionError`].
pub fn execute(checks: &[ExecutionCheck]) -> Result<Execution, Failure> {
    let mut runs = 0usize;
    let mut labels = Vec::new();
    for check in checks {
        let run_error = |e: ProgramError| Failure::ExecutionError { label: check.label.clone(), error: Box::new(e) };
        let exec = Executor::with_hash_bodies(check.program.clone()).with_reduction_arrays(check.reduction_arrays.clone());
        for params in &check.instances {
            let storage = match &check.storage {
                StoragePlan::Fixed(s) => s.clone(),
                StoragePlan::PerInstance(f) => f(params).map_err(run_error)?,
            };
            let trace = match &check.order {
                Order::Original => exec.original_trace(params),
                Order::Time(f) => exec.trace_by(params, &|k, it| f(k, params, it)),
                Order::Trace(f) => f(params),
            }
            .map_err(run_error)?;
            let report = exec.compare(params, &trace, &storage).map_err(run_error)?;
            runs += 1;
            if !report.ok() {
                return Err(Failure::ExecutionDiffers(Execution {
                    instances: runs,
                    identical: false,
                    summary: format!("{} at {params:?}: {}", check.label, report.summary()),
                }));
            }
        }
        labels.push(format!("{} ({} instances)", check.label, check.instances.len()));
    }
    Ok(Execution { instances: runs, identical: true, summary: format!("identical to the original program: {}", labels.join(", ")) })
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
        // Bounded like a run (its own budget of the same length).
        let start = Instant::now();
        let limit = budget::scoped(&backend.name, opts.time_limit, || {
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
