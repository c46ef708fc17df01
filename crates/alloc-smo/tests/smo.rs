use polyalloc_alloc::{Allocator, Problem};
use polyalloc_alloc_smo::{normalise_sign, revise, Smo, SmoOptions};
use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_formulation::int::lin::rank;
use polyalloc_formulation::{BasicSet, ConflictForm, ConflictSet, Polynomial};

/// The method's mapping on `p`, checked by the exact checker (`polyalloc_alloc::verify`)
/// before any assertion reads it, with its size and the ILPs the method solved.
struct Checked {
    mapping: polyalloc_formulation::ModularMapping,
    size: Option<Polynomial>,
    #[allow(dead_code)]
    ilps: Vec<polyalloc_ilp::SolveRecord>,
}

fn find_checked(m: &dyn Allocator, p: &Problem) -> Result<Checked, polyalloc_alloc::AllocError> {
    let rec = polyalloc_ilp::Recording::new(MicrolpSolver);
    let mapping = m.find_mapping(p, &rec)?;
    let ilps = rec.take_records();
    polyalloc_alloc::verify(p, &mapping, &MicrolpSolver, m.name())?;
    let size = mapping.size().expect("a size");
    Ok(Checked { mapping, size, ilps })
}

fn problem(conflicts: &str, context: &str, instances: Vec<Vec<i64>>) -> Problem {
    Problem {
        example: "test".into(),
        conflicts: ConflictSet::parse(conflicts, ConflictForm::Half).expect("parses"),
        context: Some(BasicSet::parse(context).expect("parses")),
        space: None,
        instances,
    }
}

/// Bhaskaracharya et al. 2016, Fig. 2(c), the producer-consumer conflict set; Sec. 3.5 derives the hyperplane
/// (-1, 1) with contraction modulus 2N - 1.
#[test]
fn produce_consume_gives_the_papers_hyperplane() {
    let p = problem(
        "[N] -> { A[t, i] -> A[t2, i2] : 1 <= t <= N and 1 <= i <= N and 1 <= t2 <= N and 1 <= i2 <= N and \
         ((t2 = t and i2 >= i + 1) or (t2 = t + 1 and i2 <= i - 1) or (t2 >= t + 1 and i = N)) }",
        "[N] -> { : N >= 2 }",
        vec![vec![4], vec![7]],
    );
    let a = find_checked(&Smo::default(), &p).expect("smo");
    assert_eq!(a.mapping.rows.len(), 1);
    assert_eq!(a.mapping.rows[0].hyperplane, vec![-1, 1]);
    assert_eq!(a.size, Some(Polynomial::parse("2*N - 1").expect("poly")));
    assert_eq!(a.mapping.to_string(), "A[(i - t) mod (2N - 1)]");
    // The optimum is unique: presolve settles it and no ILP is built; solving the ILP
    // anyway (the lexicographic stages eta', u_N, w, then the tie-breaks) gives the same.
    assert!(!a.ilps.iter().any(|r| r.model.starts_with("smo-hyperplane")));
    let solved = Smo { options: SmoOptions { solve_settled: true, ..SmoOptions::default() } };
    let b = find_checked(&solved, &p).expect("smo, ILP solved");
    assert!(b.ilps.iter().any(|r| r.model == "smo-hyperplane-1"));
    assert_eq!(b.mapping.rows, a.mapping.rows);
}

/// When every pair of an N x N array conflicts, no mapping has fewer than N^2 cells; SMO
/// must return two linearly independent hyperplanes reaching that bound.
#[test]
fn all_pairs_conflict_needs_independent_hyperplanes() {
    let p = problem(
        "[N] -> { A[i, j] -> A[i2, j2] : 0 <= i < N and 0 <= j < N and 0 <= i2 < N and 0 <= j2 < N and \
         (i2 > i or (i2 = i and j2 > j)) }",
        "[N] -> { : N >= 2 }",
        vec![vec![3], vec![5]],
    );
    let a = find_checked(&Smo::default(), &p).expect("smo");
    let rows: Vec<Vec<i64>> = a.mapping.rows.iter().map(|r| r.hyperplane.clone()).collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(rank(&rows, 2), Some(2));
    assert_eq!(a.size, Some(Polynomial::parse("N^2").expect("poly")));
}

/// Without conflicts the array contracts to a single cell (Bhaskaracharya et al. 2016, Sec. 3.4).
#[test]
fn no_conflict_means_one_cell() {
    let p = problem("[N] -> { A[i] -> A[i2] : 0 <= i < N and 0 <= i2 < N and i2 > i and i > N }", "[N] -> { : N >= 1 }", vec![vec![4]]);
    let a = find_checked(&Smo::default(), &p).expect("smo");
    assert!(a.mapping.rows.is_empty());
    assert_eq!(a.size, Some(Polynomial::constant(1)));
}

#[test]
fn revision_adds_the_hyperplane_equality() {
    let b = BasicSet::parse("[N] -> { A[t, i] -> A[t2, i2] : 0 <= t, i, t2, i2 < N }").expect("parses");
    let r = revise(&b, &[-1, 1]).expect("revise");
    assert_eq!(r.equalities().len(), b.equalities().len() + 1);
    let eq = r.equalities().last().expect("row");
    // [const, N, t, i, t2, i2]: -t + i + t2 - i2 = 0 (up to sign).
    let expected = [0, 0, -1, 1, 1, -1];
    let neg: Vec<i64> = expected.iter().map(|c| -c).collect();
    assert!(eq[..6] == expected || eq[..6] == neg[..], "{eq:?}");
}

#[test]
fn sign_normalisation_makes_the_last_nonzero_positive() {
    let mut h = vec![1, -1];
    normalise_sign(&mut h);
    assert_eq!(h, vec![-1, 1]);
    let mut h = vec![2, 0];
    normalise_sign(&mut h);
    assert_eq!(h, vec![2, 0]);
    let mut h = vec![0, 0, -3, 0];
    normalise_sign(&mut h);
    assert_eq!(h, vec![0, 0, 3, 0]);
}
