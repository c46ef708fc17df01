//! The universal occupancy vector of Strout, Carter, Ferrante and Simon (1998), as Thies et al. 2007
//! Sec. 6 summarises it: an occupancy vector valid for **every** legal execution order,
//! not only the affine ones. Strout et al. consider a stencil: one statement in a
//! perfect loop nest with uniform dependences `x - d_k`. The value produced at `p` is
//! read at `p + d_k` and overwritten at `p + v`; in every legal order the overwrite
//! comes after the read iff `p + v` depends (transitively) on `p + d_k`, i.e. iff
//! `v - d_k` is a non-negative integer combination of the dependence distances (zero
//! allowed: the reader itself overwrites, reads precede writes). As in Strout et al.
//! the condition is taken on the interior of the iteration space (boundaries ignored).

use crate::model::OvFormulation;
use crate::solve::{candidates, evenness, Found};
use crate::OvError;
use polyalloc_ilp::{Cmp, LinExpr, Model, SolveError, SolveOptions, Solver};

/// The dependence distances of `array` when it is a uniform stencil (one writer, every
/// dependence on it a self-dependence `h(x) = x - d`), deduplicated.
pub fn stencil_distances(form: &OvFormulation, array: &str) -> Result<Vec<Vec<i64>>, OvError> {
    let np = form.params.len();
    let w = form.writers.get(array).ok_or_else(|| OvError::Input(format!("no statement writes `{array}`")))?;
    let [t] = w.as_slice() else {
        return Err(OvError::Unsupported(format!("UOV: `{array}` is written by several statements (Strout et al. consider one)")));
    };
    let d = form.statements[*t].dims.len();
    let mut out: Vec<Vec<i64>> = Vec::new();
    for dep in form.dependences.iter().filter(|x| x.producer == *t) {
        if dep.consumer != *t {
            return Err(OvError::Unsupported(format!("UOV: `{array}` is read by another statement (not a stencil)")));
        }
        let mut dist = Vec::new();
        for (k, row) in dep.h.iter().enumerate() {
            let uniform = row[1..].iter().enumerate().all(|(c, &x)| x == i64::from(c == np + k));
            if !uniform {
                return Err(OvError::Unsupported(format!("UOV: dependence {} is not uniform", dep.name)));
            }
            dist.push(-row[0]);
        }
        if dist.len() != d {
            return Err(OvError::Input("UOV: dependence arity".into()));
        }
        if !out.contains(&dist) {
            out.push(dist);
        }
    }
    Ok(out)
}

/// True when `target` is a non-negative integer combination of `gens` (an ILP).
fn in_semigroup(solver: &dyn Solver, gens: &[Vec<i64>], target: &[i64], opts: &SolveOptions) -> Result<bool, OvError> {
    if target.iter().all(|&x| x == 0) {
        return Ok(true);
    }
    let mut m = Model::new("uov_semigroup");
    let mu: Vec<_> = (0..gens.len()).map(|k| m.add_integer(format!("mu{k}"), Some(0), Some(1000))).collect();
    for (c, &t) in target.iter().enumerate() {
        let mut e = LinExpr::new();
        for (k, g) in gens.iter().enumerate() {
            if g[c] != 0 {
                e.add_term(mu[k], g[c]);
            }
        }
        if e.is_constant() {
            if t != 0 {
                return Ok(false);
            }
            continue;
        }
        m.try_add_constraint(format!("coord{c}"), e, Cmp::Eq, t)?;
    }
    match solver.solve(&m, opts) {
        Ok(_) => Ok(true),
        Err(SolveError::Infeasible) => Ok(false),
        Err(e) => Err(OvError::Solver(e)),
    }
}

/// Is `v` a universal occupancy vector of the stencil with distances `dists`?
pub fn is_uov(solver: &dyn Solver, dists: &[Vec<i64>], v: &[i64], opts: &SolveOptions) -> Result<bool, OvError> {
    for d in dists {
        let t: Vec<i64> = v.iter().zip(d).map(|(a, b)| a - b).collect();
        if !in_semigroup(solver, dists, &t, opts)? {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The shortest UOV (Manhattan length, then evenness, as for the other problems).
pub fn shortest_uov(solver: &dyn Solver, dists: &[Vec<i64>], dim: usize, max_length: i64, opts: &SolveOptions) -> Result<Found, OvError> {
    let mut n = 0;
    for len in 1..=max_length {
        for v in candidates(dim, len) {
            n += 1;
            if is_uov(solver, dists, &v, opts)? {
                return Ok(Found { manhattan: len, evenness: evenness(&v), vector: v, candidates: n });
            }
        }
    }
    Err(OvError::NotFound(format!("no universal occupancy vector of Manhattan length <= {max_length}")))
}
