//! Basic sets and basic maps: conjunctions of affine constraints with existentially
//! quantified local variables.

use crate::aff::{AffExpr, Constraint, ConstraintKind};
use crate::error::{ovf, Error, Result};
use crate::fm;
use crate::int;
use crate::space::{Space, Tuple};

/// A basic set: the integer points `x` (with parameters `P`) such that there exist
/// integer locals `e` with `A (P, x, e) + b >= 0` and `C (P, x, e) + d = 0`.
///
/// Rows are stored in the column layout of [`Space`] followed by the locals:
/// `[constant, params..., dims..., locals...]`. A relation (basic map) is the same object
/// over a relation space (`A[t, i] -> A[t2, i2]`), see [`BasicMap`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BasicSet {
    pub(crate) space: Space,
    pub(crate) n_local: usize,
    pub(crate) eqs: Vec<Vec<i64>>,
    pub(crate) ineqs: Vec<Vec<i64>>,
}

/// A basic relation: a [`BasicSet`] whose space has an input and an output tuple.
pub type BasicMap = BasicSet;

fn normalize_ineq(row: &mut [i64]) -> Option<bool> {
    // Returns Some(true) keep, Some(false) drop (trivially true), None infeasible.
    let g = int::gcd_slice(&row[1..]);
    if g == 0 {
        return if row[0] >= 0 { Some(false) } else { None };
    }
    if g > 1 {
        for c in row[1..].iter_mut() {
            *c /= g;
        }
        row[0] = int::floor_div(row[0] as i128, g as i128) as i64;
    }
    Some(true)
}

fn normalize_eq(row: &mut [i64]) -> Option<bool> {
    let g = int::gcd_slice(&row[1..]);
    if g == 0 {
        return if row[0] == 0 { Some(false) } else { None };
    }
    if row[0] % g != 0 {
        return None;
    }
    for c in row.iter_mut() {
        *c /= g;
    }
    if let Some(&first) = row[1..].iter().find(|&&c| c != 0) {
        if first < 0 {
            for c in row.iter_mut() {
                *c = -*c;
            }
        }
    }
    Some(true)
}

impl BasicSet {
    /// Places the rows of `self` into a basic set of space `target` with `n_local`
    /// locals; `col(c)` gives the target column of column `c` of `self` (for
    /// `c >= 1 + n_param`; the constant and parameter columns are kept, after aligning
    /// the parameters by name).
    pub fn place_into(&self, target: &Space, n_local: usize, col: &dyn Fn(usize) -> usize) -> Result<BasicSet> {
        let b = self.align_params(&target.params)?;
        let np = target.n_param();
        if b.space().n_param() != np {
            return Err(Error::SpaceMismatch(format!("parameters of `{}` do not fit `{target}`", b.space())));
        }
        let mut out = BasicSet::universe(target.clone());
        for _ in 0..n_local {
            out.add_local();
        }
        let n = out.n_cols();
        let conv = |r: &Vec<i64>| -> Result<Vec<i64>> {
            let mut row = vec![0i64; n];
            for (c, &v) in r.iter().enumerate() {
                if v == 0 {
                    continue;
                }
                let t = if c <= np { c } else { col(c) };
                let slot = row.get_mut(t).ok_or_else(|| Error::SpaceMismatch(format!("column {t} outside `{target}`")))?;
                *slot = slot.checked_add(v).ok_or_else(|| crate::error::ovf("placing constraints"))?;
            }
            Ok(row)
        };
        for r in b.equalities() {
            out.add_eq_row(conv(r)?)?;
        }
        for r in b.inequalities() {
            out.add_ineq_row(conv(r)?)?;
        }
        out.simplify()?;
        Ok(out)
    }

    /// The conjunction of two basic sets with the *same* column layout, locals included
    /// (unlike [`BasicSet::intersect`], which keeps the locals of both operands apart).
    pub fn conjoin(&self, other: &BasicSet) -> Result<BasicSet> {
        if self.n_cols() != other.n_cols() || self.space() != other.space() {
            return Err(Error::SpaceMismatch(format!("conjoining `{}` and `{}`", self.space(), other.space())));
        }
        let mut out = self.clone();
        for r in other.equalities() {
            out.add_eq_row(r.clone())?;
        }
        for r in other.inequalities() {
            out.add_ineq_row(r.clone())?;
        }
        out.simplify()?;
        Ok(out)
    }

    /// The whole space (no constraint).
    pub fn universe(space: Space) -> Self {
        BasicSet { space, n_local: 0, eqs: vec![], ineqs: vec![] }
    }

    /// The empty set of a space (the constraint `-1 >= 0`).
    pub fn empty(space: Space) -> Self {
        let n = space.n_cols();
        let mut row = vec![0; n];
        row[0] = -1;
        BasicSet { space, n_local: 0, eqs: vec![], ineqs: vec![row] }
    }

    /// Builds from constraints over the space's columns (no locals).
    pub fn from_constraints(space: Space, constraints: &[Constraint]) -> Result<Self> {
        let mut b = BasicSet::universe(space);
        for c in constraints {
            b.add_constraint(c)?;
        }
        b.simplify()?;
        Ok(b)
    }

    /// The space.
    pub fn space(&self) -> &Space {
        &self.space
    }
    /// Number of existentially quantified local variables.
    pub fn n_local(&self) -> usize {
        self.n_local
    }
    /// Total number of columns (constant + params + dims + locals).
    pub fn n_cols(&self) -> usize {
        self.space.n_cols() + self.n_local
    }
    /// First local column.
    pub fn local_col(&self, k: usize) -> usize {
        self.space.n_cols() + k
    }
    /// Equality rows (`row . (1, P, x, e) = 0`).
    pub fn equalities(&self) -> &[Vec<i64>] {
        &self.eqs
    }
    /// Inequality rows (`row . (1, P, x, e) >= 0`).
    pub fn inequalities(&self) -> &[Vec<i64>] {
        &self.ineqs
    }

    /// True when the point `x` (one value per column after the constant: parameters,
    /// dimensions, locals) satisfies every equality and inequality, exactly (in
    /// `i128`); false for a point of another length.
    pub fn satisfied_by(&self, x: &[i64]) -> bool {
        if x.len() + 1 != self.n_cols() {
            return false;
        }
        let value = |r: &Vec<i64>| r[0] as i128 + r[1..].iter().zip(x).map(|(&a, &v)| a as i128 * v as i128).sum::<i128>();
        self.eqs.iter().all(|r| value(r) == 0) && self.ineqs.iter().all(|r| value(r) >= 0)
    }

    /// Adds an equality row (length [`BasicSet::n_cols`]).
    pub fn add_eq_row(&mut self, row: Vec<i64>) -> Result<()> {
        self.check_row(&row)?;
        self.eqs.push(row);
        Ok(())
    }
    /// Adds an inequality row `row >= 0` (length [`BasicSet::n_cols`]).
    pub fn add_ineq_row(&mut self, row: Vec<i64>) -> Result<()> {
        self.check_row(&row)?;
        self.ineqs.push(row);
        Ok(())
    }
    fn check_row(&self, row: &[i64]) -> Result<()> {
        if row.len() != self.n_cols() {
            return Err(Error::SpaceMismatch(format!("constraint row has {} columns, the set has {}", row.len(), self.n_cols())));
        }
        Self::check_range(row)
    }
    /// Coefficients lie in `[-(2^63 - 1), 2^63 - 1]`: `-2^63` has no negation in 64 bits,
    /// and every row may be negated (an overflow error here, never a panic later).
    fn check_range(row: &[i64]) -> Result<()> {
        if row.contains(&i64::MIN) {
            return Err(crate::error::ovf("storing a coefficient of -2^63"));
        }
        Ok(())
    }
    /// Adds a constraint over the space's columns (no locals).
    pub fn add_constraint(&mut self, c: &Constraint) -> Result<()> {
        if c.aff.coeffs.len() != self.space.n_cols() {
            return Err(Error::SpaceMismatch("constraint of another space".into()));
        }
        Self::check_range(&c.aff.coeffs)?;
        let mut row = c.aff.coeffs.clone();
        row.resize(self.n_cols(), 0);
        match c.kind {
            ConstraintKind::Eq => self.eqs.push(row),
            ConstraintKind::Ge => self.ineqs.push(row),
        }
        Ok(())
    }
    /// Adds a new local variable and returns its column.
    pub fn add_local(&mut self) -> usize {
        for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
            r.push(0);
        }
        self.n_local += 1;
        self.n_cols() - 1
    }

    /// True when the constraints contain an obviously false row (after [`simplify`](Self::simplify)
    /// this catches every contradiction found by normalisation; it is not an emptiness test).
    pub fn is_marked_empty(&self) -> bool {
        self.ineqs.iter().any(|r| r[1..].iter().all(|&c| c == 0) && r[0] < 0) || self.eqs.iter().any(|r| r[1..].iter().all(|&c| c == 0) && r[0] != 0)
    }

    fn set_marked_empty(&mut self) {
        let n = self.n_cols();
        let mut row = vec![0; n];
        row[0] = -1;
        self.eqs.clear();
        self.ineqs = vec![row];
    }

    /// Normalises rows (gcd, integer tightening of inequalities), removes duplicates and
    /// rows implied by a parallel row, turns opposite inequality pairs into equalities,
    /// and detects syntactic contradictions. Keeps the integer points unchanged.
    pub fn simplify(&mut self) -> Result<()> {
        loop {
            if self.is_marked_empty() {
                self.set_marked_empty();
                return Ok(());
            }
            let mut eqs = Vec::new();
            for mut r in std::mem::take(&mut self.eqs) {
                match normalize_eq(&mut r) {
                    None => {
                        self.set_marked_empty();
                        return Ok(());
                    }
                    Some(true) => eqs.push(r),
                    Some(false) => {}
                }
            }
            eqs.sort();
            eqs.dedup();
            // Per coefficient vector (without the constant), the tightest constant: rows
            // sorted by coefficients, the smallest constant first, then one per vector
            // (sorting, not hashing: a few rows, and the order of the result is sorted).
            let mut best: Vec<Vec<i64>> = Vec::new();
            for mut r in std::mem::take(&mut self.ineqs) {
                match normalize_ineq(&mut r) {
                    None => {
                        self.set_marked_empty();
                        return Ok(());
                    }
                    Some(true) => best.push(r),
                    Some(false) => {}
                }
            }
            best.sort_unstable_by(|a, b| a[1..].cmp(&b[1..]).then(a[0].cmp(&b[0])));
            best.dedup_by(|later, kept| later[1..] == kept[1..]);
            // Inequalities implied by an equality with the same or opposite direction.
            let mut eq_keys: Vec<&Vec<i64>> = eqs.iter().collect();
            eq_keys.sort_by(|a, b| a[1..].cmp(&b[1..]));
            let eq_const = |k: &[i64]| eq_keys.binary_search_by(|e| e[1..].cmp(k)).ok().map(|i| eq_keys[i][0]);
            let best_const = |k: &[i64]| best.binary_search_by(|r| r[1..].cmp(k)).ok().map(|i| best[i][0]);
            let mut new_eqs = Vec::new();
            let mut ineqs = Vec::new();
            let mut empty = false;
            let mut neg: Vec<i64> = Vec::new();
            for row in &best {
                let (c, k) = (row[0], &row[1..]);
                if let Some(ce) = eq_const(k) {
                    // k.x = -ce; row says k.x >= -c
                    if -ce >= -c {
                        continue;
                    }
                    empty = true;
                    break;
                }
                neg.clear();
                neg.extend(k.iter().map(|&x| -x));
                if let Some(ce) = eq_const(&neg) {
                    // -k.x = -ce -> k.x = ce; row k.x + c >= 0 -> ce + c >= 0
                    if ce.checked_add(c).ok_or_else(|| ovf("simplifying"))? >= 0 {
                        continue;
                    }
                    empty = true;
                    break;
                }
                if let Some(cn) = best_const(&neg) {
                    // k.x + c >= 0 and -k.x + cn >= 0: -c <= k.x <= cn
                    let s = c.checked_add(cn).ok_or_else(|| ovf("simplifying"))?;
                    if s < 0 {
                        empty = true;
                        break;
                    }
                    if s == 0 {
                        new_eqs.push(row.clone());
                        continue;
                    }
                }
                ineqs.push(row.clone());
            }
            if empty {
                self.set_marked_empty();
                return Ok(());
            }
            self.eqs = eqs;
            self.ineqs = ineqs;
            if new_eqs.is_empty() {
                return Ok(());
            }
            // Remove the inequalities that became equalities (both directions) and loop.
            for e in &new_eqs {
                let neg: Vec<i64> = e.iter().map(|&x| -x).collect();
                self.ineqs.retain(|r| r != e && r != &neg);
            }
            self.eqs.extend(new_eqs);
        }
    }

    /// Rewrites the set into a new column layout: `map[old_col] = new_col` (column 0 maps
    /// to 0); new columns not hit are zero.
    pub(crate) fn remap(&self, space: Space, n_local: usize, map: &[usize]) -> Result<BasicSet> {
        let n = space.n_cols() + n_local;
        let tr = |r: &Vec<i64>| -> Result<Vec<i64>> {
            let mut o = vec![0; n];
            for (c, &v) in r.iter().enumerate() {
                if v != 0 {
                    let t = map[c];
                    o[t] = int::add(o[t], v)?;
                }
            }
            Ok(o)
        };
        Ok(BasicSet {
            space,
            n_local,
            eqs: self.eqs.iter().map(tr).collect::<Result<_>>()?,
            ineqs: self.ineqs.iter().map(tr).collect::<Result<_>>()?,
        })
    }

    /// The same set over a larger (or reordered) parameter list, which must contain all
    /// of the current parameters.
    pub fn align_params(&self, params: &[String]) -> Result<BasicSet> {
        if params == self.space.params.as_slice() {
            return Ok(self.clone());
        }
        let new_space = self.space.with_params(params.to_vec());
        let mut map = vec![0; self.n_cols()];
        for (i, p) in self.space.params.iter().enumerate() {
            let j =
                params.iter().position(|q| q == p).ok_or_else(|| Error::SpaceMismatch(format!("parameter `{p}` missing from the aligned list")))?;
            map[1 + i] = 1 + j;
        }
        let np_old = self.space.n_param();
        let shift = params.len() - np_old;
        for (c, m) in map.iter_mut().enumerate().skip(1 + np_old) {
            *m = c + shift;
        }
        self.remap(new_space, self.n_local, &map)
    }

    /// Intersection of two basic sets of compatible spaces (parameters are aligned by name).
    pub fn intersect(&self, other: &BasicSet) -> Result<BasicSet> {
        let params = self.space.merged_params(&other.space.params);
        let a = self.align_params(&params)?;
        let b = other.align_params(&params)?;
        a.space.check_compatible(&b.space)?;
        let nl = a.n_local + b.n_local;
        let base = a.space.n_cols();
        let mut out = a.remap(a.space.clone(), nl, &(0..a.n_cols()).collect::<Vec<_>>())?;
        let mut map: Vec<usize> = (0..base).collect();
        map.extend((0..b.n_local).map(|k| base + a.n_local + k));
        let b2 = b.remap(a.space.clone(), nl, &map)?;
        out.eqs.extend(b2.eqs);
        out.ineqs.extend(b2.ineqs);
        out.simplify()?;
        Ok(out)
    }

    /// Substitutes column `col` (a parameter, dimension or local) by the affine row `expr`
    /// (same layout, `expr[col]` must be 0): every constraint `r` becomes
    /// `r + r[col] * expr` with the column cleared.
    pub fn substitute_col(&mut self, col: usize, expr: &[i64]) -> Result<()> {
        self.check_row(expr)?;
        if expr[col] != 0 {
            return Err(Error::SpaceMismatch("substituted expression mentions the column itself".into()));
        }
        for r in self.eqs.iter_mut().chain(self.ineqs.iter_mut()) {
            let k = r[col];
            if k != 0 {
                r[col] = 0;
                let nr = int::lin_comb(1, r, k, expr)?;
                *r = nr;
            }
        }
        Ok(())
    }

    /// Substitutes the dimension or parameter called `name` by an affine expression of
    /// the same space.
    pub fn substitute(&self, name: &str, expr: &AffExpr) -> Result<BasicSet> {
        let col = self.space.col_of(name).ok_or_else(|| Error::UnknownName(name.into()))?;
        let mut row = expr.coeffs.clone();
        if row.len() != self.space.n_cols() {
            return Err(Error::SpaceMismatch("substituted expression of another space".into()));
        }
        row.resize(self.n_cols(), 0);
        let mut out = self.clone();
        out.substitute_col(col, &row)?;
        out.simplify()?;
        Ok(out)
    }

    /// Removes column `col` from the rows (it must be zero everywhere).
    pub(crate) fn drop_col_rows(rows: &mut [Vec<i64>], col: usize) {
        for r in rows.iter_mut() {
            r.remove(col);
        }
    }

    /// Removes local `k`, which must appear in no row.
    fn drop_local(&mut self, k: usize) {
        let col = self.local_col(k);
        Self::drop_col_rows(&mut self.eqs, col);
        Self::drop_col_rows(&mut self.ineqs, col);
        self.n_local -= 1;
    }

    /// Eliminates local variables exactly where the integer semantics allow it:
    /// substitution through an equality with a unit coefficient, dropping unconstrained
    /// locals, and Fourier–Motzkin when every lower bound (or every upper bound) of the
    /// local has a unit coefficient (then the integer shadow equals the rational one).
    /// Other locals are kept: the result always has exactly the same integer points.
    pub fn simplify_locals(&mut self) -> Result<()> {
        self.simplify()?;
        if self.is_marked_empty() {
            // Drop all locals of an empty set.
            self.n_local = 0;
            self.set_marked_empty_cols();
            return Ok(());
        }
        let mut k = 0;
        while k < self.n_local {
            let col = self.local_col(k);
            if let Some(pos) = self.eqs.iter().position(|r| r[col].abs() == 1) {
                let e = self.eqs.remove(pos);
                let s = e[col];
                // s*x + rest = 0 -> x = -s*rest
                let mut expr: Vec<i64> = e.iter().map(|&v| -s * v).collect();
                expr[col] = 0;
                self.substitute_col(col, &expr)?;
                self.drop_local(k);
                self.simplify()?;
                continue;
            }
            let in_eq = self.eqs.iter().any(|r| r[col] != 0);
            let lows: Vec<i64> = self.ineqs.iter().filter(|r| r[col] > 0).map(|r| r[col]).collect();
            let ups: Vec<i64> = self.ineqs.iter().filter(|r| r[col] < 0).map(|r| -r[col]).collect();
            if !in_eq && (lows.iter().all(|&a| a == 1) || ups.iter().all(|&a| a == 1)) {
                self.eliminate_col(col)?;
                self.n_local -= 1;
                self.simplify()?;
                continue;
            }
            k += 1;
        }
        if self.is_marked_empty() {
            self.n_local = 0;
            self.set_marked_empty_cols();
        }
        Ok(())
    }

    fn set_marked_empty_cols(&mut self) {
        let n = self.n_cols();
        let mut row = vec![0; n];
        row[0] = -1;
        self.eqs.clear();
        self.ineqs = vec![row];
    }

    /// Turns dimensions `first..first+n` into locals (existential quantification) and
    /// removes them from the space's tuple, then eliminates what can be eliminated
    /// exactly ([`BasicSet::simplify_locals`]). The integer points of the result are
    /// exactly the projections of the integer points of `self`.
    ///
    /// For a relation, dims are numbered input first; the tuple losing dimensions is
    /// the one that contains them (they must not straddle both tuples).
    pub fn project_out(&self, first: usize, n: usize) -> Result<BasicSet> {
        let sp = &self.space;
        let nd = sp.n_dim();
        if first + n > nd {
            return Err(Error::SpaceMismatch(format!("projecting dims {first}..{} of {nd}", first + n)));
        }
        let nin = sp.n_in();
        let mut space = sp.clone();
        if sp.is_map() && first < nin {
            if first + n > nin {
                return Err(Error::SpaceMismatch("projected dims straddle input and output".into()));
            }
            if let Some(t) = space.input.as_mut() {
                t.dims.drain(first..first + n);
            }
        } else {
            let o = first - nin;
            space.output.dims.drain(o..o + n);
        }
        let np = sp.n_param();
        let old_base = sp.n_cols();
        let new_base = space.n_cols();
        let mut map = vec![0; self.n_cols()];
        for (c, m) in map.iter_mut().enumerate().take(1 + np) {
            *m = c;
        }
        let mut next = 1 + np;
        for j in 0..nd {
            let c = 1 + np + j;
            if j >= first && j < first + n {
                map[c] = new_base + (j - first);
            } else {
                map[c] = next;
                next += 1;
            }
        }
        for k in 0..self.n_local {
            map[old_base + k] = new_base + n + k;
        }
        let mut out = self.remap(space, self.n_local + n, &map)?;
        out.simplify_locals()?;
        Ok(out)
    }

    /// Reverses a relation (`A -> B` becomes `B -> A`).
    pub fn reverse(&self) -> Result<BasicSet> {
        let space = self.space.reversed()?;
        let np = self.space.n_param();
        let (ni, no) = (self.space.n_in(), self.space.n_out());
        let mut map: Vec<usize> = (0..self.n_cols()).collect();
        for j in 0..ni {
            map[1 + np + j] = 1 + np + no + j;
        }
        for j in 0..no {
            map[1 + np + ni + j] = 1 + np + j;
        }
        self.remap(space, self.n_local, &map)
    }

    /// Domain of a relation (the set of its input tuple).
    pub fn domain(&self) -> Result<BasicSet> {
        let input = self.space.input.clone().ok_or_else(|| Error::WrongKind("domain needs a relation".into()))?;
        let p = self.project_out(self.space.n_in(), self.space.n_out())?;
        let space = Space { params: p.space.params.clone(), input: None, output: input };
        Ok(BasicSet { space, ..p })
    }

    /// Range of a relation (the set of its output tuple).
    pub fn range(&self) -> Result<BasicSet> {
        if !self.space.is_map() {
            return Err(Error::WrongKind("range needs a relation".into()));
        }
        let p = self.project_out(0, self.space.n_in())?;
        let space = Space { params: p.space.params.clone(), input: None, output: self.space.output.clone() };
        Ok(BasicSet { space, ..p })
    }

    /// Views a relation `A[x] -> B[y]` as a set over the tuple `name[x, y]`.
    pub fn wrap(&self, name: Option<String>) -> BasicSet {
        let space = Space { params: self.space.params.clone(), input: None, output: Tuple { name, dims: self.space.dim_names() } };
        BasicSet { space, ..self.clone() }
    }

    /// Applies a relation to a set: `{ y : exists x in self, (x, y) in map }`.
    pub fn apply(&self, map: &BasicMap) -> Result<BasicSet> {
        if self.space.is_map() {
            return self.compose(map);
        }
        let input = map.space.input.clone().ok_or_else(|| Error::WrongKind("apply needs a relation".into()))?;
        let params = self.space.merged_params(&map.space.params);
        let s = self.align_params(&params)?;
        let m = map.align_params(&params)?;
        if !s.space.output.same_shape(&input) {
            return Err(Error::SpaceMismatch(format!("set `{}` vs relation domain `{}`", s.space, input)));
        }
        // Build the relation with the set as extra constraints on its input, then take range.
        let as_map_space = m.space.clone();
        let np = params.len();
        let mut map_cols: Vec<usize> = (0..1 + np).collect();
        for j in 0..s.space.n_dim() {
            map_cols.push(1 + np + j);
        }
        let base = as_map_space.n_cols();
        for k in 0..s.n_local {
            map_cols.push(base + k);
        }
        let s_in_map = s.remap(as_map_space.clone(), s.n_local, &map_cols)?;
        let joined = s_in_map.intersect(&m)?;
        joined.range()
    }

    /// Composition of relations: `self: A -> B` then `other: B -> C` gives `A -> C`.
    pub fn compose(&self, other: &BasicMap) -> Result<BasicMap> {
        let params = self.space.merged_params(&other.space.params);
        let a = self.align_params(&params)?;
        let b = other.align_params(&params)?;
        let (ain, bin) = match (&a.space.input, &b.space.input) {
            (Some(x), Some(y)) => (x.clone(), y.clone()),
            _ => return Err(Error::WrongKind("compose needs two relations".into())),
        };
        if !a.space.output.same_shape(&bin) {
            return Err(Error::SpaceMismatch(format!("range `{}` vs domain `{}`", a.space.output, bin)));
        }
        let np = params.len();
        let (na, nb, nc) = (ain.len(), bin.len(), b.space.n_out());
        // Layout of the joint: [const, P, A, C | B, locals_a, locals_b]
        let space = Space { params: params.clone(), input: Some(ain), output: b.space.output.clone() };
        let base = space.n_cols();
        let nl = nb + a.n_local + b.n_local;
        let mut ma: Vec<usize> = (0..1 + np + na).collect();
        ma.extend((0..nb).map(|j| base + j));
        ma.extend((0..a.n_local).map(|k| base + nb + k));
        let mut mb: Vec<usize> = (0..1 + np).collect();
        mb.extend((0..nb).map(|j| base + j));
        mb.extend((0..nc).map(|j| 1 + np + na + j));
        mb.extend((0..b.n_local).map(|k| base + nb + a.n_local + k));
        let mut out = a.remap(space.clone(), nl, &ma)?;
        let bb = b.remap(space, nl, &mb)?;
        out.eqs.extend(bb.eqs);
        out.ineqs.extend(bb.ineqs);
        out.simplify_locals()?;
        Ok(out)
    }

    /// Fixes the parameters to concrete values: the result has no parameters.
    pub fn fix_params(&self, values: &[i64]) -> Result<BasicSet> {
        let np = self.space.n_param();
        if values.len() != np {
            return Err(Error::ParamValues(format!("{} parameters ({}) but {} values", np, self.space.params.join(", "), values.len())));
        }
        let fix = |r: &Vec<i64>| -> Result<Vec<i64>> {
            let mut c = r[0] as i128;
            for (i, &v) in values.iter().enumerate() {
                c = c.checked_add(r[1 + i] as i128 * v as i128).ok_or_else(|| ovf("fixing parameters"))?;
            }
            let mut o = vec![int::to_i64(c, "fixing parameters")?];
            o.extend_from_slice(&r[1 + np..]);
            Ok(o)
        };
        let mut out = BasicSet {
            space: self.space.with_params(vec![]),
            n_local: self.n_local,
            eqs: self.eqs.iter().map(fix).collect::<Result<_>>()?,
            ineqs: self.ineqs.iter().map(fix).collect::<Result<_>>()?,
        };
        out.simplify()?;
        Ok(out)
    }

    /// The set of differences `{ y - x : (x, y) in self }` of a relation whose input and
    /// output have the same arity (isl's `deltas`; Darte et al. 2015, Sec. 3.2 "conflicting differences").
    pub fn deltas(&self) -> Result<BasicSet> {
        let input = self.space.input.clone().ok_or_else(|| Error::WrongKind("deltas needs a relation".into()))?;
        let n = input.len();
        if n != self.space.n_out() {
            return Err(Error::SpaceMismatch("deltas needs input and output of the same arity".into()));
        }
        let np = self.space.n_param();
        // New layout: [const, P, d (n) | x (n), y (n), locals]; constraint d = y - x.
        let dims: Vec<String> = self.space.output.dims.iter().map(|d| format!("d{d}")).collect();
        let space = Space { params: self.space.params.clone(), input: None, output: Tuple { name: None, dims } };
        let base = space.n_cols();
        let mut map: Vec<usize> = (0..1 + np).collect();
        map.extend((0..2 * n).map(|j| base + j));
        map.extend((0..self.n_local).map(|k| base + 2 * n + k));
        let mut out = self.remap(space, self.n_local + 2 * n, &map)?;
        for j in 0..n {
            let mut r = vec![0; out.n_cols()];
            r[1 + np + j] = 1;
            r[base + j] = 1; // + x
            r[base + n + j] = -1; // - y
            out.eqs.push(r);
        }
        out.simplify_locals()?;
        Ok(out)
    }

    /// Constraint rows with all local columns zero can be turned into [`Constraint`]s;
    /// this returns those (the rows mentioning locals are skipped).
    pub fn constraints_without_locals(&self) -> Vec<Constraint> {
        let base = self.space.n_cols();
        let conv = |r: &Vec<i64>, kind| Constraint { aff: AffExpr { coeffs: r[..base].to_vec() }, kind };
        self.eqs
            .iter()
            .filter(|r| r[base..].iter().all(|&c| c == 0))
            .map(|r| conv(r, ConstraintKind::Eq))
            .chain(self.ineqs.iter().filter(|r| r[base..].iter().all(|&c| c == 0)).map(|r| conv(r, ConstraintKind::Ge)))
            .collect()
    }

    /// Renames the tuples (and dimension names) keeping the arity.
    pub fn with_space(&self, space: Space) -> Result<BasicSet> {
        if space.n_param() != self.space.n_param() || space.n_in() != self.space.n_in() || space.n_out() != self.space.n_out() {
            return Err(Error::SpaceMismatch(format!("cannot rename `{}` to `{}`", self.space, space)));
        }
        Ok(BasicSet { space, ..self.clone() })
    }
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
            p.eliminate_col(col)?;
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
            let mut others: Vec<Vec<i64>> = self.ineqs.iter().enumerate().filter(|(j, _)| *j != k).map(|(_, r)| r.clone()).collect();
            let mut neg: Vec<i64> = self.ineqs[k].iter().map(|v| -v).collect();
            neg[0] = int::add(neg[0], -1)?;
            others.push(neg);
            if fm::rationally_empty(&self.eqs, &others)? {
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
        fm::rationally_empty(&self.eqs, &self.ineqs)
    }
}

impl BasicSet {
    /// Eliminates column `col` from the rows of `b` (rational Fourier–Motzkin: the rational
    /// shadow, integer-tightened by row normalisation) and removes the column. The caller
    /// adjusts the space or local count. Equalities mentioning the column are used first.
    pub(crate) fn eliminate_col(&mut self, col: usize) -> Result<()> {
        let (eqs, ineqs) = fm::eliminate_rows(&self.eqs, &self.ineqs, col)?;
        self.eqs = eqs;
        self.ineqs = ineqs;
        BasicSet::drop_col_rows(&mut self.eqs, col);
        BasicSet::drop_col_rows(&mut self.ineqs, col);
        Ok(())
    }
}

impl BasicSet {
    /// Sound integer emptiness test without a solver (exact unit substitutions, gcd
    /// tests, integer-tightened Fourier–Motzkin). `true` proves the set has no integer
    /// point for any parameter value; `false` proves nothing.
    pub fn is_obviously_empty(&self) -> Result<bool> {
        fm::integer_quick_empty(&self.eqs, &self.ineqs)
    }
}
