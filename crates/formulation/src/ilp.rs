//! Sets as ILP constraints: emptiness, sample points and lexicographic minima through
//! any [`Solver`], with parameters treated as variables.

use crate::basic::BasicSet;
use crate::error::{Error, Result};
use crate::int::lin::integer_solutions;
use crate::set::Set;
use crate::space::{Space, Tuple};
use polyalloc_ilp::{Cmp, LexSolve, LinExpr, Model, SolveError, SolveOptions, Solver, VarId};

/// Half-width of the box used to extract a witness when a backend reports a
/// feasibility model as unbounded (see [`find_point`]).
pub const WITNESS_BOX: i64 = 1 << 20;

/// The ILP variables standing for the columns of a basic set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetVars {
    /// One variable per parameter.
    pub params: Vec<VarId>,
    /// One variable per dimension (input dims first for a relation).
    pub dims: Vec<VarId>,
    /// One variable per local.
    pub locals: Vec<VarId>,
}

impl SetVars {
    /// The variable of column `col` of the set's row layout (`col >= 1`).
    pub fn col(&self, col: usize) -> Option<VarId> {
        self.all().get(col.checked_sub(1)?).copied()
    }
    fn all(&self) -> Vec<VarId> {
        let mut v = self.params.clone();
        v.extend(&self.dims);
        v.extend(&self.locals);
        v
    }
}

impl BasicSet {
    /// The lower and upper bounds of column `col` (a parameter, dimension or local)
    /// that the rows over that column alone give (`N >= 3`, `2 i <= 9`); `None` where
    /// there is none.
    pub fn single_var_bounds(&self, col: usize) -> (Option<i64>, Option<i64>) {
        let (mut lo, mut hi): (Option<i64>, Option<i64>) = (None, None);
        let single = |r: &Vec<i64>| r.iter().enumerate().skip(1).all(|(c, &v)| c == col || v == 0);
        for r in self.ineqs.iter().filter(|r| single(r) && r[col] != 0) {
            let a = r[col] as i128;
            if a > 0 {
                let v = crate::int::ceil_div(-(r[0] as i128), a);
                if let Ok(v) = i64::try_from(v) {
                    lo = Some(lo.map_or(v, |l| l.max(v)));
                }
            } else {
                let v = crate::int::floor_div(r[0] as i128, -a);
                if let Ok(v) = i64::try_from(v) {
                    hi = Some(hi.map_or(v, |h| h.min(v)));
                }
            }
        }
        for r in self.eqs.iter().filter(|r| single(r) && r[col] != 0) {
            if r[0] % r[col] == 0 {
                let v = -r[0] / r[col];
                lo = Some(lo.map_or(v, |l| l.max(v)));
                hi = Some(hi.map_or(v, |h| h.min(v)));
            }
        }
        (lo, hi)
    }
}

/// Adds the constraints of `b` to `model` as integer variables and rows. Parameters use
/// the variables in `params` when given (so several sets can share them), otherwise new
/// variables are created. Variables get the finite bounds implied by single-variable
/// rows, when there are such rows.
pub fn add_basic_set(model: &mut Model, b: &BasicSet, prefix: &str, params: Option<&[VarId]>) -> Result<SetVars> {
    let sp = &b.space;
    let np = sp.n_param();
    let param_vars: Vec<VarId> = match params {
        Some(p) => {
            if p.len() != np {
                return Err(Error::ParamValues(format!("{np} parameters but {} shared variables", p.len())));
            }
            p.to_vec()
        }
        None => (0..np)
            .map(|i| {
                let (lo, hi) = b.single_var_bounds(1 + i);
                model.add_integer(format!("{prefix}{}", sp.params[i]), lo, hi)
            })
            .collect(),
    };
    let names = sp.dim_names();
    let dims: Vec<VarId> = (0..sp.n_dim())
        .map(|j| {
            let (lo, hi) = b.single_var_bounds(1 + np + j);
            model.add_integer(format!("{prefix}{}", names[j]), lo, hi)
        })
        .collect();
    let locals: Vec<VarId> = (0..b.n_local)
        .map(|k| {
            let (lo, hi) = b.single_var_bounds(sp.n_cols() + k);
            model.add_integer(format!("{prefix}e{k}"), lo, hi)
        })
        .collect();
    let vars = SetVars { params: param_vars, dims, locals };
    let all = vars.all();
    let row_expr = |r: &Vec<i64>| -> LinExpr {
        let mut e = LinExpr::constant(0);
        for (c, &v) in r.iter().enumerate().skip(1) {
            if v != 0 {
                e.add_term(all[c - 1], v);
            }
        }
        e
    };
    for (k, r) in b.eqs.iter().enumerate() {
        model.try_add_constraint(format!("{prefix}eq{k}"), row_expr(r), Cmp::Eq, -r[0])?;
    }
    for (k, r) in b.ineqs.iter().enumerate() {
        model.try_add_constraint(format!("{prefix}ge{k}"), row_expr(r), Cmp::Ge, -r[0])?;
    }
    Ok(vars)
}

/// Result of a feasibility solve.
#[derive(Clone, Debug, PartialEq)]
pub enum Feasibility {
    /// The solver proved the model infeasible.
    Infeasible,
    /// A verified integer point (one value per model variable).
    Point(Vec<i64>),
    /// The solver reported the model unbounded and no witness was found in the box
    /// `[-WITNESS_BOX, WITNESS_BOX]`: feasible, but without a small point.
    FeasibleNoWitness,
}

/// Solves a feasibility model (its objective is replaced by 0). When the backend
/// answers "unbounded" (microlp does so when a free variable sits on its artificial
/// bound), the model is feasible; a witness is then searched with every unbounded
/// integer variable boxed in `[-WITNESS_BOX, WITNESS_BOX]`.
pub fn find_point(solver: &dyn Solver, model: &Model) -> Result<Feasibility> {
    find_point_with(solver, model, &SolveOptions::default())
}

/// [`find_point`] with explicit solve options (e.g. a time limit).
pub fn find_point_with(solver: &dyn Solver, model: &Model, opts: &SolveOptions) -> Result<Feasibility> {
    let mut m = model.clone();
    m.set_objective(polyalloc_ilp::Sense::Minimize, LinExpr::constant(0));
    let opts = opts.clone();
    match solver.solve(&m, &opts) {
        Ok(sol) => Ok(Feasibility::Point(m.var_ids().map(|v| sol.int_value(v)).collect())),
        Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => Ok(Feasibility::Infeasible),
        Err(SolveError::Unbounded) => {
            let ids: Vec<VarId> = m.var_ids().collect();
            for v in ids {
                let var = m.var(v).clone();
                let (lo, hi) = match (var.lower, var.upper) {
                    (Some(l), Some(u)) => (l, u),
                    (Some(l), None) => (l, l.saturating_add(2 * WITNESS_BOX)),
                    (None, Some(u)) => (u.saturating_sub(2 * WITNESS_BOX), u),
                    (None, None) => (-WITNESS_BOX, WITNESS_BOX),
                };
                m.set_bounds(v, Some(lo), Some(hi));
            }
            match solver.solve(&m, &opts) {
                Ok(sol) => Ok(Feasibility::Point(m.var_ids().map(|v| sol.int_value(v)).collect())),
                Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) | Err(SolveError::Unbounded) => {
                    Ok(Feasibility::FeasibleNoWitness)
                }
                Err(e) => Err(e.into()),
            }
        }
        Err(e) => Err(e.into()),
    }
}

/// A point of a set found by a solver: parameter values and dimension values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Values of the parameters.
    pub params: Vec<i64>,
    /// Values of the dimensions (input first for a relation).
    pub point: Vec<i64>,
}

impl BasicSet {
    /// A sample integer point through `solver`, parameters treated as variables
    /// (`None` when the solver proves the set empty). A set that is feasible only far
    /// away (see [`find_point`]) is an error [`Error::Unbounded`].
    pub fn sample(&self, solver: &dyn Solver) -> Result<Option<Sample>> {
        if self.is_marked_empty() {
            return Ok(None);
        }
        let (np, nd) = (self.space.n_param(), self.space.n_dim());
        match self.feasible_point(solver, "sample", true)? {
            Feasibility::Infeasible => Ok(None),
            Feasibility::Point(p) => Ok(Some(Sample { params: p[..np].to_vec(), point: p[np..np + nd].to_vec() })),
            Feasibility::FeasibleNoWitness => Err(Error::Unbounded("sample point (feasible, no small witness)".into())),
        }
    }

    /// Integer emptiness through `solver` (parameters are variables: "empty" means
    /// empty for every parameter value).
    pub fn is_empty(&self, solver: &dyn Solver) -> Result<bool> {
        if self.is_marked_empty() || self.is_obviously_empty()? {
            return Ok(true);
        }
        Ok(matches!(self.feasible_point(solver, "emptiness", false)?, Feasibility::Infeasible))
    }

    /// An integer point of the set (one value per column: parameters, dimensions,
    /// locals) through `solver`, in a model named `name`. The equalities are eliminated
    /// exactly first ([`integer_solutions`]: the integer solutions of the equalities are
    /// `x0 + B z`), so the solver sees only the inequalities over `z`, tightened by their
    /// gcd. On a set whose equalities have large coefficients and whose parameters are
    /// unbounded, branch and bound on the original model may never end (microlp on an
    /// emptiness test of ov-example3's symmetric conflict set); over `z` the
    /// lattice of the equalities is no longer the solver's to find. The point is checked
    /// against every original row before it is returned.
    /// With `small_params`, the point minimises the sum of the parameters when that is
    /// bounded (a sample to enumerate the set at).
    pub fn feasible_point(&self, solver: &dyn Solver, name: &str, small_params: bool) -> Result<Feasibility> {
        let direct = || -> Result<Feasibility> {
            let mut m = Model::new(name);
            add_basic_set(&mut m, self, "", None)?;
            find_point(solver, &m)
        };
        let (x0, basis, z_set) = match self.reduced() {
            Reduction::Infeasible => return Ok(Feasibility::Infeasible),
            Reduction::Unreduced => return direct(),
            Reduction::Reduced { x0, basis, z_set } => (x0, basis, z_set),
        };
        let ncol = x0.len();
        let f = basis.first().map_or(0, Vec::len);
        let z: Vec<i64> = if f == 0 {
            Vec::new()
        } else {
            let mut m = Model::new(name);
            let vars = add_basic_set(&mut m, &z_set, "", None)?.dims;
            // A sample with the smallest parameter sum where that is bounded (a solver
            // leaves a feasibility model's free variables anywhere, microlp on its
            // artificial bounds of 10^9: a useless instance to enumerate at).
            let np = self.space.n_param();
            let mut params_sum = LinExpr::constant(0);
            for row in basis.iter().take(np) {
                for (&v, &b) in vars.iter().zip(row).filter(|(_, b)| **b != 0) {
                    params_sum.add_term(v, b);
                }
            }
            // Otherwise the least sum of the variables bounded below (minus those bounded
            // above only): a feasibility model's LP optimum may sit anywhere, and
            // branch and bound from a far vertex need not end (microlp, 10^9 bounds);
            // bounded by the variables' bounds, so never unbounded.
            let mut near = LinExpr::constant(0);
            for &v in &vars {
                match (m.var(v).lower, m.var(v).upper) {
                    (Some(_), _) => {
                        near.add_term(v, 1);
                    }
                    (None, Some(_)) => {
                        near.add_term(v, -1);
                    }
                    (None, None) => {}
                }
            }
            let objective = if np > 0 && small_params { Some(params_sum) } else { (!near.is_constant()).then_some(near) };
            let small = if let Some(objective) = objective {
                let mut ms = m.clone();
                ms.set_objective(polyalloc_ilp::Sense::Minimize, objective);
                match solver.solve(&ms, &SolveOptions::default()) {
                    Ok(sol) => Some(vars.iter().map(|&v| sol.int_value(v)).collect()),
                    Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => return Ok(Feasibility::Infeasible),
                    Err(SolveError::Unbounded) => None,
                    Err(e) => return Err(e.into()),
                }
            } else {
                None
            };
            match small {
                Some(z) => z,
                None => match find_point(solver, &m)? {
                    Feasibility::Point(z) => z,
                    other => return Ok(other),
                },
            }
        };
        let x: Option<Vec<i64>> = (0..ncol)
            .map(|i| {
                let v = x0[i] as i128 + (0..f).map(|j| basis[i][j] as i128 * z[j] as i128).sum::<i128>();
                i64::try_from(v).ok()
            })
            .collect();
        match x {
            Some(x) if self.satisfied_by(&x) => Ok(Feasibility::Point(x)),
            // Cannot happen by construction; the solver's model is the judge then.
            _ => direct(),
        }
    }

    /// The set with its equalities eliminated exactly: its integer points are `x0 + B z`
    /// for the integer points `z` of a set of inequalities `c + a . z >= 0`
    /// (gcd-tightened).
    fn reduced(&self) -> Reduction {
        if self.eqs.is_empty() {
            return Reduction::Unreduced;
        }
        let ncol = self.space.n_cols() - 1 + self.n_local;
        let a: Vec<Vec<i64>> = self.eqs.iter().map(|r| r[1..].to_vec()).collect();
        let Some(rhs) = self.eqs.iter().map(|r| r[0].checked_neg()).collect::<Option<Vec<i64>>>() else { return Reduction::Unreduced };
        let (x0, basis) = match integer_solutions(&a, &rhs, ncol) {
            Ok(None) => return Reduction::Infeasible,
            Ok(Some(sol)) => sol,
            // Too large for exact elimination: the solver gets the rows as they are.
            Err(_) => return Reduction::Unreduced,
        };
        let f = basis.first().map_or(0, Vec::len);
        // Each inequality c + a . x >= 0 as c' + a' . z >= 0.
        let mut rows: Vec<(i128, Vec<i128>)> = Vec::with_capacity(self.ineqs.len());
        for r in &self.ineqs {
            let mut c = r[0] as i128;
            let mut coef = vec![0i128; f];
            for (i, &ai) in r[1..].iter().enumerate().filter(|(_, a)| **a != 0) {
                c += ai as i128 * x0[i] as i128;
                for (j, cj) in coef.iter_mut().enumerate() {
                    *cj += ai as i128 * basis[i][j] as i128;
                }
            }
            let g = coef.iter().fold(0i128, |g, &v| crate::int::gcd_i128(g, v));
            if g == 0 {
                if c < 0 {
                    return Reduction::Infeasible;
                }
                continue;
            }
            rows.push((crate::int::floor_div(c, g), coef.iter().map(|v| v / g).collect()));
        }
        let Some(ineqs) = rows
            .into_iter()
            .map(|(c, a)| std::iter::once(c).chain(a).map(|v| i64::try_from(v).ok()).collect::<Option<Vec<i64>>>())
            .collect::<Option<Vec<Vec<i64>>>>()
        else {
            return Reduction::Unreduced;
        };
        let names: Vec<String> = (0..f).map(|j| format!("z{j}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let z_set = Box::new(BasicSet { space: Space::set(&[], Tuple::anonymous(&names)), n_local: 0, eqs: Vec::new(), ineqs });
        Reduction::Reduced { x0, basis, z_set }
    }

    /// Lexicographic minimum of the dimensions for concrete parameter values, by
    /// successive solves ([`LexSolve`]). `None` when empty.
    pub fn lexmin(&self, solver: &dyn Solver, params: &[i64]) -> Result<Option<Vec<i64>>> {
        let fixed = self.fix_params(params)?;
        if fixed.is_marked_empty() {
            return Ok(None);
        }
        let mut m = Model::new("lexmin");
        let v = add_basic_set(&mut m, &fixed, "", None)?;
        let objs: Vec<LinExpr> = v.dims.iter().map(|&d| LinExpr::from(d)).collect();
        if objs.is_empty() {
            return Ok(fixed.sample(solver)?.map(|_| vec![]));
        }
        match solver.lex_minimize(&m, &objs, &SolveOptions::default()) {
            Ok(ls) => Ok(Some(v.dims.iter().map(|&d| ls.solution.int_value(d)).collect())),
            Err(SolveError::Infeasible) | Err(SolveError::InfeasibleOrUnbounded) => Ok(None),
            Err(SolveError::Unbounded) => Err(Error::Unbounded("lexmin".into())),
            Err(e) => Err(e.into()),
        }
    }
}

/// A set with its equalities eliminated ([`BasicSet::reduced`]).
enum Reduction {
    /// The equalities (or a row then constant) have no integer solution.
    Infeasible,
    /// No equalities, or numbers too large to eliminate them exactly.
    Unreduced,
    /// Integer points `x0 + B z` for the points `z` of `z_set` (no parameter, one
    /// dimension per column of `B`, inequalities only).
    Reduced { x0: Vec<i64>, basis: Vec<Vec<i64>>, z_set: Box<BasicSet> },
}

impl Set {
    /// Integer emptiness of the union through `solver` (parameters are variables).
    pub fn is_empty(&self, solver: &dyn Solver) -> Result<bool> {
        for p in &self.pieces {
            if !p.is_empty(solver)? {
                return Ok(false);
            }
        }
        Ok(true)
    }
    /// A sample point of the union (`None` when empty).
    pub fn sample(&self, solver: &dyn Solver) -> Result<Option<Sample>> {
        for p in &self.pieces {
            if let Some(s) = p.sample(solver)? {
                return Ok(Some(s));
            }
        }
        Ok(None)
    }
    /// The union without the pieces that are integer-empty for every parameter value
    /// of `context` (when given), decided through `solver`; the space is kept.
    pub fn drop_empty_pieces(&self, solver: &dyn Solver, context: Option<&BasicSet>) -> Result<Set> {
        let mut out = Set::empty(self.space().clone());
        for p in &self.pieces {
            let mut one = Set::from_basic(p.clone());
            if let Some(c) = context {
                one = one.intersect_params(c)?;
            }
            if !one.is_empty(solver)? {
                out.add_piece(p.clone())?;
            }
        }
        Ok(out)
    }
    /// Lexicographic minimum for concrete parameters through `solver`.
    pub fn lexmin(&self, solver: &dyn Solver, params: &[i64]) -> Result<Option<Vec<i64>>> {
        let mut best: Option<Vec<i64>> = None;
        for p in &self.pieces {
            if let Some(x) = p.lexmin(solver, params)? {
                if best.as_ref().is_none_or(|b| x < *b) {
                    best = Some(x);
                }
            }
        }
        Ok(best)
    }
}
