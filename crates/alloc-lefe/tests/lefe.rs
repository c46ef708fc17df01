use polyalloc_alloc::{Allocator, Problem};
use polyalloc_alloc_lefe::Lefe;
use polyalloc_backend_microlp::MicrolpSolver;
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

/// Bhaskaracharya et al. 2016, Sec. 3.1: on the producer-consumer conflict set the successive modulo technique
/// gives e0 = N (conflict (1, N) with (N, N)) and e1 = N, i.e. A[t mod N, i mod N].
#[test]
fn produce_consume_baseline() {
    let p = Problem {
        example: "test".into(),
        conflicts: ConflictSet::parse(
            "[N] -> { A[t, i] -> A[t2, i2] : 1 <= t <= N and 1 <= i <= N and 1 <= t2 <= N and 1 <= i2 <= N and \
             ((t2 = t and i2 >= i + 1) or (t2 = t + 1 and i2 <= i - 1) or (t2 >= t + 1 and i = N)) }",
            ConflictForm::Half,
        )
        .expect("parses"),
        context: Some(BasicSet::parse("[N] -> { : N >= 2 }").expect("parses")),
        space: None,
        instances: vec![vec![5]],
    };
    let a = find_checked(&Lefe::default(), &p).expect("lefe");
    assert_eq!(a.mapping.to_string(), "A[t mod N, i mod N]");
    assert_eq!(a.size, Some(Polynomial::parse("N^2").expect("poly")));
}

/// Bhaskaracharya et al. 2016, Sec. 4, interleaved blur (Fig. 4(c)): the baseline is blurx[y mod 3, x mod N].
#[test]
fn blur_interleaved_baseline() {
    let p = Problem {
        example: "test".into(),
        conflicts: ConflictSet::parse(
            "[N] -> { blurx[y, x] -> blurx[y2, x2] : 0 <= y < N and 0 <= x < N and 0 <= y2 < N and 0 <= x2 < N and \
             ((y2 - y <= 1 and y2 - y >= 0 and x < x2) or (y2 - y <= 2 and y2 - y >= 1 and x >= x2)) }",
            ConflictForm::Half,
        )
        .expect("parses"),
        context: Some(BasicSet::parse("[N] -> { : N >= 3 }").expect("parses")),
        space: None,
        instances: vec![vec![5]],
    };
    let a = find_checked(&Lefe::default(), &p).expect("lefe");
    assert_eq!(a.mapping.to_string(), "blurx[y mod 3, x mod N]");
}
