//! Checks of the input and of a solution on the program model ([`crate::model`]):
//! Assumption 1's dynamic part by enumerating the original order, the file's LDG
//! against the one dependence analysis of polyalloc, and the per-instance values of a
//! solution (run-time condition, memory, Problem 1's optimum).

use crate::algorithm::FlowResult;
use crate::error::{FlowError, Result};
use crate::input::{DepKind, LoopSequence};
use crate::model::FlowProgram;
use crate::vecs;
use polyalloc_ilp::Solver;
use polyalloc_program::deps::{self, DepOptions};
use polyalloc_program::exec::Executor;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Most dependence distances enumerated per dependence and instance.
const DISTANCE_LIMIT: usize = 100_000;

/// The local region boxes at an instance, by array.
fn region_boxes(seq: &LoopSequence, values: &[i64]) -> Result<HashMap<String, Vec<(i128, i128)>>> {
    let env: Vec<(&str, i64)> = seq.params.iter().map(String::as_str).zip(values.iter().copied()).collect();
    let mut out = HashMap::new();
    for r in &seq.regions {
        let b = r.bounds.iter().map(|(lo, hi)| Ok((lo.eval(&env)?, hi.eval(&env)?))).collect::<Result<Vec<_>>>()?;
        out.insert(r.array.clone(), b);
    }
    Ok(out)
}

fn inside(b: &[(i128, i128)], cell: &[i64]) -> bool {
    b.len() == cell.len() && b.iter().zip(cell).all(|((lo, hi), x)| *lo <= *x as i128 && *x as i128 <= *hi)
}

/// Assumption 1's dynamic part (Sec. 3.3) at one instance (`values` of the
/// parameters), by walking the statement instances of the program in their original
/// order: each local write reference writes distinct elements, all inside its region;
/// no element of a local region is read before it is written; every value written
/// there is read before it is overwritten or the loops end. A statement that is not a
/// listed local write but writes into a local region is an input error.
pub fn assumption1_at(fp: &FlowProgram, seq: &LoopSequence, values: &[i64]) -> Result<()> {
    let a1 = |message: String| FlowError::Assumption { number: 1, message };
    let boxes = region_boxes(seq, values)?;
    let exec = Executor::with_hash_bodies(fp.program.clone());
    let trace = exec.original_trace(values)?;
    // Region cell -> (statement that wrote it, read since).
    let mut written: HashMap<(String, Vec<i64>), (usize, bool)> = HashMap::new();
    let mut seen: HashSet<(usize, Vec<i64>)> = HashSet::new();
    let prog = &fp.program;
    for (k, it) in trace.steps.iter().flatten() {
        let st = &prog.statements[*k];
        for a in &st.reads {
            if !a.happens_at(values, it)? {
                continue;
            }
            let cell = a.cell_at(values, it)?;
            if boxes.get(&a.array).is_some_and(|b| inside(b, &cell)) {
                match written.get_mut(&(a.array.clone(), cell.clone())) {
                    Some(w) => w.1 = true,
                    None => {
                        return Err(a1(format!("{}{cell:?} of a local region is read before it is written (`{}` at {it:?})", a.array, fp.texts[*k])))
                    }
                }
            }
        }
        for a in &st.writes {
            let Some(b) = boxes.get(&a.array) else { continue };
            if !a.happens_at(values, it)? {
                continue;
            }
            let cell = a.cell_at(values, it)?;
            let local = inside(b, &cell);
            let is_local_write = fp.local_write[*k].is_some_and(|w| seq.writes[w].array == a.array);
            if is_local_write && !local {
                return Err(a1(format!("local write `{}` writes {}{cell:?} outside its region", fp.texts[*k], a.array)));
            }
            if !local {
                continue;
            }
            if !is_local_write {
                return Err(crate::error::input(
                    "local_writes",
                    format!("`{}` writes the local region of {} but is not a listed local write", fp.texts[*k], a.array),
                ));
            }
            if !seen.insert((*k, cell.clone())) {
                return Err(a1(format!("`{}` writes {}{cell:?} twice", fp.texts[*k], a.array)));
            }
            if let Some((w, used)) = written.insert((a.array.clone(), cell.clone()), (*k, false)) {
                if !used {
                    return Err(a1(format!("the value of {}{cell:?} written by `{}` is never read", a.array, fp.texts[w])));
                }
            }
        }
    }
    let mut unread: Vec<_> = written.iter().filter(|(_, (_, used))| !used).collect();
    unread.sort();
    if let Some(((a, cell), (w, _))) = unread.first() {
        return Err(a1(format!("the value of {a}{cell:?} written by `{}` is never read", fp.texts[*w])));
    }
    Ok(())
}

/// One LDG edge (Definition 2), as given in the file or computed: the nests, the type,
/// the array, the distance, and for flow dependences of a local write reference its id
/// and the extension vector `o_e` (Sec. 3.3).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct LdgEdge {
    pub from: usize,
    pub to: usize,
    pub kind: &'static str,
    pub array: String,
    pub distance: Vec<i64>,
    pub write: Option<String>,
    pub extension: Option<Vec<i64>>,
}

impl LdgEdge {
    fn show(&self, seq: &LoopSequence) -> String {
        let mut s =
            format!("{} {} -> {} on {} distance {:?}", self.kind, seq.nests[self.from].name, seq.nests[self.to].name, self.array, self.distance);
        if let (Some(w), Some(o)) = (&self.write, &self.extension) {
            s.push_str(&format!(" (write {w}, o = {o:?})"));
        }
        s
    }
}

fn kind_name(k: DepKind) -> &'static str {
    k.name()
}

/// The file's LDG compared with the dependences computed from the program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum LdgCheck {
    /// Equal at every instance checked.
    Matches { instances: usize },
    /// Different at `at`: edges computed but not in the file, and the converse.
    Differs { at: BTreeMap<String, i64>, computed_not_in_file: Vec<String>, in_file_not_computed: Vec<String> },
    /// Not computed (the program model cannot represent the loops, or the analysis failed).
    NotComputed { reason: String },
}

/// The dependences of the program as LDG edges at one instance: for every pair of
/// accesses to one array, the memory-based dependences of polyalloc's dependence
/// analysis ([`polyalloc_program::deps::analyze`], Pugh 1991, Sec. 3), each relation's distances
/// `y - x` enumerated at the instance. Dependences of a nest on itself are kept only
/// for flow dependences of a local write reference (with `o_e = 0` when the reader
/// precedes the writer in the body, `(0, .., 0, 1)` otherwise, Sec. 3.3); the others
/// are preserved by fusion and are not LDG edges (Sec. 4.1), as in the bench-suite files.
/// Memory-based and value-based dependences coincide when every cell is written by one
/// statement instance at most, as in every shipped example.
pub struct ComputedLdg {
    deps: Vec<(deps::Dependence, String)>,
}

impl ComputedLdg {
    /// Runs the dependence analysis, one array at a time (each access pair concerns one
    /// array; the analysis drops empty relations through `solver`).
    pub fn analyze(fp: &FlowProgram, solver: &dyn Solver) -> Result<ComputedLdg> {
        let mut arrays: BTreeSet<String> = BTreeSet::new();
        for st in &fp.program.statements {
            for a in st.writes.iter().chain(&st.reads) {
                arrays.insert(a.array.clone());
            }
        }
        let mut out = Vec::new();
        for array in arrays {
            let mut p = fp.program.clone();
            for st in &mut p.statements {
                st.writes.retain(|a| a.array == array);
                st.reads.retain(|a| a.array == array);
            }
            if !p.statements.iter().any(|s| !s.writes.is_empty()) {
                continue; // read only: no dependence
            }
            for d in deps::analyze(&p, &DepOptions::default(), solver)? {
                out.push((d, array.clone()));
            }
        }
        Ok(ComputedLdg { deps: out })
    }

    /// The LDG edges at `values`.
    pub fn edges_at(&self, fp: &FlowProgram, seq: &LoopSequence, values: &[i64]) -> Result<BTreeSet<LdgEdge>> {
        let n = seq.depth;
        let mut out = BTreeSet::new();
        for (d, array) in &self.deps {
            // The LDG's edges order their instances (flow, anti, output).
            if !d.kind.orders() {
                continue;
            }
            let kind = d.kind;
            let (from, wst) = fp.origin[d.source];
            let (to, rst) = fp.origin[d.target];
            let write = match kind {
                DepKind::Flow => fp.local_write[d.source].filter(|w| &seq.writes[*w].array == array),
                _ => None,
            };
            if from == to && write.is_none() {
                continue;
            }
            let extension = write.map(|_| {
                let mut o = vec![0; n];
                if !(from == to && rst < wst) {
                    o[n - 1] = 1;
                }
                o
            });
            for distance in d.relation.deltas()?.enumerate(values, DISTANCE_LIMIT)? {
                out.insert(LdgEdge {
                    from,
                    to,
                    kind: kind_name(kind),
                    array: array.clone(),
                    distance,
                    write: write.map(|w| seq.writes[w].id.clone()),
                    extension: extension.clone(),
                });
            }
        }
        Ok(out)
    }
}

/// The file's edges as [`LdgEdge`]s (duplicates with the same type, array and distance
/// merged).
pub fn file_edges(seq: &LoopSequence) -> BTreeSet<LdgEdge> {
    seq.edges
        .iter()
        .map(|e| LdgEdge {
            from: e.from,
            to: e.to,
            kind: kind_name(e.kind),
            array: e.array.clone().unwrap_or_default(),
            distance: e.distance.clone(),
            write: e.write.map(|w| seq.writes[w].id.clone()),
            extension: e.extension.clone(),
        })
        .collect()
}

/// Compares the file's LDG with the computed one at every instance.
pub fn ldg_check(fp: &FlowProgram, seq: &LoopSequence, solver: &dyn Solver, instances: &[BTreeMap<String, i64>]) -> LdgCheck {
    let computed = match ComputedLdg::analyze(fp, solver) {
        Ok(c) => c,
        Err(e) => return LdgCheck::NotComputed { reason: e.to_string() },
    };
    let given = file_edges(seq);
    for inst in instances {
        let Some(values) = seq.params.iter().map(|p| inst.get(p).copied()).collect::<Option<Vec<i64>>>() else {
            return LdgCheck::NotComputed { reason: format!("instance {inst:?} does not give every parameter") };
        };
        let found = match computed.edges_at(fp, seq, &values) {
            Ok(f) => f,
            Err(e) => return LdgCheck::NotComputed { reason: e.to_string() },
        };
        if found != given {
            return LdgCheck::Differs {
                at: inst.clone(),
                computed_not_in_file: found.difference(&given).map(|e| e.show(seq)).collect(),
                in_file_not_computed: given.difference(&found).map(|e| e.show(seq)).collect(),
            };
        }
    }
    LdgCheck::Matches { instances: instances.len() }
}

/// A solution's values at one instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct InstanceValues {
    /// The parameter values.
    pub values: BTreeMap<String, i64>,
    /// `b` at the instance.
    pub trip_counts: Vec<String>,
    /// The run-time condition holds (the contracted version runs).
    pub condition_holds: bool,
    /// `sum M . s` at the instance.
    pub flow_objective: String,
    /// Memory per array at the instance.
    pub memory: BTreeMap<String, String>,
    /// Problem 1 solved as an ILP at the instance (where the condition holds).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ilp: Option<IlpCheck>,
}

/// The ILP cross-check at one instance.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IlpCheck {
    /// The optimum `sum_w M_w`.
    pub objective: String,
    /// Equal to the flow's `sum M . s`.
    pub agrees: bool,
    /// `P_i = p_i . s` per nest, as the backend found them.
    pub shifts_coalesced: Vec<i64>,
    /// `M_w` per write reference.
    pub memory: Vec<i64>,
}

/// The solution's values at `values` (no ILP yet).
pub fn instance_values(seq: &LoopSequence, result: &FlowResult, values: &BTreeMap<String, i64>) -> Result<InstanceValues> {
    let b = seq.trip_counts_at(values)?;
    let s = seq.coalescing_at(values)?;
    let env = seq.env(values);
    let mut memory = BTreeMap::new();
    for (a, p) in result.memory_per_array(seq)? {
        memory.insert(a, p.eval(&env)?.to_string());
    }
    Ok(InstanceValues {
        values: values.clone(),
        condition_holds: result.condition.holds(&b),
        trip_counts: b.iter().map(|x| x.to_string()).collect(),
        flow_objective: vecs::dot(&result.problem1_objective, &s)?.to_string(),
        memory,
        ilp: None,
    })
}
