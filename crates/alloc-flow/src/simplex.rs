//! Network simplex for the uncapacitated min-cost flow problem with vector costs
//! (Problem 4, formulas (23)-(25)).
//!
//! Choice of algorithm: Sec. 4.4 lets any min-cost flow algorithm solve Problem 4 and
//! prints the enhanced capacity scaling algorithm (Fig. 6) as one example. We implement
//! the primal network simplex of Ahuja, Magnanti and Orlin (ch. 11) instead: the
//! networks here have a few dozen nodes, all supplies are small (τ_i ≤ a few units), so
//! capacity scaling's advantage (few augmentations for large supplies) does not apply,
//! while network simplex gives, at termination, a spanning-tree basis whose reduced
//! costs are an explicit optimality certificate that we check exactly. Every reduced-cost
//! comparison goes through [`LexCompare`], i.e. costs are vectors compared
//! lexicographically and each comparison records the `abs(u) < b` condition (Sec. 4.4).
//!
//! Details:
//! * Initial basis: an artificial root r with one artificial arc per node (`v -> r` when
//!   `h(v) >= 0`, `r -> v` otherwise) carrying the supply. Artificial arcs cost the
//!   vector `(1, 0, .., 0)` in a cost space with one extra leading component, i.e. the
//!   big-M method with an exact, infinitely large M (lexicographic order). The initial
//!   tree is strongly feasible.
//! * Entering arc: Dantzig's rule (lexicographically most negative reduced cost).
//! * Leaving arc: the last blocking arc met when traversing the pivot cycle along its
//!   orientation from the apex (Cunningham's strongly feasible tree rule), which
//!   prevents cycling on degenerate pivots (Ahuja et al., Sec. 11.5).
//! * Tree indices (parent, depth, potentials) are recomputed after each pivot by a
//!   traversal from the root: O(|V| + |E|) per pivot, plenty for these graphs.

use crate::error::{FlowError, Result};
use crate::vecs::{self, LexCompare, Vector};
use std::cmp::Ordering;

/// An arc of the network: tail, head, cost vector (length n).
#[derive(Clone, Debug)]
pub struct Arc {
    pub from: usize,
    pub to: usize,
    pub cost: Vector,
}

/// An optimal flow.
#[derive(Clone, Debug)]
pub struct FlowSolution {
    /// `f(e)` for every arc, in input order.
    pub flow: Vec<i64>,
    /// `sum f(e) c_e` (the objective (23) as a vector over s).
    pub objective: Vector,
    /// Number of pivots (degenerate ones included).
    pub pivots: usize,
    /// The node potentials of the final basis (`pi`, with `c_ij - pi_i + pi_j >= 0`).
    pub potentials: Vec<Vector>,
}

struct Tree {
    parent: Vec<Option<(usize, usize)>>, // (parent node, arc)
    depth: Vec<usize>,
    pi: Vec<Vector>,
}

/// Solves `min sum f c` s.t. `out(v) - in(v) = supply(v)`, `f >= 0`.
pub fn min_cost_flow(num_nodes: usize, supply: &[i64], arcs: &[Arc], n: usize, lex: &mut LexCompare) -> Result<FlowSolution> {
    if supply.len() != num_nodes {
        return Err(FlowError::Internal("supply length".into()));
    }
    let total: i128 = supply.iter().map(|x| *x as i128).sum();
    if total != 0 {
        return Err(FlowError::Infeasible(format!("supplies sum to {total}, not 0 (requirement 3 of Sec. 4.4)")));
    }
    for a in arcs {
        if a.from >= num_nodes || a.to >= num_nodes || a.cost.len() != n {
            return Err(FlowError::Internal("malformed arc".into()));
        }
    }
    let root = num_nodes;
    // Extended costs: leading big-M component.
    let mut all: Vec<(usize, usize, Vector)> = arcs
        .iter()
        .map(|a| {
            let mut c = vec![0];
            c.extend_from_slice(&a.cost);
            (a.from, a.to, c)
        })
        .collect();
    let mut big = vec![0; n + 1];
    big[0] = 1;
    let mut flow: Vec<i64> = vec![0; arcs.len()];
    let mut in_tree = vec![false; arcs.len()];
    for (v, h) in supply.iter().enumerate() {
        if *h >= 0 {
            all.push((v, root, big.clone()));
        } else {
            all.push((root, v, big.clone()));
        }
        flow.push(h.checked_abs().ok_or_else(|| FlowError::Overflow("supply".into()))?);
        in_tree.push(true);
    }
    let nodes = num_nodes + 1;
    let mut pivots = 0usize;
    let pivot_limit = 10_000 + 100 * all.len() * nodes;
    loop {
        let tree = build_tree(nodes, root, &all, &in_tree)?;
        // Pricing: reduced cost c_ij - pi_i + pi_j.
        let mut entering: Option<(usize, Vector)> = None;
        for (e, (i, j, c)) in all.iter().enumerate() {
            if in_tree[e] {
                continue;
            }
            let rc = vecs::add(&vecs::sub(c, &tree.pi[*i])?, &tree.pi[*j])?;
            // The leading component is the exact big M: not symbolic, no condition.
            let neg = if rc[0] != 0 { rc[0] < 0 } else { lex.is_negative(&rc[1..]) };
            if !neg {
                continue;
            }
            let better = match &entering {
                None => true,
                Some((_, best)) => {
                    if rc[0] != best[0] {
                        rc[0] < best[0]
                    } else {
                        lex.cmp(&rc[1..], &best[1..]) == Ordering::Less
                    }
                }
            };
            if better {
                entering = Some((e, rc));
            }
        }
        let Some((ent, _)) = entering else {
            // Optimal. Artificial arcs must carry no flow.
            for (e, f) in flow.iter().enumerate().skip(arcs.len()) {
                if *f != 0 {
                    return Err(FlowError::Infeasible(format!("node {} cannot send or receive its supply", e - arcs.len())));
                }
            }
            let mut objective = vec![0; n];
            for (e, a) in arcs.iter().enumerate() {
                objective = vecs::add(&objective, &vecs::scale(&a.cost, flow[e])?)?;
            }
            let potentials = tree.pi.iter().take(num_nodes).map(|p| p[1..].to_vec()).collect();
            return Ok(FlowSolution { flow: flow[..arcs.len()].to_vec(), objective, pivots, potentials });
        };
        pivots += 1;
        if pivots > pivot_limit {
            return Err(FlowError::Internal(format!("network simplex did not terminate after {pivot_limit} pivots")));
        }
        let (k, l) = (all[ent].0, all[ent].1);
        // Paths to the apex: from k up, from l up.
        let mut up_k: Vec<(usize, usize)> = Vec::new(); // (child node, arc) from k upwards
        let mut up_l: Vec<(usize, usize)> = Vec::new();
        let (mut a, mut b) = (k, l);
        while a != b {
            if tree.depth[a] >= tree.depth[b] {
                let (p, e) = tree.parent[a].ok_or_else(|| FlowError::Internal("tree walk".into()))?;
                up_k.push((a, e));
                a = p;
            } else {
                let (p, e) = tree.parent[b].ok_or_else(|| FlowError::Internal("tree walk".into()))?;
                up_l.push((b, e));
                b = p;
            }
        }
        // Cycle orientation: apex -> .. -> k -> l -> .. -> apex.
        // Traversal order from the apex: up_k reversed (downwards to k), the entering
        // arc, then up_l (upwards from l). Each element: (arc, forward?).
        let mut cycle: Vec<(usize, bool)> = Vec::new();
        for &(child, e) in up_k.iter().rev() {
            // Traversed from parent to child: forward iff the arc points to the child.
            cycle.push((e, all[e].1 == child));
        }
        cycle.push((ent, true));
        for &(child, e) in &up_l {
            // Traversed from child to parent: forward iff the arc leaves the child.
            cycle.push((e, all[e].0 == child));
        }
        let mut delta: Option<i64> = None;
        let mut leaving: Option<usize> = None;
        for &(e, fwd) in &cycle {
            if !fwd && delta.is_none_or(|d| flow[e] <= d) {
                // `<=`: the last blocking arc along the orientation.
                delta = Some(flow[e]);
                leaving = Some(e);
            }
        }
        let (Some(delta), Some(leaving)) = (delta, leaving) else {
            return Err(FlowError::Internal("negative-cost cycle of unbounded capacity (Problem 4 unbounded)".into()));
        };
        for &(e, fwd) in &cycle {
            flow[e] = if fwd { flow[e].checked_add(delta) } else { flow[e].checked_sub(delta) }.ok_or_else(|| FlowError::Overflow("flow".into()))?;
        }
        in_tree[leaving] = false;
        in_tree[ent] = true;
    }
}

fn build_tree(nodes: usize, root: usize, all: &[(usize, usize, Vector)], in_tree: &[bool]) -> Result<Tree> {
    let mut adj: Vec<Vec<usize>> = vec![Vec::new(); nodes];
    for (e, (i, j, _)) in all.iter().enumerate() {
        if in_tree[e] {
            adj[*i].push(e);
            adj[*j].push(e);
        }
    }
    let width = all.first().map(|a| a.2.len()).unwrap_or(1);
    let mut parent = vec![None; nodes];
    let mut depth = vec![0; nodes];
    let mut pi: Vec<Option<Vector>> = vec![None; nodes];
    pi[root] = Some(vec![0; width]);
    let mut stack = vec![root];
    while let Some(u) = stack.pop() {
        let pu = pi[u].clone().ok_or_else(|| FlowError::Internal("tree potential".into()))?;
        for &e in &adj[u] {
            let (i, j, c) = &all[e];
            let v = if *i == u { *j } else { *i };
            if pi[v].is_some() {
                continue;
            }
            // Tree arcs have zero reduced cost: c_ij - pi_i + pi_j = 0.
            let pv = if *i == u { vecs::sub(&pu, c)? } else { vecs::add(&pu, c)? };
            pi[v] = Some(pv);
            parent[v] = Some((u, e));
            depth[v] = depth[u] + 1;
            stack.push(v);
        }
    }
    let pi = pi.into_iter().collect::<Option<Vec<_>>>().ok_or_else(|| FlowError::Internal("basis is not a spanning tree".into()))?;
    Ok(Tree { parent, depth, pi })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: enumerate all flows with values in 0..=cap on a tiny network.
    fn brute(num_nodes: usize, supply: &[i64], arcs: &[Arc], cap: i64) -> Option<Vector> {
        let m = arcs.len();
        let mut best: Option<Vector> = None;
        let mut f = vec![0i64; m];
        loop {
            let mut bal = vec![0i64; num_nodes];
            for (e, a) in arcs.iter().enumerate() {
                bal[a.from] += f[e];
                bal[a.to] -= f[e];
            }
            if bal == supply {
                let mut obj = vec![0; arcs[0].cost.len()];
                for (e, a) in arcs.iter().enumerate() {
                    obj = vecs::add(&obj, &vecs::scale(&a.cost, f[e]).unwrap()).unwrap();
                }
                if best.as_ref().is_none_or(|b| obj < *b) {
                    best = Some(obj);
                }
            }
            let mut k = 0;
            loop {
                if k == m {
                    return best;
                }
                f[k] += 1;
                if f[k] <= cap {
                    break;
                }
                f[k] = 0;
                k += 1;
            }
        }
    }

    #[test]
    fn matches_brute_force_on_small_networks() {
        // A deterministic family of small networks with vector costs.
        let mut seed: u64 = 12345;
        let mut rnd = |m: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % m
        };
        for _case in 0..60 {
            let nodes = 4;
            let mut arcs = Vec::new();
            for i in 0..nodes {
                for j in 0..nodes {
                    if i < j && rnd(3) != 0 {
                        arcs.push(Arc { from: i, to: j, cost: vec![rnd(3) as i64, rnd(5) as i64 - 1] });
                    }
                }
            }
            if arcs.len() > 6 {
                arcs.truncate(6);
            }
            let mut supply = vec![0i64; nodes];
            supply[0] = 1 + rnd(2) as i64;
            supply[nodes - 1] = -supply[0];
            let expect = brute(nodes, &supply, &arcs, 3);
            let mut lex = LexCompare::new(2);
            let got = min_cost_flow(nodes, &supply, &arcs, 2, &mut lex);
            match expect {
                Some(obj) => {
                    let sol = got.unwrap();
                    assert_eq!(sol.objective, obj, "arcs {arcs:?} supply {supply:?}");
                    // The flow satisfies (24) and (25).
                    let mut bal = vec![0i64; nodes];
                    for (e, a) in arcs.iter().enumerate() {
                        assert!(sol.flow[e] >= 0);
                        bal[a.from] += sol.flow[e];
                        bal[a.to] -= sol.flow[e];
                    }
                    assert_eq!(bal, supply);
                }
                None => assert!(matches!(got, Err(FlowError::Infeasible(_))), "arcs {arcs:?} supply {supply:?}"),
            }
        }
    }
}
