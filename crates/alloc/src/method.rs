//! The one interface every method of polyalloc implements: [`Method`].
//!
//! A method reads one [`Input`], an example (its conflict sets and/or its program and schedules,
//! its own typed section, the instances) and, per *target* (an array, or a named run
//! for methods whose answer is not per array), returns an [`Outcome`]: the storage
//! mapping it proposes, with every conflict set it claims that mapping is valid for
//! ([`Obligation`]: one per schedule it must hold under), and its typed, serialisable
//! details. The method never verifies its own answer: the facade (`polyalloc::run`)
//! verifies every obligation with the exact checker of `polyalloc-formulation`, which
//! shares no code with any method, before the mapping is reported.
//!
//! Errors are typed ([`MethodError`]): a method that does not apply, a solver failure
//! (with the solver's own [`SolveError`], so infeasible, unbounded and time limits stay
//! distinct), an input the method cannot read, a formulation failure, or the method's
//! own logic giving up. A refuted mapping is not a method error: it is the verdict of
//! the checker, reported by the facade.
//!
//! Capabilities are separate traits: a method that works on one array's conflict set
//! implements [`Allocator`] and is registered through [`OnConflictSets`], which makes it
//! a [`Method`] and still hands out the [`Allocator`] ([`Method::as_allocator`]) to
//! callers that have a [`Problem`] of their own (the kernels, the tests).

use crate::{AllocError, Allocator, Problem};
use polyalloc_formulation::{ModularMapping, SharedMapping};
use polyalloc_ilp::{SolveError, Solver};
use polyalloc_program::exec::{Storage, Trace};
use polyalloc_program::{Program, ProgramError};
use polyalloc_suite::{Example, InterProblem, SuiteError};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::Mutex;

/// The typed input of every method: one example, with the conflict sets computed once
/// and shared by every method and backend that asks for them (a program's conflict
/// set can take seconds to build).
pub struct Input {
    /// The example (conflict sets and/or program, method sections, instances).
    pub example: Example,
    /// The parameter values at which sizes are compared (`best`) and reported; `None`:
    /// the example's largest instance (its last).
    pub at: Option<BTreeMap<String, i64>>,
    /// How long reading the example took (file, parsing, validation), when the caller
    /// measured it: reported in each record of the input (`read_ms`).
    pub read_time: Option<std::time::Duration>,
    problems: Slots<Result<Problem, SuiteError>>,
    memo: Slots<Box<dyn std::any::Any + Send>>,
}

/// Values computed once per key, each key with its own lock (see [`slot`]).
type Slots<V> = Mutex<BTreeMap<String, Arc<Mutex<Option<V>>>>>;

/// The slot of `key` in a map of per-key slots (created empty on first use). Each key
/// has its own lock: one caller computes a value while the others of the same key wait
/// for it, and other keys are not held up.
fn slot<V>(map: &Slots<V>, key: &str) -> Arc<Mutex<Option<V>>> {
    // A poisoned lock only means another thread panicked while inserting: the map
    // itself is still a valid cache.
    let mut m = map.lock().unwrap_or_else(|p| p.into_inner());
    m.entry(key.to_string()).or_default().clone()
}

impl Input {
    /// Wraps an example.
    pub fn new(example: Example) -> Input {
        Input { example, at: None, read_time: None, problems: Mutex::new(BTreeMap::new()), memo: Mutex::new(BTreeMap::new()) }
    }

    /// The input of one conflict set built in code (a [`Problem`], not a file): an
    /// example with the one array `array`, whose conflict set is `problem` itself (not
    /// recomputed from its printed form), its parameters, context and instances. Every
    /// conflict-set method runs on it through the facade's one door, like a file's.
    pub fn from_problem(array: &str, problem: Problem) -> Input {
        let params = problem.params().to_vec();
        let instances = problem.instances.iter().map(|v| params.iter().cloned().zip(v.iter().copied()).collect()).collect();
        // Without the array's space, the conflicts' domain stands for it in the text;
        // the problem itself keeps `space: None` (moduli checked where conflicts are).
        let space = match &problem.space {
            Some(s) => s.to_string(),
            None => problem.conflicts.relation.domain().map(|d| d.to_string()).unwrap_or_default(),
        };
        let spec = polyalloc_suite::ArraySpec {
            space,
            conflicts: Some(problem.conflicts.relation.to_string()),
            conflicts_form: None,
            extra: BTreeMap::new(),
        };
        let example = Example {
            id: problem.example.clone(),
            title: problem.example.clone(),
            source: polyalloc_suite::Source { paper: "code".into(), location: "Input::from_problem".into() },
            params,
            context: problem.context.as_ref().map(|c| c.to_string()),
            arrays: BTreeMap::from([(array.to_string(), spec)]),
            program: None,
            instances,
            paper: Vec::new(),
            note: None,
            extra: BTreeMap::new(),
            file: std::path::PathBuf::new(),
        };
        let input = Input::new(example);
        *slot(&input.problems, array).lock().unwrap_or_else(|p| p.into_inner()) = Some(Ok(problem));
        input
    }

    /// The same input with sizes compared and reported at `at`.
    pub fn with_instance(mut self, at: BTreeMap<String, i64>) -> Input {
        self.at = Some(at);
        self
    }

    /// The same input, read in `d` (see [`Input::read_time`]).
    pub fn with_read_time(mut self, d: std::time::Duration) -> Input {
        self.read_time = Some(d);
        self
    }

    /// Where sizes are compared: [`Input::at`], else the example's largest instance.
    pub fn size_point(&self) -> Option<BTreeMap<String, i64>> {
        self.at.clone().or_else(|| self.example.instances.last().cloned())
    }

    /// The conflict-set problem of `array` (computed on first use, then shared; other
    /// arrays' problems are computed meanwhile). The time spent here, computing or
    /// waiting for another thread's computation, counts in [`conflict_set_time`].
    pub fn problem(&self, array: &str) -> Result<Problem, SuiteError> {
        timed_conflicts(|| {
            let cell = slot(&self.problems, array);
            let mut value = cell.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(v) = value.as_ref() {
                return v.clone();
            }
            let v = self.example.problem(array);
            if keeps() {
                *value = Some(v.clone());
            }
            v
        })
    }

    /// The conflict sets of the arrays of the example's `inter_array` section, which may
    /// share one storage (`None` without the section), computed once per input and
    /// counted in [`conflict_set_time`] like [`Input::problem`].
    pub fn inter_problem(&self) -> Result<Option<InterProblem>, SuiteError> {
        timed_conflicts(|| self.memo("inter-array problem", || self.example.inter_problem()))
    }
}

thread_local! {
    static CONFLICT_SET_TIME: std::cell::Cell<std::time::Duration> = const { std::cell::Cell::new(std::time::Duration::ZERO) };
    static IN_CONFLICTS: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The wall-clock time this thread has spent in [`Input::problem`] and
/// [`Input::inter_problem`] so far (building conflict sets, or finding them built). The
/// facade reads it before and after each phase of a run, so that a run's record can say
/// how much of its time went to the conflict sets rather than to the method.
pub fn conflict_set_time() -> std::time::Duration {
    CONFLICT_SET_TIME.with(std::cell::Cell::get)
}

/// Runs `f`, adding its time to [`conflict_set_time`] (once: a nested call is not
/// counted twice).
fn timed_conflicts<T>(f: impl FnOnce() -> T) -> T {
    if IN_CONFLICTS.with(std::cell::Cell::get) {
        return f();
    }
    /// Counts the time and clears the flag when dropped, also when `f` unwinds.
    struct Guard(std::time::Instant);
    impl Drop for Guard {
        fn drop(&mut self) {
            let spent = self.0.elapsed();
            IN_CONFLICTS.with(|c| c.set(false));
            CONFLICT_SET_TIME.with(|t| t.set(t.get() + spent));
        }
    }
    IN_CONFLICTS.with(|c| c.set(true));
    let _guard = Guard(std::time::Instant::now());
    f()
}

impl Input {
    /// Work that does not depend on the solver, done once per input and shared by every
    /// backend and method that asks for the same `key` (for instance a conflict set
    /// under one schedule): `compute` runs on the first call, later calls clone its
    /// value; a call made while the first one computes waits for it (runs in parallel
    /// do not compute it twice). A key already holding a value of another type is
    /// recomputed and replaced. `compute` may use the memo with other keys.
    pub fn memo<T: Clone + Send + 'static>(&self, key: &str, compute: impl FnOnce() -> T) -> T {
        let cell = slot(&self.memo, key);
        let mut value = cell.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(v) = value.as_ref().and_then(|b| b.downcast_ref::<T>()) {
            return v.clone();
        }
        let v = compute();
        if keeps() {
            *value = Some(Box::new(v.clone()));
        }
        v
    }
}

/// Whether a value just computed for the cache may be kept: not when the run that
/// computed it ran out of its time budget (or was interrupted) meanwhile, since the
/// value may be that stop (`SuiteError::Stopped`) rather than the answer, and a later
/// run with a budget of its own must compute it again.
fn keeps() -> bool {
    polyalloc_ilp::budget::check().is_ok()
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input").field("example", &self.example.id).field("at", &self.at).finish_non_exhaustive()
    }
}

impl From<Example> for Input {
    fn from(example: Example) -> Input {
        Input::new(example)
    }
}

/// Method-specific results, keyed by name: each method serialises its own typed details
/// struct (documented in its crate) into this map, which is the `details` object of the
/// JSON record. A consumer that wants them typed deserialises into that struct.
pub type Details = BTreeMap<String, serde_json::Value>;

/// Serialises a typed details struct into [`Details`] (an object's fields; anything
/// else under the key `value`).
pub fn details_of<T: serde::Serialize>(t: &T) -> Details {
    match serde_json::to_value(t) {
        Ok(serde_json::Value::Object(m)) => m.into_iter().collect(),
        Ok(v) => BTreeMap::from([("value".to_string(), v)]),
        Err(e) => BTreeMap::from([("serialisation_error".to_string(), serde_json::Value::String(e.to_string()))]),
    }
}

/// A conflict set a proposed mapping must be valid for: the array's conflicts under one
/// schedule (or the file's conflict set), with a label for reports (the schedule).
#[derive(Clone, Debug)]
pub struct Obligation {
    /// What it is (`"given"`, or the schedule as text).
    pub label: String,
    /// The conflict set, context and instances.
    pub problem: Problem,
    /// `Some(values)`: the mapping is claimed at these parameter values only (an
    /// instance-specific method such as `lattice-exact`); `problem`'s context fixes
    /// every parameter to them, and the facade reports a proof as holding at that
    /// instance (`Verification::Instances`), never as proven for every size. `None`:
    /// claimed wherever `problem`'s context holds.
    pub at: Option<Vec<i64>>,
}

/// The conflicts a shared storage ([`SharedAnswer`]) must respect: those within and
/// between the arrays sharing it, with a label for reports.
#[derive(Clone, Debug)]
pub struct SharedObligation {
    /// What it is (`"conflict set"`).
    pub label: String,
    /// The arrays' conflict sets and the conflicts between them, spaces, context,
    /// instances.
    pub problem: InterProblem,
}

/// The answer of an inter-array method: several arrays in one storage
/// ([`SharedMapping`]), the conflicts it must respect, and for comparison each array in
/// a storage of its own (its intra-array mapping). The facade verifies the shared
/// mapping under every obligation with the shared-storage checker, and each separate
/// mapping against its array's own conflict set, before anything is reported.
#[derive(Clone, Debug)]
pub struct SharedAnswer {
    /// The shared storage.
    pub mapping: SharedMapping,
    /// The conflict sets it must be valid for.
    pub obligations: Vec<SharedObligation>,
    /// Each array stored alone: `(array, intra-array mapping)`, the baseline the shared
    /// storage is compared with (its total size is the sum of these sizes).
    pub separate: Vec<(String, ModularMapping)>,
}

/// The order in which an [`ExecutionCheck`] runs the program's statement instances.
#[derive(Clone)]
pub enum Order {
    /// The program's own schedules (a storage mapping checked under them).
    Original,
    /// A time per statement instance: `time(statement index, parameter values,
    /// iteration)`, compared lexicographically; instances with equal times run in
    /// parallel (they read the memory as it was before the step). Affine, rational
    /// (scaled) and fused schedules are all of this kind.
    Time(Arc<TimeFunction>),
    /// The execution trace at the given parameter values (for example the rearranged
    /// loops of Pugh 1991, Sec. 5, interpreted).
    Trace(Arc<TraceFunction>),
}

/// See [`Order::Time`].
pub type TimeFunction = dyn Fn(usize, &[i64], &[i64]) -> Result<Vec<i64>, ProgramError> + Send + Sync;
/// See [`Order::Trace`].
pub type TraceFunction = dyn Fn(&[i64]) -> Result<Trace, ProgramError> + Send + Sync;

impl std::fmt::Debug for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Order::Original => "Original",
            Order::Time(_) => "Time(..)",
            Order::Trace(_) => "Trace(..)",
        })
    }
}

/// Where the transformed program keeps each array's cells.
#[derive(Clone)]
pub enum StoragePlan {
    /// The same storage at every instance (a [`ModularMapping`] per folded array; the
    /// other arrays keep a location per cell).
    Fixed(Storage),
    /// A storage computed per instance (parameter values), for mappings whose
    /// coefficients are not integers before the parameters are known.
    PerInstance(Arc<StorageFunction>),
}

/// See [`StoragePlan::PerInstance`].
pub type StorageFunction = dyn Fn(&[i64]) -> Result<Storage, ProgramError> + Send + Sync;

impl std::fmt::Debug for StoragePlan {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StoragePlan::Fixed(s) => f.debug_tuple("Fixed").field(&s.keys().collect::<Vec<_>>()).finish(),
            StoragePlan::PerInstance(_) => f.write_str("PerInstance(..)"),
        }
    }
}

/// A run of the program that confirms a method's answer, performed by the facade with
/// the one executor of polyalloc (`polyalloc_program::exec`), never by the method: the
/// program runs in its original order with a location per cell, then in `order` with
/// `storage`, at every instance, and every value read and every live-out value must be
/// the same. The evidence for methods whose answer lives in a transformed program that
/// the conflict-set checker does not model (a schedule, Pugh 1991; shifted, fused and
/// contracted loops, Song et al. 2005), and a second, independent confirmation for the others.
#[derive(Clone, Debug)]
pub struct ExecutionCheck {
    /// What is run (`"schedule"`, `"generated loops"`, `"fused loop"`, ...).
    pub label: String,
    /// The program, in the one program model; its statement schedules are the original
    /// order.
    pub program: Program,
    /// Arrays whose updates are reductions (their order may change, Pugh 1991, Sec. 3).
    pub reduction_arrays: Vec<String>,
    /// The transformed order.
    pub order: Order,
    /// The transformed storage.
    pub storage: StoragePlan,
    /// Parameter values (in `program.params` order) at which to run.
    pub instances: Vec<Vec<i64>>,
}

/// The facade's verdict on the [`ExecutionCheck`]s of an outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Execution {
    /// Runs performed (checks times instances).
    pub instances: usize,
    /// True when every run computed exactly the original program's values.
    pub identical: bool,
    /// One line: what was compared, or the first difference.
    pub summary: String,
}

/// What a method returns for one target. The facade verifies it before reporting.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    /// The proposed storage mapping (`None` for methods whose answer is not a mapping,
    /// or when the method's answer induces none).
    pub mapping: Option<ModularMapping>,
    /// Every conflict set the mapping must be valid for; verified by the exact checker.
    pub obligations: Vec<Obligation>,
    /// Runs of the program with the method's answer, performed and compared by the
    /// facade with the one executor (the evidence for methods whose answer is a
    /// schedule or a transformed program).
    pub executions: Vec<ExecutionCheck>,
    /// The method's typed results, serialised.
    pub details: Details,
    /// The answer of an inter-array method: a storage shared by several arrays (with
    /// `mapping` then `None`), verified by the facade like `mapping`.
    pub shared: Option<SharedAnswer>,
}

/// Why a method gave no answer (a refuted mapping is not one of these: see the module
/// documentation).
#[derive(Debug, thiserror::Error)]
pub enum MethodError {
    /// The method does not apply to this example or target.
    #[error("not applicable: {0}")]
    NotApplicable(String),
    /// A solver failed; the kind (infeasible, unbounded, time limit, ...) is kept.
    #[error("solver: {0}")]
    Solver(#[from] SolveError),
    /// The example could not be read into the method's input.
    #[error("{0}")]
    Input(SuiteError),
    /// A method-specific section or value is malformed.
    #[error("input: {0}")]
    BadInput(String),
    /// A set operation or formulation step failed.
    #[error("{0}")]
    Formulation(polyalloc_formulation::Error),
    /// The method's own logic could not proceed.
    #[error("{0}")]
    Method(String),
}

impl MethodError {
    /// The short kind used in records: `not-applicable`, `solver`, `input`,
    /// `formulation`, `method`.
    pub fn kind(&self) -> &'static str {
        match self {
            MethodError::NotApplicable(_) => "not-applicable",
            MethodError::Solver(_) => "solver",
            MethodError::Input(_) | MethodError::BadInput(_) => "input",
            MethodError::Formulation(_) => "formulation",
            MethodError::Method(_) => "method",
        }
    }
}

/// A time budget or an interruption that stopped any layer is the solver kind of the
/// run (`time-budget`, `interrupted`), whichever layer noticed it.
impl From<SuiteError> for MethodError {
    fn from(e: SuiteError) -> Self {
        match e {
            SuiteError::Stopped { source, .. } => MethodError::Solver(*source),
            e => MethodError::Input(e),
        }
    }
}

impl From<polyalloc_formulation::Error> for MethodError {
    fn from(e: polyalloc_formulation::Error) -> Self {
        match e {
            polyalloc_formulation::Error::Solver(s) if polyalloc_ilp::budget::is_stop(&s) => MethodError::Solver(s),
            e => MethodError::Formulation(e),
        }
    }
}

impl From<AllocError> for MethodError {
    fn from(e: AllocError) -> Self {
        match e {
            AllocError::Solver { source, .. } => MethodError::Solver(*source),
            AllocError::Formulation { source, .. } => MethodError::from(*source),
            AllocError::Method { message, .. } => MethodError::Method(message),
            AllocError::NotApplicable { reason, .. } => MethodError::NotApplicable(reason),
            // A method does not check its own mapping; should one report a refutation,
            // it is the method's failure, not the checker's verdict.
            e @ AllocError::Invalid { .. } => MethodError::Method(e.to_string()),
        }
    }
}

/// A storage-optimisation method of one of the papers.
pub trait Method: Send + Sync {
    /// Registry name (`lefe`, `smo`, `ov`, `schedule`, ...).
    fn name(&self) -> &'static str;
    /// One line: what the method is and where it comes from (paper and section).
    fn summary(&self) -> &'static str;
    /// The targets this method answers for in `ex` (arrays, or named runs), in order;
    /// or why it does not apply to `ex` at all.
    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError>;
    /// Runs on one target of [`targets`](Self::targets). Solve every ILP through
    /// `solver` (the caller records statistics and enforces the time budget).
    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError>;
    /// The conflict-set capability, for callers with a [`Problem`] of their own.
    fn as_allocator(&self) -> Option<&dyn Allocator> {
        None
    }
    /// What the method answers with (by default a mapping per array).
    fn answer(&self) -> Answer {
        Answer::Mapping
    }
    /// What its answer is claimed for (by default every parameter value of the
    /// context).
    fn scope(&self) -> Scope {
        Scope::EveryParameterValue
    }
}

/// What a method answers with: the facade, `best` and the harness decide on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// A modular mapping per array (most methods).
    Mapping,
    /// One storage shared by several arrays (`smo-inter`).
    SharedStorage,
    /// A program: schedules and rearranged loops, confirmed by running it (`schedule`).
    Program,
    /// The best answer of the other methods, which it runs itself (`best`): a
    /// selection of `all` leaves it out, so that nothing runs twice.
    BestOfOthers,
}

impl Answer {
    /// A storage answer one method found on its own (a mapping or a shared storage):
    /// what `best` compares.
    pub fn is_own_storage(self) -> bool {
        matches!(self, Answer::Mapping | Answer::SharedStorage)
    }

    /// `mapping`, `shared-storage`, `program`, `best-of-others` (as `polyalloc list --json` prints it).
    pub fn label(self) -> &'static str {
        match self {
            Answer::Mapping => "mapping",
            Answer::SharedStorage => "shared-storage",
            Answer::Program => "program",
            Answer::BestOfOthers => "best-of-others",
        }
    }
}

/// What a method's verified answer is claimed for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Every parameter value of the context (the checker proves it, or enumerates the
    /// example's instances where its proof does not conclude).
    EveryParameterValue,
    /// The one instance it was computed for (`lattice-exact`).
    OneInstance,
}

impl Scope {
    /// `every-parameter-value` or `one-instance`.
    pub fn label(self) -> &'static str {
        match self {
            Scope::EveryParameterValue => "every-parameter-value",
            Scope::OneInstance => "one-instance",
        }
    }
}

/// The targets of a method that works on conflict sets: the example's arrays with a
/// conflict set (given, or computed from the program); not applicable without one.
pub fn conflict_set_targets(input: &Input) -> Result<Vec<String>, MethodError> {
    let arrays = input.example.allocatable_arrays();
    if arrays.is_empty() {
        return Err(MethodError::NotApplicable("no array with a conflict set or a program".into()));
    }
    Ok(arrays)
}

/// A conflict-set [`Allocator`] as a [`Method`]: its targets are the example's arrays
/// with a conflict set (given, or computed from the program), and its one obligation is
/// that conflict set.
pub struct OnConflictSets<A>(pub A);

impl<A: Allocator> Method for OnConflictSets<A> {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn summary(&self) -> &'static str {
        self.0.summary()
    }
    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        conflict_set_targets(input)
    }
    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError> {
        let problem = input.problem(target)?;
        let mapping = self.0.find_mapping(&problem, solver)?;
        Ok(Outcome {
            mapping: Some(mapping),
            obligations: vec![Obligation { label: "conflict set".into(), problem, at: None }],
            executions: Vec::new(),
            details: Details::new(),
            shared: None,
        })
    }
    fn as_allocator(&self) -> Option<&dyn Allocator> {
        Some(&self.0)
    }
}
