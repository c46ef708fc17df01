//! Network flow (Algorithm 1 with network simplex, symbolic in the parameters) against
//! Problem 1 as an ILP on every compiled-in backend (at the example's largest instance):
//! `cargo bench -p polyalloc-alloc-flow [--features highs,cbc]`.

use criterion::{criterion_group, criterion_main, Criterion};
use polyalloc_alloc_flow::{algorithm, ilp, LoopSequence};
use std::collections::BTreeMap;

fn load(id: &str) -> Option<(LoopSequence, BTreeMap<String, i64>)> {
    let path = format!("{}/../../bench-suite/{id}.json", env!("CARGO_MANIFEST_DIR"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()?;
    let params: Vec<String> = serde_json::from_value(v["params"].clone()).ok()?;
    let mut instances: Vec<BTreeMap<String, i64>> = serde_json::from_value(v["instances"].clone()).ok()?;
    let seq = LoopSequence::from_json(&v["flow"], &params).ok()?;
    Some((seq, instances.pop()?))
}

fn flow_vs_ilp(c: &mut Criterion) {
    let reg = polyalloc_solvers::registry();
    for id in ["flow-example1", "flow-example2", "flow-ll14", "flow-ll18", "flow-jacobi"] {
        let Some((seq, inst)) = load(id) else { continue };
        let Ok(result) = algorithm::solve(&seq) else { continue };
        let Ok(s) = seq.coalescing_at(&inst) else { continue };
        let mut group = c.benchmark_group(id);
        group.sample_size(20);
        group.bench_function("network-simplex", |b| b.iter(|| algorithm::solve(&seq).map(|r| r.problem1_objective)));
        for name in reg.names() {
            let Ok(solver) = reg.create(name) else { continue };
            group.bench_function(format!("ilp-{name}"), |b| b.iter(|| ilp::solve(&seq, &result.g0, &s, solver.as_ref(), None).map(|a| a.objective)));
        }
        group.finish();
    }
}

criterion_group!(benches, flow_vs_ilp);
criterion_main!(benches);
