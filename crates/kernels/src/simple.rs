//! Untiled kernels: produce-consume (Bhaskaracharya et al. 2016, Fig. 2) and blur-interleaved (Bhaskaracharya et al. 2016, Fig. 4(b)).

use crate::layout::Layout;
use crate::wavefront::{hash01, key2};
use crate::{Body, KernelError, RunOutput};

/// Bhaskaracharya et al. 2016, Fig. 2: `S(t, i): A[t, i] = f(A[t, i - 1], A[t - 1, i])` over `1 <= t, i <= N`
/// in the order `(t, i)`; the consumer loop reads the last column and the last row
/// (the live-out cells). Reads outside the array (`i = 1`, `t = 1`) are inputs.
pub struct ProduceConsume {
    pub n: i64,
}

#[inline(always)]
pub(crate) fn src(t: i64, i: i64) -> f64 {
    ((t * 7 + i * 13) & 255) as f64 * (1.0 / 256.0)
}

impl Body<2> for ProduceConsume {
    fn dims(&self) -> &'static [&'static str] {
        &["t", "i"]
    }
    fn space(&self) -> ([i64; 2], [i64; 2]) {
        ([1, 1], [self.n, self.n])
    }
    fn run<L: Layout<2>>(&self, l: &L) -> Result<RunOutput, KernelError> {
        let start = std::time::Instant::now();
        let n = self.n;
        let mut a = vec![0f64; l.len()];
        for t in 1..=n {
            // i = 1 reads the input on its left; the rest of the row is one line.
            let up = if t >= 2 { a[l.offset([t - 1, 1])] } else { src(0, 1) };
            a[l.offset([t, 1])] = 0.5 * src(t, 0) + 0.25 * up + 0.25 * src(t, 1);
            let len = (n - 1) as usize;
            if t >= 2 {
                l.line([t, 2], len, &[[0, -1], [-1, 0]], |k, here, r| {
                    a[here] = 0.5 * a[r[0]] + 0.25 * a[r[1]] + 0.25 * src(t, 2 + k as i64);
                });
            } else {
                l.line([t, 2], len, &[[0, -1]], |k, here, r| {
                    let i = 2 + k as i64;
                    a[here] = 0.5 * a[r[0]] + 0.25 * src(0, i) + 0.25 * src(t, i);
                });
            }
        }
        let elapsed = start.elapsed();
        // The consumer loop: A[t, N] for every t, then A[N, i] for i < N.
        let mut values: Vec<u64> = (1..=n).map(|t| a[l.offset([t, n])].to_bits()).collect();
        values.extend((1..n).map(|i| a[l.offset([n, i])].to_bits()));
        Ok(RunOutput { values, folded_cells: a.len(), cell_bytes: 8, elapsed })
    }
}

/// Bhaskaracharya et al. 2016, Fig. 4(b): horizontal and vertical blur interleaved row by row:
/// `S(y, x): blurx[y, x] = in(x, y) + in(x + 1, y) + in(x + 2, y)` then
/// `T(y, x) (y >= 2): out(x, y) = blurx[y - 2, x] + blurx[y - 1, x] + blurx[y, x]`,
/// schedule `(y, x, 0)`, `(y, x, 1)`. `blurx` is folded; `out` is the result. The input
/// is stored row by row (`in(x, y)` at `y * (N + 2) + x`), a layout choice for an array
/// that is not folded.
pub struct BlurInterleaved {
    pub n: i64,
    pub(crate) inp: Vec<f32>,
}

impl BlurInterleaved {
    pub fn new(n: i64) -> Result<Self, KernelError> {
        if n < 3 {
            return Err(KernelError::Config(format!("blur-interleaved: N = {n}, expected N >= 3")));
        }
        let w = n + 2;
        let inp = (0..n * w).map(|k| hash01(key2(k / w, k % w)) as f32).collect();
        Ok(BlurInterleaved { n, inp })
    }
}

impl Body<2> for BlurInterleaved {
    fn dims(&self) -> &'static [&'static str] {
        &["y", "x"]
    }
    fn space(&self) -> ([i64; 2], [i64; 2]) {
        ([0, 0], [self.n - 1, self.n - 1])
    }
    fn run<L: Layout<2>>(&self, l: &L) -> Result<RunOutput, KernelError> {
        let start = std::time::Instant::now();
        let n = self.n;
        let w = (n + 2) as usize;
        let nu = n as usize;
        let mut b = vec![0f32; l.len()];
        let mut out = vec![0f32; (nu - 2) * nu];
        let inp = &self.inp;
        for y in 0..n {
            let row = y as usize * w;
            if y >= 2 {
                let o = (y as usize - 2) * nu;
                l.line([y, 0], nu, &[[-2, 0], [-1, 0]], |x, here, r| {
                    b[here] = inp[row + x] + inp[row + x + 1] + inp[row + x + 2];
                    out[o + x] = b[r[0]] + b[r[1]] + b[here];
                });
            } else {
                l.line([y, 0], nu, &[], |x, here, _| b[here] = inp[row + x] + inp[row + x + 1] + inp[row + x + 2]);
            }
        }
        let elapsed = start.elapsed();
        Ok(RunOutput { values: out.iter().map(|v| v.to_bits() as u64).collect(), folded_cells: b.len(), cell_bytes: 4, elapsed })
    }
}
