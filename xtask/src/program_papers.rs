//! The paper comparison of the methods whose paper entries are not storage mappings of a
//! conflict set (occupancy vectors under their schedules, schedules, loop shifting and
//! contraction).
//!
//! Every method, whichever paper it comes from, is a `polyalloc_alloc::Method` of
//! `polyalloc::registry()` and is run by [`crate::reproduce`] like the others. What is
//! specific is how its records compare with the paper's entries: the conflict-set
//! methods' entries are compared generically (hyperplanes, moduli, size); the program
//! papers' entries by a [`PaperModule`] each, which reads the method's typed details
//! back from the records and decides `counts`/`reproduced` by its own comparison
//! (documented in its module):
//!
//! * occupancy vectors (Thies et al. 2007): `program_papers/ov.rs`, methods `ov`, `aov`, `uov`;
//! * affine schedules (Pugh 1991): `program_papers/sched.rs`, method `schedule`;
//! * loop shifting, fusion and contraction by network flow (Song et al. 2005): `program_papers/flow.rs`,
//!   method `flow`.

use crate::results::PaperRow;
use polyalloc::run::Backend;
use polyalloc::{Input, Record};
use polyalloc_suite::Example;
use std::time::Duration;

mod flow;
mod ov;
mod sched;

/// The paper rows of a program paper (Thies et al. 2007, Pugh 1991, Song et al. 2005), from the records the registry's
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
    fn paper_rows(&self, input: &Input, selected: &[&str], records: &[Record], backends: &[Backend], time_limit: Option<Duration>) -> Vec<PaperRow>;
}

/// Every paper module, in paper order.
pub fn paper_modules() -> Vec<Box<dyn PaperModule>> {
    vec![Box::new(ov::OvPaper), Box::new(sched::Sched), Box::new(flow::FlowPaper)]
}

/// The method names whose paper entries a [`PaperModule`] compares.
pub fn names() -> Vec<&'static str> {
    paper_modules().iter().flat_map(|m| m.names().iter().copied()).collect()
}
