//! Tiled 1-D 3-point stencils `u[t][i] = 0.25 u[t-1][i-1] + 0.5 u[t-1][i] + 0.25 u[t-1][i+1]`
//! (flow dependences `(1, -1), (1, 0), (1, 1)`, Bhaskaracharya et al. 2016, Fig. 7) over `0 <= t < T`,
//! `0 <= i < N`; row 0 is the input, reads outside `0 <= i < N` are a fixed boundary
//! value, row `T - 1` is the output. Each tile has its own data tile `AB[tt, ii]`
//! (row-major intra-tile schedule, the bench-suite's), which is what gets folded; reads
//! of cells of other tiles go to those tiles' storage (their live-out strips).
//!
//! * [`Diamond`] (Bhaskaracharya et al. 2016, Fig. 7, diamond-tile): the data tile is the diamond with corners
//!   `(0, B-1), (B-1, 0), (B-1, 2B-2), (2B-2, B-1)`, i.e. the L1 ball of radius
//!   `r = B - 1` around `(r, r)`. Copies of it tile the plane exactly along the lattice
//!   `g1 = (r, r + 1)`, `g2 = (r + 1, -r)` (in `(t, i)`), so every tile has the modelled
//!   shape and the same mapping applies to all. (Pluto's diamond tiles of width
//!   `2B - 1` alternate between this shape and its complement; the bench-suite models
//!   one shape only, so we use the congruent tiling.) Tile `(k, l)` reads from
//!   `(k - 1, l)`, `(k, l - 1)`, `(k - 1, l - 1)` and, at its right corner, from
//!   `(k + 1, l - 1)`; tiles with equal `k + 2l` are independent and run in parallel.
//! * [`Pllgm`] (stencil-1d-pllgm-tile): parallelogram tiles of the hyperplanes `(1, 0)`,
//!   `(1, 1)` with tile size `B`; intra-tile coordinates `tt = t - aB`,
//!   `ii = i + aB - bB + B - 1` (so `0 <= tt < B`, `B - 1 <= tt + ii <= 2B - 2`, the
//!   bench-suite's data tile). Tile `(a, b)` reads `(a, b - 1)`, `(a - 1, b)`,
//!   `(a - 1, b - 1)`; tiles with equal `a + b` run in parallel (pipelined start).
//!
//! Tiles at the borders of the domain run the part of the tile inside it (a subset of
//! the modelled schedule, so its conflicts are a subset and the mapping stays valid).

use crate::layout::Layout;
use crate::wavefront::{hash01, key2, run};
use crate::{Body, KernelError, RunOutput};
use std::collections::HashMap;
use std::ops::Range;

const BOUNDARY: f64 = 0.5;

#[inline(always)]
fn stencil(a: f64, b: f64, c: f64) -> f64 {
    0.25 * a + 0.5 * b + 0.25 * c
}

fn initial(i: i64) -> f64 {
    hash01(key2(i, 7))
}

/// Plain loops over a full `T x N` array: the independent reference of the tests.
pub fn reference(n: i64, t: i64) -> Vec<u64> {
    let mut prev: Vec<f64> = (0..n).map(initial).collect();
    for _ in 1..t {
        let get = |i: i64| if i < 0 || i >= n { BOUNDARY } else { prev[i as usize] };
        let next: Vec<f64> = (0..n).map(|i| stencil(get(i - 1), get(i), get(i + 1))).collect();
        prev = next;
    }
    prev.iter().map(|v| v.to_bits()).collect()
}

/// Diamond-tiled stencil.
pub struct Diamond {
    pub n: i64,
    pub t: i64,
    pub b: i64,
    /// Tile centres `(k, l)` in execution order.
    tiles: Vec<(i64, i64)>,
    fronts: Vec<Range<usize>>,
    /// Per tile: the ids of `(k - 1, l)`, `(k, l - 1)`, `(k - 1, l - 1)`, `(k + 1, l - 1)`.
    nbr: Vec<[Option<usize>; 4]>,
    index: HashMap<(i64, i64), usize>,
}

impl Diamond {
    pub fn new(n: i64, t: i64, b: i64) -> Result<Self, KernelError> {
        if b < 3 || n < 1 || t < 1 {
            return Err(KernelError::Config(format!("diamond-tile: N = {n}, T = {t}, B = {b}: expected B >= 3")));
        }
        let r = b - 1;
        let m = 2 * r * r + 2 * r + 1;
        // Lattice coordinates of the domain corners (with a margin of one tile).
        let (mut kmin, mut kmax, mut lmin, mut lmax) = (i64::MAX, i64::MIN, i64::MAX, i64::MIN);
        for pt in [-r - 1, t + r] {
            for pi in [-r - 1, n + r] {
                let k = (r * pt + (r + 1) * pi).div_euclid(m);
                let l = ((r + 1) * pt - r * pi).div_euclid(m);
                kmin = kmin.min(k - 1);
                kmax = kmax.max(k + 2);
                lmin = lmin.min(l - 1);
                lmax = lmax.max(l + 2);
            }
        }
        let mut tiles = Vec::new();
        for k in kmin..=kmax {
            for l in lmin..=lmax {
                let (ct, ci) = (k * r + l * (r + 1), k * (r + 1) - l * r);
                let hit = (0..=2 * r).any(|tt| {
                    let gt = ct - r + tt;
                    let half = r - (tt - r).abs();
                    gt >= 0 && gt < t && ci - half < n && ci + half >= 0
                });
                if hit {
                    tiles.push((k, l));
                }
            }
        }
        tiles.sort_by_key(|&(k, l)| (k + 2 * l, k));
        let mut fronts: Vec<Range<usize>> = Vec::new();
        for (id, &(k, l)) in tiles.iter().enumerate() {
            match fronts.last_mut() {
                Some(fr) if tiles[fr.start].0 + 2 * tiles[fr.start].1 == k + 2 * l => fr.end = id + 1,
                _ => fronts.push(id..id + 1),
            }
        }
        let index: HashMap<(i64, i64), usize> = tiles.iter().enumerate().map(|(id, &kl)| (kl, id)).collect();
        let nbr = tiles.iter().map(|&(k, l)| [(k - 1, l), (k, l - 1), (k - 1, l - 1), (k + 1, l - 1)].map(|kl| index.get(&kl).copied())).collect();
        Ok(Diamond { n, t, b, tiles, fronts, nbr, index })
    }

    fn r(&self) -> i64 {
        self.b - 1
    }

    fn centre(&self, (k, l): (i64, i64)) -> (i64, i64) {
        let r = self.r();
        (k * r + l * (r + 1), k * (r + 1) - l * r)
    }

    fn inside(&self, tt: i64, ii: i64) -> bool {
        let r = self.r();
        (tt - r).abs() + (ii - r).abs() <= r
    }

    /// The tile and local coordinates of a global point.
    fn locate(&self, gt: i64, gi: i64) -> Option<(usize, i64, i64)> {
        let r = self.r();
        let m = 2 * r * r + 2 * r + 1;
        let k0 = (r * gt + (r + 1) * gi).div_euclid(m);
        let l0 = ((r + 1) * gt - r * gi).div_euclid(m);
        for k in k0 - 1..=k0 + 2 {
            for l in l0 - 1..=l0 + 2 {
                let (ct, ci) = self.centre((k, l));
                let (tt, ii) = (gt - ct + r, gi - ci + r);
                if self.inside(tt, ii) {
                    return self.index.get(&(k, l)).map(|&id| (id, tt, ii));
                }
            }
        }
        None
    }
}

/// Row `tt` of a tile, points `lo ..= hi`: the interior `ilo ..= ihi` (the three reads
/// in the tile's row `tt - 1` and in the domain; empty when `ilo > ihi`) as one line of
/// the 3-point stencil, the points outside it with `point(chunk, ii)`.
#[inline(always)]
fn stencil_row<L: Layout<2>>(
    l: &L,
    chunk: &mut [f64],
    tt: i64,
    (lo, hi): (i64, i64),
    (ilo, ihi): (i64, i64),
    mut point: impl FnMut(&mut [f64], i64),
) {
    let (ilo, ihi) = if ilo > ihi { (hi + 1, hi) } else { (ilo, ihi) };
    for ii in lo..ilo {
        point(chunk, ii);
    }
    if ilo <= ihi {
        l.line([tt, ilo], (ihi - ilo + 1) as usize, &[[-1, -1], [-1, 0], [-1, 1]], |_, here, s| {
            chunk[here] = stencil(chunk[s[0]], chunk[s[1]], chunk[s[2]]);
        });
    }
    for ii in (ihi + 1)..=hi {
        point(chunk, ii);
    }
}

impl Body<2> for Diamond {
    fn dims(&self) -> &'static [&'static str] {
        &["tt", "ii"]
    }
    fn space(&self) -> ([i64; 2], [i64; 2]) {
        let r = self.r();
        ([0, 0], [2 * r, 2 * r])
    }
    fn member(&self, x: &[i64]) -> bool {
        x.len() == 2 && self.inside(x[0], x[1])
    }
    fn run<L: Layout<2>>(&self, l: &L) -> Result<RunOutput, KernelError> {
        let start = std::time::Instant::now();
        let (n, t, r) = (self.n, self.t, self.r());
        let tile_len = l.len();
        let mut data = vec![0f64; self.tiles.len() * tile_len];
        // Candidate tiles for a point below the tile: local coordinates offsets.
        let shifts = [(r, r + 1), (r + 1, -r), (2 * r + 1, 1), (1, -2 * r - 1)];
        run(&mut data, tile_len, &self.fronts, |id, chunk, done| {
            let (ct, ci) = self.centre(self.tiles[id]);
            let nb = &self.nbr[id];
            // One point, reads at the tile's and the domain's borders included.
            let point = |chunk: &mut [f64], tt: i64, ii: i64, gt: i64| {
                let gi = ci - r + ii;
                let v = if gt == 0 {
                    initial(gi)
                } else {
                    let mut s = [0f64; 3];
                    for (d, slot) in s.iter_mut().enumerate() {
                        let (a, bb) = (tt - 1, ii + d as i64 - 1);
                        let g = gi + d as i64 - 1;
                        *slot = if g < 0 || g >= n {
                            BOUNDARY
                        } else if self.inside(a, bb) {
                            chunk[l.offset([a, bb])]
                        } else {
                            let mut found = f64::NAN;
                            for (q, &(dt, di)) in shifts.iter().enumerate() {
                                let (la, lb) = (a + dt, bb + di);
                                if let (Some(other), true) = (nb[q], self.inside(la, lb)) {
                                    found = done[other * tile_len + l.offset([la, lb])];
                                    break;
                                }
                            }
                            found
                        };
                    }
                    stencil(s[0], s[1], s[2])
                };
                chunk[l.offset([tt, ii])] = v;
            };
            for tt in 0..=2 * r {
                let gt = ct - r + tt;
                if gt < 0 || gt >= t {
                    continue;
                }
                // The row's points inside the domain (0 <= gi < N).
                let half = r - (tt - r).abs();
                let (lo, hi) = ((r - half).max(r - ci), (r + half).min(n - 1 - ci + r));
                // Its interior: the three reads in this tile's row tt - 1 and in the domain.
                let (mut ilo, mut ihi) = (hi + 1, hi);
                if gt > 0 && tt >= 1 {
                    let below = r - (tt - 1 - r).abs();
                    ilo = (r - below + 1).max(r - ci + 1).max(lo);
                    ihi = (r + below - 1).min(n - 2 - ci + r).min(hi);
                }
                stencil_row(l, chunk, tt, (lo, hi), (ilo, ihi), |c, ii| point(c, tt, ii, gt));
            }
        });
        let elapsed = start.elapsed();
        let mut values = Vec::with_capacity(n as usize);
        for gi in 0..n {
            let (id, tt, ii) = self.locate(t - 1, gi).ok_or_else(|| KernelError::Config(format!("diamond-tile: no tile holds ({}, {gi})", t - 1)))?;
            values.push(data[id * tile_len + l.offset([tt, ii])].to_bits());
        }
        Ok(RunOutput { values, folded_cells: data.len(), cell_bytes: 8, elapsed })
    }
}

/// Parallelogram-tiled stencil.
pub struct Pllgm {
    pub n: i64,
    pub t: i64,
    pub b: i64,
    /// Tiles `(a, b)` in execution order.
    tiles: Vec<(i64, i64)>,
    fronts: Vec<Range<usize>>,
    /// Per tile: the ids of `(a, b - 1)`, `(a - 1, b)`, `(a - 1, b - 1)`.
    nbr: Vec<[Option<usize>; 3]>,
    index: HashMap<(i64, i64), usize>,
}

impl Pllgm {
    pub fn new(n: i64, t: i64, b: i64) -> Result<Self, KernelError> {
        if b < 3 || n < 1 || t < b || t % b != 0 {
            return Err(KernelError::Config(format!("stencil-1d-pllgm-tile: N = {n}, T = {t}, B = {b}: expected B >= 3, T a multiple of B")));
        }
        let mut tiles = Vec::new();
        for a in 0..t / b {
            for bb in 0..=(t + n - 2) / b {
                // t + i in [bb*B, bb*B + B), t in [aB, aB + B), i in [0, N).
                let hit = (0..b).any(|tt| {
                    let gt = a * b + tt;
                    let (s0, s1) = (bb * b, bb * b + b - 1);
                    s0 - gt < n && s1 - gt >= 0
                });
                if hit {
                    tiles.push((a, bb));
                }
            }
        }
        tiles.sort_by_key(|&(a, bb)| (a + bb, a));
        let mut fronts: Vec<Range<usize>> = Vec::new();
        for (id, &(a, bb)) in tiles.iter().enumerate() {
            match fronts.last_mut() {
                Some(fr) if tiles[fr.start].0 + tiles[fr.start].1 == a + bb => fr.end = id + 1,
                _ => fronts.push(id..id + 1),
            }
        }
        let index: HashMap<(i64, i64), usize> = tiles.iter().enumerate().map(|(id, &ab)| (ab, id)).collect();
        let nbr = tiles.iter().map(|&(a, bb)| [(a, bb - 1), (a - 1, bb), (a - 1, bb - 1)].map(|ab| index.get(&ab).copied())).collect();
        Ok(Pllgm { n, t, b, tiles, fronts, nbr, index })
    }
}

impl Body<2> for Pllgm {
    fn dims(&self) -> &'static [&'static str] {
        &["tt", "ii"]
    }
    fn space(&self) -> ([i64; 2], [i64; 2]) {
        ([0, 0], [self.b - 1, 2 * self.b - 2])
    }
    fn member(&self, x: &[i64]) -> bool {
        x.len() == 2 && x[0] >= 0 && x[0] < self.b && x[0] + x[1] >= self.b - 1 && x[0] + x[1] <= 2 * self.b - 2
    }
    fn run<L: Layout<2>>(&self, l: &L) -> Result<RunOutput, KernelError> {
        let start = std::time::Instant::now();
        let (n, t, b) = (self.n, self.t, self.b);
        let tile_len = l.len();
        let mut data = vec![0f64; self.tiles.len() * tile_len];
        run(&mut data, tile_len, &self.fronts, |id, chunk, done| {
            let (ta, tb) = self.tiles[id];
            let nb = &self.nbr[id];
            // gi = ii - off.
            let off = ta * b - tb * b + b - 1;
            // One point, reads at the tile's and the domain's borders included.
            let point = |chunk: &mut [f64], tt: i64, ii: i64, gt: i64| {
                let gi = ii - off;
                let v = if gt == 0 {
                    initial(gi)
                } else {
                    let mut s = [0f64; 3];
                    for (d, slot) in s.iter_mut().enumerate() {
                        let g = gi + d as i64 - 1;
                        let (pa, pb) = (tt - 1, ii + d as i64 - 1);
                        let sum = pa + pb; // (t' + i') - bB + B - 1: inside the tile's band iff >= B - 1
                        *slot = if g < 0 || g >= n {
                            BOUNDARY
                        } else if pa >= 0 {
                            if sum >= b - 1 {
                                chunk[l.offset([pa, pb])]
                            } else {
                                // Tile (a, b - 1): ii' = ii + B.
                                nb[0].map_or(f64::NAN, |o| done[o * tile_len + l.offset([pa, pb + b])])
                            }
                        } else if sum >= b - 1 {
                            // Tile (a - 1, b): tt' = B - 1, ii' = ii - B.
                            nb[1].map_or(f64::NAN, |o| done[o * tile_len + l.offset([b - 1, pb - b])])
                        } else {
                            // Tile (a - 1, b - 1): tt' = B - 1, ii' = ii.
                            nb[2].map_or(f64::NAN, |o| done[o * tile_len + l.offset([b - 1, pb])])
                        };
                    }
                    stencil(s[0], s[1], s[2])
                };
                chunk[l.offset([tt, ii])] = v;
            };
            for tt in 0..b {
                let gt = ta * b + tt;
                // The row's points inside the domain (0 <= gi < N).
                let (lo, hi) = ((b - 1 - tt).max(off), (2 * b - 2 - tt).min(n - 1 + off));
                // Its interior: the three reads in this tile's row tt - 1 (tt + ii >= B + 1)
                // and in the domain.
                let (mut ilo, mut ihi) = (hi + 1, hi);
                if gt > 0 && tt >= 1 {
                    ilo = (b + 1 - tt).max(off + 1).max(lo);
                    ihi = (n - 2 + off).min(hi);
                }
                stencil_row(l, chunk, tt, (lo, hi), (ilo, ihi), |c, ii| point(c, tt, ii, gt));
            }
        });
        let elapsed = start.elapsed();
        let mut values = Vec::with_capacity(n as usize);
        let a = (t - 1) / b;
        for gi in 0..n {
            let s = t - 1 + gi;
            let bb = s.div_euclid(b);
            let ii = gi + a * b - bb * b + b - 1;
            let id = *self.index.get(&(a, bb)).ok_or_else(|| KernelError::Config(format!("stencil-1d-pllgm-tile: no tile ({a}, {bb})")))?;
            values.push(data[id * tile_len + l.offset([b - 1, ii])].to_bits());
        }
        Ok(RunOutput { values, folded_cells: data.len(), cell_bytes: 8, elapsed })
    }
}
