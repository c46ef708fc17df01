//! Exact integer helpers (checked, never wrapping).

use crate::error::{ovf, Result};

pub(crate) fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    // gcd of i64 values fits i64 unless both are i64::MIN-like; clamp.
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// gcd of a slice (0 for all-zero).
pub(crate) fn gcd_slice(xs: &[i64]) -> i64 {
    xs.iter().fold(0, |g, &x| gcd(g, x))
}

/// Floor of a / b (b != 0).
pub(crate) fn floor_div(a: i128, b: i128) -> i128 {
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Ceiling of a / b (b != 0).
pub(crate) fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

pub(crate) fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).ok_or_else(|| ovf("multiplying coefficients"))
}

pub(crate) fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).ok_or_else(|| ovf("adding coefficients"))
}

pub(crate) fn to_i64(x: i128, what: &str) -> Result<i64> {
    i64::try_from(x).map_err(|_| ovf(what))
}

/// `a*x + b*y` element-wise, checked.
pub(crate) fn lin_comb(a: i64, x: &[i64], b: i64, y: &[i64]) -> Result<Vec<i64>> {
    x.iter()
        .zip(y)
        .map(|(&xi, &yi)| add(mul(a, xi)?, mul(b, yi)?))
        .collect()
}

/// Dot product of a row with a point (row[0] is the constant, point is indexed from column 1).
pub(crate) fn eval_row(row: &[i64], point: &[i64]) -> Result<i64> {
    let mut acc: i128 = row[0] as i128;
    for (c, x) in row[1..].iter().zip(point) {
        acc = acc
            .checked_add((*c as i128) * (*x as i128))
            .ok_or_else(|| ovf("evaluating a constraint"))?;
    }
    to_i64(acc, "evaluating a constraint")
}
