//! `smo-inter`: the rows settled by branch and bound over the box of the unknowns
//! (`inter_search`) and the ILP with its group inequalities give the storage of the
//! plain ILP (the method's definition).

use polyalloc_alloc::InterProblem;
use polyalloc_alloc_smo::{SmoInter, SmoOptions};
use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_formulation::{InterConflict, InterConflictSet, Map, Set};
use polyalloc_ilp::Recording;

/// Arrays `(name, dimensions, constraints over @0, @1, ..)` and their conflict
/// polyhedra `(from, to, constraints over s0.. and t0..)`, each intersected with both
/// cells' spaces as the reader of the SMO tool's inputs does.
fn problem(arrays: &[(&str, usize, &str)], conflicts: &[(usize, usize, &str)]) -> InterProblem {
    let cells = |a: usize, prefix: &str| -> (String, String) {
        let (name, n, c) = arrays[a];
        let dims: Vec<String> = (0..n).map(|j| format!("{prefix}{j}")).collect();
        (format!("{name}[{}]", dims.join(", ")), c.replace('@', prefix))
    };
    let spaces: Vec<Set> = (0..arrays.len())
        .map(|a| {
            let (x, c) = cells(a, "x");
            Set::parse(&format!("[N] -> {{ {x} : {c} }}")).expect("space")
        })
        .collect();
    let tuples: Vec<_> = spaces.iter().map(|s| s.space().output.clone()).collect();
    let relations = conflicts
        .iter()
        .map(|&(from, to, c)| {
            let ((x, bx), (y, by)) = (cells(from, "s"), cells(to, "t"));
            let relation = Map::parse(&format!("[N] -> {{ {x} -> {y} : {bx} and {by} and {c} }}")).expect("relation");
            InterConflict { from, to, relation }
        })
        .collect();
    InterProblem {
        example: "test".into(),
        conflicts: InterConflictSet::new(&["N".to_string()], tuples, relations).expect("conflicts"),
        spaces,
        context: None,
        instances: vec![vec![5], vec![7]],
    }
}

/// The SMO tool's `heat1d-double-buffer`: two arrays `A0[x, b, i]` (`b = 0`) and
/// `A1[x, b, i]` (`b = 1`), the second written from the first.
fn heat1d() -> InterProblem {
    let space = "0 <= @0 < N and 0 <= @1 <= 1 and 0 <= @2 < N";
    problem(
        &[("A0", 3, space), ("A1", 3, space)],
        &[
            (0, 0, "s0 = t0 and s1 = 0 and t1 = 0 and s2 < t2"),
            (0, 1, "s0 = t0 and s1 = 0 and t1 = 1 and s2 > t2"),
            (1, 1, "s0 = t0 and s1 = t1 and s1 = 1 and s2 < t2"),
            (1, 0, "s0 = t0 - 1 and s1 = 1 and t1 = 0 and s2 >= t2"),
        ],
    )
}

/// A chain of three arrays (the smoothing chain of the tool's `jacobi2d-smoothing`, in
/// one dimension): each array lives while the next one is written.
fn chain() -> InterProblem {
    problem(
        &[("A0", 2, "@0 = 0 and 0 <= @1 < N"), ("A1", 2, "@0 = 1 and 0 <= @1 < N"), ("A2", 2, "@0 = 2 and 0 <= @1 < N")],
        &[(0, 0, "s1 < t1"), (0, 1, "s1 >= t1"), (1, 1, "s1 < t1"), (1, 2, "s1 >= t1"), (2, 2, "s1 < t1")],
    )
}

/// Three arrays of the tool's `jacobi2d-smoothing` (each written from the previous
/// one): the second row has optima that differ in each array's sign (ties, which the
/// search leaves to the ILP).
fn jacobi3() -> InterProblem {
    let space = |a: usize| format!("@0 = {a} and 0 <= @1 < N and 0 <= @2 < N");
    let spaces: Vec<String> = (0..3).map(space).collect();
    problem(
        &[("A0", 3, &spaces[0]), ("A1", 3, &spaces[1]), ("A2", 3, &spaces[2])],
        &[
            (0, 0, "s1 < t1"),
            (0, 0, "s1 = t1 and s2 < t2"),
            (0, 1, "s1 >= t1"),
            (0, 1, "s1 + 1 = t1 and s2 > t2"),
            (1, 1, "s1 < t1"),
            (1, 1, "s1 = t1 and s2 < t2"),
            (1, 2, "s1 >= t1"),
            (1, 2, "s1 + 1 = t1 and s2 > t2"),
            (2, 2, "s1 < t1"),
            (2, 2, "s1 = t1 and s2 < t2"),
        ],
    )
}

fn with(presolve: bool, solve_settled: bool) -> SmoInter {
    SmoInter { options: SmoOptions { presolve, solve_settled, ..SmoOptions::default() } }
}

/// The shared storage and the rounds of the plain ILP (no search, no inequality), of
/// the ILP with the group inequalities (`solve_settled`) and of the default (rows
/// settled by the search): the same storage, row by row.
#[test]
fn settled_rows_are_the_ilps_optimum() {
    for (name, p) in [("heat1d", heat1d()), ("chain", chain()), ("jacobi3", jacobi3())] {
        let plain = with(false, false).shared_mapping(&p, &MicrolpSolver).expect("plain ILP");
        let cut = with(true, true).shared_mapping(&p, &MicrolpSolver).expect("ILP with inequalities");
        let rec = Recording::new(MicrolpSolver);
        let fast = with(true, false).shared_mapping(&p, &rec).expect("settled");
        for (other, what) in [(&cut, "ILP with inequalities"), (&fast, "settled")] {
            assert_eq!(other.0.moduli, plain.0.moduli, "{name}: {what}");
            assert_eq!(other.0.parts, plain.0.parts, "{name}: {what}: {} vs {}", other.0, plain.0);
            assert_eq!(other.1, plain.1, "{name}: {what}");
        }
        let rows: Vec<String> = rec.records().into_iter().map(|r| r.model).filter(|m| m.starts_with("smo-inter-row")).collect();
        match name {
            // Unique optima up to sign: no row model is built.
            "heat1d" | "chain" => assert!(rows.is_empty(), "{name}: {rows:?}"),
            // The second row's optima differ in the arrays' signs: its ILP decides.
            _ => assert!(rows.iter().all(|m| m == "smo-inter-row-2") && !rows.is_empty(), "{name}: {rows:?}"),
        }
        if name == "heat1d" {
            assert_eq!(fast.0.to_string(), "A0[x0, x1, x2] -> S[(x2 - x0) mod (N + 1)]; A1[x0, x1, x2] -> S[(x2 - x0) mod (N + 1)]");
        }
        // Each array alone: the same with and without the search.
        for a in 0..p.conflicts.arrays.len() {
            let plain = with(false, false).alone(&p, a, &MicrolpSolver).expect("plain");
            let fast = with(true, false).alone(&p, a, &MicrolpSolver).expect("settled");
            assert_eq!(fast, plain, "{name}: A{a} alone");
        }
    }
}
