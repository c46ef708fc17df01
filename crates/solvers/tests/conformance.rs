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
            assert!(matches(&case.expected, &w[0].2) && matches(&case.expected, &w[1].2), "{} and {} disagree on {}", w[0].0, w[1].0, case.name);
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
                        (0..10).map(|_| run_case(solver.as_ref(), &polyalloc_solvers::conformance::knapsack_general())).collect::<Vec<_>>()
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

/// A backend with its `Incremental` capability hidden: lexicographic solves rebuild the
/// model for every stage (the generic fallback a backend without the capability gets).
struct Rebuilding<'a>(&'a dyn polyalloc_ilp::Solver);

impl polyalloc_ilp::Solver for Rebuilding<'_> {
    fn name(&self) -> &str {
        self.0.name()
    }
    fn solve_raw(&self, m: &polyalloc_ilp::Model, o: &polyalloc_ilp::SolveOptions) -> Result<polyalloc_ilp::RawSolution, polyalloc_ilp::SolveError> {
        self.0.solve_raw(m, o)
    }
}

/// Every direct backend (microlp, HiGHS, CBC) keeps its model between lexicographic
/// stages, and the kept model gives the same optima as the rebuilding fallback, on every
/// case with a lexicographic objective and on lexicographic versions of the others. The
/// good_lp backends have no kept model (good_lp consumes it in `solve()`).
#[test]
fn kept_models_agree_with_rebuilt_ones() {
    use polyalloc_ilp::{LexSolve, LinExpr, Recording, SolveOptions};
    let reg = registry();
    for name in reg.names() {
        let solver = reg.create(name).expect("backend");
        let direct = polyalloc_solvers::direct_backends().contains(&name);
        assert_eq!(solver.incremental().is_some(), direct, "{name}: a kept model exactly on the direct backends");
        if !direct {
            continue;
        }
        for case in all_cases().into_iter().filter(|c| c.time_limit.is_none()) {
            let objectives: Vec<LinExpr> = if case.lex.is_empty() {
                // The case's own objective, then each integer variable in turn.
                let mut objs = vec![case.model.objective().clone()];
                objs.extend(case.model.var_ids().filter(|v| case.model.var(*v).kind.is_integral()).map(LinExpr::from));
                objs
            } else {
                case.lex.clone()
            };
            if objectives.iter().any(|o| o.terms().any(|(v, _)| !case.model.var(v).kind.is_integral())) {
                continue;
            }
            let rec = Recording::new(solver.as_ref());
            let kept = rec.lex_minimize(&case.model, &objectives, &SolveOptions::default()).map(|l| l.optima);
            let rebuilt = Rebuilding(solver.as_ref()).lex_minimize(&case.model, &objectives, &SolveOptions::default()).map(|l| l.optima);
            assert_eq!(kept, rebuilt, "{name} / {}", case.name);
            if kept.is_ok() {
                let records = rec.take_records();
                assert_eq!(records.len(), objectives.len(), "{name} / {}", case.name);
                // The stages after the first re-solve the kept model from the previous optimum.
                for (k, r) in records.iter().enumerate() {
                    let t = r.times.expect("times of a solved stage");
                    assert_eq!(t.incremental, k > 0, "{name} / {} stage {k}", case.name);
                    // A start point only exists after the first stage (CBC takes none).
                    assert!(!t.warm_start || k > 0, "{name} / {} stage {k}", case.name);
                    assert!(t.build.is_some() && t.setup.is_some(), "{name} reports its phases");
                }
            }
        }
    }
}

/// A plain solve reports where its time went, on every backend.
#[test]
fn solves_report_their_phases() {
    let reg = registry();
    for name in reg.names() {
        let solver = reg.create(name).expect("backend");
        let case = polyalloc_solvers::conformance::knapsack_general();
        let sol = solver.solve(&case.model, &polyalloc_ilp::SolveOptions::default()).expect("solves");
        let t = sol.times();
        assert!(t.build.is_some() && t.setup.is_some(), "{name}: {t:?}");
        assert!(t.total() <= sol.elapsed() + std::time::Duration::from_millis(1), "{name}: {t:?} vs {:?}", sol.elapsed());
        assert!(!t.incremental && !t.warm_start);
    }
}
