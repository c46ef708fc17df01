//! microlp's integer variables need finite (i32) bounds; the backend's artificial bounds
//! must neither hide an unbounded objective nor turn a feasible model into "unbounded".

use polyalloc_backend_microlp::MicrolpSolver;
use polyalloc_ilp::{Cmp, LinExpr, Model, Sense, SolveError, SolveOptions, Solver};

#[test]
fn a_feasibility_model_with_free_integers_returns_a_point() {
    // x - y = 3 with x, y free and no objective: any point is optimal, even one that a
    // simplex vertex puts on an artificial bound.
    let mut m = Model::new("feasibility");
    let x = m.add_integer("x", None, None);
    let y = m.add_integer("y", None, None);
    m.add_constraint("d", LinExpr::from(x) - y, Cmp::Eq, 3);
    let s = MicrolpSolver.solve(&m, &SolveOptions::default()).expect("feasible");
    assert_eq!(s.int_value(x) - s.int_value(y), 3);
}

#[test]
fn an_objective_flat_along_the_free_direction_is_optimal() {
    // min x subject to x >= 2, x - y = 3: y is free but the objective does not depend on
    // it once x is fixed: optimum x = 2.
    let mut m = Model::new("flat");
    let x = m.add_integer("x", Some(2), None);
    let y = m.add_integer("y", None, None);
    m.add_constraint("d", LinExpr::from(x) - y, Cmp::Eq, 3);
    m.set_objective(Sense::Minimize, LinExpr::from(x));
    let s = MicrolpSolver.solve(&m, &SolveOptions::default()).expect("optimal");
    assert_eq!(s.objective_exact(), Some(2));
}

#[test]
fn an_unbounded_objective_is_reported_unbounded() {
    // min x - y with x = y + 1 - z, z >= 0: x - y = 1 - z decreases forever.
    let mut m = Model::new("unbounded");
    let x = m.add_integer("x", None, None);
    let y = m.add_integer("y", None, None);
    let z = m.add_integer("z", Some(0), None);
    m.add_constraint("d", LinExpr::from(x) - y + z, Cmp::Eq, 1);
    m.set_objective(Sense::Minimize, LinExpr::from(x) - y);
    assert_eq!(MicrolpSolver.solve(&m, &SolveOptions::default()).unwrap_err(), SolveError::Unbounded);
}

#[test]
fn a_parametric_conflict_polyhedron_is_found_non_empty() {
    // The first conflict polyhedron of 004 Fig. 2(c) with N a free parameter, as the
    // formulation crate's emptiness test builds it (no objective): 1 <= t, i <= N,
    // t2 = t, i + 1 <= i2 <= N, N >= 2. The parameter is unbounded above, so a vertex may
    // sit on the artificial bound; the model is feasible, never "unbounded".
    let mut m = Model::new("emptiness");
    let n = m.add_integer("N", None, None);
    let t = m.add_integer("t", None, None);
    let i = m.add_integer("i", None, None);
    let t2 = m.add_integer("t2", None, None);
    let i2 = m.add_integer("i2", None, None);
    m.add_constraint("N>=2", LinExpr::from(n), Cmp::Ge, 2);
    m.add_constraint("t>=1", LinExpr::from(t), Cmp::Ge, 1);
    m.add_constraint("t<=N", LinExpr::from(t) - n, Cmp::Le, 0);
    m.add_constraint("i>=1", LinExpr::from(i), Cmp::Ge, 1);
    m.add_constraint("i<=N", LinExpr::from(i) - n, Cmp::Le, 0);
    m.add_constraint("t2=t", LinExpr::from(t2) - t, Cmp::Eq, 0);
    m.add_constraint("i2>i", LinExpr::from(i2) - i, Cmp::Ge, 1);
    m.add_constraint("i2<=N", LinExpr::from(i2) - n, Cmp::Le, 0);
    let s = MicrolpSolver.solve(&m, &SolveOptions::default()).expect("non-empty");
    assert!(s.int_value(i2) > s.int_value(i) && s.int_value(i2) <= s.int_value(n));
}
