//! Paper Pugh 1991 reproduced on the
//! bench-suite files `pugh-*.json`: dependence relations from the accesses (Sec. 3,
//! Tables 2-4), the schedules and trial sequences of Sec. 4 and Appendices 4-5, the
//! rearranged loops of Sec. 5 and the appendices, and the method `schedule` through the
//! front door (`polyalloc::run`), whose executions confirm that the schedule and the
//! rearranged code compute what the original computes, at every instance.

use polyalloc::{registry, Failure, RunOptions};
use polyalloc_alloc::{ExecutionCheck, Input, Order, StoragePlan};
use polyalloc_formulation::Map;
use polyalloc_program::exec::{Executor, Instance, Storage, Trace};
use polyalloc_program::ProgramError;
use polyalloc_sched::example::{reproduce, PughExample};
use polyalloc_sched::schedule::{self, Problem, Schedule};
use polyalloc_sched::ScheduleDetails;
use polyalloc_suite::Example;
use polyalloc_tests::backends;
use std::collections::BTreeSet;
use std::sync::Arc;

const IDS: [&str; 4] = ["pugh-example1", "pugh-example2", "pugh-smoothing", "pugh-givens-qr"];

fn example(id: &str) -> Example {
    let path = polyalloc_suite::default_dir().join(format!("{id}.json"));
    Example::load(&path).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn load(id: &str) -> PughExample {
    PughExample::from_example(&example(id)).unwrap_or_else(|e| panic!("{id}: {e}"))
}

/// The paper's dependence table over the program's statements.
fn table(pe: &PughExample) -> Problem {
    pe.table_problem().unwrap().expect("the file gives the paper's table")
}

type Pair = (String, Vec<i64>, String, Vec<i64>);

fn pairs_of<'a>(pe: &PughExample, deps: impl Iterator<Item = (usize, usize, &'a Map)>, params: &[i64]) -> BTreeSet<Pair> {
    let mut out = BTreeSet::new();
    for (s, t, rel) in deps {
        let ni = rel.space().n_in();
        for p in rel.enumerate(params, 200_000).unwrap() {
            out.insert((pe.program.statements[s].name.clone(), p[..ni].to_vec(), pe.program.statements[t].name.clone(), p[ni..].to_vec()));
        }
    }
    out
}

fn p(s: &str, x: &[i64], t: &str, y: &[i64]) -> Pair {
    (s.to_string(), x.to_vec(), t.to_string(), y.to_vec())
}

/// Sec. 3: memory-based dependences computed from the accesses, against the printed
/// tables. Where they differ, the difference was derived by hand from the code:
/// * Example 1 (Table 2): `s1[k+1]` writes `B[k+1, k+1]`, which `s1[k+2]` reads as
///   `B[l-1, k+1]`: the flow dependence `s1[k+1] δ s1[k+2]` is not in the table (it is
///   implied by `s1[k+1] δ s2[k+1, k+1] δ s1[k+2]`, dependences 4 and 1).
/// * Example 2 (Table 3): equal.
/// * Smoothing (Appendix 4): every sweep rewrites `a[i, j]`: the output dependences
///   `s1[k, i, j] δ s1[k', i, j]`, `k < k'`, are not printed (implied transitively).
/// * Givens QR (Table 4): within one column `c`, `s1[c, r]` reads `a[r, c]` before
///   `s2[c, r-1, c]` overwrites it (anti), and `s2[c, r, c]` writes `a[r, c]` read by
///   `s1[c, r-1]` (flow); Table 4 only lists `s2[c, r, k] δ s1[k, ...]` for `c < k`.
///   The printed broadcast range `c <= k' < n` leaves out `k' = n`.
#[test]
fn dependence_analysis_against_tables_2_to_4() {
    for solver in backends() {
        let solver = solver.as_ref();
        for id in IDS {
            let pe = load(id);
            let table = table(&pe);
            let computed = pe.computed_dependences(solver).unwrap();
            for params in pe.instances.iter().take(2) {
                let ord = |b: bool| {
                    let c = pairs_of(&pe, computed.iter().filter(|d| d.kind.orders() == b).map(|d| (d.source, d.target, &d.relation)), params);
                    let t = pairs_of(&pe, table.deps.iter().filter(|d| d.kind.orders() == b).map(|d| (d.source, d.target, &d.relation)), params);
                    (c, t)
                };
                let (comp, table) = ord(true);
                let extra: BTreeSet<Pair> = comp.difference(&table).cloned().collect();
                assert!(table.is_subset(&comp), "{id} {params:?}: a printed dependence is not computed");
                let mut want = BTreeSet::new();
                match id {
                    "pugh-example1" => {
                        let k = params[0];
                        want.insert(p("s1", &[k + 1], "s1", &[k + 2]));
                    }
                    "pugh-smoothing" => {
                        let (pp, n, m) = (params[0], params[1], params[2]);
                        for k in 1..=pp {
                            for k2 in k + 1..=pp {
                                for i in 2..n {
                                    for j in 2..m {
                                        want.insert(p("s1", &[k, i, j], "s1", &[k2, i, j]));
                                    }
                                }
                            }
                        }
                    }
                    "pugh-givens-qr" => {
                        let n = params[0];
                        for c in 1..n {
                            for r in c + 1..n {
                                want.insert(p("s1", &[c, r], "s2", &[c, r - 1, c]));
                                want.insert(p("s2", &[c, r, c], "s1", &[c, r - 1]));
                            }
                        }
                    }
                    _ => {}
                }
                assert_eq!(extra, want, "{id} {params:?}");
                let (bcomp, btable) = ord(false);
                assert!(btable.is_subset(&bcomp), "{id}: printed broadcast pairs are computed");
                if id == "pugh-givens-qr" {
                    let n = params[0];
                    assert!(!btable.is_empty());
                    assert!(bcomp.difference(&btable).all(|(_, x, _, y)| x[2] == n || y[2] == n));
                }
            }
        }
    }
}

/// Sec. 4 Example 2 part 2: the transitive self-dependences are
/// `s1[i, j] δ s2[i+2, j+2] δ s1[i+2, j+3]`, `... δ s1[i+3, j+1]` and
/// `s2[i, j] δ s1[i, j+1] δ s2[i+2, j+3]`, `s2[i, j] δ s1[i+1, j-1] δ s2[i+3, j+1]`:
/// distances (2, 3) and (3, 1) for both statements.
#[test]
fn transitive_self_dependences_of_example2() {
    let pe = load("pugh-example2");
    for solver in backends() {
        for st in 0..2 {
            let (m, exact) = schedule::transitive_self_dependences(&table(&pe), st, &pe.options(false), solver.as_ref()).unwrap();
            assert!(exact);
            let dd = polyalloc_sched::rel::distances(&m).unwrap();
            // (At the smallest instance, n = 5 and m = 6, the chains do not fit.)
            let want = BTreeSet::from([vec![2, 3], vec![3, 1]]);
            for params in &pe.instances {
                let got: BTreeSet<Vec<i64>> = dd.enumerate(params, 10_000).unwrap().into_iter().collect();
                assert!(got.is_subset(&want), "statement {st} at {params:?}: {got:?}");
            }
            let last = pe.instances.last().unwrap();
            let got: BTreeSet<Vec<i64>> = dd.enumerate(last, 10_000).unwrap().into_iter().collect();
            assert_eq!(got, want, "statement {st} at {last:?}");
        }
    }
}

/// Every paper schedule gets its expected verdict from the exact checker (trials that
/// fail, final schedules, and Fig. 4's alternative for Example 1).
#[test]
fn paper_schedules_get_their_verdicts() {
    for solver in backends() {
        for id in IDS {
            let pe = load(id);
            for e in &pe.entries {
                let bad = schedule::check(&table(&pe), &e.schedule, e.respect_broadcast, solver.as_ref()).unwrap();
                assert_eq!(bad.is_empty(), e.expect_valid, "{id} {}: violated {bad:?}", e.location);
            }
        }
    }
}

/// Sec. 4 and the appendices: the nominated candidates are the paper's trials, in the
/// paper's order, with the printed violated distances; the final schedules are the
/// paper's (Example 1: T2 = i + j, T1 = i + k + 1/2; Example 2: T1 = j + 1 1/2, T2 = j;
/// smoothing: 2k + i + j; Givens QR: T2 = 2c - r + k, T1 = 3c - r - 1/2 avoiding
/// broadcasts, 2c - r and 2c - r - 1/2 without).
#[test]
fn schedules_and_trials_reproduce_the_paper() {
    for solver in backends() {
        for id in IDS {
            let pe = load(id);
            let runs = reproduce(&pe, solver.as_ref()).unwrap();
            for run in &runs {
                let mut trials: Vec<_> = pe.entries.iter().filter(|e| e.role == "trial" && e.respect_broadcast == run.respect_broadcast).collect();
                // Appendix 4 lists the succeeding candidate as the final schedule.
                if trials.last().is_some_and(|t| !t.expect_valid) {
                    trials.extend(pe.entries.iter().filter(|e| e.role == "final" && e.statements.len() == 1));
                }
                if !trials.is_empty() {
                    assert_eq!(run.outcome.trials.len(), trials.len(), "{id}: number of trials");
                    for (ours, paper) in run.outcome.trials.iter().zip(&trials) {
                        let want: Vec<i64> = paper.schedule.get(&ours.stmt).unwrap().coeffs.iter().map(|c| c / paper.schedule.scale).collect();
                        assert_eq!(ours.coeffs, want, "{id}: trial {}", paper.location);
                        assert_eq!(ours.violated.is_none(), paper.expect_valid, "{id}: {}", paper.location);
                        if let (Some(v), Some(d)) = (&ours.violated, &paper.violated_distance) {
                            assert_eq!(&v.distance, d, "{id}: {}", paper.location);
                        }
                    }
                }
                let finals: Vec<_> = pe
                    .entries
                    .iter()
                    .filter(|e| {
                        e.role == "final" && e.respect_broadcast == run.respect_broadcast && e.variant.as_deref().is_none_or(|v| !v.contains("late"))
                    })
                    .collect();
                assert_eq!(finals.len(), 1, "{id}");
                assert!(run.outcome.schedule.same_as(&finals[0].schedule), "{id}: got {:?}", run.texts);
                // Sec. 3 then Sec. 4: from the dependences computed from the accesses, the
                // same schedule.
                assert!(run.from_table, "{id}");
                assert_eq!(run.from_accesses, run.texts, "{id}: schedule from the accesses");
            }
            assert_eq!(runs.len(), if id == "pugh-givens-qr" { 2 } else { 1 });
        }
    }
}

fn fdiv(a: i64, b: i64) -> i64 {
    a.div_euclid(b)
}
fn cdiv(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

/// The generated code printed in the paper, transcribed as loops (s1 = statement 0).
fn paper_code(id: &str, broadcasts: bool, q: &[i64]) -> Trace {
    let mut steps: Vec<Vec<Instance>> = Vec::new();
    match id {
        // Sec. 5, Example 1 part 3.
        "pugh-example1" => {
            let (k, n) = (q[0], q[1]);
            for t in 2 * k + 2..=n + k + 1 {
                steps.push(vec![(0, vec![t - 1 - k])]);
                steps.push((k + 1..=t - k - 1).map(|j| (1, vec![t - j, j])).collect());
            }
            for t in n + k + 2..=2 * n {
                steps.push((t - n..=n).map(|j| (1, vec![t - j, j])).collect());
            }
        }
        // Sec. 5, Example 2 part 3 (params n, m).
        "pugh-example2" => {
            let (n, m) = (q[0], q[1]);
            steps.push((3..=n).map(|i| (1, vec![i, 3])).collect());
            for t in 4..=m - 1 {
                steps.push((3..=n).map(|i| (1, vec![i, t])).collect());
                steps.push((3..=n).map(|i| (0, vec![i, t - 1])).collect());
            }
            steps.push((3..=n).map(|i| (0, vec![i, m - 1])).collect());
        }
        // Appendix 4 (with j = t - 2k - i, see the file's note on the printed t - 2k - 1).
        "pugh-smoothing" => {
            let (pp, n, m) = (q[0], q[1], q[2]);
            for t in 6..=2 * pp + n + m - 2 {
                let mut s = Vec::new();
                for k in 1.max(cdiv(2 + t - m - n, 2))..=fdiv(t - 4, 2).min(pp) {
                    for i in 2.max(1 + t - m - 2 * k)..=(t - 2 - 2 * k).min(n - 1) {
                        s.push((0, vec![k, i, t - 2 * k - i]));
                    }
                }
                steps.push(s);
            }
        }
        // Appendix 5, generated code (broadcasts avoided) and Take 2.
        "pugh-givens-qr" => {
            let n = q[0];
            if broadcasts {
                for t in 4 - n..=2 * n - 1 {
                    steps.push((1.max(cdiv(t, 2))..=fdiv(n - 1 + t, 3).min(n - 1)).map(|c| (0, vec![c, 3 * c - t])).collect());
                    let mut s = Vec::new();
                    for c in 1.max(t - n)..=fdiv(n - 1 + t, 3).min(n - 1) {
                        for k in c.max(t - c)..=(n - 1 + t - 2 * c).min(n) {
                            s.push((1, vec![c, 2 * c + k - t, k]));
                        }
                    }
                    steps.push(s);
                }
            } else {
                for t in 3 - n..=n - 1 {
                    let cs = 1.max(t)..=fdiv(n - 1 + t, 2).min(n - 1);
                    steps.push(cs.clone().map(|c| (0, vec![c, 2 * c - t])).collect());
                    steps.push(cs.flat_map(|c| (c..=n).map(move |k| (1, vec![c, 2 * c - t, k]))).collect());
                }
            }
        }
        _ => panic!("no paper code for {id}"),
    }
    let steps = steps
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(|mut s| {
            s.sort();
            s
        })
        .collect();
    Trace { steps }
}

fn normalized(t: &Trace) -> Vec<Vec<Instance>> {
    t.steps
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s.sort();
            s
        })
        .collect()
}

/// Sec. 5 and Appendices 4-5: the rearranged loops execute exactly the instances of the
/// paper's generated code, step by step, at every instance, and the paper's own code
/// computes what the original computes.
#[test]
fn rearranged_loops_match_the_papers_code() {
    let solver = &backends()[0];
    for id in IDS {
        let pe = load(id);
        let exec = Executor::with_hash_bodies(pe.program.clone());
        for run in reproduce(&pe, solver.as_ref()).unwrap() {
            for q in &pe.instances {
                let ours = run.code.trace(q).unwrap();
                let paper = paper_code(id, run.respect_broadcast, q);
                assert_eq!(normalized(&ours), paper.steps, "{id} at {q:?}:\n{}", run.code.text());
                let rep = exec.compare(q, &paper, &Storage::new()).unwrap();
                assert!(rep.ok(), "{id}: the paper's code at {q:?}: {}", rep.summary());
            }
        }
    }
}

/// The method `schedule` through the front door, on every backend: its targets are the
/// scheduling runs (Givens QR, Appendix 5: broadcasts respected, then ignored); the
/// facade runs the program under the schedule found and under the generated loops at
/// every instance of the file, and both compute the original values; the typed details
/// carry the paper's final schedule (Example 1: T1 = i + k + 1/2, T2 = i + j; Example 2:
/// T1 = j + 3/2, T2 = j; smoothing: 2k + i + j; Givens QR: 3c - r - 1/2 and
/// 2c - r + k, or 2c - r - 1/2 and 2c - r) and its trials.
#[test]
fn schedule_method_through_the_front_door() {
    let method = registry().get("schedule").expect("registered");
    assert!(method.as_allocator().is_none());
    let backends = polyalloc::run::backends("all").unwrap();
    for id in IDS {
        let pe = load(id);
        let input = Input::new(example(id));
        let targets = method.targets(&input).unwrap();
        let want: Vec<&str> = if id == "pugh-givens-qr" { vec!["broadcasts-respected", "-"] } else { vec!["-"] };
        assert_eq!(targets, want, "{id}");
        for b in &backends {
            for t in &targets {
                let v = polyalloc::run(&input, method, t, b, RunOptions::default()).unwrap_or_else(|e| panic!("{id} {t} on {}: {e}", b.name));
                assert!(v.outcome.mapping.is_none() && v.outcome.obligations.is_empty());
                let labels: Vec<&str> = v.outcome.executions.iter().map(|c| c.label.as_str()).collect();
                assert_eq!(labels, ["schedule", "generated loops"], "{id}");
                let ex = v.execution.as_ref().expect("executed by the facade");
                assert!(ex.identical, "{id} {t}: {}", ex.summary);
                assert_eq!(ex.instances, 2 * pe.instances.len(), "{id} {t}: {}", ex.summary);
                assert_eq!(v.verification.label(), "instances");
                let d = ScheduleDetails::from_details(&v.outcome.details).unwrap();
                assert_eq!(d.respect_broadcast, t == "broadcasts-respected");
                assert_eq!(d.dependences, "table");
                let finals: Vec<_> = pe
                    .entries
                    .iter()
                    .filter(|e| {
                        e.role == "final" && e.respect_broadcast == d.respect_broadcast && e.variant.as_deref().is_none_or(|v| !v.contains("late"))
                    })
                    .collect();
                assert_eq!(finals.len(), 1, "{id}");
                assert!(d.schedule.same_as(&finals[0].schedule), "{id} {t}: {:?}", d.schedules);
                assert_eq!(d.schedules_from_accesses, d.schedules, "{id} {t}");
                for e in pe.entries.iter().filter(|e| e.role == "trial" && e.respect_broadcast == d.respect_broadcast) {
                    let stmt = &e.statements[0];
                    let cand: Vec<i64> = e.schedule.get(stmt).unwrap().coeffs.iter().map(|c| c / e.schedule.scale).collect();
                    let trial = d.trials.iter().find(|x| &x.statement == stmt && x.coeffs == cand);
                    assert_eq!(trial.map(|x| x.ok), Some(e.expect_valid), "{id}: {}", e.location);
                }
                // The same as a record, with the facade's execution summary.
                let r = polyalloc::run_record(&input, method, t, b, RunOptions::default());
                assert_eq!(r.status, polyalloc::Status::Ok, "{id} {t}: {:?}", r.error);
                assert!(r.verified && r.execution.is_some() && r.mapping.is_none());
            }
        }
        // A name that is not one of its runs is not applicable.
        let err = polyalloc::run(&input, method, "A", &backends[0], RunOptions::default()).unwrap_err();
        assert_eq!(err.failure.status(), polyalloc::Status::NotApplicable);
    }
    // Not applicable without a `pugh` section.
    let input = Input::new(example("smo-produce-consume"));
    assert!(matches!(method.targets(&input), Err(polyalloc::MethodError::NotApplicable(_))));
}

/// Appendix 4: the smoothing time loop runs from 6 to 2p + n + m - 2.
#[test]
fn smoothing_time_range() {
    let pe = load("pugh-smoothing");
    let run = reproduce(&pe, backends()[0].as_ref()).unwrap().remove(0);
    assert_eq!(run.code.segments.len(), 1);
    for q in &pe.instances {
        let (pp, n, m) = (q[0], q[1], q[2]);
        let ev = |r: &[i64]| r[0] + r[1] * q[0] + r[2] * q[1] + r[3] * q[2];
        assert_eq!(ev(&run.code.segments[0].lo), 6);
        assert_eq!(ev(&run.code.segments[0].hi), 2 * pp + n + m - 2);
    }
}

/// The paper's failing trials are caught by the facade's executions too (smoothing,
/// Appendix 4: `T = k`, `T = j`, `T = i + j` run as parallel steps change the values
/// read), run exactly as the method `schedule` asks for its own schedule.
#[test]
fn executor_rejects_the_failing_trials() {
    let pe = load("pugh-smoothing");
    for e in pe.entries.iter().filter(|e| e.role == "trial") {
        let s: Schedule = e.schedule.clone();
        let check = ExecutionCheck {
            label: e.location.clone(),
            program: pe.program.clone(),
            reduction_arrays: pe.reduction_arrays.clone(),
            order: Order::Time(Arc::new(move |_: usize, q: &[i64], it: &[i64]| -> Result<Vec<i64>, ProgramError> { Ok(vec![s.time("s1", q, it)?]) })),
            storage: StoragePlan::Fixed(Storage::new()),
            instances: pe.instances[1..2].to_vec(),
        };
        match polyalloc::run::execute(&[check]) {
            Ok(ex) => assert!(e.expect_valid && ex.identical, "{}", e.location),
            Err(Failure::ExecutionDiffers(ex)) => assert!(!e.expect_valid && !ex.identical, "{}", e.location),
            Err(f) => panic!("{}: {f}", e.location),
        }
    }
}
