//! Method `best`: runs every other applicable storage method of the registry
//! ([`Method::maps_storage`]) on a target, verifies each answer exactly as [`run`](crate::run()) does, and returns
//! the smallest verified mapping at the input's size point (the instance asked for, by
//! default the example's largest), naming the method that found it. Every candidate,
//! with its size or its failure, is in the details ([`BestDetails`]).
//!
//! Ties keep the earlier method in registry order (the papers' order), so `best` is
//! deterministic. Each candidate runs under a fair share of the run's time budget (what
//! is left, divided by the candidates left plus one share kept for the final
//! verification): a candidate out of time fails alone, and the mappings already found
//! are kept. Sizes are compared as numbers at the size point; a candidate whose
//! size cannot be evaluated there (a row not folded, no instance) ranks after every
//! folded one.

use crate::run::verify_outcome;
use polyalloc_alloc::{details_of, Input, Method, MethodError, Outcome};
use polyalloc_ilp::Solver;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The method. It runs the methods its `others` function lists (the registry's, when
/// registered there): `best` itself does not know the registry, the registry knows it.
pub struct Best {
    others: fn() -> Vec<&'static dyn Method>,
}

impl Best {
    /// `best` over the methods `others` returns (each must not itself run other methods).
    pub fn new(others: fn() -> Vec<&'static dyn Method>) -> Best {
        Best { others }
    }

    fn others(&self) -> impl Iterator<Item = &'static dyn Method> {
        (self.others)().into_iter().filter(|m| !m.runs_other_methods() && m.maps_storage())
    }
}

/// The registry name.
pub const NAME: &str = "best";

/// One candidate of `best`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    pub method: String,
    /// The verified mapping as printed, or `null` when the method gave none.
    pub mapping: Option<String>,
    /// The size polynomial.
    pub size: Option<String>,
    /// The size at the size point.
    pub size_at: Option<i128>,
    /// Why the candidate has no verified mapping.
    pub error: Option<String>,
}

/// The candidate `best` chooses: the verified one (a mapping and no error) with the
/// smallest size at the size point, a candidate whose size cannot be evaluated there
/// ranking after every evaluated one; ties keep the earlier candidate. `None` when no
/// candidate has a verified mapping. [`Best`] and the harness (which derives `best`
/// from the records of a run of every method) both choose with it.
pub fn winner(candidates: &[Candidate]) -> Option<usize> {
    let mut best: Option<(i128, usize)> = None;
    for (k, c) in candidates.iter().enumerate() {
        if c.error.is_some() || c.mapping.is_none() {
            continue;
        }
        let key = c.size_at.unwrap_or(i128::MAX);
        if best.is_none_or(|(b, _)| key < b) {
            best = Some((key, k));
        }
    }
    best.map(|(_, k)| k)
}

/// The details of a `best` record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BestDetails {
    /// The method whose mapping was chosen.
    pub winner: String,
    /// Where sizes were compared.
    pub size_point: Option<BTreeMap<String, i64>>,
    /// Every method tried, in registry order.
    pub candidates: Vec<Candidate>,
}

impl Method for Best {
    fn name(&self) -> &'static str {
        NAME
    }
    fn summary(&self) -> &'static str {
        "the smallest verified mapping of every applicable method, at the instance asked for"
    }
    fn runs_other_methods(&self) -> bool {
        true
    }
    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        let mut targets: Vec<String> = Vec::new();
        for m in self.others() {
            for t in m.targets(input).unwrap_or_default() {
                if !targets.contains(&t) {
                    targets.push(t);
                }
            }
        }
        if targets.is_empty() {
            return Err(MethodError::NotApplicable("no method applies to this example".into()));
        }
        Ok(targets)
    }
    fn run(&self, input: &Input, target: &str, solver: &dyn Solver) -> Result<Outcome, MethodError> {
        let point = input.size_point();
        let mut candidates = Vec::new();
        let mut outcomes: Vec<Option<Outcome>> = Vec::new();
        // Per candidate: it declined (not applicable, or no storage mapping).
        let mut declined: Vec<bool> = Vec::new();
        let applicable: Vec<&'static dyn Method> =
            self.others().filter(|m| m.targets(input).unwrap_or_default().iter().any(|t| t == target)).collect();
        for (k, m) in applicable.iter().enumerate() {
            let mut c = Candidate { method: m.name().into(), mapping: None, size: None, size_at: None, error: None };
            // A fair share of the run's time budget: what is left divided by the
            // candidates left plus one share kept for the facade's verification of the
            // winner. A candidate that runs out of its share fails alone; the others
            // and the mapping already found are kept.
            let share = polyalloc_ilp::budget::remaining().map(|r| r / (applicable.len() - k + 1) as u32);
            let (result, verified) = polyalloc_ilp::budget::scoped(m.name(), share, || {
                let r = m.run(input, target, solver);
                let v = match &r {
                    Ok(o) if o.mapping.is_some() || o.shared.is_some() => Some(verify_outcome(input, o, solver, m.name()).map_err(|f| f.to_string())),
                    _ => None,
                };
                (r, v)
            });
            let outcome = match result {
                Ok(o) => o,
                Err(e) => {
                    declined.push(matches!(e, MethodError::NotApplicable(_)));
                    c.error = Some(e.to_string());
                    candidates.push(c);
                    outcomes.push(None);
                    continue;
                }
            };
            if outcome.mapping.is_none() && outcome.shared.is_none() {
                // The method's answer is that it does not fold the target (003's
                // contraction leaves an array whole): a decision, not a failure.
                declined.push(true);
                c.error = Some("no storage mapping".into());
                candidates.push(c);
                outcomes.push(None);
                continue;
            }
            declined.push(false);
            if let Some(Err(f)) = verified {
                c.error = Some(f);
                candidates.push(c);
                outcomes.push(None);
                continue;
            }
            let values = |params: &[String]| point.as_ref().and_then(|p| params.iter().map(|n| p.get(n).copied()).collect::<Option<Vec<i64>>>());
            if let Some(mapping) = &outcome.mapping {
                c.mapping = Some(mapping.to_string());
                c.size = mapping.size().ok().flatten().map(|p| p.to_string());
                c.size_at = values(&mapping.params).and_then(|v| mapping.size_for(&v).ok());
            } else if let Some(shared) = &outcome.shared {
                // A storage shared by several arrays (the target names them all).
                c.mapping = Some(shared.mapping.to_string());
                c.size = shared.mapping.size().ok().map(|p| p.to_string());
                c.size_at = values(&shared.mapping.params).and_then(|v| shared.mapping.size_for(&v).ok());
            }
            candidates.push(c);
            outcomes.push(Some(outcome));
        }
        let Some(rank) = winner(&candidates) else {
            let why: Vec<String> = candidates.iter().map(|c| format!("{}: {}", c.method, c.error.as_deref().unwrap_or("?"))).collect();
            // Every method declined (none applies, or each answered that it does not
            // fold the target): not applicable, not a failure.
            if !declined.is_empty() && declined.iter().all(|&d| d) {
                return Err(MethodError::NotApplicable(format!("no method folds `{target}` ({})", why.join("; "))));
            }
            return Err(MethodError::Method(format!("no method found a verified mapping ({})", why.join("; "))));
        };
        let Some(mut outcome) = outcomes.swap_remove(rank) else {
            return Err(MethodError::Method("the winning candidate has no outcome".into()));
        };
        let details = BestDetails { winner: candidates[rank].method.clone(), size_point: point, candidates };
        outcome.details = details_of(&details);
        Ok(outcome)
    }
}
