//! Affine expressions and accesses at fixed parameter values, evaluated without
//! allocation, and the row-wise scan of a domain: the hot loops of max-live
//! ([`crate::max_live`]), the executor's placed runs
//! ([`crate::exec::Executor::compare_placed`]), the instance order
//! ([`crate::order::Ordered`]) and fold's scans of the cells visit millions of
//! instances.
//!
//! Every evaluation gives exactly what [`AffExpr::eval`] and [`Access::happens_at`]
//! give (the same values, the same overflow errors): the parameters' part of each
//! expression is folded into its constant once, in `i128` as `AffExpr::eval` sums,
//! and an expression or guard of an unexpected shape falls back to those functions.

use crate::model::Access;
use polyalloc_formulation::{AffExpr, Result as FResult, Set};

/// Affine expressions over a statement's space (parameters, then `m` iterators) at
/// fixed parameter values.
#[derive(Clone, Debug)]
pub struct AffsAt<'a> {
    exprs: &'a [AffExpr],
    params: Vec<i64>,
    m: usize,
    /// Per expression: the constant plus the parameters' terms.
    cst: Vec<i128>,
    /// Per expression: the `m` iterator coefficients (row-major).
    coef: Vec<i64>,
    /// Every expression has `1 + params + m` coefficients; else every evaluation goes
    /// through [`AffExpr::eval`] (which reports the mismatch).
    fast: bool,
}

impl<'a> AffsAt<'a> {
    /// `exprs` at the parameter values `params` (their space's order), for iterations
    /// of `m` coordinates.
    pub fn new(exprs: &'a [AffExpr], params: &[i64], m: usize) -> AffsAt<'a> {
        let np = params.len();
        let fast = exprs.iter().all(|e| e.coeffs.len() == 1 + np + m);
        let (mut cst, mut coef) = (Vec::new(), Vec::new());
        if fast {
            cst.reserve(exprs.len());
            coef.reserve(exprs.len() * m);
            for e in exprs {
                let mut c = e.coeffs[0] as i128;
                for (a, p) in e.coeffs[1..1 + np].iter().zip(params) {
                    c += *a as i128 * *p as i128;
                }
                cst.push(c);
                coef.extend_from_slice(&e.coeffs[1 + np..]);
            }
        }
        AffsAt { exprs, params: params.to_vec(), m, cst, coef, fast }
    }

    /// Number of expressions.
    pub fn len(&self) -> usize {
        self.exprs.len()
    }

    /// True when there is no expression.
    pub fn is_empty(&self) -> bool {
        self.exprs.is_empty()
    }

    /// Expression `k` at the iteration `it` ([`AffExpr::eval`]'s value and errors).
    #[inline]
    pub fn eval(&self, k: usize, it: &[i64]) -> FResult<i64> {
        if !self.fast || it.len() != self.m {
            return self.exprs[k].eval(&self.params, it);
        }
        let mut acc = self.cst[k];
        for (c, x) in self.coef[k * self.m..(k + 1) * self.m].iter().zip(it) {
            acc += *c as i128 * *x as i128;
        }
        if acc > i64::MIN as i128 && acc <= i64::MAX as i128 {
            return Ok(acc as i64);
        }
        // The overflow error of `AffExpr::eval`.
        polyalloc_formulation::int::to_i64(acc, "evaluating a constraint")
    }

    /// Every expression at `it`, into `out` (cleared first).
    #[inline]
    pub fn eval_into(&self, it: &[i64], out: &mut Vec<i64>) -> FResult<()> {
        out.clear();
        for k in 0..self.exprs.len() {
            out.push(self.eval(k, it)?);
        }
        Ok(())
    }

    /// The coefficient of the last iterator in expression `k` (how much it grows along
    /// a row of [`for_each_row`]), `None` when the expressions are evaluated through
    /// [`AffExpr::eval`] or there is no iterator.
    pub fn last_coefficient(&self, k: usize) -> Option<i64> {
        (self.fast && self.m > 0).then(|| self.coef[(k + 1) * self.m - 1])
    }
}

/// The guard of an access at fixed parameter values.
#[derive(Clone, Debug)]
enum GuardAt {
    /// Every iteration.
    Always,
    /// Rows without existential variables: `eqs` then the inequalities, each a
    /// constant (parameters folded in) and `m` iterator coefficients.
    Rows { n_eq: usize, cst: Vec<i128>, coef: Vec<i64> },
    /// Anything else: [`Access::happens_at`].
    Slow,
}

/// An access of a statement at fixed parameter values: where it happens and the cell.
#[derive(Clone, Debug)]
pub struct AccessAt<'a> {
    access: &'a Access,
    index: AffsAt<'a>,
    guard: GuardAt,
}

impl<'a> AccessAt<'a> {
    /// `access` of a statement whose domain has `m` iterators, at the statement's
    /// parameter values `params` (its domain's order).
    pub fn new(access: &'a Access, params: &[i64], m: usize) -> AccessAt<'a> {
        let np = params.len();
        let guard = match &access.guard {
            None => GuardAt::Always,
            Some(g) if g.n_local() == 0 && g.equalities().iter().chain(g.inequalities()).all(|r| r.len() == 1 + np + m) => {
                let rows: Vec<&Vec<i64>> = g.equalities().iter().chain(g.inequalities()).collect();
                let mut cst = Vec::with_capacity(rows.len());
                let mut coef = Vec::with_capacity(rows.len() * m);
                for r in rows {
                    let mut c = r[0] as i128;
                    for (a, p) in r[1..1 + np].iter().zip(params) {
                        c += *a as i128 * *p as i128;
                    }
                    cst.push(c);
                    coef.extend_from_slice(&r[1 + np..]);
                }
                GuardAt::Rows { n_eq: g.equalities().len(), cst, coef }
            }
            Some(_) => GuardAt::Slow,
        };
        AccessAt { access, index: AffsAt::new(&access.index, params, m), guard }
    }

    /// The access.
    pub fn access(&self) -> &'a Access {
        self.access
    }

    /// Number of subscripts.
    pub fn dims(&self) -> usize {
        self.access.index.len()
    }

    /// The subscripts at fixed parameter values.
    pub fn index(&self) -> &AffsAt<'a> {
        &self.index
    }

    /// True when the access has a guard (else it happens at every iteration).
    pub fn guarded(&self) -> bool {
        !matches!(self.guard, GuardAt::Always)
    }

    /// [`Access::happens_at`] at the iteration `it`.
    #[inline]
    pub fn happens_at(&self, it: &[i64]) -> FResult<bool> {
        match &self.guard {
            GuardAt::Always => Ok(true),
            GuardAt::Rows { n_eq, cst, coef } if it.len() == self.index.m => {
                let m = self.index.m;
                for (k, c) in cst.iter().enumerate() {
                    let mut v = *c;
                    for (a, x) in coef[k * m..(k + 1) * m].iter().zip(it) {
                        v += *a as i128 * *x as i128;
                    }
                    if (k < *n_eq && v != 0) || v < 0 {
                        return Ok(false);
                    }
                }
                Ok(true)
            }
            _ => self.access.happens_at(&self.index.params, it),
        }
    }

    /// [`Access::cell_at`] at the iteration `it`, into `out` (cleared first).
    #[inline]
    pub fn cell_into(&self, it: &[i64], out: &mut Vec<i64>) -> FResult<()> {
        self.index.eval_into(it, out)
    }
}

/// A visitor of rows of points: `f(prefix, lo, hi)`, false to stop.
pub type RowFn<'a> = dyn FnMut(&[i64], i64, i64) -> FResult<bool> + 'a;

/// [`Set::for_each_row`] that also visits a zero-dimensional set's point: `f(prefix,
/// lo, hi)` stands for the points `prefix` followed by each value of `lo..=hi`, in the
/// order of [`Set::for_each_point`]; the empty point of a set without dimensions is the
/// row `f(&[], 0, 0)` (its one point is the empty tuple, not `[0]`). `f` returns false
/// to stop.
pub fn for_each_row(set: &Set, params: &[i64], f: &mut RowFn<'_>) -> FResult<()> {
    if set.space().n_dim() == 0 {
        set.for_each_point(params, &mut |_| f(&[], 0, 0))
    } else {
        set.for_each_row(params, f)
    }
}

/// Number of points of the row `lo..=hi` (0 when empty).
#[inline]
pub fn row_len(lo: i64, hi: i64) -> usize {
    usize::try_from((hi as i128 - lo as i128 + 1).max(0)).unwrap_or(usize::MAX)
}

/// Visits every point of `set` at `params` in [`Set::for_each_point`]'s order, with the
/// iteration in a buffer of its own (`f(iteration)`, false to stop): rows of
/// [`for_each_row`] expanded.
pub fn for_each_point(set: &Set, params: &[i64], f: &mut dyn FnMut(&[i64]) -> FResult<bool>) -> FResult<()> {
    let m = set.space().n_dim();
    let mut it: Vec<i64> = Vec::with_capacity(m);
    for_each_row(set, params, &mut |prefix, lo, hi| {
        if m == 0 {
            return f(&[]);
        }
        it.clear();
        it.extend_from_slice(prefix);
        it.push(lo);
        for x in lo..=hi {
            it[m - 1] = x;
            if !f(&it)? {
                return Ok(false);
            }
        }
        Ok(true)
    })
}

/// Visits cells of the accesses `accs` (of a statement whose domain is `set`, at its
/// parameter values `params`) whose box is the box of every cell they touch at the
/// first `limit` points of the set ([`Set::for_each_point`]'s order): row by row, an
/// access without a guard is affine along the row, so its extreme cells are at the
/// row's ends (and no cell between them overflows when they do not); a guarded access
/// is visited at every point where it happens. Returns the number of points visited,
/// `limit + 1` when the set has more.
pub fn for_each_box_cell(set: &Set, params: &[i64], accs: &[&AccessAt<'_>], limit: usize, f: &mut dyn FnMut(&[i64])) -> FResult<usize> {
    let m = set.space().n_dim();
    let mut count = 0usize;
    let mut over = false;
    let mut it: Vec<i64> = Vec::with_capacity(m);
    let mut cell: Vec<i64> = Vec::new();
    for_each_row(set, params, &mut |prefix, first, last| {
        let n = row_len(first, last);
        let visible = n.min(limit - count);
        if visible > 0 {
            it.clear();
            it.extend_from_slice(prefix);
            if m > 0 {
                it.push(first);
            }
            let end = first + (visible as i64 - 1);
            for a in accs {
                if m == 0 {
                    if a.happens_at(&it)? {
                        a.cell_into(&it, &mut cell)?;
                        f(&cell);
                    }
                } else if a.guarded() {
                    for x in first..=end {
                        it[m - 1] = x;
                        if a.happens_at(&it)? {
                            a.cell_into(&it, &mut cell)?;
                            f(&cell);
                        }
                    }
                } else {
                    for x in [first, end] {
                        it[m - 1] = x;
                        a.cell_into(&it, &mut cell)?;
                        f(&cell);
                    }
                }
            }
        }
        count += visible;
        if visible < n {
            over = true;
            return Ok(false);
        }
        Ok(true)
    })?;
    Ok(if over { limit.saturating_add(1) } else { count })
}

/// A set at fixed parameter values, for membership tests of many points:
/// [`crate::set_contains`]'s answers, computed from each piece's rows with the
/// parameters' terms folded into the constants. A piece with existential variables is
/// decided exactly at the point: every local bounded by the rows in which it is the
/// only local, the box of those bounds enumerated (when small) and every row tested;
/// else, and for values that do not fit the set, [`Set::contains`] answers.
#[derive(Clone, Debug)]
pub struct SetAt<'a> {
    set: &'a Set,
    params: Vec<i64>,
    n: usize,
    /// `None`: every point is answered by [`crate::set_contains`].
    pieces: Option<Vec<PieceAt>>,
}

/// One piece of a [`SetAt`]: its rows (equalities first), each a constant, `n`
/// coefficients of the dimensions and `n_local` of the locals.
#[derive(Clone, Debug)]
struct PieceAt {
    n_eq: usize,
    n_local: usize,
    cst: Vec<i128>,
    coef: Vec<i64>,
    lcoef: Vec<i64>,
}

/// Most locals of a piece decided by [`SetAt`] itself, and most points of their box it
/// enumerates.
const MAX_LOCALS: usize = 8;
const MAX_LOCAL_BOX: i128 = 4096;

impl PieceAt {
    /// Whether `point` is in the piece; `None` when the locals are not bounded by rows
    /// of their own or their box is too large.
    fn test(&self, point: &[i64]) -> Option<bool> {
        let (n, nl) = (point.len(), self.n_local);
        let value = |k: usize| -> i128 {
            let mut v = self.cst[k];
            for (a, x) in self.coef[k * n..(k + 1) * n].iter().zip(point) {
                v += *a as i128 * *x as i128;
            }
            v
        };
        if nl == 0 {
            return Some((0..self.cst.len()).all(|k| {
                let v = value(k);
                if k < self.n_eq {
                    v == 0
                } else {
                    v >= 0
                }
            }));
        }
        if nl > MAX_LOCALS {
            return None;
        }
        let mut lo = [i128::MIN; MAX_LOCALS];
        let mut hi = [i128::MAX; MAX_LOCALS];
        let mut values: Vec<i128> = Vec::with_capacity(self.cst.len());
        for k in 0..self.cst.len() {
            let v = value(k);
            values.push(v);
            let l = &self.lcoef[k * nl..(k + 1) * nl];
            let mut nz = l.iter().enumerate().filter(|(_, a)| **a != 0);
            let (one, two) = (nz.next(), nz.next());
            match (one, two) {
                (None, _) if (k < self.n_eq && v != 0) || v < 0 => return Some(false),
                (None, _) => {}
                (Some((j, &a)), None) => {
                    let a = a as i128;
                    if k < self.n_eq {
                        // a q + v = 0
                        if v % a != 0 {
                            return Some(false);
                        }
                        let q = -v / a;
                        lo[j] = lo[j].max(q);
                        hi[j] = hi[j].min(q);
                    } else if a > 0 {
                        // q >= ceil(-v / a)
                        lo[j] = lo[j].max(-(v.div_euclid(a)));
                    } else {
                        // q <= floor(v / -a)
                        hi[j] = hi[j].min(v.div_euclid(-a));
                    }
                }
                _ => {}
            }
        }
        let mut size: i128 = 1;
        for j in 0..nl {
            if lo[j] == i128::MIN || hi[j] == i128::MAX {
                return None;
            }
            if lo[j] > hi[j] {
                return Some(false);
            }
            size = size.saturating_mul(hi[j] - lo[j] + 1);
            if size > MAX_LOCAL_BOX {
                return None;
            }
        }
        // Every point of the box, each row tested.
        let mut q = lo;
        loop {
            let ok = values.iter().enumerate().all(|(k, v)| {
                let mut v = *v;
                for (a, x) in self.lcoef[k * nl..(k + 1) * nl].iter().zip(&q) {
                    v += *a as i128 * *x;
                }
                if k < self.n_eq {
                    v == 0
                } else {
                    v >= 0
                }
            });
            if ok {
                return Some(true);
            }
            let mut j = nl;
            loop {
                if j == 0 {
                    return Some(false);
                }
                j -= 1;
                if q[j] < hi[j] {
                    q[j] += 1;
                    break;
                }
                q[j] = lo[j];
            }
        }
    }
}

impl<'a> SetAt<'a> {
    /// `set` at the parameter values `params` (its space's order).
    pub fn new(set: &'a Set, params: &[i64]) -> SetAt<'a> {
        let np = params.len();
        let n = set.space().n_dim();
        let fits = np == set.space().n_param()
            && set.pieces().iter().all(|p| p.equalities().iter().chain(p.inequalities()).all(|r| r.len() == 1 + np + n + p.n_local()));
        let build = || -> Option<Vec<PieceAt>> {
            let mut out = Vec::with_capacity(set.pieces().len());
            for p in set.pieces() {
                let nl = p.n_local();
                let rows: Vec<&Vec<i64>> = p.equalities().iter().chain(p.inequalities()).collect();
                let mut cst = Vec::with_capacity(rows.len());
                let mut coef = Vec::with_capacity(rows.len() * n);
                let mut lcoef = Vec::with_capacity(rows.len() * nl);
                for r in rows {
                    let mut c = r[0] as i128;
                    for (a, v) in r[1..1 + np].iter().zip(params) {
                        c += *a as i128 * *v as i128;
                    }
                    // A piece with locals is fixed to the parameters by `Set::contains`
                    // (an overflow error there): that answers it.
                    if nl > 0 && polyalloc_formulation::int::to_i64(c, "").is_err() {
                        return None;
                    }
                    cst.push(c);
                    coef.extend_from_slice(&r[1 + np..1 + np + n]);
                    lcoef.extend_from_slice(&r[1 + np + n..]);
                }
                out.push(PieceAt { n_eq: p.equalities().len(), n_local: nl, cst, coef, lcoef });
            }
            Some(out)
        };
        SetAt { set, params: params.to_vec(), n, pieces: if fits { build() } else { None } }
    }

    /// True when `point` is in the set ([`crate::set_contains`]).
    #[inline]
    pub fn contains(&self, point: &[i64]) -> FResult<bool> {
        let Some(pieces) = self.pieces.as_ref().filter(|_| point.len() == self.n) else {
            return crate::model::set_contains(self.set, &self.params, point);
        };
        for p in pieces {
            match p.test(point) {
                Some(true) => return Ok(true),
                Some(false) => {}
                None => return crate::model::set_contains(self.set, &self.params, point),
            }
        }
        Ok(false)
    }
}
