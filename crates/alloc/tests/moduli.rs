//! The checker proves a mapping only when every modulus is at least 1 wherever the array
//! has cells, not only where conflicts exist. Regression of a wrong "proven": with the
//! context `N >= 2`, the conflict set below is empty at N = 2 (distances 1 to N - 3), so
//! `x1 mod (N - 2)` separated every conflicting pair and was "proven", while at N = 2
//! (allowed by the context) its modulus is 0: no mapping at all for the array's 4 cells.

use polyalloc_alloc::{verify, AllocError, Problem, Refutation, Verification};
use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_formulation::{AffExpr, BasicSet, ConflictForm, ConflictSet, ModularMapping, Set, StorageRow};

fn problem(with_space: bool) -> Problem {
    Problem {
        example: "modulus-edge".into(),
        conflicts: ConflictSet::parse(
            "[N] -> { A[x0, x1] -> A[x0, y1] : 0 <= x0 < N and 0 <= x1 and y1 < N and x1 + 1 <= y1 and y1 <= x1 + N - 3 }",
            ConflictForm::Half,
        )
        .expect("parses"),
        context: Some(BasicSet::parse("[N] -> { : N >= 2 }").expect("parses")),
        space: with_space.then(|| Set::parse("[N] -> { A[x0, x1] : 0 <= x0 < N and 0 <= x1 < N }").expect("parses")),
        instances: vec![vec![2], vec![3], vec![6]],
    }
}

fn mapping(p: &Problem, modulus: &str) -> ModularMapping {
    let m = AffExpr::parse(&p.param_space(), modulus).expect("modulus");
    ModularMapping::new(&["N"], p.array_tuple(), vec![StorageRow { hyperplane: vec![0, 1], modulus: Some(m) }]).expect("mapping")
}

#[test]
fn a_modulus_below_one_where_the_array_has_cells_is_refuted() {
    let p = problem(true);
    match verify(&p, &mapping(&p, "N - 2"), &MicrolpSolver, "test") {
        Err(AllocError::Invalid { refutation, .. }) => match *refutation {
            Refutation::NonPositiveModulus { row: 0, params } => assert_eq!(params, vec![2]),
            other => panic!("expected a non-positive modulus at N = 2, got {other:?}"),
        },
        other => panic!("expected a non-positive modulus at N = 2, got {other:?}"),
    }
    // One more cell per row is valid for every N >= 2.
    assert_eq!(verify(&p, &mapping(&p, "N - 1"), &MicrolpSolver, "test").expect("valid"), Verification::Proven);
}

#[test]
fn without_the_array_space_the_context_decides() {
    // The conflict polyhedra alone cannot see N = 2 (empty there); the context can.
    let p = problem(false);
    assert!(matches!(
        verify(&p, &mapping(&p, "N - 2"), &MicrolpSolver, "test"),
        Err(AllocError::Invalid { refutation, .. }) if matches!(*refutation, Refutation::NonPositiveModulus { row: 0, .. })
    ));
    assert_eq!(verify(&p, &mapping(&p, "N - 1"), &MicrolpSolver, "test").expect("valid"), Verification::Proven);
}
