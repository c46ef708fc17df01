//! The executor: original order versus schedules, traces and storage mappings.

use polyalloc_formulation::ModularMapping;
use polyalloc_program::exec::{Body, Executor, Mismatch, Storage, Trace};
use polyalloc_program::{Program, Statement};

/// Pugh 1991, Example 1 (Sec. 3): for l := k+1 to n { s1: B[l,l] := B[l-1,k+1]*B[k,k];
/// for j := k+1 to n { s2: B[l,j] := B[l,j]+B[l-1,j]+B[l,j-1]+B[l,k]*B[k,j] } }.
fn example1() -> Executor {
    let mut p = Program::new("[k, n] -> { : k >= 0 and n >= k + 3 }").unwrap();
    p.add_statement(
        Statement::parse(
            "[k, n] -> { s1[i] : k + 1 <= i <= n }",
            "[k, n] -> { s1[i] -> [i, 0, 0] }",
            &["[k, n] -> { s1[i] -> B[i, i] }"],
            &["[k, n] -> { s1[i] -> B[i - 1, k + 1] }", "[k, n] -> { s1[i] -> B[k, k] }"],
        )
        .unwrap(),
    )
    .unwrap();
    p.add_statement(
        Statement::parse(
            "[k, n] -> { s2[i, j] : k + 1 <= i <= n and k + 1 <= j <= n }",
            "[k, n] -> { s2[i, j] -> [i, 1, j] }",
            &["[k, n] -> { s2[i, j] -> B[i, j] }"],
            &[
                "[k, n] -> { s2[i, j] -> B[i, j] }",
                "[k, n] -> { s2[i, j] -> B[i - 1, j] }",
                "[k, n] -> { s2[i, j] -> B[i, j - 1] }",
                "[k, n] -> { s2[i, j] -> B[i, k] }",
                "[k, n] -> { s2[i, j] -> B[k, j] }",
            ],
        )
        .unwrap(),
    )
    .unwrap();
    let v = |r: &[Option<i64>], k: usize| r[k].unwrap_or(0);
    let s1: Body = Box::new(move |_, r| vec![v(r, 0).wrapping_mul(v(r, 1))]);
    let s2: Body = Box::new(move |_, r| vec![v(r, 0).wrapping_add(v(r, 1)).wrapping_add(v(r, 2)).wrapping_add(v(r, 3).wrapping_mul(v(r, 4)))]);
    Executor::new(p, vec![s1, s2]).unwrap()
}

/// The final schedule of Pugh 1991, Sec. 4 (Fig. 3), scaled by 2 (footnote 4):
/// T1[i] = 2i + 2k + 1, T2[i, j] = 2i + 2j, and the "as late as possible" one of Fig. 4.
#[test]
fn paper_schedules_of_example1_compute_the_same_values() {
    let ex = example1();
    for (k, n) in [(0, 3), (1, 5), (2, 8)] {
        let params = [k, n];
        for late in [false, true] {
            let rep = ex
                .compare_schedule(
                    &params,
                    &|s, it| {
                        Ok(vec![match (s, late) {
                            (0, false) => 2 * it[0] + 2 * k + 1,
                            (0, true) => 4 * it[0] - 1,
                            _ => 2 * it[0] + 2 * it[1],
                        }])
                    },
                    &Storage::new(),
                )
                .unwrap();
            assert!(rep.ok(), "{}", rep.summary());
            assert_eq!(rep.instances as i64, (n - k) + (n - k) * (n - k));
            assert!(rep.reads_compared > 0 && rep.live_out_compared > 0);
        }
    }
}

/// Pugh 1991, Sec. 4: "Try T2[i, j] = i: fails" (and T2 = j fails): running all j (or all i)
/// of s2 in one parallel step changes values read.
#[test]
fn illegal_schedules_are_caught() {
    let ex = example1();
    let params = [1, 5];
    for bad in [0usize, 1] {
        let rep = ex.compare_schedule(&params, &|s, it| Ok(vec![if s == 0 { 2 * it[0] - 1 } else { 2 * it[bad] }]), &Storage::new()).unwrap();
        assert!(!rep.ok(), "T2 = {} must fail", ["i", "j"][bad]);
    }
}

#[test]
fn coverage_errors_are_reported() {
    let ex = example1();
    let params = [0, 3];
    let mut tr = ex.original_trace(&params).unwrap();
    let dropped = tr.steps.remove(2);
    let rep = ex.compare(&params, &tr, &Storage::new()).unwrap();
    assert!(matches!(&rep.mismatches[0], Mismatch::Missing { iter, .. } if *iter == dropped[0].1));
    let mut tr2: Trace = ex.original_trace(&params).unwrap();
    tr2.steps.push(vec![(1, vec![9, 9])]);
    let rep = ex.compare(&params, &tr2, &Storage::new()).unwrap();
    assert!(rep.mismatches.iter().any(|m| matches!(m, Mismatch::Spurious { why, .. } if why.contains("domain"))));
}

/// Bhaskaracharya et al. 2016, Fig. 2 (produce-consume) under its schedule (t, i): the SMO mapping
/// `A[(i - t) mod (2N - 1)]` of Bhaskaracharya et al. 2016, Sec. 3.1 is valid, one cell less is not.
#[test]
fn storage_mappings_from_paper_004() {
    let mut p = Program::new("[N] -> { : N >= 2 }").unwrap();
    p.add_statement(
        Statement::parse(
            "[N] -> { S[t, i] : 1 <= t <= N and 1 <= i <= N }",
            "[N] -> { S[t, i] -> [t, i] }",
            &["[N] -> { S[t, i] -> A[t, i] }"],
            &["[N] -> { S[t, i] -> A[t, i - 1] }", "[N] -> { S[t, i] -> A[t - 1, i] }"],
        )
        .unwrap(),
    )
    .unwrap();
    p.add_live_out("[N] -> { A[t, i] : 1 <= t <= N and 1 <= i <= N and (i = N or t = N) }").unwrap();
    let ex = Executor::with_hash_bodies(p);
    for n in [3, 4, 6] {
        let params = [n];
        let tr = ex.original_trace(&params).unwrap();
        let mut good = Storage::new();
        good.insert("A".into(), ModularMapping::parse("[N] -> { A[t, i] -> A[(i - t) mod (2N - 1)] }").unwrap());
        let rep = ex.compare(&params, &tr, &good).unwrap();
        assert!(rep.ok(), "{}", rep.summary());
        assert_eq!(rep.live_out_compared as i64, 2 * n - 1);
        let mut bad = Storage::new();
        bad.insert("A".into(), ModularMapping::parse("[N] -> { A[t, i] -> A[(i - t) mod (2N - 2)] }").unwrap());
        assert!(!ex.compare(&params, &tr, &bad).unwrap().ok());
    }
}

/// Loop interchange of Bhaskaracharya et al. 2016, Fig. 2's nest is legal (distances (0, 1) and (1, 0) stay
/// lexicographically positive as (1, 0) and (0, 1)); a single time dimension `t` is not.
#[test]
fn affine_multidimensional_schedules() {
    let mut p = Program::new("[N] -> { : N >= 2 }").unwrap();
    p.add_statement(
        Statement::parse(
            "[N] -> { S[t, i] : 1 <= t <= N and 1 <= i <= N }",
            "[N] -> { S[t, i] -> [t, i] }",
            &["[N] -> { S[t, i] -> A[t, i] }"],
            &["[N] -> { S[t, i] -> A[t, i - 1] }", "[N] -> { S[t, i] -> A[t - 1, i] }"],
        )
        .unwrap(),
    )
    .unwrap();
    let sp = p.statements[0].domain.space().clone();
    let aff = |s: &str| polyalloc_formulation::AffExpr::parse(&sp, s).unwrap();
    let ex = Executor::with_hash_bodies(p);
    let rep = ex.compare_affine(&[4], &[vec![aff("i"), aff("t")]], &Storage::new()).unwrap();
    assert!(rep.ok(), "{}", rep.summary());
    assert!(!ex.compare_affine(&[4], &[vec![aff("t")]], &Storage::new()).unwrap().ok());
    assert!(ex.compare_affine(&[4], &[], &Storage::new()).is_err());
}

/// A fold region (Song et al. 2005, Sec. 5: only the local region of an array is contracted). S0
/// writes A[0] once; S1[i], 1 <= i <= N, writes A[i] from A[i - 1] and A[0]. Folding
/// only the region 1 <= i <= N onto two cells is correct (A[0] keeps its own location,
/// and its final value is compared as live-out); folding every cell of A with the same
/// mapping overwrites A[0] with A[2], which the executor detects.
#[test]
fn a_fold_region_keeps_the_cells_outside_it_in_place() {
    let build = |region: bool| {
        let mut p = Program::new("[N] -> { : N >= 3 }").unwrap();
        p.add_statement(Statement::parse("[N] -> { S0[] }", "[N] -> { S0[] -> [0, 0] }", &["[N] -> { S0[] -> A[0] }"], &[]).unwrap()).unwrap();
        p.add_statement(
            Statement::parse(
                "[N] -> { S1[i] : 1 <= i <= N }",
                "[N] -> { S1[i] -> [1, i] }",
                &["[N] -> { S1[i] -> A[i] }"],
                &["[N] -> { S1[i] -> A[i - 1] }", "[N] -> { S1[i] -> A[0] }"],
            )
            .unwrap(),
        )
        .unwrap();
        if region {
            p.add_fold_region(polyalloc_formulation::Set::parse("[N] -> { A[i] : 1 <= i <= N }").unwrap()).unwrap();
            // One region per array.
            assert!(p.add_fold_region(polyalloc_formulation::Set::parse("[N] -> { A[i] : i >= 1 }").unwrap()).is_err());
        }
        Executor::with_hash_bodies(p)
    };
    let mut storage = Storage::new();
    storage.insert("A".into(), ModularMapping::parse("[N] -> { A[i] -> A[i mod 2] }").unwrap());
    for n in [3, 6] {
        let ex = build(true);
        let rep = ex.compare(&[n], &ex.original_trace(&[n]).unwrap(), &storage).unwrap();
        assert!(rep.ok(), "{}", rep.summary());
        // A[0] is outside the region: compared at the end although A is mapped and the
        // program declares no live-out cell.
        assert_eq!(rep.live_out_compared, 1);
        let ex = build(false);
        let rep = ex.compare(&[n], &ex.original_trace(&[n]).unwrap(), &storage).unwrap();
        assert!(!rep.ok(), "folding A[0] too must be detected at N = {n}");
        assert!(rep.mismatches.iter().any(|m| matches!(m, Mismatch::Read { cell, .. } if cell == &vec![0])));
    }
}

/// A time-expanded 1-D stencil on `A[t, i]`, `t = 1..T`, whose row 0 is an input and
/// whose last row is read after the program.
fn expanded_stencil() -> Executor {
    let mut p = Program::new("[T, N] -> { : T >= 3 and N >= 3 }").unwrap();
    p.add_statement(
        Statement::parse(
            "[T, N] -> { S[t, i] : 1 <= t <= T and 1 <= i <= N }",
            "[T, N] -> { S[t, i] -> [t, i] }",
            &["[T, N] -> { S[t, i] -> A[t, i] }"],
            &["[T, N] -> { S[t, i] -> A[t - 1, i - 1] }", "[T, N] -> { S[t, i] -> A[t - 1, i] }", "[T, N] -> { S[t, i] -> A[t - 1, i + 1] }"],
        )
        .unwrap(),
    )
    .unwrap();
    p.add_live_out("[T, N] -> { A[t, i] : t = T }").unwrap();
    Executor::with_hash_bodies(p)
}

/// Memory as a compiled program has it: a placement in the array itself must not
/// overwrite an input value before it is read, nor a value read later; a new array
/// holds garbage until written.
#[test]
fn placed_runs_model_memory_as_compiled() {
    let exec = expanded_stencil();
    let (t, n) = (6i64, 8i64);
    let placed = vec!["A".to_string()];
    let storages = vec!["A".to_string(), "A2".to_string()];
    // The cells the program writes and nobody reads after it: rows 1..T-1, columns
    // 1..N. The others (row 0, columns 0 and N + 1: inputs; row T: live-out) stay.
    let folded = |c: &[i64]| 1 <= c[0] && c[0] < t && 1 <= c[1] && c[1] <= n;
    type Place<'a> = &'a dyn Fn(&str, &[i64], &mut Vec<i64>) -> polyalloc_program::Result<Option<usize>>;
    let rows = |row: &'static dyn Fn(i64) -> i64| {
        move |_: &str, c: &[i64], idx: &mut Vec<i64>| -> polyalloc_program::Result<Option<usize>> {
            if !folded(c) {
                return Ok(None);
            }
            idx.extend([row(c[0]), c[1]]);
            Ok(Some(0))
        }
    };
    let run = |place: Place<'_>| exec.compare_placed(&[t, n], &placed, &storages, place).unwrap();
    // Two rows of A's own rows 1 and 2 (written cells only): correct.
    let r = run(&rows(&|r| r % 2 + 1));
    assert!(r.ok(), "{}", r.summary());
    assert_eq!(r.reads_compared as i64, t * n * 3);
    // Rows 0 and 1: row 2 lands on the inputs of row 0, which only row 1 reads: correct.
    assert!(run(&rows(&|r| r % 2)).ok());
    // Row 1 on row 0 overwrites input A[0, i] while A[1, i + 1] still has to read it.
    let r = run(&rows(&|r| (r + 1) % 2));
    assert!(matches!(r.mismatches.first(), Some(Mismatch::Read { cell, .. }) if cell[0] == 0), "{}", r.summary());
    // One row for every t: A[t - 1, i] is overwritten by A[t, i - 1]'s neighbour first.
    let r = run(&rows(&|_| 1));
    assert!(matches!(r.mismatches.first(), Some(Mismatch::Read { .. })), "{}", r.summary());
    // Rows T - 1 and T: row T - 1 is folded onto the cells where row T is then
    // written, before row T has read it all.
    assert!(!run(&rows(&|r| r % 2 + 5)).ok());
    // A placement that puts a folded value on a live-out cell after its last write.
    let late = |_: &str, c: &[i64], idx: &mut Vec<i64>| -> polyalloc_program::Result<Option<usize>> {
        if !folded(c) {
            return Ok(None);
        }
        // Row T - 1's cell N goes to the live-out cell A[T, 1], which is written at
        // (T, 1) before A[T - 1, N] is read at (T, N - 1).
        if c[0] == t - 1 && c[1] == n {
            idx.extend([t, 1]);
        } else {
            idx.extend([c[0] % 2 + 1, c[1]]);
        }
        Ok(Some(0))
    };
    assert!(!run(&late).ok());
    // A new array for every cell, inputs included: the reads of row 0 get garbage.
    let r = run(&|_: &str, c: &[i64], idx: &mut Vec<i64>| {
        idx.extend([c[0] % 2, c[1]]);
        Ok(Some(1))
    });
    assert!(matches!(r.mismatches.first(), Some(Mismatch::Read { cell, .. }) if cell[0] == 0), "{}", r.summary());
    // The live-out cells placed elsewhere: the caller, reading them where they belong,
    // finds the input values there.
    let away = |_: &str, c: &[i64], idx: &mut Vec<i64>| -> polyalloc_program::Result<Option<usize>> {
        if c[0] == t && 1 <= c[1] && c[1] <= n {
            idx.extend([0, c[1]]);
            return Ok(Some(1));
        }
        Ok(None)
    };
    let r = run(&away);
    assert!(r.mismatches.iter().any(|m| matches!(m, Mismatch::LiveOut { cell, .. } if cell[0] == t)), "{}", r.summary());
}
