//! `cargo xtask bless`: the explicit step that turns a local run into the committed
//! references. Runs write under `results/local/` (untracked); the references
//! (`results/baseline.json`, `results/bench.json`, `results/REPORT.md` and its plots)
//! change only here, through `cargo xtask report`, or through an explicit `--out`.

use crate::report::{self, Inputs};
use crate::results::ResultsFile;
use crate::XtaskError;
use std::path::{Path, PathBuf};

/// Copies `from/latest.json` to `refs/baseline.json` (keeping the old reference's
/// `kernels` section when the run has none, and its C corpus records the run does not
/// have) and `from/bench.json`, when it exists, to
/// `refs/bench.json`; then regenerates the report in `refs`. Returns the files written.
///
/// Unless `force`, a run that would lose anything the reference has is refused before
/// anything is written: a record that would disappear, get larger or stop verifying
/// (`compare`'s regressions). A partial run (`--only`, `--method`, one backend; or
/// the one `cargo test` leaves in `results/local/` when it checks the main job) is
/// never a reference by accident.
pub fn bless(from: &Path, refs: &Path, force: bool) -> Result<Vec<PathBuf>, XtaskError> {
    let latest = from.join("latest.json");
    if !latest.exists() {
        return Err(XtaskError::Input(format!("{}: not found; run `cargo xtask reproduce` first", latest.display())));
    }
    let mut run = ResultsFile::load(&latest)?;
    let baseline = refs.join("baseline.json");
    let old = if baseline.exists() { Some(ResultsFile::load(&baseline)?) } else { None };
    if let Some(old) = old.as_ref().filter(|_| !force) {
        let report = crate::compare::compare(&old.records, &run.records);
        let lost = report.regressions();
        if let Some(first) = lost.first() {
            return Err(XtaskError::Input(format!(
                "{}: {} of the reference's records would be lost, get larger or stop verifying (first: {} / {} / {} / {}: {}); its command was `{}`. Run the full reproduction (`cargo xtask --features highs,cbc reproduce --backend all`), or pass --force",
                latest.display(),
                lost.len(),
                first.example,
                first.array,
                first.method,
                first.backend,
                first.change.label(),
                run.command
            )));
        }
    }
    if let Some(old) = old {
        if run.kernels.is_empty() {
            run.kernels = old.kernels;
        }
        // C corpus records the run does not have (the main job folds a subset) stay.
        let mine = std::mem::take(&mut run.c_corpus);
        run.c_corpus = old.c_corpus;
        crate::c_corpus::merge(&mut run, mine);
    }
    let mut written = Vec::new();
    run.save(&baseline)?;
    written.push(baseline.clone());
    let bench = from.join("bench.json");
    let bench_ref = refs.join("bench.json");
    if bench.exists() {
        ResultsFile::load(&bench)?.save(&bench_ref)?;
        written.push(bench_ref.clone());
    }
    let inputs = Inputs::load(baseline, Some(bench_ref))?;
    report::write(refs, &inputs)?;
    written.push(refs.join("REPORT.md"));
    Ok(written)
}
