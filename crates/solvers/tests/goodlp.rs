//! The good_lp backends in the registry, beside the direct backends of the same solvers.
//! (Their answers are checked by the conformance suite, `tests/conformance.rs`, and by
//! `polyalloc-backend-goodlp`'s own tests.)

use polyalloc_solvers::registry;

/// Every `goodlp-*` feature of this build registers its backend, after the direct ones.
#[test]
fn goodlp_backends_are_registered_by_feature() {
    let names = registry().names();
    let expected: Vec<&str> = [
        ("goodlp-microlp", cfg!(feature = "goodlp-microlp")),
        ("goodlp-highs", cfg!(feature = "goodlp-highs")),
        ("goodlp-cbc", cfg!(feature = "goodlp-cbc")),
        ("goodlp-lpsolve", cfg!(feature = "goodlp-lpsolve")),
    ]
    .into_iter()
    .filter_map(|(n, on)| on.then_some(n))
    .collect();
    let got: Vec<&str> = names.iter().copied().filter(|n| n.starts_with("goodlp-")).collect();
    assert_eq!(got, expected);
    assert_eq!(names.first(), Some(&"microlp"), "the default stays first");
}

/// CBC through good_lp and the direct CBC backend share one process-wide lock
/// (libCbcSolver is not thread-safe): many concurrent solves of both, interleaved, all
/// give the hand-derived optimum of the conformance case (13).
#[cfg(all(feature = "cbc", feature = "goodlp-cbc"))]
#[test]
fn cbc_directly_and_through_good_lp_concurrently() {
    use polyalloc_solvers::conformance::{knapsack_general, run_case, Answer};
    let reg = registry();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let solver = reg.create(if i % 2 == 0 { "cbc" } else { "goodlp-cbc" }).expect("backend");
                s.spawn(move || (0..10).map(|_| run_case(solver.as_ref(), &knapsack_general())).collect::<Vec<_>>())
            })
            .collect();
        for h in handles {
            for a in h.join().expect("thread") {
                assert_eq!(a, Answer::Optimum(13));
            }
        }
    });
}
