//! The simulations at full size (max-live, the placed runs, the instance order, the
//! compiled accesses and sets) against brute-force references written the plain way:
//! every instance enumerated and sorted by its time vector, cells kept in hash maps
//! keyed by their coordinates. The programs have negative coordinates, guards,
//! overwritten cells, ties, statements without loops, boxes too sparse to index densely
//! and times too wide for one integer key, so that a wrong dense index, a wrong key or a
//! cell outside a box shows as a difference.

use polyalloc_formulation::{AffExpr, Set};
use polyalloc_program::compiled::{self, AccessAt, AffsAt, SetAt};
use polyalloc_program::exec::{hash_body, initial_value, Ctx, ExecReport, Executor, Mismatch};
use polyalloc_program::order::Ordered;
use polyalloc_program::{max_live, max_live_under, set_contains, LiveReport, Program, Statement};
use std::collections::{BTreeMap, BTreeSet, HashMap};

fn program(context: &str, statements: &[(&str, &str, &[&str], &[&str])], live_out: &[&str]) -> Program {
    let mut p = Program::new(context).unwrap();
    for (d, s, w, r) in statements {
        p.add_statement(Statement::parse(d, s, w, r).unwrap()).unwrap();
    }
    for l in live_out {
        p.add_live_out(l).unwrap();
    }
    p
}

/// The parameter values of a statement (its own order).
fn sparams(p: &Program, s: &Statement, params: &[i64]) -> Vec<i64> {
    s.domain.space().params.iter().map(|n| params[p.params.iter().position(|q| q == n).unwrap()]).collect()
}

/// An instance with its time: (time, statement, iteration).
type Timed = (Vec<i64>, usize, Vec<i64>);

/// Every instance with its time (padded with zeros to the longest), sorted by time;
/// equal times in enumeration order.
fn instances(p: &Program, params: &[i64], time: &dyn Fn(usize, &[i64]) -> Vec<i64>) -> Vec<Timed> {
    let mut out = Vec::new();
    for (si, s) in p.statements.iter().enumerate() {
        for it in s.domain.enumerate(&sparams(p, s, params), 1_000_000).unwrap() {
            out.push((time(si, &it), si, it));
        }
    }
    let len = out.iter().map(|(t, _, _)| t.len()).max().unwrap_or(0);
    for (t, _, _) in &mut out {
        t.resize(len, 0);
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn schedule_time<'a>(p: &'a Program, params: &'a [i64]) -> impl Fn(usize, &[i64]) -> Vec<i64> + 'a {
    move |si, it| {
        let s = &p.statements[si];
        s.schedule.iter().map(|e| e.eval(&sparams(p, s, params), it).unwrap()).collect()
    }
}

/// Max-live the plain way; `Err` when a cell is written twice at one time.
fn reference_max_live(p: &Program, params: &[i64], time: &dyn Fn(usize, &[i64]) -> Vec<i64>) -> Result<Vec<LiveReport>, String> {
    let inst = instances(p, params, time);
    let times: Vec<Vec<i64>> = inst.iter().map(|(t, _, _)| t.clone()).collect::<BTreeSet<_>>().into_iter().collect();
    let rank = |t: &Vec<i64>| times.binary_search(t).unwrap();
    // Per array and cell: its values (rank written, rank of the last read).
    type Values = HashMap<Vec<i64>, Vec<(usize, Option<usize>)>>;
    let mut values: BTreeMap<String, Values> = BTreeMap::new();
    for (t, si, it) in &inst {
        let s = &p.statements[*si];
        let sp = sparams(p, s, params);
        for w in &s.writes {
            if w.happens_at(&sp, it).unwrap() {
                values.entry(w.array.clone()).or_default().entry(w.cell_at(&sp, it).unwrap()).or_default().push((rank(t), None));
            }
        }
    }
    for cells in values.values_mut() {
        for vals in cells.values_mut() {
            vals.sort();
            if vals.windows(2).any(|w| w[0].0 == w[1].0) {
                return Err("written twice".into());
            }
        }
    }
    for (t, si, it) in &inst {
        let r = rank(t);
        let s = &p.statements[*si];
        let sp = sparams(p, s, params);
        for a in &s.reads {
            let Some(cells) = values.get_mut(&a.array) else { continue };
            if !a.happens_at(&sp, it).unwrap() {
                continue;
            }
            let Some(vals) = cells.get_mut(&a.cell_at(&sp, it).unwrap()) else { continue };
            if let Some(v) = vals.iter_mut().rev().find(|(w, _)| *w < r) {
                v.1 = Some(v.1.map_or(r, |l| l.max(r)));
            }
        }
    }
    let mut out = Vec::new();
    for (array, cells) in values {
        let mut ev = vec![[0usize; 3]; times.len()];
        let mut n_values = 0;
        for (cell, vals) in &cells {
            let live_out = p.live_out.iter().any(|s| {
                s.space().output.name.as_deref() == Some(array.as_str()) && s.space().n_dim() == cell.len() && s.contains(params, cell).unwrap()
            });
            for (k, (w, last)) in vals.iter().enumerate() {
                n_values += 1;
                ev[*w][1] += 1;
                if !(live_out && k + 1 == vals.len()) {
                    match last {
                        Some(l) => ev[*l][0] += 1,
                        None => ev[*w][2] += 1,
                    }
                }
            }
        }
        let (mut cur, mut best, mut at) = (0usize, 0usize, Vec::new());
        for (t, [frees, ws, dead]) in ev.into_iter().enumerate() {
            cur -= frees.min(cur);
            cur += ws;
            if cur > best {
                best = cur;
                at = times[t].clone();
            }
            cur -= dead.min(cur);
        }
        out.push(LiveReport { array, max_live: best, at_time: at, cells_written: cells.len(), values_written: n_values });
    }
    Ok(out)
}

fn check_max_live(p: &Program, params: &[i64]) {
    let expected = reference_max_live(p, params, &schedule_time(p, params));
    match (max_live(p, params), expected) {
        (Ok(got), Ok(expected)) => assert_eq!(got, expected, "params {params:?}"),
        (Err(_), Err(_)) => {}
        (got, expected) => panic!("params {params:?}: got {got:?}, expected {expected:?}"),
    }
}

/// A time-expanded 1-D stencil at negative coordinates, with guarded reads and a
/// live-out row.
fn stencil_negative() -> Program {
    program(
        "[T, N] -> { : T >= 2 and N >= 1 }",
        &[(
            "[T, N] -> { S[t, i] : 1 <= t <= T and -N <= i <= N }",
            "[T, N] -> { S[t, i] -> [t, i] }",
            &["[T, N] -> { S[t, i] -> A[t - 3, -i] }"],
            &[
                "[T, N] -> { S[t, i] -> A[t - 4, -i + 1] : i >= -N + 1 }",
                "[T, N] -> { S[t, i] -> A[t - 4, -i] }",
                "[T, N] -> { S[t, i] -> A[t - 4, -i - 1] : i <= N - 1 }",
            ],
        )],
        &["[T, N] -> { A[t, i] : t = T - 3 and i <= 0 }"],
    )
}

/// Two statements interleaved row by row (a producer and its consumer, as a fused
/// blur), an in-place update overwriting its cells, and a statement without loops.
fn interleaved() -> Program {
    program(
        "[H, W] -> { : H >= 3 and W >= 2 }",
        &[
            ("[H, W] -> { I[] }", "[H, W] -> { I[] -> [-1, 0, 0] }", &["[H, W] -> { I[] -> C[-7] }"], &[]),
            (
                "[H, W] -> { P[y, x] : 0 <= y < H and -W <= x < W }",
                "[H, W] -> { P[y, x] -> [y, 0, x] }",
                &["[H, W] -> { P[y, x] -> B[y, x] }"],
                &["[H, W] -> { P[y, x] -> C[-7] }"],
            ),
            (
                "[H, W] -> { Q[y, x] : 2 <= y < H and -W <= x < W }",
                "[H, W] -> { Q[y, x] -> [y, 1, x] }",
                &["[H, W] -> { Q[y, x] -> D[x] }", "[H, W] -> { Q[y, x] -> C[-7] : x = 0 }"],
                &[
                    "[H, W] -> { Q[y, x] -> B[y - 2, x] }",
                    "[H, W] -> { Q[y, x] -> B[y - 1, x] }",
                    "[H, W] -> { Q[y, x] -> B[y, x] }",
                    "[H, W] -> { Q[y, x] -> D[x] }",
                ],
            ),
        ],
        &["[H, W] -> { D[x] : x >= 0 }", "[H, W] -> { C[c] }"],
    )
}

/// Rows executed as one time each: many instances per time.
fn ties() -> Program {
    program(
        "[N] -> { : N >= 2 }",
        &[
            (
                "[N] -> { S[t, i] : 0 <= t < N and 0 <= i < N }",
                "[N] -> { S[t, i] -> [t, 0] }",
                &["[N] -> { S[t, i] -> A[t, i] }"],
                &["[N] -> { S[t, i] -> A[t - 1, i] }"],
            ),
            (
                "[N] -> { R[t] : 0 <= t < N }",
                "[N] -> { R[t] -> [t, 1] }",
                &["[N] -> { R[t] -> A[t, N] }"],
                &["[N] -> { R[t] -> A[t, 0] }", "[N] -> { R[t] -> A[t - 1, N] }"],
            ),
        ],
        &[],
    )
}

/// Cells far apart: a box too large and too empty to index densely.
fn sparse() -> Program {
    program(
        "[N] -> { : N >= 1 }",
        &[(
            "[N] -> { S[i, j] : 0 <= i <= N and 0 <= j <= N }",
            "[N] -> { S[i, j] -> [i, j] }",
            &["[N] -> { S[i, j] -> A[100000i, -100000j] }"],
            &["[N] -> { S[i, j] -> A[100000i - 100000, -100000j] }"],
        )],
        &["[N] -> { A[a, b] : a >= 100000N }"],
    )
}

/// Times whose ranges multiply beyond one 64-bit key.
fn wide_times() -> Program {
    program(
        "[N] -> { : N >= 1 }",
        &[(
            "[N] -> { S[i, j, k] : 0 <= i, j, k <= N }",
            "[N] -> { S[i, j, k] -> [1000000000000i, 1000000000000j, 1000000000000k] }",
            &["[N] -> { S[i, j, k] -> A[j, k] }"],
            &["[N] -> { S[i, j, k] -> A[j, k - 1] }", "[N] -> { S[i, j, k] -> A[j - 1, k] }"],
        )],
        &["[N] -> { A[j, k] : k = N }"],
    )
}

#[test]
fn max_live_equals_the_brute_force_simulation() {
    for (t, n) in [(2, 1), (4, 3), (6, 5)] {
        check_max_live(&stencil_negative(), &[t, n]);
    }
    for (h, w) in [(3, 2), (5, 4), (7, 3)] {
        check_max_live(&interleaved(), &[h, w]);
    }
    for n in [2, 3, 6] {
        check_max_live(&ties(), &[n]);
        check_max_live(&sparse(), &[n]);
        check_max_live(&wide_times(), &[n]);
    }
    // The reference is not vacuous: the interleaved consumer keeps three rows live.
    let r = max_live(&interleaved(), &[6, 4]).unwrap();
    let b = r.iter().find(|r| r.array == "B").unwrap();
    assert_eq!(b.cells_written, 6 * 8);
    assert!(b.max_live >= 2 * 8, "{b:?}");
}

#[test]
fn max_live_under_another_order_equals_the_brute_force_simulation() {
    // Anti-diagonals of the stencil (legal or not: max-live simulates any order), and
    // the rows backwards.
    let p = stencil_negative();
    type Time<'a> = &'a dyn Fn(usize, &[i64]) -> Vec<i64>;
    let orders: [Time<'_>; 2] = [&|_, it| vec![it[0] + it[1], it[0]], &|_, it| vec![-it[0], it[1]]];
    for time in orders {
        let got = max_live_under(&p, &[5, 3], &|k, _, it| Ok(time(k, it))).unwrap();
        assert_eq!(got, reference_max_live(&p, &[5, 3], time).unwrap());
    }
}

#[test]
fn a_cell_written_twice_at_one_time_is_an_error() {
    let p = program(
        "[N] -> { : N >= 2 }",
        &[("[N] -> { S[t, i] : 0 <= t < N and -N <= i < N }", "[N] -> { S[t, i] -> [t] }", &["[N] -> { S[t, i] -> A[-t] }"], &[])],
        &[],
    );
    // The first such cell in the order of the cells.
    let e = max_live(&p, &[3]).unwrap_err().to_string();
    assert!(e.contains("cell A[-2] is written twice at time [2]"), "{e}");
    assert!(reference_max_live(&p, &[3], &schedule_time(&p, &[3])).is_err());
}

#[test]
fn the_instance_order_is_the_sorted_order_of_the_times() {
    for (p, params) in [(interleaved(), vec![5, 3]), (ties(), vec![4]), (wide_times(), vec![3]), (stencil_negative(), vec![4, 2])] {
        let time = schedule_time(&p, &params);
        let expected = instances(&p, &params, &time);
        // By keys (the schedules) and by time vectors (the same times, given).
        let by_keys = Ordered::build(&p, &params, None, 1_000_000).unwrap();
        let by_vectors = Ordered::build(&p, &params, Some(&|k, _, it| Ok(time(k, it))), 1_000_000).unwrap();
        for ord in [&by_keys, &by_vectors] {
            assert_eq!(ord.len(), expected.len());
            let got: Vec<Timed> = ord
                .in_time_order()
                .iter()
                .map(|&k| {
                    let (si, it, r) = ord.instance(&p, k as usize);
                    let mut t = ord.time_of_rank(r);
                    t.resize(expected[0].0.len(), 0);
                    (t, si, it.to_vec())
                })
                .collect();
            assert_eq!(got, expected);
            let distinct: BTreeSet<&Vec<i64>> = expected.iter().map(|(t, _, _)| t).collect();
            assert_eq!(ord.n_ranks(), distinct.len());
            assert_eq!(ord.first_tie().is_some(), distinct.len() < expected.len());
        }
    }
    // More instances than the limit: refused before they are stored.
    let e = Ordered::build(&ties(), &[4], None, 19).unwrap_err().to_string();
    assert!(e.contains("more than 19 statement instances"), "{e}");
}

/// A placement: `Some((storage, index))`, `None` when the cell stays.
type Placement<'a> = &'a dyn Fn(&str, &[i64]) -> Option<(usize, Vec<i64>)>;

/// [`Executor::compare_placed`] the plain way: memories as hash maps of cells.
fn reference_placed(p: &Program, params: &[i64], placed: &[String], storages: &[String], place: Placement<'_>) -> ExecReport {
    let mut report = ExecReport::default();
    let inst = instances(p, params, &schedule_time(p, params));
    report.instances = inst.len();
    report.steps = inst.len();
    let mut names: Vec<String> = Vec::new();
    for s in &p.statements {
        for a in s.writes.iter().chain(&s.reads) {
            if !names.contains(&a.array) {
                names.push(a.array.clone());
            }
        }
    }
    let n_program = names.len();
    for s in storages {
        if !names.contains(s) {
            names.push(s.clone());
        }
    }
    let push = |r: &mut ExecReport, m: Mismatch| {
        r.n_mismatches += 1;
        if r.mismatches.len() < ExecReport::KEEP {
            r.mismatches.push(m);
        }
    };
    let locate = |array: &str, cell: &[i64]| -> (String, Vec<i64>) {
        match placed.iter().any(|a| a == array).then(|| place(array, cell)).flatten() {
            Some((k, idx)) => (storages[k].clone(), idx),
            None => (array.to_string(), cell.to_vec()),
        }
    };
    let mut orig: HashMap<(String, Vec<i64>), i64> = HashMap::new();
    let mut new: HashMap<(String, Vec<i64>), i64> = HashMap::new();
    let value = |m: &HashMap<(String, Vec<i64>), i64>, key: &(String, Vec<i64>)| m.get(key).copied().unwrap_or_else(|| initial_value(&key.0, &key.1));
    for (_, si, it) in &inst {
        let s = &p.statements[*si];
        let sp = sparams(p, s, params);
        let (mut vo, mut vn) = (Vec::new(), Vec::new());
        for (ri, a) in s.reads.iter().enumerate() {
            if !a.happens_at(&sp, it).unwrap() {
                vo.push(None);
                vn.push(None);
                continue;
            }
            let cell = a.cell_at(&sp, it).unwrap();
            let (o, n) = (value(&orig, &(a.array.clone(), cell.clone())), value(&new, &locate(&a.array, &cell)));
            report.reads_compared += 1;
            if o != n {
                push(
                    &mut report,
                    Mismatch::Read { stmt: s.name.clone(), iter: it.clone(), read: ri, array: a.array.clone(), cell, expected: o, got: n },
                );
            }
            vo.push(Some(o));
            vn.push(Some(n));
        }
        let body = hash_body(s.writes.len(), true);
        let ctx = Ctx { stmt: *si, params: &sp, iter: it };
        let (oo, on) = (body(&ctx, &vo), body(&ctx, &vn));
        for ((a, o), n) in s.writes.iter().zip(oo).zip(on) {
            if a.happens_at(&sp, it).unwrap() {
                let cell = a.cell_at(&sp, it).unwrap();
                new.insert(locate(&a.array, &cell), n);
                orig.insert((a.array.clone(), cell), o);
            }
        }
    }
    let mut keys: Vec<(usize, Vec<i64>)> = orig
        .keys()
        .chain(new.keys())
        .map(|(a, c)| (names.iter().position(|n| n == a).unwrap(), c.clone()))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    keys.sort();
    for (a, cell) in keys {
        let array = &names[a];
        let live = if placed.contains(array) {
            p.live_out.iter().any(|s| {
                s.space().output.name.as_deref() == Some(array.as_str()) && s.space().n_dim() == cell.len() && s.contains(params, &cell).unwrap()
            })
        } else {
            a < n_program
        };
        if !live {
            continue;
        }
        let key = (array.clone(), cell.clone());
        let (e, g) = (value(&orig, &key), value(&new, &key));
        report.live_out_compared += 1;
        if e != g {
            push(&mut report, Mismatch::LiveOut { array: array.clone(), cell, expected: e, got: g });
        }
    }
    report
}

fn check_placed(p: &Program, params: &[i64], placed: &[&str], storages: &[&str], place: Placement<'_>) -> ExecReport {
    let placed: Vec<String> = placed.iter().map(|s| s.to_string()).collect();
    let storages: Vec<String> = storages.iter().map(|s| s.to_string()).collect();
    let exec = Executor::with_hash_bodies(p.clone());
    let f = |array: &str, cell: &[i64], index: &mut Vec<i64>| -> polyalloc_program::Result<Option<usize>> {
        Ok(place(array, cell).map(|(k, idx)| {
            index.extend(idx);
            k
        }))
    };
    let got = exec.compare_placed(params, &placed, &storages, &f).unwrap();
    let expected = reference_placed(p, params, &placed, &storages, place);
    assert_eq!(got, expected, "placed {placed:?} at {params:?}");
    got
}

#[test]
fn placed_runs_equal_the_brute_force_run() {
    let (t, n) = (6i64, 3i64);
    let p = stencil_negative();
    // Rows t - 3 of A, in place: rows -2 .. 3; the last row (T - 3 = 3) is live-out
    // where i <= 0 (cells A[3, i], i <= 0, i.e. iterations i >= 0).
    let folded = |c: &[i64]| -2 <= c[0] && c[0] < t - 3;
    // Two rows of its own (rows -2 and -1), by parity: correct.
    let r = check_placed(&p, &[t, n], &["A"], &["A"], &|_, c| folded(c).then(|| (0, vec![c[0].rem_euclid(2) - 2, c[1]])));
    assert!(r.ok(), "{}", r.summary());
    // One row for all: the reads of the row before find the current row's values.
    let r = check_placed(&p, &[t, n], &["A"], &["A"], &|_, c| folded(c).then(|| (0, vec![-2, c[1]])));
    assert!(!r.ok() && r.n_mismatches > ExecReport::KEEP, "{}", r.summary());
    // A new array at negative indices, every cell (the inputs too: garbage read).
    let r = check_placed(&p, &[t, n], &["A"], &["A", "A2"], &|_, c| Some((1, vec![c[0].rem_euclid(3) - 9, -c[1]])));
    assert!(!r.ok(), "{}", r.summary());
    // A new array for the folded cells, the others in place: correct.
    let r = check_placed(&p, &[t, n], &["A"], &["A", "A2"], &|_, c| folded(c).then(|| (1, vec![c[0].rem_euclid(2), c[1] - 100])));
    assert!(r.ok(), "{}", r.summary());
    // Far apart (a store too sparse for a dense box), distinct: correct.
    let r = check_placed(&p, &[t, n], &["A"], &["A", "A2"], &|_, c| folded(c).then(|| (1, vec![c[0] * 1_000_000, c[1] * 10_000_000])));
    assert!(r.ok(), "{}", r.summary());
    // The live-out row placed away: the caller finds input values there.
    let r = check_placed(&p, &[t, n], &["A"], &["A", "A2"], &|_, c| (c[0] == t - 3).then(|| (1, vec![0, c[1]])));
    assert!(r.mismatches.iter().any(|m| matches!(m, Mismatch::LiveOut { cell, .. } if cell[0] == t - 3)), "{}", r.summary());
    // Two arrays placed at once, one of them on the other's storage.
    let q = interleaved();
    for (h, w) in [(4, 2), (6, 3)] {
        let r = check_placed(&q, &[h, w], &["B", "D"], &["B", "D", "B2"], &|a, c| match a {
            "B" => Some((2, vec![c[0].rem_euclid(3), c[1]])),
            _ => None,
        });
        assert!(r.ok(), "{}", r.summary());
        let r = check_placed(&q, &[h, w], &["B", "D"], &["B", "D", "B2"], &|a, c| match a {
            "B" => Some((2, vec![c[0].rem_euclid(2), c[1]])),
            _ => Some((1, vec![c[0] + 1])),
        });
        assert!(!r.ok(), "{}", r.summary());
    }
}

#[test]
fn compiled_accesses_and_rows_equal_the_model() {
    let p = interleaved();
    let params = [5, 3];
    for s in &p.statements {
        let sp = sparams(&p, s, &params);
        let m = s.domain.space().n_dim();
        let mut points = Vec::new();
        s.domain
            .for_each_point(&sp, &mut |it| {
                points.push(it.to_vec());
                Ok(true)
            })
            .unwrap();
        // Rows, and their points, in the order of the points (a statement without
        // loops: one row of the empty point).
        let mut by_rows = Vec::new();
        compiled::for_each_point(&s.domain, &sp, &mut |it| {
            by_rows.push(it.to_vec());
            Ok(true)
        })
        .unwrap();
        assert_eq!(by_rows, points, "{}", s.name);
        for a in s.writes.iter().chain(&s.reads) {
            let at = AccessAt::new(a, &sp, m);
            let mut cell = Vec::new();
            for it in &points {
                assert_eq!(at.happens_at(it).unwrap(), a.happens_at(&sp, it).unwrap());
                at.cell_into(it, &mut cell).unwrap();
                assert_eq!(cell, a.cell_at(&sp, it).unwrap());
            }
        }
    }
    // An overflow is the model's error.
    let e = AffExpr { coeffs: vec![0, i64::MAX, 1] };
    let exprs = [e.clone()];
    let at = AffsAt::new(&exprs, &[], 2);
    for it in [[1, 0], [2, 0], [1, 1], [-1, -1], [-1, -2]] {
        assert_eq!(format!("{:?}", at.eval(0, &it)), format!("{:?}", e.eval(&[], &it)), "{it:?}");
    }
}

#[test]
fn compiled_sets_answer_as_set_contains() {
    let sets = [
        // Modulo through an existential variable, at negative points.
        ("{ [i, o] : exists (q : 0 <= i - 3q <= 2 and o = i - 3q) }", vec![]),
        // Two locals bounded by their own rows, coupled by an equality.
        ("{ [a, b] : exists (q, r : a = 2q + 3r and 0 <= q <= 5 and -5 <= r <= 0 and b = q - r) }", vec![]),
        // A local fixed by an equality with a coefficient.
        ("{ [a, b] : exists (q : a = 4q and -3 <= b <= q) }", vec![]),
        // A local without bounds of its own: answered by `Set::contains`.
        ("{ [a, b] : exists (q, r : a = q + r and q >= 0 and r >= b) }", vec![]),
        // A union over parameters, with and without locals.
        ("[N] -> { [i, j] : -N <= i <= 0 and j = -i; [i, j] : exists (q : i = 4q + 1 and 0 <= j <= N) }", vec![3]),
        ("[N, M] -> { [i, j] : -N <= i <= M and j >= i - 2 and 2j <= N }", vec![4, 2]),
    ];
    for (text, params) in &sets {
        let set = Set::parse(text).unwrap();
        let at = SetAt::new(&set, params);
        for i in -13..=13 {
            for j in -13..=13 {
                let got = at.contains(&[i, j]).map_err(|e| e.to_string());
                let expected = set_contains(&set, params, &[i, j]).map_err(|e| e.to_string());
                assert_eq!(got, expected, "{text} at [{i}, {j}]");
                if let Ok(e) = expected {
                    assert_eq!(e, set.contains(params, &[i, j]).unwrap(), "{text} at [{i}, {j}]");
                }
            }
        }
        // A point of another length: the model's error.
        assert_eq!(format!("{:?}", at.contains(&[1])), format!("{:?}", set_contains(&set, params, &[1])));
    }
}

#[test]
fn an_order_built_once_serves_the_programs_with_its_statements_only() {
    let p = stencil_negative();
    let params = [5, 2];
    let ord = Ordered::build(&p, &params, None, 1_000_000).unwrap();
    assert!(ord.is_of(&p, &params));
    assert_eq!(polyalloc_program::max_live_in(&p, &params, &ord).unwrap(), max_live(&p, &params).unwrap());
    // The same statements with other accesses: the same order.
    let mut fewer = p.clone();
    fewer.statements[0].reads.truncate(1);
    assert!(ord.is_of(&fewer, &params));
    assert_eq!(polyalloc_program::max_live_in(&fewer, &params, &ord).unwrap(), max_live(&fewer, &params).unwrap());
    let exec = Executor::with_hash_bodies(p.clone());
    let (placed, storages) = (vec!["A".to_string()], vec!["A".to_string(), "A2".to_string()]);
    let place = |_: &str, c: &[i64], idx: &mut Vec<i64>| -> polyalloc_program::Result<Option<usize>> {
        idx.extend([c[0].rem_euclid(2), c[1]]);
        Ok(Some(1))
    };
    assert_eq!(
        exec.compare_placed_in(&params, &placed, &storages, &place, &ord).unwrap(),
        exec.compare_placed(&params, &placed, &storages, &place).unwrap()
    );
    // Other parameters, another program, another order: refused.
    assert!(!ord.is_of(&p, &[5, 3]));
    assert!(polyalloc_program::max_live_in(&p, &[5, 3], &ord).is_err());
    assert!(polyalloc_program::max_live_in(&ties(), &[5], &ord).is_err());
    let reversed = Ordered::build(&p, &params, Some(&|_, _, it| Ok(vec![-it[0], it[1]])), 1_000_000).unwrap();
    assert!(!reversed.is_of(&p, &params));
    assert!(exec.compare_placed_in(&params, &placed, &storages, &place, &reversed).is_err());
}
