//! Cost vectors over the symbolic coalescing vector `s` (Sec. 3.1, Sec. 4.4).
//!
//! A vector `u` in Z^n stands for the scalar `u . s^T`. Sums are computed on the
//! vectors (`u1 s^T + u2 s^T = (u1 + u2) s^T`); a comparison of `u1 s^T` with
//! `u2 s^T` compares `u1` with `u2` lexicographically and records the condition
//! `abs(u1 - u2) < b` under which, by Lemma 1, the two comparisons agree. All
//! conditions are kept as one vector `need` meaning `need < b` component-wise (the
//! paper prints the conjunction this way, e.g. `(3, 4) < b`).

use crate::error::{ovf, Result};
use std::cmp::Ordering;

/// An integer vector (length n, outermost level first).
pub type Vector = Vec<i64>;

/// `a + b`, checked.
pub fn add(a: &[i64], b: &[i64]) -> Result<Vector> {
    a.iter().zip(b).map(|(x, y)| x.checked_add(*y).ok_or_else(|| ovf("adding cost vectors"))).collect()
}

/// `a - b`, checked.
pub fn sub(a: &[i64], b: &[i64]) -> Result<Vector> {
    a.iter().zip(b).map(|(x, y)| x.checked_sub(*y).ok_or_else(|| ovf("subtracting cost vectors"))).collect()
}

/// `k * a`, checked.
pub fn scale(a: &[i64], k: i64) -> Result<Vector> {
    a.iter().map(|x| x.checked_mul(k).ok_or_else(|| ovf("scaling a cost vector"))).collect()
}

/// `-a`, checked.
pub fn neg(a: &[i64]) -> Result<Vector> {
    scale(a, -1)
}

/// The lexicographic order of the paper (`u > v` iff the first differing component is
/// larger).
pub fn lex_cmp(a: &[i64], b: &[i64]) -> Ordering {
    a.cmp(b)
}

/// `u . s` at concrete values of `s`, in i128.
pub fn dot(u: &[i64], s: &[i128]) -> Result<i128> {
    let mut acc: i128 = 0;
    for (x, y) in u.iter().zip(s) {
        let t = (*x as i128).checked_mul(*y).ok_or_else(|| ovf("evaluating u . s"))?;
        acc = acc.checked_add(t).ok_or_else(|| ovf("evaluating u . s"))?;
    }
    Ok(acc)
}

/// Formats `(1, 0)`.
pub fn fmt(u: &[i64]) -> String {
    format!("({})", u.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", "))
}

/// A conjunction of run-time conditions `need < b` (component-wise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// `need[k] < b_k` for every level k. Starts at `-1` (no condition: `b_k >= 1`
    /// holds for every loop that runs).
    pub need: Vector,
}

impl Condition {
    /// No condition, for n levels.
    pub fn none(n: usize) -> Condition {
        Condition { need: vec![-1; n] }
    }
    /// Adds `abs(u) < b` (Lemma 1, first part: needed for a strict comparison).
    pub fn abs_lt_b(&mut self, u: &[i64]) {
        for (k, x) in u.iter().enumerate() {
            let a = x.checked_abs().unwrap_or(i64::MAX);
            if a > self.need[k] {
                self.need[k] = a;
            }
        }
    }
    /// Adds `abs(u) < b + (0, .., 0, 1)` (Lemma 1, second part: enough for `u >= 0
    /// => u . s >= 0`).
    pub fn abs_lt_b_plus(&mut self, u: &[i64]) {
        let n = u.len();
        for (k, x) in u.iter().enumerate() {
            let mut a = x.checked_abs().unwrap_or(i64::MAX);
            if k + 1 == n {
                a -= 1;
            }
            if a > self.need[k] {
                self.need[k] = a;
            }
        }
    }
    /// Adds `need < b` directly.
    pub fn require(&mut self, need: &[i64]) {
        for (k, x) in need.iter().enumerate() {
            if *x > self.need[k] {
                self.need[k] = *x;
            }
        }
    }
    /// The conjunction of two conditions.
    pub fn and(&mut self, o: &Condition) {
        self.require(&o.need);
    }
    /// True when `need < b` at the given trip counts.
    pub fn holds(&self, b: &[i128]) -> bool {
        self.need.iter().zip(b).all(|(n, b)| (*n as i128) < *b)
    }
    /// The paper's notation: `(3, 4) < b`.
    pub fn printed(&self) -> String {
        format!("{} < b", fmt(&self.need.iter().map(|x| (*x).max(0)).collect::<Vec<_>>()))
    }
}

/// Lexicographic comparisons that stand for comparisons of `u . s^T` (Sec. 4.4): every
/// comparison adds `abs(u1 - u2) < b` to [`LexCompare::condition`].
#[derive(Clone, Debug)]
pub struct LexCompare {
    /// The conjunction of the conditions of all comparisons made.
    pub condition: Condition,
    /// Number of comparisons made.
    pub comparisons: u64,
}

impl LexCompare {
    /// For n levels.
    pub fn new(n: usize) -> LexCompare {
        LexCompare { condition: Condition::none(n), comparisons: 0 }
    }
    /// Compares `u1 s^T` with `u2 s^T`.
    pub fn cmp(&mut self, u1: &[i64], u2: &[i64]) -> Ordering {
        self.comparisons += 1;
        let d: Vector = u1.iter().zip(u2).map(|(a, b)| a.saturating_sub(*b)).collect();
        self.condition.abs_lt_b(&d);
        lex_cmp(u1, u2)
    }
    /// `u s^T < 0`.
    pub fn is_negative(&mut self, u: &[i64]) -> bool {
        let z = vec![0; u.len()];
        self.cmp(u, &z) == Ordering::Less
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lemma 1 checked by brute force: for every u with abs(u) < b, u > 0 (lex) iff
    /// u . s > 0, with s built from b as in Sec. 3.1.
    #[test]
    fn lemma1_brute_force() {
        for b in [[2i64, 3], [3, 2], [4, 4]] {
            let s = [b[1] as i128, 1];
            for u0 in -(b[0] - 1)..b[0] {
                for u1 in -(b[1] - 1)..b[1] {
                    let u = [u0, u1];
                    let lex_pos = lex_cmp(&u, &[0, 0]) == Ordering::Greater;
                    assert_eq!(lex_pos, dot(&u, &s).unwrap() > 0, "u = {u:?}, b = {b:?}");
                }
            }
            // Second part: abs(u) < b + (0, 1) and u >= 0 (lex) => u . s >= 0.
            for u0 in -(b[0] - 1)..b[0] {
                for u1 in -b[1]..=b[1] {
                    let u = [u0, u1];
                    if lex_cmp(&u, &[0, 0]) != Ordering::Less {
                        assert!(dot(&u, &s).unwrap() >= 0, "u = {u:?}, b = {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn conditions_combine() {
        let mut c = Condition::none(2);
        c.abs_lt_b(&[1, -3]);
        c.abs_lt_b_plus(&[0, 5]);
        assert_eq!(c.need, vec![1, 4]);
        assert_eq!(c.printed(), "(1, 4) < b");
        assert!(c.holds(&[2, 5]));
        assert!(!c.holds(&[2, 4]));
    }
}
