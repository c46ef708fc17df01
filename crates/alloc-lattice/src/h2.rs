//! Heuristic 2, basis selection in lattice space (Darte et al. 2015, Sec. 4.2), for constant reuse
//! vectors.
//!
//! * **Parameters projected out** (Sec. 4.2.3): the set `K` of conflicting differences
//!   (Darte et al. 2015, Sec. 3.2, [`polyalloc_formulation::ConflictSet::differences`]), restricted to
//!   the parameter context, is read with its parameters as ordinary dimensions and those
//!   are eliminated by Fourier–Motzkin ([`BasicSet::fm_project_out`], rational shadow,
//!   integer-tightened; it contains the exact projection, so it is a safe
//!   over-approximation: a reuse vector outside it is outside `K` for every parameter
//!   value). Local variables are eliminated the same way.
//! * **Star-shaped extension** (Sec. 4.2.4): each piece `{x | A x <= b}` becomes
//!   `{x | (Ax)_i <= b_i (b_i > 0), (Ax)_i <= 0 (b_i = 0), (Ax)_i <= -1 (b_i < 0),
//!   (Ax)_i / b_i <= (Ax)_j / b_j (b_j < 0 < b_i)}` (Fourier–Motzkin elimination of
//!   `lambda` in `A x <= lambda b`, `0 < lambda <= 1`, the strict inequality tightened
//!   for integer points as the paper does); `0` is always in `K*` (the search below
//!   excludes `l = 0`). An equality is read as two inequalities.
//! * **Extrusion** `K_i = K* + Vect(a_1, ..., a_{i-1})`: with the basis kept unimodular
//!   (`A`, columns `a_j`), the coordinates `y = A^{-1} x` of `K*` are computed and
//!   `y_1..y_{i-1}` are projected out by Fourier–Motzkin (rationally, as the paper's
//!   `rat:` extrusion map of Sec. 5.1). The search for `l_i = sum_{j >= i} mu_j a_j`
//!   then works directly in these coordinates (Sec. 4.2.2: `lambda_j = 0` for `j < i`).
//! * **Shortest integer vector outside `K_i`** (choice documented here): one ILP with
//!   **disjunction variables**, not an explicit complement. For every piece `P` of
//!   `K_i` a binary `z_r` per constraint row `r` (two per equality) with
//!   `r(mu) <= -1 + M_r (1 - z_r)` and `sum_r z_r >= 1` (the point violates some row of
//!   every piece); `M_r` comes from the box `|l_q| <= vector_bound`. `l != 0` by one ILP
//!   per leading coordinate `t` (`mu_t >= 1`, `mu_{t'} = 0` for `t' < t`; `K_i` is
//!   0-symmetric, so the sign is free). Objective, lexicographically: `||l||_inf`, then
//!   `||l||_1`, then the AUOV tie-break `sum_{q < q'} |l_q - l_q'|` (Sec. 4.2.1, Sec. 5.2),
//!   then the `mu` coordinates (determinism).
//! * **Scaling** `rho_i = gcd(mu)`, `a_i = l_i / rho_i`, and `(mu / rho_i)` completed into a
//!   unimodular matrix updates the remaining columns (Sec. 4.2.2).
//! * **A posteriori star check** (Sec. 4.2.4, "check, a posteriori"): no multiple
//!   `k l_i`, `k >= 2`, may lie in a piece of `K_i`; this is exact arithmetic on the
//!   ray. If it fails, Heuristic 2 stops there (reported in [`H2Result::stop`]).
//!
//! Heuristic 2 stops when no constant reuse vector is found in the box (in particular
//! when `K_i` is the whole space, as for the reverse-L after one vector, Sec. 5.1) or
//! when `n` vectors are found.

#![allow(clippy::needless_range_loop)] // index loops read as the matrix formulas

use polyalloc_alloc::{AllocError, Problem};
use polyalloc_formulation::int::gcd_slice;
use polyalloc_formulation::int::lin::{complete_unimodular, inverse_unimodular, IMatrix};
use polyalloc_formulation::{BasicSet, ConflictSet, Space, Tuple};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, SolveError, SolveOptions, Solver, VarId};

/// Norms minimised when searching a reuse vector.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReuseNorm {
    /// `||l||_inf` only.
    Infinity,
    /// `||l||_1` only.
    Manhattan,
    /// `||l||_inf`, then `||l||_1` (Sec. 5.2, needed for the blur filter).
    InfinityThenManhattan,
}

/// Options of Heuristic 2.
#[derive(Clone, Debug)]
pub struct H2Options {
    /// Bound on every component of a reuse vector.
    pub vector_bound: i64,
    /// The norm.
    pub norm: ReuseNorm,
    /// Break ties by the AUOV norm `sum |l_q - l_q'|` (Sec. 4.2.1).
    pub auov_tie_break: bool,
    /// Options of every ILP solve.
    pub solve: SolveOptions,
}

impl Default for H2Options {
    fn default() -> Self {
        H2Options { vector_bound: 8, norm: ReuseNorm::InfinityThenManhattan, auov_tie_break: true, solve: SolveOptions::default() }
    }
}

/// The outcome of Heuristic 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct H2Result {
    /// The unimodular basis `A` (`n x n`, its columns are `a_1, ..., a_n`); the first
    /// `rho.len()` columns are the directions of the reuse vectors found.
    pub basis: IMatrix,
    /// `A^{-1}` (its rows are mapping vectors).
    pub inverse: IMatrix,
    /// The scaling factors `rho_i` of the vectors found.
    pub rho: Vec<i64>,
    /// The reuse vectors `l_i = rho_i a_i`.
    pub reuse_vectors: Vec<Vec<i64>>,
    /// Why the construction stopped before `n` vectors (`None` when complete).
    pub stop: Option<String>,
}

fn la(method: &str) -> impl Fn(polyalloc_formulation::int::lin::LinAlgError) -> AllocError + '_ {
    move |e| AllocError::method(method, e.to_string())
}

/// The conflicting differences of `problem` with the parameters projected out (Sec.
/// 4.2.3), as parameter-free pieces without locals over an anonymous tuple.
pub fn parameter_free_differences(problem: &Problem, solver: &dyn Solver, method: &str) -> Result<Vec<BasicSet>, AllocError> {
    let fe = AllocError::formulation(method);
    let rel = match &problem.context {
        Some(ctx) => problem.conflicts.relation.intersect_params(ctx).map_err(&fe)?,
        None => problem.conflicts.relation.clone(),
    };
    let cs = ConflictSet { array: problem.conflicts.array.clone(), relation: rel, form: problem.conflicts.form };
    let diffs = cs.differences().map_err(&fe)?;
    let mut out = Vec::new();
    for piece in diffs.pieces() {
        if piece.is_marked_empty() || piece.is_empty(solver).map_err(&fe)? {
            continue;
        }
        let sp = piece.space();
        let np = sp.n_param();
        let mut names: Vec<String> = sp.params.iter().map(|p| format!("param_{p}")).collect();
        names.extend(sp.output.dims.iter().cloned());
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let mut b = BasicSet::universe(Space::set(&[], Tuple::anonymous(&refs)));
        for _ in 0..piece.n_local() {
            b.add_local();
        }
        for r in piece.equalities() {
            b.add_eq_row(r.clone()).map_err(&fe)?;
        }
        for r in piece.inequalities() {
            b.add_ineq_row(r.clone()).map_err(&fe)?;
        }
        let p = b.fm_project_out(0, np).map_err(&fe)?;
        if !(p.is_marked_empty() || p.is_rationally_empty().map_err(&fe)?) {
            out.push(p);
        }
    }
    Ok(out)
}

/// All constraints of a local-free piece as inequality rows `r . (1, x) >= 0`.
fn as_inequalities(piece: &BasicSet) -> Vec<Vec<i64>> {
    let mut rows: Vec<Vec<i64>> = piece.inequalities().to_vec();
    for e in piece.equalities() {
        rows.push(e.clone());
        rows.push(e.iter().map(|x| -x).collect());
    }
    rows
}

/// The integer star-shaped extension of one parameter-free piece without locals
/// (Sec. 4.2.4), without the point 0 (which the callers handle). `None` when empty.
pub fn star_shape(piece: &BasicSet) -> Result<Option<BasicSet>, polyalloc_formulation::Error> {
    let ovf = || polyalloc_formulation::Error::Overflow("star-shaped extension".into());
    // Row r: r0 + r'x >= 0, i.e. (A x)_i <= b_i with A_i = -r', b_i = r0.
    let rows = as_inequalities(piece);
    let mut out = BasicSet::universe(piece.space().clone());
    for r in &rows {
        let b = r[0];
        if b >= 0 {
            out.add_ineq_row(r.clone())?;
        } else {
            // (A x)_i <= -1  <=>  r'x - 1 >= 0.
            let mut row = r.clone();
            row[0] = -1;
            out.add_ineq_row(row)?;
        }
    }
    for ri in rows.iter().filter(|r| r[0] > 0) {
        for rj in rows.iter().filter(|r| r[0] < 0) {
            // (Ax)_i / b_i <= (Ax)_j / b_j  <=>  (b_i r_j' - b_j r_i') . x >= 0.
            let (bi, bj) = (ri[0], rj[0]);
            let mut row = vec![0i64; ri.len()];
            for c in 1..ri.len() {
                let v = bi.checked_mul(rj[c]).and_then(|x| x.checked_sub(bj.checked_mul(ri[c])?)).ok_or_else(ovf)?;
                row[c] = v;
            }
            out.add_ineq_row(row)?;
        }
    }
    out.simplify()?;
    if out.is_marked_empty() || out.is_rationally_empty()? {
        return Ok(None);
    }
    out.remove_redundant()?;
    Ok(Some(out))
}

/// The star-shaped pieces of the parameter-free `K` (Heuristic 3, first two steps).
pub fn star_shaped_differences(problem: &Problem, solver: &dyn Solver, method: &str) -> Result<Vec<BasicSet>, AllocError> {
    let fe = AllocError::formulation(method);
    let mut out = Vec::new();
    for p in parameter_free_differences(problem, solver, method)? {
        if let Some(s) = star_shape(&p).map_err(&fe)? {
            out.push(s);
        }
    }
    Ok(out)
}

/// `K_{k+1}` in the coordinates `y_{k+1..n}` of the basis `a` (columns): each piece in
/// the coordinates `y = A^{-1} x`, with `y_1..y_k` projected out rationally.
pub fn extrude(star: &[BasicSet], a: &[Vec<i64>], k: usize) -> Result<Vec<BasicSet>, polyalloc_formulation::Error> {
    let ovf = || polyalloc_formulation::Error::Overflow("extrusion".into());
    let n = a.len();
    let names: Vec<String> = (0..n).map(|j| format!("y{j}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let space = Space::set(&[], Tuple::anonymous(&refs));
    let mut out = Vec::new();
    for piece in star {
        let mut b = BasicSet::universe(space.clone());
        let subst = |r: &Vec<i64>| -> polyalloc_formulation::Result<Vec<i64>> {
            let mut row = vec![r[0]; 1];
            for j in 0..n {
                let mut s: i64 = 0;
                for q in 0..n {
                    s = s.checked_add(r[1 + q].checked_mul(a[q][j]).ok_or_else(ovf)?).ok_or_else(ovf)?;
                }
                row.push(s);
            }
            Ok(row)
        };
        for r in piece.equalities() {
            b.add_eq_row(subst(r)?)?;
        }
        for r in piece.inequalities() {
            b.add_ineq_row(subst(r)?)?;
        }
        let p = if k > 0 { b.fm_project_out(0, k)? } else { b };
        if !(p.is_marked_empty() || p.is_rationally_empty()?) {
            out.push(p);
        }
    }
    Ok(out)
}

/// A reuse vector `l` and its coordinates `mu` in the remaining basis columns.
pub type ReuseVector = (Vec<i64>, Vec<i64>);

/// The shortest integer `l = sum_t mu_t a_{k+t}` outside every piece of `extruded`
/// (over the coordinates `mu`), or `None`. Returns `(l, mu)`.
#[allow(clippy::too_many_arguments)]
pub fn shortest_outside(
    extruded: &[BasicSet],
    a: &[Vec<i64>],
    a_inv: &[Vec<i64>],
    k: usize,
    solver: &dyn Solver,
    opts: &H2Options,
    method: &str,
    step: usize,
) -> Result<Option<ReuseVector>, AllocError> {
    let n = a.len();
    let m = n - k;
    if m == 0 {
        return Ok(None);
    }
    let piece_rows: Vec<Vec<Vec<i64>>> = extruded.iter().map(as_inequalities).collect();
    if piece_rows.iter().any(Vec::is_empty) {
        // A piece is the whole space: nothing is outside.
        return Ok(None);
    }
    let lb = opts.vector_bound;
    let mu_bound: Vec<i64> =
        (0..m).map(|t| a_inv[k + t].iter().map(|x| x.saturating_abs()).fold(0i64, |s, x| s.saturating_add(x)).saturating_mul(lb)).collect();
    let mut best: Option<(Vec<i128>, Vec<i64>, Vec<i64>)> = None;
    for lead in 0..m {
        let mut md = Model::new(format!("lattice-h2-step{step}-lead{lead}"));
        let mu: Vec<VarId> = (0..m)
            .map(|t| {
                let (lo, hi) = if t < lead {
                    (0, 0)
                } else if t == lead {
                    (1, mu_bound[t])
                } else {
                    (-mu_bound[t], mu_bound[t])
                };
                md.add_integer(format!("mu_{t}"), Some(lo), Some(hi))
            })
            .collect();
        let l: Vec<VarId> = (0..n).map(|q| md.add_integer(format!("l_{q}"), Some(-lb), Some(lb))).collect();
        for q in 0..n {
            let mut e = LinExpr::from(l[q]);
            for t in 0..m {
                if a[q][k + t] != 0 {
                    e -= LinExpr::term(mu[t], a[q][k + t]);
                }
            }
            md.add_constraint(format!("l_{q}_def"), e, Cmp::Eq, 0);
        }
        for (p, rows) in piece_rows.iter().enumerate() {
            let mut any = LinExpr::new();
            for (ri, r) in rows.iter().enumerate() {
                let z = md.add_binary(format!("out_{p}_{ri}"));
                let big = r[1..]
                    .iter()
                    .zip(&mu_bound)
                    .fold(r[0].saturating_abs(), |s, (c, b)| s.saturating_add(c.saturating_abs().saturating_mul(*b)))
                    .saturating_add(1);
                // r0 + r' mu <= -1 + big (1 - z)  <=>  r' mu + big z <= big - 1 - r0
                let mut e = LinExpr::term(z, big);
                for (t, &c) in r[1..].iter().enumerate() {
                    if c != 0 {
                        e += LinExpr::term(mu[t], c);
                    }
                }
                md.add_constraint(format!("out_{p}_{ri}"), e, Cmp::Le, big.saturating_sub(1).saturating_sub(r[0]));
                any = any + z;
            }
            md.add_constraint(format!("out_{p}"), any, Cmp::Ge, 1);
        }
        let abs = |md: &mut Model, name: String, e: LinExpr, bound: i64| -> VarId {
            let a = md.add_integer(name.clone(), Some(0), Some(bound));
            md.add_constraint(format!("{name}_pos"), LinExpr::from(a) - e.clone(), Cmp::Ge, 0);
            md.add_constraint(format!("{name}_neg"), LinExpr::from(a) + e, Cmp::Ge, 0);
            a
        };
        let mut objectives = Vec::new();
        if matches!(opts.norm, ReuseNorm::Infinity | ReuseNorm::InfinityThenManhattan) {
            let t = md.add_integer("norm_inf", Some(0), Some(lb));
            for (q, &lq) in l.iter().enumerate() {
                md.add_constraint(format!("norm_inf_{q}_pos"), LinExpr::from(t) - lq, Cmp::Ge, 0);
                md.add_constraint(format!("norm_inf_{q}_neg"), LinExpr::from(t) + lq, Cmp::Ge, 0);
            }
            objectives.push(LinExpr::from(t));
        }
        if matches!(opts.norm, ReuseNorm::Manhattan | ReuseNorm::InfinityThenManhattan) {
            let mut s = LinExpr::new();
            for (q, &lq) in l.iter().enumerate() {
                s = s + abs(&mut md, format!("abs_l_{q}"), LinExpr::from(lq), lb);
            }
            objectives.push(s);
        }
        if opts.auov_tie_break && n > 1 {
            let mut s = LinExpr::new();
            for q in 0..n {
                for q2 in q + 1..n {
                    s = s + abs(&mut md, format!("auov_{q}_{q2}"), LinExpr::from(l[q]) - l[q2], 2 * lb);
                }
            }
            objectives.push(s);
        }
        objectives.extend(mu.iter().map(|&v| LinExpr::from(v)));
        match solver.lex_minimize(&md, &objectives, &opts.solve) {
            Ok(lex) => {
                let lv: Vec<i64> = l.iter().map(|&v| lex.solution.int_value(v)).collect();
                let mv: Vec<i64> = mu.iter().map(|&v| lex.solution.int_value(v)).collect();
                // Compare on the norms only (the mu stages depend on the lead).
                let nnorm = objectives.len() - m;
                let key: Vec<i128> = lex.optima[..nnorm].to_vec();
                if best.as_ref().is_none_or(|(b, _, _)| key < *b) {
                    best = Some((key, lv, mv));
                }
            }
            Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => {}
            Err(e) => return Err(AllocError::solver(method)(e)),
        }
    }
    Ok(best.map(|(_, l, mu)| (l, mu)))
}

/// Whether some multiple `kk * mu`, `kk >= 2`, lies in a piece (exact, on the ray).
pub fn multiple_inside(extruded: &[BasicSet], mu: &[i64]) -> bool {
    for piece in extruded {
        let (mut lo, mut hi): (i128, Option<i128>) = (2, None);
        let mut feasible = true;
        let dot = |r: &Vec<i64>| -> i128 { r[1..].iter().zip(mu).map(|(&c, &x)| c as i128 * x as i128).sum() };
        for r in piece.inequalities() {
            let (r0, s) = (r[0] as i128, dot(r));
            // r0 + kk s >= 0
            if s > 0 {
                lo = lo.max((-r0).div_euclid(s) + i128::from((-r0).rem_euclid(s) != 0));
            } else if s < 0 {
                let h = r0.div_euclid(-s);
                hi = Some(hi.map_or(h, |x: i128| x.min(h)));
            } else if r0 < 0 {
                feasible = false;
            }
        }
        for r in piece.equalities() {
            let (r0, s) = (r[0] as i128, dot(r));
            if s == 0 {
                feasible &= r0 == 0;
            } else if (-r0) % s != 0 {
                feasible = false;
            } else {
                let v = -r0 / s;
                lo = lo.max(v);
                hi = Some(hi.map_or(v, |x: i128| x.min(v)));
            }
        }
        if feasible && hi.is_none_or(|h| lo <= h) {
            return true;
        }
    }
    false
}

/// Heuristic 2 on the star-shaped, parameter-free pieces of `K` (array of `n` dims).
pub fn heuristic2(star: &[BasicSet], n: usize, solver: &dyn Solver, opts: &H2Options, method: &str) -> Result<H2Result, AllocError> {
    let fe = AllocError::formulation(method);
    let mut a: IMatrix = (0..n).map(|i| (0..n).map(|j| i64::from(i == j)).collect()).collect();
    let mut a_inv = a.clone();
    let mut rho = Vec::new();
    let mut reuse = Vec::new();
    let mut stop = None;
    for k in 0..n {
        let ext = extrude(star, &a, k).map_err(&fe)?;
        let Some((l, mu)) = shortest_outside(&ext, &a, &a_inv, k, solver, opts, method, k + 1)? else {
            stop = Some(format!(
                "no constant reuse vector with components within {} outside the extrusion K_{} ({} found)",
                opts.vector_bound,
                k + 1,
                k
            ));
            break;
        };
        if multiple_inside(&ext, &mu) {
            stop = Some(format!("the shortest vector {l:?} outside K_{} has a multiple inside it (K_{} is not star-shaped)", k + 1, k + 1));
            break;
        }
        let g = gcd_slice(&mu);
        let prim: Vec<i64> = mu.iter().map(|x| x / g.max(1)).collect();
        let v = complete_unimodular(std::slice::from_ref(&prim), n - k).map_err(la(method))?;
        // New columns k.. of A: A[:, k + t] = sum_s V[t][s] A[:, k + s].
        let old = a.clone();
        for t in 0..n - k {
            for q in 0..n {
                let mut s: i64 = 0;
                for (u, vu) in v[t].iter().enumerate() {
                    s = s
                        .checked_add(vu.checked_mul(old[q][k + u]).ok_or_else(|| AllocError::method(method, "overflow in the basis update"))?)
                        .ok_or_else(|| AllocError::method(method, "overflow in the basis update"))?;
                }
                a[q][k + t] = s;
            }
        }
        a_inv = inverse_unimodular(&a).map_err(la(method))?;
        rho.push(g);
        reuse.push(l);
    }
    Ok(H2Result { basis: a, inverse: a_inv, rho, reuse_vectors: reuse, stop })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use polyalloc_backend_microlp::MicrolpSolver;
    use polyalloc_formulation::{ConflictForm, Set};

    /// The reverse-L of Darte et al. 2015, Fig. 1 (width 2, every pair of live-out cells conflicts).
    pub(crate) fn reverse_l() -> Problem {
        let cs = ConflictSet::parse(
            "[N] -> { A[x, y] -> A[x2, y2] : 0 <= x < N and 0 <= y < N and 0 <= x2 < N and 0 <= y2 < N \
             and (x >= N - 2 or y >= N - 2) and (x2 >= N - 2 or y2 >= N - 2) and (x2 > x or (x2 = x and y2 > y)) }",
            ConflictForm::Half,
        )
        .unwrap();
        Problem {
            example: "reverse-l".into(),
            conflicts: cs,
            context: Some(BasicSet::parse("[N] -> { : N >= 3 }").unwrap()),
            space: None,
            instances: vec![vec![3], vec![7]],
        }
    }

    fn inside(pieces: &[BasicSet], p: &[i64]) -> bool {
        pieces.iter().any(|b| Set::from_basic(b.clone()).contains(&[], p).unwrap())
    }

    #[test]
    fn star_shaping_the_paper_example() {
        // 001 Sec. 4.2.4: {2 <= |y| <= 3} (upper half here) becomes {1 <= y <= 3}.
        let k = BasicSet::parse("{ [x, y] : 2 <= y <= 3 }").unwrap();
        let s = star_shape(&k).unwrap().unwrap();
        for (p, want) in [([5, 1], true), ([0, 1], true), ([-7, 3], true), ([0, 0], false), ([0, 4], false), ([3, -1], false)] {
            assert_eq!(inside(std::slice::from_ref(&s), &p), want, "{p:?}");
        }
        // A piece containing 0 is already star-shaped: unchanged points.
        let k = BasicSet::parse("{ [x, y] : -2 <= x <= 3 and -1 <= y <= 1 }").unwrap();
        let s = star_shape(&k).unwrap().unwrap();
        for x in -4..=4 {
            for y in -3..=3 {
                assert_eq!(inside(std::slice::from_ref(&s), &[x, y]), (-2..=3).contains(&x) && (-1..=1).contains(&y));
            }
        }
    }

    #[test]
    fn projecting_the_parameter_of_the_reverse_l() {
        // 001 Sec. 4.2.3: the complement of K with N projected out is
        // {(x, y) | (x >= 2 and y >= 2) or (x <= -2 and y <= -2)}.
        let solver = MicrolpSolver;
        let k = star_shaped_differences(&reverse_l(), &solver, "test").unwrap();
        for x in -6i64..=6 {
            for y in -6i64..=6 {
                if (x, y) == (0, 0) {
                    continue; // 0 is in K* by definition; the pieces exclude it.
                }
                let outside = (x >= 2 && y >= 2) || (x <= -2 && y <= -2);
                assert_eq!(!inside(&k, &[x, y]), outside, "({x}, {y})");
            }
        }
    }

    #[test]
    fn heuristic2_on_the_reverse_l() {
        // 001 Fig. 3 / Sec. 5.1: l_1 = (2, 2) = 2 (1, 1), then K_2 is the whole space.
        let solver = MicrolpSolver;
        let k = star_shaped_differences(&reverse_l(), &solver, "test").unwrap();
        let r = heuristic2(&k, 2, &solver, &H2Options::default(), "test").unwrap();
        assert_eq!(r.reuse_vectors, vec![vec![2, 2]]);
        assert_eq!(r.rho, vec![2]);
        assert_eq!((r.basis[0][0], r.basis[1][0]), (1, 1));
        assert!(r.stop.is_some());
    }

    #[test]
    fn multiples_on_the_ray() {
        // {2 <= y <= 3} is not star-shaped: (0, 1) is outside, 2 (0, 1) inside.
        let k = BasicSet::parse("{ [x, y] : 2 <= y <= 3 }").unwrap();
        assert!(multiple_inside(std::slice::from_ref(&k), &[0, 1]));
        assert!(!multiple_inside(std::slice::from_ref(&k), &[0, 4]));
        assert!(!multiple_inside(std::slice::from_ref(&k), &[1, 0]));
        // With an equality, {y = 2x, 2 <= x <= 4}: 2 (1, 2) is inside, no multiple of (1, 3) is.
        let k = BasicSet::parse("{ [x, y] : y = 2x and 2 <= x <= 4 }").unwrap();
        assert!(multiple_inside(std::slice::from_ref(&k), &[1, 2]));
        assert!(!multiple_inside(std::slice::from_ref(&k), &[1, 3]));
    }
}
