//! The conformance suite on every compiled-in backend: each backend must give the
//! hand-derived answer of every case (see `polyalloc_solvers::conformance`), and so all
//! backends agree with each other.

use polyalloc_solvers::conformance::{all_cases, matches, run_case, Answer};
use polyalloc_solvers::registry;

#[test]
fn every_backend_answers_every_case_as_derived() {
    let reg = registry();
    let mut failures = Vec::new();
    let mut answers: Vec<(String, &'static str, Answer)> = Vec::new();
    for name in reg.names() {
        let solver = reg.create(name).expect("compiled-in backend constructs");
        for case in all_cases() {
            let got = run_case(solver.as_ref(), &case);
            if !matches(&case.expected, &got) {
                failures.push(format!("{name} / {}: expected {:?}, got {:?}", case.name, case.expected, got));
            }
            answers.push((name.to_string(), case.name, got));
        }
    }
    assert!(failures.is_empty(), "conformance failures:\n{}", failures.join("\n"));
    // Agreement across backends (implied by the above, asserted for the report).
    for case in all_cases() {
        let per: Vec<_> = answers.iter().filter(|a| a.1 == case.name).collect();
        for w in per.windows(2) {
            assert!(
                matches(&case.expected, &w[0].2) && matches(&case.expected, &w[1].2),
                "{} and {} disagree on {}",
                w[0].0,
                w[1].0,
                case.name
            );
        }
    }
}

#[test]
fn microlp_is_always_compiled_in_and_default() {
    let reg = registry();
    assert_eq!(reg.default_name(), Some("microlp"));
    assert!(reg.select("all").expect("all").contains(&"microlp"));
    let err = reg.select("gurobi").expect_err("unknown backend must be an error");
    assert!(err.to_string().contains("gurobi") && err.to_string().contains("microlp"), "{err}");
}

#[cfg(feature = "highs")]
#[test]
fn highs_is_registered_with_the_feature() {
    assert!(registry().contains("highs"));
}

#[cfg(feature = "cbc")]
#[test]
fn cbc_is_registered_with_the_feature() {
    assert!(registry().contains("cbc"));
}

/// libcbc is not thread-safe; the backend serialises solves. Many concurrent solves must
/// all give the right optimum.
#[test]
fn concurrent_solves_agree() {
    let reg = registry();
    for name in reg.names() {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..8)
                .map(|_| {
                    let solver = reg.create(name).expect("backend");
                    s.spawn(move || {
                        (0..10)
                            .map(|_| run_case(solver.as_ref(), &polyalloc_solvers::conformance::knapsack_general()))
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for h in handles {
                for a in h.join().expect("thread") {
                    assert_eq!(a, Answer::Optimum(13), "{name}");
                }
            }
        });
    }
}
