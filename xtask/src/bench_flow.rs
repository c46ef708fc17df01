//! `cargo xtask bench` for method `flow` (paper Song et al. 2005): the network flow algorithm
//! against the LP/ILP backends on the same problem.
//!
//! For every example that is a loop sequence of paper Song et al. 2005 (its `flow` section reads as a
//! `polyalloc_alloc_flow::LoopSequence`) and that a selected method ran on (`bench`
//! passes those; `--only` and `--method` select as for every method):
//! * method `flow`, backend `network-simplex`: the whole of Algorithm 1 (G0, G1, G2,
//!   network simplex on vector costs, recovery of Problems 3-0), symbolic in the
//!   parameters, timed K times;
//! * method `flow-ilp`, one row per backend: Problem 1 as an ILP at the example's
//!   largest instance (`polyalloc_alloc_flow::ilp`), timed K times; a run counts as ok
//!   when its optimum equals the flow's `sum M . s` at that instance.
//!
//! The size column is the total contracted memory (symbolic for the flow, its value at
//! the instance for the ILP). The registry's `flow` records themselves (one per local
//! array, each a full verified run) are benched like every other method's.
//!
//! Caveat when reading the times: the dev profile compiles the workspace crates (the
//! flow algorithm) and the dependencies (microlp) at opt-level 2, with debug assertions
//! and overflow checks in the workspace; the flow also solves the symbolic problem (vector costs, conditions, every
//! intermediate problem and its checks) once for all instances, the ILP one instance.
//! `cargo bench -p polyalloc-alloc-flow` compares both optimised.

use crate::results::{BenchRecord, ResultsFile, Spread};
use crate::XtaskError;
use polyalloc::run;
use polyalloc_alloc_flow::{algorithm, ilp, vecs, LoopSequence};
use polyalloc_suite::Example;
use std::time::Instant;

/// Appends the flow-vs-ILP bench records of the loop sequences among `examples` to `out`.
pub fn extend<'a>(opts: &crate::bench::Options, examples: impl Iterator<Item = &'a Example>, out: &mut ResultsFile) -> Result<(), XtaskError> {
    let repeat = opts.repeat.max(1);
    let backends = run::backends(&opts.reproduce.backend)?;
    for ex in examples {
        let seq = match LoopSequence::of_example(ex) {
            Ok(Some(seq)) => seq,
            Ok(None) => continue, // not a loop sequence of paper 003
            Err(e) => {
                out.skipped.push(format!("{}: flow: {e}", ex.id));
                continue;
            }
        };
        let Some(inst) = run::largest_instance(ex) else { continue };
        let mut times = Vec::new();
        let mut solved = None;
        for _ in 0..repeat {
            let start = Instant::now();
            let r = algorithm::solve(&seq);
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            match r {
                Ok(x) => {
                    times.push(ms);
                    solved = Some(x);
                }
                Err(e) => {
                    out.skipped.push(format!("{}: flow: {e}", ex.id));
                    break;
                }
            }
        }
        let Some(result) = solved else { continue };
        out.bench.push(BenchRecord {
            example: ex.id.clone(),
            array: "(all local regions)".into(),
            method: "flow".into(),
            backend: "network-simplex".into(),
            repeat,
            ok_runs: times.len(),
            solve_ms: Spread::of(&times),
            method_ms: Spread::of(&times),
            size: result.total_memory(&seq).ok().map(|p| p.to_string()),
            solver_ms: None,
            reference: None,
        });
        let s = seq.coalescing_at(&inst).map_err(|e| XtaskError::Input(format!("{}: {e}", ex.id)))?;
        let expect = vecs::dot(&result.problem1_objective, &s).map_err(|e| XtaskError::Input(format!("{}: {e}", ex.id)))?;
        for b in &backends {
            let mut solve = Vec::new();
            let mut method = Vec::new();
            let mut ok = 0;
            let mut size = None;
            for _ in 0..repeat {
                let start = Instant::now();
                match ilp::solve(&seq, &result.g0, &s, &*b.solver, opts.reproduce.time_limit) {
                    Ok(a) => {
                        method.push(start.elapsed().as_secs_f64() * 1000.0);
                        solve.push(a.elapsed.as_secs_f64() * 1000.0);
                        if a.objective == expect {
                            ok += 1;
                        }
                        size = Some(a.objective.to_string());
                    }
                    Err(e) => out.skipped.push(format!("{}: flow-ilp on {}: {e}", ex.id, b.name)),
                }
            }
            out.bench.push(BenchRecord {
                example: ex.id.clone(),
                array: format!("(all local regions) at {inst:?}"),
                method: "flow-ilp".into(),
                backend: b.name.clone(),
                repeat,
                ok_runs: ok,
                solve_ms: Spread::of(&solve),
                method_ms: Spread::of(&method),
                size,
                solver_ms: None,
                reference: None,
            });
        }
    }
    Ok(())
}
