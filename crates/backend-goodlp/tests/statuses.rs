//! The status rules of the good_lp backends on models where good_lp alone loses or
//! bends the answer, on every compiled-in good_lp solver. Expected answers are derived
//! by hand in each test's comment. (The cross-backend conformance suite of
//! `polyalloc-solvers` runs its own cases on these backends too.)
#![cfg(any(feature = "microlp", feature = "highs", feature = "cbc", feature = "lpsolve"))]

use polyalloc_backend_goodlp::{GoodLpKind, GoodLpSolver};
use polyalloc_ilp::{Cmp, LinExpr, Model, Sense, SolutionStatus, SolveError, SolveOptions, Solver};

fn solvers() -> Vec<GoodLpSolver> {
    GoodLpKind::compiled_in().into_iter().map(|k| GoodLpSolver::new(k).unwrap_or_else(|e| panic!("{}: {e}", k.name()))).collect()
}

fn e(v: polyalloc_ilp::VarId, c: i64) -> LinExpr {
    LinExpr::term(v, c)
}

/// Rows contradict (x + y >= 5, x + y <= 4) while the objective min -x - y is unbounded
/// over the bounds x, y >= 0: "infeasible" cannot be settled by the bounds, so the
/// backend's feasibility solve must confirm it.
#[test]
fn infeasible_with_an_objective_unbounded_over_the_bounds() {
    for integral in [false, true] {
        let mut m = Model::new("infeasible-open-objective");
        let kind = if integral { polyalloc_ilp::VarKind::Integer } else { polyalloc_ilp::VarKind::Continuous };
        let x = m.add_var("x", kind, Some(0), None);
        let y = m.add_var("y", kind, Some(0), None);
        m.add_constraint("lo", e(x, 1) + e(y, 1), Cmp::Ge, 5);
        m.add_constraint("hi", e(x, 1) + e(y, 1), Cmp::Le, 4);
        m.set_objective(Sense::Minimize, e(x, -1) + e(y, -1));
        for s in solvers() {
            let got = s.solve(&m, &SolveOptions::default());
            assert_eq!(got.as_ref().err(), Some(&SolveError::Infeasible), "{} (integral: {integral}): {got:?}", s.name());
        }
    }
}

/// min x with x <= 5 and no lower bound, x integer (and the same for a continuous x):
/// unbounded below. lp_solve's variables default to a lower bound of 0 and microlp's
/// integer bounds are `i32`: both must still see "unbounded".
#[test]
fn unbounded_below_with_only_an_upper_bound() {
    for integral in [false, true] {
        let mut m = Model::new("open-below");
        let kind = if integral { polyalloc_ilp::VarKind::Integer } else { polyalloc_ilp::VarKind::Continuous };
        let x = m.add_var("x", kind, None, Some(5));
        let y = m.add_var("y", kind, Some(0), Some(3));
        m.add_constraint("link", e(x, 1) + e(y, 1), Cmp::Le, 7);
        m.set_objective(Sense::Minimize, e(x, 1) + e(y, 1));
        for s in solvers() {
            let got = s.solve(&m, &SolveOptions::default());
            assert_eq!(got.as_ref().err(), Some(&SolveError::Unbounded), "{} (integral: {integral}): {got:?}", s.name());
        }
    }
}

/// max -x - y over integers x >= -3 (no upper bound), y <= 4 (no lower bound), with
/// x + y >= -7: the row gives -x - y <= 7, attained at x = -3, y = -4, so the optimum is
/// 7 although y is free below (lp_solve's default lower bound of 0 would give -1, an
/// artificial bound too close would not matter here).
#[test]
fn optimum_with_a_variable_free_below() {
    let mut m = Model::new("free-below");
    let x = m.add_integer("x", Some(-3), None);
    let y = m.add_integer("y", None, Some(4));
    m.add_constraint("floor", e(x, 1) + e(y, 1), Cmp::Ge, -7);
    m.set_objective(Sense::Maximize, e(x, -1) + e(y, -1));
    for s in solvers() {
        let got = s.solve(&m, &SolveOptions::default()).unwrap_or_else(|err| panic!("{}: {err}", s.name()));
        assert!(got.is_optimal(), "{}", s.name());
        assert_eq!(got.objective_exact(), Some(7), "{}", s.name());
    }
}

/// A model without variables: `0 <= 3` holds (the empty point is optimal), `0 >= 1`
/// does not (infeasible). HiGHS and CBC cannot load such a model through good_lp.
#[test]
fn model_without_variables() {
    let mut ok = Model::new("empty-ok");
    ok.add_constraint("trivial", LinExpr::new(), Cmp::Le, 3);
    let mut bad = Model::new("empty-bad");
    bad.add_constraint("absurd", LinExpr::new(), Cmp::Ge, 1);
    for s in solvers() {
        let got = s.solve(&ok, &SolveOptions::default()).unwrap_or_else(|err| panic!("{}: {err}", s.name()));
        assert_eq!(got.status(), SolutionStatus::Optimal, "{}", s.name());
        assert_eq!(s.solve(&bad, &SolveOptions::default()).err(), Some(SolveError::Infeasible), "{}", s.name());
    }
}

/// A 0/1 knapsack of 24 items (weights 7..30, values 3..26 by a fixed rule, capacity
/// half the total weight). With a relative gap of 0.5 an answer may stop early, but its
/// objective must be within the gap of the optimum (found with gap 0), and a stop by
/// the gap must say so.
#[test]
fn a_relative_gap_is_honoured_or_the_optimum_returned() {
    let mut m = Model::new("knapsack-24");
    let items: Vec<(i64, i64)> = (0..24i64).map(|i| (7 + (i * 13) % 24, 3 + (i * 7) % 24)).collect();
    let x: Vec<_> = (0..items.len()).map(|i| m.add_binary(format!("x{i}"))).collect();
    let cap = items.iter().map(|w| w.0).sum::<i64>() / 2;
    m.add_constraint("cap", x.iter().zip(&items).map(|(&v, w)| e(v, w.0)).sum(), Cmp::Le, cap);
    m.set_objective(Sense::Maximize, x.iter().zip(&items).map(|(&v, w)| e(v, w.1)).sum());
    for s in solvers() {
        let best = s.solve(&m, &SolveOptions::default()).unwrap_or_else(|err| panic!("{}: {err}", s.name()));
        assert!(best.is_optimal(), "{}", s.name());
        let opt = best.objective_exact().expect("integral objective");
        let loose = s.solve(&m, &SolveOptions::default().with_mip_rel_gap(0.5)).unwrap_or_else(|err| panic!("{}: {err}", s.name()));
        let got = loose.objective_exact().expect("integral objective");
        assert!(got <= opt && 2 * got >= opt, "{}: {got} vs optimum {opt}", s.name());
        if got < opt {
            assert_eq!(loose.status(), SolutionStatus::GapLimitFeasible, "{}", s.name());
        }
    }
}

/// lp_solve's log goes to the C library's standard output at its default verbosity;
/// the backend must keep it off. Run in a child process (the test binary itself, this
/// test only) whose standard output is captured.
#[cfg(all(feature = "lpsolve", target_os = "linux"))]
#[test]
fn lp_solve_prints_nothing_on_standard_output() {
    if std::env::var_os("GOODLP_QUIET_CHILD").is_some() {
        let mut m = Model::new("child");
        let x = m.add_integer("x", Some(0), Some(9));
        let y = m.add_integer("y", Some(0), Some(9));
        m.add_constraint("r", e(x, 3) + e(y, 5), Cmp::Le, 22);
        m.set_objective(Sense::Maximize, e(x, 2) + e(y, 3));
        let s = GoodLpSolver::new(GoodLpKind::LpSolve).expect("lp_solve");
        let got = s.solve(&m, &SolveOptions::default()).expect("solves");
        // 3x + 5y <= 22 gives x <= 7, 5, 4, 2, 0 for y = 0..4: objectives 14, 13, 14,
        // 13, 12; the optimum is 14.
        assert_eq!(got.objective_exact(), Some(14));
        return;
    }
    let exe = std::env::current_exe().expect("test binary");
    let out = std::process::Command::new(exe)
        .args(["--exact", "lp_solve_prints_nothing_on_standard_output", "--nocapture", "--test-threads=1"])
        .env("GOODLP_QUIET_CHILD", "1")
        .output()
        .expect("child runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "child failed:\n{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    for marker in ["Model name:", "MEMO: lp_solve", "Optimal solution "] {
        assert!(!stdout.contains(marker), "lp_solve's log reached standard output:\n{stdout}");
    }
}
