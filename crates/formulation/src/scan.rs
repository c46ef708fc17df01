//! Enumeration of the integer points of a parameter-free basic set by per-dimension
//! bounds (the projections onto the first k variables, by Fourier–Motzkin).

use crate::basic::BasicSet;
use crate::error::{ovf, Error, Result};
use crate::fm::{self, RowPair};
use crate::int;

/// The visitor of `Set::for_each_row`: `f(prefix, lo, hi)` for the points `prefix`
/// followed by each value of `lo..=hi`; returns false to stop.
pub type RowVisitor<'a> = dyn FnMut(&[i64], i64, i64) -> Result<bool> + 'a;

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
    /// Calls since the time budget was last checked.
    ticks: std::cell::Cell<u32>,
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
            let (e2, i2) = fm::eliminate_rows(&eqs, &ineqs, k + 1)?;
            eqs = e2;
            ineqs = i2;
            BasicSet::drop_col_rows(&mut eqs, k + 1);
            BasicSet::drop_col_rows(&mut ineqs, k + 1);
        }
        // A row of level k without variable k is a row of level k - 1 too (elimination
        // keeps the rows without the variable it eliminates): already satisfied by the
        // prefix, it bounds nothing here. Level 0 keeps its constant rows (they hold or
        // not for the whole set).
        for (k, (eqs, ineqs)) in levels.iter_mut().enumerate().skip(1) {
            eqs.retain(|r| r[1 + k] != 0);
            ineqs.retain(|r| r[1 + k] != 0);
        }
        let trivial_ok = b.eqs.iter().all(|r| r[0] == 0) && b.ineqs.iter().all(|r| r[0] >= 0);
        Ok(Scanner { n_dim, n_var, levels, names, trivial_ok, ticks: std::cell::Cell::new(0) })
    }

    /// Enumerations can be long: the run's time budget stops them. Checked once every
    /// 256 ranges of the last variables (reading the clock per range was a tenth of a
    /// scan).
    fn tick(&self) -> Result<()> {
        let t = self.ticks.get().wrapping_add(1);
        self.ticks.set(t);
        if t % 256 == 1 {
            polyalloc_ilp::budget::check()?;
        }
        Ok(())
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

    /// Calls `f(prefix, lo, hi)` on every row of integer points: the points whose last
    /// dimension runs over `lo..=hi` and whose other dimensions are `prefix`, in
    /// lexicographic order; `f` returns false to stop. A set with local variables (or
    /// no dimension) gives one row per point. Returns false when stopped early.
    pub(crate) fn for_each_row(&self, f: &mut RowVisitor<'_>) -> Result<bool> {
        if self.n_var == 0 || self.n_var > self.n_dim {
            return self.for_each(&mut |p: &[i64]| match p.split_last() {
                Some((&last, prefix)) => f(prefix, last, last),
                None => Ok(true),
            });
        }
        let mut prefix = Vec::with_capacity(self.n_var);
        self.rows(0, &mut prefix, f)
    }

    fn rows(&self, k: usize, prefix: &mut Vec<i64>, f: &mut RowVisitor<'_>) -> Result<bool> {
        self.tick()?;
        let Some((lo, hi)) = self.bounds(k, prefix)? else {
            return Ok(true);
        };
        if k + 1 == self.n_var {
            return f(prefix, lo, hi);
        }
        for v in lo..=hi {
            prefix.push(v);
            let cont = self.rows(k + 1, prefix, f)?;
            prefix.pop();
            if !cont {
                return Ok(false);
            }
        }
        Ok(true)
    }

    fn rec(&self, k: usize, prefix: &mut Vec<i64>, f: &mut dyn FnMut(&[i64]) -> Result<bool>) -> Result<bool> {
        if k == self.n_var {
            return f(&prefix[..self.n_dim]);
        }
        self.tick()?;
        let Some((lo, hi)) = self.bounds(k, prefix)? else {
            return Ok(true);
        };
        if k + 1 == self.n_var && k < self.n_dim {
            // The innermost dimension: every value of its range is a point.
            for v in lo..=hi {
                prefix.push(v);
                let cont = f(&prefix[..self.n_dim])?;
                prefix.pop();
                if !cont {
                    return Ok(false);
                }
            }
            return Ok(true);
        }
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
