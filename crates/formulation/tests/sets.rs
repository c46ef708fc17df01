//! Parser, printer, set operations, Fourier–Motzkin and emptiness, checked against
//! brute-force enumeration.

use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_formulation::{BasicSet, Error, Map, Set};
use proptest::prelude::*;
use std::collections::BTreeSet;

fn pts(s: &Set, params: &[i64]) -> Vec<Vec<i64>> {
    s.enumerate(params, 1_000_000).expect("enumerate")
}

const ROUND_TRIP: &[&str] = &[
    "[N] -> { A[t, i] -> A[t2, i2] : 1 <= t, i, t2, i2 <= N and ((t2 = t and i2 >= i + 1) or (t2 = t + 1 and i2 <= i - 1) or (t2 >= t + 1 and i = N)) }",
    "[N, B] -> { S[i, j] : 0 <= i < N and 0 <= j < B and exists e: i = 2e }",
    "[N] -> { [i] : 0 <= i <= N and i mod 3 = 1 }",
    "[N] -> { [i, j] : 0 <= i, j < N and floor((i + j)/2) = 1 }",
    "{ A[i] -> B[i + 1] : 0 <= i <= 5 }",
    "[N] -> { A[i] : 0 <= i < N and i != 3; A[i] : i = 2N }",
    "[N] -> { : N >= 2 }",
    "{ [x, y] : exists (a, b : x = 3a + 1 and y = 2b and 0 <= x, y <= 10) }",
    "{ [i] : false }",
];

#[test]
fn print_then_parse_gives_back_the_same_set() {
    for text in ROUND_TRIP {
        let s = Set::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let printed = s.to_string();
        let back = Set::parse(&printed).unwrap_or_else(|e| panic!("re-parse of `{printed}`: {e}"));
        if s.n_pieces() > 0 {
            assert_eq!(back, s, "structural round trip of `{text}` via `{printed}`");
        }
        let np = s.space().n_param();
        if s.space().n_dim() > 0 || np > 0 {
            for n in 0..6 {
                let params = vec![n; np];
                assert_eq!(pts(&back, &params), pts(&s, &params), "points of `{text}` via `{printed}`");
            }
        }
    }
}

#[test]
fn parsed_constructs_have_the_right_points() {
    // Brute-force expectations written from the definitions of the constructs.
    let s = Set::parse("[N] -> { [i] : 0 <= i <= N and i mod 3 = 1 }").unwrap();
    assert_eq!(pts(&s, &[10]), vec![vec![1], vec![4], vec![7], vec![10]]);
    let s = Set::parse("{ [i, j] : 0 <= i, j < 4 and floor((i + j)/2) = 1 }").unwrap();
    let expect: Vec<Vec<i64>> = (0..4).flat_map(|i| (0..4).map(move |j| vec![i, j])).filter(|v| (v[0] + v[1]) / 2 == 1).collect();
    assert_eq!(pts(&s, &[]), expect);
    let s = Set::parse("{ [i] : -5 <= i <= 5 and (-i) mod 4 = 3 }").unwrap();
    let expect: Vec<Vec<i64>> = (-5i64..=5).filter(|i| (-i).rem_euclid(4) == 3).map(|i| vec![i]).collect();
    assert_eq!(pts(&s, &[]), expect);
    let s = Set::parse("{ [i] : 0 <= i < 6 and i != 3 }").unwrap();
    assert_eq!(pts(&s, &[]), vec![vec![0], vec![1], vec![2], vec![4], vec![5]]);
    let s = Set::parse("[N] -> { [i] : 0 <= i < 2N }").unwrap();
    assert_eq!(pts(&s, &[2]).len(), 4);
    // An output tuple entry that repeats a name gives the identity.
    let m = Map::parse("{ A[i] -> A[i] : 0 <= i < 3 }").unwrap();
    assert_eq!(pts(&m, &[]), vec![vec![0, 0], vec![1, 1], vec![2, 2]]);
}

#[test]
fn parse_errors_name_line_column_and_expectation() {
    let e = Set::parse("[N] -> { A[i] : i <= }").unwrap_err();
    match e {
        Error::Parse(p) => {
            assert_eq!((p.line, p.column), (1, 22));
            assert!(p.expected.contains("integer"), "{}", p.expected);
            assert_eq!(p.found, "`}`");
        }
        other => panic!("{other:?}"),
    }
    let e = Set::parse("[N] -> {\n  A[i] : 0 <= i <= M }").unwrap_err();
    match e {
        Error::Parse(p) => {
            assert_eq!((p.line, p.column), (2, 20));
            assert!(p.expected.contains("declared parameter"), "{}", p.expected);
        }
        other => panic!("{other:?}"),
    }
    let e = Set::parse("{ [i] : i * i >= 0 }").unwrap_err();
    assert!(matches!(e, Error::Parse(ref p) if p.expected.contains("affine")), "{e}");
    let e = Set::parse("{ [i] : i mod 0 = 1 }").unwrap_err();
    assert!(matches!(e, Error::Parse(ref p) if p.expected.contains("positive integer")), "{e}");
    let e = Set::parse("{ [i] : i >= 0 ").unwrap_err();
    assert!(matches!(e, Error::Parse(ref p) if p.found == "end of input"), "{e}");
    let e = Set::parse("{ [i] : i >= 99999999999999999999 }").unwrap_err();
    assert!(matches!(e, Error::Parse(_)), "{e}");
    let e = Set::parse("{ A[i] : i >= 0; B[i, j] : i >= 0 }").unwrap_err();
    assert!(matches!(e, Error::Parse(ref p) if p.expected.contains("same space")), "{e}");
}

#[test]
fn relation_operations_match_their_definitions() {
    let m = Map::parse("[N] -> { S[i, j] -> A[i + j, j] : 0 <= i, j < N }").unwrap();
    // domain, range, reverse, apply, compose, deltas, checked against enumeration.
    let n = 4;
    let all = pts(&m, &[n]);
    let dom: BTreeSet<Vec<i64>> = all.iter().map(|p| p[..2].to_vec()).collect();
    let ran: BTreeSet<Vec<i64>> = all.iter().map(|p| p[2..].to_vec()).collect();
    assert_eq!(pts(&m.domain().unwrap(), &[n]), dom.into_iter().collect::<Vec<_>>());
    assert_eq!(pts(&m.range().unwrap(), &[n]), ran.clone().into_iter().collect::<Vec<_>>());
    let rev: BTreeSet<Vec<i64>> = all.iter().map(|p| vec![p[2], p[3], p[0], p[1]]).collect();
    assert_eq!(pts(&m.reverse().unwrap(), &[n]), rev.into_iter().collect::<Vec<_>>());
    let s = Set::parse("[N] -> { S[i, j] : i = j }").unwrap();
    let img: BTreeSet<Vec<i64>> = all.iter().filter(|p| p[0] == p[1]).map(|p| p[2..].to_vec()).collect();
    assert_eq!(pts(&s.apply(&m).unwrap(), &[n]), img.into_iter().collect::<Vec<_>>());
    let m2 = Map::parse("{ A[a, b] -> B[a - b] }").unwrap();
    let comp: BTreeSet<Vec<i64>> = all.iter().map(|p| vec![p[0], p[1], p[2] - p[3]]).collect();
    assert_eq!(pts(&m.compose(&m2).unwrap(), &[n]), comp.into_iter().collect::<Vec<_>>());
    let sq = Map::parse("[N] -> { A[i] -> A[j] : 0 <= i < j < N }").unwrap();
    let d: BTreeSet<Vec<i64>> = (1..n).map(|k| vec![k]).collect();
    assert_eq!(pts(&sq.deltas().unwrap(), &[n]), d.into_iter().collect::<Vec<_>>());
    // Substitution and intersection.
    let t = Set::parse("[N] -> { [i, j] : 0 <= i, j < N }").unwrap();
    let aff = polyalloc_formulation::AffExpr::parse(t.space(), "N - 1 - j").unwrap();
    // Preimage: { [i, j] : 0 <= N - 1 - j < N and 0 <= j < N } leaves i free.
    let sub = t.substitute("i", &aff).unwrap();
    assert!(matches!(sub.enumerate(&[3], 100), Err(Error::Unbounded(_))));
    let fixed = sub.intersect(&Set::parse("[N] -> { [i, j] : i = 7 }").unwrap()).unwrap();
    assert_eq!(pts(&fixed, &[3]), vec![vec![7, 0], vec![7, 1], vec![7, 2]]);
    let u = Set::parse("[N] -> { [i, j] : i + j = N - 1 }").unwrap();
    assert_eq!(pts(&t.intersect(&u).unwrap(), &[3]), vec![vec![0, 2], vec![1, 1], vec![2, 0]]);
    // Lexicographic extrema by scanning and by a solver.
    let tri = Set::parse("[N] -> { [i, j] : 0 <= i <= j < N and i + j >= 3 }").unwrap();
    let all = pts(&tri, &[5]);
    assert_eq!(tri.lexmin_concrete(&[5]).unwrap().as_ref(), all.first());
    assert_eq!(tri.lexmax_concrete(&[5]).unwrap().as_ref(), all.last());
    let solver = MicrolpSolver;
    assert_eq!(tri.lexmin(&solver, &[5]).unwrap().as_ref(), all.first());
}

#[test]
fn emptiness_and_samples_treat_parameters_as_variables() {
    let solver = MicrolpSolver;
    // Empty only for integers: 2i = 2N + 1.
    let s = Set::parse("[N] -> { [i] : 2i = 2N + 1 and N >= 0 }").unwrap();
    assert!(s.is_empty(&solver).unwrap());
    // Non-empty only for large N: witness must satisfy it.
    let s = Set::parse("[N] -> { [i, j] : 0 <= i < j < N and i + j >= 7 }").unwrap();
    assert!(!s.is_empty(&solver).unwrap());
    let w = s.sample(&solver).unwrap().expect("a sample");
    assert!(s.contains(&w.params, &w.point).unwrap());
    // An existential that is an integer obstacle: exists e: i = 2e and i = 2k + 1.
    let s = Set::parse("{ [i] : exists (e, k : i = 2e and i = 2k + 1) }").unwrap();
    assert!(s.is_empty(&solver).unwrap());
}

#[test]
fn overflow_is_an_error_not_a_wrap() {
    let e = Set::parse("{ [i] : 9223372036854775807 i + 9223372036854775807 i >= 0 }").unwrap_err();
    assert!(matches!(e, Error::Parse(ref p) if p.expected.contains("overflow")), "{e}");
    let big = Set::parse("{ [i] : 0 <= i <= 2 }").unwrap();
    let e = polyalloc_formulation::AffExpr::parse(big.space(), "9223372036854775807 i").unwrap();
    assert!(matches!(e.scale(2), Err(Error::Overflow(_))));
}

// ---------- property tests against brute force ----------

const BOX: i64 = 4;

fn random_set() -> impl Strategy<Value = (String, Vec<(i64, i64, i64, bool)>)> {
    prop::collection::vec((-3i64..=3, -3i64..=3, -6i64..=6, prop::bool::weighted(0.15)), 1..5).prop_map(|cons| {
        let mut parts = vec![format!("-{BOX} <= x <= {BOX}"), format!("-{BOX} <= y <= {BOX}")];
        for (a, b, c, eq) in &cons {
            let op = if *eq { "=" } else { ">=" };
            parts.push(format!("{a}x + {b}y + {c} {op} 0"));
        }
        (format!("{{ [x, y] : {} }}", parts.join(" and ")), cons)
    })
}

fn brute(cons: &[(i64, i64, i64, bool)]) -> Vec<Vec<i64>> {
    let mut out = Vec::new();
    for x in -BOX..=BOX {
        for y in -BOX..=BOX {
            if cons.iter().all(|&(a, b, c, eq)| {
                let v = a * x + b * y + c;
                if eq {
                    v == 0
                } else {
                    v >= 0
                }
            }) {
                out.push(vec![x, y]);
            }
        }
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn enumeration_and_projection_match_brute_force((text, cons) in random_set()) {
        let s = Set::parse(&text.replace("1x", "x").replace("1y", "y")).unwrap();
        let expect = brute(&cons);
        prop_assert_eq!(pts(&s, &[]), expect.clone());
        // Exact projection onto x.
        let px: BTreeSet<Vec<i64>> = expect.iter().map(|p| vec![p[0]]).collect();
        let proj = s.project_out(1, 1).unwrap();
        prop_assert_eq!(pts(&proj, &[]), px.iter().cloned().collect::<Vec<_>>());
        // Rational FM shadow: contains the integer projection; every point of it has a
        // rational y, checked on the rational relaxation (y in [lo, hi] with lo <= hi).
        let fm = s.fm_project_out(1, 1).unwrap();
        prop_assert_eq!(fm.pieces().iter().map(|p| p.n_local()).sum::<usize>(), 0);
        let fmp: BTreeSet<Vec<i64>> = pts(&fm, &[]).into_iter().collect();
        prop_assert!(px.is_subset(&fmp));
        for p in &fmp {
            let x = p[0] as f64;
            let (mut lo, mut hi) = (-(BOX as f64), BOX as f64);
            let mut ok = true;
            for &(a, b, c, eq) in &cons {
                let r = a as f64 * x + c as f64;
                if b == 0 {
                    if (eq && r != 0.0) || (!eq && r < 0.0) { ok = false; }
                } else {
                    let v = -r / b as f64;
                    if eq { lo = lo.max(v); hi = hi.min(v); }
                    else if b > 0 { lo = lo.max(v); } else { hi = hi.min(v); }
                }
            }
            prop_assert!(ok && lo <= hi + 1e-9, "FM point {:?} has no rational preimage in {}", p, text);
        }
        // Redundancy removal keeps the points.
        let mut b = s.pieces().first().cloned().unwrap_or_else(|| BasicSet::empty(s.space().clone()));
        b.remove_redundant().unwrap();
        prop_assert_eq!(pts(&Set::from_basic(b), &[]), expect.clone());
        // Print / parse round trip keeps the points.
        let back = Set::parse(&s.to_string()).unwrap();
        prop_assert_eq!(pts(&back, &[]), expect);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn solver_emptiness_matches_brute_force((text, cons) in random_set()) {
        let s = Set::parse(&text).unwrap();
        let solver = MicrolpSolver;
        let expect_empty = brute(&cons).is_empty();
        prop_assert_eq!(s.is_empty(&solver).unwrap(), expect_empty);
        if let Some(w) = s.sample(&solver).unwrap() {
            prop_assert!(brute(&cons).contains(&w.point));
        } else {
            prop_assert!(expect_empty);
        }
    }
}

#[test]
fn unions_over_several_spaces_group_pieces_by_space() {
    let u = Set::parse_union("[N] -> { S[i] -> A[i] : i >= 1; S[i] -> B[i, 0]; S[i] -> A[i - 1] : i = 0 }").unwrap();
    assert_eq!(u.len(), 2);
    assert_eq!(u[0].space().output.name.as_deref(), Some("A"));
    assert_eq!(u[0].n_pieces(), 2);
    assert_eq!(u[1].space().output.name.as_deref(), Some("B"));
    assert!(u[1].contains(&[5], &[3, 3, 0]).unwrap());
    assert!(!u[1].contains(&[5], &[3, 3, 1]).unwrap());
    // One space: the set `Set::parse` reads; none: no set.
    assert_eq!(Set::parse_union("{ A[i] : 0 <= i <= 3 }").unwrap().len(), 1);
    assert!(Set::parse_union("{ }").unwrap().is_empty());
    // An error inside the second space's piece still points at it.
    let e = Set::parse_union("{ A[i]; B[i] : i >= }").unwrap_err();
    assert!(matches!(e, Error::Parse(ref p) if p.column == 21), "{e}");
}

#[test]
fn a_universe_of_parameters_prints_as_one_and_reads_back() {
    let u = Set::parse("[N] -> { : }").unwrap();
    assert_eq!(u.n_pieces(), 1);
    let back = Set::parse(&u.to_string()).unwrap();
    assert_eq!(back.n_pieces(), 1, "{u} read back as {back}");
    assert!(back.contains(&[5], &[]).unwrap());
    // The empty set stays empty.
    let e = Set::parse("[N] -> { }").unwrap();
    assert_eq!(Set::parse(&e.to_string()).unwrap().n_pieces(), 0);
}

#[test]
fn an_empty_set_of_a_tuple_keeps_its_tuple() {
    let e = Set::parse("[N] -> { A[t, i] : false }").unwrap();
    assert_eq!(e.n_pieces(), 0);
    let back = Set::parse(&e.to_string()).unwrap();
    assert_eq!(back.space().output.name.as_deref(), Some("A"));
    assert_eq!(back.space().n_dim(), 2);
    assert_eq!(back.n_pieces(), 0);
    let m = Set::parse("{ S[i] -> A[i] : false }").unwrap();
    assert!(Set::parse(&m.to_string()).unwrap().space().is_map());
}

/// A chain of `mod` makes one existential variable per link: past the limit it is a
/// parse error at the link, not gigabytes (10,000 links aborted under a 4 GB cap).
#[test]
fn mod_chains_are_bounded() {
    let chain = |n: usize| format!("{{ [x] : 0 <= x <= 9 and x {} = 0 }}", "mod 2 ".repeat(n));
    assert!(Set::parse(&chain(polyalloc_formulation::MAX_LOCALS)).is_ok());
    let start = std::time::Instant::now();
    let e = Set::parse(&chain(10_000)).unwrap_err();
    assert!(matches!(e, Error::Parse(ref p) if p.expected.contains("at most 100 existential variables")), "{e}");
    assert!(start.elapsed() < std::time::Duration::from_secs(5));
}

/// Counting by rows and scanning by rows agree with the points enumerated one by one:
/// one piece, several overlapping pieces (counted once), a local variable (rows of one
/// point), an empty set, and the limit.
#[test]
fn rows_and_counts_agree_with_the_points() {
    let cases = [
        "[N] -> { [i, j] : 0 <= i < N and i <= j < 2N - i }",
        "[N] -> { [i, j] : 0 <= i, j < N; [i, j] : 0 <= i < N and N - 2 <= j <= N + 1 }",
        "[N] -> { [i] : 0 <= i < 3N and exists e : i = 3e + 1 }",
        "[N] -> { [i, j] : 0 <= i < N and j > N and j < i }",
    ];
    for text in cases {
        let set = Set::parse(text).expect(text);
        for n in [1, 4, 7] {
            let points = set.enumerate(&[n], 10_000).expect("points");
            assert_eq!(set.count_points(&[n], 10_000).expect("count"), points.len(), "{text} at N = {n}");
            let mut rows: Vec<Vec<i64>> = Vec::new();
            set.for_each_row(&[n], &mut |prefix, lo, hi| {
                for v in lo..=hi {
                    rows.push([prefix, &[v]].concat());
                }
                Ok(true)
            })
            .expect("rows");
            rows.sort();
            rows.dedup();
            assert_eq!(rows, points, "{text} at N = {n}");
        }
    }
    let big = Set::parse("[N] -> { [i, j] : 0 <= i, j < N }").expect("square");
    assert_eq!(big.count_points(&[10], 100).expect("100 points"), 100);
    assert!(big.count_points(&[10], 99).is_err());
}
