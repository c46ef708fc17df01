//! The plan of a selection: which selected method runs on which targets of an input,
//! and why each selected method that does not is left out. Built once per input, by
//! the CLI (`polyalloc allocate`) and the harness (`cargo xtask reproduce`, `bench`)
//! alike. (The fuzzer asks each method for its targets itself, because it also
//! catches a method that panics while answering.)

use crate::error::Error;
use polyalloc_alloc::{Input, Method, MethodError};
use polyalloc_suite::Example;

/// The runs of a selection on one input.
pub struct Plan<'m> {
    /// Each selected method that applies, with its targets, in selection order.
    pub runs: Vec<(&'m dyn Method, Vec<String>)>,
    /// Each selected method that does not apply (or has no target among the arrays
    /// asked for), with why.
    pub not_applicable: Vec<(&'m dyn Method, String)>,
}

impl<'m> Plan<'m> {
    /// `methods` on `input`, restricted to the arrays `asked` when not empty. An asked
    /// array that no registered method answers for is an input error naming the
    /// example's arrays ([`check_arrays`]); a metadata-only example has no run.
    pub fn new(input: &Input, methods: &[&'m dyn Method], asked: &[String]) -> Result<Plan<'m>, Error> {
        let mut plan = Plan { runs: Vec::new(), not_applicable: Vec::new() };
        if crate::setup::is_metadata_only(&input.example) {
            plan.not_applicable = methods.iter().map(|m| (*m, "metadata-only example: nothing to allocate".to_string())).collect();
            return Ok(plan);
        }
        if !asked.is_empty() {
            let answered: Vec<String> = crate::registry().all().flat_map(|m| m.targets(input).unwrap_or_default()).collect();
            if let Some(a) = asked.iter().find(|a| !answered.contains(a)) {
                return Err(unknown_array(&input.example, a));
            }
        }
        for m in methods {
            match m.targets(input) {
                Ok(ts) => {
                    let ts: Vec<String> = ts.into_iter().filter(|t| asked.is_empty() || asked.contains(t)).collect();
                    if ts.is_empty() {
                        plan.not_applicable.push((*m, format!("no target among {}", asked.join(", "))));
                    } else {
                        plan.runs.push((*m, ts));
                    }
                }
                Err(MethodError::NotApplicable(why)) => plan.not_applicable.push((*m, why)),
                Err(e) => plan.not_applicable.push((*m, e.to_string())),
            }
        }
        Ok(plan)
    }

    /// The number of (method, target) runs (times the backends, for the caller).
    pub fn len(&self) -> usize {
        self.runs.iter().map(|(_, ts)| ts.len()).sum()
    }

    /// True when no selected method runs.
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }
}

/// The arrays `asked` when each has a conflict set or a program to compute one from;
/// every such array of the example when none is asked for.
pub fn check_arrays(ex: &Example, asked: &[String]) -> Result<Vec<String>, Error> {
    let all = ex.allocatable_arrays();
    if asked.is_empty() {
        return Ok(all);
    }
    match asked.iter().find(|a| !all.contains(a)) {
        Some(a) => Err(unknown_array(ex, a)),
        None => Ok(asked.to_vec()),
    }
}

/// The input error for an array asked for that nothing can allocate: it is not in the
/// example (naming the ones that are), or it has no conflict set nor a program.
fn unknown_array(ex: &Example, a: &str) -> Error {
    let known: Vec<&str> = ex.arrays.keys().map(String::as_str).collect();
    Error::Input(if ex.arrays.contains_key(a) {
        format!("{}: array `{a}` has neither conflicts nor a program to compute them from", ex.file.display())
    } else {
        format!("{}: no array `{a}`; arrays: {}", ex.file.display(), if known.is_empty() { "none".to_string() } else { known.join(", ") })
    })
}
