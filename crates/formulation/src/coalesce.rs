//! Exact coalescing of unions of basic sets (in the spirit of isl's `isl_map_coalesce`,
//! S. Verdoolaege, "Integer set coalescing", IMPACT 2015).
//!
//! Conflict sets computed from programs (`polyalloc_program::Program::conflict_set`) are unions of
//! many conflict polyhedra (one per writer x writer x reader x domain piece x
//! lexicographic case x `x != y` split, Bhaskaracharya et al. 2016, Sec. 2.1 Def. 2.3), many of them empty,
//! contained in others, or mergeable. Every piece costs the SMO formulation
//! (Bhaskaracharya et al. 2016, Sec. 3.3) a set of Farkas multipliers per storage hyperplane, so the piece count
//! drives the ILP size. [`coalesce`] rewrites a union into one with the **same integer
//! points for every parameter value** and at most as many pieces:
//!
//! 1. pieces proved integer-empty are dropped, and duplicates;
//! 2. a piece `P` contained in a piece `Q` is dropped: `P ⊆ Q` is proved by showing
//!    `P ∧ ¬c` integer-empty for every constraint `c` of `Q` (an equality counts as two
//!    inequalities); parameters are just more variables of these emptiness tests;
//! 3. two pieces `P`, `Q` are replaced by one, `H`, when their union is proved to be a
//!    basic set: `H` = (constraints of `P` valid for `Q`) ∧ (constraints of `Q` valid for
//!    `P`) contains `P ∪ Q` by construction, and `H ⊆ P ∪ Q` is proved by showing, for
//!    every constraint `c` of `P` and `d` of `Q` that are not in `H`, that
//!    `H ∧ c < 0 ∧ d < 0` is integer-empty. This one test covers isl's classic cases:
//!    adjacent pieces (`c >= 0` in `P`, `c <= -1` in `Q`, all else equal: `H` drops `c`),
//!    one piece cut by the other, and an equality of `P` extending an inequality of `Q`.
//!    isl's further cases (wrapping, extensions by translation) are not implemented.
//!
//! [`CoalesceMode::DropOnly`] ([`remove_contained`]) stops after step 2; it is what
//! `polyalloc_program::Program::conflict_set` applies. The reason: a merge of two pieces separated
//! by an integer gap (`c >= 0` and `c <= -1`) keeps the integer points but fills the gap
//! rationally, and the lattice method (Darte et al. 2015) reads the rational relaxation of the pieces:
//! on ov-example3 (Thies et al. 2007, Sec. 5.3) the merged union (72 pieces) made it return
//! `3 jmax kmax - jmax + 3 kmax - 1` cells instead of `3 jmax kmax - jmax`.
//!
//! Measured on the bench-suite's program-derived conflict sets (release build): 1005
//! pieces in all become 304 (drop-only, about 1 s in all) or 183 (merge, about 7 s in
//! all, of which 6 s for ov-example3: 235 -> 115 -> 72 pieces).
//!
//! ## Design choices
//!
//! * **Emptiness without a solver.** The tests use the crate's pure-Rust sound test
//!   [`BasicSet::is_obviously_empty`] (exact unit substitutions, gcd tests,
//!   integer-tightened Fourier–Motzkin over every column, parameters included). It is
//!   *sound* but not complete: `true` proves that there is no integer point for any
//!   parameter value, `false` proves nothing. Coalescing only acts on proofs, so an
//!   unproved emptiness only costs a missed simplification, never exactness; this is why
//!   [`coalesce`] needs no [`polyalloc_ilp::Solver`] and `conflict_set` keeps its
//!   signature. A test that fails (e.g. the Fourier–Motzkin row limit) counts as "not
//!   proved".
//! * **Existential locals.** A piece with local variables can be dropped when it is
//!   contained in a local-free piece (its locals are variables of the emptiness tests),
//!   but it is never a container nor a partner of a merge: the negation of a constraint
//!   that mentions a local is not a constraint.
//! * **Cheap rejections first.** Each piece gets a few integer sample points (parameters
//!   included) by a bounded depth-first scan of a box `[-SAMPLE_BOX, SAMPLE_BOX]` guided
//!   by Fourier–Motzkin bounds. A constraint violated by a sample of a piece is not
//!   valid on it (no emptiness test needed); two samples `p ∈ P`, `q ∈ Q` whose midpoint
//!   is integral and lies in neither piece prove that `P ∪ Q` is not the integer part
//!   of a convex set (the midpoint would be in any candidate `H`), so the merge is not
//!   tried. Constraints present in the other piece (or implied by a parallel tighter row
//!   or an equality) are valid without a test. Merges whose proof would need more than
//!   [`MAX_CUT_PAIRS`] emptiness tests are not tried. Pairs that failed are remembered
//!   until one of them changes.

use crate::basic::BasicSet;
use crate::error::Result;
use crate::fm;
use crate::int;
use crate::set::Set;
use std::collections::HashSet;

/// Half-width of the box in which sample points are searched.
pub const SAMPLE_BOX: i64 = 64;

/// Most emptiness tests one merge proof may take (`|cut P| * |cut Q|`).
pub const MAX_CUT_PAIRS: usize = 36;

/// Node budget of one sample search (the search gives up, without a sample, beyond it).
const SAMPLE_NODES: usize = 4_000;

/// What [`coalesce_with_stats`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CoalesceStats {
    /// Pieces of the input.
    pub input: usize,
    /// Pieces dropped as (proved) integer-empty or duplicate.
    pub empty_or_duplicate: usize,
    /// Pieces dropped as contained in another piece.
    pub contained: usize,
    /// Pairs of pieces replaced by one piece.
    pub merged: usize,
    /// Pieces of the output.
    pub output: usize,
}

/// How far [`coalesce_with_stats`] goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CoalesceMode {
    /// Steps 1 and 2: drop empty, duplicate and contained pieces. The union of the
    /// rational relaxations can only shrink (towards the integer points).
    DropOnly,
    /// Steps 1 to 3: also merge pairs whose union is a basic set. A merge of pieces
    /// separated by an integer gap (`c >= 0` and `c <= -1`) fills the gap rationally:
    /// the integer points are unchanged, the rational relaxation grows.
    Merge,
}

/// Coalesces a union ([`CoalesceMode::Merge`]): the result has the same integer points
/// as `set` for every parameter value and at most as many pieces (see the module
/// documentation).
pub fn coalesce(set: &Set) -> Result<Set> {
    Ok(coalesce_with_stats(set, CoalesceMode::Merge)?.0)
}

/// Drops the empty, duplicate and contained pieces of a union
/// ([`CoalesceMode::DropOnly`]): the same integer points for every parameter value.
pub fn remove_contained(set: &Set) -> Result<Set> {
    Ok(coalesce_with_stats(set, CoalesceMode::DropOnly)?.0)
}

/// Coalescing in the given mode, also returning what was done. [`CoalesceMode::Merge`]
/// first drops every contained piece (the [`CoalesceMode::DropOnly`] pass), then
/// merges: a merge made first could swallow two pieces that were each contained in
/// another one and leave more pieces than dropping alone (`{ j = 2 } ∪ { j = 3 }` over
/// the same `i`, each inside a larger piece: found by the random unions of
/// `tests/coalesce.rs`). So merging never leaves more pieces than dropping.
pub fn coalesce_with_stats(set: &Set, mode: CoalesceMode) -> Result<(Set, CoalesceStats)> {
    if mode == CoalesceMode::DropOnly {
        return coalesce_pass(set, mode);
    }
    let (dropped, first) = coalesce_pass(set, CoalesceMode::DropOnly)?;
    let (out, second) = coalesce_pass(&dropped, mode)?;
    let stats = CoalesceStats {
        input: first.input,
        empty_or_duplicate: first.empty_or_duplicate + second.empty_or_duplicate,
        contained: first.contained + second.contained,
        merged: second.merged,
        output: second.output,
    };
    Ok((out, stats))
}

/// One coalescing pass to a fixpoint in `mode`.
fn coalesce_pass(set: &Set, mode: CoalesceMode) -> Result<(Set, CoalesceStats)> {
    let mut stats = CoalesceStats { input: set.pieces.len(), ..Default::default() };
    // 1. Simplify, drop proved-empty pieces and duplicates.
    let mut pieces: Vec<Option<Piece>> = Vec::new();
    let mut seen: Vec<BasicSet> = Vec::new();
    for p in &set.pieces {
        let mut b = p.clone();
        b.simplify_locals()?;
        if b.is_marked_empty() || proved_empty(&b.eqs, &b.ineqs) || seen.contains(&b) {
            stats.empty_or_duplicate += 1;
            continue;
        }
        seen.push(b.clone());
        pieces.push(Some(Piece::new(b)?));
    }
    // 2 and 3. Pairwise containment and merges until nothing changes.
    let mut version: Vec<u64> = vec![0; pieces.len()];
    let mut failed: HashSet<(usize, u64, usize, u64)> = HashSet::new();
    let mut changed = true;
    while changed {
        changed = false;
        for i in 0..pieces.len() {
            let mut j = 0;
            while j < pieces.len() {
                if i == j || pieces[i].is_none() || pieces[j].is_none() {
                    j += 1;
                    continue;
                }
                let (a, b) = if i < j { (i, j) } else { (j, i) };
                let key = (a, version[a], b, version[b]);
                if failed.contains(&key) {
                    j += 1;
                    continue;
                }
                let (Some(pa), Some(pb)) = (&pieces[a], &pieces[b]) else {
                    j += 1;
                    continue;
                };
                // Quadratic in the pieces: the run's time budget stops it.
                polyalloc_ilp::budget::check()?;
                match try_pair(pa, pb, mode)? {
                    Outcome::None => {
                        failed.insert(key);
                    }
                    Outcome::DropFirst => {
                        pieces[a] = None;
                        stats.contained += 1;
                        changed = true;
                    }
                    Outcome::DropSecond => {
                        pieces[b] = None;
                        stats.contained += 1;
                        changed = true;
                    }
                    Outcome::Merge(h) => {
                        pieces[a] = Some(Piece::new(h)?);
                        version[a] += 1;
                        pieces[b] = None;
                        stats.merged += 1;
                        changed = true;
                    }
                }
                if pieces[i].is_none() {
                    break;
                }
                j += 1;
            }
        }
    }
    let kept: Vec<BasicSet> = pieces.into_iter().flatten().map(|p| p.b).collect();
    stats.output = kept.len();
    Ok((Set { space: set.space.clone(), pieces: kept }, stats))
}

/// One piece with its constraints as inequalities over the space's columns (when it has
/// no locals) and its sample points (values of every column after the constant).
struct Piece {
    b: BasicSet,
    /// Inequalities and both directions of each equality; `None` with locals.
    rows: Option<Vec<Vec<i64>>>,
    samples: Vec<Vec<i64>>,
}

impl Piece {
    fn new(b: BasicSet) -> Result<Piece> {
        let rows = (b.n_local == 0).then(|| {
            let mut rows = b.ineqs.clone();
            for e in &b.eqs {
                rows.push(e.clone());
                rows.push(e.iter().map(|v| -v).collect());
            }
            rows
        });
        let samples = samples(&b);
        Ok(Piece { b, rows, samples })
    }
}

enum Outcome {
    None,
    DropFirst,
    DropSecond,
    Merge(BasicSet),
}

/// Sound emptiness: `true` only when proved (a failing test proves nothing).
fn proved_empty(eqs: &[Vec<i64>], ineqs: &[Vec<i64>]) -> bool {
    fm::integer_quick_empty(eqs, ineqs).unwrap_or(false)
}

/// `-row - 1`: the integer negation of `row >= 0`.
fn negate(row: &[i64]) -> Option<Vec<i64>> {
    let mut n: Vec<i64> = row.iter().map(|v| v.checked_neg()).collect::<Option<_>>()?;
    n[0] = n[0].checked_sub(1)?;
    Some(n)
}

/// Value of a row over the space's columns at a sample (which may have more values:
/// locals of its piece).
fn eval(row: &[i64], sample: &[i64]) -> Option<i128> {
    let mut acc = row[0] as i128;
    for (c, x) in row[1..].iter().zip(sample) {
        acc = acc.checked_add(*c as i128 * *x as i128)?;
    }
    Some(acc)
}

/// Whether a piece's integer points all satisfy `row >= 0` (a row over the space's
/// columns): `Some(false)` refuted by a sample, `Some(true)` proved, `None` unknown.
fn valid_on(row: &[i64], p: &Piece) -> Option<bool> {
    for s in &p.samples {
        if eval(row, s).is_none_or(|v| v < 0) {
            return Some(false);
        }
    }
    if syntactically_implied(row, &p.b) {
        return Some(true);
    }
    let mut neg = negate(row)?;
    neg.resize(p.b.n_cols(), 0);
    let mut ineqs = p.b.ineqs.clone();
    ineqs.push(neg);
    if proved_empty(&p.b.eqs, &ineqs) {
        Some(true)
    } else {
        None
    }
}

/// `row >= 0` is implied by a single row of `b` (a parallel inequality at least as tight,
/// or an equality with the same or opposite direction).
fn syntactically_implied(row: &[i64], b: &BasicSet) -> bool {
    let base = row.len();
    let local_free = |r: &Vec<i64>| r[base..].iter().all(|&v| v == 0);
    if b.ineqs.iter().any(|r| local_free(r) && r[1..base] == row[1..] && r[0] <= row[0]) {
        return true;
    }
    b.eqs.iter().any(|e| {
        if !local_free(e) {
            return false;
        }
        // e.x + e0 = 0.
        if e[1..base] == row[1..] {
            // row = k.x + r0 = r0 - e0.
            return row[0] as i128 - e[0] as i128 >= 0;
        }
        if e[1..base].iter().zip(&row[1..]).all(|(a, b)| *a as i128 == -(*b as i128)) {
            // row = -e.x + r0 = r0 + e0.
            return row[0] as i128 + e[0] as i128 >= 0;
        }
        false
    })
}

fn try_pair(p: &Piece, q: &Piece, mode: CoalesceMode) -> Result<Outcome> {
    // Containment: every constraint of the container is valid on the other piece.
    let all_valid =
        |rows: &Option<Vec<Vec<i64>>>, on: &Piece| -> bool { rows.as_ref().is_some_and(|rows| rows.iter().all(|r| valid_on(r, on) == Some(true))) };
    if all_valid(&q.rows, p) {
        return Ok(Outcome::DropFirst);
    }
    if all_valid(&p.rows, q) {
        return Ok(Outcome::DropSecond);
    }
    if mode == CoalesceMode::DropOnly {
        return Ok(Outcome::None);
    }
    let (Some(prows), Some(qrows)) = (&p.rows, &q.rows) else {
        return Ok(Outcome::None);
    };
    if midpoint_refutes(p, q) {
        return Ok(Outcome::None);
    }
    // Classify: valid rows go to the hull candidate, the others are cut.
    let mut hull: Vec<Vec<i64>> = Vec::new();
    let mut cut_p = Vec::new();
    let mut cut_q = Vec::new();
    for r in prows {
        if valid_on(r, q) == Some(true) {
            hull.push(r.clone());
        } else {
            cut_p.push(r);
        }
    }
    for r in qrows {
        if valid_on(r, p) == Some(true) {
            hull.push(r.clone());
        } else {
            cut_q.push(r);
        }
        if cut_p.len() * cut_q.len() > MAX_CUT_PAIRS {
            return Ok(Outcome::None);
        }
    }
    // H ∧ ¬P ∧ ¬Q must be empty: ¬P within H is the disjunction of the negated cut rows.
    for c in &cut_p {
        let Some(nc) = negate(c) else { return Ok(Outcome::None) };
        for d in &cut_q {
            let Some(nd) = negate(d) else { return Ok(Outcome::None) };
            let mut rows = hull.clone();
            rows.push(nc.clone());
            rows.push(nd);
            if !proved_empty(&[], &rows) {
                return Ok(Outcome::None);
            }
        }
    }
    let mut h = BasicSet { space: p.b.space.clone(), n_local: 0, eqs: vec![], ineqs: hull };
    h.simplify()?;
    if h.remove_redundant().is_err() {
        // Keep the hull as simplified: the same set, only with redundant rows.
        h.simplify()?;
    }
    Ok(Outcome::Merge(h))
}

/// A pair of samples whose midpoint is integral and in neither piece.
fn midpoint_refutes(p: &Piece, q: &Piece) -> bool {
    let (Some(pr), Some(qr)) = (&p.rows, &q.rows) else { return false };
    let inside = |rows: &Vec<Vec<i64>>, pt: &[i64]| rows.iter().all(|r| eval(r, pt).is_some_and(|v| v >= 0));
    for a in &p.samples {
        for b in &q.samples {
            if a.iter().zip(b).any(|(x, y)| (x + y) % 2 != 0) {
                continue;
            }
            let m: Vec<i64> = a.iter().zip(b).map(|(x, y)| (x + y) / 2).collect();
            if !inside(pr, &m) && !inside(qr, &m) {
                return true;
            }
        }
    }
    false
}

/// Order in which a sample search tries the values of a variable.
#[derive(Clone, Copy)]
enum Order {
    Low,
    High,
    Middle,
}

/// A few integer points of `b` (parameters, dims and locals) inside the box
/// `[-SAMPLE_BOX, SAMPLE_BOX]`: the lexicographic minimum and maximum and a central
/// point, when the bounded searches find them.
fn samples(b: &BasicSet) -> Vec<Vec<i64>> {
    let n_var = b.n_cols() - 1;
    if b.is_marked_empty() {
        return vec![];
    }
    let mut ineqs = b.ineqs.clone();
    for v in 0..n_var {
        let mut lo = vec![0; b.n_cols()];
        lo[1 + v] = 1;
        lo[0] = SAMPLE_BOX;
        let mut hi = vec![0; b.n_cols()];
        hi[1 + v] = -1;
        hi[0] = SAMPLE_BOX;
        ineqs.push(lo);
        ineqs.push(hi);
    }
    let Some(levels) = levels(&b.eqs, &ineqs, n_var) else { return vec![] };
    let mut out: Vec<Vec<i64>> = Vec::new();
    for order in [Order::Middle, Order::Low, Order::High] {
        let mut budget = SAMPLE_NODES;
        let mut prefix = Vec::with_capacity(n_var);
        if let Some(s) = search(&levels, 0, &mut prefix, order, &mut budget) {
            if !out.contains(&s) {
                out.push(s);
            }
        }
    }
    out
}

type Level = (Vec<Vec<i64>>, Vec<Vec<i64>>);

/// Rows over `[const, v0..vk]` for each k (the rational shadows), as in the scanner.
fn levels(eqs: &[Vec<i64>], ineqs: &[Vec<i64>], n_var: usize) -> Option<Vec<Level>> {
    if n_var == 0 {
        return None;
    }
    let mut levels = vec![(vec![], vec![]); n_var];
    let mut e = eqs.to_vec();
    let mut i = ineqs.to_vec();
    for k in (0..n_var).rev() {
        levels[k] = (e.clone(), i.clone());
        if k == 0 {
            break;
        }
        let (e2, i2) = fm::eliminate_rows(&e, &i, k + 1).ok()?;
        e = e2;
        i = i2;
        BasicSet::drop_col_rows(&mut e, k + 1);
        BasicSet::drop_col_rows(&mut i, k + 1);
    }
    Some(levels)
}

/// Integer bounds of variable k given the prefix (`None` when empty or overflowing).
fn bounds(level: &Level, k: usize, prefix: &[i64]) -> Option<(i64, i64)> {
    let (eqs, ineqs) = level;
    let (mut lo, mut hi) = (i128::MIN, i128::MAX);
    for (is_eq, r) in eqs.iter().map(|r| (true, r)).chain(ineqs.iter().map(|r| (false, r))) {
        let mut s = r[0] as i128;
        for (j, &x) in prefix.iter().enumerate() {
            s = s.checked_add(r[1 + j] as i128 * x as i128)?;
        }
        let a = r[1 + k] as i128;
        if a == 0 {
            if (is_eq && s != 0) || s < 0 {
                return None;
            }
            continue;
        }
        if is_eq {
            if s % a != 0 {
                return None;
            }
            lo = lo.max(-s / a);
            hi = hi.min(-s / a);
        } else if a > 0 {
            lo = lo.max(int::ceil_div(-s, a));
        } else {
            hi = hi.min(int::floor_div(s, -a));
        }
    }
    if lo > hi {
        return None;
    }
    Some((i64::try_from(lo).ok()?, i64::try_from(hi).ok()?))
}

fn search(levels: &[Level], k: usize, prefix: &mut Vec<i64>, order: Order, budget: &mut usize) -> Option<Vec<i64>> {
    if k == levels.len() {
        return Some(prefix.clone());
    }
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    let (lo, hi) = bounds(&levels[k], k, prefix)?;
    let width = (hi - lo) as u64;
    for step in 0..=width {
        let v = match order {
            Order::Low => lo + step as i64,
            Order::High => hi - step as i64,
            Order::Middle => {
                let mid = lo + (width / 2) as i64;
                let off = step.div_ceil(2) as i64;
                if step % 2 == 1 {
                    mid + off
                } else {
                    mid - off
                }
            }
        };
        if v < lo || v > hi {
            continue;
        }
        prefix.push(v);
        let found = search(levels, k + 1, prefix, order, budget);
        prefix.pop();
        if found.is_some() {
            return found;
        }
        if *budget == 0 {
            return None;
        }
    }
    None
}

impl Set {
    /// Exact coalescing: the same integer points for every parameter value with at most
    /// as many pieces (empty, duplicate and contained pieces dropped, pairs whose union
    /// is a basic set merged); see [the `coalesce` module](mod@self).
    pub fn coalesce(&self) -> Result<Set> {
        coalesce(self)
    }
}
