//! Parametric width bounds by Farkas' lemma, shared by the methods that need them.
//!
//! For a conflict polyhedron `K` of pairs `(s, t)` and a hyperplane `h` (whose entries
//! may be ILP variables), [`bound_on_piece`] emits the constraints that make
//! `u . P + w` an upper bound of `|h . (s - t)|` on every rational point of `K`:
//! `u . P + w - h . (s - t) >= 0` and `u . P + w + h . (s - t) >= 0`, each linearised by
//! the affine form of Farkas' lemma (Bhaskaracharya et al. 2016, Sec. 3.4.2, constraints (2)/(5); Darte et al. 2015, Sec.
//! 4.1.1, equation (1)). The contraction modulus is then `u . P + w + 1` (Bhaskaracharya et al. 2016, Sec.
//! 3.4.3). Minimising `(u_1, ..., u_p, w)` lexicographically gives the parametric bound
//! preferred by parameter priority (Darte et al. 2015, Sec. 4.1.3).

use polyalloc_formulation::farkas::{FarkasOptions, Linearizer, ParamForm};
use polyalloc_formulation::{AffExpr, BasicSet, Space};
use polyalloc_ilp::{LinExpr, Model, Solution, VarId};

/// Upper bound of a parametric coefficient `u_i` (they are non-negative).
pub const MAX_PARAM_COEF: i64 = 10_000;
/// Bound of the constant `w` (either sign).
pub const MAX_CONSTANT: i64 = 10_000_000;

/// The ILP variables of a parametric bound `u . P + w`.
#[derive(Clone, Debug)]
pub struct BoundVars {
    /// One non-negative integer per parameter.
    pub u: Vec<VarId>,
    /// The constant.
    pub w: VarId,
}

impl BoundVars {
    /// Adds `u_1..u_p >= 0` and `w` to `model`.
    pub fn add(model: &mut Model, params: &[String], prefix: &str) -> BoundVars {
        let u = params.iter().map(|p| model.add_integer(format!("{prefix}u_{p}"), Some(0), Some(MAX_PARAM_COEF))).collect();
        let w = model.add_integer(format!("{prefix}w"), Some(-MAX_CONSTANT), Some(MAX_CONSTANT));
        BoundVars { u, w }
    }

    /// The lexicographic objectives `u_1, ..., u_p, w`.
    pub fn objectives(&self) -> Vec<LinExpr> {
        self.u.iter().map(|&v| LinExpr::from(v)).chain(std::iter::once(LinExpr::from(self.w))).collect()
    }

    /// The modulus `u . P + w + 1` read from a solution, over the parameter space.
    pub fn modulus(&self, sol: &Solution, param_space: &Space) -> AffExpr {
        let u: Vec<i64> = self.u.iter().map(|&v| sol.int_value(v)).collect();
        modulus_of(&u, sol.int_value(self.w), param_space)
    }
}

/// The modulus `u . P + w + 1` of given bound values, over the parameter space.
pub fn modulus_of(u: &[i64], w: i64, param_space: &Space) -> AffExpr {
    let mut e = AffExpr::constant(param_space, w.saturating_add(1));
    for (k, &uk) in u.iter().enumerate() {
        // Column layout: [constant, params...].
        if let Some(c) = e.coeffs.get_mut(k + 1) {
            *c = uk;
        }
    }
    e
}

/// The form `sign * h . (s - t)` over a relation space's columns (params, s, t), plus
/// `extra_param` on the parameter columns and `constant`.
pub fn diff_form(space: &Space, h: &[LinExpr], sign: i64) -> ParamForm {
    let p = space.n_param();
    let n = h.len();
    let mut f = ParamForm::zero(space);
    for (j, hj) in h.iter().enumerate() {
        f.coeffs[p + j] = hj.clone() * sign;
        f.coeffs[p + n + j] = hj.clone() * -sign;
    }
    f
}

/// Emits `u . P + w >= 0` on every cell polyhedron (`pieces::cell_polyhedra`), so that
/// the modulus `u . P + w + 1` is at least 1 wherever the array has a cell, for every
/// parameter value of the context. The bounds on the conflict polyhedra alone say
/// nothing where there is no conflict: at `N = 2` a width bound `N - 3` gives the
/// modulus `N - 2 = 0`, which the exact checker refuses.
pub fn positive_on_cells(model: &mut Model, cells: &[BasicSet], bound: &BoundVars, name: &str) -> polyalloc_formulation::Result<()> {
    positive_on_cells_with(&mut Linearizer::new(), model, cells, bound, name)
}

/// [`positive_on_cells`] through `lin` (as [`bound_on_piece_with`]): the rows of a cell
/// polyhedron whose generators are few are one row per generator.
pub fn positive_on_cells_with(
    lin: &mut Linearizer,
    model: &mut Model,
    cells: &[BasicSet],
    bound: &BoundVars,
    name: &str,
) -> polyalloc_formulation::Result<()> {
    for (i, piece) in cells.iter().enumerate() {
        polyalloc_ilp::budget::check()?;
        let mut f = ParamForm::zero(piece.space());
        for (k, &u) in bound.u.iter().enumerate() {
            f.coeffs[k] = LinExpr::from(u);
        }
        f.constant = LinExpr::from(bound.w);
        lin.nonneg_on(model, piece, &f, &FarkasOptions { name: format!("{name}{i}_cells"), ..Default::default() })?;
    }
    Ok(())
}

/// Whether the fixed bound `u . P + w` is non-negative on every cell polyhedron: the
/// condition [`positive_on_cells_with`] puts on the ILP's `(u, w)`, decided exactly for
/// given values on the generators of each polyhedron (the rational polyhedron, as the
/// Farkas rows; `lin` caches them). `None` when a polyhedron's generators are not
/// available (too many; the caller then solves the ILP).
pub fn positive_on_cells_at(lin: &mut Linearizer, cells: &[BasicSet], u: &[i128], w: i128) -> Option<bool> {
    for cell in cells {
        if cell.is_marked_empty() {
            continue;
        }
        let gens = lin.generators(cell)?;
        // Columns: parameters first (`u`), the constant weighted by the denominator.
        let at = |d: i64, v: &[i64]| -> i128 { d as i128 * w + u.iter().zip(v).map(|(&a, &x)| a * x as i128).sum::<i128>() };
        let ok =
            gens.vertices.iter().all(|(d, v)| at(*d, v) >= 0) && gens.rays.iter().all(|r| at(0, r) >= 0) && gens.lines.iter().all(|l| at(0, l) == 0);
        if !ok {
            return Some(false);
        }
    }
    Some(true)
}

/// Emits `u . P + w >= |h . (s - t)|` on `piece` (two Farkas applications).
pub fn bound_on_piece(model: &mut Model, piece: &BasicSet, h: &[LinExpr], bound: &BoundVars, name: &str) -> polyalloc_formulation::Result<()> {
    bound_on_piece_with(&mut Linearizer::new(), model, piece, h, bound, name)
}

/// [`bound_on_piece`] through `lin`, which emits each distinct row of the model once
/// and computes the generators of each polyhedron once (see
/// [`polyalloc_formulation::farkas`]).
pub fn bound_on_piece_with(
    lin: &mut Linearizer,
    model: &mut Model,
    piece: &BasicSet,
    h: &[LinExpr],
    bound: &BoundVars,
    name: &str,
) -> polyalloc_formulation::Result<()> {
    let space = piece.space().clone();
    for (sign, tag) in [(-1i64, "ub"), (1, "lb")] {
        // u.P + w - sign' * h.(s - t) >= 0, i.e. u.P + w + sign * h.(s - t) >= 0.
        let mut f = diff_form(&space, h, sign);
        for (k, &u) in bound.u.iter().enumerate() {
            f.coeffs[k] = f.coeffs[k].clone() + LinExpr::from(u);
        }
        f.constant = LinExpr::from(bound.w);
        lin.nonneg_on(model, piece, &f, &FarkasOptions { name: format!("{name}_{tag}"), ..Default::default() })?;
    }
    Ok(())
}

/// The contraction modulus of the constant hyperplane `h` over the conflict polyhedra
/// `pieces`: the lexicographically smallest `u . P + w` bounding `|h . (s - t)|` on
/// every piece ([`bound_on_piece`]), plus 1, kept at least 1 on every cell of `cells`
/// ([`positive_on_cells`]). One ILP, named `model`, solved through `solver`; errors name
/// `method`.
#[allow(clippy::too_many_arguments)]
pub fn constant_hyperplane_modulus(
    pieces: &[BasicSet],
    cells: &[BasicSet],
    h: &[i64],
    params: &[String],
    param_space: &Space,
    solver: &dyn polyalloc_ilp::Solver,
    options: &polyalloc_ilp::SolveOptions,
    method: &str,
    model: &str,
) -> Result<AffExpr, crate::AllocError> {
    use polyalloc_ilp::LexSolve;
    let fe = crate::AllocError::formulation(method);
    let mut m = Model::new(model);
    let bound = BoundVars::add(&mut m, params, "");
    let g: Vec<LinExpr> = h.iter().map(|&c| LinExpr::constant(c)).collect();
    for (i, piece) in pieces.iter().enumerate() {
        bound_on_piece(&mut m, piece, &g, &bound, &format!("K{i}")).map_err(&fe)?;
    }
    positive_on_cells(&mut m, cells, &bound, "A").map_err(&fe)?;
    let lex = solver.lex_minimize(&m, &bound.objectives(), options).map_err(crate::AllocError::solver(method))?;
    Ok(bound.modulus(&lex.solution, param_space))
}
