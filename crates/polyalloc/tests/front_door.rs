//! The facade's promises: a method's answer is verified before it is a result, each
//! failure has its own typed status, and `best` returns the smallest verified mapping.
//! Expected values are 004's (Bhaskaracharya, Bondhugula, Cohen), Sec. 3.1 / Table I:
//! on produce-consume the baseline (successive modulo) needs N^2 cells and SMO
//! `(i - t) mod (2N - 1)`.

use polyalloc::{backend, load, registry, run, run_record, Failure, Input, Method, MethodError, Outcome, RunOptions, Status};
use polyalloc_alloc::{Details, Obligation};
use polyalloc_formulation::{AffExpr, ModularMapping, StorageRow};
use polyalloc_ilp::Solver;

fn produce_consume() -> Input {
    load(&polyalloc::suite_dir().join("smo-produce-consume.json")).expect("bench-suite file")
}

/// A method that proposes a fixed mapping for array `A`: `A[(i - t) mod m]`, with or
/// without its conflict set as an obligation.
struct Fixed {
    modulus: i64,
    with_obligation: bool,
}

impl Method for Fixed {
    fn name(&self) -> &'static str {
        "fixed"
    }
    fn summary(&self) -> &'static str {
        "a test method"
    }
    fn targets(&self, _: &Input) -> Result<Vec<String>, MethodError> {
        Ok(vec!["A".into()])
    }
    fn run(&self, input: &Input, target: &str, _: &dyn Solver) -> Result<Outcome, MethodError> {
        let problem = input.problem(target)?;
        let params: Vec<&str> = problem.params().iter().map(String::as_str).collect();
        let modulus = AffExpr::parse(&problem.param_space(), &self.modulus.to_string())?;
        let mapping = ModularMapping::new(&params, problem.array_tuple(), vec![StorageRow { hyperplane: vec![-1, 1], modulus: Some(modulus) }])?;
        let obligations = if self.with_obligation { vec![Obligation { label: "conflict set".into(), problem }] } else { Vec::new() };
        Ok(Outcome { mapping: Some(mapping), obligations, execution: None, details: Details::new() })
    }
}

#[test]
fn a_refuted_mapping_is_never_a_result() {
    let input = produce_consume();
    let b = backend("microlp").expect("built-in backend");
    // (i - t) mod 2 folds conflicting cells together for N >= 3.
    let m = Fixed { modulus: 2, with_obligation: true };
    let err = run(&input, &m, "A", &b, RunOptions::default()).expect_err("refuted");
    assert!(matches!(err.failure, Failure::Refuted { .. }), "{err}");
    assert_eq!(err.failure.status(), Status::Invalid);
    let rec = run_record(&input, &m, "A", &b, RunOptions::default());
    assert_eq!(rec.status, Status::Invalid);
    assert_eq!(rec.error_kind.as_deref(), Some("conflict"));
    assert!(!rec.verified);
}

#[test]
fn a_mapping_without_an_obligation_is_unverifiable() {
    let input = produce_consume();
    let b = backend("microlp").expect("built-in backend");
    let m = Fixed { modulus: 1000, with_obligation: false };
    let err = run(&input, &m, "A", &b, RunOptions::default()).expect_err("nothing to verify against");
    assert!(matches!(err.failure, Failure::Unverifiable(_)), "{err}");
    assert_eq!(run_record(&input, &m, "A", &b, RunOptions::default()).status, Status::NotApplicable);
}

#[test]
fn method_errors_keep_their_kind() {
    let input = produce_consume();
    let b = backend("microlp").expect("built-in backend");
    // The conflict-set methods have no target `Z`: an input error, not a solver error.
    let smo = registry().get("smo").expect("registered");
    let rec = run_record(&input, smo, "Z", &b, RunOptions::default());
    assert_eq!(rec.status, Status::Error);
    assert_eq!(rec.error_kind.as_deref(), Some("input"));
}

#[test]
fn best_is_the_smallest_verified_mapping() {
    let input = produce_consume();
    let b = backend("microlp").expect("built-in backend");
    let best = registry().get("best").expect("registered");
    let v = run(&input, best, "A", &b, RunOptions::default()).expect("verified");
    // 004 Table I: SMO reaches 2N - 1, the baseline N^2.
    assert_eq!(v.size.as_ref().map(|p| p.to_string()).as_deref(), Some("2*N - 1"));
    let d: polyalloc::best::BestDetails = serde_json::from_value(serde_json::Value::Object(v.outcome.details.clone().into_iter().collect())).expect("typed details");
    let lefe = d.candidates.iter().find(|c| c.method == "lefe").expect("lefe tried");
    assert_eq!(lefe.size.as_deref(), Some("N^2"));
    let winner = d.candidates.iter().find(|c| c.method == d.winner).expect("winner among the candidates");
    assert!(d.candidates.iter().all(|c| c.size_at.is_none_or(|s| winner.size_at.is_some_and(|w| w <= s))), "{d:?}");
    // `all` leaves `best` out: it would run every method twice.
    assert!(registry().select("all").expect("all").iter().all(|m| m.name() != "best"));
}

#[test]
fn unknown_names_are_input_errors_listing_the_choices() {
    let e = registry().select("smo,nope").err().expect("unknown method");
    assert_eq!(e.exit_code(), polyalloc::EXIT_INPUT);
    assert!(e.to_string().contains("lattice-h2"), "{e}");
    assert!(backend("nope").is_err());
}
