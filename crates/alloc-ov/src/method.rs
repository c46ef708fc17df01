//! The occupancy-vector methods of Thies et al. 2007 as [`Method`]s of polyalloc's one registry:
//!
//! * [`Ov`] (`ov`): Problem 2.1 (Sec. 4.6.1), the shortest occupancy vector of an array
//!   for the schedule of the file's `ov` paper entry of that array, else the program's
//!   schedule; details [`OvDetails`].
//! * [`Aov`] (`aov`): Problem 2.3 (Sec. 4.6.3), the shortest affine occupancy vector,
//!   valid for every legal one-dimensional affine schedule; details [`AovDetails`].
//! * [`Uov`] (`uov`): the shortest universal occupancy vector of Strout et al. (Sec. 6),
//!   for stencils only (else not applicable); details [`UovDetails`].
//!
//! The targets are the arrays written by the statements of the file's `ov` section.
//! Each run returns the storage mapping the vector induces (Sec. 3.3.2) with one
//! [`Obligation`] per schedule it must be valid under, labelled by the schedule
//! (`S: 2*i + j`):
//!
//! * `ov`: the schedule the vector was computed for;
//! * `aov`: the program's schedule and every schedule of `ov.legal_schedules`;
//! * `uov`: the program's schedule only. Under some legal schedules (Example 1,
//!   `3*i + 2*j`) the symbolic checker does not conclude on `(j, i mod 3)` and its
//!   fallback enumeration of the instances takes tens of seconds; the independence of
//!   the schedule is checked instead by running the program in random legal orders.
//!
//! and [`ExecutionCheck`]s that the facade runs with the one executor at the example's
//! instances (those with at most [`EXEC_INSTANCE_LIMIT`] statement instances): the program
//! under each of those schedules (instances with equal times in one parallel step, reads
//! before writes, Eq. (7)) with the array folded by the mapping; for `uov` also
//! [`UOV_RANDOM_ORDERS`] random topological orders of the flow dependences
//! ([`random_legal_trace`]).
//!
//! The conflict sets under a schedule do not depend on the solver: they are computed
//! once per input ([`Input::memo`]) and shared by the three methods and every backend.
//! The method never verifies its own mapping; the facade does, obligation by obligation.

use crate::mapping::{induced, Induced};
use crate::model::DependenceSource;
use crate::section::ScheduleText;
use crate::solve::{Engine, OvOptions};
use crate::{print, uov, OvError, Setup};
use polyalloc_alloc::{details_of, Details, ExecutionCheck, Input, Method, MethodError, Obligation, Order, Outcome, StoragePlan};
use polyalloc_formulation::ModularMapping;
use polyalloc_ilp::Solver;
use polyalloc_program::exec::{Storage, Trace};
use polyalloc_program::{Program, ProgramError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Problem 2.1: the shortest occupancy vector for a schedule.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ov;
/// Problem 2.3: the shortest affine occupancy vector.
#[derive(Clone, Copy, Debug, Default)]
pub struct Aov;
/// The shortest universal occupancy vector (stencils).
#[derive(Clone, Copy, Debug, Default)]
pub struct Uov;

/// Statement instances (summed over the statements) above which an instance of the
/// example is not run by the [`ExecutionCheck`]s.
pub const EXEC_INSTANCE_LIMIT: usize = 20_000;

/// Random legal orders a `uov` answer is run in, at each instance.
pub const UOV_RANDOM_ORDERS: u64 = 8;

/// The modulation of a non-primitive vector (Sec. 3.3.2): `y . l mod gcd`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Modulation {
    pub y: Vec<i64>,
    pub gcd: i64,
}

/// The storage mapping a vector induces (Sec. 3.3.2), as the paper prints it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InducedDetails {
    /// With the paper's offsets (`A[2*j - i + m]`, Fig. 11).
    pub printed_paper: String,
    /// With the least offsets that keep every index non-negative.
    pub printed: String,
    /// The projection `Pi_v` (rows).
    pub projection: Vec<Vec<i64>>,
    pub modulation: Modulation,
}

impl From<&Induced> for InducedDetails {
    fn from(i: &Induced) -> Self {
        InducedDetails {
            printed_paper: i.printed_paper.clone(),
            printed: i.printed.clone(),
            projection: i.pi.clone(),
            modulation: Modulation { y: i.y.clone(), gcd: i.g },
        }
    }
}

/// A schedule an answer is verified under: its label (the obligation's) and the
/// relation of each statement (what [`crate::problem_under`] takes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleRef {
    /// `S: 2*i + j`.
    pub label: String,
    /// Statement -> `[m, n] -> { S[i, j] -> [2*i + j] }`.
    pub statements: ScheduleText,
}

/// The paper's own integer program (Sec. 4.6.1 / 4.6.3) next to the exact search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum PaperIlp {
    /// Its vector, and whether that vector passes the exact test on the true domains
    /// `Z_j` (the exact search's answer is the one used).
    Solved { vector: Vec<i64>, valid_on_exact_domains: bool },
    /// Several statements write the array (the program assumes one overwriter).
    NotApplicable { reason: String },
    /// The integer program is infeasible within the search bound.
    NoSolution { reason: String },
}

/// Problem 2.2 (Sec. 4.6.2) for a paper entry's given occupancy vectors.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidSchedulesDetails {
    /// Array -> occupancy vector (the paper entry's `given_ov`).
    pub given_ov: BTreeMap<String, Vec<i64>>,
    /// The linearised constraints, printed as the paper prints them.
    pub constraints: Vec<String>,
    /// True when they define the same set as the entry's printed constraints.
    pub equal_paper: bool,
    /// The schedule of least latency, per statement.
    pub best_schedule: BTreeMap<String, String>,
    pub latency: String,
}

/// The exact legality test of a schedule the paper states a verdict on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleLegality {
    /// The schedule as the paper entry gives it.
    pub schedule: ScheduleText,
    /// `S1: 2*j, S2: 2*j + 1`.
    pub label: String,
    /// True when it satisfies every linearised schedule constraint (14).
    pub legal: bool,
}

/// The details of an `ov` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OvDetails {
    /// The occupancy vector.
    pub ov: Vec<i64>,
    /// The schedule it is computed for, per statement (`S -> i`).
    pub schedule: BTreeMap<String, String>,
    /// The same schedule as it is verified under.
    pub schedules: Vec<ScheduleRef>,
    /// `sum |v_i|` and the evenness objective (Sec. 4.6.1).
    pub manhattan: i64,
    pub evenness: i64,
    /// Candidate vectors examined.
    pub candidates: usize,
    #[serde(flatten)]
    pub mapping: InducedDetails,
    /// The vector when a value cannot be read in the step it is overwritten (Fig. 7).
    pub strict_ov: Vec<i64>,
    /// Its mapping as the paper prints it, its size, hyperplanes and moduli.
    pub strict_mapping: String,
    pub strict_size: String,
    pub strict_hyperplanes: Vec<Vec<i64>>,
    pub strict_moduli: Vec<String>,
    /// The linearised schedule constraints (14), printed like the paper.
    pub schedule_constraints: Vec<String>,
    /// True when they define the same set as the file's `ov.schedule_constraints`
    /// (absent when the file prints none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schedule_constraints_equal_paper: Option<bool>,
    /// Problem 2.2 for each `schedule` paper entry whose `given_ov` involves the array.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub valid_schedules: Vec<ValidSchedulesDetails>,
    /// The legality of each schedule of a `schedule` paper entry.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub schedule_legality: Vec<ScheduleLegality>,
    pub paper_ilp: PaperIlp,
}

/// The details of an `aov` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AovDetails {
    /// The affine occupancy vector.
    pub aov: Vec<i64>,
    pub manhattan: i64,
    pub evenness: i64,
    pub candidates: usize,
    #[serde(flatten)]
    pub mapping: InducedDetails,
    pub paper_ilp: PaperIlp,
    /// For stencils: whether the AOV is also a universal occupancy vector (absent
    /// otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_uov: Option<bool>,
    /// The schedules the mapping is verified under.
    pub schedules: Vec<ScheduleRef>,
}

/// The details of a `uov` record.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UovDetails {
    /// The universal occupancy vector.
    pub uov: Vec<i64>,
    /// The stencil's dependence distances.
    pub distances: Vec<Vec<i64>>,
    pub manhattan: i64,
    pub evenness: i64,
    #[serde(flatten)]
    pub mapping: InducedDetails,
    /// The affine occupancy vector of the same array, and whether it is a UOV.
    pub aov: Vec<i64>,
    pub aov_is_uov: bool,
    /// The schedules the mapping is verified under.
    pub schedules: Vec<ScheduleRef>,
}

/// Reads a typed details struct ([`OvDetails`], [`AovDetails`], [`UovDetails`]) back from
/// the `details` of an outcome or a record (what [`details_of`] wrote).
pub fn read_details<T: serde::de::DeserializeOwned>(details: &Details) -> Result<T, serde_json::Error> {
    let obj: serde_json::Map<String, serde_json::Value> = details.clone().into_iter().collect();
    serde_json::from_value(serde_json::Value::Object(obj))
}

impl From<OvError> for MethodError {
    fn from(e: OvError) -> Self {
        match e {
            OvError::Unsupported(m) => MethodError::NotApplicable(m),
            OvError::Solver(s) => MethodError::Solver(s),
            OvError::Input(m) => MethodError::BadInput(m),
            OvError::Suite(s) => MethodError::from(s),
            OvError::Formulation(f) | OvError::Program(ProgramError::Formulation(f)) => MethodError::from(f),
            OvError::Program(ProgramError::Solver(s)) => MethodError::Solver(s),
            OvError::Program(p @ (ProgramError::Invalid(_) | ProgramError::Space(_))) => MethodError::BadInput(p.to_string()),
            e @ (OvError::NoSchedule(_)
            | OvError::NotFound(_)
            | OvError::Overflow(_)
            | OvError::LinAlg(_)
            | OvError::Model(_)
            | OvError::Program(_)) => MethodError::Method(e.to_string()),
        }
    }
}

/// The arrays of the example's `ov` section.
fn targets(input: &Input) -> Result<Vec<String>, MethodError> {
    match crate::OvSection::of(&input.example)? {
        None => Err(MethodError::NotApplicable("no `ov` section: not an occupancy-vector example (Thies, Vivien, Amarasinghe 2007)".into())),
        Some(s) => {
            let arrays = s.arrays();
            if arrays.is_empty() {
                return Err(MethodError::NotApplicable("the `ov` section names no array".into()));
            }
            Ok(arrays)
        }
    }
}

/// The example read once per input (solver-independent).
fn setup(input: &Input) -> Result<Arc<Setup>, OvError> {
    input.memo("alloc-ov/setup", || Setup::from_example(&input.example, DependenceSource::Accesses).map(Arc::new))
}

/// One run: the setup, the array's data space and an engine on `solver`.
struct Run<'a> {
    input: &'a Input,
    setup: &'a Setup,
    array: &'a str,
    eng: Engine<'a>,
}

impl<'a> Run<'a> {
    fn induced(&self, v: &[i64]) -> Result<Induced, OvError> {
        let (tuple, space) = self.setup.arrays.get(self.array).ok_or_else(|| OvError::Input(format!("no data space for `{}`", self.array)))?;
        induced(v, tuple, space, &self.setup.form.params)
    }

    fn schedule_ref(&self, th: &[i64]) -> ScheduleRef {
        ScheduleRef { label: self.setup.form.schedule_label(th), statements: self.setup.isl_schedule(th) }
    }

    /// The conflict set of the array under `th` (shared through the input's memo).
    fn obligation(&self, th: &[i64]) -> Result<Obligation, OvError> {
        let schedules = self.setup.form.affine_schedules(&self.setup.program, th)?;
        let problem = crate::problem_cached(self.input, &self.setup.program, self.array, &schedules)?;
        Ok(Obligation { label: self.setup.form.schedule_label(th), problem, at: None })
    }

    /// The program under `th` with the array folded by `mapping`.
    fn execution(&self, th: &[i64], mapping: &ModularMapping) -> Result<Option<ExecutionCheck>, OvError> {
        let program = sequential(&self.setup.program)?;
        let instances = cheap_instances(self.input, &program);
        if instances.is_empty() {
            return Ok(None);
        }
        let times = self.setup.form.affine_schedules(&self.setup.program, th)?;
        let order = Order::Time(Arc::new(move |k: usize, params: &[i64], iter: &[i64]| -> Result<Vec<i64>, ProgramError> {
            let e = times.get(k).ok_or_else(|| ProgramError::Exec(format!("no schedule for statement #{k}")))?;
            Ok(vec![e.eval(params, iter)?])
        }));
        Ok(Some(ExecutionCheck {
            label: format!("schedule {}", self.setup.form.schedule_label(th)),
            program,
            reduction_arrays: Vec::new(),
            order,
            storage: StoragePlan::Fixed(Storage::from([(self.array.to_string(), mapping.clone())])),
            instances,
        }))
    }

    /// Obligations and executions of `mapping` under every schedule of `ths`.
    fn outcome(&self, mapping: &ModularMapping, ths: &[Vec<i64>], details: Details) -> Result<Outcome, OvError> {
        let mut obligations = Vec::new();
        let mut executions = Vec::new();
        for th in ths {
            obligations.push(self.obligation(th)?);
            executions.extend(self.execution(th, mapping)?);
        }
        Ok(Outcome { mapping: Some(mapping.clone()), obligations, executions, details, shared: None })
    }

    /// The paper's integer program (Sec. 4.6.1 / 4.6.3) for the schedule `th`, or every
    /// legal schedule, and whether its vector passes the exact test.
    fn paper_ilp(&self, th: Option<&[i64]>) -> Result<PaperIlp, OvError> {
        Ok(match self.eng.paper_ilp(self.array, th, false) {
            Ok(Some(vector)) => {
                let valid_on_exact_domains = match th {
                    Some(th) => self.eng.valid_for_schedule(self.array, &vector, th, false)?,
                    None => self.eng.valid_for_all_schedules(self.array, &vector)?,
                };
                PaperIlp::Solved { vector, valid_on_exact_domains }
            }
            Ok(None) => PaperIlp::NotApplicable { reason: "several statements write the array".into() },
            Err(OvError::NotFound(reason)) => PaperIlp::NoSolution { reason },
            Err(e) => return Err(e),
        })
    }

    fn ov(&self) -> Result<Outcome, OvError> {
        let (setup, eng, array) = (self.setup, &self.eng, self.array);
        let form = &setup.form;
        let th = match setup.paper.ov_schedules.get(array) {
            Some(s) => form.parse_schedule(s)?,
            None => form.program_schedule(),
        };
        let found = eng.ov_for_schedule(array, &th, false)?;
        let ind = self.induced(&found.vector)?;
        let strict = eng.ov_for_schedule(array, &th, true)?;
        let sind = self.induced(&strict.vector)?;
        let paper_ilp = self.paper_ilp(Some(&th))?;
        // The linearised schedule constraints (14), printed like the paper.
        let mut r = eng.theta_set(&eng.schedule_forms()?, &[])?;
        r.remove_redundant()?;
        let schedule_constraints = print::paper_constraints(&r, &form.space)?;
        let schedule_constraints_equal_paper = match &setup.section.schedule_constraints {
            Some(printed) => Some(print::equivalent_to_printed(&r, &form.space, printed)?),
            None => None,
        };
        // Problem 2.2 for the paper's given occupancy vectors that involve this array.
        let mut valid_schedules = Vec::new();
        for g in setup.paper.given_ov.iter().filter(|g| g.given_ov.contains_key(array)) {
            let vs = eng.schedules_for(&g.given_ov)?;
            valid_schedules.push(ValidSchedulesDetails {
                given_ov: g.given_ov.clone(),
                equal_paper: print::equivalent_to_printed(&vs.set, &form.space, &g.schedule_constraints)?,
                constraints: vs.constraints,
                best_schedule: vs.best,
                latency: vs.latency,
            });
        }
        // The schedules whose legality the paper states.
        let mut schedule_legality = Vec::new();
        for s in &setup.paper.schedules {
            let t = form.parse_schedule(s)?;
            schedule_legality.push(ScheduleLegality { schedule: s.clone(), label: form.schedule_label(&t), legal: eng.is_legal(&t)? });
        }
        let details = OvDetails {
            ov: found.vector.clone(),
            schedule: form.schedule_strings(&th),
            schedules: vec![self.schedule_ref(&th)],
            manhattan: found.manhattan,
            evenness: found.evenness,
            candidates: found.candidates,
            mapping: InducedDetails::from(&ind),
            strict_ov: strict.vector.clone(),
            strict_mapping: sind.printed_paper.clone(),
            strict_size: sind.size.to_string(),
            strict_hyperplanes: sind.mapping.rows.iter().map(|r| r.hyperplane.clone()).collect(),
            strict_moduli: sind
                .mapping
                .rows
                .iter()
                .map(|r| r.modulus.as_ref().map_or_else(|| "-".to_string(), |m| crate::fmt_linear(&m.coeffs[1..], &form.params, m.coeffs[0])))
                .collect(),
            schedule_constraints,
            schedule_constraints_equal_paper,
            valid_schedules,
            schedule_legality,
            paper_ilp,
        };
        self.outcome(&ind.mapping, &[th], details_of(&details))
    }

    fn aov(&self) -> Result<Outcome, OvError> {
        let found = self.eng.aov(self.array)?;
        let ind = self.induced(&found.vector)?;
        let paper_ilp = self.paper_ilp(None)?;
        let is_uov = match uov::stencil_distances(&self.setup.form, self.array) {
            Ok(dists) => Some(uov::is_uov(self.eng.solver, &dists, &found.vector, &self.eng.opts.solve)?),
            Err(OvError::Unsupported(_)) => None,
            Err(e) => return Err(e),
        };
        let ths = self.setup.schedules_to_check();
        let details = AovDetails {
            aov: found.vector.clone(),
            manhattan: found.manhattan,
            evenness: found.evenness,
            candidates: found.candidates,
            mapping: InducedDetails::from(&ind),
            paper_ilp,
            is_uov,
            schedules: ths.iter().map(|t| self.schedule_ref(t)).collect(),
        };
        self.outcome(&ind.mapping, &ths, details_of(&details))
    }

    fn uov(&self) -> Result<Outcome, OvError> {
        let dists = uov::stencil_distances(&self.setup.form, self.array)?;
        let dim = dists.first().map_or(0, Vec::len);
        let found = uov::shortest_uov(self.eng.solver, &dists, dim, self.eng.opts.max_length, &self.eng.opts.solve)?;
        let ind = self.induced(&found.vector)?;
        let aov = self.eng.aov(self.array)?;
        let aov_is_uov = uov::is_uov(self.eng.solver, &dists, &aov.vector, &self.eng.opts.solve)?;
        let th = self.setup.form.program_schedule();
        let details = UovDetails {
            uov: found.vector.clone(),
            distances: dists,
            manhattan: found.manhattan,
            evenness: found.evenness,
            mapping: InducedDetails::from(&ind),
            aov: aov.vector,
            aov_is_uov,
            schedules: vec![self.schedule_ref(&th)],
        };
        let mut out = self.outcome(&ind.mapping, &[th], details_of(&details))?;
        // Schedule independence: random legal orders (Strout et al.: valid for every one).
        let program = sequential(&self.setup.program)?;
        let instances = cheap_instances(self.input, &program);
        if !instances.is_empty() {
            for seed in 1..=UOV_RANDOM_ORDERS {
                let p = program.clone();
                out.executions.push(ExecutionCheck {
                    label: format!("random legal order #{seed}"),
                    program: program.clone(),
                    reduction_arrays: Vec::new(),
                    order: Order::Trace(Arc::new(move |params: &[i64]| random_legal_trace(&p, params, seed))),
                    storage: StoragePlan::Fixed(Storage::from([(self.array.to_string(), ind.mapping.clone())])),
                    instances: instances.clone(),
                });
            }
        }
        Ok(out)
    }
}

/// Runs `f` on a [`Run`] of `target`.
fn with_run(input: &Input, target: &str, solver: &dyn Solver, f: impl FnOnce(&Run<'_>) -> Result<Outcome, OvError>) -> Result<Outcome, MethodError> {
    let setup = setup(input)?;
    if !setup.arrays.contains_key(target) {
        return Err(MethodError::BadInput(format!("`{target}` is not an array written by a statement of the `ov` section")));
    }
    let eng = setup.engine(solver, OvOptions::default())?;
    Ok(f(&Run { input, setup: &setup, array: target, eng })?)
}

impl Method for Ov {
    fn name(&self) -> &'static str {
        "ov"
    }
    fn summary(&self) -> &'static str {
        "shortest occupancy vector for a given schedule and its storage mapping (Thies, Vivien, Amarasinghe 2007, Sec. 4.6.1, Problem 2.1)"
    }
    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        targets(input)
    }
    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError> {
        with_run(input, target, solver, |r| r.ov())
    }
}

impl Method for Aov {
    fn name(&self) -> &'static str {
        "aov"
    }
    fn summary(&self) -> &'static str {
        "shortest affine occupancy vector, valid for every legal affine schedule (Thies, Vivien, Amarasinghe 2007, Sec. 4.6.3, Problem 2.3)"
    }
    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        targets(input)
    }
    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError> {
        with_run(input, target, solver, |r| r.aov())
    }
}

impl Method for Uov {
    fn name(&self) -> &'static str {
        "uov"
    }
    fn summary(&self) -> &'static str {
        "shortest universal occupancy vector of a stencil, valid for every legal order (Thies, Vivien, Amarasinghe 2007, Sec. 6; Strout et al. 1998)"
    }
    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        targets(input)
    }
    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError> {
        with_run(input, target, solver, |r| r.uov())
    }
}

/// `program` with each statement's one-dimensional schedule `theta` refined into a total
/// order `(theta(x), statement index, x)`: the program's own order made sequential, the
/// reference run of an [`ExecutionCheck`] (its instances with equal `theta` are
/// independent when `theta` is legal, so any such refinement computes the same values).
pub fn sequential(program: &Program) -> Result<Program, OvError> {
    let mut p = program.clone();
    for (k, st) in p.statements.iter_mut().enumerate() {
        let [theta] = st.schedule.as_slice() else {
            return Err(OvError::Unsupported(format!("statement `{}` needs a one-dimensional schedule", st.name)));
        };
        let sp = st.domain.space().clone();
        let mut sched = vec![theta.clone(), polyalloc_formulation::AffExpr::constant(&sp, k as i64)];
        for d in 0..sp.n_dim() {
            let mut e = polyalloc_formulation::AffExpr::zero(&sp);
            e.coeffs[sp.dim_col(d)] = 1;
            sched.push(e);
        }
        st.schedule = sched;
    }
    Ok(p)
}

/// The example's instances, in `program.params` order, with at most
/// [`EXEC_INSTANCE_LIMIT`] statement instances each.
fn cheap_instances(input: &Input, program: &Program) -> Vec<Vec<i64>> {
    input
        .example
        .instances
        .iter()
        .filter_map(|inst| program.params.iter().map(|p| inst.get(p).copied()).collect::<Option<Vec<i64>>>())
        .filter(|params| {
            let mut n = 0usize;
            program.statements.iter().all(|st| match st.domain.enumerate(params, EXEC_INSTANCE_LIMIT) {
                Ok(pts) => {
                    n += pts.len();
                    n <= EXEC_INSTANCE_LIMIT
                }
                Err(_) => false,
            })
        })
        .collect()
}

/// A pseudo-random legal execution order of `program` at `params`: a topological order
/// of its flow dependences (each read after the write of the cell it reads, for
/// single-assignment programs), one instance per step, drawn from `seed`.
pub fn random_legal_trace(program: &Program, params: &[i64], seed: u64) -> Result<Trace, ProgramError> {
    let instances = polyalloc_program::exec::all_instances(program, params, polyalloc_program::exec::INSTANCE_LIMIT)?;
    let mut writer: BTreeMap<(String, Vec<i64>), usize> = BTreeMap::new();
    for (n, (k, it)) in instances.iter().enumerate() {
        for w in &program.statements[*k].writes {
            if w.happens_at(params, it)? {
                writer.insert((w.array.clone(), w.cell_at(params, it)?), n);
            }
        }
    }
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); instances.len()];
    let mut preds = vec![0usize; instances.len()];
    for (n, (k, it)) in instances.iter().enumerate() {
        for r in &program.statements[*k].reads {
            if r.happens_at(params, it)? {
                if let Some(&w) = writer.get(&(r.array.clone(), r.cell_at(params, it)?)) {
                    if w != n {
                        succ[w].push(n);
                        preds[n] += 1;
                    }
                }
            }
        }
    }
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut ready: Vec<usize> = (0..instances.len()).filter(|&n| preds[n] == 0).collect();
    let mut steps = Vec::with_capacity(instances.len());
    while !ready.is_empty() {
        let pick = (next() % ready.len() as u64) as usize;
        let n = ready.swap_remove(pick);
        steps.push(vec![instances[n].clone()]);
        for &s in &succ[n] {
            preds[s] -= 1;
            if preds[s] == 0 {
                ready.push(s);
            }
        }
    }
    if steps.len() != instances.len() {
        return Err(ProgramError::Exec("the flow dependences have a cycle: no legal order".into()));
    }
    Ok(Trace { steps })
}
