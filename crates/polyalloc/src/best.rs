//! Method `best`: runs every other applicable storage method of the registry
//! (([`Answer::is_own_storage`])) on a target, verifies each answer exactly as [`run`](crate::run()) does, and returns
//! the smallest verified mapping at the input's size point (the instance asked for, by
//! default the example's largest), naming the method that found it. Every candidate,
//! with its size or its failure, is in the details ([`BestDetails`]).
//!
//! Ties are decided by an explicit rule ([`winner`]): a mapping proven for every
//! parameter value over one verified at instances only, then fewer storage rows, then
//! the earlier method in registry order (the papers' order), so `best` is
//! deterministic. Each candidate runs under a fair share of the run's time budget (what
//! is left, divided by the candidates left plus one share kept for the final
//! verification): a candidate out of time fails alone, and the mappings already found
//! are kept. Sizes are compared as numbers at the size point; a candidate whose
//! size cannot be evaluated there (a row not folded, no instance) ranks after every
//! folded one.

use crate::record::Claim;
use crate::verify::verify_outcome;
use polyalloc_alloc::{details_of, Answer, Input, Method, MethodError, Outcome};
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
        (self.others)().into_iter().filter(|m| m.answer().is_own_storage())
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
    /// What the verified mapping is claimed for (`proven`, `instances`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verification: Option<Claim>,
    /// The number of storage rows (dimensions) of the verified mapping.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<usize>,
}

impl Candidate {
    /// A candidate without a verified mapping yet.
    pub fn new(method: &str) -> Candidate {
        Candidate { method: method.into(), mapping: None, size: None, size_at: None, error: None, verification: None, rows: None }
    }
}

/// The candidate `best` chooses, among the verified ones (a mapping and no error):
/// 1. the smallest size at the size point (a size that cannot be evaluated there ranks
///    after every evaluated one);
/// 2. on a tie, a mapping proven for every parameter value before one verified at
///    instances only;
/// 3. then fewer storage rows (`A[(i - t) mod (2N - 1)]` before an equal-sized
///    `A[t mod 1, i mod (2N - 1)]`);
/// 4. then the earlier candidate (registry order).
///
/// `None` when no candidate has a verified mapping. [`Best`] and the harness (which
/// derives `best` from the records of a run of every method) both choose with it.
pub fn winner(candidates: &[Candidate]) -> Option<usize> {
    let claim_rank = |c: &Candidate| match c.verification {
        Some(Claim::Proven) => 0,
        Some(Claim::Instances) => 1,
        None => 2,
    };
    candidates
        .iter()
        .enumerate()
        .filter(|(_, c)| c.error.is_none() && c.mapping.is_some())
        .min_by_key(|&(k, c)| (c.size_at.unwrap_or(i128::MAX), claim_rank(c), c.rows.unwrap_or(usize::MAX), k))
        .map(|(k, _)| k)
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
    fn answer(&self) -> Answer {
        Answer::BestOfOthers
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
            let mut c = Candidate::new(m.name());
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
            match verified {
                Some(Err(f)) => {
                    c.error = Some(f);
                    candidates.push(c);
                    outcomes.push(None);
                    continue;
                }
                Some(Ok((v, _))) => c.verification = Some(Claim::from(&v)),
                None => {}
            }
            let values = |params: &[String]| point.as_ref().and_then(|p| params.iter().map(|n| p.get(n).copied()).collect::<Option<Vec<i64>>>());
            if let Some(mapping) = &outcome.mapping {
                c.mapping = Some(mapping.to_string());
                c.size = mapping.size().ok().flatten().map(|p| p.to_string());
                c.size_at = values(&mapping.params).and_then(|v| mapping.size_for(&v).ok());
                c.rows = Some(mapping.rows.len());
            } else if let Some(shared) = &outcome.shared {
                // A storage shared by several arrays (the target names them all).
                c.mapping = Some(shared.mapping.to_string());
                c.size = shared.mapping.size().ok().map(|p| p.to_string());
                c.size_at = values(&shared.mapping.params).and_then(|v| shared.mapping.size_for(&v).ok());
                c.rows = Some(shared.mapping.moduli.len());
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
