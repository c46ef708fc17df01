//! Before a run: the solver backends of a selection, the input (a bench-suite file,
//! an SMO tool input, a Polly JSCoP file), `--params` and `--time-limit`. Re-exported
//! by [`mod@crate::run`], where the callers find them.

use crate::error::Error;
use polyalloc_ilp::Solver;
use polyalloc_suite::jscop::JscopOptions;
use polyalloc_suite::Example;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A created solver backend.
pub struct Backend {
    /// The registry name.
    pub name: String,
    /// The solver.
    pub solver: Box<dyn Solver>,
}

/// Creates the backends of a selection: `all`, a name, or `a,b` (`default` is the
/// built-in one). An unknown name is an input error listing the compiled-in backends.
pub fn backends(spec: &str) -> Result<Vec<Backend>, Error> {
    let reg = polyalloc_solvers::registry();
    let spec = if spec.trim() == "default" { polyalloc_solvers::DEFAULT_BACKEND } else { spec };
    let names = reg.select(spec).map_err(|e| {
        let hint = if matches!(e.name.as_str(), "highs" | "cbc") || e.name.starts_with("goodlp-") {
            format!(" (build with `--features {}` to enable it)", e.name)
        } else {
            String::new()
        };
        Error::Input(format!("{e}{hint}"))
    })?;
    if names.is_empty() {
        return Err(Error::Input(format!("no backend selected; compiled in: {}", reg.names().join(", "))));
    }
    names
        .into_iter()
        .map(|n| {
            let solver = reg.create(n).map_err(|e| Error::Solver(format!("backend `{n}`: {e}")))?;
            Ok(Backend { name: n.to_string(), solver })
        })
        .collect()
}

/// True for files the bench-suite marks `"status": "metadata-only"` (no checkable input).
pub fn is_metadata_only(ex: &Example) -> bool {
    ex.is_metadata_only()
}

/// Reads an example: `-` is standard input, otherwise a path; a bench-suite id (such
/// as `smo-produce-consume`) is also accepted when no such file exists and
/// `suite_dir/<id>.json` does.
pub fn load_input(spec: &str, suite_dir: &Path) -> Result<Example, Error> {
    load_input_with(spec, suite_dir, false, &JscopOptions::default())
}

/// [`load_input`] with the options of a Polly JSCoP file (`*.jscop`, or standard input
/// read as one when `stdin_jscop`): which arrays are scratch, narrowed live-out sets,
/// parameter values (`polyalloc_suite::jscop`).
pub fn load_input_with(spec: &str, suite_dir: &Path, stdin_jscop: bool, jscop: &JscopOptions) -> Result<Example, Error> {
    let is_jscop = |p: &Path| polyalloc_suite::jscop::is_jscop(p);
    if spec == "-" {
        let text = polyalloc_suite::read_text(std::io::stdin().lock(), Path::new("<stdin>"))?;
        if stdin_jscop {
            return Ok(polyalloc_suite::jscop::read(&text, Path::new("<stdin>.jscop"), jscop)?);
        }
        return Ok(Example::from_str(&text, Path::new("<stdin>"))?);
    }
    let path = PathBuf::from(spec);
    if !is_jscop(&path) && (!jscop.scratch.is_empty() || jscop.live_out.is_some()) {
        return Err(Error::Input(format!("{spec}: --scratch and --live-out apply to Polly JSCoP files (*.jscop) only")));
    }
    if !path.exists() {
        let by_id = suite_dir.join(format!("{spec}.json"));
        if !spec.contains('/') && by_id.is_file() {
            return Ok(Example::load(&by_id)?);
        }
    }
    if is_jscop(&path) {
        let text = polyalloc_suite::read_file(&path)?;
        return Ok(polyalloc_suite::jscop::read(&text, &path, jscop)?);
    }
    Ok(Example::load(&path)?)
}

/// The JSCoP files of a directory (Polly's export directory), sorted; empty when it has
/// none.
pub fn jscop_files(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let rd = std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))?;
    let mut out: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).filter(|p| polyalloc_suite::jscop::is_jscop(p)).collect();
    out.sort();
    Ok(out)
}

/// Parses `--params N=9,B=32`.
pub fn parse_params(spec: &str) -> Result<BTreeMap<String, i64>, Error> {
    let mut out = BTreeMap::new();
    for part in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (name, value) =
            part.split_once('=').ok_or_else(|| Error::Input(format!("--params: expected NAME=VALUE, found `{part}` (e.g. --params N=9,B=32)")))?;
        let name = name.trim();
        let value: i64 =
            value.trim().parse().map_err(|_| Error::Input(format!("--params: `{}` is not an integer (parameter `{name}`)", value.trim())))?;
        if out.insert(name.to_string(), value).is_some() {
            return Err(Error::Input(format!("--params: parameter `{name}` given twice")));
        }
    }
    Ok(out)
}

/// Checks `--params` against the example: every name is a parameter, every parameter
/// has a value, and the values satisfy the example's context (a mapping is verified
/// only there: its size elsewhere means nothing).
pub fn check_params(ex: &Example, values: &BTreeMap<String, i64>) -> Result<(), Error> {
    for name in values.keys() {
        if !ex.params.contains(name) {
            return Err(Error::Input(format!(
                "--params: `{name}` is not a parameter of {} (parameters: {})",
                ex.id,
                if ex.params.is_empty() { "none".to_string() } else { ex.params.join(", ") }
            )));
        }
    }
    let missing: Vec<&str> = ex.params.iter().filter(|p| !values.contains_key(*p)).map(String::as_str).collect();
    if !missing.is_empty() {
        return Err(Error::Input(format!("--params: no value for parameter(s) {} of {}", missing.join(", "), ex.id)));
    }
    if let Some(ctx) = ex.context_set()? {
        let order = &ctx.space().params;
        let at: Option<Vec<i64>> = order.iter().map(|p| values.get(p).copied()).collect();
        if let Some(at) = at {
            let inside = polyalloc_formulation::Set::from_basic(ctx.clone()).contains(&at, &[]).unwrap_or(true);
            if !inside {
                let given: Vec<String> = values.iter().map(|(k, v)| format!("{k}={v}")).collect();
                return Err(Error::Input(format!(
                    "--params: {} is outside the context of {} ({})",
                    given.join(","),
                    ex.id,
                    ex.context.as_deref().unwrap_or("")
                )));
            }
        }
    }
    Ok(())
}

/// The default wall-clock budget, in seconds, of each run of `polyalloc allocate` and
/// of `polyalloc check` (the same as `cargo xtask reproduce`'s).
pub const DEFAULT_TIME_LIMIT: f64 = 60.0;

/// The largest time limit accepted, in seconds (about 31 years).
pub const MAX_TIME_LIMIT: f64 = 1e9;

/// Parses a time limit in seconds: `0` is none, otherwise at most [`MAX_TIME_LIMIT`];
/// negative, not-a-number and larger values are input errors.
pub fn parse_time_limit(secs: f64) -> Result<Option<Duration>, Error> {
    if !secs.is_finite() || !(0.0..=MAX_TIME_LIMIT).contains(&secs) {
        return Err(Error::Input(format!("--time-limit: `{secs}` is out of range: give seconds from 0 (no limit) to {MAX_TIME_LIMIT:e}")));
    }
    if secs == 0.0 {
        return Ok(None);
    }
    Duration::try_from_secs_f64(secs).map(Some).map_err(|_| Error::Input(format!("--time-limit: `{secs}` is not a number of seconds")))
}

/// The example's largest instance (the last one: instances are ordered small to large).
pub fn largest_instance(ex: &Example) -> Option<BTreeMap<String, i64>> {
    ex.instances.last().cloned()
}

/// A file name for `s`: ASCII letters, digits, `-`, `_` and `.` kept, every other
/// character (and `%`) written as `%XX` per UTF-8 byte, so that two names never share
/// a file (`Ä` and `Ö` are `%C3%84` and `%C3%96`); a leading `.` too (no hidden file).
pub fn file_stem(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for (k, c) in s.chars().enumerate() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' || (c == '.' && k > 0) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        }
    }
    out
}
