//! Solve time per backend on the conformance suite (criterion). Run with
//! `cargo bench -p polyalloc-solvers --features highs,cbc` or `cargo xtask bench`.

use criterion::{criterion_group, criterion_main, Criterion};
use polyalloc_solvers::conformance::{all_cases, run_case, Expected};
use polyalloc_solvers::registry;

fn backends(c: &mut Criterion) {
    let reg = registry();
    for case in all_cases() {
        if case.expected == Expected::TimeLimit {
            continue; // measures the time limit, not the solver
        }
        let mut group = c.benchmark_group(case.name);
        for name in reg.names() {
            let solver = match reg.create(name) {
                Ok(s) => s,
                Err(_) => continue,
            };
            group.bench_function(name, |b| b.iter(|| run_case(solver.as_ref(), &case)));
        }
        group.finish();
    }
}

criterion_group!(benches, backends);
criterion_main!(benches);
