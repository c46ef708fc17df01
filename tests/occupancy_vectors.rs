//! Paper Thies, Vivien, Amarasinghe 2007, Examples 1-4, on every compiled-in backend:
//! occupancy vectors for a schedule (Problem 2.1), schedules for an occupancy vector
//! (Problem 2.2), affine occupancy vectors (Problem 2.3), the UOV of Sec. 6 and the
//! induced storage mappings (Sec. 3.3.2), checked by the exact checker.
//!
//! Expected values come from the paper (section cited at each assertion) or from an
//! independent computation: the exact checker of `polyalloc-formulation` on the
//! program-derived conflict sets, schedules chosen from the paper's printed constraints
//! by brute force, and runs of the program by polyalloc's one executor
//! (`polyalloc_program::exec`) under affine schedules and under random legal execution
//! orders drawn here from the dependences of Fig. 1.

// The schedule constraints are written as the paper prints them (`a - b - 1 >= 0`).
#![allow(clippy::int_plus_one)]

use polyalloc_alloc_ov::{
    induced, print, problem_under, read_details, sequential, uov, AovDetails, DependenceSource, Engine, OvDetails, OvOptions, Setup, UovDetails,
};
use polyalloc_formulation::checker::{check_concrete, ConcreteVerdict};
use polyalloc_formulation::{ModularMapping, Polynomial};
use polyalloc_ilp::Solver;
use polyalloc_program::exec::{Executor, Storage, Trace};
use polyalloc_suite::Example;
use std::collections::BTreeMap;

fn load(id: &str) -> Example {
    Example::load(&polyalloc_suite::default_dir().join(format!("{id}.json"))).expect("bench-suite file")
}

fn setup(ex: &Example) -> Setup {
    Setup::from_example(ex, DependenceSource::Accesses).expect("ov setup")
}

fn engine<'a>(s: &'a Setup, solver: &'a dyn Solver) -> Engine<'a> {
    s.engine(solver, OvOptions::default()).expect("engine")
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn rows_up_to_sign(a: &[Vec<i64>], b: &[Vec<i64>]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y || x.iter().zip(y).all(|(p, q)| *p == -*q))
}

/// The exact concrete checker on the conflict set of `array` with every statement
/// scheduled by `sched` (statement -> isl relation), at `params`.
fn concrete(ex: &Example, array: &str, mapping: &ModularMapping, sched: &BTreeMap<String, String>, params: &[i64]) -> bool {
    let mut ex2 = ex.clone();
    for st in ex2.program.as_mut().expect("program").statements.iter_mut() {
        if let Some(s) = sched.get(&st.name) {
            st.schedule = s.clone();
        }
    }
    let cs = ex2.conflicts(array).expect("conflict set");
    matches!(check_concrete(&cs, mapping, params, 2_000_000).expect("checker"), ConcreteVerdict::Valid { .. })
}

fn one_stmt(name: &str, params: &str, dims: &str, expr: &str) -> BTreeMap<String, String> {
    BTreeMap::from([(name.to_string(), format!("[{params}] -> {{ {name}[{dims}] -> [{expr}] }}"))])
}

#[test]
fn example1_paper_values_on_every_backend() {
    let ex = load("ov-example1");
    let s = setup(&ex);
    let (tuple, space) = &s.arrays["A"];
    for solver in polyalloc_tests::backends() {
        let eng = engine(&s, solver.as_ref());
        // Sec. 5.1.1: the linearised schedule constraints.
        let mut r = eng.theta_set(&eng.schedule_forms().unwrap(), &[]).unwrap();
        r.remove_redundant().unwrap();
        assert!(print::equivalent_to_printed(&r, &s.form.space, &strings(&["a + 2*b - 1 >= 0", "a - 1 >= 0", "a - b - 1 >= 0"])).unwrap());
        // Sec. 5.1.2: schedule Theta = i gives the OV (1, 0).
        let th = s.form.parse_schedule(&one_stmt("S", "m, n", "i, j", "i")).unwrap();
        assert_eq!(eng.ov_for_schedule("A", &th, false).unwrap().vector, vec![1, 0]);
        // Sec. 3.3.2 (Fig. 7): without reading in the step of the overwrite, (2, 0).
        assert_eq!(eng.ov_for_schedule("A", &th, true).unwrap().vector, vec![2, 0]);
        // The same from the paper's own integer programs (Sec. 4.6.1 and 4.6.3).
        assert_eq!(eng.paper_ilp("A", Some(&th), false).unwrap(), Some(vec![1, 0]));
        assert_eq!(eng.paper_ilp("A", Some(&th), true).unwrap(), Some(vec![2, 0]));
        assert_eq!(eng.paper_ilp("A", None, false).unwrap(), Some(vec![2, 1]));
        // Sec. 5.1.3: the schedules valid for the OV (2, 0).
        let vs = eng.schedules_for(&BTreeMap::from([("A".to_string(), vec![2, 0])])).unwrap();
        assert!(print::equivalent_to_printed(&vs.set, &s.form.space, &strings(&["a - 2*b >= 0", "a + 2*b - 1 >= 0", "a - b - 1 >= 0"])).unwrap());
        // The best schedule satisfies the printed constraints (a, b of Theta = a*i + b*j + ...).
        let (a, b) = (vs.best_theta[0], vs.best_theta[1]);
        assert!(a - 2 * b >= 0 && a + 2 * b - 1 >= 0 && a - b - 1 >= 0, "best schedule {:?}", vs.best);
        // Sec. 5.1.4: the AOV (2, 1), Pi = (-1, 2), A[2*j - i + m] (Fig. 11).
        let aov = eng.aov("A").unwrap();
        assert_eq!(aov.vector, vec![2, 1]);
        let ind = induced(&aov.vector, tuple, space, &s.form.params).unwrap();
        assert_eq!(ind.pi, vec![vec![-1, 2]]);
        assert_eq!(ind.printed_paper, "A[2*j - i + m]");
        // Independent count: 2j - i ranges over [2 - m, 2n - 1] on 1 <= i <= m, 1 <= j <= n.
        assert_eq!(ind.size, Polynomial::parse("m + 2*n - 2").unwrap());
        // Sec. 6: the shortest UOV is (3, 0); the AOV (2, 1) is not a UOV.
        let d = uov::stencil_distances(&s.form, "A").unwrap();
        let u = uov::shortest_uov(solver.as_ref(), &d, 2, 6, &Default::default()).unwrap();
        assert_eq!(u.vector, vec![3, 0]);
        assert!(!uov::is_uov(solver.as_ref(), &d, &[2, 1], &Default::default()).unwrap());
    }
}

/// Schedules `a*i + b*j` that satisfy the paper's printed schedule constraints of
/// Example 1 (Sec. 5.1.1), by brute force over a small box.
fn example1_legal_grid() -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for a in 1..=4 {
        for b in -3..=3 {
            if a + 2 * b - 1 >= 0 && a - 1 >= 0 && a - b - 1 >= 0 {
                out.push((a, b));
            }
        }
    }
    out
}

#[test]
fn example1_aov_is_shortest_by_the_exact_checker() {
    // Independent of the linearisation: under legal schedules taken from the paper's
    // printed constraints, the mapping of (2, 1) is valid (exact checker, m = n = 6)
    // and every shorter vector (or (3, 0)'s rivals of length 3 before (2, 1)) fails
    // under at least one of them.
    let ex = load("ov-example1");
    let s = setup(&ex);
    let (tuple, space) = &s.arrays["A"];
    let grid = example1_legal_grid();
    assert!(grid.len() >= 6);
    let scheds: Vec<_> = grid.iter().map(|(a, b)| one_stmt("S", "m, n", "i, j", &format!("{a}*i + {b}*j"))).collect();
    let params = [6, 6];
    let map = |v: &[i64]| induced(v, tuple, space, &s.form.params).unwrap().mapping;
    for sc in &scheds {
        assert!(concrete(&ex, "A", &map(&[2, 1]), sc, &params), "(2, 1) under {sc:?}");
    }
    // Vectors up to sign (v and -v collapse the same cells).
    for v in [[1, 0], [0, 1], [1, 1], [1, -1], [2, 0], [0, 2], [1, 2], [1, -2], [2, -1], [0, 3]] {
        assert!(scheds.iter().any(|sc| !concrete(&ex, "A", &map(&v), sc, &params)), "{v:?} valid under every legal schedule");
    }
}

#[test]
fn example1_uov_survives_random_legal_orders() {
    // Sec. 6 / Strout et al.: a UOV is valid for every legal execution order. On
    // m = n = 5: random topological orders of the dependence graph of Fig. 1 (one
    // operation at a time), run by the executor with the storage folded by the vector's
    // mapping; every value read and live-out must be the original's. (3, 0) always is;
    // the AOV (2, 1) fails for some order.
    let (m, n) = (5i64, 5i64);
    let deps = [(1, 2), (1, 0), (1, -1)]; // consumer - producer
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let mut rnd = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let ex = load("ov-example1");
    let s = setup(&ex);
    let (tuple, space) = &s.arrays["A"];
    let exec = executor(&ex);
    let storage = |v: &[i64]| Storage::from([("A".to_string(), induced(v, tuple, space, &s.form.params).unwrap().mapping)]);
    let (uov, aov) = (storage(&[3, 0]), storage(&[2, 1]));
    let params = [m, n];
    let run = |st: &Storage, order: &[(i64, i64)]| -> bool {
        let trace = Trace { steps: order.iter().map(|&(i, j)| vec![(0, vec![i, j])]).collect() };
        exec.compare(&params, &trace, st).expect("executor").ok()
    };
    let mut aov_failed = false;
    for _ in 0..200 {
        // Random topological order: repeatedly pick a random ready operation.
        let mut done = std::collections::BTreeSet::new();
        let mut order = Vec::new();
        while order.len() < (m * n) as usize {
            let ready: Vec<(i64, i64)> = (1..=m)
                .flat_map(|i| (1..=n).map(move |j| (i, j)))
                .filter(|p| !done.contains(p))
                .filter(|&(i, j)| {
                    deps.iter().all(|(di, dj)| {
                        let (pi, pj) = (i - di, j - dj);
                        !(pi >= 1 && pj >= 1 && pj <= n) || done.contains(&(pi, pj))
                    })
                })
                .collect();
            let p = ready[(rnd() % ready.len() as u64) as usize];
            done.insert(p);
            order.push(p);
        }
        assert!(run(&uov, &order), "UOV (3, 0) broken by a legal order");
        aov_failed |= !run(&aov, &order);
    }
    assert!(aov_failed, "no random legal order breaks (2, 1)");
}

#[test]
fn example2_paper_values_on_every_backend() {
    let ex = load("ov-example2");
    let s = setup(&ex);
    for solver in polyalloc_tests::backends() {
        let eng = engine(&s, solver.as_ref());
        // Sec. 5.2: the linearised schedule constraints.
        let mut r = eng.theta_set(&eng.schedule_forms().unwrap(), &[]).unwrap();
        r.remove_redundant().unwrap();
        let printed = strings(&["a_1 = a_2", "b_1 = b_2", "c_1 = c_2", "d_1 = d_2", "b_2 - e_1 + e_2 - 1 >= 0", "a_2 + e_1 - e_2 - 1 >= 0"]);
        assert!(print::equivalent_to_printed(&r, &s.form.space, &printed).unwrap());
        // Fig. 15 caption: Theta_S1 = 2j, Theta_S2 = 2j + 1 violates P1 (bench-suite errata 2).
        let mut fig15 = one_stmt("S1", "m, n", "i, j", "2*j");
        fig15.extend(one_stmt("S2", "m, n", "i, j", "2*j + 1"));
        assert!(!eng.is_legal(&s.form.parse_schedule(&fig15).unwrap()).unwrap());
        // Sec. 5.2: AOVs (1, 1) for both arrays; Fig. 15: A[i - j + n].
        for a in ["A", "B"] {
            let aov = eng.aov(a).unwrap();
            assert_eq!(aov.vector, vec![1, 1], "array {a}");
            assert_eq!(eng.paper_ilp(a, None, false).unwrap(), Some(vec![1, 1]), "array {a}");
            let (tuple, space) = &s.arrays[a];
            let ind = induced(&aov.vector, tuple, space, &s.form.params).unwrap();
            assert!(rows_up_to_sign(&ind.pi, &[vec![1, -1]]));
            assert_eq!(ind.printed_paper, format!("{a}[i - j + n]"));
            // i - j ranges over [1 - n, m - 1].
            assert_eq!(ind.size, Polynomial::parse("m + n - 1").unwrap());
        }
    }
    // The exact checker under every legal schedule of the file (symbolic proof).
    let solver = polyalloc_backend_microlp_solver();
    for a in ["A", "B"] {
        let (tuple, space) = &s.arrays[a];
        let ind = induced(&[1, 1], tuple, space, &s.form.params).unwrap();
        for l in &s.section.legal_schedules {
            polyalloc_alloc::verify(&problem_under(&ex, a, l).unwrap(), &ind.mapping, solver.as_ref(), "aov").expect("verified");
        }
    }
}

fn polyalloc_backend_microlp_solver() -> Box<dyn Solver> {
    polyalloc_solvers::registry().create(polyalloc_solvers::DEFAULT_BACKEND).expect("default backend")
}

#[test]
fn example3_paper_values_on_every_backend() {
    let ex = load("ov-example3");
    let s = setup(&ex);
    let (tuple, space) = &s.arrays["A"];
    for solver in polyalloc_tests::backends() {
        let eng = engine(&s, solver.as_ref());
        // Sec. 5.3: the AOV (1, 1, 1); Fig. 17: A[jmax + i - j][kmax + i - k].
        let aov = eng.aov("A").unwrap();
        assert_eq!(aov.vector, vec![1, 1, 1]);
        // Two statements write A: the paper's program with a fixed overwriter does not apply.
        assert_eq!(eng.paper_ilp("A", None, false).unwrap(), None);
        let ind = induced(&aov.vector, tuple, space, &s.form.params).unwrap();
        assert!(rows_up_to_sign(&ind.pi, &[vec![1, -1, 0], vec![1, 0, -1]]));
        assert_eq!(ind.printed_paper, "A[i - j + jmax][i - k + kmax]");
        assert_eq!(ind.size, Polynomial::parse("(imax + jmax - 1)*(imax + kmax - 1)").unwrap());
        // Sec. 5.3: a*i + b*j + c*k is legal for a, b, c >= 1 (sampled), and not for c = 0.
        for (a, b, c) in [(1, 1, 1), (3, 1, 2), (1, 4, 1)] {
            let e = format!("{a}*i + {b}*j + {c}*k");
            let mut sc = one_stmt("S1", "imax, jmax, kmax", "i, j, k", &e);
            sc.extend(one_stmt("S2", "imax, jmax, kmax", "i, j, k", &e));
            assert!(eng.is_legal(&s.form.parse_schedule(&sc).unwrap()).unwrap(), "{e}");
        }
        let mut bad = one_stmt("S1", "imax, jmax, kmax", "i, j, k", "i + j");
        bad.extend(one_stmt("S2", "imax, jmax, kmax", "i, j, k", "i + j"));
        assert!(!eng.is_legal(&s.form.parse_schedule(&bad).unwrap()).unwrap());
    }
    // Direct simulation (independent of the conflict-set code) under the legal schedules
    // of the file and under 2i + 3j + k (legal by Sec. 5.3), at imax, jmax, kmax = 3, 4, 3.
    let ind = induced(&[1, 1, 1], tuple, space, &s.form.params).unwrap();
    let mut scheds = s.section.legal_schedules.clone();
    let mut extra = one_stmt("S1", "imax, jmax, kmax", "i, j, k", "2*i + 3*j + k");
    extra.extend(one_stmt("S2", "imax, jmax, kmax", "i, j, k", "2*i + 3*j + k"));
    scheds.push(extra);
    let maps = |m: &ModularMapping| BTreeMap::from([("A".to_string(), m.clone())]);
    for sc in &scheds {
        assert!(runs_identically(&ex, sc, &maps(&ind.mapping), &[3, 4, 3]), "{sc:?}");
    }
    // And a shorter vector, e.g. (1, 1, 0), breaks under one of them.
    let short = induced(&[1, 1, 0], tuple, space, &s.form.params).unwrap();
    assert!(scheds.iter().any(|sc| !runs_identically(&ex, sc, &maps(&short.mapping), &[3, 4, 3])));
}

/// Runs the example's program under `sched` (statement -> isl relation) at `params`
/// with the arrays of `maps` folded by their mappings, with polyalloc's one executor:
/// time steps in increasing order, at each step every read before every write (Eq.
/// (7)'s convention), compared with the program run in a sequential order with a cell
/// per value. True when every value read and every live-out value is the same.
fn runs_identically(ex: &Example, sched: &BTreeMap<String, String>, maps: &BTreeMap<String, ModularMapping>, params: &[i64]) -> bool {
    let mut ex2 = ex.clone();
    for st in ex2.program.as_mut().expect("program").statements.iter_mut() {
        if let Some(x) = sched.get(&st.name) {
            st.schedule = x.clone();
        }
    }
    let scheduled = ex2.program_model().expect("program").expect("program");
    let exec = executor(ex);
    let time = |k: usize, it: &[i64]| Ok(vec![scheduled.statements[k].schedule[0].eval(params, it)?]);
    exec.compare_schedule(params, &time, maps).expect("executor").ok()
}

/// The executor of the example's program, whose reference order is the program's
/// one-dimensional schedule refined into a sequential order.
fn executor(ex: &Example) -> Executor {
    let program = ex.program_model().expect("program").expect("program");
    Executor::with_hash_bodies(sequential(&program).expect("one-dimensional schedules"))
}

#[test]
fn example4_paper_values_on_every_backend() {
    let ex = load("ov-example4");
    let s = setup(&ex);
    for solver in polyalloc_tests::backends() {
        let eng = engine(&s, solver.as_ref());
        // Sec. 5.4 / Fig. 20: AOVs (1, 0) and 1, n + 1 locations in all.
        let a = eng.aov("A").unwrap();
        let b = eng.aov("B").unwrap();
        assert_eq!((a.vector.clone(), b.vector.clone()), (vec![1, 0], vec![1]));
        assert_eq!(eng.paper_ilp("A", None, false).unwrap(), Some(vec![1, 0]));
        assert_eq!(eng.paper_ilp("B", None, false).unwrap(), Some(vec![1]));
        let (ta, sa) = &s.arrays["A"];
        let (tb, sb) = &s.arrays["B"];
        let ia = induced(&a.vector, ta, sa, &s.form.params).unwrap();
        let ib = induced(&b.vector, tb, sb, &s.form.params).unwrap();
        assert_eq!(ia.printed_paper, "A[j]");
        assert_eq!(ib.printed_paper, "B (scalar)");
        assert_eq!(ia.size.checked_add(&ib.size).unwrap(), Polynomial::parse("n + 1").unwrap());
        // Fig. 20 caption: Theta_S1 = 2i, Theta_S2 = 2i + 1 is legal.
        let mut sc = one_stmt("S1", "n", "i, j", "2*i");
        sc.extend(BTreeMap::from([("S2".to_string(), "[n] -> { S2[i] -> [2*i + 1] }".to_string())]));
        assert!(eng.is_legal(&s.form.parse_schedule(&sc).unwrap()).unwrap());
    }
    let solver = polyalloc_backend_microlp_solver();
    for (arr, v) in [("A", vec![1, 0]), ("B", vec![1])] {
        let (t, sp) = &s.arrays[arr];
        let ind = induced(&v, t, sp, &s.form.params).unwrap();
        for l in &s.section.legal_schedules {
            polyalloc_alloc::verify(&problem_under(&ex, arr, l).unwrap(), &ind.mapping, solver.as_ref(), "aov").expect("verified");
        }
    }
}

#[test]
fn printed_dependences_give_the_same_schedule_polyhedron() {
    // The dependences printed by the paper (the files' `ov.dependences`) and those
    // computed from the program's accesses define the same legal schedules for
    // Examples 1, 2 and 4 (Example 3 prints only three dependences per statement pair).
    let solver = polyalloc_backend_microlp_solver();
    for id in ["ov-example1", "ov-example2", "ov-example4"] {
        let ex = load(id);
        let sa = Setup::from_example(&ex, DependenceSource::Accesses).unwrap();
        let sf = Setup::from_example(&ex, DependenceSource::File).unwrap();
        let ea = engine(&sa, solver.as_ref());
        let ef = engine(&sf, solver.as_ref());
        let mut ra = ea.theta_set(&ea.schedule_forms().unwrap(), &[]).unwrap();
        ra.remove_redundant().unwrap();
        let mut rf = ef.theta_set(&ef.schedule_forms().unwrap(), &[]).unwrap();
        rf.remove_redundant().unwrap();
        let printed = print::paper_constraints(&rf, &sf.form.space).unwrap();
        assert!(print::equivalent_to_printed(&ra, &sa.form.space, &printed).unwrap(), "{id}: {printed:?}");
    }
}

#[test]
fn methods_through_the_facade() {
    // `ov`, `aov`, `uov` from the one registry, verified by the facade: one obligation
    // per schedule, labelled by the schedule, each proven by the exact checker.
    let input = polyalloc::load(&polyalloc_suite::default_dir().join("ov-example1.json")).unwrap();
    let reg = polyalloc::registry();
    let b = polyalloc::backend("default").unwrap();
    for name in ["ov", "aov", "uov"] {
        assert_eq!(reg.get(name).unwrap().targets(&input).unwrap(), vec!["A".to_string()], "{name}");
    }
    // Sec. 5.1.2 and Fig. 7: (1, 0) for Theta = i, (2, 0) with the strict constraint.
    let ov = polyalloc::run(&input, reg.get("ov").unwrap(), "A", &b, Default::default()).unwrap();
    let d: OvDetails = read_details(&ov.outcome.details).unwrap();
    assert_eq!((d.ov.clone(), d.strict_ov.clone(), d.mapping.printed_paper.as_str()), (vec![1, 0], vec![2, 0], "A[j]"));
    assert_eq!(ov.verified_under.iter().map(|(l, _)| l.as_str()).collect::<Vec<_>>(), ["S: i"]);
    // Sec. 5.1.3: the schedules valid for (2, 0) are the printed ones.
    assert!(d.valid_schedules.iter().all(|v| v.equal_paper) && d.valid_schedules.len() == 1);
    assert_eq!(d.schedule_constraints_equal_paper, Some(true));
    // Sec. 5.1.4: AOV (2, 1), verified under the program's and every listed legal schedule.
    let aov = polyalloc::run(&input, reg.get("aov").unwrap(), "A", &b, Default::default()).unwrap();
    let d: AovDetails = read_details(&aov.outcome.details).unwrap();
    assert_eq!((d.aov, d.mapping.printed_paper.as_str(), d.is_uov), (vec![2, 1], "A[2*j - i + m]", Some(false)));
    let labels: Vec<&str> = aov.verified_under.iter().map(|(l, _)| l.as_str()).collect();
    assert_eq!(labels, ["S: i", "S: 2*i + j", "S: 3*i + 2*j", "S: 3*i - j"]);
    assert!(aov.verified_under.iter().all(|(_, v)| *v == polyalloc::Verification::Proven));
    assert_eq!(aov.size.unwrap(), Polynomial::parse("m + 2*n - 2").unwrap());
    assert!(aov.execution.as_ref().is_some_and(|e| e.identical));
    // Sec. 6: UOV (3, 0), run in random legal orders by the facade.
    let u = polyalloc::run(&input, reg.get("uov").unwrap(), "A", &b, Default::default()).unwrap();
    let d: UovDetails = read_details(&u.outcome.details).unwrap();
    assert_eq!((d.uov, d.aov, d.aov_is_uov), (vec![3, 0], vec![2, 1], false));
    assert!(u.execution.as_ref().is_some_and(|e| e.identical && e.summary.contains("random legal order")));
}

#[test]
fn uov_is_not_applicable_to_non_stencils_and_other_files_have_no_target() {
    let reg = polyalloc::registry();
    let b = polyalloc::backend("default").unwrap();
    // Example 2: A is read by another statement (Strout et al. consider stencils).
    let input = polyalloc::load(&polyalloc_suite::default_dir().join("ov-example2.json")).unwrap();
    let err = polyalloc::run(&input, reg.get("uov").unwrap(), "A", &b, Default::default()).unwrap_err();
    assert!(matches!(err.failure, polyalloc::Failure::Method(polyalloc::MethodError::NotApplicable(_))), "{err}");
    // A file without an `ov` section: not applicable, with the reason.
    let smo = polyalloc::load(&polyalloc_suite::default_dir().join("smo-produce-consume.json")).unwrap();
    for name in ["ov", "aov", "uov"] {
        assert!(matches!(reg.get(name).unwrap().targets(&smo), Err(polyalloc::MethodError::NotApplicable(_))), "{name}");
    }
}
