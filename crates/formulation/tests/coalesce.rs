//! Exact coalescing ([`Set::coalesce`]) on hand-made unions: the expected piece counts
//! follow from geometry (the union is, or is not, the integer points of one convex
//! polyhedron for every parameter value), and the points are compared with an
//! independent enumeration of the original union or of the expected basic set.

use polyalloc_formulation::{coalesce::coalesce_with_stats, remove_contained, CoalesceMode, Set};
use proptest::prelude::*;

fn pts(s: &Set, params: &[i64]) -> Vec<Vec<i64>> {
    s.enumerate(params, 1_000_000).expect("enumerate")
}

/// Coalesces `text`, checks the piece count and that the points are unchanged at every
/// parameter value in `0..=8` (these sets have at most one parameter).
fn check(text: &str, expected_pieces: usize) -> Set {
    let s = Set::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let c = s.coalesce().unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(c.n_pieces(), expected_pieces, "{text} coalesced into `{c}`");
    let np = s.space().n_param();
    for n in 0..=8 {
        let params = vec![n; np];
        assert_eq!(pts(&c, &params), pts(&s, &params), "points of `{text}` at {params:?}: coalesced `{c}`");
    }
    c
}

#[test]
fn adjacent_boxes_merge_into_their_union() {
    let c = check("{ [i, j] : 0 <= i <= 4 and 0 <= j <= 3; [i, j] : 5 <= i <= 9 and 0 <= j <= 3 }", 1);
    // The union is the box 0..9 x 0..3 (40 points).
    assert_eq!(pts(&c, &[]), pts(&Set::parse("{ [i, j] : 0 <= i <= 9 and 0 <= j <= 3 }").expect("parse"), &[]));
    // Three adjacent slabs along j, listed out of order.
    check("{ [i, j] : 0 <= i <= 4 and 4 <= j <= 5; [i, j] : 0 <= i <= 4 and 0 <= j <= 1; [i, j] : 0 <= i <= 4 and 2 <= j <= 3 }", 1);
}

#[test]
fn nested_boxes_keep_the_outer_one() {
    let c = check("{ [i, j] : 2 <= i <= 3 and 1 <= j <= 2; [i, j] : 0 <= i <= 5 and 0 <= j <= 5 }", 1);
    assert_eq!(pts(&c, &[]).len(), 36);
    // Parametric nesting: 1 <= i <= N - 1 inside 0 <= i <= N for every N.
    check("[N] -> { [i] : 1 <= i <= N - 1; [i] : 0 <= i <= N }", 1);
}

#[test]
fn a_parametric_triangle_split_in_two_is_merged() {
    // The triangle i, j >= 0, i + j <= N cut at i = 3 (the second part is empty for N < 4).
    let c = check("[N] -> { [i, j] : 0 <= i <= 3 and j >= 0 and i + j <= N; [i, j] : i >= 4 and j >= 0 and i + j <= N }", 1);
    let tri = Set::parse("[N] -> { [i, j] : i >= 0 and j >= 0 and i + j <= N }").expect("parse");
    for n in [0, 3, 4, 11, 20] {
        assert_eq!(pts(&c, &[n]), pts(&tri, &[n]), "N = {n}");
    }
}

#[test]
fn non_convex_unions_are_not_merged() {
    // An L shape.
    check("{ [i, j] : 0 <= i <= 4 and 0 <= j <= 1; [i, j] : 0 <= i <= 1 and 0 <= j <= 4 }", 2);
    // Two intervals with a gap.
    check("{ [i] : 0 <= i <= 2; [i] : 4 <= i <= 6 }", 2);
    // Adjacent for N = 3 only: the union is an interval at N = 3 but not at N = 10, so
    // no single basic set has the same points for every N.
    let c = check("[N] -> { [i] : 0 <= i <= 2; [i] : N <= i <= N + 2 }", 2);
    assert_eq!(pts(&c, &[10]).len(), 6);
    // x != y split in two: not convex.
    check("{ [x, y] : 0 <= x, y <= 3 and y >= x + 1; [x, y] : 0 <= x, y <= 3 and y <= x - 1 }", 2);
}

#[test]
fn pieces_equal_up_to_redundant_constraints_become_one() {
    check("{ [i, j] : 0 <= i <= 5 and 0 <= j <= 5 and i + j <= 10; [i, j] : 0 <= i <= 5 and 0 <= j <= 5 }", 1);
    check("[N] -> { [i] : 0 <= i <= N and N >= 0; [i] : 0 <= i <= N and 2i <= 2N + 1 }", 1);
}

#[test]
fn an_equality_extends_an_adjacent_inequality() {
    // i = 0 (a line) next to 1 <= i <= 5: together 0 <= i <= 5.
    let c = check("{ [i, j] : i = 0 and 0 <= j <= 5; [i, j] : 1 <= i <= 5 and 0 <= j <= 5 }", 1);
    assert_eq!(pts(&c, &[]).len(), 36);
    // Two equalities side by side: i = 0 or i = 1 gives 0 <= i <= 1.
    check("[N] -> { [i, j] : i = 0 and 0 <= j <= N; [i, j] : i = 1 and 0 <= j <= N }", 1);
}

#[test]
fn empty_and_duplicate_pieces_are_dropped() {
    let s = Set::parse("{ [i, j] : 0 <= i <= 3 and 0 <= j <= 3; [i, j] : 0 <= i <= 3 and 0 <= j <= 3; [i, j] : i >= 2 and i <= 1 }").expect("parse");
    let (c, stats) = coalesce_with_stats(&s, CoalesceMode::Merge).expect("coalesce");
    assert_eq!(c.n_pieces(), 1);
    assert_eq!(pts(&c, &[]), pts(&s, &[]));
    assert_eq!(stats.output, 1);
    // Rationally non-empty, integer-empty: 1 <= 3i <= 2 has no integer solution.
    check("[N] -> { [i, j] : 1 <= 3i <= 2 and 0 <= j <= N; [i, j] : 5 <= i <= 6 and 0 <= j <= N }", 1);
}

#[test]
fn pieces_with_locals_are_dropped_only_when_contained() {
    // The even numbers of 0..6 are inside 0..10.
    check("{ [i] : exists e : i = 2e and 0 <= i <= 6; [i] : 0 <= i <= 10 }", 1);
    // 0..4 is not contained in the even numbers of 0..10, and a piece with locals is
    // never a container: both stay.
    check("{ [i] : exists e : i = 2e and 0 <= i <= 10; [i] : 0 <= i <= 4 }", 2);
}

#[test]
fn drop_only_mode_drops_but_never_merges() {
    // Nested: the inner box goes; adjacent: both stay (a merge would be needed).
    let nested = Set::parse("{ [i, j] : 2 <= i <= 3 and 1 <= j <= 2; [i, j] : 0 <= i <= 5 and 0 <= j <= 5 }").expect("parse");
    let c = remove_contained(&nested).expect("drop");
    assert_eq!(c.n_pieces(), 1);
    assert_eq!(pts(&c, &[]), pts(&nested, &[]));
    let adjacent = Set::parse("{ [i] : 0 <= i <= 4; [i] : 5 <= i <= 9; [i] : 5 <= i <= 9 and i >= 0; [i] : 2 <= 2i <= 1 }").expect("parse");
    let (c, stats) = coalesce_with_stats(&adjacent, CoalesceMode::DropOnly).expect("drop");
    assert_eq!(c.n_pieces(), 2, "{c}");
    assert_eq!(stats.merged, 0);
    assert_eq!(pts(&c, &[]), pts(&adjacent, &[]));
}

/// Two pieces each inside a larger one, and adjacent to each other: merging them first
/// left 3 pieces where dropping leaves 2 (found by `random_unions_keep_their_points`;
/// proptest's failure file is not read back in this workspace, hence this test).
#[test]
fn merging_never_leaves_more_pieces_than_dropping() {
    let text = "[N] -> { [i, j] : 2 <= i <= N - 1 and j = 2; [i, j] : 2 <= i <= N - 1 and j = 3; [i, j] : 0 <= i <= N and j = 3; \
                [i, j] : 1 <= i <= N and 0 <= j <= 2 }";
    let s = Set::parse(text).expect("parse");
    let (c, d) = (s.coalesce().expect("coalesce"), remove_contained(&s).expect("drop"));
    assert_eq!(d.n_pieces(), 2, "{d}");
    assert!(c.n_pieces() <= d.n_pieces(), "{c}");
    for n in 0..=9 {
        assert_eq!(pts(&c, &[n]), pts(&s, &[n]), "N = {n}");
    }
}

/// Random unions of two to four parametric boxes `a <= i <= N + b`, `c <= j <= d`.
fn random_union() -> impl Strategy<Value = String> {
    prop::collection::vec((0i64..4, -2i64..3, 0i64..4, 0i64..4), 2..5).prop_map(|boxes| {
        let pieces: Vec<String> = boxes.iter().map(|&(a, b, c, d)| format!("[i, j] : {a} <= i <= N + {b} and {c} <= j <= {}", c + d)).collect();
        format!("[N] -> {{ {} }}", pieces.join("; "))
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_unions_keep_their_points(text in random_union()) {
        let s = Set::parse(&text).expect("parse");
        let c = s.coalesce().expect("coalesce");
        let d = remove_contained(&s).expect("drop");
        prop_assert!(c.n_pieces() <= d.n_pieces() && d.n_pieces() <= s.n_pieces());
        for n in 0..=9 {
            prop_assert_eq!(pts(&c, &[n]), pts(&s, &[n]), "{} at N = {} coalesced into {}", text, n, c);
            prop_assert_eq!(pts(&d, &[n]), pts(&s, &[n]), "{} at N = {} reduced to {}", text, n, d);
        }
    }
}
