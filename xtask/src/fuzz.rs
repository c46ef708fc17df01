//! `cargo xtask fuzz`: the long fuzzing campaign of `polyalloc::fuzz` on
//! every core. Every finding is written as a bench-suite file (`<dir>/<case>.json`)
//! that `polyalloc allocate` reproduces, with the report in `<dir>/report.md`.

use polyalloc::fuzz::Report;
use std::path::Path;

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
