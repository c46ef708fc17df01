//! Criterion benchmarks of the index schemes of `polyalloc_kernels::layout` on one
//! loop nest: a 3-point stencil sweep `A[x, y] = (A[x-1, y-1] + A[x-1, y] + A[x-1, y+1]) / 3`
//! over a `256 x 4096` array space, walked with `Layout::line` along `y` (as every
//! kernel walks its innermost loop), with storage
//!
//! * `full`: the whole array (one add per access and step),
//! * `plain`: the mapping as is (`rem_euclid` per row and access),
//! * `tuned`: the Bhaskaracharya et al. 2016, Sec. 5 mitigation per row, evaluated per access (`Masked` when
//!   every row is `base`/`mask`),
//! * `stepped`: the innermost loop strength-reduced as planned from the mapping
//!   (`layout::line_op`), and with every wrapping row forced to `split` and to `step`
//!   (`stepped-split`, `stepped-step`): the measurement behind `SPLIT_MIN_RUN`.
//!
//! Mappings (`h` over `[x, y]`, modulus): `window` `[x mod 3, y]` (a rotating window of
//! three rows: `hoist,affine`), `skew-urem` `(y - x) mod 1021` (`urem`, wraps every
//! 1021 steps: `split`), `skew-mask` `(y - x) mod 1024` (`mask`, `split`), `dense-step`
//! `(x + 2y) mod 7` (wraps every 3-4 steps: `step`). `cargo bench -p polyalloc-kernels
//! --bench index`; results in `target/criterion/index-*`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use polyalloc_kernels::layout::{self, ArraySpace, Full, Layout, LayoutPlan, Masked, Plain, Stepped, Tuned};
use std::hint::black_box;

const ROWS: i64 = 256;
const COLS: i64 = 4096;

fn sweep<L: Layout<2>>(l: &L, a: &mut [f64]) -> f64 {
    for y in 0..COLS {
        a[l.offset([0, y])] = (y % 17) as f64;
    }
    for x in 1..ROWS {
        a[l.offset([x, 0])] = 1.0;
        l.line([x, 1], (COLS - 2) as usize, &[[-1, -1], [-1, 0], [-1, 1]], |_, here, r| {
            a[here] = (a[r[0]] + a[r[1]] + a[r[2]]) * (1.0 / 3.0);
        });
        a[l.offset([x, COLS - 1])] = 1.0;
    }
    a[l.offset([ROWS - 1, COLS / 2])]
}

fn bench_layout<L: Layout<2>>(g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, name: &str, l: &L) {
    let mut a = vec![0f64; l.len()];
    g.bench_function(BenchmarkId::from_parameter(name), |b| b.iter(|| black_box(sweep(l, &mut a))));
}

fn bench_mapping<const M: usize>(c: &mut Criterion, name: &str, plan: &LayoutPlan) {
    let mut g = c.benchmark_group(format!("index-{name}"));
    g.sample_size(20);
    let full = Full::new([0, 0], [ROWS - 1, COLS - 1]).expect("full layout");
    bench_layout(&mut g, "full", &full);
    bench_layout(&mut g, "plain", &Plain::<2, M>::new(plan).expect("plain layout"));
    match Masked::<2, M>::new(plan).expect("masked layout") {
        Some(m) => bench_layout(&mut g, "tuned", &m),
        None => bench_layout(&mut g, "tuned", &Tuned::<2, M>::new(plan).expect("tuned layout")),
    }
    bench_layout(&mut g, &format!("stepped({})", plan.describe_line()), &Stepped::<2, M>::new(plan).expect("stepped layout"));
    bench_layout(&mut g, "stepped-split", &Stepped::<2, M>::new(&plan.with_split_min_run(1)).expect("stepped layout"));
    bench_layout(&mut g, "stepped-step", &Stepped::<2, M>::new(&plan.with_split_min_run(i64::MAX)).expect("stepped layout"));
    g.finish();
}

fn index(c: &mut Criterion) {
    let (lo, hi) = ([0, 0], [ROWS - 1, COLS - 1]);
    let space = ArraySpace { lo: &lo, hi: &hi, member: None };
    let plan = |hs: &[Vec<i64>], moduli: &[Option<i64>]| layout::plan(hs, moduli, &space, &mut |_, _| Ok(false)).expect("plan");
    bench_mapping::<2>(c, "window", &plan(&[vec![1, 0], vec![0, 1]], &[Some(3), None]));
    bench_mapping::<1>(c, "skew-urem", &plan(&[vec![-1, 1]], &[Some(1021)]));
    bench_mapping::<1>(c, "skew-mask", &plan(&[vec![-1, 1]], &[Some(1024)]));
    bench_mapping::<1>(c, "dense-step", &plan(&[vec![1, 2]], &[Some(7)]));
}

criterion_group!(benches, index);
criterion_main!(benches);
