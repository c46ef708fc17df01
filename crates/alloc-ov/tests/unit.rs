//! Unit checks of the pieces of the occupancy-vector method against hand computations
//! and the paper's worked examples.

use polyalloc_alloc_ov::solve::{candidates, evenness};
use polyalloc_alloc_ov::{fmt_linear, induced};
use polyalloc_formulation::{BasicSet, Polynomial, Set};

fn space(text: &str) -> (polyalloc_formulation::Tuple, BasicSet, Vec<String>) {
    let s = Set::parse(text).unwrap();
    let p = s.space().params.clone();
    (s.space().output.clone(), s.pieces()[0].clone(), p)
}

#[test]
fn evenness_is_the_objective_of_sec_4_6_1() {
    // sum_i sum_j ||v_i| - |v_j||: (2, 1) -> 2 * |2 - 1| = 2; (3, 0) -> 6; (1, 1, 1) -> 0.
    assert_eq!(evenness(&[2, 1]), 2);
    assert_eq!(evenness(&[3, 0]), 6);
    assert_eq!(evenness(&[1, 1, 1]), 0);
    assert_eq!(evenness(&[-2, 1]), 2);
}

#[test]
fn candidates_enumerate_every_vector_of_a_length_once() {
    // Vectors of Manhattan length L in dimension 2: 4L of them (L >= 1).
    for l in 1..6 {
        let c = candidates(2, l);
        assert_eq!(c.len(), 4 * l as usize);
        let mut d = c.clone();
        d.sort();
        d.dedup();
        assert_eq!(d.len(), c.len());
        assert!(c.iter().all(|v| v.iter().map(|x| x.abs()).sum::<i64>() == l));
        // Ordered by evenness.
        assert!(c.windows(2).all(|w| evenness(&w[0]) <= evenness(&w[1])));
    }
    // Dimension 3, length 3: 4*9 + 2 = 38 (hand count: 8 of (1,1,1)-type, 24 of (2,1,0)-type, 6 of (3,0,0)-type).
    assert_eq!(candidates(3, 3).len(), 38);
    assert_eq!(candidates(3, 3)[0], vec![1, 1, 1]);
}

#[test]
fn mappings_of_sec_3_3_2() {
    let (t, s, p) = space("[m, n] -> { A[i, j] : 1 <= i <= m and 1 <= j <= n }");
    // v = (1, 0): U = I, Pi = (0, 1), A[j] (Fig. 6).
    let a = induced(&[1, 0], &t, &s, &p).unwrap();
    assert_eq!(a.pi, vec![vec![0, 1]]);
    assert_eq!(a.printed_paper, "A[j]");
    assert_eq!(a.size, Polynomial::parse("n").unwrap());
    // v = (2, 0): (j, i mod 2), 2n cells (Fig. 7).
    let b = induced(&[2, 0], &t, &s, &p).unwrap();
    assert_eq!((b.pi.clone(), b.y.clone(), b.g), (vec![vec![0, 1]], vec![1, 0], 2));
    assert_eq!(b.printed_paper, "A[j][i mod 2]");
    assert_eq!(b.size, Polynomial::parse("2*n").unwrap());
    // v = (2, 1): U = [[2, 1], [1, 0]] here (the paper takes [[2, 1], [1, 1]]); both
    // give Pi = +-(-1, 2) (Sec. 5.1.4), and U has v as first column and is unimodular.
    let c = induced(&[2, 1], &t, &s, &p).unwrap();
    assert_eq!(c.pi, vec![vec![-1, 2]]);
    assert_eq!((c.u[0][0], c.u[1][0]), (2, 1));
    let det = c.u[0][0] * c.u[1][1] - c.u[0][1] * c.u[1][0];
    assert_eq!(det.abs(), 1);
    assert_eq!(c.printed, "A[2*j - i + m - 2]");
    assert_eq!(c.printed_paper, "A[2*j - i + m]");
    // A non-primitive vector: (4, 2) = 2 * (2, 1), modulation by 2.
    let d = induced(&[4, 2], &t, &s, &p).unwrap();
    assert_eq!(d.g, 2);
    // y . v0 = 1 and Pi v0 = 0 (Sec. 3.3.2).
    assert_eq!(d.y[0] * 2 + d.y[1], 1);
    assert_eq!(d.pi[0][0] * 2 + d.pi[0][1], 0);
    // v = (3, 5): no unit component, the Hermite completion.
    let e = induced(&[3, 5], &t, &s, &p).unwrap();
    assert_eq!(e.y[0] * 3 + e.y[1] * 5, 1);
    assert_eq!(e.pi[0][0] * 3 + e.pi[0][1] * 5, 0);
}

#[test]
fn linear_forms_print_like_the_paper() {
    let n = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(fmt_linear(&[1, 2], &n(&["a", "b"]), -1), "a + 2*b - 1");
    assert_eq!(fmt_linear(&[-1, 2], &n(&["i", "j"]), 0), "-i + 2*j");
    assert_eq!(fmt_linear(&[0, 0], &n(&["i", "j"]), 0), "0");
}

#[test]
fn errors_map_to_method_errors_by_type() {
    use polyalloc_alloc::MethodError;
    use polyalloc_alloc_ov::OvError;
    use polyalloc_ilp::SolveError;
    // The solver's kind survives (a time limit is not an infeasibility).
    let e: MethodError = OvError::Solver(SolveError::TimeLimitNoIncumbent).into();
    assert!(matches!(e, MethodError::Solver(SolveError::TimeLimitNoIncumbent)));
    assert_eq!(e.kind(), "solver");
    let e: MethodError = OvError::Unsupported("two writers".into()).into();
    assert!(matches!(e, MethodError::NotApplicable(_)));
    let e: MethodError = OvError::Input("ov.statement_arrays".into()).into();
    assert!(matches!(e, MethodError::BadInput(_)));
    let e: MethodError = OvError::NotFound("no vector".into()).into();
    assert!(matches!(e, MethodError::Method(_)));
}

#[test]
fn random_legal_orders_are_legal_and_differ() {
    // Example 1 (Fig. 1) at m = n = 4: every drawn order runs every instance once and
    // computes the program's values (one location per cell), and two seeds give two
    // different orders.
    use polyalloc_alloc_ov::{random_legal_trace, sequential};
    use polyalloc_program::exec::{Executor, Storage};
    let ex = polyalloc_suite::Example::load(&polyalloc_suite::default_dir().join("ov-example1.json")).unwrap();
    let program = sequential(&ex.program_model().unwrap().unwrap()).unwrap();
    let exec = Executor::with_hash_bodies(program.clone());
    let params = [4, 4];
    let a = random_legal_trace(&program, &params, 1).unwrap();
    let b = random_legal_trace(&program, &params, 2).unwrap();
    assert_ne!(a, b);
    for t in [a, b] {
        assert_eq!(t.len(), 16);
        let report = exec.compare(&params, &t, &Storage::new()).unwrap();
        assert!(report.ok(), "{}", report.summary());
    }
}

#[test]
fn details_read_back_as_written() {
    // What a record carries (`details_of`) deserialises into the same typed struct.
    use polyalloc_alloc_ov::{read_details, AovDetails, InducedDetails, Modulation, PaperIlp, ScheduleRef};
    let d = AovDetails {
        aov: vec![2, 1],
        manhattan: 3,
        evenness: 2,
        candidates: 7,
        mapping: InducedDetails {
            printed_paper: "A[2*j - i + m]".into(),
            printed: "A[2*j - i + m - 2]".into(),
            projection: vec![vec![-1, 2]],
            modulation: Modulation { y: vec![1, 0], gcd: 1 },
        },
        paper_ilp: PaperIlp::Solved { vector: vec![2, 1], valid_on_exact_domains: true },
        is_uov: None,
        schedules: vec![ScheduleRef { label: "S: i".into(), statements: [("S".to_string(), "[m, n] -> { S[i, j] -> [i] }".to_string())].into() }],
    };
    let written = polyalloc_alloc::details_of(&d);
    assert!(written.contains_key("printed_paper") && !written.contains_key("is_uov"));
    assert_eq!(read_details::<AovDetails>(&written).unwrap(), d);
}
