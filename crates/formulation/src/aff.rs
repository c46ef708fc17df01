//! Affine expressions and constraints over a space's parameters and dimensions.

use crate::error::{Error, Result};
use crate::int;
use crate::space::Space;

/// An affine expression `c0 + sum(c_j * x_j)` over the columns of a [`Space`]
/// (`[constant, params..., dims...]`) with exact `i64` coefficients.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AffExpr {
    /// Coefficients in the column layout of the space: index 0 is the constant.
    pub coeffs: Vec<i64>,
}

/// The affine expression type under its short isl name.
pub type Aff = AffExpr;

impl AffExpr {
    /// The zero expression over `space`.
    pub fn zero(space: &Space) -> Self {
        AffExpr { coeffs: vec![0; space.n_cols()] }
    }
    /// A constant over `space`.
    pub fn constant(space: &Space, c: i64) -> Self {
        let mut a = Self::zero(space);
        a.coeffs[0] = c;
        a
    }
    /// The variable (parameter or dimension) called `name`.
    pub fn var(space: &Space, name: &str) -> Result<Self> {
        let col = space.col_of(name).ok_or_else(|| Error::UnknownName(name.to_string()))?;
        let mut a = Self::zero(space);
        a.coeffs[col] = 1;
        Ok(a)
    }
    /// The constant part.
    pub fn constant_part(&self) -> i64 {
        self.coeffs[0]
    }
    /// Coefficient of a named parameter or dimension.
    pub fn coeff(&self, space: &Space, name: &str) -> Option<i64> {
        space.col_of(name).and_then(|c| self.coeffs.get(c).copied())
    }
    /// `self + k * other`, checked.
    pub fn add_scaled(&self, other: &AffExpr, k: i64) -> Result<AffExpr> {
        if self.coeffs.len() != other.coeffs.len() {
            return Err(Error::SpaceMismatch("affine expressions of different spaces".into()));
        }
        Ok(AffExpr { coeffs: int::lin_comb(1, &self.coeffs, k, &other.coeffs)? })
    }
    /// `k * self`, checked.
    pub fn scale(&self, k: i64) -> Result<AffExpr> {
        Ok(AffExpr { coeffs: self.coeffs.iter().map(|&c| int::mul(c, k)).collect::<Result<_>>()? })
    }
    /// Exact value at `params` and `dims`.
    pub fn eval(&self, params: &[i64], dims: &[i64]) -> Result<i64> {
        let n = params.len() + dims.len();
        if n + 1 != self.coeffs.len() {
            return Err(Error::ParamValues(format!("expected {} values, got {n}", self.coeffs.len() - 1)));
        }
        // No allocation: the executor and max-live evaluate every access this way.
        let mut acc: i128 = self.coeffs[0] as i128;
        for (c, x) in self.coeffs[1..].iter().zip(params.iter().chain(dims)) {
            acc += (*c as i128) * (*x as i128);
        }
        int::to_i64(acc, "evaluating a constraint")
    }
    /// True when only the constant is non-zero.
    pub fn is_constant(&self) -> bool {
        self.coeffs[1..].iter().all(|&c| c == 0)
    }
    /// Prints with the names of `space`, e.g. `i - t + 2N - 1` is printed `-t + i + 2*N - 1`
    /// in column order (parameters first).
    pub fn to_string_in(&self, space: &Space) -> String {
        let mut names: Vec<String> = space.params.clone();
        names.extend(space.dim_names());
        fmt_linear(&self.coeffs[1..], &names, self.coeffs[0])
    }
}

/// Kind of a [`Constraint`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ConstraintKind {
    /// `aff = 0`.
    Eq,
    /// `aff >= 0`.
    Ge,
}

/// An affine constraint `aff = 0` or `aff >= 0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Constraint {
    /// The affine form.
    pub aff: AffExpr,
    /// Equality or inequality.
    pub kind: ConstraintKind,
}

impl Constraint {
    /// `aff >= 0`.
    pub fn ge0(aff: AffExpr) -> Self {
        Constraint { aff, kind: ConstraintKind::Ge }
    }
    /// `aff = 0`.
    pub fn eq0(aff: AffExpr) -> Self {
        Constraint { aff, kind: ConstraintKind::Eq }
    }
}

/// Formats `sum(coeffs[j] * names[j]) + constant`, e.g. `2N - t + 1` (`0` when empty).
pub(crate) fn fmt_linear(coeffs: &[i64], names: &[String], constant: i64) -> String {
    format_linear(coeffs, names, constant, "")
}

/// Formats `sum(coeffs[j] * names[j]) + constant` with `mul` between a coefficient and
/// its name: `2N - t + 1` (`mul = ""`, isl style), `2*j - i + m` (`mul = "*"`, as the
/// papers' code prints it). Zero terms are left out; `0` when everything is zero.
pub fn format_linear(coeffs: &[i64], names: &[String], constant: i64, mul: &str) -> String {
    let mut s = String::new();
    for (c, n) in coeffs.iter().zip(names) {
        let c = *c;
        if c == 0 {
            continue;
        }
        let a = c.unsigned_abs();
        if s.is_empty() {
            if c < 0 {
                s.push('-');
            }
        } else {
            s.push_str(if c < 0 { " - " } else { " + " });
        }
        if a != 1 {
            s.push_str(&format!("{a}{mul}{n}"));
        } else {
            s.push_str(n);
        }
    }
    if constant != 0 || s.is_empty() {
        if s.is_empty() {
            s.push_str(&constant.to_string());
        } else {
            s.push_str(if constant < 0 { " - " } else { " + " });
            s.push_str(&constant.unsigned_abs().to_string());
        }
    }
    s
}
