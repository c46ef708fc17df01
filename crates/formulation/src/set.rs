//! Unions of basic sets (and of basic maps) and their operations.

use crate::aff::{AffExpr, Constraint};
use crate::basic::BasicSet;
use crate::error::{Error, Result};
use crate::scan::Scanner;
use crate::space::Space;
use std::collections::BTreeSet;

/// A finite union of [`BasicSet`]s of one space: the integer points in any piece.
///
/// Relations (maps) are the same type over a relation space, see [`Map`]. All pieces
/// share the space (parameters, tuple names and arities, dimension names).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Set {
    pub(crate) space: Space,
    pub(crate) pieces: Vec<BasicSet>,
}

/// Most pieces a product of two unions ([`Set::intersect`], [`Set::apply`]) may
/// produce before simplification: `n * m` pieces for unions of `n` and `m`, refused with
/// [`Error::TooManyPieces`] (the count computed, nothing built) past it, instead of
/// exhausting memory.
pub const MAX_PRODUCT_PIECES: usize = 100_000;

fn product_limit(what: &str, n: usize, m: usize) -> Result<()> {
    let count = (n as u128) * (m as u128);
    if count > MAX_PRODUCT_PIECES as u128 {
        return Err(Error::TooManyPieces {
            what: format!("{what} of a union of {n} pieces with one of {m}"),
            count: count.to_string(),
            limit: MAX_PRODUCT_PIECES,
        });
    }
    Ok(())
}

/// A relation between named tuples, e.g. `[N] -> { A[t, i] -> A[t2, i2] : ... }`, as a
/// union of basic relations.
pub type Map = Set;
pub use crate::scan::RowVisitor;

impl Set {
    /// The empty union of a space.
    pub fn empty(space: Space) -> Self {
        Set { space, pieces: vec![] }
    }
    /// The whole space.
    pub fn universe(space: Space) -> Self {
        Set { pieces: vec![BasicSet::universe(space.clone())], space }
    }
    /// A union with one piece.
    pub fn from_basic(b: BasicSet) -> Self {
        Set { space: b.space.clone(), pieces: vec![b] }
    }
    /// Builds a union from pieces of compatible spaces (parameters are aligned by name;
    /// the first piece's dimension names are used).
    pub fn from_pieces(space: Space, pieces: Vec<BasicSet>) -> Result<Self> {
        let mut s = Set::empty(space);
        for p in pieces {
            s.add_piece(p)?;
        }
        Ok(s)
    }
    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }
    /// The pieces (disjuncts).
    pub fn pieces(&self) -> &[BasicSet] {
        &self.pieces
    }
    /// Number of pieces.
    pub fn n_pieces(&self) -> usize {
        self.pieces.len()
    }
    /// True when the union has no piece (not an emptiness test: see [`Set::is_empty`]).
    pub fn has_no_pieces(&self) -> bool {
        self.pieces.is_empty()
    }

    fn align_to(&mut self, params: &[String]) -> Result<()> {
        if self.space.params.as_slice() == params {
            return Ok(());
        }
        self.space = self.space.with_params(params.to_vec());
        for p in self.pieces.iter_mut() {
            *p = p.align_params(params)?;
        }
        Ok(())
    }

    /// Adds a piece (skipped when it is marked empty).
    pub fn add_piece(&mut self, b: BasicSet) -> Result<()> {
        let params = self.space.merged_params(&b.space.params);
        self.align_to(&params)?;
        let b = b.align_params(&params)?;
        self.space.check_compatible(&b.space)?;
        if b.is_marked_empty() {
            return Ok(());
        }
        let b = b.with_space(self.space.clone())?;
        if !self.pieces.contains(&b) {
            self.pieces.push(b);
        }
        Ok(())
    }

    /// Union.
    pub fn union(&self, other: &Set) -> Result<Set> {
        let mut out = self.clone();
        let params = out.space.merged_params(&other.space.params);
        out.align_to(&params)?;
        let mut o = other.clone();
        o.align_to(&params)?;
        out.space.check_compatible(&o.space)?;
        for p in o.pieces {
            out.add_piece(p)?;
        }
        Ok(out)
    }

    /// Intersection (piecewise products; pieces found empty by normalisation are dropped).
    pub fn intersect(&self, other: &Set) -> Result<Set> {
        let params = self.space.merged_params(&other.space.params);
        let mut a = self.clone();
        a.align_to(&params)?;
        let mut b = other.clone();
        b.align_to(&params)?;
        a.space.check_compatible(&b.space)?;
        product_limit("the intersection", a.pieces.len(), b.pieces.len())?;
        let mut out = Set::empty(a.space.clone());
        for p in &a.pieces {
            // Quadratic: the run's time budget stops it.
            polyalloc_ilp::budget::check()?;
            for q in &b.pieces {
                out.add_piece(p.intersect(q)?)?;
            }
        }
        Ok(out)
    }

    /// Intersects every piece with constraints on the parameters only (a context such
    /// as `[N] -> { : N >= 2 }`).
    pub fn intersect_params(&self, context: &BasicSet) -> Result<Set> {
        if context.space.n_dim() != 0 {
            return Err(Error::WrongKind("a parameter context has no dimensions".into()));
        }
        let params = self.space.merged_params(&context.space.params);
        let mut a = self.clone();
        a.align_to(&params)?;
        let ctx = context.align_params(&params)?;
        // Lift the context rows into the set's space.
        let np = params.len();
        let mut map: Vec<usize> = (0..1 + np).collect();
        let base = a.space.n_cols();
        map.extend((0..ctx.n_local).map(|k| base + k));
        let lifted = ctx.remap(a.space.clone(), ctx.n_local, &map)?;
        let mut out = Set::empty(a.space.clone());
        for p in &a.pieces {
            out.add_piece(p.intersect(&lifted)?)?;
        }
        Ok(out)
    }

    /// Adds a constraint to every piece.
    pub fn add_constraint(&self, c: &Constraint) -> Result<Set> {
        let mut out = Set::empty(self.space.clone());
        for p in &self.pieces {
            let mut q = p.clone();
            q.add_constraint(c)?;
            q.simplify()?;
            out.add_piece(q)?;
        }
        Ok(out)
    }

    /// Substitutes a parameter or dimension by an affine expression of the same space.
    pub fn substitute(&self, name: &str, expr: &AffExpr) -> Result<Set> {
        self.map_pieces(|p| p.substitute(name, expr), self.space.clone())
    }

    fn map_pieces(&self, f: impl Fn(&BasicSet) -> Result<BasicSet>, space: Space) -> Result<Set> {
        let mut pieces = Vec::new();
        for p in &self.pieces {
            pieces.push(f(p)?);
        }
        let space = pieces.first().map_or(space, |p: &BasicSet| p.space.clone());
        Set::from_pieces(space, pieces)
    }

    /// Reverse of a relation.
    pub fn reverse(&self) -> Result<Set> {
        let sp = self.space.reversed()?;
        self.map_pieces(|p| p.reverse(), sp)
    }
    /// Domain of a relation.
    pub fn domain(&self) -> Result<Set> {
        let input = self.space.input.clone().ok_or_else(|| Error::WrongKind("domain needs a relation".into()))?;
        self.map_pieces(|p| p.domain(), Space { params: self.space.params.clone(), input: None, output: input })
    }
    /// Range of a relation.
    pub fn range(&self) -> Result<Set> {
        if !self.space.is_map() {
            return Err(Error::WrongKind("range needs a relation".into()));
        }
        let sp = Space { params: self.space.params.clone(), input: None, output: self.space.output.clone() };
        self.map_pieces(|p| p.range(), sp)
    }
    /// Exact projection of dimensions `first..first+n` (see [`BasicSet::project_out`]).
    pub fn project_out(&self, first: usize, n: usize) -> Result<Set> {
        let probe = BasicSet::universe(self.space.clone()).project_out(first, n)?;
        self.map_pieces(|p| p.project_out(first, n), probe.space)
    }
    /// Rational Fourier–Motzkin projection with redundancy removal
    /// (see [`BasicSet::fm_project_out`]).
    pub fn fm_project_out(&self, first: usize, n: usize) -> Result<Set> {
        let probe = BasicSet::universe(self.space.clone()).project_out(first, n)?;
        self.map_pieces(|p| p.fm_project_out(first, n), probe.space)
    }
    /// Set of differences `y - x` of a relation (isl `deltas`).
    pub fn deltas(&self) -> Result<Set> {
        let probe = BasicSet::universe(self.space.clone()).deltas()?;
        self.map_pieces(|p| p.deltas(), probe.space)
    }
    /// Applies a relation to a set (or composes two relations).
    pub fn apply(&self, map: &Map) -> Result<Set> {
        product_limit("the application", self.pieces.len(), map.pieces.len())?;
        let mut out: Option<Set> = None;
        for p in &self.pieces {
            polyalloc_ilp::budget::check()?;
            for q in &map.pieces {
                let r = p.apply(q)?;
                match out.as_mut() {
                    None => out = Some(Set::from_basic(r)),
                    Some(o) => o.add_piece(r)?,
                }
            }
        }
        match out {
            Some(mut o) => {
                o.pieces.retain(|p| !p.is_marked_empty());
                Ok(o)
            }
            None => {
                let probe = BasicSet::universe(self.space.clone()).apply(&BasicSet::universe(map.space.clone()))?;
                Ok(Set::empty(probe.space))
            }
        }
    }
    /// Composition `self: A -> B` then `other: B -> C`.
    pub fn compose(&self, other: &Map) -> Result<Map> {
        if !self.space.is_map() {
            return Err(Error::WrongKind("compose needs relations".into()));
        }
        self.apply(other)
    }
    /// Fixes all parameters.
    pub fn fix_params(&self, values: &[i64]) -> Result<Set> {
        self.map_pieces(|p| p.fix_params(values), self.space.with_params(vec![]))
    }
    /// Drops pieces whose rational relaxation is empty (they have no integer point).
    pub fn remove_rationally_empty(&self) -> Result<Set> {
        let mut out = Set::empty(self.space.clone());
        for p in &self.pieces {
            if !p.is_rationally_empty()? {
                out.pieces.push(p.clone());
            }
        }
        Ok(out)
    }
    /// Views a relation as a set over the tuple `name[x, y]`.
    pub fn wrap(&self, name: Option<String>) -> Set {
        let probe = BasicSet::universe(self.space.clone()).wrap(name.clone());
        Set { space: probe.space, pieces: self.pieces.iter().map(|p| p.wrap(name.clone())).collect() }
    }

    /// Calls `f` on every integer point of the union for concrete parameter values,
    /// piece by piece (a point in several pieces is visited several times); each piece is
    /// scanned with per-dimension bounds from Fourier–Motzkin projections. `f` returns
    /// false to stop.
    pub fn for_each_point(&self, params: &[i64], f: &mut dyn FnMut(&[i64]) -> Result<bool>) -> Result<()> {
        for p in &self.pieces {
            let fixed = p.fix_params(params)?;
            if fixed.is_marked_empty() {
                continue;
            }
            let sc = Scanner::new(&fixed)?;
            if !sc.for_each(f)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// [`Set::for_each_point`] by rows: `f(prefix, lo, hi)` stands for the points
    /// `prefix` followed by each value of `lo..=hi` in the last dimension (one call per
    /// point for a piece with local variables). `f` returns false to stop.
    pub fn for_each_row(&self, params: &[i64], f: &mut RowVisitor<'_>) -> Result<()> {
        for p in &self.pieces {
            let fixed = p.fix_params(params)?;
            if fixed.is_marked_empty() {
                continue;
            }
            let sc = Scanner::new(&fixed)?;
            if !sc.for_each_row(f)? {
                return Ok(());
            }
        }
        Ok(())
    }

    /// The number of integer points for concrete parameter values (a point in several
    /// pieces counted once), or [`Error::TooManyPoints`] when there are more than
    /// `limit`. A single piece is counted by rows, without visiting each point.
    pub fn count_points(&self, params: &[i64], limit: usize) -> Result<usize> {
        if self.pieces.len() > 1 {
            return self.enumerate(params, limit).map(|p| p.len());
        }
        let mut n = 0usize;
        self.for_each_row(params, &mut |_, lo, hi| {
            let len = (i128::from(hi) - i128::from(lo) + 1).max(0);
            n = n.saturating_add(usize::try_from(len).unwrap_or(usize::MAX));
            Ok(n <= limit)
        })?;
        if n > limit {
            return Err(Error::TooManyPoints(limit));
        }
        Ok(n)
    }

    /// All integer points for concrete parameter values (deduplicated, lexicographic
    /// order of the dimensions, input first for a relation). Fails when a dimension is
    /// unbounded or when more than `limit` points are found.
    pub fn enumerate(&self, params: &[i64], limit: usize) -> Result<Vec<Vec<i64>>> {
        let mut pts: BTreeSet<Vec<i64>> = BTreeSet::new();
        let mut err = None;
        self.for_each_point(params, &mut |p| {
            pts.insert(p.to_vec());
            if pts.len() > limit {
                err = Some(Error::TooManyPoints(limit));
                return Ok(false);
            }
            Ok(true)
        })?;
        if let Some(e) = err {
            return Err(e);
        }
        Ok(pts.into_iter().collect())
    }

    /// Membership test for concrete parameters and a point.
    pub fn contains(&self, params: &[i64], point: &[i64]) -> Result<bool> {
        if point.len() != self.space.n_dim() {
            return Err(Error::SpaceMismatch(format!("point of {} coordinates in a space of {} dims", point.len(), self.space.n_dim())));
        }
        for p in &self.pieces {
            let mut fixed = p.fix_params(params)?;
            // Fix the dims too.
            for (j, &v) in point.iter().enumerate() {
                let mut row = vec![0; fixed.n_cols()];
                row[1 + j] = 1;
                row[0] = -v;
                fixed.eqs.push(row);
            }
            fixed.simplify()?;
            if fixed.is_marked_empty() {
                continue;
            }
            let mut found = false;
            Scanner::new(&fixed)?.for_each(&mut |_| {
                found = true;
                Ok(false)
            })?;
            if found {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Lexicographic minimum of the integer points for concrete parameters (`None` when
    /// empty), by scanning each piece (the scan is in lexicographic order).
    pub fn lexmin_concrete(&self, params: &[i64]) -> Result<Option<Vec<i64>>> {
        let mut best: Option<Vec<i64>> = None;
        for p in &self.pieces {
            let fixed = p.fix_params(params)?;
            if fixed.is_marked_empty() {
                continue;
            }
            Scanner::new(&fixed)?.for_each(&mut |pt| {
                if best.as_ref().is_none_or(|b| pt < b.as_slice()) {
                    best = Some(pt.to_vec());
                }
                Ok(false)
            })?;
        }
        Ok(best)
    }

    /// Lexicographic maximum for concrete parameters (by scanning the negated set).
    pub fn lexmax_concrete(&self, params: &[i64]) -> Result<Option<Vec<i64>>> {
        let mut neg = self.clone();
        let np = self.space.n_param();
        for p in neg.pieces.iter_mut() {
            for r in p.eqs.iter_mut().chain(p.ineqs.iter_mut()) {
                for j in 0..self.space.n_dim() {
                    r[1 + np + j] = -r[1 + np + j];
                }
            }
        }
        Ok(neg.lexmin_concrete(params)?.map(|v| v.into_iter().map(|x| -x).collect()))
    }
}
