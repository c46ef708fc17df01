//! # polyalloc-fold: C programs in, folded programs out
//!
//! `polyalloc fold x.c` takes an ordinary C file through the compiler a polyhedral
//! researcher already has, clang and Polly (LLVM's polyhedral optimiser; Debian's
//! `clang-19`, `llvm-19`, `libpolly-19-dev`), and gives back a program whose arrays are
//! folded by polyalloc's verified modular mappings, compiled, run and compared with
//! the original:
//!
//! 1. clang to LLVM IR, `opt -polly-canonicalize`, and Polly's export of every SCoP as
//!    a JSCoP file (isl domains, schedules and access relations);
//! 2. each SCoP read into polyalloc's one program model
//!    (`polyalloc_suite::jscop`), with what lives after it from the function's code
//!    ([`ir`]: a local array used only in the SCoP is scratch; parameters and globals
//!    live after it as a whole unless a `polyalloc live-out` annotation or
//!    `--live-out` narrows them, [`annotate`]);
//! 3. every array that can fold allocated by a method of the `polyalloc` facade (`best`
//!    by default) at the program's sizes, its mapping verified by the facade's exact
//!    checker;
//! 4. the folded SCoP built ([`rewrite`]: a new smaller array for a scratch array,
//!    piecewise relations of the same array where cells must stay where the caller
//!    reads them) and **checked before Polly sees it** ([`check`]: bounds, the folded
//!    cells' set, a run of the program with the cells placed, and the relation text
//!    read back), since Polly checks neither legality nor bounds of an imported access;
//! 5. Polly imports the folded JSCoP and generates code; the original and the folded
//!    programs are compiled with `clang -O2`, run alternately, and compared: outputs
//!    byte for byte, peak memory (`ru_maxrss`), wall time ([`measure`]). A folded
//!    program whose output differs is refused (nothing is kept but the report).
//!
//! isl accepts `mod` by integer constants only, so a folded program is specialised to
//! its sizes: the file's fixed sizes (`#define`), or `--params` for a SCoP with
//! parameters (the report says so).

pub mod annotate;
pub mod check;
mod error;
pub mod ir;
pub mod measure;
pub mod report;
pub mod rewrite;
pub mod toolchain;

pub use error::FoldError;
pub use report::{ArrayReport, FoldReport, Role, ScopReport, Verdict};
pub use toolchain::Toolchain;

use annotate::LiveOutSpec;
use measure::{Measurement, RunSample};
use polyalloc::run::Backend;
use polyalloc::{Input, RunOptions};
use polyalloc_formulation::{ModularMapping, Set};
use polyalloc_suite::jscop::{self, ArrayLife, Jscop, JscopOptions, Liveness};
use report::{Folded, RunComparison};
use rewrite::{ArrayFold, Cells, Layout, Placement};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The postfix of the folded JSCoP files (`x.jscop.polyalloc`).
pub const POSTFIX: &str = "polyalloc";

/// A mapping chosen by the caller instead of a method's (see [`FoldOptions::chooser`]).
pub type Chooser = dyn Fn(&str, &str) -> Option<ModularMapping> + Send + Sync;

/// How to fold.
pub struct FoldOptions {
    /// The method (`best`: every method, the smallest verified mapping).
    pub method: String,
    /// The solver backend.
    pub backend: String,
    /// Parameter values for SCoPs with parameters.
    pub params: BTreeMap<String, i64>,
    /// Live-out sets from the command line.
    pub live_out: Vec<LiveOutSpec>,
    /// Keep the JSCoP, IR and binaries there (else a temporary directory, removed).
    pub emit: Option<PathBuf>,
    /// clang and opt (default `clang-19`, `opt-19` on `PATH`).
    pub clang: Option<PathBuf>,
    pub opt: Option<PathBuf>,
    /// Extra flags for clang's C front end (`-I`, `-D`).
    pub cflags: Vec<String>,
    /// Runs of each program (alternating); 0: compile only.
    pub runs: usize,
    /// Time budget of each allocation (array and method).
    pub time_limit: Option<Duration>,
    /// Prints each step and its time on standard error.
    pub verbose: bool,
    /// Test only: a mapping for `(function, array)` used instead of the method's,
    /// without the facade's verification, so that the tests can feed a wrong mapping
    /// and see the check refuse it before Polly sees it.
    #[doc(hidden)]
    pub chooser: Option<Box<Chooser>>,
}

impl Default for FoldOptions {
    fn default() -> Self {
        FoldOptions {
            method: "best".into(),
            backend: polyalloc::DEFAULT_BACKEND.into(),
            params: BTreeMap::new(),
            live_out: Vec::new(),
            emit: None,
            clang: None,
            opt: None,
            cflags: Vec::new(),
            runs: 3,
            time_limit: Some(Duration::from_secs(60)),
            verbose: false,
            chooser: None,
        }
    }
}

/// The steps of a fold with their times, on standard error with `--verbose`.
struct Log {
    start: std::time::Instant,
    on: bool,
}

impl Log {
    fn step(&self, what: impl std::fmt::Display) {
        if self.on {
            eprintln!("[{:7.2} s] {what}", self.start.elapsed().as_secs_f64());
        }
    }
}

/// A working directory: the user's `--emit` directory, or a temporary one removed when
/// dropped.
struct WorkDir {
    path: PathBuf,
    temporary: bool,
}

impl WorkDir {
    fn new(emit: Option<&Path>) -> Result<WorkDir, FoldError> {
        let (path, temporary) = match emit {
            Some(p) => (p.to_path_buf(), false),
            None => {
                let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
                (std::env::temp_dir().join(format!("polyalloc-fold-{}-{nanos}", std::process::id())), true)
            }
        };
        std::fs::create_dir_all(&path).map_err(|e| FoldError::io(&path, e))?;
        Ok(WorkDir { path, temporary })
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

fn read(path: &Path) -> Result<String, FoldError> {
    std::fs::read_to_string(path).map_err(|e| FoldError::io(path, e))
}

fn write(path: &Path, text: &str) -> Result<(), FoldError> {
    polyalloc::output::write_atomic(path, text.as_bytes()).map_err(|e| FoldError::io(path, e))
}

/// Bytes of one element of a JSCoP type.
fn elem_bytes(ty: &str) -> u64 {
    match ty {
        "double" | "i64" | "ptr" => 8,
        "float" | "i32" => 4,
        "i16" | "half" => 2,
        "i8" | "i1" => 1,
        "x86_fp80" | "fp128" => 16,
        _ => 8,
    }
}

/// One SCoP being folded.
struct Scop {
    file: PathBuf,
    jscop: Jscop,
    function: String,
    report: ScopReport,
    folds: Vec<(ArrayFold, Cells)>,
    program: Option<polyalloc_program::Program>,
    /// The SCoP's parameters and their values.
    params: Vec<String>,
    values: Vec<i64>,
}

/// Folds the C file `source` (see the crate documentation).
pub fn fold(source: &Path, opts: &FoldOptions) -> Result<FoldReport, FoldError> {
    if !source.is_file() {
        return Err(FoldError::Input(format!("{}: no such file", source.display())));
    }
    let log = Log { start: std::time::Instant::now(), on: opts.verbose };
    let tc = Toolchain::find(opts.clang.as_deref(), opts.opt.as_deref())?;
    let backend = polyalloc::backend(&opts.backend).map_err(|e| FoldError::Input(e.to_string()))?;
    let method = polyalloc::registry()
        .get(&opts.method)
        .ok_or_else(|| FoldError::Input(format!("--method: no method `{}`; see `polyalloc list`", opts.method)))?;
    let work = WorkDir::new(opts.emit.as_deref())?;
    let dir = work.path.clone();
    let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("x").to_string();
    let src = source.to_string_lossy().to_string();
    let ll = dir.join(format!("{stem}.ll"));
    let canon = dir.join(format!("{stem}.canon.ll"));
    let scops_dir = dir.join("scops");
    let _ = std::fs::remove_dir_all(&scops_dir);
    std::fs::create_dir_all(&scops_dir).map_err(|e| FoldError::io(&scops_dir, e))?;
    let s = |p: &Path| p.to_string_lossy().to_string();
    // 1. C to IR, canonical IR, the SCoPs.
    let mut args: Vec<String> =
        vec!["-S", "-emit-llvm", "-O1", "-Xclang", "-disable-llvm-passes", "-fno-discard-value-names"].into_iter().map(String::from).collect();
    args.extend(opts.cflags.iter().cloned());
    args.extend([src.clone(), "-o".into(), s(&ll)]);
    // The user's file does not compile: an input error, with clang's own message.
    tc.step(true, &args.iter().map(String::as_str).collect::<Vec<_>>(), "compiling the C file to LLVM IR (clang)").map_err(|e| match e {
        FoldError::Step { message, .. } => FoldError::Input(format!("{}: clang-19 does not compile it:\n{message}", source.display())),
        e => e,
    })?;
    // The macros, read while opt runs.
    let mut dm_args: Vec<String> = vec!["-E".into(), "-dM".into()];
    dm_args.extend(opts.cflags.iter().cloned());
    dm_args.push(src.clone());
    let dm = tc.start(true, &dm_args.iter().map(String::as_str).collect::<Vec<_>>(), "reading the macros (clang -E -dM)");
    tc.step(false, &["-S", "-polly-canonicalize", &s(&ll), "-o", &s(&canon)], "canonicalising the IR for Polly (opt -polly-canonicalize)")?;
    let dir_arg = format!("-polly-import-jscop-dir={}", s(&scops_dir));
    tc.step(
        false,
        &["-polly-process-unprofitable", "-polly-use-llvm-names", "-polly-scops", "-polly-export-jscop", &dir_arg, &s(&canon), "-disable-output"],
        "exporting the SCoPs (opt -polly-export-jscop)",
    )?;
    // Macros and annotations.
    let dm = dm.wait()?;
    let macros = annotate::integer_macros(&String::from_utf8_lossy(&dm.stdout));
    let mut specs = annotate::annotations(&read(source)?, source)?;
    specs.extend(opts.live_out.iter().cloned());
    for sp in &mut specs {
        sp.set = annotate::replace_macros(&sp.set, &macros);
    }
    log.step("SCoPs exported");
    let canon_ir = ir::Module::parse(&read(&canon)?);
    let raw_ir = ir::Module::parse(&read(&ll)?);
    // 2.-4. Every SCoP.
    let mut files: Vec<PathBuf> = std::fs::read_dir(&scops_dir)
        .map_err(|e| FoldError::io(&scops_dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| polyalloc_suite::jscop::is_jscop(p))
        .collect();
    files.sort();
    // Each SCoP with its parameters; every --params name is a parameter of some SCoP.
    let mut parsed: Vec<(PathBuf, Jscop, Vec<String>)> = Vec::new();
    for f in files {
        let j = Jscop::parse(&read(&f)?, &f)?;
        let ctx = Set::parse(&j.context).map_err(|e| FoldError::Input(format!("{}: context: {e}", f.display())))?;
        let params = ctx.space().params.clone();
        parsed.push((f, j, params));
    }
    let all_params: BTreeSet<String> = parsed.iter().flat_map(|(_, _, p)| p.iter().cloned()).collect();
    if let Some(p) = opts.params.keys().find(|p| !all_params.contains(*p)) {
        return Err(FoldError::Input(format!(
            "--params: `{p}` is not a parameter of any SCoP of {} (parameters: {})",
            source.display(),
            if all_params.is_empty() { "none: its sizes are fixed".to_string() } else { all_params.iter().cloned().collect::<Vec<_>>().join(", ") }
        )));
    }
    // Per spec: applied somewhere (`None`), or the error of its text where it did not parse.
    let mut used_specs: BTreeMap<usize, Option<String>> = BTreeMap::new();
    let mut scops = Vec::new();
    for (file, jscop, params) in parsed {
        log.step(format!("SCoP {}", file.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default()));
        scops.push(fold_scop(&file, jscop, params, opts, &canon_ir, &raw_ir, &specs, &mut used_specs, &backend, method, &log)?);
    }
    for (k, sp) in specs.iter().enumerate() {
        if let Some(Some(why)) = used_specs.get(&k) {
            return Err(FoldError::Input(format!("{}: polyalloc live-out `{}`: {why}", sp.origin, sp.set)));
        }
        if !used_specs.contains_key(&k) {
            return Err(FoldError::Input(format!(
                "{}: polyalloc live-out `{}` names no array of a SCoP{}",
                sp.origin,
                sp.set,
                sp.function.as_deref().map(|f| format!(" of `{f}`")).unwrap_or_default()
            )));
        }
    }
    let mut report = FoldReport {
        source: source.to_path_buf(),
        method: opts.method.clone(),
        backend: opts.backend.clone(),
        params: opts.params.clone(),
        scops: scops.iter().map(|s| s.report.clone()).collect(),
        run: None,
        verdict: Verdict::NothingToFold,
        emitted: opts.emit.clone(),
    };
    let folded_functions: BTreeSet<String> = scops.iter().filter(|s| !s.folds.is_empty()).map(|s| s.function.clone()).collect();
    if folded_functions.is_empty() {
        return Ok(report);
    }
    // The folded JSCoP of every SCoP of a folded function (Polly reads one per SCoP).
    for sc in &scops {
        if !folded_functions.contains(&sc.function) {
            continue;
        }
        let mut out = sc.jscop.clone();
        if !sc.folds.is_empty() {
            let (Some(program), values) = (sc.program.as_ref(), &sc.values) else { continue };
            match write_folded(&mut out, &sc.params, program, values, &sc.folds)? {
                Ok(()) => {}
                Err(why) => {
                    report.verdict = Verdict::Refused { stage: "relation text".into(), why };
                    return Ok(report);
                }
            }
        }
        let text = serde_json::to_string_pretty(&out).map_err(|e| FoldError::Input(e.to_string()))?;
        write(&PathBuf::from(format!("{}.{POSTFIX}", sc.file.display())), &text)?;
    }
    log.step("folded JSCoP written");
    // 5. Polly imports and generates code; compile both; run and compare.
    let folded_ll = dir.join(format!("{stem}.folded.ll"));
    let mut opt_args: Vec<String> = vec!["-polly-process-unprofitable".into(), "-polly-use-llvm-names".into()];
    opt_args.extend(folded_functions.iter().map(|f| format!("-polly-only-func={f}")));
    opt_args.extend(["-polly-import-jscop".into(), dir_arg.clone(), format!("-polly-import-jscop-postfix={POSTFIX}"), "-polly-codegen".into()]);
    opt_args.extend([s(&canon), "-S".into(), "-o".into(), s(&folded_ll)]);
    let orig_bin = dir.join(format!("{stem}.original"));
    let fold_bin = dir.join(format!("{stem}.folded"));
    // The original program and the launcher compile while opt imports the folded SCoPs
    // (their results are taken in the order of the steps).
    let orig_compile = tc.start(true, &["-O2", &s(&canon), "-o", &s(&orig_bin), "-lm"], "compiling the original program (clang -O2)");
    let launcher_c = dir.join("polyalloc-launcher.c");
    let launcher = dir.join("polyalloc-launcher");
    let launcher_compile = if opts.runs == 0 {
        None
    } else {
        write(&launcher_c, measure::LAUNCHER_C)?;
        Some(tc.start(true, &["-O2", &s(&launcher_c), "-o", &s(&launcher)], "compiling the measuring launcher (clang)"))
    };
    tc.step(
        false,
        &opt_args.iter().map(String::as_str).collect::<Vec<_>>(),
        "importing the folded SCoPs and generating code (opt -polly-import-jscop -polly-codegen)",
    )?;
    orig_compile.wait()?;
    tc.step(true, &["-O2", &s(&folded_ll), "-o", &s(&fold_bin), "-lm"], "compiling the folded program (clang -O2)")?;
    let Some(launcher_compile) = launcher_compile else {
        report.verdict = Verdict::Folded;
        return Ok(report);
    };
    log.step("compiled");
    launcher_compile.wait()?;
    // A first run of each gives the time limit of the others.
    let limit = Duration::from_secs(600);
    let first = measure::run_once(&launcher, &orig_bin, limit)?;
    let limit = (first.wall * 20).max(Duration::from_secs(30));
    let mut orig: Vec<RunSample> = vec![first];
    let mut new: Vec<RunSample> = Vec::new();
    for k in 0..opts.runs {
        let n = measure::run_once(&launcher, &fold_bin, limit);
        let n = match n {
            Ok(n) => n,
            Err(e) => {
                discard_folded(&scops, &folded_ll, &fold_bin);
                report.verdict = Verdict::Refused { stage: "run".into(), why: format!("the folded program failed: {e}") };
                return Ok(report);
            }
        };
        new.push(n);
        if k + 1 < opts.runs {
            orig.push(measure::run_once(&launcher, &orig_bin, limit)?);
        }
    }
    log.step("run");
    let expected = &orig[0].stdout;
    let identical = orig.iter().chain(&new).all(|r| &r.stdout == expected);
    report.run = Some(RunComparison {
        original: Measurement::of(&orig),
        folded: Measurement::of(&new),
        identical,
        output: String::from_utf8_lossy(expected).lines().take(8).collect::<Vec<_>>().join("\n"),
        specialised_to: opts.params.clone(),
    });
    if identical {
        report.verdict = Verdict::Folded;
    } else {
        let first_diff = new
            .iter()
            .find(|r| &r.stdout != expected)
            .map(|r| String::from_utf8_lossy(&r.stdout).lines().next().unwrap_or("").to_string())
            .unwrap_or_default();
        discard_folded(&scops, &folded_ll, &fold_bin);
        report.verdict = Verdict::Refused {
            stage: "outputs".into(),
            why: format!(
                "the folded program printed `{first_diff}`, the original `{}`",
                String::from_utf8_lossy(expected).lines().next().unwrap_or("")
            ),
        };
    }
    Ok(report)
}

/// Removes what a refused folding wrote (the report is all that is left of it).
fn discard_folded(scops: &[Scop], folded_ll: &Path, fold_bin: &Path) {
    let _ = std::fs::remove_file(folded_ll);
    let _ = std::fs::remove_file(fold_bin);
    for sc in scops {
        let _ = std::fs::remove_file(format!("{}.{POSTFIX}", sc.file.display()));
    }
}

/// The arrays a spec narrows in this SCoP, as one union text over C names (`None`: it
/// names none of them): sets of an array of that name and number of dimensions.
fn narrowed_for(
    spec: &LiveOutSpec,
    function: &str,
    names: &BTreeMap<String, usize>,
    params: &[String],
) -> Result<Result<Option<String>, String>, FoldError> {
    if spec.function.as_deref().is_some_and(|f| f != function) {
        return Ok(Ok(None));
    }
    // The SCoP's parameters (a C99 size `T` of `double A[T][N]`) may be named without
    // declaring them.
    let text = jscop::with_params(params, &spec.set);
    let sets = match Set::parse_union(&text) {
        Ok(s) => s,
        // A set naming another function's parameter does not apply here (if it applies
        // nowhere, the caller reports this error).
        Err(e) if spec.function.is_none() => return Ok(Err(e.to_string())),
        Err(e) => return Err(FoldError::Input(format!("{}: polyalloc live-out `{}`: {e}", spec.origin, spec.set))),
    };
    let mine: Vec<String> = sets
        .iter()
        .filter(|s| s.space().output.name.as_ref().is_some_and(|n| names.get(n) == Some(&s.space().n_dim())))
        .map(|s| s.to_string())
        .collect();
    if mine.is_empty() {
        return Ok(Ok(None));
    }
    Ok(Ok(Some(mine.join("\n"))))
}

#[allow(clippy::too_many_arguments)]
fn fold_scop(
    file: &Path,
    mut jscop: Jscop,
    scop_params: Vec<String>,
    opts: &FoldOptions,
    canon_ir: &ir::Module,
    raw_ir: &ir::Module,
    specs: &[LiveOutSpec],
    used_specs: &mut BTreeMap<usize, Option<String>>,
    backend: &Backend,
    method: &dyn polyalloc::Method,
    log: &Log,
) -> Result<Scop, FoldError> {
    let function = jscop.function(file);
    let region = ir::region_of(&jscop.name).unwrap_or_default();
    // What lives after the SCoP, from the function's code and the user's sets.
    let mut life = Liveness { function: function.clone(), arrays: BTreeMap::new(), live_out: None };
    for a in jscop.arrays.iter().filter(|a| !a.sizes.is_empty()) {
        life.arrays.insert(a.name.clone(), ir::array_life(canon_ir, Some(raw_ir), &function, (&region.0, &region.1), &a.name));
    }
    // C names and dimensions: an annotation names an array of that name and arity.
    let names: BTreeMap<String, usize> =
        jscop.arrays.iter().filter_map(|a| life.arrays.get(&a.name).map(|l| (l.name.clone(), a.sizes.len()))).collect();
    let mut narrowed = Vec::new();
    for (k, sp) in specs.iter().enumerate() {
        match narrowed_for(sp, &function, &names, &scop_params)? {
            Ok(Some(t)) => {
                used_specs.insert(k, None);
                narrowed.extend(t.lines().map(str::to_string));
            }
            Ok(None) => {}
            Err(why) => {
                used_specs.entry(k).or_insert(Some(why));
            }
        }
    }
    if !narrowed.is_empty() {
        // One union over the SCoP's parameters.
        life.live_out = Some(jscop::join_union(&jscop::params_prefix(&scop_params), &narrowed));
    }
    jscop.polyalloc = Some(life.clone());
    // The exported file with what fold knows of the arrays' lives (Polly ignores the
    // field): `polyalloc allocate` on it sees the SCoP as fold does.
    let annotated = serde_json::to_string_pretty(&jscop).map_err(|e| FoldError::Input(e.to_string()))?;
    write(file, &annotated)?;
    let mut report = ScopReport {
        function: function.clone(),
        region: jscop.name.clone(),
        jscop: file.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default(),
        arrays: Vec::new(),
        note: None,
    };
    let mut scop = Scop {
        file: file.to_path_buf(),
        jscop: jscop.clone(),
        function: function.clone(),
        report: report.clone(),
        folds: Vec::new(),
        program: None,
        params: scop_params.clone(),
        values: Vec::new(),
    };
    // The values of this SCoP's parameters (another function's do not apply here).
    let params_here = opts.params.iter().filter(|(k, _)| scop_params.contains(k)).map(|(k, v)| (k.clone(), *v)).collect();
    let options = JscopOptions { scratch: Vec::new(), live_out: None, params: params_here };
    let example = match polyalloc_suite::jscop::to_example(&jscop, file, &options) {
        Ok(e) => e,
        Err(e) => {
            report.note = Some(format!("not folded: {e}"));
            scop.report = report;
            return Ok(scop);
        }
    };
    let params = example.params.clone();
    let missing: Vec<&String> = params.iter().filter(|p| !opts.params.contains_key(*p)).collect();
    let program = match example.program_model() {
        Ok(Some(p)) => p,
        Ok(None) => return Ok(scop),
        Err(e) => {
            report.note = Some(format!("not folded: {e}"));
            scop.report = report;
            return Ok(scop);
        }
    };
    let values: Vec<i64> = program.params.iter().map(|p| opts.params.get(p).copied().unwrap_or(0)).collect();
    let at: BTreeMap<String, i64> = program.params.iter().cloned().zip(values.iter().copied()).collect();
    let input = Input::new(example.clone()).with_instance(at.clone());
    let by_c: BTreeMap<String, (&String, &ArrayLife)> = life.arrays.iter().map(|(m, l)| (l.name.clone(), (m, l))).collect();
    let narrowed_sets: BTreeMap<String, Set> = match &life.live_out {
        Some(t) => Set::parse_union(t)?.into_iter().filter_map(|s| s.space().output.name.clone().map(|n| (n, s))).collect(),
        None => BTreeMap::new(),
    };
    let mut max_live: Option<Vec<polyalloc_program::LiveReport>> = None;
    let mut order: Option<polyalloc_program::order::Ordered> = None;
    let mut pending: Vec<(usize, Candidates, Cells, u64)> = Vec::new();
    for (c, (memref, l)) in &by_c {
        let Some(arr) = jscop.arrays.iter().find(|a| &&a.name == memref) else { continue };
        let elem = elem_bytes(&arr.ty);
        let mut ar = ArrayReport {
            array: c.clone(),
            memref: (*memref).clone(),
            storage: l.storage,
            role: Role::LiveOut,
            why: l.why.clone(),
            element_bytes: elem,
            original_cells: 0,
            original_bytes: 0,
            max_live: None,
            folded: None,
            nothing_to_fold: None,
        };
        let narrowed = narrowed_sets.get(c);
        ar.role = if l.scratch {
            Role::Scratch
        } else if narrowed.is_some() {
            Role::Narrowed
        } else {
            Role::LiveOut
        };
        let written = program.statements.iter().any(|s| s.writes.iter().any(|a| &a.array == c));
        if !missing.is_empty() {
            ar.nothing_to_fold = Some(format!(
                "the SCoP has parameters {}: give their values with --params (a folded program is specialised to its sizes)",
                missing.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
            ));
            report.arrays.push(ar);
            continue;
        }
        // The box of the accessed cells; what the SCoP does with each cell only for an
        // array that may fold (and for a narrowed one, whose live-out set is evaluated
        // on its cells).
        let bbox = match rewrite::cell_box(&program, &values, c) {
            Ok(b) => b,
            Err(e) => {
                ar.nothing_to_fold = Some(format!("not checked: {e}"));
                report.arrays.push(ar);
                continue;
            }
        };
        let mut cells = None;
        if narrowed.is_some() || (written && l.scratch) {
            match rewrite::cells_in(&program, &values, c, bbox.clone(), narrowed) {
                Ok(cs) => cells = Some(cs),
                Err(e) => {
                    ar.nothing_to_fold = Some(format!("not checked: {e}"));
                    report.arrays.push(ar);
                    continue;
                }
            }
        }
        ar.original_cells = declared_cells(arr, &bbox) as u64;
        ar.original_bytes = ar.original_cells * elem;
        if !written {
            ar.role = Role::ReadOnly;
            ar.nothing_to_fold = Some("only read in this SCoP: nothing to fold".into());
            report.arrays.push(ar);
            continue;
        }
        if ar.role == Role::LiveOut {
            // A parameter or a global: the user can say what the caller reads.
            let hint = if matches!(l.storage, polyalloc_suite::jscop::Storage::Parameter | polyalloc_suite::jscop::Storage::Global) {
                format!(" (to fold it, say which cells the caller reads after it: `// polyalloc live-out: {{ {c}[...] : ... }}`)")
            } else {
                String::new()
            };
            ar.nothing_to_fold = Some(format!("{}{hint}", l.why));
            report.arrays.push(ar);
            continue;
        }
        let cells = match cells {
            Some(cs) => cs,
            None => match rewrite::cells_in(&program, &values, c, bbox, narrowed) {
                Ok(cs) => cs,
                Err(e) => {
                    ar.nothing_to_fold = Some(format!("not checked: {e}"));
                    report.arrays.push(ar);
                    continue;
                }
            },
        };
        log.step(format!("  {c}: cells"));
        if max_live.is_none() {
            // Of the arrays that may fold, on their accesses only.
            let may_fold: Vec<&String> = by_c.iter().filter(|(c, (_, l))| l.scratch || narrowed_sets.contains_key(*c)).map(|(c, _)| c).collect();
            let mut only = program.clone();
            for st in &mut only.statements {
                st.reads.retain(|a| may_fold.contains(&&a.array));
                st.writes.retain(|a| may_fold.contains(&&a.array));
            }
            only.statements.retain(|st| !st.reads.is_empty() || !st.writes.is_empty());
            // The order of its instances, kept for the run check (the same statements
            // when the same arrays fold).
            let ord = polyalloc_program::order::Ordered::build(&only, &values, None, polyalloc_program::MAX_LIVE_INSTANCES);
            max_live = Some(match &ord {
                Ok(o) => polyalloc_program::max_live_in(&only, &values, o).unwrap_or_default(),
                Err(_) => Vec::new(),
            });
            order = ord.ok();
            log.step("  max-live of the arrays that may fold");
        }
        ar.max_live = max_live.iter().flatten().find(|r| &r.array == c).map(|r| r.max_live);
        match fold_array(&input, c, memref, &program, &values, &at, &cells, l.scratch, narrowed, opts, backend, method, &function, log)? {
            Ok(cands) => pending.push((report.arrays.len(), cands, cells, elem)),
            Err(why) => ar.nothing_to_fold = Some(why),
        }
        report.arrays.push(ar);
    }
    // The run check: every array's first placement together (one run of the program);
    // when that differs, each array's placements alone, in order, and the survivors
    // together again.
    if !pending.is_empty() {
        let mut choice: Vec<Option<usize>> = vec![Some(0); pending.len()];
        let together = |choice: &[Option<usize>]| -> Result<polyalloc_program::exec::ExecReport, FoldError> {
            let pairs: Vec<(&ArrayFold, &Cells)> =
                pending.iter().zip(choice).filter_map(|((_, c, cells, _), k)| k.map(|k| (&c.folds[k], cells))).collect();
            check::run_check(&program, &values, &pairs, order.as_ref())
        };
        let mut r = together(&choice)?;
        log.step(format!("  run check of {} folded arrays together: {}", pending.len(), if r.ok() { "ok" } else { "differs" }));
        if !r.ok() {
            for (j, (i, c, cells, _)) in pending.iter().enumerate() {
                choice[j] = None;
                let mut why = String::new();
                for (k, f) in c.folds.iter().enumerate() {
                    let alone = check::run_check(&program, &values, &[(f, cells)], order.as_ref())?;
                    if alone.ok() {
                        choice[j] = Some(k);
                        break;
                    }
                    why = alone.summary();
                }
                if choice[j].is_none() {
                    report.arrays[*i].nothing_to_fold =
                        Some(format!("refused by the check before Polly: the run with the folded cells differs: {why}"));
                }
            }
            log.step("  run checks of each array alone");
            r = together(&choice)?;
            if !r.ok() {
                for (j, (i, _, _, _)) in pending.iter().enumerate() {
                    if choice[j].is_some() {
                        report.arrays[*i].nothing_to_fold = Some(format!("refused by the check of the SCoP's folds together: {}", r.summary()));
                    }
                }
                choice.iter_mut().for_each(|c| *c = None);
            }
        }
        for ((i, c, cells, elem), k) in pending.into_iter().zip(choice) {
            if let Some(k) = k {
                let fold = c.folds[k].clone();
                report.arrays[i].folded = Some(describe(&fold, &cells, &c, r.summary(), elem));
                scop.folds.push((fold, cells));
            }
        }
    }
    scop.report = report;
    scop.program = Some(program);
    scop.values = values;
    Ok(scop)
}

/// The cells the array declares: the product of its sizes, the accessed extent for an
/// unknown (`*`) or parametric size.
fn declared_cells(arr: &polyalloc_suite::jscop::JscopArray, bbox: &rewrite::CellBox) -> u128 {
    arr.sizes
        .iter()
        .enumerate()
        .map(|(k, s)| match s.trim().parse::<i64>() {
            Ok(v) if v > 0 => v as u128,
            _ => (bbox.hi.get(k).copied().unwrap_or(0) as i128 + 1).max(0) as u128,
        })
        .fold(1u128, |a, b| a.saturating_mul(b))
}

/// Allocates, builds and checks one array's folding; `Ok(Err(why))` when it does not
/// fold.
#[allow(clippy::too_many_arguments)]
fn fold_array(
    input: &Input,
    array: &str,
    memref: &str,
    program: &polyalloc_program::Program,
    values: &[i64],
    at: &BTreeMap<String, i64>,
    cells: &Cells,
    scratch: bool,
    narrowed: Option<&Set>,
    opts: &FoldOptions,
    backend: &Backend,
    method: &dyn polyalloc::Method,
    function: &str,
    log: &Log,
) -> Result<Result<Candidates, String>, FoldError> {
    // The mapping: the method's, verified by the facade (or the test's chooser).
    let (mapping, winner, verification) = match opts.chooser.as_ref().and_then(|c| c(function, array)) {
        Some(m) => (m, "test-chooser".to_string(), "none (test-only mapping)".to_string()),
        None => {
            let run = polyalloc::run(input, method, array, backend, RunOptions { size_params: Some(at), dump_lp: None, time_limit: opts.time_limit });
            let v = match run {
                Ok(v) => v,
                Err(e) => return Ok(Err(format!("no verified mapping: {}", e.failure))),
            };
            let Some(m) = v.outcome.mapping.clone() else { return Ok(Err("the method gave no mapping".into())) };
            let winner = v.outcome.details.get("winner").and_then(|w| w.as_str()).map(str::to_string).unwrap_or_else(|| v.method.clone());
            (m, winner, v.verification.label().to_string())
        }
    };
    log.step(format!("  {array}: mapping {mapping} ({winner})"));
    // The folded cells: their number, the low corner of their box and the first one's
    // row-major index in the array's box.
    let n = cells.bbox.lo.len();
    let select = |c: &[i64]| scratch || cells.folds(c);
    let mut n_folded = 0usize;
    let mut low = vec![i64::MAX; n];
    let mut first: Option<usize> = None;
    cells.for_each_accessed(|k, c| -> Result<bool, FoldError> {
        if select(c) {
            n_folded += 1;
            for d in 0..n {
                low[d] = low[d].min(c[d]);
            }
            first.get_or_insert(k);
        }
        Ok(true)
    })?;
    if n_folded == 0 {
        return Ok(Err("no cell to fold (every written cell is live-out)".into()));
    }
    let rows = rewrite::rows_at(&mapping, at, cells, &select)?;
    let folded_size: u128 = rows.iter().map(|r| r.extent.max(0) as u128).fold(1u128, |a, b| a.saturating_mul(b));
    let before: u128 = if scratch { cells.bbox.len() } else { n_folded as u128 };
    if folded_size >= before {
        return Ok(Err(format!("no smaller mapping: {mapping} needs {folded_size} cells for the {before} it would fold")));
    }
    let mut candidates: Vec<Placement> = Vec::new();
    if scratch {
        candidates.push(Placement::NewArray { memref: format!("MemRef_{array}_folded"), sizes: rows.iter().map(|r| r.extent).collect() });
    } else {
        let Some((folded, kept)) = rewrite::folded_sets(program, values, array, n, narrowed)? else {
            return Ok(Err("the cells to fold are not a union of polyhedra without existential variables".into()));
        };
        let bbox = &cells.bbox;
        // Row by row in the array's dimensions, at the low corner of the folded cells'
        // box, then of the array's; else as one row-major run of cells from the first
        // folded cell, then from the array's start.
        if rows.len() <= n {
            for offset in [low, bbox.lo.clone()] {
                candidates.push(Placement::InPlace {
                    layout: Layout::PerDim { offset },
                    folded: Box::new(folded.clone()),
                    kept: Box::new(kept.clone()),
                });
            }
        }
        let ext: Vec<i64> = bbox.lo.iter().zip(&bbox.hi).map(|(l, h)| h - l + 1).collect();
        for base in [first.unwrap_or(0) as i64, 0] {
            if (base as u128) + folded_size <= bbox.len() {
                candidates.push(Placement::InPlace {
                    layout: Layout::Linear { base, lo: bbox.lo.clone(), ext: ext.clone() },
                    folded: Box::new(folded.clone()),
                    kept: Box::new(kept.clone()),
                });
            }
        }
        if candidates.is_empty() {
            return Ok(Err(format!("{mapping} needs {folded_size} cells, more than `{array}` has")));
        }
    }
    // Check 2 depends on the folded cells' sets only (the same for the in-place
    // placements): once per sets.
    type SetsChecked = (Set, Set, Option<(usize, String)>);
    let mut sets_checked: Option<SetsChecked> = None;
    let mut last = String::new();
    let mut passing = Vec::new();
    for placement in candidates {
        if let Placement::InPlace { folded, kept, .. } = &placement {
            if !sets_checked.as_ref().is_some_and(|(f, k, _)| f == folded.as_ref() && k == kept.as_ref()) {
                let d = check::set_disagreement(array, folded, kept, cells)?;
                sets_checked = Some(((**folded).clone(), (**kept).clone(), d));
            }
        }
        let fold = ArrayFold { array: array.to_string(), memref: memref.to_string(), mapping: mapping.clone(), rows: rows.clone(), placement };
        let shared = match &fold.placement {
            Placement::InPlace { .. } => sets_checked.as_ref().and_then(|(_, _, d)| d.as_ref()),
            Placement::NewArray { .. } => None,
        };
        match check::static_checks_with(&fold, cells, shared)? {
            Ok(()) => passing.push(fold),
            Err(why) => last = why,
        }
    }
    log.step(format!("  {array}: static checks of {} placements", passing.len()));
    if passing.is_empty() {
        return Ok(Err(format!("refused by the check before Polly: {last}")));
    }
    Ok(Ok(Candidates { folds: passing, method: winner, verification }))
}

/// The placements of one array that pass the static checks, in order of preference,
/// with how its mapping was found.
struct Candidates {
    folds: Vec<ArrayFold>,
    method: String,
    verification: String,
}

/// The report's view of a folding.
fn describe(fold: &ArrayFold, cells: &Cells, c: &Candidates, check: String, elem: u64) -> Folded {
    let placement = match &fold.placement {
        Placement::NewArray { memref, sizes } => format!(
            "new array {}[{}]",
            memref.strip_prefix("MemRef_").unwrap_or(memref),
            sizes.iter().map(i64::to_string).collect::<Vec<_>>().join("][")
        ),
        Placement::InPlace { layout: Layout::PerDim { offset }, .. } => format!("in place at {offset:?}"),
        Placement::InPlace { layout: layout @ Layout::Linear { .. }, .. } => {
            // The run's first cell: where the row values 0 go.
            format!("in place, one run of cells from {:?}", layout.locate(&[], &[]))
        }
    };
    let cells_used = fold.cells_used(cells) as u64;
    Folded {
        mapping: fold.mapping.to_string(),
        method: c.method.clone(),
        verification: c.verification.clone(),
        placement,
        cells: cells_used,
        bytes: cells_used * elem,
        check,
    }
}

/// Rewrites the folded arrays' access relations of `jscop` (and adds the new arrays);
/// `Ok(Err(why))` when a relation's text does not read back as the placement.
fn write_folded(
    jscop: &mut Jscop,
    scop_params: &[String],
    program: &polyalloc_program::Program,
    values: &[i64],
    folds: &[(ArrayFold, Cells)],
) -> Result<Result<(), String>, FoldError> {
    for (fold, _) in folds {
        if let Placement::NewArray { memref, sizes } = &fold.placement {
            let ty = jscop.arrays.iter().find(|a| a.name == fold.memref).map(|a| a.ty.clone()).unwrap_or_else(|| "double".into());
            let mut extra = BTreeMap::new();
            extra.insert("allocation".to_string(), serde_json::Value::String("heap".into()));
            jscop.arrays.push(polyalloc_suite::jscop::JscopArray {
                name: memref.clone(),
                sizes: sizes.iter().map(i64::to_string).collect(),
                ty,
                extra,
            });
        }
    }
    let rename: BTreeMap<String, String> = folds.iter().map(|(f, _)| (f.memref.clone(), f.array.clone())).collect();
    let statements = jscop.statements.clone();
    for (k, st) in statements.iter().enumerate() {
        for (j, acc) in st.accesses.iter().enumerate() {
            let Some((fold, cells)) = folds.iter().find(|(f, _)| acc.relation.contains(&format!("{}[", f.memref))) else { continue };
            // The access in the program model: the relation alone, renamed to C names.
            let rel = jscop::with_params(scop_params, &jscop::rename_identifiers(&acc.relation, &rename));
            let dom = jscop::with_params(scop_params, &st.domain);
            // The statement with this access alone (its schedule does not matter here).
            let dset = Set::parse(&dom)?;
            let m = dset.space().n_dim();
            let its: Vec<String> = (0..m).map(|d| format!("i{d}")).collect();
            let sched = format!("{}{{ {}[{}] -> [0] }}", jscop::params_prefix(scop_params), st.name, its.join(", "));
            let one = polyalloc_program::Statement::parse(&dom, &sched, &[rel.as_str()], &[])?;
            let mut pieces = Vec::new();
            let sp = rewrite::stmt_params(program, one.domain.space(), values)?;
            for a in &one.writes {
                let t = rewrite::relation_text(fold, &st.name, one.domain.space(), &sp, a, scop_params)?;
                if let Err(why) = check::text_check(program, values, &one, a, fold, cells, &t)? {
                    return Ok(Err(why));
                }
                pieces.push(t);
            }
            let text = match pieces.len() {
                1 => pieces.remove(0),
                _ => jscop::join_union(&jscop::params_prefix(scop_params), &pieces),
            };
            jscop.statements[k].accesses[j].relation = text;
        }
    }
    jscop.polyalloc = None;
    Ok(Ok(()))
}
