//! The folded SCoP at the instance: where each folded array's cells go (its
//! [`Placement`]) and the access relations that say so to Polly.
//!
//! Two placements, as the function's code allows:
//!
//! * **a new array** for a scratch array (nothing of it lives after the SCoP): every
//!   access `S[i] -> A[g(i)]` becomes `S[i] -> A'[(M g(i)) mod e]`, `A'` a new array of
//!   the moduli's sizes that Polly allocates on the heap for the SCoP's run
//!   (`"allocation": "heap"`); the old array is no longer touched, so its pages are
//!   never faulted in;
//! * **in place** for an array the caller owns, whose live-out cells the user narrowed:
//!   the cells the SCoP writes and the caller does not read afterwards (`C`) are folded
//!   onto a box of the same array, `A[(M x) mod e + offset]`; every other cell (the
//!   live-out cells, and the cells the SCoP only reads, its inputs) stays where the
//!   original program keeps it. One access relation names one array (Polly's rule), so
//!   each access is a piecewise relation of the same array: `A[g(i)]` where `g(i)` is
//!   not in `C`, the folded place where it is. `C` is computed symbolically (the images
//!   of the writes minus the live-out set) for the relation's text, and checked cell by
//!   cell against the cells the SCoP writes at the instance.
//!
//! Neither placement is trusted: [`crate::check`] runs the program with it and compares
//! every value read and every live-out value before Polly sees the file.

use crate::error::FoldError;
use polyalloc_formulation::{format_linear, AffExpr, BasicSet, ModularMapping, Set, Space, Tuple};
use polyalloc_program::compiled::{self, AccessAt};
use polyalloc_program::{Access, Program};
use std::collections::BTreeMap;

/// An axis-aligned box of cells (`lo <= x <= hi`), with row-major indices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CellBox {
    pub lo: Vec<i64>,
    pub hi: Vec<i64>,
}

impl CellBox {
    /// Number of cells (0 for an empty box).
    pub fn len(&self) -> u128 {
        self.lo.iter().zip(&self.hi).map(|(l, h)| (*h as i128 - *l as i128 + 1).max(0) as u128).fold(1u128, |a, b| a.saturating_mul(b))
    }
    /// True when the box has no cell.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The row-major index of `cell`, `None` outside the box.
    pub fn index(&self, cell: &[i64]) -> Option<usize> {
        let mut idx: u128 = 0;
        for ((c, l), h) in cell.iter().zip(&self.lo).zip(&self.hi) {
            if c < l || c > h {
                return None;
            }
            idx = idx.saturating_mul((*h as i128 - *l as i128 + 1) as u128).saturating_add((*c as i128 - *l as i128) as u128);
        }
        usize::try_from(idx).ok()
    }
    /// True when `cell` lies in the box.
    pub fn contains(&self, cell: &[i64]) -> bool {
        cell.len() == self.lo.len() && cell.iter().zip(&self.lo).zip(&self.hi).all(|((c, l), h)| l <= c && c <= h)
    }
}

/// Most cells of an array's box [`Cells`] keeps flags for (64 M: 64 MB of flags).
pub const MAX_BOX_CELLS: u128 = 1 << 26;

/// Most instances of one statement whose accesses are visited (streamed, not stored)
/// to find the cells of an array and to check a folding's relations.
pub const MAX_STATEMENT_INSTANCES: usize = 2_000_000;

const ACCESSED: u8 = 1;
const WRITTEN: u8 = 2;
const LIVE_OUT: u8 = 4;

/// What the SCoP does with each cell of one array at the instance.
#[derive(Clone, Debug)]
pub struct Cells {
    /// The box of the accessed cells.
    pub bbox: CellBox,
    flags: Vec<u8>,
}

impl Cells {
    fn flag(&self, cell: &[i64], f: u8) -> bool {
        self.bbox.index(cell).is_some_and(|k| self.flags[k] & f != 0)
    }
    /// Every accessed cell in row-major order, without allocating: `f(index in the
    /// box, cell)`, false to stop.
    pub fn for_each_accessed<E>(&self, mut f: impl FnMut(usize, &[i64]) -> Result<bool, E>) -> Result<(), E> {
        let n = self.bbox.lo.len();
        if self.flags.is_empty() {
            return Ok(());
        }
        // An odometer over the box, in row-major order.
        let mut c = self.bbox.lo.clone();
        for (k, fl) in self.flags.iter().enumerate() {
            if k > 0 {
                for d in (0..n).rev() {
                    if c[d] < self.bbox.hi[d] {
                        c[d] += 1;
                        break;
                    }
                    c[d] = self.bbox.lo[d];
                }
            }
            if fl & ACCESSED != 0 && !f(k, &c)? {
                return Ok(());
            }
        }
        Ok(())
    }
    /// True for a cell some statement reads or writes.
    pub fn accessed(&self, cell: &[i64]) -> bool {
        self.flag(cell, ACCESSED)
    }
    /// True for a cell some statement writes.
    pub fn written(&self, cell: &[i64]) -> bool {
        self.flag(cell, WRITTEN)
    }
    /// True for a live-out cell.
    pub fn live_out(&self, cell: &[i64]) -> bool {
        self.flag(cell, LIVE_OUT)
    }
    /// True for a cell an in-place folding folds: written by the SCoP and not read by
    /// the caller afterwards.
    pub fn folds(&self, cell: &[i64]) -> bool {
        self.bbox.index(cell).is_some_and(|k| self.flags[k] & (WRITTEN | LIVE_OUT) == WRITTEN)
    }
    /// Number of accessed cells.
    pub fn n_accessed(&self) -> usize {
        self.flags.iter().filter(|f| **f & ACCESSED != 0).count()
    }
    /// Number of written cells.
    pub fn n_written(&self) -> usize {
        self.flags.iter().filter(|f| **f & WRITTEN != 0).count()
    }
    /// Every accessed cell, in row-major order.
    pub fn accessed_cells(&self) -> impl Iterator<Item = Vec<i64>> + '_ {
        let n = self.bbox.lo.len();
        let ext: Vec<i64> = self.bbox.lo.iter().zip(&self.bbox.hi).map(|(l, h)| h - l + 1).collect();
        self.flags.iter().enumerate().filter(|(_, f)| **f & ACCESSED != 0).map(move |(k, _)| {
            let mut c = vec![0; n];
            let mut r = k as i64;
            for d in (0..n).rev() {
                c[d] = self.bbox.lo[d] + r % ext[d];
                r /= ext[d];
            }
            c
        })
    }
}

/// The values of the parameters of `space` (in its order) from the program's.
pub fn stmt_params(program: &Program, space: &Space, params: &[i64]) -> Result<Vec<i64>, FoldError> {
    Ok(polyalloc_program::order::params_of(program, &space.params, params)?)
}

/// Visits every access of `array` at the instance: `f(is write, cell)`, in the order
/// of the statements, their iterations, and their writes then reads.
fn for_each_access(program: &Program, params: &[i64], array: &str, f: &mut dyn FnMut(bool, &[i64])) -> Result<(), FoldError> {
    for s in &program.statements {
        let sp = stmt_params(program, s.domain.space(), params)?;
        let m = s.domain.space().n_dim();
        let acc: Vec<(AccessAt<'_>, bool)> = s
            .writes
            .iter()
            .map(|a| (a, true))
            .chain(s.reads.iter().map(|a| (a, false)))
            .filter(|(a, _)| a.array == array)
            .map(|(a, w)| (AccessAt::new(a, &sp, m), w))
            .collect();
        if acc.is_empty() {
            continue;
        }
        let mut count = 0usize;
        let mut cell: Vec<i64> = Vec::new();
        compiled::for_each_point(&s.domain, &sp, &mut |it| {
            count += 1;
            if count > MAX_STATEMENT_INSTANCES {
                return Ok(false);
            }
            for (a, w) in &acc {
                if !a.happens_at(it)? {
                    continue;
                }
                a.cell_into(it, &mut cell)?;
                f(*w, &cell);
            }
            Ok(true)
        })?;
        if count > MAX_STATEMENT_INSTANCES {
            return Err(FoldError::Input(format!(
                "statement `{}` has more than {} instances: too many to check a folding",
                s.name, MAX_STATEMENT_INSTANCES
            )));
        }
    }
    Ok(())
}

/// The cells of `array` at the instance, with the live-out flags of `live_out` (cells
/// of the array, over the program's parameters): [`cell_box`], then [`cells_in`].
pub fn cells_of(program: &Program, params: &[i64], array: &str, live_out: Option<&Set>) -> Result<Cells, FoldError> {
    let bbox = cell_box(program, params, array)?;
    cells_in(program, params, array, bbox, live_out)
}

/// The box of the cells of `array` the SCoP accesses at the instance (empty sides when
/// it accesses none), with the errors of [`cells_of`] but the live-out set's: more than
/// [`MAX_STATEMENT_INSTANCES`] instances of a statement, an access that overflows,
/// more than [`MAX_BOX_CELLS`] cells. Row by row: an access without a guard is affine
/// along a row, so its extreme cells are at the row's ends (and no cell between
/// overflows when they do not).
pub fn cell_box(program: &Program, params: &[i64], array: &str) -> Result<CellBox, FoldError> {
    let mut lo: Vec<i64> = Vec::new();
    let mut hi: Vec<i64> = Vec::new();
    let mut grow = |c: &[i64]| {
        if lo.is_empty() {
            lo = c.to_vec();
            hi = c.to_vec();
        } else {
            for d in 0..c.len().min(lo.len()) {
                lo[d] = lo[d].min(c[d]);
                hi[d] = hi[d].max(c[d]);
            }
        }
    };
    for s in &program.statements {
        let sp = stmt_params(program, s.domain.space(), params)?;
        let m = s.domain.space().n_dim();
        let acc: Vec<AccessAt<'_>> = s.writes.iter().chain(&s.reads).filter(|a| a.array == array).map(|a| AccessAt::new(a, &sp, m)).collect();
        if acc.is_empty() {
            continue;
        }
        // The instances up to the limit, as `for_each_access` visits them.
        let refs: Vec<&AccessAt<'_>> = acc.iter().collect();
        let over = compiled::for_each_box_cell(&s.domain, &sp, &refs, MAX_STATEMENT_INSTANCES, &mut grow)? > MAX_STATEMENT_INSTANCES;
        if over {
            return Err(FoldError::Input(format!(
                "statement `{}` has more than {} instances: too many to check a folding",
                s.name, MAX_STATEMENT_INSTANCES
            )));
        }
    }
    let bbox = CellBox { lo, hi };
    if bbox.len() > MAX_BOX_CELLS {
        return Err(FoldError::Input(format!("array `{array}` spans {} cells, more than the {MAX_BOX_CELLS} a folding is checked for", bbox.len())));
    }
    Ok(bbox)
}

/// The cells of `array` in `bbox` (its [`cell_box`]) that the SCoP reads and writes,
/// with the live-out flags of `live_out`.
pub fn cells_in(program: &Program, params: &[i64], array: &str, bbox: CellBox, live_out: Option<&Set>) -> Result<Cells, FoldError> {
    let mut flags = vec![0u8; bbox.len() as usize];
    for_each_access(program, params, array, &mut |w, c| {
        if let Some(k) = bbox.index(c) {
            flags[k] |= ACCESSED | if w { WRITTEN } else { 0 };
        }
    })?;
    let mut cells = Cells { bbox, flags };
    if let Some(set) = live_out {
        let sp = stmt_params(program, set.space(), params)?;
        let set = compiled::SetAt::new(set, &sp);
        let mut live: Vec<usize> = Vec::new();
        cells.for_each_accessed(|k, c| -> Result<bool, FoldError> {
            if set.contains(c)? {
                live.push(k);
            }
            Ok(true)
        })?;
        for k in live {
            cells.flags[k] |= LIVE_OUT;
        }
    }
    Ok(cells)
}

/// One storage row at the instance: `(h . x) mod m`, or `h . x - shift` when unfolded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub coeffs: Vec<i64>,
    pub modulus: Option<i64>,
    /// Subtracted from an unfolded row (its least value over the folded cells).
    pub shift: i64,
    /// Number of values the row takes: the modulus, or the unfolded row's range.
    pub extent: i64,
}

impl Row {
    /// `h . x`, saturated at the `i64` range: a placement is never trusted, the checks
    /// of [`crate::check`] refuse a wrong one, and arithmetic never panics.
    fn dot(&self, cell: &[i64]) -> i64 {
        let v: i128 = self.coeffs.iter().zip(cell).map(|(a, b)| *a as i128 * *b as i128).sum();
        v.clamp(i64::MIN as i128, i64::MAX as i128) as i64
    }
    /// The row's value at `cell`, in `0..extent`.
    pub fn value(&self, cell: &[i64]) -> i64 {
        match self.modulus {
            Some(m) => self.dot(cell).rem_euclid(m),
            None => self.dot(cell).saturating_sub(self.shift),
        }
    }
}

/// The rows of `mapping` at the instance `at` (parameter values by name), unfolded rows
/// shifted to start at 0 over the accessed cells of `cells` that `select` takes (the
/// cells the mapping places).
pub fn rows_at(mapping: &ModularMapping, at: &BTreeMap<String, i64>, cells: &Cells, select: &dyn Fn(&[i64]) -> bool) -> Result<Vec<Row>, FoldError> {
    let values: Vec<i64> = mapping
        .params
        .iter()
        .map(|p| at.get(p).copied().ok_or_else(|| FoldError::Input(format!("no value for parameter `{p}` of the mapping"))))
        .collect::<Result<_, _>>()?;
    let moduli = mapping.moduli(&values)?;
    let mut rows = Vec::new();
    for (r, m) in mapping.rows.iter().zip(moduli) {
        let mut row = Row { coeffs: r.hyperplane.clone(), modulus: m, shift: 0, extent: 1 };
        match m {
            Some(m) if m >= 1 => row.extent = m,
            Some(m) => return Err(FoldError::Input(format!("modulus {m} at the instance"))),
            None => {
                let mut range: Option<(i64, i64)> = None;
                cells.for_each_accessed(|_, c| -> Result<bool, FoldError> {
                    if select(c) {
                        let v = row.dot(c);
                        range = Some(range.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))));
                    }
                    Ok(true)
                })?;
                let (lo, hi) = range.unwrap_or((0, 0));
                row.shift = lo;
                row.extent = hi.saturating_sub(lo).saturating_add(1);
            }
        }
        rows.push(row);
    }
    Ok(rows)
}

/// Where one folded array's cells go.
#[derive(Clone, Debug)]
pub enum Placement {
    /// Every cell to a new array (Polly's name, sizes = the rows' extents).
    NewArray { memref: String, sizes: Vec<i64> },
    /// The cells of `folded` to the same array, the others kept.
    InPlace {
        /// Where in the array the folded cells go.
        layout: Layout,
        /// The folded cells `C` (cells of the array, no parameters).
        folded: Box<Set>,
        /// The other cells (the complement of `folded`).
        kept: Box<Set>,
    },
}

/// Where an in-place array's folded cells go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Layout {
    /// Row `k` of the mapping in dimension `k` of the array, plus `offset` (one per
    /// array dimension; dimensions beyond the rows take their offset).
    PerDim { offset: Vec<i64> },
    /// The rows' values as one row-major index from `base`, laid out in the array's
    /// box (`lo`, `ext`) in row-major order: for a mapping whose rows do not fit the
    /// array's dimensions one by one (`(t - i) mod 1501` in rows of 1500).
    Linear { base: i64, lo: Vec<i64>, ext: Vec<i64> },
}

impl Layout {
    /// [`Layout::locate`] of the values of `rows` at `cell` (their extents), appended
    /// to `out`.
    fn locate_rows(&self, rows: &[Row], cell: &[i64], out: &mut Vec<i64>) {
        match self {
            Layout::PerDim { offset } => {
                for (k, r) in rows.iter().enumerate() {
                    let x = r.value(cell);
                    out.push(match offset.get(k) {
                        Some(o) => o.saturating_add(x),
                        None => x,
                    });
                }
                out.extend(offset.iter().skip(rows.len()));
            }
            Layout::Linear { base, lo, ext } => {
                // Row-major index of the row values.
                let mut idx = 0i64;
                for r in rows {
                    idx = idx.saturating_mul(r.extent).saturating_add(r.value(cell));
                }
                let mut l = base.saturating_add(idx);
                let start = out.len();
                out.resize(start + lo.len(), 0);
                for d in (0..lo.len()).rev() {
                    if d == 0 {
                        out[start] = lo[0].saturating_add(l);
                    } else {
                        let e = ext[d].max(1);
                        out[start + d] = lo[d].saturating_add(l.rem_euclid(e));
                        l = l.div_euclid(e);
                    }
                }
            }
        }
    }

    /// The location of the row values `v` (of extents `extents`).
    pub fn locate(&self, v: &[i64], extents: &[i64]) -> Vec<i64> {
        match self {
            Layout::PerDim { offset } => {
                let mut loc = offset.clone();
                for (k, x) in v.iter().enumerate() {
                    if k < loc.len() {
                        loc[k] = loc[k].saturating_add(*x);
                    } else {
                        loc.push(*x);
                    }
                }
                loc
            }
            Layout::Linear { base, lo, ext } => {
                let mut l = *base;
                // Row-major index of the row values.
                let mut idx = 0i64;
                for (x, e) in v.iter().zip(extents) {
                    idx = idx.saturating_mul(*e).saturating_add(*x);
                }
                l = l.saturating_add(idx);
                let mut loc = vec![0i64; lo.len()];
                for d in (0..lo.len()).rev() {
                    if d == 0 {
                        loc[d] = lo[d].saturating_add(l);
                    } else {
                        let e = ext[d].max(1);
                        loc[d] = lo[d].saturating_add(l.rem_euclid(e));
                        l = l.div_euclid(e);
                    }
                }
                loc
            }
        }
    }
}

/// One folded array.
#[derive(Clone, Debug)]
pub struct ArrayFold {
    /// The C name (the program's array).
    pub array: String,
    /// Polly's name.
    pub memref: String,
    /// The mapping, as verified.
    pub mapping: ModularMapping,
    /// Its rows at the instance.
    pub rows: Vec<Row>,
    pub placement: Placement,
}

impl ArrayFold {
    /// Where `cell` goes: `(Polly array, index)` (`None`: it stays). `in_c` says
    /// whether an in-place array folds the cell (from the cell facts, not `folded`'s
    /// text: the two are compared separately).
    pub fn place(&self, cell: &[i64], in_c: bool) -> Option<(String, Vec<i64>)> {
        let mut loc = Vec::new();
        self.locate_into(cell, in_c, &mut loc).then(|| (self.target().to_string(), loc))
    }

    /// The Polly array the folded cells go to.
    pub fn target(&self) -> &str {
        match &self.placement {
            Placement::NewArray { memref, .. } => memref,
            Placement::InPlace { .. } => &self.memref,
        }
    }

    /// [`ArrayFold::place`] without allocating: appends the index of `cell` in
    /// [`ArrayFold::target`] to `out`; false (nothing appended) when the cell stays.
    pub fn locate_into(&self, cell: &[i64], in_c: bool, out: &mut Vec<i64>) -> bool {
        match &self.placement {
            Placement::NewArray { .. } => {
                out.extend(self.rows.iter().map(|r| r.value(cell)));
                true
            }
            Placement::InPlace { layout, .. } => {
                if !in_c {
                    return false;
                }
                layout.locate_rows(&self.rows, cell, out);
                true
            }
        }
    }

    /// Number of cells the folded program uses for this array: the new array's, or
    /// the kept cells the SCoP accesses plus the folded box.
    pub fn cells_used(&self, cells: &Cells) -> u128 {
        let folded: u128 = self.rows.iter().map(|r| r.extent.max(0) as u128).fold(1u128, |a, b| a.saturating_mul(b));
        match &self.placement {
            Placement::NewArray { .. } => folded,
            Placement::InPlace { .. } => {
                let mut kept = 0u128;
                let _ = cells.for_each_accessed(|_, c| -> Result<bool, ()> {
                    kept += u128::from(!cells.folds(c));
                    Ok(true)
                });
                kept + folded
            }
        }
    }
}

/// Equalities and inequalities, rows over `[1, dims]`.
type Rows = (Vec<Vec<i64>>, Vec<Vec<i64>>);

/// Rows of a basic set without parameters or locals, over `[1, dims]`.
fn plain_rows(b: &BasicSet, params: &[i64]) -> Result<Option<Rows>, FoldError> {
    if b.n_local() > 0 {
        return Ok(None);
    }
    let np = b.space().n_param();
    if params.len() != np {
        return Err(FoldError::Input("parameter values do not match the set".into()));
    }
    let fold = |r: &Vec<i64>| -> Vec<i64> {
        let mut out = vec![r[1..1 + np].iter().zip(params).fold(r[0], |acc, (a, v)| acc.saturating_add(a.saturating_mul(*v)))];
        out.extend_from_slice(&r[1 + np..]);
        out
    };
    Ok(Some((b.equalities().iter().map(fold).collect(), b.inequalities().iter().map(fold).collect())))
}

/// A cell set of `array` (`n` dimensions, no parameters) from rows over `[1, dims]`.
fn cell_set(array: &str, n: usize, eqs: &[Vec<i64>], ineqs: &[Vec<i64>]) -> Result<BasicSet, FoldError> {
    let names: Vec<String> = (0..n).map(|k| format!("c{k}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut b = BasicSet::universe(Space::set(&[], Tuple::new(array, &refs)));
    for r in eqs {
        b.add_eq_row(r.clone())?;
    }
    for r in ineqs {
        b.add_ineq_row(r.clone())?;
    }
    Ok(b)
}

/// Most pieces a complement may have before the in-place placement gives up.
const MAX_PIECES: usize = 256;

/// The complement of a union of basic sets without locals (over the cells' space).
fn complement(array: &str, n: usize, pieces: &[BasicSet]) -> Result<Option<Vec<BasicSet>>, FoldError> {
    let mut acc = vec![cell_set(array, n, &[], &[])?];
    for p in pieces {
        let mut negs: Vec<Vec<i64>> = Vec::new();
        for r in p.equalities() {
            let mut a = r.clone();
            a[0] -= 1; // r >= 1
            negs.push(a);
            let mut b: Vec<i64> = r.iter().map(|v| -v).collect();
            b[0] -= 1; // r <= -1
            negs.push(b);
        }
        for r in p.inequalities() {
            let mut b: Vec<i64> = r.iter().map(|v| -v).collect();
            b[0] -= 1;
            negs.push(b);
        }
        let mut next = Vec::new();
        for a in &acc {
            for neg in &negs {
                let mut b = a.clone();
                b.add_ineq_row(neg.clone())?;
                b.simplify()?;
                if b.is_marked_empty() || b.is_rationally_empty()? {
                    continue;
                }
                next.push(b);
            }
        }
        if next.len() > MAX_PIECES {
            return Ok(None);
        }
        acc = next;
    }
    Ok(Some(acc))
}

/// The folded cells `C` of an in-place array, symbolically: the images of the writes of
/// `array` minus the live-out set, and the complement, over the cells (no parameters).
/// `None` when an image or the live-out set needs existential variables or the
/// complement is too large.
pub fn folded_sets(program: &Program, params: &[i64], array: &str, n: usize, live_out: Option<&Set>) -> Result<Option<(Set, Set)>, FoldError> {
    let names: Vec<String> = (0..n).map(|k| format!("c{k}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let space = Space::set(&[], Tuple::new(array, &refs));
    let mut images: Vec<BasicSet> = Vec::new();
    for s in &program.statements {
        for w in s.writes.iter().filter(|a| a.array == array) {
            let sp = stmt_params(program, s.domain.space(), params)?;
            let m = s.domain.space().n_dim();
            for d in s.domain.pieces() {
                // [1, c, i] with the iterations as locals: domain, guard, c = g(i).
                let mut b = BasicSet::universe(space.clone());
                for _ in 0..m {
                    b.add_local();
                }
                let embed = |rows: &[Vec<i64>]| -> Vec<Vec<i64>> {
                    rows.iter()
                        .map(|r| {
                            let mut o = vec![0i64; 1 + n + m];
                            o[0] = r[0];
                            o[1 + n..].copy_from_slice(&r[1..1 + m]);
                            o
                        })
                        .collect()
                };
                let Some((de, di)) = plain_rows(d, &sp)? else { return Ok(None) };
                let (mut eqs, mut ineqs) = (embed(&de), embed(&di));
                if let Some(g) = &w.guard {
                    let Some((ge, gi)) = plain_rows(g, &sp)? else { return Ok(None) };
                    eqs.extend(embed(&ge));
                    ineqs.extend(embed(&gi));
                }
                for (k, e) in w.index.iter().enumerate() {
                    let r = aff_at(e, s.domain.space().n_param(), &sp);
                    // r = e(i) over [1, i]; c_k - e(i) = 0.
                    let mut o = vec![0i64; 1 + n + m];
                    o[0] = -r[0];
                    o[1 + k] = 1;
                    for j in 0..m {
                        o[1 + n + j] = -r[1 + j];
                    }
                    eqs.push(o);
                }
                for r in eqs {
                    b.add_eq_row(r)?;
                }
                for r in ineqs {
                    b.add_ineq_row(r)?;
                }
                b.simplify_locals()?;
                if b.is_marked_empty() {
                    continue;
                }
                if b.n_local() > 0 {
                    return Ok(None);
                }
                images.push(b);
            }
        }
    }
    let mut c_pieces = images;
    if let Some(lo) = live_out {
        let sp = stmt_params(program, lo.space(), params)?;
        let mut lpieces = Vec::new();
        for p in lo.pieces() {
            let Some((e, i)) = plain_rows(p, &sp)? else { return Ok(None) };
            lpieces.push(cell_set(array, n, &e, &i)?);
        }
        let Some(not_l) = complement(array, n, &lpieces)? else { return Ok(None) };
        let mut next = Vec::new();
        for w in &c_pieces {
            for nl in &not_l {
                let mut b = w.clone();
                for r in nl.equalities() {
                    b.add_eq_row(r.clone())?;
                }
                for r in nl.inequalities() {
                    b.add_ineq_row(r.clone())?;
                }
                b.simplify()?;
                if !(b.is_marked_empty() || b.is_rationally_empty()?) {
                    next.push(b);
                }
            }
        }
        if next.len() > MAX_PIECES {
            return Ok(None);
        }
        c_pieces = next;
    }
    let Some(kept) = complement(array, n, &c_pieces)? else { return Ok(None) };
    Ok(Some((Set::from_pieces(space.clone(), c_pieces)?, Set::from_pieces(space, kept)?)))
}

/// `e` (over a statement space with `np` parameters) at the parameter values
/// `params`, as a row over `[1, iterators]`.
fn aff_at(e: &AffExpr, np: usize, params: &[i64]) -> Vec<i64> {
    let mut out = vec![e.coeffs[1..1 + np].iter().zip(params).fold(e.coeffs[0], |acc, (a, v)| acc.saturating_add(a.saturating_mul(*v)))];
    out.extend_from_slice(&e.coeffs[1 + np..]);
    out
}

/// The JSCoP text of one access of a folded array: the access `acc` of a statement
/// whose domain space is `space` (Polly's statement name `stmt`), at the instance.
pub fn relation_text(fold: &ArrayFold, stmt: &str, space: &Space, params: &[i64], acc: &Access, scop_params: &[String]) -> Result<String, FoldError> {
    let m = space.n_dim();
    let it: Vec<String> = (0..m).map(|k| format!("i{k}")).collect();
    let n_out = match &fold.placement {
        Placement::NewArray { sizes, .. } => sizes.len(),
        Placement::InPlace { layout: Layout::PerDim { offset }, .. } => offset.len(),
        Placement::InPlace { layout: Layout::Linear { lo, .. }, .. } => lo.len(),
    };
    let out: Vec<String> = (0..n_out).map(|k| format!("o{k}")).collect();
    // g(i) over [1, i] at the instance.
    let g: Vec<Vec<i64>> = acc.index.iter().map(|e| aff_at(e, space.n_param(), params)).collect();
    let lin = |row: &[i64]| format_linear(&row[1..], &it, row[0], "*");
    // A row over the cells [1, c] as a row over [1, i] through c = g(i).
    let through = |r: &[i64]| -> Vec<i64> {
        let mut o = vec![r[0]; 1];
        o.extend(std::iter::repeat_n(0, m));
        for (k, gk) in g.iter().enumerate() {
            for j in 0..=m {
                o[j] = o[j].saturating_add(r[1 + k].saturating_mul(gk[j]));
            }
        }
        o
    };
    let mut guard: Vec<String> = Vec::new();
    if let Some(gd) = &acc.guard {
        let (e, i) = plain_rows(gd, params)?.ok_or_else(|| FoldError::Input("an access guard with existential variables".into()))?;
        guard.extend(e.iter().map(|r| format!("{} = 0", lin(r))));
        guard.extend(i.iter().map(|r| format!("{} >= 0", lin(r))));
    }
    // A row's `h . g(i)` over [1, i].
    let through_hyperplane = |r: &Row| -> Vec<i64> {
        let mut row = vec![0i64; m + 1];
        for (d, &h) in r.coeffs.iter().enumerate() {
            for j in 0..=m {
                row[j] = row[j].saturating_add(h.saturating_mul(g[d][j]));
            }
        }
        row
    };
    // The rows' values `h . g(i) mod e` (or shifted) as linear text with quotients.
    let row_values = || -> (Vec<String>, Vec<String>, Vec<String>) {
        let (mut vals, mut cons, mut q) = (Vec::new(), Vec::new(), Vec::new());
        for (k, r) in fold.rows.iter().enumerate() {
            let mut row = through_hyperplane(r);
            match r.modulus {
                Some(e) => {
                    let qk = format!("q{k}");
                    let v = format!("({} - {e}*{qk})", lin(&row));
                    cons.push(format!("0 <= {v} <= {}", e - 1));
                    vals.push(v);
                    q.push(qk);
                }
                None => {
                    row[0] = row[0].saturating_sub(r.shift);
                    vals.push(format!("({})", lin(&row)));
                }
            }
        }
        (vals, cons, q)
    };
    let linear_cons = |base: i64, lo: &[i64], ext: &[i64]| -> Vec<String> {
        let (vals, mut cons, q) = row_values();
        // base + row-major index of the values = row-major index of (o - lo) in the box.
        let extents: Vec<i64> = fold.rows.iter().map(|r| r.extent).collect();
        let mut terms = vec![base.to_string()];
        for (k, v) in vals.iter().enumerate() {
            let stride: i64 = extents[k + 1..].iter().fold(1i64, |a, b| a.saturating_mul(*b));
            terms.push(format!("{stride}*{v}"));
        }
        let mut oterms = Vec::new();
        for (d, o) in out.iter().enumerate() {
            let stride: i64 = ext[d + 1..].iter().fold(1i64, |a, b| a.saturating_mul(*b));
            oterms.push(format!("{stride}*({o} - {})", lo[d]));
            if d > 0 {
                cons.push(format!("{} <= {o} <= {}", lo[d], lo[d].saturating_add(ext[d] - 1)));
            }
        }
        cons.push(format!("{} = {}", terms.join(" + "), oterms.join(" + ")));
        if q.is_empty() {
            cons
        } else {
            vec![format!("exists ({} : {})", q.join(", "), cons.join(" and "))]
        }
    };
    // Row k in dimension k plus its offset (the dimensions beyond the rows: the offset).
    let folded_cons = |offset: &[i64]| -> Vec<String> {
        let (vals, mut cons, q) = row_values();
        for (k, o) in out.iter().enumerate() {
            let off = offset.get(k).copied().unwrap_or(0);
            match vals.get(k) {
                Some(v) => cons.push(format!("{o} = {off} + {v}")),
                None => cons.push(format!("{o} = {off}")),
            }
        }
        if q.is_empty() {
            cons
        } else {
            vec![format!("exists ({} : {})", q.join(", "), cons.join(" and "))]
        }
    };
    let prefix = polyalloc_suite::jscop::params_prefix(scop_params);
    let head = |array: &str, outs: &[String]| format!("{stmt}[{}] -> {array}[{}]", it.join(", "), outs.join(", "));
    let mut pieces = Vec::new();
    match &fold.placement {
        Placement::NewArray { memref, .. } => {
            let mut cons = guard.clone();
            cons.extend(folded_cons(&[]));
            pieces.push(format!("{} : {}", head(memref, &out), cons.join(" and ")));
        }
        Placement::InPlace { layout, folded, kept } => {
            let kept_out: Vec<String> = g.iter().map(|r| lin(r)).collect();
            for p in kept.pieces() {
                let (e, i) = plain_rows(p, &[])?.ok_or_else(|| FoldError::Input("kept cells with existential variables".into()))?;
                let mut cons = guard.clone();
                cons.extend(e.iter().map(|r| format!("{} = 0", lin(&through(r)))));
                cons.extend(i.iter().map(|r| format!("{} >= 0", lin(&through(r)))));
                pieces.push(format!(
                    "{}{}",
                    head(&fold.memref, &kept_out),
                    if cons.is_empty() { String::new() } else { format!(" : {}", cons.join(" and ")) }
                ));
            }
            for p in folded.pieces() {
                let (e, i) = plain_rows(p, &[])?.ok_or_else(|| FoldError::Input("folded cells with existential variables".into()))?;
                let mut cons = guard.clone();
                cons.extend(e.iter().map(|r| format!("{} = 0", lin(&through(r)))));
                cons.extend(i.iter().map(|r| format!("{} >= 0", lin(&through(r)))));
                match layout {
                    Layout::PerDim { offset } => cons.extend(folded_cons(offset)),
                    Layout::Linear { base, lo, ext } => cons.extend(linear_cons(*base, lo, ext)),
                }
                pieces.push(format!("{} : {}", head(&fold.memref, &out), cons.join(" and ")));
            }
        }
    }
    Ok(format!("{prefix}{{ {} }}", pieces.join("; ")))
}
