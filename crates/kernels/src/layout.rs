//! Storage layouts: where a kernel's array cell `x` lives in memory.
//!
//! Every kernel is written once against [`Layout`] (`offset` is `#[inline(always)]`, and
//! the kernels are monomorphised per layout type, so the index function is inlined into
//! the loops). Three layouts:
//!
//! * [`Full`]: the totally expanded array (row-major over the bounding box of the array
//!   space) — the reference.
//! * [`Plain`]: a modular mapping exactly as a method returns it: every storage row
//!   computes `(h . x) mod e` with a Euclidean remainder on every access (004 Sec. 3).
//! * [`Tuned`]: the same mapping with the index-arithmetic mitigations of 004 Sec. 5,
//!   chosen per row from the row's value range over the array space ([`RowOp`]); when
//!   every row is `Base` the kernel gets [`Linear`] (one affine index), when every row
//!   is `Base` or `Mask` it gets the branch-free [`Masked`].
//!
//! Rows are laid out row-major in the order of the last array dimension they involve,
//! so the row that varies with the innermost loop is contiguous (a layout choice, not a
//! Sec. 5 mitigation: it applies to both `Plain` and `Tuned`; the mapping is the
//! method's, only its output dimensions are permuted, which keeps it valid).

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
}

/// How a [`Tuned`] row turns `v = h . x` into an index in `0..extent`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowOp {
    /// `v - lo`: the range of `v` over the array space has at most `e` values, so
    /// subtracting a base replaces the modulus (004 Sec. 5: `(y - 2x) mod (3B - 2)` to
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
        rows.push((r, RowPlan { hyperplane: h.clone(), modulus: *m, lo, hi, op, plain_extent, tuned_extent, padded }));
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

/// The mapping with the 004 Sec. 5 mitigations ([`RowOp`] per row). Loop-invariant
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
            let v = dot(&self.h[r], &x);
            let c = match self.op[r] {
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
            };
            o += c * self.stride[r];
        }
        o as usize
    }
}

/// A tuned layout whose rows are all `Base`: `sum_r stride_r (h_r . x - lo_r)` collapses
/// into one affine function `c . x - k` (the hoisting of 004 Sec. 5 taken to its end:
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
        if !plan.rows.iter().all(|r| matches!(r.op, RowOp::Base { .. })) {
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
}
