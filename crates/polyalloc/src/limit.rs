//! Max-live: the physical limit of every storage mapping. The largest number of values of
//! an array live at one time is a lower bound on the number of cells of any valid
//! mapping (the cells live at one time pairwise conflict, Bhaskaracharya et al. 2016, Sec. 2.1), so a record can
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
//!   edge), by an exact branch and bound pruned by greedy colouring (Tomita's MCQ on
//!   bitsets). When every value's lifetime is an interval of
//!   one time line, pairwise-overlapping lifetimes share a moment (the Helly property of
//!   intervals), so the clique number is max-live; in general it is still a lower bound
//!   on the size of every valid mapping. The graph is built without storing a pair:
//!   the conflict relation is scanned row by row (a range of its last coordinate at a
//!   time) straight into a bit matrix over the box around the cells, so its memory is
//!   bounded by [`CLIQUE_CELL_LIMIT`] cells (32 MB) and its time by the rows scanned;
//! * **unknown**: no instance, more than [`CLIQUE_CELL_LIMIT`] cells, a conflict graph
//!   above [`CLIQUE_PAIR_LIMIT`] pairs, or a search above [`CLIQUE_NODE_LIMIT`] branch
//!   nodes; also when the run's time budget runs out (max-live gets a budget of the
//!   run's length of its own).
//!
//! The limits keep max-live from dominating a run: on the SMO tool's inputs it takes
//! under 2 ms, and about 4 ms to find that lbmd3q19's graph (N0 = 7, 2401 cells) has
//! more than 400,000 pairs.
//!
//! A method that transforms the program (Song et al. 2005's shifted and fused loops) gives mappings
//! valid under its own order; [`max_live_under`] simulates that order instead.
//!
//! For arrays that share one storage ([`max_live_shared`]) the graph has the cells of
//! every array as vertices and the conflicts within and between them as edges: its
//! clique number bounds the size of every valid shared storage.

use polyalloc_alloc::{ExecutionCheck, Input, Order};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
#[cfg(test)]
use std::collections::HashMap;

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
    #[error("the conflict graph has more than {0} cells at this instance")]
    TooManyCells(usize),
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
/// contraction, Song et al. 2005), at `at` (by default the input's size point): the limit of a
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
    let reports =
        polyalloc_program::max_live_under(&check.program, &values, &|k, p, it| time(k, p, it)).map_err(|e| MaxLiveUnknown::Failed(e.to_string()))?;
    let r = reports.iter().find(|r| r.array == array).ok_or_else(|| MaxLiveUnknown::NoInput(array.to_string()))?;
    Ok(MaxLive { value: r.max_live as u64, source: MaxLiveSource::Simulation, at })
}

/// Max-live as the largest clique of the conflict graph of `array` at `at`.
fn clique(input: &Input, array: &str, at: &BTreeMap<String, i64>) -> Result<MaxLive, MaxLiveUnknown> {
    let failed = |e: &dyn std::fmt::Display| MaxLiveUnknown::Failed(e.to_string());
    let problem = input.problem(array).map_err(|_| MaxLiveUnknown::NoInput(array.to_string()))?;
    let values: Option<Vec<i64>> = problem.params().iter().map(|p| at.get(p).copied()).collect();
    let values = values.ok_or(MaxLiveUnknown::NoInstance)?;
    let n = problem.n_dims();
    let relation = &problem.conflicts.relation;
    let cells = match &problem.space {
        Some(space) => CellBox::of_set(space, &values)?,
        None => CellBox::of_relation(relation, &values, n)?,
    };
    let mut graph = ConflictGraph::new(vec![cells])?;
    graph.add(relation, &values, (0, n), (0, n)).map_err(|e| e.or_failed(&failed))?;
    Ok(MaxLive { value: graph.clique_number()?, source: MaxLiveSource::Clique, at: at.clone() })
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
        let problem = input.inter_problem().map_err(|e| failed(&e))?.ok_or_else(|| MaxLiveUnknown::NoInput("inter_array".into()))?;
        let values: Vec<i64> = problem.params().iter().map(|p| at.get(p).copied()).collect::<Option<_>>().ok_or(MaxLiveUnknown::NoInstance)?;
        let arity: Vec<usize> = problem.conflicts.arrays.iter().map(|t| t.len()).collect();
        let boxes = problem.spaces.iter().map(|s| CellBox::of_set(s, &values)).collect::<Result<Vec<_>, _>>()?;
        if boxes.len() != arity.len() {
            return Err(MaxLiveUnknown::Failed("the inter-array problem has a data space per array".into()));
        }
        let mut graph = ConflictGraph::new(boxes)?;
        for r in &problem.conflicts.relations {
            graph.add(&r.relation, &values, (r.from, arity[r.from]), (r.to, arity[r.to])).map_err(|e| e.or_failed(&failed))?;
        }
        Ok(MaxLive { value: graph.clique_number()?, source: MaxLiveSource::Clique, at: at.clone() })
    })
}

/// Cells of one array at most in a conflict graph (the box around them), all arrays
/// together: the adjacency is a bit matrix of this many rows and columns (32 MB).
pub const CLIQUE_CELL_LIMIT: usize = 16_384;

/// The bounding box of an array's cells at one instance: a cell's vertex is its
/// row-major index in the box.
#[derive(Clone, Debug)]
struct CellBox {
    lo: Vec<i64>,
    extent: Vec<usize>,
}

impl CellBox {
    fn volume(&self) -> usize {
        self.extent.iter().product()
    }

    /// The box around the cells of `space` (none: an empty box).
    fn of_set(space: &polyalloc_formulation::Set, values: &[i64]) -> Result<CellBox, MaxLiveUnknown> {
        let n = space.space().n_dim();
        let mut b = Bounds::new(n);
        let mut cells = 0usize;
        let mut over = false;
        space
            .for_each_point(values, &mut |p| {
                b.take(p);
                cells += 1;
                over = cells > CLIQUE_CELL_LIMIT;
                Ok(!over)
            })
            .map_err(|e| MaxLiveUnknown::Failed(e.to_string()))?;
        if over {
            return Err(MaxLiveUnknown::TooManyCells(CLIQUE_CELL_LIMIT));
        }
        b.into_box()
    }

    /// The box around the cells of the pairs of `relation` (`n` coordinates a side).
    fn of_relation(relation: &polyalloc_formulation::Map, values: &[i64], n: usize) -> Result<CellBox, MaxLiveUnknown> {
        let mut b = Bounds::new(n);
        let mut pairs = 0usize;
        let mut over = false;
        relation
            .for_each_point(values, &mut |p| {
                if p.len() == 2 * n {
                    b.take(&p[..n]);
                    b.take(&p[n..]);
                }
                pairs += 1;
                over = pairs > CLIQUE_PAIR_LIMIT;
                Ok(!over)
            })
            .map_err(|e| MaxLiveUnknown::Failed(e.to_string()))?;
        if over {
            return Err(MaxLiveUnknown::TooManyPairs(CLIQUE_PAIR_LIMIT));
        }
        b.into_box()
    }

    /// The index of cell `x` in the box, `None` outside.
    fn index(&self, x: &[i64]) -> Option<usize> {
        let mut k = 0usize;
        for ((&v, &lo), &e) in x.iter().zip(&self.lo).zip(&self.extent) {
            let d = usize::try_from(v.checked_sub(lo)?).ok()?;
            if d >= e {
                return None;
            }
            k = k * e + d;
        }
        Some(k)
    }
}

/// Running per-coordinate minima and maxima.
struct Bounds {
    lo: Vec<i64>,
    hi: Vec<i64>,
    any: bool,
}

impl Bounds {
    fn new(n: usize) -> Bounds {
        Bounds { lo: vec![i64::MAX; n], hi: vec![i64::MIN; n], any: false }
    }

    fn take(&mut self, x: &[i64]) {
        self.any = true;
        for ((l, h), &v) in self.lo.iter_mut().zip(self.hi.iter_mut()).zip(x) {
            *l = (*l).min(v);
            *h = (*h).max(v);
        }
    }

    fn into_box(self) -> Result<CellBox, MaxLiveUnknown> {
        if !self.any {
            return Ok(CellBox { lo: vec![0; self.lo.len()], extent: vec![0; self.lo.len()] });
        }
        let mut extent = Vec::with_capacity(self.lo.len());
        let mut volume = 1usize;
        for (&l, &h) in self.lo.iter().zip(&self.hi) {
            let e = i128::from(h) - i128::from(l) + 1;
            let e = usize::try_from(e).ok().filter(|&e| e <= CLIQUE_CELL_LIMIT).ok_or(MaxLiveUnknown::TooManyCells(CLIQUE_CELL_LIMIT))?;
            volume = volume.checked_mul(e).filter(|&v| v <= CLIQUE_CELL_LIMIT).ok_or(MaxLiveUnknown::TooManyCells(CLIQUE_CELL_LIMIT))?;
            extent.push(e);
        }
        Ok(CellBox { lo: self.lo, extent })
    }
}

/// Why adding a relation's pairs to a graph stopped.
enum AddError {
    Limit(MaxLiveUnknown),
    Formulation(polyalloc_formulation::Error),
}

impl AddError {
    fn or_failed(self, failed: &dyn Fn(&dyn std::fmt::Display) -> MaxLiveUnknown) -> MaxLiveUnknown {
        match self {
            AddError::Limit(u) => u,
            AddError::Formulation(e) => failed(&e),
        }
    }
}

/// The conflict graph of one or several arrays at one instance, built by streaming
/// each relation's points, row by row, into a bit matrix (no point is stored): a
/// vertex is a cell of an array's box, an edge a conflicting pair of distinct cells.
struct ConflictGraph {
    boxes: Vec<CellBox>,
    offsets: Vec<usize>,
    total: usize,
    words: usize,
    /// Row `u` holds the cells `u` conflicts with: as added (one direction) until
    /// [`ConflictGraph::clique_number`] makes it symmetric.
    adj: Vec<u64>,
    /// Cells that appear in a pair (a pair of a cell with itself included), as bits.
    seen: Vec<u64>,
    /// Bits set in `adj` so far.
    pairs: usize,
}

/// Sets bits `lo..=hi` of `row`, returning how many were not set before.
fn set_range(row: &mut [u64], lo: usize, hi: usize) -> usize {
    let mut added = 0;
    let mut k = lo;
    while k <= hi {
        let w = k / 64;
        let first = k % 64;
        let last = if hi / 64 == w { hi % 64 } else { 63 };
        let mask = if last - first == 63 { u64::MAX } else { ((1u64 << (last - first + 1)) - 1) << first };
        added += (mask & !row[w]).count_ones() as usize;
        row[w] |= mask;
        k = w * 64 + last + 1;
    }
    added
}

impl ConflictGraph {
    fn new(boxes: Vec<CellBox>) -> Result<ConflictGraph, MaxLiveUnknown> {
        let mut offsets = Vec::with_capacity(boxes.len());
        let mut total = 0usize;
        for b in &boxes {
            offsets.push(total);
            total = total.checked_add(b.volume()).filter(|&t| t <= CLIQUE_CELL_LIMIT).ok_or(MaxLiveUnknown::TooManyCells(CLIQUE_CELL_LIMIT))?;
        }
        let words = total.div_ceil(64);
        Ok(ConflictGraph { boxes, offsets, total, words, adj: vec![0; total * words], seen: vec![0; words], pairs: 0 })
    }

    /// Adds the pairs of `relation` between cells of array `from` (its index and
    /// arity) and cells of array `to` (edges are made symmetric at the end).
    fn add(&mut self, relation: &polyalloc_formulation::Map, values: &[i64], from: (usize, usize), to: (usize, usize)) -> Result<(), AddError> {
        let (fa, fn_) = from;
        let (ta, tn) = to;
        let mut stop = None;
        let outside = |x: &[i64], y: &[i64]| MaxLiveUnknown::Failed(format!("a conflicting pair outside the arrays' cells: {x:?}, {y:?}"));
        let mut point = vec![0i64; fn_ + tn];
        let result = relation.for_each_row(values, &mut |prefix, lo, hi| {
            if prefix.len() + 1 != fn_ + tn {
                return Ok(true);
            }
            point[..prefix.len()].copy_from_slice(prefix);
            if tn == 0 {
                // A scalar target: the row runs over the source's last coordinate.
                for last in lo..=hi {
                    point[fn_ - 1] = last;
                    let (Some(u), Some(v)) = (self.boxes[fa].index(&point[..fn_]), self.boxes[ta].index(&[])) else {
                        stop = Some(outside(&point[..fn_], &[]));
                        return Ok(false);
                    };
                    self.edges(self.offsets[fa] + u, self.offsets[ta] + v, self.offsets[ta] + v);
                }
            } else {
                let (x, y) = point.split_at_mut(fn_);
                y[tn - 1] = hi;
                let v_hi = self.boxes[ta].index(y);
                y[tn - 1] = lo;
                let (Some(u), Some(v_lo), Some(_)) = (self.boxes[fa].index(x), self.boxes[ta].index(y), v_hi) else {
                    stop = Some(outside(x, y));
                    return Ok(false);
                };
                // The last coordinate is the fastest in the box: the row is a range.
                let span = usize::try_from(hi - lo).unwrap_or(0);
                self.edges(self.offsets[fa] + u, self.offsets[ta] + v_lo, self.offsets[ta] + v_lo + span);
            }
            if self.pairs > CLIQUE_PAIR_LIMIT {
                stop = Some(MaxLiveUnknown::TooManyPairs(CLIQUE_PAIR_LIMIT));
                return Ok(false);
            }
            Ok(true)
        });
        if let Some(u) = stop {
            return Err(AddError::Limit(u));
        }
        result.map_err(AddError::Formulation)
    }

    /// Records that cell `u` conflicts with cells `v_lo..=v_hi` (a cell with itself is
    /// only seen).
    fn edges(&mut self, u: usize, v_lo: usize, v_hi: usize) {
        set_range(&mut self.seen, u, u);
        set_range(&mut self.seen, v_lo, v_hi);
        let row = &mut self.adj[u * self.words..(u + 1) * self.words];
        if u < v_lo || u > v_hi {
            self.pairs += set_range(row, v_lo, v_hi);
        } else {
            if u > v_lo {
                self.pairs += set_range(row, v_lo, u - 1);
            }
            if u < v_hi {
                self.pairs += set_range(row, u + 1, v_hi);
            }
        }
    }

    /// The clique number: 0 without a cell in a pair, 1 without an edge.
    fn clique_number(mut self) -> Result<u64, MaxLiveUnknown> {
        // Both directions of every pair.
        for u in 0..self.total {
            for w in 0..self.words {
                let mut bits = self.adj[u * self.words + w];
                while bits != 0 {
                    let v = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    self.adj[v * self.words + u / 64] |= 1 << (u % 64);
                }
            }
        }
        let pairs: usize = self.adj.iter().map(|w| w.count_ones() as usize).sum();
        if pairs > CLIQUE_PAIR_LIMIT {
            return Err(MaxLiveUnknown::TooManyPairs(CLIQUE_PAIR_LIMIT));
        }
        let vertices: Vec<usize> = (0..self.total).filter(|&u| self.seen[u / 64] >> (u % 64) & 1 == 1).collect();
        if pairs == 0 {
            return Ok(u64::from(!vertices.is_empty()));
        }
        // The vertices in a pair, renumbered densely, their adjacency as bitsets.
        let nv = vertices.len();
        let rows = |u: usize| &self.adj[u * self.words..(u + 1) * self.words];
        if nv == self.total {
            let bits: Vec<Vec<u64>> = (0..nv).map(|u| rows(u).to_vec()).collect();
            return clique_of_bitsets(&bits, nv);
        }
        let mut renumber = vec![usize::MAX; self.total];
        for (k, &u) in vertices.iter().enumerate() {
            renumber[u] = k;
        }
        let words = nv.div_ceil(64);
        let bits: Vec<Vec<u64>> = vertices
            .iter()
            .map(|&u| {
                let mut b = vec![0u64; words];
                for (w, &word) in rows(u).iter().enumerate() {
                    let mut word = word;
                    while word != 0 {
                        let k = renumber[w * 64 + word.trailing_zeros() as usize];
                        word &= word - 1;
                        b[k / 64] |= 1 << (k % 64);
                    }
                }
                b
            })
            .collect();
        clique_of_bitsets(&bits, nv)
    }
}

/// The clique number of the graph whose edges are the pairs `(x, y)` (each point is the
/// concatenation of two cells of `n` coordinates; pairs with `x = y` are ignored). A
/// graph with no edge but with a cell in conflict with nothing has clique number 1; an
/// empty conflict set gives 1 when it has any cell, else 0 (no pair, no cell seen).
/// The tests' reference: runs build a [`ConflictGraph`] instead.
#[cfg(test)]
fn max_clique<'a>(pairs: &'a [Vec<i64>], n: usize) -> Result<u64, MaxLiveUnknown> {
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
    let nv = adj.len();
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
    clique_of_bitsets(&bits, nv)
}

/// The clique number of a graph of `nv >= 1` vertices given as adjacency bitsets.
fn clique_of_bitsets(bits: &[Vec<u64>], nv: usize) -> Result<u64, MaxLiveUnknown> {
    let words = nv.div_ceil(64);
    let mut best = 1usize;
    let mut nodes = 0usize;
    let all: Vec<u64> = (0..words).map(|w| if w + 1 < words || nv % 64 == 0 { u64::MAX } else { (1u64 << (nv % 64)) - 1 }).collect();
    expand(bits, all, 0, &mut best, &mut nodes)?;
    Ok(best as u64)
}

/// Branch and bound on the candidate set `cand` with a clique of `size` so far, pruned
/// by a greedy colouring of the candidates (Tomita and Seki's MCQ, on bitsets as in
/// San Segundo's BBMC): vertices of one colour class are pairwise non-adjacent, so a
/// clique takes at most one vertex per class, and the candidates up to colour `c`
/// cannot extend the clique by more than `c`. Branches on the candidates from the
/// highest colour down.
fn expand(bits: &[Vec<u64>], mut cand: Vec<u64>, size: usize, best: &mut usize, nodes: &mut usize) -> Result<(), MaxLiveUnknown> {
    *nodes += 1;
    if *nodes > CLIQUE_NODE_LIMIT {
        return Err(MaxLiveUnknown::SearchLimit(CLIQUE_NODE_LIMIT));
    }
    if *nodes % 64 == 1 {
        polyalloc_ilp::budget::check().map_err(|e| MaxLiveUnknown::Failed(e.to_string()))?;
    }
    // Greedy colouring: each class takes the lowest uncoloured candidates that are not
    // adjacent to the class so far.
    let mut order: Vec<(usize, usize)> = Vec::new();
    let mut uncoloured = cand.clone();
    let mut colour = 0usize;
    while uncoloured.iter().any(|&w| w != 0) {
        colour += 1;
        let mut q = uncoloured.clone();
        while let Some(v) = first(&q) {
            q[v / 64] &= !(1 << (v % 64));
            uncoloured[v / 64] &= !(1 << (v % 64));
            for (a, b) in q.iter_mut().zip(&bits[v]) {
                *a &= !b;
            }
            order.push((v, colour));
        }
    }
    if order.is_empty() {
        *best = (*best).max(size);
        return Ok(());
    }
    for &(v, c) in order.iter().rev() {
        if size + c <= *best {
            return Ok(());
        }
        let next: Vec<u64> = cand.iter().zip(&bits[v]).map(|(a, b)| a & b).collect();
        if next.iter().all(|&w| w == 0) {
            *best = (*best).max(size + 1);
        } else {
            expand(bits, next, size + 1, best, nodes)?;
        }
        cand[v / 64] &= !(1 << (v % 64));
    }
    Ok(())
}

/// The lowest vertex of a bitset.
fn first(b: &[u64]) -> Option<usize> {
    b.iter().enumerate().find(|(_, &w)| w != 0).map(|(k, &w)| k * 64 + w.trailing_zeros() as usize)
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyalloc_formulation::Set;

    /// The streaming graph (rows into a bit matrix) against the reference: every pair
    /// enumerated, made symmetric, then the clique search of [`max_clique`].
    fn streamed_and_enumerated(space: &str, relation: &str, params: &[i64]) -> (u64, u64) {
        let space = Set::parse(space).expect("space");
        let rel = Set::parse(relation).expect("relation");
        let n = space.space().n_dim();
        let mut graph = ConflictGraph::new(vec![CellBox::of_set(&space, params).expect("box")]).expect("graph");
        graph.add(&rel, params, (0, n), (0, n)).map_err(|e| e.or_failed(&|e| MaxLiveUnknown::Failed(e.to_string()))).expect("add");
        let streamed = graph.clique_number().expect("streamed");
        let mut pairs = rel.enumerate(params, 1_000_000).expect("pairs");
        let reversed: Vec<Vec<i64>> = pairs.iter().map(|p| [&p[n..], &p[..n]].concat()).collect();
        pairs.extend(reversed);
        (streamed, max_clique(&pairs, n).expect("reference"))
    }

    #[test]
    fn the_streamed_graph_has_the_clique_number_of_the_enumerated_one() {
        let cases = [
            // Overlapping pieces, a cell paired with itself, rows of several lengths.
            ("[N] -> { [i, j] : 0 <= i, j < N }", "[N] -> { [i, j] -> [k, l] : 0 <= i, j, k, l < N and k = i and j < l <= j + 2; [i, j] -> [k, l] : 0 <= i, j, k, l < N and k = i + 1 and l <= j; [i, j] -> [i, j] : 0 <= i, j < N }", 6),
            // A lifetime of 3 along a line (interval graph: 3).
            ("[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] -> [k] : 0 <= i < N and i < k <= i + 2 and k < N }", 20),
            // A local variable (rows of one point): pairs at an even distance.
            ("[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] -> [k] : 0 <= i, k < N and k > i and exists e : k - i = 2e }", 9),
            // Negative coordinates, a box larger than the cells in pairs.
            ("[N] -> { [i, j] : -N <= i <= 0 and -2 <= j <= N }", "[N] -> { [i, j] -> [k, l] : -N <= i, k <= 0 and -2 <= j, l <= N and i + j = k + l and k < i }", 4),
            // No pair at all.
            ("[N] -> { [i] : 0 <= i < N }", "[N] -> { [i] -> [k] : 0 <= i, k < N and k > i + N }", 5),
        ];
        for (space, rel, n) in cases {
            let (streamed, reference) = streamed_and_enumerated(space, rel, &[n]);
            assert_eq!(streamed, reference, "{rel} at N = {n}");
        }
    }

    /// Two arrays in one graph (a shared storage): a 1-d array and a 2-d one, with
    /// conflicts within each and between them in both orders, against the pairs of
    /// vertices (array, cell padded to two coordinates) enumerated one by one.
    #[test]
    fn a_graph_over_two_arrays_has_the_clique_number_of_the_enumerated_one() {
        let a = Set::parse("[N] -> { [i] : 0 <= i < N }").expect("A");
        let b = Set::parse("[N] -> { [i, j] : 0 <= i < 2 and 0 <= j < N }").expect("B");
        let rels = [
            ("[N] -> { [i] -> [k] : 0 <= i < k < N and k <= i + 2 }", 0usize, 1usize, 0usize, 1usize),
            ("[N] -> { [i, j] -> [k, l] : 0 <= i, k < 2 and 0 <= j, l < N and k = 1 - i and l = j }", 1, 2, 1, 2),
            ("[N] -> { [i] -> [k, l] : 0 <= i < N and 0 <= k < 2 and i - 1 <= l <= i and l >= 0 }", 0, 1, 1, 2),
            ("[N] -> { [k, l] -> [i] : 0 <= i < N and k = 0 and 0 <= l < N and i = l + 1 }", 1, 2, 0, 1),
        ];
        let n = 6;
        let mut graph = ConflictGraph::new(vec![CellBox::of_set(&a, &[n]).expect("box"), CellBox::of_set(&b, &[n]).expect("box")]).expect("graph");
        let mut pairs: Vec<Vec<i64>> = Vec::new();
        let vertex = |array: usize, x: &[i64]| -> Vec<i64> { [vec![array as i64], x.to_vec(), vec![0; 2 - x.len()]].concat() };
        for (text, from, fa, to, ta) in rels {
            let rel = Set::parse(text).expect(text);
            graph.add(&rel, &[n], (from, fa), (to, ta)).map_err(|e| e.or_failed(&|e| MaxLiveUnknown::Failed(e.to_string()))).expect("add");
            for p in rel.enumerate(&[n], 100_000).expect("pairs") {
                let (u, v) = (vertex(from, &p[..fa]), vertex(to, &p[fa..]));
                pairs.push([u.clone(), v.clone()].concat());
                pairs.push([v, u].concat());
            }
        }
        let reference = max_clique(&pairs, 3).expect("reference");
        assert!(reference >= 3, "a graph with cliques across the arrays");
        assert_eq!(graph.clique_number().expect("streamed"), reference);
    }

    #[test]
    fn rows_set_every_bit_once() {
        let mut row = vec![0u64; 3];
        assert_eq!(set_range(&mut row, 3, 70), 68);
        assert_eq!(set_range(&mut row, 0, 191), 192 - 68);
        assert_eq!(set_range(&mut row, 63, 64), 0);
        assert!(row.iter().all(|&w| w == u64::MAX));
    }

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
