//! Verifying a method's outcome before it is a result: every obligation with the exact
//! checker (`polyalloc_alloc::verify`, or the shared-storage checker), every execution
//! check with the one executor; and the typed [`Failure`] of an answer that is not
//! verified. [`mod@crate::run`] is the only caller that turns an outcome into a result.

use polyalloc_alloc::{verify, verify_shared, AllocError, Execution, ExecutionCheck, Input, MethodError, Order, Outcome, StoragePlan, Verification};
use polyalloc_formulation::Polynomial;
use polyalloc_ilp::Solver;
use polyalloc_program::exec::Executor;
use polyalloc_program::ProgramError;

use crate::record::Status;

/// One array of a shared storage stored alone, verified (see [`crate::run::Verified::separate`]).
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

pub(crate) type Checked = (Verification, Vec<(String, Verification)>, Option<Execution>);

pub(crate) fn verify_outcome_with(input: &Input, outcome: &Outcome, solver: &dyn Solver, method: &str) -> Result<(Checked, Vec<Separate>), Failure> {
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
