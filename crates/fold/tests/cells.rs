//! The cells of an array at the instance (their box row by row, their flags, the
//! visit of the accessed cells) and the placement of a folded cell, against the plain
//! computations: every instance visited, every cell placed through its row values.
//! Negative coordinates, guards and a statement without loops included.

use polyalloc_fold::rewrite::{self, ArrayFold, CellBox, Layout, Placement};
use polyalloc_formulation::{ModularMapping, Set};
use polyalloc_program::{Program, Statement};
use std::collections::{BTreeMap, BTreeSet};

fn program() -> Program {
    let mut p = Program::new("[T, N] -> { : T >= 2 and N >= 2 }").unwrap();
    p.add_statement(Statement::parse("[T, N] -> { I[] }", "[T, N] -> { I[] -> [0, 0] }", &["[T, N] -> { I[] -> A[-1, 5] }"], &[]).unwrap()).unwrap();
    p.add_statement(
        Statement::parse(
            "[T, N] -> { S[t, i] : 1 <= t <= T and -N <= i <= N }",
            "[T, N] -> { S[t, i] -> [t, i] }",
            &["[T, N] -> { S[t, i] -> A[t - 3, -2i] : i <= N - 1 }"],
            &[
                "[T, N] -> { S[t, i] -> A[t - 4, -2i + 2] : i >= -N + 1 }",
                "[T, N] -> { S[t, i] -> A[t - 4, 2 - i] }",
                "[T, N] -> { S[t, i] -> B[i, t] }",
            ],
        )
        .unwrap(),
    )
    .unwrap();
    p
}

/// Every access of `array`: (is write, cell), instance by instance.
fn accesses(p: &Program, params: &[i64], array: &str) -> Vec<(bool, Vec<i64>)> {
    let mut out = Vec::new();
    for s in &p.statements {
        let sp: Vec<i64> = s.domain.space().params.iter().map(|n| params[p.params.iter().position(|q| q == n).unwrap()]).collect();
        for it in s.domain.enumerate(&sp, 1_000_000).unwrap() {
            for (a, w) in s.writes.iter().map(|a| (a, true)).chain(s.reads.iter().map(|a| (a, false))) {
                if a.array == array && a.happens_at(&sp, &it).unwrap() {
                    out.push((w, a.cell_at(&sp, &it).unwrap()));
                }
            }
        }
    }
    out
}

#[test]
fn cells_equal_those_of_every_access() {
    let p = program();
    let live_out = Set::parse("[T, N] -> { A[a, b] : a = T - 3 and b >= 0 }").unwrap();
    for params in [[2, 2], [4, 3], [5, 6]] {
        for (array, lo) in [("A", Some(&live_out)), ("B", None)] {
            let acc = accesses(&p, &params, array);
            let (mut min, mut max) = (acc[0].1.clone(), acc[0].1.clone());
            for (_, c) in &acc {
                for d in 0..c.len() {
                    min[d] = min[d].min(c[d]);
                    max[d] = max[d].max(c[d]);
                }
            }
            let bbox = rewrite::cell_box(&p, &params, array).unwrap();
            assert_eq!(bbox, CellBox { lo: min.clone(), hi: max.clone() }, "{array} at {params:?}");
            let cells = rewrite::cells_of(&p, &params, array, lo).unwrap();
            let accessed: BTreeSet<Vec<i64>> = acc.iter().map(|(_, c)| c.clone()).collect();
            let written: BTreeSet<Vec<i64>> = acc.iter().filter(|(w, _)| *w).map(|(_, c)| c.clone()).collect();
            // Every cell of a larger box: the flags, and nothing outside.
            for a in min[0] - 2..=max[0] + 2 {
                for b in min[1] - 2..=max[1] + 2 {
                    let c = vec![a, b];
                    assert_eq!(cells.accessed(&c), accessed.contains(&c), "{array}{c:?}");
                    assert_eq!(cells.written(&c), written.contains(&c), "{array}{c:?}");
                    let l = lo.is_some_and(|s| s.contains(&params, &c).unwrap()) && accessed.contains(&c);
                    assert_eq!(cells.live_out(&c), l, "{array}{c:?}");
                }
            }
            // The visit of the accessed cells: in row-major order, with their index.
            let mut visited = Vec::new();
            cells
                .for_each_accessed(|k, c| -> Result<bool, ()> {
                    assert_eq!(cells.bbox.index(c), Some(k));
                    visited.push(c.to_vec());
                    Ok(true)
                })
                .unwrap();
            assert_eq!(visited, accessed.iter().cloned().collect::<Vec<_>>());
            assert_eq!(visited, cells.accessed_cells().collect::<Vec<_>>());
        }
    }
}

#[test]
fn a_folded_cell_goes_where_its_row_values_say() {
    let p = program();
    let params = [5, 3];
    let cells = rewrite::cells_of(&p, &params, "A", None).unwrap();
    let at: BTreeMap<String, i64> = [("T".to_string(), 5), ("N".to_string(), 3)].into();
    let empty = Box::new(Set::parse("{ A[a, b] : 1 = 0 }").unwrap());
    let all = Box::new(Set::parse("{ A[a, b] }").unwrap());
    for text in [
        "[T, N] -> { A[a, b] -> A[a mod 2, b] }",
        "[T, N] -> { A[a, b] -> A[(b - 2a) mod (2N + 1)] }",
        "[T, N] -> { A[a, b] -> A[b mod 3, a mod 2, a + b] }",
    ] {
        let mapping = ModularMapping::parse(text).unwrap();
        let rows = rewrite::rows_at(&mapping, &at, &cells, &|_| true).unwrap();
        let values = |c: &[i64]| -> Vec<i64> { rows.iter().map(|r| r.value(c)).collect() };
        let extents: Vec<i64> = rows.iter().map(|r| r.extent).collect();
        // Unfolded rows start at 0 over the cells.
        let mut seen_min = vec![i64::MAX; rows.len()];
        cells
            .for_each_accessed(|_, c| -> Result<bool, ()> {
                for (k, v) in values(c).into_iter().enumerate() {
                    assert!(0 <= v && v < extents[k], "{text}: {c:?} row {k} value {v}");
                    seen_min[k] = seen_min[k].min(v);
                }
                Ok(true)
            })
            .unwrap();
        for (k, r) in rows.iter().enumerate() {
            if r.modulus.is_none() {
                assert_eq!(seen_min[k], 0, "{text}");
            }
        }
        let layouts = [
            Layout::PerDim { offset: vec![-4, 7] },
            Layout::PerDim { offset: vec![3] },
            Layout::Linear { base: 5, lo: vec![-2, -6], ext: vec![4, 11] },
            Layout::Linear { base: -40, lo: vec![0, 0, -3], ext: vec![2, 3, 5] },
        ];
        for layout in layouts {
            let placements = [
                Placement::NewArray { memref: "MemRef_A_folded".into(), sizes: extents.clone() },
                Placement::InPlace { layout: layout.clone(), folded: all.clone(), kept: empty.clone() },
            ];
            for placement in placements {
                let fold = ArrayFold { array: "A".into(), memref: "MemRef_A".into(), mapping: mapping.clone(), rows: rows.clone(), placement };
                for a in -4..=4 {
                    for b in -9..=9 {
                        let c = [a, b];
                        for in_c in [false, true] {
                            let expected = match &fold.placement {
                                Placement::NewArray { memref, .. } => Some((memref.clone(), values(&c))),
                                Placement::InPlace { layout, .. } => in_c.then(|| ("MemRef_A".to_string(), layout.locate(&values(&c), &extents))),
                            };
                            assert_eq!(fold.place(&c, in_c), expected, "{text} {:?} at {c:?}", fold.placement);
                            let mut out = vec![99];
                            assert_eq!(fold.locate_into(&c, in_c, &mut out), expected.is_some());
                            assert_eq!(out[1..], expected.map(|e| e.1).unwrap_or_default()[..]);
                        }
                    }
                }
            }
        }
    }
}
