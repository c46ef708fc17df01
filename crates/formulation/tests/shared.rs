//! The shared-storage (inter-array) checker on the double-buffered 1-D heat stencil of
//! the SMO tool's inter-array examples (`heat1d-double-buffer`): `A0[t, 0, i]` is
//! computed from `A1[t - 1, 1, i - 1 .. i + 1]`, then copied to `A1[t, 1, i]`. The
//! mappings are worked out by hand in the comments; the checker must prove the valid one
//! and refute the invalid ones with a genuine counterexample.

use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_formulation::shared_checker::{check_shared, check_shared_concrete, SharedConcreteVerdict, SharedVerdict};
use polyalloc_formulation::{AffExpr, Checker, InterConflict, InterConflictSet, Map, Set, SharedMapping, SharedPart, Space, Tuple};

const DOM: &str = "0 <= x0 <= N - 1 and 0 <= x1 <= 1 and 0 <= x2 <= N - 1";

fn relation(from: &str, to: &str, body: &str) -> Map {
    let dom_y = DOM.replace('x', "y");
    Map::parse(&format!("[N] -> {{ {from}[x0, x1, x2] -> {to}[y0, y1, y2] : {DOM} and {dom_y} and {body} }}")).expect("relation")
}

fn heat1d() -> (InterConflictSet, Vec<Set>) {
    let arrays = vec![Tuple::new("A0", &["x0", "x1", "x2"]), Tuple::new("A1", &["x0", "x1", "x2"])];
    let rels = vec![
        InterConflict { from: 0, to: 0, relation: relation("A0", "A0", "x0 = y0 and x1 = 0 and y1 = 0 and x2 < y2") },
        InterConflict { from: 0, to: 1, relation: relation("A0", "A1", "x0 = y0 and x1 = 0 and y1 = 1 and x2 > y2") },
        InterConflict { from: 1, to: 1, relation: relation("A1", "A1", "x0 = y0 and x1 = 1 and y1 = 1 and x2 < y2") },
        InterConflict { from: 1, to: 0, relation: relation("A1", "A0", "x0 = y0 - 1 and x1 = 1 and y1 = 0 and x2 >= y2") },
    ];
    let spaces = ["A0", "A1"].iter().map(|a| Set::parse(&format!("[N] -> {{ {a}[x0, x1, x2] : {DOM} }}")).expect("space")).collect();
    (InterConflictSet::new(&["N".to_string()], arrays, rels).expect("conflict set"), spaces)
}

/// Every array with the same hyperplane `h` and its own offset, modulus `m`.
fn mapping(h: [i64; 3], offsets: [i64; 2], m: &str) -> SharedMapping {
    let psp = Space::set(&["N"], Tuple::anonymous(&[]));
    let parts = ["A0", "A1"]
        .iter()
        .zip(offsets)
        .map(|(a, o)| SharedPart { array: Tuple::new(*a, &["x0", "x1", "x2"]), hyperplanes: vec![h.to_vec()], offsets: vec![o] })
        .collect();
    SharedMapping::new(&["N"], "S", vec![AffExpr::parse(&psp, m).expect("modulus")], parts).expect("mapping")
}

#[test]
fn a_rolling_buffer_of_n_plus_one_cells_is_proven() {
    // (i - t) mod (N + 1) for both arrays: the differences of the location values are
    // x2 - y2 in [-(N-1), -1] (intra), x2 - y2 in [1, N - 1] (A0 -> A1, same t) and
    // 1 + x2 - y2 in [1, N] (A1 at t - 1 -> A0 at t): never 0, always below N + 1.
    let (cs, spaces) = heat1d();
    let m = mapping([-1, 0, 1], [0, 0], "N + 1");
    assert_eq!(m.to_string(), "A0[x0, x1, x2] -> S[(x2 - x0) mod (N + 1)]; A1[x0, x1, x2] -> S[(x2 - x0) mod (N + 1)]");
    assert_eq!(m.size().expect("size").to_string(), "N + 1");
    let solver = MicrolpSolver;
    let v = check_shared(&Checker::new(&solver), &cs, &m, Some(&spaces), None, &[vec![4]]).expect("check");
    assert_eq!(v, SharedVerdict::Proven);
    for n in 1..=6 {
        assert!(matches!(check_shared_concrete(&cs, &m, &[n], usize::MAX).expect("concrete"), SharedConcreteVerdict::Valid { .. }));
    }
}

#[test]
fn one_cell_less_is_refuted_with_a_real_collision() {
    // Modulus N: A1[t - 1, 1, N - 1] and A0[t, 0, 0] differ by N.
    let (cs, spaces) = heat1d();
    let m = mapping([-1, 0, 1], [0, 0], "N");
    let solver = MicrolpSolver;
    let SharedVerdict::Refuted(c) = check_shared(&Checker::new(&solver), &cs, &m, Some(&spaces), None, &[]).expect("check") else {
        panic!("not refuted")
    };
    // The witness is a conflicting pair of the file's relations that really collides.
    let rel = cs.relations.iter().find(|r| cs.array_names()[r.from] == c.array_a && cs.array_names()[r.to] == c.array_b).expect("relation");
    let mut pt = c.cell_a.clone();
    pt.extend(&c.cell_b);
    assert!(rel.relation.contains(&c.params, &pt).expect("contains"), "{c:?} is not a conflict");
    let moduli = m.moduli_at(&c.params).expect("moduli");
    let (ia, _) = m.part(&c.array_a).expect("part");
    let (ib, _) = m.part(&c.array_b).expect("part");
    assert_eq!(m.locate_with(ia, &moduli, &c.cell_a).expect("a"), c.location);
    assert_eq!(m.locate_with(ib, &moduli, &c.cell_b).expect("b"), c.location);
    assert!(matches!(check_shared_concrete(&cs, &m, &[3], usize::MAX).expect("concrete"), SharedConcreteVerdict::Invalid(_)));
}

#[test]
fn the_same_storage_without_the_time_skew_is_refuted() {
    // i mod N for both arrays: A1[t - 1, 1, i] and A0[t, 0, i] (a conflict: A0[t, 0, i]
    // is written while A1[t - 1, 1, i] is still to be read) share cell i.
    let (cs, spaces) = heat1d();
    let solver = MicrolpSolver;
    let m = mapping([0, 0, 1], [0, 0], "N");
    let v = check_shared(&Checker::new(&solver), &cs, &m, Some(&spaces), None, &[]).expect("check");
    let SharedVerdict::Refuted(c) = v else { panic!("not refuted: {v:?}") };
    assert_ne!(c.array_a, c.array_b, "the intra-array conflicts are all separated: {c:?}");
    // An offset of 1 for A1 instead: A0[t, 0, i] and A1[t, 1, i - 1] (same t) collide.
    let m = mapping([0, 0, 1], [0, 1], "N + 1");
    assert!(matches!(check_shared(&Checker::new(&solver), &cs, &m, Some(&spaces), None, &[]).expect("check"), SharedVerdict::Refuted(_)));
}

#[test]
fn a_modulus_must_be_positive_wherever_an_array_has_cells() {
    let (cs, spaces) = heat1d();
    let solver = MicrolpSolver;
    // N - 1 is 0 at N = 1, where the arrays have cells (and no conflict at all).
    let m = mapping([-1, 0, 1], [0, 0], "N - 1");
    let v = check_shared(&Checker::new(&solver), &cs, &m, Some(&spaces), None, &[]).expect("check");
    let SharedVerdict::NonPositiveModulus { row: 0, params } = v else { panic!("{v:?}") };
    assert!(params[0] <= 1, "{params:?}");
}

#[test]
fn malformed_shared_mappings_are_errors() {
    let psp = Space::set(&["N"], Tuple::anonymous(&[]));
    let e = AffExpr::parse(&psp, "N").expect("modulus");
    let part = |a: &str, h: Vec<i64>| SharedPart { array: Tuple::new(a, &["x0", "x1", "x2"]), hyperplanes: vec![h], offsets: vec![0] };
    assert!(SharedMapping::new(&["N"], "S", vec![e.clone()], vec![part("A0", vec![1, 0])]).is_err(), "wrong arity");
    assert!(SharedMapping::new(&["N"], "S", vec![e.clone()], vec![part("A0", vec![1, 0, 0]), part("A0", vec![0, 0, 1])]).is_err(), "two parts");
    // A mapping without a part for one of the arrays is an error, not a verdict.
    let (cs, _) = heat1d();
    let m = SharedMapping::new(&["N"], "S", vec![e], vec![part("A0", vec![0, 0, 1])]).expect("one part");
    let solver = MicrolpSolver;
    assert!(check_shared(&Checker::new(&solver), &cs, &m, None, None, &[]).is_err());
}
