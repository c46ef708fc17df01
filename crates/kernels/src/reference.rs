//! Plain loops over full arrays (no tiles, no layouts, no folding): the independent
//! references the tests compare every kernel and storage with. They follow the same
//! arithmetic in the same order as the kernels, so results are bit-identical.

use crate::lbm::{collide, initial, VelSet};
use crate::simple::{src, BlurInterleaved};

/// Bhaskaracharya et al. 2016, Fig. 2 on a full `N x N` array (index `(t - 1, i - 1)`).
pub fn produce_consume(n: i64) -> Vec<u64> {
    let nu = n as usize;
    let mut a = vec![vec![0f64; nu]; nu];
    for t in 1..=n {
        for i in 1..=n {
            let (tu, iu) = (t as usize - 1, i as usize - 1);
            let left = if i >= 2 { a[tu][iu - 1] } else { src(t, 0) };
            let up = if t >= 2 { a[tu - 1][iu] } else { src(0, i) };
            a[tu][iu] = 0.5 * left + 0.25 * up + 0.25 * src(t, i);
        }
    }
    let mut v: Vec<u64> = (0..nu).map(|t| a[t][nu - 1].to_bits()).collect();
    v.extend((0..nu - 1).map(|i| a[nu - 1][i].to_bits()));
    v
}

/// Bhaskaracharya et al. 2016, Fig. 4(a): the horizontal blur over the whole image, then the vertical one.
pub fn blur_interleaved(k: &BlurInterleaved) -> Vec<u64> {
    let n = k.n as usize;
    let w = n + 2;
    let mut bx = vec![0f32; n * n];
    for y in 0..n {
        for x in 0..n {
            bx[y * n + x] = k.inp[y * w + x] + k.inp[y * w + x + 1] + k.inp[y * w + x + 2];
        }
    }
    let mut out = Vec::new();
    for y in 2..n {
        for x in 0..n {
            out.push((bx[(y - 2) * n + x] + bx[(y - 1) * n + x] + bx[y * n + x]).to_bits() as u64);
        }
    }
    out
}

/// LBM on a full `T x N^dim` node array, time step by time step.
pub fn lbm<const Q: usize>(vs: &VelSet<Q>, dim: usize, n: i64, t: i64) -> Vec<u64> {
    let nk = if dim == 3 { n } else { 1 };
    let sites = (n * n * nk) as usize;
    let idx = |i: i64, j: i64, k: i64| ((i * n + j) * nk + k) as usize;
    let mut steps: Vec<Vec<[f64; Q]>> = Vec::new();
    let mut s0 = vec![[0f64; Q]; sites];
    for i in 0..n {
        for j in 0..n {
            for k in 0..nk {
                s0[idx(i, j, k)] = initial(vs, i, j, k);
            }
        }
    }
    steps.push(s0);
    for step in 1..t as usize {
        let prev = &steps[step - 1];
        let mut next = vec![[0f64; Q]; sites];
        for i in 0..n {
            for j in 0..n {
                for k in 0..nk {
                    let mut f = [0f64; Q];
                    for q in 0..Q {
                        let (si, sj, sk) = (i - vs.c[q][0], j - vs.c[q][1], k - vs.c[q][2]);
                        let ok = (0..n).contains(&si) && (0..n).contains(&sj) && (0..nk).contains(&sk);
                        f[q] = if ok { prev[idx(si, sj, sk)][q] } else { vs.w[q] };
                    }
                    collide(vs, &mut f);
                    next[idx(i, j, k)] = f;
                }
            }
        }
        steps.push(next);
    }
    steps.last().map(|s| s.iter().flat_map(|f| f.iter().map(|v| v.to_bits())).collect()).unwrap_or_default()
}
