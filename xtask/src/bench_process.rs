//! `cargo xtask bench --corpus smo-tool` (or `all`): the command a user runs, timed as a
//! whole process beside the public SMO tool's own figures.
//!
//! For every input of the SMO tool's corpus ([`crate::smo_tool`]) that `--only` and
//! `--method` select (`smo` for the intra-array inputs, `smo-inter` for the inter-array
//! ones): `target/release/polyalloc allocate FILE --method smo|smo-inter --params N0=7
//! --json`, the release binary built first (`cargo build --release -p polyalloc-cli`,
//! default features, cargo's progress on standard error), run as a child process
//! (`cargo xtask bench --corpus smo-tool`): one warm-up, then `--repeat` runs; medians, minima and
//! maxima of its CPU time (user + sys), wall time and peak RSS. Each run must exit with 0
//! and print a verified record; the first one's answer is kept. The tool's answers and
//! times come from the corpus's `answers.json` (measured on another machine: its
//! `about`). The section `whole_process` of the results file holds it all
//! ([`WholeProcess`]); [`markdown`] prints the table, `crate::smo_tool::answers_markdown`
//! the answers side by side.
//!
//! A missing corpus or `answers.json` is a note in `skipped` (prefix [`NOTE`]), never an
//! error. Speed is measured here, never asserted.

// The errors are the facade's (`XtaskError` holds `polyalloc::Error`), as everywhere in
// xtask; its size is the facade's business.
#![allow(clippy::result_large_err)]

use crate::process::{Meter, Sample};
use crate::results::{ProcessRecord, ResultsFile, Spread, ToolAnswer, WholeProcess};
use crate::smo_tool;
use crate::XtaskError;
use indicatif::ProgressBar;
use polyalloc::{Record, Status};
use std::fmt::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The prefix of this part's notes in `skipped`.
pub const NOTE: &str = "smo-tool whole process";

/// The parameter values of every run (those of `answers.json`).
pub const PARAMS: &str = "N0=7";

/// Targets: where the tool needs more than [`SLOW_TOOL_MS`] of CPU, polyalloc at least
/// [`TARGET_RATIO`] times less; elsewhere under [`TARGET_FAST_MS`].
pub const SLOW_TOOL_MS: f64 = 20.0;
pub const TARGET_RATIO: f64 = 10.0;
pub const TARGET_FAST_MS: f64 = 5.0;

/// The time limit of one run (the command's own `--time-limit` is its default, 60 s per
/// run of a method).
const LIMIT: Duration = Duration::from_secs(600);

/// True when the corpora of a bench (`--corpus`, comma lists allowed) include the SMO tool's.
pub fn selected(corpus: &[String]) -> bool {
    corpus.iter().flat_map(|c| c.split(',')).map(str::trim).any(|c| c == "all" || c == smo_tool::NAME)
}

/// The method of an input (`smo` intra-array, `smo-inter` inter-array).
pub fn method_of(file: &str) -> &'static str {
    if file.starts_with("inter-array/") {
        "smo-inter"
    } else {
        "smo"
    }
}

/// The arguments of the command for `input` (a path).
pub fn args(input: &str, method: &str) -> Vec<String> {
    ["allocate", input, "--method", method, "--params", PARAMS, "--json"].iter().map(|s| s.to_string()).collect()
}

/// Where cargo puts its builds (`$CARGO_TARGET_DIR`, else `target/` of the workspace).
fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) if !d.is_empty() => {
            let d = PathBuf::from(d);
            if d.is_absolute() {
                d
            } else {
                crate::workspace_root().join(d)
            }
        }
        _ => crate::workspace_root().join("target"),
    }
}

/// Builds the release binary (cargo's progress on standard error) and returns its path.
fn build_release(progress: Option<&ProgressBar>) -> Result<PathBuf, XtaskError> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let what = "cargo build --release -p polyalloc-cli";
    let build = || {
        eprintln!("xtask: bench: {NOTE}: building the release binary ({what})");
        std::process::Command::new(&cargo).args(["build", "--release", "-p", "polyalloc-cli"]).current_dir(crate::workspace_root()).status()
    };
    let status = match progress {
        Some(pb) => pb.suspend(build),
        None => build(),
    }
    .map_err(|e| XtaskError::Cli(polyalloc::Error::io(what, format!("cannot run cargo: {e}"))))?;
    if !status.success() {
        return Err(XtaskError::Cli(polyalloc::Error::io(what, format!("failed ({status})"))));
    }
    let bin = target_dir().join("release").join(format!("polyalloc{}", std::env::consts::EXE_SUFFIX));
    if !bin.is_file() {
        return Err(XtaskError::Cli(polyalloc::Error::io(&bin, "not found after the build")));
    }
    Ok(bin)
}

/// The record of `method` the child printed (one JSON object per line).
pub fn parse_output(stdout: &[u8], method: &str) -> Result<Record, String> {
    let text = String::from_utf8_lossy(stdout);
    let mut seen = Vec::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let r: Record = serde_json::from_str(line).map_err(|e| format!("its output is not a JSON record: {e}"))?;
        if r.method == method {
            return Ok(r);
        }
        seen.push(r.method);
    }
    Err(format!("no `{method}` record in its output (records: {})", if seen.is_empty() { "none".into() } else { seen.join(", ") }))
}

/// Why a run gave no verified answer (`None`: it did), with its record when it printed one.
fn verdict(s: &Sample, method: &str) -> (Option<Record>, Option<String>) {
    if !s.success() {
        return (None, Some(s.failure()));
    }
    match parse_output(&s.stdout, method) {
        Err(e) => (None, Some(e)),
        Ok(r) if r.status != Status::Ok || !r.verified => {
            let why = format!("{}: {}", r.status.label(), r.error.as_deref().unwrap_or("not verified"));
            (Some(r), Some(why))
        }
        Ok(r) => (Some(r), None),
    }
}

/// The record of one input from its timed runs `samples` (the warm-up excluded): the
/// spreads over the runs that exited 0 with a verified record, the first such record's
/// answer, the first failure, and the tool's answer.
pub fn record_of(file: &str, method: &str, tool: Option<ToolAnswer>, samples: &[Sample]) -> ProcessRecord {
    let mut rec = ProcessRecord {
        file: file.to_string(),
        method: method.to_string(),
        command: format!("polyalloc {}", args(file, method).join(" ")),
        repeat: samples.len(),
        tool,
        ..ProcessRecord::default()
    };
    let (mut cpu, mut wall, mut rss) = (Vec::new(), Vec::new(), Vec::new());
    for s in samples {
        let (r, why) = verdict(s, method);
        match why {
            Some(why) => {
                if rec.error.is_none() {
                    rec.error = Some(why);
                }
            }
            None => {
                rec.ok_runs += 1;
                cpu.extend(s.cpu_ms);
                wall.push(s.wall_ms);
                rss.extend(s.max_rss_kb.map(|k| k as f64));
                if let (Some(r), None) = (r, &rec.mapping) {
                    rec.backend = Some(r.backend.clone());
                    rec.mapping = r.mapping.clone();
                    rec.size = r.size.clone();
                    rec.size_at = r.size_at;
                    rec.size_params = r.size_params.clone();
                    rec.verification = r.verification;
                    if let Some(sh) = &r.shared {
                        let apart: Vec<String> = sh.separate.iter().map(|x| x.mapping.clone()).collect();
                        rec.apart_mapping = (!apart.is_empty()).then(|| apart.join("; "));
                        rec.apart_size = sh.separate_size.clone();
                        rec.apart_size_at = sh.separate_size_at;
                    }
                }
            }
        }
    }
    rec.cpu_ms = Spread::of(&cpu);
    rec.wall_ms = Spread::of(&wall);
    rec.max_rss_kb = Spread::of(&rss);
    rec
}

/// Runs the inputs `opts` selects and sets `out.whole_process`; a missing corpus or
/// answers file is a note in `out.skipped`.
pub fn run(opts: &crate::bench::Options, out: &mut ResultsFile, progress: Option<&ProgressBar>) -> Result<(), XtaskError> {
    let say = |msg: String| match progress {
        Some(pb) if !pb.is_hidden() => pb.println(format!("xtask: bench: {msg}")),
        _ => eprintln!("xtask: bench: {msg}"),
    };
    let dir = smo_tool::corpus_dir();
    if !dir.is_dir() {
        let note = format!("{NOTE}: skipped: the SMO tool's corpus is not at {} (set {} to its directory)", dir.display(), smo_tool::ENV);
        say(note.clone());
        out.skipped.push(note);
        return Ok(());
    }
    let answers_path = smo_tool::Answers::path(&dir);
    if !answers_path.is_file() {
        let note = format!("{NOTE}: skipped: no {} (the tool's answers and times)", answers_path.display());
        say(note.clone());
        out.skipped.push(note);
        return Ok(());
    }
    let answers = smo_tool::Answers::load(&answers_path)?;
    let methods: Vec<String> = polyalloc::registry().select(&opts.reproduce.method)?.iter().map(|m| m.name().to_string()).collect();
    let files: Vec<String> = smo_tool::files(&dir)?
        .into_iter()
        .filter(|f| methods.iter().any(|m| m == method_of(f)))
        .filter(|f| smo_tool::id_of(f).is_some_and(|id| crate::selected(&id, &opts.reproduce.only)))
        .collect();
    if files.is_empty() {
        let note = format!("{NOTE}: no input selected (`--method` must include smo or smo-inter, `--only` an smo-tool-* id)");
        say(note.clone());
        out.skipped.push(note);
        return Ok(());
    }
    let bin = build_release(progress)?;
    let meter = Meter::new(&target_dir().join("xtask"));
    let repeat = opts.repeat.max(1);
    let floor = meter.floor(repeat);
    let mut wp = WholeProcess {
        tool_about: answers.about.clone(),
        params: PARAMS.into(),
        binary: display(&bin),
        measure: format!("{}; one warm-up, then {repeat} runs per input", meter.how()),
        floor_cpu_ms: floor.and_then(|f| f.0),
        floor_wall_ms: floor.map(|f| f.1),
        records: Vec::new(),
    };
    if answers.n0.to_string() != PARAMS.trim_start_matches("N0=") {
        say(format!("{NOTE}: answers.json is at N0 = {}, these runs at {PARAMS}", answers.n0));
    }
    for (k, file) in files.iter().enumerate() {
        let method = method_of(file);
        if let Some(pb) = progress {
            pb.set_message(format!("whole process {}/{}: {file}", k + 1, files.len()));
        }
        let input = dir.join("examples").join(file).display().to_string();
        let a = args(&input, method);
        let warm = meter.run(&bin, &a, LIMIT)?;
        let samples = if verdict(&warm, method).1.is_some() {
            // A run without an answer: once is enough to say why.
            vec![warm]
        } else {
            (0..repeat).map(|_| meter.run(&bin, &a, LIMIT)).collect::<Result<Vec<_>, _>>()?
        };
        let rec = record_of(file, method, answers.get(file).cloned(), &samples);
        say(format!(
            "{NOTE}: {file}: {}",
            match (&rec.error, &rec.cpu_ms) {
                (Some(e), _) => format!("no verified answer ({e})"),
                (None, Some(c)) => format!("{:.1} ms CPU (median of {})", c.median, rec.ok_runs),
                (None, None) => format!("{} ok runs", rec.ok_runs),
            }
        ));
        wp.records.push(rec);
    }
    out.whole_process = Some(wp);
    Ok(())
}

/// A path relative to the workspace when inside it.
fn display(p: &Path) -> String {
    p.strip_prefix(crate::workspace_root()).map(|r| r.display().to_string()).unwrap_or_else(|_| p.display().to_string())
}

fn ms(x: Option<f64>) -> String {
    x.map_or_else(|| "-".into(), |v| if v >= 100.0 { format!("{v:.0}") } else { format!("{v:.1}") })
}

fn spread(s: &Option<Spread>) -> String {
    match s {
        Some(s) => format!("{} ({} - {})", ms(Some(s.median)), ms(Some(s.min)), ms(Some(s.max))),
        None => "-".into(),
    }
}

/// The target of one input and whether it is met: `>= 10x: yes` where the tool needs
/// more than 20 ms of CPU, `< 5 ms: no` elsewhere; `-` without figures.
pub fn target(tool_cpu_ms: Option<f64>, ours_cpu_ms: Option<f64>) -> String {
    let yes = |b: bool| if b { "yes" } else { "**no**" };
    match (tool_cpu_ms, ours_cpu_ms) {
        (Some(t), Some(o)) if t > SLOW_TOOL_MS => format!(">= {TARGET_RATIO:.0}x: {}", yes(o > 0.0 && t / o >= TARGET_RATIO)),
        (Some(_), Some(o)) => format!("< {TARGET_FAST_MS:.0} ms: {}", yes(o < TARGET_FAST_MS)),
        _ => "-".into(),
    }
}

/// The whole-process table of `f` with its explanation; the skipped notes of this part
/// when there is no table; empty when the file has neither.
pub fn markdown(f: &ResultsFile) -> String {
    let notes: Vec<&String> = f.skipped.iter().filter(|s| s.starts_with(NOTE)).collect();
    let mut s = String::new();
    let Some(wp) = &f.whole_process else {
        for n in notes {
            let _ = writeln!(s, "* {n}");
        }
        return s;
    };
    let m = &f.machine;
    let _ = writeln!(
        s,
        "`polyalloc allocate FILE --method smo|smo-inter --params {} --json` run as a user runs it: the release binary `{}` \
(`cargo build --release -p polyalloc-cli`, default features), each input of the SMO tool's corpus a child process. {}. \
Times in ms: polyalloc's median (min - max); peak RSS: median.\n",
        wp.params, wp.binary, wp.measure
    );
    let _ = writeln!(
        s,
        "The tool's figures come from `answers.json` of the corpus, measured on another machine: \"{}\" polyalloc's were measured on this machine ({} {}, {} CPUs{}) at {}, revision `{}`. \
Target: at least {TARGET_RATIO:.0}x less CPU where the tool needs more than {SLOW_TOOL_MS:.0} ms, under {TARGET_FAST_MS:.0} ms CPU where it needs less.{}\n",
        wp.tool_about.trim(),
        m.os,
        m.arch,
        m.cpus,
        m.cpu_model.as_deref().map(|c| format!(", {c}")).unwrap_or_default(),
        f.timestamp,
        f.git_revision,
        match (wp.floor_cpu_ms, wp.floor_wall_ms) {
            (Some(c), Some(w)) => format!(" An empty program (`true`) measures {c:.2} ms CPU and {w:.2} ms wall this way: the floor under every figure."),
            (None, Some(w)) => format!(" An empty program (`true`) measures {w:.2} ms wall this way."),
            _ => String::new(),
        }
    );
    let mut t = crate::md::Table::new(&[
        "input",
        "method",
        "tool CPU ms",
        "polyalloc CPU ms (median)",
        "ratio",
        "target",
        "tool wall ms",
        "polyalloc wall ms (median)",
        "peak RSS",
        "runs ok",
    ]);
    for r in &wp.records {
        let tool_cpu = r.tool.as_ref().and_then(|t| t.tool_cpu_ms);
        let ours = r.cpu_ms.as_ref().map(|c| c.median);
        let ratio = match (tool_cpu, ours) {
            (Some(t), Some(o)) if o > 0.0 => format!("{:.1}x", t / o),
            _ => "-".into(),
        };
        let ok = match &r.error {
            Some(e) => format!("{}/{} ({})", r.ok_runs, r.repeat, crate::md::cell(e)),
            None => format!("{}/{}", r.ok_runs, r.repeat),
        };
        t.row(vec![
            format!("`{}`", r.file),
            r.method.to_string(),
            ms(tool_cpu).to_string(),
            spread(&r.cpu_ms).to_string(),
            ratio,
            target(tool_cpu, ours).to_string(),
            ms(r.tool.as_ref().and_then(|t| t.tool_wall_ms)).to_string(),
            spread(&r.wall_ms).to_string(),
            r.max_rss_kb.as_ref().map_or_else(|| "-".into(), |k| format!("{:.1} MiB", k.median / 1024.0)),
            ok,
        ]);
    }
    s.push_str(&t.render());
    for n in notes {
        let _ = writeln!(s, "\n* {n}");
    }
    s
}
