//! Problem 1, (11)-(13), at a concrete instance as an integer program solved through
//! the [`Solver`] trait: the cross-check of the network flow and the solver comparison
//! of `cargo xtask bench`.
//!
//! At an instance `s` is a vector of integers, so the coalesced shifts `P_i = p_i . s`
//! and memories `M_w = M_{i,k} . s` are plain integer variables:
//!
//! ```text
//! minimise sum_w M_w
//! P_j - P_i >= -d_e . s                     for every L-edge e = <L_i, L_j> of G0   (12)
//! M_w - P_j + P_i >= (d_e + o_e) . s        for every M-edge e of write w           (13)
//! P_1 = 0                                    (shifts matter up to a translation)
//! ```
//!
//! Its optimum is the true minimum of the coalesced problem at that instance, without
//! Lemma 1's lexicographic surrogate, so it must equal the flow's `sum M . s` whenever
//! the run-time condition holds. (The constraint matrix is the transpose of a network
//! matrix, so the LP relaxation is already integral; the backends solve it as an ILP.)

use crate::algorithm::G0;
use crate::error::{FlowError, Result};
use crate::input::LoopSequence;
use crate::vecs;
use polyalloc_ilp::{Cmp, LinExpr, Model, Sense, SolveOptions, Solver};
use std::time::Duration;

/// The ILP answer at one instance.
#[derive(Clone, Debug)]
pub struct IlpAnswer {
    /// The optimum `sum_w M_w`.
    pub objective: i128,
    /// `P_i` per nest.
    pub shifts: Vec<i64>,
    /// `M_w` per write reference.
    pub memory: Vec<i64>,
    pub num_vars: usize,
    pub num_constraints: usize,
    pub elapsed: Duration,
}

fn small(v: i128) -> Result<i64> {
    i64::try_from(v).map_err(|_| FlowError::Overflow("ILP coefficient".into()))
}

/// Builds the Problem 1 model at `s`.
pub fn model(seq: &LoopSequence, g0: &G0, s: &[i128], name: &str) -> Result<Model> {
    let mut m = Model::new(name);
    let p: Vec<_> = seq
        .nests
        .iter()
        .enumerate()
        .map(|(i, x)| {
            let fixed = if i == 0 { Some(0) } else { None };
            m.add_integer(format!("P_{}", x.name), fixed, fixed)
        })
        .collect();
    let mw: Vec<_> = seq.writes.iter().map(|w| m.add_integer(format!("M_{}", w.id.replace(',', "_")), Some(0), None)).collect();
    for e in &g0.l_edges {
        let d = small(vecs::dot(&e.distance, s)?)?;
        let expr = LinExpr::from(p[e.to]) - LinExpr::from(p[e.from]);
        m.add_constraint(
            format!("L_{}_{}", seq.nests[e.from].name, seq.nests[e.to].name),
            expr,
            Cmp::Ge,
            d.checked_neg().ok_or_else(|| FlowError::Overflow("ILP".into()))?,
        );
    }
    for e in &g0.m_edges {
        let d = small(vecs::dot(&e.extended, s)?)?;
        let expr = LinExpr::from(mw[e.write]) - LinExpr::from(p[e.to]) + LinExpr::from(p[e.from]);
        m.add_constraint(
            format!("M_{}_{}_{}", seq.writes[e.write].id.replace(',', "_"), seq.nests[e.from].name, seq.nests[e.to].name),
            expr,
            Cmp::Ge,
            d,
        );
    }
    m.set_objective(Sense::Minimize, mw.iter().map(|v| LinExpr::from(*v)).sum());
    Ok(m)
}

/// Solves Problem 1 at `s` with `solver`.
pub fn solve(seq: &LoopSequence, g0: &G0, s: &[i128], solver: &dyn Solver, time_limit: Option<Duration>) -> Result<IlpAnswer> {
    let name = "flow-problem1";
    let model = model(seq, g0, s, name)?;
    let mut opts = SolveOptions::default();
    if let Some(t) = time_limit {
        opts = opts.with_time_limit(t);
    }
    let sol = solver.solve(&model, &opts).map_err(|e| FlowError::Solver { model: name.into(), source: Box::new(e) })?;
    let objective = sol.objective_exact().ok_or_else(|| FlowError::Internal("ILP objective not exact".into()))?;
    let np = seq.nests.len();
    let ids: Vec<_> = model.var_ids().collect();
    Ok(IlpAnswer {
        objective,
        shifts: ids[..np].iter().map(|v| sol.int_value(*v)).collect(),
        memory: ids[np..].iter().map(|v| sol.int_value(*v)).collect(),
        num_vars: model.num_vars(),
        num_constraints: model.num_constraints(),
        elapsed: sol.elapsed(),
    })
}
