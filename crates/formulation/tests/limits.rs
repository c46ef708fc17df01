//! Resource limits of the isl parsers: no input overflows the stack or
//! exhausts memory. Deep nesting is refused with a parse error naming the position;
//! a formula whose disjunctive normal form would need more than `MAX_DNF_PIECES`
//! pieces is refused with the number it would need, computed without building them.

use polyalloc_formulation::{Error, Polynomial, Set, MAX_DNF_PIECES, MAX_NESTING};
use std::time::Instant;

fn nested(depth: usize) -> String {
    format!("[N] -> {{ A[t] -> A[t2] : {}t2 = t + 1{} and 0 <= t, t2 < N }}", "(".repeat(depth), ")".repeat(depth))
}

#[test]
fn ten_thousand_nested_parentheses_are_a_parse_error_not_a_stack_overflow() {
    match Set::parse(&nested(10_000)) {
        Err(Error::Parse(e)) => {
            assert_eq!(e.line, 1);
            // A parenthesis of the run, about MAX_NESTING deep (the run starts at column 26).
            assert!((26 + MAX_NESTING / 2..=26 + MAX_NESTING).contains(&e.column), "{e}");
            assert!(e.expected.contains(&format!("at most {MAX_NESTING} nested")), "{e}");
        }
        other => panic!("expected a nesting error, got {other:?}"),
    }
    // Nested expressions (not formulas), unary minus chains and polynomials too.
    let expr = format!("[N] -> {{ A[t] : t = {}N{} }}", "(".repeat(5000), ")".repeat(5000));
    assert!(matches!(Set::parse(&expr), Err(Error::Parse(_))));
    let minus = format!("[N] -> {{ A[t] : t = {}N }}", "- ".repeat(5000));
    assert!(matches!(Set::parse(&minus), Err(Error::Parse(_))));
    let poly = format!("{}N{}", "(".repeat(5000), ")".repeat(5000));
    assert!(matches!(Polynomial::parse(&poly), Err(Error::Parse(_))));
}

#[test]
fn nesting_up_to_the_limit_parses_on_a_small_stack() {
    // The default stack of a test thread is 2 MiB; the parser must fit well within it
    // at the limit, in this (unoptimised) test profile.
    let t = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            let s = Set::parse(&nested(MAX_NESTING - 1)).expect("parses");
            assert_eq!(s.enumerate(&[3], 100).expect("enumerates"), vec![vec![0, 1], vec![1, 2]]);
            let e = format!("[N] -> {{ A[t] : t = {}N{} }}", "(".repeat(MAX_NESTING - 1), ")".repeat(MAX_NESTING - 1));
            Set::parse(&e).expect("parses");
            Polynomial::parse(&format!("{}N{}", "(".repeat(MAX_NESTING - 1), ")".repeat(MAX_NESTING - 1))).expect("parses");
        })
        .expect("thread");
    t.join().expect("no stack overflow at the nesting limit");
}

/// `k` two-way disjunctions in one conjunction (a legal isl conflict set).
fn disjunctions(k: usize) -> String {
    let d: Vec<String> = (1..=k).map(|j| format!("(i2 >= i + {j} or t2 >= t + {j})")).collect();
    format!("[N] -> {{ A[t, i] -> A[t2, i2] : 0 <= t, i, t2, i2 < N and {} }}", d.join(" and "))
}

#[test]
fn twenty_two_way_disjunctions_are_refused_with_the_piece_count() {
    let start = Instant::now();
    match Set::parse(&disjunctions(20)) {
        Err(Error::TooManyPieces { what, count, limit }) => {
            assert_eq!(count, (1u64 << 20).to_string());
            assert_eq!(limit, MAX_DNF_PIECES);
            assert!(what.contains("line 1, column"), "{what}");
        }
        other => panic!("expected TooManyPieces, got {:?}", other.map(|s| s.n_pieces())),
    }
    // Counted, not built: far below the time (and 6 GB) the cross product took.
    assert!(start.elapsed().as_secs() < 5, "{:?}", start.elapsed());
    // 200 of them: the count saturates and says so.
    match Set::parse(&disjunctions(200)) {
        Err(e @ Error::TooManyPieces { .. }) => assert!(e.to_string().contains("more than 10^38"), "{e}"),
        other => panic!("expected TooManyPieces, got {:?}", other.map(|s| s.n_pieces())),
    }
    // Pieces of several `;`-separated parts add up.
    let two = format!("{}; {}", disjunctions(12).trim_end_matches(" }"), &disjunctions(12)["[N] -> { ".len()..]);
    match Set::parse(&two) {
        Err(Error::TooManyPieces { count, .. }) => assert_eq!(count, (2u64 << 12).to_string()),
        other => panic!("expected TooManyPieces, got {:?}", other.map(|s| s.n_pieces())),
    }
}

#[test]
fn within_the_limit_the_same_formulas_parse() {
    // 12 disjunctions: 4096 pieces, exactly the limit.
    let s = Set::parse(&disjunctions(12)).expect("at the limit");
    assert!(s.n_pieces() <= MAX_DNF_PIECES);
    assert!(s.contains(&[30], &[0, 0, 13, 13]).expect("membership"));
    assert!(!s.contains(&[30], &[0, 0, 11, 0]).expect("membership"));
    // A conjunction that becomes false has no piece, however large its factors.
    let f = disjunctions(20).replace(" }", " and false }");
    assert_eq!(Set::parse(&f).expect("parses").n_pieces(), 0);
}

#[test]
fn products_of_large_unions_are_refused_with_their_size() {
    use polyalloc_formulation::MAX_PRODUCT_PIECES;
    // Two unions of 400 pieces each: 160,000 candidate pieces in their intersection.
    let union = |k: i64| {
        let pieces: Vec<String> = (0..400).map(|j| format!("[i] : i = {}", k * 1000 + j)).collect();
        Set::parse(&format!("{{ {} }}", pieces.join("; "))).expect("parses")
    };
    let (a, b) = (union(1), union(2));
    assert_eq!(a.n_pieces(), 400);
    match a.intersect(&b) {
        Err(Error::TooManyPieces { count, limit, .. }) => {
            assert_eq!(count, "160000");
            assert_eq!(limit, MAX_PRODUCT_PIECES);
        }
        other => panic!("expected TooManyPieces, got {:?}", other.map(|s| s.n_pieces())),
    }
    // Within the limit the product is computed.
    let small = Set::parse("{ [i] : i = 1000; [i] : i = 2000 }").expect("parses");
    assert_eq!(a.intersect(&small).expect("intersects").enumerate(&[], 10).expect("points"), vec![vec![1000]]);
}
