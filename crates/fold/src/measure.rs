//! Running a compiled program as a user does: the whole process, its output, its wall
//! time and its peak resident memory (the kernel's `ru_maxrss` of that child, from
//! `wait4`, taken by a small launcher: [`LAUNCHER_C`]), with a time limit.

use crate::error::FoldError;
use serde::{Deserialize, Serialize};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of a program.
#[derive(Clone, Debug)]
pub struct RunSample {
    /// What it printed on standard output.
    pub stdout: Vec<u8>,
    /// Wall-clock time of the whole process.
    pub wall: Duration,
    /// Peak resident set size in kilobytes.
    pub peak_rss_kb: u64,
}

/// Medians over the runs of one program.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Measurement {
    /// Runs measured.
    pub runs: usize,
    /// Median wall-clock time in milliseconds.
    pub wall_ms: f64,
    /// Every run's wall-clock time in milliseconds, in order.
    pub wall_ms_samples: Vec<f64>,
    /// Median peak resident set size in kilobytes.
    pub peak_rss_kb: u64,
}

impl Measurement {
    /// The medians of `samples`.
    pub fn of(samples: &[RunSample]) -> Measurement {
        let mut walls: Vec<f64> = samples.iter().map(|s| s.wall.as_secs_f64() * 1000.0).collect();
        let order = walls.clone();
        walls.sort_by(f64::total_cmp);
        let mut rss: Vec<u64> = samples.iter().map(|s| s.peak_rss_kb).collect();
        rss.sort_unstable();
        Measurement {
            runs: samples.len(),
            wall_ms: walls.get(walls.len() / 2).copied().unwrap_or(0.0),
            wall_ms_samples: order,
            peak_rss_kb: rss.get(rss.len() / 2).copied().unwrap_or(0),
        }
    }
}

/// The measuring launcher, in C, compiled with the user's clang at the first run: it
/// forks and executes the program and reports the child's `wait4` usage.
///
/// Why not `wait4` from this process: a child started by a large process inherits its
/// peak resident size (Linux keeps the larger of the parent's image before `exec` and
/// the program's own in `ru_maxrss`; Rust starts children with `vfork`-like clones), so
/// a fold that has just simulated a large SCoP would report its own memory as the
/// program's. The launcher is small, so its child's figure is the program's own.
pub const LAUNCHER_C: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (argc < 4) return 125;
  struct timespec a, b;
  clock_gettime(CLOCK_MONOTONIC, &a);
  pid_t pid = fork();
  if (pid < 0) return 125;
  if (pid == 0) { alarm((unsigned)atoi(argv[2])); execv(argv[3], argv + 3); _exit(127); }
  int status = 0;
  struct rusage ru;
  if (wait4(pid, &status, 0, &ru) < 0) return 125;
  clock_gettime(CLOCK_MONOTONIC, &b);
  FILE *f = fopen(argv[1], "w");
  if (!f) return 125;
  fprintf(f, "%d %d %ld %.9f\n", WIFEXITED(status) ? 0 : 1,
          WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), ru.ru_maxrss,
          (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
  fclose(f);
  return 0;
}
"#;

/// Runs `program` once (no arguments, no input) under `launcher` (the compiled
/// [`LAUNCHER_C`]), killing it after `limit`.
pub fn run_once(launcher: &Path, program: &Path, limit: Duration) -> Result<RunSample, FoldError> {
    let usage_file = program.with_extension(format!("usage-{}", std::process::id()));
    let _ = std::fs::remove_file(&usage_file);
    let start = Instant::now();
    let mut child = Command::new(launcher)
        .arg(&usage_file)
        .arg(limit.as_secs().max(1).to_string())
        .arg(program)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| FoldError::Run(format!("cannot start `{}`: {e}", program.display())))?;
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(o) = out.as_mut() {
            let _ = o.read_to_end(&mut buf);
        }
        buf
    });
    let err_reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(e) = err.as_mut() {
            let _ = e.read_to_end(&mut buf);
        }
        buf
    });
    let mut killed = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) => {}
            Err(e) => return Err(FoldError::Run(format!("waiting for `{}`: {e}", program.display()))),
        }
        // The launcher's alarm stops the program at `limit`; this stops a launcher
        // that somehow outlives it.
        if !killed && start.elapsed() > limit + Duration::from_secs(5) {
            let _ = child.kill();
            killed = true;
        }
        std::thread::sleep(Duration::from_micros(500));
    };
    let stdout = reader.join().unwrap_or_default();
    let stderr = err_reader.join().unwrap_or_default();
    let usage = std::fs::read_to_string(&usage_file).unwrap_or_default();
    let _ = std::fs::remove_file(&usage_file);
    if killed {
        return Err(FoldError::Run(format!("`{}` ran longer than {:.0} s and was stopped", program.display(), limit.as_secs_f64())));
    }
    let fields: Vec<&str> = usage.split_whitespace().collect();
    let (Some(signaled), Some(code), Some(rss), Some(wall)) = (fields.first(), fields.get(1), fields.get(2), fields.get(3)) else {
        return Err(FoldError::Run(format!("the launcher could not run `{}` (status {status})", program.display())));
    };
    if *signaled != "0" && *code == "14" {
        return Err(FoldError::Run(format!("`{}` ran longer than {} s and was stopped", program.display(), limit.as_secs().max(1))));
    }
    if *signaled != "0" || *code != "0" {
        let how = if *signaled == "0" { format!("exit code {code}") } else { format!("signal {code}") };
        return Err(FoldError::Run(format!(
            "`{}` failed ({how}){}",
            program.display(),
            crate::toolchain::tail(&stderr, 3).lines().next().map(|l| format!(": {l}")).unwrap_or_default()
        )));
    }
    let wall: f64 = wall.parse().unwrap_or(0.0);
    Ok(RunSample { stdout, wall: Duration::from_secs_f64(wall.max(0.0)), peak_rss_kb: rss.parse().unwrap_or(0) })
}
