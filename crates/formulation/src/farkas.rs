//! The affine form of Farkas' lemma as ILP constraints (Bhaskaracharya et al. 2016, Sec. 2, Lemma 2.2;
//! Darte et al. 2015, Sec. 4.1.1).
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
//!
//! **Multipliers eliminated.** The multipliers are continuous unknowns that only
//! certify; eliminating them (Fourier–Motzkin, as the SMO tool does, Bhaskaracharya et al. 2016, Sec. 5) leaves
//! one row per generator of `D`: `psi(v) >= 0` at every vertex, `>= 0` along every ray,
//! `= 0` along every line ([`crate::generators`]). The two systems have exactly the same
//! solutions in the unknowns of `psi`, but the second has no multiplier, no equality
//! per column, and rows that repeat from one polyhedron to the next (the same vertex
//! differences), which a [`Linearizer`] emits once. [`nonneg_on`] uses it whenever the
//! generators are few ([`FarkasOptions::eliminate_multipliers`], on by default, and at
//! most [`MAX_GENERATOR_ROWS`] rows), and the multipliers otherwise.

use crate::basic::BasicSet;
use crate::error::{Error, Result};
use crate::generators::{Generators, DEFAULT_RAY_LIMIT};
use crate::int::gcd;
use crate::space::Space;
use polyalloc_ilp::{Cmp, LinExpr, Model, VarId};
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

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
        let slot = self.coeffs.get_mut(col.wrapping_sub(1)).ok_or_else(|| Error::SpaceMismatch(format!("column {col} outside the form")))?;
        *slot = slot.checked_add_scaled(e, 1).ok_or_else(|| Error::Overflow("building a Farkas form".into()))?;
        Ok(())
    }
    /// Adds `e` to the constant.
    pub fn add_constant(&mut self, e: &LinExpr) -> Result<()> {
        self.constant = self.constant.checked_add_scaled(e, 1).ok_or_else(|| Error::Overflow("building a Farkas form".into()))?;
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
    /// Emit one row per generator of the set instead of multipliers when the set has few
    /// generators (the same solutions in the form's unknowns; see the module
    /// documentation). Ignored with integer or bounded multipliers, which restrict the
    /// lemma. On by default.
    pub eliminate_multipliers: bool,
}

impl Default for FarkasOptions {
    fn default() -> Self {
        FarkasOptions { name: "farkas".into(), integer_multipliers: false, multiplier_bound: None, eliminate_multipliers: true }
    }
}

/// At most this many generator rows replace the multipliers of one polyhedron.
pub const MAX_GENERATOR_ROWS: usize = 256;

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

/// Emits into `model` the constraints that make `form` non-negative on (the rational
/// points of) `set`: one row per generator of `set` when it has few (see the module
/// documentation), else the Farkas multipliers and coefficient-matching equalities.
///
/// `form.coeffs` must have one entry per parameter and dimension of `set`'s space. When
/// `set` is rationally empty nothing is emitted (the condition is vacuous). The
/// multipliers created are returned (none when they were eliminated).
pub fn nonneg_on(model: &mut Model, set: &BasicSet, form: &ParamForm, opts: &FarkasOptions) -> Result<FarkasMultipliers> {
    Linearizer::new().nonneg_on(model, set, form, opts)
}

/// Identity of a row `expr >= 0` / `expr = 0` (terms, constant, equality).
type RowKey = (Vec<(VarId, i64)>, i64, bool);

/// Identity of a basic set's constraints (for the generator cache).
type SetKey = (usize, Vec<Vec<i64>>, Vec<Vec<i64>>);

/// Emits non-negativity conditions into one model, each distinct generator row once
/// (polyhedra of one conflict set share vertices and rays, hence rows), and keeps the
/// generators of every polyhedron it has seen (a method solving several models over
/// the same conflict polyhedra computes them once: [`Linearizer::next_model`]).
#[derive(Debug, Default)]
pub struct Linearizer {
    seen: HashSet<RowKey>,
    cache: HashMap<SetKey, Option<Rc<Generators>>>,
    /// Rows emitted from generators, rows skipped as duplicates, rows skipped because
    /// the variables' bounds imply them.
    pub generator_rows: usize,
    pub duplicate_rows: usize,
    pub implied_rows: usize,
    /// Polyhedra linearised with multipliers (too many generators, or asked).
    pub with_multipliers: usize,
}

impl Linearizer {
    /// A linearizer for one model.
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts emitting into another model: forgets the rows emitted, keeps the
    /// generators computed.
    pub fn next_model(&mut self) {
        self.seen.clear();
    }

    /// The generators of `set` (computed once per distinct set), or `None` when it has
    /// more than [`MAX_GENERATOR_ROWS`] or the double description gives up.
    pub fn generators(&mut self, set: &BasicSet) -> Option<Rc<Generators>> {
        let key = (set.n_local(), set.equalities().to_vec(), set.inequalities().to_vec());
        self.cache.entry(key).or_insert_with(|| set.generators(DEFAULT_RAY_LIMIT).filter(|g| g.len() <= MAX_GENERATOR_ROWS).map(Rc::new)).clone()
    }

    /// [`nonneg_on`], with the rows emitted so far by this linearizer not repeated.
    pub fn nonneg_on(&mut self, model: &mut Model, set: &BasicSet, form: &ParamForm, opts: &FarkasOptions) -> Result<FarkasMultipliers> {
        // Model building of large unions is bounded by the run's budget, not only the
        // solves (issue 16's limits test, 200 conflict polyhedra).
        polyalloc_ilp::budget::check()?;
        check_form(set, form)?;
        if set.is_marked_empty() {
            return Ok(FarkasMultipliers { lambda0: None, ineq: vec![], eq: vec![] });
        }
        if opts.eliminate_multipliers && !opts.integer_multipliers && opts.multiplier_bound.is_none() {
            if let Some(g) = self.generators(set) {
                self.nonneg_on_generators(model, &g, form, &opts.name)?;
                return Ok(FarkasMultipliers { lambda0: None, ineq: vec![], eq: vec![] });
            }
        }
        self.with_multipliers += 1;
        with_multipliers(model, set, form, opts)
    }

    /// Emits `form >= 0` on the polyhedron of `gens` (nothing when it is empty): one row
    /// per vertex and ray, one equality per line, each normalised by the gcd of its
    /// coefficients and skipped when already emitted.
    pub fn nonneg_on_generators(&mut self, model: &mut Model, gens: &Generators, form: &ParamForm, name: &str) -> Result<()> {
        if gens.is_empty() {
            return Ok(());
        }
        let ovf = || Error::Overflow("building generator rows".into());
        let eval = |d: i64, v: &[i64]| -> Result<LinExpr> {
            // The homogenised form at (d, v): d * constant + coeffs . v.
            let mut e = if d == 0 { LinExpr::new() } else { LinExpr::new().checked_add_scaled(&form.constant, d).ok_or_else(ovf)? };
            for (c, &x) in form.coeffs.iter().zip(v) {
                if x != 0 {
                    e = e.checked_add_scaled(c, x).ok_or_else(ovf)?;
                }
            }
            Ok(e)
        };
        let rows = gens
            .vertices
            .iter()
            .map(|(d, v)| (*d, v, false))
            .chain(gens.rays.iter().map(|r| (0, r, false)))
            .chain(gens.lines.iter().map(|l| (0, l, true)));
        for (k, (d, v, eq)) in (1usize..).zip(rows) {
            let e = eval(d, v)?;
            self.emit(model, e, eq, || format!("{name}_g{k}"))?;
        }
        Ok(())
    }

    /// Emits `e >= 0` (or `e = 0`) unless it was emitted before or the bounds of its
    /// variables imply it; normalised by the gcd of its coefficients.
    pub fn emit(&mut self, model: &mut Model, e: LinExpr, eq: bool, name: impl FnOnce() -> String) -> Result<()> {
        let g = e.terms().fold(gcd(0, e.constant_part()), |g, (_, c)| gcd(g, c));
        let div = |x: i64| if g > 1 { x / g } else { x };
        let mut terms: Vec<(VarId, i64)> = e.terms().map(|(v, c)| (v, div(c))).collect();
        let mut constant = div(e.constant_part());
        if eq {
            // `e = 0` and `-e = 0` are one row.
            if terms.first().map_or(constant < 0, |&(_, c)| c < 0) {
                terms.iter_mut().for_each(|t| t.1 = -t.1);
                constant = -constant;
            }
        }
        if terms.is_empty() {
            if (eq && constant != 0) || (!eq && constant < 0) {
                // A form with fixed coefficients that fails on the set: the model is
                // (correctly) infeasible.
                let name = format!("{}_false", name());
                let bad = model.add_continuous(name.clone(), Some(0), None);
                model.try_add_constraint(name, LinExpr::from(bad), Cmp::Le, -1)?;
            }
            return Ok(());
        }
        if !eq && implied_by_bounds(model, &terms, constant) {
            self.implied_rows += 1;
            return Ok(());
        }
        if !self.seen.insert((terms.clone(), constant, eq)) {
            self.duplicate_rows += 1;
            return Ok(());
        }
        self.generator_rows += 1;
        let mut row = LinExpr::new();
        for (v, c) in terms {
            row.add_term(v, c);
        }
        let rhs = constant.checked_neg().ok_or_else(|| Error::Overflow("building generator rows".into()))?;
        model.try_add_constraint(name(), row, if eq { Cmp::Eq } else { Cmp::Ge }, rhs)?;
        Ok(())
    }
}

/// True when `sum terms + constant >= 0` holds for every value of its variables within
/// their bounds (an infinite bound on the wrong side means no).
fn implied_by_bounds(model: &Model, terms: &[(VarId, i64)], constant: i64) -> bool {
    let mut low = constant as i128;
    for &(v, c) in terms {
        let var = model.var(v);
        let bound = if c > 0 { var.lower } else { var.upper };
        match bound {
            Some(b) => low += c as i128 * b as i128,
            None => return false,
        }
    }
    low >= 0
}

fn check_form(set: &BasicSet, form: &ParamForm) -> Result<()> {
    let sp = set.space();
    if form.coeffs.len() != sp.n_cols() - 1 {
        return Err(Error::SpaceMismatch(format!(
            "the form has {} coefficients, the space `{sp}` has {} parameters and dimensions",
            form.coeffs.len(),
            sp.n_cols() - 1
        )));
    }
    Ok(())
}

/// The multipliers and coefficient-matching equalities of Farkas' lemma.
fn with_multipliers(model: &mut Model, set: &BasicSet, form: &ParamForm, opts: &FarkasOptions) -> Result<FarkasMultipliers> {
    let sp = set.space();
    if set.is_marked_empty() || set.is_rationally_empty()? {
        return Ok(FarkasMultipliers { lambda0: None, ineq: vec![], eq: vec![] });
    }
    let name = &opts.name;
    let kind = if opts.integer_multipliers { polyalloc_ilp::VarKind::Integer } else { polyalloc_ilp::VarKind::Continuous };
    let ub = opts.multiplier_bound;
    let lambda0 = model.add_var(format!("{name}_l0"), kind, Some(0), ub);
    let ineq: Vec<VarId> = (0..set.inequalities().len()).map(|k| model.add_var(format!("{name}_l{}", k + 1), kind, Some(0), ub)).collect();
    let eq: Vec<VarId> = (0..set.equalities().len()).map(|k| model.add_var(format!("{name}_mu{k}"), kind, ub.map(|b| -b), ub)).collect();
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
