//! Heuristic 1, basis selection in mapping space (Darte et al. 2015, Sec. 4.1).
//!
//! At step `i` the mapping vector is searched as `c = sum_j lambda_j d_j` over the rows
//! `d_j` that complete the vectors chosen so far into a unimodular matrix (Sec. 4.1.2:
//! `lambda_j = 0` for the chosen rows, so the final basis is unimodular). Its width
//! `F_i*(c)` over the union `K = P_1 ∪ ... ∪ P_r` (equation (1)) is bounded by a
//! parametric `u . P + w >= |c . (s - t)|` on every conflict polyhedron still alive,
//! linearised by Farkas' lemma ([`polyalloc_alloc::width::bound_on_piece`]); the
//! constraint `c_j . z = 0` of (1) for the previous vectors is the revision of each
//! polyhedron by `c_j . (s - t) = 0` ([`polyalloc_alloc::pieces::revise`]), which is
//! the same thing. `(u_1, ..., u_p, w)` is minimised lexicographically (parameter
//! priority, Sec. 4.1.3) and the modulus is `u . P + w + 1 > F_i*`.
//!
//! Nonzero `c`: one ILP per `j` with `lambda_j >= 1` and `lambda_{j'} = 0` for `j' < j`
//! (Sec. 4.1.2; the first nonzero `lambda` is positive since `c` and `-c` give the same
//! mapping), the best of them is kept. Ties are broken by the smallest `sum |c_k|`,
//! then by `sum k |c_k|` (coefficients on earlier array dimensions first, as SMO does).
//! The `lambda` found is divided by its gcd and completed into a unimodular matrix `V`
//! (Sec. 4.1.2), which updates the remaining rows.

use polyalloc_alloc::pieces::revise_all;
use polyalloc_alloc::width::{bound_on_piece, positive_on_cells, BoundVars};
use polyalloc_alloc::AllocError;
use polyalloc_formulation::int::gcd_slice;
use polyalloc_formulation::int::lin::{complete_unimodular, mat_mul};
use polyalloc_formulation::{AffExpr, BasicSet, Space};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, SolveError, SolveOptions, Solver, VarId};

/// Options of Heuristic 1.
#[derive(Clone, Debug)]
pub struct H1Options {
    /// Bound on `|lambda_j|` (coordinates of `c` in the completing basis).
    pub lambda_bound: i64,
    /// Bound on every coefficient of the mapping vector `c`.
    pub coef_bound: i64,
    /// Options of every ILP solve.
    pub solve: SolveOptions,
}

impl Default for H1Options {
    fn default() -> Self {
        H1Options { lambda_bound: 8, coef_bound: 8, solve: SolveOptions::default() }
    }
}

/// One mapping vector chosen by Heuristic 1 and its modulus `b_i = F_i* + 1`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct H1Row {
    /// The mapping vector `c_i`.
    pub hyperplane: Vec<i64>,
    /// The modulus `u . P + w + 1` over the parameter space.
    pub modulus: AffExpr,
}

/// The outcome of [`heuristic1`].
#[derive(Clone, Debug)]
pub struct H1Result {
    /// The vectors chosen, in order, with their moduli.
    pub rows: Vec<H1Row>,
    /// The conflict polyhedra left when the search basis was exhausted (empty when
    /// every conflict is separated by the rows).
    pub remaining: Vec<BasicSet>,
}

pub use polyalloc_formulation::int::lin::normalise_sign;

/// Heuristic 1 over the conflict polyhedra `pieces`, searching the mapping vectors in
/// the lattice spanned by the rows `search` (the identity for plain Heuristic 1; the
/// last rows of `A^{-1}` for Heuristic 3). Stops when no conflict is left or when the
/// search basis is exhausted. Every modulus is at least 1 on the cell polyhedra `cells`
/// (`polyalloc_alloc::pieces::cell_polyhedra`), not only where conflicts are.
#[allow(clippy::too_many_arguments)]
pub fn heuristic1(
    pieces: Vec<BasicSet>,
    cells: &[BasicSet],
    search: &[Vec<i64>],
    params: &[String],
    param_space: &Space,
    solver: &dyn Solver,
    opts: &H1Options,
    method: &str,
) -> Result<H1Result, AllocError> {
    let mut pieces = pieces;
    let mut basis: Vec<Vec<i64>> = search.to_vec();
    let mut rows = Vec::new();
    let mut step = 0;
    while !pieces.is_empty() && !basis.is_empty() {
        step += 1;
        let mut best: Option<(Vec<i128>, Vec<i64>, AffExpr)> = None;
        for j in 0..basis.len() {
            match width_ilp(&pieces, cells, &basis, j, params, param_space, solver, opts, method, step)? {
                None => continue,
                Some((key, lambda, modulus)) => {
                    if best.as_ref().is_none_or(|(k, _, _)| key < *k) {
                        best = Some((key, lambda, modulus));
                    }
                }
            }
        }
        let Some((_, mut lambda, modulus)) = best else {
            return Err(AllocError::method(method, format!("Heuristic 1, step {step}: no mapping vector with coefficients within the bounds")));
        };
        let g = gcd_slice(&lambda);
        if g > 1 {
            lambda.iter_mut().for_each(|x| *x /= g);
        }
        let la = AllocError::method;
        let v = complete_unimodular(std::slice::from_ref(&lambda), basis.len()).map_err(|e| la(method, e.to_string()))?;
        let next = mat_mul(&v, &basis).map_err(|e| la(method, e.to_string()))?;
        let mut c = next[0].clone();
        basis = next[1..].to_vec();
        pieces = revise_all(&pieces, &c, solver, method)?;
        normalise_sign(&mut c);
        rows.push(H1Row { hyperplane: c, modulus });
    }
    Ok(H1Result { rows, remaining: pieces })
}

/// Lexicographic optima (comparison key), `lambda`, modulus.
type WidthSolution = (Vec<i128>, Vec<i64>, AffExpr);

/// The width ILP of step `step` with `lambda_j >= 1`, `lambda_{j'} = 0` for `j' < j`.
/// Returns the lexicographic optima (the comparison key), `lambda` and the modulus, or
/// `None` when infeasible within the bounds.
#[allow(clippy::too_many_arguments)]
fn width_ilp(
    pieces: &[BasicSet],
    cells: &[BasicSet],
    basis: &[Vec<i64>],
    j: usize,
    params: &[String],
    param_space: &Space,
    solver: &dyn Solver,
    opts: &H1Options,
    method: &str,
    step: usize,
) -> Result<Option<WidthSolution>, AllocError> {
    let fe = AllocError::formulation(method);
    let n = basis.first().map_or(0, Vec::len);
    let (lb, cb) = (opts.lambda_bound, opts.coef_bound);
    let mut m = Model::new(format!("lattice-h1-step{step}-lead{j}"));
    let lambda: Vec<VarId> = (0..basis.len())
        .map(|k| {
            let (lo, hi) = if k < j {
                (0, 0)
            } else if k == j {
                (1, lb)
            } else {
                (-lb, lb)
            };
            m.add_integer(format!("lambda_{k}"), Some(lo), Some(hi))
        })
        .collect();
    let c: Vec<VarId> = (0..n).map(|q| m.add_integer(format!("c_{q}"), Some(-cb), Some(cb))).collect();
    for q in 0..n {
        let mut e = LinExpr::from(c[q]);
        for (k, row) in basis.iter().enumerate() {
            if row[q] != 0 {
                e -= LinExpr::term(lambda[k], row[q]);
            }
        }
        m.add_constraint(format!("c_{q}_def"), e, Cmp::Eq, 0);
    }
    let h: Vec<LinExpr> = c.iter().map(|&v| LinExpr::from(v)).collect();
    let bound = BoundVars::add(&mut m, params, "");
    for (i, piece) in pieces.iter().enumerate() {
        bound_on_piece(&mut m, piece, &h, &bound, &format!("K{i}")).map_err(&fe)?;
    }
    positive_on_cells(&mut m, cells, &bound, "A").map_err(&fe)?;
    let mut objectives = bound.objectives();
    let mut abs_sum = LinExpr::new();
    let mut position = LinExpr::new();
    for (q, &cq) in c.iter().enumerate() {
        let a = m.add_integer(format!("abs_c_{q}"), Some(0), Some(cb));
        m.add_constraint(format!("abs_c_{q}_pos"), LinExpr::from(a) - cq, Cmp::Ge, 0);
        m.add_constraint(format!("abs_c_{q}_neg"), LinExpr::from(a) + cq, Cmp::Ge, 0);
        abs_sum = abs_sum + a;
        position += LinExpr::term(a, q as i64);
    }
    objectives.push(abs_sum);
    objectives.push(position);
    match solver.lex_minimize(&m, &objectives, &opts.solve) {
        Ok(lex) => {
            let lam: Vec<i64> = lambda.iter().map(|&v| lex.solution.int_value(v)).collect();
            Ok(Some((lex.optima.clone(), lam, bound.modulus(&lex.solution, param_space))))
        }
        Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => Ok(None),
        Err(e) => Err(AllocError::solver(method)(e)),
    }
}
