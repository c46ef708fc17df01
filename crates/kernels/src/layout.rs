//! Storage layouts: where a kernel's array cell `x` lives in memory.
//!
//! Every kernel is written once against [`Layout`] (`offset` and `line` are
//! `#[inline(always)]`, and the kernels are monomorphised per layout type, so the index
//! function is inlined into the loops). The layouts:
//!
//! * [`Full`]: the totally expanded array (row-major over the bounding box of the array
//!   space) — the reference.
//! * [`Plain`]: a modular mapping exactly as a method returns it: every storage row
//!   computes `(h . x) mod e` with a Euclidean remainder on every access (Bhaskaracharya et al. 2016, Sec. 3).
//! * [`Tuned`]: the same mapping with the index-arithmetic mitigations of Bhaskaracharya et al. 2016, Sec. 5,
//!   chosen per row from the row's value range over the array space ([`RowOp`]); when
//!   every row is `Base` the kernel gets [`Linear`] (one affine index), when every row
//!   is `Base` or `Mask` it gets the branch-free [`Masked`].
//! * [`Stepped`]: the tuned mapping with the index arithmetic of the innermost loop
//!   strength-reduced ([`LineOp`], chosen per row from the mapping by [`plan`]): rows
//!   that do not change along the loop are computed once per loop (`hoist`), rows that
//!   never wrap advance by a constant (`affine`), rows that wrap rarely split the loop
//!   at their wrap points so that each piece is affine (`split`), rows that wrap often
//!   advance by a constant and wrap with one compare (`step`). No division or remainder
//!   is left in the loop.
//!
//! Kernels walk their innermost loops with [`Layout::line`] (the offsets of the loop's
//! write and reads at each step) and use [`Layout::offset`] for the few points at tile
//! and domain borders. `Full` and `Linear` walk a line with one add per access and
//! step, like a compiler's induction variables; `Plain`, `Tuned` and `Masked` evaluate
//! their index expression at every point (the paper's code, whatever the compiler
//! hoists out of it); `Stepped` as above.
//!
//! Rows are laid out row-major in the order of the last array dimension they involve,
//! so the row that varies with the innermost loop is contiguous (a layout choice, not a
//! Sec. 5 mitigation: it applies to every folded variant; the mapping is the method's,
//! only its output dimensions are permuted, which keeps it valid). The innermost loop of
//! every kernel runs along the array's last dimension (`D - 1`).

use crate::KernelError;

/// An array storage: cell (array-space coordinates) to offset in `0..len()`.
pub trait Layout<const D: usize>: Sync + Send {
    /// Number of cells allocated.
    fn len(&self) -> usize;
    /// True when no cell is allocated.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The offset of cell `x` (which must lie in the array space).
    fn offset(&self, x: [i64; D]) -> usize;
    /// Walks the line `x(k) = x0 + k e`, `k = 0 .. n`, `e` the unit vector of the last
    /// dimension (the innermost loop of every kernel): calls `f(k, here, reads)` with
    /// `here = offset(x(k))` (where the loop writes) and `reads[j] = offset(x(k) +
    /// deltas[j])`. Every point `x(k)` and `x(k) + deltas[j]` must lie in the array
    /// space. The default evaluates [`offset`](Self::offset) at every point.
    #[inline(always)]
    fn line<const A: usize, F>(&self, x0: [i64; D], n: usize, deltas: &[[i64; D]; A], mut f: F)
    where
        F: FnMut(usize, usize, &[usize; A]),
    {
        let mut x = x0;
        for k in 0..n {
            let reads: [usize; A] = std::array::from_fn(|j| self.offset(add(x, deltas[j])));
            f(k, self.offset(x), &reads);
            x[D - 1] += 1;
        }
    }
}

#[inline(always)]
fn add<const D: usize>(a: [i64; D], b: [i64; D]) -> [i64; D] {
    std::array::from_fn(|k| a[k] + b[k])
}

/// The affine walk shared by every layout whose index advances by a constant `adv`
/// along the line (from `k0` to `k1`): one add per access and step, like a compiler's
/// induction variables. `here` and `reads` are the offsets at `k0`, and at `k1` on return.
#[inline(always)]
fn affine_walk<const A: usize, F>(k0: usize, k1: usize, here: &mut i64, reads: &mut [i64; A], adv: i64, f: &mut F)
where
    F: FnMut(usize, usize, &[usize; A]),
{
    for k in k0..k1 {
        let o: [usize; A] = std::array::from_fn(|j| reads[j] as usize);
        f(k, *here as usize, &o);
        *here += adv;
        for r in reads.iter_mut() {
            *r += adv;
        }
    }
}

/// The line of a layout whose offset advances by `adv` per step along the last
/// dimension: [`affine_walk`] from the offsets at `x0`.
#[inline(always)]
fn affine_line<const D: usize, const A: usize, L: Layout<D>, F>(l: &L, x0: [i64; D], n: usize, deltas: &[[i64; D]; A], adv: i64, f: &mut F)
where
    F: FnMut(usize, usize, &[usize; A]),
{
    let mut here = l.offset(x0) as i64;
    let mut reads: [i64; A] = std::array::from_fn(|j| l.offset(add(x0, deltas[j])) as i64);
    affine_walk(0, n, &mut here, &mut reads, adv, f);
}

/// Full storage: row-major over the box `lo ..= hi`.
#[derive(Clone, Debug)]
pub struct Full<const D: usize> {
    lo: [i64; D],
    stride: [i64; D],
    len: usize,
}

impl<const D: usize> Full<D> {
    /// The box `lo ..= hi` (inclusive).
    pub fn new(lo: [i64; D], hi: [i64; D]) -> Result<Self, KernelError> {
        let mut stride = [0i64; D];
        let mut len: i64 = 1;
        for k in (0..D).rev() {
            let ext = hi[k] - lo[k] + 1;
            if ext <= 0 {
                return Err(KernelError::Config(format!("empty box in dimension {k}: {} ..= {}", lo[k], hi[k])));
            }
            stride[k] = len;
            len = len.checked_mul(ext).ok_or_else(|| KernelError::Config("full array size overflows".into()))?;
        }
        Ok(Full { lo, stride, len: to_usize(len)? })
    }
}

impl<const D: usize> Layout<D> for Full<D> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn offset(&self, x: [i64; D]) -> usize {
        let mut o = 0i64;
        for k in 0..D {
            o += (x[k] - self.lo[k]) * self.stride[k];
        }
        o as usize
    }
    #[inline(always)]
    fn line<const A: usize, F>(&self, x0: [i64; D], n: usize, deltas: &[[i64; D]; A], mut f: F)
    where
        F: FnMut(usize, usize, &[usize; A]),
    {
        affine_line(self, x0, n, deltas, self.stride[D - 1], &mut f);
    }
}

/// How a [`Tuned`] row turns `v = h . x` into an index in `0..extent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOp {
    /// `v - lo`: the range of `v` over the array space has at most `e` values, so
    /// subtracting a base replaces the modulus (Bhaskaracharya et al. 2016, Sec. 5: `(y - 2x) mod (3B - 2)` to
    /// `y - 2x + 2B - 2`). Also used for unfolded rows (no modulus).
    Base { lo: i64 },
    /// `v & mask`: the modulus is a power of two (or was padded up to one, which the
    /// exact checker proved still valid).
    Mask { mask: i64 },
    /// `u = v - lo`, then `steps` times `if u >= e { u -= e }` (branch-free): the range
    /// spans at most `(steps + 1) e` values, `steps <= 3`.
    CondSub { lo: i64, e: i64, steps: u32 },
    /// `(v - lo) % e` on unsigned 32-bit integers (no sign fix-up, narrow division).
    URem { lo: i64, e: u32 },
}

/// How a [`Stepped`] row's cell changes along the innermost loop (the array's last
/// dimension), with `a` the row's coefficient of that dimension and `e` the row's
/// extent in the tuned layout (its modulus, or the padded power of two). Chosen by
/// [`plan`] from the mapping alone (see [`line_op`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOp {
    /// The cell does not change along the loop (`a = 0`, or `a` a multiple of a folded
    /// row's `e`): the row's tuned operation runs once per loop, outside it. For a row
    /// like `y mod 3` this is the "rotating window of rows": one of three row offsets
    /// per loop.
    Hoist,
    /// The row never wraps in the array space (`base`): the cell advances by `a`.
    Affine,
    /// The row wraps at most every `run` steps, `run >= SPLIT_MIN_RUN`: the loop is
    /// split at the wrap points of every access, and each piece is affine; the cell
    /// advances by `adv` (`a mod e` taken in `(-e/2, e/2]`, the long way round
    /// avoided) and moves back into `0 .. e` by one add of `-+e` at a wrap.
    Split { adv: i64, e: i64 },
    /// The row wraps more often: the cell advances by `adv = a mod e` (in `1 .. e`) and
    /// wraps with one compare and a conditional subtraction of `e` at every step.
    Step { adv: i64, e: i64 },
}

/// [`LineOp::Split`] only when a row runs at least this many steps between two wraps.
/// Splitting costs a few operations per access and piece (finding where the next piece
/// ends, correcting the cells that wrapped); stepping costs a compare and a conditional
/// subtraction per access and step. With runs of 16 steps or more, the splitting
/// overhead per step is well below that of stepping even when the accesses of a loop
/// wrap at different points (measured by `benches/index.rs`: `stepped-split` against
/// `stepped-step` on mappings that wrap rarely and often).
pub const SPLIT_MIN_RUN: i64 = 16;

/// The [`LineOp`] of a row whose tuned operation is `op` and extent `e`, for the
/// coefficient `a` of the innermost loop's dimension (the rule is documented on the
/// variants): `hoist` when the cell is constant along the loop, `affine` for a row that
/// never wraps, else `split` when the row runs at least `split_min_run` steps between
/// wraps, else `step`.
pub fn line_op(op: RowOp, e: i64, a: i64, split_min_run: i64) -> LineOp {
    match op {
        RowOp::Base { .. } if a == 0 => LineOp::Hoist,
        RowOp::Base { .. } => LineOp::Affine,
        _ => {
            let m = a.rem_euclid(e);
            if m == 0 {
                return LineOp::Hoist;
            }
            let adv = if 2 * m <= e { m } else { m - e };
            let run = (e - 1) / adv.abs() + 1;
            if run >= split_min_run {
                LineOp::Split { adv, e }
            } else {
                LineOp::Step { adv: m, e }
            }
        }
    }
}

/// One storage row of a planned layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowPlan {
    /// The storage hyperplane.
    pub hyperplane: Vec<i64>,
    /// The method's modulus at the run's parameters (`None`: unfolded row).
    pub modulus: Option<i64>,
    /// Range of `h . x` over the array space.
    pub lo: i64,
    pub hi: i64,
    /// The operation of the tuned layout.
    pub op: RowOp,
    /// Number of index values of the row in the plain layout (the modulus, or the range
    /// of an unfolded row).
    pub plain_extent: i64,
    /// Number of index values in the tuned layout.
    pub tuned_extent: i64,
    /// True when `op` uses a modulus padded up to a power of two.
    pub padded: bool,
    /// The row along the innermost loop in the [`Stepped`] layout.
    pub line: LineOp,
}

impl RowPlan {
    /// A short description (`base`, `mask`, `pad4094->4096`, `condsub2`, `urem`).
    pub fn describe(&self) -> String {
        match self.op {
            RowOp::Base { .. } => "base".into(),
            RowOp::Mask { mask } if self.padded => format!("pad{}->{}", self.modulus.unwrap_or(0), mask + 1),
            RowOp::Mask { .. } => "mask".into(),
            RowOp::CondSub { steps, .. } => format!("condsub{steps}"),
            RowOp::URem { .. } => "urem".into(),
        }
    }

    /// The row's [`LineOp`]: `hoist`, `affine`, `split`, `step`.
    pub fn describe_line(&self) -> &'static str {
        match self.line {
            LineOp::Hoist => "hoist",
            LineOp::Affine => "affine",
            LineOp::Split { .. } => "split",
            LineOp::Step { .. } => "step",
        }
    }
}

/// A mapping prepared for one array space and parameter values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutPlan {
    /// Rows in layout order (outermost first).
    pub rows: Vec<RowPlan>,
}

impl LayoutPlan {
    /// Cells of the plain layout.
    pub fn plain_len(&self) -> Result<usize, KernelError> {
        product(self.rows.iter().map(|r| r.plain_extent))
    }
    /// Cells of the tuned layout.
    pub fn tuned_len(&self) -> Result<usize, KernelError> {
        product(self.rows.iter().map(|r| r.tuned_extent))
    }
    /// The mitigation chosen per row, e.g. `base,mask`.
    pub fn describe(&self) -> String {
        self.rows.iter().map(RowPlan::describe).collect::<Vec<_>>().join(",")
    }
    /// Every row is `base`: the tuned and stepped variants both run as [`Linear`].
    pub fn all_base(&self) -> bool {
        self.rows.iter().all(|r| matches!(r.op, RowOp::Base { .. }))
    }
    /// The innermost-loop scheme chosen per row for [`Stepped`], e.g. `hoist,split`.
    pub fn describe_line(&self) -> String {
        self.rows.iter().map(RowPlan::describe_line).collect::<Vec<_>>().join(",")
    }
    /// The same plan with every row's [`LineOp`] chosen with another minimum run for
    /// `split` (`1`: every wrapping row splits; `i64::MAX`: every wrapping row steps),
    /// for the tests and benchmarks of the two schemes.
    pub fn with_split_min_run(&self, split_min_run: i64) -> LayoutPlan {
        let mut p = self.clone();
        for r in &mut p.rows {
            let a = r.hyperplane.last().copied().unwrap_or(0);
            r.line = line_op(r.op, r.tuned_extent, a, split_min_run);
        }
        p
    }
}

fn product(it: impl Iterator<Item = i64>) -> Result<usize, KernelError> {
    let mut p: i64 = 1;
    for e in it {
        p = p.checked_mul(e).ok_or_else(|| KernelError::Config("folded array size overflows".into()))?;
    }
    to_usize(p)
}

fn to_usize(v: i64) -> Result<usize, KernelError> {
    usize::try_from(v).map_err(|_| KernelError::Config(format!("size {v} is not a valid array length")))
}

/// A membership test of the array space.
pub type Member<'a> = &'a dyn Fn(&[i64]) -> bool;

/// The array space of a kernel's folded array: a box with an optional membership test
/// (for the diamond and parallelogram data tiles). Row ranges are computed exactly by
/// enumeration when the box is small, else from the box corners (exact for boxes).
#[derive(Clone, Copy)]
pub struct ArraySpace<'a> {
    pub lo: &'a [i64],
    pub hi: &'a [i64],
    pub member: Option<Member<'a>>,
}

impl ArraySpace<'_> {
    /// Minimum and maximum of `h . x` over the space.
    pub fn range(&self, h: &[i64]) -> Result<(i64, i64), KernelError> {
        let d = self.lo.len();
        if h.len() != d || self.hi.len() != d {
            return Err(KernelError::Config(format!("hyperplane of {} coefficients for a {d}-d array", h.len())));
        }
        let volume: i128 = (0..d).map(|k| (self.hi[k] - self.lo[k] + 1).max(0) as i128).product();
        if let (Some(member), true) = (self.member, volume <= 4_000_000) {
            let mut x = self.lo.to_vec();
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            if volume == 0 {
                return Err(KernelError::Config("empty array space".into()));
            }
            loop {
                if member(&x) {
                    let v: i64 = h.iter().zip(&x).map(|(a, b)| a * b).sum();
                    lo = lo.min(v);
                    hi = hi.max(v);
                }
                let mut k = d;
                loop {
                    if k == 0 {
                        return if lo <= hi { Ok((lo, hi)) } else { Err(KernelError::Config("empty array space".into())) };
                    }
                    k -= 1;
                    if x[k] < self.hi[k] {
                        x[k] += 1;
                        break;
                    }
                    x[k] = self.lo[k];
                }
            }
        }
        let (mut lo, mut hi) = (0i64, 0i64);
        for k in 0..d {
            let (a, b) = (h[k] * self.lo[k], h[k] * self.hi[k]);
            lo += a.min(b);
            hi += a.max(b);
        }
        Ok((lo, hi))
    }
}

/// Plans the layout of `mapping` (moduli already evaluated: `moduli[r]`) over `space`.
/// `pad_ok(row, p)` answers whether the mapping stays valid with row `row`'s modulus
/// replaced by `p` (the caller asks the exact checker); it is only asked when no
/// cheaper mitigation applies.
pub fn plan(
    hyperplanes: &[Vec<i64>],
    moduli: &[Option<i64>],
    space: &ArraySpace<'_>,
    pad_ok: &mut dyn FnMut(usize, i64) -> Result<bool, KernelError>,
) -> Result<LayoutPlan, KernelError> {
    let d = space.lo.len();
    let mut rows = Vec::new();
    for (r, (h, m)) in hyperplanes.iter().zip(moduli).enumerate() {
        let (lo, hi) = space.range(h)?;
        let span = hi - lo + 1;
        let plain_extent = match m {
            Some(e) if *e > 0 => *e,
            Some(e) => return Err(KernelError::Config(format!("row {r}: modulus {e} is not positive"))),
            None => span,
        };
        let (op, tuned_extent, padded) = match m {
            None => (RowOp::Base { lo }, span, false),
            Some(e) if span <= *e => (RowOp::Base { lo }, span, false),
            Some(e) if (*e as u64).is_power_of_two() => (RowOp::Mask { mask: e - 1 }, *e, false),
            Some(e) => {
                let p = (*e as u64).next_power_of_two() as i64;
                // 004 Sec. 5: a modulus "just less than" a power of two (here: at most
                // 1/8 of padding) is padded, if the exact checker proves it still valid.
                if 8 * (p - e) <= *e && pad_ok(r, p)? {
                    (RowOp::Mask { mask: p - 1 }, p, true)
                } else if span <= 4 * e {
                    let steps = ((span + e - 1) / e - 1) as u32;
                    (RowOp::CondSub { lo, e: *e, steps }, *e, false)
                } else {
                    let e32 = u32::try_from(*e).map_err(|_| KernelError::Config(format!("row {r}: modulus {e} too large")))?;
                    if span > u32::MAX as i64 {
                        return Err(KernelError::Config(format!("row {r}: range {span} too large")));
                    }
                    (RowOp::URem { lo, e: e32 }, *e, false)
                }
            }
        };
        let line = line_op(op, tuned_extent, h.last().copied().unwrap_or(0), SPLIT_MIN_RUN);
        rows.push((r, RowPlan { hyperplane: h.clone(), modulus: *m, lo, hi, op, plain_extent, tuned_extent, padded, line }));
    }
    // Layout order: by the last array dimension a row involves (stable).
    let key = |p: &RowPlan| p.hyperplane.iter().rposition(|&c| c != 0).unwrap_or(d);
    rows.sort_by_key(|(r, p)| (key(p), *r));
    Ok(LayoutPlan { rows: rows.into_iter().map(|(_, p)| p).collect() })
}

fn strides(extents: impl DoubleEndedIterator<Item = i64> + ExactSizeIterator) -> Vec<i64> {
    let mut s = vec![0; extents.len()];
    let mut acc = 1;
    for (k, e) in extents.enumerate().rev() {
        s[k] = acc;
        acc *= e;
    }
    s
}

fn rows_array<const D: usize, const M: usize>(plan: &LayoutPlan) -> Result<[[i64; D]; M], KernelError> {
    if plan.rows.len() != M {
        return Err(KernelError::Config(format!("layout of {} rows built as {M}", plan.rows.len())));
    }
    let mut h = [[0i64; D]; M];
    for (r, row) in plan.rows.iter().enumerate() {
        if row.hyperplane.len() != D {
            return Err(KernelError::Config(format!("hyperplane of {} coefficients for a {D}-d array", row.hyperplane.len())));
        }
        h[r].copy_from_slice(&row.hyperplane);
    }
    Ok(h)
}

#[inline(always)]
fn dot<const D: usize>(h: &[i64; D], x: &[i64; D]) -> i64 {
    let mut v = 0i64;
    for k in 0..D {
        v += h[k] * x[k];
    }
    v
}

/// The method's mapping as is: `rem_euclid` on every folded row, every access.
#[derive(Clone, Debug)]
pub struct Plain<const D: usize, const M: usize> {
    h: [[i64; D]; M],
    /// Modulus, or 0 for an unfolded row (then `base` is subtracted).
    e: [i64; M],
    base: [i64; M],
    stride: [i64; M],
    len: usize,
}

impl<const D: usize, const M: usize> Plain<D, M> {
    pub fn new(plan: &LayoutPlan) -> Result<Self, KernelError> {
        let h = rows_array::<D, M>(plan)?;
        let mut e = [0i64; M];
        let mut base = [0i64; M];
        let mut stride = [0i64; M];
        let s = strides(plan.rows.iter().map(|r| r.plain_extent));
        for (r, row) in plan.rows.iter().enumerate() {
            e[r] = row.modulus.unwrap_or(0);
            base[r] = row.lo;
            stride[r] = s[r];
        }
        Ok(Plain { h, e, base, stride, len: plan.plain_len()? })
    }
}

impl<const D: usize, const M: usize> Layout<D> for Plain<D, M> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn offset(&self, x: [i64; D]) -> usize {
        let mut o = 0i64;
        for r in 0..M {
            let v = dot(&self.h[r], &x);
            let c = if self.e[r] > 0 { v.rem_euclid(self.e[r]) } else { v - self.base[r] };
            o += c * self.stride[r];
        }
        o as usize
    }
}

/// The mapping with the Bhaskaracharya et al. 2016, Sec. 5 mitigations ([`RowOp`] per row). Loop-invariant
/// parts (`h . x` of the outer loop indices, the base) are hoisted by the compiler: the
/// index function is inlined and, for `Base`/`Mask` rows, affine or masked-affine.
#[derive(Clone, Debug)]
pub struct Tuned<const D: usize, const M: usize> {
    h: [[i64; D]; M],
    op: [RowOp; M],
    stride: [i64; M],
    len: usize,
}

impl<const D: usize, const M: usize> Tuned<D, M> {
    pub fn new(plan: &LayoutPlan) -> Result<Self, KernelError> {
        let h = rows_array::<D, M>(plan)?;
        let mut op = [RowOp::Base { lo: 0 }; M];
        let mut stride = [0i64; M];
        let s = strides(plan.rows.iter().map(|r| r.tuned_extent));
        for (r, row) in plan.rows.iter().enumerate() {
            op[r] = row.op;
            stride[r] = s[r];
        }
        Ok(Tuned { h, op, stride, len: plan.tuned_len()? })
    }
}

impl<const D: usize, const M: usize> Layout<D> for Tuned<D, M> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn offset(&self, x: [i64; D]) -> usize {
        let mut o = 0i64;
        for r in 0..M {
            o += self.cell(r, dot(&self.h[r], &x)) * self.stride[r];
        }
        o as usize
    }
}

impl<const D: usize, const M: usize> Tuned<D, M> {
    /// Row `r`'s index for `v = h_r . x` (`x` in the array space).
    #[inline(always)]
    fn cell(&self, r: usize, v: i64) -> i64 {
        match self.op[r] {
            RowOp::Base { lo } => v - lo,
            RowOp::Mask { mask } => v & mask,
            RowOp::CondSub { lo, e, steps } => {
                let mut u = v - lo;
                for _ in 0..steps {
                    u = if u >= e { u - e } else { u };
                }
                u
            }
            RowOp::URem { lo, e } => (((v - lo) as u32) % e) as i64,
        }
    }
}

/// A tuned layout whose rows are all `Base`: `sum_r stride_r (h_r . x - lo_r)` collapses
/// into one affine function `c . x - k` (the hoisting of Bhaskaracharya et al. 2016, Sec. 5 taken to its end:
/// the same index arithmetic as full storage).
#[derive(Clone, Debug)]
pub struct Linear<const D: usize> {
    c: [i64; D],
    k: i64,
    len: usize,
}

impl<const D: usize> Linear<D> {
    /// `None` unless every row of the plan is `Base`.
    pub fn new(plan: &LayoutPlan) -> Result<Option<Self>, KernelError> {
        if !plan.all_base() {
            return Ok(None);
        }
        let s = strides(plan.rows.iter().map(|r| r.tuned_extent));
        let (mut c, mut k) = ([0i64; D], 0i64);
        for (r, row) in plan.rows.iter().enumerate() {
            if row.hyperplane.len() != D {
                return Err(KernelError::Config(format!("hyperplane of {} coefficients for a {D}-d array", row.hyperplane.len())));
            }
            for d in 0..D {
                c[d] += s[r] * row.hyperplane[d];
            }
            k += s[r] * row.lo;
        }
        Ok(Some(Linear { c, k, len: plan.tuned_len()? }))
    }
}

impl<const D: usize> Layout<D> for Linear<D> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn offset(&self, x: [i64; D]) -> usize {
        (dot(&self.c, &x) - self.k) as usize
    }
    #[inline(always)]
    fn line<const A: usize, F>(&self, x0: [i64; D], n: usize, deltas: &[[i64; D]; A], mut f: F)
    where
        F: FnMut(usize, usize, &[usize; A]),
    {
        affine_line(self, x0, n, deltas, self.c[D - 1], &mut f);
    }
}

/// True when the plan's tuned layout is one affine index ([`Linear`]) that puts every
/// cell of the box `lo ..= hi` where full storage ([`Full`]) puts it, in as many cells:
/// the mapping folds nothing (e.g. `lefe`'s `A[x mod B, y mod B]` on a `B x B` tile),
/// and its tuned program is the full-storage program.
pub fn same_as_full<const D: usize>(plan: &LayoutPlan, lo: [i64; D], hi: [i64; D]) -> Result<bool, KernelError> {
    let Some(l) = Linear::<D>::new(plan)? else { return Ok(false) };
    let f = Full::new(lo, hi)?;
    Ok(l.len == f.len && l.c == f.stride && l.k == dot(&f.stride, &lo))
}

/// A tuned layout whose rows are all `Base` or `Mask`: `(h_r . x - lo_r) & mask_r`
/// per row, branch-free (`mask_r = -1` for a `Base` row, `lo_r = 0` for a `Mask` row).
#[derive(Clone, Debug)]
pub struct Masked<const D: usize, const M: usize> {
    h: [[i64; D]; M],
    lo: [i64; M],
    mask: [i64; M],
    stride: [i64; M],
    len: usize,
}

impl<const D: usize, const M: usize> Masked<D, M> {
    /// `None` unless every row of the plan is `Base` or `Mask`.
    pub fn new(plan: &LayoutPlan) -> Result<Option<Self>, KernelError> {
        let h = rows_array::<D, M>(plan)?;
        let s = strides(plan.rows.iter().map(|r| r.tuned_extent));
        let (mut lo, mut mask, mut stride) = ([0i64; M], [0i64; M], [0i64; M]);
        for (r, row) in plan.rows.iter().enumerate() {
            match row.op {
                RowOp::Base { lo: l } => {
                    lo[r] = l;
                    mask[r] = -1;
                }
                RowOp::Mask { mask: m } => mask[r] = m,
                _ => return Ok(None),
            }
            stride[r] = s[r];
        }
        Ok(Some(Masked { h, lo, mask, stride, len: plan.tuned_len()? }))
    }
}

impl<const D: usize, const M: usize> Layout<D> for Masked<D, M> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.len
    }
    #[inline(always)]
    fn offset(&self, x: [i64; D]) -> usize {
        let mut o = 0i64;
        for r in 0..M {
            o += ((dot(&self.h[r], &x) - self.lo[r]) & self.mask[r]) * self.stride[r];
        }
        o as usize
    }
}

/// The tuned mapping with the innermost loop's index arithmetic strength-reduced: each
/// row walks a line by its [`LineOp`] (chosen by [`plan`]); points off a line
/// (`offset`) use the [`Tuned`] operations. Exact: along a line, a folded row's cell is
/// `(v - lo) mod e` with `v = h . x` (`lo = 0` for a mask), which the walk keeps in
/// `0 .. e` by adding `adv` and subtracting or adding `e` exactly where the Euclidean
/// remainder wraps; the tests compare it with `rem_euclid` on random mappings.
#[derive(Clone, Debug)]
pub struct Stepped<const D: usize, const M: usize> {
    tuned: Tuned<D, M>,
    line: [LineOp; M],
    /// Offset advance per step without wraps: `sum_r stride_r * adv_r` over the
    /// `affine` (`adv = a`), `split` and `step` rows.
    adv: i64,
    /// `stride_r * e_r` of the wrapping rows (0 otherwise).
    wrap: [i64; M],
    /// The `split` rows, then the `step` rows.
    split_rows: [usize; M],
    n_split: usize,
    step_rows: [usize; M],
    n_step: usize,
}

/// One access of a [`Stepped`] line: its offset at the current step, the cells of the
/// wrapping rows, and for `split` rows the step at which the cell wraps next.
#[derive(Clone, Copy)]
struct Cursor<const M: usize> {
    o: i64,
    c: [i64; M],
    next: [i64; M],
}

/// Steps from cell `c` (in `0 .. e`) before the cell, advancing by `adv`, leaves
/// `0 .. e`, counting the current one: at least 1.
#[inline(always)]
fn run_length(c: i64, adv: i64, e: i64) -> i64 {
    if adv == 1 {
        e - c
    } else if adv == -1 {
        c + 1
    } else if adv > 0 {
        (e - 1 - c) / adv + 1
    } else {
        c / -adv + 1
    }
}

impl<const D: usize, const M: usize> Stepped<D, M> {
    pub fn new(plan: &LayoutPlan) -> Result<Self, KernelError> {
        let tuned = Tuned::<D, M>::new(plan)?;
        let mut line = [LineOp::Hoist; M];
        let (mut adv, mut wrap) = (0i64, [0i64; M]);
        let (mut split_rows, mut n_split, mut step_rows, mut n_step) = ([0usize; M], 0, [0usize; M], 0);
        for (r, row) in plan.rows.iter().enumerate() {
            line[r] = row.line;
            let s = tuned.stride[r];
            match row.line {
                LineOp::Hoist => {}
                LineOp::Affine => adv += s * tuned.h[r][D - 1],
                LineOp::Split { adv: a, e } => {
                    adv += s * a;
                    wrap[r] = s * e;
                    split_rows[n_split] = r;
                    n_split += 1;
                }
                LineOp::Step { adv: a, e } => {
                    adv += s * a;
                    wrap[r] = s * e;
                    step_rows[n_step] = r;
                    n_step += 1;
                }
            }
        }
        Ok(Stepped { tuned, line, adv, wrap, split_rows, n_split, step_rows, n_step })
    }

    /// The cursor of the access at `x` (in the array space), at step `k = 0`.
    #[inline(always)]
    fn cursor(&self, x: [i64; D]) -> Cursor<M> {
        let mut cur = Cursor { o: 0, c: [0; M], next: [i64::MAX; M] };
        for r in 0..M {
            let c = self.tuned.cell(r, dot(&self.tuned.h[r], &x));
            cur.o += c * self.tuned.stride[r];
            match self.line[r] {
                LineOp::Split { adv, e } => {
                    cur.c[r] = c;
                    cur.next[r] = run_length(c, adv, e);
                }
                LineOp::Step { .. } => cur.c[r] = c,
                LineOp::Hoist | LineOp::Affine => {}
            }
        }
        cur
    }

    /// The end of the piece starting at step `k`: the first wrap of a `split` row of
    /// any access, or `n`.
    #[inline(always)]
    fn piece_end<const A: usize>(&self, here: &Cursor<M>, reads: &[Cursor<M>; A], n: i64) -> i64 {
        let mut end = n;
        for &r in &self.split_rows[..self.n_split] {
            end = end.min(here.next[r]);
            for cur in reads {
                end = end.min(cur.next[r]);
            }
        }
        end
    }

    /// At the end `k1` of a piece that started at `k0`: the cells of the `split` rows
    /// advance by `(k1 - k0) adv`; those that wrapped at `k1` move back by `e` (their
    /// offset with them) and get their next wrap.
    #[inline(always)]
    fn wrap_split(&self, cur: &mut Cursor<M>, k0: i64, k1: i64) {
        for &r in &self.split_rows[..self.n_split] {
            let LineOp::Split { adv, e } = self.line[r] else { continue };
            let c = cur.c[r] + (k1 - k0) * adv;
            if cur.next[r] == k1 {
                let c = if adv > 0 { c - e } else { c + e };
                cur.o += if adv > 0 { -self.wrap[r] } else { self.wrap[r] };
                cur.c[r] = c;
                cur.next[r] = k1 + run_length(c, adv, e);
            } else {
                cur.c[r] = c;
            }
        }
    }

    /// One step of the `step` rows: the cell advances by `adv` and wraps with one
    /// compare (the advance itself is in `self.adv`).
    #[inline(always)]
    fn step(&self, cur: &mut Cursor<M>) {
        for &r in &self.step_rows[..self.n_step] {
            let LineOp::Step { adv, e } = self.line[r] else { continue };
            let c = cur.c[r] + adv;
            let w = c >= e;
            cur.c[r] = if w { c - e } else { c };
            cur.o -= if w { self.wrap[r] } else { 0 };
        }
    }
}

impl<const D: usize, const M: usize> Layout<D> for Stepped<D, M> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.tuned.len
    }
    #[inline(always)]
    fn offset(&self, x: [i64; D]) -> usize {
        self.tuned.offset(x)
    }
    #[inline(always)]
    fn line<const A: usize, F>(&self, x0: [i64; D], n: usize, deltas: &[[i64; D]; A], mut f: F)
    where
        F: FnMut(usize, usize, &[usize; A]),
    {
        let mut here = self.cursor(x0);
        let mut reads: [Cursor<M>; A] = std::array::from_fn(|j| self.cursor(add(x0, deltas[j])));
        let n = n as i64;
        let mut k = 0i64;
        while k < n {
            let end = self.piece_end(&here, &reads, n);
            if self.n_step == 0 {
                let mut h = here.o;
                let mut r: [i64; A] = std::array::from_fn(|j| reads[j].o);
                affine_walk(k as usize, end as usize, &mut h, &mut r, self.adv, &mut f);
                here.o = h;
                for (cur, o) in reads.iter_mut().zip(r) {
                    cur.o = o;
                }
            } else {
                for kk in k..end {
                    let o: [usize; A] = std::array::from_fn(|j| reads[j].o as usize);
                    f(kk as usize, here.o as usize, &o);
                    here.o += self.adv;
                    self.step(&mut here);
                    for cur in reads.iter_mut() {
                        cur.o += self.adv;
                        self.step(cur);
                    }
                }
            }
            if end < n {
                self.wrap_split(&mut here, k, end);
                for cur in reads.iter_mut() {
                    self.wrap_split(cur, k, end);
                }
            }
            k = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paper_base_example() {
        // 004 Sec. 5: (y - 2x) over 0 <= x, y < B ranges from -2B + 2 to B - 1, i.e.
        // 3B - 2 values, the modulus: the modulus is replaced by subtracting the base.
        let b = 8;
        let space = ArraySpace { lo: &[0, 0], hi: &[b - 1, b - 1], member: None };
        let p = plan(&[vec![-2, 1]], &[Some(3 * b - 2)], &space, &mut |_, _| Ok(false)).unwrap();
        assert_eq!(p.rows[0].op, RowOp::Base { lo: -2 * b + 2 });
        assert_eq!(p.rows[0].tuned_extent, 3 * b - 2);
        // Plain and tuned agree on which cells share a location.
        let plain = Plain::<2, 1>::new(&p).unwrap();
        let tuned = Tuned::<2, 1>::new(&p).unwrap();
        for x in 0..b {
            for y in 0..b {
                for x2 in 0..b {
                    for y2 in 0..b {
                        let same_p = plain.offset([x, y]) == plain.offset([x2, y2]);
                        let same_t = tuned.offset([x, y]) == tuned.offset([x2, y2]);
                        assert_eq!(same_p, same_t);
                        assert_eq!(same_p, (y - 2 * x - (y2 - 2 * x2)).rem_euclid(3 * b - 2) == 0);
                    }
                }
            }
        }
    }

    /// `same_as_full` holds exactly when the tuned offsets are full storage's at every
    /// cell of the box (compared cell by cell here).
    #[test]
    fn same_as_full_means_the_same_offsets() {
        let (lo, hi) = ([0i64, 0], [5i64, 7]);
        let space = ArraySpace { lo: &lo, hi: &hi, member: None };
        let full = Full::new(lo, hi).unwrap();
        // (hyperplanes, moduli) of each case.
        type Case = (Vec<Vec<i64>>, Vec<Option<i64>>);
        let cases: [Case; 5] = [
            (vec![vec![1, 0], vec![0, 1]], vec![Some(6), Some(8)]),
            (vec![vec![0, 1], vec![1, 0]], vec![Some(8), Some(6)]),
            (vec![vec![1, 0], vec![0, 1]], vec![Some(9), Some(8)]),
            (vec![vec![-2, 1]], vec![Some(18)]),
            (vec![vec![1, 0], vec![0, 1]], vec![Some(6), Some(4)]),
        ];
        let mut seen = [false, false];
        for (hs, moduli) in cases {
            let p = plan(&hs, &moduli, &space, &mut |_, _| Ok(false)).unwrap();
            let tuned = Tuned::<2, 2>::new(&p).ok();
            let same_offsets =
                tuned.as_ref().is_some_and(|t| t.len() == full.len() && (0..=5).all(|x| (0..=7).all(|y| t.offset([x, y]) == full.offset([x, y]))));
            let claimed = same_as_full(&p, lo, hi).unwrap();
            assert_eq!(claimed, same_offsets && p.rows.len() == 2, "{hs:?} {moduli:?}");
            seen[usize::from(claimed)] = true;
        }
        assert_eq!(seen, [true, true]);
    }

    #[test]
    fn ops_match_euclidean_remainder_classes() {
        // Each op is a bijective relabelling of v mod e on the row's range.
        let e = 6;
        for (lo, hi) in [(-5, 6), (-5, 12), (-20, 3), (-20, 30)] {
            let space = ArraySpace { lo: &[lo], hi: &[hi], member: None };
            let p = plan(&[vec![1]], &[Some(e)], &space, &mut |_, _| Ok(false)).unwrap();
            let t = Tuned::<1, 1>::new(&p).unwrap();
            for a in lo..=hi {
                assert!(t.offset([a]) < t.len());
                for b in lo..=hi {
                    assert_eq!(t.offset([a]) == t.offset([b]), (a - b).rem_euclid(e) == 0, "{a} {b} {:?}", p.rows[0].op);
                }
            }
        }
        // Linear and Masked give the offsets of Tuned where they apply.
        let space2 = ArraySpace { lo: &[0, 0], hi: &[9, 9], member: None };
        let p2 = plan(&[vec![1, 0], vec![-2, 1]], &[Some(8), Some(40)], &space2, &mut |_, _| Ok(false)).unwrap();
        let (t2, m2) = (Tuned::<2, 2>::new(&p2).unwrap(), Masked::<2, 2>::new(&p2).unwrap().unwrap());
        assert!(Linear::<2>::new(&p2).unwrap().is_none());
        let p3 = plan(&[vec![1, 0], vec![-2, 1]], &[Some(10), Some(40)], &space2, &mut |_, _| Ok(false)).unwrap();
        let (t3, l3) = (Tuned::<2, 2>::new(&p3).unwrap(), Linear::<2>::new(&p3).unwrap().unwrap());
        for x in 0..10 {
            for y in 0..10 {
                assert_eq!(t2.offset([x, y]), m2.offset([x, y]));
                assert_eq!(t3.offset([x, y]), l3.offset([x, y]));
            }
        }
        let space = ArraySpace { lo: &[-9], hi: &[20], member: None };
        let p = plan(&[vec![1]], &[Some(8)], &space, &mut |_, _| Ok(false)).unwrap();
        assert_eq!(p.rows[0].op, RowOp::Mask { mask: 7 });
    }

    /// `Stepped::line` gives `Tuned::offset` (and so the Euclidean remainder classes,
    /// checked above) at every point of every line, for random mappings over random
    /// boxes with every op (`base`, `mask`, `condsub`, `urem`) and every line scheme
    /// (the planned one, all `split`, all `step`), with reads shifted by random deltas.
    #[test]
    fn stepped_lines_match_tuned_offsets() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = move |n: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as i64
        };
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..400 {
            let lo = [rnd(7) - 3, rnd(7) - 3, rnd(7) - 3];
            let hi = [lo[0] + rnd(6) + 2, lo[1] + rnd(6) + 2, lo[2] + 6 + rnd(40)];
            let space = ArraySpace { lo: &lo, hi: &hi, member: None };
            let m = 1 + rnd(3) as usize;
            let hs: Vec<Vec<i64>> = (0..m).map(|_| (0..3).map(|_| rnd(9) - 4).collect()).collect();
            let moduli: Vec<Option<i64>> = (0..m).map(|_| if rnd(5) == 0 { None } else { Some(1 + rnd(30)) }).collect();
            let plan0 = plan(&hs, &moduli, &space, &mut |_, _| Ok(false)).unwrap();
            for p in [plan0.clone(), plan0.with_split_min_run(1), plan0.with_split_min_run(i64::MAX)] {
                for r in &p.rows {
                    seen.insert(r.describe_line().to_string());
                    seen.insert(r.describe());
                }
                macro_rules! check {
                    ($m:literal) => {{
                        let (t, st) = (Tuned::<3, $m>::new(&p).unwrap(), Stepped::<3, $m>::new(&p).unwrap());
                        let deltas = [[0, 0, 0], [-1, 0, 0], [0, -1, -2], [-1, -1, 3]];
                        for x in (lo[0] + 1)..hi[0] {
                            for y in (lo[1] + 1)..hi[1] {
                                let (k0, k1) = (lo[2] + 2, hi[2] - 3);
                                let n = (k1 - k0 + 1) as usize;
                                let mut visited = 0;
                                st.line([x, y, k0], n, &deltas, |k, here, reads| {
                                    let z = k0 + k as i64;
                                    assert_eq!(here, t.offset([x, y, z]), "{p:?} at {x} {y} {z}");
                                    for (d, &o) in deltas.iter().zip(reads) {
                                        assert_eq!(o, t.offset([x + d[0], y + d[1], z + d[2]]), "{p:?} at {x} {y} {z} + {d:?}");
                                    }
                                    visited += 1;
                                });
                                assert_eq!(visited, n);
                            }
                        }
                    }};
                }
                match m {
                    1 => check!(1),
                    2 => check!(2),
                    _ => check!(3),
                }
            }
        }
        // Every op and every line scheme was exercised.
        for what in ["base", "mask", "urem", "hoist", "affine", "split", "step"] {
            assert!(seen.contains(what), "{what} never exercised: {seen:?}");
        }
        assert!(seen.iter().any(|s| s.starts_with("condsub")), "condsub never exercised: {seen:?}");
    }
}
