//! `cargo xtask`: reproduce, bench, compare, report. See the crate documentation
//! (`xtask/src/lib.rs`) and the README ("cargo xtask").

mod kernels;

use clap::{Args, Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use xtask::results::ResultsFile;
use xtask::{report, reproduce, results_dir, split_list, XtaskError, EXIT_CHECK, EXIT_INPUT, EXIT_OK};

#[derive(Parser)]
#[command(
    name = "cargo xtask",
    about = "polyalloc harness: reproduce the papers' tables, benchmark the backends, compare results, write the report",
    after_help = "Backends HiGHS and CBC: `cargo xtask --features highs,cbc reproduce --backend all` (rebuilds the harness with them).\n\
Exit codes: 0 ok, 1 invalid input, 2 run failure, 3 check failed (regression, or a paper result not reproduced with --strict)."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
struct Selection {
    /// Backend(s): `default` (the built-in one), a name, `a,b`, or `all` compiled in.
    #[arg(long, default_value = "default", value_name = "B|all")]
    backend: String,
    /// Only these examples: ids or `prefix*`, comma-separated or repeated.
    #[arg(long, value_name = "ID")]
    only: Vec<String>,
    /// Method(s): a name, `a,b`, or `all`.
    #[arg(long, default_value = "all", value_name = "M|all")]
    method: String,
    /// Wall-clock budget in seconds of each (example, array, method, backend) run's
    /// ILPs; a run over budget is recorded as a solver error. 0: none.
    #[arg(long, default_value_t = 60.0, value_name = "SECS")]
    time_limit: f64,
}

impl Selection {
    /// The scale suite's budget per run: `--time-limit` when given explicitly (not the
    /// reproduce default of 60 s), else 20 s.
    fn scale_time_limit(&self) -> Result<std::time::Duration, XtaskError> {
        let secs = if (self.time_limit - 60.0).abs() < f64::EPSILON { 20.0 } else { self.time_limit };
        Ok(polyalloc::run::parse_time_limit(secs)?.unwrap_or(std::time::Duration::from_secs(3600)))
    }

    fn options(&self) -> Result<reproduce::Options, XtaskError> {
        Ok(reproduce::Options {
            backend: self.backend.clone(),
            only: split_list(&self.only),
            method: self.method.clone(),
            suite: xtask::suite_dir(),
            time_limit: polyalloc::run::parse_time_limit(self.time_limit)?,
            corpus: reproduce::Options::default().corpus,
        })
    }
}

#[derive(Subcommand)]
enum Command {
    /// Runs every example with every method; prints the paper tables side by side;
    /// folds three C kernels of bench-suite/c through clang and Polly when clang-19 and
    /// opt-19 are installed (and says so when not); writes results/local/latest.json
    /// (untracked).
    Reproduce {
        #[command(flatten)]
        sel: Selection,
        /// Exit with 3 when a paper result is not reproduced.
        #[arg(long)]
        strict: bool,
        /// Where to write the results (default results/local/latest.json, untracked).
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        /// The corpora: `bench-suite` (the papers' examples), `smo-tool` (the SMO tool's
        /// inputs, from ../shared/corpus/smo-tool or $POLYALLOC_SMO_CORPUS), a list, or `all`.
        #[arg(long, default_value = "bench-suite", value_name = "C|all")]
        corpus: Vec<String>,
    },
    /// Solve time per example, method and backend over K runs; writes
    /// results/local/bench.json (untracked).
    Bench {
        #[command(flatten)]
        sel: Selection,
        /// Runs per combination (1 to 1000).
        #[arg(long, default_value_t = 5, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1000))]
        repeat: u64,
        /// Also run the scale suite: generated conflict sets of 1 to 6 dimensions and 1
        /// to 64 conflict polyhedra, every conflict-set method (`--method`) on the
        /// selected backends (its `scale` section; the report plots it). With
        /// `--time-limit` per run (default here 20 s); a (method, backend, dimension)
        /// stops growing after a run over it.
        #[arg(long)]
        scale: bool,
        /// Where to write the results (default results/local/bench.json, untracked).
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
        /// The corpora, as for `reproduce` (`smo-tool`: the SMO tool's inputs, timed
        /// next to the tool's own times where known, and also run as whole processes:
        /// `target/release/polyalloc allocate FILE --method smo|smo-inter --params N0=7
        /// --json`, built first, CPU, wall time and peak RSS beside the tool's figures).
        #[arg(long, default_value = "bench-suite", value_name = "C|all")]
        corpus: Vec<String>,
    },
    /// Compares two results files; exits with 3 when a mapping got larger, stopped
    /// verifying or disappeared.
    Compare {
        old: PathBuf,
        new: PathBuf,
        /// NEW is a partial run: ignore OLD records of examples, methods and backends
        /// NEW does not have, or that are not compiled into this build.
        #[arg(long)]
        partial: bool,
    },
    /// Kernels of Bhaskaracharya, Bondhugula, Cohen 2016, Table II, with full storage and each method's folded mapping (plain
    /// and with the Sec. 5 mitigations): time, memory, bit-identical outputs; writes the
    /// `kernels` section of results/local/latest.json (untracked).
    Kernels(kernels::KernelsArgs),
    /// C programs through clang and Polly: `polyalloc fold` on every kernel of
    /// bench-suite/c with every selected backend (bytes, peak memory, time, outputs);
    /// writes the `c_corpus` section of results/local/latest.json (untracked). Needs
    /// clang-19 and opt-19 with Polly; says so and does nothing without them.
    CCorpus {
        /// Only these kernels (file names without `.c`), comma-separated or repeated.
        #[arg(long, value_name = "KERNEL")]
        only: Vec<String>,
        /// Backend(s): `default`, a name, `a,b`, or `all` compiled in.
        #[arg(long, default_value = "default", value_name = "B|all")]
        backend: String,
        /// The method (`best`: the smallest verified mapping of every method).
        #[arg(long, default_value = "best", value_name = "M")]
        method: String,
        /// Runs of each program, alternating (medians are recorded).
        #[arg(long, default_value_t = 5, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=100))]
        runs: u64,
        /// Results file whose `c_corpus` section is updated (default results/local/latest.json, untracked).
        #[arg(long, value_name = "PATH")]
        out: Option<PathBuf>,
    },
    /// Writes results/REPORT.md and SVG plots from the reference results
    /// (results/baseline.json and results/bench.json).
    Report {
        /// The output directory (default results).
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
        /// The results file the report shows (default results/baseline.json).
        #[arg(long, value_name = "FILE")]
        results: Option<PathBuf>,
        /// The bench results (default results/bench.json, when it exists).
        #[arg(long, value_name = "FILE")]
        bench: Option<PathBuf>,
        /// Write nothing; exit with 3 when REPORT.md or a plot differs from what the
        /// results files give (the report drifted from the results).
        #[arg(long)]
        check: bool,
    },
    /// Fuzzing: random conflict sets and programs, every applicable method,
    /// every mapping checked again by brute force at small instances. Exits with 3 on a
    /// crash, a wrong verdict or a refuted mapping; writes each failing case as a
    /// bench-suite file under results/local/fuzz/ (untracked).
    Fuzz {
        /// Number of cases (1 to 1,000,000).
        #[arg(long, default_value_t = 1000, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        cases: u64,
        /// Seed of the case generator (the bounded campaign of `cargo test` uses 1).
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
        /// Wall-clock budget in seconds of each (case, method) run. 0: none.
        #[arg(long, default_value_t = 20.0, value_name = "SECS")]
        time_limit: f64,
        /// Where failing cases are written (default results/local/fuzz).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Robustness fuzzing of the `polyalloc` command (a user's view): hostile and
    /// malformed inputs (mangled SMO tool inputs and bench-suite files, programs with
    /// defects, pathological isl strings, random bytes), each run as a subprocess under
    /// an address-space limit and a wall-clock kill. Exits with 3 when a case crashed
    /// (an exit code other than 0, 1, 2, 3, 130, a signal, the kill, or `panicked`);
    /// writes report.md and every crashing input under results/local/fuzz-input/
    /// (untracked).
    FuzzInput {
        /// Number of cases (1 to 1,000,000).
        #[arg(long, default_value_t = 300, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
        cases: u64,
        /// Seed of the case generator (the same seed gives the same cases).
        #[arg(long, default_value_t = 1, value_name = "S")]
        seed: u64,
        /// `--time-limit` of each polyalloc run, in seconds; a case is killed after
        /// 6 times it plus 30 s. 0: none (killed after 30 s).
        #[arg(long, default_value_t = 5.0, value_name = "SECS")]
        time_limit: f64,
        /// Address-space limit of each run, in MiB (64 to 1,048,576).
        #[arg(long, default_value_t = 4096, value_name = "MB", value_parser = clap::value_parser!(u64).range(64..=1_048_576))]
        mem_mb: u64,
        /// Where report.md and the crashing inputs are written (default
        /// results/local/fuzz-input).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
        /// The polyalloc binary (default: the one next to xtask, built with `cargo
        /// build -p polyalloc-cli` when missing).
        #[arg(long, value_name = "PATH")]
        bin: Option<PathBuf>,
        /// Cases run at the same time (1 to 64).
        #[arg(long, default_value_t = 2, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=64))]
        threads: u64,
    },
    /// Makes a local run the committed reference: copies results/local/latest.json to
    /// results/baseline.json (keeping the reference's kernels section when the run has
    /// none) and results/local/bench.json to results/bench.json (when it exists), then
    /// regenerates REPORT.md and the plots. The only command besides `report` and an
    /// explicit `--out` that changes tracked files.
    Bless {
        /// The directory of the local run (default results/local).
        #[arg(long, value_name = "DIR")]
        from: Option<PathBuf>,
        /// Bless even when records of the reference would be lost, get larger or stop
        /// verifying (refused by default).
        #[arg(long)]
        force: bool,
    },
}

fn progress_bar() -> ProgressBar {
    // Drawn on standard error only when it is a terminal (indicatif hides it otherwise).
    let pb = ProgressBar::new(0);
    if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} {msg}") {
        pb.set_style(style.progress_chars("=> "));
    }
    pb
}

/// `--features highs,cbc` before the command: rebuild and re-run the harness with them.
fn reexec_with_features() -> Option<i32> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut features = None;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--features" || a == "-F" {
            features = it.next().cloned();
        } else if let Some(v) = a.strip_prefix("--features=") {
            features = Some(v.to_string());
        } else {
            rest.push(a.clone());
        }
    }
    let features = features?;
    let wanted: Vec<&str> = features.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    // The features this build was compiled with.
    const COMPILED: [(&str, bool); 7] = [
        ("highs", cfg!(feature = "highs")),
        ("cbc", cfg!(feature = "cbc")),
        ("goodlp-microlp", cfg!(feature = "goodlp-microlp")),
        ("goodlp-highs", cfg!(feature = "goodlp-highs")),
        ("goodlp-cbc", cfg!(feature = "goodlp-cbc")),
        ("goodlp-lpsolve", cfg!(feature = "goodlp-lpsolve")),
        ("goodlp", cfg!(feature = "goodlp")),
    ];
    let have = |f: &str| COMPILED.iter().any(|&(name, on)| name == f && on);
    if wanted.iter().all(|f| have(f)) {
        // Already built with them: run in this process without the flag.
        return main_with(rest);
    }
    if std::env::var_os("POLYALLOC_XTASK_REEXEC").is_some() {
        eprintln!("xtask: error: features {features} requested but not compiled in (known: highs, cbc, goodlp, goodlp-<solver>)");
        return Some(EXIT_INPUT);
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = std::process::Command::new(cargo)
        .args(["run", "--package", "xtask", "--features", &features, "--"])
        .args(&rest)
        .env("POLYALLOC_XTASK_REEXEC", "1")
        .status();
    Some(match status {
        Ok(s) => s.code().unwrap_or(xtask::EXIT_RUN),
        Err(e) => {
            eprintln!("xtask: error: cannot run cargo: {e}");
            xtask::EXIT_RUN
        }
    })
}

fn main() {
    if let Some(code) = reexec_with_features() {
        std::process::exit(code);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(main_with(args).unwrap_or(EXIT_OK));
}

fn main_with(args: Vec<String>) -> Option<i32> {
    let cli = match Cli::try_parse_from(std::iter::once("cargo xtask".to_string()).chain(args)) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT } else { EXIT_OK };
            let _ = e.print();
            return Some(code);
        }
    };
    Some(match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask: error: {e}");
            e.exit_code()
        }
    })
}

fn note_backends(spec: &str) {
    let compiled = polyalloc_solvers::compiled_in();
    if spec.trim() == "all" && compiled.len() == 1 {
        eprintln!(
            "xtask: note: `--backend all` runs the backends compiled in: {}. For HiGHS and CBC: `cargo xtask --features highs,cbc ...`; the good_lp solvers: `--features goodlp`",
            compiled.join(", ")
        );
    }
}

fn run(cli: Cli) -> Result<i32, XtaskError> {
    match cli.command {
        Command::Reproduce { sel, strict, out, corpus } => {
            let started = std::time::Instant::now();
            note_backends(&sel.backend);
            let pb = progress_bar();
            let opts = reproduce::Options { corpus: split_list(&corpus), ..sel.options()? };
            // C programs through Polly: a quick subset of bench-suite/c when clang-19
            // and opt-19 are here (the whole corpus: `cargo xtask c-corpus`), folded
            // beside the paper examples (one run each: its times are not measurements).
            let c_quick = if opts.only.is_empty() {
                match xtask::c_corpus::unavailable() {
                    Some(why) => {
                        eprintln!("xtask: C programs (bench-suite/c): skipped: {why}");
                        None
                    }
                    None => Some(std::thread::spawn(|| {
                        xtask::c_corpus::QUICK.iter().map(|k| xtask::c_corpus::one(k, polyalloc::DEFAULT_BACKEND, "best", 1)).collect::<Vec<_>>()
                    })),
                }
            } else {
                None
            };
            let (mut results, path) = reproduce::main_job(&opts, out, Some(&pb))?;
            pb.finish_and_clear();
            print!("{}", reproduce::markdown(&results));
            if let Some(h) = c_quick {
                let records = h.join().map_err(|_| xtask::XtaskError::Input("the C corpus thread panicked".into()))?;
                println!("\n## C programs folded through clang and Polly (a quick subset; all: `cargo xtask c-corpus`)\n");
                print!("{}", xtask::c_corpus::markdown(&records));
                xtask::c_corpus::merge(&mut results, records);
                results.save(&path)?;
            }
            eprintln!("xtask: wrote {} (untracked unless --out says otherwise; `cargo xtask bless` makes it the reference)", path.display());
            eprintln!("xtask: reproduce took {:.1} s (wall clock, the build not included)", started.elapsed().as_secs_f64());
            let missing = reproduce::not_reproduced(&results);
            if strict && !missing.is_empty() {
                eprintln!("xtask: --strict: {} paper result(s) not reproduced", missing.len());
                return Ok(EXIT_CHECK);
            }
            Ok(EXIT_OK)
        }
        Command::Bench { sel, repeat, scale, out, corpus } => {
            note_backends(&sel.backend);
            let pb = progress_bar();
            let reproduce = reproduce::Options { corpus: split_list(&corpus), ..sel.options()? };
            let results = xtask::bench::run(
                &xtask::bench::Options { reproduce, repeat: repeat as usize, scale, scale_time_limit: sel.scale_time_limit()? },
                Some(&pb),
            )?;
            pb.finish_and_clear();
            if !results.bench.is_empty() || !results.scale.is_empty() {
                print!("{}", xtask::bench::markdown(&results));
            }
            let whole = xtask::bench::whole_process_markdown(&results);
            if !whole.is_empty() {
                println!("\n## The SMO tool's inputs as whole processes (the command a user runs)\n");
                print!("{whole}");
            }
            println!("\nFor the per-ILP micro-benchmark of the backends: `cargo bench -p polyalloc-solvers` (criterion).");
            let path = out.unwrap_or_else(|| xtask::local_dir().join("bench.json"));
            results.save(&path)?;
            eprintln!("xtask: wrote {}", path.display());
            Ok(EXIT_OK)
        }
        Command::Compare { old, new, partial } => {
            let old = ResultsFile::load(&old)?;
            let new = ResultsFile::load(&new)?;
            let old_records = if partial { xtask::scope_to(&old.records, &new.records) } else { old.records.clone() };
            let report = xtask::compare::compare(&old_records, &new.records);
            print!("{}", report.to_markdown());
            Ok(if report.regressions().is_empty() { EXIT_OK } else { EXIT_CHECK })
        }
        Command::Kernels(args) => kernels::main(args),
        Command::CCorpus { only, backend, method, runs, out } => {
            if let Some(why) = xtask::c_corpus::unavailable() {
                eprintln!("xtask: c-corpus: skipped: {why}");
                return Ok(EXIT_OK);
            }
            let all = xtask::c_corpus::kernels(&xtask::c_corpus::corpus_dir())?;
            let only = split_list(&only);
            for o in &only {
                if !all.contains(o) {
                    return Err(xtask::XtaskError::Input(format!("--only: no kernel `{o}` in bench-suite/c; kernels: {}", all.join(", "))));
                }
            }
            let backends: Vec<String> = polyalloc::run::backends(&backend)?.into_iter().map(|b| b.name).collect();
            let path = out.unwrap_or_else(|| xtask::local_dir().join("latest.json"));
            // Load first: a file that does not parse is an error, never overwritten.
            let mut file = if path.exists() { ResultsFile::load(&path)? } else { ResultsFile::new("cargo xtask c-corpus", &xtask::workspace_root()) };
            let start = std::time::Instant::now();
            let mut records = Vec::new();
            for k in all.iter().filter(|k| only.is_empty() || only.contains(k)) {
                for b in &backends {
                    let r = xtask::c_corpus::one(k, b, &method, runs as usize);
                    eprintln!("xtask: c-corpus: [{:6.1}s] {k} / {b}: {} ({:.1} s)", start.elapsed().as_secs_f64(), r.verdict_word(), r.fold_seconds);
                    records.push(r);
                }
            }
            print!("{}", xtask::c_corpus::markdown(&records));
            let bad = records.iter().filter(|r| matches!(r.verdict, None | Some(polyalloc_fold::Verdict::Refused { .. }))).count();
            xtask::c_corpus::merge(&mut file, records);
            file.save(&path)?;
            eprintln!("xtask: wrote the c_corpus section of {}", path.display());
            Ok(if bad > 0 { EXIT_CHECK } else { EXIT_OK })
        }
        Command::Report { dir, results, bench, check } => {
            let dir = dir.unwrap_or_else(results_dir);
            let inputs = report::Inputs::load(results.unwrap_or_else(xtask::reference_path), bench.or_else(|| Some(xtask::reference_bench_path())))?;
            if check {
                let stale = report::check(&dir, &inputs);
                for p in &stale {
                    eprintln!("xtask: report --check: {} is out of date; run `cargo xtask report`", p.display());
                }
                return Ok(if stale.is_empty() { EXIT_OK } else { EXIT_CHECK });
            }
            report::write(&dir, &inputs)?;
            eprintln!("xtask: wrote {}", dir.join("REPORT.md").display());
            Ok(EXIT_OK)
        }
        Command::Fuzz { cases, seed, time_limit, out } => {
            let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
            let opts = polyalloc::fuzz::Options { seed, cases: cases as usize, time_limit: polyalloc::run::parse_time_limit(time_limit)?, threads };
            let backend = polyalloc::backend(polyalloc::DEFAULT_BACKEND)?;
            let pb = progress_bar();
            pb.set_length(cases);
            let report = polyalloc::fuzz::campaign(&opts, &backend, &mut |done, _| pb.set_position(done as u64));
            pb.finish_and_clear();
            print!("{}", report.to_markdown());
            let dir = out.unwrap_or_else(|| xtask::local_dir().join("fuzz"));
            let n = xtask::fuzz::write_findings(&report, &dir)?;
            eprintln!("xtask: fuzz: {} case(s) with findings written to {} (reproduce one: polyalloc allocate FILE)", n, dir.display());
            Ok(if report.clean() { EXIT_OK } else { EXIT_CHECK })
        }
        Command::FuzzInput { cases, seed, time_limit, mem_mb, out, bin, threads } => {
            polyalloc::run::parse_time_limit(time_limit)?;
            let bin = match bin {
                Some(b) => b,
                None => xtask::fuzz_input::default_bin()?,
            };
            let mut opts = xtask::fuzz_input::Options::new(cases as usize, seed, bin);
            opts.time_limit = time_limit;
            opts.mem_mb = mem_mb;
            opts.threads = threads as usize;
            if let Some(out) = out {
                opts.out = out;
            }
            let pb = progress_bar();
            pb.set_length(cases);
            let report = xtask::fuzz_input::campaign(&opts, &|done| pb.set_position(done as u64))?;
            pb.finish_and_clear();
            print!("{}", report.summary_markdown());
            eprintln!(
                "xtask: fuzz-input: {} crash(es) in {} case(s); report and crashing inputs in {}",
                report.crashes().len(),
                report.outcomes.len(),
                opts.out.display()
            );
            Ok(if report.clean() { EXIT_OK } else { EXIT_CHECK })
        }
        Command::Bless { from, force } => {
            let from = from.unwrap_or_else(xtask::local_dir);
            for p in xtask::bless::bless(&from, &results_dir(), force)? {
                eprintln!("xtask: bless: wrote {}", p.display());
            }
            Ok(EXIT_OK)
        }
    }
}
