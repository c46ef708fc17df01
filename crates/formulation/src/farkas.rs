//! The affine form of Farkas' lemma as ILP constraints (004 Sec. 2, Lemma 2.2;
//! 001 Sec. 4.1.1).
//!
//! An affine form `psi(P, x) = c0 + sum_j c_j z_j` (`z` = parameters then dimensions of a
//! basic set `D = { A z + b >= 0, C z + d = 0 }`) is non-negative on a non-empty
//! rational polyhedron `D` iff
//! `psi = lambda_0 + sum_k lambda_k (a_k . z + b_k) + sum_e mu_e (c_e . z + d_e)` with
//! `lambda >= 0` (and `mu` free). When the coefficients `c_j` are themselves affine in
//! ILP unknowns (hyperplane coefficients, parametric bounds `u . P + w`, decision
//! variables times constants), matching the coefficient of every column gives linear
//! constraints: that is what [`nonneg_on`] emits. Parameters are columns of the set like
//! dimensions, so a parametric bound `u . P + w - h . (x - y) >= 0` is linearised
//! correctly.
//!
//! Exactness: the constraints say `psi >= 0` on every **rational** point of `D` (hence
//! on every integer point). This is exact for integral polyhedra and the standard
//! (sound) approximation otherwise, as in the papers. Local (existential) columns get
//! coefficient 0 in `psi`, i.e. `psi` is non-negative on the rational projection.

use crate::basic::BasicSet;
use crate::error::{Error, Result};
use crate::space::Space;
use polyalloc_ilp::{Cmp, LinExpr, Model, VarId};

/// An affine form over the parameters and dimensions of a space whose coefficients are
/// affine expressions in ILP variables.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamForm {
    /// The constant term (affine in ILP variables).
    pub constant: LinExpr,
    /// One coefficient per parameter then per dimension (the space's columns 1..).
    pub coeffs: Vec<LinExpr>,
}

impl ParamForm {
    /// The zero form over `space`.
    pub fn zero(space: &Space) -> Self {
        ParamForm { constant: LinExpr::new(), coeffs: vec![LinExpr::new(); space.n_cols() - 1] }
    }
    /// Adds `e` to the coefficient of the parameter or dimension `name`.
    pub fn add_coeff(&mut self, space: &Space, name: &str, e: &LinExpr) -> Result<()> {
        let col = space.col_of(name).ok_or_else(|| Error::UnknownName(name.into()))?;
        self.add_coeff_col(col, e)
    }
    /// Adds `e` to the coefficient of column `col` (1-based, the crate's row layout).
    pub fn add_coeff_col(&mut self, col: usize, e: &LinExpr) -> Result<()> {
        let slot = self
            .coeffs
            .get_mut(col.wrapping_sub(1))
            .ok_or_else(|| Error::SpaceMismatch(format!("column {col} outside the form")))?;
        *slot = slot.checked_add_scaled(e, 1).ok_or_else(|| Error::Overflow("building a Farkas form".into()))?;
        Ok(())
    }
    /// Adds `e` to the constant.
    pub fn add_constant(&mut self, e: &LinExpr) -> Result<()> {
        self.constant =
            self.constant.checked_add_scaled(e, 1).ok_or_else(|| Error::Overflow("building a Farkas form".into()))?;
        Ok(())
    }
}

/// Options of [`nonneg_on`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FarkasOptions {
    /// Name prefix of the multiplier variables and constraints.
    pub name: String,
    /// Integer instead of continuous multipliers (restricts the lemma; off by default).
    pub integer_multipliers: bool,
    /// Optional finite upper bound of every multiplier (and `|mu|`).
    pub multiplier_bound: Option<i64>,
}

impl Default for FarkasOptions {
    fn default() -> Self {
        FarkasOptions { name: "farkas".into(), integer_multipliers: false, multiplier_bound: None }
    }
}

/// The multiplier variables created by [`nonneg_on`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FarkasMultipliers {
    /// `lambda_0 >= 0` (the constant slack); `None` when the set was proven empty and
    /// nothing was emitted.
    pub lambda0: Option<VarId>,
    /// One `lambda_k >= 0` per inequality of the set.
    pub ineq: Vec<VarId>,
    /// One free `mu_e` per equality of the set.
    pub eq: Vec<VarId>,
}

/// Emits into `model` the Farkas multipliers and coefficient-matching equalities that
/// make `form` non-negative on (the rational points of) `set`.
///
/// `form.coeffs` must have one entry per parameter and dimension of `set`'s space. When
/// `set` is rationally empty nothing is emitted (the condition is vacuous).
pub fn nonneg_on(model: &mut Model, set: &BasicSet, form: &ParamForm, opts: &FarkasOptions) -> Result<FarkasMultipliers> {
    let sp = set.space();
    if form.coeffs.len() != sp.n_cols() - 1 {
        return Err(Error::SpaceMismatch(format!(
            "the form has {} coefficients, the space `{sp}` has {} parameters and dimensions",
            form.coeffs.len(),
            sp.n_cols() - 1
        )));
    }
    if set.is_marked_empty() || set.is_rationally_empty()? {
        return Ok(FarkasMultipliers { lambda0: None, ineq: vec![], eq: vec![] });
    }
    let name = &opts.name;
    let kind = if opts.integer_multipliers { polyalloc_ilp::VarKind::Integer } else { polyalloc_ilp::VarKind::Continuous };
    let ub = opts.multiplier_bound;
    let lambda0 = model.add_var(format!("{name}_l0"), kind, Some(0), ub);
    let ineq: Vec<VarId> = (0..set.inequalities().len())
        .map(|k| model.add_var(format!("{name}_l{}", k + 1), kind, Some(0), ub))
        .collect();
    let eq: Vec<VarId> = (0..set.equalities().len())
        .map(|k| model.add_var(format!("{name}_mu{k}"), kind, ub.map(|b| -b), ub))
        .collect();
    let ovf = || Error::Overflow("building Farkas constraints".into());
    // Column c: form coefficient - sum lambda_k a_kc - sum mu_e c_ec = 0 (c = 0: constant, with lambda_0).
    for col in 0..set.n_cols() {
        let mut e = if col == 0 {
            form.constant.clone()
        } else if col < sp.n_cols() {
            form.coeffs[col - 1].clone()
        } else {
            LinExpr::new()
        };
        if col == 0 {
            e.checked_add_term(lambda0, -1).ok_or_else(ovf)?;
        }
        for (k, r) in set.inequalities().iter().enumerate() {
            if r[col] != 0 {
                e.checked_add_term(ineq[k], r[col].checked_neg().ok_or_else(ovf)?).ok_or_else(ovf)?;
            }
        }
        for (k, r) in set.equalities().iter().enumerate() {
            if r[col] != 0 {
                e.checked_add_term(eq[k], r[col].checked_neg().ok_or_else(ovf)?).ok_or_else(ovf)?;
            }
        }
        let c = e.constant_part();
        e.set_constant(0);
        if e.is_constant() {
            if c != 0 {
                // The matching equation reads `c = 0` with c != 0: no multipliers exist.
                // Emit `lambda_0 <= -1` so that the model is (correctly) infeasible.
                model.try_add_constraint(format!("{name}_c{col}"), LinExpr::from(lambda0), Cmp::Le, -1)?;
            }
            continue;
        }
        model.try_add_constraint(format!("{name}_c{col}"), e, Cmp::Eq, c.checked_neg().ok_or_else(ovf)?)?;
    }
    Ok(FarkasMultipliers { lambda0: Some(lambda0), ineq, eq })
}
