//! The exact checker at an instance where the array has no cells: the moduli are not
//! asked for (a modulus of 0 there is no error), and where conflicts exist a modulus
//! that is not positive is an invalid mapping, not a failure of the checker.

use polyalloc_formulation::checker::{check_concrete, ConcreteVerdict};
use polyalloc_formulation::{ConflictForm, ConflictSet, ModularMapping};

/// Cells `A[i, j]`, `0 <= i < M`, `0 <= j < N`; the cells of one row `i` conflict.
fn rows_conflict() -> ConflictSet {
    ConflictSet::parse(
        "[N, M] -> { A[i, j] -> A[i2, j2] : 0 <= i < M and 0 <= j < N and 0 <= i2 < M and 0 <= j2 < N and i2 = i and j2 > j }",
        ConflictForm::Half,
    )
    .expect("conflict set")
}

#[test]
fn an_empty_array_needs_no_modulus() {
    let cs = rows_conflict();
    let m = ModularMapping::parse("[N, M] -> { A[i, j] -> A[j mod N, i mod M] }").expect("mapping");
    // M = 0: no cell, no pair; the modulus M = 0 is never used.
    assert_eq!(check_concrete(&cs, &m, &[3, 0], usize::MAX).expect("checks"), ConcreteVerdict::Valid { pairs_checked: 0 });
    // M = 2: 2 rows of 3 cells, 3 pairs each.
    assert_eq!(check_concrete(&cs, &m, &[3, 2], usize::MAX).expect("checks"), ConcreteVerdict::Valid { pairs_checked: 6 });
}

#[test]
fn a_zero_modulus_where_cells_conflict_is_an_invalid_mapping() {
    let cs = rows_conflict();
    // N - 3 = 0 at N = 3, where the cells of a row conflict.
    let m = ModularMapping::parse("[N, M] -> { A[i, j] -> A[j mod (N - 3), i mod M] }").expect("mapping");
    assert_eq!(check_concrete(&cs, &m, &[3, 2], usize::MAX).expect("checks"), ConcreteVerdict::NonPositiveModulus { row: 0, params: vec![3, 2] });
}

/// A solver that records the time limit of every solve and finds nothing in time.
struct Recorder(std::sync::Mutex<Vec<Option<std::time::Duration>>>);

impl polyalloc_ilp::Solver for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }
    fn solve_raw(
        &self,
        _: &polyalloc_ilp::Model,
        options: &polyalloc_ilp::SolveOptions,
    ) -> Result<polyalloc_ilp::RawSolution, polyalloc_ilp::SolveError> {
        self.0.lock().expect("lock").push(options.time_limit);
        Err(polyalloc_ilp::SolveError::TimeLimitNoIncumbent)
    }
}

/// The checker's solves get at most the time left of the run's budget (`check
/// --time-limit 10` ran 20 s: each solve had the checker's own 20 s).
#[test]
fn the_checker_solves_within_the_runs_budget() {
    let cs = ConflictSet::parse(
        "[N] -> { A[t, i] -> A[t2, i2] : 1 <= t, i, t2, i2 <= N and ((t2 = t and i2 >= i + 1) or (t2 = t + 1 and i2 <= i - 1) or (t2 >= t + 1 and i = N)) }",
        ConflictForm::Half,
    )
    .expect("conflict set");
    // An invalid mapping: the emptiness proofs without a solver cannot conclude.
    let m = ModularMapping::parse("[N] -> { A[t, i] -> A[(i - t) mod 2] }").expect("mapping");
    let solver = Recorder(std::sync::Mutex::new(Vec::new()));
    let budget = std::time::Duration::from_secs(2);
    let _ = polyalloc_ilp::budget::scoped("test", Some(budget), || polyalloc_formulation::Checker::new(&solver).check_symbolic(&cs, &m, None));
    let limits = solver.0.lock().expect("lock").clone();
    assert!(!limits.is_empty(), "the check reaches the solver");
    assert!(limits.iter().all(|l| l.is_some_and(|l| l <= budget)), "{limits:?}");
}

/// When the symbolic proof of the moduli does not conclude, the moduli are evaluated at
/// the instances, but only at those where the array has cells: `M = 0` empties the array
/// below (`3i + 5j = 7` has no solution in natural numbers), and its modulus `M` of 0 there is not
/// a refutation (it was: "modulus of row 1 is 0", a valid mapping refused).
#[test]
fn moduli_at_instances_where_the_array_is_empty_are_not_asked_for() {
    use polyalloc_formulation::checker::Verdict;
    let cs = rows_conflict();
    let m = ModularMapping::parse("[N, M] -> { A[i, j] -> A[j mod N, i mod M] }").expect("mapping");
    let space = polyalloc_formulation::Set::parse("[N, M] -> { A[i, j] : 3i + 5j = M + 7 and 0 <= i and 0 <= j < N }").expect("space");
    let context = polyalloc_formulation::BasicSet::parse("[N, M] -> { : N >= 3 and M >= 0 }").expect("context");
    // A solver that never concludes: the symbolic checks are inconclusive.
    let solver = Recorder(std::sync::Mutex::new(Vec::new()));
    let verdict = polyalloc_formulation::Checker::new(&solver)
        .check_in_space(&cs, &m, Some(&space), Some(&context), &[vec![3, 0], vec![4, 3]])
        .expect("checks");
    assert!(matches!(verdict, Verdict::ProvenForInstancesOnly { .. }), "{verdict:?} after {} solves", solver.0.lock().expect("lock").len());
}
