//! The facade's promises: a method's answer is verified before it is a result, each
//! failure has its own typed status, and `best` returns the smallest verified mapping.
//! Expected values are Bhaskaracharya et al. 2016's (Bhaskaracharya, Bondhugula, Cohen), Sec. 3.1 / Table I:
//! on produce-consume the baseline (successive modulo) needs N^2 cells and SMO
//! `(i - t) mod (2N - 1)`.

use polyalloc::{backend, load, registry, run, run_record, Failure, Input, Method, MethodError, Outcome, RunOptions, Status};
use polyalloc_alloc::{Details, ExecutionCheck, Obligation, Order, StoragePlan};
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
        let obligations = if self.with_obligation { vec![Obligation { label: "conflict set".into(), problem, at: None }] } else { Vec::new() };
        Ok(Outcome { mapping: Some(mapping), obligations, executions: Vec::new(), details: Details::new(), shared: None })
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
    let d: polyalloc::best::BestDetails =
        serde_json::from_value(serde_json::Value::Object(v.outcome.details.clone().into_iter().collect())).expect("typed details");
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

/// A method whose only evidence is a run of the program: the SMO mapping of Bhaskaracharya et al. 2016, Sec. 3.1
/// (`(i - t) mod (2N - 1)`) folded into the produce-consume program, or a modulus one
/// cell too small. The facade runs the one executor; the method never does.
struct Executed {
    modulus_minus_2n: i64,
}

impl Method for Executed {
    fn name(&self) -> &'static str {
        "executed"
    }
    fn summary(&self) -> &'static str {
        "a test method checked by execution only"
    }
    fn targets(&self, _: &Input) -> Result<Vec<String>, MethodError> {
        Ok(vec!["A".into()])
    }
    fn run(&self, input: &Input, _: &str, _: &dyn Solver) -> Result<Outcome, MethodError> {
        let program = input.example.program_model()?.expect("produce-consume has a program");
        let text = format!("[N] -> {{ A[t, i] -> A[(i - t) mod (2N + {})] }}", self.modulus_minus_2n);
        let mapping = ModularMapping::parse(&text)?;
        let storage = std::collections::BTreeMap::from([("A".to_string(), mapping)]);
        let check = ExecutionCheck {
            label: "original order".into(),
            program,
            reduction_arrays: Vec::new(),
            order: Order::Original,
            storage: StoragePlan::Fixed(storage),
            instances: vec![vec![3], vec![5]],
        };
        Ok(Outcome { mapping: None, obligations: Vec::new(), executions: vec![check], details: Details::new(), shared: None })
    }
}

#[test]
fn executions_are_run_by_the_facade() {
    let input = produce_consume();
    let b = backend("microlp").expect("built-in backend");
    let ok = run(&input, &Executed { modulus_minus_2n: -1 }, "A", &b, RunOptions::default()).expect("2N - 1 cells suffice");
    assert_eq!(ok.execution.as_ref().map(|e| (e.instances, e.identical)), Some((2, true)));
    assert_eq!(ok.verification.label(), "instances");
    let err = run(&input, &Executed { modulus_minus_2n: -2 }, "A", &b, RunOptions::default()).expect_err("2N - 2 cells do not");
    assert!(matches!(err.failure, Failure::ExecutionDiffers(_)), "{err}");
    assert_eq!(err.failure.status(), Status::Invalid);
}

#[test]
fn records_carry_max_live_the_lower_bound_of_every_mapping() {
    let b = backend("microlp").expect("built-in backend");
    // 004 Sec. 3.1: on produce-consume 2N - 1 values are live at once, and SMO reaches it.
    let input = produce_consume();
    let at = input.example.instances.last().cloned().expect("instances");
    let n = at["N"];
    let smo = registry().get("smo").expect("registered");
    let r = run_record(&input, smo, "A", &b, RunOptions { size_params: Some(&at), ..RunOptions::default() });
    assert_eq!(r.max_live, Some((2 * n - 1) as u64));
    assert_eq!(r.max_live_source.as_deref(), Some("simulation"));
    assert_eq!(r.size_at, Some((2 * n - 1) as i128));
    // A file with only a conflict set (001 Fig. 7, reverse L): the largest clique of the
    // conflict graph, never above the size of a verified mapping.
    let input = load(&polyalloc::suite_dir().join("lattice-reverse-l.json")).expect("bench-suite file");
    let at = input.example.instances.first().cloned().expect("instances");
    for m in ["lefe", "smo", "lattice"] {
        let method = registry().get(m).expect("registered");
        let r = run_record(&input, method, "A", &b, RunOptions { size_params: Some(&at), ..RunOptions::default() });
        assert_eq!(r.status, Status::Ok, "{m}: {:?}", r.error);
        assert_eq!(r.max_live_source.as_deref(), Some("clique"), "{m}");
        let (live, size) = (r.max_live.expect("max-live"), r.size_at.expect("size"));
        assert!(live >= 1 && live as i128 <= size, "{m}: max-live {live} above the size {size} of a verified mapping");
    }
    // 003's contraction is valid under the shifted and fused loops, not under the
    // original ones: its records carry max-live simulated under that order, never above
    // the contracted size (which is verified under the same order).
    let flow = registry().get("flow").expect("registered");
    let mut measured = 0;
    for id in ["flow-example1", "flow-example2", "flow-jacobi"] {
        let input = load(&polyalloc::suite_dir().join(format!("{id}.json"))).expect("bench-suite file");
        let at = polyalloc::run::largest_instance(&input.example);
        for target in flow.targets(&input).expect("targets") {
            let r = run_record(&input, flow, &target, &b, RunOptions { size_params: at.as_ref(), ..RunOptions::default() });
            if r.status != Status::Ok {
                continue;
            }
            let Some(size) = r.size_at else { continue };
            let live = r.max_live.unwrap_or_else(|| panic!("{id} {target}: no max-live ({:?})", r.max_live_source));
            assert_eq!(r.max_live_source.as_deref(), Some("simulation"), "{id} {target}");
            assert!(live >= 1 && live as i128 <= size, "{id} {target}: max-live {live} above the contracted size {size}");
            measured += 1;
        }
    }
    assert!(measured >= 3, "only {measured} flow records with a max-live");
}

/// A method that uses its whole time budget before answering (it waits until the
/// run's budget says stop).
struct Slow;

impl Method for Slow {
    fn name(&self) -> &'static str {
        "slow"
    }
    fn summary(&self) -> &'static str {
        "a test method that takes its whole budget"
    }
    fn targets(&self, _: &Input) -> Result<Vec<String>, MethodError> {
        Ok(vec!["A".into()])
    }
    fn run(&self, _: &Input, _: &str, _: &dyn Solver) -> Result<Outcome, MethodError> {
        loop {
            polyalloc::budget::check()?;
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
    }
}

/// One record never takes longer than its time limit: max-live (cheap here:
/// produce-consume's max-live is found by simulation in milliseconds) gets only what
/// the run leaves, and a run that used the whole budget leaves nothing. (Before, it
/// had a budget of its own as long as the run's, and was computed.)
#[test]
fn max_live_gets_what_the_run_leaves_of_the_time_limit() {
    let input = produce_consume();
    let b = backend("microlp").expect("built-in backend");
    let opts = RunOptions { time_limit: Some(std::time::Duration::from_millis(200)), ..RunOptions::default() };
    let rec = run_record(&input, &Slow, "A", &b, opts);
    assert_eq!(rec.status, Status::SolverError);
    assert_eq!(rec.error_kind.as_deref(), Some("time-budget"));
    assert_eq!(rec.max_live, None, "max-live computed after the run used the whole budget");
    assert!(rec.max_live_source.as_deref().is_some_and(|s| s.starts_with("unknown")), "{:?}", rec.max_live_source);
    // With the budget to spare, the same record has max-live.
    let smo = registry().get("smo").expect("registered");
    let full = run_record(&input, smo, "A", &b, RunOptions { time_limit: Some(std::time::Duration::from_secs(60)), ..RunOptions::default() });
    assert!(full.max_live.is_some(), "{:?}", full.max_live_source);
}
