//! [`FlowDetails`]: the typed details of a `flow` record (`Record::details`, serialised
//! with `polyalloc_alloc::details_of`), and the comparisons the paper rows of Song et al. 2005 make
//! on them (`xtask`'s paper module deserialises the details back into this struct).
//!
//! The solution part (shifts, `M`, memory, conditions, the intermediate problems) is
//! the same in every record of an example: Algorithm 1 is symbolic and solver-free.
//! The ILP cross-check (`instances[..].ilp`) is the record's backend's.

use crate::algorithm::FlowResult;
use crate::check::{InstanceValues, LdgCheck};
use crate::error::Result;
use crate::input::LoopSequence;
use crate::storage::{Storage, StorageKind};
use crate::vecs::{self, Vector};
use serde::{Deserialize, Serialize};
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// The typed details of a `flow` record. Keys of the JSON object are the field names
/// (`M` for [`FlowDetails::m`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FlowDetails {
    /// The local array of this record.
    pub target: String,
    /// Its local region, as in the file (`ZA(2:JN, 2:KN)`).
    pub region: String,
    /// n, the loop depth.
    pub depth: usize,
    /// The nests, in sequence order.
    pub nests: Vec<String>,
    /// The local arrays, in file order (the targets of the method).
    pub local_arrays: Vec<String>,
    /// Shifting vector `p_i` per nest (14), normalised to componentwise minimum 0.
    pub shifts: BTreeMap<String, Vector>,
    /// What was fused, and how the fused loop is ordered.
    pub fusion: Fusion,
    /// `M_{i,k}` (15) per local write reference.
    #[serde(rename = "M")]
    pub m: BTreeMap<String, Vector>,
    /// Memory per local array, `sum M_{i,k} . s` (polynomial).
    pub memory: BTreeMap<String, String>,
    /// Size of each local region before contraction (polynomial).
    pub memory_before: BTreeMap<String, String>,
    /// `sum M . s` (5).
    pub total_memory: String,
    /// The run-time condition: Assumption 3 and the solution's, `(c1, .., cn) < b`.
    pub condition: String,
    /// Its vector `(c1, .., cn)`.
    pub condition_vector: Vector,
    /// Assumption 3's part, `sum_e |d_e| < b`.
    pub assumption3: String,
    /// The conditions certifying the solution (Lemma 7, (27), Problem 4, (6)/(7)).
    pub solution_condition: String,
    /// The conjunction of Lemma 1's condition over every comparison made, and their number.
    pub comparison_condition: String,
    pub comparisons: u64,
    /// Arrays written by more than one local write reference (Assumption 2 fails).
    pub assumption2_violations: Vec<String>,
    /// Some inter-nest distance is lexicographically negative (Lemma 2): the nests
    /// cannot be fused without shifting.
    pub shifting_needed: bool,
    /// The objectives of Problems 4, 3, 2, 1 as vectors over `s`.
    pub problem_objectives: Objectives,
    /// G1/G2: nodes with supply, lexical height, `y` and `q`; edges with cost and flow.
    pub network: Network,
    /// Network simplex pivots.
    pub pivots: usize,
    /// The simplified LDG G0 (Sec. 4.1).
    pub g0: G0Details,
    /// The storages derived for every local array (Sec. 5), or why none.
    pub storage: BTreeMap<String, StorageDetails>,
    /// The kind of this record's mapping, when it has one.
    pub storage_kind: Option<StorageKind>,
    /// Whether a conflict set was handed to the exact checker, and why not.
    pub obligation: Evidence,
    /// The runs of the transformed program the facade performs, or why none.
    pub execution: Evidence,
    /// Per instance: trip counts, condition, objective, memory, the ILP cross-check.
    pub instances: Vec<InstanceValues>,
    /// The file's LDG against polyalloc's dependence analysis of the program.
    pub ldg: LdgCheck,
}

/// Fusion after shifting.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fusion {
    /// All nests are fused into one loop (Lemma 3: true whenever Problem 0 is solved).
    pub all_loops_fused: bool,
    /// The coalesced fused loop (the order Problem 0 measures) and the fused n-level nest
    /// of Fig. 8 are the same order (equal lower bounds, shifts zero beyond level 1).
    pub orders_coincide: bool,
}

/// Objectives as vectors `u` standing for `u . s^T`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Objectives {
    pub problem4: Vector,
    pub problem3: Vector,
    pub problem2: Vector,
    pub problem1: Vector,
}

/// A node of G1/G2 (`L1`, or the sink `L1(1)` of write `w_{1,1}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkNode {
    pub name: String,
    /// `h(v)`.
    pub supply: i64,
    /// `z` (Fig. 5).
    pub lexical_height: Vector,
    /// Problem 3's `y` (28).
    pub y: Vector,
    /// Problem 2's `q` (18).
    pub q: Vector,
}

/// An edge of G2 with its cost `c''` and the optimal Problem 4 flow on it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NetworkEdge {
    pub from: String,
    pub to: String,
    pub cost: Vector,
    pub flow: i64,
}

/// G1/G2.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Network {
    pub nodes: Vec<NetworkNode>,
    pub edges: Vec<NetworkEdge>,
}

/// G0's edges by name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct G0Details {
    pub l_edges: Vec<LEdgeDetails>,
    pub m_edges: Vec<MEdgeDetails>,
}

/// An L-edge (fusion legality).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LEdgeDetails {
    pub from: String,
    pub to: String,
    pub distance: Vector,
}

/// An M-edge (memory of a write reference).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MEdgeDetails {
    pub from: String,
    pub to: String,
    pub write: String,
    pub extended_distance: Vector,
}

/// The storages of one local array, or why Sec. 5's contraction does not apply.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum StorageDetails {
    Derived { candidates: Vec<StorageCandidate> },
    NotDerived { reason: String },
}

/// One derived storage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorageCandidate {
    pub kind: StorageKind,
    /// `ZB[(J - K) mod JN]`.
    pub printed: String,
    /// Implied by the solution (linearised or its exact reduction), not only checked.
    pub implied_by_solution: bool,
}

impl StorageDetails {
    /// The printed form of the last candidate (the one a record's mapping comes from).
    pub fn printed(&self) -> Option<&str> {
        match self {
            StorageDetails::Derived { candidates } => candidates.last().map(|c| c.printed.as_str()),
            StorageDetails::NotDerived { .. } => None,
        }
    }
}

/// Evidence handed to the facade (a conflict set for the checker, or runs for the
/// executor), or why none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum Evidence {
    /// Given: what (labels).
    Given { what: Vec<String> },
    /// Not given, and why.
    NotGiven { reason: String },
}

fn names_map(names: &[String], vals: &[Vector]) -> BTreeMap<String, Vector> {
    names.iter().cloned().zip(vals.iter().cloned()).collect()
}

impl FlowDetails {
    /// The typed details of a record (`Record::details`, or an outcome's details).
    pub fn from_details(d: &polyalloc_alloc::Details) -> std::result::Result<FlowDetails, serde_json::Error> {
        serde_json::from_value(serde_json::Value::Object(d.clone().into_iter().collect()))
    }

    /// The solution part of the details (evidence and instances to be filled in).
    pub fn of_solution(seq: &LoopSequence, r: &FlowResult, target: &str, storages: &BTreeMap<String, Result<Vec<Storage>>>) -> Result<FlowDetails> {
        let nests: Vec<String> = seq.nests.iter().map(|n| n.name.clone()).collect();
        let net = &r.network;
        let name = |v: usize| net.names[v].clone();
        let storage = storages
            .iter()
            .map(|(a, s)| {
                let d = match s {
                    Ok(list) => StorageDetails::Derived {
                        candidates: list
                            .iter()
                            .map(|st| StorageCandidate {
                                kind: st.kind,
                                printed: st.printed(),
                                implied_by_solution: st.kind != StorageKind::Projected,
                            })
                            .collect(),
                    },
                    Err(e) => StorageDetails::NotDerived { reason: e.to_string() },
                };
                (a.clone(), d)
            })
            .collect();
        Ok(FlowDetails {
            target: target.to_string(),
            region: seq.regions.iter().find(|g| g.array == target).map(|g| g.text.clone()).unwrap_or_default(),
            depth: seq.depth,
            shifts: names_map(&nests, &r.shifts),
            fusion: Fusion { all_loops_fused: true, orders_coincide: crate::model::orders_coincide(seq, &r.shifts) },
            m: seq.writes.iter().map(|w| w.id.clone()).zip(r.m.iter().cloned()).collect(),
            memory: r.memory_per_array(seq)?.into_iter().map(|(a, p)| (a, p.to_string())).collect(),
            memory_before: seq.regions.iter().map(|g| Ok((g.array.clone(), g.size()?.to_string()))).collect::<Result<_>>()?,
            total_memory: r.total_memory(seq)?.to_string(),
            condition: r.condition.printed(),
            condition_vector: r.condition.need.clone(),
            assumption3: r.assumption3.printed(),
            solution_condition: r.solution_condition.printed(),
            comparison_condition: r.comparison_condition.printed(),
            comparisons: r.comparisons,
            assumption2_violations: crate::algorithm::assumption2_violations(seq),
            shifting_needed: r.shifting_needed,
            problem_objectives: Objectives {
                problem4: r.problem4_objective.clone(),
                problem3: r.problem3_objective.clone(),
                problem2: r.problem2_objective.clone(),
                problem1: r.problem1_objective.clone(),
            },
            network: Network {
                nodes: (0..net.nodes.len())
                    .map(|v| NetworkNode {
                        name: name(v),
                        supply: net.supply[v],
                        lexical_height: net.z[v].clone(),
                        y: r.y[v].clone(),
                        q: r.q[v].clone(),
                    })
                    .collect(),
                edges: net
                    .edges
                    .iter()
                    .zip(&r.flow.flow)
                    .map(|(e, f)| NetworkEdge { from: name(e.from), to: name(e.to), cost: e.cost2.clone(), flow: *f })
                    .collect(),
            },
            pivots: r.flow.pivots,
            g0: G0Details {
                l_edges: r
                    .g0
                    .l_edges
                    .iter()
                    .map(|e| LEdgeDetails { from: nests[e.from].clone(), to: nests[e.to].clone(), distance: e.distance.clone() })
                    .collect(),
                m_edges: r
                    .g0
                    .m_edges
                    .iter()
                    .map(|e| MEdgeDetails {
                        from: nests[e.from].clone(),
                        to: nests[e.to].clone(),
                        write: seq.writes[e.write].id.clone(),
                        extended_distance: e.extended.clone(),
                    })
                    .collect(),
            },
            nests,
            local_arrays: seq.regions.iter().map(|g| g.array.clone()).collect(),
            storage,
            storage_kind: None,
            obligation: Evidence::NotGiven { reason: "not computed".into() },
            execution: Evidence::NotGiven { reason: "not computed".into() },
            instances: Vec::new(),
            ldg: LdgCheck::NotComputed { reason: "not computed".into() },
        })
    }

    /// A per-node vector of the network (`"z"`, `"y"`, `"q"`), by node name.
    pub fn per_node(&self, which: NodeVector) -> Vec<(String, Vector)> {
        self.network
            .nodes
            .iter()
            .map(|n| {
                let v = match which {
                    NodeVector::LexicalHeight => &n.lexical_height,
                    NodeVector::Y => &n.y,
                    NodeVector::Q => &n.q,
                };
                (n.name.clone(), v.clone())
            })
            .collect()
    }

    /// Problem 1's objective (11) for other shifts (e.g. the paper's): each `M_{i,k}` is
    /// the lexicographic maximum of `p_j + d_e + o_e - p_i` over its M-edges of G0.
    /// `None` when a nest has no shift, or an L-edge constraint (12) is violated (the
    /// shifts do not allow fusion).
    pub fn objective_for_shifts(&self, shifts: &BTreeMap<String, Vector>) -> Option<Vector> {
        let zero = vec![0; self.depth];
        let p = |n: &str| shifts.get(n).filter(|v| v.len() == self.depth);
        for e in &self.g0.l_edges {
            let rel = vecs::add(&vecs::sub(p(&e.to)?, p(&e.from)?).ok()?, &e.distance).ok()?;
            if vecs::lex_cmp(&rel, &zero) == Ordering::Less {
                return None;
            }
        }
        let mut m: BTreeMap<&str, Option<Vector>> = self.m.keys().map(|w| (w.as_str(), None)).collect();
        for e in &self.g0.m_edges {
            let need = vecs::add(&vecs::sub(p(&e.to)?, p(&e.from)?).ok()?, &e.extended_distance).ok()?;
            let slot = m.get_mut(e.write.as_str())?;
            if slot.as_ref().is_none_or(|cur| vecs::lex_cmp(&need, cur) == Ordering::Greater) {
                *slot = Some(need);
            }
        }
        let mut total = zero.clone();
        for v in m.values() {
            total = vecs::add(&total, v.as_ref().unwrap_or(&zero)).ok()?;
        }
        Some(total)
    }

    /// (16) `sum_v h(v) q_v` for another `q` (e.g. the paper's); `None` when a node has
    /// no value.
    pub fn problem2_objective_for(&self, q: &BTreeMap<String, Vector>) -> Option<Vector> {
        let mut sum = vec![0; self.depth];
        for n in &self.network.nodes {
            sum = vecs::add(&sum, &vecs::scale(q.get(&n.name)?, n.supply).ok()?).ok()?;
        }
        Some(sum)
    }

    /// Compares another flow (e.g. the paper's, `(from, to, f)` by node names) with the
    /// optimal one: the same flow, another feasible flow ((24)-(25) on our G2) with the
    /// same objective (23), or neither.
    pub fn compare_flow(&self, other: &[(String, String, i64)]) -> FlowComparison {
        let mut flow = vec![0i64; self.network.edges.len()];
        for (from, to, f) in other {
            match self.network.edges.iter().position(|e| &e.from == from && &e.to == to) {
                Some(i) => flow[i] = *f,
                None => return FlowComparison::Differ,
            }
        }
        if flow.iter().zip(&self.network.edges).all(|(f, e)| *f == e.flow) {
            return FlowComparison::Same;
        }
        let mut balance: BTreeMap<&str, i64> = self.network.nodes.iter().map(|n| (n.name.as_str(), 0)).collect();
        let mut objective = vec![0; self.depth];
        for (e, f) in self.network.edges.iter().zip(&flow) {
            if *f < 0 {
                return FlowComparison::Differ;
            }
            let (Some(b), Ok(c)) = (balance.get_mut(e.from.as_str()), vecs::scale(&e.cost, *f)) else { return FlowComparison::Differ };
            *b += f;
            let Some(b) = balance.get_mut(e.to.as_str()) else { return FlowComparison::Differ };
            *b -= f;
            objective = match vecs::add(&objective, &c) {
                Ok(o) => o,
                Err(_) => return FlowComparison::Differ,
            };
        }
        let feasible = self.network.nodes.iter().all(|n| balance.get(n.name.as_str()) == Some(&n.supply));
        if feasible && objective == self.problem_objectives.problem4 {
            FlowComparison::SameObjective
        } else {
            FlowComparison::Differ
        }
    }
}

/// Which per-node vector of [`FlowDetails::per_node`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeVector {
    /// `z` (Fig. 5).
    LexicalHeight,
    /// `y` (28).
    Y,
    /// `q` (18).
    Q,
}

/// See [`FlowDetails::compare_flow`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlowComparison {
    Same,
    SameObjective,
    Differ,
}
