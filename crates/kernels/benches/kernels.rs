//! Criterion benchmarks of the kernels: full storage, and every method's mapping in the
//! plain, tuned and stepped variants, at reduced sizes (a quarter of the `cargo xtask kernels`
//! problem in each tiled/image dimension) so a `cargo bench -p polyalloc-kernels` stays
//! short. The mappings come from the allocators at start-up, as in `cargo xtask kernels`.

use criterion::{criterion_group, criterion_main, Criterion};
use polyalloc_kernels::{method_mapping, Instance, KernelId, Size, Storage, Variant};
use std::path::PathBuf;

fn suite_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("bench-suite")
}

fn bench_size(k: KernelId) -> Size {
    let s = k.default_size();
    match k {
        KernelId::LbmD2q9 => Size { n: 128, t: 64, b: 0 },
        KernelId::LbmD3q19 | KernelId::LbmD3q27 => Size { n: 24, t: 24, b: 0 },
        KernelId::DiamondTile | KernelId::Stencil1dPllgmTile => Size { n: s.n / 4, t: s.t / 4, b: s.b },
        _ => Size { n: s.n / 4, t: 0, b: s.b.min(s.n / 4) },
    }
}

fn kernels(c: &mut Criterion) {
    let dir = suite_dir();
    for k in KernelId::ALL {
        let Ok(inst) = Instance::new(k, bench_size(k)) else { continue };
        let mut g = c.benchmark_group(k.name());
        g.sample_size(10);
        g.bench_function("full", |b| b.iter(|| inst.run(Storage::Full).map(|o| o.values.len())));
        for method in ["lefe", "smo", "lattice"] {
            let Ok(mm) = method_mapping(&dir, k, method, polyalloc_solvers::DEFAULT_BACKEND) else { continue };
            let Ok(plan) = inst.plan(&mm.mapping, &mut |_, _| Ok(false)) else { continue };
            for v in Variant::ALL {
                g.bench_function(format!("{method}-{}", v.name()), |b| b.iter(|| inst.run(Storage::Folded(&plan, v)).map(|o| o.values.len())));
            }
        }
        g.finish();
    }
}

criterion_group!(benches, kernels);
criterion_main!(benches);
