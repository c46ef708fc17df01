//! Cells written more than once (an in-place program, as compilers export them): each
//! write starts a new value and the earlier value of the cell dies there. The conflict
//! set of `Program::conflict_set` then counts a value as live from each write of its
//! cell to every later read of the cell: a superset of the exact conflicts, so that a
//! mapping valid for it is valid for the program. The exact conflicts are computed here
//! by brute force, value by value, from the definition (bench-suite README section 4,
//! "Cells written more than once"), sharing no code with the program crate.

use polyalloc_program::{Program, Statement};
use std::collections::BTreeSet;

/// In-place 3-point smoothing: `A[i] = f(A[i - 1], A[i], A[i + 1])` at every `t`, the
/// cells read by the next sweep and live-out at the end.
fn in_place() -> Program {
    let mut p = Program::new("[T, N] -> { : T >= 1 and N >= 3 }").unwrap();
    p.add_statement(
        Statement::parse(
            "[T, N] -> { S[t, i] : 0 <= t < T and 1 <= i <= N - 2 }",
            "[T, N] -> { S[t, i] -> [t, i] }",
            &["[T, N] -> { S[t, i] -> A[i] }"],
            &["[T, N] -> { S[t, i] -> A[i - 1]; S[t, i] -> A[i]; S[t, i] -> A[i + 1] }"],
        )
        .unwrap(),
    )
    .unwrap();
    p.add_live_out("[T, N] -> { A[i] : 0 <= i < N }").unwrap();
    p
}

/// The exact conflicts at `(t_max, n)`: pairs of distinct cells `{a, b}` where a write
/// of one happens while a value of the other is pending.
fn exact_conflicts(t_max: i64, n: i64) -> BTreeSet<(i64, i64)> {
    // Times in schedule order: (t, i) lexicographic.
    let mut events: Vec<((i64, i64), i64)> = Vec::new(); // (time, the written cell)
    for t in 0..t_max {
        for i in 1..=n - 2 {
            events.push(((t, i), i));
        }
    }
    let reads_of = |time: (i64, i64)| -> Vec<i64> { vec![time.1 - 1, time.1, time.1 + 1] };
    // The values of each cell: [write time, end of life) with end None = forever.
    type Value = (i64, (i64, i64), Option<(i64, i64)>);
    let mut values: Vec<Value> = Vec::new();
    for (k, &(w, cell)) in events.iter().enumerate() {
        let next_write = events[k + 1..].iter().find(|&&(_, c)| c == cell).map(|&(t, _)| t);
        // Uses: reads of the cell strictly after w and no later than the next write.
        let last_use =
            events.iter().filter(|&&(t, _)| t > w && next_write.is_none_or(|nw| t <= nw) && reads_of(t).contains(&cell)).map(|&(t, _)| t).max();
        let end = if next_write.is_none() { None } else { last_use };
        if next_write.is_none() || last_use.is_some() {
            values.push((cell, w, end));
        }
    }
    let mut out = BTreeSet::new();
    for &(cell, w, end) in &values {
        for &(t, other) in &events {
            let pending = w <= t && end.is_none_or(|e| t < e);
            if pending && other != cell {
                out.insert((cell.min(other), cell.max(other)));
            }
        }
    }
    out
}

#[test]
fn conflicts_of_an_in_place_program_contain_the_exact_ones() {
    let cs = in_place().conflict_set("A").unwrap();
    for (t, n) in [(1, 4), (2, 4), (3, 5), (2, 7)] {
        let exact = exact_conflicts(t, n);
        assert!(!exact.is_empty());
        for &(a, b) in &exact {
            let has = cs.relation.contains(&[t, n], &[a, b]).unwrap() || cs.relation.contains(&[t, n], &[b, a]).unwrap();
            assert!(has, "T = {t}, N = {n}: cells {a} and {b} hold live values at once, the conflict set misses the pair");
        }
    }
}
