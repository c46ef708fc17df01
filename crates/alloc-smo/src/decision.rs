//! The decision constraints (6) of one conflict polyhedron, without Farkas multipliers.
//!
//! Constraint (6) for the decision variable `x` of sign `s` (`x1`: `s = 1`, `x2`:
//! `s = -1`) says that the affine form
//! `psi_x = s Γ . (s - t) + (c - c x) ΣP + (c - (c + 1) x)` is non-negative on the
//! polyhedron. By Farkas' lemma in its generator form (`polyalloc_formulation::farkas`)
//! that is one row per generator `(g0; P, d)` of the polyhedron projected onto the
//! parameters and the conflict differences `d = s - t` (`g0` = 1 for a vertex, scaled
//! to integers, 0 for a ray):
//!
//! `R(x) = s Γ . d + c (ΣP + g0) - x (c ΣP + (c + 1) g0) >= 0`.
//!
//! `R` is affine in the binary `x`, so `R(x) >= 0` is `R(0) >= 0` and (`x = 1` implies
//! `R(1) >= 0`). When `R(0) - R(1) = c ΣP + (c + 1) g0 >= 0` (always, with the paper's
//! non-negative parameters) `R(1) >= 0` implies `R(0) >= 0`, and the row splits exactly
//! into
//! * a row on `Γ` alone, `s Γ . d >= -c (ΣP + g0)` (the paper's bound `c ΣP + c` on the
//!   conflict differences, dropped when the hyperplane box implies it), and
//! * the implication `x = 1 => s Γ . d >= g0`, which for integer `Γ` is the row
//!   `(d / g) . Γ >= ceil(g0 / g)` with `g` the gcd of `d` (integer rounding, exact for
//!   integer `Γ`), emitted with the smallest big-M the box allows.
//!
//! The rows implied by a stronger row of the same direction are dropped. The result has
//! exactly the integer solutions (`Γ`, `x`) of the paper's constraints; the polyhedra
//! whose rows do not split so (a line, a negative parameter sum) keep the paper's
//! form (see [`decide`] returning `None`).

use polyalloc_formulation::generators::Generators;
use polyalloc_formulation::int::gcd;
use std::collections::BTreeMap;

/// `a . Γ >= beta`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct GammaRow {
    pub a: Vec<i64>,
    pub beta: i64,
}

impl GammaRow {
    /// The largest value of `a . Γ` over the box `lo <= Γ <= hi`.
    pub fn max_on(&self, lo: &[i64], hi: &[i64]) -> i128 {
        self.a.iter().zip(lo.iter().zip(hi)).map(|(&a, (&l, &h))| a as i128 * if a > 0 { h } else { l } as i128).sum()
    }

    /// True at `gamma`.
    pub fn holds(&self, gamma: &[i64]) -> bool {
        self.a.iter().zip(gamma).map(|(&a, &g)| a as i128 * g as i128).sum::<i128>() >= self.beta as i128
    }

    /// True when every `Γ` with `|γ_j| <= bound` satisfies it.
    pub fn implied_by_box(&self, bound: i64) -> bool {
        -(bound as i128) * self.a.iter().map(|&a| (a as i128).abs()).sum::<i128>() >= self.beta as i128
    }

    /// The least and the largest value of `a . Γ` over the box `lo <= Γ <= hi`.
    pub fn range_on(&self, lo: &[i64], hi: &[i64]) -> (i128, i128) {
        let (mut least, mut most) = (0i128, 0i128);
        for (&a, (&l, &h)) in self.a.iter().zip(lo.iter().zip(hi)) {
            let (x, y) = (a as i128 * l as i128, a as i128 * h as i128);
            least += x.min(y);
            most += x.max(y);
        }
        (least, most)
    }

    /// True when every `Γ` of the box `lo <= Γ <= hi` satisfies it.
    pub fn implied_on(&self, lo: &[i64], hi: &[i64]) -> bool {
        self.range_on(lo, hi).0 >= self.beta as i128
    }
}

/// What `x = 1` requires of `Γ` for one sign.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Side {
    /// The rows, without duplicates and without rows a stronger row of the same
    /// direction implies, sorted.
    pub rows: Vec<GammaRow>,
    /// `x = 1` is impossible (a conflict with equal cells along every hyperplane).
    pub dead: bool,
}

impl Side {
    /// True when `Γ` separates every conflict of the polyhedron with this sign.
    pub fn holds(&self, gamma: &[i64]) -> bool {
        !self.dead && self.rows.iter().all(|r| r.holds(gamma))
    }

    /// False when no `Γ` of the box satisfies it (a necessary condition only).
    pub fn possible_on(&self, lo: &[i64], hi: &[i64]) -> bool {
        !self.dead && self.rows.iter().all(|r| r.max_on(lo, hi) >= r.beta as i128)
    }
}

/// The decision constraints of one polyhedron in split form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Decision {
    /// `x1 = 1` (`s = 1`) and `x2 = 1` (`s = -1`).
    pub plus: Side,
    pub minus: Side,
    /// Rows on `Γ` alone (not implied by the box).
    pub free: Vec<GammaRow>,
    /// The bounding constraints (5) of the polyhedron: `u . P + w g0 >= |Γ . d|` for
    /// each generator `(g0, P, d)`.
    pub bounds: Vec<BoundRow>,
}

/// `u . p + w g0 >= |Γ . d|`.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct BoundRow {
    pub g0: i64,
    pub p: Vec<i64>,
    pub d: Vec<i64>,
}

/// The constant `c` of the decision constraints (6), at least `c` and large enough that
/// the paper's bound `c ΣP + c` on the conflict differences admits every hyperplane of
/// the box `|γ_j| <= bound` on the polyhedra of `gens`: at each vertex `(g0; P, d)` with
/// `ΣP + g0 > 0`, `c (ΣP + g0) >= bound Σ|d_j|`. The paper's `c = 10` assumes small
/// differences: a conflict at distance 3939 (`i2 = i + 3939`) made every hyperplane
/// infeasible. Rays and vertices with `ΣP + g0 <= 0` (negative parameters) give no
/// bound; the result is capped at `cap` (the rows then restrict `Γ`, as in the paper).
pub(crate) fn decision_constant<'a>(
    gens: impl Iterator<Item = &'a Generators>,
    np: usize,
    n: usize,
    c: i64,
    bound: i64,
    offset: i64,
    cap: i64,
) -> i64 {
    let mut need = c;
    for g in gens {
        for (g0, v) in &g.vertices {
            if v.len() != np + 2 * n {
                continue;
            }
            let scale: i128 = v[..np].iter().map(|&x| x as i128).sum::<i128>() + (*g0 as i128) * (1 + offset as i128);
            if scale <= 0 {
                continue;
            }
            let spread: i128 = (0..n).map(|j| (v[np + j] as i128 - v[np + n + j] as i128).abs()).sum::<i128>() * bound as i128;
            let k = (spread + scale - 1) / scale;
            need = need.max(k.min(cap as i128) as i64);
        }
    }
    need
}

/// The split decision constraints of a polyhedron over `(P, s, t)` (`np` parameters, `n`
/// array dimensions) with generators `gens`, for the constant `c` and the hyperplane box
/// `|γ_j| <= bound`; `None` when a row does not split (a line, a negative `c ΣP + (c + 1)
/// g0`) or a number overflows.
pub(crate) fn decide(gens: &Generators, np: usize, n: usize, c: i64, bound: i64, offset: i64) -> Option<Decision> {
    if !gens.lines.is_empty() {
        return None;
    }
    let mut points = Vec::with_capacity(gens.vertices.len() + gens.rays.len());
    for (g0, v) in gens.vertices.iter().map(|(g0, v)| (*g0, v)).chain(gens.rays.iter().map(|r| (0, r))) {
        if v.len() != np + 2 * n {
            return None;
        }
        let d: Vec<i64> = (0..n).map(|j| v[np + j].checked_sub(v[np + n + j])).collect::<Option<_>>()?;
        points.push(Point { g0, p: v[..np].to_vec(), d });
    }
    decide_points(&points, c, offset, |r| r.implied_by_box(bound))
}

/// A generator `(g0; P, ...)` of a conflict polyhedron with the conflict difference `d`
/// it gives in the hyperplane's unknowns (`Γ . d` is the hyperplane's difference there).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Point {
    pub g0: i64,
    pub p: Vec<i64>,
    pub d: Vec<i64>,
}

/// [`decide`] over the generators given as [`Point`]s (no line), the rows `implied` says
/// the unknowns' box implies dropped.
pub(crate) fn decide_points(points: &[Point], c: i64, offset: i64, implied: impl Fn(&GammaRow) -> bool) -> Option<Decision> {
    let mut plus: BTreeMap<Vec<i64>, i64> = BTreeMap::new();
    let mut minus: BTreeMap<Vec<i64>, i64> = BTreeMap::new();
    let (mut plus_dead, mut minus_dead) = (false, false);
    let mut free: Vec<GammaRow> = Vec::new();
    let mut bounds: Vec<BoundRow> = Vec::new();
    for Point { g0, p, d } in points {
        let g0 = *g0;
        // ΣP + offset (g0 scales a vertex's coordinates, the offset is a constant).
        let psum = p.iter().try_fold(0i64, |a, &x| a.checked_add(x))?.checked_add(offset.checked_mul(g0)?)?;
        // R(0) - R(1) = c ΣP + (c + 1) g0 must be >= 0 for the split.
        let gap = c.checked_mul(psum)?.checked_add((c.checked_add(1)?).checked_mul(g0)?)?;
        if gap < 0 {
            return None;
        }
        let k0 = c.checked_mul(psum.checked_add(g0)?)?;
        bounds.push(BoundRow { g0, p: p.clone(), d: d.clone() });
        let g = d.iter().fold(0, |g, &x| gcd(g, x));
        for (sign, side, dead) in [(1i64, &mut plus, &mut plus_dead), (-1, &mut minus, &mut minus_dead)] {
            let a: Vec<i64> = d.iter().map(|&x| sign * x).collect();
            // R(0) >= 0: s Γ . d >= -c (ΣP + g0).
            let cut = GammaRow { a: a.clone(), beta: -k0 };
            if !implied(&cut) {
                free.push(cut);
            }
            // x = 1 => s Γ . d >= g0, rounded for integer Γ.
            if g == 0 {
                if g0 > 0 {
                    *dead = true;
                }
                continue;
            }
            let a: Vec<i64> = a.iter().map(|x| x / g).collect();
            let beta = polyalloc_formulation::int::ceil_div(g0 as i128, g as i128) as i64;
            let e = side.entry(a).or_insert(beta);
            *e = (*e).max(beta);
        }
    }
    let side = |m: BTreeMap<Vec<i64>, i64>, dead: bool| Side {
        rows: if dead { Vec::new() } else { m.into_iter().map(|(a, beta)| GammaRow { a, beta }).filter(|r| !implied(r)).collect() },
        dead,
    };
    free.sort();
    free.dedup();
    Some(Decision { plus: side(plus, plus_dead), minus: side(minus, minus_dead), free, bounds })
}
