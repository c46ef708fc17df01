//! Per-instance checks of a flow solution: the run-time condition, the ILP optimum of
//! Problem 1 on a backend, and the execution of the contracted loops.

use crate::error::{FlowError, Result};
use crate::exec::{ExecReport, Order, Program};
use crate::input::LoopSequence;
use crate::storage::{self, Storage, StorageKind};
use crate::vecs;
use crate::FlowResult;
use std::collections::BTreeMap;

/// Execution of one storage candidate at one instance.
#[derive(Clone, Debug)]
pub struct StorageRun {
    pub storage: Storage,
    pub report: ExecReport,
}

/// What was checked at one instance.
#[derive(Clone, Debug)]
pub struct InstanceCheck {
    pub values: BTreeMap<String, i64>,
    /// `b` at the instance.
    pub trip_counts: Vec<i128>,
    /// The run-time condition holds (the contracted version may run).
    pub condition_holds: bool,
    /// `sum M . s` at the instance.
    pub flow_objective: i128,
    /// Memory per array at the instance.
    pub memory: BTreeMap<String, i128>,
    /// Executions, labelled `storage set/order`: storage sets `linearized` (Sec. 5) and
    /// `mapping` (the integer or projected candidate, when it differs); orders
    /// `coalesced` (the coalesced fused loop Problem 0 models) and `fused-nest` (the
    /// fused n-level nest of Fig. 8). Or why execution was not possible.
    pub runs: Vec<(String, StorageRun)>,
    pub exec_error: Option<String>,
    /// The LDG recomputed by executing the original loops equals the file's edges
    /// (`Ok`), differs (`Err` with the first difference), or could not be computed.
    pub ldg: std::result::Result<(), String>,
}

/// Storages of every contracted array: for each kind, the set used in one run (arrays
/// with a single candidate reuse it).
pub fn storage_sets(seq: &LoopSequence, result: &FlowResult) -> Result<Vec<(String, BTreeMap<String, Storage>)>> {
    let mut per_array: BTreeMap<String, Vec<Storage>> = BTreeMap::new();
    for r in &seq.regions {
        per_array.insert(r.array.clone(), storage::derive(seq, result, &r.array)?);
    }
    let mut sets = Vec::new();
    for (label, pick_last) in [("linearized", false), ("mapping", true)] {
        let set: BTreeMap<String, Storage> = per_array
            .iter()
            .filter_map(|(a, v)| if pick_last { v.last() } else { v.first() }.map(|st| (a.clone(), st.clone())))
            .collect();
        if pick_last && per_array.values().all(|v| v.len() == 1) {
            continue;
        }
        sets.push((label.to_string(), set));
    }
    Ok(sets)
}

/// Runs the checks that need no solver at one instance.
pub fn check_instance(seq: &LoopSequence, result: &FlowResult, values: &BTreeMap<String, i64>) -> Result<InstanceCheck> {
    let b = seq.trip_counts_at(values)?;
    let s = seq.coalescing_at(values)?;
    let condition_holds = result.condition.holds(&b);
    let flow_objective = vecs::dot(&result.problem1_objective, &s)?;
    let env = seq.env(values);
    let mut memory = BTreeMap::new();
    for (a, p) in result.memory_per_array(seq)? {
        memory.insert(a, p.eval(&env)?);
    }
    let ldg = ldg_matches(seq, values);
    let mut out = InstanceCheck { values: values.clone(), trip_counts: b, condition_holds, flow_objective, memory, runs: Vec::new(), exec_error: None, ldg };
    if !condition_holds {
        out.exec_error = Some(format!("run-time condition {} is false: the original loops run", result.condition.printed()));
        return Ok(out);
    }
    match execute(seq, result, values) {
        Ok(runs) => out.runs = runs,
        Err(e) => out.exec_error = Some(e.to_string()),
    }
    Ok(out)
}

/// Executes the original and the contracted program for each storage set.
pub fn execute(seq: &LoopSequence, result: &FlowResult, values: &BTreeMap<String, i64>) -> Result<Vec<(String, StorageRun)>> {
    let sets = storage_sets(seq, result)?;
    let prog = Program::new(seq, values)?;
    let original = prog.run_original()?;
    let s = seq.coalescing_at(values)?;
    let shifts: Vec<i64> = result
        .shifts
        .iter()
        .map(|p| vecs::dot(p, &s).and_then(|v| i64::try_from(v).map_err(|_| FlowError::Overflow("shift".into()))))
        .collect::<Result<_>>()?;
    let mut runs = Vec::new();
    let orders = [("coalesced", Order::Coalesced(shifts)), ("fused-nest", Order::FusedNest(result.shifts.clone()))];
    for (label, set) in sets {
        for (oname, order) in &orders {
            let report = prog.run_order(order, &set, &original)?;
            for st in set.values() {
                runs.push((format!("{label}/{oname}"), StorageRun { storage: st.clone(), report: report.clone() }));
            }
        }
    }
    Ok(runs)
}

/// True when the storage kind is implied by the solution (not only execution-checked).
pub fn implied(kind: StorageKind) -> bool {
    kind != StorageKind::Projected
}

/// Compares the LDG given in the file with the one found by executing the original
/// loops at an instance ([`Program::dependences`]); duplicates (same type, array,
/// distance) are merged on both sides.
pub fn ldg_matches(seq: &LoopSequence, values: &BTreeMap<String, i64>) -> std::result::Result<(), String> {
    let prog = Program::new(seq, values).map_err(|e| e.to_string())?;
    let found = prog.dependences().map_err(|e| e.to_string())?;
    let given: std::collections::BTreeSet<crate::exec::Dependence> = seq
        .edges
        .iter()
        .map(|e| crate::exec::Dependence {
            from: e.from,
            to: e.to,
            kind: match e.kind {
                crate::input::DepKind::Flow => "flow",
                crate::input::DepKind::Anti => "anti",
                crate::input::DepKind::Output => "output",
            },
            array: e.array.clone().unwrap_or_default(),
            distance: e.distance.clone(),
            write: e.write.map(|w| seq.writes[w].id.clone()),
            extension: e.extension.clone(),
        })
        .collect();
    let show = |d: &crate::exec::Dependence| format!("{} {} -> {} on {} distance {:?} write {:?} o {:?}", d.kind, seq.nests[d.from].name, seq.nests[d.to].name, d.array, d.distance, d.write, d.extension);
    if let Some(d) = found.difference(&given).next() {
        return Err(format!("found by execution but not in the file: {}", show(d)));
    }
    if let Some(d) = given.difference(&found).next() {
        return Err(format!("in the file but not found by execution: {}", show(d)));
    }
    Ok(())
}
