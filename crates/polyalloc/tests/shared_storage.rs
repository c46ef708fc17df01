//! Inter-array storage through the front door (method `smo-inter`), on an input in the SMO
//! tool's format that needs no corpus (`bench-suite/smo-tool/double-buffer-1d.smo.input`,
//! the double-buffered 1-D stencil of the tool's `heat1d-double-buffer` example):
//! `A0[t, 0, i]` is computed from `A1[t - 1, 1, i - 1..i + 1]` and copied to `A1[t, 1, i]`.
//!
//! The expected size is derived, not copied from a run: when `A0[t, 0, i]` is written,
//! the cells `A1[t - 1, 1, i..N-1]` and `A0[t, 0, 0..i]` pairwise conflict (a clique of
//! `N + 1` cells, checked below against the file's relations), so every valid storage,
//! shared or not, has at least `N + 1` cells; and the rolling buffer
//! `(i - t) mod (N + 1)` for both arrays is valid (the differences of the two cells'
//! values are `i - i'` in `[1, N - 1]` or `1 + i - i'` in `[1, N]` on the conflicts
//! between the arrays). Stored alone, each array needs a whole row, `N` cells: `2N`.

use polyalloc::{backend, registry, run, run_record, Input, RunOptions, Status, Verification};
use polyalloc_formulation::Polynomial;
use polyalloc_suite::smo_input::read;
use std::collections::BTreeMap;
use std::path::Path;

fn input() -> Input {
    let path = polyalloc::suite_dir().join("smo-tool/double-buffer-1d.smo.input");
    let text = std::fs::read_to_string(&path).expect("the bench-suite's input");
    Input::new(read(&text, Path::new("double-buffer-1d.smo.input")).expect("reads"))
}

#[test]
fn the_lower_bound_is_a_clique_of_the_conflicts() {
    // At N = 6, t = 2, i = 3: A1[1, 1, 3..5] and A0[2, 0, 0..3] pairwise conflict.
    let input = input();
    let p = input.example.inter_problem().expect("problem").expect("inter-array");
    let n = 6;
    let (t, i) = (2, 3);
    let mut cells: Vec<(usize, Vec<i64>)> = (i..n).map(|j| (1, vec![t - 1, 1, j])).collect();
    cells.extend((0..=i).map(|j| (0, vec![t, 0, j])));
    assert_eq!(cells.len() as i64, n + 1);
    let conflict = |(a, x): &(usize, Vec<i64>), (b, y): &(usize, Vec<i64>)| {
        p.conflicts.relations.iter().any(|r| {
            let hit = |u: &Vec<i64>, v: &Vec<i64>| {
                let mut pt = u.clone();
                pt.extend(v);
                r.relation.contains(&[n], &pt).expect("contains")
            };
            (r.from, r.to) == (*a, *b) && hit(x, y) || (r.from, r.to) == (*b, *a) && hit(y, x)
        })
    };
    for (k, c) in cells.iter().enumerate() {
        for d in &cells[..k] {
            assert!(conflict(c, d), "{c:?} and {d:?} do not conflict");
        }
    }
}

#[test]
fn smo_inter_finds_the_optimal_shared_storage_and_the_facade_verifies_it() {
    let input = input();
    let m = registry().get("smo-inter").expect("registered");
    assert_eq!(m.targets(&input).expect("applies"), vec!["A0+A1".to_string()]);
    let microlp = backend("microlp").expect("built in");
    let v = run(&input, m, "A0+A1", &microlp, RunOptions::default()).expect("a verified shared storage");
    assert_eq!(v.verification, Verification::Proven);
    assert_eq!(v.size, Some(Polynomial::parse("N0 + 1").expect("poly")));
    let shared = &v.outcome.shared.as_ref().expect("shared").mapping;
    assert_eq!(shared.parts.len(), 2);
    // Each array alone: a row of N cells, verified against its own conflicts.
    let alone: Vec<String> = v.separate.iter().map(|s| s.size.as_ref().expect("folded").to_string()).collect();
    assert_eq!(alone, vec!["N0", "N0"]);
    assert!(v.separate.iter().all(|s| s.verification == Verification::Proven));
    // The record: the shared storage and the comparison with separate storage.
    let at = BTreeMap::from([("N0".to_string(), 10)]);
    let r = run_record(&input, m, "A0+A1", &microlp, RunOptions { size_params: Some(&at), ..Default::default() });
    assert_eq!(r.status, Status::Ok, "{:?}", r.error);
    assert_eq!(r.size_at, Some(11));
    // Max-live of both arrays together is the clique bound: the storage is optimal.
    assert_eq!((r.max_live, r.max_live_source.as_deref()), (Some(11), Some("clique")));
    let sh = r.shared.expect("shared record");
    assert_eq!((sh.separate_size.as_deref(), sh.separate_size_at), (Some("2*N0"), Some(20)));
    assert_eq!(sh.parts.iter().map(|p| p.array.as_str()).collect::<Vec<_>>(), vec!["A0", "A1"]);
    assert!(r.mapping.expect("printed").contains("-> S["));
    // `best` compares the shared storage like any mapping of its target.
    let best = run(&input, registry().get("best").expect("best"), "A0+A1", &microlp, RunOptions::default()).expect("best");
    assert_eq!(best.size, Some(Polynomial::parse("N0 + 1").expect("poly")));
}

#[test]
fn a_refuted_shared_storage_is_never_a_result() {
    // A method whose shared storage ignores the time skew: i mod N for both arrays.
    use polyalloc::{Method, MethodError, Outcome};
    use polyalloc_alloc::{SharedAnswer, SharedObligation};
    use polyalloc_formulation::{AffExpr, SharedMapping, SharedPart};
    struct Wrong;
    impl Method for Wrong {
        fn name(&self) -> &'static str {
            "wrong-shared"
        }
        fn summary(&self) -> &'static str {
            "a deliberately invalid shared storage"
        }
        fn targets(&self, _: &Input) -> Result<Vec<String>, MethodError> {
            Ok(vec!["A0+A1".into()])
        }
        fn run(&self, input: &Input, _: &str, _: &dyn polyalloc_ilp::Solver) -> Result<Outcome, MethodError> {
            let problem = input.example.inter_problem()?.expect("inter-array");
            let psp = polyalloc_formulation::Space::set(&["N0"], polyalloc_formulation::Tuple::anonymous(&[]));
            let parts = problem
                .conflicts
                .arrays
                .iter()
                .map(|t| SharedPart { array: t.clone(), hyperplanes: vec![vec![0, 0, 1]], offsets: vec![0] })
                .collect();
            let mapping = SharedMapping::new(&["N0"], "S", vec![AffExpr::parse(&psp, "N0").expect("modulus")], parts)?;
            Ok(Outcome {
                shared: Some(SharedAnswer {
                    mapping,
                    obligations: vec![SharedObligation { label: "conflict set".into(), problem }],
                    separate: Vec::new(),
                }),
                ..Outcome::default()
            })
        }
    }
    let input = input();
    let microlp = backend("microlp").expect("built in");
    let r = run_record(&input, &Wrong, "A0+A1", &microlp, RunOptions::default());
    assert_eq!(r.status, Status::Invalid);
    assert_eq!(r.error_kind.as_deref(), Some("conflict"));
    assert!(!r.verified && r.size.is_none(), "{r:?}");
    let err = r.error.expect("message");
    assert!(err.contains("A1[") && err.contains("A0["), "{err}");
}
