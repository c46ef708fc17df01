//! Solve time of the successive-modulo baseline and of SMO per SMO Table I example and
//! backend (criterion): `cargo bench -p polyalloc-tests --bench smo [--features highs,cbc]`.
//! The paper's models are tiny, so backend start-up cost dominates; this measures it.
//!
//! `method/...`: SMO's `find_mapping` alone (no verification), the time `cargo xtask
//! bench` compares with the SMO tool's; `ilp/...`: the same with every hyperplane's ILP
//! solved by the backend, also those presolve settles (`SmoOptions::solve_settled`: the
//! backends' own time on SMO's models); `allocate/...`: through the facade's `run`, with the exact check.

use criterion::{criterion_group, criterion_main, Criterion};
use polyalloc_alloc::Allocator;
use polyalloc_alloc_smo::{Smo, SmoOptions};
use polyalloc_suite::{default_dir, load_dir};
use polyalloc_tests::{allocate, method};

fn smo(c: &mut Criterion) {
    let examples = load_dir(&default_dir()).expect("bench-suite loads");
    let reg = polyalloc_solvers::registry();
    let methods: Vec<&dyn Allocator> = vec![method("lefe"), method("smo")];
    for ex in examples.iter().filter(|e| e.id.starts_with("smo-")) {
        for array in ex.allocatable_arrays() {
            let Ok(problem) = ex.problem(&array) else { continue };
            let mut group = c.benchmark_group(format!("method/{}/{array}/smo", ex.id));
            group.sample_size(20);
            for name in reg.names() {
                let Ok(solver) = reg.create(name) else { continue };
                group.bench_function(name, |b| b.iter(|| method("smo").find_mapping(&problem, solver.as_ref())));
            }
            group.finish();
            let solved = Smo { options: SmoOptions { solve_settled: true, ..SmoOptions::default() } };
            let mut group = c.benchmark_group(format!("ilp/{}/{array}/smo", ex.id));
            group.sample_size(20);
            for name in reg.names() {
                let Ok(solver) = reg.create(name) else { continue };
                group.bench_function(name, |b| b.iter(|| solved.find_mapping(&problem, solver.as_ref())));
            }
            group.finish();
            for m in &methods {
                let mut group = c.benchmark_group(format!("allocate/{}/{array}/{}", ex.id, m.name()));
                group.sample_size(10);
                for name in reg.names() {
                    let Ok(solver) = reg.create(name) else { continue };
                    group.bench_function(name, |b| b.iter(|| allocate(*m, &problem, solver.as_ref()).map(|a| a.mapping)));
                }
                group.finish();
            }
        }
    }
}

criterion_group!(benches, smo);
criterion_main!(benches);
