//! Results files (`results/local/latest.json`, `results/baseline.json`, `results/bench.json`):
//! the records of a run with when, where and from which revision they come. Written
//! atomically (a temporary file in the same directory, then a rename), so a reader
//! never sees a half-written file.

use polyalloc::record::Record;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

/// The version of the results schema.
pub const SCHEMA: u32 = 1;

/// The machine a run was made on.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Machine {
    pub os: String,
    pub arch: String,
    pub cpus: usize,
    #[serde(default)]
    pub cpu_model: Option<String>,
    /// Backends compiled into the build that made the file.
    #[serde(default)]
    pub backends: Vec<String>,
}

impl Machine {
    /// This machine.
    pub fn current() -> Machine {
        let cpu_model = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|t| t.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string()));
        Machine {
            os: std::env::consts::OS.to_string(),
            arch: std::env::consts::ARCH.to_string(),
            cpus: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1),
            cpu_model,
            backends: polyalloc_solvers::compiled_in().iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// One paper result set side by side with polyalloc's (`cargo xtask reproduce`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PaperRow {
    pub example: String,
    /// The paper's file name (`004_88cf68a96cc0018b.txt`).
    pub paper: String,
    /// Where in the paper.
    pub location: Option<String>,
    pub array: String,
    pub method: String,
    /// The mapping as the paper prints it.
    pub paper_mapping: Option<String>,
    pub paper_size: Option<String>,
    pub paper_hyperplanes: Option<Vec<Vec<i64>>>,
    pub paper_moduli: Option<Vec<String>>,
    /// The bench-suite's expected checker verdict (`valid`/`invalid`), if any.
    pub expect: Option<String>,
    /// The checker's verdict on the paper's mapping: `valid (proven)`,
    /// `valid (instances)`, `invalid: ...`, `error: ...`; `null` when the entry has no
    /// hyperplanes.
    pub paper_verdict: Option<String>,
    /// True when the verdict agrees with `expect` (or there is nothing to check).
    pub verdict_ok: bool,
    pub backend: Option<String>,
    pub polyalloc_mapping: Option<String>,
    pub polyalloc_size: Option<String>,
    /// `match`, `same size`, `smaller`, `larger`, `differ`, `failed`, `not implemented`.
    pub result: String,
    /// True when the entry is a checkable result of an implemented method (it has
    /// hyperplanes and moduli and is not expected invalid): `--strict` counts it.
    pub counts: bool,
    /// True when it counts and was reproduced (`match` or `same size`, and the checker's
    /// verdict on the paper's mapping is the expected one).
    pub reproduced: bool,
    #[serde(default)]
    pub note: Option<String>,
    /// The paper's improvement ratio over its baseline, as printed (Darte et al. 2015, Table 1
    /// "Ratio": `B/3`, `2N/5`); `null` when the paper prints none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper_ratio: Option<String>,
    /// The same ratio for polyalloc's mapping: the paper's baseline size over
    /// polyalloc's size, leading terms (`Polynomial::improvement_ratio`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub polyalloc_ratio: Option<String>,
}

impl PaperRow {
    /// The row of one paper entry before anything is compared: no paper mapping, size or
    /// verdict, no backend, result `not implemented`, not counted. Callers set what they
    /// compare with struct-update syntax (`PaperRow { result, ..PaperRow::new(...) }`).
    pub fn new(example: &str, paper: &str, location: Option<String>, array: &str, method: &str) -> PaperRow {
        PaperRow {
            example: example.to_string(),
            paper: paper.to_string(),
            location,
            array: array.to_string(),
            method: method.to_string(),
            paper_mapping: None,
            paper_size: None,
            paper_hyperplanes: None,
            paper_moduli: None,
            expect: None,
            paper_verdict: None,
            verdict_ok: true,
            backend: None,
            polyalloc_mapping: None,
            polyalloc_size: None,
            result: "not implemented".into(),
            counts: false,
            reproduced: false,
            note: None,
            paper_ratio: None,
            polyalloc_ratio: None,
        }
    }
}

/// Solve-time statistics over repeated runs (milliseconds).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Spread {
    pub median: f64,
    pub min: f64,
    pub max: f64,
}

impl Spread {
    /// Median, min and max of samples (`None` when empty).
    pub fn of(samples: &[f64]) -> Option<Spread> {
        if samples.is_empty() {
            return None;
        }
        let mut s = samples.to_vec();
        s.sort_by(|a, b| a.total_cmp(b));
        let n = s.len();
        let median = if n % 2 == 1 { s[n / 2] } else { (s[n / 2 - 1] + s[n / 2]) / 2.0 };
        Some(Spread { median, min: s[0], max: s[n - 1] })
    }
}

/// One `cargo xtask bench` measurement.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BenchRecord {
    pub example: String,
    pub array: String,
    pub method: String,
    pub backend: String,
    /// Number of runs.
    pub repeat: usize,
    /// Number of runs that gave a verified mapping.
    pub ok_runs: usize,
    /// Sum of ILP solve times per run.
    pub solve_ms: Option<Spread>,
    /// Method wall-clock time per run (ILPs and formulation).
    pub method_ms: Option<Spread>,
    pub size: Option<String>,
    /// Sum of the backends' solve calls alone per run (`solve_ms` without model build,
    /// solver set-up and exact check), where the backend reports its phases.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_ms: Option<Spread>,
    /// Another tool's time on this example (the bench-suite file's `reference_times`),
    /// to compare `method_ms` with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<ReferenceTime>,
}

/// A reference measurement of another tool (bench-suite `reference_times`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ReferenceTime {
    pub method: String,
    pub array: String,
    pub tool: String,
    #[serde(default)]
    pub input: Option<String>,
    pub cpu_ms: f64,
    pub measure: String,
    pub machine: String,
    pub source: String,
}

impl ReferenceTime {
    /// The reference times of an example (its `reference_times` field; malformed
    /// entries are an input error naming the file).
    pub fn of(ex: &polyalloc_suite::Example) -> Result<Vec<ReferenceTime>, polyalloc::Error> {
        match ex.extra.get("reference_times") {
            None => Ok(Vec::new()),
            Some(v) => {
                serde_json::from_value(v.clone()).map_err(|e| polyalloc::Error::Input(format!("{}: field `reference_times`: {e}", ex.file.display())))
            }
        }
    }
}

/// One array of a C kernel folded by `cargo xtask c-corpus` (`crate::c_corpus`): the
/// report `polyalloc fold` gives of it, with its function.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CArray {
    pub function: String,
    #[serde(flatten)]
    pub report: polyalloc_fold::ArrayReport,
}

/// One `polyalloc fold` of a corpus kernel with one backend.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CRecord {
    /// The file's name without `.c`.
    pub kernel: String,
    pub backend: String,
    pub method: String,
    /// What became of the program (`None` when `fold` failed: see `error`).
    pub verdict: Option<polyalloc_fold::Verdict>,
    /// Why `fold` failed.
    pub error: Option<String>,
    /// The arrays written by the kernels' SCoPs (not `main`'s).
    pub arrays: Vec<CArray>,
    pub original: Option<polyalloc_fold::measure::Measurement>,
    pub folded: Option<polyalloc_fold::measure::Measurement>,
    pub identical: Option<bool>,
    /// Wall time of the whole `fold` (compile, allocate, check, compile, run).
    pub fold_seconds: f64,
}

impl CRecord {
    /// Bytes of the folded arrays before and after.
    pub fn bytes(&self) -> (u64, u64) {
        self.arrays
            .iter()
            .filter_map(|a| a.report.folded.as_ref().map(|f| (a.report.original_bytes, f.bytes)))
            .fold((0, 0), |(b, a), (x, y)| (b + x, a + y))
    }

    /// The verdict in one word (`folded`, `nothing-to-fold`, `refused`, `error`).
    pub fn verdict_word(&self) -> &'static str {
        match &self.verdict {
            Some(polyalloc_fold::Verdict::Folded) => "folded",
            Some(polyalloc_fold::Verdict::NothingToFold) => "nothing-to-fold",
            Some(polyalloc_fold::Verdict::Refused { .. }) => "refused",
            None => "error",
        }
    }
}

/// One `cargo xtask kernels` measurement: a kernel of Bhaskaracharya et al. 2016, Table II run with one
/// method's mapping (or full storage) in one variant (crate `polyalloc-kernels`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KernelRecord {
    /// The bench-suite example whose conflict set gave the mapping (`smo-blur-tiled`).
    pub example: String,
    /// The kernel (`blur-tiled`).
    pub kernel: String,
    /// `full` (reference), or the method (`lefe`, `smo`, `lattice`, ...).
    pub method: String,
    /// `full`, `plain` (remainder on every access), `tuned` (Bhaskaracharya et al. 2016, Sec. 5 mitigations) or
    /// `stepped` (tuned, innermost loop strength-reduced).
    pub variant: String,
    /// Per storage row: `none`, or `base`, `mask`, `padP->Q`, `condsub`, `urem`; for
    /// `stepped` followed by the innermost-loop scheme per row (`; line hoist,step`).
    #[serde(default)]
    pub mitigation: String,
    /// The mapping as printed.
    #[serde(default)]
    pub mapping: String,
    /// Problem size (`N=8192 B=512`).
    #[serde(default)]
    pub size: String,
    /// Median run time (ms).
    pub kernel_ms: f64,
    /// Median, min and max over the repetitions.
    #[serde(default)]
    pub kernel_ms_spread: Option<Spread>,
    /// Bytes of the folded array(s) (all tiles).
    pub kernel_bytes: u64,
    /// Median run time with full storage (ms).
    pub reference_ms: f64,
    /// Bytes of the full array.
    #[serde(default)]
    pub reference_bytes: u64,
    /// Median run time with the `lefe` mapping in the same variant (ms).
    pub baseline_ms: Option<f64>,
    /// Peak resident memory of the process during these runs (inputs included).
    #[serde(default)]
    pub peak_rss_bytes: Option<u64>,
    /// Live-out values bit-identical to the full-storage run.
    pub output_equal: bool,
    /// Number of repetitions.
    #[serde(default)]
    pub reps: usize,
    /// The configuration is the program of another one and was not run again: `full`
    /// (a mapping that folds nothing, whose tuned layout has full storage's
    /// addresses) or the method whose identical plan and variant were measured; its
    /// samples are that one's (`polyalloc_kernels::Measurement::runs_as`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs_as: Option<String>,
    /// The run time of each round (ms), in round order: round `k` of every
    /// configuration of a kernel is one interleaved round, so the `k`-th samples of two
    /// configurations are paired (`report::paired_ratio`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples_ms: Vec<f64>,
}

/// One measurement of the scale suite (`cargo xtask bench --scale`, [`crate::scale`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ScaleRecord {
    /// Array dimensions.
    pub dims: usize,
    /// Conflict polyhedra generated.
    pub pieces: usize,
    pub method: String,
    pub backend: String,
    /// `ok`, or why there is no verified mapping (`time-budget`, `method`, ...).
    pub status: String,
    /// Runs made and runs that gave a verified mapping.
    pub repeat: usize,
    pub ok_runs: usize,
    /// Sum of the ILP times per run (every phase).
    pub solve_ms: Option<Spread>,
    /// Sum of the backends' solve calls alone per run (no model build, set-up, check).
    #[serde(default)]
    pub solver_ms: Option<Spread>,
    /// Method wall-clock time per run.
    pub method_ms: Option<Spread>,
    /// ILPs of the first run, and the size of its largest one.
    pub ilps: usize,
    pub max_vars: usize,
    pub max_constraints: usize,
    /// The mapping's size, as a polynomial in N.
    #[serde(default)]
    pub size: Option<String>,
}

/// What the public SMO tool answered on one input of its corpus and how long it took, as
/// `answers.json` of the corpus gives it (`crate::smo_tool::Answers`): measured on
/// another machine (the file's `about`), at `N0 = 7`. The names are the file's.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolAnswer {
    /// The input, relative to the corpus's `examples/` (`intra-array/tile.smo.input`).
    pub file: String,
    /// `intra` or `inter`.
    #[serde(default)]
    pub kind: String,
    /// The tool's "Storage mapping(s) found" section, verbatim.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_printed: Option<String>,
    /// Intra-array: the product of the moduli, and its value at `N0 = 7`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_size_expr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_size_at: Option<i128>,
    /// Inter-array, the rows read as one shared storage (per row the largest modulus).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_size_shared_expr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_size_shared_at: Option<i128>,
    /// Inter-array, the arrays read as stored apart (the sum of each one's product).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_size_apart_expr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_size_apart_at: Option<i128>,
    /// The tool's whole-process CPU (user + sys) and wall time, medians in ms.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_cpu_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_wall_ms: Option<f64>,
}

/// One input of the SMO tool's corpus run as a user runs it (`cargo xtask bench --corpus
/// smo-tool`, `crate::bench::bench_process`): `polyalloc allocate FILE --method
/// smo|smo-inter --params N0=7 --json`, the release binary as a child process, one
/// warm-up then `repeat` runs; beside the tool's answer and times.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProcessRecord {
    /// The input, relative to the corpus's `examples/`.
    pub file: String,
    /// `smo` (intra-array) or `smo-inter` (inter-array).
    pub method: String,
    /// The command line run (the input relative to the corpus).
    #[serde(default)]
    pub command: String,
    /// The backend the child's record names.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// Timed runs (the warm-up excluded), and those that exited 0 with a verified record.
    #[serde(default)]
    pub repeat: usize,
    #[serde(default)]
    pub ok_runs: usize,
    /// The child's CPU time, user + sys (`wait4`), over the ok runs (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_ms: Option<Spread>,
    /// The child's wall-clock time, start to exit, over the ok runs (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wall_ms: Option<Spread>,
    /// The child's peak resident set size (`ru_maxrss`), over the ok runs (kB).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_rss_kb: Option<Spread>,
    /// Why a run gave no verified answer (the first such run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The verified answer the child printed (the first ok run): for `smo-inter` the
    /// shared storage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mapping: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_at: Option<i128>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_params: Option<std::collections::BTreeMap<String, i64>>,
    /// `proven` or `instances`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<polyalloc::Claim>,
    /// `smo-inter`: each array stored apart (its own mappings, `; `-joined), the sum of
    /// their sizes and its value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apart_mapping: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apart_size: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub apart_size_at: Option<i128>,
    /// The tool's answer and times on the same input (`None`: not in `answers.json`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<ToolAnswer>,
}

/// The whole-process comparison with the SMO tool (`cargo xtask bench --corpus smo-tool`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WholeProcess {
    /// `about` of `answers.json`: where and how the tool's figures were measured.
    #[serde(default)]
    pub tool_about: String,
    /// The parameter values of every run (`N0=7`).
    #[serde(default)]
    pub params: String,
    /// The binary run (`target/release/polyalloc`, built with `cargo build --release -p
    /// polyalloc-cli`).
    #[serde(default)]
    pub binary: String,
    /// How the child was measured.
    #[serde(default)]
    pub measure: String,
    /// An empty program (`true`) measured the same way: the floor of every figure (ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor_cpu_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub floor_wall_ms: Option<f64>,
    /// One record per input, intra-array then inter-array.
    #[serde(default)]
    pub records: Vec<ProcessRecord>,
}

/// A results file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ResultsFile {
    /// [`SCHEMA`].
    pub schema: u32,
    /// UTC, RFC 3339.
    pub timestamp: String,
    /// `git rev-parse HEAD`, with `-dirty` when the work tree has changes; `unknown`
    /// outside a repository.
    pub git_revision: String,
    pub machine: Machine,
    /// The command that produced the file.
    #[serde(default)]
    pub command: String,
    /// Every (example, array, method, backend) record.
    pub records: Vec<Record>,
    /// Paper results side by side (reproduce only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub paper: Vec<PaperRow>,
    /// Solve-time measurements (bench only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bench: Vec<BenchRecord>,
    /// Examples or arrays that were not run, with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
    /// Kernel runs with folded storage (`cargo xtask kernels`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kernels: Vec<KernelRecord>,
    /// The scale suite (`cargo xtask bench --scale`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scale: Vec<ScaleRecord>,
    /// C programs folded through clang and Polly (`cargo xtask c-corpus`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub c_corpus: Vec<CRecord>,
    /// The SMO tool's inputs run as whole processes beside the tool's own figures
    /// (`cargo xtask bench --corpus smo-tool`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whole_process: Option<WholeProcess>,
}

impl ResultsFile {
    /// A new file for this machine, now, at the current revision of `repo_dir`.
    pub fn new(command: &str, repo_dir: &Path) -> ResultsFile {
        ResultsFile {
            schema: SCHEMA,
            timestamp: timestamp_now(),
            git_revision: git_revision(repo_dir),
            machine: Machine::current(),
            command: command.to_string(),
            records: Vec::new(),
            paper: Vec::new(),
            bench: Vec::new(),
            skipped: Vec::new(),
            kernels: Vec::new(),
            scale: Vec::new(),
            c_corpus: Vec::new(),
            whole_process: None,
        }
    }

    /// Reads a results file.
    pub fn load(path: &Path) -> Result<ResultsFile, polyalloc::Error> {
        let text = std::fs::read_to_string(path).map_err(|e| polyalloc::Error::io(path, e))?;
        let f: ResultsFile = serde_json::from_str(&text).map_err(|e| {
            polyalloc::Error::Input(format!(
                "{}:{}:{}: {}",
                path.display(),
                e.line(),
                e.column(),
                e.to_string().split(" at line ").next().unwrap_or_default()
            ))
        })?;
        if f.schema != SCHEMA {
            return Err(polyalloc::Error::Input(format!("{}: field `schema`: expected {SCHEMA}, found {}", path.display(), f.schema)));
        }
        Ok(f)
    }

    /// Writes the file atomically (pretty-printed JSON).
    pub fn save(&self, path: &Path) -> Result<(), polyalloc::Error> {
        let mut text = serde_json::to_string_pretty(self).map_err(|e| polyalloc::Error::io(path, e))?;
        text.push('\n');
        write_atomic(path, text.as_bytes())
    }
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename:
/// the file is either the old one or the complete new one, never half-written
/// (`polyalloc_ilp::output::write_atomic`, the one home of atomic writes).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), polyalloc::Error> {
    polyalloc_ilp::output::write_atomic_durable(path, bytes).map_err(|e| polyalloc::Error::io(path, e))
}

/// Now, as an RFC 3339 UTC timestamp (`2026-05-01T12:34:56Z`).
pub fn timestamp_now() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0);
    format_timestamp(secs)
}

/// Seconds since the epoch as RFC 3339 UTC.
pub fn format_timestamp(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, (rem % 3600) / 60, rem % 60)
}

/// The git revision of `dir` (`-dirty` appended when the work tree has changes), or
/// `unknown`.
pub fn git_revision(dir: &Path) -> String {
    let run = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match run(&["rev-parse", "HEAD"]) {
        Some(rev) if !rev.is_empty() => {
            let dirty = run(&["status", "--porcelain", "--untracked-files=no"]).is_some_and(|s| !s.is_empty());
            if dirty {
                format!("{rev}-dirty")
            } else {
                rev
            }
        }
        _ => "unknown".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps() {
        assert_eq!(format_timestamp(0), "1970-01-01T00:00:00Z");
        assert_eq!(format_timestamp(951_782_400), "2000-02-29T00:00:00Z");
        assert_eq!(format_timestamp(1_700_000_000), "2023-11-14T22:13:20Z");
    }

    #[test]
    fn spread() {
        let s = Spread::of(&[3.0, 1.0, 2.0, 10.0]).unwrap();
        assert_eq!((s.median, s.min, s.max), (2.5, 1.0, 10.0));
        assert!(Spread::of(&[]).is_none());
    }

    #[test]
    fn atomic_write_replaces() {
        let dir = std::env::temp_dir().join(format!("polyalloc-cli-atomic-{}", std::process::id()));
        let p = dir.join("x.json");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "two");
        let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()).collect();
        assert_eq!(leftovers.len(), 1);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
