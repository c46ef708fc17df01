//! CBC regression: a pure-integer feasibility model on which CBC 2.10 with its default
//! MIP preprocessing reported "proven optimal" with the point (dx2, dy2) = (0, 1),
//! violating `3 dx2 - 2 dy2 >= 1` (found by the lattice method's emptiness test on the
//! reverse-L conflict set of Darte et al. 2015, Fig. 7a). The backend re-solves without preprocessing;
//! the answer must pass the exact check. The model is feasible: (N, dx2, dy2) = (3, 1, 1)
//! satisfies every constraint by hand.
#![cfg(feature = "cbc")]

use polyalloc_backend_cbc::CbcSolver;
use polyalloc_ilp::{Cmp, LinExpr, Model, SolveOptions, Solver};

#[test]
fn feasibility_model_gets_a_feasible_point() {
    let mut m = Model::new("emptiness");
    let n = m.add_integer("N", Some(3), None);
    let dx = m.add_integer("dx2", Some(-1), None);
    let dy = m.add_integer("dy2", None, Some(1));
    let e = |t: &[(polyalloc_ilp::VarId, i64)]| {
        let mut x = LinExpr::new();
        for (v, c) in t {
            x.add_term(*v, *c);
        }
        x
    };
    m.add_constraint("ge0", e(&[(dy, -1)]), Cmp::Ge, -1);
    m.add_constraint("ge1", e(&[(dx, 1)]), Cmp::Ge, -1);
    m.add_constraint("ge2", e(&[(dx, 3), (dy, -2)]), Cmp::Ge, 1);
    m.add_constraint("ge3", e(&[(n, 1), (dx, -1)]), Cmp::Ge, 1);
    m.add_constraint("ge4", e(&[(n, 1), (dy, -1)]), Cmp::Ge, 1);
    m.add_constraint("ge5", e(&[(n, 1)]), Cmp::Ge, 3);
    m.add_constraint("ge6", e(&[(n, 1), (dy, 1)]), Cmp::Ge, 1);
    m.add_constraint("ge7", e(&[(n, 1), (dx, 1)]), Cmp::Ge, 1);
    let sol = CbcSolver.solve(&m, &SolveOptions::default()).expect("feasible model: a point that passes the exact check");
    assert!(3 * sol.int_value(dx) - 2 * sol.int_value(dy) >= 1);
}
