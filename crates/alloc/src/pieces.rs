//! The conflict polyhedra a method works on, and their revision by a hyperplane.

use crate::{AllocError, Problem};
use polyalloc_formulation::BasicSet;
use polyalloc_ilp::Solver;

/// The conflict polyhedra of a problem (the pieces of its conflict relation),
/// restricted to the parameter context, without the integer-empty ones.
pub fn conflict_polyhedra(problem: &Problem, solver: &dyn Solver, method: &str) -> Result<Vec<BasicSet>, AllocError> {
    let fe = AllocError::formulation(method);
    let rel = match &problem.context {
        Some(ctx) => problem.conflicts.relation.intersect_params(ctx).map_err(&fe)?,
        None => problem.conflicts.relation.clone(),
    };
    let mut out = Vec::new();
    for p in rel.pieces() {
        if !p.is_empty(solver).map_err(&fe)? {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// `K ∩ { h . (s - t) = 0 }`: the conflicts of `K` that the hyperplane `h` does not
/// satisfy (004 Sec. 3.5, revision (8)).
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
    let fe = AllocError::formulation(method);
    let mut next = Vec::new();
    for p in pieces {
        let r = revise(p, h).map_err(&fe)?;
        if !r.is_empty(solver).map_err(&fe)? {
            next.push(r);
        }
    }
    Ok(next)
}
