//! The fuzzing oracle: brute force at small instances, sharing nothing with the exact
//! checker (`polyalloc_formulation::checker`), the scanner, the program crate or any
//! method. It evaluates the generated case's own description directly: the conflict
//! polyhedra row by row over the box of the array's cells, or the program by
//! simulating its schedule (the conflict semantics of Bhaskaracharya et al. 2016, Def. 2.3 as the project
//! states them: `x != y` conflict when `y` is written at a time when `x` holds a value
//! still needed, `W(x) <= W(y) < R(x)` or `x` live-out, reads before writes at equal
//! times); and it evaluates the mapping `((h . x) mod e)` with its own arithmetic.

use super::gen::{Case, GenProgram, Kind};

/// A mapping as plain numbers: per storage row the hyperplane and the modulus as
/// `(constant, coefficient of N)`, `None` when the row is not folded.
#[derive(Clone, Debug)]
pub struct PlainMapping {
    pub rows: Vec<PlainRow>,
}

/// One row of a [`PlainMapping`]: its hyperplane and modulus.
pub type PlainRow = (Vec<i64>, Option<(i64, i64)>);

/// What brute force found wrong with a mapping at one instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Wrong {
    /// A modulus below 1 where the array has cells.
    Modulus { n: i64, row: usize, value: i64 },
    /// Two distinct conflicting cells stored in the same place.
    Collision { n: i64, a: Vec<i64>, b: Vec<i64> },
}

impl std::fmt::Display for Wrong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Wrong::Modulus { n, row, value } => write!(f, "at N={n} the modulus of row {row} is {value} while the array has cells"),
            Wrong::Collision { n, a, b } => write!(f, "at N={n} the conflicting cells {a:?} and {b:?} share a location"),
        }
    }
}

/// Every cell of the array at `N = n` (the box of the extents).
fn cells(case: &Case, n: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for j in 0..case.n {
        let hi = case.hi(j, n);
        let mut next = Vec::new();
        for c in &out {
            for v in 0..=hi {
                let mut d = c.clone();
                d.push(v);
                next.push(d);
            }
        }
        out = next;
    }
    out
}

fn row_holds(coeffs: &[i64], eq: bool, n: i64, x: &[i64], y: &[i64]) -> bool {
    let mut s = i128::from(coeffs[0]) + i128::from(coeffs[1]) * i128::from(n);
    for (k, v) in x.iter().chain(y).enumerate() {
        s += i128::from(coeffs[2 + k]) * i128::from(*v);
    }
    if eq {
        s == 0
    } else {
        s >= 0
    }
}

/// The conflicting pairs `(x, y)`, `x != y`, at `N = n` (either orientation).
pub fn conflicts(case: &Case, n: i64) -> Vec<(Vec<i64>, Vec<i64>)> {
    match &case.kind {
        Kind::Conflicts(polys) => {
            let cs = cells(case, n);
            let mut out = Vec::new();
            for x in &cs {
                for y in &cs {
                    if x != y && polys.iter().any(|rows| rows.iter().all(|r| row_holds(&r.coeffs, r.eq, n, x, y))) {
                        out.push((x.clone(), y.clone()));
                    }
                }
            }
            out
        }
        Kind::Program(p) => program_conflicts(p, n),
    }
}

/// Iterations of a statement of `dims` iterators at `N = n`.
fn iterations(dims: usize, n: i64) -> Vec<Vec<i64>> {
    let mut out = vec![vec![]];
    for _ in 0..dims {
        out = out.into_iter().flat_map(|c: Vec<i64>| (0..n.max(0)).map(move |v| [c.clone(), vec![v]].concat())).collect();
    }
    out
}

/// The conflicts of a generated program at `N = n`, value by value (bench-suite README
/// section 4): each write starts a value of its cell, which the cell's earlier value
/// dies at; a value is pending from its write to its last read (reads strictly after
/// the write and no later than the cell's next write: reads come before writes at one
/// time), or forever when it is the cell's last value and the cell is live-out (row
/// `last` of `A`). Two cells conflict when one is written while a value of the other is
/// pending. Reads of cells outside the array are ignored.
fn program_conflicts(p: &GenProgram, n: i64) -> Vec<(Vec<i64>, Vec<i64>)> {
    let len = p.stmts.iter().map(|s| s.schedule.len()).max().unwrap_or(0);
    let time = |sched: &[Vec<i64>], it: &[i64]| -> Vec<i64> {
        let mut t: Vec<i64> = sched.iter().map(|r| r[0] + r[1..].iter().zip(it).map(|(a, b)| a * b).sum::<i64>()).collect();
        t.resize(len, 0);
        t
    };
    // Every instance: its time, the cell it writes, the cells it reads.
    type Event = (Vec<i64>, Vec<i64>, Vec<Vec<i64>>);
    let mut events: Vec<Event> = Vec::new();
    for s in &p.stmts {
        for it in iterations(s.dims, n) {
            let mut reads = Vec::new();
            for (row, off) in &s.reads {
                let idx: Vec<i64> = it.iter().zip(off).map(|(a, b)| a + b).collect();
                if idx.iter().all(|&v| (0..n).contains(&v)) {
                    reads.push([vec![*row], idx].concat());
                }
            }
            events.push((time(&s.schedule, &it), [vec![s.row], it.clone()].concat(), reads));
        }
    }
    events.sort();
    let last = p.stmts.len() as i64 - 1;
    // Every value: its cell, write time and end of life (None: forever).
    type Value = (Vec<i64>, Vec<i64>, Option<Vec<i64>>);
    let mut values: Vec<Value> = Vec::new();
    for (k, (w, cell, _)) in events.iter().enumerate() {
        let next = events[k + 1..].iter().find(|e| &e.1 == cell).map(|e| e.0.clone());
        let last_use =
            events.iter().filter(|e| e.0 > *w && next.as_ref().is_none_or(|nw| e.0 <= *nw) && e.2.contains(cell)).map(|e| e.0.clone()).max();
        let live_out = next.is_none() && p.live_out_last && cell[0] == last;
        match (live_out, last_use) {
            (true, _) => values.push((cell.clone(), w.clone(), None)),
            (false, Some(l)) => values.push((cell.clone(), w.clone(), Some(l))),
            (false, None) => {}
        }
    }
    let mut out = std::collections::BTreeSet::new();
    for (a, w, end) in &values {
        for (t, b, _) in &events {
            if a != b && w <= t && end.as_ref().is_none_or(|e| t < e) {
                out.insert(if a < b { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) });
            }
        }
    }
    out.into_iter().collect()
}

/// Checks `mapping` at every instance of the case: moduli at least 1 wherever the
/// array has a cell, and no two conflicting cells in one location.
pub fn check(case: &Case, mapping: &PlainMapping) -> Result<usize, Wrong> {
    check_at(case, mapping, &case.instances)
}

/// [`check`] at the values `instances` of `N` only (a mapping claimed at one instance).
pub fn check_at(case: &Case, mapping: &PlainMapping, instances: &[i64]) -> Result<usize, Wrong> {
    let mut pairs = 0;
    for &n in instances {
        let has_cells = (0..case.n).all(|j| case.hi(j, n) >= 0);
        let mut moduli = Vec::new();
        for (row, (_, m)) in mapping.rows.iter().enumerate() {
            let e = m.map(|(c, u)| c + u * n);
            if let Some(e) = e {
                if e < 1 && has_cells {
                    return Err(Wrong::Modulus { n, row, value: e });
                }
            }
            moduli.push(e);
        }
        let place = |x: &[i64]| -> Vec<i128> {
            mapping
                .rows
                .iter()
                .zip(&moduli)
                .map(|((h, _), e)| {
                    let v: i128 = h.iter().zip(x).map(|(a, b)| i128::from(*a) * i128::from(*b)).sum();
                    match e {
                        Some(e) => v.rem_euclid(i128::from((*e).max(1))),
                        None => v,
                    }
                })
                .collect()
        };
        for (a, b) in conflicts(case, n) {
            pairs += 1;
            if place(&a) == place(&b) {
                return Err(Wrong::Collision { n, a, b });
            }
        }
    }
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::super::gen::{GenStmt, Row};
    use super::*;

    fn one_d(rows: Vec<Row>, ext: (i64, i64)) -> Case {
        Case { id: "t".into(), n: 1, context_min: 2, extents: vec![ext], kind: Kind::Conflicts(vec![rows]), instances: vec![2, 3, 4] }
    }

    #[test]
    fn a_window_of_three_needs_three_cells() {
        // y - x in [1, 2]: i mod 3 is valid, i mod 2 is not.
        let c = one_d(vec![Row { coeffs: vec![-1, 0, -1, 1], eq: false }, Row { coeffs: vec![2, 0, 1, -1], eq: false }], (1, -1));
        let m = |e| PlainMapping { rows: vec![(vec![1], Some((e, 0)))] };
        assert!(check(&c, &m(3)).is_ok());
        assert!(matches!(check(&c, &m(2)), Err(Wrong::Collision { n: 3, .. })));
        // A modulus N - 2 is 0 at N = 2 where the array has two cells.
        let bad = PlainMapping { rows: vec![(vec![1], Some((-2, 1)))] };
        assert_eq!(check(&c, &bad), Err(Wrong::Modulus { n: 2, row: 0, value: 0 }));
    }

    #[test]
    fn program_lifetimes() {
        // S0[i] at (0, i) writes A[0, i]; S1[i] at (1, i) reads A[0, i]: every A[0, x]
        // is live from its write to the second loop, so all of row 0 conflicts; row 1
        // (not read, not live-out) conflicts with nothing after it.
        let p = GenProgram {
            stmts: vec![
                GenStmt { dims: 1, schedule: vec![vec![0, 0], vec![0, 1]], reads: vec![], row: 0, unguarded: false },
                GenStmt { dims: 1, schedule: vec![vec![1, 0], vec![0, 1]], reads: vec![(0, vec![0])], row: 1, unguarded: false },
            ],
            live_out_last: false,
        };
        let pairs = program_conflicts(&p, 3);
        assert!(pairs.contains(&(vec![0, 0], vec![0, 2])));
        assert!(pairs.contains(&(vec![0, 2], vec![1, 0])), "A[0, 2] is read at (1, 2), after A[1, 0] is written");
        assert!(!pairs.contains(&(vec![0, 0], vec![1, 1])), "A[0, 0] is dead after (1, 0)");
        assert!(!pairs.iter().any(|(x, _)| x[0] == 1));
    }

    #[test]
    fn overwritten_values_die_at_the_next_write() {
        // S0[i] at (0, i) writes A[0, i]; S1[i] at (1, i) overwrites A[0, i] after reading
        // A[0, i + 1] (S0's value). At N = 3: A[0, 1]'s first value lives from (0, 1) to
        // its read at (1, 0), when S1 writes A[0, 0]: no conflict (a read and a write at
        // one time may share); A[0, 2]'s lives to (1, 1), past S1's write of A[0, 0] at
        // (1, 0); A[0, 0]'s first value is never read.
        let p = GenProgram {
            stmts: vec![
                GenStmt { dims: 1, schedule: vec![vec![0, 0], vec![0, 1]], reads: vec![], row: 0, unguarded: false },
                GenStmt { dims: 1, schedule: vec![vec![1, 0], vec![0, 1]], reads: vec![(0, vec![1])], row: 0, unguarded: true },
            ],
            live_out_last: false,
        };
        let pairs = program_conflicts(&p, 3);
        assert!(pairs.contains(&(vec![0, 0], vec![0, 2])));
        assert!(pairs.contains(&(vec![0, 1], vec![0, 2])));
        assert!(!pairs.contains(&(vec![0, 0], vec![0, 1])), "{pairs:?}");
    }
}
