//! The one home of polyalloc's exact integer arithmetic (checked, never wrapping):
//! greatest common divisors, floor and ceiling division, checked row operations here;
//! integer linear algebra (echelon forms, Hermite normal form, unimodular completion
//! and inverse, determinant, rank, orthogonal complement) in [`lin`]. Every crate of
//! polyalloc takes its gcd and its matrices from here.

pub mod lin;

use crate::error::{ovf, Result};

/// Greatest common divisor (non-negative; `gcd(0, 0) = 0`).
pub fn gcd(a: i64, b: i64) -> i64 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    // gcd of i64 values fits i64 unless both are i64::MIN-like; clamp.
    i64::try_from(a).unwrap_or(i64::MAX)
}

/// Greatest common divisor in 128 bits (non-negative; `gcd_i128(0, 0) = 0`; the gcd of
/// `i128::MIN` with 0 saturates to `i128::MAX`).
pub fn gcd_i128(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a.unsigned_abs(), b.unsigned_abs());
    while b != 0 {
        let t = a % b;
        a = b;
        b = t;
    }
    i128::try_from(a).unwrap_or(i128::MAX)
}

/// gcd of a slice (0 for all-zero).
pub fn gcd_slice(xs: &[i64]) -> i64 {
    xs.iter().fold(0, |g, &x| gcd(g, x))
}

/// Floor of a / b (b != 0).
pub fn floor_div(a: i128, b: i128) -> i128 {
    // Scans divide at every bound of every row: 64-bit division when both fit (a
    // 128-bit division is a library call, most of a scan's time).
    if let (Ok(a), Ok(b)) = (i64::try_from(a), i64::try_from(b)) {
        if let (Some(q), Some(r)) = (a.checked_div(b), a.checked_rem(b)) {
            return i128::from(if r != 0 && ((a < 0) != (b < 0)) { q - 1 } else { q });
        }
    }
    let q = a / b;
    if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    }
}

/// Ceiling of a / b (b != 0).
pub fn ceil_div(a: i128, b: i128) -> i128 {
    -floor_div(-a, b)
}

/// `a * b`, an overflow error instead of a wrap. Results are symmetric 64-bit values:
/// `-2^63` (whose negation does not fit) is an overflow too.
pub fn mul(a: i64, b: i64) -> Result<i64> {
    a.checked_mul(b).filter(|&v| v != i64::MIN).ok_or_else(|| ovf("multiplying coefficients"))
}

/// `a + b`, an overflow error instead of a wrap (and for `-2^63`, as [`mul`]).
pub fn add(a: i64, b: i64) -> Result<i64> {
    a.checked_add(b).filter(|&v| v != i64::MIN).ok_or_else(|| ovf("adding coefficients"))
}

/// `x` narrowed to `i64`, an overflow error (naming `what`) when it does not fit the
/// symmetric range (as [`mul`]).
pub fn to_i64(x: i128, what: &str) -> Result<i64> {
    i64::try_from(x).ok().filter(|&v| v != i64::MIN).ok_or_else(|| ovf(what))
}

/// `a*x + b*y` element-wise, checked.
pub fn lin_comb(a: i64, x: &[i64], b: i64, y: &[i64]) -> Result<Vec<i64>> {
    x.iter().zip(y).map(|(&xi, &yi)| add(mul(a, xi)?, mul(b, yi)?)).collect()
}

/// Dot product of a row with a point (`row[0]` is the constant, the point is indexed from column 1).
pub fn eval_row(row: &[i64], point: &[i64]) -> Result<i64> {
    let mut acc: i128 = row[0] as i128;
    for (c, x) in row[1..].iter().zip(point) {
        acc = acc.checked_add((*c as i128) * (*x as i128)).ok_or_else(|| ovf("evaluating a constraint"))?;
    }
    to_i64(acc, "evaluating a constraint")
}
