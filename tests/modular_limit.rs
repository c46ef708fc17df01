//! Where a modular mapping provably cannot reach max-live (issue 18). The cells a
//! modular mapping `x -> (M x) mod e` puts together differ by a vector of its kernel
//! lattice `L = { d : M d = 0 mod e }`, and it has at least `|Z^n / L|` (the index of
//! `L`) cells; conversely every lattice of index `k` is the kernel of a mapping of `k`
//! cells (Smith form; 001 Sec. 3). So the smallest valid modular mapping at an instance
//! has the smallest index of a lattice containing no conflicting difference, found here
//! by enumerating every 2-d lattice of each index in Hermite normal form
//! (`{ u (a, 0) + v (b, c) }`, `a c = k`, `0 <= b < a`), smallest index first.

use polyalloc_suite::{default_dir, load_dir};
use std::collections::BTreeSet;

/// The conflicting differences of `array` of `id` at instance `values`.
fn differences(id: &str, array: &str, values: &[i64]) -> BTreeSet<(i64, i64)> {
    let ex = load_dir(&default_dir()).expect("bench-suite").into_iter().find(|e| e.id == id).expect("file");
    let problem = ex.problem(array).expect("problem");
    let sym = problem.conflicts.symmetric().expect("symmetric");
    let pairs = polyalloc_tests::pairs(&sym, values).expect("enumerates").expect("few pairs");
    pairs.into_iter().filter(|p| p[..2] != p[2..]).map(|p| (p[0] - p[2], p[1] - p[3])).collect()
}

/// The smallest index of a 2-d lattice containing no difference of `diffs`, at most `hi`.
fn smallest_lattice_index(diffs: &BTreeSet<(i64, i64)>, hi: i64) -> Option<i64> {
    (1..=hi).find(|&k| {
        (1..=k).filter(|a| k % a == 0).any(|a| {
            let c = k / a;
            (0..a).any(|b| !diffs.iter().any(|&(d0, d1)| d1 % c == 0 && (d0 - b * (d1 / c)) % a == 0))
        })
    })
}

/// Hex tile (004 Sec. 5): max-live `5B - 4` (`crates/polyalloc/tests/max_live.rs`), but
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

/// Diamond tile (004 Sec. 4, Fig. 7): a lattice of index max-live `4B - 4` avoids every
/// conflict, so only the form of polyalloc's mappings (constant hyperplanes, affine
/// moduli) separates them from the limit.
#[test]
fn diamond_tile_lattice_reaches_max_live() {
    for b in [4i64, 5, 6] {
        let d = differences("smo-diamond-tile", "AB", &[b]);
        assert_eq!(smallest_lattice_index(&d, 10 * b), Some(4 * b - 4), "B = {b}");
    }
}
