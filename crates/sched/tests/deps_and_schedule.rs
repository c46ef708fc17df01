//! Dependence analysis against a brute-force simulation of the original order, and the
//! building blocks of the scheduler.

use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_program::Program;
use polyalloc_sched::example::PughExample;
use polyalloc_sched::schedule::{candidates, format_scaled};
use std::collections::BTreeSet;

type Pair = (usize, Vec<i64>, usize, Vec<i64>);

fn load(id: &str) -> PughExample {
    let path = polyalloc_suite::default_dir().join(format!("{id}.json"));
    PughExample::from_example(&polyalloc_suite::Example::load(&path).unwrap()).unwrap()
}

/// Every pair of instances touching one cell, the first in the original order before
/// the second, at least one access a write (or both reads of a broadcast array, any
/// order): found by enumerating instances and accesses.
fn brute_force(p: &Program, params: &[i64], broadcast: &[String]) -> (BTreeSet<Pair>, BTreeSet<Pair>) {
    let mut inst: Vec<(Vec<i64>, usize, Vec<i64>)> = Vec::new();
    for (k, s) in p.statements.iter().enumerate() {
        for it in s.domain.enumerate(params, 100_000).unwrap() {
            let t: Vec<i64> = s.schedule.iter().map(|e| e.eval(params, &it).unwrap()).collect();
            inst.push((t, k, it));
        }
    }
    inst.sort();
    let acc = |k: usize, it: &[i64]| -> Vec<(String, Vec<i64>, bool)> {
        let s = &p.statements[k];
        let cell = |a: &polyalloc_program::Access| a.index.iter().map(|e| e.eval(params, it).unwrap()).collect::<Vec<i64>>();
        s.writes.iter().map(|a| (a.array.clone(), cell(a), true)).chain(s.reads.iter().map(|a| (a.array.clone(), cell(a), false))).collect()
    };
    let (mut ord, mut bc) = (BTreeSet::new(), BTreeSet::new());
    for (x, (_, kx, ix)) in inst.iter().enumerate() {
        for (_, ky, iy) in inst.iter().skip(x + 1) {
            for (ax, cx, wx) in acc(*kx, ix) {
                for (ay, cy, wy) in acc(*ky, iy) {
                    if ax != ay || cx != cy {
                        continue;
                    }
                    if wx || wy {
                        ord.insert((*kx, ix.clone(), *ky, iy.clone()));
                    } else if broadcast.contains(&ax) {
                        bc.insert((*kx, ix.clone(), *ky, iy.clone()));
                        bc.insert((*ky, iy.clone(), *kx, ix.clone()));
                    }
                }
            }
        }
    }
    (ord, bc)
}

#[test]
fn dependence_analysis_equals_brute_force() {
    let solver = MicrolpSolver;
    for id in ["pugh-example1", "pugh-example2", "pugh-smoothing", "pugh-givens-qr"] {
        let pe = load(id);
        let prog = pe.program.clone();
        let deps = pe.computed_dependences(&solver).unwrap();
        for params in pe.instances.iter().take(2) {
            let (ord, bc) = brute_force(&prog, params, &pe.broadcast_arrays);
            let (mut got_o, mut got_b) = (BTreeSet::new(), BTreeSet::new());
            for d in &deps {
                let ni = d.relation.space().n_in();
                for pt in d.relation.enumerate(params, 200_000).unwrap() {
                    let pair = (d.source, pt[..ni].to_vec(), d.target, pt[ni..].to_vec());
                    if d.kind.orders() {
                        got_o.insert(pair);
                    } else {
                        got_b.insert(pair);
                    }
                }
            }
            assert_eq!(got_o, ord, "{id} {params:?}");
            // Broadcast pairs of one statement in both directions; across statements once.
            let sym: BTreeSet<Pair> =
                got_b.iter().flat_map(|(a, x, b, y)| [(*a, x.clone(), *b, y.clone()), (*b, y.clone(), *a, x.clone())]).collect();
            assert_eq!(sym, bc, "{id} {params:?} broadcast");
        }
    }
}

/// Pugh 1991, Sec. 4: with no distance learned, the 1-norm-1 candidates for `T[i, j]` come as
/// `i, -i, j, -j`; norm 2 starts with `2i`.
#[test]
fn nomination_order() {
    assert_eq!(candidates(2, 1, &[false, false]), vec![vec![1, 0], vec![-1, 0], vec![0, 1], vec![0, -1]]);
    assert_eq!(candidates(2, 2, &[false, false])[0], vec![2, 0]);
    assert_eq!(candidates(2, 2, &[false, false]).len(), 8);
    // A dimension kept parallel gets coefficient 0.
    assert_eq!(candidates(2, 1, &[true, false]), vec![vec![0, 1], vec![0, -1]]);
    // Every vector of 1-norm 3 in 3 dimensions exactly once.
    let all = candidates(3, 3, &[false; 3]);
    let set: BTreeSet<Vec<i64>> = all.iter().cloned().collect();
    assert_eq!(set.len(), all.len());
    assert!(all.iter().all(|v| v.iter().map(|x| x.abs()).sum::<i64>() == 3));
    assert_eq!(all.len(), 38);
}

#[test]
fn schedules_print_like_the_paper() {
    let names: Vec<String> = ["i", "j", "k"].iter().map(|s| s.to_string()).collect();
    // Scaled by 2: 2i + 2k + 1 is i + k + 1/2 (Example 1); -r stays -r.
    assert_eq!(format_scaled(&[2, 0, 2], &names, 1, 2), "i + k + 1/2");
    assert_eq!(format_scaled(&[0, 2, 0], &names, 3, 2), "j + 3/2");
    assert_eq!(format_scaled(&[6, -2, 0], &names, -1, 2), "3i - j - 1/2");
    assert_eq!(format_scaled(&[0, 0, 0], &names, 0, 1), "0");
}

/// Pugh 1991, Sec. 3, "Reduction dependencies": `s[i, j]` adds `b[j]` to `a[i]`, the j loop
/// counting upward. As ordinary dependences the updates of `a[i]` must keep their
/// order (`T = -j` is illegal); as reduction dependences they may run "in either
/// order, but not simultaneously" (`T = -j` is legal, `T = i` is not).
#[test]
fn reduction_dependences() {
    use polyalloc_program::deps::{analyze, DepKind, DepOptions};
    use polyalloc_program::exec::{Body, Executor, Storage};
    use polyalloc_program::Statement;
    use polyalloc_sched::schedule::{check, schedule, Problem, SchedOptions, Schedule, StmtSchedule};
    let solver = MicrolpSolver;
    let mut p = Program::new("[N, M] -> { : N >= 2 and M >= 2 }").unwrap();
    p.add_statement(
        Statement::parse(
            "[N, M] -> { s[i, j] : 1 <= i <= N and 1 <= j <= M }",
            "[N, M] -> { s[i, j] -> [i, j] }",
            &["[N, M] -> { s[i, j] -> a[i] }"],
            &["[N, M] -> { s[i, j] -> a[i] }", "[N, M] -> { s[i, j] -> b[j] }"],
        )
        .unwrap(),
    )
    .unwrap();
    let params = vec!["N".to_string(), "M".to_string()];
    let sched = |c: [i64; 2]| Schedule {
        params: params.clone(),
        scale: 1,
        stmts: vec![StmtSchedule { name: "s".into(), coeffs: c.to_vec(), param_coeffs: vec![0, 0], offset: 0 }],
    };
    for reduction in [false, true] {
        let opts = DepOptions { broadcast_arrays: vec![], reduction_arrays: if reduction { vec!["a".into()] } else { vec![] } };
        let deps = analyze(&p, &opts, &solver).unwrap();
        assert_eq!(deps.iter().all(|d| d.kind == DepKind::Reduction), reduction);
        let pb = Problem::from_program(&p, deps).unwrap();
        assert_eq!(check(&pb, &sched([0, -1]), false, &solver).unwrap().is_empty(), reduction, "T = -j");
        assert!(!check(&pb, &sched([1, 0]), false, &solver).unwrap().is_empty(), "T = i");
        let out = schedule(&pb, &SchedOptions::default(), &solver).unwrap();
        assert!(check(&pb, &out.schedule, false, &solver).unwrap().is_empty());
    }
    // The executor, with an order-independent update a[i] := a[i] + b[j].
    let body: Body = Box::new(|_, r| vec![r[0].unwrap_or(0).wrapping_add(r[1].unwrap_or(0))]);
    let ex = Executor::new(p.clone(), vec![body]).unwrap().with_reduction_arrays(vec!["a".into()]);
    let q = [3, 4];
    assert!(ex.compare_schedule(&q, &|_, it| Ok(vec![-it[1]]), &Storage::new()).unwrap().ok());
    assert!(!ex.compare_schedule(&q, &|_, it| Ok(vec![it[0]]), &Storage::new()).unwrap().ok());
    let body: Body = Box::new(|_, r| vec![r[0].unwrap_or(0).wrapping_add(r[1].unwrap_or(0))]);
    let strict = Executor::new(p, vec![body]).unwrap();
    assert!(!strict.compare_schedule(&q, &|_, it| Ok(vec![-it[1]]), &Storage::new()).unwrap().ok());
}

/// Two components in a chain: `s1[i]` writes `A[i]`, `s2[i, j]` reads `A[j]`. The
/// second is scheduled by transfer from the first (nominated alone it would get
/// `T = i`, which no offset aligns with `T1 = i`), and the executor confirms.
#[test]
fn acyclic_components_are_aligned() {
    use polyalloc_program::deps::{analyze, DepOptions};
    use polyalloc_program::exec::{Executor, Storage};
    use polyalloc_program::Statement;
    use polyalloc_sched::schedule::{schedule, Problem, SchedOptions};
    let solver = MicrolpSolver;
    let mut p = Program::new("[N] -> { : N >= 2 }").unwrap();
    p.add_statement(
        Statement::parse(
            "[N] -> { s1[i] : 1 <= i <= N }",
            "[N] -> { s1[i] -> [0, i, 0] }",
            &["[N] -> { s1[i] -> A[i] }"],
            &["[N] -> { s1[i] -> A[i - 1] }"],
        )
        .unwrap(),
    )
    .unwrap();
    p.add_statement(
        Statement::parse(
            "[N] -> { s2[i, j] : 1 <= i <= N and 1 <= j <= N }",
            "[N] -> { s2[i, j] -> [1, i, j] }",
            &["[N] -> { s2[i, j] -> B[i, j] }"],
            &["[N] -> { s2[i, j] -> A[j] }"],
        )
        .unwrap(),
    )
    .unwrap();
    let deps = analyze(&p, &DepOptions::default(), &solver).unwrap();
    let pb = Problem::from_program(&p, deps).unwrap();
    let out = schedule(&pb, &SchedOptions::default(), &solver).unwrap();
    assert_eq!(out.seeds, vec!["s1".to_string()]);
    let ex = Executor::with_hash_bodies(p);
    for n in [2, 5] {
        let q = [n];
        let rep = ex.compare_schedule(&q, &|k, it| Ok(vec![out.schedule.time(&pb.statements[k].name, &q, it)?]), &Storage::new()).unwrap();
        assert!(rep.ok(), "{}: {}", out.schedule.to_isl(&pb), rep.summary());
    }
}
