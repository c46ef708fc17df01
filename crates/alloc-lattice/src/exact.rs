//! `lattice-exact` ([`LatticeExact`]): the least strictly admissible integer lattice at
//! one instance, and the modular mapping whose kernel it is.
//!
//! A modular mapping `x -> (M x) mod e` is valid iff its kernel lattice contains no
//! non-zero conflicting difference (is *strictly admissible* for `DS`), and it has as
//! many cells as the lattice's index; conversely every lattice of index `k` is the
//! kernel of a mapping of `k` cells (Darte et al. 2015, Sec. 3). Darte et al. 2015, Sec. 4.2 notes that the best
//! lattice can be found by "a suitable enumeration of lattices using the Hermite normal
//! form" (Darte, Schreiber, Villard), and leaves it aside as "potentially expensive if
//! the determinant is large"; at one instance of the parameters, with `DS` enumerated,
//! it is cheap on every example of the bench suite ([`least_admissible_lattice`]: the
//! Hermite bases of each index in turn, from a lower bound given by a clique of
//! pairwise conflicting differences, [`clique_lower_bound`]; a few milliseconds on
//! each). The answer is the smallest modular mapping
//! there is at that instance, which Heuristics 1 to 3 cannot express when the best
//! hyperplanes' coefficients grow with the parameters (LBM's rolling buffer
//! `(N^3 t + N^2 i + N j + k) mod (N^3 + N^2 + N)`).
//!
//! **The mapping is claimed at that instance only.** It is computed at the parameter
//! values the sizes are compared at ([`Input::size_point`]: `--params`, else the
//! example's largest instance), its obligation is the conflict set with every
//! parameter fixed to them ([`Obligation::at`]), and the facade reports its proof as
//! holding at that instance (`verification: instances`), never as proven for every
//! size. A compiler that knows its sizes can use it as is; one that does not must use
//! a parametric method.

use polyalloc_alloc::{details_of, AllocError, Input, Method, MethodError, Obligation, Outcome, Problem};
use polyalloc_formulation::{AffExpr, ModularMapping, StorageRow};
use polyalloc_ilp::Solver;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

/// Registry name.
pub const NAME: &str = "lattice-exact";
/// Most array dimensions the search handles (fixed-size scratch vectors).
pub const MAX_DIMS: usize = 8;
/// Largest lattice index (number of cells) searched.
pub const MAX_INDEX: i64 = 1 << 22;
/// Most conflicting pairs enumerated at the instance.
pub const PAIR_LIMIT: u64 = 20_000_000;
/// Most distinct conflicting differences kept (about 100 bytes each: 0.2 GB). Past it
/// the method stops: produce-consume at N = 10^9 kept 16 million (1.35 GB in 3.5 s)
/// before a coordinate passed `MAX_COORD`.
pub const DIFFERENCE_LIMIT: usize = 2_000_000;
/// Most search nodes (candidate basis vectors) tried.
pub const NODE_LIMIT: u64 = 200_000_000;
/// Largest coordinate of a conflicting difference (keeps the search's arithmetic far
/// from overflow).
const MAX_COORD: i64 = 1 << 24;

/// The least strictly admissible lattice at one instance (`lattice-exact`).
#[derive(Clone, Copy, Debug, Default)]
pub struct LatticeExact;

/// The details of a `lattice-exact` record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LatticeExactDetails {
    /// The parameter values the mapping is computed and claimed at.
    pub at: BTreeMap<String, i64>,
    /// Distinct conflicting differences `{d, -d}` at that instance.
    pub differences: usize,
    /// The lattice's Hermite basis (one vector per row, array coordinates).
    pub lattice: Vec<Vec<i64>>,
    /// Its index: the mapping's number of cells.
    pub index: i64,
    /// Search nodes tried (candidate basis vectors).
    pub nodes: u64,
}

/// Why the search stopped without an answer.
#[derive(Debug)]
pub enum SearchStop {
    /// [`NODE_LIMIT`] candidate vectors were tried.
    NodeLimit,
    /// The run's time budget ran out or an interruption was requested.
    Budget(polyalloc_ilp::SolveError),
}

/// The result of [`least_admissible_lattice`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeastLattice {
    /// The least index of a lattice avoiding every difference, when at most the bound.
    pub found: Option<(i64, Vec<Vec<i64>>)>,
    /// Candidate basis vectors tried.
    pub nodes: u64,
}

/// The conflicting differences `x - y` of `problem` at the parameter values `values`
/// (in its parameter order), one of each `{d, -d}` (the one whose first non-zero
/// coordinate is positive: a lattice contains `d` iff it contains `-d`), sorted. Pairs
/// `(x, x)` of a given relation are skipped: a cell does not conflict with itself (as
/// for every method, `polyalloc_alloc::pieces`).
pub fn conflicting_differences(problem: &Problem, values: &[i64]) -> Result<Vec<Vec<i64>>, AllocError> {
    let fe = AllocError::formulation(NAME);
    let n = problem.n_dims();
    // The pairs come by rows `(x, y)`, `y`'s last coordinate in `lo ..= hi`: their
    // differences share the first `n - 1` coordinates (the key) and fill an interval
    // of the last one. Per key, the union of the intervals (sorted, disjoint, not
    // adjacent), each key of first non-zero coordinate positive.
    let mut rows: HashMap<Vec<i64>, Vec<(i64, i64)>, BuildHasherDefault<FxHasher>> = HashMap::default();
    let (mut visited, mut checked, mut distinct, mut stop) = (0u64, 0u64, 0u64, None);
    let mut key = vec![0i64; n.saturating_sub(1)];
    problem
        .conflicts
        .relation
        .for_each_row(values, &mut |p, lo, hi| {
            if p.len() + 1 != 2 * n {
                stop = Some(format!("a conflicting pair of {} coordinates, not {}", p.len() + 1, 2 * n));
                return Ok(false);
            }
            // The row's points in the order of a scan point by point: `y_{n-1} = lo ..=
            // hi`, last coordinate `x_{n-1} - y_{n-1}` from `b` down to `a`. Each limit
            // (pairs, coordinates, distinct differences) stops the enumeration where
            // that scan would, with the same message.
            let len = u64::try_from(hi - lo + 1).unwrap_or(0);
            let allowed = len.min(PAIR_LIMIT - visited);
            visited += allowed;
            if visited - checked >= 65_536 {
                checked = visited;
                polyalloc_ilp::budget::check()?;
            }
            let b = p[n - 1] - lo;
            // The points within the limit of pairs.
            let a = b - (allowed as i64) + 1;
            for (i, k) in key.iter_mut().enumerate() {
                *k = p[i] - p[n + i];
            }
            let too_far = |x: &i64| x.abs() > MAX_COORD;
            if a <= b && (key.iter().any(too_far) || b > MAX_COORD) {
                // The first point (not zero) is out of range.
                stop = Some(format!("a conflicting difference has a coordinate above {MAX_COORD}"));
                return Ok(false);
            }
            // Then `b` down to `-MAX_COORD`.
            let a_in = a.max(-MAX_COORD);
            let mut pieces = [None, None];
            match key.iter().find(|&&x| x != 0) {
                Some(&x) if x > 0 => pieces[0] = (a_in <= b).then_some((a_in, b)),
                Some(_) => {
                    key.iter_mut().for_each(|x| *x = -*x);
                    pieces[0] = (a_in <= b).then_some((-b, -a_in));
                }
                // `(0, .., 0, x)`: `x = 0` is no difference, `x < 0` is `-x`.
                None if a_in <= b => {
                    pieces[0] = (b >= 1).then(|| (a_in.max(1), b));
                    pieces[1] = (a_in <= -1).then(|| ((-b).max(1), -a_in));
                }
                None => {}
            }
            for (a, b) in pieces.into_iter().flatten() {
                let intervals = match rows.get_mut(key.as_slice()) {
                    Some(v) => v,
                    None => rows.entry(key.clone()).or_default(),
                };
                distinct += insert_interval(intervals, a, b);
            }
            if distinct > DIFFERENCE_LIMIT as u64 {
                stop = Some(format!("more than {DIFFERENCE_LIMIT} distinct conflicting differences at this instance"));
                return Ok(false);
            }
            if a < a_in {
                stop = Some(format!("a conflicting difference has a coordinate above {MAX_COORD}"));
                return Ok(false);
            }
            if allowed < len {
                stop = Some(format!("more than {PAIR_LIMIT} conflicting pairs at this instance"));
                return Ok(false);
            }
            Ok(true)
        })
        .map_err(&fe)?;
    if let Some(m) = stop {
        return Err(AllocError::method(NAME, m));
    }
    let mut diffs: Vec<Vec<i64>> = Vec::with_capacity(distinct as usize);
    for (key, intervals) in rows {
        for (a, b) in intervals {
            diffs.extend((a..=b).map(|x| key.iter().copied().chain([x]).collect()));
        }
    }
    diffs.sort_unstable();
    Ok(diffs)
}

/// Adds `a ..= b` (`a <= b`) to `intervals` (sorted, disjoint, not adjacent), merging;
/// the number of values added.
fn insert_interval(intervals: &mut Vec<(i64, i64)>, a: i64, b: i64) -> u64 {
    // The first interval that ends at `a - 1` or later, the first that starts after
    // `b + 1`: those in between touch `a ..= b`.
    let i = intervals.partition_point(|&(_, e)| e < a - 1);
    let j = intervals.partition_point(|&(s, _)| s <= b + 1);
    let len = |(a, b): (i64, i64)| (b - a + 1) as u64;
    if i == j {
        intervals.insert(i, (a, b));
        return len((a, b));
    }
    let merged = (a.min(intervals[i].0), b.max(intervals[j - 1].1));
    let before: u64 = intervals[i..j].iter().map(|&r| len(r)).sum();
    intervals.splice(i..j, [merged]);
    len(merged) - before
}

/// Fx hashing (as in rustc): the difference sets hash short vectors of small integers
/// millions of times, where `std`'s SipHash dominates.
#[derive(Default)]
struct FxHasher(u64);

impl FxHasher {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for c in bytes.chunks(8) {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            self.add(u64::from_le_bytes(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.add(x);
    }
    fn write_i64(&mut self, x: i64) {
        self.add(x as u64);
    }
    fn write_usize(&mut self, x: usize) {
        self.add(x as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The index of the box lattice `prod (w_i + 1) Z` (`w_i` the largest `|d_i|`), which
/// avoids every difference: an upper bound for the search, capped at [`MAX_INDEX`].
pub fn box_bound(diffs: &[Vec<i64>], n: usize) -> i64 {
    (0..n).fold(1i64, |acc, i| {
        let w = diffs.iter().map(|d| d[i].abs()).max().unwrap_or(0);
        acc.saturating_mul(w + 1).min(MAX_INDEX)
    })
}

/// The least index of a lattice of `Z^n` containing no vector of `diffs` (each of `n`
/// coordinates, none zero), when it is at most `hi`, with one such lattice: its
/// Hermite basis in the coordinates of `diffs`, one vector per row, row `i` zero
/// before coordinate `i`.
///
/// Every lattice of full rank has exactly one basis in Hermite normal form `b_1 .. b_n`
/// with `b_j = (h_1j, .., h_jj, 0, .., 0)`, `h_jj > 0`, `0 <= h_ij < h_ii` for `i < j`,
/// and index `h_11 .. h_nn`. Its first `j` vectors span `L ∩ (Z^j x 0)`: a vector of `L`
/// zero beyond coordinate `j` has no component on `b_{j+1} .. b_n` (the last non-zero
/// one would leave its diagonal entry). So the basis is built one vector at a time, and
/// once `b_j` is fixed every difference whose last non-zero coordinate is `j` is tested
/// against `L ∩ (Z^j x 0)`: a hit prunes every lattice with that prefix.
///
/// The indices are tried in increasing order, from a lower bound up to `hi`, and for
/// each index `k` only the Hermite bases of index exactly `k` are enumerated: each
/// diagonal entry divides what `k` leaves, and the last one is forced. The first `k`
/// with an admissible lattice is the least index. The lower bound is
/// [`clique_lower_bound`]: points whose pairwise differences are all (up to sign) in
/// `diffs` lie in distinct classes of `Z^n / L` for every admissible `L`, so no index
/// below their number can be admissible. On the bench suite it is the least index or
/// one less, so that one or two indices are searched where a branch and bound over
/// every index below the best found so far proves the same minimum only after
/// millions of candidate vectors.
///
/// The coordinates are taken innermost first (the array's last dimension is `j = 1`):
/// the differences within one row, one plane, ... are then the first tested, and a
/// time-like outer dimension, whose diagonal entry is usually 1 at the optimum, comes
/// last. Within one index the bases are tried in the order of the diagonal entries
/// (increasing), then of the offsets (odometer order), level by level; the lattice
/// returned is the first admissible one of the least index in that order (the order
/// and the lower bound change only the speed, not the answer).
pub fn least_admissible_lattice(diffs: &[Vec<i64>], n: usize, hi: i64) -> Result<LeastLattice, SearchStop> {
    assert!(n <= MAX_DIMS && diffs.iter().all(|d| d.len() == n), "least_admissible_lattice: at most {MAX_DIMS} dimensions");
    let lo = clique_lower_bound(diffs, n)?;
    least_admissible_lattice_from(diffs, n, lo, hi)
}

/// [`least_admissible_lattice`] given a lower bound `lo` of the least index: only the
/// indices `lo ..= hi` are searched. A wrong bound (above the least index) gives a
/// wrong answer: `lo = 1` is always right.
pub fn least_admissible_lattice_from(diffs: &[Vec<i64>], n: usize, lo: i64, hi: i64) -> Result<LeastLattice, SearchStop> {
    assert!(n <= MAX_DIMS && diffs.iter().all(|d| d.len() == n), "least_admissible_lattice: at most {MAX_DIMS} dimensions");
    // In search coordinates (reversed), grouped by their last non-zero coordinate.
    let mut by_top: Vec<Vec<[i64; MAX_DIMS]>> = vec![Vec::new(); n];
    for d in diffs {
        let v = search_coordinates(d);
        match (0..n).rev().find(|&i| v[i] != 0) {
            Some(top) => by_top[top].push(v),
            // The zero difference is in every lattice.
            None => return Ok(LeastLattice { found: None, nodes: 0 }),
        }
    }
    if n == 0 {
        return Ok(LeastLattice { found: Some((1, Vec::new())), nodes: 0 });
    }
    // The same bound within each `Z^{j+1} x 0`, on the diagonal products of prefixes.
    let mut floor = vec![1i64; n];
    let mut within: Vec<&[i64]> = Vec::new();
    for j in 0..n - 1 {
        within.extend(by_top[j].iter().map(|v| &v[..n]));
        floor[j] = clique_bound(&within, n)?;
    }
    let tops = by_top.iter().enumerate().map(|(j, vs)| Top::new(j, vs)).collect();
    let mut s = Search { n, tops, floor, basis: [[0; MAX_DIMS]; MAX_DIMS], index: 0, nodes: 0, scratch: vec![Scratch::default(); n] };
    for k in lo.max(1)..=hi {
        s.index = k;
        if s.level(0, 1)? {
            let b = s.basis;
            let lattice = (0..n).map(|j| (0..n).rev().map(|i| b[n - 1 - j][i]).collect()).collect();
            return Ok(LeastLattice { found: Some((k, lattice)), nodes: s.nodes });
        }
    }
    Ok(LeastLattice { found: None, nodes: s.nodes })
}

/// `d` in search coordinates (reversed), padded with zeros.
fn search_coordinates(d: &[i64]) -> [i64; MAX_DIMS] {
    let mut v = [0i64; MAX_DIMS];
    for (i, x) in d.iter().rev().enumerate() {
        v[i] = *x;
    }
    v
}

/// Most membership tests [`clique_lower_bound`] makes (a few tenths of a second at
/// most); past it the points found so far are the bound.
const CLIQUE_WORK: u64 = 1 << 25;
/// Most candidate points [`clique_lower_bound`] considers (the shortest ones).
const CLIQUE_CANDIDATES: usize = 1 << 16;
/// Largest box of differences of two candidates held as a bitmap (bits) by
/// [`clique_lower_bound`]; past it the differences are searched by bisection.
const DENSE_CELLS: i64 = 1 << 26;

/// A lower bound of the index of every lattice containing no vector of `diffs` (each
/// of `n` coordinates, none zero): the size of a set of points whose pairwise
/// differences are all in `±diffs` (a clique of the Cayley graph of `Z^n` they
/// generate), which an admissible lattice puts in distinct classes. Greedy: from `0`,
/// the vectors of `±diffs` by increasing `L1` norm (ties: lexicographic order; the
/// `CLIQUE_CANDIDATES` shortest), each kept when its difference with every point
/// kept so far is in `±diffs`. At least 1.
pub fn clique_lower_bound(diffs: &[Vec<i64>], n: usize) -> Result<i64, SearchStop> {
    let vs: Vec<&[i64]> = diffs.iter().map(Vec::as_slice).collect();
    clique_bound(&vs, n)
}

/// [`clique_lower_bound`] on slices.
fn clique_bound(diffs: &[&[i64]], n: usize) -> Result<i64, SearchStop> {
    if diffs.is_empty() || n == 0 {
        return Ok(1);
    }
    // `(L1 norm, index, negated)`: the shortest, then in order.
    let l1 = |d: &[i64]| d.iter().map(|x| x.abs()).sum::<i64>();
    let mut cands: Vec<(i64, usize, bool)> =
        (0..diffs.len()).filter(|&i| l1(diffs[i]) > 0).flat_map(|i| [(l1(diffs[i]), i, false), (l1(diffs[i]), i, true)]).collect();
    if cands.len() > CLIQUE_CANDIDATES {
        cands.select_nth_unstable(CLIQUE_CANDIDATES);
        cands.truncate(CLIQUE_CANDIDATES);
    }
    let signed = |&(_, i, neg): &(i64, usize, bool)| diffs[i].iter().map(move |&x| if neg { -x } else { x });
    cands.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| signed(a).cmp(signed(b))));
    // The candidates still adjacent to every point kept, in order: the first is kept,
    // and the others filtered by their difference with it.
    let (mut size, mut work) = (1i64, 0u64);
    let w: Vec<i64> = (0..n).map(|i| diffs.iter().map(|d| d[i].abs()).max().unwrap_or(0)).collect();
    // Two candidates differ by at most `2 w_i` in coordinate `i`: a bitmap of that box
    // (when small) indexed by `key(a) - key(c) + key(2 w)`, `key` linear.
    let cells = w.iter().try_fold(1i64, |acc, x| acc.checked_mul(4 * x + 1).filter(|&c| c <= DENSE_CELLS));
    if let Some(cells) = cells {
        let mut stride = vec![1i64; n];
        for i in (0..n - 1).rev() {
            stride[i] = stride[i + 1] * (4 * w[i + 1] + 1);
        }
        let key = |v: &mut dyn Iterator<Item = i64>| v.zip(&stride).map(|(x, s)| x * s).sum::<i64>();
        let origin = key(&mut w.iter().map(|x| 2 * x));
        let mut bits = vec![0u64; (cells as usize).div_ceil(64)];
        for d in diffs {
            for k in [origin + key(&mut d.iter().copied()), origin - key(&mut d.iter().copied())] {
                bits[k as usize / 64] |= 1 << (k % 64);
            }
        }
        let mut left: Vec<i64> = cands.iter().map(|c| key(&mut signed(c))).collect();
        while let Some(&c) = left.first() {
            size += 1;
            work += left.len() as u64;
            let mut kept = 0;
            for r in 1..left.len() {
                let k = (left[r] - c + origin) as usize;
                if bits[k / 64] >> (k % 64) & 1 == 1 {
                    left[kept] = left[r];
                    kept += 1;
                }
            }
            left.truncate(kept);
            polyalloc_ilp::budget::check().map_err(SearchStop::Budget)?;
            if work > CLIQUE_WORK {
                break;
            }
        }
        return Ok(size);
    }
    // Else the differences of first non-zero coordinate positive, sorted, by bisection.
    let mut set: Vec<Cow<[i64]>> =
        diffs.iter().map(|&d| if negative(d) { Cow::Owned(d.iter().map(|x| -x).collect()) } else { Cow::Borrowed(d) }).collect();
    set.sort_unstable();
    let mut left: Vec<i64> = cands.iter().flat_map(signed).collect();
    let (mut u, mut c) = (vec![0i64; n], vec![0i64; n]);
    while left.len() >= n {
        size += 1;
        work += (left.len() / n) as u64;
        c.copy_from_slice(&left[..n]);
        let mut kept = 0;
        for r in (n..left.len()).step_by(n) {
            for i in 0..n {
                u[i] = left[r + i] - c[i];
            }
            if negative(&u) {
                u.iter_mut().for_each(|x| *x = -*x);
            }
            if set.binary_search_by(|x| x.as_ref().cmp(&u)).is_ok() {
                left.copy_within(r..r + n, kept);
                kept += n;
            }
        }
        left.truncate(kept);
        polyalloc_ilp::budget::check().map_err(SearchStop::Budget)?;
        if work > CLIQUE_WORK {
            break;
        }
    }
    Ok(size)
}

/// Whether the first non-zero coordinate of `d` is negative.
fn negative(d: &[i64]) -> bool {
    d.iter().find(|&&x| x != 0).is_some_and(|&x| x < 0)
}

/// The divisors of `m >= 1`, increasing.
fn divisors(m: i64) -> Vec<i64> {
    let (mut small, mut large) = (Vec::new(), Vec::new());
    let mut d = 1;
    while d * d <= m {
        if m % d == 0 {
            small.push(d);
            if d * d != m {
                large.push(m / d);
            }
        }
        d += 1;
    }
    small.extend(large.into_iter().rev());
    small
}

struct Search {
    n: usize,
    /// The differences by their last non-zero coordinate.
    tops: Vec<Top>,
    /// `floor[j]`: a lower bound of the index of `L ∩ (Z^{j+1} x 0)` in `Z^{j+1}`.
    floor: Vec<i64>,
    /// `basis[j]` is `b_{j+1}` (search coordinates).
    basis: [[i64; MAX_DIMS]; MAX_DIMS],
    /// The index searched for.
    index: i64,
    nodes: u64,
    /// Scratch of [`Search::level`] `j`.
    scratch: Vec<Scratch>,
}

impl Search {
    /// The position of the class of `w` (coordinates `..j`) in `Z^j / L ∩ (Z^j x 0)`:
    /// `w` reduced into the box `0 <= w_i < h_ii` (from the last coordinate down), read
    /// in the odometer order of [`Search::level`]'s offsets.
    fn class(&self, w: [i64; MAX_DIMS], j: usize) -> usize {
        if j == 0 {
            return 0;
        }
        let (w0, high) = self.reduce_upper(w, j);
        let h0 = self.basis[0][0];
        (if h0 == 1 { 0 } else { w0.rem_euclid(h0) }) as usize + high
    }

    /// `w` (coordinates `..j`, `j >= 1`) reduced from coordinate `j - 1` down to
    /// coordinate 1: its coordinate 0 then, and the part of its class position that
    /// coordinates `1..j` give. Coordinate 0 only shifts: the class of `w + x e_0` is
    /// at `(x + w'_0) mod h_00` plus the same part.
    fn reduce_upper(&self, mut w: [i64; MAX_DIMS], j: usize) -> (i64, usize) {
        for i in (1..j).rev() {
            let h = self.basis[i][i];
            let q = if h == 1 { w[i] } else { w[i].div_euclid(h) };
            if q != 0 {
                for (x, b) in w[..=i].iter_mut().zip(&self.basis[i][..=i]) {
                    *x -= q * b;
                }
            }
        }
        let (mut high, mut radix) = (0, self.basis[0][0] as usize);
        for (i, x) in w[..j].iter().enumerate().skip(1) {
            high += *x as usize * radix;
            radix *= self.basis[i][i] as usize;
        }
        (w[0], high)
    }

    /// Chooses `basis[j..]` given `basis[..j]`, whose diagonal product `g` divides
    /// [`Search::index`], so that the lattice has that index and contains no
    /// difference; true when found (left in `basis`).
    fn level(&mut self, j: usize, g: i64) -> Result<bool, SearchStop> {
        let rest = self.index / g;
        let last = j + 1 == self.n;
        let ds = if last { vec![rest] } else { divisors(rest) };
        let mut sc = std::mem::take(&mut self.scratch[j]);
        // The class of each `v_..j` of the differences `v` of top `j` (whatever `d`),
        // row by row: coordinates `1..j` reduced once per row, then `v_0` (see `Top`).
        sc.classes.clear();
        let top = &self.tops[j];
        if j == 0 {
            sc.classes.resize(top.firsts.len(), 0);
        } else {
            let h0 = self.basis[0][0];
            for &(upper, a, b) in &top.rows {
                let (shift, high) = self.reduce_upper(upper, j);
                let shift = shift.rem_euclid(h0);
                for &w0 in &top.firsts[a..b] {
                    let x = w0 + shift;
                    let r0 = if h0 == 1 {
                        0
                    } else if (0..h0).contains(&x) {
                        x
                    } else {
                        x.rem_euclid(h0)
                    };
                    sc.classes.push(r0 as usize + high);
                }
            }
        }
        let mut done = false;
        'ds: for d in ds {
            if g * d < self.floor[j] {
                continue;
            }
            // A difference `v` with top coordinate `j` is in `L ∩ (Z^{j+1} x 0)` iff
            // `d` divides `v_j = m d` and `v - m b_j`, i.e. `(v_..j) - m (offsets)`, is
            // in `L ∩ (Z^j x 0)`: iff the class of `m (offsets)` is that of `v_..j`.
            // For `m = 1` that is one class of offsets, excluded at once; for `m > 1`
            // the class of `m (offsets)` is looked up among those of the `v` with that
            // `m`, per offset.
            sc.excluded.clear();
            sc.excluded.resize(g as usize, false);
            sc.multiples.clear();
            sc.ms.clear();
            let top = &self.tops[j];
            let mut open = g as usize;
            for &(value, a, b) in &top.values {
                if value % d != 0 {
                    continue;
                }
                let members = top.members[a..b].iter().map(|&h| sc.classes[h]);
                if value == d {
                    for c in members {
                        open -= usize::from(!sc.excluded[c]);
                        sc.excluded[c] = true;
                    }
                    if open == 0 {
                        // Every offset is excluded.
                        continue 'ds;
                    }
                } else {
                    let start = sc.multiples.len();
                    sc.multiples.extend(members);
                    sc.ms.push((value / d, start, sc.multiples.len()));
                }
            }
            // Looked up in a table of `(m, class)` when it is small, else by bisection.
            let dense = sc.ms.len() * g as usize <= 8 * sc.multiples.len() + 4096;
            if dense {
                sc.marks.clear();
                sc.marks.resize(sc.ms.len() * g as usize, false);
                for (i, &(_, a, b)) in sc.ms.iter().enumerate() {
                    for &c in &sc.multiples[a..b] {
                        sc.marks[i * g as usize + c] = true;
                    }
                }
            } else {
                for &(_, a, b) in &sc.ms {
                    sc.multiples[a..b].sort_unstable();
                }
            }
            let mut off = [0i64; MAX_DIMS];
            let mut pos = 0;
            'offsets: loop {
                self.nodes += 1;
                if self.nodes > NODE_LIMIT {
                    return Err(SearchStop::NodeLimit);
                }
                if self.nodes % 4096 == 0 {
                    polyalloc_ilp::budget::check().map_err(SearchStop::Budget)?;
                }
                if !sc.excluded[pos]
                    && !sc.ms.iter().enumerate().any(|(i, &(m, a, b))| {
                        let mut w = [0i64; MAX_DIMS];
                        for (x, o) in w[..j].iter_mut().zip(&off[..j]) {
                            *x = m * o;
                        }
                        let c = self.class(w, j);
                        if dense {
                            sc.marks[i * g as usize + c]
                        } else {
                            sc.multiples[a..b].binary_search(&c).is_ok()
                        }
                    })
                {
                    let mut b = off;
                    b[j] = d;
                    self.basis[j] = b;
                    if last || self.level(j + 1, g * d)? {
                        done = true;
                        break 'ds;
                    }
                }
                // Next offset vector `0 <= off_i < h_ii`, odometer order.
                pos += 1;
                for (i, o) in off.iter_mut().enumerate().take(j) {
                    *o += 1;
                    if *o < self.basis[i][i] {
                        continue 'offsets;
                    }
                    *o = 0;
                }
                break;
            }
        }
        self.scratch[j] = sc;
        Ok(done)
    }
}

/// The differences whose last non-zero coordinate is `j` (search coordinates), as
/// [`Search::level`] `j` reads them: by their value `v_j`, and their head `v_..j`, whose
/// class is computed once per prefix for all the differences that share it. The heads
/// come in rows of equal coordinates `1..j`: the class of `(x, u)` is that of `(0, u)`
/// shifted by `x` in its first coordinate, so that coordinates `1..j` are reduced once
/// per row.
struct Top {
    /// `(upper, a, b)`: the heads `(x, upper_1.., upper_{j-1})`, `x` in `firsts[a..b]`.
    rows: Vec<([i64; MAX_DIMS], usize, usize)>,
    /// The first coordinates of the distinct heads, row by row.
    firsts: Vec<i64>,
    /// `(v_j, a, b)`: the distinct values of `v_j` (positive), increasing, with the
    /// heads of their differences, `members[a..b]`.
    values: Vec<(i64, usize, usize)>,
    /// Indices into `firsts` (the heads).
    members: Vec<usize>,
}

impl Top {
    fn new(j: usize, vs: &[[i64; MAX_DIMS]]) -> Top {
        // The head with its first coordinate last: sorted, the rows are contiguous.
        let key = |v: &[i64; MAX_DIMS]| {
            let mut w = *v;
            w[j..].iter_mut().for_each(|x| *x = 0);
            w.rotate_left(1);
            w
        };
        let mut heads: Vec<[i64; MAX_DIMS]> = vs.iter().map(key).collect();
        heads.sort_unstable();
        heads.dedup();
        let mut rows: Vec<([i64; MAX_DIMS], usize, usize)> = Vec::new();
        let mut firsts = Vec::with_capacity(heads.len());
        for (i, h) in heads.iter().enumerate() {
            let mut upper = *h;
            let first = upper[MAX_DIMS - 1];
            upper[MAX_DIMS - 1] = 0;
            upper.rotate_right(1);
            firsts.push(first);
            match rows.last_mut() {
                Some(last) if last.0 == upper => last.2 = i + 1,
                _ => rows.push((upper, i, i + 1)),
            }
        }
        let mut pairs: Vec<(i64, usize)> = vs.iter().map(|v| (v[j], heads.binary_search(&key(v)).unwrap_or(0))).collect();
        pairs.sort_unstable();
        pairs.dedup();
        let mut values: Vec<(i64, usize, usize)> = Vec::new();
        for (i, &(value, _)) in pairs.iter().enumerate() {
            match values.last_mut() {
                Some(last) if last.0 == value => last.2 = i + 1,
                _ => values.push((value, i, i + 1)),
            }
        }
        Top { rows, firsts, values, members: pairs.into_iter().map(|p| p.1).collect() }
    }
}

/// The scratch vectors of one level of [`Search::level`].
#[derive(Clone, Default)]
struct Scratch {
    /// The class of each head of [`Top::firsts`].
    classes: Vec<usize>,
    /// The classes of offsets excluded at once (`m = 1`).
    excluded: Vec<bool>,
    /// The classes of the heads of the differences with `v_j = m d`, `m > 1`, by `m`
    /// (each `m`'s sorted when `marks` is not used).
    multiples: Vec<usize>,
    /// `(m, a, b)`: `multiples[a..b]` are those of `m`.
    ms: Vec<(i64, usize, usize)>,
    /// `marks[i g + c]`: `c` is among the classes of `ms[i]`.
    marks: Vec<bool>,
}

/// A modular mapping whose kernel is the lattice spanned by the rows of `basis` (of
/// full rank), as `(hyperplane, modulus)` rows: unimodular row and column operations
/// bring `B` to a diagonal `D = U B V` (Smith's reduction, without the divisibility
/// chain, which only minimises the number of rows); then `x` is in `Z^n B = Z^n D V^-1`
/// iff `(x V)_i = 0 mod d_i` for every `i`, so `x -> ((x . v_i) mod d_i)_i` (`v_i` the
/// columns of `V`) has kernel `L` and `prod d_i = |det B|` cells (Darte et al. 2015, Sec. 3). Rows
/// with `d_i = 1` are dropped, coefficients reduced into `(-d_i / 2, d_i / 2]`. `None`
/// when `basis` is not of full rank or an entry leaves `i64`.
pub fn kernel_mapping(basis: &[Vec<i64>]) -> Option<Vec<(Vec<i64>, i64)>> {
    let n = basis.len();
    let mut a: Vec<Vec<i128>> = basis.iter().map(|r| r.iter().map(|&x| i128::from(x)).collect()).collect();
    let mut v: Vec<Vec<i128>> = (0..n).map(|i| (0..n).map(|j| i128::from(i == j)).collect()).collect();
    for t in 0..n {
        loop {
            let (pi, pj) = (t..n).flat_map(|i| (t..n).map(move |j| (i, j))).filter(|&(i, j)| a[i][j] != 0).min_by_key(|&(i, j)| a[i][j].abs())?;
            a.swap(t, pi);
            for row in a.iter_mut().chain(v.iter_mut()) {
                row.swap(t, pj);
            }
            let p = a[t][t];
            let mut clean = true;
            for i in t + 1..n {
                let (upper, lower) = a.split_at_mut(i);
                let (pivot_row, row) = (&upper[t], &mut lower[0]);
                let q = row[t] / p;
                for (x, &y) in row[t..n].iter_mut().zip(&pivot_row[t..n]) {
                    *x = x.checked_sub(q.checked_mul(y)?)?;
                }
                clean &= row[t] == 0;
            }
            for j in t + 1..n {
                let q = a[t][j] / p;
                for row in a.iter_mut().chain(v.iter_mut()) {
                    row[j] = row[j].checked_sub(q.checked_mul(row[t])?)?;
                }
                clean &= a[t][j] == 0;
            }
            if clean {
                break;
            }
        }
    }
    (0..n)
        .filter(|&t| a[t][t].abs() > 1)
        .map(|t| {
            let d = a[t][t].abs();
            let h = v.iter().map(|row| {
                let c = row[t].rem_euclid(d);
                i64::try_from(if 2 * c > d { c - d } else { c }).ok()
            });
            Some((h.collect::<Option<Vec<i64>>>()?, i64::try_from(d).ok()?))
        })
        .collect()
}

fn show_values(params: &[String], values: &[i64]) -> String {
    params.iter().zip(values).map(|(p, v)| format!("{p} = {v}")).collect::<Vec<_>>().join(", ")
}

impl Method for LatticeExact {
    fn name(&self) -> &'static str {
        NAME
    }

    fn summary(&self) -> &'static str {
        "the least-index strictly admissible lattice for the conflicting differences at one instance, by Hermite-normal-form enumeration (Darte, Isoard, Yuki 2015, Sec. 3, 4.2); valid at that instance only"
    }

    fn scope(&self) -> polyalloc_alloc::Scope {
        polyalloc_alloc::Scope::OneInstance
    }

    fn targets(&self, input: &Input) -> Result<Vec<String>, MethodError> {
        polyalloc_alloc::method::conflict_set_targets(input)
    }

    fn run(&self, input: &Input, target: &str, _solver: &dyn Solver) -> Result<Outcome, MethodError> {
        let problem = input.problem(target)?;
        let n = problem.n_dims();
        if n > MAX_DIMS {
            return Err(MethodError::NotApplicable(format!("{n} array dimensions; the lattice search handles at most {MAX_DIMS}")));
        }
        let params = problem.params().to_vec();
        let at = input.size_point().unwrap_or_default();
        let values = params
            .iter()
            .map(|p| {
                at.get(p).copied().ok_or_else(|| {
                    MethodError::NotApplicable(format!(
                        "an instance-specific method needs a value of every parameter (`--params`, or the example's `instances`); `{p}` has none"
                    ))
                })
            })
            .collect::<Result<Vec<i64>, _>>()?;
        let problem = problem.at_instance(&values)?.ok_or_else(|| {
            let context = problem.context.as_ref().map_or_else(|| "(none)".to_string(), ToString::to_string);
            MethodError::BadInput(format!("the instance {} is outside the context {context}", show_values(&params, &values)))
        })?;
        let diffs = conflicting_differences(&problem, &values)?;
        let hi = box_bound(&diffs, n);
        let stop = |s: SearchStop| match s {
            SearchStop::NodeLimit => MethodError::Method(format!("the lattice search stopped after {NODE_LIMIT} candidate vectors")),
            SearchStop::Budget(e) => MethodError::Solver(e),
        };
        let search = least_admissible_lattice(&diffs, n, hi).map_err(stop)?;
        let (index, lattice) = search
            .found
            .ok_or_else(|| MethodError::Method(format!("no admissible lattice of index at most {hi} (the search's limit is {MAX_INDEX} cells)")))?;
        let rows = kernel_mapping(&lattice)
            .ok_or_else(|| MethodError::Method(format!("the lattice {lattice:?} has no kernel mapping within 64-bit integers")))?;
        let psp = problem.param_space();
        let rows = rows.into_iter().map(|(h, m)| StorageRow { hyperplane: h, modulus: Some(AffExpr::constant(&psp, m)) }).collect();
        let refs: Vec<&str> = params.iter().map(String::as_str).collect();
        let mapping = ModularMapping::new(&refs, problem.array_tuple(), rows)?;
        let details = LatticeExactDetails {
            at: params.iter().cloned().zip(values.iter().copied()).collect(),
            differences: diffs.len(),
            lattice,
            index,
            nodes: search.nodes,
        };
        let label = if params.is_empty() { "conflict set".to_string() } else { format!("conflict set at {}", show_values(&params, &values)) };
        let at = (!params.is_empty()).then_some(values);
        Ok(Outcome {
            mapping: Some(mapping),
            obligations: vec![Obligation { label, problem, at }],
            executions: Vec::new(),
            details: details_of(&details),
            shared: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polyalloc_suite::{default_dir, Example};
    use std::collections::BTreeSet;

    /// A small deterministic generator (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn range(&mut self, lo: i64, hi: i64) -> i64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
            lo + (x % (hi - lo + 1) as u64) as i64
        }
    }

    /// One of each `{d, -d}` (first non-zero coordinate positive), zero dropped, sorted.
    fn reduce(diffs: Vec<Vec<i64>>) -> Vec<Vec<i64>> {
        let set: BTreeSet<Vec<i64>> = diffs
            .into_iter()
            .filter_map(|d| match d.iter().find(|&&x| x != 0) {
                None => None,
                Some(&x) if x < 0 => Some(d.iter().map(|v| -v).collect()),
                Some(_) => Some(d),
            })
            .collect();
        set.into_iter().collect()
    }

    /// Whether `v` is an integer combination of the rows of `b`, row `j` zero beyond
    /// coordinate `j` with `b[j][j] > 0` (back substitution).
    fn member(b: &[Vec<i64>], v: &[i64]) -> bool {
        let mut v = v.to_vec();
        for j in (0..b.len()).rev() {
            if v[j] % b[j][j] != 0 {
                return false;
            }
            let c = v[j] / b[j][j];
            for i in 0..=j {
                v[i] -= c * b[j][i];
            }
        }
        true
    }

    /// Calls `f` on every lower-triangular Hermite basis of index `k` extending
    /// `prefix` (`n` rows in all), in the search's order: diagonal entries increasing,
    /// then offsets `0 <= b_ji < b_ii` with the first coordinate fastest, row by row.
    /// Stops (false) when `f` does.
    fn bases(n: usize, k: i64, prefix: &mut Vec<Vec<i64>>, f: &mut dyn FnMut(&[Vec<i64>]) -> bool) -> bool {
        let j = prefix.len();
        if j == n {
            return k != 1 || f(prefix);
        }
        for d in (1..=k).filter(|d| k % d == 0 && (j + 1 < n || *d == k)) {
            let classes: i64 = (0..j).map(|i| prefix[i][i]).product();
            for code in 0..classes {
                let mut row = vec![0; n];
                let mut c = code;
                for i in 0..j {
                    row[i] = c % prefix[i][i];
                    c /= prefix[i][i];
                }
                row[j] = d;
                prefix.push(row);
                let go_on = bases(n, k / d, prefix, f);
                prefix.pop();
                if !go_on {
                    return false;
                }
            }
        }
        true
    }

    /// The least index at most `hi` of a lattice containing no difference, with its first
    /// Hermite basis in the search's order, by enumerating every basis of each index
    /// (no lower bound, no pruning of prefixes), in the coordinates of `diffs`.
    fn plain_least(diffs: &[Vec<i64>], n: usize, hi: i64) -> Option<(i64, Vec<Vec<i64>>)> {
        let rev: Vec<Vec<i64>> = diffs.iter().map(|d| d.iter().rev().copied().collect()).collect();
        for k in 1..=hi {
            let mut found = None;
            bases(n, k, &mut Vec::new(), &mut |b| {
                if rev.iter().any(|v| member(b, v)) {
                    return true;
                }
                found = Some((0..n).map(|j| (0..n).rev().map(|i| b[n - 1 - j][i]).collect()).collect());
                false
            });
            if let Some(b) = found {
                return Some((k, b));
            }
        }
        None
    }

    /// The search (lower bound, one index at a time, pruned prefixes) returns the least
    /// index of the plain enumeration and the same lattice (the first of that index in
    /// the enumeration order, as the branch and bound it replaced did), with and without
    /// the lower bound; the lower bound never exceeds the least index.
    #[test]
    fn search_agrees_with_plain_enumeration_on_random_differences() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut tight, mut below) = (0, 0);
        for (n, sets, r, hi) in [(1usize, 100, 9, 30i64), (2, 300, 6, 40), (3, 100, 3, 24), (4, 30, 2, 12)] {
            for _ in 0..sets {
                let m = rng.range(1, 4 * n as i64);
                let diffs = reduce((0..m).map(|_| (0..n).map(|_| rng.range(-r, r)).collect()).collect());
                let plain = plain_least(&diffs, n, hi);
                let found = least_admissible_lattice(&diffs, n, hi).expect("within the limits").found;
                assert_eq!(found, plain, "{diffs:?}");
                assert_eq!(least_admissible_lattice_from(&diffs, n, 1, hi).expect("within the limits").found, plain, "{diffs:?}");
                let lb = clique_lower_bound(&diffs, n).expect("within the limits");
                if let Some((k, _)) = plain {
                    assert!(lb <= k, "lower bound {lb} above the least index {k}: {diffs:?}");
                    tight += usize::from(lb == k && k > 2);
                    below += usize::from(lb < k);
                }
            }
        }
        // Both paths are exercised: a bound that is the answer, and indices searched
        // in vain before the least one.
        assert!(tight > 15 && below > 100, "tight {tight}, below {below}");
    }

    #[test]
    fn clique_lower_bound_of_small_sets() {
        // {0, 1, -1}: the differences 1 and 2; 3Z avoids both.
        assert_eq!(clique_lower_bound(&[vec![1], vec![2]], 1).ok(), Some(3));
        // The same, scaled beyond the bitmap: the sorted differences.
        let m = DENSE_CELLS;
        assert_eq!(clique_lower_bound(&[vec![m], vec![2 * m]], 1).ok(), Some(3));
        assert_eq!(clique_lower_bound(&[vec![0, m], vec![m, -m], vec![m, 0], vec![m, m]], 2).ok(), Some(4));
        assert_eq!(clique_lower_bound(&[], 2).ok(), Some(1));
        // The unit square's differences: {0, e1, e2, e1 + e2}, and index 4 (2Z x 2Z).
        let square = [vec![0, 1], vec![1, -1], vec![1, 0], vec![1, 1]];
        assert_eq!(clique_lower_bound(&square, 2).ok(), Some(4));
        assert_eq!(least_admissible_lattice(&square, 2, 10).ok().and_then(|l| l.found).map(|f| f.0), Some(4));
    }

    /// The differences of `array` of the bench-suite example `id` at `values`.
    fn suite_differences(id: &str, array: &str, values: &[i64]) -> (Problem, Vec<Vec<i64>>) {
        let ex = Example::load(&default_dir().join(format!("{id}.json"))).expect("bench-suite file");
        let problem = ex.problem(array).expect("problem").at_instance(values).expect("instance").expect("in the context");
        let diffs = conflicting_differences(&problem, values).expect("differences");
        (problem, diffs)
    }

    /// The differences read by rows are those of every conflicting pair, one by one.
    #[test]
    fn differences_are_those_of_every_pair() {
        for (id, array, values) in [
            ("lattice-heat-2d-tiled", "A", vec![3]),
            ("ov-example3", "A", vec![3, 3, 3]),
            ("smo-lbm-d3q19", "A", vec![3]),
            ("ov-example4", "B", vec![5]),
        ] {
            let (problem, diffs) = suite_differences(id, array, &values);
            let n = problem.n_dims();
            let mut pairs = Vec::new();
            problem
                .conflicts
                .relation
                .for_each_point(&values, &mut |p| {
                    pairs.push((0..n).map(|i| p[i] - p[n + i]).collect());
                    Ok(true)
                })
                .expect("enumerates");
            assert_eq!(diffs, reduce(pairs), "{id}");
        }
    }

    /// The pairs of a conflict set given by hand (rows of both signs, and of a zero
    /// key in 1-d and 2-d), as [`differences_are_those_of_every_pair`] does.
    #[test]
    fn differences_of_rows_with_both_signs() {
        use polyalloc_formulation::{BasicSet, ConflictForm, ConflictSet};
        for (text, n) in [
            ("[N] -> { A[x] -> A[x2] : 0 <= x < N and 0 <= x2 < N and -3 <= x2 - x <= 5 }", 1),
            ("[N] -> { A[x, y] -> A[x2, y2] : 0 <= x < N and 0 <= y < N and 0 <= x2 < N and 0 <= y2 < N and -1 <= x2 - x <= 1 and y2 - y <= 2 and y - y2 <= 4 + x }", 2),
        ] {
            let conflicts = ConflictSet::parse(text, ConflictForm::Symmetric).expect("conflict set");
            let problem = Problem { example: "rows".into(), conflicts, context: Some(BasicSet::parse("[N] -> { : N >= 1 }").expect("context")), space: None, instances: vec![vec![6]] };
            let diffs = conflicting_differences(&problem, &[6]).expect("differences");
            let mut pairs = Vec::new();
            problem
                .conflicts
                .relation
                .for_each_point(&[6], &mut |p| {
                    pairs.push((0..n).map(|i| p[i] - p[n + i]).collect());
                    Ok(true)
                })
                .expect("enumerates");
            assert!(!diffs.is_empty());
            assert_eq!(diffs, reduce(pairs), "{text}");
        }
    }

    /// Read by rows, the differences still stop at their limit, with the message of a
    /// scan point by point (produce-consume at `N = 10^9`: the distinct differences
    /// before the pairs).
    #[test]
    fn differences_stop_at_their_limit() {
        let ex = Example::load(&default_dir().join("smo-produce-consume.json")).expect("bench-suite file");
        let problem = ex.problem("A").expect("problem");
        let e = conflicting_differences(&problem, &[1_000_000_000]).expect_err("too many");
        assert!(e.to_string().contains(&format!("more than {DIFFERENCE_LIMIT} distinct conflicting differences")), "{e}");
    }

    /// Merging intervals counts each value once.
    #[test]
    fn intervals_merge() {
        let mut rng = Rng(7);
        for _ in 0..200 {
            let (mut intervals, mut values, mut added) = (Vec::new(), BTreeSet::new(), 0);
            for _ in 0..rng.range(1, 12) {
                let a = rng.range(-20, 20);
                let b = a + rng.range(0, 6);
                added += insert_interval(&mut intervals, a, b);
                values.extend(a..=b);
            }
            assert_eq!(added as usize, values.len());
            let listed: Vec<i64> = intervals.iter().flat_map(|&(a, b)| a..=b).collect();
            assert_eq!(listed, values.iter().copied().collect::<Vec<_>>());
            assert!(intervals.windows(2).all(|w| w[0].1 + 1 < w[1].0), "{intervals:?}");
        }
    }

    /// On real conflict sets at small instances (one where the lower bound is below the
    /// least index, the hex tile), the search agrees with the plain enumeration.
    #[test]
    fn search_agrees_with_plain_enumeration_on_the_suite() {
        for (id, array, values, hi) in [
            ("smo-stencil-1d-hex-tile", "AB", vec![4], 40),
            ("smo-diamond-tile", "AB", vec![4], 40),
            ("lattice-heat-2d-tiled", "A", vec![3], 40),
            ("ov-example3", "A", vec![3, 3, 3], 30),
            ("smo-lbm-d2q9", "A", vec![3], 30),
        ] {
            let (problem, diffs) = suite_differences(id, array, &values);
            let n = problem.n_dims();
            let plain = plain_least(&diffs, n, hi);
            assert!(plain.is_some(), "{id}: no lattice of index at most {hi}");
            assert_eq!(least_admissible_lattice(&diffs, n, hi).expect("within the limits").found, plain, "{id}");
        }
    }
}
