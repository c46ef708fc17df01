//! The method `flow` ([`Flow`]): paper Song et al. 2005 as a [`polyalloc_alloc::Method`].
//!
//! Targets: the local arrays of the `flow` section, in file order (one record per local
//! array and backend, as before the port). For each, [`Flow::run`] returns
//! * the array's contracted storage as a modular mapping (Sec. 5; the integer
//!   reduction, or the projected candidate, of the linearised subscript modulo `M . s`,
//!   see [`crate::storage`]), when it has integer coefficients and an affine modulus;
//! * an [`Obligation`]: the array's conflict set under the fused schedule of Fig. 8,
//!   computed from the program ([`polyalloc_program::Program::conflict_set`]) with the
//!   run-time condition conjoined to the context, when that schedule is the coalesced
//!   order Problem 0 measures ([`crate::model::orders_coincide`]). The coalesced order
//!   itself is not affine when `s` is symbolic (`c = (K - 2)(JN - 1) + ..`), so its
//!   conflict set is out of reach of the affine model; then only the executions below
//!   are evidence;
//! * [`ExecutionCheck`]s that the facade runs with the one executor at every instance
//!   where the run-time condition holds: the coalesced fused loop and the fused nest of
//!   Fig. 8 ([`Order::Time`]), each with the linearised storage of Sec. 5 (a
//!   [`StoragePlan::PerInstance`]: at concrete parameters its symbolic coefficients such
//!   as `JN - 1` are integers) and, when they differ, with the reported mappings
//!   ([`StoragePlan::Fixed`]); every local region contracted, the rest of each array in
//!   place (fold regions);
//! * [`FlowDetails`], with the ILP cross-check: Problem 1 solved at every such instance
//!   through the run's solver must have the flow's optimum `sum M . s`.
//!
//! Errors by type ([`crate::FlowError`] to [`MethodError`]): a malformed section is
//! bad input; an assumption that fails (Assumption 1's dynamic part, Assumption 2 for
//! an array with two write references) makes the method not applicable; a solver error
//! keeps its kind; a disagreement between the flow and the ILP is a method error. When
//! the loops cannot be expressed in the program model (LL14's indirect subscripts), the
//! outcome has the flow solution and the derived storages in its details, no mapping and
//! nothing the facade can verify: the record is `not-applicable` (`unverifiable`), as
//! LL14's were before.

use crate::algorithm::{self, FlowResult};
use crate::check::{self, IlpCheck, InstanceValues};
use crate::details::{Evidence, FlowDetails};
use crate::error::{FlowError, Result};
use crate::ilp;
use crate::input::LoopSequence;
use crate::model::{self, FlowProgram};
use crate::storage::{self, Storage, StorageKind};
use polyalloc_alloc::{details_of, ExecutionCheck, Input, Method, MethodError, Obligation, Order, Outcome, Problem, StoragePlan};
use polyalloc_formulation::ConflictSet;
use polyalloc_ilp::Solver;
use polyalloc_program::exec::Storage as ExecStorage;
use polyalloc_program::ProgramError;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The network-flow method of paper Song et al. 2005.
#[derive(Clone, Copy, Debug, Default)]
pub struct Flow;

/// Everything that does not depend on the solver, computed once per input.
#[derive(Debug)]
pub struct Prepared {
    pub seq: LoopSequence,
    pub result: FlowResult,
    /// The derived storages per local array.
    pub storages: BTreeMap<String, Result<Vec<Storage>>>,
    /// The loops in the program model (or why they cannot be).
    pub model: Result<FlowProgram>,
    /// The solution's values at every instance of the example (no ILP).
    pub instances: Vec<InstanceValues>,
    /// The instances (parameter values in order) where the run-time condition holds.
    pub runnable: Vec<Vec<i64>>,
}

impl Prepared {
    /// Reads the section, solves, derives the storages, builds the program and checks
    /// Assumption 1's dynamic part at every instance where the condition holds.
    pub fn new(ex: &polyalloc_alloc::Example) -> Result<Prepared> {
        let seq = LoopSequence::of_example(ex)?.ok_or_else(|| crate::error::input("flow", "the example has no `flow` section"))?;
        let result = algorithm::solve(&seq)?;
        let storages = seq.regions.iter().map(|g| (g.array.clone(), storage::derive(&seq, &result, &g.array))).collect();
        let model = FlowProgram::build(&seq, ex.context.as_deref());
        let instances = ex.instances.iter().map(|v| check::instance_values(&seq, &result, v)).collect::<Result<Vec<_>>>()?;
        let mut runnable = Vec::new();
        for iv in instances.iter().filter(|iv| iv.condition_holds) {
            let values = seq
                .params
                .iter()
                .map(|p| iv.values.get(p).copied())
                .collect::<Option<Vec<i64>>>()
                .ok_or_else(|| crate::error::input("instances", format!("{:?} does not give every parameter", iv.values)))?;
            if let Ok(fp) = &model {
                check::assumption1_at(fp, &seq, &values)?;
            }
            runnable.push(values);
        }
        Ok(Prepared { seq, result, storages, model, instances, runnable })
    }
}

fn prepared(input: &Input) -> std::result::Result<Arc<Prepared>, MethodError> {
    input.memo("flow:prepared", || Prepared::new(&input.example).map(Arc::new)).map_err(|e| MethodError::from(&e))
}

/// The storage of every local array with a derived storage (its linearised storage,
/// or its `last` candidate, the one reported), at the parameter values of a run.
fn storage_plan(prep: &Arc<Prepared>, last: bool) -> StoragePlan {
    let shared = Arc::clone(prep);
    let f = move |values: &[i64]| -> std::result::Result<ExecStorage, ProgramError> {
        let mut st = ExecStorage::new();
        for (a, list) in &shared.storages {
            let Ok(list) = list else { continue };
            let Some(s) = (if last { list.last() } else { list.first() }) else { continue };
            let m = s.mapping_at(&shared.seq.params, values).map_err(|e| ProgramError::Exec(e.to_string()))?;
            st.insert(a.clone(), m);
        }
        Ok(st)
    };
    // The reported mappings are the same at every instance when they are symbolic.
    if last {
        let fixed: Option<ExecStorage> = prep
            .storages
            .iter()
            .filter_map(|(a, l)| l.as_ref().ok().and_then(|l| l.last()).map(|s| (a, s)))
            .map(|(a, s)| s.mapping(&prep.seq.params).and_then(|m| m.ok()).map(|m| (a.clone(), m)))
            .collect();
        if let Some(fixed) = fixed {
            return StoragePlan::Fixed(fixed);
        }
    }
    StoragePlan::PerInstance(Arc::new(f))
}

fn conflicts(
    input: &Input,
    prep: &Prepared,
    fp: &FlowProgram,
    target: &str,
) -> std::result::Result<(ConflictSet, polyalloc_formulation::BasicSet), FlowError> {
    input.memo(&format!("flow:conflicts:{target}"), || {
        let ctx = fp.context_with(&prep.seq, &prep.result.condition)?.ok_or_else(|| {
            crate::error::input("trip_counts", "a trip count is not affine in the parameters: the run-time condition cannot be added to the context")
        })?;
        let fused = fp.fused_program(&prep.result.shifts, ctx.clone())?;
        Ok((fused.conflict_set(target)?, ctx))
    })
}

impl Method for Flow {
    fn name(&self) -> &'static str {
        "flow"
    }

    fn summary(&self) -> &'static str {
        "loop shifting, fusion and array contraction as a min-cost network flow (Song, Wang, Li 2005, Algorithm 1; Sec. 5 storage)"
    }

    fn targets(&self, input: &Input) -> std::result::Result<Vec<String>, MethodError> {
        let seq = LoopSequence::of_example(&input.example)?
            .ok_or_else(|| MethodError::NotApplicable("no `flow` section (Song, Wang, Li 2005: a sequence of loop nests)".into()))?;
        if seq.regions.is_empty() {
            return Err(MethodError::NotApplicable("the flow section has no local region to contract".into()));
        }
        Ok(seq.regions.iter().map(|g| g.array.clone()).collect())
    }

    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> std::result::Result<Outcome, MethodError> {
        let prep = prepared(input)?;
        let (seq, r) = (&prep.seq, &prep.result);
        let region = seq
            .regions
            .iter()
            .position(|g| g.array == target)
            .ok_or_else(|| MethodError::NotApplicable(format!("`{target}` is not a local array of the flow section")))?;
        let mut details = FlowDetails::of_solution(seq, r, target, &prep.storages)?;
        // The ILP cross-check: Problem 1 at every instance where the condition holds.
        let mut instances = prep.instances.clone();
        for iv in instances.iter_mut().filter(|iv| iv.condition_holds) {
            let s = seq.coalescing_at(&iv.values)?;
            let a = ilp::solve(seq, &r.g0, &s, solver, None)?;
            let agrees = a.objective.to_string() == iv.flow_objective;
            iv.ilp = Some(IlpCheck { objective: a.objective.to_string(), agrees, shifts_coalesced: a.shifts, memory: a.memory });
            if !agrees {
                return Err(FlowError::Disagreement(format!(
                    "at {:?} the ILP optimum {} differs from the flow's {}",
                    iv.values, a.objective, iv.flow_objective
                ))
                .into());
            }
        }
        details.instances = instances;
        // This array's storage (an array with two write references has none: Assumption 2).
        let storages = prep.storages.get(target).ok_or_else(|| MethodError::Method(format!("no storage entry for {target}")))?;
        let storages = storages.as_ref().map_err(MethodError::from)?;
        let reported = storages.last().filter(|s| s.kind != StorageKind::Linearized);
        let mapping = reported.and_then(|s| s.mapping(&seq.params)).transpose()?;
        details.storage_kind = mapping.as_ref().and(reported.map(|s| s.kind));
        let fp = match &prep.model {
            Ok(fp) => fp,
            Err(e) => {
                // Nothing can verify the storage: no mapping is proposed (the derived
                // storages stay in the details), and the facade reports the outcome as
                // unverifiable with the flow solution.
                let reason = format!("the loops are not expressible in the program model: {e}");
                details.ldg = check::LdgCheck::NotComputed { reason: reason.clone() };
                details.obligation = Evidence::NotGiven { reason: reason.clone() };
                details.execution = Evidence::NotGiven { reason };
                details.storage_kind = None;
                return Ok(Outcome { mapping: None, obligations: Vec::new(), executions: Vec::new(), details: details_of(&details), shared: None });
            }
        };
        details.ldg = check::ldg_check(fp, seq, solver, &input.example.instances);
        // The exact checker: the conflict set under the fused schedule.
        let mut obligations = Vec::new();
        details.obligation = if mapping.is_none() {
            Evidence::NotGiven { reason: "no modular mapping with integer coefficients for this array (linearised storage only)".into() }
        } else if !details.fusion.orders_coincide {
            Evidence::NotGiven {
                reason: "the shifts have inner components: the coalesced order (c = I . s + p . s, not affine in the parameters) differs from Fig. 8's fused nest; execution only".into(),
            }
        } else {
            match conflicts(input, &prep, fp, target) {
                Ok((cs, ctx)) => {
                    let rel_params = cs.relation.space().params.clone();
                    let inst = input
                        .example
                        .instances
                        .iter()
                        .zip(&prep.instances)
                        .filter(|(_, iv)| iv.condition_holds)
                        .filter_map(|(v, _)| rel_params.iter().map(|p| v.get(p).copied()).collect::<Option<Vec<i64>>>())
                        .collect();
                    let label = "fused nest of Fig. 8 (= the coalesced loop), under the run-time condition".to_string();
                    obligations.push(Obligation {
                        label: label.clone(),
                        problem: Problem {
                            example: input.example.id.clone(),
                            conflicts: cs,
                            context: Some(ctx),
                            space: Some(model::region_set(seq, region)?),
                            instances: inst,
                        },
                        at: None,
                    });
                    Evidence::Given { what: vec![label] }
                }
                Err(e) => Evidence::NotGiven { reason: format!("conflict set under the fused schedule: {e}") },
            }
        };
        // The executions of the transformed program.
        let mut executions = Vec::new();
        if prep.runnable.is_empty() {
            details.execution = Evidence::NotGiven {
                reason: format!("the run-time condition {} holds at no instance: the original loops run", r.condition.printed()),
            };
        } else {
            let mut sets = vec![("Sec. 5 linearised storage", storage_plan(&prep, false))];
            if prep.storages.values().any(|l| l.as_ref().is_ok_and(|l| l.len() > 1)) {
                sets.push(("the reported mappings", storage_plan(&prep, true)));
            }
            let orders = [
                ("coalesced fused loop (Sec. 3)", Order::Time(fp.coalesced_time(seq, &r.shifts))),
                ("fused nest (Fig. 8)", Order::Time(fp.fused_time(&r.shifts))),
            ];
            for (slabel, plan) in &sets {
                for (olabel, order) in &orders {
                    executions.push(ExecutionCheck {
                        label: format!("{olabel}, {slabel}"),
                        program: fp.program.clone(),
                        reduction_arrays: Vec::new(),
                        order: order.clone(),
                        storage: plan.clone(),
                        instances: prep.runnable.clone(),
                    });
                }
            }
            let mut what: Vec<String> = executions.iter().map(|e| e.label.clone()).collect();
            let not_contracted: Vec<&String> = prep.storages.iter().filter(|(_, l)| l.is_err()).map(|(a, _)| a).collect();
            if !not_contracted.is_empty() {
                what.push(format!("not contracted (no storage): {}", not_contracted.iter().map(|a| a.as_str()).collect::<Vec<_>>().join(", ")));
            }
            details.execution = Evidence::Given { what };
        }
        Ok(Outcome { mapping, obligations, executions, details: details_of(&details), shared: None })
    }
}
