//! `cargo xtask kernels`: the kernels of Bhaskaracharya et al. 2016, Table II (crate `polyalloc-kernels`) with
//! full storage, the `lefe` baseline and other methods' mappings (computed now by the
//! allocators), each plain, with the Bhaskaracharya et al. 2016, Sec. 5 mitigations (`tuned`) and with the
//! innermost loop strength-reduced (`stepped`), all configurations of a kernel run
//! interleaved (`--repeat` rounds, the order rotated by one per round): median and spread of
//! the run time, the fastest folded variant per method with the ratio full/folded,
//! bytes of the folded arrays, peak resident memory, and bit-for-bit output equality
//! with the full-storage run. Replaces the `kernels`
//! section of `results/local/latest.json` (untracked; other sections are kept; written atomically) and
//! prints the table `cargo xtask report` puts into REPORT.md. Any output mismatch is
//! recorded, then reported as an error (exit code 3).
//!
//! Profile: `cargo xtask` runs in the dev profile; the workspace `Cargo.toml` builds
//! `polyalloc-kernels` at `opt-level = 3` without debug assertions or overflow checks
//! in that profile (`[profile.dev.package.polyalloc-kernels]`), and every kernel loop is
//! instantiated inside that crate, so the measured code is optimised like a release
//! build without rebuilding the harness in release.

use clap::Args;
use polyalloc_kernels::{check_outputs, measure, KernelError, KernelId, Measurement, Size};
use std::path::PathBuf;
use xtask::results::{KernelRecord, ResultsFile, Spread};
use xtask::{split_list, suite_dir, workspace_root, XtaskError, EXIT_CHECK, EXIT_OK};

#[derive(Args, Clone)]
pub struct KernelsArgs {
    /// Only these kernels (names as in Table II: blur-tiled, lbm-d2q9, ...), comma-separated or repeated.
    #[arg(long, value_name = "KERNEL")]
    only: Vec<String>,
    /// Methods whose mappings are run (besides full storage), comma-separated.
    #[arg(long, default_value = "lefe,smo,lattice", value_name = "M,M")]
    method: String,
    /// Rounds: each runs every configuration of a kernel once, the order rotated per round (1 to 1000).
    #[arg(long, default_value_t = 3, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1000))]
    repeat: u64,
    /// `default` (documented sizes for a 2-core, 24 GB machine) or `small` (test sizes).
    #[arg(long, default_value = "default", value_name = "SCALE")]
    scale: String,
    /// Backend for the allocators and the padding checks.
    #[arg(long, default_value = polyalloc_solvers::DEFAULT_BACKEND, value_name = "B")]
    backend: String,
    /// Results file whose `kernels` section is replaced (default results/local/latest.json, untracked).
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

fn to_records(ms: &[Measurement]) -> Vec<KernelRecord> {
    let median = |m: &Measurement| Spread::of(&m.samples_ms).map(|s| s.median).unwrap_or(f64::NAN);
    let full = ms.iter().find(|m| m.variant == "full");
    let reference_ms = full.map(median).unwrap_or(f64::NAN);
    let reference_bytes = full.map(|m| m.bytes).unwrap_or(0);
    ms.iter()
        .map(|m| {
            let baseline = ms.iter().find(|b| b.method == "lefe" && b.variant == m.variant).map(median);
            KernelRecord {
                example: m.example.clone(),
                kernel: m.kernel.name().to_string(),
                method: m.method.clone(),
                variant: m.variant.clone(),
                mitigation: m.mitigation.clone(),
                mapping: m.mapping.clone(),
                size: m.size.to_string(),
                kernel_ms: median(m),
                kernel_ms_spread: Spread::of(&m.samples_ms),
                kernel_bytes: m.bytes,
                reference_ms,
                reference_bytes,
                baseline_ms: baseline,
                peak_rss_bytes: m.peak_rss,
                output_equal: m.output_equal,
                reps: m.samples_ms.len(),
                runs_as: m.runs_as.clone(),
                samples_ms: m.samples_ms.clone(),
            }
        })
        .collect()
}

pub fn main(args: KernelsArgs) -> Result<i32, XtaskError> {
    let only = split_list(&args.only);
    for o in &only {
        if KernelId::from_name(o).is_none() {
            let names: Vec<&str> = KernelId::ALL.iter().map(|k| k.name()).collect();
            return Err(XtaskError::Input(format!("--only: unknown kernel `{o}`; kernels: {}", names.join(", "))));
        }
    }
    let size_of = |k: KernelId| -> Result<Size, XtaskError> {
        match args.scale.as_str() {
            "default" => Ok(k.default_size()),
            "small" => Ok(k.small_size()),
            s => Err(XtaskError::Input(format!("--scale: `{s}`, expected `default` or `small`"))),
        }
    };
    let methods: Vec<String> = args.method.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
    let path = args.out.clone().unwrap_or_else(|| xtask::local_dir().join("latest.json"));
    // Load first: a file that does not parse is an error, never overwritten.
    let mut file = if path.exists() { ResultsFile::load(&path)? } else { ResultsFile::new("cargo xtask kernels", &workspace_root()) };
    let mut all = Vec::new();
    let mut failure = None;
    let start = std::time::Instant::now();
    for k in KernelId::ALL.into_iter().filter(|k| only.is_empty() || only.iter().any(|o| o == k.name())) {
        let size = size_of(k)?;
        let ms = measure(&suite_dir(), k, size, &methods, &args.backend, args.repeat as usize, &mut |what| {
            eprintln!("xtask: kernels: [{:6.1}s] {what}", start.elapsed().as_secs_f64())
        })
        .map_err(|e| match e {
            // Bad sizes are input errors; an allocator or checker failure is a run failure.
            KernelError::Config(m) => XtaskError::Input(format!("kernels: {m}")),
            e => XtaskError::Cli(polyalloc::Error::Solver(format!("kernels: {e}"))),
        })?;
        if let Err(e) = check_outputs(&ms) {
            eprintln!("xtask: error: {e}");
            failure.get_or_insert(e);
        }
        all.extend(to_records(&ms));
    }
    print!("{}", xtask::report::kernels_markdown(&all));
    // Replace only the kernels this run measured; keep the others' records.
    let ran: Vec<String> = all.iter().map(|r| r.kernel.clone()).collect();
    file.kernels.retain(|r| !ran.contains(&r.kernel));
    file.kernels.extend(all);
    file.save(&path)?;
    eprintln!("xtask: wrote the kernels section of {}", path.display());
    match failure {
        Some(e) => {
            eprintln!("xtask: kernels: output mismatch: {e}");
            Ok(EXIT_CHECK)
        }
        None => Ok(EXIT_OK),
    }
}
