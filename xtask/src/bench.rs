//! `cargo xtask bench`: solve time per example, array, method and backend over K runs
//! (median, min, max of the summed ILP solve times, and of the method's wall-clock
//! time). Each run is a full `allocate` (with verification), as in the CLI. For the
//! per-backend micro-benchmark of single ILPs, see `cargo bench -p polyalloc-solvers`
//! (criterion).

use crate::reproduce::load_examples;
use crate::XtaskError;
use indicatif::ProgressBar;
use crate::results::{BenchRecord, ResultsFile, Spread};
use polyalloc::run as facade;
use polyalloc::{Input, Method, Status};
use std::fmt::Write;

#[path = "bench_flow.rs"]
mod bench_flow;

/// Options of a bench run.
#[derive(Clone, Debug)]
pub struct Options {
    pub reproduce: crate::reproduce::Options,
    /// Runs per (example, array, method, backend).
    pub repeat: usize,
}

/// Runs the benchmark. The results file holds the records of the first run of each
/// combination and one [`BenchRecord`] per combination.
pub fn run(opts: &Options, progress: Option<&ProgressBar>) -> Result<ResultsFile, XtaskError> {
    let repeat = opts.repeat.max(1);
    let methods = polyalloc::registry().select(&opts.reproduce.method)?;
    let backends = facade::backends(&opts.reproduce.backend)?;
    let examples = load_examples(&opts.reproduce.suite, &opts.reproduce.only)?;
    let mut out = ResultsFile::new(
        &format!("cargo xtask bench --backend {} --method {} --repeat {repeat}", opts.reproduce.backend, opts.reproduce.method),
        &crate::workspace_root(),
    );
    let inputs: Vec<Input> = examples.iter().map(|e| Input::new(e.clone())).collect();
    let plans: Vec<Vec<(&dyn Method, Vec<String>)>> = inputs
        .iter()
        .map(|input| {
            if facade::is_metadata_only(&input.example) {
                return Vec::new();
            }
            methods.iter().filter_map(|m| m.targets(input).ok().map(|ts| (*m, ts))).collect()
        })
        .collect();
    if let Some(pb) = progress {
        let total: usize = plans.iter().map(|p| p.iter().map(|(_, ts)| ts.len() * backends.len() * repeat).sum::<usize>()).sum();
        pb.set_length(total as u64);
    }
    for (input, plan) in inputs.iter().zip(&plans) {
        let ex = &input.example;
        if facade::is_metadata_only(ex) {
            out.skipped.push(format!("{}: metadata only", ex.id));
            continue;
        }
        let size_params = facade::largest_instance(ex);
        for (m, targets) in plan {
            for a in targets {
                if m.as_allocator().is_some() {
                    if let Err(e) = input.problem(a) {
                        let why = format!("{} array {a}: {}", ex.id, e.to_string().replace('\n', " "));
                        if !out.skipped.contains(&why) {
                            out.skipped.push(why);
                        }
                        if let Some(pb) = progress {
                            pb.inc((backends.len() * repeat) as u64);
                        }
                        continue;
                    }
                }
                for b in &backends {
                    if let Some(pb) = progress {
                        pb.set_message(format!("{} {a} {} {}", ex.id, m.name(), b.name));
                    }
                    let mut solve = Vec::new();
                    let mut method = Vec::new();
                    let mut first = None;
                    for _ in 0..repeat {
                        let ro = facade::RunOptions { size_params: size_params.as_ref(), dump_lp: None, time_limit: opts.reproduce.time_limit };
                        let r = facade::run_record(input, *m, a, b, ro);
                        if r.status == Status::Ok {
                            solve.push(r.solve_ms);
                            method.push(r.method_ms);
                        }
                        if first.is_none() {
                            first = Some(r);
                        }
                        if let Some(pb) = progress {
                            pb.inc(1);
                        }
                    }
                    let Some(first) = first else { continue };
                    out.bench.push(BenchRecord {
                        example: ex.id.clone(),
                        array: a.clone(),
                        method: m.name().to_string(),
                        backend: b.name.clone(),
                        repeat,
                        ok_runs: solve.len(),
                        solve_ms: Spread::of(&solve),
                        method_ms: Spread::of(&method),
                        size: first.size.clone(),
                    });
                    out.records.push(first);
                }
            }
        }
    }
    // Paper 003's network flow against the ILP backends, on the loop sequences a
    // selected method ran on.
    bench_flow::extend(opts, inputs.iter().zip(&plans).filter(|(_, p)| !p.is_empty()).map(|(i, _)| &i.example), &mut out)?;
    Ok(out)
}

fn fmt_spread(s: &Option<Spread>) -> (String, String) {
    match s {
        Some(s) => (format!("{:.2}", s.median), format!("{:.2} - {:.2}", s.min, s.max)),
        None => ("-".into(), "-".into()),
    }
}

/// The bench table in Markdown.
pub fn markdown(f: &ResultsFile) -> String {
    let mut s = String::new();
    s.push_str("| example | array | method | backend | size | runs ok | solve ms (median) | solve ms (min - max) | method ms (median) | method ms (min - max) |\n");
    s.push_str("|---|---|---|---|---|---|---|---|---|---|\n");
    for b in &f.bench {
        let (sm, ss) = fmt_spread(&b.solve_ms);
        let (mm, ms) = fmt_spread(&b.method_ms);
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {}/{} | {sm} | {ss} | {mm} | {ms} |",
            b.example,
            b.array,
            b.method,
            b.backend,
            b.size.as_deref().map(|x| format!("`{x}`")).unwrap_or_else(|| "-".into()),
            b.ok_runs,
            b.repeat
        );
    }
    s
}
