//! Where a modular mapping provably cannot reach max-live. The cells a
//! modular mapping `x -> (M x) mod e` puts together differ by a vector of its kernel
//! lattice `L = { d : M d = 0 mod e }`, and it has at least `|Z^n / L|` (the index of
//! `L`) cells; conversely every lattice of index `k` is the kernel of a mapping of `k`
//! cells (Smith form; Darte et al. 2015, Sec. 3). So the smallest valid modular mapping at an instance
//! has the smallest index of a lattice containing no conflicting difference, found here
//! by enumerating the lattices of `Z^n` in Hermite normal form ([`least_lattice`]);
//! [`smallest_lattice_index`], the plain 2-d enumeration, is its reference in 2-d, and
//! a pruning-free enumeration with an independent membership test in 3-d and 4-d.
//!
//! Of the examples whose best parametric mapping is above 1.10 x max-live at their
//! largest instance (results/REPORT.md, "Distance to the limit"), only the hex tile is
//! out of reach of modular mappings; at the others (tiled heat-2d, LBM D3Q19 and D3Q27,
//! Thies et al. 2007, example 3) a modular mapping of exactly max-live cells exists, so the gap of
//! the parametric methods comes from the form of their mappings (constant hyperplanes,
//! moduli affine in the parameters), not from the modular form. The search is the
//! method `lattice-exact` (`polyalloc_alloc_lattice::exact`), which returns that
//! mapping at one instance; the last tests run it through the facade.

use polyalloc::fuzz::gen::Rng;
use polyalloc::limit::max_live;
use polyalloc::{Input, Problem};
use polyalloc_alloc_lattice::exact::{self, least_admissible_lattice};
use polyalloc_formulation::checker::ConcreteVerdict;
use polyalloc_formulation::int::lin::determinant;
use polyalloc_formulation::{check_concrete, AffExpr, ModularMapping, StorageRow};
use polyalloc_tests::PAIR_LIMIT;
use std::collections::{BTreeMap, BTreeSet};

fn example(id: &str) -> Input {
    polyalloc::load(&polyalloc::suite_dir().join(format!("{id}.json"))).expect("bench-suite file")
}

/// The conflicting differences of `array` of `id` at instance `values`.
fn differences(id: &str, array: &str, values: &[i64]) -> Vec<Vec<i64>> {
    problem_differences(&example(id).problem(array).expect("problem"), values)
}

/// The conflicting differences `x - y` of the conflict pairs of `problem` at `values`
/// (in its parameter order), reduced by [`reduce`].
fn problem_differences(problem: &Problem, values: &[i64]) -> Vec<Vec<i64>> {
    let sym = problem.conflicts.symmetric().expect("symmetric");
    let pairs = polyalloc_tests::pairs(&sym, values).expect("enumerates").expect("few pairs");
    let n = problem.n_dims();
    reduce(pairs.into_iter().map(|p| (0..n).map(|i| p[i] - p[n + i]).collect()))
}

/// One of each `{d, -d}` (the one whose first non-zero coordinate is positive: a
/// lattice contains `d` iff it contains `-d`), zero dropped, sorted, no repeat.
fn reduce(diffs: impl IntoIterator<Item = Vec<i64>>) -> Vec<Vec<i64>> {
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

/// The least lattice avoiding `diffs` with index at most `hi` (the crate's search,
/// `polyalloc_alloc_lattice::exact`, which the tests below compare with plain
/// enumerations).
fn least_lattice(diffs: &[Vec<i64>], n: usize, hi: i64) -> Option<(i64, Vec<Vec<i64>>)> {
    least_admissible_lattice(diffs, n, hi).unwrap_or_else(|_| panic!("search limit")).found
}

/// The smallest index of a 2-d lattice containing no difference of `diffs`, at most `hi`:
/// every lattice `{ u (a, 0) + v (b, c) }`, `a c = k`, `0 <= b < a`, of each index `k`.
fn smallest_lattice_index(diffs: &[Vec<i64>], hi: i64) -> Option<i64> {
    (1..=hi).find(|&k| {
        (1..=k).filter(|a| k % a == 0).any(|a| {
            let c = k / a;
            (0..a).any(|b| !diffs.iter().any(|d| d[1] % c == 0 && (d[0] - b * (d[1] / c)) % a == 0))
        })
    })
}

/// Hex tile (Bhaskaracharya et al. 2016, Sec. 5): max-live `5B - 4` (`crates/polyalloc/tests/max_live.rs`), but
/// no modular mapping has fewer than `6B - 6` cells, more than 1.10 x max-live for every
/// `B >= 4`: the target is out of reach of modular mappings here.
#[test]
fn hex_tile_no_modular_mapping_within_ten_percent_of_max_live() {
    for b in [4i64, 5, 6] {
        let d = differences("smo-stencil-1d-hex-tile", "AB", &[b]);
        let k = smallest_lattice_index(&d, 10 * b).expect("a lattice");
        assert_eq!(k, 6 * b - 6, "B = {b}");
        assert!(k as f64 > 1.10 * (5 * b - 4) as f64);
    }
}

/// Diamond tile (Bhaskaracharya et al. 2016, Sec. 4, Fig. 7): a lattice of index max-live `4B - 4` avoids every
/// conflict, so only the form of polyalloc's mappings (constant hyperplanes, affine
/// moduli) separates them from the limit.
#[test]
fn diamond_tile_lattice_reaches_max_live() {
    for b in [4i64, 5, 6] {
        let d = differences("smo-diamond-tile", "AB", &[b]);
        assert_eq!(smallest_lattice_index(&d, 10 * b), Some(4 * b - 4), "B = {b}");
    }
}

/// The crate's mapping of a lattice (`polyalloc_alloc_lattice::exact::kernel_mapping`).
fn kernel_mapping(basis: &[Vec<i64>]) -> Vec<(Vec<i64>, i64)> {
    exact::kernel_mapping(basis).expect("a basis of full rank")
}

/// The modular mapping of `problem`'s array with the given constant rows.
fn modular_mapping(problem: &Problem, rows: &[(Vec<i64>, i64)]) -> ModularMapping {
    let space = problem.conflicts.relation.space();
    let pspace = problem.param_space();
    let rows = rows.iter().map(|(h, d)| StorageRow { hyperplane: h.clone(), modulus: Some(AffExpr::constant(&pspace, *d)) }).collect();
    let params: Vec<&str> = space.params.iter().map(String::as_str).collect();
    ModularMapping::new(&params, space.input.clone().expect("a relation"), rows).expect("mapping")
}

/// At the largest instance of `array` of `id` (the one the report uses): max-live
/// (`polyalloc::limit`), and the least index of a lattice avoiding every conflicting
/// difference there when it is at most 1.10 x max-live, with a modular mapping of that
/// many cells (from the lattice, [`kernel_mapping`]) that the exact checker finds valid.
fn least_mapping_within_ten_percent(id: &str, array: &str) -> (BTreeMap<String, i64>, i64, Option<(i64, ModularMapping)>) {
    let input = example(id);
    let at = input.size_point().expect("an instance");
    let ml = max_live(&input, array, Some(&at)).expect("max-live").value as i64;
    let problem = input.problem(array).expect("problem");
    let values: Vec<i64> = problem.params().iter().map(|p| at[p]).collect();
    let diffs = problem_differences(&problem, &values);
    let Some((k, basis)) = least_lattice(&diffs, problem.n_dims(), 11 * ml / 10) else { return (at, ml, None) };
    let mapping = modular_mapping(&problem, &kernel_mapping(&basis));
    assert_eq!(mapping.size_for(&values).expect("size"), k as i128, "{id}: {mapping} from {basis:?}");
    match check_concrete(&problem.conflicts, &mapping, &values, PAIR_LIMIT).expect("checks") {
        ConcreteVerdict::Valid { .. } => {}
        other => panic!("{id}: {mapping} (lattice {basis:?}) is invalid: {other:?}"),
    }
    println!("{id} at {at:?}: max-live {ml}, least lattice index {k}: {basis:?}, {mapping}");
    (at, ml, Some((k, mapping)))
}

/// Asserts that at the largest instance of each of `ids` a modular mapping of exactly
/// max-live cells exists: the search finds a lattice of index at most max-live with
/// no conflicting difference, checked valid as a mapping; none has fewer cells, as
/// max-live bounds every valid mapping (the cells live at one time pairwise conflict).
fn assert_reaches_max_live(ids: &[&str], array: &str) {
    for id in ids {
        let (at, ml, found) = least_mapping_within_ten_percent(id, array);
        let (k, mapping) = found.unwrap_or_else(|| panic!("{id} at {at:?}: no lattice of index <= 1.10 x max-live {ml}"));
        assert!(k >= ml, "{id} at {at:?}: {mapping} has fewer cells ({k}) than max-live {ml}");
        assert_eq!(k, ml, "{id} at {at:?}: least lattice index vs max-live ({mapping})");
    }
}

/// Tiled heat-2d (Darte et al. 2015, Table 1, reconstructed tile; `B = 8`): polyalloc's best, Darte et al. 2015's
/// lattice mapping `A[(i - t) mod (3B - 2), j mod (2B - 1)]`, has 1.27 x max-live cells
/// (results/REPORT.md), but a modular mapping of max-live cells exists: the gap is the
/// form of polyalloc's mappings (hyperplanes constant, moduli affine in `B`), not the
/// modular form. The least lattices show no parametric pattern over `B = 3 .. 8`: for
/// odd `B` some are cyclic (`A[(7t + j - 7i) mod 25]` at `B = 3`), for even `B` none with
/// `j`'s coefficient 1 is (`A[(t + i) mod 2, (41t + j - 41i) mod 130]` at `B = 8`).
#[test]
fn heat_2d_tiled_modular_mapping_reaches_max_live() {
    assert_reaches_max_live(&["lattice-heat-2d-tiled"], "A");
}

/// `A[(N^3 t + N^2 i + N j + k) mod m]`, the sequential time of the lexicographic
/// schedule modulo `m`, checked valid by the exact checker and of `m` = max-live cells at
/// every instance of `id`.
fn assert_linearised_time_reaches_max_live(id: &str, m: impl Fn(i64) -> i64) {
    let input = example(id);
    let problem = input.problem("A").expect("problem");
    for at in &input.example.instances {
        let n = at["N"];
        let mapping = modular_mapping(&problem, &[(vec![n * n * n, n * n, n, 1], m(n))]);
        let verdict = check_concrete(&problem.conflicts, &mapping, &[n], PAIR_LIMIT).expect("checks");
        assert!(matches!(verdict, ConcreteVerdict::Valid { .. }), "{id} N = {n}: {mapping}: {verdict:?}");
        assert_eq!(m(n) as u64, max_live(&input, "A", Some(at)).expect("max-live").value, "{id} N = {n}");
    }
}

/// LBM D3Q19 (Bhaskaracharya et al. 2016, Table I, `N = 5`): the best recorded, SMO's `A[(i - 2t) mod (N + 2),
/// j mod N, k mod N]`, has 1.13 x max-live cells, but a modular mapping of max-live
/// cells exists (the lattice- and smo- files share the conflict set). It is the rolling
/// buffer of the sequential schedule: a value is written at time `N^3 t + N^2 i + N j +
/// k` and last read by `(t + 1, i + 1, j + 1, k)`, `N^3 + N^2 + N` later, so that time
/// modulo `N^3 + N^2 + N` separates every conflicting pair. Parametric, but its
/// hyperplane's coefficients grow with `N` and its modulus is cubic: outside the form
/// of polyalloc's mappings (constant hyperplanes, moduli affine in the parameters).
#[test]
fn lbm_d3q19_modular_mapping_reaches_max_live() {
    assert_reaches_max_live(&["smo-lbm-d3q19", "lattice-lbm-d3q19"], "A");
    assert_linearised_time_reaches_max_live("smo-lbm-d3q19", |n| n * n * n + n * n + n);
}

/// LBM D3Q27 (Bhaskaracharya et al. 2016, Table I, `N = 5`): as D3Q19, SMO's mapping has 1.12 x max-live
/// cells, and a modular mapping of max-live cells exists: the rolling buffer of the
/// sequential schedule, whose last reader `(t + 1, i + 1, j + 1, k + 1)` comes
/// `N^3 + N^2 + N + 1` after the write.
#[test]
fn lbm_d3q27_modular_mapping_reaches_max_live() {
    assert_reaches_max_live(&["smo-lbm-d3q27", "lattice-lbm-d3q27"], "A");
    assert_linearised_time_reaches_max_live("smo-lbm-d3q27", |n| n * n * n + n * n + n + 1);
}

/// Thies et al. 2007, example 3 (`imax = jmax = kmax = 6`, max-live the largest clique): the best
/// recorded (the lattice method) has 1.40 x max-live cells, but a modular mapping of
/// max-live cells exists (`A[(8i - 9j + k) mod 73]`). Max-live counts the cells of a
/// few anti-diagonal planes of the wavefront `i + j + k` clipped by the box, not a
/// polynomial in the sizes, and the least lattices change shape from instance to
/// instance (`A[(j - i) mod 4, (k - i) mod 4]` at size 3): no parametric pattern.
#[test]
fn ov_example3_modular_mapping_reaches_max_live() {
    assert_reaches_max_live(&["ov-example3"], "A");
}

/// The n-d search finds the 2-d enumeration's least index on the two tiles.
#[test]
fn nd_search_agrees_with_the_2d_enumeration_on_the_tiles() {
    for b in [4i64, 5, 6] {
        for id in ["smo-stencil-1d-hex-tile", "smo-diamond-tile"] {
            let d = differences(id, "AB", &[b]);
            assert_eq!(least_lattice(&d, 2, 10 * b).map(|l| l.0), smallest_lattice_index(&d, 10 * b), "{id} B = {b}");
        }
    }
}

/// `m` random vectors of `n` coordinates in `[-r, r]`.
fn random_vectors(rng: &mut Rng, m: i64, n: usize, r: i64) -> Vec<Vec<i64>> {
    (0..m).map(|_| (0..n).map(|_| rng.range(-r, r)).collect()).collect()
}

/// The determinant of a small integer matrix (the formulation crate's, exact).
fn det(a: &[Vec<i64>]) -> i64 {
    determinant(a).expect("small determinant")
}

/// Whether `v` is an integer combination of the rows of `b` (of full rank), by the
/// adjugate: `v = c B` with `c = v adj(B) / det(B)`, integral iff `det(B)` divides
/// every `(v adj(B))_j`, where `adj(B)_ij` is the cofactor of `B_ji`.
fn in_lattice(b: &[Vec<i64>], v: &[i64]) -> bool {
    let n = b.len();
    let d = det(b);
    let cofactor = |i: usize, j: usize| {
        let minor: Vec<Vec<i64>> = (0..n).filter(|&r| r != i).map(|r| (0..n).filter(|&c| c != j).map(|c| b[r][c]).collect()).collect();
        if (i + j) % 2 == 0 {
            det(&minor)
        } else {
            -det(&minor)
        }
    };
    (0..n).all(|j| (0..n).map(|i| v[i] * cofactor(j, i)).sum::<i64>() % d == 0)
}

/// Every lattice of index `k` of `Z^n`, by its basis in the lower-triangular Hermite
/// form (row `i` is `(h_i1, .., h_ii, 0, ..)`, `0 <= h_ij < h_jj`): the plain
/// enumeration the pruned search is compared with.
fn all_lattices(n: usize, k: i64) -> Vec<Vec<Vec<i64>>> {
    fn diagonals(n: usize, k: i64) -> Vec<Vec<i64>> {
        if n == 0 {
            return if k == 1 { vec![vec![]] } else { vec![] };
        }
        (1..=k).filter(|d| k % d == 0).flat_map(|d| diagonals(n - 1, k / d).into_iter().map(move |mut r| (r.insert(0, d), r).1)).collect()
    }
    let mut out = Vec::new();
    for diag in diagonals(n, k) {
        // The free entries `(i, j)`, `j < i`, each in `0 .. diag[j]`.
        let free: Vec<(usize, usize)> = (0..n).flat_map(|i| (0..i).map(move |j| (i, j))).collect();
        let mut vals = vec![0i64; free.len()];
        'all: loop {
            let mut b: Vec<Vec<i64>> = (0..n).map(|i| (0..n).map(|j| if i == j { diag[i] } else { 0 }).collect()).collect();
            for (&(i, j), &x) in free.iter().zip(&vals) {
                b[i][j] = x;
            }
            out.push(b);
            for (p, &(_, j)) in free.iter().enumerate() {
                vals[p] += 1;
                if vals[p] < diag[j] {
                    continue 'all;
                }
                vals[p] = 0;
            }
            break;
        }
    }
    out
}

/// On random difference sets in 2, 3 and 4 dimensions the pruned search returns the
/// least index of the plain enumeration (2-d: [`smallest_lattice_index`]; 3-d, 4-d:
/// [`all_lattices`] with the adjugate membership test), and its lattice has that index
/// and avoids every difference.
#[test]
fn nd_search_agrees_with_plain_enumeration_on_random_differences() {
    let mut rng = Rng::new(18);
    let mut nontrivial = 0;
    for (n, sets, r, hi) in [(2usize, 300, 6, 40i64), (3, 100, 3, 24), (4, 40, 2, 12)] {
        for _ in 0..sets {
            let m = rng.range(1, 4 * n as i64);
            let diffs = reduce(random_vectors(&mut rng, m, n, r));
            let found = least_lattice(&diffs, n, hi);
            let plain = if n == 2 {
                smallest_lattice_index(&diffs, hi)
            } else {
                (1..=hi).find(|&k| all_lattices(n, k).iter().any(|b| diffs.iter().all(|d| !in_lattice(b, d))))
            };
            assert_eq!(found.as_ref().map(|l| l.0), plain, "{diffs:?}");
            if let Some((k, basis)) = found {
                assert_eq!(det(&basis).abs(), k, "{basis:?}");
                assert!(diffs.iter().all(|d| !in_lattice(&basis, d)), "{basis:?} contains a difference of {diffs:?}");
                nontrivial += usize::from(k > 2);
            }
        }
    }
    assert!(nontrivial > 100, "the random sets are too easy: {nontrivial}");
}

/// The mapping of a lattice has it as kernel and its index as size, on random bases.
#[test]
fn kernel_mapping_has_the_lattice_as_kernel() {
    let mut rng = Rng::new(7);
    for n in [2usize, 3, 4] {
        for _ in 0..50 {
            let b = random_vectors(&mut rng, n as i64, n, 4);
            let k = det(&b).abs();
            if k == 0 {
                continue;
            }
            let rows = kernel_mapping(&b);
            assert_eq!(rows.iter().map(|r| r.1).product::<i64>(), k, "{b:?}");
            let combinations: Vec<Vec<i64>> =
                random_vectors(&mut rng, 20, n, 3).iter().map(|c| (0..n).map(|j| (0..n).map(|i| c[i] * b[i][j]).sum()).collect()).collect();
            for x in random_vectors(&mut rng, 30, n, 6).into_iter().chain(combinations) {
                let zero = rows.iter().all(|(h, d)| h.iter().zip(&x).map(|(a, b)| a * b).sum::<i64>() % d == 0);
                assert_eq!(zero, in_lattice(&b, &x), "{b:?} {x:?} {rows:?}");
            }
        }
    }
}

/// `lattice-exact` through the facade at the largest instance of `id`: a mapping of
/// `expected` cells whose kernel has the least index this file's search finds on its
/// own enumeration of the differences, verified at that instance only (the record says
/// `instances`, with that instance), and not valid at the other instance `other`: the
/// restriction is not a formality.
fn lattice_exact_at_the_largest_instance(id: &str, array: &str, expected: i64, other: &[i64]) {
    let input = example(id);
    let at = input.size_point().expect("an instance");
    let problem = input.problem(array).expect("problem");
    let values: Vec<i64> = problem.params().iter().map(|p| at[p]).collect();
    let method = polyalloc::registry().get("lattice-exact").expect("registered");
    let backend = polyalloc::backend("microlp").expect("backend");
    let v = polyalloc::run(&input, method, array, &backend, polyalloc::RunOptions::default()).unwrap_or_else(|e| panic!("{id}: {e}"));
    let mapping = v.outcome.mapping.as_ref().expect("a mapping");
    let size = mapping.size_for(&values).expect("size");
    assert_eq!(size, expected as i128, "{id}: {mapping}");
    let diffs = problem_differences(&problem, &values);
    assert_eq!(least_lattice(&diffs, problem.n_dims(), 2 * expected).map(|l| l.0), Some(expected), "{id}");
    match &v.verification {
        polyalloc::Verification::Instances { instances, reason } => {
            assert_eq!(instances, &vec![values.clone()], "{id}: {reason}");
        }
        polyalloc::Verification::Proven => panic!("{id}: an instance-specific mapping reported as proven for every size"),
    }
    let verdict = check_concrete(&problem.conflicts, mapping, other, PAIR_LIMIT).expect("checks");
    assert!(matches!(verdict, ConcreteVerdict::Invalid(_)), "{id}: {mapping} also holds at {other:?}");
}

/// Bhaskaracharya et al. 2016, Table I's LBM D3Q19 at `N = 5`: `lattice-exact` reaches max-live (155, computed
/// by `polyalloc::limit`), where SMO's parametric mapping has 175 cells.
#[test]
fn lattice_exact_reaches_max_live_on_lbm_d3q19() {
    let input = example("smo-lbm-d3q19");
    let at = input.size_point().expect("an instance");
    let ml = max_live(&input, "A", Some(&at)).expect("max-live").value as i64;
    lattice_exact_at_the_largest_instance("smo-lbm-d3q19", "A", ml, &[7]);
}

/// The hex tile at `B = 16`: `lattice-exact` finds the least index `6B - 6 = 90` (above
/// max-live `5B - 4 = 76`: no modular mapping reaches it, as tested above).
#[test]
fn lattice_exact_on_the_hex_tile_is_six_b_minus_six() {
    lattice_exact_at_the_largest_instance("smo-stencil-1d-hex-tile", "AB", 6 * 16 - 6, &[24]);
}

/// `best` at the largest instance of LBM D3Q27 returns a mapping of max-live cells
/// (`lattice-exact`'s), verified at that instance only; every parametric candidate is
/// larger there.
#[test]
fn best_reaches_max_live_on_lbm_d3q27() {
    let input = example("smo-lbm-d3q27");
    let at = input.size_point().expect("an instance");
    let ml = max_live(&input, "A", Some(&at)).expect("max-live").value as i128;
    let best = polyalloc::registry().get("best").expect("registered");
    let backend = polyalloc::backend("microlp").expect("backend");
    let v = polyalloc::run(&input, best, "A", &backend, polyalloc::RunOptions::default()).expect("best");
    let details: polyalloc::best::BestDetails =
        serde_json::from_value(serde_json::Value::Object(v.outcome.details.clone().into_iter().collect())).expect("best details");
    assert_eq!(details.winner, "lattice-exact");
    let winner = details.candidates.iter().find(|c| c.method == details.winner).expect("the winner is a candidate");
    assert_eq!(winner.size_at, Some(ml));
    assert!(details.candidates.iter().filter(|c| c.method != "lattice-exact").all(|c| c.size_at.is_none_or(|s| s > ml)), "{:?}", details.candidates);
    assert!(matches!(v.verification, polyalloc::Verification::Instances { .. }));
}

/// An instance outside the example's context (`N >= 3`) is bad input, not a mapping
/// proven over an empty context.
#[test]
fn lattice_exact_refuses_an_instance_outside_the_context() {
    let input = example("smo-lbm-d3q19").with_instance(BTreeMap::from([("N".to_string(), 2)]));
    let method = polyalloc::registry().get("lattice-exact").expect("registered");
    let backend = polyalloc::backend("microlp").expect("backend");
    let e = polyalloc::run(&input, method, "A", &backend, polyalloc::RunOptions::default()).expect_err("outside the context");
    assert!(matches!(e.failure, polyalloc::Failure::Method(polyalloc::MethodError::BadInput(_))), "{e}");
}

/// On a tie `best` keeps the parametric mapping: on produce-consume SMO's
/// `A[(i - t) mod (2N - 1)]` has as many cells as the least lattice at the largest
/// instance, and `best` returns SMO's, proven for every size.
#[test]
fn best_prefers_a_parametric_mapping_on_a_tie() {
    let input = example("smo-produce-consume");
    let best = polyalloc::registry().get("best").expect("registered");
    let backend = polyalloc::backend("microlp").expect("backend");
    let v = polyalloc::run(&input, best, "A", &backend, polyalloc::RunOptions::default()).expect("best");
    let details: polyalloc::best::BestDetails =
        serde_json::from_value(serde_json::Value::Object(v.outcome.details.clone().into_iter().collect())).expect("best details");
    let size = |m: &str| details.candidates.iter().find(|c| c.method == m).and_then(|c| c.size_at);
    assert_eq!(size("lattice-exact"), size("smo"), "{:?}", details.candidates);
    assert_eq!(details.winner, "smo");
    assert_eq!(v.verification, polyalloc::Verification::Proven);
}
