//! Fourier–Motzkin elimination, rational emptiness, redundancy removal, and scanning
//! (enumeration of integer points by per-dimension bounds).

use crate::basic::BasicSet;
use crate::error::{ovf, Error, Result};
use crate::int;

/// Maximum number of rows FM may produce before giving up on an elimination
/// (protects against the doubly exponential blow-up).
pub const FM_ROW_LIMIT: usize = 20_000;

/// Equality rows and inequality rows.
type RowPair = (Vec<Vec<i64>>, Vec<Vec<i64>>);

/// Eliminates column `col` from the rows of `b` (rational Fourier–Motzkin: the rational
/// shadow, integer-tightened by row normalisation) and removes the column. The caller
/// adjusts the space or local count. Equalities mentioning the column are used first.
pub(crate) fn eliminate_col(b: &mut BasicSet, col: usize) -> Result<()> {
    let (eqs, ineqs) = eliminate_rows(&b.eqs, &b.ineqs, col)?;
    b.eqs = eqs;
    b.ineqs = ineqs;
    BasicSet::drop_col_rows(&mut b.eqs, col);
    BasicSet::drop_col_rows(&mut b.ineqs, col);
    Ok(())
}

/// Eliminates `col` from rows (columns kept, `col` zero afterwards).
pub(crate) fn eliminate_rows(
    eqs: &[Vec<i64>],
    ineqs: &[Vec<i64>],
    col: usize,
) -> Result<RowPair> {
    // Use the equality with the smallest non-zero coefficient, if any.
    if let Some(piv) = eqs
        .iter()
        .filter(|r| r[col] != 0)
        .min_by_key(|r| r[col].unsigned_abs())
        .cloned()
    {
        let mut piv = piv;
        if piv[col] < 0 {
            piv.iter_mut().for_each(|v| *v = -*v);
        }
        let a = piv[col];
        let reduce = |r: &Vec<i64>| -> Result<Vec<i64>> {
            if r[col] == 0 {
                return Ok(r.clone());
            }
            // a*r - r[col]*piv : a > 0 keeps the direction of an inequality.
            let mut o = int::lin_comb(a, r, -r[col], &piv)?;
            normalize_loose(&mut o);
            Ok(o)
        };
        let new_eqs: Vec<Vec<i64>> =
            eqs.iter().filter(|r| **r != piv && r.iter().map(|v| -v).collect::<Vec<_>>() != piv).map(reduce).collect::<Result<_>>()?;
        let new_ineqs: Vec<Vec<i64>> = ineqs.iter().map(reduce).collect::<Result<_>>()?;
        return Ok((new_eqs, new_ineqs));
    }
    let mut pos = Vec::new();
    let mut neg = Vec::new();
    let mut out = Vec::new();
    for r in ineqs {
        match r[col].signum() {
            1 => pos.push(r),
            -1 => neg.push(r),
            _ => out.push(r.clone()),
        }
    }
    if pos.len() * neg.len() + out.len() > FM_ROW_LIMIT {
        return Err(Error::Overflow(format!(
            "Fourier-Motzkin would produce {} rows (limit {FM_ROW_LIMIT})",
            pos.len() * neg.len() + out.len()
        )));
    }
    for p in &pos {
        for n in &neg {
            let mut o = int::lin_comb(-n[col], p, p[col], n)?;
            o[col] = 0;
            if tighten_ineq(&mut o) {
                out.push(o);
            } else {
                // Contradiction: keep an explicit false row.
                let mut f = vec![0; o.len()];
                f[0] = -1;
                return Ok((vec![], vec![f]));
            }
        }
    }
    let len = eqs.first().or(ineqs.first()).map_or(0, |r| r.len());
    let out = dedup_parallel(out, len);
    Ok((eqs.to_vec(), out))
}

fn normalize_loose(r: &mut [i64]) {
    let g = int::gcd_slice(r);
    if g > 1 {
        r.iter_mut().for_each(|v| *v /= g);
    }
}

/// gcd-normalises an inequality with integer tightening; false if it is `c >= 0` with c < 0.
fn tighten_ineq(r: &mut [i64]) -> bool {
    let g = int::gcd_slice(&r[1..]);
    if g == 0 {
        return r[0] >= 0;
    }
    if g > 1 {
        r[1..].iter_mut().for_each(|v| *v /= g);
        r[0] = int::floor_div(r[0] as i128, g as i128) as i64;
    }
    true
}

/// Removes trivially true rows, duplicates, and parallel rows dominated by a tighter one.
pub(crate) fn dedup_parallel(rows: Vec<Vec<i64>>, len: usize) -> Vec<Vec<i64>> {
    let mut best: std::collections::BTreeMap<Vec<i64>, i64> = std::collections::BTreeMap::new();
    let mut falses = false;
    for mut r in rows {
        if !tighten_ineq(&mut r) {
            falses = true;
            continue;
        }
        if r[1..].iter().all(|&v| v == 0) {
            continue;
        }
        let e = best.entry(r[1..].to_vec()).or_insert(r[0]);
        *e = (*e).min(r[0]);
    }
    let mut out: Vec<Vec<i64>> = best
        .into_iter()
        .map(|(k, c)| {
            let mut r = vec![c];
            r.extend(k);
            r
        })
        .collect();
    if falses {
        let mut f = vec![0; len];
        f[0] = -1;
        out.push(f);
    }
    out
}

/// True when the rational relaxation of the rows is empty (proved by eliminating every
/// column). Sound for integer emptiness: `true` means no integer point; `false` means
/// only that a rational point exists.
pub(crate) fn rationally_empty(eqs: &[Vec<i64>], ineqs: &[Vec<i64>]) -> Result<bool> {
    let n = eqs.first().or(ineqs.first()).map_or(0, |r| r.len());
    let mut e = eqs.to_vec();
    let mut i = ineqs.to_vec();
    if has_false(&e, &i) {
        return Ok(true);
    }
    for col in (1..n).rev() {
        let (e2, i2) = eliminate_rows(&e, &i, col)?;
        e = e2;
        i = i2;
        if has_false(&e, &i) {
            return Ok(true);
        }
    }
    Ok(has_false(&e, &i))
}

fn has_false(eqs: &[Vec<i64>], ineqs: &[Vec<i64>]) -> bool {
    ineqs.iter().any(|r| r[1..].iter().all(|&c| c == 0) && r[0] < 0)
        || eqs.iter().any(|r| {
            let g = int::gcd_slice(&r[1..]);
            (g == 0 && r[0] != 0) || (g != 0 && r[0] % g != 0)
        })
}

impl BasicSet {
    /// Rational Fourier–Motzkin projection of dimensions `first..first+n` (the rational
    /// shadow, integer-tightened). It contains the exact integer projection
    /// ([`BasicSet::project_out`]) and equals it when every eliminated variable has unit
    /// coefficients on one side; redundant rows are removed afterwards.
    pub fn fm_project_out(&self, first: usize, n: usize) -> Result<BasicSet> {
        let mut p = self.project_out(first, n)?;
        // Eliminate every remaining local rationally.
        while p.n_local > 0 {
            let col = p.n_cols() - 1;
            eliminate_col(&mut p, col)?;
            p.n_local -= 1;
        }
        p.simplify()?;
        p.remove_redundant()?;
        Ok(p)
    }

    /// Removes inequalities implied by the others: a row `r >= 0` is dropped when the
    /// other rows together with `r <= -1` have no rational point (so no integer point
    /// violates `r`). Keeps the integer points unchanged.
    pub fn remove_redundant(&mut self) -> Result<()> {
        self.simplify()?;
        if self.is_marked_empty() {
            return Ok(());
        }
        let mut k = 0;
        while k < self.ineqs.len() {
            let mut others: Vec<Vec<i64>> = self
                .ineqs
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != k)
                .map(|(_, r)| r.clone())
                .collect();
            let mut neg: Vec<i64> = self.ineqs[k].iter().map(|v| -v).collect();
            neg[0] = int::add(neg[0], -1)?;
            others.push(neg);
            if rationally_empty(&self.eqs, &others)? {
                self.ineqs.remove(k);
            } else {
                k += 1;
            }
        }
        Ok(())
    }

    /// True when the rational relaxation is empty (then the set has no integer point).
    /// Parameters count as variables. A `false` answer does not mean the set has an
    /// integer point: use [`crate::Set::is_empty`] with a solver, or enumeration, for that.
    pub fn is_rationally_empty(&self) -> Result<bool> {
        rationally_empty(&self.eqs, &self.ineqs)
    }
}

/// A scanner of the integer points of a parameter-free basic set: the projections
/// onto the first k variables, computed once by Fourier–Motzkin, give per-variable
/// bounds; the points come out in lexicographic order of the dimensions.
pub(crate) struct Scanner {
    n_dim: usize,
    n_var: usize,
    /// levels[k]: rows (eq, ineq) over columns [const, v0..vk] (k+2 columns).
    levels: Vec<RowPair>,
    names: Vec<String>,
    /// For a set without variables: whether its constant rows hold.
    trivial_ok: bool,
}

impl Scanner {
    /// Builds the scanner; `b` must have no parameters.
    pub(crate) fn new(b: &BasicSet) -> Result<Scanner> {
        if b.space.n_param() != 0 {
            return Err(Error::ParamValues("scanning needs parameter values (fix_params first)".into()));
        }
        let n_dim = b.space.n_dim();
        let n_var = n_dim + b.n_local;
        let mut names = b.space.dim_names();
        names.extend((0..b.n_local).map(|k| format!("local{k}")));
        let mut levels = vec![(vec![], vec![]); n_var];
        let mut eqs = b.eqs.clone();
        let mut ineqs = b.ineqs.clone();
        for k in (0..n_var).rev() {
            // rows currently over [const, v0..vk]
            levels[k] = (eqs.clone(), ineqs.clone());
            if k == 0 {
                break;
            }
            let (e2, i2) = eliminate_rows(&eqs, &ineqs, k + 1)?;
            eqs = e2;
            ineqs = i2;
            BasicSet::drop_col_rows(&mut eqs, k + 1);
            BasicSet::drop_col_rows(&mut ineqs, k + 1);
        }
        let trivial_ok = b.eqs.iter().all(|r| r[0] == 0) && b.ineqs.iter().all(|r| r[0] >= 0);
        Ok(Scanner { n_dim, n_var, levels, names, trivial_ok })
    }

    /// Bounds of variable k given the values of v0..v(k-1); `None` when empty.
    fn bounds(&self, k: usize, prefix: &[i64]) -> Result<Option<(i64, i64)>> {
        let (eqs, ineqs) = &self.levels[k];
        let mut lo: Option<i128> = None;
        let mut hi: Option<i128> = None;
        let rest = |r: &Vec<i64>| -> Result<i128> {
            let mut acc = r[0] as i128;
            for (j, &x) in prefix.iter().enumerate() {
                acc = acc.checked_add(r[1 + j] as i128 * x as i128).ok_or_else(|| ovf("scanning"))?;
            }
            Ok(acc)
        };
        for r in eqs {
            let a = r[1 + k] as i128;
            let s = rest(r)?;
            if a == 0 {
                if s != 0 {
                    return Ok(None);
                }
                continue;
            }
            if s % a != 0 {
                return Ok(None);
            }
            let v = -s / a;
            lo = Some(lo.map_or(v, |l| l.max(v)));
            hi = Some(hi.map_or(v, |h| h.min(v)));
        }
        for r in ineqs {
            let a = r[1 + k] as i128;
            let s = rest(r)?;
            match a.signum() {
                0 => {
                    if s < 0 {
                        return Ok(None);
                    }
                }
                1 => {
                    let v = int::ceil_div(-s, a);
                    lo = Some(lo.map_or(v, |l| l.max(v)));
                }
                _ => {
                    let v = int::floor_div(s, -a);
                    hi = Some(hi.map_or(v, |h| h.min(v)));
                }
            }
        }
        match (lo, hi) {
            (Some(l), Some(h)) => {
                if l > h {
                    Ok(None)
                } else {
                    Ok(Some((int::to_i64(l, "scanning")?, int::to_i64(h, "scanning")?)))
                }
            }
            _ => Err(Error::Unbounded(self.names.get(k).cloned().unwrap_or_default())),
        }
    }

    /// Calls `f` on every integer point (dims only, lexicographic order); `f` returns
    /// false to stop. Returns false when stopped early.
    pub(crate) fn for_each(&self, f: &mut dyn FnMut(&[i64]) -> Result<bool>) -> Result<bool> {
        if self.n_var == 0 {
            // Zero-dimensional: the only point is the empty tuple, if the constant rows hold.
            return if self.trivial_ok { f(&[]) } else { Ok(true) };
        }
        let mut prefix = Vec::with_capacity(self.n_var);
        self.rec(0, &mut prefix, f)
    }

    fn rec(&self, k: usize, prefix: &mut Vec<i64>, f: &mut dyn FnMut(&[i64]) -> Result<bool>) -> Result<bool> {
        if k == self.n_var {
            return f(&prefix[..self.n_dim]);
        }
        let Some((lo, hi)) = self.bounds(k, prefix)? else {
            return Ok(true);
        };
        if k >= self.n_dim {
            // A local: only existence matters; stop at the first completion.
            for v in lo..=hi {
                prefix.push(v);
                let mut found = false;
                let mut g = |p: &[i64]| -> Result<bool> {
                    found = true;
                    let _ = p;
                    Ok(false)
                };
                let _ = self.rec(k + 1, prefix, &mut g)?;
                prefix.pop();
                if found {
                    return f(&prefix[..self.n_dim]);
                }
            }
            return Ok(true);
        }
        for v in lo..=hi {
            prefix.push(v);
            let cont = self.rec(k + 1, prefix, f)?;
            prefix.pop();
            if !cont {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Sound integer emptiness test without a solver: equalities with a unit coefficient are
/// substituted exactly (integer Gaussian elimination), every row is gcd-normalised
/// (an equality whose gcd does not divide its constant is a contradiction; inequalities
/// are tightened), then Fourier–Motzkin with integer tightening runs on the rest.
/// `true` proves there is no integer point; `false` proves nothing.
pub(crate) fn integer_quick_empty(eqs: &[Vec<i64>], ineqs: &[Vec<i64>]) -> Result<bool> {
    let mut eqs = eqs.to_vec();
    let mut ineqs = ineqs.to_vec();
    loop {
        if has_false(&eqs, &ineqs) {
            return Ok(true);
        }
        let mut pick = None;
        'outer: for (k, r) in eqs.iter().enumerate() {
            for (c, &v) in r.iter().enumerate().skip(1) {
                if v.abs() == 1 {
                    pick = Some((k, c));
                    break 'outer;
                }
            }
        }
        let Some((k, c)) = pick else { break };
        let piv = eqs.remove(k);
        let s = piv[c];
        // x_c = -s * (piv without x_c)
        for r in eqs.iter_mut().chain(ineqs.iter_mut()) {
            let a = r[c];
            if a != 0 {
                // r - a*s*piv clears column c (since s*s = 1).
                *r = int::lin_comb(1, r, -a * s, &piv)?;
            }
        }
    }
    // gcd test on the remaining equalities, tightening of inequalities.
    for r in &mut ineqs {
        if !tighten_ineq(r) {
            return Ok(true);
        }
    }
    rationally_empty(&eqs, &ineqs)
}

impl BasicSet {
    /// Sound integer emptiness test without a solver (exact unit substitutions, gcd
    /// tests, integer-tightened Fourier–Motzkin). `true` proves the set has no integer
    /// point for any parameter value; `false` proves nothing.
    pub fn is_obviously_empty(&self) -> Result<bool> {
        integer_quick_empty(&self.eqs, &self.ineqs)
    }
}
