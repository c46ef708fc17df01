//! The conflict polyhedra a method works on, and their revision by a hyperplane.

use crate::{AllocError, Problem};
use polyalloc_formulation::farkas::Linearizer;
use polyalloc_formulation::BasicSet;
use polyalloc_ilp::Solver;

/// Integer emptiness of `p` (parameters are variables), decided on its generators
/// when they settle it, else through `solver`: no vertex means rationally, hence
/// integer, empty; an integral vertex that satisfies every row is an integer point
/// (sets without local variables only: the generators project locals away). The
/// generators are cached in `lin`, where a method's Farkas rows over the same
/// polyhedron find them again (SMO: the pieces it keeps are the ones it linearises
/// next, so this costs no extra double description there and saves a solver call per
/// piece, most of SMO's remaining time on the paper examples).
pub fn is_empty_with(p: &BasicSet, solver: &dyn Solver, lin: Option<&mut Linearizer>) -> polyalloc_formulation::Result<bool> {
    if p.is_marked_empty() {
        return Ok(true);
    }
    if let (Some(lin), 0) = (lin, p.n_local()) {
        if let Some(g) = lin.generators(p) {
            if g.vertices.is_empty() {
                return Ok(true);
            }
            let integral = |(d, v): &(i64, Vec<i64>)| -> Option<Vec<i64>> { v.iter().map(|&x| (x % d == 0).then(|| x / d)).collect() };
            if g.vertices.iter().filter_map(integral).any(|x| p.satisfied_by(&x)) {
                return Ok(false);
            }
        }
    }
    p.is_empty(solver)
}

/// The conflict polyhedra of a problem (the pieces of its conflict relation),
/// restricted to the parameter context, without the integer-empty ones.
///
/// A cell does not conflict with itself: pairs `(x, x)` are not conflicts (the exact
/// checker ignores them, the bench-suite format excludes them, a conflict set computed
/// from a program never has them). A given relation may still contain them (`y - x`
/// between 0 and 2); no mapping can separate `x` from itself, and the methods, which
/// separate every pair of their polyhedra, would fail ("conflicts remain"). So a piece
/// where `x = y` is possible is replaced by its `2n` pieces `K ∧ ±(x_j - y_j) >= 1`
/// (the same split as the conflict sets of programs), the empty ones dropped.
pub fn conflict_polyhedra(problem: &Problem, solver: &dyn Solver, method: &str) -> Result<Vec<BasicSet>, AllocError> {
    conflict_polyhedra_with(problem, solver, method, None)
}

/// [`conflict_polyhedra`], with the emptiness tests of [`is_empty_with`] through `lin`.
pub fn conflict_polyhedra_with(
    problem: &Problem,
    solver: &dyn Solver,
    method: &str,
    mut lin: Option<&mut Linearizer>,
) -> Result<Vec<BasicSet>, AllocError> {
    let fe = AllocError::formulation(method);
    let rel = match &problem.context {
        Some(ctx) => problem.conflicts.relation.intersect_params(ctx).map_err(&fe)?,
        None => problem.conflicts.relation.clone(),
    };
    let mut out = Vec::new();
    for p in rel.pieces() {
        let sp = p.space();
        let (np, n) = (sp.n_param(), sp.n_out());
        let diagonal = |j: usize, s: i64| {
            let mut r = vec![0i64; p.n_cols()];
            r[1 + np + j] = s;
            r[1 + np + n + j] = -s;
            r
        };
        // The pairs `x = y` of the piece first: when there are some, the piece is
        // not empty and is split; else it is kept if it is not empty (tested through
        // `lin`, whose generators the method finds again for the pieces it keeps).
        let mut same = p.clone();
        for j in 0..n {
            same.add_eq_row(diagonal(j, 1)).map_err(&fe)?;
        }
        if same.is_empty(solver).map_err(&fe)? {
            if !is_empty_with(p, solver, lin.as_deref_mut()).map_err(&fe)? {
                out.push(p.clone());
            }
            continue;
        }
        for j in 0..n {
            for s in [1, -1] {
                let mut q = p.clone();
                let mut r = diagonal(j, s);
                r[0] = -1;
                q.add_ineq_row(r).map_err(&fe)?;
                if !q.is_empty(solver).map_err(&fe)? {
                    out.push(q);
                }
            }
        }
    }
    Ok(out)
}

/// The array's cells within the parameter context, as basic sets over the problem's
/// parameters (in its order): the data space when the problem has one, else the
/// context itself (zero-dimensional). A modulus must be at least 1 on every one of
/// them (the exact checker's requirement), not only where conflicts exist.
pub fn cell_polyhedra(problem: &Problem, method: &str) -> Result<Vec<BasicSet>, AllocError> {
    let fe = AllocError::formulation(method);
    let params = problem.params().to_vec();
    let cells = problem.space.clone().unwrap_or_else(|| polyalloc_formulation::Set::universe(problem.param_space()));
    let cells = match &problem.context {
        Some(ctx) => cells.intersect_params(ctx).map_err(&fe)?,
        None => cells,
    };
    let mut out = Vec::new();
    for p in cells.pieces() {
        match p.align_params(&params) {
            Ok(q) if !q.is_marked_empty() => out.push(q),
            Ok(_) => {}
            // A data space over other parameters than the conflict set's: the moduli
            // (affine in the conflict set's parameters) are kept positive over the
            // whole context instead, which is stronger.
            Err(_) => {
                let ctx = match &problem.context {
                    Some(c) => polyalloc_formulation::Set::universe(problem.param_space()).intersect_params(c).map_err(&fe)?,
                    None => polyalloc_formulation::Set::universe(problem.param_space()),
                };
                return Ok(ctx.pieces().iter().filter_map(|q| q.align_params(&params).ok()).collect());
            }
        }
    }
    Ok(out)
}

/// `K ∩ { h . (s - t) = 0 }`: the conflicts of `K` that the hyperplane `h` does not
/// satisfy (Bhaskaracharya et al. 2016, Sec. 3.5, revision (8)).
pub fn revise(piece: &BasicSet, h: &[i64]) -> Result<BasicSet, polyalloc_formulation::Error> {
    let sp = piece.space();
    let (p, n) = (sp.n_param(), h.len());
    let mut row = vec![0i64; piece.n_cols()];
    for (j, &g) in h.iter().enumerate() {
        row[1 + p + j] = g;
        row[1 + p + n + j] = -g;
    }
    let mut out = piece.clone();
    out.add_eq_row(row)?;
    Ok(out)
}

/// Revises every polyhedron by `h` and keeps the non-empty ones (revision (9)).
pub fn revise_all(pieces: &[BasicSet], h: &[i64], solver: &dyn Solver, method: &str) -> Result<Vec<BasicSet>, AllocError> {
    revise_all_with(pieces, h, solver, method, None)
}

/// [`revise_all`], with the emptiness tests of [`is_empty_with`] through `lin`.
pub fn revise_all_with(
    pieces: &[BasicSet],
    h: &[i64],
    solver: &dyn Solver,
    method: &str,
    mut lin: Option<&mut Linearizer>,
) -> Result<Vec<BasicSet>, AllocError> {
    let fe = AllocError::formulation(method);
    let mut next = Vec::new();
    for p in pieces {
        let r = revise(p, h).map_err(&fe)?;
        if !is_empty_with(&r, solver, lin.as_deref_mut()).map_err(&fe)? {
            next.push(r);
        }
    }
    Ok(next)
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyalloc_backend_microlp::MicrolpSolver;

    /// The generator test agrees with the solver's on sets where it decides (no vertex:
    /// empty; an integral vertex: not empty) and where it must defer (only fractional
    /// vertices, with or without integer points; a local variable).
    #[test]
    fn emptiness_on_generators_agrees_with_the_solver() {
        let cases = [
            ("[N] -> { [x, y] : 0 <= x <= N and 0 <= y <= x and N >= 2 }", false),
            ("[N] -> { [x, y] : 0 <= x <= N and y >= x + 1 and y <= -1 }", true),
            ("{ [x] : 1 <= 2x <= 1 }", true),
            ("{ [x, y] : 1 <= 2x <= 3 and 0 <= y <= 2x - 1 }", false),
            ("{ [x, y] : 2x = 1 + 2y and 0 <= y <= 3 }", true),
            ("[N] -> { [x] : exists e : x = 2e + 1 and 0 <= x <= 0 and N >= 0 }", true),
            ("[N] -> { [x] : exists e : x = 2e + 1 and 0 <= x <= N and N >= 0 }", false),
        ];
        for (text, empty) in cases {
            let set = BasicSet::parse(text).expect("parses");
            assert_eq!(set.is_empty(&MicrolpSolver).expect("solver"), empty, "{text}");
            let mut lin = Linearizer::new();
            assert_eq!(is_empty_with(&set, &MicrolpSolver, Some(&mut lin)).expect("generators"), empty, "{text}");
        }
    }
}
