//! Max-live: the physical limit of every storage mapping. The largest number of values of
//! an array live at one time is a lower bound on the number of cells of any valid
//! mapping (the cells live at one time pairwise conflict, 004 Sec. 2.1), so a record can
//! say how far its mapping is from the best any method could do.
//!
//! Computed exactly at one instance (parameter values), in the order of preference:
//!
//! * **simulation**: when the example has a program, [`polyalloc_program::max_live`]
//!   runs its schedule with the conventions of the conflict sets (reads before writes at
//!   equal time, live-out values live to the end);
//! * **clique**: for a file that has only a conflict set (or a program the simulation
//!   refuses, e.g. one writing a cell twice at one time), the largest clique of the
//!   conflict graph at the instance (every cell a vertex, every conflicting pair an
//!   edge), by an exact branch and bound. When every value's lifetime is an interval of
//!   one time line, pairwise-overlapping lifetimes share a moment (the Helly property of
//!   intervals), so the clique number is max-live; in general it is still a lower bound
//!   on the size of every valid mapping;
//! * **unknown**: no instance, a conflict graph above [`CLIQUE_PAIR_LIMIT`] pairs, or a
//!   search above [`CLIQUE_NODE_LIMIT`] branch nodes.
//!
//! A method that transforms the program (003's shifted and fused loops) gives mappings
//! valid under its own order; [`max_live_under`] simulates that order instead.
//!
//! For arrays that share one storage ([`max_live_shared`]) the graph has the cells of
//! every array as vertices and the conflicts within and between them as edges: its
//! clique number bounds the size of every valid shared storage.

use polyalloc_alloc::{ExecutionCheck, Input, Order};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

/// Conflict pairs enumerated at most for the clique computation.
pub const CLIQUE_PAIR_LIMIT: usize = 400_000;
/// Branch-and-bound nodes explored at most by the clique search.
pub const CLIQUE_NODE_LIMIT: usize = 2_000_000;

/// How a max-live value was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum MaxLiveSource {
    /// Simulation of the example's program under its schedule.
    Simulation,
    /// Largest clique of the conflict graph.
    Clique,
}

/// Max-live of one array at one instance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MaxLive {
    /// The number of cells.
    pub value: u64,
    /// How it was computed.
    pub source: MaxLiveSource,
    /// The instance.
    pub at: BTreeMap<String, i64>,
}

/// Why no max-live value is available.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MaxLiveUnknown {
    #[error("no instance to compute max-live at")]
    NoInstance,
    #[error("the example has neither a program nor a conflict set for `{0}`")]
    NoInput(String),
    #[error("the conflict graph has more than {0} pairs at this instance")]
    TooManyPairs(usize),
    #[error("the clique search exceeded {0} nodes")]
    SearchLimit(usize),
    #[error("{0}")]
    Failed(String),
}

/// Max-live of `array` at `at` (by default the input's size point), memoised in the
/// input (it does not depend on the method or the backend).
pub fn max_live(input: &Input, array: &str, at: Option<&BTreeMap<String, i64>>) -> Result<MaxLive, MaxLiveUnknown> {
    let at = match at.cloned().or_else(|| input.size_point()) {
        Some(a) => a,
        None => return Err(MaxLiveUnknown::NoInstance),
    };
    let key = format!("max-live {array} {at:?}");
    input.memo(&key, || compute(input, array, &at))
}

fn compute(input: &Input, array: &str, at: &BTreeMap<String, i64>) -> Result<MaxLive, MaxLiveUnknown> {
    let ex = &input.example;
    let failed = |e: &dyn std::fmt::Display| MaxLiveUnknown::Failed(e.to_string());
    let mut simulation_failed = None;
    if let Some(program) = ex.program_model().map_err(|e| failed(&e))? {
        let values: Option<Vec<i64>> = program.params.iter().map(|p| at.get(p).copied()).collect();
        let values = values.ok_or(MaxLiveUnknown::NoInstance)?;
        match polyalloc_program::max_live(&program, &values) {
            Ok(reports) => {
                let r = reports.iter().find(|r| r.array == array).ok_or_else(|| MaxLiveUnknown::NoInput(array.to_string()))?;
                return Ok(MaxLive { value: r.max_live as u64, source: MaxLiveSource::Simulation, at: at.clone() });
            }
            // A program the simulation refuses (a cell written twice at one time, too
            // many instances) still has a conflict set: its largest clique below, and
            // the simulation's reason when that fails too.
            Err(e) => simulation_failed = Some(failed(&e)),
        }
    }
    match (clique(input, array, at), simulation_failed) {
        (Err(_), Some(why)) => Err(why),
        (other, _) => other,
    }
}

/// Max-live of `array` under the transformed order of `check`, an execution a method
/// asked for (its program under an [`Order::Time`]: the shifted and fused loops of a
/// contraction, 003), at `at` (by default the input's size point): the limit of a
/// mapping that is valid under that order, not under the program's own schedules. Not
/// memoised (it depends on the method's answer). Unknown when the order is not a time
/// function or does not run at the instance (a run-time condition that fails there).
pub fn max_live_under(input: &Input, array: &str, check: &ExecutionCheck, at: Option<&BTreeMap<String, i64>>) -> Result<MaxLive, MaxLiveUnknown> {
    let at = at.cloned().or_else(|| input.size_point()).ok_or(MaxLiveUnknown::NoInstance)?;
    let Order::Time(time) = &check.order else {
        return Err(MaxLiveUnknown::Failed(format!("{}: not an order by time", check.label)));
    };
    let values: Vec<i64> = check.program.params.iter().map(|p| at.get(p).copied()).collect::<Option<_>>().ok_or(MaxLiveUnknown::NoInstance)?;
    if !check.instances.contains(&values) {
        return Err(MaxLiveUnknown::Failed(format!("the transformed order ({}) does not run at the instance", check.label)));
    }
    let reports = polyalloc_program::max_live_under(&check.program, &values, &|k, p, it| time(k, p, it))
        .map_err(|e| MaxLiveUnknown::Failed(e.to_string()))?;
    let r = reports.iter().find(|r| r.array == array).ok_or_else(|| MaxLiveUnknown::NoInput(array.to_string()))?;
    Ok(MaxLive { value: r.max_live as u64, source: MaxLiveSource::Simulation, at })
}

/// Max-live as the largest clique of the conflict graph of `array` at `at`.
fn clique(input: &Input, array: &str, at: &BTreeMap<String, i64>) -> Result<MaxLive, MaxLiveUnknown> {
    let failed = |e: &dyn std::fmt::Display| MaxLiveUnknown::Failed(e.to_string());
    let problem = input.problem(array).map_err(|_| MaxLiveUnknown::NoInput(array.to_string()))?;
    let values: Option<Vec<i64>> = problem.params().iter().map(|p| at.get(p).copied()).collect();
    let values = values.ok_or(MaxLiveUnknown::NoInstance)?;
    let sym = problem.conflicts.symmetric().map_err(|e| failed(&e))?;
    let pairs = match sym.enumerate(&values, CLIQUE_PAIR_LIMIT) {
        Ok(p) => p,
        Err(polyalloc_formulation::Error::TooManyPoints(n)) => return Err(MaxLiveUnknown::TooManyPairs(n)),
        Err(e) => return Err(failed(&e)),
    };
    let n = problem.n_dims();
    let value = max_clique(&pairs, n)?;
    Ok(MaxLive { value, source: MaxLiveSource::Clique, at: at.clone() })
}

/// Max-live of the arrays of the input's `inter_array` section sharing one storage, at
/// `at` (by default the input's size point): the largest clique of the conflict graph
/// over the cells of all of them, memoised in the input.
pub fn max_live_shared(input: &Input, at: Option<&BTreeMap<String, i64>>) -> Result<MaxLive, MaxLiveUnknown> {
    let at = match at.cloned().or_else(|| input.size_point()) {
        Some(a) => a,
        None => return Err(MaxLiveUnknown::NoInstance),
    };
    input.memo(&format!("max-live shared {at:?}"), || {
        let failed = |e: &dyn std::fmt::Display| MaxLiveUnknown::Failed(e.to_string());
        let problem = input.example.inter_problem().map_err(|e| failed(&e))?.ok_or_else(|| MaxLiveUnknown::NoInput("inter_array".into()))?;
        let values: Vec<i64> = problem.params().iter().map(|p| at.get(p).copied()).collect::<Option<_>>().ok_or(MaxLiveUnknown::NoInstance)?;
        // A vertex is (array index, cell padded to the largest arity).
        let width = 1 + problem.conflicts.arrays.iter().map(|t| t.len()).max().unwrap_or(0);
        let vertex = |a: usize, x: &[i64]| -> Vec<i64> {
            let mut v = vec![0; width];
            v[0] = a as i64;
            v[1..1 + x.len()].copy_from_slice(x);
            v
        };
        let mut pairs = Vec::new();
        for r in &problem.conflicts.relations {
            let na = problem.conflicts.arrays[r.from].len();
            let pts = match r.relation.enumerate(&values, CLIQUE_PAIR_LIMIT) {
                Ok(p) => p,
                Err(polyalloc_formulation::Error::TooManyPoints(n)) => return Err(MaxLiveUnknown::TooManyPairs(n)),
                Err(e) => return Err(failed(&e)),
            };
            for p in pts {
                let (x, y) = p.split_at(na);
                let (u, v) = (vertex(r.from, x), vertex(r.to, y));
                pairs.push([u.clone(), v.clone()].concat());
                pairs.push([v, u].concat());
                if pairs.len() > 2 * CLIQUE_PAIR_LIMIT {
                    return Err(MaxLiveUnknown::TooManyPairs(CLIQUE_PAIR_LIMIT));
                }
            }
        }
        Ok(MaxLive { value: max_clique(&pairs, width)?, source: MaxLiveSource::Clique, at: at.clone() })
    })
}

/// The clique number of the graph whose edges are the pairs `(x, y)` (each point is the
/// concatenation of two cells of `n` coordinates; pairs with `x = y` are ignored). A
/// graph with no edge but with a cell in conflict with nothing has clique number 1; an
/// empty conflict set gives 1 when it has any cell, else 0 (no pair, no cell seen).
pub fn max_clique<'a>(pairs: &'a [Vec<i64>], n: usize) -> Result<u64, MaxLiveUnknown> {
    let mut ids: HashMap<&'a [i64], usize> = HashMap::new();
    let mut adj: Vec<Vec<usize>> = Vec::new();
    for p in pairs {
        if p.len() != 2 * n {
            continue;
        }
        let (x, y) = p.split_at(n);
        if x == y {
            continue;
        }
        let mut id = |c: &'a [i64]| -> usize {
            let next = adj.len();
            let k = *ids.entry(c).or_insert(next);
            if k == next {
                adj.push(Vec::new());
            }
            k
        };
        let a = id(x);
        let b = id(y);
        adj[a].push(b);
        adj[b].push(a);
    }
    if adj.is_empty() {
        return Ok(u64::from(!pairs.is_empty()));
    }
    for l in adj.iter_mut() {
        l.sort_unstable();
        l.dedup();
    }
    let nv = adj.len();
    // Bitsets for the candidate sets.
    let words = nv.div_ceil(64);
    let bits: Vec<Vec<u64>> = adj
        .iter()
        .map(|l| {
            let mut b = vec![0u64; words];
            for &v in l {
                b[v / 64] |= 1 << (v % 64);
            }
            b
        })
        .collect();
    let mut best = 1usize;
    let mut nodes = 0usize;
    let all: Vec<u64> = (0..words).map(|w| if w + 1 < words || nv % 64 == 0 { u64::MAX } else { (1u64 << (nv % 64)) - 1 }).collect();
    expand(&bits, all, 0, &mut best, &mut nodes)?;
    Ok(best as u64)
}

fn count(b: &[u64]) -> usize {
    b.iter().map(|w| w.count_ones() as usize).sum()
}

/// Branch and bound on the candidate set `cand` with a clique of `size` so far: pick the
/// vertex of `cand` with the most candidate neighbours as pivot (Tomita), branch on the
/// candidates outside its neighbourhood, prune when even all candidates cannot beat
/// `best`.
fn expand(bits: &[Vec<u64>], mut cand: Vec<u64>, size: usize, best: &mut usize, nodes: &mut usize) -> Result<(), MaxLiveUnknown> {
    *nodes += 1;
    if *nodes > CLIQUE_NODE_LIMIT {
        return Err(MaxLiveUnknown::SearchLimit(CLIQUE_NODE_LIMIT));
    }
    polyalloc_ilp::budget::check().map_err(|e| MaxLiveUnknown::Failed(e.to_string()))?;
    let c = count(&cand);
    if c == 0 {
        *best = (*best).max(size);
        return Ok(());
    }
    if size + c <= *best {
        return Ok(());
    }
    let members: Vec<usize> = (0..cand.len() * 64).filter(|&v| cand[v / 64] >> (v % 64) & 1 == 1).collect();
    let pivot = members
        .iter()
        .copied()
        .max_by_key(|&u| cand.iter().zip(&bits[u]).map(|(a, b)| (a & b).count_ones()).sum::<u32>())
        .unwrap_or(members[0]);
    for v in members {
        if bits[pivot][v / 64] >> (v % 64) & 1 == 1 {
            continue;
        }
        if size + count(&cand) <= *best {
            break;
        }
        let next: Vec<u64> = cand.iter().zip(&bits[v]).map(|(a, b)| a & b).collect();
        expand(bits, next, size + 1, best, nodes)?;
        cand[v / 64] &= !(1 << (v % 64));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(edges: &[(i64, i64)]) -> Vec<Vec<i64>> {
        edges.iter().flat_map(|&(a, b)| [vec![a, b], vec![b, a]]).collect()
    }

    #[test]
    fn clique_numbers_of_small_graphs() {
        // A triangle with a pendant vertex: 3.
        assert_eq!(max_clique(&pairs(&[(0, 1), (1, 2), (0, 2), (2, 3)]), 1), Ok(3));
        // A 5-cycle: 2 (no triangle).
        assert_eq!(max_clique(&pairs(&[(0, 1), (1, 2), (2, 3), (3, 4), (4, 0)]), 1), Ok(2));
        // K4 plus an isolated edge: 4.
        let k4: Vec<(i64, i64)> = (0..4).flat_map(|a| (a + 1..4).map(move |b| (a, b))).chain([(7, 8)]).collect();
        assert_eq!(max_clique(&pairs(&k4), 1), Ok(4));
        // No pair at all: 0.
        assert_eq!(max_clique(&[], 1), Ok(0));
    }

    #[test]
    fn interval_lifetimes_give_the_number_live_at_once() {
        // Values i live on [i, i + 3): at any moment 3 are live; every pair closer than
        // 3 conflicts, so the clique number is 3.
        let e: Vec<(i64, i64)> = (0..20).flat_map(|a| (a + 1..(a + 3).min(20)).map(move |b| (a, b))).collect();
        assert_eq!(max_clique(&pairs(&e), 1), Ok(3));
    }
}
