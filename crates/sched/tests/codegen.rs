//! Code rearrangement (Sec. 5) on schedules beyond the paper's examples: the loops
//! execute every instance exactly once, at its scheduled time step.

use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_formulation::Set;
use polyalloc_program::{Program, Statement};
use polyalloc_sched::codegen::{generate, Rounding};
use polyalloc_sched::schedule::{Problem, Schedule, StmtSchedule};
use std::collections::{BTreeMap, BTreeSet};

fn one_statement(domain: &str, coeffs: &[i64], params: &[&str], ctx: &str) -> (Problem, Schedule) {
    let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
    // A program of one statement without accesses, run in its loop order.
    let dims = Set::parse(domain).unwrap().space().output.dims.join(", ");
    let original = format!("[{}] -> {{ S[{dims}] -> [{dims}] }}", params.join(", "));
    let mut program = Program::new(ctx).unwrap();
    program.add_statement(Statement::parse(domain, &original, &[], &[]).unwrap()).unwrap();
    let pb = Problem::from_program(&program, vec![]).unwrap();
    let sc = Schedule {
        params: params.clone(),
        scale: 1,
        stmts: vec![StmtSchedule { name: "S".into(), coeffs: coeffs.to_vec(), param_coeffs: vec![0; params.len()], offset: 0 }],
    };
    (pb, sc)
}

/// Every domain point once; the steps in increasing scheduled time, one time per step.
fn check_covers(pb: &Problem, sc: &Schedule, params: &[i64]) {
    let code = generate(pb, sc, Rounding::Ceil, &BTreeMap::new(), &MicrolpSolver).unwrap();
    let tr = code.trace(params).unwrap();
    let mut seen = BTreeSet::new();
    let mut last = i64::MIN;
    for step in &tr.steps {
        let times: BTreeSet<i64> = step.iter().map(|(_, it)| sc.time("S", params, it).unwrap()).collect();
        assert_eq!(times.len(), 1, "one time per step:\n{}", code.text());
        let t = *times.iter().next().unwrap();
        assert!(t > last);
        last = t;
        for (_, it) in step {
            assert!(seen.insert(it.clone()), "{it:?} twice");
        }
    }
    let all: BTreeSet<Vec<i64>> = pb.statements[0].domain.enumerate(params, 100_000).unwrap().into_iter().collect();
    assert_eq!(seen, all, "\n{}", code.text());
}

/// Sec. 5: "T_q[i, j, k] = 6i + 10j + 15k ... can be extended to a unimodular matrix"
/// (no coefficient is +-1: the general completion is used).
#[test]
fn schedule_without_unit_coefficient() {
    let (pb, sc) = one_statement("[N] -> { S[i, j, k] : 0 <= i, j, k <= N }", &[6, 10, 15], &["N"], "[N] -> { : N >= 1 }");
    for n in [1, 2, 3] {
        check_covers(&pb, &sc, &[n]);
    }
    let (pb, sc) = one_statement("[N] -> { S[i, j] : 0 <= i <= N and i <= j <= 2N }", &[2, -3], &["N"], "[N] -> { : N >= 1 }");
    for n in [1, 3] {
        check_covers(&pb, &sc, &[n]);
    }
}

/// A skewed wavefront with a negative unit coefficient, and a time independent of the
/// iterators (everything in one step).
#[test]
fn negative_and_constant_schedules() {
    let (pb, sc) = one_statement("[N] -> { S[i, j] : 1 <= i <= N and 1 <= j <= i }", &[1, -1], &["N"], "[N] -> { : N >= 2 }");
    check_covers(&pb, &sc, &[4]);
    let (pb, sc) = one_statement("[N] -> { S[i, j] : 1 <= i <= N and 1 <= j <= N }", &[0, 0], &["N"], "[N] -> { : N >= 2 }");
    check_covers(&pb, &sc, &[3]);
}

/// A schedule whose coefficients have a common divisor (the statement runs every g
/// steps) is reported, not mis-compiled.
#[test]
fn gcd_above_one_is_an_error() {
    let (pb, sc) = one_statement("[N] -> { S[i, j] : 1 <= i <= N and 1 <= j <= N }", &[2, 4], &["N"], "[N] -> { : N >= 2 }");
    assert!(generate(&pb, &sc, Rounding::Ceil, &BTreeMap::new(), &MicrolpSolver).is_err());
}
