//! Generators of a rational polyhedron (its V-representation) by the double
//! description method (Motzkin et al.; Fukuda and Prodon's formulation with the
//! combinatorial adjacency test), in exact integer arithmetic.
//!
//! Why: the affine form of Farkas' lemma ([`crate::farkas`]) says that an affine form
//! `psi` is non-negative on a non-empty polyhedron `D` iff it is a non-negative
//! combination of `D`'s constraints, which costs one multiplier per constraint and one
//! equality per column. The dual statement needs no multiplier at all: `psi >= 0` on
//! `D = conv(V) + cone(R) + lin(L)` iff `psi(v) >= 0` for every vertex `v`,
//! `psi_lin(r) >= 0` for every ray `r` and `psi_lin(l) = 0` for every line `l`. When
//! the coefficients of `psi` are ILP unknowns, each of those is one linear row over
//! the unknowns only. Eliminating the Farkas multipliers by Fourier–Motzkin, as the SMO
//! tool does (Bhaskaracharya et al. 2016, Sec. 5), gives exactly these rows; computing the generators directly
//! is the same projection done once per polyhedron instead of once per form.
//!
//! Local (existential) columns are projected away: the generators of the projection
//! are the projections of the generators, so the result describes the **rational**
//! projection of the set onto its parameters and dimensions, exactly the polyhedron on
//! which [`crate::farkas::nonneg_on`] makes a form non-negative (local columns get
//! coefficient 0 there).

use crate::basic::BasicSet;
use crate::int::gcd_i128;

/// The generators of the rational polyhedron of a [`BasicSet`], over its parameter and
/// dimension columns (the space's columns `1..`, locals projected away).
///
/// The polyhedron is `{ v / d : (d, v) in vertices } + cone(rays) + lin(lines)`; it is
/// empty exactly when there is no vertex. Every vector is divided by the gcd of its
/// entries (a vertex's denominator `d` included) and the lists have no duplicates; after
/// the projection of locals a list may contain non-extreme generators (still a
/// generating set).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Generators {
    /// Vertices as `(denominator > 0, numerators)`.
    pub vertices: Vec<(i64, Vec<i64>)>,
    /// Extreme rays (directions of unboundedness modulo the lines).
    pub rays: Vec<Vec<i64>>,
    /// A basis of the lineality space.
    pub lines: Vec<Vec<i64>>,
}

impl Generators {
    /// True when the polyhedron is (rationally) empty.
    pub fn is_empty(&self) -> bool {
        self.vertices.is_empty()
    }

    /// Number of generators.
    pub fn len(&self) -> usize {
        self.vertices.len() + self.rays.len() + self.lines.len()
    }
}

/// Default limit on the number of rays the double description may hold at once.
pub const DEFAULT_RAY_LIMIT: usize = 2_000;

/// A ray of the homogenised cone with the set of processed inequalities it is tight on.
#[derive(Clone, Debug)]
struct Ray {
    v: Vec<i128>,
    zero: Vec<u64>,
}

fn normalise(v: &mut [i128]) {
    let g = v.iter().fold(0i128, |g, &x| gcd_i128(g, x));
    if g > 1 {
        v.iter_mut().for_each(|x| *x /= g);
    }
}

fn dot(a: &[i64], y: &[i128]) -> Option<i128> {
    let mut s: i128 = 0;
    for (&x, &z) in a.iter().zip(y) {
        if x != 0 {
            s = s.checked_add((x as i128).checked_mul(z)?)?;
        }
    }
    Some(s)
}

/// `a * x - b * y`, normalised; `None` on overflow.
fn combine(a: i128, x: &[i128], b: i128, y: &[i128]) -> Option<Vec<i128>> {
    let mut out = Vec::with_capacity(x.len());
    for (&xi, &yi) in x.iter().zip(y) {
        out.push(a.checked_mul(xi)?.checked_sub(b.checked_mul(yi)?)?);
    }
    normalise(&mut out);
    Some(out)
}

fn set_bit(z: &mut Vec<u64>, k: usize) {
    let w = k / 64;
    if z.len() <= w {
        z.resize(w + 1, 0);
    }
    z[w] |= 1 << (k % 64);
}

fn intersect(a: &[u64], b: &[u64]) -> Vec<u64> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

fn contains(sup: &[u64], sub: &[u64]) -> bool {
    sub.iter().enumerate().all(|(i, &w)| w & !sup.get(i).copied().unwrap_or(0) == 0)
}

/// The double description of the cone `{ y : A y >= 0 }` over `m` coordinates, the
/// inequalities given in order. `None` when an intermediate result overflows or holds
/// more than `limit` rays.
fn double_description(m: usize, ineqs: &[Vec<i64>], eqs: &[Vec<i64>], limit: usize) -> Option<(Vec<Ray>, Vec<Vec<i128>>)> {
    let mut lines: Vec<Vec<i128>> = (0..m)
        .map(|i| {
            let mut v = vec![0i128; m];
            v[i] = 1;
            v
        })
        .collect();
    let mut rays: Vec<Ray> = Vec::new();
    // Equalities: as two inequalities each, after the ones a line can absorb.
    let mut rows: Vec<Vec<i64>> = Vec::with_capacity(ineqs.len() + 2 * eqs.len());
    for e in eqs {
        rows.push(e.clone());
        rows.push(e.iter().map(|x| -x).collect());
    }
    rows.extend(ineqs.iter().cloned());
    let words = rows.len().div_ceil(64).max(1);
    for (k, a) in rows.iter().enumerate() {
        // A line not orthogonal to `a`: it becomes a ray, the others are made orthogonal.
        let mut pivot = None;
        for (i, l) in lines.iter().enumerate() {
            let s = dot(a, l)?;
            if s != 0 {
                pivot = Some((i, s));
                break;
            }
        }
        if let Some((i, s)) = pivot {
            let mut l = lines.swap_remove(i);
            let s = if s < 0 {
                l.iter_mut().for_each(|x| *x = -*x);
                -s
            } else {
                s
            };
            for other in lines.iter_mut() {
                let t = dot(a, other)?;
                if t != 0 {
                    *other = combine(s, other, t, &l)?;
                }
            }
            for r in rays.iter_mut() {
                let t = dot(a, &r.v)?;
                if t != 0 {
                    r.v = combine(s, &r.v, t, &l)?;
                }
                set_bit(&mut r.zero, k);
            }
            // The former line is tight on every earlier row (lines are orthogonal to
            // them) and strictly positive on `a`.
            let mut zero = vec![0u64; words];
            for j in 0..k {
                set_bit(&mut zero, j);
            }
            rays.push(Ray { v: l, zero });
            continue;
        }
        let mut pos = Vec::new();
        let mut neg = Vec::new();
        let mut next: Vec<Ray> = Vec::with_capacity(rays.len());
        let mut values = Vec::with_capacity(rays.len());
        for r in &rays {
            values.push(dot(a, &r.v)?);
        }
        for (idx, value) in values.iter().enumerate() {
            match value.signum() {
                1 => pos.push(idx),
                -1 => neg.push(idx),
                _ => {}
            }
        }
        for &p in &pos {
            for &n in &neg {
                let s = intersect(&rays[p].zero, &rays[n].zero);
                // Necessary (the combinatorial test below is the exact one): the face
                // two adjacent rays span with the lineality space has dimension
                // `lines + 2`, so the rows tight on both have rank, hence number, at
                // least `m - lines - 2`.
                let tight = s.iter().map(|w| w.count_ones() as usize).sum::<usize>();
                if tight + lines.len() + 2 < m {
                    continue;
                }
                // Adjacent iff no other ray is tight on every row both are tight on.
                let adjacent = rays.iter().enumerate().all(|(o, r)| o == p || o == n || !contains(&r.zero, &s));
                if !adjacent {
                    continue;
                }
                let (vp, vn) = (values[p], -values[n]);
                // vn * r_p + vp * r_n is tight on `a`.
                let v = combine(vn, &rays[p].v, -vp, &rays[n].v)?;
                let mut zero = s;
                set_bit(&mut zero, k);
                next.push(Ray { v, zero });
                if next.len() + rays.len() > limit {
                    return None;
                }
            }
        }
        for (idx, mut r) in rays.into_iter().enumerate() {
            match values[idx].signum() {
                1 => next.push(r),
                0 => {
                    set_bit(&mut r.zero, k);
                    next.push(r);
                }
                _ => {}
            }
        }
        rays = next;
        if rays.len() > limit {
            return None;
        }
    }
    Some((rays, lines))
}

fn to_i64(v: &[i128]) -> Option<Vec<i64>> {
    v.iter().map(|&x| i64::try_from(x).ok()).collect()
}

impl BasicSet {
    /// The generators of the rational polyhedron of this set (locals projected away),
    /// by the double description method; `None` when the computation would need more
    /// than `ray_limit` intermediate rays or overflows (callers then fall back to a
    /// representation by constraints, e.g. Farkas multipliers).
    pub fn generators(&self, ray_limit: usize) -> Option<Generators> {
        let m = self.n_cols();
        let keep = self.space().n_cols();
        if self.is_marked_empty() {
            return Some(Generators::default());
        }
        // The homogenised cone: rows act on (y0, z) with y0 the constant column; y0 >= 0 first.
        let mut ineqs: Vec<Vec<i64>> = Vec::with_capacity(self.inequalities().len() + 1);
        let mut y0 = vec![0i64; m];
        y0[0] = 1;
        ineqs.push(y0);
        ineqs.extend(self.inequalities().iter().cloned());
        let (rays, lines) = double_description(m, &ineqs, self.equalities(), ray_limit)?;
        let mut out = Generators::default();
        for l in &lines {
            // y0 >= 0 was processed: every line has y0 = 0.
            let mut v: Vec<i128> = l[1..keep].to_vec();
            if v.iter().all(|&x| x == 0) {
                continue;
            }
            normalise(&mut v);
            // A canonical orientation (lines have no direction).
            if v.iter().find(|&&x| x != 0).is_some_and(|&x| x < 0) {
                v.iter_mut().for_each(|x| *x = -*x);
            }
            out.lines.push(to_i64(&v)?);
        }
        for r in &rays {
            let mut v: Vec<i128> = r.v[..keep].to_vec();
            if v[0] > 0 {
                normalise(&mut v);
                let w = to_i64(&v)?;
                out.vertices.push((w[0], w[1..].to_vec()));
            } else if v[1..].iter().any(|&x| x != 0) {
                normalise(&mut v);
                out.rays.push(to_i64(&v[1..])?);
            }
        }
        out.vertices.sort();
        out.vertices.dedup();
        out.rays.sort();
        out.rays.dedup();
        out.lines.sort();
        out.lines.dedup();
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gens(s: &str) -> Generators {
        BasicSet::parse(s).unwrap().generators(DEFAULT_RAY_LIMIT).unwrap()
    }

    #[test]
    fn square() {
        let g = gens("{ [x, y] : 0 <= x <= 2 and 0 <= y <= 3 }");
        assert_eq!(g.vertices, vec![(1, vec![0, 0]), (1, vec![0, 3]), (1, vec![2, 0]), (1, vec![2, 3])]);
        assert!(g.rays.is_empty() && g.lines.is_empty());
    }

    #[test]
    fn rational_vertex_and_rays() {
        // x + y >= 1, y >= x, x >= 0: vertices (0, 1) and (1/2, 1/2), rays (0, 1), (1, 1).
        let g = gens("{ [x, y] : x + y >= 1 and y >= x and x >= 0 }");
        assert_eq!(g.vertices, vec![(1, vec![0, 1]), (2, vec![1, 1])]);
        assert_eq!(g.rays, vec![vec![0, 1], vec![1, 1]]);
        assert!(g.lines.is_empty());
    }

    #[test]
    fn lines_and_equalities() {
        let g = gens("{ [x, y, z] : x = y + 1 and z >= 0 }");
        assert_eq!(g.vertices.len(), 1);
        assert_eq!(g.rays, vec![vec![0, 0, 1]]);
        assert_eq!(g.lines, vec![vec![1, 1, 0]]);
    }

    #[test]
    fn empty_and_parametric() {
        assert!(gens("{ [x] : x >= 1 and x <= 0 }").is_empty());
        // [N] -> { [i] : 0 <= i < N }: columns (N, i); vertex (1, 0) at N = 1... and rays.
        let g = gens("[N] -> { [i] : 0 <= i and i <= N - 1 }");
        assert_eq!(g.vertices, vec![(1, vec![1, 0])]);
        assert_eq!(g.rays, vec![vec![1, 0], vec![1, 1]]);
    }

    #[test]
    fn locals_are_projected() {
        // { [x] : exists e : x = 2e and 0 <= e <= 3 } rationally is 0 <= x <= 6.
        let g = gens("{ [x] : exists (e : x = 2e and 0 <= e <= 3) }");
        assert_eq!(g.vertices, vec![(1, vec![0]), (1, vec![6])]);
    }
}
