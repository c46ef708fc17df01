//! The bounded fuzzing campaign, part of `cargo test`: a fixed seed, random
//! conflict sets and programs, every applicable method through the facade, every
//! mapping checked again by brute force (`polyalloc::fuzz`). The long campaign is
//! `cargo xtask fuzz --cases N [--seed S]`.

use polyalloc::fuzz::{campaign, Options};
use std::time::Duration;

/// Cases of the bounded campaign (`POLYALLOC_FUZZ_CASES` overrides it).
const CASES: usize = 200;

#[test]
fn bounded_campaign_finds_no_crash_no_wrong_verdict_no_refuted_mapping() {
    let cases = std::env::var("POLYALLOC_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(CASES);
    // Two cases at a time (the machine of CI has 2 cores); a budget of 2 s per run keeps
    // the few large SMO models of 3-d cases bounded (over budget is a time-budget
    // failure, not a finding; `cargo xtask fuzz` gives them 20 s).
    let opts = Options { seed: 1, cases, time_limit: Some(Duration::from_secs(2)), threads: 2 };
    let backend = polyalloc::backend("microlp").expect("the built-in backend");
    let report = campaign(&opts, &backend, &mut |_, _| {});
    eprintln!("{}", report.to_markdown());
    let total = report.total();
    assert!(total.verified > cases, "the campaign must exercise the methods: {total:?}");
    assert!(report.clean(), "{}", report.to_markdown());
}
