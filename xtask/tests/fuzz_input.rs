//! A bounded `cargo xtask fuzz-input` campaign: 60 hostile or malformed inputs (every
//! family, the huge file excepted) through the `polyalloc` binary as subprocesses, each
//! under the campaign's address-space limit and wall-clock kill. Fails on any crash
//! (an exit code other than 0, 1, 2, 3 and 130, a signal, the kill, `panicked` on
//! standard error), printing the report with the command that reproduces each crash.
//!
//! It runs the `polyalloc` binary of `target/debug` as it is (building it only when it
//! is missing): `cargo build -p polyalloc-cli` first to test the current sources.

use xtask::fuzz_input::{campaign, default_bin, Family, Options};

#[test]
fn sixty_hostile_inputs_never_crash_the_command() {
    let bin = match default_bin() {
        Ok(b) => b,
        Err(e) => panic!("the polyalloc binary: {e}"),
    };
    let out = std::env::temp_dir().join(format!("polyalloc-fuzz-input-test-{}", std::process::id()));
    let mut opts = Options::new(60, 1, bin);
    opts.out = out.clone();
    let report = match campaign(&opts, &|_| {}) {
        Ok(r) => r,
        Err(e) => panic!("the campaign could not run: {e}"),
    };
    assert_eq!(report.outcomes.len(), 60, "every case ran");
    for f in [Family::SuiteJson, Family::Program, Family::IslString, Family::Bytes] {
        assert!(report.outcomes.iter().any(|o| o.family == f), "family {} ran", f.name());
    }
    let crashes = report.crashes();
    let markdown = report.to_markdown();
    if crashes.is_empty() {
        let _ = std::fs::remove_dir_all(&out);
    }
    assert!(
        crashes.is_empty(),
        "{} of 60 cases crashed polyalloc (inputs kept in {}):\n{}",
        crashes.len(),
        out.display(),
        markdown.split("\n## Every case").next().unwrap_or_default()
    );
}
