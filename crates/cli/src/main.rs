//! `polyalloc`: storage mappings for the arrays of a bench-suite-format file (or of an
//! input of the SMO tool, `*.smo.input`).
//! Exit codes: 0 ok, 1 invalid input, 2 solver failure, 3 verification failure,
//! 130 interrupted (Ctrl-C or SIGTERM).
//!
//! A thin binary over the `polyalloc` facade: argument parsing and printing only; the
//! methods, their verification and the records are the facade's. Bounded: every run
//! has a wall-clock budget (default [`run::DEFAULT_TIME_LIMIT`] s), a run over a second
//! shows its progress on standard error when that is a terminal ([`progress`]), and
//! Ctrl-C or SIGTERM stops cleanly ([`interrupt`]).

mod interrupt;
mod progress;

use clap::{Parser, Subcommand};
use polyalloc::run::{self, Backend};
use polyalloc::{check, registry, Claim, Input, Plan, Record, Refutation, Status, Verification, EXIT_INPUT, EXIT_OK};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// A line on standard error; an error writing it is ignored (there is nowhere left to
/// report it; the exit code still tells).
macro_rules! note {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stderr(), $($arg)*);
    }};
}

#[derive(Parser)]
#[command(
    name = "polyalloc",
    version,
    about = "Intra-array storage optimization in the polyhedral model: modular mappings A[x] -> A'[(M x) mod e]",
    after_help = "Exit codes: 0 ok, 1 invalid input, 2 solver failure, 3 verification failure, 130 interrupted (Ctrl-C or SIGTERM)."
)]
struct Cli {
    /// The bench-suite directory (for `list` and for FILE given as an example id).
    #[arg(long, global = true, value_name = "DIR")]
    suite: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Finds, verifies and prints storage mappings for the arrays of FILE.
    Allocate(AllocateArgs),
    /// Runs the exact checker on a mapping given as hyperplanes and moduli.
    Check {
        /// A bench-suite-format JSON file, an SMO tool input (`*.smo.input`), `-` for
        /// standard input (JSON), or a bench-suite id.
        file: String,
        /// The array (optional when the file has one array).
        #[arg(long, value_name = "A")]
        array: Option<String>,
        /// Integer rows over the array's dimensions, as JSON: "[[-1,1]]".
        #[arg(long, value_name = "ROWS")]
        hyperplanes: String,
        /// One modulus per row, affine in the parameters: "2*N - 1", "N, N" or '["N","N"]'.
        #[arg(long, value_name = "EXPRS")]
        moduli: String,
        /// Also check concretely at these parameter values and give the size there.
        #[arg(long, value_name = "N=9")]
        params: Option<String>,
        /// The backend the checker's ILPs use.
        #[arg(long, default_value = polyalloc::DEFAULT_BACKEND)]
        backend: String,
        /// Prints the verdict as one JSON object.
        #[arg(long)]
        json: bool,
        /// Wall-clock budget in seconds of the check (the conflict set included); over
        /// budget, the checker fails (exit 2). 0: none.
        #[arg(long, value_name = "SECS", default_value_t = run::DEFAULT_TIME_LIMIT)]
        time_limit: f64,
    },
    /// Folds the arrays of a C program through clang and Polly: the SCoPs exported,
    /// every array allocated and checked, the folded program compiled, run and
    /// compared with the original.
    #[command(after_help = "Needs clang-19 and opt-19 with Polly (Debian: sudo apt-get install clang-19 llvm-19 libpolly-19-dev).\n\
Arrays local to a function and used only in its SCoP are folded into a new smaller array; parameters and globals live after the function as a whole unless a comment `// polyalloc live-out: { A[t, i] : t = T - 1 }` in the source (or --live-out) narrows them, and then fold in place.\n\
Exit codes: 0 folded or nothing to fold, 1 invalid input or missing compiler, 2 a compiler step failed, 3 the folding was refused (outputs differ).")]
    Fold {
        /// The C file.
        file: PathBuf,
        /// A method, or `best` (every method, the smallest verified mapping).
        #[arg(long, default_value = "best", value_name = "M")]
        method: String,
        /// The solver backend.
        #[arg(long, default_value = polyalloc::DEFAULT_BACKEND, value_name = "B")]
        backend: String,
        /// Values of the SCoPs' parameters (sizes passed at run time), e.g. `T=100,N=1000`:
        /// the folded program is specialised to them.
        #[arg(long, value_name = "N=9,B=32")]
        params: Option<String>,
        /// Cells read after the function, `[FUNCTION:]{ A[t, i] : t = T - 1 }` (repeatable;
        /// replaces a source annotation of the same array).
        #[arg(long = "live-out", value_name = "SET")]
        live_out: Vec<String>,
        /// Keeps the JSCoP files, the IR and both binaries in DIR.
        #[arg(long, value_name = "DIR")]
        emit: Option<PathBuf>,
        /// The C compiler (default: clang-19 on PATH).
        #[arg(long, value_name = "PATH")]
        clang: Option<PathBuf>,
        /// LLVM's optimizer with Polly (default: opt-19 on PATH).
        #[arg(long, value_name = "PATH")]
        opt: Option<PathBuf>,
        /// An extra flag for the C front end (`-I dir`, `-DN=64`; repeatable).
        #[arg(long = "cflag", value_name = "FLAG", allow_hyphen_values = true)]
        cflags: Vec<String>,
        /// Runs of each program (alternating; medians are reported); 0: compile only.
        #[arg(long, default_value_t = 3, value_name = "N")]
        runs: usize,
        /// The report as one JSON object.
        #[arg(long)]
        json: bool,
        /// Prints each step and its time on standard error.
        #[arg(long)]
        verbose: bool,
        /// Wall-clock budget in seconds of each array's allocation. 0: none.
        #[arg(long, value_name = "SECS", default_value_t = run::DEFAULT_TIME_LIMIT)]
        time_limit: f64,
    },
    /// Lists the bench-suite examples, the methods and the backends compiled in.
    List {
        /// As one JSON object.
        #[arg(long)]
        json: bool,
    },
}

/// The options of `polyalloc allocate`.
#[derive(clap::Args)]
struct AllocateArgs {
    /// A bench-suite-format JSON file, an SMO tool input (`*.smo.input`), a SCoP
    /// exported by Polly (`*.jscop`, or a directory of them), `-` for standard input
    /// (JSON; with --jscop, a JSCoP), or a bench-suite id.
    file: String,
    /// Standard input is a JSCoP file.
    #[arg(long)]
    jscop: bool,
    /// JSCoP: arrays (C names) that are local to the kernel, nothing of them lives
    /// after the SCoP (comma-separated or repeated; default: every array lives after
    /// it as a whole, unless the file was written by `polyalloc fold --emit`).
    #[arg(long, value_name = "A,B")]
    scratch: Vec<String>,
    /// JSCoP: the cells read after the SCoP, `{ A[t, i] : t = 99 }` (narrows those
    /// arrays' live-out sets).
    #[arg(long = "live-out", value_name = "SET")]
    live_out: Option<String>,
    /// The array, or a method's named run (repeatable; default: every target of
    /// every method).
    #[arg(long, value_name = "A")]
    array: Vec<String>,
    /// A method, `a,b`, or `all` (every method that applies, `best` excepted: it
    /// runs the others itself).
    #[arg(long, default_value = "all", value_name = "M|all")]
    method: String,
    /// A backend, `a,b`, or `all` (compiled in: see `polyalloc list`).
    #[arg(long, default_value = polyalloc::DEFAULT_BACKEND, value_name = "B|all")]
    backend: String,
    /// Parameter values for the size as a number, e.g. `N=9,B=32`.
    #[arg(long, value_name = "N=9,B=32")]
    params: Option<String>,
    /// One JSON object per (array, method, backend), one per line.
    #[arg(long)]
    json: bool,
    /// Writes every ILP solved, in LP format, to DIR/<example>-<array>-<method>-<backend>/.
    #[arg(long, value_name = "DIR")]
    dump_lp: Option<PathBuf>,
    /// Wall-clock budget in seconds of each (array, method, backend) run: the
    /// method, its ILPs and the verification, conflict sets built from a program
    /// included; a run over budget is a solver failure (`time-budget`). Max-live
    /// gets what the run leaves of it. 0: none.
    #[arg(long, value_name = "SECS", default_value_t = run::DEFAULT_TIME_LIMIT)]
    time_limit: f64,
    /// Lists every ILP each method solved (variables, constraints, outcome, time)
    /// after its answer.
    #[arg(long)]
    verbose: bool,
}

fn main() {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Help and version go to stdout with code 0; usage errors are invalid input (1),
            // not clap's default 2 (which is our "solver failure").
            let code = if e.use_stderr() { EXIT_INPUT } else { EXIT_OK };
            let _ = e.print();
            std::process::exit(code);
        }
    };
    interrupt::install();
    let code = match run_cli(cli) {
        Ok(code) => code,
        Err(e) => {
            note!("polyalloc: error: {e}");
            e.exit_code()
        }
    };
    if polyalloc::budget::interrupted() {
        interrupt::exit();
    }
    std::process::exit(code);
}

/// Writes `text` to standard output and flushes it: a write error (a full device, a
/// closed pipe) is an I/O error of the run (exit 1), never a panic nor a silent loss.
fn emit(text: &str) -> Result<(), polyalloc::Error> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(|e| polyalloc::Error::io("<stdout>", e))
}

fn suite_dir(cli_suite: &Option<PathBuf>) -> PathBuf {
    cli_suite.clone().unwrap_or_else(polyalloc::suite_dir)
}

fn run_cli(cli: Cli) -> Result<i32, polyalloc::Error> {
    let suite = suite_dir(&cli.suite);
    match cli.command {
        Command::Allocate(a) => {
            let time_limit = run::parse_time_limit(a.time_limit)?;
            let jopts = polyalloc::JscopOptions {
                scratch: a.scratch.iter().flat_map(|s| s.split(',')).map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect(),
                live_out: a.live_out.clone(),
                params: a.params.as_deref().map(run::parse_params).transpose()?.unwrap_or_default(),
            };
            // A directory of JSCoP files (Polly's export directory): each in turn.
            let file = a.file.clone();
            let path = PathBuf::from(&file);
            let files: Vec<String> = if path.is_dir() {
                let fs = run::jscop_files(&path)?;
                if fs.is_empty() {
                    return Err(polyalloc::Error::Input(format!("{file}: a directory without JSCoP files (*.jscop)")));
                }
                fs.iter().map(|p| p.display().to_string()).collect()
            } else {
                vec![file]
            };
            let mut code = EXIT_OK;
            for f in &files {
                let c = allocate(f, &suite, &a, &jopts, time_limit)?;
                code = code.max(c);
            }
            Ok(code)
        }
        Command::Check { file, array, hyperplanes, moduli, params, backend, json, time_limit } => {
            let time_limit = run::parse_time_limit(time_limit)?;
            // The whole check (conflict set, proof, enumerations) under one budget.
            polyalloc::budget::scoped("check", time_limit, || {
                check_cmd(&file, &suite, array, &hyperplanes, &moduli, params.as_deref(), &backend, json)
            })
        }
        Command::List { json } => list(&suite, json),
        Command::Fold { file, method, backend, params, live_out, emit, clang, opt, cflags, runs, json, verbose, time_limit } => {
            let time_limit = run::parse_time_limit(time_limit)?;
            let params = params.as_deref().map(run::parse_params).transpose()?.unwrap_or_default();
            let live_out = live_out
                .iter()
                .map(|t| polyalloc_fold::annotate::from_cli(t))
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| polyalloc::Error::Input(e.to_string()))?;
            let opts =
                polyalloc_fold::FoldOptions { method, backend, params, live_out, emit, clang, opt, cflags, runs, time_limit, verbose, chooser: None };
            fold(&file, &opts, json)
        }
    }
}

fn fold(file: &std::path::Path, opts: &polyalloc_fold::FoldOptions, json: bool) -> Result<i32, polyalloc::Error> {
    use std::io::Write;
    let report = polyalloc_fold::fold(file, opts).map_err(|e| {
        if e.is_input() {
            polyalloc::Error::Input(e.to_string())
        } else {
            polyalloc::Error::Solver(e.to_string())
        }
    })?;
    let text = if json {
        let mut t = serde_json::to_string(&report).map_err(|e| polyalloc::Error::Input(e.to_string()))?;
        t.push('\n');
        t
    } else {
        report.text()
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(|e| polyalloc::Error::io("<stdout>", e))?;
    Ok(match report.verdict {
        polyalloc_fold::Verdict::Refused { .. } => polyalloc::EXIT_VERIFICATION,
        _ => EXIT_OK,
    })
}

fn allocate(
    file: &str,
    suite: &std::path::Path,
    a: &AllocateArgs,
    jopts: &polyalloc::JscopOptions,
    time_limit: Option<std::time::Duration>,
) -> Result<i32, polyalloc::Error> {
    let (stdin_jscop, arrays, method, backend, params, json) =
        (a.jscop, &a.array[..], a.method.as_str(), a.backend.as_str(), a.params.as_deref(), a.json);
    let dump_lp = a.dump_lp.clone();
    let methods = registry().select(method)?;
    let backends = run::backends(backend)?;
    if let Some(dir) = &dump_lp {
        // Before any run: a method that solves no ILP would never notice a bad directory.
        std::fs::create_dir_all(dir).map_err(|e| polyalloc::Error::io(dir, e))?;
    }
    let read_start = std::time::Instant::now();
    let ex = run::load_input_with(file, suite, stdin_jscop, jopts)?;
    let read_time = read_start.elapsed();
    let values = params.map(run::parse_params).transpose()?;
    if let Some(v) = &values {
        run::check_params(&ex, v)?;
    }
    if run::is_metadata_only(&ex) {
        return Err(polyalloc::Error::Input(format!("{}: metadata-only example: nothing to allocate", ex.file.display())));
    }
    let mut input = Input::new(ex).with_read_time(read_time);
    if let Some(v) = &values {
        input = input.with_instance(v.clone());
    }
    // Every selected method's targets, restricted to --array; the others say why not.
    let Plan { runs: plan, not_applicable } = Plan::new(&input, &methods, arrays)?;
    let not_applicable: Vec<(&str, String)> = not_applicable.into_iter().map(|(m, why)| (m.name(), why)).collect();
    let mut records = Vec::new();
    if plan.is_empty() {
        let why: Vec<String> = not_applicable.iter().map(|(m, w)| format!("{m}: {w}")).collect();
        return Err(polyalloc::Error::Input(format!("{}: no selected method applies ({})", input.example.file.display(), why.join("; "))));
    }
    let progress = progress::Progress::start(time_limit);
    'runs: for (m, targets) in &plan {
        for t in targets {
            for b in &backends {
                let opts = run::RunOptions { size_params: values.as_ref(), dump_lp: dump_lp.as_deref(), time_limit };
                progress.begin(format!("{} / {t} / {} / {}", input.example.id, m.name(), b.name));
                let mut r = run::run_record(&input, *m, t, b, opts);
                if polyalloc::budget::interrupted() {
                    // The run was stopped, not finished: nothing more is printed.
                    break 'runs;
                }
                // The output phase is the rendering of the record; a JSON line is
                // rendered again with that time in it (a few microseconds more).
                let render = |r: &Record| -> Result<String, polyalloc::Error> {
                    Ok(if json {
                        let mut line = serde_json::to_string(r).map_err(|e| polyalloc::Error::Input(e.to_string()))?;
                        line.push('\n');
                        line
                    } else {
                        record_text(r, a.verbose)
                    })
                };
                let render_start = std::time::Instant::now();
                let mut text = render(&r)?;
                r.output_ms = polyalloc::record::ms(render_start.elapsed());
                if json {
                    text = render(&r)?;
                }
                progress.print(&text).map_err(|e| polyalloc::Error::io("<stdout>", e))?;
                records.push(r);
            }
        }
    }
    progress.finish();
    if polyalloc::budget::interrupted() {
        return Ok(interrupt::EXIT_INTERRUPTED);
    }
    if !json && !not_applicable.is_empty() {
        let mut o = format!("not applicable to {}:\n", input.example.id);
        for (m, why) in &not_applicable {
            o.push_str(&format!("  {m:<10} {why}\n"));
        }
        emit(&o)?;
    }
    let code = run::exit_code(&records);
    if code != EXIT_OK && !json {
        let failed = records.iter().filter(|r| r.status != Status::Ok).count();
        note!("polyalloc: {failed} of {} run(s) gave no verified mapping", records.len());
    }
    Ok(code)
}

/// A record as the text `allocate` prints (one block, ending with an empty line).
fn record_text(r: &Record, verbose: bool) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let _ = writeln!(out, "{} / {} / {} / {}", r.example, r.array, r.method, r.backend);
    if r.status != Status::Ok {
        let _ = writeln!(out, "  {:<13} {}", r.status.label(), r.error.as_deref().unwrap_or(""));
        write_ilps(&mut out, r, verbose);
        let _ = writeln!(out);
        return out;
    }
    if r.mapping.is_none() {
        // An answer that is not a storage mapping (a schedule, 002): what the facade ran.
        let _ = writeln!(out, "  {:<13} none (the answer is in the record's details: --json)", "mapping");
        let _ = writeln!(out, "  {:<13} yes, {}", "verified", r.execution.as_deref().unwrap_or("-"));
        write_ilps(&mut out, r, verbose);
        let _ = writeln!(out);
        return out;
    }
    if let Some(sh) = &r.shared {
        write_shared(&mut out, r, sh, verbose);
        return out;
    }
    let _ = writeln!(out, "  {:<13} {}", "mapping", r.mapping.as_deref().unwrap_or("-"));
    let at = match (&r.size_at, &r.size_params) {
        (Some(v), Some(p)) => format!("   (= {v} at {})", fmt_params(p)),
        (None, Some(p)) => format!("   (no finite value at {})", fmt_params(p)),
        _ => String::new(),
    };
    let _ = writeln!(out, "  {:<13} {}{at}", "size", r.size.as_deref().unwrap_or("unbounded (a row is not folded)"));
    // The least size of any mapping there, or why it is not known.
    match (r.max_live, r.max_live_source.as_deref()) {
        (Some(v), _) => {
            let at = r.size_params.as_ref().map(|p| format!(" at {}", fmt_params(p))).unwrap_or_default();
            let _ = writeln!(out, "  {:<13} {v} values live at once{at}", "max-live");
        }
        (None, Some(why)) => {
            let _ = writeln!(out, "  {:<13} not computed: {}", "max-live", why.strip_prefix("unknown: ").unwrap_or(why));
        }
        _ => {}
    }
    let moduli: Vec<String> = r.moduli.iter().map(|m| m.clone().unwrap_or_else(|| "-".into())).collect();
    let _ = writeln!(out, "  {:<13} {:?} over ({})   moduli [{}]", "hyperplanes", r.hyperplanes, r.dims.join(", "), moduli.join(", "));
    let verified = match (r.verification, &r.verification_reason) {
        (Some(Claim::Proven), _) => "yes, proven for every parameter value of the context".to_string(),
        (Some(Claim::Instances), Some(why)) => format!("yes, at the instances only: {why}"),
        (Some(Claim::Instances), None) => "yes, at the example's instances (the symbolic proof did not conclude)".to_string(),
        (None, _) => "yes".to_string(),
    };
    let _ = writeln!(out, "  {:<13} {verified}", "verified");
    write_candidates(&mut out, r);
    write_ilps(&mut out, r, verbose);
    let _ = writeln!(out);
    out
}

/// For `best`: every candidate's size at the size point, the chosen one marked, and
/// the candidates that gave no verified mapping (out of their share of the time
/// budget, not applicable, failed) with their reason.
fn write_candidates(out: &mut String, r: &Record) {
    use std::fmt::Write;
    if r.method != polyalloc::best::NAME {
        return;
    }
    let value = serde_json::Value::Object(r.details.clone().into_iter().collect());
    let Ok(details) = serde_json::from_value::<polyalloc::best::BestDetails>(value) else { return };
    let mut found = Vec::new();
    let mut failed = Vec::new();
    for c in &details.candidates {
        match (&c.error, c.size_at) {
            (None, Some(v)) => found.push(format!("{} {v}{}", c.method, if c.method == details.winner { " (chosen)" } else { "" })),
            (None, None) => found.push(format!("{} {}", c.method, c.size.as_deref().unwrap_or("unbounded"))),
            (Some(e), _) => failed.push(format!("{} ({})", c.method, e)),
        }
    }
    let _ = writeln!(out, "  {:<13} {}", "candidates", found.join(", "));
    if !failed.is_empty() {
        let _ = writeln!(out, "  {:<13} {}", "no answer", failed.join("; "));
    }
}

/// A storage shared by several arrays: one line per array, the size, and the size the
/// arrays need stored alone.
fn write_shared(out: &mut String, r: &Record, sh: &polyalloc::record::SharedRecord, verbose: bool) {
    use std::fmt::Write;
    let at = |v: Option<i128>| match (v, &r.size_params) {
        (Some(v), Some(p)) => format!("   (= {v} at {})", fmt_params(p)),
        _ => String::new(),
    };
    for (k, part) in r.mapping.as_deref().unwrap_or("-").split("; ").enumerate() {
        let _ = writeln!(out, "  {:<13} {part}", if k == 0 { "shared" } else { "" });
    }
    let _ = writeln!(out, "  {:<13} {}{}", "size", r.size.as_deref().unwrap_or("-"), at(r.size_at));
    for s in &sh.separate {
        let _ = writeln!(out, "  {:<13} {}   size {}{} ({})", "alone", s.mapping, s.size.as_deref().unwrap_or("-"), at(s.size_at), s.verification);
    }
    let _ = writeln!(out, "  {:<13} {}{}", "sum alone", sh.separate_size.as_deref().unwrap_or("-"), at(sh.separate_size_at));
    let _ = writeln!(
        out,
        "  {:<13} {}",
        "verified",
        match r.verification {
            Some(Claim::Proven) => "yes, proven for every parameter value (shared-storage checker)",
            Some(Claim::Instances) => "yes, at the example's instances (the symbolic proof did not conclude)",
            None => "yes",
        }
    );
    write_candidates(out, r);
    write_ilps(out, r, verbose);
    let _ = writeln!(out);
}

fn write_ilps(out: &mut String, r: &Record, verbose: bool) {
    use std::fmt::Write;
    let _ = writeln!(
        out,
        "  {:<13} {} solved in {:.2} ms (method {:.2} ms, verification {:.2} ms)",
        "ILPs",
        r.ilps.len(),
        r.solve_ms,
        r.method_ms,
        r.verify_ms
    );
    if !verbose {
        return;
    }
    for s in &r.ilps {
        let _ = writeln!(
            out,
            "    {:<44} {:>5} vars ({:>4} integer) {:>6} constraints  {:<10} {:>9.2} ms",
            s.model, s.num_vars, s.num_integer_vars, s.num_constraints, s.outcome, s.ms
        );
    }
}

fn fmt_params(p: &BTreeMap<String, i64>) -> String {
    p.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(",")
}

#[allow(clippy::too_many_arguments)]
fn check_cmd(
    file: &str,
    suite: &std::path::Path,
    array: Option<String>,
    hyperplanes: &str,
    moduli: &str,
    params: Option<&str>,
    backend: &str,
    json: bool,
) -> Result<i32, polyalloc::Error> {
    use std::fmt::Write as _;
    let mut o = String::new();
    let backends = run::backends(backend)?;
    let b: &Backend = match backends.as_slice() {
        [b] => b,
        _ => return Err(polyalloc::Error::Input("check: give one backend".into())),
    };
    let ex = run::load_input(file, suite)?;
    let values = params.map(run::parse_params).transpose()?;
    if let Some(v) = &values {
        run::check_params(&ex, v)?;
    }
    let array = match array {
        Some(a) => polyalloc::plan::check_arrays(&ex, &[a])?.remove(0),
        None => {
            let all = ex.allocatable_arrays();
            match all.as_slice() {
                [a] => a.clone(),
                [] => return Err(polyalloc::Error::Input(format!("{}: no array with a conflict set", ex.file.display()))),
                _ => return Err(polyalloc::Error::Input(format!("{}: give --array (arrays: {})", ex.file.display(), all.join(", ")))),
            }
        }
    };
    let problem = ex.problem(&array)?;
    let hs = check::parse_hyperplanes(hyperplanes)?;
    let ms = check::parse_moduli(moduli)?;
    let out = check::check(problem, &hs, &ms, values.as_ref(), b)?;
    if json {
        let (verdict, verification, reason) = match &out.verdict {
            Ok(v) => ("valid", Some(v.label()), None),
            Err(polyalloc::AllocError::Invalid { refutation, .. }) => ("invalid", None, Some(refutation.to_string())),
            Err(e) => ("error", None, Some(e.to_string())),
        };
        let obj = serde_json::json!({
            "example": ex.id,
            "array": array,
            "backend": b.name,
            "mapping": out.mapping,
            "hyperplanes": out.hyperplanes,
            "moduli": out.moduli,
            "size": out.size,
            "size_at": out.size_at,
            "size_params": values,
            "verdict": verdict,
            "verified": out.valid(),
            "verification": verification,
            "reason": reason,
        });
        let _ = writeln!(o, "{obj}");
    } else {
        let _ = writeln!(o, "{} / {}: {}", ex.id, array, out.mapping);
        let at = match (&out.size_at, &values) {
            (Some(v), Some(p)) => format!("   (= {v} at {})", fmt_params(p)),
            _ => String::new(),
        };
        let _ = writeln!(o, "  size      {}{at}", out.size.as_deref().unwrap_or("-"));
        match &out.verdict {
            Ok(Verification::Proven) => {
                let _ = writeln!(o, "  valid: proven for every parameter value of the context");
            }
            Ok(Verification::Instances { reason, instances }) => drop(writeln!(
                o,
                "  valid at the instances {instances:?} (parameters {}); the symbolic proof did not conclude: {reason}",
                ex.params.join(", ")
            )),
            Err(polyalloc::AllocError::Invalid { refutation, .. }) => {
                let _ = writeln!(o, "  INVALID: {refutation}");
                if let Refutation::NonPositiveModulus { .. } = **refutation {
                    let _ = writeln!(o, "  (a modulus must be at least 1 wherever the array is not empty)");
                }
                let _ = writeln!(o, "  (cells are points ({}) of {array}; parameters ({}))", ex.arrays_dims(&array), ex.params.join(", "));
            }
            Err(e) => {
                let _ = writeln!(o, "  checker failed: {e}");
            }
        }
    }
    emit(&o)?;
    Ok(out.exit_code())
}

trait DimsOf {
    fn arrays_dims(&self, array: &str) -> String;
}

impl DimsOf for polyalloc::Example {
    fn arrays_dims(&self, array: &str) -> String {
        self.problem(array).map(|p| p.array_tuple().dims.join(", ")).unwrap_or_default()
    }
}

fn list(suite: &std::path::Path, json: bool) -> Result<i32, polyalloc::Error> {
    use std::fmt::Write as _;
    let mut o = String::new();
    let examples = polyalloc::load_dir(suite)?;
    let registry = registry();
    let backends = polyalloc::compiled_backends();
    if json {
        let obj = serde_json::json!({
            "examples": examples.iter().map(|e| serde_json::json!({
                "id": e.id,
                "title": e.title,
                "paper": e.source.paper,
                "arrays": e.allocatable_arrays(),
                "metadata_only": run::is_metadata_only(e),
            })).collect::<Vec<_>>(),
            "methods": registry
                .all()
                .map(|m| serde_json::json!({"name": m.name(), "summary": m.summary(), "answer": m.answer().label(), "claimed_for": m.scope().label()}))
                .collect::<Vec<_>>(),
            "backends": backends.iter().map(|(n, d)| serde_json::json!({"name": n, "description": d})).collect::<Vec<_>>(),
            "default_backend": polyalloc::DEFAULT_BACKEND,
        });
        let _ = writeln!(o, "{obj}");
        emit(&o)?;
        return Ok(EXIT_OK);
    }
    let _ = writeln!(o, "Examples ({}, in {}):", examples.len(), suite.display());
    // Column widths follow the longest entry, so long names (`goodlp-lpsolve`, a
    // user's own example ids) keep the descriptions aligned.
    let rows: Vec<(String, String, String)> = examples
        .iter()
        .map(|e| {
            let arrays = e.allocatable_arrays();
            let what = if run::is_metadata_only(e) {
                "metadata only".to_string()
            } else if arrays.is_empty() {
                "no array to allocate".to_string()
            } else {
                format!("arrays: {}", arrays.join(", "))
            };
            (e.id.clone(), what, e.title.clone())
        })
        .collect();
    let w_id = rows.iter().map(|r| r.0.len()).max().unwrap_or(0);
    let w_what = rows.iter().map(|r| r.1.len()).max().unwrap_or(0);
    for (id, what, title) in &rows {
        let _ = writeln!(o, "  {id:<w_id$} {what:<w_what$} {title}");
    }
    let _ = writeln!(o, "\nMethods:");
    let w_m = registry.all().map(|m| m.name().len()).max().unwrap_or(0);
    for m in registry.all() {
        let _ = writeln!(o, "  {:<w_m$} {}", m.name(), m.summary());
    }
    let _ = writeln!(o, "\nBackends compiled in:");
    let w_b = backends.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
    for (n, d) in &backends {
        let def = if n == polyalloc::DEFAULT_BACKEND { " (default)" } else { "" };
        let _ = writeln!(o, "  {n:<w_b$} {d}{def}");
    }
    emit(&o)?;
    Ok(EXIT_OK)
}
