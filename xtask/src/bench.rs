//! `cargo xtask bench`: solve time per example, array, method and backend over K runs
//! (median, min, max of the summed ILP solve times, and of the method's wall-clock
//! time). Each run is a full `allocate` (with verification), as in the CLI. For the
//! per-backend micro-benchmark of single ILPs, see `cargo bench -p polyalloc-solvers`
//! (criterion).

use crate::md::Table;
use crate::results::{BenchRecord, ReferenceTime, ResultsFile, Spread};
use crate::XtaskError;
use indicatif::ProgressBar;
use polyalloc::run as facade;
use polyalloc::{Input, Method, Status};

#[path = "bench_flow.rs"]
mod bench_flow;
#[path = "bench_process.rs"]
pub mod bench_process;

/// Options of a bench run.
#[derive(Clone, Debug)]
pub struct Options {
    pub reproduce: crate::reproduce::Options,
    /// Runs per (example, array, method, backend).
    pub repeat: usize,
    /// Also run the scale suite ([`crate::scale`]).
    pub scale: bool,
    /// The scale suite's budget per run.
    pub scale_time_limit: std::time::Duration,
}

/// Runs the benchmark. The results file holds the records of the first run of each
/// combination and one [`BenchRecord`] per combination.
pub fn run(opts: &Options, progress: Option<&ProgressBar>) -> Result<ResultsFile, XtaskError> {
    let repeat = opts.repeat.max(1);
    let methods = polyalloc::registry().select(&opts.reproduce.method)?;
    let backends = facade::backends(&opts.reproduce.backend)?;
    let command = format!(
        "cargo xtask bench --backend {} --method {} --repeat {repeat}{}",
        opts.reproduce.backend,
        opts.reproduce.method,
        opts.reproduce.corpus_flag()
    );
    let mut out = ResultsFile::new(&command, &crate::workspace_root());
    // The SMO tool's inputs as whole processes first (a failed release build stops the
    // bench before the long part). Without the corpus: a note, and the other corpora.
    let mut selection = opts.reproduce.clone();
    let mut in_process = true;
    if bench_process::selected(&selection.corpus) {
        bench_process::run(opts, &mut out, progress)?;
        if !crate::smo_tool::corpus_dir().is_dir() {
            let others: Vec<String> = selection
                .corpus
                .iter()
                .flat_map(|c| c.split(','))
                .map(str::trim)
                .filter(|c| !c.is_empty() && *c != crate::smo_tool::NAME)
                .map(|c| if c == "all" { crate::reproduce::CORPORA[0].to_string() } else { c.to_string() })
                .collect();
            in_process = !others.is_empty();
            selection.corpus = others;
        }
    }
    let examples = if in_process { crate::reproduce::examples(&selection)? } else { Vec::new() };
    let inputs: Vec<Input> = examples.iter().map(|e| Input::new(e.clone())).collect();
    let plans: Vec<Vec<(&dyn Method, Vec<String>)>> =
        inputs.iter().map(|input| polyalloc::Plan::new(input, &methods, &[]).map(|p| p.runs).unwrap_or_default()).collect();
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
        let references = ReferenceTime::of(ex)?;
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
                    let mut solver_only = Vec::new();
                    let mut method = Vec::new();
                    let mut first = None;
                    for _ in 0..repeat {
                        let ro = facade::RunOptions { size_params: size_params.as_ref(), dump_lp: None, time_limit: opts.reproduce.time_limit };
                        let r = facade::run_record(input, *m, a, b, ro);
                        if r.status == Status::Ok {
                            solve.push(r.solve_ms);
                            method.push(r.method_ms);
                            if let Some(x) = r.solver_ms {
                                solver_only.push(x);
                            }
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
                        solver_ms: Spread::of(&solver_only),
                        reference: references.iter().find(|t| t.method == m.name() && &t.array == a).cloned(),
                    });
                    out.records.push(first);
                }
            }
        }
    }
    // Paper 003's network flow against the ILP backends, on the loop sequences a
    // selected method ran on.
    bench_flow::extend(opts, inputs.iter().zip(&plans).filter(|(_, p)| !p.is_empty()).map(|(i, _)| &i.example), &mut out)?;
    if opts.scale {
        let registry = polyalloc::registry();
        let scale_methods: Vec<String> = methods.iter().filter(|m| registry.allocator(m.name()).is_some()).map(|m| m.name().to_string()).collect();
        let so = crate::scale::Options {
            methods: scale_methods,
            repeat,
            time_limit: opts.scale_time_limit,
            dims: crate::scale::DIMS.collect(),
            pieces: crate::scale::PIECES.to_vec(),
        };
        out.scale = crate::scale::run(&so, &backends, &|msg| {
            if let Some(pb) = progress {
                pb.set_message(format!("scale {msg}"));
            }
        });
        out.command.push_str(" --scale");
    }
    Ok(out)
}

fn fmt_spread(s: &Option<Spread>) -> (String, String) {
    match s {
        Some(s) => (format!("{:.2}", s.median), format!("{:.2} - {:.2}", s.min, s.max)),
        None => ("-".into(), "-".into()),
    }
}

/// The bench table in Markdown. The column of the backends' solve calls alone
/// (without model build and set-up) appears when the results have it; so do the
/// comparison with reference tools and the scale suite.
pub fn markdown(f: &ResultsFile) -> String {
    let split = f.bench.iter().any(|b| b.solver_ms.is_some());
    let mut head = vec!["example", "array", "method", "backend", "size", "runs ok", "solve ms (median)", "solve ms (min - max)"];
    if split {
        head.push("solver ms without set-up (median)");
    }
    head.extend(["method ms (median)", "method ms (min - max)"]);
    let mut t = Table::new(&head);
    for b in &f.bench {
        let (sm, ss) = fmt_spread(&b.solve_ms);
        let (mm, ms) = fmt_spread(&b.method_ms);
        let size = b.size.as_deref().map(|x| format!("`{x}`")).unwrap_or_else(|| "-".into());
        let mut row =
            vec![b.example.clone(), b.array.clone(), b.method.clone(), b.backend.clone(), size, format!("{}/{}", b.ok_runs, b.repeat), sm, ss];
        if split {
            row.push(fmt_spread(&b.solver_ms).0);
        }
        row.extend([mm, ms]);
        t.row(row);
    }
    let mut s = t.render();
    s.push_str(&references_markdown(f));
    s.push_str(&crate::scale::markdown(&f.scale));
    s
}

/// The SMO tool's inputs run as whole processes ([`bench_process`]): the table beside the
/// tool's own figures, then the answers side by side; the notes of that part when it was
/// skipped; empty when the results have neither.
pub fn whole_process_markdown(f: &ResultsFile) -> String {
    let mut s = bench_process::markdown(f);
    if let Some(wp) = &f.whole_process {
        s.push('\n');
        s.push_str(&crate::smo_tool::answers_markdown(&wp.records, &wp.params));
    }
    s
}

/// The speed-up the issue asks of polyalloc's SMO over the SMO tool.
pub const TARGET_RATIO: f64 = 20.0;

/// polyalloc's time next to the reference tools' (empty when the results have none).
pub fn references_markdown(f: &ResultsFile) -> String {
    let rows: Vec<&BenchRecord> = f.bench.iter().filter(|b| b.reference.is_some()).collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n### Against reference tools: the method alone (a diagnosis)\n\n");
    s.push_str("polyalloc's time is the method's wall-clock time in process (median over the runs; the file already read, verification excluded); the reference is the other tool's whole-process CPU time as recorded in the bench-suite file (`reference_times`, with its source). This is not what a user waits for: the whole process, side by side, is in the section on the SMO tool's inputs as whole processes.\n\n");
    let target = format!("{TARGET_RATIO}x");
    let mut t = Table::new(&[
        "example",
        "array",
        "method",
        "backend",
        "reference tool input",
        "reference ms",
        "polyalloc ms (median)",
        "speed-up",
        target.as_str(),
    ]);
    for b in rows {
        let Some(r) = &b.reference else { continue };
        let ours = b.method_ms.as_ref().map(|m| m.median);
        let ratio = ours.filter(|&m| m > 0.0).map(|m| r.cpu_ms / m);
        let met = match ratio {
            Some(x) if x >= TARGET_RATIO => "yes",
            Some(_) => "no",
            None => "-",
        };
        t.row(vec![
            b.example.clone(),
            b.array.clone(),
            b.method.clone(),
            b.backend.clone(),
            format!("`{}`", r.input.as_deref().unwrap_or("-")),
            r.cpu_ms.to_string(),
            ours.map_or("-".into(), |m| format!("{m:.2}")),
            ratio.map_or("-".into(), |x| format!("{x:.1}x")),
            met.to_string(),
        ]);
    }
    s.push_str(&t.render());
    s
}
