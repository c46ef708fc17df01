//! `cargo xtask fuzz`: the long fuzzing campaign of `polyalloc::fuzz` (issue 16), the
//! cases in parallel on every core (each case is independent; the report is collected
//! back in case order, so it is the same as a serial run's). Every finding is written
//! as a bench-suite file (`<dir>/<case>.json`) that `polyalloc allocate` reproduces,
//! with `<dir>/report.md`.

use polyalloc::fuzz::{gen, run_case, Options, Report};
use rayon::prelude::*;
use std::path::Path;

/// Cases run between two progress updates (and interruption checks).
const CHUNK: usize = 64;

/// Runs the campaign on the backend `backend` (one instance per case);
/// `progress(done)` after every chunk of cases.
pub fn run(opts: &Options, backend: &str, progress: &dyn Fn(usize)) -> Result<Report, polyalloc::Error> {
    polyalloc::backend(backend)?;
    let mut report = Report::new(opts.seed);
    let mut start = 0;
    while start < opts.cases && !polyalloc::budget::interrupted() {
        let end = (start + CHUNK).min(opts.cases);
        let results: Vec<_> = (start..end)
            .into_par_iter()
            .map(|index| {
                let case = gen::case(opts.seed, index);
                let result = polyalloc::backend(backend).map_err(|e| e.to_string()).and_then(|b| run_case(&case, &b, opts.time_limit));
                (case, result)
            })
            .collect();
        for (case, result) in results {
            report.record(&case, result);
        }
        start = end;
        progress(start);
    }
    Ok(report)
}

/// Writes every finding's case to `dir/<case>.json` and the report to `dir/report.md`.
pub fn write_findings(report: &Report, dir: &Path) -> Result<usize, polyalloc::Error> {
    let mut written = std::collections::BTreeSet::new();
    for f in &report.findings {
        if written.insert(f.case.clone()) {
            let text = serde_json::to_string_pretty(&f.example).map_err(|e| polyalloc::Error::io(dir, e))?;
            crate::results::write_atomic(&dir.join(format!("{}.json", f.case)), format!("{text}\n").as_bytes())?;
        }
    }
    crate::results::write_atomic(&dir.join("report.md"), report.to_markdown().as_bytes())?;
    Ok(written.len())
}
