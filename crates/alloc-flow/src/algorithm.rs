//! Algorithm 1 (Fig. 7): Problem 0 -> 1 -> 2 -> 3 -> 4, solve Problem 4, and recover
//! the solutions of Problems 3, 2, 1 and 0 with formulas (28), (18), (14), (15).

use crate::error::{FlowError, Result};
use crate::input::{DepKind, LoopSequence};
use crate::simplex::{self, Arc, FlowSolution};
use crate::vecs::{self, Condition, LexCompare, Vector};
use polyalloc_formulation::Polynomial;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// An L-edge of G0 (Sec. 4.1): keeps fusion legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LEdge {
    pub from: usize,
    pub to: usize,
    pub distance: Vector,
}

/// An M-edge of G0 (Sec. 4.1): determines the memory of write `write`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MEdge {
    pub from: usize,
    pub to: usize,
    pub write: usize,
    /// `d_e + o_e`.
    pub extended: Vector,
}

/// The simplified LDG G0 = (V0, E0).
#[derive(Clone, Debug, Default)]
pub struct G0 {
    pub l_edges: Vec<LEdge>,
    pub m_edges: Vec<MEdge>,
}

/// A node of G1/G2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Node {
    /// The corresponding node L~_i of nest i.
    Nest(usize),
    /// The sink L~_i^(k) of write reference w (index into `LoopSequence::writes`).
    Sink(usize),
}

/// An edge of G1 (cost `c'`) / G2 (cost `c''`).
#[derive(Clone, Debug)]
pub struct GEdge {
    pub from: usize,
    pub to: usize,
    /// `c'` (G1).
    pub cost1: Vector,
    /// `c'' = z_j - z_i + c'` (G2).
    pub cost2: Vector,
    /// True for an edge made from an M-edge.
    pub from_m_edge: bool,
}

/// G1 and G2 (same nodes, edges and supplies; different costs).
#[derive(Clone, Debug)]
pub struct Network {
    pub nodes: Vec<Node>,
    /// Printed names: `L1`, `L1(1)`.
    pub names: Vec<String>,
    /// `h(v)`.
    pub supply: Vec<i64>,
    pub edges: Vec<GEdge>,
    /// Lexical heights `z` (Fig. 5).
    pub z: Vec<Vector>,
}

/// The complete result of Algorithm 1.
#[derive(Clone, Debug)]
pub struct FlowResult {
    pub g0: G0,
    pub network: Network,
    /// Assumption 3's condition: `sum_e |d_e,k| < b_k`.
    pub assumption3: Condition,
    /// Conditions that make the flow's answer valid (Lemma 7, Problem 4 optimality,
    /// (27) and the final constraints of Problem 0), excluding Assumption 3.
    pub solution_condition: Condition,
    /// Assumption 3 and `solution_condition` together: the run-time condition of
    /// step 6 of Sec. 4.5.
    pub condition: Condition,
    /// The conjunction of the `abs(u1 - u2) < b` conditions of every lexicographic
    /// comparison the algorithm made (Sec. 4.4, taken literally), and their number.
    pub comparison_condition: Condition,
    pub comparisons: u64,
    /// The optimal Problem 4 flow, per edge of G2.
    pub flow: FlowSolution,
    /// Problem 3: `y = -x` (28), `x` = shortest distances in the residual network G2'.
    pub y: Vec<Vector>,
    /// Problem 2: `q = y + z` (18).
    pub q: Vec<Vector>,
    /// Objectives as vectors over s: (23), (21), (16), (11).
    pub problem4_objective: Vector,
    pub problem3_objective: Vector,
    pub problem2_objective: Vector,
    pub problem1_objective: Vector,
    /// Shifting vectors p_i (14), normalised so that the componentwise minimum over
    /// the nests is 0 (shifts matter only up to a common translation).
    pub shifts: Vec<Vector>,
    /// `M_{i,k}` (15) per write reference (index into `LoopSequence::writes`).
    pub m: Vec<Vector>,
    /// True when the zero shifts are not legal (Lemma 2): shifting is needed to fuse.
    pub shifting_needed: bool,
}

impl FlowResult {
    /// Memory of write reference w: `M_{i,k} . s`.
    pub fn memory_of_write(&self, seq: &LoopSequence, w: usize) -> Result<Polynomial> {
        seq.times_s(&self.m[w])
    }
    /// Memory per local array (sum over its write references, Assumption 2).
    pub fn memory_per_array(&self, seq: &LoopSequence) -> Result<BTreeMap<String, Polynomial>> {
        let mut out: BTreeMap<String, Polynomial> = BTreeMap::new();
        for (w, wr) in seq.writes.iter().enumerate() {
            let p = self.memory_of_write(seq, w)?;
            let e = out.entry(wr.array.clone()).or_insert_with(Polynomial::zero);
            *e = e.checked_add(&p)?;
        }
        Ok(out)
    }
    /// Total memory `sum M_{i,k} . s` (5).
    pub fn total_memory(&self, seq: &LoopSequence) -> Result<Polynomial> {
        seq.times_s(&self.problem1_objective)
    }
}

/// Assumption 1's static part: every local write has at least one flow dependence
/// (its values are useful). The dynamic part (distinct elements, every value read) is
/// checked on the program model in [`crate::check::assumption1_at`].
pub fn check_assumption1(seq: &LoopSequence) -> Result<()> {
    for (w, wr) in seq.writes.iter().enumerate() {
        if !seq.edges.iter().any(|e| e.write == Some(w)) {
            return Err(FlowError::Assumption {
                number: 1,
                message: format!("write {} ({}) has no flow dependence: its values are never used", wr.id, wr.reference),
            });
        }
    }
    Ok(())
}

/// Assumption 2: local regions written by different write references do not overlap.
/// Returns the arrays written by more than one reference (the assumption fails for
/// them; the model then sums one memory per reference, an over-estimate).
pub fn assumption2_violations(seq: &LoopSequence) -> Vec<String> {
    let mut count: BTreeMap<&str, usize> = BTreeMap::new();
    for w in &seq.writes {
        *count.entry(w.array.as_str()).or_default() += 1;
    }
    count.into_iter().filter(|(_, c)| *c > 1).map(|(a, _)| a.to_string()).collect()
}

/// Assumption 3: `sum_e |d_{e,k}| < b_k` for every level k, as a run-time condition.
pub fn assumption3(seq: &LoopSequence) -> Result<Condition> {
    let mut need = vec![0i64; seq.depth];
    for e in &seq.edges {
        for (k, d) in e.distance.iter().enumerate() {
            let a = d.checked_abs().ok_or_else(|| FlowError::Overflow("Assumption 3 sums".into()))?;
            need[k] = need[k].checked_add(a).ok_or_else(|| FlowError::Overflow("Assumption 3 sums".into()))?;
        }
    }
    let mut c = Condition::none(seq.depth);
    c.require(&need);
    Ok(c)
}

/// Sec. 4.1: G0 from G.
pub fn simplify(seq: &LoopSequence, lex: &mut LexCompare) -> G0 {
    let mut l: BTreeMap<(usize, usize), Vector> = BTreeMap::new();
    let mut m: BTreeMap<(usize, usize, usize), Vector> = BTreeMap::new();
    for e in &seq.edges {
        if e.from != e.to {
            let slot = l.entry((e.from, e.to)).or_insert_with(|| e.distance.clone());
            if lex.cmp(&e.distance, slot) == Ordering::Less {
                *slot = e.distance.clone();
            }
        }
        if let (DepKind::Flow, Some(w), Some(o)) = (e.kind, e.write, &e.extension) {
            let ext: Vector = e.distance.iter().zip(o).map(|(a, b)| a.saturating_add(*b)).collect();
            let slot = m.entry((e.from, e.to, w)).or_insert_with(|| ext.clone());
            if lex.cmp(&ext, slot) == Ordering::Greater {
                *slot = ext;
            }
        }
    }
    G0 {
        l_edges: l.into_iter().map(|((from, to), distance)| LEdge { from, to, distance }).collect(),
        m_edges: m.into_iter().map(|((from, to, write), extended)| MEdge { from, to, write, extended }).collect(),
    }
}

/// Sec. 4.2 and 4.3: G1 with supplies, lexical heights (Fig. 5) and G2's costs.
pub fn build_network(seq: &LoopSequence, g0: &G0, lex: &mut LexCompare) -> Result<Network> {
    let n = seq.depth;
    let mut nodes: Vec<Node> = (0..seq.nests.len()).map(Node::Nest).collect();
    let mut names: Vec<String> = seq.nests.iter().map(|x| x.name.clone()).collect();
    let mut supply = vec![0i64; seq.nests.len()];
    let mut sink_of: BTreeMap<usize, usize> = BTreeMap::new();
    for i in 0..seq.nests.len() {
        if !g0.m_edges.iter().any(|e| e.from == i) {
            continue;
        }
        let ws = seq.writes_of(i);
        supply[i] = ws.len() as i64; // h(L~_i) = τ_i
        for w in ws {
            sink_of.insert(w, nodes.len());
            nodes.push(Node::Sink(w));
            names.push(format!("{}({})", seq.nests[i].name, seq.writes[w].k));
            supply.push(-1);
        }
    }
    let mut edges = Vec::new();
    for e in &g0.l_edges {
        edges.push(GEdge { from: e.from, to: e.to, cost1: e.distance.clone(), cost2: Vec::new(), from_m_edge: false });
    }
    for e in &g0.m_edges {
        let sink = *sink_of.get(&e.write).ok_or_else(|| FlowError::Internal("sink of an M-edge".into()))?;
        edges.push(GEdge { from: e.to, to: sink, cost1: vecs::neg(&e.extended)?, cost2: Vec::new(), from_m_edge: true });
    }
    // Fig. 5 in topological order: nests in sequence order (edges go forward, Sec. 4.1
    // drops self L-edges), then sinks (only nests precede them).
    let mut z: Vec<Option<Vector>> = vec![None; nodes.len()];
    for v in 0..nodes.len() {
        let mut best: Option<Vector> = None;
        for e in edges.iter().filter(|e| e.to == v) {
            let zi = z[e.from].clone().ok_or_else(|| FlowError::Internal(format!("G1 is not a DAG in sequence order at {}", names[v])))?;
            let cand = vecs::sub(&zi, &e.cost1)?;
            best = match best {
                None => Some(cand),
                Some(b) => Some(if lex.cmp(&cand, &b) == Ordering::Greater { cand } else { b }),
            };
        }
        z[v] = Some(best.unwrap_or_else(|| vec![0; n]));
    }
    let z: Vec<Vector> = z.into_iter().collect::<Option<Vec<_>>>().ok_or_else(|| FlowError::Internal("heights".into()))?;
    for e in &mut edges {
        e.cost2 = vecs::add(&vecs::sub(&z[e.to], &z[e.from])?, &e.cost1)?;
    }
    Ok(Network { nodes, names, supply, edges, z })
}

/// Runs Algorithm 1 (Fig. 7) on a loop sequence.
pub fn solve(seq: &LoopSequence) -> Result<FlowResult> {
    let n = seq.depth;
    check_assumption1(seq)?;
    let a3 = assumption3(seq)?;
    let mut lex = LexCompare::new(n);
    let g0 = simplify(seq, &mut lex);
    let net = build_network(seq, &g0, &mut lex)?;
    let mut cond = Condition::none(n);
    // Lemma 7: c'' >= 0 (lex) and, under abs(c'') < b + (0,..,0,1), c'' . s >= 0.
    for e in &net.edges {
        if vecs::lex_cmp(&e.cost2, &vec![0; n]) == Ordering::Less {
            return Err(FlowError::Internal(format!("Lemma 7 violated on {} -> {}", net.names[e.from], net.names[e.to])));
        }
        cond.abs_lt_b_plus(&e.cost2);
    }
    // Problem 4 (23)-(25).
    let arcs: Vec<Arc> = net.edges.iter().map(|e| Arc { from: e.from, to: e.to, cost: e.cost2.clone() }).collect();
    let flow = simplex::min_cost_flow(net.nodes.len(), &net.supply, &arcs, n, &mut lex)?;
    // Sec. 4.4.1: residual network G2' plus S, shortest distances x (Bellman-Ford on
    // vectors; Lemma 8 excludes negative cycles).
    let nv = net.nodes.len();
    let s_node = nv;
    let mut res: Vec<(usize, usize, Vector)> = Vec::new();
    for (e, ge) in net.edges.iter().enumerate() {
        res.push((ge.from, ge.to, ge.cost2.clone()));
        if flow.flow[e] > 0 {
            res.push((ge.to, ge.from, vecs::neg(&ge.cost2)?));
        }
    }
    for v in 0..nv {
        if !net.edges.iter().any(|e| e.to == v) {
            res.push((s_node, v, vec![0; n]));
        }
    }
    let mut x: Vec<Option<Vector>> = vec![None; nv + 1];
    x[s_node] = Some(vec![0; n]);
    let mut changed = true;
    let mut rounds = 0;
    while changed {
        changed = false;
        rounds += 1;
        if rounds > nv + 2 {
            return Err(FlowError::Internal("negative cycle in the residual network (contradicts Lemma 8)".into()));
        }
        for (i, j, c) in &res {
            let Some(xi) = x[*i].clone() else { continue };
            let cand = vecs::add(&xi, c)?;
            let better = match &x[*j] {
                None => true,
                Some(xj) => lex.cmp(&cand, xj) == Ordering::Less,
            };
            if better {
                x[*j] = Some(cand);
                changed = true;
            }
        }
    }
    let x: Vec<Vector> =
        x.into_iter().take(nv).collect::<Option<Vec<_>>>().ok_or_else(|| FlowError::Internal("a node is unreachable from S".into()))?;
    // (27): abs(x_j - (x_i + c_ij)) < b for every edge of G2.
    for ge in &net.edges {
        cond.abs_lt_b(&vecs::sub(&x[ge.to], &vecs::add(&x[ge.from], &ge.cost2)?)?);
    }
    // (28) y = -x; (29)-(31) checked exactly on the vectors.
    let y: Vec<Vector> = x.iter().map(|v| vecs::neg(v)).collect::<Result<_>>()?;
    for (e, ge) in net.edges.iter().enumerate() {
        let slack = vecs::add(&vecs::sub(&y[ge.to], &y[ge.from])?, &ge.cost2)?;
        if vecs::lex_cmp(&slack, &vec![0; n]) == Ordering::Less {
            return Err(FlowError::Internal(format!("(29) violated on {} -> {}", net.names[ge.from], net.names[ge.to])));
        }
        if flow.flow[e] > 0 && slack.iter().any(|v| *v != 0) {
            return Err(FlowError::Internal(format!("(31) violated on {} -> {}", net.names[ge.from], net.names[ge.to])));
        }
    }
    let mut p3 = vec![0; n];
    let mut p2 = vec![0; n];
    for (yv, h) in y.iter().zip(&net.supply) {
        p3 = vecs::add(&p3, &vecs::scale(yv, *h)?)?;
    }
    if p3 != flow.objective {
        return Err(FlowError::Internal(format!("Problem 3 objective {} differs from Problem 4's {}", vecs::fmt(&p3), vecs::fmt(&flow.objective))));
    }
    cond.abs_lt_b(&flow.objective); // "(1, 0) < b must hold" (Sec. 4.5 steps 2 and 3)
                                    // (18) q = y + z; (20).
    let q: Vec<Vector> = (0..nv).map(|v| vecs::add(&y[v], &net.z[v])).collect::<Result<_>>()?;
    for (qv, h) in q.iter().zip(&net.supply) {
        p2 = vecs::add(&p2, &vecs::scale(qv, *h)?)?;
    }
    // (14), (15).
    let mut shifts: Vec<Vector> = (0..seq.nests.len()).map(|i| q[i].clone()).collect();
    let mut m: Vec<Vector> = vec![vec![0; n]; seq.writes.len()];
    for (v, node) in net.nodes.iter().enumerate() {
        if let Node::Sink(w) = node {
            m[*w] = vecs::sub(&q[v], &q[seq.writes[*w].nest])?;
        }
    }
    // Normalise the common translation: componentwise minimum 0.
    let mut lo = shifts[0].clone();
    for p in &shifts {
        for k in 0..n {
            lo[k] = lo[k].min(p[k]);
        }
    }
    for p in &mut shifts {
        *p = vecs::sub(p, &lo)?;
    }
    let mut p1 = vec![0; n];
    for mk in &m {
        p1 = vecs::add(&p1, mk)?;
    }
    // Appendix B: (11) = -(16).
    if p1 != vecs::neg(&p2)? {
        return Err(FlowError::Internal(format!("sum M = {} but -(16) = {}", vecs::fmt(&p1), vecs::fmt(&vecs::neg(&p2)?))));
    }
    // Problem 0's constraints (6), (7) on every original edge, as vectors.
    let zero = vec![0; n];
    for e in &seq.edges {
        let rel = vecs::add(&vecs::sub(&shifts[e.to], &shifts[e.from])?, &e.distance)?;
        if e.from != e.to {
            if vecs::lex_cmp(&rel, &zero) == Ordering::Less {
                return Err(FlowError::Internal(format!("(6) violated on {} -> {}", seq.nests[e.from].name, seq.nests[e.to].name)));
            }
            cond.abs_lt_b_plus(&rel);
        }
        if let (Some(w), Some(o)) = (e.write, &e.extension) {
            let need = vecs::add(&rel, o)?;
            let slack = vecs::sub(&m[w], &need)?;
            if vecs::lex_cmp(&slack, &zero) == Ordering::Less {
                return Err(FlowError::Internal(format!("(7) violated for {}", seq.writes[w].id)));
            }
            cond.abs_lt_b_plus(&slack);
        }
    }
    let shifting_needed = seq.edges.iter().any(|e| e.from != e.to && vecs::lex_cmp(&e.distance, &zero) == Ordering::Less);
    let mut all = a3.clone();
    all.and(&cond);
    Ok(FlowResult {
        g0,
        assumption3: a3,
        solution_condition: cond,
        condition: all,
        comparison_condition: lex.condition.clone(),
        comparisons: lex.comparisons,
        problem4_objective: flow.objective.clone(),
        problem3_objective: p3,
        problem2_objective: p2,
        problem1_objective: p1,
        flow,
        y,
        q,
        shifts,
        m,
        shifting_needed,
        network: net,
    })
}
