//! `lattice-exact` ([`LatticeExact`]): the least strictly admissible integer lattice at
//! one instance, and the modular mapping whose kernel it is.
//!
//! A modular mapping `x -> (M x) mod e` is valid iff its kernel lattice contains no
//! non-zero conflicting difference (is *strictly admissible* for `DS`), and it has as
//! many cells as the lattice's index; conversely every lattice of index `k` is the
//! kernel of a mapping of `k` cells (001 Sec. 3). 001 Sec. 4.2 notes that the best
//! lattice can be found by "a suitable enumeration of lattices using the Hermite normal
//! form" (Darte, Schreiber, Villard), and leaves it aside as "potentially expensive if
//! the determinant is large"; at one instance of the parameters, with `DS` enumerated,
//! it is cheap on every example of the bench suite ([`least_admissible_lattice`]: a
//! branch and bound over Hermite bases). The answer is the smallest modular mapping
//! there is at that instance, which Heuristics 1 to 3 cannot express when the best
//! hyperplanes' coefficients grow with the parameters (LBM's rolling buffer
//! `(N^3 t + N^2 i + N j + k) mod (N^3 + N^2 + N)`, issue 18).
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
use std::collections::{BTreeMap, BTreeSet};

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
/// before a coordinate passed [`MAX_COORD`].
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
    let mut set: BTreeSet<Vec<i64>> = BTreeSet::new();
    let (mut visited, mut stop) = (0u64, None);
    problem
        .conflicts
        .relation
        .for_each_point(values, &mut |p| {
            visited += 1;
            if visited % 65_536 == 0 {
                polyalloc_ilp::budget::check()?;
            }
            if visited > PAIR_LIMIT {
                stop = Some(format!("more than {PAIR_LIMIT} conflicting pairs at this instance"));
                return Ok(false);
            }
            let mut d: Vec<i64> = (0..n).map(|i| p[i] - p[n + i]).collect();
            match d.iter().find(|&&x| x != 0) {
                None => return Ok(true),
                Some(&x) if x < 0 => d.iter_mut().for_each(|v| *v = -*v),
                Some(_) => {}
            }
            if d.iter().any(|x| x.abs() > MAX_COORD) {
                stop = Some(format!("a conflicting difference has a coordinate above {MAX_COORD}"));
                return Ok(false);
            }
            set.insert(d);
            if set.len() > DIFFERENCE_LIMIT {
                stop = Some(format!("more than {DIFFERENCE_LIMIT} distinct conflicting differences at this instance"));
                return Ok(false);
            }
            Ok(true)
        })
        .map_err(&fe)?;
    if let Some(m) = stop {
        return Err(AllocError::method(NAME, m));
    }
    Ok(set.into_iter().collect())
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
/// against `L ∩ (Z^j x 0)`: a hit prunes every lattice with that prefix. Branch and
/// bound on the index: once a lattice of index `p` is found, only prefixes whose
/// diagonal product stays below `p` are explored, so the search returns the least index.
///
/// The coordinates are taken innermost first (the array's last dimension is `j = 1`):
/// the differences within one row, one plane, ... are then the first tested, and a
/// time-like outer dimension, whose diagonal entry is usually 1 at the optimum, comes
/// last. The order changes only the speed, not the answer.
pub fn least_admissible_lattice(diffs: &[Vec<i64>], n: usize, hi: i64) -> Result<LeastLattice, SearchStop> {
    assert!(n <= MAX_DIMS && diffs.iter().all(|d| d.len() == n), "least_admissible_lattice: at most {MAX_DIMS} dimensions");
    // In search coordinates (reversed), grouped by their last non-zero coordinate.
    let mut by_top: Vec<Vec<[i64; MAX_DIMS]>> = vec![Vec::new(); n];
    for d in diffs {
        let mut v = [0i64; MAX_DIMS];
        for (i, x) in d.iter().rev().enumerate() {
            v[i] = *x;
        }
        match (0..n).rev().find(|&i| v[i] != 0) {
            Some(top) => by_top[top].push(v),
            // The zero difference is in every lattice.
            None => return Ok(LeastLattice { found: None, nodes: 0 }),
        }
    }
    let mut s = Search { n, by_top, basis: [[0; MAX_DIMS]; MAX_DIMS], bound: hi.saturating_add(1), found: None, nodes: 0 };
    if n == 0 {
        return Ok(LeastLattice { found: Some((1, Vec::new())), nodes: 0 });
    }
    s.level(0, 1)?;
    let found = s.found.map(|(index, basis)| (index, (0..n).map(|j| (0..n).rev().map(|i| basis[n - 1 - j][i]).collect()).collect()));
    Ok(LeastLattice { found, nodes: s.nodes })
}

struct Search {
    n: usize,
    by_top: Vec<Vec<[i64; MAX_DIMS]>>,
    /// `basis[j]` is `b_{j+1}` (search coordinates).
    basis: [[i64; MAX_DIMS]; MAX_DIMS],
    /// Only lattices of index below `bound` are still of interest.
    bound: i64,
    found: Option<(i64, [[i64; MAX_DIMS]; MAX_DIMS])>,
    nodes: u64,
}

impl Search {
    /// Whether `v`, zero beyond coordinate `top`, is in the span of `basis[..=top]`
    /// (triangular solve from the last coordinate down).
    fn contains(&self, mut v: [i64; MAX_DIMS], top: usize) -> bool {
        for i in (0..=top).rev() {
            let h = self.basis[i][i];
            if v[i] % h != 0 {
                return false;
            }
            let c = v[i] / h;
            if c != 0 {
                for (x, b) in v[..=i].iter_mut().zip(&self.basis[i][..=i]) {
                    *x -= c * b;
                }
            }
        }
        true
    }

    /// The position of the class of `w` (coordinates `..j`) in `Z^j / L ∩ (Z^j x 0)`:
    /// `w` reduced into the box `0 <= w_i < h_ii` (from the last coordinate down), read
    /// in the odometer order of [`Search::level`]'s offsets.
    fn class(&self, mut w: [i64; MAX_DIMS], j: usize) -> usize {
        for i in (0..j).rev() {
            let q = w[i].div_euclid(self.basis[i][i]);
            if q != 0 {
                for (x, b) in w[..=i].iter_mut().zip(&self.basis[i][..=i]) {
                    *x -= q * b;
                }
            }
        }
        let (mut pos, mut radix) = (0, 1);
        for (i, x) in w[..j].iter().enumerate() {
            pos += *x as usize * radix;
            radix *= self.basis[i][i] as usize;
        }
        pos
    }

    /// Chooses `basis[j]` given `basis[..j]`, whose diagonal product is `g`.
    fn level(&mut self, j: usize, g: i64) -> Result<(), SearchStop> {
        let mut d = 1;
        let mut excluded = vec![false; g as usize];
        while g * d < self.bound {
            // A difference `v` with top coordinate `j` is in `L ∩ (Z^{j+1} x 0)` iff
            // `d` divides `v_j = m d` and `v - m b_j`, i.e. `(v_..j) - m (offsets)`, is
            // in `L ∩ (Z^j x 0)`. For `m = 1` that is one class of offsets, excluded
            // at once; the few `v` with `m > 1` are tested per offset.
            excluded.iter_mut().for_each(|e| *e = false);
            let mut hits = Vec::new();
            for v in &self.by_top[j] {
                if v[j] == d {
                    let mut w = *v;
                    w[j] = 0;
                    excluded[self.class(w, j)] = true;
                } else if v[j] % d == 0 {
                    hits.push(*v);
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
                let mut b = off;
                b[j] = d;
                self.basis[j] = b;
                if !excluded[pos] && !hits.iter().any(|&v| self.contains(v, j)) {
                    if j + 1 == self.n {
                        self.bound = g * d;
                        self.found = Some((g * d, self.basis));
                        return Ok(());
                    }
                    self.level(j + 1, g * d)?;
                    if g * d >= self.bound {
                        return Ok(());
                    }
                }
                // Next offset vector `0 <= off_i < h_ii`, odometer order.
                pos += 1;
                for i in 0..j {
                    off[i] += 1;
                    if off[i] < self.basis[i][i] {
                        continue 'offsets;
                    }
                    off[i] = 0;
                }
                break;
            }
            d += 1;
        }
        Ok(())
    }
}

/// A modular mapping whose kernel is the lattice spanned by the rows of `basis` (of
/// full rank), as `(hyperplane, modulus)` rows: unimodular row and column operations
/// bring `B` to a diagonal `D = U B V` (Smith's reduction, without the divisibility
/// chain, which only minimises the number of rows); then `x` is in `Z^n B = Z^n D V^-1`
/// iff `(x V)_i = 0 mod d_i` for every `i`, so `x -> ((x . v_i) mod d_i)_i` (`v_i` the
/// columns of `V`) has kernel `L` and `prod d_i = |det B|` cells (001 Sec. 3). Rows
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
                let q = a[i][t] / p;
                for j in t..n {
                    a[i][j] = a[i][j].checked_sub(q.checked_mul(a[t][j])?)?;
                }
                clean &= a[i][t] == 0;
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
        "the least-index strictly admissible lattice for the conflicting differences at one instance, by Hermite-normal-form enumeration (001 Sec. 3, 4.2); valid at that instance only"
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
        let (index, lattice) = search.found.ok_or_else(|| MethodError::Method(format!("no admissible lattice of index at most {hi} (the search's limit is {MAX_INDEX} cells)")))?;
        let rows = kernel_mapping(&lattice).ok_or_else(|| MethodError::Method(format!("the lattice {lattice:?} has no kernel mapping within 64-bit integers")))?;
        let psp = problem.param_space();
        let rows = rows.into_iter().map(|(h, m)| StorageRow { hyperplane: h, modulus: Some(AffExpr::constant(&psp, m)) }).collect();
        let refs: Vec<&str> = params.iter().map(String::as_str).collect();
        let mapping = ModularMapping::new(&refs, problem.array_tuple(), rows)?;
        let details = LatticeExactDetails { at: params.iter().cloned().zip(values.iter().copied()).collect(), differences: diffs.len(), lattice, index, nodes: search.nodes };
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
