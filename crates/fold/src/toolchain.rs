//! The compiler a user already has: clang and opt with Polly (Debian's `clang-19`,
//! `llvm-19` and `libpolly-19-dev`; Polly is built into Debian's libLLVM, so its flags
//! go to `opt-19` directly, never through `-load-pass-plugin`).

use crate::error::FoldError;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The Debian packages that give clang, opt and Polly.
pub const PACKAGES: &str = "clang-19 llvm-19 libpolly-19-dev";

/// The two programs fold drives.
#[derive(Clone, Debug)]
pub struct Toolchain {
    /// `clang-19` (C to LLVM IR, and IR to a binary).
    pub clang: PathBuf,
    /// `opt-19` (Polly's passes).
    pub opt: PathBuf,
}

/// Finds `name` on `PATH` (an explicit path is taken as it is).
fn which(name: &Path) -> Option<PathBuf> {
    if name.components().count() > 1 {
        return name.is_file().then(|| name.to_path_buf());
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| p.is_file())
}

impl Toolchain {
    /// The programs named (or `clang-19` and `opt-19` found on `PATH`), checked to run
    /// and, for opt, to know Polly's passes.
    pub fn find(clang: Option<&Path>, opt: Option<&Path>) -> Result<Toolchain, FoldError> {
        let missing = |what: &str, name: &Path| {
            FoldError::Toolchain(format!(
                "{what} `{}` not found; install the Debian packages: sudo apt-get install {PACKAGES} (or name the programs with --clang and --opt)",
                name.display()
            ))
        };
        let clang_name = clang.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("clang-19"));
        let opt_name = opt.map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("opt-19"));
        let clang = which(&clang_name).ok_or_else(|| missing("the C compiler", &clang_name))?;
        let opt = which(&opt_name).ok_or_else(|| missing("the LLVM optimizer", &opt_name))?;
        let tc = Toolchain { clang, opt };
        // Polly's options are registered in Debian's libLLVM: an opt without them says
        // "Unknown command line argument".
        let out = tc.run_opt(&["-polly-process-unprofitable", "--version"], "checking that opt has Polly")?;
        if !out.status.success() {
            return Err(FoldError::Toolchain(format!(
                "`{}` does not know Polly's options ({}); install the Debian packages: sudo apt-get install {PACKAGES}",
                tc.opt.display(),
                first_line(&out.stderr)
            )));
        }
        Ok(tc)
    }

    /// True when both default programs are on `PATH` (the harness and the tests ask).
    pub fn available() -> bool {
        Toolchain::find(None, None).is_ok()
    }

    fn run(&self, program: &Path, args: &[&str], what: &str) -> Result<Output, FoldError> {
        Command::new(program).args(args).output().map_err(|e| FoldError::Toolchain(format!("{what}: cannot run `{}`: {e}", program.display())))
    }

    /// Runs clang with `args`.
    pub fn run_clang(&self, args: &[&str], what: &str) -> Result<Output, FoldError> {
        self.run(&self.clang, args, what)
    }

    /// Runs opt with `args`.
    pub fn run_opt(&self, args: &[&str], what: &str) -> Result<Output, FoldError> {
        self.run(&self.opt, args, what)
    }

    /// Runs a step that must succeed; its failure is an error quoting the program's own
    /// message.
    pub fn step(&self, clang: bool, args: &[&str], what: &str) -> Result<Output, FoldError> {
        let out = if clang { self.run_clang(args, what)? } else { self.run_opt(args, what)? };
        let program = if clang { &self.clang } else { &self.opt };
        succeeded(program, args, what, out)
    }

    /// Starts [`Toolchain::step`] in the background (another process, while fold goes
    /// on): [`Started::wait`] gives what `step` gives.
    pub fn start(&self, clang: bool, args: &[&str], what: &str) -> Started {
        let program = if clang { &self.clang } else { &self.opt };
        let child = Command::new(program).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
        Started {
            child: child.map_err(|e| FoldError::Toolchain(format!("{what}: cannot run `{}`: {e}", program.display()))),
            program: program.clone(),
            args: args.iter().map(|a| a.to_string()).collect(),
            what: what.to_string(),
        }
    }
}

/// A step's output when the program succeeded, else the error quoting its message.
fn succeeded(program: &Path, args: &[&str], what: &str, out: Output) -> Result<Output, FoldError> {
    if !out.status.success() {
        return Err(FoldError::Step {
            step: what.to_string(),
            command: format!("{} {}", program.display(), args.join(" ")),
            message: tail(&out.stderr, 12),
        });
    }
    Ok(out)
}

/// A step started by [`Toolchain::start`]. Dropped without [`Started::wait`] (fold
/// stopped earlier), its process is stopped and waited for.
#[derive(Debug)]
pub struct Started {
    child: Result<Child, FoldError>,
    program: PathBuf,
    args: Vec<String>,
    what: String,
}

impl Started {
    /// Waits for the step: its output, or the error [`Toolchain::step`] gives.
    pub fn wait(mut self) -> Result<Output, FoldError> {
        let child = std::mem::replace(&mut self.child, Err(FoldError::Toolchain(String::new())))?;
        let out =
            child.wait_with_output().map_err(|e| FoldError::Toolchain(format!("{}: cannot run `{}`: {e}", self.what, self.program.display())))?;
        let args: Vec<&str> = self.args.iter().map(String::as_str).collect();
        succeeded(&self.program, &args, &self.what, out)
    }
}

impl Drop for Started {
    fn drop(&mut self) {
        if let Ok(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The first line of a program's output.
pub fn first_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).lines().next().unwrap_or("").trim().to_string()
}

/// The last `n` non-empty lines of a program's output, without LLVM's stack dumps.
pub fn tail(bytes: &[u8], n: usize) -> String {
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text
        .lines()
        .take_while(|l| !l.starts_with("PLEASE submit a bug report") && !l.starts_with("Stack dump:"))
        .filter(|l| !l.trim().is_empty())
        .collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}
