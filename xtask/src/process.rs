//! A command measured as a user runs it: the whole child process's CPU time (user + sys),
//! wall-clock time and peak resident memory.
//!
//! The child runs under the measuring launcher of `polyalloc fold`
//! (`polyalloc_fold::measure::LAUNCHER_C`, compiled here with `$CC` or `cc`): a small
//! program that forks and executes the command and reports, from its `wait4`, the
//! child's `ru_maxrss` and its wall time from fork to exit; [`launcher_source`] adds the
//! child's user + sys time to that report. The launcher is needed for the memory: a
//! child started directly by this (large) process would report this process's peak as
//! its own (see the constant's documentation). When the launcher does not report the
//! CPU time, it is this process's `wait4` of the launcher, which Linux reports for the
//! launcher and its waited-for child together: the command's CPU plus the launcher's own
//! start (about half a millisecond here). [`Meter::floor`] measures an empty program the
//! same way.
//!
//! Without a C compiler the command runs directly: CPU and wall time are measured, the
//! peak memory is not. CPU time from this process needs `wait4` (Linux, 64-bit).

// The errors are the facade's (`XtaskError` holds `polyalloc::Error`), as everywhere in
// xtask; its size is the facade's business.
#![allow(clippy::result_large_err)]

use crate::XtaskError;
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// One run of a command.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Sample {
    /// The exit code (`None` when a signal ended it: `signal`).
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    /// User + sys CPU time of the child (ms); `None` where not measured.
    pub cpu_ms: Option<f64>,
    /// Wall-clock time from start to exit (ms).
    pub wall_ms: f64,
    /// Peak resident set size of the child (kB, `ru_maxrss`); `None` without the launcher.
    pub max_rss_kb: Option<u64>,
}

impl Sample {
    /// True when the command exited with 0.
    pub fn success(&self) -> bool {
        self.code == Some(0)
    }

    /// How the command ended, for a message: `exit code 2` or `signal 9`, and the first
    /// line of its standard error.
    pub fn failure(&self) -> String {
        let how = match (self.code, self.signal) {
            (Some(c), _) => format!("exit code {c}"),
            (None, Some(s)) => format!("signal {s}"),
            (None, None) => "no exit status".into(),
        };
        let err = String::from_utf8_lossy(&self.stderr);
        match err.lines().map(str::trim).find(|l| !l.is_empty()) {
            Some(l) => format!("{how}: {l}"),
            None => how,
        }
    }
}

/// Runs and measures commands ([`Meter::run`]).
#[derive(Debug)]
pub struct Meter {
    /// The compiled launcher, when a C compiler was found.
    launcher: Option<PathBuf>,
    /// How the runs are measured, for the report.
    how: String,
}

impl Meter {
    /// Compiles the launcher into `dir` (with `$CC`, else `cc`); without a compiler the
    /// meter runs commands directly and says so in [`Meter::how`].
    pub fn new(dir: &Path) -> Meter {
        match build_launcher(dir) {
            Ok(path) => Meter {
                launcher: Some(path),
                how: format!(
                    "CPU: user + sys of the child{}; wall: fork to exit; peak RSS: the child's `ru_maxrss` (all three from `wait4` in the measuring launcher of `polyalloc fold`, so that xtask's own memory is not counted)",
                    match (launcher_source().1, cpu_measured()) {
                        (true, _) => "",
                        (false, true) => " and the launcher's own start",
                        (false, false) => " (not measured on this platform)",
                    }
                ),
            },
            Err(why) => Meter {
                launcher: None,
                how: format!(
                    "CPU: user + sys of the child from `wait4`{}; wall: start to exit; peak RSS not measured (the measuring launcher could not be built: {why})",
                    if cpu_measured() { "" } else { " (not measured on this platform)" }
                ),
            },
        }
    }

    /// How the runs are measured.
    pub fn how(&self) -> &str {
        &self.how
    }

    /// Runs `program args` (standard input closed, outputs captured), stopping it after
    /// `limit`.
    pub fn run(&self, program: &Path, args: &[String], limit: Duration) -> Result<Sample, XtaskError> {
        match &self.launcher {
            Some(l) => run_launched(l, program, args, limit),
            None => run_direct(program, args),
        }
    }

    /// An empty program (`true`) measured the same way, `runs` times: the median CPU and
    /// wall time (ms), the floor under every figure. `None` without `true`.
    pub fn floor(&self, runs: usize) -> Option<(Option<f64>, f64)> {
        let t = ["/usr/bin/true", "/bin/true"].iter().map(PathBuf::from).find(|p| p.is_file())?;
        let samples: Vec<Sample> = (0..runs.max(1)).filter_map(|_| self.run(&t, &[], Duration::from_secs(10)).ok()).filter(Sample::success).collect();
        let cpu: Vec<f64> = samples.iter().filter_map(|s| s.cpu_ms).collect();
        let wall: Vec<f64> = samples.iter().map(|s| s.wall_ms).collect();
        let median = |v: &[f64]| crate::results::Spread::of(v).map(|s| s.median);
        Some((median(&cpu), median(&wall)?))
    }
}

impl Drop for Meter {
    fn drop(&mut self) {
        if let Some(l) = &self.launcher {
            let _ = std::fs::remove_file(l);
        }
    }
}

/// True where this process measures its children's CPU time itself (`wait4`).
pub fn cpu_measured() -> bool {
    cfg!(all(target_os = "linux", target_pointer_width = "64"))
}

/// The report line of `LAUNCHER_C` and the same with the child's user + sys seconds as a
/// fifth field (readers of the first four fields read it unchanged).
const REPORT: (&str, &str) = ("\"%d %d %ld %.9f\\n\"", "\"%d %d %ld %.9f %.6f\\n\"");
const WALL_ARG: (&str, &str) =
    ("/ 1e9);", "/ 1e9,\n          (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);");

/// The launcher's C source: `polyalloc fold`'s, its report extended with the child's CPU
/// time; `(source, true)` when extended, `(LAUNCHER_C, false)` when its report line is
/// not the expected one (then the CPU time is measured around the launcher).
pub fn launcher_source() -> (String, bool) {
    let c = polyalloc_fold::measure::LAUNCHER_C;
    if c.matches(REPORT.0).count() == 1 && c.matches(WALL_ARG.0).count() == 1 {
        (c.replace(REPORT.0, REPORT.1).replace(WALL_ARG.0, WALL_ARG.1), true)
    } else {
        (c.to_string(), false)
    }
}

fn build_launcher(dir: &Path) -> Result<PathBuf, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let id = std::process::id();
    let src = dir.join(format!("polyalloc-launcher-{id}.c"));
    let bin = dir.join(format!("polyalloc-launcher-{id}"));
    std::fs::write(&src, launcher_source().0).map_err(|e| format!("{}: {e}", src.display()))?;
    let cc = std::env::var_os("CC").filter(|c| !c.is_empty()).unwrap_or_else(|| "cc".into());
    let out = Command::new(&cc).arg("-O2").arg(&src).arg("-o").arg(&bin).stdin(Stdio::null()).output();
    let _ = std::fs::remove_file(&src);
    let cc = cc.to_string_lossy().into_owned();
    match out {
        Err(e) => Err(format!("cannot run `{cc}`: {e}")),
        Ok(o) if !o.status.success() => Err(format!("`{cc}` failed: {}", String::from_utf8_lossy(&o.stderr).lines().next().unwrap_or_default())),
        Ok(_) => Ok(bin),
    }
}

/// Reads a child's pipe to the end on a thread.
fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

fn spawn(cmd: &mut Command, what: &Path) -> Result<Child, XtaskError> {
    cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    cmd.spawn().map_err(|e| XtaskError::Cli(polyalloc::Error::io(what, format!("cannot start: {e}"))))
}

fn run_launched(launcher: &Path, program: &Path, args: &[String], limit: Duration) -> Result<Sample, XtaskError> {
    let usage = launcher.with_extension(format!("usage-{}", std::process::id()));
    let _ = std::fs::remove_file(&usage);
    let mut cmd = Command::new(launcher);
    cmd.arg(&usage).arg(limit.as_secs().max(1).to_string()).arg(program).args(args);
    let mut child = spawn(&mut cmd, launcher)?;
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let (status, cpu_ms) = wait(&mut child).map_err(|e| XtaskError::Cli(polyalloc::Error::io(launcher, format!("waiting: {e}"))))?;
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    let text = std::fs::read_to_string(&usage).unwrap_or_default();
    let _ = std::fs::remove_file(&usage);
    // `signaled code maxrss wall_seconds [cpu_seconds]` (see LAUNCHER_C, launcher_source).
    let f: Vec<&str> = text.split_whitespace().collect();
    let parsed = match f.as_slice() {
        [sig, code, rss, wall, rest @ ..] if rest.len() <= 1 => {
            match (sig.parse::<i32>(), code.parse::<i32>(), rss.parse::<u64>(), wall.parse::<f64>()) {
                (Ok(sig), Ok(code), Ok(rss), Ok(wall)) => Some((sig, code, rss, wall, rest.first().and_then(|c| c.parse::<f64>().ok()))),
                _ => None,
            }
        }
        _ => None,
    };
    let Some((signaled, code, rss, wall, child_cpu)) = parsed else {
        return Err(XtaskError::Cli(polyalloc::Error::io(launcher, format!("the launcher could not run `{}` ({status})", program.display()))));
    };
    let (code, signal) = if signaled == 0 { (Some(code), None) } else { (None, Some(code)) };
    let cpu_ms = child_cpu.map(|c| c * 1000.0).or(cpu_ms);
    Ok(Sample { code, signal, stdout, stderr, cpu_ms, wall_ms: wall * 1000.0, max_rss_kb: Some(rss) })
}

fn run_direct(program: &Path, args: &[String]) -> Result<Sample, XtaskError> {
    let start = Instant::now();
    let mut child = spawn(Command::new(program).args(args), program)?;
    let (out, err) = (drain(child.stdout.take()), drain(child.stderr.take()));
    let (status, cpu_ms) = wait(&mut child).map_err(|e| XtaskError::Cli(polyalloc::Error::io(program, format!("waiting: {e}"))))?;
    let wall_ms = start.elapsed().as_secs_f64() * 1000.0;
    Ok(Sample {
        code: status.code(),
        signal: status.signal(),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        cpu_ms,
        wall_ms,
        max_rss_kb: None,
    })
}

/// Waits for `child`: its exit status and, where measured, its CPU time (user + sys of
/// it and its waited-for children, ms).
#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
fn wait(child: &mut Child) -> std::io::Result<(ExitStatus, Option<f64>)> {
    use std::os::raw::{c_int, c_long};
    #[repr(C)]
    #[derive(Default)]
    struct Timeval {
        sec: c_long,
        usec: c_long,
    }
    /// `struct rusage` of Linux on 64-bit targets: two `timeval`s and 14 `long`s.
    #[repr(C)]
    #[derive(Default)]
    struct Rusage {
        utime: Timeval,
        stime: Timeval,
        rest: [c_long; 14],
    }
    extern "C" {
        fn wait4(pid: c_int, status: *mut c_int, options: c_int, rusage: *mut Rusage) -> c_int;
    }
    let pid = c_int::try_from(child.id()).map_err(|_| std::io::Error::other("process id out of range"))?;
    loop {
        let mut status: c_int = 0;
        let mut ru = Rusage::default();
        // SAFETY: `wait4` writes an int and a `struct rusage` (laid out as `Rusage`) into
        // the two valid, exclusively borrowed locations; `pid` is our unreaped child.
        let r = unsafe { wait4(pid, &mut status, 0, &mut ru) };
        if r == pid {
            let ms = |t: &Timeval| t.sec as f64 * 1000.0 + t.usec as f64 / 1000.0;
            return Ok((ExitStatus::from_raw(status), Some(ms(&ru.utime) + ms(&ru.stime))));
        }
        let e = std::io::Error::last_os_error();
        if e.kind() != std::io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
fn wait(child: &mut Child) -> std::io::Result<(ExitStatus, Option<f64>)> {
    Ok((child.wait()?, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command's exit code, output and times come back; the launcher's peak memory is
    /// that of the command (a shell), not of this test process.
    #[test]
    fn measures_a_child() {
        let dir = std::env::temp_dir().join(format!("polyalloc-process-{}", std::process::id()));
        let meter = Meter::new(&dir);
        let sh = PathBuf::from("/bin/sh");
        let s = meter.run(&sh, &["-c".into(), "echo out; echo err >&2; exit 3".into()], Duration::from_secs(30)).expect("runs");
        assert_eq!(s.code, Some(3));
        assert_eq!(String::from_utf8_lossy(&s.stdout), "out\n");
        assert!(s.failure().starts_with("exit code 3: err"), "{}", s.failure());
        assert!(s.wall_ms >= 0.0);
        assert!(launcher_source().1, "the launcher's report line changed: measure the CPU time in it again");
        assert_eq!(s.cpu_ms.is_some(), cpu_measured() || s.max_rss_kb.is_some());
        assert!(meter.floor(1).is_some());
        drop(meter);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
