//! Lattice-Boltzmann kernels D2Q9, D3Q19, D3Q27 (Bhaskaracharya et al. 2016, Sec. 4 "LBM", Fig. 6), pull model.
//!
//! Node `A[t, i, j(, k)]` holds the `Q` post-collision distributions of one lattice
//! site at time step `t`; it is computed at logical time `(t, i, j(, k))` (the
//! bench-suite's schedule): it pulls distribution `q` from the neighbour
//! `(t - 1, x - c_q)` (reads outside the lattice are a fixed inflow at rest), then
//! applies a BGK collision. Step 0 is the initial state. The last time step is
//! live-out. The folded array is the node array (one cell = `Q` doubles), as in the
//! paper, where the `Q` values of a node move together.

use crate::layout::Layout;
use crate::wavefront::{hash01, key2};
use crate::{Body, KernelError, RunOutput};

const OMEGA: f64 = 1.0 / 0.6;

/// A velocity set: `Q` velocities (all in `{-1, 0, 1}^3`) and weights.
pub struct VelSet<const Q: usize> {
    pub c: [[i64; 3]; Q],
    pub w: [f64; Q],
}

fn velocities<const Q: usize>(dim: usize, max_l1: i64) -> Result<VelSet<Q>, KernelError> {
    let mut c = [[0i64; 3]; Q];
    let mut w = [0f64; Q];
    let mut n = 0;
    let r: std::ops::RangeInclusive<i64> = if dim == 3 { -1..=1 } else { 0..=0 };
    for a in -1i64..=1 {
        for b in -1i64..=1 {
            for d in r.clone() {
                let l1 = a.abs() + b.abs() + d.abs();
                if l1 > max_l1 {
                    continue;
                }
                if n >= Q {
                    return Err(KernelError::Config(format!("velocity set larger than Q = {Q}")));
                }
                c[n] = [a, b, d];
                w[n] = match (dim, Q, l1) {
                    (2, 9, 0) => 4.0 / 9.0,
                    (2, 9, 1) => 1.0 / 9.0,
                    (2, 9, _) => 1.0 / 36.0,
                    (3, 19, 0) => 1.0 / 3.0,
                    (3, 19, 1) => 1.0 / 18.0,
                    (3, 19, _) => 1.0 / 36.0,
                    (3, 27, 0) => 8.0 / 27.0,
                    (3, 27, 1) => 2.0 / 27.0,
                    (3, 27, 2) => 1.0 / 54.0,
                    (3, 27, _) => 1.0 / 216.0,
                    _ => return Err(KernelError::Config(format!("no D{dim}Q{Q} lattice"))),
                };
                n += 1;
            }
        }
    }
    if n != Q {
        return Err(KernelError::Config(format!("D{dim}Q{Q}: found {n} velocities")));
    }
    Ok(VelSet { c, w })
}

/// BGK collision of pulled distributions `f` (in place).
#[inline(always)]
pub fn collide<const Q: usize>(vs: &VelSet<Q>, f: &mut [f64; Q]) {
    let mut rho = 0.0;
    let mut u = [0.0f64; 3];
    for q in 0..Q {
        rho += f[q];
        for (d, ud) in u.iter_mut().enumerate() {
            *ud += f[q] * vs.c[q][d] as f64;
        }
    }
    let inv = 1.0 / rho;
    for ud in u.iter_mut() {
        *ud *= inv;
    }
    let usq = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    for q in 0..Q {
        let cu = vs.c[q][0] as f64 * u[0] + vs.c[q][1] as f64 * u[1] + vs.c[q][2] as f64 * u[2];
        let feq = vs.w[q] * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq);
        f[q] += OMEGA * (feq - f[q]);
    }
}

/// The initial node at site `(i, j, k)`: equilibrium with a perturbed density and velocity.
pub fn initial<const Q: usize>(vs: &VelSet<Q>, i: i64, j: i64, k: i64) -> [f64; Q] {
    let key = key2(key2(i, j) as i64, k);
    let rho = 1.0 + 0.05 * hash01(key);
    let u = [0.05 * (hash01(key ^ 1) - 0.5), 0.05 * (hash01(key ^ 2) - 0.5), 0.05 * (hash01(key ^ 3) - 0.5)];
    let mut u = u;
    if vs.c.iter().all(|c| c[2] == 0) {
        u[2] = 0.0;
    }
    let usq = u[0] * u[0] + u[1] * u[1] + u[2] * u[2];
    let mut f = [0.0; Q];
    for q in 0..Q {
        let cu = vs.c[q][0] as f64 * u[0] + vs.c[q][1] as f64 * u[1] + vs.c[q][2] as f64 * u[2];
        f[q] = vs.w[q] * rho * (1.0 + 3.0 * cu + 4.5 * cu * cu - 1.5 * usq);
    }
    f
}

/// The site `x = (t, i, j(, k))`, `t >= 1`: pulls distribution `q` from `(t - 1, x -
/// c_q)`, or the inflow at rest `w_q` when that lies outside the `N^d` lattice, collides
/// and stores the node.
#[inline(always)]
fn pull_site<const D: usize, const Q: usize, L: Layout<D>>(l: &L, a: &mut [[f64; Q]], vs: &VelSet<Q>, n: i64, x: [i64; D]) {
    let mut f = [0f64; Q];
    for q in 0..Q {
        let mut s = x;
        s[0] -= 1;
        let mut ok = true;
        for d in 1..D {
            s[d] -= vs.c[q][d - 1];
            ok &= s[d] >= 0 && s[d] < n;
        }
        f[q] = if ok { a[l.offset(s)][q] } else { vs.w[q] };
    }
    collide(vs, &mut f);
    a[l.offset(x)] = f;
}

/// The sites `x0 + k e`, `k < len`, of a line along the last lattice dimension whose
/// pulled sources all lie inside the lattice in that dimension (`1 <= x_last < N - 1`):
/// what [`pull_site`] computes, walked with [`Layout::line`]. `inside(q)`: the source of
/// `q` lies inside the lattice in the other dimensions (fixed along the line); the
/// others read the inflow (their offset is the site's own at `t - 1`, never used).
#[inline(always)]
fn pull_line<const D: usize, const Q: usize, L: Layout<D>>(
    l: &L,
    a: &mut [[f64; Q]],
    vs: &VelSet<Q>,
    x0: [i64; D],
    len: usize,
    inside: impl Fn(usize) -> bool,
) {
    let mut deltas = [[0i64; D]; Q];
    let mut inflow = [false; Q];
    for q in 0..Q {
        deltas[q][0] = -1;
        if inside(q) {
            for d in 1..D {
                deltas[q][d] = -vs.c[q][d - 1];
            }
        } else {
            inflow[q] = true;
        }
    }
    if inflow.contains(&true) {
        l.line(x0, len, &deltas, |_, here, r| {
            let mut f: [f64; Q] = std::array::from_fn(|q| if inflow[q] { vs.w[q] } else { a[r[q]][q] });
            collide(vs, &mut f);
            a[here] = f;
        });
    } else {
        l.line(x0, len, &deltas, |_, here, r| {
            let mut f: [f64; Q] = std::array::from_fn(|q| a[r[q]][q]);
            collide(vs, &mut f);
            a[here] = f;
        });
    }
}

/// D2Q9 on an `N x N` lattice for `T <= N` steps; array `A[t, i, j]`.
pub struct Lbm2 {
    pub n: i64,
    pub t: i64,
    vs: VelSet<9>,
}

impl Lbm2 {
    pub fn new(n: i64, t: i64) -> Result<Self, KernelError> {
        if n < 3 || t < 1 || t > n {
            return Err(KernelError::Config(format!(
                "LBM-D2Q9: N = {n}, T = {t}: expected N >= 3, 1 <= T <= N (the array space is N in every dimension)"
            )));
        }
        Ok(Lbm2 { n, t, vs: velocities::<9>(2, 2)? })
    }
    pub fn vel(&self) -> &VelSet<9> {
        &self.vs
    }
}

impl Body<3> for Lbm2 {
    fn dims(&self) -> &'static [&'static str] {
        &["t", "i", "j"]
    }
    fn space(&self) -> ([i64; 3], [i64; 3]) {
        ([0, 0, 0], [self.t - 1, self.n - 1, self.n - 1])
    }
    fn run<L: Layout<3>>(&self, l: &L) -> Result<RunOutput, KernelError> {
        let start = std::time::Instant::now();
        let (n, vs) = (self.n, &self.vs);
        let mut a = vec![[0f64; 9]; l.len()];
        for i in 0..n {
            for j in 0..n {
                a[l.offset([0, i, j])] = initial(vs, i, j, 0);
            }
        }
        let inside = |v: i64| v >= 0 && v < n;
        for t in 1..self.t {
            for i in 0..n {
                pull_site(l, &mut a, vs, n, [t, i, 0]);
                pull_line(l, &mut a, vs, [t, i, 1], (n - 2) as usize, |q| inside(i - vs.c[q][0]));
                pull_site(l, &mut a, vs, n, [t, i, n - 1]);
            }
        }
        let elapsed = start.elapsed();
        let mut values = Vec::with_capacity((n * n * 9) as usize);
        for i in 0..n {
            for j in 0..n {
                values.extend(a[l.offset([self.t - 1, i, j])].iter().map(|v| v.to_bits()));
            }
        }
        Ok(RunOutput { values, folded_cells: a.len(), cell_bytes: 9 * 8, elapsed })
    }
}

/// D3Q19 (`Q = 19`) or D3Q27 (`Q = 27`) on an `N^3` lattice for `T <= N` steps; array
/// `A[t, i, j, k]`.
pub struct Lbm3<const Q: usize> {
    pub n: i64,
    pub t: i64,
    vs: VelSet<Q>,
}

impl<const Q: usize> Lbm3<Q> {
    pub fn new(n: i64, t: i64) -> Result<Self, KernelError> {
        if n < 3 || t < 1 || t > n {
            return Err(KernelError::Config(format!("LBM-D3Q{Q}: N = {n}, T = {t}: expected N >= 3, 1 <= T <= N")));
        }
        let max_l1 = if Q == 19 { 2 } else { 3 };
        Ok(Lbm3 { n, t, vs: velocities::<Q>(3, max_l1)? })
    }
    pub fn vel(&self) -> &VelSet<Q> {
        &self.vs
    }
}

impl<const Q: usize> Body<4> for Lbm3<Q> {
    fn dims(&self) -> &'static [&'static str] {
        &["t", "i", "j", "k"]
    }
    fn space(&self) -> ([i64; 4], [i64; 4]) {
        ([0, 0, 0, 0], [self.t - 1, self.n - 1, self.n - 1, self.n - 1])
    }
    fn run<L: Layout<4>>(&self, l: &L) -> Result<RunOutput, KernelError> {
        let start = std::time::Instant::now();
        let (n, vs) = (self.n, &self.vs);
        let mut a = vec![[0f64; Q]; l.len()];
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    a[l.offset([0, i, j, k])] = initial(vs, i, j, k);
                }
            }
        }
        let inside = |v: i64| v >= 0 && v < n;
        for t in 1..self.t {
            for i in 0..n {
                for j in 0..n {
                    pull_site(l, &mut a, vs, n, [t, i, j, 0]);
                    let ok = |q: usize| inside(i - vs.c[q][0]) && inside(j - vs.c[q][1]);
                    pull_line(l, &mut a, vs, [t, i, j, 1], (n - 2) as usize, ok);
                    pull_site(l, &mut a, vs, n, [t, i, j, n - 1]);
                }
            }
        }
        let elapsed = start.elapsed();
        let mut values = Vec::with_capacity((n * n * n) as usize * Q);
        for i in 0..n {
            for j in 0..n {
                for k in 0..n {
                    values.extend(a[l.offset([self.t - 1, i, j, k])].iter().map(|v| v.to_bits()));
                }
            }
        }
        Ok(RunOutput { values, folded_cells: a.len(), cell_bytes: Q * 8, elapsed })
    }
}
