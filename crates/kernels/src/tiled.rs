//! Tiled, column-interleaved producer/consumer image pipelines: blur-tiled (Bhaskaracharya et al. 2016, Fig.
//! 5(b)), unsharp-mask-tiled and harris-corner-tiled (PolyMage kernels; the paper gives
//! no code for them: the bench-suite models them, and this module implements them, with
//! the structure of Fig. 5 and a `K`-tap vertical consumer, see `bench-suite/smo-*`).
//!
//! For every tile `(ty, tx)` (and colour channel `c`) and every column `x` of the tile:
//! `P(x, y)` writes the intermediate `A(x, y)` from a horizontal `K`-tap window of the
//! input for all `y`, then `Q(x, y)` reads `A(x, y), A(x, y - 1), ..., A(x, y - K + 1)`
//! (schedule `(x, 0, y)` / `(x, 1, y)` of the bench-suite files). Reads with `y - k < 0`
//! go to the tile below (`ty - 1`): Fig. 5's `blurx(x, y) = A[tx, ty - 1, x, B + y]`;
//! its top `K - 1` rows are the tile's live-out data. `Q` is skipped on the first
//! `K - 1` image rows (Fig. 5's guard `ty*B + y >= 2`). The array is totally expanded to
//! `A[ty, c, tx, x, y]`; the tile indices are kept and only the data tile `(x, y)` is
//! folded (the bench-suite's `kept_dims`). Tiles of one tile row run in parallel (rayon;
//! the paper's OpenMP); rows of tiles run in order since each reads the one below.

use crate::layout::Layout;
use crate::wavefront::{hash01, key2, run_with_out};
use crate::{Body, KernelError, RunOutput};
use std::marker::PhantomData;
use std::ops::Range;

/// The two statements of a pipeline.
pub trait Stage<const K: usize>: Sync + Send {
    /// `P`: from the input window `in(X + k, Y)`, `k < K`.
    fn produce(w: &[f32; K]) -> f32;
    /// `Q`: from `A(x, y - k)`, `k < K`, and the input at the window's centre.
    fn consume(v: &[f32; K], centre: f32) -> f32;
}

/// Bhaskaracharya et al. 2016, Fig. 5: `blurx = in(x) + in(x + 1) + in(x + 2)`, `out = blurx(y) + blurx(y - 1) + blurx(y - 2)`.
pub struct Blur;
impl Stage<3> for Blur {
    #[inline(always)]
    fn produce(w: &[f32; 3]) -> f32 {
        w[0] + w[1] + w[2]
    }
    #[inline(always)]
    fn consume(v: &[f32; 3], _: f32) -> f32 {
        v[0] + v[1] + v[2]
    }
}

/// Unsharp mask (PolyMage): 5-tap binomial blur in x then y, sharpen, threshold mask.
pub struct Unsharp;
impl Stage<5> for Unsharp {
    #[inline(always)]
    fn produce(w: &[f32; 5]) -> f32 {
        (w[0] + 4.0 * w[1] + 6.0 * w[2] + 4.0 * w[3] + w[4]) * (1.0 / 16.0)
    }
    #[inline(always)]
    fn consume(v: &[f32; 5], c: f32) -> f32 {
        let blur = (v[0] + 4.0 * v[1] + 6.0 * v[2] + 4.0 * v[3] + v[4]) * (1.0 / 16.0);
        let sharpen = c * 1.5 - blur * 0.5;
        if (c - blur).abs() < 0.001 {
            c
        } else {
            sharpen
        }
    }
}

/// Harris corner (PolyMage), reduced to the one folded stage the bench-suite models:
/// `sobel = (in(x + 2) - in(x))^2` (the `Ixx` product), a 3-tap vertical `[1, 2, 1]`
/// sum, and the response `s - 0.04 s^2`.
pub struct Harris;
impl Stage<3> for Harris {
    #[inline(always)]
    fn produce(w: &[f32; 3]) -> f32 {
        let gx = w[2] - w[0];
        gx * gx
    }
    #[inline(always)]
    fn consume(v: &[f32; 3], _: f32) -> f32 {
        let s = v[0] + 2.0 * v[1] + v[2];
        s - 0.04 * s * s
    }
}

/// A tiled pipeline on an `N x N` image with `C` channels and tile size `B`.
pub struct ColumnPipeline<S, const K: usize> {
    pub n: i64,
    pub b: i64,
    pub channels: i64,
    inp: Vec<f32>,
    _s: PhantomData<S>,
}

impl<S: Stage<K>, const K: usize> ColumnPipeline<S, K> {
    pub fn new(n: i64, b: i64, channels: i64) -> Result<Self, KernelError> {
        if b < K as i64 || n < b || n % b != 0 || channels < 1 {
            return Err(KernelError::Config(format!(
                "tiled pipeline: N = {n}, B = {b}, C = {channels}: expected B >= {K}, N a multiple of B, C >= 1"
            )));
        }
        let w = n + K as i64 - 1;
        let inp = (0..channels * n * w).map(|k| hash01(key2(k / w, k % w)) as f32).collect();
        Ok(ColumnPipeline { n, b, channels, inp, _s: PhantomData })
    }

    fn tiles_per_row(&self) -> i64 {
        self.n / self.b
    }
}

impl<S: Stage<K>, const K: usize> Body<2> for ColumnPipeline<S, K> {
    fn dims(&self) -> &'static [&'static str] {
        &["x", "y"]
    }
    fn space(&self) -> ([i64; 2], [i64; 2]) {
        ([0, 0], [self.b - 1, self.b - 1])
    }
    fn run<L: Layout<2>>(&self, l: &L) -> Result<RunOutput, KernelError> {
        let start = std::time::Instant::now();
        let (n, b, c_n, nt) = (self.n, self.b, self.channels, self.tiles_per_row());
        let tile_len = l.len();
        let per_row = (c_n * nt) as usize;
        let n_tiles = per_row * nt as usize;
        let out_len = (b * b) as usize;
        let mut a = vec![0f32; n_tiles * tile_len];
        let mut out = vec![0f32; n_tiles * out_len];
        let fronts: Vec<Range<usize>> = (0..nt as usize).map(|ty| ty * per_row..(ty + 1) * per_row).collect();
        let w = (n + K as i64 - 1) as usize;
        let inp = &self.inp;
        let kk = K as i64;
        run_with_out(&mut a, tile_len, &mut out, out_len, &fronts, |id, chunk, done, o| {
            let ty = (id / per_row) as i64;
            let c = ((id % per_row) as i64) / nt;
            let tx = ((id % per_row) as i64) % nt;
            let below = if ty > 0 { (id - per_row) * tile_len } else { 0 };
            // The consumer's taps `A(x, y - k)`, `k < K`, relative to `(x, y)`.
            let taps: [[i64; 2]; K] = std::array::from_fn(|k| [0, -(k as i64)]);
            let bu = b as usize;
            for x in 0..b {
                let gx = (tx * b + x) as usize;
                let row0 = ((c * n + ty * b) as usize) * w + gx;
                l.line([x, 0], bu, &[], |y, here, _| {
                    let row = row0 + y * w;
                    let win: [f32; K] = std::array::from_fn(|k| inp[row + k]);
                    chunk[here] = S::produce(&win);
                });
                let centre = |gy: i64| inp[((c * n + gy - kk / 2) as usize) * w + gx + K / 2];
                // The first K - 1 rows read the tile below (none on the first tile row).
                let ob = (x * b) as usize;
                for y in 0..(kk - 1) {
                    let gy = ty * b + y;
                    if gy < kk - 1 {
                        continue;
                    }
                    let mut v = [0f32; K];
                    for (k, slot) in v.iter_mut().enumerate() {
                        let yy = y - k as i64;
                        *slot = if yy >= 0 { chunk[l.offset([x, yy])] } else { done[below + l.offset([x, b + yy])] };
                    }
                    o[ob + y as usize] = S::consume(&v, centre(gy));
                }
                // The other rows read their own tile only: one line.
                let (y0, gy0) = (kk - 1, ty * b + kk - 1);
                l.line([x, y0], bu - (K - 1), &taps, |k, _, r| {
                    let v: [f32; K] = std::array::from_fn(|j| chunk[r[j]]);
                    o[ob + K - 1 + k] = S::consume(&v, centre(gy0 + k as i64));
                });
            }
        });
        let elapsed = start.elapsed();
        Ok(RunOutput { values: out.iter().map(|v| v.to_bits() as u64).collect(), folded_cells: a.len(), cell_bytes: 4, elapsed })
    }
}

/// Plain loops over the whole image (no tiles, full arrays), the independent
/// reference of the tests: `A` is the `N x N` intermediate, `out` in the tile-major
/// order of [`ColumnPipeline`]'s output.
pub fn reference<S: Stage<K>, const K: usize>(p: &ColumnPipeline<S, K>) -> Vec<u64> {
    let (n, b, c_n, nt) = (p.n, p.b, p.channels, p.tiles_per_row());
    let w = (n + K as i64 - 1) as usize;
    let mut out_all = Vec::new();
    let mut planes = Vec::new();
    for c in 0..c_n {
        let mut a = vec![0f32; (n * n) as usize];
        for gy in 0..n {
            for gx in 0..n {
                let row = ((c * n + gy) as usize) * w + gx as usize;
                let mut win = [0f32; K];
                for (k, v) in win.iter_mut().enumerate() {
                    *v = p.inp[row + k];
                }
                a[(gy * n + gx) as usize] = S::produce(&win);
            }
        }
        let mut out = vec![0f32; (n * n) as usize];
        for gy in (K as i64 - 1)..n {
            for gx in 0..n {
                let mut v = [0f32; K];
                for (k, slot) in v.iter_mut().enumerate() {
                    *slot = a[((gy - k as i64) * n + gx) as usize];
                }
                let centre = p.inp[((c * n + gy - K as i64 / 2) as usize) * w + gx as usize + K / 2];
                out[(gy * n + gx) as usize] = S::consume(&v, centre);
            }
        }
        planes.push(out);
    }
    for ty in 0..nt {
        for (c, plane) in planes.iter().enumerate() {
            let _ = c;
            for tx in 0..nt {
                for x in 0..b {
                    for y in 0..b {
                        out_all.push(plane[((ty * b + y) * n + tx * b + x) as usize].to_bits() as u64);
                    }
                }
            }
        }
    }
    out_all
}
