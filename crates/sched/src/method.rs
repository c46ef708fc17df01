//! The method `schedule` of polyalloc's registry: Pugh's scheduling (Pugh 1991, Sec. 3-5) as a
//! [`Method`].
//!
//! **Targets.** One per scheduling run of the file's `pugh` section
//! ([`PughExample::settings`]): `-` for the run that ignores broadcast "dependences",
//! `broadcasts-respected` for the run that gives broadcast pairs different times. An
//! example gets the second one when its paper entries include a final schedule
//! respecting broadcasts (Givens QR, Appendix 5, has both). An example without a `pugh`
//! section, without its `execution` program, or without instances, is not applicable.
//!
//! **Outcome.** No storage mapping: the answer is a schedule and the rearranged loops.
//! The method does not run them: it returns two [`ExecutionCheck`]s that the facade
//! performs with the one executor at every instance of the file, with the file's
//! reduction arrays: the program (`pugh.execution`) with its instances ordered by the
//! schedule found (`schedule`: [`Order::Time`], the rational schedule scaled to
//! integers, [`Schedule::time`]; equal times run as one parallel step), and the
//! program run by the generated loops (`generated loops`: [`Order::Trace`], the trace
//! of [`Code::trace`](crate::codegen::Code::trace), one parallel step per `forall`
//! block). Both must compute every value read and every live-out value exactly as the
//! original program does.
//!
//! **Details.** [`ScheduleDetails`], serialised with [`details_of`].

use crate::error::SchedError;
use crate::example::{self, PughExample, Run};
use crate::schedule::Schedule;
use polyalloc_alloc::{details_of, Details, ExecutionCheck, Input, Method, MethodError, Order, Outcome, StoragePlan};
use polyalloc_ilp::Solver;
use polyalloc_program::exec::Storage;
use polyalloc_program::ProgramError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The target of the run that ignores broadcast "dependences".
pub const IGNORING_BROADCASTS: &str = "-";
/// The target of the run that respects them.
pub const RESPECTING_BROADCASTS: &str = "broadcasts-respected";

/// The target of a broadcast setting.
pub fn target_name(respect_broadcast: bool) -> &'static str {
    if respect_broadcast {
        RESPECTING_BROADCASTS
    } else {
        IGNORING_BROADCASTS
    }
}

/// The broadcast setting of a target name (`None`: not a target of this method).
pub fn target_setting(target: &str) -> Option<bool> {
    match target {
        IGNORING_BROADCASTS => Some(false),
        RESPECTING_BROADCASTS => Some(true),
        _ => None,
    }
}

/// The method `schedule` (paper Pugh 1991). See the module documentation.
#[derive(Clone, Copy, Debug, Default)]
pub struct ScheduleMethod;

/// One nominated candidate (Pugh 1991, Sec. 4), as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TrialDetails {
    /// The statement (the seed of its component).
    pub statement: String,
    /// The candidate's coefficients over the statement's iterators.
    pub coeffs: Vec<i64>,
    /// The candidate as printed (`i + j`).
    pub schedule: String,
    /// True when it satisfies every distance set.
    pub ok: bool,
    /// The violated distance of minimum 1-norm, when it fails.
    pub violated_distance: Option<Vec<i64>>,
    /// True when that distance is a broadcast (or reduction) distance (`T·d ≠ 0`).
    pub broadcast: Option<bool>,
    /// The distance set it came from: `direct <id>`, `transitive`, `broadcast <id>`.
    pub from: Option<String>,
}

/// The typed details of a `schedule` record (the `details` object of its JSON record).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScheduleDetails {
    /// Broadcast pairs got different times.
    pub respect_broadcast: bool,
    /// The dependences scheduled on: `table` (the paper's, `pugh.dependences`) or
    /// `program` (computed from the program).
    pub dependences: String,
    /// Statement → schedule as printed (`i + k + 1/2`).
    pub schedules: BTreeMap<String, String>,
    /// The schedule found, scaled to integers (`T = T' / scale`).
    pub schedule: Schedule,
    /// The same in isl notation (scaled), as the bench-suite files store schedules.
    pub schedule_isl: String,
    /// The time scale (the least common multiple of the component sizes).
    pub scale: i64,
    /// Every nominated candidate, in order.
    pub trials: Vec<TrialDetails>,
    /// Strongly connected components of the statement graph (statement names).
    pub sccs: Vec<Vec<String>>,
    /// The seed of each component scheduled by nomination.
    pub seeds: Vec<String>,
    /// Whether every transitive closure used was exact.
    pub closures_exact: bool,
    /// The rearranged loops as text (Sec. 5).
    pub loops: String,
    /// Per statement, the unimodular extension of its schedule.
    pub unimodular: BTreeMap<String, Vec<Vec<i64>>>,
    /// The schedule found when the dependences are computed from the accesses (Sec. 3)
    /// instead of taken from the paper's table, per statement.
    pub schedules_from_accesses: BTreeMap<String, String>,
}

impl ScheduleDetails {
    /// The details of one run.
    pub fn of(run: &Run) -> ScheduleDetails {
        ScheduleDetails {
            respect_broadcast: run.respect_broadcast,
            dependences: if run.from_table { "table" } else { "program" }.into(),
            schedules: run.texts.clone(),
            schedule: run.outcome.schedule.clone(),
            schedule_isl: run.outcome.schedule.to_isl(&run.problem),
            scale: run.outcome.schedule.scale,
            trials: run
                .outcome
                .trials
                .iter()
                .map(|t| TrialDetails {
                    statement: t.stmt.clone(),
                    coeffs: t.coeffs.clone(),
                    schedule: t.text.clone(),
                    ok: t.violated.is_none(),
                    violated_distance: t.violated.as_ref().map(|v| v.distance.clone()),
                    broadcast: t.violated.as_ref().map(|v| v.broadcast),
                    from: t.violated.as_ref().map(|v| v.source.clone()),
                })
                .collect(),
            sccs: run.outcome.sccs.clone(),
            seeds: run.outcome.seeds.clone(),
            closures_exact: run.outcome.closures_exact,
            loops: run.code.text(),
            unimodular: run.code.unimodular.clone(),
            schedules_from_accesses: run.from_accesses.clone(),
        }
    }

    /// Reads the details back from a record's `details` map.
    pub fn from_details(details: &Details) -> Result<ScheduleDetails, serde_json::Error> {
        serde_json::from_value(serde_json::Value::Object(details.clone().into_iter().collect()))
    }
}

/// A scheduling error as a method error: a missing input is "not applicable", a
/// malformed one an input error, a solver's failure keeps its kind.
impl From<SchedError> for MethodError {
    fn from(e: SchedError) -> Self {
        match e {
            SchedError::NoInput(why) => MethodError::NotApplicable(why),
            SchedError::Input(why) => MethodError::BadInput(why),
            SchedError::Formulation(e) | SchedError::Program(ProgramError::Formulation(e)) => MethodError::from(e),
            SchedError::Solver(e) | SchedError::Program(ProgramError::Solver(e)) => MethodError::Solver(e),
            SchedError::Program(ProgramError::Invalid(why)) => MethodError::BadInput(why),
            other => MethodError::Method(other.to_string()),
        }
    }
}

/// The example's `pugh` section, read once per input.
/// Without instances there is nothing to run the program at: not applicable.
fn pugh(input: &Input) -> Result<PughExample, MethodError> {
    let pe = input.memo("polyalloc-sched/pugh", || PughExample::from_example(&input.example))?;
    if pe.instances.is_empty() {
        return Err(MethodError::NotApplicable(format!("{}: no instances to run the program at (the schedule is confirmed by running it)", pe.id)));
    }
    Ok(pe)
}

impl Method for ScheduleMethod {
    fn name(&self) -> &'static str {
        "schedule"
    }

    fn answer(&self) -> polyalloc_alloc::Answer {
        polyalloc_alloc::Answer::Program
    }

    fn summary(&self) -> &'static str {
        "Pugh's affine schedules by nomination and transfer, and the rearranged loops, confirmed by running the program (Pugh 1991, Sec. 3-5)"
    }

    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        let pe = pugh(input)?;
        Ok(pe.settings().into_iter().map(|rb| target_name(rb).to_string()).collect())
    }

    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError> {
        let pe = pugh(input)?;
        let rb = target_setting(target).filter(|rb| pe.settings().contains(rb)).ok_or_else(|| {
            MethodError::NotApplicable(format!(
                "`{target}` is not a scheduling run of {} (runs: {})",
                pe.id,
                pe.settings().into_iter().map(target_name).collect::<Vec<_>>().join(", ")
            ))
        })?;
        let run = example::run(&pe, rb, solver)?;
        let details = ScheduleDetails::of(&run);
        let names: Vec<String> = pe.program.statements.iter().map(|s| s.name.clone()).collect();
        let schedule = run.outcome.schedule.clone();
        let time = move |k: usize, params: &[i64], it: &[i64]| -> Result<Vec<i64>, ProgramError> {
            let name = names.get(k).ok_or_else(|| ProgramError::Exec(format!("no statement #{k}")))?;
            Ok(vec![schedule.time(name, params, it)?])
        };
        let code = run.code.clone();
        let trace = move |params: &[i64]| Ok(code.trace(params)?);
        let check = |label: &str, order: Order| ExecutionCheck {
            label: label.to_string(),
            program: pe.program.clone(),
            reduction_arrays: pe.reduction_arrays.clone(),
            order,
            storage: StoragePlan::Fixed(Storage::new()),
            instances: pe.instances.clone(),
        };
        Ok(Outcome {
            mapping: None,
            obligations: Vec::new(),
            executions: vec![check("schedule", Order::Time(Arc::new(time))), check("generated loops", Order::Trace(Arc::new(trace)))],
            details: details_of(&details),
            shared: None,
        })
    }
}
