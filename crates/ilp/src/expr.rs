//! Linear expressions with exact integer coefficients.

use std::collections::BTreeMap;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// Handle of a variable in a [`Model`](crate::Model) (its index in creation order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(pub(crate) usize);

impl VarId {
    /// Index of the variable in creation order; solution vectors are indexed by it.
    pub fn index(self) -> usize {
        self.0
    }
}

/// A linear expression `sum(c_j * x_j) + constant` with `i64` coefficients.
///
/// Terms are kept merged by variable (a `BTreeMap`), so a variable appears at most once
/// and zero coefficients are dropped. Arithmetic that would overflow `i64` panics in
/// builders; formulation code that handles user data uses the `checked_*` methods.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LinExpr {
    terms: BTreeMap<VarId, i64>,
    constant: i64,
}

impl LinExpr {
    /// The zero expression.
    pub fn new() -> Self {
        Self::default()
    }

    /// A constant expression.
    pub fn constant(c: i64) -> Self {
        LinExpr { terms: BTreeMap::new(), constant: c }
    }

    /// `coef * var`.
    pub fn term(var: VarId, coef: i64) -> Self {
        let mut e = LinExpr::new();
        e.add_term(var, coef);
        e
    }

    /// Adds `coef * var` in place; panics on `i64` overflow (use [`LinExpr::checked_add_term`]
    /// for user-controlled data).
    pub fn add_term(&mut self, var: VarId, coef: i64) -> &mut Self {
        self.checked_add_term(var, coef).expect("LinExpr coefficient overflow");
        self
    }

    /// Adds `coef * var` in place, or returns `None` (leaving `self` unchanged) on overflow.
    pub fn checked_add_term(&mut self, var: VarId, coef: i64) -> Option<()> {
        if coef == 0 {
            return Some(());
        }
        let old = self.terms.get(&var).copied().unwrap_or(0);
        let new = old.checked_add(coef)?;
        if new == 0 {
            self.terms.remove(&var);
        } else {
            self.terms.insert(var, new);
        }
        Some(())
    }

    /// Adds a constant in place, or `None` on overflow.
    pub fn checked_add_constant(&mut self, c: i64) -> Option<()> {
        self.constant = self.constant.checked_add(c)?;
        Some(())
    }

    /// `self + k * other`, or `None` on overflow.
    pub fn checked_add_scaled(&self, other: &LinExpr, k: i64) -> Option<LinExpr> {
        let mut out = self.clone();
        for (&v, &c) in &other.terms {
            out.checked_add_term(v, c.checked_mul(k)?)?;
        }
        out.checked_add_constant(other.constant.checked_mul(k)?)?;
        Some(out)
    }

    /// The constant part.
    pub fn constant_part(&self) -> i64 {
        self.constant
    }

    /// Sets the constant part.
    pub fn set_constant(&mut self, c: i64) {
        self.constant = c;
    }

    /// The coefficient of `var` (0 when absent).
    pub fn coef(&self, var: VarId) -> i64 {
        self.terms.get(&var).copied().unwrap_or(0)
    }

    /// The non-zero terms, ordered by variable.
    pub fn terms(&self) -> impl ExactSizeIterator<Item = (VarId, i64)> + '_ {
        self.terms.iter().map(|(&v, &c)| (v, c))
    }

    /// True when the expression has no variable terms.
    pub fn is_constant(&self) -> bool {
        self.terms.is_empty()
    }

    /// Exact value at an integer point (indexed by variable index), in `i128`;
    /// `None` on overflow of `i128`.
    pub fn eval_i128(&self, point: &[i64]) -> Option<i128> {
        let mut acc = self.constant as i128;
        for (v, c) in self.terms() {
            let x = *point.get(v.index())? as i128;
            acc = acc.checked_add((c as i128).checked_mul(x)?)?;
        }
        Some(acc)
    }

    /// Floating-point value at a point and the sum of the absolute values of its terms
    /// (the scale used for tolerances).
    pub fn eval_f64(&self, point: &[f64]) -> (f64, f64) {
        let mut acc = self.constant as f64;
        let mut scale = (self.constant as f64).abs();
        for (v, c) in self.terms() {
            let t = c as f64 * point.get(v.index()).copied().unwrap_or(f64::NAN);
            acc += t;
            scale += t.abs();
        }
        (acc, scale)
    }
}

impl From<VarId> for LinExpr {
    fn from(v: VarId) -> Self {
        LinExpr::term(v, 1)
    }
}

impl From<i64> for LinExpr {
    fn from(c: i64) -> Self {
        LinExpr::constant(c)
    }
}

impl AddAssign<&LinExpr> for LinExpr {
    fn add_assign(&mut self, rhs: &LinExpr) {
        *self = self.checked_add_scaled(rhs, 1).expect("LinExpr overflow");
    }
}
impl AddAssign<LinExpr> for LinExpr {
    fn add_assign(&mut self, rhs: LinExpr) {
        *self += &rhs;
    }
}
impl SubAssign<&LinExpr> for LinExpr {
    fn sub_assign(&mut self, rhs: &LinExpr) {
        *self = self.checked_add_scaled(rhs, -1).expect("LinExpr overflow");
    }
}
impl SubAssign<LinExpr> for LinExpr {
    fn sub_assign(&mut self, rhs: LinExpr) {
        *self -= &rhs;
    }
}
impl<T: Into<LinExpr>> Add<T> for LinExpr {
    type Output = LinExpr;
    fn add(mut self, rhs: T) -> LinExpr {
        self += rhs.into();
        self
    }
}
impl<T: Into<LinExpr>> Sub<T> for LinExpr {
    type Output = LinExpr;
    fn sub(mut self, rhs: T) -> LinExpr {
        self -= rhs.into();
        self
    }
}
impl Mul<i64> for LinExpr {
    type Output = LinExpr;
    fn mul(self, k: i64) -> LinExpr {
        LinExpr::new().checked_add_scaled(&self, k).expect("LinExpr overflow")
    }
}
impl Neg for LinExpr {
    type Output = LinExpr;
    fn neg(self) -> LinExpr {
        self * -1
    }
}
impl Mul<i64> for VarId {
    type Output = LinExpr;
    fn mul(self, k: i64) -> LinExpr {
        LinExpr::term(self, k)
    }
}
impl<T: Into<LinExpr>> Add<T> for VarId {
    type Output = LinExpr;
    fn add(self, rhs: T) -> LinExpr {
        LinExpr::from(self) + rhs
    }
}
impl<T: Into<LinExpr>> Sub<T> for VarId {
    type Output = LinExpr;
    fn sub(self, rhs: T) -> LinExpr {
        LinExpr::from(self) - rhs
    }
}

impl std::iter::Sum for LinExpr {
    fn sum<I: Iterator<Item = LinExpr>>(iter: I) -> Self {
        iter.fold(LinExpr::new(), |a, b| a + b)
    }
}
