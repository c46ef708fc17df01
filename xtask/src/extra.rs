//! Methods whose input is not an array's conflict set.
//!
//! The conflict-set allocators (`lefe`, `smo`, `lattice*`) all take a
//! `polyalloc_alloc::Problem` and are run uniformly by [`crate::reproduce`]. The other
//! methods of the papers read their own section of a bench-suite file and produce their
//! own kind of answer:
//!
//! * occupancy vectors (000): the `ov` section; records `ov`, `aov`, `uov`;
//! * affine schedules (002): the `pugh` section; method `schedule`, registered in
//!   `polyalloc::registry()`; its paper rows are a [`PaperModule`] (`extra/sched.rs`);
//! * loop shifting, fusion and contraction by network flow (003): the `flow` section;
//!   records `flow`.
//!
//! Each is an [`ExampleMethod`]. It returns its records (the common mapping fields
//! `hyperplanes`, `moduli`, `mapping`, `size`, `verified` when it induces a storage
//! mapping, its own results under `Record::details`) and the paper rows of the paper
//! entries it owns, with `counts`/`reproduced` decided by its own comparison (documented
//! in its module). The generic paper-row code skips entries of these methods.

use crate::results::PaperRow;
use polyalloc::run::Backend;
use polyalloc::Record;
use polyalloc_suite::Example;
use std::time::Duration;

#[path = "extra/ov.rs"]
mod ov;
#[path = "extra/sched.rs"]
mod sched;
#[path = "extra/flow.rs"]
mod flow;

/// What one [`ExampleMethod`] produced for one example.
#[derive(Debug, Default)]
pub struct ExtraRun {
    /// One or more records per backend.
    pub records: Vec<Record>,
    /// The paper entries of this method in the example, side by side with the records.
    pub paper: Vec<PaperRow>,
    /// Things not run, with the reason (`example: why`).
    pub skipped: Vec<String>,
}

/// A method that reads its own section of a bench-suite example.
pub trait ExampleMethod {
    /// The method names it records under and owns paper entries of (`["ov", "aov", "uov"]`).
    fn names(&self) -> &'static [&'static str];
    /// True when the example carries this method's input.
    fn applies(&self, ex: &Example) -> bool;
    /// Runs the method on every backend. `methods` is the subset of [`names`](Self::names)
    /// selected by `--method`. Failures are records with a non-`ok` status, never panics.
    fn run(&self, ex: &Example, methods: &[&str], backends: &[Backend], time_limit: Option<Duration>) -> ExtraRun;
}

/// The paper rows of a program paper (000, 002, 003), from the records the registry's
/// methods produced for one example. Each module reads its method's typed details back
/// (deserialising `Record::details` into the method crate's details struct) and
/// decides `counts`/`reproduced` by its own comparison, documented in its module. The
/// methods themselves run through `polyalloc::run_record` like every other method.
pub trait PaperModule {
    /// The method names whose paper entries this module compares (`["ov", "aov", "uov"]`).
    fn names(&self) -> &'static [&'static str];
    /// True when the example carries this paper's input.
    fn applies(&self, ex: &Example) -> bool;
    /// The rows of the example's paper entries of [`names`](Self::names) that were
    /// selected, side by side with `records` (this example's records, every backend).
    /// `paper_verdict`s that need a solver use the first backend.
    fn paper_rows(&self, ex: &Example, selected: &[&str], records: &[Record], backends: &[Backend], time_limit: Option<Duration>) -> Vec<PaperRow>;
}

/// Every paper module, in paper order.
pub fn paper_modules() -> Vec<Box<dyn PaperModule>> {
    vec![Box::new(ov::OvPaper), Box::new(sched::Sched), Box::new(flow::FlowPaper)]
}

/// Every method of this kind, in paper order.
pub fn registry() -> Vec<Box<dyn ExampleMethod>> {
    vec![
    ]
}

/// All method names owned by [`registry`].
pub fn names() -> Vec<&'static str> {
    registry().iter().flat_map(|m| m.names().iter().copied()).collect()
}
